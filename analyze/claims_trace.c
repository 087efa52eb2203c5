/* analyze/claims_trace.c - the claims checked on real traces: the bundled
 * recordings of the thread's reports (traces/README.md: Gene Heskett's
 * desktop, Ed Tomlinson's, massive_intr with 200 processes, pipe
 * messaging) and any imported trace (`claims --trace`). Each trace is read
 * in memory (collector readers + behaviour model, no database), cut to the
 * workload's process trees, and replayed through every model; the claims
 * take their numbers from those replays (docs/claims.md). */
#include "claims_int.h"
#include "../collector/event.h"
#include "../collector/model.h"
#include "wall.h"
#include "../replay/engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS SL_NS_PER_MS
#define NONE UINT64_MAX

static double ms(uint64_t ns)
{
	return (double)ns / (double)MS;
}

/* ---- reading a trace in memory ---- */

/* the recorded run's rows, kept for the column beside the models, and its
 * slices seen as an import sees them for the wall-clock tasks (wall.h) */
struct rec_cx {
	struct sl_rec_rows *rows;
	struct sl_wall_obs wall;
};
static int rec_slice(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task, char end, int prio)
{
	struct rec_cx *c = ctx;
	(void)prio;
	sl_rec_slice(c->rows, task, cpu, ts, dur, end);
	sl_wall_obs_slice(&c->wall, task, ts, dur, end);
	return 0;
}
static int rec_wakeup(void *ctx, int task, uint64_t ts, uint64_t ts_run, int waker, int cpu)
{
	struct rec_cx *c = ctx;
	(void)waker, (void)cpu;
	sl_rec_wakeup(c->rows, task, ts, ts_run);
	return 0;
}

static int load_file(const char *path, struct sl_behaviour *b, struct sl_rec_rows *rows, struct sl_diag *d)
{
	const struct sl_reader *rd;
	struct rec_cx c = { rows, { NULL, 0 } };
	struct sl_run_sink k = { &c, rec_slice, rec_wakeup, NULL, NULL, NULL };
	struct sl_model *m;
	struct sl_model_stats st;
	uint64_t *first = NULL, *last = NULL;
	int rc;
	memset(b, 0, sizeof(*b));
	memset(&st, 0, sizeof(st));
	rd = sl_reader_detect(path, NULL, d);
	if (!rd)
		return -1;
	m = sl_model_new(&k, d);
	if (!m)
		return -1;
	rc = rd->read(path, sl_model_event, m, d);
	if (!rc)
		rc = sl_model_finish(m, b, &first, &last, &st);
	if (!rc) /* as the import marks them (analyze/import.c) */
		sl_mark_wall(b, &c.wall);
	sl_wall_obs_release(&c.wall);
	free(first);
	free(last);
	free(st.lost_per_cpu);
	free(st.uncertain_ns);
	free(st.work);
	sl_model_free(m);
	return rc;
}

/* The tasks called one of roots[] and everything they fork, as a
 * behaviour of their own (indexes, parents and wakers renumbered; a waker
 * left out becomes "none"). */
static void subset(const struct sl_behaviour *in, const char *const *roots, struct sl_behaviour *out,
		   struct sl_rec_rows *rows)
{
	int *keep = xcalloc(in->ntasks + 1, sizeof(*keep)), *map = xcalloc(in->ntasks + 1, sizeof(*map));
	size_t i, n = 0;
	for (i = 0; i < in->ntasks; i++) {
		const struct sl_task_spec *t = &in->tasks[i];
		size_t r, depth;
		int p;
		for (r = 0; roots[r]; r++)
			if (!strcmp(t->comm, roots[r]))
				keep[i] = 1;
		/* an ancestor kept (parents come first: a fork precedes the child) */
		for (p = t->parent, depth = 0; !keep[i] && p >= 0 && (size_t)p < in->ntasks && depth < 64; depth++) {
			size_t rr;
			for (rr = 0; roots[rr]; rr++)
				if (!strcmp(in->tasks[p].comm, roots[rr]))
					keep[i] = 1;
			p = in->tasks[p].parent;
		}
		if (in->tasks[i].flags & SL_TASK_IDLE)
			keep[i] = 0;
	}
	memset(out, 0, sizeof(*out));
	for (i = 0; i < in->ntasks; i++)
		map[i] = keep[i] ? (int)n++ : -1;
	out->tasks = xcalloc(n ? n : 1, sizeof(*out->tasks));
	out->ntasks = n;
	out->cpus = in->cpus;
	out->t0 = in->t0;
	out->span_ns = in->span_ns;
	sl_behaviour_copy_groups(out, in);
	for (i = 0; i < in->ntasks; i++) {
		struct sl_task_spec *t;
		size_t k;
		if (!keep[i])
			continue;
		t = &out->tasks[map[i]];
		*t = in->tasks[i];
		t->idx = map[i];
		t->parent = t->parent >= 0 && (size_t)t->parent < in->ntasks ? map[t->parent] : -1;
		if (t->nphases) {
			t->phases = xmalloc(t->nphases * sizeof(*t->phases));
			memcpy(t->phases, in->tasks[i].phases, t->nphases * sizeof(*t->phases));
			for (k = 0; k < t->nphases; k++) {
				struct sl_phase *ph = &t->phases[k];
				if (ph->waker >= 0 && (size_t)ph->waker < in->ntasks)
					ph->waker = map[ph->waker];
				else
					ph->waker = -1;
				if (ph->waker < 0 && ph->waker_kind == SL_WAKER_TASK)
					ph->waker_kind = SL_WAKER_NONE;
			}
		}
	}
	/* the recorded rows of the tasks kept, renumbered */
	for (i = 0, n = 0; i < rows->n; i++) {
		int k = rows->v[i].task;
		if (k >= 0 && (size_t)k < in->ntasks && keep[k]) {
			rows->v[n] = rows->v[i];
			rows->v[n++].task = map[k];
		}
	}
	rows->n = n;
	free(keep);
	free(map);
}

