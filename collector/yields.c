/* collector/yields.c - see yields.h. */
#include "yields.h"
#include "../common/ticks.h"
#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

void sl_yields_add(struct sl_yields *y, int32_t task, int cpu, int prio, uint64_t ts, uint64_t dur,
		   size_t phase, uint64_t burst, int weak)
{
	struct sl_yield_cand *c;
	SL_GROW(y->c, y->cap, y->n + 1);
	c = &y->c[y->n++];
	c->task = task;
	c->cpu = cpu;
	c->prio = prio;
	c->ts = ts;
	c->dur = dur;
	c->phase = phase;
	c->burst = burst;
	c->weak = weak;
	c->yield = 0;
}

int sl_yields_emit(const struct sl_yields *y, const struct sl_run_sink *rec)
{
	size_t i;
	for (i = 0; i < y->n; i++) {
		const struct sl_yield_cand *c = &y->c[i];
		if (rec->slice(rec->ctx, c->ts, c->dur, c->cpu, c->task, c->yield ? 'Y' : 'R', c->prio))
			return -1;
	}
	return 0;
}

void sl_yields_runnable(struct sl_yields *y, int32_t task)
{
	if (task < 0)
		return;
	if ((size_t)task >= y->nrun) {
		size_t n = y->nrun;
		SL_GROW(y->run, y->runcap, (size_t)task + 1);
		memset(y->run + n, 0, ((size_t)task + 1 - n) * sizeof(*y->run));
		y->nrun = (size_t)task + 1;
	}
	y->run[task]++;
}

void sl_yields_quiet(struct sl_yields *y, int cpu, uint64_t end)
{
	SL_GROW(y->qend, y->qcap, y->nq + 1);
	SL_GROW(y->qcpu, y->qcap2, y->nq + 1);
	y->qend[y->nq] = end;
	y->qcpu[y->nq++] = cpu;
}

size_t sl_yields_resolve(struct sl_yields *y, size_t ntasks, double tick_ns)
{
	return sl_yields_resolve_tick(y, ntasks, tick_ns, NULL);
}

size_t sl_yields_resolve_tick(struct sl_yields *y, size_t ntasks, double tick_ns,
			      const struct sl_ticks *given)
{
	struct sl_ticks tk;
	size_t i, n = 0, *fill;
	y->ntasks = ntasks;
	y->off = xcalloc(ntasks + 1, sizeof(*y->off));
	sl_ticks_from_ends(y->qend, y->qcpu, y->nq, &tk);
	for (i = 0; i < y->n; i++) {
		struct sl_yield_cand *c = &y->c[i];
		const struct sl_ticks *use = given && given->hz && c->cpu < given->ncpu &&
						     given->phase_ns[c->cpu] >= 0
					     ? given
					     : &tk;
		/* the candidates that decide whether the task yields */
		if ((size_t)c->task < ntasks && !c->weak && !sl_ticks_near(use, c->cpu, c->ts + c->dur, tick_ns))
			y->off[c->task + 1]++;
	}
	sl_ticks_release(&tk);
	/* a task that yields, yields again and again: fewer than SL_YIELDS_MIN,
	 * or not most of its runnable switch-outs, are other preemptions (a
	 * wakeup or an interrupt not traced, a tick off its phase). Only the
	 * candidates no wakeup or tick came near count for it; the weak ones (a
	 * wakeup aimed at the CPU or at the next task in the slice) and the
	 * ones at its CPU's tick are yields of a task that yields so: its
	 * yields forfeit their requests (yield_task_fair, v6.18), so each slice
	 * begins a fresh one, which the tick does not end under 100 us
	 * (update_deadline, protect_slice; docs/model.md "Yields") */
	for (i = 0; i < y->n; i++) {
		struct sl_yield_cand *c = &y->c[i];
		size_t t = (size_t)c->task, k = t < ntasks ? y->off[t + 1] : 0;
		c->yield = t < ntasks && t < y->nrun && k >= SL_YIELDS_MIN && 2 * k >= y->run[t];
		n += (size_t)c->yield;
	}
	memset(y->off, 0, (ntasks + 1) * sizeof(*y->off));
	/* the yields by task, in time order within each (a counting sort) */
	y->ord = xcalloc(n ? n : 1, sizeof(*y->ord));
	fill = xcalloc(ntasks + 1, sizeof(*fill));
	for (i = 0; i < y->n; i++)
		if (y->c[i].yield && (size_t)y->c[i].task < ntasks)
			y->off[y->c[i].task + 1]++;
	for (i = 0; i < ntasks; i++)
		y->off[i + 1] += y->off[i];
	for (i = 0; i < y->n; i++) {
		size_t t = (size_t)y->c[i].task;
		if (y->c[i].yield && t < ntasks)
			y->ord[y->off[t] + fill[t]++] = i;
	}
	free(fill);
	return n;
}

/* A yield's piece p of phase src takes src's interference in proportion
 * to its run (spread evenly over src), at most what src has left after
 * used; returns the interference taken. */
static uint64_t split_irq(struct sl_phase *p, const struct sl_phase *src, uint64_t used)
{
	uint64_t w, left;
	if (!src->irq_ns || src->run_ns == SL_INF || !src->run_ns)
		return 0;
	left = src->irq_ns > used ? src->irq_ns - used : 0;
	w = (uint64_t)((double)p->run_ns * ((double)src->irq_ns / (double)src->run_ns) + 0.5);
	if (w > p->run_ns)
		w = p->run_ns;
	if (w > left)
		w = left;
	p->irq_ns = w;
	return w;
}

void sl_yields_split(const struct sl_yields *y, int32_t task, struct sl_phase **ph, size_t *nph,
		     size_t *cap)
{
	size_t lo, hi, add, i, j, k, n;
	struct sl_phase *out;
	if (!y->off || task < 0 || (size_t)task >= y->ntasks)
		return;
	lo = y->off[task];
	hi = y->off[task + 1];
	add = hi - lo;
	if (!add)
		return;
	n = *nph;
	out = xcalloc(n + add, sizeof(*out));
	for (i = 0, j = lo, k = 0; i < n; i++) {
		uint64_t used = 0, iused = 0;
		const struct sl_phase *src = &(*ph)[i];
		for (; j < hi && y->c[y->ord[j]].phase == i; j++) {
			const struct sl_yield_cand *c = &y->c[y->ord[j]];
			struct sl_phase *p = &out[k++];
			p->run_ns = c->burst > used ? c->burst - used : 0;
			p->end = SL_END_YIELD;
			p->waker = -1;
			iused += split_irq(p, src, iused);
			used = c->burst > used ? c->burst : used;
		}
		out[k] = *src;
		if (out[k].run_ns != SL_INF)
			out[k].run_ns = out[k].run_ns > used ? out[k].run_ns - used : 0;
		out[k].irq_ns = out[k].irq_ns > iused ? out[k].irq_ns - iused : 0;
		if (out[k].run_ns != SL_INF && out[k].irq_ns > out[k].run_ns)
			out[k].irq_ns = out[k].run_ns;
		k++;
	}
	free(*ph);
	*ph = out;
	*nph = k;
	*cap = n + add;
}

void sl_yields_free(struct sl_yields *y)
{
	free(y->c);
	free(y->qend);
	free(y->qcpu);
	free(y->ord);
	free(y->run);
	free(y->off);
	memset(y, 0, sizeof(*y));
}
