/* tests/unit/test_rt_place.c - where eevdf places a woken task: an RT task
 * (woken or forked) by select_task_rq_rt() and find_lowest_rq() (kernel/sched/rt.c, cpupri_find
 * in kernel/sched/cpupri.c, v6.18), sl_eevdf_select_rt. Kernel prios: an
 * RT task of rt_priority N has prio 99 - N (lower is better); a CPU's
 * cpupri is 99 - prio of its best queued RT task, 0 with none. p below is
 * rt_priority 20: prio 79, cpupri level 20. Every expected value is worked
 * out by hand in the comments. The last test: select_idle_sibling's
 * recent_used_cpu for a fair one. */
#include "harness.h"
#include "../../replay/eevdf.h"

#include <string.h>

SL_TEST(eevdf_select_rt_stays_unless_blocked)
{
	int none[2] = { -1, -1 }, fifo10[2] = { 89, -1 };
	/* CPU 0 runs a fair task (cur_prio -1): p preempts it, stays */
	CHECK_EQ_INT(sl_eevdf_select_rt(2, none, -1, 0, 79, 3, 0, 1), 0);
	/* CPU 0 runs an RT task of rt_priority 10 (prio 89 > 79): p preempts
	 * it, stays */
	CHECK_EQ_INT(sl_eevdf_select_rt(2, fifo10, 89, 0, 79, 3, 0, 1), 0);
	/* the same task bound to CPU 0 (nr_cpus_allowed 1): test holds,
	 * CPU 1 (no RT task, level 0 < 20) is the lowest: p goes there */
	CHECK_EQ_INT(sl_eevdf_select_rt(2, fifo10, 89, 1, 79, 3, 0, 1), 1);
}

SL_TEST(eevdf_select_rt_moves_off_a_better_rt_task)
{
	int fifo50[2] = { 49, -1 }, both[2] = { 49, 79 }, eq[2] = { 79, -1 };
	/* CPU 0 runs FIFO 50 (prio 49 <= 79): find_lowest_rq: CPU 1 has no
	 * RT task (level 0 < 20), CPU 0 is at level 50: CPU 1; nothing RT
	 * queued there: taken */
	CHECK_EQ_INT(sl_eevdf_select_rt(2, fifo50, 49, 0, 79, 3, 0, 0), 1);
	/* CPU 1 has an RT task of p's own level (20, not below 20): no lower
	 * CPU, p stays on CPU 0 behind the FIFO 50 task */
	CHECK_EQ_INT(sl_eevdf_select_rt(2, both, 49, 0, 79, 3, 0, 1), 0);
	/* a fork: the parent (rt_priority 20 like its child, prio 79 <= 79)
	 * runs on CPU 0: the child starts on CPU 1 */
	CHECK_EQ_INT(sl_eevdf_select_rt(2, eq, 79, 0, 79, 3, 0, 0), 1);
	/* p may run on CPU 0 only: find_lowest_rq gives up, it stays */
	CHECK_EQ_INT(sl_eevdf_select_rt(2, fifo50, 49, 0, 79, 1, 0, 0), 0);
}

SL_TEST(eevdf_select_rt_lowest_level_and_order)
{
	int four[4] = { 49, 79, -1, -1 }, three[3] = { 49, 89, 59 };
	/* 4 CPUs, p's CPU 0 runs FIFO 50: levels 50, 20, 0, 0: the lowest,
	 * 0, is CPUs 2 and 3. p's CPU is not in it; this_cpu 3 is: 3 */
	CHECK_EQ_INT(sl_eevdf_select_rt(4, four, 49, 0, 79, 15, 0, 3), 3);
	/* this_cpu not known (-1) or not in it (1): the first of it, 2 */
	CHECK_EQ_INT(sl_eevdf_select_rt(4, four, 49, 0, 79, 15, 0, -1), 2);
	CHECK_EQ_INT(sl_eevdf_select_rt(4, four, 49, 0, 79, 15, 0, 1), 2);
	/* CPU 2 not in p's mask (0b1011): CPU 3 */
	CHECK_EQ_INT(sl_eevdf_select_rt(4, four, 49, 0, 79, 11, 0, -1), 3);
	/* every CPU has an RT task: levels 50, 10, 40; below p's 20 only
	 * CPU 1 (rt_priority 10, prio 89): p (79) beats it: CPU 1 */
	CHECK_EQ_INT(sl_eevdf_select_rt(3, three, 49, 0, 79, 7, 0, 2), 1);
}

