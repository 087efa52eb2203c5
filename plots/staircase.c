/* plots/staircase.c - each chosen task's dynamic level over time, one panel
 * per run, from the staircase table: RSDL's descent through the levels and
 * its rotations (ticks along the top), O(1)'s sleep_avg estimator moving a
 * task's priority. A run without staircase rows but with vlag rows (cfs)
 * gets CFS's counterpart: each task's vruntime - min_vruntime over time.
 * Under each panel a lane per task shows when it ran, with a black mark
 * (and the CPU number) where it changed CPU; rotation ticks are drawn in a
 * row per CPU. */
#include "staircase.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>


#define MAXT 8
#define SL_STAIR_LEVELS 40 /* levels 0..39 = prio 100..139 */
#define W 1200
#define LEFT 70
#define RIGHT 30

/* Whether run pr has staircase (or vlag) rows of utid (the pre-pass's). */
static int run_has(const struct sl_pruns *p, const struct sl_prun *pr, int64_t utid)
{
	const struct sl_thread_row *t = sl_run_thread(&p->v[0].r, utid);
	return t && pr->has_rows && pr->has_rows[t - p->v[0].r.threads];
}

/* Pick the tasks: --task TID, else the featured tasks of the runs (the
 * busiest and the most often put to sleep, alternately: the CPU-bound tasks
 * walk down the stairs, the interactive ones are the point of the design;
 * sl_pruns_featured) that have rows in some run. */
static size_t pick_tasks(const struct sl_pruns *p, const struct sl_plot_opts *o, int64_t *utids,
			 size_t want)
{
	size_t k, i, n = 0;
	if (o->task_tid) {
		const struct sl_run_data *r = &p->v[0].r;
		for (k = 0; k < r->nthreads && n < want; k++)
			if (r->threads[k].tid == o->task_tid)
				utids[n++] = r->threads[k].utid;
		return n;
	}
	for (k = 0; k < p->nfeatured && n < want; k++)
		for (i = 0; i < p->n; i++)
			if (run_has(p, &p->v[i], p->featured[k])) {
				utids[n++] = p->featured[k];
				break;
			}
	return n;
}

/* Height of the level area: short when the run has no rows of the tasks
 * drawn (shown). */
static double area_h(int shown)
{
	return shown ? 200 : 40;
}

/* The panel's height: title, level area, lanes, axis. */
static double panel_h(int shown, size_t nt)
{
	return 28 + area_h(shown) + 8 + 9.0 * (double)(nt ? nt : 1) + 60;
}

/* End of the task's last slice in the run (0 if it never ran). */
static uint64_t last_end(const struct trows *tr)
{
	uint64_t e = 0;
	size_t k;
	for (k = 0; k < tr->ns; k++)
		if (TSL(tr, k)->ts + TSL(tr, k)->dur > e)
			e = TSL(tr, k)->ts + TSL(tr, k)->dur;
	return e;
}


/* CFS: each task's vruntime - min_vruntime (ms) at its vlag rows, joined by
 * lines (vruntime grows while the task runs, min_vruntime while any does);
 * the zero line is min_vruntime: above it a task is ahead (waits), below
 * it behind (runs first). */
