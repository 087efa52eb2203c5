/* plots/share_compare.c - the gnuplot charts of CPU share (by task, by nice) and
 * of the key metrics side by side. */
#include "plot_int.h"
#include "../analyze/metrics.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct task_tot {
	int64_t utid;
	int tid, nice;
	char comm[24];
	uint64_t sum;  /* over all runs: picks the tasks shown */
	uint64_t *rt;  /* per run */
};

static int cmp_tot(const void *a, const void *b)
{
	const struct task_tot *x = a, *y = b;
	/* the largest sum first */
	return x->sum != y->sum ? SL_CMP(y->sum, x->sum) : SL_CMP(x->utid, y->utid);
}

static int cmp_nice(const void *a, const void *b)
{
	const struct task_tot *x = a, *y = b;
	return x->nice - y->nice;
}

static void gp_runs_plot(FILE *f, const char *path, const struct sl_pruns *p, int col0)
{
	size_t i;
	fputs("plot ", f);
	for (i = 0; i < p->n; i++) {
		fputs(i ? ", \\\n     " : "", f);
		sl_gp_path(f, path);
		fprintf(f, " using (100.0 * $%zu / tot[%zu]):xtic(1) lt %zu title ", i + col0, i + 1,
			i + 1);
		sl_gp_str(f, p->v[i].title);
	}
	fputs("\n", f);
}

/* The share chart: the window from the pre-pass, each run's CPU time per
 * task in it added as its slices come, the data files and script at the
 * end. */
struct share {
	struct task_tot *t;
	size_t nt, n;
	uint64_t *tot, win_a, win_b;
	struct sl_gp g;
	int gp;
};

static int share_begin(struct sl_pass_client *c, struct sl_pruns *p, struct sl_diag *d)
{
	struct share *sh = c->ctx;
	const struct sl_plot_opts *o = &sl_chart_of(c)->o;
	size_t i, k, nt = p->v[0].r.nthreads;
	sh->nt = nt;
	sh->n = p->n;
	sh->t = xcalloc(nt ? nt : 1, sizeof(*sh->t));
	sh->tot = xcalloc(p->n, sizeof(*sh->tot));
	for (k = 0; k < nt; k++) {
		const struct sl_thread_row *th = &p->v[0].r.threads[k];
		sh->t[k].utid = th->utid;
		sh->t[k].tid = th->tid;
		sh->t[k].nice = th->nice;
		snprintf(sh->t[k].comm, sizeof(sh->t[k].comm), "%s", th->comm);
		sh->t[k].rt = xcalloc(p->n, sizeof(uint64_t));
	}
	/* One window for every run, so that the bars compare like with like:
	 * --from/--to if given (from each run's time 0), else the common
	 * window: from the earliest first slice of any run to the earliest
	 * end of any run (the shortest span). A replay that stretches its tail
	 * (a task's late wakeup) would otherwise have its shares divided by a
	 * longer span although it gave every task the same CPU time. */
	sh->win_a = UINT64_MAX;
	sh->win_b = UINT64_MAX;
	for (i = 0; i < p->n; i++) {
		uint64_t a = o->from, b = o->to ? o->to : p->v[i].end - p->v[i].t0;
		if (!o->from && !o->to && p->v[i].first_ts != UINT64_MAX)
			a = p->v[i].first_ts - p->v[i].t0;
		sh->win_a = a < sh->win_a ? a : sh->win_a;
		sh->win_b = b < sh->win_b ? b : sh->win_b;
	}
	if (o->from)
		sh->win_a = o->from;
	return 0;
}

static int share_slices(struct sl_pass_client *c, struct sl_pruns *p, size_t i, struct sl_diag *d)
{
	struct share *sh = c->ctx;
	struct task_tot *t = sh->t;
	/* every run of a trace has the same threads, ordered by utid */
	const struct sl_run_data *r = &p->v[i].r;
	uint64_t a = p->v[i].t0 + sh->win_a, b = p->v[i].t0 + sh->win_b;
	size_t k;
	for (k = 0; k < r->nslices; k++) {
		const struct sl_slice_row *sl = &r->slices[k];
		const struct sl_thread_row *th = sl_run_thread(r, sl->utid);
		uint64_t lo = sl->ts > a ? sl->ts : a;
		uint64_t hi = sl->ts + sl->dur < b ? sl->ts + sl->dur : b;
		size_t ti;
		if (!th || hi <= lo)
			continue;
		ti = (size_t)(th - r->threads);
		if (ti < sh->nt) {
			t[ti].rt[i] += hi - lo;
			t[ti].sum += hi - lo;
		}
	}
	sh->tot[i] = b > a ? (b - a) * (uint64_t)(r->run.cpus > 0 ? r->run.cpus : 1) : 0;
	return 0;
}

