/* replay/engine_run.c - a replay from start to end: the options checked,
 * the engine built from a behaviour (its tasks, the migration threads), run
 * by sl_eng_loop (engine.c) and released. See engine.h and docs/replay.md. */
#include "engine_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A replay to completion with more CPU work than this (~19.5 hours) would
 * take minutes: refuse it (a corrupt behaviour?) unless a duration is
 * given. */
#define MAX_WORK_NS (1ULL << 46)

static uint64_t task_total_work(const struct sl_task_spec *s)
{
	struct sl_phase ph;
	uint64_t sum = 0;
	size_t i;
	if (s->flags & (SL_TASK_IDLE | SL_TASK_EXCLUDED))
		return 0;
	if (!s->nphases) {
		if (!s->run_ns)
			return 0; /* no recorded work (a task seen without bursts) */
		if (s->run_ns == SL_INF || !s->count)
			return SL_INF;
		if (s->run_ns && s->count > (SL_INF - 1) / s->run_ns)
			return SL_INF;
		return s->run_ns * s->count;
	}
	for (i = 0; sl_task_phase(s, i, &ph) == 0; i++) {
		if (ph.run_ns == SL_INF || sum > SL_INF - 1 - ph.run_ns)
			return SL_INF;
		sum += ph.run_ns;
		if (ph.end == SL_END_EXIT || ph.end == SL_END_TRACE)
			break;
	}
	return sum;
}

/* The options a replay cannot run with; *ncpus: the replay's CPUs. */
static int check_opts(const struct sl_behaviour *b, const struct sl_policy_ops *ops,
		      const struct sl_replay_opts *o, int *ncpus, struct sl_diag *d)
{
	int n;
	if (!ops || !ops->enqueue || !ops->dequeue || !ops->pick_next || !ops->tick || !ops->fork ||
	    !ops->init || !ops->task_init)
		return sl_fail(d, "policy %s lacks a required hook", ops ? ops->name : "(null)");
	n = o->cpus > 0 ? o->cpus : (b->cpus > 0 ? b->cpus : 1);
	if (n > SL_ENGINE_MAX_CPUS)
		return sl_fail(d, "%d CPUs: at most %d supported", n, SL_ENGINE_MAX_CPUS);
	if (o->hz < 10 || o->hz > 100000)
		return sl_fail(d, "--hz %d: expected 10..100000", o->hz);
	if (o->nq < 0 || o->nq > SL_OVERHEAD_Q)
		return sl_fail(d, "%d overhead values: at most %d", o->nq, SL_OVERHEAD_Q);
	if (o->rr_interval_ns < 1000 || o->rr_interval_ns > 10 * SL_NS_PER_SEC)
		return sl_fail(d, "rr interval %llu ns: expected 1us..10s",
			       (unsigned long long)o->rr_interval_ns);
	if (o->sync_mode < SL_SYNC_BLOCK || o->sync_mode > SL_SYNC_GROUP)
		return sl_fail(d, "sync mode %d: expected block, exit, none or group", o->sync_mode);
	if (o->wake_cpu_mode != SL_WAKE_CPU_WAKER && o->wake_cpu_mode != SL_WAKE_CPU_RUNNING)
		return sl_fail(d, "wake cpu mode %d: expected waker or running", o->wake_cpu_mode);
	if (o->irq_cpu_mode < SL_IRQ_CPU_SLEEPER || o->irq_cpu_mode > SL_IRQ_CPU_REMOTE)
		return sl_fail(d, "irq cpu mode %d: expected auto, relative, remote, recorded or sleeper",
			       o->irq_cpu_mode);
	*ncpus = n;
	return 0;
}

