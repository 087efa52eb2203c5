/* tests/unit/test_tickrt.c - the tick from sched_stat_runtime
 * (collector/tickrt.c, docs/validate.md "Which model" (the HZ)): which runtime events
 * are the scheduler tick's, on marks laid out by hand. */
#include "harness.h"
#include "../../collector/tickrt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define US 1000ULL

/* the marks of a test, given in any order, handed over in time order as
 * the model reads them */
struct mk {
	uint64_t ts;
	int cpu, kind;
};
static struct mk marks[2000];
static size_t nmarks;

static void mark(uint64_t ts, int cpu, int kind)
{
	marks[nmarks].ts = ts;
	marks[nmarks].cpu = cpu;
	marks[nmarks++].kind = kind;
}

static int mk_cmp(const void *a, const void *b)
{
	const struct mk *x = a, *y = b;
	return (x->ts > y->ts) - (x->ts < y->ts);
}

static void feed(struct sl_tickrt *t)
{
	size_t i;
	qsort(marks, nmarks, sizeof(*marks), mk_cmp);
	for (i = 0; i < nmarks; i++)
		sl_tickrt_add(t, marks[i].ts, marks[i].cpu, marks[i].kind);
	nmarks = 0;
}

SL_TEST(tickrt_lone_runtime_events_are_the_tick)
{
	struct sl_tickrt t;
	struct sl_ticks tk;
	size_t lone;
	uint64_t k;
	memset(&t, 0, sizeof(t));
	/* CPU 0, 400 ms of a hog: a tick every 4 ms at phase 100 us (the
	 * tick's update_curr: a runtime event, with another of the same task
	 * before its next switch) -> 100 lone events; the hog's switch-out
	 * every 8 ms at +2500 us, its runtime event 1 us before: not lone
	 * (the last before a switch) */
	for (k = 0; k < 100; k++)
		mark(k * 4000 * US + 100 * US, 0, SL_TM_RUNTIME);
	for (k = 0; k < 50; k++) {
		mark(k * 8000 * US + 2499 * US, 0, SL_TM_RUNTIME);
		mark(k * 8000 * US + 2500 * US, 0, SL_TM_SWITCH);
	}
	/* a wakeup aimed at CPU 0 every 8 ms at +6000 us, the enqueue's
	 * update_curr 1 us after the sched_waking: not lone (within 20 us) */
	for (k = 0; k < 50; k++) {
		mark(k * 8000 * US + 6000 * US, 0, SL_TM_AIMED);
		mark(k * 8000 * US + 6001 * US, 0, SL_TM_RUNTIME);
	}
	/* a stall every 1 ms at +750 us (the host): a yield's update_curr
	 * and its switch 35 us later, 400 times: the last before a switch,
	 * however late, so not lone. (Taken for lone, these 400 would make
	 * 1000 Hz the better bunching.) Those at +2750 us of every 8 ms
	 * fall 250 us after the hog's switch-out: fine too. */
	for (k = 0; k < 400; k++) {
		mark(k * 1000 * US + 750 * US, 0, SL_TM_RUNTIME);
		mark(k * 1000 * US + 785 * US, 0, SL_TM_SWITCH);
	}
	/* a clock reader's storm: 50 runtime events 2 us apart at 200 ms +
	 * 1300 us, no switch among them: all within 100 us of one another,
	 * none lone */
	for (k = 0; k < 50; k++)
		mark(200000 * US + 1300 * US + 2 * US * k, 0, SL_TM_RUNTIME);
	feed(&t);
	CHECK_EQ_INT(sl_tickrt_estimate(&t, &tk, &lone), 0);
	/* lone: the 100 ticks, but the one of 200 ms + 0.1 ms has no switch
	 * before the storm (the next runtime event of the CPU is the storm's,
	 * 1.2 ms later: lone by the switch rule) and stays: 100. */
	CHECK_EQ_INT(lone, 100);
	CHECK_EQ_INT(tk.hz, 250);
	CHECK_EQ_INT(tk.samples, 100);
	CHECK(tk.conc > 0.999);
	CHECK(tk.ncpu == 1 && fabs(tk.phase_ns[0] - 100000.0) < 1.0);
	sl_ticks_release(&tk);
	sl_tickrt_free(&t);
}

SL_TEST(tickrt_none_without_runtime_events)
{
	struct sl_tickrt t;
	struct sl_ticks tk;
	size_t lone;
	memset(&t, 0, sizeof(t));
	sl_tickrt_add(&t, 1000, 0, SL_TM_SWITCH);
	sl_tickrt_add(&t, 2000, -1, SL_TM_AIMED);
	CHECK_EQ_INT(sl_tickrt_estimate(&t, &tk, &lone), -1);
	CHECK_EQ_INT(tk.hz, 0);
	CHECK_EQ_INT(lone, 0);
	sl_ticks_release(&tk);
	sl_tickrt_free(&t);
}
