/* analyze/completeness.c - see completeness.h. */
#include "completeness.h"
#include "../common/keyix.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The part of [a, b) inside [lo, hi). */
static uint64_t clip(uint64_t a, uint64_t b, uint64_t lo, uint64_t hi)
{
	if (a < lo)
		a = lo;
	if (b > hi)
		b = hi;
	return b > a ? b - a : 0;
}

/* Thread tid's window in trace time: from when its counters were read at
 * the start (or the window's start, for a thread born in it) to when they
 * were read at the end (the snapshots take tens of ms to read); [lo, hi]
 * when the ledger's times are not trace times. */
static void thread_window(const struct sl_ledger *l, int mapped, uint64_t lo, uint64_t hi, int tid,
			  uint64_t *wlo, uint64_t *whi)
{
	const struct sl_ledger_thread *s = sl_ledger_find(&l->start, tid);
	const struct sl_ledger_thread *e = sl_ledger_find(&l->end, tid);
	*wlo = lo;
	*whi = hi;
	if (mapped && s && s->at_ns >= lo)
		*wlo = s->at_ns;
	if (mapped && e && e->at_ns >= lo)
		*whi = e->at_ns;
}

struct sl_ledger_window *sl_ledger_windows(const struct sl_ledger *l, size_t *n)
{
	struct sl_ledger_window *w;
	int mapped = !strcmp(l->clock, "mono");
	size_t i;
	*n = 0;
	if (!l->end.nt)
		return NULL;
	w = xcalloc(l->end.nt, sizeof(*w));
	for (i = 0; i < l->end.nt; i++) {
		w[i].tid = l->end.t[i].tid;
		if (mapped)
			thread_window(l, 1, l->start.mono_ns, l->end.mono_ns, w[i].tid, &w[i].lo, &w[i].hi);
		else
			w[i].hi = UINT64_MAX;
	}
	*n = l->end.nt;
	return w;
}

/* The index of utid in r->threads, or -1. */
static long thread_index(const struct sl_run_data *r, int64_t utid)
{
	const struct sl_thread_row *t = sl_run_thread(r, utid);
	return t ? (long)(t - r->threads) : -1;
}

/* Where the wakeups come from when not from the run loaded: the store's
 * run_id, one at a time (their waits are a sum: any order will do, and
 * nothing is kept or sorted). */
struct wsrc {
	struct sl_store *st;
	int64_t run_id;
	struct sl_diag *d;
};

struct wsum {
	const struct sl_run_data *r;
	const uint64_t *wlo, *whi;
	uint64_t *wait;
};

/* A wakeup's delay (wakeup to first run), clipped to its thread's window. */
static int wakeup_wait(void *ctx, const struct sl_wakeup_row *w)
{
	struct wsum *m = ctx;
	long k = thread_index(m->r, w->utid);
	if (k >= 0 && w->ts_run > w->ts)
		m->wait[k] += clip(w->ts, w->ts_run, m->wlo[k], m->whi[k]);
	return 0;
}

/* Each recorded thread's CPU time and wait in the window: its slices
 * clipped to it; its wakeup delays (wakeup to first run) and preempted
 * waits (a slice that ended runnable, R or Y, to its next slice, or to the
 * window's end). The wakeups are r's, or src's when given. 0, or -1 (src's
 * d set). */
static int trace_sums(const struct sl_run_data *r, const uint64_t *wlo, const uint64_t *whi,
		      uint64_t *exec, uint64_t *wait, const struct wsrc *src)
{
	uint64_t *pend = xcalloc(r->nthreads ? r->nthreads : 1, sizeof(*pend));
	struct wsum m = { r, wlo, whi, wait };
	size_t i;
	for (i = 0; i < r->nslices; i++) {
		const struct sl_slice_row *s = &r->slices[i];
		long k = thread_index(r, s->utid);
		if (k < 0)
			continue;
		if (pend[k]) {
			wait[k] += clip(pend[k] - 1, s->ts, wlo[k], whi[k]);
			pend[k] = 0;
		}
		exec[k] += clip(s->ts, s->ts + s->dur, wlo[k], whi[k]);
		if (s->end_state == 'R' || s->end_state == 'Y')
			pend[k] = s->ts + s->dur + 1;
	}
	for (i = 0; i < r->nthreads; i++)
		if (pend[i])
			wait[i] += clip(pend[i] - 1, whi[i], wlo[i], whi[i]);
	free(pend);
	if (src)
		return sl_store_each_wakeup(src->st, src->run_id, wakeup_wait, &m, src->d);
	for (i = 0; i < r->nwakeups; i++)
		wakeup_wait(&m, &r->wakeups[i]);
	return 0;
}

static int compute(const struct sl_ledger *l, const struct sl_run_data *rec, uint64_t first_ts,
		   uint64_t last_ts, const double *work_ratio, const struct sl_kernel_sums *ks,
		   struct sl_completeness *c, const struct wsrc *src);

