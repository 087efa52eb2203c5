/* plots/plot_int.h - helpers shared by the chart files (not exported). */
#ifndef SL_PLOT_INT_H
#define SL_PLOT_INT_H

#include "plot.h"
#include <stdio.h>

/* How many tasks a chart features in colour (sl_pruns_featured). */
#define SL_NFEATURED 12

/* A loaded run with what a chart needs around it. In a pass over the runs
 * (sl_charts_run) r holds the run's info and threads throughout, and its
 * wakeups or its slices only while the chart is handed them. */
struct sl_prun {
	struct sl_run_data r;
	char title[128];   /* "run 2: rsdl (timed)" */
	uint64_t t0;       /* the trace's first_ts: charts put time 0 there */
	uint64_t end;      /* last slice end (absolute ns), t0 if none */
	/* the pre-pass of sl_charts_run (SL_NEED_PRE) */
	uint64_t first_ts;  /* first slice start (absolute), UINT64_MAX if none */
	uint64_t first_rel; /* the least ts - t0 (unsigned) of its slices, UINT64_MAX if none */
	/* (SL_NEED_STAIRS) staircase rows: how many, and whose (a byte per
	 * thread of r); when none, the vlag rows' (lag = 1 if any) */
	size_t stair_rows;
	int lag;
	unsigned char *has_rows;
	/* vlag rows in the staircase's window (from its --from to its --to or
	 * the runs' last end): per thread, whether any, their least and
	 * greatest lag */
	unsigned char *lag_in;
	int64_t *lag_lo, *lag_hi;
};
struct sl_pruns {
	struct sl_prun *v;
	size_t n;
	struct sl_trace_info trace;
	char trace_title[160]; /* "trace 1: file.dat (perfdata, 1 CPU)" (sanitised) */
	int64_t featured[SL_NFEATURED]; /* sl_pruns_featured(), set by sl_pruns_load */
	size_t nfeatured;
};
/* The tasks a chart of these runs features, in colour order: alternately
 * the busiest (CPU time summed over the runs) and the most often put to
 * sleep (slices ending in S or D: the interactive ones), no task twice, up
 * to want. Every chart of a report loads the same runs, so a task keeps its
 * colour (its index here) in all of them; the rest are grey. */
size_t sl_pruns_featured(const struct sl_pruns *p, int64_t *utids, size_t want);
/* The same in parts: add a slice of any run to the sums (rt, sleeps: a
 * value per thread of r0), then pick from the sums. */
void sl_featured_add(const struct sl_run_data *r0, const struct sl_slice_row *sl, uint64_t *rt,
		     uint64_t *sleeps);
size_t sl_featured_pick(const struct sl_run_data *r0, const uint64_t *rt, const uint64_t *sleeps,
			int64_t *utids, size_t want);
/* The colour index of utid (its place in p->featured), or -1 (grey). */
int sl_pruns_color(const struct sl_pruns *p, int64_t utid);
/* p->v[i]'s title ("run ID: MODEL (MODE)"); -1 (d) when its trace is not
 * p->v[0]'s (a chart's runs are of one trace). */
int sl_pruns_label_run(struct sl_pruns *p, size_t i, struct sl_diag *d);
/* p->trace from the store (p->v[0]'s trace) and p->trace_title. */
int sl_pruns_label_trace(struct sl_store *s, struct sl_pruns *p, struct sl_diag *d);
/* Load o->runs (must all be of one trace), with the rows parts names
 * (SL_LOAD_*). Release with sl_pruns_release. */
int sl_pruns_load(struct sl_store *s, const struct sl_plot_opts *o, int parts, struct sl_pruns *p,
		  struct sl_diag *d);
void sl_pruns_release(struct sl_pruns *p);
/* Free what sl_charts_run's pass put in p (its own runs' rows). */
void sl_pruns_release_pass(struct sl_pruns *p);
/* Copy s into dst keeping only printable ASCII other than the double
 * quote (replaced by '?'): for text drawn with cairo and the label columns
 * of gnuplot data files (tab-separated; a double quote there would start
 * a quoted field). Not for a gnuplot script: that is sl_gp_str. */
void sl_label_clean(char *dst, size_t len, const char *s);

/* A chart or page is written under a temporary name beside its path and
 * renamed when whole, so a failure (a full disk) leaves no partial file.
 * sl_out_begin makes PATH.tmp-XXXXXX (its name in tmp) and returns its fd,
 * or -1 with d set. sl_out_commit renames it to path (or removes it and
 * fails). sl_out_why: why writing path failed, from err (an errno) or,
 * when 0, "No space left on device" if its file system is full; NULL if
 * nothing can be said. */
int sl_out_begin(const char *path, char *tmp, size_t len, struct sl_diag *d);
int sl_out_commit(const char *tmp, const char *path, struct sl_diag *d);
const char *sl_out_why(const char *path, int err);
/* Runtime of each thread of r (indexed like r->threads), malloc'd. */
uint64_t *sl_prun_runtimes(const struct sl_run_data *r);

/* A chart drawn in one pass over its runs, a run at a time (sl_charts_run):
 * begin once the runs' info (and the pre-pass's) is known, then for each
 * run in order its wakeups (in chunks, not sorted, then the sorted delays),
 * its slices (all of them, sorted as sl_store_load_run sorts them) and its
 * metrics, then end. Any callback may be NULL. A chart's rows of a run are
 * only valid during the call that hands them. */
