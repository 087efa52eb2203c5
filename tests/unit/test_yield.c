/* tests/unit/test_yield.c - sched_yield (issue 22): which runnable
 * switch-outs of a recording the collector takes for yields
 * (collector/model.c, collector/yields.c; docs/model.md "Yields"), and how
 * EEVDF replays them (yield_task_fair of kernel/sched/fair.c, v6.18:
 * "sched/fair: Forfeit vruntime on yield"; docs/eevdf.md rule 10). Every
 * expected value is worked out by hand in the comments. */
#include "harness.h"
#include "test_model_util.h"
#include "test_o1.h"
#include "../../collector/model.h"
#include "../../collector/yields.h"
#include "../../replay/eevdf.h"

#include <stdlib.h>
#include <string.h>

#define US 1000ULL

/* ---- the verdicts and the split, on the candidates alone ---- */

SL_TEST(yields_tick_and_split)
{
	struct sl_yields y;
	struct sl_phase *ph = xcalloc(2, sizeof(*ph));
	size_t nph = 2, cap = 2, k;
	int j;
	memset(&y, 0, sizeof(y));
	/* 40 quiet preemptions on CPU 0 at k * 4 ms + 20 us: modulo 4 ms (250
	 * Hz) all at one phase (resultant 1); modulo 10 ms (100 Hz) at 0, 4,
	 * 8, 2, 6 ms + 20 us, evenly spread (resultant 0): the lowest HZ
	 * within 0.6 of the best is 250, phase 20 us */
	for (k = 0; k < 40; k++)
		sl_yields_quiet(&y, 0, k * 4000 * US + 20 * US);
	/* task 1: a candidate ending at 8 ms + 60 us (40 us from the tick),
	 * then 12 ending at 9 ms + 10 us * j (980 us and more from a tick:
	 * yields), bursts of 10 us each, all in its phase 0. The 12 away from
	 * the tick make it a task that yields, and then the one at the tick
	 * is a yield too: its slice began a fresh request, which the tick does
	 * not end within 100 us (docs/model.md "Yields") */
	sl_yields_add(&y, 1, 0, 120, 8000 * US, 60 * US, 0, 60 * US, 0);
	for (j = 1; j <= 12; j++)
		sl_yields_add(&y, 1, 0, 120, 9000 * US + 10 * US * (uint64_t)(j - 1), 10 * US, 0,
			      60 * US + 10 * US * (uint64_t)j, 0);
	/* its runnable switch-outs: the 13 (12 yields >= half of 13) */
	for (j = 0; j < 13; j++)
		sl_yields_runnable(&y, 1);
	CHECK_EQ_INT(sl_yields_resolve(&y, 2, 100 * US), 13);
	CHECK_EQ_INT(y.c[0].yield, 1);
	CHECK_EQ_INT(y.c[1].yield, 1);
	/* phase 0: 1 ms of CPU, then a sleep; phase 1 ends the trace. Split
	 * at bursts 60, 70, ..., 180 us: a first yield burst of 60 us, twelve
	 * of 10 us, then 1000 - 180 = 820 us ending in the sleep, its waker
	 * kept */
	ph[0].run_ns = 1000 * US;
	ph[0].sleep_ns = 5000 * US;
	ph[0].end = SL_END_SLEEP_S;
	ph[0].waker = 0;
	ph[0].waker_kind = SL_WAKER_TASK;
	ph[1].run_ns = 50 * US;
	ph[1].end = SL_END_TRACE;
	ph[1].waker = -1;
	sl_yields_split(&y, 1, &ph, &nph, &cap);
	CHECK_EQ_INT(nph, 15);
	CHECK_EQ_INT(ph[0].run_ns, 60 * US);
	CHECK_EQ_INT(ph[0].end, SL_END_YIELD);
	CHECK_EQ_INT(ph[0].sleep_ns, 0);
	for (k = 1; k < 13; k++) {
		CHECK_EQ_INT(ph[k].run_ns, 10 * US);
		CHECK_EQ_INT(ph[k].end, SL_END_YIELD);
	}
	CHECK_EQ_INT(ph[13].run_ns, 820 * US);
	CHECK_EQ_INT(ph[13].end, SL_END_SLEEP_S);
	CHECK_EQ_INT(ph[13].sleep_ns, 5000 * US);
	CHECK_EQ_INT(ph[13].waker, 0);
	CHECK_EQ_INT(ph[14].run_ns, 50 * US);
	CHECK_EQ_INT(ph[14].end, SL_END_TRACE);
	/* task 0 has none: its phases stay as they are */
	sl_yields_split(&y, 0, &ph, &nph, &cap);
	CHECK_EQ_INT(nph, 15);
	free(ph);
	sl_yields_free(&y);
}

