/* tests/unit/test_o1_prio.c - the O(1) formulas against the table of
 * docs/o1.md's "Constants" (kernel/sched.c, 2.6.20), row by row, and their
 * scaling with HZ. */
#include "harness.h"
#include "../../replay/o1_prio.h"

#define MS 1000000ULL

/* Columns of the §2.1 table. "bonus_min" is the smallest CURRENT_BONUS at
 * which TASK_INTERACTIVE holds (11 = never). Each value was worked out by
 * hand from the macros:
 *   timeslice = max(B * (140 - sp) / 20, 5), B = 400 below nice 0 else 100
 *   load      = timeslice * 128 / 100
 *   DELTA     = (nice + 20) * 10 / 40 - 5 + 2
 *   interactive iff 120+nice - (bonus - 5) (clamped at 100) <= 120+nice - DELTA
 *   ceiling   = (1000 * (5 + DELTA + 1) / 10 - 1) ms
 * e.g. nice -1: 400*21/20 = 420 ms, 420*128/100 = 537, DELTA 19*10/40-3 = 1,
 * bonus >= 6, ceiling 699 ms; nice 19: 100*1/20 = 5 ms, 5*128/100 = 6,
 * DELTA 9-3 = 6, bonus >= 11 (never), ceiling 1199 ms. */
static const struct {
	int nice, ts_ms, load, delta, bonus_min, ceil_ms;
} rows[] = {
	{ -20, 800, 1024, -3, 2, 299 },  { -15, 700, 896, -2, 3, 399 },
	{ -10, 600, 768, -1, 4, 499 },   { -5, 500, 640, 0, 5, 599 },
	{ -1, 420, 537, 1, 6, 699 },     { 0, 100, 128, 2, 7, 799 },
	{ 1, 95, 121, 2, 7, 799 },       { 5, 75, 96, 3, 8, 899 },
	{ 10, 50, 64, 4, 9, 999 },       { 15, 25, 32, 5, 10, 1099 },
	{ 19, 5, 6, 6, 11, 1199 },
};

SL_TEST(o1_prio_constants_hz1000)
{
	struct sl_o1_const c;
	CHECK_EQ_INT(sl_o1_const_init(&c, 1000), 0);
	CHECK_EQ_INT(c.min_timeslice, 5);
	CHECK_EQ_INT(c.def_timeslice, 100);
	CHECK_EQ_INT(c.max_sleep_avg, 1000);
	CHECK_EQ_INT(c.starvation_limit, 1000);
	CHECK_EQ_INT(c.granularity, 10);
	CHECK_EQ_INT(c.ns_max_sleep_avg, 1000000000LL);
	CHECK_EQ_INT(c.jiffy_ns, 1000000);
	CHECK_EQ_INT(sl_o1_const_init(&c, 5), -1);
	CHECK_EQ_INT(sl_o1_const_init(&c, 0), -1);
}

SL_TEST(o1_prio_table_rows)
{
	struct sl_o1_const c;
	size_t i;
	sl_o1_const_init(&c, 1000);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		int sp = 120 + rows[i].nice, b, bmin = 11;
		CHECK_EQ_INT(sl_o1_timeslice(&c, sp), rows[i].ts_ms);
		CHECK_EQ_INT(sl_o1_load_weight(&c, sp, 0, 0), rows[i].load);
		CHECK_EQ_INT(sl_o1_delta(sp), rows[i].delta);
		CHECK_EQ_INT(sl_o1_interactive_sleep(&c, sp), rows[i].ceil_ms * MS);
		for (b = 10; b >= 0; b--) /* sleep_avg b*100 ms gives bonus b */
			if (sl_o1_task_interactive(sl_o1_normal_prio(&c, sp, (uint64_t)b * 100 * MS), sp))
				bmin = b;
		CHECK_EQ_INT(bmin, rows[i].bonus_min);
	}
}

SL_TEST(o1_prio_bonus_and_prio)
{
	struct sl_o1_const c;
	sl_o1_const_init(&c, 1000);
	/* bonus = floor(sleep_avg_ms / 100): 10 only at exactly 1000 ms */
	CHECK_EQ_INT(sl_o1_bonus(&c, 0), 0);
	CHECK_EQ_INT(sl_o1_bonus(&c, 99999999), 0);
	CHECK_EQ_INT(sl_o1_bonus(&c, 100 * MS), 1);
	CHECK_EQ_INT(sl_o1_bonus(&c, 799 * MS), 7);
	CHECK_EQ_INT(sl_o1_bonus(&c, 999999999), 9);
	CHECK_EQ_INT(sl_o1_bonus(&c, 1000 * MS), 10);
	/* nice 0: 120 - (bonus - 5): bonus 0 -> 125, 9 -> 116, 10 -> 115 */
	CHECK_EQ_INT(sl_o1_normal_prio(&c, 120, 0), 125);
	CHECK_EQ_INT(sl_o1_normal_prio(&c, 120, 900 * MS), 116);
	CHECK_EQ_INT(sl_o1_normal_prio(&c, 120, 1000 * MS), 115);
	/* clamps: nice -20 bonus 10 -> 95 -> 100; nice 19 bonus 0 -> 144 -> 139 */
	CHECK_EQ_INT(sl_o1_normal_prio(&c, 100, 1000 * MS), 100);
	CHECK_EQ_INT(sl_o1_normal_prio(&c, 139, 0), 139);
	/* nice 0 interactive iff prio <= 118 */
	CHECK(sl_o1_task_interactive(118, 120));
	CHECK(!sl_o1_task_interactive(119, 120));
}

