/* collector/evsort.h - a buffer that sorts events stably by time, for
 * formats whose CPUs are interleaved out of order. */
#ifndef SL_EVSORT_H
#define SL_EVSORT_H

#include <stddef.h>
#include "event.h"

struct sl_evbuf {
	struct sl_event *ev;
	size_t n, cap;
	uint64_t max_ts; /* largest ts pushed */
};

void sl_evbuf_init(struct sl_evbuf *b);
/* Append a copy of *ev. */
void sl_evbuf_push(struct sl_evbuf *b, const struct sl_event *ev);
/* Sort stably by ts (equal ts keep push order). */
void sl_evbuf_sort(struct sl_evbuf *b);
/* Deliver events with ts <= upto (all if upto == UINT64_MAX) in order to fn
 * and drop them from the buffer; the buffer must be sorted. Returns 0 or
 * the first non-zero value fn returned. */
int sl_evbuf_flush(struct sl_evbuf *b, uint64_t upto, sl_event_fn fn, void *ctx);
/* Free the storage (b itself is the caller's). */
void sl_evbuf_release(struct sl_evbuf *b);

#endif
