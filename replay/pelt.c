/* replay/pelt.c - the arithmetic of PELT, Linux's per-entity load
 * tracking (kernel/sched/pelt.c, v6.6 to v6.18): geometric sums with a
 * 32-period half-life over periods of 1024 x 1024 ns, and the attach and
 * detach of an entity's averages to and from its cfs_rq's. Used by the
 * eevdf model's SMP side (replay/eevdf_smp.c) and its group entities
 * (replay/eevdf_group.c); declared in replay/eevdf.h. The code was read in
 * the kernel and written anew here. */
#include "eevdf.h"

/* ---- PELT (kernel/sched/pelt.c) ---- */

/* y^n * 2^32 for n = 0..31, y^32 = 1/2 (floor(2^32 * 2^(-n/32)), the
 * first capped at 2^32 - 1): runnable_avg_yN_inv */
static const uint32_t pelt_yn_inv[32] = {
	0xffffffff, 0xfa83b2db, 0xf5257d15, 0xefe4b99b, 0xeac0c6e7, 0xe5b906e7, 0xe0ccdeec,
	0xdbfbb797, 0xd744fcca, 0xd2a81d91, 0xce248c15, 0xc9b9bd86, 0xc5672a11, 0xc12c4cca,
	0xbd08a39f, 0xb8fbaf47, 0xb504f333, 0xb123f581, 0xad583eea, 0xa9a15ab4, 0xa5fed6a9,
	0xa2704303, 0x9ef53260, 0x9b8d39b9, 0x9837f051, 0x94f4efa8, 0x91c3d373, 0x8ea4398b,
	0x8b95c1e3, 0x88980e80, 0x85aac367, 0x82cd8698,
};

__extension__ typedef unsigned __int128 u128;

uint64_t sl_pelt_decay(uint64_t val, uint64_t n)
{
	/* decay_load(): val * y^n; past 63 half-lives nothing is left */
	if (n > SL_PELT_PERIOD * 63)
		return 0;
	if (n >= SL_PELT_PERIOD) {
		val >>= n / SL_PELT_PERIOD;
		n %= SL_PELT_PERIOD;
	}
	return (uint64_t)(((u128)val * pelt_yn_inv[n]) >> 32);
}

/* __accumulate_pelt_segments(): d1 (the rest of the first period, decayed
 * by the periods that followed), the full periods in between (the series
 * 1024 * (y + ... + y^(periods-1))), d3 (the part of the current period) */
static uint64_t pelt_segments(uint64_t periods, uint32_t d1, uint32_t d3)
{
	uint64_t c1 = sl_pelt_decay(d1, periods);
	uint64_t c2 = SL_PELT_LOAD_AVG_MAX - sl_pelt_decay(SL_PELT_LOAD_AVG_MAX, periods) - 1024;
	return c1 + c2 + d3;
}

int sl_pelt_update(struct sl_pelt *sa, uint64_t now, unsigned long load, unsigned long runnable,
		   int running, unsigned long weight)
{
	/* ___update_load_sum() + accumulate_sum() + ___update_load_avg() */
	uint64_t delta, periods, contrib;
	uint32_t divider;
	if (now < sa->last) {
		sa->last = now;
		return 0;
	}
	delta = (now - sa->last) >> 10; /* units of 1024 ns (~1 us) */
	if (!delta)
		return 0;
	sa->last += delta << 10;
	if (!load)
		runnable = running = 0;
	contrib = delta;
	delta += sa->period_contrib;
	periods = delta / 1024; /* a period is 1024 units (~1 ms) */
	if (periods) {
		sa->load_sum = sl_pelt_decay(sa->load_sum, periods);
		sa->runnable_sum = sl_pelt_decay(sa->runnable_sum, periods);
		sa->util_sum = (uint32_t)sl_pelt_decay(sa->util_sum, periods);
		delta %= 1024;
		if (load)
			contrib = pelt_segments(periods, 1024 - sa->period_contrib, (uint32_t)delta);
	}
	sa->period_contrib = (uint32_t)delta;
	if (load)
		sa->load_sum += load * contrib;
	if (runnable)
		sa->runnable_sum += (runnable * contrib) << 10;
	if (running)
		sa->util_sum += (uint32_t)(contrib << 10);
	if (!periods)
		return 0;
	/* the averages move at period boundaries only */
	divider = SL_PELT_LOAD_AVG_MAX - 1024 + sa->period_contrib;
	sa->load_avg = (unsigned long)(weight * sa->load_sum / divider);
	sa->runnable_avg = (unsigned long)(sa->runnable_sum / divider);
	sa->util_avg = sa->util_sum / divider;
	return 1;
}

void sl_pelt_attach(struct sl_pelt *cfs, struct sl_pelt *se, unsigned long weight)
{
	/* attach_entity_load_avg(): se takes the cfs_rq's period alignment,
	 * its sums rebuilt from its averages, then both are added */
	uint32_t divider = SL_PELT_LOAD_AVG_MAX - 1024 + cfs->period_contrib;
	se->last = cfs->last;
	se->period_contrib = cfs->period_contrib;
	se->util_sum = (uint32_t)(se->util_avg * divider);
	se->runnable_sum = (uint64_t)se->runnable_avg * divider;
	se->load_sum = (uint64_t)se->load_avg * divider;
	se->load_sum = weight < se->load_sum ? se->load_sum / weight : 1;
	cfs->load_avg += se->load_avg;
	cfs->load_sum += weight * se->load_sum;
	cfs->util_avg += se->util_avg;
	cfs->util_sum += se->util_sum;
	cfs->runnable_avg += se->runnable_avg;
	cfs->runnable_sum += se->runnable_sum;
}

#define SUB_POS(a, b) ((a) = (a) > (b) ? (a) - (b) : 0)

void sl_pelt_sub_load(struct sl_pelt *cfs, const struct sl_pelt *se, unsigned long weight)
{
	/* sub_positive, the sum kept at least avg * PELT_MIN_DIVIDER */
	const uint32_t min_div = SL_PELT_LOAD_AVG_MAX - 1024;
	SUB_POS(cfs->load_avg, se->load_avg);
	SUB_POS(cfs->load_sum, weight * se->load_sum);
	if (cfs->load_sum < (uint64_t)cfs->load_avg * min_div)
		cfs->load_sum = (uint64_t)cfs->load_avg * min_div;
}

void sl_pelt_detach(struct sl_pelt *cfs, const struct sl_pelt *se, unsigned long weight)
{
	/* detach_entity_load_avg(): subtract, never below 0, the sums kept at
	 * least avg * PELT_MIN_DIVIDER */
	const uint32_t min_div = SL_PELT_LOAD_AVG_MAX - 1024;
	sl_pelt_sub_load(cfs, se, weight);
	SUB_POS(cfs->util_avg, se->util_avg);
	SUB_POS(cfs->util_sum, se->util_sum);
	if (cfs->util_sum < cfs->util_avg * min_div)
		cfs->util_sum = (uint32_t)(cfs->util_avg * min_div);
	SUB_POS(cfs->runnable_avg, se->runnable_avg);
	SUB_POS(cfs->runnable_sum, se->runnable_sum);
	if (cfs->runnable_sum < (uint64_t)cfs->runnable_avg * min_div)
		cfs->runnable_sum = (uint64_t)cfs->runnable_avg * min_div;
}
