/* replay/cfs_arith.c - the arithmetic of the cfs model (cfs.h): the
 * tunables, periods and slices, calc_delta_mine and the placement of
 * kernel/sched_fair.c v2.6.24. cfs_rq.c has the model's queues, cfs.c the
 * engine's hooks. */
#include "cfs.h"
#include "fair_weights.h"
#include "../common/util.h"

#define NICE_0_LOAD SL_NICE_0_LOAD

void sl_cfs_tunables(int cpus, int smp_scale, struct sl_cfs_tun *t)
{
	/* kernel/sched_fair.c v2.6.24: sysctl_sched_latency 20 ms,
	 * sysctl_sched_min_granularity 4 ms, sched_nr_latency 5,
	 * sysctl_sched_wakeup_granularity 10 ms; kernel/sched.c
	 * sched_init_granularity: factor 1 + ilog2(num_online_cpus()), the
	 * first two capped at 200 ms, nr_latency left as it is */
	const uint64_t limit = 200 * SL_NS_PER_MS;
	unsigned factor = smp_scale ? 1 + (unsigned)sl_ilog2(cpus) : 1;
	t->latency = 20 * SL_NS_PER_MS * factor;
	t->min_gran = 4 * SL_NS_PER_MS * factor;
	t->wakeup_gran = 10 * SL_NS_PER_MS * factor;
	if (t->latency > limit)
		t->latency = limit;
	if (t->min_gran > limit)
		t->min_gran = limit;
	t->nr_latency = 5;
}

uint64_t sl_cfs_period(const struct sl_cfs_tun *t, unsigned long nr)
{
	if (nr > t->nr_latency)
		return t->latency * nr / t->nr_latency;
	return t->latency;
}

uint64_t sl_cfs_slice(const struct sl_cfs_tun *t, unsigned long nr, unsigned long weight,
		      unsigned long rq_weight)
{
	if (!rq_weight)
		return 0;
	return sl_cfs_period(t, nr) * weight / rq_weight;
}

uint64_t sl_cfs_vslice_add(const struct sl_cfs_tun *t, unsigned long nr, unsigned long rq_weight,
			   unsigned long weight)
{
	return sl_cfs_period(t, nr + 1) * NICE_0_LOAD / (rq_weight + weight);
}

/* SRR: shift right and round (kernel/sched.c) */
static uint64_t srr(uint64_t x, int y)
{
	return (x + (1ULL << (y - 1))) >> y;
}

uint64_t sl_cfs_calc_delta_mine(uint64_t delta, unsigned long weight, uint32_t inv)
{
	uint64_t tmp = delta * weight;
	if (tmp > (1ULL << 32))
		tmp = srr(srr(tmp, 16) * inv, 16);
	else
		tmp = srr(tmp * inv, 32);
	return tmp > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : tmp;
}

uint64_t sl_cfs_delta_fair(uint64_t delta, int nice)
{
	if (sl_fair_weight(nice) == NICE_0_LOAD)
		return delta;
	return sl_cfs_calc_delta_mine(delta, NICE_0_LOAD, sl_fair_wmult(nice));
}

uint64_t sl_cfs_place(uint64_t min_v, uint64_t se_v, int initial, uint64_t debit,
		      uint64_t sleeper_credit)
{
	uint64_t v = min_v;
	if (initial)
		return v + debit;
	v -= sleeper_credit;
	return sl_cfs_max_vruntime(se_v, v);
}

int sl_cfs_wakeup_preempts(uint64_t curr_v, int curr_nice, uint64_t woken_v, uint64_t wakeup_gran)
{
	uint64_t gran = sl_cfs_delta_fair(wakeup_gran, curr_nice);
	return (int64_t)(curr_v - woken_v) > (int64_t)gran;
}
