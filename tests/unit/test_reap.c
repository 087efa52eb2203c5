/* tests/unit/test_reap.c - a parent's wait for any child (docs/model.md
 * "Waits for children", docs/replay.md "A parent's wait for any child"):
 * the collector marks a task whose children's exits woke it (never after
 * another child had exited during the same sleep: SL_TASK_REAPS_ANY), and
 * a causal replay wakes such a task at the exit of whichever child comes
 * first. Every expected value is worked out by hand in the comments. */
#include "harness.h"
#include "test_model_util.h"
#include "test_engine_util.h"
#include "../../collector/model.h"

#include <stdlib.h>
#include <string.h>

#define US 1000ULL

static void feed(struct sl_model *m, struct sl_event e)
{
	CHECK_EQ_INT(sl_model_event(m, &e), 0);
}

/* Child pid's exit on cpu: sched_process_exit at t, its wakeup of the
 * parent (pid 10) at t + 5 us when wakes, its last switch (to next) at
 * t + 10 us. */
static void child_exit(struct sl_model *m, uint64_t t, int cpu, int pid, int wakes, int next)
{
	feed(m, test_model_event(SL_EV_EXIT, t, cpu, pid, pid, 0, 0));
	if (wakes)
		feed(m, test_model_event(SL_EV_WAKEUP, t + 5 * US, cpu, pid, 10, 0, 0));
	feed(m, test_model_event(SL_EV_SWITCH, t + 10 * US, cpu, pid, pid, next, 'X'));
}

/* Three CPUs. P (pid 10) runs on CPU 0, forks A (11), B (12) and C (13),
 * which run on CPUs 1, 2 and 0, and sleeps at 40 us. Then, in order:
 *  any:   A exits at 100 us and wakes P (runs 115-120 us on CPU 1, sleeps);
 *         B exits at 200 us and wakes P (215-220 us on CPU 2, sleeps):
 *         two sleeps a child's exit ended, no other child's exit inside
 *         either -> REAPS_ANY.
 *  named: B exits at 60 us without waking P (P asleep since 40 us: waitpid
 *         of another child filters it out), A exits at 100 us and wakes P,
 *         which sleeps again at 120 us; C exits at 200 us and wakes it: two
 *         exit wakeups, but the first came after B's exit in the same sleep
 *         -> not REAPS_ANY.
 *  once:  only A's exit wakes P (one such sleep) -> not REAPS_ANY.
 * Returns P's flags. */
static uint32_t reap_run(int scenario)
{
	struct sl_run_sink sink = { .ctx = NULL, .slice = test_model_no_slice, .wakeup = test_model_no_wake };
	struct sl_diag d;
	struct sl_model *m;
	struct sl_behaviour b;
	struct sl_model_stats st;
	uint64_t *first, *last;
	uint32_t flags = 0;
	size_t i;
	memset(&d, 0, sizeof(d));
	m = sl_model_new(&sink, &d);
	feed(m, test_model_event(SL_EV_SWITCH, 0, 0, 0, 0, 10, 'R'));
	feed(m, test_model_event(SL_EV_FORK, 10 * US, 0, 10, 10, 11, 0));
	feed(m, test_model_event(SL_EV_FORK, 20 * US, 0, 10, 10, 12, 0));
	feed(m, test_model_event(SL_EV_FORK, 30 * US, 0, 10, 10, 13, 0));
	feed(m, test_model_event(SL_EV_SWITCH, 31 * US, 1, 0, 0, 11, 'R'));
	feed(m, test_model_event(SL_EV_SWITCH, 32 * US, 2, 0, 0, 12, 'R'));
	feed(m, test_model_event(SL_EV_SWITCH, 40 * US, 0, 10, 10, 13, 'S'));
	if (scenario == 1)
		child_exit(m, 60 * US, 2, 12, 0, 0); /* B, unseen by P */
	child_exit(m, 100 * US, 1, 11, 1, 10);        /* A wakes P */
	feed(m, test_model_event(SL_EV_SWITCH, 120 * US, 1, 10, 10, 0, 'S'));
	if (scenario == 0)
		child_exit(m, 200 * US, 2, 12, 1, 10); /* B wakes P */
	else if (scenario == 1)
		child_exit(m, 200 * US, 0, 13, 1, 10); /* C wakes P */
	sl_model_finish(m, &b, &first, &last, &st);
	for (i = 0; i < b.ntasks; i++)
		if (b.tasks[i].tid == 10)
			flags = b.tasks[i].flags;
	test_model_done(m, &b, first, last, &st);
	return flags;
}

SL_TEST(model_marks_parents_that_reap_any_child)
{
	CHECK(reap_run(0) & SL_TASK_REAPS_ANY);
	CHECK(!(reap_run(1) & SL_TASK_REAPS_ANY));
	CHECK(!(reap_run(2) & SL_TASK_REAPS_ANY));
}

/* P (task 0) on 3 CPUs with children A (1) and B (2), each on a CPU of
 * its own from 0 (start_ns 0, parent P at progress 0: a plain start).
 * P runs 1 ms and sleeps until A's exit (recorded: A woke it at 10 ms of
 * A's CPU time, the end of A's only burst), runs 1 ms and sleeps until B's
 * exit (at B's 2 ms), runs 1 ms and ends. A runs 10 ms, B 2 ms, both exit.
 *  reap any (P marked REAPS_ANY): at 1 ms no child is past its point; B
 *    reaches its 2 ms at 2 ms: the first exit ends P's first wait (2 ms).
 *    P runs 2-3 ms and begins its second wait: one exit counted, two
 *    needed, so it waits for A: 10 ms. It runs 10-11 ms: the end, 11 ms.
 *    Both waits were ended by the other child than recorded: reap_any 2.
 *  reap named (or P not marked): the first wait ends at A's 10 ms, P runs
 *    10-11, its second wait finds B past its point (done at 2 ms): it
 *    wakes at once and runs 11-12: the end, 12 ms; reap_any 0.
 * CPU time is the same in every case: P 3 ms, A 10 ms, B 2 ms. */
