/* replay/evq.c - see evq.h. */
#include "evq.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

void sl_evq_heap_push(struct sl_evq *q, const struct sl_ev *ev)
{
	size_t i;
	if (q->hn == q->cap)
		SL_GROW(q->h, q->cap, q->hn + 1);
	i = q->hn++;
	while (i > 0) {
		size_t parent = (i - 1) / 4;
		if (!sl_evq_before(ev, &q->h[parent]))
			break;
		q->h[i] = q->h[parent];
		i = parent;
	}
	q->h[i] = *ev;
}

void sl_evq_heap_pop(struct sl_evq *q, struct sl_ev *ev)
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
			if (sl_evq_before(&q->h[k], &q->h[best]))
				best = k;
		if (!sl_evq_before(&q->h[best], &last))
			break;
		q->h[i] = q->h[best];
		i = best;
	}
	q->h[i] = last;
}

/* The near array is full: slide its live part to the front, or, if it has
 * none to slide, move its latest event to the heap. */
void sl_evq_near_full(struct sl_evq *q)
{
	if (q->nh) {
		memmove(q->near, q->near + q->nh, (q->nn - q->nh) * sizeof(q->near[0]));
		q->nn -= q->nh;
		q->nh = 0;
	} else {
		sl_evq_heap_push(q, &q->near[--q->nn]);
	}
}

void sl_evq_release(struct sl_evq *q)
{
	free(q->h);
	memset(q, 0, sizeof(*q));
}
