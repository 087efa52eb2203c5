/* plots/plot.h - charts of runs, the HTML report and the JSON export.
 *
 * Charts read the store (rows only: nothing is interpolated) and write one
 * file whose format comes from its extension (.png, .svg, .pdf). The
 * staircase and the timeline are drawn with cairo; the latency CDF, the
 * histogram, the share and the compare charts are gnuplot scripts run over
 * data files written here (kept next to the output with keep = 1:
 * OUT.gp and OUT.*.dat; else in a temporary folder that is removed).
 * Every function returns 0, or -1 with d->msg set; none prints. */
#ifndef SL_PLOT_H
#define SL_PLOT_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "../common/util.h"
#include "../analyze/store.h"

enum sl_plot_fmt { SL_PLOT_PNG, SL_PLOT_SVG, SL_PLOT_PDF };

/* The format named by path's extension (case-insensitive). */
int sl_plot_fmt_of(const char *path, enum sl_plot_fmt *fmt, struct sl_diag *d);

struct sl_plot_opts {
	const int64_t *runs;  /* runs to draw, in this order (all of one trace) */
	size_t nruns;
	int task_tid;         /* staircase: this tid only (0: the busiest tasks) */
	int top;              /* staircase/share/timeline: how many tasks (0: default) */
	uint64_t from, to;    /* window, ns after the trace's first_ts (to 0: the end) */
	int keep;             /* gnuplot charts: keep OUT.gp and OUT.*.dat */
	const char *param;    /* sweep: the params key on x (NULL: rr_interval_ns) */
	const char *metric;   /* sweep: p50, p95, p99 (NULL), max, mean, wait, jain, share:COMM */
};

/* One chart kind: an ops table entry (see sl_plot_kinds). */
struct sl_plot_kind {
	const char *name;
	const char *what;
	int (*draw)(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		    struct sl_diag *d);
};

/* The kinds, NULL-terminated by name. */
extern const struct sl_plot_kind sl_plot_kinds[];
/* The kind called name, or NULL. */
const struct sl_plot_kind *sl_plot_kind_find(const char *name);

int sl_plot_staircase(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		      struct sl_diag *d);
int sl_plot_timeline(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		     struct sl_diag *d);
int sl_plot_sweep(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		  struct sl_diag *d);
int sl_plot_latency(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		    struct sl_diag *d);
int sl_plot_histogram(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		      struct sl_diag *d);
int sl_plot_share(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		  struct sl_diag *d);
int sl_plot_compare(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		    struct sl_diag *d);

/* --- chart data (plot_data.c), unit-tested --- */

/* One step of an empirical CDF: cum of the n delays are <= delay_ns. */
struct sl_cdf_point {
	uint64_t delay_ns;
	uint64_t cum;
};
/* The distinct values of sorted[0..n) each with its cumulative count.
 * Returns the number of points; *pts is malloc'd (NULL when n == 0), the
 * caller frees it. */
size_t sl_cdf_points(const uint64_t *sorted, size_t n, struct sl_cdf_point **pts);

/* Histogram bin edges 0, 1 us, 2 us, 5 us, 10 us, 20 us, ... up to the first
 * edge above max_ns. Returns the number of bins (edges is bins + 1 long,
 * malloc'd, the caller frees it). Bin i is [edges[i], edges[i+1]). */
size_t sl_hist_edges(uint64_t max_ns, uint64_t **edges);
/* counts[i] = how many of sorted[0..n) fall in bin i. */
void sl_hist_count(const uint64_t *sorted, size_t n, const uint64_t *edges, size_t nbins,
		   uint64_t *counts);

/* "1 ms", "20 us", "500 ns": a short label for a bin edge in ns. */
void sl_fmt_ns_short(char *buf, size_t len, uint64_t ns);

/* A tick step (1, 2 or 5 times a power of ten) that cuts span into at most
 * about want pieces. span > 0. */
double sl_nice_step(double span, int want);

/* --- report and export (report.c, export.c) --- */

/* Write DIR/index.html (self-contained: charts embedded as base64 PNG) and
 * the charts as PNG files in DIR for every run of trace_id (0: the newest trace). */
int sl_report_write(struct sl_store *s, int64_t trace_id, const char *dir, struct sl_diag *d);

/* Write runs as a Chrome/Perfetto JSON trace to path. */
/* (runs: one or more runs of one trace, in one file; several: each run's
 * thread groups get pids run index * 10000000 + tgid and process names
 * "run N sched: comm") */
int sl_export_chrome(struct sl_store *s, const int64_t *runs, size_t nruns, const char *path,
		     struct sl_diag *d);

/* --- claims (claims_chart.c) --- */
struct sl_claim;
/* The chart behind claim c's verdict into out (format by extension). */
int sl_plot_claim(const struct sl_claim *c, const char *out, struct sl_diag *d);
/* The claims page: a summary table, then per claim its figures, its
 * verdict with the reason and its chart claim-ID.png (on[m]: model m run).
 * Returns 0 or -1 (write error). */
int sl_claims_html(FILE *f, const struct sl_claim *c, size_t n, const int *on);

/* Write s HTML-escaped (& < > " ') to f. */
void sl_html_str(FILE *f, const char *s);
/* Write the n bytes of buf to f as base64. */
void sl_base64_write(FILE *f, const unsigned char *buf, size_t n);

#endif
