/* tests/unit/test_eevdf.c - the EEVDF model (replay/eevdf.c, docs/eevdf.md)
 * against values worked out by hand from the rules of kernel/sched/fair.c
 * (v6.6): the fixed-point weight scaling, the base slice, V (avg_vruntime),
 * eligibility, lag on dequeue and its clamp, placement with the lag
 * inflation (W + w) / W, deadlines, yield, reweight; then small replays
 * through the engine (1 CPU, HZ 1000, invariants on). */
#include "harness.h"
#include "../../replay/eevdf_priv.h"
#include "test_o1.h"
#include "test_engine_util.h"
#include "../../replay/eevdf.h"

#include <stdlib.h>
#include <string.h>

#define EV (&sl_policy_eevdf)

SL_TEST(eevdf_base_slice)
{
	/* normalized slice * (1 + ilog2(min(cpus, 8))): 1 -> 1x, 2..3 -> 2x,
	 * 4..7 -> 3x, 8 and more -> 4x; 0.75 ms in v6.6..v6.14 */
	CHECK_EQ_INT(sl_eevdf_base_slice(1, SL_EEVDF_SLICE_NORM_OLD_NS), 750000);
	CHECK_EQ_INT(sl_eevdf_base_slice(2, SL_EEVDF_SLICE_NORM_OLD_NS), 1500000);
	CHECK_EQ_INT(sl_eevdf_base_slice(3, SL_EEVDF_SLICE_NORM_OLD_NS), 1500000);
	CHECK_EQ_INT(sl_eevdf_base_slice(4, SL_EEVDF_SLICE_NORM_OLD_NS), 2250000);
	CHECK_EQ_INT(sl_eevdf_base_slice(7, SL_EEVDF_SLICE_NORM_OLD_NS), 2250000);
	CHECK_EQ_INT(sl_eevdf_base_slice(8, SL_EEVDF_SLICE_NORM_OLD_NS), 3000000);
	CHECK_EQ_INT(sl_eevdf_base_slice(100, SL_EEVDF_SLICE_NORM_OLD_NS), 3000000);
	/* 0.70 ms from v6.15: 2 CPUs 1.4 ms (the 1.38-1.41 ms preemptions of
	 * traces/rec-build-quiet.dat, docs/eevdf.md), 8 CPUs 2.8 ms */
	CHECK_EQ_INT(sl_eevdf_base_slice(1, SL_EEVDF_SLICE_NORM_NS), 700000);
	CHECK_EQ_INT(sl_eevdf_base_slice(2, SL_EEVDF_SLICE_NORM_NS), 1400000);
	CHECK_EQ_INT(sl_eevdf_base_slice(8, SL_EEVDF_SLICE_NORM_NS), 2800000);
}

SL_TEST(eevdf_calc_delta_fair)
{
	struct sl_eevdf_se se;
	/* nice 0: delta unchanged */
	sl_eevdf_se_init(&se, 0, 0);
	CHECK_EQ_INT(sl_eevdf_calc_delta_fair(1000000, &se), 1000000);
	/* nice 5 (w 335, wmult 12820798): fact = 1024 * 12820798 =
	 * 13128497152 >= 2^32, halved twice -> 3282124288, shift 30:
	 * 1e6 * 3282124288 / 2^30 = 3056716.4 -> 3056716 (1e6 * 1024 / 335 =
	 * 3056716.4); 750000 -> 2292537.3 -> 2292537 */
	sl_eevdf_se_init(&se, 0, 5);
	CHECK_EQ_INT(sl_eevdf_calc_delta_fair(1000000, &se), 3056716);
	CHECK_EQ_INT(sl_eevdf_calc_delta_fair(750000, &se), 2292537);
	/* nice -5 (w 3121, wmult 1376151): fact = 1409178624 < 2^32, shift 32:
	 * 1e6 * 1409178624 / 2^32 = 328099.66 -> 328099 */
	sl_eevdf_se_init(&se, 0, -5);
	CHECK_EQ_INT(sl_eevdf_calc_delta_fair(1000000, &se), 328099);
}

/* One runqueue, base slice 0.75 ms, tick 1 ms; three entities A (nice 0),
 * B (nice 0), C (nice 5, w 335). */
