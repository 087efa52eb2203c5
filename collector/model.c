/* collector/model.c - events -> recorded run + behaviour model.
 *
 * Rules (docs/model.md):
 * - A slice is the interval between a task's switch-in and its switch-out on
 *   the same CPU; the part of a run that began before the trace (or before
 *   lost events) is not counted, as with summing per-CPU switch intervals.
 * - A burst is the CPU time a task gets between two sleeps; preemption
 *   (prev_state R) does not end a burst.
 * - A task's replay starts when it is first seen runnable: at its fork, at its
 *   first wakeup (the waker is its "parent" for causal starts), at its first
 *   preemption, or at the trace start if it is first seen switching in.
 * - A wakeup's waker is the task current at sched_waking (else sched_wakeup);
 *   from interrupt context, or when the "waker" is the woken task itself,
 *   the waker kind is IRQ; from the idle task, IDLE. */
#include "model_int.h"
#include "kthread.h"

#include <stdlib.h>
#include <string.h>

struct sl_model *sl_model_new(const struct sl_run_sink *rec, struct sl_diag *d)
{
	struct sl_model *m = xcalloc(1, sizeof(*m));
	m->rec = *rec;
	m->d = d;
	m->hcap = 1024;
	m->hkey = xmalloc(m->hcap * sizeof(int32_t));
	m->hval = xmalloc(m->hcap * sizeof(int32_t));
	memset(m->hkey, 0xff, m->hcap * sizeof(int32_t)); /* -1 = empty */
	return m;
}

static size_t hslot(const struct sl_model *m, int32_t tid)
{
	uint32_t h = (uint32_t)tid * 2654435761u;
	size_t i = h & (m->hcap - 1);
	while (m->hkey[i] != -1 && m->hkey[i] != tid)
		i = (i + 1) & (m->hcap - 1);
	return i;
}

static void hput(struct sl_model *m, int32_t tid, int32_t idx)
{
	size_t i;
	if ((m->hused + 1) * 2 > m->hcap) {
		int32_t *ok = m->hkey, *ov = m->hval;
		size_t oc = m->hcap, j;
		m->hcap *= 2;
		m->hkey = xmalloc(m->hcap * sizeof(int32_t));
		m->hval = xmalloc(m->hcap * sizeof(int32_t));
		memset(m->hkey, 0xff, m->hcap * sizeof(int32_t));
		for (j = 0; j < oc; j++)
			if (ok[j] != -1) {
				size_t s = hslot(m, ok[j]);
				m->hkey[s] = ok[j];
				m->hval[s] = ov[j];
			}
		free(ok);
		free(ov);
	}
	i = hslot(m, tid);
	if (m->hkey[i] == -1)
		m->hused++;
	m->hkey[i] = tid;
	m->hval[i] = idx;
}

static int32_t new_task(struct sl_model *m, int32_t tid, uint64_t ts)
{
	struct mtask *t;
	SL_GROW(m->t, m->tcap, m->nt + 1);
	t = &m->t[m->nt];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->tgid = -1;
	t->prio = -1;
	t->first_ts = t->last_ts = ts;
	t->cpu = -1;
	t->last_cpu = -1;
	t->waker = -1;
	t->spec.parent = -1;
	t->spec.idx = (int32_t)m->nt;
	hput(m, tid, (int32_t)m->nt);
	return (int32_t)m->nt++;
}

/* The live task with this tid (a new one if none, or if the old one died).
 * Returns -1 for the idle task (pid 0) and invalid pids. */
static int32_t task_of(struct sl_model *m, int32_t tid, uint64_t ts)
{
	size_t i;
	int32_t idx;
	if (tid <= 0)
		return -1;
	i = hslot(m, tid);
	if (m->hkey[i] == tid) {
		idx = m->hval[i];
		if (m->t[idx].state != T_DEAD) {
			m->t[idx].last_ts = ts;
			return idx;
		}
	}
	return new_task(m, tid, ts);
}

/* t's comm from an event's, unless the event does not know it: "",
 * trace-cmd's "<...>" (not in its saved cmdlines), "<idle>" (called once or
 * more per event: the string compares only for a name starting with '<') */
static void set_comm(struct mtask *t, const char *comm)
{
	if (!comm || !comm[0])
		return;
	if (comm[0] == '<' && (!strcmp(comm, "<...>") || !strcmp(comm, "<idle>")))
		return;
	memcpy(t->comm, comm, SL_COMM_LEN);
}

static void set_prio(struct mtask *t, int prio)
{
	if (prio >= 0 && prio < 140)
		t->prio = prio;
}

static struct mcpu *cpu_of(struct sl_model *m, int cpu)
{
	size_t n = (size_t)cpu + 1, i;
	if (n > m->ncpu) {
		m->cpu = xrealloc(m->cpu, n * sizeof(*m->cpu));
		m->lost = xrealloc(m->lost, n * sizeof(*m->lost));
		for (i = m->ncpu; i < n; i++) {
			memset(&m->cpu[i], 0, sizeof(m->cpu[i]));
			m->cpu[i].curr = -1;
			m->cpu[i].gap_old = -1;
			m->lost[i] = 0;
		}
		m->ncpu = n;
	}
	return &m->cpu[cpu];
}

void sl_model_add_phase(struct mtask *t, uint64_t run, char end)
{
	struct sl_phase *p;
	SL_GROW_HUGE(t->ph, t->cap, t->nph + 1);
	p = &t->ph[t->nph++];
	memset(p, 0, sizeof(*p));
	p->run_ns = run;
	p->end = end;
	p->waker = -1;
	/* its interference: its wall time less the charges of its slices,
	 * when every one had a charge */
	if (t->charged_any && !t->burst_work_bad && run != SL_INF)
		p->irq_ns = run - (t->burst_work < run ? t->burst_work : run);
	t->burst_work = 0;
	t->burst_work_bad = 0;
}

