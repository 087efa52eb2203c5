/* replay/smp.c - the SMP layer shared by every policy: Linux 2.6.20's load
 * balancing (kernel/sched.c of v2.6.20) on one flat scheduling domain with
 * the SD_CPU_INIT values of include/linux/topology.h (2.6.19/2.6.20):
 * per-CPU cpu_load[] averages (update_load), find_busiest_group with
 * imbalance_pct and the small-imbalance rule, find_busiest_queue,
 * move_tasks/can_migrate_task (cache-hot tasks, nr_balance_failed,
 * cache_nice_tries), load_balance with its interval back-off and active
 * balancing, load_balance_newidle/idle_balance, run_rebalance_domains with
 * busy_factor, try_to_wake_up's wake-affine rule and sched_balance_self for
 * exec. Every choice honours the task's cpumask and is deterministic. The
 * rules and their departures are listed in docs/replay.md. */
#include "engine_priv.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* 2.6.20 enum idle_type */
enum { SMP_SCHED_IDLE = 0, SMP_NOT_IDLE = 1, SMP_NEWLY_IDLE = 2 };

/* MAX_PRIO: the prio of the idle task (rq_best_prio of an idle CPU) */
#define SMP_IDLE_PRIO 140
/* load_balance: back-off cap when every task is pinned */
#define SMP_MAX_PINNED_INTERVAL 512

static const struct sl_sched_domain sd_cpu_init = {
	/* include/linux/topology.h SD_CPU_INIT (2.6.19-2.6.20) */
	.min_interval = 1,
	.max_interval = 4,
	.busy_factor = 64,
	.imbalance_pct = 125,
	.cache_nice_tries = 1,
	.busy_idx = 2,
	.idle_idx = 1,
	.newidle_idx = 2,
	.wake_idx = 1,
	.forkexec_idx = 1,
	.flags = SL_SD_LOAD_BALANCE | SL_SD_BALANCE_NEWIDLE | SL_SD_BALANCE_EXEC | SL_SD_WAKE_AFFINE,
	/* 2.6.20 measures it at boot (calibrate_migration_costs: twice the
	 * worst migration cost); the SD_CPU_INIT constant before that
	 * calibration existed was 5*1000000/2 ns, which we use */
	.cache_hot_ns = 5 * SL_NS_PER_MS / 2,
	.balance_interval = 1,
};

void sl_smp_init(struct sl_engine *e)
{
	struct sl_engine_priv *v = e->priv;
	unsigned long w0 = 0;
	int c, best_nice = 99;
	size_t i;

	v->smp.cpu = xcalloc((size_t)e->ncpus, sizeof(*v->smp.cpu));
	v->smp.cand = xcalloc((size_t)e->ncpus, 1);
	for (c = 0; c < e->ncpus; c++)
		v->smp.cpu[c].sd = sd_cpu_init;
	/* SCHED_LOAD_SCALE is the load of one nice-0 task in 2.6.20; each
	 * model has its own weights, so take its nice-0 weight (the nearest
	 * nice present when no task has nice 0) */
	for (i = 0; i < e->ntasks; i++) {
		const struct sl_task *p = &e->tasks[i];
		int an = p->nice < 0 ? -p->nice : p->nice;
		if (p->sched_policy == SL_SCHED_FIFO || p->sched_policy == SL_SCHED_RR || !p->load_weight)
			continue;
		if (an < best_nice) {
			best_nice = an;
			w0 = p->load_weight;
		}
	}
	v->smp.load_scale = w0 ? w0 : 128;
}

uint64_t sl_smp_idle_allowance_ns(const struct sl_engine *e)
{
	/* the idle balance comes within max_interval (the interval grows to it
	 * while balanced) and at a tick; cpu_load[0] is the last tick's load;
	 * a cache-hot task is refused until nr_balance_failed exceeds
	 * cache_nice_tries, one attempt per min_interval */
	const struct sl_sched_domain *sd = &sd_cpu_init;
	return (uint64_t)(sd->max_interval + (sd->cache_nice_tries + 1) * sd->min_interval) *
		       SL_NS_PER_MS + e->tick_ns;
}

void sl_smp_release(struct sl_engine *e)
{
	free(e->priv->smp.cpu);
	free(e->priv->smp.cand);
	e->priv->smp.cpu = NULL;
	e->priv->smp.cand = NULL;
}

