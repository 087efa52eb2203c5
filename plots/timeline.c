/* plots/timeline.c - per-CPU Gantt chart of a window of each run's slices,
 * one colour per task (the busiest in the window; the rest grey), with
 * black marks where a task changed CPU.
 *
 * Drawn in one pass over the runs (sl_charts_run, analyze/pass.h): each run's slices give
 * its crowding at every window the chart may choose and are kept only as
 * far as a window this run allows reaches (with the CPU each kept slice's
 * task had before it, for the migration marks); its wakeups are kept from
 * the window's start, up to WK_KEEP of them, and read again at the end only
 * when the window reaches past those. The window is chosen and the runs
 * drawn at the end. */
#include "draw.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 1200
#define LEFT 70
#define RIGHT 30
#define ROW 26

/* A readable window: on no CPU row of any run are more than a tenth of
 * the axis's pixel columns crowded (two or more slices start in one
 * column: stripes there, not a schedule). */
#define AXIS_PX 1100
#define MAX_CROWDED (AXIS_PX / 10)

static uint64_t overlap(const struct sl_slice_row *s, uint64_t a, uint64_t b)
{
	uint64_t lo = s->ts > a ? s->ts : a, hi = s->ts + s->dur < b ? s->ts + s->dur : b;
	return hi > lo ? hi - lo : 0;
}

/* Wakeups kept per run from the window's start (more are read again). */
#define WK_KEEP 16384

/* What is kept of a run. */
struct tl_run {
	struct sl_slice_row *sl; /* its slices that the window may show, in order */
	int *from;               /* for each, the CPU its task ran on before (-1: none) */
	size_t nsl;
	struct sl_wakeup_row *wk; /* its first wakeups from the window's start */
	size_t nwk;
	uint64_t wk_lim;          /* every wakeup at (ts - t0) < wk_lim is in wk */
	size_t capwk;
	int started;
};

struct tl {
	struct tl_run *v;
	size_t n;
	uint64_t a, span;  /* the window's start and the runs' longest span, since t0 */
	uint64_t *cand;    /* the lengths readable_window tries: [0] the whole span - a */
	size_t *crowd;     /* the most crowded columns of any run so far, per length */
	size_t ncand;
};

/* The most crowded pixel columns that a CPU row of run pr has when [a, a +
 * len) (times since the trace's start) spans the axis: pixel columns where
 * two or more slices start (its slices in order). */
static size_t crowded_run(const struct sl_prun *pr, uint64_t a, uint64_t len, unsigned char *n,
			  size_t *cnt)
{
	size_t k, most = 0;
	int ncpu = pr->r.run.cpus > 0 ? pr->r.run.cpus : 1, cpu;
	memset(n, 0, (size_t)ncpu * AXIS_PX);
	memset(cnt, 0, (size_t)ncpu * sizeof(*cnt));
	for (k = 0; k < pr->r.nslices; k++) {
		const struct sl_slice_row *sl = &pr->r.slices[k];
		uint64_t t = sl->ts - pr->t0;
		unsigned char *px;
		if (sl->ts >= pr->t0 && t >= a + len)
			break; /* the rest start later */
		if (sl->cpu < 0 || sl->cpu >= ncpu || sl->ts < pr->t0 || t < a || t >= a + len)
			continue;
		px = &n[(size_t)sl->cpu * AXIS_PX +
			(size_t)((double)(t - a) / (double)len * AXIS_PX) % AXIS_PX];
		if (*px < 2 && ++*px == 2)
			cnt[sl->cpu]++;
	}
	for (cpu = 0; cpu < ncpu; cpu++)
		if (cnt[cpu] > most)
			most = cnt[cpu];
	return most;
}

/* Without --from/--to: each run on its own axis, from the first slice of
 * any run to its own end; but when that would crowd a CPU row (above), one
 * readable window for every run instead: from the first slice, the longest
 * 1-2-5 length (at least 1 ms) that keeps every row readable. The lengths
 * tried: the whole span (cand[0]), then each 1-2-5 length below it. */
