/* tests/unit/test_abstimer.c - tasks on an absolute periodic timer
 * (analyze/abstimer.h, docs/model.md "Absolute timers"): what the import
 * finds, and how the replay ends their sleeps (replay/hrtimer.c
 * sl_abs_timer_end). A loop of clock_nanosleep(TIMER_ABSTIME) with next +=
 * period wakes on the period whatever its bursts and waits took; a loop of
 * nanosleep(d) sleeps d and its period stretches. Values by hand. */
#include "harness.h"
#include "test_engine_util.h"
#include "../../analyze/abstimer.h"

#include <stdlib.h>
#include <string.h>

#define TUS 1000ULL

/* a timer sleep of the recording: ended by an interrupt on the CPU it slept
 * on at wake (trace clock) */
static void timer_phase(struct sl_task_spec *t, uint64_t run, uint64_t sleep, uint64_t wake)
{
	struct sl_phase *p;
	add_phase(t, run, SL_END_SLEEP_S, sleep, SL_WAKER_IRQ, -1, 0);
	p = &t->phases[t->nphases - 1];
	p->sleep_cpu1 = p->wake_cpu1 = 1;
	p->wake_ts = wake;
}

/* 20 cycles of a 5 ms loop from 10 ms: 0.5 ms of burst, 1.5 ms in cycles 5,
 * 9, 13 and 17 (a wait of 1 ms). abs: each wakeup at 10 + 5 k ms, the sleep
 * what is left (4.5 or 3.5 ms); else relative: each sleep 4.5 ms, the
 * wakeups after a long cycle 1 ms later from then on. */
static struct sl_task_spec *loop(struct sl_behaviour *b, const char *name, int abs, int waits)
{
	struct sl_task_spec *t = add_task(b, name, 0, 0);
	uint64_t wake = 10 * TMS;
	int k;
	for (k = 1; k <= 20; k++) {
		uint64_t x = waits && k % 4 == 1 && k > 1 ? 1500 * TUS : 500 * TUS;
		uint64_t sleep = abs ? 5 * TMS - x : 4500 * TUS;
		wake = abs ? 10 * TMS + (uint64_t)k * 5 * TMS : wake + x + sleep;
		timer_phase(t, 500 * TUS, sleep, wake);
	}
	add_phase(t, 500 * TUS, SL_END_EXIT, 0, 0, -1, 0);
	return t;
}

/* A: absolute with waits: intervals all 5 ms (on the period), 4 cycles whose
 * bursts and waits ran 1 ms past their median (0.5 ms): each interval stays
 * 5 ms, nearer the period than 6 ms: 4 of 4 vote absolute: found.
 * R: relative with the same waits: 15 of 19 intervals 5 ms, 4 of 6 ms (on
 * the period: 15 >= 3/4 of 19); the 4 long cycles' intervals are 6 ms,
 * the period plus their excess: 0 of 4: not found.
 * C: absolute, no waits: no cycle ran long (none to tell; it replays the
 * same either way): not found. S: absolute with waits, 11 cycles only (10
 * intervals, under 12): not found. W: R's phases ended by an interrupt on
 * another CPU (not its own timer): not found. */
SL_TEST(abs_timers_mark)
{
	struct sl_behaviour b;
	size_t k;
	memset(&b, 0, sizeof(b));
	loop(&b, "A", 1, 1);
	loop(&b, "R", 0, 1);
	loop(&b, "C", 1, 0);
	loop(&b, "S", 1, 1)->nphases = 11;
	loop(&b, "W", 1, 1);
	for (k = 0; k < b.tasks[4].nphases; k++)
		b.tasks[4].phases[k].wake_cpu1 = 2;
	CHECK_EQ_INT(sl_mark_abs_timers(&b), 1);
	CHECK(b.tasks[0].flags & SL_TASK_ABS_TIMER);
	for (k = 1; k < 5; k++)
		CHECK(!(b.tasks[k].flags & SL_TASK_ABS_TIMER));
	/* A's timer sleeps keep their wakeup times */
	CHECK_EQ_INT(b.tasks[0].phases[0].wake_ts, 15 * TMS);
	CHECK_EQ_INT(b.tasks[0].phases[19].wake_ts, 110 * TMS);
	b.tasks[3].nphases = 21; /* (its phases, for the release) */
	sl_behaviour_release(&b);
}

/* An absolute loop that misses deadlines (cyclictest behind a hog): the
 * 5 ms loop of loop() from 10 ms, 20 wakeups, but in cycles 5, 9, 13 and 17
 * the burst waits 6 ms: 0.5 + 6 ms past its wakeup at w, the deadline w + 5
 * ms has gone by, so clock_nanosleep returns at once, the loop runs its
 * next burst (0.5 ms, to w + 7 ms) and sleeps to w + 10 ms: one phase of
 * 7 ms before a 3 ms sleep, an interval of 10 ms. The other intervals are
 * 5 ms: 15 of 19 on the period (>= 3/4). The four long cycles ran 6.5 ms
 * past the median (0.5 ms): a relative loop's interval would be 5 + 6.5 =
 * 11.5 ms, 1.5 ms from the 10 ms seen; the nearest multiple of the period
 * is 10 ms, 0 away: 4 of 4 vote absolute, found. Before the multiples
 * (the period itself, 5 ms away) they voted relative. Q, a relative loop
 * with the same late cycles (6.5 ms from its wakeup to its 4.5 ms sleep: an
 * interval of 11 ms, 6 ms past the median) is not: 11 ms is 1 ms from the
 * multiple 10 ms and 0 from the relative loop's 5 + 6 ms: 0 of 4. */
