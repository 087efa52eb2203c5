/* tests/unit/test_sync.c - sync wakeups inferred from a behaviour
 * (replay/sync.c, docs/replay.md "Sync wakeups") and what one does in
 * try_to_wake_up's wake-affine rule (2.6.20 kernel/sched.c: a sync waker's
 * load_weight is taken off this_cpu's load). Rule: a wakeup of t by task w
 * at w's CPU time P is sync when w's burst holding P (past any yield) ends
 * in S, D or X at B with B - P <= window (50 us by default), w wakes or
 * forks nobody else in (P, B] and w and t are not threads of one process
 * (a futex's wakeup); mode exit keeps only an exit waking the waker's
 * parent's thread group. */
#include "harness.h"
#include "test_engine_util.h"
#include "../../replay/sync.h"

#define TUS 1000ULL

/* a task asleep from the start, woken after sleep by waker at its CPU
 * time progress, then a 1 ms burst to the end of the trace */
static void add_woken(struct sl_behaviour *b, const char *name, uint64_t sleep, int waker,
		      uint64_t progress)
{
	struct sl_task_spec *t = add_task(b, name, 0, 0);
	add_phase(t, 0, 'S', sleep, SL_WAKER_TASK, waker, progress);
	add_phase(t, 1 * TMS, 'E', 0, 0, -1, 0);
}

/* The hand cases; task indexes in comments, flags worked out below. */
static void sync_cases(struct sl_behaviour *b)
{
	struct sl_task_spec *t;
	memset(b, 0, sizeof(*b));
	b->cpus = 2;
	/* 0 parent (tgid 100): waits for its child 1, woken at the child's
	 * 2 ms - 10 us; the child exits at 2 ms: 10 us <= 50 us, nothing
	 * between -> sync in block and exit modes */
	t = add_task(b, "parent", 0, 0);
	add_phase(t, 1 * TMS, 'S', 5 * TMS, SL_WAKER_TASK, 1, 2 * TMS - 10 * TUS);
	add_phase(t, 1 * TMS, 'E', 0, 0, -1, 0);
	/* 1 child of 0 (tgid 101): one burst, exit */
	t = add_task(b, "child", 0, 0);
	t->parent = 0;
	t->flags = SL_TASK_FORKED;
	add_phase(t, 2 * TMS, 'X', 0, 0, -1, 0);
	/* 2 writer: bursts of 1 ms ending in S; wakes 3 at 995 us (it sleeps
	 * 5 us later: sync in block mode, not an exit: not in exit mode),
	 * 4 at 1.8 ms (200 us before it sleeps: never sync), 5 at 2.95 ms and 6 at
	 * 2.96 ms (5 is followed by the wakeup of 6 before the sleep at 3 ms:
	 * not sync; 6 is 40 us before it: sync) */
	t = add_task(b, "writer", 0, 0);
	add_phase(t, 1 * TMS, 'S', 1 * TMS, SL_WAKER_IRQ, -1, 0);
	add_phase(t, 1 * TMS, 'S', 1 * TMS, SL_WAKER_IRQ, -1, 0);
	add_phase(t, 1 * TMS, 'S', 1 * TMS, SL_WAKER_IRQ, -1, 0);
	add_phase(t, 1 * TMS, 'E', 0, 0, -1, 0);
	add_woken(b, "r3", 1 * TMS, 2, 995 * TUS);
	add_woken(b, "r4", 2 * TMS, 2, 1800 * TUS);
	add_woken(b, "r5", 3 * TMS, 2, 2950 * TUS);
	add_woken(b, "r6", 3 * TMS, 2, 2960 * TUS);
	/* 7 yielder: a 1 ms burst ending in a yield, then 20 us ending in S;
	 * it wakes 8 at 990 us: 10 us + 20 us = 30 us before the sleep (the
	 * yield does not block): sync in block mode. It wakes 9 at 2.02 ms,
	 * exactly at the end of its third burst (sleep): 0 us, sync. */
	t = add_task(b, "yielder", 0, 0);
	add_phase(t, 1 * TMS, 'Y', 0, 0, -1, 0);
	add_phase(t, 20 * TUS, 'S', 1 * TMS, SL_WAKER_IRQ, -1, 0);
	add_phase(t, 1 * TMS, 'S', 1 * TMS, SL_WAKER_IRQ, -1, 0);
	add_phase(t, 1 * TMS, 'E', 0, 0, -1, 0);
	add_woken(b, "r8", 1 * TMS, 7, 990 * TUS);
	add_woken(b, "r9", 2 * TMS, 7, 2020 * TUS);
	/* 10 ender: its only burst ends with the trace (E) 1 us after it
	 * wakes 11: the trace does not say it blocked: not sync */
	t = add_task(b, "ender", 0, 0);
	add_phase(t, 1 * TMS, 'E', 0, 0, -1, 0);
	add_woken(b, "r11", 1 * TMS, 10, 999 * TUS);
	/* 12 boundary: bursts of 1 ms ending in S; wakes 13 exactly 50 us
	 * before its first sleep (sync: the window is inclusive) and 14
	 * 50.001 us before its second (not sync) */
	t = add_task(b, "boundary", 0, 0);
	add_phase(t, 1 * TMS, 'S', 1 * TMS, SL_WAKER_IRQ, -1, 0);
	add_phase(t, 1 * TMS, 'E', 0, 0, -1, 0);
	add_woken(b, "r13", 1 * TMS, 12, 950 * TUS);
	add_woken(b, "r14", 2 * TMS, 12, 2 * TMS - 50001);
	/* 15 exiting thread of 0's process (tgid 100, parent 0): wakes 0 4 us
	 * before it exits. Neither mode: a thread of the waker's own process
	 * wakes it through a futex (a joiner's wake: futex_wake ->
	 * wake_up_q, never WF_SYNC), not do_notify_parent; block mode took it
	 * for sync until the ledger's tgids came in (2026-12-07) */
	t = add_task(b, "thread", 0, 0);
	t->tgid = 100;
	t->parent = 0;
	t->flags = SL_TASK_FORKED;
	add_phase(t, 1 * TMS, 'X', 0, 0, -1, 0);
	t = &b->tasks[0];
	add_phase(t, 0, 'S', 1 * TMS, SL_WAKER_TASK, 15, 996 * TUS);
}

