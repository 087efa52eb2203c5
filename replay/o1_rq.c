/* replay/o1_rq.c - see o1_rq.h. Section and step numbers in comments are
 * those of docs/o1.md's "Operations": §2.3 wake-up (try_to_wake_up,
 * activate_task), §2.4 schedule(), §2.5 tick (scheduler_tick), §2.7 fork
 * and exit (sched_fork, wake_up_new_task, sched_exit), §2.8 nice and yield
 * (set_user_nice, sys_sched_yield): kernel/sched.c of Linux 2.6.20. */
#include "o1_rq.h"
#include "rt.h"
#include "../common/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IDLE_PRIO SL_O1_MAX_PRIO /* the idle task has prio 140 */
_Static_assert(SL_O1_MAX_PRIO == SL_PRIO_MAX, "o1 prio arrays are prio_array.h's");
_Static_assert(sizeof(struct sl_o1_task) == 64, "an o1 task fills one cache line");

static inline int is_rt(const struct sl_o1_task *p)
{
	return p->prio < SL_O1_MAX_RT_PRIO;
}

/* 2.6.20 has no scheduling classes: RT tasks are on the same arrays at prio
 * 0..99; the RT class's policy and prio rules are rt.h's */
static inline int rt_policy(const struct sl_o1_task *p)
{
	return sl_rt_policy(p->policy);
}

static inline int expired_idx(const struct sl_o1_rq *rq)
{
	return !rq->active;
}

/* ---- staircase rows ---- */

static inline void stair(struct sl_o1 *o, int pi, uint64_t now)
{
	struct sl_o1_task *p = &o->t[pi];
	int arr;
	if (p->array < 0 || !o->stair)
		return;
	arr = p->array == o->rq[p->cpu].active ? 0 : 1;
	if (p->rec_level == p->prio && p->rec_array == arr)
		return;
	p->rec_level = p->prio;
	p->rec_array = (int8_t)arr;
	o->stair(o->stair_ctx, pi, now, p->prio, arr);
}

/* ---- prio_array: enqueue / dequeue / requeue (§2.2, prio_array.h) ---- */

#define LINKS(o) SL_PRIO_LINKS((o)->t)

static inline void enqueue(struct sl_o1 *o, int pi, int ai)
{
	struct sl_o1_task *p = &o->t[pi];
	sl_prio_add_tail(&o->rq[p->cpu].arrays[ai], LINKS(o), pi, p->prio);
	p->array = (int8_t)ai;
}

static inline void dequeue(struct sl_o1 *o, int pi)
{
	struct sl_o1_task *p = &o->t[pi];
	sl_prio_del(&o->rq[p->cpu].arrays[p->array], LINKS(o), pi, p->prio);
	p->array = -1;
}

static inline void requeue(struct sl_o1 *o, int pi)
{
	int ai = o->t[pi].array;
	dequeue(o, pi);
	enqueue(o, pi, ai);
}

/* list_add_tail(&p->run_list, &parent->run_list): p just before parent */
static void insert_before(struct sl_o1 *o, int pi, int before)
{
	struct sl_o1_task *b = &o->t[before];
	sl_prio_insert_before(&o->rq[b->cpu].arrays[b->array], LINKS(o), pi, before, b->prio);
	o->t[pi].array = b->array;
}

static inline void activate_queue(struct sl_o1 *o, int pi, uint64_t now)
{
	/* __activate_task: active, or expired for SCHED_BATCH */
	struct sl_o1_task *p = &o->t[pi];
	struct sl_o1_rq *rq = &o->rq[p->cpu];
	enqueue(o, pi, p->policy == SL_O1_BATCH ? expired_idx(rq) : rq->active);
	rq->nr_running++;
	rq->raw_weighted_load += p->load_weight;
	stair(o, pi, now);
}

static inline void deactivate(struct sl_o1 *o, int pi)
{
	struct sl_o1_task *p = &o->t[pi];
	struct sl_o1_rq *rq = &o->rq[p->cpu];
	rq->nr_running--;
	rq->raw_weighted_load -= p->load_weight;
	dequeue(o, pi);
}

/* ---- priorities ---- */

