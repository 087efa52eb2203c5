/* tests/unit/test_rsdl.c - the RSDL model against values worked out by hand
 * from the rules of seed 001 and docs/rsdl.md (RR = 6 ms, HZ = 1000,
 * 1 CPU, default gap-fillers; invariant checks on in every run).
 *
 * Rules used in the derivations: a nice-n task may run one quota at its
 * static level 20+n and at every level below it, i.e. L = 20-n levels per
 * major epoch; quota q = RR for n >= 0, RR*(1-n) for n < 0. A CPU-bound
 * task therefore gets L*q per epoch, and an epoch of CPU-bound tasks lasts
 * the sum of those. */
#include "harness.h"
#include "test_engine_util.h"

static uint64_t run_ms(const struct trec *r, int task)
{
	return trun_runtime(r, task) / TMS;
}

SL_TEST(rsdl_two_nice0_hogs_half_each_wait_le_120)
{
	/* Each epoch: 20 levels x 6 ms for each task = 240 ms, alternating
	 * 6 ms turns at every level. 10 s = 41 epochs + 160 ms, inside which
	 * they still alternate 6 ms turns: shares differ by at most one turn.
	 * Longest wait: bound(0 | 0) = 1*(20+0)*6 = 120 ms (steady state
	 * only 6 ms, one turn of the other task). */
	struct trec r;
	struct sl_replay_stats st;
	uint64_t a, b;
	CHECK_EQ_INT(trun_text("a 0 run=inf\nb 0 run=inf\n", "rsdl", 1, 10000 * TMS, NULL, &r, &st), 0);
	a = trun_runtime(&r, 0);
	b = trun_runtime(&r, 1);
	CHECK_EQ_INT(a + b, 10000 * TMS);
	CHECK(a >= b ? a - b <= 6 * TMS : b - a <= 6 * TMS);
	CHECK(trun_max_gap(&r, 0, 0) <= 120 * TMS);
	CHECK(trun_max_gap(&r, 1, 0) <= 120 * TMS);
	/* 10 s / 240 ms per epoch = 41.67: 41 major rotations */
	CHECK_EQ_INT(st.unfinished, 2);
	trec_free(&r);
}

SL_TEST(rsdl_nice0_vs_nice10_two_to_one)
{
	/* Epoch: nice 0 gets 20*6 = 120 ms, nice 10 gets 10*6 = 60 ms: 180 ms.
	 * 9 s = exactly 50 epochs -> 6000 ms and 3000 ms. Waits: nice 0 <=
	 * bound = 1*(10+0)*6 = 60 ms; nice 10 <= 1*(20+10)*6 = 180 ms. */
	struct trec r;
	CHECK_EQ_INT(trun_text("a 0 run=inf\nc 10 run=inf\n", "rsdl", 1, 9000 * TMS, NULL, &r, NULL), 0);
	CHECK_EQ_INT(run_ms(&r, 0), 6000);
	CHECK_EQ_INT(run_ms(&r, 1), 3000);
	CHECK(trun_max_gap(&r, 0, 0) <= 60 * TMS);
	CHECK(trun_max_gap(&r, 1, 0) <= 180 * TMS);
	trec_free(&r);
}

