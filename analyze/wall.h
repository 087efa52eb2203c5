/* analyze/wall.h - tasks whose bursts end on a wall-clock deadline
 * (docs/model.md "Wall-clock bursts").
 *
 * A task that spins "until 8 ms have passed since I woke" (massive_intr's
 * workers, a frame loop that renders until its frame time is up) does not
 * do a fixed amount of CPU work per burst: when it is preempted the clock
 * runs on, and when it gets its CPU back after its deadline it only leaves
 * the loop and goes to sleep. Its recorded bursts then show two shapes:
 * "through" (it ran when the deadline came: first run to burst end is the
 * deadline plus a short tail, whatever the waits in between) and "late"
 * (it was waiting when the deadline came: its last slice starts past the
 * deadline and is only the tail). Replayed as fixed CPU work, such a task
 * keeps running in the slices where the kernel let it go at once. */
#ifndef SL_WALL_H
#define SL_WALL_H

#include "../common/behaviour.h"

#include <stddef.h>
#include <stdint.h>

/* One burst between two sleeps, as the recorded run shows it: its first
 * slice's start, its last slice's start, its end, and its slices. */
struct sl_wall_burst {
	uint64_t first, last, end;
	uint32_t n;
};

/* A recorded run's bursts, task by task, as its slices are written (in
 * time order per task: sl_wall_obs_slice). */
struct sl_wall_task {
	struct sl_wall_burst *b;
	size_t nb, cap;
	struct sl_wall_burst open; /* the burst being read (open.n 0: none) */
	int after_sleep;           /* the last burst ended in a sleep */
	int yielded;               /* a slice of the open burst yielded */
	int disordered;            /* a slice came before the end of the one
				    * before it (rows held back: yields): not
				    * marked */
	uint64_t last_end;
};
struct sl_wall_obs {
	struct sl_wall_task *t;
	size_t nt;
};

/* A slice of task `task` (ts, dur, end state as in sched_slice). */
void sl_wall_obs_slice(struct sl_wall_obs *o, int task, uint64_t ts, uint64_t dur, char end);
void sl_wall_obs_release(struct sl_wall_obs *o);

/* The rule, for one task's bursts (b[0..n), each begun after a sleep and
 * ended by one, none yielding). For a deadline D:
 *   through: |end - first - D| <= D / 50;
 *   late:    n >= 2, last - first >= D - D / 50, end - last <= D / 20 and
 *            <= SL_WALL_TAIL_MAX_NS;
 * the bursts fit D when a quarter or more are late and nine in ten are
 * through or late. D is the shortest wall span (end - first) of a
 * preempted burst (n >= 2) that they fit, of the shortest tenth of those
 * spans, and at least SL_WALL_MIN_NS; the task needs SL_WALL_MIN bursts and
 * SL_WALL_MIN preempted ones. Then *tail = the median of the late ones'
 * last slices, which must be at most SL_WALL_TAIL_MEDIAN_NS (the loop's
 * exit and the call to sleep: a fixed path of microseconds; a task with
 * fixed CPU work preempted near its end leaves last slices spread over
 * the whole bound), and *wall = the median span of the through ones less *tail
 * (D - *tail when none). Returns 1 when the task fits, else 0. */
#define SL_WALL_MIN 20
#define SL_WALL_MIN_NS 500000ULL
#define SL_WALL_TAIL_MAX_NS 250000ULL
#define SL_WALL_TAIL_MEDIAN_NS 100000ULL
int sl_wall_fit(const struct sl_wall_burst *b, size_t n, uint64_t *wall, uint64_t *tail);

/* Mark b's tasks by sl_wall_fit on o (SL_TASK_WALL, wall_ns, wall_tail_ns);
 * returns the number marked. */
size_t sl_mark_wall(struct sl_behaviour *b, const struct sl_wall_obs *o);

#endif
