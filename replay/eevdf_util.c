/* replay/eevdf_util.c - the arithmetic of the eevdf model's SMP layer that
 * stands alone (replay/eevdf_smp.c uses it; the unit tests check it by
 * hand): wake_affine_weight, wake_wide, SIS_UTIL's scan depth and
 * UTIL_EST's update (kernel/sched/fair.c, v6.18). */
#include "eevdf.h"

#define EV_CAPACITY 1024ul
#define EV_UTIL_EST_MARGIN (EV_CAPACITY / 100)

int sl_eevdf_wake_affine_weight(unsigned long this_load, unsigned long prev_load,
				unsigned long task_load, unsigned long current_load, int sync,
				unsigned imbalance_pct)
{
	/* wake_affine_weight() with WA_BIAS, equal CPU capacities (they
	 * cancel out) */
	int64_t this_eff = (int64_t)this_load, prev_eff;
	if (sync) {
		if ((int64_t)current_load > this_eff)
			return 1;
		this_eff -= (int64_t)current_load;
	}
	this_eff += (int64_t)task_load;
	this_eff *= 100;
	prev_eff = (int64_t)prev_load - (int64_t)task_load;
	prev_eff *= 100 + ((int64_t)imbalance_pct - 100) / 2;
	if (sync)
		prev_eff += 1;
	return this_eff < prev_eff;
}

/* update_idle_cpu_scan() (SIS_UTIL, kernel/sched/fair.c, v5.19-v6.18): at
 * a periodic balance of the LLC domain, the number of CPUs select_idle_cpu
 * may look at, from the LLC's utilisation: x = sum_util / llc_weight,
 * y = 1024 - min(1024, x^2 * pct^2 / (10000 * 1024)) with pct the domain's
 * imbalance_pct (117), nr_idle_scan = llc_weight * y / 1024. It falls to 0
 * at x = 1024 * 100 / 117, 85 % busy; with 2 CPUs it is 1 up to a
 * sum_util of 1238 (x 619: y 512) and 0 above. */
int sl_eevdf_nr_idle_scan(unsigned long sum_util, int llc_weight, unsigned imbalance_pct)
{
	uint64_t x = sum_util / (uint64_t)(llc_weight > 0 ? llc_weight : 1), tmp, y;
	tmp = x * x * imbalance_pct * imbalance_pct / (10000ull * EV_CAPACITY);
	if (tmp > EV_CAPACITY)
		tmp = EV_CAPACITY;
	y = (EV_CAPACITY - tmp) * (uint64_t)(llc_weight > 0 ? llc_weight : 1) / EV_CAPACITY;
	return (int)y;
}

/* wake_wide(): the waker and the wakee switch between many partners: the
 * wakeup is not steered to the waker's CPU (factor = the LLC's CPUs) */
int sl_eevdf_wake_wide(unsigned waker_flips, unsigned wakee_flips, unsigned llc_size)
{
	unsigned master = waker_flips, slave = wakee_flips;
	if (master < slave) {
		unsigned t = master;
		master = slave;
		slave = t;
	}
	return !(slave < llc_size || master < slave * llc_size);
}

unsigned long sl_eevdf_util_est_update(unsigned long ewma, unsigned long dequeued, unsigned long runnable)
{
	unsigned long diff;
	if (ewma <= dequeued)
		return dequeued; /* increases taken at once */
	diff = ewma - dequeued;
	if (diff < EV_UTIL_EST_MARGIN)
		return ewma; /* within 1 % */
	if (dequeued + EV_UTIL_EST_MARGIN < runnable)
		return ewma; /* it waited: not all the CPU time it wanted */
	return ((ewma << 2) - diff) >> 2; /* ewma + (dequeued - ewma) / 4 */
}

/* cpupri of a CPU whose best queued RT task has kernel prio best (-1: no
 * RT task): convert_prio() of kernel/sched/cpupri.c, 99 - prio for an RT
 * task (1..99), CPUPRI_NORMAL (0) for a fair task or none (idle has no
 * level of its own since v5.11) */
static int cpupri_of(int best)
{
	return best < 0 ? 0 : 99 - best;
}

int sl_eevdf_select_rt(int ncpus, const int *best, int cur_prio, int cur_pinned, int prio,
		       uint64_t mask, int cpu, int this_cpu)
{
	int c, lowest = 100, target = -1, nallowed = 0;
	/* select_task_rq_rt(): p stays unless its CPU runs an RT task that it
	 * cannot preempt (prio as good or better: lower) or one that may run
	 * there only */
	if (cur_prio < 0 || (!cur_pinned && cur_prio > prio))
		return cpu;
	/* find_lowest_rq(): -1 for a task that may run on one CPU only;
	 * cpupri_find(): the lowest level below p's own (99 - prio) that has a
	 * CPU of p's mask; the mask is that level's CPUs */
	for (c = 0; c < ncpus && c < 64; c++) {
		int l = cpupri_of(best[c]);
		if (!((mask >> c) & 1))
			continue;
		nallowed++;
		if (l < 99 - prio && l < lowest)
			lowest = l;
	}
	if (nallowed < 2 || lowest == 100)
		return cpu;
	/* task_cpu(p) if in the mask, then this_cpu (the domain spans every
	 * CPU and has SD_WAKE_AFFINE), then the first of the mask */
	if ((mask >> cpu) & 1 && cpupri_of(best[cpu]) == lowest)
		target = cpu;
	else if (this_cpu >= 0 && this_cpu < ncpus && (mask >> this_cpu) & 1 &&
		 cpupri_of(best[this_cpu]) == lowest)
		target = this_cpu;
	for (c = 0; target < 0 && c < ncpus && c < 64; c++)
		if ((mask >> c) & 1 && cpupri_of(best[c]) == lowest)
			target = c;
	/* taken only where p beats the best RT task queued there
	 * (rt.highest_prio.curr, MAX_RT_PRIO with none) */
	return best[target] < 0 || prio < best[target] ? target : cpu;
}

int sl_eevdf_detach_load_fits(unsigned long load, unsigned failed, long imbalance)
{
	if (load < 1)
		load = 1;
	return (long)(load >> (failed < 63 ? failed : 63)) <= imbalance;
}

int sl_eevdf_may_detach(int delayed, int runnable, int migrate_load)
{
	/* "delayed dequeued unless we migrate load" */
	return delayed ? migrate_load : runnable;
}

int sl_eevdf_nohz_kick(unsigned this_nr, int nr_busy, int nr_idle)
{
	/* nohz.nr_cpus == 0: no CPU has its tick stopped */
	if (nr_idle <= 0)
		return 0;
	/* NOHZ_BALANCE_KICK: this CPU has a task waiting */
	if (this_nr >= 2)
		return 1;
	/* sds->nr_busy_cpus > 1: tasks to spread within the LLC */
	return nr_busy > 1;
}

uint64_t sl_eevdf_update_avg(uint64_t avg, uint64_t sample, uint64_t max)
{
	/* update_avg(): avg += (sample - avg) / 8, signed, truncated toward 0 */
	int64_t diff = (int64_t)sample - (int64_t)avg;
	int64_t a = (int64_t)avg + diff / 8;
	if (a < 0)
		a = 0;
	return (uint64_t)a > max ? max : (uint64_t)a;
}
