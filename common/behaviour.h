/* common/behaviour.h - what a task does, independent of how it was scheduled.
 *
 * This is the contract between the collector (which derives it from a
 * trace), the workload file reader (which writes it from a scenario) and
 * the replay engine (which re-schedules it). A task is a sequence of phases:
 * one CPU burst followed by one sleep (or by the end of the task, or by an
 * exec: SL_END_EXEC, after which the next burst goes on at once).
 */
#ifndef SL_BEHAVIOUR_H
#define SL_BEHAVIOUR_H

#include <stdint.h>
#include <stddef.h>

#define SL_INF UINT64_MAX

/* Who ended a sleep. */
enum sl_waker_kind {
	SL_WAKER_NONE = 0, /* unknown (timed only) */
	SL_WAKER_TASK = 1, /* a task in process context: waker is set */
	SL_WAKER_IRQ = 2,  /* hard/soft interrupt context (timer, device) */
	SL_WAKER_IDLE = 3, /* the idle task (typically a timer/IPI on an idle CPU) */
};

/* How a phase ends. */
enum sl_phase_end {
	SL_END_SLEEP_S = 'S', /* interruptible sleep */
	SL_END_SLEEP_D = 'D', /* uninterruptible sleep (I/O; O(1) caps its credit) */
	SL_END_EXIT = 'X',    /* task exits after the burst */
	SL_END_TRACE = 'E',   /* the trace ends (task still alive) */
	SL_END_YIELD = 'Y',   /* sched_yield: stays runnable */
	SL_END_EXEC = 'V',    /* execve: the task keeps running (the next phase's
			       * burst goes on at once); the exec point where
			       * the kernel balances it (sched_exec) */
};

struct sl_phase {
	uint64_t run_ns;           /* CPU time of the burst (may be 0); SL_INF = never sleeps */
	uint64_t sleep_ns;         /* recorded sleep length (from sleep to wakeup) */
	char end;                  /* enum sl_phase_end */
	uint8_t waker_kind;        /* enum sl_waker_kind, for the wakeup ending the sleep */
	uint8_t pipe;              /* 1 if the wakeup is known to be a pipe wakeup */
	uint8_t lost;              /* 1 if lost events hide part of this phase */
	int32_t waker;             /* task index of the waker, -1 none */
	uint64_t waker_progress_ns;/* waker's cumulative CPU time when it woke us */
	uint32_t wake_cpu1;        /* interrupt or idle wakeup ending the sleep: the
				    * CPU the wakeup fired on + 1 (0: unknown or a
				    * task's wakeup); sl_phase_wake_cpu() */
	uint32_t sleep_cpu1;       /* with wake_cpu1: the CPU the task last ran on
				    * before that sleep + 1 (0: unknown);
				    * sl_phase_sleep_cpu() */
	uint64_t irq_ns;           /* of run_ns, the interference: the wall time
				    * the kernel did not charge to the task (IRQ,
				    * steal; sched_stat_runtime); run_ns - irq_ns
				    * is its work. 0: none, or not known
				    * (docs/model.md "Work and interference") */
	uint32_t tick_n;           /* a timer-wheel wakeup: the sleep ended at a
				    * tick of the recording (waker kind irq or
				    * idle, within SL_TICK_TIMER_NS after it),
				    * the ticks from the sleep's start to that
				    * one (its timeout in jiffies, >= 1); the
				    * replay ends the sleep at the tick as many
				    * ticks on (docs/model.md "Timers that fire
				    * at the tick"). 0: not one */
	uint64_t wake_ts;          /* the recorded wakeup's time (trace clock)
				    * of an interrupt or idle wakeup, 0 unknown;
				    * stored (schema 16) only for the timer
				    * sleeps of an SL_TASK_ABS_TIMER task */
};

/* A phase end that is a sleep (S or D), not an exit, a yield or the end. */
static inline int sl_end_sleeps(char end)
{
	return end == SL_END_SLEEP_S || end == SL_END_SLEEP_D;
}

/* The recorded CPU an interrupt or idle wakeup fired on, -1 unknown. */
static inline int sl_phase_wake_cpu(const struct sl_phase *ph)
{
	return ph->wake_cpu1 ? (int)(ph->wake_cpu1 - 1) : -1;
}

/* The recorded CPU the task slept on (last ran on) before an interrupt or
 * idle wakeup, -1 unknown. */
static inline int sl_phase_sleep_cpu(const struct sl_phase *ph)
{
	return ph->sleep_cpu1 ? (int)(ph->sleep_cpu1 - 1) : -1;
}