static void start_task(struct sl_model *m, struct mtask *t, uint64_t ts, int32_t starter,
		       uint64_t starter_progress)
{
	if (t->started)
		return;
	t->started = 1;
	t->spec.start_ns = ts - m->st.first_ts;
	t->spec.parent = starter;
	t->spec.parent_progress_ns = starter_progress;
	t->spec.initially_runnable = 1;
}

/* CPU time of task idx up to now, counting a slice in progress. */
static uint64_t progress(const struct sl_model *m, int32_t idx, uint64_t ts)
{
	const struct mtask *t = &m->t[idx];
	uint64_t p = t->cum_ns;
	if (t->state == T_RUNNING && t->cpu >= 0 && (size_t)t->cpu < m->ncpu) {
		const struct mcpu *c = &m->cpu[t->cpu];
		if (c->mode == C_SLICE && c->curr == idx && ts > c->since)
			p += ts - c->since;
	}
	return p;
}

/* The row of task idx's slice held back at a missed switch, if any, with
 * end state st: 'S' when a wakeup of the task comes first (it went to
 * sleep there: no wait until it runs again), 'R' when it runs again first
 * or the trace ends (docs/model.md, "Missed switches"). */
int sl_model_flush_pending(struct sl_model *m, int32_t idx, char st)
{
	struct mtask *t = &m->t[idx];
	if (!t->pend)
		return 0;
	t->pend = 0;
	return m->rec.slice(m->rec.ctx, t->pend_ts, t->pend_dur, t->pend_cpu, idx, st, t->pend_prio);
}

/* The CPU's open slice ends at `end` (end_state st): a slice row, and the
 * task's CPU time and current burst grow. */
static int close_slice(struct sl_model *m, struct mcpu *c, int cpu, uint64_t end, char st)
{
	struct mtask *t;
	uint64_t dur;
	if (c->mode != C_SLICE || c->curr < 0)
		return 0;
	t = &m->t[c->curr];
	if (end < c->since)
		end = c->since;
	dur = end - c->since;
	if (!dur && (st == '?' || c->guessed))
		return 0; /* nothing known ran */
	if (st == '?') {
		/* a switch we did not see: preempted or asleep, the task's next
		 * event tells (flush_pending) */
		if (sl_model_flush_pending(m, c->curr, 'R'))
			return -1;
		t->pend = 1;
		t->pend_ts = c->since;
		t->pend_dur = dur;
		t->pend_cpu = cpu;
		t->pend_prio = t->prio;
	} else if (st != SL_END_YIELD &&
		   m->rec.slice(m->rec.ctx, c->since, dur, cpu, c->curr, st, t->prio)) {
		return -1;
	}
	m->st.slices++;
	t->cum_ns += dur;
	/* the work the kernel charged in it (sched_stat_runtime: clock_task
	 * time, without IRQ and steal time; docs/model.md "Work and
	 * interference"), at most its wall time: a slice open before the
	 * trace began was charged for time before it too */
	if (t->charged_any) {
		uint64_t w = t->slice_charged < dur ? t->slice_charged : dur;
		sl_model_add_work(t, c->curr, cpu, dur, w);
		if (t->started && !t->burst_cut)
			t->burst_work += w;
	}
	if (t->started && (!t->charged_any || t->burst_cut))
		t->burst_work_bad = 1;
	t->slice_charged = 0;
	if (t->started)
		t->burst_ns += dur > t->burst_cut ? dur - t->burst_cut : 0;
	t->burst_cut = 0;
	if (st == SL_END_YIELD) /* a yield candidate: its row waits for the verdict */
		sl_yields_add(&m->y, c->curr, cpu, t->prio, c->since, dur, t->nph, t->burst_ns, c->weak_yield);
	return 0;
}

/* Task idx left its CPU through a switch we did not see (at `at`, the best
 * estimate): it is runnable, or asleep if a wakeup for it comes next. */
static void lost_sight(struct sl_model *m, int32_t idx, int cpu, uint64_t at)
{
	struct mtask *t = &m->t[idx];
	if (t->state == T_RUNNING && t->cpu != cpu)
		return; /* it runs elsewhere now */
	if (t->state == T_RUNNING)
		t->state = T_RUNNABLE;
	t->cpu = -1;
	t->missed_out = 1;
	t->sleep_ts = at;
	if (!t->started)
		t->spec.flags |= SL_TASK_AT_START;
}

static int switch_in(struct sl_model *m, int cpu, int32_t n, uint64_t ts, uint64_t hi);

/* Where the slice of task idx, begun at since (UINT64_MAX: not known), ended at a
 * switch the file lacks, its last evidence at lo and the next task's first
 * at hi: halfway, the best estimate with nothing else known; with the
 * kernel's mean slice of the thread (its ledger), that long after since,
 * clamped to [lo, hi]. On this machine the switch-outs of some threads
 * never reach the buffer (docs/model.md): halfway gave the machine's agent
 * (tokio-rt-worker) 27.7 ms of CPU on a recording where the kernel charged
 * it 2.77 ms over 7 slices. */
static uint64_t missed_end(const struct sl_model *m, int32_t idx, uint64_t since, uint64_t lo,
			   uint64_t hi)
{
	struct sl_slice_hint key, *h;
	uint64_t s;
	if (!m->nhint || since == UINT64_MAX || idx < 0)
		return lo + (hi - lo) / 2;
	key.tid = m->t[idx].tid;
	h = bsearch(&key, m->hint, m->nhint, sizeof(key), sl_model_hint_cmp);
	if (!h)
		return lo + (hi - lo) / 2;
	s = since + h->mean_ns < since ? hi : since + h->mean_ns;
	return s < lo ? lo : s > hi ? hi : s;
}