/* jiffies: ticks since time 0 */
static uint64_t jiffies(const struct sl_engine *e)
{
	return sl_eng_jiffies(e);
}

/* msecs_to_jiffies, rounding up; at least 1 as run_rebalance_domains has it */
static uint64_t ms_to_jiffies(const struct sl_engine *e, uint64_t ms)
{
	uint64_t j = (ms * (uint64_t)e->hz + 999) / 1000;
	return j ? j : 1;
}

/* source_load: a low guess at the load of a migration source */
static unsigned long source_load(const struct sl_engine *e, int cpu, int type)
{
	unsigned long raw = e->cpus[cpu].load;
	if (type == 0)
		return raw;
	return e->priv->smp.cpu[cpu].cpu_load[type - 1] < raw ? e->priv->smp.cpu[cpu].cpu_load[type - 1] : raw;
}

/* target_load: a high guess at the load of a migration target */
static unsigned long target_load(const struct sl_engine *e, int cpu, int type)
{
	unsigned long raw = e->cpus[cpu].load;
	if (type == 0)
		return raw;
	return e->priv->smp.cpu[cpu].cpu_load[type - 1] > raw ? e->priv->smp.cpu[cpu].cpu_load[type - 1] : raw;
}

static unsigned long cpu_avg_load_per_task(const struct sl_engine *e, int cpu)
{
	unsigned n = e->cpus[cpu].nr_running;
	return n ? e->cpus[cpu].load / n : e->priv->smp.load_scale;
}

/* update_load: cpu_load[i] = (old * (2^i - 1) + new) / 2^i, rounded up
 * while the load rises */
static void update_load(struct sl_engine *e, int cpu)
{
	struct sl_smp_cpu *s = &e->priv->smp.cpu[cpu];
	unsigned long this_load = e->cpus[cpu].load;
	int i;
	unsigned long scale;
	for (i = 0, scale = 1; i < 3; i++, scale <<= 1) {
		unsigned long old_load = s->cpu_load[i], new_load = this_load;
		if (new_load > old_load)
			new_load += scale - 1;
		s->cpu_load[i] = (old_load * (scale - 1) + new_load) / scale;
	}
}

/* rq_best_prio: the prio of the running task (the idle task's 140 on an
 * idle CPU); 2.6.20 also takes best_expired_prio, which the models do not
 * expose: a task queued on an expired array never counts here */
static int rq_best_prio(const struct sl_engine *e, int cpu)
{
	const struct sl_task *c = e->cpus[cpu].curr;
	return c ? c->prio : SMP_IDLE_PRIO;
}

/* ---- can_migrate_task and the skip rules of move_tasks ---- */

static int task_hot(const struct sl_engine *e, const struct sl_task *p, const struct sl_sched_domain *sd)
{
	return e->now - p->last_ran_ns < sd->cache_hot_ns;
}

int sl_engine_may_migrate(struct sl_engine *e, const struct sl_task *p, int dst)
{
	struct sl_smp_mig *m = &e->priv->smp.mig;
	int running = p->state == SL_TS_RUNNING || e->cpus[p->cpu].curr == p;
	int idx, skip;

	if (!m->active) /* outside move_tasks: only the hard rules */
		return sl_task_allowed(p, dst) && !running;
	if (m->only) /* sched_exec's move: that task alone */
		return p == m->only && sl_task_allowed(p, dst) && !running;
	/* move_tasks: a task heavier than the load left to move is skipped,
	 * unless it would be the best-prio task on its new CPU (and no task of
	 * the source's best prio has been passed over) */
	idx = p->prio;
	skip = p->load_weight > (m->rem_load > 0 ? (unsigned long)m->rem_load : 0);
	if (skip && idx < m->this_best_prio)
		skip = !m->best_prio_seen && idx == m->best_prio;
	if (!skip) {
		/* can_migrate_task: not pinned away, not running, and cache-cold
		 * unless balancing failed more than cache_nice_tries times */
		if (sl_task_allowed(p, dst)) {
			m->pinned = 0;
			if (!running && (m->sd->nr_balance_failed > m->sd->cache_nice_tries ||
					 !task_hot(e, p, m->sd)))
				return 1;
		}
	}
	m->best_prio_seen |= idx == m->best_prio;
	return 0;
}

