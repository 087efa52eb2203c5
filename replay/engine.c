/* replay/engine.c - the replay loop: tasks and their phases, sleeps (timed
 * and causal), ticks, schedule(), rows. See engine.h and docs/replay.md. */
#include "engine_priv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void vfail(struct sl_engine *e, const char *fmt, va_list ap)
{
	if (e->priv->failed)
		return;
	e->priv->failed = 1;
	if (e->priv->d)
		vsnprintf(e->priv->d->msg, sizeof(e->priv->d->msg), fmt, ap);
}

void sl_eng_error(struct sl_engine *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(e, fmt, ap);
	va_end(ap);
}

int sl_engine_fail(struct sl_engine *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfail(e, fmt, ap);
	va_end(ap);
	return -1;
}

void sl_engine_set_policy(struct sl_engine *e, void *run, void *tasks, void *cpus)
{
	e->pol = run;
	e->priv->pol_tasks = tasks;
	e->priv->pol_cpus = cpus;
}

void sl_engine_release_policy(struct sl_engine *e)
{
	size_t i;
	if (!e->pol)
		return;
	if (e->ops->release)
		e->ops->release(e);
	for (i = 0; i < e->ntasks; i++)
		e->tasks[i].pol = NULL;
	free(e->priv->pol_tasks);
	free(e->priv->pol_cpus);
	free(e->pol);
	e->priv->pol_tasks = e->priv->pol_cpus = NULL;
	e->pol = NULL;
}

void sl_engine_resched(struct sl_engine *e, int cpu)
{
	if (cpu >= 0 && cpu < e->ncpus)
		e->cpus[cpu].need_resched = 1;
}

void sl_engine_staircase(struct sl_engine *e, struct sl_task *p, int level, int array)
{
	const struct sl_run_sink *k = e->priv->sink;
	if (!k || !k->staircase) /* no rows: nothing to dedup either */
		return;
	if ((p->eng->rec_level == level && p->eng->rec_array == array) || sl_eng_hidden(e, p))
		return;
	p->eng->rec_level = level;
	p->eng->rec_array = array;
	if (!e->priv->failed && k->staircase(k->ctx, p->idx, e->now, level, array))
		sl_eng_error(e, "writing a staircase row failed");
}

int sl_engine_wants_staircase(const struct sl_engine *e)
{
	const struct sl_run_sink *k = e->priv->sink;
	return k && k->staircase;
}

void sl_engine_vlag(struct sl_engine *e, struct sl_task *p, int64_t lag_ns)
{
	const struct sl_run_sink *k = e->priv->sink;
	if (k && k->vlag && !e->priv->failed && !sl_eng_hidden(e, p) &&
	    k->vlag(k->ctx, p->idx, e->now, lag_ns))
		sl_eng_error(e, "writing a vlag row failed");
}

void sl_engine_rotation(struct sl_engine *e, int cpu, const char *kind, int level)
{
	const struct sl_run_sink *k = e->priv->sink;
	if (k && k->rotation && !e->priv->failed && k->rotation(k->ctx, cpu, e->now, kind, level))
		sl_eng_error(e, "writing a rotation row failed");
}

/* ---- progress of the running tasks ---- */

/* Charge the CPU time since the last charge to cpu c's running task
 * (inline: the engine charges on every tick, burst end and switch). */
static inline void account(struct sl_engine *e, int c)
{
	struct sl_cpu *cpu = &e->cpus[c];
	struct sl_task *p = cpu->curr;
	uint64_t delta = e->now - cpu->charged_to;

	cpu->charged_to = e->now;
	if (!p || !delta)
		return;
	if (p->eng->run_left != SL_INF) {
		if (delta > p->eng->run_left) {
			sl_eng_error(e, "engine: task %d ran %llu ns past its burst", p->idx,
				     (unsigned long long)(delta - p->eng->run_left));
			delta = p->eng->run_left;
		}
		p->eng->run_left -= delta;
	}
	p->sum_exec_ns += delta;
	cpu->busy_ns += delta;
}

void sl_eng_account(struct sl_engine *e, int c)
{
	account(e, c);
}

uint64_t sl_eng_cur_exec(const struct sl_engine *e, const struct sl_task *p)
{
	if (p->state == SL_TS_RUNNING && e->cpus[p->cpu].curr == p)
		return p->sum_exec_ns + (e->now - e->cpus[p->cpu].charged_to);
	return p->sum_exec_ns;
}

/* Plan the next progress event of cpu c's running task: its burst end or
 * the point a waiter waits for, whichever comes first. */
void sl_eng_arm(struct sl_engine *e, int c)
{
	struct sl_cpu *cpu = &e->cpus[c];
	struct sl_task *p = cpu->curr;
	uint64_t dt;

	cpu->run_gen++;
	if (!p || p->state != SL_TS_RUNNING)
		return;
	dt = p->eng->run_left;
	if (p->eng->waiters_n)
		sl_eng_waiters_clean(p);
	if (p->eng->waiters_n) {
		uint64_t pt = p->eng->waiters[0].point;
		uint64_t need = pt > p->sum_exec_ns ? pt - p->sum_exec_ns : 0;
		if (need < dt)
			dt = need;
	}
	if (p->eng->holds_n) {
		uint64_t pt = sl_eng_hold_point(p);
		if (pt != UINT64_MAX) {
			uint64_t need = pt > p->sum_exec_ns ? pt - p->sum_exec_ns : 0;
			if (need < dt)
				dt = need;
		}
	}
	if (dt != SL_INF && dt <= UINT64_MAX - e->now)
		sl_evq_push(&e->priv->q, e->now + dt, EV_PROGRESS, (uint32_t)c, cpu->run_gen);
}

