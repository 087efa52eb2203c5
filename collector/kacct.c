/* collector/kacct.c - see kacct.h. */
#include "kacct.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

enum { KW_NONE = 0, KW_WAIT, KW_RUNPEND };

struct ka_task {
	int win;            /* -1 not looked up yet, 0 in no window, 1 lo..hi */
	uint64_t lo, hi;
	int state;          /* KW_*: waiting since start; switched in at sw, its
			     * clock not yet known */
	uint64_t start, sw;
	int from_cpu;       /* KW_WAIT: the CPU that switched it out runnable, -1 woken */
	int on_cpu;         /* the CPU it was switched in on, -1 none */
	uint64_t mark;      /* KW_WAIT: the enqueue's charge after its sched_waking ... */
	int mark_cpu;       /* ... on this CPU, -1 none */
	uint64_t work, wait;
	/* what its counters' window covers of its running (docs/ledger.md):
	 * the start of its first charge after lo, its last switch-in and
	 * switch-out and its last charge at or before hi */
	uint64_t clo, in_ts, out_ts, chi;
	int have_clo, have_chi;
	int in_cpu;         /* the CPU of that switch-in */
	int decided;        /* the first switch of it after hi came ... */
	int across;         /* ... and took it off in_cpu: it ran across hi */
	uint64_t elo[2], ehi[2]; /* running with no slice row (sl_kacct_edge) */
	int nedge;
	int charged;        /* a sched_stat_runtime named it */
	int queued;         /* KW_WAIT since a move while asleep: its start stays */
	int enq;            /* KW_WAIT: enqueued (not only its sched_waking seen) */
};

struct ka_cpu {
	int pending;        /* the last switch's clock is not known yet */
	uint64_t sw, floor; /* its ts; the clock of the switch before */
	int32_t next, prev; /* its next task; its prev when still runnable (-1) */
	int32_t waking;     /* the task of its last sched_waking, until a charge (-1) */
	int switched;       /* a switch seen on it */
};

struct sl_kacct {
	struct sl_ledger_window *w; /* sorted by tid */
	size_t nw;
	struct ka_task *t;
	size_t nt, tcap;
	struct ka_cpu *c;
	size_t nc;
};

