/* replay/o1_prio.h - the pure formulas of Linux 2.6.20's O(1) scheduler
 * (the macros of kernel/sched.c, 2.6.20: TASK_TIMESLICE, CURRENT_BONUS,
 * effective_prio, TASK_INTERACTIVE...; docs/o1.md), in the kernel's integer
 * arithmetic, for any HZ.
 *
 * Priorities are kernel prios: 0..99 real time, 100..139 normal
 * (static_prio = 120 + nice). Time slices are in jiffies, sleep averages in
 * nanoseconds. Nothing here has state beyond the constants of one HZ.
 */
#ifndef SL_O1_PRIO_H
#define SL_O1_PRIO_H

#include <stdint.h>

#define SL_O1_MAX_RT_PRIO 100
#define SL_O1_MAX_PRIO 140
#define SL_O1_MAX_USER_PRIO 40
#define SL_O1_MAX_BONUS 10          /* MAX_USER_PRIO * PRIO_BONUS_RATIO(25) / 100 */
#define SL_O1_INTERACTIVE_DELTA 2
#define SL_O1_ON_RUNQUEUE_WEIGHT 30 /* percent; applied as *38/128 */
#define SL_O1_CHILD_PENALTY 95
#define SL_O1_PARENT_PENALTY 100
#define SL_O1_EXIT_WEIGHT 3

/* The HZ-dependent constants, computed as the kernel's macros would be. */
struct sl_o1_const {
	int hz;
	uint64_t jiffy_ns;          /* 1e9 / HZ (integer, as JIFFIES_TO_NS) */
	int min_timeslice;          /* max(5*HZ/1000, 1) jiffies */
	int def_timeslice;          /* 100*HZ/1000 jiffies */
	int max_sleep_avg;          /* DEF_TIMESLICE * MAX_BONUS jiffies */
	int starvation_limit;       /* = MAX_SLEEP_AVG jiffies */
	int granularity;            /* 10*HZ/1000, at least 1 jiffy */
	uint64_t ns_max_sleep_avg;  /* JIFFIES_TO_NS(MAX_SLEEP_AVG) */
	uint64_t bonus_div;         /* jiffy_ns * DEF_TIMESLICE: ns per bonus point */
	uint64_t bonus_mul;         /* ceil(2^58 / bonus_div), 0 = divide */
	/* the per-nice values, computed once (index static_prio - 100) */
	int timeslice[SL_O1_MAX_USER_PRIO];
	uint64_t ceiling[SL_O1_MAX_USER_PRIO];
	int gran[SL_O1_MAX_BONUS + 2];  /* TIMESLICE_GRANULARITY by bonus, 1 CPU */
};

/* Fill c for the given HZ (1..10000). Returns 0, or -1 if hz is out of
 * range or gives a zero DEF_TIMESLICE (HZ < 10). */
int sl_o1_const_init(struct sl_o1_const *c, int hz);

/* The formulas below run several times per scheduling decision: they are
 * inline here (a call into another object each time was ~5 % of o1's cost
 * per decision in tests/bench/40-o1.sh). The per-nice tables of c cover
 * static_prio 100..139; other values take the out-of-line computation. */
uint64_t sl_o1_interactive_sleep_of(const struct sl_o1_const *c, int static_prio);
int sl_o1_timeslice_of(const struct sl_o1_const *c, int static_prio);

/* CURRENT_BONUS: NS_TO_JIFFIES(sleep_avg) * MAX_BONUS / MAX_SLEEP_AVG. */
static inline int sl_o1_bonus(const struct sl_o1_const *c, uint64_t sleep_avg)
{
	/* NS_TO_JIFFIES(s) * MAX_BONUS / MAX_SLEEP_AVG with MAX_SLEEP_AVG =
	 * DEF_TIMESLICE * MAX_BONUS is floor(floor(s / jiffy) / DEF_TIMESLICE)
	 * = floor(s / (jiffy * DEF_TIMESLICE)): one division */
	if (c->bonus_mul && sleep_avg < (1ULL << 31))
		return (int)((sleep_avg * c->bonus_mul) >> 58); /* exact, see init */
	return (int)(sleep_avg / c->bonus_div);
}

/* __normal_prio: static_prio - (bonus - MAX_BONUS/2), clamped to 100..139. */
static inline int sl_o1_normal_prio(const struct sl_o1_const *c, int static_prio,
				    uint64_t sleep_avg)
{
	int prio = static_prio - (sl_o1_bonus(c, sleep_avg) - SL_O1_MAX_BONUS / 2);
	if (prio < SL_O1_MAX_RT_PRIO)
		prio = SL_O1_MAX_RT_PRIO;
	if (prio > SL_O1_MAX_PRIO - 1)
		prio = SL_O1_MAX_PRIO - 1;
	return prio;
}

/* DELTA(p) for a static prio: (nice+20)*10/40 - 5 + INTERACTIVE_DELTA. */
static inline int sl_o1_delta(int static_prio)
{
	int nice = static_prio - 120;
	return (nice + 20) * SL_O1_MAX_BONUS / 40 - 20 * SL_O1_MAX_BONUS / 40 +
	       SL_O1_INTERACTIVE_DELTA;
}

/* TASK_INTERACTIVE: prio <= static_prio - DELTA. */
static inline int sl_o1_task_interactive(int prio, int static_prio)
{
	return prio <= static_prio - sl_o1_delta(static_prio);
}

/* INTERACTIVE_SLEEP in ns:
 * JIFFIES_TO_NS(MAX_SLEEP_AVG * (MAX_BONUS/2 + DELTA + 1) / MAX_BONUS - 1). */
static inline uint64_t sl_o1_interactive_sleep(const struct sl_o1_const *c, int static_prio)
{
	if (static_prio < SL_O1_MAX_RT_PRIO || static_prio >= SL_O1_MAX_PRIO)
		return sl_o1_interactive_sleep_of(c, static_prio);
	return c->ceiling[static_prio - SL_O1_MAX_RT_PRIO];
}

/* task_timeslice in jiffies: SCALE_PRIO(DEF_TIMESLICE*4 below nice 0, else
 * DEF_TIMESLICE). */
static inline int sl_o1_timeslice(const struct sl_o1_const *c, int static_prio)
{
	if (static_prio < SL_O1_MAX_RT_PRIO || static_prio >= SL_O1_MAX_PRIO)
		return sl_o1_timeslice_of(c, static_prio);
	return c->timeslice[static_prio - SL_O1_MAX_RT_PRIO];
}

/* TIMESLICE_GRANULARITY in jiffies, times ncpus (the SMP kernel's
 * num_online_cpus()). */
static inline int sl_o1_granularity(const struct sl_o1_const *c, uint64_t sleep_avg, int ncpus)
{
	int b = sl_o1_bonus(c, sleep_avg);
	if (b > SL_O1_MAX_BONUS + 1)
		b = SL_O1_MAX_BONUS + 1;
	if (ncpus < 1)
		ncpus = 1;
	return c->gran[b] * ncpus;
}

/* Load weight for SMP balancing: timeslice*128/DEF_TIMESLICE for normal and
 * batch tasks (HZ-independent: 128 at nice 0), 1024 + rt_prio*128/100 for RT. */
unsigned sl_o1_load_weight(const struct sl_o1_const *c, int static_prio, int rt, int rt_prio);

#endif