enum {
	SL_TASK_AT_START = 1,  /* already existed when the trace began */
	SL_TASK_FORKED = 2,    /* fork seen in the trace */
	SL_TASK_EXITED = 4,    /* exit seen in the trace */
	SL_TASK_LOST = 8,      /* lost events hide part of its life */
	SL_TASK_KTHREAD = 16,  /* kernel thread (no mm): O(1) treats sleep differently */
	SL_TASK_IDLE = 32,     /* the idle task (pid 0): never replayed */
	SL_TASK_EXCLUDED = 64, /* left out of a replay (replay --exclude): never replayed */
	SL_TASK_POLLS = 128,   /* reads its own CPU clock while it runs: its slices end
				* off the tick (docs/model.md "Clock reads") */
	SL_TASK_WIDE = 256,    /* its interrupt wakeups from the other CPU stay where it
				* slept: wake_wide() (docs/model.md "Wide wakees") */
	SL_TASK_WALL = 512,    /* its bursts between two sleeps end on a wall-clock
				* deadline: wall_ns after it first runs, then
				* wall_tail_ns of CPU (docs/model.md "Wall-clock bursts") */
	SL_TASK_ABS_TIMER = 1024, /* it sleeps on an absolute periodic timer: each
				   * timer sleep ends at its last deadline plus the
				   * recorded interval between their wakeups, wake_ts
				   * (docs/model.md "Absolute timers") */
	SL_TASK_REAPS_ANY = 2048, /* its children's exits woke it at least twice
				   * and never past another child that had exited
				   * during the same sleep: it waits for any child
				   * (wait4(-1), SIGCHLD), not a named one
				   * (docs/model.md "Waits for children") */
};

enum sl_policy_kind { SL_SCHED_NORMAL = 0, SL_SCHED_FIFO = 1, SL_SCHED_RR = 2, SL_SCHED_BATCH = 3 };

struct sl_task_spec {
	int32_t idx;             /* index in the spec array (0..n-1) */
	int64_t utid;            /* database id, 0 if none yet */
	int32_t tid, tgid;
	char comm[24];
	int nice;                /* -20..19 */
	int policy;              /* enum sl_policy_kind */
	int rt_prio;             /* 1..99 for FIFO/RR */
	uint64_t start_ns;       /* appears at (relative to the run's time 0) */
	uint64_t cpumask;        /* allowed CPUs (bit i = cpu i); 0 = all */
	uint32_t flags;          /* SL_TASK_* */
	int32_t parent;          /* forking task index, -1 none */
	uint64_t parent_progress_ns; /* parent's CPU time at the fork (causal start) */
	int initially_runnable;  /* at start: 1 runnable, 0 asleep until its first wakeup */
	int start_cpu1;          /* the CPU the trace first shows it on, plus 1 (0:
				  * unknown): where it ran or was queued, or for a
				  * task first seen at a wakeup the CPU it last ran
				  * on (sched_waking's target_cpu); a task present
				  * at the trace's start starts there in a replay
				  * (docs/replay.md "The trace's start") */
#define SL_MAX_START_CPU 4096
	uint32_t group1;         /* its task group: groups[group1 - 1] of the
				  * behaviour, 0 the root group (docs/groups.md) */
	/* the kernel's load tracking of the thread at the trace's start
	 * (ledger version 5, table start_pelt): its averages as last updated
	 * age_ns before the snapshot, on CPU pelt_cpu; pelt_known 0: none */
	int pelt_known, pelt_cpu;
	unsigned long pelt_load, pelt_runnable, pelt_util, pelt_util_est;
	uint64_t pelt_age_ns;
	uint64_t wall_ns, wall_tail_ns; /* SL_TASK_WALL: the deadline after its
				  * first run in a burst, and the CPU time
				  * after it (0 otherwise) */
#define SL_WALL_MAX_NS 3600000000000ULL /* at most an hour each */

	/* Either explicit phases ... */
	struct sl_phase *phases;
	size_t nphases;
	/* ... or a periodic pattern (workload file) when nphases == 0:
	 * run_ns (SL_INF = forever), then sleep_ns, repeated count times
	 * (0 = forever). */
	uint64_t run_ns, sleep_ns;
	uint64_t count;
};

/* Phase i of a task; returns 0 and fills *ph, or -1 past the last phase
 * (a task with nphases == 0 and run_ns == 0 has no phase at all: nothing to
 * replay, e.g. a task seen in the trace only as a waker).
 * For periodic tasks the last phase of a finite count ends with SL_END_EXIT.
 * Inline: the replay engine asks for a phase at every burst end and wakeup. */
