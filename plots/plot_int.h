/* plots/plot_int.h - helpers shared by the chart files (not exported). */
#ifndef SL_PLOT_INT_H
#define SL_PLOT_INT_H

#include "plot.h"
#include "../analyze/pass.h"
#include <stdio.h>

/* The tasks of runs loaded whole (sl_pruns_load), picked as a pass picks
 * them (sl_featured_pick): a task keeps its colour in every chart. */
size_t sl_pruns_featured(const struct sl_pruns *p, int64_t *utids, size_t want);
/* The colour index of utid (its place in p->featured), or -1 (grey). */
int sl_pruns_color(const struct sl_pruns *p, int64_t utid);
/* Load o->runs (must all be of one trace), with the rows parts names
 * (SL_LOAD_*). Release with sl_pruns_release. */
int sl_pruns_load(struct sl_store *s, const struct sl_plot_opts *o, int parts, struct sl_pruns *p,
		  struct sl_diag *d);
void sl_pruns_release(struct sl_pruns *p);

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

/* A chart: a client of the pass over its runs (analyze/pass.h), drawn
 * into out. The pass hands the client back (pc, first): sl_chart_of. */
struct sl_chart {
	struct sl_pass_client pc;
	const char *out;
	struct sl_plot_opts o;
};
static inline struct sl_chart *sl_chart_of(struct sl_pass_client *c)
{
	return (struct sl_chart *)c;
}
/* Draw the charts c[0..nc) over o->runs (one trace) in one pass
 * (sl_pass_run): a chart that fails is dropped (c[k].pc.failed, diag) and
 * the others go on; returns -1 (d set) only when the runs cannot be read.
 * m (may be NULL) gets each run's metrics (released by the caller). */
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