/* pull_task: p (dequeued from src by the policy's steal) goes to dst */
static void pull_task(struct sl_engine *e, struct sl_task *p, int src, int dst)
{
	struct sl_cpu *s = &e->cpus[src];
	struct sl_enq_info w;

	p->on_rq = 0;
	s->nr_running--;
	s->load -= p->load_weight;
	e->priv->nrunnable--;
	sl_eng_count_free(e, p, src, -1);
	e->priv->st.migrations++;
	memset(&w, 0, sizeof(w));
	w.kind = SL_ENQ_MIGRATE;
	w.now = e->now;
	w.waker = -1;
	w.waker_cpu = -1;
	w.src_cpu = src;
	sl_eng_enqueue(e, p, dst, &w);
}

void sl_engine_pull(struct sl_engine *e, struct sl_task *p, int src, int dst)
{
	pull_task(e, p, src, dst);
}

int sl_engine_cpu_up(const struct sl_engine *e, int cpu)
{
	return sl_eng_cpu_up(e, cpu);
}

int sl_engine_exiting(const struct sl_engine *e, const struct sl_task *p)
{
	(void)e;
	return p->state == SL_TS_RUNNING && p->eng->ph.end == SL_END_EXIT;
}

/* move_tasks: up to max_nr_move tasks and max_load_move weighted load from
 * busiest to this, in the policy's order (its steal hook asks
 * sl_engine_may_migrate for each candidate). Returns the tasks moved. */
static int move_tasks(struct sl_engine *e, int this, int busiest, unsigned long max_nr_move,
		      long max_load_move, int idle, int *all_pinned)
{
	struct sl_smp_mig *m = &e->priv->smp.mig;
	int pulled = 0;

	if (all_pinned)
		*all_pinned = 0;
	if (max_nr_move == 0 || max_load_move <= 0 || !e->ops->steal)
		return 0;
	memset(m, 0, sizeof(*m));
	m->active = 1;
	m->rem_load = max_load_move;
	m->pinned = 1;
	m->idle = idle;
	m->sd = &e->priv->smp.cpu[this].sd;
	m->this_best_prio = rq_best_prio(e, this);
	m->best_prio = rq_best_prio(e, busiest);
	m->best_prio_seen = e->cpus[busiest].curr && m->best_prio == e->cpus[busiest].curr->prio;
	while (!e->priv->failed) {
		struct sl_task *p = e->ops->steal(e, busiest, this);
		if (!p)
			break;
		if (!p->on_rq || p->cpu != busiest || !sl_task_allowed(p, this) ||
		    p->state == SL_TS_RUNNING) {
			sl_eng_error(e, "invariant: %s stole task %d which it may not move", e->ops->name,
				     p->idx);
			break;
		}
		pull_task(e, p, busiest, this);
		pulled++;
		m->pinned = 0;
		m->rem_load -= (long)p->load_weight;
		if (!((unsigned long)pulled < max_nr_move && m->rem_load > 0))
			break;
		if (p->prio < m->this_best_prio)
			m->this_best_prio = p->prio;
	}
	/* 2.6.20 walks the running task too (it stays on its array): if it may
	 * run here, not every task is pinned (can_migrate_task clears
	 * all_pinned before it refuses a running task) */
	if (m->pinned && e->cpus[busiest].curr && e->cpus[busiest].curr->on_rq &&
	    sl_task_allowed(e->cpus[busiest].curr, this))
		m->pinned = 0;
	if (all_pinned)
		*all_pinned = m->pinned;
	m->active = 0;
	return pulled;
}

/* ---- find_busiest_group / find_busiest_queue (one CPU per group, every
 * group of cpu_power SCHED_LOAD_SCALE: the powers cancel out) ---- */

