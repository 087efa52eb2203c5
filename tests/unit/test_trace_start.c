/* tests/unit/test_trace_start.c - the trace's start (docs/model.md "The
 * trace's start", docs/replay.md "The trace's start"): the task a CPU's
 * first event names runs there from that event (a slice row and a first
 * burst), the CPU the trace first shows each task on is kept (start_cpu1),
 * and a replay starts a task present at the start there. Every expected
 * value is worked out by hand in the comments. */
#include "harness.h"
#include "test_engine_util.h"
#include "test_model_util.h"
#include "../../collector/model.h"

#include <stdlib.h>
#include <string.h>

#define US 1000ULL

struct rows {
	uint64_t ts[8], dur[8];
	int cpu[8], task[8];
	char st[8];
	int n;
};

static int keep_slice(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task, char st, int prio)
{
	struct rows *r = ctx;
	(void)prio;
	if (r->n < 8) {
		r->ts[r->n] = ts;
		r->dur[r->n] = dur;
		r->cpu[r->n] = cpu;
		r->task[r->n] = task;
		r->st[r->n++] = st;
	}
	return 0;
}

static void feed(struct sl_model *m, struct sl_event e)
{
	CHECK_EQ_INT(sl_model_event(m, &e), 0);
}

static const struct sl_task_spec *by_tid(const struct sl_behaviour *b, int tid)
{
	size_t i;
	for (i = 0; i < b->ntasks; i++)
		if (b->tasks[i].tid == tid)
			return &b->tasks[i];
	return NULL;
}

/* Two CPUs. The trace's first event, at 50 us on CPU 0 in the idle task,
 * is the sched_waking of B (pid 31), target_cpu 1: task_cpu(B) before the
 * placement, the CPU B last ran on. CPU 1's first event is A's (pid 30)
 * sched_stat_runtime at 100 us (4 000 us charged: A ran before the trace
 * too); A switches out asleep at 5 000 us (to idle), is woken by CPU 1's
 * idle task at 6 000 us and runs 6 010 to 6 100 us. B is woken onto CPU 0
 * (sched_wakeup at 60 us) and runs there from 70 us to 170 us, asleep.
 * - A: a slice row on CPU 1 from its first sight, 100 us, to 5 000 us:
 *   4 900 us, S; its first burst 4 900 us ending in a sleep of 1 000 us
 *   (5 000 to 6 000); present at
 *   the start (flag 1), appearing at 100 - 50 = 50 us; first shown on CPU 1
 *   (start_cpu1 2).
 * - B: first shown by the sched_waking's target_cpu, CPU 1 (start_cpu1 2),
 *   though it then ran on CPU 0.
 * Before 2026-12-08 A had no row (its CPU's first switch ended a run the
 * trace did not see begin) and no burst: it first appeared at its wakeup. */
