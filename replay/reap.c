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
	int32_t *live;  /* of those, the ones that have appeared and not yet exited */
	size_t nlive;
	uint64_t point; /* as a child: the point of its exit at which it wakes its parent */
	uint64_t from;  /* its CPU time before its last burst, UINT64_MAX: no exit burst */
	int from_known; /* from computed (once: exit_wake asks for it at every naming) */
	int exited;     /* its point reached */
	int listed;     /* in its parent's kids */
	size_t at;      /* its index in its parent's live */
};

/* Task w's CPU time before its last burst, if that burst ends in its exit
 * (UINT64_MAX otherwise): the burst that holds its exit notification. */
static uint64_t exit_from(struct sl_reap *r, const struct sl_task_spec *w)
{
	struct sl_reap *c = &r[w->idx];
	uint64_t sum = 0;
	size_t i;
	if (c->from_known)
		return c->from;
	c->from_known = 1;
	c->from = UINT64_MAX;
	for (i = 0; i < w->nphases; i++) {
		const struct sl_phase *ph = &w->phases[i];
		if (ph->run_ns == SL_INF)
			break;
		if (ph->end == SL_END_EXIT)
			c->from = sum;
		if (ph->end == SL_END_EXIT || ph->end == SL_END_TRACE)
			break;
		sum += ph->run_ns;
	}
	return c->from;
}

/* Whether phase ph of task i is a sleep ended by the exit of a child of i:
 * its waker's parent is i, and the waker woke it in its last burst, which
 * ends in its exit. */
static int exit_wake(const struct sl_engine *e, struct sl_reap *r, size_t i, const struct sl_phase *ph)
{
	const struct sl_task_spec *w;
	uint64_t from;
	if (!sl_end_sleeps(ph->end) || ph->waker_kind != SL_WAKER_TASK || ph->waker < 0 ||
	    (size_t)ph->waker >= e->priv->nreal || (size_t)ph->waker == i)
		return 0;
	w = e->tasks[ph->waker].spec;
	if (w->parent != (int32_t)i || (w->flags & (SL_TASK_EXITED | SL_TASK_FORKED)) != (SL_TASK_EXITED | SL_TASK_FORKED))
		return 0;
	from = exit_from(r, w);
	return from != UINT64_MAX && ph->waker_progress_ns > from;
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
			if (!exit_wake(e, r, i, ph))
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
				if (exit_wake(e, r, i, &s->phases[k]))
					r[s->phases[k].waker].point = 0;
			continue;
		}
		r[i].ph = xcalloc(nph, sizeof(*r[i].ph));
		r[i].kids = xcalloc(nph, sizeof(*r[i].kids));
		r[i].live = xcalloc(nph, sizeof(*r[i].live));
		for (k = 0; k < s->nphases && r[i].nkids < nph; k++) {
			const struct sl_phase *ph = &s->phases[k];
			/* each child once: its first naming (a later one keeps
			 * its child, as a named wait) */
			if (!exit_wake(e, r, i, ph) || r[ph->waker].listed || r[ph->waker].point != ph->waker_progress_ns)
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
		free(e->priv->reap[i].live);
	}
	free(e->priv->reap);
	e->priv->reap = NULL;
}

/* Child c of a waiting parent (one of its kids) reached its exit point:
 * counted, and out of the live ones. */
static void mark_exited(struct sl_engine *e, struct sl_task *c)
{
	struct sl_reap *cr = &e->priv->reap[c->idx], *r = &e->priv->reap[c->spec->parent];
	if (cr->exited)
		return;
	cr->exited = 1;
	r->nexited++;
	if (cr->at < r->nlive && r->live[cr->at] == c->idx) {
		int32_t last = r->live[--r->nlive];
		r->live[cr->at] = last;
		e->priv->reap[last].at = cr->at;
	}
}

/* A kid's start is set (its parent reached its fork, or its recorded clock
 * starts it): live; if its parent waits for any of its children now, for
 * it too. */