static int find_busiest_group(struct sl_engine *e, int this, unsigned long *imbalance, int idle)
{
	const struct sl_sched_domain *sd = &e->priv->smp.cpu[this].sd;
	const unsigned char *cpus = e->priv->smp.cand;
	unsigned long max_load = 0, this_load = 0, total_load = 0, avg_load;
	unsigned long busiest_load_per_task = 0, busiest_nr_running = 0;
	unsigned long this_load_per_task = 0, this_nr_running = 0, max_pull;
	unsigned long scale = e->priv->smp.load_scale;
	int load_idx, busiest = -1, c, ngroups = 0;

	*imbalance = 0;
	load_idx = idle == SMP_NOT_IDLE ? sd->busy_idx : idle == SMP_NEWLY_IDLE ? sd->newidle_idx : sd->idle_idx;
	for (c = 0; c < e->ncpus; c++) {
		unsigned long load;
		if (!cpus[c])
			continue;
		ngroups++;
		/* bias balancing toward cpus of our domain */
		load = c == this ? target_load(e, c, load_idx) : source_load(e, c, load_idx);
		total_load += load;
		if (c == this) {
			this_load = load;
			this_nr_running = e->cpus[c].nr_running;
			this_load_per_task = e->cpus[c].load;
		} else if (load > max_load && e->cpus[c].nr_running > 1 /* > group_capacity */) {
			max_load = load;
			busiest = c;
			busiest_nr_running = e->cpus[c].nr_running;
			busiest_load_per_task = e->cpus[c].load;
		}
	}
	if (busiest < 0 || this_load >= max_load || busiest_nr_running == 0)
		return -1;
	avg_load = total_load / (unsigned long)ngroups;
	if (this_load >= avg_load || 100 * max_load <= sd->imbalance_pct * this_load)
		return -1;
	busiest_load_per_task /= busiest_nr_running;
	if (max_load <= busiest_load_per_task)
		return -1;
	if (max_load < avg_load) {
		*imbalance = 0;
		goto small_imbalance;
	}
	/* don't pull so much that a group goes idle or we rise above the average */
	max_pull = max_load - avg_load < max_load - busiest_load_per_task ? max_load - avg_load
									  : max_load - busiest_load_per_task;
	*imbalance = max_pull < avg_load - this_load ? max_pull : avg_load - this_load;
	if (*imbalance < busiest_load_per_task) {
		unsigned long pwr_now, pwr_move, tmp;
		unsigned imbn;
small_imbalance:
		pwr_move = pwr_now = 0;
		imbn = 2;
		if (this_nr_running) {
			this_load_per_task /= this_nr_running;
			if (busiest_load_per_task > this_load_per_task)
				imbn = 1;
		} else {
			this_load_per_task = scale;
		}
		if (max_load - this_load >= busiest_load_per_task * imbn) {
			*imbalance = busiest_load_per_task;
			return busiest;
		}
		/* not enough imbalance to move a task, but moving one may raise
		 * the CPU power in use */
		pwr_now += busiest_load_per_task < max_load ? busiest_load_per_task : max_load;
		pwr_now += this_load_per_task < this_load ? this_load_per_task : this_load;
		tmp = busiest_load_per_task; /* load we'd subtract */
		if (max_load > tmp)
			pwr_move += busiest_load_per_task < max_load - tmp ? busiest_load_per_task : max_load - tmp;
		/* load we'd add */
		tmp = max_load < busiest_load_per_task ? max_load : busiest_load_per_task;
		pwr_move += this_load_per_task < this_load + tmp ? this_load_per_task : this_load + tmp;
		if (pwr_move <= pwr_now)
			return -1;
		*imbalance = busiest_load_per_task;
	}
	return busiest;
}

static int find_busiest_queue(struct sl_engine *e, int group, unsigned long imbalance)
{
	/* the group is one CPU: skip it when its single task outweighs the
	 * imbalance */
	if (!e->priv->smp.cand[group])
		return -1;
	if (e->cpus[group].nr_running == 1 && e->cpus[group].load > imbalance)
		return -1;
	return e->cpus[group].load > 0 ? group : -1;
}

static void cpus_all(struct sl_engine *e)
{
	memset(e->priv->smp.cand, 1, (size_t)e->ncpus);
}

static int cpus_any(const struct sl_engine *e)
{
	int c;
	for (c = 0; c < e->ncpus; c++)
		if (e->priv->smp.cand[c])
			return 1;
	return 0;
}

/* active_load_balance (2.6.20), run by busiest's migration thread: it has
 * preempted busiest's running task, so that task is one of the candidates
 * now; move_tasks takes the first that may go to target in the model's
 * order (one task, any load: RTPRIO_TO_LOAD_WEIGHT(100); cache-hot or not,
 * target's nr_balance_failed having been set above cache_nice_tries).
 * nr_running counts the migration thread itself, as the kernel's does. */
static void active_load_balance(struct sl_engine *e, int busiest, int target)
{
	if (e->cpus[busiest].nr_running <= 1)
		return;
	if (move_tasks(e, target, busiest, 1, LONG_MAX, SMP_SCHED_IDLE, NULL))
		e->priv->st.active_balances++; /* alb_pushed */
}

