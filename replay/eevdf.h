/* replay/eevdf.h - the arithmetic of the EEVDF model (replay/eevdf.c),
 * exposed so that unit tests can check it against values worked out by
 * hand. One fair runqueue of entities, as kernel/sched/fair.c keeps it
 * (v6.6): the running entity (curr) is not in the "tree" and not in the
 * sums; avg_vruntime / avg_load are kept relative to min_vruntime. See
 * docs/eevdf.md. */
#ifndef SL_EEVDF_H
#define SL_EEVDF_H

#include <stdint.h>

struct sl_policy_ops;

struct sl_eevdf_rq;

/* One schedulable entity (struct sched_entity): a task, or a task group's
 * entity on one CPU (my_q: the group's queue there, group_cfs_rq). */
struct sl_eevdf_se {
	uint64_t vruntime;      /* virtual runtime (ns at nice-0 speed) */
	uint64_t deadline;      /* virtual deadline */
	uint64_t slice;         /* request size r_i (ns of CPU time) */
	int64_t vlag;           /* V - vruntime, kept while not queued */
	unsigned long weight;   /* sched_prio_to_weight[nice] */
	uint32_t wmult;         /* sched_prio_to_wmult[nice] */
	int on_rq;              /* queued in the fair class (curr included) */
	int pos;                /* index in rq->q, -1: not in the tree */
	int idx;                /* task index (the engine's) */
	int parity;             /* RUN_TO_PARITY: deadline unchanged since pick */
	uint64_t parity_deadline;/* the deadline at pick (6.6 stashes it in vlag) */
	uint64_t seq;           /* order of insertion into the tree (ties) */
	uint64_t mru;           /* last enqueue or pick (cfs_tasks order) */
	uint64_t exec_seen;     /* the task's CPU time already in vruntime */
	int delayed;            /* DELAY_DEQUEUE: asleep but still queued */
	int rel_deadline;       /* PLACE_REL_DEADLINE: deadline kept relative */
	struct sl_eevdf_rq *my_q;/* a group entity's queue; NULL: a task */
};

/* One fair runqueue (struct cfs_rq): a CPU's root, or a group's on a CPU. */
struct sl_eevdf_rq {
	struct sl_eevdf_se **q; /* queued entities except curr: the "tree" */
	int n, cap;
	struct sl_eevdf_se *curr;/* the entity picked to run (may be !on_rq) */
	unsigned nr_running;    /* queued fair entities, curr included */
	int64_t avg_vruntime;   /* Σ (v_i - min_vruntime) * w_i over the tree */
	long avg_load;          /* Σ w_i over the tree */
	uint64_t min_vruntime;
	uint64_t seq;           /* insertion counter */
	uint64_t tree_min;      /* smallest vruntime in the tree, when tree_min_ok */
	int tree_min_ok;
	/* configuration (the policy's parameters) */
	uint64_t base_slice;    /* sysctl_sched_base_slice, ns */
	uint64_t tick_ns;       /* TICK_NSEC: floor of the lag limit */
	int place_lag;          /* sched_feat(PLACE_LAG) */
	int deadline_initial;   /* sched_feat(PLACE_DEADLINE_INITIAL) */
	int run_to_parity;      /* sched_feat(RUN_TO_PARITY) */
	int resched_lapsed;     /* v6.18 update_curr: a pick when protection has lapsed */
	int lag_max_slice;      /* lag clamp: max_slice + tick (1) or max(2 slice, tick) */
	int delay_dequeue;      /* sched_feat(DELAY_DEQUEUE), v6.12 (with DELAY_ZERO) */
	int rel_deadline;       /* sched_feat(PLACE_REL_DEADLINE), v6.12 */
	int yield_forfeit;      /* v6.18 yield_task_fair: vruntime = deadline */
	int pick_buddy;         /* sched_feat(PICK_BUDDY): the pick takes next if eligible */
	/* cfs_rq->next, the buddy: set by the caller (set_next_buddy), cleared
	 * when that entity is dequeued or set to run (clear_buddies) */
	struct sl_eevdf_se *next;
};