SL_TEST(eevdf_rq_arithmetic)
{
	struct sl_eevdf_rq rq;
	struct sl_eevdf_se a, b, c;
	sl_eevdf_rq_init(&rq, 750000, 1000000);
	sl_eevdf_se_init(&a, 0, 0);
	sl_eevdf_se_init(&b, 1, 0);
	sl_eevdf_se_init(&c, 2, 5);

	/* A joins an empty queue: V = min_vruntime = 0, no lag (nr_running
	 * 0), deadline = 0 + 750000 */
	sl_eevdf_enqueue(&rq, &a, 0);
	CHECK_EQ_INT(a.vruntime, 0);
	CHECK_EQ_INT(a.deadline, 750000);
	CHECK(sl_eevdf_pick(&rq) == &a);
	sl_eevdf_set_next(&rq, &a);
	/* A runs 3 ms: vruntime 3000000 >= deadline: new deadline 3750000;
	 * alone, so no resched; min_vruntime follows curr to 3000000 */
	CHECK_EQ_INT(sl_eevdf_update_curr(&rq, 3000000), 0);
	CHECK_EQ_INT(a.vruntime, 3000000);
	CHECK_EQ_INT(a.deadline, 3750000);
	CHECK_EQ_INT(rq.min_vruntime, 3000000);
	CHECK_EQ_INT(sl_eevdf_avg_vruntime(&rq), 3000000);

	/* B joins with no lag: placed at V = 3000000, deadline + 750000 */
	sl_eevdf_enqueue(&rq, &b, 0);
	CHECK_EQ_INT(b.vruntime, 3000000);
	CHECK_EQ_INT(b.deadline, 3750000);

	/* C wakes with vlag +1 ms. W = 1024 (B) + 1024 (curr A) = 2048; the
	 * lag is inflated to 1e6 * (2048 + 335) / 2048 = 1163574.2 -> 1163574,
	 * so vruntime = 3000000 - 1163574 = 1836426; deadline = 1836426 +
	 * calc_delta_fair(750000, nice 5) = 1836426 + 2292537 = 4128963 */
	c.vlag = 1000000;
	sl_eevdf_enqueue(&rq, &c, 0);
	CHECK_EQ_INT(c.vruntime, 1836426);
	CHECK_EQ_INT(c.deadline, 4128963);
	/* V = 3e6 + (0 * 1024 + 0 * 1024 - 1163574 * 335) / 2383
	 *   = 3e6 - 389797290 / 2383 = 3e6 - 163574.19 -> floor -> 2836425:
	 * C's lag after the join is V - v = 999999, the 1 ms it had (the
	 * inflation keeps it; 1 ns lost to rounding) */
	CHECK_EQ_INT(rq.avg_vruntime, -389797290);
	CHECK_EQ_INT(rq.avg_load, 1024 + 335);
	CHECK_EQ_INT(sl_eevdf_avg_vruntime(&rq), 2836425);
	/* eligible: v <= V. A and B (3000000) are not, C is */
	CHECK(!sl_eevdf_vruntime_eligible(&rq, a.vruntime));
	CHECK(!sl_eevdf_vruntime_eligible(&rq, b.vruntime));
	CHECK(sl_eevdf_vruntime_eligible(&rq, c.vruntime));
	CHECK(sl_eevdf_vruntime_eligible(&rq, 2836425));
	CHECK(!sl_eevdf_vruntime_eligible(&rq, 2836426));
	/* pick: the only eligible one, although its deadline is the latest */
	CHECK(sl_eevdf_pick(&rq) == &c);

	/* B leaves: vlag = V - v = 2836425 - 3000000 = -163575 (inside the
	 * clamp of calc_delta_fair(max(2 * 750000, 1e6)) = 1.5 ms) */
	sl_eevdf_dequeue(&rq, &b);
	CHECK_EQ_INT(b.vlag, -163575);
	CHECK_EQ_INT(b.on_rq, 0);
	/* ... and rejoins the same queue: W = 335 (C) + 1024 (A) = 1359,
	 * V = 3e6 + floor(-389797290 / 1359) = 3e6 - 286827 = 2713173 (floor
	 * of -286826.5), lag = -163575 * 2383 / 1359 = -286827.98 -> -286827:
	 * v = 2713173 + 286827 = 3000000, where it left */
	CHECK_EQ_INT(sl_eevdf_avg_vruntime(&rq), 2713173);
	sl_eevdf_enqueue(&rq, &b, 0);
	CHECK_EQ_INT(b.vruntime, 3000000);
	CHECK_EQ_INT(b.deadline, 3750000);

	/* without PLACE_LAG a rejoining task lands on V */
	sl_eevdf_dequeue(&rq, &b);
	rq.place_lag = 0;
	{
		uint64_t v = sl_eevdf_avg_vruntime(&rq);
		sl_eevdf_enqueue(&rq, &b, 0);
		CHECK_EQ_INT(b.vruntime, v);
	}
	rq.place_lag = 1;

	/* a new task (ENQUEUE_INITIAL) gets half a slice: deadline = v + 375000 */
	sl_eevdf_dequeue(&rq, &b);
	b.vlag = 0;
	sl_eevdf_enqueue(&rq, &b, 1);
	CHECK_EQ_INT(b.deadline - b.vruntime, 375000);
	sl_eevdf_rq_release(&rq);
}

/* A (nice 0) and B (nice 5) both at V = 0; A runs 10 ms. */
static void clamp_setup(struct sl_eevdf_rq *rq, struct sl_eevdf_se *a, struct sl_eevdf_se *b)
{
	sl_eevdf_rq_init(rq, 750000, 1000000);
	rq->lag_max_slice = 0; /* v6.6's clamp: max(2 * slice, tick) */
	sl_eevdf_se_init(a, 0, 0);
	sl_eevdf_se_init(b, 1, 5);
	sl_eevdf_enqueue(rq, a, 0);
	sl_eevdf_enqueue(rq, b, 0);
	sl_eevdf_set_next(rq, a);
}

SL_TEST(eevdf_lag_clamp_yield_reweight)
{
	struct sl_eevdf_rq rq;
	struct sl_eevdf_se a, b;

	clamp_setup(&rq, &a, &b);
	/* v_A = 1e7 crosses its deadline: resched (2 queued), new deadline
	 * 1e7 + 750000. V = (1e7 * 1024 + 0 * 335) / 1359 = 7534952.2 ->
	 * 7534952 (B's vruntime 0 stays min_vruntime) */
	CHECK_EQ_INT(sl_eevdf_update_curr(&rq, 10000000), 1);
	CHECK_EQ_INT(a.deadline, 10750000);
	CHECK_EQ_INT(sl_eevdf_avg_vruntime(&rq), 7534952);
	/* A leaves (it is curr): lag = 7534952 - 1e7 = -2465048, clamped to
	 * -calc_delta_fair(max(2 * 0.75 ms, 1 ms tick)) = -1500000 */
	sl_eevdf_dequeue(&rq, &a);
	CHECK_EQ_INT(a.vlag, -1500000);
	/* then B alone: V = its own vruntime, no lag */
	sl_eevdf_dequeue(&rq, &b);
	CHECK_EQ_INT(b.vlag, 0);
	sl_eevdf_rq_release(&rq);

	clamp_setup(&rq, &a, &b);
	sl_eevdf_update_curr(&rq, 10000000);
	sl_eevdf_put_prev(&rq);
	/* B leaves with A queued: lag = 7534952 - 0, clamped to
	 * calc_delta_fair(1.5 ms, nice 5) = 1.5e6 * 3282124288 / 2^30 =
	 * 4585074.6 -> 4585074 */
	sl_eevdf_dequeue(&rq, &b);
	CHECK_EQ_INT(b.vlag, 4585074);
	/* reweight of a sleeper keeps w * vlag: nice 5 -> 0 scales vlag by
	 * 335 / 1024: 4585074 * 335 / 1024 = 1499999.8 -> 1499999 */
	sl_eevdf_reweight_sleeping(&b, 0);
	CHECK_EQ_INT(b.weight, 1024);
	CHECK_EQ_INT(b.vlag, 1499999);
	/* yield pushes the deadline one slice: 10750000 + 750000 */
	a.slice = 750000;
	sl_eevdf_yield(&rq, &a);
	CHECK_EQ_INT(a.deadline, 11500000);
	sl_eevdf_rq_release(&rq);
}

/* The clamp since max_slice (v7.0; this machine's 6.18.44, where bpftrace
 * saw nice-0 lags up to exactly 1.4 + 4 = 5.4 ms): calc_delta_fair(the
 * longest request queued + TICK_NSEC). The same two tasks as above: A's
 * lag -2465048 is clamped to -(0.75 + 1) ms = -1750000; B's (nice 5)
 * 7534952 to calc_delta_fair(1.75 ms, nice 5) = 1.75e6 * 3282124288 /
 * 2^30 = 5349253.3 -> 5349253. */
SL_TEST(eevdf_lag_clamp_max_slice)
{
	struct sl_eevdf_rq rq;
	struct sl_eevdf_se a, b;
	clamp_setup(&rq, &a, &b);
	rq.lag_max_slice = 1;
	sl_eevdf_update_curr(&rq, 10000000);
	sl_eevdf_dequeue(&rq, &a);
	CHECK_EQ_INT(a.vlag, -1750000);
	sl_eevdf_rq_release(&rq);
	clamp_setup(&rq, &a, &b);
	rq.lag_max_slice = 1;
	sl_eevdf_update_curr(&rq, 10000000);
	sl_eevdf_put_prev(&rq);
	sl_eevdf_dequeue(&rq, &b);
	CHECK_EQ_INT(b.vlag, 5349253);
	sl_eevdf_rq_release(&rq);
}

