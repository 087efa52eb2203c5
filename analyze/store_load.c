/* analyze/store_load.c - runs read back from the store: their rows for
 * the metrics and charts, from the run's packed chunks (store_pack.c) or,
 * for a run written before them, from the tables; ordered in memory (the
 * tables have no index to order by). */
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* where the rows go: the caller's function for the rows of one kind, the
 * ids read, or the run being loaded */
struct typed {
	void *ctx;
	int (*stair)(void *ctx, const struct sl_stair_row *r);
	int (*rot)(void *ctx, const struct sl_rotation_row *r);
	int (*vlag)(void *ctx, const struct sl_vlag_row *r);
	int (*slice)(void *ctx, const struct sl_slice_row *r);
	int (*wakeup)(void *ctx, const struct sl_wakeup_row *r);
	int64_t *ids;
	size_t n, cap;
	struct sl_run_data *run; /* the run being loaded */
	size_t tcap, scap, wcap;
	int64_t want; /* rows of the pack being read (st_pack_read) */
};

/* Step sql (?1 = *param when param is given) and hand each row to row(). */
static int each_row(struct sl_store *s, const char *sql, const int64_t *param,
		    int (*row)(sqlite3_stmt *q, struct typed *t), struct typed *t, struct sl_diag *d,
		    const char *what)
{
	sqlite3_stmt *q = st_prep(s, sql, d);
	int rc;
	if (!q)
		return -1;
	if (param)
		sqlite3_bind_int64(q, 1, *param);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		if (row(q, t)) {
			sqlite3_finalize(q);
			return -1;
		}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : st_dberr(s, d, what);
}

int sl_store_get_run(struct sl_store *s, int64_t run_id, struct sl_run_info *r, struct sl_diag *d)
{
	sqlite3_stmt *q;
	memset(r, 0, sizeof(*r));
	q = st_row_by_id(s, "SELECT id, trace_id, scheduler, mode, params, cpus, seed FROM run WHERE id = ?",
			 run_id, "run", d);
	if (!q)
		return -1;
	r->id = sqlite3_column_int64(q, 0);
	r->trace_id = sqlite3_column_int64(q, 1);
	r->cpus = sqlite3_column_int(q, 5);
	r->seed = (uint64_t)sqlite3_column_int64(q, 6);
	st_col_text(q, 2, r->scheduler, sizeof(r->scheduler));
	st_col_text(q, 3, r->mode, sizeof(r->mode));
	st_col_text(q, 4, r->params, sizeof(r->params));
	sqlite3_finalize(q);
	return 0;
}

#define CMP(a, b)                  \
	do {                       \
		if ((a) != (b))    \
			return (a) < (b) ? -1 : 1; \
	} while (0)

/* by ts, cpu, then every other column: a total order on distinct rows */
static int cmp_slice(const void *pa, const void *pb)
{
	const struct sl_slice_row *a = pa, *b = pb;
	CMP(a->ts, b->ts);
	CMP(a->cpu, b->cpu);
	CMP(a->dur, b->dur);
	CMP(a->utid, b->utid);
	CMP(a->priority, b->priority);
	CMP(a->end_state, b->end_state);
	return 0;
}

/* by ts, utid, then every other column */
static int cmp_wakeup(const void *pa, const void *pb)
{
	const struct sl_wakeup_row *a = pa, *b = pb;
	CMP(a->ts, b->ts);
	CMP(a->utid, b->utid);
	CMP(a->ts_run, b->ts_run);
	CMP(a->waker_utid, b->waker_utid);
	CMP(a->cpu, b->cpu);
	return 0;
}

/* Put row j of a (n rows of size bytes) where row src[j] & mask is: follow
 * each cycle of the permutation once, marking the places filled by setting
 * their source to themselves (src's bits above mask are kept). */
static void permute(unsigned char *a, size_t n, size_t size, uint64_t *src, uint64_t mask)
{
	unsigned char *tmp = xmalloc(size);
	size_t i;
	for (i = 0; i < n; i++) {
		size_t from = (size_t)(src[i] & mask), k = i;
		if (from == i)
			continue;
		memcpy(tmp, a + i * size, size);
		for (;;) {
			from = (size_t)(src[k] & mask);
			src[k] = (src[k] & ~mask) | k;
			if (from == i) {
				memcpy(a + k * size, tmp, size);
				break;
			}
			memcpy(a + k * size, a + from * size, size);
			k = from;
		}
	}
	free(tmp);
}