/* The engine's settings from the options (nothing allocated). */
static void init_engine(struct sl_engine *e, struct sl_engine_priv *v, const struct sl_behaviour *b,
			const struct sl_policy_ops *ops, const struct sl_replay_opts *o, int ncpus,
			const struct sl_run_sink *sink, struct sl_diag *d)
{
	const char *env = getenv("SCHEDLAB_DEBUG");

	e->priv = v;
	v->d = d;
	v->sink = sink;
	v->debug = o->debug || (env && *env && strcmp(env, "0"));
#ifdef SL_ENGINE_DEBUG /* build flag: make CFLAGS="-O1 -g -DSL_ENGINE_DEBUG" */
	v->debug = !(env && !strcmp(env, "0"));
#endif
	v->duration = o->duration_ns;
	e->ops = ops;
	e->ncpus = ncpus;
	e->hz = o->hz;
	e->tick_ns = SL_NS_PER_SEC / (uint64_t)o->hz;
	/* the recording's tick phase, in the replay's time (0 = b->t0) */
	e->tick0_ns = e->tick_ns;
	if (o->tick_phase_ns >= 0) {
		uint64_t r0 = ((uint64_t)o->tick_phase_ns % e->tick_ns + e->tick_ns - b->t0 % e->tick_ns) %
			      e->tick_ns;
		e->tick0_ns = r0 ? r0 : e->tick_ns;
	}
	e->rr_interval_ns = o->rr_interval_ns;
	e->seed = o->seed;
	e->mode = o->mode;
	if (b->cpu_pelt && b->cpus == e->ncpus)
		e->cpu_pelt = b->cpu_pelt;
	if (ops->group_sched && !o->no_groups) {
		e->groups = b->groups;
		e->ngroups = b->ngroups;
	}
	v->o = o;
	v->irq_mode = sl_irq_cpu_mode_of(o->irq_cpu_mode);
	v->handback = o->mode == SL_MODE_CAUSAL && !o->no_handback;
	v->wall = !o->no_wall;
	v->lat_state = o->seed;
	v->allmask = ncpus >= 64 ? UINT64_MAX : ((1ULL << ncpus) - 1);
	v->onlinemask = v->allmask;
}

/* The late CPUs of the recording (b->cpu_up_ns) start offline unless
 * --late-cpus online: as the kernel's CPU hotplug (sched_cpu_activate,
 * kernel/sched/core.c, v6.6: a CPU joins cpu_active_mask when it comes up,
 * and no wakeup, fork or balancing places a task on an inactive CPU), none
 * of the replay's tasks may use one until its first recorded event, when
 * an EV_ONLINE brings it up. CPUs 64 and up (beyond the tasks' masks) are
 * always up; so is every CPU if none would be up at 0. */
static void late_cpus(struct sl_engine *e, const struct sl_behaviour *b, const struct sl_replay_opts *o)
{
	struct sl_engine_priv *v = e->priv;
	uint64_t up = v->allmask;
	int c, n = e->ncpus < b->cpus ? e->ncpus : b->cpus;
	if (!b->cpu_up_ns || o->late_cpus_mode == SL_LATE_CPUS_ONLINE)
		return;
	for (c = 0; c < n && c < 64; c++)
		if (b->cpu_up_ns[c])
			up &= ~(1ULL << c);
	if (!up)
		return;
	v->onlinemask = up;
	for (c = 0; c < n && c < 64; c++)
		if (b->cpu_up_ns[c] && b->cpu_up_ns[c] != UINT64_MAX)
			sl_evq_push(&v->q, b->cpu_up_ns[c], EV_ONLINE, (uint32_t)c, 0);
}

static uint64_t spec_mask(const struct sl_engine_priv *v, const struct sl_task_spec *s)
{
	uint64_t m = s->cpumask & v->allmask;
	return m ? m : v->allmask;
}

uint64_t sl_eng_task_mask(const struct sl_engine *e, const struct sl_task_spec *s)
{
	uint64_t m = spec_mask(e->priv, s) & e->priv->onlinemask;
	return m ? m : e->priv->onlinemask;
}

/* A mask only grows here (a task that fell back to the CPUs up keeps
 * them, as select_fallback_rq's widened affinity does), so no task is left
 * on a CPU it may no longer use. The count of queued tasks allowed on
 * every CPU up is made again. */
void sl_eng_cpu_online(struct sl_engine *e, int cpu)
{
	struct sl_engine_priv *v = e->priv;
	uint64_t bit = 1ULL << cpu;
	size_t i;
	v->onlinemask |= bit;
	for (i = 0; i < v->nreal; i++)
		if (spec_mask(v, e->tasks[i].spec) & bit)
			e->tasks[i].cpumask |= bit;
	if (!v->nr_free)
		return;
	memset(v->nr_free, 0, (size_t)e->ncpus * sizeof(*v->nr_free));
	for (i = 0; i < e->ntasks; i++)
		if (e->tasks[i].on_rq)
			sl_eng_count_free(e, &e->tasks[i], e->tasks[i].cpu, 1);
}

/* After the behaviour's tasks, a migration thread per CPU (2.6.20
 * migration_thread: SCHED_FIFO 99, pinned to its CPU; its masks name CPUs
 * 0..63 only) for active balancing. */