/* A deep copy of in. */
static void copy_behaviour(const struct sl_behaviour *in, struct sl_behaviour *out)
{
	size_t i;
	*out = *in;
	sl_behaviour_copy_groups(out, in);
	out->cpu_up_ns = NULL; /* its own copy, freed with it */
	if (in->cpu_up_ns && in->cpus > 0) {
		out->cpu_up_ns = xmalloc((size_t)in->cpus * sizeof(*out->cpu_up_ns));
		memcpy(out->cpu_up_ns, in->cpu_up_ns, (size_t)in->cpus * sizeof(*out->cpu_up_ns));
	}
	out->tasks = xcalloc(in->ntasks ? in->ntasks : 1, sizeof(*out->tasks));
	for (i = 0; i < in->ntasks; i++) {
		out->tasks[i] = in->tasks[i];
		if (in->tasks[i].nphases) {
			out->tasks[i].phases = xmalloc(in->tasks[i].nphases * sizeof(struct sl_phase));
			memcpy(out->tasks[i].phases, in->tasks[i].phases, in->tasks[i].nphases * sizeof(struct sl_phase));
		}
	}
}

/* ---- interactive tasks, frames ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[(n - 1) / 2];
}

/* The recorders' own threads: they watch the workload, they are not in
 * it (issue 25: `schedlab record`, which wakes every few milliseconds to
 * drain the buffers, was found interactive on rec-build-mix.dat; systing's
 * sched_recorder threads on the 22-CPU Perfetto trace). */
static int is_recorder(const char *comm)
{
	static const char *const names[] = { "schedlab", "trace-cmd", "perf", "traced", "traced_probes",
					     "sched_recorder", "systing", "atrace" };
	size_t i;
	for (i = 0; i < SL_ARRAY_SIZE(names); i++)
		if (!strcmp(comm, names[i]))
			return 1;
	return 0;
}

size_t sl_claims_interactive(const struct sl_behaviour *b, const char *comm, int *mark)
{
	enum { MAXPH = 100000 }; /* phases looked at per task */
	size_t i, found = 0;
	for (i = 0; i < b->ntasks; i++) {
		const struct sl_task_spec *t = &b->tasks[i];
		uint64_t run = 0, sl = 0, *bursts, *cyc, med, mad;
		size_t k, ns = 0, np = t->nphases ? t->nphases : MAXPH, by_task = 0, by_child = 0;
		struct sl_phase ph;
		int endless = 0;
		mark[i] = 0;
		if (comm) {
			mark[i] = !strcmp(t->comm, comm) && sl_task_phase(t, 0, &ph) == 0;
			found += (size_t)mark[i];
			continue;
		}
		if (t->flags & (SL_TASK_KTHREAD | SL_TASK_IDLE) || is_recorder(t->comm))
			continue;
		if (np > MAXPH)
			np = MAXPH;
		bursts = xmalloc(np * sizeof(*bursts));
		cyc = xmalloc(np * sizeof(*cyc));
		for (k = 0; k < np && sl_task_phase(t, k, &ph) == 0; k++) {
			if (ph.run_ns == SL_INF) {
				endless = 1;
				break;
			}
			run += ph.run_ns;
			if (sl_end_sleeps(ph.end)) {
				/* its wakeup sources: a task, and one it forked? */
				if (ph.waker_kind == SL_WAKER_TASK && ph.waker >= 0 &&
				    (size_t)ph.waker < b->ntasks) {
					by_task++;
					by_child += b->tasks[ph.waker].parent == (int32_t)i;
				}
				sl += ph.sleep_ns;
				bursts[ns] = ph.run_ns;
				cyc[ns++] = ph.run_ns + ph.sleep_ns;
			}
		}
		/* mostly sleeping: CPU under 30 % of run + sleep; short bursts;
		 * present for half the trace or more (issue 25: short-lived
		 * build processes, the compilers, are not the desktop's interactive
		 * tasks); and not woken mostly by the tasks it forked (make, a
		 * shell running a script: woken as its children exit) */
		if (!endless && ns >= 20 && run * 10 < (run + sl) * 3 && median(bursts, ns) < 5 * MS &&
		    (!b->span_ns || 2 * (run + sl) >= b->span_ns) && 2 * by_child <= by_task) {
			/* periodic: cycles within one median of the median */
			med = median(cyc, ns);
			for (k = 0; k < ns; k++)
				cyc[k] = cyc[k] > med ? cyc[k] - med : med - cyc[k];
			mad = median(cyc, ns);
			if (mad < med) {
				mark[i] = 1;
				found++;
			}
		}
		free(bursts);
		free(cyc);
	}
	return found;
}

