/* cmd/cmd-compare.c - schedlab compare: side-by-side metrics of runs of the
 * same trace, with each run's difference from the first. */
#include "cmd.h"
#include "../analyze/metrics.h"
#include "../analyze/store.h"
#include "../analyze/pass.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char synopsis[] =
	"schedlab [--db FILE] compare --run A --run B [--run C...] [--top N]\n"
	"       schedlab [--db FILE] compare --trace ID [--top N]";

static const char about[] =
	"Side-by-side metrics of runs of one trace (the first run is the baseline;\n"
	"each other run shows its difference from it), then per task the runtime and\n"
	"the longest runnable wait in every run, busiest tasks of the baseline\n"
	"first, and past --top the task with each run's longest wait (a task that\n"
	"never ran waited from its start to the run's end).\n";

struct row {
	const char *name;
	double (*get)(const struct sl_run_metrics *m);
	int prec;               /* digits after the point: 0 for counts */
};

static double g_runtime(const struct sl_run_metrics *m) { return (double)m->runtime_ns / 1e6; }
static double g_span(const struct sl_run_metrics *m) { return (double)m->span_ns / 1e6; }
static double g_wakeups(const struct sl_run_metrics *m) { return (double)m->wakeups; }
/* no wakeup ran: the delays are n/a ("-"), not 0 */
#define DL(m, v) ((m)->ndelays ? (double)(v) / 1e3 : NAN)
#define CL(c, v) ((c).delays ? (double)(v) / 1e3 : NAN)
static double g_dmean(const struct sl_run_metrics *m) { return DL(m, m->delay_mean_ns); }
static double g_d50(const struct sl_run_metrics *m) { return DL(m, m->delay_p50_ns); }
static double g_d95(const struct sl_run_metrics *m) { return DL(m, m->delay_p95_ns); }
static double g_d99(const struct sl_run_metrics *m) { return DL(m, m->delay_p99_ns); }
static double g_dmax(const struct sl_run_metrics *m) { return DL(m, m->delay_max_ns); }
static double g_wait(const struct sl_run_metrics *m) { return (double)m->max_wait_ns / 1e3; }
static double g_jain(const struct sl_run_metrics *m) { return m->jain; }
static double g_jainc(const struct sl_run_metrics *m) { return m->jain_cpu; }
static double g_jainw(const struct sl_run_metrics *m) { return m->jain_window; }
static double g_s99(const struct sl_run_metrics *m) { return CL(m->sleepers, m->sleepers.p99_ns); }
static double g_smax(const struct sl_run_metrics *m) { return CL(m->sleepers, m->sleepers.max_ns); }
static double g_c99(const struct sl_run_metrics *m) { return CL(m->cpu_bound, m->cpu_bound.p99_ns); }
static double g_cmax(const struct sl_run_metrics *m) { return CL(m->cpu_bound, m->cpu_bound.max_ns); }
static double g_cons(const struct sl_run_metrics *m) { return m->conservation_max_err_ns / 1e3; }
static double g_ks(const struct sl_run_metrics *m) { return m->delay_ks; }

static const struct row rows[] = {
	{ "span_ms", g_span, 3 },
	{ "runtime_ms", g_runtime, 3 },
	{ "wakeups", g_wakeups, 0 },
	{ "delay_mean_us", g_dmean, 3 },
	{ "delay_p50_us", g_d50, 3 },
	{ "delay_p95_us", g_d95, 3 },
	{ "delay_p99_us", g_d99, 3 },
	{ "delay_max_us", g_dmax, 3 },
	{ "longest_wait_us", g_wait, 3 },
	{ "jain_index", g_jain, 3 },
	{ "jain_cpu_bound", g_jainc, 3 },
	{ "jain_window", g_jainw, 3 },
	{ "sleeper_delay_p99_us", g_s99, 3 },
	{ "sleeper_delay_max_us", g_smax, 3 },
	{ "cpu_bound_delay_p99_us", g_c99, 3 },
	{ "cpu_bound_delay_max_us", g_cmax, 3 },
	{ "runtime_err_max_us", g_cons, 3 },
	{ "delay_ks_vs_recorded", g_ks, 3 },
};

static const struct sl_task_metrics *find_task(const struct sl_run_metrics *m, int64_t utid)
{
	size_t i;
	for (i = 0; i < m->ntasks; i++)
		if (m->tasks[i].utid == utid)
			return &m->tasks[i];
	return NULL;
}

/* Whether utid has the longest wait of one of the n runs: shown past --top
 * (a starved task has no runtime to rank it among the busiest). */
static int longest_waiter(const struct sl_run_metrics *m, size_t n, int64_t utid)
{
	size_t i;
	for (i = 0; i < n; i++) {
		const struct sl_task_metrics *t = find_task(&m[i], utid);
		if (t && m[i].max_wait_ns && t->max_wait_ns == m[i].max_wait_ns)
			return 1;
	}
	return 0;
}

/* A figure built on uncertain time says so (issue 25): the longest wait of
 * a run whose task has time that may or may not be its own (the recorded
 * run of a file with missed switches; docs/model.md). */
static void uncertain_notes(const struct sl_run_metrics *m, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		const struct sl_task_metrics *t = sl_uncertain_longest_wait(&m[i]);
		if (t)
			printf("note: run %" PRId64 "'s longest wait is %d %s's, who has %.3f ms of uncertain "
			       "time (around missed switches): it may not be a wait\n",
			       m[i].run.id, t->tid, t->comm, (double)t->uncertain_ns / 1e6);
	}
}

static void print_num(double v, int prec)
{
	if (isnan(v))
		printf(" %12s", "-");
	else
		printf(" %12.*f", prec, v);
}

