/* replay/eevdf_smp.c - the SMP side of the eevdf model as Linux 6.x does
 * it (kernel/sched/fair.c and kernel/sched/pelt.c of v6.6, the domain
 * constants of kernel/sched/topology.c sd_init), in place of the shared
 * 2.6.20 layer of replay/smp.c:
 * - PELT on the model's CPUs (its arithmetic: replay/pelt.c): per-entity
 *   and per-CPU load, runnable and utilisation averages, blocked load of
 *   sleeping tasks kept on the CPU they last ran on; with groups, the
 *   root's load from its own tasks and the groups' entities
 *   (replay/eevdf_group.c);
 * - wakeup placement (select_task_rq_fair): record_wakee / wake_wide,
 *   wake_affine (wake_affine_idle, wake_affine_weight on PELT loads with
 *   task_h_load), select_idle_sibling;
 * - fork placement (SD_BALANCE_FORK: find_idlest_cpu / find_idlest_group);
 * - load balancing (load_balance for CPU_NEWLY_IDLE from the idle path,
 *   CPU_IDLE / CPU_NOT_IDLE from the tick): update_sg_lb_stats,
 *   group_classify, update_sd_pick_busiest, find_busiest_group,
 *   calculate_imbalance (migrate_task / migrate_load), find_busiest_queue,
 *   detach_tasks with can_migrate_task / task_hot, the balance interval and
 *   its back-off.
 * One scheduling domain (MC) spans every CPU, each group one CPU: the
 * machines of our recordings (2 CPUs sharing an L3, no SMT). What is left
 * out and why is in docs/eevdf.md ("SMP"). The code was read in the kernel
 * and written anew here. */
#include "eevdf_priv.h"

#include <limits.h>
#include <string.h>

/* ---- PELT on the model's CPUs ---- */

/* the LLC domain of sd_init (kernel/sched/topology.c, v6.6) with
 * SD_SHARE_PKG_RESOURCES: imbalance_pct 117, cache_nice_tries 1,
 * min_interval sd_weight ms, max_interval 2 * sd_weight, busy_factor 16 */
#define EV_IMBALANCE_PCT 117u
#define EV_CACHE_NICE_TRIES 1u
#define EV_BUSY_FACTOR 16u
/* sysctl_sched_migration_cost (task_hot) and sysctl_sched_nr_migrate */
#define EV_MIGRATION_COST 500000ULL
#define EV_NR_MIGRATE 32u
#define EV_CAPACITY 1024ul /* SCHED_CAPACITY_SCALE: every CPU the same */
/* MAX_PINNED_INTERVAL */
#define EV_MAX_PINNED_INTERVAL 512u

enum { GT_HAS_SPARE = 0, GT_FULLY_BUSY = 1, GT_OVERLOADED = 6 }; /* enum group_type */
enum { CPU_IDLE_ = 0, CPU_NOT_IDLE_ = 1, CPU_NEWLY_IDLE_ = 2 };  /* enum cpu_idle_type */

static unsigned long rq_weight(const struct sl_eevdf_rq *cfs)
{
	return (unsigned long)cfs->avg_load + (cfs->curr && cfs->curr->on_rq ? cfs->curr->weight : 0);
}

/* update_cfs_rq_load_avg(now): the CPU's sums with its queued weight,
 * runnable count and whether a fair task runs */
static void rq_sync(struct ev_run *r, int cpu)
{
	struct ev_rq *rq = &r->rq[cpu];
	const struct sl_eevdf_rq *cfs = &rq->cfs;
	unsigned long w = rq_weight(cfs), gw = 0;
	unsigned nr = (unsigned)cfs->nr_running;
	/* with groups the root's weight holds their entities, and the
	 * runnable count is the root's h_nr_queued, its tasks at both levels */
	if (r->ngrp)
		gw = ev_group_root_w(r, cpu, &nr);
	sl_pelt_update(&rq->avg, r->e->now, w, nr, cfs->curr && cfs->curr->on_rq, 1);
	/* the root tasks' part: the root's weight less its groups' entities'
	 * (their loads are kept by eevdf_group.c) */
	if (r->ngrp)
		sl_pelt_update(&rq->ravg, r->e->now, w > gw ? w - gw : 0, 0, 0, 1);
}

/* a root task's load, with weight w, joins or leaves the root's (rq->ravg;
 * p->avg already aligned with the CPU's sums, which rq->ravg shares) */
static void ravg_add(struct ev_run *r, int cpu, const struct ev_task *p, unsigned long w, int sign)
{
	struct sl_pelt *ra = &r->rq[cpu].ravg;
	if (!r->ngrp || p->grp >= 0)
		return;
	if (sign > 0) {
		ra->load_avg += p->avg.load_avg;
		ra->load_sum += (uint64_t)w * p->avg.load_sum;
	} else {
		sl_pelt_sub_load(ra, &p->avg, w);
	}
}

/* __update_load_avg_se(now) of p, attached to its CPU */
static void se_sync(struct ev_run *r, int cpu, struct ev_task *p)
{
	int on = p->se.on_rq;
	sl_pelt_update(&p->avg, r->e->now, (unsigned long)on, (unsigned long)(on && !p->se.delayed),
		       on && ev_curr_task(r, cpu) == &p->se, p->se.weight);
}

void ev_pelt_update(struct ev_run *r, int cpu, struct ev_task *p)
{
	rq_sync(r, cpu);
	if (p && p->pelt_cpu == cpu && !p->rt)
		se_sync(r, cpu, p);
}