SL_TEST(rsdl_four_nice_mix_shares_and_bounds)
{
	/* nice -20: q = 21 RR, 40 levels -> 840 RR per epoch; nice 0: 20 RR;
	 * nice 10: 10 RR; nice 19: 1 RR. Epoch = 871 RR = 5226 ms, so 10 epochs
	 * = 52260 ms give exactly 8400/200/100/10 RR = 50400/1200/600/60 ms.
	 * Bounds (bound formula, in RR): nice -20: 20+10+1 = 31 (186 ms);
	 * nice 0: 21*(40+20) + 10 + 1 = 1271 (7626 ms); nice 10: 21*70 + 30 + 1
	 * = 1501 (9006 ms); nice 19: 21*79 + 39 + 19 = 1717 (10302 ms). */
	struct trec r;
	CHECK_EQ_INT(trun_text("a -20 run=inf\nb 0 run=inf\nc 10 run=inf\nd 19 run=inf\n", "rsdl", 1,
			       52260 * TMS, NULL, &r, NULL), 0);
	CHECK_EQ_INT(run_ms(&r, 0), 50400);
	CHECK_EQ_INT(run_ms(&r, 1), 1200);
	CHECK_EQ_INT(run_ms(&r, 2), 600);
	CHECK_EQ_INT(run_ms(&r, 3), 60);
	CHECK(trun_max_gap(&r, 0, 0) <= 186 * TMS);
	CHECK(trun_max_gap(&r, 1, 0) <= 7626 * TMS);
	CHECK(trun_max_gap(&r, 2, 0) <= 9006 * TMS);
	CHECK(trun_max_gap(&r, 3, 0) <= 10302 * TMS);
	trec_free(&r);
}

/* Max over start times 0..max_ms (1 ms steps) of task 0's longest wait when
 * task 1 appears at that time. */
static uint64_t sweep(const char *first, const char *second, unsigned max_ms, uint64_t *at)
{
	uint64_t worst = 0;
	unsigned s;
	char w[256];
	for (s = 0; s <= max_ms; s++) {
		struct trec r;
		uint64_t g;
		snprintf(w, sizeof(w), "%s\n%s start=%ums\n", first, second, s);
		if (trun_text(w, "rsdl", 1, (s + 800) * TMS, NULL, &r, NULL))
			return UINT64_MAX;
		g = trun_max_gap(&r, 0, 0);
		if (g > worst) {
			worst = g;
			*at = s;
		}
		trec_free(&r);
	}
	return worst;
}

SL_TEST(rsdl_worst_case_two_nice0_reaches_120)
{
	/* The announcement's worst case: a alone runs its 20 levels (0..120 ms)
	 * and expires exactly as b is activated with a full quota; b then runs
	 * 20 levels x 6 ms = 120 ms before the major rotation lets a run. Any
	 * earlier start preempts a while it still has quota at level 39, so
	 * the sweep's maximum is at b's start = 120 ms and equals the bound. */
	uint64_t at = 0, w = sweep("a 0 run=inf", "b 0 run=inf", 240, &at);
	CHECK(w <= 120 * TMS);
	CHECK(w + TMS >= 120 * TMS);
	CHECK_EQ_INT(at, 120);
}

SL_TEST(rsdl_worst_case_nice10_waits_180)
{
	/* c (nice 10) alone runs levels 30..39 (60 ms) and expires as a (nice
	 * 0) arrives at 60 ms: a runs its 20 levels (120 ms) while c is on the
	 * expired array, then after the rotation a runs levels 20..29 (60 ms)
	 * before c's level 30: 120 + 60 = 180 ms = bound(10 | 0). */
	uint64_t at = 0, w = sweep("c 10 run=inf", "a 0 run=inf", 240, &at);
	CHECK(w <= 180 * TMS);
	CHECK(w + TMS >= 180 * TMS);
}

SL_TEST(rsdl_worst_case_nice0_waits_60)
{
	/* a (nice 0) alone expires at 120 ms as c (nice 10) arrives with a full
	 * quota: c runs levels 30..39 = 60 ms, then the rotation gives a its
	 * level 20 again: a waits 60 ms = bound(0 | 10). */
	uint64_t at = 0, w = sweep("a 0 run=inf", "c 10 run=inf", 240, &at);
	CHECK(w <= 60 * TMS);
	CHECK(w + TMS >= 60 * TMS);
}

