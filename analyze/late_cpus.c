/* analyze/late_cpus.c - see store.h (sl_store_late_cpus): CPUs of a
 * recording with no event until late, likely offline until then. The
 * first event on each CPU is kept at import (table cpu_first, schema 13);
 * a trace imported before has none, and its recorded run's rows are read
 * instead (the same firsts: the import takes them from the same rows). */
#include "store_int.h"

#include <stdint.h>
#include <stdlib.h>

struct late_acc {
	uint64_t *first;
	int n;
};

static void seen(struct late_acc *l, int cpu, uint64_t ts)
{
	if (cpu >= 0 && cpu < l->n && ts < l->first[cpu])
		l->first[cpu] = ts;
}

static int late_slice(void *ctx, const struct sl_slice_row *v)
{
	seen(ctx, v->cpu, v->ts);
	return 0;
}

static int late_wakeup(void *ctx, const struct sl_wakeup_row *v)
{
	seen(ctx, v->cpu, v->ts);
	return 0;
}

/* The CPUs of l (first event on each) late in the trace ti: late after
 * the first CPU's first event, not after the trace's start (a trace whose
 * schedule begins 0.345 s into the file, after other events, has every
 * CPU "late" from its start: none was offline). */
static void late_list(const struct sl_trace_info *ti, const struct late_acc *l,
		      struct sl_late_cpu **out, size_t *nout)
{
	uint64_t span = ti->last_ts - ti->first_ts, late, base = UINT64_MAX;
	int c;
	late = span / 10 > 100 * SL_NS_PER_MS ? span / 10 : 100 * SL_NS_PER_MS;
	for (c = 0; c < l->n; c++)
		if (l->first[c] < base)
			base = l->first[c];
	for (c = 0; c < l->n; c++)
		if (l->first[c] == UINT64_MAX || l->first[c] - base > late) {
			*out = xrealloc(*out, (*nout + 1) * sizeof(**out));
			(*out)[*nout].cpu = c;
			(*out)[*nout].first_ns = l->first[c] == UINT64_MAX ? UINT64_MAX : l->first[c] - ti->first_ts;
			(*out)[*nout].span_ns = span;
			(*nout)++;
		}
}

static void acc_init(struct late_acc *l, int cpus)
{
	int c;
	l->n = cpus;
	l->first = xmalloc((size_t)l->n * sizeof(*l->first));
	for (c = 0; c < l->n; c++)
		l->first[c] = UINT64_MAX;
}

int sl_store_add_cpu_first(struct sl_store *st, int64_t trace_id, const uint64_t *first, size_t n,
			   struct sl_diag *d)
{
	sqlite3_stmt *q = NULL;
	size_t c;
	for (c = 0; c < n; c++) {
		if (first[c] == UINT64_MAX)
			continue;
		if (!q && !(q = st_prep(st, "INSERT INTO cpu_first(trace_id, cpu, first_ts) VALUES (?,?,?)", d)))
			return -1;
		sqlite3_bind_int64(q, 1, trace_id);
		sqlite3_bind_int64(q, 2, (int64_t)c);
		sqlite3_bind_int64(q, 3, (int64_t)first[c]);
		if (st_step_done(st, q, d, "adding cpu_first")) {
			sqlite3_finalize(q);
			return -1;
		}
	}
	sqlite3_finalize(q);
	return 0;
}

/* The firsts kept at import into l: how many rows (0: none kept), or -1. */
static int stored_firsts(struct sl_store *st, int64_t trace_id, struct late_acc *l, struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(st, "SELECT cpu, first_ts FROM cpu_first WHERE trace_id = ?", d);
	int rc, n = 0;
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, trace_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t cpu = sqlite3_column_int64(q, 0);
		n++;
		if (cpu >= 0 && cpu < l->n)
			seen(l, (int)cpu, (uint64_t)sqlite3_column_int64(q, 1));
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return st_dberr(st, d, "reading cpu_first");
	return n;
}

int sl_store_late_cpus(struct sl_store *st, int64_t trace_id, struct sl_late_cpu **out, size_t *nout,
		       struct sl_diag *d)
{
	struct sl_trace_info ti;
	struct late_acc l;
	int64_t rec = 0;
	int n;
	*out = NULL;
	*nout = 0;
	if (sl_store_get_trace(st, trace_id, &ti, d) || sl_store_recorded_run(st, trace_id, &rec, d))
		return -1;
	if (!rec || ti.last_ts <= ti.first_ts || ti.cpus <= 0)
		return 0;
	acc_init(&l, ti.cpus);
	n = stored_firsts(st, trace_id, &l, d);
	if (n < 0 || (n == 0 && (sl_store_each_slice(st, rec, late_slice, &l, d) ||
				 sl_store_each_wakeup(st, rec, late_wakeup, &l, d)))) {
		free(l.first);
		return -1;
	}
	late_list(&ti, &l, out, nout);
	free(l.first);
	return 0;
}
