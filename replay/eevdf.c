/* replay/eevdf.c - Linux's EEVDF fair class (kernel/sched/fair.c, v6.6 and
 * later) as a replay policy (`--sched eevdf`): sched_prio_to_weight,
 * vruntime, the load-weighted average vruntime V kept relative to
 * min_vruntime, lag kept across sleep and migration and re-placed on
 * wakeup (PLACE_LAG, with the (W + w) / W inflation), virtual deadlines
 * vruntime + slice / w, the pick of the eligible entity with the earliest
 * deadline, RUN_TO_PARITY, wakeup preemption through the pick, slice
 * expiry at the tick, new tasks with half a slice (PLACE_DEADLINE_INITIAL),
 * yield, nice changes; SCHED_FIFO / SCHED_RR above it (kernel/sched/rt.c).
 * Task groups in two levels: a group's entity in the CPU's root queue, its
 * tasks in the group's queue there (eevdf_group.c). The rules, their kernel functions and every
 * simplification are in docs/eevdf.md. The arithmetic of one runqueue
 * (vruntime, V, lag, deadlines, the pick) is replay/eevdf_rq.c. */
#include "eevdf_priv.h"
#include "fair_weights.h"

#include <stdlib.h>
#include <string.h>



static const struct sl_policy_param eevdf_params[] = {
	[EV_P_BASE_SLICE_US] = { "base_slice_us", 0, 0, 1000000,
		"sysctl_sched_base_slice in us; 0 (default): slice_norm_us * (1 + ilog2(min(cpus, 8))) as "
		"the kernel scales it at boot (SCHED_TUNABLESCALING_LOG)" },
	[EV_P_RUN_TO_PARITY] = SL_PARAM_FLAG("run_to_parity", 1,
		"sched_feat(RUN_TO_PARITY): the running task keeps the CPU while eligible until its "
		"deadline changes (1, the kernel's default)"),
	[EV_P_PLACE_LAG] = SL_PARAM_FLAG("place_lag", 1,
		"sched_feat(PLACE_LAG): a woken or moved task keeps its lag (1); 0: placed at V"),
	[EV_P_DEADLINE_INITIAL] = SL_PARAM_FLAG("deadline_initial", 1,
		"sched_feat(PLACE_DEADLINE_INITIAL): a new task's first deadline is half a slice away (1)"),
	[EV_P_WAKEUP_PREEMPTION] = SL_PARAM_FLAG("wakeup_preemption", 1,
		"sched_feat(WAKEUP_PREEMPTION): a woken task preempts when it is the pick (1)"),
	[EV_P_DELAY_DEQUEUE] = SL_PARAM_FLAG("delay_dequeue", 1,
		"sched_feat(DELAY_DEQUEUE) + DELAY_ZERO (v6.12+): a task that sleeps while not eligible "
		"stays queued until picked or woken, its positive lag then dropped (1); 0: v6.6"),
	[EV_P_REL_DEADLINE] = SL_PARAM_FLAG("rel_deadline", 1,
		"sched_feat(PLACE_REL_DEADLINE) (v6.12+): a migrated task keeps the rest of its "
		"request (1); 0: v6.6, a new full request"),
	[EV_P_SELECT_IDLE] = SL_PARAM_FLAG("select_idle", 1,
		"select_task_rq_fair's wakeup placement: wake_affine, then select_idle_sibling (an idle "
		"CPU of the one LLC) (1); 0: the shared 2.6.20 wake-affine rule"),
	[EV_P_BALANCE] = SL_PARAM_FLAG("balance", 1,
		"6.x load tracking and balancing (PELT loads in wake_affine_weight, wake_wide, fork "
		"balancing, newidle and periodic load_balance) (1); 0: the shared 2.6.20 balancing"),
	[EV_P_SLICE_NORM_US] = { "slice_norm_us", 700, 1, 100000,
		"normalized_sysctl_sched_base_slice in us before the CPU scaling: 700 (v6.15 and later, "
		"the default); 750 for v6.6 to v6.14 (validate sets it from the trace's release)" },
	[EV_P_YIELD_FORFEIT] = SL_PARAM_FLAG("yield_forfeit", 1,
		"sched_yield of an eligible task forfeits the rest of its request: vruntime = deadline, "
		"then deadline += slice (v6.18, the default); 0: only the deadline moves (v6.6 to v6.17)"),
	[EV_P_CLOCK_POLLS] = SL_PARAM_FLAG("clock_polls", 1,
		"a task the behaviour marks as reading its own CPU clock (its recorded slices end off "
		"the tick) runs update_curr at every read, so it is cut when the pick would change (1, "
		"task_sched_runtime); 0: like any other, at the next tick or wakeup"),
	[EV_P_NI_RANDOM] = SL_PARAM_FLAG("ni_random", 1,
		"sched_feat(NI_RANDOM) (v6.18.5+, v6.12.65+, v7.0): newidle balancing runs with the "
		"probability of its recent success (1 + newidle_ratio in 1024) (1); 0: at every newly "
		"idle CPU of an overloaded root domain"),
	[EV_P_RESCHED_LAPSED] = SL_PARAM_FLAG("resched_lapsed", 1,
		"v6.18 update_curr asks for a pick whenever curr's RUN_TO_PARITY protection has lapsed, "
		"not only when its slice runs out (1); 0: on the slice alone (validate sets it from "
		"the trace's release)"),
	[EV_P_LAG_CLAMP] = SL_PARAM_FLAG("lag_clamp", 1,
		"the lag a task keeps is clamped to calc_delta_fair(max_slice + TICK_NSEC) (1: v7.0, and "
		"this machine's 6.18.44); 0: to calc_delta_fair(max(2 * slice, TICK_NSEC)) (v6.6)"),
	[EV_P_SIS_UTIL] = SL_PARAM_FLAG("sis_util", 1,
		"sched_feat(SIS_UTIL) (v5.19+): select_idle_cpu looks at most at nr_idle_scan CPUs for "
		"an idle one, set at each periodic balance to cpus * (1 - (util / 0.85)^2) of the "
		"LLC's utilisation: none on a busy machine (1); 0: at every CPU"),
	[EV_P_WIDE_START] = SL_PARAM_FLAG("wide_start", 1,
		"a task the behaviour marks wide (its interrupt wakeups from the other busy CPU stayed "
		"where it slept) starts with wakee_flips = the LLC's size, as the kernel's frozen "
		"count of a task that wakes no one (1); 0: every task starts at 0"),
	[EV_P_UTIL_EST] = SL_PARAM_FLAG("util_est", 1,
		"sched_feat(UTIL_EST): a CPU's utilisation is the larger of its average and the sum of "
		"its queued tasks' estimates (the EWMA of each one's utilisation at its sleeps), for "
		"SIS_UTIL and the group classes (1); 0: the average alone"),
	[EV_P_FORK_FLIPS] = SL_PARAM_FLAG("fork_flips", 0,
		"a forked task starts with its parent's wakee_flips, as dup_task_struct copies them "
		"(1: measured on this machine's kernel, but the corpus validates worse with it: "
		"docs/model.md \"Wide wakees\"); 0 (the default): at 0"),
	[EV_P_VCPU_PACK] = { "vcpu_pack", 0, 0, 15,
		"the recording kernel's sched_vcpu_pack bits (a patch of this machine's 6.18-fc kernels, "
		"not mainline; they boot with 15; validate --vcpu-pack ledger takes it from the recording's ledger): "
		"1 an interrupt's wakeup on an idle CPU stays there, 2 a sync wakeup takes the waker's CPU "
		"with room, 4 a wakeup takes a busy CPU with room (its own, the waker's, the first), 8 a "
		"fork or exec stays with room; room: no RT task, no other runnable fair task, the "
		"utilisation with the task under 70 % (docs/eevdf.md \"vCPU packing\"); 0 (the "
		"default): mainline" },
	[EV_P_NOHZ] = SL_PARAM_FLAG("nohz", 1,
		"CONFIG_NO_HZ_IDLE: an idle CPU's tick is stopped, so it balances only when a busy CPU's "
		"tick kicks it (nohz_balancer_kick: that CPU has two tasks or more, or more than one CPU is "
		"busy), and its periodic balance does not refresh SIS_UTIL's scan depth on its own (1); "
		"0: idle CPUs tick and balance at their idle interval"),
	[EV_P_GROUP_BUDDY] = SL_PARAM_FLAG("group_buddy", 0,
		"a task of a group that sleeps while its group keeps entities queued on its CPU makes the "
		"group's entity the root's next buddy (dequeue_entities: set_next_buddy, no sched_feat "
		"guards it), and the root's pick takes the buddy while it is eligible (PICK_BUDDY, on); "
		"the buddy goes when that entity is dequeued or set to run afresh (1: the recording "
		"kernel's rule, measured live, but the corpus validates worse with it: docs/validate.md "
		"\"Group buddies and stale requeues\"); 0 (the default): the plain EEVDF pick"),
	[EV_P_REQUEUE_STALE] = SL_PARAM_FLAG("requeue_stale", 0,
		"a delayed task woken where it is queued is put back (requeue_delayed_entity: its lag, "
		"DELAY_ZERO) against the running task's vruntime as of that task's last update_curr, "
		"which wakeup_preempt brings up to date only afterwards (1: the kernel's order, v6.12+; "
		"the corpus validates worse with it: docs/validate.md \"Group buddies and stale "
		"requeues\"); 0 (the default): the running task brought up to date first"),
	[EV_P_FORK_PREEMPT] = SL_PARAM_FLAG("fork_preempt", 0,
		"a new fair task preempts the running fair task of its CPU when it is the pick "
		"(wakeup_preempt(WF_FORK) up to v6.18) (1); 0 (the default: v6.19's check_preempt_"
		"wakeup_fair returns for WF_FORK after update_curr, and this machine's 6.18.44 does, "
		"measured: docs/eevdf.md \"Forks do not preempt\"): only a lapsed slice or protection "
		"reschedules"),
	[EV_P_START_PELT] = SL_PARAM_FLAG("start_pelt", 1, "tasks and CPUs start from the kernel's load "
		"tracking in the ledger (version 5) (1); 0: a task's first 128 ms (docs/eevdf.md)"),
	[EV_P_UE_SEEN] = SL_PARAM_FLAG("util_est_seen", 1,
		"util_est_update reads the task's utilisation as its last update_load_avg (enqueue, pick, "
		"tick, preemption) left it and skips a sleep when no PELT period ended since its last "
		"one (UTIL_AVG_UNCHANGED), as v6.12-v6.18's dequeue_task_fair calls it before "
		"dequeue_entities (1); 0: the utilisation brought up to the sleep"),
	[EV_P_NEWIDLE_COST] = { "newidle_cost_ns", 5000, 0, 1000000,
		"sd->max_newidle_lb_cost, ns: a newly idle CPU balances only when its average idle "
		"period (rq->avg_idle) is at least this (sched_balance_newidle); 5 000, as this machine's "
		"kernel measures it (4.5-5.3 us, bpftrace); 0: always" },
	{ NULL, 0, 0, 0, NULL },
};

