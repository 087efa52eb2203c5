/* analyze/abstimer.h - tasks that sleep on an absolute periodic timer
 * (docs/model.md "Absolute timers"). */
#ifndef SL_ABSTIMER_H
#define SL_ABSTIMER_H

#include <stddef.h>
#include "../common/behaviour.h"

/* A timer sleep of the import (wake_ts known): ended by an interrupt or the
 * idle task on the CPU the task slept on, not a timer-wheel timer's. */
int sl_abs_timer_sleep(const struct sl_phase *p);

/* Flag SL_TASK_ABS_TIMER on each task of b whose timer wakeups fall on a
 * period while its sleeps' lengths vary, and keep each of its timer
 * sleeps' wakeup time (the phases' wake_ts, which the store keeps for such
 * a task only). Returns how many tasks. */
size_t sl_mark_abs_timers(struct sl_behaviour *b);

#endif