SL_TEST(sync_infer_hand_cases)
{
	struct sl_behaviour b;
	struct sl_sync_map m;
	/* flags per (task, phase whose sleep the wakeup ends) */
	static const struct {
		int t, k, block, exit;
	} want[] = {
		{ 0, 0, 1, 1 },  /* child exits 10 us after waking its parent */
		{ 0, 2, 0, 0 },  /* a thread of the parent's group: a futex, not sync */
		{ 3, 0, 1, 0 },  /* writer sleeps 5 us after */
		{ 4, 0, 0, 0 },  /* 200 us after */
		{ 5, 0, 0, 0 },  /* the wakeup of 6 comes in between */
		{ 6, 0, 1, 0 },  /* 40 us, nothing between */
		{ 8, 0, 1, 0 },  /* 10 us, past the yield, then 20 us */
		{ 9, 0, 1, 0 },  /* 0 us */
		{ 11, 0, 0, 0 }, /* the waker's burst ends with the trace */
		{ 13, 0, 1, 0 }, /* 50 us exactly */
		{ 14, 0, 0, 0 }, /* 50.001 us */
	};
	size_t i;
	int mode;

	sync_cases(&b);
	for (mode = SL_SYNC_BLOCK; mode <= SL_SYNC_EXIT; mode++) {
		sl_sync_infer(&b, mode, SL_SYNC_WINDOW_NS, &m);
		for (i = 0; i < SL_ARRAY_SIZE(want); i++)
			if (sl_sync_of(&m, (size_t)want[i].t, (size_t)want[i].k) !=
			    (mode == SL_SYNC_BLOCK ? want[i].block : want[i].exit)) {
				fprintf(stderr, "  %s: task %d phase %d\n", sl_sync_mode_name(mode),
					want[i].t, want[i].k);
				CHECK(0);
			}
		/* block: 0/0, 3, 6, 8, 9, 13; exit: 0/0 */
		CHECK_EQ_INT(m.nsync, mode == SL_SYNC_BLOCK ? 6 : 1);
		sl_sync_release(&m);
	}
	/* a window of 4 us keeps 0 us (9), not the thread's 4 us (0/2: its
	 * own process) */
	sl_sync_infer(&b, SL_SYNC_BLOCK, 4 * TUS, &m);
	CHECK_EQ_INT(m.nsync, 1);
	CHECK(sl_sync_of(&m, 9, 0) && !sl_sync_of(&m, 0, 2));
	sl_sync_release(&m);
	sl_sync_infer(&b, SL_SYNC_NONE, SL_SYNC_WINDOW_NS, &m);
	CHECK_EQ_INT(m.nsync, 0);
	CHECK(!sl_sync_of(&m, 0, 0));
	sl_sync_release(&m);
	/* group (5.x and later: the call decides, not what the waker does
	 * next): every wakeup between user tasks of two thread groups is sync
	 * whatever the waker does after it: 3, 4 (200 us before the sleep), 5
	 * (another wakeup follows), 6, 8, 9, 11 (the trace ends), 13, 14
	 * (50.001 us); not 0/0 (the child wakes its parent on its way out of
	 * exit: PF_EXITING drops WF_SYNC) nor 0/2 (a thread of 0's own
	 * process: a futex) */
	sl_sync_infer(&b, SL_SYNC_GROUP, SL_SYNC_WINDOW_NS, &m);
	CHECK_EQ_INT(m.nsync, 9);
	CHECK(!sl_sync_of(&m, 0, 0) && !sl_sync_of(&m, 0, 2));
	CHECK(sl_sync_of(&m, 3, 0) && sl_sync_of(&m, 4, 0) && sl_sync_of(&m, 5, 0) && sl_sync_of(&m, 6, 0));
	CHECK(sl_sync_of(&m, 8, 0) && sl_sync_of(&m, 9, 0) && sl_sync_of(&m, 11, 0));
	CHECK(sl_sync_of(&m, 13, 0) && sl_sync_of(&m, 14, 0));
	sl_sync_release(&m);
	/* group: kernel threads neither make nor take a sync wakeup. A
	 * kthread (0) wakes user task 1 at 500 us, 10 us before it sleeps
	 * (block mode: sync); user task 2 wakes kthread 3 at 990 us, 10 us
	 * before it sleeps (block: sync); user task 2 wakes user task 4 (its
	 * own group) at 1.99 ms, 10 us before its next sleep (block: sync);
	 * the child 5 wakes its parent 2 at 1 ms, 900 us before it exits
	 * (not on the exit path: sync in group mode) */
	{
		struct sl_behaviour c;
		struct sl_task_spec *q;
		memset(&c, 0, sizeof(c));
		q = add_task(&c, "kworker", 0, 0);
		q->flags = SL_TASK_KTHREAD;
		add_phase(q, 510 * TUS, 'S', 1 * TMS, SL_WAKER_IRQ, -1, 0);
		add_phase(q, 1 * TMS, 'E', 0, 0, -1, 0);
		add_woken(&c, "u1", 1 * TMS, 0, 500 * TUS);
		q = add_task(&c, "u2", 0, 0);
		add_phase(q, 1 * TMS, 'S', 1 * TMS, SL_WAKER_IRQ, -1, 0);
		add_phase(q, 1 * TMS, 'S', 3 * TMS, SL_WAKER_TASK, 5, 1 * TMS);
		add_phase(q, 1 * TMS, 'E', 0, 0, -1, 0);
		q = add_task(&c, "kthread", 0, 0);
		q->flags = SL_TASK_KTHREAD;
		add_phase(q, 0, 'S', 1 * TMS, SL_WAKER_TASK, 2, 990 * TUS);
		add_phase(q, 1 * TMS, 'E', 0, 0, -1, 0);
		q = add_task(&c, "u2-thread", 0, 0);
		q->tgid = c.tasks[2].tgid;
		add_phase(q, 0, 'S', 2 * TMS, SL_WAKER_TASK, 2, 1990 * TUS);
		add_phase(q, 1 * TMS, 'E', 0, 0, -1, 0);
		q = add_task(&c, "child", 0, 0);
		q->parent = 2;
		q->flags = SL_TASK_FORKED;
		add_phase(q, 1900 * TUS, 'X', 0, 0, -1, 0);
		sl_sync_infer(&c, SL_SYNC_GROUP, SL_SYNC_WINDOW_NS, &m);
		CHECK_EQ_INT(m.nsync, 1);
		CHECK(sl_sync_of(&m, 2, 1));
		sl_sync_release(&m);
		/* block mode for contrast: 1/0 and 3/0 (10 us before a sleep);
		 * not 4/0 (its own process), not 2/1 (900 us before the exit) */
		sl_sync_infer(&c, SL_SYNC_BLOCK, SL_SYNC_WINDOW_NS, &m);
		CHECK_EQ_INT(m.nsync, 2);
		CHECK(sl_sync_of(&m, 1, 0) && sl_sync_of(&m, 3, 0));
		sl_sync_release(&m);
		sl_behaviour_release(&c);
	}
	/* a fork counts as something in between: the parent forks a second
	 * child 1 us after waking a task, then sleeps */
	{
		struct sl_behaviour c;
		struct sl_task_spec *q;
		memset(&c, 0, sizeof(c));
		q = add_task(&c, "p", 0, 0);
		add_phase(q, 1 * TMS, 'S', 1 * TMS, SL_WAKER_IRQ, -1, 0);
		add_phase(q, 1 * TMS, 'E', 0, 0, -1, 0);
		add_woken(&c, "woken", 1 * TMS, 0, 990 * TUS);
		q = add_task(&c, "forked", 0, 0);
		q->parent = 0;
		q->parent_progress_ns = 991 * TUS;
		q->flags = SL_TASK_FORKED;
		add_phase(q, 1 * TMS, 'X', 0, 0, -1, 0);
		sl_sync_infer(&c, SL_SYNC_BLOCK, SL_SYNC_WINDOW_NS, &m);
		CHECK_EQ_INT(m.nsync, 0);
		sl_sync_release(&m);
		sl_behaviour_release(&c);
	}
	sl_behaviour_release(&b);
}

