/* tests/unit/test_engine_util.h - helpers for the replay tests: build a
 * behaviour in code, run it through a policy with invariants on, collect
 * the rows in memory and compute per-task figures. */
#ifndef SL_TEST_ENGINE_UTIL_H
#define SL_TEST_ENGINE_UTIL_H

#include "../../replay/engine.h"
#include "../../replay/workload.h"

#include <stdlib.h>
#include <string.h>

#define TMS SL_NS_PER_MS

struct trow_slice { uint64_t ts, dur; int cpu, task; char end; int prio; };
struct trow_wake { int task; uint64_t ts, ts_run; int waker, cpu; };
struct trow_stair { int task; uint64_t ts; int level, array; };
struct trow_rot { int cpu; uint64_t ts; char kind[8]; int level; };

struct trec {
	struct trow_slice *s; size_t ns, cs;
	struct trow_wake *w; size_t nw, cw;
	struct trow_stair *st; size_t nst, cst;
	struct trow_rot *r; size_t nr, cr;
};

static inline int trec_slice(void *c, uint64_t ts, uint64_t dur, int cpu, int task, char end, int prio)
{
	struct trec *t = c;
	SL_GROW(t->s, t->cs, t->ns + 1);
	t->s[t->ns++] = (struct trow_slice){ ts, dur, cpu, task, end, prio };
	return 0;
}
static inline int trec_wake(void *c, int task, uint64_t ts, uint64_t ts_run, int waker, int cpu)
{
	struct trec *t = c;
	SL_GROW(t->w, t->cw, t->nw + 1);
	t->w[t->nw++] = (struct trow_wake){ task, ts, ts_run, waker, cpu };
	return 0;
}
static inline int trec_stair(void *c, int task, uint64_t ts, int level, int array)
{
	struct trec *t = c;
	SL_GROW(t->st, t->cst, t->nst + 1);
	t->st[t->nst++] = (struct trow_stair){ task, ts, level, array };
	return 0;
}
static inline int trec_rot(void *c, int cpu, uint64_t ts, const char *kind, int level)
{
	struct trec *t = c;
	SL_GROW(t->r, t->cr, t->nr + 1);
	t->r[t->nr].cpu = cpu;
	t->r[t->nr].ts = ts;
	snprintf(t->r[t->nr].kind, sizeof(t->r[t->nr].kind), "%s", kind);
	t->r[t->nr++].level = level;
	return 0;
}
static inline void trec_free(struct trec *t)
{
	free(t->s);
	free(t->w);
	free(t->st);
	free(t->r);
	memset(t, 0, sizeof(*t));
}
static inline struct sl_run_sink trec_sink(struct trec *t)
{
	struct sl_run_sink k = { t, trec_slice, trec_wake, trec_stair, trec_rot, NULL };
	return k;
}

/* ---- building behaviours with explicit phases ---- */

static inline struct sl_task_spec *add_task(struct sl_behaviour *b, const char *name, int nice,
				     uint64_t start)
{
	struct sl_task_spec *t;
	b->tasks = xrealloc(b->tasks, (b->ntasks + 1) * sizeof(*b->tasks));
	t = &b->tasks[b->ntasks];
	memset(t, 0, sizeof(*t));
	t->idx = (int32_t)b->ntasks;
	t->tid = t->tgid = (int32_t)b->ntasks + 100;
	snprintf(t->comm, sizeof(t->comm), "%s", name);
	t->nice = nice;
	t->start_ns = start;
	t->parent = -1;
	t->initially_runnable = 1;
	b->ntasks++;
	return t;
}

static inline void add_phase(struct sl_task_spec *t, uint64_t run, char end, uint64_t sleep, int kind,
		      int waker, uint64_t progress)
{
	struct sl_phase *p;
	t->phases = xrealloc(t->phases, (t->nphases + 1) * sizeof(*t->phases));
	p = &t->phases[t->nphases++];
	memset(p, 0, sizeof(*p));
	p->run_ns = run;
	p->end = end;
	p->sleep_ns = sleep;
	p->waker_kind = (uint8_t)kind;
	p->waker = waker;
	p->waker_progress_ns = progress;
}

