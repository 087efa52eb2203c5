/* tests/unit/test_polls.c - tasks that read their own CPU clock
 * (docs/model.md "Clock reads"): the import's mark (sl_mark_polls) and
 * the eevdf model's continuous update_curr for them (the horizon of its
 * CPU's timer, and the slices a replay gives), each worked out by hand
 * from update_curr, update_deadline and pick_eevdf (kernel/sched/fair.c,
 * v6.18) and task_sched_runtime (kernel/sched/core.c). */
#include "harness.h"
#include "test_engine_util.h"
#include "../../analyze/hz.h"
#include "../../replay/eevdf.h"

#include <stdlib.h>
#include <string.h>

/* One CPU, slice 0.75 ms, tick 1 ms, nice 0 (weight 1024: a ns of CPU
 * time is a ns of vruntime). A alone at V = 0 (v 0, deadline 0.75 ms), B
 * joins with vlag -0.5 ms: lag -0.5 ms * 2048 / 1024 = -1 ms, v_B 1 ms,
 * deadline 1.75 ms. */
SL_TEST(polls_horizon)
{
	struct sl_eevdf_rq rq;
	struct sl_eevdf_se a, b;
	sl_eevdf_rq_init(&rq, 750000, 1000000);
	sl_eevdf_se_init(&a, 0, 0);
	sl_eevdf_se_init(&b, 1, 0);
	sl_eevdf_enqueue(&rq, &a, 0);
	sl_eevdf_set_next(&rq, &a);
	CHECK_EQ_INT(sl_eevdf_poll_horizon(&rq), UINT64_MAX); /* alone */
	b.vlag = -500000;
	sl_eevdf_enqueue(&rq, &b, 0);
	CHECK_EQ_INT(b.vruntime, 1000000);
	/* protected: until its deadline, 0.75 ms */
	CHECK_EQ_INT(sl_eevdf_poll_horizon(&rq), 750000);
	sl_eevdf_update_curr(&rq, 600000);
	CHECK_EQ_INT(sl_eevdf_poll_horizon(&rq), 150000);
	/* 0.2 ms more: v_A 800000 passes its deadline (new one 1.55 ms); V =
	 * (0.8 + 1.0) / 2 = 0.9 ms: A eligible, B not, A picked again and
	 * unprotected. Its deadline is 0.75 ms of vruntime away, but it turns
	 * ineligible when v_A passes v_B = 1 ms (V of the others): 200001 ns */
	CHECK_EQ_INT(sl_eevdf_update_curr(&rq, 200000), 1);
	CHECK(sl_eevdf_pick(&rq) == &a);
	CHECK_EQ_INT(sl_eevdf_poll_horizon(&rq), 200001);
	/* picked afresh: protected, its deadline 1.55 - 0.8 = 0.75 ms away */
	sl_eevdf_put_prev(&rq);
	sl_eevdf_set_next(&rq, &a);
	CHECK_EQ_INT(sl_eevdf_poll_horizon(&rq), 750000);
	sl_eevdf_rq_release(&rq);
}

/* The import's mark, on made slice ends at HZ 250 (4 ms): task 0 is
 * preempted by the tick 40 times (20 us after a tick of CPU 0 at k * 4
 * ms); task 1 twenty times 1.4 ms after a tick (a clock read cut it), and
 * once more right after a wakeup (a wakeup preemption: left out); task 2
 * six times off the tick (2 ms after it) and six at it (50 %, under the 60
 * % asked). The circular mean of all 72 ends would be 0.33 ms after the
 * tick (46 near 0 degrees, 20 at 126, 6 at 180 sum to (28.4, 16.2), 29.7
 * degrees), 310 us off task 0's ends; the tick's phase is the mean of the
 * densest bins (sl_ticks_from_ends), 21 us. */
SL_TEST(polls_mark)
{
	struct sl_behaviour b;
	struct sl_poll_obs o;
	int k;
	memset(&b, 0, sizeof(b));
	memset(&o, 0, sizeof(o));
	add_task(&b, "ticked", 0, 0);
	add_task(&b, "reader", 0, 0);
	add_task(&b, "half", 0, 0);
#define END(T_, K_) do { SL_GROW(o.r, o.rcap, o.nr + 1); \
	o.r[o.nr].ts = (T_); o.r[o.nr].cpu = 0; o.r[o.nr++].task = (K_); } while (0)
	for (k = 1; k <= 40; k++)
		END((uint64_t)k * 4 * TMS + 20000, 0);
	for (k = 41; k <= 60; k++)
		END((uint64_t)k * 4 * TMS + 1400000, 1);
	END(61 * 4 * TMS + 1400000, 1);
	SL_GROW(o.wk, o.wcap, o.nw + 1);
	o.wk[o.nw++] = 61 * 4 * TMS + 1350000; /* 50 us before that end */
	for (k = 62; k <= 67; k++)
		END((uint64_t)k * 4 * TMS + 2000000, 2);
	for (k = 68; k <= 73; k++)
		END((uint64_t)k * 4 * TMS + 30000, 2);
