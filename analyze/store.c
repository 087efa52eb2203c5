/* analyze/store.c - the SQLite store; the only file that includes sqlite3.h.
 * See store.h for the contract and schema.sql for the tables. */
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char schema_sql[] =
#include "schema.inc"
	;

enum {
	ST_SLICE,
	ST_WAKEUP,
	ST_STAIR,
	ST_ROTATION,
	ST_VLAG,
	ST_METRIC,
	ST_THREAD,
	ST_MODEL,
	ST_COUNT
};

static const char *const stmt_sql[ST_COUNT] = {
	"INSERT INTO sched_slice(run_id, ts, dur, cpu, utid, end_state, priority) VALUES (?,?,?,?,?,?,?)",
	"INSERT INTO wakeup(run_id, utid, ts, ts_run, waker_utid, cpu) VALUES (?,?,?,?,?,?)",
	"INSERT INTO staircase(run_id, utid, ts, level, array) VALUES (?,?,?,?,?)",
	"INSERT INTO rotation(run_id, cpu, ts, kind, level) VALUES (?,?,?,?,?)",
	"INSERT INTO vlag(run_id, utid, ts, lag) VALUES (?,?,?,?)",
	"INSERT INTO metric(run_id, utid, name, value) VALUES (?,?,?,?)",
	"INSERT INTO thread(utid, trace_id, tid, tgid, comm, nice, policy, rt_priority, first_ts, last_ts)"
	" VALUES (?,?,?,?,?,?,?,?,?,?)",
	"INSERT INTO task_model(utid, start_ns, parent_utid, parent_progress_ns, flags, cpumask,"
	" initially_runnable, run_ns, sleep_ns, count, phases) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
};

/* Rows of a run are buffered per bind and inserted BATCH at a time with
 * one multi-row INSERT (a large share of an import's time is SQLite's
 * per-statement work); what is left goes in one row at a time at commit. */
#define BATCH 64
#define MAX_BINDS 8
#define NULL_VAL INT64_MIN

enum { RB_SLICE, RB_WAKEUP, RB_STAIR, RB_ROT, RB_VLAG, RB_COUNT };
#define MAX_COLS 7

static const struct {
	int stmt;      /* single-row statement */
	const char *head; /* multi-row INSERT up to VALUES */
	int ncol;
	unsigned txtmask; /* columns bound as text */
	const char *table;
} rb_kind[RB_COUNT] = {
	{ ST_SLICE, "INSERT INTO sched_slice(run_id, ts, dur, cpu, utid, end_state, priority) VALUES ", 7,
	  1u << 5, "sched_slice" },
	{ ST_WAKEUP, "INSERT INTO wakeup(run_id, utid, ts, ts_run, waker_utid, cpu) VALUES ", 6, 0,
	  "wakeup" },
	{ ST_STAIR, "INSERT INTO staircase(run_id, utid, ts, level, array) VALUES ", 5, 0, "staircase" },
	{ ST_ROTATION, "INSERT INTO rotation(run_id, cpu, ts, kind, level) VALUES ", 5, 1u << 3,
	  "rotation" },
	{ ST_VLAG, "INSERT INTO vlag(run_id, utid, ts, lag) VALUES ", 4, 0, "vlag" },
};

/* Rows of a run are staged JOB rows at a time; a full stage goes to the
 * writer thread, which inserts it BATCH rows per statement while the caller
 * goes on computing (an import's decoding or a replay's engine). The
 * connection is never used by two threads at once: every other use of it
 * first waits for the writer to be idle (quiesce). */
#define JOB (16 * BATCH)
#define QUEUE 8

struct rowbuf {
	int n;
	int64_t v[JOB][MAX_COLS];
	char txt[JOB][MAX_COLS][8];
};

/* rowids a run has written to one table so far (for run_rows) */
struct rowstat {
	int64_t lo, hi, rows;
};

/* A task's sums for task_stat (indexed by the sink's task number). */
struct tstat {
	int64_t runtime, switches, wakeups, delayed, dsum, dmax;
};

/* what a bind has pending: a stage per table, its row ranges, its tasks' sums */
struct pend {
	struct rowbuf *stage[RB_COUNT];
	struct rowstat stat[RB_COUNT];
	struct tstat *ts;
	size_t nts;
};

struct job {
	struct rowbuf *rb;
	struct rowstat *stat;
	int kind;
};

struct sl_store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *st[ST_COUNT];
	sqlite3_stmt *multi[RB_COUNT];
	struct sl_store_bind *binds[MAX_BINDS];
	int in_tx;
	/* the writer thread */
	pthread_t thr;
	int have_thr, stop, busy;
	pthread_mutex_t mu;
	pthread_cond_t work, idle;
	struct job q[QUEUE];
	int qhead, qlen;
	struct rowbuf *spare[QUEUE + 2];
	int nspare;
	int werr;              /* the writer failed: werrmsg; later rows are dropped */
	char werrmsg[512];
};

static int flush_rows(struct sl_store *s, struct rowbuf *rb, int kind, struct rowstat *st,
		      struct sl_diag *d);
static int quiesce(struct sl_store *s, struct sl_diag *d);

static int dberr(struct sl_store *s, struct sl_diag *d, const char *what)
{
	return sl_fail(d, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

static int exec(struct sl_store *s, const char *sql, struct sl_diag *d)
{
	char *msg = NULL;
	quiesce(s, NULL);
	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		sl_fail(d, "%s: %s", s->path, msg ? msg : "SQL error");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int user_version(struct sl_store *s, int *v, struct sl_diag *d)
{
	sqlite3_stmt *q;
	int rc;
	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &q, NULL) != SQLITE_OK)
		return dberr(s, d, "not a schedlab database");
	rc = sqlite3_step(q);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(q);
		return dberr(s, d, "not a schedlab database");
	}
	*v = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	return 0;
}

static int table_count(struct sl_store *s, int *n, struct sl_diag *d)
{
	sqlite3_stmt *q;
	if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &q, NULL) !=
	    SQLITE_OK)
		return dberr(s, d, "not a database (or corrupt)");
	if (sqlite3_step(q) != SQLITE_ROW) {
		sqlite3_finalize(q);
		return dberr(s, d, "not a database (or corrupt)");
	}
	*n = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	return 0;
}

/* Upgrade a version `from` database to from + 1 in one transaction: the
 * statements pre, the current schema (its new tables and views), then the
 * statements sql. Nothing changes if any of it fails. */
