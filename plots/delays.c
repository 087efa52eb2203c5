/* plots/delays.c - the gnuplot charts of scheduling delays: latency CDF and
 * histogram. Data files hold raw integer rows (ns, counts); the
 * scripts do the unit conversion, so the data can be checked against SQL. */
#include "plot_int.h"
#include "../analyze/metrics.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* cmd (set title, ...) with a, and b on a second line when not NULL */
static void gp_title(FILE *f, const char *cmd, const char *a, const char *b)
{
	char t[512];
	snprintf(t, sizeof(t), "%.250s%s%.250s", a, b ? "\n" : "", b ? b : "");
	fprintf(f, "%s ", cmd);
	sl_gp_str(f, t);
	fputc('\n', f);
}

/* The latency CDF: each run's data file written as its delays come (a
 * run at a time), the script at the end. */
struct lat {
	struct sl_gp g;
	int gp;
	int zeros;
	uint64_t minpos, max;
	char (*paths)[1100];
	size_t *counts;
};

static int lat_begin(struct sl_pass_client *c, struct sl_pruns *p, struct sl_diag *d)
{
	struct lat *l = c->ctx;
	if (sl_gp_begin(&l->g, sl_chart_of(c)->out, sl_chart_of(c)->o.keep, 1000, 1000, d))
		return -1;
	l->gp = 1;
	l->minpos = UINT64_MAX;
	l->paths = xcalloc(p->n, sizeof(*l->paths));
	l->counts = xcalloc(p->n, sizeof(*l->counts));
	return 0;
}

static int lat_wakeups(struct sl_pass_client *c, struct sl_pruns *p, size_t i, const uint64_t *dl,
		       size_t n, struct sl_diag *d)
{
	struct lat *l = c->ctx;
	size_t k, np;
	struct sl_cdf_point *pts;
	char name[48];
	FILE *f;
	snprintf(name, sizeof(name), "run%" PRId64, p->v[i].r.run.id);
	f = sl_gp_data(&l->g, name, l->paths[i], sizeof(l->paths[i]), d);
	if (!f)
		return -1;
	np = sl_cdf_points(dl, n, &pts);
	fprintf(f, "# %s: delay_ns\tcount of delays <= delay_ns\twakeups that ran\n", p->v[i].title);
	for (k = 0; k < np; k++) {
		fprintf(f, "%" PRIu64 "\t%" PRIu64 "\t%zu\n", pts[k].delay_ns, pts[k].cum, n);
		if (!pts[k].delay_ns)
			l->zeros = 1;
		if (pts[k].delay_ns && pts[k].delay_ns < l->minpos)
			l->minpos = pts[k].delay_ns;
		if (pts[k].delay_ns > l->max)
			l->max = pts[k].delay_ns;
	}
	l->counts[i] = n;
	free(pts);
	if (fclose(f))
		return sl_fail(d, "%s: write error", l->paths[i]);
	return 0;
}

/* The plot command of the runs with delays: the CDF (cum / total), or the
 * tail (total - cum) / total, undefined (not drawn) where it is 0. Returns
 * how many runs it drew. */
static size_t lat_plot(FILE *f, const struct sl_pruns *p, char (*paths)[1100], const size_t *counts,
		       int tail)
{
	size_t i, plotted = 0;
	fputs("plot ", f);
	for (i = 0; i < p->n; i++) {
		char t[200];
		if (!counts[i])
			continue;
		snprintf(t, sizeof(t), "%s, %zu wakeups", p->v[i].title, counts[i]);
		fprintf(f, "%s", plotted ? ", \\\n     " : "");
		sl_gp_path(f, paths[i]);
		fprintf(f, " using ($1 > 0 ? $1 / 1000.0 : X0):%s with steps lw 2 lt %zu title ",
			tail ? "($3 > $2 ? ($3 - $2) / $3 : 1/0)" : "($2 / $3)", i + 1);
		sl_gp_str(f, t);
		plotted++;
	}
	if (!plotted)
		fputs("NaN notitle", f);
	fputs("\n", f);
	return plotted;
}