#undef END
	{
		struct sl_ticks t;
		CHECK_EQ_INT(sl_poll_ticks(&o, &t), 0);
		CHECK_EQ_INT(sl_mark_polls(&b, &o, &t), 1);
		sl_ticks_release(&t);
	}
	CHECK(!(b.tasks[0].flags & SL_TASK_POLLS));
	CHECK(b.tasks[1].flags & SL_TASK_POLLS);
	CHECK(!(b.tasks[2].flags & SL_TASK_POLLS));
	sl_poll_obs_release(&o);
	sl_behaviour_release(&b);
}

/* Two nice-0 hogs on one CPU at HZ 250, slice 0.70 ms; A reads its CPU
 * clock, B does not. Both start at V = 0 with half a slice (deadline 0.35
 * ms); A, queued first, runs. A is cut at its deadline, 0.35 ms (B: v 0 <=
 * V, deadline 0.35 ms against A's new 1.05 ms). B runs to the tick at 4 ms
 * (v_B 3.65 ms). A (v 0.35, eligible) runs from 4 ms; at its deadline, 4.7
 * ms, V = (1.05 + 3.65) / 2 = 2.35 ms leaves B (3.65) ineligible: A is
 * picked again, unprotected, and loses the CPU when it turns ineligible,
 * v_A = v_B + 1 ns = 3.650001 ms, at 7.300001 ms. B, picked afresh and
 * protected, runs past the tick at 8 ms (v_B 4.349999 ms, 1 ns short of
 * its deadline 4.35) to the run's end at 9 ms. Without the clock reads A
 * runs from 0 to the tick at 4 ms. */
SL_TEST(polls_cut_at_the_pick)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct trec r;
	struct sl_task_spec *a;
	memset(&b, 0, sizeof(b));
	b.cpus = 1;
	a = add_task(&b, "reader", 0, 0);
	add_phase(a, 1 * SL_NS_PER_SEC, SL_END_EXIT, 0, SL_WAKER_NONE, -1, 0);
	a->flags |= SL_TASK_POLLS;
	a = add_task(&b, "hog", 0, 0);
	add_phase(a, 1 * SL_NS_PER_SEC, SL_END_EXIT, 0, SL_WAKER_NONE, -1, 0);
	sl_replay_opts_init(&o);
	o.cpus = 1;
	o.hz = 250;
	o.duration_ns = 9 * TMS;
	CHECK_EQ_INT(trun_opts(&b, "eevdf", &o, &r, NULL), 0);
	CHECK_EQ_INT(r.ns, 4);
	if (r.ns == 4) {
		CHECK_EQ_INT(r.s[0].task, 0);
		CHECK_EQ_INT(r.s[0].ts + r.s[0].dur, 350000);
		CHECK_EQ_INT(r.s[1].task, 1);
		CHECK_EQ_INT(r.s[1].ts + r.s[1].dur, 4 * TMS);
		CHECK_EQ_INT(r.s[2].task, 0);
		CHECK_EQ_INT(r.s[2].ts + r.s[2].dur, 7300001);
		CHECK_EQ_INT(r.s[3].task, 1);
		CHECK_EQ_INT(r.s[3].ts + r.s[3].dur, 9 * TMS); /* the run's end */
	}
	trec_free(&r);
	/* the option off: A to the tick */
	sl_replay_opts_init(&o);
	o.cpus = 1;
	o.hz = 250;
	o.duration_ns = 9 * TMS;
	o.policy_opts = "clock_polls=0";
	CHECK_EQ_INT(trun_opts(&b, "eevdf", &o, &r, NULL), 0);
	CHECK(r.ns >= 1 && r.s[0].task == 0 && r.s[0].ts + r.s[0].dur == 4 * TMS);
	trec_free(&r);
	sl_behaviour_release(&b);
}
