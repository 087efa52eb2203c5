/* plots/report.c - one self-contained HTML page for a trace: its summary,
 * the metrics of every run, the compare table and every chart (written as
 * PNG files beside the page and embedded in it as base64 data: URIs).
 * Every string from the database is HTML-escaped. */
#include "plot_int.h"
#include "../analyze/completeness.h"
#include "../analyze/metrics.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static void esc(FILE *f, const char *s)
{
	sl_html_str(f, s);
}

static void num(FILE *f, double v, int decimals)
{
	if (isnan(v))
		fputs("<td>-</td>", f);
	else
		fprintf(f, "<td>%.*f</td>", decimals, v);
}

/* Embed the file at path as an <img>; on failure say so in the page. */
static void embed_png(FILE *f, const char *path, const char *alt)
{
	FILE *in = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0, got;
	if (!in) {
		fprintf(f, "<p class=err>chart missing: ");
		esc(f, alt);
		fputs("</p>\n", f);
		return;
	}
	for (;;) {
		SL_GROW(buf, cap, n + 65536);
		got = fread(buf + n, 1, cap - n, in);
		n += got;
		if (got == 0)
			break;
	}
	fclose(in);
	fputs("<img alt=\"", f);
	esc(f, alt);
	fputs("\" src=\"data:image/png;base64,", f);
	sl_base64_write(f, buf, n);
	fputs("\">\n", f);
	free(buf);
}

struct chart {
	const char *file, *title;
	void (*make)(struct sl_chart *c);
	int zoom;
	const char *caption; /* what the chart shows and how to read it */
};

static const struct chart charts[] = {
	{ "compare.png", "Key metrics side by side", sl_chart_compare, 0,
	  "One bar per run, the recorded run first. A delay runs from a task's wakeup to its first "
	  "run after it; the longest runnable wait is the longest a task stayed on a runqueue without "
	  "running; the KS distance compares a replay's delays with the recording's (0: the same "
	  "distribution, 1: disjoint). Each panel's title names its unit." },
	{ "latency.png", "Scheduling delay: cumulative distribution", sl_chart_latency, 0,
	  "For each run, the fraction of wakeups (y) whose delay was at most x, on a log scale; a "
	  "curve further up and to the left is better, and where it reaches 1 is the worst delay. "
	  "Delays of 0 are drawn at the left edge. Below, the tail: the fraction of wakeups whose "
	  "delay was greater than x (1 - CDF) on a log scale, where the worst 1 % and 0.1 % show." },
	{ "histogram.png", "Scheduling delay: histogram", sl_chart_histogram, 0,
	  "How many wakeups waited how long, per run, in 1-2-5 bins (1 us, 2 us, 5 us, 10 us...; counts on a log "
	  "scale): the tail on the right is what users feel as stalls." },
	{ "share.png", "CPU share by task and by nice level", sl_chart_share, 0,
	  "Each task's CPU time as a share of one window (named in the title, the same for every "
	  "run) times the CPUs; below, the same summed by nice level. A replay gives every task its "
	  "recorded CPU time, so a difference here is in when the work ran, not how much." },
	{ "staircase.png",
	  "Dynamic priority levels (staircase; CFS: vruntime - min_vruntime) of the featured tasks",
	  sl_chart_staircase, 0,
	  "The busiest tasks and the most often woken ones, each in its timeline colour. RSDL and SD: "
	  "the level (0 best, 39 worst) a task is queued at, drawn while it is runnable or running "
	  "(a gap: it slept), dashed in the expired array; ticks on top are rotations (red: major). "
	  "o1: its dynamic priority minus 100. CFS: vruntime - min_vruntime. Under each panel, when "
	  "each task ran. A recorded run has no model levels." },
	{ "timeline.png", "Per-CPU timeline", sl_chart_timeline, 0,
	  "Which task ran on each CPU, and when: the featured tasks in their colours, the rest grey; "
	  "a triangle over a row is a wakeup, a red bar the end of a preempted slice, a black line "
	  "ending in a dot a move to that CPU (on more than 8 CPUs, a stub of one row towards the "
	  "CPU it came from). Every run is drawn on the same time axis: whole, or, when that would be "
	  "stripes, one readable window (the title says which)." },
	{ "timeline-zoom.png", "Per-CPU timeline, the first 100 ms", sl_chart_timeline, 1,
	  "The same chart for the first 100 ms of every run, on one time axis for all: close enough "
	  "to tell single slices and wakeups apart." },
};

