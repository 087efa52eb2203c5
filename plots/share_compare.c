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
	if (x->sum != y->sum)
		return x->sum < y->sum ? 1 : -1;
	return x->utid < y->utid ? -1 : x->utid > y->utid;
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
		sl_gp_str(f, path);
		fprintf(f, " using (100.0 * $%zu / tot[%zu]):xtic(1) lt %zu title ", i + col0, i + 1,
			i + 1);
		sl_gp_str(f, p->v[i].title);
	}
	fputs("\n", f);
}

int sl_plot_share(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		  struct sl_diag *d)
{
	struct sl_pruns p;
	struct sl_gp g;
	struct task_tot *t = NULL;
	size_t nt, i, k, top = o->top > 0 ? (size_t)o->top : 12;
	uint64_t *tot = NULL, *other = NULL; /* tot: window x CPUs per run */
	uint64_t win_a, win_b;               /* the common window, from time 0 */
	char tpath[1100], npath[1100], label[40], tt[200], win[80];
	FILE *f;
	int rc = -1;
	if (sl_pruns_load(s, o, SL_LOAD_SLICES, &p, d))
		return -1;
	nt = p.v[0].r.nthreads;
	t = xcalloc(nt ? nt : 1, sizeof(*t));
	tot = xcalloc(p.n, sizeof(*tot));
	other = xcalloc(p.n, sizeof(*other));
	for (k = 0; k < nt; k++) {
		const struct sl_thread_row *th = &p.v[0].r.threads[k];
		t[k].utid = th->utid;
		t[k].tid = th->tid;
		t[k].nice = th->nice;
		snprintf(t[k].comm, sizeof(t[k].comm), "%s", th->comm);
		t[k].rt = xcalloc(p.n, sizeof(uint64_t));
	}
	/* One window for every run, so that the bars compare like with like:
	 * --from/--to if given (from each run's time 0), else the common
	 * window: from the earliest first slice of any run to the earliest
	 * end of any run (the shortest span). A replay that stretches its tail
	 * (a task's late wakeup) would otherwise have its shares divided by a
	 * longer span although it gave every task the same CPU time. */
	win_a = UINT64_MAX;
	win_b = UINT64_MAX;
	for (i = 0; i < p.n; i++) {
		const struct sl_run_data *r = &p.v[i].r;
		uint64_t a = o->from, b = o->to ? o->to : p.v[i].end - p.v[i].t0;
		if (!o->from && !o->to && r->nslices)
			a = r->slices[0].ts - p.v[i].t0;
		win_a = a < win_a ? a : win_a;
		win_b = b < win_b ? b : win_b;
	}
	if (o->from)
		win_a = o->from;
	for (i = 0; i < p.n; i++) {
		/* every run of a trace has the same threads, ordered by utid */
		const struct sl_run_data *r = &p.v[i].r;
		uint64_t a = p.v[i].t0 + win_a, b = p.v[i].t0 + win_b;
		for (k = 0; k < r->nslices; k++) {
			const struct sl_slice_row *sl = &r->slices[k];
			const struct sl_thread_row *th = sl_prun_thread(r, sl->utid);
			uint64_t lo = sl->ts > a ? sl->ts : a;
			uint64_t hi = sl->ts + sl->dur < b ? sl->ts + sl->dur : b;
			size_t ti;
			if (!th || hi <= lo)
				continue;
			ti = (size_t)(th - r->threads);
			if (ti < nt) {
				t[ti].rt[i] += hi - lo;
				t[ti].sum += hi - lo;
			}
		}
		tot[i] = b > a ? (b - a) * (uint64_t)(r->run.cpus > 0 ? r->run.cpus : 1) : 0;
	}
	qsort(t, nt, sizeof(*t), cmp_tot);
	if (sl_gp_begin(&g, out, o->keep, 1000, 800, d))
		goto out_free;
	f = sl_gp_data_runs(&g, "task", tpath, sizeof(tpath), "task\tutid\ttid\tnice", "runtime_ns ", &p, d);
	if (!f)
		goto out;
	for (k = 0; k < nt; k++) {
		if (!t[k].sum)
			break;
		if (k >= top) {
			for (i = 0; i < p.n; i++)
				other[i] += t[k].rt[i];
			continue;
		}
		sl_label_clean(label, sizeof(label), t[k].comm);
		fprintf(f, "%s %d\t%" PRId64 "\t%d\t%d", label, t[k].tid, t[k].utid, t[k].tid,
			t[k].nice);
		for (i = 0; i < p.n; i++)
			fprintf(f, "\t%" PRIu64, t[k].rt[i]);
		fputs("\n", f);
	}
	if (k > top) {
		fprintf(f, "%zu other tasks\t-1\t-1\t0", k - top);
		for (i = 0; i < p.n; i++)
			fprintf(f, "\t%" PRIu64, other[i]);
		fputs("\n", f);
	}
	if (fclose(f)) {
		sl_fail(d, "%s: write error", tpath);
		goto out;
	}
	f = sl_gp_data_runs(&g, "nice", npath, sizeof(npath), "nice", "runtime_ns ", &p, d);
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
			for (i = 0; i < p.n; i++) {
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
	fprintf(g.script, "array tot[%zu]\n", p.n);
	for (i = 0; i < p.n; i++)
		fprintf(g.script, "tot[%zu] = %" PRIu64 ".0 # run %" PRId64 ": window x CPUs, ns\n",
			i + 1, tot[i] ? tot[i] : 1, p.v[i].r.run.id);
	fputs("set style data histograms\nset style histogram clustered gap 1\n"
	      "set yrange [0:*]\nset offsets 0, 0, graph 0.08, 0\nset key outside right top vertical\n"
	      "set ylabel \"CPU share (% of window x CPUs)\"\n"
	      "set multiplot layout 2,1\n",
	      g.script);
	sl_label_clean(tt, sizeof(tt), p.trace_title);
	snprintf(win, sizeof(win), "%s %.3f to %.3f ms%s", o->from || o->to ? "from" : "over",
		 win_a / 1e6, win_b / 1e6, o->from || o->to ? "" : " (common to all runs)");
	fprintf(g.script, "set title \"%s\\nCPU share by task (the %zu busiest), %s\"\n", tt,
		top, win);
	fputs("set xtics rotate by 30 right scale 0 font ',9'\nset bmargin 7\n", g.script);
	gp_runs_plot(g.script, tpath, &p, 5);
	fputs("set title 'CPU share by nice level'\nset xtics norotate\nset bmargin 3\n", g.script);
	gp_runs_plot(g.script, npath, &p, 2);
	fputs("unset multiplot\n", g.script);
	rc = sl_gp_run(&g, d);
out:
	sl_gp_end(&g);
out_free:
	for (k = 0; k < nt; k++)
		free(t[k].rt);
	free(t);
	free(tot);
	free(other);
	sl_pruns_release(&p);
	return rc;
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

int sl_plot_compare(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		    struct sl_diag *d)
{
	struct sl_pruns p;
	struct sl_gp g;
	struct sl_run_ref ref;
	int64_t *all = NULL;
	size_t na = 0, i, k;
	int have_ref = 0, rc = -1;
	char path[1100], tt[200];
	double *vmax = NULL; /* per panel: the largest value over the runs */
	FILE *f;
	if (sl_pruns_load(s, o, SL_LOAD_ALL, &p, d))
		return -1;
	/* fidelity and the same numbers as analyze: against the recorded run */
	if (sl_store_list_runs(s, p.trace.id, &all, &na, d))
		goto out_runs;
	for (i = 0; i < na && !have_ref; i++) {
		struct sl_run_info ri;
		if (sl_store_get_run(s, all[i], &ri, d) == 0 && !strcmp(ri.scheduler, "recorded") &&
		    sl_pruns_ref(s, all[i], &ref, d) == 0)
			have_ref = 1;
	}
	free(all);
	if (sl_gp_begin(&g, out, o->keep, 1200, 700, d))
		goto out_runs;
	f = sl_gp_data(&g, "metrics", path, sizeof(path), d);
	if (!f)
		goto out;
	fputs("# run\tdelay_mean_ns\tdelay_p50_ns\tdelay_p95_ns\tdelay_p99_ns\tdelay_max_ns\t"
	      "max_wait_ns\tdelay_ks\tspan_ns\n", f);
	vmax = xcalloc(SL_ARRAY_SIZE(panels), sizeof(*vmax));
	for (i = 0; i < p.n; i++) {
		struct sl_run_metrics m;
		double v[SL_ARRAY_SIZE(panels)];
		sl_metrics_compute(&p.v[i].r, have_ref ? &ref : NULL, &m);
		v[0] = m.delay_mean_ns;
		v[1] = (double)m.delay_p50_ns;
		v[2] = (double)m.delay_p95_ns;
		v[3] = (double)m.delay_p99_ns;
		v[4] = (double)m.delay_max_ns;
		v[5] = (double)m.max_wait_ns;
		v[6] = isnan(m.delay_ks) ? 0 : m.delay_ks;
		v[7] = (double)m.span_ns;
		for (k = 0; k < SL_ARRAY_SIZE(panels); k++)
			if (v[k] > vmax[k])
				vmax[k] = v[k];
		fprintf(f, "%" PRId64 " %s\t%.1f\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
			   "\t%" PRIu64 "\t%.6f\t%" PRIu64 "\n",
			m.run.id, m.run.scheduler, m.delay_mean_ns, m.delay_p50_ns, m.delay_p95_ns,
			m.delay_p99_ns, m.delay_max_ns, m.max_wait_ns, v[6], m.span_ns);
		sl_run_metrics_release(&m);
	}
	if (fclose(f)) {
		sl_fail(d, "%s: write error", path);
		goto out;
	}
	sl_label_clean(tt, sizeof(tt), p.trace_title);
	fprintf(g.script, "set multiplot layout 2,4 title \"%s: key metrics per run\" font ',12'\n",
		tt);
	fprintf(g.script, "set boxwidth 0.6\nset xrange [-0.6:%zu.6]\nset yrange [0:*]\n"
			  "set offsets 0, 0, graph 0.15, 0\nset xtics scale 0 font ',8'\nunset key\n",
		p.n - 1);
	/* more than 4 bars in a quarter of the width: run names slanted, the
	 * values upright above their bars, to 3 digits, so neither overlaps */
	if (p.n > 4)
		fputs("set xtics rotate by 40 right\nset offsets 0, 0, graph 0.3, 0\n", g.script);
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
		fprintf(g.script, "set title '%s%s'\n", panels[k].title, unit);
		fputs("plot ", g.script);
		sl_gp_str(g.script, path);
		fprintf(g.script, " using 0:($%zu / %s):($0 + 1):xtic(1) with boxes lc variable, \\\n"
				  "     '' using 0:($%zu / %s):(sprintf('%s', $%zu / %s)) with labels %s\n",
			k + 2, scale, k + 2, scale, p.n > 4 ? "%.3g" : "%.4g", k + 2, scale,
			p.n > 4 ? "rotate by 90 left offset 0,0.3 font ',8'" : "offset 0,0.7");
	}
	fputs("unset multiplot\n", g.script);
	rc = sl_gp_run(&g, d);
out:
	sl_gp_end(&g);
	free(vmax);
out_runs:
	if (have_ref)
		sl_run_ref_release(&ref);
	sl_pruns_release(&p);
	return rc;
}
