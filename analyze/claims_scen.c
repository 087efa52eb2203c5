/* analyze/claims_scen.c - the scenario layer of claims.h: run a workload
 * text through one model on one CPU and reduce its rows, as they come, to
 * per-task runtime, longest runnable wait and wakeup delays. */
#include "claims.h"
#include "../replay/engine.h"
#include "../replay/workload.h"
#include "../replay/bound.h"
#include "metrics.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NONE UINT64_MAX

struct acc {
	struct sl_scen_result *r;
	uint64_t *ready;     /* runnable since (NONE: not waiting) */
	int *seen;           /* has had a slice or a wakeup row */
	size_t *cap;
};

static int on_rotation(void *ctx, int cpu, uint64_t ts, const char *kind, int level)
{
	struct acc *a = ctx;
	(void)ts;
	(void)level;
	if (cpu >= 0 && (size_t)cpu < a->r->ncpus && !strcmp(kind, "major"))
		a->r->major_rotations[cpu]++;
	return 0;
}

static void waited(struct sl_scen_task *t, uint64_t from, uint64_t to, int cpu)
{
	if (to > from && to - from > t->max_wait_ns) {
		t->max_wait_ns = to - from;
		t->max_wait_from = from;
		t->max_wait_cpu = cpu;
	}
	/* after its first slice: not the start-up placement */
	if (t->first_run_ns != NONE && from >= t->first_run_ns && to > from && to - from > t->later_wait_ns)
		t->later_wait_ns = to - from;
}

static int on_slice(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task, char end, int prio)
{
	struct acc *a = ctx;
	struct sl_scen_task *t;
	struct sl_scen_result *r = a->r;
	(void)prio;
	if (task < 0 || (size_t)task >= r->ntasks)
		return 0;
	SL_GROW(r->slices, r->capslices, r->nslices + 1);
	r->slices[r->nslices].ts = ts;
	r->slices[r->nslices].end = ts + dur;
	r->slices[r->nslices].cpu = cpu;
	r->slices[r->nslices++].task = task;
	t = &r->t[task];
	if (!a->seen[task])
		waited(t, t->start_ns, ts, cpu); /* appeared runnable at its start */
	else if (a->ready[task] != NONE)
		waited(t, a->ready[task], ts, cpu);
	a->seen[task] = 1;
	a->ready[task] = end == 'R' || end == 'Y' ? ts + dur : NONE;
	t->runtime_ns += dur;
	if (t->first_run_ns == NONE || ts < t->first_run_ns)
		t->first_run_ns = ts;
	if (ts + dur > t->last_end_ns)
		t->last_end_ns = ts + dur;
	if (end == 'X' || end == 'E')
		t->done_ns = ts + dur;
	if (dur > t->max_slice_ns)
		t->max_slice_ns = dur;
	return 0;
}

static int on_wakeup(void *ctx, int task, uint64_t ts, uint64_t ts_run, int waker, int cpu)
{
	struct acc *a = ctx;
	struct sl_scen_task *t;
	(void)waker;
	(void)cpu;
	if (task < 0 || (size_t)task >= a->r->ntasks)
		return 0;
	t = &a->r->t[task];
	a->seen[task] = 1;
	a->ready[task] = NONE;
	if (ts_run == UINT64_MAX) { /* still waiting at the end */
		a->ready[task] = ts;
		return 0;
	}
	waited(t, ts, ts_run, cpu);
	if (t->ndelays + 1 > a->cap[task]) {
		a->cap[task] = a->cap[task] ? 2 * a->cap[task] : 16;
		t->delays = xrealloc(t->delays, a->cap[task] * sizeof(*t->delays));
		t->woke_at = xrealloc(t->woke_at, a->cap[task] * sizeof(*t->woke_at));
	}
	t->woke_at[t->ndelays] = ts_run;
	t->delays[t->ndelays++] = ts_run - ts;
	return 0;
}

void sl_scen_result_release(struct sl_scen_result *r)
{
	size_t i;
	if (!r)
		return;
	for (i = 0; i < r->ntasks; i++) {
		free(r->t[i].delays);
		free(r->t[i].woke_at);
	}
	free(r->t);
	free(r->major_rotations);
	free(r->slices);
	memset(r, 0, sizeof(*r));
}

