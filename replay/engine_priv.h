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
	EV_RESCHED = 5,  /* a delayed reschedule (kernel overheads) is due */
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
	const struct sl_replay_opts *o; /* kernel overheads: o->nq, o->*_lat_ns */
	uint64_t lat_state;      /* their draws: splitmix64 state (from the seed) */
};

/* engine.c */
void sl_eng_enqueue(struct sl_engine *e, struct sl_task *p, int cpu,
		    const struct sl_enq_info *w);
void sl_eng_error(struct sl_engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* engine.c: progress of running tasks and queued wakeups */
/* Charge the CPU time since the last charge to cpu c's running task. */
void sl_eng_account(struct sl_engine *e, int c);
/* p's CPU time up to now (including a slice in progress). */
uint64_t sl_eng_cur_exec(const struct sl_engine *e, const struct sl_task *p);
/* Plan cpu c's next progress event (burst end or a waiter's point). */
void sl_eng_arm(struct sl_engine *e, int c);
/* Queue p's wakeup / appearance at t (not before now). */
void sl_eng_push_wake(struct sl_engine *e, struct sl_task *p, uint64_t t);
void sl_eng_push_start(struct sl_engine *e, struct sl_task *p, uint64_t t);

/* causal.c */
/* t waits until w's CPU time reaches point (timed_end: the timed fallback;
 * is_start: t is waiting to appear). Wakes at once if w is past it. */
void sl_eng_wait_for(struct sl_engine *e, struct sl_task *t, struct sl_task *w, uint64_t point,
		     uint64_t timed_end, int is_start);
/* Drop stale entries from the top of w's waiters. */
void sl_eng_waiters_clean(struct sl_task *w);
/* w made progress: wake the waiters whose point has come. */
void sl_eng_release_reached(struct sl_engine *e, struct sl_task *w);
/* w will make no more progress: its waiters fall back to timed; frees them. */
void sl_eng_release_all(struct sl_engine *e, struct sl_task *w);
/* Nothing can progress: release the causal wait whose timed end is first. */
void sl_eng_break_deadlock(struct sl_engine *e);

/* smp.c */
int sl_smp_wake_cpu(struct sl_engine *e, struct sl_task *p, int waker_cpu);
int sl_smp_fork_cpu(struct sl_engine *e, struct sl_task *p, int parent_cpu);
void sl_smp_balance(struct sl_engine *e, int cpu, int idle);
void sl_smp_tick(struct sl_engine *e, int cpu);

/* check.c: invariant checks (debug mode); where names the policy call. */
void sl_eng_check(struct sl_engine *e, const char *where);

#endif
