/* replay/check.c - engine invariants, checked after every policy call in
 * debug mode (SCHEDLAB_DEBUG=1, opts.debug, always in the unit tests):
 * a task is on at most one CPU, every runnable task is on exactly one
 * runqueue and counted there (and the policy holds as many as the engine
 * counts), and CPU time is conserved (Σ task CPU time = Σ CPU busy time,
 * no task beyond its recorded work). O(tasks + CPUs) per call. */
#include "engine_priv.h"

void sl_eng_check(struct sl_engine *e, const char *where)
{
	unsigned nr[SL_ENGINE_MAX_CPUS] = { 0 };
	unsigned long load[SL_ENGINE_MAX_CPUS] = { 0 };
	uint64_t exec = 0, busy = 0;
	size_t i, runnable = 0;
	int c;

	if (e->priv->failed)
		return;
	e->priv->st.invariant_checks++;
	for (i = 0; i < e->ntasks; i++) {
		const struct sl_task *p = &e->tasks[i];
		exec += p->sum_exec_ns;
		if (p->eng->total_work != SL_INF && p->sum_exec_ns > p->eng->total_work) {
			sl_eng_error(e, "invariant after %s: task %zu ran %llu ns of %llu recorded", where, i,
				     (unsigned long long)p->sum_exec_ns, (unsigned long long)p->eng->total_work);
			return;
		}
		if ((p->state == SL_TS_RUNNABLE || p->state == SL_TS_RUNNING) != (p->on_rq != 0)) {
			sl_eng_error(e, "invariant after %s: task %zu state %d but on_rq %d", where, i,
				     p->state, p->on_rq);
			return;
		}
		if (p->on_rq) {
			if (p->cpu < 0 || p->cpu >= e->ncpus) {
				sl_eng_error(e, "invariant after %s: task %zu on no CPU", where, i);
				return;
			}
			nr[p->cpu]++;
			load[p->cpu] += p->load_weight;
			runnable++;
		}
		if (p->state == SL_TS_RUNNING && e->cpus[p->cpu].curr != p) {
			sl_eng_error(e, "invariant after %s: task %zu running but not cpu %d's curr", where,
				     i, p->cpu);
			return;
		}
	}
	if (runnable != e->priv->nrunnable) {
		sl_eng_error(e, "invariant after %s: %zu runnable tasks, %zu counted", where, runnable,
			     e->priv->nrunnable);
		return;
	}
	for (c = 0; c < e->ncpus; c++) {
		const struct sl_cpu *cpu = &e->cpus[c];
		int k;
		busy += cpu->busy_ns;
		if (cpu->curr) {
			if (cpu->curr->cpu != c ||
			    (cpu->curr->state != SL_TS_RUNNING && !cpu->need_resched &&
			      !e->priv->in_schedule)) {
				sl_eng_error(e, "invariant after %s: cpu %d runs task %d wrongly", where, c,
					     cpu->curr->idx);
				return;
			}
			for (k = 0; k < c; k++)
				if (e->cpus[k].curr == cpu->curr) {
					sl_eng_error(e, "invariant after %s: task %d on cpus %d and %d", where,
						     cpu->curr->idx, k, c);
					return;
				}
		}
		if (nr[c] != cpu->nr_running || load[c] != cpu->load) {
			sl_eng_error(e, "invariant after %s: cpu %d counts %u tasks (load %lu), found %u (%lu)",
				     where, c, cpu->nr_running, cpu->load, nr[c], load[c]);
			return;
		}
		if (e->ops->debug_count) {
			long n = e->ops->debug_count(e, c);
			if (n != (long)nr[c]) {
				sl_eng_error(e, "invariant after %s: %s holds %ld tasks on cpu %d, engine %u",
					     where, e->ops->name, n, c, nr[c]);
				return;
			}
		}
	}
	if (exec != busy)
		sl_eng_error(e, "invariant after %s: tasks ran %llu ns, CPUs were busy %llu ns", where,
			     (unsigned long long)exec, (unsigned long long)busy);
}
