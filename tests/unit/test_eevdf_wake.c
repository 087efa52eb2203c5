/* tests/unit/test_eevdf_wake.c - the EEVDF model's wakeup and balancing
 * rules worked by hand (split from test_eevdf.c): sync wakeups by exiting
 * tasks, the start averages of tasks older than the trace, detach_tasks'
 * load rule, the nohz kick, the wakeup of a delayed task, and delayed tasks
 * in the balancer (counted in nr_running, moved by migrate_load). */
#include "harness.h"
#include "../../replay/eevdf_priv.h"
#include "test_o1.h"
#include "test_engine_util.h"
#include "test_eevdf_rig.h"
#include "../../replay/eevdf.h"

#include <stdlib.h>
#include <string.h>

/* A sync wakeup by an exiting task is not sync (select_task_rq_fair, v6.6:
 * WF_SYNC && !(current->flags & PF_EXITING)). 2 CPUs, HZ 1000, causal.
 * Tasks appear at 0 in index order: hog H (0) on CPU 0 (both empty: the
 * lowest), W (1) on CPU 1 (fewest tasks), hog G (2) pinned to CPU 1, R (3)
 * asleep from the start (its CPU the first allowed, 0). W's 10 ms burst
 * ends in a sleep or an exit; it wakes R at 9.995 ms of its CPU time, 5 us
 * before: sync by the inference rule (docs/replay.md). At the wakeup W runs
 * on CPU 1 beside G; CPU 0 runs H; no CPU is idle, so wake_affine_idle
 * decides nothing (CPU 1 has 2 tasks) and wake_affine_weight does: PELT
 * loads of always-runnable nice-0 tasks stay at their full 1024 (a new
 * task starts with its full weight), so cpu_load(1) = 2048, cpu_load(0) =
 * 1024, task_h_load(W) = 1024 * 2048 / 2049 = 1023; R was never queued,
 * so its load is 0.
 * - W sleeps (sync): (2048 - 1023 + 0) * 100 = 102500 < (1024 - 0) * 108
 *   + 1 = 110593: R goes to W's CPU 1 (select_idle_sibling finds no idle
 *   CPU and keeps the target).
 * - W exits (sync dropped): 2048 * 100 = 204800 > 110592: R stays on its
 *   previous CPU 0. */
static int exit_sync_run(char w_end, struct trec *r, struct sl_replay_stats *st)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_task_spec *t;
	int rc;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	add_hog(&b, "H", 0, 0);
	t = add_task(&b, "W", 0, 0);
	add_phase(t, 10 * MS, w_end, w_end == 'S' ? 50 * MS : 0, SL_WAKER_IRQ, -1, 0);
	if (w_end == 'S')
		add_phase(t, 1 * MS, 'E', 0, 0, -1, 0);
	t = add_hog(&b, "G", 0, 0);
	t->cpumask = 2;
	t = add_task(&b, "R", 0, 0);
	t->initially_runnable = 0;
	add_phase(t, 0, 'S', 9995000, SL_WAKER_TASK, 1, 9995000);
	add_phase(t, 1 * MS, 'E', 0, 0, -1, 0);
	sl_replay_opts_init(&o);
	o.cpus = 2;
	o.mode = SL_MODE_CAUSAL;
	o.duration_ns = 40 * MS;
	rc = trun_opts(&b, "eevdf", &o, r, st);
	sl_behaviour_release(&b);
	return rc;
}

SL_TEST(eevdf_exiting_waker_not_sync)
{
	struct trec r;
	struct sl_replay_stats st;
	size_t i;
	int k, cpu;
	for (k = 0; k < 2; k++) {
		CHECK_EQ_INT(exit_sync_run(k ? 'X' : 'S', &r, &st), 0);
		CHECK_EQ_INT(st.sync_wakeups, 1); /* inferred either way */
		for (cpu = -1, i = 0; i < r.ns && cpu < 0; i++)
			if (r.s[i].task == 3)
				cpu = r.s[i].cpu;
		CHECK_EQ_INT(cpu, k ? 0 : 1);
		trec_free(&r);
	}
}

/* The averages a task older than the trace starts with (eevdf.h,
 * sl_eevdf_start_share): 1024 * run / (run + sleep) over its first 128 ms.
 * - 1 ms runs and 9 ms sleeps, 20 of them: the loop stops once 128 ms are
 *   counted, after the 13th phase (130 ms): 13 ms of 130, 1024 * 13 / 130
 *   = 102 (102.4): a nice -10 task (9548) starts at load 9548 * 102 / 1024
 *   = 951, not 9548;
 * - a task that never sleeps (SL_INF): 1024;
 * - 30 ms then exit: 30 of 30, 1024 (the exit is not a sleep);
 * - the same task forked in the trace: -1 (init_entity_runnable_average's
 *   full weight, kernel/sched/fair.c, v6.18). */
