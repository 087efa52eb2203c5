/* replay/eevdf_group.c - group scheduling of the eevdf model, flattened
 * (docs/groups.md).
 *
 * The kernel (CONFIG_FAIR_GROUP_SCHED, kernel/sched/fair.c, v6.18) gives
 * each task group a group entity on every CPU, whose weight is the group's
 * share of tg->shares (calc_group_shares):
 *
 *   load     = max(weight of the group's queued tasks on the CPU,
 *                  the group's load average on the CPU)
 *   tg_load  = the group's load averages summed over the CPUs, with this
 *              CPU's counted as load
 *   shares   = clamp(tg->shares * load / tg_load, MIN_SHARES = 2, tg->shares)
 *
 * recomputed (update_cfs_group) when the group's queue on the CPU changes
 * and at every tick of a task of the group. The group entity competes in
 * the CPU's root queue; the group's tasks share its time by their weights.
 *
 * The model keeps one queue per CPU: a task of a group is queued there with
 * the weight it has at the root, shares * its weight / the group's queued
 * weight on the CPU (the product of the weights down its path, the
 * kernel's h_load), re-set with reweight_entity whenever that changes. Its
 * CPU share is the kernel's; the order of the picks inside a group follows
 * the tasks' own deadlines at the root rather than the group entity's (one
 * level, not two). The load wake_affine and the load balancer read is the
 * root's, as the kernel keeps it: each group's entity on the CPU has its
 * own PELT average here (gse_*), weighted by its share, so that a group
 * task's blocked load stays inside its group (docs/groups.md, "The root's
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
		gr->se_w = xcalloc((size_t)e->ncpus, sizeof(*gr->se_w));
		gr->on = xcalloc((size_t)e->ncpus, sizeof(*gr->on));
		gr->qw = xcalloc((size_t)e->ncpus, sizeof(*gr->qw));
		gr->gl = xcalloc((size_t)e->ncpus, sizeof(*gr->gl));
		for (c = 0; c < e->ncpus; c++)
			gr->se_w[c] = SL_NICE_0_LOAD; /* init_tg_cfs_entry */
	}
	r->gw = xcalloc((size_t)e->ncpus, sizeof(*r->gw));
	r->gl = xcalloc((size_t)e->ncpus, sizeof(*r->gl));
}

void ev_groups_release(struct ev_run *r)
{
	size_t g;
	for (g = 0; g < r->ngrp; g++) {
		free(r->grp[g].member);
		free(r->grp[g].se_avg);
		free(r->grp[g].se_w);
		free(r->grp[g].on);
		free(r->grp[g].qw);
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
		       g->se_w[cpu]);
}

/* The group's entity on cpu after its queue there changed: queued while
 * the group has a task queued there (delayed ones count), its weight the
 * group's share there while it has one (update_cfs_group keeps the weight
 * of an emptied group), and its load average re-weighted with it
 * (reweight_entity: load_avg = weight * load_sum / divider). */
static void gse_update(struct ev_run *r, struct ev_group *g, int cpu, unsigned long shares)
{
	struct sl_pelt *a = &g->se_avg[cpu];
	uint32_t divider;
	gse_sync(r, g, cpu);
	divider = SL_PELT_LOAD_AVG_MAX - 1024 + a->period_contrib;
	g->on[cpu] = r->gw[cpu] > 0;
	if (g->on[cpu])
		g->se_w[cpu] = shares;
	a->load_avg = (unsigned long)(g->se_w[cpu] * a->load_sum / divider);
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
	a->load_avg = (unsigned long)(g->se_w[cpu] * a->load_sum / divider);
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

unsigned long ev_group_qw(const struct ev_run *r, int cpu)
{
	unsigned long w = 0;
	size_t g;
	for (g = 0; g < r->ngrp; g++)
		w += r->grp[g].qw[cpu];
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

void ev_group_sync(struct ev_run *r, const struct ev_task *p)
{
	struct sl_engine *e = r->e;
	struct ev_group *g;
	uint64_t tg_load = 0;
	size_t i;
	int c;
	if (p->grp < 0)
		return;
	g = &r->grp[p->grp];
	for (c = 0; c < e->ncpus; c++)
		r->gw[c] = r->gl[c] = 0;
	for (i = 0; i < g->n; i++) {
		const struct ev_task *t = &r->t[g->member[i]];
		if (t->se.on_rq)
			r->gw[t->cpu] += t->nice_w; /* delayed ones too: still queued */
		if (t->pelt_cpu >= 0) {
			uint64_t l = task_group_load(r, t);
			r->gl[t->pelt_cpu] += l;
			tg_load += l;
		}
	}
	for (i = 0; i < g->n; i++) {
		struct ev_task *t = &r->t[g->member[i]];
		unsigned long w;
		if (!t->se.on_rq || t->se.delayed || t->rt)
			continue;
		/* its part of the group entity's weight on its CPU */
		w = (unsigned long)((uint64_t)group_shares(r, g, t->cpu, tg_load) * t->nice_w / r->gw[t->cpu]);
		if (w < EV_MIN_SHARES)
			w = EV_MIN_SHARES;
		if (w != t->se.weight)
			ev_reweight(r, t, w);
	}
	for (c = 0; c < e->ncpus; c++) {
		gse_update(r, g, c, r->gw[c] ? group_shares(r, g, c, tg_load) : 0);
		g->qw[c] = 0;
		g->gl[c] = r->gl[c];
	}
	for (i = 0; i < g->n; i++) {
		const struct ev_task *t = &r->t[g->member[i]];
		if (t->se.on_rq)
			g->qw[t->cpu] += t->se.weight;
	}
}
