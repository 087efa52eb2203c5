/* replay/smp.c - the SMP layer shared by every policy, simplified from
 * 2.6.20 (schedulers.md §2.9): wakeup and fork CPU choice, periodic and
 * new-idle balancing through the policy's steal() hook. Every choice
 * honours the task's cpumask and is deterministic (ties: the task's
 * previous CPU, then the lowest CPU number). See docs/replay.md. */
#include "engine_priv.h"

#include <string.h>

int sl_smp_wake_cpu(struct sl_engine *e, struct sl_task *p, int waker_cpu)
{
	int prev = p->cpu, c, best = -1;

	if (e->ncpus == 1)
		return 0;
	/* woken in the same instant it blocked: still its CPU's curr, stays */
	if (p->blocked)
		return p->cpu;
	if (prev < 0 || prev >= e->ncpus || !sl_task_allowed(p, prev)) {
		/* its CPU is not allowed (any more): the least loaded allowed one */
		for (c = 0; c < e->ncpus; c++)
			if (sl_task_allowed(p, c) && (best < 0 || e->cpus[c].load < e->cpus[best].load))
				best = c;
		return best;
	}
	/* 2.6.20 try_to_wake_up, SD_WAKE_AFFINE (the only wake flag of the MC
	 * and CPU domains): move to the waker's CPU when
	 * 100 * (load there + the task's weight) <= imbalance * load here, with
	 * imbalance = 100 + (125 - 100) / 2 = 112; otherwise stay. Idle CPUs
	 * get work from balancing. Interrupt wakeups have no waker CPU here. */
	if (waker_cpu >= 0 && waker_cpu < e->ncpus && waker_cpu != prev &&
	    sl_task_allowed(p, waker_cpu) &&
	    100 * (e->cpus[waker_cpu].load + p->load_weight) <= 112 * e->cpus[prev].load)
		return waker_cpu;
	return prev;
}

int sl_smp_fork_cpu(struct sl_engine *e, struct sl_task *p, int parent_cpu)
{
	int c, best = -1;
	if (e->ncpus == 1)
		return 0;
	if (parent_cpu >= 0 && parent_cpu < e->ncpus && sl_task_allowed(p, parent_cpu))
		best = parent_cpu;
	for (c = 0; c < e->ncpus; c++) {
		if (!sl_task_allowed(p, c))
			continue;
		if (best < 0 || e->cpus[c].nr_running < e->cpus[best].nr_running ||
		    (e->cpus[c].nr_running == e->cpus[best].nr_running &&
		     e->cpus[c].load < e->cpus[best].load))
			best = c;
	}
	return best;
}

/* Pull tasks to cpu `this` from the busiest CPU. newidle: this CPU is
 * about to go idle (pull one task if any CPU has one waiting). */
void sl_smp_balance(struct sl_engine *e, int this, int newidle)
{
	struct sl_cpu *dst = &e->cpus[this], *src;
	int c, busiest = -1, moves = 0;

	if (!e->ops->steal)
		return;
	for (c = 0; c < e->ncpus; c++)
		if (c != this && e->cpus[c].nr_running >= 2 &&
		    (busiest < 0 || e->cpus[c].load > e->cpus[busiest].load))
			busiest = c;
	if (busiest < 0)
		return;
	src = &e->cpus[busiest];
	/* imbalance_pct 125 of the CPU domain */
	if (!newidle && src->load * 100 <= dst->load * 125)
		return;
	while (src->nr_running >= 2 && moves < 32 && !e->priv->failed) {
		struct sl_enq_info w;
		struct sl_task *p = e->ops->steal(e, busiest, this);
		if (!p)
			break;
		if (!p->on_rq || p->cpu != busiest || !sl_task_allowed(p, this) ||
		    p->state == SL_TS_RUNNING) {
			sl_eng_error(e, "invariant: %s stole task %d which it may not move", e->ops->name,
				     p->idx);
			return;
		}
		p->on_rq = 0;
		src->nr_running--;
		src->load -= p->load_weight;
		e->priv->nrunnable--;
		e->priv->st.migrations++;
		moves++;
		memset(&w, 0, sizeof(w));
		w.kind = SL_ENQ_MIGRATE;
		w.now = e->now;
		w.waker = -1;
		w.waker_cpu = -1;
		w.src_cpu = busiest;
		sl_eng_enqueue(e, p, this, &w);
		if (newidle)
			break;
		/* another move only helps if the gap exceeds one such task */
		if (src->load <= dst->load || src->load - dst->load <= p->load_weight)
			break;
	}
}

void sl_smp_tick(struct sl_engine *e, int cpu)
{
	struct sl_cpu *c = &e->cpus[cpu];
	/* 2.6.20 rebalance_tick: the interval depends on whether the CPU is
	 * idle now (1 ms) or busy (x busy_factor 64), counted from the last
	 * balance, so a CPU that has just gone idle balances within 1 ms */
	uint64_t interval = c->curr ? e->priv->busy_balance_ns : e->priv->idle_balance_ns;
	if (e->ncpus == 1 || e->now - c->last_balance < interval)
		return;
	c->last_balance = e->now;
	sl_smp_balance(e, cpu, 0);
}