static void draw_lag(cairo_t *cr, const struct rows *rw, const int *col, size_t nt, double x0,
		     double top, double w, double ph, const struct trows *tr)
{
	double lo = rw->lo, hi = rw->hi, st, v;
	size_t i;
	char buf[64];
	stc_lag_scale(&lo, &hi, &st);
#define VY(l) (top + ph * (1 - ((l) - lo) / (hi - lo)))
	cairo_set_line_width(cr, 1);
	for (v = lo; v <= hi + st / 2; v += st) {
		int zero = v > -st / 2 && v < st / 2;
		cairo_set_source_rgb(cr, zero ? 0.45 : 0.85, zero ? 0.45 : 0.85, zero ? 0.45 : 0.85);
		cairo_move_to(cr, x0, VY(v) + 0.5);
		cairo_line_to(cr, x0 + w, VY(v) + 0.5);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		snprintf(buf, sizeof(buf), "%g", zero ? 0.0 : v);
		sl_text(cr, x0 - 6, VY(v) + 4, 2, 11, buf);
	}
	cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
	sl_text(cr, x0 + w - 4, VY(0) - 3, 2, 10, "min_vruntime");
	cairo_save(cr);
	cairo_translate(cr, 16, top + ph / 2);
	cairo_rotate(cr, -1.5707963);
	sl_text(cr, 0, 0, 1, 11, "vruntime - min_vruntime (ms)");
	cairo_restore(cr);
	cairo_save(cr);
	cairo_rectangle(cr, x0, top, w, ph);
	cairo_clip(cr);
	cairo_set_line_width(cr, 1.5);
	for (i = 0; i < nt; i++) {
		struct sl_thin th;
		sl_color(cr, col[i]);
		size_t nsp;
		struct span *sp = stc_awake_spans(&tr[i], &nsp);
		sl_thin_start(&th, cr);
		stc_lag_line(&th, &rw->lc[i], sp, nsp);
		sl_thin_end(&th);
		free(sp);
		cairo_stroke(cr);
	}
	cairo_restore(cr);
#undef VY
}

/* A task's level line, thinned to the pixel grid: a segment of a pixel or
 * more is drawn as it is (dashed in the expired array), with its step to
 * the next level at its end (y2); shorter ones (a task that wakes and
 * sleeps thousands of times a second) are gathered per pixel column: their
 * steps as one vertical stroke over the levels they span, their level
 * lines as one stroke as long as they add up to, at the level of the
 * longest. The same picture to the eye (a dash does not show on a segment
 * shorter than a pixel either). */
struct level_col {
	cairo_t *cr;
	int open, steps;
	long col;
	double xf, xl, len, ylong, longest, ylo, yhi;
};

static void level_flush(struct level_col *c)
{
	if (!c->open)
		return;
	if (c->len > 0) {
		cairo_move_to(c->cr, c->xf, c->ylong);
		cairo_line_to(c->cr, c->xf + c->len, c->ylong);
	}
	if (c->steps) {
		double xm = c->xf + c->len < c->xl ? c->xl : c->xf + c->len;
		cairo_move_to(c->cr, xm, c->ylo);
		cairo_line_to(c->cr, xm, c->yhi);
	}
	cairo_stroke(c->cr);
	c->open = 0;
}

static void level_seg(struct level_col *c, double xa, double xb, double y, double y2, int dashed)
{
	long col = (long)xa;
	if (xb - xa >= 1) {
		level_flush(c);
		if (dashed) {
			double dash[] = { 4, 3 };
			cairo_set_dash(c->cr, dash, 2, 0);
		}
		cairo_move_to(c->cr, xa, y);
		cairo_line_to(c->cr, xb, y);
		if (y2 != y)
			cairo_line_to(c->cr, xb, y2);
		cairo_stroke(c->cr);
		cairo_set_dash(c->cr, NULL, 0, 0);
		return;
	}
	if (c->open && col != c->col)
		level_flush(c);
	if (!c->open) {
		c->open = 1;
		c->steps = 0;
		c->col = col;
		c->xf = xa;
		c->len = c->longest = 0;
		c->ylong = y;
	}
	c->len += xb - xa;
	if (xb - xa > c->longest) {
		c->longest = xb - xa;
		c->ylong = y;
	}
	c->xl = xb;
	if (y2 != y) {
		double lo = y < y2 ? y : y2, hi = y < y2 ? y2 : y;
		if (!c->steps || lo < c->ylo)
			c->ylo = lo;
		if (!c->steps || hi > c->yhi)
			c->yhi = hi;
		c->steps = 1;
	}
}

