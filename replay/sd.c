/* replay/sd.c - Con Kolivas' Staircase Deadline scheduler as shipped in
 * 2.6.21-ck1 (kernel/sched.c of Con Kolivas' patch-2.6.21-ck1; docs/sd.md)
 * as a replay policy (`--sched sd`): the
 * priority matrix, per-task slot bitmaps and rotations, per-nice prio_level,
 * quotas in microseconds with the kernel's update_cpu_clock() accounting,
 * expiry to the expired array, major rotations (also after every idle
 * period). SCHED_ISO and SCHED_IDLEPRIO do not exist in the behaviour model
 * and are not modelled. See docs/sd.md. */
#include "sd_priv.h"

#include <stdlib.h>
#include <string.h>

static const struct sl_policy_param sd_params[] = {
	[P_INTERACTIVE] = SL_PARAM_FLAG("interactive", 1,
		"sched_interactive: a waking task may search its unused slots from the top (1, the default) "
		"or only from its nice level's current prio_level (0)"),
	[P_ACCOUNTING] = SL_PARAM_FLAG("accounting", 0,
		"0: the kernel's update_cpu_clock (last_ran not refreshed at switch-in; tick charges over 2 "
		"jiffies and switch charges over 1 jiffy become 1 jiffy / 1 us); 1: exact run time"),
	[P_SMP_SCALE] = SL_PARAM_FLAG("smp_scale", 1,
		"1: rr_interval *= 1 + ilog2(cpus) as at SMP boot; 0: use --rr-interval as given"),
	[P_FIRST_SLOT_REUSE] = SL_PARAM_FLAG("first_slot_reuse", 1,
		"1: the kernel's quirk: a task queued on the expired array does not mark its first slot, "
		"so it gets that slot's quota twice per rotation (nice 0: 21 quotas); 0: the slot is "
		"marked (20 quotas, as the design says)"),
	{ NULL, 0, 0, 0, NULL },
};

/* ---- hooks ---- */

static int sd_init(struct sl_engine *e)
{
	struct sd_run *r = xcalloc(1, sizeof(*r));
	int c;
	r->e = e;
	r->interactive = (int)sl_engine_param(e, P_INTERACTIVE);
	r->exact = (int)sl_engine_param(e, P_ACCOUNTING);
	r->mark_first = !sl_engine_param(e, P_FIRST_SLOT_REUSE);
	r->rr_ms = (int)(e->rr_interval_ns / 1000000);
	if (r->rr_ms < 1 || r->rr_ms > 5000) {
		free(r);
		return sl_engine_fail(e, "sd: rr_interval %llu ns: expected 1..5000 ms",
				      (unsigned long long)e->rr_interval_ns);
	}
	if (sl_engine_param(e, P_SMP_SCALE))
		r->rr_ms *= 1 + sl_ilog2(e->ncpus);
	sl_sd_build_matrix(r->matrix);
	r->t = xcalloc(e->ntasks ? e->ntasks : 1, sizeof(*r->t));
	r->rq = xcalloc((size_t)e->ncpus, sizeof(*r->rq));
	for (c = 0; c < e->ncpus; c++) {
		struct sd_rq *rq = &r->rq[c];
		int k;
		for (k = 0; k < 2; k++)
			sl_prio_init(&rq->arrays[k].pa);
		rq->curr = -1;
		sl_sd_reset_prio_levels(rq);
	}
	sl_engine_set_policy(e, r, r->t, r->rq);
	return 0;
}

static void sd_task_init(struct sl_engine *e, struct sl_task *et)
{
	struct sd_run *r = R(e);
	struct sd_task *p = &r->t[et->idx];
	memset(p, 0, sizeof(*p));
	p->link.next = p->link.prev = -1;
	p->static_prio = (int16_t)(120 + et->nice);
	p->policy = (uint8_t)(et->sched_policy >= 0 && et->sched_policy <= 3 ? et->sched_policy : 0);
	p->rt_prio = (int16_t)(sl_sd_rt_policy(p) ? sl_rt_priority(et->rt_prio) : 0);
	p->cpu = et->cpu >= 0 ? et->cpu : 0;
	p->arr = -1;
	p->arr_cpu = -1;
	p->rotation = UINT64_MAX; /* never ran: fresh entitlement */
	p->prio = p->normal_prio = (int16_t)(sl_sd_rt_policy(p) ? sl_rt_prio(p->rt_prio) : p->static_prio);
	sl_sd_set_quota(r, p);
	p->time_slice = p->quota;
	p->last_ran = e->now;
	et->pol = p;
	et->load_weight = p->load_weight;
	et->prio = p->prio;
}

static void sd_enqueue(struct sl_engine *e, int cpu, struct sl_task *et,
		       const struct sl_enq_info *w)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[cpu];
	rq->sync_local = 0;
	if (w->kind == SL_ENQ_MIGRATE) {
		if (w->src_cpu >= 0 && w->src_cpu < e->ncpus && r->rq[w->src_cpu].in_transit > 0)
			r->rq[w->src_cpu].in_transit--;
		/* pull_task: dequeue there, enqueue here (recalc translates
		 * the rotation and array) */
		r->t[et->idx].cpu = cpu;
		sl_sd_enqueue_task(r, et->idx, 0);
		rq->nr_running++;
		return;
	}
	if (w->kind == SL_ENQ_WAKE)
		rq->sync_local = w->sync && w->waker_cpu == cpu;
	sl_sd_activate(r, et->idx, cpu);
}

