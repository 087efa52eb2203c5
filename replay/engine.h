/* replay/engine.h - the deterministic discrete-event replay engine.
 *
 * sl_replay_run() re-schedules a behaviour (common/behaviour.h) through one
 * policy (policy.h) on N simulated CPUs and writes the schedule through a
 * run sink (common/sink.h). Time is integer ns since the behaviour's time 0;
 * events are ordered by (time, kind, sequence), so a replay is a pure
 * function of (behaviour, policy, options): the same input gives the same
 * rows byte for byte.
 *
 * The engine owns: the clock, tasks and their progress through phases, the
 * CPUs (curr, need_resched, load sums), ticks at hz on every CPU, sleeps
 * (timed or causal), the shared SMP layer (wakeup/fork CPU choice, periodic
 * and idle balancing, cpumasks) and the invariant checker. The policy owns
 * its runqueues and decides. This header is what a policy may use.
 */
#ifndef SL_ENGINE_H
#define SL_ENGINE_H

#include <stdint.h>
#include <stddef.h>
#include "policy.h"
#include "../common/behaviour.h"
#include "../common/sink.h"
#include "../common/util.h"

struct sl_sync_map; /* sync.h */

#define SL_ENGINE_MAX_CPUS 1024
#define SL_ENGINE_MAX_PARAMS 32
#define SL_OVERHEAD_Q 16 /* values of an overhead distribution */

/* Engine task states. */
enum sl_task_state {
	SL_TS_NEW = 0,     /* not yet appeared */
	SL_TS_RUNNABLE,    /* on a runqueue, waiting */
	SL_TS_RUNNING,     /* some CPU's curr (still on its runqueue) */
	SL_TS_SLEEPING,    /* blocked until a wakeup */
	SL_TS_DONE,        /* exited or finished its recorded work */
	SL_TS_WAKING,      /* woken, on its way to a runqueue (kernel overheads) */
};

struct sl_task_eng; /* the engine's own part of a task (engine_priv.h) */

/* One simulated task, as policies see it: read-only for policies unless
 * marked "policy". What only the engine uses (progress through the phases,
 * pending rows, causal waits) is in *eng, which policies cannot see. The
 * fields used on every decision come first (one cache line). */
struct sl_task {
	struct sl_task_eng *eng;     /* engine: its private part */
	int state;                   /* enum sl_task_state */
	int cpu;                     /* runqueue it is on / CPU it last ran on */
	int on_rq;                   /* 1 between enqueue/fork and dequeue/steal */
	int prio;                    /* policy: kernel-style prio for sched_slice
				      * rows (100 + level); keep current */
	void *pol;                   /* policy: its per-task data */
	uint64_t cpumask;            /* allowed CPUs 0..63, never 0; all ones = any CPU */
	unsigned long load_weight;   /* policy: SMP load weight (2.6.20 load_weight) */
	uint64_t sum_exec_ns;        /* CPU time consumed so far */
	uint64_t exec_start_ns;      /* when it last went on a CPU */
	/* less often used */
	int idx;                     /* index in the behaviour (sink task id) */
	int nice;                    /* current nice, -20..19 */
	int static_prio;             /* 120 + nice */
	int sched_policy;            /* enum sl_policy_kind */
	int rt_prio;
	uint32_t flags;              /* SL_TASK_* of the spec (KTHREAD...) */
	const struct sl_task_spec *spec;
	struct sl_task *parent;      /* forking task in this run, or NULL */
	uint64_t last_ran_ns;        /* when it last left a CPU */
	uint64_t sleep_start_ns;     /* when its current/last sleep began */
} __attribute__((aligned(64))); /* hot fields on one whole cache line */

