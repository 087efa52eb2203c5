/* analyze/store_write.c - a run's rows into the store: the run sink
 * (slices, wakeups, staircase, rotations, vlag) buffers rows per bind and
 * table, a writer thread inserts each stage of them with one statement
 * while the caller computes, and commit adds each run's run_rows and
 * task_stat. */
#include "store_int.h"
#include "wall.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *cols; /* the table's columns, in the stage's order */
	int ncol;
	unsigned txtmask; /* columns given as text */
	const char *table;
} rb_kind[RB_COUNT] = {
	{ "run_id, ts, dur, cpu, utid, end_state, priority", 7, 1u << 5, "sched_slice" },
	{ "run_id, utid, ts, ts_run, waker_utid, cpu", 6, 0, "wakeup" },
	{ "run_id, utid, ts, level, array", 5, 0, "staircase" },
	{ "run_id, cpu, ts, kind, level", 5, 1u << 3, "rotation" },
	{ "run_id, utid, ts, lag", 4, 0, "vlag" },
};

static int64_t bind_utid(const struct sl_store_bind *b, int task)
{
	if (task < 0)
		return -1;
	if (b->b)
		return (size_t)task < b->b->ntasks ? b->b->tasks[task].utid : -1;
	return b->utid_base + task;
}

/* ---- the stage being written, as a table ----------------------------------
 * sl_stage(c0, ..., c6) is an eponymous virtual table whose rows are the
 * stage flush_rows is writing (s->vt_rb, of kind s->vt_kind: its text
 * columns as text, NULL_VAL as NULL, the values every parameter binding
 * gave before): one INSERT INTO tbl SELECT ... FROM sl_stage puts a whole
 * stage in with one step, where bound parameters cost a bind call per
 * value and a multi-row VALUES a co-routine per row. */
struct stage_tab {
	sqlite3_vtab base;
	struct sl_store *s;
};

struct stage_cur {
	sqlite3_vtab_cursor base;
	int i;
};

static int stage_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
			 sqlite3_vtab **out, char **err)
{
	struct stage_tab *t;
	int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(c0, c1, c2, c3, c4, c5, c6)");
	(void)argc;
	(void)argv;
	(void)err;
	if (rc != SQLITE_OK)
		return rc;
	if (!(t = sqlite3_malloc(sizeof(*t))))
		return SQLITE_NOMEM;
	memset(t, 0, sizeof(*t));
	t->s = aux;
	*out = &t->base;
	return SQLITE_OK;
}

static int stage_disconnect(sqlite3_vtab *t)
{
	sqlite3_free(t);
	return SQLITE_OK;
}

static int stage_best_index(sqlite3_vtab *t, sqlite3_index_info *info)
{
	(void)t;
	info->estimatedCost = JOB;
	info->estimatedRows = JOB;
	return SQLITE_OK;
}

static int stage_open(sqlite3_vtab *t, sqlite3_vtab_cursor **out)
{
	struct stage_cur *c = sqlite3_malloc(sizeof(*c));
	(void)t;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	*out = &c->base;
	return SQLITE_OK;
}

static int stage_close(sqlite3_vtab_cursor *c)
{
	sqlite3_free(c);
	return SQLITE_OK;
}

static int stage_filter(sqlite3_vtab_cursor *c, int idx, const char *idxs, int argc,
			sqlite3_value **argv)
{
	(void)idx;
	(void)idxs;
	(void)argc;
	(void)argv;
	((struct stage_cur *)c)->i = 0;
	return SQLITE_OK;
}

static int stage_next(sqlite3_vtab_cursor *c)
{
	((struct stage_cur *)c)->i++;
	return SQLITE_OK;
}

static int stage_eof(sqlite3_vtab_cursor *c)
{
	const struct sl_store *s = ((struct stage_tab *)c->pVtab)->s;
	return !s->vt_rb || ((struct stage_cur *)c)->i >= s->vt_rb->n;
}

