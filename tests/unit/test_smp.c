/* tests/unit/test_smp.c - the 2.6.20 balancer of replay/smp.c, case by case.
 * Each expected move (or refusal) is worked out by hand from kernel/sched.c
 * of 2.6.20 with the SD_CPU_INIT values (imbalance_pct 125, busy_factor 64,
 * min/max_interval 1/4 ms, cache_nice_tries 1, busy/idle/newidle/wake/
 * forkexec_idx 2/1/2/1/1, cache_hot_time 2.5 ms), HZ 1000, 2 CPUs.
 *
 * Notation: W = the load weight of a nice-0 task (rsdl: 20 levels x
 * (6 ms / 0.1 ms + 1) = 1220); cl0/cl1 = cpu_load[0]/cpu_load[1]
 * (update_load at every tick: cl0 = the raw load, cl1 = (cl1 + raw) / 2
 * rounded up while rising). Tasks with a finite count exit after their last
 * burst. Placement at a start without a parent: the allowed CPU with the
 * fewest tasks, then the lowest load, then the lowest number. */
#include "harness.h"
#include "test_engine_util.h"

/* a hog (add_task with an endless burst) */
static struct sl_task_spec *smp_task(struct sl_behaviour *b, const char *name, int nice,
				     uint64_t start)
{
	struct sl_task_spec *t = add_task(b, name, nice, start);
	t->run_ns = SL_INF;
	return t;
}

/* a and c: nice-0 hogs; b between them: runs b_run, then exits */
static void two_hogs_and_b(struct sl_behaviour *b, uint64_t b_run)
{
	struct sl_task_spec *t;
	memset(b, 0, sizeof(*b));
	b->cpus = 2;
	smp_task(b, "a", 0, 0);
	t = smp_task(b, "b", 0, 0);
	t->run_ns = b_run;
	t->count = 1;
	smp_task(b, "c", 0, 0);
}

static int smp_run(const struct sl_behaviour *b, const char *pol, uint64_t rr, uint64_t dur,
		   struct trec *r, struct sl_replay_stats *st)
{
	struct sl_diag d = { { 0 }, 0, 0 };
	struct sl_replay_opts o;
	struct sl_run_sink k = trec_sink(r);
	int rc;
	memset(r, 0, sizeof(*r));
	sl_replay_opts_init(&o);
	o.cpus = 2;
	o.duration_ns = dur;
	o.debug = 1;
	if (rr)
		o.rr_interval_ns = rr;
	rc = sl_replay_run(b, sl_policy_find(pol), &o, &k, st, &d);
	if (rc)
		fprintf(stderr, "  replay: %s\n", d.msg);
	return rc;
}

/* start of task's first slice on cpu (UINT64_MAX: none) */
static uint64_t first_on(const struct trec *r, int task, int cpu)
{
	size_t i;
	for (i = 0; i < r->ns; i++)
		if (r->s[i].task == task && r->s[i].cpu == cpu)
			return r->s[i].ts;
	return UINT64_MAX;
}

/* number of times task's consecutive slices change CPU */
static int cpu_changes(const struct trec *r, int task)
{
	size_t i;
	int last = -1, n = 0;
	for (i = 0; i < r->ns; i++) {
		if (r->s[i].task != task)
			continue;
		if (last >= 0 && r->s[i].cpu != last)
			n++;
		last = r->s[i].cpu;
	}
	return n;
}

SL_TEST(smp_three_hogs_no_move_after_placement)
{
	/* a, b, c nice-0 hogs start at 0: a -> cpu 0 (all empty), b -> cpu 1
	 * (no task), c -> cpu 0 (1/1 tasks, equal loads, lowest number).
	 * cpu 0 never pulls (its load 2W is the largest). cpu 1 balances busy
	 * (busy_idx 2) every 1 x 64 ms from 64 ms; by then the averages are
	 * steady: this_load = W, max_load = 2W (cpu 0, 2 tasks > capacity 1),
	 * avg_load = 3W/2; this < avg and 100*2W > 125*W: go on;
	 * busiest_load_per_task = 2W/2 = W < max_load; max_pull = min(2W - 3W/2,
	 * 2W - W) = W/2, imbalance = min(W/2, 3W/2 - W) = W/2 < W: the
	 * small-imbalance rule. this_load_per_task = W/1, not below W: imbn = 2;
	 * max - this = W < 2W. pwr_now = min(W, 2W) + min(W, W) = 2W;
	 * pwr_move = min(W, 2W - W) + min(W, W + W) = 2W: no gain, balanced.
	 * (While the averages ramp up, max_load in (W, 2W] gives pwr_move =
	 * max_load <= 2W = pwr_now: balanced too.) So, as the issue read it, no
	 * task ever moves after placement, under every model: b has cpu 1's
	 * 1000 ms, a and c share cpu 0's. */
	static const char *const pols[] = { "rsdl", "o1", "sd" };
	size_t k, i;
	for (k = 0; k < 3; k++) {
		struct sl_behaviour b;
		struct trec r;
		struct sl_replay_stats st;
		memset(&b, 0, sizeof(b));
		b.cpus = 2;
		smp_task(&b, "a", 0, 0);
		smp_task(&b, "b", 0, 0);
		smp_task(&b, "c", 0, 0);
		CHECK_EQ_INT(smp_run(&b, pols[k], 0, 1000 * TMS, &r, &st), 0);
		CHECK_EQ_INT(st.migrations, 0);
		CHECK_EQ_INT(st.active_balances, 0);
		for (i = 0; i < r.ns; i++)
			CHECK_EQ_INT(r.s[i].cpu, r.s[i].task == 1 ? 1 : 0);
		CHECK_EQ_INT(trun_runtime(&r, 1), 1000 * TMS);
		CHECK_EQ_INT(trun_runtime(&r, 0) + trun_runtime(&r, 2), 1000 * TMS);
		CHECK_EQ_INT(st.idle_ns, 0);
		trec_free(&r);
		sl_behaviour_release(&b);
	}
}