static inline int normal_prio(const struct sl_o1 *o, const struct sl_o1_task *p)
{
	if (rt_policy(p))
		return sl_rt_prio(p->rt_prio); /* MAX_RT_PRIO - 1 - rt_priority */
	return sl_o1_normal_prio(&o->c, p->static_prio, p->sleep_avg);
}

static inline int effective_prio(const struct sl_o1 *o, struct sl_o1_task *p)
{
	p->normal_prio = (int16_t)normal_prio(o, p);
	return p->normal_prio; /* no PI boosting in the model */
}

static inline int task_interactive(const struct sl_o1_task *p)
{
	return sl_o1_task_interactive(p->prio, p->static_prio);
}

/* recalc_task_prio (§2.3 step 4b) */
static inline int recalc_task_prio(struct sl_o1 *o, struct sl_o1_task *p, uint64_t now)
{
	uint64_t sleep_time = now > p->timestamp ? now - p->timestamp : 0;
	if (p->policy == SL_O1_BATCH)
		sleep_time = 0;
	if (sleep_time > 0) {
		uint64_t ceiling = sl_o1_interactive_sleep(&o->c, p->static_prio);
		if (!p->kthread && sleep_time > ceiling && p->sleep_avg < ceiling) {
			/* one long sleep only lifts a user task to "just
			 * interactive", and the on-runqueue credit is off */
			p->sleep_avg = ceiling;
			p->sleep_type = SL_O1_SLEEP_NONINTERACTIVE;
		} else {
			if (p->sleep_type == SL_O1_SLEEP_NONINTERACTIVE && !p->kthread) {
				if (p->sleep_avg >= ceiling) {
					sleep_time = 0;
				} else if (p->sleep_avg + sleep_time >= ceiling) {
					p->sleep_avg = ceiling;
					sleep_time = 0;
				}
			}
			p->sleep_avg += sleep_time;
		}
		if (p->sleep_avg > o->c.ns_max_sleep_avg)
			p->sleep_avg = o->c.ns_max_sleep_avg;
	}
	return effective_prio(o, p);
}

static int expired_starving(const struct sl_o1 *o, const struct sl_o1_rq *rq, uint64_t jif)
{
	if (rq->curr >= 0 && o->t[rq->curr].static_prio > rq->best_expired_prio)
		return 1;
	if (!rq->expired_timestamp)
		return 0;
	return jif - rq->expired_timestamp >
	       (uint64_t)o->c.starvation_limit * (uint64_t)rq->nr_running;
}

static inline int curr_prio(const struct sl_o1 *o, const struct sl_o1_rq *rq)
{
	return rq->curr >= 0 ? o->t[rq->curr].prio : IDLE_PRIO;
}

/* ---- lifecycle ---- */

int sl_o1_init(struct sl_o1 *o, size_t ntasks, int ncpus, int hz)
{
	size_t i;
	int c;
	memset(o, 0, sizeof(*o));
	if (ncpus < 1 || ncpus > 4096 || sl_o1_const_init(&o->c, hz) < 0)
		return -1;
	o->ncpus = ncpus;
	o->nt = ntasks;
	/* one task per 64-byte cache line: with calloc's 16-byte alignment
	 * most tasks straddled two lines, and every decision touches several
	 * tasks (tests/bench/40-o1.sh: 1 000 and 10 000 runnable tasks) */
	o->t = xcalloc_aligned(64, ntasks ? ntasks : 1, sizeof(*o->t));
	sl_prio_links_init(LINKS(o), ntasks);
	for (i = 0; i < ntasks; i++) {
		o->t[i].array = -1;
		o->t[i].parent = -1;
		o->t[i].rec_level = -1;
		o->t[i].static_prio = o->t[i].prio = o->t[i].normal_prio = 120;
	}
	o->rq = xcalloc((size_t)ncpus, sizeof(*o->rq));
	for (c = 0; c < ncpus; c++) {
		sl_prio_init(&o->rq[c].arrays[0]);
		sl_prio_init(&o->rq[c].arrays[1]);
		o->rq[c].curr = -1;
		o->rq[c].best_expired_prio = SL_O1_MAX_PRIO;
	}
	return 0;
}

void sl_o1_release(struct sl_o1 *o)
{
	if (!o)
		return;
	free(o->t);
	free(o->rq);
	o->t = NULL;
	o->rq = NULL;
}