void ev_pelt_detach(struct ev_run *r, struct ev_task *p)
{
	int c = p->pelt_cpu;
	if (c < 0)
		return;
	rq_sync(r, c);
	se_sync(r, c, p);
	sl_pelt_detach(&r->rq[c].avg, &p->avg, p->se.weight);
	ravg_add(r, c, p, p->se.weight, -1);
	p->pelt_cpu = -1;
}

void ev_pelt_enqueue(struct ev_run *r, int cpu, struct ev_task *p)
{
	struct sl_pelt *cfs = &r->rq[cpu].avg;
	if (p->rt)
		return;
	if (p->pelt_cpu == cpu) {
		ev_pelt_seen(r, cpu, p);
		return;
	}
	if (p->pelt_cpu >= 0) {
		/* migrate_task_rq_fair / detach: the load leaves the old CPU */
		ev_pelt_detach(r, p);
	} else if (!p->avg.last && ev_pelt_at_start(r, p)) {
		/* a task older than the trace: its averages and estimate the
		 * kernel's at the start, or estimated from its history */
	} else if (!p->avg.last) {
		/* init_entity_runnable_average: a new task counts its full
		 * weight; post_init_entity_util_avg: half the CPU's spare
		 * capacity, or its share of the CPU's utilisation by weight */
		long cap;
		rq_sync(r, cpu);
		cap = ((long)EV_CAPACITY - (long)cfs->util_avg) / 2;
		p->avg.load_avg = p->se.weight;
		if (cap > 0) {
			if (cfs->util_avg) {
				p->avg.util_avg = cfs->util_avg * p->se.weight / (cfs->load_avg + 1);
				if (p->avg.util_avg > (unsigned long)cap)
					p->avg.util_avg = (unsigned long)cap;
			} else {
				p->avg.util_avg = (unsigned long)cap;
			}
		}
		p->avg.runnable_avg = p->avg.util_avg;
	}
	rq_sync(r, cpu);
	sl_pelt_attach(cfs, &p->avg, p->se.weight);
	ravg_add(r, cpu, p, p->se.weight, 1);
	if (r->ngrp && p->grp >= 0)
		ev_group_attach(r, p, cpu);
	if (!p->avg.last)
		p->avg.last = 1; /* attached at time 0: not "new" any more */
	p->pelt_cpu = cpu;
	ev_pelt_mark(p, cpu); /* attached, its averages at now */
}

void ev_pelt_reweight(struct ev_run *r, struct ev_task *p, unsigned long w)
{
	/* reweight_entity: the load average leaves with the old weight and
	 * comes back with the new one */
	int c = p->pelt_cpu;
	uint32_t divider;
	if (c < 0 || p->rt)
		return;
	ev_pelt_update(r, c, p);
	sl_pelt_detach(&r->rq[c].avg, &p->avg, p->se.weight);
	ravg_add(r, c, p, p->se.weight, -1);
	divider = SL_PELT_LOAD_AVG_MAX - 1024 + p->avg.period_contrib;
	p->avg.load_avg = (unsigned long)(w * p->avg.load_sum / divider);
	ravg_add(r, c, p, w, 1); /* with the new weight, not yet the entity's */
	r->rq[c].avg.load_avg += p->avg.load_avg;
	r->rq[c].avg.load_sum += w * p->avg.load_sum;
	r->rq[c].avg.util_avg += p->avg.util_avg;
	r->rq[c].avg.util_sum += p->avg.util_sum;
	r->rq[c].avg.runnable_avg += p->avg.runnable_avg;
	r->rq[c].avg.runnable_sum += p->avg.runnable_sum;
}

/* cpu_load(), cpu_util_cfs() (UTIL_EST below), cpu_runnable(): the CPU's
 * averages brought up to now (the kernel's are at most a tick old, or kept
 * fresh for idle CPUs by the blocked-load updates of nohz balancing) */
static unsigned long root_load(struct ev_run *r, int c)
{
	if (!r->ngrp)
		return r->rq[c].avg.load_avg;
	/* the root cfs_rq holds the groups' entities, not their tasks: a
	 * group task's blocked load stays in its group's cfs_rq, and the
	 * root sees the group entity's load (its weight, the group's share,
	 * times the time the group had tasks queued there) */
	return r->rq[c].ravg.load_avg + ev_group_load(r, c);
}

static unsigned long cpu_load(struct ev_run *r, int c)
{
	rq_sync(r, c);
	return root_load(r, c);
}

static unsigned long cpu_util(struct ev_run *r, int c)
{
	unsigned long u;
	rq_sync(r, c);
	u = r->rq[c].avg.util_avg;
	if (sl_engine_param(r->e, EV_P_UTIL_EST) && r->rq[c].util_est > u)
		u = r->rq[c].util_est; /* cpu_util(): max(util_avg, util_est) */
	return u < EV_CAPACITY ? u : EV_CAPACITY;
}

unsigned long ev_cpu_util(struct ev_run *r, int c)
{
	return cpu_util(r, c);
}

/* ---- UTIL_EST (kernel/sched/fair.c, v6.18: util_est_enqueue,
 * util_est_dequeue, util_est_update) ----
 * A task's estimate is the EWMA (weight 1/4) of its utilisation at each
 * sleep, reset upwards at once; the CPU's is the sum of its queued tasks'
 * (the running one included), and cpu_util() takes the larger of it and
 * the CPU's utilisation average: a CPU whose bursty tasks are queued counts
 * their usual size, not their decayed average. */