/* The earliest a task whose first evidence is at t could have started, with
 * pin (a sched_stat_runtime's ts - runtime, UINT64_MAX = none) and lo (the
 * end of what is known before), clamped to [lo, t]. */
static uint64_t window_hi(uint64_t lo, uint64_t t, uint64_t pin)
{
	uint64_t hi = pin < t ? pin : t;
	return hi < lo ? lo : hi;
}

/* Task idx was seen running on `cpu` from `hi` on while the model had it
 * running on another CPU d: d missed the switch that took it off. Its slice
 * there ends halfway between its last evidence on d and hi; d is then in a
 * gap until the next evidence of who runs on it (docs/model.md). */
static int depart(struct sl_model *m, int32_t idx, int cpu, uint64_t hi)
{
	struct mtask *t = &m->t[idx];
	struct mcpu *d;
	uint64_t lo, s;
	if (t->state != T_RUNNING || t->cpu < 0 || t->cpu == cpu || (size_t)t->cpu >= m->ncpu)
		return 0;
	d = &m->cpu[t->cpu];
	if ((d->mode != C_SLICE && d->mode != C_CURR) || d->curr != idx) {
		t->state = T_RUNNABLE;
		t->cpu = -1;
		return 0;
	}
	lo = d->last_ev;
	if (hi < lo)
		hi = lo;
	s = missed_end(m, idx, d->mode == C_SLICE ? d->since : UINT64_MAX, lo, hi);
	if (close_slice(m, d, t->cpu, s, '?'))
		return -1;
	t->uncertain_ns += hi - lo;
	m->st.missed_switches++;
	d->mode = C_GAP;
	d->gap_lo = s;
	d->gap_old = -1;
	d->gap_lost = 0;
	d->curr = -1;
	lost_sight(m, idx, t->cpu, s);
	return 0;
}

/* An event on `cpu` at t fired while task x ran there (x = -1: the idle
 * task); pin as in window_hi. Evidence that contradicts what the model
 * knows places the switch it missed (docs/model.md, "missed switches"). */
static int evidence(struct sl_model *m, int cpu, int32_t x, uint64_t t, uint64_t pin)
{
	struct mcpu *c = &m->cpu[cpu];
	uint64_t lo, hi, s;
	int32_t old;

	sl_model_seen_on(m, x, cpu);
	switch (c->mode) {
	case C_NONE: /* first sight of the CPU: who runs, not since when */
		c->curr = x;
		c->mode = C_CURR;
		c->last_ev = t;
		return 0;
	case C_GAP:
		lo = c->gap_lo;
		hi = window_hi(lo, t, pin);
		s = c->gap_lost ? hi : lo + (hi - lo) / 2;
		if (x >= 0)
			m->t[x].uncertain_ns += hi - lo;
		if (c->gap_old >= 0 && c->gap_old != x)
			m->t[c->gap_old].uncertain_ns += hi - lo;
		c->gap_old = -1;
		if (switch_in(m, cpu, x, s, hi))
			return -1;
		c->last_ev = t;
		return 0;
	default:
		if (c->curr == x) {
			if (t > c->last_ev)
				c->last_ev = t;
			c->fresh = 0;
			return 0;
		}
		/* The tail of the last switch: sched_switch fires before the
		 * context switch is done (__schedule() -> context_switch(),
		 * kernel/sched/core.c), and events fired in between still have
		 * prev as current (up to 84 us later in the 3.4 Android trace of
		 * catapult, a wakeup of prev itself). So prev is still taken as
		 * the tail until next shows itself, unless the kernel's own
		 * accounting says prev was switched in again (a runtime that
		 * starts after the switch); in a file without those, unless
		 * the event comes later than a switch's tail can (TAIL_MAX_NS:
		 * with them, a wakeup in prev's name may come before the
		 * runtime that places the switch back to prev). */
		if (c->fresh && c->mode == C_SLICE && x == c->prev_out &&
		    (m->seen_runtime || t - c->since <= TAIL_MAX_NS) &&
		    (pin == UINT64_MAX || pin <= c->since))
			return 0;
		/* a switch from curr to x was missed: somewhere in [lo, hi] */
		old = c->curr;
		lo = c->last_ev;
		hi = window_hi(lo, t, pin);
		s = missed_end(m, old, c->mode == C_SLICE ? c->since : UINT64_MAX, lo, hi);
		m->st.missed_switches++;
		if (old >= 0) {
			if (close_slice(m, c, cpu, s, '?'))
				return -1;
			m->t[old].uncertain_ns += hi - lo;
			lost_sight(m, old, cpu, s);
		}
		if (x >= 0)
			m->t[x].uncertain_ns += hi - lo;
		if (switch_in(m, cpu, x, s, hi))
			return -1;
		c->last_ev = t;
		return 0;
	}
}

/* Task n (-1: idle) starts running on cpu at ts; hi (>= ts) is when it
 * was certainly running (its evidence elsewhere stops there). */
/* Whether a CPU task idx may run on was seen idle for IDLE_PROOF_NS or
 * more within [lo, hi]: then idx was not waiting to run all along. */
