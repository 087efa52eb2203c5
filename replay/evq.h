/* replay/evq.h - the engine's event queue: a 4-ary min-heap ordered by
 * (time, kind, sequence), so equal-time events always come out in the same
 * order. Private to the engine. (A calendar queue was tried: no faster
 * here with up to 10 000 pending events, slower with few.) */
#ifndef SL_EVQ_H
#define SL_EVQ_H

#include <stddef.h>
#include <stdint.h>

struct sl_ev {
	uint64_t t;     /* ns */
	uint64_t ord;   /* kind << 56 | insertion sequence: the tie-break */
	uint64_t gen;   /* validity token (per-CPU run_gen, per-task token) */
	uint32_t kind;  /* lower kinds first at equal times */
	uint32_t id;    /* cpu or task index */
};

struct sl_evq {
	struct sl_ev *h;
	size_t n, cap;
	uint64_t seq;
};

/* Add an event (its sequence number is assigned here). */
void sl_evq_push(struct sl_evq *q, uint64_t t, uint32_t kind, uint32_t id, uint64_t gen);
/* Remove the first event into *ev; returns 0, or -1 if empty. */
int sl_evq_pop(struct sl_evq *q, struct sl_ev *ev);
/* Time of the first event; UINT64_MAX if empty. */
static inline uint64_t sl_evq_peek_time(const struct sl_evq *q)
{
	return q->n ? q->h[0].t : UINT64_MAX;
}
/* Free the storage (q itself is caller's). */
void sl_evq_release(struct sl_evq *q);

#endif
