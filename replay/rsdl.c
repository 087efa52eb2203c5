/* replay/rsdl.c - Con Kolivas' Rotating Staircase Deadline scheduler (RSDL
 * v0.26, 2.6.20) as its announcement (LKML, 4 March 2007, "[PATCH] [RSDL
 * 6/6] sched: document rsdl cpu scheduler") describes it; docs/rsdl.md. Per CPU: an active and an expired array of 40 levels (one
 * FIFO list and one bit per level), the runqueue quota of each level
 * (prio_quota), the level being serviced (prio_level) and the major epoch
 * counter (prio_rotation). Per task: its quota, its slice at the current
 * level, the bitmap of levels it took quota from this epoch, the epoch it
 * last got quota in. Every operation is O(1) in the number of tasks
 * (lists + a 40-bit bitmap), except the rare moves of a major rotation
 * that triggers with tasks still queued in the active array.
 *
 * The choices where the announcement is silent (docs/rsdl.md, "Gap-fillers")
 * are parameters:
 * a1 a2 a4 a5 a6 a7 a8 and accounting. */
#include "engine.h"
#include "prio_array.h"
#include "rt.h"

#include <stdlib.h>
#include <string.h>

#define NLEV 40

enum { P_A1, P_A2, P_A5, P_A6, P_A7, P_A8, P_ACCT, P_A4 };

static const struct sl_policy_param rsdl_params[] = {
	{ "pick_sets_level", 1, 0, 1, "1: the level of the picked task becomes the serviced level (prio_level); 0: only a deeper one" },
	{ "search_from_level", 1, 0, 1, "1: a task's next level is searched from max(static level, prio_level); 0: from its static level" },
	{ "idle_rotates", 1, 0, 1, "1: a CPU going idle starts a new major epoch (rotation)" },
	{ "sd_quota", 0, 0, 1, "quota below nice 0: 0 = RR*(1-nice) (seed 001); 1 = RR*nice^2/40 for nice < -6 (SD)" },
	{ "rotate_at_zero", 0, 0, 1, "rotation when the level's runqueue quota is 0: < 0 (0, overrun) or <= 0 (1)" },
	{ "wake_preempt", 1, 0, 1, "1: a woken task preempts when its level is strictly better than the running task's" },
	{ "accounting", 0, 0, 1, "0: charge one whole tick per tick (2.6.20 jiffies); 1: charge ns actually run" },
	{ "minor_new_quota", 0, 0, 1, "tasks moved by a minor rotation: 0 keep their slice; 1 get a new quota at the new level when picked (if unused)" },
	{ NULL, 0, 0, 0, NULL },
};
/* the gap-fillers' numbers in docs/rsdl.md, accepted by --opt */
static const char *const rsdl_param_aliases[] = {
	"a1", "a2", "a5", "a6", "a7", "a8", NULL, "a4",
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
	int a1, a2, a4, a5, a6, a7, a8, acct;
};

#define R(e) ((struct rsdl *)(e)->pol)
#define RT(p) ((struct rt *)(p)->pol)

#define LINKS(r) SL_PRIO_LINKS((r)->rts)
#define IDX(ts) ((ts)->t->idx)

/* ---- real-time tasks: the RT class (rt.h) above the staircase (the
 * announcement: "rt task management is straight forward"); SCHED_RR tasks
 * round-robin with an RR_INTERVAL slice (ns), SCHED_FIFO ones run until
 * they sleep or a better RT task wakes ---- */

static void rt_queue(struct rsdl *r, struct rq *rq, struct rt *ts)
{
	ts->level = ts->rt.prio;
	ts->array = ARR_RT;
	sl_rt_enqueue(&rq->rtq, LINKS(r), IDX(ts), &ts->rt);
	ts->t->prio = ts->rt.prio; /* kernel prio of an RT task: 99 - rt_priority */
}

static void rt_unqueue(struct rsdl *r, struct rq *rq, struct rt *ts)
{
	sl_rt_dequeue(&rq->rtq, LINKS(r), IDX(ts), &ts->rt);
	ts->array = -1;
}

static int64_t task_quota(const struct rsdl *r, int nice)
{
	if (nice >= 0)
		return r->rr;
	if (r->a6 == 0)
		return r->rr * (1 - nice);
	if (nice < -6)
		return r->rr * nice * nice / 40;
	return r->rr;
}

