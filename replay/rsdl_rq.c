/* replay/rsdl_rq.c - RSDL's staircase runqueue (rsdl_priv.h): the RT
 * class above it, each task's quota and its levels, the epoch's
 * entitlement across CPUs, the minor and major rotations; docs/rsdl.md. */
#include "rsdl_priv.h"

#include <string.h>

/* ---- real-time tasks: the RT class (rt.h) above the staircase (the
 * announcement: "rt task management is straight forward"); SCHED_RR tasks
 * round-robin with an RR_INTERVAL slice (ns), SCHED_FIFO ones run until
 * they sleep or a better RT task wakes ---- */

static void rt_queue(struct rsdl *r, struct rq *rq, struct rt *ts)
{
	ts->level = ts->rt.prio;
	ts->array = ARR_RT;
	sl_rt_enqueue(&rq->rtq, LINKS(r), IDX(ts), &ts->rt);
	ts->t->prio = ts->rt.prio; /* kernel prio of an RT task: 99 - rt_priority */
}

static void rt_unqueue(struct rsdl *r, struct rq *rq, struct rt *ts)
{
	sl_rt_dequeue(&rq->rtq, LINKS(r), IDX(ts), &ts->rt);
	ts->array = -1;
}

int64_t sl_rsdl_task_quota(const struct rsdl *r, int nice)
{
	if (nice >= 0)
		return r->rr;
	if (r->sd_quota == 0)
		return r->rr * (1 - nice);
	if (nice < -6)
		return r->rr * nice * nice / 40;
	return r->rr;
}

void sl_rsdl_set_prio(struct sl_engine *e, struct rt *ts, struct rq *rq)
{
	int expired = ts->array >= 0 && ts->array != rq->active;
	ts->t->prio = 100 + ts->level;
	sl_engine_staircase(e, ts->t, ts->level, expired);
}

void sl_rsdl_queue(struct sl_engine *e, struct rq *rq, struct rt *ts, int level, int array)
{
	ts->level = level;
	ts->array = array;
	sl_prio_add_tail(&rq->arrays[array], LINKS(R(e)), IDX(ts), level);
	sl_rsdl_set_prio(e, ts, rq);
}

/* ts->level must be the list it is on: every caller sets it (from the
 * list it found ts on) or ts is the running task, whose level a minor
 * rotation keeps up to date. */
void sl_rsdl_unqueue(struct rsdl *r, struct rq *rq, struct rt *ts)
{
	if (ts->array < 0)
		return;
	if (ts->array == ARR_RT) {
		rt_unqueue(r, rq, ts);
		return;
	}
	sl_prio_del(&rq->arrays[ts->array], LINKS(r), IDX(ts), ts->level);
	ts->array = -1;
}

/* Give ts a fresh entitlement for this epoch at its static level. */
void sl_rsdl_new_epoch_quota(struct rq *rq, struct rt *ts, int cpu)
{
	int s = sl_rsdl_static_level(ts->t);
	ts->rotation = rq->prio_rotation;
	ts->rot_cpu = cpu;
	ts->bitmap = 1ULL << s;
	ts->time_slice = ts->quota;
	rq->prio_quota[s] += ts->quota;
	ts->level = s;
}

/* ts (not queued) has no slice left at its level (or the level's quota is
 * gone): queue it at its next unused level with a full quota, or on the
 * expired array when every level has been used. carry: deficit (<= 0). */
void sl_rsdl_queue_next_level(struct sl_engine *e, struct rq *rq, struct rt *ts, int64_t carry)
{
	struct rsdl *r = R(e);
	int s = sl_rsdl_static_level(ts->t), from = s, L;
	uint64_t free_lv;

	if (r->search_from_level && rq->prio_level > from)
		from = rq->prio_level;
	free_lv = ~ts->bitmap & ((1ULL << NLEV) - 1) & ~((1ULL << from) - 1);
	ts->first_time_slice = 0;
	if (free_lv) {
		L = __builtin_ctzll(free_lv);
		ts->bitmap |= 1ULL << L;
		ts->time_slice = ts->quota + (r->accounting ? carry : 0);
		rq->prio_quota[L] += ts->quota;
		sl_rsdl_queue(e, rq, ts, L, rq->active);
		return;
	}
	/* every level used: expired array at the static level, no quota until
	 * it is scheduled after the swap (A3) */
	ts->bitmap = 0;
	ts->time_slice = 0;
	sl_rsdl_queue(e, rq, ts, s, !rq->active);
}

/* A task arriving from another CPU (pulled, or woken there), as SD's
 * update_if_moved did (2.6.21-ck1, recalc_task_prio): while the runqueue it
 * last had quota on is still in the same epoch, the task keeps its
 * entitlement - levels used (bitmap), level, slice left, or its place on
 * the expired array - and its epoch is translated to this runqueue's; its
 * unused slice moves from the old runqueue's level quota to this one's.
 * Otherwise (that runqueue has rotated since) it starts a fresh epoch here.
 * See docs/rsdl.md. */
