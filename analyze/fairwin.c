/* analyze/fairwin.c - see fairwin.h. */
#include "fairwin.h"
#include "../common/util.h"
#include "../replay/fair_weights.h"

#include <math.h>
#include <stdlib.h>

struct fw_ent {
	uint64_t win, run, rq; /* window index, runtime and on-runqueue time in it */
	size_t task;
};

struct sl_fairwin {
	size_t ntasks;
	struct fw_ent *e;
	size_t n, cap;
	size_t *last; /* per task: its latest entry + 1 (0: none), merged into while in one window */
};

struct sl_fairwin *sl_fairwin_new(size_t ntasks)
{
	struct sl_fairwin *f = xcalloc(1, sizeof(*f));
	f->ntasks = ntasks;
	f->last = xcalloc(ntasks ? ntasks : 1, sizeof(*f->last));
	return f;
}

void sl_fairwin_add(struct sl_fairwin *f, size_t k, uint64_t a, uint64_t b, int running)
{
	while (k < f->ntasks && a < b) {
		uint64_t w = a / SL_FAIRWIN_NS, end = (w + 1) * SL_FAIRWIN_NS;
		uint64_t d = (b < end ? b : end) - a;
		struct fw_ent *x = f->last[k] ? &f->e[f->last[k] - 1] : NULL;
		if (!x || x->win != w) {
			SL_GROW(f->e, f->cap, f->n + 1);
			x = &f->e[f->n++];
			x->win = w;
			x->run = x->rq = 0;
			x->task = k;
			f->last[k] = f->n;
		}
		x->rq += d;
		if (running)
			x->run += d;
		a += d;
	}
}

static int cmp_ent(const void *p, const void *q)
{
	const struct fw_ent *x = p, *y = q;
	return x->win != y->win ? SL_CMP(x->win, y->win) : SL_CMP(x->task, y->task);
}

double sl_fairwin_finish(struct sl_fairwin *f, const int *nice, size_t *nwindows)
{
	size_t i = 0, j, k, nwin = 0;
	double total = 0;
	qsort(f->e, f->n, sizeof(*f->e), cmp_ent);
	/* one entry per (window, task): a task's entries of one window summed */
	for (j = 0, k = 0; j < f->n; j++) {
		if (k && f->e[k - 1].win == f->e[j].win && f->e[k - 1].task == f->e[j].task) {
			f->e[k - 1].run += f->e[j].run;
			f->e[k - 1].rq += f->e[j].rq;
		} else {
			f->e[k++] = f->e[j];
		}
	}
	while (i < k) {
		double s = 0, ss = 0;
		size_t n = 0;
		int waited = 0;
		for (j = i; j < k && f->e[j].win == f->e[i].win; j++) {
			const struct fw_ent *x = &f->e[j];
			double v;
			if (x->rq < SL_FAIRWIN_NS)
				continue; /* not on a runqueue all through the window */
			v = (double)x->run / (double)sl_fair_weight(nice[x->task]);
			n++;
			s += v;
			ss += v * v;
			waited |= x->run < x->rq;
		}
		if (n >= 2 && waited && ss > 0) {
			total += s * s / ((double)n * ss);
			nwin++;
		}
		i = j;
	}
	free(f->e);
	free(f->last);
	free(f);
	*nwindows = nwin;
	return nwin ? total / (double)nwin : NAN;
}