SL_TEST(eevdf_run_to_parity)
{
	struct sl_eevdf_rq rq;
	struct sl_eevdf_se a, b;
	sl_eevdf_rq_init(&rq, 750000, 1000000);
	sl_eevdf_se_init(&a, 0, 0);
	sl_eevdf_se_init(&b, 1, 0);
	sl_eevdf_enqueue(&rq, &a, 0);
	sl_eevdf_set_next(&rq, &a);
	/* A runs 0.1 ms (v 100000, deadline 750000 not reached). B wakes with
	 * vlag +0.5 ms: W = 1024 (curr A), lag = 500000 * 2048 / 1024 = 1e6,
	 * v_B = 100000 - 1e6 = -900000, deadline -150000. V = 100000 +
	 * (0 * 1024 - 1e6 * 1024) / 2048 = -400000: A (100000) is not eligible
	 * any more, B is: B is the pick (wakeup preemption) */
	sl_eevdf_update_curr(&rq, 100000);
	b.vlag = 500000;
	sl_eevdf_enqueue(&rq, &b, 0);
	CHECK_EQ_INT((int64_t)b.vruntime, -900000);
	CHECK(sl_eevdf_pick(&rq) == &b);
	/* B leaves again (lag V - v = 500000) and comes back with none:
	 * v_B = V = 100000 = v_A, both eligible, deadlines A 750000, B 850000 */
	sl_eevdf_dequeue(&rq, &b);
	CHECK_EQ_INT(b.vlag, 500000);
	b.vlag = 0;
	sl_eevdf_enqueue(&rq, &b, 0);
	CHECK_EQ_INT(b.vruntime, 100000);
	CHECK_EQ_INT(b.deadline, 850000);
	CHECK(sl_eevdf_pick(&rq) == &a); /* earlier deadline, and parity */
	/* A's deadline later than B's, but the one it was picked with:
	 * RUN_TO_PARITY keeps A */
	rq.curr->deadline = 1000000;
	rq.curr->parity_deadline = 1000000;
	CHECK(sl_eevdf_pick(&rq) == &a);
	rq.run_to_parity = 0;            /* without RUN_TO_PARITY: B */
	CHECK(sl_eevdf_pick(&rq) == &b);
	rq.run_to_parity = 1;
	/* a deadline changed since the pick (a new slice) ends the parity */
	rq.curr->parity_deadline = 750000;
	CHECK(sl_eevdf_pick(&rq) == &b);
	sl_eevdf_rq_release(&rq);
}

/* v6.18's update_curr asks for a pick when curr's RUN_TO_PARITY protection
 * has lapsed, not only when its slice runs out, and sl_eevdf_reweight_queued
 * itself neither renews a lapsed protection nor ends a live one
 * (kernel/sched/fair.c v6.18: update_curr, set_next_entity is the only
 * place vprot is set; a group entity's loss of it at a reweight, vprot's
 * storage shared with vlag, is the caller's: ev_reweight_gse). */
SL_TEST(eevdf_lapsed_protection)
{
	struct sl_eevdf_rq rq;
	struct sl_eevdf_se a, b;
	sl_eevdf_rq_init(&rq, 750000, 1000000);
	rq.rel_deadline = 1; /* PLACE_REL_DEADLINE, v6.12+ */
	sl_eevdf_se_init(&a, 0, 0);
	sl_eevdf_se_init(&b, 1, 0);
	/* A alone at V = 0: v 0, deadline 0 + 750000 */
	sl_eevdf_enqueue(&rq, &a, 0);
	sl_eevdf_set_next(&rq, &a);
	CHECK_EQ_INT(a.deadline, 750000);
	/* B joins with vlag -1 ms: W = 1024 (curr A), lag = -1e6 * 2048 /
	 * 1024 = -2e6, v_B = 0 + 2e6, deadline 2.75e6 */
	b.vlag = -1000000;
	sl_eevdf_enqueue(&rq, &b, 0);
	CHECK_EQ_INT(b.vruntime, 2000000);
	/* 0.6 ms: v_A 600000, before its deadline and protected: no pick */
	CHECK_EQ_INT(sl_eevdf_update_curr(&rq, 600000), 0);
	CHECK(sl_eevdf_protected(&rq, &a));
	/* 0.2 ms more: v_A 800000 passes 750000: new deadline 800000 +
	 * 750000 = 1550000, a pick. V = (800000 + 2e6) / 2 = 1.4e6: A is
	 * eligible, B (2e6) is not, so A is picked again; without a
	 * set_next_entity its protection stays lapsed */
	CHECK_EQ_INT(sl_eevdf_update_curr(&rq, 200000), 1);
	CHECK_EQ_INT(a.deadline, 1550000);
	CHECK(sl_eevdf_pick(&rq) == &a);
	CHECK(!sl_eevdf_protected(&rq, &a));
	/* 0.1 ms more: v_A 900000, deadline not reached, but unprotected
	 * with B queued: a pick (v6.6-v6.17: none) */
	CHECK_EQ_INT(sl_eevdf_update_curr(&rq, 100000), 1);
	/* a reweight (2048: a share doubled) keeps it unprotected;
	 * the rest of its request, 1550000 - 900000 = 650000, is scaled by
	 * 1024 / 2048: 325000 */
	sl_eevdf_reweight_queued(&rq, &a, 2048);
	CHECK(rq.curr == &a);
	CHECK(!sl_eevdf_protected(&rq, &a));
	CHECK_EQ_INT(a.deadline - a.vruntime, 325000);
	/* picked afresh (after a switch): protected again, and a reweight
	 * back to 1024 keeps that, the rest scaled back to 650000 */
	sl_eevdf_put_prev(&rq);
	sl_eevdf_set_next(&rq, &a);
	CHECK(sl_eevdf_protected(&rq, &a));
	sl_eevdf_reweight_queued(&rq, &a, 1024);
	CHECK(sl_eevdf_protected(&rq, &a));
	CHECK_EQ_INT(a.deadline - a.vruntime, 650000);
	CHECK_EQ_INT(sl_eevdf_update_curr(&rq, 100000), 0);
	sl_eevdf_rq_release(&rq);
}

