/* analyze/pass.c - one pass over the runs of a trace, a run at a time
 * (pass.h, sl_pass_run), for the metrics and the clients (the charts): a
 * report of a big trace holds one run's slices, never every run's rows at
 * once.
 *
 * The pre-pass streams the rows (sl_store_each_slice: not sorted, not
 * kept), on two threads with a connection each, for what the charts must
 * know of every run before drawing any: where each run starts and ends,
 * the featured tasks, which tasks have staircase rows; and each run's
 * delays, sorted once: the metrics' delay figures (percentiles, the KS
 * distance to the recorded run's, read first) and the latency CDF and
 * histogram, whose gnuplots then run beside the pass (with no such
 * chart, as for analyze and compare, the figures are taken from each
 * run's one read of its wakeups in the pass instead). Then each run in
 * two parts: its wakeups decoded on a thread and handed on a chunk at a
 * time (nothing needs them all at once, nor in order), then its slices
 * loaded whole (sorted as sl_store_load_run sorts them: the metrics, the
 * timeline and the staircase need them in time order), handed to the
 * charts (the staircase on a thread beside the others) and freed. Peak
 * memory: a run's slices (24 bytes each) and its tasks' delays (8 bytes
 * a wakeup). */
#include "pass.h"
#include "metrics.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* called after each run's rows are freed (sl_pass_set_run_done_hook) */
static void (*run_done_hook)(void);

void sl_pass_set_run_done_hook(void (*fn)(void))
{
	run_done_hook = fn;
}

void sl_featured_add(const struct sl_run_data *r0, const struct sl_slice_row *sl, uint64_t *rt,
		     uint64_t *sleeps)
{
	const struct sl_thread_row *t = sl_run_thread(r0, sl->utid);
	if (!t)
		return;
	rt[t - r0->threads] += sl->dur;
	if (sl->end_state == 'S' || sl->end_state == 'D')
		sleeps[t - r0->threads]++;
}

size_t sl_featured_pick(const struct sl_run_data *r0, const uint64_t *rt, const uint64_t *sleeps,
			int64_t *utids, size_t want)
{
	size_t nt = r0->nthreads, k, n = 0;
	char *taken = xcalloc(nt ? nt : 1, 1);
	int by_sleeps = 0;
	while (n < want) {
		const uint64_t *key = by_sleeps ? sleeps : rt;
		size_t best = nt;
		for (k = 0; k < nt; k++)
			if (!taken[k] && key[k] && (best == nt || key[k] > key[best]))
				best = k;
		if (best == nt && by_sleeps) {
			by_sleeps = 0; /* nobody else sleeps: the busiest fill in */
			continue;
		}
		if (best == nt)
			break;
		taken[best] = 1;
		utids[n++] = r0->threads[best].utid;
		by_sleeps = !by_sleeps;
	}
	free(taken);
	return n;
}

int sl_pruns_label_run(struct sl_pruns *p, size_t i, struct sl_diag *d)
{
	struct sl_prun *pr = &p->v[i];
	if (i && pr->r.run.trace_id != p->v[0].r.run.trace_id)
		return sl_fail(d, "run %" PRId64 " is of trace %" PRId64 ", run %" PRId64
				  " of trace %" PRId64 ": chart runs of one trace",
			       pr->r.run.id, pr->r.run.trace_id, p->v[0].r.run.id, p->v[0].r.run.trace_id);
	/* a replay made by validate says so (its params' origin, issue 22) */
	snprintf(pr->title, sizeof(pr->title), "run %" PRId64 ": %.31s (%.15s%s)", pr->r.run.id,
		 pr->r.run.scheduler, pr->r.run.mode,
		 strstr(pr->r.run.params, "\"origin\":\"validate\"") ? ", validate" : "");
	return 0;
}

int sl_pruns_label_trace(struct sl_store *s, struct sl_pruns *p, struct sl_diag *d)
{
	char path[160];
	const char *base;
	if (sl_store_get_trace(s, p->v[0].r.run.trace_id, &p->trace, d))
		return -1;
	base = strrchr(p->trace.path, '/');
	base = base ? base + 1 : p->trace.path;
	sl_label_clean(path, sizeof(path), base);
	snprintf(p->trace_title, sizeof(p->trace_title), "trace %" PRId64 ": %.100s (%.23s, %d CPU%s)",
		 p->trace.id, path, p->trace.format, p->trace.cpus, p->trace.cpus == 1 ? "" : "s");
	return 0;
}

