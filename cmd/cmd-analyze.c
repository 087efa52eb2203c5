/* cmd/cmd-analyze.c - schedlab analyze: compute and store metrics, print a
 * per-run and per-task table (or CSV, JSON). */
#include "cmd.h"
#include "../analyze/fidelity.h"
#include "../analyze/metrics.h"
#include "../analyze/pass.h"
#include "../analyze/store.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char synopsis[] =
	"schedlab [--db FILE] analyze [--run ID]... [--trace ID] [--top N]\n"
	"                 [--format table|csv|json]";

static const char about[] =
	"Compute each run's metrics (stored in the metric table) and print them:\n"
	"per run, delays (mean, p50, p95, p99, max), the longest runnable wait (a task\n"
	"that never ran waited from its start to the end), Jain's index of runtimes\n"
	"(the same in every replay of a trace: replays keep each task's CPU time),\n"
	"Jain's index where tasks compete (jain_window: in each 100 ms window with two\n"
	"tasks or more on a runqueue all through it, over their CPU time / nice weight;\n"
	"the mean over those windows) and,\n"
	"for replays, fidelity against the recorded run (largest\n"
	"per-task runtime difference, Kolmogorov-Smirnov distance of the delay\n"
	"distributions); per task, runtime, switches, wakeups, delays and CPU share.\n"
	"By class of task, from its time on a runqueue (running or waiting) over its\n"
	"life in the recorded run of the trace (the same classes for every run; a\n"
	"workload's runs: in each run): CPU-bound (at least 90 %, present half the\n"
	"span or more)\n"
	"and sleepers (under 50 %), the delays of each class, and Jain's index over\n"
	"comparable tasks: the largest group of CPU-bound tasks of one nice level, of\n"
	"their CPU rates (Jain over every task mixes hogs with kernel threads).\n"
	"Without --run: every run of --trace, or of every trace.\n";

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static double us(double ns)
{
	return ns / 1e3;
}

static void print_class(const struct sl_class_delays *c)
{
	if (c->delays)
		printf("p50 %.1f p95 %.1f p99 %.1f max %.1f", us((double)c->p50_ns), us((double)c->p95_ns),
		       us((double)c->p99_ns), us((double)c->max_ns));
	else
		printf("n/a");
}

static void print_table(const struct sl_run_metrics *m, size_t top)
{
	size_t i, n = top && top < m->ntasks ? top : m->ntasks;
	printf("run %" PRId64 ": trace %" PRId64 ", %s (%s), %d CPU%s, %zu tasks, span %.3f ms, "
	       "runtime %.3f ms, %" PRIu64 " wakeups\n",
	       m->run.id, m->run.trace_id, m->run.scheduler, m->run.mode, m->run.cpus,
	       m->run.cpus == 1 ? "" : "s", m->ntasks,
	       ms(m->span_ns), ms(m->runtime_ns), m->wakeups);
	if (m->ndelays)
		printf("  delay us: mean %.1f p50 %.1f p95 %.1f p99 %.1f max %.1f",
		       us(m->delay_mean_ns), us((double)m->delay_p50_ns), us((double)m->delay_p95_ns),
		       us((double)m->delay_p99_ns), us((double)m->delay_max_ns));
	else /* not 0: there is no delay to measure */
		printf("  delay us: n/a (no wakeup ran)");
	printf("; longest wait %.1f us; Jain %.3f", us((double)m->max_wait_ns), m->jain);
	if (!isnan(m->conservation_max_err_ns))
		printf("; vs recorded: runtime err max %.1f us, delay KS %.3f",
		       us(m->conservation_max_err_ns), m->delay_ks);
	printf("\n  by class: %zu sleepers, delay us ", m->sleepers.tasks);
	print_class(&m->sleepers);
	printf("; %zu CPU-bound, ", m->cpu_bound.tasks);
	print_class(&m->cpu_bound);
	if (!isnan(m->jain_cpu))
		printf("; Jain of %zu CPU-bound nice %d %.3f", m->jain_cpu_tasks,
		       m->jain_cpu_nice, m->jain_cpu);
	else
		printf("; Jain of CPU-bound -");
	if (m->jain_windows) /* analyze/fairwin.h */
		printf("; Jain where tasks compete %.3f (%zu windows of 100 ms)", m->jain_window,
		       m->jain_windows);
	else
		printf("; Jain where tasks compete -");
	if (m->uncertain_ns) /* the recorded run of a file with missed switches or lost events */
		printf("\n  uncertain %.3f ms: around switches missing from the file and lost events "
		       "(UNCERT_MS: time that may or may not be the task's; docs/model.md)",
		       ms(m->uncertain_ns));
	printf("\n  %7s %-16s %4s %11s %8s %7s %10s %10s %10s %10s%s\n", "TID", "COMM", "NICE",
	       "RUNTIME_MS", "SWITCHES", "WAKEUPS", "AVG_DLY_US", "P95_DLY_US", "MAX_DLY_US",
	       "MAX_WAIT_US", m->uncertain_ns ? "  UNCERT_MS" : "");
	for (i = 0; i < n; i++) {
		const struct sl_task_metrics *t = &m->tasks[i];
		printf("  %7d %-16.16s %4d %11.3f %8" PRIu64 " %7" PRIu64 " %10.1f %10.1f %10.1f "
		       "%10.1f",
		       t->tid, t->comm, t->nice, ms(t->runtime_ns), t->switches, t->wakeups,
		       us(t->delay_mean_ns), us((double)t->delay_p95_ns),
		       us((double)t->delay_max_ns), us((double)t->max_wait_ns));
		if (m->uncertain_ns)
			printf(" %11.3f", ms(t->uncertain_ns));
		printf("\n");
	}
	if (n < m->ntasks)
		printf("  ... %zu more tasks (--top 0 shows all)\n", m->ntasks - n);
}

