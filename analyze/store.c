/* analyze/store.c - the SQLite store: the connection, the schema and its
 * migrations, transactions, and the small rows (traces, runs, metrics).
 * See store.h for the contract, schema.sql for the tables and store_int.h
 * for how the store's files share the work. */
#include "store_int.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static const char schema_sql[] =
#include "schema.inc"
	;

static const char *const stmt_sql[ST_COUNT] = {
	"INSERT INTO metric(run_id, utid, name, value) VALUES (?,?,?,?)",
	"INSERT INTO thread(utid, trace_id, tid, tgid, comm, nice, policy, rt_priority, first_ts, last_ts)"
	" VALUES (?,?,?,?,?,?,?,?,?,?)",
	"INSERT INTO task_model(utid, start_ns, parent_utid, parent_progress_ns, flags, cpumask,"
	" initially_runnable, run_ns, sleep_ns, count, phases, wall_ns, wall_tail_ns, start_cpu)"
	" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	"INSERT INTO run_pack(run_id, tbl, seq, rows, data) VALUES (?,?,?,?,?)",
};

int st_dberr(struct sl_store *s, struct sl_diag *d, const char *what)
{
	return sl_fail(d, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

int st_exec(struct sl_store *s, const char *sql, struct sl_diag *d)
{
	char *msg = NULL;
	st_quiesce(s, NULL);
	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		sl_fail(d, "%s: %s", s->path, msg ? msg : "SQL error");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* How long a command waits for another's write transaction: 10 minutes,
 * longer than any import of a bundled or benchmarked trace takes. */
#define SL_BUSY_MS 600000

static int user_version(struct sl_store *s, int *v, struct sl_diag *d)
{
	sqlite3_stmt *q;
	int rc;
	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &q, NULL) != SQLITE_OK)
		return st_dberr(s, d, "not a schedlab database");
	rc = sqlite3_step(q);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(q);
		return st_dberr(s, d, "not a schedlab database");
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
		return st_dberr(s, d, "not a database (or corrupt)");
	if (sqlite3_step(q) != SQLITE_ROW) {
		sqlite3_finalize(q);
		return st_dberr(s, d, "not a database (or corrupt)");
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
	if (st_exec(s, "BEGIN IMMEDIATE", d))
		return -1;
	if (st_exec(s, pre, d) || st_exec(s, schema_sql, d) || st_exec(s, sql, d) || st_exec(s, pragma, d) ||
	    st_exec(s, "COMMIT", d)) {
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
	"INSERT INTO task_stat(run_id, utid, runtime_ns, switches, wakeups, delayed, delay_sum_ns,"
	" max_delay_ns) "
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

/* Schema 6 -> 7: run_pack is new (the schema's CREATE TABLE makes it); the
 * runs written before have none and are read from their rows. */

/* Schema 7 -> 8: a phase may end in an exec point (end_state 'V') and
 * carries a ninth element, the CPU an interrupt or idle wakeup fired on;
 * the burst view shows it as wake_cpu (dropped first so that the schema's
 * CREATE VIEW makes the new one). The phases of older imports stay as they
 * are: no exec points, wake_cpu NULL (re-import the trace to get them). */

/* Schema 8 -> 9: a phase ended by an interrupt or idle wakeup carries a tenth
 * element, the CPU the task slept on (sleep_cpu: was the interrupt on its
 * CPU or another?); the burst view shows it (remade as for 8). Older phases
 * stay as they are: sleep_cpu NULL (replay --irq-cpu then takes the recorded
 * wake_cpu as it is, docs/replay.md). */

/* Is there a column col in table tbl? */
static int has_column(struct sl_store *s, const char *tbl, const char *col)
{
	sqlite3_stmt *q;
	int yes;
	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM pragma_table_info(?) WHERE name = ?", -1, &q,
			       NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(q, 1, tbl, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, col, -1, SQLITE_STATIC);
	yes = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	return yes;
}

/* Schema 5 -> 6: trace.missed_switches and trace.cut_at, and the recorded
 * run's per-task task_stat.uncertain_ns (docs/model.md), shown by
 * task_summary (dropped first so that the schema's CREATE VIEW makes the new
 * one). A database upgraded from version 2 already has task_stat in its
 * version 6 form (made by the schema in the 2 -> 3 step). Older imports
 * read 0 and NULL: their runs were built without placing missed switches. */
/* Schema 9 -> 10: the trace's ledger columns (table ledger_thread comes
 * with the schema); traces imported before have none (NULL). A trace table
 * made by the current schema (a database whose user_version was set back)
 * has them already. */
static int migrate_v9(struct sl_store *s, struct sl_diag *d)
{
	return migrate(s, 9, "",
		       has_column(s, "trace", "ledger") ? ""
							: "ALTER TABLE trace ADD COLUMN ledger TEXT;"
							  "ALTER TABLE trace ADD COLUMN completeness_cpu REAL;"
							  "ALTER TABLE trace ADD COLUMN completeness_wait REAL;",
		       d);
}

/* Schema 10 -> 11: each thread's task group from the ledger (NULL for
 * threads imported before: groups unknown, a replay assumes one group). */
static int migrate_v10(struct sl_store *s, struct sl_diag *d)
{
	return migrate(s, 10, "",
		       has_column(s, "thread", "autogroup") ? ""
							    : "ALTER TABLE thread ADD COLUMN autogroup INTEGER;"
							      "ALTER TABLE thread ADD COLUMN autogroup_nice INTEGER;"
							      "ALTER TABLE thread ADD COLUMN cgroup TEXT;"
							      "ALTER TABLE thread ADD COLUMN cgroup_weight INTEGER;",
		       d);
}

/* Schema 11 -> 12: a phase carries an eleventh element, its interference
 * (irq_ns, docs/model.md "Work and interference"), shown by the burst view
 * (remade as for 8); table recorded_work comes with the schema. Older
 * imports have neither: their bursts are all work (irq_ns NULL, read as 0),
 * re-import the trace to split them. ledger_thread gains trace_work_ns
 * (NULL for the traces imported before). */
static int migrate_v11(struct sl_store *s, struct sl_diag *d)
{
	return migrate(s, 11,
		       has_column(s, "ledger_thread", "trace_work_ns")
			       ? "DROP VIEW IF EXISTS burst;"
			       : "DROP VIEW IF EXISTS burst;"
				 "ALTER TABLE ledger_thread ADD COLUMN trace_work_ns INTEGER;",
		       "", d);
}

/* Schema 13 -> 14: task_model's wall_ns and wall_tail_ns (docs/model.md
 * "Wall-clock bursts"); tasks imported before have 0: fixed CPU work per
 * burst, as they were replayed (re-import the trace to find them). */
static int migrate_v13(struct sl_store *s, struct sl_diag *d)
{
	return migrate(s, 13, "",
		       has_column(s, "task_model", "wall_ns")
			       ? ""
			       : "ALTER TABLE task_model ADD COLUMN wall_ns INTEGER NOT NULL DEFAULT 0;"
				 "ALTER TABLE task_model ADD COLUMN wall_tail_ns INTEGER NOT NULL DEFAULT 0;",
		       d);
}

/* Schema 14 -> 15: a phase carries a twelfth element, tick_n (a sleep a
 * timer ended at the tick: docs/model.md "Timers that fire at the tick"),
 * shown by the burst view (remade as for 8). Older imports have none (NULL,
 * read as 0): their timers' sleeps last as recorded; re-import the trace to
 * find them. */
/* Schema 15 -> 16: a phase carries a thirteenth element, wake_at (an
 * absolute periodic timer's recorded wakeup time, task flag 1024:
 * docs/model.md "Absolute timers"), shown by the burst view (remade as for
 * 8). Older imports have none (NULL, read as 0) and no flag: their sleeps
 * last as recorded; re-import the trace to find them. */
/* Schema 16 -> 17: table start_pelt (the kernel's load tracking at the
 * ledger's start, docs/ledger.md version 5) comes with the schema; traces
 * imported before have no rows and replay with the estimate from their
 * first 128 ms (docs/eevdf.md "Load tracking at the start"). */
/* Schema 17 -> 18: task_model's start_cpu (the CPU the trace first shows a
 * task on: docs/replay.md "The trace's start"); tasks imported before have
 * NULL, and a task present at the start is placed as it was before
 * (re-import the trace to have it). */
static int migrate_v17(struct sl_store *s, struct sl_diag *d)
{
	return migrate(s, 17, "",
		       has_column(s, "task_model", "start_cpu")
			       ? ""
			       : "ALTER TABLE task_model ADD COLUMN start_cpu INTEGER;",
		       d);
}

/* Schema 12 -> 13: table cpu_first (the recorded run's first event on each
 * CPU, kept at import) comes with the schema; traces imported before have
 * no rows, and sl_store_late_cpus reads their recorded runs as before. */

static int migrate_v5(struct sl_store *s, struct sl_diag *d)
{
	char pre[512];
	snprintf(pre, sizeof(pre), "DROP VIEW IF EXISTS task_summary;%s%s",
		 has_column(s, "trace", "missed_switches")
			 ? ""
			 : "ALTER TABLE trace ADD COLUMN missed_switches INTEGER NOT NULL DEFAULT 0;"
			   "ALTER TABLE trace ADD COLUMN cut_at INTEGER;",
		 has_column(s, "task_stat", "uncertain_ns")
			 ? ""
			 : "ALTER TABLE task_stat ADD COLUMN uncertain_ns INTEGER NOT NULL DEFAULT 0;");
	return migrate(s, 5, pre, "", d);
}

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
	/* one writer at a time (an import or a replay is one transaction, begun
	 * IMMEDIATE): another waits for it, up to SL_BUSY_MS, rather than fail
	 * while a long import holds the database (README "Concurrent use") */
	sqlite3_busy_timeout(s->db, SL_BUSY_MS);
	if (table_count(s, &ntab, d) || user_version(s, &v, d)) {
		sl_store_close(s);
		return -1;
	}
	if (v < 0) {
		sl_fail(d, "%s: database schema version %d is not one schedlab writes (damaged "
			   "user_version)",
			path, v);
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
		if (st_exec(s, "BEGIN", d) || st_exec(s, schema_sql, d) || st_exec(s, pragma, d) ||
		    st_exec(s, "COMMIT", d)) {
			sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
			sl_store_close(s);
			return -1;
		}
	}
	if ((v == 1 && migrate(s, 1, migrate_v1_sql, "", d)) ||
	    ((v == 1 || v == 2) && migrate(s, 2, "DROP VIEW IF EXISTS task_summary", migrate_v2_sql, d)) ||
	    (v >= 1 && v <= 3 && migrate(s, 3, "", "", d)) ||
	    (v >= 1 && v <= 4 && migrate(s, 4, migrate_v4_sql, "", d)) ||
	    (v >= 1 && v <= 5 && migrate_v5(s, d)) ||
	    (v >= 1 && v <= 6 && migrate(s, 6, "", "", d)) ||
	    (v >= 1 && v <= 7 && migrate(s, 7, "DROP VIEW IF EXISTS burst", "", d)) ||
	    (v >= 1 && v <= 8 && migrate(s, 8, "DROP VIEW IF EXISTS burst", "", d)) ||
	    (v >= 1 && v <= 9 && migrate_v9(s, d)) || (v >= 1 && v <= 10 && migrate_v10(s, d)) ||
	    (v >= 1 && v <= 11 && migrate_v11(s, d)) || (v >= 1 && v <= 12 && migrate(s, 12, "", "", d)) ||
	    (v >= 1 && v <= 13 && migrate_v13(s, d)) ||
	    (v >= 1 && v <= 14 && migrate(s, 14, "DROP VIEW IF EXISTS burst", "", d)) ||
	    (v >= 1 && v <= 15 && migrate(s, 15, "DROP VIEW IF EXISTS burst", "", d)) ||
	    (v >= 1 && v <= 16 && migrate(s, 16, "", "", d)) ||
	    (v >= 1 && v <= 17 && migrate_v17(s, d))) {
		sl_store_close(s);
		return -1;
	}
	/* a rollback journal: an import or replay only appends pages, which it
	 * does not journal, where WAL writes every page twice */
	st_exec(s, "PRAGMA journal_mode = DELETE", NULL);
	st_exec(s, "PRAGMA synchronous = NORMAL", NULL);
	sl_store_cache(s, 0);
	if (st_stage_register(s)) {
		st_dberr(s, d, "registering sl_stage");
		sl_store_close(s);
		return -1;
	}
	for (i = 0; i < ST_COUNT; i++)
		if (sqlite3_prepare_v3(s->db, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->st[i],
				       NULL) != SQLITE_OK) {
			st_dberr(s, d, "preparing statements");
			sl_store_close(s);
			return -1;
		}
	*out = s;
	return 0;
}

void sl_store_close(struct sl_store *s)
{
	int i;
	if (!s)
		return;
	if (s->in_tx)
		sl_store_rollback(s);
	st_stop_writer(s);
	pthread_mutex_destroy(&s->mu);
	pthread_cond_destroy(&s->work);
	pthread_cond_destroy(&s->idle);
	for (i = 0; i < s->nspare; i++)
		free(s->spare[i]);
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->st[i]);
	for (i = 0; i < RB_COUNT; i++)
		sqlite3_finalize(s->ins[i]);
	if (s->db)
		sqlite3_close(s->db);
	if (s->wbfd > 0)
		close(s->wbfd - 1);
	free(s->path);
	free(s);
}

/* The commit's fsync waits for every page of the transaction to reach the
 * disk (a 590k-event trace.dat's import: 16 MB, 40-50 ms on this VM's
 * disk; a replay's 20 MB as long). The writer thread calls this every few
 * jobs (store_write.c, WB_JOBS): the kernel starts writing what SQLite has
 * written to the file so far while the import or replay goes on, and the
 * fsync finds most of it on the disk. Nothing waits here and nothing is
 * made durable: the commit's fsync still does that, so a crash leaves the
 * database as before the transaction (the rollback journal undoes it). A
 * descriptor of its own (SQLite does not share its own): write-back acts on
 * the file, whichever descriptor names it. */
void st_writeback(struct sl_store *s)
{
	if (!s->wbfd) {
		int fd = open(s->path, O_RDONLY | O_CLOEXEC);
		s->wbfd = fd < 0 ? -1 : fd + 1;
	}
	if (s->wbfd > 0)
		sync_file_range(s->wbfd - 1, 0, 0, SYNC_FILE_RANGE_WRITE);
}

int sl_store_begin(struct sl_store *s, struct sl_diag *d)
{
	if (st_exec(s, "BEGIN IMMEDIATE", d))
		return -1;
	s->in_tx = 1;
	return 0;
}


int sl_store_commit(struct sl_store *s, struct sl_diag *d)
{
	if (st_flush_binds(s, d)) {
		sl_store_rollback(s);
		return -1;
	}
	st_stop_writer(s);
	if (st_exec(s, "COMMIT", d)) {
		sl_store_rollback(s);
		return -1;
	}
	s->in_tx = 0;
	return 0;
}

void sl_store_rollback(struct sl_store *s)
{
	st_quiesce(s, NULL);
	st_stop_writer(s);
	st_drop_binds(s);
	s->werr = 0;
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	s->in_tx = 0;
}

/* step an insert/update statement with its bindings, then reset it */
int st_step_done(struct sl_store *s, sqlite3_stmt *q, struct sl_diag *d, const char *what)
{
	int rc = sqlite3_step(q);
	sqlite3_reset(q);
	sqlite3_clear_bindings(q);
	if (rc != SQLITE_DONE)
		return st_dberr(s, d, what);
	return 0;
}

sqlite3_stmt *st_prep(struct sl_store *s, const char *sql, struct sl_diag *d)
{
	sqlite3_stmt *q = NULL;
	st_quiesce(s, NULL);
	if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK) {
		st_dberr(s, d, "query");
		return NULL;
	}
	return q;
}

/* Step a one-off statement to completion and finalize it. */
int st_run_once(struct sl_store *s, sqlite3_stmt *q, struct sl_diag *d, const char *what)
{
	int rc = sqlite3_step(q);
	if (rc != SQLITE_DONE) {
		st_dberr(s, d, what);
		sqlite3_finalize(q);
		return -1;
	}
	sqlite3_finalize(q);
	return 0;
}

/* Prepare sql with ?1 = id and step to its row: the statement, or NULL with
 * d set ("no KIND with id N" when there is no such row). */
sqlite3_stmt *st_row_by_id(struct sl_store *s, const char *sql, int64_t id, const char *kind,
			       struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s, sql, d);
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
		st_dberr(s, d, kind);
	sqlite3_finalize(q);
	return NULL;
}

