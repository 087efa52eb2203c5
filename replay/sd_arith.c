/* replay/sd_arith.c - the Staircase Deadline model's arithmetic (sd.h):
 * the priority matrix, the quotas and the load weights; docs/sd.md. */
#include "sd_priv.h"

/* ---- the priority matrix (the generator of prio_matrix, 2.6.21-ck1) ---- */

void sl_sd_build_matrix(uint64_t *m)
{
	int i, k;
	for (i = 0; i < RANGE; i++) {
		int j = RANGE * RANGE / (RANGE - i);
		m[i] = (1ULL << RANGE) - 1;
		for (k = 0; k <= RANGE * (RANGE - 1); k += j)
			m[i] &= ~(1ULL << (RANGE - 1 - k / RANGE));
	}
}

uint64_t sl_sd_matrix_row(int nice)
{
	uint64_t m[RANGE];
	sl_sd_build_matrix(m);
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	return m[nice + 20];
}

int64_t sl_sd_quota_us(int nice, int rt, int rr_ms)
{
	int rr = rr_ms;
	if (!rt) {
		if (nice < -6) {
			rr *= nice * nice;
			rr /= 40;
		} else if (nice > 0) {
			rr = rr / 2 ? rr / 2 : 1;
		}
	}
	return (int64_t)rr * 1000;
}

unsigned long sl_sd_load_weight(int nice, int rt, int rt_prio, int rr_ms)
{
	if (rt)
		return (unsigned long)rr_ms * 20 * (unsigned long)(40 + rt_prio) * RANGE;
	/* task_timeslice in ms: quota * (40 - user_prio), times PRIO_RANGE */
	return (unsigned long)(sl_sd_quota_us(nice, 0, rr_ms) * (RANGE - (nice + 20)) / 1000) * RANGE;
}

