/* plots/staircase.h - the rows of a staircase chart (staircase.c): the
 * steps, lag columns and rotations read from a run, and each task's own
 * slices, wakeups and times awake; gathered and sorted in
 * staircase_rows.c. Private to the staircase chart. */
#ifndef SL_STAIRCASE_H
#define SL_STAIRCASE_H

#include "draw.h"

struct step { int64_t utid; uint64_t ts; int level, array; int64_t lag; size_t seq; };
struct rot { uint64_t ts; int major, cpu; size_t seq; };
/* A pixel column of a task's lag line: of the vlag rows that fall in it,
 * the first and the last (in time, then order written) and the highest and
 * lowest on the chart (the first of each): the points sl_thin keeps of
 * them, whatever the order they are read in. */
struct lpt { double x, y; uint64_t ts; size_t seq; };
struct lcol { long col; struct lpt first, lo, hi, last; };
struct lcols {
	struct lcol *v; size_t n, cap;
	long *slot; size_t nslot; /* open addressing: col -> index + 1 (0 empty) */
};
struct rows {
	struct step *v; size_t n, cap;
	struct rot *r; size_t nr, capr;
	int lag; /* the steps are vlag rows (ns in lag) */
	size_t all; /* rows read, of every task (v keeps those of want) */
	const int64_t *want; /* the tasks the chart may draw */
	size_t nwant;
	/* lag rows: not kept, gathered per pixel column of each task (lc[i]
	 * for want[i]) on the scale lo..hi (lag_scale) */
	struct lcols *lc;
	double lo, hi;    /* the least and greatest lag (ms) in the window, 0 included */
	double slo, shi;  /* the scale (lag_scale of lo, hi) */
	double top, ph, x0, w;
	uint64_t t0, tmin, tmax;
	/* rotations thinned as read (rot_row) */
	int thin, unsorted;
	size_t nrot; /* rotations read */
	uint64_t last_ts;
	long lastcol[8][2];
};

/* The times a task is on a runqueue (runnable or running) in a run: from
 * its wakeup (or its first slice) to the end of the slice in which it went
 * to sleep or exited; the level of a sleeping task is not drawn. */
struct span { uint64_t a, b; };
/* A task's own rows of a run, in the run's order (by ts): gathered once
 * per panel (task_rows) instead of a scan of the run per use. */
struct trows {
	const struct sl_slice_row *base; /* the run's slices */
	uint32_t *ix;                    /* the task's, as indices into base (in time order) */
	size_t ns;
	uint64_t *wk;
	size_t nw, capw;
};
#define TSL(tr, k) (&(tr)->base[(tr)->ix[k]])

/* the store's row callbacks (ctx: struct rows) */
int stc_step_row(void *ctx, const struct sl_stair_row *row);
int stc_vlag_row(void *ctx, const struct sl_vlag_row *row);
int stc_rot_row(void *ctx, const struct sl_rotation_row *rot);
/* rotations by time, then the order written */
int stc_cmp_rot(const void *a, const void *b);
/* qsort unless already in order */
void stc_sort_if_needed(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* steps by task, then time, then the order written */
void stc_sort_steps(struct rows *r);
/* the tasks' slices and (added chunk by chunk) wakeup times */
void stc_task_slices(const struct sl_run_data *r, const int64_t *utids, size_t nt,
		     struct trows *tr);
void stc_task_wakeups(const struct sl_wakeup_row *v, size_t n, const int64_t *utids, size_t nt,
		      struct trows *tr);
/* a task's times on a runqueue (*n of them) */
struct span *stc_awake_spans(const struct trows *tr, size_t *n);
/* the span of sp holding ts, from index from on; SIZE_MAX when none */
size_t stc_span_of(const struct span *sp, size_t nsp, size_t from, uint64_t ts);
/* a panel's lag scale from its least and greatest lag; st: the tick step */
void stc_lag_scale(double *lo, double *hi, double *st);
/* a task's lag line through th, broken where it slept */
void stc_lag_line(struct sl_thin *th, struct lcols *c, const struct span *sp, size_t nsp);

#endif