/* ---- the policy ---- */

static struct ev_run *R(struct sl_engine *e)
{
	return ev_R(e);
}

static struct ev_task *T(struct ev_run *r, const struct sl_task *et)
{
	return ev_T(r, et);
}

static struct sl_task *task_of(struct ev_run *r, const struct sl_eevdf_se *se)
{
	return ev_task_of(r, se);
}

/* ---- the RT class (kernel/sched/rt.c) is rt.h's, on rq->rtq ---- */

#define LINKS(r) SL_PRIO_LINKS((r)->t)

/* ---- the fair class on the engine's CPUs ---- */

/* The CPU time of et up to now, including a slice in progress. */
static uint64_t exec_now(const struct sl_engine *e, const struct sl_task *et)
{
	const struct sl_cpu *c = &e->cpus[et->cpu];
	if (c->curr == et && e->now > c->charged_to)
		return et->sum_exec_ns + (e->now - c->charged_to);
	return et->sum_exec_ns;
}

/* update_curr() of cpu's fair runqueue from the engine's CPU time. */
int ev_rq_update_curr(struct ev_run *r, int cpu)
{
	struct sl_eevdf_rq *cfs = &r->rq[cpu].cfs;
	struct sl_eevdf_se *top = cfs->curr, *se = ev_curr_task(r, cpu);
	uint64_t now, delta;
	int resched = 0;
	/* update_load_avg of the CPU and of curr (PELT, eevdf_smp.c) */
	ev_pelt_update(r, cpu, se ? T(r, task_of(r, se)) : NULL);
	if (!se)
		return 0;
	now = exec_now(r->e, task_of(r, se));
	if (now <= se->exec_seen)
		return 0;
	delta = now - se->exec_seen;
	se->exec_seen = now;
	/* for_each_sched_entity: the task in its group's queue, then the
	 * group's entity at the root, each by its own weight (the same CPU
	 * time: the entity has run while its task ran) */
	if (top != se)
		resched |= sl_eevdf_update_curr(top->my_q, delta);
	resched |= sl_eevdf_update_curr(cfs, delta);
	return resched;
}

