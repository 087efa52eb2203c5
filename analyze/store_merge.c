/* analyze/store_merge.c - one database from many (schedlab merge), see merge.h.
 *
 * Each input is ATTACHed to the output's connection and copied inside one
 * transaction over all inputs: the output gets everything or nothing. Ids
 * are renumbered through three temporary maps filled before any row is
 * copied:
 * - map_trace: a trace whose sha256 the output has already is kept once
 *   (its id in the output); a new trace gets the next free id;
 * - map_utid: the threads of a kept trace map one to one, in utid order,
 *   onto the output's threads of that trace (imports are deterministic, so
 *   the same file gives the same threads in the same order: checked by tid
 *   and comm); a new trace's threads get fresh utids;
 * - map_run: every run of the input is a new run of the output (runs of a
 *   trace present in both are joined under the one trace).
 * Every table of the schema is copied column by column (so columns added
 * by later schemas come along), with its id columns mapped; a table this
 * file does not know refuses the merge instead of being dropped silently.
 */
#include "merge.h"
#include "store.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

/* How each table's id columns map; tables of rows copied per run first. */
struct mtable {
	const char *name;
	int per_trace;  /* rows belong to a trace: copied only for new traces */
};
static const struct mtable tables[] = {
	{ "trace", 1 },     { "trace_cpu", 1 }, { "thread", 1 },    { "task_model", 1 },
	{ "run", 0 },       { "run_rows", 0 },  { "sched_slice", 0 }, { "wakeup", 0 },
	{ "staircase", 0 }, { "vlag", 0 },      { "rotation", 0 },  { "metric", 0 },
	{ "task_stat", 0 },        { "ledger_thread", 1 },   { "recorded_work", 1 },
	{ "cpu_first", 1 },      { "start_pelt", 1 },
};

/* The expression that maps column col of table t (read from alias x). */
static const char *map_expr(const char *t, const char *col, char *buf, size_t len)
{
	if ((!strcmp(t, "trace") && !strcmp(col, "id")) || !strcmp(col, "trace_id"))
		snprintf(buf, len, "(SELECT new FROM temp.map_trace WHERE old = x.%s)", col);
	else if ((!strcmp(t, "run") && !strcmp(col, "id")) || !strcmp(col, "run_id"))
		snprintf(buf, len, "(SELECT new FROM temp.map_run WHERE old = x.%s)", col);
	else if (!strcmp(col, "utid") || !strcmp(col, "waker_utid") || !strcmp(col, "parent_utid"))
		snprintf(buf, len, "(SELECT new FROM temp.map_utid WHERE old = x.%s)", col);
	else if (!strcmp(t, "task_model") && !strcmp(col, "phases"))
		/* each phase's waker utid (index 4, or null) mapped too */
		snprintf(buf, len,
			 "(SELECT json_group_array(json(CASE WHEN json_type(j.value, '$[4]') = 'integer'"
			 " THEN json_set(j.value, '$[4]', (SELECT new FROM temp.map_utid WHERE old ="
			 " json_extract(j.value, '$[4]'))) ELSE j.value END)) FROM json_each(x.phases) j)");
	else if (!strcmp(t, "run_rows") && (!strcmp(col, "first_rowid") || !strcmp(col, "last_rowid")))
		snprintf(buf, len, "0"); /* recomputed once the rows are in */
	else
		snprintf(buf, len, "x.%s", col);
	return buf;
}

static int exec(sqlite3 *db, const char *sql, const char *what, struct sl_diag *d)
{
	char *err = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		sl_fail(d, "%s: %s", what, err ? err : sqlite3_errmsg(db));
		sqlite3_free(err);
		return -1;
	}
	return 0;
}

