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
	if (b->n == b->cap || b->n == b->tscap) {
		SL_BIG_GROW(b->ts, b->tscap, b->n + 1);
		SL_BIG_GROW(b->ev, b->cap, b->n + 1);
	}
	b->ts[b->n] = ev->ts;
	b->ev[b->n++] = *ev;
	if (ev->ts > b->max_ts)
		b->max_ts = ev->ts;
}

static int key_after(const struct sl_evkey *x, const struct sl_evkey *y)
{
	return x->ts != y->ts ? x->ts > y->ts : x->idx > y->idx;
}

/* Sort key[0..m) by (time, index). They come as a few long sorted runs
 * (one per CPU buffer, plus the carried-over rest), so merge the natural
 * runs pairwise: O(m log runs). */
static void sort_keys(struct sl_evbuf *b, size_t m)
{
	struct sl_evkey *src = b->key, *dst;
	size_t *run = NULL, nrun = 0, rcap = 0, i;

	SL_GROW(run, rcap, 2);
	run[nrun++] = 0;
	for (i = 1; i < m; i++)
		if (key_after(&src[i - 1], &src[i])) {
			SL_GROW(run, rcap, nrun + 2);
			run[nrun++] = i;
		}
	run[nrun] = m; /* run r is [run[r], run[r + 1]) */
	if (nrun == 1) {
		free(run);
		return;
	}
	SL_BIG_GROW(b->tmp, b->tcap, m);
	dst = b->tmp;
	while (nrun > 1) {
		size_t r, w = 0;
		for (r = 0; r < nrun; r += 2) {
			size_t x = run[r], xe = run[r + 1], y = xe,
			       ye = r + 1 < nrun ? run[r + 2] : xe, o = x;
			while (x < xe && y < ye)
				dst[o++] = key_after(&src[x], &src[y]) ? src[y++] : src[x++];
			while (x < xe)
				dst[o++] = src[x++];
			while (y < ye)
				dst[o++] = src[y++];
			run[w++] = run[r];
		}
		run[w] = m;
		nrun = w;
		{
			struct sl_evkey *t = src;
			src = dst;
			dst = t;
		}
	}
	if (src != b->key)
		memcpy(b->key, src, m * sizeof(*src));
	free(run);
}

/* Keys of the events with ts <= upto, sorted; returns how many (0: none). */
static size_t sorted_keys(struct sl_evbuf *b, uint64_t upto)
{
	size_t i, m = 0;
	int sorted = 1;
	SL_BIG_GROW(b->key, b->kcap, b->n);
	for (i = 0; i < b->n; i++) {
		if (b->ts[i] > upto)
			continue;
		b->key[m].ts = b->ts[i];
		b->key[m].idx = i;
		if (m && b->key[m].ts < b->key[m - 1].ts)
			sorted = 0;
		m++;
	}
	if (m && !sorted)
		sort_keys(b, m);
	return m;
}

void sl_evbuf_sort(struct sl_evbuf *b)
{
	size_t m = sorted_keys(b, UINT64_MAX), i;
	struct sl_event *out = NULL;
	size_t ocap = 0;
	for (i = 0; i < m && b->key[i].idx == i; i++)
		;
	if (i == m)
		return; /* already in order */
	SL_BIG_GROW(out, ocap, b->cap);
	for (i = 0; i < m; i++) {
		out[i] = b->ev[b->key[i].idx];
		b->ts[i] = b->key[i].ts;
	}
	sl_big_free(b->ev, b->cap, sizeof(*b->ev));
	b->ev = out;
	b->cap = ocap;
}

int sl_evbuf_flush(struct sl_evbuf *b, uint64_t upto, sl_event_fn fn, void *ctx)
{
	size_t m = b->n ? sorted_keys(b, upto) : 0, i, j;
	int rc;
	if (!m)
		return 0;
	for (i = 0; i < m; i++) {
		b->last_out = b->key[i].ts;
		b->nout++;
		if ((rc = fn(ctx, &b->ev[b->key[i].idx])) != 0)
			return rc;
	}
	for (i = j = 0; i < b->n; i++)
		if (b->ts[i] > upto) {
			b->ts[j] = b->ts[i];
			b->ev[j++] = b->ev[i];
		}
	b->n = j;
	return 0;
}

void sl_evbuf_release(struct sl_evbuf *b)
{
	sl_big_free(b->ev, b->cap, sizeof(*b->ev));
	sl_big_free(b->key, b->kcap, sizeof(*b->key));
	sl_big_free(b->tmp, b->tcap, sizeof(*b->tmp));
	sl_big_free(b->ts, b->tscap, sizeof(*b->ts));
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
	rc = sl_evbuf_flush(&s->buf, wm, s->fn, s->ctx);
	s->delivered = s->buf.last_out;
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