/* One simulated CPU (read-only for policies). */
struct sl_cpu {
	int id;
	struct sl_task *curr;        /* running task, NULL = idle */
	int need_resched;
	unsigned nr_running;         /* tasks on this runqueue (incl. curr) */
	unsigned long load;          /* Σ load_weight of those tasks */
	uint64_t busy_ns;            /* CPU time given to tasks so far */
	uint64_t charged_to;         /* curr's CPU time is accounted up to here */
	uint64_t run_gen;            /* invalidates stale progress events */
	int resched_pending;         /* engine: a delayed reschedule is queued */
	uint64_t resched_gen;        /* engine: invalidates it (bumped by schedule) */
	uint64_t timer_gen;          /* engine: the policy timer armed last (sl_engine_timer) */
	/* engine, with --overhead: wakees on their way to this CPU for a drawn
	 * latency, not yet on its runqueue here (docs/replay.md "Kernel
	 * overheads"). In the kernel a wakee onto an idle CPU of the waker's
	 * LLC goes through the wake list and sets rq->ttwu_pending, so that
	 * idle_cpu() is false until it is queued; a wakee onto a busy CPU is
	 * queued at once (ttwu_queue_cond, kernel/sched/core.c, v6.18). */
	unsigned wake_pending;       /* the CPU was idle at the wakeup */
	unsigned wake_queued;        /* it was busy: on the kernel's runqueue already */
	/* engine, with --overhead: the latency drawn for the last interrupt's
	 * wakeup onto this CPU, at irq_lat_ts, busy or not (irq_lat_busy):
	 * the wakeups of one interrupt share it (docs/replay.md "Kernel
	 * overheads") */
	uint64_t irq_lat_ts, irq_lat;
	int irq_lat_busy;
};

enum sl_replay_mode { SL_MODE_TIMED = 0, SL_MODE_CAUSAL = 1 };
/* replay --wake-cpu */
enum sl_wake_cpu_mode {
	SL_WAKE_CPU_RUNNING = 0, /* default: a running waker's CPU; else the
				  * sleeper's (not --irq-cpu: that is for
				  * interrupts and the idle task) */
	SL_WAKE_CPU_WAKER = 1,   /* the waker's CPU (queued or last ran on) */
};
/* replay --irq-cpu */
enum sl_irq_cpu_mode {
	SL_IRQ_CPU_SLEEPER = 0,  /* the sleeper's own CPU */
	SL_IRQ_CPU_RECORDED = 1, /* the CPU the interrupt fired on in the
				  * recording (the phase's wake_cpu) */
	SL_IRQ_CPU_AUTO = 2,     /* default: relative, for every model
				  * (sl_irq_cpu_mode_of) */
	SL_IRQ_CPU_RELATIVE = 3, /* the recorded CPU's place relative to the
				  * CPU the task slept on (wake_cpu against
				  * sleep_cpu): its own CPU in the replay when
				  * the interrupt fired there, else the CPU at
				  * the same offset from its replayed CPU */
	SL_IRQ_CPU_REMOTE = 4,   /* its own CPU in the replay when the
				  * interrupt fired on the CPU it slept on,
				  * else the CPU it fired on (a device's or
				  * another CPU's interrupt: where it fired,
				  * not relative to the sleeper) */
};

/* replay --tick-timers */
enum sl_tick_timer_mode { SL_TICK_TIMERS_ON = 0, SL_TICK_TIMERS_OFF = 1 };
enum sl_reap_mode { SL_REAP_ANY = 0, SL_REAP_NAMED = 1 };
/* replay --hrtimer-slack: a sleep's timer fires with another timer of its
 * CPU, or the tick, inside its slack (replay/hrtimer.c) */
enum sl_hrt_slack_mode {
	SL_HRT_SLACK_AUTO = 0,   /* on for eevdf (timer slack since 2.6.28), off for
				  * the models of 2.6.20-2.6.23 kernels */
	SL_HRT_SLACK_ON = 1,
	SL_HRT_SLACK_OFF = 2,    /* every timer fires alone at its recorded end */
};
/* replay --abs-timers */
enum sl_abs_timer_mode { SL_ABS_TIMERS_ON = 0, SL_ABS_TIMERS_OFF = 1 };
/* replay --handback */
enum sl_handback_mode { SL_HANDBACK_ON = 0, SL_HANDBACK_OFF = 1 };
/* replay --wall-clock */
enum sl_wall_mode { SL_WALL_ON = 0, SL_WALL_OFF = 1 };
/* replay --late-cpus: a CPU of the recording with no event until late
 * (common/behaviour.h cpu_up_ns; docs/replay.md "CPUs that were offline") */
enum sl_late_cpus_mode {
	SL_LATE_CPUS_OFFLINE = 0, /* default: offline until its first event, as
				   * the kernel's hotplug: nothing is placed or
				   * balanced onto it before (CPUs 0..63) */
	SL_LATE_CPUS_ONLINE = 1,  /* every CPU from time 0 (the late start was
				   * only the tracer's) */
};