void ev_util_est_enqueue(struct ev_run *r, int cpu, struct ev_task *p)
{
	if (p->rt || p->ue_cpu >= 0)
		return;
	r->rq[cpu].util_est += p->util_est;
	p->ue_cpu = cpu;
}

void ev_util_est_dequeue(struct ev_run *r, struct ev_task *p, int sleep)
{
	if (p->ue_cpu >= 0) {
		unsigned long *sum = &r->rq[p->ue_cpu].util_est;
		*sum -= p->util_est < *sum ? p->util_est : *sum;
		p->ue_cpu = -1;
	}
	if (!sleep || p->rt)
		return;
	if (!sl_engine_param(r->e, EV_P_UE_SEEN)) {
		p->util_est = sl_eevdf_util_est_update(p->util_est, p->avg.util_avg, p->avg.runnable_avg);
		return;
	}
	/* util_est_update() runs in dequeue_task_fair before dequeue_entities
	 * (v6.12-v6.18): it reads the task's utilisation as its last
	 * update_load_avg left it, and skips when no PELT period has ended in
	 * the entity's updates since its last run (UTIL_AVG_UNCHANGED, set at
	 * each util_est_update, cleared by cfs_se_util_change) */
	if (p->ue_period == p->ue_mark)
		return;
	p->ue_mark = p->ue_period;
	p->util_est = sl_eevdf_util_est_update(p->util_est, p->ue_util, p->ue_runnable);
}

void ev_pelt_seen(struct ev_run *r, int cpu, struct ev_task *p)
{
	if (!p || p->rt)
		return;
	ev_pelt_update(r, cpu, p);
	ev_pelt_mark(p, cpu);
}

void ev_pelt_mark(struct ev_task *p, int cpu)
{
	if (p->rt || p->pelt_cpu != cpu)
		return;
	p->ue_util = p->avg.util_avg;
	p->ue_runnable = p->avg.runnable_avg;
	/* the start of its current period, in PELT units (1 024 ns) */
	p->ue_period = (p->avg.last >> 10) - p->avg.period_contrib;
}

/* task_h_load(): a root task's load_avg * L / (L + 1), L the root's
 * load (its h_load); a group task's through its group's cfs_rq
 * (ev_group_h_load) */
static unsigned long task_h_load(struct ev_run *r, const struct ev_task *p)
{
	unsigned long l;
	if (p->pelt_cpu < 0)
		return p->avg.load_avg;
	l = root_load(r, p->pelt_cpu);
	if (r->ngrp && p->grp >= 0)
		return ev_group_h_load(r, p, l);
	return (unsigned long)((uint64_t)p->avg.load_avg * l / (l + 1));
}

static uint64_t jiffies(const struct sl_engine *e)
{
	return sl_eng_jiffies(e);
}

static void update_idle_cpu_scan(struct ev_run *r)
{
	unsigned long sum = 0;
	int c;
	for (c = 0; c < r->e->ncpus; c++)
		sum += cpu_util(r, c);
	r->nr_idle_scan = sl_eevdf_nr_idle_scan(sum, r->e->ncpus, EV_IMBALANCE_PCT);
}

/* ---- wakeup placement (select_task_rq_fair, WF_TTWU) ----
 *
 * The machine is one LLC: cpus_share_cache() is always true, and
 * select_idle_cpu() scans its CPUs as far as SIS_UTIL lets it. */

/* record_wakee(): the waker's count of switches between wakees, halved
 * once a second */
static void record_wakee(struct ev_run *r, struct ev_task *waker, const struct sl_task *p)
{
	struct sl_engine *e = r->e;
	uint64_t j = jiffies(e);
	if (j > waker->wakee_flip_decay + (uint64_t)e->hz) {
		waker->wakee_flips >>= 1;
		waker->wakee_flip_decay = j;
	}
	if (waker->last_wakee != p->idx) {
		waker->last_wakee = p->idx;
		waker->wakee_flips++;
	}
}

static int wake_wide(struct ev_run *r, const struct ev_task *waker, const struct ev_task *p)
{
	return sl_eevdf_wake_wide(waker->wakee_flips, p->wakee_flips, (unsigned)r->e->ncpus);
}

static int fork_exec_cpu(struct ev_run *r, struct sl_task *p, int cpu, int wake_flags);

