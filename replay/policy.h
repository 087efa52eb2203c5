/* replay/policy.h - a scheduling policy as a const ops table (like the
 * kernel's sched_class). The engine (engine.h) owns time, tasks, CPUs, the
 * event queue and the shared SMP layer; a policy only keeps its own per-CPU
 * runqueues and decides: which task runs next, when the running task must
 * give up the CPU, and whether a woken task preempts.
 *
 * Calling conventions (every hook):
 * - `e` is the run's engine; e->now is the current time (ns since the
 *   behaviour's time 0); e->pol is the policy's run state (set by init).
 * - A task is "on the runqueue of cpu" from enqueue/fork until dequeue or
 *   steal; the running task (e->cpus[c].curr) STAYS on its runqueue while it
 *   runs (as in 2.6.20: it is only dequeued when it sleeps or exits). Whether
 *   the policy keeps curr in its lists is its own business.
 * - Hooks never fail: bad states are programming errors that the engine's
 *   invariant mode (SCHEDLAB_DEBUG=1, always on in tests) reports.
 * - The policy may call the engine services declared in engine.h:
 *   sl_engine_resched(), sl_engine_staircase(), sl_engine_rotation(),
 *   sl_engine_param(), sl_task_allowed(). It must not change engine fields.
 * - Hooks marked (optional) may be NULL.
 * - All times are uint64_t ns; `tick` is e->tick_ns (1e9 / hz).
 */
#ifndef SL_POLICY_H
#define SL_POLICY_H

#include <stddef.h>
#include <stdint.h>

struct sl_engine;
struct sl_task;

/* Why a task is being enqueued. */
enum sl_enq_kind {
	SL_ENQ_START = 1,   /* task appears (at trace start, workload start, or a
			     * fork whose parent is not in the behaviour) */
	SL_ENQ_WAKE = 2,    /* end of a sleep (try_to_wake_up) */
	SL_ENQ_MIGRATE = 3, /* pulled here by the SMP layer after steal() */
};

/* The facts of an enqueue. Fields not listed for a kind are 0 / -1. */
struct sl_enq_info {
	int kind;               /* enum sl_enq_kind */
	uint64_t now;           /* == e->now */
	/* SL_ENQ_WAKE: */
	uint64_t sleep_start_ns;/* when the task went to sleep (its switch-out) */
	uint64_t sleep_ns;      /* now - sleep_start_ns */
	char sleep_state;       /* 'S' interruptible, 'D' uninterruptible */
	int waker_kind;         /* enum sl_waker_kind (common/behaviour.h) */
	int waker;              /* waker task index, -1 none (irq/idle/unknown) */
	int waker_cpu;          /* CPU the waker runs on, -1 if not a task */
	int pipe;               /* 1: pipe wakeup (2.6.20 TASK_NONINTERACTIVE) */
	int sync;               /* 1: sync wakeup: the waker, running on
				 * waker_cpu, is about to leave it (2.6.20
				 * __wake_up_sync; inferred by the engine,
				 * docs/replay.md "Sync wakeups") */
	/* SL_ENQ_MIGRATE: */
	int src_cpu;            /* CPU the task was stolen from */
};

/* What the balance hook is asked (struct sl_policy_ops.balance). */
enum sl_balance_kind {
	SL_BAL_TICK = 1,
	SL_BAL_NEWIDLE = 2,
};

/* Why select_cpu is asked, as the kernel's wake_flags of select_task_rq
 * (kernel/sched/sched.h, v6.6): a wakeup (WF_TTWU, with WF_SYNC when the
 * waker is about to leave its CPU), a fork (WF_FORK: SD_BALANCE_FORK) or an
 * exec (WF_EXEC: SD_BALANCE_EXEC). */
enum sl_wake_flags {
	SL_WF_EXEC = 0x02,
	SL_WF_FORK = 0x04,
	SL_WF_TTWU = 0x08,
	SL_WF_SYNC = 0x10,
};

/* A tunable of a policy (a gap-filler choice, an accounting mode...).
 * The engine parses "name=value" options against this table, stores the
 * values (sl_engine_param(e, i) = value of params[i]) and writes them all
 * into the run's params JSON. Table ends with name == NULL. */
struct sl_policy_param {
	const char *name;
	long long def, min, max;
	const char *doc;        /* one line, for `replay -h` and docs */
};

/* A parameter that switches a feature or a quirk on (1) or off (0), as the
 * kernel's sched_feat bits: most of the models' parameters. A table row
 * `[P_X] = SL_PARAM_FLAG("x", 1, "..."),` keeps the row at its enum index. */
#define SL_PARAM_FLAG(name, def, doc) { (name), (def), 0, 1, (doc) }