static int migrate(struct sl_store *s, int from, const char *pre, const char *sql,
		   struct sl_diag *d)
{
	char pragma[64];
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", from + 1);
	if (exec(s, "BEGIN IMMEDIATE", d))
		return -1;
	if (exec(s, pre, d) || exec(s, schema_sql, d) || exec(s, sql, d) || exec(s, pragma, d) ||
	    exec(s, "COMMIT", d)) {
		char why[512];
		snprintf(why, sizeof(why), "%s", d->msg);
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return sl_fail(d, "cannot upgrade a version %d database: %s", from, why);
	}
	return 0;
}

/* Schema 1 -> 2: bursts move into task_model.phases (view burst keeps
 * the old shape), run_rows is new, and the run_id indexes go. Runs of a
 * version 1 database have no run_rows: they are read by run_id (scans). */
static const char migrate_v1_sql[] =
	"ALTER TABLE task_model ADD COLUMN phases TEXT NOT NULL DEFAULT '[]';"
	"UPDATE task_model SET phases = COALESCE((SELECT json_group_array(json_array("
	" run_ns, sleep_ns, end_state, waker_kind, waker_utid, waker_progress_ns, pipe, lost))"
	" FROM (SELECT * FROM burst b WHERE b.utid = task_model.utid ORDER BY seq)), '[]');"
	"DROP TABLE burst;"
	"DROP INDEX IF EXISTS sched_slice_run;"
	"DROP INDEX IF EXISTS wakeup_run;"
	"DROP INDEX IF EXISTS staircase_run;"
	"DROP INDEX IF EXISTS rotation_run;";

/* Schema 3 -> 4: the vlag table is new (the schema's CREATE TABLE makes it);
 * older runs have none. */

/* Schema 2 -> 3: task_stat holds each run's per-task sums, computed here
 * once from the rows (the same aggregates the old task_summary view
 * computed on every query), and task_summary reads it (the old view is
 * dropped first so that the schema's CREATE VIEW makes the new one). */
static const char migrate_v2_sql[] =
	"INSERT INTO task_stat "
	"SELECT run_id, utid, SUM(rt), SUM(sw), SUM(wk), SUM(dn), SUM(ds), MAX(dm) FROM ("
	" SELECT run_id, utid, SUM(dur) AS rt, COUNT(*) AS sw, 0 AS wk, 0 AS dn, 0 AS ds,"
	"  NULL AS dm FROM sched_slice GROUP BY run_id, utid"
	" UNION ALL"
	" SELECT run_id, utid, 0, 0, COUNT(*), COUNT(ts_run), COALESCE(SUM(ts_run - ts), 0),"
	"  MAX(ts_run - ts) FROM wakeup GROUP BY run_id, utid)"
	" GROUP BY run_id, utid;";

/* Schema 4 -> 5: the recording kernel's release (schedlab validate picks
 * its model); NULL for the traces imported before (validate reads it from
 * the file when it is still there). Added before the schema runs, whose
 * CREATE TABLE IF NOT EXISTS leaves an existing trace table as it is. */
static const char migrate_v4_sql[] = "ALTER TABLE trace ADD COLUMN kernel_release TEXT;";

int sl_store_open(const char *path, int create, struct sl_store **out, struct sl_diag *d)
{
	struct sl_store *s;
	struct stat sb;
	int v = 0, ntab = 0, i, flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;

	*out = NULL;
	if (stat(path, &sb) != 0) {
		if (!create)
			return sl_fail(d, "%s: no such database (import a trace first)", path);
		flags |= SQLITE_OPEN_CREATE;
	} else if (!S_ISREG(sb.st_mode)) {
		return sl_fail(d, "%s: not a regular file", path);
	}
	s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(path);
	pthread_mutex_init(&s->mu, NULL);
	pthread_cond_init(&s->work, NULL);
	pthread_cond_init(&s->idle, NULL);
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		sl_fail(d, "%s: cannot open database: %s", path,
			s->db ? sqlite3_errmsg(s->db) : "out of memory");
		sl_store_close(s);
		return -1;
	}
	sqlite3_busy_timeout(s->db, 5000);
	if (table_count(s, &ntab, d) || user_version(s, &v, d)) {
		sl_store_close(s);
		return -1;
	}
	if (v > SL_SCHEMA_VERSION) {
		sl_fail(d, "%s: database schema version %d is newer than this schedlab's (%d); "
			   "use a newer schedlab",
			path, v, SL_SCHEMA_VERSION);
		sl_store_close(s);
		return -1;
	}
	if (v == 0 && ntab > 0) {
		sl_fail(d, "%s: not a schedlab database (it has other tables)", path);
		sl_store_close(s);
		return -1;
	}
	if (v == 0) {
		char pragma[64];
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", SL_SCHEMA_VERSION);
		if (exec(s, "BEGIN", d) || exec(s, schema_sql, d) || exec(s, pragma, d) ||
		    exec(s, "COMMIT", d)) {
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			sl_store_close(s);
			return -1;
		}
	}
	if ((v == 1 && migrate(s, 1, migrate_v1_sql, "", d)) ||
	    ((v == 1 || v == 2) && migrate(s, 2, "DROP VIEW IF EXISTS task_summary", migrate_v2_sql, d)) ||
	    (v >= 1 && v <= 3 && migrate(s, 3, "", "", d)) ||
	    (v >= 1 && v <= 4 && migrate(s, 4, migrate_v4_sql, "", d))) {
		sl_store_close(s);
		return -1;
	}
	/* a rollback journal: an import or replay only appends pages, which it
	 * does not journal, where WAL writes every page twice */
	exec(s, "PRAGMA journal_mode = DELETE", NULL);
	exec(s, "PRAGMA synchronous = NORMAL", NULL);
	exec(s, "PRAGMA cache_size = -65536", NULL); /* 64 MiB */
	for (i = 0; i < ST_COUNT; i++)
		if (sqlite3_prepare_v3(s->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
				       NULL) != SQLITE_OK) {
			dberr(s, d, "preparing statements");
			sl_store_close(s);
			return -1;
		}
	*out = s;
	return 0;
}

/* End the writer thread (after its queue is done). A transaction's end
 * ends it: the process then has no other thread, so that a reader may fork
 * (a child forked while another thread holds an allocator lock, ASan's for
 * one, inherits the lock held and hangs). */
static void stop_writer(struct sl_store *s)
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

void sl_store_close(struct sl_store *s)
{
	int i;
	if (!s)
		return;
	if (s->in_tx)
		sl_store_rollback(s);
	stop_writer(s);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->work);
	pthread_cond_destroy(&s->idle);
	for (i = 0; i < s->nspare; i++)
		free(s->spare[i]);
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->st[i]);
	for (i = 0; i < RB_COUNT; i++)
		sqlite3_finalize(s->multi[i]);
	if (s->db)
		sqlite3_close(s->db);
	free(s->path);
	free(s);
}

