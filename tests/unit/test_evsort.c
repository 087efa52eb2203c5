/* tests/unit/test_evsort.c - stable sorting and the streaming reorder. */
#include "harness.h"
#include "../../collector/evsort.h"

#include <stdlib.h>

struct out {
	uint64_t ts[64];
	uint64_t pos[64];
	int n;
};

static int collect(void *ctx, const struct sl_event *ev)
{
	struct out *o = ctx;
	if (o->n < 64) {
		o->ts[o->n] = ev->ts;
		o->pos[o->n] = ev->pos;
	}
	o->n++;
	return 0;
}

static struct sl_event mk(uint64_t ts, int cpu, uint64_t pos)
{
	struct sl_event e;
	sl_event_clear(&e);
	e.ts = ts;
	e.cpu = cpu;
	e.pos = pos;
	return e;
}

SL_TEST(evbuf_sort_is_stable)
{
	struct sl_evbuf b;
	struct out o = { { 0 }, { 0 }, 0 };
	/* ts: 5 3 5 1 3 -> 1(pos 3) 3(1) 3(4) 5(0) 5(2): equal ts keep push order */
	uint64_t ts[] = { 5, 3, 5, 1, 3 };
	uint64_t want_pos[] = { 3, 1, 4, 0, 2 };
	int i;
	sl_evbuf_init(&b);
	for (i = 0; i < 5; i++) {
		struct sl_event e = mk(ts[i], 0, (uint64_t)i);
		sl_evbuf_push(&b, &e);
	}
	sl_evbuf_sort(&b);
	CHECK_EQ_INT(sl_evbuf_flush(&b, UINT64_MAX, collect, &o), 0);
	CHECK_EQ_INT(o.n, 5);
	for (i = 0; i < 5; i++)
		CHECK_EQ_INT(o.pos[i], want_pos[i]);
	sl_evbuf_release(&b);
}

SL_TEST(evstream_merges_cpus_in_order)
{
	struct sl_evstream s;
	struct out o = { { 0 }, { 0 }, 0 };
	int i;
	/* CPU 0 at even ts, CPU 1 at odd ts, each in order, pushed in blocks
	 * of ten so that the cross-CPU order is off by up to 19 ns */
	sl_evstream_init(&s, collect, &o);
	s.batch = 5; /* try to flush often: only events no CPU can precede go */
	s.expect_cpus = 2;
	for (i = 0; i < 40; i++) {
		int blk = i / 10, k = i % 10;
		int cpu = blk % 2;
		uint64_t ts = (uint64_t)((blk / 2) * 20 + 2 * k + cpu);
		struct sl_event e = mk(ts + 1000, cpu, (uint64_t)i);
		CHECK_EQ_INT(sl_evstream_push(&s, &e), 0);
	}
	CHECK_EQ_INT(sl_evstream_finish(&s), 0);
	CHECK_EQ_INT(o.n, 40);
	for (i = 0; i < 40; i++)
		CHECK_EQ_INT(o.ts[i], 1000 + (uint64_t)i);
	CHECK_EQ_INT(s.late, 0);
	sl_evstream_release(&s);
}

SL_TEST(evstream_late_event_is_clamped)
{
	struct sl_evstream s;
	struct out o = { { 0 }, { 0 }, 0 };
	struct sl_event e;
	int i;
	sl_evstream_init(&s, collect, &o);
	s.batch = 2;
	/* two CPUs advance to 100 and 101; then CPU 0 goes back to 50: already
	 * delivered up to 99, so it is delivered at 99 and counted late */
	for (i = 0; i < 2; i++) {
		e = mk(100 + (uint64_t)i, i, (uint64_t)i);
		sl_evstream_push(&s, &e);
	}
	e = mk(102, 1, 2);
	sl_evstream_push(&s, &e);
	e = mk(103, 0, 3);
	sl_evstream_push(&s, &e);
	e = mk(50, 0, 4);
	sl_evstream_push(&s, &e);
	sl_evstream_finish(&s);
	CHECK_EQ_INT(o.n, 5);
	for (i = 1; i < o.n; i++)
		CHECK(o.ts[i] >= o.ts[i - 1]);
	CHECK_EQ_INT(s.late, 1);
	sl_evstream_release(&s);
}

/* perf.data's rounds: flush(upto) on an unsorted buffer delivers the
 * events at or before upto in (time, push order) and keeps the rest in
 * push order; events pushed later sort after the kept ones at equal times. */
