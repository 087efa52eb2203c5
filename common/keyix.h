/* common/keyix.h - an index of items by an integer key: (key, item) pairs
 * sorted by key, the items of one key in their own order, and the first
 * pair of a key (the threads of a tid, the task of a utid, slices in time
 * order). */
#ifndef SL_KEYIX_H
#define SL_KEYIX_H

#include <stddef.h>
#include <stdint.h>

struct sl_keyix {
	int64_t key;
	size_t i; /* the item's index */
};

/* Sort v[0..n) by key, then i. */
void sl_keyix_sort(struct sl_keyix *v, size_t n);

/* The first of v[0..n) (sorted) whose key is key or more, n if none. */
size_t sl_keyix_lower(const struct sl_keyix *v, size_t n, int64_t key);

#endif
