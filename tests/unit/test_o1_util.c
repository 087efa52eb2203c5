/* tests/unit/test_o1_util.c - see test_o1.h. */
#include "test_o1.h"
#include "../../common/util.h"

#include <stdlib.h>
#include <string.h>

void o1t_behaviour(struct sl_behaviour *b, size_t n)
{
	size_t i;
	memset(b, 0, sizeof(*b));
	b->tasks = xcalloc(n, sizeof(*b->tasks));
	b->ntasks = n;
	b->cpus = 1;
	for (i = 0; i < n; i++) {
		struct sl_task_spec *t = &b->tasks[i];
		t->idx = (int32_t)i;
		t->tid = t->tgid = (int32_t)(1000 + i);
		snprintf(t->comm, sizeof(t->comm), "t%zu", i);
		t->parent = -1;
		t->initially_runnable = 1;
		t->run_ns = SL_INF;
	}
}

void o1t_task(struct sl_behaviour *b, size_t i, int nice, uint64_t run_ns,
	      uint64_t sleep_ns, uint64_t start_ns)
{
	struct sl_task_spec *t = &b->tasks[i];
	t->nice = nice;
	t->run_ns = run_ns;
	t->sleep_ns = sleep_ns;
	t->start_ns = start_ns;
}

void o1t_phases(struct sl_behaviour *b, size_t i, const struct sl_phase *ph, size_t n)
{
	struct sl_task_spec *t = &b->tasks[i];
	free(t->phases);
	t->phases = xcalloc(n, sizeof(*ph));
	memcpy(t->phases, ph, n * sizeof(*ph));
	t->nphases = n;
}

static int on_slice(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task, char end, int prio)
{
	struct o1t_run *r = ctx;
	SL_GROW(r->sl, r->capsl, r->nsl + 1);
	r->sl[r->nsl++] = (struct o1t_slice){ ts, dur, cpu, task, prio, end };
	return 0;
}

static int on_wakeup(void *ctx, int task, uint64_t ts, uint64_t ts_run, int waker, int cpu)
{
	struct o1t_run *r = ctx;
	SL_GROW(r->wk, r->capwk, r->nwk + 1);
	r->wk[r->nwk++] = (struct o1t_wake){ ts, ts_run, task, waker, cpu };
	return 0;
}

static int on_stair(void *ctx, int task, uint64_t ts, int level, int array)
{
	struct o1t_run *r = ctx;
	SL_GROW(r->st, r->capst, r->nst + 1);
	r->st[r->nst++] = (struct o1t_stair){ ts, task, level, array };
	return 0;
}

static int on_rotation(void *ctx, int cpu, uint64_t ts, const char *kind, int level)
{
	(void)ctx, (void)cpu, (void)ts, (void)kind, (void)level;
	return 0;
}

uint64_t o1t_rr_ns;
int o1t_no_staircase;

int o1t_replay(const struct sl_behaviour *b, const struct sl_policy_ops *ops, int cpus,
	       uint64_t duration_ns, int hz, const char *popts, struct o1t_run *r)
{
	struct sl_replay_opts o;
	struct sl_run_sink sink = { r, on_slice, on_wakeup, on_stair, on_rotation, NULL };
	struct sl_diag d;
	if (o1t_no_staircase)
		sink.staircase = NULL;
	memset(r, 0, sizeof(*r));
	memset(&d, 0, sizeof(d));
	sl_replay_opts_init(&o);
	o.cpus = cpus;
	o.hz = hz;
	o.duration_ns = duration_ns;
	o.debug = !getenv("O1T_NODEBUG");
	o.policy_opts = popts;
	if (o1t_rr_ns)
		o.rr_interval_ns = o1t_rr_ns;
	if (sl_replay_run(b, ops, &o, &sink, &r->stats, &d) < 0) {
		snprintf(r->err, sizeof(r->err), "%s", d.msg);
		fprintf(stderr, "  replay failed: %s\n", d.msg);
		return -1;
	}
	return 0;
}