SL_TEST(smp_newidle_refused_then_idle_balance_skips_cache_hot)
{
	/* a, b, c nice-0 hogs (rsdl, 6 ms quotas): a, c on cpu 0, b on cpu 1
	 * (placement as above); b runs 49 ms and exits. On cpu 0, a runs 0-6,
	 * c 6-12, ..., a 48-54: c last ran at 48 ms.
	 * 49 ms, new-idle balance of cpu 1 (newidle_idx 2: cl1). Steady since
	 * 64 ticks? No, but after 49 ticks cl1(cpu 0) = 2W and cl1(cpu 1) = W
	 * (rounded up while rising: reached). this_load = max(W, 0) = W,
	 * max_load = min(2W, 2W) = 2W: as in the 3-hog case the small-imbalance
	 * rule refuses (pwr_move = pwr_now = 2W; this_nr_running = 0 gives
	 * this_load_per_task = SCHED_LOAD_SCALE = W). cpu 1 goes idle with
	 * next_balance = last_balance (0) + balance_interval (1 ms).
	 * Tick 50: idle balance (idle_idx 1: cl0 = raw at this tick = 0):
	 * this_load 0, max_load 2W, avg W; imbalance = min(min(W, W), W) = W,
	 * not small: cpu 0 is busiest. move_tasks: a runs (never moved); c last
	 * ran at 48 ms, 2 ms < cache_hot_time 2.5 ms, and nr_balance_failed (0)
	 * is not above cache_nice_tries (1): refused. nr_balance_failed = 1,
	 * interval back to 1 ms, next balance at tick 51.
	 * Tick 51: c is 3 ms cold: pulled to cpu 1, runs there at once.
	 * So cpu 1 idles 49-51 ms (2 ms) and c's first slice on cpu 1 starts at
	 * 51 ms; one migration; then one task per CPU, nothing moves again. */
	struct sl_behaviour b;
	struct trec r;
	struct sl_replay_stats st;
	two_hogs_and_b(&b, 49 * TMS);
	CHECK_EQ_INT(smp_run(&b, "rsdl", 0, 1000 * TMS, &r, &st), 0);
	CHECK_EQ_INT(trun_runtime(&r, 1), 49 * TMS);
	CHECK_EQ_INT(first_on(&r, 2, 1), 51 * TMS);
	CHECK_EQ_INT(st.idle_ns, 2 * TMS);
	/* all of it beside c waiting behind a: one 2 ms stretch, within the
	 * 7 ms the intervals allow */
	CHECK_EQ_INT(st.idle_wait_ns, 2 * TMS);
	CHECK_EQ_INT(st.idle_wait_max_ns, 2 * TMS);
	CHECK_EQ_INT(st.idle_wait_beyond_ns, 0);
	CHECK_EQ_INT(st.migrations, 1);
	CHECK_EQ_INT(cpu_changes(&r, 0), 0);
	CHECK_EQ_INT(cpu_changes(&r, 2), 1);
	trec_free(&r);
	sl_behaviour_release(&b);
}

SL_TEST(smp_cache_hot_task_moves_after_cache_nice_tries)
{
	/* As above with rr_interval 1 ms: a and c alternate every tick on
	 * cpu 0, so the waiting one always last ran under 1 ms ago (hot); b runs
	 * 50 ms on cpu 1 and exits (the new-idle balance at 50 ms is refused by
	 * the small-imbalance rule, as above: next balance at tick 51).
	 * Tick 51: the waiting task is hot: refused, nr_balance_failed = 1.
	 * Tick 52: hot again: refused, nr_balance_failed = 2.
	 * Tick 53: nr_balance_failed (2) > cache_nice_tries (1): can_migrate_task
	 * moves it although it is hot. cpu 1 idles 50-53 ms: 3 ms. */
	struct sl_behaviour b;
	struct trec r;
	struct sl_replay_stats st;
	two_hogs_and_b(&b, 50 * TMS);
	CHECK_EQ_INT(smp_run(&b, "rsdl", 1 * TMS, 1000 * TMS, &r, &st), 0);
	CHECK_EQ_INT(st.idle_ns, 3 * TMS);
	CHECK_EQ_INT(st.idle_wait_ns, 3 * TMS);
	CHECK_EQ_INT(st.migrations, 1);
	CHECK(first_on(&r, 0, 1) == 53 * TMS || first_on(&r, 2, 1) == 53 * TMS);
	trec_free(&r);
	sl_behaviour_release(&b);
}

SL_TEST(smp_small_imbalance_moves_when_power_gains)
{
	/* P (nice 0) starts on cpu 0, B (nice 10, weight 10 x 61 = W/2 = 610)
	 * on cpu 1. At 1 ms P forks a thread T (same thread group: no exec
	 * balancing, sched_fork keeps it on P's CPU: SD_CPU_INIT has no
	 * SD_BALANCE_FORK). cpu 0: P, T (2W); cpu 1: B (W/2).
	 * Busy balancing of cpu 1 is due every 1 x 64 ms from 64 ms (none
	 * before: no migration before 64 ms). At 64 ms: this_load = W/2 = 610,
	 * max_load = 2W = 2440, avg = 1525; 100*2440 > 125*610. blpt = 1220;
	 * max_pull = min(915, 1220) = 915, imbalance = min(915, 1525 - 610) =
	 * 915 < 1220: small imbalance; this_load_per_task = 610 < blpt: imbn =
	 * 1; max - this = 1830 >= 1220: imbalance = blpt = 1220, move. The
	 * waiting nice-0 task (6 ms turns: P runs 60-66, T last ran at 60 ms,
	 * 4 ms cold; or the other way round) weighs 1220, not above 1220:
	 * pulled at 64 ms.
	 * Afterwards cpu 0 = W (1 task, never busiest), cpu 1 = 1830 with 2
	 * tasks; cpu 0's balance: this 1220, max 1830, avg 1525, blpt 915,
	 * imbalance = min(min(305, 915), 305) = 305 < 915; this_lpt 1220 not
	 * below 915: imbn 2, 610 < 1830; pwr_now = 915 + 1220 = 2135, pwr_move
	 * = min(915, 915) + min(1220, 1220 + 915) = 2135: balanced. Exactly one
	 * migration in the second. */
	struct sl_behaviour b;
	struct sl_task_spec *t;
	struct trec r;
	struct sl_replay_stats st;
	size_t i;
	int moved = -1;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	smp_task(&b, "P", 0, 0);
	smp_task(&b, "B", 10, 0);
	t = smp_task(&b, "T", 0, 1 * TMS);
	t->flags = SL_TASK_FORKED;
	t->parent = 0;
	t->tgid = b.tasks[0].tgid;
	CHECK_EQ_INT(smp_run(&b, "rsdl", 0, 1000 * TMS, &r, &st), 0);
	CHECK_EQ_INT(st.migrations, 1);
	for (i = 0; i < r.ns; i++)
		if (r.s[i].task != 1 && r.s[i].cpu == 1 && moved < 0)
			moved = (int)i;
	CHECK(moved >= 0);
	if (moved >= 0)
		CHECK_EQ_INT(r.s[moved].ts, 64 * TMS);
	CHECK(first_on(&r, 2, 0) < 64 * TMS); /* T started on its parent's CPU */
	CHECK_EQ_INT(cpu_changes(&r, 1), 0);
	trec_free(&r);
	sl_behaviour_release(&b);
}

