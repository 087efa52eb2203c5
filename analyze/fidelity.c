/* analyze/fidelity.c - see fidelity.h. */
#include "fidelity.h"
#include "metrics.h"
#include "../common/keyix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Index of the last slice in the CPU's list (ascending ts) starting
 * before t, or n if none. */
static size_t last_before(const struct sl_slice_row *sl, const size_t *idx, size_t n,
				uint64_t t)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (sl[idx[mid]].ts < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : n;
}

/* Whether a tick of cpu falls in the window [ts_run - W, ts_run + W] and
 * after ts + W: the switch at ts_run is then the tick's preemption (the
 * running task's slice ran out at the tick), not the cost of the wakeup
 * at ts. W = 100 us: the tick preemptions of a recording bunch within
 * +-30 us of their CPU's mean phase (traces/rec-build-mix.dat, 250 Hz). */
static int across_tick(const struct sl_ticks *t, int cpu, uint64_t ts, uint64_t ts_run)
{
	const double w = 100000;
	double ph = sl_ticks_nearest(t, cpu, ts_run); /* the tick nearest ts_run */
	return ph >= 0 && fabs((double)ts_run - ph) <= w && ph - w > (double)ts;
}

/* Put a CPU's slice indices in ts order where the rows were not written in
 * it (the rows a missed switch or a yield candidate held back,
 * docs/model.md). */
static void sort_by_ts(const struct sl_slice_row *sl, size_t *idx, size_t n)
{
	struct sl_keyix *v;
	size_t k;
	for (k = 1; k < n && sl[idx[k - 1]].ts <= sl[idx[k]].ts; k++)
		;
	if (k >= n)
		return;
	v = xmalloc(n * sizeof(*v));
	for (k = 0; k < n; k++) {
		v[k].key = (int64_t)sl[idx[k]].ts; /* ns: below 2^63 */
		v[k].i = idx[k];
	}
	sl_keyix_sort(v, n);
	for (k = 0; k < n; k++)
		idx[k] = v[k].i;
	free(v);
}

/* The slices of each CPU in ts order: CPU c's are idx[off[c]] to
 * idx[off[c + 1] - 1] (*off has ncpu + 1 entries); returns ncpu, the
 * highest CPU of a slice plus one (0 without slices). Free both. */
static int cpu_index(const struct sl_run_data *r, size_t **offp, size_t **idxp)
{
	size_t *off, *idx, *fill, i;
	int ncpu = 0;
	for (i = 0; i < r->nslices; i++)
		if (r->slices[i].cpu >= ncpu)
			ncpu = r->slices[i].cpu + 1;
	off = xcalloc((size_t)ncpu + 1, sizeof(*off));
	fill = xcalloc((size_t)ncpu + 1, sizeof(*fill));
	idx = xmalloc((r->nslices ? r->nslices : 1) * sizeof(*idx));
	for (i = 0; i < r->nslices; i++)
		if (r->slices[i].cpu >= 0)
			off[r->slices[i].cpu + 1]++;
	for (i = 0; i < (size_t)ncpu; i++)
		off[i + 1] += off[i];
	for (i = 0; i < r->nslices; i++) {
		int c = r->slices[i].cpu;
		if (c >= 0)
			idx[off[c] + fill[c]++] = i;
	}
	for (i = 0; i < (size_t)ncpu; i++)
		sort_by_ts(r->slices, idx + off[i], off[i + 1] - off[i]);
	free(fill);
	*offp = off;
	*idxp = idx;
	return ncpu;
}