void o1t_free(struct o1t_run *r)
{
	free(r->sl);
	free(r->wk);
	free(r->st);
	memset(r, 0, sizeof(*r));
}

uint64_t o1t_runtime(const struct o1t_run *r, int task, uint64_t from, uint64_t to)
{
	uint64_t sum = 0;
	size_t i;
	for (i = 0; i < r->nsl; i++) {
		const struct o1t_slice *s = &r->sl[i];
		uint64_t a = s->ts, z = s->ts + s->dur;
		if (s->task != task)
			continue;
		if (a < from)
			a = from;
		if (z > to)
			z = to;
		if (z > a)
			sum += z - a;
	}
	return sum;
}

uint64_t o1t_max_wait(const struct o1t_run *r, int task, uint64_t from, uint64_t to)
{
	uint64_t best = 0;
	size_t i, j;
	/* waits after a preemption or a yield: slice ended 'R' or 'Y' -> next
	 * slice of task */
	for (i = 0; i < r->nsl; i++) {
		const struct o1t_slice *s = &r->sl[i];
		uint64_t end = s->ts + s->dur;
		if (s->task != task || (s->end != 'R' && s->end != 'Y') || end < from || end >= to)
			continue;
		for (j = i + 1; j < r->nsl; j++)
			if (r->sl[j].task == task)
				break;
		if (j < r->nsl && r->sl[j].ts - end > best)
			best = r->sl[j].ts - end;
	}
	for (i = 0; i < r->nwk; i++) {
		const struct o1t_wake *w = &r->wk[i];
		if (w->task != task || w->ts < from || w->ts >= to || w->ts_run == UINT64_MAX)
			continue;
		if (w->ts_run - w->ts > best)
			best = w->ts_run - w->ts;
	}
	return best;
}

size_t o1t_slices(const struct o1t_run *r, int task, uint64_t from, uint64_t to,
		  int *best_prio, int *worst_prio)
{
	size_t i, n = 0;
	*best_prio = 1000;
	*worst_prio = -1;
	for (i = 0; i < r->nsl; i++) {
		const struct o1t_slice *s = &r->sl[i];
		if (s->task != task || s->ts < from || s->ts >= to)
			continue;
		n++;
		if (s->prio < *best_prio)
			*best_prio = s->prio;
		if (s->prio > *worst_prio)
			*worst_prio = s->prio;
	}
	return n;
}

size_t o1t_wakeups(const struct o1t_run *r, int task, uint64_t from, uint64_t to,
		   size_t *immediate)
{
	size_t i, n = 0;
	*immediate = 0;
	for (i = 0; i < r->nwk; i++) {
		const struct o1t_wake *w = &r->wk[i];
		if (w->task != task || w->ts < from || w->ts >= to)
			continue;
		n++;
		if (w->ts_run == w->ts)
			(*immediate)++;
	}
	return n;
}

int o1t_same(const struct o1t_run *a, const struct o1t_run *b)
{
	size_t i;
	if (a->nsl != b->nsl || a->nwk != b->nwk || a->nst != b->nst)
		return 0;
	for (i = 0; i < a->nsl; i++) {
		const struct o1t_slice *x = &a->sl[i], *y = &b->sl[i];
		if (x->ts != y->ts || x->dur != y->dur || x->cpu != y->cpu || x->task != y->task ||
		    x->prio != y->prio || x->end != y->end)
			return 0;
	}
	for (i = 0; i < a->nwk; i++) {
		const struct o1t_wake *x = &a->wk[i], *y = &b->wk[i];
		if (x->ts != y->ts || x->ts_run != y->ts_run || x->task != y->task ||
		    x->waker != y->waker || x->cpu != y->cpu)
			return 0;
	}
	for (i = 0; i < a->nst; i++) {
		const struct o1t_stair *x = &a->st[i], *y = &b->st[i];
		if (x->ts != y->ts || x->task != y->task || x->level != y->level ||
		    x->array != y->array)
			return 0;
	}
	return 1;
}