static int stage_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct sl_store *s = ((struct stage_tab *)cur->pVtab)->s;
	int i = ((struct stage_cur *)cur)->i;
	int64_t v;
	if (col >= rb_kind[s->vt_kind].ncol) {
		sqlite3_result_null(ctx);
	} else if (rb_kind[s->vt_kind].txtmask & (1u << col)) {
		sqlite3_result_text(ctx, s->vt_rb->txt[i][col], -1, SQLITE_STATIC);
	} else if ((v = s->vt_rb->v[i][col]) == NULL_VAL) {
		sqlite3_result_null(ctx);
	} else {
		sqlite3_result_int64(ctx, v);
	}
	return SQLITE_OK;
}

static int stage_rowid(sqlite3_vtab_cursor *c, sqlite3_int64 *rowid)
{
	*rowid = ((struct stage_cur *)c)->i;
	return SQLITE_OK;
}

static const sqlite3_module stage_module = {
	.xConnect = stage_connect,
	.xBestIndex = stage_best_index,
	.xDisconnect = stage_disconnect,
	.xOpen = stage_open,
	.xClose = stage_close,
	.xFilter = stage_filter,
	.xNext = stage_next,
	.xEof = stage_eof,
	.xColumn = stage_column,
	.xRowid = stage_rowid,
};

int st_stage_register(struct sl_store *s)
{
	return sqlite3_create_module(s->db, "sl_stage", &stage_module, s) == SQLITE_OK ? 0 : -1;
}

/* Insert the rows of rb (one statement), and pack them into enc (a chunk
 * goes to run_pack when full). */
static int flush_rows(struct sl_store *s, struct rowbuf *rb, int kind, struct rowstat *st,
		      struct packenc *enc, struct sl_diag *d)
{
	sqlite3_stmt *q = s->ins[kind];
	int r, rc;

	if (!rb->n)
		return 0;
	if (!q) {
		static const char cols[] = "c0, c1, c2, c3, c4, c5, c6";
		char sql[256];
		snprintf(sql, sizeof(sql), "INSERT INTO %s(%s) SELECT %.*s FROM sl_stage",
			 rb_kind[kind].table, rb_kind[kind].cols, 4 * rb_kind[kind].ncol - 2, cols);
		if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->ins[kind],
				       NULL) != SQLITE_OK)
			return st_dberr(s, d, "preparing a stage insert");
		q = s->ins[kind];
	}
	s->vt_rb = rb;
	s->vt_kind = kind;
	rc = sqlite3_step(q);
	s->vt_rb = NULL;
	if (rc != SQLITE_DONE) {
		st_dberr(s, d, "adding rows of a run");
		sqlite3_reset(q);
		return -1;
	}
	sqlite3_reset(q);
	{
		int64_t last = sqlite3_last_insert_rowid(s->db), first = last - rb->n + 1;
		if (!st->rows || first < st->lo)
			st->lo = first;
		if (!st->rows || last > st->hi)
			st->hi = last;
		st->rows += rb->n;
	}
	for (r = 0; r < rb->n; r++)
		st_pack_row(enc, kind, rb->v[r], (const char(*)[8])rb->txt[r]);
	rb->n = 0;
	return enc->rows >= PACK_ROWS ? st_pack_flush(s, enc, kind, d) : 0;
}

/* Where the rows of run_id in each table are (see run_rows in schema.sql). */
static int put_ranges(struct sl_store *s, int64_t run_id, const struct rowstat *st,
		      struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s,
			       "INSERT OR REPLACE INTO run_rows(run_id, tbl, first_rowid, last_rowid, rows)"
			       " VALUES (?,?,?,?,?)",
			       d);
	int k;
	if (!q)
		return -1;
	for (k = 0; k < RB_COUNT; k++) {
		sqlite3_bind_int64(q, 1, run_id);
		sqlite3_bind_text(q, 2, rb_kind[k].table, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 3, st[k].rows ? st[k].lo : 1);
		sqlite3_bind_int64(q, 4, st[k].rows ? st[k].hi : 0);
		sqlite3_bind_int64(q, 5, st[k].rows);
		if (st_step_done(s, q, d, "adding run_rows")) {
			sqlite3_finalize(q);
			return -1;
		}
	}
	sqlite3_finalize(q);
	return 0;
}