static void candidates(struct tl *x)
{
	uint64_t len;
	size_t i;
	static const unsigned mult[] = { 1, 2, 5 };
	x->ncand = 0;
	if (x->span <= x->a)
		return;
	x->cand = xmalloc(64 * sizeof(*x->cand));
	x->cand[x->ncand++] = x->span - x->a;
	for (len = SL_NS_PER_MS; len < x->span - x->a; len *= 10)
		for (i = 0; i < SL_ARRAY_SIZE(mult); i++)
			if (len * mult[i] < x->span - x->a && x->ncand < 64)
				x->cand[x->ncand++] = len * mult[i];
	x->crowd = xcalloc(x->ncand, sizeof(*x->crowd));
}

/* The window's length, or 0 when the runs are drawn whole. */
static uint64_t readable_window(const struct tl *x)
{
	uint64_t best = SL_NS_PER_MS;
	size_t i;
	if (!x->ncand || x->crowd[0] <= MAX_CROWDED)
		return 0;
	for (i = 1; i < x->ncand; i++)
		if (x->crowd[i] <= MAX_CROWDED)
			best = x->cand[i];
	return best;
}

static int tl_begin(struct sl_pass_client *c, struct sl_pruns *p, struct sl_diag *d)
{
	struct tl *x = c->ctx;
	const struct sl_plot_opts *o = &sl_chart_of(c)->o;
	size_t i;
	x->n = p->n;
	x->v = xcalloc(p->n, sizeof(*x->v));
	for (i = 0; i < p->n; i++)
		if (p->v[i].end - p->v[i].t0 > x->span)
			x->span = p->v[i].end - p->v[i].t0;
	x->a = o->from;
	if (!o->from && !o->to) {
		uint64_t first = UINT64_MAX;
		for (i = 0; i < p->n; i++)
			if (p->v[i].first_rel < first)
				first = p->v[i].first_rel;
		x->a = first == UINT64_MAX ? 0 : first;
		candidates(x);
	}
	return 0;
}

/* Keep a run's first WK_KEEP wakeups (in sl_store_load_run's order) from
 * the window's start: when more are kept, the later ones are dropped and
 * wk_lim lowered to the first dropped. */
static void wk_cut(struct tl_run *tr, uint64_t t0)
{
	size_t k;
	if (tr->nwk > 1)
		qsort(tr->wk, tr->nwk, sizeof(*tr->wk), sl_wakeup_row_cmp);
	if (tr->nwk <= WK_KEEP)
		return;
	tr->wk_lim = tr->wk[WK_KEEP].ts - t0;
	for (k = WK_KEEP; k > 0 && tr->wk[k - 1].ts - t0 >= tr->wk_lim; k--)
		;
	tr->nwk = k;
}

/* the run's wakeups from the window's start (a chunk at a time, in the
 * order written) */
static int tl_wakeups(struct sl_pass_client *c, struct sl_pruns *p, size_t i,
		      const struct sl_wakeup_row *v, size_t n, struct sl_diag *d)
{
	struct tl *x = c->ctx;
	struct tl_run *tr = &x->v[i];
	const struct sl_prun *pr = &p->v[i];
	size_t k;
	if (!tr->started) {
		tr->started = 1;
		tr->wk_lim = sl_chart_of(c)->o.to && sl_chart_of(c)->o.to < UINT64_MAX ? sl_chart_of(c)->o.to + 1 : UINT64_MAX;
	}
	for (k = 0; k < n; k++) {
		const struct sl_wakeup_row *wk = &v[k];
		if (wk->ts < pr->t0 || wk->ts - pr->t0 < x->a || wk->ts - pr->t0 >= tr->wk_lim)
			continue;
		SL_GROW(tr->wk, tr->capwk, tr->nwk + 1);
		tr->wk[tr->nwk++] = *wk;
		if (tr->nwk >= 4 * WK_KEEP)
			wk_cut(tr, pr->t0);
	}
	return 0;
}

/* the run's crowding at each length tried; its slices as far as a window
 * it allows reaches */