int ev_select_cpu(struct sl_engine *e, struct sl_task *p, int prev_cpu, int waker_cpu, int wake_flags)
{
	struct ev_run *r = ev_R(e);
	struct ev_task *t = ev_T(r, p);
	int target = prev_cpu, this_cpu = waker_cpu >= 0 ? waker_cpu : prev_cpu, c, k, recent, nr;
	int want_affine = 1, sync = !!(wake_flags & SL_WF_SYNC);
	if (wake_flags & (SL_WF_FORK | SL_WF_EXEC))
		return fork_exec_cpu(r, p, prev_cpu, wake_flags);
	/* try_to_wake_up(): a task still queued, delayed (DELAY_DEQUEUE), is
	 * woken where it is by ttwu_runnable(), before select_task_rq() is
	 * reached: no placement, no record_wakee */
	if (t->se.delayed && t->cpu >= 0 && t->cpu < e->ncpus && sl_task_allowed(p, t->cpu))
		return t->cpu;
	/* select_task_rq() asks the class only for a task that may run on
	 * more than one CPU (p->nr_cpus_allowed > 1, kernel/sched/core.c,
	 * v6.18): a per-CPU kthread's wakeup goes to its CPU with no
	 * record_wakee, so it adds no flip to the task it interrupted (the
	 * engine has put one moved off prev_cpu on an allowed CPU already) */
	if (ev_task_pinned(e, p))
		return prev_cpu;
	if (!sl_engine_param(e, EV_P_SELECT_IDLE))
		return -1;
	if (t->rt)
		return ev_select_rt(r, p, prev_cpu, waker_cpu);
	/* select_task_rq_fair: a sync wakeup by an exiting task (its parent
	 * woken from do_exit) is not sync (PF_EXITING) */
	if (sync && waker_cpu >= 0 && e->cpus[waker_cpu].curr &&
	    sl_engine_exiting(e, e->cpus[waker_cpu].curr))
		sync = 0;
	if (sl_engine_param(e, EV_P_BALANCE) && (c = ev_pack_wake(r, p, prev_cpu, this_cpu, sync)) >= 0)
		return c; /* sched_vcpu_pack, before record_wakee */
	if (waker_cpu >= 0 && e->cpus[waker_cpu].curr) {
		struct ev_task *w = ev_T(r, e->cpus[waker_cpu].curr);
		if (sl_engine_param(e, EV_P_BALANCE)) {
			record_wakee(r, w, p);
			want_affine = !wake_wide(r, w, t);
		}
	}
	if (want_affine && this_cpu != prev_cpu && sl_task_allowed(p, this_cpu)) {
		/* wake_affine(): wake_affine_idle, then wake_affine_weight */
		int a = -1;
		if (ev_cpu_idle(e, this_cpu))
			a = ev_cpu_idle(e, prev_cpu) ? prev_cpu : this_cpu;
		else if (sync && e->cpus[this_cpu].nr_running == 1)
			a = this_cpu;
		else if (ev_cpu_idle(e, prev_cpu))
			a = prev_cpu;
		if (a < 0) {
			const struct sl_task *cur = e->cpus[this_cpu].curr;
			if (sl_engine_param(e, EV_P_BALANCE)) {
				unsigned long cl = 0;
				if (sync && cur && !ev_T(r, cur)->rt)
					cl = task_h_load(r, ev_T(r, cur));
				a = sl_eevdf_wake_affine_weight(cpu_load(r, this_cpu), cpu_load(r, prev_cpu),
								task_h_load(r, t), cl, sync && cur,
								EV_IMBALANCE_PCT)
					    ? this_cpu
					    : -1;
			} else {
				/* balance=0: runqueue weight sums for the PELT
				 * loads, p's weight not on prev's sum (asleep) */
				unsigned long pw = p->load_weight;
				a = sl_eevdf_wake_affine_weight(e->cpus[this_cpu].load,
								e->cpus[prev_cpu].load + pw, pw,
								cur ? cur->load_weight : 0, sync && cur,
								EV_IMBALANCE_PCT)
					    ? this_cpu
					    : -1;
			}
		}
		target = a == this_cpu ? this_cpu : prev_cpu;
	}
	/* select_idle_sibling(p, prev_cpu, target): an idle target, then an
	 * idle prev, end it before recent_used_cpu is read and set to prev */
	if (ev_cpu_idle(e, target))
		return target;
	if (prev_cpu != target && ev_cpu_idle(e, prev_cpu))
		return prev_cpu;
	recent = t->recent_cpu;
	t->recent_cpu = prev_cpu;
	if (recent >= 0 && recent != prev_cpu && recent != target && recent < e->ncpus &&
	    ev_cpu_idle(e, recent) && sl_task_allowed(p, recent))
		return recent;
	/* select_idle_cpu(): the first idle allowed CPU after target, wrapping,
	 * among the first nr_idle_scan allowed ones (SIS_UTIL: none on a
	 * busy LLC). The value stands from the last periodic balance; before
	 * the first, as if one ran now. */
	nr = e->ncpus + 1;
	if (sl_engine_param(e, EV_P_SIS_UTIL) && sl_engine_param(e, EV_P_BALANCE)) {
		if (r->nr_idle_scan < 0)
			update_idle_cpu_scan(r);
		nr = r->nr_idle_scan + 1;
	}
	for (k = 1; k <= e->ncpus && nr > 1; k++) {
		c = (target + k) % e->ncpus;
		if (!sl_task_allowed(p, c))
			continue;
		if (--nr <= 0)
			break;
		if (c != target && ev_cpu_idle(e, c))
			return c;
	}
	return target;
}

/* ---- group statistics (one CPU per group) ---- */

struct ev_sgs {
	unsigned long load, util, runnable, avg_load;
	unsigned nr, h_nr, idle_cpus;
	int type;
};

/* group_classify() with group_weight 1, capacity 1024: overloaded when
 * more tasks than CPUs and the utilisation or the runnable average is over
 * the capacity by imbalance_pct; has spare capacity when fewer tasks than
 * CPUs or both are under it; fully busy otherwise */
static int classify(const struct ev_sgs *s)
{
	if (s->nr > 1 && (EV_CAPACITY * 100 < s->util * EV_IMBALANCE_PCT ||
			  EV_CAPACITY * EV_IMBALANCE_PCT < s->runnable * 100))
		return GT_OVERLOADED;
	if (s->nr < 1)
		return GT_HAS_SPARE;
	if (EV_CAPACITY * EV_IMBALANCE_PCT < s->runnable * 100)
		return GT_FULLY_BUSY;
	if (EV_CAPACITY * 100 > s->util * EV_IMBALANCE_PCT)
		return GT_HAS_SPARE;
	return GT_FULLY_BUSY;
}

/* update_sg_wakeup_stats() for the group of cpu c, p's own share taken
 * off its CPU (cpu_load_without, cpu_util_without, cpu_runnable_without,
 * task_running_on_cpu, idle_cpu_without): the exec'ing task counts where
 * it runs no more than where it would go; p NULL or on no CPU (the fork's
 * new task) takes nothing off */