uint64_t sl_o1_jiffies(const struct sl_o1 *o, uint64_t now)
{
	return now / o->c.jiffy_ns + 1;
}

void sl_o1_task_setup(struct sl_o1 *o, int pi, int nice, int policy, int rt_prio,
		      int kthread, int cpu, uint64_t now)
{
	struct sl_o1_task *p = &o->t[pi];
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	p->static_prio = (int16_t)(120 + nice);
	p->policy = (uint8_t)(policy >= 0 && policy <= 3 ? policy : SL_O1_NORMAL);
	p->rt_prio = (int16_t)(rt_policy(p) ? sl_rt_priority(rt_prio) : 0);
	p->kthread = (uint8_t)!!kthread;
	p->cpu = cpu;
	p->sleep_avg = 0;
	p->sleep_type = SL_O1_SLEEP_NORMAL;
	p->prio = (int16_t)effective_prio(o, p);
	p->time_slice = sl_o1_timeslice(&o->c, p->static_prio);
	p->first_time_slice = 0;
	p->load_weight = sl_o1_load_weight(&o->c, p->static_prio, rt_policy(p), p->rt_prio);
	p->timestamp = now;
	p->alive = 1;
	p->parent = -1;
}

uint64_t sl_o1_warm_sleep_avg(const struct sl_o1 *o, int static_prio, int kthread,
			      const struct sl_phase *ph, size_t n)
{
	uint64_t sa = 0, max = o->c.ns_max_sleep_avg;
	uint64_t ceiling = sl_o1_interactive_sleep(&o->c, static_prio);
	size_t k;
	for (k = 0; k < n; k++) {
		uint64_t run = ph[k].run_ns == SL_INF || ph[k].run_ns > max ? max : ph[k].run_ns;
		uint64_t sleep = ph[k].sleep_ns;
		int b = sl_o1_bonus(&o->c, sa);
		/* schedule(): run_time /= (CURRENT_BONUS(prev) ? : 1) */
		run /= (uint64_t)(b ? b : 1);
		sa = sa > run ? sa - run : 0;
		if ((ph[k].end != SL_END_SLEEP_S && ph[k].end != SL_END_SLEEP_D) || sleep == SL_INF ||
		    !sleep)
			continue;
		/* recalc_task_prio, the sleep classified as sl_o1_wake does */
		if (!kthread && sleep > ceiling && sa < ceiling) {
			sa = ceiling;
		} else if ((ph[k].end == SL_END_SLEEP_D || ph[k].pipe) && !kthread) {
			if (sa < ceiling)
				sa = sa + sleep >= ceiling ? ceiling : sa + sleep;
		} else {
			sa += sleep;
		}
		if (sa > max)
			sa = max;
	}
	return sa;
}

/* ---- §2.3 wake-up ---- */

int sl_o1_wake(struct sl_o1 *o, int pi, int cpu, uint64_t now, int uninterruptible,
	       int noninteractive, int in_irq)
{
	struct sl_o1_task *p = &o->t[pi];
	struct sl_o1_rq *rq = &o->rq[cpu];
	if (p->array >= 0)
		return 0; /* already queued: nothing to do */
	p->cpu = cpu;
	/* 3. classify the sleep */
	if (uninterruptible)
		p->sleep_type = SL_O1_SLEEP_NONINTERACTIVE;
	else if (noninteractive)
		p->sleep_type = SL_O1_SLEEP_NONINTERACTIVE;
	/* 4. activate_task; RT tasks skip a-d */
	if (!is_rt(p)) {
		p->prio = (int16_t)recalc_task_prio(o, p, now);
		if (p->sleep_type == SL_O1_SLEEP_NORMAL)
			p->sleep_type = in_irq ? SL_O1_SLEEP_INTERRUPTED : SL_O1_SLEEP_INTERACTIVE;
		p->timestamp = now;
	}
	activate_queue(o, pi, now);
	/* 5. strict-priority preemption */
	if (p->prio < curr_prio(o, rq)) {
		rq->need_resched = 1;
		return 1;
	}
	return 0;
}

/* ---- §2.4 schedule() ---- */