/* permute with 32-bit sources (src[i]: the row that goes to i; each place
 * filled is marked by setting its source to itself) */
static void permute32(unsigned char *a, size_t n, size_t size, uint32_t *src)
{
	unsigned char *tmp = xmalloc(size);
	size_t i;
	for (i = 0; i < n; i++) {
		size_t from = src[i], k = i;
		if (from == i)
			continue;
		memcpy(tmp, a + i * size, size);
		for (;;) {
			from = src[k];
			src[k] = (uint32_t)k;
			if (from == i) {
				memcpy(a + k * size, tmp, size);
				break;
			}
			memcpy(a + k * size, a + from * size, size);
			k = from;
		}
	}
	free(tmp);
}

/* Rows nearly in order: each part (part() of a row: a slice's CPU, the
 * rows of a CPU written in time order) is a few runs already in cmp's
 * order (a new run where a row is out of order for its part: a recorded
 * run's placed missed switches). Merge the runs (a heap of their heads: a
 * comparison or a few per row; 8 bytes of links and order a row, where a
 * radix sort of keys takes 16). 1 when done, 0 when not so (more than
 * MAXPART parts, or runs too many to be worth it; a is unchanged). */
#define MAXPART 64
struct run { uint32_t head, last; };

static void heap_down(uint32_t *h, size_t n, size_t k, const struct run *runs,
		      const unsigned char *a, size_t size, int (*cmp)(const void *, const void *))
{
	for (;;) {
		size_t l = 2 * k + 1, m = k;
		if (l < n && cmp(a + (size_t)runs[h[l]].head * size, a + (size_t)runs[h[m]].head * size) < 0)
			m = l;
		if (l + 1 < n &&
		    cmp(a + (size_t)runs[h[l + 1]].head * size, a + (size_t)runs[h[m]].head * size) < 0)
			m = l + 1;
		if (m == k)
			return;
		uint32_t t = h[k];
		h[k] = h[m];
		h[m] = t;
		k = m;
	}
}

static int merge_parts(unsigned char *a, size_t n, size_t size,
		       int (*cmp)(const void *, const void *), int (*part)(const void *))
{
	uint32_t cur[MAXPART], *nxt, *ord, *h;
	struct run *runs = NULL;
	size_t i, j, nr = 0, capr = 0, hn;
	int p;
	if (n >= UINT32_MAX)
		return 0;
	nxt = xmalloc(n * sizeof(*nxt));
	for (p = 0; p < MAXPART; p++)
		cur[p] = UINT32_MAX;
	for (i = 0; i < n; i++) {
		uint32_t r;
		p = part(a + i * size);
		if (p < 0 || p >= MAXPART || nr > n / 16 + MAXPART) {
			free(nxt);
			free(runs);
			return 0;
		}
		r = cur[p];
		if (r == UINT32_MAX || cmp(a + (size_t)runs[r].last * size, a + i * size) > 0) {
			SL_GROW(runs, capr, nr + 1);
			r = (uint32_t)nr++;
			runs[r].head = (uint32_t)i;
			cur[p] = r;
		} else {
			nxt[runs[r].last] = (uint32_t)i;
		}
		runs[r].last = (uint32_t)i;
		nxt[i] = UINT32_MAX;
	}
	h = xmalloc((nr ? nr : 1) * sizeof(*h));
	for (j = 0; j < nr; j++)
		h[j] = (uint32_t)j;
	hn = nr;
	for (j = hn / 2; j-- > 0;)
		heap_down(h, hn, j, runs, a, size, cmp);
	ord = xmalloc(n * sizeof(*ord));
	for (j = 0; j < n; j++) {
		struct run *r = &runs[h[0]];
		ord[j] = r->head;
		r->head = nxt[r->head];
		if (r->head == UINT32_MAX)
			h[0] = h[--hn];
		if (hn)
			heap_down(h, hn, 0, runs, a, size, cmp);
	}
	free(nxt);
	free(runs);
	free(h);
	permute32(a, n, size, ord);
	free(ord);
	return 1;
}