/* Set r and a up for the tasks of b (bounds: every task of b counted). */
static void acc_init(const struct sl_behaviour *b, int cpus, struct sl_scen_result *r, struct acc *a)
{
	int *nice;
	uint64_t *bound;
	size_t i, n1 = b->ntasks ? b->ntasks : 1;
	memset(r, 0, sizeof(*r));
	r->ntasks = b->ntasks;
	r->t = xcalloc(n1, sizeof(*r->t));
	r->ncpus = (size_t)(cpus > 0 ? cpus : 1);
	r->major_rotations = xcalloc(r->ncpus, sizeof(*r->major_rotations));
	a->r = r;
	a->ready = xcalloc(n1, sizeof(*a->ready));
	a->seen = xcalloc(n1, sizeof(*a->seen));
	a->cap = xcalloc(n1, sizeof(*a->cap));
	nice = xcalloc(n1, sizeof(*nice));
	bound = xcalloc(n1, sizeof(*bound));
	for (i = 0; i < b->ntasks; i++) {
		r->t[i].nice = b->tasks[i].nice;
		r->t[i].tid = b->tasks[i].tid;
		memcpy(r->t[i].comm, b->tasks[i].comm, sizeof(r->t[i].comm));
		r->t[i].comm[sizeof(r->t[i].comm) - 1] = 0;
		r->t[i].start_ns = b->tasks[i].start_ns;
		r->t[i].first_run_ns = NONE;
		r->t[i].max_wait_cpu = -1;
		nice[i] = b->tasks[i].nice < -20 ? -20 : b->tasks[i].nice > 19 ? 19 : b->tasks[i].nice;
		a->ready[i] = NONE;
	}
	sl_bound_ns(nice, b->ntasks, 6 * SL_NS_PER_MS, bound);
	for (i = 0; i < b->ntasks; i++)
		r->t[i].bound_ns = bound[i];
	free(nice);
	free(bound);
}

/* The waits still open at r->end_ns; a's arrays released. */
static void acc_finish(const struct sl_behaviour *b, struct acc *a)
{
	struct sl_scen_result *r = a->r;
	size_t i;
	for (i = 0; i < r->ntasks; i++) {
		if (b->tasks[i].nphases == 0 && b->tasks[i].run_ns == 0)
			continue; /* nothing to replay: never waits */
		if (!a->seen[i])
			waited(&r->t[i], r->t[i].start_ns, r->end_ns, -1);
		else if (a->ready[i] != NONE)
			waited(&r->t[i], a->ready[i], r->end_ns, -1);
	}
	free(a->ready);
	free(a->seen);
	free(a->cap);
}

int sl_scenario_replay(const struct sl_behaviour *b, const char *pol, int cpus, int mode, uint64_t dur,
		       int debug, struct sl_scen_result *r, struct sl_diag *d)
{
	const struct sl_policy_ops *ops = sl_policy_find(pol);
	struct sl_replay_opts o;
	struct sl_replay_stats st;
	struct sl_run_sink k;
	struct acc a;
	int rc;
	struct timespec c0, c1;

	memset(r, 0, sizeof(*r));
	if (!ops)
		return sl_fail(d, "claims: no scheduler model '%s' (linked: %s)", pol, sl_policy_names());
	acc_init(b, cpus, r, &a);
	sl_replay_opts_init(&o);
	o.cpus = (int)r->ncpus;
	o.mode = mode;
	o.duration_ns = dur;
	o.debug = debug;
	k.ctx = &a;
	k.slice = on_slice;
	k.wakeup = on_wakeup;
	k.staircase = NULL;
	k.rotation = on_rotation;
	k.vlag = NULL;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	rc = sl_replay_run(b, ops, &o, &k, &st, d);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	if (!rc) {
		r->end_ns = st.end_ns;
		r->decisions = st.decisions;
		r->cpu_ns = (uint64_t)((c1.tv_sec - c0.tv_sec) * 1000000000LL + (c1.tv_nsec - c0.tv_nsec));
	}
	acc_finish(b, &a);
	if (rc)
		sl_scen_result_release(r);
	return rc;
}

/* ---- the recorded run, reduced as a replay is ---- */

void sl_rec_slice(struct sl_rec_rows *rr, int task, int cpu, uint64_t ts, uint64_t dur, char end)
{
	SL_GROW(rr->v, rr->cap, rr->n + 1);
	rr->v[rr->n].cpu = cpu;
	rr->v[rr->n].ts = ts;
	rr->v[rr->n].t2 = dur;
	rr->v[rr->n].task = task;
	rr->v[rr->n].kind = 's';
	rr->v[rr->n++].end = end;
}