static void array_switch(struct sl_o1 *o, struct sl_o1_rq *rq, uint64_t now)
{
	struct sl_prio_array *a;
	int q, pi;
	rq->active = expired_idx(rq);
	rq->expired_timestamp = 0;
	rq->best_expired_prio = SL_O1_MAX_PRIO;
	if (!o->stair)
		return;
	a = &rq->arrays[rq->active]; /* every task there is now "active" */
	for (q = sl_prio_first(a); q < IDLE_PRIO; q++)
		for (pi = a->head[q]; pi >= 0; pi = o->t[pi].link.next)
			stair(o, pi, now);
}

/* steps 1 and 8 for the current task: run_time since its timestamp (capped
 * at NS_MAX_SLEEP_AVG) divided by its bonus is debited from sleep_avg;
 * timestamp = now. Nothing in between (the pick and the on-runqueue credit
 * of another task) reads or changes prev's sleep_avg, so charging first is
 * the kernel's order. */
static inline void charge_curr(struct sl_o1 *o, struct sl_o1_rq *rq, uint64_t now)
{
	struct sl_o1_task *pp;
	uint64_t run_time;
	int b;
	if (rq->curr < 0 || rq->curr_charged)
		return;
	pp = &o->t[rq->curr];
	b = sl_o1_bonus(&o->c, pp->sleep_avg);
	run_time = now > pp->timestamp ? now - pp->timestamp : 0;
	if (run_time > o->c.ns_max_sleep_avg)
		run_time = o->c.ns_max_sleep_avg;
	run_time = (uint32_t)run_time / (uint32_t)(b ? b : 1); /* <= 1e9: 32-bit division */
	pp->sleep_avg = pp->sleep_avg > run_time ? pp->sleep_avg - run_time : 0;
	pp->timestamp = now;
	rq->curr_charged = 1;
}

void sl_o1_block(struct sl_o1 *o, int cpu, uint64_t now, int exiting)
{
	struct sl_o1_rq *rq = &o->rq[cpu];
	int prev = rq->curr;
	if (prev < 0)
		return;
	charge_curr(o, rq, now);
	/* 2. deactivate: sleep_avg, time_slice and sleep_type are kept */
	if (o->t[prev].array >= 0)
		deactivate(o, prev);
	if (exiting)
		o->t[prev].alive = 0;
}

int sl_o1_schedule(struct sl_o1 *o, int cpu, uint64_t now, int prev_leaves)
{
	struct sl_o1_rq *rq = &o->rq[cpu];
	int prev = rq->curr, next = -1;

	if (prev_leaves)
		sl_o1_block(o, cpu, now, prev_leaves == 2);
	charge_curr(o, rq, now); /* steps 1 and 8 */
	/* 3. nothing runnable: idle */
	if (!rq->nr_running) {
		rq->expired_timestamp = 0;
		goto switch_tasks;
	}
	/* 4. array switch */
	if (!rq->arrays[rq->active].nr_active)
		array_switch(o, rq, now);
	/* 5. pick */
	{
		struct sl_prio_array *a = &rq->arrays[rq->active];
		struct sl_o1_task *n;
		int q = sl_prio_first(a);
		if (q >= IDLE_PRIO) /* nr_running disagrees with the lists: a bug */
			goto switch_tasks;
		next = a->head[q];
		n = &o->t[next];
		/* the task after it is touched when it leaves the list: fetch
		 * its line now (pure speed; no effect on the model) */
		if (n->link.next >= 0)
			__builtin_prefetch(&o->t[n->link.next], 1);
		/* 6. on-runqueue credit, once per wake-up */
		if (!is_rt(n) && (n->sleep_type == SL_O1_SLEEP_INTERACTIVE ||
				  n->sleep_type == SL_O1_SLEEP_INTERRUPTED)) {
			uint64_t delta = now > n->timestamp ? now - n->timestamp : 0;
			int np;
			if (n->sleep_type == SL_O1_SLEEP_INTERACTIVE)
				delta = delta * (SL_O1_ON_RUNQUEUE_WEIGHT * 128 / 100) / 128;
			np = recalc_task_prio(o, n, n->timestamp + delta);
			if (np != n->prio) {
				int ai = n->array;
				dequeue(o, next);
				n->prio = (int16_t)np;
				enqueue(o, next, ai);
				stair(o, next, now);
			}
		}
		n->sleep_type = SL_O1_SLEEP_NORMAL;
	}
switch_tasks:
	/* 9. switch */
	if (next != prev) {
		if (next >= 0)
			o->t[next].timestamp = now;
		rq->nr_switches++;
		rq->curr = next;
	}
	rq->curr_charged = 0;
	rq->need_resched = 0;
	return next;
}