static int static_level(const struct sl_task *p)
{
	return p->nice + 20;
}

static void set_prio(struct sl_engine *e, struct rt *ts, struct rq *rq)
{
	int expired = ts->array >= 0 && ts->array != rq->active;
	ts->t->prio = 100 + ts->level;
	sl_engine_staircase(e, ts->t, ts->level, expired);
}

static void queue(struct sl_engine *e, struct rq *rq, struct rt *ts, int level, int array)
{
	ts->level = level;
	ts->array = array;
	sl_prio_add_tail(&rq->arrays[array], LINKS(R(e)), IDX(ts), level);
	set_prio(e, ts, rq);
}

/* ts->level must be the list it is on: every caller sets it (from the
 * list it found ts on) or ts is the running task, whose level a minor
 * rotation keeps up to date. */
static void unqueue(struct rsdl *r, struct rq *rq, struct rt *ts)
{
	if (ts->array < 0)
		return;
	if (ts->array == ARR_RT) {
		rt_unqueue(r, rq, ts);
		return;
	}
	sl_prio_del(&rq->arrays[ts->array], LINKS(r), IDX(ts), ts->level);
	ts->array = -1;
}

/* Give ts a fresh entitlement for this epoch at its static level. */
static void new_epoch_quota(struct rq *rq, struct rt *ts, int cpu)
{
	int s = static_level(ts->t);
	ts->rotation = rq->prio_rotation;
	ts->rot_cpu = cpu;
	ts->bitmap = 1ULL << s;
	ts->time_slice = ts->quota;
	rq->prio_quota[s] += ts->quota;
	ts->level = s;
}

/* ts (not queued) has no slice left at its level (or the level's quota is
 * gone): queue it at its next unused level with a full quota, or on the
 * expired array when every level has been used. carry: deficit (<= 0). */
static void queue_next_level(struct sl_engine *e, struct rq *rq, struct rt *ts, int64_t carry)
{
	struct rsdl *r = R(e);
	int s = static_level(ts->t), from = s, L;
	uint64_t free_lv;

	if (r->a2 && rq->prio_level > from)
		from = rq->prio_level;
	free_lv = ~ts->bitmap & ((1ULL << NLEV) - 1) & ~((1ULL << from) - 1);
	ts->first_time_slice = 0;
	if (free_lv) {
		L = __builtin_ctzll(free_lv);
		ts->bitmap |= 1ULL << L;
		ts->time_slice = ts->quota + (r->acct ? carry : 0);
		rq->prio_quota[L] += ts->quota;
		queue(e, rq, ts, L, rq->active);
		return;
	}
	/* every level used: expired array at the static level, no quota until
	 * it is scheduled after the swap (A3) */
	ts->bitmap = 0;
	ts->time_slice = 0;
	queue(e, rq, ts, s, !rq->active);
}

/* A task arriving from another CPU (pulled, or woken there), as SD's
 * update_if_moved did (2.6.21-ck1, recalc_task_prio): while the runqueue it
 * last had quota on is still in the same epoch, the task keeps its
 * entitlement - levels used (bitmap), level, slice left, or its place on
 * the expired array - and its epoch is translated to this runqueue's; its
 * unused slice moves from the old runqueue's level quota to this one's.
 * Otherwise (that runqueue has rotated since) it starts a fresh epoch here.
 * See docs/rsdl.md. */
static void update_if_moved(struct sl_engine *e, struct rq *rq, struct rt *ts, int cpu)
{
	struct rq *src;
	if (ts->rot_cpu == cpu || ts->rot_cpu < 0 || ts->rot_cpu >= e->ncpus)
		return;
	src = &R(e)->rq[ts->rot_cpu];
	if (ts->rotation != src->prio_rotation)
		return; /* stale: a fresh epoch here */
	if (ts->time_slice > 0 && ts->bitmap) {
		int64_t take = ts->time_slice;
		if (src->prio_quota[ts->level] < take)
			take = src->prio_quota[ts->level] > 0 ? src->prio_quota[ts->level] : 0;
		src->prio_quota[ts->level] -= take;
		rq->prio_quota[ts->level] += ts->time_slice;
	}
	ts->rotation = rq->prio_rotation;
	ts->rot_cpu = cpu;
}

