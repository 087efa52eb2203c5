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



/* Streaming reorder for inputs whose events are in order per CPU but
 * interleaved across CPUs (ftrace text): events are held until no CPU can
 * still produce an earlier one, so memory stays bounded. A CPU silent for
 * more than a second of trace time does not hold the others back; an event
 * older than what was already delivered is delivered at that time instead
 * (counted in `late`). */
struct sl_evstream {
	struct sl_evbuf buf;
	uint64_t *cpu_last;
	size_t ncpu;
	uint64_t delivered; /* ts of the last delivered event */
	uint64_t late;
	size_t batch;       /* events held before a flush is tried (65536) */
	size_t expect_cpus; /* CPUs the trace has, if known: none is flushed
			     * before all were seen (or 16 batches are held) */
	sl_event_fn fn;
	void *ctx;
};
void sl_evstream_init(struct sl_evstream *s, sl_event_fn fn, void *ctx);
/* Add an event; may deliver older ones. Returns 0 or fn's non-zero value. */
int sl_evstream_push(struct sl_evstream *s, const struct sl_event *ev);
/* Deliver everything left. */
int sl_evstream_finish(struct sl_evstream *s);
void sl_evstream_release(struct sl_evstream *s);
#endif
