/* replay/sync.c - sync wakeups inferred from a behaviour (sync.h,
 * docs/replay.md "Sync wakeups").
 *
 * In 2.6.20 a wakeup is sync when the waker calls __wake_up_sync
 * (kernel/sched.c: try_to_wake_up(p, state, 1)) because it is about to
 * leave its CPU: do_notify_parent's __wake_up_parent (kernel/signal.c: an
 * exiting child wakes its parent's wait4) and pipe_read/pipe_write right
 * before they block in pipe_wait (fs/pipe.c). A trace has the wakeup, not
 * the call that made it; what it does have is what the waker did next. Rule:
 * a wakeup of t by task w at w's CPU time P is sync when w's burst holding P
 * (past any sched_yield) ends in a sleep (S, D) or an exit at B with
 * B - P <= window, and w woke or forked no other task in (P, B], and w and t
 * are not threads of one process (a futex's wakeup, never sync). Mode exit
 * keeps only an exit (X) whose wakee is w's parent's thread group, w not of
 * that group. Mode group is the rule of 5.x and later kernels, where pipe,
 * socket and epoll wakeups pass WF_SYNC whatever the waker does next
 * (__wake_up_sync_key; read live on 6.18, docs/validate.md "Which wakeups
 * are sync"): a user task waking a user task of another thread group is
 * sync; a futex's (one thread group: futex_wake -> wake_up_q, no WF_SYNC),
 * a kernel thread's, a wakeup of a kernel thread, and an exiting waker's
 * (select_task_rq_fair: WF_SYNC && !(current->flags & PF_EXITING)) are
 * not. */
#include "sync.h"
#include "choices.h"

#include <stdlib.h>
#include <string.h>

#include "../common/util.h"

const char *sl_sync_mode_name(int mode)
{
	return sl_choice_name(sl_sync_choices, mode, "block");
}

int sl_sync_mode_parse(const char *name)
{
	const struct sl_choice *c = sl_choice_find(sl_sync_choices, name);
	return c ? c->value : -1;
}

/* a wakeup or fork made by a task at a point of its CPU time */
struct act {
	int32_t by;
	uint64_t at;
};

static int act_cmp(const void *a, const void *b)
{
	const struct act *x = a, *y = b;
	return x->by != y->by ? SL_CMP(x->by, y->by) : SL_CMP(x->at, y->at);
}

/* the first act of acts[0..n) after (by, at), or n */
static size_t act_after(const struct act *acts, size_t n, int32_t by, uint64_t at)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (acts[mid].by < by || (acts[mid].by == by && acts[mid].at <= at))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* a and b are one thread group (a process) */
static int same_group(const struct sl_behaviour *b, int32_t x, int32_t y)
{
	return x == y || (b->tasks[x].tgid > 0 && b->tasks[x].tgid == b->tasks[y].tgid);
}

static int valid(const struct sl_behaviour *b, int32_t i)
{
	return i >= 0 && (size_t)i < b->ntasks;
}