/* recalc_task_prio + enqueue of a task arriving on rq (wake, start, move). */
static void enqueue_recalc(struct sl_engine *e, int cpu, struct rt *ts)
{
	struct rq *rq = &R(e)->rq[cpu];
	if (ts->rt.policy) {
		if (ts->rt.time_slice <= 0)
			ts->rt.time_slice = R(e)->rr;
		rt_queue(R(e), rq, ts);
		return;
	}
	update_if_moved(e, rq, ts, cpu);
	if (ts->rotation == rq->prio_rotation && ts->rot_cpu == cpu && !ts->bitmap) {
		/* every level used this epoch: it was on the expired array (only
		 * a move dequeues such a task) and stays there */
		queue(e, rq, ts, static_level(ts->t), !rq->active);
		return;
	}
	if (ts->rotation != rq->prio_rotation || ts->rot_cpu != cpu) {
		new_epoch_quota(rq, ts, cpu);
		queue(e, rq, ts, ts->level, rq->active);
	} else if (ts->time_slice > 0 && rq->prio_quota[ts->level] > 0) {
		queue(e, rq, ts, ts->level, rq->active);
	} else {
		queue_next_level(e, rq, ts, 0);
	}
}

static void major_rotation(struct sl_engine *e, int cpu, const char *kind)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	struct sl_prio_array *act = &rq->arrays[rq->active];
	int L;

	/* tasks still queued on the active array (with quota or spliced in)
	 * go to the expired array at their static level (gap-filler A9), best
	 * level first, each list in order */
	while ((L = sl_prio_first(act)) < SL_PRIO_MAX) {
		struct rt *ts = &r->rts[act->head[L]];
		ts->level = L;
		unqueue(r, rq, ts);
		ts->bitmap = 0;
		ts->time_slice = 0;
		queue(e, rq, ts, static_level(ts->t), !rq->active);
	}
	rq->active = !rq->active;
	memset(rq->prio_quota, 0, sizeof(rq->prio_quota));
	rq->prio_rotation++;
	L = sl_prio_first(&rq->arrays[rq->active]);
	rq->prio_level = L < SL_PRIO_MAX ? L : 0;
	sl_engine_rotation(e, cpu, kind, rq->prio_level);
}

static void minor_rotation(struct sl_engine *e, int cpu, struct sl_task *curr)
{
	struct rq *rq = &R(e)->rq[cpu];
	int L = rq->prio_level;

	/* the tasks keep their recorded level L (stale until set again) */
	sl_prio_splice_tail(&rq->arrays[rq->active], LINKS(R(e)), L, L + 1);
	rq->prio_quota[L + 1] += rq->prio_quota[L];
	rq->prio_quota[L] = 0;
	rq->prio_level = L + 1;
	if (curr && RT(curr)->array == rq->active && RT(curr)->level == L) {
		RT(curr)->level = L + 1;
		RT(curr)->charge_level = L + 1;
		set_prio(e, RT(curr), rq);
	}
	sl_engine_rotation(e, cpu, "minor", L + 1);
}

/* ---- hooks ---- */

static int rsdl_init(struct sl_engine *e)
{
	struct rsdl *r = xcalloc(1, sizeof(*r));
	int c, a;
	r->rr = (int64_t)e->rr_interval_ns;
	r->tick = (int64_t)e->tick_ns;
	r->a1 = (int)sl_engine_param(e, P_A1);
	r->a2 = (int)sl_engine_param(e, P_A2);
	r->a4 = (int)sl_engine_param(e, P_A4);
	r->a5 = (int)sl_engine_param(e, P_A5);
	r->a6 = (int)sl_engine_param(e, P_A6);
	r->a7 = (int)sl_engine_param(e, P_A7);
	r->a8 = (int)sl_engine_param(e, P_A8);
	r->acct = (int)sl_engine_param(e, P_ACCT);
	r->rq = xcalloc((size_t)e->ncpus, sizeof(*r->rq));
	for (c = 0; c < e->ncpus; c++) {
		for (a = 0; a < 2; a++)
			sl_prio_init(&r->rq[c].arrays[a]);
		sl_prio_init(&r->rq[c].rtq);
	}
	r->nrts = e->ntasks;
	r->rts = xcalloc_aligned(128, e->ntasks, sizeof(*r->rts));
	sl_engine_set_policy(e, r, r->rts, r->rq);
	return 0;
}

