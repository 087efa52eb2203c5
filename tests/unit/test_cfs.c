/* tests/unit/test_cfs.c - the arithmetic of the cfs model (replay/cfs.c,
 * docs/cfs.md) against values worked out by hand from kernel/sched_fair.c
 * and kernel/sched.c of v2.6.24. The weights are prio_to_weight (nice 0
 * 1024, nice 10 110, nice -20 88761) and their inverses prio_to_wmult
 * (nice 10 39045157, nice -20 48388). */
#include "harness.h"
#include "../../replay/cfs.h"

#define MS 1000000ULL

SL_TEST(cfs_tunables)
{
	struct sl_cfs_tun t;
	/* 1 CPU: factor 1 + ilog2(1) = 1: the defaults 20 / 4 / 10 ms, nr 5 */
	sl_cfs_tunables(1, 1, &t);
	CHECK_EQ_INT(t.latency, 20 * MS);
	CHECK_EQ_INT(t.min_gran, 4 * MS);
	CHECK_EQ_INT(t.wakeup_gran, 10 * MS);
	CHECK_EQ_INT(t.nr_latency, 5);
	/* 2 CPUs: factor 2; 6 CPUs: 1 + ilog2(6) = 1 + 2 = 3 */
	sl_cfs_tunables(2, 1, &t);
	CHECK_EQ_INT(t.latency, 40 * MS);
	CHECK_EQ_INT(t.wakeup_gran, 20 * MS);
	sl_cfs_tunables(6, 1, &t);
	CHECK_EQ_INT(t.latency, 60 * MS);
	CHECK_EQ_INT(t.min_gran, 12 * MS);
	CHECK_EQ_INT(t.wakeup_gran, 30 * MS);
	/* 1024 CPUs: factor 11: latency 220 ms capped at 200 ms, min_gran
	 * 44 ms, wakeup_gran 110 ms (not capped); nr_latency stays 5 */
	sl_cfs_tunables(1024, 1, &t);
	CHECK_EQ_INT(t.latency, 200 * MS);
	CHECK_EQ_INT(t.min_gran, 44 * MS);
	CHECK_EQ_INT(t.wakeup_gran, 110 * MS);
	CHECK_EQ_INT(t.nr_latency, 5);
	/* smp_scale=0: the 1-CPU values on 8 CPUs */
	sl_cfs_tunables(8, 0, &t);
	CHECK_EQ_INT(t.latency, 20 * MS);
}

SL_TEST(cfs_period_and_slice)
{
	struct sl_cfs_tun t;
	sl_cfs_tunables(1, 1, &t);
	/* __sched_period: 20 ms up to 5 tasks, then 20 ms * nr / 5 */
	CHECK_EQ_INT(sl_cfs_period(&t, 1), 20 * MS);
	CHECK_EQ_INT(sl_cfs_period(&t, 5), 20 * MS);
	CHECK_EQ_INT(sl_cfs_period(&t, 6), 24 * MS);
	CHECK_EQ_INT(sl_cfs_period(&t, 40), 160 * MS);
	/* sched_slice: two nice-0: 20 ms * 1024 / 2048 = 10 ms; nice 0 beside
	 * nice 10: 20e6 * 1024 / 1134 = 18059964.7 -> 18059964 ns, nice 10:
	 * 20e6 * 110 / 1134 = 1940035.2 -> 1940035 ns; 40 nice-0: 160 ms / 40
	 * = 4 ms = min_granularity */
	CHECK_EQ_INT(sl_cfs_slice(&t, 2, 1024, 2048), 10 * MS);
	CHECK_EQ_INT(sl_cfs_slice(&t, 2, 1024, 1134), 18059964);
	CHECK_EQ_INT(sl_cfs_slice(&t, 2, 110, 1134), 1940035);
	CHECK_EQ_INT(sl_cfs_slice(&t, 40, 1024, 40 * 1024), 4 * MS);
	/* sched_vslice_add (START_DEBIT): alone: period(1) * 1024 / 1024 =
	 * 20 ms; beside one nice-0: period(2) * 1024 / 2048 = 10 ms; beside
	 * five: period(6) = 24 ms * 1024 / 6144 = 4 ms; a nice-10 newcomer
	 * beside one nice-0: 20 ms * 1024 / 1134 = 18059964 ns */
	CHECK_EQ_INT(sl_cfs_vslice_add(&t, 0, 0, 1024), 20 * MS);
	CHECK_EQ_INT(sl_cfs_vslice_add(&t, 1, 1024, 1024), 10 * MS);
	CHECK_EQ_INT(sl_cfs_vslice_add(&t, 5, 5 * 1024, 1024), 4 * MS);
	CHECK_EQ_INT(sl_cfs_vslice_add(&t, 1, 1024, 110), 18059964);
}

