/* replay/eevdf_priv.h - the run state of the eevdf policy, shared by
 * replay/eevdf.c (the fair and RT classes on the engine's CPUs) and
 * replay/eevdf_smp.c (PELT, wakeup and fork placement, load balancing).
 * Not for other files. */
#ifndef SL_EEVDF_PRIV_H
#define SL_EEVDF_PRIV_H

#include "engine.h"
#include "eevdf.h"
#include "prio_array.h"
#include "rt.h"

/* the policy's parameters, in the order of eevdf_params (eevdf.c) */
enum {
	EV_P_BASE_SLICE_US,
	EV_P_RUN_TO_PARITY,
	EV_P_PLACE_LAG,
	EV_P_DEADLINE_INITIAL,
	EV_P_WAKEUP_PREEMPTION,
	EV_P_DELAY_DEQUEUE,
	EV_P_REL_DEADLINE,
	EV_P_SELECT_IDLE,
	EV_P_BALANCE,
	EV_P_SLICE_NORM_US,
	EV_P_YIELD_FORFEIT,
	EV_P_CLOCK_POLLS,
	EV_P_NI_RANDOM,
	EV_P_RESCHED_LAPSED,
	EV_P_LAG_CLAMP,
	EV_P_SIS_UTIL,
	EV_P_WIDE_START,
	EV_P_UTIL_EST,
	EV_P_FORK_FLIPS,
	EV_P_VCPU_PACK,
	EV_P_NOHZ,
	EV_P_GROUP_BUDDY,
	EV_P_REQUEUE_STALE,
	EV_P_FORK_PREEMPT,
	EV_P_START_PELT,
	EV_P_UE_SEEN,
	EV_P_NEWIDLE_COST,
};

struct ev_task {
	struct sl_prio_link link; /* first: RT run-list links (prio_array.h) */
	struct sl_eevdf_se se;
	int cpu;                /* runqueue it is on / last ran on */
	int rt;                 /* SCHED_FIFO (1) or SCHED_RR (2), 0 fair (= rt_se.policy) */
	struct sl_rt_se rt_se;  /* the RT class (rt.h): its list, SCHED_RR ticks left */
	int batch;              /* SCHED_BATCH: never wakeup-preempts */
	int poll;               /* reads its own CPU clock (SL_TASK_POLLS, clock_polls) */
	int recent_cpu;         /* p->recent_used_cpu of select_idle_sibling (-1) */
	/* eevdf_smp.c */
	struct sl_pelt avg;     /* se->avg */
	int pelt_cpu;           /* the cfs_rq its load is attached to, -1 none */
	unsigned wakee_flips;   /* record_wakee() */
	uint64_t wakee_flip_decay; /* jiffies of the last halving */
	int last_wakee;         /* task index, -1 */
	unsigned long util_est; /* se->avg.util_est: the EWMA of its utilisation at sleeps */
	int ue_cpu;             /* the CPU whose cfs util_est sum holds it, -1 none */
	/* se->avg as the kernel's util_est_update reads it: at the last
	 * update_load_avg of the entity (an enqueue, a pick, a tick, a
	 * put_prev or dequeue), not at the sleep; the start of its PELT period
	 * then, and at the last util_est_update (UTIL_AVG_UNCHANGED) */
	unsigned long ue_util, ue_runnable;
	uint64_t ue_period, ue_mark;
	/* eevdf_group.c */
	int grp;                /* its task group (r->grp), -1 the root group */
	unsigned long nice_w;   /* its weight inside the group (its nice's) */
};

/* A task group below the root (eevdf_group.c, docs/groups.md). */
struct ev_group {
	unsigned long shares;   /* tg->shares */
	int *member;            /* task indexes */
	size_t n, cap;
	/* per CPU: the group's queue of its tasks there (tg->cfs_rq[cpu], at
	 * their nice weights) and its entity in the CPU's root queue
	 * (tg->se[cpu]: weight calc_group_shares, NICE_0_LOAD until the group
	 * first queues there); the entity's load average (se->avg), whether the
	 * group has tasks queued there */
	struct sl_eevdf_rq *q;
	struct sl_eevdf_se *gse;
	struct sl_pelt *se_avg;
	int *on;
	uint64_t *gl;           /* the group cfs_rq's load average there at its last update */
};