static int lat_end(struct sl_pass_client *c, struct sl_pruns *pp, struct sl_diag *d)
{
	struct lat *l = c->ctx;
	struct sl_gp g = l->g;
	const struct sl_pruns *p = pp;
	size_t i, plotted = 0, *counts = l->counts;
	char (*paths)[1100] = l->paths;
	uint64_t minpos = l->minpos, max = l->max;
	int zeros = l->zeros, rc;
	double xmin, xmax;
	/* x in us, log scale: from the power of ten below the smallest
	 * positive delay to a bit past the largest; delays of 0 are drawn at
	 * the left edge (a log axis has no 0). */
	if (minpos == UINT64_MAX) {
		xmin = 0.1;
		xmax = 10;
	} else {
		xmin = pow(10, floor(log10((double)minpos / 1e3)));
		/* zero delays get a decade of their own at the left edge */
		if (zeros)
			xmin /= 10;
		xmax = pow(10, ceil(log10((double)(max > minpos ? max : minpos) / 1e3 * 1.05)));
		if (xmax <= xmin)
			xmax = xmin * 10;
	}
	/* two panels on one x axis: the distribution (linear y) and its tail,
	 * 1 - CDF on a log y down to one wakeup in the largest run (issue 25) */
	fputs("set multiplot layout 2,1\n", g.script);
	gp_title(g.script, "set title", p->trace_title,
		 "scheduling delay (wakeup to first run): cumulative distribution");
	fprintf(g.script,
		"set logscale x\nset xrange [%g:%g]\nset yrange [0:1.02]\n"

		"set xlabel 'scheduling delay (log scale; a delay of 0 is drawn at the left edge)'\n"
		"set ylabel 'fraction of wakeups with delay <= x'\n"
		"set key bottom right box opaque\nset grid xtics mxtics ytics lc rgb '#dddddd'\n"
		"X0 = %g\n",
		xmin, xmax, xmin);
	for (i = 0; i < p->n && !counts[i]; i++)
		;
	if (i == p->n)
		fputs("unset logscale x\nset xrange [0:1]\nunset xtics\nunset ytics\nunset grid\nunset key\n"
		      "set label 1 'no wakeup ran in these runs' at graph 0.5, graph 0.5 center\n",
		      g.script);
	else {
	/* decade ticks named in us, ms, s */
	fputs("set xtics (", g.script);
	{
		double v;
		int first = 1;
		for (v = xmin; v <= xmax * 1.001; v *= 10) {
			char lab[24];
			sl_fmt_ns_short(lab, sizeof(lab), (uint64_t)(v * 1000 + 0.5));
			if (first && zeros)
				snprintf(lab, sizeof(lab), "0");
			fputs(first ? "" : ", ", g.script);
			sl_gp_str(g.script, lab);
			fprintf(g.script, " %g", v);
			first = 0;
		}
	}
	fputs(")\n", g.script);
	}
	plotted = lat_plot(g.script, p, paths, counts, 0);
	if (plotted) {
		size_t most = 0;
		for (i = 0; i < p->n; i++)
			most = counts[i] > most ? counts[i] : most;
		fprintf(g.script,
			"set title 'the tail: fraction of wakeups whose delay is greater (log scale)'\n"
			"set logscale y\nset yrange [%g:1.5]\nset format y '%%g'\n"
			"set ylabel 'fraction of wakeups with delay > x'\nset key top right box opaque\n",
			pow(10, floor(log10(1.0 / (double)most))));
		lat_plot(g.script, p, paths, counts, 1);
	}
	fputs("unset multiplot\n", g.script);
	rc = sl_gp_start(&l->g, d);
	return rc;
}

static int lat_finish(struct sl_pass_client *c, struct sl_diag *d)
{
	struct lat *l = c->ctx;
	return sl_gp_wait(&l->g, d);
}

static void lat_release(struct sl_pass_client *c)
{
	struct lat *l = c->ctx;
	if (l->gp)
		sl_gp_end(&l->g);
	free(l->paths);
	free(l->counts);
	free(l);
	c->ctx = NULL;
}

void sl_chart_latency(struct sl_chart *ch)
{
	struct sl_pass_client *c = &ch->pc;
	c->ctx = xcalloc(1, sizeof(struct lat));
	c->need = SL_NEED_WAKEUPS | SL_END_EARLY;
	c->begin = lat_begin;
	c->wakeups = lat_wakeups;
	c->end = lat_end;
	c->finish = lat_finish;
	c->release = lat_release;
}

int sl_plot_latency(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		    struct sl_diag *d)
{
	struct sl_chart c;
	memset(&c, 0, sizeof(c));
	c.o = *o;
	c.out = out;
	sl_chart_latency(&c);
	return sl_chart_draw(s, &c, d);
}

/* The histogram: each run's counts in every 1-2-5 bin there can be (the
 * bins of the largest delay of all runs are the first of them), the data
 * file and the script at the end. */
struct hist {
	uint64_t max, *full, **cnt;
	size_t nfull, n;
	struct sl_gp g;
	int gp;
};

static int hist_begin(struct sl_pass_client *c, struct sl_pruns *p, struct sl_diag *d)
{
	struct hist *h = c->ctx;
	h->nfull = sl_hist_edges(UINT64_MAX, &h->full);
	h->cnt = xcalloc(p->n, sizeof(*h->cnt));
	h->n = p->n;
	return 0;
}

