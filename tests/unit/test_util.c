/* tests/unit/test_util.c - the small shared helpers: SL_CMP, sl_ilog2
 * (common/util.h) and the key index (common/keyix.h). */
#include "harness.h"
#include "../../common/keyix.h"
#include "../../common/util.h"

SL_TEST(util_cmp_and_ilog2)
{
	uint64_t big = UINT64_MAX, one = 1;
	CHECK_EQ_INT(SL_CMP(3, 5), -1);
	CHECK_EQ_INT(SL_CMP(5, 5), 0);
	CHECK_EQ_INT(SL_CMP(-2, -7), 1);
	/* unsigned: no overflow from a subtraction */
	CHECK_EQ_INT(SL_CMP(big, one), 1);
	CHECK_EQ_INT(SL_CMP(one, big), -1);
	/* the kernel's ilog2 (floor): 1 -> 0, 2 and 3 -> 1, 4..7 -> 2, 8 -> 3;
	 * so 1 + ilog2(cpus) is 1, 2, 2, 3, 4 for 1, 2, 3, 4, 8 CPUs */
	CHECK_EQ_INT(sl_ilog2(1), 0);
	CHECK_EQ_INT(sl_ilog2(2), 1);
	CHECK_EQ_INT(sl_ilog2(3), 1);
	CHECK_EQ_INT(sl_ilog2(4), 2);
	CHECK_EQ_INT(sl_ilog2(7), 2);
	CHECK_EQ_INT(sl_ilog2(8), 3);
	CHECK_EQ_INT(sl_ilog2(1024), 10);
	CHECK_EQ_INT(sl_ilog2(0), 0);
	CHECK_EQ_INT(sl_ilog2(-4), 0);
}

SL_TEST(keyix_sorts_by_key_then_item_and_finds_the_first)
{
	/* items 0..5 with keys 7, 3, 7, -1, 3, 9: by key then item the order
	 * is (-1, 3), (3, 1), (3, 4), (7, 0), (7, 2), (9, 5) */
	static const int64_t keys[] = { 7, 3, 7, -1, 3, 9 };
	static const size_t want[] = { 3, 1, 4, 0, 2, 5 };
	struct sl_keyix v[6];
	size_t i;
	for (i = 0; i < 6; i++) {
		v[5 - i].key = keys[i]; /* handed in reverse: ties must still end by item */
		v[5 - i].i = i;
	}
	sl_keyix_sort(v, 6);
	for (i = 0; i < 6; i++)
		CHECK_EQ_INT(v[i].i, want[i]);
	CHECK_EQ_INT(sl_keyix_lower(v, 6, 3), 1);  /* the first of the two 3s */
	CHECK_EQ_INT(sl_keyix_lower(v, 6, 7), 3);
	CHECK_EQ_INT(sl_keyix_lower(v, 6, 4), 3);  /* absent: where it would go */
	CHECK_EQ_INT(sl_keyix_lower(v, 6, -5), 0);
	CHECK_EQ_INT(sl_keyix_lower(v, 6, 10), 6); /* past the end */
	CHECK_EQ_INT(sl_keyix_lower(v, 0, 3), 0);
	sl_keyix_sort(v, 0);
}
