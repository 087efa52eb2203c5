/* replay/rsdl_priv.h - RSDL's state and its staircase runqueue
 * (rsdl_rq.c), shared with the engine adapter (rsdl.c); docs/rsdl.md.
 * The layout of every model: arithmetic and runqueue, then the adapter. */
#ifndef SL_RSDL_PRIV_H
#define SL_RSDL_PRIV_H

#include "engine.h"
#include "prio_array.h"
#include "rt.h"

#define NLEV 40

/* the parameters (rsdl_params in rsdl.c); the gap-fillers' numbers of
 * docs/rsdl.md are their aliases (a1..a8) */
enum {
	P_PICK_SETS_LEVEL,   /* a1 */
	P_SEARCH_FROM_LEVEL, /* a2 */
	P_IDLE_ROTATES,      /* a5 */
	P_SD_QUOTA,          /* a6 */
	P_ROTATE_AT_ZERO,    /* a7 */
	P_WAKE_PREEMPT,      /* a8 */
	P_ACCOUNTING,
	P_MINOR_NEW_QUOTA,   /* a4 */
};

struct rt {                      /* per task */
	struct sl_prio_link link; /* first: run-list links (prio_array.h) */
	struct sl_task *t;
	int level;               /* current level (may be stale after a minor rotation) */
	int array;               /* physical array index 0/1, -1 not queued */
	int charge_level;        /* level charged while it runs */
	int first_time_slice;
	struct sl_rt_se rt;      /* its RT class entity (rt.h); rt.policy 0: normal */
	int rot_cpu;             /* CPU of `rotation` */
	uint64_t rotation;       /* epoch it last got quota in */
	uint64_t bitmap;         /* levels it took quota from this epoch */
	int64_t quota;           /* ns per level */
	int64_t time_slice;      /* ns left at its level */
	uint64_t last_charge;    /* accounting=1: charged up to */
} __attribute__((aligned(128)));

#define ARR_RT 2                 /* rt->array value of a task on the RT queue */

struct rq {
	struct sl_prio_array rtq; /* SCHED_FIFO / SCHED_RR tasks, above every level:
				   * queue 99 - rt_priority (0..98) */
	struct sl_prio_array arrays[2]; /* levels 0..NLEV-1; a task's recorded
					 * level may be stale after a minor
					 * rotation (set again before it leaves) */
	int active;              /* physical index of the active array */
	int prio_level;
	uint64_t prio_rotation;
	int64_t prio_quota[NLEV];
};

struct rsdl {
	struct rq *rq;
	struct rt *rts;
	size_t nrts;
	int64_t rr, tick;
	/* the parameters' values (enum above) */
	int pick_sets_level, search_from_level, idle_rotates, sd_quota, rotate_at_zero, wake_preempt,
	    accounting, minor_new_quota;
};

#define R(e) ((struct rsdl *)(e)->pol)
#define RT(p) ((struct rt *)(p)->pol)

#define LINKS(r) SL_PRIO_LINKS((r)->rts)
#define IDX(ts) ((ts)->t->idx)

static inline int sl_rsdl_static_level(const struct sl_task *p)
{
	return p->nice + 20;
}

/* Charge ns of CPU to ts at its charge level. */
static inline void sl_rsdl_charge(struct rq *rq, struct rt *ts, int64_t ns)
{
	ts->time_slice -= ns;
	rq->prio_quota[ts->charge_level] -= ns;
}

/* rsdl_rq.c */
int64_t sl_rsdl_task_quota(const struct rsdl *r, int nice);
void sl_rsdl_set_prio(struct sl_engine *e, struct rt *ts, struct rq *rq);
void sl_rsdl_queue(struct sl_engine *e, struct rq *rq, struct rt *ts, int level, int array);
void sl_rsdl_unqueue(struct rsdl *r, struct rq *rq, struct rt *ts);
void sl_rsdl_new_epoch_quota(struct rq *rq, struct rt *ts, int cpu);
void sl_rsdl_queue_next_level(struct sl_engine *e, struct rq *rq, struct rt *ts, int64_t carry);
void sl_rsdl_enqueue_recalc(struct sl_engine *e, int cpu, struct rt *ts);
void sl_rsdl_major_rotation(struct sl_engine *e, int cpu, const char *kind);
void sl_rsdl_minor_rotation(struct sl_engine *e, int cpu, struct sl_task *curr);
struct rt *sl_rsdl_steal_from(struct sl_engine *e, const struct sl_prio_array *a,
			      struct sl_task *curr, int dst);

#endif
