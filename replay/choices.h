/* replay/choices.h - the choice options of a replay (replay --mode,
 * --sync, --wake-cpu, --irq-cpu, --preempt; validate and sweep --mode) as
 * tables (common/choice.h): the names the command line takes, -h shows and
 * a run's params JSON stores (docs/replay.md). */
#ifndef SL_REPLAY_CHOICES_H
#define SL_REPLAY_CHOICES_H

#include <stddef.h>
#include "../common/choice.h"

extern const struct sl_choice sl_mode_choices[];     /* enum sl_replay_mode */
extern const struct sl_choice sl_sync_choices[];     /* enum sl_sync_mode */
extern const struct sl_choice sl_wake_cpu_choices[]; /* enum sl_wake_cpu_mode */
extern const struct sl_choice sl_irq_cpu_choices[];  /* enum sl_irq_cpu_mode, auto's
						      * help without the models */
extern const struct sl_choice sl_preempt_choices[];  /* enum sl_preempt_model */
extern const struct sl_choice sl_late_cpus_choices[]; /* enum sl_late_cpus_mode */
extern const struct sl_choice sl_handback_choices[]; /* enum sl_handback_mode */
extern const struct sl_choice sl_wall_choices[];     /* enum sl_wall_mode */
extern const struct sl_choice sl_tick_timer_choices[]; /* enum sl_tick_timer_mode */
extern const struct sl_choice sl_reap_choices[];       /* enum sl_reap_mode */
extern const struct sl_choice sl_hrt_slack_choices[]; /* enum sl_hrt_slack_mode */
extern const struct sl_choice sl_abs_timer_choices[]; /* enum sl_abs_timer_mode */

/* "relative for rsdl, o1, sd, cfs and eevdf": what --irq-cpu auto is for
 * each model of the policy table (sl_irq_cpu_mode_of), in buf. */
void sl_irq_cpu_auto_help(char *buf, size_t len);

/* --irq-cpu's table for a command's options: sl_irq_cpu_choices with auto's
 * help (sl_irq_cpu_auto_help, in auto_help[len]) into out[8] */
void sl_irq_cpu_table(struct sl_choice out[8], char *auto_help, size_t len);

#endif