void sl_overheads_calibrate(const struct sl_run_data *r, struct sl_overheads *o)
{
	size_t *off, *idx, i, nw = 0, ns = 0, no = 0;
	uint64_t *wv, *sv, *ov;
	int ncpu;
	struct sl_ticks ticks;

	memset(o, 0, sizeof(*o));
	ncpu = cpu_index(r, &off, &idx);
	if (!ncpu || !r->nwakeups) {
		free(off);
		free(idx);
		return;
	}
	wv = xmalloc(r->nwakeups * sizeof(*wv));
	sv = xmalloc(r->nwakeups * sizeof(*sv));
	ov = xmalloc(r->nwakeups * sizeof(*ov));
	sl_estimate_ticks(r, &ticks);
	o->hz = ticks.hz;
	/* a CPU with too few tick preemptions of its own to place its tick
	 * (an idle desktop's) takes the run's (sched_stat_runtime's) */
	sl_ticks_fill_recorded(&ticks, r->run.params, ncpu);
	for (i = 0; i < r->nwakeups; i++) {
		const struct sl_wakeup_row *w = &r->wakeups[i];
		const size_t *ci;
		size_t n, k;
		const struct sl_slice_row *next;
		if (w->ts_run == UINT64_MAX || w->ts_run < w->ts || w->cpu < 0 || w->cpu >= ncpu)
			continue;
		ci = idx + off[w->cpu];
		n = off[w->cpu + 1] - off[w->cpu];
		k = last_before(r->slices, ci, n, w->ts);
		/* the slice that follows on that CPU must be the woken task's,
		 * starting at ts_run: nothing else ran in between */
		next = k == n ? (n ? &r->slices[ci[0]] : NULL) : (k + 1 < n ? &r->slices[ci[k + 1]] : NULL);
		if (!next || next->utid != w->utid || next->ts != w->ts_run)
			continue;
		if (k == n || r->slices[ci[k]].ts + r->slices[ci[k]].dur <= w->ts) {
			wv[nw++] = w->ts_run - w->ts; /* the CPU was idle */
		} else {
			const struct sl_slice_row *prev = &r->slices[ci[k]];
			if (prev->end_state == 'R' && prev->ts + prev->dur == w->ts_run &&
			    prev->utid != w->utid) {
				if (across_tick(&ticks, w->cpu, w->ts, w->ts_run))
					o->ntick++; /* the tick preempted prev */
				else {
					sv[ns++] = w->ts_run - w->ts; /* preempted for it */
					if (w->waker_utid == prev->utid) /* a wakee of its own */
						ov[no++] = w->ts_run - w->ts;
				}
			}
		}
	}
	sl_sort_u64(wv, nw);
	sl_sort_u64(sv, ns);
	o->nwake = nw;
	o->nswitch = ns;
	o->wake_ns = sl_percentile(wv, nw, 50);
	o->switch_ns = sl_percentile(sv, ns, 50);
	sl_sort_u64(ov, no);
	o->nswitch_own = no;
	for (i = 0; i < SL_OVERHEAD_Q; i++) {
		double p = 100.0 * (double)(2 * i + 1) / (2.0 * SL_OVERHEAD_Q);
		o->wake_q[i] = sl_percentile(wv, nw, p);
		o->switch_q[i] = sl_percentile(sv, ns, p);
		o->switch_own_q[i] = no >= SL_OVERHEAD_OWN_MIN ? sl_percentile(ov, no, p) : o->switch_q[i];
	}
	o->switch_own_ns = no >= SL_OVERHEAD_OWN_MIN ? sl_percentile(ov, no, 50) : o->switch_ns;
	if (!nw && ns) {
		/* no wakeup onto an idle CPU to measure (a recording whose CPUs
		 * were never idle): the preemptions' latency, the IPI and the
		 * switch, rather than none at all */
		o->wake_ns = o->switch_ns;
		memcpy(o->wake_q, o->switch_q, sizeof(o->wake_q));
	}
	free(ov);
	sl_ticks_release(&ticks);
	free(wv);
	free(sv);
	free(idx);
	free(off);
}

void sl_overhead_of_run(const struct sl_run_data *r, struct sl_replay_opts *o,
			struct sl_overheads *out)
{
	struct sl_overheads ov;
	o->overhead = "auto";
	o->nq = 0;
	memset(&ov, 0, sizeof(ov));
	if (r)
		sl_overheads_calibrate(r, &ov);
	if (out)
		*out = ov;
	if (!ov.nwake && !ov.nswitch)
		return;
	o->nq = SL_OVERHEAD_Q;
	memcpy(o->wake_lat_ns, ov.wake_q, sizeof(ov.wake_q));
	memcpy(o->switch_lat_ns, ov.switch_q, sizeof(ov.switch_q));
	/* a running task's preemption for a wakee it made itself waits for its
	 * own way back from that system call; every other wakeup's reaches
	 * the CPU through an IPI or an interrupt (docs/replay.md "Kernel
	 * overheads") */
	o->switch_own = 1;
	memcpy(o->switch_own_lat_ns, ov.switch_own_q, sizeof(ov.switch_own_q));
}

