/* tests/unit/test_ticktimers.c - timers that fire at the tick (docs/model.md
 * "Timers that fire at the tick"): the import's mark (sl_mark_tick_timers:
 * which interrupt wakeups came at a tick, and how many ticks their sleeps
 * spanned) and the replay's rule (such a sleep ends at the tick_n-th tick
 * after it begins, on the recording's tick phase). The kernel's rule:
 * schedule_timeout(n) at time s arms a timer-wheel timer for jiffies + n
 * (jiffies = the ticks up to s); run_timer_softirq, raised by the tick,
 * fires it at the n-th tick after s (kernel/time/timer.c). Values by hand. */
#include "harness.h"
#include "test_engine_util.h"
#include "../../analyze/hz.h"

#include <stdlib.h>
#include <string.h>

/* HZ 250 (tick 4 ms); CPU 0's tick estimated at 21 us past each 4 ms, CPU
 * 1's not known (the machine's phase, 21 us, stands in). The window is
 * min(100 us, 4 ms / 20) = 100 us either side of the estimated tick. */
SL_TEST(tick_timers_mark)
{
	const uint64_t tick = 4 * TMS, ph = 21000;
	struct sl_behaviour b;
	struct sl_task_spec *t;
	struct sl_ticks tk;
	double phase[2] = { 21000, -1 };
	int k;
	memset(&b, 0, sizeof(b));
	memset(&tk, 0, sizeof(tk));
	tk.hz = 250;
	tk.ncpu = 2;
	tk.phase_ns = phase;
	t = add_task(&b, "timer", 0, 0);
	/* 0: asleep from 41.521 ms (tick 10 at 40.021 ms behind it) to 40 us
	 * before tick 12 (48.021 ms): within the window; the tick it belongs to
	 * is taken no later than the wakeup, 47.981 ms, and the ticks after
	 * the start up to it are 44.021 and 47.981: n = ceil(6.46 / 4) = 2, as
	 * jiffies + 2 from tick 10 fires at tick 12 */
	add_phase(t, TMS, SL_END_SLEEP_S, 12 * tick + ph - 40000 - (10 * tick + ph + 1500000), SL_WAKER_IRQ, -1, 0);
	t->phases[0].wake_ts = 12 * tick + ph - 40000;
	t->phases[0].wake_cpu1 = 1;
	/* 1: the same, woken 150 us after the tick: an hrtimer's, not marked */
	add_phase(t, TMS, SL_END_SLEEP_S, 12 * tick + ph + 150000 - (10 * tick + ph + 1500000), SL_WAKER_IRQ, -1, 0);
	t->phases[1].wake_ts = 12 * tick + ph + 150000;
	t->phases[1].wake_cpu1 = 1;
	/* 2: a task's wakeup at a tick: not a timer's */
	add_phase(t, TMS, SL_END_SLEEP_S, 2 * tick, SL_WAKER_TASK, -1, 0);
	t->phases[2].wake_ts = 14 * tick + ph;
	/* 3: begun 60 us before the tick and woken 30 us after it: begun in
	 * that tick's own window (start 48.021 - 0.060 >= 48.021 - 0.100),
	 * not a later tick's */
	add_phase(t, TMS, SL_END_SLEEP_S, 90000, SL_WAKER_IRQ, -1, 0);
	t->phases[3].wake_ts = 12 * tick + ph + 30000;
	t->phases[3].wake_cpu1 = 1;
	/* 4: the idle task's wakeup at tick 3 (12.021 ms) on CPU 1 (its phase
	 * not known: the machine's, 21 us), asleep from 0.5 ms: the ticks at
	 * 4.021, 8.021 and 12.021 ms, n = ceil(11.521 / 4) = 3 */
	add_phase(t, TMS, SL_END_SLEEP_D, 3 * tick + ph - 500000, SL_WAKER_IDLE, -1, 0);
	t->phases[4].wake_ts = 3 * tick + ph;
	t->phases[4].wake_cpu1 = 2;
	/* 5: an exit at a tick: no sleep to end */
	add_phase(t, TMS, SL_END_EXIT, 0, SL_WAKER_IRQ, -1, 0);
	t->phases[5].wake_ts = 20 * tick + ph;
	/* an hrtimer's task: 3 interrupt sleeps of 3 ms, one of them ending
	 * by chance 10 us after a tick (16.021 ms, asleep from 13.031): 1 of 3
	 * at the tick, under half: none marked */
	t = add_task(&b, "hrtimer", 0, 0);
	for (k = 0; k < 3; k++) {
		add_phase(t, TMS, SL_END_SLEEP_S, 3 * TMS, SL_WAKER_IRQ, -1, 0);
		t->phases[k].wake_cpu1 = 1;
	}
	t->phases[0].wake_ts = 4 * tick + ph + 10000;
	t->phases[1].wake_ts = 5 * tick + ph + 1500000;
	t->phases[2].wake_ts = 6 * tick + ph + 2500000;
	t = &b.tasks[0];
	/* the timer task: 2 of its 4 interrupt sleeps (0 and 4) at the tick:
	 * half, marked */
	CHECK_EQ_INT(sl_mark_tick_timers(&b, &tk), 2);
	for (k = 0; k < 3; k++)
		CHECK_EQ_INT(b.tasks[1].phases[k].tick_n, 0);
	CHECK_EQ_INT(t->phases[0].tick_n, 2);
	for (k = 1; k <= 3; k++)
		CHECK_EQ_INT(t->phases[k].tick_n, 0);
	CHECK_EQ_INT(t->phases[4].tick_n, 3);
	CHECK_EQ_INT(t->phases[5].tick_n, 0);
	/* the machine's phase: the circular mean of the known ones */
	CHECK(sl_ticks_phase(&tk) > 20999 && sl_ticks_phase(&tk) < 21001);
	/* no tick, nothing marked */
	tk.hz = 0;
	CHECK_EQ_INT(sl_mark_tick_timers(&b, &tk), 0);
	CHECK_EQ_INT(t->phases[0].tick_n, 2); /* left as it was */
	sl_behaviour_release(&b);
}