struct mrow {
	const char *name;
	int decimals;
	double (*get)(const struct sl_run_metrics *m);
};
static double g_span(const struct sl_run_metrics *m) { return (double)m->span_ns / 1e6; }
static double g_rt(const struct sl_run_metrics *m) { return (double)m->runtime_ns / 1e6; }
static double g_tasks(const struct sl_run_metrics *m) { return (double)m->ntasks; }
static double g_wk(const struct sl_run_metrics *m) { return (double)m->wakeups; }
/* no wakeup ran: the delays are n/a, not 0 */
#define DL(m, v) ((m)->ndelays ? (double)(v) / 1e3 : NAN)
static double g_mean(const struct sl_run_metrics *m) { return DL(m, m->delay_mean_ns); }
static double g_p50(const struct sl_run_metrics *m) { return DL(m, m->delay_p50_ns); }
static double g_p95(const struct sl_run_metrics *m) { return DL(m, m->delay_p95_ns); }
static double g_p99(const struct sl_run_metrics *m) { return DL(m, m->delay_p99_ns); }
static double g_max(const struct sl_run_metrics *m) { return DL(m, m->delay_max_ns); }
static double g_wait(const struct sl_run_metrics *m) { return (double)m->max_wait_ns / 1e3; }
static double g_jain(const struct sl_run_metrics *m) { return m->jain_window; }
static double g_cons(const struct sl_run_metrics *m) { return m->conservation_max_err_ns / 1e3; }
static double g_ks(const struct sl_run_metrics *m) { return m->delay_ks; }

static const struct mrow mrows[] = {
	{ "span (ms)", 3, g_span },
	{ "CPU time of all tasks (ms)", 3, g_rt },
	{ "tasks", 0, g_tasks },
	{ "wakeups", 0, g_wk },
	{ "delay mean (us)", 1, g_mean },
	{ "delay p50 (us)", 1, g_p50 },
	{ "delay p95 (us)", 1, g_p95 },
	{ "delay p99 (us)", 1, g_p99 },
	{ "delay max (us)", 1, g_max },
	{ "longest runnable wait (us)", 1, g_wait },
	{ "Jain index where tasks compete (100 ms windows)", 4, g_jain },
	{ "runtime error vs recorded, max (us)", 1, g_cons },
	{ "delay KS distance vs recorded", 4, g_ks },
};

static void run_section(FILE *f, const struct sl_run_metrics *m, const char *params)
{
	size_t i, n = m->ntasks < 20 ? m->ntasks : 20;
	fprintf(f, "<h3 id=\"run%" PRId64 "\">run %" PRId64 ": ", m->run.id, m->run.id);
	esc(f, m->run.scheduler);
	fputs(" (", f);
	esc(f, m->run.mode);
	if (params && strstr(params, "\"origin\":\"validate\""))
		fputs(", validate", f);   /* validate's replay (issue 22) */
	fprintf(f, "), %d CPU%s</h3>\n<p class=params>params: <code>", m->run.cpus,
		m->run.cpus == 1 ? "" : "s");
	esc(f, params);
	fputs("</code></p>\n<table><tr><th>tid</th><th>comm</th><th>nice</th><th>runtime ms</th>"
	      "<th>switches</th><th>wakeups</th><th>delay mean us</th><th>p95 us</th>"
	      "<th>max us</th><th>longest wait us</th><th>CPU share %</th></tr>\n",
	      f);
	for (i = 0; i < m->ntasks; i++) {
		const struct sl_task_metrics *t = &m->tasks[i];
		/* past the busiest, the task with the longest wait (a starved
		 * task has no runtime to rank it) */
		if (i >= n && !(m->max_wait_ns && t->max_wait_ns == m->max_wait_ns))
			continue;
		fprintf(f, "<tr><td>%d</td><td class=l>", t->tid);
		esc(f, t->comm);
		fprintf(f, "</td><td>%d</td><td>%.3f</td><td>%" PRIu64 "</td><td>%" PRIu64
			   "</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.2f</td></tr>\n",
			t->nice, (double)t->runtime_ns / 1e6, t->switches, t->wakeups,
			t->delay_mean_ns / 1e3, (double)t->delay_p95_ns / 1e3,
			(double)t->delay_max_ns / 1e3, (double)t->max_wait_ns / 1e3, t->share * 100);
	}
	fputs("</table>\n", f);
	if (n < m->ntasks)
		fprintf(f, "<p class=note>the %zu busiest of %zu tasks, and the one with the longest wait</p>\n",
			n, m->ntasks);
}

