/* tests/unit/test_kacct.c - each thread's work and run queue waits as the
 * kernel counts them (collector/kacct.h, docs/ledger.md), through the
 * model on a hand-written event sequence. The expected values are worked
 * out below from the kernel's rules (v6.18): sum_exec_runtime grows by each
 * sched_stat_runtime's runtime; run_delay grows at the pick by the rq clock
 * less the clock at the enqueue or at the runnable switch-out; the clock of
 * a switch is the one its next task's charge began at (its first
 * sched_stat_runtime's ts - runtime), or the switch's own time. Event
 * times are taken as the clock readings they follow (no lag). */
#include "harness.h"
#include "test_model_util.h"
#include "../../collector/model.h"

#include <stdlib.h>
#include <string.h>

/* each task's slice rows, summed (tasks 0..7) */
static uint64_t rows_ns[8];

static int no_slice(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task, char st, int prio)
{
	(void)ctx, (void)ts, (void)cpu, (void)st, (void)prio;
	if (task >= 0 && task < 8)
		rows_ns[task] += dur;
	return 0;
}

/* what the counters of each of tid[0..nt) cover (sl_kacct_finish): from
 * lo to hi, with edge ns of it that have no slice row; rows: its slice
 * rows' ns */
struct covered {
	uint64_t lo, hi, edge, rows;
};

/* an event (test_model_event) with its runtime (sched_stat_runtime) */
static struct sl_event ev(int type, uint64_t ts, int cpu, int cur, int pid, int pid2, char st,
			  uint64_t count)
{
	struct sl_event e = test_model_event(type, ts, cpu, cur, pid, pid2, st);
	e.count = count;
	return e;
}

#define SW(ts, cpu, p, st, n) ev(SL_EV_SWITCH, ts, cpu, p, p, n, st, 0)
#define RT(ts, cpu, pid, r) ev(SL_EV_RUNTIME, ts, cpu, pid, pid, -1, 0, r)
#define WAKING(ts, cpu, cur, pid) ev(SL_EV_WAKING, ts, cpu, cur, pid, -1, 0, 0)
#define WAKEUP(ts, cpu, cur, pid) ev(SL_EV_WAKEUP, ts, cpu, cur, pid, -1, 0, 0)
#define MIG(ts, cpu, pid) ev(SL_EV_MIGRATE, ts, cpu, 0, pid, -1, 0, 0)

/* e[0..n) through a model with the windows w[0..nw) (none: it must not
 * count); the work and waits it counted for each of tid[0..nt). */
static void counts_c(const struct sl_event *e, size_t n, const struct sl_ledger_window *w, size_t nw,
		     const int *tid, size_t nt, uint64_t *work, uint64_t *wait, struct covered *cv)
{
	struct sl_run_sink sink;
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_behaviour b;
	struct sl_model_stats st;
	uint64_t *first, *last;
	struct sl_model *m;
	size_t i, j;
	memset(&sink, 0, sizeof(sink));
	memset(rows_ns, 0, sizeof(rows_ns));
	sink.slice = no_slice;
	sink.wakeup = test_model_no_wake;
	m = sl_model_new(&sink, &d);
	sl_model_set_windows(m, w, nw);
	for (i = 0; i < n; i++)
		CHECK_EQ_INT(sl_model_event(m, &e[i]), 0);
	CHECK_EQ_INT(sl_model_finish(m, &b, &first, &last, &st), 0);
	CHECK(st.have_runtime);
	CHECK(nw ? st.kwork_ns && st.kwait_ns : !st.kwork_ns && !st.kwait_ns);
	for (j = 0; j < nt; j++) {
		work[j] = wait[j] = UINT64_MAX;
		for (i = 0; nw && i < b.ntasks; i++)
			if (b.tasks[i].tid == tid[j]) {
				work[j] = st.kwork_ns[i];
				wait[j] = st.kwait_ns[i];
				if (cv) {
					cv[j].lo = st.klo_ns[i];
					cv[j].hi = st.khi_ns[i];
					cv[j].edge = st.kedge_ns[i];
					cv[j].rows = i < 8 ? rows_ns[i] : 0;
				}
			}
	}
	free(first);
	free(last);
	free(st.lost_per_cpu);
	free(st.uncertain_ns);
	free(st.work);
	free(st.kwork_ns);
	free(st.kwait_ns);
	free(st.kedge_ns);
	free(st.klo_ns);
	free(st.khi_ns);
	sl_behaviour_release(&b);
	sl_model_free(m);
}