SL_TEST(evbuf_flush_upto_keeps_the_rest)
{
	struct sl_evbuf b;
	struct out o = { { 0 }, { 0 }, 0 };
	/* pushed (ts, pos): (5,0) (3,1) (5,2) (1,3) (3,4); flush(3) -> pos 3 1 4;
	 * kept (5,0) (5,2); then (4,5) (5,6); flush all -> pos 5 0 2 6 */
	uint64_t ts[] = { 5, 3, 5, 1, 3, 4, 5 };
	uint64_t want_pos[] = { 3, 1, 4, 5, 0, 2, 6 };
	int i;
	sl_evbuf_init(&b);
	for (i = 0; i < 5; i++) {
		struct sl_event e = mk(ts[i], 0, (uint64_t)i);
		sl_evbuf_push(&b, &e);
	}
	CHECK_EQ_INT(sl_evbuf_flush(&b, 3, collect, &o), 0);
	CHECK_EQ_INT(o.n, 3);
	CHECK_EQ_INT(b.n, 2);
	CHECK_EQ_INT(b.last_out, 3);
	CHECK_EQ_INT(b.nout, 3);
	CHECK_EQ_INT(b.ev[0].pos, 0);
	CHECK_EQ_INT(b.ev[1].pos, 2);
	for (i = 5; i < 7; i++) {
		struct sl_event e = mk(ts[i], 1, (uint64_t)i);
		sl_evbuf_push(&b, &e);
	}
	CHECK_EQ_INT(sl_evbuf_flush(&b, 3, collect, &o), 0); /* nothing <= 3 left */
	CHECK_EQ_INT(o.n, 3);
	CHECK_EQ_INT(sl_evbuf_flush(&b, UINT64_MAX, collect, &o), 0);
	CHECK_EQ_INT(o.n, 7);
	for (i = 0; i < 7; i++)
		CHECK_EQ_INT(o.pos[i], want_pos[i]);
	CHECK_EQ_INT(b.n, 0);
	CHECK_EQ_INT(b.max_ts, 5);
	CHECK_EQ_INT(b.nout, 7);
	sl_evbuf_release(&b);
}

/* sl_big_grow keeps what the array held across growths (each a move of
 * the mapping to a new place: 4096 elements, then whole 2 MiB mappings) and
 * gives at least what was asked. Pushed: 300 000 events of 136 bytes (41 MB,
 * past several growths), two CPUs interleaved in blocks of 1000 out of
 * order; delivered: every one, in ts order (ts = push index with the blocks
 * of CPU 1 pushed before CPU 0's), pos intact. */
SL_TEST(evbuf_big_growth_keeps_every_event)
{
	struct sl_evbuf b;
	uint64_t *v = NULL, i, n = 300000, last = 0, cnt = 0, bad = 0;
	size_t cap = 0;
	sl_evbuf_init(&b);
	for (i = 0; i < n; i++) {
		/* block k of 1000: pushed in order k^1 (pairs swapped) */
		uint64_t blk = i / 1000, j = ((blk ^ 1) * 1000) + i % 1000;
		struct sl_event e = mk(j < n ? j : i, (int)(blk & 1), j < n ? j : i);
		sl_evbuf_push(&b, &e);
	}
	CHECK(b.cap >= n);
	CHECK_EQ_INT(b.n, n);
	for (i = 0; i < b.n; i++)
		if (b.ev[i].pos != b.ts[i])
			bad++;
	CHECK_EQ_INT(bad, 0);
	sl_evbuf_sort(&b);
	for (i = 0; i < b.n; i++) {
		if (i && b.ev[i].ts < last)
			bad++;
		last = b.ev[i].ts;
		cnt++;
	}
	CHECK_EQ_INT(bad, 0);
	CHECK_EQ_INT(cnt, n);
	CHECK_EQ_INT(b.ev[0].ts, 0);
	CHECK_EQ_INT(b.ev[n - 1].ts, n - 1);
	sl_evbuf_release(&b);
	/* the array alone: values across growths (4096 -> 2 MiB -> ...) */
	for (i = 0; i < 1000000; i++) {
		SL_BIG_GROW(v, cap, i + 1);
		v[i] = i * 7;
	}
	CHECK(cap >= 1000000);
	for (i = 0; i < 1000000; i++)
		if (v[i] != i * 7)
			bad++;
	CHECK_EQ_INT(bad, 0);
	sl_big_free(v, cap, sizeof(*v));
}

/* sl_grow_huge keeps what the array held across growths: doubling from 16
 * elements in the heap (realloc) up to 2 MiB, then new blocks of whole
 * 2 MiB (at 8 bytes an element: 262 144 per 2 MiB) with the values copied;
 * the capacity is at least what was asked and, from 2 MiB on, a whole
 * number of 2 MiB (what xmalloc_huge rounds to). The memory is free()'s. */
SL_TEST(grow_huge_keeps_values_across_growths)
{
	uint64_t *v = NULL, i, bad = 0;
	size_t cap = 0, n = 1500000;
	for (i = 0; i < n; i++) {
		SL_GROW_HUGE(v, cap, i + 1);
		v[i] = i * 3 + 1;
	}
	CHECK(cap >= n);
	CHECK_EQ_INT(cap * sizeof(*v) % ((size_t)2 << 20), 0);
	for (i = 0; i < n; i++)
		if (v[i] != i * 3 + 1)
			bad++;
	CHECK_EQ_INT(bad, 0);
	free(v);
	v = xmalloc_huge(((size_t)2 << 20) + 8); /* 2 MiB + 8 bytes: 4 MiB */
	v[0] = 1;
	v[(((size_t)2 << 20) + 8) / 8 - 1] = 2;
	CHECK_EQ_INT(v[0] + v[(((size_t)2 << 20) + 8) / 8 - 1], 3);
	free(v);
}
