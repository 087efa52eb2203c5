/* replay/rsdl.c - Con Kolivas' Rotating Staircase Deadline scheduler (RSDL
 * v0.26, 2.6.20) as its announcement (LKML, 4 March 2007, "[PATCH] [RSDL
 * 6/6] sched: document rsdl cpu scheduler") describes it; docs/rsdl.md. Per CPU: an active and an expired array of 40 levels (one
 * FIFO list and one bit per level), the runqueue quota of each level
 * (prio_quota), the level being serviced (prio_level) and the major epoch
 * counter (prio_rotation). Per task: its quota, its slice at the current
 * level, the bitmap of levels it took quota from this epoch, the epoch it
 * last got quota in. Every operation is O(1) in the number of tasks
 * (lists + a 40-bit bitmap), except the rare moves of a major rotation
 * that triggers with tasks still queued in the active array.
 *
 * The choices where the announcement is silent (docs/rsdl.md, "Gap-fillers")
 * are parameters:
 * a1 a2 a4 a5 a6 a7 a8 (named after what they do) and accounting.
 *
 * Laid out as every model: the staircase runqueue and its arithmetic in
 * rsdl_rq.c (rsdl_priv.h), the engine adapter (the hooks, the ops table)
 * here. */
#include "rsdl_priv.h"

#include <stdlib.h>
#include <string.h>

static const struct sl_policy_param rsdl_params[] = {
	[P_PICK_SETS_LEVEL] = SL_PARAM_FLAG("pick_sets_level", 1,
		"1: the level of the picked task becomes the serviced level (prio_level); 0: only a deeper one"),
	[P_SEARCH_FROM_LEVEL] = SL_PARAM_FLAG("search_from_level", 1,
		"1: a task's next level is searched from max(static level, prio_level); 0: from its static level"),
	[P_IDLE_ROTATES] = SL_PARAM_FLAG("idle_rotates", 1,
		"1: a CPU going idle starts a new major epoch (rotation)"),
	[P_SD_QUOTA] = SL_PARAM_FLAG("sd_quota", 0,
		"quota below nice 0: 0 = RR*(1-nice) (seed 001); 1 = RR*nice^2/40 for nice < -6 (SD)"),
	[P_ROTATE_AT_ZERO] = SL_PARAM_FLAG("rotate_at_zero", 0,
		"rotation when the level's runqueue quota is 0: < 0 (0, overrun) or <= 0 (1)"),
	[P_WAKE_PREEMPT] = SL_PARAM_FLAG("wake_preempt", 1,
		"1: a woken task preempts when its level is strictly better than the running task's"),
	[P_ACCOUNTING] = SL_PARAM_FLAG("accounting", 0,
		"0: charge one whole tick per tick (2.6.20 jiffies); 1: charge ns actually run"),
	[P_MINOR_NEW_QUOTA] = SL_PARAM_FLAG("minor_new_quota", 0,
		"tasks moved by a minor rotation: 0 keep their slice; 1 get a new quota at the new level when picked (if unused)"),
	{ NULL, 0, 0, 0, NULL },
};
/* the gap-fillers' numbers in docs/rsdl.md, accepted by --opt */
static const char *const rsdl_param_aliases[] = {
	[P_PICK_SETS_LEVEL] = "a1",
	[P_SEARCH_FROM_LEVEL] = "a2",
	[P_IDLE_ROTATES] = "a5",
	[P_SD_QUOTA] = "a6",
	[P_ROTATE_AT_ZERO] = "a7",
	[P_WAKE_PREEMPT] = "a8",
	[P_ACCOUNTING] = NULL,
	[P_MINOR_NEW_QUOTA] = "a4",
};

/* ---- hooks ---- */

static int rsdl_init(struct sl_engine *e)
{
	struct rsdl *r = xcalloc(1, sizeof(*r));
	int c, a;
	r->rr = (int64_t)e->rr_interval_ns;
	r->tick = (int64_t)e->tick_ns;
	r->pick_sets_level = (int)sl_engine_param(e, P_PICK_SETS_LEVEL);
	r->search_from_level = (int)sl_engine_param(e, P_SEARCH_FROM_LEVEL);
	r->idle_rotates = (int)sl_engine_param(e, P_IDLE_ROTATES);
	r->sd_quota = (int)sl_engine_param(e, P_SD_QUOTA);
	r->rotate_at_zero = (int)sl_engine_param(e, P_ROTATE_AT_ZERO);
	r->wake_preempt = (int)sl_engine_param(e, P_WAKE_PREEMPT);
	r->accounting = (int)sl_engine_param(e, P_ACCOUNTING);
	r->minor_new_quota = (int)sl_engine_param(e, P_MINOR_NEW_QUOTA);
	r->rq = xcalloc((size_t)e->ncpus, sizeof(*r->rq));
	for (c = 0; c < e->ncpus; c++) {
		for (a = 0; a < 2; a++)
			sl_prio_init(&r->rq[c].arrays[a]);
		sl_prio_init(&r->rq[c].rtq);
	}
	r->nrts = e->ntasks;
	r->rts = xcalloc_aligned(128, e->ntasks, sizeof(*r->rts));
	sl_engine_set_policy(e, r, r->rts, r->rq);
	return 0;
}