SL_TEST(model_first_sight_of_a_cpu)
{
	struct rows r;
	struct sl_run_sink sink = { .ctx = &r, .slice = keep_slice, .wakeup = test_model_no_wake };
	struct sl_diag d;
	struct sl_model *m;
	struct sl_behaviour b;
	struct sl_model_stats st;
	uint64_t *first, *last;
	const struct sl_task_spec *a, *bb;
	struct sl_event e;
	int i, arow = -1;
	memset(&d, 0, sizeof(d));
	memset(&r, 0, sizeof(r));
	m = sl_model_new(&sink, &d);
	e = test_model_event(SL_EV_WAKING, 50 * US, 0, 0, 31, 0, 0);
	e.target_cpu = 1;
	feed(m, e);
	e = test_model_event(SL_EV_WAKEUP, 60 * US, 0, 0, 31, 0, 0);
	e.target_cpu = 0;
	feed(m, e);
	feed(m, test_model_event(SL_EV_SWITCH, 70 * US, 0, 0, 0, 31, 'R'));
	e = test_model_event(SL_EV_RUNTIME, 100 * US, 1, 30, 30, 0, 0);
	e.count = 4000 * US;
	feed(m, e);
	feed(m, test_model_event(SL_EV_SWITCH, 170 * US, 0, 31, 31, 0, 'S'));
	feed(m, test_model_event(SL_EV_SWITCH, 5000 * US, 1, 30, 30, 0, 'S'));
	feed(m, test_model_event(SL_EV_WAKEUP, 6000 * US, 1, 0, 30, 0, 0));
	feed(m, test_model_event(SL_EV_SWITCH, 6010 * US, 1, 0, 0, 30, 'R'));
	feed(m, test_model_event(SL_EV_SWITCH, 6100 * US, 1, 30, 30, 0, 'S'));
	sl_model_finish(m, &b, &first, &last, &st);
	a = by_tid(&b, 30);
	bb = by_tid(&b, 31);
	CHECK(a != NULL && bb != NULL);
	if (a && bb) {
		for (i = 0; i < r.n; i++)
			if (r.task[i] == a->idx && arow < 0)
				arow = i;
		CHECK(arow >= 0);
		if (arow >= 0) {
			CHECK_EQ_INT(r.ts[arow], 100 * US);
			CHECK_EQ_INT(r.dur[arow], 4900 * US);
			CHECK_EQ_INT(r.cpu[arow], 1);
			CHECK_EQ_INT(r.st[arow], 'S');
		}
		CHECK_EQ_INT(a->nphases >= 1, 1);
		if (a->nphases >= 1) {
			CHECK_EQ_INT(a->phases[0].run_ns, 4900 * US);
			CHECK_EQ_INT(a->phases[0].end, SL_END_SLEEP_S);
			CHECK_EQ_INT(a->phases[0].sleep_ns, 1000 * US);
		}
		CHECK_EQ_INT(a->flags & SL_TASK_AT_START, SL_TASK_AT_START);
		CHECK_EQ_INT(a->start_ns, 50 * US);
		CHECK_EQ_INT(a->start_cpu1, 2);
		CHECK_EQ_INT(bb->start_cpu1, 2);
	}
	test_model_done(m, &b, first, last, &st);
}

/* first slice of task t in r, its CPU (-1 none) */
static int first_cpu(const struct trec *r, int t)
{
	size_t i;
	for (i = 0; i < r->ns; i++)
		if (r->s[i].task == t)
			return r->s[i].cpu;
	return -1;
}

/* Two CPUs, rsdl, three tasks present at the trace's start, each 10 ms of
 * work:
 * - task 0 runnable, first shown on CPU 1 (start_cpu1 2): it starts there;
 * - task 1 runnable, no CPU known: the allowed CPU with the fewest tasks,
 *   CPU 0 (task 0 is on CPU 1);
 * - task 2 asleep until a timer at 5 ms, first shown on CPU 1: a timer's
 *   wakeup is taken on the sleeper's CPU (sl_smp_wake_cpu), the one it last
 *   ran on, CPU 1.
 * Without the CPUs (start_cpu1 0 for all): task 0 takes CPU 0 (fewest
 * tasks, then the lowest number), task 1 CPU 1, and task 2's first wakeup
 * comes on CPU 0, the first CPU it may run on. */
SL_TEST(engine_trace_start_cpus)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_replay_stats st;
	struct trec r;
	struct sl_task_spec *t;
	int known;
	for (known = 1; known >= 0; known--) {
		memset(&b, 0, sizeof(b));
		b.cpus = 2;
		t = add_task(&b, "a", 0, 0);
		t->flags = SL_TASK_AT_START;
		t->start_cpu1 = known ? 2 : 0;
		add_phase(t, 10 * TMS, SL_END_EXIT, 0, 0, -1, 0);
		t = add_task(&b, "b", 0, 0);
		t->flags = SL_TASK_AT_START;
		add_phase(t, 10 * TMS, SL_END_EXIT, 0, 0, -1, 0);
		t = add_task(&b, "c", 0, 0);
		t->flags = SL_TASK_AT_START;
		t->initially_runnable = 0;
		t->start_cpu1 = known ? 2 : 0;
		add_phase(t, 0, SL_END_SLEEP_S, 5 * TMS, SL_WAKER_IRQ, -1, 0);
		add_phase(t, 10 * TMS, SL_END_EXIT, 0, 0, -1, 0);
		sl_replay_opts_init(&o);
		o.cpus = 2;
		o.mode = SL_MODE_TIMED;
		CHECK_EQ_INT(trun_opts(&b, "rsdl", &o, &r, &st), 0);
		CHECK_EQ_INT(first_cpu(&r, 0), known ? 1 : 0);
		CHECK_EQ_INT(first_cpu(&r, 1), known ? 0 : 1);
		CHECK_EQ_INT(first_cpu(&r, 2), known ? 1 : 0);
		CHECK_EQ_INT(trun_runtime(&r, 2), 10 * TMS);
		trec_free(&r);
		sl_behaviour_release(&b);
	}
}

