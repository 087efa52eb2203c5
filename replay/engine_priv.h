/* replay/engine_priv.h - engine internals shared by engine.c, smp.c and
 * check.c. Not for policies. */
#ifndef SL_ENGINE_PRIV_H
#define SL_ENGINE_PRIV_H

#include "engine.h"
#include "evq.h"
#include "smp.h"
#include "sync.h"

/* Event kinds, in their order at equal times. */
enum {
	/* ticks are not queued: every CPU ticks at k * tick_ns, before any
	 * queued event of the same instant (the tick charges the tick that just
	 * elapsed) */
	EV_ONLINE = 1,   /* a CPU offline until now comes up (cpu_up_ns) */
	EV_PROGRESS = 2, /* a running task reaches its burst end / a waiter's point */
	EV_WAKE = 3,     /* a timed sleep ends (or a causal fallback) */
	EV_START = 4,    /* a task appears */
	EV_RESCHED = 5,  /* a delayed reschedule (kernel overheads) is due */
	EV_ENQUEUE = 6,  /* a woken task reaches its runqueue (kernel overheads) */
	EV_TIMER = 7,    /* a policy's timer on a CPU (sl_engine_timer) */
};

/* A wakeup on its way to its runqueue (EV_ENQUEUE). */
struct sl_waking {
	struct sl_enq_info w;
	int cpu;
	int busy; /* its CPU was busy at the wakeup: on its way with a switch latency */
};

/* A task waiting for another task's CPU time to reach point. */
struct sl_waiter {
	uint64_t point;
	uint64_t token;
	struct sl_task *t;
};

/* The engine's own part of a task (p->eng; policies see struct sl_task
 * only). The fields used on every switch and burst end come first. */
struct sl_task_eng {
	uint64_t run_left;           /* CPU time left in the current burst */
	uint64_t token;              /* validity token of its pending WAKE/START */
	int slice_prio;              /* prio at switch-in (slice row) */
	int rec_level, rec_array;    /* last staircase row (dedup) */
	int wake_pending;            /* a wakeup row waits for its ts_run */
	int start_unrun;             /* started (no wakeup row), not yet run: wake_ts */
	int wake_waker;              /* pending wakeup row: waker (-1) */
	int blocked;                 /* left its runqueue while still curr */
	char end_state;              /* why it left: 'S','D','X','E' */
	char yielded;                /* sched_yield: its switch-out ends 'Y' */
	uint64_t wake_ts;            /* pending wakeup row: became runnable */
	size_t phase;                /* index of the current phase */
	struct sl_phase ph;          /* current phase */
	/* less often used */
	uint64_t total_work;         /* Σ run_ns of all phases (SL_INF: endless) */
	struct sl_task *wait_on;     /* causal: task whose progress we wait for */
	uint64_t wait_timed_end;     /* causal: timed fallback time */
	int wait_is_start;           /* causal: 1 = waiting to appear (fork) */
	struct sl_waiter *waiters;   /* tasks waiting for our progress: min-heap */
	size_t waiters_n, waiters_cap;
	/* handback.c: hand-back holds on our progress (min-heap; t: the task
	 * we would wake there, token: its token when the hold was set) */
	struct sl_waiter *holds;
	size_t holds_n, holds_cap;
	struct sl_task *parked_on;   /* parked at a hold until that task sleeps */
	struct sl_task *parked_by;   /* the task parked until we sleep */
	/* wall.c: a wall-clock task's CPU time of its wall phases: recorded
	 * in all, used in those before the current one; the current phase's
	 * first run (SL_INF: not yet) and the task's CPU time at its start */
	uint64_t wall_total, wall_done, wall_start, wall_exec0;
	int wall_ph;
	/* hrtimer.c: the sleep's high-resolution timer, armed on hrt_cpu (-1
	 * none) with its soft and hard expiry, for the sleep of token hrt_token */
	int hrt_cpu;
	uint64_t hrt_soft, hrt_hard, hrt_token;
	/* an absolute timer's last sleep: its recorded wakeup, and its end in
	 * the replay (0: none, or another kind of sleep since) */
	uint64_t abs_wake_ts, abs_target;
} __attribute__((aligned(64)));

/* hrtimer.c: the timers armed on a CPU (task indices, stale ones dropped
 * when next looked at) */
struct sl_hrt_list {
	uint32_t *idx;
	size_t n, cap;
};