static void counts(const struct sl_event *e, size_t n, const struct sl_ledger_window *w, size_t nw,
		   const int *tid, size_t nt, uint64_t *work, uint64_t *wait)
{
	counts_c(e, n, w, nw, tid, nt, work, wait, NULL);
}

/* H (pid 30) and C (31) on CPU 0, S (32) on CPU 1; every window (lo, hi]
 * = (1000, 100000].
 * CPU 0: H runs from 100; charged 800 at 900 (before the window: not
 *   counted), 4100 at 5000 (a tick). C's sched_waking at 10000; H charged
 *   5500 at 10500: the enqueue's update_curr, so the enqueue's clock is
 *   10500 (C's wait begins there, not at the sched_wakeup at 12000). H is
 *   preempted (R) by C at 20000; C's first charge, 19400 at 29900, began
 *   at 10500: the switch's clock is 10500, not 20000 (the wakeup asked to
 *   skip the clock update, rq_clock_skip_update): C waited 10500 - 10500 =
 *   0 and H's wait begins at 10500. C sleeps at 31000 and H runs; H's first
 *   charge, 1600 at 31500, began at 29900: H waited 29900 - 10500 = 19400.
 *   H wakes C again: sched_waking at 70000, H charged 38900 at 70400 (the
 *   enqueue: C's wait begins at 70400), sched_wakeup at 71000; no
 *   preemption: H blocks at 80000, charged 9400 at 79800 (__schedule's
 *   clock update); C's first charge, 5200 at 85000, began at 79800: C
 *   waited 79800 - 70400 = 9400 (from the sched_wakeup it would be 8800).
 *   C's charge of 65000 at 150000 is after the window: not counted.
 *   H: work 4100 + 5500 + 1600 + 38900 + 9400 = 59500, wait 19400.
 *   C: work 19400 + 5200 = 24600, wait 0 + 9400 = 9400.
 *   (A trace's own waits: H 31000 - 20000 = 11000, C 20000 - 10000 and
 *   80000 - 70000.)
 * CPU 1: S runs from 200, charged 1800 at 2000 (in the window: the whole
 *   charge counts, as the counter it adds to), sleeps at 2000. A
 *   sched_wakeup (no sched_waking: the enqueue is before it) at 40000; S
 *   switched in at 43000, first charged 2500 at 45000: its clock 42500,
 *   wait 2500. It sleeps at 46000, is woken at 50000, and its switch-in is
 *   lost: charged 5000 at 60000 while waiting, it ran from 55000: wait
 *   5000. S: work 1800 + 2500 + 5000 = 9300, wait 7500. */