static int idle_meanwhile(const struct sl_model *m, int32_t idx, uint64_t lo, uint64_t hi)
{
	uint64_t mask = sl_kthread_mask(m->t[idx].comm);
	size_t c;
	for (c = 0; c < m->ncpu; c++) {
		const struct mcpu *x = &m->cpu[c];
		uint64_t a = x->idle_lo > lo ? x->idle_lo : lo, b = x->idle_hi < hi ? x->idle_hi : hi;
		if (mask && (c >= 64 || !(mask & (1ULL << c))))
			continue;
		if (b > a && b - a >= IDLE_PROOF_NS)
			return 1;
		/* idle still */
		a = x->since > lo ? x->since : lo;
		if (x->mode == C_SLICE && x->curr < 0 && hi > a && hi - a >= IDLE_PROOF_NS)
			return 1;
	}
	return 0;
}

static int switch_in(struct sl_model *m, int cpu, int32_t n, uint64_t ts, uint64_t hi)
{
	struct mcpu *c = &m->cpu[cpu];
	if (n >= 0 && depart(m, n, cpu, hi))
		return -1;
	c = &m->cpu[cpu];
	if (c->mode == C_SLICE && c->curr < 0 && ts >= c->since + IDLE_PROOF_NS) {
		c->idle_lo = c->since; /* an idle stretch ends here */
		c->idle_hi = ts;
	}
	c->curr = n;
	c->mode = C_SLICE;
	c->since = ts;
	c->last_ev = hi;
	c->fresh = 0;
	c->guessed = 1;
	if (n >= 0) {
		struct mtask *t = &m->t[n];
		t->slice_charged = 0;
		if (t->pend && t->state == T_RUNNABLE && t->missed_out && t->started &&
		    idle_meanwhile(m, n, t->pend_ts + t->pend_dur, ts)) {
			/* taken off by the missed switch to sleep, woken unseen */
			if (sl_model_flush_pending(m, n, 'S'))
				return -1;
			sl_model_add_phase(t, t->burst_ns, SL_END_SLEEP_S);
			t->burst_ns = 0;
			t->state = T_SLEEPING;
			t->sleep_ts = t->pend_ts + t->pend_dur;
		}
		if (sl_model_flush_pending(m, n, 'R'))
			return -1;
		if (!t->started) {
			/* first seen switching in: runnable since the trace began,
			 * unless it was seen asleep (no wakeup event): then now */
			if (t->state == T_SLEEPING)
				start_task(m, t, ts, -1, 0);
			else {
				start_task(m, t, m->st.first_ts, -1, 0);
				t->spec.flags |= SL_TASK_AT_START;
			}
		} else if (t->state == T_SLEEPING && t->nph) {
			/* woken without a wakeup event (not traced or lost) */
			struct sl_phase *ph = &t->ph[t->nph - 1];
			ph->sleep_ns = ts > t->sleep_ts ? ts - t->sleep_ts : 0;
			ph->waker_kind = SL_WAKER_NONE;
			ph->wake_cpu1 = 0;
			ph->sleep_cpu1 = 0;
		}
		if (t->wake_pending) {
			uint64_t w = t->wake_ts < ts ? ts : t->wake_ts;
			if (m->rec.wakeup(m->rec.ctx, n, t->wake_ts, w, t->waker, cpu))
				return -1;
			m->st.wakeups++;
			t->wake_pending = 0;
		}
		t->state = T_RUNNING;
		t->missed_out = 0;
		t->out_unsure = 0;
		t->cpu = cpu;
		t->wide_stay += t->wide_pend && cpu == t->last_cpu;
		t->wide_move += t->wide_pend && cpu != t->last_cpu;
		t->wide_pend = 0;
		t->last_cpu = cpu;
		if (cpu < 64)
			t->cpus_seen |= 1ULL << cpu;
	}
	return 0;
}

/* A runnable switch-out is a yield candidate (docs/model.md, "Yields")
 * when nothing else can have preempted it: its slice (begun at a switch we
 * saw) ran under 100 us, no wakeup aimed at its CPU and no wakeup of the
 * next task came in during the slice (from WAKE_SKEW_NS before its start
 * for a sched_waking, which fires before the enqueue: a remote wakeup's
 * follows it by microseconds; sched_wakeup fires at the enqueue), the next
 * task is neither idle nor the CPU's stopper, and the trace has wakeups at
 * all: 1. With a wakeup in the slice, a weak candidate (2) once its task
 * had SL_YIELDS_MIN others (its row then waits for the verdict: other
 * tasks' rows stay in time order), a yield only for a task that yields
 * (yields.c). Else, with no wakeup aimed at its CPU in the 100 us before,
 * it is a quiet preemption. */
#define YIELD_NS 100000ULL
#define WAKE_SKEW_NS 20000ULL
static int yield_candidate(struct sl_model *m, const struct mcpu *c, int32_t p, const struct sl_event *ev)
{
	size_t i;
	uint64_t from;
	int quiet = c->mode == C_SLICE && (!c->wake_to || c->wake_to - 1 + YIELD_NS < ev->ts);
	if (!m->seen_wake || c->mode != C_SLICE || c->guessed || c->curr != p || p < 0 ||
	    !m->t[p].started || ev->pid2 <= 0 || ev->ts >= c->since + YIELD_NS ||
	    !strncmp(ev->comm2, "migration/", 10)) {
		if (quiet)
			sl_yields_quiet(&m->y, ev->cpu, ev->ts);
		return 0;
	}
	from = c->since > WAKE_SKEW_NS ? c->since - WAKE_SKEW_NS : 0;
	i = hslot(m, ev->pid2);
	if ((!c->wake_to || c->wake_to - 1 < (c->wake_early ? from : c->since)) &&
	    (m->hkey[i] != ev->pid2 || !m->t[m->hval[i]].wake_pending ||
	     m->t[m->hval[i]].wake_ts < (m->t[m->hval[i]].wake_pending == 2 ? from : c->since)))
		return ++m->t[p].nstrong, 1;
	return m->t[p].nstrong >= SL_YIELDS_MIN ? 2 : 0;
}

