/* replay/eevdf_rq.c - the arithmetic of Linux's EEVDF fair class on one
 * runqueue (kernel/sched/fair.c, v6.6 and later): weights and vruntime, the
 * load-weighted average V relative to min_vruntime, eligibility, lag and
 * placement, virtual deadlines, the pick. The policy that runs it on the
 * engine's CPUs is replay/eevdf.c; the rules are in docs/eevdf.md.
 *
 * The queue is an array scanned in O(n) at each pick (n = its runnable
 * tasks) where the kernel keeps an augmented rbtree: the same choice, ties
 * broken by the order of insertion as the tree does. */
#include "eevdf.h"
#include "fair_weights.h"
#include "../common/util.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

/* ---- the arithmetic (kernel/sched/fair.c, v6.6) ---- */

uint64_t sl_eevdf_base_slice(int ncpus, uint64_t normalized_ns)
{
	return normalized_ns * (uint64_t)(1 + sl_ilog2(ncpus < 8 ? ncpus : 8));
}

uint64_t sl_eevdf_calc_delta_fair(uint64_t delta, const struct sl_eevdf_se *se)
{
	/* __calc_delta(delta, NICE_0_LOAD, &se->load): fact = 1024 * inv_weight,
	 * shifted down to 32 bits, then (delta * fact) >> shift in 128 bits */
	uint64_t fact;
	int shift = 32;
	if (se->weight == SL_NICE_0_LOAD)
		return delta;
	fact = (uint64_t)SL_NICE_0_LOAD * se->wmult;
	while (fact >> 32) {
		fact >>= 1;
		shift--;
	}
	return (uint64_t)(((u128)delta * fact) >> shift);
}

void sl_eevdf_se_set_nice(struct sl_eevdf_se *se, int nice)
{
	se->weight = sl_fair_weight(nice);
	se->wmult = sl_fair_wmult(nice);
}

void sl_eevdf_se_init(struct sl_eevdf_se *se, int idx, int nice)
{
	memset(se, 0, sizeof(*se));
	se->idx = idx;
	se->pos = -1;
	sl_eevdf_se_set_nice(se, nice);
}

void sl_eevdf_rq_init(struct sl_eevdf_rq *rq, uint64_t base_slice, uint64_t tick_ns)
{
	memset(rq, 0, sizeof(*rq));
	rq->base_slice = base_slice;
	rq->tick_ns = tick_ns;
	rq->place_lag = 1;
	rq->deadline_initial = 1;
	rq->run_to_parity = 1;
	rq->resched_lapsed = 1;
	rq->lag_max_slice = 1;
}

void sl_eevdf_rq_init_like(struct sl_eevdf_rq *rq, const struct sl_eevdf_rq *like)
{
	*rq = *like;
	memset(rq, 0, offsetof(struct sl_eevdf_rq, base_slice));
	rq->next = NULL;
}

void sl_eevdf_rq_release(struct sl_eevdf_rq *rq)
{
	free(rq->q);
	rq->q = NULL;
	rq->n = rq->cap = 0;
}

static const struct sl_eevdf_se *queued_curr(const struct sl_eevdf_rq *rq)
{
	return rq->curr && rq->curr->on_rq ? rq->curr : NULL;
}

/* __enqueue_entity / __dequeue_entity with avg_vruntime_add / _sub */
static void tree_add(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se)
{
	if (rq->n == rq->cap) {
		rq->cap = rq->cap ? 2 * rq->cap : 8;
		rq->q = xrealloc(rq->q, (size_t)rq->cap * sizeof(*rq->q));
	}
	/* the tree's smallest vruntime (the kernel's leftmost / min_vruntime
	 * augment): entities' vruntimes do not change while in the tree */
	if (!rq->n) {
		rq->tree_min = se->vruntime;
		rq->tree_min_ok = 1;
	} else if (rq->tree_min_ok && (int64_t)(se->vruntime - rq->tree_min) < 0) {
		rq->tree_min = se->vruntime;
	}
	se->pos = rq->n;
	se->seq = ++rq->seq;
	rq->q[rq->n++] = se;
	rq->avg_vruntime += sl_eevdf_key(rq, se) * (int64_t)se->weight;
	rq->avg_load += (long)se->weight;
}

