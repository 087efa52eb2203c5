/* common/sink.h - where a schedule goes: the recorded run (collector) and
 * every replayed run (replay engine) write rows through this one interface;
 * the command code binds it to the database (analyze/store.c).
 *
 * Task arguments are task indexes of the run's sl_behaviour (0..n-1), -1 for
 * none; the binder maps them to utids. Times are ns relative to the trace's
 * first_ts for replays, absolute trace ns for the recorded run (the binder
 * is told which). Every callback returns 0 or -1 (stop, error in diag).
 */
#ifndef SL_SINK_H
#define SL_SINK_H

#include <stdint.h>

struct sl_run_sink {
	void *ctx;
	/* one on-CPU interval; end_state 'R' preempted, 'S', 'D', 'X' exited,
	 * 'E' still running at the end; priority as the kernel's prio (100+level) */
	int (*slice)(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task,
		     char end_state, int priority);
	/* task became runnable at ts (woken by waker, -1 none) and first ran at
	 * ts_run on cpu (ts_run = UINT64_MAX: never ran before the end) */
	int (*wakeup)(void *ctx, int task, uint64_t ts, uint64_t ts_run, int waker,
		      int cpu);
	/* a task's dynamic level from ts on; array 0 = active, 1 = expired */
	int (*staircase)(void *ctx, int task, uint64_t ts, int level, int array);
	/* RSDL rotation: kind "minor" or "major" ("idle" for an idle-started epoch) */
	int (*rotation)(void *ctx, int cpu, uint64_t ts, const char *kind, int level);
	/* a fair-class task's vruntime minus its CPU's min_vruntime (ns) at ts
	 * (CFS: when it is placed on a queue, picked, and put back) */
	int (*vlag)(void *ctx, int task, uint64_t ts, int64_t lag_ns);
};

#endif
