/* replay/sd.c - Con Kolivas' Staircase Deadline scheduler as shipped in
 * 2.6.21-ck1 (kernel/sched.c of Con Kolivas' patch-2.6.21-ck1; docs/sd.md)
 * as a replay policy (`--sched sd`): the
 * priority matrix, per-task slot bitmaps and rotations, per-nice prio_level,
 * quotas in microseconds with the kernel's update_cpu_clock() accounting,
 * expiry to the expired array, major rotations (also after every idle
 * period). SCHED_ISO and SCHED_IDLEPRIO do not exist in the behaviour model
 * and are not modelled. See docs/sd.md. */
#include "engine.h"
#include "sd.h"
#include "prio_array.h"
#include "rt.h"

#include <stdlib.h>
#include <string.h>

#define RANGE 40
#define MAX_RT 100
#define ISO_PRIO 99
#define NPRIO SL_PRIO_MAX /* MAX_PRIO (140): also the "no slot" answer */

enum { P_INTERACTIVE, P_ACCOUNTING, P_SMP_SCALE, P_FIRST_SLOT_REUSE };

static const struct sl_policy_param sd_params[] = {
	{ "interactive", 1, 0, 1,
	  "sched_interactive: a waking task may search its unused slots from the top (1, the default) "
	  "or only from its nice level's current prio_level (0)" },
	{ "accounting", 0, 0, 1,
	  "0: the kernel's update_cpu_clock (last_ran not refreshed at switch-in; tick charges over 2 "
	  "jiffies and switch charges over 1 jiffy become 1 jiffy / 1 us); 1: exact run time" },
	{ "smp_scale", 1, 0, 1,
	  "1: rr_interval *= 1 + ilog2(cpus) as at SMP boot; 0: use --rr-interval as given" },
	{ "first_slot_reuse", 1, 0, 1,
	  "1: the kernel's quirk: a task queued on the expired array does not mark its first slot, "
	  "so it gets that slot's quota twice per rotation (nice 0: 21 quotas); 0: the slot is "
	  "marked (20 quotas, as the design says)" },
	{ NULL, 0, 0, 0, NULL },
};

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

static struct sd_run *R(struct sl_engine *e)
{
	return e->pol;
}

/* ---- the priority matrix (the generator of prio_matrix, 2.6.21-ck1) ---- */

static void build_matrix(uint64_t *m)
{
	int i, k;
	for (i = 0; i < RANGE; i++) {
		int j = RANGE * RANGE / (RANGE - i);
		m[i] = (1ULL << RANGE) - 1;
		for (k = 0; k <= RANGE * (RANGE - 1); k += j)
			m[i] &= ~(1ULL << (RANGE - 1 - k / RANGE));
	}
}

uint64_t sl_sd_matrix_row(int nice)
{
	uint64_t m[RANGE];
	build_matrix(m);
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	return m[nice + 20];
}

int64_t sl_sd_quota_us(int nice, int rt, int rr_ms)
{
	int rr = rr_ms;
	if (!rt) {
		if (nice < -6) {
			rr *= nice * nice;
			rr /= 40;
		} else if (nice > 0) {
			rr = rr / 2 ? rr / 2 : 1;
		}
	}
	return (int64_t)rr * 1000;
}

unsigned long sl_sd_load_weight(int nice, int rt, int rt_prio, int rr_ms)
{
	if (rt)
		return (unsigned long)rr_ms * 20 * (unsigned long)(40 + rt_prio) * RANGE;
	/* task_timeslice in ms: quota * (40 - user_prio), times PRIO_RANGE */
	return (unsigned long)(sl_sd_quota_us(nice, 0, rr_ms) * (RANGE - (nice + 20)) / 1000) * RANGE;
}

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

static int is_rt(const struct sd_task *p)
{
	return p->prio < ISO_PRIO;
}

/* as in 2.6.20, RT tasks share the arrays (prio 0..99); the RT class's
 * policy and prio rules are rt.h's */
static int rt_policy(const struct sd_task *p)
{
	return sl_rt_policy(p->policy);
}

static int uprio(const struct sd_task *p)
{
	return p->static_prio - MAX_RT;
}

/* ---- lists (prio_array.h) ---- */

#define LINKS(r) SL_PRIO_LINKS((r)->t)

