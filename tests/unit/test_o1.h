/* tests/unit/test_o1.h - helpers of the O(1) scenario tests: build a
 * behaviour by hand, replay it through a policy with invariants on, and
 * collect every row for the checks (test_o1_util.c). */
#ifndef SL_TEST_O1_H
#define SL_TEST_O1_H

#include <stddef.h>
#include <stdint.h>
#include "../../common/behaviour.h"
#include "../../replay/engine.h"

#define MS 1000000ULL
#define SEC 1000000000ULL

struct o1t_slice {
	uint64_t ts, dur;
	int cpu, task, prio;
	char end;
};
struct o1t_wake {
	uint64_t ts, ts_run;
	int task, waker, cpu;
};
struct o1t_stair {
	uint64_t ts;
	int task, level, array;
};

struct o1t_run {
	struct o1t_slice *sl;
	size_t nsl, capsl;
	struct o1t_wake *wk;
	size_t nwk, capwk;
	struct o1t_stair *st;
	size_t nst, capst;
	struct sl_replay_stats stats;
	char err[512];
};

/* A behaviour of n tasks, all periodic: run_ns then sleep_ns, count times
 * (0 forever); run_ns SL_INF for a hog. Free with sl_behaviour_release. */
void o1t_behaviour(struct sl_behaviour *b, size_t n);
/* Set task i: nice, run, sleep, start. */
void o1t_task(struct sl_behaviour *b, size_t i, int nice, uint64_t run_ns,
	      uint64_t sleep_ns, uint64_t start_ns);
/* Give task i explicit phases (copied). */
void o1t_phases(struct sl_behaviour *b, size_t i, const struct sl_phase *ph, size_t n);

/* RR_INTERVAL for the next replays (0: the engine's default). */
extern uint64_t o1t_rr_ns;
/* 1: the next replays' sink takes no staircase rows. */
extern int o1t_no_staircase;

/* Replay b through ops on cpus CPUs for duration_ns with invariants on.
 * Returns 0, or -1 with r->err. Free r with o1t_free. */
int o1t_replay(const struct sl_behaviour *b, const struct sl_policy_ops *ops, int cpus,
	       uint64_t duration_ns, int hz, const char *popts, struct o1t_run *r);
void o1t_free(struct o1t_run *r);

/* CPU time of task in [from, to). */
uint64_t o1t_runtime(const struct o1t_run *r, int task, uint64_t from, uint64_t to);
/* Longest time task waited while runnable (from a wakeup or a preemption
 * to its next slice) among waits that began in [from, to). */
uint64_t o1t_max_wait(const struct o1t_run *r, int task, uint64_t from, uint64_t to);
/* Slices of task starting in [from, to): count, and the best (lowest) and
 * worst prio seen. */
size_t o1t_slices(const struct o1t_run *r, int task, uint64_t from, uint64_t to,
		  int *best_prio, int *worst_prio);
/* Wakeups of task in [from, to): count, and how many ran with no delay. */
size_t o1t_wakeups(const struct o1t_run *r, int task, uint64_t from, uint64_t to,
		   size_t *immediate);
/* 1 if both runs have identical rows. */
int o1t_same(const struct o1t_run *a, const struct o1t_run *b);

#endif
