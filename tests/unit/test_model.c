/* tests/unit/test_model.c - the behaviour model and the recorded run on a
 * hand-written event sequence; every expected value is derived in the
 * comments from the rules in collector/model.c. */
#include "harness.h"
#include "../../collector/model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cap {
	int nslice, nwake;
	struct {
		uint64_t ts, dur;
		int cpu, task;
		char st;
	} s[16];
	struct {
		uint64_t ts, ts_run;
		int task, waker;
	} w[16];
};

/* The rows in start-time order (a yield candidate's row comes when the
 * pass is over, collector/yields.c), as a reader of the store sorts them */
static int c_slice(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task, char st, int prio)
{
	struct cap *c = ctx;
	(void)prio;
	if (c->nslice < 16) {
		int i = c->nslice;
		for (; i > 0 && c->s[i - 1].ts > ts; i--)
			c->s[i] = c->s[i - 1];
		c->s[i].ts = ts;
		c->s[i].dur = dur;
		c->s[i].cpu = cpu;
		c->s[i].task = task;
		c->s[i].st = st;
	}
	c->nslice++;
	return 0;
}

static int c_wake(void *ctx, int task, uint64_t ts, uint64_t ts_run, int waker, int cpu)
{
	struct cap *c = ctx;
	(void)cpu;
	if (c->nwake < 16) {
		c->w[c->nwake].ts = ts;
		c->w[c->nwake].ts_run = ts_run;
		c->w[c->nwake].task = task;
		c->w[c->nwake].waker = waker;
	}
	c->nwake++;
	return 0;
}

static struct sl_event sw(uint64_t ts, int prev, char st, int next)
{
	struct sl_event e;
	sl_event_clear(&e);
	e.type = SL_EV_SWITCH;
	e.ts = ts;
	e.cpu = 0;
	e.cur_pid = prev;
	e.pid = prev;
	e.pid2 = next;
	e.prio = e.prio2 = 120;
	e.state = st;
	return e;
}

static struct sl_event wk(uint64_t ts, int cur, int pid, int irq)
{
	struct sl_event e;
	sl_event_clear(&e);
	e.type = SL_EV_WAKING;
	e.ts = ts;
	e.cpu = 0;
	e.cur_pid = cur;
	e.pid = pid;
	e.prio = 120;
	e.ctx = SL_CTX_KNOWN | (irq ? SL_CTX_HARDIRQ : 0);
	return e;
}

/* A model fed by hand: its recorded-run rows go to c, what it built to b
 * and st (mrun_finish), all released by mrun_end. */
struct mrun {
	struct cap c;
	struct sl_run_sink sink;
	struct sl_diag d;
	struct sl_model *m;
	struct sl_behaviour b;
	struct sl_model_stats st;
	uint64_t *first, *last;
};

static void mrun_start(struct mrun *r)
{
	memset(r, 0, sizeof(*r));
	r->sink.ctx = &r->c;
	r->sink.slice = c_slice;
	r->sink.wakeup = c_wake;
	r->m = sl_model_new(&r->sink, &r->d);
}

static int mrun_finish(struct mrun *r)
{
	return sl_model_finish(r->m, &r->b, &r->first, &r->last, &r->st);
}

static void mrun_end(struct mrun *r)
{
	free(r->first);
	free(r->last);
	free(r->st.lost_per_cpu);
	free(r->st.uncertain_ns);
	free(r->st.work);
	sl_behaviour_release(&r->b);
	sl_model_free(r->m);
}

