/* collector/yields.h - which runnable switch-outs were sched_yield()s
 * (docs/model.md, "Yields"): the model builder (collector/model.c) keeps the
 * candidates and the other quiet preemptions while it reads; when the pass
 * is over the tick they give (common/ticks.h) tells the tick's preemptions
 * from the yields, whose bursts are then cut at the yield (SL_END_YIELD). */
#ifndef SL_YIELDS_H
#define SL_YIELDS_H

#include "../common/behaviour.h"
#include "../common/sink.h"
#include "../common/ticks.h"

struct sl_yield_cand {
	int32_t task;
	int cpu, prio;
	uint64_t ts, dur;   /* the slice */
	size_t phase;       /* the phase its burst is part of (the task's count then) */
	uint64_t burst;     /* that burst's CPU time at the switch-out */
	int weak;           /* a wakeup aimed at its CPU or at the next task came in the slice */
	int yield;          /* the verdict (sl_yields_resolve) */
};

struct sl_yields {
	struct sl_yield_cand *c;
	size_t n, cap;
	uint64_t *qend;     /* the quiet preemptions' ends ... */
	int *qcpu;          /* ... and CPUs */
	size_t nq, qcap, qcap2;
	size_t *ord, *off;  /* after resolve: the yields by task (off[task]..off[task+1]) */
	size_t ntasks;
	size_t *run, nrun, runcap; /* per task, its runnable switch-outs */
};

/* A candidate: task's slice [ts, ts + dur] on cpu (prio), in its phase
 * `phase` whose burst had `burst` of CPU time at the switch-out; or a quiet
 * preemption (the tick's, as a rule). */
void sl_yields_add(struct sl_yields *y, int32_t task, int cpu, int prio, uint64_t ts, uint64_t dur,
		   size_t phase, uint64_t burst, int weak);
void sl_yields_quiet(struct sl_yields *y, int cpu, uint64_t end);
/* task switched out runnable (a candidate or not). */
void sl_yields_runnable(struct sl_yields *y, int32_t task);
/* The verdicts: a candidate ending within tick_ns of its CPU's tick is the
 * tick's preemption (none is when the tick cannot be told), every other one
 * a yield if its task has at least SL_YIELDS_MIN of them and they are at
 * least half of its runnable switch-outs. Returns the
 * number of yields. */
#define SL_YIELDS_MIN 10
size_t sl_yields_resolve(struct sl_yields *y, size_t ntasks, double tick_ns);
/* The same with the tick given (sched_stat_runtime's, collector/tickrt.h)
 * instead of the quiet preemptions' when it has a phase for the CPU. */
size_t sl_yields_resolve_tick(struct sl_yields *y, size_t ntasks, double tick_ns,
			      const struct sl_ticks *given);
/* Cut task's phases at its yields: a burst of CPU time B with yields after
 * b1 < b2 < ... becomes bursts b1, b2 - b1, ... ending SL_END_YIELD (no
 * sleep) and B - b_last ending as before. */
void sl_yields_split(const struct sl_yields *y, int32_t task, struct sl_phase **ph, size_t *nph,
		     size_t *cap);
/* After resolve: the candidates' slice rows, 'Y' or 'R'; 0 or -1 as the
 * sink. */
int sl_yields_emit(const struct sl_yields *y, const struct sl_run_sink *rec);
void sl_yields_free(struct sl_yields *y);

#endif