void sl_eng_push_wake(struct sl_engine *e, struct sl_task *p, uint64_t t)
{
	e->priv->ntimed++;
	sl_evq_push(&e->priv->q, t < e->now ? e->now : t, EV_WAKE, (uint32_t)p->idx, p->eng->token);
}

void sl_eng_push_start(struct sl_engine *e, struct sl_task *p, uint64_t t)
{
	e->priv->ntimed++;
	sl_evq_push(&e->priv->q, t < e->now ? e->now : t, EV_START, (uint32_t)p->idx, p->eng->token);
	sl_eng_reap_start(e, p);
}

/* ---- runqueue bookkeeping ---- */

/* Tasks that may run on every CPU, per runqueue (for the idle-beside-
 * waiting measure: per-CPU kernel threads and other pinned tasks aside). */
void sl_eng_count_free(struct sl_engine *e, const struct sl_task *p, int cpu, int delta)
{
	if (e->priv->nr_free && (p->cpumask & e->priv->onlinemask) == e->priv->onlinemask)
		e->priv->nr_free[cpu] += delta;
}

/* Some CPU has no task while an unpinned task waits behind the running task
 * of another CPU: the time this holds is summed into idle_wait_ns (a
 * measure of the SMP layer; the balancing rules bound each stretch,
 * docs/replay.md). */
static void idle_wait_close(struct sl_engine *e)
{
	struct sl_engine_priv *v = e->priv;
	uint64_t d = e->now - v->iw_since, allow = sl_smp_idle_allowance_ns(e);
	v->st.idle_wait_ns += d;
	if (d > v->st.idle_wait_max_ns)
		v->st.idle_wait_max_ns = d;
	if (d > allow)
		v->st.idle_wait_beyond_ns += d - allow;
}

static void idle_wait_track(struct sl_engine *e)
{
	struct sl_engine_priv *v = e->priv;
	int c, idle = 0, waiting = 0, on;
	if (!v->nr_free)
		return;
	for (c = 0; c < e->ncpus && !(idle && waiting); c++) {
		const struct sl_cpu *x = &e->cpus[c];
		if (!sl_eng_cpu_up(e, c))
			continue; /* offline: not idle */
		if (!x->nr_running)
			idle = 1;
		else if (x->curr &&
			 v->nr_free[c] > ((x->curr->cpumask & v->onlinemask) == v->onlinemask ? 1u : 0u))
			waiting = 1; /* beside a running task (not a CPU still waking up
				      * for its task: --overhead) */
	}
	on = idle && waiting;
	if (on == v->iw_on)
		return;
	if (on) {
		v->iw_since = e->now;
	} else {
		idle_wait_close(e);
	}
	v->iw_on = on;
}

void sl_engine_timer(struct sl_engine *e, int cpu, uint64_t at)
{
	struct sl_cpu *c = &e->cpus[cpu];
	sl_evq_push(&e->priv->q, at > e->now ? at : e->now, EV_TIMER, (uint32_t)cpu, ++c->timer_gen);
}

/* Reschedule cpu c lat ns from now: the kernel's own cost between a
 * wakeup and the switch to the woken task (docs/replay.md "Kernel
 * overheads"). lat 0 is an ordinary need_resched. An earlier pending one
 * stands; schedule() cancels it (resched_gen). */
static void resched_after(struct sl_engine *e, int c, uint64_t lat)
{
	struct sl_cpu *cpu = &e->cpus[c];
	if (!lat) {
		cpu->need_resched = 1;
		return;
	}
	if (cpu->resched_pending || cpu->need_resched)
		return;
	cpu->resched_pending = 1;
	sl_evq_push(&e->priv->q, e->now + lat, EV_RESCHED, (uint32_t)c, cpu->resched_gen);
}

/* p (not queued) joins cpu's runqueue in the engine's books: its CPU,
 * state, the CPU's count and load. The policy's hook comes next. */
static struct sl_cpu *rq_add(struct sl_engine *e, struct sl_task *p, int cpu)
{
	struct sl_cpu *c = &e->cpus[cpu];
	p->cpu = cpu;
	p->on_rq = 1;
	p->state = SL_TS_RUNNABLE;
	c->nr_running++;
	c->load += p->load_weight;
	e->priv->nrunnable++;
	sl_eng_count_free(e, p, cpu, 1);
	return c;
}