/* ---- §2.5 scheduler tick ---- */

/* task_running_tick for the running task p */
static inline void running_tick(struct sl_o1 *o, struct sl_o1_rq *rq, int pi, uint64_t now)
{
	struct sl_o1_task *p = &o->t[pi];
	uint64_t jif;
	/* 2. already expired but not switched out yet */
	if (p->array != rq->active) {
		rq->need_resched = 1;
		return;
	}
	/* 3. real time */
	if (is_rt(p)) {
		if (p->policy == SL_O1_RR && !--p->time_slice) {
			p->time_slice = sl_o1_timeslice(&o->c, p->static_prio);
			p->first_time_slice = 0;
			rq->need_resched = 1;
			requeue(o, pi);
		}
		return;
	}
	/* 4. time-slice expiry */
	if (!--p->time_slice) {
		jif = sl_o1_jiffies(o, now); /* (a division: only here) */
		dequeue(o, pi);
		rq->need_resched = 1;
		p->prio = (int16_t)effective_prio(o, p); /* sleep_avg of the last schedule() */
		p->time_slice = sl_o1_timeslice(&o->c, p->static_prio);
		p->first_time_slice = 0;
		if (!rq->expired_timestamp)
			rq->expired_timestamp = jif;
		if (!task_interactive(p) || expired_starving(o, rq, jif)) {
			enqueue(o, pi, expired_idx(rq));
			if (p->static_prio < rq->best_expired_prio)
				rq->best_expired_prio = p->static_prio;
		} else {
			enqueue(o, pi, rq->active);
		}
		stair(o, pi, now);
		return;
	}
	/* 5. interactive round-robin every TIMESLICE_GRANULARITY */
	if (task_interactive(p)) {
		int g = sl_o1_granularity(&o->c, p->sleep_avg, o->ncpus);
		int used = sl_o1_timeslice(&o->c, p->static_prio) - p->time_slice;
		if (p->time_slice >= g && p->array == rq->active && used % g == 0) {
			requeue(o, pi);
			rq->need_resched = 1;
		}
	}
}

int sl_o1_tick(struct sl_o1 *o, int cpu, uint64_t now)
{
	struct sl_o1_rq *rq = &o->rq[cpu];
	if (rq->curr >= 0)
		running_tick(o, rq, rq->curr, now);
	return rq->need_resched;
}

/* ---- §2.7 fork and exit ---- */

int sl_o1_fork(struct sl_o1 *o, int parent, int child, int cpu, uint64_t now, int clone_vm)
{
	struct sl_o1_task *pp = &o->t[parent], *c = &o->t[child];
	struct sl_o1_rq *rq = &o->rq[cpu], *prq = &o->rq[pp->cpu];
	int running = pp->alive && prq->curr == parent;
	int b, resched = 0;

	/* sched_fork: the child inherits sleep_avg and sleep_type and gets half
	 * the slice, rounded up. Its nice, policy and load weight are the ones
	 * it was set up with (sl_o1_task_setup): the recorded values, which
	 * equal the parent's unless it was reniced later. */
	c->sleep_avg = pp->sleep_avg;
	c->sleep_type = pp->sleep_type;
	c->parent = parent;
	c->alive = 1;
	c->cpu = cpu;
	c->prio = pp->normal_prio;
	c->array = -1;
	c->link.next = c->link.prev = -1;
	c->time_slice = (pp->time_slice + 1) >> 1;
	c->first_time_slice = 1;
	pp->time_slice >>= 1;
	c->timestamp = now;
	if (!pp->time_slice) {
		/* one jiffy left: the running parent expires through the tick
		 * path (a parent that is not running keeps 1 and expires at its
		 * next tick) */
		pp->time_slice = 1;
		if (running)
			running_tick(o, prq, parent, now);
	}
	/* wake_up_new_task: CHILD_PENALTY, quantised to the bonus */
	b = sl_o1_bonus(&o->c, c->sleep_avg);
	c->sleep_avg = (uint64_t)(b * SL_O1_CHILD_PENALTY / 100 * o->c.max_sleep_avg /
				  SL_O1_MAX_BONUS) * o->c.jiffy_ns;
	c->prio = (int16_t)effective_prio(o, c);
	if (cpu == pp->cpu && !clone_vm && pp->array >= 0 &&
	    c->static_prio == pp->static_prio && c->policy == pp->policy) {
		/* child runs first: just before the parent in its list */
		c->prio = pp->prio;
		c->normal_prio = pp->normal_prio;
		insert_before(o, child, parent);
		rq->nr_running++;
		rq->raw_weighted_load += c->load_weight;
		stair(o, child, now);
	} else {
		activate_queue(o, child, now);
	}
	if (cpu == pp->cpu && running) {
		if (!clone_vm)
			resched = 1; /* set_need_resched() on the parent */
	} else if (c->prio < curr_prio(o, rq)) {
		resched = 1; /* other CPU (or a parent not running): preempt test */
	}
	if (resched)
		rq->need_resched = 1;
	/* PARENT_PENALTY 100 %: the parent's sleep_avg quantised to its bonus */
	b = sl_o1_bonus(&o->c, pp->sleep_avg);
	pp->sleep_avg = (uint64_t)(b * SL_O1_PARENT_PENALTY / 100 * o->c.max_sleep_avg /
				   SL_O1_MAX_BONUS) * o->c.jiffy_ns;
	return resched || prq->need_resched;
}