uint64_t sl_claims_frames_lost(const uint64_t *f, size_t nf, uint64_t p, const uint64_t *wlo,
			       const uint64_t *whi, size_t nw)
{
	uint64_t lost = 0;
	size_t k, w;
	if (!p)
		return 0;
	for (k = 0; k + 1 < nf; k++) {
		uint64_t g = f[k + 1] - f[k];
		for (w = 0; w < nw; w++)
			if (f[k] < whi[w] && f[k + 1] > wlo[w]) { /* the gap overlaps the burst */
				if (g / p >= 2)
					lost += g / p - 1;
				break;
			}
	}
	return lost;
}

/* ---- replays of one trace ---- */

struct tr {
	struct sl_behaviour b;
	const char *file;
	int cpus;
	/* the models' replays, and at sl_claim_recorded() the recorded run */
	struct sl_scen_result r[SL_CLAIM_MAXMODELS];
	int ran[SL_CLAIM_MAXMODELS];
};

/* The recorded run's rows reduced into t's recorded column. */
static void tr_recorded(struct tr *t, struct sl_rec_rows *rows)
{
	int k = sl_claim_recorded();
	if (k < 0 || !rows || !rows->n)
		return;
	sl_scenario_recorded(&t->b, rows, &t->r[k]);
	t->ran[k] = 1;
}

static void tr_release(struct tr *t)
{
	int m;
	for (m = 0; m < SL_CLAIM_MAXMODELS; m++)
		if (t->ran[m])
			sl_scen_result_release(&t->r[m]);
	sl_behaviour_release(&t->b);
}

/* Replay t through every model, timed, for the recorded span; count the
 * tasks for claim 2r. */
static int tr_replay(struct sl_claims_cx *x, struct tr *t)
{
	int m;
	for (m = 0; m < sl_claim_nmodels(); m++) {
		char label[64];
		if (!x->on[m])
			continue;
		if (sl_scenario_replay(&t->b, sl_claim_model_name(m), t->cpus, SL_MODE_TIMED, t->b.span_ns, x->o->debug,
				       &t->r[m], x->d))
			return -1;
		t->ran[m] = 1;
		snprintf(label, sizeof(label), "%s", t->file);
		sl_starve_add_competing(&x->svr[m], &t->r[m], label);
		x->svr_any = 1;
	}
	{
		struct sl_claim *c = sl_claims_get(x, "2r");
		size_t l = strcmp(c->from, "scenario") ? strlen(c->from) : 0;
		snprintf(c->from + l, sizeof(c->from) - l, "%s%s", l ? ", " : "", t->file);
	}
	return 0;
}

/* Makespan of a causal replay of t through model m: from the first slice
 * of a task in mark (all if NULL) to the end of the last one; also the
 * wakeups and the exited tasks counted. */
static int causal(struct sl_claims_cx *x, const struct tr *t, int m, const int *mark, double *span_s,
		  uint64_t *wakeups, uint64_t *exited)
{
	struct sl_scen_result r;
	uint64_t lo = NONE, hi = 0;
	size_t i;
	if (sl_scenario_replay(&t->b, sl_claim_model_name(m), t->cpus, SL_MODE_CAUSAL, 0, x->o->debug, &r, x->d))
		return -1;
	*wakeups = 0;
	*exited = 0;
	for (i = 0; i < r.ntasks; i++) {
		if (mark && !mark[i])
			continue;
		if (r.t[i].first_run_ns != NONE && r.t[i].first_run_ns < lo)
			lo = r.t[i].first_run_ns;
		if (r.t[i].last_end_ns > hi)
			hi = r.t[i].last_end_ns;
		*wakeups += r.t[i].ndelays;
		if (t->b.tasks[i].flags & SL_TASK_EXITED)
			(*exited)++;
	}
	*span_s = lo == NONE || hi <= lo ? NAN : (double)(hi - lo) / 1e9;
	sl_scen_result_release(&r);
	return 0;
}