static void rsdl_task_init(struct sl_engine *e, struct sl_task *p)
{
	struct rsdl *r = R(e);
	struct rt *ts = &r->rts[p->idx];
	ts->t = p;
	ts->link.next = ts->link.prev = -1;
	ts->array = -1;
	ts->rot_cpu = -1;
	ts->rotation = UINT64_MAX;
	ts->quota = sl_rsdl_task_quota(r, p->nice);
	ts->level = sl_rsdl_static_level(p);
	sl_rt_se_init(&ts->rt, p->sched_policy, p->rt_prio, 0);
	p->pol = ts;
	p->prio = ts->rt.policy ? ts->rt.prio : 100 + ts->level;
	/* load weight ~ CPU entitlement per epoch: levels x quota (in 0.1 ms) */
	p->load_weight = (unsigned long)((20 - p->nice) * (ts->quota / 100000 + 1));
}

static void rsdl_enqueue(struct sl_engine *e, int cpu, struct sl_task *p, const struct sl_enq_info *w)
{
	(void)w;
	sl_rsdl_enqueue_recalc(e, cpu, RT(p));
}

static void rsdl_dequeue(struct sl_engine *e, int cpu, struct sl_task *p, char state)
{
	(void)state;
	sl_rsdl_unqueue(R(e), &R(e)->rq[cpu], RT(p));
}

static int rsdl_check_preempt(struct sl_engine *e, int cpu, struct sl_task *p)
{
	struct rq *rq = &R(e)->rq[cpu];
	struct sl_task *curr = e->cpus[cpu].curr;
	if (!curr)
		return 0;
	int rt = sl_rt_preempts(&RT(p)->rt, &RT(curr)->rt);
	if (rt >= 0) /* an RT task preempts any normal task and worse RT ones */
		return rt;
	if (!R(e)->wake_preempt)
		return 0;
	return RT(p)->array == rq->active && RT(p)->level < RT(curr)->level;
}

static struct sl_task *rsdl_pick_next(struct sl_engine *e, int cpu, struct sl_task *prev)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	size_t guard, limit = (size_t)NLEV * (r->nrts + 4) + 64;
	int rti = sl_rt_pick(&rq->rtq);

	if (rti >= 0) { /* real-time tasks first */
		struct rt *ts = &r->rts[rti];
		ts->charge_level = -1;
		return ts->t;
	}
	/* every pass rotates, grants an epoch's quota or moves a task
	 * without slice one level down: bounded by the limit */
	for (guard = 0; guard < limit; guard++) {
		struct sl_prio_array *act = &rq->arrays[rq->active];
		struct rt *ts;
		int L;

		if (!act->nr_active) {
			if (!rq->arrays[!rq->active].nr_active) {
				/* nothing queued: idle (A5: an idle CPU starts a new epoch) */
				if (r->idle_rotates && prev) {
					memset(rq->prio_quota, 0, sizeof(rq->prio_quota));
					rq->prio_rotation++;
					rq->prio_level = 0;
					sl_engine_rotation(e, cpu, "idle", 0);
				}
				return NULL;
			}
			sl_rsdl_major_rotation(e, cpu, "major");
			continue;
		}
		L = sl_prio_first(act);
		ts = &r->rts[act->head[L]];
		ts->level = L;
		if (ts->rotation != rq->prio_rotation || ts->rot_cpu != cpu) {
			/* first pick in this epoch (from the expired array): A3 */
			sl_rsdl_unqueue(r, rq, ts);
			sl_rsdl_new_epoch_quota(rq, ts, cpu);
			/* stays first in line at its level */
			ts->array = rq->active;
			sl_prio_add_head(act, LINKS(r), IDX(ts), ts->level);
			sl_rsdl_set_prio(e, ts, rq);
			continue;
		}
		if (r->minor_new_quota && L >= sl_rsdl_static_level(ts->t) && !(ts->bitmap & (1ULL << L))) {
			/* moved here by a minor rotation: "if the chosen task has not
			 * been running during this major or minor rotation it has new
			 * quota allocated at this time" (seed 001), read literally */
			ts->bitmap |= 1ULL << L;
			ts->time_slice = ts->quota;
			rq->prio_quota[L] += ts->quota;
		}
		if (ts->time_slice <= 0) {
			/* ran out between ticks (accounting=1) */
			int64_t carry = ts->time_slice;
			sl_rsdl_unqueue(r, rq, ts);
			sl_rsdl_queue_next_level(e, rq, ts, carry);
			continue;
		}
		sl_rsdl_set_prio(e, ts, rq);
		if (r->pick_sets_level || L > rq->prio_level)
			rq->prio_level = L; /* pick_sets_level=0: only deeper, never back up */
		ts->charge_level = rq->prio_level;
		return ts->t;
	}
	return NULL; /* cannot happen; the engine reports it */
}