int sl_overhead_auto(struct sl_store *s, int64_t trace_id, struct sl_replay_opts *o,
		     struct sl_overheads *out, struct sl_diag *d)
{
	struct sl_run_data r;
	int64_t rec;
	sl_overhead_of_run(NULL, o, out);
	if (sl_store_recorded_run(s, trace_id, &rec, d))
		return -1;
	if (!rec)
		return 0;
	if (sl_store_load_run(s, rec, &r, d))
		return -1;
	sl_overhead_of_run(&r, o, out);
	sl_run_data_release(&r);
	return 0;
}

/* Per task figures of one run, indexed like r->threads. */
struct ftask {
	uint64_t runtime, slices, migrations, wakeups;
	uint64_t mig_run; /* of the migrations, those after a slice that ended runnable */
	int last_cpu, last_runnable;
};

static struct ftask *per_task(const struct sl_run_data *r)
{
	struct ftask *t = xcalloc(r->nthreads ? r->nthreads : 1, sizeof(*t));
	size_t i;
	for (i = 0; i < r->nthreads; i++)
		t[i].last_cpu = -1;
	for (i = 0; i < r->nslices; i++) { /* by ts: each task's slices in order */
		const struct sl_slice_row *s = &r->slices[i];
		size_t k = sl_run_thread_index(r, s->utid);
		if (k >= r->nthreads || r->threads[k].utid != s->utid)
			continue;
		t[k].runtime += s->dur;
		t[k].slices++;
		if (t[k].last_cpu >= 0 && s->cpu != t[k].last_cpu) {
			t[k].migrations++;
			t[k].mig_run += (uint64_t)t[k].last_runnable;
		}
		t[k].last_cpu = s->cpu;
		t[k].last_runnable = s->end_state == 'R' || s->end_state == 'Y';
	}
	for (i = 0; i < r->nwakeups; i++) {
		size_t k = sl_run_thread_index(r, r->wakeups[i].utid);
		if (k < r->nthreads && r->threads[k].utid == r->wakeups[i].utid)
			t[k].wakeups++;
	}
	return t;
}

/* The wakeups of r that found another task running on their CPU (busy)
 * and those that found it idle: their counts and median delays. A CPU's
 * slices do not overlap: the one that can cover ts is the last to start at
 * or before it (a CPU without slices is idle). */
static void busy_idle(const struct sl_run_data *r, uint64_t *nbusy, uint64_t *nidle,
		      uint64_t *p50_busy, uint64_t *p50_idle)
{
	size_t i, *off, *idx, nb = 0, ni = 0;
	uint64_t *db, *di;
	int ncpu = cpu_index(r, &off, &idx);
	db = xmalloc((r->nwakeups ? r->nwakeups : 1) * sizeof(*db));
	di = xmalloc((r->nwakeups ? r->nwakeups : 1) * sizeof(*di));
	for (i = 0; i < r->nwakeups; i++) {
		const struct sl_wakeup_row *w = &r->wakeups[i];
		int busy = 0;
		if (w->ts_run == UINT64_MAX || w->ts_run < w->ts || w->cpu < 0)
			continue;
		if (w->cpu < ncpu) {
			const size_t *ci = idx + off[w->cpu];
			size_t n = off[w->cpu + 1] - off[w->cpu], k = last_before(r->slices, ci, n, w->ts + 1);
			busy = k < n && r->slices[ci[k]].ts + r->slices[ci[k]].dur > w->ts &&
			       r->slices[ci[k]].utid != w->utid;
		}
		if (busy)
			db[nb++] = w->ts_run - w->ts;
		else
			di[ni++] = w->ts_run - w->ts;
	}
	sl_sort_u64(db, nb);
	sl_sort_u64(di, ni);
	*nbusy = nb;
	*nidle = ni;
	*p50_busy = sl_percentile(db, nb, 50);
	*p50_idle = sl_percentile(di, ni, 50);
	free(off);
	free(idx);
	free(db);
	free(di);
}