static void rsdl_task_init(struct sl_engine *e, struct sl_task *p)
{
	struct rsdl *r = R(e);
	struct rt *ts = &r->rts[p->idx];
	ts->t = p;
	ts->link.next = ts->link.prev = -1;
	ts->array = -1;
	ts->rot_cpu = -1;
	ts->rotation = UINT64_MAX;
	ts->quota = task_quota(r, p->nice);
	ts->level = static_level(p);
	sl_rt_se_init(&ts->rt, p->sched_policy, p->rt_prio, 0);
	p->pol = ts;
	p->prio = ts->rt.policy ? ts->rt.prio : 100 + ts->level;
	/* load weight ~ CPU entitlement per epoch: levels x quota (in 0.1 ms) */
	p->load_weight = (unsigned long)((20 - p->nice) * (ts->quota / 100000 + 1));
}

static void rsdl_enqueue(struct sl_engine *e, int cpu, struct sl_task *p, const struct sl_enq_info *w)
{
	(void)w;
	enqueue_recalc(e, cpu, RT(p));
}

static void rsdl_dequeue(struct sl_engine *e, int cpu, struct sl_task *p, char state)
{
	(void)state;
	unqueue(R(e), &R(e)->rq[cpu], RT(p));
}

static int rsdl_check_preempt(struct sl_engine *e, int cpu, struct sl_task *p)
{
	struct rq *rq = &R(e)->rq[cpu];
	struct sl_task *curr = e->cpus[cpu].curr;
	if (!curr)
		return 0;
	int rt = sl_rt_preempts(&RT(p)->rt, &RT(curr)->rt);
	if (rt >= 0) /* an RT task preempts any normal task and worse RT ones */
		return rt;
	if (!R(e)->a8)
		return 0;
	return RT(p)->array == rq->active && RT(p)->level < RT(curr)->level;
}

/* Charge ns of CPU to ts at its charge level. */
static void charge(struct rq *rq, struct rt *ts, int64_t ns)
{
	ts->time_slice -= ns;
	rq->prio_quota[ts->charge_level] -= ns;
}

static struct sl_task *rsdl_pick_next(struct sl_engine *e, int cpu, struct sl_task *prev)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	size_t guard, limit = (size_t)NLEV * (r->nrts + 4) + 64;
	int rti = sl_rt_pick(&rq->rtq);

	if (rti >= 0) { /* real-time tasks first */
		struct rt *ts = &r->rts[rti];
		ts->charge_level = -1;
		return ts->t;
	}
	/* every pass rotates, grants an epoch's quota or moves a task
	 * without slice one level down: bounded by the limit */
	for (guard = 0; guard < limit; guard++) {
		struct sl_prio_array *act = &rq->arrays[rq->active];
		struct rt *ts;
		int L;

		if (!act->nr_active) {
			if (!rq->arrays[!rq->active].nr_active) {
				/* nothing queued: idle (A5: an idle CPU starts a new epoch) */
				if (r->a5 && prev) {
					memset(rq->prio_quota, 0, sizeof(rq->prio_quota));
					rq->prio_rotation++;
					rq->prio_level = 0;
					sl_engine_rotation(e, cpu, "idle", 0);
				}
				return NULL;
			}
			major_rotation(e, cpu, "major");
			continue;
		}
		L = sl_prio_first(act);
		ts = &r->rts[act->head[L]];
		ts->level = L;
		if (ts->rotation != rq->prio_rotation || ts->rot_cpu != cpu) {
			/* first pick in this epoch (from the expired array): A3 */
			unqueue(r, rq, ts);
			new_epoch_quota(rq, ts, cpu);
			/* stays first in line at its level */
			ts->array = rq->active;
			sl_prio_add_head(act, LINKS(r), IDX(ts), ts->level);
			set_prio(e, ts, rq);
			continue;
		}
		if (r->a4 && L >= static_level(ts->t) && !(ts->bitmap & (1ULL << L))) {
			/* moved here by a minor rotation: "if the chosen task has not
			 * been running during this major or minor rotation it has new
			 * quota allocated at this time" (seed 001), read literally */
			ts->bitmap |= 1ULL << L;
			ts->time_slice = ts->quota;
			rq->prio_quota[L] += ts->quota;
		}
		if (ts->time_slice <= 0) {
			/* ran out between ticks (accounting=1) */
			int64_t carry = ts->time_slice;
			unqueue(r, rq, ts);
			queue_next_level(e, rq, ts, carry);
			continue;
		}
		set_prio(e, ts, rq);
		if (r->a1 || L > rq->prio_level)
			rq->prio_level = L; /* a1=0: only deeper, never back up */
		ts->charge_level = rq->prio_level;
		return ts->t;
	}
	return NULL; /* cannot happen; the engine reports it */
}