SL_TEST(model_one_cpu_sequence)
{
	struct mrun r;
	struct sl_event evs[7];
	int i;
	mrun_start(&r);

	/* A = pid 10 (task 0), B = pid 11 (task 1); one CPU */
	evs[0] = sw(1000, 0, 'R', 10); /* idle -> A: A first seen switching in */
	evs[1] = wk(3000, 10, 11, 0);  /* A wakes B (process context) */
	evs[2] = sw(4000, 10, 'R', 11); /* A preempted by B */
	evs[3] = sw(6000, 11, 'S', 10); /* B sleeps */
	evs[4] = wk(7000, 10, 11, 1);  /* B woken from a hard interrupt */
	evs[5] = sw(9000, 10, 'D', 11); /* A blocks (D) */
	evs[6] = sw(9500, 11, 'X', 0);  /* B exits */
	for (i = 0; i < 7; i++)
		CHECK_EQ_INT(sl_model_event(r.m, &evs[i]), 0);
	CHECK_EQ_INT(mrun_finish(&r), 0);

	/* slices: A [1000,4000) R; B [4000,6000) S; A [6000,9000) D; B [9000,9500) X */
	CHECK_EQ_INT(r.c.nslice, 4);
	CHECK_EQ_INT(r.c.s[0].task, 0);
	CHECK_EQ_INT(r.c.s[0].dur, 3000);
	CHECK_EQ_INT(r.c.s[0].st, 'R');
	CHECK_EQ_INT(r.c.s[1].task, 1);
	CHECK_EQ_INT(r.c.s[1].dur, 2000);
	CHECK_EQ_INT(r.c.s[2].dur, 3000);
	CHECK_EQ_INT(r.c.s[2].st, 'D');
	CHECK_EQ_INT(r.c.s[3].dur, 500);
	CHECK_EQ_INT(r.c.s[3].st, 'X');
	/* wakeups: B woken at 3000 by A, ran at 4000; woken at 7000 by an
	 * interrupt (no waker), ran at 9000 */
	CHECK_EQ_INT(r.c.nwake, 2);
	CHECK_EQ_INT(r.c.w[0].ts, 3000);
	CHECK_EQ_INT(r.c.w[0].ts_run, 4000);
	CHECK_EQ_INT(r.c.w[0].waker, 0);
	CHECK_EQ_INT(r.c.w[1].ts, 7000);
	CHECK_EQ_INT(r.c.w[1].ts_run, 9000);
	CHECK_EQ_INT(r.c.w[1].waker, -1);

	CHECK_EQ_INT(r.b.ntasks, 2);
	CHECK_EQ_INT(r.b.t0, 1000);
	CHECK_EQ_INT(r.st.cpus, 1);
	CHECK_EQ_INT(r.st.first_ts, 1000);
	CHECK_EQ_INT(r.st.last_ts, 9500);
	/* A: runnable at the trace start (time 0); one burst of 3000 + 3000 =
	 * 6000 (preemption does not end a burst), then asleep until the end of
	 * the trace, so the phase ends with 'E' */
	CHECK_EQ_INT(r.b.tasks[0].start_ns, 0);
	CHECK(r.b.tasks[0].flags & SL_TASK_AT_START);
	CHECK_EQ_INT(r.b.tasks[0].nphases, 1);
	CHECK_EQ_INT(r.b.tasks[0].phases[0].run_ns, 6000);
	CHECK_EQ_INT(r.b.tasks[0].phases[0].end, SL_END_TRACE);
	/* B: starts when A wakes it (3000 - t0 = 2000), A's CPU time then was
	 * 3000 - 1000 = 2000; burst 2000, sleep 6000..7000 = 1000 ended by an
	 * IRQ; burst 500, exit */
	CHECK_EQ_INT(r.b.tasks[1].start_ns, 2000);
	CHECK_EQ_INT(r.b.tasks[1].parent, 0);
	CHECK_EQ_INT(r.b.tasks[1].parent_progress_ns, 2000);
	CHECK_EQ_INT(r.b.tasks[1].nphases, 2);
	CHECK_EQ_INT(r.b.tasks[1].phases[0].run_ns, 2000);
	CHECK_EQ_INT(r.b.tasks[1].phases[0].end, SL_END_SLEEP_S);
	CHECK_EQ_INT(r.b.tasks[1].phases[0].sleep_ns, 1000);
	CHECK_EQ_INT(r.b.tasks[1].phases[0].waker_kind, SL_WAKER_IRQ);
	CHECK_EQ_INT(r.b.tasks[1].phases[1].run_ns, 500);
	CHECK_EQ_INT(r.b.tasks[1].phases[1].end, SL_END_EXIT);
	CHECK(r.b.tasks[1].flags & SL_TASK_EXITED);
	mrun_end(&r);
}