struct sl_run_metrics;
enum {
	SL_NEED_WAKEUPS = 1, /* wakeup_rows(), wakeups(): the run's wakeups */
	SL_NEED_SLICES = 2,  /* slices(): the run's slices */
	SL_NEED_METRICS = 4, /* metrics(): sl_metrics_compute's, against the recorded run */
	SL_NEED_PRE = 8,     /* before begin: first_ts, first_rel, end, the featured tasks */
	SL_NEED_STAIRS = 16, /* before begin: stair_rows, lag, has_rows */
	SL_END_EARLY = 32,   /* delays only: wakeups() with them in the pre-pass, then end */
	SL_SLICES_ASIDE = 64, /* slices() may run on a thread beside the other
			       * charts' (it touches nothing of theirs; c->s is
			       * then a connection of its own) */
};
struct sl_chart {
	const char *out;
	struct sl_plot_opts o;
	int need;
	void *ctx;
	struct sl_store *s;
	int (*begin)(struct sl_chart *c, struct sl_pruns *p, struct sl_diag *d);
	/* the run's wakeups a chunk at a time (in the order written), then
	 * wakeups() at their end; the run's delays, sorted, only to a chart
	 * SL_END_EARLY (in the pre-pass: others get NULL, 0) */
	int (*wakeup_rows)(struct sl_chart *c, struct sl_pruns *p, size_t i,
			   const struct sl_wakeup_row *v, size_t n, struct sl_diag *d);
	int (*wakeups)(struct sl_chart *c, struct sl_pruns *p, size_t i, const uint64_t *dl,
		       size_t ndl, struct sl_diag *d);
	int (*slices)(struct sl_chart *c, struct sl_pruns *p, size_t i, struct sl_diag *d);
	int (*metrics)(struct sl_chart *c, struct sl_pruns *p, size_t i,
		       const struct sl_run_metrics *m, struct sl_diag *d);
	int (*end)(struct sl_chart *c, struct sl_pruns *p, struct sl_diag *d);
	/* after every chart's end (its gnuplot started in end, waited for
	 * here: the charts' gnuplots run beside each other and the pass) */
	int (*finish)(struct sl_chart *c, struct sl_diag *d);
	void (*release)(struct sl_chart *c);
	/* set by sl_charts_run: the chart failed (its message in diag) and
	 * was not called again */
	int failed, ended;
	struct sl_diag diag;
};
/* Draw the charts over o->runs (one trace), each run read once: its
 * wakeups, then its slices, never all runs at once. A chart that fails is
 * dropped (failed, diag) and the others go on; returns -1 (d set) only
 * when the runs cannot be read. m (may be NULL) gets each run's metrics
 * (computed when m or a chart asks; released by the caller). */
int sl_charts_run(struct sl_store *s, const struct sl_plot_opts *o, struct sl_chart *c, size_t nc,
		  struct sl_run_metrics *m, struct sl_diag *d);
/* One chart: sl_charts_run of it alone, its failure returned. */
int sl_chart_draw(struct sl_store *s, struct sl_chart *c, struct sl_diag *d);
/* The chart constructors (the chart files): set c's callbacks and need for
 * o and out. */
void sl_chart_latency(struct sl_chart *c);
void sl_chart_histogram(struct sl_chart *c);
void sl_chart_share(struct sl_chart *c);
void sl_chart_compare(struct sl_chart *c);
void sl_chart_staircase(struct sl_chart *c);
void sl_chart_timeline(struct sl_chart *c);

/* gnuplot: a script plus data files, run into out. */
struct sl_gp {
	const char *out;
	enum sl_plot_fmt fmt;
	int keep;
	char dir[256];      /* temp folder when !keep */
	char base[1024];    /* path prefix of the script and data files */
	char **files;
	size_t nfiles, cap;
	FILE *script;
	int pid; /* gnuplot started by sl_gp_start, not yet waited for */
	char tmp[1100]; /* what gnuplot writes, renamed to out when whole ("" none) */
};
/* Start: pick the format, open the script and write the terminal lines
 * (w x h pixels; PDF gets the same size in points). */
int sl_gp_begin(struct sl_gp *g, const char *out, int keep, int w, int h, struct sl_diag *d);
/* Open a data file BASE.name.dat for writing; its path is put in path. */
FILE *sl_gp_data(struct sl_gp *g, const char *name, char *path, size_t len, struct sl_diag *d);
/* sl_gp_data, then the header line "# HEAD" and a column per run of p,
 * "\tCOLrunID" (COL may be ""). */
FILE *sl_gp_data_runs(struct sl_gp *g, const char *name, char *path, size_t len, const char *head,
		      const char *col, const struct sl_pruns *p, struct sl_diag *d);
/* Close the script, run gnuplot on it, check that out was written. */
int sl_gp_run(struct sl_gp *g, struct sl_diag *d);
/* The same in two steps: start gnuplot (and go on), then wait for it and
 * check (sl_gp_end waits for one not waited for). */
int sl_gp_start(struct sl_gp *g, struct sl_diag *d);
int sl_gp_wait(struct sl_gp *g, struct sl_diag *d);
/* Remove the temporary files (unless keep) and free. */
void sl_gp_end(struct sl_gp *g);
/* Write s as a gnuplot string expression: single-quoted, nothing in it
 * evaluated by gnuplot, a '\n' in s a line break (gnuplot.c). The only
 * way a string reaches a gnuplot script. */
void sl_gp_str(FILE *f, const char *s);
/* Write a file name as a gnuplot string: single-quoted, its bytes kept. */
void sl_gp_path(FILE *f, const char *path);

#endif