/* slices and wakeups of one run */
struct both {
	struct rows r;
	uint64_t wts[4], wrun[4];
	int wtask[4], nw;
};

static int both_slice(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task, char st, int prio)
{
	return keep_slice(&((struct both *)ctx)->r, ts, dur, cpu, task, st, prio);
}

static int both_wake(void *ctx, int task, uint64_t ts, uint64_t ts_run, int waker, int cpu)
{
	struct both *x = ctx;
	(void)waker, (void)cpu;
	if (x->nw < 4) {
		x->wts[x->nw] = ts;
		x->wrun[x->nw] = ts_run;
		x->wtask[x->nw++] = task;
	}
	return 0;
}

/* A task woken before its CPU's first event and first seen running there:
 * its switch-in is not in the file, so its wakeup's run is unknown (no
 * ts_run, as for a wakeup at the trace's end), not the first sight's time.
 * On perf-sched-pipe-2cpu.perf.data perf (19705) is woken onto CPU 1 at
 * 3493.433806 and CPU 1's first event comes at 3493.461678 (a charge of
 * 56.7 us: it ran from about 3493.461621): a 27.9 ms delay would have been
 * taken for the wake-up latency of an idle CPU, that trace's only sample.
 * Here P (pid 40) runs on CPU 0 from 0 and wakes Q (pid 41) at 100 us
 * (sched_waking, then sched_wakeup with target_cpu 1); CPU 1's first event
 * is Q's sched_stat_runtime at 900 us; Q switches out asleep at 1 000 us.
 * Q's wakeup row: at 100 us, no ts_run; its slice on CPU 1 from 900 us,
 * 100 us long. */
SL_TEST(model_first_sight_after_an_unseen_switch_in)
{
	struct both x;
	struct sl_run_sink sink = { .ctx = &x, .slice = both_slice, .wakeup = both_wake };
	struct sl_diag d;
	struct sl_model *m;
	struct sl_behaviour b;
	struct sl_model_stats st;
	uint64_t *first, *last;
	const struct sl_task_spec *q;
	struct sl_event e;
	int i, row = -1, wrow = -1;
	memset(&d, 0, sizeof(d));
	memset(&x, 0, sizeof(x));
	m = sl_model_new(&sink, &d);
	feed(m, test_model_event(SL_EV_SWITCH, 0, 0, 0, 0, 40, 'R'));
	e = test_model_event(SL_EV_WAKING, 100 * US, 0, 40, 41, 0, 0);
	e.target_cpu = 1;
	feed(m, e);
	e = test_model_event(SL_EV_WAKEUP, 101 * US, 0, 40, 41, 0, 0);
	e.target_cpu = 1;
	feed(m, e);
	e = test_model_event(SL_EV_RUNTIME, 900 * US, 1, 41, 41, 0, 0);
	e.count = 57 * US;
	feed(m, e);
	feed(m, test_model_event(SL_EV_SWITCH, 1000 * US, 1, 41, 41, 0, 'S'));
	sl_model_finish(m, &b, &first, &last, &st);
	q = by_tid(&b, 41);
	CHECK(q != NULL);
	if (q) {
		for (i = 0; i < x.r.n; i++)
			if (x.r.task[i] == q->idx)
				row = i;
		for (i = 0; i < x.nw; i++)
			if (x.wtask[i] == q->idx)
				wrow = i;
		CHECK(row >= 0 && wrow >= 0);
		if (row >= 0) {
			CHECK_EQ_INT(x.r.ts[row], 900 * US);
			CHECK_EQ_INT(x.r.dur[row], 100 * US);
			CHECK_EQ_INT(x.r.cpu[row], 1);
		}
		if (wrow >= 0) {
			CHECK_EQ_INT(x.wts[wrow], 100 * US);
			CHECK(x.wrun[wrow] == UINT64_MAX);
		}
		CHECK_EQ_INT(q->start_cpu1, 2);
	}
	test_model_done(m, &b, first, last, &st);
}
