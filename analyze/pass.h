/* analyze/pass.h - one pass over the runs of a trace, a run at a time
 * (analyze/pass.c): each run's rows are read once and handed to the
 * metrics and to the pass's clients (the charts of plots/, the report),
 * never every run's rows at once. analyze, compare and the report take
 * their metrics from it (sl_runs_metrics, sl_pass_run). */
#ifndef SL_PASS_H
#define SL_PASS_H

#include <stdint.h>
#include <stddef.h>
#include "store.h"

/* How many tasks a pass picks as its featured ones (sl_pruns_featured). */
#define SL_NFEATURED 12

/* A run of the pass with what a client needs around it: r holds the run's
 * info and threads throughout, and its wakeups or its slices only while a
 * client is handed them. */
struct sl_prun {
	struct sl_run_data r;
	char title[128];   /* "run 2: rsdl (timed)" */
	uint64_t t0;       /* the trace's first_ts: charts put time 0 there */
	uint64_t end;      /* last slice end (absolute ns), t0 if none */
	/* the pre-pass (SL_NEED_PRE) */
	uint64_t first_ts;  /* first slice start (absolute), UINT64_MAX if none */
	uint64_t first_rel; /* the least ts - t0 (unsigned) of its slices, UINT64_MAX if none */
	/* (SL_NEED_STAIRS) staircase rows: how many, and whose (a byte per
	 * thread of r); when none, the vlag rows' (lag = 1 if any) */
	size_t stair_rows;
	int lag;
	unsigned char *has_rows;
	/* vlag rows in the client's window (from its from to its to or the
	 * runs' last end): per thread, whether any, their least and greatest
	 * lag */
	unsigned char *lag_in;
	int64_t *lag_lo, *lag_hi;
};
struct sl_pruns {
	struct sl_prun *v;
	size_t n;
	struct sl_trace_info trace;
	char trace_title[160]; /* "trace 1: file.dat (perfdata, 1 CPU)" (sanitised) */
	int64_t featured[SL_NFEATURED]; /* sl_featured_pick's */
	size_t nfeatured;
};
/* The featured tasks of runs, in colour order: alternately the busiest
 * (CPU time summed over the runs) and the most often put to sleep (slices
 * ending in S or D: the interactive ones), no task twice, up to want.
 * Every chart of a report gets the same runs, so a task keeps its colour
 * (its index here) in all of them. In parts: add a slice of any run to the
 * sums (rt, sleeps: a value per thread of r0), then pick from the sums. */
void sl_featured_add(const struct sl_run_data *r0, const struct sl_slice_row *sl, uint64_t *rt,
		     uint64_t *sleeps);
size_t sl_featured_pick(const struct sl_run_data *r0, const uint64_t *rt, const uint64_t *sleeps,
			int64_t *utids, size_t want);
/* p->v[i]'s title ("run ID: MODEL (MODE)"); -1 (d) when its trace is not
 * p->v[0]'s (a pass's runs are of one trace). */
int sl_pruns_label_run(struct sl_pruns *p, size_t i, struct sl_diag *d);
/* p->trace from the store (p->v[0]'s trace) and p->trace_title. */
int sl_pruns_label_trace(struct sl_store *s, struct sl_pruns *p, struct sl_diag *d);
/* Runs runs[0..nruns) of one trace into p: each run's info, threads and
 * the rows parts names (SL_LOAD_*, 0: none), labelled (sl_pruns_label_*),
 * t0 and end the trace's first_ts. 0, or -1 with d set and p released. */
int sl_pruns_open(struct sl_store *s, const int64_t *runs, size_t nruns, int parts,
		  struct sl_pruns *p, struct sl_diag *d);
/* Free what a pass put in p (its own runs' rows). */
void sl_pruns_release_pass(struct sl_pruns *p);