static void sg_stats(struct ev_run *r, int c, struct ev_sgs *s, const struct sl_task *p)
{
	const struct sl_engine *e = r->e;
	const struct ev_task *t = p ? ev_T(r, p) : NULL;
	int here = p && p->on_rq && p->cpu == c;
	memset(s, 0, sizeof(*s));
	s->load = cpu_load(r, c);
	s->util = cpu_util(r, c);
	s->runnable = r->rq[c].avg.runnable_avg;
	/* sum_nr_running: rq->nr_running, delayed tasks included;
	 * sum_h_nr_running: h_nr_runnable, without them */
	s->nr = ev_nr_running(e, &r->rq[c], c);
	s->h_nr = e->cpus[c].nr_running - (unsigned)r->rq[c].rtq.nr_active;
	if (here && t->pelt_cpu == c && !t->rt) {
		/* lsub_positive; cpu_util(c, p, -1): p's share off both the
		 * average and the estimates' sum */
		unsigned long ua = r->rq[c].avg.util_avg, ue = r->rq[c].util_est;
		unsigned long tl = task_h_load(r, t);
		s->load -= tl < s->load ? tl : s->load;
		ua -= t->avg.util_avg < ua ? t->avg.util_avg : ua;
		if (t->ue_cpu == c)
			ue -= t->util_est < ue ? t->util_est : ue;
		s->util = sl_engine_param(e, EV_P_UTIL_EST) && ue > ua ? ue : ua;
		if (s->util > EV_CAPACITY)
			s->util = EV_CAPACITY;
		s->runnable -= t->avg.runnable_avg < s->runnable ? t->avg.runnable_avg : s->runnable;
	}
	if (here) {
		s->nr--;
		if (!t->rt)
			s->h_nr--;
	}
	s->idle_cpus = !s->nr && (ev_cpu_idle(e, c) || (here && e->cpus[c].curr == p));
	s->type = classify(s);
	if (s->type >= GT_FULLY_BUSY)
		s->avg_load = s->load * 1024 / EV_CAPACITY;
}

/* ---- fork and exec placement (select_task_rq_fair, WF_FORK / WF_EXEC:
 * find_idlest_cpu, sched_balance_find_dst_cpu since 6.10) ---- */

/* update_pick_idlest(): is s a better idlest group than best? */
static int pick_idlest(const struct ev_sgs *best, const struct ev_sgs *s)
{
	if (s->type != best->type)
		return s->type < best->type;
	if (s->type == GT_HAS_SPARE)
		return s->idle_cpus > best->idle_cpus ||
		       (s->idle_cpus == best->idle_cpus && s->util < best->util);
	return s->avg_load < best->avg_load;
}

static int fork_cpu(struct ev_run *r, struct sl_task *p, int this_cpu)
{
	struct sl_engine *e = r->e;
	struct ev_sgs local = { 0 }, best = { 0 }, s;
	int c, idlest = -1, have_local = 0;
	unsigned long imb;
	for (c = 0; c < e->ncpus; c++) {
		if (!sl_task_allowed(p, c))
			continue;
		sg_stats(r, c, &s, p);
		if (c == this_cpu) {
			local = s;
			have_local = 1;
		} else if (idlest < 0 || pick_idlest(&best, &s)) {
			idlest = c;
			best = s;
		}
	}
	/* find_idlest_group() */
	if (idlest < 0)
		return this_cpu;
	if (!have_local)
		return idlest;
	if (local.type < best.type)
		return this_cpu;
	if (local.type > best.type)
		return idlest;
	if (local.type == GT_HAS_SPARE)
		return local.idle_cpus >= best.idle_cpus ? this_cpu : idlest;
	/* fully busy or overloaded: by load, with imbalance_pct */
	imb = 1024 * (EV_IMBALANCE_PCT - 100) / 100;
	if (best.avg_load >= local.avg_load + imb)
		return this_cpu;
	if (100 * local.avg_load <= EV_IMBALANCE_PCT * best.avg_load)
		return this_cpu;
	return idlest;
}

/* ---- load balancing (load_balance) ---- */

enum { MIG_TASK, MIG_LOAD };

struct ev_lb {
	int this_cpu, busiest, idle, type;
	long imbalance;
};

/* find_busiest_group() (with update_sd_lb_stats, update_sd_pick_busiest
 * and calculate_imbalance); -1 when balanced */