/* A task that runs from start to the end of the replay (a CPU hog) */
static inline struct sl_task_spec *add_hog(struct sl_behaviour *b, const char *name, int nice, uint64_t start)
{
	struct sl_task_spec *t = add_task(b, name, nice, start);
	t->run_ns = SL_INF;
	return t;
}

/* Run behaviour b through policy pol with options o (invariants on); a
 * failure's message is printed. */
static inline int trun_opts(const struct sl_behaviour *b, const char *pol, struct sl_replay_opts *o,
			    struct trec *rec, struct sl_replay_stats *st)
{
	struct sl_diag d = { { 0 }, 0, 0 };
	struct sl_run_sink k = trec_sink(rec);
	int rc;
	memset(rec, 0, sizeof(*rec));
	o->debug = 1;
	rc = sl_replay_run(b, sl_policy_find(pol), o, &k, st, &d);
	if (rc)
		fprintf(stderr, "  replay: %s\n", d.msg);
	return rc;
}

/* Run a workload text through policy `name` with invariants on; d gets the
 * message of a failure (nothing is printed). */
static inline int trun_text_d(const char *text, const char *pol, int cpus, uint64_t dur,
			      const char *popts, struct trec *rec, struct sl_replay_stats *st,
			      struct sl_diag *d)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_run_sink k = trec_sink(rec);
	int rc;
	memset(rec, 0, sizeof(*rec));
	if (sl_workload_parse_text(text, strlen(text), "test", &b, d))
		return -1;
	sl_replay_opts_init(&o);
	o.cpus = cpus;
	o.duration_ns = dur;
	o.debug = 1;
	o.policy_opts = popts;
	rc = sl_replay_run(&b, sl_policy_find(pol), &o, &k, st, d);
	sl_behaviour_release(&b);
	return rc;
}

/* The same, for runs expected to succeed: a failure's message is printed. */
static inline int trun_text(const char *text, const char *pol, int cpus, uint64_t dur,
			    const char *popts, struct trec *rec, struct sl_replay_stats *st)
{
	struct sl_diag d = { { 0 }, 0, 0 };
	int rc = trun_text_d(text, pol, cpus, dur, popts, rec, st, &d);
	if (rc)
		fprintf(stderr, "  replay: %s\n", d.msg);
	return rc;
}

/* When task first ran in t (UINT64_MAX: never) */
static inline uint64_t trun_first_run(const struct trec *t, int task)
{
	uint64_t first = UINT64_MAX;
	size_t i;
	for (i = 0; i < t->ns; i++)
		if (t->s[i].task == task && t->s[i].ts < first)
			first = t->s[i].ts;
	return first;
}

/* CPU time of task in the rows. */
static inline uint64_t trun_runtime(const struct trec *t, int task)
{
	uint64_t sum = 0;
	size_t i;
	for (i = 0; i < t->ns; i++)
		if (t->s[i].task == task)
			sum += t->s[i].dur;
	return sum;
}
/* Longest gap between the end of one slice of task and the start of its
 * next (its longest wait while CPU-bound), counting from `from` ns. */
static inline uint64_t trun_max_gap(const struct trec *t, int task, uint64_t from)
{
	uint64_t last_end = UINT64_MAX, best = 0;
	size_t i;
	for (i = 0; i < t->ns; i++) {
		if (t->s[i].task != task)
			continue;
		if (last_end != UINT64_MAX && t->s[i].ts >= from && t->s[i].ts - last_end > best)
			best = t->s[i].ts - last_end;
		last_end = t->s[i].ts + t->s[i].dur;
	}
	return best;
}
/* Longest wakeup delay (ts_run - ts) of task. */
static inline uint64_t trun_max_delay(const struct trec *t, int task)
{
	uint64_t best = 0;
	size_t i;
	for (i = 0; i < t->nw; i++)
		if (t->w[i].task == task && t->w[i].ts_run != UINT64_MAX &&
		    t->w[i].ts_run - t->w[i].ts > best)
			best = t->w[i].ts_run - t->w[i].ts;
	return best;
}

#endif
