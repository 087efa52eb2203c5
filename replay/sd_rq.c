/* replay/sd_rq.c - the Staircase Deadline runqueue (sd_priv.h): the
 * lists, each task's slots and entitlement (first_prio_slot,
 * next_entitled_slot), the rotations, activation and charging, as in
 * 2.6.21-ck1's sched.c; docs/sd.md. */
#include "sd_priv.h"

#include <string.h>

/* ---- bit helpers ---- */

/* first zero bit at or after from in a 40-bit set; RANGE if none */
static int next_zero(uint64_t set, int from)
{
	uint64_t free = ~set & ((1ULL << RANGE) - 1);
	if (from >= RANGE)
		return RANGE;
	free &= ~((1ULL << from) - 1);
	return free ? __builtin_ctzll(free) : RANGE;
}

/* ---- lists (prio_array.h) ---- */

void sl_sd_list_add(struct sd_run *r, int pi, int head)
{
	struct sd_task *p = &r->t[pi];
	struct sl_prio_array *a = &r->rq[p->cpu].arrays[p->arr].pa;
	if (head)
		sl_prio_add_head(a, LINKS(r), pi, p->prio);
	else
		sl_prio_add_tail(a, LINKS(r), pi, p->prio);
	p->queued = 1;
}

void sl_sd_list_del(struct sd_run *r, int pi)
{
	struct sd_task *p = &r->t[pi];
	sl_prio_del(&r->rq[p->cpu].arrays[p->arr].pa, LINKS(r), pi, p->prio);
	p->queued = 0;
}

void sl_sd_stair(struct sd_run *r, int pi)
{
	struct sd_task *p = &r->t[pi];
	struct sl_task *et = &r->e->tasks[pi];
	et->prio = p->prio;
	if (p->queued && p->prio >= MAX_RT && p->prio < NPRIO)
		sl_engine_staircase(r->e, et, p->prio - MAX_RT,
				    p->arr == r->rq[p->cpu].active ? 0 : 1);
}

/* ---- core helpers (first_prio_slot, next_entitled_slot, ...) ---- */

static void task_new_array(struct sd_run *r, struct sd_task *p, struct sd_rq *rq, int arr)
{
	p->bitmap = 0;
	p->rotation = rq->prio_rotation;
	p->time_slice = p->quota;
	p->arr = (int8_t)arr;
	p->arr_cpu = p->cpu;
	p->first_time_slice = 0;
	(void)r;
}

static int first_prio_slot(struct sd_run *r, const struct sd_task *p)
{
	if (p->policy == SL_SCHED_BATCH)
		return p->static_prio;
	return MAX_RT + next_zero(r->matrix[sl_sd_uprio(p)], 0);
}

static int minprio(struct sd_run *r, struct sd_rq *rq, int up)
{
	return r->interactive ? MAX_RT : rq->prio_level[up];
}

static int next_entitled_slot(struct sd_run *r, struct sd_task *p, struct sd_rq *rq)
{
	struct sd_array *act = &rq->arrays[rq->active], *exp = &rq->arrays[!rq->active];
	int search = MAX_RT, up = sl_sd_uprio(p);
	if (p->static_prio > exp->best_static_prio)
		return NPRIO;
	if (!rq->prio_level[up])
		rq->prio_level[up] = MAX_RT;
	if (p->static_prio < act->best_static_prio) {
		if (p->policy != SL_SCHED_BATCH)
			act->best_static_prio = p->static_prio;
	} else if (p->static_prio == act->best_static_prio) {
		search = minprio(r, rq, up);
	} else {
		int i;
		search = minprio(r, rq, up);
		for (i = act->best_static_prio; i <= p->static_prio; i++) {
			if (!rq->prio_level[i - MAX_RT])
				rq->prio_level[i - MAX_RT] = MAX_RT;
			if (rq->prio_level[i - MAX_RT] > search)
				search = rq->prio_level[i - MAX_RT];
		}
	}
	if (p->policy == SL_SCHED_BATCH) {
		if (p->static_prio > search)
			search = p->static_prio;
		return MAX_RT + next_zero(p->bitmap, search - MAX_RT);
	}
	return MAX_RT + next_zero(p->bitmap | r->matrix[up], search - MAX_RT);
}

void sl_sd_queue_expired(struct sd_run *r, struct sd_task *p, struct sd_rq *rq)
{
	task_new_array(r, p, rq, !rq->active);
	p->prio = p->normal_prio = (int16_t)first_prio_slot(r, p);
	if (r->mark_first && p->prio >= MAX_RT && p->prio < NPRIO)
		p->bitmap |= 1ULL << (p->prio - MAX_RT);
	if (p->static_prio < rq->arrays[!rq->active].best_static_prio)
		rq->arrays[!rq->active].best_static_prio = p->static_prio;
	p->first_time_slice = 0;
}

