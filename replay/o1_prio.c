/* replay/o1_prio.c - see o1_prio.h. Every formula follows the 2.6.20 macro
 * of the same name in kernel/sched.c of Linux 2.6.20 (docs/o1.md,
 * "Constants"), with C integer truncation. */
#include "o1_prio.h"

int sl_o1_timeslice_of(const struct sl_o1_const *c, int static_prio)
{
	int base = static_prio < 120 ? c->def_timeslice * 4 : c->def_timeslice;
	int ts = base * (SL_O1_MAX_PRIO - static_prio) / (SL_O1_MAX_USER_PRIO / 2);
	return ts > c->min_timeslice ? ts : c->min_timeslice;
}

uint64_t sl_o1_interactive_sleep_of(const struct sl_o1_const *c, int static_prio)
{
	int64_t j = (int64_t)c->max_sleep_avg *
			    (SL_O1_MAX_BONUS / 2 + sl_o1_delta(static_prio) + 1) /
			    SL_O1_MAX_BONUS - 1;
	return j > 0 ? (uint64_t)j * c->jiffy_ns : 0;
}

int sl_o1_const_init(struct sl_o1_const *c, int hz)
{
	int i;
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
	c->bonus_div = c->jiffy_ns * (uint64_t)(c->def_timeslice > 0 ? c->def_timeslice : 1);
	if (c->def_timeslice <= 0)
		return -1;
	/* s / bonus_div as a multiply and shift: m = ceil(2^58 / d) gives
	 * floor(s * m / 2^58) = floor(s / d) for every s < 2^31 when
	 * (m * d - 2^58) * 2^31 < 2^58, i.e. the rounding error is below 2^27 */
	{
		uint64_t d = c->bonus_div, m = ((1ULL << 58) + d - 1) / d;
		c->bonus_mul = (m * d - (1ULL << 58)) < (1ULL << 27) && m < (1ULL << 33) ? m : 0;
	}
	for (i = 0; i < SL_O1_MAX_USER_PRIO; i++) {
		c->timeslice[i] = sl_o1_timeslice_of(c, SL_O1_MAX_RT_PRIO + i);
		c->ceiling[i] = sl_o1_interactive_sleep_of(c, SL_O1_MAX_RT_PRIO + i);
	}
	for (i = 0; i <= SL_O1_MAX_BONUS + 1; i++) {
		int d = SL_O1_MAX_BONUS - i;
		c->gran[i] = c->granularity * (1 << ((d > 0 ? d : 1) - 1));
	}
	return 0;
}

unsigned sl_o1_load_weight(const struct sl_o1_const *c, int static_prio, int rt, int rt_prio)
{
	if (rt)
		return (unsigned)sl_o1_timeslice(c, SL_O1_MAX_RT_PRIO) * 128u /
			       (unsigned)c->def_timeslice +
		       (unsigned)rt_prio * 128u / (unsigned)c->def_timeslice;
	return (unsigned)sl_o1_timeslice(c, static_prio) * 128u / (unsigned)c->def_timeslice;
}