/* a vlag row (the chart's data, as the cfs model writes it): se's
 * vruntime - min_vruntime of its queue, now */
static void rec_lag(struct ev_run *r, int cpu, const struct sl_eevdf_se *se)
{
	struct sl_task *et = task_of(r, se);
	sl_engine_vlag(r->e, et, (int64_t)(se->vruntime - ev_cfs(r, T(r, et), cpu)->min_vruntime));
}

/* put_prev_entity of the task level alone (the root's curr when the task
 * is a root task), with a row when it goes back into its queue */
static void put_task(struct ev_run *r, int cpu)
{
	struct sl_eevdf_se *top = r->rq[cpu].cfs.curr, *prev = ev_curr_task(r, cpu);
	if (top && top->my_q)
		sl_eevdf_put_prev(top->my_q);
	else
		sl_eevdf_put_prev(&r->rq[cpu].cfs);
	if (prev && prev->on_rq && !prev->delayed) {
		rec_lag(r, cpu, prev);
		ev_pelt_seen(r, cpu, T(r, task_of(r, prev))); /* put_prev_entity */
	}
}

void ev_put_prev(struct ev_run *r, int cpu)
{
	struct sl_eevdf_se *top = r->rq[cpu].cfs.curr;
	put_task(r, cpu);
	if (top && top->my_q)
		sl_eevdf_put_prev(&r->rq[cpu].cfs);
}

/* set_next_entity of task se in its queue on cpu */
static void set_next(struct ev_run *r, int cpu, struct sl_eevdf_se *se)
{
	struct ev_task *p = T(r, task_of(r, se));
	ev_pelt_seen(r, cpu, p); /* it waited until now */
	rec_lag(r, cpu, se);
	sl_eevdf_set_next(ev_cfs(r, p, cpu), se);
	se->exec_seen = exec_now(r->e, task_of(r, se));
	se->mru = ++r->mru;
}

/* A task that reads its own CPU clock runs update_curr at each read
 * (task_sched_runtime, kernel/sched/core.c), so the kernel notices a
 * used-up slice, or a pick that would choose another entity, within
 * microseconds, not at the next tick. The CPU's timer stands for the read
 * that notices: armed when such a task is curr with others queued, at the
 * horizon sl_eevdf_poll_horizon works out. */
static void poll_arm(struct ev_run *r, int cpu, const struct sl_eevdf_se *se)
{
	struct sl_eevdf_rq *cfs = &r->rq[cpu].cfs;
	uint64_t h, h2;
	if (!se || ev_curr_task(r, cpu) != se || !T(r, task_of(r, se))->poll)
		return;
	/* the first level at which update_curr would ask for a pick */
	h = sl_eevdf_poll_horizon(cfs);
	if (cfs->curr->my_q && (h2 = sl_eevdf_poll_horizon(cfs->curr->my_q)) < h)
		h = h2;
	if (h != UINT64_MAX) /* a read every microsecond at the most */
		sl_engine_timer(r->e, cpu, r->e->now + (h > 1000 ? h : 1000));
}

/* A delayed entity leaves its runqueue for good (dequeue_entities with
 * DEQUEUE_DELAYED): a task, and then its group's entity if the group's
 * queue is left empty; or a group's entity (its queue is empty). */
static void finish_delayed(struct ev_run *r, int cpu, struct sl_eevdf_se *se)
{
	struct sl_eevdf_rq *root = &r->rq[cpu].cfs;
	struct ev_task *p;
	if (se->my_q) {
		if (root->curr == se)
			ev_put_prev(r, cpu);
		if (ev_rq_update_curr(r, cpu))
			sl_engine_resched(r->e, cpu);
		sl_eevdf_finish_delayed(root, se);
		return;
	}
	p = T(r, task_of(r, se));
	r->rq[cpu].nr_delayed--;
	if (ev_curr_task(r, cpu) == se)
		put_task(r, cpu);
	if (ev_rq_update_curr(r, cpu))
		sl_engine_resched(r->e, cpu);
	ev_pelt_seen(r, cpu, p);
	sl_eevdf_finish_delayed(ev_cfs(r, p, cpu), se);
	ev_gse_leave(r, p, cpu);
	ev_group_buddy(r, p, cpu);
	ev_group_sync(r, p);
}

