/* tests/unit/test_eevdf_buddy.c - two rules of the recording kernel that
 * the eevdf model has as options, off by default (docs/eevdf.md, docs/
 * validate.md "Group buddies and stale requeues"), against values worked
 * out by hand from kernel/sched/fair.c (v6.18):
 * - the next buddy: pick_next_entity() takes cfs_rq->next while it is
 *   eligible (PICK_BUDDY), before pick_eevdf() and its RUN_TO_PARITY;
 *   set_next_entity() and dequeue_entity() clear it (clear_buddies),
 *   reweight_entity() does not (group_buddy);
 * - requeue_delayed_entity() weighs a delayed wakee's lag against the
 *   running task's vruntime as of its last update_curr; wakeup_preempt()
 *   updates it only afterwards (requeue_stale). */
#include "harness.h"
#include "test_eevdf_rig.h"
#include "../../replay/eevdf_priv.h"

#include <string.h>

/* One queue, base slice 0.75 ms, tick 1 ms. */
SL_TEST(eevdf_next_buddy_pick)
{
	struct sl_eevdf_rq rq;
	struct sl_eevdf_se x, y;
	sl_eevdf_rq_init(&rq, 750000, 1000000);
	sl_eevdf_se_init(&x, 0, 0);
	sl_eevdf_se_init(&y, 1, 0);
	/* X joins the empty queue: v 0, deadline 750000. Y joins as a new
	 * task (ENQUEUE_INITIAL): V = 0, no lag, half a slice: deadline
	 * 375000. Both are eligible (v 0 <= V 0); Y's deadline is earlier */
	sl_eevdf_enqueue(&rq, &x, 0);
	sl_eevdf_enqueue(&rq, &y, 1);
	CHECK_EQ_INT(x.deadline, 750000);
	CHECK_EQ_INT(y.deadline, 375000);
	CHECK(sl_eevdf_pick(&rq) == &y);
	/* X the buddy: the pick takes it, eligible, over Y's earlier
	 * deadline; not without PICK_BUDDY */
	rq.next = &x;
	CHECK(sl_eevdf_pick_next(&rq) == &y);
	rq.pick_buddy = 1;
	CHECK(sl_eevdf_pick_next(&rq) == &x);
	/* Y set to run (set_next_entity(Y) leaves X's mark alone): Y, at V
	 * and inside its request, holds its RUN_TO_PARITY protection, so
	 * pick_eevdf keeps it; the buddy pick takes X before that */
	sl_eevdf_set_next(&rq, &y);
	CHECK(rq.next == &x);
	CHECK(sl_eevdf_protected(&rq, &y));
	CHECK(sl_eevdf_pick(&rq) == &y);
	CHECK(sl_eevdf_pick_next(&rq) == &x);
	/* a reweight of X (a group entity's share changing) keeps the mark */
	sl_eevdf_reweight_queued(&rq, &x, 1024);
	CHECK(rq.next == &x);
	/* X set to run clears it (clear_buddies in set_next_entity) */
	sl_eevdf_put_prev(&rq);
	sl_eevdf_set_next(&rq, &x);
	CHECK(rq.next == NULL);
	/* X the buddy again while Y is curr */
	sl_eevdf_put_prev(&rq);
	sl_eevdf_set_next(&rq, &y);
	rq.next = &x;
	CHECK(sl_eevdf_pick_next(&rq) == &x);
	/* X leaves (a sleep while eligible: dequeued for good) and the
	 * mark goes with it (clear_buddies in dequeue_entity) */
	CHECK_EQ_INT(sl_eevdf_dequeue_sleep(&rq, &x), 0);
	CHECK(rq.next == NULL);
	CHECK(sl_eevdf_pick_next(&rq) == &y);
	sl_eevdf_rq_release(&rq);
}

/* The buddy is passed over while not eligible. */
SL_TEST(eevdf_next_buddy_ineligible)
{
	struct sl_eevdf_rq rq;
	struct sl_eevdf_se x, y;
	sl_eevdf_rq_init(&rq, 750000, 1000000);
	rq.pick_buddy = 1;
	sl_eevdf_se_init(&x, 0, 0);
	sl_eevdf_se_init(&y, 1, 0);
	sl_eevdf_enqueue(&rq, &x, 0);
	sl_eevdf_enqueue(&rq, &y, 0);
	/* X runs 0.4 ms: v_X 400000, V = (400000 + 0) / 2 = 200000: X is
	 * not eligible, Y (v 0) is */
	sl_eevdf_set_next(&rq, &x);
	CHECK_EQ_INT(sl_eevdf_update_curr(&rq, 400000), 0);
	rq.next = &x;
	CHECK(!sl_eevdf_vruntime_eligible(&rq, x.vruntime));
	CHECK(sl_eevdf_pick_next(&rq) == &y);
	sl_eevdf_rq_release(&rq);
}

