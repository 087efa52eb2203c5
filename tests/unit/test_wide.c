/* tests/unit/test_wide.c - wide wakees (docs/model.md "Wide wakees"): the
 * collector marks a task whose interrupt wakeups from the other, busy CPU
 * left it where it slept (SL_TASK_WIDE), and eevdf starts it with the
 * wakee_flips that make wake_wide() keep it there. Every expected value is
 * worked out by hand in the comments. */
#include "harness.h"
#include "test_model_util.h"
#include "../../collector/model.h"
#include "../../replay/eevdf.h"

#include <stdlib.h>
#include <string.h>

#define US 1000ULL

static void feed(struct sl_model *m, struct sl_event e)
{
	sl_model_event(m, &e);
}

/* Two CPUs: A (pid 10) runs on CPU 0, B (pid 11) on CPU 1, throughout. K
 * (pid 12) runs once on CPU 0 and sleeps; then `n` times an interrupt on
 * CPU 1 (B running; `idle1`: CPU 1 idle instead) wakes it, and it runs
 * 100 us and sleeps again: on CPU 0 (where it slept) the first `stay`
 * times, then on CPU 1. Returns K's flags. */
static uint32_t wide_run(int n, int stay, int idle1)
{
	struct sl_run_sink sink = { .ctx = NULL, .slice = test_model_no_slice, .wakeup = test_model_no_wake };
	struct sl_diag d;
	struct sl_model *m;
	struct sl_behaviour b;
	struct sl_model_stats st;
	uint64_t *first, *last, t = 1000 * US;
	uint32_t flags = 0;
	struct sl_event e;
	int k, kcpu = 0;
	size_t i;
	memset(&d, 0, sizeof(d));
	m = sl_model_new(&sink, &d);
	feed(m, test_model_event(SL_EV_SWITCH, 0, 0, 0, 0, 10, 'R'));
	feed(m, test_model_event(SL_EV_SWITCH, 0, 1, 0, 0, idle1 ? 0 : 11, 'R'));
	feed(m, test_model_event(SL_EV_SWITCH, 10 * US, 0, 10, 10, 12, 'R'));
	feed(m, test_model_event(SL_EV_SWITCH, 20 * US, 0, 12, 12, 10, 'S'));
	for (k = 0; k < n; k++, t += 1000 * US) {
		int other = k >= stay; /* runs on CPU 1 this time */
		int on = other ? 1 : 0, cur = on ? (idle1 ? 0 : 11) : 10;
		e = test_model_event(SL_EV_WAKEUP, t, 1, idle1 ? 0 : 11, 12, 0, 0);
		e.ctx |= SL_CTX_HARDIRQ;
		e.target_cpu = on;
		feed(m, e);
		feed(m, test_model_event(SL_EV_SWITCH, t + 10 * US, on, cur, cur, 12, 'R'));
		feed(m, test_model_event(SL_EV_SWITCH, t + 110 * US, on, 12, 12, cur, 'S'));
		kcpu = on;
	}
	(void)kcpu;
	sl_model_finish(m, &b, &first, &last, &st);
	for (i = 0; i < b.ntasks; i++)
		if (b.tasks[i].tid == 12)
			flags = b.tasks[i].flags;
	test_model_done(m, &b, first, last, &st);
	return flags;
}

SL_TEST(model_marks_wide_wakees)
{
	/* 3 wakeups from CPU 1 (B interrupted) while A runs on CPU 0, K's
	 * CPU: all 3 run on CPU 0: stays 3 >= SL_WIDE_MIN and >= 2 * 0 */
	CHECK(wide_run(3, 3, 0) & SL_TASK_WIDE);
	/* 2 only: under SL_WIDE_MIN */
	CHECK(!(wide_run(2, 2, 0) & SL_TASK_WIDE));
	/* 5: 3 stay, then 2 on CPU 1: the 4th woke it on CPU 0 (it slept
	 * there) and it ran on CPU 1: a move; the 5th found it asleep on
	 * CPU 1 and the interrupt is on CPU 1: its own CPU, not counted.
	 * Stays 3 >= 2 * 1 moves: wide */
	CHECK(wide_run(5, 3, 0) & SL_TASK_WIDE);
	/* 6: 3 stays, then 3 on CPU 1: one move (the 4th; the 5th and 6th
	 * are on its own CPU): 3 >= 2: wide. With 1 stay and 5 on CPU 1:
	 * stays 1 < 3: not */
	CHECK(wide_run(6, 3, 0) & SL_TASK_WIDE);
	CHECK(!(wide_run(6, 1, 0) & SL_TASK_WIDE));
	/* CPU 1 idle when the interrupt fires: wake_affine_idle's case, not
	 * the busy one: none counted, not wide */
	CHECK(!(wide_run(4, 4, 1) & SL_TASK_WIDE));
}

/* wake_wide() with 2 CPUs (llc_size 2): a task that wakes no one has
 * wakee_flips 0 (the smaller: 0 < 2, never wide); started at 2 (a task
 * marked wide, eevdf.c), it is wide beside a current whose flips are at
 * least 4 (2 * 2), as the hog measured with bpftrace on this machine whose
 * interrupts woke 3-16 different tasks (docs/model.md "Wide wakees"):
 * (3, 2): 3 < 4, not wide; (4, 2) wide; (16, 2) wide; (16, 1): 1 < 2 not. */
SL_TEST(eevdf_wake_wide_needs_both_flips)
{
	CHECK_EQ_INT(sl_eevdf_wake_wide(16, 0, 2), 0);
	CHECK_EQ_INT(sl_eevdf_wake_wide(3, 2, 2), 0);
	CHECK_EQ_INT(sl_eevdf_wake_wide(4, 2, 2), 1);
	CHECK_EQ_INT(sl_eevdf_wake_wide(2, 4, 2), 1);
	CHECK_EQ_INT(sl_eevdf_wake_wide(16, 2, 2), 1);
	CHECK_EQ_INT(sl_eevdf_wake_wide(16, 1, 2), 0);
}