void st_bind_u64(sqlite3_stmt *q, int i, uint64_t v)
{
	sqlite3_bind_int64(q, i, (sqlite3_int64)v);
}

int sl_store_trace_by_sha(struct sl_store *s, const char *sha, int64_t *id, struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s, "SELECT id FROM trace WHERE sha256 = ?", d);
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
		rc = st_dberr(s, d, "looking up a trace");
	}
	sqlite3_finalize(q);
	return rc;
}

int sl_store_add_trace(struct sl_store *s, const struct sl_trace_info *t, int64_t *id,
		       struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s,
			       "INSERT INTO trace(path, sha256, format, cpus, first_ts, last_ts,"
			       " events, lost_events, kernel_release, missed_switches, cut_at)"
			       " VALUES (?,?,?,?,?,?,?,?,?,?,?)",
			       d);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, t->path, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, t->sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, t->format, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 4, t->cpus);
	st_bind_u64(q, 5, t->first_ts);
	st_bind_u64(q, 6, t->last_ts);
	st_bind_u64(q, 7, t->events);
	st_bind_u64(q, 8, t->lost_events);
	if (t->kernel_release[0])
		sqlite3_bind_text(q, 9, t->kernel_release, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(q, 9);
	st_bind_u64(q, 10, t->missed_switches);
	if (t->cut)
		st_bind_u64(q, 11, t->cut_at);
	else
		sqlite3_bind_null(q, 11);
	if (st_run_once(s, q, d, "adding a trace"))
		return -1;
	*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int sl_store_update_trace(struct sl_store *s, const struct sl_trace_info *t, struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s,
			       "UPDATE trace SET cpus = ?, first_ts = ?, last_ts = ?, events = ?,"
			       " lost_events = ?, sha256 = ?, missed_switches = ?, cut_at = ?"
			       " WHERE id = ?",
			       d);
	if (!q)
		return -1;
	sqlite3_bind_int(q, 1, t->cpus);
	st_bind_u64(q, 2, t->first_ts);
	st_bind_u64(q, 3, t->last_ts);
	st_bind_u64(q, 4, t->events);
	st_bind_u64(q, 5, t->lost_events);
	sqlite3_bind_text(q, 6, t->sha256, -1, SQLITE_STATIC);
	st_bind_u64(q, 7, t->missed_switches);
	if (t->cut)
		st_bind_u64(q, 8, t->cut_at);
	else
		sqlite3_bind_null(q, 8);
	sqlite3_bind_int64(q, 9, t->id);
	if (st_run_once(s, q, d, "updating a trace"))
		return -1;
	return 0;
}

