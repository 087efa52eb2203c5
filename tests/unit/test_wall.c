/* Wall-clock bursts (analyze/wall.c finds the tasks, replay/wall.c replays
 * them; docs/model.md "Wall-clock bursts"). */
#include "harness.h"
#include "test_engine_util.h"
#include "../../analyze/wall.h"

#define TUS 1000ULL

/* n bursts of a massive_intr worker (8 ms of wall time from its first run,
 * then a 20 us exit to nanosleep): the first `through` ran when the
 * deadline came (first run to end 8.02 ms, two slices), the rest were
 * waiting then and came back 9 ms after their first run for the 20 us tail
 * alone. */
static void massive(struct sl_wall_burst *b, size_t n, size_t through)
{
	size_t i;
	for (i = 0; i < n; i++) {
		b[i].first = i * 50 * TMS;
		b[i].n = 2;
		if (i < through) {
			b[i].last = b[i].first + 5 * TMS;
			b[i].end = b[i].first + 8020 * TUS;
		} else {
			b[i].last = b[i].first + 9 * TMS;
			b[i].end = b[i].last + 20 * TUS;
		}
	}
}

SL_TEST(wall_fit_massive_intr_by_hand)
{
	/* 40 bursts, 10 through and 30 late. The preempted spans sorted:
	 * 8.02 ms (10), 9.02 ms (30); the first candidate, 8.02 ms, fits:
	 * through within 8.02 ms / 50 = 160.4 us of it (the 10), late: last
	 * slice 9 ms >= 8.02 - 0.16 ms after the first run, tail 20 us <=
	 * min(8.02 ms / 20, 250 us) (the 30); 30 >= 40 / 4 late, 40 of 40 fit.
	 * tail: the median of the 30 tails, 20 us; wall: the median through
	 * span less the tail, 8.02 ms - 20 us = 8 ms. */
	struct sl_wall_burst b[40];
	uint64_t wall = 0, tail = 0;
	massive(b, 40, 10);
	CHECK_EQ_INT(sl_wall_fit(b, 40, &wall, &tail), 1);
	CHECK_EQ_INT(wall, 8 * TMS);
	CHECK_EQ_INT(tail, 20 * TUS);
	/* under SL_WALL_MIN (20) bursts: not enough to tell */
	CHECK_EQ_INT(sl_wall_fit(b, 19, &wall, &tail), 0);
	/* 9 late of 40 (under a quarter): no evidence that the deadline, not
	 * the work, ends the bursts */
	massive(b, 40, 31);
	CHECK_EQ_INT(sl_wall_fit(b, 40, &wall, &tail), 0);
}

SL_TEST(wall_fit_fixed_work_is_not_marked)
{
	/* A task with 4 ms of CPU work per burst, preempted after 3 ms for
	 * 1..40 ms, then 1 ms more: spans 5..44 ms. The candidates (the
	 * shortest tenth: 5..8 ms) never fit: for D = 5 ms one burst is
	 * through, and no burst is late (its last slice, 1 ms, is over
	 * min(D / 20, 250 us)); likewise for 6, 7 and 8 ms. */
	struct sl_wall_burst b[40];
	uint64_t wall = 0, tail = 0;
	size_t i;
	for (i = 0; i < 40; i++) {
		uint64_t wait = (i + 1) * TMS;
		b[i].first = i * 100 * TMS;
		b[i].n = 2;
		b[i].last = b[i].first + 3 * TMS + wait;
		b[i].end = b[i].last + 1 * TMS;
	}
	CHECK_EQ_INT(sl_wall_fit(b, 40, &wall, &tail), 0);
	/* fixed work cut near its end at random: late-shaped bursts whose last
	 * slices spread over 0..234 us (6 us apart): median 117 us, over
	 * SL_WALL_TAIL_MEDIAN_NS (100 us), so no fixed exit path */
	massive(b, 40, 0);
	for (i = 0; i < 40; i++)
		b[i].end = b[i].last + i * 6 * TUS;
	CHECK_EQ_INT(sl_wall_fit(b, 40, &wall, &tail), 0);
}

