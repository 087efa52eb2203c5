/* tests/unit/test_engine_evq.c - the event queue against a reference: every
 * pop must return the least pending (time, kind, sequence), for random
 * pushes that respect the engine's rule (never earlier than the last pop),
 * with clustered, equal, sparse and far-apart times. */
#include "harness.h"
#include "../../replay/evq.h"
#include "../../common/util.h"

#include <stdlib.h>

struct ref {
	uint64_t t, seq;
	uint32_t kind, id;
};

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

static size_t ref_min(const struct ref *r, size_t n)
{
	size_t i, b = 0;
	for (i = 1; i < n; i++)
		if (r[i].t < r[b].t || (r[i].t == r[b].t && (r[i].kind < r[b].kind ||
							      (r[i].kind == r[b].kind && r[i].seq < r[b].seq))))
			b = i;
	return b;
}

SL_TEST(engine_evq_matches_reference)
{
	int pattern, bad = 0;
	for (pattern = 0; pattern < 5; pattern++) {
		struct sl_evq q;
		struct ref *r = NULL;
		size_t n = 0, cap = 0, step;
		uint64_t seed = 99 + (uint64_t)pattern, now = 0, seq = 0;
		memset(&q, 0, sizeof(q));
		for (step = 0; step < 24000; step++) {
			int push = n == 0 || (step < 12000 ? lcg(&seed) % 3 != 0 : lcg(&seed) % 3 == 0);
			if (push) {
				uint64_t dt;
				switch (pattern) {
				case 0: dt = lcg(&seed) % 1000; break;                 /* dense */
				case 1: dt = (lcg(&seed) % 4) * 1000000; break;        /* many equal times */
				case 2: dt = lcg(&seed) % 2 ? 0 : lcg(&seed) * 4096; break; /* cluster + far */
				case 3: dt = (lcg(&seed) % 100000) * 100000; break;    /* sleepers */
				default: dt = lcg(&seed) % 5 == 0 ? (uint64_t)1 << (lcg(&seed) % 40) : 1; break;
				}
				SL_GROW(r, cap, n + 1);
				r[n].t = now + dt;
				r[n].kind = (uint32_t)(lcg(&seed) % 4) + 1;
				r[n].seq = seq++;
				r[n].id = (uint32_t)step;
				sl_evq_push(&q, r[n].t, r[n].kind, r[n].id, 0);
				n++;
			} else {
				struct sl_ev ev;
				size_t m = ref_min(r, n);
				if (sl_evq_pop(&q, &ev) || ev.t != r[m].t || ev.id != r[m].id)
					bad++;
				now = r[m].t;
				r[m] = r[--n];
			}
			if (q.n != n)
				bad++;
			/* the first pending time, worked out from the reference
			 * list (UINT64_MAX when it is empty) */
			if (sl_evq_peek_time(&q) != (n ? r[ref_min(r, n)].t : UINT64_MAX))
				bad++;
		}
		while (n) {
			struct sl_ev ev;
			size_t m = ref_min(r, n);
			if (sl_evq_pop(&q, &ev) || ev.id != r[m].id)
				bad++;
			r[m] = r[--n];
		}
		sl_evq_release(&q);
		free(r);
	}
	CHECK_EQ_INT(bad, 0);
}