/* delays of the wakeups of the tasks marked in sel (NULL: all), sorted */
static uint64_t *group_delays(const struct sl_run_data *r, const unsigned char *sel, size_t *n)
{
	uint64_t *v = xmalloc((r->nwakeups ? r->nwakeups : 1) * sizeof(*v));
	size_t i, k = 0;
	for (i = 0; i < r->nwakeups; i++) {
		const struct sl_wakeup_row *w = &r->wakeups[i];
		if (w->ts_run == UINT64_MAX || w->ts_run < w->ts)
			continue;
		if (sel) {
			size_t t = sl_run_thread_index(r, w->utid);
			if (t >= r->nthreads || r->threads[t].utid != w->utid || !sel[t])
				continue;
		}
		v[k++] = w->ts_run - w->ts;
	}
	sl_sort_u64(v, k);
	*n = k;
	return v;
}

/* The 95 % interval of the q-quantile of the sorted a[0..n): the order
 * statistics of ranks floor(n q - 1.96 s) and ceil(n q + 1.96 s), s =
 * sqrt(n q (1 - q)), 1-based and kept within 1..n (n >= 1) */
static void quantile_ci(const uint64_t *a, size_t n, double q, uint64_t *lo, uint64_t *hi)
{
	double s = 1.96 * sqrt((double)n * q * (1 - q)), l = floor((double)n * q - s),
	       h = ceil((double)n * q + s);
	size_t il = l < 1 ? 1 : l > (double)n ? n : (size_t)l, ih = h < 1 ? 1 : h > (double)n ? n : (size_t)h;
	*lo = a[il - 1];
	*hi = a[ih - 1];
}

static void fill_group(const struct sl_run_data *rec, const struct sl_run_data *rep,
		       const unsigned char *sel_rec, const unsigned char *sel_rep, struct sl_fid_group *g)
{
	size_t na, nb;
	uint64_t *a = group_delays(rec, sel_rec, &na), *b = group_delays(rep, sel_rep, &nb);
	static const double pct[3] = { 50, 95, 99 };
	int k;
	g->nrec = na;
	g->nrep = nb;
	for (k = 0; k < 3; k++) {
		g->rec[k] = sl_percentile(a, na, pct[k]);
		g->rep[k] = sl_percentile(b, nb, pct[k]);
		g->rec_lo[k] = g->rec_hi[k] = 0;
		if (na)
			quantile_ci(a, na, pct[k] / 100.0, &g->rec_lo[k], &g->rec_hi[k]);
	}
	g->rec[3] = na ? a[na - 1] : 0;
	g->rep[3] = nb ? b[nb - 1] : 0;
	g->ks = sl_ks_distance(a, na, b, nb);
	free(a);
	free(b);
}

/* the SL_FID_TOP threads of rec with the largest key (ties: lower utid) */
static void top_tasks(const struct sl_run_data *rec, const struct ftask *t, int by_wakeups,
		      unsigned char *sel, size_t *nsel)
{
	size_t i, j, n = 0;
	memset(sel, 0, rec->nthreads ? rec->nthreads : 1);
	for (j = 0; j < SL_FID_TOP; j++) {
		size_t best = rec->nthreads;
		uint64_t bv = 0;
		for (i = 0; i < rec->nthreads; i++) {
			uint64_t v = by_wakeups ? t[i].wakeups : t[i].runtime;
			if (!sel[i] && v > bv) { /* threads are by utid: first wins ties */
				best = i;
				bv = v;
			}
		}
		if (best == rec->nthreads)
			break;
		sel[best] = 1;
		n++;
	}
	*nsel = n;
}

/* the same utids marked in rep's thread order */
static void map_sel(const struct sl_run_data *rec, const unsigned char *sel,
		    const struct sl_run_data *rep, unsigned char *out)
{
	size_t i;
	memset(out, 0, rep->nthreads ? rep->nthreads : 1);
	for (i = 0; i < rec->nthreads; i++)
		if (sel[i]) {
			size_t k = sl_run_thread_index(rep, rec->threads[i].utid);
			if (k < rep->nthreads && rep->threads[k].utid == rec->threads[i].utid)
				out[k] = 1;
		}
}

/* the run's span (first slice's start to last slice's end) and its CPU
 * utilisation over it */