/* One CPU, rsdl, timed, no overheads. W (a wall task: 8 ms, tail 20 us)
 * runs 1 ms, sleeps 1 ms, then two wall phases recorded as 3 ms and 4 ms,
 * each followed by a 1 ms sleep, then 0.5 ms and exits: 8.5 ms of CPU. P,
 * SCHED_FIFO, starts at 5 ms and runs 6 ms. */
static int run_wall(int on, struct trec *r)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_replay_stats st;
	struct sl_task_spec *w, *p;
	int rc;
	memset(&b, 0, sizeof(b));
	b.cpus = 1;
	w = add_task(&b, "W", 0, 0);
	w->flags |= SL_TASK_WALL;
	w->wall_ns = 8 * TMS;
	w->wall_tail_ns = 20 * TUS;
	add_phase(w, 1 * TMS, SL_END_SLEEP_S, 1 * TMS, SL_WAKER_IRQ, -1, 0);
	add_phase(w, 3 * TMS, SL_END_SLEEP_S, 1 * TMS, SL_WAKER_IRQ, -1, 0);
	add_phase(w, 4 * TMS, SL_END_SLEEP_S, 1 * TMS, SL_WAKER_IRQ, -1, 0);
	add_phase(w, 500 * TUS, SL_END_EXIT, 0, 0, -1, 0);
	p = add_task(&b, "P", 0, 5 * TMS);
	p->policy = SL_SCHED_FIFO;
	p->rt_prio = 50;
	add_phase(p, 6 * TMS, SL_END_EXIT, 0, 0, -1, 0);
	sl_replay_opts_init(&o);
	o.cpus = 1;
	o.no_wall = !on;
	rc = trun_opts(&b, "rsdl", &o, r, &st);
	sl_behaviour_release(&b);
	return rc;
}

SL_TEST(wall_replay_by_hand)
{
	/* On, by hand: W 0-1 ms, asleep to 2. Its first wall phase starts at 2
	 * (deadline 10): to the deadline and the tail is 8.02 ms, capped by
	 * the wall phases' recorded 7 ms; P preempts it at 5 (3 ms used) and
	 * runs to 11; W comes back past its deadline for the tail alone,
	 * 11-11.02, and sleeps to 12.02. The second wall phase: 8.02 ms
	 * wanted, 7 - 3.02 = 3.98 ms left: 12.02-16. Asleep to 17, then the
	 * last phase, 0.5 ms plus nothing left: 17-17.5. W's CPU time: 1 +
	 * 3.02 + 3.98 + 0.5 = 8.5 ms, the recorded. */
	static const uint64_t want[][3] = {
		{ 0, 0, 1000 }, { 0, 2000, 5000 }, { 1, 5000, 11000 }, { 0, 11000, 11020 },
		{ 0, 12020, 16000 }, { 0, 17000, 17500 },
	};
	struct trec r;
	uint64_t cpu_w = 0;
	size_t i;
	CHECK_EQ_INT(run_wall(1, &r), 0);
	CHECK_EQ_INT(r.ns, SL_ARRAY_SIZE(want));
	for (i = 0; i < r.ns && i < SL_ARRAY_SIZE(want); i++) {
		CHECK_EQ_INT(r.s[i].task, (int)want[i][0]);
		CHECK_EQ_INT(r.s[i].ts, want[i][1] * TUS);
		CHECK_EQ_INT(r.s[i].ts + r.s[i].dur, want[i][2] * TUS);
	}
	for (i = 0; i < r.ns; i++)
		if (r.s[i].task == 0)
			cpu_w += r.s[i].dur;
	CHECK_EQ_INT(cpu_w, 8500 * TUS);
	trec_free(&r);
	/* off: the recorded bursts. W's first wall phase, 3 ms from 2, is
	 * done at 5 as P starts: W asleep 5-6 while P runs 5-11; W's 4 ms
	 * 11-15, asleep to 16, 16-16.5 */
	CHECK_EQ_INT(run_wall(0, &r), 0);
	cpu_w = 0;
	for (i = 0; i < r.ns; i++)
		if (r.s[i].task == 0)
			cpu_w += r.s[i].dur;
	CHECK_EQ_INT(cpu_w, 8500 * TUS);
	CHECK(r.ns >= 1 && r.s[r.ns - 1].task == 0 && r.s[r.ns - 1].ts == 16 * TMS &&
	      r.s[r.ns - 1].dur == 500 * TUS);
	trec_free(&r);
}