static void tree_del(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se)
{
	int i = se->pos;
	if (se->vruntime == rq->tree_min)
		rq->tree_min_ok = 0;
	rq->avg_vruntime -= sl_eevdf_key(rq, se) * (int64_t)se->weight;
	rq->avg_load -= (long)se->weight;
	rq->q[i] = rq->q[--rq->n];
	rq->q[i]->pos = i;
	se->pos = -1;
}

/* The tree's sums with curr added when it is queued: Σ key * w and Σ w. */
static long full_sums(const struct sl_eevdf_rq *rq, int64_t *avg)
{
	const struct sl_eevdf_se *curr = queued_curr(rq);
	long load = rq->avg_load;
	*avg = rq->avg_vruntime;
	if (curr) {
		*avg += sl_eevdf_key(rq, curr) * (int64_t)curr->weight;
		load += (long)curr->weight;
	}
	return load;
}

uint64_t sl_eevdf_avg_vruntime(const struct sl_eevdf_rq *rq)
{
	int64_t avg;
	long load = full_sums(rq, &avg);
	if (load) {
		/* sign flips effective floor / ceil */
		if (avg < 0)
			avg -= load - 1;
		avg /= load;
	}
	return rq->min_vruntime + (uint64_t)avg;
}

int sl_eevdf_vruntime_eligible(const struct sl_eevdf_rq *rq, uint64_t vruntime)
{
	int64_t avg;
	long load = full_sums(rq, &avg);
	return avg >= (int64_t)(vruntime - rq->min_vruntime) * load;
}

static void update_min_vruntime(struct sl_eevdf_rq *rq)
{
	const struct sl_eevdf_se *curr = queued_curr(rq);
	uint64_t v = rq->min_vruntime;
	int64_t delta;
	int i;
	if (curr)
		v = curr->vruntime;
	if (rq->n && !rq->tree_min_ok) {
		rq->tree_min = rq->q[0]->vruntime;
		for (i = 1; i < rq->n; i++)
			if ((int64_t)(rq->q[i]->vruntime - rq->tree_min) < 0)
				rq->tree_min = rq->q[i]->vruntime;
		rq->tree_min_ok = 1;
	}
	if (rq->n && (!curr || (int64_t)(rq->tree_min - v) < 0))
		v = rq->tree_min;
	/* ensure we never gain time by being placed backwards
	 * (__update_min_vruntime: avg_vruntime follows the new origin) */
	delta = (int64_t)(v - rq->min_vruntime);
	if (delta > 0) {
		rq->avg_vruntime -= rq->avg_load * delta;
		rq->min_vruntime = v;
	}
}

/* update_deadline(): returns 1 when the slice is used up (resched) */
static int update_deadline(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se)
{
	if ((int64_t)(se->vruntime - se->deadline) < 0)
		return 0;
	se->slice = rq->base_slice;
	se->deadline = se->vruntime + sl_eevdf_calc_delta_fair(se->slice, se);
	return rq->nr_running > 1;
}

int sl_eevdf_update_curr(struct sl_eevdf_rq *rq, uint64_t delta_exec)
{
	struct sl_eevdf_se *curr = rq->curr;
	int resched;
	if (!curr || !delta_exec)
		return 0;
	curr->vruntime += sl_eevdf_calc_delta_fair(delta_exec, curr);
	resched = update_deadline(rq, curr);
	update_min_vruntime(rq);
	/* v6.18 update_curr: with others queued, a used-up slice, or a
	 * RUN_TO_PARITY protection that has lapsed (a task picked again
	 * after its deadline moved on keeps no protection: set_next_entity,
	 * which sets it, runs only when the entity changes), asks for a
	 * pick: `if (resched || !protect_slice(curr)) resched_curr_lazy(rq)`
	 * (kernel/sched/fair.c, v6.18; before: the slice alone, resched_lapsed=0) */
	return resched || (rq->resched_lapsed && rq->nr_running > 1 && !sl_eevdf_protected(rq, curr));
}

