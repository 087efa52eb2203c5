/* collector/evsort.c - see evsort.h */
#include "evsort.h"

#include <stdlib.h>
#include <string.h>

void sl_evbuf_init(struct sl_evbuf *b)
{
	memset(b, 0, sizeof(*b));
}

void sl_evbuf_push(struct sl_evbuf *b, const struct sl_event *ev)
{
	SL_GROW(b->ev, b->cap, b->n + 1);
	b->ev[b->n++] = *ev;
	if (ev->ts > b->max_ts)
		b->max_ts = ev->ts;
}

/* bottom-up merge sort: stable, O(n log n), no recursion */
void sl_evbuf_sort(struct sl_evbuf *b)
{
	struct sl_event *src = b->ev, *dst, *t;
	size_t n = b->n, w, i, sorted = 1;

	for (i = 1; i < n; i++)
		if (src[i].ts < src[i - 1].ts) {
			sorted = 0;
			break;
		}
	if (sorted)
		return;
	dst = xmalloc(n * sizeof(*dst));
	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t lo = i, mid = i + w < n ? i + w : n,
			       hi = i + 2 * w < n ? i + 2 * w : n;
			size_t a = lo, c = mid, o = lo;
			while (a < mid && c < hi)
				dst[o++] = src[c].ts < src[a].ts ? src[c++] : src[a++];
			while (a < mid)
				dst[o++] = src[a++];
			while (c < hi)
				dst[o++] = src[c++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != b->ev) {
		memcpy(b->ev, src, n * sizeof(*src));
		free(src);
	} else {
		free(dst);
	}
}

int sl_evbuf_flush(struct sl_evbuf *b, uint64_t upto, sl_event_fn fn, void *ctx)
{
	size_t i = 0;
	int rc = 0;
	while (i < b->n && b->ev[i].ts <= upto) {
		rc = fn(ctx, &b->ev[i]);
		i++;
		if (rc)
			break;
	}
	if (i && b->n > i)
		memmove(b->ev, b->ev + i, (b->n - i) * sizeof(*b->ev));
	b->n -= i;
	return rc;
}

void sl_evbuf_release(struct sl_evbuf *b)
{
	free(b->ev);
	memset(b, 0, sizeof(*b));
}

#define STREAM_BATCH 65536
#define QUIET_NS 1000000000ULL

void sl_evstream_init(struct sl_evstream *s, sl_event_fn fn, void *ctx)
{
	memset(s, 0, sizeof(*s));
	sl_evbuf_init(&s->buf);
	s->fn = fn;
	s->ctx = ctx;
	s->batch = STREAM_BATCH;
}

static int stream_flush(struct sl_evstream *s, int all)
{
	uint64_t wm = UINT64_MAX;
	size_t i;
	int rc;
	if (!all) {
		size_t seen = 0;
		for (i = 0; i < s->ncpu; i++)
			seen += s->cpu_last[i] != UINT64_MAX;
		if (seen < s->expect_cpus && s->buf.n < 16 * s->batch)
			return 0;
		for (i = 0; i < s->ncpu; i++)
			if (s->cpu_last[i] != UINT64_MAX && s->cpu_last[i] + QUIET_NS >= s->buf.max_ts &&
			    s->cpu_last[i] < wm)
				wm = s->cpu_last[i];
		if (wm == UINT64_MAX || wm == 0)
			return 0;
		wm--; /* strictly older: ties may still come from other CPUs */
	}
	sl_evbuf_sort(&s->buf);
	if (s->buf.n && s->buf.ev[0].ts <= wm) {
		size_t n = 0;
		while (n < s->buf.n && s->buf.ev[n].ts <= wm)
			n++;
		s->delivered = s->buf.ev[n - 1].ts;
	}
	rc = sl_evbuf_flush(&s->buf, wm, s->fn, s->ctx);
	return rc;
}

int sl_evstream_push(struct sl_evstream *s, const struct sl_event *ev)
{
	if (ev->cpu >= 0) {
		size_t c = (size_t)ev->cpu, i;
		if (c >= s->ncpu) {
			s->cpu_last = xrealloc(s->cpu_last, (c + 1) * sizeof(uint64_t));
			for (i = s->ncpu; i <= c; i++)
				s->cpu_last[i] = UINT64_MAX;
			s->ncpu = c + 1;
		}
		if (s->cpu_last[c] == UINT64_MAX || ev->ts > s->cpu_last[c])
			s->cpu_last[c] = ev->ts;
	}
	if (ev->ts < s->delivered) {
		struct sl_event late = *ev;
		late.ts = s->delivered;
		s->late++;
		sl_evbuf_push(&s->buf, &late);
	} else {
		sl_evbuf_push(&s->buf, ev);
	}
	if (s->buf.n >= s->batch)
		return stream_flush(s, 0);
	return 0;
}

int sl_evstream_finish(struct sl_evstream *s)
{
	return stream_flush(s, 1);
}

void sl_evstream_release(struct sl_evstream *s)
{
	sl_evbuf_release(&s->buf);
	free(s->cpu_last);
	memset(s, 0, sizeof(*s));
}