static void rsdl_put_prev(struct sl_engine *e, int cpu, struct sl_task *prev, struct sl_task *next)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	if (!r->accounting || prev == next)
		return;
	if (prev) {
		struct rt *ts = RT(prev);
		int64_t ns = (int64_t)(e->now - ts->last_charge);
		if (ts->rt.policy)
			ts->rt.time_slice -= ns;
		else
			sl_rsdl_charge(rq, ts, ns);
	}
	if (next)
		RT(next)->last_charge = e->now;
}

static void rsdl_tick(struct sl_engine *e, int cpu, struct sl_task *curr)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	struct rt *ts = RT(curr);
	int64_t ns = r->tick, q;

	if (r->accounting) {
		ns = (int64_t)(e->now - ts->last_charge);
		ts->last_charge = e->now;
	}
	if (ts->rt.policy) {
		/* SCHED_FIFO: never expires; SCHED_RR: round robin within its
		 * priority every RR_INTERVAL (even alone on its list) */
		if (sl_rt_tick(&ts->rt, ns, r->rr)) {
			sl_rt_requeue(&rq->rtq, LINKS(r), IDX(ts), &ts->rt);
			sl_engine_resched(e, cpu);
		}
		return;
	}
	/* A7: the task first ... */
	ts->time_slice -= ns;
	if (ts->time_slice <= 0 && ts->array == rq->active) {
		int64_t carry = ts->time_slice;
		sl_rsdl_unqueue(r, rq, ts);
		sl_rsdl_queue_next_level(e, rq, ts, carry);
		sl_engine_resched(e, cpu);
	}
	/* ... then the runqueue quota of the serviced level */
	rq->prio_quota[ts->charge_level] -= ns;
	q = rq->prio_quota[rq->prio_level];
	if (r->rotate_at_zero ? q <= 0 : q < 0) {
		if (rq->prio_level < NLEV - 1)
			sl_rsdl_minor_rotation(e, cpu, curr);
		else
			sl_rsdl_major_rotation(e, cpu, "major");
		sl_engine_resched(e, cpu);
	}
}

static void rsdl_fork(struct sl_engine *e, struct sl_task *parent, struct sl_task *child, int cpu)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	struct rt *pt = RT(parent), *ct = RT(child);

	if (ct->rt.policy) {
		sl_rsdl_enqueue_recalc(e, cpu, ct);
	} else if (!pt->rt.policy && parent->on_rq && parent->cpu == cpu && pt->rotation == rq->prio_rotation &&
	    pt->rot_cpu == cpu && pt->array == rq->active && pt->time_slice > 0) {
		/* SD rules (sched_fork, 2.6.21-ck1): halve the parent's slice, the child gets the
		 * same and inherits the epoch, the bitmap and the level */
		pt->time_slice /= 2;
		ct->time_slice = pt->time_slice > 0 ? pt->time_slice : 1;
		ct->rotation = pt->rotation;
		ct->rot_cpu = cpu;
		ct->bitmap = pt->bitmap;
		ct->level = pt->level;
		ct->first_time_slice = 1;
		if (rq->prio_quota[ct->level] > 0)
			sl_rsdl_queue(e, rq, ct, ct->level, rq->active);
		else
			sl_rsdl_queue_next_level(e, rq, ct, 0);
	} else {
		sl_rsdl_enqueue_recalc(e, cpu, ct);
	}
	if (e->cpus[cpu].curr && rsdl_check_preempt(e, cpu, child))
		sl_engine_resched(e, cpu);
}

