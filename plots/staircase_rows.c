/* plots/staircase_rows.c - the rows of a staircase chart: the steps
 * (staircase or vlag rows) and rotations of a run as the store hands them,
 * thinned to what the chart draws and sorted; each task's slices, wakeups
 * and times awake (staircase.h). */
#include "staircase.h"

#include <stdlib.h>
#include <string.h>

/* a new zeroed step of r, or NULL when the row's task cannot be drawn (the
 * store hands every task's rows; only the candidates are kept) */
static struct step *new_step(struct rows *r, int64_t utid, uint64_t ts)
{
	struct step *st;
	size_t i;
	r->all++;
	for (i = 0; i < r->nwant && r->want[i] != utid; i++)
		;
	if (i == r->nwant)
		return NULL;
	SL_GROW(r->v, r->cap, r->n + 1);
	st = &r->v[r->n++];
	memset(st, 0, sizeof(*st));
	st->utid = utid;
	st->ts = ts;
	st->seq = r->all;
	return st;
}

int stc_step_row(void *ctx, const struct sl_stair_row *row)
{
	struct step *st = new_step(ctx, row->utid, row->ts);
	if (st) {
		st->level = row->level;
		st->array = row->array;
	}
	return 0;
}

static int key_lt(const struct lpt *a, const struct lpt *b)
{
	return a->ts != b->ts ? a->ts < b->ts : a->seq < b->seq;
}

static struct lcol *lcol_of(struct lcols *c, long col)
{
	size_t h, i;
	if (2 * (c->n + 1) > c->nslot) {
		size_t ns = c->nslot ? 2 * c->nslot : 1024;
		free(c->slot);
		c->slot = xcalloc(ns, sizeof(*c->slot));
		c->nslot = ns;
		for (i = 0; i < c->n; i++) {
			h = (size_t)((unsigned long)c->v[i].col * 2654435761u) & (ns - 1);
			while (c->slot[h])
				h = (h + 1) & (ns - 1);
			c->slot[h] = (long)i + 1;
		}
	}
	h = (size_t)((unsigned long)col * 2654435761u) & (c->nslot - 1);
	while (c->slot[h]) {
		if (c->v[c->slot[h] - 1].col == col)
			return &c->v[c->slot[h] - 1];
		h = (h + 1) & (c->nslot - 1);
	}
	SL_GROW(c->v, c->cap, c->n + 1);
	c->slot[h] = (long)c->n + 1;
	c->v[c->n].col = col;
	c->v[c->n].first.seq = SIZE_MAX; /* empty */
	return &c->v[c->n++];
}

int stc_vlag_row(void *ctx, const struct sl_vlag_row *row)
{
	struct rows *r = ctx;
	struct lpt pt;
	struct lcol *c;
	size_t i;
	r->all++;
	for (i = 0; i < r->nwant && r->want[i] != row->utid; i++)
		;
	if (i == r->nwant)
		return 0;
	pt.ts = row->ts;
	pt.seq = r->all;
	pt.x = sl_tx(row->ts > r->t0 ? row->ts - r->t0 : 0, r->tmin, r->tmax, r->x0, r->w);
	pt.y = r->top + r->ph * (1 - ((double)row->lag / 1e6 - r->slo) / (r->shi - r->slo));
	c = lcol_of(&r->lc[i], (long)__builtin_floor(pt.x));
	if (c->first.seq == SIZE_MAX) {
		c->first = c->lo = c->hi = c->last = pt;
		return 0;
	}
	if (key_lt(&pt, &c->first))
		c->first = pt;
	if (key_lt(&c->last, &pt))
		c->last = pt;
	if (pt.y < c->lo.y || (pt.y == c->lo.y && key_lt(&pt, &c->lo)))
		c->lo = pt;
	if (pt.y > c->hi.y || (pt.y == c->hi.y && key_lt(&pt, &c->hi)))
		c->hi = pt;
	return 0;
}

static int cmp_lcol(const void *a, const void *b)
{
	const struct lcol *x = a, *y = b;
	return SL_CMP(x->col, y->col);
}

static int cmp_lpt(const void *a, const void *b)
{
	return key_lt(a, b) ? -1 : key_lt(b, a);
}

/* Task i's lag line: its columns in order, each column's kept points in
 * the order they came, through sl_thin as the rows themselves would go;
 * broken where the task slept (its points in different spans of sp, its
 * times on a runqueue): a sleeping task has no lag to draw (issue 25). */
void stc_lag_line(struct sl_thin *th, struct lcols *c, const struct span *sp, size_t nsp)
{
	size_t k, j, n, in = SIZE_MAX, at = 0;
	if (c->n > 1)
		qsort(c->v, c->n, sizeof(*c->v), cmp_lcol);
	for (k = 0; k < c->n; k++) {
		struct lpt p[4] = { c->v[k].first, c->v[k].lo, c->v[k].hi, c->v[k].last };
		qsort(p, 4, sizeof(*p), cmp_lpt);
		for (j = 0, n = 0; j < 4; j++)
			if (!n || cmp_lpt(&p[j], &p[n - 1]))
				p[n++] = p[j];
		for (j = 0; j < n; j++) {
			size_t now = stc_span_of(sp, nsp, at, p[j].ts);
			if (now != SIZE_MAX)
				at = now;
			if (in != SIZE_MAX && now != in) {
				cairo_t *cr = th->cr;
				sl_thin_end(th);
				sl_thin_start(th, cr);
			}
			in = now;
			sl_thin_to(th, p[j].x, p[j].y);
		}
	}
}

