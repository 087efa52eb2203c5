/* plots/draw.c - cairo canvas, text, palette and time axis. */
#include "draw.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* cairo's output stream: the temporary file, its first error kept */
static cairo_status_t canvas_write(void *ctx, const unsigned char *data, unsigned int n)
{
	struct sl_canvas *c = ctx;
	errno = 0;
	if (fwrite(data, 1, n, c->f) != n) {
		if (!c->err)
			c->err = errno ? errno : EIO;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

static void canvas_drop(struct sl_canvas *c)
{
	if (c->f)
		fclose(c->f);
	c->f = NULL;
	unlink(c->tmp);
}

int sl_canvas_open(struct sl_canvas *c, const char *out, int w, int h, struct sl_diag *d)
{
	int fd;
	memset(c, 0, sizeof(*c));
	if (sl_plot_fmt_of(out, &c->fmt, d))
		return -1;
	c->out = out;
	c->w = w;
	c->h = h;
	fd = sl_out_begin(out, c->tmp, sizeof(c->tmp), d);
	if (fd < 0)
		return -1;
	c->f = fdopen(fd, "wb");
	if (!c->f) {
		close(fd);
		unlink(c->tmp);
		return sl_fail(d, "%s: %s", out, strerror(errno));
	}
	switch (c->fmt) {
	case SL_PLOT_PNG:
		c->surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
		break;
	case SL_PLOT_SVG:
		c->surf = cairo_svg_surface_create_for_stream(canvas_write, c, w, h);
		break;
	case SL_PLOT_PDF:
		c->surf = cairo_pdf_surface_create_for_stream(canvas_write, c, w * 0.75, h * 0.75);
		break;
	}
	if (cairo_surface_status(c->surf) != CAIRO_STATUS_SUCCESS) {
		sl_fail(d, "%s: %s", out, cairo_status_to_string(cairo_surface_status(c->surf)));
		cairo_surface_destroy(c->surf);
		c->surf = NULL;
		canvas_drop(c);
		return -1;
	}
	c->cr = cairo_create(c->surf);
	if (c->fmt == SL_PLOT_PDF)
		cairo_scale(c->cr, 0.75, 0.75);
	cairo_set_source_rgb(c->cr, 1, 1, 1);
	cairo_paint(c->cr);
	cairo_select_font_face(c->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	return 0;
}

int sl_canvas_close(struct sl_canvas *c, struct sl_diag *d)
{
	cairo_status_t st = cairo_status(c->cr);
	const char *why;
	cairo_destroy(c->cr);
	if (st == CAIRO_STATUS_SUCCESS && c->fmt == SL_PLOT_PNG)
		st = cairo_surface_write_to_png_stream(c->surf, canvas_write, c);
	cairo_surface_finish(c->surf);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(c->surf);
	cairo_surface_destroy(c->surf);
	errno = 0;
	if (fflush(c->f) && !c->err)
		c->err = errno ? errno : EIO;
	if (fclose(c->f) && !c->err)
		c->err = errno ? errno : EIO;
	c->f = NULL;
	if (st != CAIRO_STATUS_SUCCESS || c->err) {
		why = sl_out_why(c->out, c->err);
		unlink(c->tmp);
		return sl_fail(d, "%s: %s", c->out, why ? why : cairo_status_to_string(st));
	}
	return sl_out_commit(c->tmp, c->out, d);
}

void sl_canvas_abort(struct sl_canvas *c)
{
	cairo_destroy(c->cr);
	cairo_surface_destroy(c->surf);
	c->cr = NULL;
	c->surf = NULL;
	canvas_drop(c);
}

void sl_text(cairo_t *cr, double x, double y, int align, double size, const char *s)
{
	char buf[256];
	cairo_text_extents_t e;
	sl_label_clean(buf, sizeof(buf), s);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, buf, &e);
	if (align == 1)
		x -= e.x_advance / 2;
	else if (align == 2)
		x -= e.x_advance;
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, buf);
}

double sl_text_w(cairo_t *cr, double size, const char *s)
{
	char buf[256];
	cairo_text_extents_t e;
	sl_label_clean(buf, sizeof(buf), s);
	cairo_set_font_size(cr, size);
	cairo_text_extents(cr, buf, &e);
	return e.x_advance;
}

/* Paul Tol's "muted" and "bright" sets: distinguishable, colour-blind safe */
static const unsigned colors[SL_NCOLORS] = {
	0x4477AA, 0xEE6677, 0x228833, 0xCCBB44, 0x66CCEE, 0xAA3377,
	0x332288, 0xDDCC77, 0x117733, 0x882255, 0x44AA99, 0x999933,
};

void sl_color(cairo_t *cr, int i)
{
	unsigned c = i < 0 ? 0xBBBBBB : colors[i % SL_NCOLORS];
	cairo_set_source_rgb(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0,
			     (c & 255) / 255.0);
}

double sl_tx(uint64_t t, uint64_t tmin, uint64_t tmax, double x0, double w)
{
	if (t <= tmin)
		return x0;
	if (t >= tmax)
		return x0 + w;
	return x0 + w * ((double)(t - tmin) / (double)(tmax - tmin));
}

void sl_time_axis(cairo_t *cr, double x0, double w, double y, uint64_t tmin, uint64_t tmax,
		  const char *label)
{
	double lo = tmin / 1e6, hi = tmax / 1e6, step = sl_nice_step(hi - lo, 10), v;
	char buf[48];
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, x0, y + 0.5);
	cairo_line_to(cr, x0 + w, y + 0.5);
	cairo_stroke(cr);
	for (v = ((long long)(lo / step)) * step; v <= hi + step * 1e-9; v += step) {
		double x;
		if (v < lo - step * 1e-9)
			continue;
		x = x0 + w * (v - lo) / (hi - lo);
		cairo_move_to(cr, x + 0.5, y);
		cairo_line_to(cr, x + 0.5, y + 5);
		cairo_stroke(cr);
		snprintf(buf, sizeof(buf), "%g", v);
		sl_text(cr, x, y + 17, 1, 11, buf);
	}
	sl_text(cr, x0 + w / 2, y + 34, 1, 12, label);
}