/* ---- the writer thread ---------------------------------------------------- */

/* The writer starts the write-back of what SQLite wrote to the file every
 * WB_JOBS jobs (16k rows, about 1 MB of pages; st_writeback) */
#define WB_JOBS 16

static void *writer_main(void *arg)
{
	struct sl_store *s = arg;
	pthread_mutex_lock(&s->mu);
	for (;;) {
		struct job j;
		struct sl_diag wd;
		int failed = 0;
		while (!s->stop && !s->qlen)
			pthread_cond_wait(&s->work, &s->mu);
		if (!s->qlen)
			break;
		j = s->q[s->qhead];
		s->qhead = (s->qhead + 1) % QUEUE;
		s->qlen--;
		s->busy = 1;
		if (!s->werr) {
			pthread_mutex_unlock(&s->mu);
			memset(&wd, 0, sizeof(wd));
			failed = flush_rows(s, j.rb, j.kind, j.stat, j.enc, &wd) < 0;
			if (++s->wbjobs == WB_JOBS) {
				s->wbjobs = 0;
				st_writeback(s);
			}
			pthread_mutex_lock(&s->mu);
			if (failed) {
				s->werr = 1;
				memcpy(s->werrmsg, wd.msg, sizeof(s->werrmsg));
			}
		}
		j.rb->n = 0;
		if (s->nspare < (int)SL_ARRAY_SIZE(s->spare))
			s->spare[s->nspare++] = j.rb;
		else
			free(j.rb);
		s->busy = 0;
		pthread_cond_broadcast(&s->idle);
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

/* Wait until the writer has nothing queued or running. 0, or -1 (d set
 * when given) if it failed since the last rollback. */
int st_quiesce(struct sl_store *s, struct sl_diag *d)
{
	int err;
	if (!s->have_thr)
		return s->werr ? sl_fail(d, "%s", s->werrmsg) : 0;
	pthread_mutex_lock(&s->mu);
	while (s->qlen || s->busy)
		pthread_cond_wait(&s->idle, &s->mu);
	err = s->werr;
	pthread_mutex_unlock(&s->mu);
	return err ? sl_fail(d, "%s", s->werrmsg) : 0;
}

/* Hand a stage of rows to the writer (or write it here when there is no
 * thread); returns an empty stage to fill next. NULL with d set when rows
 * can no longer be written. */
static struct rowbuf *submit(struct sl_store *s, struct rowbuf *rb, int kind, struct rowstat *st,
			     struct packenc *enc, struct sl_diag *d)
{
	struct rowbuf *fresh;
	if (!s->have_thr && !s->werr) {
		if (pthread_create(&s->thr, NULL, writer_main, s) == 0)
			s->have_thr = 1;
	}
	if (!s->have_thr) {
		if (s->werr)
			return sl_fail(d, "%s", s->werrmsg), NULL;
		if (flush_rows(s, rb, kind, st, enc, d) < 0)
			return NULL;
		return rb;
	}
	pthread_mutex_lock(&s->mu);
	while (s->qlen == QUEUE)
		pthread_cond_wait(&s->idle, &s->mu);
	if (s->werr) {
		pthread_mutex_unlock(&s->mu);
		sl_fail(d, "%s", s->werrmsg);
		return NULL;
	}
	s->q[(s->qhead + s->qlen) % QUEUE] = (struct job){ rb, st, enc, kind };
	s->qlen++;
	pthread_cond_signal(&s->work);
	fresh = s->nspare ? s->spare[--s->nspare] : NULL;
	pthread_mutex_unlock(&s->mu);
	if (!fresh)
		fresh = xmalloc(sizeof(*fresh));
	fresh->n = 0;
	return fresh;
}

/* The pending rows of a bind (allocated on first use, registered with the
 * store so that commit flushes them). */
static struct pend *pending(struct sl_store_bind *b)
{
	struct pend *p = b->pend;
	int i;
	if (!p) {
		p = b->pend = xcalloc(1, sizeof(*p));
		for (i = 0; i < MAX_BINDS; i++)
			if (!b->s->binds[i]) {
				b->s->binds[i] = b;
				break;
			}
		if (i == MAX_BINDS)
			abort(); /* more than MAX_BINDS runs written in one transaction */
	}
	return p;
}

/* A new row of the given kind for bind b: its values, and its (first) text
 * column in *txt (up to 7 chars). */
static int64_t *add_row(struct sl_store_bind *b, int kind, char **txt)
{
	struct pend *p = pending(b);
	struct rowbuf *rb = p->stage[kind];
	if (!rb) {
		rb = p->stage[kind] = xmalloc(sizeof(*rb));
		rb->n = 0;
	} else if (rb->n == JOB) {
		rb = submit(b->s, rb, kind, &p->stat[kind], &p->enc[kind], b->d);
		if (!rb) {
			p->stage[kind] = NULL;
			return NULL;
		}
		p->stage[kind] = rb;
	}
	b->rows++;
	*txt = rb->txt[rb->n][rb_kind[kind].txtmask ? __builtin_ctz(rb_kind[kind].txtmask) : 0];
	return rb->v[rb->n++];
}

/* The task_stat rows of bind b's run: one per task with a slice or a
 * wakeup (the tasks with no thread row, utid < 0, are left out as the
 * view's join would). */
static int put_task_stats(struct sl_store *s, struct sl_store_bind *b, const struct pend *p,
			  struct sl_diag *d)
{
	sqlite3_stmt *q;
	size_t i;
	if (!p->nts)
		return 0;
	q = st_prep(s,
		    "INSERT INTO task_stat(run_id, utid, runtime_ns, switches, wakeups, delayed,"
		    " delay_sum_ns, max_delay_ns, uncertain_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		    d);
	if (!q)
		return -1;
	for (i = 0; i < p->nts; i++) {
		const struct tstat *t = &p->ts[i];
		int64_t utid;
		if (!t->switches && !t->wakeups && !t->uncertain)
			continue;
		utid = bind_utid(b, (int)i);
		if (utid < 0)
			continue;
		sqlite3_bind_int64(q, 1, b->run_id);
		sqlite3_bind_int64(q, 2, utid);
		sqlite3_bind_int64(q, 3, t->runtime);
		sqlite3_bind_int64(q, 4, t->switches);
		sqlite3_bind_int64(q, 5, t->wakeups);
		sqlite3_bind_int64(q, 6, t->delayed);
		sqlite3_bind_int64(q, 7, t->dsum);
		if (t->delayed)
			sqlite3_bind_int64(q, 8, t->dmax);
		else
			sqlite3_bind_null(q, 8);
		sqlite3_bind_int64(q, 9, t->uncertain);
		if (st_step_done(s, q, d, "adding task_stat")) {
			sqlite3_finalize(q);
			return -1;
		}
	}
	sqlite3_finalize(q);
	return 0;
}

int st_flush_binds(struct sl_store *s, struct sl_diag *d)
{
	int i, k, rc = 0;
	if (st_quiesce(s, d))
		return -1;
	for (i = 0; i < MAX_BINDS && !rc; i++) {
		struct sl_store_bind *b = s->binds[i];
		struct pend *p;
		if (!b)
			continue;
		p = b->pend;
		for (k = 0; k < RB_COUNT && !rc; k++)
			if (p->stage[k])
				rc = flush_rows(s, p->stage[k], k, &p->stat[k], &p->enc[k], d);
		for (k = 0; k < RB_COUNT && !rc; k++)
			rc = st_pack_flush(s, &p->enc[k], k, d);
		if (!rc)
			rc = put_ranges(s, b->run_id, p->stat, d);
		if (!rc)
			rc = put_task_stats(s, b, p, d);
	}
	st_drop_binds(s);
	return rc;
}

void st_drop_binds(struct sl_store *s)
{
	int i, k;
	for (i = 0; i < MAX_BINDS; i++)
		if (s->binds[i]) {
			struct pend *p = s->binds[i]->pend;
			for (k = 0; p && k < RB_COUNT; k++) {
				free(p->stage[k]);
				st_pack_free(&p->enc[k]);
			}
			if (p)
				free(p->ts);
			free(p);
			s->binds[i]->pend = NULL;
			s->binds[i] = NULL;
		}
}

static int64_t i64(uint64_t v)
{
	return (int64_t)v;
}

/* The task_stat sums of a task of bind b (NULL for no task). */
static struct tstat *tstat_of(struct sl_store_bind *b, int task)
{
	struct pend *p = b->pend;
	if (task < 0 || !p)
		return NULL;
	if ((size_t)task >= p->nts) {
		size_t n = p->nts ? p->nts : 64;
		while (n <= (size_t)task)
			n *= 2;
		p->ts = xrealloc(p->ts, n * sizeof(*p->ts));
		memset(p->ts + p->nts, 0, (n - p->nts) * sizeof(*p->ts));
		p->nts = n;
	}
	return &p->ts[task];
}

void sl_store_bind_uncertain(struct sl_store_bind *b, int task, uint64_t ns)
{
	struct tstat *t = tstat_of(b, task);
	if (t)
		t->uncertain = (int64_t)ns;
}

/* The row v (end_state its text) as the store reads it back: a packed
 * slice (store_load.c, slice_of_pack). */
static void keep_slice(struct sl_store_bind *b, const int64_t *v, char end_state)
{
	struct sl_run_data *k = b->keep;
	struct sl_slice_row *r;
	SL_GROW(k->slices, b->keepcap, k->nslices + 1);
	r = &k->slices[k->nslices++];
	r->ts = (uint64_t)v[1];
	r->dur = (uint64_t)v[2];
	r->cpu = (int)v[3];
	r->utid = (int32_t)v[4];
	r->end_state = end_state ? (unsigned char)end_state : '?';
	r->priority = (int)v[6];
}

/* A row at ts on cpu: the bind's first on that CPU? (track_cpus) */
static void note_cpu(struct sl_store_bind *b, int64_t cpu, int64_t ts)
{
	if (cpu < 0)
		return;
	if ((size_t)cpu >= b->ncpu_first) {
		size_t n = b->ncpu_first ? b->ncpu_first : 8, i;
		while (n <= (size_t)cpu)
			n *= 2;
		b->cpu_first = xrealloc(b->cpu_first, n * sizeof(*b->cpu_first));
		for (i = b->ncpu_first; i < n; i++)
			b->cpu_first[i] = UINT64_MAX;
		b->ncpu_first = n;
	}
	if ((uint64_t)ts < b->cpu_first[cpu])
		b->cpu_first[cpu] = (uint64_t)ts;
}

static int sink_slice(void *ctx, uint64_t ts, uint64_t dur, int cpu, int task, char end_state,
		      int priority)
{
	struct sl_store_bind *b = ctx;
	struct tstat *t;
	char *txt;
	int64_t *v = add_row(b, RB_SLICE, &txt);
	if (!v)
		return -1;
	if ((t = tstat_of(b, task))) {
		t->runtime += i64(dur);
		t->switches++;
	}
	v[0] = b->run_id;
	v[1] = i64(ts + b->ts_offset);
	v[2] = i64(dur);
	v[3] = cpu;
	v[4] = bind_utid(b, task);
	txt[0] = end_state;
	txt[1] = 0;
	v[6] = priority;
	if (b->keep)
		keep_slice(b, v, end_state);
	if (b->polls && end_state == 'R') {
		struct sl_poll_obs *o = b->polls;
		SL_GROW(o->r, o->rcap, o->nr + 1);
		o->r[o->nr].ts = ts + dur;
		o->r[o->nr].cpu = cpu;
		o->r[o->nr++].task = task;
	}
	if (b->wall)
		sl_wall_obs_slice(b->wall, task, ts, dur, end_state);
	if (b->track_cpus)
		note_cpu(b, cpu, v[1]);
	return 0;
}

static int sink_wakeup(void *ctx, int task, uint64_t ts, uint64_t ts_run, int waker, int cpu)
{
	struct sl_store_bind *b = ctx;
	struct tstat *t;
	char *txt;
	int64_t *v = add_row(b, RB_WAKEUP, &txt);
	if (!v)
		return -1;
	if ((t = tstat_of(b, task))) {
		t->wakeups++;
		if (ts_run != UINT64_MAX) {
			int64_t delay = i64(ts_run) - i64(ts);
			if (!t->delayed || delay > t->dmax)
				t->dmax = delay;
			t->delayed++;
			t->dsum += delay;
		}
	}
	v[0] = b->run_id;
	v[1] = bind_utid(b, task);
	v[2] = i64(ts + b->ts_offset);
	v[3] = ts_run != UINT64_MAX ? i64(ts_run + b->ts_offset) : NULL_VAL;
	v[4] = waker >= 0 ? bind_utid(b, waker) : NULL_VAL;
	v[5] = cpu >= 0 ? cpu : NULL_VAL;
	if (b->track_cpus)
		note_cpu(b, cpu, v[2]);
	if (b->polls) {
		struct sl_poll_obs *o = b->polls;
		SL_GROW(o->wk, o->wcap, o->nw + 1);
		o->wk[o->nw++] = ts;
	}
	return 0;
}

void sl_poll_obs_release(struct sl_poll_obs *o)
{
	free(o->r);
	free(o->wk);
	memset(o, 0, sizeof(*o));
}

static int sink_stair(void *ctx, int task, uint64_t ts, int level, int array)
{
	struct sl_store_bind *b = ctx;
	char *txt;
	int64_t *v = add_row(b, RB_STAIR, &txt);
	if (!v)
		return -1;
	v[0] = b->run_id;
	v[1] = bind_utid(b, task);
	v[2] = i64(ts + b->ts_offset);
	v[3] = level;
	v[4] = array;
	return 0;
}

static int sink_rotation(void *ctx, int cpu, uint64_t ts, const char *kind, int level)
{
	struct sl_store_bind *b = ctx;
	char *txt;
	int64_t *v = add_row(b, RB_ROT, &txt);
	if (!v)
		return -1;
	v[0] = b->run_id;
	v[1] = cpu;
	v[2] = i64(ts + b->ts_offset);
	snprintf(txt, 8, "%s", kind);
	v[4] = level;
	return 0;
}

static int sink_vlag(void *ctx, int task, uint64_t ts, int64_t lag_ns)
{
	struct sl_store_bind *b = ctx;
	char *txt;
	int64_t *v = add_row(b, RB_VLAG, &txt);
	if (!v)
		return -1;
	v[0] = b->run_id;
	v[1] = bind_utid(b, task);
	v[2] = i64(ts + b->ts_offset);
	v[3] = lag_ns;
	return 0;
}

void sl_store_run_sink(struct sl_store_bind *bind, struct sl_run_sink *sink)
{
	bind->pend = NULL;
	sink->ctx = bind;
	sink->slice = sink_slice;
	sink->wakeup = sink_wakeup;
	sink->staircase = sink_stair;
	sink->rotation = sink_rotation;
	sink->vlag = sink_vlag;
}

/* End the writer thread (after its queue is done). A transaction's end
 * ends it: the process then has no other thread, so that a reader may fork
 * (a child forked while another thread holds an allocator lock, ASan's for
 * one, inherits the lock held and hangs). */
void st_stop_writer(struct sl_store *s)
{
	if (!s->have_thr)
		return;
	pthread_mutex_lock(&s->mu);
	s->stop = 1;
	pthread_cond_signal(&s->work);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->thr, NULL);
	s->have_thr = 0;
	s->stop = 0;
}