/* Sort n rows of size bytes ascending by cmp, a total order whose first
 * key is the uint64_t ts at offset 0 of a row: the order qsort(cmp) gives.
 * Rows come nearly in order: nothing to do when sorted; a merge when each
 * part (part may be NULL) is in order (merge_parts); else a radix sort of
 * keys (ts since the smallest, then the row's index) when both fit in 64
 * bits, the rows permuted in place, and rows of equal ts put in cmp's
 * order (they are few); else qsort. */
static void sort_rows(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *),
		      int (*part)(const void *))
{
	unsigned char *a = base;
	uint64_t lo = UINT64_MAX, hi = 0, *key, mask;
	size_t i, j;
	int ibits = 0, tbits = 0;
	for (i = 1; i < n && cmp(a + (i - 1) * size, a + i * size) <= 0; i++)
		;
	if (n < 2 || i == n || (part && merge_parts(a, n, size, cmp, part)))
		return;
	for (i = 0; i < n; i++) {
		uint64_t ts;
		memcpy(&ts, a + i * size, sizeof(ts));
		lo = ts < lo ? ts : lo;
		hi = ts > hi ? ts : hi;
	}
	while (ibits < 64 && (uint64_t)(n - 1) >> ibits)
		ibits++;
	while (tbits < 64 && (hi - lo) >> tbits)
		tbits++;
	if (ibits + tbits > 64) {
		qsort(base, n, size, cmp);
		return;
	}
	mask = ibits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << ibits) - 1;
	key = xmalloc(n * sizeof(*key));
	for (i = 0; i < n; i++) {
		uint64_t ts;
		memcpy(&ts, a + i * size, sizeof(ts));
		key[i] = ibits == 64 ? i : (ts - lo) << ibits | i;
	}
	sl_sort_u64(key, n);
	permute(a, n, size, key, mask);
	free(key);
	/* equal ts: insertion sort by cmp */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && cmp(a + (j - 1) * size, a + j * size) > 0; j--) {
			unsigned char t[64];
			memcpy(t, a + j * size, size);
			memmove(a + j * size, a + (j - 1) * size, size);
			memcpy(a + (j - 1) * size, t, size);
		}
}

int sl_slice_row_cmp(const void *a, const void *b)
{
	return cmp_slice(a, b);
}

int sl_wakeup_row_cmp(const void *a, const void *b)
{
	return cmp_wakeup(a, b);
}

static int slice_cpu(const void *row)
{
	return ((const struct sl_slice_row *)row)->cpu;
}

static void slice_of_pack(struct sl_slice_row *r, const int64_t *v, const char (*txt)[8])
{
	r->ts = (uint64_t)v[1];
	r->dur = (uint64_t)v[2];
	r->cpu = (int)v[3];
	r->utid = v[4];
	r->end_state = txt[5][0] ? txt[5][0] : '?';
	r->priority = (int)v[6];
}

static void wakeup_of_pack(struct sl_wakeup_row *w, const int64_t *v)
{
	w->utid = v[1];
	w->ts = (uint64_t)v[2];
	w->ts_run = v[3] == NULL_VAL ? UINT64_MAX : (uint64_t)v[3];
	w->waker_utid = v[4] == NULL_VAL ? -1 : v[4];
	w->cpu = v[5] == NULL_VAL ? -1 : (int)v[5];
}

static int slice_pack(void *ctx, const int64_t *v, const char (*txt)[8])
{
	struct typed *t = ctx;
	struct sl_run_data *out = t->run;
	if (!t->scap) { /* the pack's row count: to measure */
		t->scap = t->want > 0 ? (size_t)t->want : 1;
		out->slices = xmalloc_huge(t->scap * sizeof(*out->slices));
	}
	if (out->nslices == t->scap)
		SL_GROW_HUGE(out->slices, t->scap, out->nslices + 1);
	slice_of_pack(&out->slices[out->nslices++], v, txt);
	return 0;
}

