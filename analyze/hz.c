/* analyze/hz.c - the recording kernel's tick (CONFIG_HZ and each CPU's
 * tick phase) estimated from its recorded run: see hz.h. */
#include "hz.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether a wakeup of the sorted wk[0..nw) falls in the 100 us up to e:
 * a slice ending runnable then was a wakeup preemption, not the tick's
 * (nor a clock read's) */
static int woken_before(const uint64_t *wk, size_t nw, uint64_t e)
{
	size_t lo = 0, hi = nw;
	/* the first wakeup at or after e - 100 us */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (wk[mid] + 100000 < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nw && wk[lo] <= e;
}

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
		if (sl->end_state != 'R' || sl->cpu < 0 || woken_before(wk, nw, e))
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

/* The number after "key": in a flat JSON object, or NAN */
static double param_num(const char *params, const char *key)
{
	char k[64];
	const char *p;
	char *end;
	double v;
	snprintf(k, sizeof(k), "\"%s\":", key);
	p = strstr(params, k);
	if (!p)
		return NAN;
	v = strtod(p + strlen(k), &end);
	return end == p + strlen(k) ? NAN : v;
}

int sl_recording_hz(const struct sl_run_data *rec, int *hz, size_t *samples, double *conc,
		    const char **from)
{
	double h = param_num(rec->run.params, "tick_hz"), n = param_num(rec->run.params, "tick_samples"),
	       c = param_num(rec->run.params, "tick_concentration");
	if (!isnan(h) && h >= 1 && h <= 100000 && !isnan(n) && n >= 0 && !isnan(c)) {
		*hz = (int)h;
		*samples = (size_t)n;
		*conc = c;
		*from = "scheduler ticks (sched_stat_runtime)";
		return 0;
	}
	*from = "tick preemptions";
	return sl_estimate_hz(rec, hz, samples, conc);
}

int64_t sl_recording_tick_phase(const char *params, int hz)
{
	double h = param_num(params, "tick_phase_hz"), ph = param_num(params, "tick_phase_ns");
	if (isnan(h) || isnan(ph) || hz <= 0 || (int)h != hz || ph < 0 || ph >= 1e9 / hz)
		return -1;
	return (int64_t)ph;
}

void sl_ticks_fill_recorded(struct sl_ticks *t, const char *params, int ncpu)
{
	double h = param_num(params, "tick_phase_hz");
	int64_t ph;
	int c;
	if (isnan(h) || h < 1 || h > 100000 || (t->hz && t->hz != (int)h) || ncpu < 1)
		return;
	ph = sl_recording_tick_phase(params, (int)h);
	if (ph < 0)
		return;
	if (!t->hz) {
		sl_ticks_release(t);
		t->hz = (int)h;
		t->ncpu = 0;
	}
	if (t->ncpu < ncpu) {
		t->phase_ns = xrealloc(t->phase_ns, (size_t)ncpu * sizeof(*t->phase_ns));
		for (c = t->ncpu; c < ncpu; c++)
			t->phase_ns[c] = -1;
		t->ncpu = ncpu;
	}
	for (c = 0; c < t->ncpu; c++)
		if (t->phase_ns[c] < 0)
			t->phase_ns[c] = (double)ph;
}

int sl_recording_sched_features(const struct sl_run_data *rec, char *out, size_t len)
{
	const char *p = strstr(rec->run.params, "\"sched_features\":\"");
	size_t n;
	if (!p || !len)
		return -1;
	p += strlen("\"sched_features\":\"");
	n = strcspn(p, "\"");
	if (p[n] != '"' || n >= len)
		return -1;
	memcpy(out, p, n);
	out[n] = 0;
	return 0;
}

int sl_recording_vcpu_pack(const struct sl_run_data *rec)
{
	double v = param_num(rec->run.params, "vcpu_pack");
	return !isnan(v) && v >= 0 && v <= 1 << 30 ? (int)v : -1;
}

int sl_poll_ticks(struct sl_poll_obs *o, struct sl_ticks *t)
{
	uint64_t *ends;
	int *cpu, rc;
	size_t n = 0, i;
	memset(t, 0, sizeof(*t));
	if (!o->nr)
		return -1;
	sl_sort_u64(o->wk, o->nw);
	ends = xcalloc(o->nr, sizeof(*ends));
	cpu = xcalloc(o->nr, sizeof(*cpu));
	/* the ends with no wakeup in the 100 us before (as tick_ends): a
	 * wakeup preemption is not a clock read's */
	for (i = 0; i < o->nr; i++) {
		const struct sl_rend *r = &o->r[i];
		if (r->cpu < 0 || woken_before(o->wk, o->nw, r->ts)) {
			o->r[i].cpu = -1; /* left out by sl_mark_polls */
			continue;
		}
		ends[n] = r->ts;
		cpu[n++] = r->cpu;
	}
	rc = sl_ticks_from_ends(ends, cpu, n, t);
	free(ends);
	free(cpu);
	return rc || !t->hz ? -1 : 0;
}

size_t sl_mark_polls(struct sl_behaviour *b, const struct sl_poll_obs *o, const struct sl_ticks *t)
{
	size_t i, marked = 0, *off, *all;
	if (!o->nr || !t->hz)
		return 0;
	off = xcalloc(b->ntasks + 1, sizeof(*off));
	all = xcalloc(b->ntasks + 1, sizeof(*all));
	for (i = 0; i < o->nr; i++) {
		const struct sl_rend *r = &o->r[i];
		double tick;
		if (r->cpu < 0 || r->task < 0 || (size_t)r->task >= b->ntasks)
			continue;
		tick = sl_ticks_nearest(t, r->cpu, r->ts);
		if (tick < 0)
			continue;
		all[r->task]++;
		if (fabs((double)r->ts - tick) > SL_POLL_TICK_NS)
			off[r->task]++;
	}
	for (i = 0; i < b->ntasks; i++)
		if (off[i] >= SL_POLL_MIN && off[i] * 5 >= all[i] * 3) {
			b->tasks[i].flags |= SL_TASK_POLLS;
			marked++;
		}
	free(off);
	free(all);
	return marked;
}

size_t sl_mark_tick_timers(struct sl_behaviour *b, const struct sl_ticks *t)
{
	double period, w, ph;
	size_t i, k, marked = 0;
	if (!t->hz || (ph = sl_ticks_phase(t)) < 0)
		return 0;
	period = 1e9 / t->hz;
	w = period / 20 < SL_TICK_TIMER_NS ? period / 20 : SL_TICK_TIMER_NS;
	for (i = 0; i < b->ntasks; i++) {
		struct sl_task_spec *s = &b->tasks[i];
		size_t timed = 0, at_tick = 0;
		for (k = 0; k < s->nphases; k++) {
			struct sl_phase *p = &s->phases[k];
			double tick, start, n;
			int c;
			p->tick_n = 0;
			if (!p->wake_ts || p->sleep_ns == SL_INF || p->sleep_ns > p->wake_ts ||
			    !sl_end_sleeps(p->end) ||
			    (p->waker_kind != SL_WAKER_IRQ && p->waker_kind != SL_WAKER_IDLE))
				continue;
			timed++;
			/* the tick of the CPU the wakeup fired on, else the
			 * machine's (the CPUs tick together) */
			c = sl_phase_wake_cpu(p);
			tick = sl_ticks_nearest(t, c, p->wake_ts);
			if (tick < 0)
				tick = ph + floor(((double)p->wake_ts - ph) / period + 0.5) * period;
			if (fabs((double)p->wake_ts - tick) > w)
				continue;
			/* the ticks after the sleep's start, up to that one; a
			 * sleep begun in that tick's own window (the tick's work
			 * woke the task, and again) is not a later tick's */
			start = (double)(p->wake_ts - p->sleep_ns);
			if (start >= tick - w)
				continue;
			/* the tick itself came before the wakeup it caused: the
			 * estimate (from the switches after it) may be later */
			if ((double)p->wake_ts < tick)
				tick = (double)p->wake_ts;
			n = ceil((tick - start) / period);
			if (n < 1 || n > 1e9)
				continue;
			p->tick_n = (uint32_t)n;
			at_tick++;
		}
		/* a task whose timers are the wheel's wakes at the tick nearly
		 * always (rcu_preempt: 481 of its 524 on ed-desktop); an
		 * hrtimer's wakeups fall anywhere, a few near a tick by chance
		 * (2 w / period of them): those stay as recorded */
		if (at_tick * 2 < timed) {
			for (k = 0; k < s->nphases; k++)
				s->phases[k].tick_n = 0;
			continue;
		}
		marked += at_tick;
	}
	return marked;
}