void st_col_text(sqlite3_stmt *q, int i, char *dst, size_t n)
{
	const unsigned char *t = sqlite3_column_text(q, i);
	snprintf(dst, n, "%s", t ? (const char *)t : "");
}

int sl_store_get_trace(struct sl_store *s, int64_t id, struct sl_trace_info *t, struct sl_diag *d)
{
	sqlite3_stmt *q = st_row_by_id(s,
				    "SELECT id, path, sha256, format, cpus, first_ts, last_ts, events,"
				    " lost_events, kernel_release, missed_switches, cut_at, ledger,"
				    " completeness_cpu, completeness_wait,"
				    " (SELECT CASE WHEN count(*) > 0 AND count(*) = count(trace_work_ns)"
				    " THEN 1.0 * sum(trace_work_ns) / sum(kernel_exec_ns) END"
				    " FROM ledger_thread WHERE trace_id = trace.id"
				    " AND kernel_exec_ns >= 10000000) FROM trace WHERE id = ?",
				    id, "trace", d);
	if (!q)
		return -1;
	memset(t, 0, sizeof(*t));
	t->id = sqlite3_column_int64(q, 0);
	st_col_text(q, 1, t->path, sizeof(t->path));
	st_col_text(q, 2, t->sha256, sizeof(t->sha256));
	st_col_text(q, 3, t->format, sizeof(t->format));
	t->cpus = sqlite3_column_int(q, 4);
	t->first_ts = (uint64_t)sqlite3_column_int64(q, 5);
	t->last_ts = (uint64_t)sqlite3_column_int64(q, 6);
	t->events = (uint64_t)sqlite3_column_int64(q, 7);
	t->lost_events = (uint64_t)sqlite3_column_int64(q, 8);
	st_col_text(q, 9, t->kernel_release, sizeof(t->kernel_release));
	t->missed_switches = (uint64_t)sqlite3_column_int64(q, 10);
	t->cut = sqlite3_column_type(q, 11) != SQLITE_NULL;
	t->cut_at = (uint64_t)sqlite3_column_int64(q, 11);
	st_col_text(q, 12, t->ledger, sizeof(t->ledger));
	t->completeness_cpu = sqlite3_column_type(q, 13) == SQLITE_NULL ? NAN : sqlite3_column_double(q, 13);
	t->completeness_wait = sqlite3_column_type(q, 14) == SQLITE_NULL ? NAN : sqlite3_column_double(q, 14);
	t->completeness_work = sqlite3_column_type(q, 15) == SQLITE_NULL ? NAN : sqlite3_column_double(q, 15);
	sqlite3_finalize(q);
	return 0;
}