static int tl_slices(struct sl_pass_client *c, struct sl_pruns *p, size_t i, struct sl_diag *d)
{
	struct tl *x = c->ctx;
	const struct sl_plot_opts *o = &sl_chart_of(c)->o;
	struct tl_run *tr = &x->v[i];
	const struct sl_prun *pr = &p->v[i];
	uint64_t keep_to = UINT64_MAX, lo, hi;
	size_t k, cap = 0, nt = pr->r.nthreads;
	int *last;
	if (x->ncand) {
		int ncpu = pr->r.run.cpus > 0 ? pr->r.run.cpus : 1;
		unsigned char *n = xmalloc((size_t)ncpu * AXIS_PX);
		size_t *cnt = xmalloc((size_t)ncpu * sizeof(*cnt)), mine, j;
		uint64_t best = SL_NS_PER_MS;
		for (j = 0; j < x->ncand; j++) {
			mine = crowded_run(pr, x->a, x->cand[j], n, cnt);
			if (mine > x->crowd[j])
				x->crowd[j] = mine;
			if (j && mine <= MAX_CROWDED && x->cand[j] > best)
				best = x->cand[j];
			if (!j && mine > MAX_CROWDED)
				keep_to = 0; /* not whole: a window, at most best */
		}
		if (!keep_to)
			keep_to = x->a + best;
		free(n);
		free(cnt);
	} else if (o->to) {
		keep_to = o->to;
	}
	/* what a window [a, keep_to] can show: slices that reach a and start by
	 * keep_to, with the CPU their task ran on before (migration_marks) */
	lo = pr->t0 + x->a;
	hi = keep_to == UINT64_MAX || keep_to > UINT64_MAX - pr->t0 ? UINT64_MAX : pr->t0 + keep_to;
	last = xmalloc((nt ? nt : 1) * sizeof(*last));
	for (k = 0; k < nt; k++)
		last[k] = -1;
	for (k = 0; k < pr->r.nslices; k++) {
		const struct sl_slice_row *sl = &pr->r.slices[k];
		const struct sl_thread_row *t = sl_run_thread(&pr->r, sl->utid);
		int from = -1;
		if (sl->ts > hi)
			break;
		if (t && sl->cpu >= 0 && sl->cpu < pr->r.run.cpus) {
			from = last[t - pr->r.threads];
			last[t - pr->r.threads] = sl->cpu;
		}
		if (sl->ts + sl->dur < lo)
			continue;
		if (tr->nsl == cap) {
			SL_GROW(tr->sl, cap, tr->nsl + 1);
			tr->from = xrealloc(tr->from, cap * sizeof(*tr->from));
		}
		tr->from[tr->nsl] = from;
		tr->sl[tr->nsl++] = *sl;
	}
	free(last);
	/* the wakeups in order, the first WK_KEEP; past keep_to not needed */
	if (!tr->started)
		tr->wk_lim = UINT64_MAX; /* none */
	wk_cut(tr, pr->t0);
	if (keep_to < tr->wk_lim - 1) {
		for (k = 0; k < tr->nwk && tr->wk[k].ts - pr->t0 <= keep_to; k++)
			;
		tr->nwk = k;
		tr->wk_lim = keep_to + 1;
	}
	tr->wk = xrealloc(tr->wk, (tr->nwk ? tr->nwk : 1) * sizeof(*tr->wk));
	tr->capwk = tr->nwk ? tr->nwk : 1;
	return 0;
}

/* Where a task changed CPU: a black line at the start of its first slice on
 * the new CPU, from the middle of the row of the CPU it left to a dot in
 * the middle of the new one (the slices are in time order). */