static void trace_from(struct sl_claim *c, const char *file, int cpus)
{
	snprintf(c->from, sizeof(c->from), "%s, %d CPU%s", file, cpus, cpus == 1 ? "" : "s");
}

/* 10 and 10c: the longest wait of the interactive tasks; 20: their p99
 * delay against o1's. The chart of 10 is the longest wait per interactive
 * task (up to 8), of 20 the delay percentiles. */
static void interactive_claims(struct sl_claims_cx *x, struct tr *t, const int *mark, size_t nmark,
			       const char *how, int do10, int do20)
{
	struct sl_claim *c10 = do10 ? sl_claims_get(x, "10") : NULL, *c10c = do10 ? sl_claims_get(x, "10c") : NULL;
	struct sl_claim *c20 = do20 ? sl_claims_get(x, "20") : NULL;
	int o1 = sl_claim_model_index("o1"), m;
	double p99o1 = NAN;
	size_t i, nx = 0, l, *ord = xcalloc(t->b.ntasks + 1, sizeof(*ord)), no = 0;
	char names[400] = "", list[480];
	/* their names, the most often sleeping first */
	for (i = 0; i < t->b.ntasks; i++)
		if (mark[i])
			ord[no++] = i;
	for (i = 1; i < no; i++) { /* insertion sort: nphases descending, index ascending */
		size_t v = ord[i], j = i;
		while (j && t->b.tasks[ord[j - 1]].nphases < t->b.tasks[v].nphases) {
			ord[j] = ord[j - 1];
			j--;
		}
		ord[j] = v;
	}
	for (i = 0; i < no && strlen(names) < 360; i++) {
		const char *cm = t->b.tasks[ord[i]].comm;
		l = strlen(names);
		if (l) { /* once per name */
			char *p = names;
			int seen = 0;
			while ((p = strstr(p, cm)) != NULL) {
				if ((p == names || p[-1] == ' ') && (p[strlen(cm)] == ',' || !p[strlen(cm)]))
					seen = 1;
				p++;
			}
			if (seen)
				continue;
		}
		snprintf(names + l, sizeof(names) - l, "%s%s", l ? ", " : "", cm);
	}
	free(ord);
	snprintf(list, sizeof(list), "%zu interactive task%s (%s): %.400s%s", nmark, nmark == 1 ? "" : "s", how,
		 names, i < no ? ", ..." : "");
	if (!nmark) {
		if (c10)
			sl_claims_untestable(c10, "no interactive task in %s (%s)", t->file, how);
		if (c10c)
			sl_claims_untestable(c10c, "no interactive task in %s (%s)", t->file, how);
		if (c20)
			sl_claims_untestable(c20, "no interactive task in %s (%s)", t->file, how);
		return;
	}
	if (c10) {
		snprintf(c10->extra, sizeof(c10->extra), "%s", list);
		snprintf(c10c->extra, sizeof(c10c->extra), "%s", list);
		trace_from(c10, t->file, t->cpus);
		trace_from(c10c, t->file, t->cpus);
		c10->chart.kind = SL_CHART_GROUPS;
		snprintf(c10->chart.ylabel, sizeof(c10->chart.ylabel), "longest wait (ms, log)");
		c10->chart.logy = 1;
		c10->chart.ref = 1;
		for (i = 0; i < t->b.ntasks && nx < 8; i++)
			if (mark[i]) {
				snprintf(c10->chart.xt[nx], sizeof(c10->chart.xt[nx]), "%.14s/%d", t->b.tasks[i].comm,
					 t->b.tasks[i].tid);
				for (m = 0; m < sl_claim_ncols(); m++)
					if (t->ran[m]) {
						sl_chart_series(&c10->chart, (size_t)m, sl_claim_model_name(m));
						sl_chart_point(&c10->chart, (size_t)m, (double)nx,
							       ms(t->r[m].t[i].max_wait_ns));
					}
				nx++;
			}
		c10->chart.nx = nx;
	}
	if (c20) {
		snprintf(c20->extra, sizeof(c20->extra), "%s", list);
		trace_from(c20, t->file, t->cpus);
		sl_chart_percentiles(&c20->chart);
		c20->chart.logy = 1;
		snprintf(c20->chart.ylabel, sizeof(c20->chart.ylabel), "wakeup delay of %.30s (ms, log)", names);
	}
	for (m = 0; m < sl_claim_ncols(); m++) {
		struct sl_scen_task all;
		uint64_t worst = 0;
		size_t n = 0, cap = 0;
		if (!t->ran[m])
			continue;
		memset(&all, 0, sizeof(all));
		for (i = 0; i < t->b.ntasks; i++)
			if (mark[i]) {
				if (t->r[m].t[i].max_wait_ns > worst)
					worst = t->r[m].t[i].max_wait_ns;
				if (n + t->r[m].t[i].ndelays > cap) {
					cap = 2 * (n + t->r[m].t[i].ndelays);
					all.delays = xrealloc(all.delays, cap * sizeof(*all.delays));
				}
				if (t->r[m].t[i].ndelays)
					memcpy(all.delays + n, t->r[m].t[i].delays,
					       t->r[m].t[i].ndelays * sizeof(*all.delays));
				n += t->r[m].t[i].ndelays;
			}
		all.ndelays = n;
		if (c10) {
			c10->meas[m] = c10c->meas[m] = ms(worst);
			snprintf(c10->measured[m], sizeof(c10->measured[m]), "%.1f ms (longest of %zu interactive tasks)",
				 ms(worst), nmark);
			snprintf(c10c->measured[m], sizeof(c10c->measured[m]), "%.1f ms", ms(worst));
		}
		if (c20) {
			double p99 = ms(sl_scen_delay_pct(&all, 99));
			sl_chart_series(&c20->chart, (size_t)m, sl_claim_model_name(m));
			sl_chart_point(&c20->chart, (size_t)m, 0, ms(sl_scen_delay_pct(&all, 50)));
			sl_chart_point(&c20->chart, (size_t)m, 1, ms(sl_scen_delay_pct(&all, 90)));
			sl_chart_point(&c20->chart, (size_t)m, 2, p99);
			sl_chart_point(&c20->chart, (size_t)m, 3, ms(sl_scen_delay_pct(&all, 100)));
			c20->meas[m] = p99; /* divided by o1's below */
			snprintf(c20->measured[m], sizeof(c20->measured[m]), "p99 %.2f ms (%zu wakeups)", p99, n);
			if (m == o1)
				p99o1 = p99;
		}
		free(all.delays);
	}
	if (c20) {
		if (o1 < 0 || !t->ran[o1] || isnan(p99o1)) {
			sl_claims_untestable(c20, "needs the o1 model (2.6.20) to compare with");
		} else if (p99o1 < 1) {
			/* under a tick 2.6.20 has no delay a reader sees: nothing
			 * to be smoother than (a trace without wakeup events:
			 * every model 0.00 ms, which was "x0.00, holds") */
			sl_claims_untestable(c20,
					     "2.6.20's p99 delay of the interactive tasks is %.2f ms, under one "
					     "tick (1 ms): nothing to halve",
					     p99o1);
		} else {
			for (m = 0; m < sl_claim_ncols(); m++)
				if (t->ran[m]) {
					size_t ml = strlen(c20->measured[m]);
					c20->meas[m] = c20->meas[m] / p99o1;
					snprintf(c20->measured[m] + ml, sizeof(c20->measured[m]) - ml, " = x%.2f", c20->meas[m]);
				}
		}
	}
}