static void span_util(const struct sl_run_data *r, uint64_t *span, double *util)
{
	uint64_t lo = UINT64_MAX, hi = 0, busy = 0;
	size_t i;
	for (i = 0; i < r->nslices; i++) {
		const struct sl_slice_row *s = &r->slices[i];
		if (s->ts < lo)
			lo = s->ts;
		if (s->ts + s->dur > hi)
			hi = s->ts + s->dur;
		busy += s->dur;
	}
	*span = hi > lo ? hi - lo : 0;
	*util = *span && r->run.cpus > 0 ? (double)busy / ((double)*span * r->run.cpus) : 0;
}

void sl_fidelity_compute(const struct sl_run_data *rec, const struct sl_run_data *rep,
			 struct sl_fidelity *f)
{
	struct ftask *a = per_task(rec), *b = per_task(rep);
	unsigned char *sa = xmalloc(rec->nthreads ? rec->nthreads : 1);
	unsigned char *sb = xmalloc(rep->nthreads ? rep->nthreads : 1);
	size_t i;
	int k;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < rec->nthreads; i++) {
		size_t j = sl_run_thread_index(rep, rec->threads[i].utid);
		uint64_t ra = a[i].runtime, rb = 0, e;
		f->rec_switches += a[i].slices;
		f->rec_migrations += a[i].migrations;
		f->rec_mig_run += a[i].mig_run;
		if (j < rep->nthreads && rep->threads[j].utid == rec->threads[i].utid)
			rb = b[j].runtime;
		if (!ra && !rb)
			continue;
		f->ntasks++;
		e = ra > rb ? ra - rb : rb - ra;
		if (!e)
			f->tasks_exact++;
		if (e > f->runtime_max_err_ns)
			f->runtime_max_err_ns = e;
	}
	for (i = 0; i < rep->nthreads; i++) {
		size_t j = sl_run_thread_index(rec, rep->threads[i].utid);
		f->rep_switches += b[i].slices;
		f->rep_migrations += b[i].migrations;
		f->rep_mig_run += b[i].mig_run;
		if (b[i].runtime && !(j < rec->nthreads && rec->threads[j].utid == rep->threads[i].utid)) {
			f->ntasks++; /* a task only the replay ran: not exact */
			if (b[i].runtime > f->runtime_max_err_ns)
				f->runtime_max_err_ns = b[i].runtime;
		}
	}
	f->rec_mig_wake = f->rec_migrations - f->rec_mig_run;
	f->rep_mig_wake = f->rep_migrations - f->rep_mig_run;
	busy_idle(rec, &f->rec_wk_busy, &f->rec_wk_idle, &f->rec_p50_busy, &f->rec_p50_idle);
	busy_idle(rep, &f->rep_wk_busy, &f->rep_wk_idle, &f->rep_p50_busy, &f->rep_p50_idle);
	span_util(rec, &f->rec_span, &f->rec_util);
	span_util(rep, &f->rep_span, &f->rep_util);
	fill_group(rec, rep, NULL, NULL, &f->g[SL_FID_ALL]);
	f->g[SL_FID_ALL].ntasks = rec->nthreads;
	for (k = 0; k < 2; k++) {
		struct sl_fid_group *g = &f->g[k ? SL_FID_WOKEN : SL_FID_BUSIEST];
		top_tasks(rec, a, k, sa, &g->ntasks);
		map_sel(rec, sa, rep, sb);
		fill_group(rec, rep, sa, sb, g);
	}
	free(a);
	free(b);
	free(sa);
	free(sb);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* the median of v[0..n) (sorted in place; n >= 1) */