void sl_eng_enqueue(struct sl_engine *e, struct sl_task *p, int cpu, const struct sl_enq_info *w)
{
	struct sl_cpu *c = rq_add(e, p, cpu);
	int over;
	e->ops->enqueue(e, cpu, p, w);
	CHECK_AFTER(e, "enqueue");
	/* a start with a wakeup row (sched_wakeup_new) onto an idle CPU runs
	 * after the wake latency; a wakeup has spent its latency on the way
	 * (do_wake); a task present from the start and a balancing CPU
	 * pulling for itself switch at once */
	over = w->kind == SL_ENQ_START && p->eng->wake_pending;
	if (!c->curr)
		resched_after(e, cpu, over ? sl_eng_draw_lat(e, e->priv->o->wake_lat_ns) : 0);
	else if (e->ops->check_preempt && e->ops->check_preempt(e, cpu, p))
		resched_after(e, cpu, over ? sl_eng_switch_lat(e, p, 0) : 0);
	CHECK_AFTER(e, "check_preempt");
}

/* The running task p of cpu leaves its runqueue (sleep, exit, end). */
static void leave(struct sl_engine *e, int cpu, struct sl_task *p, char state)
{
	struct sl_cpu *c = &e->cpus[cpu];
	e->ops->dequeue(e, cpu, p, state);
	p->on_rq = 0;
	c->nr_running--;
	c->load -= p->load_weight;
	e->priv->nrunnable--;
	sl_eng_count_free(e, p, cpu, -1);
	p->eng->end_state = state;
	p->eng->blocked = 1;
	p->state = (state == 'S' || state == 'D') ? SL_TS_SLEEPING : SL_TS_DONE;
	c->need_resched = 1;
	CHECK_AFTER(e, "dequeue");
}

static void finish(struct sl_engine *e, struct sl_task *p)
{
	struct sl_task *a;
	p->state = SL_TS_DONE;
	e->priv->ndone++;
	sl_eng_reap_finish(e, p);
	sl_eng_release_all(e, p);
	sl_eng_holds_release(p);
	if ((a = sl_eng_unpark_by(e, p)) != NULL)
		sl_eng_resume_parked(e, a, p);
}

/* p starts a sleep (its phase p->ph ended with S/D) at now. */
static void begin_sleep(struct sl_engine *e, struct sl_task *p)
{
	struct sl_phase next;
	const struct sl_phase *ph = &p->eng->ph;
	uint64_t timed_end;

	p->sleep_start_ns = e->now;
	p->eng->token++;
	if (sl_task_phase(p->spec, p->eng->phase + 1, &next) < 0) {
		/* nothing after this sleep: its recorded work is done */
		finish(e, p);
		return;
	}
	timed_end = ph->sleep_ns > UINT64_MAX - e->now ? UINT64_MAX : e->now + ph->sleep_ns;
	if (ph->tick_n && !e->priv->o->no_tick_timers && e->priv->o->tick_phase_ns >= 0 &&
	    (ph->waker_kind == SL_WAKER_IRQ || ph->waker_kind == SL_WAKER_IDLE)) {
		/* a timer-wheel timer (docs/model.md "Timers that fire at the
		 * tick"): armed for tick_n jiffies, it fires at the tick_n-th
		 * tick from now, the next being next_tick; at that instant the
		 * wakeup comes after the tick's own work and before the switch
		 * it asks for, as run_timer_softirq does (sl_eng_loop) */
		uint64_t k = ph->tick_n - 1;
		timed_end = k > (UINT64_MAX - e->priv->next_tick) / e->tick_ns
				    ? UINT64_MAX
				    : e->priv->next_tick + k * e->tick_ns;
		e->priv->st.tick_timers++;
	} else {
		timed_end = sl_abs_timer_end(e, p, ph, timed_end); /* hrtimer.c */
		sl_hrt_arm(e, p, ph, timed_end); /* its own timer (hrtimer.c) */
	}
	if (e->mode == SL_MODE_CAUSAL && ph->waker_kind == SL_WAKER_TASK && ph->waker >= 0 &&
	    (size_t)ph->waker < e->ntasks && ph->waker != p->idx) {
		if (sl_eng_reap_wait(e, p, timed_end))
			return;
		sl_eng_wait_for(e, p, &e->tasks[ph->waker], ph->waker_progress_ns, timed_end, 0);
		return;
	}
	sl_eng_push_wake(e, p, timed_end);
}

/* ---- task life ---- */

static void wake_enqueue(struct sl_engine *e, struct sl_task *p, const struct sl_enq_info *wi,
			 struct sl_task *sync_waker);