int sl_completeness_store(struct sl_store *st, int64_t trace_id, int64_t run_id,
			  const struct sl_ledger *l, const char *path, struct sl_run_data *kept,
			  const struct sl_kernel_sums *ks, struct sl_completeness *c,
			  struct sl_diag *d)
{
	struct sl_run_data r;
	struct sl_trace_info tr;
	struct wsrc src = { st, run_id, d };
	double *ratio;
	int rc;
	memset(c, 0, sizeof(*c));
	/* the slices loaded (sorted: a thread's in order), or the ones kept
	 * sorted the same way; the wakeups read */
	if (sl_store_get_trace(st, trace_id, &tr, d) ||
	    sl_store_load_run_parts(st, run_id, kept ? 0 : SL_LOAD_SLICES, &r, d))
		return -1;
	if (kept) {
		r.slices = kept->slices;
		r.nslices = kept->nslices;
		kept->slices = NULL;
		kept->nslices = 0;
		sl_run_data_sort(&r);
	}
	/* each thread's work share (recorded_work: sched_stat_runtime), where
	 * the import's own sums are not given */
	ratio = xcalloc(r.nthreads ? r.nthreads : 1, sizeof(*ratio));
	rc = ks ? 0 : sl_store_work_ratio(st, trace_id, &r, ratio, d);
	if (!rc)
		rc = compute(l, &r, tr.first_ts, tr.last_ts, ks ? NULL : ratio, ks, c, &src);
	free(ratio);
	sl_run_data_release(&r);
	if (rc || sl_store_begin(st, d))
		return -1;
	if (sl_store_add_ledger(st, trace_id, path, c->cpu_share, c->wait_share, c->rows, c->nrows, d) ||
	    sl_store_thread_groups(st, trace_id, l, d) || sl_store_start_pelt(st, trace_id, l, d) ||
	    sl_store_commit(st, d)) {
		sl_store_rollback(st);
		return -1;
	}
	return 0;
}

static void note(char *buf, size_t len, const struct sl_ledger_row *row)
{
	size_t n = strlen(buf);
	if (n + 40 >= len) {
		if (n + 4 < len && strcmp(buf + n - 3, "..."))
			snprintf(buf + n, len - n, "...");
		return;
	}
	snprintf(buf + n, len - n, "%s%s %d (%.1f of %.1f ms%s)", n ? ", " : "", row->comm, row->tid,
		 (row->have_work ? row->trace_work_ns : row->trace_exec_ns) / 1e6,
		 row->kernel_exec_ns / 1e6, row->have_work ? " charged" : "");
}

void sl_completeness_compute(const struct sl_ledger *l, const struct sl_run_data *rec,
			     uint64_t first_ts, uint64_t last_ts, const double *work_ratio,
			     const struct sl_kernel_sums *ks, struct sl_completeness *c)
{
	compute(l, rec, first_ts, last_ts, work_ratio, ks, c, NULL);
}

/* The index of rec's thread j in ks's arrays, or -1. */
static long ks_index(const struct sl_kernel_sums *ks, const struct sl_run_data *rec, size_t j)
{
	int64_t k;
	if (!ks)
		return -1;
	k = rec->threads[j].utid - ks->utid_base;
	return k >= 0 && (uint64_t)k < ks->n ? (long)k : -1;
}

