/* plots/timeline.c - per-CPU Gantt chart of a window of each run's slices,
 * one colour per task (the busiest in the window; the rest grey), with
 * black marks where a task changed CPU. */
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

/* The most crowded pixel columns that any CPU row of any run has when
 * [a, a + len) (times since the trace's start) spans the axis. */
static size_t crowded(const struct sl_pruns *p, uint64_t a, uint64_t len)
{
	size_t i, k, most = 0;
	for (i = 0; i < p->n; i++) {
		const struct sl_prun *pr = &p->v[i];
		int ncpu = pr->r.run.cpus > 0 ? pr->r.run.cpus : 1, cpu;
		unsigned char *n = xcalloc((size_t)ncpu * AXIS_PX, 1);
		size_t *cnt = xcalloc((size_t)ncpu, sizeof(*cnt));
		for (k = 0; k < pr->r.nslices; k++) {
			const struct sl_slice_row *sl = &pr->r.slices[k];
			uint64_t t = sl->ts - pr->t0;
			unsigned char *px;
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
		free(n);
		free(cnt);
	}
	return most;
}

/* Without --from/--to: each run on its own axis, from the first slice of
 * any run to its own end; but when that would crowd a CPU row (above), one
 * readable window for every run instead: from the first slice, the longest
 * 1-2-5 length (at least 1 ms) that keeps every row readable. Returns the
 * window's length, or 0 when the runs are drawn whole. */
static uint64_t readable_window(const struct sl_pruns *p, uint64_t a, uint64_t span)
{
	uint64_t len, best = SL_NS_PER_MS;
	size_t i;
	static const unsigned mult[] = { 1, 2, 5 };
	if (span <= a || crowded(p, a, span - a) <= MAX_CROWDED)
		return 0;
	for (len = SL_NS_PER_MS; len < span - a; len *= 10)
		for (i = 0; i < SL_ARRAY_SIZE(mult); i++)
			if (len * mult[i] < span - a && crowded(p, a, len * mult[i]) <= MAX_CROWDED)
				best = len * mult[i];
	return best;
}

/* Where a task changed CPU: a black line at the start of its first slice on
 * the new CPU, from the middle of the row of the CPU it left to a dot in
 * the middle of the new one (the slices are in time order). */
static void migration_marks(cairo_t *cr, const struct sl_prun *pr, uint64_t tmin, uint64_t tmax,
			    double y, double w, FILE *keep)
{
	size_t k, nt = pr->r.nthreads;
	int *last = xmalloc((nt ? nt : 1) * sizeof(*last));
	for (k = 0; k < nt; k++)
		last[k] = -1;
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 1);
	for (k = 0; k < pr->r.nslices; k++) {
		const struct sl_slice_row *sl = &pr->r.slices[k];
		const struct sl_thread_row *t = sl_prun_thread(&pr->r, sl->utid);
		size_t ti;
		int from;
		double x, ya, yb;
		if (!t || sl->cpu < 0 || sl->cpu >= pr->r.run.cpus)
			continue;
		ti = (size_t)(t - pr->r.threads);
		from = last[ti];
		last[ti] = sl->cpu;
		if (from < 0 || from == sl->cpu || sl->ts < pr->t0 + tmin || sl->ts > pr->t0 + tmax)
			continue;
		x = sl_tx(sl->ts - pr->t0, tmin, tmax, LEFT, w) + 0.5;
		ya = y + from * ROW + (ROW - 4) / 2.0;
		yb = y + sl->cpu * ROW + (ROW - 4) / 2.0;
		cairo_move_to(cr, x, ya);
		cairo_line_to(cr, x, yb);
		cairo_stroke(cr);
		cairo_arc(cr, x, yb, 2.5, 0, 6.2831853);
		cairo_fill(cr);
		if (keep)
			fprintf(keep, "mark\t%" PRId64 "\tmigrate\t%" PRIu64 "\t%d\t%" PRId64 "\n",
				pr->r.run.id, sl->ts - pr->t0, sl->cpu, sl->utid);
	}
	free(last);
}