static struct sl_task_spec *catchup_loop(struct sl_behaviour *b, const char *name, int abs)
{
	struct sl_task_spec *t = add_task(b, name, 0, 0);
	uint64_t wake = 10 * TMS;
	int k;
	for (k = 1; k <= 20; k++) {
		int late = k % 4 == 1 && k > 1;
		uint64_t run = late ? 1000 * TUS : 500 * TUS;
		uint64_t sleep = abs ? (late ? 3 * TMS : 4500 * TUS) : 4500 * TUS;
		wake = abs ? wake + (late ? 10 : 5) * TMS : wake + (late ? 6500 * TUS : 500 * TUS) + sleep;
		timer_phase(t, run, sleep, wake);
	}
	add_phase(t, 500 * TUS, SL_END_EXIT, 0, 0, -1, 0);
	return t;
}

SL_TEST(abs_timers_mark_missed_deadlines)
{
	struct sl_behaviour b;
	memset(&b, 0, sizeof(b));
	catchup_loop(&b, "K", 1);
	catchup_loop(&b, "Q", 0);
	CHECK_EQ_INT(sl_mark_abs_timers(&b), 1);
	CHECK(b.tasks[0].flags & SL_TASK_ABS_TIMER);
	CHECK(!(b.tasks[1].flags & SL_TASK_ABS_TIMER));
	sl_behaviour_release(&b);
}

/* The replay, one CPU, eevdf without timer slack. A (absolute) runs 1 ms
 * and sleeps, its recorded wakeups at 5, 10 and 15 ms (sleeps of 4 ms), then
 * runs 1 ms and exits. B, SCHED_FIFO, arrives at 4.5 ms and runs 1.5 ms: A,
 * woken at 5 ms, waits for it to 6 ms and runs to 7 ms.
 * - on: the second deadline is the first (5 ms) plus the recorded interval
 *   (5 ms): 10 ms, a sleep of 3 ms; the third 15 ms.
 * - off: 4 ms from 7 ms, 11 ms; then 16 ms.
 * - on, B running 5.5 ms (to 10 ms): A runs 10-11 ms and its deadline, 10
 *   ms, has passed: it wakes at once, 11 ms; the next is 15 ms. */
static void replay_abs(uint64_t b_run, int off, uint64_t *w)
{
	struct sl_behaviour b;
	struct sl_task_spec *a, *h;
	struct sl_replay_opts o;
	struct sl_replay_stats st;
	struct trec r;
	size_t i, n = 0;
	memset(&b, 0, sizeof(b));
	b.cpus = 1;
	a = add_task(&b, "A", 0, 0);
	timer_phase(a, TMS, 4 * TMS, 5 * TMS);
	timer_phase(a, TMS, 4 * TMS, 10 * TMS);
	timer_phase(a, TMS, 4 * TMS, 15 * TMS);
	add_phase(a, TMS, SL_END_EXIT, 0, 0, -1, 0);
	a->flags |= SL_TASK_ABS_TIMER;
	h = add_task(&b, "B", 0, 4500 * TUS);
	h->policy = SL_SCHED_FIFO;
	h->rt_prio = 10;
	add_phase(h, b_run, SL_END_EXIT, 0, 0, -1, 0);
	sl_replay_opts_init(&o);
	o.hz = 250;
	o.hrtimer_slack = SL_HRT_SLACK_OFF;
	o.no_abs_timers = off;
	memset(&r, 0, sizeof(r));
	CHECK_EQ_INT(trun_opts(&b, "eevdf", &o, &r, &st), 0);
	w[0] = w[1] = w[2] = 0;
	for (i = 0; i < r.nw && n < 3; i++)
		if (r.w[i].task == 0 && r.w[i].ts > 0)
			w[n++] = r.w[i].ts;
	trec_free(&r);
	sl_behaviour_release(&b);
}

SL_TEST(abs_timers_replay)
{
	uint64_t w[3];
	replay_abs(1500 * TUS, 0, w);
	CHECK_EQ_INT(w[0], 5 * TMS);
	CHECK_EQ_INT(w[1], 10 * TMS);
	CHECK_EQ_INT(w[2], 15 * TMS);
	replay_abs(1500 * TUS, 1, w);
	CHECK_EQ_INT(w[0], 5 * TMS);
	CHECK_EQ_INT(w[1], 11 * TMS);
	CHECK_EQ_INT(w[2], 16 * TMS);
	replay_abs(5500 * TUS, 0, w);
	CHECK_EQ_INT(w[1], 11 * TMS);
	CHECK_EQ_INT(w[2], 15 * TMS);
}