/* What the replays did with the late CPUs (docs/replay.md "CPUs that
 * were offline"): their params' late_cpus_mode; a run without one (made
 * before the engine kept them offline, or with --late-cpus online) used
 * every CPU from 0. */
static void late_note(FILE *f, const struct sl_run_metrics *m, size_t n)
{
	size_t i, off = 0, on = 0;
	int k;
	for (i = 0; i < n; i++)
		if (strcmp(m[i].run.scheduler, "recorded")) {
			if (strstr(m[i].run.params, "\"late_cpus_mode\":\"offline\""))
				off++;
			else
				on++;
		}
	if (!on || !off) {
		fputs(off ? " (every replay keeps it offline until then)" : " (the replays use it from 0)", f);
		return;
	}
	for (k = 0; k < 2; k++) {
		size_t j = 0;
		fputs(k ? "; used from 0 in" : " (kept offline until then in", f);
		for (i = 0; i < n; i++)
			if (strcmp(m[i].run.scheduler, "recorded") &&
			    (strstr(m[i].run.params, "\"late_cpus_mode\":\"offline\"") == NULL) == k)
				fprintf(f, "%s run %" PRId64, j++ ? "," : "", m[i].run.id);
	}
	fputs(")", f);
}

/* What the trace lacks and what the replays assumed (issue 25): the
 * recording kernel's release, the HZ of the replays (a trace does not
 * record its kernel's HZ), the switches the importer placed and the time
 * around them that may or may not be each task's (docs/model.md). */
static void completeness_rows(FILE *f, const struct sl_trace_info *ti, const struct sl_run_metrics *m,
			      size_t n, const struct sl_late_cpu *late, size_t nlate)
{
	size_t i;
	int hz_seen = 0;
	fputs("<tr><th class=l>kernel release</th><td class=l>", f);
	esc(f, ti->kernel_release[0] ? ti->kernel_release : "not in the file");
	fputs("</td></tr>\n<tr><th class=l>HZ</th><td class=l>not in the file; replays:", f);
	for (i = 0; i < n; i++) {
		const char *h = strstr(m[i].run.params, "\"hz\":");
		if (!h)
			continue;
		fprintf(f, "%s run %" PRId64 " %ld", hz_seen ? "," : "", m[i].run.id, strtol(h + 5, NULL, 10));
		hz_seen = 1;
	}
	fprintf(f, "%s</td></tr>\n<tr><th class=l>missed switches</th><td class=l>%" PRIu64 "</td></tr>\n",
		hz_seen ? "" : " none", ti->missed_switches);
	/* the kernel's own accounting (docs/ledger.md) */
	fputs("<tr><th class=l>ledger</th><td class=l>", f);
	if (!ti->ledger[0] || isnan(ti->completeness_cpu))
		fputs("none (the trace was not held to the kernel's per-thread accounting)", f);
	else {
		/* complete by the kernel's own charges where the trace has them */
		int by_work;
		double share = sl_trace_complete_share(ti, &by_work);
		fprintf(f, "the trace accounts for %.1f %% of the kernel's CPU time and %.1f %% of its "
			   "run_delay",
			100 * ti->completeness_cpu, 100 * ti->completeness_wait);
		if (by_work)
			fprintf(f, "; its charges (sched_stat_runtime) for %.1f %%", 100 * share);
		fputs(share < SL_LEDGER_COMPLETE ? ": incomplete (under 98 %)" : "", f);
	}
	fputs("</td></tr>\n", f);
	for (i = 0; i < nlate; i++) {
		fprintf(f, "<tr><th class=l>CPU %d</th><td class=l>", late[i].cpu);
		if (late[i].first_ns == UINT64_MAX)
			fputs("no event in the recording: likely offline", f);
		else
			fprintf(f, "no event until %.3f s: likely offline until then", (double)late[i].first_ns / 1e9);
		late_note(f, m, n);
		fputs("</td></tr>\n", f);
	}
	for (i = 0; i < n; i++)
		if (!strcmp(m[i].run.scheduler, "recorded"))
			fprintf(f, "<tr><th class=l>uncertain time</th><td class=l>%.3f ms in run %" PRId64
				   " (time around missed switches and lost events that may or may not be "
				   "each task's, summed over tasks)</td></tr>\n",
				(double)m[i].uncertain_ns / 1e6, m[i].run.id);
}