int sl_store_begin(struct sl_store *s, struct sl_diag *d)
{
	if (exec(s, "BEGIN IMMEDIATE", d))
		return -1;
	s->in_tx = 1;
	return 0;
}

static int flush_binds(struct sl_store *s, struct sl_diag *d);
static void drop_binds(struct sl_store *s);

int sl_store_commit(struct sl_store *s, struct sl_diag *d)
{
	if (flush_binds(s, d)) {
		sl_store_rollback(s);
		return -1;
	}
	stop_writer(s);
	if (exec(s, "COMMIT", d)) {
		sl_store_rollback(s);
		return -1;
	}
	s->in_tx = 0;
	return 0;
}

void sl_store_rollback(struct sl_store *s)
{
	quiesce(s, NULL);
	stop_writer(s);
	drop_binds(s);
	s->werr = 0;
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	s->in_tx = 0;
}

/* step an insert/update statement with its bindings, then reset it */
static int step_done(struct sl_store *s, sqlite3_stmt *q, struct sl_diag *d, const char *what)
{
	int rc = sqlite3_step(q);
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	if (rc != SQLITE_DONE)
		return dberr(s, d, what);
	return 0;
}

static sqlite3_stmt *prep(struct sl_store *s, const char *sql, struct sl_diag *d)
{
	sqlite3_stmt *q = NULL;
	quiesce(s, NULL);
	if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK) {
		dberr(s, d, "query");
		return NULL;
	}
	return q;
}

/* Step a one-off statement to completion and finalize it. */
static int run_once(struct sl_store *s, sqlite3_stmt *q, struct sl_diag *d, const char *what)
{
	int rc = sqlite3_step(q);
	if (rc != SQLITE_DONE) {
		dberr(s, d, what);
		sqlite3_finalize(q);
		return -1;
	}
	sqlite3_finalize(q);
	return 0;
}

/* Prepare sql with ?1 = id and step to its row: the statement, or NULL with
 * d set ("no KIND with id N" when there is no such row). */
static sqlite3_stmt *row_by_id(struct sl_store *s, const char *sql, int64_t id, const char *kind,
			       struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s, sql, d);
	int rc;
	if (!q)
		return NULL;
	sqlite3_bind_int64(q, 1, id);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		return q;
	if (rc == SQLITE_DONE)
		sl_fail(d, "%s: no %s with id %" PRId64, s->path, kind, id);
	else
		dberr(s, d, kind);
	sqlite3_finalize(q);
	return NULL;
}

static void bind_u64(sqlite3_stmt *q, int i, uint64_t v)
{
	sqlite3_bind_int64(q, i, (sqlite3_int64)v);
}

int sl_store_trace_by_sha(struct sl_store *s, const char *sha, int64_t *id, struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s, "SELECT id FROM trace WHERE sha256 = ?", d);
	int rc;
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, sha, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		*id = sqlite3_column_int64(q, 0);
		rc = 1;
	} else if (rc == SQLITE_DONE) {
		rc = 0;
	} else {
		rc = dberr(s, d, "looking up a trace");
	}
	sqlite3_finalize(q);
	return rc;
}

int sl_store_add_trace(struct sl_store *s, const struct sl_trace_info *t, int64_t *id,
		       struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s,
			       "INSERT INTO trace(path, sha256, format, cpus, first_ts, last_ts,"
			       " events, lost_events, kernel_release) VALUES (?,?,?,?,?,?,?,?,?)",
			       d);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, t->path, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, t->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, t->format, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 4, t->cpus);
	bind_u64(q, 5, t->first_ts);
	bind_u64(q, 6, t->last_ts);
	bind_u64(q, 7, t->events);
	bind_u64(q, 8, t->lost_events);
	if (t->kernel_release[0])
		sqlite3_bind_text(q, 9, t->kernel_release, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, 9);
	if (run_once(s, q, d, "adding a trace"))
		return -1;
	*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int sl_store_update_trace(struct sl_store *s, const struct sl_trace_info *t, struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s,
			       "UPDATE trace SET cpus = ?, first_ts = ?, last_ts = ?, events = ?,"
			       " lost_events = ?, sha256 = ? WHERE id = ?",
			       d);
	if (!q)
		return -1;
	sqlite3_bind_int(q, 1, t->cpus);
	bind_u64(q, 2, t->first_ts);
	bind_u64(q, 3, t->last_ts);
	bind_u64(q, 4, t->events);
	bind_u64(q, 5, t->lost_events);
	sqlite3_bind_text(q, 6, t->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 7, t->id);
	if (run_once(s, q, d, "updating a trace"))
		return -1;
	return 0;
}

static void col_text(sqlite3_stmt *q, int i, char *dst, size_t n)
{
	const unsigned char *t = sqlite3_column_text(q, i);
	snprintf(dst, n, "%s", t ? (const char *)t : "");
}

int sl_store_get_trace(struct sl_store *s, int64_t id, struct sl_trace_info *t, struct sl_diag *d)
{
	sqlite3_stmt *q = row_by_id(s,
				    "SELECT id, path, sha256, format, cpus, first_ts, last_ts, events,"
				    " lost_events, kernel_release FROM trace WHERE id = ?",
				    id, "trace", d);
	if (!q)
		return -1;
	memset(t, 0, sizeof(*t));
	t->id = sqlite3_column_int64(q, 0);
	col_text(q, 1, t->path, sizeof(t->path));
	col_text(q, 2, t->sha256, sizeof(t->sha256));
	col_text(q, 3, t->format, sizeof(t->format));
	t->cpus = sqlite3_column_int(q, 4);
	t->first_ts = (uint64_t)sqlite3_column_int64(q, 5);
	t->last_ts = (uint64_t)sqlite3_column_int64(q, 6);
	t->events = (uint64_t)sqlite3_column_int64(q, 7);
	t->lost_events = (uint64_t)sqlite3_column_int64(q, 8);
	col_text(q, 9, t->kernel_release, sizeof(t->kernel_release));
	sqlite3_finalize(q);
	return 0;
}

int sl_store_set_trace_release(struct sl_store *s, int64_t id, const char *release,
			       struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s, "UPDATE trace SET kernel_release = ? WHERE id = ?", d);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, release, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, id);
	return run_once(s, q, d, "setting a trace's kernel release");
}