static void update_if_moved(struct sl_engine *e, struct rq *rq, struct rt *ts, int cpu)
{
	struct rq *src;
	if (ts->rot_cpu == cpu || ts->rot_cpu < 0 || ts->rot_cpu >= e->ncpus)
		return;
	src = &R(e)->rq[ts->rot_cpu];
	if (ts->rotation != src->prio_rotation)
		return; /* stale: a fresh epoch here */
	if (ts->time_slice > 0 && ts->bitmap) {
		int64_t take = ts->time_slice;
		if (src->prio_quota[ts->level] < take)
			take = src->prio_quota[ts->level] > 0 ? src->prio_quota[ts->level] : 0;
		src->prio_quota[ts->level] -= take;
		rq->prio_quota[ts->level] += ts->time_slice;
	}
	ts->rotation = rq->prio_rotation;
	ts->rot_cpu = cpu;
}

/* recalc_task_prio + enqueue of a task arriving on rq (wake, start, move). */
void sl_rsdl_enqueue_recalc(struct sl_engine *e, int cpu, struct rt *ts)
{
	struct rq *rq = &R(e)->rq[cpu];
	if (ts->rt.policy) {
		if (ts->rt.time_slice <= 0)
			ts->rt.time_slice = R(e)->rr;
		rt_queue(R(e), rq, ts);
		return;
	}
	update_if_moved(e, rq, ts, cpu);
	if (ts->rotation == rq->prio_rotation && ts->rot_cpu == cpu && !ts->bitmap) {
		/* every level used this epoch: it was on the expired array (only
		 * a move dequeues such a task) and stays there */
		sl_rsdl_queue(e, rq, ts, sl_rsdl_static_level(ts->t), !rq->active);
		return;
	}
	if (ts->rotation != rq->prio_rotation || ts->rot_cpu != cpu) {
		sl_rsdl_new_epoch_quota(rq, ts, cpu);
		sl_rsdl_queue(e, rq, ts, ts->level, rq->active);
	} else if (ts->time_slice > 0 && rq->prio_quota[ts->level] > 0) {
		sl_rsdl_queue(e, rq, ts, ts->level, rq->active);
	} else {
		sl_rsdl_queue_next_level(e, rq, ts, 0);
	}
}

void sl_rsdl_major_rotation(struct sl_engine *e, int cpu, const char *kind)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	struct sl_prio_array *act = &rq->arrays[rq->active];
	int L;

	/* tasks still queued on the active array (with quota or spliced in)
	 * go to the expired array at their static level (gap-filler A9), best
	 * level first, each list in order */
	while ((L = sl_prio_first(act)) < SL_PRIO_MAX) {
		struct rt *ts = &r->rts[act->head[L]];
		ts->level = L;
		sl_rsdl_unqueue(r, rq, ts);
		ts->bitmap = 0;
		ts->time_slice = 0;
		sl_rsdl_queue(e, rq, ts, sl_rsdl_static_level(ts->t), !rq->active);
	}
	rq->active = !rq->active;
	memset(rq->prio_quota, 0, sizeof(rq->prio_quota));
	rq->prio_rotation++;
	L = sl_prio_first(&rq->arrays[rq->active]);
	rq->prio_level = L < SL_PRIO_MAX ? L : 0;
	sl_engine_rotation(e, cpu, kind, rq->prio_level);
}

void sl_rsdl_minor_rotation(struct sl_engine *e, int cpu, struct sl_task *curr)
{
	struct rq *rq = &R(e)->rq[cpu];
	int L = rq->prio_level;

	/* the tasks keep their recorded level L (stale until set again) */
	sl_prio_splice_tail(&rq->arrays[rq->active], LINKS(R(e)), L, L + 1);
	rq->prio_quota[L + 1] += rq->prio_quota[L];
	rq->prio_quota[L] = 0;
	rq->prio_level = L + 1;
	if (curr && RT(curr)->array == rq->active && RT(curr)->level == L) {
		RT(curr)->level = L + 1;
		RT(curr)->charge_level = L + 1;
		sl_rsdl_set_prio(e, RT(curr), rq);
	}
	sl_engine_rotation(e, cpu, "minor", L + 1);
}

/* The last task of a's lists, best level first, each list from its tail,
 * that is not curr and may run on dst; NULL none. */
struct rt *sl_rsdl_steal_from(struct sl_engine *e, const struct sl_prio_array *a,
			      struct sl_task *curr, int dst)
{
	struct rsdl *r = R(e);
	int L, i;
	for (L = sl_prio_first(a); L < SL_PRIO_MAX; L = sl_prio_next(a, L + 1))
		for (i = a->tail[L]; i >= 0; i = r->rts[i].link.prev) {
			struct rt *ts = &r->rts[i];
			if (ts->t == curr || !sl_engine_may_migrate(e, ts->t, dst))
				continue;
			ts->level = L;
			return ts;
		}
	return NULL;
}

