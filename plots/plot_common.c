/* plots/plot_common.c - the kind table, output formats, run loading. */
#include "plot_int.h"
#include "../analyze/metrics.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/statvfs.h>
#include <unistd.h>

const struct sl_plot_kind sl_plot_kinds[] = {
	{ "staircase", "each task's dynamic level over time (RSDL, O(1), SD); CFS: vruntime - min_vruntime", sl_plot_staircase },
	{ "latency", "CDF of scheduling delays, one curve per run (log x)", sl_plot_latency },
	{ "histogram", "histogram of scheduling delays, bars per run", sl_plot_histogram },
	{ "timeline", "per-CPU Gantt chart of the slices, colour per task", sl_plot_timeline },
	{ "share", "share of CPU time by task and by nice level, per run", sl_plot_share },
	{ "compare", "bars of the key metrics of the runs side by side", sl_plot_compare },
	{ "sweep", "a metric (--metric) against a swept parameter (--param), a line per model", sl_plot_sweep },
	{ NULL, NULL, NULL },
};

const struct sl_plot_kind *sl_plot_kind_find(const char *name)
{
	const struct sl_plot_kind *k;
	for (k = sl_plot_kinds; k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

int sl_plot_fmt_of(const char *path, enum sl_plot_fmt *fmt, struct sl_diag *d)
{
	const char *dot = strrchr(path, '.');
	if (dot && !strchr(dot, '/')) {
		if (!strcasecmp(dot, ".png"))
			return *fmt = SL_PLOT_PNG, 0;
		if (!strcasecmp(dot, ".svg"))
			return *fmt = SL_PLOT_SVG, 0;
		if (!strcasecmp(dot, ".pdf"))
			return *fmt = SL_PLOT_PDF, 0;
	}
	return sl_fail(d, "%s: unknown chart format (the name must end in .png, .svg or .pdf)", path);
}

int sl_out_begin(const char *path, char *tmp, size_t len, struct sl_diag *d)
{
	return sl_atomic_begin(path, tmp, len, d);
}

const char *sl_out_why(const char *path, int err)
{
	char dir[1100];
	const char *slash = strrchr(path, '/');
	struct statvfs vs;
	if (err)
		return strerror(err);
	/* nothing said why: a full disk is the usual cause (gnuplot and
	 * cairo do not tell) */
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path) + 1, path);
	else
		snprintf(dir, sizeof(dir), ".");
	if (statvfs(dir, &vs) == 0 && (vs.f_bavail == 0 || (vs.f_favail == 0 && vs.f_files)))
		return strerror(ENOSPC);
	return NULL;
}

int sl_out_commit(const char *tmp, const char *path, struct sl_diag *d)
{
	return sl_atomic_commit(tmp, path, d);
}

void sl_label_clean(char *dst, size_t len, const char *s)
{
	size_t i = 0;
	if (!len)
		return;
	for (; *s && i + 1 < len; s++) {
		unsigned char c = (unsigned char)*s;
		dst[i++] = (c < 0x20 || c >= 0x7f || c == '"') ? '?' : (char)c;
	}
	dst[i] = 0;
}

uint64_t *sl_prun_runtimes(const struct sl_run_data *r)
{
	uint64_t *rt = xcalloc(r->nthreads ? r->nthreads : 1, sizeof(*rt));
	size_t i;
	for (i = 0; i < r->nslices; i++) {
		const struct sl_thread_row *t = sl_run_thread(r, r->slices[i].utid);
		if (t)
			rt[t - r->threads] += r->slices[i].dur;
	}
	return rt;
}

void sl_featured_add(const struct sl_run_data *r0, const struct sl_slice_row *sl, uint64_t *rt,
		     uint64_t *sleeps)
{
	const struct sl_thread_row *t = sl_run_thread(r0, sl->utid);
	if (!t)
		return;
	rt[t - r0->threads] += sl->dur;
	if (sl->end_state == 'S' || sl->end_state == 'D')
		sleeps[t - r0->threads]++;
}

size_t sl_pruns_featured(const struct sl_pruns *p, int64_t *utids, size_t want)
{
	const struct sl_run_data *r0 = &p->v[0].r;
	size_t nt = r0->nthreads, i, k, n;
	uint64_t *rt = xcalloc(nt ? nt : 1, sizeof(*rt)), *sleeps = xcalloc(nt ? nt : 1, sizeof(*rt));
	/* every run of a trace has the same threads (ordered by utid) */
	for (i = 0; i < p->n; i++)
		for (k = 0; k < p->v[i].r.nslices; k++)
			sl_featured_add(r0, &p->v[i].r.slices[k], rt, sleeps);
	n = sl_featured_pick(r0, rt, sleeps, utids, want);
	free(rt);
	free(sleeps);
	return n;
}

