/* analyze/fairwin.h - fairness over the windows where tasks compete.
 *
 * Jain's index of the tasks' runtimes over a whole run is the same in every
 * replay of a trace (a replay gives each task its recorded CPU time). What a
 * scheduler decides is who gets the CPU while several tasks want it. So the
 * run is cut into windows of SL_FAIRWIN_NS (aligned on multiples of it on the
 * run's clock); a window is *contended* when at least two tasks were on a
 * runqueue (running or runnable) all through it and one of them waited in it.
 * In a contended window Jain's index is taken over those tasks of x_i =
 * runtime in the window / load weight of their nice (prio_to_weight,
 * replay/fair_weights.h: the share CFS and EEVDF call fair), skipping a
 * window where none of them ran. jain_window is the mean over the contended
 * windows (docs/schema.md). */
#ifndef SL_FAIRWIN_H
#define SL_FAIRWIN_H

#include <stddef.h>
#include <stdint.h>

#define SL_FAIRWIN_NS 100000000ULL /* 100 ms: an O(1) nice-0 timeslice, 4 CFS periods */

struct sl_fairwin;
struct sl_fairwin *sl_fairwin_new(size_t ntasks);
/* Task k was on a runqueue over [a, b): running (runtime) or waiting. */
void sl_fairwin_add(struct sl_fairwin *f, size_t k, uint64_t a, uint64_t b, int running);
/* The mean of the contended windows' indexes (NAN when none) and their
 * count; nice[k] is task k's nice. Frees f. */
double sl_fairwin_finish(struct sl_fairwin *f, const int *nice, size_t *nwindows);

#endif
