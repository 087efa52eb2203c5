/* tests/unit/harness.h - a tiny unit-test harness.
 *
 *   SL_TEST(name) { ... CHECK(cond); CHECK_EQ_INT(a, b); ... }
 *
 * Tests register themselves; main.c runs them all (or those whose name
 * contains argv[1]) and ends with "N passed, N failed". A test may call
 * SKIP("reason") to be counted as skipped. */
#ifndef SL_HARNESS_H
#define SL_HARNESS_H

#include <stdio.h>
#include <stdint.h>
#include <string.h>

struct sl_test {
	const char *name;
	void (*fn)(void);
	struct sl_test *next;
};
void sl_test_register(struct sl_test *t);
extern int sl_test_failed; /* set by CHECK in the current test */
extern int sl_test_skipped;

#define SL_TEST(tname)                                                      \
	static void tname(void);                                            \
	static struct sl_test tname##_reg = { #tname, tname, NULL };        \
	__attribute__((constructor)) static void tname##_ctor(void)         \
	{                                                                   \
		sl_test_register(&tname##_reg);                             \
	}                                                                   \
	static void tname(void)

#define CHECK(c)                                                             \
	do {                                                                 \
		if (!(c)) {                                                  \
			fprintf(stderr, "  %s:%d: CHECK(%s) failed\n",       \
				__FILE__, __LINE__, #c);                     \
			sl_test_failed = 1;                                  \
		}                                                            \
	} while (0)

#define CHECK_EQ_INT(a, b)                                                    \
	do {                                                                  \
		long long a_ = (long long)(a), b_ = (long long)(b);           \
		if (a_ != b_) {                                               \
			fprintf(stderr, "  %s:%d: %s == %lld, expected %s == %lld\n", \
				__FILE__, __LINE__, #a, a_, #b, b_);          \
			sl_test_failed = 1;                                   \
		}                                                             \
	} while (0)

#define CHECK_NEAR(a, b, tol)                                                 \
	do {                                                                  \
		double a_ = (double)(a), b_ = (double)(b);                    \
		if (!(a_ - b_ <= (tol) && b_ - a_ <= (tol))) {                \
			fprintf(stderr, "  %s:%d: %s == %g, expected %g ± %g\n", \
				__FILE__, __LINE__, #a, a_, b_, (double)(tol)); \
			sl_test_failed = 1;                                   \
		}                                                             \
	} while (0)

#define CHECK_STR(a, b)                                                       \
	do {                                                                  \
		const char *a_ = (a), *b_ = (b);                              \
		if (!a_ || !b_ || strcmp(a_, b_)) {                           \
			fprintf(stderr, "  %s:%d: %s == \"%s\", expected \"%s\"\n", \
				__FILE__, __LINE__, #a, a_ ? a_ : "(null)",   \
				b_ ? b_ : "(null)");                          \
			sl_test_failed = 1;                                   \
		}                                                             \
	} while (0)

#define SKIP(why)                                                   \
	do {                                                        \
		fprintf(stderr, "  skipped: %s\n", why);            \
		sl_test_skipped = 1;                                \
		return;                                             \
	} while (0)

#endif