static int share_end(struct sl_pass_client *c, struct sl_pruns *pp, struct sl_diag *d)
{
	struct share *sh = c->ctx;
	const struct sl_plot_opts *o = &sl_chart_of(c)->o;
	const struct sl_pruns *p = pp;
	struct sl_gp *g = &sh->g;
	struct task_tot *t = sh->t;
	size_t nt = sh->nt, i, k, top = o->top > 0 ? (size_t)o->top : 12;
	uint64_t *tot = sh->tot, *other = xcalloc(p->n, sizeof(*other));
	uint64_t win_a = sh->win_a, win_b = sh->win_b;
	char tpath[1100], npath[1100], label[40], tt[320], win[80];
	FILE *f;
	int rc = -1;
	qsort(t, nt, sizeof(*t), cmp_tot);
	if (sl_gp_begin(g, sl_chart_of(c)->out, o->keep, 1000, 800, d))
		goto out_free;
	sh->gp = 1;
	f = sl_gp_data_runs(g, "task", tpath, sizeof(tpath), "task\tutid\ttid\tnice", "runtime_ns ", p, d);
	if (!f)
		goto out;
	for (k = 0; k < nt; k++) {
		if (!t[k].sum)
			break;
		if (k >= top) {
			for (i = 0; i < p->n; i++)
				other[i] += t[k].rt[i];
			continue;
		}
		sl_label_clean(label, sizeof(label), t[k].comm);
		fprintf(f, "%s %d\t%" PRId64 "\t%d\t%d", label, t[k].tid, t[k].utid, t[k].tid,
			t[k].nice);
		for (i = 0; i < p->n; i++)
			fprintf(f, "\t%" PRIu64, t[k].rt[i]);
		fputs("\n", f);
	}
	if (k > top) {
		fprintf(f, "%zu other tasks\t-1\t-1\t0", k - top);
		for (i = 0; i < p->n; i++)
			fprintf(f, "\t%" PRIu64, other[i]);
		fputs("\n", f);
	}
	if (fclose(f)) {
		sl_fail(d, "%s: write error", tpath);
		goto out;
	}
	f = sl_gp_data_runs(g, "nice", npath, sizeof(npath), "nice", "runtime_ns ", p, d);
	if (!f)
		goto out;
	qsort(t, nt, sizeof(*t), cmp_nice);
	for (k = 0; k < nt;) {
		size_t j;
		uint64_t any = 0;
		for (j = k; j < nt && t[j].nice == t[k].nice; j++)
			any += t[j].sum;
		if (any) {
			fprintf(f, "nice %d", t[k].nice);
			for (i = 0; i < p->n; i++) {
				uint64_t sum = 0;
				size_t m;
				for (m = k; m < j; m++)
					sum += t[m].rt[i];
				fprintf(f, "\t%" PRIu64, sum);
			}
			fputs("\n", f);
		}
		k = j;
	}
	if (fclose(f)) {
		sl_fail(d, "%s: write error", npath);
		goto out;
	}
	fprintf(g->script, "array tot[%zu]\n", p->n);
	for (i = 0; i < p->n; i++)
		fprintf(g->script, "tot[%zu] = %" PRIu64 ".0 # run %" PRId64 ": window x CPUs, ns\n",
			i + 1, tot[i] ? tot[i] : 1, p->v[i].r.run.id);
	fputs("set style data histograms\nset style histogram clustered gap 1\n"
	      "set yrange [0:*]\nset offsets 0, 0, graph 0.08, 0\nset key outside right top vertical\n"
	      "set ylabel 'CPU share (% of window x CPUs)'\n"
	      "set multiplot layout 2,1\n",
	      g->script);
	snprintf(win, sizeof(win), "%s %.3f to %.3f ms%s", o->from || o->to ? "from" : "over",
		 win_a / 1e6, win_b / 1e6, o->from || o->to ? "" : " (common to all runs)");
	snprintf(tt, sizeof(tt), "%.150s\nCPU share by task (the %zu busiest), %s", p->trace_title, top, win);
	fputs("set title ", g->script);
	sl_gp_str(g->script, tt);
	fputc('\n', g->script);
	/* the first slanted name reaches left of the axis: room for it */
	fputs("set xtics rotate by 30 right scale 0 font ',9'\nset bmargin 7\nset lmargin 14\n", g->script);
	gp_runs_plot(g->script, tpath, p, 5);
	fputs("set title 'CPU share by nice level'\nset xtics norotate\nset bmargin 3\nset lmargin 14\n",
	      g->script);
	gp_runs_plot(g->script, npath, p, 2);
	fputs("unset multiplot\n", g->script);
	rc = sl_gp_start(g, d);
out:
out_free:
	free(other);
	return rc;
}