static int find_busiest(struct ev_run *r, struct ev_lb *lb)
{
	struct sl_engine *e = r->e;
	struct ev_sgs local = { 0 }, busiest = { 0 }, s;
	unsigned long total_load = 0, sds_avg;
	int c, b = -1;
	for (c = 0; c < e->ncpus; c++) {
		sg_stats(r, c, &s, NULL);
		total_load += s.load;
		if (c == lb->this_cpu) {
			local = s;
			continue;
		}
		if (!s.h_nr)
			continue; /* at least one task to pull */
		if (b >= 0) {
			if (s.type != busiest.type) {
				if (s.type < busiest.type)
					continue;
			} else if (s.type == GT_OVERLOADED) {
				if (s.avg_load <= busiest.avg_load)
					continue;
			} else if (s.type == GT_FULLY_BUSY) {
				if (s.avg_load < busiest.avg_load)
					continue;
				if (s.avg_load == busiest.avg_load)
					continue; /* the first one */
			} else if (s.idle_cpus > busiest.idle_cpus ||
				   (s.idle_cpus == busiest.idle_cpus && s.nr <= busiest.nr)) {
				continue;
			}
		}
		b = c;
		busiest = s;
	}
	if (b < 0)
		return -1;
	if (local.type > busiest.type)
		return -1;
	sds_avg = total_load * 1024 / (EV_CAPACITY * (unsigned long)e->ncpus);
	if (local.type == GT_OVERLOADED) {
		if (local.avg_load >= busiest.avg_load || local.avg_load >= sds_avg ||
		    100 * busiest.avg_load <= EV_IMBALANCE_PCT * local.avg_load)
			return -1;
	}
	if (busiest.type != GT_OVERLOADED) {
		/* not overloaded: only an idle CPU pulls, and only a waiting task */
		if (lb->idle == CPU_NOT_IDLE_)
			return -1;
		if (busiest.h_nr == 1)
			return -1;
	}
	/* calculate_imbalance() */
	if (local.type == GT_HAS_SPARE) {
		/* an LLC domain, groups of one CPU: spread the running tasks
		 * (sibling_imbalance, then halved) */
		long d = lb->idle == CPU_NOT_IDLE_ ? 0 : (long)busiest.nr - (long)local.nr;
		lb->type = MIG_TASK;
		lb->imbalance = (d > 0 ? d : 0) >> 1;
	} else {
		if (local.type < GT_OVERLOADED) {
			/* local will become overloaded: the load averages decide */
			local.avg_load = local.load * 1024 / EV_CAPACITY;
			if (local.avg_load >= busiest.avg_load || local.avg_load >= sds_avg) {
				lb->imbalance = 0;
				return -1;
			}
		}
		lb->type = MIG_LOAD;
		lb->imbalance = (long)((busiest.avg_load - sds_avg < sds_avg - local.avg_load
						? busiest.avg_load - sds_avg
						: sds_avg - local.avg_load) *
				       EV_CAPACITY / 1024);
		if (busiest.avg_load < sds_avg || sds_avg < local.avg_load)
			lb->imbalance = 0;
	}
	if (lb->imbalance <= 0)
		return -1;
	lb->busiest = b;
	return b;
}

/* task_hot(): ran on its CPU within sysctl_sched_migration_cost (a task
 * that never ran is cold: exec_start 0) */
static int task_hot(const struct sl_engine *e, const struct sl_task *p)
{
	return p->sum_exec_ns > 0 && e->now - p->last_ran_ns < EV_MIGRATION_COST;
}

/* task_is_ineligible_on_dst_cpu() (kernel/sched/fair.c, v6.14 and later:
 * "sched/fair: Prioritize migrating eligible tasks in sched_balance_rq()"):
 * until a balance has failed, can_migrate_task leaves a task that is not
 * eligible on its source queue where it is when its group's queue on dst
 * has entities (PLACE_LAG): its group's queue there (the root's for a
 * root task); eligibility in its own queue on src. */
int ev_ineligible_on_dst(struct ev_run *r, const struct ev_task *p, int src, int dst)
{
	/* the cfs_rq's nr_queued: its entities, delayed ones included, not
	 * the CPU's RT tasks */
	int queued = ev_cfs(r, p, dst)->nr_running > 0;
	return queued && !sl_eevdf_vruntime_eligible(ev_cfs(r, p, src), p->se.vruntime);
}

/* detach_tasks() + attach_tasks(): from the tail of cfs_tasks (least
 * recently queued or picked first), the tasks can_migrate_task allows, up
 * to the imbalance; a newly idle CPU takes one. Returns the tasks moved. */
static int move_tasks(struct ev_run *r, struct ev_lb *lb)
{
	struct sl_engine *e = r->e;
	unsigned failed = r->rq[lb->this_cpu].nr_balance_failed;
	unsigned nr = ev_nr_running(e, &r->rq[lb->busiest], lb->busiest);
	unsigned loop = 0, loop_max = nr < EV_NR_MIGRATE
					      ? nr
					      : EV_NR_MIGRATE;
	uint64_t last = 0;
	int moved = 0;
	for (;;) {
		struct sl_eevdf_se *next;
		struct sl_task *et;
		struct ev_task *p;
		if (lb->idle != CPU_NOT_IDLE_ && ev_nr_running(e, &r->rq[lb->busiest], lb->busiest) <= 1)
			break;
		if (++loop > loop_max)
			break;
		next = ev_next_mru(r, lb->busiest, last);
		if (!next)
			break;
		last = next->mru;
		et = ev_task_of(r, next);
		p = ev_T(r, et);
		/* can_migrate_task(): a delayed task (asleep, still queued)
		 * only when the balance moves load (v6.12 and later) */
		if (!sl_eevdf_may_detach(next->delayed && et->state == SL_TS_SLEEPING,
					 et->state == SL_TS_RUNNABLE, lb->type == MIG_LOAD) ||
		    !sl_task_allowed(et, lb->this_cpu) || e->cpus[lb->busiest].curr == et)
			continue;
		if (!failed && ev_ineligible_on_dst(r, p, lb->busiest, lb->this_cpu))
			continue;
		if (task_hot(e, et) && failed <= EV_CACHE_NICE_TRIES)
			continue;
		if (lb->type == MIG_LOAD) {
			unsigned long load = task_h_load(r, p);
			if (load < 1)
				load = 1; /* max_t(unsigned long, task_h_load(p), 1) */
			if (!sl_eevdf_detach_load_fits(load, failed, lb->imbalance))
				continue;
			lb->imbalance -= (long)load;
		} else {
			lb->imbalance--;
		}
		/* detach_task(): out of the source queue, to this CPU */
		if (next->delayed) {
			ev_move_delayed(r, lb->busiest, lb->this_cpu, next);
		} else {
			ev_detach(r, lb->busiest, next);
			sl_engine_pull(e, et, lb->busiest, lb->this_cpu);
		}
		moved++;
		if (lb->idle == CPU_NEWLY_IDLE_ || lb->imbalance <= 0)
			break;
	}
	return moved;
}