static void sd_dequeue(struct sl_engine *e, int cpu, struct sl_task *et, char state)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[cpu];
	struct sd_task *p = &r->t[et->idx];
	(void)state;
	if (p->queued)
		sl_sd_deactivate(r, et->idx);
	/* schedule()'s update_cpu_clock(prev) happens now for a leaving task
	 * (before sched_exit sees its time_slice) */
	sl_sd_charge(r, p, e->now, 0, et->exec_start_ns);
	rq->prev_charged = 1;
}

static int sd_check_preempt(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct sd_run *r = R(e);
	if (r->rq[cpu].sync_local)
		return 0;
	return sl_sd_preempts(r, &r->t[et->idx], &r->rq[cpu]);
}

static struct sl_task *sd_pick_next(struct sl_engine *e, int cpu, struct sl_task *prev)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[cpu];
	int next = -1, idx;

	if (rq->nr_running) {
		idx = sl_prio_next(&rq->arrays[rq->active].pa, 0);
		if (idx <= ISO_PRIO) {
			next = rq->arrays[rq->active].pa.head[idx];
		} else {
			int guard = 0;
			for (;;) { /* next_dynamic_task */
				struct sd_array *a;
				struct sd_task *n;
				if (idx >= NPRIO && ++guard > 64) {
					/* both arrays empty although nr_running says
					 * otherwise: a bug the engine's check reports */
					next = -1;
					break;
				}
				if (idx >= NPRIO) {
					int i, q;
					rq->active = !rq->active;
					rq->prio_rotation++;
					idx = sl_prio_next(&rq->arrays[rq->active].pa, MAX_RT);
					sl_sd_reset_prio_levels(rq);
					sl_engine_rotation(e, cpu, "major", idx < NPRIO ? idx - MAX_RT : -1);
					/* every task of the new active array is "active" now */
					a = &rq->arrays[rq->active];
					for (q = sl_prio_next(&a->pa, MAX_RT); q < NPRIO;
					     q = sl_prio_next(&a->pa, q + 1))
						for (i = a->pa.head[q]; i >= 0; i = r->t[i].link.next)
							sl_sd_stair(r, i);
				}
				a = &rq->arrays[rq->active];
				next = a->pa.head[idx];
				n = &r->t[next];
				if (n->time_slice <= 0) {
					sl_sd_task_expired_entitlement(r, next);
					idx = sl_prio_next(&a->pa, MAX_RT);
					continue;
				}
				n->rotation = rq->prio_rotation;
				if (n->static_prio < a->best_static_prio)
					a->best_static_prio = n->static_prio;
				if (idx > rq->prio_level[sl_sd_uprio(n)])
					rq->prio_level[sl_sd_uprio(n)] = idx;
				break;
			}
		}
	}
	if (next < 0) {
		sl_sd_reset_prio_levels(rq);
		rq->prio_rotation++;
		sl_engine_rotation(e, cpu, "idle", -1);
	}
	/* update_cpu_clock(prev) at the switch, unless dequeue did it */
	if (prev && !rq->prev_charged)
		sl_sd_charge(r, &r->t[prev->idx], e->now, 0, prev->exec_start_ns);
	rq->prev_charged = 0;
	rq->curr = next;
	if (next < 0)
		return NULL;
	e->tasks[next].prio = r->t[next].prio;
	return &e->tasks[next];
}

static void sd_tick(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct sd_run *r = R(e);
	struct sd_task *p = &r->t[et->idx];
	sl_sd_charge(r, p, e->now, 1, et->exec_start_ns);
	if (p->time_slice > 0 || p->policy == SL_SCHED_FIFO)
		return;
	sl_engine_resched(e, cpu);
	if (p->queued)
		sl_sd_task_expired_entitlement(r, et->idx);
}

static void sd_fork(struct sl_engine *e, struct sl_task *parent, struct sl_task *child, int cpu)
{
	struct sd_run *r = R(e);
	struct sd_task *pp = &r->t[parent->idx], *c = &r->t[child->idx];
	struct sd_rq *rq = &r->rq[cpu];
	int running = r->rq[pp->cpu].curr == parent->idx;
	/* sched_fork: the child is a copy of the parent (rotation, array,
	 * bitmap), prio = the parent's normal_prio; the slice is halved */
	c->rotation = pp->rotation;
	c->arr = pp->arr;
	c->arr_cpu = pp->arr_cpu;
	c->bitmap = pp->bitmap;
	c->prio = pp->normal_prio;
	c->last_ran = pp->last_ran;
	if (c->policy != SL_SCHED_FIFO) {
		if (pp->time_slice > 0) {
			pp->time_slice /= 2;
			c->time_slice = pp->time_slice ? pp->time_slice : 1;
			c->first_time_slice = 1;
		} else {
			c->time_slice = 0;
		}
	}
	/* wake_up_new_task: activate (recalc: same rotation, active, slice
	 * left -> the parent's slot, at the tail) */
	sl_sd_activate(r, child->idx, cpu);
	child->load_weight = c->load_weight;
	if (cpu == pp->cpu && running) {
		int clone_vm = child->spec && parent->spec && child->spec->tgid > 0 &&
			       child->spec->tgid == parent->spec->tgid &&
			       child->spec->tid != child->spec->tgid;
		if (!clone_vm)
			sl_engine_resched(e, cpu); /* set_need_resched on the parent */
	} else if (sl_sd_preempts(r, c, rq)) {
		sl_engine_resched(e, cpu);
	}
}

