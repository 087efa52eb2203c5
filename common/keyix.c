/* common/keyix.c - an index of items by an integer key (keyix.h). */
#include "keyix.h"
#include "util.h"

#include <stdlib.h>

static int cmp_keyix(const void *a, const void *b)
{
	const struct sl_keyix *x = a, *y = b;
	return x->key != y->key ? SL_CMP(x->key, y->key) : SL_CMP(x->i, y->i);
}

void sl_keyix_sort(struct sl_keyix *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_keyix);
}

size_t sl_keyix_lower(const struct sl_keyix *v, size_t n, int64_t key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
