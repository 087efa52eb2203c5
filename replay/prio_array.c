/* replay/prio_array.c - see prio_array.h. */
#include "prio_array.h"

#include <stdio.h>
#include <string.h>

void sl_prio_init(struct sl_prio_array *a)
{
	int q;
	memset(a, 0, sizeof(*a));
	for (q = 0; q < SL_PRIO_MAX; q++)
		a->head[q] = a->tail[q] = -1;
	sl_prio_bit_set(a, SL_PRIO_MAX);
}

void sl_prio_links_init(struct sl_prio_links l, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		sl_prio_link(l, (int)i)->next = sl_prio_link(l, (int)i)->prev = -1;
}

void sl_prio_splice_tail(struct sl_prio_array *a, struct sl_prio_links l, int from, int to)
{
	int first = a->head[from], last = a->tail[from];
	if (first < 0)
		return;
	sl_prio_link(l, first)->prev = a->tail[to];
	if (a->tail[to] >= 0)
		sl_prio_link(l, a->tail[to])->next = first;
	else
		a->head[to] = first;
	a->tail[to] = last;
	a->head[from] = a->tail[from] = -1;
	sl_prio_bit_clear(a, from);
	sl_prio_bit_set(a, to);
}

long sl_prio_check(const struct sl_prio_array *a, struct sl_prio_links l, long max, int cpu,
		   int array, sl_prio_ok_fn ok, void *ctx, char *msg, size_t msglen)
{
	long n = 0;
	int q;
	if (!(a->bitmap[SL_PRIO_MAX >> 6] & (1ULL << (SL_PRIO_MAX & 63)))) {
		snprintf(msg, msglen, "delimiter bit lost");
		return -1;
	}
	for (q = 0; q < SL_PRIO_MAX; q++) {
		int set = !!(a->bitmap[q >> 6] & (1ULL << (q & 63))), prev = -1, i;
		if (set != (a->head[q] >= 0)) {
			snprintf(msg, msglen, "prio %d: bitmap %d vs list", q, set);
			return -1;
		}
		for (i = a->head[q]; i >= 0; prev = i, i = sl_prio_link(l, i)->next) {
			if (sl_prio_link(l, i)->prev != prev || (ok && !ok(ctx, i, cpu, array, q))) {
				snprintf(msg, msglen, "task %d at prio %d: links or fields wrong", i, q);
				return -1;
			}
			if (++n > max) {
				snprintf(msg, msglen, "prio %d: list loop", q);
				return -1;
			}
		}
		if (prev != a->tail[q]) {
			snprintf(msg, msglen, "prio %d: tail wrong", q);
			return -1;
		}
	}
	if (n != a->nr_active) {
		snprintf(msg, msglen, "nr_active %d, counted %ld", a->nr_active, n);
		return -1;
	}
	return n;
}
