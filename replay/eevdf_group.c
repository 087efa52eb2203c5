/* replay/eevdf_group.c - group scheduling of the eevdf model in two levels
 * (docs/groups.md).
 *
 * The kernel (CONFIG_FAIR_GROUP_SCHED, kernel/sched/fair.c, v6.18) gives
 * each task group a queue of its tasks (tg->cfs_rq[cpu], the tasks at their
 * own nice weights) and an entity (tg->se[cpu]) in the CPU's root queue,
 * whose weight is the group's share of tg->shares (calc_group_shares):
 *
 *   load     = max(weight of the group's queued tasks on the CPU,
 *                  the group's load average on the CPU)
 *   tg_load  = the group's load averages summed over the CPUs, with this
 *              CPU's counted as load
 *   shares   = clamp(tg->shares * load / tg_load, MIN_SHARES = 2, tg->shares)
 *
 * recomputed (update_cfs_group) for the entity on a CPU when the group's
 * queue there changes and at every tick of a task of the group there. The
 * entity joins the root when its queue gets its first task and leaves it
 * (or is delayed, DELAY_DEQUEUE) when the queue empties (enqueue_task_fair,
 * dequeue_entities); eevdf.c picks down from the root and charges both
 * levels. The load wake_affine and the load balancer read is the root's,
 * as the kernel keeps it: each group's entity on the CPU has its own PELT
 * average here (gse_*), weighted by its weight, so that a group task's
 * blocked load stays inside its group (docs/groups.md, "The root's
 * load"). */
#include "eevdf_priv.h"
#include "fair_weights.h"

#include <stdlib.h>

#include "../common/util.h"

#define EV_MIN_SHARES 2ul /* MIN_SHARES (scale_load_down of 2) */

void ev_groups_init(struct ev_run *r)
{
	const struct sl_engine *e = r->e;
	size_t g;
	if (!e->ngroups)
		return;
	r->ngrp = e->ngroups;
	r->grp = xcalloc(r->ngrp, sizeof(*r->grp));
	for (g = 0; g < r->ngrp; g++) {
		struct ev_group *gr = &r->grp[g];
		int c;
		gr->shares = e->groups[g].shares < EV_MIN_SHARES ? EV_MIN_SHARES : e->groups[g].shares;
		gr->se_avg = xcalloc((size_t)e->ncpus, sizeof(*gr->se_avg));
		gr->on = xcalloc((size_t)e->ncpus, sizeof(*gr->on));
		gr->gl = xcalloc((size_t)e->ncpus, sizeof(*gr->gl));
		gr->q = xcalloc((size_t)e->ncpus, sizeof(*gr->q));
		gr->gse = xcalloc((size_t)e->ncpus, sizeof(*gr->gse));
		for (c = 0; c < e->ncpus; c++) {
			/* the root's configuration, an empty queue */
			sl_eevdf_rq_init_like(&gr->q[c], &r->rq[c].cfs);
			/* init_tg_cfs_entry: NICE_0_LOAD until it first queues */
			sl_eevdf_se_init(&gr->gse[c], -1, 0);
			gr->gse[c].my_q = &gr->q[c];
			gr->gse[c].slice = r->rq[c].cfs.base_slice;
		}
	}
	r->gw = xcalloc((size_t)e->ncpus, sizeof(*r->gw));
	r->gl = xcalloc((size_t)e->ncpus, sizeof(*r->gl));
}

void ev_groups_release(struct ev_run *r)
{
	size_t g;
	for (g = 0; g < r->ngrp; g++) {
		free(r->grp[g].member);
		int c;
		for (c = 0; c < r->e->ncpus; c++)
			sl_eevdf_rq_release(&r->grp[g].q[c]);
		free(r->grp[g].q);
		free(r->grp[g].gse);
		free(r->grp[g].se_avg);
		free(r->grp[g].on);
		free(r->grp[g].gl);
	}
	free(r->grp);
	free(r->gw);
	free(r->gl);
	r->grp = NULL;
	r->ngrp = 0;
}

void ev_group_add(struct ev_run *r, struct ev_task *p, int idx)
{
	const struct sl_task *et = &r->e->tasks[idx];
	struct ev_group *g;
	p->grp = -1;
	p->nice_w = p->se.weight;
	if (!r->ngrp || !et->spec || !et->spec->group1 || et->spec->group1 > r->ngrp || p->rt)
		return;
	p->grp = (int)et->spec->group1 - 1;
	g = &r->grp[p->grp];
	SL_GROW(g->member, g->cap, g->n + 1);
	g->member[g->n++] = idx;
}

