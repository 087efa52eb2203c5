/* tests/unit/test_bound.c - RSDL worst-case bound, issue 4's four examples
 * worked by hand: bound(i) = Σ_{j≠i} q_j·(L_j + max(0, n_i − n_j)). */
#include "harness.h"
#include "../../replay/bound.h"

#define RR 6000000ULL

SL_TEST(bound_examples)
{
	uint64_t out[4];
	int two0[] = { 0, 0 }, mix[] = { 0, 10 }, four[] = { -20, 0, 10, 19 };
	/* 0 0: the other task q=RR, L=20, no nice difference: 20 RR = 120 ms */
	CHECK_EQ_INT(sl_bound_ns(two0, 2, RR, out), 0);
	CHECK_EQ_INT(out[0], 120000000);
	CHECK_EQ_INT(out[1], 120000000);
	/* 0 10: nice 0 waits for nice 10's 10 levels: 60 ms; nice 10 waits for
	 * 20 levels + 10 levels of difference: 30 RR = 180 ms */
	CHECK_EQ_INT(sl_bound_ns(mix, 2, RR, out), 0);
	CHECK_EQ_INT(out[0], 60000000);
	CHECK_EQ_INT(out[1], 180000000);
	/* nice 10 in -20/0/10/19: 21*(40+30) + 1*(20+10) + 1*(1+0) = 1501 RR */
	CHECK_EQ_INT(sl_bound_ns(four, 4, RR, out), 0);
	CHECK_EQ_INT(out[2], 1501 * RR);
	CHECK_EQ_INT(out[0], 31 * RR);   /* 20 + 10 + 1 */
	CHECK_EQ_INT(out[3], 1717 * RR); /* 21*79 + 39 + 19 */
	/* rr 8 ms: 20 * 8 = 160 ms */
	CHECK_EQ_INT(sl_bound_ns(two0, 2, 8000000, out), 0);
	CHECK_EQ_INT(out[0], 160000000);
}

SL_TEST(bound_quota_and_range)
{
	int bad[] = { 0, 20 };
	uint64_t out[2];
	CHECK_EQ_INT(sl_rsdl_quota(-20, RR), 21 * RR);
	CHECK_EQ_INT(sl_rsdl_quota(-1, RR), 2 * RR);
	CHECK_EQ_INT(sl_rsdl_quota(19, RR), RR);
	CHECK_EQ_INT(sl_bound_ns(bad, 2, RR, out), -1);
}
