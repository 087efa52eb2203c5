/* analyze/completeness.h - a recorded run held to the kernel's own
 * accounting (the recording's ledger, collector/ledger.h): how much of each
 * thread's CPU time (schedstat sum_exec_runtime) and run queue wait
 * (run_delay) between the ledger's two snapshots the trace accounts for,
 * and which threads it is missing or short of. docs/ledger.md. */
#ifndef SL_COMPLETENESS_H
#define SL_COMPLETENESS_H

#include <stddef.h>
#include <stdint.h>
#include "store.h"
#include "../collector/ledger.h"
#include "../collector/model.h"

/* Threads with less CPU time than this between the snapshots are left out
 * of the figures (a few ticks of accounting error would dominate them). */
#define SL_LEDGER_MIN_EXEC_NS (10 * SL_NS_PER_MS)
/* Below this share of the kernel's CPU time a trace is incomplete. */
#define SL_LEDGER_COMPLETE 0.98

struct sl_completeness {
	uint64_t win_lo, win_hi;     /* the window in trace time */
	int mapped;                  /* 1: the ledger's times are trace times (clock mono) */
	double coverage;             /* share of the window the trace spans (1 unmapped) */
	uint64_t kernel_exec_ns, trace_exec_ns, kernel_delay_ns, trace_wait_ns; /* over the threads counted */
	/* over the counted threads with a known work (sched_stat_runtime):
	 * the kernel's CPU time and the trace's work; their number */
	uint64_t kernel_exec_w_ns, trace_work_ns;
	size_t nwork;
	double work_share;           /* trace_work_ns / kernel_exec_w_ns (NAN: none) */
	size_t ncounted;             /* threads with >= SL_LEDGER_MIN_EXEC_NS */
	double cpu_share, wait_share; /* trace / kernel (NAN when nothing counted) */
	/* what says whether the trace is complete: work_share when every counted
	 * thread's work is known (the kernel's own charges in the trace: none
	 * missing), else cpu_share; by_work says which (docs/ledger.md) */
	double complete_share;
	int by_work;
	struct sl_ledger_row *rows;  /* every thread alive in both snapshots */
	size_t nrows;
	/* "comm tid, ..." counted threads absent / under 98 % (of their work
	 * where known, else of their CPU time) */
	char missing[400], shortl[400];
	size_t nmissing, nshort;
	uint64_t irq_ns, steal_ns;   /* interrupts (hard + soft) and steal, all CPUs */
	uint64_t read_ns;            /* the ledger's own reading time (both snapshots) */
};

/* Each recorded task's work and run queue waits in its window as the
 * kernel counts them (collector/kacct.h), taken by the import (the model's
 * kwork_ns and kwait_ns): the task of utid at [utid - utid_base], its work
 * UINT64_MAX when no sched_stat_runtime named it; work NULL
 * when the trace has no sched_stat_runtime. */
struct sl_kernel_sums {
	int64_t utid_base;
	size_t n;
	const uint64_t *work, *wait;
	/* NULL, or each task's wall time in its window that the trace shows
	 * but the recorded run has no slice row for: running when the trace
	 * began, before its CPU's first switch, or when it ended, after its
	 * CPU's last (the model's kedge_ns); added to its slices' CPU time */
	const uint64_t *edge;
	/* NULL, or the stretch of each task's running its counters cover
	 * (collector/kacct.h; 0 and 0: its window as read): its slices are
	 * clipped to it */
	const uint64_t *lo, *hi;
};

/* Every thread of l's end snapshot with its window (malloc'd; *n of them;
 * NULL when none): from the read of its counters at the start (or the
 * window's start) to the read at the end, the whole trace when the
 * ledger's times are not trace times. */
struct sl_ledger_window *sl_ledger_windows(const struct sl_ledger *l, size_t *n);

/* Hold rec (the recorded run, its slices and wakeups loaded) of a trace
 * spanning first_ts..last_ts to the ledger l; ks (NULL: none) the import's
 * sums, which give each thread's work and waits; else work_ratio (NULL:
 * none) the share of each rec thread's wall time that was work, -1 unknown
 * (sl_store_work_ratio), and the waits from rec's rows clipped to the
 * windows. Release c->rows with free(). */
void sl_completeness_compute(const struct sl_ledger *l, const struct sl_run_data *rec,
			     uint64_t first_ts, uint64_t last_ts, const double *work_ratio,
			     const struct sl_kernel_sums *ks, struct sl_completeness *c);

/* Hold the recorded run run_id of trace_id to the ledger l (read from
 * path) and store the result (sl_store_add_ledger), in a transaction of its
 * own. kept (NULL: read from the store) holds the run's slices as stored
 * (sl_import_info.rec); they are taken (kept is left empty). ks as for
 * sl_completeness_compute. 0 with *c filled (free c->rows), or -1 with d
 * set. */
int sl_completeness_store(struct sl_store *st, int64_t trace_id, int64_t run_id,
			  const struct sl_ledger *l, const char *path, struct sl_run_data *kept,
			  const struct sl_kernel_sums *ks, struct sl_completeness *c,
			  struct sl_diag *d);

#endif