/* load_balance() of this_cpu's one domain */
static int load_balance(struct ev_run *r, int this_cpu, int idle)
{
	struct ev_rq *rq = &r->rq[this_cpu];
	struct ev_lb lb;
	int moved = 0;
	memset(&lb, 0, sizeof(lb));
	lb.this_cpu = this_cpu;
	lb.idle = idle;
	/* update_sd_lb_stats() of the LLC domain, not on a newly idle CPU */
	if (idle != CPU_NEWLY_IDLE_)
		update_idle_cpu_scan(r);
	if (find_busiest(r, &lb) < 0)
		goto balanced;
	if (ev_nr_running(r->e, &r->rq[lb.busiest], lb.busiest) > 1)
		moved = move_tasks(r, &lb);
	if (!moved) {
		/* only periodic balancing counts failures (newidle would
		 * pollute the counter: more cache-hot migrations) */
		if (idle != CPU_NEWLY_IDLE_)
			rq->nr_balance_failed++;
	} else {
		rq->nr_balance_failed = 0;
	}
	rq->balance_interval = (unsigned)r->e->ncpus; /* unbalanced: min_interval */
	return moved;
balanced:
	rq->nr_balance_failed = 0;
	if (idle != CPU_NEWLY_IDLE_ && rq->balance_interval < 2u * (unsigned)r->e->ncpus)
		rq->balance_interval *= 2; /* up to max_interval */
	return 0;
}

/* get_sd_balance_interval(): balance_interval ms, times busy_factor and
 * one jiffy less when busy, at least a jiffy, at most HZ * CPUs / 10 */
static uint64_t balance_jiffies(const struct ev_run *r, const struct ev_rq *rq, int busy)
{
	const struct sl_engine *e = r->e;
	uint64_t ms = rq->balance_interval * (busy ? EV_BUSY_FACTOR : 1u);
	uint64_t j = (ms * (uint64_t)e->hz + 999) / 1000, max = (uint64_t)e->hz * (uint64_t)e->ncpus / 10;
	if (busy && j > 0)
		j--;
	if (max < 1)
		max = 1;
	return j < 1 ? 1 : j > max ? max : j;
}

/* rebalance_domains() at a tick of cpu when its balance is due */
static void periodic(struct ev_run *r, int cpu)
{
	struct sl_engine *e = r->e;
	struct ev_rq *rq = &r->rq[cpu];
	uint64_t j = jiffies(e), interval;
	int busy = !ev_cpu_idle(e, cpu);
	if (j < rq->next_balance)
		return;
	interval = balance_jiffies(r, rq, busy);
	if (j >= rq->last_balance + interval) {
		if (load_balance(r, cpu, busy ? CPU_NOT_IDLE_ : CPU_IDLE_))
			busy = !ev_cpu_idle(e, cpu);
		rq->last_balance = j;
		interval = balance_jiffies(r, rq, busy);
	}
	rq->next_balance = rq->last_balance + interval;
}

/* nohz_balancer_kick() at the tick of the busy cpu (sl_eevdf_nohz_kick);
 * the kicked CPU runs _nohz_idle_balance, the periodic balance (CPU_IDLE)
 * of every idle CPU (its tick stopped: ev_cpu_idle, no wakee on its way)
 * whose balance is due (rq->next_balance) */
static void nohz_balancer_kick(struct ev_run *r, int cpu)
{
	struct sl_engine *e = r->e;
	int c, nr_busy = 0, nr_idle = 0;
	for (c = 0; c < e->ncpus; c++) {
		if (!sl_engine_cpu_up(e, c))
			continue;
		if (ev_cpu_idle(e, c))
			nr_idle++;
		else
			nr_busy++;
	}
	if (!sl_eevdf_nohz_kick(ev_nr_running(e, &r->rq[cpu], cpu), nr_busy, nr_idle))
		return;
	for (c = 0; c < e->ncpus; c++)
		if (c != cpu && sl_engine_cpu_up(e, c) && ev_cpu_idle(e, c))
			periodic(r, c);
}

/* sched_rng(): the kernel draws from a per-CPU prandom state; here one
 * splitmix64 sequence from the run's seed (deterministic per seed) */