/* The group's load average on its CPU, as the group's cfs_rq keeps it: the
 * tasks attached there, each with its own weight (load_sum counts runnable
 * time only; ___update_load_avg: weight * load_sum / divider), brought up
 * to now. A task's own sums are updated only when it is (en/de)queued or
 * ticks, but the group's cfs_rq decays its blocked tasks' part at every
 * update of that cfs_rq and in update_blocked_averages (kernel/sched/fair.c,
 * v6.18): a task asleep for 100 ms counts 1/9 of its load, not all of it. */
static uint64_t task_group_load(const struct ev_run *r, const struct ev_task *t)
{
	struct sl_pelt a = t->avg;
	uint32_t divider;
	sl_pelt_update(&a, r->e->now, (unsigned long)t->se.on_rq, 0, 0, 1);
	divider = SL_PELT_LOAD_AVG_MAX - 1024 + a.period_contrib;
	return (uint64_t)t->nice_w * a.load_sum / divider;
}

/* calc_group_shares() of group g on cpu */
static unsigned long group_shares(const struct ev_run *r, const struct ev_group *g, int cpu, uint64_t tg_load)
{
	uint64_t load = r->gw[cpu] > r->gl[cpu] ? r->gw[cpu] : r->gl[cpu];
	uint64_t tg_weight = tg_load - r->gl[cpu] + load, shares = g->shares * load;
	if (tg_weight)
		shares /= tg_weight;
	if (shares < EV_MIN_SHARES)
		shares = EV_MIN_SHARES;
	return shares > g->shares ? g->shares : (unsigned long)shares;
}

/* __update_load_avg_se() of the group's entity on cpu: up to now in the
 * state it has had since its last change (queued or not, its weight) */
static void gse_sync(const struct ev_run *r, struct ev_group *g, int cpu)
{
	sl_pelt_update(&g->se_avg[cpu], r->e->now, (unsigned long)g->on[cpu], (unsigned long)g->on[cpu], 0,
		       g->gse[cpu].weight);
}

/* The group's entity on cpu after its queue there changed: its PELT
 * counts it queued while the group has a task queued there (delayed ones
 * count), and its load average follows its weight (reweight_entity:
 * load_avg = weight * load_sum / divider). */
static void gse_update(struct ev_run *r, struct ev_group *g, int cpu)
{
	struct sl_pelt *a = &g->se_avg[cpu];
	uint32_t divider;
	gse_sync(r, g, cpu);
	divider = SL_PELT_LOAD_AVG_MAX - 1024 + a->period_contrib;
	g->on[cpu] = r->gw[cpu] > 0;
	a->load_avg = (unsigned long)(g->gse[cpu].weight * a->load_sum / divider);
}

void ev_group_attach(struct ev_run *r, const struct ev_task *p, int cpu)
{
	struct ev_group *g = &r->grp[p->grp];
	struct sl_pelt *a = &g->se_avg[cpu];
	uint32_t divider;
	gse_sync(r, g, cpu);
	divider = SL_PELT_LOAD_AVG_MAX - 1024 + a->period_contrib;
	a->load_sum += p->avg.load_sum;
	if (a->load_sum > divider)
		a->load_sum = divider;
	a->load_avg = (unsigned long)(g->gse[cpu].weight * a->load_sum / divider);
}

unsigned long ev_group_load(struct ev_run *r, int cpu)
{
	unsigned long l = 0;
	size_t g;
	for (g = 0; g < r->ngrp; g++) {
		gse_sync(r, &r->grp[g], cpu);
		l += r->grp[g].se_avg[cpu].load_avg;
	}
	return l;
}

unsigned long ev_group_root_w(const struct ev_run *r, int cpu, unsigned *h_nr)
{
	unsigned long w = 0;
	unsigned n = r->rq[cpu].cfs.nr_running;
	size_t g;
	for (g = 0; g < r->ngrp; g++)
		if (r->grp[g].gse[cpu].on_rq) {
			w += r->grp[g].gse[cpu].weight;
			n += r->grp[g].q[cpu].nr_running - 1;
		}
	*h_nr = n;
	return w;
}