static void do_wake(struct sl_engine *e, struct sl_task *p)
{
	struct sl_phase ended = p->eng->ph;
	struct sl_enq_info w;
	int waker = -1;
	size_t ph_idx = p->eng->phase;

	/* the next phase straight into its place (through a copy on the stack
	 * its 16-byte loads waited on the phase's field stores) */
	if (sl_task_phase(p->spec, p->eng->phase + 1, &p->eng->ph) < 0) {
		finish(e, p);
		return;
	}
	p->eng->phase++;
	sl_eng_phase_run(e, p);
	sl_eng_hold_phase(e, p);
	/* every field set here, no memset or zeroing initializer (gcc made
	 * them a slow rep stos); the assertion guards against a new field */
	_Static_assert(sizeof(struct sl_enq_info) == 64, "set every field of sl_enq_info here");
	w.kind = SL_ENQ_WAKE;
	w.sync = 0;
	w.waker = -1;
	w.waker_cpu = -1;
	w.src_cpu = -1;
	w.now = e->now;
	w.sleep_start_ns = p->sleep_start_ns;
	w.sleep_ns = e->now - p->sleep_start_ns;
	w.sleep_state = ended.end == SL_END_SLEEP_D ? 'D' : 'S';
	w.waker_kind = ended.waker_kind;
	w.pipe = ended.pipe;
	if (ended.waker_kind == SL_WAKER_TASK && ended.waker >= 0 && (size_t)ended.waker < e->ntasks) {
		struct sl_task *wk = &e->tasks[ended.waker];
		waker = ended.waker;
		w.waker = waker;
		if (wk->state == SL_TS_RUNNING)
			w.waker_cpu = wk->cpu;
		/* a sync wakeup (the waker is about to leave its CPU; inferred,
		 * docs/replay.md "Sync wakeups") means something only when the
		 * waker runs the wakeup on its CPU */
		w.sync = w.waker_cpu >= 0 && sl_sync_of(&e->priv->sync, (size_t)p->idx, ph_idx);
		e->priv->st.sync_wakeups += (uint64_t)w.sync;
	} else if ((ended.waker_kind == SL_WAKER_IRQ || ended.waker_kind == SL_WAKER_IDLE) &&
		   ended.wake_cpu1 && e->priv->irq_mode != SL_IRQ_CPU_SLEEPER) {
		/* an interrupt's wakeup runs try_to_wake_up on the CPU it fired
		 * on (docs/replay.md "Wakeup CPU") */
		w.waker_cpu = sl_eng_irq_cpu(e, p, &ended);
		e->priv->st.irq_cpu_wakeups++;
	}
	wake_enqueue(e, p, &w, w.sync ? &e->tasks[ended.waker] : NULL);
}

/* p's wakeup w (by w->waker, -1 none) reaches a CPU's runqueue: at once or
 * after the kernel's wakeup latency */
static void wake_enqueue(struct sl_engine *e, struct sl_task *p, const struct sl_enq_info *wi,
			 struct sl_task *sync_waker)
{
	struct sl_enq_info w = *wi;
	int cpu;
	p->eng->wake_pending = 1;
	p->eng->wake_ts = e->now;
	p->eng->wake_waker = w.waker;
	e->priv->st.wakeups++;
	cpu = sl_smp_wake_cpu(e, p, w.waker_cpu, sl_eng_waker_home(e, w.waker), sync_waker);
	if (e->priv->waking) {
		/* the kernel's wakeup path (docs/replay.md "Kernel overheads"):
		 * the task reaches the runqueue of the CPU chosen now after the
		 * latency of an idle or a busy target; everything the model
		 * does then (preemption, a resched from update_curr) is at once.
		 * A task blocked this very instant goes this way too: the
		 * recording shows its sleep */
		const struct sl_replay_opts *o = e->priv->o;
		struct sl_cpu *c = &e->cpus[cpu];
		const struct sl_task *cur = c->curr;
		uint64_t lat;
		if (w.waker < 0 && c->irq_lat_ts == e->now + 1 && c->irq_lat_busy == (cur != NULL) &&
		    !o->irq_lat_each) {
			/* another wakeup of the same interrupt (timers that
			 * expire together, __hrtimer_run_queues or the timer
			 * softirq): queued in the same instant, before the
			 * interrupt's exit reschedules (ttwu_do_activate) */
			lat = c->irq_lat;
		} else {
			lat = cur ? sl_eng_switch_lat(e, p, w.waker >= 0 && cur->idx == w.waker)
				  : sl_eng_draw_lat(e, o->wake_lat_ns);
			if (w.waker < 0) {
				c->irq_lat_ts = e->now + 1;
				c->irq_lat = lat;
				c->irq_lat_busy = cur != NULL;
			}
		}
		if (lat) {
			struct sl_waking *k = &e->priv->waking[p->idx];
			k->w = w;
			k->cpu = cpu;
			k->busy = e->cpus[cpu].curr != NULL;
			if (k->busy)
				e->cpus[cpu].wake_queued++;
			else
				e->cpus[cpu].wake_pending++;
			p->state = SL_TS_WAKING;
			e->priv->ntimed++;
			sl_evq_push(&e->priv->q, e->now + lat, EV_ENQUEUE, (uint32_t)p->idx, p->eng->token);
			return;
		}
	}
	sl_eng_enqueue(e, p, cpu, &w);
}

void sl_eng_resume_parked(struct sl_engine *e, struct sl_task *a, struct sl_task *b)
{
	struct sl_enq_info w;
	memset(&w, 0, sizeof(w));
	w.kind = SL_ENQ_WAKE;
	w.waker = b->idx;
	w.waker_cpu = b->cpu; /* b wakes it from its CPU just before it sleeps */
	/* a sync wakeup (a pipe's, WF_SYNC): its waker leaves its CPU next */
	w.sync = b->state == SL_TS_RUNNING && e->cpus[b->cpu].curr == b;
	w.src_cpu = -1;
	w.now = e->now;
	w.sleep_start_ns = a->sleep_start_ns;
	w.sleep_ns = e->now - a->sleep_start_ns;
	w.sleep_state = 'S';
	w.waker_kind = SL_WAKER_TASK;
	wake_enqueue(e, a, &w, w.sync ? b : NULL); /* counted as a hand-back */
}