static void make_migration_specs(struct sl_engine_priv *v, const struct sl_behaviour *b, int ncpus)
{
	int c;
	v->nreal = b->ntasks;
	v->nmig = ncpus > 1 ? (ncpus < 64 ? ncpus : 64) : 0;
	if (v->nmig)
		v->mig_spec = xcalloc((size_t)v->nmig, sizeof(*v->mig_spec));
	for (c = 0; c < v->nmig; c++) {
		struct sl_task_spec *s = &v->mig_spec[c];
		s->idx = (int32_t)(b->ntasks + (size_t)c);
		snprintf(s->comm, sizeof(s->comm), "migration/%d", c);
		s->policy = SL_SCHED_FIFO;
		s->rt_prio = 99;
		s->cpumask = 1ULL << c;
		s->flags = SL_TASK_KTHREAD;
		s->parent = -1;
	}
}

/* The engine's tasks from their specs; fails for a replay to completion
 * without an end (or with too much work to finish in reasonable time). */
static int init_tasks(struct sl_engine *e, const struct sl_behaviour *b,
		      const struct sl_replay_opts *o, struct sl_diag *d)
{
	struct sl_engine_priv *v = e->priv;
	uint64_t work = 0;
	size_t i;
	int c;

	for (i = 0; i < e->ntasks; i++) {
		struct sl_task *p = &e->tasks[i];
		const struct sl_task_spec *s = i < b->ntasks ? &b->tasks[i] : &v->mig_spec[i - b->ntasks];
		p->eng = &v->tx[i];
		p->idx = (int)i;
		p->spec = s;
		p->nice = s->nice < -20 ? -20 : s->nice > 19 ? 19 : s->nice;
		p->static_prio = 120 + p->nice;
		p->sched_policy = s->policy;
		p->rt_prio = s->rt_prio;
		p->flags = s->flags;
		p->cpumask = i < b->ntasks ? sl_eng_task_mask(e, s) : spec_mask(v, s);
		/* where the trace first shows it: a task present at the start
		 * starts there, and one asleep until its first wakeup last ran
		 * there (docs/replay.md "The trace's start"); else the first
		 * CPU it may run on */
		c = sl_eng_start_cpu(e, p);
		if (c < 0)
			for (c = 0; c < e->ncpus; c++)
				if (sl_task_allowed(p, c))
					break;
		p->cpu = c;
		p->eng->rec_level = p->eng->rec_array = -1;
		p->eng->wake_waker = -1;
		p->eng->total_work = task_total_work(s);
		sl_eng_wall_init(p);
		p->prio = p->static_prio;
		if (p->eng->total_work == SL_INF && !o->duration_ns)
			return sl_fail(d, "task %zu (%s) never ends: a duration is needed", i, s->comm);
		if (!o->duration_ns && p->eng->total_work != SL_INF) {
			work += p->eng->total_work;
			if (work > MAX_WORK_NS || p->eng->total_work > MAX_WORK_NS)
				return sl_fail(d, "the tasks have more than %llu s of CPU work: give a duration",
					       (unsigned long long)(MAX_WORK_NS / SL_NS_PER_SEC));
		}
	}
	return 0;
}

/* The model and the SMP layer set up; every task's start queued (or its
 * causal wait for its parent). */
static int start_replay(struct sl_engine *e, const struct sl_behaviour *b,
			const struct sl_replay_opts *o, struct sl_diag *d)
{
	struct sl_engine_priv *v = e->priv;
	size_t i;

	sl_eng_handback_init(e);
	sl_eng_reap_init(e);
	if (e->ops->init(e)) {
		if (!v->failed)
			sl_fail(d, "%s: initialisation failed", e->ops->name);
		return -1;
	}
	for (i = 0; i < e->ntasks; i++)
		e->ops->task_init(e, &e->tasks[i]);
	sl_smp_init(e);
	if (o->sync)
		sl_sync_copy(o->sync, &v->sync);
	else
		sl_sync_infer(b, o->sync_mode, o->sync_window_ns, &v->sync);
	v->st.sync_inferred = v->sync.nsync;
	for (i = b->ntasks; i < e->ntasks; i++)
		e->tasks[i].state = SL_TS_SLEEPING; /* the migration threads */
	for (i = 0; i < b->ntasks; i++) {
		struct sl_task *p = &e->tasks[i];
		const struct sl_task_spec *s = p->spec;
		if (e->mode == SL_MODE_CAUSAL && s->parent >= 0 && (size_t)s->parent < e->ntasks &&
		    s->parent != (int32_t)i && s->parent_progress_ns > 0)
			sl_eng_wait_for(e, p, &e->tasks[s->parent], s->parent_progress_ns, s->start_ns, 1);
		else
			sl_eng_push_start(e, p, s->start_ns);
	}
	v->next_tick = e->tick0_ns;
	sl_hrt_init(e);
	CHECK_AFTER(e, "init");
	return 0;
}

/* What the engine allocated (any of it may be NULL: a replay that failed
 * on the way). */