void sl_thin_start(struct sl_thin *t, cairo_t *cr)
{
	memset(t, 0, sizeof(*t));
	t->cr = cr;
}

/* draw the pending column's points (first, min and max in the order they
 * came, last), each once */
static void thin_flush(struct sl_thin *t)
{
	int order[4] = { 0, 1, 2, 3 }, i;
	double px = 0, py = 0;
	if (!t->open)
		return;
	if (t->smax < t->smin) {
		order[1] = 2;
		order[2] = 1;
	}
	for (i = 0; i < 4; i++) {
		double x = t->x[order[i]], y = t->y[order[i]];
		if (i && x == px && y == py)
			continue;
		if (t->started)
			cairo_line_to(t->cr, x, y);
		else
			cairo_move_to(t->cr, x, y);
		t->started = 1;
		px = x;
		py = y;
	}
	t->open = 0;
}

void sl_thin_to(struct sl_thin *t, double x, double y)
{
	long col = (long)__builtin_floor(x);
	if (t->open && col == t->col) {
		t->seq++;
		if (y < t->y[1])
			t->x[1] = x, t->y[1] = y, t->smin = t->seq;
		if (y > t->y[2])
			t->x[2] = x, t->y[2] = y, t->smax = t->seq;
		t->x[3] = x, t->y[3] = y;
		return;
	}
	thin_flush(t);
	t->open = 1;
	t->col = col;
	t->seq = t->smin = t->smax = 0;
	t->x[0] = t->x[1] = t->x[2] = t->x[3] = x;
	t->y[0] = t->y[1] = t->y[2] = t->y[3] = y;
}

void sl_thin_end(struct sl_thin *t)
{
	thin_flush(t);
}

void sl_bars_start(struct sl_bars *r, cairo_t *cr, double y, double h)
{
	memset(r, 0, sizeof(*r));
	r->cr = cr;
	r->y = y;
	r->h = h;
}

void sl_bars_add(struct sl_bars *r, double xa, double xb)
{
	if (xb - xa < 1)
		xb = xa + 1;
	if (r->open && xa >= r->a && xa <= r->b) {
		if (xb > r->b)
			r->b = xb;
		return;
	}
	sl_bars_end(r);
	r->a = xa;
	r->b = xb;
	r->open = 1;
}

void sl_bars_end(struct sl_bars *r)
{
	if (!r->open)
		return;
	cairo_rectangle(r->cr, r->a, r->y, r->b - r->a, r->h);
	cairo_fill(r->cr);
	r->open = 0;
}

/* Under LeakSanitizer: fontconfig (loaded by cairo's text) keeps its
 * configuration cache until exit by design; not our leak. Weak, so a
 * program with its own list (the fuzz targets) keeps it; LSAN_OPTIONS
 * suppressions (tests/lsan.supp) still apply on top. */
const char *__lsan_default_suppressions(void) __attribute__((weak));
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}
