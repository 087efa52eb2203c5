/* analyze/store_pack.c - a run's rows also kept packed (table run_pack,
 * docs/schema.md): the rows a run writes to sched_slice, wakeup, staircase,
 * rotation and vlag are coded, in the order written, into chunks of up to
 * PACK_ROWS rows that schedlab reads back instead of stepping SQLite
 * through every row (a report or compare of a 15M-event trace was mostly
 * that).
 *
 * A chunk is its rows one after the other, each: a byte whose bit c says
 * column c is NULL, then every other non-NULL column as a LEB128 varint.
 * How a column is coded (pk_cols below): 'd' zigzag of its difference with
 * the previous row's value (timestamps; the previous row of a chunk's first
 * row is all 0), 'D' zigzag of its difference with this row's 'd' column
 * (wakeup.ts_run - ts), 'r' zigzag of the value, 't' the text column's up
 * to 7 bytes as a little-endian number, 'x' not stored (run_id, the chunk's
 * own). Chunks decode on their own; a chunk that does not decode to its
 * row count is an error, not a crash. */
#include "store_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *table;
	const char *cols; /* one letter per column, in the rowbuf's order */
} pk[RB_COUNT] = {
	/* run_id, ts, dur, cpu, utid, end_state, priority */
	[RB_SLICE] = { "sched_slice", "xdrrrtr" },
	/* run_id, utid, ts, ts_run, waker_utid, cpu */
	[RB_WAKEUP] = { "wakeup", "xrdDrr" },
	/* run_id, utid, ts, level, array */
	[RB_STAIR] = { "staircase", "xrdrr" },
	/* run_id, cpu, ts, kind, level */
	[RB_ROT] = { "rotation", "xrdtr" },
	/* run_id, utid, ts, lag */
	[RB_VLAG] = { "vlag", "xrdr" },
};

static uint64_t zz(uint64_t d)
{
	return (d << 1) ^ (0 - (d >> 63));
}

static uint64_t unzz(uint64_t u)
{
	return (u >> 1) ^ (0 - (u & 1));
}

