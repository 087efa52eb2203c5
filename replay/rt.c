/* replay/rt.c - the real-time class the models share; see rt.h. */
#include "rt.h"

#include "engine.h"

int sl_rt_policy(int policy)
{
	return policy == SL_SCHED_FIFO || policy == SL_SCHED_RR;
}

int sl_rt_priority(int rt_prio)
{
	return rt_prio < 1 ? 1 : rt_prio > 99 ? 99 : rt_prio;
}

int sl_rt_prio(int rt_prio)
{
	return 99 - sl_rt_priority(rt_prio); /* MAX_RT_PRIO - 1 - rt_priority */
}

int64_t sl_rt_rr_ticks(int hz)
{
	return hz / 10 > 0 ? hz / 10 : 1;
}

void sl_rt_se_init(struct sl_rt_se *se, int policy, int rt_prio, int64_t slice)
{
	se->policy = (int8_t)(sl_rt_policy(policy) ? policy : 0);
	se->queued = 0;
	se->prio = (int16_t)sl_rt_prio(rt_prio);
	se->time_slice = slice;
}

void sl_rt_enqueue(struct sl_prio_array *a, struct sl_prio_links l, int i, struct sl_rt_se *se)
{
	sl_prio_add_tail(a, l, i, se->prio);
	se->queued = 1;
}

void sl_rt_dequeue(struct sl_prio_array *a, struct sl_prio_links l, int i, struct sl_rt_se *se)
{
	if (!se->queued)
		return;
	sl_prio_del(a, l, i, se->prio);
	se->queued = 0;
}

void sl_rt_requeue(struct sl_prio_array *a, struct sl_prio_links l, int i, struct sl_rt_se *se)
{
	if (!se->queued)
		return;
	sl_prio_del(a, l, i, se->prio);
	sl_prio_add_tail(a, l, i, se->prio);
}

int sl_rt_alone(struct sl_prio_links l, int i)
{
	const struct sl_prio_link *p = sl_prio_link(l, i);
	return p->prev < 0 && p->next < 0;
}

int sl_rt_pick(const struct sl_prio_array *a)
{
	int q = sl_prio_first(a);
	return q < SL_PRIO_MAX ? a->head[q] : -1;
}

int sl_rt_preempts(const struct sl_rt_se *p, const struct sl_rt_se *curr)
{
	if (curr->policy)
		return p->policy && p->prio < curr->prio;
	return p->policy ? 1 : -1;
}

int sl_rt_tick(struct sl_rt_se *se, int64_t used, int64_t slice)
{
	if (se->policy != SL_SCHED_RR)
		return 0;
	se->time_slice -= used;
	if (se->time_slice > 0)
		return 0;
	se->time_slice = slice;
	return 1;
}

int sl_rt_find(const struct sl_prio_array *a, struct sl_prio_links l, int head, int below,
	       sl_rt_ok_fn ok, void *ctx, int *q)
{
	int k, i;
	for (k = sl_prio_first(a); k < below && k < SL_PRIO_MAX; k = sl_prio_next(a, k + 1))
		for (i = head ? a->head[k] : a->tail[k]; i >= 0;
		     i = head ? sl_prio_link(l, i)->next : sl_prio_link(l, i)->prev)
			if (ok(ctx, i)) {
				*q = k;
				return i;
			}
	return -1;
}

struct movable {
	struct sl_engine *e;
	int curr, dst;
};

static int movable_ok(void *ctx, int i)
{
	const struct movable *m = ctx;
	return i != m->curr && sl_engine_may_migrate(m->e, &m->e->tasks[i], m->dst);
}

int sl_rt_movable(struct sl_engine *e, const struct sl_prio_array *a, struct sl_prio_links l, int head,
		  int curr, int dst)
{
	struct movable m = { e, curr, dst };
	int q;
	return sl_rt_find(a, l, head, SL_PRIO_MAX, movable_ok, &m, &q);
}