/* cpu's running task p reached a point at which it wakes b, which has not
 * gone to sleep yet: p leaves its CPU until b sleeps (handback.c) */
static void park(struct sl_engine *e, int cpu, struct sl_task *p, struct sl_task *b)
{
	leave(e, cpu, p, 'S');
	p->sleep_start_ns = e->now;
	p->eng->parked_on = b;
	b->eng->parked_by = p;
	e->priv->ncausal++;
	e->priv->st.handbacks++;
}

static void appear(struct sl_engine *e, struct sl_task *p)
{
	struct sl_phase ph;
	const struct sl_task_spec *s = p->spec;
	struct sl_task *parent = NULL;
	int cpu;

	if (sl_task_phase(s, 0, &ph) < 0 || (!s->nphases && !s->run_ns) ||
	    (s->flags & (SL_TASK_IDLE | SL_TASK_EXCLUDED))) {
		/* nothing to replay (the idle task is never replayed) */
		finish(e, p);
		return;
	}
	p->eng->phase = 0;
	p->eng->ph = ph;
	sl_eng_phase_run(e, p);
	if (!s->initially_runnable && ph.run_ns == 0 &&
	    sl_end_sleeps(ph.end)) {
		/* present but asleep: its first sleep began before time 0 or at
		 * its appearance; it runs after the wakeup that ends phase 0 */
		p->state = SL_TS_SLEEPING;
		p->eng->end_state = (char)ph.end;
		begin_sleep(e, p);
		return;
	}
	sl_eng_hold_phase(e, p);
	/* a fork (SL_TASK_FORKED) goes through the policy's fork hook; a task
	 * whose "parent" is only its first waker (trace start) is a plain start */
	if ((s->flags & SL_TASK_FORKED) && s->parent >= 0 && (size_t)s->parent < e->ntasks &&
	    s->parent != p->idx) {
		struct sl_task *q = &e->tasks[s->parent];
		if (q->state != SL_TS_NEW && q->state != SL_TS_DONE)
			parent = q;
	}
	p->parent = parent;
	if (parent)
		p->last_ran_ns = e->now; /* dup_task_struct copies the parent's last_ran */
	/* a task forked or first woken inside the trace became runnable by a
	 * wakeup (sched_wakeup_new / sched_wakeup) in the recorded run: give
	 * the replay the same wakeup row, so that delay distributions and
	 * counts compare like with like (a task first woken by an interrupt
	 * or idle has none: docs/replay.md "Wakeup counts") */
	if ((s->flags & SL_TASK_FORKED) || (s->parent >= 0 && !(s->flags & SL_TASK_AT_START))) {
		p->eng->wake_pending = 1;
		p->eng->wake_ts = e->now;
		p->eng->wake_waker = s->parent >= 0 && (size_t)s->parent < e->ntasks ? s->parent : -1;
		e->priv->st.wakeups++;
	}
	if (parent) {
		struct sl_cpu *c;
		int had;
		cpu = sl_smp_fork_cpu(e, p, parent->cpu);
		c = rq_add(e, p, cpu);
		had = c->need_resched;
		e->ops->fork(e, parent, p, cpu);
		CHECK_AFTER(e, "fork");
		if (!c->curr) {
			resched_after(e, cpu, sl_eng_draw_lat(e, e->priv->o->wake_lat_ns));
		} else if (!had && c->need_resched && cpu != parent->cpu) {
			/* wake_up_new_task's preemption of another CPU's task:
			 * its resched reaches that CPU as a wakeup's does, after
			 * the switch latency (a child placed beside its running
			 * parent preempts it on the way out of fork at once) */
			c->need_resched = 0;
			resched_after(e, cpu, sl_eng_switch_lat(e, p, 0));
		}
	} else {
		struct sl_enq_info w;
		memset(&w, 0, sizeof(w));
		w.kind = SL_ENQ_START;
		w.now = e->now;
		w.waker = -1;
		w.waker_cpu = -1;
		w.src_cpu = -1;
		/* present at the trace's start: on the CPU the trace shows it
		 * on, else as any new task */
		cpu = s->flags & SL_TASK_FORKED ? -1 : sl_eng_start_cpu(e, p);
		if (cpu < 0)
			cpu = sl_smp_fork_cpu(e, p, -1);
		if (!p->eng->wake_pending) {
			p->eng->start_unrun = 1; /* finalize: a row if it never runs */
			p->eng->wake_ts = e->now;
			p->eng->wake_waker = -1;
		}
		sl_eng_enqueue(e, p, cpu, &w);
	}
}

/* The running task p of cpu goes on into its next phase without leaving
 * its CPU (a yield, an exec); 0, or -1 when there is none (its recorded
 * work is done: it leaves, E). */
static int run_on(struct sl_engine *e, int cpu, struct sl_task *p)
{
	struct sl_phase next;
	if (sl_task_phase(p->spec, p->eng->phase + 1, &next) < 0) {
		leave(e, cpu, p, 'E');
		finish(e, p);
		return -1;
	}
	p->eng->phase++;
	p->eng->ph = next;
	sl_eng_phase_run(e, p);
	sl_eng_hold_phase(e, p);
	return 0;
}