SL_TEST(rsdl_sleeper_1ms_per_10ms_low_latency_and_its_share)
{
	/* A task running 1 ms then sleeping 9 ms beside a hog: it wakes with
	 * quota at its level, which is better than the hog's except right
	 * after a major rotation, when both are at level 20 and it waits for
	 * the hog's current quota: every wakeup delay <= RR = 6 ms. It asks for
	 * 1 ms per 10 ms + delay; delays of <= 6 ms once per hog epoch (>= 120
	 * ms) stretch its period by at most 5 %: >= 10 s / 10.5 ms = 952 ms. */
	struct trec r;
	CHECK_EQ_INT(trun_text("s 0 run=1ms sleep=9ms\nh 0 run=inf\n", "rsdl", 1, 10000 * TMS, NULL, &r, NULL), 0);
	CHECK(trun_max_delay(&r, 0) <= 6 * TMS);
	CHECK(trun_runtime(&r, 0) >= 952 * TMS);
	CHECK(trun_runtime(&r, 0) <= 1000 * TMS);
	CHECK_EQ_INT(trun_runtime(&r, 0) + trun_runtime(&r, 1), 10000 * TMS);
	trec_free(&r);
}

SL_TEST(rsdl_sleeper_8ms_1ms_beside_hog_gets_half)
{
	/* "The same CPU whatever the sleep pattern": the 8/1 task and the hog
	 * both get 20 quotas of 6 ms per epoch; the CPU never idles (the hog is
	 * always runnable), so each epoch is 240 ms split 120/120 and over 10 s
	 * the two differ by at most one epoch's worth of order (<= 120 ms). */
	struct trec r;
	uint64_t s, h;
	CHECK_EQ_INT(trun_text("s 0 run=8ms sleep=1ms\nh 0 run=inf\n", "rsdl", 1, 10000 * TMS, NULL, &r, NULL), 0);
	s = trun_runtime(&r, 0);
	h = trun_runtime(&r, 1);
	CHECK_EQ_INT(s + h, 10000 * TMS);
	CHECK(s >= h ? s - h <= 120 * TMS : h - s <= 120 * TMS);
	/* the same with ns accounting */
	trec_free(&r);
	CHECK_EQ_INT(trun_text("s 0 run=8ms sleep=1ms\nh 0 run=inf\n", "rsdl", 1, 10000 * TMS, "accounting=1", &r, NULL), 0);
	s = trun_runtime(&r, 0);
	h = trun_runtime(&r, 1);
	CHECK(s >= h ? s - h <= 120 * TMS : h - s <= 120 * TMS);
	trec_free(&r);
}

SL_TEST(rsdl_massive_intr_40_tasks_equal)
{
	/* 40 tasks of "8 ms work, 1 ms sleep" (massive_intr): all nice 0, each
	 * entitled to 20 x 6 ms per epoch; with 40 of them the CPU never idles,
	 * so all get the same CPU per epoch (epoch = 40*120 ms = 4.8 s); over
	 * 24 s = 5 epochs max/min <= 1.2 (the 2007 kernel report: "works fine"). */
	char w[4096];
	size_t off = 0;
	int i;
	uint64_t mx = 0, mn = UINT64_MAX, sum = 0;
	struct trec r;
	for (i = 0; i < 40; i++)
		off += (size_t)snprintf(w + off, sizeof(w) - off, "t%d 0 run=8ms sleep=1ms\n", i);
	CHECK_EQ_INT(trun_text(w, "rsdl", 1, 24000 * TMS, NULL, &r, NULL), 0);
	for (i = 0; i < 40; i++) {
		uint64_t x = trun_runtime(&r, i);
		sum += x;
		if (x > mx)
			mx = x;
		if (x < mn)
			mn = x;
	}
	CHECK_EQ_INT(sum, 24000 * TMS);
	CHECK(mn > 0 && (double)mx / (double)mn <= 1.2);
	fprintf(stderr, "  massive_intr 40: max/min = %.3f\n", (double)mx / (double)mn);
	trec_free(&r);
}

