/* tests/unit/test_workload.c - the workload file reader (docs/replay.md, "Workload files"). */
#include "harness.h"
#include "../../replay/workload.h"

#include <string.h>

static int parse(const char *text, struct sl_behaviour *b, struct sl_diag *d)
{
	return sl_workload_parse_text(text, strlen(text), "w.txt", b, d);
}

SL_TEST(workload_design_example)
{
	/* The example of the workload format (docs/replay.md, "Workload files"), field by field. */
	const char *w = "# name    nice   behaviour\n"
			"hog       0      run=inf\n"
			"x11       0      run=2ms  sleep=18ms\n"
			"audio    -5      run=0.5ms sleep=5ms start=100ms\n"
			"make      10     run=40ms sleep=3ms count=200\n";
	struct sl_behaviour b;
	struct sl_diag d = { { 0 }, 0, 0 };
	CHECK_EQ_INT(parse(w, &b, &d), 0);
	CHECK_EQ_INT(b.ntasks, 4);
	CHECK_EQ_INT(b.cpus, 1);
	CHECK_STR(b.tasks[0].comm, "hog");
	CHECK(b.tasks[0].run_ns == SL_INF);
	CHECK_EQ_INT(b.tasks[1].run_ns, 2000000);
	CHECK_EQ_INT(b.tasks[1].sleep_ns, 18000000);
	CHECK_EQ_INT(b.tasks[1].count, 0);
	CHECK_EQ_INT(b.tasks[2].nice, -5);
	CHECK_EQ_INT(b.tasks[2].run_ns, 500000);
	CHECK_EQ_INT(b.tasks[2].start_ns, 100000000);
	CHECK_EQ_INT(b.tasks[3].nice, 10);
	CHECK_EQ_INT(b.tasks[3].count, 200);
	CHECK_EQ_INT(b.tasks[3].idx, 3);
	CHECK_EQ_INT(b.tasks[3].parent, -1);
	CHECK_EQ_INT(b.tasks[3].initially_runnable, 1);
	sl_behaviour_release(&b);
}

SL_TEST(workload_cpus_extension)
{
	struct sl_behaviour b;
	struct sl_diag d = { { 0 }, 0, 0 };
	CHECK_EQ_INT(parse("a 0 run=1ms sleep=1ms cpus=0,2-3\n", &b, &d), 0);
	CHECK_EQ_INT(b.tasks[0].cpumask, 0xd); /* bits 0, 2, 3 */
	sl_behaviour_release(&b);
}

SL_TEST(workload_errors_name_file_and_line)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "a 0 run=inf\n\nb 0 run=fast\n", "w.txt:3: run=fast" },
		{ "a 30 run=inf\n", "w.txt:1: nice '30'" },
		{ "a 0 sleep=1ms\n", "w.txt:1: run=T or run=inf is required" },
		{ "a 0 run=1ms jitter=2ms\n", "w.txt:1: unknown key 'jitter'" },
		{ "a 0 run=1ms\na 0 run=2ms\n", "w.txt:2: task name 'a' used twice" },
		{ "a 0\n", "w.txt:1: expected NAME NICE" },
		{ "a 0 run=1ms count=0\n", "w.txt:1: count=0" },
		{ "a 0 run=1ms cpus=x\n", "w.txt:1: cpus=x" },
		{ "# only a comment\n", "w.txt: no tasks" },
		{ "a 0 run1ms\n", "w.txt:1: 'run1ms': expected KEY=VALUE" },
	};
	size_t i;
	for (i = 0; i < SL_ARRAY_SIZE(cases); i++) {
		struct sl_behaviour b;
		struct sl_diag d = { { 0 }, 0, 0 };
		CHECK_EQ_INT(parse(cases[i].text, &b, &d), -1);
		if (!strstr(d.msg, cases[i].msg))
			fprintf(stderr, "  case %zu: '%s' lacks '%s'\n", i, d.msg, cases[i].msg);
		CHECK(strstr(d.msg, cases[i].msg) != NULL);
		CHECK_EQ_INT(b.ntasks, 0);
	}
}

SL_TEST(workload_periodic_phases)
{
	/* count=2: two phases, the first ends in a timed sleep (IRQ waker), the
	 * second in an exit; run=inf: one endless phase ending the trace. */
	struct sl_behaviour b;
	struct sl_diag d = { { 0 }, 0, 0 };
	struct sl_phase ph = { 0 };
	CHECK_EQ_INT(parse("a 0 run=1ms sleep=2ms count=2\nh 0 run=inf\n", &b, &d), 0);
	CHECK_EQ_INT(sl_task_phase(&b.tasks[0], 0, &ph), 0);
	CHECK_EQ_INT(ph.end, SL_END_SLEEP_S);
	CHECK_EQ_INT(ph.waker_kind, SL_WAKER_IRQ);
	CHECK_EQ_INT(sl_task_phase(&b.tasks[0], 1, &ph), 0);
	CHECK_EQ_INT(ph.end, SL_END_EXIT);
	CHECK_EQ_INT(sl_task_phase(&b.tasks[0], 2, &ph), -1);
	CHECK_EQ_INT(sl_task_phase(&b.tasks[1], 5, &ph), 0);
	CHECK_EQ_INT(ph.end, SL_END_TRACE);
	sl_behaviour_release(&b);
}