SL_TEST(smp_fork_thread_stays_process_exec_balances)
{
	/* P (nice 0) alone on cpu 0 from 0, B (nice 10, 610) alone on cpu 1.
	 * At 10 ms P forks C. As a thread (same tgid): sched_fork keeps it on
	 * cpu 0. As a process it is taken to exec at once: sched_balance_self
	 * (SD_BALANCE_EXEC, forkexec_idx 1): this_load = min(cl0 = 1220, raw
	 * 1220 + C's 1220) = 1220, cpu 1's target_load = max(610, 610) = 610;
	 * 100 x 1220 >= 112 x 610 = 68320: cpu 1 is the idlest group: C starts
	 * on cpu 1. */
	int proc;
	for (proc = 0; proc < 2; proc++) {
		struct sl_behaviour b;
		struct sl_task_spec *t;
		struct trec r;
		memset(&b, 0, sizeof(b));
		b.cpus = 2;
		smp_task(&b, "P", 0, 0);
		smp_task(&b, "B", 10, 0);
		t = smp_task(&b, "C", 0, 10 * TMS);
		t->flags = SL_TASK_FORKED;
		t->parent = 0;
		t->run_ns = 5 * TMS;
		t->count = 1;
		if (!proc)
			t->tgid = b.tasks[0].tgid;
		CHECK_EQ_INT(smp_run(&b, "rsdl", 0, 100 * TMS, &r, NULL), 0);
		CHECK(first_on(&r, 2, proc ? 1 : 0) != UINT64_MAX);
		CHECK_EQ_INT(first_on(&r, 2, proc ? 0 : 1), UINT64_MAX);
		trec_free(&r);
		sl_behaviour_release(&b);
	}
}

SL_TEST(smp_idle_cpu_balances_at_the_next_tick)
{
	/* a, c on cpu 0, b on cpu 1 runs 2 ms and exits. Ticks 1 and 2:
	 * cpu 0: cl0 = 2W, cl1 = ceil(2W/2) = 1220 then (1220 + 2440 + 1)/2 =
	 * 1830; cpu 1: cl1 = 610 then (610 + 1221)/2 = 915. At 2 ms the
	 * new-idle balance: this_load = 915, max_load = min(1830, 2440) = 1830,
	 * avg 1372; blpt 1220 < 1830; imbalance = min(min(458, 610), 457) =
	 * 457 < 1220; this_nr_running 0: this_lpt = W, imbn 2; 915 < 2440;
	 * pwr_now = 1220 + 915 = 2135, pwr_move = min(1220, 610) + min(1220,
	 * 915 + 1220) = 1830: refused. Tick 3: idle balance, this_load = 0:
	 * imbalance W; c never ran (last_ran 0, 3 ms ago: cold): pulled at
	 * 3 ms. cpu 1 idles 2-3 ms. */
	struct sl_behaviour b;
	struct trec r;
	struct sl_replay_stats st;
	two_hogs_and_b(&b, 2 * TMS);
	CHECK_EQ_INT(smp_run(&b, "rsdl", 0, 100 * TMS, &r, &st), 0);
	CHECK_EQ_INT(first_on(&r, 2, 1), 3 * TMS);
	CHECK_EQ_INT(st.idle_ns, 1 * TMS);
	CHECK_EQ_INT(st.idle_wait_ns, 1 * TMS);
	CHECK_EQ_INT(st.migrations, 1);
	trec_free(&r);
	sl_behaviour_release(&b);
}

SL_TEST(smp_rsdl_moved_task_keeps_its_epoch)
{
	/* rsdl, 2 CPUs, 6 ms quotas. a (nice 0) and N (nice 10, levels 30-39)
	 * start on cpu 0, b (nice 0) on cpu 1 runs 91 ms and exits.
	 * cpu 0: a descends levels 20-29 alone (0-60 ms), then a and N share
	 * levels 30+: N 60-66 (30), a 66-72, N 72-78 (31), a 78-84, N 84-90
	 * (32), a 90-96: at 90 ms N waits at level 33 with a full 6 ms slice,
	 * levels 30-33 used, in cpu 0's first epoch (no rotation there yet).
	 * cpu 1's busy balance at 64 ms found cpu 0 (a + N = 1830 with 2
	 * tasks) balanced against its 1220 (small imbalance, pwr_move =
	 * pwr_now): balance_interval 1 -> 2 ms, last_balance 64.
	 * 91 ms: cpu 1 empties; the new-idle balance is refused (small
	 * imbalance); next_balance = 64 + 2 = 66: due at tick 92, where N
	 * (last ran at 90: 2 ms, cache-hot) is refused while a runs; the
	 * interval of that pass was 2 ms: next at tick 94, where N is cold
	 * (4 ms): pulled to cpu 1 (idle since 91: its epoch was renewed).
	 * cpu 0's epoch has not rotated: N keeps its entitlement (SD's
	 * update_if_moved): level 33 and its slice, so on cpu 1 it runs levels
	 * 33-39 (7 x 6 = 42 ms, 94-136 ms) before its first major rotation
	 * there. Over that epoch N ran 3 + 7 = 10 levels = 60 ms: exactly what
	 * nice 10 allows (10 levels x 6 ms). Before this rule a move gave it a
	 * fresh level 30 on cpu 1: 60 more ms in the same epoch (90 ms). */
	struct sl_behaviour b;
	struct sl_task_spec *t;
	struct trec r;
	struct sl_replay_stats st;
	size_t i;
	int lvl = -1;
	uint64_t rot = UINT64_MAX, ran = 0;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	smp_task(&b, "a", 0, 0);
	t = smp_task(&b, "b", 0, 0);
	t->run_ns = 91 * TMS;
	t->count = 1;
	smp_task(&b, "N", 10, 0);
	CHECK_EQ_INT(smp_run(&b, "rsdl", 0, 400 * TMS, &r, &st), 0);
	CHECK_EQ_INT(first_on(&r, 2, 1), 94 * TMS);
	CHECK_EQ_INT(st.migrations, 1);
	/* its level when it arrived on cpu 1: the last staircase row up to then
	 * (a fresh epoch would have written level 30 at 94 ms) */
	for (i = 0; i < r.nst; i++)
		if (r.st[i].task == 2 && r.st[i].ts <= 94 * TMS)
			lvl = r.st[i].level;
	CHECK_EQ_INT(lvl, 33);
	for (i = 0; i < r.ns; i++)
		if (r.s[i].task == 2 && r.s[i].ts == 94 * TMS)
			CHECK_EQ_INT(r.s[i].prio, 133);
	for (i = 0; i < r.nr; i++)
		if (r.r[i].cpu == 1 && r.r[i].ts > 93 * TMS && !strcmp(r.r[i].kind, "major") && rot == UINT64_MAX)
			rot = r.r[i].ts;
	CHECK_EQ_INT(rot, 136 * TMS);
	for (i = 0; i < r.ns; i++)
		if (r.s[i].task == 2 && r.s[i].ts < rot)
			ran += r.s[i].ts + r.s[i].dur < rot ? r.s[i].dur : rot - r.s[i].ts;
	/* its whole first epoch: 3 levels on cpu 0 + 7 on cpu 1 */
	CHECK_EQ_INT(ran, 60 * TMS);
	trec_free(&r);
	sl_behaviour_release(&b);
}