static void list_add(struct sd_run *r, int pi, int head)
{
	struct sd_task *p = &r->t[pi];
	struct sl_prio_array *a = &r->rq[p->cpu].arrays[p->arr].pa;
	if (head)
		sl_prio_add_head(a, LINKS(r), pi, p->prio);
	else
		sl_prio_add_tail(a, LINKS(r), pi, p->prio);
	p->queued = 1;
}

static void list_del(struct sd_run *r, int pi)
{
	struct sd_task *p = &r->t[pi];
	sl_prio_del(&r->rq[p->cpu].arrays[p->arr].pa, LINKS(r), pi, p->prio);
	p->queued = 0;
}

static void stair(struct sd_run *r, int pi)
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
	return MAX_RT + next_zero(r->matrix[uprio(p)], 0);
}

static int minprio(struct sd_run *r, struct sd_rq *rq, int up)
{
	return r->interactive ? MAX_RT : rq->prio_level[up];
}

static int next_entitled_slot(struct sd_run *r, struct sd_task *p, struct sd_rq *rq)
{
	struct sd_array *act = &rq->arrays[rq->active], *exp = &rq->arrays[!rq->active];
	int search = MAX_RT, up = uprio(p);
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

static void queue_expired(struct sd_run *r, struct sd_task *p, struct sd_rq *rq)
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
			queue_expired(r, p, rq);
			return;
		} else {
			task_new_array(r, p, rq, rq->active);
		}
	} else {
		task_new_array(r, p, rq, rq->active);
	}
	q = next_entitled_slot(r, p, rq);
	if (q >= NPRIO) {
		queue_expired(r, p, rq);
		return;
	}
	p->prio = p->normal_prio = (int16_t)q;
	p->bitmap |= 1ULL << (q - MAX_RT);
}

static void enqueue_task(struct sd_run *r, int pi, int head)
{
	struct sd_task *p = &r->t[pi];
	struct sd_rq *rq = &r->rq[p->cpu];
	if (is_rt(p)) {
		p->arr = (int8_t)rq->active;
		p->arr_cpu = p->cpu;
	} else {
		recalc_task_prio(r, p, rq);
	}
	list_add(r, pi, head);
	stair(r, pi);
}

static void set_quota(struct sd_run *r, struct sd_task *p)
{
	int nice = p->static_prio - 120;
	p->quota = sl_sd_quota_us(nice, is_rt(p), r->rr_ms);
	p->load_weight = sl_sd_load_weight(nice, rt_policy(p), p->rt_prio, r->rr_ms);
}

static int effective_prio(const struct sd_task *p)
{
	if (rt_policy(p))
		return sl_rt_prio(p->rt_prio);
	if (p->prio >= MAX_RT && p->prio < NPRIO)
		return p->prio;
	return p->static_prio;
}

/* activate_task: set_quota, effective_prio, enqueue (through recalc) */
static void activate(struct sd_run *r, int pi, int cpu)
{
	struct sd_task *p = &r->t[pi];
	p->cpu = cpu;
	set_quota(r, p);
	p->prio = (int16_t)effective_prio(p);
	enqueue_task(r, pi, 0);
	r->rq[cpu].nr_running++;
}

static void deactivate(struct sd_run *r, int pi)
{
	struct sd_task *p = &r->t[pi];
	r->rq[p->cpu].nr_running--;
	list_del(r, pi);
}

static void task_expired_entitlement(struct sd_run *r, int pi)
{
	struct sd_task *p = &r->t[pi];
	int64_t overrun;
	p->first_time_slice = 0;
	if (is_rt(p)) {
		p->time_slice += p->quota;
		list_del(r, pi);
		list_add(r, pi, 0);
		return;
	}
	overrun = p->time_slice;
	list_del(r, pi);
	enqueue_task(r, pi, 0);
	p->time_slice += overrun;
}

static int preempts(struct sd_run *r, const struct sd_task *p, const struct sd_rq *rq)
{
	if (rq->curr < 0)
		return 1;
	return p->arr == rq->active && p->prio < r->t[rq->curr].prio;
}

/* update_cpu_clock: charge p's time_slice (us) at a tick or a switch */
static void charge(struct sd_run *r, struct sd_task *p, uint64_t now, int tick, uint64_t exec_start)
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

static void reset_prio_levels(struct sd_rq *rq)
{
	rq->arrays[rq->active].best_static_prio = NPRIO - 1;
	rq->arrays[!rq->active].best_static_prio = NPRIO - 1;
	memset(rq->prio_level, 0, sizeof(rq->prio_level));
}