static uint64_t sched_rng(struct ev_run *r)
{
	uint64_t z = (r->rng += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* update_newidle_stats() (kernel/sched/fair.c, v6.18.5+: "sched/fair:
 * Proportional newidle balance"): the success rate over the last ~1024
 * newly idle calls, in 1024ths */
void ev_ni_stats(struct ev_rq *rq, unsigned success)
{
	rq->ni_call++;
	rq->ni_success += success;
	if (rq->ni_call >= 1024) {
		rq->ni_ratio = rq->ni_success;
		rq->ni_call /= 2;
		rq->ni_success /= 2;
	}
}

/* newidle_balance(): cpu has nothing to run. It balances when the root
 * domain is overloaded (some CPU has more than one task: rd->overload) and
 * the CPU's average idle period is at least the cost of balancing
 * (avg_idle against sd->max_newidle_lb_cost, which the kernel measures:
 * 4.5-5.3 us on this machine; newidle_cost_ns). */
static int newidle(struct ev_run *r, int cpu)
{
	struct sl_engine *e = r->e;
	struct ev_rq *rq = &r->rq[cpu];
	uint64_t next;
	int c, overload = 0, pulled;
	/* going idle: the next periodic balance is due at the idle interval
	 * (update_next_balance with cpu_busy 0) */
	next = rq->last_balance + balance_jiffies(r, rq, 0);
	if (rq->next_balance > next)
		rq->next_balance = next;
	for (c = 0; c < e->ncpus; c++)
		overload |= ev_nr_running(e, &r->rq[c], c) > 1;
	/* pull_rt_task first: the RT class balances before the fair class */
	if (ev_pull_rt(r, cpu))
		return 1;
	/* sched_balance_newidle(): the idle period starts (idle_stamp); no
	 * balance unless some CPU is overloaded and this one's idle periods
	 * are on average longer than a balance costs */
	rq->idle_stamp = e->now ? e->now : 1;
	if (!overload || rq->avg_idle < (uint64_t)sl_engine_param(e, EV_P_NEWIDLE_COST))
		return 0;
	if (sl_engine_param(e, EV_P_NI_RANDOM)) {
		/* NI_RANDOM: a 1k-sided die; balance only at the rate of the
		 * domain's recent success, which a success then counts at the
		 * inverse of that rate (sched_balance_newidle) */
		unsigned d1k = (unsigned)(sched_rng(r) % 1024), w = 1 + rq->ni_ratio;
		if (d1k > w) {
			ev_ni_stats(rq, 0);
			return 0;
		}
		w = (1024 + w / 2) / w;
		pulled = load_balance(r, cpu, CPU_NEWLY_IDLE_);
		ev_ni_stats(rq, pulled ? w : 0);
	} else {
		pulled = load_balance(r, cpu, CPU_NEWLY_IDLE_);
	}
	if (pulled)
		rq->idle_stamp = 0;
	return pulled;
}

/* ttwu_do_activate(): a wakeup onto a CPU in an idle period ends it;
 * update_avg() moves avg_idle an eighth of the way to its length, at most
 * twice max_idle_balance_cost */
void ev_idle_wakeup(struct ev_run *r, int cpu)
{
	struct ev_rq *rq = &r->rq[cpu];
	uint64_t now = r->e->now, d;
	if (!rq->idle_stamp)
		return;
	d = now > rq->idle_stamp ? now - rq->idle_stamp : 0;
	rq->avg_idle = sl_eevdf_update_avg(rq->avg_idle, d, 2 * rq->max_idle_cost);
	rq->idle_stamp = 0;
}

void ev_smp_init(struct ev_run *r)
{
	int c;
	for (c = 0; c < r->e->ncpus; c++) {
		r->rq[c].balance_interval = (unsigned)r->e->ncpus; /* sd_weight */
		r->rq[c].next_balance = 0;
		/* sd_init (kernel/sched/topology.c, v6.18.5+) */
		r->rq[c].ni_call = 512;
		r->rq[c].ni_success = 256;
		r->rq[c].ni_ratio = 512;
		/* init_sched_fair_class / sched_init: avg_idle 2 *
		 * sysctl_sched_migration_cost, max_idle_balance_cost that */
		r->rq[c].avg_idle = 2 * EV_MIGRATION_COST;
		r->rq[c].max_idle_cost = EV_MIGRATION_COST;
		r->rq[c].idle_stamp = 0;
	}
	r->rng = r->e->seed ^ 0x6e695f72616e646fULL; /* "ni_rando" */
	r->nr_idle_scan = -1;
}

int ev_balance(struct sl_engine *e, int cpu, int kind)
{
	struct ev_run *r = ev_R(e);
	if (!sl_engine_param(e, EV_P_BALANCE))
		return -1;
	switch (kind) {
	case SL_BAL_TICK:
		if (!sl_engine_param(e, EV_P_NOHZ)) {
			periodic(r, cpu);
		} else if (!ev_cpu_idle(e, cpu)) {
			/* an idle CPU's tick is stopped (tick_nohz_idle_stop_tick) */
			periodic(r, cpu);
			nohz_balancer_kick(r, cpu);
		}
		return 0;
	case SL_BAL_NEWIDLE:
		return newidle(r, cpu);
	}
	return -1;
}

/* select_task_rq(WF_FORK / WF_EXEC) of p on cpu (ev_select_cpu) */
static int fork_exec_cpu(struct ev_run *r, struct sl_task *p, int cpu, int wake_flags)
{
	int c;
	if (!sl_engine_param(r->e, EV_P_BALANCE))
		return -1;
	if (!ev_T(r, p)->rt && (c = ev_pack_fork_exec(r, p, cpu, !(wake_flags & SL_WF_FORK))) >= 0)
		return c; /* sched_vcpu_pack */
	if (wake_flags & SL_WF_FORK) /* the parent runs the fork on cpu */
		return ev_T(r, p)->rt ? ev_select_rt(r, p, cpu, cpu) : fork_cpu(r, p, cpu);
	/* sched_exec -> select_task_rq(WF_EXEC): an RT task stays
	 * (select_task_rq_rt places only WF_TTWU and WF_FORK); a fair
	 * one goes through find_idlest_cpu with its load synced
	 * (sync_entity_load_avg), its own share off its CPU */
	if (ev_T(r, p)->rt)
		return cpu;
	ev_pelt_update(r, cpu, ev_T(r, p));
	return fork_cpu(r, p, cpu);
}