void sl_smp_kick(struct sl_engine *e)
{
	int c;
	e->priv->smp.kick_pending = 0;
	for (c = 0; c < e->ncpus; c++) {
		struct sl_smp_cpu *s = &e->priv->smp.cpu[c];
		if (!s->active_balance)
			continue;
		if (sl_eng_wake_migration(e, c) < 0) {
			/* a CPU past the 64 the masks name has no thread: the
			 * push happens at once, the running task stays */
			active_load_balance(e, c, s->push_cpu);
			s->active_balance = 0;
		}
	}
}

/* __migrate_task of sched_exec's request (2.6.20 sched_migrate_task;
 * 6.x stop_one_cpu(migration_cpu_stop)): the migration thread has preempted
 * p, which waits on cpu's runqueue; the model's steal hands it over (only
 * p may go) and it is queued on dest. A request the task has outlived (it
 * slept or left meanwhile) is dropped, as __migrate_task drops it when the
 * task is no longer on src. */
static void exec_move(struct sl_engine *e, int cpu, struct sl_task *p, int dest)
{
	struct sl_smp_mig *m = &e->priv->smp.mig;
	struct sl_task *q;
	if (!p->on_rq || p->cpu != cpu || p->state == SL_TS_RUNNING || !sl_task_allowed(p, dest) ||
	    !e->ops->steal)
		return;
	memset(m, 0, sizeof(*m));
	m->active = 1;
	m->only = p;
	m->sd = &e->priv->smp.cpu[dest].sd;
	q = e->ops->steal(e, cpu, dest);
	m->active = 0;
	m->only = NULL;
	if (!q)
		return;
	if (q != p) {
		sl_eng_error(e, "invariant: %s stole task %d for the exec move of task %d", e->ops->name,
			     q->idx, p->idx);
		return;
	}
	pull_task(e, p, cpu, dest);
	e->priv->st.exec_moves++;
}

void sl_smp_migration_run(struct sl_engine *e, int cpu)
{
	struct sl_smp_cpu *s = &e->priv->smp.cpu[cpu];
	if (s->exec_task) {
		struct sl_task *p = s->exec_task;
		s->exec_task = NULL;
		exec_move(e, cpu, p, s->exec_dest);
	}
	/* migration_thread: "if (rq->active_balance) { active_load_balance();
	 * rq->active_balance = 0; }" */
	if (s->active_balance) {
		active_load_balance(e, cpu, s->push_cpu);
		s->active_balance = 0;
	}
}

/* The first steps of load_balance and load_balance_newidle: the busiest
 * group (find_busiest_group, which sets *imbalance), then its busiest queue;
 * -1 when balanced. */
static int busiest_cpu(struct sl_engine *e, int this, int idle, unsigned long *imbalance)
{
	int group = find_busiest_group(e, this, imbalance, idle);
	return group < 0 ? -1 : find_busiest_queue(e, group, *imbalance);
}

/* The pull load_balance and load_balance_newidle share: move_tasks from
 * the busiest queue (busiest_cpu) to this; when that queue gives nothing
 * for the balancer's reason (newly idle: nothing moved; else: every task
 * of it pinned away from this, *all_pinned) the next busiest is tried.
 * Returns the tasks moved, *busiest the queue they came from, -1 when the
 * domain is balanced: none found, or (load_balance's "goto
 * out_balanced") every queue's tasks pinned; load_balance_newidle takes
 * queues that gave nothing as a failed pull, not a balanced domain. */
static int pull_busiest(struct sl_engine *e, int this, int idle, int *busiest, int *all_pinned)
{
	unsigned long imbalance;
	int nr_moved;

	cpus_all(e);
	for (;;) {
		*busiest = busiest_cpu(e, this, idle, &imbalance);
		if (*busiest < 0 || e->cpus[*busiest].nr_running <= 1)
			return 0;
		nr_moved = move_tasks(e, this, *busiest, e->cpus[*busiest].nr_running - 1,
				      (long)imbalance, idle, all_pinned);
		if (idle == SMP_NEWLY_IDLE ? nr_moved : !*all_pinned)
			return nr_moved;
		e->priv->smp.cand[*busiest] = 0;
		if (!cpus_any(e)) {
			if (idle != SMP_NEWLY_IDLE)
				*busiest = -1;
			return 0;
		}
	}
}

