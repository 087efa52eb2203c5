/* replay/cfs.c - the Completely Fair Scheduler in its vruntime form as a
 * replay policy (`--sched cfs`, docs/cfs.md): kernel/sched_fair.c and the
 * fair/RT parts of kernel/sched.c and kernel/sched_rt.c of v2.6.24, the
 * first release where CFS orders tasks by vruntime against min_vruntime
 * (v2.6.23 merged CFS in its earlier fair_clock / wait_runtime form).
 *
 * Per CPU: a queue of the runnable fair tasks ordered as the kernel's
 * red-black tree (key vruntime - min_vruntime, equal keys after the ones
 * already there: a binary heap on (vruntime, insertion number) gives the
 * same leftmost task in O(log n)), the running fair task kept out of it
 * (set_next_entity), and the 100 FIFO lists of the RT class above it.
 *
 * Laid out as every model: the arithmetic in cfs_arith.c (cfs.h), the
 * queues in cfs_rq.c (cfs_priv.h), the engine adapter (the hooks, the ops
 * table) here. */
#include "cfs_priv.h"

#include <stdlib.h>
#include <string.h>

static const struct sl_policy_param cfs_params[] = {
	[P_START_DEBIT] = SL_PARAM_FLAG("start_debit", 1,
		"sched_features START_DEBIT: a new task starts one sched_vslice_add behind min_vruntime"),
	[P_NEW_FAIR_SLEEPERS] = SL_PARAM_FLAG("new_fair_sleepers", 1,
		"sched_features NEW_FAIR_SLEEPERS: a woken task is placed up to sched_latency before "
		"min_vruntime"),
	[P_WAKEUP_PREEMPT] = SL_PARAM_FLAG("wakeup_preempt", 1,
		"sched_features WAKEUP_PREEMPT: a woken task preempts when ahead by the wakeup granularity"),
	[P_CHILD_RUNS_FIRST] = SL_PARAM_FLAG("child_runs_first", 1,
		"sysctl_sched_child_runs_first: a forked child takes its running parent's vruntime if lower"),
	[P_COMPAT_YIELD] = SL_PARAM_FLAG("compat_yield", 0,
		"sysctl_sched_compat_yield: sched_yield puts the task behind the rightmost one"),
	[P_SMP_SCALE] = SL_PARAM_FLAG("smp_scale", 1,
		"sched_init_granularity: latency, granularities times 1 + ilog2(cpus) (0: 1-CPU values)"),
	{ NULL, 0, 0, 0, NULL },
};

static int cfs_init(struct sl_engine *e)
{
	struct cfs_run *r = xcalloc(1, sizeof(*r));
	int c;
	r->e = e;
	r->start_debit = (int)sl_engine_param(e, P_START_DEBIT);
	r->new_fair_sleepers = (int)sl_engine_param(e, P_NEW_FAIR_SLEEPERS);
	r->wakeup_preempt = (int)sl_engine_param(e, P_WAKEUP_PREEMPT);
	r->child_runs_first = (int)sl_engine_param(e, P_CHILD_RUNS_FIRST);
	r->compat_yield = (int)sl_engine_param(e, P_COMPAT_YIELD);
	r->rr_ticks = sl_rt_rr_ticks(e->hz);
	sl_cfs_tunables(e->ncpus, (int)sl_engine_param(e, P_SMP_SCALE), &r->tun);
	r->t = xcalloc(e->ntasks ? e->ntasks : 1, sizeof(*r->t));
	r->rq = xcalloc((size_t)e->ncpus, sizeof(*r->rq));
	for (c = 0; c < e->ncpus; c++) {
		struct cfs_rq *q = &r->rq[c];
		q->curr = q->fair_curr = -1;
		sl_prio_init(&q->rt);
	}
	sl_engine_set_policy(e, r, r->t, r->rq);
	return 0;
}

static void cfs_release(struct sl_engine *e)
{
	struct cfs_run *r = R(e);
	int c;
	for (c = 0; c < e->ncpus; c++)
		free(r->rq[c].heap);
}

static void cfs_task_init(struct sl_engine *e, struct sl_task *et)
{
	struct cfs_run *r = R(e);
	struct cfs_task *p = &r->t[et->idx];
	memset(p, 0, sizeof(*p));
	p->pos = p->link.next = p->link.prev = -1;
	p->cpu = -1;
	p->nice = (int8_t)et->nice;
	p->policy = (uint8_t)(et->sched_policy >= 0 && et->sched_policy <= 3 ? et->sched_policy : 0);
	sl_rt_se_init(&p->rt, p->policy, et->rt_prio, r->rr_ticks);
	p->prio = (int16_t)(p->rt.policy ? p->rt.prio : et->static_prio);
	sl_cfs_set_weight(r, p, et);
	et->pol = p;
}