void sl_eng_reap_start(struct sl_engine *e, struct sl_task *p)
{
	struct sl_reap *cr, *r;
	struct sl_task *parent;
	if (!e->priv->reap || (size_t)p->idx >= e->priv->nreal || !e->priv->reap[p->idx].listed)
		return;
	cr = &e->priv->reap[p->idx];
	r = &e->priv->reap[p->spec->parent];
	if (cr->exited || (cr->at < r->nlive && r->live[cr->at] == p->idx))
		return;
	parent = &e->tasks[p->spec->parent];
	cr->at = r->nlive;
	r->live[r->nlive++] = p->idx;
	if (parent->eng->wait_on == parent)
		sl_eng_waiter_push(p, parent, cr->point);
}

/* A kid is done: past its exit point (its work is all done), or never to
 * reach it. */
void sl_eng_reap_finish(struct sl_engine *e, struct sl_task *p)
{
	struct sl_reap *cr, *r;
	if (!e->priv->reap || (size_t)p->idx >= e->priv->nreal || !e->priv->reap[p->idx].listed)
		return;
	cr = &e->priv->reap[p->idx];
	if (sl_eng_cur_exec(e, p) >= cr->point) {
		mark_exited(e, p);
		return;
	}
	r = &e->priv->reap[p->spec->parent];
	if (cr->at < r->nlive && r->live[cr->at] == p->idx) {
		int32_t last = r->live[--r->nlive];
		r->live[cr->at] = last;
		e->priv->reap[last].at = cr->at;
	}
	cr->at = SIZE_MAX;
}

int sl_eng_reap_wait(struct sl_engine *e, struct sl_task *p, uint64_t timed_end)
{
	struct sl_reap *r;
	size_t j, k;
	if (!e->priv->reap || (size_t)p->idx >= e->priv->nreal)
		return 0;
	r = &e->priv->reap[p->idx];
	while (r->cur < r->nph && r->ph[r->cur] < p->eng->phase)
		r->cur++;
	if (r->cur >= r->nph || r->ph[r->cur] != p->eng->phase)
		return 0;
	j = ++r->cur; /* the j-th exit it waits for */
	/* a live child past its point (its exit path under way) has exited */
	for (k = r->nlive; k-- > 0;) {
		struct sl_task *c = &e->tasks[r->live[k]];
		if (sl_eng_cur_exec(e, c) >= e->priv->reap[c->idx].point)
			mark_exited(e, c);
	}
	if (r->nexited >= j) {
		/* a child it has not reaped exited already: no sleep to speak of */
		e->priv->st.causal_waits++;
		e->priv->st.reap_any += !e->priv->reap[r->kids[j - 1]].exited;
		sl_eng_push_wake(e, p, e->now);
		return 1;
	}
	if (!r->nlive) {
		/* no child alive that could wake it: the recorded sleep (one
		 * still to be forked cannot be: the parent, asleep, forks none) */
		e->priv->st.causal_fallbacks++;
		sl_eng_push_wake(e, p, timed_end);
		return 1;
	}
	p->eng->wait_is_start = 0;
	p->eng->wait_timed_end = timed_end;
	p->eng->wait_on = p; /* any of its children (causal.c, waiter_valid) */
	for (k = 0; k < r->nlive; k++) {
		struct sl_task *c = &e->tasks[r->live[k]];
		sl_eng_waiter_push(c, p, e->priv->reap[c->idx].point);
		if (c->state == SL_TS_RUNNING && e->cpus[c->cpu].curr == c) {
			sl_eng_account(e, c->cpu);
			sl_eng_arm(e, c->cpu);
		}
	}
	e->priv->ncausal++;
	return 1;
}

void sl_eng_reap_reached(struct sl_engine *e, struct sl_task *child)
{
	struct sl_reap *r = &e->priv->reap[child->spec->parent];
	mark_exited(e, child);
	e->priv->st.reap_any += r->cur && r->kids[r->cur - 1] != child->idx;
}

int sl_eng_reap_lost(struct sl_engine *e, struct sl_task *parent)
{
	return e->priv->reap[parent->idx].nlive == 0;
}
