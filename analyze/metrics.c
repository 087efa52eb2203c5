/* analyze/metrics.c - see metrics.h. */
#include "metrics.h"
#include "fairwin.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t sl_percentile(const uint64_t *sorted, size_t n, double p)
{
	size_t rank;
	if (!n)
		return 0;
	rank = (size_t)ceil(p / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return sorted[rank - 1];
}

uint64_t *sl_run_delays(const struct sl_run_data *r, size_t *n)
{
	uint64_t *v = xmalloc((r->nwakeups ? r->nwakeups : 1) * sizeof(uint64_t));
	size_t i, k = 0;
	for (i = 0; i < r->nwakeups; i++)
		if (r->wakeups[i].ts_run != UINT64_MAX && r->wakeups[i].ts_run >= r->wakeups[i].ts)
			v[k++] = r->wakeups[i].ts_run - r->wakeups[i].ts;
	sl_sort_u64(v, k);
	*n = k;
	return v;
}

size_t sl_run_thread_index(const struct sl_run_data *r, int64_t utid)
{
	size_t lo = 0, hi = r->nthreads;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->threads[mid].utid < utid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct acc {
	uint64_t runtime, switches, wakeups;
	uint64_t *delays;
	size_t nd, cd;
	uint64_t max_wait;
	uint64_t ready_since; /* preempted at (UINT64_MAX: not waiting) */
	uint64_t wait_sum;    /* runnable but not running: wakeup delays and preemption waits */
	uint64_t born, gone;  /* first slice or wakeup, last slice end */
	uint64_t open_since;  /* latest wakeup that never ran (UINT64_MAX: none) */
};

static void class_delays(struct sl_class_delays *c, uint64_t *v, size_t n)
{
	sl_sort_u64(v, n);
	c->delays = n;
	c->p50_ns = sl_percentile(v, n, 50);
	c->p95_ns = sl_percentile(v, n, 95);
	c->p99_ns = sl_percentile(v, n, 99);
	c->max_ns = n ? v[n - 1] : 0;
}

static int cmp_task(const void *a, const void *b)
{
	const struct sl_task_metrics *x = a, *y = b;
	/* the longest runtime first */
	return x->runtime_ns != y->runtime_ns ? SL_CMP(y->runtime_ns, x->runtime_ns) : SL_CMP(x->utid, y->utid);
}

double sl_ks_distance(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	size_t i = 0, j = 0;
	double d = 0;
	if (!na || !nb)
		return na == nb ? 0 : 1;
	while (i < na && j < nb) {
		uint64_t x = a[i] < b[j] ? a[i] : b[j];
		double diff;
		while (i < na && a[i] <= x)
			i++;
		while (j < nb && b[j] <= x)
			j++;
		diff = fabs((double)i / (double)na - (double)j / (double)nb);
		if (diff > d)
			d = diff;
	}
	return d;
}

void sl_run_ref_begin(struct sl_run_ref *ref, int64_t run_id, const struct sl_thread_row *threads,
		      size_t nthreads, uint64_t *delays, size_t ndelays)
{
	size_t i;
	memset(ref, 0, sizeof(*ref));
	ref->run_id = run_id;
	ref->delays = delays;
	ref->ndelays = ndelays;
	ref->ntasks = nthreads;
	ref->utid = xmalloc((nthreads ? nthreads : 1) * sizeof(*ref->utid));
	ref->runtime = xcalloc(nthreads ? nthreads : 1, sizeof(*ref->runtime));
	ref->cls = xcalloc(nthreads ? nthreads : 1, 1);
	for (i = 0; i < nthreads; i++)
		ref->utid[i] = threads[i].utid; /* sorted by utid (sl_run_thread_index) */
}

void sl_run_ref_add_slices(struct sl_run_ref *ref, const struct sl_slice_row *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		size_t lo = 0, hi = ref->ntasks;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (ref->utid[mid] < v[i].utid)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < ref->ntasks && ref->utid[lo] == v[i].utid)
			ref->runtime[lo] += v[i].dur;
	}
}

static size_t ref_index(const struct sl_run_ref *ref, int64_t utid)
{
	size_t lo = 0, hi = ref->ntasks;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ref->utid[mid] < utid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ref->ntasks && ref->utid[lo] == utid ? lo : SIZE_MAX;
}