static void migration_marks(cairo_t *cr, const struct sl_prun *pr, const int *fromv,
			    uint64_t tmin, uint64_t tmax, double y, double w, FILE *keep)
{
	size_t k;
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 1);
	for (k = 0; k < pr->r.nslices; k++) {
		const struct sl_slice_row *sl = &pr->r.slices[k];
		int from = fromv[k];
		double x, ya, yb;
		if (sl->cpu < 0 || sl->cpu >= pr->r.run.cpus || !sl_run_thread(&pr->r, sl->utid))
			continue;
		if (from < 0 || from == sl->cpu || sl->ts < pr->t0 + tmin || sl->ts > pr->t0 + tmax)
			continue;
		x = sl_tx(sl->ts - pr->t0, tmin, tmax, LEFT, w) + 0.5;
		ya = y + from * ROW + (ROW - 4) / 2.0;
		yb = y + sl->cpu * ROW + (ROW - 4) / 2.0;
		/* on many CPUs, lines across the chart would bury it (issue 25):
		 * a stub of a row towards the CPU it came from */
		if (pr->r.run.cpus > 8 && (ya - yb > ROW || yb - ya > ROW))
			ya = ya < yb ? yb - ROW : yb + ROW;
		cairo_move_to(cr, x, ya);
		cairo_line_to(cr, x, yb);
		cairo_stroke(cr);
		cairo_arc(cr, x, yb, 2.5, 0, 6.2831853);
		cairo_fill(cr);
		if (keep)
			fprintf(keep, "mark\t%" PRId64 "\tmigrate\t%" PRIu64 "\t%d\t%" PRId64 "\n",
				pr->r.run.id, sl->ts - pr->t0, sl->cpu, (int64_t)sl->utid);
	}
}

/* the wakeups of a run in [tmin, rmax] (a window past the kept ones) */
struct wk_get {
	const struct sl_prun *pr;
	uint64_t tmin, rmax;
	struct sl_wakeup_row *v;
	size_t n, cap;
};

static int wk_get_row(void *ctx, const struct sl_wakeup_row *w)
{
	struct wk_get *g = ctx;
	uint64_t t = w->ts - g->pr->t0;
	if (w->ts < g->pr->t0 || t < g->tmin || t > g->rmax)
		return 0;
	SL_GROW(g->v, g->cap, g->n + 1);
	g->v[g->n++] = *w;
	return 0;
}

/* The window drawn (from tmin to tmax; win: a readable window chosen,
 * else 0) and where the drawing is. */
struct tl_draw {
	cairo_t *cr;
	const struct sl_pruns *p;
	uint64_t tmin, tmax, win, span;
	double w, y;
	FILE *keep; /* --keep: the marks, else NULL */
};

/* The title line: the trace and the window. */
static void tl_title(const struct tl_draw *g, const struct sl_plot_opts *o)
{
	char buf[400];
	const char *tt = g->p->trace_title;
	if (g->win) {
		snprintf(buf, sizeof(buf), "%s: CPUs from %.3f to %.3f ms of %.3f ms (a readable "
			 "window; --from/--to for another)", tt, g->tmin / 1e6, g->tmax / 1e6,
			 g->span / 1e6);
		if (sl_text_w(g->cr, 15, buf) > W - LEFT - 10)
			snprintf(buf, sizeof(buf), "%s: %.3f to %.3f ms of %.3f ms", tt, g->tmin / 1e6,
				 g->tmax / 1e6, g->span / 1e6);
	} else if (o->from || o->to) {
		snprintf(buf, sizeof(buf), "%s: CPUs from %.3f to %.3f ms", tt, g->tmin / 1e6,
			 g->tmax / 1e6);
	} else {
		snprintf(buf, sizeof(buf), "%s: CPUs, each run whole on its own time axis", tt);
	}
	sl_text(g->cr, LEFT, 22, 0, 15, buf);
}

