/* analyze/hz.c - the recording kernel's tick (CONFIG_HZ and each CPU's
 * tick phase) estimated from its recorded run: see hz.h. */
#include "hz.h"

#include <stdlib.h>

/* The end times (and CPUs) of the slices that ended runnable (R) with no
 * wakeup in the 100 us before: the tick preemptions (sl_estimate_hz) */
static size_t tick_ends(const struct sl_run_data *rec, uint64_t *ends, int *cpu)
{
	uint64_t *wk = xcalloc(rec->nwakeups ? rec->nwakeups : 1, sizeof(*wk));
	size_t n = 0, nw = 0, i;
	for (i = 0; i < rec->nwakeups; i++)
		wk[nw++] = rec->wakeups[i].ts;
	sl_sort_u64(wk, nw);
	for (i = 0; i < rec->nslices; i++) {
		const struct sl_slice_row *sl = &rec->slices[i];
		uint64_t e = sl->ts + sl->dur;
		size_t lo = 0, hi = nw;
		if (sl->end_state != 'R' || sl->cpu < 0)
			continue;
		/* the first wakeup at or after e - 100 us: a wakeup preemption if <= e */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (wk[mid] + 100000 < e)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < nw && wk[lo] <= e)
			continue;
		ends[n] = e;
		cpu[n++] = sl->cpu;
	}
	free(wk);
	return n;
}

int sl_estimate_ticks(const struct sl_run_data *rec, struct sl_ticks *t)
{
	uint64_t *ends = xcalloc(rec->nslices ? rec->nslices : 1, sizeof(*ends));
	int *cpu = xcalloc(rec->nslices ? rec->nslices : 1, sizeof(*cpu));
	size_t n = tick_ends(rec, ends, cpu);
	int rc = sl_ticks_from_ends(ends, cpu, n, t);
	free(ends);
	free(cpu);
	return rc;
}

int sl_estimate_hz(const struct sl_run_data *rec, int *hz, size_t *samples, double *conc)
{
	struct sl_ticks t;
	int rc = sl_estimate_ticks(rec, &t);
	*samples = t.samples;
	*conc = t.conc;
	if (!rc)
		*hz = t.hz;
	sl_ticks_release(&t);
	return rc;
}
