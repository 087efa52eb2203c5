/* tests/unit/test_eevdf_util_est.c - what util_est_update() reads at a
 * sleep (docs/eevdf.md "Estimates at a sleep"). In v6.12-v6.18
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
