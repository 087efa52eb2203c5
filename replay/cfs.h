/* replay/cfs.h - the CFS model (replay/cfs.c, docs/cfs.md): its pure
 * arithmetic (replay/cfs_arith.c), exported for the unit tests. Every
 * formula names the kernel function it follows (kernel/sched_fair.c and
 * kernel/sched.c of v2.6.24, the first release with the vruntime form of
 * CFS; see docs/cfs.md for why not v2.6.23). */
#ifndef SL_CFS_H
#define SL_CFS_H

#include <stdint.h>

struct sl_policy_ops;

/* The tunables after sched_init_granularity (kernel/sched.c, v2.6.24). */
struct sl_cfs_tun {
	uint64_t latency;       /* sysctl_sched_latency */
	uint64_t min_gran;      /* sysctl_sched_min_granularity */
	uint64_t wakeup_gran;   /* sysctl_sched_wakeup_granularity */
	unsigned nr_latency;    /* sched_nr_latency (not rescaled) */
};

/* sched_init_granularity: the 20 ms / 4 ms / 10 ms defaults times
 * 1 + ilog2(cpus), latency and min_gran capped at 200 ms; smp_scale 0
 * keeps the 1-CPU values. */
void sl_cfs_tunables(int cpus, int smp_scale, struct sl_cfs_tun *t);
/* __sched_period: latency, or latency * nr / nr_latency past nr_latency. */
uint64_t sl_cfs_period(const struct sl_cfs_tun *t, unsigned long nr);
/* sched_slice: period(nr) * weight / rq_weight (nr and rq_weight count
 * the entity). */
uint64_t sl_cfs_slice(const struct sl_cfs_tun *t, unsigned long nr, unsigned long weight,
		      unsigned long rq_weight);
/* sched_vslice_add: period(nr + 1) * NICE_0_LOAD / (rq_weight + weight),
 * the START_DEBIT of a new entity joining nr entities of rq_weight. */
uint64_t sl_cfs_vslice_add(const struct sl_cfs_tun *t, unsigned long nr, unsigned long rq_weight,
			   unsigned long weight);
/* calc_delta_mine(delta, weight, lw) with lw's inverse weight inv (kernel
 * rounding: SRR with WMULT_SHIFT 32, split when delta * weight > 2^32). */
uint64_t sl_cfs_calc_delta_mine(uint64_t delta, unsigned long weight, uint32_t inv);
/* calc_delta_fair(delta, &se->load) for a nice level: delta * 1024 / w. */
uint64_t sl_cfs_delta_fair(uint64_t delta, int nice);
/* place_entity: new vruntime of an entity with vruntime se_v joining a
 * queue with min_vruntime min_v. initial: min_v + debit (the
 * sl_cfs_vslice_add, 0 without START_DEBIT); else (a wakeup)
 * max(se_v, min_v - sleeper_credit) (credit: latency with
 * NEW_FAIR_SLEEPERS, else 0). */
uint64_t sl_cfs_place(uint64_t min_v, uint64_t se_v, int initial, uint64_t debit,
		      uint64_t sleeper_credit);
/* check_preempt_wakeup for two fair tasks: 1 if the woken task's vruntime
 * plus the wakeup granularity (scaled by calc_delta_fair to the running
 * task's nice) is below the running task's vruntime. */
int sl_cfs_wakeup_preempts(uint64_t curr_v, int curr_nice, uint64_t woken_v, uint64_t wakeup_gran);

/* max_vruntime: the later of two vruntimes, wrapping as the kernel's s64
 * difference does. */
static inline uint64_t sl_cfs_max_vruntime(uint64_t a, uint64_t b)
{
	return (int64_t)(b - a) > 0 ? b : a;
}

#endif