SL_TEST(eevdf_two_hogs_alternate)
{
	/* 1 CPU: slice 0.75 ms. A and B start at V = 0 with deadline 0.375 ms
	 * (half a slice, new tasks); tie -> A (queued first). At each tick
	 * (1 ms) the runner has passed its deadline: new deadline, resched;
	 * the other is eligible (it is behind) and has the earlier or equal
	 * deadline (ties: the one queued first, i.e. the waiting one): they
	 * alternate 1 ms slices exactly: A [0,1) B [1,2) A [2,3) ... */
	struct sl_behaviour b;
	struct o1t_run r;
	size_t i;
	o1t_behaviour(&b, 2);
	CHECK_EQ_INT(o1t_replay(&b, EV, 1, 20 * MS, 1000, NULL, &r), 0);
	CHECK(r.nsl >= 19);
	for (i = 0; i < 19 && i < r.nsl; i++) {
		CHECK_EQ_INT(r.sl[i].ts, i * MS);
		CHECK_EQ_INT(r.sl[i].dur, MS);
		CHECK_EQ_INT(r.sl[i].task, (int)(i % 2));
		CHECK_EQ_INT(r.sl[i].prio, 120);
	}
	o1t_free(&r);
	sl_behaviour_release(&b);
}

SL_TEST(eevdf_fifo_preempts_and_runs_first)
{
	/* a SCHED_FIFO task (1 ms run / 5 ms sleep) beside two nice-0 hogs:
	 * the RT class is picked before the fair class and a woken RT task
	 * preempts a fair one at once: every wakeup runs with no delay, and
	 * the hogs share the rest equally (1 - 1/6 of the CPU: 5/12 each,
	 * within a slice) */
	struct sl_behaviour b;
	struct o1t_run r;
	size_t n, imm = 0;
	uint64_t h0, h1;
	o1t_behaviour(&b, 3);
	o1t_task(&b, 2, 0, 1 * MS, 5 * MS, MS / 2);
	b.tasks[2].policy = SL_SCHED_FIFO;
	b.tasks[2].rt_prio = 10;
	CHECK_EQ_INT(o1t_replay(&b, EV, 1, 600 * MS, 1000, NULL, &r), 0);
	n = o1t_wakeups(&r, 2, 0, 600 * MS, &imm);
	CHECK(n >= 90);
	CHECK_EQ_INT(imm, n);
	h0 = o1t_runtime(&r, 0, 0, 600 * MS);
	h1 = o1t_runtime(&r, 1, 0, 600 * MS);
	CHECK_NEAR((double)h0, 250.0 * MS, 2.0 * MS);
	CHECK_NEAR((double)h1, 250.0 * MS, 2.0 * MS);
	o1t_free(&r);
	sl_behaviour_release(&b);
}

SL_TEST(eevdf_deterministic)
{
	struct sl_behaviour b;
	struct o1t_run r1, r2;
	o1t_behaviour(&b, 4);
	o1t_task(&b, 1, 5, 3 * MS, 2 * MS, 0);
	o1t_task(&b, 2, -3, 1 * MS, 7 * MS, 3 * MS);
	o1t_task(&b, 3, 0, 8 * MS, 1 * MS, 1 * MS);
	CHECK_EQ_INT(o1t_replay(&b, EV, 2, 300 * MS, 1000, NULL, &r1), 0);
	CHECK_EQ_INT(o1t_replay(&b, EV, 2, 300 * MS, 1000, NULL, &r2), 0);
	CHECK(o1t_same(&r1, &r2));
	o1t_free(&r1);
	o1t_free(&r2);
	sl_behaviour_release(&b);
}

/* DELAY_DEQUEUE (v6.12): A and B (nice 0) queued at V = 0; A runs 2 ms
 * (v_A = 2e6, its slice renewed: deadline 2.75e6) and sleeps while V =
 * (2e6 + 0) / 2 = 1e6 < v_A: not eligible, so it stays queued (delayed);
 * B is picked. */
static void delay_setup(struct sl_eevdf_rq *rq, struct sl_eevdf_se *a, struct sl_eevdf_se *b)
{
	sl_eevdf_rq_init(rq, 750000, 1000000);
	rq->delay_dequeue = 1;
	sl_eevdf_se_init(a, 0, 0);
	sl_eevdf_se_init(b, 1, 0);
	sl_eevdf_enqueue(rq, a, 0);
	sl_eevdf_enqueue(rq, b, 0);
	sl_eevdf_set_next(rq, a);
	sl_eevdf_update_curr(rq, 2000000);
	CHECK_EQ_INT(sl_eevdf_avg_vruntime(rq), 1000000);
	CHECK_EQ_INT(sl_eevdf_dequeue_sleep(rq, a), 1);
	CHECK_EQ_INT(a->delayed, 1);
	CHECK_EQ_INT(a->on_rq, 1);
	CHECK_EQ_INT(rq->nr_running, 2);
	CHECK_EQ_INT(a->deadline, 2750000);
	sl_eevdf_put_prev(rq);
	CHECK(sl_eevdf_pick(rq) == b);
	sl_eevdf_set_next(rq, b);
}

SL_TEST(eevdf_delay_dequeue)
{
	struct sl_eevdf_rq rq;
	struct sl_eevdf_se a, b;

	/* B runs 1 ms: V = (2e6 + 1e6) / 2 = 1.5e6. A wakes: lag = 1.5e6 -
	 * 2e6 = -500000 <= 0, so it stays where it was (vruntime 2e6,
	 * deadline 2.75e6): the debt is kept */
	delay_setup(&rq, &a, &b);
	sl_eevdf_update_curr(&rq, 1000000);
	sl_eevdf_requeue_delayed(&rq, &a);
	CHECK_EQ_INT(a.vlag, -500000);
	CHECK_EQ_INT(a.vruntime, 2000000);
	CHECK_EQ_INT(a.deadline, 2750000);
	CHECK_EQ_INT(a.delayed, 0);
	CHECK_EQ_INT(rq.nr_running, 2);
	sl_eevdf_rq_release(&rq);

	/* B runs 3 ms: V = (2e6 + 3e6) / 2 = 2.5e6, A's lag +500000 > 0:
	 * DELAY_ZERO places it again with no lag, at V without A = v_B = 3e6,
	 * deadline 3.75e6 */
	delay_setup(&rq, &a, &b);
	sl_eevdf_update_curr(&rq, 3000000);
	sl_eevdf_requeue_delayed(&rq, &a);
	CHECK_EQ_INT(a.vlag, 0);
	CHECK_EQ_INT(a.vruntime, 3000000);
	CHECK_EQ_INT(a.deadline, 3750000);
	CHECK_EQ_INT(rq.nr_running, 2);
	sl_eevdf_rq_release(&rq);

	/* B runs 2 ms (v_B = 2e6, deadline renewed to 2.75e6): V = 2e6, both
	 * eligible with equal deadlines; curr only wins a strictly earlier one:
	 * A comes up, still delayed: it leaves for good with lag 0, and B is
	 * the pick */
	delay_setup(&rq, &a, &b);
	sl_eevdf_update_curr(&rq, 2000000);
	CHECK_EQ_INT(b.deadline, 2750000);
	CHECK(sl_eevdf_pick(&rq) == &a);
	sl_eevdf_finish_delayed(&rq, &a);
	CHECK_EQ_INT(a.vlag, 0);
	CHECK_EQ_INT(a.on_rq, 0);
	CHECK_EQ_INT(rq.nr_running, 1);
	CHECK(sl_eevdf_pick(&rq) == &b);
	sl_eevdf_rq_release(&rq);

	/* an eligible task that sleeps leaves at once: A and B at V = 0, A
	 * sleeps before running */
	sl_eevdf_rq_init(&rq, 750000, 1000000);
	rq.delay_dequeue = 1;
	sl_eevdf_se_init(&a, 0, 0);
	sl_eevdf_se_init(&b, 1, 0);
	sl_eevdf_enqueue(&rq, &a, 0);
	sl_eevdf_enqueue(&rq, &b, 0);
	sl_eevdf_set_next(&rq, &a);
	CHECK_EQ_INT(sl_eevdf_dequeue_sleep(&rq, &a), 0);
	CHECK_EQ_INT(a.on_rq, 0);
	CHECK_EQ_INT(rq.nr_running, 1);
	sl_eevdf_rq_release(&rq);
}

