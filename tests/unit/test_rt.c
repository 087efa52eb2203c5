/* tests/unit/test_rt.c - the real-time class the models share (replay/rt.h). */
#include "harness.h"
#include "test_engine_util.h"
#include "../../replay/rt.h"

struct rtt {
	struct sl_prio_link link; /* first, as prio_array.h requires */
	struct sl_rt_se se;
};

static int not_two(void *ctx, int i)
{
	(void)ctx;
	return i != 2;
}

/* The rules, each worked from the kernel source. */
SL_TEST(rt_class_rules)
{
	struct sl_prio_array a;
	struct rtt t[5];
	struct sl_prio_links l = SL_PRIO_LINKS(t);
	int i, q = -1;

	/* prio = MAX_RT_PRIO - 1 - rt_priority, rt_priority within 1..99
	 * (normal_prio, kernel/sched.c v2.6.20; sched_setscheduler's range) */
	CHECK_EQ_INT(sl_rt_prio(50), 49);
	CHECK_EQ_INT(sl_rt_prio(99), 0);
	CHECK_EQ_INT(sl_rt_prio(0), 98);
	CHECK_EQ_INT(sl_rt_prio(150), 0);
	CHECK(sl_rt_policy(SL_SCHED_FIFO) && sl_rt_policy(SL_SCHED_RR));
	CHECK(!sl_rt_policy(SL_SCHED_NORMAL) && !sl_rt_policy(SL_SCHED_BATCH));
	/* DEF_TIMESLICE (sched_rt.c v2.6.24) = RR_TIMESLICE (6.x) = 100 * HZ
	 * / 1000 ticks: 100, 25, 30 (100 ms is 30.000003 ticks of 3333333 ns:
	 * the kernel's integer 30), 10; at least 1 */
	CHECK_EQ_INT(sl_rt_rr_ticks(1000), 100);
	CHECK_EQ_INT(sl_rt_rr_ticks(250), 25);
	CHECK_EQ_INT(sl_rt_rr_ticks(300), 30);
	CHECK_EQ_INT(sl_rt_rr_ticks(100), 10);
	CHECK_EQ_INT(sl_rt_rr_ticks(5), 1);

	/* task_tick_rt: SCHED_RR of 3 ticks expires on the third tick and gets
	 * 3 again; SCHED_FIFO never; a normal task is not the class's */
	sl_rt_se_init(&t[0].se, SL_SCHED_RR, 10, 3);
	CHECK_EQ_INT(sl_rt_tick(&t[0].se, 1, 3), 0);
	CHECK_EQ_INT(sl_rt_tick(&t[0].se, 1, 3), 0);
	CHECK_EQ_INT(sl_rt_tick(&t[0].se, 1, 3), 1);
	CHECK_EQ_INT(t[0].se.time_slice, 3);
	sl_rt_se_init(&t[1].se, SL_SCHED_FIFO, 10, 3);
	for (i = 0; i < 10; i++)
		CHECK_EQ_INT(sl_rt_tick(&t[1].se, 1, 3), 0);
	sl_rt_se_init(&t[4].se, SL_SCHED_NORMAL, 10, 3);
	CHECK_EQ_INT(t[4].se.policy, 0);

	/* check_preempt_curr_rt: a better (lower) prio only; an RT task
	 * preempts a non-RT one; two non-RT tasks: not the class's call */
	sl_rt_se_init(&t[2].se, SL_SCHED_FIFO, 20, 0); /* prio 79 */
	CHECK_EQ_INT(sl_rt_preempts(&t[2].se, &t[0].se), 1); /* 79 < 89 */
	CHECK_EQ_INT(sl_rt_preempts(&t[0].se, &t[2].se), 0);
	CHECK_EQ_INT(sl_rt_preempts(&t[0].se, &t[1].se), 0); /* equal */
	CHECK_EQ_INT(sl_rt_preempts(&t[0].se, &t[4].se), 1);
	CHECK_EQ_INT(sl_rt_preempts(&t[4].se, &t[0].se), 0);
	CHECK_EQ_INT(sl_rt_preempts(&t[4].se, &t[4].se), -1);

	/* lists: 0 and 1 at 89 (in that order), 2 at 79, 3 at 79 */
	sl_prio_init(&a);
	sl_prio_links_init(l, 5);
	sl_rt_se_init(&t[3].se, SL_SCHED_RR, 20, 5);
	sl_rt_enqueue(&a, l, 0, &t[0].se);
	sl_rt_enqueue(&a, l, 1, &t[1].se);
	sl_rt_enqueue(&a, l, 2, &t[2].se);
	sl_rt_enqueue(&a, l, 3, &t[3].se);
	CHECK_EQ_INT(sl_rt_pick(&a), 2);
	CHECK(!sl_rt_alone(l, 0));
	/* load_balance_rt from each list's tail, pull from its head; 2 refused */
	CHECK_EQ_INT(sl_rt_find(&a, l, 0, SL_PRIO_MAX, not_two, NULL, &q), 3);
	CHECK_EQ_INT(q, 79);
	CHECK_EQ_INT(sl_rt_find(&a, l, 1, SL_PRIO_MAX, not_two, NULL, &q), 3);
	CHECK_EQ_INT(sl_rt_find(&a, l, 1, 79, not_two, NULL, &q), -1); /* none before 79 */
	sl_rt_requeue(&a, l, 2, &t[2].se); /* yield: 3 2 */
	CHECK_EQ_INT(sl_rt_pick(&a), 3);
	sl_rt_dequeue(&a, l, 3, &t[3].se);
	sl_rt_dequeue(&a, l, 3, &t[3].se); /* not queued: nothing */
	CHECK_EQ_INT(a.nr_active, 3);
	CHECK(sl_rt_alone(l, 2));
	sl_rt_dequeue(&a, l, 2, &t[2].se);
	CHECK_EQ_INT(sl_rt_pick(&a), 0);
	CHECK_EQ_INT(sl_rt_find(&a, l, 1, SL_PRIO_MAX, not_two, NULL, &q), 0);
	CHECK_EQ_INT(sl_rt_find(&a, l, 0, SL_PRIO_MAX, not_two, NULL, &q), 1);
}