SL_TEST(model_tid_reuse_and_lost_events)
{
	struct mrun r;
	struct sl_event e;
	mrun_start(&r);

	e = sw(100, 0, 'R', 5);
	sl_model_event(r.m, &e);
	e = sw(200, 5, 'X', 0); /* pid 5 exits: task 0, 100 ns */
	sl_model_event(r.m, &e);
	e = sw(300, 0, 'R', 5); /* pid 5 again: a new task (utid) */
	sl_model_event(r.m, &e);
	sl_event_clear(&e);
	e.type = SL_EV_LOST;
	e.ts = 350;
	e.cpu = 0;
	e.count = 7;
	sl_model_event(r.m, &e);
	e = sw(400, 5, 'S', 0); /* its slice since 300 is hidden by the loss */
	sl_model_event(r.m, &e);
	/* its last evidence before the loss is its switch-in (300), its first
	 * after it the switch at 400: no time known to be its, 100 ns uncertain */
	CHECK_EQ_INT(mrun_finish(&r), 0);
	CHECK_EQ_INT(r.b.ntasks, 2);
	CHECK_EQ_INT(r.b.tasks[0].tid, 5);
	CHECK_EQ_INT(r.b.tasks[1].tid, 5);
	CHECK_EQ_INT(r.c.nslice, 1); /* only [100,200) */
	CHECK_EQ_INT(r.st.lost_events, 7);
	CHECK_EQ_INT(r.st.lost_per_cpu[0], 7);
	CHECK(r.b.tasks[1].flags & SL_TASK_LOST);
	CHECK_EQ_INT(r.st.uncertain_ns[1], 100);
	CHECK_EQ_INT(r.st.missed_switches, 0);
	mrun_end(&r);
}

static struct sl_event fork_ev(uint64_t ts, int parent, const char *pcomm, int child,
			       const char *ccomm)
{
	struct sl_event e;
	sl_event_clear(&e);
	e.type = SL_EV_FORK;
	e.ts = ts;
	e.cpu = 0;
	e.cur_pid = parent;
	e.pid = parent;
	e.pid2 = child;
	snprintf(e.comm, sizeof(e.comm), "%s", pcomm);
	snprintf(e.comm2, sizeof(e.comm2), "%s", ccomm);
	return e;
}

/* Which tasks are kernel threads (SL_TASK_KTHREAD, collector/model.c
 * is_kthread): a child of kthreadd (tid 2) whatever its name, since
 * kthread_create() has kthreadd fork every kernel thread; a child of a
 * kworker (a usermode helper: it execs a program) is not; a task whose fork
 * is unseen is one by its name ("kcompactd0", "kdamond.0", "ksoftirqd/0"),
 * a user task named like none of them is not. */
SL_TEST(model_kthread_flags)
{
	struct mrun r;
	struct sl_event e;
	int i, seen = 0;
	mrun_start(&r);

	e = sw(100, 0, 'R', 2);
	snprintf(e.comm2, sizeof(e.comm2), "kthreadd");
	CHECK_EQ_INT(sl_model_event(r.m, &e), 0);
	e = fork_ev(150, 2, "kthreadd", 40, "loop0"); /* named by kthread() */
	CHECK_EQ_INT(sl_model_event(r.m, &e), 0);
	e = sw(200, 2, 'S', 41);
	snprintf(e.comm2, sizeof(e.comm2), "kworker/u8:3");
	CHECK_EQ_INT(sl_model_event(r.m, &e), 0);
	e = fork_ev(250, 41, "kworker/u8:3", 42, "kworker/u8:3");
	CHECK_EQ_INT(sl_model_event(r.m, &e), 0);
	e = sw(255, 41, 'S', 42); /* the helper runs and execs /sbin/modprobe */
	CHECK_EQ_INT(sl_model_event(r.m, &e), 0);
	sl_event_clear(&e);
	e.type = SL_EV_EXEC;
	e.ts = 260;
	e.cpu = 0;
	e.pid = e.cur_pid = 42;
	snprintf(e.comm, sizeof(e.comm), "modprobe");
	CHECK_EQ_INT(sl_model_event(r.m, &e), 0);
	e = sw(300, 42, 'S', 43);
	snprintf(e.comm2, sizeof(e.comm2), "kcompactd0");
	CHECK_EQ_INT(sl_model_event(r.m, &e), 0);
	e = sw(400, 43, 'S', 44);
	snprintf(e.comm2, sizeof(e.comm2), "kdamond.0");
	CHECK_EQ_INT(sl_model_event(r.m, &e), 0);
	e = sw(500, 44, 'S', 45);
	snprintf(e.comm2, sizeof(e.comm2), "kdenlive"); /* a user program */
	CHECK_EQ_INT(sl_model_event(r.m, &e), 0);
	CHECK_EQ_INT(mrun_finish(&r), 0);
	for (i = 0; i < (int)r.b.ntasks; i++) {
		int k = !!(r.b.tasks[i].flags & SL_TASK_KTHREAD);
		switch (r.b.tasks[i].tid) {
		case 2:  /* kthreadd itself */
		case 40: /* forked by kthreadd */
		case 41: /* kworker/ */
		case 43: /* kcompactd0 */
		case 44: /* kdamond.0 */
			CHECK_EQ_INT(k, 1);
			seen++;
			break;
		case 42: /* forked by a kworker: a usermode helper */
		case 45:
			CHECK_EQ_INT(k, 0);
			seen++;
			break;
		}
	}
	CHECK_EQ_INT(seen, 7);
	mrun_end(&r);
}