/* cpu's running task p has reached the end of its burst. */
static void burst_end(struct sl_engine *e, int cpu, struct sl_task *p)
{
	char end = p->eng->ph.end;

	switch (end) {
	case SL_END_YIELD:
		if (run_on(e, cpu, p))
			return;
		if (e->ops->yield) {
			e->ops->yield(e, cpu, p);
			CHECK_AFTER(e, "yield");
		}
		p->eng->yielded = 1;
		e->cpus[cpu].need_resched = 1;
		sl_eng_arm(e, cpu);
		return;
	case SL_END_EXEC:
		/* an exec point: the task keeps running into its next burst;
		 * sched_exec() balances it there (a move goes through the CPU's
		 * migration thread, sl_smp_exec) */
		if (run_on(e, cpu, p))
			return;
		e->priv->st.execs++;
		sl_smp_exec(e, cpu, p);
		sl_eng_arm(e, cpu);
		return;
	case SL_END_SLEEP_S:
	case SL_END_SLEEP_D: {
		/* a waker parked until p sleeps is woken by p on p's CPU, as p
		 * wrote its reply before it blocked (handback.c) */
		struct sl_task *a = sl_eng_unpark_by(e, p);
		if (a)
			sl_eng_resume_parked(e, a, p);
		leave(e, cpu, p, end);
		begin_sleep(e, p);
		return;
	}
	case SL_END_EXIT:
		leave(e, cpu, p, 'X');
		if (e->ops->task_exit) {
			e->ops->task_exit(e, p, p->parent && p->parent->state != SL_TS_DONE ? p->parent : NULL);
			CHECK_AFTER(e, "task_exit");
		}
		finish(e, p);
		return;
	default: /* SL_END_TRACE or unknown: the recorded work is done */
		leave(e, cpu, p, 'E');
		finish(e, p);
		return;
	}
}

static void emit_slice(struct sl_engine *e, int cpu, struct sl_task *p, char end)
{
	const struct sl_run_sink *k = e->priv->sink;
	if (k && k->slice && !e->priv->failed && !sl_eng_hidden(e, p) &&
	    k->slice(k->ctx, p->exec_start_ns, e->now - p->exec_start_ns, cpu, p->idx, end,
		     p->eng->slice_prio))
		sl_eng_error(e, "writing a sched_slice row failed");
}

static __attribute__((noinline)) void schedule(struct sl_engine *e, int c)
{
	struct sl_cpu *cpu = &e->cpus[c];
	struct sl_task *prev = cpu->curr, *next;
	char yielded = prev && prev->eng->yielded ? 'Y' : 'R';

	account(e, c);
	if (prev)
		prev->eng->yielded = 0;
	cpu->need_resched = 0;
	cpu->resched_pending = 0;
	cpu->resched_gen++;
	e->priv->in_schedule = 1;
	if (cpu->wake_queued &&
	    (cpu->nr_running == 0 || (prev && (prev->eng->blocked || yielded == 'Y'))))
		sl_eng_take_inflight(e, c);
	/* newidle balancing only on a CPU with nothing queued: a wakee on its
	 * way to this busy CPU that the blocking task woke in this instant
	 * (wake_queued, left after sl_eng_take_inflight) is on its runqueue
	 * in the kernel, which queues a wakeup run on the wakee's CPU at once
	 * (kernel/sched/core.c, ttwu_queue_cond) */
	if (e->ncpus > 1 && cpu->nr_running == 0 && !cpu->wake_queued)
		sl_smp_idle_balance(e, c);
	next = e->ops->pick_next(e, c, prev);
	e->priv->st.decisions++;
	CHECK_AFTER(e, "pick_next");
	if (next && (!next->on_rq || next->cpu != c || !sl_task_allowed(next, c) ||
		     (next->state == SL_TS_RUNNING && next != prev))) {
		sl_eng_error(e, "invariant: %s picked task %d which is not runnable on cpu %d",
			     e->ops->name, next->idx, c);
		return;
	}
	if (!next && cpu->nr_running > 0) {
		sl_eng_error(e, "invariant: %s left cpu %d idle with %u runnable tasks", e->ops->name, c,
			     cpu->nr_running);
		return;
	}
	if (e->ops->put_prev) {
		e->ops->put_prev(e, c, prev, next);
		CHECK_AFTER(e, "put_prev");
	}
	e->priv->in_schedule = 0;
	if (next == prev && !(prev && prev->eng->blocked))
		return;
	if (prev) {
		emit_slice(e, c, prev, prev->eng->blocked ? prev->eng->end_state : yielded);
		prev->eng->blocked = 0;
		prev->last_ran_ns = e->now;
		if (prev->on_rq)
			prev->state = SL_TS_RUNNABLE;
	}
	cpu->curr = next;
	cpu->charged_to = e->now;
	if (next) {
		next->state = SL_TS_RUNNING;
		next->exec_start_ns = e->now;
		next->eng->slice_prio = next->prio;
		e->priv->st.switches++;
		next->eng->start_unrun = 0;
		if (next->eng->wall_ph)
			sl_eng_wall_resume(e, next);
		if (next->eng->wake_pending) {
			const struct sl_run_sink *k = e->priv->sink;
			next->eng->wake_pending = 0;
			if (k && k->wakeup && !e->priv->failed &&
			    k->wakeup(k->ctx, next->idx, next->eng->wake_ts, e->now, next->eng->wake_waker, c))
				sl_eng_error(e, "writing a wakeup row failed");
		}
		if (sl_eng_hidden(e, next)) {
			/* the migration thread: its work, then it sleeps (its
			 * CPU time is not modelled: the same instant) */
			sl_smp_migration_run(e, c);
			leave(e, c, next, 'S');
			next->sleep_start_ns = e->now;
		}
	}
	sl_eng_arm(e, c);
}

