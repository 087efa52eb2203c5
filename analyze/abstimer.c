/* analyze/abstimer.c - see abstimer.h.
 *
 * A periodic loop on an absolute timer (clock_nanosleep(TIMER_ABSTIME) with
 * next += period: cyclictest's default, a frame or audio loop) wakes on a
 * fixed grid however long its bursts and their waits took: its sleep is
 * what is left of the period. A loop on a relative timer (nanosleep(d))
 * sleeps the same d each time, and its period stretches with its bursts.
 * The trace tells them apart: the absolute loop's wakeups are evenly
 * spaced and its sleeps vary, the relative loop's the other way round.
 * Replaying an absolute loop's sleep at its recorded length shifts every
 * later wakeup by whatever the replay's bursts and waits added; the kernel
 * would have fired the timer on the period. The replay ends such a sleep
 * at the task's last deadline plus the recorded interval between the two
 * wakeups, the wakeup times kept here (replay/hrtimer.c sl_abs_timer_end;
 * at once when that has passed: clock_nanosleep returns at once for a
 * time gone by). */
#include "abstimer.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

/* a task needs this many intervals between consecutive timer wakeups */
#define ABS_MIN_INTERVALS 12
/* on the grid: within 2 % of the period */
#define ABS_GRID_TOL 50
/* the period at least 200 us (an interrupt's jitter is a few us) */
#define ABS_MIN_PERIOD_NS 200000ULL
/* a cycle ran long when its bursts and waits took 100 us more than their
 * median; at least 3 such (else the loop replays the same either way) */
#define ABS_EXCURSION_NS 100000ULL
#define ABS_MIN_EXCURSIONS 3

int sl_abs_timer_sleep(const struct sl_phase *p)
{
	return p->wake_ts && p->sleep_ns != SL_INF && sl_end_sleeps(p->end) && !p->tick_n &&
	       (p->waker_kind == SL_WAKER_IRQ || p->waker_kind == SL_WAKER_IDLE) && p->sleep_cpu1 &&
	       p->wake_cpu1 == p->sleep_cpu1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* the q-th quartile (q of 4: 2 the median) of v[0..n), sorted */
static uint64_t quarter(uint64_t *v, size_t n, int q)
{
	size_t i = (n - 1) * (size_t)q / 4;
	return v[i];
}

/* Is s an absolute periodic loop? d, x, xs: scratch, as many as its phases:
 * its intervals between consecutive timer wakeups, the time before the
 * sleep in each (its bursts and waits: the interval less the sleep), and
 * room to sort either. */
static int periodic_abs(const struct sl_task_spec *s, uint64_t *d, uint64_t *x, uint64_t *xs)
{
	size_t k, nd = 0, ongrid = 0, nexc = 0, nabs = 0, prev = SIZE_MAX;
	uint64_t p, mx;
	for (k = 0; k < s->nphases; k++) {
		const struct sl_phase *ph = &s->phases[k];
		if (!sl_end_sleeps(ph->end))
			continue;
		if (!sl_abs_timer_sleep(ph)) {
			prev = SIZE_MAX; /* another kind of sleep between: no interval */
			continue;
		}
		if (prev != SIZE_MAX && ph->wake_ts > s->phases[prev].wake_ts &&
		    ph->wake_ts - s->phases[prev].wake_ts > ph->sleep_ns) {
			d[nd] = ph->wake_ts - s->phases[prev].wake_ts;
			x[nd] = d[nd] - ph->sleep_ns;
			nd++;
		}
		prev = k;
	}
	if (nd < ABS_MIN_INTERVALS)
		return 0;
	memcpy(xs, d, nd * sizeof(*d));
	qsort(xs, nd, sizeof(*xs), cmp_u64);
	p = quarter(xs, nd, 2);
	if (p < ABS_MIN_PERIOD_NS)
		return 0;
	for (k = 0; k < nd; k++)
		ongrid += (d[k] > p ? d[k] - p : p - d[k]) * ABS_GRID_TOL <= p;
	if (ongrid * 4 < nd * 3)
		return 0; /* not three in four intervals on the period */
	/* the cycles whose bursts and waits ran 100 us or more past their
	 * median: an absolute loop's interval stays on the grid (its sleep
	 * takes up the slack; a cycle that ran past its next deadline does not
	 * sleep for it, clock_nanosleep returning at once, and wakes on a later
	 * one: a multiple of the period), a relative loop's grows by the
	 * excess; each such cycle votes for the nearer (three in four, of 3 or
	 * more) */
	memcpy(xs, x, nd * sizeof(*x));
	qsort(xs, nd, sizeof(*xs), cmp_u64);
	mx = quarter(xs, nd, 2);
	for (k = 0; k < nd; k++) {
		uint64_t e, a, r, rel, m;
		if (x[k] < mx + ABS_EXCURSION_NS)
			continue;
		e = x[k] - mx;
		rel = p + e;
		m = (d[k] + p / 2) / p; /* the nearest multiple, 1 at least */
		m = (m ? m : 1) * p;
		a = d[k] > m ? d[k] - m : m - d[k];
		r = d[k] > rel ? d[k] - rel : rel - d[k];
		nexc++;
		nabs += a < r;
	}
	return nexc >= ABS_MIN_EXCURSIONS && nabs * 4 >= nexc * 3;
}

size_t sl_mark_abs_timers(struct sl_behaviour *b)
{
	size_t i, k, n = 0;
	for (i = 0; i < b->ntasks; i++) {
		struct sl_task_spec *s = &b->tasks[i];
		uint64_t *d, *x, *xs;
		s->flags &= ~(uint32_t)SL_TASK_ABS_TIMER;
		if (s->nphases < ABS_MIN_INTERVALS + 1)
			continue;
		d = xmalloc(s->nphases * sizeof(*d));
		x = xmalloc(s->nphases * sizeof(*x));
		xs = xmalloc(s->nphases * sizeof(*xs));
		if (periodic_abs(s, d, x, xs)) {
			s->flags |= SL_TASK_ABS_TIMER;
			n++;
		}
		free(d);
		free(x);
		free(xs);
		if (!(s->flags & SL_TASK_ABS_TIMER))
			continue;
		for (k = 0; k < s->nphases; k++)
			if (!sl_abs_timer_sleep(&s->phases[k]))
				s->phases[k].wake_ts = 0;
	}
	return n;
}
