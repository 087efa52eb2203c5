/* plots/timeline.c - per-CPU Gantt chart of a window of each run's slices,
 * one colour per task (the busiest in the window; the rest grey). */
#include "draw.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define W 1200
#define LEFT 70
#define RIGHT 30
#define ROW 26

struct busy { int64_t utid; uint64_t rt; };

static int cmp_busy(const void *a, const void *b)
{
	const struct busy *x = a, *y = b;
	if (x->rt != y->rt)
		return x->rt < y->rt ? 1 : -1;
	return x->utid < y->utid ? -1 : x->utid > y->utid;
}

static int color_of(const struct busy *top, size_t ntop, int64_t utid)
{
	size_t i;
	for (i = 0; i < ntop; i++)
		if (top[i].utid == utid)
			return (int)i;
	return -1;
}

static uint64_t overlap(const struct sl_slice_row *s, uint64_t a, uint64_t b)
{
	uint64_t lo = s->ts > a ? s->ts : a, hi = s->ts + s->dur < b ? s->ts + s->dur : b;
	return hi > lo ? hi - lo : 0;
}

int sl_plot_timeline(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		     struct sl_diag *d)
{
	struct sl_pruns p;
	struct sl_canvas c;
	struct busy *b = NULL;
	size_t i, k, nb = 0, ntop, legend_rows = 1;
	uint64_t tmin = o->from, tmax = o->to;
	double y, w = W - LEFT - RIGHT, lx;
	int rc = -1, h;
	char buf[200];
	if (sl_pruns_load(s, o, SL_LOAD_SLICES, &p, d))
		return -1;
	if (!tmax)
		for (i = 0; i < p.n; i++)
			if (p.v[i].end - p.v[i].t0 > tmax)
				tmax = p.v[i].end - p.v[i].t0;
	if (tmax <= tmin) {
		sl_fail(d, "empty time window (--from must be before --to and the runs' end)");
		goto out;
	}
	/* CPU time in the window per utid over all runs picks the colours */
	nb = p.v[0].r.nthreads;
	b = xcalloc(nb ? nb : 1, sizeof(*b));
	for (k = 0; k < nb; k++)
		b[k].utid = p.v[0].r.threads[k].utid;
	for (i = 0; i < p.n; i++)
		for (k = 0; k < p.v[i].r.nslices; k++) {
			const struct sl_slice_row *sl = &p.v[i].r.slices[k];
			const struct sl_thread_row *t = sl_prun_thread(&p.v[0].r, sl->utid);
			if (t)
				b[t - p.v[0].r.threads].rt +=
					overlap(sl, p.v[i].t0 + tmin, p.v[i].t0 + tmax);
		}
	qsort(b, nb, sizeof(*b), cmp_busy);
	ntop = o->top > 0 ? (size_t)o->top : SL_NCOLORS;
	if (ntop > SL_NCOLORS)
		ntop = SL_NCOLORS;
	while (ntop > 0 && (ntop > nb || !b[ntop - 1].rt))
		ntop--;
	legend_rows = (ntop + 1 + 3) / 4;
	h = 40 + (int)legend_rows * 18 + 10;
	for (i = 0; i < p.n; i++)
		h += 30 + p.v[i].r.run.cpus * ROW + 45;
	if (sl_canvas_open(&c, out, W, h, d))
		goto out;
	cairo_set_source_rgb(c.cr, 0, 0, 0);
	snprintf(buf, sizeof(buf), "%s: CPUs from %.3f to %.3f ms", p.trace_title, tmin / 1e6,
		 tmax / 1e6);
	sl_text(c.cr, LEFT, 22, 0, 15, buf);
	/* legend, four to a row */
	for (k = 0; k <= ntop; k++) {
		char comm[40];
		lx = LEFT + (double)(k % 4) * (w / 4);
		y = 44 + (double)(k / 4) * 18;
		if (k < ntop) {
			const struct sl_thread_row *t = sl_prun_thread(&p.v[0].r, b[k].utid);
			sl_label_clean(comm, sizeof(comm), t ? t->comm : "?");
			snprintf(buf, sizeof(buf), "%.24s %d (nice %d)", comm, t ? t->tid : 0,
				 t ? t->nice : 0);
		} else {
			snprintf(buf, sizeof(buf), "other tasks");
		}
		sl_color(c.cr, k < ntop ? (int)k : -1);
		cairo_rectangle(c.cr, lx, y - 10, 14, 11);
		cairo_fill(c.cr);
		cairo_set_source_rgb(c.cr, 0, 0, 0);
		sl_text(c.cr, lx + 19, y, 0, 11, buf);
	}
	y = 40 + (double)legend_rows * 18 + 10;
	for (i = 0; i < p.n; i++) {
		const struct sl_prun *pr = &p.v[i];
		int cpu;
		cairo_set_source_rgb(c.cr, 0, 0, 0);
		sl_text(c.cr, LEFT, y + 20, 0, 13, pr->title);
		y += 30;
		for (cpu = 0; cpu < pr->r.run.cpus; cpu++) {
			cairo_set_source_rgb(c.cr, 0.96, 0.96, 0.96);
			cairo_rectangle(c.cr, LEFT, y + cpu * ROW, w, ROW - 4);
			cairo_fill(c.cr);
			cairo_set_source_rgb(c.cr, 0, 0, 0);
			snprintf(buf, sizeof(buf), "CPU %d", cpu);
			sl_text(c.cr, LEFT - 6, y + cpu * ROW + ROW / 2.0 + 2, 2, 11, buf);
		}
		int cur_col = -2; /* the colour set last (set again only on a change) */
		/* crisp edges: a 1 ms slice on a 6 s axis stays its colour */
		cairo_set_antialias(c.cr, CAIRO_ANTIALIAS_NONE);
		for (k = 0; k < pr->r.nslices; k++) {
			const struct sl_slice_row *sl = &pr->r.slices[k];
			const struct sl_thread_row *t;
			double xa, xb, ry;
			int col;
			if (sl->cpu < 0 || sl->cpu >= pr->r.run.cpus ||
			    !overlap(sl, pr->t0 + tmin, pr->t0 + tmax))
				continue;
			xa = sl_tx(sl->ts - pr->t0, tmin, tmax, LEFT, w);
			xb = sl_tx(sl->ts + sl->dur - pr->t0, tmin, tmax, LEFT, w);
			ry = y + sl->cpu * ROW;
			col = color_of(b, ntop, sl->utid);
			if (col != cur_col) {
				sl_color(c.cr, col);
				cur_col = col;
			}
			cairo_rectangle(c.cr, xa, ry, xb - xa < 1 ? 1 : xb - xa, ROW - 4);
			cairo_fill(c.cr);
			if (xb - xa <= 50 || !(t = sl_prun_thread(&pr->r, sl->utid)))
				continue;
			{
				char comm[40];
				sl_label_clean(comm, sizeof(comm), t->comm);
				if (sl_text_w(c.cr, 10, comm) < xb - xa - 4) {
					cairo_set_antialias(c.cr, CAIRO_ANTIALIAS_DEFAULT);
					cairo_set_source_rgb(c.cr, 1, 1, 1);
					sl_text(c.cr, xa + 3, ry + ROW / 2.0 + 2, 0, 10, comm);
					cairo_set_antialias(c.cr, CAIRO_ANTIALIAS_NONE);
					cur_col = -2;
				}
			}
		}
		cairo_set_antialias(c.cr, CAIRO_ANTIALIAS_DEFAULT);
		y += pr->r.run.cpus * ROW;
		sl_time_axis(c.cr, LEFT, w, y, tmin, tmax, "time since the start of the trace (ms)");
		y += 45;
	}
	rc = sl_canvas_close(&c, d);
out:
	free(b);
	sl_pruns_release(&p);
	return rc;
}