static void rsdl_put_prev(struct sl_engine *e, int cpu, struct sl_task *prev, struct sl_task *next)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	if (!r->acct || prev == next)
		return;
	if (prev) {
		struct rt *ts = RT(prev);
		int64_t ns = (int64_t)(e->now - ts->last_charge);
		if (ts->rt.policy)
			ts->rt.time_slice -= ns;
		else
			charge(rq, ts, ns);
	}
	if (next)
		RT(next)->last_charge = e->now;
}

static void rsdl_tick(struct sl_engine *e, int cpu, struct sl_task *curr)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	struct rt *ts = RT(curr);
	int64_t ns = r->tick, q;

	if (r->acct) {
		ns = (int64_t)(e->now - ts->last_charge);
		ts->last_charge = e->now;
	}
	if (ts->rt.policy) {
		/* SCHED_FIFO: never expires; SCHED_RR: round robin within its
		 * priority every RR_INTERVAL (even alone on its list) */
		if (sl_rt_tick(&ts->rt, ns, r->rr)) {
			sl_rt_requeue(&rq->rtq, LINKS(r), IDX(ts), &ts->rt);
			sl_engine_resched(e, cpu);
		}
		return;
	}
	/* A7: the task first ... */
	ts->time_slice -= ns;
	if (ts->time_slice <= 0 && ts->array == rq->active) {
		int64_t carry = ts->time_slice;
		unqueue(r, rq, ts);
		queue_next_level(e, rq, ts, carry);
		sl_engine_resched(e, cpu);
	}
	/* ... then the runqueue quota of the serviced level */
	rq->prio_quota[ts->charge_level] -= ns;
	q = rq->prio_quota[rq->prio_level];
	if (r->a7 ? q <= 0 : q < 0) {
		if (rq->prio_level < NLEV - 1)
			minor_rotation(e, cpu, curr);
		else
			major_rotation(e, cpu, "major");
		sl_engine_resched(e, cpu);
	}
}

static void rsdl_fork(struct sl_engine *e, struct sl_task *parent, struct sl_task *child, int cpu)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	struct rt *pt = RT(parent), *ct = RT(child);

	if (ct->rt.policy) {
		enqueue_recalc(e, cpu, ct);
	} else if (!pt->rt.policy && parent->on_rq && parent->cpu == cpu && pt->rotation == rq->prio_rotation &&
	    pt->rot_cpu == cpu && pt->array == rq->active && pt->time_slice > 0) {
		/* SD rules (sched_fork, 2.6.21-ck1): halve the parent's slice, the child gets the
		 * same and inherits the epoch, the bitmap and the level */
		pt->time_slice /= 2;
		ct->time_slice = pt->time_slice > 0 ? pt->time_slice : 1;
		ct->rotation = pt->rotation;
		ct->rot_cpu = cpu;
		ct->bitmap = pt->bitmap;
		ct->level = pt->level;
		ct->first_time_slice = 1;
		if (rq->prio_quota[ct->level] > 0)
			queue(e, rq, ct, ct->level, rq->active);
		else
			queue_next_level(e, rq, ct, 0);
	} else {
		enqueue_recalc(e, cpu, ct);
	}
	if (e->cpus[cpu].curr && rsdl_check_preempt(e, cpu, child))
		sl_engine_resched(e, cpu);
}

static void rsdl_task_exit(struct sl_engine *e, struct sl_task *p, struct sl_task *parent)
{
	struct rt *ts = RT(p), *pt;
	if (!parent || !ts->first_time_slice || ts->time_slice <= 0 || parent->cpu != p->cpu)
		return;
	pt = RT(parent);
	if (pt->rotation != ts->rotation || pt->rot_cpu != ts->rot_cpu)
		return;
	pt->time_slice += ts->time_slice;
	if (pt->time_slice > pt->quota)
		pt->time_slice = pt->quota;
	ts->first_time_slice = 0;
}