/* 19: frames of glxgears lost per mail burst (fetchmail, procmail, spamc). */
static void frames_claim(struct sl_claims_cx *x, struct tr *t)
{
	static const char *const burst[] = { "fetchmail", "procmail", "spamc", NULL };
	struct sl_claim *c = sl_claims_get(x, "19");
	int g = -1, m;
	size_t i, k, best = 0;
	uint64_t *cyc, period;
	const char *clock = "Xvfb";
	for (i = 0; i < t->b.ntasks; i++)
		if (!strcmp(t->b.tasks[i].comm, "glxgears"))
			break;
	if (i == t->b.ntasks) {
		sl_claims_untestable(c, "no glxgears in %s", t->file);
		return;
	}
	/* the frame clock: glxgears queues its drawing to the X server without
	 * waiting, so a frame is shown when X wakes to draw it; the X server's
	 * wakeups are the frames (glxgears' own wakeups when there is no X) */
	for (k = 0; k < 2 && g < 0; k++) {
		clock = k ? "glxgears" : "Xvfb";
		for (i = 0; i < t->b.ntasks; i++)
			if (!strcmp(t->b.tasks[i].comm, clock) && t->b.tasks[i].nphases > best) {
				best = t->b.tasks[i].nphases;
				g = (int)i;
			}
	}
	if (g < 0 || best < 3) {
		sl_claims_untestable(c, "glxgears in %s never slept", t->file);
		return;
	}
	/* the frame period: glxgears' median run + sleep cycle as recorded */
	cyc = xmalloc(best * sizeof(*cyc));
	for (k = 0; k < best; k++)
		cyc[k] = t->b.tasks[g].phases[k].run_ns == SL_INF ? 0
			 : t->b.tasks[g].phases[k].run_ns + t->b.tasks[g].phases[k].sleep_ns;
	period = median(cyc, best);
	free(cyc);
	trace_from(c, t->file, t->cpus);
	c->chart.kind = SL_CHART_GROUPS;
	c->chart.ref = 1;
	snprintf(c->chart.ylabel, sizeof(c->chart.ylabel), "frames lost (%s wakeups, every %.2f ms)", clock,
		 ms(period));
	for (m = 0; m < sl_claim_ncols(); m++) {
		const struct sl_scen_result *r = &t->r[m];
		uint64_t wlo[64], whi[64], total = 0;
		size_t nw = 0, w;
		if (!t->ran[m])
			continue;
		/* burst windows: the burst tasks' slices, merged when < 100 ms apart */
		for (i = 0; i < t->b.ntasks; i++) {
			for (k = 0; burst[k] && strcmp(t->b.tasks[i].comm, burst[k]); k++)
				;
			if (!burst[k] || r->t[i].first_run_ns == NONE)
				continue;
			for (w = 0; w < nw; w++)
				if (r->t[i].first_run_ns < whi[w] + 100 * MS && r->t[i].last_end_ns + 100 * MS > wlo[w])
					break;
			if (w == nw) {
				if (nw == 64)
					continue;
				wlo[nw] = r->t[i].first_run_ns;
				whi[nw++] = r->t[i].last_end_ns;
			} else {
				if (r->t[i].first_run_ns < wlo[w])
					wlo[w] = r->t[i].first_run_ns;
				if (r->t[i].last_end_ns > whi[w])
					whi[w] = r->t[i].last_end_ns;
			}
		}
		if (!nw) {
			snprintf(c->measured[m], sizeof(c->measured[m]), "no mail burst ran");
			continue;
		}
		sl_chart_series(&c->chart, (size_t)m, sl_claim_model_name(m));
		for (w = 0; w < nw; w++) {
			uint64_t l = sl_claims_frames_lost(r->t[g].woke_at, r->t[g].ndelays, period, &wlo[w], &whi[w], 1);
			total += l;
			if (w < SL_CHART_MAXX) {
				sl_chart_point(&c->chart, (size_t)m, (double)w, (double)l);
				snprintf(c->chart.xt[w], sizeof(c->chart.xt[w]), "burst %zu (%.0f ms)", w + 1,
					 ms(whi[w] - wlo[w]));
				if (w + 1 > c->chart.nx)
					c->chart.nx = w + 1;
			}
		}
		c->meas[m] = (double)total / (double)nw;
		snprintf(c->measured[m], sizeof(c->measured[m]), "%.1f per burst (%zu bursts, %zu frames of %.2f ms)",
			 c->meas[m], nw, r->t[g].ndelays, ms(period));
	}
}