struct ev_rq {
	struct sl_eevdf_rq cfs;
	struct sl_prio_array rtq; /* SCHED_FIFO / SCHED_RR: list 99 - rt_priority */
	/* eevdf_smp.c */
	struct sl_pelt avg;     /* cfs_rq->avg: attached entities, blocked ones included */
	/* with groups, the root cfs_rq's load as the kernel keeps it: the root
	 * tasks' here, the groups' entities added when it is read (cpu_load) */
	struct sl_pelt ravg;
	uint64_t last_balance;  /* sd->last_balance, jiffies */
	uint64_t next_balance;  /* rq->next_balance, jiffies */
	unsigned balance_interval; /* sd->balance_interval, ms */
	unsigned nr_balance_failed;
	/* sd->newidle_call, newidle_success, newidle_ratio (NI_RANDOM) */
	unsigned ni_call, ni_success, ni_ratio;
	/* rq->avg_idle (the EWMA, 1/8, of its idle periods that a wakeup
	 * ended), rq->idle_stamp (when it went idle, 0 none) and
	 * rq->max_idle_balance_cost, ns */
	uint64_t avg_idle, idle_stamp, max_idle_cost;
	unsigned long util_est; /* cfs_rq->avg.util_est: the queued tasks' (UTIL_EST) */
	/* its tasks asleep but still queued (DELAY_DEQUEUE), which the kernel's
	 * rq->nr_running counts and the engine's nr_running does not */
	unsigned nr_delayed;
};

/* rq->nr_running: the engine's tasks on cpu and its delayed ones */
static inline unsigned ev_nr_running(const struct sl_engine *e, const struct ev_rq *rq, int cpu)
{
	return e->cpus[cpu].nr_running + rq->nr_delayed;
}

struct ev_run {
	struct sl_engine *e;
	struct ev_task *t;
	struct ev_rq *rq;
	uint64_t mru;
	int64_t rr_ticks;       /* sched_rr_timeslice: 100 ms in ticks */
	int wakeup_preemption;
	/* eevdf_group.c */
	struct ev_group *grp;
	size_t ngrp;
	uint64_t rng;           /* sched_rng(): splitmix64 from the run's seed */
	int nr_idle_scan;       /* sd_llc_shared->nr_idle_scan (SIS_UTIL); -1: not set yet */
	unsigned long *gw;      /* scratch, per CPU: the group's queued weight */
	uint64_t *gl;           /* scratch, per CPU: the group's load average */
};

static inline struct ev_run *ev_R(struct sl_engine *e)
{
	return e->pol;
}

static inline struct ev_task *ev_T(struct ev_run *r, const struct sl_task *et)
{
	return &r->t[et->idx];
}

/* idle_cpu(): nothing running or queued on CPU c, and no wakeup on its
 * way there (rq->ttwu_pending; a wakee on its way to a CPU that was busy
 * is on the kernel's runqueue) */
static inline int ev_cpu_idle(const struct sl_engine *e, int c)
{
	const struct sl_cpu *cpu = &e->cpus[c];
	return !cpu->curr && !cpu->nr_running && !cpu->wake_pending && !cpu->wake_queued;
}

/* nr_cpus_allowed < 2: task et may run on one CPU of the machine's only */
static inline int ev_task_pinned(const struct sl_engine *e, const struct sl_task *et)
{
	int c, n = 0;
	for (c = 0; c < e->ncpus && n < 2; c++)
		n += sl_task_allowed(et, c);
	return n < 2;
}

static inline struct sl_task *ev_task_of(struct ev_run *r, const struct sl_eevdf_se *se)
{
	return &r->e->tasks[se->idx];
}

/* eevdf_smp.c: PELT of the fair class, called by eevdf.c before the state
 * it averages changes (update_load_avg). */
/* p is about to be enqueued on cpu (wakeup, move, start, fork): its load
 * moves there from the CPU it was attached to, or is attached for the
 * first time (post_init_entity_util_avg). */
void ev_pelt_enqueue(struct ev_run *r, int cpu, struct ev_task *p);
/* each CPU's load tracking at the start, the trace's tasks' share taken
 * off (sl_engine.cpu_pelt; at init); a task's averages when first queued
 * if it is older than the trace: 2 the kernel's, 1 estimated, 0 a new
 * task's rule applies (replay/eevdf_start.c) */
void ev_pelt_start(struct ev_run *r);
int ev_pelt_at_start(struct ev_run *r, struct ev_task *p);
/* cpu's fair state (curr, the queue) is about to change, or a tick: bring
 * cpu's averages and those of p (on cpu, may be NULL) up to now. */