static void cfs_enqueue(struct sl_engine *e, int cpu, struct sl_task *et, const struct sl_enq_info *w)
{
	struct cfs_run *r = R(e);
	struct cfs_rq *q = &r->rq[cpu];
	struct cfs_task *p = &r->t[et->idx];
	if (w->kind == SL_ENQ_MIGRATE && w->src_cpu >= 0 && w->src_cpu < e->ncpus &&
	    r->rq[w->src_cpu].in_transit > 0)
		r->rq[w->src_cpu].in_transit--;
	if (p->rt.policy) {
		p->cpu = cpu;
		p->on_rq = 1;
		sl_rt_enqueue(&q->rt, LINKS(r), et->idx, &p->rt);
		return;
	}
	if (q->fair_curr == et->idx)
		q->fair_curr = -1; /* blocked and woken again before schedule() */
	sl_cfs_move_vruntime(r, p, cpu);
	sl_cfs_update_curr(r, q);
	if (w->kind == SL_ENQ_WAKE) {
		/* enqueue_entity(wakeup): place_entity(se, 0) */
		p->vruntime = sl_cfs_place(q->min_vruntime, p->vruntime, 0, 0, sl_cfs_sleeper_credit(r));
	} else if (w->kind == SL_ENQ_START) {
		/* a task appearing without a parent in the run: one that
		 * existed before the trace starts where its queue is (at
		 * min_vruntime), a new one (a workload's task) as
		 * task_new_fair places it: place_entity(se, 1) */
		uint64_t debit = (et->flags & SL_TASK_AT_START) ? 0 : sl_cfs_start_debit(r, q, p);
		p->vruntime = sl_cfs_place(q->min_vruntime, p->vruntime, 1, debit, 0);
	}
	sl_cfs_fair_account_enqueue(r, q, et->idx);
}

static void cfs_dequeue(struct sl_engine *e, int cpu, struct sl_task *et, char state)
{
	struct cfs_run *r = R(e);
	struct cfs_rq *q = &r->rq[cpu];
	struct cfs_task *p = &r->t[et->idx];
	(void)state;
	if (p->rt.policy) {
		sl_rt_dequeue(&q->rt, LINKS(r), et->idx, &p->rt);
		p->on_rq = 0;
		return;
	}
	/* dequeue_entity(sleep): update_curr; curr is not in the tree */
	sl_cfs_update_curr(r, q);
	if (p->pos >= 0)
		sl_cfs_tree_remove(r, q, et->idx);
	q->load -= p->weight;
	q->nr--;
	p->on_rq = 0;
}

static int cfs_check_preempt(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct cfs_run *r = R(e);
	struct cfs_rq *q = &r->rq[cpu];
	struct cfs_task *p = &r->t[et->idx], *c;
	int rt;
	if (q->curr < 0)
		return 1;
	c = &r->t[q->curr];
	/* check_preempt_curr_rt; an RT task preempts the fair class */
	if ((rt = sl_rt_preempts(&p->rt, &c->rt)) >= 0)
		return rt;
	/* check_preempt_wakeup */
	if (p->policy == SL_SCHED_BATCH || !r->wakeup_preempt)
		return 0;
	sl_cfs_update_curr(r, q);
	return sl_cfs_wakeup_preempts(c->vruntime, c->nice, p->vruntime, r->tun.wakeup_gran);
}

static struct sl_task *cfs_pick_next(struct sl_engine *e, int cpu, struct sl_task *prev)
{
	struct cfs_run *r = R(e);
	struct cfs_rq *q = &r->rq[cpu];
	int32_t next;
	/* put_prev_task: the fair curr, still queued, goes back into the tree */
	if (q->fair_curr >= 0) {
		int32_t pi = q->fair_curr;
		struct cfs_task *p = &r->t[pi];
		if (p->on_rq) {
			sl_cfs_update_curr(r, q);
			sl_cfs_tree_insert(r, q, pi);
			sl_cfs_rec_lag(r, q, pi);
		}
		q->fair_curr = -1;
	}
	(void)prev;
	/* pick_next_task: the RT class first, then the leftmost fair task */
	next = sl_rt_pick(&q->rt);
	if (next < 0) {
		next = sl_cfs_leftmost(q);
		if (next >= 0) {
			/* set_next_entity */
			struct cfs_task *p = &r->t[next];
			sl_cfs_tree_remove(r, q, next);
			p->exec_start = e->now;
			p->prev_sum_exec = p->sum_exec;
			q->fair_curr = next;
			sl_cfs_rec_lag(r, q, next);
		}
	}
	q->curr = next;
	if (next < 0)
		return NULL;
	return &e->tasks[next];
}

