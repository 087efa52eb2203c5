/* analyze/fidelity.h - how far a replay can be trusted: the kernel
 * overheads calibrated from a recorded run (replay --overhead auto) and
 * the recorded run of a trace. See docs/replay.md "Kernel overheads". */
#ifndef SL_FIDELITY_H
#define SL_FIDELITY_H

#include <stdint.h>
#include <stddef.h>
#include "store.h"
#include "../replay/engine.h"

/* The recorded run of trace_id in *run_id (0 if it has none). */
int sl_recorded_run(struct sl_store *s, int64_t trace_id, int64_t *run_id, struct sl_diag *d);

/* Kernel overheads measured on a recorded run. */
struct sl_overheads {
	uint64_t wake_ns;    /* median delay of wakeups onto an idle CPU */
	uint64_t switch_ns;  /* median delay of wakeups that preempted at once */
	size_t nwake, nswitch; /* samples behind each (0: that one is 0) */
	/* their distributions: the (2i+1)/32 quantiles, i = 0..15 */
	uint64_t wake_q[SL_OVERHEAD_Q], switch_q[SL_OVERHEAD_Q];
};
/* Calibrate from a recorded run's slices and wakeups (docs/replay.md):
 * - wake_ns: wakeups whose CPU (the one the task ran on) ran nothing at the
 *   wakeup and ran the woken task first after it: ts_run - ts, median;
 * - switch_ns: wakeups whose CPU was running another task that was
 *   preempted (end state R) at ts_run, the woken task switched in at that
 *   instant: ts_run - ts, median.
 * Medians and quantiles are nearest-rank (sl_percentile). */
void sl_overheads_calibrate(const struct sl_run_data *rec, struct sl_overheads *o);

/* Parse --overhead: "none" (nq 0), "auto" (calibrated later: only
 * o->overhead = "auto"), "WAKE" (both) or "WAKE,SWITCH", durations up to
 * 1 s, default unit us (nq 1). Sets o->nq, o->wake_lat_ns[0],
 * o->switch_lat_ns[0], o->overhead. 0, or -1 if malformed. */
int sl_overhead_parse(const char *s, struct sl_replay_opts *o);

/* --overhead auto for trace_id: calibrate from its recorded run (a trace
 * without one gets none) and set o's distributions (nq = SL_OVERHEAD_Q)
 * and o->overhead = "auto". ov (may be NULL) receives the calibration. */
int sl_overhead_auto(struct sl_store *s, int64_t trace_id, struct sl_replay_opts *o,
		     struct sl_overheads *ov, struct sl_diag *d);

#endif