/* update_if_moved: the task's array belongs to another rq */
static void update_if_moved(struct sd_run *r, struct sd_task *p, struct sd_rq *rq)
{
	struct sd_rq *src;
	if (p->arr_cpu == p->cpu || p->arr_cpu < 0)
		return;
	src = &r->rq[p->arr_cpu];
	if (p->rotation == src->prio_rotation) {
		p->rotation = rq->prio_rotation;
		p->arr = (int8_t)(p->arr == !src->active ? !rq->active : rq->active);
	} else {
		/* the kernel's p->array still points at the other rq's array,
		 * which is neither of this rq's: recalc starts a new array */
		p->rotation = 0;
		p->arr = -1;
	}
	p->arr_cpu = p->cpu;
}

static void recalc_task_prio(struct sd_run *r, struct sd_task *p, struct sd_rq *rq)
{
	int q;
	update_if_moved(r, p, rq);
	if (p->rotation == rq->prio_rotation) {
		if (p->arr == rq->active) {
			if (p->time_slice > 0)
				return;
			p->time_slice = p->quota;
		} else if (p->arr == !rq->active) {
			sl_sd_queue_expired(r, p, rq);
			return;
		} else {
			task_new_array(r, p, rq, rq->active);
		}
	} else {
		task_new_array(r, p, rq, rq->active);
	}
	q = next_entitled_slot(r, p, rq);
	if (q >= NPRIO) {
		sl_sd_queue_expired(r, p, rq);
		return;
	}
	p->prio = p->normal_prio = (int16_t)q;
	p->bitmap |= 1ULL << (q - MAX_RT);
}

void sl_sd_enqueue_task(struct sd_run *r, int pi, int head)
{
	struct sd_task *p = &r->t[pi];
	struct sd_rq *rq = &r->rq[p->cpu];
	if (sl_sd_is_rt(p)) {
		p->arr = (int8_t)rq->active;
		p->arr_cpu = p->cpu;
	} else {
		recalc_task_prio(r, p, rq);
	}
	sl_sd_list_add(r, pi, head);
	sl_sd_stair(r, pi);
}

void sl_sd_set_quota(struct sd_run *r, struct sd_task *p)
{
	int nice = p->static_prio - 120;
	p->quota = sl_sd_quota_us(nice, sl_sd_is_rt(p), r->rr_ms);
	p->load_weight = sl_sd_load_weight(nice, sl_sd_rt_policy(p), p->rt_prio, r->rr_ms);
}

int sl_sd_effective_prio(const struct sd_task *p)
{
	if (sl_sd_rt_policy(p))
		return sl_rt_prio(p->rt_prio);
	if (p->prio >= MAX_RT && p->prio < NPRIO)
		return p->prio;
	return p->static_prio;
}

/* activate_task: set_quota, effective_prio, enqueue (through recalc) */
void sl_sd_activate(struct sd_run *r, int pi, int cpu)
{
	struct sd_task *p = &r->t[pi];
	p->cpu = cpu;
	sl_sd_set_quota(r, p);
	p->prio = (int16_t)sl_sd_effective_prio(p);
	sl_sd_enqueue_task(r, pi, 0);
	r->rq[cpu].nr_running++;
}

void sl_sd_deactivate(struct sd_run *r, int pi)
{
	struct sd_task *p = &r->t[pi];
	r->rq[p->cpu].nr_running--;
	sl_sd_list_del(r, pi);
}

void sl_sd_task_expired_entitlement(struct sd_run *r, int pi)
{
	struct sd_task *p = &r->t[pi];
	int64_t overrun;
	p->first_time_slice = 0;
	if (sl_sd_is_rt(p)) {
		p->time_slice += p->quota;
		sl_sd_list_del(r, pi);
		sl_sd_list_add(r, pi, 0);
		return;
	}
	overrun = p->time_slice;
	sl_sd_list_del(r, pi);
	sl_sd_enqueue_task(r, pi, 0);
	p->time_slice += overrun;
}

int sl_sd_preempts(struct sd_run *r, const struct sd_task *p, const struct sd_rq *rq)
{
	if (rq->curr < 0)
		return 1;
	return p->arr == rq->active && p->prio < r->t[rq->curr].prio;
}

/* update_cpu_clock: charge p's time_slice (us) at a tick or a switch */
void sl_sd_charge(struct sd_run *r, struct sd_task *p, uint64_t now, int tick, uint64_t exec_start)
{
	int64_t jiffy = (int64_t)r->e->tick_ns, diff;
	if (r->exact) {
		/* exact: the CPU time since the later of last charge and switch-in */
		uint64_t from = p->last_ran > exec_start ? p->last_ran : exec_start;
		diff = now > from ? (int64_t)(now - from) : 0;
	} else {
		diff = (int64_t)(now - p->last_ran);
		if (tick) {
			if (diff > 2 * jiffy || diff < 0)
				diff = jiffy;
		} else if (diff > jiffy || diff < 1) {
			diff = 1000;
		}
	}
	if (p->policy != SL_SCHED_FIFO)
		p->time_slice -= diff / 1000;
	p->last_ran = now;
}

void sl_sd_reset_prio_levels(struct sd_rq *rq)
{
	rq->arrays[rq->active].best_static_prio = NPRIO - 1;
	rq->arrays[!rq->active].best_static_prio = NPRIO - 1;
	memset(rq->prio_level, 0, sizeof(rq->prio_level));
}