static void fair_enqueue(struct ev_run *r, int cpu, struct ev_task *p, int initial)
{
	/* woken in the same instant it blocked: still curr, no longer queued */
	if (ev_curr_task(r, cpu) == &p->se && !p->se.on_rq)
		ev_put_prev(r, cpu);
	if (ev_rq_update_curr(r, cpu))
		sl_engine_resched(r->e, cpu);
	ev_pelt_enqueue(r, cpu, p);
	ev_util_est_enqueue(r, cpu, p);
	/* enqueue_task_fair: the task in its queue, then its group's entity */
	sl_eevdf_enqueue(ev_cfs(r, p, cpu), &p->se, initial);
	p->se.mru = ++r->mru;
	rec_lag(r, cpu, &p->se);
	ev_gse_enqueue(r, p, cpu);
	ev_group_sync(r, p);
	poll_arm(r, cpu, ev_curr_task(r, cpu));
}

/* check_preempt_wakeup_fair / wakeup_preempt: does p, queued on busy cpu,
 * preempt its running task? */
static int preempts(struct ev_run *r, int cpu, struct ev_task *p)
{
	struct sl_engine *e = r->e;
	struct sl_task *cur = e->cpus[cpu].curr;
	struct sl_eevdf_se *pse;
	struct ev_task *c;
	int rt;
	if (!cur)
		return 1;
	c = T(r, cur);
	if (c == p)
		return 0;
	if ((rt = sl_rt_preempts(&p->rt_se, &c->rt_se)) >= 0)
		return rt;
	if (e->cpus[cpu].need_resched || cur->state != SL_TS_RUNNING)
		return 0;
	/* batch (and idle) tasks do not preempt: the tick does */
	if (p->batch || !r->wakeup_preemption)
		return 0;
	if (ev_rq_update_curr(r, cpu))
		sl_engine_resched(e, cpu);
	/* find_matching_se: in the same group (or both at the root) the two
	 * tasks are compared in their queue; else, at the root, curr's
	 * top-level entity against p's (check_preempt_wakeup_fair,
	 * kernel/sched/fair.c, v6.18), each with the RUN_TO_PARITY
	 * protection it holds. A group's entity loses its own whenever its
	 * share changes (ev_reweight_gse: since v6.17 vprot shares its
	 * storage with vlag, which reweight_entity() -> update_entity_lag()
	 * overwrites; docs/groups.md). */
	if (p->grp == c->grp)
		return sl_eevdf_pick(ev_cfs(r, p, cpu)) == &p->se;
	pse = p->grp >= 0 ? &r->grp[p->grp].gse[cpu] : &p->se;
	return sl_eevdf_pick(&r->rq[cpu].cfs) == pse;
}

static int eevdf_init(struct sl_engine *e)
{
	struct ev_run *r = xcalloc(1, sizeof(*r));
	uint64_t slice;
	int c;
	r->e = e;
	slice = sl_engine_param(e, EV_P_BASE_SLICE_US) ? (uint64_t)sl_engine_param(e, EV_P_BASE_SLICE_US) * 1000
						    : sl_eevdf_base_slice(e->ncpus, (uint64_t)sl_engine_param(e, EV_P_SLICE_NORM_US) * 1000);
	r->rr_ticks = sl_rt_rr_ticks(e->hz); /* RR_TIMESLICE = 100 ms */
	r->wakeup_preemption = (int)sl_engine_param(e, EV_P_WAKEUP_PREEMPTION);
	r->t = xcalloc(e->ntasks ? e->ntasks : 1, sizeof(*r->t));
	r->rq = xcalloc((size_t)e->ncpus, sizeof(*r->rq));
	for (c = 0; c < e->ncpus; c++) {
		struct ev_rq *rq = &r->rq[c];
		sl_eevdf_rq_init(&rq->cfs, slice, e->tick_ns);
		rq->cfs.run_to_parity = (int)sl_engine_param(e, EV_P_RUN_TO_PARITY);
		rq->cfs.place_lag = (int)sl_engine_param(e, EV_P_PLACE_LAG);
		rq->cfs.deadline_initial = (int)sl_engine_param(e, EV_P_DEADLINE_INITIAL);
		rq->cfs.delay_dequeue = (int)sl_engine_param(e, EV_P_DELAY_DEQUEUE);
		rq->cfs.rel_deadline = (int)sl_engine_param(e, EV_P_REL_DEADLINE);
		rq->cfs.yield_forfeit = (int)sl_engine_param(e, EV_P_YIELD_FORFEIT);
		rq->cfs.resched_lapsed = (int)sl_engine_param(e, EV_P_RESCHED_LAPSED);
		rq->cfs.pick_buddy = (int)sl_engine_param(e, EV_P_GROUP_BUDDY);
		rq->cfs.lag_max_slice = (int)sl_engine_param(e, EV_P_LAG_CLAMP);
		sl_prio_init(&rq->rtq);
	}
	sl_engine_set_policy(e, r, r->t, r->rq);
	ev_smp_init(r);
	ev_groups_init(r);
	ev_pelt_start(r);
	return 0;
}

static void eevdf_release(struct sl_engine *e)
{
	struct ev_run *r = R(e);
	int c;
	for (c = 0; c < e->ncpus; c++)
		sl_eevdf_rq_release(&r->rq[c].cfs);
	ev_groups_release(r);
}

static void eevdf_task_init(struct sl_engine *e, struct sl_task *et)
{
	struct ev_run *r = R(e);
	struct ev_task *p = T(r, et);
	memset(p, 0, sizeof(*p));
	sl_eevdf_se_init(&p->se, et->idx, et->nice);
	p->cpu = et->cpu;
	p->link.next = p->link.prev = -1;
	p->recent_cpu = -1;
	p->pelt_cpu = -1;
	p->last_wakee = -1;
	p->ue_cpu = -1;
	p->ue_mark = UINT64_MAX;
	sl_rt_se_init(&p->rt_se, et->sched_policy, et->rt_prio, r->rr_ticks);
	p->rt = p->rt_se.policy;
	if (p->rt) {
		et->prio = p->rt_se.prio; /* kernel prio of an RT task: 99 - rt_priority */
	} else {
		p->batch = et->sched_policy == SL_SCHED_BATCH;
		et->prio = et->static_prio;
	}
	p->poll = (et->flags & SL_TASK_POLLS) && sl_engine_param(e, EV_P_CLOCK_POLLS);
	/* its wakee_flips when the trace began, as the recording shows them:
	 * at least the LLC's size for a task marked wide (docs/model.md "Wide
	 * wakees"; it decays only while the task wakes others), else 0 */
	if ((et->flags & SL_TASK_WIDE) && sl_engine_param(e, EV_P_WIDE_START))
		p->wakee_flips = (unsigned)e->ncpus;
	p->se.slice = r->rq[0].cfs.base_slice;
	p->se.pos = -1;
	p->se.exec_seen = 0;
	et->pol = p;
	ev_group_add(r, p, et->idx);
	/* the SMP layer balances by this: the task's nice weight (also for
	 * RT tasks, whose se.load the kernel sets from static_prio too) */
	et->load_weight = p->se.weight;
}

