/* replay/causal.c - causal waits: a sleep (or a start) that ends when
 * another task's cumulative CPU time reaches a recorded point. Each task
 * keeps the tasks waiting for its progress in a min-heap by point; entries
 * carry the waiter's token so a wait ended otherwise is simply skipped.
 * See docs/replay.md "Sleeps: timed and causal". */
#include "engine_priv.h"

#include <stdlib.h>

static int waiter_before(const struct sl_waiter *a, const struct sl_waiter *b)
{
	if (a->point != b->point)
		return a->point < b->point;
	return a->t->idx < b->t->idx;
}

void sl_waiter_heap_push(struct sl_waiter **heap, size_t *n, size_t *cap, struct sl_waiter x)
{
	size_t i;
	SL_GROW(*heap, *cap, *n + 1);
	i = (*n)++;
	while (i > 0 && waiter_before(&x, &(*heap)[(i - 1) / 2])) {
		(*heap)[i] = (*heap)[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	(*heap)[i] = x;
}

void sl_waiter_heap_pop(struct sl_waiter *heap, size_t *np)
{
	size_t i = 0, n = --*np;
	struct sl_waiter last = heap[n];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && waiter_before(&heap[c + 1], &heap[c]))
			c++;
		if (!waiter_before(&heap[c], &last))
			break;
		heap[i] = heap[c];
		i = c;
	}
	if (n)
		heap[i] = last;
}

void sl_eng_waiter_push(struct sl_task *w, struct sl_task *t, uint64_t point)
{
	struct sl_waiter x = { point, t->eng->token, t };
	sl_waiter_heap_push(&w->eng->waiters, &w->eng->waiters_n, &w->eng->waiters_cap, x);
}

static void waiter_pop(struct sl_task *w)
{
	sl_waiter_heap_pop(w->eng->waiters, &w->eng->waiters_n);
}

/* x (a wait on w's progress) still stands: its task waits for w, or for
 * any of its children (wait_on itself: reap.c) */
static int waiter_valid(const struct sl_task *w, const struct sl_waiter *x)
{
	return (x->t->eng->wait_on == w || x->t->eng->wait_on == x->t) && x->t->eng->token == x->token;
}

/* Drop stale waiters from the top of w's heap. */
void sl_eng_waiters_clean(struct sl_task *w)
{
	while (w->eng->waiters_n && !waiter_valid(w, &w->eng->waiters[0]))
		waiter_pop(w);
}

/* End a causal wait: by progress (fallback 0) or timed (fallback 1). */
static void release_waiter(struct sl_engine *e, struct sl_task *t, int fallback)
{
	t->eng->wait_on = NULL;
	e->priv->ncausal--;
	if (fallback)
		e->priv->st.causal_fallbacks++;
	else
		e->priv->st.causal_waits++;
	if (t->eng->wait_is_start)
		sl_eng_push_start(e, t, fallback ? t->eng->wait_timed_end : e->now);
	else
		sl_eng_push_wake(e, t, fallback ? t->eng->wait_timed_end : e->now);
}

/* w reached new progress: wake the waiters whose point has come. */
void sl_eng_release_reached(struct sl_engine *e, struct sl_task *w)
{
	for (;;) {
		sl_eng_waiters_clean(w);
		if (!w->eng->waiters_n || w->eng->waiters[0].point > w->sum_exec_ns)
			break;
		struct sl_task *t = w->eng->waiters[0].t;
		waiter_pop(w);
		if (t->eng->wait_on == t)
			sl_eng_reap_reached(e, w); /* a child's exit it waited for */
		release_waiter(e, t, 0);
	}
}

/* w will make no more progress: its waiters fall back to timed. */
void sl_eng_release_all(struct sl_engine *e, struct sl_task *w)
{
	for (;;) {
		sl_eng_waiters_clean(w);
		if (!w->eng->waiters_n)
			break;
		struct sl_task *t = w->eng->waiters[0].t;
		waiter_pop(w);
		/* a wait for any of its children stands while another can wake it */
		if (t->eng->wait_on != t || sl_eng_reap_lost(e, t))
			release_waiter(e, t, 1);
	}
	free(w->eng->waiters);
	w->eng->waiters = NULL;
	w->eng->waiters_n = w->eng->waiters_cap = 0;
}

/* Wait (causally) for w's CPU time to reach point, or use timed. */
void sl_eng_wait_for(struct sl_engine *e, struct sl_task *t, struct sl_task *w, uint64_t point,
		     uint64_t timed_end, int is_start)
{
	t->eng->wait_is_start = is_start;
	t->eng->wait_timed_end = timed_end;
	if (sl_eng_cur_exec(e, w) >= point) {
		/* the waker already passed the point: the wakeup has happened */
		e->priv->st.causal_waits++;
		if (is_start)
			sl_eng_push_start(e, t, e->now);
		else
			sl_eng_push_wake(e, t, e->now);
		return;
	}
	if (w->state == SL_TS_DONE || (w->eng->total_work != SL_INF && w->eng->total_work < point)) {
		e->priv->st.causal_fallbacks++;
		if (is_start)
			sl_eng_push_start(e, t, timed_end);
		else
			sl_eng_push_wake(e, t, timed_end);
		return;
	}
	t->eng->wait_on = w;
	e->priv->ncausal++;
	sl_eng_waiter_push(w, t, point);
	if (w->state == SL_TS_RUNNING && e->cpus[w->cpu].curr == w) {
		sl_eng_account(e, w->cpu);
		sl_eng_arm(e, w->cpu);
	}
}

/* Nothing runnable, nothing timed pending, tasks wait for each other's
 * progress: release the one whose timed wakeup comes first. */
void sl_eng_break_deadlock(struct sl_engine *e)
{
	struct sl_task *best = NULL;
	size_t i;
	for (i = 0; i < e->ntasks; i++) {
		struct sl_task *t = &e->tasks[i];
		if (t->eng->wait_on && (!best || t->eng->wait_timed_end < best->eng->wait_timed_end))
			best = t;
	}
	if (!best) {
		/* only parked wakers are left (handback.c): wake the first */
		for (i = 0; i < e->ntasks; i++) {
			struct sl_task *b = e->tasks[i].eng->parked_on;
			if (b) {
				sl_eng_unpark_by(e, b);
				sl_eng_resume_parked(e, &e->tasks[i], b);
				return;
			}
		}
		e->priv->ncausal = 0; /* cannot happen; never loop */
		return;
	}
	best->eng->wait_on = NULL; /* its heap entry becomes stale */
	release_waiter(e, best, 1);
}