static void cfs_tick(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct cfs_run *r = R(e);
	struct cfs_rq *q = &r->rq[cpu];
	struct cfs_task *p = &r->t[et->idx];
	if (p->rt.policy) {
		/* task_tick_rt: SCHED_RR loses a tick; at 0 a new
		 * DEF_TIMESLICE and the tail of its list if not alone */
		if (sl_rt_tick(&p->rt, 1, r->rr_ticks) && !sl_rt_alone(LINKS(r), et->idx)) {
			sl_rt_requeue(&q->rt, LINKS(r), et->idx, &p->rt);
			sl_engine_resched(e, cpu);
		}
		return;
	}
	if (q->fair_curr != et->idx)
		return;
	/* entity_tick: update_curr, then check_preempt_tick */
	sl_cfs_update_curr(r, q);
	if (q->nr > 1 || !r->wakeup_preempt) {
		uint64_t ideal = sl_cfs_slice(&r->tun, q->nr, p->weight, q->load);
		if (p->sum_exec - p->prev_sum_exec > ideal)
			sl_engine_resched(e, cpu);
	}
}

static void cfs_fork(struct sl_engine *e, struct sl_task *parent, struct sl_task *child, int cpu)
{
	struct cfs_run *r = R(e);
	struct cfs_rq *q = &r->rq[cpu];
	struct cfs_task *pp = &r->t[parent->idx], *c = &r->t[child->idx];
	int parent_running = r->rq[parent->cpu].curr == parent->idx && parent->state == SL_TS_RUNNING;
	/* wake_up_new_task (kernel/sched.c v2.6.24) */
	if (c->rt.policy) {
		c->cpu = cpu;
		c->on_rq = 1;
		sl_rt_enqueue(&q->rt, LINKS(r), child->idx, &c->rt);
	} else if (!parent->on_rq) {
		/* !current->se.on_rq: activate_task without placement; the
		 * child has its parent's vruntime (dup_task_struct), moved by
		 * set_task_cpu in sched_fork */
		c->cpu = pp->cpu >= 0 ? pp->cpu : cpu;
		c->vruntime = pp->vruntime;
		sl_cfs_move_vruntime(r, c, cpu);
		sl_cfs_update_curr(r, q);
		sl_cfs_fair_account_enqueue(r, q, child->idx);
	} else {
		/* task_new_fair: update_curr, place_entity(se, 1), and with
		 * child_runs_first on the parent's own CPU the lower of the
		 * two vruntimes goes to the child */
		struct cfs_task *curr = q->fair_curr >= 0 ? &r->t[q->fair_curr] : NULL;
		c->cpu = cpu;
		sl_cfs_update_curr(r, q);
		c->vruntime = sl_cfs_place(q->min_vruntime, 0, 1, sl_cfs_start_debit(r, q, c), 0);
		if (r->child_runs_first && parent_running && parent->cpu == cpu && curr == pp &&
		    (int64_t)(curr->vruntime - c->vruntime) < 0) {
			uint64_t v = curr->vruntime;
			curr->vruntime = c->vruntime;
			c->vruntime = v;
		}
		sl_cfs_fair_account_enqueue(r, q, child->idx);
		/* resched_task(rq->curr) */
		sl_engine_resched(e, cpu);
		return;
	}
	/* check_preempt_curr */
	if (e->cpus[cpu].curr && cfs_check_preempt(e, cpu, child))
		sl_engine_resched(e, cpu);
}

static void cfs_yield(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct cfs_run *r = R(e);
	struct cfs_rq *q = &r->rq[cpu];
	struct cfs_task *p = &r->t[et->idx];
	size_t i;
	int32_t last = -1;
	if (p->rt.policy) {
		/* yield_task_rt: the tail of its list */
		sl_rt_requeue(&q->rt, LINKS(r), et->idx, &p->rt);
		return;
	}
	/* yield_task_fair */
	if (q->nr == 1)
		return;
	sl_cfs_update_curr(r, q);
	if (!r->compat_yield && p->policy != SL_SCHED_BATCH)
		return; /* schedule() then requeues it by its vruntime */
	for (i = 0; i < q->n; i++) /* __pick_last_entity */
		if (last < 0 || !sl_cfs_before(&r->t[q->heap[i]], &r->t[last]))
			last = q->heap[i];
	if (last < 0 || (int64_t)(r->t[last].vruntime - p->vruntime) < 0)
		return;
	p->vruntime = r->t[last].vruntime + 1;
}

