/* tests/unit/test_interference.c - replay --interference none
 * (replay/interference.c): bursts lose their interference, and progress
 * points move to the same point of the task's work. Expected values are
 * worked by hand in the comments. */
#include "harness.h"
#include "../../replay/interference.h"

#include <string.h>

SL_TEST(interference_work_only)
{
	struct sl_phase p0[2], p1[1];
	struct sl_task_spec t[2];
	struct sl_behaviour b;
	memset(p0, 0, sizeof(p0));
	memset(p1, 0, sizeof(p1));
	memset(t, 0, sizeof(t));
	memset(&b, 0, sizeof(b));
	/* task 0: 1000 ns of which 200 interference, then 2000 of which 400 */
	p0[0].run_ns = 1000;
	p0[0].irq_ns = 200;
	p0[0].end = SL_END_SLEEP_S;
	p0[0].waker = -1;
	p0[1].run_ns = 2000;
	p0[1].irq_ns = 400;
	p0[1].end = SL_END_EXIT;
	p0[1].waker = -1;
	/* task 1: started by task 0 at its CPU time 1000 (the end of its first
	 * burst), woken by it at its CPU time 2000 (halfway through its second
	 * burst) */
	p1[0].run_ns = SL_INF;
	p1[0].end = SL_END_TRACE;
	p1[0].waker = 0;
	p1[0].waker_progress_ns = 2000;
	t[0].phases = p0;
	t[0].nphases = 2;
	t[0].parent = -1;
	t[1].phases = p1;
	t[1].nphases = 1;
	t[1].parent = 0;
	t[1].parent_progress_ns = 1000;
	b.tasks = t;
	b.ntasks = 2;
	CHECK_EQ_INT(sl_behaviour_irq_ns(&b), 600);
	/* 200 + 400 taken out */
	CHECK_EQ_INT(sl_behaviour_work_only(&b), 600);
	CHECK_EQ_INT(p0[0].run_ns, 800);
	CHECK_EQ_INT(p0[1].run_ns, 1600);
	CHECK_EQ_INT(p0[0].irq_ns, 0);
	/* the start: after the whole first burst, 200 of interference before
	 * it: 1000 - 200 = 800 */
	CHECK_EQ_INT(t[1].parent_progress_ns, 800);
	/* the wakeup: 200 + 400 x 1000 / 2000 = 400 before it: 1600 */
	CHECK_EQ_INT(p1[0].waker_progress_ns, 1600);
	CHECK(p1[0].run_ns == SL_INF);
	CHECK_EQ_INT(sl_behaviour_irq_ns(&b), 0);
}