static void print_csv(const struct sl_run_metrics *m, int header)
{
	size_t i;
	if (header)
		printf("run_id,scheduler,utid,tid,comm,nice,runtime_ns,switches,wakeups,"
		       "delay_mean_ns,delay_p50_ns,delay_p95_ns,delay_p99_ns,delay_max_ns,"
		       "max_wait_ns,cpu_share\n");
	for (i = 0; i < m->ntasks; i++) {
		const struct sl_task_metrics *t = &m->tasks[i];
		printf("%" PRId64 ",", m->run.id);
		sl_csv_str(stdout, m->run.scheduler);
		printf(",%" PRId64 ",%d,", t->utid, t->tid);
		sl_csv_str(stdout, t->comm);
		printf(",%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.1f,%" PRIu64 ",%" PRIu64
		       ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6f\n",
		       t->nice, t->runtime_ns, t->switches, t->wakeups, t->delay_mean_ns,
		       t->delay_p50_ns, t->delay_p95_ns, t->delay_p99_ns, t->delay_max_ns,
		       t->max_wait_ns, t->share);
	}
}

/* JSON numbers: counts and ns values whole (uint64 printed as such, never
 * as 8.87787e+09); real values in fixed notation with `dec` decimals
 * (ns means: 3, ratios: 6); NaN as null. */
static void json_u64(const char *key, uint64_t v, int comma)
{
	printf("\"%s\":%" PRIu64 "%s", key, v, comma ? "," : "");
}

static void json_real(const char *key, double v, int dec, int comma)
{
	if (isnan(v) || isinf(v))
		printf("\"%s\":null%s", key, comma ? "," : "");
	else
		printf("\"%s\":%.*f%s", key, dec, v, comma ? "," : "");
}

/* a class's delay quantiles (null without delays), each followed by a comma */
static void json_class(const char *name, const struct sl_class_delays *c)
{
	const char *q[] = { "p50", "p95", "p99", "max" };
	const uint64_t v[] = { c->p50_ns, c->p95_ns, c->p99_ns, c->max_ns };
	size_t i;
	for (i = 0; i < 4; i++)
		if (c->delays)
			printf("\"%s_delay_%s_ns\":%" PRIu64 ",", name, q[i], v[i]);
		else
			printf("\"%s_delay_%s_ns\":null,", name, q[i]);
}

/* the delay quantiles and the longest wait, each followed by a comma */
static void json_delays(uint64_t p50, uint64_t p95, uint64_t p99, uint64_t max, uint64_t max_wait)
{
	json_u64("delay_p50_ns", p50, 1);
	json_u64("delay_p95_ns", p95, 1);
	json_u64("delay_p99_ns", p99, 1);
	json_u64("delay_max_ns", max, 1);
	json_u64("max_wait_ns", max_wait, 1);
}