/* ---- hooks ---- */

static int sd_init(struct sl_engine *e)
{
	struct sd_run *r = xcalloc(1, sizeof(*r));
	int c, n, lg = 0;
	r->e = e;
	r->interactive = (int)sl_engine_param(e, P_INTERACTIVE);
	r->exact = (int)sl_engine_param(e, P_ACCOUNTING);
	r->mark_first = !sl_engine_param(e, P_FIRST_SLOT_REUSE);
	r->rr_ms = (int)(e->rr_interval_ns / 1000000);
	if (r->rr_ms < 1 || r->rr_ms > 5000) {
		free(r);
		return sl_engine_fail(e, "sd: rr_interval %llu ns: expected 1..5000 ms",
				      (unsigned long long)e->rr_interval_ns);
	}
	for (n = e->ncpus; n > 1; n >>= 1)
		lg++;
	if (sl_engine_param(e, P_SMP_SCALE))
		r->rr_ms *= 1 + lg;
	build_matrix(r->matrix);
	r->t = xcalloc(e->ntasks ? e->ntasks : 1, sizeof(*r->t));
	r->rq = xcalloc((size_t)e->ncpus, sizeof(*r->rq));
	for (c = 0; c < e->ncpus; c++) {
		struct sd_rq *rq = &r->rq[c];
		int k;
		for (k = 0; k < 2; k++)
			sl_prio_init(&rq->arrays[k].pa);
		rq->curr = -1;
		reset_prio_levels(rq);
	}
	sl_engine_set_policy(e, r, r->t, r->rq);
	return 0;
}

static void sd_task_init(struct sl_engine *e, struct sl_task *et)
{
	struct sd_run *r = R(e);
	struct sd_task *p = &r->t[et->idx];
	memset(p, 0, sizeof(*p));
	p->link.next = p->link.prev = -1;
	p->static_prio = (int16_t)(120 + et->nice);
	p->policy = (uint8_t)(et->sched_policy >= 0 && et->sched_policy <= 3 ? et->sched_policy : 0);
	p->rt_prio = (int16_t)(rt_policy(p) ? sl_rt_priority(et->rt_prio) : 0);
	p->cpu = et->cpu >= 0 ? et->cpu : 0;
	p->arr = -1;
	p->arr_cpu = -1;
	p->rotation = UINT64_MAX; /* never ran: fresh entitlement */
	p->prio = p->normal_prio = (int16_t)(rt_policy(p) ? sl_rt_prio(p->rt_prio) : p->static_prio);
	set_quota(r, p);
	p->time_slice = p->quota;
	p->last_ran = e->now;
	et->pol = p;
	et->load_weight = p->load_weight;
	et->prio = p->prio;
}

static void sd_enqueue(struct sl_engine *e, int cpu, struct sl_task *et,
		       const struct sl_enq_info *w)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[cpu];
	rq->sync_local = 0;
	if (w->kind == SL_ENQ_MIGRATE) {
		if (w->src_cpu >= 0 && w->src_cpu < e->ncpus && r->rq[w->src_cpu].in_transit > 0)
			r->rq[w->src_cpu].in_transit--;
		/* pull_task: dequeue there, enqueue here (recalc translates
		 * the rotation and array) */
		r->t[et->idx].cpu = cpu;
		enqueue_task(r, et->idx, 0);
		rq->nr_running++;
		return;
	}
	if (w->kind == SL_ENQ_WAKE)
		rq->sync_local = w->sync && w->waker_cpu == cpu;
	activate(r, et->idx, cpu);
}

static void sd_dequeue(struct sl_engine *e, int cpu, struct sl_task *et, char state)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[cpu];
	struct sd_task *p = &r->t[et->idx];
	(void)state;
	if (p->queued)
		deactivate(r, et->idx);
	/* schedule()'s update_cpu_clock(prev) happens now for a leaving task
	 * (before sched_exit sees its time_slice) */
	charge(r, p, e->now, 0, et->exec_start_ns);
	rq->prev_charged = 1;
}

static int sd_check_preempt(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct sd_run *r = R(e);
	if (r->rq[cpu].sync_local)
		return 0;
	return preempts(r, &r->t[et->idx], &r->rq[cpu]);
}

