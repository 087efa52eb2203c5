/* replay/cfs_priv.h - the cfs model's state and its queues (cfs_rq.c),
 * shared with the engine adapter (cfs.c); its arithmetic is cfs_arith.c
 * (cfs.h). docs/cfs.md. */
#ifndef SL_CFS_PRIV_H
#define SL_CFS_PRIV_H

#include "engine.h"
#include "cfs.h"
#include "fair_weights.h"
#include "prio_array.h"
#include "rt.h"

#define NICE_0_LOAD SL_NICE_0_LOAD

enum { P_START_DEBIT, P_NEW_FAIR_SLEEPERS, P_WAKEUP_PREEMPT, P_CHILD_RUNS_FIRST, P_COMPAT_YIELD,
       P_SMP_SCALE };

struct cfs_task {
	struct sl_prio_link link; /* first: RT run-list links (prio_array.h) */
	uint64_t vruntime;
	uint64_t exec_start;     /* se.exec_start: last update_curr */
	uint64_t sum_exec, prev_sum_exec;
	uint64_t seq;            /* insertion number: equal keys go right */
	unsigned long weight;
	uint32_t inv_weight;
	int32_t pos;             /* index in its CPU's heap, -1 not in it */
	int32_t cpu;             /* runqueue it is on / last ran on */
	struct sl_rt_se rt;      /* the RT class (rt.h): rt.policy 0 fair; SCHED_RR
				  * time_slice in ticks */
	int16_t prio;            /* kernel prio: RT 99 - rt_prio, else static_prio */
	int8_t on_rq;
	uint8_t policy;
	int8_t nice;
};

struct cfs_rq {
	uint64_t min_vruntime;
	uint64_t seq;
	unsigned long load;      /* Σ weight of the queued fair tasks (incl. curr) */
	unsigned long nr;        /* queued fair tasks (incl. curr) */
	int32_t *heap;
	size_t n, cap;
	int32_t curr;            /* the running task (either class), -1 idle */
	int32_t fair_curr;       /* cfs_rq->curr, -1 none */
	struct sl_prio_array rt; /* the RT class: prio 0..98 */
	int in_transit;          /* tasks stolen from here, not yet enqueued */
};

struct cfs_run {
	struct sl_engine *e;
	struct cfs_task *t;
	struct cfs_rq *rq;
	struct sl_cfs_tun tun;
	int start_debit, new_fair_sleepers, wakeup_preempt, child_runs_first, compat_yield;
	int64_t rr_ticks;        /* DEF_TIMESLICE: 100 ms in ticks (sl_rt_rr_ticks) */
};

static inline struct cfs_run *R(struct sl_engine *e)
{
	return e->pol;
}

/* the RT class (kernel/sched_rt.c v2.6.24) is rt.h's, on q->rt */
#define LINKS(r) SL_PRIO_LINKS((r)->t)

/* cfs_rq.c */
int sl_cfs_before(const struct cfs_task *a, const struct cfs_task *b);
void sl_cfs_tree_insert(struct cfs_run *r, struct cfs_rq *q, int32_t pi);
void sl_cfs_tree_remove(struct cfs_run *r, struct cfs_rq *q, int32_t pi);
int32_t sl_cfs_leftmost(const struct cfs_rq *q);
void sl_cfs_update_curr(struct cfs_run *r, struct cfs_rq *q);
void sl_cfs_move_vruntime(struct cfs_run *r, struct cfs_task *p, int cpu);
uint64_t sl_cfs_sleeper_credit(const struct cfs_run *r);
uint64_t sl_cfs_start_debit(const struct cfs_run *r, const struct cfs_rq *q,
			    const struct cfs_task *p);
void sl_cfs_rec_lag(struct cfs_run *r, const struct cfs_rq *q, int32_t pi);
void sl_cfs_fair_account_enqueue(struct cfs_run *r, struct cfs_rq *q, int32_t pi);
void sl_cfs_set_weight(struct cfs_run *r, struct cfs_task *p, struct sl_task *et);
int32_t sl_cfs_copy_pop(const struct cfs_run *r, int32_t *h, size_t *n);

#endif
