/* replay/o1_prio.c - see o1_prio.h. Every formula follows the 2.6.20 macro
 * of the same name (schedulers.md §2.1), with C integer truncation. */
#include "o1_prio.h"

int sl_o1_const_init(struct sl_o1_const *c, int hz)
{
	if (hz < 10 || hz > 10000)
		return -1;
	c->hz = hz;
	c->jiffy_ns = 1000000000ULL / (uint64_t)hz;
	c->min_timeslice = 5 * hz / 1000 > 1 ? 5 * hz / 1000 : 1;
	c->def_timeslice = 100 * hz / 1000;
	c->max_sleep_avg = c->def_timeslice * SL_O1_MAX_BONUS;
	c->starvation_limit = c->max_sleep_avg;
	c->granularity = 10 * hz / 1000 ? 10 * hz / 1000 : 1;
	c->ns_max_sleep_avg = (uint64_t)c->max_sleep_avg * c->jiffy_ns;
	return c->def_timeslice > 0 ? 0 : -1;
}

int sl_o1_bonus(const struct sl_o1_const *c, uint64_t sleep_avg)
{
	uint64_t j = sleep_avg / c->jiffy_ns; /* NS_TO_JIFFIES */
	return (int)(j * SL_O1_MAX_BONUS / (uint64_t)c->max_sleep_avg);
}

int sl_o1_normal_prio(const struct sl_o1_const *c, int static_prio, uint64_t sleep_avg)
{
	int prio = static_prio - (sl_o1_bonus(c, sleep_avg) - SL_O1_MAX_BONUS / 2);
	if (prio < SL_O1_MAX_RT_PRIO)
		prio = SL_O1_MAX_RT_PRIO;
	if (prio > SL_O1_MAX_PRIO - 1)
		prio = SL_O1_MAX_PRIO - 1;
	return prio;
}

int sl_o1_delta(int static_prio)
{
	int nice = static_prio - 120;
	return (nice + 20) * SL_O1_MAX_BONUS / 40 - 20 * SL_O1_MAX_BONUS / 40 +
	       SL_O1_INTERACTIVE_DELTA;
}

int sl_o1_task_interactive(int prio, int static_prio)
{
	return prio <= static_prio - sl_o1_delta(static_prio);
}

uint64_t sl_o1_interactive_sleep(const struct sl_o1_const *c, int static_prio)
{
	int64_t j = (int64_t)c->max_sleep_avg *
			    (SL_O1_MAX_BONUS / 2 + sl_o1_delta(static_prio) + 1) /
			    SL_O1_MAX_BONUS - 1;
	return j > 0 ? (uint64_t)j * c->jiffy_ns : 0;
}

int sl_o1_timeslice(const struct sl_o1_const *c, int static_prio)
{
	int base = static_prio < 120 ? c->def_timeslice * 4 : c->def_timeslice;
	int ts = base * (SL_O1_MAX_PRIO - static_prio) / (SL_O1_MAX_USER_PRIO / 2);
	return ts > c->min_timeslice ? ts : c->min_timeslice;
}

int sl_o1_granularity(const struct sl_o1_const *c, uint64_t sleep_avg, int ncpus)
{
	int d = SL_O1_MAX_BONUS - sl_o1_bonus(c, sleep_avg);
	if (d <= 0)
		d = 1;
	if (ncpus < 1)
		ncpus = 1;
	return c->granularity * (1 << (d - 1)) * ncpus;
}

unsigned sl_o1_load_weight(const struct sl_o1_const *c, int static_prio, int rt, int rt_prio)
{
	if (rt)
		return (unsigned)sl_o1_timeslice(c, SL_O1_MAX_RT_PRIO) * 128u /
			       (unsigned)c->def_timeslice +
		       (unsigned)rt_prio * 128u / (unsigned)c->def_timeslice;
	return (unsigned)sl_o1_timeslice(c, static_prio) * 128u / (unsigned)c->def_timeslice;
}