/* 7r / 7c: the top-4 share of the massive_intr workers (the children of
 * massive_intr) while they all still have work: from time 0 to the moment
 * the first of them finishes its recorded work in that model's replay (a
 * second replay stops there; the engine is deterministic, so it is the same
 * schedule up to that point). Over the whole replay every worker does all
 * its recorded work under any model, so the shares would be the recording's. */
static int massive_claims(struct sl_claims_cx *x, struct tr *t)
{
	struct sl_claim *c = sl_claims_get(x, "7r"), *cc = sl_claims_get(x, "7c");
	int m, *w = xcalloc(t->b.ntasks + 1, sizeof(*w));
	size_t i, nw = 0;
	for (i = 0; i < t->b.ntasks; i++) {
		int p = t->b.tasks[i].parent;
		w[i] = !strcmp(t->b.tasks[i].comm, "massive_intr") && p >= 0 &&
		       !strcmp(t->b.tasks[p].comm, "massive_intr") && t->b.tasks[i].nphases > 0;
		nw += (size_t)w[i];
	}
	if (nw < 5) {
		sl_claims_untestable(c, "%s has %zu massive_intr workers", t->file, nw);
		sl_claims_untestable(cc, "%s has %zu massive_intr workers", t->file, nw);
		free(w);
		return 0;
	}
	trace_from(c, t->file, t->cpus);
	trace_from(cc, t->file, t->cpus);
	c->chart.kind = SL_CHART_LINES;
	c->chart.logx = 1;
	snprintf(c->chart.xlabel, sizeof(c->chart.xlabel), "worker rank (busiest first)");
	snprintf(c->chart.ylabel, sizeof(c->chart.ylabel), "share of the CPU until one worker is done (%%)");
	for (m = 0; m < sl_claim_nmodels(); m++) {
		static const size_t ranks[] = { 1, 2, 4, 8, 16, 32, 64, 100, 150, 200 };
		struct sl_scen_result r;
		uint64_t *rt, sum = 0, top = 0, until = NONE, worst = 0;
		size_t n = 0;
		if (!t->ran[m])
			continue;
		for (i = 0; i < t->b.ntasks; i++)
			if (w[i] && t->r[m].t[i].done_ns && t->r[m].t[i].done_ns < until)
				until = t->r[m].t[i].done_ns;
		if (until == NONE)
			until = t->r[m].end_ns;
		if (sl_scenario_replay(&t->b, sl_claim_model_name(m), t->cpus, SL_MODE_TIMED, until, x->o->debug, &r,
				       x->d)) {
			free(w);
			return -1;
		}
		rt = xcalloc(t->b.ntasks + 1, sizeof(*rt));
		for (i = 0; i < t->b.ntasks; i++)
			if (w[i]) {
				rt[n++] = r.t[i].runtime_ns;
				sum += r.t[i].runtime_ns;
				if (t->r[m].t[i].max_wait_ns > worst)
					worst = t->r[m].t[i].max_wait_ns;
			}
		qsort(rt, n, sizeof(*rt), cmp_u64);
		for (i = 0; i < 4 && i < n; i++)
			top += rt[n - 1 - i];
		c->meas[m] = cc->meas[m] = sum ? 100.0 * (double)top / (double)sum : NAN;
		snprintf(c->measured[m], sizeof(c->measured[m]),
			 "top 4 %.1f %% of %zu workers in the first %.0f ms; longest wait %.0f ms", c->meas[m], n,
			 ms(until), ms(worst));
		snprintf(cc->measured[m], sizeof(cc->measured[m]), "top 4 %.1f %% (first %.0f ms)", c->meas[m],
			 ms(until));
		sl_chart_series(&c->chart, (size_t)m, sl_claim_model_name(m));
		for (i = 0; i < SL_ARRAY_SIZE(ranks); i++)
			if (ranks[i] <= n && sum)
				sl_chart_point(&c->chart, (size_t)m, (double)ranks[i],
					       100.0 * (double)rt[n - ranks[i]] / (double)sum);
		free(rt);
		sl_scen_result_release(&r);
	}
	free(w);
	return 0;
}