/* load_balance: balance this CPU within its domain (periodic). */
static int load_balance(struct sl_engine *e, int this, int idle)
{
	struct sl_sched_domain *sd = &e->priv->smp.cpu[this].sd;
	int nr_moved, all_pinned = 0, active = 0, busiest;

	nr_moved = pull_busiest(e, this, idle, &busiest, &all_pinned);
	if (busiest < 0)
		goto out_balanced;
	if (!nr_moved) {
		sd->nr_balance_failed++;
		if (sd->nr_balance_failed > sd->cache_nice_tries + 2) {
			const struct sl_task *bc = e->cpus[busiest].curr;
			struct sl_smp_cpu *bs = &e->priv->smp.cpu[busiest];
			/* don't kick the migration thread if busiest's running
			 * task may not come here (an idle CPU runs its pinned
			 * idle task) */
			if (!bc || !sl_task_allowed(bc, this)) {
				all_pinned = 1;
				goto out_one_pinned;
			}
			if (!bs->active_balance) {
				bs->active_balance = 1;
				bs->push_cpu = this;
				active = 1;
				e->priv->smp.kick_pending = 1; /* wake_up_process(migration_thread) */
			}
			/* kicked active balancing: reset the failure counter */
			sd->nr_balance_failed = sd->cache_nice_tries + 1;
		}
	} else {
		sd->nr_balance_failed = 0;
	}
	if (!active)
		sd->balance_interval = sd->min_interval; /* unbalanced: reset */
	else if (sd->balance_interval < sd->max_interval)
		sd->balance_interval *= 2; /* active balancing: back off */
	return nr_moved;

out_balanced:
	sd->nr_balance_failed = 0;
out_one_pinned:
	if ((all_pinned && sd->balance_interval < SMP_MAX_PINNED_INTERVAL) ||
	    sd->balance_interval < sd->max_interval)
		sd->balance_interval *= 2;
	return 0;
}

/* load_balance_newidle: this CPU is about to go idle. */
static int load_balance_newidle(struct sl_engine *e, int this)
{
	struct sl_sched_domain *sd = &e->priv->smp.cpu[this].sd;
	int busiest, nr_moved = pull_busiest(e, this, SMP_NEWLY_IDLE, &busiest, NULL);

	if (busiest < 0 || nr_moved) /* balanced, or pulled */
		sd->nr_balance_failed = 0;
	return nr_moved;
}

void sl_smp_idle_balance(struct sl_engine *e, int this)
{
	struct sl_smp_cpu *s = &e->priv->smp.cpu[this];
	struct sl_sched_domain *sd = &s->sd;
	uint64_t next_balance = jiffies(e) + 60 * (uint64_t)e->hz;
	int pulled = 0;

	if (e->ncpus == 1 || !e->ops->steal)
		return;
	if (e->ops->balance && e->ops->balance(e, this, SL_BAL_NEWIDLE) >= 0)
		return; /* the model's own balancing */
	if (sd->flags & SL_SD_BALANCE_NEWIDLE) {
		pulled = load_balance_newidle(e, this);
		if (next_balance > sd->last_balance + ms_to_jiffies(e, sd->balance_interval))
			next_balance = sd->last_balance + ms_to_jiffies(e, sd->balance_interval);
	}
	if (!pulled)
		s->next_balance = next_balance; /* going idle: rebalance soon */
}

/* run_rebalance_domains */
static void rebalance_domains(struct sl_engine *e, int this)
{
	struct sl_smp_cpu *s = &e->priv->smp.cpu[this];
	struct sl_sched_domain *sd = &s->sd;
	int idle = e->cpus[this].nr_running ? SMP_NOT_IDLE : SMP_SCHED_IDLE;
	uint64_t interval, j = jiffies(e), next_balance = j + 60 * (uint64_t)e->hz;

	if (sd->flags & SL_SD_LOAD_BALANCE) {
		interval = sd->balance_interval;
		if (idle != SMP_SCHED_IDLE)
			interval *= sd->busy_factor;
		interval = ms_to_jiffies(e, interval);
		if (j >= sd->last_balance + interval) {
			load_balance(e, this, idle);
			sd->last_balance = j;
		}
		if (next_balance > sd->last_balance + interval)
			next_balance = sd->last_balance + interval;
	}
	s->next_balance = next_balance;
}