/* Run the events, then the end state of task tid's first slice row and the
 * end of its first phase. */
static void missed_case(const struct sl_event *evs, int n, int tid, char *st, int *end,
			uint64_t *run, uint64_t *sleep)
{
	struct mrun r;
	int i, k;
	mrun_start(&r);
	*st = 0;
	*end = -1;
	for (i = 0; i < n; i++)
		CHECK_EQ_INT(sl_model_event(r.m, &evs[i]), 0);
	CHECK_EQ_INT(mrun_finish(&r), 0);
	CHECK_EQ_INT(r.st.missed_switches, 1);
	for (k = 0; k < (int)r.b.ntasks; k++)
		if (r.b.tasks[k].tid == tid) {
			for (i = 0; i < r.c.nslice && i < 16; i++)
				if (r.c.s[i].task == k) {
					*st = r.c.s[i].st;
					break;
				}
			if (r.b.tasks[k].nphases) {
				*end = r.b.tasks[k].phases[0].end;
				*run = r.b.tasks[k].phases[0].run_ns;
				*sleep = r.b.tasks[k].phases[0].sleep_ns;
			}
		}
	mrun_end(&r);
}

/* A switch missing from the file (collector/model.c flush_pending,
 * idle_meanwhile; docs/model.md "Missed switches"). One CPU: A (pid 10)
 * switched in at 1000; at 5000 B (11) is switched out to idle, so a switch
 * A -> B was missed, placed halfway: 3000. A's slice [1000, 3000) ends:
 *  a) 'S' when a wakeup of A comes (6000) before A runs again (6500): it
 *     went to sleep at the missed switch (no 2.5 us wait counted);
 *  b) 'R' when A runs again (6500) with no wakeup and no long idle
 *     stretch (the CPU idled 1.5 ms): it may have been preempted;
 *  c) 'S' when A runs again at 20 ms with no wakeup, but the CPU idled
 *     from 5000 to 20 ms (>= 10 ms: an idle CPU would have run a waiting
 *     A): asleep, its first burst (2000) ends in a sleep of 20 ms - 3000. */
SL_TEST(model_missed_switch_end_state)
{
	struct sl_event a[5], b[4], cc[4];
	char st;
	int end;
	uint64_t run = 0, sleep = 0;
	a[0] = sw(1000, 0, 'R', 10);
	a[1] = sw(5000, 11, 'S', 0);
	a[2] = wk(6000, 0, 10, 1);
	a[3] = sw(6500, 0, 'R', 10);
	a[4] = sw(7000, 10, 'S', 0);
	missed_case(a, 5, 10, &st, &end, &run, &sleep);
	CHECK_EQ_INT(st, 'S');
	CHECK_EQ_INT(end, SL_END_SLEEP_S);

	b[0] = a[0];
	b[1] = a[1];
	b[2] = sw(6500, 0, 'R', 10);
	b[3] = sw(7000, 10, 'S', 0);
	missed_case(b, 4, 10, &st, &end, &run, &sleep);
	CHECK_EQ_INT(st, 'R');
	/* preempted: one burst 2000 + 500, ending in the sleep at 7000 */
	CHECK_EQ_INT(run, 2500);

	cc[0] = a[0];
	cc[1] = a[1];
	cc[2] = sw(20000000, 0, 'R', 10);
	cc[3] = sw(20000500, 10, 'S', 0);
	missed_case(cc, 4, 10, &st, &end, &run, &sleep);
	CHECK_EQ_INT(st, 'S');
	CHECK_EQ_INT(end, SL_END_SLEEP_S);
	CHECK_EQ_INT(run, 2000);
	CHECK_EQ_INT(sleep, 20000000 - 3000);
}

