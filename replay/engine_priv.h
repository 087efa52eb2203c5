/* replay/engine_priv.h - engine internals shared by engine.c, smp.c and
 * check.c. Not for policies. */
#ifndef SL_ENGINE_PRIV_H
#define SL_ENGINE_PRIV_H

#include "engine.h"
#include "evq.h"

/* Event kinds, in their order at equal times. */
enum {
	/* ticks are not queued: every CPU ticks at k * tick_ns, before any
	 * queued event of the same instant (the tick charges the tick that just
	 * elapsed) */
	EV_PROGRESS = 2, /* a running task reaches its burst end / a waiter's point */
	EV_WAKE = 3,     /* a timed sleep ends (or a causal fallback) */
	EV_START = 4,    /* a task appears */
};

struct sl_engine_priv {
	struct sl_evq q;
	const struct sl_run_sink *sink;
	struct sl_diag *d;
	int failed;
	int debug;
	int in_schedule;         /* schedule() is switching: curr may be blocked */
	uint64_t duration;
	struct sl_replay_stats st;
	size_t ndone;            /* tasks DONE */
	size_t ntimed;           /* pending WAKE/START events */
	size_t ncausal;          /* tasks waiting for a task's progress */
	size_t nrunnable;        /* tasks on any runqueue */
	uint64_t next_tick;      /* time of the next tick of every CPU */
	uint64_t busy_balance_ns;/* periodic balance interval of a busy CPU */
	uint64_t idle_balance_ns;/* ... of an idle CPU */
};

/* engine.c */
void sl_eng_enqueue(struct sl_engine *e, struct sl_task *p, int cpu,
		    const struct sl_enq_info *w);
void sl_eng_error(struct sl_engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* smp.c */
int sl_smp_wake_cpu(struct sl_engine *e, struct sl_task *p, int waker_cpu);
int sl_smp_fork_cpu(struct sl_engine *e, struct sl_task *p, int parent_cpu);
void sl_smp_balance(struct sl_engine *e, int cpu, int idle);
void sl_smp_tick(struct sl_engine *e, int cpu);

/* check.c: invariant checks (debug mode); where names the policy call. */
void sl_eng_check(struct sl_engine *e, const char *where);

#endif