SL_TEST(eevdf_start_share)
{
	struct sl_behaviour b;
	struct sl_task_spec *t;
	int i;
	memset(&b, 0, sizeof(b));
	t = add_task(&b, "tick", -10, 0);
	for (i = 0; i < 20; i++)
		add_phase(t, TMS, SL_END_SLEEP_S, 9 * TMS, SL_WAKER_IRQ, -1, 0);
	t->flags |= SL_TASK_AT_START;
	CHECK_EQ_INT(sl_eevdf_start_share(t), 102);
	t = add_task(&b, "hog", 0, 0);
	add_phase(t, SL_INF, SL_END_EXIT, 0, SL_WAKER_NONE, -1, 0);
	t->flags |= SL_TASK_AT_START;
	CHECK_EQ_INT(sl_eevdf_start_share(t), 1024);
	t = add_task(&b, "short", 0, 0);
	add_phase(t, 30 * TMS, SL_END_EXIT, 0, SL_WAKER_NONE, -1, 0);
	t->flags |= SL_TASK_AT_START;
	CHECK_EQ_INT(sl_eevdf_start_share(t), 1024);
	t->flags = SL_TASK_FORKED;
	CHECK_EQ_INT(sl_eevdf_start_share(t), -1);
	/* a task first seen at a wakeup 64 ms in (no fork in the trace, not
	 * flagged at-start: the agent's tokio-rt-worker, nice -10, in
	 * corpus recordings): asleep for those 64 ms, then 4 ms of work
	 * and 60 ms asleep: 1024 * 4 / (64 + 4 + 60) = 32; before, the
	 * fork's full weight (share -1: load_avg 9548) */
	t = add_task(&b, "agent", -10, 0);
	t->start_ns = 64 * TMS;
	add_phase(t, 4 * TMS, SL_END_SLEEP_S, 60 * TMS, SL_WAKER_IRQ, -1, 0);
	CHECK_EQ_INT(sl_eevdf_start_share(t), 32);
	/* one first seen after the history window: asleep through it, 0 */
	t->start_ns = 200 * TMS;
	CHECK_EQ_INT(sl_eevdf_start_share(t), 0);
	sl_behaviour_release(&b);
}

/* detach_tasks()'s load rule for migrate_load (kernel/sched/fair.c,
 * v6.18), by hand: a task fits when its load, shifted right by the failed
 * balances, is at most the imbalance left. LB_MIN is off by default
 * (SCHED_FEAT(LB_MIN, false), kernel/sched/features.h), so a load under 16
 * is taken on a first try (the model skipped it until 2026-12-07). */
SL_TEST(eevdf_detach_load_fits_without_lb_min)
{
	CHECK_EQ_INT(sl_eevdf_detach_load_fits(10, 0, 100), 1);  /* under 16, taken */
	CHECK_EQ_INT(sl_eevdf_detach_load_fits(0, 0, 1), 1);     /* at least 1: 1 <= 1 */
	CHECK_EQ_INT(sl_eevdf_detach_load_fits(0, 0, 0), 0);     /* 1 > 0 */
	CHECK_EQ_INT(sl_eevdf_detach_load_fits(200, 0, 100), 0); /* too heavy */
	CHECK_EQ_INT(sl_eevdf_detach_load_fits(200, 1, 100), 1); /* 200 >> 1 = 100 */
	CHECK_EQ_INT(sl_eevdf_detach_load_fits(201, 1, 100), 1); /* 201 >> 1 = 100 */
	CHECK_EQ_INT(sl_eevdf_detach_load_fits(203, 1, 100), 0); /* 203 >> 1 = 101 */
}


/* nohz_balancer_kick()'s rule (kernel/sched/fair.c, v6.18; CONFIG_NO_HZ_IDLE:
 * an idle CPU's tick is stopped and it balances only when a busy CPU's tick
 * kicks it), by hand: no idle CPU, nothing to kick (nohz.nr_cpus == 0); a
 * busy CPU with two tasks or more kicks (NOHZ_BALANCE_KICK: rq->nr_running
 * >= 2); one with a single task kicks only when more than one CPU of the
 * LLC is busy (sds->nr_busy_cpus > 1): on 2 CPUs, one busy with one task
 * and one idle, the idle one is never balanced, since it could pull
 * nothing anyway (that task runs), and its SIS_UTIL scan depth is not
 * refreshed by it. */