int stc_rot_row(void *ctx, const struct sl_rotation_row *rot)
{
	struct rows *r = ctx;
	int major = !strcmp(rot->kind, "major");
	r->nrot++;
	if (r->thin) {
		/* in time order (as rotations are written): only the ticks
		 * draw_panel draws, the first of its kind in its pixel column of
		 * its CPU's row in the window; out of order, all are read again */
		int rc = rot->cpu < 0 ? 0 : rot->cpu % 8;
		long x;
		if (rot->ts < r->last_ts) {
			r->unsorted = 1;
			return 1;
		}
		r->last_ts = rot->ts;
		if (rot->ts < r->t0 + r->tmin || rot->ts > r->t0 + r->tmax)
			return 0;
		x = (long)sl_tx(rot->ts - r->t0, r->tmin, r->tmax, r->x0, r->w);
		if (r->lastcol[rc][major] == x)
			return 0;
		r->lastcol[rc][major] = x;
	}
	SL_GROW(r->r, r->capr, r->nr + 1);
	r->r[r->nr].ts = rot->ts;
	r->r[r->nr].major = major;
	r->r[r->nr].cpu = rot->cpu;
	r->r[r->nr].seq = r->nr;
	r->nr++;
	return 0;
}

/* steps by task then time, rotations by time; rows of equal keys in the
 * order the run wrote them */
static int cmp_step(const void *a, const void *b)
{
	const struct step *x = a, *y = b;
	if (x->utid != y->utid)
		return SL_CMP(x->utid, y->utid);
	return x->ts != y->ts ? SL_CMP(x->ts, y->ts) : SL_CMP(x->seq, y->seq);
}

int stc_cmp_rot(const void *a, const void *b)
{
	const struct rot *x = a, *y = b;
	return x->ts != y->ts ? SL_CMP(x->ts, y->ts) : SL_CMP(x->seq, y->seq);
}

/* qsort unless already in order (rotations are written in time order) */
void stc_sort_if_needed(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	size_t i;
	for (i = 1; i < n && cmp((char *)v + (i - 1) * size, (char *)v + i * size) <= 0; i++)
		;
	if (i < n)
		qsort(v, n, size, cmp);
}

/* One task's steps (in the order written) by ts, then that order: a radix
 * sort of (ts since the smallest, index) keys, as cmp_step orders them. */
static void sort_bucket(struct step *v, size_t n)
{
	uint64_t lo = UINT64_MAX, hi = 0, *key;
	struct step *tmp;
	size_t i;
	int ibits = 0, tbits = 0;
	for (i = 1; i < n && cmp_step(&v[i - 1], &v[i]) <= 0; i++)
		;
	if (n < 2 || i == n)
		return;
	for (i = 0; i < n; i++) {
		lo = v[i].ts < lo ? v[i].ts : lo;
		hi = v[i].ts > hi ? v[i].ts : hi;
	}
	while (ibits < 64 && (uint64_t)(n - 1) >> ibits)
		ibits++;
	while (tbits < 64 && (hi - lo) >> tbits)
		tbits++;
	if (ibits + tbits > 63) {
		qsort(v, n, sizeof(*v), cmp_step);
		return;
	}
	key = xmalloc(n * sizeof(*key));
	for (i = 0; i < n; i++)
		key[i] = (v[i].ts - lo) << ibits | i;
	sl_sort_u64(key, n);
	tmp = xmalloc(n * sizeof(*tmp));
	for (i = 0; i < n; i++)
		tmp[i] = v[key[i] & (((uint64_t)1 << ibits) - 1)];
	memcpy(v, tmp, n * sizeof(*v));
	free(tmp);
	free(key);
}

/* The steps by cmp_step: a stable pass into one bucket per task (by utid),
 * then each bucket sorted unless already in order (a task's rows are
 * written in time order); the same order as a qsort of all of them. */