/* cfs and eevdf count a SCHED_RR slice in ticks, as the kernel does
 * (task_tick_rt: --p->rt.time_slice). At HZ 300 a tick is 3333333 ns and
 * the slice 30 ticks: two RR tasks of one priority on one CPU alternate
 * every 30 ticks, 99.99999 ms (cfs counted 100 ms in ns before: 31 ticks,
 * 103.333323 ms). The first task starts at 0 and is requeued at the 30th
 * tick; each slice after is 30 ticks long. */
SL_TEST(rt_rr_slice_in_ticks_cfs_eevdf)
{
	static const char *const models[] = { "cfs", "eevdf" };
	const char *text = "r1 0 run=inf policy=rr rtprio=5\nr2 0 run=inf policy=rr rtprio=5\n";
	size_t m, i;
	for (m = 0; m < 2; m++) {
		struct sl_behaviour b;
		struct sl_replay_opts o;
		struct sl_diag d = { { 0 }, 0, 0 };
		struct trec r;
		CHECK_EQ_INT(sl_workload_parse_text(text, strlen(text), "test", &b, &d), 0);
		sl_replay_opts_init(&o);
		o.cpus = 1;
		o.hz = 300;
		o.duration_ns = 1000 * TMS;
		CHECK_EQ_INT(trun_opts(&b, models[m], &o, &r, NULL), 0);
		CHECK(r.ns >= 9);
		for (i = 0; i + 1 < r.ns && i < 8; i++) {
			CHECK_EQ_INT(r.s[i].task, (int)(i % 2));
			CHECK_EQ_INT(r.s[i].dur, 30 * 3333333);
			CHECK_EQ_INT(r.s[i].prio, 94); /* 99 - 5 */
		}
		trec_free(&r);
		sl_behaviour_release(&b);
	}
}