void sl_sync_infer(const struct sl_behaviour *b, int mode, uint64_t window_ns, struct sl_sync_map *m)
{
	uint64_t *cum;
	struct act *acts;
	size_t t, k, total = 0, nacts = 0;

	memset(m, 0, sizeof(*m));
	if (mode == SL_SYNC_NONE || !b->ntasks)
		return;
	m->ntasks = b->ntasks;
	m->off = xcalloc(b->ntasks + 1, sizeof(*m->off));
	for (t = 0; t < b->ntasks; t++) {
		m->off[t] = total;
		total += b->tasks[t].nphases;
	}
	m->off[b->ntasks] = total;
	if (!total)
		return;
	m->flag = xcalloc(total, 1);
	/* each task's CPU time at the end of each burst */
	cum = xcalloc(total, sizeof(*cum));
	acts = xcalloc(total + b->ntasks, sizeof(*acts));
	for (t = 0; t < b->ntasks; t++) {
		const struct sl_task_spec *s = &b->tasks[t];
		uint64_t c = 0;
		for (k = 0; k < s->nphases; k++) {
			const struct sl_phase *ph = &s->phases[k];
			c = ph->run_ns > UINT64_MAX - c ? UINT64_MAX : c + ph->run_ns;
			cum[m->off[t] + k] = c;
			if (ph->waker_kind == SL_WAKER_TASK && valid(b, ph->waker) && (size_t)ph->waker != t)
				acts[nacts++] = (struct act){ ph->waker, ph->waker_progress_ns };
		}
		if ((s->flags & SL_TASK_FORKED) && valid(b, s->parent) && (size_t)s->parent != t)
			acts[nacts++] = (struct act){ s->parent, s->parent_progress_ns };
	}
	qsort(acts, nacts, sizeof(*acts), act_cmp);
	for (t = 0; t < b->ntasks; t++) {
		const struct sl_task_spec *s = &b->tasks[t];
		for (k = 0; k < s->nphases; k++) {
			const struct sl_phase *ph = &s->phases[k];
			const struct sl_task_spec *w;
			const uint64_t *wc;
			size_t lo, hi, a;
			uint64_t p = ph->waker_progress_ns, blk;
			char end;

			if (ph->waker_kind != SL_WAKER_TASK || !valid(b, ph->waker) || (size_t)ph->waker == t)
				continue;
			w = &b->tasks[ph->waker];
			wc = cum + m->off[ph->waker];
			if (mode == SL_SYNC_GROUP &&
			    ((w->flags & SL_TASK_KTHREAD) || (s->flags & SL_TASK_KTHREAD) ||
			     same_group(b, ph->waker, (int32_t)t)))
				continue;
			/* the waker's burst holding p: the first whose end is at or
			 * after p (a wakeup at a burst's very end is that burst's) */
			lo = 0;
			hi = w->nphases;
			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;
				if (wc[mid] < p)
					lo = mid + 1;
				else
					hi = mid;
			}
			while (lo < w->nphases && w->phases[lo].end == SL_END_YIELD)
				lo++; /* sched_yield leaves the waker runnable */
			if (lo == w->nphases)
				continue;
			end = w->phases[lo].end;
			if (mode == SL_SYNC_GROUP) {
				/* the waker's own exit path (do_notify_parent
				 * under PF_EXITING) is not sync */
				if (!(end == SL_END_EXIT && wc[lo] - p <= window_ns)) {
					m->flag[m->off[t] + k] = 1;
					m->nsync++;
				}
				continue;
			}
			if (end != SL_END_SLEEP_S && end != SL_END_SLEEP_D && end != SL_END_EXIT)
				continue;
			blk = wc[lo];
			if (blk - p > window_ns)
				continue;
			/* a wakeup between threads of one process is a futex's
			 * (futex_wake -> wake_up_q -> try_to_wake_up(p, state, 0):
			 * never WF_SYNC, kernel/futex/waitwake.c, v6.18; 2.6.20's
			 * futex_wake -> wake_up_all likewise), not a pipe's */
			if (mode == SL_SYNC_BLOCK && same_group(b, ph->waker, (int32_t)t))
				continue;
			if (mode == SL_SYNC_EXIT &&
			    (end != SL_END_EXIT || !valid(b, w->parent) ||
			     !same_group(b, w->parent, (int32_t)t) || same_group(b, ph->waker, (int32_t)t)))
				continue;
			/* nothing else in between: no other wakeup or fork by the
			 * waker after p, up to its block (at p itself: the same
			 * wake_up call) */
			a = act_after(acts, nacts, ph->waker, p);
			if (a < nacts && acts[a].by == ph->waker && acts[a].at <= blk)
				continue;
			m->flag[m->off[t] + k] = 1;
			m->nsync++;
		}
	}
	free(cum);
	free(acts);
}

void sl_sync_release(struct sl_sync_map *m)
{
	free(m->flag);
	free(m->off);
	memset(m, 0, sizeof(*m));
}

void sl_sync_copy(const struct sl_sync_map *from, struct sl_sync_map *to)
{
	*to = *from;
	if (from->off) {
		to->off = xmalloc((from->ntasks + 1) * sizeof(*to->off));
		memcpy(to->off, from->off, (from->ntasks + 1) * sizeof(*to->off));
	}
	if (from->flag) {
		size_t n = from->off[from->ntasks];
		to->flag = xmalloc(n);
		memcpy(to->flag, from->flag, n);
	}
}
