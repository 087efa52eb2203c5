/* analyze/wall.c - tasks whose bursts end on a wall-clock deadline
 * (analyze/wall.h; docs/model.md "Wall-clock bursts"). */
#include "wall.h"

#include "../common/util.h"

#include <stdlib.h>
#include <string.h>

void sl_wall_obs_slice(struct sl_wall_obs *o, int task, uint64_t ts, uint64_t dur, char end)
{
	struct sl_wall_task *t;
	if (task < 0)
		return;
	if ((size_t)task >= o->nt) {
		size_t n = (size_t)task + 1 > o->nt * 2 ? (size_t)task + 1 : o->nt * 2;
		o->t = xrealloc(o->t, n * sizeof(*o->t));
		memset(o->t + o->nt, 0, (n - o->nt) * sizeof(*o->t));
		o->nt = n;
	}
	t = &o->t[task];
	if (ts < t->last_end)
		t->disordered = 1;
	t->last_end = ts + dur;
	if (!t->open.n) {
		t->open.first = ts;
		t->yielded = 0;
	}
	t->open.n++;
	t->open.last = ts;
	t->open.end = ts + dur;
	if (end == SL_END_YIELD)
		t->yielded = 1;
	if (end == 'R' || end == SL_END_YIELD)
		return; /* the burst goes on */
	if (sl_end_sleeps(end) && t->after_sleep && !t->yielded) {
		SL_GROW(t->b, t->cap, t->nb + 1);
		t->b[t->nb++] = t->open;
	}
	t->after_sleep = sl_end_sleeps(end);
	t->open.n = 0;
}

void sl_wall_obs_release(struct sl_wall_obs *o)
{
	size_t i;
	for (i = 0; i < o->nt; i++)
		free(o->t[i].b);
	free(o->t);
	memset(o, 0, sizeof(*o));
}

static uint64_t median(uint64_t *v, size_t n)
{
	sl_sort_u64(v, n);
	return n ? v[(n - 1) / 2] : 0;
}

/* How b's bursts fit the deadline d: the late ones' tails go to v from the
 * front, the through ones' spans from the back (v holds n); 1 when they fit
 * (wall.h). */
static int fits(const struct sl_wall_burst *b, size_t n, uint64_t d, uint64_t *v, size_t *nthrough,
		size_t *nlate)
{
	uint64_t tol = d / 50;
	size_t i;
	*nthrough = *nlate = 0;
	for (i = 0; i < n; i++) {
		uint64_t span = b[i].end - b[i].first;
		if (span + tol >= d && span <= d + tol)
			v[n - 1 - (*nthrough)++] = span;
		else if (b[i].n >= 2 && b[i].last - b[i].first + tol >= d &&
			 b[i].end - b[i].last <= (d / 20 < SL_WALL_TAIL_MAX_NS ? d / 20 : SL_WALL_TAIL_MAX_NS))
			v[(*nlate)++] = b[i].end - b[i].last;
	}
	return *nlate * 4 >= n && (*nlate + *nthrough) * 10 >= n * 9;
}

int sl_wall_fit(const struct sl_wall_burst *b, size_t n, uint64_t *wall, uint64_t *tail)
{
	uint64_t *sp, *v;
	size_t i, np = 0, nthrough, nlate, step;
	int ok = 0;
	if (n < SL_WALL_MIN)
		return 0;
	sp = xcalloc(n, sizeof(*sp));
	v = xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++)
		if (b[i].n >= 2)
			sp[np++] = b[i].end - b[i].first;
	sl_sort_u64(sp, np);
	/* the deadline: the shortest span of a preempted burst that the bursts
	 * fit (no burst of such a task ends before its deadline, save a few
	 * that do not fit at all), tried over the shortest tenth of them, at
	 * most 64 candidates */
	step = np / 10 / 64 + 1;
	for (i = 0; np >= SL_WALL_MIN && i <= np / 10 && !ok; i += step)
		if (sp[i] >= SL_WALL_MIN_NS && fits(b, n, sp[i], v, &nthrough, &nlate)) {
			*tail = median(v, nlate);
			if (*tail > SL_WALL_TAIL_MEDIAN_NS)
				continue; /* no fixed exit path: not a wall loop */
			*wall = nthrough ? median(v + n - nthrough, nthrough) : sp[i];
			*wall = *wall > *tail ? *wall - *tail : 0;
			ok = *wall > 0;
		}
	free(sp);
	free(v);
	return ok;
}

size_t sl_mark_wall(struct sl_behaviour *b, const struct sl_wall_obs *o)
{
	size_t i, marked = 0;
	for (i = 0; i < b->ntasks && i < o->nt; i++) {
		struct sl_task_spec *s = &b->tasks[i];
		uint64_t wall, tail;
		if (s->nphases < 3 || o->t[i].disordered || !sl_wall_fit(o->t[i].b, o->t[i].nb, &wall, &tail))
			continue;
		s->flags |= SL_TASK_WALL;
		s->wall_ns = wall;
		s->wall_tail_ns = tail;
		marked++;
	}
	return marked;
}
