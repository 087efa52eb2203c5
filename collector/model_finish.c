/* collector/model_finish.c - the end of the model builder (model.c): the
 * yields' verdicts, the trace's gaps, the tasks' open phases and pending
 * rows, and the behaviour handed over (sl_model_finish, model.h). */
#include "model_int.h"
#include "kthread.h"

#include <stdlib.h>
#include <string.h>

static int cmp_work(const void *a, const void *b)
{
	const struct sl_work_row *x = a, *y = b;
	if (x->task != y->task)
		return x->task < y->task ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* Every task's wall and work per CPU, in one array by task then CPU. */
static void collect_work(struct sl_model *m)
{
	size_t i, n = 0;
	for (i = 0; i < m->nt; i++)
		n += m->t[i].ncw;
	m->st.work = xcalloc(n ? n : 1, sizeof(*m->st.work));
	m->st.nwork = 0;
	for (i = 0; i < m->nt; i++) {
		if (!m->t[i].ncw)
			continue;
		memcpy(m->st.work + m->st.nwork, m->t[i].cw, m->t[i].ncw * sizeof(*m->st.work));
		m->st.nwork += m->t[i].ncw;
	}
	qsort(m->st.work, m->st.nwork, sizeof(*m->st.work), cmp_work);
}

void sl_model_free(struct sl_model *m)
{
	size_t i;
	if (!m)
		return;
	for (i = 0; i < m->nt; i++) {
		free(m->t[i].ph);
		free(m->t[i].cw);
	}
	free(m->t);
	free(m->cpu);
	free(m->lost);
	free(m->hkey);
	free(m->hval);
	free(m->hint);
	sl_kacct_free(m->ka);
	free(m->kinds);
	sl_yields_free(&m->y);
	sl_tickrt_free(&m->tr);
	free(m);
}

int sl_model_both_busy(const struct sl_model *m, int a, int b)
{
	return a != b && a >= 0 && b >= 0 && (size_t)a < m->ncpu && (size_t)b < m->ncpu &&
	       m->cpu[a].curr >= 0 && m->cpu[b].curr >= 0;
}

int sl_model_kind_event(struct sl_model *m, const struct sl_event *ev)
{
	if (ev->pid > 0 && (ev->count == SL_KIND_KTHREAD || ev->count == SL_KIND_USER)) {
		SL_GROW(m->kinds, m->kcap, m->nkinds + 1);
		m->kinds[m->nkinds].tid = ev->pid;
		m->kinds[m->nkinds++].kind = (int32_t)ev->count;
	}
	return 0;
}

static int cmp_kind(const void *a, const void *b)
{
	const struct sl_task_kind *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* A kernel thread? The file's own word first (SL_EV_TASKINFO: Perfetto's
 * process tree, where a kernel thread has no command line, collector/
 * perfetto.c), then its fork by kthreadd, then its name (sl_is_kthread). */
static int is_kthread(const struct sl_model *m, const struct mtask *t)
{
	struct sl_task_kind key, *k;
	key.tid = t->tid;
	k = m->nkinds ? bsearch(&key, m->kinds, m->nkinds, sizeof(key), cmp_kind) : NULL;
	if (k)
		return k->kind == SL_KIND_KTHREAD;
	return sl_is_kthread(t->tid, t->kthread, t->comm);
}

int sl_model_finish(struct sl_model *m, struct sl_behaviour *b, uint64_t **first_ts,
		    uint64_t **last_ts, struct sl_model_stats *st)
{
	size_t i;
	/* the yield candidates' verdicts (a switch-out within 100 us of its
	 * CPU's tick is the tick's) and their rows */
	{
		/* the tick from sched_stat_runtime when the trace has it, else
		 * from the quiet preemptions (collector/yields.c) */
		struct sl_ticks tk;
		size_t lone;
		if (sl_tickrt_estimate(&m->tr, &tk, &lone) == 0) {
			m->st.tick_hz = tk.hz;
			m->st.tick_samples = tk.samples;
			m->st.tick_conc = tk.conc;
		}
		m->st.tick_phase_ns = m->st.tick_hz ? sl_ticks_phase(&tk) : -1;
		m->st.yields = sl_yields_resolve_tick(&m->y, m->nt, 100000.0, m->st.tick_hz ? &tk : NULL);
		sl_ticks_release(&tk);
		sl_tickrt_free(&m->tr);
	}
	if (sl_yields_emit(&m->y, &m->rec))
		return -1;
	memset(b, 0, sizeof(*b));
	if (m->nkinds)
		qsort(m->kinds, m->nkinds, sizeof(*m->kinds), cmp_kind);
	if (m->have_first && m->second_ts != UINT64_MAX) {
		m->st.lead_gap_ns = m->second_ts - m->st.first_ts;
		m->st.tail_gap_ns = m->st.last_ts - m->prev_ts;
	}
	b->ntasks = m->nt;
	b->tasks = xcalloc(m->nt ? m->nt : 1, sizeof(*b->tasks));
	*first_ts = xmalloc((m->nt ? m->nt : 1) * sizeof(uint64_t));
	m->st.uncertain_ns = xcalloc(m->nt ? m->nt : 1, sizeof(uint64_t));
	m->st.have_runtime = m->seen_runtime;
	if (m->ka) {
		/* a slice still open at the end has no row (below): an edge */
		for (i = 0; i < m->ncpu; i++)
			if (m->cpu[i].mode == C_SLICE && m->cpu[i].curr >= 0)
				sl_kacct_edge(m->ka, m->cpu[i].curr, m->t[m->cpu[i].curr].tid,
					      m->cpu[i].since, m->st.last_ts);
		sl_kacct_finish(m->ka, m->nt, &m->st.kwork_ns, &m->st.kwait_ns, &m->st.kedge_ns,
				&m->st.klo_ns, &m->st.khi_ns);
	}
	*last_ts = xmalloc((m->nt ? m->nt : 1) * sizeof(uint64_t));
	for (i = 0; i < m->nt; i++) {
		struct mtask *t = &m->t[i];
		struct sl_task_spec *s = &b->tasks[i];
		if (sl_model_flush_pending(m, (int32_t)i, 'R'))
			return -1;
		if (t->burst_cut) {
			/* a slice still open at the end has no row and adds no CPU
			 * time: take the part of it before its exec points back out
			 * of their phases (the latest first) */
			uint64_t rem = t->burst_cut, r;
			size_t k = t->nph;
			while (rem && k--) {
				if (t->ph[k].end != SL_END_EXEC)
					break;
				r = t->ph[k].run_ns < rem ? t->ph[k].run_ns : rem;
				t->ph[k].run_ns -= r;
				rem -= r;
			}
			t->burst_cut = 0;
		}
		if (t->started && t->state != T_DEAD) {
			if (t->state == T_SLEEPING && t->nph) {
				t->ph[t->nph - 1].end = SL_END_TRACE;
				t->ph[t->nph - 1].sleep_ns = 0;
			} else if (t->state != T_SLEEPING) {
				sl_model_add_phase(t, t->burst_ns, SL_END_TRACE);
			}
		}
		if (t->wake_pending) {
			if (m->rec.wakeup(m->rec.ctx, (int)i, t->wake_ts, UINT64_MAX, t->waker, -1))
				return -1;
			m->st.wakeups++;
		}
		*s = t->spec;
		s->idx = (int32_t)i;
		s->tid = t->tid;
		s->tgid = t->tgid > 0 ? t->tgid : t->tid;
		memcpy(s->comm, t->comm, sizeof(s->comm));
		if (t->prio >= 100) {
			s->nice = t->prio - 120;
			s->policy = SL_SCHED_NORMAL;
		} else if (t->prio >= 0) {
			s->policy = SL_SCHED_FIFO;
			s->rt_prio = 99 - t->prio;
		}
		if (is_kthread(m, t)) {
			s->flags |= SL_TASK_KTHREAD;
			s->cpumask = sl_kthread_mask(t->comm);
		}
		/* woken from an interrupt on the other CPU while both were busy,
		 * it ran where it slept at least 3 times and twice as often as
		 * not: wake_wide() kept it (docs/model.md "Wide wakees") */
		if (t->wide_stay >= SL_WIDE_MIN && t->wide_stay >= 2 * t->wide_move)
			s->flags |= SL_TASK_WIDE;
		if (t->kid_wakes >= 2 && !t->kid_named)
			s->flags |= SL_TASK_REAPS_ANY;
		sl_yields_split(&m->y, (int32_t)i, &t->ph, &t->nph, &t->cap);
		s->phases = t->ph;
		s->nphases = t->nph;
		t->ph = NULL;
		t->nph = 0;
		m->st.uncertain_ns[i] = t->uncertain_ns;
		(*first_ts)[i] = t->first_ts;
		(*last_ts)[i] = t->last_ts;
	}
	collect_work(m);
	b->cpus = (int)m->ncpu;
	b->t0 = m->st.first_ts;
	b->span_ns = m->st.last_ts - m->st.first_ts;
	*st = m->st;
	st->cpus = (int)m->ncpu;
	st->lost_per_cpu = m->lost;
	m->lost = NULL;
	return 0;
}

void sl_model_set_slice_hints(struct sl_model *m, const struct sl_slice_hint *h, size_t n)
{
	free(m->hint);
	m->hint = NULL;
	m->nhint = 0;
	if (!n)
		return;
	m->hint = xmalloc(n * sizeof(*h));
	memcpy(m->hint, h, n * sizeof(*h));
	qsort(m->hint, n, sizeof(*h), sl_model_hint_cmp);
	m->nhint = n;
}

void sl_model_set_windows(struct sl_model *m, const struct sl_ledger_window *w, size_t n)
{
	sl_kacct_free(m->ka);
	m->ka = sl_kacct_new(w, n);
}