static struct sl_event exec_ev(uint64_t ts, int pid, const char *comm)
{
	struct sl_event e;
	sl_event_clear(&e);
	e.type = SL_EV_EXEC;
	e.ts = ts;
	e.cpu = 0;
	e.cur_pid = pid;
	e.pid = pid;
	snprintf(e.comm, sizeof(e.comm), "%s", comm);
	return e;
}

SL_TEST(model_exec_points_and_irq_cpu)
{
	struct mrun r;
	struct sl_event evs[7];
	const struct sl_phase *a, *bp;
	int i;
	mrun_start(&r);

	/* A = pid 10 (task 0), B = pid 11 (task 1) on CPU 0; CPU 1 idle */
	evs[0] = sw(1000, 0, 'R', 10);     /* idle -> A */
	evs[1] = exec_ev(3000, 10, "cc1"); /* A execs 2000 into its slice */
	evs[2] = sw(4000, 10, 'R', 11);    /* A preempted by B */
	evs[3] = sw(5000, 11, 'S', 10);    /* B sleeps, A runs again */
	evs[4] = exec_ev(5500, 10, "as");  /* A execs again, 500 into this slice */
	evs[5] = wk(6000, 0, 11, 1);       /* B woken by a hard interrupt ... */
	evs[5].cpu = 1;                    /* ... on CPU 1 (idle there) */
	evs[6] = sw(7000, 10, 'X', 11);    /* A exits, B runs */
	for (i = 0; i < 7; i++)
		CHECK_EQ_INT(sl_model_event(r.m, &evs[i]), 0);
	CHECK_EQ_INT(mrun_finish(&r), 0);
	CHECK_EQ_INT(r.st.execs, 2);
	CHECK_EQ_INT(r.b.ntasks, 2);
	/* A's slices [1000,4000) and [5000,7000) = 5000 of CPU time, cut at the
	 * exec points: at 3000 its burst is 3000 - 1000 = 2000 (phase 0, V);
	 * the rest of that slice, 4000 - 3000 = 1000, plus 5500 - 5000 = 500
	 * of the next is 1500 at the second exec (phase 1, V); 7000 - 5500 =
	 * 1500 to its exit (phase 2, X): 2000 + 1500 + 1500 = 5000 */
	CHECK_EQ_INT(r.b.tasks[0].nphases, 3);
	a = r.b.tasks[0].phases;
	CHECK_EQ_INT(a[0].run_ns, 2000);
	CHECK_EQ_INT(a[0].end, SL_END_EXEC);
	CHECK_EQ_INT(a[0].sleep_ns, 0);
	CHECK_EQ_INT(a[1].run_ns, 1500);
	CHECK_EQ_INT(a[1].end, SL_END_EXEC);
	CHECK_EQ_INT(a[2].run_ns, 1500);
	CHECK_EQ_INT(a[2].end, SL_END_EXIT);
	CHECK_EQ_INT(sl_phase_wake_cpu(&a[0]), -1);
	CHECK(!strcmp(r.b.tasks[0].comm, "as")); /* renamed by the exec */
	/* B: burst [4000,5000) = 1000, asleep 5000..6000 = 1000, woken by an
	 * interrupt that fired on CPU 1 (the waking event's CPU); then it runs
	 * from 7000 to the trace's end (7000): a last burst of 0, E */
	CHECK_EQ_INT(r.b.tasks[1].nphases, 2);
	bp = r.b.tasks[1].phases;
	CHECK_EQ_INT(bp[0].run_ns, 1000);
	CHECK_EQ_INT(bp[0].end, SL_END_SLEEP_S);
	CHECK_EQ_INT(bp[0].sleep_ns, 1000);
	CHECK_EQ_INT(bp[0].waker_kind, SL_WAKER_IRQ);
	CHECK_EQ_INT(sl_phase_wake_cpu(&bp[0]), 1);
	CHECK_EQ_INT(bp[1].end, SL_END_TRACE);
	mrun_end(&r);
}

