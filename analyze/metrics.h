/* analyze/metrics.h - what people argue about, computed from a run's rows:
 * per task runtime, switches, wakeups, scheduling delay statistics, longest
 * runnable wait, CPU share; per run the same over all tasks, Jain's index,
 * and (against the recorded run of the same trace) replay fidelity. */
#ifndef SL_METRICS_H
#define SL_METRICS_H

#include <stdint.h>
#include <stddef.h>
#include "store.h"

struct sl_task_metrics {
	int64_t utid;
	int tid, nice;
	char comm[24];
	uint64_t runtime_ns;
	uint64_t switches, wakeups;
	double delay_mean_ns, delay_sd_ns;
	uint64_t delay_p50_ns, delay_p95_ns, delay_p99_ns, delay_max_ns;
	uint64_t max_wait_ns;    /* longest runnable wait: woken or preempted until run */
	double share;            /* runtime / (span * cpus) */
	uint64_t uncertain_ns;   /* recorded run: time that may or may not be its (docs/model.md) */
	double on_rq_share;      /* (runtime + runnable waits) / its lifetime in the run */
	char cls;                /* SL_CLASS_*: by on_rq_share in the recorded run when there
				  * is one (the behaviour: the same in every run of the trace),
				  * else in this run (docs/schema.md, analyze -h) */
};

/* Classes of task by how much of its lifetime (first slice or wakeup to
 * last slice end) it spent on a runqueue, running or waiting: CPU-bound at
 * least 90 % (and present for at least half the run's span), a sleeper
 * (mostly sleeping) under 50 %, else mixed. */
#define SL_CLASS_CPU 'C'
#define SL_CLASS_SLEEPER 'S'
#define SL_CLASS_MIXED 'M'

/* Delay statistics of the wakeups of one class of task. */
struct sl_class_delays {
	size_t tasks, delays;
	uint64_t p50_ns, p95_ns, p99_ns, max_ns;
};

struct sl_run_metrics {
	struct sl_run_info run;
	uint64_t span_ns;        /* first slice start to last slice end */
	uint64_t runtime_ns;     /* all tasks */
	uint64_t uncertain_ns;   /* all tasks (a window counts for each task it may belong to) */
	size_t ntasks;           /* tasks with runtime or wakeups */
	struct sl_task_metrics *tasks; /* ntasks, ordered by runtime desc then utid */
	uint64_t wakeups;
	size_t ndelays;          /* wakeups that ran: 0, the delay figures are n/a (NAN/"-") */
	double delay_mean_ns;
	uint64_t delay_p50_ns, delay_p95_ns, delay_p99_ns, delay_max_ns;
	uint64_t max_wait_ns;
	double jain;             /* Jain's index of runtimes over tasks (the same in every
				  * replay of a trace: each task gets its recorded time) */
	/* Jain's index over comparable tasks: the largest group of CPU-bound
	 * tasks of one nice level (ties: the lower nice), of their CPU rates
	 * (runtime / lifetime); NAN when no such group has 2 tasks */
	double jain_cpu;
	size_t jain_cpu_tasks;
	int jain_cpu_nice;
	/* Jain's index over the windows where tasks compete (analyze/fairwin.h):
	 * the mean over jain_windows contended windows; NAN when none */
	double jain_window;
	size_t jain_windows;
	struct sl_class_delays sleepers, cpu_bound;
	/* fidelity against a reference run (the recorded one); NAN if none */
	double conservation_max_err_ns; /* max |runtime - reference runtime| over tasks */
	double delay_ks;         /* Kolmogorov-Smirnov distance of delay distributions */
};

/* What fidelity needs of the reference (recorded) run: its delays sorted
 * and each task's runtime (by utid, ascending), not its rows. */
struct sl_run_ref {
	int64_t run_id;
	uint64_t *delays;
	size_t ndelays;
	int64_t *utid;
	uint64_t *runtime;
	char *cls;          /* each task's class in the recorded run (0: not known yet) */
	size_t ntasks;
};
/* The classes (SL_CLASS_*) of the recorded run's metrics m kept in
 * ref->cls (ref of the same run; sl_metrics_finish of that run does it):
 * every other run of the trace is classed by them. */