static int hist_wakeups(struct sl_pass_client *c, struct sl_pruns *p, size_t i, const uint64_t *dl,
			size_t n, struct sl_diag *d)
{
	struct hist *h = c->ctx;
	if (n && dl[n - 1] > h->max)
		h->max = dl[n - 1];
	h->cnt[i] = xcalloc(h->nfull, sizeof(**h->cnt));
	sl_hist_count(dl, n, h->full, h->nfull, h->cnt[i]);
	return 0;
}

static int hist_end(struct sl_pass_client *c, struct sl_pruns *pp, struct sl_diag *d)
{
	struct hist *h = c->ctx;
	const struct sl_pruns *p = pp;
	struct sl_gp *g = &h->g;
	size_t i, b, nb, first, last;
	uint64_t *edges = NULL, **cnt = h->cnt;
	char path[1100];
	FILE *f;
	int rc = -1;
	nb = sl_hist_edges(h->max, &edges);
	/* drop empty bins at both ends */
	for (first = 0; first < nb; first++) {
		for (i = 0; i < p->n && !cnt[i][first]; i++)
			;
		if (i < p->n)
			break;
	}
	for (last = nb; last > first; last--) {
		for (i = 0; i < p->n && !cnt[i][last - 1]; i++)
			;
		if (i < p->n)
			break;
	}
	if (sl_gp_begin(g, sl_chart_of(c)->out, sl_chart_of(c)->o.keep, 1000, 620, d))
		goto out_free;
	h->gp = 1;
	f = sl_gp_data_runs(g, "bins", path, sizeof(path), "lo_ns\thi_ns\tbin", "", p, d);
	if (!f)
		goto out;
	for (b = first; b < last; b++) {
		char lo[24], hi[24];
		sl_fmt_ns_short(lo, sizeof(lo), edges[b]);
		sl_fmt_ns_short(hi, sizeof(hi), edges[b + 1]);
		fprintf(f, "%" PRIu64 "\t%" PRIu64 "\t%s%s%s", edges[b], edges[b + 1],
			edges[b] ? lo : "< ", edges[b] ? "-" : "", hi);
		for (i = 0; i < p->n; i++)
			fprintf(f, "\t%" PRIu64, cnt[i][b]);
		fputs("\n", f);
	}
	if (fclose(f)) {
		sl_fail(d, "%s: write error", path);
		goto out;
	}
	gp_title(g->script, "set title", p->trace_title,
		 "scheduling delay (wakeup to first run): wakeups per delay bin [from, to)");
	fputs("set style data histograms\nset style histogram clustered gap 1\n"
	      "set logscale y\nset yrange [0.8:*]\nset format y '%g'\n"
	      "set xtics rotate by 35 right scale 0\n"
	      "unset xlabel\n"
	      "set ylabel 'wakeups (log scale)'\nset key bmargin center horizontal\n",
	      g->script);
	if (first == last) {
		fputs("set label 1 'no wakeup ran in these runs' at graph 0.5, graph 0.5 center\n"
		      "set xrange [0:1]\nunset logscale y\nset yrange [0:1]\nunset xtics\n"
		      "unset ytics\nunset grid\nplot NaN notitle\n",
		      g->script);
	} else {
		fputs("plot ", g->script);
		for (i = 0; i < p->n; i++) {
			fputs(i ? ", \\\n     " : "", g->script);
			sl_gp_path(g->script, path);
			fprintf(g->script, " using %zu:xtic(3) lt %zu title ", i + 4, i + 1);
			sl_gp_str(g->script, p->v[i].title);
		}
		fputs("\n", g->script);
	}
	rc = sl_gp_start(g, d);
out:
out_free:
	free(edges);
	return rc;
}

static int hist_finish(struct sl_pass_client *c, struct sl_diag *d)
{
	struct hist *h = c->ctx;
	return sl_gp_wait(&h->g, d);
}

static void hist_release(struct sl_pass_client *c)
{
	struct hist *h = c->ctx;
	size_t i;
	for (i = 0; i < h->n; i++)
		free(h->cnt[i]);
	free(h->cnt);
	free(h->full);
	if (h->gp)
		sl_gp_end(&h->g);
	free(h);
	c->ctx = NULL;
}

void sl_chart_histogram(struct sl_chart *ch)
{
	struct sl_pass_client *c = &ch->pc;
	c->ctx = xcalloc(1, sizeof(struct hist));
	c->need = SL_NEED_WAKEUPS | SL_END_EARLY;
	c->begin = hist_begin;
	c->wakeups = hist_wakeups;
	c->end = hist_end;
	c->finish = hist_finish;
	c->release = hist_release;
}

int sl_plot_histogram(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		      struct sl_diag *d)
{
	struct sl_chart c;
	memset(&c, 0, sizeof(c));
	c.o = *o;
	c.out = out;
	sl_chart_histogram(&c);
	return sl_chart_draw(s, &c, d);
}