static const char css[] =
	"body{font-family:sans-serif;margin:2em;max-width:1250px;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0 1.5em}"
	"td,th{border:1px solid #ccc;padding:2px 8px;text-align:right;font-size:13px}"
	"td.l,th.l{text-align:left}th{background:#f0f0f0}"
	"img{max-width:100%;border:1px solid #eee;margin:.3em 0 1.5em}"
	".err{color:#a00}.note,.params{color:#666;font-size:13px}.caption{max-width:1100px;color:#333;font-size:14px}code{word-break:break-all}";

/* A figure built on uncertain time says so (issue 25): a run's longest
 * wait that belongs to a task with uncertain time. */
static void uncertain_notes(FILE *f, const struct sl_run_metrics *m, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		const struct sl_task_metrics *t = sl_uncertain_longest_wait(&m[i]);
		if (!t)
			continue;
		fprintf(f, "<p class=note>Run %" PRId64 "'s longest runnable wait (%.1f ms) is that of %d ",
			m[i].run.id, (double)t->max_wait_ns / 1e6, t->tid);
		esc(f, t->comm);
		fprintf(f, ", which has %.3f ms of uncertain time (around switches missing from the file): "
			   "it may not be a wait.</p>\n",
			(double)t->uncertain_ns / 1e6);
	}
	/* a recorded run's wakeups that never ran: the replays cannot have
	 * most of them (docs/replay.md "Wakeup counts: recorded and
	 * replayed"), so the counts differ by design */
	for (i = 0; i < n; i++)
		if (!strcmp(m[i].run.scheduler, "recorded") && m[i].wakeups > m[i].ndelays)
			fprintf(f, "<p class=note>Run %" PRId64 " has %" PRIu64 " wakeups of which %zu ran; the "
				   "%" PRIu64 " others are mostly wakings of a task that ran and slept where the "
				   "file does not show it (switches missing from it), which a replay cannot have: "
				   "a replay's wakeups are the sleeps and starts of the behaviour "
				   "(docs/replay.md, \"Wakeup counts\").</p>\n",
				m[i].run.id, m[i].wakeups, m[i].ndelays, m[i].wakeups - (uint64_t)m[i].ndelays);
}

/* The page's head and the trace's table. */
static void write_head(FILE *f, int64_t trace_id, const struct sl_trace_info *ti, const struct sl_run_metrics *m,
		       size_t n, const struct sl_late_cpu *late, size_t nlate)
{
	size_t i;
	fprintf(f, "<!DOCTYPE html>\n<html lang=en><head><meta charset=\"utf-8\">\n"
		   "<title>schedlab report: trace %" PRId64 "</title>\n<style>%s</style></head><body>\n",
		trace_id, css);
	fprintf(f, "<h1>schedlab report: trace %" PRId64 "</h1>\n<table>\n"
		   "<tr><th class=l>file</th><td class=l>",
		trace_id);
	esc(f, ti->path);
	fputs("</td></tr>\n<tr><th class=l>format</th><td class=l>", f);
	esc(f, ti->format);
	fputs("</td></tr>\n<tr><th class=l>sha256</th><td class=l><code>", f);
	esc(f, ti->sha256);
	fprintf(f, "</code></td></tr>\n<tr><th class=l>CPUs</th><td class=l>%d</td></tr>\n"
		   "<tr><th class=l>span</th><td class=l>%.6f s</td></tr>\n"
		   "<tr><th class=l>events</th><td class=l>%" PRIu64 " (%" PRIu64 " lost)</td></tr>\n"
		   "<tr><th class=l>runs</th><td class=l>",
		ti->cpus, (double)(ti->last_ts - ti->first_ts) / 1e9, ti->events, ti->lost_events);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s<a href=\"#run%" PRId64 "\">run %" PRId64 " ", i ? ", " : "", m[i].run.id,
			m[i].run.id);
		esc(f, m[i].run.scheduler);
		fputs("</a>", f);
	}
	fputs("</td></tr>\n", f);
	completeness_rows(f, ti, m, n, late, nlate);
	fputs("</table>\n", f);
}