/* scheduler_tick's SMP part for cpu, every tick (idle CPUs too) */
void sl_smp_tick(struct sl_engine *e, int cpu)
{
	struct sl_engine_priv *v = e->priv;
	uint64_t j = jiffies(e);
	int c;

	if (e->ncpus == 1)
		return;
	if (e->ops->balance && e->ops->balance(e, cpu, SL_BAL_TICK) >= 0)
		return; /* the model's own balancing */
	if (cpu == 0 && j > v->smp.jiffy + 1) {
		/* the engine skipped the ticks of a stretch in which every CPU
		 * was idle (load 0): age the averages as those ticks would have
		 * (after 64 the averages of any load are 0) */
		uint64_t k, skipped = j - v->smp.jiffy - 1;
		for (k = 0; k < skipped && k < 64; k++)
			for (c = 0; c < e->ncpus; c++)
				update_load(e, c);
	}
	if (cpu == 0)
		v->smp.jiffy = j;
	update_load(e, cpu);
	if (j >= v->smp.cpu[cpu].next_balance && e->ops->steal)
		rebalance_domains(e, cpu);
}

/* ---- wakeup and fork/exec placement ---- */

/* the allowed CPU with the fewest tasks, then the lowest load (ties: the
 * lowest number); -1 if none */
static int least_loaded_allowed(const struct sl_engine *e, const struct sl_task *p)
{
	int c, best = -1;
	for (c = 0; c < e->ncpus; c++) {
		if (!sl_task_allowed(p, c))
			continue;
		if (best < 0 || e->cpus[c].nr_running < e->cpus[best].nr_running ||
		    (e->cpus[c].nr_running == e->cpus[best].nr_running &&
		     e->cpus[c].load < e->cpus[best].load))
			best = c;
	}
	return best;
}

int sl_smp_wake_cpu(struct sl_engine *e, struct sl_task *p, int waker_cpu, int waker_home,
		    const struct sl_task *sync_waker)
{
	const struct sl_sched_domain *sd;
	int cpu = p->cpu, this_cpu;
	unsigned long load, this_load, tl, tl_per_task;
	unsigned imbalance;

	if (e->ncpus == 1)
		return 0;
	/* woken in the same instant it blocked: still its CPU's curr, stays */
	if (p->eng->blocked)
		return p->cpu;
	if (cpu < 0 || cpu >= e->ncpus || !sl_task_allowed(p, cpu))
		return least_loaded_allowed(e, p); /* set_cpus_allowed moved it */
	if (e->ops->select_cpu) {
		/* the model's own kernel's placement */
		int c = e->ops->select_cpu(e, p, cpu, waker_cpu, SL_WF_TTWU | (sync_waker ? SL_WF_SYNC : 0));
		if (c >= 0 && c < e->ncpus && sl_task_allowed(p, c))
			return c;
	}
	/* try_to_wake_up runs on the waker's CPU (a task waker that is not
	 * running in the replay: the CPU it is queued on or last ran on,
	 * waker_home, docs/replay.md "Wakeup CPU"); an interrupt or timer
	 * wakeup is taken on the sleeper's CPU (cpu == this_cpu: it stays) */
	this_cpu = waker_cpu >= 0 && waker_cpu < e->ncpus ? waker_cpu
		   : waker_home >= 0 && waker_home < e->ncpus ? waker_home : cpu;
	if (this_cpu == cpu || !sl_task_allowed(p, this_cpu))
		return cpu;
	sd = &e->priv->smp.cpu[this_cpu].sd; /* the flat domain spans both */
	imbalance = 100 + (sd->imbalance_pct - 100) / 2;
	load = source_load(e, cpu, sd->wake_idx);
	this_load = target_load(e, this_cpu, sd->wake_idx);
	if (sd->flags & SL_SD_WAKE_AFFINE) {
		tl = this_load;
		/* a sync wakeup: the waker is about to sleep, take its weight off */
		if (sync_waker)
			tl = tl > sync_waker->load_weight ? tl - sync_waker->load_weight : 0;
		tl_per_task = cpu_avg_load_per_task(e, this_cpu);
		if ((tl <= load && tl + target_load(e, cpu, sd->wake_idx) <= tl_per_task) ||
		    100 * (tl + p->load_weight) <= imbalance * load) {
			e->priv->st.wake_affine++;
			return this_cpu;
		}
	}
	/* SD_WAKE_BALANCE is not a flag of SD_CPU_INIT: no passive balancing */
	return cpu;
}