/* sysctl_sched_base_slice for ncpus CPUs: normalized_ns * (1 + ilog2(min(ncpus,
 * 8))) (SCHED_TUNABLESCALING_LOG, kernel/sched/fair.c get_update_sysctl_factor);
 * normalized_sysctl_sched_base_slice is 0.70 ms from v6.15, 0.75 ms in v6.6 to
 * v6.14 (SL_EEVDF_SLICE_NORM_NS, SL_EEVDF_SLICE_NORM_OLD_NS). */
#define SL_EEVDF_SLICE_NORM_NS 700000ULL
#define SL_EEVDF_SLICE_NORM_OLD_NS 750000ULL
/* An entity's key in its queue: vruntime - min_vruntime (entity_key()). */
static inline int64_t sl_eevdf_key(const struct sl_eevdf_rq *rq, const struct sl_eevdf_se *se)
{
	return (int64_t)(se->vruntime - rq->min_vruntime);
}

uint64_t sl_eevdf_base_slice(int ncpus, uint64_t normalized_ns);
/* calc_delta_fair(delta, se): delta * NICE_0_LOAD / w, computed as the
 * kernel's __calc_delta does (wmult table, 32-bit fixed point). */
uint64_t sl_eevdf_calc_delta_fair(uint64_t delta, const struct sl_eevdf_se *se);

/* An entity of nice level nice, not queued, vlag 0. */
void sl_eevdf_se_init(struct sl_eevdf_se *se, int idx, int nice);
/* Set its weight to that of nice (the table values only). */
void sl_eevdf_se_set_nice(struct sl_eevdf_se *se, int nice);
/* Set its weight to w (a group's share: any weight >= 2); the inverse as
 * __update_inv_weight computes it, WMULT_CONST / w. */
void sl_eevdf_se_set_weight(struct sl_eevdf_se *se, unsigned long w);
/* reweight_entity of an entity that is not queued: weight w, its vlag
 * scaled by old / new weight (w * vlag is kept). */
void sl_eevdf_reweight_w(struct sl_eevdf_se *se, unsigned long w);
/* reweight_entity() of a queued entity (curr or not) to weight w: out
 * (its lag, and its deadline relative), lag and deadline scaled by
 * old / new weight, placed back; curr is set again and keeps the
 * RUN_TO_PARITY protection it had (none when it had lapsed). */
void sl_eevdf_reweight_queued(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se, unsigned long w);
/* An empty runqueue with the given configuration; free with _rq_release. */
void sl_eevdf_rq_init(struct sl_eevdf_rq *rq, uint64_t base_slice, uint64_t tick_ns);
/* rq empty, with like's configuration (the fields from base_slice on) */
void sl_eevdf_rq_init_like(struct sl_eevdf_rq *rq, const struct sl_eevdf_rq *like);
void sl_eevdf_rq_release(struct sl_eevdf_rq *rq);

/* avg_vruntime(): V, the load-weighted average vruntime (curr included
 * when queued), rounded towards -infinity. */
uint64_t sl_eevdf_avg_vruntime(const struct sl_eevdf_rq *rq);
/* vruntime_eligible(): V >= vruntime, without the division's loss. */
int sl_eevdf_vruntime_eligible(const struct sl_eevdf_rq *rq, uint64_t vruntime);
/* update_curr() for delta_exec ns of curr's CPU time: vruntime += delta
 * scaled by weight, a new deadline when it is reached (update_deadline),
 * min_vruntime. Returns 1 when, with others queued, the slice ran out or
 * curr's RUN_TO_PARITY protection has lapsed (v6.18: resched, a pick). */
int sl_eevdf_update_curr(struct sl_eevdf_rq *rq, uint64_t delta_exec);
/* place_entity(): vruntime = V - vlag * (W + w) / W (PLACE_LAG), deadline
 * = vruntime + calc_delta_fair(slice) (half of it when initial and
 * PLACE_DEADLINE_INITIAL). se not queued yet. */