static double median_d(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void sl_fidelity_median(const struct sl_fidelity *f, size_t n, struct sl_fidelity *out)
{
	double *v = xmalloc(n * sizeof(*v));
	size_t i;
	int g, k;
#define MED(field, T)                                 \
	do {                                          \
		for (i = 0; i < n; i++)               \
			v[i] = (double)f[i].field;    \
		out->field = (T)median_d(v, n);       \
	} while (0)
	*out = f[0];
	for (i = 1; i < n; i++) {
		if (f[i].tasks_exact < out->tasks_exact)
			out->tasks_exact = f[i].tasks_exact;
		if (f[i].ntasks > out->ntasks)
			out->ntasks = f[i].ntasks;
		if (f[i].runtime_max_err_ns > out->runtime_max_err_ns)
			out->runtime_max_err_ns = f[i].runtime_max_err_ns;
	}
	MED(rep_switches, uint64_t);
	MED(rep_migrations, uint64_t);
	MED(rep_mig_wake, uint64_t);
	MED(rep_mig_run, uint64_t);
	MED(rep_wk_busy, uint64_t);
	MED(rep_wk_idle, uint64_t);
	MED(rep_p50_busy, uint64_t);
	MED(rep_p50_idle, uint64_t);
	MED(rep_span, uint64_t);
	MED(rep_util, double);
	for (g = 0; g < SL_FID_NGROUPS; g++) {
		MED(g[g].nrep, size_t);
		MED(g[g].ks, double);
		for (k = 0; k < 4; k++)
			MED(g[g].rep[k], uint64_t);
	}
#undef MED
	free(v);
}

static double rel(double rec, double rep)
{
	if (rec == 0)
		return rep == 0 ? 0 : INFINITY;
	return (rep - rec) / rec;
}

/* The thresholds of docs/validate.md. */
#define LIM_COUNT 0.25 /* switches, migrations: within 25 % */
#define LIM_KS 0.15    /* delay KS distance of all wakeups */
#define LIM_PCT 0.25   /* p50, p95, p99 of all wakeups: within 25 % */
#define LIM_SPAN 0.10  /* span and CPU utilisation: within 10 % (issue 22) */

/* a count compared within LIM_COUNT (its label is its key) */
static void count_row(struct sl_fid_row *r, const char *key, double rec, double rep)
{
	snprintf(r->key, sizeof(r->key), "%s", key);
	snprintf(r->what, sizeof(r->what), "%s", key);
	r->rec = rec;
	r->rep = rep;
	r->limit = LIM_COUNT;
	r->gating = 1;
}

/* a row of causes: no threshold, not gating */
static void cause_row(struct sl_fid_row *r, const char *key, const char *what, int unit, uint64_t rec,
		      uint64_t rep, int na)
{
	snprintf(r->key, sizeof(r->key), "%s", key);
	snprintf(r->what, sizeof(r->what), "%s", what);
	r->rec = (double)rec;
	r->rep = (double)rep;
	r->err = rel(r->rec, r->rep);
	r->limit = NAN;
	r->unit = unit;
	r->na = na;
}

/* r has a sampling interval [lo, hi] (struct sl_fid_row): whether its figure
 * is inside is decided once the rows are made (sl_fidelity_rows) */
static void noise_interval(struct sl_fid_row *r, double lo, double hi)
{
	r->noise = 1;
	r->noise_lo = lo;
	r->noise_hi = hi;
}

size_t sl_fidelity_rows(const struct sl_fidelity *f, struct sl_fid_row *rows, int *verdict)
{
	static const char *const gname[SL_FID_NGROUPS] = { "all", "busiest", "woken" };
	static const char *const glabel[SL_FID_NGROUPS] = { "all wakeups", "10 busiest",
							     "10 most woken" };
	static const char *const pname[4] = { "p50", "p95", "p99", "max" };
	size_t n = 0, i;
	int g, k;

	memset(rows, 0, SL_FID_MAXROWS * sizeof(*rows));
	snprintf(rows[n].key, sizeof(rows[n].key), "runtime_exact");
	snprintf(rows[n].what, sizeof(rows[n].what), "tasks with exact CPU time");
	rows[n].rec = (double)f->ntasks;
	rows[n].rep = (double)f->tasks_exact;
	rows[n].err = (double)f->runtime_max_err_ns;
	rows[n].limit = 0;
	rows[n].gating = 1;
	rows[n].unit = 3;
	n++;
	count_row(&rows[n++], "switches", (double)f->rec_switches, (double)f->rep_switches);
	count_row(&rows[n++], "migrations", (double)f->rec_migrations, (double)f->rep_migrations);
	for (i = n - 2; i < n; i++) /* a Poisson count: N -+ 1.96 sqrt(N) */
		noise_interval(&rows[i], fmax(rows[i].rec - 1.96 * sqrt(rows[i].rec), 0),
			       rows[i].rec + 1.96 * sqrt(rows[i].rec));
	count_row(&rows[n], "span", (double)f->rec_span, (double)f->rep_span);
	snprintf(rows[n].what, sizeof(rows[n].what), "span");
	rows[n].limit = LIM_SPAN;
	rows[n++].unit = 1;
	count_row(&rows[n], "utilisation", f->rec_util, f->rep_util);
	snprintf(rows[n].what, sizeof(rows[n].what), "CPU utilisation");
	rows[n].limit = LIM_SPAN;
	rows[n++].unit = 4;
	for (i = 1; i < n; i++)
		rows[i].err = rel(rows[i].rec, rows[i].rep);
	for (g = 0; g < SL_FID_NGROUPS; g++) {
		const struct sl_fid_group *G = &f->g[g];
		struct sl_fid_row *r = &rows[n++];
		snprintf(r->key, sizeof(r->key), "delay_ks_%s", gname[g]);
		snprintf(r->what, sizeof(r->what), "delay KS, %s", glabel[g]);
		r->rec = r->rep = NAN;
		r->err = G->ks;
		r->limit = g == SL_FID_ALL ? LIM_KS : NAN;
		r->gating = g == SL_FID_ALL;
		r->unit = 2;
		r->na = G->nrec == 0 || G->nrep == 0;
		if (r->gating && !r->na) /* the two-sample critical value */
			noise_interval(r, 0, 1.358 * sqrt((double)(G->nrec + G->nrep) / ((double)G->nrec * (double)G->nrep)));
		for (k = 0; k < 4; k++) {
			r = &rows[n++];
			snprintf(r->key, sizeof(r->key), "delay_%s_%s", pname[k], gname[g]);
			snprintf(r->what, sizeof(r->what), "delay %s, %s", pname[k], glabel[g]);
			r->rec = (double)G->rec[k];
			r->rep = (double)G->rep[k];
			r->err = rel(r->rec, r->rep);
			r->limit = g == SL_FID_ALL && k < 3 ? LIM_PCT : NAN;
			r->gating = g == SL_FID_ALL && k < 3;
			r->unit = 1;
			r->na = G->nrec == 0 || G->nrep == 0;
			if (r->gating && !r->na)
				noise_interval(r, (double)G->rec_lo[k], (double)G->rec_hi[k]);
		}
	}
	/* where the differences come from: shown, no threshold */
	cause_row(&rows[n++], "migrations_wakeup", "migrations at a wakeup", 0, f->rec_mig_wake, f->rep_mig_wake, 0);
	cause_row(&rows[n++], "migrations_runnable", "migrations of runnable tasks", 0, f->rec_mig_run,
		  f->rep_mig_run, 0);
	cause_row(&rows[n++], "wakeups_busy", "wakeups onto a busy CPU", 0, f->rec_wk_busy, f->rep_wk_busy, 0);
	cause_row(&rows[n++], "wakeups_idle", "wakeups onto an idle CPU", 0, f->rec_wk_idle, f->rep_wk_idle, 0);
	cause_row(&rows[n++], "delay_p50_busy", "delay p50, onto a busy CPU", 1, f->rec_p50_busy, f->rep_p50_busy,
		  !f->rec_wk_busy || !f->rep_wk_busy);
	cause_row(&rows[n++], "delay_p50_idle", "delay p50, onto an idle CPU", 1, f->rec_p50_idle, f->rep_p50_idle,
		  !f->rec_wk_idle || !f->rep_wk_idle);
	*verdict = 1;
	for (i = 0; i < n; i++) {
		/* inside or outside its interval (KS: its distance), -1 none */
		struct sl_fid_row *r = &rows[i];
		double v = r->unit == 2 ? r->err : r->rep;
		r->noise = r->noise ? v >= r->noise_lo && v <= r->noise_hi : -1;
	}
	for (i = 0; i < n; i++) {
		struct sl_fid_row *r = &rows[i];
		if (r->na && !isnan(r->limit))
			r->pass = -2;   /* not measurable: never a pass (issue 22) */
		else if (isnan(r->limit))
			r->pass = -1;
		else if (r->unit == 3)
			r->pass = r->rec == r->rep;
		else
			r->pass = fabs(r->err) <= r->limit;
		if (r->gating && r->pass != 1)
			*verdict = 0;
	}
	return n;
}