/* One integer from a query (0 if no row). */
static int64_t scalar(sqlite3 *db, const char *sql, int *ok)
{
	sqlite3_stmt *q;
	int64_t v = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) {
		*ok = 0;
		return 0;
	}
	if (sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

/* Refuse a table of the input that this merge does not know (with rows). */
static int known_tables(sqlite3 *db, const char *in, struct sl_diag *d)
{
	sqlite3_stmt *q;
	int rc = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM inp.sqlite_master WHERE type = 'table'"
				   " AND name NOT LIKE 'sqlite_%' ORDER BY name", -1, &q, NULL) != SQLITE_OK)
		return sl_fail(d, "%s: %s", in, sqlite3_errmsg(db));
	while (!rc && sqlite3_step(q) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(q, 0);
		size_t k;
		for (k = 0; k < SL_ARRAY_SIZE(tables); k++)
			if (t && !strcmp(t, tables[k].name))
				break;
		/* run_pack is not copied: its rows hold the input's utids, which
		 * merge renumbers; the merged runs are read from their rows */
		if (k == SL_ARRAY_SIZE(tables) && t && !strcmp(t, "run_pack"))
			continue;
		if (k == SL_ARRAY_SIZE(tables))
			rc = sl_fail(d, "%s: table '%s' is unknown to merge: not merged", in, t ? t : "?");
	}
	sqlite3_finalize(q);
	return rc;
}

/* INSERT INTO main.t (cols) SELECT mapped cols FROM inp.t x [WHERE cond]. */
static int copy_table(sqlite3 *db, const char *t, const char *cond, const char *in,
		      struct sl_diag *d)
{
	sqlite3_stmt *q;
	char pragma[128], ex[512];
	char *cols = NULL, *sel = NULL, *sql;
	size_t lc = 0, ls = 0;
	int rc = 0;
	snprintf(pragma, sizeof(pragma), "PRAGMA main.table_info(%s)", t);
	if (sqlite3_prepare_v2(db, pragma, -1, &q, NULL) != SQLITE_OK)
		return sl_fail(d, "%s: %s", in, sqlite3_errmsg(db));
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(q, 1);
		const char *e = map_expr(t, c, ex, sizeof(ex));
		size_t nc = strlen(c), ne = strlen(e);
		cols = xrealloc(cols, lc + nc + 3);
		lc += (size_t)snprintf(cols + lc, nc + 3, "%s%s", lc ? ", " : "", c);
		sel = xrealloc(sel, ls + ne + 3);
		ls += (size_t)snprintf(sel + ls, ne + 3, "%s%s", ls ? ", " : "", e);
	}
	sqlite3_finalize(q);
	if (!cols)
		return sl_fail(d, "%s: no table %s in the output", in, t);
	/* rows in the input's order (task_stat is WITHOUT ROWID: key order) */
	sql = sqlite3_mprintf("INSERT INTO main.%s (%s) SELECT %s FROM inp.%s x%s%s%s", t, cols, sel,
			      t, cond ? " WHERE " : "", cond ? cond : "",
			      strcmp(t, "task_stat") ? " ORDER BY x.rowid" : "");
	{
		char what[160];
		snprintf(what, sizeof(what), "%s: copying %s", in, t);
		rc = exec(db, sql, what, d);
	}
	sqlite3_free(sql);
	free(cols);
	free(sel);
	return rc;
}

