/* tests/unit/test_early_wake.c - wakeups on the way to sleep (docs/model.md
 * "Wakeups on the way to sleep"): a task's sched_waking that comes while
 * the wakee still runs, with no sched_wakeup after it, is the wakeup that
 * the sched_wakeup after the wakee's switch-out completes (fired by the
 * idle task or an interrupt of the wakee's CPU, ttwu_queue_wakelist). Every
 * expected value is worked out by hand in the comments. */
#include "harness.h"
#include "test_model_util.h"
#include "../../collector/model.h"

#include <stdlib.h>
#include <string.h>

#define US 1000ULL

static void feed(struct sl_model *m, struct sl_event e)
{
	CHECK_EQ_INT(sl_model_event(m, &e), 0);
}

/* Two CPUs. W (pid 20) runs on CPU 0 from 0, S (pid 21) on CPU 1 from 0.
 * At 100 us W's sched_waking names S, while S still runs; then:
 *  kind 0: S switches out asleep at 101 us (to idle), and CPU 1's idle task
 *          fires S's sched_wakeup at 120 us (the wake list's IPI);
 *  kind 1: S's sched_wakeup follows at once at 102 us, S still running
 *          (ttwu_runnable: it never slept); S switches out asleep at 300 us
 *          and the idle task of CPU 1 wakes it at 400 us (a timer);
 *  kind 2: as 0, but the switch-out comes at 400 us, 300 us after the
 *          waking (more than 100 us: not the same going to sleep).
 * S then runs from 130 us (kind 0) or 410 us. Returns S's first phase:
 * kind 0: a sleep of 120 - 101 = 19 us, woken by the task W at W's CPU time
 *         at 100 us, 100 us (W ran from 0 on CPU 0);
 * kind 1: a sleep of 400 - 300 = 100 us woken by the idle task (no waker);
 * kind 2: a sleep of 20 us woken by the idle task. */
static struct sl_phase early_run(int kind, int *waker_tid)
{
	struct sl_run_sink sink = { .ctx = NULL, .slice = test_model_no_slice, .wakeup = test_model_no_wake };
	struct sl_diag d;
	struct sl_model *m;
	struct sl_behaviour b;
	struct sl_model_stats st;
	uint64_t *first, *last, out = kind == 0 ? 101 * US : kind == 1 ? 300 * US : 400 * US;
	uint64_t wake = kind == 0 ? 120 * US : kind == 1 ? 400 * US : 420 * US;
	struct sl_phase ph;
	struct sl_event e;
	size_t i;
	memset(&d, 0, sizeof(d));
	memset(&ph, 0, sizeof(ph));
	*waker_tid = -1;
	m = sl_model_new(&sink, &d);
	feed(m, test_model_event(SL_EV_SWITCH, 0, 0, 0, 0, 20, 'R'));
	feed(m, test_model_event(SL_EV_SWITCH, 0, 1, 0, 0, 21, 'R'));
	e = test_model_event(SL_EV_WAKING, 100 * US, 0, 20, 21, 0, 0);
	e.target_cpu = 1;
	feed(m, e);
	if (kind == 1) {
		e = test_model_event(SL_EV_WAKEUP, 102 * US, 1, 21, 21, 0, 0);
		feed(m, e);
	}
	feed(m, test_model_event(SL_EV_SWITCH, out, 1, 21, 21, 0, 'S'));
	feed(m, test_model_event(SL_EV_WAKEUP, wake, 1, 0, 21, 0, 0));
	feed(m, test_model_event(SL_EV_SWITCH, wake + 10 * US, 1, 0, 0, 21, 'R'));
	feed(m, test_model_event(SL_EV_SWITCH, wake + 50 * US, 1, 21, 21, 0, 'S'));
	sl_model_finish(m, &b, &first, &last, &st);
	for (i = 0; i < b.ntasks; i++)
		if (b.tasks[i].tid == 21 && b.tasks[i].nphases)
			ph = b.tasks[i].phases[0];
	if (ph.waker >= 0 && (size_t)ph.waker < b.ntasks)
		*waker_tid = b.tasks[ph.waker].tid;
	test_model_done(m, &b, first, last, &st);
	return ph;
}

SL_TEST(model_wakeup_on_the_way_to_sleep)
{
	int w;
	struct sl_phase ph = early_run(0, &w);
	CHECK_EQ_INT(ph.waker_kind, SL_WAKER_TASK);
	CHECK_EQ_INT(w, 20);
	CHECK_EQ_INT(ph.waker_progress_ns, 100 * US);
	CHECK_EQ_INT(ph.sleep_ns, 19 * US);
	ph = early_run(1, &w);
	CHECK_EQ_INT(ph.waker_kind, SL_WAKER_IDLE);
	CHECK_EQ_INT(ph.sleep_ns, 100 * US);
	ph = early_run(2, &w);
	CHECK_EQ_INT(ph.waker_kind, SL_WAKER_IDLE);
	CHECK_EQ_INT(ph.sleep_ns, 20 * US);
}