static int win_cmp(const void *a, const void *b)
{
	const struct sl_ledger_window *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

struct sl_kacct *sl_kacct_new(const struct sl_ledger_window *w, size_t n)
{
	struct sl_kacct *ka;
	if (!n)
		return NULL;
	ka = xcalloc(1, sizeof(*ka));
	ka->w = xmalloc(n * sizeof(*w));
	memcpy(ka->w, w, n * sizeof(*w));
	qsort(ka->w, n, sizeof(*w), win_cmp);
	ka->nw = n;
	return ka;
}

void sl_kacct_free(struct sl_kacct *ka)
{
	if (!ka)
		return;
	free(ka->w);
	free(ka->t);
	free(ka->c);
	free(ka);
}

/* Task idx's state, its window looked up by tid on first use. */
static struct ka_task *task(struct sl_kacct *ka, int32_t idx, int32_t tid)
{
	struct ka_task *t;
	if ((size_t)idx >= ka->nt) {
		size_t old = ka->tcap, i;
		SL_GROW(ka->t, ka->tcap, (size_t)idx + 1);
		memset(ka->t + old, 0, (ka->tcap - old) * sizeof(*ka->t));
		for (i = old; i < ka->tcap; i++) {
			ka->t[i].win = -1;
			ka->t[i].on_cpu = -1;
			ka->t[i].from_cpu = -1;
			ka->t[i].mark_cpu = -1;
		}
		ka->nt = (size_t)idx + 1;
	}
	t = &ka->t[idx];
	if (t->win < 0) {
		struct sl_ledger_window key, *w;
		key.tid = tid;
		w = bsearch(&key, ka->w, ka->nw, sizeof(key), win_cmp);
		t->win = w != NULL;
		if (w) {
			t->lo = w->lo;
			t->hi = w->hi;
		}
	}
	return t;
}

static int in_win(const struct ka_task *t, uint64_t ts)
{
	return t->win > 0 && ts > t->lo && ts <= t->hi;
}

static struct ka_cpu *cpu_of(struct sl_kacct *ka, int cpu)
{
	if ((size_t)cpu >= ka->nc) {
		size_t old = ka->nc, i;
		ka->c = xrealloc(ka->c, ((size_t)cpu + 1) * sizeof(*ka->c));
		for (i = old; i <= (size_t)cpu; i++) {
			memset(&ka->c[i], 0, sizeof(ka->c[i]));
			ka->c[i].next = ka->c[i].prev = ka->c[i].waking = -1;
		}
		ka->nc = (size_t)cpu + 1;
	}
	return &ka->c[cpu];
}

/* The clock of cpu's last switch is k (clamped to its floor and its ts):
 * its next task's wait ends there, its runnable prev's begins there. */
static void resolve(struct sl_kacct *ka, int cpu, uint64_t k)
{
	struct ka_cpu *c = &ka->c[cpu];
	if (k < c->floor)
		k = c->floor;
	if (k > c->sw)
		k = c->sw;
	c->floor = k;
	c->pending = 0;
	if (c->next >= 0 && (size_t)c->next < ka->nt) {
		struct ka_task *t = &ka->t[c->next];
		if (t->state == KW_RUNPEND && t->on_cpu == cpu) {
			if (in_win(t, t->sw) && k > t->start)
				t->wait += k - t->start;
			t->state = KW_NONE;
		}
	}
	if (c->prev >= 0 && (size_t)c->prev < ka->nt) {
		struct ka_task *t = &ka->t[c->prev];
		if (t->state == KW_WAIT && t->from_cpu == cpu && t->start == c->sw)
			t->start = k;
	}
}

void sl_kacct_edge(struct sl_kacct *ka, int32_t idx, int32_t tid, uint64_t lo, uint64_t hi)
{
	struct ka_task *t;
	if (!ka || idx < 0)
		return;
	t = task(ka, idx, tid);
	if (t->win <= 0 || hi <= lo || t->nedge >= 2)
		return; /* one at each end of the trace */
	t->elo[t->nedge] = lo;
	t->ehi[t->nedge++] = hi;
}

void sl_kacct_switch(struct sl_kacct *ka, int cpu, uint64_t ts, int32_t p, int32_t ptid,
		     int p_runnable, int32_t n, int32_t ntid, uint64_t p_from)
{
	struct ka_cpu *c;
	if (!ka || cpu < 0)
		return;
	c = cpu_of(ka, cpu);
	if (!c->switched && p_from && p_from < ts)
		sl_kacct_edge(ka, p, ptid, p_from, ts);
	c->switched = 1;
	c->waking = -1;
	if (c->pending) /* its next had no charge: the switch's own time */
		resolve(ka, cpu, c->sw);
	if (p >= 0) {
		struct ka_task *t = task(ka, p, ptid);
		if (t->win > 0 && ts <= t->hi)
			t->out_ts = ts;
		else if (t->win > 0 && !t->decided) {
			t->decided = 1;
			t->across = t->in_ts > t->out_ts && t->in_cpu == cpu;
		}
		t->on_cpu = -1;
		t->queued = 0;
		t->state = p_runnable ? KW_WAIT : KW_NONE;
		t->start = ts;
		t->from_cpu = cpu;
		t->enq = 1;
	}
	c->sw = ts;
	c->pending = 1;
	c->prev = p_runnable ? p : -1;
	c->next = n;
	if (n >= 0) {
		struct ka_task *t = task(ka, n, ntid);
		if (t->win > 0 && ts <= t->hi) {
			t->in_ts = ts;
			t->in_cpu = cpu;
		} else if (t->win > 0) {
			t->decided = 1; /* in again with no switch-out seen */
		}
		t->on_cpu = cpu;
		t->queued = 0;
		/* a wait whose start the trace did not show is not counted */
		t->state = t->state == KW_WAIT ? KW_RUNPEND : KW_NONE;
		t->sw = ts;
	} else {
		resolve(ka, cpu, ts); /* the idle task has no charges */
	}
}

void sl_kacct_wake(struct sl_kacct *ka, int32_t idx, int32_t tid, uint64_t ts, int kind, int cpu)
{
	struct ka_task *t;
	struct ka_cpu *c;
	if (!ka || idx < 0 || cpu < 0)
		return;
	t = task(ka, idx, tid);
	c = cpu_of(ka, cpu);
	if (t->state == KW_WAIT && t->queued) {
		/* last_queued is set already: sched_info_enqueue keeps it */
		if (c->waking == idx)
			c->waking = -1;
		return;
	}
	if (kind != SL_KW_WAKEUP) {
		t->state = KW_WAIT;
		t->start = ts;
		t->from_cpu = -1;
		t->mark_cpu = -1;
		t->enq = kind != SL_KW_WAKING;
		c->waking = kind == SL_KW_WAKING ? idx : -1;
		return;
	}
	if (c->waking == idx)
		c->waking = -1;
	if (t->state != KW_WAIT || t->from_cpu >= 0)
		return;
	t->enq = 1;
	/* the enqueue: the charge that came between on this CPU, else
	 * (remote: the wakeup list's IPI, ttwu_queue_wakelist) before this */
	if (t->mark_cpu == cpu && t->mark >= t->start && t->mark <= ts)
		t->start = t->mark;
	else if (ts > t->start)
		t->start = ts;
}

void sl_kacct_migrate(struct sl_kacct *ka, int32_t idx, int32_t tid, uint64_t ts)
{
	struct ka_task *t;
	if (!ka || idx < 0)
		return;
	t = task(ka, idx, tid);
	if (t->on_cpu >= 0)
		return;
	if (t->state == KW_WAIT) {
		if (!t->enq)
			return; /* try_to_wake_up's own move, before the enqueue */
		/* a queued task's dequeue adds its wait so far
		 * (sched_info_dequeue); the enqueue there starts anew */
		if (in_win(t, ts) && ts > t->start)
			t->wait += ts - t->start;
		t->start = ts;
		t->from_cpu = -1;
		t->mark_cpu = -1;
		return;
	}
	if (t->state != KW_NONE)
		return;
	t->state = KW_WAIT;
	t->start = ts;
	t->from_cpu = -1;
	t->mark_cpu = -1;
	t->queued = 1;
	t->enq = 1;
}

void sl_kacct_charge(struct sl_kacct *ka, int32_t idx, int32_t tid, uint64_t ts, uint64_t runtime,
		     int cpu)
{
	struct ka_task *t;
	struct ka_cpu *c;
	if (!ka || idx < 0 || cpu < 0)
		return;
	c = cpu_of(ka, cpu);
	if (c->waking >= 0 && (size_t)c->waking < ka->nt) {
		/* the first charge after a sched_waking on its CPU: the
		 * enqueue's update_curr, just after its clock update */
		struct ka_task *w = &ka->t[c->waking];
		if (w->state == KW_WAIT && w->from_cpu < 0 && w->mark_cpu < 0) {
			w->mark = ts;
			w->mark_cpu = cpu;
			w->enq = 1;
		}
		c->waking = -1;
	}
	t = task(ka, idx, tid);
	t->charged = 1;
	if (t->win > 0 && ts > t->lo && !t->have_clo) {
		t->clo = ts > runtime ? ts - runtime : 0;
		t->have_clo = 1;
	}
	if (t->win > 0 && ts <= t->hi) {
		t->chi = ts;
		t->have_chi = 1;
	}
	if (in_win(t, ts))
		t->work += runtime;
	if (t->state == KW_WAIT) {
		/* charged while waiting: it runs, switched in where the trace
		 * lost the switch; its charge, and its run, began at ts - runtime */
		uint64_t k = ts > runtime ? ts - runtime : 0;
		if (in_win(t, k) && k > t->start)
			t->wait += k - t->start;
		t->state = KW_NONE;
		t->queued = 0;
		return;
	}
	/* the first charge of a task switched in: its charge began at the
	 * switch's clock */
	if (t->on_cpu >= 0 && ka->c[t->on_cpu].pending && ka->c[t->on_cpu].next == idx)
		resolve(ka, t->on_cpu, ts > runtime ? ts - runtime : 0);
}

/* What t's counters cover (kacct.h), when the trace has the kernel's charges
 * (charges): [*lo, *hi], and its edge time there. */
static void counted(const struct ka_task *t, int charges, uint64_t *lo, uint64_t *hi,
		    uint64_t *edge)
{
	/* running at hi, as switches seen on one CPU show: taken off it after
	 * hi, still on it at the trace's end, or on it since the trace began */
	int k, running = t->across;
	*lo = t->have_clo && t->clo < t->lo ? t->clo : t->lo;
	*hi = t->hi;
	for (k = 0; k < t->nedge; k++) {
		running |= !t->decided && t->in_ts > t->out_ts && t->elo[k] == t->in_ts;
		running |= !t->in_ts && !t->out_ts && t->elo[k] <= t->hi && t->ehi[k] > t->hi;
	}
	if (charges && running)
		*hi = t->have_chi && t->chi > t->in_ts ? t->chi : t->in_ts;
	if (*hi < *lo)
		*hi = *lo;
	*edge = 0;
	for (k = 0; k < t->nedge; k++) {
		uint64_t a = t->elo[k] > *lo ? t->elo[k] : *lo, b = t->ehi[k] < *hi ? t->ehi[k] : *hi;
		*edge += b > a ? b - a : 0;
	}
}

void sl_kacct_finish(struct sl_kacct *ka, size_t nt, uint64_t **work, uint64_t **wait,
		     uint64_t **edge, uint64_t **lo, uint64_t **hi)
{
	size_t i;
	int charges = 0;
	*lo = xcalloc(nt ? nt : 1, sizeof(**lo));
	*hi = xcalloc(nt ? nt : 1, sizeof(**hi));
	*work = xmalloc((nt ? nt : 1) * sizeof(**work));
	*wait = xcalloc(nt ? nt : 1, sizeof(**wait));
	*edge = xcalloc(nt ? nt : 1, sizeof(**edge));
	for (i = 0; i < nt; i++)
		(*work)[i] = UINT64_MAX;
	if (!ka)
		return;
	for (i = 0; i < ka->nc; i++)
		if (ka->c[i].pending)
			resolve(ka, (int)i, ka->c[i].sw);
	for (i = 0; i < ka->nt; i++)
		charges |= ka->t[i].charged;
	for (i = 0; i < nt && i < ka->nt; i++) {
		(*work)[i] = ka->t[i].charged ? ka->t[i].work : UINT64_MAX;
		(*wait)[i] = ka->t[i].wait;
		if (ka->t[i].win > 0)
			counted(&ka->t[i], charges, &(*lo)[i], &(*hi)[i], &(*edge)[i]);
	}
}
