/* replay/o1_rq.h - the per-CPU runqueues of Linux 2.6.20's O(1) scheduler
 * and its operations, in the exact order of kernel/sched.c of 2.6.20
 * (docs/o1.md, "Operations", whose §2.3-§2.9 numbers the comments use).
 *
 * This is the model itself, free of the replay engine: the engine adapter
 * (o1.c) translates the engine's calls into these kernel operations. Tasks
 * are numbered 0..n-1 (the engine's task indexes); -1 is the idle task.
 * Times are ns on the one replay clock (so the SMP timestamp rebasing of
 * the kernel is the identity); jiffies are derived from the clock.
 */
#ifndef SL_O1_RQ_H
#define SL_O1_RQ_H

#include <stddef.h>
#include <stdint.h>
#include "../common/behaviour.h"
#include "o1_prio.h"
#include "prio_array.h"

enum sl_o1_sleep_type {
	SL_O1_SLEEP_NORMAL = 0,
	SL_O1_SLEEP_NONINTERACTIVE = 1,
	SL_O1_SLEEP_INTERACTIVE = 2,
	SL_O1_SLEEP_INTERRUPTED = 3,
};

/* Scheduling policies (same numbers as common/behaviour.h). */
enum { SL_O1_NORMAL = 0, SL_O1_FIFO = 1, SL_O1_RR = 2, SL_O1_BATCH = 3 };

struct sl_o1_task {
	struct sl_prio_link link; /* first: run-list links (prio_array.h) */
	int8_t array;             /* -1 not queued, else index into rq->arrays */
	uint8_t sleep_type;       /* enum sl_o1_sleep_type */
	uint8_t first_time_slice;
	uint8_t kthread;          /* no mm: exempt from the sleep ceilings */
	uint8_t policy;
	uint8_t alive;            /* created and not yet exited */
	int16_t static_prio, prio, normal_prio;
	int16_t rt_prio;
	int32_t time_slice;       /* jiffies left */
	int32_t cpu;
	int32_t parent;           /* forking task, -1 none */
	unsigned load_weight;
	uint64_t sleep_avg;       /* ns, 0..NS_MAX_SLEEP_AVG */
	uint64_t timestamp;       /* ns: last wake-up / switch-in / switch-out */
	int16_t rec_level;        /* last staircase row written, -1 none */
	int8_t rec_array;
	uint8_t mig_expired;      /* stolen from an expired array */
};

struct sl_o1_rq {
	struct sl_prio_array arrays[2]; /* prio 0..139; bit 140 the delimiter */
	int active;               /* index of the active array; expired = !active */
	int nr_running;
	int32_t curr;             /* running task, -1 idle */
	uint64_t expired_timestamp; /* jiffies (never 0 when set), 0 = none */
	int best_expired_prio;
	unsigned long raw_weighted_load;
	int need_resched;
	int curr_charged;         /* curr's run time already debited (blocked) */
	uint64_t nr_switches;
};

/* Staircase callback: task's prio and array (0 active, 1 expired) from ts on. */
typedef void (*sl_o1_stair_fn)(void *ctx, int task, uint64_t ts, int prio, int array);

struct sl_o1 {
	struct sl_o1_const c;
	int ncpus;
	struct sl_o1_task *t;
	size_t nt;
	struct sl_o1_rq *rq;
	sl_o1_stair_fn stair;     /* optional */
	void *stair_ctx;
};

/* Set up o for ntasks tasks and ncpus CPUs at the given HZ. Returns 0 or -1
 * (bad hz/ncpus). Free with sl_o1_release (which accepts a zeroed o). */
int sl_o1_init(struct sl_o1 *o, size_t ntasks, int ncpus, int hz);
void sl_o1_release(struct sl_o1 *o);

/* jiffies at time now (never 0). */
uint64_t sl_o1_jiffies(const struct sl_o1 *o, uint64_t now);

/* A task that exists without a fork we can model (present at the start of a
 * trace, or a workload line): static prio from nice, given policy, a full
 * time slice, sleep_avg 0, timestamp now, not queued. */
void sl_o1_task_setup(struct sl_o1 *o, int p, int nice, int policy, int rt_prio,
		      int kthread, int cpu, uint64_t now);

