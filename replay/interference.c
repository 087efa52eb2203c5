/* replay/interference.c - see interference.h. */
#include "interference.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

const struct sl_choice sl_interference_choices[] = {
	{ "recorded", SL_INTERFERENCE_RECORDED, "each burst's wall time, as recorded: its work and\nthe interference it had" },
	{ "none", SL_INTERFERENCE_NONE, "each burst's work alone" },
	SL_CHOICES_END
};

/* Task t's interference before wall CPU time p of its own: the whole
 * interference of each phase that ends by p, and of the phase p falls in
 * the part in proportion (its interference spread evenly over its run).
 * wall[k] and irq[k] are the sums over phases 0..k-1 (n + 1 entries). */
static uint64_t irq_before(const struct sl_task_spec *t, const uint64_t *wall, const uint64_t *irq,
			   uint64_t p)
{
	size_t lo = 0, hi = t->nphases, k;
	const struct sl_phase *ph;
	/* the last k with wall[k] <= p */
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;
		if (wall[mid] <= p)
			lo = mid;
		else
			hi = mid - 1;
	}
	k = lo;
	if (k == t->nphases)
		return irq[k];
	ph = &t->phases[k];
	if (ph->run_ns == SL_INF || !ph->run_ns || !ph->irq_ns)
		return irq[k];
	return irq[k] + (uint64_t)((double)ph->irq_ns * ((double)(p - wall[k]) / (double)ph->run_ns));
}

/* The prefix sums of t's phases' wall time and interference (an endless
 * phase counts as 0: nothing after it is reached). */
static void sums(const struct sl_task_spec *t, uint64_t *wall, uint64_t *irq)
{
	size_t k;
	wall[0] = irq[0] = 0;
	for (k = 0; k < t->nphases; k++) {
		const struct sl_phase *ph = &t->phases[k];
		uint64_t r = ph->run_ns == SL_INF ? 0 : ph->run_ns;
		wall[k + 1] = wall[k] + r;
		irq[k + 1] = irq[k] + (ph->run_ns == SL_INF ? 0 : ph->irq_ns);
	}
}

uint64_t sl_behaviour_work_only(struct sl_behaviour *b)
{
	uint64_t **wall, **irq, total = 0;
	size_t i, k;
	if (!b->ntasks)
		return 0;
	wall = xcalloc(b->ntasks, sizeof(*wall));
	irq = xcalloc(b->ntasks, sizeof(*irq));
	for (i = 0; i < b->ntasks; i++) {
		const struct sl_task_spec *t = &b->tasks[i];
		wall[i] = xmalloc((t->nphases + 1) * sizeof(uint64_t));
		irq[i] = xmalloc((t->nphases + 1) * sizeof(uint64_t));
		sums(t, wall[i], irq[i]);
		total += irq[i][t->nphases];
	}
	/* progress points name a point of another task's CPU time: in work
	 * now, so the same point of its program (taken from the wall sums
	 * before any phase changes) */
	for (i = 0; i < b->ntasks; i++) {
		struct sl_task_spec *t = &b->tasks[i];
		if (t->parent >= 0 && (size_t)t->parent < b->ntasks && t->parent_progress_ns) {
			size_t w = (size_t)t->parent;
			t->parent_progress_ns -= irq_before(&b->tasks[w], wall[w], irq[w], t->parent_progress_ns);
		}
		for (k = 0; k < t->nphases; k++) {
			struct sl_phase *ph = &t->phases[k];
			if (ph->waker >= 0 && (size_t)ph->waker < b->ntasks && ph->waker_progress_ns) {
				size_t w = (size_t)ph->waker;
				ph->waker_progress_ns -=
					irq_before(&b->tasks[w], wall[w], irq[w], ph->waker_progress_ns);
			}
		}
	}
	for (i = 0; i < b->ntasks; i++) {
		struct sl_task_spec *t = &b->tasks[i];
		for (k = 0; k < t->nphases; k++) {
			struct sl_phase *ph = &t->phases[k];
			if (ph->run_ns != SL_INF)
				ph->run_ns -= ph->irq_ns < ph->run_ns ? ph->irq_ns : ph->run_ns;
			ph->irq_ns = 0;
		}
		free(wall[i]);
		free(irq[i]);
	}
	free(wall);
	free(irq);
	return total;
}

uint64_t sl_behaviour_irq_ns(const struct sl_behaviour *b)
{
	uint64_t total = 0;
	size_t i, k;
	for (i = 0; i < b->ntasks; i++)
		for (k = 0; k < b->tasks[i].nphases; k++)
			if (b->tasks[i].phases[k].run_ns != SL_INF)
				total += b->tasks[i].phases[k].irq_ns;
	return total;
}
