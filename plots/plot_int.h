/* plots/plot_int.h - helpers shared by the chart files (not exported). */
#ifndef SL_PLOT_INT_H
#define SL_PLOT_INT_H

#include "plot.h"
#include <stdio.h>

/* How many tasks a chart features in colour (sl_pruns_featured). */
#define SL_NFEATURED 12

/* A loaded run with what a chart needs around it. */
struct sl_prun {
	struct sl_run_data r;
	int cached;        /* r belongs to the run cache (sl_pruns_cache) */
	char title[128];   /* "run 2: rsdl (timed)" */
	uint64_t t0;       /* the trace's first_ts: charts put time 0 there */
	uint64_t end;      /* last slice end (absolute ns), t0 if none */
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
/* The colour index of utid (its place in p->featured), or -1 (grey). */
int sl_pruns_color(const struct sl_pruns *p, int64_t utid);
/* Load o->runs (must all be of one trace), with the rows parts names
 * (SL_LOAD_*). Release with sl_pruns_release. */
int sl_pruns_load(struct sl_store *s, const struct sl_plot_opts *o, int parts, struct sl_pruns *p,
		  struct sl_diag *d);
void sl_pruns_release(struct sl_pruns *p);
/* on = 1: from now on, runs loaded for charts are kept whole and shared by
 * the charts that follow (a report draws several charts of the same runs);
 * on = 0: the kept runs are freed. Charts only read their runs. */
void sl_pruns_cache(int on);
/* Run id from the cache (on): loaded whole the first time; NULL with d set
 * on error. The cache owns it. */
const struct sl_run_data *sl_pruns_cached(struct sl_store *s, int64_t id, struct sl_diag *d);
/* sl_run_ref_load, from the cache when it is on. */
struct sl_run_ref;
int sl_pruns_ref(struct sl_store *s, int64_t id, struct sl_run_ref *ref, struct sl_diag *d);
/* The thread row of utid in r, or NULL. */
const struct sl_thread_row *sl_prun_thread(const struct sl_run_data *r, int64_t utid);
/* Copy s into dst keeping only printable ASCII other than quotes and
 * backslash (replaced by '?'): safe inside any chart label. */
void sl_label_clean(char *dst, size_t len, const char *s);
/* Runtime of each thread of r (indexed like r->threads), malloc'd. */
uint64_t *sl_prun_runtimes(const struct sl_run_data *r);

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
/* Remove the temporary files (unless keep) and free. */
void sl_gp_end(struct sl_gp *g);
/* Write s as a gnuplot single-quoted string (sanitised). */
void sl_gp_str(FILE *f, const char *s);

#endif
