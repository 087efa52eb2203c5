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
	memmove(b->ev, b->ev + i, (b->n - i) * sizeof(*b->ev));
	b->n -= i;
	return rc;
}

void sl_evbuf_release(struct sl_evbuf *b)
{
	free(b->ev);
	memset(b, 0, sizeof(*b));
}
