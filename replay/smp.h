/* replay/smp.h - the SMP layer of the engine (smp.c): 2.6.20's load
 * averages, scheduling domains, load balancing, wakeup and fork/exec
 * placement, for the models without balancing of their own. Engine
 * internals (engine_priv.h), not for policies. */
#ifndef SL_SMP_H
#define SL_SMP_H

#include "engine.h"

/* a scheduling domain (2.6.20 struct sched_domain), one per CPU */
enum {
	SL_SD_LOAD_BALANCE = 1,
	SL_SD_BALANCE_NEWIDLE = 2,
	SL_SD_BALANCE_EXEC = 4,
	SL_SD_BALANCE_FORK = 8,
	SL_SD_WAKE_AFFINE = 32,
	SL_SD_WAKE_BALANCE = 64,
};
struct sl_sched_domain {
	unsigned min_interval, max_interval; /* ms */
	unsigned busy_factor, imbalance_pct, cache_nice_tries;
	int busy_idx, idle_idx, newidle_idx, wake_idx, forkexec_idx;
	unsigned flags;
	uint64_t cache_hot_ns;       /* cache_hot_time */
	/* runtime */
	uint64_t last_balance;       /* jiffies */
	unsigned balance_interval;   /* ms */
	unsigned nr_balance_failed;
};
struct sl_smp_cpu {
	unsigned long cpu_load[3];   /* update_load averages */
	uint64_t next_balance;       /* jiffies */
	struct sl_sched_domain sd;
	int active_balance;          /* rq->active_balance: the migration thread
				      * is to push a task to push_cpu */
	int push_cpu;
	struct sl_task *exec_task;   /* sched_exec's request to the migration
				      * thread: move exec_task to exec_dest */
	int exec_dest;
};
/* the state of one move_tasks, read by sl_engine_may_migrate */
struct sl_smp_mig {
	int active, idle, pinned;
	long rem_load;
	int this_best_prio, best_prio, best_prio_seen;
	struct sl_sched_domain *sd;
	const struct sl_task *only;  /* a move of this task alone (sched_exec) */
};

/* smp.c's state, part of the engine's private state (e->priv->smp): set
 * up by sl_smp_init, freed by sl_smp_release; only smp.c reads it, except
 * the engine's check of kick_pending after the ticks of an instant. */
struct sl_smp {
	struct sl_smp_cpu *cpu;   /* per CPU: load averages, its domain */
	unsigned char *cand;      /* load_balance's candidate CPUs */
	uint64_t jiffy;           /* tick of the last update_load */
	unsigned long load_scale; /* SCHED_LOAD_SCALE: a nice-0 task's weight */
	struct sl_smp_mig mig;    /* move_tasks in progress */
	int kick_pending;         /* an active balance waits for its thread */
};

void sl_smp_init(struct sl_engine *e);    /* after task_init */
/* After the ticks of an instant: wake the migration threads that load_balance
 * asked for (active balancing). */
void sl_smp_kick(struct sl_engine *e);
/* cpu's migration thread runs: active_load_balance if it was asked for. */
void sl_smp_migration_run(struct sl_engine *e, int cpu);
void sl_smp_release(struct sl_engine *e);
/* try_to_wake_up's CPU for p woken by a task running on waker_cpu (-1: an
 * interrupt, timer or a waker that is not running); waker_home: for a task
 * waker that is not running, the CPU the 2.6.20 rule takes as this_cpu
 * (replay --wake-cpu waker), else -1; sync_waker: the waker of a sync
 * wakeup (it is about to sleep), else NULL */
int sl_smp_wake_cpu(struct sl_engine *e, struct sl_task *p, int waker_cpu, int waker_home,
		    const struct sl_task *sync_waker);
/* p, running on cpu, has reached an exec point: sched_exec() balances it
 * (the model's select_cpu with SL_WF_EXEC, else 2.6.20's sched_balance_self) and, for
 * another CPU, asks cpu's migration thread to move it. */
void sl_smp_exec(struct sl_engine *e, int cpu, struct sl_task *p);
/* sched_fork/sched_exec placement of p forked on parent_cpu (the model's
 * select_cpu with SL_WF_FORK, else the 2.6.20 rule; -1: a start without a
 * running parent: the least loaded allowed CPU) */
int sl_smp_fork_cpu(struct sl_engine *e, struct sl_task *p, int parent_cpu);
/* How long 2.6.20's rules may leave a CPU idle beside a task waiting
 * behind another CPU's running task: max_interval + (cache_nice_tries + 1)
 * attempts at min_interval refused for a cache-hot task + one tick. */
uint64_t sl_smp_idle_allowance_ns(const struct sl_engine *e);
/* schedule(): cpu is about to go idle */
void sl_smp_idle_balance(struct sl_engine *e, int cpu);
/* scheduler_tick's SMP part (every CPU, busy or idle) */
void sl_smp_tick(struct sl_engine *e, int cpu);

#endif