int sl_store_add_ledger(struct sl_store *s, int64_t trace_id, const char *path, double cpu_share,
			double wait_share, const struct sl_ledger_row *rows, size_t n, struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s, "UPDATE trace SET ledger = ?, completeness_cpu = ?,"
				     " completeness_wait = ? WHERE id = ?", d);
	size_t i;
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, path, -1, SQLITE_TRANSIENT);
	if (isnan(cpu_share))
		sqlite3_bind_null(q, 2);
	else
		sqlite3_bind_double(q, 2, cpu_share);
	if (isnan(wait_share))
		sqlite3_bind_null(q, 3);
	else
		sqlite3_bind_double(q, 3, wait_share);
	sqlite3_bind_int64(q, 4, trace_id);
	if (st_step_done(s, q, d, "storing the ledger")) {
		sqlite3_finalize(q);
		return -1;
	}
	sqlite3_finalize(q);
	q = st_prep(s, "INSERT OR REPLACE INTO ledger_thread(trace_id, tid, comm, kernel_exec_ns,"
		       " kernel_delay_ns, trace_exec_ns, trace_wait_ns, trace_work_ns)"
		       " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", d);
	if (!q)
		return -1;
	for (i = 0; i < n; i++) {
		sqlite3_reset(q);
		sqlite3_bind_int64(q, 1, trace_id);
		sqlite3_bind_int(q, 2, rows[i].tid);
		sqlite3_bind_text(q, 3, rows[i].comm, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(q, 4, (int64_t)rows[i].kernel_exec_ns);
		sqlite3_bind_int64(q, 5, (int64_t)rows[i].kernel_delay_ns);
		sqlite3_bind_int64(q, 6, (int64_t)rows[i].trace_exec_ns);
		sqlite3_bind_int64(q, 7, (int64_t)rows[i].trace_wait_ns);
		if (rows[i].have_work)
			sqlite3_bind_int64(q, 8, (int64_t)rows[i].trace_work_ns);
		else
			sqlite3_bind_null(q, 8);
		if (sqlite3_step(q) != SQLITE_DONE) {
			sqlite3_finalize(q);
			return st_dberr(s, d, "storing the ledger's threads");
		}
	}
	sqlite3_finalize(q);
	return 0;
}