/* The legend, four to a row; the marks last. */
static void tl_legend(const struct tl_draw *g)
{
	const struct sl_pruns *p = g->p;
	size_t k, ntop = p->nfeatured;
	char buf[400];
	for (k = 0; k <= ntop; k++) {
		char comm[40];
		double lx = LEFT + (double)(k % 4) * (g->w / 4), y = 44 + (double)(k / 4) * 18;
		if (k < ntop) {
			const struct sl_thread_row *t = sl_run_thread(&p->v[0].r, p->featured[k]);
			sl_label_clean(comm, sizeof(comm), t ? t->comm : "?");
			snprintf(buf, sizeof(buf), "%.24s %d (nice %d)", comm, t ? t->tid : 0,
				 t ? t->nice : 0);
		} else {
			snprintf(buf, sizeof(buf),
				 "other tasks;  v = wakeup,  red | = preempted,  black |-o = moved to CPU");
		}
		sl_color(g->cr, k < ntop ? (int)k : -1);
		cairo_rectangle(g->cr, lx, y - 10, 14, 11);
		cairo_fill(g->cr);
		cairo_set_source_rgb(g->cr, 0, 0, 0);
		sl_text(g->cr, lx + 19, y, 0, 11, buf);
	}
}

/* The slices of run pr in the window, a bar per slice in its task's colour
 * (its name on it where it fits). */
static void tl_slice_bars(const struct tl_draw *g, const struct sl_prun *pr)
{
	cairo_t *cr = g->cr;
	int cur_col = -2; /* the colour set last (set again only on a change) */
	size_t k;
	/* crisp edges: a 1 ms slice on a 6 s axis stays its colour */
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
	for (k = 0; k < pr->r.nslices; k++) {
		const struct sl_slice_row *sl = &pr->r.slices[k];
		const struct sl_thread_row *t;
		char comm[40];
		double xa, xb, ry;
		int col;
		if (sl->cpu < 0 || sl->cpu >= pr->r.run.cpus ||
		    !overlap(sl, pr->t0 + g->tmin, pr->t0 + g->tmax))
			continue;
		xa = sl_tx(sl->ts - pr->t0, g->tmin, g->tmax, LEFT, g->w);
		xb = sl_tx(sl->ts + sl->dur - pr->t0, g->tmin, g->tmax, LEFT, g->w);
		ry = g->y + sl->cpu * ROW;
		col = sl_pruns_color(g->p, sl->utid);
		if (col != cur_col) {
			sl_color(cr, col);
			cur_col = col;
		}
		cairo_rectangle(cr, xa, ry, xb - xa < 1 ? 1 : xb - xa, ROW - 4);
		cairo_fill(cr);
		if (xb - xa <= 50 || !(t = sl_run_thread(&pr->r, sl->utid)))
			continue;
		sl_label_clean(comm, sizeof(comm), t->comm);
		if (sl_text_w(cr, 10, comm) < xb - xa - 4) {
			cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
			cairo_set_source_rgb(cr, 1, 1, 1);
			sl_text(cr, xa + 3, ry + ROW / 2.0 + 2, 0, 10, comm);
			cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
			cur_col = -2;
		}
	}
	cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
}

/* Preemptions: a red bar at the end of each slice that ended runnable. */
static void tl_preemptions(const struct tl_draw *g, const struct sl_prun *pr)
{
	cairo_t *cr = g->cr;
	size_t k;
	cairo_set_source_rgb(cr, 0.8, 0.05, 0.05);
	cairo_set_line_width(cr, 1.5);
	for (k = 0; k < pr->r.nslices; k++) {
		const struct sl_slice_row *sl = &pr->r.slices[k];
		uint64_t e = sl->ts + sl->dur - pr->t0;
		double xe;
		if (sl->end_state != 'R' || sl->cpu < 0 || sl->cpu >= pr->r.run.cpus || e < g->tmin ||
		    e > g->tmax)
			continue;
		xe = sl_tx(e, g->tmin, g->tmax, LEFT, g->w);
		cairo_move_to(cr, xe, g->y + sl->cpu * ROW + ROW - 12);
		cairo_line_to(cr, xe, g->y + sl->cpu * ROW + ROW - 4);
		cairo_stroke(cr);
		if (g->keep)
			fprintf(g->keep, "mark\t%" PRId64 "\tpreempt\t%" PRIu64 "\t%d\t%" PRId64 "\n",
				pr->r.run.id, e, sl->cpu, (int64_t)sl->utid);
	}
}