void sl_o1_exit(struct sl_o1 *o, int child)
{
	struct sl_o1_task *c = &o->t[child], *pp;
	if (c->parent < 0 || (size_t)c->parent >= o->nt)
		return;
	pp = &o->t[c->parent];
	if (!pp->alive)
		return;
	if (c->first_time_slice && c->cpu == pp->cpu) {
		int cap = sl_o1_timeslice(&o->c, c->static_prio); /* the child's nice */
		pp->time_slice += c->time_slice;
		if (pp->time_slice > cap)
			pp->time_slice = cap;
	}
	if (c->sleep_avg < pp->sleep_avg)
		pp->sleep_avg = pp->sleep_avg / (SL_O1_EXIT_WEIGHT + 1) * SL_O1_EXIT_WEIGHT +
				c->sleep_avg / (SL_O1_EXIT_WEIGHT + 1);
}

/* ---- §2.8 yield, nice; §2.9 migration ---- */

void sl_o1_yield(struct sl_o1 *o, int pi, uint64_t now)
{
	struct sl_o1_task *p = &o->t[pi];
	struct sl_o1_rq *rq = &o->rq[p->cpu];
	int target = is_rt(p) ? rq->active : expired_idx(rq);
	if (p->array < 0)
		return;
	if (p->array != target) {
		dequeue(o, pi);
		enqueue(o, pi, target); /* expired_timestamp/best_expired_prio untouched */
	} else {
		requeue(o, pi);
	}
	rq->need_resched = 1;
	stair(o, pi, now);
}

int sl_o1_steal(struct sl_o1 *o, int src, int (*ok)(void *ctx, int task), void *ctx)
{
	struct sl_o1_rq *rq = &o->rq[src];
	int k, q, pi;
	/* move_tasks: expired first, best priority first, each list from
	 * its tail; the running task never moves */
	for (k = 0; k < 2; k++) {
		int ai = k ? rq->active : expired_idx(rq);
		struct sl_prio_array *a = &rq->arrays[ai];
		if (!a->nr_active)
			continue;
		for (q = sl_prio_first(a); q < IDLE_PRIO; q++) {
			if (a->head[q] < 0)
				continue;
			for (pi = a->tail[q]; pi >= 0; pi = o->t[pi].link.prev) {
				if (pi == rq->curr || (ok && !ok(ctx, pi)))
					continue;
				o->t[pi].mig_expired = (uint8_t)(ai != rq->active);
				deactivate(o, pi);
				return pi;
			}
		}
	}
	return -1;
}

int sl_o1_enqueue_migrated(struct sl_o1 *o, int pi, int dst, uint64_t now)
{
	struct sl_o1_task *p = &o->t[pi];
	struct sl_o1_rq *drq = &o->rq[dst];
	p->cpu = dst;
	enqueue(o, pi, p->mig_expired ? expired_idx(drq) : drq->active);
	drq->nr_running++;
	drq->raw_weighted_load += p->load_weight;
	stair(o, pi, now);
	return p->prio < curr_prio(o, drq);
}