/* The maps of one input (see the top of the file). */
static int build_maps(sqlite3 *db, const char *in, struct sl_diag *d)
{
	sqlite3_stmt *q;
	int ok = 1, rc = 0;
	if (exec(db,
		 "DELETE FROM temp.map_trace; DELETE FROM temp.map_utid; DELETE FROM temp.map_run;"
		 "INSERT INTO temp.map_trace (old, new, kept) SELECT i.id, o.id, 1 FROM inp.trace i"
		 " JOIN main.trace o ON o.sha256 = i.sha256;",
		 in, d))
		return -1;
	/* new traces: the next free ids, in the input's order */
	if (exec(db,
		 "INSERT INTO temp.map_trace (old, new, kept) SELECT i.id, (SELECT COALESCE(MAX(id), 0)"
		 " FROM main.trace) + ROW_NUMBER() OVER (ORDER BY i.id), 0 FROM inp.trace i"
		 " WHERE i.id NOT IN (SELECT old FROM temp.map_trace);"
		 "INSERT INTO temp.map_utid (old, new) SELECT t.utid, (SELECT COALESCE(MAX(utid), 0)"
		 " FROM main.thread) + ROW_NUMBER() OVER (ORDER BY t.utid) FROM inp.thread t"
		 " JOIN temp.map_trace m ON m.old = t.trace_id AND m.kept = 0;"
		 /* a kept trace's recorded run is part of its import: kept once */
		 "INSERT INTO temp.map_run (old, new) SELECT r.id, (SELECT COALESCE(MAX(id), 0)"
		 " FROM main.run) + ROW_NUMBER() OVER (ORDER BY r.id) FROM inp.run r"
		 " JOIN temp.map_trace m ON m.old = r.trace_id WHERE NOT (m.kept = 1 AND"
		 " r.scheduler = 'recorded' AND EXISTS (SELECT 1 FROM main.run o WHERE"
		 " o.trace_id = m.new AND o.scheduler = 'recorded'));",
		 in, d))
		return -1;
	/* kept traces: their threads one to one, in utid order */
	if (sqlite3_prepare_v2(db, "SELECT old, new FROM temp.map_trace WHERE kept = 1 ORDER BY old",
			       -1, &q, NULL) != SQLITE_OK)
		return sl_fail(d, "%s: %s", in, sqlite3_errmsg(db));
	while (!rc && sqlite3_step(q) == SQLITE_ROW) {
		int64_t old = sqlite3_column_int64(q, 0), nw = sqlite3_column_int64(q, 1);
		char *sql = sqlite3_mprintf(
			"INSERT INTO temp.map_utid (old, new) SELECT i.utid, o.utid FROM"
			" (SELECT utid, tid, comm, ROW_NUMBER() OVER (ORDER BY utid) AS k FROM inp.thread"
			" WHERE trace_id = %lld) i JOIN (SELECT utid, tid, comm, ROW_NUMBER() OVER"
			" (ORDER BY utid) AS k FROM main.thread WHERE trace_id = %lld) o"
			" ON o.k = i.k AND o.tid = i.tid AND o.comm = i.comm",
			(long long)old, (long long)nw);
		char *cnt = sqlite3_mprintf("SELECT (SELECT COUNT(*) FROM inp.thread WHERE trace_id = %lld)"
					    " - (SELECT COUNT(*) FROM temp.map_utid m JOIN inp.thread t ON"
					    " t.utid = m.old WHERE t.trace_id = %lld) + ABS((SELECT COUNT(*)"
					    " FROM inp.thread WHERE trace_id = %lld) - (SELECT COUNT(*) FROM"
					    " main.thread WHERE trace_id = %lld))",
					    (long long)old, (long long)old, (long long)old, (long long)nw);
		rc = exec(db, sql, in, d);
		if (!rc && scalar(db, cnt, &ok) != 0)
			rc = sl_fail(d, "%s: trace %" PRId64 " has the sha256 of trace %" PRId64
				     " of the output but not the same threads: not merged",
				     in, old, nw);
		if (!rc && !ok)
			rc = sl_fail(d, "%s: %s", in, sqlite3_errmsg(db));
		sqlite3_free(sql);
		sqlite3_free(cnt);
	}
	sqlite3_finalize(q);
	return rc;
}