void sl_eevdf_place(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se, int initial);
/* enqueue_entity(): place se (see above) and queue it. Call
 * sl_eevdf_update_curr() first (as the kernel does). */
void sl_eevdf_enqueue(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se, int initial);
/* dequeue_entity(): vlag = clamp(V - vruntime) (update_entity_lag), then
 * out of the runqueue. se may be curr (it stays curr, !on_rq, until put). */
void sl_eevdf_dequeue(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se);
/* dequeue_entity(DEQUEUE_SLEEP): with DELAY_DEQUEUE an entity that is not
 * eligible stays queued, marked delayed (returns 1); else as above (0). */
int sl_eevdf_dequeue_sleep(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se);
/* A delayed entity leaves for good (picked, or woken elsewhere):
 * dequeue_entity(DEQUEUE_DELAYED), positive lag zeroed (DELAY_ZERO). */
void sl_eevdf_finish_delayed(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se);
/* A delayed entity wakes on its runqueue (requeue_delayed_entity): it keeps
 * its place if its lag is not positive, else is placed again at V. */
void sl_eevdf_requeue_delayed(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se);
/* A dequeue that is not a sleep (a migration): the lag as dequeue, and with
 * PLACE_REL_DEADLINE the deadline kept relative for the next placement. */
void sl_eevdf_dequeue_move(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se);
/* pick_eevdf(): the eligible entity with the earliest deadline, curr kept
 * under RUN_TO_PARITY. NULL only when nothing is queued. */
struct sl_eevdf_se *sl_eevdf_pick(const struct sl_eevdf_rq *rq);
/* __pick_eevdf(cfs_rq, protect): the same, curr kept under RUN_TO_PARITY
 * only when protect */
struct sl_eevdf_se *sl_eevdf_pick_protect(const struct sl_eevdf_rq *rq, int protect);
/* pick_next_entity(): the buddy (rq->next) while it is eligible and
 * PICK_BUDDY is on, else sl_eevdf_pick() */
struct sl_eevdf_se *sl_eevdf_pick_next(const struct sl_eevdf_rq *rq);
/* For a curr that reads its own CPU clock, so that update_curr runs all
 * the time it runs (task_sched_runtime, kernel/sched/core.c): the CPU time
 * it may run on before update_curr would ask for a pick that can choose
 * another entity. Protected: until its deadline. Unprotected (every
 * update_curr picks): also until it turns ineligible, or a queued entity
 * with an earlier deadline turns eligible. 0: now; UINT64_MAX: nothing
 * queued beside it. */
uint64_t sl_eevdf_poll_horizon(const struct sl_eevdf_rq *rq);
/* protect_slice(): se (curr) still holds its RUN_TO_PARITY protection */
int sl_eevdf_protected(const struct sl_eevdf_rq *rq, const struct sl_eevdf_se *se);
/* set_next_entity() / put_prev_entity(). */
void sl_eevdf_set_next(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se);
void sl_eevdf_put_prev(struct sl_eevdf_rq *rq);
/* yield_task_fair() of curr (update_curr first): deadline +=
 * calc_delta_fair(slice); from v6.18 (rq->yield_forfeit) only when curr is
 * eligible, after vruntime = deadline (it forfeits the rest of its request)
 * and with min_vruntime updated. */
void sl_eevdf_yield(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se);
/* A nice change of se while not queued: the lag w * vlag is kept, so vlag
 * scales by old / new weight (reweight_entity). */
void sl_eevdf_reweight_sleeping(struct sl_eevdf_se *se, int nice);

/* ---- PELT (kernel/sched/pelt.c; replay/eevdf_smp.c) ---- */

/* LOAD_AVG_PERIOD (y^32 = 1/2) and LOAD_AVG_MAX (the sum 1024 * (1 + y +
 * y^2 + ...) as the kernel's integer series reaches it) */
#define SL_PELT_PERIOD 32
#define SL_PELT_LOAD_AVG_MAX 47742