static int wakeup_pack(void *ctx, const int64_t *v, const char (*txt)[8])
{
	struct typed *t = ctx;
	struct sl_run_data *out = t->run;
	(void)txt;
	if (!t->wcap) {
		t->wcap = t->want > 0 ? (size_t)t->want : 1;
		out->wakeups = xmalloc_huge(t->wcap * sizeof(*out->wakeups));
	}
	if (out->nwakeups == t->wcap)
		SL_GROW_HUGE(out->wakeups, t->wcap, out->nwakeups + 1);
	wakeup_of_pack(&out->wakeups[out->nwakeups++], v);
	return 0;
}

/* one row to the caller's function (sl_store_each_slice/_wakeup) */
static int slice_pack_fn(void *ctx, const int64_t *v, const char (*txt)[8])
{
	struct typed *t = ctx;
	struct sl_slice_row r;
	slice_of_pack(&r, v, txt);
	return t->slice(t->ctx, &r);
}

static int wakeup_pack_fn(void *ctx, const int64_t *v, const char (*txt)[8])
{
	struct typed *t = ctx;
	struct sl_wakeup_row w;
	(void)txt;
	wakeup_of_pack(&w, v);
	return t->wakeup(t->ctx, &w);
}

static int thread_row(sqlite3_stmt *q, struct typed *t)
{
	struct sl_run_data *out = t->run;
	struct sl_thread_row *r;
	SL_GROW(out->threads, t->tcap, out->nthreads + 1);
	r = &out->threads[out->nthreads++];
	r->utid = sqlite3_column_int64(q, 0);
	r->tid = sqlite3_column_int(q, 1);
	r->tgid = sqlite3_column_int(q, 2);
	r->nice = sqlite3_column_int(q, 3);
	st_col_text(q, 4, r->comm, sizeof(r->comm));
	r->first_ts = (uint64_t)sqlite3_column_int64(q, 5);
	r->last_ts = (uint64_t)sqlite3_column_int64(q, 6);
	r->uncertain_ns = (uint64_t)sqlite3_column_int64(q, 7);
	return 0;
}

static void slice_of_row(sqlite3_stmt *q, struct sl_slice_row *r)
{
	const unsigned char *es = sqlite3_column_text(q, 4);
	r->ts = (uint64_t)sqlite3_column_int64(q, 0);
	r->dur = (uint64_t)sqlite3_column_int64(q, 1);
	r->utid = sqlite3_column_int64(q, 2);
	r->cpu = sqlite3_column_int(q, 3);
	r->end_state = es && es[0] ? (char)es[0] : '?';
	r->priority = sqlite3_column_int(q, 5);
}

static int slice_row(sqlite3_stmt *q, struct typed *t)
{
	struct sl_run_data *out = t->run;
	SL_GROW(out->slices, t->scap, out->nslices + 1);
	slice_of_row(q, &out->slices[out->nslices++]);
	return 0;
}

static int slice_row_fn(sqlite3_stmt *q, struct typed *t)
{
	struct sl_slice_row r;
	slice_of_row(q, &r);
	return t->slice(t->ctx, &r);
}

/* NULL ts_run (never ran), waker_utid and cpu (unknown) as UINT64_MAX, -1, -1 */
static void wakeup_of_row(sqlite3_stmt *q, struct sl_wakeup_row *w)
{
	w->ts = (uint64_t)sqlite3_column_int64(q, 0);
	w->ts_run = sqlite3_column_type(q, 1) == SQLITE_NULL ? UINT64_MAX
							     : (uint64_t)sqlite3_column_int64(q, 1);
	w->utid = sqlite3_column_int64(q, 2);
	w->waker_utid = sqlite3_column_type(q, 3) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, 3);
	w->cpu = sqlite3_column_type(q, 4) == SQLITE_NULL ? -1 : sqlite3_column_int(q, 4);
}

static int wakeup_row(sqlite3_stmt *q, struct typed *t)
{
	struct sl_run_data *out = t->run;
	SL_GROW(out->wakeups, t->wcap, out->nwakeups + 1);
	wakeup_of_row(q, &out->wakeups[out->nwakeups++]);
	return 0;
}