void sl_run_ref_set_classes(const struct sl_run_ref *ref, const struct sl_run_metrics *m)
{
	size_t i, k;
	if (!ref->cls || ref->run_id != m->run.id)
		return;
	for (i = 0; i < m->ntasks; i++)
		if ((k = ref_index(ref, m->tasks[i].utid)) != SIZE_MAX)
			ref->cls[k] = m->tasks[i].cls;
}

void sl_run_ref_of(const struct sl_run_data *r, struct sl_run_ref *ref)
{
	size_t nd;
	uint64_t *dl = sl_run_delays(r, &nd);
	struct sl_run_metrics m;
	sl_run_ref_begin(ref, r->run.id, r->threads, r->nthreads, dl, nd);
	sl_run_ref_add_slices(ref, r->slices, r->nslices);
	sl_metrics_compute(r, ref, &m); /* its classes (kept in ref by finish) */
	sl_run_metrics_release(&m);
}

int sl_run_ref_load(struct sl_store *s, int64_t run_id, struct sl_run_ref *ref, struct sl_diag *d)
{
	struct sl_run_data r;
	memset(ref, 0, sizeof(*ref));
	if (sl_store_load_run(s, run_id, &r, d))
		return -1;
	sl_run_ref_of(&r, ref);
	sl_run_data_release(&r);
	return 0;
}

void sl_run_ref_release(struct sl_run_ref *ref)
{
	free(ref->delays);
	free(ref->utid);
	free(ref->runtime);
	free(ref->cls);
	memset(ref, 0, sizeof(*ref));
}

static uint64_t runtime_of(const struct sl_run_ref *ref, int64_t utid)
{
	size_t k = ref_index(ref, utid);
	return k != SIZE_MAX ? ref->runtime[k] : 0;
}

struct cls_acc {
	uint64_t *v;
	size_t n, cap, tasks;
};

/* Jain's index over the largest group of CPU-bound tasks of one nice level
 * (ties: the lower nice), of their CPU rates; m->tasks not yet sorted, rate
 * indexed like it. Over every task it would mix hogs with kernel threads
 * that sleep nearly always, and say nothing about fairness. */
static void jain_comparable(struct sl_run_metrics *m, const double *rate)
{
	int nice, best_nice = 0;
	size_t i, n, best = 0;
	double s = 0, ss = 0;
	for (nice = -20; nice <= 19; nice++) {
		for (i = 0, n = 0; i < m->ntasks; i++)
			n += m->tasks[i].cls == SL_CLASS_CPU && m->tasks[i].nice == nice;
		if (n > best) {
			best = n;
			best_nice = nice;
		}
	}
	m->jain_cpu = NAN;
	m->jain_cpu_tasks = best;
	m->jain_cpu_nice = best_nice;
	if (best < 2)
		return;
	for (i = 0; i < m->ntasks; i++)
		if (m->tasks[i].cls == SL_CLASS_CPU && m->tasks[i].nice == best_nice) {
			s += rate[i];
			ss += rate[i] * rate[i];
		}
	m->jain_cpu = ss > 0 ? s * s / ((double)best * ss) : 1.0;
}

