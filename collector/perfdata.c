/* collector/perfdata.c - the perf.data reader (perf record / perf sched
 * record files, "PERFILE2"), read natively: no perf binary at run time.
 *
 * Layout (tools/perf/Documentation/perf.data-file-format.txt): a 104-byte
 * header with the attrs, data and feature-bitmap sections; each attr entry is
 * struct perf_event_attr followed by a section of the sample ids it owns; the
 * data section is a stream of records (u32 type, u16 misc, u16 size); the
 * feature sections follow the data, one {offset, size} per set bit, and
 * HEADER_TRACING_DATA (bit 1) holds the tracepoint formats (perfdata_tp.c).
 *
 * Samples of different CPUs are interleaved out of time order, so events are
 * kept in a buffer and released in rounds, the way perf itself does it:
 * perf record writes PERF_RECORD_FINISHED_ROUND after each pass over all
 * ring buffers, and after the end of pass n+1 every event at or before the
 * largest time seen up to the end of pass n is final. Without such records
 * everything is sorted at the end.
 *
 * Pipe-mode files (perf record -o -, a 16-byte header) carry the attrs and
 * the tracing data as records (HEADER_ATTR, HEADER_TRACING_DATA: the
 * formats follow that record) before the samples; they are read in the same
 * single pass.
 *
 * Hostile files: every size and count is checked against the file before
 * use; a record running past the end of the data imports what came before
 * it with a warning naming the offset; nonsense fails with FILE:OFFSET. */
#include "event.h"
#include "evsort.h"
#include "perfdata_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <zstd.h>
#include <unistd.h>

/* sample_type bits (include/uapi/linux/perf_event.h) */
enum {
	S_IP = 1 << 0, S_TID = 1 << 1, S_TIME = 1 << 2, S_ADDR = 1 << 3, S_READ = 1 << 4,
	S_CALLCHAIN = 1 << 5, S_ID = 1 << 6, S_CPU = 1 << 7, S_PERIOD = 1 << 8,
	S_STREAM_ID = 1 << 9, S_RAW = 1 << 10, S_IDENTIFIER = 1 << 16,
};
/* read_format bits */
enum { R_ENABLED = 1, R_RUNNING = 2, R_ID = 4, R_GROUP = 8, R_LOST = 16 };
/* record types */
enum {
	REC_LOST = 2, REC_COMM = 3, REC_EXIT = 4, REC_FORK = 7, REC_SAMPLE = 9,
	REC_LOST_SAMPLES = 13, REC_HEADER_ATTR = 64, REC_HEADER_TRACING_DATA = 66,
	REC_FINISHED_ROUND = 68, REC_AUXTRACE = 71, REC_COMPRESSED = 81, REC_COMPRESSED2 = 83,
};
#define MISC_COMM_EXEC (1 << 13)
#define ATTR_SAMPLE_ID_ALL (1ULL << 18)
#define TYPE_TRACEPOINT 2
#define HDR_SIZE 104
#define FEAT_TRACING_DATA 1
#define MAX_ATTRS 65536
#define MAX_IDS (1u << 24)

struct attr {
	uint32_t type;
	uint64_t config, sample_type, read_format, flags;
	const struct pd_tp *tp;
};

struct idmap {
	uint64_t id;
	uint32_t attr;
};

struct comm_tab {
	int32_t *key; /* tid + 1, 0 = empty */
	char (*comm)[16];
	size_t cap, n;
};

struct pd {
	const char *path;
	const unsigned char *map;
	size_t fsize;
	struct attr *attr;
	size_t nattr;
	struct idmap *ids;
	size_t nids;
	int id_pos;          /* index (u64 words) of the id in a sample, -1 none */
	uint64_t trailer_st; /* sample_type used for sample_id_all trailers, 0 none */
	struct pd_trace tr;
	int have_tp[SL_EV_NTYPES];
	struct comm_tab comms;
	struct sl_evbuf buf; /* pending events, delivered in (time, file order) */
	uint64_t round_max, last_flushed, last_ts, nclamped, nbad;
	uint64_t nlost_rec, lost_summary; /* PERF_RECORD_LOST seen; LOST_SAMPLES totals */
	int flushed_any, compressed_warned;
	/* perf record -z: one zstd stream across the COMPRESSED records; a
	 * record may continue in the next one's output (zrem bytes kept) */
	ZSTD_DStream *zs;
	unsigned char *zbuf;
	size_t zcap, zrem;
	int pipe;    /* pipe-mode file: attrs and formats come as records */
	int dir;     /* perf.data directory: FINISHED_ROUND does not order across files */
	int have_tr; /* tracing data parsed */
	sl_event_fn fn;
	uint64_t cut_at;        /* where the file was cut short (0: whole) */
	void *ctx;
	struct sl_diag *d;
	int stopped;
};

