/* replay/evq.c - see evq.h. */
#include "evq.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

static inline int before(const struct sl_ev *a, const struct sl_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->ord < b->ord);
}

static void heap_push(struct sl_evq *q, const struct sl_ev *ev)
{
	size_t i;
	if (q->hn == q->cap)
		SL_GROW(q->h, q->cap, q->hn + 1);
	i = q->hn++;
	while (i > 0) {
		size_t parent = (i - 1) / 4;
		if (!before(ev, &q->h[parent]))
			break;
		q->h[i] = q->h[parent];
		i = parent;
	}
	q->h[i] = *ev;
}

static void heap_pop(struct sl_evq *q, struct sl_ev *ev)
{
	size_t i = 0, n;
	struct sl_ev last;

	*ev = q->h[0];
	n = --q->hn;
	if (!n)
		return;
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
}

void sl_evq_push(struct sl_evq *q, uint64_t t, uint32_t kind, uint32_t id, uint64_t gen)
{
	struct sl_ev ev;
	size_t i;

	ev.t = t;
	ev.ord = (uint64_t)kind << 56 | (q->seq++ & ((1ULL << 56) - 1));
	ev.gen = gen;
	ev.kind = kind;
	ev.id = id;
	q->n++;
	if (q->hn && !before(&ev, &q->h[0])) {
		heap_push(q, &ev);
		return;
	}
	/* earlier than the whole heap: the near array */
	if (q->nn == SL_EVQ_NEAR) {
		if (q->nh) { /* slide the live part to the front */
			memmove(q->near, q->near + q->nh, (q->nn - q->nh) * sizeof(ev));
			q->nn -= q->nh;
			q->nh = 0;
		} else { /* full: its latest event moves to the heap */
			heap_push(q, &q->near[--q->nn]);
		}
	}
	i = q->nn++;
	while (i > q->nh && before(&ev, &q->near[i - 1])) {
		q->near[i] = q->near[i - 1];
		i--;
	}
	q->near[i] = ev;
}

int sl_evq_pop(struct sl_evq *q, struct sl_ev *ev)
{
	if (!q->n)
		return -1;
	q->n--;
	if (q->nh < q->nn && (!q->hn || before(&q->near[q->nh], &q->h[0]))) {
		*ev = q->near[q->nh++];
		if (q->nh == q->nn)
			q->nh = q->nn = 0;
		return 0;
	}
	heap_pop(q, ev);
	return 0;
}

uint64_t sl_evq_peek_time(const struct sl_evq *q)
{
	uint64_t t = UINT64_MAX;
	if (q->nh < q->nn)
		t = q->near[q->nh].t;
	if (q->hn && q->h[0].t < t)
		t = q->h[0].t;
	return t;
}

void sl_evq_release(struct sl_evq *q)
{
	free(q->h);
	memset(q, 0, sizeof(*q));
}