/* A wakeup or a move aimed at a CPU (target_cpu; every CPU when unknown)
 * may preempt its task: no yield there for a while. (A CPU no event came
 * from is not made known: its wake_to is 0 when it first shows.) */
static void aimed_at(struct sl_model *m, const struct sl_event *ev)
{
	size_t i;
	m->seen_wake |= ev->type != SL_EV_MIGRATE;
	for (i = ev->target_cpu < 0 ? 0 : (size_t)ev->target_cpu;
	     i < m->ncpu && (ev->target_cpu < 0 || i == (size_t)ev->target_cpu); i++) {
		m->cpu[i].wake_to = ev->ts + 1;
		m->cpu[i].wake_early = ev->type == SL_EV_WAKING;
	}
}

static int on_switch(struct sl_model *m, const struct sl_event *ev)
{
	struct mcpu *c;
	int32_t p = task_of(m, ev->pid, ev->ts), n;
	char st = sl_model_slice_state(ev->state), end;

	/* the switch itself says prev was running here */
	if (evidence(m, ev->cpu, p, ev->ts, UINT64_MAX))
		return -1;
	c = &m->cpu[ev->cpu];
	end = st == 'R' && (c->weak_yield = yield_candidate(m, c, p, ev)) ? SL_END_YIELD : st;
	c->weak_yield = c->weak_yield == 2;
	/* prev_state 0 or TASK_WAKING, no "preempted" bit (Perfetto; systing
	 * writes the raw __state, 0 for preemptions too): runnable, or asleep
	 * if a wakeup of it comes before it runs; the row waits to be told */
	if (end == 'R' && (ev->ctx & SL_CTX_RAW_RUNNING))
		end = '?';
	if (st == 'R')
		sl_yields_runnable(&m->y, p);
	if (p >= 0) {
		struct mtask *t = &m->t[p];
		set_comm(t, ev->comm);
		set_prio(t, ev->prio);
		if (c->mode == C_SLICE) {
			if (close_slice(m, c, ev->cpu, ev->ts, end))
				return -1;
		} else {
			t->spec.flags |= t->started ? SL_TASK_LOST : SL_TASK_AT_START;
		}
		t->out_unsure = 0;
		if (st == 'R') {
			t->state = T_RUNNABLE;
			start_task(m, t, ev->ts, -1, 0);
			if (end == '?') {
				t->out_unsure = 1;
				t->sleep_ts = ev->ts;
			}
		} else if (st == 'X') {
			if (t->started) {
				sl_model_add_phase(t, t->burst_ns, SL_END_EXIT);
				t->burst_ns = 0;
			}
			t->spec.flags |= SL_TASK_EXITED;
			t->state = T_DEAD;
			sl_model_kid_exit(m, t, ev->ts);
		} else {
			if (t->started) {
				sl_model_add_phase(t, t->burst_ns, st == 'D' ? SL_END_SLEEP_D : SL_END_SLEEP_S);
				t->burst_ns = 0;
			}
			t->state = T_SLEEPING;
			t->sleep_ts = ev->ts;
			t->wake_pending = 0;
		}
		t->cpu = -1;
		t->missed_out = 0;
	}
	n = task_of(m, ev->pid2, ev->ts);
	sl_model_seen_on(m, n, ev->cpu);
	if (n >= 0) {
		set_comm(&m->t[n], ev->comm2);
		set_prio(&m->t[n], ev->prio2);
	}
	sl_kacct_switch(m->ka, ev->cpu, ev->ts, p, ev->pid, st == 'R', n, ev->pid2,
			c->mode == C_SLICE ? 0 : m->st.first_ts); /* no row: an edge */
	if (switch_in(m, ev->cpu, n, ev->ts, ev->ts))
		return -1;
	c = &m->cpu[ev->cpu];
	c->prev_out = p;
	c->fresh = 1;
	c->guessed = 0;
	return 0;
}