/* struct sched_avg: an entity's or a CPU's geometric averages. Time in
 * units of 1024 ns, periods of 1024 units. */
struct sl_pelt {
	uint64_t last;          /* last_update_time, ns */
	uint64_t load_sum, runnable_sum;
	uint32_t util_sum;
	uint32_t period_contrib;/* units of the current period already summed */
	unsigned long load_avg, runnable_avg, util_avg;
};

/* A task that existed before the trace began is not new to its kernel: it
 * has a load history (kernel/sched/pelt.c, v6.18) the trace does not show,
 * and init_entity_runnable_average's full weight is a fork's. The replay
 * gives it the averages of what it did in the trace's first 128 ms (PELT's
 * memory: four half-lives of 32 ms), taken as what it had been doing:
 * load_avg = weight * f / 1024, runnable_avg = util_avg = f, where
 * f = 1024 * run / (run + sleep) is returned here; -1 for a task forked in
 * the trace or one without phases (the new-task rule applies). Every task
 * whose fork the trace does not show is such a task, the ones first seen
 * at a wakeup included: the time before it appears counts as asleep. A
 * nice -10 thread busy 1 % of the time starts at 95, not 9548. */
struct sl_task_spec;
int sl_eevdf_start_share(const struct sl_task_spec *s);
/* The PELT periods (1024 x 1024 ns) an average last updated age_ns before
 * the trace's start has decayed by at replay time now. */
uint64_t sl_eevdf_pelt_periods(uint64_t age_ns, uint64_t now);

/* decay_load(): val * y^n (y^32 = 1/2), 0 after 63 half-lives. */
uint64_t sl_pelt_decay(uint64_t val, uint64_t n);
/* ___update_load_sum() then, when a period ended, ___update_load_avg():
 * from sa->last to now the entity was runnable with `load` (an entity: 1
 * while queued; a CPU: its queued weight), `runnable` tasks, running or
 * not; load_avg = weight * load_sum / divider (an entity: its weight; a
 * CPU: 1). Returns 1 when the averages were recomputed. */
int sl_pelt_update(struct sl_pelt *sa, uint64_t now, unsigned long load, unsigned long runnable,
		   int running, unsigned long weight);
/* attach_entity_load_avg() / detach_entity_load_avg() of an entity of
 * weight `weight` to / from a CPU's averages. */
void sl_pelt_attach(struct sl_pelt *cfs, struct sl_pelt *se, unsigned long weight);
void sl_pelt_detach(struct sl_pelt *cfs, const struct sl_pelt *se, unsigned long weight);
/* the load part of sl_pelt_detach alone (a root-task average's, ravg) */
void sl_pelt_sub_load(struct sl_pelt *cfs, const struct sl_pelt *se, unsigned long weight);
/* wake_affine_weight() (WA_BIAS, equal capacities): 1 when the wakee goes
 * to the waker's CPU: this_load + task_load (less current_load, the
 * waker's, on a sync wakeup) times 100 below (prev_load - task_load) times
 * 100 + (imbalance_pct - 100) / 2 (plus 1 when sync). */
int sl_eevdf_wake_affine_weight(unsigned long this_load, unsigned long prev_load,
				unsigned long task_load, unsigned long current_load, int sync,
				unsigned imbalance_pct);

/* update_idle_cpu_scan() (SIS_UTIL): how many CPUs select_idle_cpu may
 * look at, from the LLC's summed utilisation over llc_weight CPUs: x =
 * sum_util / llc_weight, y = 1024 - min(1024, x^2 pct^2 / (10000 * 1024)),
 * llc_weight * y / 1024. */
int sl_eevdf_nr_idle_scan(unsigned long sum_util, int llc_weight, unsigned imbalance_pct);

/* wake_wide(): 1 when the waker and the wakee switch between partners
 * often enough that the wakeup is not steered to the waker's CPU: with
 * master the larger of their wakee_flips and slave the smaller, slave >=
 * llc_size and master >= slave * llc_size. */