/* 9a-9c: the benchmark proxies, ratios against o1. */
static int proxy(struct sl_claims_cx *x, const char *id, struct tr *t, const int *mark, int what)
{
	struct sl_claim *c = sl_claims_get(x, id);
	int o1 = sl_claim_model_index("o1"), m;
	double v[SL_CLAIM_MAXMODELS];
	if (o1 < 0 || !x->on[o1]) {
		sl_claims_untestable(c, "needs the o1 model (2.6.20) to compare with");
		return 0;
	}
	trace_from(c, t->file, t->cpus);
	for (m = 0; m < sl_claim_nmodels(); m++) {
		double span;
		uint64_t wk, ex;
		if (!x->on[m])
			continue;
		if (causal(x, t, m, mark, &span, &wk, &ex))
			return -1;
		v[m] = what == 0 ? span : what == 1 ? (double)wk / span : 60.0 * (double)ex / span;
		snprintf(c->measured[m], sizeof(c->measured[m]),
			 what == 0 ? "makespan %.3f s" : what == 1 ? "%.0f messages/s" : "%.0f jobs/min", v[m]);
	}
	for (m = 0; m < sl_claim_nmodels(); m++)
		if (x->on[m]) {
			size_t l = strlen(c->measured[m]);
			c->meas[m] = v[m] / v[o1];
			snprintf(c->measured[m] + l, sizeof(c->measured[m]) - l, " = x%.3f", c->meas[m]);
		}
	snprintf(c->chart.ylabel, sizeof(c->chart.ylabel), "%s, relative to o1 (2.6.20)",
		 what == 0 ? "compile makespan" : what == 1 ? "messages per second" : "jobs per minute");
	return 0;
}

static int load(struct sl_claims_cx *x, const char *file, const char *const *roots, int cpus, struct tr *t,
		char *why, size_t whylen)
{
	char path[4096];
	struct sl_behaviour all;
	struct sl_rec_rows rows = { NULL, 0, 0 };
	struct sl_diag d;
	memset(t, 0, sizeof(*t));
	memset(&d, 0, sizeof(d));
	t->file = file;
	t->cpus = cpus;
	snprintf(path, sizeof(path), "%s/%s", x->o->traces_dir ? x->o->traces_dir : "traces", file);
	if (load_file(path, &all, &rows, &d)) {
		sl_rec_release(&rows);
		snprintf(why, whylen, "the bundled trace could not be read (%s); run from the source tree or give --traces DIR",
			 d.msg);
		return 1;
	}
	if (roots)
		subset(&all, roots, &t->b, &rows);
	else
		t->b = all, memset(&all, 0, sizeof(all));
	sl_behaviour_release(&all);
	tr_recorded(t, &rows);
	sl_rec_release(&rows);
	if (!t->b.ntasks) {
		snprintf(why, whylen, "%s has none of the workload's tasks", file);
		return 1;
	}
	return 0;
}