static int merge_one(sqlite3 *db, const char *in, struct sl_diag *d)
{
	char *att;
	int v, ok = 1, rc = 0;
	size_t k;
	/* the path goes through sqlite's own quoting */
	att = sqlite3_mprintf("ATTACH DATABASE %Q AS inp", in);
	if (exec(db, att, in, d)) {
		sqlite3_free(att);
		return -1;
	}
	sqlite3_free(att);
	if (exec(db, "BEGIN IMMEDIATE", in, d)) {
		exec(db, "DETACH DATABASE inp", in, NULL);
		return -1;
	}
	v = (int)scalar(db, "PRAGMA inp.user_version", &ok);
	if (!ok || !scalar(db, "SELECT COUNT(*) FROM inp.sqlite_master WHERE name = 'run'", &ok))
		rc = sl_fail(d, "%s: not a schedlab database", in);
	else if (v != SL_SCHEMA_VERSION)
		rc = sl_fail(d, "%s: schema version %d, this schedlab writes version %d: open it once with "
			     "this schedlab (schedlab --db %s analyze) to upgrade it, then merge",
			     in, v, SL_SCHEMA_VERSION, in);
	if (!rc)
		rc = known_tables(db, in, d);
	if (!rc)
		rc = build_maps(db, in, d);
	for (k = 0; !rc && k < SL_ARRAY_SIZE(tables); k++) {
		const char *t = tables[k].name, *cond = NULL;
		char c[200];
		snprintf(c, sizeof(c), "SELECT COUNT(*) FROM inp.sqlite_master WHERE type = 'table'"
			 " AND name = '%s'", t);
		if (!scalar(db, c, &ok))
			continue; /* an older layout without it: nothing to copy */
		if (tables[k].per_trace) {
			snprintf(c, sizeof(c), "(SELECT kept FROM temp.map_trace WHERE old = x.%s) = 0",
				 !strcmp(t, "trace") ? "id" : !strcmp(t, "task_model") ? "utid" : "trace_id");
			if (!strcmp(t, "task_model"))
				snprintf(c, sizeof(c), "x.utid IN (SELECT t.utid FROM inp.thread t JOIN"
					 " temp.map_trace m ON m.old = t.trace_id AND m.kept = 0)");
			cond = c;
		} else {
			/* the runs that map_run holds (not a kept recorded run) */
			snprintf(c, sizeof(c), "x.%s IN (SELECT old FROM temp.map_run)",
				 !strcmp(t, "run") ? "id" : "run_id");
			cond = c;
		}
		rc = copy_table(db, t, cond, in, d);
	}
	/* the rowid ranges of the copied runs' rows */
	if (!rc)
		rc = exec(db,
			  "UPDATE main.run_rows SET"
			  " first_rowid = COALESCE(CASE tbl"
			  "  WHEN 'sched_slice' THEN (SELECT MIN(rowid) FROM main.sched_slice s WHERE s.run_id = run_rows.run_id)"
			  "  WHEN 'wakeup' THEN (SELECT MIN(rowid) FROM main.wakeup s WHERE s.run_id = run_rows.run_id)"
			  "  WHEN 'staircase' THEN (SELECT MIN(rowid) FROM main.staircase s WHERE s.run_id = run_rows.run_id)"
			  "  WHEN 'vlag' THEN (SELECT MIN(rowid) FROM main.vlag s WHERE s.run_id = run_rows.run_id)"
			  "  WHEN 'rotation' THEN (SELECT MIN(rowid) FROM main.rotation s WHERE s.run_id = run_rows.run_id)"
			  "  END, 1),"
			  " last_rowid = COALESCE(CASE tbl"
			  "  WHEN 'sched_slice' THEN (SELECT MAX(rowid) FROM main.sched_slice s WHERE s.run_id = run_rows.run_id)"
			  "  WHEN 'wakeup' THEN (SELECT MAX(rowid) FROM main.wakeup s WHERE s.run_id = run_rows.run_id)"
			  "  WHEN 'staircase' THEN (SELECT MAX(rowid) FROM main.staircase s WHERE s.run_id = run_rows.run_id)"
			  "  WHEN 'vlag' THEN (SELECT MAX(rowid) FROM main.vlag s WHERE s.run_id = run_rows.run_id)"
			  "  WHEN 'rotation' THEN (SELECT MAX(rowid) FROM main.rotation s WHERE s.run_id = run_rows.run_id)"
			  "  END, 0)"
			  " WHERE run_id IN (SELECT new FROM temp.map_run)",
			  in, d);
	if (rc)
		exec(db, "ROLLBACK", in, NULL);
	else
		rc = exec(db, "COMMIT", in, d);
	if (exec(db, "DETACH DATABASE inp", in, rc ? NULL : d) && !rc)
		rc = -1;
	return rc;
}

