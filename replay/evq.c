/* replay/evq.c - see evq.h */
#include "evq.h"
#include "../common/util.h"

#include <stdlib.h>

static int before(const struct sl_ev *a, const struct sl_ev *b)
{
	if (a->t != b->t)
		return a->t < b->t;
	if (a->kind != b->kind)
		return a->kind < b->kind;
	return a->seq < b->seq;
}

void sl_evq_push(struct sl_evq *q, uint64_t t, uint32_t kind, uint32_t id, uint64_t gen)
{
	size_t i;
	struct sl_ev ev = { t, q->seq++, gen, kind, id };

	if (q->n == q->cap)
		SL_GROW(q->h, q->cap, q->n + 1);
	i = q->n++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
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
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && before(&q->h[c + 1], &q->h[c]))
			c++;
		if (!before(&q->h[c], &last))
			break;
		q->h[i] = q->h[c];
		i = c;
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