static size_t thread_index(const struct sl_thread_row *th, size_t n, int64_t utid)
{
	size_t lo = 0, hi = n;
	/* utids are mostly dense: the place utid - first is the one at once */
	if (n && utid >= th[0].utid && (uint64_t)(utid - th[0].utid) < n &&
	    th[utid - th[0].utid].utid == utid)
		return (size_t)(utid - th[0].utid);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (th[mid].utid < utid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct sl_metrics_acc {
	struct sl_run_info run;
	const struct sl_thread_row *threads;
	size_t nthreads;
	struct acc *a;
	uint64_t first, last;
	uint64_t open_last; /* latest wakeup that never ran */
	struct sl_delay_figs dl; /* the run's delays (sl_metrics_delays) */
	struct sl_fairwin *fw;   /* on-runqueue time by window (jain_window) */
};

struct sl_metrics_acc *sl_metrics_begin(const struct sl_run_info *run,
					const struct sl_thread_row *threads, size_t nthreads)
{
	struct sl_metrics_acc *m = xcalloc(1, sizeof(*m));
	size_t i;
	m->run = *run;
	m->threads = threads;
	m->nthreads = nthreads;
	m->a = xcalloc(nthreads ? nthreads : 1, sizeof(*m->a));
	m->fw = sl_fairwin_new(nthreads);
	m->first = UINT64_MAX;
	for (i = 0; i < nthreads; i++) {
		m->a[i].ready_since = UINT64_MAX;
		m->a[i].born = UINT64_MAX;
		m->a[i].open_since = UINT64_MAX;
	}
	return m;
}

/* slices are ordered by ts: a preempted task waits until its next slice */
void sl_metrics_add_slices(struct sl_metrics_acc *m, const struct sl_slice_row *v, size_t n)
{
	struct acc *a = m->a;
	size_t i;
	for (i = 0; i < n; i++) {
		const struct sl_slice_row *s = &v[i];
		size_t t = thread_index(m->threads, m->nthreads, s->utid);
		if (t >= m->nthreads || m->threads[t].utid != s->utid)
			continue;
		if (a[t].ready_since != UINT64_MAX && s->ts >= a[t].ready_since) {
			sl_fairwin_add(m->fw, t, a[t].ready_since, s->ts, 0);
			a[t].wait_sum += s->ts - a[t].ready_since;
			if (s->ts - a[t].ready_since > a[t].max_wait)
				a[t].max_wait = s->ts - a[t].ready_since;
		}
		if (s->ts < a[t].born)
			a[t].born = s->ts;
		if (s->ts + s->dur > a[t].gone)
			a[t].gone = s->ts + s->dur;
		a[t].ready_since = s->end_state == 'R' || s->end_state == 'Y' ? s->ts + s->dur : UINT64_MAX;
		sl_fairwin_add(m->fw, t, s->ts, s->ts + s->dur, 1);
		a[t].runtime += s->dur;
		a[t].switches++;
		if (s->ts < m->first)
			m->first = s->ts;
		if (s->ts + s->dur > m->last)
			m->last = s->ts + s->dur;
	}
}

/* (sums, minima and maxima: the same whether before or after the slices) */
void sl_metrics_add_wakeups(struct sl_metrics_acc *m, const struct sl_wakeup_row *v, size_t n)
{
	struct acc *a = m->a;
	size_t i;
	for (i = 0; i < n; i++) {
		const struct sl_wakeup_row *w = &v[i];
		size_t t = thread_index(m->threads, m->nthreads, w->utid);
		if (t >= m->nthreads || m->threads[t].utid != w->utid)
			continue;
		a[t].wakeups++;
		if (w->ts_run == UINT64_MAX) {
			if (a[t].open_since == UINT64_MAX || w->ts > a[t].open_since)
				a[t].open_since = w->ts;
			if (w->ts < a[t].born)
				a[t].born = w->ts;
			if (w->ts > m->open_last)
				m->open_last = w->ts;
		} else if (w->ts_run >= w->ts) {
			uint64_t dl = w->ts_run - w->ts;
			sl_fairwin_add(m->fw, t, w->ts, w->ts_run, 0);
			a[t].wait_sum += dl;
			if (w->ts < a[t].born)
				a[t].born = w->ts;
			SL_GROW(a[t].delays, a[t].cd, a[t].nd + 1);
			a[t].delays[a[t].nd++] = dl;
			if (dl > a[t].max_wait)
				a[t].max_wait = dl;
		}
	}
}

void sl_delay_figs_of(const uint64_t *all, size_t nall, const uint64_t *ref, size_t nref,
		      int with_ref, struct sl_delay_figs *f)
{
	double sum = 0;
	size_t k;
	for (k = 0; k < nall; k++)
		sum += (double)all[k];
	f->n = nall;
	f->mean_ns = nall ? sum / (double)nall : 0;
	f->p50_ns = sl_percentile(all, nall, 50);
	f->p95_ns = sl_percentile(all, nall, 95);
	f->p99_ns = sl_percentile(all, nall, 99);
	f->max_ns = nall ? all[nall - 1] : 0;
	f->ks = with_ref ? sl_ks_distance(all, nall, ref, nref) : NAN;
}

void sl_metrics_set_delays(struct sl_metrics_acc *acc, const struct sl_delay_figs *f)
{
	acc->dl = *f;
}

void sl_metrics_delays(struct sl_metrics_acc *acc, const struct sl_run_ref *ref, const uint64_t *all,
		       size_t nall)
{
	int with_ref = ref && ref->run_id != acc->run.id;
	sl_delay_figs_of(all, nall, with_ref ? ref->delays : NULL, with_ref ? ref->ndelays : 0,
			 with_ref, &acc->dl);
}

/* A task still waiting when the run ends waited until its end (the last
 * slice's end): preempted (its last slice ended runnable) or woken and never
 * run after its last slice (a wakeup row whose ts_run is NULL later than
 * its last slice: a task that never ran at all has only that row). A
 * wakeup that never ran but is followed by slices of the task is a lost
 * switch-in of a recording, not a wait: it is left out. (issue 25)
 * Replays only: a recording's CPUs stop at different times (per-CPU
 * buffers; on the 22-CPU Perfetto trace tasks preempted or woken 0.5-0.9 s
 * before the end on CPUs whose events had stopped), so there an open
 * wait at the end is not known to be one. */
static void close_open_waits(struct sl_metrics_acc *acc)
{
	size_t i;
	uint64_t end = acc->last;
	if (!strcmp(acc->run.scheduler, "recorded"))
		return;
	if (acc->open_last != 0 && (acc->first == UINT64_MAX || acc->open_last > end))
		end = acc->open_last;
	for (i = 0; i < acc->nthreads; i++) {
		struct acc *t = &acc->a[i];
		uint64_t since = t->ready_since;
		if (t->open_since != UINT64_MAX && (!t->switches || t->open_since >= t->gone) &&
		    (since == UINT64_MAX || t->open_since < since))
			since = t->open_since;
		if (since == UINT64_MAX || since > end)
			continue;
		t->wait_sum += end - since;
		sl_fairwin_add(acc->fw, i, since, end, 0);
		if (end - since > t->max_wait)
			t->max_wait = end - since;
		if (t->gone < end && t->born != UINT64_MAX)
			t->gone = end; /* on a runqueue until the end */
	}
}

void sl_metrics_finish(struct sl_metrics_acc *acc, const struct sl_run_ref *ref,
		       struct sl_run_metrics *m)
{
	struct acc *a = acc->a;
	const struct sl_thread_row *threads = acc->threads;
	size_t nthreads = acc->nthreads;
	struct cls_acc slp = { 0 }, cpu = { 0 };
	double *rate = xcalloc(nthreads ? nthreads : 1, sizeof(*rate)); /* by m->tasks index */
	uint64_t first = acc->first, last = acc->last;
	size_t i, k;
	double sum = 0, sumsq = 0;

	memset(m, 0, sizeof(*m));
	m->run = acc->run;
	close_open_waits(acc);
	m->span_ns = first == UINT64_MAX ? 0 : last - first;
	m->tasks = xcalloc(nthreads ? nthreads : 1, sizeof(*m->tasks));
	for (i = 0; i < nthreads; i++) {
		struct sl_task_metrics *tm;
		double s = 0, ss = 0;
		if (!a[i].switches && !a[i].wakeups) {
			free(a[i].delays);
			continue;
		}
		tm = &m->tasks[m->ntasks++];
		tm->utid = threads[i].utid;
		tm->tid = threads[i].tid;
		tm->nice = threads[i].nice;
		memcpy(tm->comm, threads[i].comm, sizeof(tm->comm));
		tm->runtime_ns = a[i].runtime;
		tm->uncertain_ns = threads[i].uncertain_ns;
		m->uncertain_ns += tm->uncertain_ns;
		tm->switches = a[i].switches;
		tm->wakeups = a[i].wakeups;
		tm->max_wait_ns = a[i].max_wait;
		if (a[i].nd)
			sl_sort_u64(a[i].delays, a[i].nd);
		for (k = 0; k < a[i].nd; k++) {
			s += (double)a[i].delays[k];
			ss += (double)a[i].delays[k] * (double)a[i].delays[k];
		}
		if (a[i].nd) {
			tm->delay_mean_ns = s / (double)a[i].nd;
			tm->delay_sd_ns = sqrt(fmax(0, ss / (double)a[i].nd -
							   tm->delay_mean_ns * tm->delay_mean_ns));
		}
		tm->delay_p50_ns = sl_percentile(a[i].delays, a[i].nd, 50);
		tm->delay_p95_ns = sl_percentile(a[i].delays, a[i].nd, 95);
		tm->delay_p99_ns = sl_percentile(a[i].delays, a[i].nd, 99);
		tm->delay_max_ns = a[i].nd ? a[i].delays[a[i].nd - 1] : 0;
		if (m->span_ns && acc->run.cpus > 0)
			tm->share = (double)a[i].runtime / ((double)m->span_ns * acc->run.cpus);
		{
			uint64_t life = a[i].gone > a[i].born && a[i].born != UINT64_MAX ?
						a[i].gone - a[i].born : 0;
			struct cls_acc *ca;
			tm->on_rq_share = life ? fmin(1.0, (double)(a[i].runtime + a[i].wait_sum) / (double)life) : 0;
			tm->cls = tm->on_rq_share >= 0.9 && 2 * life >= m->span_ns ? SL_CLASS_CPU :
				  tm->on_rq_share < 0.5 ? SL_CLASS_SLEEPER : SL_CLASS_MIXED;
			/* another run of a recorded trace: the task's class is
			 * its behaviour's, the recorded run's (issue 25) */
			if (ref && ref->cls && ref->run_id != acc->run.id) {
				size_t rk = ref_index(ref, tm->utid);
				if (rk != SIZE_MAX && ref->cls[rk])
					tm->cls = ref->cls[rk];
			}
			ca = tm->cls == SL_CLASS_CPU ? &cpu : tm->cls == SL_CLASS_SLEEPER ? &slp : NULL;
			if (ca) {
				ca->tasks++;
				SL_GROW(ca->v, ca->cap, ca->n + a[i].nd + 1);
				for (k = 0; k < a[i].nd; k++)
					ca->v[ca->n++] = a[i].delays[k];
			}
			rate[m->ntasks - 1] = life ? (double)a[i].runtime / (double)life : 0;
		}
		m->runtime_ns += a[i].runtime;
		m->wakeups += a[i].wakeups;
		if (a[i].max_wait > m->max_wait_ns)
			m->max_wait_ns = a[i].max_wait;
		sum += (double)a[i].runtime;
		sumsq += (double)a[i].runtime * (double)a[i].runtime;
		free(a[i].delays);
	}
	free(a);
	m->sleepers.tasks = slp.tasks;
	m->cpu_bound.tasks = cpu.tasks;
	class_delays(&m->sleepers, slp.v, slp.n);
	class_delays(&m->cpu_bound, cpu.v, cpu.n);
	free(slp.v);
	free(cpu.v);
	jain_comparable(m, rate);
	free(rate);
	{
		int *nice = xmalloc((nthreads ? nthreads : 1) * sizeof(*nice));
		for (i = 0; i < nthreads; i++)
			nice[i] = threads[i].nice;
		m->jain_window = sl_fairwin_finish(acc->fw, nice, &m->jain_windows);
		free(nice);
	}
	qsort(m->tasks, m->ntasks, sizeof(*m->tasks), cmp_task);
	if (ref && ref->run_id == m->run.id)
		sl_run_ref_set_classes(ref, m);
	m->jain = sumsq > 0 ? sum * sum / ((double)m->ntasks * sumsq) : 1.0;
	m->ndelays = acc->dl.n;
	m->delay_mean_ns = acc->dl.mean_ns;
	m->delay_p50_ns = acc->dl.p50_ns;
	m->delay_p95_ns = acc->dl.p95_ns;
	m->delay_p99_ns = acc->dl.p99_ns;
	m->delay_max_ns = acc->dl.max_ns;
	m->conservation_max_err_ns = NAN;
	m->delay_ks = acc->dl.ks;
	free(acc);
	if (ref && ref->run_id != m->run.id) {
		double maxerr = 0;
		for (i = 0; i < m->ntasks; i++) {
			double e = fabs((double)m->tasks[i].runtime_ns -
					(double)runtime_of(ref, m->tasks[i].utid));
			if (e > maxerr)
				maxerr = e;
		}
		m->conservation_max_err_ns = maxerr;
	}
}

void sl_metrics_compute(const struct sl_run_data *r, const struct sl_run_ref *ref,
			struct sl_run_metrics *m)
{
	struct sl_metrics_acc *a = sl_metrics_begin(&r->run, r->threads, r->nthreads);
	uint64_t *all;
	size_t nall;
	sl_metrics_add_slices(a, r->slices, r->nslices);
	sl_metrics_add_wakeups(a, r->wakeups, r->nwakeups);
	all = sl_run_delays(r, &nall);
	sl_metrics_delays(a, ref, all, nall);
	free(all);
	sl_metrics_finish(a, ref, m);
}

void sl_run_metrics_release(struct sl_run_metrics *m)
{
	free(m->tasks);
	memset(m, 0, sizeof(*m));
}

int sl_metrics_store(struct sl_store *s, const struct sl_run_metrics *m, struct sl_diag *d)
{
	int64_t id = m->run.id;
	size_t i;
	/* no delay (no wakeup ran): the figures are not 0 but absent */
	const double nd = m->ndelays ? 1 : NAN, ns = m->sleepers.delays ? 1 : NAN,
		     nc = m->cpu_bound.delays ? 1 : NAN;
	const struct {
		const char *name;
		double v;
	} run[] = {
		{ "runtime_ns", (double)m->runtime_ns },
		{ "span_ns", (double)m->span_ns },
		{ "tasks", (double)m->ntasks },
		{ "wakeups", (double)m->wakeups },
		{ "delay_mean_ns", nd * m->delay_mean_ns },
		{ "delay_p50_ns", nd * (double)m->delay_p50_ns },
		{ "delay_p95_ns", nd * (double)m->delay_p95_ns },
		{ "delay_p99_ns", nd * (double)m->delay_p99_ns },
		{ "delay_max_ns", nd * (double)m->delay_max_ns },
		{ "max_wait_ns", (double)m->max_wait_ns },
		{ "jain_index", m->jain },
		{ "jain_cpu_bound", m->jain_cpu },
		{ "jain_cpu_bound_tasks", (double)m->jain_cpu_tasks },
		{ "jain_window", m->jain_window },
		{ "jain_windows", (double)m->jain_windows },
		{ "sleeper_tasks", (double)m->sleepers.tasks },
		{ "sleeper_delay_p50_ns", ns * (double)m->sleepers.p50_ns },
		{ "sleeper_delay_p95_ns", ns * (double)m->sleepers.p95_ns },
		{ "sleeper_delay_p99_ns", ns * (double)m->sleepers.p99_ns },
		{ "sleeper_delay_max_ns", ns * (double)m->sleepers.max_ns },
		{ "cpu_bound_tasks", (double)m->cpu_bound.tasks },
		{ "cpu_bound_delay_p50_ns", nc * (double)m->cpu_bound.p50_ns },
		{ "cpu_bound_delay_p95_ns", nc * (double)m->cpu_bound.p95_ns },
		{ "cpu_bound_delay_p99_ns", nc * (double)m->cpu_bound.p99_ns },
		{ "cpu_bound_delay_max_ns", nc * (double)m->cpu_bound.max_ns },
		{ "conservation_max_err_ns", m->conservation_max_err_ns },
		{ "delay_ks_distance", m->delay_ks },
	};
	if (sl_store_clear_metrics(s, id, d))
		return -1;
	for (i = 0; i < SL_ARRAY_SIZE(run); i++)
		if (!isnan(run[i].v) && sl_store_put_metric(s, id, -1, run[i].name, run[i].v, d))
			return -1;
	for (i = 0; i < m->ntasks; i++) {
		const struct sl_task_metrics *t = &m->tasks[i];
		const struct {
			const char *name;
			double v;
		} tv[] = {
			{ "runtime_ns", (double)t->runtime_ns },
			{ "switches", (double)t->switches },
			{ "wakeups", (double)t->wakeups },
			{ "delay_mean_ns", t->delay_mean_ns },
			{ "delay_sd_ns", t->delay_sd_ns },
			{ "delay_p50_ns", (double)t->delay_p50_ns },
			{ "delay_p95_ns", (double)t->delay_p95_ns },
			{ "delay_p99_ns", (double)t->delay_p99_ns },
			{ "delay_max_ns", (double)t->delay_max_ns },
			{ "max_wait_ns", (double)t->max_wait_ns },
			{ "cpu_share", t->share },
			{ "on_rq_share", t->on_rq_share },
		};
		size_t k;
		for (k = 0; k < SL_ARRAY_SIZE(tv); k++)
			if (sl_store_put_metric(s, id, t->utid, tv[k].name, tv[k].v, d))
				return -1;
	}
	return 0;
}

const struct sl_task_metrics *sl_uncertain_longest_wait(const struct sl_run_metrics *m)
{
	size_t k;
	for (k = 0; m->max_wait_ns && k < m->ntasks; k++)
		if (m->tasks[k].max_wait_ns == m->max_wait_ns && m->tasks[k].uncertain_ns)
			return &m->tasks[k];
	return NULL;
}