int sl_eevdf_wake_wide(unsigned waker_flips, unsigned wakee_flips, unsigned llc_size);
/* detach_tasks() for migrate_load (kernel/sched/fair.c, v6.18): 1 when a
 * task of load `load` (task_h_load, at least 1) fits the imbalance left,
 * its load shifted right by the domain's failed balances (shr_bound); no
 * LB_MIN skip of loads under 16 (SCHED_FEAT(LB_MIN, false),
 * kernel/sched/features.h). */
int sl_eevdf_detach_load_fits(unsigned long load, unsigned failed, long imbalance);
/* nohz_balancer_kick() (kernel/sched/fair.c, v6.18; CONFIG_NO_HZ_IDLE): does
 * the tick of a busy CPU running this_nr tasks kick an idle CPU into
 * balancing, nr_busy CPUs busy and nr_idle with their tick stopped? Only
 * when one is idle, and this CPU has a task waiting (two or more) or more
 * than one CPU is busy. */
int sl_eevdf_nohz_kick(unsigned this_nr, int nr_busy, int nr_idle);
/* can_migrate_task()'s first gate (kernel/sched/fair.c, v6.12 and later):
 * a delayed task (asleep, still queued: DELAY_DEQUEUE) only when the
 * balance moves load (migrate_load), any other only while runnable and
 * not running; 1 may go on to the other gates */
int sl_eevdf_may_detach(int delayed, int runnable, int migrate_load);
/* select_task_rq_rt() and find_lowest_rq() (kernel/sched/rt.c, cpupri_find
 * in kernel/sched/cpupri.c, v6.18) for the wakeup or fork of an RT task of
 * kernel prio `prio` (99 - rt_priority) allowed on `mask`, whose CPU is cpu
 * (a fork: its parent's) and whose wakeup runs on this_cpu (-1: not known):
 * best[c] is the kernel prio of the best RT task queued on CPU c (the
 * running one included), -1 none; cur_prio the prio of the task running on
 * cpu if it is an RT task, else -1; cur_pinned whether that task may run
 * there only. Returns the CPU (docs/eevdf.md "SMP"). */
int sl_eevdf_select_rt(int ncpus, const int *best, int cur_prio, int cur_pinned, int prio,
		       uint64_t mask, int cpu, int this_cpu);
/* vcpu_pack_room() of sched_vcpu_pack (eevdf_pack.c): the task may run on
 * the CPU (allowed), no RT task is there (nr_rt), at most one runnable
 * fair task besides it (nr_fair; local: it is queued there itself, one
 * more), and util (the CPU's, plus the task's when it comes from another
 * CPU) under 70 % of capacity. */
int sl_eevdf_pack_room(int allowed, unsigned nr_rt, unsigned nr_fair, int local, unsigned long util,
		       unsigned long capacity);

/* util_est_update() (UTIL_EST) at a sleep: the task's new estimate from
 * its EWMA, its utilisation and its runnable average at the dequeue: the
 * utilisation when it is higher; else unchanged within 1 % (10) or when it
 * waited (utilisation + 10 < runnable); else the EWMA moves a quarter of
 * the way: (4 ewma - (ewma - util)) / 4. */
unsigned long sl_eevdf_util_est_update(unsigned long ewma, unsigned long dequeued, unsigned long runnable);
/* update_avg() of a CPU's avg_idle (kernel/sched/core.c, ttwu_do_activate):
 * avg + (sample - avg) / 8, at most max */
uint64_t sl_eevdf_update_avg(uint64_t avg, uint64_t sample, uint64_t max);

struct sl_task;
/* The entity of a task of a run of this policy (tests). */
const struct sl_eevdf_se *sl_eevdf_task_se(const struct sl_task *et);
/* Its wakee_flips (tests). */
unsigned *sl_eevdf_task_flips(struct sl_task *et);
/* Its recent_used_cpu (tests; -1 none yet). */
int sl_eevdf_task_recent(const struct sl_task *et);

#endif