struct sl_engine_priv {
	struct sl_evq q;
	struct sl_hrt_list *hrt;  /* per CPU, NULL: timers expire alone (hrtimer.c) */
	struct sl_task **hrt_due; /* hrtimer.c's scratch: the timers due */
	size_t hrt_due_cap;
	void *pol_tasks, *pol_cpus; /* the policy's arrays (sl_engine_set_policy) */
	struct sl_task_eng *tx;  /* the tasks' private parts (p->eng) */
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
	const struct sl_replay_opts *o; /* kernel overheads: o->nq, o->*_lat_ns */
	int irq_mode;            /* --irq-cpu in effect (sl_irq_cpu_mode_of) */
	int handback;            /* hand-back holds (handback.c) in causal mode */
	int wall;                /* wall-clock bursts (wall.c) */
	int *hb_pair;            /* handback.c: a task's exclusive waker, -1 */
	struct sl_reap *reap;    /* reap.c: per task, NULL: every wait names its waker */
	uint64_t lat_state;      /* their draws: splitmix64 state (from the seed) */
	struct sl_waking *waking;/* per task, while SL_TS_WAKING (NULL without overheads) */
	struct sl_sync_map sync; /* which wakeups are sync (replay --sync) */
	size_t nreal;            /* the behaviour's tasks: e->tasks[0..nreal); after
				  * them the engine's own migration threads */
	int nmig;                /* migration threads: CPUs 0..nmig-1 have one */
	struct sl_task_spec *mig_spec; /* their specs */
	struct sl_smp smp;       /* smp.c's state (smp.h) */
	uint64_t allmask;        /* every CPU of the replay (CPUs 0..63) */
	uint64_t onlinemask;     /* those up now (a late CPU is offline until its
				  * cpu_up_ns: docs/replay.md); CPUs 64 and up
				  * are always up */
	unsigned *nr_free;       /* per CPU: queued tasks allowed everywhere */
	int iw_on;               /* idle CPU beside a waiting task, since iw_since */
	uint64_t iw_since;
};

#define CHECK_AFTER(e, where)                     \
	do {                                      \
		if ((e)->priv->debug)             \
			sl_eng_check((e), (where)); \
	} while (0)

/* engine.c */
/* Run the replay set up by sl_replay_run (engine_run.c) to its end. */
void sl_eng_loop(struct sl_engine *e);
void sl_eng_enqueue(struct sl_engine *e, struct sl_task *p, int cpu,
		    const struct sl_enq_info *w);
