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

int sl_pruns_color(const struct sl_pruns *p, int64_t utid)
{
	size_t i;
	for (i = 0; i < p->nfeatured; i++)
		if (p->featured[i] == utid)
			return (int)i;
	return -1;
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

int sl_pruns_load(struct sl_store *s, const struct sl_plot_opts *o, int parts, struct sl_pruns *p,
		  struct sl_diag *d)
{
	size_t i, j;
	if (sl_pruns_open(s, o->runs, o->nruns, parts, p, d))
		return -1;
	for (i = 0; i < p->n; i++) {
		struct sl_prun *pr = &p->v[i];
		for (j = 0; j < pr->r.nslices; j++)
			if (pr->r.slices[j].ts + pr->r.slices[j].dur > pr->end)
				pr->end = pr->r.slices[j].ts + pr->r.slices[j].dur;
	}
	p->nfeatured = sl_pruns_featured(p, p->featured, SL_NFEATURED);
	return 0;
}

int sl_charts_run(struct sl_store *s, const struct sl_plot_opts *o, struct sl_chart *c, size_t nc,
		  struct sl_run_metrics *m, struct sl_diag *d)
{
	struct sl_pass_client **pc = xcalloc(nc ? nc : 1, sizeof(*pc));
	size_t k;
	int rc;
	for (k = 0; k < nc; k++) {
		pc[k] = &c[k].pc;
		pc[k]->from = c[k].o.from; /* the staircase's window */
		pc[k]->to = c[k].o.to;
	}
	rc = sl_pass_run(s, o->runs, o->nruns, pc, nc, m, d);
	free(pc);
	return rc;
}

int sl_chart_draw(struct sl_store *s, struct sl_chart *c, struct sl_diag *d)
{
	if (sl_charts_run(s, &c->o, c, 1, NULL, d))
		return -1;
	if (c->pc.failed) {
		memcpy(d->msg, c->pc.diag.msg, sizeof(d->msg));
		return -1;
	}
	return 0;
}