struct pre {
	struct sl_pruns *p;
	struct sl_prun *pr;
	uint64_t *rt, *sleeps; /* featured sums, NULL when not needed */
	size_t rows;
	uint64_t wa, wb; /* the staircase's window (absolute) */
};

static int pre_slice(void *ctx, const struct sl_slice_row *sl)
{
	struct pre *a = ctx;
	struct sl_prun *pr = a->pr;
	if (sl->ts < pr->first_ts)
		pr->first_ts = sl->ts;
	if (sl->ts - pr->t0 < pr->first_rel)
		pr->first_rel = sl->ts - pr->t0;
	if (sl->ts + sl->dur > pr->end)
		pr->end = sl->ts + sl->dur;
	sl_featured_add(&a->p->v[0].r, sl, a->rt, a->sleeps);
	return 0;
}

static void has_row(struct pre *a, int64_t utid)
{
	const struct sl_thread_row *t = sl_run_thread(&a->p->v[0].r, utid);
	a->rows++;
	if (t)
		a->pr->has_rows[t - a->p->v[0].r.threads] = 1;
}

static int pre_stair(void *ctx, const struct sl_stair_row *r)
{
	has_row(ctx, r->utid);
	return 0;
}

static int pre_vlag(void *ctx, const struct sl_vlag_row *r)
{
	struct pre *a = ctx;
	const struct sl_thread_row *t = sl_run_thread(&a->p->v[0].r, r->utid);
	has_row(ctx, r->utid);
	if (t && r->ts >= a->wa && r->ts <= a->wb) {
		size_t k = (size_t)(t - a->p->v[0].r.threads);
		struct sl_prun *pr = a->pr;
		if (!pr->lag_in[k] || r->lag < pr->lag_lo[k])
			pr->lag_lo[k] = r->lag;
		if (!pr->lag_in[k] || r->lag > pr->lag_hi[k])
			pr->lag_hi[k] = r->lag;
		pr->lag_in[k] = 1;
	}
	return 0;
}

