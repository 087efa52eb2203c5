/* tests/unit/test_prio_array.c - the shared priority array
 * (replay/prio_array.h) that o1, sd and rsdl queue their tasks on. */
#include "harness.h"
#include "../../replay/prio_array.h"

#include <string.h>

struct tt {
	struct sl_prio_link link; /* first, as prio_array.h requires */
	int level;
};

/* the tasks of list q, head to tail, as a string "a b c" */
static const char *walk(const struct sl_prio_array *a, const struct tt *t, int q)
{
	static char buf[256];
	size_t off = 0;
	int i;
	buf[0] = 0;
	for (i = a->head[q]; i >= 0; i = t[i].link.next)
		off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%d", off ? " " : "", i);
	return buf;
}

static int level_ok(void *ctx, int task, int cpu, int array, int q)
{
	const struct tt *t = ctx;
	return cpu == 3 && array == 1 && t[task].level == q;
}

/* Queue operations against lists written out by hand. */
SL_TEST(prio_array_lists_and_bits)
{
	struct sl_prio_array a;
	struct tt t[8];
	char msg[128];
	struct sl_prio_links l = SL_PRIO_LINKS(t);
	int i;
	memset(t, 0, sizeof(t));
	sl_prio_init(&a);
	sl_prio_links_init(l, 8);
	/* empty: only the delimiter, first = next = 140 (MAX_PRIO) */
	CHECK_EQ_INT(sl_prio_first(&a), SL_PRIO_MAX);
	CHECK_EQ_INT(sl_prio_next(&a, 0), SL_PRIO_MAX);
	CHECK_EQ_INT(a.bitmap[2], 1ULL << (140 - 128));
	/* 0,1,2 at 120 (tail), 3 at the head of 120, 4 at 5, 5 at 100, 6 at 139 */
	for (i = 0; i < 3; i++)
		sl_prio_add_tail(&a, l, i, 120);
	sl_prio_add_head(&a, l, 3, 120);
	sl_prio_add_head(&a, l, 4, 5); /* head of an empty list = its tail */
	sl_prio_add_tail(&a, l, 5, 100);
	sl_prio_add_tail(&a, l, 6, 139);
	CHECK_STR(walk(&a, t, 120), "3 0 1 2");
	CHECK_EQ_INT(a.tail[120], 2);
	CHECK_EQ_INT(a.head[5], 4);
	CHECK_EQ_INT(a.tail[5], 4);
	CHECK_EQ_INT(a.nr_active, 7);
	CHECK_EQ_INT(sl_prio_first(&a), 5);
	CHECK_EQ_INT(sl_prio_next(&a, 6), 100);
	CHECK_EQ_INT(sl_prio_next(&a, 101), 120);
	CHECK_EQ_INT(sl_prio_next(&a, 121), 139);
	CHECK_EQ_INT(sl_prio_next(&a, 140), SL_PRIO_MAX);
	/* bits 5 (word 0), 100 (word 1 bit 36), 120 (word 1 bit 56), 139 and
	 * the delimiter 140 (word 2 bits 11, 12) */
	CHECK_EQ_INT(a.bitmap[0], 1ULL << 5);
	CHECK_EQ_INT(a.bitmap[1], (1ULL << 36) | (1ULL << 56));
	CHECK_EQ_INT(a.bitmap[2], (1ULL << 11) | (1ULL << 12));
	/* 7 just before 1 (the kernel's child-runs-first); then, on fresh
	 * lists 0 1 2 3, off with 1 (middle), 0 (head), 3 (tail), 2 (last) */
	sl_prio_insert_before(&a, l, 7, 1, 120);
	CHECK_STR(walk(&a, t, 120), "3 0 7 1 2");
	CHECK_EQ_INT(a.nr_active, 8);
	CHECK_EQ_INT(sl_prio_check(&a, l, 8, 3, 1, NULL, NULL, msg, sizeof(msg)), 8);
	sl_prio_init(&a);
	sl_prio_links_init(l, 8);
	for (i = 0; i < 4; i++)
		sl_prio_add_tail(&a, l, i, 120);
	sl_prio_del(&a, l, 1, 120);
	CHECK_STR(walk(&a, t, 120), "0 2 3");
	sl_prio_del(&a, l, 0, 120);
	CHECK_STR(walk(&a, t, 120), "2 3");
	CHECK_EQ_INT(a.head[120], 2);
	sl_prio_del(&a, l, 3, 120);
	CHECK_EQ_INT(a.tail[120], 2);
	CHECK_EQ_INT(sl_prio_first(&a), 120);
	sl_prio_del(&a, l, 2, 120);
	CHECK_EQ_INT(a.head[120], -1);
	CHECK_EQ_INT(a.tail[120], -1);
	CHECK_EQ_INT(sl_prio_first(&a), SL_PRIO_MAX); /* the bit goes with the last task */
	CHECK_EQ_INT(a.nr_active, 0);
	CHECK_EQ_INT(sl_prio_check(&a, l, 8, 3, 1, NULL, NULL, msg, sizeof(msg)), 0);
}