/* A client of the pass: begin once the runs' info (and the pre-pass's) is
 * known, then for each run in order its wakeups (in chunks, not sorted,
 * then the sorted delays), its slices (all of them, sorted as
 * sl_store_load_run sorts them) and its metrics, then end. Any callback
 * may be NULL. A client's rows of a run are only valid during the call
 * that hands them. */
struct sl_run_metrics;
enum {
	SL_NEED_WAKEUPS = 1, /* wakeup_rows(), wakeups(): the run's wakeups */
	SL_NEED_SLICES = 2,  /* slices(): the run's slices */
	SL_NEED_METRICS = 4, /* metrics(): sl_metrics_compute's, against the recorded run */
	SL_NEED_PRE = 8,     /* before begin: first_ts, first_rel, end, the featured tasks */
	SL_NEED_STAIRS = 16, /* before begin: stair_rows, lag, has_rows (from .. to) */
	SL_END_EARLY = 32,   /* delays only: wakeups() with them in the pre-pass, then end */
	SL_SLICES_ASIDE = 64, /* slices() may run on a thread beside the other
			       * clients' (it touches nothing of theirs; c->s is
			       * then a connection of its own) */
};
struct sl_pass_client {
	int need;
	void *ctx;
	struct sl_store *s;
	uint64_t from, to; /* SL_NEED_STAIRS: the window of the vlag rows, ns
			    * after the trace's first_ts (to 0: the runs' end) */
	int (*begin)(struct sl_pass_client *c, struct sl_pruns *p, struct sl_diag *d);
	/* the run's wakeups a chunk at a time (in the order written), then
	 * wakeups() at their end; the run's delays, sorted, only to a client
	 * SL_END_EARLY (in the pre-pass: others get NULL, 0) */
	int (*wakeup_rows)(struct sl_pass_client *c, struct sl_pruns *p, size_t i,
			   const struct sl_wakeup_row *v, size_t n, struct sl_diag *d);
	int (*wakeups)(struct sl_pass_client *c, struct sl_pruns *p, size_t i, const uint64_t *dl,
		       size_t ndl, struct sl_diag *d);
	int (*slices)(struct sl_pass_client *c, struct sl_pruns *p, size_t i, struct sl_diag *d);
	int (*metrics)(struct sl_pass_client *c, struct sl_pruns *p, size_t i,
		       const struct sl_run_metrics *m, struct sl_diag *d);
	int (*end)(struct sl_pass_client *c, struct sl_pruns *p, struct sl_diag *d);
	/* after every client's end (a chart's gnuplot started in end, waited
	 * for here: the charts' gnuplots run beside each other and the pass) */
	int (*finish)(struct sl_pass_client *c, struct sl_diag *d);
	void (*release)(struct sl_pass_client *c);
	/* set by the pass: the client failed (its message in diag) and was
	 * not called again */
	int failed, ended;
	struct sl_diag diag;
};
/* The pass over runs[0..nruns) (one trace) for clients c[0..nc), each run
 * read once: its wakeups, then its slices, never all runs at once. A
 * client that fails is dropped (failed, diag) and the others go on;
 * returns -1 (d set) only when the runs cannot be read. m (may be NULL)
 * gets each run's metrics (computed when m or a client asks; released by
 * the caller). */
int sl_pass_run(struct sl_store *s, const int64_t *runs, size_t nruns, struct sl_pass_client **c,
		size_t nc, struct sl_run_metrics *m, struct sl_diag *d);

/* The metrics of runs of one trace (m: n of them, released by the caller
 * with sl_run_metrics_release), against the trace's recorded run: the
 * pass with no client. analyze and compare take their metrics here. */
int sl_runs_metrics(struct sl_store *s, const int64_t *runs, size_t n, struct sl_run_metrics *m,
		    struct sl_diag *d);

/* A function the pass calls after each run's rows are freed (NULL: none).
 * The library sets no process-wide allocator policy itself; the program
 * may (schedlab.c gives the freed memory back to the system there). */
void sl_pass_set_run_done_hook(void (*fn)(void));

#endif