static int on_wakeup(struct sl_model *m, const struct sl_event *ev)
{
	int32_t w = task_of(m, ev->pid, ev->ts), waker = -1;
	struct mtask *t;
	uint8_t kind;
	uint64_t prog = 0;

	if (w < 0)
		return 0;
	t = &m->t[w];
	set_comm(t, ev->comm);
	set_prio(t, ev->prio);
	/* sched_waking's target_cpu is task_cpu(p) before select_task_rq:
	 * the CPU it last ran on; sched_wakeup's, the one it was put on */
	sl_model_seen_on(m, w, ev->target_cpu);
	if (t->wake_pending == 2 && ev->type == SL_EV_WAKING && t->state == T_RUNNABLE) {
		/* sched_waking again, not run since the last: the kernel fires
		 * it only for a sleeping __state, which the task sets itself
		 * (ttwu_state_match, try_to_wake_up, kernel/sched/core.c, v6.6),
		 * so it ran and slept unseen: that wakeup's run is lost (its
		 * row has no ts_run, as at the trace's end); this one waits */
		if (m->rec.wakeup(m->rec.ctx, w, t->wake_ts, UINT64_MAX, t->waker, -1))
			return -1;
		m->st.wakeups++;
		t->wake_ts = ev->ts;
		sl_kacct_wake(m->ka, w, t->tid, ev->ts, SL_KW_WAKING, ev->cpu);
		return 0;
	}
	if (t->state == T_RUNNING) {
		/* a task's sched_waking while it runs: it is on its way to sleep
		 * (its __state set); if it was off its queue already, the wakeup
		 * waits until it is off its CPU, or goes to that CPU's wake list,
		 * and its sched_wakeup comes after the switch, from the idle task or
		 * an interrupt (try_to_wake_up, ttwu_queue_wakelist, v6.18); if it
		 * was still queued, sched_wakeup follows at once (ttwu_runnable)
		 * and it does not sleep (docs/model.md "Wakeups on the way to sleep") */
		int32_t k = ev->type == SL_EV_WAKING && ev->cur_pid > 0 && !sl_model_in_irq(ev)
				    ? task_of(m, ev->cur_pid, ev->ts) : -1;
		t = &m->t[w];
		t->ew_waker = k != w ? k : -1;
		t->ew_prog = k >= 0 && k != w ? progress(m, k, ev->ts) : 0;
		t->ew_ts = ev->type == SL_EV_WAKING ? ev->ts : 0;
	}
	if (t->state == T_RUNNING || t->wake_pending) {
		/* not asleep, or sched_wakeup after sched_waking: after the enqueue */
		if (t->wake_pending == 2 && ev->type == SL_EV_WAKEUP && t->state == T_RUNNABLE)
			sl_kacct_wake(m->ka, w, t->tid, ev->ts, SL_KW_WAKEUP, ev->cpu);
		return 0;
	}
	/* the switch we missed took it off to sleep; or the switch said
	 * __state 0 (raw, systing), yet the kernel fires sched_waking only for
	 * a task whose __state is a sleeping one (ttwu_state_match in
	 * try_to_wake_up, kernel/sched/core.c, v6.6), and it has not run since:
	 * it went to sleep there (docs/model.md, "Raw switch states") */
	if (t->state == T_RUNNABLE && (t->missed_out || t->out_unsure) &&
	    ev->type != SL_EV_WAKEUP_NEW) {
		if (sl_model_flush_pending(m, w, 'S'))
			return -1;
		t = &m->t[w];
		if (t->started) {
			sl_model_add_phase(t, t->burst_ns, SL_END_SLEEP_S);
			t->burst_ns = 0;
		}
		t->state = T_SLEEPING;
		t->missed_out = 0;
		t->out_unsure = 0;
	}
	if (t->state == T_RUNNABLE && ev->type != SL_EV_WAKEUP_NEW)
		return 0;
	/* who woke it */
	if (sl_model_in_irq(ev))
		kind = SL_WAKER_IRQ;
	else if (ev->cur_pid == 0)
		kind = SL_WAKER_IDLE;
	else if (ev->cur_pid < 0)
		kind = SL_WAKER_NONE;
	else {
		waker = task_of(m, ev->cur_pid, ev->ts);
		if (waker == w) {
			kind = SL_WAKER_IRQ;
			waker = -1;
		} else {
			kind = SL_WAKER_TASK;
			set_comm(&m->t[waker], ev->cur_comm);
			prog = progress(m, waker, ev->ts);
		}
	}
	t = &m->t[w]; /* task_of may have grown the array */
	if (kind != SL_WAKER_TASK && ev->type == SL_EV_WAKEUP && t->state == T_SLEEPING && t->ew_ts && t->ew_waker >= 0 &&
	    t->ew_ts + TAIL_MAX_NS >= t->sleep_ts && t->ew_ts <= t->sleep_ts + TAIL_MAX_NS) {
		kind = SL_WAKER_TASK; /* the task's wakeup on its way to sleep (above) */
		waker = t->ew_waker;
		prog = t->ew_prog;
	}
	t->ew_ts = 0;
	sl_model_kid_wake(m, t, kind == SL_WAKER_TASK ? waker : -1);
	if (!t->started) {
		start_task(m, t, ev->ts, waker, prog);
	} else if (t->state == T_SLEEPING && t->nph) {
		struct sl_phase *ph = &t->ph[t->nph - 1];
		ph->sleep_ns = ev->ts - t->sleep_ts;
		ph->waker_kind = kind;
		ph->waker = waker;
		ph->waker_progress_ns = prog;
		/* an interrupt's or the idle task's wakeup ran try_to_wake_up on
		 * the CPU it fired on: its this_cpu (sched_waking fires there;
		 * a sched_wakeup alone may fire on the target CPU, 6.x's
		 * ttwu_queue_wakelist) */
		ph->wake_cpu1 = kind == SL_WAKER_IRQ || kind == SL_WAKER_IDLE ? (uint32_t)ev->cpu + 1 : 0;
		/* and the CPU it slept on: the interrupt fired there (its own
		 * timer, as a rule) or elsewhere (docs/model.md) */
		ph->sleep_cpu1 = ph->wake_cpu1 && t->last_cpu >= 0 ? (uint32_t)t->last_cpu + 1 : 0;
		ph->wake_ts = ph->wake_cpu1 ? ev->ts : 0; /* for sl_mark_tick_timers (analyze/hz.h) */
		t->wide_pend = kind == SL_WAKER_IRQ && ph->sleep_cpu1 && sl_model_both_busy(m, ev->cpu, t->last_cpu);
	}
	t->state = T_RUNNABLE;
	sl_kacct_wake(m->ka, w, t->tid, ev->ts, ev->type == SL_EV_WAKING ? SL_KW_WAKING : SL_KW_NEW,
		      ev->cpu);
	t->wake_pending = ev->type == SL_EV_WAKING ? 2 : 1;
	t->wake_ts = ev->ts;
	t->waker = waker;
	return 0;
}