static int share_finish(struct sl_pass_client *c, struct sl_diag *d)
{
	struct share *sh = c->ctx;
	return sl_gp_wait(&sh->g, d);
}

static void share_release(struct sl_pass_client *c)
{
	struct share *sh = c->ctx;
	size_t k;
	for (k = 0; k < sh->nt; k++)
		free(sh->t[k].rt);
	free(sh->t);
	free(sh->tot);
	if (sh->gp)
		sl_gp_end(&sh->g);
	free(sh);
	c->ctx = NULL;
}

void sl_chart_share(struct sl_chart *ch)
{
	struct sl_pass_client *c = &ch->pc;
	c->ctx = xcalloc(1, sizeof(struct share));
	c->need = SL_NEED_SLICES | SL_NEED_PRE;
	c->begin = share_begin;
	c->slices = share_slices;
	c->end = share_end;
	c->finish = share_finish;
	c->release = share_release;
}

int sl_plot_share(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		  struct sl_diag *d)
{
	struct sl_chart c;
	memset(&c, 0, sizeof(c));
	c.o = *o;
	c.out = out;
	sl_chart_share(&c);
	return sl_chart_draw(s, &c, d);
}

/* The panels: a time (ns in the data; drawn in us, ms or s, whichever
 * fits the largest value of the panel) or a plain number. Jain's index over
 * every task is left out: over kernel threads and hogs alike it says
 * nothing about fairness (analyze reports it). */
struct panel {
	const char *title;
	int is_time;
};

static const struct panel panels[] = {
	{ "mean delay", 1 }, { "p50 delay", 1 }, { "p95 delay", 1 }, { "p99 delay", 1 },
	{ "max delay", 1 }, { "longest runnable wait", 1 },
	{ "delay KS distance to the recording", 0 }, { "span", 1 },
};

/* The compare chart: a data line per run from the pass's metrics (against
 * the trace's recorded run), the script at the end. */
struct cmp {
	struct sl_gp g;
	int gp;
	FILE *f;
	char path[1100];
	double vmax[SL_ARRAY_SIZE(panels)]; /* per panel: the largest value over the runs */
	int have_ks; /* a run has a KS distance (a recording to compare with) */
};

static int cmp_begin(struct sl_pass_client *c, struct sl_pruns *p, struct sl_diag *d)
{
	struct cmp *x = c->ctx;
	if (sl_gp_begin(&x->g, sl_chart_of(c)->out, sl_chart_of(c)->o.keep, 1200, 700, d))
		return -1;
	x->gp = 1;
	x->f = sl_gp_data(&x->g, "metrics", x->path, sizeof(x->path), d);
	if (!x->f)
		return -1;
	fputs("# run\tdelay_mean_ns\tdelay_p50_ns\tdelay_p95_ns\tdelay_p99_ns\tdelay_max_ns\t"
	      "max_wait_ns\tdelay_ks\tspan_ns\n", x->f);
	return 0;
}

static int cmp_metrics(struct sl_pass_client *c, struct sl_pruns *p, size_t i,
		       const struct sl_run_metrics *mp, struct sl_diag *d)
{
	struct cmp *x = c->ctx;
	const struct sl_run_metrics m = *mp;
	double v[SL_ARRAY_SIZE(panels)];
	size_t k;
	v[0] = m.delay_mean_ns;
	v[1] = (double)m.delay_p50_ns;
	v[2] = (double)m.delay_p95_ns;
	v[3] = (double)m.delay_p99_ns;
	v[4] = (double)m.delay_max_ns;
	v[5] = (double)m.max_wait_ns;
	/* the recorded run is its own distribution (0); a run with no
	 * recording to compare with (a workload's) has none: NaN, no bar */
	v[6] = !isnan(m.delay_ks) ? m.delay_ks : !strcmp(m.run.scheduler, "recorded") ? 0 : NAN;
	x->have_ks |= !isnan(v[6]);
	v[7] = (double)m.span_ns;
	for (k = 0; k < SL_ARRAY_SIZE(panels); k++)
		if (v[k] > x->vmax[k])
			x->vmax[k] = v[k];
	fprintf(x->f, "%" PRId64 " %s\t%.1f\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		      "\t%" PRIu64 "\t",
		m.run.id, m.run.scheduler, m.delay_mean_ns, m.delay_p50_ns, m.delay_p95_ns,
		m.delay_p99_ns, m.delay_max_ns, m.max_wait_ns);
	if (isnan(v[6]))
		fputs("NaN", x->f);
	else
		fprintf(x->f, "%.6f", v[6]);
	fprintf(x->f, "\t%" PRIu64 "\n", m.span_ns);
	return 0;
}