SL_TEST(o1_prio_granularity)
{
	struct sl_o1_const c;
	sl_o1_const_init(&c, 1000);
	/* 10 * 2^((10 - bonus or 1) - 1): bonus 7 -> 40, 8 -> 20, 9 -> 10,
	 * 10 -> 10 (d = 0 taken as 1), 0 -> 10 * 512 */
	CHECK_EQ_INT(sl_o1_granularity(&c, 700 * MS, 1), 40);
	CHECK_EQ_INT(sl_o1_granularity(&c, 800 * MS, 1), 20);
	CHECK_EQ_INT(sl_o1_granularity(&c, 900 * MS, 1), 10);
	CHECK_EQ_INT(sl_o1_granularity(&c, 1000 * MS, 1), 10);
	CHECK_EQ_INT(sl_o1_granularity(&c, 0, 1), 5120);
	/* SMP kernels multiply by num_online_cpus() */
	CHECK_EQ_INT(sl_o1_granularity(&c, 700 * MS, 2), 80);
}

SL_TEST(o1_prio_rt_load_weight)
{
	struct sl_o1_const c;
	sl_o1_const_init(&c, 1000);
	/* 800*128/100 + rt_prio*128/100: rt 0 -> 1024, rt 50 -> 1024 + 64 */
	CHECK_EQ_INT(sl_o1_load_weight(&c, 120, 1, 0), 1024);
	CHECK_EQ_INT(sl_o1_load_weight(&c, 120, 1, 50), 1088);
}

SL_TEST(o1_prio_other_hz)
{
	struct sl_o1_const c;
	/* HZ 100: jiffy 10 ms; MIN_TIMESLICE max(0,1) = 1 jiffy; DEF 10;
	 * MAX_SLEEP_AVG 100 jiffies (1 s); GRANULARITY 1 jiffy.
	 * nice 19: 10*1/20 = 0 -> 1 jiffy; nice 0: 10 jiffies (100 ms);
	 * nice -20: 40*40/20 = 80 jiffies (800 ms).
	 * ceiling nice 0: 100*8/10 - 1 = 79 jiffies = 790 ms. */
	CHECK_EQ_INT(sl_o1_const_init(&c, 100), 0);
	CHECK_EQ_INT(c.jiffy_ns, 10 * MS);
	CHECK_EQ_INT(c.min_timeslice, 1);
	CHECK_EQ_INT(c.max_sleep_avg, 100);
	CHECK_EQ_INT(c.granularity, 1);
	CHECK_EQ_INT(sl_o1_timeslice(&c, 139), 1);
	CHECK_EQ_INT(sl_o1_timeslice(&c, 120), 10);
	CHECK_EQ_INT(sl_o1_timeslice(&c, 100), 80);
	CHECK_EQ_INT(sl_o1_interactive_sleep(&c, 120), 790 * MS);
	CHECK_EQ_INT(sl_o1_load_weight(&c, 120, 0, 0), 128);
	/* bonus at HZ 100: sleep_avg 1 s = 100 jiffies -> 100*10/100 = 10 */
	CHECK_EQ_INT(sl_o1_bonus(&c, 1000 * MS), 10);
	CHECK_EQ_INT(sl_o1_bonus(&c, 790 * MS), 7);
	/* HZ 250: jiffy 4 ms; MIN 1; DEF 25; GRANULARITY 2 jiffies (8 ms);
	 * nice 19: 25/20 = 1 jiffy (4 ms); nice 10: 25*10/20 = 12 jiffies. */
	CHECK_EQ_INT(sl_o1_const_init(&c, 250), 0);
	CHECK_EQ_INT(c.jiffy_ns, 4 * MS);
	CHECK_EQ_INT(c.granularity, 2);
	CHECK_EQ_INT(sl_o1_timeslice(&c, 139), 1);
	CHECK_EQ_INT(sl_o1_timeslice(&c, 130), 12);
	CHECK_EQ_INT(c.ns_max_sleep_avg, 1000 * MS);
}

SL_TEST(o1_prio_bonus_multiply_exact)
{
	/* the multiply-shift bonus equals the kernel's two divisions
	 * (NS_TO_JIFFIES, then *10/MAX_SLEEP_AVG) for every HZ tried, at and
	 * around every bonus boundary and on a grid of sleep averages */
	static const int hzs[] = { 100, 250, 300, 1000, 1024, 1200, 10000 };
	size_t h;
	for (h = 0; h < sizeof(hzs) / sizeof(hzs[0]); h++) {
		struct sl_o1_const c;
		uint64_t s, b;
		int bad = 0;
		sl_o1_const_init(&c, hzs[h]);
		for (b = 0; b <= 10; b++)
			for (s = b * c.bonus_div - (b ? 3 : 0); s <= b * c.bonus_div + 3; s++) {
				uint64_t want = s / c.jiffy_ns * 10 / (uint64_t)c.max_sleep_avg;
				if ((uint64_t)sl_o1_bonus(&c, s) != want)
					bad++;
			}
		for (s = 0; s <= c.ns_max_sleep_avg; s += 999983) {
			uint64_t want = s / c.jiffy_ns * 10 / (uint64_t)c.max_sleep_avg;
			if ((uint64_t)sl_o1_bonus(&c, s) != want)
				bad++;
		}
		CHECK_EQ_INT(bad, 0);
	}
}