SL_TEST(rsdl_staircase_and_rotation_rows)
{
	/* One nice-0 hog alone for 120 ms: levels 20, 21, ... 39 each for 6 ms
	 * (one staircase row per level, the first at 0), then at 120 ms the
	 * active array is empty: major rotation, back to level 20. So rows at
	 * 0, 6, ..., 114 ms with levels 20..39, then level 20 at 120 ms; exactly
	 * one major rotation in [0, 126 ms). slice priority = 100 + 20. */
	struct trec r;
	size_t i, nmajor = 0;
	CHECK_EQ_INT(trun_text("a 0 run=inf\n", "rsdl", 1, 126 * TMS, NULL, &r, NULL), 0);
	CHECK(r.nst >= 21);
	for (i = 0; i < 20 && i < r.nst; i++) {
		CHECK_EQ_INT(r.st[i].level, 20 + (int)i);
		CHECK_EQ_INT(r.st[i].ts, i * 6 * TMS);
		CHECK_EQ_INT(r.st[i].array, 0);
	}
	if (r.nst > 20) {
		CHECK_EQ_INT(r.st[20].level, 20);
		CHECK_EQ_INT(r.st[20].ts, 120 * TMS);
	}
	for (i = 0; i < r.nr; i++)
		if (!strcmp(r.r[i].kind, "major"))
			nmajor++;
	CHECK_EQ_INT(nmajor, 1);
	CHECK(r.ns >= 1);
	CHECK_EQ_INT(r.s[0].prio, 120);
	trec_free(&r);
}

SL_TEST(rsdl_nice_minus20_quota_21rr)
{
	/* A nice -20 hog beside a nice 0 hog: -20 gets 40 levels x 21 x 6 ms =
	 * 5040 ms per epoch, nice 0 gets 120 ms: epoch 5160 ms; 2 epochs =
	 * 10320 ms -> 10080 / 240 ms. With a6=1 (SD quota nice^2/40 = 10 RR)
	 * the -20 task gets 40 x 60 = 2400 ms per 2520 ms epoch: 2 epochs =
	 * 5040 ms -> 4800 / 240. */
	struct trec r;
	CHECK_EQ_INT(trun_text("a -20 run=inf\nb 0 run=inf\n", "rsdl", 1, 10320 * TMS, NULL, &r, NULL), 0);
	CHECK_EQ_INT(run_ms(&r, 0), 10080);
	CHECK_EQ_INT(run_ms(&r, 1), 240);
	trec_free(&r);
	CHECK_EQ_INT(trun_text("a -20 run=inf\nb 0 run=inf\n", "rsdl", 1, 5040 * TMS, "a6=1", &r, NULL), 0);
	CHECK_EQ_INT(run_ms(&r, 0), 4800);
	CHECK_EQ_INT(run_ms(&r, 1), 240);
	trec_free(&r);
}

SL_TEST(rsdl_rr_interval_option)
{
	/* --rr-interval 8ms: two nice-0 hogs alternate 8 ms turns; 10 epochs of
	 * 2 x 20 x 8 = 320 ms = 3200 ms -> 1600 ms each, longest wait 8 ms. */
	struct sl_behaviour b;
	struct sl_diag d = { { 0 }, 0, 0 };
	struct sl_replay_opts o;
	struct trec r;
	struct sl_run_sink k = trec_sink(&r);
	const char *w = "a 0 run=inf\nb 0 run=inf\n";
	memset(&r, 0, sizeof(r));
	CHECK_EQ_INT(sl_workload_parse_text(w, strlen(w), "t", &b, &d), 0);
	sl_replay_opts_init(&o);
	o.duration_ns = 3200 * TMS;
	o.rr_interval_ns = 8 * TMS;
	o.debug = 1;
	CHECK_EQ_INT(sl_replay_run(&b, &sl_policy_rsdl, &o, &k, NULL, &d), 0);
	CHECK_EQ_INT(run_ms(&r, 0), 1600);
	CHECK_EQ_INT(run_ms(&r, 1), 1600);
	CHECK_EQ_INT(trun_max_gap(&r, 0, 0), 8 * TMS);
	trec_free(&r);
	sl_behaviour_release(&b);
}