/* Wakeups: a small triangle over the CPU the task was woken on, in the
 * task's colour. */
static void tl_wakeup_marks(const struct tl_draw *g, const struct sl_prun *pr)
{
	cairo_t *cr = g->cr;
	size_t k;
	for (k = 0; k < pr->r.nwakeups; k++) {
		const struct sl_wakeup_row *wk = &pr->r.wakeups[k];
		uint64_t t = wk->ts - pr->t0;
		double xw, ry;
		if (wk->ts < pr->t0 || wk->cpu < 0 || wk->cpu >= pr->r.run.cpus || t < g->tmin ||
		    t > g->tmax)
			continue;
		xw = sl_tx(t, g->tmin, g->tmax, LEFT, g->w);
		ry = g->y + wk->cpu * ROW;
		sl_color(cr, sl_pruns_color(g->p, wk->utid));
		cairo_move_to(cr, xw - 3, ry - 4);
		cairo_line_to(cr, xw + 3, ry - 4);
		cairo_line_to(cr, xw, ry);
		cairo_close_path(cr);
		cairo_fill(cr);
		if (g->keep)
			fprintf(g->keep, "mark\t%" PRId64 "\twake\t%" PRIu64 "\t%d\t%" PRId64 "\n",
				pr->r.run.id, t, wk->cpu, wk->utid);
	}
}

/* Run i of the chart at g->y: its title, CPU rows, slices, marks and time
 * axis; g->y moves past it. One axis for every run (drawn whole: to the
 * longest run's end), so runs side by side compare at a glance (issue 25). */
static int tl_run_panel(struct sl_pass_client *ch, struct tl_draw *g, size_t i, struct sl_diag *d)
{
	struct tl *x = ch->ctx;
	/* the run as kept: its slices and wakeups in the window */
	struct sl_prun run = g->p->v[i];
	const struct sl_prun *pr = &run;
	struct tl_run *tr = &x->v[i];
	struct wk_get wg = { pr, 0, 0, NULL, 0, 0 };
	char buf[64];
	int cpu;

	run.r.slices = tr->sl;
	run.r.nslices = tr->nsl;
	run.r.wakeups = tr->wk;
	run.r.nwakeups = tr->nwk;
	if (g->tmax >= tr->wk_lim) {
		/* the window reaches past the kept wakeups: read them again */
		wg.tmin = g->tmin;
		wg.rmax = g->tmax;
		if (sl_store_each_wakeup(ch->s, pr->r.run.id, wk_get_row, &wg, d)) {
			free(wg.v);
			return -1;
		}
		if (wg.n > 1)
			qsort(wg.v, wg.n, sizeof(*wg.v), sl_wakeup_row_cmp);
		run.r.wakeups = wg.v;
		run.r.nwakeups = wg.n;
	}
	cairo_set_source_rgb(g->cr, 0, 0, 0);
	sl_text(g->cr, LEFT, g->y + 20, 0, 13, pr->title);
	g->y += 30;
	if (g->keep)
		fprintf(g->keep, "window\t%" PRId64 "\t%" PRIu64 "\t%" PRIu64 "\n", pr->r.run.id,
			g->tmin, g->tmax);
	for (cpu = 0; cpu < pr->r.run.cpus; cpu++) {
		cairo_set_source_rgb(g->cr, 0.96, 0.96, 0.96);
		cairo_rectangle(g->cr, LEFT, g->y + cpu * ROW, g->w, ROW - 4);
		cairo_fill(g->cr);
		cairo_set_source_rgb(g->cr, 0, 0, 0);
		snprintf(buf, sizeof(buf), "CPU %d", cpu);
		sl_text(g->cr, LEFT - 6, g->y + cpu * ROW + ROW / 2.0 + 2, 2, 11, buf);
	}
	tl_slice_bars(g, pr);
	tl_preemptions(g, pr);
	tl_wakeup_marks(g, pr);
	free(wg.v);
	migration_marks(g->cr, pr, tr->from, g->tmin, g->tmax, g->y, g->w, g->keep);
	g->y += pr->r.run.cpus * ROW;
	sl_time_axis(g->cr, LEFT, g->w, g->y, g->tmin, g->tmax,
		     "time since the start of the trace (ms)");
	g->y += 45;
	return 0;
}

