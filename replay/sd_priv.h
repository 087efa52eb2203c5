/* replay/sd_priv.h - the Staircase Deadline model's state and its
 * runqueue (sd_rq.c), shared with the engine adapter (sd.c); its
 * arithmetic is sd_arith.c (sd.h). docs/sd.md. */
#ifndef SL_SD_PRIV_H
#define SL_SD_PRIV_H

#include "engine.h"
#include "sd.h"
#include "prio_array.h"
#include "rt.h"

#define RANGE 40
#define MAX_RT 100
#define ISO_PRIO 99
#define NPRIO SL_PRIO_MAX /* MAX_PRIO (140): also the "no slot" answer */

enum { P_INTERACTIVE, P_ACCOUNTING, P_SMP_SCALE, P_FIRST_SLOT_REUSE };

struct sd_task {
	struct sl_prio_link link; /* first: run-list links (prio_array.h) */
	uint8_t queued;
	int8_t arr;             /* array (0/1 of rq arr_cpu) it belongs to; kept when dequeued */
	uint8_t first_time_slice;
	uint8_t policy;
	int16_t static_prio, prio, normal_prio, rt_prio;
	int32_t cpu;            /* rq it is queued on / last ran on */
	int32_t arr_cpu;        /* the rq of its array (p->array->rq) */
	uint64_t bitmap;        /* slots (0..39) used this rotation */
	uint64_t rotation;
	int64_t time_slice;     /* us, may go negative */
	int64_t quota;          /* us */
	uint64_t last_ran;      /* ns */
	unsigned long load_weight;
};

struct sd_array {
	struct sl_prio_array pa; /* prio 0..139; bit 140 the delimiter */
	int best_static_prio;
};

struct sd_rq {
	struct sd_array arrays[2];
	int active;
	int prio_level[RANGE];
	uint64_t prio_rotation;
	int32_t curr;           /* -1 idle */
	int nr_running;
	int prev_charged;       /* curr already charged by dequeue */
	int sync_local;
	int in_transit;         /* tasks stolen from here, not yet enqueued */
};

struct sd_run {
	struct sl_engine *e;
	struct sd_task *t;
	struct sd_rq *rq;
	int rr_ms;              /* rr_interval after SMP scaling */
	int interactive, exact;
	int mark_first;         /* first_slot_reuse = 0: mark the first slot */
	uint64_t matrix[RANGE]; /* bit set = slot forbidden for that nice */
};

static inline struct sd_run *R(struct sl_engine *e)
{
	return e->pol;
}

#define LINKS(r) SL_PRIO_LINKS((r)->t)

static inline int sl_sd_is_rt(const struct sd_task *p)
{
	return p->prio < ISO_PRIO;
}

/* as in 2.6.20, RT tasks share the arrays (prio 0..99); the RT class's
 * policy and prio rules are rt.h's */
static inline int sl_sd_rt_policy(const struct sd_task *p)
{
	return sl_rt_policy(p->policy);
}

static inline int sl_sd_uprio(const struct sd_task *p)
{
	return p->static_prio - MAX_RT;
}

/* sd_arith.c: the priority matrix, m[nice + 20] (sl_sd_matrix_row) */
void sl_sd_build_matrix(uint64_t *m);

/* sd_rq.c */
void sl_sd_list_add(struct sd_run *r, int pi, int head);
void sl_sd_list_del(struct sd_run *r, int pi);
void sl_sd_stair(struct sd_run *r, int pi);
void sl_sd_queue_expired(struct sd_run *r, struct sd_task *p, struct sd_rq *rq);
void sl_sd_enqueue_task(struct sd_run *r, int pi, int head);
void sl_sd_set_quota(struct sd_run *r, struct sd_task *p);
int sl_sd_effective_prio(const struct sd_task *p);
void sl_sd_activate(struct sd_run *r, int pi, int cpu);
void sl_sd_deactivate(struct sd_run *r, int pi);
void sl_sd_task_expired_entitlement(struct sd_run *r, int pi);
int sl_sd_preempts(struct sd_run *r, const struct sd_task *p, const struct sd_rq *rq);
void sl_sd_charge(struct sd_run *r, struct sd_task *p, uint64_t now, int tick, uint64_t exec_start);
void sl_sd_reset_prio_levels(struct sd_rq *rq);

#endif