SL_TEST(eevdf_rel_deadline)
{
	/* PLACE_REL_DEADLINE (v6.12): a task moved off a CPU with 0.5 ms of
	 * its request left keeps it: deadline = new vruntime + 500000 (v6.6:
	 * a new full request, + 750000) */
	struct sl_eevdf_rq src, dst;
	struct sl_eevdf_se a, b, c;
	int rel;
	for (rel = 0; rel <= 1; rel++) {
		sl_eevdf_rq_init(&src, 750000, 1000000);
		sl_eevdf_rq_init(&dst, 750000, 1000000);
		src.rel_deadline = rel;
		sl_eevdf_se_init(&a, 0, 0);
		sl_eevdf_se_init(&b, 1, 0);
		sl_eevdf_se_init(&c, 2, 0);
		sl_eevdf_enqueue(&src, &a, 0);
		sl_eevdf_enqueue(&src, &b, 0);
		sl_eevdf_set_next(&src, &a);
		sl_eevdf_update_curr(&src, 250000); /* v_A 250000, deadline 750000 */
		sl_eevdf_put_prev(&src);
		sl_eevdf_enqueue(&dst, &c, 0);
		/* A moves: lag = V - v = 125000 - 250000 = -125000; on dst (C alone
		 * at 0, W = 1024) lag * 2048 / 1024 = -250000: v = 250000 */
		sl_eevdf_dequeue_move(&src, &a);
		CHECK_EQ_INT(a.vlag, -125000);
		sl_eevdf_enqueue(&dst, &a, 0);
		CHECK_EQ_INT(a.vruntime, 250000);
		CHECK_EQ_INT(a.deadline, rel ? 750000 : 1000000);
		sl_eevdf_rq_release(&src);
		sl_eevdf_rq_release(&dst);
	}
}

/* The policy's nice change (set_user_nice: dequeue, reweight, enqueue) on a
 * hand-built 1-CPU engine: A and B (nice 0) start at V = 0 with half a
 * slice (deadlines 375000, tie -> A runs); at 3 ms A's vruntime is 3e6 and
 * V = (3e6 + 0) / 2 = 1.5e6. */
#include "test_eevdf_rig.h"

static void nice_setup(struct ev_rig *g)
{
	const struct sl_policy_ops *ops = EV;
	struct sl_enq_info w;
	int i;
	/* the v6.6..v6.14 slice (0.75 ms on 1 CPU): the derivations below */
	ev_rig_init(g, 1, "slice_norm_us", 750);
	memset(&w, 0, sizeof(w));
	w.kind = SL_ENQ_START;
	w.waker = w.waker_cpu = w.src_cpu = -1;
	for (i = 0; i < 2; i++) {
		g->t[i].on_rq = 1;
		g->t[i].state = SL_TS_RUNNABLE;
		ops->enqueue(&g->e, 0, &g->t[i], &w);
	}
	CHECK(ops->pick_next(&g->e, 0, NULL) == &g->t[0]);
	g->cpu[0].curr = &g->t[0];
	g->t[0].state = SL_TS_RUNNING;
	g->e.now = 3000000; /* A has run 3 ms (charged_to 0) */
}

SL_TEST(eevdf_set_nice_keeps_lag)
{
	struct ev_rig g;
	const struct sl_eevdf_se *a, *b;

	/* B (queued) 0 -> 5: it leaves with lag 1.5e6 (at the clamp 1.5 ms),
	 * its remaining request 375000 (PLACE_REL_DEADLINE) and its vlag scale
	 * by 1024 / 335: 1146268 and 4585074; it is placed again beside A
	 * alone (W = 1024, V = 3e6): lag 4585074 * 1359 / 1024 = 6085073.8 ->
	 * 6085073, v = 3e6 - 6085073 = -3085073, deadline v + 1146268. Its lag
	 * is then V' - v = 1500000 + 3085073 = 4585073 at weight 335: the same
	 * 335 * 4585073 ~ 1024 * 1.5e6 weighted lag (1 ns of rounding) */
	nice_setup(&g);
	g.t[1].nice = 5;
	g.t[1].static_prio = 125;
	EV->set_nice(&g.e, &g.t[1], 0);
	b = sl_eevdf_task_se(&g.t[1]);
	CHECK_EQ_INT(b->weight, 335);
	CHECK_EQ_INT(g.t[1].load_weight, 335);
	CHECK_EQ_INT(g.t[1].prio, 125);
	CHECK_EQ_INT((int64_t)b->vruntime, -3085073);
	CHECK_EQ_INT((int64_t)b->deadline, -3085073 + 1146268);
	CHECK_EQ_INT(b->on_rq, 1);
	sl_engine_release_policy(&g.e);

	/* A (running) 0 -> 5: lag -1.5e6 (clamped from 1.5e6 - 3e6), request
	 * left 750000 -> 2292537, vlag -4585074; B alone gives V = 0: lag
	 * -4585074 * 1359 / 1024 = -6085073.8 -> -6085073, v = 6085073,
	 * deadline 8377610; it stays the running task and, niced down, the CPU
	 * reschedules */
	nice_setup(&g);
	g.t[0].nice = 5;
	g.t[0].static_prio = 125;
	g.cpu[0].need_resched = 0;
	EV->set_nice(&g.e, &g.t[0], 0);
	a = sl_eevdf_task_se(&g.t[0]);
	CHECK_EQ_INT(a->vruntime, 6085073);
	CHECK_EQ_INT(a->deadline, 8377610);
	CHECK_EQ_INT(g.cpu[0].need_resched, 1);
	CHECK(EV->pick_next(&g.e, 0, &g.t[0]) == &g.t[1]); /* B is eligible, A not */
	sl_engine_release_policy(&g.e);
}