/* Options of one replay (defaults: sl_replay_opts_init). */
struct sl_replay_opts {
	int cpus;                    /* 0: the behaviour's cpus (at least 1) */
	int hz;                      /* ticks per second (1000) */
	uint64_t rr_interval_ns;     /* RSDL/SD RR_INTERVAL (6 ms) */
	int mode;                    /* enum sl_replay_mode */
	uint64_t seed;               /* recorded; the engine itself is not random */
	uint64_t duration_ns;        /* 0: until every task has done its recorded
				      * work; else stop at this time */
	int debug;                   /* 1: invariant checks after every policy
				      * call (also env SCHEDLAB_DEBUG=1) */
	const char *policy_opts;     /* "name=value,name=value" for ops->params */
	const char *exclude;         /* replay --exclude patterns, comma-joined (params only) */
	const char *origin;          /* the command that made the run, when not replay
				      * ("validate"; params only, issue 22) */
	const char *late_cpus;       /* JSON [[cpu, first event ns or null], ...] of the
				      * recording's likely offline CPUs (the behaviour's
				      * cpu_up_ns; params only; docs/replay.md) */
	int late_cpus_mode;          /* enum sl_late_cpus_mode: what the replay does
				      * with the behaviour's cpu_up_ns */
	/* Sync wakeups inferred from the behaviour (replay/sync.h, docs/replay.md
	 * "Sync wakeups"): enum sl_sync_mode (default block) and its window of
	 * the waker's CPU time (default 50 us) */
	int sync_mode;
	uint64_t sync_window_ns;
	/* Those flags computed once (sl_sync_infer under sync_mode and
	 * sync_window_ns) by a caller replaying one behaviour through several
	 * models, or NULL: the replay infers them */
	const struct sl_sync_map *sync;
	/* Where a task's wakeup runs when its waker is not running in the
	 * replay (docs/replay.md "Wakeup CPU"): enum sl_wake_cpu_mode */
	int wake_cpu_mode;
	/* Where an interrupt's or the idle task's wakeup runs (docs/replay.md
	 * "Wakeup CPU"): enum sl_irq_cpu_mode */
	int irq_cpu_mode;
	/* Kernel overheads (docs/replay.md "Kernel overheads"); nq 0 = none.
	 * a woken task reaches its CPU's runqueue wake_lat after its wakeup
	 * if that CPU was idle, switch_lat after it if it was busy (the
	 * running task keeps the CPU meanwhile); a started task with a wakeup
	 * row runs wake_lat after its start on an idle CPU. Each is nq equally likely values (quantiles of a
	 * recorded distribution, or one fixed value), drawn in turn from a
	 * sequence seeded by seed. overhead names how they were chosen, for
	 * the run's params ("none", "auto", "fixed"; NULL = "none"). */
	int nq;
	uint64_t wake_lat_ns[SL_OVERHEAD_Q], switch_lat_ns[SL_OVERHEAD_Q];
	/* switch_lat for a wakeup onto a busy CPU that its running task made
	 * itself (the way to its own return to user space), when switch_own
	 * is set; switch_lat then for every other */
	int switch_own;
	uint64_t switch_own_lat_ns[SL_OVERHEAD_Q];
	const char *overhead;
	/* The kernel's preemption model (docs/replay.md "Preemption model"):
	 * enum sl_preempt_model, how long a wakeup onto a busy CPU takes to
	 * switch */
	int preempt;
	/* Task groups (docs/groups.md): 1 = every task in the root group
	 * (--groups none), 0 = the behaviour's groups (from the ledger) for a
	 * model that schedules groups */
	int no_groups;
	/* Hand-backs (docs/replay.md "Hand-backs"): 1 = off (--handback off),
	 * 0 = a causal replay keeps a hand-off pair's recorded order */
	int no_handback;
	/* Wall-clock bursts (docs/model.md "Wall-clock bursts"): 1 = off
	 * (--wall-clock off: every burst is its recorded CPU time), 0 = the
	 * bursts of SL_TASK_WALL tasks end on their deadline */
	int no_wall;
	/* Timers that fire at the tick (docs/model.md): 1 = off (--tick-timers
	 * off: their sleeps last as recorded), 0 = a sleep with tick_n ends at
	 * the tick_n-th tick after its start */
	int no_tick_timers;
	/* 1 = a parent's sleep ended by a child's exit waits for that child
	 * (--reap named); 0 = for whichever of its children exits first,
	 * for a task the collector found waiting so (enum sl_reap_mode)
	 * (replay/reap.c, docs/replay.md "A parent's wait for any child") */
	int reap_named;
	/* 1 = each wakeup of one interrupt onto a CPU draws its own latency
	 * (before 2026-12-08; tests); 0 = they share the first one's */
	int irq_lat_each;
	int hrtimer_slack;           /* enum sl_hrt_slack_mode (replay/hrtimer.c) */
	/* 1 = an absolute periodic timer's sleeps last as recorded (--abs-timers
	 * off); 0 = each ends at the last deadline plus the recorded interval
	 * between their wakeups (replay/hrtimer.c sl_abs_timer_end) */
	int no_abs_timers;
	/* the recording's tick phase (trace clock ns, modulo 1e9 / hz: its
	 * recorded run's params tick_phase_ns, when their tick_phase_hz is
	 * hz): the replay's ticks fall there, and the sleeps with tick_n end
	 * at a tick (they count the recording's ticks: at another HZ they last
	 * as recorded); -1: one tick after the start, no tick_n */
	int64_t tick_phase_ns;
	/* the groups' source and counts for the run's params, or NULL */
	const char *groups_desc;
	/* where the tasks' policy and nice came from, for the run's params
	 * (NULL: not said) */
	const char *policy_from;
	/* replay --interference for the run's params (docs/replay.md "Work and
	 * interference"), or NULL (a workload: none recorded) */
	const char *interference;
};

