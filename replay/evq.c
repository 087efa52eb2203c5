/* replay/evq.c - see evq.h. A 4-ary heap: half the levels of a binary heap,
 * and the four children of a node share cache lines. O(log n) per event in
 * the number of pending events (not in the number of runnable tasks). */
#include "evq.h"
#include "../common/util.h"

#include <stdlib.h>

static inline int before(const struct sl_ev *a, const struct sl_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->ord < b->ord);
}

void sl_evq_push(struct sl_evq *q, uint64_t t, uint32_t kind, uint32_t id, uint64_t gen)
{
	size_t i;
	struct sl_ev ev;

	ev.t = t;
	ev.ord = (uint64_t)kind << 56 | (q->seq++ & ((1ULL << 56) - 1));
	ev.gen = gen;
	ev.kind = kind;
	ev.id = id;
	if (q->n == q->cap)
		SL_GROW(q->h, q->cap, q->n + 1);
	i = q->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 4;
		if (!before(&ev, &q->h[parent]))
			break;
		q->h[i] = q->h[parent];
		i = parent;
	}
	q->h[i] = ev;
}

int sl_evq_pop(struct sl_evq *q, struct sl_ev *ev)
{
	size_t i = 0, n;
	struct sl_ev last;

	if (!q->n)
		return -1;
	*ev = q->h[0];
	n = --q->n;
	if (!n)
		return 0;
	last = q->h[n];
	for (;;) {
		size_t c = 4 * i + 1, best, k, end;
		if (c >= n)
			break;
		best = c;
		end = c + 4 < n ? c + 4 : n;
		for (k = c + 1; k < end; k++)
			if (before(&q->h[k], &q->h[best]))
				best = k;
		if (!before(&q->h[best], &last))
			break;
		q->h[i] = q->h[best];
		i = best;
	}
	q->h[i] = last;
	return 0;
}

void sl_evq_release(struct sl_evq *q)
{
	free(q->h);
	q->h = NULL;
	q->n = q->cap = 0;
}