/* --keep: the marks file, its header and the colours. */
static int tl_keep_open(struct sl_pass_client *ch, const struct sl_pruns *p, FILE **keep,
			struct sl_diag *d)
{
	char kp[1100];
	size_t k;
	snprintf(kp, sizeof(kp), "%s.timeline.dat", sl_chart_of(ch)->out);
	if (!(*keep = fopen(kp, "w")))
		return sl_fail(d, "%s: cannot write", kp);
	fputs("# window RUN FROM TO | color UTID INDEX | mark RUN wake|preempt TS CPU UTID"
	      " (ns since the trace's start)\n", *keep);
	for (k = 0; k < p->nfeatured; k++)
		fprintf(*keep, "color\t%" PRId64 "\t%zu\n", p->featured[k], k);
	return 0;
}

static int tl_end(struct sl_pass_client *ch, struct sl_pruns *pp, struct sl_diag *d)
{
	struct tl *x = ch->ctx;
	const struct sl_plot_opts *o = &sl_chart_of(ch)->o;
	struct tl_draw g = { NULL, pp, o->from, o->to, 0, x->span, W - LEFT - RIGHT, 0, NULL };
	struct sl_canvas c;
	size_t i, legend_rows = (pp->nfeatured + 1 + 3) / 4;
	int rc = -1, h = 40 + (int)legend_rows * 18 + 10;

	if (!o->from && !o->to) {
		g.tmin = x->a;
		g.win = readable_window(x);
		g.tmax = g.win ? g.tmin + g.win : g.span;
	} else if (!o->to) {
		g.tmax = g.span;
	}
	if (g.tmax <= g.tmin)
		return sl_fail(d, "empty time window (--from must be before --to and the runs' end)");
	if (o->keep && tl_keep_open(ch, pp, &g.keep, d))
		return -1;
	for (i = 0; i < pp->n; i++)
		h += 30 + pp->v[i].r.run.cpus * ROW + 45;
	if (sl_canvas_open(&c, sl_chart_of(ch)->out, W, h, d))
		goto out;
	g.cr = c.cr;
	cairo_set_source_rgb(c.cr, 0, 0, 0);
	tl_title(&g, o);
	tl_legend(&g);
	g.y = 40 + (double)legend_rows * 18 + 10;
	for (i = 0; i < pp->n; i++)
		if (tl_run_panel(ch, &g, i, d)) {
			sl_canvas_abort(&c);
			goto out;
		}
	rc = sl_canvas_close(&c, d);
out:
	if (g.keep && fclose(g.keep) && !rc)
		rc = sl_fail(d, "%s.timeline.dat: write error", sl_chart_of(ch)->out);
	return rc;
}

static void tl_release(struct sl_pass_client *c)
{
	struct tl *x = c->ctx;
	size_t i;
	for (i = 0; i < x->n; i++) {
		free(x->v[i].sl);
		free(x->v[i].from);
		free(x->v[i].wk);
	}
	free(x->v);
	free(x->cand);
	free(x->crowd);
	free(x);
	c->ctx = NULL;
}

void sl_chart_timeline(struct sl_chart *ch)
{
	struct sl_pass_client *c = &ch->pc;
	c->ctx = xcalloc(1, sizeof(struct tl));
	c->need = SL_NEED_WAKEUPS | SL_NEED_SLICES | SL_NEED_PRE;
	c->begin = tl_begin;
	c->wakeup_rows = tl_wakeups;
	c->slices = tl_slices;
	c->end = tl_end;
	c->release = tl_release;
}

int sl_plot_timeline(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		     struct sl_diag *d)
{
	struct sl_chart c;
	memset(&c, 0, sizeof(c));
	c.o = *o;
	c.out = out;
	sl_chart_timeline(&c);
	return sl_chart_draw(s, &c, d);
}
