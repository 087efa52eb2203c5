/* tests/unit/test_eevdf_fork.c - a new task does not preempt the running
 * one in this machine's kernel (docs/eevdf.md, "Forks do not preempt"):
 * check_preempt_wakeup_fair() of v6.19 (this machine's 6.18.44 has it)
 * runs update_curr() and returns for WF_FORK before its pick; up to v6.18
 * the child preempted when __pick_eevdf() chose it (fork_preempt=1). Worked
 * out by hand from kernel/sched/fair.c's rules (docs/eevdf.md, rules 5-9).
 *
 * One CPU, HZ 1000, the 0.70 ms slice. H (nice 0, weight 1024) and P (nice
 * 5, weight 335) appear at 0, each with half a slice: H at v 0, deadline
 * 350000; P at v 0, deadline calc_delta_fair(700000, nice 5) / 2 =
 * 2139701 / 2 = 1069850. H runs (the earlier deadline). The 1 ms tick: v_H
 * 1000000, past its deadline (a new one at 1700000); V = 1024 * 1e6 / 1359
 * = 753495, so H is not eligible and P is: P runs from 1 ms, protected to
 * its deadline (RUN_TO_PARITY). P forks C (nice 0) at 340 us of its CPU
 * time, 1.34 ms: v_P = calc_delta_fair(340000, nice 5) = 1039283, inside
 * its request; V = (1024 * 1000000 + 335 * 1039283) / 1359 = 1009683, so P
 * is not eligible (its protection no longer counts). C is placed at V with
 * half a slice: v 1009683, deadline 1359683; H and C are eligible, C's
 * deadline the earliest.
 * - fork_preempt=1: C is the pick: it preempts P and runs at 1.34 ms.
 * - fork_preempt=0 (the default): update_curr alone, and P's slice is not
 *   over: P runs on to the 2 ms tick (v_P 3056716, a new deadline: a
 *   pick), where C (deadline 1359683, eligible) runs. */
#include "harness.h"
#include "test_engine_util.h"

#include <string.h>

static uint64_t child_first_run(const char *opts)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_task_spec *t;
	struct trec r;
	uint64_t first = UINT64_MAX;
	memset(&b, 0, sizeof(b));
	b.cpus = 1;
	add_hog(&b, "H", 0, 0);
	t = add_task(&b, "P", 5, 0);
	add_phase(t, 3 * TMS, SL_END_EXIT, 0, 0, -1, 0);
	t = add_task(&b, "C", 0, 0);
	t->parent = 1;
	t->parent_progress_ns = 340 * 1000;
	t->flags = SL_TASK_FORKED;
	add_phase(t, 1 * TMS, SL_END_EXIT, 0, 0, -1, 0);
	sl_replay_opts_init(&o);
	o.cpus = 1;
	o.hz = 1000;
	o.mode = SL_MODE_CAUSAL;
	o.duration_ns = 8 * TMS;
	o.policy_opts = opts;
	if (trun_opts(&b, "eevdf", &o, &r, NULL) == 0)
		first = trun_first_run(&r, 2);
	trec_free(&r);
	sl_behaviour_release(&b);
	return first;
}

SL_TEST(eevdf_fork_does_not_preempt)
{
	CHECK_EQ_INT(child_first_run(NULL), 2 * TMS);
	CHECK_EQ_INT(child_first_run("fork_preempt=0"), 2 * TMS);
	CHECK_EQ_INT(child_first_run("fork_preempt=1"), 1340 * 1000ULL);
}