int sl_store_add_lost(struct sl_store *s, int64_t trace_id, int cpu, uint64_t lost,
		      struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s, "INSERT INTO trace_cpu(trace_id, cpu, lost_events) VALUES (?,?,?)", d);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, trace_id);
	sqlite3_bind_int(q, 2, cpu);
	bind_u64(q, 3, lost);
	if (run_once(s, q, d, "adding lost events"))
		return -1;
	return 0;
}

int64_t sl_store_next_utid(struct sl_store *s)
{
	sqlite3_stmt *q = prep(s, "SELECT COALESCE(MAX(utid), 0) + 1 FROM thread", NULL);
	int64_t v = 1;
	if (!q)
		return 1;
	if (sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

/* enum values <-> the names stored in the database (index 0 = default) */
static const char *const policy_names[] = { [SL_SCHED_NORMAL] = "normal", [SL_SCHED_FIFO] = "fifo",
					    [SL_SCHED_RR] = "rr", [SL_SCHED_BATCH] = "batch" };
static const char *const waker_names[] = { [SL_WAKER_NONE] = "none", [SL_WAKER_TASK] = "task",
					   [SL_WAKER_IRQ] = "irq", [SL_WAKER_IDLE] = "idle" };

static const char *name_of(const char *const *tab, size_t n, int v)
{
	return v >= 0 && (size_t)v < n ? tab[v] : tab[0];
}

static int index_of(const char *const *tab, size_t n, const char *name)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (!strcmp(tab[i], name))
			return (int)i;
	return 0;
}

/* SQLite integers are signed 64-bit: SL_INF is stored as -1 */
static void bind_dur(sqlite3_stmt *q, int i, uint64_t v)
{
	sqlite3_bind_int64(q, i, v == SL_INF ? -1 : (sqlite3_int64)v);
}

static uint64_t col_dur(sqlite3_stmt *q, int i)
{
	sqlite3_int64 v = sqlite3_column_int64(q, i);
	return v < 0 ? SL_INF : (uint64_t)v;
}

/* index of utid in the sorted utid array, -1 if absent */
static int32_t utid_index(const int64_t *utids, size_t n, int64_t utid)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (utids[mid] < utid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && utids[lo] == utid ? (int32_t)lo : -1;
}

/* A growing text buffer for the phases JSON. */
struct jbuf {
	char *p;
	size_t n, cap;
};

static void jb_need(struct jbuf *j, size_t more)
{
	if (j->n + more + 1 > j->cap) {
		j->cap = (j->n + more + 1) * 2;
		j->p = xrealloc(j->p, j->cap);
	}
}

static void jb_ch(struct jbuf *j, char c)
{
	jb_need(j, 1);
	j->p[j->n++] = c;
	j->p[j->n] = 0;
}

static void jb_str(struct jbuf *j, const char *s)
{
	size_t l = strlen(s);
	jb_need(j, l);
	memcpy(j->p + j->n, s, l + 1);
	j->n += l;
}

/* decimal without printf: a burst table has ~10^5 phases of 8 numbers */
static void jb_int(struct jbuf *j, int64_t v)
{
	char tmp[24];
	if (v >= 0 && v < 10 && j->n + 2 < j->cap) {
		j->p[j->n++] = (char)('0' + v);
		j->p[j->n] = 0;
		return;
	}
	int k = 0;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do {
		tmp[k++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	jb_need(j, (size_t)k + 1);
	if (v < 0)
		j->p[j->n++] = '-';
	while (k)
		j->p[j->n++] = tmp[--k];
	j->p[j->n] = 0;
}

/* The phases of t as JSON: [[run_ns, sleep_ns, "end", "waker_kind",
 * waker_utid|null, waker_progress_ns, pipe, lost], ...]; SL_INF is -1. */
static void phases_json(struct jbuf *j, const struct sl_behaviour *b, const struct sl_task_spec *t)
{
	size_t k;
	char end[2] = { 0, 0 };
	j->n = 0;
	jb_ch(j, '[');
	for (k = 0; k < t->nphases; k++) {
		const struct sl_phase *p = &t->phases[k];
		if (k)
			jb_ch(j, ',');
		jb_ch(j, '[');
		jb_int(j, p->run_ns == SL_INF ? -1 : (int64_t)p->run_ns);
		jb_ch(j, ',');
		jb_int(j, p->sleep_ns == SL_INF ? -1 : (int64_t)p->sleep_ns);
		jb_str(j, ",\"");
		end[0] = p->end >= 'A' && p->end <= 'Z' ? p->end : '?';
		jb_str(j, end);
		jb_str(j, "\",\"");
		jb_str(j, name_of(waker_names, SL_ARRAY_SIZE(waker_names), p->waker_kind));
		jb_str(j, "\",");
		if (p->waker >= 0 && (size_t)p->waker < b->ntasks)
			jb_int(j, b->tasks[p->waker].utid);
		else
			jb_str(j, "null");
		jb_ch(j, ',');
		jb_int(j, (int64_t)p->waker_progress_ns);
		jb_ch(j, ',');
		jb_int(j, p->pipe);
		jb_ch(j, ',');
		jb_int(j, p->lost);
		jb_ch(j, ']');
	}
	jb_ch(j, ']');
}

int sl_store_add_behaviour(struct sl_store *s, int64_t trace_id, struct sl_behaviour *b,
			   const uint64_t *first_ts, const uint64_t *last_ts, struct sl_diag *d)
{
	int64_t base = sl_store_next_utid(s);
	struct jbuf j = { 0 };
	size_t i;
	for (i = 0; i < b->ntasks; i++)
		b->tasks[i].utid = base + (int64_t)i;
	for (i = 0; i < b->ntasks; i++) {
		struct sl_task_spec *t = &b->tasks[i];
		sqlite3_stmt *q = s->st[ST_THREAD];
		sqlite3_bind_int64(q, 1, t->utid);
		sqlite3_bind_int64(q, 2, trace_id);
		sqlite3_bind_int(q, 3, t->tid);
		sqlite3_bind_int(q, 4, t->tgid);
		sqlite3_bind_text(q, 5, t->comm, -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 6, t->nice);
		sqlite3_bind_text(q, 7, name_of(policy_names, SL_ARRAY_SIZE(policy_names), t->policy), -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 8, t->rt_prio);
		if (first_ts)
			bind_u64(q, 9, first_ts[i]);
		if (last_ts)
			bind_u64(q, 10, last_ts[i]);
		if (step_done(s, q, d, "adding a thread"))
			goto fail;
		q = s->st[ST_MODEL];
		sqlite3_bind_int64(q, 1, t->utid);
		bind_u64(q, 2, t->start_ns);
		if (t->parent >= 0 && (size_t)t->parent < b->ntasks)
			sqlite3_bind_int64(q, 3, b->tasks[t->parent].utid);
		bind_u64(q, 4, t->parent_progress_ns);
		sqlite3_bind_int64(q, 5, t->flags);
		sqlite3_bind_int64(q, 6, (sqlite3_int64)t->cpumask);
		sqlite3_bind_int(q, 7, t->initially_runnable);
		bind_dur(q, 8, t->run_ns);
		bind_dur(q, 9, t->sleep_ns);
		bind_u64(q, 10, t->count);
		phases_json(&j, b, t);
		sqlite3_bind_text(q, 11, j.p, (int)j.n, SQLITE_STATIC);
		if (step_done(s, q, d, "adding a task model"))
			goto fail;
	}
	free(j.p);
	return 0;
fail:
	free(j.p);
	return -1;
}

/* A reader of the phases JSON (ours, but the database may have been edited:
 * anything unexpected is an error, never a crash). */
struct jrd {
	const char *p, *start;
};

static void jr_ws(struct jrd *r)
{
	while (*r->p == ' ' || *r->p == '\n' || *r->p == '\t' || *r->p == '\r')
		r->p++;
}

static int jr_ch(struct jrd *r, char c)
{
	jr_ws(r);
	if (*r->p != c)
		return -1;
	r->p++;
	return 0;
}

/* an integer (null gives *isnull = 1 when isnull is given) */
static int jr_int(struct jrd *r, int64_t *v, int *isnull)
{
	uint64_t u = 0;
	int neg = 0, digits = 0;
	jr_ws(r);
	if (isnull) {
		*isnull = 0;
		if (!strncmp(r->p, "null", 4)) {
			r->p += 4;
			*isnull = 1;
			*v = 0;
			return 0;
		}
	}
	if (*r->p == '-') {
		neg = 1;
		r->p++;
	}
	while (*r->p >= '0' && *r->p <= '9') {
		if (u > (UINT64_MAX - 9) / 10)
			return -1;
		u = u * 10 + (uint64_t)(*r->p++ - '0');
		digits++;
	}
	if (!digits || u > (uint64_t)INT64_MAX)
		return -1;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

static int jr_str(struct jrd *r, char *out, size_t n)
{
	size_t k = 0;
	if (jr_ch(r, '"'))
		return -1;
	while (*r->p && *r->p != '"') {
		if (*r->p == '\\' || k + 1 >= n)
			return -1;
		out[k++] = *r->p++;
	}
	if (*r->p != '"')
		return -1;
	r->p++;
	out[k] = 0;
	return 0;
}

/* Parse a task's phases (waker utids mapped to task indexes). 0, or -1
 * with *off the byte offset where it went wrong. */
static int parse_phases(const char *json, struct sl_task_spec *t, const int64_t *utids, size_t n,
			size_t *off)
{
	struct jrd r = { json, json };
	size_t cap = 0;
	if (jr_ch(&r, '['))
		goto bad;
	jr_ws(&r);
	if (*r.p == ']') {
		r.p++;
		goto done;
	}
	for (;;) {
		struct sl_phase *p;
		int64_t run, sleep, waker, prog, pipe, lost;
		char end[4], wk[8];
		int wnull;
		if (jr_ch(&r, '[') || jr_int(&r, &run, NULL) || jr_ch(&r, ',') ||
		    jr_int(&r, &sleep, NULL) || jr_ch(&r, ',') || jr_str(&r, end, sizeof(end)) ||
		    jr_ch(&r, ',') || jr_str(&r, wk, sizeof(wk)) || jr_ch(&r, ',') ||
		    jr_int(&r, &waker, &wnull) || jr_ch(&r, ',') || jr_int(&r, &prog, NULL) ||
		    jr_ch(&r, ',') || jr_int(&r, &pipe, NULL) || jr_ch(&r, ',') ||
		    jr_int(&r, &lost, NULL) || jr_ch(&r, ']'))
			goto bad;
		if (run < -1 || sleep < -1 || prog < 0 || strlen(end) != 1)
			goto bad;
		SL_GROW(t->phases, cap, t->nphases + 1);
		p = &t->phases[t->nphases++];
		memset(p, 0, sizeof(*p));
		p->run_ns = run < 0 ? SL_INF : (uint64_t)run;
		p->sleep_ns = sleep < 0 ? SL_INF : (uint64_t)sleep;
		p->end = end[0];
		p->waker_kind = (uint8_t)index_of(waker_names, SL_ARRAY_SIZE(waker_names), wk);
		p->waker = wnull ? -1 : utid_index(utids, n, waker);
		p->waker_progress_ns = (uint64_t)prog;
		p->pipe = pipe != 0;
		p->lost = lost != 0;
		jr_ws(&r);
		if (*r.p == ',') {
			r.p++;
			continue;
		}
		if (jr_ch(&r, ']'))
			goto bad;
		break;
	}
done:
	jr_ws(&r);
	if (*r.p)
		goto bad;
	return 0;
bad:
	*off = (size_t)(r.p - r.start);
	return -1;
}

int sl_store_load_behaviour(struct sl_store *s, int64_t trace_id, struct sl_behaviour *b,
			    struct sl_diag *d)
{
	struct sl_trace_info tr;
	sqlite3_stmt *q;
	int64_t *utids = NULL, *parents = NULL;
	char **phases = NULL;
	size_t n = 0, cap = 0, i, off;
	int rc;

	memset(b, 0, sizeof(*b));
	if (sl_store_get_trace(s, trace_id, &tr, d))
		return -1;
	q = prep(s,
		 "SELECT t.utid, t.tid, t.tgid, t.comm, t.nice, t.policy, t.rt_priority,"
		 " m.start_ns, m.parent_utid, m.parent_progress_ns, m.flags, m.cpumask,"
		 " m.initially_runnable, m.run_ns, m.sleep_ns, m.count, m.phases"
		 " FROM thread t JOIN task_model m ON m.utid = t.utid"
		 " WHERE t.trace_id = ? ORDER BY t.utid",
		 d);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, trace_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct sl_task_spec *t;
		const unsigned char *ph;
		char pol[16];
		SL_GROW(b->tasks, cap, n + 1);
		utids = xrealloc(utids, cap * sizeof(*utids));
		parents = xrealloc(parents, cap * sizeof(*parents));
		phases = xrealloc(phases, cap * sizeof(*phases));
		t = &b->tasks[n];
		memset(t, 0, sizeof(*t));
		t->idx = (int32_t)n;
		t->utid = utids[n] = sqlite3_column_int64(q, 0);
		t->tid = sqlite3_column_int(q, 1);
		t->tgid = sqlite3_column_int(q, 2);
		col_text(q, 3, t->comm, sizeof(t->comm));
		t->nice = sqlite3_column_int(q, 4);
		col_text(q, 5, pol, sizeof(pol));
		t->policy = index_of(policy_names, SL_ARRAY_SIZE(policy_names), pol);
		t->rt_prio = sqlite3_column_int(q, 6);
		t->start_ns = (uint64_t)sqlite3_column_int64(q, 7);
		/* the parent's utid is mapped to its index once all are read */
		parents[n] = sqlite3_column_type(q, 8) == SQLITE_NULL ? -1 : sqlite3_column_int64(q, 8);
		t->parent = -1;
		t->parent_progress_ns = (uint64_t)sqlite3_column_int64(q, 9);
		t->flags = (uint32_t)sqlite3_column_int64(q, 10);
		t->cpumask = (uint64_t)sqlite3_column_int64(q, 11);
		t->initially_runnable = sqlite3_column_int(q, 12);
		t->run_ns = col_dur(q, 13);
		t->sleep_ns = col_dur(q, 14);
		t->count = (uint64_t)sqlite3_column_int64(q, 15);
		ph = sqlite3_column_text(q, 16);
		phases[n] = xstrdup(ph ? (const char *)ph : "[]");
		n++;
	}
	sqlite3_finalize(q);
	b->ntasks = n;
	if (rc != SQLITE_DONE) {
		dberr(s, d, "loading threads");
		goto fail;
	}
	for (i = 0; i < n; i++) {
		if (parents[i] >= 0)
			b->tasks[i].parent = utid_index(utids, n, parents[i]);
		if (parse_phases(phases[i], &b->tasks[i], utids, n, &off)) {
			sl_fail(d, "%s: task_model.phases of utid %" PRId64 " is malformed at offset %zu",
				s->path, utids[i], off);
			goto fail;
		}
	}
	for (i = 0; i < n; i++)
		free(phases[i]);
	free(phases);
	free(parents);
	free(utids);
	b->cpus = tr.cpus;
	b->t0 = tr.first_ts;
	b->span_ns = tr.last_ts - tr.first_ts;
	return 0;
fail:
	for (i = 0; i < n; i++)
		free(phases[i]);
	free(phases);
	free(parents);
	free(utids);
	sl_behaviour_release(b);
	return -1;
}

int sl_store_add_run(struct sl_store *s, int64_t trace_id, const char *scheduler,
		     const char *params, int cpus, const char *mode, uint64_t seed,
		     int64_t *run_id, struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s,
			       "INSERT INTO run(trace_id, scheduler, params, cpus, mode, seed)"
			       " VALUES (?,?,?,?,?,?)",
			       d);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, trace_id);
	sqlite3_bind_text(q, 2, scheduler, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, params ? params : "{}", -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 4, cpus);
	sqlite3_bind_text(q, 5, mode ? mode : "recorded", -1, SQLITE_STATIC);
	bind_u64(q, 6, seed);
	if (run_once(s, q, d, "adding a run"))
		return -1;
	*run_id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

static int64_t bind_utid(const struct sl_store_bind *b, int task)
{
	if (task < 0)
		return -1;
	if (b->b)
		return (size_t)task < b->b->ntasks ? b->b->tasks[task].utid : -1;
	return b->utid_base + task;
}

/* Insert the rows of rb (BATCH per statement, the rest one by one). */
static int flush_rows(struct sl_store *s, struct rowbuf *rb, int kind, struct rowstat *st,
		      struct sl_diag *d)
{
	const int ncol = rb_kind[kind].ncol;
	const unsigned tm = rb_kind[kind].txtmask;
	sqlite3_stmt *q;
	int r, c, rows, base;

	if (rb->n >= BATCH && !s->multi[kind]) {
		size_t len = strlen(rb_kind[kind].head) + (size_t)BATCH * (2 + 2 * (size_t)ncol) + 1, o;
		char *sql = xmalloc(len);
		o = (size_t)snprintf(sql, len, "%s", rb_kind[kind].head);
		for (r = 0; r < BATCH; r++) {
			sql[o++] = r ? ',' : '(';
			if (r)
				sql[o++] = '(';
			for (c = 0; c < ncol; c++) {
				sql[o++] = '?';
				sql[o++] = c + 1 < ncol ? ',' : ')';
			}
		}
		sql[o] = 0;
		if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s->multi[kind],
				       NULL) != SQLITE_OK) {
			free(sql);
			return dberr(s, d, "preparing a batch insert");
		}
		free(sql);
	}
	for (base = 0; base < rb->n; base += rows) {
		rows = rb->n - base >= BATCH ? BATCH : 1;
		q = rows == BATCH ? s->multi[kind] : s->st[rb_kind[kind].stmt];
		for (r = 0; r < rows; r++)
			for (c = 0; c < ncol; c++) {
				int p = r * ncol + c + 1;
				int64_t v = rb->v[base + r][c];
				if (tm & (1u << c))
					sqlite3_bind_text(q, p, rb->txt[base + r][c], -1, SQLITE_STATIC);
				else if (v == NULL_VAL)
					sqlite3_bind_null(q, p);
				else
					sqlite3_bind_int64(q, p, v);
			}
		/* every parameter is bound again next time: no clear_bindings */
		if (sqlite3_step(q) != SQLITE_DONE) {
			dberr(s, d, "adding rows of a run");
			sqlite3_reset(q);
			return -1;
		}
		sqlite3_reset(q);
		{
			int64_t last = sqlite3_last_insert_rowid(s->db), first = last - rows + 1;
			if (!st->rows || first < st->lo)
				st->lo = first;
			if (!st->rows || last > st->hi)
				st->hi = last;
			st->rows += rows;
		}
	}
	rb->n = 0;
	return 0;
}