static void eevdf_enqueue(struct sl_engine *e, int cpu, struct sl_task *et, const struct sl_enq_info *w)
{
	struct ev_run *r = R(e);
	struct ev_task *p = T(r, et);
	if (p->se.delayed) {
		/* woken while still queued (DELAY_DEQUEUE): ttwu_runnable puts
		 * it back in place on its CPU; if the shared SMP layer chose
		 * another CPU it leaves the old one for good first */
		if (p->cpu == cpu) {
			if (!sl_engine_param(e, EV_P_REQUEUE_STALE) && ev_rq_update_curr(r, cpu))
				sl_engine_resched(e, cpu);
			ev_pelt_seen(r, cpu, p);
			ev_util_est_enqueue(r, cpu, p);
			sl_eevdf_requeue_delayed(ev_cfs(r, p, cpu), &p->se);
			r->rq[cpu].nr_delayed--;
			p->se.mru = ++r->mru;
			rec_lag(r, cpu, &p->se);
			ev_group_sync(r, p);
			poll_arm(r, cpu, ev_curr_task(r, cpu));
			return;
		}
		finish_delayed(r, p->cpu, &p->se);
	}
	p->cpu = cpu;
	if (p->rt) {
		sl_rt_enqueue(&r->rq[cpu].rtq, LINKS(r), et->idx, &p->rt_se);
		return;
	}
	/* a task appearing (trace or workload start) joins like a new one:
	 * placed at V with half a slice (ENQUEUE_INITIAL); a wakeup or a move
	 * re-places it with the lag it left with */
	fair_enqueue(r, cpu, p, w->kind == SL_ENQ_START);
	if (w->kind == SL_ENQ_WAKE)
		ev_idle_wakeup(r, cpu);
}

static void eevdf_dequeue(struct sl_engine *e, int cpu, struct sl_task *et, char state)
{
	struct ev_run *r = R(e);
	struct ev_task *p = T(r, et);
	if (p->rt) {
		sl_rt_dequeue(&r->rq[cpu].rtq, LINKS(r), et->idx, &p->rt_se);
		return;
	}
	if (!p->se.on_rq)
		return;
	ev_rq_update_curr(r, cpu);
	ev_pelt_update(r, cpu, p);
	ev_util_est_dequeue(r, p, state == 'S' || state == 'D');
	ev_pelt_mark(p, cpu); /* dequeue_entity's update_load_avg (above) */
	if (state == 'S' || state == 'D') {
		/* delayed: it stays in its queue, and its group's entity too */
		if (!sl_eevdf_dequeue_sleep(ev_cfs(r, p, cpu), &p->se)) {
			ev_gse_leave(r, p, cpu);
			ev_group_buddy(r, p, cpu);
		} else {
			r->rq[cpu].nr_delayed++;
		}
	} else {
		/* exit or the end of its work: its load goes (task_dead_fair) */
		sl_eevdf_dequeue(ev_cfs(r, p, cpu), &p->se);
		ev_gse_leave(r, p, cpu);
		ev_group_buddy(r, p, cpu);
		ev_pelt_detach(r, p);
	}
	ev_group_sync(r, p);
}

static int eevdf_check_preempt(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct ev_run *r = R(e);
	struct ev_task *p = T(r, et);
	const struct sl_task *cur = e->cpus[cpu].curr;
	if (preempts(r, cpu, p))
		return 1;
	/* task_woken_rt(): an RT task that cannot preempt the RT task running
	 * here (as good or better, or bound here) is pushed where it would
	 * run, unless a switch is due here already (push_rt_tasks) */
	if (p->rt && cur && T(r, cur)->rt && !e->cpus[cpu].need_resched && !ev_task_pinned(e, et) &&
	    (ev_task_pinned(e, cur) || T(r, cur)->rt_se.prio <= p->rt_se.prio) && sl_engine_param(e, EV_P_BALANCE))
		ev_push_rt(r, cpu, cur->idx);
	return 0;
}

static struct sl_task *eevdf_pick_next(struct sl_engine *e, int cpu, struct sl_task *prev)
{
	struct ev_run *r = R(e);
	struct ev_rq *rq = &r->rq[cpu];
	struct sl_eevdf_rq *cfs = &rq->cfs;
	struct sl_eevdf_se *se, *top;
	int pi;