/* 1 if every task of the baseline has the same runtime in every run (a
 * replay gives each task its recorded CPU time, so this is the usual case):
 * the task table then shows the runtime once. */
static int same_runtimes(const struct sl_run_metrics *m, size_t n);

static int same_runtimes(const struct sl_run_metrics *m, size_t n)
{
	size_t i, k;
	for (k = 0; k < m[0].ntasks; k++)
		for (i = 1; i < n; i++) {
			const struct sl_task_metrics *t = find_task(&m[i], m[0].tasks[k].utid);
			if (!t || t->runtime_ns != m[0].tasks[k].runtime_ns)
				return 0;
		}
	return 1;
}

int cmd_compare(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_store *st = NULL;
	struct sl_run_metrics *m = NULL;
	struct sl_idlist ids = { 0 };
	int64_t trace = 0;
	size_t i, k;
	long long top = 20;
	int rc, same;
	const struct sl_opt opts[] = {
		SL_OPT_IDS(0, "run", &ids, "a run (repeat, or 1,2,3); the first is the baseline"),
		SL_OPT_ID(0, "trace", &trace, "every run of this trace, the recorded one first"),
		SL_OPT_INT(0, "top", &top, 0, INT64_MAX, "N", "the N busiest tasks; 0: all"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "compare", synopsis, about, opts, 0, NULL };

	if ((rc = sl_opts_parse(&spec, argc, argv, NULL)) != SL_OPTS_GO)
		return rc;
	rc = 1;
	if (!ids.n && !trace) {
		sl_opts_usage(&spec, stderr);
		return 2;
	}
	if (sl_store_open(g->db, 0, &st, &d))
		goto out;
	if (!ids.n && sl_store_list_runs(st, trace, &ids.v, &ids.n, &d))
		goto out;
	if (ids.n < 2) {
		sl_fail(&d, "compare needs at least two runs");
		goto out;
	}
	m = xcalloc(ids.n, sizeof(*m));
	{
		/* runs of one trace; their metrics read a run at a time, against
		 * the trace's recorded run (as report reads them) */
		struct sl_run_info r0, ri;
		if (sl_store_get_run(st, ids.v[0], &r0, &d))
			goto out;
		for (i = 1; i < ids.n; i++) {
			if (sl_store_get_run(st, ids.v[i], &ri, &d))
				goto out;
			if (ri.trace_id != r0.trace_id) {
				sl_fail(&d, "run %" PRId64 " is of trace %" PRId64 ", run %" PRId64
					    " of trace %" PRId64 ": compare runs of one trace",
					ids.v[i], ri.trace_id, ids.v[0], r0.trace_id);
				goto out;
			}
		}
		if (sl_runs_metrics(st, ids.v, ids.n, m, &d))
			goto out;
	}
	printf("trace %" PRId64 ": ", m[0].run.trace_id);
	for (i = 0; i < ids.n; i++)
		printf("%srun %" PRId64 " = %s (%s)", i ? ", " : "", m[i].run.id, m[i].run.scheduler,
		       m[i].run.mode);
	printf("\n%-22s", "metric");
	for (i = 0; i < ids.n; i++) {
		char h[32];
		snprintf(h, sizeof(h), "run %" PRId64, m[i].run.id);
		printf(" %12s", h);
		if (i)
			printf(" %12s", "diff");
	}
	printf("\n");
	for (k = 0; k < SL_ARRAY_SIZE(rows); k++) {
		double base = rows[k].get(&m[0]);
		printf("%-22s", rows[k].name);
		for (i = 0; i < ids.n; i++) {
			double x = rows[k].get(&m[i]);
			print_num(x, rows[k].prec);
			if (i)
				print_num(x - base, rows[k].prec);
		}
		printf("\n");
	}
	uncertain_notes(m, ids.n);
	same = same_runtimes(m, ids.n);
	printf("\n%7s %-16s %4s", "TID", "COMM", "NICE");
	if (same)
		printf(" %11s", "runtime_ms");
	for (i = 0; i < ids.n; i++)
		if (same) {
			char h[40];
			snprintf(h, sizeof(h), "run%" PRId64 " maxwait_us", m[i].run.id);
			printf("  %13s", h);
		} else
			printf("  run%-4" PRId64 "ms maxwait_us", m[i].run.id);
	printf("\n");
	for (k = 0; k < m[0].ntasks; k++) {
		const struct sl_task_metrics *t0 = &m[0].tasks[k];
		if (top != 0 && k >= (size_t)top && !longest_waiter(m, ids.n, t0->utid))
			continue;
		printf("%7d %-16.16s %4d", t0->tid, t0->comm, t0->nice);
		if (same)
			printf(" %11.3f", (double)t0->runtime_ns / 1e6);
		for (i = 0; i < ids.n; i++) {
			const struct sl_task_metrics *t = find_task(&m[i], t0->utid);
			if (same)
				printf("  %13.1f", t ? (double)t->max_wait_ns / 1e3 : NAN);
			else if (t)
				printf("  %9.3f %10.1f", (double)t->runtime_ns / 1e6,
				       (double)t->max_wait_ns / 1e3);
			else
				printf("  %9s %10s", "-", "-");
		}
		printf("\n");
	}
	if (same)
		printf("(runtime_ms: the same in every run, to the ns: each replay gives a task its "
		       "recorded CPU time)\n");
	rc = 0;
out:
	if (rc)
		sl_err("%s", d.msg);
	if (m)
		for (i = 0; i < ids.n; i++)
			sl_run_metrics_release(&m[i]);
	free(m);
	free(ids.v);
	sl_store_close(st);
	return rc;
}
