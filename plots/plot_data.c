/* plots/plot_data.c - the numbers charts are drawn from: CDF steps,
 * histogram bins, tick steps, short duration labels. */
#include "plot.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

size_t sl_cdf_points(const uint64_t *sorted, size_t n, struct sl_cdf_point **pts)
{
	struct sl_cdf_point *p;
	size_t i, k = 0;
	*pts = NULL;
	if (!n)
		return 0;
	p = xmalloc(n * sizeof(*p));
	for (i = 0; i < n; i++) {
		/* the last of a run of equal values carries the count */
		if (i + 1 < n && sorted[i + 1] == sorted[i])
			continue;
		p[k].delay_ns = sorted[i];
		p[k].cum = i + 1;
		k++;
	}
	*pts = p;
	return k;
}

size_t sl_hist_edges(uint64_t max_ns, uint64_t **edges)
{
	static const uint64_t mult[] = { 1, 2, 5 };
	uint64_t *e = NULL, dec = 1000;
	size_t cap = 0, n = 0, i = 0;
	SL_GROW(e, cap, 1);
	e[n++] = 0;
	for (;;) {
		uint64_t v = mult[i] * dec;
		SL_GROW(e, cap, n + 1);
		e[n++] = v;
		if (v > max_ns || v >= UINT64_MAX / 50)
			break;
		if (++i == 3) {
			i = 0;
			dec *= 10;
		}
	}
	*edges = e;
	return n - 1;
}

void sl_hist_count(const uint64_t *sorted, size_t n, const uint64_t *edges, size_t nbins,
		   uint64_t *counts)
{
	size_t i, b = 0;
	for (i = 0; i < nbins; i++)
		counts[i] = 0;
	for (i = 0; i < n; i++) {
		while (b < nbins && sorted[i] >= edges[b + 1])
			b++;
		if (b < nbins)
			counts[b]++;
	}
}

void sl_fmt_ns_short(char *buf, size_t len, uint64_t ns)
{
	if (ns && ns % 1000000000ULL == 0)
		snprintf(buf, len, "%" PRIu64 " s", ns / (uint64_t)1000000000);
	else if (ns && ns % 1000000ULL == 0)
		snprintf(buf, len, "%" PRIu64 " ms", ns / (uint64_t)1000000);
	else if (ns && ns % 1000ULL == 0)
		snprintf(buf, len, "%" PRIu64 " us", ns / (uint64_t)1000);
	else
		snprintf(buf, len, "%" PRIu64 " ns", ns);
}

double sl_nice_step(double span, int want)
{
	double raw = span / (want > 0 ? want : 1), p = pow(10, floor(log10(raw)));
	if (raw <= p)
		return p;
	if (raw <= 2 * p)
		return 2 * p;
	if (raw <= 5 * p)
		return 5 * p;
	return 10 * p;
}