SL_TEST(cfs_calc_delta)
{
	/* calc_delta_fair(1 ms, nice 10): 1e6 * 1024 = 1.024e9 <= 2^32, so
	 * SRR(1.024e9 * 39045157, 32) = round(9309090.69) = 9309091 (exact
	 * 1e6 * 1024 / 110 = 9309090.9) */
	CHECK_EQ_INT(sl_cfs_delta_fair(MS, 10), 9309091);
	/* 10 ms, nice 10: 1.024e10 > 2^32: SRR(SRR(1.024e10, 16) * wmult, 16)
	 * = SRR(156250 * 39045157, 16) = 93090909 (exact 93090909.1) */
	CHECK_EQ_INT(sl_cfs_delta_fair(10 * MS, 10), 93090909);
	/* 10 ms, nice -20: SRR(156250 * 48388, 16) = SRR(7560625000, 16) =
	 * 115366 (exact 1e7 * 1024 / 88761 = 115365.1: the kernel's rounding) */
	CHECK_EQ_INT(sl_cfs_delta_fair(10 * MS, -20), 115366);
	/* nice 0: unchanged */
	CHECK_EQ_INT(sl_cfs_delta_fair(1234567, 0), 1234567);
}

SL_TEST(cfs_place_entity)
{
	/* a wakeup: max(own vruntime, min_vruntime - 20 ms) */
	CHECK_EQ_INT(sl_cfs_place(100 * MS, 50 * MS, 0, 0, 20 * MS), 80 * MS);
	CHECK_EQ_INT(sl_cfs_place(100 * MS, 90 * MS, 0, 0, 20 * MS), 90 * MS);
	/* no sleeper credit: max(own, min_vruntime) */
	CHECK_EQ_INT(sl_cfs_place(100 * MS, 50 * MS, 0, 0, 0), 100 * MS);
	/* min_vruntime below the credit: 5 ms - 20 ms wraps, compared as s64
	 * (max_vruntime): -15 ms < 0, the task keeps its 0 */
	CHECK_EQ_INT(sl_cfs_place(5 * MS, 0, 0, 0, 20 * MS), 0);
	/* a new task: min_vruntime + the debit, its old vruntime ignored */
	CHECK_EQ_INT(sl_cfs_place(100 * MS, 500 * MS, 1, 10 * MS, 20 * MS), 110 * MS);
}

SL_TEST(cfs_wakeup_preemption)
{
	/* nice-0 running task: preempt when ahead by MORE than 10 ms */
	CHECK_EQ_INT(sl_cfs_wakeup_preempts(30 * MS, 0, 20 * MS - 1, 10 * MS), 1);
	CHECK_EQ_INT(sl_cfs_wakeup_preempts(30 * MS, 0, 20 * MS, 10 * MS), 0);
	CHECK_EQ_INT(sl_cfs_wakeup_preempts(30 * MS, 0, 40 * MS, 10 * MS), 0);
	/* nice-10 running task: the granularity in its vruntime units is
	 * calc_delta_fair(10 ms, nice 10) = 93090909 ns: 50 ms ahead is not
	 * enough, 94 ms is */
	CHECK_EQ_INT(sl_cfs_wakeup_preempts(100 * MS, 10, 50 * MS, 10 * MS), 0);
	CHECK_EQ_INT(sl_cfs_wakeup_preempts(100 * MS, 10, 6 * MS, 10 * MS), 1);
	/* nice -20 running task: 10 ms * 1024 / 88761 -> 115366 ns */
	CHECK_EQ_INT(sl_cfs_wakeup_preempts(1 * MS, -20, 1 * MS - 115366, 10 * MS), 0);
	CHECK_EQ_INT(sl_cfs_wakeup_preempts(1 * MS, -20, 1 * MS - 115367, 10 * MS), 1);
}