/* select_idle_sibling's recent_used_cpu (kernel/sched/fair.c, v5.16 and
 * later): read and set to prev only past the idle-target and idle-prev
 * returns. A 2-CPU engine, p (task 0, asleep, any CPU) woken by an
 * interrupt (no waker CPU: this_cpu = prev, no wake_affine, target = prev);
 * task 1 stands on CPU 0 as its running task when that CPU is busy. */
#include "test_eevdf_rig.h"

SL_TEST(eevdf_recent_used_cpu_set_past_idle_returns)
{
	const struct sl_policy_ops *ops = &sl_policy_eevdf;
	struct ev_rig g;
	ev_rig_init(&g, 2, "vcpu_pack", 0);
	CHECK_EQ_INT(sl_eevdf_task_recent(&g.t[0]), -1);
	/* both CPUs idle, prev 1: the idle target (1) ends it; recent untouched */
	CHECK_EQ_INT(ops->select_cpu(&g.e, &g.t[0], 1, -1, SL_WF_TTWU), 1);
	CHECK_EQ_INT(sl_eevdf_task_recent(&g.t[0]), -1);
	/* CPU 0 busy, prev 0: target 0 busy, no recent CPU (-1), recent := 0;
	 * select_idle_cpu with no utilisation (nr_idle_scan 2) finds CPU 1 */
	g.cpu[0].curr = &g.t[1];
	g.cpu[0].nr_running = 1;
	g.t[1].state = SL_TS_RUNNING;
	CHECK_EQ_INT(ops->select_cpu(&g.e, &g.t[0], 0, -1, SL_WF_TTWU), 1);
	CHECK_EQ_INT(sl_eevdf_task_recent(&g.t[0]), 0);
	/* both idle again, prev 1: the idle target ends it; recent stays 0
	 * (setting it at every wakeup, as before, made it 1) */
	g.cpu[0].curr = NULL;
	g.cpu[0].nr_running = 0;
	CHECK_EQ_INT(ops->select_cpu(&g.e, &g.t[0], 1, -1, SL_WF_TTWU), 1);
	CHECK_EQ_INT(sl_eevdf_task_recent(&g.t[0]), 0);
	sl_engine_release_policy(&g.e);
}

/* vcpu_pack_room() of sched_vcpu_pack (docs/eevdf.md "vCPU packing"), by
 * hand: room is allowed, no RT task, at most local + 1 fair tasks, and
 * util * 100 < 70 * capacity (716.8 of 1024: 716 has room, 717 not) */
SL_TEST(eevdf_pack_room_by_hand)
{
	CHECK_EQ_INT(sl_eevdf_pack_room(1, 0, 1, 0, 716, 1024), 1);
	CHECK_EQ_INT(sl_eevdf_pack_room(1, 0, 1, 0, 717, 1024), 0);
	CHECK_EQ_INT(sl_eevdf_pack_room(0, 0, 1, 0, 0, 1024), 0);   /* not allowed */
	CHECK_EQ_INT(sl_eevdf_pack_room(1, 1, 0, 0, 0, 1024), 0);   /* an RT task there */
	CHECK_EQ_INT(sl_eevdf_pack_room(1, 0, 2, 0, 0, 1024), 0);   /* two fair tasks */
	CHECK_EQ_INT(sl_eevdf_pack_room(1, 0, 2, 1, 0, 1024), 1);   /* two, one of them the task */
	CHECK_EQ_INT(sl_eevdf_pack_room(1, 0, 3, 1, 0, 1024), 0);
}

