/* replay/reap.c - a parent that waits for whichever of its children exits
 * first (docs/replay.md "A parent's wait for any child").
 *
 * A child's exit wakes its parent from wait4(-1), waitid(P_ALL) or a
 * pselect() broken by SIGCHLD: exit_notify() -> do_notify_parent() ->
 * __wake_up_parent() and the signal (kernel/exit.c, kernel/signal.c,
 * v6.6-v6.18). `make -j` waits so. The recording shows which child woke
 * the parent each time, in the order the children happened to exit; a
 * causal replay that waited for that child by name would keep the parent
 * asleep while another child, done first in the replay, had already exited:
 * the next job starts late and a CPU idles.
 *
 * So a task whose sleeps are ended by the exits of two or more of its
 * children waits at its j-th such sleep (in the recording's order) until j
 * of those children have reached the point of their exit at which they
 * woke it, whichever they are. An exit that came while the parent was not
 * waiting is counted when it next waits (the signal is pending: the wait
 * returns at once). Only a task the collector found waiting so
 * (SL_TASK_REAPS_ANY: woken by its children's exit notifications, never
 * after another child had exited in the same sleep) waits for any; one
 * that waits for a named child (waitpid(pid), hackbench's loop over its
 * workers, pthread_join) keeps the child the recording names. */
#include "engine_priv.h"

#include <stdlib.h>

struct sl_reap {
	size_t *ph;     /* as a parent: the phases whose sleep a child's exit ends */
	size_t nph, cur;/* their count, the next one */
	int32_t *kids;  /* the children named by those sleeps */
	size_t nkids;
	size_t nexited; /* of those, the ones past their exit point */
	uint64_t point; /* as a child: the point of its exit at which it wakes its parent */
	int exited;     /* ... reached */
	int listed;     /* ... in its parent's kids */
};

/* The phase of s in which its CPU time reaches its total (the one ending
 * its work), or NULL. */
static const struct sl_phase *last_phase(const struct sl_task_spec *s, uint64_t *before)
{
	const struct sl_phase *last = NULL;
	uint64_t sum = 0;
	size_t i;
	*before = 0;
	for (i = 0; i < s->nphases; i++) {
		const struct sl_phase *ph = &s->phases[i];
		if (ph->run_ns == SL_INF)
			return NULL;
		*before = sum;
		sum += ph->run_ns;
		last = ph;
		if (ph->end == SL_END_EXIT || ph->end == SL_END_TRACE)
			break;
	}
	return last;
}

/* Whether phase ph of task i is a sleep ended by the exit of a child of i:
 * its waker's parent is i, and the waker woke it in its last burst, which
 * ends in its exit. */
static int exit_wake(const struct sl_engine *e, size_t i, const struct sl_phase *ph)
{
	const struct sl_task_spec *w;
	const struct sl_phase *last;
	uint64_t before;
	if (!sl_end_sleeps(ph->end) || ph->waker_kind != SL_WAKER_TASK || ph->waker < 0 ||
	    (size_t)ph->waker >= e->priv->nreal || (size_t)ph->waker == i)
		return 0;
	w = e->tasks[ph->waker].spec;
	if (w->parent != (int32_t)i || (w->flags & (SL_TASK_EXITED | SL_TASK_FORKED)) != (SL_TASK_EXITED | SL_TASK_FORKED))
		return 0;
	last = last_phase(w, &before);
	return last && last->end == SL_END_EXIT && ph->waker_progress_ns > before;
}

void sl_eng_reap_init(struct sl_engine *e)
{
	size_t n = e->priv->nreal, i, k;
	struct sl_reap *r;
	if (e->mode != SL_MODE_CAUSAL || e->priv->o->reap_named || !n)
		return;
	r = xcalloc(n, sizeof(*r));
	for (i = 0; i < n; i++) {
		const struct sl_task_spec *s = e->tasks[i].spec;
		size_t nph = 0;
		if (!(s->flags & SL_TASK_REAPS_ANY))
			continue;
		for (k = 0; k < s->nphases; k++) {
			const struct sl_phase *ph = &s->phases[k];
			struct sl_reap *c;
			if (!exit_wake(e, i, ph))
				continue;
			c = &r[ph->waker];
			if (c->point)
				continue; /* named twice: the later one keeps its child */
			c->point = ph->waker_progress_ns;
			nph++;
		}
		if (nph < 2) {
			/* one child at most: waiting for it by name is the same */
			for (k = 0; k < s->nphases; k++)
				if (exit_wake(e, i, &s->phases[k]))
					r[s->phases[k].waker].point = 0;
			continue;
		}
		r[i].ph = xcalloc(nph, sizeof(*r[i].ph));
		r[i].kids = xcalloc(nph, sizeof(*r[i].kids));
		for (k = 0; k < s->nphases && r[i].nkids < nph; k++) {
			const struct sl_phase *ph = &s->phases[k];
			/* each child once: its first naming (a later one keeps
			 * its child, as a named wait) */
			if (!exit_wake(e, i, ph) || r[ph->waker].listed || r[ph->waker].point != ph->waker_progress_ns)
				continue;
			r[ph->waker].listed = 1;
			r[i].kids[r[i].nkids++] = ph->waker;
			r[i].ph[r[i].nph++] = k;
		}
	}
	e->priv->reap = r;
}