/* ---- the model on a hand-written sequence ---- */

struct ycap {
	int ny, nr, ns;
	char a_end[32];
	int na;
};

static int y_slice(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task, char st, int prio)
{
	struct ycap *c = ctx;
	(void)ts;
	(void)dur;
	(void)cpu;
	(void)prio;
	c->ny += st == 'Y';
	c->nr += st == 'R';
	c->ns += st == 'S';
	return 0;
}

/* an event on CPU 0 (test_model_event) aimed at target; a wakeup from a
 * hard interrupt */
static struct sl_event yev(int type, uint64_t ts, int cur, int pid, char st, int pid2, int target)
{
	struct sl_event e = test_model_event(type, ts, 0, cur, pid, pid2, st);
	e.target_cpu = target;
	if (type != SL_EV_SWITCH)
		e.ctx |= SL_CTX_HARDIRQ;
	return e;
}

/* A (100) and B (101) take turns on CPU 0 every 10 us, each switch-out
 * runnable, `turns` switch-outs each, with no wakeup aimed at CPU 0 (one
 * of C at 0 aimed at CPU 1 says the trace has wakeups); then C (102) is
 * woken onto CPU 0 (by wake_type) and A switches out runnable 5 us later
 * (a wakeup preemption), C runs c_us and sleeps, B runs 10 us and switches out
 * runnable (the wakeup c_us + 15 us before), A runs 10 us and sleeps.
 * Returns the model's yields; *ph_a = A's phase count. */
static uint64_t yield_run_c(int turns, uint64_t c_us, int wake_type, struct ycap *c,
			    size_t *nph_a, struct sl_phase *ph_a, size_t max)
{
	struct sl_run_sink sink = { .ctx = c, .slice = y_slice, .wakeup = test_model_no_wake };
	struct sl_diag d;
	struct sl_model *m;
	struct sl_behaviour b;
	struct sl_model_stats st;
	uint64_t *first, *last, t = 1000, yields;
	struct sl_event e;
	int k;
	size_t i;
	memset(c, 0, sizeof(*c));
	memset(&d, 0, sizeof(d));
	m = sl_model_new(&sink, &d);
	e = yev(SL_EV_WAKING, 0, 0, 102, 0, 0, 1);
	sl_model_event(m, &e);
	e = yev(SL_EV_SWITCH, t, 0, 0, 'R', 100, -1);
	sl_model_event(m, &e);
	for (k = 1; k <= 2 * turns; k++) {
		t += 10 * US;
		e = yev(SL_EV_SWITCH, t, k % 2 ? 100 : 101, k % 2 ? 100 : 101, 'R', k % 2 ? 101 : 100, -1);
		sl_model_event(m, &e);
	}
	/* B -> A at the last turn; C is woken onto CPU 0 at +5 us */
	e = yev(wake_type, t + 5 * US, 100, 102, 0, 0, 0);
	sl_model_event(m, &e);
	e = yev(SL_EV_SWITCH, t + 10 * US, 100, 100, 'R', 102, -1);
	sl_model_event(m, &e);
	e = yev(SL_EV_SWITCH, t + (10 + c_us) * US, 102, 102, 'S', 101, -1);
	sl_model_event(m, &e);
	e = yev(SL_EV_SWITCH, t + (20 + c_us) * US, 101, 101, 'R', 100, -1);
	sl_model_event(m, &e);
	e = yev(SL_EV_SWITCH, t + (30 + c_us) * US, 100, 100, 'S', 0, -1);
	sl_model_event(m, &e);
	sl_model_finish(m, &b, &first, &last, &st);
	yields = st.yields;
	*nph_a = 0;
	for (i = 0; i < b.ntasks; i++)
		if (b.tasks[i].tid == 100) {
			*nph_a = b.tasks[i].nphases;
			memcpy(ph_a, b.tasks[i].phases,
			       (b.tasks[i].nphases < max ? b.tasks[i].nphases : max) * sizeof(*ph_a));
		}
	test_model_done(m, &b, first, last, &st);
	return yields;
}