int sl_store_set_trace_release(struct sl_store *s, int64_t id, const char *release,
			       struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s, "UPDATE trace SET kernel_release = ? WHERE id = ?", d);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, release, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 2, id);
	return st_run_once(s, q, d, "setting a trace's kernel release");
}

int sl_store_add_lost(struct sl_store *s, int64_t trace_id, int cpu, uint64_t lost,
		      struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s, "INSERT INTO trace_cpu(trace_id, cpu, lost_events) VALUES (?,?,?)", d);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, trace_id);
	sqlite3_bind_int(q, 2, cpu);
	st_bind_u64(q, 3, lost);
	if (st_run_once(s, q, d, "adding lost events"))
		return -1;
	return 0;
}

int sl_store_add_work(struct sl_store *s, int64_t trace_id, int64_t utid_base,
		      const struct sl_work_row *w, size_t n, struct sl_diag *d)
{
	sqlite3_stmt *q;
	size_t i;
	if (!n)
		return 0;
	q = st_prep(s, "INSERT INTO recorded_work(trace_id, utid, cpu, wall_ns, work_ns) VALUES (?,?,?,?,?)", d);
	if (!q)
		return -1;
	for (i = 0; i < n; i++) {
		sqlite3_bind_int64(q, 1, trace_id);
		sqlite3_bind_int64(q, 2, utid_base + w[i].task);
		sqlite3_bind_int(q, 3, w[i].cpu);
		st_bind_u64(q, 4, w[i].wall_ns);
		st_bind_u64(q, 5, w[i].work_ns);
		if (st_step_done(s, q, d, "adding recorded work")) {
			sqlite3_finalize(q);
			return -1;
		}
	}
	sqlite3_finalize(q);
	return 0;
}