static int wakeup_row_fn(sqlite3_stmt *q, struct typed *t)
{
	struct sl_wakeup_row w;
	wakeup_of_row(q, &w);
	return t->wakeup(t->ctx, &w);
}

#define THREADS_SQL                                                                              \
	"SELECT t.utid, t.tid, t.tgid, t.nice, t.comm, t.first_ts, t.last_ts,"                   \
	" COALESCE(s.uncertain_ns, 0) FROM run r JOIN thread t ON t.trace_id = r.trace_id"       \
	" LEFT JOIN task_stat s ON s.run_id = r.id AND s.utid = t.utid"                          \
	" WHERE r.id = ?1 ORDER BY t.utid"

int sl_store_run_threads(struct sl_store *s, int64_t run_id, struct sl_thread_row **threads,
			 size_t *n, struct sl_diag *d)
{
	struct sl_run_data r;
	struct typed t = { 0 };
	memset(&r, 0, sizeof(r));
	t.run = &r;
	if (each_row(s, THREADS_SQL, &run_id, thread_row, &t, d, "loading a run")) {
		free(r.threads);
		*threads = NULL;
		*n = 0;
		return -1;
	}
	*threads = r.threads;
	*n = r.nthreads;
	return 0;
}

int sl_store_each_slice(struct sl_store *s, int64_t run_id,
			int (*fn)(void *ctx, const struct sl_slice_row *r), void *ctx,
			struct sl_diag *d)
{
	struct typed t = { .ctx = ctx, .slice = fn };
	int rc = st_pack_read(s, run_id, RB_SLICE, &t.want, slice_pack_fn, &t, d);
	if (rc)
		return rc < 0 ? -1 : 0;
	return each_row(s, "SELECT ts, dur, utid, cpu, end_state, priority FROM sched_slice WHERE "
			   SL_RUN_ROWS("sched_slice", "?1") " ORDER BY rowid",
			&run_id, slice_row_fn, &t, d, "loading a run");
}

int sl_store_each_wakeup(struct sl_store *s, int64_t run_id,
			 int (*fn)(void *ctx, const struct sl_wakeup_row *r), void *ctx,
			 struct sl_diag *d)
{
	struct typed t = { .ctx = ctx, .wakeup = fn };
	int rc = st_pack_read(s, run_id, RB_WAKEUP, &t.want, wakeup_pack_fn, &t, d);
	if (rc)
		return rc < 0 ? -1 : 0;
	return each_row(s, "SELECT ts, ts_run, utid, waker_utid, cpu FROM wakeup WHERE "
			   SL_RUN_ROWS("wakeup", "?1") " ORDER BY rowid",
			&run_id, wakeup_row_fn, &t, d, "loading a run");
}

int sl_store_load_run(struct sl_store *s, int64_t run_id, struct sl_run_data *out,
		      struct sl_diag *d)
{
	return sl_store_load_run_parts(s, run_id, SL_LOAD_ALL, out, d);
}

int sl_store_load_run_parts(struct sl_store *s, int64_t run_id, int parts, struct sl_run_data *out,
			    struct sl_diag *d)
{
	struct typed t = { 0 };
	int ps = 0, pw = 0;
	memset(out, 0, sizeof(*out));
	t.run = out;
	if (sl_store_get_run(s, run_id, &out->run, d))
		return -1;
	if (each_row(s, THREADS_SQL, &run_id, thread_row, &t, d, "loading a run") ||
	    ((parts & SL_LOAD_SLICES) &&
	     ((ps = st_pack_read(s, run_id, RB_SLICE, &t.want, slice_pack, &t, d)) < 0 ||
	      (!ps && each_row(s, "SELECT ts, dur, utid, cpu, end_state, priority FROM sched_slice WHERE "
				  SL_RUN_ROWS("sched_slice", "?1"),
			       &run_id, slice_row, &t, d, "loading a run")))) ||
	    ((parts & SL_LOAD_WAKEUPS) &&
	     ((pw = st_pack_read(s, run_id, RB_WAKEUP, &t.want, wakeup_pack, &t, d)) < 0 ||
	      (!pw && each_row(s, "SELECT ts, ts_run, utid, waker_utid, cpu FROM wakeup WHERE "
				  SL_RUN_ROWS("wakeup", "?1"),
			       &run_id, wakeup_row, &t, d, "loading a run"))))) {
		sl_run_data_release(out);
		return -1;
	}
	/* ordered here rather than by SQL: the tables have no index to order by */
	sl_run_data_sort(out);
	return 0;
}