static uint64_t yield_run(int turns, struct ycap *c, size_t *nph_a, struct sl_phase *ph_a,
			  size_t max)
{
	return yield_run_c(turns, 10, SL_EV_WAKEUP, c, nph_a, ph_a, max);
}

SL_TEST(model_marks_yields)
{
	struct ycap c;
	struct sl_phase ph[32];
	size_t n, k;
	/* 12 turns each: every one of the 24 switch-outs ran 10 us (< 100 us)
	 * with no wakeup aimed at CPU 0 (C's first aimed at CPU 1) and the
	 * next task not woken: candidates; no quiet preemption to tell a tick
	 * from, so none is the tick's; A and B have 12 each (>= 10), out of
	 * 13 runnable switch-outs (>= half): 24 yields. A's switch-out 5 us
	 * after C's sched_wakeup onto CPU 0 (during A's slice), to C, is a
	 * weak candidate (a wakeup came; A had 12 >= SL_YIELDS_MIN others
	 * before it): a yield too, A being a task that yields (measured on this machine's kernel, docs/model.md "Yields":
	 * 99.8 % of such switch-outs of sysbench's threads followed a
	 * sched_yield). B's slice began 15 us after that sched_wakeup (the
	 * enqueue), which the switch to C served: B's switch-out is a
	 * candidate, and a yield (B's 13th of 13). Rows: 26 Y, 0 R, 2 S (C,
	 * A). A's phases: 13 bursts of 10 us ending Y (its slices [1, 11],
	 * [21, 31], ... us and the one before C), then its last slice, 10 us,
	 * ending in the sleep, which the trace's end turns into E */
	CHECK_EQ_INT(yield_run(12, &c, &n, ph, 32), 26);
	CHECK_EQ_INT(c.ny, 26);
	CHECK_EQ_INT(c.nr, 0);
	CHECK_EQ_INT(c.ns, 2);
	CHECK_EQ_INT(n, 14);
	for (k = 0; k < 13 && k < n; k++) {
		CHECK_EQ_INT(ph[k].run_ns, 10 * US);
		CHECK_EQ_INT(ph[k].end, SL_END_YIELD);
	}
	if (n == 14) {
		CHECK_EQ_INT(ph[13].run_ns, 10 * US);
		CHECK_EQ_INT(ph[13].end, SL_END_TRACE);
	}
	/* the same with C woken by sched_waking, which fires before the
	 * enqueue: B's slice began 15 us after it, within WAKE_SKEW_NS (20
	 * us), so B's switch-out is a weak candidate too: a yield of a task
	 * that yields (12 strong of 13). 26 Y, 0 R */
	CHECK_EQ_INT(yield_run_c(12, 10, SL_EV_WAKING, &c, &n, ph, 32), 26);
	CHECK_EQ_INT(c.ny, 26);
	CHECK_EQ_INT(c.nr, 0);
	/* C runs 40 us: B's slice begins 45 us after the sched_waking: a
	 * strong candidate again. 26 Y, 2 S */
	CHECK_EQ_INT(yield_run_c(12, 40, SL_EV_WAKING, &c, &n, ph, 32), 26);
	CHECK_EQ_INT(c.ny, 26);
	CHECK_EQ_INT(c.nr, 0);
	CHECK_EQ_INT(c.ns, 2);
	/* 5 turns each: 5 candidates per task, fewer than 10: preemptions
	 * not seen (R), no yield; A's one burst of 5 * 10 + 20 us */
	CHECK_EQ_INT(yield_run(5, &c, &n, ph, 32), 0);
	CHECK_EQ_INT(c.ny, 0);
	CHECK_EQ_INT(c.nr, 12);
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_INT(ph[0].run_ns, 70 * US);
}