/* One CPU, base slice 0.7 ms (v6.15+: 700 us x (1 + ilog2(1))). A and B
 * (nice 0) appear at 0: A placed at v 0, B at V = 0, both with half a
 * slice (deadline 350000); the pick is A (the earlier insertion). At 1 ms
 * A (v 1000000, past its deadline: a new one at 1700000) loses the CPU to
 * B (v 0, eligible, deadline 350000). B runs to 2.2 ms (v 1200000) and
 * sleeps: V = (1000000 + 1200000) / 2 = 1100000, B is not eligible, so it
 * stays queued, delayed (DELAY_DEQUEUE). A is picked at 2.2 ms (v 1000000,
 * eligible) and holds RUN_TO_PARITY protection to its deadline 1700000.
 * At 2.6 ms B is woken where it is queued:
 * - requeue_stale=1 (the kernel's order): B's lag is weighed against A's
 *   vruntime as of 2.2 ms: V = 1100000, lag -100000 <= 0, so B keeps v
 *   1200000; wakeup_preempt's update_curr then charges A 0.4 ms: v_A =
 *   1400000, V = 1300000: A is not eligible (its protection no longer
 *   counts), B is: B preempts, and is the pick.
 * - requeue_stale=0: A is charged first (v_A 1400000), V = 1300000, B's
 *   lag +100000 > 0: DELAY_ZERO places it afresh at V without it, v_A;
 *   A is eligible (v = V) and protected (1400000 < 1700000): A keeps the
 *   CPU, and the pick is A. */
static int stale_wakeup_pick(long long stale)
{
	const struct sl_policy_ops *ops = &sl_policy_eevdf;
	struct ev_rig g;
	struct sl_enq_info w;
	struct sl_task *a, *b;
	struct sl_task *next;
	int i, pre;
	ev_rig_init(&g, 1, "requeue_stale", stale);
	a = &g.t[0];
	b = &g.t[1];
	memset(&w, 0, sizeof(w));
	w.kind = SL_ENQ_START;
	w.waker = w.waker_cpu = w.src_cpu = -1;
	for (i = 0; i < 2; i++) {
		g.t[i].on_rq = 1;
		g.t[i].state = SL_TS_RUNNABLE;
		ops->enqueue(&g.e, 0, &g.t[i], &w);
	}
	g.cpu[0].nr_running = 2;
	CHECK(ops->pick_next(&g.e, 0, NULL) == a);
	g.cpu[0].curr = a;
	a->state = SL_TS_RUNNING;
	/* 1 ms: A's slice is over; the pick is B */
	g.e.now = 1000000;
	CHECK(ops->pick_next(&g.e, 0, a) == b);
	a->sum_exec_ns = 1000000;
	a->state = SL_TS_RUNNABLE;
	g.cpu[0].curr = b;
	g.cpu[0].charged_to = 1000000;
	b->state = SL_TS_RUNNING;
	/* 2.2 ms: B sleeps, not eligible: delayed; A is picked */
	g.e.now = 2200000;
	ops->dequeue(&g.e, 0, b, 'S');
	CHECK(ev_T(ev_R(&g.e), b)->se.delayed);
	b->on_rq = 0;
	b->state = SL_TS_SLEEPING;
	b->sum_exec_ns = 1200000;
	g.cpu[0].nr_running = 1;
	g.cpu[0].charged_to = 2200000;
	CHECK(ops->pick_next(&g.e, 0, b) == a);
	g.cpu[0].curr = a;
	a->state = SL_TS_RUNNING;
	CHECK_EQ_INT(ev_T(ev_R(&g.e), a)->se.vruntime - ev_T(ev_R(&g.e), b)->se.vruntime, -200000);
	/* 2.6 ms: B is woken (the engine's books first, as rq_add) */
	g.e.now = 2600000;
	b->on_rq = 1;
	b->state = SL_TS_RUNNABLE;
	g.cpu[0].nr_running = 2;
	w.kind = SL_ENQ_WAKE;
	ops->enqueue(&g.e, 0, b, &w);
	CHECK(!ev_T(ev_R(&g.e), b)->se.delayed);
	pre = ops->check_preempt(&g.e, 0, b);
	/* either way A has been charged to 2.6 ms by now */
	CHECK_EQ_INT((int64_t)(ev_T(ev_R(&g.e), a)->se.vruntime - ev_T(ev_R(&g.e), b)->se.vruntime),
		     stale ? 200000 : 0);
	CHECK_EQ_INT(pre, stale ? 1 : 0);
	next = ops->pick_next(&g.e, 0, a);
	i = next ? next->idx : -1;
	sl_engine_release_policy(&g.e);
	return i;
}

SL_TEST(eevdf_requeue_stale)
{
	CHECK_EQ_INT(stale_wakeup_pick(1), 1); /* B */
	CHECK_EQ_INT(stale_wakeup_pick(0), 0); /* A */
}