void sl_eng_error(struct sl_engine *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void sl_eng_count_free(struct sl_engine *e, const struct sl_task *p, int cpu, int delta);

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
/* a min-heap of waiters by point (ties: task index): the causal waits on
 * a task's progress and its hand-back holds (handback.c) */
void sl_waiter_heap_push(struct sl_waiter **heap, size_t *n, size_t *cap, struct sl_waiter x);
void sl_waiter_heap_pop(struct sl_waiter *heap, size_t *n);
/* t waits until w's CPU time reaches point (timed_end: the timed fallback;
 * is_start: t is waiting to appear). Wakes at once if w is past it. */
void sl_eng_wait_for(struct sl_engine *e, struct sl_task *t, struct sl_task *w, uint64_t point,
		     uint64_t timed_end, int is_start);
/* t waits (from now, with its token) until w's CPU time reaches point. */
void sl_eng_waiter_push(struct sl_task *w, struct sl_task *t, uint64_t point);
/* Drop stale entries from the top of w's waiters. */
void sl_eng_waiters_clean(struct sl_task *w);
/* w made progress: wake the waiters whose point has come. */
void sl_eng_release_reached(struct sl_engine *e, struct sl_task *w);
/* w will make no more progress: its waiters fall back to timed; frees them. */
void sl_eng_release_all(struct sl_engine *e, struct sl_task *w);
/* Nothing can progress: release the causal wait whose timed end is first. */
void sl_eng_break_deadlock(struct sl_engine *e);

/* reap.c: a parent's wait for whichever child exits first */
void sl_eng_reap_init(struct sl_engine *e);
void sl_eng_reap_release(struct sl_engine *e);
/* p begins the sleep of its current phase: 1 if it is a wait for any of its
 * children, then set up (a causal wait on them, or its wakeup queued) */
int sl_eng_reap_wait(struct sl_engine *e, struct sl_task *p, uint64_t timed_end);
/* a task's start is set (its fork has come) / it is done: its parent's
 * live children */
void sl_eng_reap_start(struct sl_engine *e, struct sl_task *p);
void sl_eng_reap_finish(struct sl_engine *e, struct sl_task *p);
/* child reached its exit point while its parent waited for it */
void sl_eng_reap_reached(struct sl_engine *e, struct sl_task *child);
/* 1 if no child of parent can end its wait any more */
int sl_eng_reap_lost(struct sl_engine *e, struct sl_task *parent);

/* handback.c: the order of a recorded hand-off (docs/replay.md
 * "Hand-backs"): a task that wakes another at a recorded point does not
 * pass that point before the other has gone to sleep. */
/* find the exclusive waker/wakee pairs of the behaviour (at start) */
void sl_eng_handback_init(struct sl_engine *e);
/* overhead.c: the next draw of an overhead distribution q (0 without
 * overheads); the time a wakeup of p onto a busy CPU takes to switch,
 * under the preemption model */
uint64_t sl_eng_draw_lat(struct sl_engine *e, const uint64_t *q);
uint64_t sl_eng_switch_lat(struct sl_engine *e, const struct sl_task *p, int own);
/* overhead.c: cpu is about to pick after its running task blocked or
 * yielded, while tasks woken onto it when it was busy are on their way
 * with a switch latency: those not woken by that task in this very instant
 * are on its runqueue now (docs/replay.md "Kernel overheads") */
void sl_eng_take_inflight(struct sl_engine *e, int cpu);
/* overhead.c: p, on its way (SL_TS_WAKING), reaches its CPU's runqueue now */
void sl_eng_arrive(struct sl_engine *e, struct sl_task *p);
/* wall.c (docs/model.md "Wall-clock bursts"): a task's wall budget at the
 * start; set run_left for p's phase just entered (its recorded run, or for
 * the last phase of a wall-clock task that plus what its wall phases left
 * of their recorded time); and at each switch-in of a wall phase, what is
 * left to its deadline plus its tail, within their recorded time. */
void sl_eng_wall_init(struct sl_task *p);
void sl_eng_phase_run(struct sl_engine *e, struct sl_task *p);
void sl_eng_wall_resume(struct sl_engine *e, struct sl_task *p);
/* p begins a phase: hold its waker at the point that ends it. */
void sl_eng_hold_phase(struct sl_engine *e, struct sl_task *p);
/* the first point p may not pass (UINT64_MAX: none) */
uint64_t sl_eng_hold_point(struct sl_task *p);
/* p has reached a hold point: the task to wait for, or NULL */
struct sl_task *sl_eng_hold_reached(struct sl_task *p);
/* b sleeps or is done: the task parked on it (or NULL), unparked */
struct sl_task *sl_eng_unpark_by(struct sl_engine *e, struct sl_task *b);
/* frees p's holds */
void sl_eng_holds_release(struct sl_task *p);
/* engine.c: a's park ends: b woke it (b sleeps or is done) */
void sl_eng_resume_parked(struct sl_engine *e, struct sl_task *a, struct sl_task *b);

/* engine.c: the migration thread of cpu (2.6.20 migration_thread, one per
 * CPU, SCHED_FIFO 99, pinned; an engine task after the behaviour's, with no
 * rows) is woken: it preempts cpu's task, runs sl_smp_migration_run() and
 * sleeps again, in the same instant. Returns 0, or -1 if cpu has none. */
int sl_eng_wake_migration(struct sl_engine *e, int cpu);
/* 1 if cpu is up (not a late CPU before its time) */
static inline int sl_eng_cpu_up(const struct sl_engine *e, int cpu)
{
	return cpu >= 64 || ((e->priv->onlinemask >> cpu) & 1);
}
/* engine_run.c: a task's cpumask from its spec and the CPUs up now (the
 * CPUs up it may use; if none, every CPU up: the kernel's
 * select_fallback_rq) */
uint64_t sl_eng_task_mask(const struct sl_engine *e, const struct sl_task_spec *s);
/* engine_run.c: CPU cpu comes up (EV_ONLINE): every task allowed there may
 * use it from now on */
void sl_eng_cpu_online(struct sl_engine *e, int cpu);
/* 1 if p is one of the engine's own tasks (no rows) */
static inline int sl_eng_hidden(const struct sl_engine *e, const struct sl_task *p)
{
	return (size_t)p->idx >= e->priv->nreal;
}

/* engine_run.c: the CPU standing in for a waker not running (--wake-cpu
 * waker; -1 none), and try_to_wake_up's this_cpu for an interrupt or idle
 * wakeup ph of p (--irq-cpu; -1: the sleeper's CPU) */
int sl_eng_waker_home(const struct sl_engine *e, int waker);
int sl_eng_irq_cpu(const struct sl_engine *e, const struct sl_task *p, const struct sl_phase *ph);

/* hrtimer.c: a sleep's timer and its slack (the file's comment). init: the
 * per-CPU lists (none with the slack off); arm: p's sleep ph, now
 * beginning, ends at hard: by its own timer when an interrupt on the CPU
 * it slept on ended it in the recording; fired: p's timer fires now (its own
 * sleep's timed end): the CPU it was armed on, or -1 (none, or no longer
 * armed); due: the timers of cpu whose soft expiry has come, by hard
 * expiry, taken off (*due: the engine's scratch, valid until the next call). */
void sl_hrt_init(struct sl_engine *e);
void sl_hrt_release(struct sl_engine *e);
void sl_hrt_arm(struct sl_engine *e, struct sl_task *p, const struct sl_phase *ph, uint64_t hard);
int sl_hrt_fired(struct sl_engine *e, struct sl_task *p);
size_t sl_hrt_due(struct sl_engine *e, int cpu, struct sl_task ***due);
/* hrtimer.c: the end of p's sleep ph, now beginning, whose recorded length
 * ends it at end: an absolute timer's deadline for a task on one
 * (SL_TASK_ABS_TIMER, --abs-timers on), else end */
uint64_t sl_abs_timer_end(struct sl_engine *e, struct sl_task *p, const struct sl_phase *ph,
			  uint64_t end);

/* check.c: invariant checks (debug mode); where names the policy call. */
void sl_eng_check(struct sl_engine *e, const char *where);

#endif
