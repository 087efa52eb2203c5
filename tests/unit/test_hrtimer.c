/* tests/unit/test_hrtimer.c - a sleep's timer and its slack (replay/hrtimer.c,
 * docs/model.md "Timer slack"). The kernel's rule (v6.18,
 * kernel/time/hrtimer.c): nanosleep arms an hrtimer on the sleeper's CPU
 * over [soft, soft + timer_slack_ns] (50 us; 0 for a real-time task); an
 * interrupt of that CPU's hrtimers at time t (another timer's hard expiry,
 * or the tick of a busy CPU, tick_sched_timer) runs every timer whose soft
 * expiry is at or before t. The replay takes a sleep's recorded end as its
 * hard expiry. Values by hand; one CPU, HZ 250, no overheads. */
#include "harness.h"
#include "test_engine_util.h"

#include <stdlib.h>
#include <string.h>

#define TUS 1000ULL

/* a sleep ended by its own timer: the interrupt fired on the CPU it slept on */
static void timer_sleep(struct sl_task_spec *t, uint64_t run, uint64_t sleep)
{
	add_phase(t, run, SL_END_SLEEP_S, sleep, SL_WAKER_IRQ, -1, 0);
	t->phases[t->nphases - 1].sleep_cpu1 = 1;
	t->phases[t->nphases - 1].wake_cpu1 = 1;
}

/* the wakeup row of task's first sleep: its time (woken) */
static uint64_t woken(const struct trec *r, int task)
{
	size_t i;
	for (i = 0; i < r->nw; i++)
		if (r->w[i].task == task && r->w[i].ts > 0)
			return r->w[i].ts;
	return UINT64_MAX;
}

static int run(struct sl_behaviour *b, const char *model, int slack, struct trec *r,
	       struct sl_replay_stats *st)
{
	struct sl_replay_opts o;
	sl_replay_opts_init(&o);
	o.hz = 250;
	o.hrtimer_slack = slack;
	memset(r, 0, sizeof(*r));
	return trun_opts(b, model, &o, r, st);
}

/* Two timers together. A (task 0) runs 0-1 ms and sleeps 2 ms: hard expiry
 * 3 ms. B (task 1, started at 1 ms) runs 1-2 ms and sleeps 1.03 ms: hard
 * 3.03 ms, soft 2.98 ms. A's interrupt at 3 ms runs B's timer too (2.98 <=
 * 3): B is woken at 3 ms, not 3.03. With slack off, at 3.03 ms. The tick
 * (4 ms) is after both. cfs (2.6.23, before timer slack) by default: 3.03. */
SL_TEST(hrtimer_slack_two_timers)
{
	struct sl_behaviour b;
	struct sl_task_spec *t;
	struct sl_replay_stats st;
	struct trec r;
	memset(&b, 0, sizeof(b));
	b.cpus = 1;
	t = add_task(&b, "A", 0, 0);
	timer_sleep(t, TMS, 2 * TMS);
	add_phase(t, TMS / 2, SL_END_EXIT, 0, 0, -1, 0);
	t = add_task(&b, "B", 0, TMS);
	timer_sleep(t, TMS, 1030 * TUS);
	add_phase(t, TMS / 2, SL_END_EXIT, 0, 0, -1, 0);

	CHECK_EQ_INT(run(&b, "eevdf", SL_HRT_SLACK_AUTO, &r, &st), 0);
	CHECK_EQ_INT(woken(&r, 0), 3 * TMS);
	CHECK_EQ_INT(woken(&r, 1), 3 * TMS);
	CHECK_EQ_INT(st.hrt_early, 1);
	trec_free(&r);

	CHECK_EQ_INT(run(&b, "eevdf", SL_HRT_SLACK_OFF, &r, &st), 0);
	CHECK_EQ_INT(woken(&r, 1), 3030 * TUS);
	CHECK_EQ_INT(st.hrt_early, 0);
	trec_free(&r);

	CHECK_EQ_INT(run(&b, "cfs", SL_HRT_SLACK_AUTO, &r, &st), 0);
	CHECK_EQ_INT(woken(&r, 1), 3030 * TUS);
	CHECK_EQ_INT(st.hrt_early, 0);
	trec_free(&r);
	CHECK_EQ_INT(run(&b, "cfs", SL_HRT_SLACK_ON, &r, &st), 0);
	CHECK_EQ_INT(woken(&r, 1), 3 * TMS);
	trec_free(&r);

	/* B sleeps 1.06 ms: hard 3.06 ms, soft 3.01 ms, after A's interrupt at
	 * 3 ms: each fires alone */
	b.tasks[1].phases[0].sleep_ns = 1060 * TUS;
	CHECK_EQ_INT(run(&b, "eevdf", SL_HRT_SLACK_AUTO, &r, &st), 0);
	CHECK_EQ_INT(woken(&r, 1), 3060 * TUS);
	CHECK_EQ_INT(st.hrt_early, 0);
	trec_free(&r);

	/* a real-time sleeper has no slack (hrtimer_nanosleep): alone */
	b.tasks[1].phases[0].sleep_ns = 1030 * TUS;
	b.tasks[1].policy = SL_SCHED_FIFO;
	b.tasks[1].rt_prio = 10;
	CHECK_EQ_INT(run(&b, "eevdf", SL_HRT_SLACK_AUTO, &r, &st), 0);
	CHECK_EQ_INT(woken(&r, 1), 3030 * TUS);
	trec_free(&r);
	sl_behaviour_release(&b);
}

/* The tick of a busy CPU. B (task 0) runs 0-0.1 ms and sleeps 3.92 ms: hard
 * 4.02 ms, soft 3.97 ms. H (task 1, started at 0.2 ms) runs 5 ms. The tick
 * at 4 ms (one tick after the start) finds H running and runs B's timer
 * (3.97 <= 4): B is woken at 4 ms. An interrupt on another CPU, or a sleep
 * a task ended (not a timer), is not one: B's sleep marked as woken from
 * another CPU ends at 4.02 ms. */
SL_TEST(hrtimer_slack_tick)
{
	struct sl_behaviour b;
	struct sl_task_spec *t;
	struct sl_replay_stats st;
	struct trec r;
	memset(&b, 0, sizeof(b));
	b.cpus = 1;
	t = add_task(&b, "B", 0, 0);
	timer_sleep(t, 100 * TUS, 3920 * TUS);
	add_phase(t, 100 * TUS, SL_END_EXIT, 0, 0, -1, 0);
	t = add_task(&b, "H", 0, 200 * TUS);
	add_phase(t, 5 * TMS, SL_END_EXIT, 0, 0, -1, 0);

	CHECK_EQ_INT(run(&b, "eevdf", SL_HRT_SLACK_AUTO, &r, &st), 0);
	CHECK_EQ_INT(woken(&r, 0), 4 * TMS);
	CHECK_EQ_INT(st.hrt_early, 1);
	trec_free(&r);

	b.tasks[0].phases[0].wake_cpu1 = 2; /* fired on another CPU of the recording */
	CHECK_EQ_INT(run(&b, "eevdf", SL_HRT_SLACK_AUTO, &r, &st), 0);
	CHECK_EQ_INT(woken(&r, 0), 4020 * TUS);
	CHECK_EQ_INT(st.hrt_early, 0);
	trec_free(&r);
	sl_behaviour_release(&b);
}