struct sl_policy_ops {
	const char *name;       /* "rsdl", "o1", "sd": --sched NAME */
	const char *doc;        /* one line */
	const struct sl_policy_param *params; /* (optional) NULL or table */
	/* (optional) NULL, or another name of params[i] that --opt accepts
	 * (rsdl's gap-fillers a1..a8), NULL where there is none */
	const char *const *param_aliases;
	int group_sched;      /* 1: schedules task groups (e->groups, docs/groups.md) */

	/* Run state: allocate the policy's per-run data (per-CPU runqueues for
	 * e->ncpus CPUs), store it in e->pol. Called once before any other
	 * hook; e->ncpus, e->tick_ns, e->hz, e->rr_interval_ns and the params
	 * are already set. Returns 0, or -1 (bad parameters; message via
	 * sl_engine_fail()). */
	int (*init)(struct sl_engine *e);
	/* Free what the policy allocated beyond what it gave the engine with
	 * sl_engine_set_policy (e->pol and its per-task and per-CPU arrays:
	 * the engine frees those after this); task_exit() is not called for
	 * tasks alive at the end. Optional; called only when init set e->pol. */
	void (*release)(struct sl_engine *e);

	/* A task is created (before its first enqueue/fork): allocate p->pol,
	 * set p->load_weight and p->prio from p->nice/policy. */
	void (*task_init)(struct sl_engine *e, struct sl_task *p);

	/* Put p (not running, not queued) on cpu's runqueue. For SL_ENQ_WAKE
	 * `w` carries the sleep's facts (2.6.20 recalc_task_prio/activate_task
	 * needs sleep length, S/D, waker kind, pipe; kernel threads have
	 * SL_TASK_KTHREAD in p->flags). After enqueue the engine calls
	 * check_preempt() if cpu is busy, and reschedules cpu if it is idle. */
	void (*enqueue)(struct sl_engine *e, int cpu, struct sl_task *p,
			const struct sl_enq_info *w);

	/* p, the running task of cpu (p == e->cpus[cpu].curr), leaves the
	 * runqueue: state 'S' / 'D' (it sleeps), 'X' (it exits), 'E' (its
	 * recorded work is done: trace end). The engine then calls pick_next()
	 * and put_prev() for cpu. */
	void (*dequeue)(struct sl_engine *e, int cpu, struct sl_task *p, char state);

	/* Should p, just enqueued on busy cpu, preempt e->cpus[cpu].curr?
	 * Return 1 to set need_resched (the engine then reschedules cpu
	 * before the next event). Equal priority usually returns 0. */
	int (*check_preempt)(struct sl_engine *e, int cpu, struct sl_task *p);

	/* schedule(): choose the task that runs next on cpu, or NULL (idle).
	 * prev is the task that was running (NULL if cpu was idle); if it is
	 * still on the runqueue (preempted, yielded, slice expired) it may be
	 * chosen again; if it just blocked/exited, dequeue() came first.
	 * May do array switches, rotations, on-runqueue credit. The result
	 * must be on cpu's runqueue, allowed on cpu, and not running
	 * elsewhere (checked in invariant mode). */
	struct sl_task *(*pick_next)(struct sl_engine *e, int cpu, struct sl_task *prev);

	/* (optional) Called right after every pick_next(), with its result:
	 * the switch's accounting (2.6.20 schedule() steps 7-9: debit prev's
	 * run time from sleep_avg, timestamps = now; next->timestamp = now).
	 * prev and/or next may be NULL (idle); prev == next means no switch
	 * (except when prev blocked and was woken again within the same
	 * instant: then its slice ends and a new one starts).
	 * prev->exec_start_ns is when prev went on the CPU; e->now the switch. */
	void (*put_prev)(struct sl_engine *e, int cpu, struct sl_task *prev,
			 struct sl_task *next);

	/* Scheduler tick on cpu while curr runs (curr != NULL; idle CPUs get
	 * no policy tick). The engine has already added the CPU time since the
	 * last tick/switch to curr->sum_exec_ns. Charge the slice (tick-based
	 * `time_slice--` or ns), expire, requeue; call sl_engine_resched(e,
	 * cpu) to make cpu reschedule after this event. */
	void (*tick)(struct sl_engine *e, int cpu, struct sl_task *curr);

	/* (optional) The timer the policy armed on cpu (sl_engine_timer) is
	 * due while curr runs (curr != NULL); curr's CPU time is charged up
	 * to now as for tick. */
	void (*timer)(struct sl_engine *e, int cpu, struct sl_task *curr);

