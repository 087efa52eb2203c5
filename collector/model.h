/* collector/model.h - turns an ordered event stream into (1) the recorded
 * run (sched_slice and wakeup rows through an sl_run_sink, task indexes
 * assigned in order of first appearance) and (2) the behaviour model of
 * every task (common/behaviour.h). See docs/model.md for the rules. */
#ifndef SL_MODEL_H
#define SL_MODEL_H

#include "event.h"
#include "../common/behaviour.h"
#include "../common/sink.h"

struct sl_model;

struct sl_model_stats {
	int cpus;                 /* highest CPU number seen + 1 */
	uint64_t first_ts, last_ts;
	uint64_t events;          /* sched events consumed */
	uint64_t lost_events;     /* sum over CPUs */
	uint64_t *lost_per_cpu;   /* [cpus], malloc'd; caller frees */
	uint64_t inconsistencies; /* forks of a tid whose exit was not seen */
	uint64_t missed_switches; /* switches placed from evidence (docs/model.md) */
	int cut;                  /* the reader said the file was cut short ... */
	uint64_t cut_at;          /* ... at this byte offset or line */
	uint64_t slices, wakeups;
	uint64_t execs;            /* exec points (SL_END_EXEC phases) */
	uint64_t yields;           /* switch-outs taken for sched_yield (SL_END_YIELD) */
	uint64_t duplicates;       /* events seen twice in a row on a CPU (counted once) */
	uint64_t lead_gap_ns;      /* from the first event to the second */
	uint64_t tail_gap_ns;      /* from the last event but one to the last */
	uint64_t *uncertain_ns;   /* [ntasks]: per task, time in the windows where a
				   * missed switch or lost events leave it open whether
				   * it ran (malloc'd; caller frees) */
	struct sl_work_row *work; /* [nwork], by task then CPU (malloc'd; caller frees) */
	size_t nwork;
	/* [ntasks] with ledger windows (sl_model_set_windows), else NULL: each
	 * task's work (sched_stat_runtime) and run queue waits in its window
	 * as the kernel counts them (collector/kacct.h; malloc'd; caller frees),
	 * and the stretch of its running its counters cover, with its wall time
	 * there that has no slice row (kacct's edge) */
	uint64_t *kwork_ns, *kwait_ns, *kedge_ns, *klo_ns, *khi_ns;
	int have_runtime;         /* the trace has sched_stat_runtime events */
	/* the tick from sched_stat_runtime (collector/tickrt.h): HZ (0 when
	 * it cannot be told), from how many lone events, their concentration */
	int tick_hz;
	size_t tick_samples;
	double tick_conc;
	double tick_phase_ns;     /* with tick_hz, its phase (sl_ticks_phase), else -1 */
};

/* Stays where it slept that many times (and twice its moves) after an
 * interrupt wakeup from another busy CPU: SL_TASK_WIDE */
#define SL_WIDE_MIN 3

/* The kernel's mean slice of a thread: its ledger's sum_exec_runtime delta
 * over its pcount delta (the times it was switched in; docs/ledger.md). */
struct sl_slice_hint {
	int32_t tid;
	uint64_t mean_ns;
};

/* A thread's window in trace time: between the ledger's two reads of its
 * counters (docs/ledger.md), lo exclusive, hi inclusive. */
struct sl_ledger_window {
	int32_t tid;
	uint64_t lo, hi;
};

/* New builder writing the recorded run to *rec (copied). d receives errors
 * (and warnings). Free with sl_model_free. */
struct sl_model *sl_model_new(const struct sl_run_sink *rec, struct sl_diag *d);
/* Feed one event (an sl_event_fn: ctx is the model). Events must come in
 * non-decreasing ts order. Returns 0 or -1. */
int sl_model_event(void *model, const struct sl_event *ev);
/* Close open intervals and hand over the behaviour (caller releases it with
 * sl_behaviour_release), each task's first and last ts (absolute, malloc'd
 * arrays of b->ntasks, caller frees) and the statistics. */
int sl_model_finish(struct sl_model *m, struct sl_behaviour *b, uint64_t **first_ts,
		    uint64_t **last_ts, struct sl_model_stats *st);
void sl_model_free(struct sl_model *m);
/* Give the model the kernel's mean slices of threads (copied; before the
 * first event): where a switch that took such a thread off its CPU is
 * missing, its slice ends its mean slice after it began, within what the
 * evidence allows, instead of halfway (docs/model.md, "Missed switches"). */
void sl_model_set_slice_hints(struct sl_model *m, const struct sl_slice_hint *h, size_t n);
/* Give the model the ledger's windows of threads (copied; before the first
 * event): it then counts each task's work and waits in its window as the
 * kernel does (collector/kacct.h) into its stats' kwork_ns, kwait_ns and
 * kedge_ns. */
void sl_model_set_windows(struct sl_model *m, const struct sl_ledger_window *w, size_t n);

#endif