static int on_fork(struct sl_model *m, const struct sl_event *ev)
{
	int32_t p = task_of(m, ev->pid, ev->ts), c;
	size_t i;
	uint64_t prog = p >= 0 ? progress(m, p, ev->ts) : 0;
	if (ev->pid2 <= 0)
		return 0;
	/* a fork always makes a new task, even if the tid's exit was missed */
	i = hslot(m, ev->pid2);
	if (m->hkey[i] == ev->pid2 && m->t[m->hval[i]].state != T_DEAD) {
		struct mtask *old = &m->t[m->hval[i]];
		if (old->started || old->state != T_UNKNOWN) {
			old->state = T_DEAD;
			m->st.inconsistencies++;
		}
	}
	c = task_of(m, ev->pid2, ev->ts);
	if (p >= 0)
		set_comm(&m->t[p], ev->comm);
	set_comm(&m->t[c], ev->comm2[0] ? ev->comm2 : ev->comm);
	if (p >= 0) {
		m->t[c].prio = m->t[p].prio;
		m->t[c].tgid = -1;
		m->t[c].kthread = m->t[p].tid == 2;
	}
	start_task(m, &m->t[c], ev->ts, p, prog);
	m->t[c].spec.flags |= SL_TASK_FORKED;
	m->t[c].state = T_RUNNABLE;
	return 0;
}

/* sched_process_exec: the task running on ev->cpu exec'd. Its burst so
 * far ends in an exec point (SL_END_EXEC: it keeps running, the next burst
 * goes on at once), where a replay balances it as sched_exec() did: the
 * kernel's move (sched_exec -> select_task_rq(WF_EXEC), then the stopper)
 * comes before this event, which fires on the CPU the task went to. Only
 * a task running in a slice we saw begin (its CPU time so far is known). */
static int on_exec(struct sl_model *m, const struct sl_event *ev)
{
	int32_t x = task_of(m, ev->pid, ev->ts);
	struct mtask *t;
	const struct mcpu *c = &m->cpu[ev->cpu];
	uint64_t into;
	if (x < 0)
		return 0;
	t = &m->t[x];
	set_comm(t, ev->comm);
	if (!t->started || t->state != T_RUNNING || t->cpu != ev->cpu || c->mode != C_SLICE ||
	    c->curr != x || ev->ts < c->since)
		return 0;
	into = ev->ts - c->since;
	t->burst_work_bad = 1; /* the charges are not split at the exec */
	sl_model_add_phase(t, t->burst_ns + (into > t->burst_cut ? into - t->burst_cut : 0), SL_END_EXEC);
	t->burst_ns = 0;
	t->burst_cut = into;
	t->burst_work_bad = 1;
	m->st.execs++;
	return 0;
}

/* Lost events on cpu before ts: its task's slice ends at its last evidence,
 * and whoever runs next starts at its first (docs/model.md). */
static int on_lost(struct sl_model *m, const struct sl_event *ev)
{
	struct mcpu *c = cpu_of(m, ev->cpu);
	m->lost[ev->cpu] += ev->count;
	m->st.lost_events += ev->count;
	if (c->mode == C_GAP) {
		c->gap_lost = 1;
		return 0;
	}
	if (c->mode == C_NONE) /* nothing known yet: the trace starts after */
		return 0;
	if (c->curr >= 0) {
		m->t[c->curr].spec.flags |= SL_TASK_LOST;
		if (close_slice(m, c, ev->cpu, c->last_ev, '?'))
			return -1;
		lost_sight(m, c->curr, ev->cpu, c->last_ev);
	}
	c->gap_old = c->curr;
	c->gap_lo = c->last_ev;
	c->gap_lost = 1;
	c->curr = -1;
	c->mode = C_GAP;
	return 0;
}

/* sched_stat_runtime: the kernel charged ev->count ns to ev->pid, ending at
 * ev->ts (update_curr(), kernel/sched/fair.c; since 6.8 update_curr_common()
 * for every class). The task charged is the one running on the rq updated,
 * which is the event's CPU when pid is the event's current task; else
 * (a remote update, e.g. from a wakeup onto another CPU) it runs elsewhere:
 * on the CPU the model has it on, which this confirms. */
static uint64_t runtime_pin(struct sl_model *m, const struct sl_event *ev)
{
	if (ev->pid == ev->cur_pid)
		return ev->count <= ev->ts ? ev->ts - ev->count : 0;
	if (ev->pid > 0) {
		size_t i = hslot(m, ev->pid);
		if (m->hkey[i] == ev->pid) {
			struct mtask *t = &m->t[m->hval[i]];
			if (t->state == T_RUNNING && t->cpu >= 0 && (size_t)t->cpu < m->ncpu) {
				struct mcpu *d = &m->cpu[t->cpu];
				if ((d->mode == C_SLICE || d->mode == C_CURR) &&
				    d->curr == m->hval[i] && ev->ts > d->last_ev)
					d->last_ev = ev->ts;
			}
		}
	}
	return UINT64_MAX;
}

/* The first event on cpu, not a switch, fired while task x ran there: its
 * slice begins here (docs/model.md "The trace's start"); one not seen
 * before ran there from the trace's start, an edge of the ledger's
 * comparison before this, and a wakeup of x still open ran from a
 * switch-in the file lacks (no ts_run). */
static int first_sight(struct sl_model *m, int cpu, int32_t x, uint64_t ts)
{
	struct mtask *t = &m->t[x];
	sl_model_seen_on(m, x, cpu);
	if (!t->started && t->state != T_SLEEPING) {
		start_task(m, t, ts, -1, 0);
		t->spec.flags |= SL_TASK_AT_START;
		sl_kacct_edge(m->ka, x, t->tid, m->st.first_ts, ts);
	}
	if (t->wake_pending) {
		if (m->rec.wakeup(m->rec.ctx, x, t->wake_ts, UINT64_MAX, t->waker, -1))
			return -1;
		m->st.wakeups++;
		t->wake_pending = 0;
	}
	return switch_in(m, cpu, x, ts, ts);
}

