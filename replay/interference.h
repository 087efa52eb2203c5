/* replay/interference.h - a behaviour's bursts without their recorded
 * interference (replay --interference none; docs/replay.md "Work and
 * interference").
 *
 * A phase's run_ns is the wall time the recorded run gave the burst; its
 * irq_ns the part the kernel did not charge to the task (IRQ and steal
 * time, from sched_stat_runtime: docs/model.md "Work and interference").
 * The bursts as recorded (--interference recorded, the default) replay the
 * recorded run's wall time; without it each burst is its work alone. */
#ifndef SL_INTERFERENCE_H
#define SL_INTERFERENCE_H

#include "../common/behaviour.h"
#include "../common/choice.h"

/* replay/validate --interference */
enum { SL_INTERFERENCE_RECORDED = 0, SL_INTERFERENCE_NONE = 1 };
extern const struct sl_choice sl_interference_choices[];

/* Take every phase's interference out of its run (irq_ns becomes 0), and
 * map the progress points that name a task's CPU time (a waker's, a
 * parent's) to the same point of its work. Returns the interference taken
 * out, ns. */
uint64_t sl_behaviour_work_only(struct sl_behaviour *b);
/* The behaviour's recorded interference, ns (0: none known). */
uint64_t sl_behaviour_irq_ns(const struct sl_behaviour *b);

#endif
