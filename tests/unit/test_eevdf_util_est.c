/* tests/unit/test_eevdf_util_est.c - two readings of the kernel's load
 * tracking that the eevdf model follows: what util_est_update() reads at a
 * sleep (docs/eevdf.md "Estimates at a sleep"), and the newly idle
 * balance's gate on rq->avg_idle (docs/eevdf.md "Balancing", at the end). In v6.12-v6.18
 * dequeue_task_fair() calls util_est_update() before dequeue_entities(), so
 * the task's utilisation is the one its last update_load_avg() left (at its
 * enqueue, its pick, a tick, a preemption), not the one at the sleep; and
 * the update is skipped when no PELT period ended in the entity's updates
 * since the last one (UTIL_AVG_UNCHANGED, set at each util_est_update and
 * cleared by cfs_se_util_change() when ___update_load_sum() crosses a
 * period). Values worked out by hand from kernel/sched/fair.c and pelt.c
 * (v6.18); the EWMA itself is test_eevdf.c's eevdf_util_est_update. */
#include "harness.h"
#include "test_eevdf_rig.h"
#include "../../replay/eevdf_priv.h"

#include <string.h>

/* The skip and the value read, on the task's fields alone.
 * - estimate 400, seen 300 (runnable 300) in period 7, marked in period 7:
 *   no period ended since the last update: 400 stays (whatever the
 *   average now: 500);
 * - seen in period 8: 400 - (400 - 300) / 4 = 375 (the EWMA of weight 1/4;
 *   300 + 10 >= 300, it got the CPU it wanted), marked 8; the average now
 *   (500) would have reset it upwards to 500;
 * - a second sleep in period 8 with the same 300: skipped, 375 (not
 *   375 - 75 / 4 = 357);
 * - util_est_seen=0: the average at the sleep is read, 400 -> 500. */
SL_TEST(eevdf_util_est_reads_the_last_update)
{
	int seen;
	for (seen = 1; seen >= 0; seen--) {
		struct ev_rig g;
		struct ev_run *r;
		struct ev_task *p;
		ev_rig_init(&g, 1, "util_est_seen", seen);
		r = ev_R(&g.e);
		p = ev_T(r, &g.t[0]);
		p->util_est = 400;
		p->ue_util = p->ue_runnable = 300;
		p->avg.util_avg = p->avg.runnable_avg = 500;
		p->ue_period = p->ue_mark = 7;
		ev_util_est_dequeue(r, p, 1);
		CHECK_EQ_INT(p->util_est, seen ? 400 : 500);
		if (seen) {
			p->ue_period = 8;
			ev_util_est_dequeue(r, p, 1);
			CHECK_EQ_INT(p->util_est, 375);
			CHECK_EQ_INT(p->ue_mark, 8);
			ev_util_est_dequeue(r, p, 1);
			CHECK_EQ_INT(p->util_est, 375);
			/* a move (not a sleep) updates nothing */
			p->ue_period = 9;
			ev_util_est_dequeue(r, p, 0);
			CHECK_EQ_INT(p->util_est, 375);
		}
		sl_engine_release_policy(&g.e);
	}
}

/* Through the hooks, one CPU: A appears at 0 on the empty CPU and is picked
 * there. post_init_entity_util_avg(): half the CPU's spare capacity, (1024 -
 * 0) / 2 = 512, since the CPU's utilisation is 0. A runs 3 ms with no tick
 * (the rig's clock jumps) and sleeps: the kernel's estimate is the 512 of
 * its pick, the last update_load_avg; its average brought up to the sleep
 * has grown past it (three periods ended, each adding running time), and
 * that is what util_est_seen=0 reads. */