static void sd_task_exit(struct sl_engine *e, struct sl_task *et, struct sl_task *parent)
{
	struct sd_run *r = R(e);
	struct sd_task *p = &r->t[et->idx], *pp;
	if (!parent)
		return;
	pp = &r->t[parent->idx];
	if (p->first_time_slice && p->cpu == pp->cpu) {
		pp->time_slice += p->time_slice;
		if (pp->time_slice > pp->quota)
			pp->time_slice = pp->quota;
	}
}

static void sd_yield(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[cpu];
	struct sd_task *p = &r->t[et->idx];
	if (rq->nr_running == 1 || !p->queued)
		return;
	sl_sd_list_del(r, et->idx);
	if (!sl_sd_is_rt(p))
		sl_sd_queue_expired(r, p, rq);
	sl_sd_list_add(r, et->idx, 0);
	sl_sd_stair(r, et->idx);
}

static void sd_set_nice(struct sl_engine *e, struct sl_task *et, int old_nice)
{
	struct sd_run *r = R(e);
	struct sd_task *p = &r->t[et->idx];
	int queued = p->queued, old_prio = p->prio, delta;
	struct sd_rq *rq = &r->rq[p->cpu];
	(void)old_nice;
	if (sl_sd_rt_policy(p)) {
		p->static_prio = (int16_t)et->static_prio;
		return;
	}
	if (queued)
		sl_sd_list_del(r, et->idx);
	p->static_prio = (int16_t)et->static_prio;
	p->prio = (int16_t)sl_sd_effective_prio(p);
	sl_sd_set_quota(r, p);
	et->load_weight = p->load_weight;
	delta = p->prio - old_prio;
	if (queued) {
		sl_sd_enqueue_task(r, et->idx, 0);
		delta = p->prio - old_prio;
		if (delta < 0 || (delta > 0 && rq->curr == et->idx))
			sl_engine_resched(e, p->cpu);
	}
	et->prio = p->prio;
}

static struct sl_task *sd_steal(struct sl_engine *e, int src, int dst)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[src];
	int k, q, pi;
	/* move_tasks: the expired array from 100, then active from 0; each
	 * list from its tail; not the running task */
	for (k = 0; k < 2; k++) {
		struct sd_array *a = &rq->arrays[k ? rq->active : !rq->active];
		for (q = sl_prio_next(&a->pa, k ? 0 : MAX_RT); q < NPRIO;
		     q = sl_prio_next(&a->pa, q + 1))
			for (pi = a->pa.tail[q]; pi >= 0; pi = r->t[pi].link.prev) {
				if (pi == rq->curr || !sl_engine_may_migrate(e, &e->tasks[pi], dst))
					continue;
				sl_sd_deactivate(r, pi);
				rq->in_transit++;
				return &e->tasks[pi];
			}
	}
	return NULL;
}

/* a queued task's own fields agree with the list it is on */
static int check_task(void *ctx, int pi, int cpu, int arr, int q)
{
	const struct sd_task *p = &((struct sd_run *)ctx)->t[pi];
	return p->queued && p->cpu == cpu && p->arr == arr && p->prio == q;
}

static long sd_debug_count(struct sl_engine *e, int cpu)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[cpu];
	long n = 0;
	int k;
	char why[128];
	for (k = 0; k < 2; k++) {
		long c = sl_prio_check(&rq->arrays[k].pa, LINKS(r), (long)e->ntasks, cpu, k, check_task, r,
				       why, sizeof(why));
		if (c < 0)
			return -1;
		n += c;
	}
	if (n != rq->nr_running)
		return -1;
	return n + rq->in_transit;
}

const struct sl_policy_ops sl_policy_sd = {
	.name = "sd",
	.doc = "Staircase Deadline (2.6.21-ck1): priority matrix, per-task slot bitmaps, rotations",
	.params = sd_params,
	.init = sd_init,
	.task_init = sd_task_init,
	.enqueue = sd_enqueue,
	.dequeue = sd_dequeue,
	.check_preempt = sd_check_preempt,
	.pick_next = sd_pick_next,
	.tick = sd_tick,
	.fork = sd_fork,
	.task_exit = sd_task_exit,
	.yield = sd_yield,
	.set_nice = sd_set_nice,
	.steal = sd_steal,
	.debug_count = sd_debug_count,
};