/* The sleep_avg a task with static_prio (kthread: no mm) has after the n
 * phases ph (a trace task's recorded bursts and sleeps), starting from 0:
 * each burst debited as one stay on the CPU (schedule(): min(run,
 * NS_MAX_SLEEP_AVG) / CURRENT_BONUS), each sleep credited by
 * recalc_task_prio (a D or pipe sleep is NONINTERACTIVE; a user task's
 * sleep is capped at INTERACTIVE_SLEEP as there), without on-runqueue
 * credit. The o1 model's warm start (docs/o1.md): a task that was there
 * before the trace is taken to have lived as it did in the recording. */
uint64_t sl_o1_warm_sleep_avg(const struct sl_o1 *o, int static_prio, int kthread,
			      const struct sl_phase *ph, size_t n);

/* try_to_wake_up + activate_task (§2.3) of a sleeping task onto cpu.
 * uninterruptible: the sleep was D; noninteractive: TASK_NONINTERACTIVE
 * (pipe_wait); in_irq: the wake-up ran in interrupt context (or idle).
 * Returns 1 if p preempts the CPU's current task (need_resched is set). */
int sl_o1_wake(struct sl_o1 *o, int p, int cpu, uint64_t now, int uninterruptible,
	       int noninteractive, int in_irq);

/* The current task of cpu leaves the runqueue (§2.4 steps 1, 2, 8: its run
 * time is debited now, then it is deactivated); exiting: it is gone for good.
 * sl_o1_schedule() must follow at the same time. */
void sl_o1_block(struct sl_o1 *o, int cpu, uint64_t now, int exiting);

/* schedule() on cpu (§2.4). prev_leaves: 0 curr stays runnable (preempted
 * or yielded), 1 curr blocks, 2 curr exits (also removed from the rq).
 * Returns the next task (-1 idle); rq->curr is updated. */
int sl_o1_schedule(struct sl_o1 *o, int cpu, uint64_t now, int prev_leaves);

/* scheduler_tick (§2.5) on cpu at time now. Returns need_resched. */
int sl_o1_tick(struct sl_o1 *o, int cpu, uint64_t now);

/* sched_fork + wake_up_new_task (§2.7): child (already set up with
 * sl_o1_task_setup, which gives its nice and policy) of parent, placed on cpu.
 * clone_vm: a thread (no child-runs-first). In the kernel the parent is
 * always running; in a timed replay it may be runnable or asleep: the slice
 * is split all the same, the child goes before a queued parent, and a
 * parent that is not running gets no resched (the child is tested against
 * the CPU's current task instead). Returns 1 if cpu or the parent's CPU
 * need a resched (see rq->need_resched of both). */
int sl_o1_fork(struct sl_o1 *o, int parent, int child, int cpu, uint64_t now, int clone_vm);

/* sched_exit (§2.7) when child is reaped: slice back to its parent and the
 * EXIT_WEIGHT sleep_avg merge. The child must already be off the rq. */
void sl_o1_exit(struct sl_o1 *o, int child);

/* sys_sched_yield: the running task p moves to the expired array (RT: tail
 * of its list). The caller then runs sl_o1_schedule(cpu, now, 0). */
void sl_o1_yield(struct sl_o1 *o, int p, uint64_t now);

/* pull_task (§2.9): move a queued, not running task to dst_cpu, into the
 * same-named array. Returns 1 if it preempts dst's current task. */
int sl_o1_migrate(struct sl_o1 *o, int p, int dst_cpu, uint64_t now);

/* set_user_nice (§2.8). Returns 1 if p's CPU needs a resched. */
int sl_o1_set_nice(struct sl_o1 *o, int p, int nice, uint64_t now);

/* move_tasks' choice (§2.9): the first task of src in the order expired
 * array first, best prio first, each list from its tail, that is not
 * running and for which ok(ctx, task) holds (ok may be NULL). It is
 * deactivated (remembering its array) and returned; -1 none. */
int sl_o1_steal(struct sl_o1 *o, int src, int (*ok)(void *ctx, int task), void *ctx);
/* The second half of pull_task: enqueue a stolen task on dst in the
 * same-named array. Returns 1 if it beats dst's current task. */
int sl_o1_enqueue_migrated(struct sl_o1 *o, int p, int dst, uint64_t now);

/* Check the rq invariants (lists, bitmaps, counts) of cpu (-1: all CPUs).
 * Returns 0 or -1 with a message in msg. */
int sl_o1_check(const struct sl_o1 *o, int cpu, char *msg, size_t msglen);

#endif
