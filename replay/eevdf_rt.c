/* replay/eevdf_rt.c - the RT class beside the fair one in the eevdf model:
 * select_task_rq_rt's CPU for a waking RT task, pull_rt_task and
 * push_rt_tasks (kernel/sched/rt.c, v6.18; the rules themselves are
 * sl_eevdf_select_rt, eevdf_util.c, and the lists rt.c). */
#include "eevdf_priv.h"

/* each CPU's best queued RT prio (rt.highest_prio.curr), -1 none, for
 * sl_eevdf_select_rt (ncpus <= 64) */
static void rt_best(struct ev_run *r, int *best)
{
	int c, q;
	for (c = 0; c < r->e->ncpus; c++) {
		q = sl_prio_first(&r->rq[c].rtq);
		best[c] = q >= SL_PRIO_MAX ? -1 : q;
	}
}

int ev_select_rt(struct ev_run *r, struct sl_task *p, int cpu, int this_cpu)
{
	struct sl_engine *e = r->e;
	const struct sl_task *cur = e->cpus[cpu].curr;
	int best[64];
	if (e->ncpus > 64)
		return cpu;
	rt_best(r, best);
	return sl_eevdf_select_rt(e->ncpus, best, cur && ev_T(r, cur)->rt ? ev_T(r, cur)->rt_se.prio : -1,
				  cur && ev_task_pinned(e, cur), ev_T(r, p)->rt_se.prio, p->cpumask, cpu, this_cpu);
}

struct pullable {
	struct sl_engine *e;
	int c, this_cpu;
};

/* a task of CPU c's RT lists that may be pulled to this_cpu */
static int pullable_ok(void *ctx, int pi)
{
	const struct pullable *p = ctx;
	const struct sl_task *et = &p->e->tasks[pi];
	return et != p->e->cpus[p->c].curr && sl_task_allowed(et, p->this_cpu) && et->state == SL_TS_RUNNABLE;
}

int ev_pull_rt(struct ev_run *r, int this_cpu)
{
	struct sl_engine *e = r->e;
	struct pullable ctx = { e, 0, this_cpu };
	int q, pi, best = -1, best_c = -1;
	/* what this CPU would run: its best queued RT prio (rt.highest_prio.curr) */
	int best_q = sl_prio_first(&r->rq[this_cpu].rtq);
	for (ctx.c = 0; ctx.c < e->ncpus; ctx.c++) {
		const struct sl_task *sc = e->cpus[ctx.c].curr;
		if (ctx.c == this_cpu)
			continue;
		pi = sl_rt_find(&r->rq[ctx.c].rtq, SL_PRIO_LINKS(r->t), 1, best_q, pullable_ok, &ctx, &q);
		/* one better than what runs there is about to run there: that
		 * CPU is skipped (p->prio < src_rq->donor->prio) */
		if (pi >= 0 && q >= (sc && ev_T(r, sc)->rt ? ev_T(r, sc)->rt_se.prio : SL_PRIO_MAX)) {
			best = pi;
			best_q = q;
			best_c = ctx.c;
		}
	}
	if (best < 0)
		return 0;
	sl_rt_dequeue(&r->rq[best_c].rtq, SL_PRIO_LINKS(r->t), best, &r->t[best].rt_se);
	sl_engine_pull(e, &e->tasks[best], best_c, this_cpu);
	return 1;
}

struct pushable {
	struct sl_engine *e;
	int next;
};

/* a waiting task of the CPU's RT lists that may run elsewhere */
static int pushable_ok(void *ctx, int pi)
{
	const struct pushable *p = ctx;
	const struct sl_task *et = &p->e->tasks[pi];
	return pi != p->next && !ev_task_pinned(p->e, et) && et->state == SL_TS_RUNNABLE;
}

void ev_push_rt(struct ev_run *r, int cpu, int next)
{
	struct sl_engine *e = r->e;
	const struct sl_task *nt = &e->tasks[next];
	struct pushable ctx = { e, next };
	int best[64], k, q, pi, target;
	if (e->ncpus > 64)
		return;
	for (k = 0; k < e->ncpus; k++) {
		pi = sl_rt_find(&r->rq[cpu].rtq, SL_PRIO_LINKS(r->t), 1, SL_PRIO_MAX, pushable_ok, &ctx, &q);
		if (pi < 0)
			return;
		rt_best(r, best);
		/* find_lock_lowest_rq() from the running one's CPU */
		target = sl_eevdf_select_rt(e->ncpus, best, ev_T(r, nt)->rt_se.prio, ev_task_pinned(e, nt), q,
					    e->tasks[pi].cpumask, cpu, -1);
		if (target == cpu)
			return;
		sl_rt_dequeue(&r->rq[cpu].rtq, SL_PRIO_LINKS(r->t), pi, &r->t[pi].rt_se);
		sl_engine_pull(e, &e->tasks[pi], cpu, target);
	}
}