int sl_claims_bundled(struct sl_claims_cx *x)
{
	static const char *const gene_roots[] = { "Xvfb", "glxgears", "typist", "editor", "mailcheck", NULL };
	static const char *const ed_roots[] = { "freenet", "reader", "xargs", NULL };
	static const char *const mi_roots[] = { "massive_intr", NULL };
	static const char *const compile_roots[] = { "xargs", NULL };
	static const char *const msg_roots[] = { "sched-messaging", NULL };
	struct tr t;
	char why[700];
	int *mark, rc = 0;
	size_t nmark;

	/* Gene Heskett: his desktop ran on one CPU (pinned to CPU 0 here) */
	if (load(x, "gene-desktop-1cpu.dat", gene_roots, 1, &t, why, sizeof(why))) {
		sl_claims_untestable(sl_claims_get(x, "10"), "%s", why);
		sl_claims_untestable(sl_claims_get(x, "10c"), "%s", why);
		sl_claims_untestable(sl_claims_get(x, "19"), "%s", why);
	} else {
		if (tr_replay(x, &t))
			rc = -1;
		if (!rc) {
			mark = xcalloc(t.b.ntasks, sizeof(*mark));
			nmark = sl_claims_interactive(&t.b, x->o->task, mark);
			interactive_claims(x, &t, mark, nmark, "found by behaviour", 1, 0);
			frames_claim(x, &t);
			free(mark);
		}
		tr_release(&t);
	}
	/* Ed Tomlinson: 2 CPUs; the claim is about reading mail. The whole
	 * trace, as `claims --trace ID --task reader` on the same file replays
	 * it: one measurement, one answer (issue 25; was the workload's
	 * process trees alone, x10.01 here against x4.43 there) */
	if (!rc && load(x, "ed-desktop-2cpu.dat", NULL, 2, &t, why, sizeof(why))) {
		sl_claims_untestable(sl_claims_get(x, "20"), "%s", why);
	} else if (!rc) {
		if (tr_replay(x, &t))
			rc = -1;
		if (!rc) {
			mark = xcalloc(t.b.ntasks, sizeof(*mark));
			nmark = sl_claims_interactive(&t.b, "reader", mark);
			interactive_claims(x, &t, mark, nmark, "the task called reader", 0, 1);
			free(mark);
		}
		tr_release(&t);
	}
	/* reaim proxy: the jobs of Ed's desktop (its process trees) */
	if (!rc && load(x, "ed-desktop-2cpu.dat", ed_roots, 2, &t, why, sizeof(why))) {
		sl_claims_untestable(sl_claims_get(x, "9c"), "%s", why);
	} else if (!rc) {
		rc = proxy(x, "9c", &t, NULL, 2);
		tr_release(&t);
	}
	/* kernbench proxy: the compile of Ed's trace alone */
	if (!rc && load(x, "ed-desktop-2cpu.dat", compile_roots, 2, &t, why, sizeof(why))) {
		sl_claims_untestable(sl_claims_get(x, "9a"), "%s", why);
	} else if (!rc) {
		rc = proxy(x, "9a", &t, NULL, 0);
		tr_release(&t);
	}
	/* massive_intr, 200 processes pinned to CPU 0 */
	if (!rc && load(x, "massive-intr-200x-1cpu.dat", mi_roots, 1, &t, why, sizeof(why))) {
		sl_claims_untestable(sl_claims_get(x, "7r"), "%s", why);
		sl_claims_untestable(sl_claims_get(x, "7c"), "%s", why);
	} else if (!rc) {
		if (tr_replay(x, &t))
			rc = -1;
		if (!rc)
			rc = massive_claims(x, &t);
		tr_release(&t);
	}
	/* tbench proxy: pipe messaging, 2 CPUs */
	if (!rc && load(x, "messaging-pipe-2cpu.perf.data", msg_roots, 2, &t, why, sizeof(why))) {
		sl_claims_untestable(sl_claims_get(x, "9b"), "%s", why);
	} else if (!rc) {
		rc = proxy(x, "9b", &t, NULL, 1);
		tr_release(&t);
	}
	return rc;
}

int sl_claims_on_trace(struct sl_claims_cx *x, const struct sl_behaviour *b, const char *name,
		       struct sl_rec_rows *rec)
{
	struct tr t;
	int *mark;
	size_t nmark;
	char how[96];
	memset(&t, 0, sizeof(t));
	t.file = name;
	t.cpus = b->cpus > 0 ? b->cpus : 1;
	copy_behaviour(b, &t.b);
	tr_recorded(&t, rec);
	if (tr_replay(x, &t)) {
		tr_release(&t);
		return -1;
	}
	mark = xcalloc(t.b.ntasks + 1, sizeof(*mark));
	nmark = sl_claims_interactive(&t.b, x->o->task, mark);
	if (x->o->task)
		snprintf(how, sizeof(how), "the tasks called %s", x->o->task);
	else
		snprintf(how, sizeof(how), "found by behaviour: mostly sleeping, periodic, present half the trace or more");
	interactive_claims(x, &t, mark, nmark, how, 1, 1);
	frames_claim(x, &t);
	free(mark);
	tr_release(&t);
	return 0;
}