SL_TEST(eevdf_util_est_at_a_sleep_is_the_pick_s)
{
	const struct sl_policy_ops *ops = &sl_policy_eevdf;
	int seen;
	for (seen = 1; seen >= 0; seen--) {
		struct ev_rig g;
		struct sl_enq_info w;
		struct ev_task *p;
		ev_rig_init(&g, 1, "util_est_seen", seen);
		memset(&w, 0, sizeof(w));
		w.kind = SL_ENQ_START;
		w.waker = w.waker_cpu = w.src_cpu = -1;
		g.t[0].on_rq = 1;
		g.t[0].state = SL_TS_RUNNABLE;
		ops->enqueue(&g.e, 0, &g.t[0], &w);
		g.cpu[0].nr_running = 1;
		CHECK(ops->pick_next(&g.e, 0, NULL) == &g.t[0]);
		g.cpu[0].curr = &g.t[0];
		g.t[0].state = SL_TS_RUNNING;
		p = ev_T(ev_R(&g.e), &g.t[0]);
		CHECK_EQ_INT(p->avg.util_avg, 512);
		CHECK_EQ_INT(p->util_est, 0);
		g.e.now = 3000000;
		g.t[0].sum_exec_ns = 3000000;
		g.t[0].state = SL_TS_SLEEPING;
		g.t[0].on_rq = 0;
		ops->dequeue(&g.e, 0, &g.t[0], 'S');
		CHECK(p->avg.util_avg > 512);
		CHECK_EQ_INT(p->util_est, seen ? 512 : p->avg.util_avg);
		sl_engine_release_policy(&g.e);
	}
}

/* sched_balance_newidle()'s gate (kernel/sched/fair.c, v6.18): a newly idle
 * CPU balances only when its average idle period, rq->avg_idle, is at least
 * sd->max_newidle_lb_cost (newidle_cost_ns, 5 000 ns); avg_idle is the
 * update_avg() of the idle periods a wakeup ended (ttwu_do_activate,
 * kernel/sched/core.c): avg + (sample - avg) / 8, truncated toward 0, at
 * most twice max_idle_balance_cost (500 us at the start).
 * - 1 000 000 and a 3 us period: 1 000 000 - 997 000 / 8 = 875 375;
 * - 20 and 10: 20 + (-10 / 8 = -1) = 19;
 * - 900 000 and 5 ms: 900 000 + 512 500, clamped to 1 000 000.
 * Through the hooks, two CPUs (NI_RANDOM off, so that the die does not
 * decide): A and B queued on CPU 0 (never ran: cold), CPU 1 newly idle.
 * avg_idle 4 000 < 5 000: no balance, 0 pulled, the idle period begins
 * (idle_stamp set); 6 000: it balances and pulls one; a wakeup onto CPU 1
 * 10 us into an idle period moves avg_idle from 6 000 to 6 000 + 4 000 / 8
 * = 6 500 and ends the period. */
SL_TEST(eevdf_newidle_avg_idle_gate)
{
	struct ev_rig g;
	struct sl_enq_info w;
	struct ev_run *r;
	int gate;
	CHECK_EQ_INT(sl_eevdf_update_avg(1000000, 3000, 1000000), 875375);
	CHECK_EQ_INT(sl_eevdf_update_avg(20, 10, 1000000), 19);
	CHECK_EQ_INT(sl_eevdf_update_avg(900000, 5000000, 1000000), 1000000);
	for (gate = 1; gate >= 0; gate--) {
		ev_rig_two_on_cpu0(&g, 2, &w);
		r = ev_R(&g.e);
		g.e.param[EV_P_NI_RANDOM] = 0;
		r->rq[1].avg_idle = gate ? 4000 : 6000;
		CHECK_EQ_INT(ev_balance(&g.e, 1, SL_BAL_NEWIDLE), gate ? 0 : 1);
		CHECK_EQ_INT(r->rq[1].idle_stamp, gate ? 3000000 : 0);
		sl_engine_release_policy(&g.e);
	}
	ev_rig_init(&g, 2, "ni_random", 0);
	r = ev_R(&g.e);
	r->rq[1].avg_idle = 6000;
	r->rq[1].idle_stamp = 1000000;
	g.e.now = 1010000;
	ev_idle_wakeup(r, 1);
	CHECK_EQ_INT(r->rq[1].avg_idle, 6500);
	CHECK_EQ_INT(r->rq[1].idle_stamp, 0);
	sl_engine_release_policy(&g.e);
}