static int compute(const struct sl_ledger *l, const struct sl_run_data *rec, uint64_t first_ts,
		   uint64_t last_ts, const double *work_ratio, const struct sl_kernel_sums *ks,
		   struct sl_completeness *c, const struct wsrc *src)
{
	size_t i, j, n = rec->nthreads ? rec->nthreads : 1;
	struct sl_keyix *ix; /* the recorded threads by tid (a tid reused after an exit is several) */
	uint64_t *exec = xcalloc(n, sizeof(*exec)), *wait = xcalloc(n, sizeof(*wait));
	uint64_t *wlo = xcalloc(n, sizeof(*wlo)), *whi = xcalloc(n, sizeof(*whi));
	memset(c, 0, sizeof(*c));
	c->mapped = !strcmp(l->clock, "mono");
	c->win_lo = c->mapped ? l->start.mono_ns : first_ts;
	c->win_hi = c->mapped ? l->end.mono_ns : last_ts;
	c->read_ns = l->start.read_ns + l->end.read_ns;
	c->coverage = 1;
	if (c->mapped && c->win_hi > c->win_lo) {
		uint64_t a = first_ts > c->win_lo ? first_ts : c->win_lo;
		uint64_t b = last_ts < c->win_hi ? last_ts : c->win_hi;
		c->coverage = b > a ? (double)(b - a) / (double)(c->win_hi - c->win_lo) : 0;
	}
	for (j = 0; j < rec->nthreads; j++) {
		long k = ks_index(ks, rec, j);
		thread_window(l, c->mapped, c->win_lo, c->win_hi, rec->threads[j].tid, &wlo[j], &whi[j]);
		if (k >= 0 && ks->lo && ks->hi && ks->hi[k]) {
			wlo[j] = ks->lo[k];
			whi[j] = ks->hi[k];
		}
	}
	if (trace_sums(rec, wlo, whi, exec, wait, src)) {
		free(exec);
		free(wait);
		free(wlo);
		free(whi);
		return -1;
	}
	/* the waits as the kernel counts them, where the import took them, and
	 * the CPU time at the trace's edges, which has no slice rows */
	for (j = 0; j < rec->nthreads; j++) {
		long k = ks_index(ks, rec, j);
		if (k >= 0) {
			wait[j] = ks->wait[k];
			if (ks->edge)
				exec[j] += ks->edge[k];
		}
	}
	ix = xcalloc(n, sizeof(*ix));
	for (j = 0; j < rec->nthreads; j++) {
		ix[j].key = rec->threads[j].tid;
		ix[j].i = j;
	}
	sl_keyix_sort(ix, rec->nthreads);
	c->rows = xcalloc(l->end.nt ? l->end.nt : 1, sizeof(*c->rows));
	for (i = 0; i < l->end.nt; i++) {
		const struct sl_ledger_thread *e = &l->end.t[i], *s = sl_ledger_find(&l->start, e->tid);
		struct sl_ledger_row *row = &c->rows[c->nrows];
		/* alive at the end: in the start snapshot too (the same thread: its
		 * counters did not restart under a reused tid), or born in the
		 * window (all its time is the window's). A thread that ended in
		 * the window is in neither count. */
		if (s && (e->exec_ns < s->exec_ns || e->delay_ns < s->delay_ns))
			continue;
		row->tid = e->tid;
		snprintf(row->comm, sizeof(row->comm), "%s", e->comm);
		row->kernel_exec_ns = e->exec_ns - (s ? s->exec_ns : 0);
		row->kernel_delay_ns = e->delay_ns - (s ? s->delay_ns : 0);
		for (j = sl_keyix_lower(ix, rec->nthreads, e->tid); j < rec->nthreads && ix[j].key == e->tid; j++) {
			row->trace_exec_ns += exec[ix[j].i];
			row->trace_wait_ns += wait[ix[j].i];
			long k = ks_index(ks, rec, ix[j].i);
			/* its work in the window: the kernel's own charges
			 * (sched_stat_runtime) there; else its wall time there
			 * at the thread's work share (the slices cut by the
			 * window's edges taken at the mean) */
			if (k >= 0 && ks->work && ks->work[k] != UINT64_MAX) {
				row->trace_work_ns += ks->work[k];
				row->have_work = 1;
			} else if (work_ratio && work_ratio[ix[j].i] >= 0) {
				row->trace_work_ns += (uint64_t)llround((double)exec[ix[j].i] * work_ratio[ix[j].i]);
				row->have_work = 1;
			}
		}
		c->nrows++;
		if (row->kernel_exec_ns < SL_LEDGER_MIN_EXEC_NS)
			continue;
		c->ncounted++;
		c->kernel_exec_ns += row->kernel_exec_ns;
		c->trace_exec_ns += row->trace_exec_ns;
		c->kernel_delay_ns += row->kernel_delay_ns;
		c->trace_wait_ns += row->trace_wait_ns;
		if (row->have_work) {
			c->nwork++;
			c->kernel_exec_w_ns += row->kernel_exec_ns;
			c->trace_work_ns += row->trace_work_ns;
		}
		if (!row->trace_exec_ns) {
			c->nmissing++;
			note(c->missing, sizeof(c->missing), row);
		} else if ((double)(row->have_work ? row->trace_work_ns : row->trace_exec_ns) <
			   SL_LEDGER_COMPLETE * (double)row->kernel_exec_ns) {
			c->nshort++;
			note(c->shortl, sizeof(c->shortl), row);
		}
	}
	c->cpu_share = c->kernel_exec_ns ? (double)c->trace_exec_ns / (double)c->kernel_exec_ns : NAN;
	c->work_share = c->kernel_exec_w_ns ? (double)c->trace_work_ns / (double)c->kernel_exec_w_ns : NAN;
	c->wait_share = c->kernel_delay_ns ? (double)c->trace_wait_ns / (double)c->kernel_delay_ns : NAN;
	c->by_work = c->nwork && c->nwork == c->ncounted;
	c->complete_share = c->by_work ? c->work_share : c->cpu_share;
	for (i = 0; i < l->end.ncpu && i < l->start.ncpu; i++) {
		const struct sl_ledger_cpu *a = &l->start.cpu[i], *b = &l->end.cpu[i];
		if (b->irq_ns >= a->irq_ns && b->softirq_ns >= a->softirq_ns)
			c->irq_ns += b->irq_ns - a->irq_ns + b->softirq_ns - a->softirq_ns;
		if (b->steal_ns >= a->steal_ns)
			c->steal_ns += b->steal_ns - a->steal_ns;
	}
	free(ix);
	free(exec);
	free(wait);
	free(wlo);
	free(whi);
	return 0;
}