int sl_plot_timeline(struct sl_store *s, const struct sl_plot_opts *o, const char *out,
		     struct sl_diag *d)
{
	struct sl_pruns p;
	struct sl_canvas c;
	size_t i, k, ntop, legend_rows = 1;
	uint64_t tmin = o->from, tmax = o->to, first = UINT64_MAX, win = 0, span = 0;
	double y, w = W - LEFT - RIGHT, lx;
	int rc = -1, h;
	char buf[400];
	FILE *keep = NULL;
	if (sl_pruns_load(s, o, SL_LOAD_ALL, &p, d))
		return -1;
	for (i = 0; i < p.n; i++)
		if (p.v[i].end - p.v[i].t0 > span)
			span = p.v[i].end - p.v[i].t0;
	if (!o->from && !o->to) {
		/* slices are in the order the run wrote them: the first start is
		 * their minimum */
		for (i = 0; i < p.n; i++)
			for (k = 0; k < p.v[i].r.nslices; k++)
				if (p.v[i].r.slices[k].ts - p.v[i].t0 < first)
					first = p.v[i].r.slices[k].ts - p.v[i].t0;
		tmin = first == UINT64_MAX ? 0 : first;
		win = readable_window(&p, tmin, span);
		tmax = win ? tmin + win : span;
	} else if (!o->to) {
		tmax = span;
	}
	if (tmax <= tmin) {
		sl_fail(d, "empty time window (--from must be before --to and the runs' end)");
		goto out;
	}
	if (o->keep) {
		char kp[1100];
		snprintf(kp, sizeof(kp), "%s.timeline.dat", out);
		if (!(keep = fopen(kp, "w"))) {
			sl_fail(d, "%s: cannot write", kp);
			goto out;
		}
		fputs("# window RUN FROM TO | color UTID INDEX | mark RUN wake|preempt TS CPU UTID"
		      " (ns since the trace's start)\n", keep);
		for (k = 0; k < p.nfeatured; k++)
			fprintf(keep, "color\t%" PRId64 "\t%zu\n", p.featured[k], k);
	}
	ntop = p.nfeatured;
	legend_rows = (ntop + 1 + 3) / 4;
	h = 40 + (int)legend_rows * 18 + 10;
	for (i = 0; i < p.n; i++)
		h += 30 + p.v[i].r.run.cpus * ROW + 45;
	if (sl_canvas_open(&c, out, W, h, d))
		goto out;
	cairo_set_source_rgb(c.cr, 0, 0, 0);
	if (win) {
		snprintf(buf, sizeof(buf), "%s: CPUs from %.3f to %.3f ms of %.3f ms (a readable "
			 "window; --from/--to for another)", p.trace_title, tmin / 1e6, tmax / 1e6,
			 span / 1e6);
		if (sl_text_w(c.cr, 15, buf) > W - LEFT - 10)
			snprintf(buf, sizeof(buf), "%s: %.3f to %.3f ms of %.3f ms", p.trace_title,
				 tmin / 1e6, tmax / 1e6, span / 1e6);
	}
	else if (o->from || o->to)
		snprintf(buf, sizeof(buf), "%s: CPUs from %.3f to %.3f ms", p.trace_title, tmin / 1e6,
			 tmax / 1e6);
	else
		snprintf(buf, sizeof(buf), "%s: CPUs, each run whole on its own time axis",
			 p.trace_title);
	sl_text(c.cr, LEFT, 22, 0, 15, buf);
	/* legend, four to a row; marks last */
	for (k = 0; k <= ntop; k++) {
		char comm[40];
		lx = LEFT + (double)(k % 4) * (w / 4);
		y = 44 + (double)(k / 4) * 18;
		if (k < ntop) {
			const struct sl_thread_row *t = sl_prun_thread(&p.v[0].r, p.featured[k]);
			sl_label_clean(comm, sizeof(comm), t ? t->comm : "?");
			snprintf(buf, sizeof(buf), "%.24s %d (nice %d)", comm, t ? t->tid : 0,
				 t ? t->nice : 0);
		} else {
			snprintf(buf, sizeof(buf),
				 "other tasks;  v = wakeup,  red | = preempted,  black |-o = moved to CPU");
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
		/* each run on its own axis: drawn whole, it ends where it ends */
		uint64_t rmax = !win && !o->to && pr->end - pr->t0 > tmin ? pr->end - pr->t0 : tmax;
		int cpu;
		cairo_set_source_rgb(c.cr, 0, 0, 0);
		sl_text(c.cr, LEFT, y + 20, 0, 13, pr->title);
		y += 30;
		if (keep)
			fprintf(keep, "window\t%" PRId64 "\t%" PRIu64 "\t%" PRIu64 "\n", pr->r.run.id, tmin,
				rmax);
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
			    !overlap(sl, pr->t0 + tmin, pr->t0 + rmax))
				continue;
			xa = sl_tx(sl->ts - pr->t0, tmin, rmax, LEFT, w);
			xb = sl_tx(sl->ts + sl->dur - pr->t0, tmin, rmax, LEFT, w);
			ry = y + sl->cpu * ROW;
			col = sl_pruns_color(&p, sl->utid);
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
		/* preemptions: a red bar at the end of each slice that ended runnable */
		cairo_set_source_rgb(c.cr, 0.8, 0.05, 0.05);
		cairo_set_line_width(c.cr, 1.5);
		for (k = 0; k < pr->r.nslices; k++) {
			const struct sl_slice_row *sl = &pr->r.slices[k];
			uint64_t e = sl->ts + sl->dur - pr->t0;
			double x;
			if (sl->end_state != 'R' || sl->cpu < 0 || sl->cpu >= pr->r.run.cpus || e < tmin ||
			    e > rmax)
				continue;
			x = sl_tx(e, tmin, rmax, LEFT, w);
			cairo_move_to(c.cr, x, y + sl->cpu * ROW + ROW - 12);
			cairo_line_to(c.cr, x, y + sl->cpu * ROW + ROW - 4);
			cairo_stroke(c.cr);
			if (keep)
				fprintf(keep, "mark\t%" PRId64 "\tpreempt\t%" PRIu64 "\t%d\t%" PRId64 "\n",
					pr->r.run.id, e, sl->cpu, sl->utid);
		}
		/* wakeups: a small triangle over the CPU the task was woken on, in
		 * the task's colour */
		for (k = 0; k < pr->r.nwakeups; k++) {
			const struct sl_wakeup_row *wk = &pr->r.wakeups[k];
			uint64_t t = wk->ts - pr->t0;
			double x, ry;
			if (wk->ts < pr->t0 || wk->cpu < 0 || wk->cpu >= pr->r.run.cpus || t < tmin ||
			    t > rmax)
				continue;
			x = sl_tx(t, tmin, rmax, LEFT, w);
			ry = y + wk->cpu * ROW;
			sl_color(c.cr, sl_pruns_color(&p, wk->utid));
			cairo_move_to(c.cr, x - 3, ry - 4);
			cairo_line_to(c.cr, x + 3, ry - 4);
			cairo_line_to(c.cr, x, ry);
			cairo_close_path(c.cr);
			cairo_fill(c.cr);
			if (keep)
				fprintf(keep, "mark\t%" PRId64 "\twake\t%" PRIu64 "\t%d\t%" PRId64 "\n",
					pr->r.run.id, t, wk->cpu, wk->utid);
		}
		migration_marks(c.cr, pr, tmin, rmax, y, w, keep);
		y += pr->r.run.cpus * ROW;
		sl_time_axis(c.cr, LEFT, w, y, tmin, rmax, "time since the start of the trace (ms)");
		y += 45;
	}
	rc = sl_canvas_close(&c, d);
out:
	if (keep && fclose(keep) && !rc)
		rc = sl_fail(d, "%s.timeline.dat: write error", out);
	sl_pruns_release(&p);
	return rc;
}