void sl_run_data_sort(struct sl_run_data *r)
{
	sort_rows(r->slices, r->nslices, sizeof(*r->slices), cmp_slice, slice_cpu);
	sort_rows(r->wakeups, r->nwakeups, sizeof(*r->wakeups), cmp_wakeup, NULL);
}

void sl_run_data_release(struct sl_run_data *r)
{
	if (!r)
		return;
	free(r->threads);
	free(r->slices);
	free(r->wakeups);
	memset(r, 0, sizeof(*r));
}

static int stair_row(sqlite3_stmt *q, struct typed *t)
{
	struct sl_stair_row r = { sqlite3_column_int64(q, 0), (uint64_t)sqlite3_column_int64(q, 1),
				  sqlite3_column_int(q, 2), sqlite3_column_int(q, 3) };
	return t->stair(t->ctx, &r);
}

static int rot_row(sqlite3_stmt *q, struct typed *t)
{
	struct sl_rotation_row r;
	r.ts = (uint64_t)sqlite3_column_int64(q, 0);
	st_col_text(q, 1, r.kind, sizeof(r.kind));
	r.cpu = sqlite3_column_int(q, 2);
	return t->rot(t->ctx, &r);
}

static int vlag_row(sqlite3_stmt *q, struct typed *t)
{
	struct sl_vlag_row r = { sqlite3_column_int64(q, 0), (uint64_t)sqlite3_column_int64(q, 1),
				 sqlite3_column_int64(q, 2) };
	return t->vlag(t->ctx, &r);
}

static int id_row(sqlite3_stmt *q, struct typed *t)
{
	if (sqlite3_column_type(q, 0) != SQLITE_NULL) {
		SL_GROW(t->ids, t->cap, t->n + 1);
		t->ids[t->n++] = sqlite3_column_int64(q, 0);
	}
	return 0;
}

/* The rows of a run's table kind handed to the row's own converter: from
 * its packs, else by SQL in rowid order (the order written). */
static int pack_stair(void *ctx, const int64_t *v, const char (*txt)[8])
{
	struct typed *t = ctx;
	struct sl_stair_row r = { v[1], (uint64_t)v[2], (int)v[3], (int)v[4] };
	(void)txt;
	return t->stair(t->ctx, &r);
}

static int pack_rot(void *ctx, const int64_t *v, const char (*txt)[8])
{
	struct typed *t = ctx;
	struct sl_rotation_row r;
	r.ts = (uint64_t)v[2];
	memcpy(r.kind, txt[3], sizeof(r.kind));
	r.cpu = (int)v[1];
	return t->rot(t->ctx, &r);
}

static int pack_vlag(void *ctx, const int64_t *v, const char (*txt)[8])
{
	struct typed *t = ctx;
	struct sl_vlag_row r = { v[1], (uint64_t)v[2], v[3] };
	(void)txt;
	return t->vlag(t->ctx, &r);
}

static int each_written(struct sl_store *s, int64_t run_id, int kind,
			int (*pack)(void *ctx, const int64_t *v, const char (*txt)[8]), const char *sql,
			int (*row)(sqlite3_stmt *q, struct typed *t), struct typed *t, struct sl_diag *d,
			const char *what)
{
	int rc = st_pack_read(s, run_id, kind, &t->want, pack, t, d);
	if (rc)
		return rc < 0 ? -1 : 0;
	return each_row(s, sql, &run_id, row, t, d, what);
}

int sl_store_stairs(struct sl_store *s, int64_t run_id,
		    int (*fn)(void *ctx, const struct sl_stair_row *r), void *ctx, struct sl_diag *d)
{
	struct typed t = { .ctx = ctx, .stair = fn };
	return each_written(s, run_id, RB_STAIR, pack_stair,
			    "SELECT utid, ts, level, array FROM staircase WHERE "
			    SL_RUN_ROWS("staircase", "?1") " ORDER BY rowid",
			    stair_row, &t, d, "loading staircase rows");
}

