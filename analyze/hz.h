/* analyze/hz.h - the recording kernel's tick, estimated from its recorded
 * run (validate's HZ, replay's --hz default, the calibration of
 * --overhead auto). See docs/validate.md. */
#ifndef SL_HZ_H
#define SL_HZ_H

#include <stddef.h>
#include "store.h"
#include "../common/ticks.h"

/* The recording kernel's CONFIG_HZ, estimated from its recorded run: a
 * slice preempted by the tick ends on a tick, so the end times of the
 * slices that ended runnable (R) with no wakeup in the 100 us before, taken
 * modulo the tick period of each candidate (100, 250, 300, 1000 Hz), bunch
 * at one phase per CPU for the true period and for its divisors, and spread
 * for the others. Concentration = the mean resultant length of those
 * phases (1: all at one phase, about 0: spread). The estimate is the
 * lowest HZ whose concentration is at least 0.6 times the best, if the
 * best is at least 0.2 over at least 30 such slices. 0 with *hz set, or
 * -1 (cannot tell: too few preemptions or no bunching). */
int sl_estimate_hz(const struct sl_run_data *rec, int *hz, size_t *samples, double *conc);
/* The recording kernel's CONFIG_HZ as well as the trace tells it: from its
 * scheduler ticks when its import found them in sched_stat_runtime (the
 * recorded run's params tick_hz, tick_samples, tick_concentration;
 * collector/tickrt.h), else sl_estimate_hz. *from names the evidence
 * ("scheduler ticks (sched_stat_runtime)" or "tick preemptions"). */
int sl_recording_hz(const struct sl_run_data *rec, int *hz, size_t *samples, double *conc,
		    const char **from);
/* The recording's tick phase (trace clock ns, modulo 1e9 / hz) from a
 * recorded run's params (tick_phase_ns, set at import from its slice ends:
 * sl_ticks_phase), when their tick_phase_hz is hz; -1 otherwise (an older
 * import, another HZ, a tick it could not tell). */
int64_t sl_recording_tick_phase(const char *params, int hz);
/* Give the CPUs of t whose phase the tick preemptions did not tell (all of
 * them when t found no HZ) the recorded run's tick, its params'
 * tick_phase_ns (sched_stat_runtime's ticks or the clock reads', at
 * import): the kernel's ticks fall at one phase on every CPU (no
 * skew_tick). Nothing when the params have no phase or another HZ; t must
 * have been filled by sl_estimate_ticks; ncpu is the CPUs to cover. */
void sl_ticks_fill_recorded(struct sl_ticks *t, const char *params, int ncpu);
/* The recording kernel's sched_vcpu_pack bits, as its ledger gave them to
 * the import (the recorded run's params vcpu_pack; docs/ledger.md), or -1
 * when the recording does not say. */
int sl_recording_vcpu_pack(const struct sl_run_data *rec);
/* The recording kernel's scheduler features, as its ledger gave them to the
 * import (the recorded run's params sched_features: "NAME=1,NAME=0,...";
 * docs/ledger.md) into out; -1 when it has none (or out is too short). */
int sl_recording_sched_features(const struct sl_run_data *rec, char *out, size_t len);

/* The same estimate with each CPU's tick phase: hz (0: cannot tell), and
 * per CPU the circular mean, modulo 1e9/hz ns, of its tick preemptions'
 * ends (-1 where fewer than 10 or not bunched: resultant length < 0.5).
 * 0 or -1 as sl_estimate_hz; release with sl_ticks_release either way. */
int sl_estimate_ticks(const struct sl_run_data *rec, struct sl_ticks *t);

/* The tasks that read their own CPU clock while they run, marked
 * SL_TASK_POLLS in b (docs/model.md "Clock reads"): such a read runs the
 * scheduler's update_curr (task_sched_runtime, kernel/sched/core.c), so the
 * kernel cuts their slices when the slice runs out, wherever the tick is;
 * any other task's expiry is seen at a tick or a wakeup. A task is marked
 * when at least SL_POLL_MIN of its slices that ended runnable with no
 * wakeup in the 100 us before end further than SL_POLL_TICK_NS from a tick
 * of their CPU (the tick as sl_estimate_ticks finds it from those ends),
 * and those are at least 60 % of them. o's wakeups are sorted in place.
 * Returns the number marked (0 when the tick cannot be told). */
#define SL_POLL_MIN 10
#define SL_POLL_TICK_NS 200000.0
size_t sl_mark_polls(struct sl_behaviour *b, const struct sl_poll_obs *o, const struct sl_ticks *t);
/* The tick of a recorded run from the slice ends and wakeups o saw (as
 * sl_estimate_ticks: the slices that ended runnable with no wakeup in the
 * 100 us before; those left out get cpu -1 in o). 0, or -1 when it cannot
 * tell; release t either way. */
int sl_poll_ticks(struct sl_poll_obs *o, struct sl_ticks *t);

/* Timers that fire at the tick (docs/model.md): a sleep ended by an
 * interrupt's or the idle task's wakeup (a phase with wake_ts) within
 * SL_TICK_TIMER_NS (at most a twentieth of the tick) of a tick of the CPU
 * it fired on was a timer-wheel timer's (schedule_timeout, a workqueue's
 * delayed work: run_timer_softirq runs them only at the tick); each gets
 * tick_n, the ticks from its sleep's start to that one. The window is
 * about the estimated tick, which comes after the tick's own work (the
 * slice ends it is estimated from: 35-80 us late on this machine's
 * recordings, where the timers' wakeups fell 60 us before to 20 us after
 * it). Only the tasks with at least half their interrupt sleeps so ended are
 * marked: an hrtimer's wakeups (nanosleep, poll, cyclictest) fall near a
 * tick by chance only. Returns the number marked. */
#define SL_TICK_TIMER_NS 100000.0
size_t sl_mark_tick_timers(struct sl_behaviour *b, const struct sl_ticks *t);

#endif