/* The replay: one CPU at HZ 250, one task: 1 ms of work, a sleep the
 * recording ended with a timer 5 ms later (2 ticks), 1 ms of work. */
static uint64_t timer_wake(int tick_timers, int64_t phase, uint64_t t0, uint64_t *end, uint64_t *nmarked)
{
	struct sl_behaviour b;
	struct sl_task_spec *t;
	struct sl_replay_opts o;
	struct sl_replay_stats st;
	struct trec r;
	uint64_t w = UINT64_MAX;
	size_t i;
	memset(&b, 0, sizeof(b));
	b.cpus = 1;
	b.t0 = t0;
	t = add_task(&b, "T", 0, 0);
	add_phase(t, TMS, SL_END_SLEEP_S, 5 * TMS, SL_WAKER_IRQ, -1, 0);
	t->phases[0].tick_n = 2;
	add_phase(t, TMS, SL_END_TRACE, 0, 0, -1, 0);
	sl_replay_opts_init(&o);
	o.hz = 250;
	o.no_tick_timers = !tick_timers;
	o.tick_phase_ns = phase;
	if (trun_opts(&b, "eevdf", &o, &r, &st))
		return 0;
	for (i = 0; i < r.nw; i++)
		if (r.w[i].ts > 0)
			w = r.w[i].ts;
	*end = st.end_ns;
	*nmarked = st.tick_timers;
	trec_free(&r);
	sl_behaviour_release(&b);
	return w;
}

SL_TEST(tick_timers_replay)
{
	uint64_t end, n;
	/* off: the recorded 5 ms from its sleep at 1 ms: woken at 6 ms, done
	 * at 7 ms */
	CHECK_EQ_INT(timer_wake(0, -1, 0, &end, &n), 6 * TMS);
	CHECK_EQ_INT(end, 7 * TMS);
	CHECK_EQ_INT(n, 0);
	/* on, but no recorded tick at this HZ (a replay at another HZ, an
	 * older import): tick_n counts the recording's ticks, not these: as
	 * recorded */
	CHECK_EQ_INT(timer_wake(1, -1, 0, &end, &n), 6 * TMS);
	CHECK_EQ_INT(end, 7 * TMS);
	CHECK_EQ_INT(n, 0);
	/* on, the recording's ticks 1 ms past each 4 ms (21 ms) and time 0 at
	 * trace clock 0: ticks at 1, 5, 9 ms. The burst ends at 1 ms, with the
	 * tick (ticks first): the next is 5 ms, woken at 9, done at 10 */
	CHECK_EQ_INT(timer_wake(1, 21 * TMS, 0, &end, &n), 9 * TMS);
	CHECK_EQ_INT(end, 10 * TMS);
	CHECK_EQ_INT(n, 1);
	/* the recording's ticks at 0 mod 4 ms: at 4, 8, 12 ms, as with no
	 * phase: asleep at 1 ms, the next tick is 4 ms and the second 8 ms */
	CHECK_EQ_INT(timer_wake(1, 0, 0, &end, &n), 8 * TMS);
	CHECK_EQ_INT(end, 9 * TMS);
	/* time 0 at trace clock 2 ms: the recording's ticks fall at 3, 7,
	 * 11 ms of the replay ((1 - 2) mod 4): woken at 7, done at 8 */
	CHECK_EQ_INT(timer_wake(1, 21 * TMS, 2 * TMS, &end, &n), 7 * TMS);
	CHECK_EQ_INT(end, 8 * TMS);
}

/* jiffies count the ticks up to now, wherever they fall */
SL_TEST(tick_timers_jiffies)
{
	struct sl_engine e;
	memset(&e, 0, sizeof(e));
	e.tick_ns = 4 * TMS;
	e.tick0_ns = 4 * TMS; /* the default: one tick after the start */
	e.now = 3999999;
	CHECK_EQ_INT(sl_eng_jiffies(&e), 0);
	e.now = 4 * TMS;
	CHECK_EQ_INT(sl_eng_jiffies(&e), 1);
	e.now = 13 * TMS;
	CHECK_EQ_INT(sl_eng_jiffies(&e), 3); /* 4, 8, 12 */
	e.tick0_ns = 1 * TMS; /* ticks at 1, 5, 9, 13 ms */
	e.now = 999999;
	CHECK_EQ_INT(sl_eng_jiffies(&e), 0);
	e.now = 13 * TMS;
	CHECK_EQ_INT(sl_eng_jiffies(&e), 4);
}