/* CONFIG_PREEMPT_NONE / _VOLUNTARY (the switch latencies as given: a
 * recorded run's embody its kernel's model), full preemption (the least of
 * them: the running task is preempted at once, in the kernel too), and
 * PREEMPT_LAZY (a fair wakee waits for the running task's return to user
 * space as with none, but no longer than the next tick; a real-time wakee
 * as full). */
enum sl_preempt_model {
	SL_PREEMPT_NONE = 0,
	SL_PREEMPT_VOLUNTARY = 1,
	SL_PREEMPT_FULL = 2,
	SL_PREEMPT_LAZY = 3,
};
const char *sl_preempt_name(int model);
/* Fill o with the defaults above. */
void sl_replay_opts_init(struct sl_replay_opts *o);

/* What a run did (for the one-line summary and the bench). */
struct sl_replay_stats {
	uint64_t end_ns;             /* simulated time at the end */
	uint64_t events;             /* events processed */
	uint64_t decisions;          /* pick_next calls */
	uint64_t switches;           /* context switches (next != prev) */
	uint64_t ticks;              /* policy ticks */
	uint64_t wakeups;
	uint64_t migrations;         /* tasks moved by balancing */
	uint64_t active_balances;    /* tasks pushed by active balancing */
	uint64_t wake_affine;        /* wakeups moved to the waker's CPU */
	uint64_t sync_wakeups;       /* wakeups made sync (--sync) by a running waker */
	uint64_t sync_inferred;      /* wakeups of the behaviour the --sync rule marks */
	uint64_t execs;              /* exec points reached (SL_END_EXEC) */
	uint64_t exec_moves;         /* of those, moved by sched_exec's balancing */
	uint64_t irq_cpu_wakeups;    /* interrupt/idle wakeups taken on their
				      * recorded CPU (try_to_wake_up's this_cpu) */
	uint64_t idle_wait_ns;       /* time some CPU had no task while a task
				      * allowed everywhere waited on another
				      * CPU's runqueue */
	uint64_t idle_wait_max_ns;   /* the longest such stretch */
	uint64_t idle_wait_beyond_ns;/* Σ of each stretch's part beyond what the
				      * balancing intervals allow (docs/replay.md) */
	uint64_t causal_waits;       /* sleeps/starts ended by a task's progress */
	uint64_t causal_fallbacks;   /* causal waits that fell back to timed */
	uint64_t handbacks;          /* wakers parked until their sleeper slept */
	uint64_t tick_timers;        /* timers' sleeps ended at a tick (tick_n) */
	uint64_t reap_any;           /* sleeps for any child ended by another child
				      * than the recording's (replay/reap.c) */
	uint64_t hrt_early;          /* timers fired before their recorded end with
				      * another timer or the tick (hrtimer.c) */
	uint64_t busy_ns, idle_ns;   /* Σ over CPUs */
	uint64_t unfinished;         /* tasks with work left at the end */
	uint64_t invariant_checks;
};

