/* replay/prio_array.h - the priority array the models share, as the
 * kernel's struct prio_array (2.6.20 kernel/sched.c): one FIFO list per
 * priority level, a bitmap of the non-empty levels with a delimiter bit at
 * SL_PRIO_MAX (so find-first-set needs no bound check: "no task" is
 * SL_PRIO_MAX, the idle task's prio), and the number of queued tasks.
 *
 * Used by o1 (o1_rq.c: active and expired arrays of prio 0..139), sd (sd.c:
 * the same), rsdl (rsdl.c: active and expired arrays of levels 0..39 and
 * one array of real-time queues 0..98) and the RT class of rsdl, cfs and
 * eevdf (rt.h: lists 0..98).
 *
 * Lists link tasks by index (the engine's task index), through a
 * struct sl_prio_link that must be the FIRST member of the model's per-task
 * struct; a model names its task table with SL_PRIO_LINKS(table). The level
 * of a queued task is the model's business: every operation that needs it
 * takes it as an argument. Every operation is O(1) except the searches,
 * which look at 3 words. The bitmap is exact: bit q is set iff list q is
 * non-empty (sl_prio_check() verifies it). */
#ifndef SL_PRIO_ARRAY_H
#define SL_PRIO_ARRAY_H

#include <stddef.h>
#include <stdint.h>

#define SL_PRIO_MAX 140          /* levels 0..139 (MAX_PRIO); SL_PRIO_MAX = none */
#define SL_PRIO_WORDS 3          /* 141 bits: the levels and the delimiter */

/* Run-list links of one task (task indexes, -1 none). */
struct sl_prio_link {
	int32_t next, prev;
};

struct sl_prio_array {
	int nr_active;                     /* tasks queued in this array */
	uint64_t bitmap[SL_PRIO_WORDS];    /* bit q: list q non-empty; bit 140 always set */
	int32_t head[SL_PRIO_MAX], tail[SL_PRIO_MAX];
};

/* Where the links of a model's tasks are: task i's struct sl_prio_link is
 * the first member of table[i]. Built in place by SL_PRIO_LINKS (the stride
 * is a constant once the inline functions below are inlined). */
struct sl_prio_links {
	char *base;
	size_t stride;
};
#define SL_PRIO_LINKS(table) ((struct sl_prio_links){ (char *)(table), sizeof(*(table)) })

static inline struct sl_prio_link *sl_prio_link(struct sl_prio_links l, int i)
{
	return (struct sl_prio_link *)(void *)(l.base + (size_t)i * l.stride);
}

/* An empty array (all lists empty, only the delimiter bit set). */
void sl_prio_init(struct sl_prio_array *a);
/* Reset the links of tasks 0..n-1 to "not queued". */
void sl_prio_links_init(struct sl_prio_links l, size_t n);

static inline void sl_prio_bit_set(struct sl_prio_array *a, int q)
{
	a->bitmap[q >> 6] |= 1ULL << (q & 63);
}
static inline void sl_prio_bit_clear(struct sl_prio_array *a, int q)
{
	a->bitmap[q >> 6] &= ~(1ULL << (q & 63));
}

/* sched_find_first_bit from level `from` (0..SL_PRIO_MAX): the first
 * non-empty level >= from, SL_PRIO_MAX if none. */
static inline int sl_prio_next(const struct sl_prio_array *a, int from)
{
	int i;
	for (i = from; i <= SL_PRIO_MAX; i++) {
		uint64_t w = a->bitmap[i >> 6] >> (i & 63);
		if (w)
			return i + __builtin_ctzll(w);
		i |= 63;
	}
	return SL_PRIO_MAX;
}
/* The best (lowest) non-empty level, SL_PRIO_MAX if the array is empty. */
static inline int sl_prio_first(const struct sl_prio_array *a)
{
	int w;
	for (w = 0; w < SL_PRIO_WORDS; w++)
		if (a->bitmap[w])
			return w * 64 + __builtin_ctzll(a->bitmap[w]);
	return SL_PRIO_MAX;
}

/* enqueue_task: task i (not queued) at the tail of list q. */
static inline void sl_prio_add_tail(struct sl_prio_array *a, struct sl_prio_links l, int i, int q)
{
	struct sl_prio_link *p = sl_prio_link(l, i);
	p->next = -1;
	p->prev = a->tail[q];
	if (a->tail[q] >= 0)
		sl_prio_link(l, a->tail[q])->next = i;
	else
		a->head[q] = i;
	a->tail[q] = i;
	sl_prio_bit_set(a, q);
	a->nr_active++;
}

/* enqueue_task_head: task i (not queued) at the head of list q. */
static inline void sl_prio_add_head(struct sl_prio_array *a, struct sl_prio_links l, int i, int q)
{
	struct sl_prio_link *p = sl_prio_link(l, i);
	if (a->head[q] < 0) {
		sl_prio_add_tail(a, l, i, q);
		return;
	}
	p->prev = -1;
	p->next = a->head[q];
	sl_prio_link(l, a->head[q])->prev = i;
	a->head[q] = i;
	a->nr_active++;
}

/* Task i (not queued) just before the queued task `before`, which is on
 * list q (list_add_tail(&p->run_list, &before->run_list)). */
static inline void sl_prio_insert_before(struct sl_prio_array *a, struct sl_prio_links l, int i,
					 int before, int q)
{
	struct sl_prio_link *p = sl_prio_link(l, i), *b = sl_prio_link(l, before);
	p->next = before;
	p->prev = b->prev;
	if (b->prev >= 0)
		sl_prio_link(l, b->prev)->next = i;
	else
		a->head[q] = i;
	b->prev = i;
	a->nr_active++;
}

/* dequeue_task: task i off list q (the level it is queued at). */
static inline void sl_prio_del(struct sl_prio_array *a, struct sl_prio_links l, int i, int q)
{
	struct sl_prio_link *p = sl_prio_link(l, i);
	if (p->prev >= 0)
		sl_prio_link(l, p->prev)->next = p->next;
	else
		a->head[q] = p->next;
	if (p->next >= 0)
		sl_prio_link(l, p->next)->prev = p->prev;
	else
		a->tail[q] = p->prev;
	if (a->head[q] < 0)
		sl_prio_bit_clear(a, q);
	a->nr_active--;
	p->next = p->prev = -1;
}

/* Move every task of list from to the tail of list to, in order; list
 * from ends empty. The tasks keep whatever level the model recorded. */
void sl_prio_splice_tail(struct sl_prio_array *a, struct sl_prio_links l, int from, int to);

/* Invariant check (debug mode) of the array `array` (the model's number
 * for it) of cpu: the delimiter is set; for every level, bit q is set iff
 * list q is non-empty, every task's prev link points to its predecessor
 * and the tail to the last task; the lists hold nr_active tasks in all and
 * at most max (a loop guard); ok(ctx, task, cpu, array, q), if not NULL,
 * accepts each queued task's own fields. Returns the number of tasks, or
 * -1 with a message ("what: where") in msg. */
typedef int (*sl_prio_ok_fn)(void *ctx, int task, int cpu, int array, int q);
long sl_prio_check(const struct sl_prio_array *a, struct sl_prio_links l, long max, int cpu,
		   int array, sl_prio_ok_fn ok, void *ctx, char *msg, size_t msglen);

#endif