/* One run's panel being drawn: where, the window, its tasks. */
struct panel {
	cairo_t *cr;
	const struct sl_prun *pr;
	const int64_t *utids;
	const int *col;
	size_t nt;
	struct trows *tr;
	double x0, w, top, ph;
	uint64_t t0, tmin, tmax;
	int lmin, lmax; /* the level axis (lmax < lmin: none) */
	FILE *keep;
};

/* level axis: lower level = better priority, drawn higher */
static double level_y(const struct panel *g, int l)
{
	return g->top + g->ph * ((double)(l - g->lmin) / (double)(g->lmax - g->lmin));
}

/* The level axis: a grid line and a label every 5 levels. */
static void level_axis(const struct panel *g)
{
	cairo_t *cr = g->cr;
	char buf[16];
	int lv;
	cairo_set_line_width(cr, 1);
	for (lv = g->lmin; lv <= g->lmax; lv++) {
		if (lv % 5 && lv != g->lmax)
			continue;
		cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
		cairo_move_to(cr, g->x0, level_y(g, lv) + 0.5);
		cairo_line_to(cr, g->x0 + g->w, level_y(g, lv) + 0.5);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		snprintf(buf, sizeof(buf), "%d", lv);
		sl_text(cr, g->x0 - 6, level_y(g, lv) + 4, 2, 11, buf);
	}
	if (g->ph >= 100) {
		cairo_save(cr);
		cairo_translate(cr, 16, g->top + g->ph / 2);
		cairo_rotate(cr, -1.5707963);
		sl_text(cr, 0, 0, 1, 11, "level (prio - 100; up = better)");
		cairo_restore(cr);
	}
}

/* Rotations along the top edge, a row of ticks per CPU (CPU 0 on top, up
 * to 8 rows), each row labelled with its CPU. */
static void rotation_ticks(const struct panel *g, const struct rows *rw)
{
	cairo_t *cr = g->cr;
	int ncpu = g->pr->r.run.cpus > 0 ? g->pr->r.run.cpus : 1, c;
	double rh = ncpu > 1 ? (ncpu > 8 ? 32.0 / 8 : 32.0 / ncpu) : 10;
	long lastcol[8][2];
	char buf[16];
	size_t k;
	if (ncpu > 1 && rw->nrot)
		for (c = 0; c < ncpu && c < 8; c++) {
			cairo_set_source_rgb(cr, 0.4, 0.4, 0.4);
			snprintf(buf, sizeof(buf), "cpu %d", c);
			sl_text(cr, g->x0 + g->w + 2, g->top + c * rh + rh * 0.8, 0, 7, buf);
		}
	for (c = 0; c < 8; c++)
		lastcol[c][0] = lastcol[c][1] = -1;
	for (k = 0; k < rw->nr; k++) {
		const struct rot *r = &rw->r[k];
		double x, ry;
		int rc = r->cpu < 0 ? 0 : r->cpu % 8;
		if (r->ts < g->t0 + g->tmin || r->ts > g->t0 + g->tmax)
			continue;
		x = sl_tx(r->ts - g->t0, g->tmin, g->tmax, g->x0, g->w);
		/* thinning: a tick of its kind is in this pixel column of the
		 * row already (rotations are in time order) */
		if (lastcol[rc][r->major] == (long)x)
			continue;
		lastcol[rc][r->major] = (long)x;
		ry = g->top + (ncpu > 1 ? rc * rh : 0);
		if (r->major)
			cairo_set_source_rgb(cr, 0.75, 0.1, 0.1);
		else
			cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
		cairo_move_to(cr, x, ry);
		cairo_line_to(cr, x, ry + (r->major ? rh : rh / 2));
		cairo_stroke(cr);
	}
}

/* The first of the spans sp (in time order, not overlapping) ending after
 * ts. */