/* task_is_ineligible_on_dst_cpu (v6.14+, can_migrate_task before any
 * failed balance): the rig's A and B (nice 0, root group) start on CPU 0 of
 * two at V = 0 and A runs; at 3 ms (nice_setup's figures) A's vruntime is
 * 3e6, B's 0, V = 1.5e6. B is eligible (0 <= 1.5e6): movable to a busy
 * CPU 1. A is picked off (B is the EEVDF pick) and queued again: A's 3e6
 * is above V = 1.5e6 (B runs at 0): not eligible, so it stays while CPU 1
 * has a fair entity queued (its root cfs_rq's nr_queued), and may go when
 * it has none, an RT task there or not. */
SL_TEST(eevdf_ineligible_stays_off_a_busy_cpu)
{
	const struct sl_policy_ops *ops = EV;
	struct sl_enq_info w;
	struct ev_rig g;
	struct ev_run *r;
	ev_rig_two_on_cpu0(&g, 2, &w);
	r = ev_R(&g.e);
	r->rq[1].cfs.nr_running = 1; /* a fair task of CPU 1's own, not the rig's */
	g.cpu[1].nr_running = 1;
	CHECK_EQ_INT(ev_ineligible_on_dst(r, ev_T(r, &g.t[1]), 0, 1), 0);
	CHECK(ops->pick_next(&g.e, 0, &g.t[0]) == &g.t[1]);
	g.cpu[0].curr = &g.t[1];
	g.t[0].state = SL_TS_RUNNABLE;
	g.t[1].state = SL_TS_RUNNING;
	CHECK_EQ_INT((int64_t)sl_eevdf_task_se(&g.t[0])->vruntime, 3000000);
	CHECK_EQ_INT(ev_ineligible_on_dst(r, ev_T(r, &g.t[0]), 0, 1), 1);
	r->rq[1].cfs.nr_running = 0; /* CPU 1 runs an RT task only */
	CHECK_EQ_INT(ev_ineligible_on_dst(r, ev_T(r, &g.t[0]), 0, 1), 0);
	g.cpu[1].nr_running = 0;
	CHECK_EQ_INT(ev_ineligible_on_dst(r, ev_T(r, &g.t[0]), 0, 1), 0);
	sl_engine_release_policy(&g.e);
}

/* fork_flips: dup_task_struct copies the parent's wakee_flips (measured,
 * docs/model.md "Wide wakees"). The rig's A (parent, flips set to 7 by
 * hand) forks B on CPU 0: B's flips are 7 with fork_flips=1, 0 with the
 * default (0). */
SL_TEST(eevdf_fork_copies_flips)
{
	int on;
	for (on = 0; on <= 1; on++) {
		struct ev_rig g;
		ev_rig_init(&g, 1, "fork_flips", on);
		*sl_eevdf_task_flips(&g.t[0]) = 7;
		g.t[1].on_rq = 1;
		g.t[1].state = SL_TS_RUNNABLE;
		EV->fork(&g.e, &g.t[0], &g.t[1], 0);
		CHECK_EQ_INT(*sl_eevdf_task_flips(&g.t[1]), on ? 7 : 0);
		sl_engine_release_policy(&g.e);
	}
}

/* select_task_rq() (kernel/sched/core.c, v6.18) asks the class to place
 * a task only when it may run on more than one CPU (p->nr_cpus_allowed >
 * 1): a per-CPU kthread's wakeup goes to its CPU and select_task_rq_fair's
 * record_wakee does not run, so the task the wakeup interrupted gains no
 * flip. The rig's A runs on CPU 0 with no flips; CPU 1 is idle. B, asleep
 * with CPU 0 its last, is woken from CPU 0 (an interrupt while A runs):
 * - B pinned to CPU 0: placed on CPU 0, A's flips stay 0 and its
 *   last_wakee stays unset, so a second such wakeup adds nothing either;
 * - B allowed on both: record_wakee(A, B) counts one flip (A's last_wakee
 *   was none), and a second wakeup of the same B none (1); B itself
 *   woke no one (0). */
SL_TEST(eevdf_pinned_wakee_is_not_recorded)
{
	int pinned;
	for (pinned = 1; pinned >= 0; pinned--) {
		struct ev_rig g;
		int k;
		ev_rig_init(&g, 2, "balance", 1);
		g.t[0].cpu = 0;
		g.t[0].on_rq = 1;
		g.t[0].state = SL_TS_RUNNING;
		g.cpu[0].curr = &g.t[0];
		g.cpu[0].nr_running = 1;
		g.t[1].cpu = 0;
		g.t[1].state = SL_TS_SLEEPING;
		g.t[1].cpumask = pinned ? 1ULL : 3ULL;
		for (k = 0; k < 2; k++) {
			int c = EV->select_cpu(&g.e, &g.t[1], 0, 0, SL_WF_TTWU);
			if (pinned)
				CHECK_EQ_INT(c, 0);
			CHECK_EQ_INT(*sl_eevdf_task_flips(&g.t[0]), pinned ? 0 : 1);
		}
		CHECK_EQ_INT(*sl_eevdf_task_flips(&g.t[1]), 0);
		sl_engine_release_policy(&g.e);
	}
}

/* PELT arithmetic (kernel/sched/pelt.c): y^32 = 1/2, y^n as 2^32 * y^n
 * truncated, time in 1024 ns units, periods of 1024 units. */
SL_TEST(eevdf_pelt_decay)
{
	/* decay_load: n = 32: val >> 1, then * y^0 = (2^32 - 1) / 2^32 (the
	 * table's first entry): 1024 -> 512 -> 511.99 -> 511; 47742 -> 23871
	 * -> 23870 */
	CHECK_EQ_INT(sl_pelt_decay(1024, 32), 511);
	CHECK_EQ_INT(sl_pelt_decay(SL_PELT_LOAD_AVG_MAX, 32), 23870);
	/* n = 16: * 2^-1/2 = 0.70710678 (0xb504f333 / 2^32): 1000 -> 707.1 -> 707 */
	CHECK_EQ_INT(sl_pelt_decay(1000, 16), 707);
	/* n = 64: >> 2, * (2^32 - 1) / 2^32: 4096 -> 1024 -> 1023 */
	CHECK_EQ_INT(sl_pelt_decay(4096, 64), 1023);
	/* past 63 half-lives nothing is left, whatever the value */
	CHECK_EQ_INT(sl_pelt_decay(UINT64_MAX, 63 * 32 + 1), 0);
}