void sl_rec_wakeup(struct sl_rec_rows *rr, int task, uint64_t ts, uint64_t ts_run)
{
	SL_GROW(rr->v, rr->cap, rr->n + 1);
	rr->v[rr->n].ts = ts;
	rr->v[rr->n].t2 = ts_run;
	rr->v[rr->n].task = task;
	rr->v[rr->n].kind = 'w';
	rr->v[rr->n].cpu = -1;
	rr->v[rr->n++].end = 0;
}

void sl_rec_release(struct sl_rec_rows *rr)
{
	free(rr->v);
	memset(rr, 0, sizeof(*rr));
}

/* A row's place in its task's history: a slice at its start, a wakeup
 * when it ran (so the wakeup comes before the slice it led to). */
static uint64_t rec_key(const struct sl_rec_row *w)
{
	return w->kind == 's' ? w->ts : w->t2;
}

static int cmp_rec(const void *pa, const void *pb)
{
	const struct sl_rec_row *a = pa, *b = pb;
	uint64_t ka = rec_key(a), kb = rec_key(b);
	if (a->task != b->task)
		return SL_CMP(a->task, b->task);
	if (ka != kb)
		return SL_CMP(ka, kb);
	if (a->kind != b->kind)
		return a->kind == 'w' ? -1 : 1;
	return SL_CMP(a->ts, b->ts);
}

int sl_scenario_recorded(const struct sl_behaviour *b, struct sl_rec_rows *rows, struct sl_scen_result *r)
{
	struct acc a;
	size_t i;
	acc_init(b, b->cpus, r, &a);
	r->end_ns = b->span_ns;
	if (rows->n)
		qsort(rows->v, rows->n, sizeof(*rows->v), cmp_rec);
	for (i = 0; i < rows->n; i++) {
		const struct sl_rec_row *w = &rows->v[i];
		uint64_t ts = w->ts > b->t0 ? w->ts - b->t0 : 0;
		uint64_t run = w->t2 == UINT64_MAX ? UINT64_MAX : w->t2 > b->t0 ? w->t2 - b->t0 : 0;
		if (w->kind == 's')
			on_slice(&a, ts, w->t2, w->cpu, w->task, w->end, 0);
		else if (run >= ts) /* never a wakeup that ran before it was woken */
			on_wakeup(&a, w->task, ts, run, -1, -1);
		if (w->kind == 's' && ts + w->t2 > r->end_ns)
			r->end_ns = ts + w->t2;
	}
	acc_finish(b, &a);
	return 0;
}

int sl_scenario_run(const char *text, const char *pol, uint64_t dur, int debug,
		    struct sl_scen_result *r, struct sl_diag *d)
{
	struct sl_behaviour b;
	int rc;
	memset(r, 0, sizeof(*r));
	if (!sl_policy_find(pol))
		return sl_fail(d, "claims: no scheduler model '%s' (linked: %s)", pol, sl_policy_names());
	if (sl_workload_parse_text(text, strlen(text), "scenario", &b, d))
		return -1;
	rc = sl_scenario_replay(&b, pol, 1, SL_MODE_TIMED, dur, debug, r, d);
	sl_behaviour_release(&b);
	return rc;
}

uint64_t sl_scen_delay_pct(const struct sl_scen_task *t, double p)
{
	uint64_t *s, v;
	size_t rank;
	if (!t->ndelays)
		return 0;
	s = xmalloc(t->ndelays * sizeof(*s));
	memcpy(s, t->delays, t->ndelays * sizeof(*s));
	sl_sort_u64(s, t->ndelays);
	/* nearest rank: the smallest value with at least p % of values <= it */
	rank = (size_t)((p / 100.0) * (double)t->ndelays + 0.999999);
	if (rank < 1)
		rank = 1;
	if (rank > t->ndelays)
		rank = t->ndelays;
	v = s[rank - 1];
	free(s);
	return v;
}

void sl_starve_init(struct sl_starve *s)
{
	memset(s, 0, sizeof(*s));
	s->excess_ns = INT64_MIN;
}

