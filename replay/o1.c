/* replay/o1.c - the Linux 2.6.20 O(1) scheduler as a replay policy
 * (`--sched o1`): the engine's hooks (policy.h) mapped onto the kernel
 * operations of o1_rq.c. docs/o1.md describes the model and how the facts of
 * a real trace's wakeups are classified. */
#include "engine.h"
#include "o1_rq.h"

#include <stdlib.h>

enum { P_UNKNOWN_IRQ, P_SLEEP_AVG0, P_WARM };

static const struct sl_policy_param o1_params[] = {
	[P_UNKNOWN_IRQ] = SL_PARAM_FLAG("unknown_waker_irq", 0,
		"1: a wakeup whose waker is unknown counts as from interrupt context "
		"(INTERRUPTED, full on-runqueue credit); 0: as from a task (INTERACTIVE)"),
	[P_SLEEP_AVG0] = { "initial_sleep_avg_ms", 0, 0, 1000,
		"sleep_avg of tasks that appear without a modelled fork (trace start, "
		"workload lines) and not warm-started" },
	[P_WARM] = { "warm_start", 1, 0, 2,
		"which trace tasks not forked in the trace start with the sleep_avg "
		"their own recorded bursts and sleeps give them (docs/o1.md): 1 kernel "
		"threads, 2 every task, 0 none (initial_sleep_avg_ms)" },
	{ NULL, 0, 0, 0, NULL },
};

struct o1_run {
	struct sl_o1 o;
	struct sl_engine *e;
	int *sync_local;  /* per CPU: the last enqueue was a sync local wakeup */
	int *in_transit;  /* per CPU: tasks stolen from it, not yet enqueued */
};

static struct o1_run *run_of(struct sl_engine *e)
{
	return e->pol;
}

/* staircase rows and the task's prio for sched_slice rows */
static void stair_cb(void *ctx, int task, uint64_t ts, int prio, int array)
{
	struct sl_engine *e = ctx;
	struct sl_task *p = &e->tasks[task];
	(void)ts; /* always e->now */
	p->prio = prio;
	if (prio >= SL_O1_MAX_RT_PRIO)
		sl_engine_staircase(e, p, prio - SL_O1_MAX_RT_PRIO, array);
}

static void sync_prio(struct sl_engine *e, struct sl_task *p)
{
	p->prio = run_of(e)->o.t[p->idx].prio;
}

/* pass a resched the model asked for on cpu to the engine */
static void flush_resched(struct sl_engine *e, int cpu)
{
	struct sl_o1_rq *rq = &run_of(e)->o.rq[cpu];
	if (rq->need_resched) {
		rq->need_resched = 0;
		sl_engine_resched(e, cpu);
	}
}

static int o1_init(struct sl_engine *e)
{
	struct o1_run *r = xcalloc(1, sizeof(*r));
	if (sl_o1_init(&r->o, e->ntasks, e->ncpus, e->hz) < 0) {
		free(r);
		return sl_engine_fail(e, "o1: hz %d not supported (10..10000)", e->hz);
	}
	r->e = e;
	/* the staircase rows, if the run keeps them (without them the model
	 * skips its row bookkeeping: the engine's p->prio is kept by
	 * sync_prio after every hook that may change a prio) */
	r->o.stair = sl_engine_wants_staircase(e) ? stair_cb : NULL;
	r->o.stair_ctx = e;
	r->sync_local = xcalloc((size_t)e->ncpus, sizeof(int));
	r->in_transit = xcalloc((size_t)e->ncpus, sizeof(int));
	sl_engine_set_policy(e, r, NULL, r->in_transit);
	return 0;
}

static void o1_release(struct sl_engine *e)
{
	struct o1_run *r = run_of(e);
	sl_o1_release(&r->o); /* the tasks' pol pointed into r->o.t */
	free(r->sync_local);
}

