/* plots/draw.h - cairo helpers for the drawn charts (staircase, timeline). */
#ifndef SL_DRAW_H
#define SL_DRAW_H

#include "plot_int.h"
#include <cairo.h>

struct sl_canvas {
	cairo_surface_t *surf;
	cairo_t *cr;
	enum sl_plot_fmt fmt;
	const char *out;
	int w, h;
	FILE *f;                 /* the file written: out's temporary name */
	char tmp[1100];          /* that name (renamed to out when whole) */
	int err;                 /* errno of a failed write */
};
/* Open a w x h canvas writing to out (format by extension), white. */
int sl_canvas_open(struct sl_canvas *c, const char *out, int w, int h, struct sl_diag *d);
/* Finish the file (PNG written here) and free; returns -1 on a cairo error. */
int sl_canvas_close(struct sl_canvas *c, struct sl_diag *d);
/* Free without writing: the chart failed (nothing is left at out). */
void sl_canvas_abort(struct sl_canvas *c);
/* Text at (x, y) baseline; align 0 left, 1 centre, 2 right. s is cleaned. */
void sl_text(cairo_t *cr, double x, double y, int align, double size, const char *s);
/* Width of text s at size. */
double sl_text_w(cairo_t *cr, double size, const char *s);
/* Colour i of the task palette (i < 0: grey for "other"). */
void sl_color(cairo_t *cr, int i);
#define SL_NCOLORS 12
/* Time axis under a plot area: ticks and labels in ms from tmin to tmax
 * (ns after t0) over x0..x0+w at y; label below. */
void sl_time_axis(cairo_t *cr, double x0, double w, double y, uint64_t tmin, uint64_t tmax,
		  const char *label);
/* x of time t (ns after t0) in the plot area. */
double sl_tx(uint64_t t, uint64_t tmin, uint64_t tmax, double x0, double w);

/* Thinning to the pixel grid (a chart of millions of rows on 1200 pixels):
 * what is drawn looks the same, with a few primitives per pixel column.
 *
 * sl_thin_line: a polyline through points in x order, keeping per pixel
 * column (floor(x)) its first, lowest, highest and last points in the
 * order they came; every point still moves the line, so the picture is the
 * same to the eye. Start with sl_thin_start, add points with sl_thin_to,
 * end with sl_thin_end (the caller strokes). */
struct sl_thin {
	cairo_t *cr;
	int started, open; /* a point drawn; a column pending */
	long col;
	double x[4], y[4]; /* first, min, max, last of the column */
	unsigned long seq, smin, smax; /* when min and max came, in the column */
};
void sl_thin_start(struct sl_thin *t, cairo_t *cr);
void sl_thin_to(struct sl_thin *t, double x, double y);
void sl_thin_end(struct sl_thin *t);

/* sl_bars: filled bars [xa, xb) on one row (y, h), each at least 1 pixel
 * wide, in x order: overlapping or touching bars are filled as one (a
 * lane of a task switching thousands of times a second). The caller sets
 * the colour. */
struct sl_bars {
	cairo_t *cr;
	double y, h, a, b;
	int open;
};
void sl_bars_start(struct sl_bars *r, cairo_t *cr, double y, double h);
void sl_bars_add(struct sl_bars *r, double xa, double xb);
void sl_bars_end(struct sl_bars *r);

#endif