/* Timestamps are ns of a boot clock: 2^62 ns is 146 years. A larger one is
 * a damaged file (a flipped high bit), and past 2^63 it would not even fit
 * the database's signed integers. */
#define MAX_TS (1ULL << 62)

int sl_model_event(void *model, const struct sl_event *ev)
{
	struct sl_model *m = model;
	int32_t cur;
	uint64_t pin = UINT64_MAX;
	if (ev->type == SL_EV_TASKINFO) /* not an event: kept for the end */
		return sl_model_kind_event(m, ev);
	if (ev->type == SL_EV_CUT) {
		if (!m->st.cut) {
			m->st.cut = 1;
			m->st.cut_at = ev->pos;
		}
		return 0;
	}
	if (ev->cpu < 0 || ev->cpu >= MAX_CPUS)
		return sl_fail(m->d, "%llu: CPU %d out of range", (unsigned long long)ev->pos, ev->cpu);
	if (ev->ts >= MAX_TS)
		return sl_fail(m->d, "%llu: timestamp %llu ns is past any clock (damaged)",
			       (unsigned long long)ev->pos, (unsigned long long)ev->ts);
	if (ev->pid < -1 || ev->pid2 < -1 || ev->cur_pid < -1)
		return sl_fail(m->d, "%llu: negative pid %d", (unsigned long long)ev->pos,
			       ev->pid < -1 ? ev->pid : ev->pid2 < -1 ? ev->pid2 : ev->cur_pid);
	if (!m->have_first) {
		m->st.first_ts = ev->ts;
		m->second_ts = UINT64_MAX;
		m->have_first = 1;
	} else if (m->second_ts == UINT64_MAX) {
		m->second_ts = ev->ts;
	}
	if (ev->ts < m->st.last_ts)
		return sl_fail(m->d, "%llu: event goes back in time", (unsigned long long)ev->pos);
	{
		struct mcpu *c = cpu_of(m, ev->cpu);
		if (c->have_last && sl_model_same_event(&c->last, ev)) {
			m->st.duplicates++; /* the same event twice: counted once */
			return 0;
		}
		c->last = *ev;
		c->have_last = 1;
	}
	if (m->st.events)
		m->prev_ts = m->st.last_ts;
	m->st.last_ts = ev->ts;
	m->st.events++;
	if (ev->type == SL_EV_LOST)
		return on_lost(m, ev);
	if (ev->type == SL_EV_RUNTIME) {
		pin = runtime_pin(m, ev);
		m->seen_runtime = 1;
		sl_tickrt_add(&m->tr, ev->ts, ev->cpu, SL_TM_RUNTIME);
	} else if (ev->type == SL_EV_SWITCH) {
		sl_tickrt_add(&m->tr, ev->ts, ev->cpu, SL_TM_SWITCH);
	}
	if (ev->type == SL_EV_WAKEUP || ev->type == SL_EV_WAKING || ev->type == SL_EV_WAKEUP_NEW ||
	    ev->type == SL_EV_MIGRATE) {
		aimed_at(m, ev);
		sl_tickrt_add(&m->tr, ev->ts, ev->target_cpu, SL_TM_AIMED);
	}
	if (ev->cur_pid > 0) {
		cur = task_of(m, ev->cur_pid, ev->ts);
		set_comm(&m->t[cur], ev->cur_comm);
		if (ev->cur_tgid > 0)
			m->t[cur].tgid = ev->cur_tgid;
	}
	/* every event says who runs on its CPU (a switch: its prev) */
	if (ev->type != SL_EV_SWITCH && ev->cur_pid >= 0) {
		int32_t x = ev->cur_pid ? task_of(m, ev->cur_pid, ev->ts) : -1;
		if (x >= 0 && m->cpu[ev->cpu].mode == C_NONE ? first_sight(m, ev->cpu, x, ev->ts)
							     : evidence(m, ev->cpu, x, ev->ts, pin))
			return -1;
	}
	switch (ev->type) {
	case SL_EV_SWITCH:
		return on_switch(m, ev);
	case SL_EV_WAKEUP:
	case SL_EV_WAKING:
	case SL_EV_WAKEUP_NEW:
		return on_wakeup(m, ev);
	case SL_EV_FORK:
		return on_fork(m, ev);
	case SL_EV_EXEC:
		return on_exec(m, ev);
	case SL_EV_MIGRATE: /* a task already known (no new one from a move) */
		if (m->ka && ev->pid > 0 && m->hkey[hslot(m, ev->pid)] == ev->pid)
			sl_kacct_migrate(m->ka, m->hval[hslot(m, ev->pid)], ev->pid, ev->ts);
		return 0;
	case SL_EV_EXIT: {
		int32_t t = task_of(m, ev->pid, ev->ts);
		if (t >= 0) {
			m->t[t].exiting = 1;
			set_comm(&m->t[t], ev->comm);
		}
		return 0;
	}
	case SL_EV_RUNTIME: {
		int32_t t = task_of(m, ev->pid, ev->ts);
		if (t >= 0) {
			struct mtask *x = &m->t[t];
			set_comm(x, ev->comm);
			/* charged to its open slice, wherever it runs */
			x->charged_any = 1;
			if (x->state == T_RUNNING)
				x->slice_charged += ev->count;
			sl_kacct_charge(m->ka, t, x->tid, ev->ts, ev->count, ev->cpu);
		}
		return 0;
	}
	default:
		return 0;
	}
}
