/* tests/unit/test_plot.c - the data the charts are drawn from: CDF steps of
 * a hand-made run, histogram bins, labels, tick steps, HTML escaping and
 * base64 (all worked out by hand in the comments). */
#include "harness.h"
#include "../../plots/plot.h"
#include "../../analyze/metrics.h"

#include <stdlib.h>

SL_TEST(plot_cdf_of_handmade_run)
{
	/* six wakeups: delays 30, 0, 30, 5000, never ran, 10 (ns)
	 * sorted delays that ran: 0 10 30 30 5000 (n = 5; the one that never
	 * ran is left out) -> distinct values with cumulative counts:
	 *   0 -> 1 (1/5 = 0.2), 10 -> 2 (0.4), 30 -> 4 (0.8), 5000 -> 5 (1.0) */
	struct sl_wakeup_row w[6] = {
		{ 100, 130, 1, 0, 0 }, { 200, 200, 1, 0, 0 }, { 300, 330, 2, 0, 0 },
		{ 400, 5400, 2, 0, 0 }, { 500, UINT64_MAX, 1, 0, 0 }, { 600, 610, 1, 0, 0 },
	};
	struct sl_run_data r;
	struct sl_cdf_point *p;
	uint64_t *dl;
	size_t n, np;
	memset(&r, 0, sizeof(r));
	r.wakeups = w;
	r.nwakeups = 6;
	dl = sl_run_delays(&r, &n);
	CHECK_EQ_INT(n, 5);
	np = sl_cdf_points(dl, n, &p);
	CHECK_EQ_INT(np, 4);
	CHECK_EQ_INT(p[0].delay_ns, 0);
	CHECK_EQ_INT(p[0].cum, 1);
	CHECK_EQ_INT(p[1].delay_ns, 10);
	CHECK_EQ_INT(p[1].cum, 2);
	CHECK_EQ_INT(p[2].delay_ns, 30);
	CHECK_EQ_INT(p[2].cum, 4);
	CHECK_EQ_INT(p[3].delay_ns, 5000);
	CHECK_EQ_INT(p[3].cum, 5);
	/* the chart's y is cum / n: 0.2 0.4 0.8 1.0 */
	CHECK_NEAR((double)p[2].cum / (double)n, 0.8, 1e-12);
	free(p);
	free(dl);
	/* no delays: no points */
	CHECK_EQ_INT(sl_cdf_points(NULL, 0, &p), 0);
	CHECK(p == NULL);
}

SL_TEST(plot_histogram_bins)
{
	/* max 7 us: edges 0, 1us, 2us, 5us, 10us (10 us is the first edge
	 * above 7 us) -> 4 bins */
	uint64_t *e, c[4];
	uint64_t v[] = { 0, 999, 1000, 1999, 4999, 5000, 7000 };
	size_t nb = sl_hist_edges(7000, &e);
	CHECK_EQ_INT(nb, 4);
	CHECK_EQ_INT(e[0], 0);
	CHECK_EQ_INT(e[1], 1000);
	CHECK_EQ_INT(e[2], 2000);
	CHECK_EQ_INT(e[3], 5000);
	CHECK_EQ_INT(e[4], 10000);
	/* [0,1us): 0, 999; [1,2us): 1000, 1999; [2,5us): 4999; [5,10us): 5000, 7000 */
	sl_hist_count(v, 7, e, nb, c);
	CHECK_EQ_INT(c[0], 2);
	CHECK_EQ_INT(c[1], 2);
	CHECK_EQ_INT(c[2], 1);
	CHECK_EQ_INT(c[3], 2);
	free(e);
	/* a max exactly on an edge goes into the bin that starts there:
	 * max 5 us -> edges 0 1 2 5 10 us again (5 us is not above 5 us) */
	nb = sl_hist_edges(5000, &e);
	CHECK_EQ_INT(nb, 4);
	CHECK_EQ_INT(e[4], 10000);
	free(e);
	/* 3.5 s: edges 0, then 1 2 5 in each of the 7 decades 1 us .. 1 s
	 * (the last, 5 s, is the first above 3.5 s) -> 1 + 3*7 = 22 edges,
	 * 21 bins */
	nb = sl_hist_edges(3500000000ULL, &e);
	CHECK_EQ_INT(nb, 21);
	CHECK_EQ_INT(e[nb], 5000000000ULL);
	free(e);
}