static void o1_task_init(struct sl_engine *e, struct sl_task *p)
{
	struct sl_o1 *o = &run_of(e)->o;
	struct sl_o1_task *t = &o->t[p->idx];
	sl_o1_task_setup(o, p->idx, p->nice, p->sched_policy, p->rt_prio,
			 !!(p->flags & SL_TASK_KTHREAD), p->cpu >= 0 ? p->cpu : 0, e->now);
	if (t->policy != SL_O1_BATCH && !(t->policy == SL_O1_FIFO || t->policy == SL_O1_RR)) {
		t->sleep_avg = (uint64_t)sl_engine_param(e, P_SLEEP_AVG0) * 1000000ULL;
		if (t->sleep_avg > o->c.ns_max_sleep_avg)
			t->sleep_avg = o->c.ns_max_sleep_avg;
		/* warm start: its history taken to be like its recording */
		if ((sl_engine_param(e, P_WARM) == 2 || (sl_engine_param(e, P_WARM) == 1 && t->kthread)) &&
		    p->spec && p->spec->nphases && !(p->flags & SL_TASK_FORKED))
			t->sleep_avg = sl_o1_warm_sleep_avg(o, t->static_prio, t->kthread,
							    p->spec->phases, p->spec->nphases);
		t->prio = (int16_t)sl_o1_normal_prio(&o->c, t->static_prio, t->sleep_avg);
		t->normal_prio = t->prio;
	}
	p->pol = t;
	p->load_weight = t->load_weight;
	p->prio = t->prio;
}

static void o1_enqueue(struct sl_engine *e, int cpu, struct sl_task *p,
		       const struct sl_enq_info *w)
{
	struct o1_run *r = run_of(e);
	struct sl_o1 *o = &r->o;
	r->sync_local[cpu] = 0;
	switch (w->kind) {
	case SL_ENQ_WAKE: {
		int irq = w->waker_kind == SL_WAKER_IRQ || w->waker_kind == SL_WAKER_IDLE ||
			  (w->waker_kind == SL_WAKER_NONE && sl_engine_param(e, P_UNKNOWN_IRQ));
		sl_o1_wake(o, p->idx, cpu, e->now, w->sleep_state == 'D', w->pipe, irq);
		o->rq[cpu].need_resched = 0; /* the engine asks check_preempt() */
		r->sync_local[cpu] = w->sync && w->waker_cpu == cpu;
		break;
	}
	case SL_ENQ_MIGRATE:
		if (w->src_cpu >= 0 && w->src_cpu < e->ncpus && r->in_transit[w->src_cpu] > 0)
			r->in_transit[w->src_cpu]--;
		sl_o1_enqueue_migrated(o, p->idx, cpu, e->now);
		break;
	default: /* SL_ENQ_START: a new task, no sleep credit */
		o->t[p->idx].cpu = cpu;
		o->t[p->idx].timestamp = e->now;
		o->t[p->idx].alive = 1;
		sl_o1_wake(o, p->idx, cpu, e->now, 0, 0, 0);
		o->t[p->idx].sleep_type = SL_O1_SLEEP_NORMAL;
		o->rq[cpu].need_resched = 0;
		break;
	}
	sync_prio(e, p);
}

static void o1_dequeue(struct sl_engine *e, int cpu, struct sl_task *p, char state)
{
	struct sl_o1 *o = &run_of(e)->o;
	(void)p;
	sl_o1_block(o, cpu, e->now, state == 'X');
}

static int o1_check_preempt(struct sl_engine *e, int cpu, struct sl_task *p)
{
	struct o1_run *r = run_of(e);
	struct sl_o1_rq *rq = &r->o.rq[cpu];
	int curr_prio = rq->curr >= 0 ? r->o.t[rq->curr].prio : SL_O1_MAX_PRIO;
	if (r->sync_local[cpu])
		return 0; /* sync wakeup onto the waker's CPU: no preemption */
	return r->o.t[p->idx].prio < curr_prio;
}

static struct sl_task *o1_pick_next(struct sl_engine *e, int cpu, struct sl_task *prev)
{
	struct sl_o1 *o = &run_of(e)->o;
	int next;
	(void)prev; /* the model's rq->curr is the same task */
	next = sl_o1_schedule(o, cpu, e->now, 0);
	if (next < 0)
		return NULL;
	sync_prio(e, &e->tasks[next]);
	return &e->tasks[next];
}