static int cmp_end(struct sl_pass_client *c, struct sl_pruns *p, struct sl_diag *d)
{
	struct cmp *x = c->ctx;
	struct sl_gp *g = &x->g;
	const double *vmax = x->vmax;
	const char *path = x->path;
	char tt[200];
	size_t k;
	int rc = fclose(x->f);
	x->f = NULL;
	if (rc)
		return sl_fail(d, "%s: write error", path);
	snprintf(tt, sizeof(tt), "%.150s: key metrics per run", p->trace_title);
	fputs("set multiplot layout 2,4 title ", g->script);
	sl_gp_str(g->script, tt);
	fputs(" font ',12'\n", g->script);
	fprintf(g->script, "set boxwidth 0.6\nset xrange [-0.6:%zu.6]\nset yrange [0:*]\n"
			   "set offsets 0, 0, graph 0.15, 0\nset xtics scale 0 font ',8'\nunset key\n",
		p->n - 1);
	/* more than 4 bars in a quarter of the width: run names slanted, the
	 * values upright above their bars, to 3 digits, so neither overlaps */
	if (p->n > 4)
		fputs("set xtics rotate by 40 right\nset offsets 0, 0, graph 0.3, 0\n", g->script);
	for (k = 0; k < SL_ARRAY_SIZE(panels); k++) {
		/* column k + 2; a time in the unit that fits its largest value */
		const char *unit = "", *scale = "1.0";
		if (panels[k].is_time) {
			if (vmax[k] < 1e6) {
				unit = " (us)";
				scale = "1e3";
			} else if (vmax[k] < 1e9) {
				unit = " (ms)";
				scale = "1e6";
			} else {
				unit = " (s)";
				scale = "1e9";
			}
		}
		snprintf(tt, sizeof(tt), "%s%s", panels[k].title, unit);
		fputs("set title ", g->script);
		sl_gp_str(g->script, tt);
		fputc('\n', g->script);
		if (k == 6 && !x->have_ks) { /* the KS panel of runs with no recording */
			fputs("set label 1 'no recorded run to compare with' at graph 0.5, graph 0.5 center\n"
			      "set yrange [0:1]\nplot NaN notitle\nset yrange [0:*]\nunset label 1\n",
			      g->script);
			continue;
		}
		fputs("plot ", g->script);
		sl_gp_path(g->script, path);
		fprintf(g->script, " using 0:($%zu / %s):($0 + 1):xtic(1) with boxes lc variable, \\\n"
				   "     '' using 0:($%zu / %s):(sprintf('%s', $%zu / %s)) with labels %s\n",
			k + 2, scale, k + 2, scale, p->n > 4 ? "%.3g" : "%.4g", k + 2, scale,
			p->n > 4 ? "rotate by 90 left offset 0,0.3 font ',8'" : "offset 0,0.7");
	}
	fputs("unset multiplot\n", g->script);
	return sl_gp_start(g, d);
}

static int cmp_finish(struct sl_pass_client *c, struct sl_diag *d)
{
	struct cmp *x = c->ctx;
	return sl_gp_wait(&x->g, d);
}

static void cmp_release(struct sl_pass_client *c)
{
	struct cmp *x = c->ctx;
	if (x->f)
		fclose(x->f);
	if (x->gp)
		sl_gp_end(&x->g);
	free(x);
	c->ctx = NULL;
}

void sl_chart_compare(struct sl_chart *ch)
{
	struct sl_pass_client *c = &ch->pc;
	c->ctx = xcalloc(1, sizeof(struct cmp));
	c->need = SL_NEED_METRICS;
	c->begin = cmp_begin;
	c->metrics = cmp_metrics;
	c->end = cmp_end;
	c->finish = cmp_finish;
	c->release = cmp_release;
}

int sl_plot_compare(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		    struct sl_diag *d)
{
	struct sl_chart c;
	memset(&c, 0, sizeof(c));
	c.o = *o;
	c.out = out;
	sl_chart_compare(&c);
	return sl_chart_draw(s, &c, d);
}
