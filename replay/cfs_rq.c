/* replay/cfs_rq.c - the cfs model's queues (cfs_priv.h): the fair
 * tasks in the rb-tree's order (a heap on vruntime and insertion number),
 * update_curr and min_vruntime, the placement of new and woken tasks and
 * the load they add; kernel/sched_fair.c v2.6.24, docs/cfs.md. */
#include "cfs_priv.h"

/* ---- the ordered queue (the rb-tree's order) ---- */

int sl_cfs_before(const struct cfs_task *a, const struct cfs_task *b)
{
	int64_t d = (int64_t)(a->vruntime - b->vruntime);
	return d ? d < 0 : a->seq < b->seq;
}

static void heap_set(struct cfs_run *r, struct cfs_rq *q, size_t i, int32_t pi)
{
	q->heap[i] = pi;
	r->t[pi].pos = (int32_t)i;
}

static void sift_up(struct cfs_run *r, struct cfs_rq *q, size_t i)
{
	int32_t pi = q->heap[i];
	while (i > 0) {
		size_t up = (i - 1) / 2;
		if (!sl_cfs_before(&r->t[pi], &r->t[q->heap[up]]))
			break;
		heap_set(r, q, i, q->heap[up]);
		i = up;
	}
	heap_set(r, q, i, pi);
}

static void sift_down(struct cfs_run *r, struct cfs_rq *q, size_t i)
{
	int32_t pi = q->heap[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= q->n)
			break;
		if (c + 1 < q->n && sl_cfs_before(&r->t[q->heap[c + 1]], &r->t[q->heap[c]]))
			c++;
		if (!sl_cfs_before(&r->t[q->heap[c]], &r->t[pi]))
			break;
		heap_set(r, q, i, q->heap[c]);
		i = c;
	}
	heap_set(r, q, i, pi);
}

/* __enqueue_entity */
void sl_cfs_tree_insert(struct cfs_run *r, struct cfs_rq *q, int32_t pi)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 16;
		q->heap = xrealloc(q->heap, q->cap * sizeof(*q->heap));
	}
	r->t[pi].seq = q->seq++;
	q->heap[q->n++] = pi;
	sift_up(r, q, q->n - 1);
}

/* __dequeue_entity */
void sl_cfs_tree_remove(struct cfs_run *r, struct cfs_rq *q, int32_t pi)
{
	size_t i = (size_t)r->t[pi].pos;
	int32_t last = q->heap[--q->n];
	r->t[pi].pos = -1;
	if (i == q->n)
		return;
	heap_set(r, q, i, last);
	if (i > 0 && sl_cfs_before(&r->t[last], &r->t[q->heap[(i - 1) / 2]]))
		sift_up(r, q, i);
	else
		sift_down(r, q, i);
}

int32_t sl_cfs_leftmost(const struct cfs_rq *q)
{
	return q->n ? q->heap[0] : -1;
}

/* ---- the fair class ---- */

/* update_curr: charge the running fair task's time since exec_start to its
 * vruntime (calc_delta_fair) and move min_vruntime up to
 * min(curr, leftmost) */
void sl_cfs_update_curr(struct cfs_run *r, struct cfs_rq *q)
{
	struct cfs_task *c;
	uint64_t delta, v;
	int32_t lm;
	if (q->fair_curr < 0)
		return;
	c = &r->t[q->fair_curr];
	delta = r->e->now - c->exec_start;
	c->exec_start = r->e->now;
	c->sum_exec += delta;
	if (c->weight != NICE_0_LOAD)
		delta = sl_cfs_calc_delta_mine(delta, NICE_0_LOAD, c->inv_weight);
	c->vruntime += delta;
	lm = sl_cfs_leftmost(q);
	v = c->vruntime;
	if (lm >= 0 && (int64_t)(r->t[lm].vruntime - v) < 0)
		v = r->t[lm].vruntime;
	q->min_vruntime = sl_cfs_max_vruntime(q->min_vruntime, v);
}

/* the vruntime a task had on its last CPU, moved to cpu (set_task_cpu) */
void sl_cfs_move_vruntime(struct cfs_run *r, struct cfs_task *p, int cpu)
{
	if (p->cpu != cpu && p->cpu >= 0 && p->cpu < r->e->ncpus)
		p->vruntime += r->rq[cpu].min_vruntime - r->rq[p->cpu].min_vruntime;
	p->cpu = cpu;
}

uint64_t sl_cfs_sleeper_credit(const struct cfs_run *r)
{
	return r->new_fair_sleepers ? r->tun.latency : 0;
}

uint64_t sl_cfs_start_debit(const struct cfs_run *r, const struct cfs_rq *q, const struct cfs_task *p)
{
	return r->start_debit ? sl_cfs_vslice_add(&r->tun, q->nr, q->load, p->weight) : 0;
}

/* a vlag row: pi's vruntime - min_vruntime of its queue, now */
void sl_cfs_rec_lag(struct cfs_run *r, const struct cfs_rq *q, int32_t pi)
{
	sl_engine_vlag(r->e, &r->e->tasks[pi], (int64_t)(r->t[pi].vruntime - q->min_vruntime));
}

/* enqueue_entity minus the placement: into the tree, into the load */
void sl_cfs_fair_account_enqueue(struct cfs_run *r, struct cfs_rq *q, int32_t pi)
{
	struct cfs_task *p = &r->t[pi];
	sl_cfs_tree_insert(r, q, pi);
	q->load += p->weight;
	q->nr++;
	p->on_rq = 1;
	sl_cfs_rec_lag(r, q, pi);
}

void sl_cfs_set_weight(struct cfs_run *r, struct cfs_task *p, struct sl_task *et)
{
	/* set_load_weight (kernel/sched.c v2.6.24): RT tasks
	 * prio_to_weight[0] * 2 and prio_to_wmult[0] >> 1 (for balancing) */
	if (p->rt.policy) {
		p->weight = sl_fair_weight(-20) * 2;
		p->inv_weight = sl_fair_wmult(-20) >> 1;
	} else {
		p->weight = sl_fair_weight(p->nice);
		p->inv_weight = sl_fair_wmult(p->nice);
	}
	et->load_weight = p->weight;
	et->prio = p->prio;
	(void)r;
}

/* ---- hooks ---- */

/* pop the first task, in queue order, of a copy of a CPU's heap */
int32_t sl_cfs_copy_pop(const struct cfs_run *r, int32_t *h, size_t *n)
{
	int32_t top = h[0], x;
	size_t i = 0;
	x = h[--*n];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= *n)
			break;
		if (c + 1 < *n && sl_cfs_before(&r->t[h[c + 1]], &r->t[h[c]]))
			c++;
		if (!sl_cfs_before(&r->t[h[c]], &r->t[x]))
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = x;
	return top;
}

