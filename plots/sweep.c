/* plots/sweep.c - the sensitivity chart of a sweep: a metric of each run
 * against a parameter of its params (rr_interval_ns, hz, cpus, a model's
 * --opt), one line per model. The runs are those of one trace (a sweep's
 * merged database holds them; `schedlab sweep`). */
#include "plot_int.h"
#include "../analyze/metrics.h"
#include "../replay/engine.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct pt {
	char model[32];
	double x, y;
	int64_t run;
};

static int cmp_pt(const void *a, const void *b)
{
	const struct pt *p = a, *q = b;
	int c = strcmp(p->model, q->model);
	if (c)
		return c;
	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return p->run < q->run ? -1 : p->run > q->run;
}

/* The number after "name": in a flat JSON object (a run's params), or NAN. */
static double param_of(const char *json, const char *name)
{
	char key[80];
	const char *p;
	snprintf(key, sizeof(key), "\"%s\":", name);
	p = strstr(json, key);
	if (!p)
		return NAN;
	p += strlen(key);
	while (*p == ' ')
		p++;
	if (*p == '"')
		p++; /* a number written as a string */
	return *p == '-' || (*p >= '0' && *p <= '9') ? strtod(p, NULL) : NAN;
}

/* The metric's value (ms for delays and waits, % for a share), or NAN. */
static double metric_of(const struct sl_run_metrics *m, const char *metric, int cpus)
{
	if (!strcmp(metric, "p50"))
		return (double)m->delay_p50_ns / 1e6;
	if (!strcmp(metric, "p95"))
		return (double)m->delay_p95_ns / 1e6;
	if (!strcmp(metric, "p99"))
		return (double)m->delay_p99_ns / 1e6;
	if (!strcmp(metric, "max"))
		return (double)m->delay_max_ns / 1e6;
	if (!strcmp(metric, "mean"))
		return m->delay_mean_ns / 1e6;
	if (!strcmp(metric, "wait"))
		return (double)m->max_wait_ns / 1e6;
	if (!strcmp(metric, "jain")) /* the index a run changes (analyze/fairwin.h) */
		return m->jain_window;
	if (!strncmp(metric, "share:", 6)) {
		/* the CPU time of the tasks called COMM over the run's span x CPUs */
		uint64_t rt = 0;
		size_t i;
		for (i = 0; i < m->ntasks; i++)
			if (!strcmp(m->tasks[i].comm, metric + 6))
				rt += m->tasks[i].runtime_ns;
		return m->span_ns ? 100.0 * (double)rt / ((double)m->span_ns * (cpus > 0 ? cpus : 1))
				  : NAN;
	}
	return NAN;
}

static const char *metric_label(const char *metric)
{
	static const char *const names[][2] = {
		{ "p50", "p50 scheduling delay (ms)" }, { "p95", "p95 scheduling delay (ms)" },
		{ "p99", "p99 scheduling delay (ms)" }, { "max", "longest scheduling delay (ms)" },
		{ "mean", "mean scheduling delay (ms)" }, { "wait", "longest runnable wait (ms)" },
		{ "jain", "Jain's index where tasks compete" },
	};
	size_t i;
	for (i = 0; i < SL_ARRAY_SIZE(names); i++)
		if (!strcmp(metric, names[i][0]))
			return names[i][1];
	return NULL;
}