/* sched_balance_self(cpu, SD_BALANCE_EXEC): find_idlest_group then
 * find_idlest_cpu, for p running on cpu (at an exec point its weight is on
 * cpu's load already; at a fork it is counted there as if it ran) */
static int balance_exec(struct sl_engine *e, struct sl_task *p, int cpu)
{
	const struct sl_sched_domain *sd = &e->priv->smp.cpu[cpu].sd;
	unsigned long min_load = ULONG_MAX, this_load = 0, load;
	int imbalance = 100 + (sd->imbalance_pct - 100) / 2, idlest = -1, c;

	if (!(sd->flags & SL_SD_BALANCE_EXEC))
		return cpu;
	for (c = 0; c < e->ncpus; c++) {
		if (!sl_task_allowed(p, c))
			continue;
		if (c == cpu) {
			/* p is the running task of cpu when it execs:
			 * source_load(this_cpu, forkexec_idx) */
			unsigned long raw = e->cpus[c].load + (p->on_rq && p->cpu == c ? 0 : p->load_weight);
			load = sd->forkexec_idx ? e->priv->smp.cpu[c].cpu_load[sd->forkexec_idx - 1] : raw;
			this_load = load < raw ? load : raw;
		} else {
			load = target_load(e, c, sd->forkexec_idx);
			if (load < min_load) {
				min_load = load;
				idlest = c;
			}
		}
	}
	if (idlest < 0 || 100 * this_load < (unsigned long)imbalance * min_load)
		return cpu;
	/* find_idlest_cpu: the group is the one CPU */
	return idlest;
}

/* Does the behaviour show t exec'ing (an SL_END_EXEC phase)? */
static int has_exec_point(const struct sl_task_spec *t)
{
	size_t i;
	for (i = 0; i < t->nphases; i++)
		if (t->phases[i].end == SL_END_EXEC)
			return 1;
	return 0;
}

int sl_smp_fork_cpu(struct sl_engine *e, struct sl_task *p, int parent_cpu)
{
	int cpu;
	if (e->ncpus == 1)
		return 0;
	if (parent_cpu < 0 || parent_cpu >= e->ncpus || !sl_task_allowed(p, parent_cpu))
		return least_loaded_allowed(e, p);
	/* sched_fork: sched_balance_self(SD_BALANCE_FORK), which SD_CPU_INIT
	 * does not set: the child starts on its parent's CPU. A new process
	 * (not a thread of its parent's group) whose exec the behaviour does
	 * not show (no exec point: the trace has no sched_process_exec) is
	 * taken to exec at once: sched_exec balances it (SD_BALANCE_EXEC);
	 * one with an exec point is balanced there (sl_smp_exec). */
	if (e->ops->select_cpu) {
		cpu = e->ops->select_cpu(e, p, parent_cpu, parent_cpu, SL_WF_FORK);
		if (cpu >= 0 && cpu < e->ncpus && sl_task_allowed(p, cpu))
			return cpu; /* the model's own fork balancing */
	}
	cpu = parent_cpu;
	if (!p->spec || (p->spec->tid == p->spec->tgid && !has_exec_point(p->spec)))
		cpu = balance_exec(e, p, cpu);
	return cpu;
}

void sl_smp_exec(struct sl_engine *e, int cpu, struct sl_task *p)
{
	struct sl_smp_cpu *s;
	int dest = -1;
	if (e->ncpus == 1)
		return;
	if (e->ops->select_cpu)
		dest = e->ops->select_cpu(e, p, cpu, cpu, SL_WF_EXEC);
	if (dest < 0 || dest >= e->ncpus || !sl_task_allowed(p, dest))
		dest = balance_exec(e, p, cpu); /* 2.6.20 sched_exec */
	if (dest == cpu)
		return;
	/* sched_migrate_task: wake the migration thread of p's CPU, which
	 * preempts p and moves it (a CPU past the 64 the masks name has no
	 * thread: p stays) */
	s = &e->priv->smp.cpu[cpu];
	s->exec_task = p;
	s->exec_dest = dest;
	if (sl_eng_wake_migration(e, cpu) < 0)
		s->exec_task = NULL;
}