void stc_sort_steps(struct rows *r)
{
	int64_t u[64];
	size_t nu = 0, i, j, *cnt, *at;
	struct step *out;
	for (i = 0; i < r->n; i++) {
		for (j = 0; j < nu && u[j] != r->v[i].utid; j++)
			;
		if (j == nu) {
			if (nu == SL_ARRAY_SIZE(u)) {
				stc_sort_if_needed(r->v, r->n, sizeof(*r->v), cmp_step);
				return;
			}
			u[nu++] = r->v[i].utid;
		}
	}
	/* the tasks by utid (insertion: a few) */
	for (i = 1; i < nu; i++)
		for (j = i; j > 0 && u[j - 1] > u[j]; j--) {
			int64_t t = u[j];
			u[j] = u[j - 1];
			u[j - 1] = t;
		}
	cnt = xcalloc(nu + 1, sizeof(*cnt));
	at = xcalloc(nu + 1, sizeof(*at));
	for (i = 0; i < r->n; i++) {
		for (j = 0; u[j] != r->v[i].utid; j++)
			;
		cnt[j + 1]++;
	}
	for (j = 0; j < nu; j++)
		cnt[j + 1] += cnt[j];
	memcpy(at, cnt, (nu + 1) * sizeof(*at));
	out = xmalloc((r->n ? r->n : 1) * sizeof(*out));
	for (i = 0; i < r->n; i++) {
		for (j = 0; u[j] != r->v[i].utid; j++)
			;
		out[at[j]++] = r->v[i];
	}
	for (j = 0; j < nu; j++)
		sort_bucket(out + cnt[j], cnt[j + 1] - cnt[j]);
	free(r->v);
	r->v = out;
	r->cap = r->n;
	free(cnt);
	free(at);
}
/* The tasks' slices (pointers into r) and wakeup times, each counted first
 * then gathered (in the run's order). */
void stc_task_slices(const struct sl_run_data *r, const int64_t *utids, size_t nt,
		     struct trows *tr)
{
	size_t i, k;
	for (i = 0; i < nt; i++) {
		tr[i].ns = 0;
		tr[i].base = r->slices;
	}
	for (k = 0; k < r->nslices; k++)
		for (i = 0; i < nt; i++)
			if (r->slices[k].utid == utids[i])
				tr[i].ns++;
	for (i = 0; i < nt; i++) {
		tr[i].ix = xmalloc((tr[i].ns ? tr[i].ns : 1) * sizeof(*tr[i].ix));
		tr[i].ns = 0;
	}
	for (k = 0; k < r->nslices; k++)
		for (i = 0; i < nt; i++)
			if (r->slices[k].utid == utids[i])
				tr[i].ix[tr[i].ns++] = (uint32_t)k;
}

/* the tasks' wakeup times from a chunk of the run's wakeups, added */
void stc_task_wakeups(const struct sl_wakeup_row *v, size_t n, const int64_t *utids, size_t nt,
		      struct trows *tr)
{
	size_t i, k;
	for (k = 0; k < n; k++)
		for (i = 0; i < nt; i++)
			if (v[k].utid == utids[i]) {
				SL_GROW(tr[i].wk, tr[i].capw, tr[i].nw + 1);
				tr[i].wk[tr[i].nw++] = v[k].ts;
			}
}

/* (the task's slices are in time order, as the run's are; its wakeup
 * times sorted by stc_sorted) */
struct span *stc_awake_spans(const struct trows *tr, size_t *n)
{
	struct span *v;
	const uint64_t *wk = tr->wk;
	uint64_t start = 0, slept = 0;
	size_t ns = tr->ns, nw = tr->nw, k, w = 0, cap = 1;
	int in = 0;
	*n = 0;
	/* as many spans as sleeps, and one open at the end */
	for (k = 0; k < ns; k++) {
		const struct sl_slice_row *sl = TSL(tr, k);
		cap += sl->end_state == 'S' || sl->end_state == 'D' || sl->end_state == 'X';
	}
	v = xmalloc(cap * sizeof(*v));
	for (k = 0; k < ns; k++) {
		const struct sl_slice_row *sl = TSL(tr, k);
		if (!in) {
			/* the latest wakeup since the task slept, up to this slice */
			start = sl->ts;
			for (; w < nw && wk[w] <= sl->ts; w++)
				if (wk[w] >= slept)
					start = wk[w];
			in = 1;
		}
		if (sl->end_state == 'S' || sl->end_state == 'D' || sl->end_state == 'X') {
			v[(*n)++] = (struct span){ start, sl->ts + sl->dur };
			slept = sl->ts + sl->dur;
			in = 0;
		}
	}
	if (in)
		v[(*n)++] = (struct span){ start, UINT64_MAX };
	return v;
}

/* The span of sp (in time order) holding ts, looked for from index from
 * on; SIZE_MAX when none (between a sleep and its wakeup). */
size_t stc_span_of(const struct span *sp, size_t nsp, size_t from, uint64_t ts)
{
	size_t k;
	for (k = from; k < nsp && sp[k].b < ts; k++)
		;
	return k < nsp && sp[k].a <= ts ? k : SIZE_MAX;
}
/* A tick step of about a fifth of span (1, 2 or 5 x 10^k). */
static double nice_step(double span)
{
	double s = 1e-3;
	for (;;) {
		if (s >= span / 5)
			return s;
		if (2 * s >= span / 5)
			return 2 * s;
		if (5 * s >= span / 5)
			return 5 * s;
		s *= 10;
	}
}

/* The lag scale of a panel from the least and greatest lag (ms) of its
 * tasks in the window (0 and 0 when none): lo, hi and the tick step. */
void stc_lag_scale(double *lo, double *hi, double *st)
{
	if (*hi - *lo < 1e-3)
		*hi = *lo + 1;
	*st = nice_step(*hi - *lo);
	*lo = *st * __builtin_floor(*lo / *st);
	*hi = *st * __builtin_ceil(*hi / *st);
}
