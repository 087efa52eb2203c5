/* collector/evsort.h - event ordering, in one place: a buffer that sorts
 * events stably by time (the readers whose CPUs are interleaved out of
 * order: perf.data, Perfetto, systrace) and a streaming reorder for inputs
 * in order per CPU (ftrace text). */
#ifndef SL_EVSORT_H
#define SL_EVSORT_H

#include <stddef.h>
#include "event.h"

/* A sort key: an event's time and its index in the buffer. */
struct sl_evkey {
	uint64_t ts;
	size_t idx;
};

/* Events in push order; delivered in (time, push order) order. The sort
 * goes through small keys, so big events are moved once, and merges the
 * natural runs of the input (one per CPU, usually): O(n log runs). */
struct sl_evbuf {
	struct sl_event *ev;
	size_t n, cap;
	uint64_t max_ts;   /* largest ts pushed */
	uint64_t last_out; /* ts of the last event delivered */
	uint64_t nout;     /* events delivered so far */
	struct sl_evkey *key, *tmp;
	size_t kcap, tcap;
	uint64_t *ts;      /* ev[i].ts: what sorting and flushing read, 8
			    * bytes an event in a row instead of a cache
			    * miss on each event */
	size_t tscap;
};

void sl_evbuf_init(struct sl_evbuf *b);
/* Append a copy of *ev. */
void sl_evbuf_push(struct sl_evbuf *b, const struct sl_event *ev);
/* Sort stably by ts (equal ts keep push order). */
void sl_evbuf_sort(struct sl_evbuf *b);
/* Deliver the events with ts <= upto (all if upto == UINT64_MAX) to fn in
 * (ts, push order) order and drop them from the buffer; the others stay,
 * in their order. The buffer need not be sorted. Returns 0, or the first
 * non-zero value fn returned (the delivery stops there). */
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