/* A copy of the database src (if it exists) at dst, through SQLite's backup
 * API (consistent even if another process writes src meanwhile). */
static int copy_db(const char *src, const char *dst, struct sl_diag *d)
{
	sqlite3 *a = NULL, *b = NULL;
	sqlite3_backup *bk;
	int rc = -1;
	if (access(src, F_OK))
		return 0;
	if (sqlite3_open_v2(src, &a, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_open_v2(dst, &b, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		sl_fail(d, "%s: %s", src, sqlite3_errmsg(a ? a : b));
		goto out;
	}
	bk = sqlite3_backup_init(b, "main", a, "main");
	if (!bk || sqlite3_backup_step(bk, -1) != SQLITE_DONE) {
		sl_fail(d, "%s: %s", src, sqlite3_errmsg(b));
		sqlite3_backup_finish(bk);
		goto out;
	}
	if (sqlite3_backup_finish(bk) != SQLITE_OK) {
		sl_fail(d, "%s: %s", dst, sqlite3_errmsg(b));
		goto out;
	}
	rc = 0;
out:
	sqlite3_close(a);
	sqlite3_close(b);
	return rc;
}

int sl_merge(const char *out, const char *const *in, size_t nin, struct sl_merge_stats *st,
	     struct sl_diag *d)
{
	struct sl_store *s = NULL;
	sqlite3 *db = NULL;
	size_t i;
	int rc = -1, ok = 1;
	int64_t runs0 = 0, traces0 = 0;
	char tmp[4096];
	memset(st, 0, sizeof(*st));
	for (i = 0; i < nin; i++)
		if (!strcmp(in[i], out))
			return sl_fail(d, "%s: the output cannot also be an input", in[i]);
	/* All inputs go into a copy of the output (each input in a
	 * transaction of its own: SQLite cannot detach a database inside a
	 * transaction, nor attach more than a few at once), renamed over the
	 * output at the end: the output changes all at once, or not at all. */
	if (snprintf(tmp, sizeof(tmp), "%s.merge-tmp", out) >= (int)sizeof(tmp))
		return sl_fail(d, "%s: name too long", out);
	unlink(tmp);
	if (copy_db(out, tmp, d))
		goto out;
	/* the copy with this schedlab's schema (created, or upgraded) */
	if (sl_store_open(tmp, 1, &s, d))
		goto out;
	sl_store_close(s);
	if (sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		sl_fail(d, "%s: %s", out, db ? sqlite3_errmsg(db) : "cannot open");
		goto out;
	}
	if (exec(db,
		 "PRAGMA foreign_keys = OFF;"
		 "CREATE TEMP TABLE map_trace (old INTEGER PRIMARY KEY, new INTEGER NOT NULL, kept INTEGER NOT NULL);"
		 "CREATE TEMP TABLE map_utid (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);"
		 "CREATE TEMP TABLE map_run (old INTEGER PRIMARY KEY, new INTEGER NOT NULL);",
		 out, d))
		goto out;
	traces0 = scalar(db, "SELECT COUNT(*) FROM main.trace", &ok);
	runs0 = scalar(db, "SELECT COUNT(*) FROM main.run", &ok);
	for (i = 0; i < nin; i++)
		if (merge_one(db, in[i], d))
			goto out;
	st->inputs = nin;
	st->traces = (size_t)(scalar(db, "SELECT COUNT(*) FROM main.trace", &ok) - traces0);
	st->runs = (size_t)(scalar(db, "SELECT COUNT(*) FROM main.run", &ok) - runs0);
	if (sqlite3_close(db) != SQLITE_OK) {
		sl_fail(d, "%s: %s", out, sqlite3_errmsg(db));
		db = NULL;
		goto out;
	}
	db = NULL;
	if (rename(tmp, out)) {
		sl_fail(d, "%s: %s", out, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	sqlite3_close(db);
	if (rc)
		unlink(tmp);
	return rc;
}