static void reap_behaviour(struct sl_behaviour *b, int marked)
{
	struct sl_task_spec *p, *k;
	int i;
	memset(b, 0, sizeof(*b));
	b->cpus = 3;
	p = add_task(b, "P", 0, 0);
	p->flags = marked ? SL_TASK_REAPS_ANY : 0;
	add_phase(p, 1 * TMS, SL_END_SLEEP_S, 9 * TMS, SL_WAKER_TASK, 1, 10 * TMS);
	add_phase(p, 1 * TMS, SL_END_SLEEP_S, 0, SL_WAKER_TASK, 2, 2 * TMS);
	add_phase(p, 1 * TMS, SL_END_TRACE, 0, 0, -1, 0);
	for (i = 1; i <= 2; i++) {
		k = add_task(b, i == 1 ? "A" : "B", 0, 0);
		k->parent = 0;
		k->flags = SL_TASK_FORKED | SL_TASK_EXITED;
		add_phase(k, (i == 1 ? 10 : 2) * TMS, SL_END_EXIT, 0, 0, -1, 0);
	}
}

static uint64_t reap_end(int marked, int named, uint64_t *any, uint64_t cpu[3])
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_replay_stats st;
	struct trec r;
	int t;
	reap_behaviour(&b, marked);
	sl_replay_opts_init(&o);
	o.cpus = 3;
	o.mode = SL_MODE_CAUSAL;
	o.reap_named = named;
	CHECK_EQ_INT(trun_opts(&b, "eevdf", &o, &r, &st), 0);
	for (t = 0; t < 3; t++)
		cpu[t] = trun_runtime(&r, t);
	*any = st.reap_any;
	trec_free(&r);
	sl_behaviour_release(&b);
	return st.end_ns;
}

SL_TEST(engine_reap_wakes_at_the_first_child_exit)
{
	uint64_t any, cpu[3];
	CHECK_EQ_INT(reap_end(1, SL_REAP_ANY, &any, cpu), 11 * TMS);
	CHECK_EQ_INT(any, 2);
	CHECK_EQ_INT(cpu[0], 3 * TMS);
	CHECK_EQ_INT(cpu[1], 10 * TMS);
	CHECK_EQ_INT(cpu[2], 2 * TMS);
	CHECK_EQ_INT(reap_end(1, SL_REAP_NAMED, &any, cpu), 12 * TMS);
	CHECK_EQ_INT(any, 0);
	CHECK_EQ_INT(cpu[0], 3 * TMS);
	CHECK_EQ_INT(reap_end(0, SL_REAP_ANY, &any, cpu), 12 * TMS);
	CHECK_EQ_INT(any, 0);
	CHECK_EQ_INT(cpu[1] + cpu[2], 12 * TMS);
}

/* A shell's loop: P forks N children one after another and waits for each
 * (its sleep ends at that child's exit, a child at a time). Marked
 * REAPS_ANY (nothing told it apart: no child exited while it waited for
 * another), it still waits for the only child alive, so the replay is the
 * named one's: the same end and rows, no wait ended by another child. And
 * the waits stay linear: a child that waits to be forked by the sleeping
 * parent gets no entry (2 000 children, 2 000 waits). */
static void loop_behaviour(struct sl_behaviour *b, int n)
{
	struct sl_task_spec *p, *k;
	int i;
	memset(b, 0, sizeof(*b));
	b->cpus = 1;
	p = add_task(b, "sh", 0, 0);
	p->flags = SL_TASK_REAPS_ANY;
	for (i = 0; i < n; i++)
		add_phase(p, 100 * 1000, SL_END_SLEEP_S, 60 * 1000, SL_WAKER_TASK, i + 1, 50 * 1000);
	add_phase(p, 100 * 1000, SL_END_EXIT, 0, 0, -1, 0);
	for (i = 0; i < n; i++) {
		k = add_task(b, "true", 0, 0);
		k->parent = 0;
		k->parent_progress_ns = (uint64_t)(i + 1) * 100 * 1000;
		k->flags = SL_TASK_FORKED | SL_TASK_EXITED;
		add_phase(k, 50 * 1000, SL_END_EXIT, 0, 0, -1, 0);
	}
}

SL_TEST(engine_reap_sequential_children_as_named)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_replay_stats st[2];
	struct trec r[2];
	int m;
	loop_behaviour(&b, 2000);
	for (m = 0; m < 2; m++) {
		sl_replay_opts_init(&o);
		o.cpus = 1;
		o.mode = SL_MODE_CAUSAL;
		o.reap_named = m;
		CHECK_EQ_INT(trun_opts(&b, "eevdf", &o, &r[m], &st[m]), 0);
	}
	/* each cycle: P 100 us, the child 50 us (it runs as P sleeps): 2 000
	 * x 150 us + P's last 100 us = 300.1 ms, in both */
	CHECK_EQ_INT(st[0].end_ns, 300100 * 1000ULL);
	CHECK_EQ_INT(st[1].end_ns, st[0].end_ns);
	CHECK_EQ_INT(st[0].reap_any, 0);
	CHECK_EQ_INT(r[0].ns, r[1].ns);
	CHECK_EQ_INT(trun_runtime(&r[0], 0), 2001 * 100 * 1000ULL);
	trec_free(&r[0]);
	trec_free(&r[1]);
	sl_behaviour_release(&b);
}