static void rsdl_task_exit(struct sl_engine *e, struct sl_task *p, struct sl_task *parent)
{
	struct rt *ts = RT(p), *pt;
	if (!parent || !ts->first_time_slice || ts->time_slice <= 0 || parent->cpu != p->cpu)
		return;
	pt = RT(parent);
	if (pt->rotation != ts->rotation || pt->rot_cpu != ts->rot_cpu)
		return;
	pt->time_slice += ts->time_slice;
	if (pt->time_slice > pt->quota)
		pt->time_slice = pt->quota;
	ts->first_time_slice = 0;
}

static void rsdl_yield(struct sl_engine *e, int cpu, struct sl_task *p)
{
	struct rq *rq = &R(e)->rq[cpu];
	struct rt *ts = RT(p);
	if (ts->rt.policy) { /* yield_task_rt: tail of its RT list */
		sl_rt_requeue(&rq->rtq, LINKS(R(e)), IDX(ts), &ts->rt);
		return;
	}
	/* SD queue_expired: expired array, fresh entitlement after the swap */
	sl_rsdl_unqueue(R(e), rq, ts);
	ts->bitmap = 0;
	ts->time_slice = 0;
	sl_rsdl_queue(e, rq, ts, sl_rsdl_static_level(p), !rq->active);
}

static void rsdl_set_nice(struct sl_engine *e, struct sl_task *p, int old_nice)
{
	struct rt *ts = RT(p);
	(void)old_nice;
	ts->quota = sl_rsdl_task_quota(R(e), p->nice);
	p->load_weight = (unsigned long)((20 - p->nice) * (ts->quota / 100000 + 1));
}

static struct sl_task *rsdl_steal(struct sl_engine *e, int src, int dst)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[src];
	struct sl_task *curr = e->cpus[src].curr;
	struct rt *ts;

	/* expired array first, then active; best level first; from the tail;
	 * then the RT lists */
	if ((ts = sl_rsdl_steal_from(e, &rq->arrays[!rq->active], curr, dst)) ||
	    (ts = sl_rsdl_steal_from(e, &rq->arrays[rq->active], curr, dst)) ||
	    (ts = sl_rsdl_steal_from(e, &rq->rtq, curr, dst))) {
		sl_rsdl_unqueue(r, rq, ts);
		return ts->t;
	}
	return NULL;
}

/* a queued task's own fields agree with the list it is on (the level of
 * a task on the staircase may be stale: not checked) */
static int check_task(void *ctx, int i, int cpu, int array, int q)
{
	const struct rt *ts = &((struct rsdl *)ctx)->rts[i];
	return ts->array == array && ts->t->cpu == cpu && ts->t->on_rq &&
	       (array != ARR_RT || (ts->rt.policy && ts->rt.queued && ts->rt.prio == q));
}

static long rsdl_debug_count(struct sl_engine *e, int cpu)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	const struct sl_prio_array *arrs[3] = { &rq->rtq, &rq->arrays[0], &rq->arrays[1] };
	long n = 0;
	int a;
	char why[128];
	for (a = 0; a < 3; a++) {
		long k = sl_prio_check(arrs[a], LINKS(r), (long)r->nrts, cpu, a ? a - 1 : ARR_RT,
				       check_task, r, why, sizeof(why));
		if (k < 0 || (a && sl_prio_next(arrs[a], NLEV) < SL_PRIO_MAX))
			return -1; /* lists or bitmap inconsistent, a level past the staircase */
		n += k;
	}
	return n;
}

const struct sl_policy_ops sl_policy_rsdl = {
	.name = "rsdl",
	.doc = "Rotating Staircase Deadline (RSDL 0.26, Con Kolivas, March 2007)",
	.params = rsdl_params,
	.param_aliases = rsdl_param_aliases,
	.init = rsdl_init,
	.task_init = rsdl_task_init,
	.enqueue = rsdl_enqueue,
	.dequeue = rsdl_dequeue,
	.check_preempt = rsdl_check_preempt,
	.pick_next = rsdl_pick_next,
	.put_prev = rsdl_put_prev,
	.tick = rsdl_tick,
	.fork = rsdl_fork,
	.task_exit = rsdl_task_exit,
	.yield = rsdl_yield,
	.set_nice = rsdl_set_nice,
	.steal = rsdl_steal,
	.debug_count = rsdl_debug_count,
};