void sl_eng_reap_release(struct sl_engine *e)
{
	size_t i;
	if (!e->priv->reap)
		return;
	for (i = 0; i < e->priv->nreal; i++) {
		free(e->priv->reap[i].ph);
		free(e->priv->reap[i].kids);
	}
	free(e->priv->reap);
	e->priv->reap = NULL;
}

/* Count the children of r that have passed their exit point by now. */
static void count_exits(const struct sl_engine *e, struct sl_reap *r)
{
	size_t k;
	for (k = 0; k < r->nkids; k++) {
		struct sl_reap *c = &e->priv->reap[r->kids[k]];
		if (!c->exited && sl_eng_cur_exec(e, &e->tasks[r->kids[k]]) >= c->point) {
			c->exited = 1;
			r->nexited++;
		}
	}
}

int sl_eng_reap_wait(struct sl_engine *e, struct sl_task *p, uint64_t timed_end)
{
	struct sl_reap *r;
	size_t j, k, n = 0;
	if (!e->priv->reap || (size_t)p->idx >= e->priv->nreal)
		return 0;
	r = &e->priv->reap[p->idx];
	while (r->cur < r->nph && r->ph[r->cur] < p->eng->phase)
		r->cur++;
	if (r->cur >= r->nph || r->ph[r->cur] != p->eng->phase)
		return 0;
	j = ++r->cur; /* the j-th exit it waits for */
	count_exits(e, r);
	if (r->nexited >= j) {
		/* a child it has not reaped exited already: no sleep to speak of */
		e->priv->st.causal_waits++;
		e->priv->st.reap_any += !e->priv->reap[r->kids[j - 1]].exited;
		sl_eng_push_wake(e, p, e->now);
		return 1;
	}
	p->eng->wait_is_start = 0;
	p->eng->wait_timed_end = timed_end;
	p->eng->wait_on = p; /* any of its children (sl_eng_waiter_valid) */
	for (k = 0; k < r->nkids; k++) {
		struct sl_task *c = &e->tasks[r->kids[k]];
		struct sl_reap *cr = &e->priv->reap[r->kids[k]];
		/* not one waiting to be forked by it: the parent, asleep, forks
		 * none (and a wait per child on every later child would be
		 * quadratic: a shell's loop of thousands of commands) */
		if (cr->exited || c->state == SL_TS_DONE || (c->state == SL_TS_NEW && c->eng->wait_on == p) ||
		    (c->eng->total_work != SL_INF && c->eng->total_work < cr->point))
			continue;
		sl_eng_waiter_push(c, p, cr->point);
		if (c->state == SL_TS_RUNNING && e->cpus[c->cpu].curr == c) {
			sl_eng_account(e, c->cpu);
			sl_eng_arm(e, c->cpu);
		}
		n++;
	}
	if (!n) {
		/* no child left that could wake it: the recorded sleep */
		p->eng->wait_on = NULL;
		e->priv->st.causal_fallbacks++;
		sl_eng_push_wake(e, p, timed_end);
		return 1;
	}
	e->priv->ncausal++;
	return 1;
}

void sl_eng_reap_reached(struct sl_engine *e, struct sl_task *child)
{
	struct sl_reap *c = &e->priv->reap[child->idx], *r = &e->priv->reap[child->spec->parent];
	if (!c->exited) {
		c->exited = 1;
		r->nexited++;
	}
	e->priv->st.reap_any += r->cur && r->kids[r->cur - 1] != child->idx;
}

int sl_eng_reap_lost(struct sl_engine *e, struct sl_task *parent)
{
	struct sl_reap *r = &e->priv->reap[parent->idx];
	size_t k;
	count_exits(e, r);
	for (k = 0; k < r->nkids; k++) {
		const struct sl_task *c = &e->tasks[r->kids[k]];
		const struct sl_reap *cr = &e->priv->reap[r->kids[k]];
		if (!cr->exited && c->state != SL_TS_DONE && !(c->state == SL_TS_NEW && c->eng->wait_on == parent) &&
		    (c->eng->total_work == SL_INF || c->eng->total_work >= cr->point))
			return 0; /* another child can still wake it */
	}
	return 1;
}