SL_TEST(eevdf_nohz_kick_rule)
{
	CHECK_EQ_INT(sl_eevdf_nohz_kick(1, 1, 1), 0); /* 2 CPUs: one task, one idle CPU */
	CHECK_EQ_INT(sl_eevdf_nohz_kick(2, 1, 1), 1); /* a task waits: kick */
	CHECK_EQ_INT(sl_eevdf_nohz_kick(5, 2, 0), 0); /* no CPU idle */
	CHECK_EQ_INT(sl_eevdf_nohz_kick(1, 2, 1), 1); /* 3 CPUs: two busy, one idle */
	CHECK_EQ_INT(sl_eevdf_nohz_kick(0, 0, 2), 0); /* all idle (no busy tick kicks) */
}

/* A task woken while still queued, delayed (DELAY_DEQUEUE), is woken where
 * it is: try_to_wake_up() -> ttwu_runnable() requeues it on its CPU before
 * select_task_rq() is reached (kernel/sched/core.c, v6.18). 2 CPUs, HZ
 * 1000, base slice 1.4 ms. H (nice -5, 3121) pinned to CPU 0, J (nice -5)
 * pinned to CPU 1 until it exits at 1.6 ms, D (nice 0, 1024) placed on CPU
 * 0 (equal loads: the first). H runs 0-1 ms: vH = 1 ms * 1024 / 3121 =
 * 0.328 ms. At the 1 ms tick D (v 0, its first deadline half a slice away,
 * 0.7 ms) is eligible and the earlier deadline: it runs 1-1.5 ms and
 * sleeps at vD = 0.5 ms, beyond V = (3121 * 0.328 + 1024 * 0.5) / 4145 =
 * 0.37 ms: not eligible, so it stays queued, delayed. H runs on. D's
 * interrupt wakeup at 1.7 ms (on CPU 0): D would be eligible only once vH
 * reaches 0.5 ms (about 2.02 ms), so it is still delayed, and requeued on
 * CPU 0 although CPU 1 has been idle since 1.6 ms. At the 2 ms tick CPU 0
 * holds two tasks, so it kicks the idle CPU 1 (nohz), whose balance pulls
 * D (last ran 0.5 ms ago: not cache-hot): D runs at 2 ms on CPU 1. Before
 * (select_task_rq for a delayed task too) select_idle_sibling sent it to
 * the idle CPU 1 at 1.7 ms. */
SL_TEST(eevdf_delayed_task_wakes_where_it_is_queued)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_task_spec *t;
	struct trec r;
	size_t i, n = 0;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	t = add_hog(&b, "H", -5, 0);
	t->cpumask = 1;
	t = add_task(&b, "J", -5, 0);
	add_phase(t, 1600000, 'X', 0, 0, -1, 0);
	t->cpumask = 2;
	t = add_task(&b, "D", 0, 0);
	add_phase(t, 500000, 'S', 200000, SL_WAKER_IRQ, -1, 0);
	t->phases[0].wake_cpu1 = 1;
	add_phase(t, 1 * MS, 'E', 0, 0, -1, 0);
	sl_replay_opts_init(&o);
	o.cpus = 2;
	o.mode = SL_MODE_CAUSAL;
	o.duration_ns = 10 * MS;
	CHECK_EQ_INT(trun_opts(&b, "eevdf", &o, &r, NULL), 0);
	for (i = 0; i < r.ns; i++) {
		if (r.s[i].task != 2)
			continue;
		if (n == 0) {
			CHECK_EQ_INT(r.s[i].ts, 1000000);
			CHECK_EQ_INT(r.s[i].dur, 500000);
			CHECK_EQ_INT(r.s[i].cpu, 0);
		} else {
			CHECK_EQ_INT(r.s[i].ts, 2000000);
			CHECK_EQ_INT(r.s[i].cpu, 1);
		}
		n++;
	}
	CHECK_EQ_INT(n, 2);
	CHECK_EQ_INT(r.nw, 1);
	CHECK_EQ_INT(r.w[0].ts, 1700000);
	CHECK_EQ_INT(r.w[0].ts_run, 2000000);
	trec_free(&r);
	sl_behaviour_release(&b);
}

/* can_migrate_task()'s first gate, v6.12 and later: "delayed dequeued
 * unless we migrate load" (a delayed task goes only with migrate_load); any
 * other task only while runnable (not asleep, not running). */