SL_TEST(smp_active_balance_pushes_the_running_task)
{
	/* o1, 2 CPUs, HZ 1000. A (any CPU) and P (pinned to cpu 0), nice-0
	 * hogs, start at 0: A -> cpu 0 (all empty, lowest number), P -> cpu 0
	 * (its only CPU); A was queued first and runs, P waits; cpu 1 is idle.
	 * cpu 1 balances SCHED_IDLE at every tick (balance_interval 1 ms, not
	 * busy: 1 jiffy). At tick j (cpu 0 ticks first: cl0(0) = 2W, cl0(1) =
	 * 0): this_load = target_load(1, idle_idx 1) = 0, max_load =
	 * source_load(0, 1) = 2W, avg W, busiest_load_per_task W, max_pull =
	 * min(W, W), imbalance = min(W, W - 0) = W (not small). move_tasks:
	 * P is pinned, A is running: nothing moves, and not all pinned (A, on
	 * its array, may run on cpu 1), so nr_balance_failed++ and the interval
	 * stays at min_interval. At j = 4 ms nr_balance_failed = 4 >
	 * cache_nice_tries + 2 = 3: cpu 0's running task A may run on cpu 1, so
	 * load_balance kicks cpu 0's migration thread (push_cpu 1) and sets
	 * nr_balance_failed = 2. The thread (FIFO 99) preempts A at 4 ms: A's
	 * slice [0, 4 ms) ends R. active_load_balance: nr_running 3 (A, P,
	 * the thread) > 1; move_tasks(cpu 1, one task, any load, SCHED_IDLE):
	 * O(1)'s order at prio 120 is [A, P] from the tail: P (pinned) is
	 * refused, A (not running now; cache-hot but nr_balance_failed 2 >
	 * cache_nice_tries 1) goes to cpu 1 and runs there at 4 ms; the
	 * thread sleeps and cpu 0 runs P from 4 ms. No more moves: each CPU has
	 * one task. Without the migration thread A would stay on cpu 0 forever
	 * (nothing else can move it) and cpu 1 idle. */
	struct trec r;
	struct sl_replay_stats st;
	size_t i;
	int a_slices = 0;
	CHECK_EQ_INT(trun_text("A 0 run=inf\nP 0 run=inf cpus=0\n", "o1", 2, 20 * TMS, NULL, &r, &st), 0);
	CHECK_EQ_INT(st.active_balances, 1);
	CHECK_EQ_INT(st.migrations, 1);
	for (i = 0; i < r.ns; i++) {
		const struct trow_slice *s = &r.s[i];
		if (s->task == 0) {
			if (a_slices++ == 0) {
				CHECK(s->cpu == 0 && s->ts == 0 && s->dur == 4 * TMS && s->end == 'R');
			} else {
				CHECK(s->cpu == 1 && s->ts == 4 * TMS);
			}
		} else {
			CHECK_EQ_INT(s->task, 1); /* no rows for the migration thread */
			CHECK(s->cpu == 0 && s->ts == 4 * TMS);
		}
	}
	CHECK_EQ_INT(a_slices, 2);
	CHECK_EQ_INT(trun_runtime(&r, 0), 20 * TMS);
	CHECK_EQ_INT(trun_runtime(&r, 1), 16 * TMS);
	trec_free(&r);
}

/* X (task 0) runs exec_at, execs (an exec point, SL_END_EXEC), runs 10 ms
 * more and exits; P0 (if with_p0) a nice-0 hog pinned to cpu 0 from 0.1 ms,
 * P1 (if with_p1) one pinned to cpu 1 from 0. */
static void exec_case(struct sl_behaviour *b, int with_p0, int with_p1, uint64_t exec_at,
		      const char *pol, struct trec *r, struct sl_replay_stats *st)
{
	struct sl_task_spec *t;
	memset(b, 0, sizeof(*b));
	b->cpus = 2;
	t = add_task(b, "x", 0, 0);
	add_phase(t, exec_at, SL_END_EXEC, 0, 0, -1, 0);
	add_phase(t, 10 * TMS, SL_END_EXIT, 0, 0, -1, 0);
	if (with_p0)
		smp_task(b, "p0", 0, 100 * 1000ULL)->cpumask = 1;
	if (with_p1)
		smp_task(b, "p1", 0, 0)->cpumask = 2;
	CHECK_EQ_INT(smp_run(b, pol, 0, 300 * TMS, r, st), 0);
}

SL_TEST(smp_exec_point_balances_as_sched_exec)
{
	/* 2.6.20 (o1): X starts first at 0 on cpu 0 (all empty: the lowest
	 * number), P1 on cpu 1, P0 (at 0.1 ms) on cpu 0 behind X. No balancing
	 * moves X before its exec: cpu 1 is busy (interval 64 ms) and its
	 * find_busiest_group sees 2W against W, the small-imbalance rule:
	 * W >= 2W fails, pwr_move 2W <= pwr_now 2W. At the exec point (2 ms,
	 * after the ticks at 1 and 2 ms set cpu_load[0] to the raw loads):
	 * sched_balance_self(SD_BALANCE_EXEC), forkexec_idx 1: this_load =
	 * source_load(0) = min(2W, 2W) = 2W (X is on cpu 0's load already),
	 * min_load = target_load(1) = max(W, W) = W; 100 * 2W < 112 * W is
	 * false, so X goes to cpu 1 through cpu 0's migration thread: X's
	 * slice [0, 2 ms) on cpu 0 ends R, its other 10 ms are on cpu 1. */
	struct sl_behaviour b;
	struct trec r;
	struct sl_replay_stats st;
	size_t i;
	exec_case(&b, 1, 1, 2 * TMS, "o1", &r, &st);
	CHECK_EQ_INT(st.execs, 1);
	CHECK_EQ_INT(st.exec_moves, 1);
	CHECK_EQ_INT(cpu_changes(&r, 0), 1);
	for (i = 0; i < r.ns; i++)
		if (r.s[i].task == 0) {
			CHECK(r.s[i].cpu == 0 && r.s[i].ts == 0 && r.s[i].dur == 2 * TMS && r.s[i].end == 'R');
			break;
		}
	CHECK_EQ_INT(trun_runtime(&r, 0), 12 * TMS);
	trec_free(&r);
	sl_behaviour_release(&b);

	/* without P0: X alone on cpu 0, this_load = W, min_load = W:
	 * 100 * W < 112 * W, X stays; its slice is not cut by the exec point
	 * (one slice [0, 12 ms) on cpu 0) */
	exec_case(&b, 0, 1, 2 * TMS, "o1", &r, &st);
	CHECK_EQ_INT(st.execs, 1);
	CHECK_EQ_INT(st.exec_moves, 0);
	CHECK_EQ_INT(cpu_changes(&r, 0), 0);
	CHECK(first_on(&r, 0, 0) == 0 && first_on(&r, 0, 1) == UINT64_MAX);
	for (i = 0; i < r.ns; i++)
		if (r.s[i].task == 0)
			CHECK(r.s[i].ts == 0 && r.s[i].dur == 12 * TMS && r.s[i].end == 'X');
	trec_free(&r);
	sl_behaviour_release(&b);
}

