/* replay/handback.c - hand-back holds: the causal replay's second edge.
 *
 * A causal sleep ends when the waker's CPU time reaches the recorded point
 * (causal.c). The converse holds as well in the recording: the waker
 * reached that point only after the sleeper had gone to sleep (a task
 * that is not asleep cannot be woken). When the replay's order differs,
 * the waker could run on through the point, and through the points of
 * the sleeper's later sleeps, while the sleeper still runs: the wakeups
 * would be lost (the sleeper later "sleeps" and finds itself woken in the
 * same instant). In the kernel such a waker blocks: a pipe or socket
 * ping-pong's writer reads the reply before it writes again
 * (pipe_read/unix_stream_read_generic wait for data), a futex hand-off
 * waits for the lock. So a task that reaches the point at which it wakes
 * a task that has not yet gone to sleep is parked there (it leaves its
 * CPU, S) until that task sleeps, and is then woken by it (docs/replay.md
 * "Hand-backs"). */
#include "engine_priv.h"

#include <stdlib.h>

#include "../common/util.h"

/* a hold on w for b is good while b has not gone to sleep since it was set */
static int hold_valid(const struct sl_waiter *h)
{
	const struct sl_task *b = h->t;
	return b->eng->token == h->token && b->state != SL_TS_DONE;
}

static void hold_push(struct sl_task *w, struct sl_task *b, uint64_t point)
{
	struct sl_waiter x = { point, b->eng->token, b };
	sl_waiter_heap_push(&w->eng->holds, &w->eng->holds_n, &w->eng->holds_cap, x);
}

static void hold_pop(struct sl_task *w)
{
	sl_waiter_heap_pop(w->eng->holds, &w->eng->holds_n);
}

static void holds_clean(struct sl_task *w)
{
	while (w->eng->holds_n && !hold_valid(&w->eng->holds[0]))
		hold_pop(w);
}

/* the task waker of phase ph of task i, or -1 (a workload's periodic
 * task has no phases of its own, and no task wakes it) */
static int task_waker(const struct sl_engine *e, size_t i, const struct sl_phase *ph)
{
	if ((ph->end != SL_END_SLEEP_S && ph->end != SL_END_SLEEP_D) || ph->waker_kind != SL_WAKER_TASK ||
	    ph->waker < 0 || (size_t)ph->waker >= e->priv->nreal || (size_t)ph->waker == i)
		return -1;
	return ph->waker;
}

/* A hand-off pair: most (4 in 5) of B's task wakeups come from A and most
 * of A's wakeups of tasks go to B, the one-to-one relation of a pipe or
 * socket ping-pong or a client and its server; a task that wakes many (a
 * job queue's producer, hackbench's senders) or is woken by many is in
 * no pair (the kernel's wake_wide tells the same apart by wakee flips).
 * Candidates by majority vote, then counted. */
void sl_eng_handback_init(struct sl_engine *e)
{
	size_t n = e->priv->nreal, i, k;
	int *cw, *ce, *pair;
	uint64_t *nw, *ne, *vw, *ve, *hw, *he;
	if (e->mode != SL_MODE_CAUSAL || !e->priv->handback || !n)
		return;
	cw = xcalloc(2 * n, sizeof(*cw)); /* candidate waker of i, wakee of i */
	ce = cw + n;
	nw = xcalloc(6 * n, sizeof(*nw)); /* wakeups of i by tasks, by i; votes; hits */
	ne = nw + n, vw = nw + 2 * n, ve = nw + 3 * n, hw = nw + 4 * n, he = nw + 5 * n;
	for (i = 0; i < n; i++)
		for (k = 0; k < e->tasks[i].spec->nphases; k++) {
			int a = task_waker(e, i, &e->tasks[i].spec->phases[k]);
			if (a < 0)
				continue;
			nw[i]++;
			ne[a]++;
			if (!vw[i])
				cw[i] = a;
			vw[i] = cw[i] == a ? vw[i] + 1 : vw[i] - 1;
			if (!ve[a])
				ce[a] = (int)i;
			ve[a] = ce[a] == (int)i ? ve[a] + 1 : ve[a] - 1;
		}
	for (i = 0; i < n; i++)
		for (k = 0; nw[i] && k < e->tasks[i].spec->nphases; k++) {
			int a = task_waker(e, i, &e->tasks[i].spec->phases[k]);
			if (a < 0)
				continue;
			hw[i] += cw[i] == a;
			he[a] += ce[a] == (int)i;
		}
	pair = xcalloc(n, sizeof(*pair));
	for (i = 0; i < n; i++) {
		int a = cw[i];
		pair[i] = -1;
		if (nw[i] && 5 * hw[i] >= 4 * nw[i] && ce[a] == (int)i && 5 * he[a] >= 4 * ne[a])
			pair[i] = a;
	}
	e->priv->hb_pair = pair;
	free(cw);
	free(nw);
}

void sl_eng_hold_phase(struct sl_engine *e, struct sl_task *p)
{
	const struct sl_phase *ph = &p->eng->ph;
	struct sl_task *w;
	int a;
	if (!e->priv->hb_pair || (size_t)p->idx >= e->priv->nreal || !ph->waker_progress_ns)
		return; /* no pairs (not causal, --handback off), or not a task of the behaviour */
	a = task_waker(e, (size_t)p->idx, ph);
	if (a < 0 || e->priv->hb_pair[p->idx] != a)
		return; /* not a hand-off pair */
	w = &e->tasks[ph->waker];
	if (w->state == SL_TS_DONE || sl_eng_hidden(e, w) || sl_eng_cur_exec(e, w) + 1 >= ph->waker_progress_ns)
		return; /* gone, or already there: nothing to keep in order */
	hold_push(w, p, ph->waker_progress_ns - 1);
	if (w->state == SL_TS_RUNNING && e->cpus[w->cpu].curr == w) {
		sl_eng_account(e, w->cpu);
		sl_eng_arm(e, w->cpu);
	}
}

uint64_t sl_eng_hold_point(struct sl_task *p)
{
	holds_clean(p);
	return p->eng->holds_n ? p->eng->holds[0].point : UINT64_MAX;
}

struct sl_task *sl_eng_hold_reached(struct sl_task *p)
{
	struct sl_task *b;
	holds_clean(p);
	if (!p->eng->holds_n || p->eng->holds[0].point > p->sum_exec_ns)
		return NULL;
	b = p->eng->holds[0].t;
	hold_pop(p);
	/* b parked itself (on p, or on a third task): no cycle of parks */
	return b->eng->parked_on ? NULL : b;
}

struct sl_task *sl_eng_unpark_by(struct sl_engine *e, struct sl_task *b)
{
	struct sl_task *a = b->eng->parked_by;
	if (!a)
		return NULL;
	b->eng->parked_by = NULL;
	a->eng->parked_on = NULL;
	e->priv->ncausal--;
	return a;
}

void sl_eng_holds_release(struct sl_task *p)
{
	free(p->eng->holds);
	p->eng->holds = NULL;
	p->eng->holds_n = p->eng->holds_cap = 0;
}