/* Where the rows of run_id in each table are (see run_rows in schema.sql). */
static int put_ranges(struct sl_store *s, int64_t run_id, const struct rowstat *st,
		      struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s,
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
		if (step_done(s, q, d, "adding run_rows")) {
			sqlite3_finalize(q);
			return -1;
		}
	}
	sqlite3_finalize(q);
	return 0;
}

/* ---- the writer thread ---------------------------------------------------- */

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
			failed = flush_rows(s, j.rb, j.kind, j.stat, &wd) < 0;
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
static int quiesce(struct sl_store *s, struct sl_diag *d)
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
			     struct sl_diag *d)
{
	struct rowbuf *fresh;
	if (!s->have_thr && !s->werr) {
		if (pthread_create(&s->thr, NULL, writer_main, s) == 0)
			s->have_thr = 1;
	}
	if (!s->have_thr) {
		if (s->werr)
			return sl_fail(d, "%s", s->werrmsg), NULL;
		if (flush_rows(s, rb, kind, st, d) < 0)
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
	s->q[(s->qhead + s->qlen) % QUEUE] = (struct job){ rb, st, kind };
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
		rb = submit(b->s, rb, kind, &p->stat[kind], b->d);
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
	q = prep(s, "INSERT INTO task_stat VALUES (?, ?, ?, ?, ?, ?, ?, ?)", d);
	if (!q)
		return -1;
	for (i = 0; i < p->nts; i++) {
		const struct tstat *t = &p->ts[i];
		int64_t utid;
		if (!t->switches && !t->wakeups)
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
		if (step_done(s, q, d, "adding task_stat")) {
			sqlite3_finalize(q);
			return -1;
		}
	}
	sqlite3_finalize(q);
	return 0;
}

static int flush_binds(struct sl_store *s, struct sl_diag *d)
{
	int i, k, rc = 0;
	if (quiesce(s, d))
		return -1;
	for (i = 0; i < MAX_BINDS && !rc; i++) {
		struct sl_store_bind *b = s->binds[i];
		struct pend *p;
		if (!b)
			continue;
		p = b->pend;
		for (k = 0; k < RB_COUNT && !rc; k++)
			if (p->stage[k])
				rc = flush_rows(s, p->stage[k], k, &p->stat[k], d);
		if (!rc)
			rc = put_ranges(s, b->run_id, p->stat, d);
		if (!rc)
			rc = put_task_stats(s, b, p, d);
	}
	drop_binds(s);
	return rc;
}

static void drop_binds(struct sl_store *s)
{
	int i, k;
	for (i = 0; i < MAX_BINDS; i++)
		if (s->binds[i]) {
			struct pend *p = s->binds[i]->pend;
			for (k = 0; p && k < RB_COUNT; k++)
				free(p->stage[k]);
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
	return 0;
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

int sl_store_put_metric(struct sl_store *s, int64_t run_id, int64_t utid, const char *name,
			double value, struct sl_diag *d)
{
	sqlite3_stmt *q = s->st[ST_METRIC];
	quiesce(s, NULL);
	sqlite3_bind_int64(q, 1, run_id);
	if (utid >= 0)
		sqlite3_bind_int64(q, 2, utid);
	sqlite3_bind_text(q, 3, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(q, 4, value);
	return step_done(s, q, d, "adding a metric");
}

/* Delete run_id's metrics whose names are (fidelity 1) or are not
 * (fidelity 0) fidelity_*. */
static int clear_metrics(struct sl_store *s, int64_t run_id, int fidelity, struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s, fidelity ? "DELETE FROM metric WHERE run_id = ?"
					     " AND name LIKE 'fidelity\\_%' ESCAPE '\\'"
					   : "DELETE FROM metric WHERE run_id = ?"
					     " AND name NOT LIKE 'fidelity\\_%' ESCAPE '\\'",
			       d);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run_id);
	return run_once(s, q, d, "clearing metrics");
}

int sl_store_clear_metrics(struct sl_store *s, int64_t run_id, struct sl_diag *d)
{
	return clear_metrics(s, run_id, 0, d);
}

int sl_store_clear_fidelity(struct sl_store *s, int64_t run_id, struct sl_diag *d)
{
	return clear_metrics(s, run_id, 1, d);
}


int sl_store_set_run_cpus(struct sl_store *s, int64_t run_id, int cpus, struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s, "UPDATE run SET cpus = ? WHERE id = ?", d);
	if (!q)
		return -1;
	sqlite3_bind_int(q, 1, cpus);
	sqlite3_bind_int64(q, 2, run_id);
	if (run_once(s, q, d, "updating a run"))
		return -1;
	return 0;
}

int sl_store_get_run(struct sl_store *s, int64_t run_id, struct sl_run_info *r, struct sl_diag *d)
{
	sqlite3_stmt *q = row_by_id(s,
				    "SELECT id, trace_id, scheduler, mode, params, cpus, seed FROM run"
				    " WHERE id = ?",
				    run_id, "run", d);
	if (!q)
		return -1;
	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(q, 0);
	r->trace_id = sqlite3_column_int64(q, 1);
	col_text(q, 2, r->scheduler, sizeof(r->scheduler));
	col_text(q, 3, r->mode, sizeof(r->mode));
	col_text(q, 4, r->params, sizeof(r->params));
	r->cpus = sqlite3_column_int(q, 5);
	r->seed = (uint64_t)sqlite3_column_int64(q, 6);
	sqlite3_finalize(q);
	return 0;
}

int sl_store_list_runs(struct sl_store *s, int64_t trace_id, int64_t **ids, size_t *n,
		       struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s,
			       trace_id > 0 ? "SELECT id FROM run WHERE trace_id = ? ORDER BY id"
					    : "SELECT id FROM run ORDER BY id",
			       d);
	size_t cap = 0;
	int rc;
	*ids = NULL;
	*n = 0;
	if (!q)
		return -1;
	if (trace_id > 0)
		sqlite3_bind_int64(q, 1, trace_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		SL_GROW(*ids, cap, *n + 1);
		(*ids)[(*n)++] = sqlite3_column_int64(q, 0);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		*n = 0;
		return dberr(s, d, "listing runs");
	}
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

int sl_store_load_run(struct sl_store *s, int64_t run_id, struct sl_run_data *out,
		      struct sl_diag *d)
{
	return sl_store_load_run_parts(s, run_id, SL_LOAD_ALL, out, d);
}

int sl_store_load_run_parts(struct sl_store *s, int64_t run_id, int parts, struct sl_run_data *out,
			    struct sl_diag *d)
{
	sqlite3_stmt *q;
	size_t cap = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (sl_store_get_run(s, run_id, &out->run, d))
		return -1;
	q = prep(s,
		 "SELECT utid, tid, tgid, nice, comm, first_ts, last_ts FROM thread"
		 " WHERE trace_id = ? ORDER BY utid",
		 d);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, out->run.trace_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct sl_thread_row *t;
		SL_GROW(out->threads, cap, out->nthreads + 1);
		t = &out->threads[out->nthreads++];
		t->utid = sqlite3_column_int64(q, 0);
		t->tid = sqlite3_column_int(q, 1);
		t->tgid = sqlite3_column_int(q, 2);
		t->nice = sqlite3_column_int(q, 3);
		col_text(q, 4, t->comm, sizeof(t->comm));
		t->first_ts = (uint64_t)sqlite3_column_int64(q, 5);
		t->last_ts = (uint64_t)sqlite3_column_int64(q, 6);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		goto fail;
	q = prep(s,
		 (parts & SL_LOAD_SLICES)
			 ? "SELECT ts, dur, utid, cpu, end_state, priority FROM sched_slice WHERE "
			   SL_RUN_ROWS("sched_slice", "?1")
			 : "SELECT 0, 0, 0, 0, '', 0 WHERE 0 AND ?1",
		 d);
	if (!q)
		goto fail_noerr;
	sqlite3_bind_int64(q, 1, run_id);
	cap = 0;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct sl_slice_row *r;
		const unsigned char *es;
		SL_GROW(out->slices, cap, out->nslices + 1);
		r = &out->slices[out->nslices++];
		r->ts = (uint64_t)sqlite3_column_int64(q, 0);
		r->dur = (uint64_t)sqlite3_column_int64(q, 1);
		r->utid = sqlite3_column_int64(q, 2);
		r->cpu = sqlite3_column_int(q, 3);
		es = sqlite3_column_text(q, 4);
		r->end_state = es && es[0] ? (char)es[0] : '?';
		r->priority = sqlite3_column_int(q, 5);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		goto fail;
	q = prep(s,
		 (parts & SL_LOAD_WAKEUPS)
			 ? "SELECT ts, ts_run, utid, waker_utid, cpu FROM wakeup WHERE "
			   SL_RUN_ROWS("wakeup", "?1")
			 : "SELECT 0, NULL, 0, NULL, NULL WHERE 0 AND ?1",
		 d);
	if (!q)
		goto fail_noerr;
	sqlite3_bind_int64(q, 1, run_id);
	cap = 0;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct sl_wakeup_row *w;
		SL_GROW(out->wakeups, cap, out->nwakeups + 1);
		w = &out->wakeups[out->nwakeups++];
		w->ts = (uint64_t)sqlite3_column_int64(q, 0);
		w->ts_run = sqlite3_column_type(q, 1) == SQLITE_NULL
				    ? UINT64_MAX
				    : (uint64_t)sqlite3_column_int64(q, 1);
		w->utid = sqlite3_column_int64(q, 2);
		w->waker_utid = sqlite3_column_type(q, 3) == SQLITE_NULL ? -1
									  : sqlite3_column_int64(q, 3);
		w->cpu = sqlite3_column_type(q, 4) == SQLITE_NULL ? -1 : sqlite3_column_int(q, 4);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		goto fail;
	/* ordered here rather than by SQL: the tables have no index to order by */
	if (out->nslices)
		qsort(out->slices, out->nslices, sizeof(*out->slices), cmp_slice);
	if (out->nwakeups)
		qsort(out->wakeups, out->nwakeups, sizeof(*out->wakeups), cmp_wakeup);
	return 0;
fail:
	dberr(s, d, "loading a run");
fail_noerr:
	sl_run_data_release(out);
	return -1;
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

int sl_store_query(struct sl_store *s, const char *sql, const int64_t *params, int nparams,
		   int (*row)(void *ctx, int ncols, const char *const *values), void *ctx,
		   struct sl_diag *d)
{
	sqlite3_stmt *q = prep(s, sql, d);
	const char *vals[64];
	int rc, i, nc;
	if (!q)
		return -1;
	for (i = 0; i < nparams; i++)
		sqlite3_bind_int64(q, i + 1, params[i]);
	nc = sqlite3_column_count(q);
	if (nc > 64)
		nc = 64;
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		for (i = 0; i < nc; i++)
			vals[i] = (const char *)sqlite3_column_text(q, i);
		if (row(ctx, nc, vals)) {
			sqlite3_finalize(q);
			return -1;
		}
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return dberr(s, d, "query");
	return 0;
}

/* Feed one file to ctx: mapped when it can be (no copy), read otherwise. */
/* The file's bytes into ctx: a regular file through mmap'd windows of
 * 8 MB, each unmapped once digested, so that hashing a 1 GB trace does not
 * hold 1 GB of it resident; anything else through read(). */
static int sha_feed(EVP_MD_CTX *ctx, int fd)
{
	enum { WIN = 8 << 20 };
	unsigned char buf[1 << 16];
	struct stat sb;
	ssize_t n;
	if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0) {
		off_t off = 0;
		while (off < sb.st_size) {
			size_t len = sb.st_size - off < WIN ? (size_t)(sb.st_size - off) : WIN;
			void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, off);
			int ok;
			if (map == MAP_FAILED)
				break; /* read() the rest */
			madvise(map, len, MADV_SEQUENTIAL);
			ok = EVP_DigestUpdate(ctx, map, len);
			munmap(map, len);
			if (!ok)
				return 0;
			off += (off_t)len;
		}
		if (off == sb.st_size)
			return 1;
		if (lseek(fd, off, SEEK_SET) != off)
			return 0;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || !EVP_DigestUpdate(ctx, buf, (size_t)n))
			return 0;
	}
	return 1;
}