SL_TEST(eevdf_pelt_half_life)
{
	struct sl_pelt sa;
	/* an entity with a full history (load_sum = the divider 47742 - 1024
	 * = 46718 at period_contrib 0, so load_avg = w = 1024) sleeps 32
	 * periods (32 * 1024 * 1024 ns): load_sum decays to 46718 >> 1 =
	 * 23359, * (2^32 - 1) / 2^32 -> 23358; load_avg = 1024 * 23358 /
	 * 46718 = 511.98 -> 511: half its weight; nothing added (load 0) */
	memset(&sa, 0, sizeof(sa));
	sa.load_sum = 46718;
	sa.load_avg = 1024;
	CHECK_EQ_INT(sl_pelt_update(&sa, 32ULL * 1024 * 1024, 0, 0, 0, 1024), 1);
	CHECK_EQ_INT(sa.load_sum, 23358);
	CHECK_EQ_INT(sa.load_avg, 511);
	CHECK_EQ_INT(sa.period_contrib, 0);
	CHECK_EQ_INT(sa.last, 32ULL * 1024 * 1024);
	/* less than 1024 ns later: nothing (time counts in 1024 ns units) */
	CHECK_EQ_INT(sl_pelt_update(&sa, 32ULL * 1024 * 1024 + 1023, 1, 1, 1, 1024), 0);
	CHECK_EQ_INT(sa.last, 32ULL * 1024 * 1024);
	/* runnable and running for 512 units (half a period): no boundary,
	 * so the sums grow and the averages wait: load_sum + 512, util_sum
	 * + 512 << 10 = 524288, period_contrib 512 */
	CHECK_EQ_INT(sl_pelt_update(&sa, 32ULL * 1024 * 1024 + 512 * 1024, 1, 1, 1, 1024), 0);
	CHECK_EQ_INT(sa.load_sum, 23358 + 512);
	CHECK_EQ_INT(sa.util_sum, 524288);
	CHECK_EQ_INT(sa.period_contrib, 512);
	CHECK_EQ_INT(sa.load_avg, 511);
	/* 512 more: one period ends (periods = (512 + 512) / 1024 = 1): the
	 * sums decay by y (0xfa83b2db / 2^32 = 0.97857206), then the rest of
	 * the period, d1 = 1024 - 512 = 512, decayed by y^1 (501.03 -> 501),
	 * plus the full periods between, 47742 - decay(47742, 1) - 1024 =
	 * 47742 - 46718 (46718.99 truncated) - 1024 = 0, plus d3 = 0:
	 * contrib 501. load_sum = decay(23870, 1) + 501 = 23358 (23358.5)
	 * + 501 = 23859; util_sum = decay(524288, 1) + 501 * 1024 = 513053
	 * (4202935003 / 8192 = 513053.6) + 513024 = 1026077; divider 46718 +
	 * period_contrib 0: load_avg = 1024 * 23859 / 46718 = 522.96 -> 522,
	 * util_avg = 1026077 / 46718 = 21.96 -> 21 */
	CHECK_EQ_INT(sl_pelt_update(&sa, 33ULL * 1024 * 1024, 1, 1, 1, 1024), 1);
	CHECK_EQ_INT(sa.load_sum, 23859);
	CHECK_EQ_INT(sa.util_sum, 1026077);
	CHECK_EQ_INT(sa.load_avg, 522);
	CHECK_EQ_INT(sa.util_avg, 21);
}

/* update_idle_cpu_scan() (SIS_UTIL), imbalance_pct 117: x = sum_util /
 * llc_weight, tmp = x^2 * 117^2 / (10000 * 1024) = x^2 * 13689 / 10240000
 * (at most 1024), nr = llc_weight * (1024 - tmp) / 1024, all integer:
 * - 2 CPUs idle (0): tmp 0, nr 2;
 * - sum 54: x 27, 729 * 13689 / 10240000 = 0.97 -> 0, nr 2;
 * - sum 56: x 28, 784 * 13689 / 10240000 = 1.05 -> 1, 2 * 1023 / 1024 = 1;
 * - sum 1238: x 619, 383161 * 13689 / 10240000 = 512.2 -> 512, 2 * 512 /
 *   1024 = 1 (one hog and a CPU a fifth busy: the other CPU is looked at);
 * - sum 1240: x 620, 384400 * 13689 / 10240000 = 513.9 -> 513, 2 * 511 /
 *   1024 = 0.998 -> 0 (none);
 * - sum 2048 (both CPUs busy): x 1024, tmp 1402 -> 1024, nr 0;
 * - 8 CPUs, sum 4096: x 512, 262144 * 13689 / 10240000 = 350.4 -> 350,
 *   8 * 674 / 1024 = 5.27 -> 5. */
SL_TEST(eevdf_sis_util_nr_idle_scan)
{
	CHECK_EQ_INT(sl_eevdf_nr_idle_scan(0, 2, 117), 2);
	CHECK_EQ_INT(sl_eevdf_nr_idle_scan(54, 2, 117), 2);
	CHECK_EQ_INT(sl_eevdf_nr_idle_scan(56, 2, 117), 1);
	CHECK_EQ_INT(sl_eevdf_nr_idle_scan(1238, 2, 117), 1);
	CHECK_EQ_INT(sl_eevdf_nr_idle_scan(1240, 2, 117), 0);
	CHECK_EQ_INT(sl_eevdf_nr_idle_scan(2048, 2, 117), 0);
	CHECK_EQ_INT(sl_eevdf_nr_idle_scan(4096, 8, 117), 5);
}

/* util_est_update(), UTIL_EST_MARGIN 10 (1 % of 1024), weight 1/4:
 * - ewma 0, util 300: an increase, taken at once: 300;
 * - ewma 400, util 395: 5 below, within the margin: 400;
 * - ewma 400, util 300, runnable 300: (1600 - 100) / 4 = 375;
 * - ewma 400, util 300, runnable 320: 300 + 10 < 320, it waited: 400;
 * - ewma 1000, util 0, runnable 0: (4000 - 1000) / 4 = 750. */
SL_TEST(eevdf_util_est_update)
{
	CHECK_EQ_INT(sl_eevdf_util_est_update(0, 300, 300), 300);
	CHECK_EQ_INT(sl_eevdf_util_est_update(400, 395, 395), 400);
	CHECK_EQ_INT(sl_eevdf_util_est_update(400, 300, 300), 375);
	CHECK_EQ_INT(sl_eevdf_util_est_update(400, 300, 320), 400);
	CHECK_EQ_INT(sl_eevdf_util_est_update(1000, 0, 0), 750);
}