SL_TEST(smp_exec_point_eevdf_find_idlest_cpu)
{
	/* eevdf (6.x): P1 pinned to cpu 1, so cpu 1 is busy; X on cpu 0, P0
	 * (pinned to cpu 0) queued behind it from 0.1 ms. X execs at 0.5 ms,
	 * within its first slice (1.5 ms: RUN_TO_PARITY keeps it running).
	 * select_task_rq_fair(WF_EXEC) -> find_idlest_group with
	 * update_sg_wakeup_stats (X's own share off cpu 0): cpu 0 without X
	 * has P0 (1 task, no idle CPU), cpu 1 has P1 (1 task): both
	 * group_has_spare (util far below 1024 / 1.17 after 0.5 ms), and
	 * local idle_cpus 0 >= 0: X stays. Now the same with cpu 1 idle (no
	 * P1: tasks "x", "p0" only), below. */
	struct sl_behaviour b;
	struct trec r;
	struct sl_replay_stats st;
	exec_case(&b, 1, 1, 500 * 1000ULL, "eevdf", &r, &st);
	CHECK_EQ_INT(st.execs, 1);
	CHECK_EQ_INT(st.exec_moves, 0);
	CHECK(first_on(&r, 0, 0) == 0);
	trec_free(&r);
	sl_behaviour_release(&b);

	/* cpu 1 idle, X and P0 on cpu 0 (X first at 0, P0 pinned at 0.1 ms;
	 * cpu 1's balancing cannot take P0, pinned, nor X, running): cpu 0
	 * without X has P0 (idle_cpus 0), cpu 1 none (idle_cpus 1): both have
	 * spare capacity and local's idle CPUs 0 < 1, so find_idlest_group
	 * returns cpu 1 and the stopper moves X there at 0.5 ms */
	exec_case(&b, 1, 0, 500 * 1000ULL, "eevdf", &r, &st);
	CHECK_EQ_INT(st.exec_moves, 1);
	CHECK(first_on(&r, 0, 1) == 500 * 1000ULL);
	CHECK_EQ_INT(cpu_changes(&r, 0), 1);
	CHECK_EQ_INT(trun_runtime(&r, 0), 10500 * 1000ULL);
	trec_free(&r);
	sl_behaviour_release(&b);

	/* and X alone on cpu 0 beside an idle cpu 1: cpu 0 without X is idle
	 * too (idle_cpu_without: X is its current task), 1 >= 1: X stays */
	exec_case(&b, 0, 0, 500 * 1000ULL, "eevdf", &r, &st);
	CHECK_EQ_INT(st.execs, 1);
	CHECK_EQ_INT(st.exec_moves, 0);
	CHECK_EQ_INT(cpu_changes(&r, 0), 0);
	trec_free(&r);
	sl_behaviour_release(&b);
}

/* S (task 0, nice -5) runs 1 ms on cpu 0, sleeps 5 ms, is woken by an interrupt
 * whose recorded CPU is rec_cpu (-1: unknown), runs 1 ms and exits; H0 a
 * nice-0 hog pinned to cpu 0. Returns the CPU of S's second slice. */
/* Replay b (2 CPUs, invariants checked) through pol with --irq-cpu mode
 * for dur; S is task 0, whose first slice must be on cpu 0 (with its
 * runtime checked when runtime is not 0). Returns the CPU of S's second
 * slice (-1: none); releases b. */
static int irq_run(struct sl_behaviour *b, const char *pol, int mode, uint64_t dur, uint64_t runtime,
		   struct sl_replay_stats *st)
{
	struct sl_diag d = { { 0 }, 0, 0 };
	struct sl_replay_opts o;
	struct trec r;
	struct sl_run_sink k = trec_sink(&r);
	size_t i;
	int n = 0, cpu = -1;
	memset(&r, 0, sizeof(r));
	sl_replay_opts_init(&o);
	o.cpus = 2;
	o.duration_ns = dur;
	o.debug = 1;
	o.irq_cpu_mode = mode;
	CHECK_EQ_INT(sl_replay_run(b, sl_policy_find(pol), &o, &k, st, &d), 0);
	for (i = 0; i < r.ns; i++)
		if (r.s[i].task == 0 && n++ == 1)
			cpu = r.s[i].cpu;
	CHECK(first_on(&r, 0, 0) == 0);
	if (runtime)
		CHECK_EQ_INT(trun_runtime(&r, 0), runtime);
	trec_free(&r);
	sl_behaviour_release(b);
	return cpu;
}

static int irq_case(const char *pol, int rec_cpu, int mode, struct sl_replay_stats *st)
{
	struct sl_behaviour b;
	struct sl_task_spec *t;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	t = add_task(&b, "s", -5, 0);
	add_phase(t, 1 * TMS, SL_END_SLEEP_S, 5 * TMS, SL_WAKER_IRQ, -1, 0);
	t->phases[0].wake_cpu1 = rec_cpu < 0 ? 0 : (uint32_t)rec_cpu + 1;
	add_phase(t, 1 * TMS, SL_END_EXIT, 0, 0, -1, 0);
	smp_task(&b, "h0", 0, 500 * 1000ULL)->cpumask = 1;
	/* S's first slice: [0, 1 ms) on cpu 0; 2 ms of CPU in all */
	return irq_run(&b, pol, mode, 50 * TMS, 2 * TMS, st);
}

