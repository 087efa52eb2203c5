/* analyze/fidelity.h - how far a replay can be trusted: the kernel
 * overheads calibrated from a recorded run (replay --overhead auto) and
 * validation. See docs/replay.md "Kernel overheads". */
#ifndef SL_FIDELITY_H
#define SL_FIDELITY_H

#include <stdint.h>
#include <stddef.h>
#include "store.h"
#include "hz.h"
#include "../replay/engine.h"

/* Kernel overheads measured on a recorded run. */
struct sl_overheads {
	uint64_t wake_ns;    /* median delay of wakeups onto an idle CPU */
	uint64_t switch_ns;  /* median delay of wakeups that preempted at once */
	size_t nwake, nswitch; /* samples behind each (0: that one is 0, but
				* wake_ns and wake_q take the preemptions'
				* when nwake is 0 and nswitch is not) */
	size_t ntick;        /* switch candidates left out: preempted by the tick */
	int hz;              /* the tick rate found (sl_estimate_ticks), 0: none */
	/* their distributions: the (2i+1)/32 quantiles, i = 0..15 */
	uint64_t wake_q[SL_OVERHEAD_Q], switch_q[SL_OVERHEAD_Q];
	/* the preemptions of a task for a wakee it made itself */
	size_t nswitch_own;
	uint64_t switch_own_ns, switch_own_q[SL_OVERHEAD_Q];
};
#define SL_OVERHEAD_OWN_MIN 16
/* Calibrate from a recorded run's slices and wakeups (docs/replay.md):
 * - wake_ns: wakeups whose CPU (the one the task ran on) ran nothing at the
 *   wakeup and ran the woken task first after it: ts_run - ts, median;
 * - switch_ns: wakeups whose CPU was running another task that was
 *   preempted (end state R) at ts_run, the woken task switched in at that
 *   instant: ts_run - ts, median. Left out (ntick): those where a tick
 *   of that CPU (sl_estimate_ticks) came after the wakeup and within
 *   100 us of ts_run: the tick ended prev's slice, the wakeup did not.
 * Medians and quantiles are nearest-rank (sl_percentile). */
void sl_overheads_calibrate(const struct sl_run_data *rec, struct sl_overheads *o);

/* --overhead auto for trace_id: calibrate from its recorded run (a trace
 * without one gets none) and set o's distributions (nq = SL_OVERHEAD_Q)
 * and o->overhead = "auto". ov (may be NULL) receives the calibration. */
int sl_overhead_auto(struct sl_store *s, int64_t trace_id, struct sl_replay_opts *o,
		     struct sl_overheads *ov, struct sl_diag *d);
/* The same from r, the recorded run, loaded (NULL: none). */
void sl_overhead_of_run(const struct sl_run_data *r, struct sl_replay_opts *o,
			struct sl_overheads *ov);

/* ---- schedlab validate: a replay against the recorded run ---- */

enum { SL_FID_ALL, SL_FID_BUSIEST, SL_FID_WOKEN, SL_FID_NGROUPS };
#define SL_FID_TOP 10 /* tasks in the busiest / most-woken groups */

/* Wakeup delays of a group of tasks in both runs. */
struct sl_fid_group {
	size_t ntasks;             /* tasks in the group */
	size_t nrec, nrep;         /* delays (wakeups that ran) */
	uint64_t rec[4], rep[4];   /* p50, p95, p99, max (nearest rank) */
	/* the recorded p50, p95, p99's 95 % intervals: the order statistics
	 * of ranks n q -+ 1.96 sqrt(n q (1 - q)) (distribution-free) */
	uint64_t rec_lo[3], rec_hi[3];
	double ks;                 /* KS distance of the two distributions */
};

struct sl_fidelity {
	size_t ntasks;             /* tasks with CPU time in either run */
	size_t tasks_exact;        /* of those, the same CPU time to the ns */
	uint64_t runtime_max_err_ns;
	uint64_t rec_switches, rep_switches;     /* slices (switches in) */
	uint64_t rec_migrations, rep_migrations; /* a task's slice on another CPU than its last */
	uint64_t rec_span, rep_span;             /* first slice's start to last slice's end, ns */
	double rec_util, rep_util;               /* Σ slice time / (span * CPUs) */
	struct sl_fid_group g[SL_FID_NGROUPS];   /* all tasks; the SL_FID_TOP busiest and
						  * most-woken in the recording */
	/* where a difference comes from (rows without a threshold): the
	 * migrations of a task that had slept (a wakeup's placement) and of
	 * one that had stayed runnable (preempted or yielding: a balancer's
	 * pull); the wakeups that found another task running on the CPU they
	 * were put on and those that found it idle, with the median delay of
	 * each (nearest rank) */
	uint64_t rec_mig_wake, rep_mig_wake, rec_mig_run, rep_mig_run;
	uint64_t rec_wk_busy, rep_wk_busy, rec_wk_idle, rep_wk_idle;
	uint64_t rec_p50_busy, rep_p50_busy, rec_p50_idle, rep_p50_idle;
};

/* Compare replay run rep with recorded run rec (same trace: same utids). */
void sl_fidelity_compute(const struct sl_run_data *rec, const struct sl_run_data *rep,
			 struct sl_fidelity *f);

/* n comparisons of replays with different --seed against the same recorded
 * run, merged: each replay figure is the median over the n (the mean of the
 * middle two for even n); CPU time is exact only if it is in every replay
 * (tasks_exact their least, runtime_max_err_ns their largest). The
 * recorded figures are f[0]'s. n >= 1. */
void sl_fidelity_median(const struct sl_fidelity *f, size_t n, struct sl_fidelity *out);

/* One line of the fidelity table with its threshold (docs/validate.md). */
struct sl_fid_row {
	char key[32];              /* metric name suffix: "switches", "p95_busiest" */
	char what[48];             /* printed label */
	double rec, rep;           /* NAN when not applicable */
	double err;                /* relative error, KS, or max abs ns error */
	double limit;              /* |err| <= limit passes; NAN: no threshold */
	int gating;                /* counts for the verdict */
	int pass;                  /* 1, 0; -1 without threshold; -2 not measurable (n/a:
				    * no wakeups in a run), never a pass */
	int na;                    /* the check cannot be measured */
	int unit;                  /* 0 count, 1 ns, 2 ratio (KS), 3 tasks, 4 share (utilisation) */
	/* the recorded figure's own sampling noise, not gating (docs/validate.md
	 * "Sampling noise"): 1 the replay's figure is inside the 95 % interval
	 * [noise_lo, noise_hi] of the recorded one (a count: rec -+ 1.96
	 * sqrt(rec); a percentile: its distribution-free interval; KS: 0 to
	 * the two-sample critical value 1.358 sqrt((n + m) / (n m))), 0
	 * outside, -1 no such interval (CPU time, span, utilisation, the
	 * rows without a threshold, a check that cannot be measured) */
	int noise;
	double noise_lo, noise_hi;
};
#define SL_FID_MAXROWS 32
/* The table's rows from f; returns their number. *verdict = 1 if every
 * gating row passes. */
size_t sl_fidelity_rows(const struct sl_fidelity *f, struct sl_fid_row *rows, int *verdict);

#endif