/* The wake-affine rule with and without sync, o1 on 2 CPUs at HZ 1000.
 * Tasks appear at 0 in index order: hog H (0) on CPU0 (both empty: the
 * lowest number), writer W (1) on CPU1 (the fewest tasks), reader R (2)
 * asleep from the start (its CPU: the first allowed, 0). W runs a 10 ms
 * burst and sleeps; it woke R at 9.995 ms of its CPU time (R's timed sleep:
 * 9.995 ms), 5 us before its sleep: sync by the rule.
 * O(1)'s nice-0 weight: task_timeslice 100 ms * 128 / 100 = 128 = W0. At
 * 9.995 ms every tick has seen H alone on CPU0 and W alone on CPU1:
 * cpu_load[0] = 128 on both. try_to_wake_up runs on CPU1 (this_cpu) for R
 * of CPU0: load = source_load(0, wake_idx 1) = min(128, 128) = 128,
 * this_load = target_load(1, 1) = 128, tl_per_task = 128 / 1 = 128.
 * - not sync: tl = 128; tl <= load but tl + target_load(0) = 256 > 128, and
 *   100 * (128 + 128) = 25600 > 112 * 128 = 14336: R stays on CPU0 (and
 *   is pulled to CPU1 by the idle balance at the next tick, below).
 * - sync: tl = 128 - W's 128 = 0; 0 <= 128 and 0 + 128 <= 128: R goes to
 *   CPU1; a sync wakeup onto the waker's CPU does not preempt (2.6.20
 *   try_to_wake_up: "if (!sync || cpu != this_cpu)"), so W finishes its
 *   5 us and R runs on CPU1 at 10 ms. */