SL_TEST(smp_irq_wakeup_runs_on_its_recorded_cpu)
{
	/* 2.6.20's try_to_wake_up for every model of the shared layer, HZ
	 * 1000: S starts on cpu 0 (all empty) and runs, H0 (pinned) comes at
	 * 0.5 ms and waits (S has the better nice); S sleeps at 1 ms and H0 runs; cpu 1 stays idle (nothing
	 * may move there). At 6 ms S is woken by an interrupt. With
	 * --irq-cpu sleeper (or no recorded CPU) this_cpu = its own cpu 0: it
	 * stays, and preempts H0 at once (nice -5 against 0, after a sleep, in
	 * every model), so that no balancing can take it to cpu 1 meanwhile. With --irq-cpu recorded and the interrupt on cpu 1: this_cpu
	 * = 1, load = source_load(0, wake_idx 1) = min(W, W) = W (H0 alone
	 * since 1 ms: cpu_load[0] = W at every tick), this_load =
	 * target_load(1) = 0, tl_per_task = SCHED_LOAD_SCALE = W (cpu 1 has
	 * no task; the model's nice-0 weight, H0's): tl 0 <= W and 0 + target_load(0) = W <= W, so WAKE_AFFINE
	 * takes S to cpu 1. A recorded CPU 3 on this 2-CPU replay folds to
	 * 3 mod 2 = 1: the same move. */
	static const char *const pols[] = { "rsdl", "o1", "sd", "cfs" };
	struct sl_replay_stats st;
	size_t k;
	for (k = 0; k < SL_ARRAY_SIZE(pols); k++) {
		/* rsdl and o1 run S at once on cpu 0 (it preempts H0); sd and cfs
		 * queue it behind H0, where cpu 1's idle balancing takes it (not
		 * the wakeup): wake_affine counts the wakeup's moves */
		int stay = k < 2 ? 0 : -1, c;
		c = irq_case(pols[k], 1, SL_IRQ_CPU_SLEEPER, &st);
		CHECK(stay < 0 || c == stay);
		CHECK_EQ_INT(st.irq_cpu_wakeups, 0);
		CHECK_EQ_INT(st.wake_affine, 0);
		c = irq_case(pols[k], -1, SL_IRQ_CPU_RECORDED, &st);
		CHECK(stay < 0 || c == stay);
		CHECK_EQ_INT(st.wake_affine, 0);
		CHECK_EQ_INT(irq_case(pols[k], 1, SL_IRQ_CPU_RECORDED, &st), 1);
		CHECK_EQ_INT(st.irq_cpu_wakeups, 1);
		CHECK_EQ_INT(st.wake_affine, 1);
		CHECK_EQ_INT(irq_case(pols[k], 3, SL_IRQ_CPU_RECORDED, &st), 1);
		CHECK_EQ_INT(st.wake_affine, 1);
		/* the interrupt on cpu 0 itself: this_cpu = prev, no move */
		c = irq_case(pols[k], 0, SL_IRQ_CPU_RECORDED, &st);
		CHECK(stay < 0 || c == stay);
		CHECK_EQ_INT(st.wake_affine, 0);
	}
}

/* S (task 0, nice 0) runs [0, 1 ms) alone on cpu 0 (the first placement),
 * sleeps 5 ms and is woken at 6 ms by an interrupt recorded on wake (-1:
 * unknown) while it had slept on sleep (-1: unknown) in the recording; then
 * runs 1 ms and exits. n0 nice-0 hogs pinned to cpu 0 and n1 to cpu 1 start
 * at 1.5 ms, after S's first burst. Returns the CPU of S's second slice
 * (-1: none within 400 ms); *moved = the wakeup's wake-affine moves. */
static int irq_wake(const char *pol, int n0, int n1, int wake, int sleep, int mode, int *moved,
		    struct sl_replay_stats *st)
{
	struct sl_behaviour b;
	struct sl_task_spec *t;
	int cpu, h;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	t = add_task(&b, "s", 0, 0);
	add_phase(t, 1 * TMS, SL_END_SLEEP_S, 5 * TMS, SL_WAKER_IRQ, -1, 0);
	t->phases[0].wake_cpu1 = wake < 0 ? 0 : (uint32_t)wake + 1;
	t->phases[0].sleep_cpu1 = sleep < 0 ? 0 : (uint32_t)sleep + 1;
	add_phase(t, 1 * TMS, SL_END_EXIT, 0, 0, -1, 0);
	for (h = 0; h < n0 + n1; h++)
		smp_task(&b, h < n0 ? "h0" : "h1", 0, 1500 * 1000ULL)->cpumask = h < n0 ? 1 : 2;
	cpu = irq_run(&b, pol, mode, 400 * TMS, 0, st);
	*moved = (int)st->wake_affine;
	return cpu;
}

SL_TEST(smp_irq_wakeup_wake_affine_cases)
{
	/* 2.6.20's try_to_wake_up for an interrupt on cpu 1 (this_cpu = 1)
	 * waking S, which slept on cpu 0 (cpu = 0), wake_idx 1, imbalance
	 * 100 + (125 - 100) / 2 = 112; W = the model's nice-0 weight
	 * (SCHED_LOAD_SCALE), S's own weight W. The wakeup at 6 ms comes
	 * before that instant's tick: cpu_load[0] = the raw load of the tick
	 * at 5 ms (the hogs' since the tick at 2 ms). load = source_load(0) =
	 * min(cl0, raw), this_load = target_load(1) = max(cl0, raw),
	 * tl_per_task = cpu_avg_load_per_task(1) (W when cpu 1 is empty).
	 * Move when (tl <= load && tl + target_load(0) <= tl_per_task) or
	 * 100 (tl + W) <= 112 load:
	 * - 1 hog on cpu 0, none on 1: load W, tl 0: 0 <= W, 0 + W <= W: moves.
	 * - 2 on cpu 0, 1 on 1: load 2W, tl W, per task W: W + 2W > W; but
	 *   100 x 2W = 200W <= 112 x 2W = 224W: moves (passive balance of a
	 *   busier CPU).
	 * - 1 and 1: load W, tl W: W + W > W; 200W > 112W: stays.
	 * - both idle: load 0, tl 0: 0 <= 0, 0 + 0 <= W: moves (an interrupt
	 *   on an idle CPU takes the task of another idle CPU).
	 * - cpu 0 idle, 1 hog on cpu 1: load 0, tl W: W > 0; 200W > 0: stays.
	 * Where it moves, S's second slice is on cpu 1 (cpu 1 has no more load
	 * than cpu 0 then: no balancing takes it back). */
	static const char *const pols[] = { "rsdl", "o1", "sd", "cfs" };
	static const int cases[][3] = { { 1, 0, 1 }, { 2, 1, 1 }, { 1, 1, 0 }, { 0, 0, 1 }, { 0, 1, 0 } };
	struct sl_replay_stats st;
	size_t k, c;
	int moved, cpu;
	for (k = 0; k < SL_ARRAY_SIZE(pols); k++) {
		for (c = 0; c < SL_ARRAY_SIZE(cases); c++) {
			cpu = irq_wake(pols[k], cases[c][0], cases[c][1], 1, 0, SL_IRQ_CPU_RELATIVE, &moved,
				       &st);
			if (moved != cases[c][2])
				fprintf(stderr, "  %s, %d + %d hogs: %d moves\n", pols[k], cases[c][0],
					cases[c][1], moved);
			CHECK_EQ_INT(moved, cases[c][2]);
			CHECK_EQ_INT(st.irq_cpu_wakeups, 1);
			if (cases[c][2])
				CHECK_EQ_INT(cpu, 1);
		}
	}
}