void ev_pelt_update(struct ev_run *r, int cpu, struct ev_task *p);
/* p leaves for good (exit, end of its recorded work): its load goes. */
void ev_pelt_detach(struct ev_run *r, struct ev_task *p);
/* p's weight changes to w (reweight_entity): its load_avg follows. */
void ev_pelt_reweight(struct ev_run *r, struct ev_task *p, unsigned long w);
/* balance state of a new run */
void ev_smp_init(struct ev_run *r);
/* util_est_enqueue(): p's estimate joins cpu's sum (a wakeup, a move in,
 * a start) */
void ev_util_est_enqueue(struct ev_run *r, int cpu, struct ev_task *p);
/* util_est_dequeue() (p leaves its CPU's sum), then, when it goes to
 * sleep, util_est_update() (its PELT brought up to now first) */
void ev_util_est_dequeue(struct ev_run *r, struct ev_task *p, int sleep);
/* ttwu_do_activate() on cpu: a wakeup ends its idle period (avg_idle) */
void ev_idle_wakeup(struct ev_run *r, int cpu);
/* update_load_avg(cfs_rq, se) of p on cpu: its averages brought up to now
 * and kept as the ones util_est_update will read */
void ev_pelt_seen(struct ev_run *r, int cpu, struct ev_task *p);
/* the same for averages brought up to now already */
void ev_pelt_mark(struct ev_task *p, int cpu);

/* eevdf.c: the fair runqueue's update_curr from the engine's CPU time */
int ev_rq_update_curr(struct ev_run *r, int cpu);
/* update_newidle_stats() of cpu's domain (eevdf_smp.c, NI_RANDOM) */
void ev_ni_stats(struct ev_rq *rq, unsigned success);
/* eevdf.c: the queued task of cpu (in the root queue or a group's there,
 * not a running one) with the smallest mru above `after` (the next from
 * the tail of cfs_tasks: least recently queued or picked first), NULL
 * when none */
struct sl_eevdf_se *ev_next_mru(const struct ev_run *r, int cpu, uint64_t after);
/* eevdf_smp.c: task_is_ineligible_on_dst_cpu() of p, queued on src */
int ev_ineligible_on_dst(struct ev_run *r, const struct ev_task *p, int src, int dst);
/* eevdf.c: detach_task's dequeue of se (queued, not running) from src */
void ev_detach(struct ev_run *r, int src, struct sl_eevdf_se *se);
void ev_move_delayed(struct ev_run *r, int src, int dst, struct sl_eevdf_se *se);

/* the queue task p is in (or joins) on cpu: its group's there, or the
 * root (task_cfs_rq) */
static inline struct sl_eevdf_rq *ev_cfs(struct ev_run *r, const struct ev_task *p, int cpu)
{
	return p->grp >= 0 ? &r->grp[p->grp].q[cpu] : &r->rq[cpu].cfs;
}

/* the task entity running on cpu's fair class (the root's curr, or the
 * curr of the group queue whose entity is the root's), NULL none */
static inline struct sl_eevdf_se *ev_curr_task(const struct ev_run *r, int cpu)
{
	struct sl_eevdf_se *c = r->rq[cpu].cfs.curr;
	return c && c->my_q ? c->my_q->curr : c;
}

/* eevdf.c: reweight_entity of group g's entity on cpu, queued there, to
 * weight w: its lag and (PLACE_REL_DEADLINE) its deadline kept in
 * proportion; a running one loses its RUN_TO_PARITY protection (v6.17+:
 * vprot shares vlag's storage, docs/groups.md) */
void ev_reweight_gse(struct ev_run *r, int g, int cpu, unsigned long w);
/* eevdf.c: put_prev_entity of cpu's fair curr at both levels */
void ev_put_prev(struct ev_run *r, int cpu);

/* eevdf_group.c: group scheduling in two levels (docs/groups.md) */
/* the groups of the run, from the engine's (e->groups) */
void ev_groups_init(struct ev_run *r);
void ev_groups_release(struct ev_run *r);
/* p joins its group (eevdf_task_init) */
void ev_group_add(struct ev_run *r, struct ev_task *p, int idx);
/* update_cfs_group for p's group on p's CPU after p's queue or weight
 * changed: the group's entity there gets the group's share (and the
 * groups' load averages follow) */