/* The Compare table: each run's figures and its difference to the first. */
static void write_compare(FILE *f, const struct sl_run_metrics *m, size_t n)
{
	size_t i, k;
	fputs("<h2>Compare</h2>\n<p class=note>Each run's figures; diff = run minus the first "
	      "run.</p>\n<table><tr><th class=l>metric</th>", f);
	for (i = 0; i < n; i++) {
		fprintf(f, "<th>run %" PRId64 " ", m[i].run.id);
		esc(f, m[i].run.scheduler);
		fputs("</th>", f);
		if (i)
			fputs("<th>diff</th>", f);
	}
	fputs("</tr>\n", f);
	for (k = 0; k < SL_ARRAY_SIZE(mrows); k++) {
		double base = mrows[k].get(&m[0]);
		fprintf(f, "<tr><td class=l>%s</td>", mrows[k].name);
		for (i = 0; i < n; i++) {
			double v = mrows[k].get(&m[i]);
			num(f, v, mrows[k].decimals);
			if (i)
				num(f, v - base, mrows[k].decimals);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* Is chart k left out of a trace of this span (a zoom of a short trace)? */
static int chart_skipped(size_t k, const struct sl_trace_info *ti)
{
	return charts[k].zoom && ti->last_ts - ti->first_ts <= 200 * SL_NS_PER_MS;
}

/* The charts: each drawn one embedded with its caption, a failed one's
 * message (also warned). */
static void write_charts(FILE *f, const struct sl_chart *cs, const struct sl_trace_info *ti, struct sl_diag *d)
{
	size_t k, i;
	fputs("<h2>Charts</h2>\n", f);
	for (k = 0, i = 0; k < SL_ARRAY_SIZE(charts); k++) {
		const struct sl_chart *c;
		if (chart_skipped(k, ti))
			continue;
		c = &cs[i++];
		fprintf(f, "<h3>%s</h3>\n", charts[k].title);
		if (c->pc.failed) {
			fputs("<p class=err>chart failed: ", f);
			esc(f, c->pc.diag.msg);
			fputs("</p>\n", f);
			sl_warn(d, "%s", c->pc.diag.msg);
			continue;
		}
		embed_png(f, c->out, charts[k].title);
		fputs("<p class=caption>", f);
		esc(f, charts[k].caption);
		fputs("</p>\n", f);
	}
}

/* The 2007 claims: their page, when `schedlab claims -o` wrote one beside
 * this report (the README tour's out/claims and out/report). */
static void write_claims(FILE *f, const char *dir, int64_t trace_id)
{
	char path[1200];
	fputs("<h2>The 2007 claims</h2>\n<p class=caption>", f);
	snprintf(path, sizeof(path), "%s/../claims/index.html", dir);
	if (access(path, R_OK) == 0)
		fputs("<a href=\"../claims/index.html\">The claims of the RSDL announcement and thread</a>, "
		      "re-run on scenarios and real traces through every model: published, predicted and "
		      "measured figures, a verdict and a chart for each. ", f);
	fprintf(f, "<code>schedlab claims -o DIR</code> writes that page; <code>schedlab claims --trace "
		   "%" PRId64 "</code> runs the trace-driven claims on this trace.</p>\n", trace_id);
}

/* index.html in dir, written to a temporary file and renamed into place
 * when whole. */
static int write_page(struct sl_store *s, int64_t trace_id, const char *dir, const struct sl_trace_info *ti,
		      const int64_t *runs, const struct sl_run_metrics *m, size_t n, const struct sl_chart *cs,
		      const struct sl_late_cpu *late, size_t nlate, struct sl_diag *d)
{
	char path[1200], tmp[1200] = "";
	FILE *f = NULL;
	size_t i;
	int fd, rc = -1;
	snprintf(path, sizeof(path), "%s/index.html", dir);
	fd = sl_out_begin(path, tmp, sizeof(tmp), d);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		sl_fail(d, "%s: %s", path, strerror(errno));
		goto out;
	}
	write_head(f, trace_id, ti, m, n, late, nlate);
	write_compare(f, m, n);
	uncertain_notes(f, m, n);
	write_charts(f, cs, ti, d);
	write_claims(f, dir, trace_id);
	fputs("<h2>Runs</h2>\n", f);
	for (i = 0; i < n; i++) {
		struct sl_run_info ri;
		if (sl_store_get_run(s, runs[i], &ri, d))
			goto out;
		run_section(f, &m[i], ri.params);
	}
	fputs("<p class=note>Written by schedlab report. Times are from the trace's database rows; "
	      "delay = first run after a wakeup minus the wakeup.</p>\n</body></html>\n", f);
	errno = 0;
	if (ferror(f) | fclose(f)) {
		const char *why = sl_out_why(path, errno);
		f = NULL;
		sl_fail(d, "%s: %s", path, why ? why : "write error");
		goto out;
	}
	f = NULL;
	rc = sl_out_commit(tmp, path, d);
	tmp[0] = 0;
out:
	if (f)
		fclose(f);
	if (tmp[0]) /* the page not finished: nothing of it is left */
		remove(tmp);
	return rc;
}

int sl_report_write(struct sl_store *s, int64_t trace_id, const char *dir, struct sl_diag *d)
{
	struct sl_trace_info ti;
	struct sl_plot_opts o;
	struct sl_run_metrics *m = NULL;
	struct sl_chart cs[SL_ARRAY_SIZE(charts)];
	struct sl_late_cpu *late = NULL;
	int64_t *runs = NULL;
	size_t n = 0, i, k, nc = 0, nlate = 0;
	int rc = -1;

	if (!trace_id && sl_store_latest_trace(s, &trace_id, d))
		return -1;
	if (!trace_id)
		return sl_fail(d, "the database has no trace");
	if (sl_store_get_trace(s, trace_id, &ti, d) || sl_store_list_runs(s, trace_id, &runs, &n, d))
		goto out;
	if (!n) {
		sl_fail(d, "trace %" PRId64 " has no runs", trace_id);
		goto out;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		sl_fail(d, "%s: %s", dir, strerror(errno));
		goto out;
	}
	if (sl_store_late_cpus(s, trace_id, &late, &nlate, d))
		goto out;
	/* the metrics (as analyze computes them, fidelity against the recorded
	 * run) and the charts (files in dir), in one pass over the runs: each
	 * run is read once, one at a time */
	memset(&o, 0, sizeof(o));
	o.runs = runs;
	o.nruns = n;
	memset(cs, 0, sizeof(cs));
	for (k = 0; k < SL_ARRAY_SIZE(charts); k++) {
		if (chart_skipped(k, &ti))
			continue;
		cs[nc].o = o;
		cs[nc].o.to = charts[k].zoom ? 100 * SL_NS_PER_MS : 0;
		snprintf(cs[nc].pc.diag.msg, sizeof(cs[nc].pc.diag.msg), "%s/%s", dir, charts[k].file);
		cs[nc].out = xstrdup(cs[nc].pc.diag.msg);
		charts[k].make(&cs[nc]);
		nc++;
	}
	m = xcalloc(n, sizeof(*m));
	if (sl_charts_run(s, &o, cs, nc, m, d))
		goto out;
	rc = write_page(s, trace_id, dir, &ti, runs, m, n, cs, late, nlate, d);
out:
	for (k = 0; k < nc; k++)
		free((char *)cs[k].out);
	for (i = 0; m && i < n; i++)
		sl_run_metrics_release(&m[i]);
	free(m);
	free(runs);
	free(late);
	return rc;
}