unsigned long ev_group_h_load(const struct ev_run *r, const struct ev_task *p, unsigned long root)
{
	const struct ev_group *g = &r->grp[p->grp];
	int c = p->pelt_cpu;
	uint32_t divider = SL_PELT_LOAD_AVG_MAX - 1024 + p->avg.period_contrib;
	uint64_t own = (uint64_t)p->nice_w * p->avg.load_sum / divider;
	uint64_t h = (uint64_t)g->se_avg[c].load_avg * root / (root + 1);
	return (unsigned long)(own * h / (g->gl[c] + 1));
}

/* the group's queued weight (r->gw) and load averages (r->gl) on every
 * CPU; returns the group's load summed over the CPUs (tg->load_avg) */
static uint64_t group_loads(struct ev_run *r, const struct ev_group *g)
{
	uint64_t tg_load = 0;
	size_t i;
	int c;
	for (c = 0; c < r->e->ncpus; c++)
		r->gw[c] = r->gl[c] = 0;
	for (i = 0; i < g->n; i++) {
		const struct ev_task *t = &r->t[g->member[i]];
		if (t->se.on_rq && !t->rt)
			r->gw[t->cpu] += t->nice_w; /* delayed ones too: still queued */
		if (t->pelt_cpu >= 0) {
			uint64_t l = task_group_load(r, t);
			r->gl[t->pelt_cpu] += l;
			tg_load += l;
		}
	}
	return tg_load;
}

void ev_group_sync_cpu(struct ev_run *r, int gi, int cpu)
{
	struct ev_group *g = &r->grp[gi];
	uint64_t tg_load = group_loads(r, g);
	int c;
	/* update_cfs_group: the entity on this CPU, while queued */
	if (g->gse[cpu].on_rq) {
		unsigned long w = group_shares(r, g, cpu, tg_load);
		if (w != g->gse[cpu].weight)
			ev_reweight_gse(r, gi, cpu, w);
	}
	for (c = 0; c < r->e->ncpus; c++) {
		gse_update(r, g, c);
		g->gl[c] = r->gl[c];
	}
}

void ev_group_sync(struct ev_run *r, const struct ev_task *p)
{
	if (p->grp >= 0)
		ev_group_sync_cpu(r, p->grp, p->cpu);
}

void ev_gse_enqueue(struct ev_run *r, const struct ev_task *p, int cpu)
{
	struct ev_group *g;
	struct sl_eevdf_rq *root = &r->rq[cpu].cfs;
	struct sl_eevdf_se *gse;
	if (p->grp < 0)
		return;
	g = &r->grp[p->grp];
	gse = &g->gse[cpu];
	if (gse->delayed) {
		/* requeue_delayed_entity: in place, or at V if its lag is positive */
		sl_eevdf_requeue_delayed(root, gse);
		return;
	}
	if (gse->on_rq)
		return;
	/* dequeued in this instant while still the root's curr: put it back
	 * first (both levels) */
	if (root->curr == gse)
		ev_put_prev(r, cpu);
	/* enqueue_entity(): update_cfs_group weighs it (reweight_entity of an
	 * entity not queued: vlag scaled), then place_entity with its lag (not
	 * ENQUEUE_INITIAL: the parents are enqueued with ENQUEUE_WAKEUP) */
	sl_eevdf_reweight_w(gse, group_shares(r, g, cpu, group_loads(r, g)));
	sl_eevdf_enqueue(root, gse, 0);
}

/* dequeue_entities(), a task of a group leaving its queue at a sleep (or
 * exit, or the end of a delayed sleep: DEQUEUE_SLEEP in each) while the
 * group keeps entities queued on the CPU: "bias pick_next to pick a task
 * from this cfs_rq", set_next_buddy(the group's entity), at the root
 * (kernel/sched/fair.c, v6.18; no sched_feat guards it). The root's pick
 * then takes that entity while it is eligible (PICK_BUDDY, on). */
void ev_group_buddy(struct ev_run *r, const struct ev_task *p, int cpu)
{
	if (p->grp >= 0 && r->grp[p->grp].q[cpu].nr_running && r->grp[p->grp].gse[cpu].on_rq)
		r->rq[cpu].cfs.next = &r->grp[p->grp].gse[cpu];
}

void ev_gse_leave(struct ev_run *r, const struct ev_task *p, int cpu)
{
	struct sl_eevdf_se *gse;
	if (p->grp < 0 || r->grp[p->grp].q[cpu].nr_running)
		return;
	gse = &r->grp[p->grp].gse[cpu];
	if (gse->on_rq && !gse->delayed)
		sl_eevdf_dequeue_sleep(&r->rq[cpu].cfs, gse);
}
