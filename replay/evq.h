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
};

/* Add an event (its sequence number is assigned here). */
void sl_evq_push(struct sl_evq *q, uint64_t t, uint32_t kind, uint32_t id, uint64_t gen);
/* Remove the first event into *ev; returns 0, or -1 if empty. */
int sl_evq_pop(struct sl_evq *q, struct sl_ev *ev);
/* Time of the first event; UINT64_MAX if empty. */
uint64_t sl_evq_peek_time(const struct sl_evq *q);
/* Free the storage (q itself is caller's). */
void sl_evq_release(struct sl_evq *q);

#endif