SL_TEST(model_exec_in_a_slice_open_at_the_end)
{
	/* A (pid 10) runs from 1000 and execs at 3000 and 4000; the trace ends
	 * at 5000 with A still running. An open slice at the end has no row
	 * and adds no CPU time (the recorded run's rule), so the 2000 and 1000
	 * its exec points had counted are taken back out: phases V 0, V 0,
	 * then E 0; A's bursts add up to its recorded CPU time, 0 */
	struct mrun r;
	struct sl_event evs[4];
	int i;
	mrun_start(&r);
	evs[0] = sw(1000, 0, 'R', 10);
	evs[1] = exec_ev(3000, 10, "sh");
	evs[2] = exec_ev(4000, 10, "cc");
	evs[3] = wk(5000, 10, 11, 0); /* A wakes B: the trace's last event */
	for (i = 0; i < 4; i++)
		CHECK_EQ_INT(sl_model_event(r.m, &evs[i]), 0);
	CHECK_EQ_INT(mrun_finish(&r), 0);
	CHECK_EQ_INT(r.c.nslice, 0);
	CHECK_EQ_INT(r.b.tasks[0].nphases, 3);
	CHECK_EQ_INT(r.b.tasks[0].phases[0].end, SL_END_EXEC);
	CHECK_EQ_INT(r.b.tasks[0].phases[0].run_ns, 0);
	CHECK_EQ_INT(r.b.tasks[0].phases[1].end, SL_END_EXEC);
	CHECK_EQ_INT(r.b.tasks[0].phases[1].run_ns, 0);
	CHECK_EQ_INT(r.b.tasks[0].phases[2].end, SL_END_TRACE);
	CHECK_EQ_INT(r.b.tasks[0].phases[2].run_ns, 0);
	mrun_end(&r);
}

/* The slice row of task tid (the first), after evs with hints h[nh]. */
static void tail_case(const struct sl_event *evs, int n, const struct sl_slice_hint *h, size_t nh,
		      int tid, uint64_t *ts, uint64_t *dur, uint64_t *missed)
{
	struct mrun r;
	int i, k;
	mrun_start(&r);
	sl_model_set_slice_hints(r.m, h, nh);
	*ts = *dur = 0;
	for (i = 0; i < n; i++)
		CHECK_EQ_INT(sl_model_event(r.m, &evs[i]), 0);
	CHECK_EQ_INT(mrun_finish(&r), 0);
	*missed = r.st.missed_switches;
	for (k = 0; k < (int)r.b.ntasks; k++)
		if (r.b.tasks[k].tid == tid)
			for (i = 0; i < r.c.nslice && i < 16; i++)
				if (r.c.s[i].task == k) {
					*ts = r.c.s[i].ts;
					*dur = r.c.s[i].dur;
					break;
				}
	mrun_end(&r);
}

/* The tail of a switch is bounded (TAIL_MAX_NS = 100 us, collector/
 * model_int.h), and a thread's mean slice from its ledger places a missed
 * switch-out (sl_model_set_slice_hints; docs/model.md "Missed switches").
 * One CPU: P (pid 20) runs from 1000 and is switched out runnable to X (21)
 * at 10000; X's own switch-out never reaches the file; P wakes Q (22) at
 * time W and P -> Q is switched at W + 500.
 *  a) W = 10000 + 60000 (60 us after the switch): the tail of the switch,
 *     not evidence: X's slice runs to the next switch, [10000, 70500);
 *     no missed switch.
 *  b) W = 10000 + 3000000 (3 ms): P runs again: the switch X -> P was
 *     missed, placed halfway between X's last evidence (its switch-in at
 *     10000) and P's first (3010000): X's slice is [10000, 1510000), 1.5 ms.
 *  c) as b) with the kernel's mean slice of X 400 us (its ledger): X's
 *     slice ends 400 us after it began: [10000, 410000).
 *  d) as b) with a mean slice of 5 ms, past P's first evidence: clamped
 *     there, [10000, 3010000). */
SL_TEST(model_missed_switch_tail_and_hint)
{
	static const uint64_t W[4] = { 70000, 3010000, 3010000, 3010000 };
	const struct sl_slice_hint h400 = { 21, 400000 }, h5ms = { 21, 5000000 };
	const struct sl_slice_hint *h[4] = { NULL, NULL, &h400, &h5ms };
	static const uint64_t dur[4] = { 60500, 1500000, 400000, 3000000 };
	static const uint64_t missed[4] = { 0, 1, 1, 1 };
	struct sl_event e[4];
	uint64_t ts, d, m;
	int k;
	for (k = 0; k < 4; k++) {
		e[0] = sw(1000, 0, 'R', 20);
		e[1] = sw(10000, 20, 'R', 21);
		e[2] = wk(W[k], 20, 22, 0);
		e[3] = sw(W[k] + 500, 20, 'S', 22);
		tail_case(e, 4, h[k], h[k] ? 1 : 0, 21, &ts, &d, &m);
		CHECK_EQ_INT(ts, 10000);
		CHECK_EQ_INT(d, dur[k]);
		CHECK_EQ_INT(m, missed[k]);
	}
}