size_t sl_featured_pick(const struct sl_run_data *r0, const uint64_t *rt, const uint64_t *sleeps,
			int64_t *utids, size_t want)
{
	size_t nt = r0->nthreads, k, n = 0;
	char *taken = xcalloc(nt ? nt : 1, 1);
	int by_sleeps = 0;
	while (n < want) {
		const uint64_t *key = by_sleeps ? sleeps : rt;
		size_t best = nt;
		for (k = 0; k < nt; k++)
			if (!taken[k] && key[k] && (best == nt || key[k] > key[best]))
				best = k;
		if (best == nt && by_sleeps) {
			by_sleeps = 0; /* nobody else sleeps: the busiest fill in */
			continue;
		}
		if (best == nt)
			break;
		taken[best] = 1;
		utids[n++] = r0->threads[best].utid;
		by_sleeps = !by_sleeps;
	}
	free(taken);
	return n;
}

int sl_pruns_color(const struct sl_pruns *p, int64_t utid)
{
	size_t i;
	for (i = 0; i < p->nfeatured; i++)
		if (p->featured[i] == utid)
			return (int)i;
	return -1;
}

/* Run id for a chart: only the parts asked for. */
static int load_run(struct sl_store *s, int64_t id, int parts, struct sl_prun *pr,
		    struct sl_diag *d)
{
	return sl_store_load_run_parts(s, id, parts, &pr->r, d);
}

void sl_pruns_release(struct sl_pruns *p)
{
	size_t i;
	for (i = 0; i < p->n; i++)
		sl_run_data_release(&p->v[i].r);
	free(p->v);
	p->v = NULL;
	p->n = 0;
}

int sl_pruns_label_run(struct sl_pruns *p, size_t i, struct sl_diag *d)
{
	struct sl_prun *pr = &p->v[i];
	if (i && pr->r.run.trace_id != p->v[0].r.run.trace_id)
		return sl_fail(d, "run %" PRId64 " is of trace %" PRId64 ", run %" PRId64
				  " of trace %" PRId64 ": chart runs of one trace",
			       pr->r.run.id, pr->r.run.trace_id, p->v[0].r.run.id, p->v[0].r.run.trace_id);
	/* a replay made by validate says so (its params' origin, issue 22) */
	snprintf(pr->title, sizeof(pr->title), "run %" PRId64 ": %.31s (%.15s%s)", pr->r.run.id,
		 pr->r.run.scheduler, pr->r.run.mode,
		 strstr(pr->r.run.params, "\"origin\":\"validate\"") ? ", validate" : "");
	return 0;
}

int sl_pruns_label_trace(struct sl_store *s, struct sl_pruns *p, struct sl_diag *d)
{
	char path[160];
	const char *base;
	if (sl_store_get_trace(s, p->v[0].r.run.trace_id, &p->trace, d))
		return -1;
	base = strrchr(p->trace.path, '/');
	base = base ? base + 1 : p->trace.path;
	sl_label_clean(path, sizeof(path), base);
	snprintf(p->trace_title, sizeof(p->trace_title), "trace %" PRId64 ": %.100s (%.23s, %d CPU%s)",
		 p->trace.id, path, p->trace.format, p->trace.cpus, p->trace.cpus == 1 ? "" : "s");
	return 0;
}

int sl_pruns_load(struct sl_store *s, const struct sl_plot_opts *o, int parts, struct sl_pruns *p,
		  struct sl_diag *d)
{
	size_t i, j;
	memset(p, 0, sizeof(*p));
	if (!o->nruns)
		return sl_fail(d, "no run to draw");
	p->v = xcalloc(o->nruns, sizeof(*p->v));
	for (i = 0; i < o->nruns; i++) {
		struct sl_prun *pr = &p->v[i];
		if (load_run(s, o->runs[i], parts, pr, d))
			goto fail;
		p->n++;
		if (sl_pruns_label_run(p, i, d))
			goto fail;
	}
	if (sl_pruns_label_trace(s, p, d))
		goto fail;
	for (i = 0; i < p->n; i++) {
		struct sl_prun *pr = &p->v[i];
		pr->t0 = p->trace.first_ts;
		pr->end = pr->t0;
		for (j = 0; j < pr->r.nslices; j++)
			if (pr->r.slices[j].ts + pr->r.slices[j].dur > pr->end)
				pr->end = pr->r.slices[j].ts + pr->r.slices[j].dur;
	}
	p->nfeatured = sl_pruns_featured(p, p->featured, SL_NFEATURED);
	return 0;
fail:
	sl_pruns_release(p);
	return -1;
}