static void o1_tick(struct sl_engine *e, int cpu, struct sl_task *curr)
{
	struct sl_o1 *o = &run_of(e)->o;
	sl_o1_tick(o, cpu, e->now);
	sync_prio(e, curr);
	flush_resched(e, cpu);
}

static void o1_fork(struct sl_engine *e, struct sl_task *parent, struct sl_task *child, int cpu)
{
	struct sl_o1 *o = &run_of(e)->o;
	int pcpu = o->t[parent->idx].cpu;
	/* a thread shares its parent's mm (CLONE_VM): same tgid, not a leader */
	int clone_vm = child->spec && parent->spec && child->spec->tgid > 0 &&
		       child->spec->tgid == parent->spec->tgid &&
		       child->spec->tid != child->spec->tgid;
	sl_o1_fork(o, parent->idx, child->idx, cpu, e->now, clone_vm);
	sync_prio(e, parent);
	sync_prio(e, child);
	child->load_weight = o->t[child->idx].load_weight;
	flush_resched(e, cpu);
	if (pcpu != cpu)
		flush_resched(e, pcpu);
}

static void o1_task_exit(struct sl_engine *e, struct sl_task *p, struct sl_task *parent)
{
	struct sl_o1 *o = &run_of(e)->o;
	if (!parent)
		return;
	o->t[p->idx].parent = parent->idx;
	sl_o1_exit(o, p->idx);
}

static void o1_yield(struct sl_engine *e, int cpu, struct sl_task *p)
{
	struct sl_o1 *o = &run_of(e)->o;
	sl_o1_yield(o, p->idx, e->now);
	o->rq[cpu].need_resched = 0; /* the engine reschedules */
}

static void o1_set_nice(struct sl_engine *e, struct sl_task *p, int old_nice)
{
	struct sl_o1 *o = &run_of(e)->o;
	(void)old_nice;
	sl_o1_set_nice(o, p->idx, p->nice, e->now);
	p->load_weight = o->t[p->idx].load_weight;
	sync_prio(e, p);
	flush_resched(e, o->t[p->idx].cpu);
}

struct steal_ctx {
	struct sl_engine *e;
	int dst;
};

static int steal_ok(void *ctx, int task)
{
	struct steal_ctx *s = ctx;
	return sl_engine_may_migrate(s->e, &s->e->tasks[task], s->dst);
}

static struct sl_task *o1_steal(struct sl_engine *e, int src, int dst)
{
	struct steal_ctx s = { e, dst };
	int pi = sl_o1_steal(&run_of(e)->o, src, steal_ok, &s);
	if (pi < 0)
		return NULL;
	/* the engine checks invariants before it moves the task off src in
	 * its own counts: count it there until it is enqueued on dst */
	run_of(e)->in_transit[src]++;
	return &e->tasks[pi];
}

static long o1_debug_count(struct sl_engine *e, int cpu)
{
	struct sl_o1 *o = &run_of(e)->o;
	char msg[256];
	if (sl_o1_check(o, cpu, msg, sizeof(msg)) < 0)
		return -1;
	return o->rq[cpu].nr_running + run_of(e)->in_transit[cpu];
}

const struct sl_policy_ops sl_policy_o1 = {
	.name = "o1",
	.doc = "Linux 2.6.20 O(1) scheduler with the sleep_avg interactivity estimator",
	.params = o1_params,
	.init = o1_init,
	.release = o1_release,
	.task_init = o1_task_init,
	.enqueue = o1_enqueue,
	.dequeue = o1_dequeue,
	.check_preempt = o1_check_preempt,
	.pick_next = o1_pick_next,
	.tick = o1_tick,
	.fork = o1_fork,
	.task_exit = o1_task_exit,
	.yield = o1_yield,
	.set_nice = o1_set_nice,
	.steal = o1_steal,
	.debug_count = o1_debug_count,
};