int sl_store_work_ratio(struct sl_store *s, int64_t trace_id, const struct sl_run_data *r,
			double *ratio, struct sl_diag *d)
{
	sqlite3_stmt *q;
	size_t j;
	int rc;
	for (j = 0; j < r->nthreads; j++)
		ratio[j] = -1;
	q = st_prep(s, "SELECT utid, SUM(wall_ns), SUM(work_ns) FROM recorded_work WHERE trace_id = ?"
		       " GROUP BY utid", d);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, trace_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const struct sl_thread_row *t = sl_run_thread(r, sqlite3_column_int64(q, 0));
		double wall = sqlite3_column_double(q, 1), work = sqlite3_column_double(q, 2);
		if (t && wall > 0)
			ratio[t - r->threads] = work / wall;
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : st_dberr(s, d, "reading the recorded work");
}

int64_t sl_store_next_utid(struct sl_store *s)
{
	sqlite3_stmt *q = st_prep(s, "SELECT COALESCE(MAX(utid), 0) + 1 FROM thread", NULL);
	int64_t v = 1;
	if (!q)
		return 1;
	if (sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

int sl_store_add_run(struct sl_store *s, int64_t trace_id, const char *scheduler,
		     const char *params, int cpus, const char *mode, uint64_t seed,
		     int64_t *run_id, struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s,
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
	st_bind_u64(q, 6, seed);
	if (st_run_once(s, q, d, "adding a run"))
		return -1;
	*run_id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int sl_store_put_metric(struct sl_store *s, int64_t run_id, int64_t utid, const char *name,
			double value, struct sl_diag *d)
{
	sqlite3_stmt *q = s->st[ST_METRIC];
	st_quiesce(s, NULL);
	sqlite3_bind_int64(q, 1, run_id);
	if (utid >= 0)
		sqlite3_bind_int64(q, 2, utid);
	sqlite3_bind_text(q, 3, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(q, 4, value);
	return st_step_done(s, q, d, "adding a metric");
}

/* Delete run_id's metrics whose names are fidelity_* (fidelity 1), or
 * those analyze computes (fidelity 0): neither fidelity_* nor the replay's
 * own replay_*. */
static int clear_metrics(struct sl_store *s, int64_t run_id, int fidelity, struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s, fidelity ? "DELETE FROM metric WHERE run_id = ?"
						" AND name LIKE 'fidelity\\_%' ESCAPE '\\'"
					      : "DELETE FROM metric WHERE run_id = ?"
						" AND name NOT LIKE 'fidelity\\_%' ESCAPE '\\'"
						" AND name NOT LIKE 'replay\\_%' ESCAPE '\\'",
				  d);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run_id);
	return st_run_once(s, q, d, "clearing metrics");
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
	sqlite3_stmt *q = st_prep(s, "UPDATE run SET cpus = ? WHERE id = ?", d);
	if (!q)
		return -1;
	sqlite3_bind_int(q, 1, cpus);
	sqlite3_bind_int64(q, 2, run_id);
	if (st_run_once(s, q, d, "updating a run"))
		return -1;
	return 0;
}

int sl_store_set_run_params(struct sl_store *s, int64_t run_id, const char *params, struct sl_diag *d)
{
	sqlite3_stmt *q = st_prep(s, "UPDATE run SET params = ? WHERE id = ?", d);
	if (!q)
		return -1;
	sqlite3_bind_text(q, 1, params, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(q, 2, run_id);
	if (st_run_once(s, q, d, "updating a run"))
		return -1;
	return 0;
}

void sl_store_cache(struct sl_store *s, int reading)
{
	/* 8 MiB for imports and replays: their rows only append pages (no
	 * index takes random inserts), so a small cache loses nothing, and
	 * once it is full the pages go to the file as the writer thread fills
	 * them, beside the decoding, instead of all at COMMIT; and the same
	 * few MiB are reused instead of faulting in fresh ones (64 MiB cost a
	 * 400k-event import and its replays a third more CPU time). A pass
	 * reading each run's packs once needs little (their pages are not read
	 * again). */
	st_exec(s, reading ? "PRAGMA cache_size = -4096" : "PRAGMA cache_size = -8192", NULL);
}

void sl_store_map_reads(struct sl_store *s)
{
	st_exec(s, "PRAGMA mmap_size = 268435456", NULL);
}

const char *sl_store_path(const struct sl_store *s)
{
	return s->path;
}