/* The run. Policies see the fields above the line. */
struct sl_engine {
	const struct sl_policy_ops *ops;
	void *pol;                   /* policy run state (ops->init sets it) */
	uint64_t now;                /* current time, ns since time 0 */
	int ncpus;
	struct sl_cpu *cpus;
	struct sl_task *tasks;
	size_t ntasks;
	int hz;
	uint64_t tick_ns;            /* 1e9 / hz */
	uint64_t tick0_ns;           /* the first tick, in (0, tick_ns]: the
				      * ticks fall at tick0_ns + k * tick_ns
				      * (the recording's phase, or tick_ns) */
	uint64_t rr_interval_ns;
	int mode;
	uint64_t seed;               /* the run's --seed: a model that draws
				      * (as the kernel's sched_rng) seeds from it */
	long long param[SL_ENGINE_MAX_PARAMS]; /* values of ops->params[i] */
	/* the behaviour's task groups (tasks[i].spec->group1 - 1 indexes them),
	 * for a model with group_sched; none under --groups none */
	const struct sl_task_group *groups;
	size_t ngroups;
	/* the behaviour's CPUs' load tracking at the start (ncpus entries,
	 * NULL unknown: sl_behaviour.cpu_pelt), for a model that tracks load */
	const struct sl_cpu_pelt *cpu_pelt;
	/* ---- engine private below ---- */
	struct sl_engine_priv *priv;
};

/* ---- services for policies ---- */

/* jiffies: the ticks up to now (they fall at tick0_ns + k * tick_ns) */
static inline uint64_t sl_eng_jiffies(const struct sl_engine *e)
{
	return e->now >= e->tick0_ns ? (e->now - e->tick0_ns) / e->tick_ns + 1 : 0;
}
/* Value of the policy's i-th parameter (ops->params[i]). */
static inline long long sl_engine_param(const struct sl_engine *e, int i)
{
	return e->param[i];
}
/* 1 if p may run on cpu. Masks name CPUs 0..63; on more CPUs a task whose
 * mask is all ones (any CPU) may run anywhere, and one pinned to some of
 * the first 64 stays there. */
static inline int sl_task_allowed(const struct sl_task *p, int cpu)
{
	return cpu < 64 ? (int)((p->cpumask >> cpu) & 1) : p->cpumask == UINT64_MAX;
}
/* The CPU the trace first showed p on when p may run there now, else -1
 * (docs/replay.md "The trace's start") */
static inline int sl_eng_start_cpu(const struct sl_engine *e, const struct sl_task *p)
{
	int c = p->spec ? p->spec->start_cpu1 - 1 : -1;
	return c >= 0 && c < e->ncpus && sl_task_allowed(p, c) ? c : -1;
}
/* For a policy's steal hook: may p, queued on another CPU, be moved to dst
 * now? Inside the engine's move_tasks this applies 2.6.20's rules
 * (can_migrate_task: cpumask, not running, cache-hot unless balancing has
 * failed often; move_tasks: the load still to move); steal must offer the
 * candidates in its move_tasks order and take the first accepted. */
int sl_engine_may_migrate(struct sl_engine *e, const struct sl_task *p, int dst);
/* For a policy's balance hook: p, queued on src and already taken out of
 * the policy's own structures for src (as steal does), moves to dst: the
 * engine's books, then the policy's enqueue(dst, p, SL_ENQ_MIGRATE). */
void sl_engine_pull(struct sl_engine *e, struct sl_task *p, int src, int dst);
/* 1 when p runs the last burst of its life (it exits at its end): a
 * wakeup it makes is made on its way out (do_exit, PF_EXITING). */
int sl_engine_exiting(const struct sl_engine *e, const struct sl_task *p);
/* 1 if cpu is up (a late CPU is offline before its first event) */
int sl_engine_cpu_up(const struct sl_engine *e, int cpu);
/* Ask cpu to reschedule after the current event (need_resched). */
void sl_engine_resched(struct sl_engine *e, int cpu);
/* Arm cpu's policy timer: the policy's timer hook runs at time at (>= now)
 * if cpu is running a task then; arming again replaces the time armed
 * before. For what the kernel notices between ticks without an event of
 * the trace (a task reading its own CPU clock runs update_curr). */
void sl_engine_timer(struct sl_engine *e, int cpu, uint64_t at);
/* For a policy's init(): run (malloc'd) becomes e->pol, and the engine
 * frees it with the policy's per-task array tasks and its per-CPU array
 * cpus (either may be NULL) when the replay ends, after the policy's
 * release() (if any) has freed the rest and every task's p->pol is
 * forgotten: sl_engine_release_policy. */