	/* Fork: child (task_init done, not queued) appears, forked by parent
	 * (parent may be running on some CPU, runnable, or - in timed replay,
	 * where the child appears at its recorded time - asleep). cpu is the
	 * CPU the SMP layer chose for the child (the parent's when allowed and
	 * not busier). Initialise child from parent (2.6.20: split the slice,
	 * child inherits prio) and enqueue the child on cpu. The policy decides
	 * preemption itself (2.6.20 child-runs-first: sl_engine_resched() on
	 * the parent's CPU); the engine does not call check_preempt() after
	 * fork, but does reschedule cpu if it is idle. */
	void (*fork)(struct sl_engine *e, struct sl_task *parent, struct sl_task *child,
		     int cpu);

	/* (optional) p has exited (after dequeue(..., 'X')); parent is its
	 * forking task if still alive in the run, else NULL. 2.6.20 sched_exit:
	 * give the unused first slice back to the parent. p->pol is freed by
	 * release(), not here (rows may still refer to p). */
	void (*task_exit)(struct sl_engine *e, struct sl_task *p, struct sl_task *parent);

	/* (optional) sched_yield by the running task p of cpu (it stays
	 * runnable). The engine reschedules cpu afterwards. NULL: no-op. */
	void (*yield)(struct sl_engine *e, int cpu, struct sl_task *p);

	/* (optional) p's nice changed: p->nice and p->static_prio already hold
	 * the new value; old_nice the previous one. p may be queued, running
	 * or asleep. Update p->load_weight; the engine updates the CPU's load
	 * sum from the new weight after the call. */
	void (*set_nice)(struct sl_engine *e, struct sl_task *p, int old_nice);

	/* SMP: take one task off src_cpu for dst_cpu, in the policy's preferred
	 * order (2.6.20 move_tasks: expired array first, best priority first,
	 * from the tail of each list). The task must not be running and must
	 * be allowed on dst_cpu (sl_task_allowed()). Dequeue it from src_cpu
	 * and return it (the engine then calls enqueue(dst_cpu, p, MIGRATE);
	 * the policy may keep what it needs for that, e.g. the source array,
	 * in p->pol). Returns NULL if no task qualifies. With 1 CPU this hook
	 * is never called. The engine calls it repeatedly until the imbalance
	 * is gone (each call moves one task). */
	struct sl_task *(*steal)(struct sl_engine *e, int src_cpu, int dst_cpu);

	/* (optional) Placement of a model whose kernel placed tasks its own
	 * way, as select_task_rq(p, prev_cpu, wake_flags) (eevdf:
	 * select_task_rq_fair): return the CPU p is to run on, allowed for p,
	 * or -1 to take the shared 2.6.20 rule for this call. wake_flags
	 * (enum sl_wake_flags) say why:
	 * - SL_WF_TTWU: p (asleep, not queued) wakes; prev_cpu is where it last
	 *   ran, waker_cpu the CPU of the waking task (-1: an interrupt or
	 *   timer: the wakeup runs on prev_cpu); SL_WF_SYNC too when the waker
	 *   is about to leave its CPU (sl_enq_info.sync: an exiting child
	 *   waking its parent, a pipe write that blocks). Shared rule:
	 *   try_to_wake_up's wake-affine.
	 * - SL_WF_FORK: p (not queued) is forked by the task running on
	 *   prev_cpu (= waker_cpu). Shared rule: sched_fork's, with sched_exec
	 *   for a new process whose exec the behaviour does not show.
	 * - SL_WF_EXEC: p, running on prev_cpu (= waker_cpu), execs
	 *   (sched_exec): prev_cpu, it stays; another, the engine moves it
	 *   through prev_cpu's migration thread. Shared rule: 2.6.20's
	 *   sched_balance_self(SD_BALANCE_EXEC). */
	int (*select_cpu)(struct sl_engine *e, struct sl_task *p, int prev_cpu, int waker_cpu,
			  int wake_flags);

	/* (optional) Load balancing of a model whose kernel balances its own
	 * way (eevdf: 6.x's PELT-based load_balance), in place of the shared
	 * 2.6.20 layer. kind SL_BAL_TICK: cpu's scheduler tick (busy or idle);
	 * SL_BAL_NEWIDLE: cpu is about to go idle (nothing on its runqueue).
	 * Moves go through sl_engine_pull(); returns the tasks pulled to cpu,
	 * or -1 to take the shared 2.6.20 layer for this call. */
	int (*balance)(struct sl_engine *e, int cpu, int kind);

	/* (optional, invariant mode) Walk the policy's structures for cpu and
	 * return how many distinct tasks it holds on that runqueue (including
	 * the running task), or -1 if its own structures are inconsistent
	 * (bitmap vs lists, counts). The engine compares it with its own
	 * count of tasks on cpu's runqueue. May be O(n). */
	long (*debug_count)(struct sl_engine *e, int cpu);
};

#endif