SL_TEST(plot_labels_and_ticks)
{
	char b[32];
	sl_fmt_ns_short(b, sizeof(b), 0);
	CHECK(!strcmp(b, "0 ns"));
	sl_fmt_ns_short(b, sizeof(b), 2000);
	CHECK(!strcmp(b, "2 us"));
	sl_fmt_ns_short(b, sizeof(b), 50000000);
	CHECK(!strcmp(b, "50 ms"));
	sl_fmt_ns_short(b, sizeof(b), 1000000000);
	CHECK(!strcmp(b, "1 s"));
	sl_fmt_ns_short(b, sizeof(b), 1500);
	CHECK(!strcmp(b, "1500 ns"));
	/* 615 ms in about 10 ticks: raw 61.5 -> 100; 350 / 10 = 35 -> 50;
	 * 9.8 / 10 = 0.98 -> 1; 6 / 10 = 0.6 -> 1 (0.6 > 0.5) */
	CHECK_NEAR(sl_nice_step(615, 10), 100, 1e-9);
	CHECK_NEAR(sl_nice_step(350, 10), 50, 1e-9);
	CHECK_NEAR(sl_nice_step(9.8, 10), 1, 1e-9);
	CHECK_NEAR(sl_nice_step(6, 10), 1, 1e-9);
	CHECK_NEAR(sl_nice_step(15, 10), 2, 1e-9);
}

static char *mem_out(void (*fn)(FILE *, const void *, size_t), const void *a, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fn(f, a, n);
	fclose(f);
	return buf;
}

static void html(FILE *f, const void *s, size_t n)
{
	(void)n;
	sl_html_str(f, s);
}

static void b64(FILE *f, const void *s, size_t n)
{
	sl_base64_write(f, s, n);
}

SL_TEST(plot_html_and_base64)
{
	char *o;
	/* a hostile comm: every markup character becomes an entity */
	o = mem_out(html, "<script>a&'\"x", 0);
	CHECK(!strcmp(o, "&lt;script&gt;a&amp;&#39;&quot;x"));
	free(o);
	o = mem_out(html, "ok\x01", 0);
	CHECK(!strcmp(o, "ok?"));
	free(o);
	/* RFC 4648 section 10 test vectors */
	o = mem_out(b64, "foobar", 6);
	CHECK(!strcmp(o, "Zm9vYmFy"));
	free(o);
	o = mem_out(b64, "fooba", 5);
	CHECK(!strcmp(o, "Zm9vYmE="));
	free(o);
	o = mem_out(b64, "foob", 4);
	CHECK(!strcmp(o, "Zm9vYg=="));
	free(o);
	o = mem_out(b64, "f", 1);
	CHECK(!strcmp(o, "Zg=="));
	free(o);
	o = mem_out(b64, "", 0);
	CHECK(!strcmp(o, ""));
	free(o);
	/* bytes above 0x7f: 0xff 0xfe -> 111111 111111 1110(00) -> "//4=" */
	o = mem_out(b64, "\xff\xfe", 2);
	CHECK(!strcmp(o, "//4="));
	free(o);
}

SL_TEST(plot_formats_and_kinds)
{
	enum sl_plot_fmt f;
	struct sl_diag d = { { 0 }, NULL, NULL };
	CHECK_EQ_INT(sl_plot_fmt_of("a/b.PNG", &f, &d), 0);
	CHECK_EQ_INT(f, SL_PLOT_PNG);
	CHECK_EQ_INT(sl_plot_fmt_of("x.svg", &f, &d), 0);
	CHECK_EQ_INT(f, SL_PLOT_SVG);
	CHECK_EQ_INT(sl_plot_fmt_of("x.pdf", &f, &d), 0);
	CHECK_EQ_INT(f, SL_PLOT_PDF);
	CHECK_EQ_INT(sl_plot_fmt_of("x.jpg", &f, &d), -1);
	CHECK_EQ_INT(sl_plot_fmt_of("dir.png/x", &f, &d), -1);
	CHECK(sl_plot_kind_find("latency") != NULL);
	CHECK(sl_plot_kind_find("staircase") != NULL);
	CHECK(sl_plot_kind_find("pie") == NULL);
}

static int cmp_u64_ref(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

SL_TEST(metrics_sort_u64_matches_qsort)
{
	/* sl_sort_u64 (radix) against libc's qsort on: small arrays (insertion
	 * path), delays under 2^32, full 64-bit values, all equal, a constant
	 * high part (skipped passes), already sorted and reversed input; a
	 * fixed-seed xorshift generator, so the inputs are the same each run */
	static const size_t sizes[] = { 0, 1, 2, 63, 64, 1000, 100003 };
	uint64_t seed = 88172645463325252ULL;
	size_t si, i;
	int kind;
	for (kind = 0; kind < 6; kind++)
		for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
			size_t n = sizes[si];
			uint64_t *a = malloc((n ? n : 1) * sizeof(*a)), *b = malloc((n ? n : 1) * sizeof(*b));
			for (i = 0; i < n; i++) {
				seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
				a[i] = kind == 0 ? seed & 0xffffffffULL
				     : kind == 1 ? seed
				     : kind == 2 ? 42
				     : kind == 3 ? (0xabcdULL << 48) | (seed & 0xffff)
				     : kind == 4 ? (uint64_t)i * 3
						 : (uint64_t)(n - i) << 20;
			}
			memcpy(b, a, n * sizeof(*a));
			sl_sort_u64(a, n);
			qsort(b, n, sizeof(*b), cmp_u64_ref);
			CHECK(n == 0 || memcmp(a, b, n * sizeof(*a)) == 0);
			free(a);
			free(b);
		}
}
