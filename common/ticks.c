/* common/ticks.c - see ticks.h. */
#include "ticks.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int sl_ticks_from_ends(const uint64_t *ends, const int *cpu, size_t n, struct sl_ticks *t)
{
	static const int cand[] = { 100, 250, 300, 1000 };
	double r[SL_ARRAY_SIZE(cand)], best = 0, *sx, *sy;
	int maxcpu = 0, c, *cnt;
	size_t j, k;
	memset(t, 0, sizeof(*t));
	for (j = 0; j < n; j++)
		if (cpu[j] > maxcpu)
			maxcpu = cpu[j];
	sx = xcalloc((size_t)maxcpu + 1, sizeof(*sx));
	sy = xcalloc((size_t)maxcpu + 1, sizeof(*sy));
	cnt = xcalloc((size_t)maxcpu + 1, sizeof(*cnt));
	for (k = 0; k < SL_ARRAY_SIZE(cand); k++) {
		/* per CPU (each CPU's tick has its own phase), the resultant length */
		double period = 1e9 / cand[k], tot = 0;
		memset(sx, 0, ((size_t)maxcpu + 1) * sizeof(*sx));
		memset(sy, 0, ((size_t)maxcpu + 1) * sizeof(*sy));
		for (j = 0; j < n; j++) {
			double ph = 2 * M_PI * fmod((double)ends[j], period) / period;
			sx[cpu[j]] += cos(ph);
			sy[cpu[j]] += sin(ph);
		}
		for (c = 0; c <= maxcpu; c++)
			tot += hypot(sx[c], sy[c]);
		r[k] = n ? tot / (double)n : 0;
		if (r[k] > best)
			best = r[k];
	}
	t->samples = n;
	t->conc = best;
	if (n >= 30 && best >= 0.2)
		for (k = 0; k < SL_ARRAY_SIZE(cand) && !t->hz; k++)
			if (r[k] >= 0.6 * best) {
				t->hz = cand[k];
				t->conc = r[k];
			}
	if (t->hz) {
		/* each CPU's phase at that HZ: the peak of its tick preemptions'
		 * phases (the 3 adjacent bins of 64 holding the most), refined to
		 * the circular mean of those in the peak, kept where it holds at
		 * least 10 and 4 times a uniform spread's share (3/64). The mean
		 * over all of them would be pulled off the peak by the
		 * preemptions that are not the tick's (a resultant of 0.59 on
		 * traces/rec-build-mix.dat: 63 us off on CPU 0). */
		double period = 1e9 / t->hz;
		int *bin = xcalloc(64 * ((size_t)maxcpu + 1), sizeof(*bin));
		t->ncpu = maxcpu + 1;
		t->phase_ns = xcalloc((size_t)t->ncpu, sizeof(*t->phase_ns));
		for (j = 0; j < n; j++) {
			int b = (int)(fmod((double)ends[j], period) / period * 64);
			bin[64 * cpu[j] + (b > 63 ? 63 : b)]++;
			cnt[cpu[j]]++;
		}
		for (c = 0; c <= maxcpu; c++) {
			int b, top = 0, in = 0;
			double x = 0, y = 0, a;
			for (b = 0; b < 64; b++) {
				int w = bin[64 * c + (b + 63) % 64] + bin[64 * c + b] + bin[64 * c + (b + 1) % 64];
				if (w > in) {
					in = w;
					top = b;
				}
			}
			t->phase_ns[c] = -1;
			if (in < 10 || in * 64 < 4 * 3 * cnt[c])
				continue;
			for (j = 0; j < n; j++) {
				double f = fmod((double)ends[j], period) / period, ph = 2 * M_PI * f;
				int fb = (int)(f * 64), d;
				if (cpu[j] != c)
					continue;
				d = ((fb > 63 ? 63 : fb) - top + 64) % 64;
				if (d <= 1 || d == 63) {
					x += cos(ph);
					y += sin(ph);
				}
			}
			a = atan2(y, x);
			if (a < 0)
				a += 2 * M_PI;
			t->phase_ns[c] = a / (2 * M_PI) * period;
		}
		free(bin);
	}
	free(sx);
	free(sy);
	free(cnt);
	return t->hz ? 0 : -1;
}


void sl_ticks_release(struct sl_ticks *t)
{
	free(t->phase_ns);
	t->phase_ns = NULL;
}

double sl_ticks_nearest(const struct sl_ticks *t, int cpu, uint64_t ts)
{
	double period, ph;
	if (!t->hz || cpu < 0 || cpu >= t->ncpu || t->phase_ns[cpu] < 0)
		return -1;
	period = 1e9 / t->hz;
	ph = t->phase_ns[cpu];
	return ph + floor(((double)ts - ph) / period + 0.5) * period;
}

int sl_ticks_near(const struct sl_ticks *t, int cpu, uint64_t ts, double w)
{
	double tick = sl_ticks_nearest(t, cpu, ts);
	return tick >= 0 && fabs((double)ts - tick) <= w;
}

double sl_ticks_phase(const struct sl_ticks *t)
{
	double sx = 0, sy = 0, period, a;
	int c, n = 0;
	if (!t->hz)
		return -1;
	period = 1e9 / t->hz;
	for (c = 0; c < t->ncpu; c++) {
		if (t->phase_ns[c] < 0)
			continue;
		sx += cos(2 * M_PI * t->phase_ns[c] / period);
		sy += sin(2 * M_PI * t->phase_ns[c] / period);
		n++;
	}
	if (!n)
		return -1;
	a = atan2(sy, sx);
	if (a < 0)
		a += 2 * M_PI;
	a = a / (2 * M_PI) * period;
	return a >= period ? 0 : a;
}