SL_TEST(smp_irq_wakeup_relative_to_the_cpu_it_slept_on)
{
	/* The case "1 hog on cpu 0, none on 1" of smp_irq_wakeup_wake_affine_cases
	 * (an interrupt on cpu 1 moves S; one on cpu 0, S's own, does not),
	 * with the recorded interrupt CPU (wake) and the CPU S had slept on in
	 * the recording (sleep) against S's cpu 0 in the replay:
	 * - relative: this_cpu = 0 + (wake - sleep) mod 2. wake 1, sleep 1
	 *   (its own CPU's interrupt, as a timer it armed): 0, stays; wake 1,
	 *   sleep 0: 1, moves; wake 0, sleep 1: 1, moves; a 4-CPU recording,
	 *   wake 3, sleep 2: offset 1, moves; wake 2, sleep 0: offset 2 mod 2
	 *   = 0, stays. No sleep CPU (an import of schema 8): the recorded CPU
	 *   as it is, wake 1: moves.
	 * - recorded: this_cpu = wake mod 2: wake 1, sleep 1: moves; wake 0,
	 *   sleep 1: 0, stays.
	 * - remote: S's own CPU when wake = sleep, else this_cpu = wake mod 2
	 *   as it is: wake 1, sleep 1: 0, stays; wake 1, sleep 0: 1, moves;
	 *   wake 0, sleep 1: 0, stays (relative moves it); wake 3, sleep 2: 1,
	 *   moves; wake 2, sleep 0: 0, stays.
	 * - auto: relative for rsdl (wake 1 sleep 1 stays, wake 1 sleep 0
	 *   moves); relative for eevdf too (its own placement; with 2 CPUs
	 *   relative and remote agree on these two): wake 1, sleep 1 is
	 *   its own CPU's interrupt: this_cpu = prev = its cpu 0, busy, so
	 *   select_idle_sibling takes the idle cpu 1 (as for any 6.x wakeup
	 *   beside an idle CPU of the LLC); wake 1, sleep 0 takes cpu 1 as this_cpu and
	 *   wake_affine_idle moves S there: cpu 1 idle, its previous cpu 0
	 *   running the hog (docs/eevdf.md). Either counts as an interrupt
	 *   wakeup given a recorded CPU (irq_cpu_wakeups 1). */
	struct sl_replay_stats st;
	int moved;
	irq_wake("rsdl", 1, 0, 1, 1, SL_IRQ_CPU_RELATIVE, &moved, &st);
	CHECK_EQ_INT(moved, 0);
	CHECK_EQ_INT(irq_wake("rsdl", 1, 0, 1, 0, SL_IRQ_CPU_RELATIVE, &moved, &st), 1);
	CHECK_EQ_INT(moved, 1);
	CHECK_EQ_INT(irq_wake("rsdl", 1, 0, 0, 1, SL_IRQ_CPU_RELATIVE, &moved, &st), 1);
	CHECK_EQ_INT(moved, 1);
	CHECK_EQ_INT(irq_wake("rsdl", 1, 0, 3, 2, SL_IRQ_CPU_RELATIVE, &moved, &st), 1);
	CHECK_EQ_INT(moved, 1);
	irq_wake("rsdl", 1, 0, 2, 0, SL_IRQ_CPU_RELATIVE, &moved, &st);
	CHECK_EQ_INT(moved, 0);
	CHECK_EQ_INT(irq_wake("rsdl", 1, 0, 1, -1, SL_IRQ_CPU_RELATIVE, &moved, &st), 1);
	CHECK_EQ_INT(moved, 1);
	CHECK_EQ_INT(irq_wake("rsdl", 1, 0, 1, 1, SL_IRQ_CPU_RECORDED, &moved, &st), 1);
	CHECK_EQ_INT(moved, 1);
	irq_wake("rsdl", 1, 0, 0, 1, SL_IRQ_CPU_RECORDED, &moved, &st);
	CHECK_EQ_INT(moved, 0);
	irq_wake("rsdl", 1, 0, 1, 1, SL_IRQ_CPU_AUTO, &moved, &st);
	CHECK_EQ_INT(moved, 0);
	CHECK_EQ_INT(st.irq_cpu_wakeups, 1);
	CHECK_EQ_INT(irq_wake("rsdl", 1, 0, 1, 0, SL_IRQ_CPU_AUTO, &moved, &st), 1);
	CHECK_EQ_INT(moved, 1);
	irq_wake("rsdl", 1, 0, 1, 1, SL_IRQ_CPU_REMOTE, &moved, &st);
	CHECK_EQ_INT(moved, 0);
	CHECK_EQ_INT(irq_wake("rsdl", 1, 0, 1, 0, SL_IRQ_CPU_REMOTE, &moved, &st), 1);
	CHECK_EQ_INT(moved, 1);
	irq_wake("rsdl", 1, 0, 0, 1, SL_IRQ_CPU_REMOTE, &moved, &st);
	CHECK_EQ_INT(moved, 0);
	CHECK_EQ_INT(irq_wake("rsdl", 1, 0, 3, 2, SL_IRQ_CPU_REMOTE, &moved, &st), 1);
	CHECK_EQ_INT(moved, 1);
	irq_wake("rsdl", 1, 0, 2, 0, SL_IRQ_CPU_REMOTE, &moved, &st);
	CHECK_EQ_INT(moved, 0);
	CHECK_EQ_INT(irq_wake("eevdf", 1, 0, 1, 1, SL_IRQ_CPU_AUTO, &moved, &st), 1);
	CHECK_EQ_INT(st.irq_cpu_wakeups, 1);
	CHECK_EQ_INT(irq_wake("eevdf", 1, 0, 1, 0, SL_IRQ_CPU_AUTO, &moved, &st), 1);
	CHECK_EQ_INT(st.irq_cpu_wakeups, 1);
}