static void release_engine(struct sl_engine *e)
{
	struct sl_engine_priv *v = e->priv;
	size_t i;

	sl_engine_release_policy(e);
	sl_smp_release(e);
	sl_hrt_release(e);
	for (i = 0; v->tx && i < e->ntasks; i++) {
		free(v->tx[i].waiters);
		free(v->tx[i].holds);
	}
	free(v->hb_pair);
	sl_eng_reap_release(e);
	free(v->tx);
	free(v->mig_spec);
	free(e->tasks);
	free(e->cpus);
	free(v->nr_free);
	free(v->waking);
	sl_sync_release(&v->sync);
	sl_evq_release(&v->q);
}

int sl_replay_run(const struct sl_behaviour *b, const struct sl_policy_ops *ops,
		  const struct sl_replay_opts *o, const struct sl_run_sink *sink,
		  struct sl_replay_stats *st, struct sl_diag *d)
{
	struct sl_engine eng, *e = &eng;
	struct sl_engine_priv priv;
	int c, rc, ncpus = 0;

	memset(e, 0, sizeof(*e));
	memset(&priv, 0, sizeof(priv));
	if (check_opts(b, ops, o, &ncpus, d))
		return -1;
	init_engine(e, &priv, b, ops, o, ncpus, sink, d);
	if (sl_eng_parse_policy_opts(ops, o->policy_opts, e->param, d))
		return -1; /* nothing allocated yet */
	late_cpus(e, b, o);
	if (o->nq > 0) {
		priv.waking = xcalloc(b->ntasks ? b->ntasks : 1, sizeof(*priv.waking));
	}
	if (ncpus > 1)
		priv.nr_free = xcalloc((size_t)ncpus, sizeof(*priv.nr_free));
	e->cpus = xcalloc((size_t)ncpus, sizeof(*e->cpus));
	for (c = 0; c < ncpus; c++)
		e->cpus[c].id = c;
	make_migration_specs(&priv, b, ncpus);
	e->ntasks = b->ntasks + (size_t)priv.nmig;
	e->tasks = xcalloc_aligned(64, e->ntasks, sizeof(*e->tasks));
	priv.tx = xcalloc_aligned(64, e->ntasks, sizeof(*priv.tx));
	if (init_tasks(e, b, o, d) || start_replay(e, b, o, d)) {
		release_engine(e);
		return -1;
	}
	sl_eng_loop(e);
	if (st)
		*st = priv.st;
	rc = priv.failed ? -1 : 0;
	release_engine(e);
	return rc;
}

/* --wake-cpu waker: a task's wakeup ran on its waker's CPU in the
 * recording; when the replayed waker is not running at the (timed) wakeup,
 * the CPU it is queued on or last ran on stands in for it (-1: not a task,
 * running, not yet started or gone, or --wake-cpu running) */
int sl_eng_waker_home(const struct sl_engine *e, int waker)
{
	const struct sl_task *w;
	if (waker < 0 || e->priv->o->wake_cpu_mode != SL_WAKE_CPU_WAKER)
		return -1;
	w = &e->tasks[waker];
	if (w->state == SL_TS_RUNNING || w->state == SL_TS_NEW || w->state == SL_TS_DONE)
		return -1;
	return w->cpu;
}

/* try_to_wake_up's this_cpu for an interrupt or idle wakeup ph of p under
 * --irq-cpu recorded, relative or remote: recorded: the recorded CPU folded
 * onto the replay's (--cpus may differ from the trace's); relative (and the
 * phase knows the CPU p slept on): p's own CPU when the interrupt fired on
 * the CPU it slept on (its own timer, as a rule: a 2.6.20 timer fires on
 * the CPU that armed it), else the CPU at the recorded offset from p's CPU;
 * remote (the same): p's own CPU when it fired on the CPU p slept on, else
 * the recorded CPU folded. -1: the sleeper's CPU. */
int sl_eng_irq_cpu(const struct sl_engine *e, const struct sl_task *p, const struct sl_phase *ph)
{
	int n = e->ncpus, wc = (int)(ph->wake_cpu1 - 1), off;
	if ((e->priv->irq_mode != SL_IRQ_CPU_RELATIVE && e->priv->irq_mode != SL_IRQ_CPU_REMOTE) ||
	    !ph->sleep_cpu1)
		return wc % n;
	if (p->cpu < 0 || p->cpu >= n)
		return -1;
	if (e->priv->irq_mode == SL_IRQ_CPU_REMOTE)
		return wc == (int)(ph->sleep_cpu1 - 1) ? p->cpu : wc % n;
	off = (wc - (int)(ph->sleep_cpu1 - 1)) % n;
	if (off < 0)
		off += n;
	return (p->cpu + off) % n;
}