static struct sl_task *sd_pick_next(struct sl_engine *e, int cpu, struct sl_task *prev)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[cpu];
	int next = -1, idx;

	if (rq->nr_running) {
		idx = sl_prio_next(&rq->arrays[rq->active].pa, 0);
		if (idx <= ISO_PRIO) {
			next = rq->arrays[rq->active].pa.head[idx];
		} else {
			int guard = 0;
			for (;;) { /* next_dynamic_task */
				struct sd_array *a;
				struct sd_task *n;
				if (idx >= NPRIO && ++guard > 64) {
					/* both arrays empty although nr_running says
					 * otherwise: a bug the engine's check reports */
					next = -1;
					break;
				}
				if (idx >= NPRIO) {
					int i, q;
					rq->active = !rq->active;
					rq->prio_rotation++;
					idx = sl_prio_next(&rq->arrays[rq->active].pa, MAX_RT);
					reset_prio_levels(rq);
					sl_engine_rotation(e, cpu, "major", idx < NPRIO ? idx - MAX_RT : -1);
					/* every task of the new active array is "active" now */
					a = &rq->arrays[rq->active];
					for (q = sl_prio_next(&a->pa, MAX_RT); q < NPRIO;
					     q = sl_prio_next(&a->pa, q + 1))
						for (i = a->pa.head[q]; i >= 0; i = r->t[i].link.next)
							stair(r, i);
				}
				a = &rq->arrays[rq->active];
				next = a->pa.head[idx];
				n = &r->t[next];
				if (n->time_slice <= 0) {
					task_expired_entitlement(r, next);
					idx = sl_prio_next(&a->pa, MAX_RT);
					continue;
				}
				n->rotation = rq->prio_rotation;
				if (n->static_prio < a->best_static_prio)
					a->best_static_prio = n->static_prio;
				if (idx > rq->prio_level[uprio(n)])
					rq->prio_level[uprio(n)] = idx;
				break;
			}
		}
	}
	if (next < 0) {
		reset_prio_levels(rq);
		rq->prio_rotation++;
		sl_engine_rotation(e, cpu, "idle", -1);
	}
	/* update_cpu_clock(prev) at the switch, unless dequeue did it */
	if (prev && !rq->prev_charged)
		charge(r, &r->t[prev->idx], e->now, 0, prev->exec_start_ns);
	rq->prev_charged = 0;
	rq->curr = next;
	if (next < 0)
		return NULL;
	e->tasks[next].prio = r->t[next].prio;
	return &e->tasks[next];
}

static void sd_tick(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct sd_run *r = R(e);
	struct sd_task *p = &r->t[et->idx];
	charge(r, p, e->now, 1, et->exec_start_ns);
	if (p->time_slice > 0 || p->policy == SL_SCHED_FIFO)
		return;
	sl_engine_resched(e, cpu);
	if (p->queued)
		task_expired_entitlement(r, et->idx);
}

static void sd_fork(struct sl_engine *e, struct sl_task *parent, struct sl_task *child, int cpu)
{
	struct sd_run *r = R(e);
	struct sd_task *pp = &r->t[parent->idx], *c = &r->t[child->idx];
	struct sd_rq *rq = &r->rq[cpu];
	int running = r->rq[pp->cpu].curr == parent->idx;
	/* sched_fork: the child is a copy of the parent (rotation, array,
	 * bitmap), prio = the parent's normal_prio; the slice is halved */
	c->rotation = pp->rotation;
	c->arr = pp->arr;
	c->arr_cpu = pp->arr_cpu;
	c->bitmap = pp->bitmap;
	c->prio = pp->normal_prio;
	c->last_ran = pp->last_ran;
	if (c->policy != SL_SCHED_FIFO) {
		if (pp->time_slice > 0) {
			pp->time_slice /= 2;
			c->time_slice = pp->time_slice ? pp->time_slice : 1;
			c->first_time_slice = 1;
		} else {
			c->time_slice = 0;
		}
	}
	/* wake_up_new_task: activate (recalc: same rotation, active, slice
	 * left -> the parent's slot, at the tail) */
	activate(r, child->idx, cpu);
	child->load_weight = c->load_weight;
	if (cpu == pp->cpu && running) {
		int clone_vm = child->spec && parent->spec && child->spec->tgid > 0 &&
			       child->spec->tgid == parent->spec->tgid &&
			       child->spec->tid != child->spec->tgid;
		if (!clone_vm)
			sl_engine_resched(e, cpu); /* set_need_resched on the parent */
	} else if (preempts(r, c, rq)) {
		sl_engine_resched(e, cpu);
	}
}