SL_TEST(eevdf_wake_affine_weight)
{
	/* imbalance_pct 117 (an LLC domain): prev is biased by 100 + 17 / 2
	 * = 108 (integer halving). this 300, prev 900, task 200: (300 + 200)
	 * * 100 = 50000 < (900 - 200) * 108 = 75600: the waker's CPU */
	CHECK_EQ_INT(sl_eevdf_wake_affine_weight(300, 900, 200, 0, 0, 117), 1);
	/* this 600: 80000 > 75600: stays */
	CHECK_EQ_INT(sl_eevdf_wake_affine_weight(600, 900, 200, 0, 0, 117), 0);
	/* equal: 556 + 200 = 756 * 100 = 75600, not below: stays; sync adds
	 * 1 to prev's side: 75600 < 75601, and a sync waker's own load
	 * (here 0) comes off this side */
	CHECK_EQ_INT(sl_eevdf_wake_affine_weight(556, 900, 200, 0, 0, 117), 0);
	CHECK_EQ_INT(sl_eevdf_wake_affine_weight(556, 900, 200, 0, 1, 117), 1);
	/* sync, waker load 400 of this 600: (600 - 400 + 200) * 100 = 40000
	 * < 75601 */
	CHECK_EQ_INT(sl_eevdf_wake_affine_weight(600, 900, 200, 400, 1, 117), 1);
	/* sync, the waker's load above its CPU's: straight to it */
	CHECK_EQ_INT(sl_eevdf_wake_affine_weight(600, 0, 200, 700, 1, 117), 1);
	/* a build's hand-off: the waker's CPU runs one CPU-bound task (PELT
	 * load ~1000), the wakee (a mostly sleeping make, load 100) last ran
	 * on a CPU running another (1000 + its own blocked 100): (1000 + 100)
	 * * 100 = 110000 > (1100 - 100) * 108 = 108000: stays; by runqueue
	 * weights (this 1024 + 1024 against prev 1024) it would stay by far:
	 * 204800 against 110592 */
	CHECK_EQ_INT(sl_eevdf_wake_affine_weight(1000, 1100, 100, 0, 0, 117), 0);
	/* the waker's CPU a little lighter (950): 105000 < 108000: moves */
	CHECK_EQ_INT(sl_eevdf_wake_affine_weight(950, 1100, 100, 0, 0, 117), 1);
}

/* NI_RANDOM's success rate (update_newidle_stats, kernel/sched/fair.c
 * v6.18.5+; sd_init starts it at 512 calls, 256 successes, ratio 512):
 * every 1024th call the ratio becomes the successes counted, and both
 * counts halve. 512 failed calls: ratio 256 (call 512, success 128); 512
 * calls each counting a success of weight (1024 + 257 / 2) / 257 = 4 (a
 * balance run at the rate 257 / 1024 and pulling): 128 + 2048 = 2176,
 * ratio 2176 (more than 1024: every later call balances). */
SL_TEST(eevdf_ni_random)
{
	struct ev_rq rq;
	int k;
	memset(&rq, 0, sizeof(rq));
	rq.ni_call = 512;
	rq.ni_success = 256;
	rq.ni_ratio = 512;
	for (k = 0; k < 511; k++)
		ev_ni_stats(&rq, 0);
	CHECK_EQ_INT(rq.ni_ratio, 512);
	ev_ni_stats(&rq, 0);
	CHECK_EQ_INT(rq.ni_ratio, 256);
	CHECK_EQ_INT(rq.ni_call, 512);
	CHECK_EQ_INT(rq.ni_success, 128);
	for (k = 0; k < 512; k++)
		ev_ni_stats(&rq, (1024 + 257 / 2) / 257);
	CHECK_EQ_INT(rq.ni_ratio, 2176);
}

/* Newidle and idle balancing (load_balance, kernel/sched/fair.c v6.6) on
 * 2 CPUs, HZ 1000, base slice 1.5 ms. Tasks 0 and 2 are hogs, task 1 runs
 * X ms then sleeps; all start at 0: 0 -> CPU 0, 1 -> CPU 1 (fewer
 * tasks), 2 -> CPU 0 (a tie, the lower CPU). On CPU 0 both new tasks have
 * deadline 0.75 ms (half a slice): 0 runs [0, 1); at the 1 ms tick its v
 * (1 ms) passed its deadline: new deadline 2.5 ms, 2 (deadline 0.75) runs
 * [1, 2); at 2 ms the same for 2 (deadline 2.5): a tie, curr loses: 0 runs
 * from 2 ms and 2 waits, last ran at 2 ms. When CPU 1 goes idle at X the
 * root domain is overloaded (CPU 0 has 2 tasks): CPU 1 (has spare) pulls
 * (2 - 0) >> 1 = 1 task unless it is cache-hot (off its CPU for less than
 * sysctl_sched_migration_cost, 0.5 ms). Newidle balancing at every
 * chance, as before v6.18.5 (ni_random=0; NI_RANDOM: eevdf_ni_random). */
SL_TEST(eevdf_newidle_balance)
{
	struct sl_behaviour b;
	struct o1t_run r;
	/* X = 2.6 ms: 2 has waited 0.6 ms: cold, pulled at 2.6 ms;
	 * X = 2.3 ms: 0.3 ms: hot, stays; CPU 1's next balance is due at
	 * last_balance 0 + the idle interval (balance_interval 2 ms =
	 * sd_weight, 2 jiffies): its tick at 3 ms balances as CPU_IDLE with
	 * 2 cold by then (1 ms): pulled at 3 ms */
	uint64_t x[2] = { 2600000, 2300000 }, at[2] = { 2600000, 3 * MS };
	int k;
	for (k = 0; k < 2; k++) {
		size_t i, n2 = 0;
		o1t_behaviour(&b, 3);
		o1t_task(&b, 1, 0, x[k], SEC, 0);
		CHECK_EQ_INT(o1t_replay(&b, EV, 2, 8 * MS, 1000, "ni_random=0", &r), 0);
		for (i = 0; i < r.nsl; i++) {
			if (r.sl[i].task != 2)
				continue;
			if (n2 == 0) {
				CHECK_EQ_INT(r.sl[i].ts, 1 * MS);
				CHECK_EQ_INT(r.sl[i].cpu, 0);
			} else if (n2 == 1) {
				CHECK_EQ_INT(r.sl[i].ts, at[k]);
				CHECK_EQ_INT(r.sl[i].cpu, 1);
			}
			n2++;
		}
		CHECK_EQ_INT(n2, 2);
		o1t_free(&r);
		sl_behaviour_release(&b);
	}
	/* the shared 2.6.20 layer instead (balance=0): cache-hot for 2.5 ms,
	 * so at 2.6 ms (0.6 ms) 2 stays */
	o1t_behaviour(&b, 3);
	o1t_task(&b, 1, 0, x[0], SEC, 0);
	CHECK_EQ_INT(o1t_replay(&b, EV, 2, 8 * MS, 1000, "balance=0", &r), 0);
	{
		size_t i;
		for (i = 0; i < r.nsl; i++)
			if (r.sl[i].task == 2 && r.sl[i].ts > 1 * MS)
				CHECK(r.sl[i].ts > x[0]);
	}
	o1t_free(&r);
	sl_behaviour_release(&b);
}