static void rsdl_yield(struct sl_engine *e, int cpu, struct sl_task *p)
{
	struct rq *rq = &R(e)->rq[cpu];
	struct rt *ts = RT(p);
	if (ts->rt.policy) { /* yield_task_rt: tail of its RT list */
		sl_rt_requeue(&rq->rtq, LINKS(R(e)), IDX(ts), &ts->rt);
		return;
	}
	/* SD queue_expired: expired array, fresh entitlement after the swap */
	unqueue(R(e), rq, ts);
	ts->bitmap = 0;
	ts->time_slice = 0;
	queue(e, rq, ts, static_level(p), !rq->active);
}

static void rsdl_set_nice(struct sl_engine *e, struct sl_task *p, int old_nice)
{
	struct rt *ts = RT(p);
	(void)old_nice;
	ts->quota = task_quota(R(e), p->nice);
	p->load_weight = (unsigned long)((20 - p->nice) * (ts->quota / 100000 + 1));
}

/* The last task of a's lists, best level first, each list from its tail,
 * that is not curr and may run on dst; NULL none. */
static struct rt *steal_from(struct sl_engine *e, const struct sl_prio_array *a, struct sl_task *curr,
			     int dst)
{
	struct rsdl *r = R(e);
	int L, i;
	for (L = sl_prio_first(a); L < SL_PRIO_MAX; L = sl_prio_next(a, L + 1))
		for (i = a->tail[L]; i >= 0; i = r->rts[i].link.prev) {
			struct rt *ts = &r->rts[i];
			if (ts->t == curr || !sl_engine_may_migrate(e, ts->t, dst))
				continue;
			ts->level = L;
			return ts;
		}
	return NULL;
}

static struct sl_task *rsdl_steal(struct sl_engine *e, int src, int dst)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[src];
	struct sl_task *curr = e->cpus[src].curr;
	struct rt *ts;

	/* expired array first, then active; best level first; from the tail;
	 * then the RT lists */
	if ((ts = steal_from(e, &rq->arrays[!rq->active], curr, dst)) ||
	    (ts = steal_from(e, &rq->arrays[rq->active], curr, dst)) ||
	    (ts = steal_from(e, &rq->rtq, curr, dst))) {
		unqueue(r, rq, ts);
		return ts->t;
	}
	return NULL;
}

/* a queued task's own fields agree with the list it is on (the level of
 * a task on the staircase may be stale: not checked) */
static int check_task(void *ctx, int i, int cpu, int array, int q)
{
	const struct rt *ts = &((struct rsdl *)ctx)->rts[i];
	return ts->array == array && ts->t->cpu == cpu && ts->t->on_rq &&
	       (array != ARR_RT || (ts->rt.policy && ts->rt.queued && ts->rt.prio == q));
}

static long rsdl_debug_count(struct sl_engine *e, int cpu)
{
	struct rsdl *r = R(e);
	struct rq *rq = &r->rq[cpu];
	const struct sl_prio_array *arrs[3] = { &rq->rtq, &rq->arrays[0], &rq->arrays[1] };
	long n = 0;
	int a;
	char why[128];
	for (a = 0; a < 3; a++) {
		long k = sl_prio_check(arrs[a], LINKS(r), (long)r->nrts, cpu, a ? a - 1 : ARR_RT,
				       check_task, r, why, sizeof(why));
		if (k < 0 || (a && sl_prio_next(arrs[a], NLEV) < SL_PRIO_MAX))
			return -1; /* lists or bitmap inconsistent, a level past the staircase */
		n += k;
	}
	return n;
}

const struct sl_policy_ops sl_policy_rsdl = {
	.name = "rsdl",
	.doc = "Rotating Staircase Deadline (RSDL 0.26, Con Kolivas, March 2007)",
	.params = rsdl_params,
	.param_aliases = rsdl_param_aliases,
	.init = rsdl_init,
	.task_init = rsdl_task_init,
	.enqueue = rsdl_enqueue,
	.dequeue = rsdl_dequeue,
	.check_preempt = rsdl_check_preempt,
	.pick_next = rsdl_pick_next,
	.put_prev = rsdl_put_prev,
	.tick = rsdl_tick,
	.fork = rsdl_fork,
	.task_exit = rsdl_task_exit,
	.yield = rsdl_yield,
	.set_nice = rsdl_set_nice,
	.steal = rsdl_steal,
	.debug_count = rsdl_debug_count,
};