int sl_plot_sweep(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		  struct sl_diag *d)
{
	const char *param = o->param ? o->param : "rr_interval_ns";
	const char *metric = o->metric ? o->metric : "p99";
	struct pt *v = xcalloc(o->nruns ? o->nruns : 1, sizeof(*v));
	struct sl_run_metrics *m = NULL;
	size_t n = 0, i, j, nmodels = 0;
	int is_ns = strlen(param) > 3 && !strcmp(param + strlen(param) - 3, "_ns");
	char path[1100], ylabel[96], xlabel[96];
	struct sl_gp g;
	FILE *f;
	int rc = -1;
	if (!metric_label(metric) && (strncmp(metric, "share:", 6) || !metric[6])) {
		sl_fail(d, "sweep chart: unknown metric '%s' (p50, p95, p99, max, mean, wait, jain, "
			   "share:COMM)", metric);
		goto out_free;
	}
	/* the runs' metrics as analyze and compare take them (analyze/pass.h):
	 * runs of one trace, read a run at a time */
	m = xcalloc(o->nruns ? o->nruns : 1, sizeof(*m));
	if (o->nruns && sl_runs_metrics(s, o->runs, o->nruns, m, d))
		goto out_free;
	for (i = 0; i < o->nruns; i++) {
		const struct sl_run_info *ri = &m[i].run;
		double x = param_of(ri->params, param);
		if (isnan(x) && sl_policy_param_other(param)) /* rsdl's a1 <-> pick_sets_level */
			x = param_of(ri->params, sl_policy_param_other(param));
		if (!strcmp(ri->scheduler, "recorded") || isnan(x))
			continue;
		v[n].y = metric_of(&m[i], metric, ri->cpus);
		v[n].x = is_ns ? x / 1e6 : x;
		v[n].run = ri->id;
		snprintf(v[n].model, sizeof(v[n].model), "%s", ri->scheduler);
		if (!isnan(v[n].y))
			n++;
	}
	if (!n) {
		sl_fail(d, "sweep chart: no replay of these runs has '%s' in its params (e.g. "
			   "rr_interval_ns, hz, cpus, or a model's --opt name)", param);
		goto out_free;
	}
	qsort(v, n, sizeof(*v), cmp_pt);
	if (sl_gp_begin(&g, out, o->keep, 1000, 600, d))
		goto out_free;
	f = sl_gp_data(&g, "points", path, sizeof(path), d);
	if (!f)
		goto out;
	/* one block per model (gnuplot index i), separated by two blank lines */
	for (i = 0; i < n; i = j) {
		fprintf(f, "%s# model %s: %s\trun\t%s\n", i ? "\n\n" : "", v[i].model, param, metric);
		for (j = i; j < n && !strcmp(v[j].model, v[i].model); j++)
			fprintf(f, "%.9g\t%" PRId64 "\t%.9g\n", v[j].x, v[j].run, v[j].y);
		nmodels++;
	}
	if (fclose(f)) {
		sl_fail(d, "%s: write error", path);
		goto out;
	}
	snprintf(xlabel, sizeof(xlabel), "%.*s%s", (int)(strlen(param) - (is_ns ? 3 : 0)), param,
		 is_ns ? " (ms)" : "");
	if (metric_label(metric))
		snprintf(ylabel, sizeof(ylabel), "%s", metric_label(metric));
	else
		snprintf(ylabel, sizeof(ylabel), "CPU share of %.40s (%% of span x CPUs)", metric + 6);
	fputs("set title ", g.script);
	{
		char t[320];
		snprintf(t, sizeof(t), "trace %" PRId64 ": %s against %s, one line per model",
			 m[0].run.trace_id, ylabel, xlabel);
		sl_gp_str(g.script, t);
	}
	fputs("\nset xlabel ", g.script);
	sl_gp_str(g.script, xlabel);
	fputs("\nset ylabel ", g.script);
	sl_gp_str(g.script, ylabel);
	fputs("\nset grid\nset key outside right top\nset yrange [0:*]\nplot ", g.script);
	for (i = 0, j = 0; i < n; i++) {
		if (i && !strcmp(v[i].model, v[i - 1].model))
			continue;
		fprintf(g.script, "%s", j ? ", \\\n     " : "");
		sl_gp_path(g.script, path);
		fprintf(g.script, " index %zu using 1:3 with linespoints lw 2 pt 7 title ", j);
		sl_gp_str(g.script, v[i].model);
		j++;
	}
	fputs("\n", g.script);
	rc = sl_gp_run(&g, d);
out:
	sl_gp_end(&g);
out_free:
	for (i = 0; m && i < o->nruns; i++)
		sl_run_metrics_release(&m[i]);
	free(m);
	free(v);
	return rc;
}
