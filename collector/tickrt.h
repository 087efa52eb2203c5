/* collector/tickrt.h - the tick from sched_stat_runtime (docs/validate.md
 * "Which model" (the HZ)): the kernel's scheduler tick runs update_curr for the running
 * task (task_tick_fair -> entity_tick -> update_curr, kernel/sched/fair.c,
 * v6.6-v6.18), which fires sched_stat_runtime on the tick's CPU at the
 * tick. Every other update_curr goes with a switch on that CPU (the
 * dequeue, put_prev_task and yield_task_fair before it), with a wakeup or a
 * move aimed at it (the enqueue and wakeup_preempt), or with a task reading
 * its own CPU clock (task_sched_runtime), which reads come in storms. The
 * model builder keeps the three kinds of marks while it reads; when the
 * pass is over the runtime events with no switch, no aimed event and no
 * other such event near them are the tick's, whose ends give the tick as
 * the tick preemptions do (common/ticks.h). */
#ifndef SL_TICKRT_H
#define SL_TICKRT_H

#include <stddef.h>
#include <stdint.h>

#include "../common/ticks.h"

enum { SL_TM_RUNTIME, SL_TM_SWITCH, SL_TM_AIMED };

/* CPUs above this are left out (a corrupt CPU number must not make us
 * allocate for it) */
#define SL_TICKRT_MAXCPU 4096

struct sl_tickcpu {
	uint64_t last_sw, last_aim; /* UINT64_MAX: none yet */
	uint64_t pend;              /* the runtime event held ... */
	int have_pend;              /* ... if any */
};

struct sl_tickrt {
	struct sl_tickcpu *c;
	size_t ncpu, ccap;
	uint64_t *end;  /* the lone runtime events kept ... */
	int *cpu;       /* ... and their CPUs (-1: dropped) */
	size_t n, cap, cap2;
	size_t nrt;     /* runtime events seen */
};

/* A mark, in time order: a sched_stat_runtime, a sched_switch on cpu, or a
 * wakeup or move aimed at cpu (-1: every CPU). */
void sl_tickrt_add(struct sl_tickrt *t, uint64_t ts, int cpu, int kind);
/* The estimate of sl_ticks_from_ends over the lone runtime events;
 * *lone = how many. 0, or -1 when
 * it cannot tell (no runtime event, too few, too spread); release out
 * either way. Once. */
int sl_tickrt_estimate(struct sl_tickrt *t, struct sl_ticks *out, size_t *lone);
void sl_tickrt_free(struct sl_tickrt *t);

#endif