SL_TEST(eevdf_may_detach_rule)
{
	CHECK_EQ_INT(sl_eevdf_may_detach(1, 0, 0), 0); /* delayed, migrate_task */
	CHECK_EQ_INT(sl_eevdf_may_detach(1, 0, 1), 1); /* delayed, migrate_load */
	CHECK_EQ_INT(sl_eevdf_may_detach(0, 1, 0), 1); /* runnable */
	CHECK_EQ_INT(sl_eevdf_may_detach(0, 1, 1), 1);
	CHECK_EQ_INT(sl_eevdf_may_detach(0, 0, 1), 0); /* asleep, not queued */
}

/* A delayed task counts in rq->nr_running (the balancer reads it) and a
 * load balance may move it: it stays delayed on its new CPU and is woken
 * there. The rig (2 CPUs, nice 0, 0.75 ms normalized slice): A and B start
 * on CPU 0 at V = 0 and A runs; at 3 ms A's vruntime is 3e6, B's 0, and B
 * is picked (A is no longer eligible). B runs 3.5 ms and sleeps at 6.5 ms:
 * vB = 3.5e6 against V = (3e6 + 3.5e6) / 2 = 3.25e6, not eligible, so it
 * stays queued, delayed; CPU 0's nr_running is 2 (A and B) for the 1 the
 * engine counts. Moved to CPU 1 it leaves with its lag V - vB = -250000,
 * which place_entity ignores on an empty queue (PLACE_LAG applies only
 * with cfs_rq->nr_queued): it is placed at CPU 1's V, its min_vruntime 0
 * (that queue has never run), delayed; CPU 0 has one task again. Its
 * wakeup picks CPU 1, where it is queued (ttwu_runnable), and requeues it
 * there: no longer delayed, still at 0 (alone, its lag is 0: DELAY_ZERO
 * leaves it). */
SL_TEST(eevdf_delayed_task_counts_and_moves)
{
	const struct sl_policy_ops *ops = &sl_policy_eevdf;
	struct sl_enq_info w;
	struct ev_rig g;
	struct ev_run *r;
	struct sl_eevdf_se *b;
	ev_rig_two_on_cpu0(&g, 2, &w);
	CHECK(ops->pick_next(&g.e, 0, &g.t[0]) == &g.t[1]);
	g.t[0].sum_exec_ns = 3000000; /* the engine's account() at the switch */
	g.cpu[0].charged_to = 3000000;
	g.cpu[0].curr = &g.t[1];
	g.t[0].state = SL_TS_RUNNABLE;
	g.t[1].state = SL_TS_RUNNING;
	/* B sleeps at 6.5 ms (the engine's leave()) */
	g.e.now = 6500000;
	g.t[1].sum_exec_ns = 3500000;
	g.cpu[0].charged_to = 6500000;
	ops->dequeue(&g.e, 0, &g.t[1], 'S');
	g.t[1].on_rq = 0;
	g.t[1].state = SL_TS_SLEEPING;
	g.cpu[0].nr_running = 1;
	CHECK(ops->pick_next(&g.e, 0, &g.t[1]) == &g.t[0]);
	g.cpu[0].curr = &g.t[0];
	g.t[0].state = SL_TS_RUNNING;
	r = ev_R(&g.e);
	b = &ev_T(r, &g.t[1])->se;
	CHECK_EQ_INT(b->delayed, 1);
	CHECK_EQ_INT((int64_t)b->vruntime, 3500000);
	CHECK_EQ_INT(r->rq[0].nr_delayed, 1);
	CHECK_EQ_INT(ev_nr_running(&g.e, &r->rq[0], 0), 2);
	ev_move_delayed(r, 0, 1, b);
	CHECK_EQ_INT(b->on_rq, 1);
	CHECK_EQ_INT(b->delayed, 1);
	CHECK_EQ_INT(g.t[1].cpu, 1);
	CHECK_EQ_INT(r->rq[0].nr_delayed, 0);
	CHECK_EQ_INT(r->rq[1].nr_delayed, 1);
	CHECK_EQ_INT(r->rq[0].cfs.nr_running, 1);
	CHECK_EQ_INT(r->rq[1].cfs.nr_running, 1);
	CHECK_EQ_INT((int64_t)b->vruntime, 0);
	CHECK_EQ_INT(ops->select_cpu(&g.e, &g.t[1], 1, -1, SL_WF_TTWU), 1);
	w.kind = SL_ENQ_WAKE;
	g.t[1].on_rq = 1;
	g.t[1].state = SL_TS_RUNNABLE;
	ops->enqueue(&g.e, 1, &g.t[1], &w);
	CHECK_EQ_INT(b->delayed, 0);
	CHECK_EQ_INT(r->rq[1].nr_delayed, 0);
	CHECK_EQ_INT((int64_t)b->vruntime, 0);
	sl_engine_release_policy(&g.e);
}