SL_TEST(smp_sd_moved_task_keeps_its_rotation)
{
	/* sd (2.6.21-ck1), 2 CPUs: rr_interval 6 ms x (1 + log2 2) = 12 ms,
	 * quota nice 0 12 ms, nice 10 max(12 / 2, 1) = 6 ms; nice 10's matrix
	 * row allows slots 3, 7, ..., 39 (10 slots: 60 ms per rotation);
	 * accounting=1 (exact run time; the move's rule does not depend on
	 * it), interactive 1. N (nice 10) is placed first on cpu 0 (every CPU
	 * empty), a (nice 0) is pinned to cpu 0, b (nice 0) to cpu 1, where it
	 * runs 48 ms and exits. cpu 0 from time 0: N enqueued at 103 (search
	 * from 100, the best static prio on the array then), a at 101 (best):
	 * a 0-12; at its tick a takes 103 behind N (search from 100: best
	 * static, interactive), N runs 12-18 and takes 107 (search from
	 * max(prio_level: a's 101, its own 103) = 103, 103 used); a 18-30 at
	 * 103, 30-42 at 105, then 107 behind N: N 42-45, where its 9 ms burst
	 * ends: it sleeps with 3 ms of slot 107 left, bitmap {3, 7}. b exits
	 * at 48 (cpu 1 goes idle: a new rotation there; nothing may be pulled:
	 * a is pinned and running, N asleep). At 50 N is woken by an interrupt
	 * that fired on cpu 1 in the recording while it slept on cpu 0 there:
	 * this_cpu 1; cpu_load[0] of the tick at 49: cpu 1 0, cpu 0 W (a);
	 * tl 0 <= W and 0 + W <= W (cpu 1 empty: SCHED_LOAD_SCALE): it moves
	 * to cpu 1. cpu 0 has not rotated (a is at 107): update_if_moved keeps
	 * N's bitmap and slot, its 3 ms of 107: N runs 50-53 at 107, then
	 * 111, 115, ..., 139 (8 x 6 ms, 53-101), and at 101 has no slot left:
	 * to the expired array, and cpu 1's active array is empty: its major
	 * rotation at 101. Over that rotation N ran 6 + 3 ms on cpu 0 and
	 * 3 + 48 on cpu 1: 60 ms, what nice 10 allows. A fresh entitlement at
	 * the move (a new array on cpu 1) would have given it all 10 slots
	 * there: 60 ms on cpu 1 alone, 69 in the rotation, rotation at 110. */
	struct sl_behaviour b;
	struct sl_task_spec *t;
	struct sl_diag d = { { 0 }, 0, 0 };
	struct sl_replay_opts o;
	struct trec r;
	struct sl_run_sink k = trec_sink(&r);
	struct sl_replay_stats st;
	size_t i;
	uint64_t rot = UINT64_MAX, ran = 0;
	int prio = -1;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	t = add_task(&b, "N", 10, 0);
	add_phase(t, 9 * TMS, SL_END_SLEEP_S, 5 * TMS, SL_WAKER_IRQ, -1, 0);
	t->phases[0].wake_cpu1 = 2;
	t->phases[0].sleep_cpu1 = 1;
	add_phase(t, SL_INF, SL_END_TRACE, 0, 0, -1, 0);
	smp_task(&b, "a", 0, 0)->cpumask = 1;
	t = smp_task(&b, "b", 0, 0);
	t->cpumask = 2;
	t->run_ns = 48 * TMS;
	t->count = 1;
	memset(&r, 0, sizeof(r));
	sl_replay_opts_init(&o);
	o.cpus = 2;
	o.duration_ns = 200 * TMS;
	o.debug = 1;
	o.policy_opts = "accounting=1";
	CHECK_EQ_INT(sl_replay_run(&b, sl_policy_find("sd"), &o, &k, &st, &d), 0);
	CHECK_EQ_INT(st.wake_affine, 1);
	CHECK_EQ_INT(first_on(&r, 0, 0), 12 * TMS);
	CHECK_EQ_INT(first_on(&r, 0, 1), 50 * TMS);
	for (i = 0; i < r.ns; i++)
		if (r.s[i].task == 0 && r.s[i].ts == 50 * TMS)
			prio = r.s[i].prio;
	CHECK_EQ_INT(prio, 107);
	for (i = 0; i < r.nr; i++)
		if (r.r[i].cpu == 1 && r.r[i].ts > 50 * TMS && !strcmp(r.r[i].kind, "major") && rot == UINT64_MAX)
			rot = r.r[i].ts;
	CHECK_EQ_INT(rot, 101 * TMS);
	for (i = 0; i < r.ns; i++)
		if (r.s[i].task == 0 && r.s[i].ts < rot)
			ran += r.s[i].ts + r.s[i].dur < rot ? r.s[i].dur : rot - r.s[i].ts;
	CHECK_EQ_INT(ran, 60 * TMS);
	trec_free(&r);
	sl_behaviour_release(&b);
}

/* select_cpu is asked as select_task_rq is, with wake flags: a spy around
 * eevdf's records each call. X runs 0.5 ms on cpu 0, execs (WF_EXEC, asked
 * with prev_cpu = its CPU), runs 1 ms, forks C (WF_FORK, prev_cpu = the
 * parent's CPU: cpu 0 at 1.5 ms), sleeps 2 ms (a timer: WF_TTWU alone, no
 * waker CPU), runs 1 ms and exits. */
static const struct sl_policy_ops *spied;
static int spy_flags[16], spy_prev[16], spy_waker[16], spy_n;

static int spy_select(struct sl_engine *e, struct sl_task *p, int prev_cpu, int waker_cpu, int wake_flags)
{
	if (p->idx == 0 && spy_n < 16) {
		spy_flags[spy_n] = wake_flags;
		spy_prev[spy_n] = prev_cpu;
		spy_waker[spy_n++] = waker_cpu;
	} else if (p->idx == 1 && (wake_flags & SL_WF_FORK) && spy_n < 16) {
		spy_flags[spy_n] = wake_flags;
		spy_prev[spy_n] = prev_cpu;
		spy_waker[spy_n++] = waker_cpu;
	}
	return spied->select_cpu(e, p, prev_cpu, waker_cpu, wake_flags);
}

SL_TEST(smp_select_cpu_wake_flags)
{
	struct sl_policy_ops spy;
	struct sl_behaviour b;
	struct sl_task_spec *t;
	struct sl_replay_opts o;
	struct sl_diag d = { { 0 }, 0, 0 };
	struct trec r;
	struct sl_run_sink k = trec_sink(&r);
	spied = sl_policy_find("eevdf");
	spy = *spied;
	spy.select_cpu = spy_select;
	spy_n = 0;
	memset(&b, 0, sizeof(b));
	memset(&r, 0, sizeof(r));
	b.cpus = 2;
	t = add_task(&b, "x", 0, 0);
	add_phase(t, 500 * 1000ULL, SL_END_EXEC, 0, 0, -1, 0);
	add_phase(t, 1 * TMS, SL_END_SLEEP_S, 2 * TMS, SL_WAKER_IRQ, -1, 0);
	add_phase(t, 1 * TMS, SL_END_EXIT, 0, 0, -1, 0);
	t = add_task(&b, "c", 0, 1500 * 1000ULL);
	t->flags = SL_TASK_FORKED;
	t->parent = 0;
	t->run_ns = 1 * TMS;
	t->count = 1;
	sl_replay_opts_init(&o);
	o.cpus = 2;
	o.duration_ns = 100 * TMS;
	o.debug = 1;
	CHECK_EQ_INT(sl_replay_run(&b, &spy, &o, &k, NULL, &d), 0);
	CHECK_EQ_INT(spy_n, 3);
	CHECK_EQ_INT(spy_flags[0], SL_WF_EXEC);
	CHECK_EQ_INT(spy_prev[0], 0);
	CHECK_EQ_INT(spy_waker[0], 0);
	CHECK_EQ_INT(spy_flags[1], SL_WF_FORK);
	CHECK_EQ_INT(spy_prev[1], 0);
	CHECK_EQ_INT(spy_flags[2], SL_WF_TTWU);
	CHECK_EQ_INT(spy_waker[2], -1);
	trec_free(&r);
	sl_behaviour_release(&b);
}