/* A wakeup by task 1, running alone on CPU 0, of p (task 0, asleep, last
 * on CPU 1, which is idle), no utilisation anywhere. Mainline: wake_affine
 * finds prev idle (wake_affine_idle), select_idle_sibling takes it: 1.
 * vcpu_pack 4: prev is idle (skipped); the waker's CPU has room (one fair
 * task, none RT, 0 % used): 0, the idle vCPU left asleep. With a second
 * runnable task on CPU 0 there is no room anywhere busy: mainline's 1. */
SL_TEST(eevdf_pack_wakeup_keeps_the_idle_vcpu_asleep)
{
	const struct sl_policy_ops *ops = &sl_policy_eevdf;
	long long pack;
	for (pack = 0; pack <= 4; pack += 4) {
		struct ev_rig g;
		ev_rig_init(&g, 2, "vcpu_pack", pack);
		g.t[0].cpu = 1;
		g.cpu[0].curr = &g.t[1];
		g.cpu[0].nr_running = 1;
		g.t[1].cpu = 0;
		g.t[1].state = SL_TS_RUNNING;
		CHECK_EQ_INT(ops->select_cpu(&g.e, &g.t[0], 1, 0, SL_WF_TTWU), pack ? 0 : 1);
		g.cpu[0].nr_running = 2;
		CHECK_EQ_INT(ops->select_cpu(&g.e, &g.t[0], 1, 0, SL_WF_TTWU), 1);
		sl_engine_release_policy(&g.e);
	}
}

/* Wakees on their way (docs/replay.md "Kernel overheads"): a CPU with one
 * is not idle (rq->ttwu_pending, idle_cpu()), and for sched_vcpu_pack's
 * room one sent to it while idle is a pending wakeup (no room) and one sent
 * while busy is a queued fair task. The rigs of the two tests above: */
SL_TEST(eevdf_wakee_on_its_way_in_idle_and_room)
{
	const struct sl_policy_ops *ops = &sl_policy_eevdf;
	struct ev_rig g;
	/* mainline, p (prev 0) woken by an interrupt, CPU 0 busy: with CPU 1
	 * idle select_idle_cpu takes it (the first test: 1); with a wakee on
	 * its way there nothing is idle and the target, 0, stays */
	ev_rig_init(&g, 2, "vcpu_pack", 0);
	g.cpu[0].curr = &g.t[1];
	g.cpu[0].nr_running = 1;
	g.t[1].state = SL_TS_RUNNING;
	g.cpu[1].wake_pending = 1;
	CHECK_EQ_INT(ops->select_cpu(&g.e, &g.t[0], 0, -1, SL_WF_TTWU), 0);
	sl_engine_release_policy(&g.e);
	/* vcpu_pack 4, the third test's wakeup (by task 1 on CPU 0, p last on
	 * idle CPU 1): CPU 0 had room (0); a wakee queued on its way there
	 * makes two fair tasks (no room), a pending one is no room either:
	 * mainline's idle prev, 1 */
	ev_rig_init(&g, 2, "vcpu_pack", 4);
	g.t[0].cpu = 1;
	g.cpu[0].curr = &g.t[1];
	g.cpu[0].nr_running = 1;
	g.t[1].cpu = 0;
	g.t[1].state = SL_TS_RUNNING;
	g.cpu[0].wake_queued = 1;
	CHECK_EQ_INT(ops->select_cpu(&g.e, &g.t[0], 1, 0, SL_WF_TTWU), 1);
	g.cpu[0].wake_queued = 0;
	g.cpu[0].wake_pending = 1;
	CHECK_EQ_INT(ops->select_cpu(&g.e, &g.t[0], 1, 0, SL_WF_TTWU), 1);
	g.cpu[0].wake_pending = 0;
	CHECK_EQ_INT(ops->select_cpu(&g.e, &g.t[0], 1, 0, SL_WF_TTWU), 0);
	sl_engine_release_policy(&g.e);
}