	ev_rq_update_curr(r, cpu);
	/* balance_rt(): an RT prev that left its list (it slept or exited)
	 * pulls when what stays here is worse than it (need_pull_rt_task); an
	 * empty CPU did already (newidle) */
	if (prev && T(r, prev)->rt && !T(r, prev)->rt_se.queued && e->cpus[cpu].nr_running &&
	    sl_prio_first(&rq->rtq) > T(r, prev)->rt_se.prio && sl_engine_param(e, EV_P_BALANCE))
		ev_pull_rt(r, cpu);
	pi = sl_rt_pick(&rq->rtq);
	if (pi >= 0) {
		/* pick_next_task_rt: the first task of the best list; a fair
		 * curr goes back to its queue (put_prev_entity) */
		ev_put_prev(r, cpu);
		if (sl_engine_param(e, EV_P_BALANCE))
			ev_push_rt(r, cpu, pi);
		return &e->tasks[pi];
	}
	/* a curr that left (or is delayed) is put first, at its level */
	se = ev_curr_task(r, cpu);
	if (se && (!se->on_rq || se->delayed))
		put_task(r, cpu);
	if (cfs->curr && cfs->curr->my_q && (!cfs->curr->on_rq || cfs->curr->delayed))
		ev_put_prev(r, cpu);
	/* pick_next_task_fair: down from the root; a delayed entity that
	 * comes up at either level is dequeued for good, then pick again
	 * from the root (pick_next_entity, v6.12) */
	for (;;) {
		top = se = sl_eevdf_pick_next(cfs);
		if (se && !se->delayed && se->my_q)
			se = sl_eevdf_pick(top->my_q);
		if (!se || !se->delayed)
			break;
		finish_delayed(r, cpu, se);
	}
	/* put_prev_entity / set_next_entity at the levels whose entity
	 * changes: a group's entity picked again keeps its protection */
	if (top != cfs->curr) {
		ev_put_prev(r, cpu);
		if (top && top->my_q)
			sl_eevdf_set_next(cfs, top);
	}
	if (se && se != ev_curr_task(r, cpu)) {
		if (top != se)
			put_task(r, cpu);
		set_next(r, cpu, se);
	}
	poll_arm(r, cpu, se);
	return se ? task_of(r, se) : NULL;
}

/* The CPU's timer (poll_arm): the clock read that runs update_curr */
static void eevdf_timer(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct ev_run *r = R(e);
	struct ev_task *p = T(r, et);
	struct sl_eevdf_rq *cfs = &r->rq[cpu].cfs, *q = ev_cfs(r, p, cpu);
	struct sl_eevdf_se *top = cfs->curr;
	if (p->rt || !p->poll || ev_curr_task(r, cpu) != &p->se)
		return;
	/* update_curr at each level: a pick when the slice ran out or the
	 * protection has lapsed (then the pick may choose another entity:
	 * another at the root, or another task in its group's queue) */
	if ((ev_rq_update_curr(r, cpu) || (cfs->resched_lapsed && !sl_eevdf_protected(cfs, top)) ||
	     (q != cfs && q->resched_lapsed && !sl_eevdf_protected(q, &p->se))) &&
	    (sl_eevdf_pick_next(cfs) != top || (q != cfs && sl_eevdf_pick(q) != &p->se)))
		sl_engine_resched(e, cpu);
	else
		poll_arm(r, cpu, &p->se);
}

static void eevdf_tick(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct ev_run *r = R(e);
	struct ev_task *p = T(r, et);
	struct ev_rq *rq = &r->rq[cpu];
	if (p->rt) {
		/* task_tick_rt: SCHED_RR loses the CPU to its equals every
		 * RR_TIMESLICE; SCHED_FIFO runs on */
		if (sl_rt_tick(&p->rt_se, 1, r->rr_ticks) && p->rt_se.queued &&
		    !sl_rt_alone(LINKS(r), et->idx)) {
			sl_rt_requeue(&rq->rtq, LINKS(r), et->idx, &p->rt_se);
			sl_engine_resched(e, cpu);
		}
		return;
	}
	/* entity_tick at each level -> update_curr -> update_deadline:
	 * resched when a slice is used up and others wait at its level */
	if (ev_curr_task(r, cpu) == &p->se && ev_rq_update_curr(r, cpu))
		sl_engine_resched(e, cpu);
	if (ev_curr_task(r, cpu) == &p->se)
		ev_pelt_seen(r, cpu, p); /* entity_tick: update_load_avg(curr) */
	(void)rq;
	ev_group_sync(r, p); /* entity_tick of the group's entity: update_cfs_group */
}

static void eevdf_fork(struct sl_engine *e, struct sl_task *parent, struct sl_task *child, int cpu)
{
	struct ev_run *r = R(e);
	struct ev_task *c = T(r, child);
	c->cpu = cpu;
	/* dup_task_struct copies the parent's wakee_flips, its decay stamp and
	 * last_wakee, and sched_fork does not reset them: the child starts
	 * with its parent's count (measured: docs/model.md "Wide wakees") */
	if (parent && sl_engine_param(e, EV_P_FORK_FLIPS)) {
		const struct ev_task *pp = T(r, parent);
		c->wakee_flips = pp->wakee_flips;
		c->wakee_flip_decay = pp->wakee_flip_decay;
		c->last_wakee = pp->last_wakee;
	}
	/* task_fork_fair + wake_up_new_task: placed at V of its CPU with half
	 * a slice (ENQUEUE_INITIAL), then wakeup_preempt(WF_FORK) */
	if (c->rt)
		sl_rt_enqueue(&r->rq[cpu].rtq, LINKS(r), child->idx, &c->rt_se);
	else
		fair_enqueue(r, cpu, c, 1);
	if (e->cpus[cpu].curr && (c->rt || sl_engine_param(e, EV_P_FORK_PREEMPT)) && preempts(r, cpu, c))
		sl_engine_resched(e, cpu);
	else if (!c->rt && e->cpus[cpu].curr && !T(r, e->cpus[cpu].curr)->rt && ev_rq_update_curr(r, cpu))
		sl_engine_resched(e, cpu); /* check_preempt_wakeup_fair's update_curr, then WF_FORK: no pick */
}

static void eevdf_yield(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct ev_run *r = R(e);
	struct ev_task *p = T(r, et);
	struct ev_rq *rq = &r->rq[cpu];
	if (e->cpus[cpu].nr_running == 1)
		return;
	if (p->rt) {
		/* yield_task_rt: to the tail of its list */
		sl_rt_requeue(&rq->rtq, LINKS(r), et->idx, &p->rt_se);
		return;
	}
	/* yield_task_fair acts in the task's own queue */
	if (ev_curr_task(r, cpu) != &p->se)
		return;
	ev_rq_update_curr(r, cpu);
	sl_eevdf_yield(ev_cfs(r, p, cpu), &p->se);
}