static void put_varint(struct packenc *e, uint64_t v)
{
	if (e->len + 10 > e->cap) {
		e->cap = e->cap ? 2 * e->cap : 1 << 16;
		e->buf = xrealloc(e->buf, e->cap);
	}
	while (v >= 0x80) {
		e->buf[e->len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	e->buf[e->len++] = (unsigned char)v;
}

static uint64_t txt_num(const char *t)
{
	uint64_t v = 0;
	int i;
	for (i = 0; i < 7 && t[i]; i++)
		v |= (uint64_t)(unsigned char)t[i] << (8 * i);
	return v;
}

void st_pack_row(struct packenc *e, int kind, const int64_t *v, const char (*txt)[8])
{
	const char *cols = pk[kind].cols;
	unsigned nulls = 0;
	uint64_t dval = 0;
	int c;
	if (!e->rows)
		memset(e->prev, 0, sizeof(e->prev));
	e->run_id = v[0];
	for (c = 1; cols[c]; c++)
		if (cols[c] != 't' && v[c] == NULL_VAL)
			nulls |= 1u << c;
	put_varint(e, nulls);
	for (c = 1; cols[c]; c++) {
		uint64_t x = (uint64_t)v[c];
		if (nulls & (1u << c))
			continue;
		switch (cols[c]) {
		case 'd':
			put_varint(e, zz(x - (uint64_t)e->prev[c]));
			e->prev[c] = v[c];
			dval = x;
			break;
		case 'D':
			put_varint(e, zz(x - dval));
			break;
		case 't':
			put_varint(e, txt_num(txt[c]));
			break;
		default:
			put_varint(e, zz(x));
		}
	}
	e->rows++;
}

int st_pack_flush(struct sl_store *s, struct packenc *e, int kind, struct sl_diag *d)
{
	sqlite3_stmt *q = s->st[ST_PACK];
	if (!e->rows)
		return 0;
	sqlite3_bind_int64(q, 1, e->run_id);
	sqlite3_bind_text(q, 2, pk[kind].table, -1, SQLITE_STATIC);
	sqlite3_bind_int64(q, 3, e->seq);
	sqlite3_bind_int64(q, 4, e->rows);
	sqlite3_bind_blob(q, 5, e->buf, (int)e->len, SQLITE_STATIC);
	if (st_step_done(s, q, d, "adding a run's packed rows"))
		return -1;
	e->seq++;
	e->rows = 0;
	e->len = 0;
	return 0;
}

void st_pack_free(struct packenc *e)
{
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

#if defined(__GNUC__)
#define INLINE static inline __attribute__((always_inline))
#else
#define INLINE static inline
#endif

INLINE int get_varint(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	uint64_t x = 0;
	int shift;
	if (*p < end && !(**p & 0x80)) { /* most are one byte */
		*v = *(*p)++;
		return 0;
	}
	for (shift = 0; shift < 70 && *p < end; shift += 7) {
		unsigned char b = *(*p)++;
		x |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

/* Decode one chunk of n rows into fn, its columns coded as cols says
 * (inlined with each table's constant cols: the column loop unrolled). */
INLINE int unpack_cols(const char *cols, struct sl_store *s, int kind, int64_t run_id,
		       const unsigned char *p, const unsigned char *end, int64_t n,
		       int (*fn)(void *ctx, const int64_t *v, const char (*txt)[8]), void *ctx,
		       struct sl_diag *d)
{
	int64_t v[MAX_COLS], prev[MAX_COLS] = { 0 };
	char txt[MAX_COLS][8];
	int64_t r;
	int c;
	v[0] = run_id;
	for (r = 0; r < n; r++) {
		uint64_t nulls, x, dval = 0;
		if (get_varint(&p, end, &nulls))
			goto bad;
		for (c = 1; cols[c]; c++) {
			if (nulls & (1u << c)) {
				v[c] = NULL_VAL;
				continue;
			}
			if (get_varint(&p, end, &x))
				goto bad;
			switch (cols[c]) {
			case 'd':
				v[c] = prev[c] = (int64_t)((uint64_t)prev[c] + unzz(x));
				dval = (uint64_t)v[c];
				break;
			case 'D':
				v[c] = (int64_t)(dval + unzz(x));
				break;
			case 't': {
				int i;
				for (i = 0; i < 8; i++)
					txt[c][i] = (char)(x >> (8 * i));
				txt[c][7] = 0;
				v[c] = 0;
				break;
			}
			default:
				v[c] = (int64_t)unzz(x);
			}
		}
		if (fn(ctx, v, (const char(*)[8])txt))
			return -1;
	}
	if (p == end)
		return 0;
bad:
	return sl_fail(d, "%s: run %" PRId64 ": its packed %s rows do not decode (damaged run_pack)",
		       s->path, run_id, pk[kind].table);
}

static int unpack_chunk(struct sl_store *s, int kind, int64_t run_id, const unsigned char *p,
			const unsigned char *end, int64_t n,
			int (*fn)(void *ctx, const int64_t *v, const char (*txt)[8]), void *ctx,
			struct sl_diag *d)
{
	switch (kind) { /* the cols of pk[] */
	case RB_SLICE:
		return unpack_cols("xdrrrtr", s, kind, run_id, p, end, n, fn, ctx, d);
	case RB_WAKEUP:
		return unpack_cols("xrdDrr", s, kind, run_id, p, end, n, fn, ctx, d);
	case RB_STAIR:
		return unpack_cols("xrdrr", s, kind, run_id, p, end, n, fn, ctx, d);
	case RB_VLAG:
		return unpack_cols("xrdr", s, kind, run_id, p, end, n, fn, ctx, d);
	default:
		return unpack_cols(pk[kind].cols, s, kind, run_id, p, end, n, fn, ctx, d);
	}
}

int st_pack_read(struct sl_store *s, int64_t run_id, int kind, int64_t *nrows,
		 int (*fn)(void *ctx, const int64_t *v, const char (*txt)[8]), void *ctx,
		 struct sl_diag *d)
{
	sqlite3_stmt *q;
	int64_t want = -1, have = 0, bytes = 0, bad = 0;
	int rc;
	q = st_prep(s, "SELECT (SELECT rows FROM run_rows WHERE run_id = ?1 AND tbl = ?2),"
		       " (SELECT COALESCE(SUM(rows), 0) FROM run_pack WHERE run_id = ?1 AND tbl = ?2),"
		       " (SELECT COALESCE(SUM(length(data)), 0) FROM run_pack WHERE run_id = ?1 AND tbl = ?2),"
		       " (SELECT COUNT(*) FROM run_pack WHERE run_id = ?1 AND tbl = ?2"
		       "  AND (rows < 0 OR rows > length(data) OR typeof(data) != 'blob'))",
		    d);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run_id);
	sqlite3_bind_text(q, 2, pk[kind].table, -1, SQLITE_STATIC);
	if (sqlite3_step(q) != SQLITE_ROW) {
		sqlite3_finalize(q);
		return st_dberr(s, d, "loading a run");
	}
	if (sqlite3_column_type(q, 0) != SQLITE_NULL)
		want = sqlite3_column_int64(q, 0);
	have = sqlite3_column_int64(q, 1);
	bytes = sqlite3_column_int64(q, 2);
	bad = sqlite3_column_int64(q, 3);
	sqlite3_finalize(q);
	/* every packed row takes at least one byte (its null mask): a count
	 * the blobs cannot hold is damage, refused before anything is
	 * allocated for it */
	if (bad || (want >= 0 && have == want && want > bytes))
		return sl_fail(d, "%s: run %" PRId64 ": its packed %s rows claim more rows than their "
			       "%" PRId64 " bytes can hold (damaged run_pack)",
			       s->path, run_id, pk[kind].table, bytes);
	/* a run written before version 7, or copied by merge: no pack */
	if (want < 0 || have != want)
		return 0;
	*nrows = want;
	if (!fn)
		return 1;
	q = st_prep(s, "SELECT rows, data FROM run_pack WHERE run_id = ?1 AND tbl = ?2 ORDER BY seq",
		    d);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 1, run_id);
	sqlite3_bind_text(q, 2, pk[kind].table, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const unsigned char *p = sqlite3_column_blob(q, 1);
		int len = sqlite3_column_bytes(q, 1);
		if (unpack_chunk(s, kind, run_id, p, p + len, sqlite3_column_int64(q, 0), fn, ctx, d)) {
			sqlite3_finalize(q);
			return -1;
		}
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 1 : st_dberr(s, d, "loading a run");
}
