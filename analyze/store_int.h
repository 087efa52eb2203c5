/* analyze/store_int.h - private to the store's files (store.c: connection,
 * schema, migrations, transactions and the small rows; store_write.c: the
 * row writer, its thread and the run sink; store_behaviour.c: the behaviour
 * and its phases JSON; store_load.c: runs read back). Only these files
 * include sqlite3.h; the rest of schedlab goes through store.h. */
#ifndef SL_STORE_INT_H
#define SL_STORE_INT_H

#include "store.h"

#include <pthread.h>
#include <sqlite3.h>

enum {
	ST_METRIC,
	ST_THREAD,
	ST_MODEL,
	ST_PACK,
	ST_COUNT
};

#define MAX_BINDS 8
#define NULL_VAL INT64_MIN

enum { RB_SLICE, RB_WAKEUP, RB_STAIR, RB_ROT, RB_VLAG, RB_COUNT };
#define MAX_COLS 7

/* Rows of a run are staged JOB rows at a time; a full stage goes to the
 * writer thread, which inserts it with one statement (store_write.c,
 * sl_stage) while the caller goes on computing (an import's decoding or a
 * replay's engine); the rest goes in at commit. The connection is never
 * used by two threads at once: every other use of it first waits for the
 * writer to be idle (quiesce). */
#define JOB 1024
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

/* A run's rows of one table being packed (store_pack.c): the chunk being
 * coded, written to run_pack at PACK_ROWS rows and at commit. */
#define PACK_ROWS 65536
struct packenc {
	unsigned char *buf;
	size_t len, cap;
	int64_t prev[MAX_COLS]; /* the previous row's values ('d' columns) */
	int64_t rows;           /* in buf */
	int64_t seq;            /* the next chunk's */
	int64_t run_id;
};

/* A task's sums for task_stat (indexed by the sink's task number). */
struct tstat {
	int64_t runtime, switches, wakeups, delayed, dsum, dmax, uncertain;
};

/* what a bind has pending: a stage per table, its row ranges, its tasks' sums */
struct pend {
	struct rowbuf *stage[RB_COUNT];
	struct rowstat stat[RB_COUNT];
	struct packenc enc[RB_COUNT];
	struct tstat *ts;
	size_t nts;
};

struct job {
	struct rowbuf *rb;
	struct rowstat *stat;
	struct packenc *enc;
	int kind;
};

struct sl_store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *st[ST_COUNT];
	sqlite3_stmt *ins[RB_COUNT];      /* a stage's INSERT ... FROM sl_stage */
	const struct rowbuf *vt_rb;       /* the stage sl_stage shows, and its kind */
	int vt_kind;
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
	int wbfd;              /* the database file for st_writeback: fd + 1, 0 not
				* open yet, -1 none */
	unsigned wbjobs;       /* jobs the writer did since its last st_writeback */
};

/* SQL condition selecting the rows of run PARAM (e.g. "?1") in TBL, one of
 * sched_slice, wakeup, staircase, rotation, vlag: a rowid range from run_rows
 * (those tables have no run_id index), the whole table for a run without
 * run_rows (written by schema version 1), and run_id = PARAM. Use it on
 * the table alone (rowid must be TBL's). */
#define SL_RUN_ROWS(tbl, param)                                                                   \
	"rowid BETWEEN COALESCE((SELECT first_rowid FROM run_rows WHERE run_id = " param            \
	" AND tbl = '" tbl "'), 1) AND COALESCE((SELECT last_rowid FROM run_rows WHERE run_id = "  \
	param " AND tbl = '" tbl "'), 9223372036854775807) AND run_id = " param

/* store.c: errors, statements */
/* d->msg = "PATH: what: SQLite's message"; returns -1 */
int st_dberr(struct sl_store *s, struct sl_diag *d, const char *what);
/* run SQL text (after the writer is idle) */
int st_exec(struct sl_store *s, const char *sql, struct sl_diag *d);
/* prepare a one-off statement (after the writer is idle); NULL with d set */
sqlite3_stmt *st_prep(struct sl_store *s, const char *sql, struct sl_diag *d);
/* step an insert/update statement with its bindings, then reset it */
int st_step_done(struct sl_store *s, sqlite3_stmt *q, struct sl_diag *d, const char *what);
/* step a one-off statement to completion and finalize it */
int st_run_once(struct sl_store *s, sqlite3_stmt *q, struct sl_diag *d, const char *what);
/* prepare sql with ?1 = id and step to its row, or NULL ("no KIND with id N") */
sqlite3_stmt *st_row_by_id(struct sl_store *s, const char *sql, int64_t id, const char *kind,
			   struct sl_diag *d);
void st_bind_u64(sqlite3_stmt *q, int i, uint64_t v);
void st_col_text(sqlite3_stmt *q, int i, char *dst, size_t n);

/* start writing the database file's dirty pages to disk, not waiting */
void st_writeback(struct sl_store *s);

/* store_write.c: the writer thread and the binds' pending rows */
/* the virtual table sl_stage on s's connection: 0, or -1 */
int st_stage_register(struct sl_store *s);
/* wait until the writer is idle: 0, or -1 (d set when given) if it failed */
int st_quiesce(struct sl_store *s, struct sl_diag *d);
/* end the writer thread after its queue (at a transaction's end) */
void st_stop_writer(struct sl_store *s);
/* write the binds' pending rows, run_rows and task_stat (commit) */
int st_flush_binds(struct sl_store *s, struct sl_diag *d);
/* forget the binds' pending rows (rollback) */
void st_drop_binds(struct sl_store *s);

/* store_pack.c: rows packed beside the tables (run_pack) */
/* code a row (v and txt as in a rowbuf) at the end of e's chunk */
void st_pack_row(struct packenc *e, int kind, const int64_t *v, const char (*txt)[8]);
/* write e's chunk (if it has rows) to run_pack and start the next */
int st_pack_flush(struct sl_store *s, struct packenc *e, int kind, struct sl_diag *d);
void st_pack_free(struct packenc *e);
/* Read run_id's rows of table kind (RB_*) from run_pack, in the order
 * written, into fn (v, txt as in a rowbuf; v[0] = run_id; NULL as
 * NULL_VAL): 1 (*nrows set first), or 0 when the run has no complete pack
 * (written before version 7, or merged: read its rows), or -1 (d set). */
int st_pack_read(struct sl_store *s, int64_t run_id, int kind, int64_t *nrows,
		 int (*fn)(void *ctx, const int64_t *v, const char (*txt)[8]), void *ctx,
		 struct sl_diag *d);

#endif