static void cfs_set_nice(struct sl_engine *e, struct sl_task *et, int old_nice)
{
	struct cfs_run *r = R(e);
	struct cfs_task *p = &r->t[et->idx];
	struct cfs_rq *q = p->cpu >= 0 ? &r->rq[p->cpu] : NULL;
	int old_prio = p->prio, delta, running;
	(void)old_nice;
	p->nice = (int8_t)et->nice;
	if (p->rt.policy) {
		sl_cfs_set_weight(r, p, et);
		return;
	}
	/* set_user_nice: dequeue_task, set_load_weight, enqueue_task */
	running = q && q->fair_curr == et->idx;
	if (q && p->on_rq) {
		sl_cfs_update_curr(r, q);
		if (p->pos >= 0)
			sl_cfs_tree_remove(r, q, et->idx);
		q->load -= p->weight;
	}
	p->prio = (int16_t)et->static_prio;
	sl_cfs_set_weight(r, p, et);
	if (q && p->on_rq) {
		q->load += p->weight;
		if (!running)
			sl_cfs_tree_insert(r, q, et->idx);
		delta = p->prio - old_prio;
		if (delta < 0 || (delta > 0 && running))
			sl_engine_resched(e, p->cpu);
	}
}

static struct sl_task *cfs_steal(struct sl_engine *e, int src, int dst)
{
	struct cfs_run *r = R(e);
	struct cfs_rq *q = &r->rq[src];
	int32_t best;
	/* move_tasks: the RT class first (load_balance_rt: highest prio, from
	 * the tail of each list), then the fair tree from its leftmost task
	 * (load_balance_fair); the engine's can_migrate_task
	 * (sl_engine_may_migrate) accepts or skips each in that order */
	best = sl_rt_movable(e, &q->rt, LINKS(r), 0, q->curr, dst);
	if (best >= 0) {
		sl_rt_dequeue(&q->rt, LINKS(r), best, &r->t[best].rt);
	} else if (q->n) {
		size_t n = q->n;
		int32_t *h = xmalloc(n * sizeof(*h));
		memcpy(h, q->heap, n * sizeof(*h));
		while (n && best < 0) {
			int32_t pi = sl_cfs_copy_pop(r, h, &n);
			if (sl_engine_may_migrate(e, &e->tasks[pi], dst))
				best = pi;
		}
		free(h);
		if (best < 0)
			return NULL;
		sl_cfs_update_curr(r, q);
		sl_cfs_tree_remove(r, q, best);
		q->load -= r->t[best].weight;
		q->nr--;
	} else {
		return NULL;
	}
	r->t[best].on_rq = 0;
	q->in_transit++;
	return &e->tasks[best];
}

static int check_rt(void *ctx, int pi, int cpu, int array, int q)
{
	const struct cfs_run *r = ctx;
	const struct cfs_task *p = &r->t[pi];
	(void)array;
	return p->rt.policy && p->rt.queued && p->on_rq && p->cpu == cpu && p->rt.prio == q;
}

static long cfs_debug_count(struct sl_engine *e, int cpu)
{
	struct cfs_run *r = R(e);
	struct cfs_rq *q = &r->rq[cpu];
	unsigned long load = 0, nr = 0;
	long rt;
	size_t i;
	char why[128];
	for (i = 0; i < q->n; i++) {
		int32_t pi = q->heap[i];
		struct cfs_task *p = &r->t[pi];
		if (p->pos != (int32_t)i || p->cpu != cpu || !p->on_rq || p->rt.policy || pi == q->fair_curr)
			return -1;
		if (i > 0 && sl_cfs_before(p, &r->t[q->heap[(i - 1) / 2]]))
			return -1;
		load += p->weight;
		nr++;
	}
	if (q->fair_curr >= 0) {
		struct cfs_task *p = &r->t[q->fair_curr];
		if (q->curr != q->fair_curr)
			return -1;
		if (p->on_rq) {
			load += p->weight;
			nr++;
		}
	}
	if (load != q->load || nr != q->nr)
		return -1;
	rt = sl_prio_check(&q->rt, LINKS(r), (long)e->ntasks, cpu, 0, check_rt, r, why, sizeof(why));
	if (rt < 0)
		return -1;
	return (long)nr + rt + q->in_transit;
}

const struct sl_policy_ops sl_policy_cfs = {
	.name = "cfs",
	.doc = "CFS in its vruntime form (v2.6.24): vruntime/min_vruntime order, sched_slice, "
	       "place_entity, wakeup granularity; RT above it",
	.params = cfs_params,
	.init = cfs_init,
	.release = cfs_release,
	.task_init = cfs_task_init,
	.enqueue = cfs_enqueue,
	.dequeue = cfs_dequeue,
	.check_preempt = cfs_check_preempt,
	.pick_next = cfs_pick_next,
	.tick = cfs_tick,
	.fork = cfs_fork,
	.yield = cfs_yield,
	.set_nice = cfs_set_nice,
	.steal = cfs_steal,
	.debug_count = cfs_debug_count,
};