uint64_t sl_scen_competing_bound(const struct sl_scen_result *r, size_t i)
{
	const struct sl_scen_task *t = &r->t[i];
	uint64_t from = t->max_wait_from, to = from + t->max_wait_ns, *bound, b;
	int *nice, *in = xcalloc(r->ntasks + 1, sizeof(*in));
	size_t k, n = 1;
	for (k = 0; k < r->nslices; k++) {
		const struct sl_scen_slice *s = &r->slices[k];
		if (s->task != (int)i && !in[s->task] && s->ts < to && s->end > from &&
		    (t->max_wait_cpu < 0 || s->cpu == t->max_wait_cpu)) {
			in[s->task] = 1;
			n++;
		}
	}
	/* i first, then its competitors */
	nice = xcalloc(n, sizeof(*nice));
	bound = xcalloc(n, sizeof(*bound));
	nice[0] = t->nice;
	for (k = 0, n = 1; k < r->ntasks; k++)
		if (in[k])
			nice[n++] = r->t[k].nice;
	for (k = 0; k < n; k++)
		nice[k] = nice[k] < -20 ? -20 : nice[k] > 19 ? 19 : nice[k];
	sl_bound_ns(nice, n, 6 * SL_NS_PER_MS, bound);
	b = bound[0];
	free(in);
	free(nice);
	free(bound);
	return b;
}

static void starve_add(struct sl_starve *s, const struct sl_scen_result *r, const char *label, int competing)
{
	size_t i;
	for (i = 0; i < r->ntasks; i++) {
		const struct sl_scen_task *t = &r->t[i];
		uint64_t bnd = competing && t->max_wait_ns ? sl_scen_competing_bound(r, i) : t->bound_ns;
		int64_t ex = (int64_t)t->max_wait_ns - (int64_t)bnd;
		double ratio = bnd ? (double)t->max_wait_ns / (double)bnd : 0;
		s->tasks++;
		if (ratio > s->ratio)
			s->ratio = ratio;
		if (ex > s->excess_ns) {
			s->excess_ns = ex;
			if (t->tid > 0)
				snprintf(s->where, sizeof(s->where), "%s, tid %d (%s)", label, t->tid, t->comm);
			else
				snprintf(s->where, sizeof(s->where), "%s, task %s", label, t->comm[0] ? t->comm : "?");
		}
	}
}

void sl_starve_add(struct sl_starve *s, const struct sl_scen_result *r, const char *label)
{
	starve_add(s, r, label, 0);
}

void sl_starve_add_competing(struct sl_starve *s, const struct sl_scen_result *r, const char *label)
{
	starve_add(s, r, label, 1);
}

/* first + every line of second with " start=<s>ns" appended. */
static char *sweep_text(const char *first, const char *second, uint64_t s)
{
	size_t cap = strlen(first) + 2 * strlen(second) + 256, off;
	char *buf = xmalloc(cap);
	const char *p = second;
	off = (size_t)snprintf(buf, cap, "%s\n", first);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len) {
			int k = snprintf(buf + off, cap - off, "%.*s start=%lluns\n", (int)len, p,
					 (unsigned long long)s);
			if (k > 0 && (size_t)k < cap - off)
				off += (size_t)k;
		}
		p += len + (nl ? 1 : 0);
	}
	return buf;
}

int sl_scenario_sweep(const char *first, const char *second, const char *pol,
		      uint64_t max_s, uint64_t step, uint64_t tail, int debug,
		      uint64_t *worst, uint64_t *at, uint64_t *later, struct sl_starve *sv,
		      const char *label, struct sl_diag *d)
{
	uint64_t s;
	*worst = 0;
	*at = 0;
	if (later)
		*later = 0;
	if (!step)
		return sl_fail(d, "claims: sweep step 0");
	for (s = 0; s <= max_s; s += step) {
		struct sl_scen_result r;
		char *text = sweep_text(first, second, s);
		int rc = sl_scenario_run(text, pol, s + tail, debug, &r, d);
		free(text);
		if (rc)
			return -1;
		if (r.ntasks && r.t[0].max_wait_ns > *worst) {
			*worst = r.t[0].max_wait_ns;
			*at = s;
		}
		if (later && r.ntasks && r.t[0].later_wait_ns > *later)
			*later = r.t[0].later_wait_ns;
		if (sv)
			sl_starve_add(sv, &r, label);
		sl_scen_result_release(&r);
	}
	return 0;
}