/* o1 on 2 CPUs for 40 ms: hog H (0), W (1) runs w_run then sleeps 50 ms
 * (a timer), R (2) asleep from the start is woken by W at W's CPU time
 * r_progress, its timed sleep ending at r_sleep; --sync and --wake-cpu as
 * given */
static int hwr_run(uint64_t w_run, uint64_t r_sleep, uint64_t r_progress, int sync_mode,
		   int wake_mode, struct trec *r, struct sl_replay_stats *st)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_task_spec *t;
	int rc;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	add_hog(&b, "H", 0, 0);
	t = add_task(&b, "W", 0, 0);
	add_phase(t, w_run, 'S', 50 * TMS, SL_WAKER_IRQ, -1, 0);
	add_phase(t, 1 * TMS, 'E', 0, 0, -1, 0);
	t = add_task(&b, "R", 0, 0);
	t->initially_runnable = 0;
	add_phase(t, 0, 'S', r_sleep, SL_WAKER_TASK, 1, r_progress);
	add_phase(t, 1 * TMS, 'E', 0, 0, -1, 0);
	sl_replay_opts_init(&o);
	o.cpus = 2;
	o.duration_ns = 40 * TMS;
	o.sync_mode = sync_mode;
	o.wake_cpu_mode = wake_mode;
	rc = trun_opts(&b, "o1", &o, r, st);
	sl_behaviour_release(&b);
	return rc;
}