static void print_json(const struct sl_run_metrics *m, int first)
{
	size_t i;
	printf("%s{\"run_id\":%" PRId64 ",\"trace_id\":%" PRId64 ",\"scheduler\":", first ? "" : ",",
	       m->run.id, m->run.trace_id);
	sl_json_str(stdout, m->run.scheduler);
	printf(",\"mode\":");
	sl_json_str(stdout, m->run.mode);
	printf(",\"cpus\":%d,", m->run.cpus);
	json_u64("span_ns", m->span_ns, 1);
	json_u64("runtime_ns", m->runtime_ns, 1);
	json_u64("wakeups", m->wakeups, 1);
	if (m->ndelays) {
		json_real("delay_mean_ns", m->delay_mean_ns, 3, 1);
		json_delays(m->delay_p50_ns, m->delay_p95_ns, m->delay_p99_ns, m->delay_max_ns, m->max_wait_ns);
	} else { /* no wakeup ran: no delay figures */
		printf("\"delay_mean_ns\":null,\"delay_p50_ns\":null,\"delay_p95_ns\":null,"
		       "\"delay_p99_ns\":null,\"delay_max_ns\":null,");
		json_u64("max_wait_ns", m->max_wait_ns, 1);
	}
	json_real("jain_index", m->jain, 6, 1);
	json_real("jain_cpu_bound", m->jain_cpu, 6, 1);
	json_u64("jain_cpu_bound_tasks", m->jain_cpu_tasks, 1);
	json_real("jain_window", m->jain_window, 6, 1);
	json_u64("jain_windows", m->jain_windows, 1);
	json_u64("sleeper_tasks", m->sleepers.tasks, 1);
	json_class("sleeper", &m->sleepers);
	json_u64("cpu_bound_tasks", m->cpu_bound.tasks, 1);
	json_class("cpu_bound", &m->cpu_bound);
	json_real("conservation_max_err_ns", m->conservation_max_err_ns, 0, 1); /* whole ns */
	json_real("delay_ks_distance", m->delay_ks, 6, 1);
	json_u64("uncertain_ns", m->uncertain_ns, 1);
	printf("\"tasks\":[");
	for (i = 0; i < m->ntasks; i++) {
		const struct sl_task_metrics *t = &m->tasks[i];
		printf("%s{\"utid\":%" PRId64 ",\"tid\":%d,\"comm\":", i ? "," : "", t->utid, t->tid);
		sl_json_str(stdout, t->comm);
		printf(",\"nice\":%d,", t->nice);
		json_u64("runtime_ns", t->runtime_ns, 1);
		json_u64("switches", t->switches, 1);
		json_u64("wakeups", t->wakeups, 1);
		json_real("delay_mean_ns", t->delay_mean_ns, 3, 1);
		json_real("delay_sd_ns", t->delay_sd_ns, 3, 1);
		json_delays(t->delay_p50_ns, t->delay_p95_ns, t->delay_p99_ns, t->delay_max_ns,
			    t->max_wait_ns);
		json_u64("uncertain_ns", t->uncertain_ns, 1);
		json_real("cpu_share", t->share, 6, 0);
		printf("}");
	}
	printf("]}");
}

/* Runs v[0..n) of one trace: their metrics in one pass (analyze/pass.h:
 * as compare and the report take them, against the trace's recorded run,
 * a run read at a time), each stored and printed in order (first: v[0] is
 * the first run printed). 0, or -1 with d set. */
static int analyze_runs(struct sl_store *st, const int64_t *v, size_t n, int first, int fmt,
			size_t top, struct sl_diag *d)
{
	struct sl_run_metrics *m = xcalloc(n, sizeof(*m));
	size_t k;
	int rc = -1;
	if (sl_runs_metrics(st, v, n, m, d))
		goto out;
	for (k = 0; k < n; k++) {
		if (sl_store_begin(st, d) || sl_metrics_store(st, &m[k], d) || sl_store_commit(st, d)) {
			sl_store_rollback(st);
			goto out;
		}
		if (fmt == SL_FMT_TABLE) {
			if (!first || k)
				printf("\n");
			print_table(&m[k], top);
		} else if (fmt == SL_FMT_CSV) {
			print_csv(&m[k], first && !k);
		} else {
			print_json(&m[k], first && !k);
		}
	}
	rc = 0;
out:
	for (k = 0; k < n; k++)
		sl_run_metrics_release(&m[k]);
	free(m);
	return rc;
}

int cmd_analyze(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_store *st = NULL;
	struct sl_idlist ids = { 0 };
	int64_t trace = 0;
	size_t i, j;
	long long top = 20;
	int fmt = SL_FMT_TABLE;
	int rc;
	const struct sl_opt opts[] = {
		SL_OPT_IDS(0, "run", &ids, "a run (repeat, or 1,2,3)"),
		SL_OPT_ID(0, "trace", &trace, "every run of this trace"),
		SL_OPT_INT(0, "top", &top, 0, 1000000000, "N", "the N busiest tasks of each run in the table; 0: all"),
		SL_OPT_CHOICE(0, "format", &fmt, sl_format_choices, "the output:"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "analyze", synopsis, about, opts, 0, NULL };

	if ((rc = sl_opts_parse(&spec, argc, argv, NULL)) != SL_OPTS_GO)
		return rc;
	rc = 1;
	if (sl_store_open(g->db, 0, &st, &d))
		goto out;
	if (!ids.n) {
		free(ids.v);
		ids.v = NULL;
		if (sl_store_list_runs(st, trace, &ids.v, &ids.n, &d))
			goto out;
		if (!ids.n) {
			sl_fail(&d, "%s: no runs%s", g->db, trace ? " of that trace" : "");
			goto out;
		}
	}
	if (fmt == SL_FMT_JSON)
		printf("[");
	for (i = 0; i < ids.n; i = j) {
		/* the next runs of one trace, read in one pass */
		struct sl_run_info ri, rj;
		struct sl_diag dj;
		if (sl_store_get_run(st, ids.v[i], &ri, &d))
			goto out;
		for (j = i + 1; j < ids.n && !sl_store_get_run(st, ids.v[j], &rj, &dj) &&
				rj.trace_id == ri.trace_id;
		     j++)
			;
		if (analyze_runs(st, &ids.v[i], j - i, i == 0, fmt, (size_t)top, &d))
			goto out;
	}
	if (fmt == SL_FMT_JSON)
		printf("]\n");
	rc = 0;
out:
	if (rc)
		sl_err("%s", d.msg);
	free(ids.v);
	sl_store_close(st);
	return rc;
}