static void sd_task_exit(struct sl_engine *e, struct sl_task *et, struct sl_task *parent)
{
	struct sd_run *r = R(e);
	struct sd_task *p = &r->t[et->idx], *pp;
	if (!parent)
		return;
	pp = &r->t[parent->idx];
	if (p->first_time_slice && p->cpu == pp->cpu) {
		pp->time_slice += p->time_slice;
		if (pp->time_slice > pp->quota)
			pp->time_slice = pp->quota;
	}
}

static void sd_yield(struct sl_engine *e, int cpu, struct sl_task *et)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[cpu];
	struct sd_task *p = &r->t[et->idx];
	if (rq->nr_running == 1 || !p->queued)
		return;
	list_del(r, et->idx);
	if (!is_rt(p))
		queue_expired(r, p, rq);
	list_add(r, et->idx, 0);
	stair(r, et->idx);
}

static void sd_set_nice(struct sl_engine *e, struct sl_task *et, int old_nice)
{
	struct sd_run *r = R(e);
	struct sd_task *p = &r->t[et->idx];
	int queued = p->queued, old_prio = p->prio, delta;
	struct sd_rq *rq = &r->rq[p->cpu];
	(void)old_nice;
	if (rt_policy(p)) {
		p->static_prio = (int16_t)et->static_prio;
		return;
	}
	if (queued)
		list_del(r, et->idx);
	p->static_prio = (int16_t)et->static_prio;
	p->prio = (int16_t)effective_prio(p);
	set_quota(r, p);
	et->load_weight = p->load_weight;
	delta = p->prio - old_prio;
	if (queued) {
		enqueue_task(r, et->idx, 0);
		delta = p->prio - old_prio;
		if (delta < 0 || (delta > 0 && rq->curr == et->idx))
			sl_engine_resched(e, p->cpu);
	}
	et->prio = p->prio;
}

static struct sl_task *sd_steal(struct sl_engine *e, int src, int dst)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[src];
	int k, q, pi;
	/* move_tasks: the expired array from 100, then active from 0; each
	 * list from its tail; not the running task */
	for (k = 0; k < 2; k++) {
		struct sd_array *a = &rq->arrays[k ? rq->active : !rq->active];
		for (q = sl_prio_next(&a->pa, k ? 0 : MAX_RT); q < NPRIO;
		     q = sl_prio_next(&a->pa, q + 1))
			for (pi = a->pa.tail[q]; pi >= 0; pi = r->t[pi].link.prev) {
				if (pi == rq->curr || !sl_engine_may_migrate(e, &e->tasks[pi], dst))
					continue;
				deactivate(r, pi);
				rq->in_transit++;
				return &e->tasks[pi];
			}
	}
	return NULL;
}

/* a queued task's own fields agree with the list it is on */
static int check_task(void *ctx, int pi, int cpu, int arr, int q)
{
	const struct sd_task *p = &((struct sd_run *)ctx)->t[pi];
	return p->queued && p->cpu == cpu && p->arr == arr && p->prio == q;
}

static long sd_debug_count(struct sl_engine *e, int cpu)
{
	struct sd_run *r = R(e);
	struct sd_rq *rq = &r->rq[cpu];
	long n = 0;
	int k;
	char why[128];
	for (k = 0; k < 2; k++) {
		long c = sl_prio_check(&rq->arrays[k].pa, LINKS(r), (long)e->ntasks, cpu, k, check_task, r,
				       why, sizeof(why));
		if (c < 0)
			return -1;
		n += c;
	}
	if (n != rq->nr_running)
		return -1;
	return n + rq->in_transit;
}

const struct sl_policy_ops sl_policy_sd = {
	.name = "sd",
	.doc = "Staircase Deadline (2.6.21-ck1): priority matrix, per-task slot bitmaps, rotations",
	.params = sd_params,
	.init = sd_init,
	.task_init = sd_task_init,
	.enqueue = sd_enqueue,
	.dequeue = sd_dequeue,
	.check_preempt = sd_check_preempt,
	.pick_next = sd_pick_next,
	.put_prev = NULL,
	.tick = sd_tick,
	.fork = sd_fork,
	.task_exit = sd_task_exit,
	.yield = sd_yield,
	.set_nice = sd_set_nice,
	.steal = sd_steal,
	.debug_count = sd_debug_count,
};

const struct sl_policy_ops *sl_sd_policy(void)
{
	return &sl_policy_sd;
}