void ev_group_sync(struct ev_run *r, const struct ev_task *p);
/* the same for group g on cpu */
void ev_group_sync_cpu(struct ev_run *r, int g, int cpu);
/* p (of a group) was just queued in its group's queue on cpu: the group's
 * entity joins the root there if it was not queued (weighed first, then
 * placed with its lag), or is requeued if it was delayed (enqueue_task_fair) */
void ev_gse_enqueue(struct ev_run *r, const struct ev_task *p, int cpu);
/* p (of a group) just left its group's queue on cpu: when that queue is
 * empty the group's entity leaves the root as a sleep (dequeue_entities:
 * DEQUEUE_SLEEP for the parents), or is delayed */
void ev_gse_leave(struct ev_run *r, const struct ev_task *p, int cpu);
/* set_next_buddy(the group's entity) at the root when task p of a group
 * leaves its queue on cpu at a sleep and the group keeps entities there
 * (dequeue_entities; taken by the pick when group_buddy is on) */
void ev_group_buddy(struct ev_run *r, const struct ev_task *p, int cpu);
/* the weight of the groups' entities queued at cpu's root; *h_nr the
 * root's h_nr_queued: its tasks at both levels, delayed included */
unsigned long ev_group_root_w(const struct ev_run *r, int cpu, unsigned *h_nr);
/* p, a task of a group, is attached to cpu's averages (a start or a move
 * in): update_tg_cfs_load() propagates its runnable time to the group's
 * entity there, whose load_sum grows by p's, at most the whole of it (the
 * other way, a move out, leaves the entity's as it is: the kernel's
 * estimate keeps at least its running time) */
void ev_group_attach(struct ev_run *r, const struct ev_task *p, int cpu);
/* the load averages of the groups' entities on cpu, brought up to now */
unsigned long ev_group_load(struct ev_run *r, int cpu);
/* task_h_load() of p, a task of a group attached to a CPU whose root load
 * is root: p's load with its own weight, times the group cfs_rq's h_load
 * (its entity's load, scaled by root / (root + 1)), over that cfs_rq's load */
unsigned long ev_group_h_load(const struct ev_run *r, const struct ev_task *p, unsigned long root);

/* the ops hooks of eevdf_smp.c */
int ev_select_cpu(struct sl_engine *e, struct sl_task *p, int prev_cpu, int waker_cpu, int wake_flags);
/* select_task_rq_rt for RT task p whose CPU is cpu, the wakeup or fork
 * running on this_cpu (-1: not known): eevdf.c, sl_eevdf_select_rt */
int ev_select_rt(struct ev_run *r, struct sl_task *p, int cpu, int this_cpu);
/* pull_rt_task() (kernel/sched/rt.c, v6.18; with RT_PUSH_IPI the other CPU
 * pushes, to the same end): the best waiting RT task of another CPU that
 * may run on this_cpu, beats what this_cpu would run (its best queued RT
 * prio) and does not beat what runs on its own CPU (it is about to run
 * there) moves to this_cpu. 1 if one did (eevdf.c). */
int ev_pull_rt(struct ev_run *r, int this_cpu);
/* sched_vcpu_pack (eevdf_pack.c, docs/eevdf.md "vCPU packing"): the CPU a
 * wakeup of fair task p (previous CPU prev, run on this_cpu, sync) or a
 * fork (p the child, cpu the parent's) or exec (p on cpu) goes to under the
 * option's bits, or -1: the mainline placement decides. */
int ev_pack_wake(struct ev_run *r, struct sl_task *p, int prev, int this_cpu, int sync);
int ev_pack_fork_exec(struct ev_run *r, struct sl_task *p, int cpu, int exec);
/* cpu_util() of eevdf_smp.c: the CPU's utilisation, UTIL_EST included */
unsigned long ev_cpu_util(struct ev_run *r, int c);
/* push_rt_tasks() once RT task next is set to run on cpu
 * (rt_queue_push_tasks, v6.18): each waiting RT task of cpu that may run
 * elsewhere goes, best first, where find_lowest_rq finds a CPU it would
 * run on at once (sl_eevdf_select_rt, with next as the CPU's curr);
 * the first that finds none ends it (eevdf.c). */
void ev_push_rt(struct ev_run *r, int cpu, int next);
int ev_balance(struct sl_engine *e, int cpu, int kind);

#endif