void ev_reweight_gse(struct ev_run *r, int g, int cpu, unsigned long w)
{
	struct sl_eevdf_rq *cfs = &r->rq[cpu].cfs;
	struct sl_eevdf_se *gse = &r->grp[g].gse[cpu];
	int running = cfs->curr == gse;
	if (ev_rq_update_curr(r, cpu))
		sl_engine_resched(r->e, cpu);
	sl_eevdf_reweight_queued(cfs, gse, w);
	/* reweight_entity -> update_entity_lag overwrites vprot (a union
	 * with vlag since v6.17): the running entity keeps no protection */
	if (running)
		gse->parity = 0;
	poll_arm(r, cpu, ev_curr_task(r, cpu));
}

static void eevdf_set_nice(struct sl_engine *e, struct sl_task *et, int old_nice)
{
	struct ev_run *r = R(e);
	struct ev_task *p = T(r, et);
	struct sl_eevdf_rq *cfs = ev_cfs(r, p, p->cpu);
	int running, cpu = p->cpu;
	(void)old_nice;
	p->nice_w = sl_fair_weight(et->nice);
	if (p->se.delayed)
		finish_delayed(r, cpu, &p->se);
	if (!p->rt)
		ev_pelt_reweight(r, p, sl_fair_weight(et->nice));
	if (p->rt || !p->se.on_rq) {
		/* reweight_entity of a sleeping entity: w * vlag is kept */
		sl_eevdf_reweight_sleeping(&p->se, et->nice);
		et->load_weight = p->se.weight;
		if (!p->rt)
			et->prio = et->static_prio;
		return;
	}
	/* set_user_nice: dequeue (lag), put_prev, reweight (vlag scaled by
	 * old / new weight), enqueue (re-placed with that lag), set_next,
	 * prio_changed_fair */
	running = cfs->curr == &p->se;
	ev_rq_update_curr(r, cpu);
	sl_eevdf_dequeue_move(cfs, &p->se);
	if (running)
		sl_eevdf_put_prev(cfs);
	if (p->se.rel_deadline) /* v6.12 reweight_entity: scaled like vlag */
		p->se.deadline = (uint64_t)((int64_t)p->se.deadline * (int64_t)p->se.weight /
					    (int64_t)sl_fair_weight(et->nice));
	sl_eevdf_reweight_sleeping(&p->se, et->nice);
	sl_eevdf_enqueue(cfs, &p->se, 0);
	if (running)
		set_next(r, cpu, &p->se);
	et->load_weight = p->se.weight;
	et->prio = et->static_prio;
	if (running) {
		if (et->nice > old_nice)
			sl_engine_resched(e, cpu);
	} else if (e->cpus[cpu].curr && preempts(r, cpu, p)) {
		sl_engine_resched(e, cpu);
	}
	ev_group_sync(r, p);
}

/* the task of queue q (not its curr) with the smallest mru above after,
 * if before next's */
static struct sl_eevdf_se *next_mru_in(const struct sl_eevdf_rq *q, uint64_t after, struct sl_eevdf_se *next)
{
	int i;
	for (i = 0; i < q->n; i++) {
		struct sl_eevdf_se *se = q->q[i];
		if (!se->my_q && se->mru > after && (!next || se->mru < next->mru))
			next = se;
	}
	return next;
}

struct sl_eevdf_se *ev_next_mru(const struct ev_run *r, int cpu, uint64_t after)
{
	/* cfs_tasks holds every task of the CPU, at both levels */
	struct sl_eevdf_se *next = next_mru_in(&r->rq[cpu].cfs, after, NULL);
	size_t g;
	for (g = 0; g < r->ngrp; g++)
		if (r->grp[g].q[cpu].n)
			next = next_mru_in(&r->grp[g].q[cpu], after, next);
	return next;
}

void ev_detach(struct ev_run *r, int src, struct sl_eevdf_se *se)
{
	struct ev_task *p = T(r, task_of(r, se));
	ev_rq_update_curr(r, src);
	ev_pelt_update(r, src, p);
	ev_util_est_dequeue(r, p, 0);
	ev_pelt_mark(p, src); /* dequeue_entity's update_load_avg (above) */
	/* dequeue_entities: the task (DEQUEUE_MIGRATING), then its group's
	 * entity as a sleep if it leaves the group's queue there empty */
	sl_eevdf_dequeue_move(ev_cfs(r, p, src), se);
	ev_gse_leave(r, p, src);
	if (p->grp >= 0)
		ev_group_sync_cpu(r, p->grp, src);
}

/* detach_task() + attach_task() of a delayed task (can_migrate_task lets
 * migrate_load take one, v6.12 and later): dequeued from src for good as
 * any moved task (ev_detach: its lag kept), enqueued on dst with that lag and
 * still delayed there (sched_delayed is left set: it wakes on dst through
 * ttwu_runnable, or leaves when dst picks it); its estimate is not queued
 * (util_est_enqueue skips a delayed task). The engine sees a sleeping
 * task whose CPU is now dst. */
void ev_move_delayed(struct ev_run *r, int src, int dst, struct sl_eevdf_se *se)
{
	struct sl_task *et = task_of(r, se);
	struct ev_task *p = T(r, et);
	ev_detach(r, src, se);
	se->delayed = 0;
	r->rq[src].nr_delayed--;
	p->cpu = dst;
	et->cpu = dst;
	if (ev_rq_update_curr(r, dst))
		sl_engine_resched(r->e, dst);
	ev_pelt_enqueue(r, dst, p);
	sl_eevdf_enqueue(ev_cfs(r, p, dst), se, 0);
	se->delayed = 1;
	r->rq[dst].nr_delayed++;
	se->mru = ++r->mru;
	ev_gse_enqueue(r, p, dst);
	ev_group_sync(r, p);
}

static struct sl_task *eevdf_steal(struct sl_engine *e, int src, int dst)
{
	struct ev_run *r = R(e);
	struct ev_rq *rq = &r->rq[src];
	uint64_t last = 0;
	int pi;