static int not_dot(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* A directory (a perf.data directory): each regular file in name order,
 * its name and a NUL, then its bytes. */
static int sha_dir(EVP_MD_CTX *ctx, const char *path)
{
	struct dirent **ents = NULL;
	int n = scandir(path, &ents, not_dot, alphasort), i, ok = n >= 0;
	for (i = 0; i < n; i++) {
		size_t l = strlen(path) + strlen(ents[i]->d_name) + 2;
		char *f = xmalloc(l);
		struct stat sb;
		int fd;
		snprintf(f, l, "%s/%s", path, ents[i]->d_name);
		if (ok && stat(f, &sb) == 0 && S_ISREG(sb.st_mode)) {
			fd = open(f, O_RDONLY | O_CLOEXEC);
			ok = fd >= 0 && EVP_DigestUpdate(ctx, ents[i]->d_name, strlen(ents[i]->d_name) + 1) &&
			     sha_feed(ctx, fd);
			if (fd >= 0)
				close(fd);
		}
		free(f);
		free(ents[i]);
	}
	free(ents);
	return ok;
}

int sl_sha256_file(const char *path, char out[65], struct sl_diag *d)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;
	EVP_MD_CTX *ctx;
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok = 1;
	if (fd < 0)
		return sl_fail(d, "%s: %s", path, strerror(errno));
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL))
		ok = 0;
	if (ok && fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode))
		ok = sha_dir(ctx, path);
	else if (ok)
		ok = sha_feed(ctx, fd);
	if (ok)
		ok = EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	close(fd);
	if (!ok || mdlen != 32)
		return sl_fail(d, "%s: cannot compute sha256 (read error)", path);
	for (i = 0; i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
	return 0;
}