SL_TEST(rsdl_bad_option_rejected)
{
	/* refused with a message naming the option (checked, not printed) */
	struct trec r;
	struct sl_diag d = { { 0 }, 0, 0 };
	CHECK(trun_text_d("a 0 run=inf\n", "rsdl", 1, 10 * TMS, "a9=1", &r, NULL, &d) != 0);
	CHECK(strstr(d.msg, "rsdl has no option 'a9'") != NULL);
	trec_free(&r);
	CHECK(trun_text_d("a 0 run=inf\n", "rsdl", 1, 10 * TMS, "a1=2", &r, NULL, &d) != 0);
	CHECK(strstr(d.msg, "option a1: '2' is not an integer in 0..1") != NULL);
	trec_free(&r);
}

SL_TEST(rsdl_minor_rotations_with_a1_0)
{
	/* With a1=0 a woken task at a better level is charged to the serviced
	 * level, so that level's runqueue quota is overrun and a minor rotation
	 * moves the serviced level one down (so the rows' levels only grow,
	 * never past 39, until a major or idle rotation resets them). Hogs alone never trigger one
	 * (each level's quota is exactly what its tasks were granted). */
	struct trec r;
	size_t i, minor = 0;
	int prev = -1;
	CHECK_EQ_INT(trun_text("a 0 run=inf\nb 0 run=inf\nc 0 run=inf\nd 0 run=5ms sleep=20ms\n"
			       "e 5 run=30ms sleep=7ms\n", "rsdl", 1, 10000 * TMS, "a1=0", &r, NULL), 0);
	for (i = 0; i < r.nr; i++) {
		if (!strcmp(r.r[i].kind, "minor")) {
			minor++;
			CHECK(r.r[i].level >= 1 && r.r[i].level <= 39);
			if (prev >= 0)
				CHECK(r.r[i].level > prev);
			prev = r.r[i].level;
		} else {
			prev = -1;
		}
	}
	CHECK(minor > 0);
	CHECK_EQ_INT(trun_runtime(&r, 0) + trun_runtime(&r, 1) + trun_runtime(&r, 2) + trun_runtime(&r, 3) +
		     trun_runtime(&r, 4), 10000 * TMS);
	trec_free(&r);
	CHECK_EQ_INT(trun_text("a 0 run=inf\nb 0 run=inf\n", "rsdl", 1, 2000 * TMS, "a1=0", &r, NULL), 0);
	for (i = 0; i < r.nr; i++)
		CHECK(strcmp(r.r[i].kind, "minor") != 0);
	trec_free(&r);
}

