/* analyze/import.h - sl_import(): one trace file into the store, as one
 * transaction: the trace, its threads, their behaviour model and the
 * recorded run (collector/import.h does the reading), or nothing at all.
 * `schedlab import` is this call plus its printing. */
#ifndef SL_IMPORT_H
#define SL_IMPORT_H

#include <stdint.h>
#include "store.h"
#include "../collector/import.h"

struct sl_import_info {
	int64_t trace_id, run_id;   /* the new trace and its recorded run */
	int64_t utid_base;          /* its first task's utid (task i is utid_base + i) */
	int64_t existing;           /* > 0: the same file (sha256) was imported
				     * before as this trace; nothing was added */
	const char *format;         /* the reader's name */
	size_t ntasks, nwork;       /* tasks; those with work (phases) */
	uint64_t uncertain_ns;      /* Σ over tasks of ms.uncertain_ns */
	uint64_t events;            /* events the reader delivered */
	size_t polls;               /* tasks marked as reading their CPU clock (hz.h) */
	size_t tick_timers;         /* sleeps marked as ended by a timer at the tick (hz.h) */
	size_t abs_timers;          /* tasks found on an absolute periodic timer (abstimer.h) */
	size_t wall;                /* tasks marked as spinning to a wall-clock deadline (wall.h) */
	struct sl_model_stats ms;   /* of the new trace (arrays owned) */
	struct sl_run_data rec;     /* with a ledger: the recorded run's slices
				     * as stored (for sl_completeness_store) */
};

struct sl_ledger;

/* Import path (format detected by content, or the reader named force);
 * led (NULL: none) is the recording's ledger, whose mean slices place the
 * switches the file lacks (sl_model_set_slice_hints).
 * Warnings go through d->warn as they come. Returns 0 with *out filled
 * (release with sl_import_info_release), or -1 with d->msg set and the
 * store as it was. */
int sl_import(struct sl_store *st, const char *path, const char *force, const struct sl_ledger *led,
	      sl_progress_fn progress, void *pctx, struct sl_import_info *out, struct sl_diag *d);
void sl_import_info_release(struct sl_import_info *in);

#endif