int sl_eng_wake_migration(struct sl_engine *e, int cpu)
{
	struct sl_task *m;
	struct sl_enq_info w;
	if (cpu < 0 || cpu >= e->priv->nmig)
		return -1;
	m = &e->tasks[e->priv->nreal + (size_t)cpu];
	if (m->state != SL_TS_SLEEPING)
		return 0; /* already woken */
	/* wake_up_process from load_balance, in the timer interrupt of
	 * another CPU */
	memset(&w, 0, sizeof(w));
	w.kind = SL_ENQ_WAKE;
	w.now = e->now;
	w.sleep_start_ns = m->sleep_start_ns;
	w.sleep_ns = e->now - m->sleep_start_ns;
	w.sleep_state = 'S';
	w.waker_kind = SL_WAKER_IRQ;
	w.waker = -1;
	w.waker_cpu = -1;
	w.src_cpu = -1;
	sl_eng_enqueue(e, m, cpu, &w);
	return 0;
}

static void run_resched(struct sl_engine *e)
{
	int pass, c, any, n = e->ncpus;
	if (e->priv->failed)
		return;
	for (pass = 0; pass < 4 * n + 4; pass++) {
		any = 0;
		for (c = 0; c < n; c++)
			if (e->cpus[c].need_resched) {
				schedule(e, c);
				if (e->priv->failed)
					return;
				any = 1;
			}
		if (!any)
			return;
	}
}

/* The task of a timed event (a wakeup, a start, an enqueue after the
 * wakeup latency), the event counted off the timed ones. */
static struct sl_task *timed_task(struct sl_engine *e, const struct sl_ev *ev)
{
	e->priv->ntimed--;
	return &e->tasks[ev->id];
}

/* The timers of cpu whose soft expiry has come fire now (hrtimer.c). */
static void hrt_expire(struct sl_engine *e, int cpu)
{
	struct sl_task **due;
	size_t i, n = sl_hrt_due(e, cpu, &due);
	for (i = 0; i < n && !e->priv->failed; i++) {
		e->priv->st.hrt_early++;
		do_wake(e, due[i]);
	}
}

static void handle(struct sl_engine *e, const struct sl_ev *ev)
{
	struct sl_task *p;
	struct sl_cpu *cpu;

	switch (ev->kind) {
	case EV_PROGRESS:
		cpu = &e->cpus[ev->id];
		if (ev->gen != cpu->run_gen || !cpu->curr)
			return;
		p = cpu->curr;
		account(e, (int)ev->id);
		if (p->eng->waiters_n)
			sl_eng_release_reached(e, p);
		if (p->eng->run_left == 0) {
			burst_end(e, (int)ev->id, p);
		} else {
			struct sl_task *b = p->eng->holds_n ? sl_eng_hold_reached(p) : NULL;
			if (b)
				park(e, (int)ev->id, p, b);
			else
				sl_eng_arm(e, (int)ev->id);
		}
		return;
	case EV_WAKE: /* stale: another sleep's, or it waits on a causal edge */
		p = timed_task(e, ev);
		if (ev->gen == p->eng->token && p->state == SL_TS_SLEEPING && !p->eng->wait_on) {
			int hc = sl_hrt_fired(e, p);
			do_wake(e, p);
			if (hc >= 0)
				hrt_expire(e, hc);
		}
		return;
	case EV_START:
		p = timed_task(e, ev);
		if (p->state == SL_TS_NEW && !p->eng->wait_on)
			appear(e, p);
		return;
	case EV_ENQUEUE:
		p = timed_task(e, ev);
		if (ev->gen == p->eng->token && p->state == SL_TS_WAKING)
			sl_eng_arrive(e, p);
		return;
	case EV_ONLINE:
		sl_eng_cpu_online(e, (int)ev->id);
		CHECK_AFTER(e, "cpu online");
		return;
	case EV_TIMER:
		cpu = &e->cpus[ev->id];
		if (ev->gen == cpu->timer_gen && cpu->curr && cpu->curr->state == SL_TS_RUNNING &&
		    e->ops->timer) {
			account(e, (int)ev->id);
			e->ops->timer(e, (int)ev->id, cpu->curr);
			CHECK_AFTER(e, "timer");
		}
		return;
	case EV_RESCHED:
		cpu = &e->cpus[ev->id];
		if (ev->gen == cpu->resched_gen && cpu->resched_pending) {
			cpu->resched_pending = 0;
			cpu->need_resched = 1;
		}
		return;
	}
}