int sl_eevdf_protected(const struct sl_eevdf_rq *rq, const struct sl_eevdf_se *se)
{
	return rq->run_to_parity && se->parity && se->parity_deadline == se->deadline;
}

void sl_eevdf_place(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se, int initial)
{
	uint64_t vslice, vruntime = sl_eevdf_avg_vruntime(rq);
	int64_t lag = 0;

	se->slice = rq->base_slice;
	vslice = sl_eevdf_calc_delta_fair(se->slice, se);
	if (rq->place_lag && rq->nr_running) {
		/* keep the lag across the join: V moves by -w*vlag/(W+w) when se
		 * joins, so place it at vlag * (W + w) / W (place_entity) */
		const struct sl_eevdf_se *curr = queued_curr(rq);
		long load = rq->avg_load;
		if (curr)
			load += (long)curr->weight;
		lag = se->vlag * (load + (long)se->weight);
		if (!load)
			load = 1;
		lag /= load;
	}
	se->vruntime = vruntime - (uint64_t)lag;
	if (se->rel_deadline) {
		/* PLACE_REL_DEADLINE (v6.12): a moved task keeps what was left
		 * of its request */
		se->deadline += se->vruntime;
		se->rel_deadline = 0;
		return;
	}
	/* joining the competition: the others are on average halfway through
	 * their slice */
	if (rq->deadline_initial && initial)
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

void sl_eevdf_enqueue(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se, int initial)
{
	sl_eevdf_place(rq, se, initial);
	rq->nr_running++;
	if (se != rq->curr)
		tree_add(rq, se);
	se->on_rq = 1;
}

/* entity_lag(): the lag clamped to the EEVDF steady-state bound. v6.6:
 * calc_delta_fair(max(2 * slice, TICK_NSEC)); since "max_slice" tracks the
 * longest request queued (v7.0, and this machine's v6.18.44: bpftrace saw
 * |vlag| of nice-0 tasks up to exactly 1.4 + 4 = 5.4 ms at HZ 250):
 * calc_delta_fair(cfs_rq_max_slice + TICK_NSEC). Every request here is the
 * base slice, so the longest is se's own. */
static int64_t entity_lag(const struct sl_eevdf_rq *rq, uint64_t avruntime, const struct sl_eevdf_se *se)
{
	int64_t vlag = (int64_t)(avruntime - se->vruntime), limit;
	uint64_t span = rq->lag_max_slice ? se->slice + rq->tick_ns
			: 2 * se->slice > rq->tick_ns ? 2 * se->slice : rq->tick_ns;
	limit = (int64_t)sl_eevdf_calc_delta_fair(span, se);
	return vlag < -limit ? -limit : vlag > limit ? limit : vlag;
}

void sl_eevdf_dequeue(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se)
{
	if (rq->next == se) /* clear_buddies */
		rq->next = NULL;
	se->vlag = entity_lag(rq, sl_eevdf_avg_vruntime(rq), se);
	if (se != rq->curr)
		tree_del(rq, se);
	se->on_rq = 0;
	se->parity = 0;
	rq->nr_running--;
	update_min_vruntime(rq);
}

int sl_eevdf_dequeue_sleep(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se)
{
	if (rq->delay_dequeue && !sl_eevdf_vruntime_eligible(rq, se->vruntime)) {
		/* it keeps competing (and its negative lag decays) until it
		 * would be picked or it wakes (v6.12 dequeue_entity) */
		se->delayed = 1;
		se->parity = 0;
		if (rq->next == se) /* clear_buddies comes before the delay */
			rq->next = NULL;
		return 1;
	}
	sl_eevdf_dequeue(rq, se);
	return 0;
}

void sl_eevdf_finish_delayed(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se)
{
	sl_eevdf_dequeue(rq, se);
	se->delayed = 0;
	if (se->vlag > 0)
		se->vlag = 0;
}

void sl_eevdf_requeue_delayed(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se)
{
	se->vlag = entity_lag(rq, sl_eevdf_avg_vruntime(rq), se);
	if (se->vlag > 0) {
		/* DELAY_ZERO: placed again with no lag */
		int in_tree = se->pos >= 0;
		rq->nr_running--;
		if (in_tree)
			tree_del(rq, se);
		se->vlag = 0;
		sl_eevdf_place(rq, se, 0);
		if (in_tree)
			tree_add(rq, se);
		rq->nr_running++;
	}
	se->delayed = 0;
}

void sl_eevdf_dequeue_move(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se)
{
	sl_eevdf_dequeue(rq, se);
	if (rq->rel_deadline) {
		se->deadline -= se->vruntime;
		se->rel_deadline = 1;
	}
}

/* earlier deadline; ties: the earlier insertion (rbtree order) */
static int before(const struct sl_eevdf_se *a, const struct sl_eevdf_se *b)
{
	int64_t d = (int64_t)(a->deadline - b->deadline);
	return d < 0 || (d == 0 && a->seq < b->seq);
}

struct sl_eevdf_se *sl_eevdf_pick_protect(const struct sl_eevdf_rq *rq, int protect)
{
	struct sl_eevdf_se *curr = rq->curr && rq->curr->on_rq ? rq->curr : NULL;
	struct sl_eevdf_se *best = NULL, *left = NULL;
	int64_t avg;
	long load = full_sums(rq, &avg);
	int i;

	if (curr && avg < sl_eevdf_key(rq, curr) * load)
		curr = NULL; /* not eligible */
	/* once selected, run a task until it either becomes non-eligible or
	 * until it gets a new slice */
	if (protect && curr && sl_eevdf_protected(rq, curr))
		return curr;
	for (i = 0; i < rq->n; i++) {
		struct sl_eevdf_se *se = rq->q[i];
		if (!left || (int64_t)(se->vruntime - left->vruntime) < 0 ||
		    (se->vruntime == left->vruntime && se->seq < left->seq))
			left = se;
		if (avg >= sl_eevdf_key(rq, se) * load && (!best || before(se, best)))
			best = se;
	}
	if (!best || (curr && (int64_t)(curr->deadline - best->deadline) < 0))
		best = curr;
	if (!best) /* cannot happen: the smallest vruntime is always eligible */
		best = left ? left : rq->curr && rq->curr->on_rq ? rq->curr : NULL;
	return best;
}

/* floor(a / b) and ceil(a / b), b > 0 */
static int64_t div_floor(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static int64_t div_ceil(int64_t a, int64_t b)
{
	return -div_floor(-a, b);
}

uint64_t sl_eevdf_poll_horizon(const struct sl_eevdf_rq *rq)
{
	const struct sl_eevdf_se *c = rq->curr;
	int64_t dv, kc, S = rq->avg_vruntime, W = rq->avg_load, wc, i;
	if (!c || !c->on_rq || rq->nr_running < 2)
		return UINT64_MAX;
	kc = sl_eevdf_key(rq, c);
	wc = (int64_t)c->weight;
	/* its deadline: update_deadline, a new request and a pick */
	dv = (int64_t)(c->deadline - c->vruntime);
	if (dv < 0)
		dv = 0;
	if (rq->resched_lapsed && !sl_eevdf_protected(rq, c) && W > 0) {
		/* unprotected, every update_curr picks: it loses the CPU when
		 * it turns ineligible (v_c > V of the others, S / W) ... */
		int64_t d = div_floor(S, W) + 1 - kc;
		if (d < dv)
			dv = d;
		/* ... or when a task with an earlier deadline turns eligible:
		 * S + k_c * w_c >= k_j * (W + w_c) */
		for (i = 0; i < rq->n; i++) {
			const struct sl_eevdf_se *j = rq->q[i];
			if (!before(j, c))
				continue;
			d = div_ceil(sl_eevdf_key(rq, j) * (W + wc) - S, wc) - kc;
			if (d < dv)
				dv = d;
		}
	}
	if (dv <= 0)
		return 0;
	/* the CPU time in which v_c grows by dv: dv * w / NICE_0_LOAD, up */
	return ((uint64_t)dv * c->weight + SL_NICE_0_LOAD - 1) / SL_NICE_0_LOAD;
}

struct sl_eevdf_se *sl_eevdf_pick(const struct sl_eevdf_rq *rq)
{
	return sl_eevdf_pick_protect(rq, 1);
}

struct sl_eevdf_se *sl_eevdf_pick_next(const struct sl_eevdf_rq *rq)
{
	const struct sl_eevdf_se *b = rq->next;
	if (rq->pick_buddy && b && b->on_rq && !b->delayed && sl_eevdf_vruntime_eligible(rq, b->vruntime))
		return rq->next;
	return sl_eevdf_pick(rq);
}

void sl_eevdf_set_next(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se)
{
	if (se->on_rq && se->pos >= 0)
		tree_del(rq, se);
	if (rq->next == se) /* clear_buddies */
		rq->next = NULL;
	/* 6.6 stashes the deadline at pick in se->vlag (unused until dequeue) */
	se->parity = 1;
	se->parity_deadline = se->deadline;
	rq->curr = se;
}

void sl_eevdf_put_prev(struct sl_eevdf_rq *rq)
{
	struct sl_eevdf_se *prev = rq->curr;
	if (!prev)
		return;
	if (prev->on_rq)
		tree_add(rq, prev);
	rq->curr = NULL;
}

void sl_eevdf_yield(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se)
{
	/* kernel/sched/fair.c yield_task_fair, v6.18 ("sched/fair: Forfeit
	 * vruntime on yield"): only an eligible entity, which moves to its
	 * deadline; v6.6 to v6.17 pushed the deadline alone, so a yield loop
	 * ran its deadline away from its vruntime */
	if (!rq->yield_forfeit) {
		se->deadline += sl_eevdf_calc_delta_fair(se->slice, se);
		return;
	}
	if (!sl_eevdf_vruntime_eligible(rq, se->vruntime))
		return;
	se->vruntime = se->deadline;
	se->deadline += sl_eevdf_calc_delta_fair(se->slice, se);
	update_min_vruntime(rq);
}

void sl_eevdf_reweight_sleeping(struct sl_eevdf_se *se, int nice)
{
	unsigned long old = se->weight;
	sl_eevdf_se_set_nice(se, nice);
	se->vlag = se->vlag * (int64_t)old / (int64_t)se->weight;
}

void sl_eevdf_se_set_weight(struct sl_eevdf_se *se, unsigned long w)
{
	se->weight = w < 2 ? 2 : w;
	se->wmult = (uint32_t)(0xffffffffUL / se->weight);
}

void sl_eevdf_reweight_queued(struct sl_eevdf_rq *rq, struct sl_eevdf_se *se, unsigned long w)
{
	/* reweight_entity() leaves the entity's RUN_TO_PARITY protection
	 * (vprot, set only by set_next_entity) as it was: curr keeps what it
	 * had, and a lapsed one is not renewed. (A group's entity, whose vprot
	 * v6.17+ overwrites here, loses it in the caller: ev_reweight_gse.) */
	int running = rq->curr == se;
	int prot = running && se->parity && se->parity_deadline == se->deadline;
	struct sl_eevdf_se *next = rq->next; /* a reweight keeps the buddy */
	sl_eevdf_dequeue_move(rq, se);
	if (running)
		sl_eevdf_put_prev(rq);
	if (se->rel_deadline) /* the rest of the request, scaled like vlag */
		se->deadline = (uint64_t)((int64_t)se->deadline * (int64_t)se->weight / (int64_t)w);
	sl_eevdf_reweight_w(se, w);
	sl_eevdf_enqueue(rq, se, 0);
	if (running) {
		sl_eevdf_set_next(rq, se);
		se->parity = prot;
	}
	rq->next = next;
}

void sl_eevdf_reweight_w(struct sl_eevdf_se *se, unsigned long w)
{
	unsigned long old = se->weight;
	sl_eevdf_se_set_weight(se, w);
	se->vlag = se->vlag * (int64_t)old / (int64_t)se->weight;
}