/* Weak candidates (a wakeup came to the CPU or to the next task in the
 * slice): yields only of a task that yields, which the strong ones away
 * from the tick alone decide. 40 quiet preemptions at k * 4 ms + 20 us
 * give the tick (250 Hz, phase 20 us), as above. Task 1: 10 strong
 * candidates ending 980 us and more from a tick (yields: 10 >=
 * SL_YIELDS_MIN) and 3 weak ones, two far from a tick and one ending 30 us
 * after it; runnable switch-outs 14 (10 >= half of 14): a task that
 * yields, all 13 are yields (the one at the tick too: a yielder's slice
 * begins a fresh request). Task 2: 15 weak ones far from the tick and no
 * strong one: not a task that yields, none. */
SL_TEST(yields_weak_candidates)
{
	struct sl_yields y;
	int j;
	memset(&y, 0, sizeof(y));
	for (j = 0; j < 40; j++)
		sl_yields_quiet(&y, 0, (uint64_t)j * 4000 * US + 20 * US);
	for (j = 0; j < 10; j++)
		sl_yields_add(&y, 1, 0, 120, 9000 * US + 10 * US * (uint64_t)j, 10 * US, 0, 10 * US, 0);
	sl_yields_add(&y, 1, 0, 120, 9200 * US, 10 * US, 0, 10 * US, 1);
	sl_yields_add(&y, 1, 0, 120, 9300 * US, 10 * US, 0, 10 * US, 1);
	sl_yields_add(&y, 1, 0, 120, 12040 * US, 10 * US, 0, 10 * US, 1); /* ends at 12.05 ms */
	for (j = 0; j < 14; j++)
		sl_yields_runnable(&y, 1);
	for (j = 0; j < 15; j++) {
		sl_yields_add(&y, 2, 1, 120, 9000 * US + 20 * US * (uint64_t)j, 10 * US, 0, 10 * US, 1);
		sl_yields_runnable(&y, 2);
	}
	CHECK_EQ_INT(sl_yields_resolve(&y, 3, 100 * US), 13);
	CHECK_EQ_INT(y.c[10].yield, 1);
	CHECK_EQ_INT(y.c[11].yield, 1);
	CHECK_EQ_INT(y.c[12].yield, 1);
	for (j = 13; j < 28; j++)
		CHECK_EQ_INT(y.c[j].yield, 0);
	sl_yields_free(&y);
}

/* ---- EEVDF: yield_task_fair ---- */