static struct sl_event rt(uint64_t ts, int cur, int pid, uint64_t runtime)
{
	struct sl_event e;
	sl_event_clear(&e);
	e.type = SL_EV_RUNTIME;
	e.ts = ts;
	e.cpu = 0;
	e.cur_pid = cur;
	e.pid = pid;
	e.count = runtime;
	return e;
}

/* Work and interference (docs/model.md): a slice's work is the runtime
 * sched_stat_runtime charged to its task while it ran, at most its wall
 * time; the rest is interference, the phase's irq_ns. */
SL_TEST(model_work_interference)
{
	struct mrun r;
	struct sl_event evs[9];
	int i;
	mrun_start(&r);
	/* A = pid 10 (task 0), B = pid 11 (task 1); one CPU.
	 * A runs [1000, 5000): 4000 ns wall, charged 1500 (tick) + 2000 (at
	 * its switch-out) = 3500: work 3500, interference 500.
	 * B runs [5000, 6000): 1000 wall, charged 900: interference 100, and
	 * sleeps. A runs again [6000, 8000) (2000 wall, charged 2500: more
	 * than its wall, so work 2000, interference 0) and sleeps. */
	evs[0] = sw(1000, 0, 'R', 10);
	evs[1] = rt(2500, 10, 10, 1500);
	evs[2] = rt(4999, 10, 10, 2000);
	evs[3] = sw(5000, 10, 'R', 11);
	evs[4] = rt(5999, 11, 11, 900);
	evs[5] = sw(6000, 11, 'S', 10);
	evs[6] = rt(7999, 10, 10, 2500);
	evs[7] = sw(8000, 10, 'S', 0);
	evs[8] = wk(9000, 0, 11, 1);
	for (i = 0; i < 9; i++)
		CHECK_EQ_INT(sl_model_event(r.m, &evs[i]), 0);
	CHECK_EQ_INT(mrun_finish(&r), 0);
	CHECK_EQ_INT(r.b.ntasks, 2);
	/* A: one burst [1000,5000) + [6000,8000) = 6000 wall, ending S at
	 * 8000; its interference 500 + 0 */
	CHECK_EQ_INT(r.b.tasks[0].phases[0].run_ns, 6000);
	CHECK_EQ_INT(r.b.tasks[0].phases[0].irq_ns, 500);
	/* B: 1000 wall, 100 interference */
	CHECK_EQ_INT(r.b.tasks[1].phases[0].run_ns, 1000);
	CHECK_EQ_INT(r.b.tasks[1].phases[0].irq_ns, 100);
	/* rows per task and CPU: A 6000 wall, 3500 + 2000 = 5500 work; B
	 * 1000 and 900 */
	CHECK_EQ_INT(r.st.nwork, 2);
	CHECK_EQ_INT(r.st.work[0].task, 0);
	CHECK_EQ_INT(r.st.work[0].wall_ns, 6000);
	CHECK_EQ_INT(r.st.work[0].work_ns, 5500);
	CHECK_EQ_INT(r.st.work[1].task, 1);
	CHECK_EQ_INT(r.st.work[1].wall_ns, 1000);
	CHECK_EQ_INT(r.st.work[1].work_ns, 900);
	mrun_end(&r);
}

/* No sched_stat_runtime for a task: its work is not known (interference 0,
 * no rows). */
SL_TEST(model_work_unknown)
{
	struct mrun r;
	struct sl_event evs[3];
	int i;
	mrun_start(&r);
	evs[0] = sw(1000, 0, 'R', 10);
	evs[1] = sw(5000, 10, 'S', 0);
	evs[2] = wk(6000, 0, 10, 1);
	for (i = 0; i < 3; i++)
		CHECK_EQ_INT(sl_model_event(r.m, &evs[i]), 0);
	CHECK_EQ_INT(mrun_finish(&r), 0);
	CHECK_EQ_INT(r.b.tasks[0].phases[0].run_ns, 4000);
	CHECK_EQ_INT(r.b.tasks[0].phases[0].irq_ns, 0);
	CHECK_EQ_INT(r.st.nwork, 0);
	mrun_end(&r);
}
