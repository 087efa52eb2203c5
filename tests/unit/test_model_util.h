/* tests/unit/test_model_util.h - helpers for the tests that feed the
 * collector's model events by hand: an event builder and a wakeup sink that
 * keeps nothing. */
#ifndef SL_TEST_MODEL_UTIL_H
#define SL_TEST_MODEL_UTIL_H

#include "../../collector/event.h"
#include "../../collector/model.h"

#include <stdlib.h>

/* An event: type, ts, cpu, current pid, pid, next pid (a switch's), prev
 * state; both prios 120, context known, the target CPU its own; every
 * other field as sl_event_clear leaves it. */
static inline struct sl_event test_model_event(int type, uint64_t ts, int cpu, int cur, int pid, int pid2,
					       char st)
{
	struct sl_event e;
	sl_event_clear(&e);
	e.type = (uint16_t)type;
	e.ts = ts;
	e.cpu = cpu;
	e.cur_pid = cur;
	e.pid = pid;
	e.pid2 = pid2;
	e.prio = e.prio2 = 120;
	e.state = st;
	e.target_cpu = cpu;
	e.ctx = SL_CTX_KNOWN;
	return e;
}

/* a run sink's wakeup callback that keeps nothing */
static inline int test_model_no_wake(void *ctx, int task, uint64_t ts, uint64_t ts_run, int waker, int cpu)
{
	(void)ctx, (void)task, (void)ts, (void)ts_run, (void)waker, (void)cpu;
	return 0;
}

/* a run sink's slice callback that keeps nothing */
static inline int test_model_no_slice(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task, char st, int prio)
{
	(void)ctx, (void)ts, (void)dur, (void)cpu, (void)task, (void)st, (void)prio;
	return 0;
}

/* free what sl_model_finish handed out, and the model */
static inline void test_model_done(struct sl_model *m, struct sl_behaviour *b, uint64_t *first,
				   uint64_t *last, struct sl_model_stats *st)
{
	free(first);
	free(last);
	free(st->lost_per_cpu);
	free(st->uncertain_ns);
	free(st->work);
	sl_behaviour_release(b);
	sl_model_free(m);
}

#endif