SL_TEST(kacct_kernel_counts)
{
	const struct sl_event e[] = {
		SW(100, 0, 0, 'R', 30),     SW(200, 1, 0, 'R', 32),   RT(900, 0, 30, 800),
		RT(2000, 1, 32, 1800),      SW(2000, 1, 32, 'S', 0),  RT(5000, 0, 30, 4100),
		WAKING(10000, 0, 30, 31),   RT(10500, 0, 30, 5500),   WAKEUP(12000, 0, 30, 31),
		SW(20000, 0, 30, 'R', 31),  RT(29900, 0, 31, 19400), SW(31000, 0, 31, 'S', 30),
		RT(31500, 0, 30, 1600),     WAKEUP(40000, 1, 0, 32),  SW(43000, 1, 0, 'R', 32),
		RT(45000, 1, 32, 2500),     SW(46000, 1, 32, 'S', 0), WAKEUP(50000, 1, 0, 32),
		RT(60000, 1, 32, 5000),     SW(61000, 1, 32, 'S', 0), WAKING(70000, 0, 30, 31),
		RT(70400, 0, 30, 38900),    WAKEUP(71000, 0, 30, 31), RT(79800, 0, 30, 9400),
		SW(80000, 0, 30, 'S', 31),  RT(85000, 0, 31, 5200),   RT(150000, 0, 31, 65000),
	};
	const struct sl_ledger_window w[3] = { { 30, 1000, 100000 }, { 31, 1000, 100000 },
					       { 32, 1000, 100000 } };
	static const int tid[3] = { 30, 31, 32 };
	static const uint64_t work[3] = { 59500, 24600, 9300 }, wait[3] = { 19400, 9400, 7500 };
	uint64_t wo[3], wa[3];
	size_t j;
	counts(e, sizeof(e) / sizeof(e[0]), w, 0, tid, 3, wo, wa); /* no windows: not counted */
	counts(e, sizeof(e) / sizeof(e[0]), w, 3, tid, 3, wo, wa);
	for (j = 0; j < 3; j++) {
		CHECK_EQ_INT(wo[j], work[j]);
		CHECK_EQ_INT(wa[j], wait[j]);
	}
}

/* Moves (sched_migrate_task) of M (pid 40), window (0, 100000]:
 * - M sleeps at 1000 and is moved at 5000: it was still queued (a delayed
 *   dequeue), the move's enqueue sets last_queued = 5000, and its wakeup
 *   (8000, 8100) keeps it: switched in at 9000, first charged 600 at 9500
 *   (clock 8900): wait 8900 - 5000 = 3900;
 * - preempted (R) at 12000 (N's first charge, 400 at 12500, began at 12100,
 *   later than the switch: the clock is the switch's, 12000), moved at
 *   15000: the dequeue adds 15000 - 12000 = 3000; switched in at 20000,
 *   charged 1000 at 21000 (clock 20000): 20000 - 15000 = 5000;
 * - asleep at 22000, woken at 30000 and moved at 30001 inside
 *   try_to_wake_up (before the enqueue: no dequeue); N's charge at 30002
 *   is the enqueue's; sched_wakeup at 30003; switched in at 31000, charged
 *   800 at 31500 (clock 30700): 30700 - 30002 = 698.
 * M: wait 3900 + 3000 + 5000 + 698 = 12598, work 600 + 1000 + 800 = 2400.
 * With the window (0, 17000] (its end read while M waits, moved once):
 * wait 3900 + 3000 = 6900 (the dequeue at 15000 added 3000 to run_delay
 * before the read), work 600. */
SL_TEST(kacct_moves)
{
	const struct sl_event e[] = {
		SW(100, 0, 0, 'R', 40),     SW(1000, 0, 40, 'S', 0),  MIG(5000, 0, 40),
		WAKING(8000, 1, 0, 40),     WAKEUP(8100, 1, 0, 40),   SW(9000, 1, 0, 'R', 40),
		RT(9500, 1, 40, 600),       SW(12000, 1, 40, 'R', 41), RT(12500, 1, 41, 400),
		MIG(15000, 1, 40),          SW(20000, 0, 0, 'R', 40), RT(21000, 0, 40, 1000),
		SW(22000, 0, 40, 'S', 0),   WAKING(30000, 1, 41, 40), MIG(30001, 1, 40),
		RT(30002, 1, 41, 17502),    WAKEUP(30003, 1, 41, 40), SW(31000, 0, 0, 'R', 40),
		RT(31500, 0, 40, 800),
	};
	const struct sl_ledger_window w[2] = { { 40, 0, 100000 }, { 40, 0, 17000 } };
	static const uint64_t wait[2] = { 12598, 6900 }, work[2] = { 2400, 600 };
	static const int tid = 40;
	uint64_t wo, wa;
	size_t k;
	for (k = 0; k < 2; k++) {
		counts(e, sizeof(e) / sizeof(e[0]), &w[k], 1, &tid, 1, &wo, &wa);
		CHECK_EQ_INT(wo, work[k]);
		CHECK_EQ_INT(wa, wait[k]);
	}
}