int sl_store_rotations(struct sl_store *s, int64_t run_id,
		       int (*fn)(void *ctx, const struct sl_rotation_row *r), void *ctx,
		       struct sl_diag *d)
{
	struct typed t = { .ctx = ctx, .rot = fn };
	return each_written(s, run_id, RB_ROT, pack_rot,
			    "SELECT ts, kind, cpu FROM rotation WHERE " SL_RUN_ROWS("rotation", "?1")
			    " ORDER BY rowid", rot_row, &t, d, "loading rotations");
}

int sl_store_vlags(struct sl_store *s, int64_t run_id,
		   int (*fn)(void *ctx, const struct sl_vlag_row *r), void *ctx, struct sl_diag *d)
{
	struct typed t = { .ctx = ctx, .vlag = fn };
	return each_written(s, run_id, RB_VLAG, pack_vlag,
			    "SELECT utid, ts, lag FROM vlag WHERE " SL_RUN_ROWS("vlag", "?1")
			    " ORDER BY rowid", vlag_row, &t, d, "loading vlag rows");
}

/* The ids sql lists, in *ids (malloc'd; NULL and 0 on error). */
static int ids_of(struct sl_store *s, const char *sql, const int64_t *param, int64_t **ids,
		  size_t *n, struct sl_diag *d, const char *what)
{
	struct typed t = { 0 };
	int rc = each_row(s, sql, param, id_row, &t, d, what);
	if (rc) {
		free(t.ids);
		t.ids = NULL;
		t.n = 0;
	}
	*ids = t.ids;
	*n = t.n;
	return rc;
}

int sl_store_latest_trace(struct sl_store *s, int64_t *id, struct sl_diag *d)
{
	int64_t *ids;
	size_t n;
	/* a recording before a workload (issue 25: after the README's tour the
	 * newest trace is its synthetic workload, not the demo's real trace) */
	int rc = ids_of(s,
			"SELECT COALESCE((SELECT MAX(id) FROM trace WHERE format <> 'workload'), "
			"(SELECT MAX(id) FROM trace))",
			NULL, &ids, &n, d, "looking up a trace");
	*id = n ? ids[0] : 0;
	free(ids);
	return rc;
}

const struct sl_thread_row *sl_run_thread(const struct sl_run_data *r, int64_t utid)
{
	size_t lo = 0, hi = r->nthreads;
	/* utids are mostly dense: the place utid - first is the one at once */
	if (hi && utid >= r->threads[0].utid && (uint64_t)(utid - r->threads[0].utid) < hi &&
	    r->threads[utid - r->threads[0].utid].utid == utid)
		return &r->threads[utid - r->threads[0].utid];
	/* threads are ordered by utid */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->threads[mid].utid < utid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->nthreads && r->threads[lo].utid == utid)
		return &r->threads[lo];
	return NULL;
}

int sl_store_recorded_run(struct sl_store *s, int64_t trace_id, int64_t *run_id, struct sl_diag *d)
{
	int64_t *ids;
	size_t n;
	int rc = ids_of(s, "SELECT MIN(id) FROM run WHERE trace_id = ?1 AND scheduler = 'recorded'",
			&trace_id, &ids, &n, d, "looking up the recorded run");
	*run_id = rc == 0 && n ? ids[0] : 0;
	free(ids);
	return rc;
}

int sl_store_trace_utids(struct sl_store *s, int64_t trace_id, int64_t **utids, size_t *n,
			 struct sl_diag *d)
{
	return ids_of(s, "SELECT utid FROM thread WHERE trace_id = ?1 ORDER BY utid", &trace_id, utids,
		      n, d, "listing threads");
}

int sl_store_list_runs(struct sl_store *s, int64_t trace_id, int64_t **ids, size_t *n,
		       struct sl_diag *d)
{
	return ids_of(s, trace_id > 0 ? "SELECT id FROM run WHERE trace_id = ?1 ORDER BY id"
				      : "SELECT id FROM run ORDER BY id",
		      trace_id > 0 ? &trace_id : NULL, ids, n, d, "listing runs");
}