void sl_pruns_release_pass(struct sl_pruns *p)
{
	size_t i;
	for (i = 0; i < p->n; i++) {
		sl_run_data_release(&p->v[i].r);
		free(p->v[i].has_rows);
		free(p->v[i].lag_in);
		free(p->v[i].lag_lo);
		free(p->v[i].lag_hi);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

/* The pre-pass's reading, shared by two threads (each on its own
 * connection to the database: a 2-CPU machine reads two runs at once).
 * Every figure is a run's own or a sum of integers: the same whichever
 * thread reads which run. */
struct pre_job {
	struct sl_store *s;
	struct sl_pruns *p;
	int phase;              /* 1: the slices, 2: the staircase's rows, 3: the delays */
	uint64_t wa, wb;        /* the staircase's window (absolute) */
	uint64_t *rt, *sleeps;  /* this thread's featured sums (phase 1, NULL: none) */
	size_t *next;           /* the next run to read, shared */
	pthread_mutex_t *mu;
	/* phase 3: each run's delays, sorted: their figures for the metrics
	 * (figs, NULL: none; the KS distance against ref_dl, the recorded
	 * run's, read first) and the charts of delays only (SL_END_EARLY),
	 * called under cmu */
	struct sl_pass_client **c;
	size_t nc;
	pthread_mutex_t *cmu;
	struct sl_delay_figs *figs;
	int64_t ref_id;
	uint64_t *ref_dl;
	size_t nref, skip;
	int rc;
	struct sl_diag d;
};

static int early_chart(const struct sl_pass_client *c)
{
	return !c->failed && (c->need & SL_END_EARLY);
}

/* a run's delays (sl_run_delays's), sorted */
struct dl_acc {
	uint64_t *v;
	size_t n, cap;
};

static int dl_row(void *ctx, const struct sl_wakeup_row *w)
{
	struct dl_acc *a = ctx;
	if (w->ts_run != UINT64_MAX && w->ts_run >= w->ts) {
		if (a->n == a->cap)
			SL_GROW(a->v, a->cap, a->n + 1);
		a->v[a->n++] = w->ts_run - w->ts;
	}
	return 0;
}

/* Run run's delays (sl_run_delays's), sorted, into *v (malloc'd), *n. */
static int read_delays(struct sl_store *s, int64_t run, uint64_t **v, size_t *n, struct sl_diag *d)
{
	struct dl_acc dl = { NULL, 0, 0 };
	if (sl_store_each_wakeup(s, run, dl_row, &dl, d)) {
		free(dl.v);
		return -1;
	}
	sl_sort_u64(dl.v, dl.n);
	*v = dl.v;
	*n = dl.n;
	return 0;
}

static int pre_run(struct pre_job *j, size_t i)
{
	struct sl_pruns *p = j->p;
	struct sl_prun *pr = &p->v[i];
	size_t nt = p->v[0].r.nthreads;
	struct pre a;
	memset(&a, 0, sizeof(a));
	a.p = p;
	a.pr = pr;
	a.rt = j->rt;
	a.sleeps = j->sleeps;
	a.wa = j->wa;
	a.wb = j->wb;
	if (j->phase == 1)
		return sl_store_each_slice(j->s, pr->r.run.id, pre_slice, &a, &j->d);
	if (j->phase == 3) {
		struct dl_acc dl = { NULL, 0, 0 };
		size_t k;
		if (i == j->skip)
			return 0; /* the recorded run: read first */
		if (sl_store_each_wakeup(j->s, pr->r.run.id, dl_row, &dl, &j->d)) {
			free(dl.v);
			return -1;
		}
		sl_sort_u64(dl.v, dl.n);
		if (j->figs)
			sl_delay_figs_of(dl.v, dl.n, j->ref_dl, j->nref,
					 j->ref_id && j->ref_id != pr->r.run.id, &j->figs[i]);
		pthread_mutex_lock(j->cmu);
		for (k = 0; k < j->nc; k++) {
			struct sl_pass_client *c = j->c[k];
			if (early_chart(c) && c->wakeups && c->wakeups(c, p, i, dl.v, dl.n, &c->diag))
				c->failed = 1;
		}
		pthread_mutex_unlock(j->cmu);
		if (j->ref_id && j->ref_id == pr->r.run.id && !j->ref_dl) {
			j->ref_dl = dl.v; /* kept for the others' KS distance */
			j->nref = dl.n;
		} else {
			free(dl.v);
		}
		return 0;
	}
	pr->has_rows = xcalloc(nt ? nt : 1, 1);
	if (sl_store_stairs(j->s, pr->r.run.id, pre_stair, &a, &j->d))
		return -1;
	pr->stair_rows = a.rows;
	if (!a.rows) { /* cfs: its vruntime lag instead */
		pr->lag_in = xcalloc(nt ? nt : 1, 1);
		pr->lag_lo = xcalloc(nt ? nt : 1, sizeof(*pr->lag_lo));
		pr->lag_hi = xcalloc(nt ? nt : 1, sizeof(*pr->lag_hi));
		if (sl_store_vlags(j->s, pr->r.run.id, pre_vlag, &a, &j->d))
			return -1;
		pr->lag = a.rows > 0;
	}
	return 0;
}

static void *pre_worker(void *arg)
{
	struct pre_job *j = arg;
	for (;;) {
		size_t i;
		pthread_mutex_lock(j->mu);
		i = (*j->next)++;
		pthread_mutex_unlock(j->mu);
		if (i >= j->p->n)
			break;
		if (pre_run(j, i)) {
			j->rc = -1;
			break;
		}
	}
	return NULL;
}

static int pre_parallel(struct sl_store *s, struct sl_store *s2, struct sl_pruns *p, int need,
			const struct sl_pass_client *so, struct sl_pass_client **c, size_t nc, int early,
			int64_t ref_id, struct sl_delay_figs *figs, struct sl_diag *d)
{
	struct pre_job j[2];
	pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER, cmu = PTHREAD_MUTEX_INITIALIZER;
	size_t i, k, next, nt = p->v[0].r.nthreads;
	int phase, nj = s2 && p->n > 1 ? 2 : 1, rc = 0;
	memset(j, 0, sizeof(j));
	for (k = 0; k < 2; k++) {
		j[k].s = k ? s2 : s;
		j[k].p = p;
		j[k].next = &next;
		j[k].mu = &mu;
		j[k].c = c;
		j[k].nc = nc;
		j[k].cmu = &cmu;
		j[k].figs = figs;
		j[k].ref_id = ref_id;
		j[k].skip = SIZE_MAX;
		if (need & SL_NEED_PRE) {
			j[k].rt = xcalloc(nt ? nt : 1, sizeof(*j[k].rt));
			j[k].sleeps = xcalloc(nt ? nt : 1, sizeof(*j[k].sleeps));
		}
	}
	for (phase = 1; phase <= 3 && !rc; phase++) {
		pthread_t th;
		int threaded = 0;
		if ((phase == 1 && !(need & SL_NEED_PRE)) || (phase == 2 && !(need & SL_NEED_STAIRS)) ||
		    (phase == 3 && !early && !figs))
			continue;
		for (k = 0; k < 2; k++)
			j[k].phase = phase;
		if (phase == 3 && ref_id) {
			/* the recorded run's delays first: the others' KS distance */
			for (i = 0; i < p->n && p->v[i].r.run.id != ref_id; i++)
				;
			if (i < p->n) {
				if (pre_run(&j[0], i)) {
					memcpy(d->msg, j[0].d.msg, sizeof(d->msg));
					rc = -1;
					break;
				}
			} else if (read_delays(s, ref_id, &j[0].ref_dl, &j[0].nref, d)) {
				rc = -1;
				break;
			}
			for (k = 0; k < 2; k++) {
				j[k].ref_dl = j[0].ref_dl;
				j[k].nref = j[0].nref;
				j[k].skip = i;
			}
		}
		if (phase == 2) {
			/* the staircase's window: from --from to --to, or to the last
			 * end of any run (sl_plot_staircase) */
			uint64_t tmax = so->to;
			if (!so->to)
				for (i = 0; i < p->n; i++)
					if (p->v[i].end - p->v[i].t0 > tmax)
						tmax = p->v[i].end - p->v[i].t0;
			for (k = 0; k < 2; k++) {
				j[k].wa = p->trace.first_ts + so->from;
				j[k].wb = p->trace.first_ts + tmax;
			}
		}
		next = 0;
		if (nj == 2 && pthread_create(&th, NULL, pre_worker, &j[1]) == 0)
			threaded = 1;
		pre_worker(&j[0]);
		if (threaded)
			pthread_join(th, NULL);
		for (k = 0; k < 2 && !rc; k++)
			if (j[k].rc) {
				memcpy(d->msg, j[k].d.msg, sizeof(d->msg));
				rc = -1;
			}
	}
	if (!rc && (need & SL_NEED_PRE)) {
		for (i = 0; i < nt; i++) {
			j[0].rt[i] += j[1].rt[i];
			j[0].sleeps[i] += j[1].sleeps[i];
		}
		p->nfeatured = sl_featured_pick(&p->v[0].r, j[0].rt, j[0].sleeps, p->featured,
						SL_NFEATURED);
	}
	for (k = 0; k < 2; k++) {
		free(j[k].rt);
		free(j[k].sleeps);
	}
	free(j[0].ref_dl);
	pthread_mutex_destroy(&mu);
	pthread_mutex_destroy(&cmu);
	return rc;
}

int sl_pruns_open(struct sl_store *s, const int64_t *runs, size_t nruns, int parts,
		  struct sl_pruns *p, struct sl_diag *d)
{
	size_t i;
	memset(p, 0, sizeof(*p));
	if (!nruns)
		return sl_fail(d, "no run to draw");
	p->v = xcalloc(nruns, sizeof(*p->v));
	for (i = 0; i < nruns; i++) {
		if (sl_store_load_run_parts(s, runs[i], parts, &p->v[i].r, d))
			goto fail;
		p->n++;
		if (sl_pruns_label_run(p, i, d))
			goto fail;
	}
	if (sl_pruns_label_trace(s, p, d))
		goto fail;
	for (i = 0; i < p->n; i++)
		p->v[i].t0 = p->v[i].end = p->trace.first_ts;
	return 0;
fail:
	sl_pruns_release_pass(p);
	return -1;
}

/* The runs' info and threads. */
static int pre_pass(struct sl_store *s, const int64_t *runs, size_t nruns, struct sl_pruns *p,
		    struct sl_diag *d)
{
	size_t i;
	if (sl_pruns_open(s, runs, nruns, 0, p, d))
		return -1;
	for (i = 0; i < p->n; i++)
		p->v[i].first_ts = p->v[i].first_rel = UINT64_MAX;
	return 0;
}

/* The recorded run's CPU time per task (the reference of the metrics'
 * runtime error) and its tasks' classes (every run of the trace is classed
 * by them, as analyze does: sl_run_ref_of on the run loaded whole, before
 * the pass loads any other). */
static int ref_stream(struct sl_store *s, int64_t id, struct sl_run_ref *ref, struct sl_diag *d)
{
	return sl_run_ref_load(s, id, ref, d);
}

/* Move part (SL_LOAD_SLICES or SL_LOAD_WAKEUPS) of run pr into pr->r. */
static int load_part(struct sl_store *s, struct sl_prun *pr, int part, struct sl_diag *d)
{
	struct sl_run_data t;
	if (sl_store_load_run_parts(s, pr->r.run.id, part, &t, d))
		return -1;
	if (part == SL_LOAD_SLICES) {
		pr->r.slices = t.slices;
		pr->r.nslices = t.nslices;
		t.slices = NULL;
	} else {
		pr->r.wakeups = t.wakeups;
		pr->r.nwakeups = t.nwakeups;
		t.wakeups = NULL;
	}
	sl_run_data_release(&t);
	return 0;
}

static void drop_part(struct sl_prun *pr)
{
	free(pr->r.slices);
	free(pr->r.wakeups);
	pr->r.slices = NULL;
	pr->r.wakeups = NULL;
	pr->r.nslices = pr->r.nwakeups = 0;
}

/* A run's wakeups read as a stream, handed on a chunk at a time: to the
 * metrics, to the charts. */
#define WK_CHUNK 65536
struct wk_pass {
	struct sl_pruns *p;
	size_t i;
	struct sl_pass_client **c;
	size_t nc;
	struct sl_metrics_acc *acc;
	struct dl_acc *dl; /* the run's delays collected (NULL: not) */
	struct sl_wakeup_row *buf;
	size_t nbuf;
};

/* a chunk of the run's wakeups: to the metrics, the charts */
static void wk_chunk(struct wk_pass *w, const struct sl_wakeup_row *v, size_t n)
{
	size_t k;
	if (w->acc)
		sl_metrics_add_wakeups(w->acc, v, n);
	for (k = 0; w->dl && k < n; k++)
		dl_row(w->dl, &v[k]);
	for (k = 0; k < w->nc; k++) {
		struct sl_pass_client *c = w->c[k];
		if (!c->failed && c->wakeup_rows && c->wakeup_rows(c, w->p, w->i, v, n, &c->diag))
			c->failed = 1;
	}
}

static void wk_flush(struct wk_pass *w)
{
	if (w->nbuf)
		wk_chunk(w, w->buf, w->nbuf);
	w->nbuf = 0;
}

static int wk_row(void *ctx, const struct sl_wakeup_row *r)
{
	struct wk_pass *w = ctx;
	w->buf[w->nbuf++] = *r;
	if (w->nbuf == WK_CHUNK)
		wk_flush(w);
	return 0;
}

/* The run's wakeups decoded on a thread of their own (on the pass's second
 * connection) while the pass hands the chunks read so far on: WK_BUFS
 * chunks, each the reader's to fill or the pass's to read. */
#define WK_BUFS 3
struct wk_reader {
	struct sl_store *s;
	int64_t run_id;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct sl_wakeup_row *buf[WK_BUFS];
	size_t len[WK_BUFS];
	int full[WK_BUFS];
	size_t prod, fill;
	int done, rc;
	struct sl_diag d;
};

static void rd_publish(struct wk_reader *r)
{
	pthread_mutex_lock(&r->mu);
	r->len[r->prod] = r->fill;
	r->full[r->prod] = 1;
	pthread_cond_broadcast(&r->cv);
	r->prod = (r->prod + 1) % WK_BUFS;
	while (r->full[r->prod])
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
	r->fill = 0;
}

static int rd_row(void *ctx, const struct sl_wakeup_row *w)
{
	struct wk_reader *r = ctx;
	r->buf[r->prod][r->fill++] = *w;
	if (r->fill == WK_CHUNK)
		rd_publish(r);
	return 0;
}

static void *rd_main(void *arg)
{
	struct wk_reader *r = arg;
	int rc = sl_store_each_wakeup(r->s, r->run_id, rd_row, r, &r->d);
	if (r->fill)
		rd_publish(r);
	pthread_mutex_lock(&r->mu);
	r->rc = rc;
	r->done = 1;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

/* The run's wakeups through wk_row: read on a thread (s2) when there is
 * one, else here. */
static int wk_read(struct sl_store *s, struct sl_store *s2, int64_t run_id, struct wk_pass *w,
		   struct sl_diag *d)
{
	struct wk_reader r;
	pthread_t th;
	size_t cons = 0, k;
	int rc;
	if (!s2) {
		if (sl_store_each_wakeup(s, run_id, wk_row, w, d))
			return -1;
		wk_flush(w);
		return 0;
	}
	memset(&r, 0, sizeof(r));
	r.s = s2;
	r.run_id = run_id;
	pthread_mutex_init(&r.mu, NULL);
	pthread_cond_init(&r.cv, NULL);
	for (k = 0; k < WK_BUFS; k++)
		r.buf[k] = xmalloc(WK_CHUNK * sizeof(*r.buf[k]));
	if (pthread_create(&th, NULL, rd_main, &r)) {
		rc = sl_store_each_wakeup(s, run_id, wk_row, w, d);
		if (!rc)
			wk_flush(w);
		goto out;
	}
	for (;;) {
		size_t n;
		pthread_mutex_lock(&r.mu);
		while (!r.full[cons] && !r.done)
			pthread_cond_wait(&r.cv, &r.mu);
		if (!r.full[cons]) {
			pthread_mutex_unlock(&r.mu);
			break;
		}
		n = r.len[cons];
		pthread_mutex_unlock(&r.mu);
		wk_chunk(w, r.buf[cons], n);
		pthread_mutex_lock(&r.mu);
		r.full[cons] = 0;
		pthread_cond_broadcast(&r.cv);
		pthread_mutex_unlock(&r.mu);
		cons = (cons + 1) % WK_BUFS;
	}
	pthread_join(th, NULL);
	rc = r.rc;
	if (rc)
		memcpy(d->msg, r.d.msg, sizeof(d->msg));
out:
	for (k = 0; k < WK_BUFS; k++)
		free(r.buf[k]);
	pthread_cond_destroy(&r.cv);
	pthread_mutex_destroy(&r.mu);
	return rc ? -1 : 0;
}

/* a client's slices() on a thread of its own */
struct aside {
	struct sl_pass_client *c;
	struct sl_pruns *p;
	size_t i;
	int rc;
};

static void *aside_main(void *arg)
{
	struct aside *a = arg;
	a->rc = a->c->slices(a->c, a->p, a->i, &a->c->diag);
	return NULL;
}

/* a client's callback returned rc: a failure drops the client */
static void check(struct sl_pass_client *c, int rc)
{
	if (rc)
		c->failed = 1;
}

/* One pass over the runs for clients c[0..nc) (and the metrics m). */
struct pass {
	struct sl_store *s, *s2; /* s2: a second connection (NULL: none) */
	struct sl_pass_client **c;
	size_t nc;
	struct sl_pruns p;
	int need, need_wk;       /* SL_NEED_*; the wakeups read in the pass */
	int64_t ref_id;          /* the recorded run (metrics), 0: none */
	struct sl_run_ref ref;
	int have_ref;
	struct sl_delay_figs *figs; /* per run (metrics): from the pre-pass, or (late) */
	int late;                   /* from each run's one read in the pass (no chart
				     * needs the delays first) */
	uint64_t *ref_dl;           /* late: the recorded run's delays, sorted */
	size_t nref;
};

/* The charts of delays get theirs in the pre-pass and end there (their
 * gnuplots run beside the pass); the pre-pass's reading. */
static int pass_pre(struct pass *x, struct sl_diag *d)
{
	struct sl_pass_client **c = x->c;
	size_t j, k;
	int early = 0;

	for (k = 0; k < x->nc && !(c[k]->need & SL_NEED_STAIRS); k++)
		;
	for (j = 0; j < x->nc; j++)
		if (early_chart(c[j])) {
			early = 1;
			if (c[j]->begin)
				check(c[j], c[j]->begin(c[j], &x->p, &c[j]->diag));
		}
	if (x->need & SL_NEED_METRICS) {
		if (sl_store_recorded_run(x->s, x->p.trace.id, &x->ref_id, d))
			return -1;
		x->figs = xcalloc(x->p.n, sizeof(*x->figs));
		/* no chart of delays: each run's delay figures come from its
		 * one read of its wakeups in the pass (the recorded run's
		 * delays, for the KS distances, read first) */
		x->late = !early;
		if (x->late && x->ref_id && read_delays(x->s, x->ref_id, &x->ref_dl, &x->nref, d))
			return -1;
	}
	if (((x->need & (SL_NEED_PRE | SL_NEED_STAIRS)) || early) &&
	    pre_parallel(x->s, x->s2, &x->p, x->need, k < x->nc ? c[k] : NULL, c, x->nc, early,
			 x->ref_id, x->late ? NULL : x->figs, d))
		return -1;
	for (j = 0; j < x->nc; j++)
		if (early_chart(c[j])) {
			if (c[j]->end)
				check(c[j], c[j]->end(c[j], &x->p, &c[j]->diag));
			c[j]->ended = 1;
		}
	/* what the pass still reads: the wakeups for the metrics and the
	 * charts of their rows */
	for (j = 0, x->need_wk = 0; j < x->nc; j++)
		if ((c[j]->need & SL_NEED_WAKEUPS) && !(c[j]->need & SL_END_EARLY))
			x->need_wk = 1;
	if (x->need & SL_NEED_METRICS)
		x->need_wk = 1;
	return 0;
}

/* Run i's wakeups a chunk at a time (nothing needs them all), to the
 * metrics (acc) and the charts. */
static int pass_wakeups(struct pass *x, size_t i, struct sl_metrics_acc *acc, struct sl_diag *d)
{
	struct wk_pass w;
	struct dl_acc dl = { NULL, 0, 0 };
	int64_t id = x->p.v[i].r.run.id;
	size_t k;
	int rc;
	memset(&w, 0, sizeof(w));
	w.p = &x->p;
	w.i = i;
	w.c = x->c;
	w.nc = x->nc;
	w.acc = acc;
	w.dl = acc && x->late ? &dl : NULL;
	w.buf = xmalloc(WK_CHUNK * sizeof(*w.buf));
	rc = wk_read(x->s, x->s2, id, &w, d);
	free(w.buf);
	if (rc) {
		free(dl.v);
		return -1;
	}
	if (w.dl) { /* the delays' figures, as the pre-pass takes them */
		sl_sort_u64(dl.v, dl.n);
		sl_delay_figs_of(dl.v, dl.n, x->ref_dl, x->nref, x->ref_id && x->ref_id != id,
				 &x->figs[i]);
		free(dl.v);
	}
	/* the delays' figures, from the pre-pass or just now */
	if (acc)
		sl_metrics_set_delays(acc, &x->figs[i]);
	for (k = 0; k < x->nc; k++)
		if (!x->c[k]->failed && x->c[k]->wakeups && !x->c[k]->ended)
			check(x->c[k], x->c[k]->wakeups(x->c[k], &x->p, i, NULL, 0, &x->c[k]->diag));
	return 0;
}

/* Run i's slices, to the metrics (acc), the recorded run's CPU times
 * (ref_here) and the charts; a chart that may draw aside (the staircase)
 * on a thread of its own with the second connection, beside the rest. */
static int pass_slices(struct pass *x, size_t i, struct sl_metrics_acc *acc, int ref_here,
		       struct sl_diag *d)
{
	struct sl_pass_client **c = x->c;
	struct sl_prun *pr = &x->p.v[i];
	struct aside aside;
	pthread_t aside_th;
	size_t k;

	if (load_part(x->s, pr, SL_LOAD_SLICES, d))
		return -1;
	aside.c = NULL;
	for (k = 0; k < x->nc && x->s2 && !aside.c; k++)
		if (!c[k]->failed && c[k]->slices && (c[k]->need & SL_SLICES_ASIDE)) {
			aside.c = c[k];
			aside.p = &x->p;
			aside.i = i;
			c[k]->s = x->s2;
			if (pthread_create(&aside_th, NULL, aside_main, &aside)) {
				c[k]->s = x->s;
				aside.c = NULL;
				break;
			}
		}
	if (acc)
		sl_metrics_add_slices(acc, pr->r.slices, pr->r.nslices);
	if (ref_here)
		sl_run_ref_add_slices(&x->ref, pr->r.slices, pr->r.nslices);
	for (k = 0; k < x->nc; k++)
		if (!c[k]->failed && c[k]->slices && c[k] != aside.c)
			check(c[k], c[k]->slices(c[k], &x->p, i, &c[k]->diag));
	if (aside.c) {
		pthread_join(aside_th, NULL);
		aside.c->s = x->s;
		check(aside.c, aside.rc);
	}
	drop_part(pr);
	return 0;
}

/* Run i through the pass; its metrics into *mm (when x->need has
 * SL_NEED_METRICS; *got set). */
static int pass_run(struct pass *x, size_t i, struct sl_run_metrics *mm, int *got,
		    struct sl_diag *d)
{
	struct sl_prun *pr = &x->p.v[i];
	int ref_here = x->ref_id && i == 0 && x->ref_id == pr->r.run.id;
	struct sl_metrics_acc *acc = NULL;
	size_t k;

	*got = 0;
	if (x->need & SL_NEED_METRICS)
		acc = sl_metrics_begin(&pr->r.run, pr->r.threads, pr->r.nthreads);
	if (x->need_wk && pass_wakeups(x, i, acc, d))
		goto fail;
	if (ref_here) { /* the recorded run's CPU time per task, from its slices */
		sl_run_ref_begin(&x->ref, pr->r.run.id, pr->r.threads, pr->r.nthreads, NULL, 0);
		x->have_ref = 1;
	}
	if ((x->need & SL_NEED_SLICES) && pass_slices(x, i, acc, ref_here, d))
		goto fail;
	if (acc) {
		sl_metrics_finish(acc, x->have_ref ? &x->ref : NULL, mm);
		*got = 1;
		for (k = 0; k < x->nc; k++)
			if (!x->c[k]->failed && x->c[k]->metrics)
				check(x->c[k], x->c[k]->metrics(x->c[k], &x->p, i, mm, &x->c[k]->diag));
	}
	return 0;
fail:
	if (acc) {
		struct sl_run_metrics tmp;
		sl_metrics_finish(acc, NULL, &tmp);
		sl_run_metrics_release(&tmp);
	}
	return -1;
}

int sl_pass_run(struct sl_store *s, const int64_t *runs, size_t nruns, struct sl_pass_client **c,
		size_t nc, struct sl_run_metrics *m, struct sl_diag *d)
{
	struct pass x;
	struct sl_diag d2;
	size_t i, k;
	int rc = -1;

	memset(&x, 0, sizeof(x));
	x.s = s;
	x.c = c;
	x.nc = nc;
	for (k = 0; k < nc; k++) {
		c[k]->failed = c[k]->ended = 0;
		c[k]->diag.msg[0] = 0;
		c[k]->s = s;
		x.need |= c[k]->need;
	}
	if (m)
		x.need |= SL_NEED_METRICS;
	if (x.need & SL_NEED_METRICS)
		x.need |= SL_NEED_WAKEUPS | SL_NEED_SLICES;
	sl_store_cache(s, 1);
	/* a second connection, for the threads that read beside the pass (a
	 * failure to open it only costs time) */
	if (nruns > 1 && sl_store_open(sl_store_path(s), 0, &x.s2, &d2) == 0)
		sl_store_cache(x.s2, 1);
	if (pre_pass(s, runs, nruns, &x.p, d) || pass_pre(&x, d))
		goto out;
	if (x.ref_id && x.ref_id != x.p.v[0].r.run.id) {
		if (ref_stream(s, x.ref_id, &x.ref, d))
			goto out;
		x.have_ref = 1;
	}
	for (k = 0; k < nc; k++)
		if (c[k]->begin && !c[k]->ended)
			check(c[k], c[k]->begin(c[k], &x.p, &c[k]->diag));
	for (i = 0; i < x.p.n; i++) {
		struct sl_run_metrics mm;
		int got;
		if (pass_run(&x, i, &mm, &got, d))
			goto out;
		if (got && m)
			m[i] = mm;
		else if (got)
			sl_run_metrics_release(&mm);
		/* the run's rows freed: the program may give the memory back
		 * before the next (schedlab.c: malloc_trim) */
		if (run_done_hook)
			run_done_hook();
	}
	for (k = 0; k < nc; k++)
		if (!c[k]->failed && c[k]->end && !c[k]->ended)
			check(c[k], c[k]->end(c[k], &x.p, &c[k]->diag));
	for (k = 0; k < nc; k++)
		if (!c[k]->failed && c[k]->finish)
			check(c[k], c[k]->finish(c[k], &c[k]->diag));
	rc = 0;
out:
	for (k = 0; k < nc; k++)
		if (c[k]->release)
			c[k]->release(c[k]);
	if (x.have_ref)
		sl_run_ref_release(&x.ref);
	sl_pruns_release_pass(&x.p);
	free(x.figs);
	free(x.ref_dl);
	sl_store_close(x.s2);
	sl_store_cache(s, 0);
	return rc;
}

int sl_runs_metrics(struct sl_store *s, const int64_t *runs, size_t n, struct sl_run_metrics *m,
		    struct sl_diag *d)
{
	return sl_pass_run(s, runs, n, NULL, 0, m, d);
}