void sl_run_ref_set_classes(const struct sl_run_ref *ref, const struct sl_run_metrics *m);
/* Load run_id and keep its summary. 0, or -1 with d set. */
int sl_run_ref_load(struct sl_store *s, int64_t run_id, struct sl_run_ref *ref, struct sl_diag *d);
void sl_run_ref_release(struct sl_run_ref *ref);
/* The same summary of a run already loaded. */
void sl_run_ref_of(const struct sl_run_data *r, struct sl_run_ref *ref);

/* Compute the metrics of a loaded run; ref (may be NULL) is the recorded run
 * of the same trace for fidelity. The caller releases *m. */
void sl_metrics_compute(const struct sl_run_data *r, const struct sl_run_ref *ref,
			struct sl_run_metrics *m);
void sl_run_metrics_release(struct sl_run_metrics *m);
/* The task whose wait is the run's longest when that task has uncertain
 * time (time around missed switches or lost events that may or may not be
 * its own: the wait may not be one), else NULL. A figure built on
 * uncertain time says so (issue 25): compare and the report name it. */
const struct sl_task_metrics *sl_uncertain_longest_wait(const struct sl_run_metrics *m);

/* The same in steps, for a run read in parts (its wakeups, then its
 * slices, or the other way round; the result is sl_metrics_compute's):
 * begin with the run's threads (kept by the caller until finish), add the
 * rows, give the run's delays (sl_run_delays of its wakeups, the caller's,
 * not kept: the run's figures of them and the KS distance against ref are)
 * and finish (ref complete by then). */
struct sl_metrics_acc;
struct sl_metrics_acc *sl_metrics_begin(const struct sl_run_info *run,
					const struct sl_thread_row *threads, size_t nthreads);
void sl_metrics_add_slices(struct sl_metrics_acc *a, const struct sl_slice_row *v, size_t n);
void sl_metrics_add_wakeups(struct sl_metrics_acc *a, const struct sl_wakeup_row *v, size_t n);
void sl_metrics_delays(struct sl_metrics_acc *a, const struct sl_run_ref *ref, const uint64_t *all,
		       size_t nall);
/* What sl_metrics_delays takes of the delays (all: sorted; the KS distance
 * against ref's when with_ref, else NAN), apart: a pass can work them out
 * before it reads the run again, and give them with sl_metrics_set_delays
 * instead. */
struct sl_delay_figs {
	size_t n;
	double mean_ns, ks;
	uint64_t p50_ns, p95_ns, p99_ns, max_ns;
};
void sl_delay_figs_of(const uint64_t *all, size_t nall, const uint64_t *ref, size_t nref,
		      int with_ref, struct sl_delay_figs *f);
void sl_metrics_set_delays(struct sl_metrics_acc *a, const struct sl_delay_figs *f);
void sl_metrics_finish(struct sl_metrics_acc *a, const struct sl_run_ref *ref,
		       struct sl_run_metrics *m);
/* sl_run_ref_of from a run's parts: its sorted delays (taken over: freed
 * by sl_run_ref_release) and its slices (added with ref_add_slices). */
void sl_run_ref_begin(struct sl_run_ref *ref, int64_t run_id, const struct sl_thread_row *threads,
		      size_t nthreads, uint64_t *delays, size_t ndelays);
void sl_run_ref_add_slices(struct sl_run_ref *ref, const struct sl_slice_row *v, size_t n);

/* Store the metrics in the metric table (run-level with utid NULL). */
int sl_metrics_store(struct sl_store *s, const struct sl_run_metrics *m, struct sl_diag *d);

/* Delays (ts_run - ts) of a run's wakeups that ran, sorted ascending;
 * malloc'd, caller frees. */
uint64_t *sl_run_delays(const struct sl_run_data *r, size_t *n);
/* sl_sort_u64 (radix sort of n values) is in common/util.h. */

/* Index of utid in r->threads (sorted by utid), or where it would go
 * (check threads[i].utid == utid). */
size_t sl_run_thread_index(const struct sl_run_data *r, int64_t utid);
/* Kolmogorov-Smirnov distance between two sorted samples (0 if both are
 * empty, 1 if one is). */
double sl_ks_distance(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);

/* Percentile p (0..100) of a sorted array, nearest-rank. 0 if n == 0. */
uint64_t sl_percentile(const uint64_t *sorted, size_t n, double p);

#endif