static size_t first_span_after(const struct span *sp, size_t nsp, uint64_t ts)
{
	size_t lo = 0, hi = nsp;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (sp[mid].b > ts)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Task i's steps: level l from ts to the task's next row (or the run's
 * end), where the task is awake; dashed while in the expired array. keep
 * (may be NULL) gets one line per level segment drawn: run, utid, level,
 * array, from, to (ns since the trace's start). */
static void task_steps(const struct panel *g, const struct rows *rw, size_t i)
{
	const struct step *prev = NULL;
	uint64_t lend = last_end(&g->tr[i]), t0 = g->t0;
	size_t nsp, j = 0, k;
	struct span *sp = stc_awake_spans(&g->tr[i], &nsp);
	struct level_col col_acc = { g->cr, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	sl_color(g->cr, g->col[i]);
	cairo_set_line_width(g->cr, 2);
	for (k = 0; k <= rw->n; k++) {
		const struct step *s = k < rw->n ? &rw->v[k] : NULL;
		uint64_t until;
		if (s && s->utid != g->utids[i])
			continue;
		/* the last level holds while the task still runs */
		until = s ? s->ts : lend;
		/* start at the first span ending after prev, stop at the first
		 * starting at until (those around draw nothing) */
		if (prev)
			j = first_span_after(sp, nsp, prev->ts);
		for (; prev && j < nsp && sp[j].a < until; j++) {
			/* the part of [prev->ts, until) in an awake span, in the window */
			uint64_t a = prev->ts > sp[j].a ? prev->ts : sp[j].a;
			uint64_t b = until < sp[j].b ? until : sp[j].b;
			double xa, xb;
			if (a < t0 + g->tmin)
				a = t0 + g->tmin;
			if (b > t0 + g->tmax)
				b = t0 + g->tmax;
			if (b <= a)
				continue;
			xa = sl_tx(a - t0, g->tmin, g->tmax, g->x0, g->w);
			xb = sl_tx(b - t0, g->tmin, g->tmax, g->x0, g->w);
			/* the step to the next level, where the task is awake */
			level_seg(&col_acc, xa, xb, level_y(g, prev->level),
				  s && b == until ? level_y(g, s->level) : level_y(g, prev->level),
				  prev->array);
			if (g->keep)
				fprintf(g->keep, "%" PRId64 "\t%" PRId64 "\t%d\t%d\t%" PRIu64 "\t%" PRIu64 "\n",
					g->pr->r.run.id, g->utids[i], prev->level, prev->array, a - t0,
					b - t0);
		}
		if (s)
			prev = s;
	}
	level_flush(&col_acc);
	free(sp);
}

/* Lanes under the levels: when each task ran. */
static void run_lanes(const struct panel *g, double lanes_y, double lane)
{
	size_t i, k;
	for (i = 0; i < g->nt; i++) {
		double y = lanes_y + i * lane;
		struct sl_bars bars;
		cairo_set_source_rgb(g->cr, 0.93, 0.93, 0.93);
		cairo_rectangle(g->cr, g->x0, y, g->w, lane - 2);
		cairo_fill(g->cr);
		sl_color(g->cr, g->col[i]);
		sl_bars_start(&bars, g->cr, y, lane - 2);
		for (k = 0; k < g->tr[i].ns; k++) {
			const struct sl_slice_row *sl = TSL(&g->tr[i], k);
			if (sl->ts + sl->dur < g->t0 + g->tmin || sl->ts > g->t0 + g->tmax)
				continue;
			sl_bars_add(&bars, sl_tx(sl->ts - g->t0, g->tmin, g->tmax, g->x0, g->w),
				    sl_tx(sl->ts + sl->dur - g->t0, g->tmin, g->tmax, g->x0, g->w));
		}
		sl_bars_end(&bars);
	}
}

/* Migration marks: a black notch on a lane where the task's slice is on
 * another CPU than its previous one, with the new CPU's number. */
static void lane_migrations(const struct panel *g, double lanes_y, double lane)
{
	char buf[16];
	size_t i, k;
	for (i = 0; i < g->nt; i++) {
		double y = lanes_y + i * lane;
		int lastc = -1, drawn_cpu = -1;
		long drawn_col = -1;
		cairo_set_source_rgb(g->cr, 0, 0, 0);
		for (k = 0; k < g->tr[i].ns; k++) {
			const struct sl_slice_row *sl = TSL(&g->tr[i], k);
			double xa;
			int from = lastc;
			lastc = sl->cpu;
			if (from < 0 || from == sl->cpu || sl->ts < g->t0 + g->tmin ||
			    sl->ts > g->t0 + g->tmax)
				continue;
			xa = sl_tx(sl->ts - g->t0, g->tmin, g->tmax, g->x0, g->w);
			/* thinning: the same mark in this pixel column already */
			if ((long)xa == drawn_col && sl->cpu == drawn_cpu)
				continue;
			drawn_col = (long)xa;
			drawn_cpu = sl->cpu;
			cairo_rectangle(g->cr, xa - 0.5, y - 1, 1.5, lane);
			cairo_fill(g->cr);
			snprintf(buf, sizeof(buf), "%d", sl->cpu);
			sl_text(g->cr, xa + 2, y + lane - 3, 0, 6, buf);
		}
	}
}

/* Draw one run's panel at y0 (see task_steps for keep). */
static void draw_panel(cairo_t *cr, const struct sl_prun *pr, const struct rows *rw,
		       const int64_t *utids, const int *col, size_t nt, double y0, uint64_t tmin, uint64_t tmax,
		       FILE *keep, struct trows *tr, int shown)
{
	struct panel g = { cr, pr, utids, col, nt, tr, LEFT, W - LEFT - RIGHT, y0 + 28, area_h(shown),
			   pr->t0, tmin, tmax, 0, SL_STAIR_LEVELS - 1, keep };
	double lane = 9, lanes_y = g.top + g.ph + 8;
	char buf[160];
	size_t i;
	cairo_set_source_rgb(cr, 0, 0, 0);
	sl_text(cr, g.x0, y0 + 18, 0, 13, pr->title);
	cairo_set_source_rgb(cr, 0.97, 0.97, 0.97);
	cairo_rectangle(cr, g.x0, g.top, g.w, g.ph);
	cairo_fill(cr);
	if (rw->lag && g.ph >= 100) {
		draw_lag(cr, rw, col, nt, g.x0, g.top, g.w, g.ph, tr);
	} else {
		if (!shown) {
			cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
			snprintf(buf, sizeof(buf), "no staircase rows for %s in this run%s",
				 nt == 1 ? "this task" : "these tasks",
				 !strcmp(pr->r.run.scheduler, "recorded") ?
					 " (a recorded run has no model levels)" : "");
			sl_text(cr, g.x0 + g.w / 2, g.top + g.ph / 2 + 4, 1, 12, buf);
		}
		/* one level axis for every panel: the 40 levels the models have
		 * (0 best .. 39 worst; o1's dynamic prio - 100 lands in the same
		 * range); none on a short panel */
		if (g.ph < 100)
			g.lmax = g.lmin - 1;
		level_axis(&g);
		rotation_ticks(&g, rw);
		cairo_save(cr);
		cairo_rectangle(cr, g.x0, g.top, g.w, g.ph);
		cairo_clip(cr);
		for (i = 0; i < nt; i++)
			task_steps(&g, rw, i);
		cairo_restore(cr);
	}
	run_lanes(&g, lanes_y, lane);
	lane_migrations(&g, lanes_y, lane);
	cairo_set_source_rgb(cr, 0, 0, 0);
	sl_text(cr, g.x0 - 6, lanes_y + lane * (nt ? nt : 1) / 2.0 + 3, 2, 10, "ran");
	sl_time_axis(cr, g.x0, g.w, lanes_y + lane * (nt ? nt : 1) + 2, tmin, tmax,
		     "time since the start of the trace (ms)");
}

/* The staircase chart in one pass: the tasks, the panels' heights and
 * the lag scales come from the pre-pass (which tasks have rows in each
 * run); each run's panel is drawn as its slices come, with its wakeups'
 * times (of the tasks drawn) kept from the part before and its staircase,
 * rotation or vlag rows read then (vlag rows gathered per pixel column). */
struct stc {
	struct sl_canvas c;
	int canvas;
	FILE *keep;
	int64_t utids[MAXT];
	int col[MAXT];
	size_t nt;
	uint64_t tmin, tmax;
	double y;
	struct trows tr[MAXT];
};

static int run_shown(const struct sl_pruns *p, const struct sl_prun *pr, const int64_t *utids,
		     size_t nt)
{
	size_t i;
	for (i = 0; i < nt; i++)
		if (run_has(p, pr, utids[i]))
			return 1;
	return 0;
}


/* The legend: the tasks, wrapped to rows that fit the width (issue 25: it
 * ran off the right edge), then the marks on a row of their own. Draws
 * when draw, else only measures. Returns where the panels begin. */
static double legend(cairo_t *cr, const struct sl_pruns *p, const int64_t *utids, const int *col,
		     size_t nt, int draw)
{
	double xx = LEFT, y = 46;
	size_t i;
	char buf[200];
	for (i = 0; i < nt; i++) {
		const struct sl_thread_row *t = sl_run_thread(&p->v[0].r, utids[i]);
		char comm[40];
		double w;
		sl_label_clean(comm, sizeof(comm), t ? t->comm : "?");
		snprintf(buf, sizeof(buf), "%s (tid %d, nice %d)", comm, t ? t->tid : 0, t ? t->nice : 0);
		w = 22 + sl_text_w(cr, 12, buf);
		if (i && xx + w > W - 10) {
			xx = LEFT;
			y += 17;
		}
		if (draw) {
			sl_color(cr, col[i]);
			cairo_rectangle(cr, xx, y - 9, 18, 4);
			cairo_fill(cr);
			cairo_set_source_rgb(cr, 0, 0, 0);
			sl_text(cr, xx + 22, y - 3, 0, 12, buf);
		}
		xx += w + 8;
	}
	if (!nt && draw)
		sl_text(cr, xx, y - 3, 0, 12, "no task has staircase rows in these runs");
	y += 16;
	if (draw)
		sl_text(cr, LEFT, y - 3, 0, 11,
			"dashed: expired array   ticks on top: rotations, a row per CPU (red = major)   "
			"black on a lane: moved to CPU n   cfs: vruntime lag");
	return y + 14;
}

static int stc_begin(struct sl_pass_client *ch, struct sl_pruns *pp, struct sl_diag *d)
{
	struct stc *x = ch->ctx;
	const struct sl_plot_opts *o = &sl_chart_of(ch)->o;
	const struct sl_pruns *p = pp;
	int64_t *utids = x->utids;
	int *col = x->col;
	size_t i, nt, want = o->top > 0 ? (size_t)(o->top < MAXT ? o->top : MAXT) : 5;
	uint64_t tmin = o->from, tmax = o->to;
	double y;
	if (!o->to)
		for (i = 0; i < p->n; i++)
			if (p->v[i].end - p->v[i].t0 > tmax)
				tmax = p->v[i].end - p->v[i].t0;
	if (tmax <= tmin)
		return sl_fail(d, "empty time window (--from must be before --to and the runs' end)");
	x->tmin = tmin;
	x->tmax = tmax;
	nt = x->nt = pick_tasks(p, o, utids, want);
	/* each task in its colour of every chart of these runs; a task that is
	 * not featured (--task) takes the first colour no shown task has */
	for (i = 0; i < nt; i++)
		col[i] = sl_pruns_color(p, utids[i]);
	for (i = 0; i < nt; i++) {
		int free_col = 0;
		size_t j = 0;
		if (col[i] >= 0)
			continue;
		while (j < nt)
			if (col[j] == free_col) {
				free_col++;
				j = 0;
			} else {
				j++;
			}
		col[i] = free_col;
	}
	if (o->task_tid && !nt)
		return sl_fail(d, "no task with tid %d in trace %" PRId64, o->task_tid, p->trace.id);
	{ /* the legend's height, measured on a scratch surface */
		cairo_surface_t *ms = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
		cairo_t *mc = cairo_create(ms);
		cairo_select_font_face(mc, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
		y = legend(mc, p, utids, col, nt, 0);
		cairo_destroy(mc);
		cairo_surface_destroy(ms);
	}
	for (i = 0; i < p->n; i++)
		y += panel_h(run_shown(p, &p->v[i], utids, nt), nt);
	if (o->keep) {
		/* --keep: what was drawn, as data (OUT.steps.dat) */
		char kp[1100];
		snprintf(kp, sizeof(kp), "%s.steps.dat", sl_chart_of(ch)->out);
		x->keep = fopen(kp, "w");
		if (!x->keep)
			return sl_fail(d, "%s: cannot write", kp);
		fprintf(x->keep, "# levels %d..%d\n# tasks", 0, SL_STAIR_LEVELS - 1);
		for (i = 0; i < nt; i++)
			fprintf(x->keep, " %" PRId64, utids[i]);
		fputs("\n# colors", x->keep);
		for (i = 0; i < nt; i++)
			fprintf(x->keep, " %d", col[i]);
		fputs("\n# run\tutid\tlevel\tarray\tfrom_ns\tto_ns\n", x->keep);
	}
	if (sl_canvas_open(&x->c, sl_chart_of(ch)->out, W, (int)y, d))
		return -1;
	x->canvas = 1;
	cairo_set_source_rgb(x->c.cr, 0, 0, 0);
	sl_text(x->c.cr, LEFT, 22, 0, 15, p->trace_title);
	x->y = legend(x->c.cr, p, utids, col, nt, 1);
	return 0;
}

static void free_trows(struct stc *x)
{
	size_t i;
	for (i = 0; i < MAXT; i++) {
		free(x->tr[i].ix);
		free(x->tr[i].wk);
		memset(&x->tr[i], 0, sizeof(x->tr[i]));
	}
}

static int stc_wakeups(struct sl_pass_client *ch, struct sl_pruns *p, size_t i,
		       const struct sl_wakeup_row *v, size_t n, struct sl_diag *d)
{
	struct stc *x = ch->ctx;
	stc_task_wakeups(v, n, x->utids, x->nt, x->tr);
	return 0;
}

/* the tasks' wakeup times in order, once the run's wakeups are all read */
static int stc_sorted(struct sl_pass_client *ch, struct sl_pruns *p, size_t i, const uint64_t *dl,
		      size_t ndl, struct sl_diag *d)
{
	struct stc *x = ch->ctx;
	size_t k;
	for (k = 0; k < x->nt; k++)
		sl_sort_u64(x->tr[k].wk, x->tr[k].nw);
	return 0;
}

static int stc_slices(struct sl_pass_client *ch, struct sl_pruns *pp, size_t i, struct sl_diag *d)
{
	struct stc *x = ch->ctx;
	const struct sl_pruns *p = pp;
	const struct sl_prun *pr = &p->v[i];
	struct rows rw;
	struct lcols lc[MAXT];
	int64_t id = pr->r.run.id;
	int shown = run_shown(p, pr, x->utids, x->nt), rc = -1;
	size_t k;
	memset(&rw, 0, sizeof(rw));
	memset(lc, 0, sizeof(lc));
	rw.want = x->utids;
	rw.nwant = x->nt;
	rw.lc = lc;
	rw.x0 = LEFT;
	rw.w = W - LEFT - RIGHT;
	rw.t0 = pr->t0;
	rw.tmin = x->tmin;
	rw.tmax = x->tmax;
	rw.thin = 1;
	for (k = 0; k < 8; k++)
		rw.lastcol[k][0] = rw.lastcol[k][1] = -1;
	if (pr->stair_rows && sl_store_stairs(ch->s, id, stc_step_row, &rw, d))
		goto out;
	if (sl_store_rotations(ch->s, id, stc_rot_row, &rw, d)) {
		if (!rw.unsorted)
			goto out;
		rw.thin = 0;
		rw.nr = rw.nrot = 0;
		if (sl_store_rotations(ch->s, id, stc_rot_row, &rw, d))
			goto out;
	}
	if (!pr->stair_rows && pr->lag) {
		/* cfs: its vruntime lag instead, on the scale of its rows in the
		 * window (draw_lag) */
		double ph = area_h(shown);
		for (k = 0; k < x->nt; k++) {
			const struct sl_thread_row *t = sl_run_thread(&p->v[0].r, x->utids[k]);
			size_t ti = t ? (size_t)(t - p->v[0].r.threads) : 0;
			double v;
			if (!t || !pr->lag_in[ti])
				continue;
			v = (double)pr->lag_lo[ti] / 1e6;
			if (v < rw.lo)
				rw.lo = v;
			v = (double)pr->lag_hi[ti] / 1e6;
			if (v > rw.hi)
				rw.hi = v;
		}
		rw.lag = 1;
		if (ph >= 100) {
			double st;
			rw.slo = rw.lo;
			rw.shi = rw.hi;
			stc_lag_scale(&rw.slo, &rw.shi, &st);
			rw.top = x->y + 28;
			rw.ph = ph;
			if (sl_store_vlags(ch->s, id, stc_vlag_row, &rw, d))
				goto out;
		}
	}
	stc_sort_steps(&rw);
	stc_sort_if_needed(rw.r, rw.nr, sizeof(*rw.r), stc_cmp_rot);
	stc_task_slices(&pr->r, x->utids, x->nt, x->tr);
	draw_panel(x->c.cr, pr, &rw, x->utids, x->col, x->nt, x->y, x->tmin, x->tmax, x->keep, x->tr,
		   shown);
	x->y += panel_h(shown, x->nt);
	rc = 0;
out:
	free_trows(x);
	for (k = 0; k < MAXT; k++) {
		free(lc[k].v);
		free(lc[k].slot);
	}
	free(rw.v);
	free(rw.r);
	return rc;
}

static int stc_end(struct sl_pass_client *ch, struct sl_pruns *p, struct sl_diag *d)
{
	struct stc *x = ch->ctx;
	int rc = sl_canvas_close(&x->c, d);
	x->canvas = 0;
	if (x->keep && fclose(x->keep) && !rc)
		rc = sl_fail(d, "%s.steps.dat: write error", sl_chart_of(ch)->out);
	x->keep = NULL;
	return rc;
}

static void stc_release(struct sl_pass_client *ch)
{
	struct stc *x = ch->ctx;
	if (x->canvas)
		sl_canvas_abort(&x->c);
	if (x->keep)
		fclose(x->keep);
	free_trows(x);
	free(x);
	ch->ctx = NULL;
}

void sl_chart_staircase(struct sl_chart *ch)
{
	struct sl_pass_client *c = &ch->pc;
	c->ctx = xcalloc(1, sizeof(struct stc));
	c->need = SL_NEED_WAKEUPS | SL_NEED_SLICES | SL_NEED_PRE | SL_NEED_STAIRS | SL_SLICES_ASIDE;
	c->begin = stc_begin;
	c->wakeup_rows = stc_wakeups;
	c->wakeups = stc_sorted;
	c->slices = stc_slices;
	c->end = stc_end;
	c->release = stc_release;
}

int sl_plot_staircase(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		      struct sl_diag *d)
{
	struct sl_chart c;
	memset(&c, 0, sizeof(c));
	c.o = *o;
	c.out = out;
	sl_chart_staircase(&c);
	return sl_chart_draw(s, &c, d);
}