int sl_o1_migrate(struct sl_o1 *o, int pi, int dst, uint64_t now)
{
	struct sl_o1_task *p = &o->t[pi];
	struct sl_o1_rq *src = &o->rq[p->cpu];
	if (p->array < 0 || src->curr == pi || dst == p->cpu)
		return 0;
	p->mig_expired = (uint8_t)(p->array != src->active);
	deactivate(o, pi);
	if (sl_o1_enqueue_migrated(o, pi, dst, now)) {
		o->rq[dst].need_resched = 1;
		return 1;
	}
	return 0;
}

int sl_o1_set_nice(struct sl_o1 *o, int pi, int nice, uint64_t now)
{
	struct sl_o1_task *p = &o->t[pi];
	struct sl_o1_rq *rq = &o->rq[p->cpu];
	int ai = p->array, old, delta;
	if (nice < -20 || nice > 19 || p->static_prio == 120 + nice)
		return 0;
	if (rt_policy(p)) {
		p->static_prio = (int16_t)(120 + nice);
		return 0;
	}
	if (ai >= 0) {
		dequeue(o, pi);
		rq->raw_weighted_load -= p->load_weight;
	}
	p->static_prio = (int16_t)(120 + nice);
	p->load_weight = sl_o1_load_weight(&o->c, p->static_prio, 0, 0);
	old = p->prio;
	p->prio = (int16_t)effective_prio(o, p);
	delta = p->prio - old;
	if (ai >= 0) {
		enqueue(o, pi, ai);
		rq->raw_weighted_load += p->load_weight;
		stair(o, pi, now);
		if (delta < 0 || (delta > 0 && rq->curr == pi)) {
			rq->need_resched = 1;
			return 1;
		}
	}
	return 0;
}

/* ---- invariants ---- */

struct check_load {
	const struct sl_o1 *o;
	unsigned long load;
};

/* a queued task's own fields agree with the list it is on; ctx: the
 * sum of the load weights so far */
static int check_task(void *ctx, int pi, int cpu, int array, int q)
{
	struct check_load *k = ctx;
	const struct sl_o1_task *p = &k->o->t[pi];
	k->load += p->load_weight;
	return p->array == array && p->cpu == cpu && p->prio == q;
}

int sl_o1_check(const struct sl_o1 *o, int cpu, char *msg, size_t msglen)
{
	int c, k;
	size_t i;
	for (c = 0; c < o->ncpus; c++) {
		if (cpu >= 0 && c != cpu)
			continue;
		const struct sl_o1_rq *rq = &o->rq[c];
		struct check_load ck = { o, 0 };
		long queued = 0;
		for (k = 0; k < 2; k++) {
			char why[128];
			long n;
			n = sl_prio_check(&rq->arrays[k], LINKS(o), (long)o->nt, c, k, check_task, &ck, why,
					  sizeof(why));
			if (n < 0) {
				snprintf(msg, msglen, "cpu %d array %d: %s", c, k, why);
				return -1;
			}
			queued += n;
		}
		if (queued != rq->nr_running || ck.load != rq->raw_weighted_load) {
			snprintf(msg, msglen, "cpu %d: nr_running %d load %lu, counted %ld %lu", c, rq->nr_running, rq->raw_weighted_load, queued, ck.load);
			return -1;
		}
		if (rq->curr >= 0 && !rq->curr_charged &&
		    (o->t[rq->curr].cpu != c || !o->t[rq->curr].alive || o->t[rq->curr].array < 0)) {
			snprintf(msg, msglen, "cpu %d: current task %d not queued on this cpu or dead", c, rq->curr);
			return -1;
		}
	}
	for (i = 0; i < o->nt; i++) {
		const struct sl_o1_task *p = &o->t[i];
		if (cpu >= 0 && p->cpu != cpu)
			continue;
		if (p->sleep_avg > o->c.ns_max_sleep_avg || (p->alive && p->time_slice < 1)) {
			snprintf(msg, msglen, "task %zu: sleep_avg %llu or time_slice %d out of range", i,
				 (unsigned long long)p->sleep_avg, (int)p->time_slice);
			return -1;
		}
	}
	return 0;
}
