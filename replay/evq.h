/* replay/evq.h - the engine's event queue, ordered by (time, kind,
 * sequence) so equal-time events always come out in the same order.
 * Two parts: a small sorted "near" array for events earlier than everything
 * in a 4-ary min-heap (the common case: the next burst end or short sleep
 * while many long sleeps are pending) and the heap for the rest. Pop takes
 * the lesser of the two heads, so the order is exact whatever the routing.
 * Near events cost O(1); heap events O(log n). Private to the engine. (A
 * calendar queue was tried: no faster here, slower with few events.) */
#ifndef SL_EVQ_H
#define SL_EVQ_H

#include <stddef.h>
#include <stdint.h>

#define SL_EVQ_NEAR 32

struct sl_ev {
	uint64_t t;     /* ns */
	uint64_t ord;   /* kind << 56 | insertion sequence: the tie-break */
	uint64_t gen;   /* validity token (per-CPU run_gen, per-task token) */
	uint32_t kind;  /* lower kinds first at equal times */
	uint32_t id;    /* cpu or task index */
};

struct sl_evq {
	struct sl_ev near[SL_EVQ_NEAR]; /* sorted from nh to nn */
	size_t nh, nn;
	struct sl_ev *h;                /* 4-ary heap */
	size_t hn, cap;
	size_t n;                       /* pending events in both */
	uint64_t seq;
	uint64_t head_t;                /* time of the first event (when n > 0):
					 * kept by push and pop, so the engine's
					 * peeks (several per event) are a load */
};

/* The out-of-line parts (evq.c): the heap, and the near array when full. */
void sl_evq_heap_push(struct sl_evq *q, const struct sl_ev *ev);
void sl_evq_heap_pop(struct sl_evq *q, struct sl_ev *ev);
void sl_evq_near_full(struct sl_evq *q);

static inline int sl_evq_before(const struct sl_ev *a, const struct sl_ev *b)
{
	return a->t < b->t || (a->t == b->t && a->ord < b->ord);
}

/* (t, ord) before event b */
static inline int sl_evq_key_before(uint64_t t, uint64_t ord, const struct sl_ev *b)
{
	return t < b->t || (t == b->t && ord < b->ord);
}

/* Add an event (its sequence number is assigned here). Inline: the engine
 * pushes two or three events per scheduling decision (tests/bench/40-o1.sh)
 * and the near-array case is a few instructions. The event is written field
 * by field into its slot: built on the stack and copied, the copy's 16-byte
 * loads waited on the fields' smaller stores (no store forwarding), which
 * was most of a push's time. */
static inline void sl_evq_push(struct sl_evq *q, uint64_t t, uint32_t kind, uint32_t id,
			       uint64_t gen)
{
	uint64_t ord = (uint64_t)kind << 56 | (q->seq++ & ((1ULL << 56) - 1));
	struct sl_ev *s;
	size_t i;

	q->n++;
	if (q->hn && !sl_evq_key_before(t, ord, &q->h[0])) {
		struct sl_ev ev = { t, ord, gen, kind, id };
		sl_evq_heap_push(q, &ev);
		return;
	}
	/* earlier than the whole heap: the near array */
	if (q->nn == SL_EVQ_NEAR)
		sl_evq_near_full(q);
	i = q->nn++;
	while (i > q->nh && sl_evq_key_before(t, ord, &q->near[i - 1])) {
		q->near[i] = q->near[i - 1];
		i--;
	}
	if (i == q->nh) /* before everything else queued */
		q->head_t = t;
	s = &q->near[i];
	s->t = t;
	s->ord = ord;
	s->gen = gen;
	s->kind = kind;
	s->id = id;
}

/* Remove the first event into *ev; returns 0, or -1 if empty. */
static inline int sl_evq_pop(struct sl_evq *q, struct sl_ev *ev)
{
	uint64_t t = UINT64_MAX;
	if (!q->n)
		return -1;
	q->n--;
	if (q->nh < q->nn && (!q->hn || sl_evq_before(&q->near[q->nh], &q->h[0]))) {
		const struct sl_ev *s = &q->near[q->nh++];
		/* field by field (see push) */
		ev->t = s->t;
		ev->ord = s->ord;
		ev->gen = s->gen;
		ev->kind = s->kind;
		ev->id = s->id;
		if (q->nh == q->nn)
			q->nh = q->nn = 0;
	} else {
		/* through a copy: *ev (the engine's loop variable) can then
		 * stay in registers, its address never leaving the inline code */
		struct sl_ev h;
		sl_evq_heap_pop(q, &h);
		*ev = h;
	}
	/* the new first event: the head of the near array or of the heap */
	if (q->nh < q->nn)
		t = q->near[q->nh].t;
	if (q->hn && q->h[0].t < t)
		t = q->h[0].t;
	q->head_t = t;
	return 0;
}

/* Time of the first event; UINT64_MAX if empty. */
static inline uint64_t sl_evq_peek_time(const struct sl_evq *q)
{
	return q->n ? q->head_t : UINT64_MAX;
}

/* Free the storage (q itself is caller's). */
void sl_evq_release(struct sl_evq *q);

#endif