SL_TEST(rsdl_realtime_tasks)
{
	/* RT tasks sit above the staircase (FIFO lists by priority):
	 * 1. a SCHED_FIFO task running 2 ms every 10 ms beside two nice-0 hogs
	 *    preempts at once (delay 0) and gets exactly its 2 ms per 10 ms:
	 *    2000 ms of 10 s; the hogs share the other 8000 ms equally (each
	 *    epoch gives both 20 quotas; 8000 ms / 240 ms epochs leave a partial
	 *    epoch inside which they still alternate 6 ms turns);
	 * 2. a SCHED_FIFO hog starves a normal hog (0 ms);
	 * 3. two SCHED_RR hogs of one priority alternate RR_INTERVAL turns,
	 *    r1 first: 10000 ms = 1666 turns of 6 ms (833 each) + 4 ms of r1's
	 *    next turn: 5002 and 4998 ms, longest wait 6 ms; a normal hog gets
	 *    nothing;
	 * 4. a better RT priority preempts a worse one at once. */
	struct trec r;
	uint64_t a, b;
	CHECK_EQ_INT(trun_text("rt 0 run=2ms sleep=8ms policy=fifo rtprio=50\na 0 run=inf\nb 0 run=inf\n",
			       "rsdl", 1, 10000 * TMS, NULL, &r, NULL), 0);
	CHECK_EQ_INT(trun_max_delay(&r, 0), 0);
	CHECK_EQ_INT(trun_runtime(&r, 0), 2000 * TMS);
	a = trun_runtime(&r, 1);
	b = trun_runtime(&r, 2);
	CHECK_EQ_INT(a + b, 8000 * TMS);
	CHECK(a >= b ? a - b <= 6 * TMS : b - a <= 6 * TMS);
	CHECK_EQ_INT(r.s[0].prio, 49); /* kernel prio 99 - rt_priority */
	trec_free(&r);

	CHECK_EQ_INT(trun_text("f 0 run=inf policy=fifo\nn -20 run=inf\n", "rsdl", 1, 1000 * TMS, NULL, &r, NULL), 0);
	CHECK_EQ_INT(trun_runtime(&r, 0), 1000 * TMS);
	CHECK_EQ_INT(trun_runtime(&r, 1), 0);
	trec_free(&r);

	CHECK_EQ_INT(trun_text("r1 0 run=inf policy=rr rtprio=5\nr2 0 run=inf policy=rr rtprio=5\nn 0 run=inf\n",
			       "rsdl", 1, 10000 * TMS, NULL, &r, NULL), 0);
	CHECK_EQ_INT(trun_runtime(&r, 0), 5002 * TMS);
	CHECK_EQ_INT(trun_runtime(&r, 1), 4998 * TMS);
	CHECK_EQ_INT(trun_runtime(&r, 2), 0);
	CHECK_EQ_INT(trun_max_gap(&r, 0, 0), 6 * TMS);
	trec_free(&r);

	CHECK_EQ_INT(trun_text("lo 0 run=inf policy=fifo rtprio=10\nhi 0 run=1ms sleep=9ms policy=fifo rtprio=20\n",
			       "rsdl", 1, 10000 * TMS, NULL, &r, NULL), 0);
	CHECK_EQ_INT(trun_max_delay(&r, 1), 0);
	CHECK_EQ_INT(trun_runtime(&r, 1), 1000 * TMS);
	CHECK_EQ_INT(trun_runtime(&r, 0), 9000 * TMS);
	trec_free(&r);
}

SL_TEST(rsdl_param_names_and_aliases)
{
	/* rsdl's gap-fillers are named after what they do; their numbers in
	 * docs/rsdl.md (a1..a8) are aliases: --opt a1=0 and --opt
	 * pick_sets_level=0 set the same parameter, and the params JSON names
	 * it pick_sets_level. Defaults from the table of docs/rsdl.md. */
	const struct sl_policy_ops *ops = sl_policy_find("rsdl");
	struct sl_replay_opts o;
	struct sl_diag d = { { 0 }, NULL, NULL };
	char a[2048], b[2048];
	CHECK(ops != NULL);
	sl_replay_opts_init(&o);
	o.policy_opts = "a1=0,a6=1";
	CHECK_EQ_INT(sl_replay_params_json(ops, &o, 1, a, sizeof(a), &d), 0);
	o.policy_opts = "pick_sets_level=0,sd_quota=1";
	CHECK_EQ_INT(sl_replay_params_json(ops, &o, 1, b, sizeof(b), &d), 0);
	CHECK_STR(a, b);
	CHECK(strstr(a, "\"pick_sets_level\":0,\"search_from_level\":1,\"idle_rotates\":1,"
			"\"sd_quota\":1,\"rotate_at_zero\":0,\"wake_preempt\":1,\"accounting\":0,"
			"\"minor_new_quota\":0}") != NULL);
	CHECK(strstr(a, "\"a1\"") == NULL);
	o.policy_opts = "a3=1"; /* A3 is fixed: no parameter */
	CHECK(sl_replay_params_json(ops, &o, 1, a, sizeof(a), &d) != 0);
	CHECK_STR(sl_policy_param_other("a1"), "pick_sets_level");
	CHECK_STR(sl_policy_param_other("minor_new_quota"), "a4");
	CHECK(sl_policy_param_other("accounting") == NULL);
	CHECK(sl_policy_param_other("hz") == NULL);
}