/* The scheduler tick of every CPU (they tick together, in CPU order). What
 * else happens at that instant (the timers run_timer_softirq fires,
 * docs/model.md "Timers that fire at the tick") comes after it, balancing
 * included (as 2.6.20's rebalance_tick in the tick itself; 6.x's
 * SCHED_SOFTIRQ runs after TIMER_SOFTIRQ, measured no closer). */
static void tick_all(struct sl_engine *e)
{
	int c;
	for (c = 0; c < e->ncpus && !e->priv->failed; c++) {
		struct sl_cpu *cpu = &e->cpus[c];
		e->priv->st.events++;
		if (cpu->curr && cpu->curr->state == SL_TS_RUNNING) {
			account(e, c);
			e->priv->st.ticks++;
			e->ops->tick(e, c, cpu->curr);
			CHECK_AFTER(e, "tick");
			hrt_expire(e, c); /* the tick is an hrtimer (hrtimer.c) */
		}
		if (e->ncpus > 1 && sl_eng_cpu_up(e, c)) /* (balancing has nothing to do
							   * on one CPU, or an offline one) */
			sl_smp_tick(e, c);
	}
	if (e->priv->smp.kick_pending)
		sl_smp_kick(e);
}

static void finalize(struct sl_engine *e)
{
	const struct sl_run_sink *k = e->priv->sink;
	struct sl_replay_stats *st = &e->priv->st;
	size_t i;
	int c;

	for (c = 0; c < e->ncpus; c++) {
		struct sl_cpu *cpu = &e->cpus[c];
		sl_eng_account(e, c);
		if (cpu->curr && cpu->curr->state == SL_TS_RUNNING)
			emit_slice(e, c, cpu->curr, 'E');
		st->busy_ns += cpu->busy_ns;
	}
	for (i = 0; i < e->ntasks; i++) {
		struct sl_task *p = &e->tasks[i];
		/* a task that started runnable (no wakeup row: it was running
		 * or queued at the trace's start, or a workload's task) and
		 * never ran wanted to run from its start to the end: its row
		 * is a wakeup that never ran (ts_run NULL), so that the
		 * metrics and every view show it and its wait (issue 25) */
		if (p->eng->start_unrun && !sl_eng_hidden(e, p) && p->state != SL_TS_DONE)
			p->eng->wake_pending = 1;
		if (p->eng->wake_pending && k && k->wakeup && !e->priv->failed &&
		    k->wakeup(k->ctx, p->idx, p->eng->wake_ts, UINT64_MAX, p->eng->wake_waker, p->cpu))
			sl_eng_error(e, "writing a wakeup row failed");
		if (p->state != SL_TS_DONE && (p->eng->total_work == SL_INF || p->sum_exec_ns < p->eng->total_work))
			st->unfinished++;
	}
	st->end_ns = e->now;
	st->idle_ns = (uint64_t)e->ncpus * e->now - st->busy_ns;
}

/* Run the replay set up by sl_replay_run from its start to its end (every
 * task done, or the duration) and write the rows left open at the end. */
void sl_eng_loop(struct sl_engine *e)
{
	struct sl_engine_priv *v = e->priv;
	struct sl_ev ev;

	while (!v->failed) {
		if (!v->duration && v->ndone == v->nreal)
			break;
		if (!v->nrunnable && !v->ntimed && v->ncausal) {
			sl_eng_break_deadlock(e);
			continue;
		}
		/* ticks are kept out of the heap: at equal times they come first */
		if (v->q.n && sl_evq_peek_time(&v->q) < v->next_tick) {
			sl_evq_pop(&v->q, &ev);
			if (v->duration && ev.t >= v->duration) {
				e->now = v->duration;
				break;
			}
			e->now = ev.t;
			v->st.events++;
			handle(e, &ev);
		} else {
			if (!v->q.n && !v->nrunnable && !v->ncausal) {
				/* nothing can ever happen again: idle to the end */
				if (v->duration)
					e->now = v->duration;
				break;
			}
			if (v->duration && v->next_tick >= v->duration) {
				e->now = v->duration;
				break;
			}
			if (!v->nrunnable && v->q.n && sl_evq_peek_time(&v->q) > v->next_tick) {
				/* every CPU idle: nothing happens at the ticks before the
				 * next event, skip to the last one (long sleeps cost O(1)) */
				uint64_t t = sl_evq_peek_time(&v->q);
				v->next_tick += (t - v->next_tick) / e->tick_ns * e->tick_ns;
				if (v->duration && v->next_tick >= v->duration) {
					e->now = v->duration;
					break;
				}
			}
			e->now = v->next_tick;
			v->next_tick += e->tick_ns;
			tick_all(e);
		}
		/* need_resched is acted on once every event of this instant has
		 * been handled (as the kernel does on return from interrupt) */
		if (!v->q.n || sl_evq_peek_time(&v->q) != e->now ||
		    (!v->duration && v->ndone == v->nreal)) {
			run_resched(e);
			idle_wait_track(e);
		}
	}
	if (!v->failed) {
		if (v->iw_on) /* close a stretch still open at the end */
			idle_wait_close(e);
		finalize(e);
	}
}