static inline int sl_task_phase(const struct sl_task_spec *t, size_t i, struct sl_phase *ph)
{
	if (t->nphases) {
		if (i >= t->nphases)
			return -1;
		*ph = t->phases[i];
		return 0;
	}
	if ((t->count && i >= t->count) || t->run_ns == 0)
		return -1; /* a task with no phases and no pattern has no work */
	/* every field set, no memset (gcc made memset and compound literals a
	 * slow rep stos); the assertion guards against a new field */
	_Static_assert(sizeof(struct sl_phase) == 64, "set every field of struct sl_phase here");
	ph->run_ns = t->run_ns;
	ph->sleep_ns = t->sleep_ns;
	if (t->run_ns == SL_INF)
		ph->end = SL_END_TRACE;
	else if (t->count && i + 1 == t->count)
		ph->end = SL_END_EXIT;
	else
		ph->end = SL_END_SLEEP_S;
	ph->waker_kind = SL_WAKER_IRQ; /* a timer ends a workload sleep */
	ph->pipe = 0;
	ph->lost = 0;
	ph->waker = -1;
	ph->waker_progress_ns = 0;
	ph->wake_cpu1 = 0;
	ph->sleep_cpu1 = 0;
	ph->irq_ns = 0;
	ph->tick_n = 0;
	ph->wake_ts = 0;
	return 0;
}

/* The recorded run's wall time and the work the kernel charged
 * (sched_stat_runtime) of one task on one CPU, over its slices with a known
 * charge (docs/model.md "Work and interference"). */
struct sl_work_row {
	int32_t task;
	int cpu;
	uint64_t wall_ns, work_ns;
};

/* A task group below the root (an autogroup or a cgroup of the cpu
 * controller): its weight on the machine, tg->shares. */
struct sl_task_group {
	char name[64];           /* "autogroup-N" or the cgroup's path */
	unsigned long shares;    /* 1024 = a nice-0 task's weight */
};

/* A CPU's root cfs_rq averages at the trace's start (ledger version 5). */
struct sl_cpu_pelt {
	int known;
	unsigned long load_avg, runnable_avg, util_avg, util_est;
};

/* Where a behaviour's groups come from. */
enum { SL_GROUPS_NONE = 0, SL_GROUPS_LEDGER = 1 };

/* A set of tasks to replay: the whole behaviour model of one trace or
 * workload. */
struct sl_behaviour {
	struct sl_task_spec *tasks;
	size_t ntasks;
	struct sl_task_group *groups; /* tasks[i].group1 - 1 indexes it */
	size_t ngroups;
	int groups_from;         /* SL_GROUPS_*: NONE = every task in the root group */
	size_t groups_assumed;   /* tasks not in the ledger whose group was
				  * inherited (parent, then thread group) */
	size_t ledger_tasks;     /* tasks the ledger holds (0: no ledger) */
	int cpus;                /* CPUs in the recording (1 for workloads) */
	uint64_t t0;             /* absolute ts of time 0 (trace first_ts) */
	uint64_t span_ns;        /* recorded span */
	/* per recorded CPU (cpus entries), when it came up: ns from time 0 to
	 * its first event in the recorded run when that is late (a CPU likely
	 * offline until then), UINT64_MAX for one with no event at all, 0 for
	 * the others; NULL: every CPU from time 0 (docs/replay.md "CPUs that
	 * were offline"). The replay keeps such a CPU offline until then. */
	uint64_t *cpu_up_ns;
	/* per recorded CPU (cpus entries), its load tracking at the start
	 * (table start_pelt); NULL where the trace's ledger had none */
	struct sl_cpu_pelt *cpu_pelt;
};

/* out's groups: a copy of in's (tasks' group1 keep indexing them), and
 * its CPUs' load tracking at the start. */
void sl_behaviour_copy_groups(struct sl_behaviour *out, const struct sl_behaviour *in);

/* Free every task's phases and the task array (b itself is not freed). */
void sl_behaviour_release(struct sl_behaviour *b);

/* Leave out of a replay every task whose comm matches one of the shell
 * patterns globs[0..n) (fnmatch): flagged SL_TASK_EXCLUDED, the wakeups
 * they made become unknown (timed) wakeups of their wakees, and the tasks
 * they forked appear at their recorded start on their own. Returns how
 * many tasks were left out. */
size_t sl_behaviour_exclude(struct sl_behaviour *b, const char *const *globs, size_t n);

#endif