SL_TEST(eevdf_yield_forfeits_when_eligible)
{
	struct sl_eevdf_rq rq;
	struct sl_eevdf_se a, b;
	int forfeit;
	for (forfeit = 0; forfeit <= 1; forfeit++) {
		sl_eevdf_rq_init(&rq, 700000, 1000000);
		rq.yield_forfeit = forfeit;
		sl_eevdf_se_init(&a, 0, 0);
		sl_eevdf_se_init(&b, 1, 0);
		/* both placed at V = 0 with no lag: v 0, deadline 0.7 ms (nice 0:
		 * calc_delta_fair is the identity) */
		sl_eevdf_enqueue(&rq, &a, 0);
		sl_eevdf_enqueue(&rq, &b, 0);
		sl_eevdf_set_next(&rq, &a);
		/* A runs 100 us: v_A 100000, V = (100000 + 0) / 2 = 50000: A is
		 * not eligible; v6.18 leaves it as it is, v6.6-v6.17 push its
		 * deadline one slice: 700000 + 700000 */
		sl_eevdf_update_curr(&rq, 100000);
		sl_eevdf_yield(&rq, &a);
		CHECK_EQ_INT(a.vruntime, 100000);
		CHECK_EQ_INT(a.deadline, forfeit ? 700000 : 1400000);
		CHECK(sl_eevdf_pick(&rq) == &b);
		sl_eevdf_put_prev(&rq);
		sl_eevdf_set_next(&rq, &b);
		/* B runs 50 us: v_B 50000, min_vruntime 50000 (B is the least),
		 * V = (100000 + 50000) / 2 = 75000: B is eligible. v6.18: v_B =
		 * its deadline 700000, deadline 1400000, min_vruntime = min(B
		 * 700000, A 100000) = 100000, V = (100000 + 700000) / 2 = 400000;
		 * A (100000) is the only eligible one: the yield hands over.
		 * v6.6-v6.17: v_B stays 50000, its deadline 1400000, V 75000: A
		 * (100000) is not eligible, B is: B is picked again (its deadline
		 * changed since its pick, so no RUN_TO_PARITY: the pick itself) */
		sl_eevdf_update_curr(&rq, 50000);
		sl_eevdf_yield(&rq, &b);
		CHECK_EQ_INT(b.vruntime, forfeit ? 700000 : 50000);
		CHECK_EQ_INT(b.deadline, 1400000);
		CHECK_EQ_INT(rq.min_vruntime, forfeit ? 100000 : 50000);
		CHECK_EQ_INT(sl_eevdf_avg_vruntime(&rq), forfeit ? 400000 : 75000);
		CHECK(sl_eevdf_pick(&rq) == (forfeit ? &a : &b));
		sl_eevdf_rq_release(&rq);
	}
}

SL_TEST(eevdf_yield_loops_alternate)
{
	/* Two tasks on 1 CPU (slice 0.7 ms, new tasks' deadline half a slice:
	 * 350000), each 100 us of CPU then sched_yield, 4 times, then 100 us
	 * and exit. A first (tie, queued first).
	 *  A [0,100] v_A 100000, V 50000: not eligible, kept; B (v 0) picked.
	 *  B [100,200] v_B 100000 = V: eligible, v_B = 350000, d_B 1050000;
	 *    V = (100000 + 350000) / 2: A picked.
	 *  A [200,300] v_A 200000 <= V 275000: v_A = 350000, d_A 1050000;
	 *    both at V 350000, equal deadlines: the queued B.
	 *  B [300,400] v_B 450000 > V 400000: kept; A picked.
	 *  A [400,500] v_A 450000 = V: v_A 1050000, d_A 1750000; B picked.
	 *  B [500,600] v_B 550000 <= V 800000: v_B 1050000, d 1750000; tie:
	 *    the queued A.
	 * Every yield switches: six slices of 100 us, A B A B A B, ending Y. */
	struct sl_behaviour b;
	struct o1t_run r;
	struct sl_phase ph[5];
	size_t i;
	memset(ph, 0, sizeof(ph));
	for (i = 0; i < 5; i++) {
		ph[i].run_ns = 100 * US;
		ph[i].end = i < 4 ? SL_END_YIELD : SL_END_EXIT;
		ph[i].waker = -1;
	}
	o1t_behaviour(&b, 2);
	o1t_phases(&b, 0, ph, 5);
	o1t_phases(&b, 1, ph, 5);
	CHECK_EQ_INT(o1t_replay(&b, &sl_policy_eevdf, 1, 10 * MS, 1000, NULL, &r), 0);
	CHECK(r.nsl >= 6);
	for (i = 0; i < 6 && i < r.nsl; i++) {
		CHECK_EQ_INT(r.sl[i].ts, i * 100 * US);
		CHECK_EQ_INT(r.sl[i].dur, 100 * US);
		CHECK_EQ_INT(r.sl[i].task, (int)(i % 2));
		CHECK_EQ_INT(r.sl[i].end, 'Y');
	}
	o1t_free(&r);
	sl_behaviour_release(&b);
}