/* hwr_run, then R's first slice (cpu -1 if none) */
static struct trow_slice hwr_first_r(uint64_t w_run, uint64_t r_sleep, uint64_t r_progress,
				     int sync_mode, int wake_mode, struct sl_replay_stats *st)
{
	struct trec r;
	struct trow_slice first = { 0, 0, -1, -1, 0, 0 };
	size_t i;
	CHECK_EQ_INT(hwr_run(w_run, r_sleep, r_progress, sync_mode, wake_mode, &r, st), 0);
	for (i = 0; i < r.ns; i++)
		if (r.s[i].task == 2) {
			first = r.s[i];
			break;
		}
	trec_free(&r);
	return first;
}

SL_TEST(sync_wake_affine_takes_the_wakee_to_the_wakers_cpu)
{
	struct sl_replay_stats st;
	struct trow_slice s;

	s = hwr_first_r(10 * TMS, 9995 * TUS, 9995 * TUS, SL_SYNC_BLOCK, SL_WAKE_CPU_RUNNING, &st);
	CHECK_EQ_INT(st.sync_wakeups, 1);
	CHECK_EQ_INT(st.wake_affine, 1);
	CHECK(s.cpu == 1 && s.ts == 10 * TMS);

	s = hwr_first_r(10 * TMS, 9995 * TUS, 9995 * TUS, SL_SYNC_NONE, SL_WAKE_CPU_RUNNING, &st);
	CHECK_EQ_INT(st.sync_wakeups, 0);
	CHECK_EQ_INT(st.wake_affine, 0);
	CHECK_EQ_INT(st.migrations, 1);
	/* queued on CPU0 behind H (equal O(1) prio 125: no preemption); at
	 * 10 ms CPU1's new-idle balance finds "balanced" (newidle_idx 2: this
	 * 128 (cpu_load[1]), busiest min(192, 256) = 192, small imbalance:
	 * pwr_move 64 + 128 = 192 <= pwr_now 128 + 128 = 256); at the 11 ms
	 * tick the idle balance (idle_idx 1: this 0, busiest 256, imbalance
	 * min(128, 128) = 128 = R's weight) pulls R */
	CHECK(s.cpu == 1 && s.ts == 11 * TMS);
}

/* --wake-cpu: a task woken (timed) while its waker is not running. o1 on 2
 * CPUs: hog H (0) on CPU0, W (1) on CPU1 runs 1 ms and sleeps 50 ms, R (2)
 * asleep from the start (prev CPU 0) is woken by W at W's 1 ms, its timed
 * sleep ending at 5 ms, when W sleeps (it last ran on CPU1). At the 5 ms
 * tick (ticks before events) cpu_load[0] is 128 on CPU0 (H) and 0 on CPU1.
 * - waker: this_cpu = W's CPU 1: load = source_load(0, 1) = 128,
 *   this_load = target_load(1, 1) = 0, tl_per_task = SCHED_LOAD_SCALE (CPU1
 *   has no task) = 128: 0 <= 128 and 0 + 128 <= 128: wake affine, R runs on
 *   CPU1 at 5 ms.
 * - running (default): on the sleeper's CPU, this_cpu = R's CPU 0: it stays, queued
 *   behind H (equal O(1) prio 125: no preemption) until a balance pulls it:
 *   no wake-affine move, R's first slice after 5 ms. */
SL_TEST(wake_cpu_of_a_waker_that_is_not_running)
{
	struct sl_replay_stats st;
	struct trow_slice s;

	s = hwr_first_r(1 * TMS, 5 * TMS, 1 * TMS, SL_SYNC_BLOCK, SL_WAKE_CPU_WAKER, &st);
	CHECK_EQ_INT(st.wake_affine, 1);
	CHECK(s.cpu == 1 && s.ts == 5 * TMS);
	s = hwr_first_r(1 * TMS, 5 * TMS, 1 * TMS, SL_SYNC_BLOCK, SL_WAKE_CPU_RUNNING, &st);
	CHECK_EQ_INT(st.wake_affine, 0);
	CHECK(s.cpu >= 0 && s.ts > 5 * TMS);
}