/* The trace's edges and what a running thread's counters cover (the
 * recorder's own thread: it runs across both reads). R (pid 60) runs on
 * CPU 0 when the trace begins; the trace's first event is on CPU 1 at 50.
 * R's window as read is (3000, 26000]: it read its own counters at 3000
 * and at 26000, running both times.
 * - Its charges: 3000 at 100 (before the first read: not in the delta),
 *   4000 at 4100 (a tick, began 100), 900 at 5000 (its switch-out to sleep),
 *   woken at 20000 and switched in then, 4000 at 24000 (a tick), 4000 at
 *   28000 (after the second read). The kernel's delta: 4000 + 900 + 4000 =
 *   8900.
 * - What the delta covers of its running: from the start of its first
 *   charge after 3000 (4100 - 4000 = 100: the read at 3000 did not bring
 *   the counter up to date) to its last charge at or before 26000 (24000:
 *   it runs from 20000 across 26000, and the time after its last tick is not
 *   in the counter): [100, 24000].
 * - The trace shows it running from its first event on CPU 0 (100, the
 *   CPU's first sight) to that CPU's first switch at 5000: a slice row from
 *   its first sight (docs/model.md "The trace's start"), 4900; from the
 *   trace's first event (50) to 100 an edge, outside [100, 24000]. From
 *   20000 to the trace's end (its last event, 28000, on CPU 0) it has no
 *   row (the model emits none for a run it did not see end): an edge,
 *   20000..24000 = 4000 in [100, 24000]. Rows and edges: 4900 + 4000 =
 *   8900, the kernel's 8900 exactly. Clipped to the window as read, they
 *   would be 2000 + 6000 = 8000 (89.9 %).
 * S (pid 61) on CPU 1 wakes at 50 and runs 1000..9000 (a slice row of
 *   8000), window (0, 30000]: asleep at both reads, nothing moves: [0,
 *   30000], no edge. */
SL_TEST(kacct_edges_and_covered_window)
{
	const struct sl_event e[] = {
		WAKEUP(50, 1, 0, 61),      RT(100, 0, 60, 3000),     SW(1000, 1, 0, 'R', 61),
		RT(4100, 0, 60, 4000),     RT(5000, 0, 60, 900),     SW(5000, 0, 60, 'S', 0),
		RT(9000, 1, 61, 8000),     SW(9000, 1, 61, 'S', 0),  WAKEUP(20000, 0, 0, 60),
		SW(20000, 0, 0, 'R', 60),  RT(24000, 0, 60, 4000),   RT(28000, 0, 60, 4000),
	};
	const struct sl_ledger_window w[2] = { { 60, 3000, 26000 }, { 61, 0, 30000 } };
	static const int tid[2] = { 60, 61 };
	uint64_t wo[2], wa[2];
	struct covered cv[2];
	counts_c(e, sizeof(e) / sizeof(e[0]), w, 2, tid, 2, wo, wa, cv);
	CHECK_EQ_INT(wo[0], 8900);
	CHECK_EQ_INT(cv[0].lo, 100);
	CHECK_EQ_INT(cv[0].hi, 24000);
	CHECK_EQ_INT(cv[0].edge, 4000);
	CHECK_EQ_INT(cv[0].rows, 4900);
	CHECK_EQ_INT(wo[1], 8000);
	CHECK_EQ_INT(cv[1].lo, 0);
	CHECK_EQ_INT(cv[1].hi, 30000);
	CHECK_EQ_INT(cv[1].edge, 0);
	CHECK_EQ_INT(cv[1].rows, 8000);
}