	/* detach_tasks: the fair tasks from the tail of cfs_tasks (least
	 * recently queued or picked first); the engine's rules decide which
	 * may go (sl_engine_may_migrate: cpumask, not running, cache-hot) */
	for (;;) {
		struct sl_eevdf_se *next = ev_next_mru(r, src, last);
		if (!next)
			break;
		last = next->mru;
		if (next->delayed || task_of(r, next)->state != SL_TS_RUNNABLE ||
		    !sl_engine_may_migrate(e, task_of(r, next), dst))
			continue;
		ev_detach(r, src, next);
		return task_of(r, next);
	}
	/* no fair task: a waiting RT task (as the RT class's push/pull would) */
	pi = sl_rt_movable(e, &rq->rtq, LINKS(r), 1, e->cpus[src].curr ? e->cpus[src].curr->idx : -1, dst);
	if (pi < 0)
		return NULL;
	sl_rt_dequeue(&rq->rtq, LINKS(r), pi, &r->t[pi].rt_se);
	return &e->tasks[pi];
}

static int rt_ok(void *ctx, int task, int cpu, int array, int q)
{
	const struct ev_task *p = &((struct ev_run *)ctx)->t[task];
	(void)array;
	return p->rt_se.queued && p->rt_se.prio == q && p->cpu == cpu;
}

/* the sums, tree and counts of queue q of cpu hold; its tasks that the
 * engine counts as queued (not delayed) go to *n; -1 when broken */
static int check_q(struct ev_run *r, int cpu, const struct sl_eevdf_rq *q, long *n)
{
	int64_t avg = 0;
	long load = 0, delayed = 0;
	int i;
	for (i = 0; i < q->n; i++) {
		const struct sl_eevdf_se *se = q->q[i];
		if (se->pos != i || !se->on_rq || se == q->curr || (!se->my_q && r->t[se->idx].cpu != cpu))
			return -1;
		avg += sl_eevdf_key(q, se) * (int64_t)se->weight;
		load += (long)se->weight;
		delayed += se->delayed;
		/* a group's entity in the tree is not running: its queue has
		 * no curr, and it holds tasks unless the entity is delayed */
		if (se->my_q && (se->my_q->curr || (!se->delayed && !se->my_q->nr_running) ||
				 check_q(r, cpu, se->my_q, n) < 0))
			return -1;
	}
	if (avg != q->avg_vruntime || load != q->avg_load)
		return -1;
	if (q->tree_min_ok && q->n) {
		uint64_t m = q->q[0]->vruntime;
		for (i = 1; i < q->n; i++)
			if ((int64_t)(q->q[i]->vruntime - m) < 0)
				m = q->q[i]->vruntime;
		if (m != q->tree_min)
			return -1;
	}
	if ((unsigned)(q->n + (q->curr && q->curr->on_rq)) != q->nr_running)
		return -1;
	if (q->curr && q->curr->pos >= 0)
		return -1;
	if (q->curr && q->curr->my_q) {
		if (check_q(r, cpu, q->curr->my_q, n) < 0)
			return -1;
	} else if (q->curr && q->curr->on_rq && !q->curr->delayed) {
		++*n;
	}
	/* delayed entities are asleep for the engine; groups' entities are
	 * not tasks */
	for (i = 0; i < q->n; i++)
		*n += !q->q[i]->my_q && !q->q[i]->delayed;
	(void)delayed;
	return 0;
}

static long eevdf_debug_count(struct sl_engine *e, int cpu)
{
	struct ev_run *r = R(e);
	struct ev_rq *rq = &r->rq[cpu];
	long n = 0, rt;
	char msg[160];
	size_t g;
	unsigned nd = 0;
	if (check_q(r, cpu, &rq->cfs, &n) < 0)
		return -1;
	/* the delayed tasks counted for rq->nr_running are those queued here */
	for (g = 0; g < e->ntasks; g++)
		nd += r->t[g].cpu == cpu && r->t[g].se.on_rq && r->t[g].se.delayed;
	if (nd != rq->nr_delayed)
		return -1;
	/* a group's queue holds tasks only while its entity is queued */
	for (g = 0; g < r->ngrp; g++) {
		const struct sl_eevdf_se *gse = &r->grp[g].gse[cpu];
		if (r->grp[g].q[cpu].nr_running && !gse->on_rq)
			return -1;
		if (gse->on_rq && gse->pos < 0 && rq->cfs.curr != gse)
			return -1;
	}
	rt = sl_prio_check(&rq->rtq, LINKS(r), (long)e->ntasks, cpu, 0, rt_ok, r, msg, sizeof(msg));
	if (rt < 0)
		return -1;
	n += rt;
	return n;
}

const struct sl_policy_ops sl_policy_eevdf = {
	.name = "eevdf",
	.doc = "Linux EEVDF fair class (6.6+): lag, virtual deadlines, eligibility, RUN_TO_PARITY; FIFO/RR above",
	.params = eevdf_params,
	.group_sched = 1,
	.init = eevdf_init,
	.release = eevdf_release,
	.task_init = eevdf_task_init,
	.enqueue = eevdf_enqueue,
	.dequeue = eevdf_dequeue,
	.check_preempt = eevdf_check_preempt,
	.pick_next = eevdf_pick_next,
	.tick = eevdf_tick,
	.timer = eevdf_timer,
	.fork = eevdf_fork,
	.yield = eevdf_yield,
	.set_nice = eevdf_set_nice,
	.steal = eevdf_steal,
	.select_cpu = ev_select_cpu,
	.balance = ev_balance,
	.debug_count = eevdf_debug_count,
};

const struct sl_eevdf_se *sl_eevdf_task_se(const struct sl_task *et)
{
	return &((const struct ev_task *)et->pol)->se;
}

unsigned *sl_eevdf_task_flips(struct sl_task *et)
{
	return &((struct ev_task *)et->pol)->wakee_flips;
}

int sl_eevdf_task_recent(const struct sl_task *et)
{
	return ((const struct ev_task *)et->pol)->recent_cpu;
}