static uint64_t u64at(const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

static uint32_t u32at(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

/* ---- tid -> comm, for cur_comm (as perf script shows it) ---- */

static size_t comm_slot(const struct comm_tab *t, int32_t tid)
{
	size_t h = ((uint32_t)tid * 2654435761u) & (t->cap - 1);
	while (t->key[h] && t->key[h] != tid + 1)
		h = (h + 1) & (t->cap - 1);
	return h;
}

static void comm_set(struct comm_tab *t, int32_t tid, const char *s, size_t n)
{
	size_t h;
	if (tid < 0 || tid == INT32_MAX)
		return;
	if ((t->n + 1) * 2 > t->cap) {
		struct comm_tab nt;
		size_t i;
		nt.cap = t->cap ? t->cap * 2 : 256;
		nt.n = t->n;
		nt.key = xcalloc(nt.cap, sizeof(*nt.key));
		nt.comm = xcalloc(nt.cap, sizeof(*nt.comm));
		for (i = 0; i < t->cap; i++)
			if (t->key[i]) {
				size_t j = comm_slot(&nt, t->key[i] - 1);
				nt.key[j] = t->key[i];
				memcpy(nt.comm[j], t->comm[i], 16);
			}
		free(t->key);
		free(t->comm);
		*t = nt;
	}
	h = comm_slot(t, tid);
	if (!t->key[h]) {
		t->key[h] = tid + 1;
		t->n++;
	}
	sl_copy_comm(t->comm[h], sizeof(t->comm[h]), s, n); /* stored clean */
}

static const char *comm_get(const struct comm_tab *t, int32_t tid)
{
	size_t h;
	if (!t->cap || tid < 0 || tid == INT32_MAX)
		return NULL;
	h = comm_slot(t, tid);
	return t->key[h] ? t->comm[h] : NULL;
}

/* ---- delivery in time order ---- */

static void push(struct pd *pd, struct sl_event *ev)
{
	if (pd->flushed_any && ev->ts < pd->last_flushed) {
		ev->ts = pd->last_flushed; /* later than a round promised; keep order */
		pd->nclamped++;
	}
	if (!ev->cur_comm[0] && ev->cur_pid >= 0) {
		static const char swapper[16] = "swapper";
		const char *c = ev->cur_pid == 0 ? swapper : comm_get(&pd->comms, ev->cur_pid);
		if (c) /* 16 bytes, clean and NUL-terminated (comm_set) */
			memcpy(ev->cur_comm, c, 16);
	}
	sl_evbuf_push(&pd->buf, ev);
}

/* Deliver, in (time, file order), the pending events at or before upto. */
static int flush(struct pd *pd, uint64_t upto)
{
	uint64_t before = pd->buf.nout;
	if (sl_evbuf_flush(&pd->buf, upto, pd->fn, pd->ctx)) {
		pd->stopped = 1;
		return -1;
	}
	if (pd->buf.nout != before) {
		if (!pd->flushed_any || pd->buf.last_out > pd->last_flushed)
			pd->last_flushed = pd->buf.last_out;
		pd->flushed_any = 1;
	}
	return 0;
}

/* ---- header ---- */

static int attr_of_id(const struct pd *pd, uint64_t id)
{
	size_t lo = 0, hi = pd->nids;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (pd->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < pd->nids && pd->ids[lo].id == id)
		return (int)pd->ids[lo].attr;
	return pd->nattr == 1 ? 0 : -1;
}

static int cmp_id(const void *a, const void *b)
{
	const struct idmap *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* section {offset, size} at p, checked against the file */
static int section(const struct pd *pd, const unsigned char *p, uint64_t *off, uint64_t *size)
{
	*off = u64at(p);
	*size = u64at(p + 8);
	return *off > pd->fsize || *size > pd->fsize - *off ? -1 : 0;
}

/* Append one event attribute (the start of a struct perf_event_attr) and
 * the sample ids it owns. Returns 0, or -1 when there are too many ids. */
static int add_attr(struct pd *pd, const unsigned char *a, const unsigned char *ids, uint64_t nids)
{
	struct attr *at;
	uint64_t j;
	if (pd->nattr >= MAX_ATTRS || nids > MAX_IDS - pd->nids)
		return -1;
	pd->attr = xrealloc(pd->attr, (pd->nattr + 1) * sizeof(*pd->attr));
	at = &pd->attr[pd->nattr];
	memset(at, 0, sizeof(*at));
	at->type = u32at(a);
	at->config = u64at(a + 8);
	at->sample_type = u64at(a + 24);
	at->read_format = u64at(a + 32);
	at->flags = u64at(a + 40);
	pd->ids = xrealloc(pd->ids, (pd->nids + nids + 1) * sizeof(*pd->ids));
	for (j = 0; j < nids; j++) {
		pd->ids[pd->nids].id = u64at(ids + j * 8);
		pd->ids[pd->nids++].attr = (uint32_t)pd->nattr;
	}
	pd->nattr++;
	return 0;
}

/* After attrs (or the tracing data) arrived: sort the id table, find where
 * a sample's id sits (perf requires all attrs to agree), and map tracepoint
 * attrs to the sched formats once those are known. */
static int attrs_done(struct pd *pd, uint64_t pos)
{
	uint64_t st;
	size_t k;
	if (!pd->nattr)
		return 0;
	qsort(pd->ids, pd->nids, sizeof(*pd->ids), cmp_id);
	st = pd->attr[0].sample_type;
	if (st & S_IDENTIFIER)
		pd->id_pos = 0;
	else if (st & S_ID)
		pd->id_pos = !!(st & S_IP) + !!(st & S_TID) + !!(st & S_TIME) + !!(st & S_ADDR);
	else
		pd->id_pos = -1;
	if (pd->id_pos < 0 && pd->nattr > 1)
		return sl_fail(pd->d, "%s:%llu: several events but samples carry no id", pd->path,
			       (unsigned long long)pos);
	pd->trailer_st = (pd->attr[0].flags & ATTR_SAMPLE_ID_ALL) ? st : 0;
	if (!pd->have_tr)
		return 0;
	memset(pd->have_tp, 0, sizeof(pd->have_tp));
	for (k = 0; k < pd->nattr; k++) {
		struct attr *at = &pd->attr[k];
		at->tp = NULL;
		if (at->type == TYPE_TRACEPOINT && at->config <= INT32_MAX)
			at->tp = pd_trace_find(&pd->tr, (int)at->config);
		if (at->tp)
			pd->have_tp[at->tp->type] = 1;
	}
	return 0;
}

static int no_sched(const struct pd *pd)
{
	return !pd->have_tp[SL_EV_SWITCH] && !pd->have_tp[SL_EV_WAKEUP] &&
	       !pd->have_tp[SL_EV_WAKING] && !pd->have_tp[SL_EV_FORK] &&
	       !pd->have_tp[SL_EV_MIGRATE];
}

static int read_header(struct pd *pd, uint64_t *doff, uint64_t *dsize)
{
	const unsigned char *m = pd->map;
	uint64_t hsize, attr_size, aoff, asize, i, feat_at, toff = 0, tsize = 0, cut_at = 0;
	int nfeat_before = 0, b, have_td;

	if (pd->fsize < 16)
		return sl_fail(pd->d, "%s:0: too short for a perf.data header", pd->path);
	if (!memcmp(m, "2ELIFREP", 8))
		return sl_fail(pd->d, "%s:0: big-endian perf.data (recorded on another architecture) "
				      "is not supported", pd->path);
	if (!memcmp(m, "PERFFILE", 8))
		return sl_fail(pd->d, "%s:0: perf.data version 1 (perf before 2.6.38) is not "
				      "supported", pd->path);
	if (memcmp(m, "PERFILE2", 8))
		return sl_fail(pd->d, "%s:0: not a perf.data file (no PERFILE2 magic)", pd->path);
	hsize = u64at(m + 8);
	if (hsize == 16) { /* pipe mode: attrs and formats come as records */
		pd->pipe = 1;
		*doff = 16;
		*dsize = pd->fsize - 16;
		return 0;
	}
	if (pd->fsize < HDR_SIZE)
		return sl_fail(pd->d, "%s:%zu: file cut short inside the perf.data header", pd->path,
			       pd->fsize);
	if (hsize < HDR_SIZE)
		return sl_fail(pd->d, "%s:8: perf.data header too short (%llu bytes)", pd->path,
			       (unsigned long long)hsize);
	attr_size = u64at(m + 16);
	if (section(pd, m + 24, &aoff, &asize))
		return sl_fail(pd->d, "%s:24: attribute section lies outside the file (cut short?)",
			       pd->path);
	if (attr_size < 16 + 64 || attr_size > 16 + 4096 || asize % attr_size ||
	    asize / attr_size == 0 || asize / attr_size > MAX_ATTRS)
		return sl_fail(pd->d, "%s:16: bad attribute size %llu / section size %llu", pd->path,
			       (unsigned long long)attr_size, (unsigned long long)asize);
	if (section(pd, m + 40, doff, dsize)) {
		if (*doff > pd->fsize)
			return sl_fail(pd->d, "%s:40: data section starts past the end of the file",
				       pd->path);
		cut_at = *doff + *dsize;
		*dsize = pd->fsize - *doff;
	} else if (*dsize == 0 && pd->fsize > *doff + 8) {
		return sl_fail(pd->d, "%s:48: the header says no data (perf record was killed "
				      "before it finished the file?)", pd->path);
	}

	for (i = 0; i < asize / attr_size; i++) {
		const unsigned char *a = m + aoff + i * attr_size;
		uint64_t ioff, isize;
		if (section(pd, a + attr_size - 16, &ioff, &isize) || isize % 8 ||
		    add_attr(pd, a, m + ioff, isize / 8))
			return sl_fail(pd->d, "%s:%llu: bad sample id section of attribute %llu",
				       pd->path, (unsigned long long)(aoff + i * attr_size + attr_size - 16),
				       (unsigned long long)i);
	}
	if (attrs_done(pd, aoff))
		return -1;

	/* features: the table follows the data section */
	have_td = (m[72 + FEAT_TRACING_DATA / 8] >> (FEAT_TRACING_DATA % 8)) & 1;
	for (b = 0; b < FEAT_TRACING_DATA; b++)
		nfeat_before += (m[72 + b / 8] >> (b % 8)) & 1;
	feat_at = *doff + *dsize + (uint64_t)nfeat_before * 16;
	if (!have_td)
		return sl_fail(pd->d, "%s:72: no tracing data in this perf.data (record sched "
				      "tracepoints: perf sched record, or perf record -e 'sched:*')",
			       pd->path);
	if (feat_at + 16 > pd->fsize)
		return sl_fail(pd->d, "%s:%zu: file cut short: the feature sections (with the "
				      "tracepoint formats) are missing", pd->path, pd->fsize);
	if (cut_at) { /* the data ran past the end, yet the features are there */
		sl_warn(pd->d, "%s:%zu: file cut short: data section ends at %llu, file at %zu; "
			       "importing what is whole",
			pd->path, pd->fsize, (unsigned long long)cut_at, pd->fsize);
		if (!pd->cut_at)
			pd->cut_at = pd->fsize;
	}
	if (section(pd, m + feat_at, &toff, &tsize))
		return sl_fail(pd->d, "%s:%llu: the tracing data section (%llu bytes at %llu) lies "
				      "past the end of the file (%zu bytes): cut short?",
			       pd->path, (unsigned long long)feat_at, (unsigned long long)tsize,
			       (unsigned long long)toff, pd->fsize);
	{
		size_t bad;
		if (pd_trace_parse(&pd->tr, m + toff, (size_t)tsize, &bad))
			return sl_fail(pd->d, "%s:%llu: %s", pd->path,
				       (unsigned long long)(toff + bad), pd->tr.err);
	}
	pd->have_tr = 1;
	if (attrs_done(pd, aoff))
		return -1;
	if (no_sched(pd))
		return sl_fail(pd->d, "%s:%llu: no sched tracepoints recorded (record with perf "
				      "sched record, or perf record -e 'sched:*')",
			       pd->path, (unsigned long long)aoff);
	return 0;
}

/* ---- records ---- */

/* sample_id_all trailer of a non-sample record: tid, time, cpu */
static void trailer(const struct pd *pd, const unsigned char *p, const unsigned char *e,
		    struct sl_event *ev)
{
	uint64_t st = pd->trailer_st;
	size_t n;
	const unsigned char *q;
	if (!st)
		return;
	n = 8 * (size_t)(!!(st & S_TID) + !!(st & S_TIME) + !!(st & S_ID) +
			 !!(st & S_STREAM_ID) + !!(st & S_CPU) + !!(st & S_IDENTIFIER));
	if ((size_t)(e - p) < n)
		return;
	q = e - n;
	if (st & S_TID) {
		ev->cur_tgid = (int32_t)u32at(q);
		ev->cur_pid = (int32_t)u32at(q + 4);
		q += 8;
	}
	if (st & S_TIME) {
		ev->ts = u64at(q);
		q += 8;
	}
	q += 8 * (!!(st & S_ID) + !!(st & S_STREAM_ID));
	if (st & S_CPU)
		ev->cpu = (int32_t)u32at(q);
}

static size_t read_size(uint64_t rf, const unsigned char *p, const unsigned char *e)
{
	size_t per = 8 * (size_t)(1 + !!(rf & R_ID) + !!(rf & R_LOST));
	size_t fix = 8 * (size_t)(!!(rf & R_ENABLED) + !!(rf & R_RUNNING));
	uint64_t nr;
	if (!(rf & R_GROUP))
		return per + fix;
	if (e - p < 8)
		return (size_t)-1;
	nr = u64at(p);
	if (nr > (uint64_t)(e - p) / per)
		return (size_t)-1;
	return 8 + fix + (size_t)nr * per;
}

static int sample(struct pd *pd, const unsigned char *p, const unsigned char *e, uint64_t pos)
{
	struct sl_event ev;
	const struct attr *at;
	uint64_t st;
	int ai;
	uint32_t rawsz;

	sl_event_clear(&ev);
	ev.pos = pos;
	if (pd->id_pos >= 0) {
		if ((size_t)(e - p) < 8 * (size_t)(pd->id_pos + 1))
			return -1;
		ai = attr_of_id(pd, u64at(p + 8 * pd->id_pos));
	} else {
		ai = 0;
	}
	if (ai < 0)
		return 0; /* an id no attr owns: skip */
	at = &pd->attr[ai];
	if (!at->tp)
		return 0;
	st = at->sample_type;
	if (!(st & S_RAW))
		return 0;
#define NEED(n)                                                                  \
	do {                                                                     \
		if ((size_t)(e - p) < (size_t)(n))                               \
			return -1;                                               \
	} while (0)
	if (st & S_IDENTIFIER) {
		NEED(8);
		p += 8;
	}
	if (st & S_IP) {
		NEED(8);
		p += 8;
	}
	if (st & S_TID) {
		NEED(8);
		ev.cur_tgid = (int32_t)u32at(p);
		ev.cur_pid = (int32_t)u32at(p + 4);
		p += 8;
	}
	if (st & S_TIME) {
		NEED(8);
		ev.ts = u64at(p);
		p += 8;
	} else {
		ev.ts = pd->last_ts;
	}
	NEED(8 * (!!(st & S_ADDR) + !!(st & S_ID) + !!(st & S_STREAM_ID)));
	p += 8 * (!!(st & S_ADDR) + !!(st & S_ID) + !!(st & S_STREAM_ID));
	if (st & S_CPU) {
		NEED(8);
		ev.cpu = (int32_t)u32at(p);
		p += 8;
	}
	if (st & S_PERIOD) {
		NEED(8);
		p += 8;
	}
	if (st & S_READ) {
		size_t n = read_size(at->read_format, p, e);
		if (n == (size_t)-1)
			return -1;
		NEED(n);
		p += n;
	}
	if (st & S_CALLCHAIN) {
		uint64_t nr;
		NEED(8);
		nr = u64at(p);
		p += 8;
		if (nr > (uint64_t)(e - p) / 8)
			return -1;
		p += nr * 8;
	}
	NEED(4);
	rawsz = u32at(p);
	p += 4;
	NEED(rawsz);
#undef NEED
	if (ev.cpu < 0 || ev.cpu > 1 << 20)
		ev.cpu = -1;
	if (pd_tp_decode(&pd->tr, at->tp, p, rawsz, &ev))
		return -1;
	pd->last_ts = ev.ts;
	push(pd, &ev);
	return 0;
}

static void other_record(struct pd *pd, uint32_t type, uint16_t misc, const unsigned char *p,
			 const unsigned char *e, uint64_t pos)
{
	struct sl_event ev;
	sl_event_clear(&ev);
	ev.pos = pos;
	ev.ts = pd->last_ts;
	trailer(pd, p, e, &ev);
	switch (type) {
	case REC_LOST:
	case REC_LOST_SAMPLES: {
		size_t at = type == REC_LOST ? 8 : 0;
		if ((size_t)(e - p) < at + 8)
			return;
		ev.type = SL_EV_LOST;
		ev.count = u64at(p + at);
		ev.cur_pid = ev.cur_tgid = -1;
		if (!ev.count)
			return;
		if (type == REC_LOST) {
			pd->nlost_rec++;
		} else if ((pd->trailer_st & S_TIME) && ev.ts == 0) {
			/* perf record's closing summary from each event's lost
			 * counter (read_format LOST): the same losses the
			 * PERF_RECORD_LOST records already gave with their time
			 * and cpu. Kept only for a file without those. */
			pd->lost_summary += ev.count;
			return;
		}
		push(pd, &ev);
		return;
	}
	case REC_COMM: {
		const unsigned char *z;
		int32_t tid;
		/* side-band records (COMM, FORK, EXIT) come also from before the
		 * tracepoints are on, with no switch around them: their sample id
		 * is not taken as evidence of who runs (collector/model.c) */
		ev.cur_pid = ev.cur_tgid = -1;
		if (e - p < 9)
			return;
		tid = (int32_t)u32at(p + 4);
		z = memchr(p + 8, 0, (size_t)(e - p - 8));
		if (!z)
			return;
		comm_set(&pd->comms, tid, (const char *)p + 8, (size_t)(z - p - 8));
		if ((misc & MISC_COMM_EXEC) && !pd->have_tp[SL_EV_EXEC] && ev.ts) {
			ev.type = SL_EV_EXEC;
			ev.pid = tid;
			sl_copy_comm(ev.comm, SL_COMM_LEN, (const char *)p + 8, (size_t)(z - p - 8));
			push(pd, &ev);
		}
		return;
	}
	case REC_FORK:
	case REC_EXIT: {
		int32_t tid, ptid;
		const char *c;
		char pcomm[16];
		ev.cur_pid = ev.cur_tgid = -1; /* as for REC_COMM */
		if (e - p < 24)
			return;
		tid = (int32_t)u32at(p + 8);
		ptid = (int32_t)u32at(p + 12);
		c = comm_get(&pd->comms, ptid);
		if (c) { /* a copy: comm_set may move the table */
			snprintf(pcomm, sizeof(pcomm), "%s", c);
			c = pcomm;
		}
		if (type == REC_FORK && c && !comm_get(&pd->comms, tid))
			comm_set(&pd->comms, tid, c, strlen(c)); /* the child inherits it */
		if (!u64at(p + 16))
			return; /* synthesized at record start, not a real fork/exit */
		if (!(pd->trailer_st & S_TIME))
			ev.ts = u64at(p + 16);
		if (type == REC_FORK) {
			if (pd->have_tp[SL_EV_FORK])
				return;
			ev.type = SL_EV_FORK;
			ev.pid = ptid;
			ev.pid2 = tid;
			if (c) {
				sl_copy_comm(ev.comm, SL_COMM_LEN, c, strlen(c));
				sl_copy_comm(ev.comm2, SL_COMM_LEN, c, strlen(c));
			}
		} else {
			if (pd->have_tp[SL_EV_EXIT])
				return;
			ev.type = SL_EV_EXIT;
			ev.pid = tid;
			if ((c = comm_get(&pd->comms, tid)) != NULL)
				sl_copy_comm(ev.comm, SL_COMM_LEN, c, strlen(c));
		}
		push(pd, &ev);
		return;
	}
	}
}

/* A record that needs nothing beyond itself: a sample, the end of a round,
 * or one of other_record's. */
static int simple_record(struct pd *pd, const unsigned char *r, uint32_t type, uint16_t misc,
			 uint16_t size, uint64_t pos)
{
	if (type == REC_SAMPLE) {
		if (sample(pd, r + 8, r + size, pos) && pd->nbad++ == 0)
			sl_warn(pd->d, "%s:%llu: sample too short for its format; skipped",
				pd->path, (unsigned long long)pos);
	} else if (type == REC_FINISHED_ROUND) {
		if (pd->dir)
			return 0; /* a round of one file says nothing of the others */
		if (flush(pd, pd->round_max))
			return -1;
		pd->round_max = pd->buf.max_ts;
	} else {
		other_record(pd, type, misc, r + 8, r + size, pos);
	}
	return 0;
}

/* A COMPRESSED record at file offset pos (perf record -z): src is its zstd
 * data, the next piece of one stream; what comes out is a run of records
 * (the last one possibly finished by the next COMPRESSED record). */
static int compressed(struct pd *pd, const unsigned char *src, size_t len, uint64_t pos)
{
	ZSTD_inBuffer in = { src, len, 0 };
	size_t off = 0;

	if (!pd->zs) {
		pd->zs = ZSTD_createDStream();
		if (!pd->zs || ZSTD_isError(ZSTD_initDStream(pd->zs)))
			return sl_fail(pd->d, "%s:%llu: cannot start zstd decompression", pd->path,
				       (unsigned long long)pos);
	}
	while (in.pos < in.size) {
		ZSTD_outBuffer out;
		size_t rc;
		if (pd->zcap - pd->zrem < 65536) {
			if (pd->zcap > (256u << 20))
				return sl_fail(pd->d, "%s:%llu: a compressed record that does not end "
						      "(corrupt data)", pd->path, (unsigned long long)pos);
			pd->zcap = pd->zcap ? pd->zcap * 2 : 1u << 20;
			pd->zbuf = xrealloc(pd->zbuf, pd->zcap);
		}
		out.dst = pd->zbuf + pd->zrem;
		out.size = pd->zcap - pd->zrem;
		out.pos = 0;
		rc = ZSTD_decompressStream(pd->zs, &out, &in);
		if (ZSTD_isError(rc))
			return sl_fail(pd->d, "%s:%llu: compressed data: %s", pd->path,
				       (unsigned long long)pos, ZSTD_getErrorName(rc));
		pd->zrem += out.pos;
		if (!out.pos && in.pos < in.size && out.size)
			return sl_fail(pd->d, "%s:%llu: compressed data makes no progress (corrupt)",
				       pd->path, (unsigned long long)pos);
	}
	/* the whole records decompressed so far */
	while (pd->zrem - off >= 8) {
		const unsigned char *r = pd->zbuf + off;
		uint32_t type = u32at(r);
		uint16_t misc, size;
		memcpy(&misc, r + 4, 2);
		memcpy(&size, r + 6, 2);
		if (size < 8)
			return sl_fail(pd->d, "%s:%llu: record of size %u inside compressed data "
					      "(corrupt)", pd->path, (unsigned long long)pos, size);
		if (size > pd->zrem - off)
			break;
		if (type == REC_COMPRESSED || type == REC_COMPRESSED2 || type == REC_AUXTRACE ||
		    type == REC_HEADER_ATTR || type == REC_HEADER_TRACING_DATA)
			return sl_fail(pd->d, "%s:%llu: record type %u inside compressed data (corrupt)",
				       pd->path, (unsigned long long)pos, type);
		if (simple_record(pd, r, type, misc, size, pos))
			return -1;
		off += size;
	}
	memmove(pd->zbuf, pd->zbuf + off, pd->zrem - off);
	pd->zrem -= off;
	return 0;
}

static int read_data(struct pd *pd, uint64_t doff, uint64_t dsize)
{
	uint64_t pos = doff, end = doff + dsize, released = 0;
	const uint64_t chunk = 8ULL << 20;
	long pg = sysconf(_SC_PAGESIZE);

	while (pos < end) {
		const unsigned char *r = pd->map + pos;
		uint32_t type;
		uint16_t misc, size;
		if (end - pos < 8) {
			sl_warn(pd->d, "%s:%llu: data cut off inside a record header; imported what "
				       "came before", pd->path, (unsigned long long)pos);
			if (!pd->cut_at || pos < pd->cut_at)
				pd->cut_at = pos;
			break;
		}
		type = u32at(r);
		memcpy(&misc, r + 4, 2);
		memcpy(&size, r + 6, 2);
		if (size < 8)
			return sl_fail(pd->d, "%s:%llu: record of size %u (corrupt data)", pd->path,
				       (unsigned long long)pos, size);
		if (size > end - pos) {
			sl_warn(pd->d, "%s:%llu: last record cut off; imported what came before",
				pd->path, (unsigned long long)pos);
			if (!pd->cut_at || pos < pd->cut_at)
				pd->cut_at = pos;
			break;
		}
		if (type == REC_SAMPLE || type == REC_FINISHED_ROUND) {
			if (simple_record(pd, r, type, misc, size, pos))
				return -1;
		} else if (type == REC_HEADER_ATTR && pd->pipe) {
			uint32_t asz = size >= 16 ? u32at(r + 12) : 0;
			if (!asz)
				asz = 64; /* PERF_ATTR_SIZE_VER0 */
			if (asz < 48 || asz > (uint32_t)size - 8 || ((uint32_t)size - 8 - asz) % 8 ||
			    add_attr(pd, r + 8, r + 8 + asz, ((uint32_t)size - 8 - asz) / 8))
				return sl_fail(pd->d, "%s:%llu: bad attribute record", pd->path,
					       (unsigned long long)pos);
			if (attrs_done(pd, pos))
				return -1;
		} else if (type == REC_HEADER_TRACING_DATA && pd->pipe) {
			/* the formats follow the record: u32 size at byte 8 */
			uint64_t tsz = size >= 12 ? u32at(r + 8) : 0;
			size_t bad;
			if (tsz > end - pos - size)
				return sl_fail(pd->d, "%s:%llu: file cut short inside the tracing data",
					       pd->path, (unsigned long long)pd->fsize);
			if (!pd->have_tr) {
				if (pd_trace_parse(&pd->tr, r + size, (size_t)tsz, &bad))
					return sl_fail(pd->d, "%s:%llu: %s", pd->path,
						       (unsigned long long)(pos + size + bad), pd->tr.err);
				pd->have_tr = 1;
				if (attrs_done(pd, pos))
					return -1;
			}
			pos += tsz;
		} else if (type == REC_AUXTRACE) {
			uint64_t extra = size >= 16 ? u64at(r + 8) : 0;
			if (extra > end - pos - size)
				return sl_fail(pd->d, "%s:%llu: AUXTRACE record runs past the data",
					       pd->path, (unsigned long long)pos);
			pos += extra;
		} else if (type == REC_COMPRESSED) {
			if (compressed(pd, r + 8, (size_t)size - 8, pos))
				return -1;
		} else if (type == REC_COMPRESSED2) {
			/* u64 data_size, then the data padded to 8 bytes */
			uint64_t dsz = size >= 16 ? u64at(r + 8) : UINT64_MAX;
			if (dsz > (uint64_t)size - 16)
				return sl_fail(pd->d, "%s:%llu: compressed record with a bad size",
					       pd->path, (unsigned long long)pos);
			if (compressed(pd, r + 16, (size_t)dsz, pos))
				return -1;
		} else {
			other_record(pd, type, misc, r + 8, r + size, pos);
		}
		pos += size;
		/* give back pages we are done with, so a big file does not
		 * stay resident */
		if (pg > 0 && pos - released > chunk) {
			uint64_t a = (released / (uint64_t)pg) * (uint64_t)pg;
			uint64_t b = (pos / (uint64_t)pg) * (uint64_t)pg;
			if (b > a)
				madvise((void *)(pd->map + a), (size_t)(b - a), MADV_DONTNEED);
			released = b;
		}
	}
	return 0;
}

static int probe_perfdata(const unsigned char *head, size_t n)
{
	if (n >= 8 && (!memcmp(head, "PERFILE2", 8) || !memcmp(head, "2ELIFREP", 8) ||
		       !memcmp(head, "PERFFILE", 8)))
		return 100;
	return 0;
}

/* mmap path into pd->map / pd->fsize (empty = 1 allows an empty file). */
static int map_file(struct pd *pd, const char *path, int empty)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	pd->map = NULL;
	pd->fsize = 0;
	if (fd < 0)
		return sl_fail(pd->d, "%s: %s", path, strerror(errno));
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return sl_fail(pd->d, "%s: not a regular file", path);
	}
	if (sb.st_size == 0) {
		close(fd);
		return empty ? 0 : sl_fail(pd->d, "%s:0: empty file", path);
	}
	pd->fsize = (size_t)sb.st_size;
	pd->map = mmap(NULL, pd->fsize, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (pd->map == MAP_FAILED) {
		pd->map = NULL;
		return sl_fail(pd->d, "%s: mmap: %s", path, strerror(errno));
	}
	madvise((void *)pd->map, pd->fsize, MADV_SEQUENTIAL);
	return 0;
}

/* perf record --threads: DIR/data holds the header, the attrs, the
 * features and a data section (maybe empty); DIR/data.0, data.1, ... hold
 * the records each writer thread took from its CPUs' ring buffers. Events
 * of different files interleave in time with no round marks between them,
 * so all are held and sorted at the end. The header file is mapped in
 * pd->map on entry and on return. */
static int read_dir_files(struct pd *pd, const char *dir)
{
	const unsigned char *hmap = pd->map;
	size_t hsize = pd->fsize;
	size_t sublen = strlen(dir) + 32;
	char *sub = xmalloc(sublen);
	int i, rc = 0;

	pd->dir = 1;
	for (i = 0; rc == 0; i++) {
		struct stat sb;
		snprintf(sub, sublen, "%s/data.%d", dir, i);
		if (stat(sub, &sb) != 0)
			break;
		pd->path = sub;
		if (map_file(pd, sub, 1))
			rc = -1;
		else if (pd->fsize)
			rc = read_data(pd, 0, pd->fsize);
		if (pd->map)
			munmap((void *)pd->map, pd->fsize);
	}
	if (rc == 0 && i == 1)
		sl_warn(pd->d, "%s: a perf.data directory without data.N files", dir);
	pd->path = dir;
	pd->map = hmap;
	pd->fsize = hsize;
	free(sub);
	return rc;
}

static int read_perfdata(const char *path, sl_event_fn fn, void *ctx, struct sl_diag *d)
{
	struct pd pd;
	struct stat sb;
	uint64_t doff = 0, dsize = 0;
	char *hpath = NULL;
	int rc = -1, isdir = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);

	memset(&pd, 0, sizeof(pd));
	pd.path = path;
	pd.fn = fn;
	pd.ctx = ctx;
	pd.d = d;
	if (isdir) {
		size_t hl = strlen(path) + 8;
		hpath = xmalloc(hl);
		snprintf(hpath, hl, "%s/data", path);
		pd.path = hpath;
	}
	if (map_file(&pd, pd.path, 0)) {
		free(hpath);
		return -1;
	}
	if (read_header(&pd, &doff, &dsize) == 0 && read_data(&pd, doff, dsize) == 0 &&
	    (!isdir || (!pd.pipe && read_dir_files(&pd, path) == 0))) {
		if (pd.pipe && !pd.have_tr)
			sl_fail(d, "%s:%zu: no tracing data in this pipe-mode perf.data (record sched "
				   "tracepoints: perf sched record, or perf record -e 'sched:*')",
				path, pd.fsize);
		else if (pd.pipe && no_sched(&pd))
			sl_fail(d, "%s:%zu: no sched tracepoints recorded", path, pd.fsize);
		else {
			if (pd.lost_summary && !pd.nlost_rec) {
				struct sl_event ev;
				sl_event_clear(&ev);
				ev.type = SL_EV_LOST;
				ev.count = pd.lost_summary;
				ev.ts = pd.buf.max_ts > pd.last_flushed ? pd.buf.max_ts : pd.last_flushed;
				ev.pos = pd.fsize;
				push(&pd, &ev);
				sl_warn(d, "%s: %llu events lost (from perf's closing counts; when and on "
					   "which CPU is unknown)", path, (unsigned long long)pd.lost_summary);
			}
			if (flush(&pd, UINT64_MAX) == 0)
				rc = 0;
		}
	}
	if (pd.stopped)
		rc = -1;
	if (pd.nclamped)
		sl_warn(d, "%s: %llu events arrived after their round was closed; their time was "
			   "raised to keep the order", path, (unsigned long long)pd.nclamped);
	if (pd.nbad > 1)
		sl_warn(d, "%s: %llu samples in all were too short for their format and skipped",
			path, (unsigned long long)pd.nbad);
	if (rc == 0 && pd.zrem) {
		sl_warn(d, "%s: compressed data ends inside a record (%zu bytes left over); "
			   "imported what came before", path, pd.zrem);
		if (!pd.cut_at)
			pd.cut_at = pd.fsize;
	}
	if (rc == 0 && pd.cut_at && sl_event_cut(fn, ctx, pd.cut_at))
		rc = -1;
	munmap((void *)pd.map, pd.fsize);
	free(hpath);
	ZSTD_freeDStream(pd.zs);
	free(pd.zbuf);
	sl_evbuf_release(&pd.buf);
	pd_trace_release(&pd.tr);
	free(pd.attr);
	free(pd.ids);
	free(pd.comms.key);
	free(pd.comms.comm);
	return rc;
}

const struct sl_reader sl_reader_perfdata = { "perfdata", probe_perfdata, read_perfdata };