/* RSDL's minor rotation: list L goes to the tail of L+1, in order. */
SL_TEST(prio_array_splice_and_check)
{
	struct sl_prio_array a;
	struct tt t[6];
	char msg[128];
	struct sl_prio_links l = SL_PRIO_LINKS(t);
	memset(t, 0, sizeof(t));
	sl_prio_init(&a);
	sl_prio_links_init(l, 6);
	sl_prio_add_tail(&a, l, 0, 7);
	sl_prio_add_tail(&a, l, 1, 7);
	sl_prio_add_tail(&a, l, 2, 8);
	sl_prio_splice_tail(&a, l, 7, 8);
	CHECK_STR(walk(&a, t, 8), "2 0 1");
	CHECK_EQ_INT(a.tail[8], 1);
	CHECK_EQ_INT(t[0].link.prev, 2);
	CHECK_EQ_INT(a.head[7], -1);
	CHECK_EQ_INT(sl_prio_first(&a), 8);
	CHECK_EQ_INT(a.nr_active, 3);
	sl_prio_splice_tail(&a, l, 7, 8); /* empty: nothing moves */
	CHECK_STR(walk(&a, t, 8), "2 0 1");
	sl_prio_splice_tail(&a, l, 8, 9); /* onto an empty list */
	CHECK_STR(walk(&a, t, 9), "2 0 1");
	CHECK_EQ_INT(a.bitmap[0], 1ULL << 9);
	/* check: the model's fields (level) agree; 3 tasks */
	t[0].level = t[1].level = t[2].level = 9;
	CHECK_EQ_INT(sl_prio_check(&a, l, 6, 3, 1, level_ok, t, msg, sizeof(msg)), 3);
	/* a field the model disagrees with, a lost bit, a broken prev link,
	 * a bound that a loop would pass: each is found */
	t[0].level = 8;
	CHECK_EQ_INT(sl_prio_check(&a, l, 6, 3, 1, level_ok, t, msg, sizeof(msg)), -1);
	CHECK_STR(msg, "task 0 at prio 9: links or fields wrong");
	t[0].level = 9;
	CHECK_EQ_INT(sl_prio_check(&a, l, 6, 3, 0, level_ok, t, msg, sizeof(msg)), -1);
	CHECK_EQ_INT(sl_prio_check(&a, l, 2, 3, 1, level_ok, t, msg, sizeof(msg)), -1);
	CHECK_STR(msg, "prio 9: list loop");
	a.bitmap[0] = 0;
	CHECK_EQ_INT(sl_prio_check(&a, l, 6, 3, 1, NULL, NULL, msg, sizeof(msg)), -1);
	CHECK_STR(msg, "prio 9: bitmap 0 vs list");
	a.bitmap[0] = 1ULL << 9;
	t[1].link.prev = 2;
	CHECK_EQ_INT(sl_prio_check(&a, l, 6, 3, 1, NULL, NULL, msg, sizeof(msg)), -1);
	t[1].link.prev = 0;
	a.nr_active = 4;
	CHECK_EQ_INT(sl_prio_check(&a, l, 6, 3, 1, NULL, NULL, msg, sizeof(msg)), -1);
	CHECK_STR(msg, "nr_active 4, counted 3");
	a.nr_active = 3;
	a.bitmap[2] = 0;
	CHECK_EQ_INT(sl_prio_check(&a, l, 6, 3, 1, NULL, NULL, msg, sizeof(msg)), -1);
	CHECK_STR(msg, "delimiter bit lost");
}