void sl_engine_set_policy(struct sl_engine *e, void *run, void *tasks, void *cpus);
/* That release (the engine's; a test's rig calls it): nothing when
 * e->pol is NULL (the policy's init did not get that far). */
void sl_engine_release_policy(struct sl_engine *e);
/* Record p's dynamic level (0..39; prio = 100 + level) and array (0 active,
 * 1 expired) from now on: a staircase row (repeats are dropped). */
/* 1 if the run records staircase rows (its sink takes them): a policy may
 * skip working its rows out when not (the bench's runs, with no sink). */
int sl_engine_wants_staircase(const struct sl_engine *e);
void sl_engine_staircase(struct sl_engine *e, struct sl_task *p, int level, int array);
/* Record p's vruntime lag (vruntime - min_vruntime of its CPU, ns) now: a
 * vlag row (CFS's counterpart of the staircase). */
void sl_engine_vlag(struct sl_engine *e, struct sl_task *p, int64_t lag_ns);
/* Record a rotation on cpu: kind "minor", "major" or "idle"; level = the
 * level serviced after it. */
void sl_engine_rotation(struct sl_engine *e, int cpu, const char *kind, int level);
/* Report a policy error (bad parameter in init): sets the run's message. */
int sl_engine_fail(struct sl_engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- running a replay ---- */

/* Replay b through ops with options o, writing rows to sink (may be NULL:
 * nothing recorded). Returns 0, or -1 with d->msg set (bad options, a sink
 * error, an invariant violation in debug mode). st may be NULL. b is not
 * modified. */
int sl_replay_run(const struct sl_behaviour *b, const struct sl_policy_ops *ops,
		  const struct sl_replay_opts *o, const struct sl_run_sink *sink,
		  struct sl_replay_stats *st, struct sl_diag *d);

/* The --irq-cpu mode in effect (never auto): auto is relative for every
 * model (docs/replay.md "Wakeup CPU"). */
int sl_irq_cpu_mode_of(int mode);

/* 1 if a replay of model (its ops name) with o has timer slack (--hrtimer-slack;
 * auto: eevdf only; replay/hrtimer.c) */
int sl_hrt_slack_on(const struct sl_replay_opts *o, const char *model);

/* The name of an --irq-cpu mode: "sleeper", "recorded", "auto", "relative",
 * "remote". */
const char *sl_irq_cpu_name(int mode);

/* Write the run's params as JSON text into buf: hz, rr_interval_ns, mode,
 * cpus, seed, duration_ns, overhead, sync, sync_window_ns, wake_cpu, irq_cpu
 * (the mode in effect, sl_irq_cpu_mode_of: never auto) and every
 * ops->params value (the policy_opts applied). Returns 0, or -1 (bad policy_opts, message in d). */
int sl_replay_params_json(const struct sl_policy_ops *ops, const struct sl_replay_opts *o,
			  int cpus, char *buf, size_t len, struct sl_diag *d);

/* ---- the policy table (replay/policies.c) ---- */

/* Every model, in listing order: walk this (never a list of names) so that
 * a new model appears everywhere by itself. */
extern const struct sl_policy_ops *const sl_policies[];
extern const size_t sl_npolicies;
/* The policy called name, or NULL. */
const struct sl_policy_ops *sl_policy_find(const char *name);
/* Comma-separated names of the models, for messages. */
const char *sl_policy_names(void);
/* The index of ops's parameter called name (its first n chars; the
 * parameter's name or its alias), or -1. */
int sl_policy_param_index(const struct sl_policy_ops *ops, const char *name, size_t n);
/* engine_opts.c: the model's parameters from "NAME=VALUE,..." into vals
 * (ops->params order; defaults for those not given) */
int sl_eng_parse_policy_opts(const struct sl_policy_ops *ops, const char *opts, long long *vals,
			     struct sl_diag *d);
/* Some model's parameter name for its alias, or the alias for its name
 * (rsdl: "a1" <-> "pick_sets_level"); NULL if name is neither. */
const char *sl_policy_param_other(const char *name);

/* The models of the table, by name (tests and benches). */
extern const struct sl_policy_ops sl_policy_rsdl;
extern const struct sl_policy_ops sl_policy_o1;
extern const struct sl_policy_ops sl_policy_sd;
extern const struct sl_policy_ops sl_policy_cfs;
extern const struct sl_policy_ops sl_policy_eevdf;

#endif
