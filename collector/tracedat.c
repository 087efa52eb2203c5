/* collector/tracedat.c - the trace-cmd trace.dat reader (file versions 6
 * and 7, compressed or not, 32- or 64-bit long, either endianness), through
 * libtracecmd and libtraceevent.
 *
 * libtracecmd merges the per-CPU buffers in timestamp order; we look up the
 * scheduler events once per file by name, check every record's size against
 * the fields we read, and hand struct sl_event to the callback. prev_state is
 * decoded with the file's own print format (its __print_flags table and its
 * "preempted" bit), because the bit values changed between kernels.
 *
 * Before libtracecmd sees the file we walk its header sections ourselves
 * (tracedat_hdr.c) so that a truncated or corrupt file is refused or cut
 * with a clear offset instead of reaching code that trusts the sizes it
 * reads; the decoding itself runs in a child process (see below). The
 * prev_state letters come from tracedat_state.c. */
#include "event.h"
#include "child_report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/fs.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "tracedat_hdr.h"
#include "tracedat_pages.h"
#include "tracedat_state.h"

enum { NF = 7 }; /* fields per event type at most */

/* One scheduler event type of this file. */
struct evdesc {
	int id;
	uint16_t type;                    /* SL_EV_* */
	struct tep_format_field *f[NF];   /* fields, meaning per type (see bind) */
};

struct tdreader {
	struct tracecmd_input *h;
	struct tep_handle *tep;
	struct tep_format_field *cflags, *cpid, *ctype;
	struct evdesc ev[9];
	int nev;
	struct sl_tdstate st;
	sl_event_fn fn;
	void *ctx;
	struct sl_diag *d;
	const char *path;
	uint64_t last_ts;
	uint64_t nclamped;
	int ncpus;
	uint64_t *lost_rec;   /* per cpu: lost events seen on records */
	uint64_t *lost_stat;  /* per cpu: overrun from the file's cpustat */
	int lost_unknown;
	int stop;
	uint64_t nbad;
	uint64_t nrec;        /* records of any kind seen */
	struct commcache {
		int32_t pid;
		char comm[SL_COMM_LEN];
	} cc[512];
	char stmemo[1024]; /* prev_state value -> letter, 0 = not yet known */
};

/* ---- probe ---------------------------------------------------------- */

static int tracedat_probe(const unsigned char *head, size_t n)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r',
						  'a', 'c', 'i', 'n', 'g' };
	if (n < 10 || memcmp(head, magic, 10) != 0)
		return 0;
	return 100;
}

/* ---- field access ----------------------------------------------------- */

/* The file stores numbers least significant byte first (set per file; one
 * reader runs at a time, in its own process). */
static int file_le = 1;

static inline int num(const struct tep_record *r, struct tep_format_field *f, int64_t *out)
{
	const unsigned char *p;
	uint64_t v;
	int n;
	if (!f || f->offset < 0 || f->size <= 0 || f->size > 8 || f->offset + f->size > r->size)
		return -1;
	p = (const unsigned char *)r->data + f->offset;
	n = f->size;
	/* what tep_read_number_field does, without its per-call overhead */
	switch (n) {
	case 1:
		v = p[0];
		break;
	case 2: {
		uint16_t x;
		memcpy(&x, p, 2);
		v = file_le ? x : __builtin_bswap16(x);
		break;
	}
	case 4: {
		uint32_t x;
		memcpy(&x, p, 4);
		v = file_le ? x : __builtin_bswap32(x);
		break;
	}
	case 8: {
		uint64_t x;
		memcpy(&x, p, 8);
		v = file_le ? x : __builtin_bswap64(x);
		break;
	}
	default:
		return -1;
	}
	if ((f->flags & TEP_FIELD_IS_SIGNED) && n < 8) {
		int sh = 64 - 8 * n;
		*out = (int64_t)(v << sh) >> sh;
	} else {
		*out = (int64_t)v;
	}
	return 0;
}

static inline int num32(const struct tep_record *r, struct tep_format_field *f, int32_t *out)
{
	int64_t v;
	if (num(r, f, &v) < 0)
		return -1;
	*out = (int32_t)v;
	return 0;
}

/* A char[N] field, or a __data_loc char[] one. */
static int str(const struct tep_record *r, struct tep_handle *tep,
	       struct tep_format_field *f, char *dst, size_t dstlen, int basename)
{
	const char *s;
	size_t len;

	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > r->size)
		return -1;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		int64_t v;
		unsigned off, l;
		if (f->size != 4 || num(r, f, &v) < 0)
			return -1;
		off = (unsigned)((uint64_t)v & 0xffff);
		l = (unsigned)((uint64_t)v >> 16) & 0xffff;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned)(f->offset + f->size);
		if (off > (unsigned)r->size || l > (unsigned)r->size - off)
			return -1;
		s = (const char *)r->data + off;
		len = l;
	} else {
		s = (const char *)r->data + f->offset;
		len = (size_t)f->size;
	}
	len = strnlen(s, len);
	if (basename) { /* what exec makes the comm: the basename, cut to
			 * TASK_COMM_LEN - 1 = 15 bytes as __set_task_comm does */
		const char *p = memrchr(s, '/', len);
		if (p) {
			len -= (size_t)(p + 1 - s);
			s = p + 1;
		}
		if (len > 15)
			len = 15;
	}
	(void)tep;
	sl_copy_comm(dst, dstlen, s, len);
	return 0;
}

/* ---- event binding ---------------------------------------------------- */

static const struct {
	const char *name;
	uint16_t type;
	const char *f[NF];
} evnames[] = {
	{ "sched_switch", SL_EV_SWITCH,
	  { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio" } },
	{ "sched_wakeup", SL_EV_WAKEUP, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched_waking", SL_EV_WAKING, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched_wakeup_new", SL_EV_WAKEUP_NEW, { "comm", "pid", "prio", "target_cpu" } },
	{ "sched_process_fork", SL_EV_FORK, { "parent_comm", "parent_pid", "child_comm", "child_pid" } },
	{ "sched_process_exec", SL_EV_EXEC, { "filename", "pid" } },
	{ "sched_process_exit", SL_EV_EXIT, { "comm", "pid", "prio" } },
	{ "sched_migrate_task", SL_EV_MIGRATE, { "comm", "pid", "prio", "orig_cpu", "dest_cpu" } },
	{ "sched_stat_runtime", SL_EV_RUNTIME, { "comm", "pid", NULL, "runtime" } },
};

/* Fields a type cannot do without (by index in evnames[].f). */
static int required(uint16_t type, int i)
{
	switch (type) {
	case SL_EV_SWITCH: return i == 1 || i == 3 || i == 5;
	case SL_EV_FORK: return i == 1 || i == 3;
	case SL_EV_RUNTIME: return i == 1 || i == 3;
	default: return i == 1;
	}
}

static void bind_events(struct tdreader *t)
{
	size_t k;
	int i;

	for (k = 0; k < SL_ARRAY_SIZE(evnames); k++) {
		struct tep_event *e = tep_find_event_by_name(t->tep, "sched", evnames[k].name);
		struct evdesc *d = &t->ev[t->nev];
		int ok = 1;
		if (!e)
			continue;
		memset(d, 0, sizeof(*d));
		d->id = e->id;
		d->type = evnames[k].type;
		for (i = 0; i < NF; i++) {
			if (!evnames[k].f[i])
				continue;
			d->f[i] = tep_find_field(e, evnames[k].f[i]);
			if (!d->f[i] && required(d->type, i))
				ok = 0;
		}
		if (!ok) {
			sl_warn(t->d, "%s: event sched/%s lacks the fields we need; skipped",
				t->path, evnames[k].name);
			continue;
		}
		if (d->type == SL_EV_SWITCH)
			sl_tdstate_load(&t->st, e);
		if (!t->cflags)
			t->cflags = tep_find_common_field(e, "common_flags");
		if (!t->cpid)
			t->cpid = tep_find_common_field(e, "common_pid");
		if (!t->ctype)
			t->ctype = tep_find_common_field(e, "common_type");
		t->nev++;
	}
}

/* ---- decoding one record ------------------------------------------------ */

static int deliver(struct tdreader *t, struct sl_event *ev)
{
	if (ev->ts < t->last_ts) { /* a CPU's clock stepped back: keep order */
		ev->ts = t->last_ts;
		t->nclamped++;
	}
	t->last_ts = ev->ts;
	return t->fn(t->ctx, ev);
}

/* comm of the current task from the file's saved cmdlines, through a
 * small cache (the lookup is a bsearch per call otherwise). */
static void cur_comm(struct tdreader *t, struct sl_event *ev)
{
	struct commcache *c = &t->cc[(uint32_t)ev->cur_pid % SL_ARRAY_SIZE(t->cc)];
	if (c->pid != ev->cur_pid) {
		c->pid = ev->cur_pid;
		c->comm[0] = 0;
		if (tep_is_pid_registered(t->tep, ev->cur_pid)) {
			const char *s = tep_data_comm_from_pid(t->tep, ev->cur_pid);
			sl_copy_comm(c->comm, sizeof(c->comm), s, strlen(s));
		}
	}
	memcpy(ev->cur_comm, c->comm, sizeof(ev->cur_comm));
}

static void set_common(struct tdreader *t, struct tep_record *r, struct sl_event *ev)
{
	int64_t v;
	ev->ts = r->ts;
	ev->pos = r->offset;
	ev->cpu = r->cpu;
	if (num(r, t->cflags, &v) == 0) {
		ev->ctx = SL_CTX_KNOWN;
		if (v & 0x08)
			ev->ctx |= SL_CTX_HARDIRQ;
		if (v & 0x10)
			ev->ctx |= SL_CTX_SOFTIRQ;
		if (v & 0x40) /* TRACE_FLAG_NMI */
			ev->ctx |= SL_CTX_NMI;
	}
	if (num32(r, t->cpid, &ev->cur_pid) == 0) {
		if (ev->cur_pid == 0)
			sl_copy_comm(ev->cur_comm, sizeof(ev->cur_comm), "<idle>", 6);
		else
			cur_comm(t, ev);
	} else {
		ev->cur_pid = -1;
	}
}

/* r's event id: its common_type field, read as tep_data_type reads it
 * (unsigned, the file's byte order) without its per-call lookup */
static int event_id(struct tdreader *t, const struct tep_record *r)
{
	const struct tep_format_field *f = t->ctype;
	const unsigned char *p;
	if (!f || f->offset < 0 || (f->size != 2 && f->size != 4) || f->offset + f->size > r->size)
		return tep_data_type(t->tep, (struct tep_record *)r);
	p = (const unsigned char *)r->data + f->offset;
	if (f->size == 2) {
		uint16_t x;
		memcpy(&x, p, 2);
		return file_le ? x : __builtin_bswap16(x);
	} else {
		uint32_t x;
		memcpy(&x, p, 4);
		return (int)(file_le ? x : __builtin_bswap32(x));
	}
}

/* Fill ev from r; 1 = a sched event, 0 = not ours or malformed (counted). */
static int decode(struct tdreader *t, struct tep_record *r, struct sl_event *ev,
		  uint64_t *nbad)
{
	const struct evdesc *d = NULL;
	int64_t st;
	int id, i;

	if (r->size < 8 || !r->data)
		return 0;
	id = event_id(t, r);
	for (i = 0; i < t->nev; i++)
		if (t->ev[i].id == id) {
			d = &t->ev[i];
			break;
		}
	if (!d)
		return 0;
	sl_event_clear(ev);
	set_common(t, r, ev);
	ev->type = d->type;
	switch (d->type) {
	case SL_EV_SWITCH:
		if (num32(r, d->f[1], &ev->pid) < 0 || num(r, d->f[3], &st) < 0 ||
		    num32(r, d->f[5], &ev->pid2) < 0)
			goto bad;
		str(r, t->tep, d->f[0], ev->comm, sizeof(ev->comm), 0);
		num32(r, d->f[2], &ev->prio);
		str(r, t->tep, d->f[4], ev->comm2, sizeof(ev->comm2), 0);
		num32(r, d->f[6], &ev->prio2);
		if ((uint64_t)st < sizeof(t->stmemo)) {
			char *m = &t->stmemo[st];
			if (!*m)
				*m = sl_tdstate_letter(&t->st, (uint64_t)st);
			ev->state = *m;
		} else {
			ev->state = sl_tdstate_letter(&t->st, (uint64_t)st);
		}
		break;
	case SL_EV_WAKEUP:
	case SL_EV_WAKING:
	case SL_EV_WAKEUP_NEW:
	case SL_EV_EXIT:
	case SL_EV_MIGRATE:
		if (num32(r, d->f[1], &ev->pid) < 0)
			goto bad;
		str(r, t->tep, d->f[0], ev->comm, sizeof(ev->comm), 0);
		num32(r, d->f[2], &ev->prio);
		if (d->type == SL_EV_MIGRATE) {
			num32(r, d->f[3], &ev->orig_cpu);
			num32(r, d->f[4], &ev->target_cpu);
		} else if (d->type != SL_EV_EXIT) {
			num32(r, d->f[3], &ev->target_cpu);
		}
		break;
	case SL_EV_FORK:
		if (num32(r, d->f[1], &ev->pid) < 0 || num32(r, d->f[3], &ev->pid2) < 0)
			goto bad;
		str(r, t->tep, d->f[0], ev->comm, sizeof(ev->comm), 0);
		str(r, t->tep, d->f[2], ev->comm2, sizeof(ev->comm2), 0);
		break;
	case SL_EV_EXEC:
		if (num32(r, d->f[1], &ev->pid) < 0)
			goto bad;
		str(r, t->tep, d->f[0], ev->comm, sizeof(ev->comm), 1);
		break;
	case SL_EV_RUNTIME:
		if (num32(r, d->f[1], &ev->pid) < 0 || num(r, d->f[3], &st) < 0)
			goto bad;
		str(r, t->tep, d->f[0], ev->comm, sizeof(ev->comm), 0);
		ev->count = st > 0 ? (uint64_t)st : 0;
		break;
	}
	return 1;
bad:
	(*nbad)++;
	return 0;
}

/* ---- lost events -------------------------------------------------------- */

static int lost_at(struct tdreader *t, struct tep_record *r)
{
	struct sl_event ev;
	uint64_t n;

	if (!r->missed_events)
		return 0;
	n = r->missed_events > 0 ? (uint64_t)r->missed_events : 1;
	if (r->missed_events < 0)
		t->lost_unknown = 1;
	if (r->cpu >= 0 && r->cpu < t->ncpus)
		t->lost_rec[r->cpu] += n;
	sl_event_clear(&ev);
	ev.type = SL_EV_LOST;
	ev.ts = r->ts;
	ev.pos = r->offset;
	ev.cpu = r->cpu;
	ev.count = n;
	return deliver(t, &ev);
}

/* Overruns the file's stats report beyond what the records said: their
 * place is unknown, so they go at the end, at the last time seen. */
static int lost_rest(struct tdreader *t)
{
	int c;
	for (c = 0; c < t->ncpus; c++) {
		struct sl_event ev;
		if (t->lost_stat[c] <= t->lost_rec[c])
			continue;
		sl_event_clear(&ev);
		ev.type = SL_EV_LOST;
		ev.ts = t->last_ts;
		ev.cpu = c;
		ev.count = t->lost_stat[c] - t->lost_rec[c];
		sl_warn(t->d, "%s: cpu %d: %llu events overrun (from the file's stats; position unknown)",
			t->path, c, (unsigned long long)ev.count);
		if (deliver(t, &ev) < 0)
			return -1;
	}
	return 0;
}

/* ---- read --------------------------------------------------------------- */

/* An unnamed scratch file for the patched copy: beside the trace (where a
 * reflink can share its blocks), else in $TMPDIR or /tmp, else in memory
 * (memfd) as the last resort: a cut 1 GB trace is not copied into RAM when
 * a disk will do. */
static int scratch_file(const char *path)
{
	char dir[4096];
	const char *t = getenv("TMPDIR");
	char *sl;
	int m;
	snprintf(dir, sizeof(dir), "%s", path);
	sl = strrchr(dir, '/');
	if (!sl)
		snprintf(dir, sizeof(dir), ".");
	else if (sl == dir)
		sl[1] = 0;
	else
		*sl = 0;
	m = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (m < 0)
		m = open(t && *t ? t : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (m < 0)
		m = memfd_create("schedlab-tracedat", MFD_CLOEXEC);
	return m;
}

/* A copy of the file with the size fields of CPU data that runs past the
 * end rewritten, so libtracecmd reads only what is there. The copy is a
 * reflink where the file system has them, else copy_file_range, else
 * read/write. */
static int patched_copy(int fd, const struct sl_tdhdr *hdr, const char *path)
{
	char buf[65536];
	uint64_t off = 0;
	int m = scratch_file(path), i;

	if (m < 0)
		return -1;
	if (ioctl(m, FICLONE, fd) == 0) {
		off = hdr->file_size;
		if (ftruncate(m, (off_t)off) < 0)
			goto fail;
	}
	while (off < hdr->file_size) {
		loff_t in = (loff_t)off;
		ssize_t n = copy_file_range(fd, &in, m, NULL, hdr->file_size - off, 0);
		if (n > 0) {
			off += (uint64_t)n;
			continue;
		}
		n = pread(fd, buf, sizeof(buf), (off_t)off);
		if (n <= 0 || pwrite(m, buf, (size_t)n, (off_t)off) != n)
			goto fail;
		off += (uint64_t)n;
	}
	for (i = 0; i < hdr->npatch; i++) {
		unsigned char b[8];
		int k;
		for (k = 0; k < 8; k++)
			b[hdr->big_endian ? 7 - k : k] = (unsigned char)(hdr->patch[i].val >> (8 * k));
		if (pwrite(m, b, 8, (off_t)hdr->patch[i].off) != 8)
			goto fail;
	}
	if (lseek(m, 0, SEEK_SET) < 0)
		goto fail;
	return m;
fail:
	close(m);
	return -1;
}

/* tracecmd_iterate_events callback: one record, in time order. */
static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu, void *arg)
{
	struct tdreader *t = arg;
	struct sl_event ev;

	(void)h;
	(void)cpu;
	t->nrec++;
	if (r->cpu < 0 || r->cpu >= t->ncpus)
		return 0;
	if (lost_at(t, r) < 0)
		goto stop;
	if (decode(t, r, &ev, &t->nbad) && deliver(t, &ev) < 0)
		goto stop;
	return 0;
stop:
	t->stop = 1;
	return 1;
}

static int on_page(struct tep_record *r, void *arg)
{
	return on_record(NULL, r, r->cpu, arg);
}

/* The top-level buffer held nothing (e.g. `trace-cmd extract -B NAME`):
 * read the first instance buffer that has records. */
static int read_instances(struct tdreader *t)
{
	struct tracecmd_input *top = t->h;
	int i, n = tracecmd_buffer_instances(top);

	for (i = 0; i < n && !t->nrec; i++) {
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(top, i);
		const char *name = tracecmd_buffer_instance_name(top, i);
		if (!b)
			continue;
		t->h = b;
		t->tep = tracecmd_get_tep(b);
		t->nev = 0;
		t->cflags = t->cpid = NULL;
		memset(t->lost_stat, 0, (size_t)t->ncpus * sizeof(uint64_t)); /* top's stats */
		if (t->tep) {
			bind_events(t);
			if (tracecmd_iterate_events(b, NULL, 0, on_record, t) != 0 || t->stop) {
				tracecmd_close(b);
				t->h = top;
				return -1;
			}
		}
		if (t->nrec)
			sl_warn(t->d, "%s: the top-level buffer is empty; read instance buffer \"%s\"%s",
				t->path, name ? name : "?", n > 1 ? " (the first one with data)" : "");
		tracecmd_close(b);
	}
	t->h = top;
	t->tep = tracecmd_get_tep(top);
	return 0;
}

#define OPEN_FLAGS (TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS)

/* Decode the open file (in the child process, see below). */
static int decode_file(int fd, const struct sl_tdhdr *hdr, const char *path,
		       sl_event_fn fn, void *ctx, struct sl_diag *d)
{
	struct tdreader t;
	struct tracecmd_input *h;
	int c, rc = 0;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open_fd(fd, OPEN_FLAGS);
	if (!h)
		return sl_fail(d, "%s:0: not a readable trace-cmd file (libtracecmd refused its headers)", path);
	memset(&t, 0, sizeof(t));
	t.h = h;
	t.tep = tracecmd_get_tep(h);
	t.fn = fn;
	t.ctx = ctx;
	t.d = d;
	t.path = path;
	t.ncpus = hdr->ncpus;
	for (c = 0; c < (int)SL_ARRAY_SIZE(t.cc); c++)
		t.cc[c].pid = -1;
	file_le = !hdr->big_endian;
	if (!t.tep) {
		tracecmd_close(h);
		return sl_fail(d, "%s:0: no event formats", path);
	}
	t.lost_rec = xcalloc((size_t)t.ncpus, sizeof(uint64_t));
	t.lost_stat = xcalloc((size_t)t.ncpus, sizeof(uint64_t));
	bind_events(&t);
	for (c = 0; c < t.ncpus && c < SL_TDHDR_MAXSTAT; c++)
		t.lost_stat[c] = hdr->overrun[c];
	if (!t.nev)
		sl_warn(d, "%s: no sched events in this file's formats", path);
	/* a plain file's pages straight (tracedat_pages.c), else libtracecmd */
	c = sl_tdpages_iterate(fd, hdr, t.tep, on_page, &t);
	if ((c == -2 ? tracecmd_iterate_events(h, NULL, 0, on_record, &t) : c) != 0 || t.stop)
		rc = -1;
	if (rc == 0 && t.nrec == 0)
		rc = read_instances(&t);
	else if (rc == 0 && tracecmd_buffer_instances(h) > 0)
		sl_warn(d, "%s: %d instance buffer(s) not read (the top-level buffer only)",
			path, tracecmd_buffer_instances(h));
	if (rc == 0)
		rc = lost_rest(&t);
	if (rc == 0 && t.nbad)
		sl_warn(d, "%s: %llu sched records too short for their format; skipped",
			path, (unsigned long long)t.nbad);
	if (rc == 0 && t.nclamped)
		sl_warn(d, "%s: %llu events earlier than the one before them (clock step); moved forward",
			path, (unsigned long long)t.nclamped);
	if (rc == 0 && t.lost_unknown)
		sl_warn(d, "%s: events were lost on some CPUs (count unknown; counted as 1 each)", path);
	free(t.lost_rec);
	free(t.lost_stat);
	tracecmd_close(h);
	return rc;
}

/* ---- the decoding child ------------------------------------------------- *
 * libtracecmd/libtraceevent 3.1/1.7 trust what they read: on some corrupt
 * files they dereference NULL in their own clean-up or read past a page. So
 * the decoding runs in a child process. Events travel through a ring of
 * slots in memory shared with the parent (no copying through the kernel);
 * the message pipe carries, in order: 'B' + u32 count (the next slot holds
 * count events), 'W' / 'F' + u16 length + text (warning / failure), 'D'
 * (done). The parent gives a slot back by writing a byte on a second pipe;
 * the child starts with NSLOT of them. If the child dies, the events of the
 * slots it announced are kept and the file's reading stops there with a
 * warning giving the byte offset. */

#define NSLOT 8
#define SLOT_EV 2048

struct ring {
	struct sl_event ev[NSLOT][SLOT_EV];
};

struct pipew {
	int fd, ackfd;
	dev_t dev;      /* the trace file, to find libtracecmd's maps of it */
	ino_t ino;
	unsigned since_drop;
	struct ring *ring;
	unsigned slot;  /* the slot being filled (sequence number) */
	unsigned nfill; /* events in it */
	unsigned credit;
	size_t n;
	unsigned char buf[4096];
	int dead;       /* the parent went away */
};

static int pw_flush(struct pipew *w)
{
	size_t off = 0;
	while (off < w->n) {
		ssize_t k = write(w->fd, w->buf + off, w->n - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			w->dead = 1;
			return -1;
		}
		off += (size_t)k;
	}
	w->n = 0;
	return 0;
}

static int pw_put(struct pipew *w, char tag, const void *p, size_t len, int with_len)
{
	size_t need = 1 + (with_len ? 2 : 0) + len;
	if (w->n + need > sizeof(w->buf) && pw_flush(w) < 0)
		return -1;
	w->buf[w->n++] = (unsigned char)tag;
	if (with_len) {
		uint16_t l = (uint16_t)len;
		memcpy(w->buf + w->n, &l, 2);
		w->n += 2;
	}
	memcpy(w->buf + w->n, p, len);
	w->n += len;
	return 0;
}

/* Announce the slot being filled (if it has events) and move to the next,
 * waiting for the parent to give one back when all are in use. */
static int pw_ship(struct pipew *w)
{
	uint32_t n = w->nfill;
	if (!n)
		return 0;
	if (pw_put(w, 'B', &n, sizeof(n), 0) < 0 || pw_flush(w) < 0)
		return -1;
	w->slot++;
	w->nfill = 0;
	if (w->credit) {
		w->credit--;
		return 0;
	}
	for (;;) {
		char c;
		ssize_t k = read(w->ackfd, &c, 1);
		if (k == 1)
			return 0;
		if (k < 0 && errno == EINTR)
			continue;
		w->dead = 1;
		return -1;
	}
}

/* libtracecmd maps each CPU's data whole (its "page map" is sized after
 * the largest CPU), so the pages it has read stay resident and a 1 GB file
 * ends with 1 GB of RSS. Every DROP_EVERY events we tell the kernel to drop
 * the pages of every read-only private mapping of the trace file: they are
 * never written, so a later touch (the pages in use) faults the same bytes
 * back in from the page cache. */
enum { DROP_EVERY = 1 << 17 };

static void drop_file_pages(const struct pipew *w)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, off, maj, mnr, ino;
		char perms[8];
		if (sscanf(line, "%lx-%lx %7s %lx %lx:%lx %lu", &lo, &hi, perms, &off, &maj, &mnr,
			   &ino) != 7)
			continue;
		if (ino == (unsigned long)w->ino && maj == major(w->dev) && mnr == minor(w->dev) &&
		    !strcmp(perms, "r--p"))
			madvise((void *)lo, hi - lo, MADV_DONTNEED);
	}
	fclose(f);
}

static int pw_event(void *ctx, const struct sl_event *ev)
{
	struct pipew *w = ctx;
	if (w->dead)
		return -1;
	if (++w->since_drop == DROP_EVERY) {
		w->since_drop = 0;
		if (w->ino)
			drop_file_pages(w);
	}
	w->ring->ev[w->slot % NSLOT][w->nfill++] = *ev;
	if (w->nfill == SLOT_EV)
		return pw_ship(w);
	return 0;
}

static void pw_warn(void *ctx, const char *msg)
{
	struct pipew *w = ctx;
	size_t n = strnlen(msg, 1000);
	if (pw_ship(w) == 0) /* the events before the warning first */
		pw_put(w, 'W', msg, n, 1);
}

static _Noreturn void child(int fd, const struct sl_tdhdr *hdr, const char *path, int wfd,
			    int ackfd, struct ring *ring)
{
	static struct pipew w;
	struct sl_diag cd;
	int rc;

	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	child_report_setup(); /* a sanitizer build's report: to a file */
	if (null >= 0) { /* libtracecmd prints some complaints whatever its log level */
		dup2(null, 1);
		dup2(null, 2);
		close(null);
	}
	w.fd = wfd;
	w.ackfd = ackfd;
	{
		struct stat sb;
		if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode)) {
			w.dev = sb.st_dev;
			w.ino = sb.st_ino;
		}
	}
	w.ring = ring;
	/* the ring's pages (2.2 MB) in one call, not a write fault each
	 * (shared pages are not mapped into a forked child; a fault costs
	 * 10-20 us on a VM); a kernel before 5.14 says EINVAL: faults then */
	madvise(ring, sizeof(*ring), MADV_POPULATE_WRITE);
	w.credit = NSLOT - 1; /* the slot being filled is the first */
	memset(&cd, 0, sizeof(cd));
	cd.warn = pw_warn;
	cd.warn_ctx = &w;
	rc = decode_file(fd, hdr, path, pw_event, &w, &cd);
	if (!w.dead && pw_ship(&w) == 0) {
		if (rc < 0)
			pw_put(&w, 'F', cd.msg, strnlen(cd.msg, sizeof(cd.msg)), 1);
		else
			pw_put(&w, 'D', "", 0, 0);
		pw_flush(&w);
	}
	_exit(0);
}

static int get(FILE *f, void *p, size_t n)
{
	return fread(p, 1, n, f) == n ? 0 : -1;
}

/* Read the child's messages; returns 0, -1 (d set), or -2 when the
 * callback stopped us. */
static int parent(FILE *f, int ackfd, const struct ring *ring, const char *path, sl_event_fn fn,
		  void *ctx, struct sl_diag *d, pid_t pid, int *reaped)
{
	uint64_t nev = 0, last_pos = 0;
	unsigned slot = 0;
	int status = 0;

	for (;;) {
		int tag = getc_unlocked(f);
		char msg[1001];
		uint16_t l;
		uint32_t n, i;
		if (tag == 'B') {
			const struct sl_event *ev = ring->ev[slot % NSLOT];
			if (get(f, &n, sizeof(n)) < 0 || n > SLOT_EV)
				break;
			for (i = 0; i < n; i++) {
				nev++;
				last_pos = ev[i].pos;
				if (fn(ctx, &ev[i]) != 0)
					return -2;
			}
			slot++;
			/* fails once the child has sent everything and gone:
			 * what matters is the message pipe */
			(void)!send(ackfd, "", 1, MSG_NOSIGNAL);
		} else if (tag == 'W' || tag == 'F') {
			if (get(f, &l, 2) < 0 || l > 1000 || get(f, msg, l) < 0)
				break;
			msg[l] = 0;
			if (tag == 'F')
				return sl_fail(d, "%s", msg);
			sl_warn(d, "%s", msg);
		} else if (tag == 'D') {
			return 0;
		} else {
			break;
		}
	}
	/* the child died (or wrote nonsense) */
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	*reaped = 1;
	if (!nev)
		return sl_fail(d, "%s:0: corrupt trace.dat: libtracecmd %s on it before the first event%s",
			       path, WIFSIGNALED(status) ? "crashed" : "failed", child_report(pid));
	sl_warn(d, "%s:%llu: corrupt data after this offset: libtracecmd %s; %llu events read before it%s",
		path, (unsigned long long)last_pos, WIFSIGNALED(status) ? "crashed" : "failed",
		(unsigned long long)nev, child_report(pid));
	return sl_event_cut(fn, ctx, last_pos) ? -2 : 1;
}

/* tracedat_read on the open file fd (closed here); hdr is scratch space. */
static int read_fd(int fd, struct sl_tdhdr *hdr, const char *path, sl_event_fn fn,
		   void *ctx, struct sl_diag *d)
{
	int p[2] = { -1, -1 }, ack[2], rc, status, reaped = 0;
	struct ring *ring;
	pid_t pid;
	FILE *f;

	/* our own walk of the header sections: refuse what libtracecmd would
	 * trust blindly, and learn where the data really ends */
	if (sl_tdhdr_check(fd, hdr) < 0) {
		close(fd);
		return sl_fail(d, "%s:%llu: %s", path, (unsigned long long)hdr->bad_off, hdr->msg);
	}
	if (hdr->warn[0])
		sl_warn(d, "%s:%llu: %s", path, (unsigned long long)hdr->bad_off, hdr->warn);
	if (hdr->npatch) {
		int m = patched_copy(fd, hdr, path);
		close(fd);
		if (m < 0)
			return sl_fail(d, "%s: cannot make a trimmed copy: %s", path, strerror(errno));
		fd = m;
	}
	ring = mmap(NULL, sizeof(*ring), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ring == MAP_FAILED) {
		close(fd);
		return sl_fail(d, "%s: mmap: %s", path, strerror(errno));
	}
	/* acks go through a socket: send() to a child that died fails with
	 * MSG_NOSIGNAL instead of raising SIGPIPE */
	if (pipe2(p, O_CLOEXEC) < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ack) < 0) {
		if (p[0] >= 0) {
			close(p[0]);
			close(p[1]);
		}
		munmap(ring, sizeof(*ring));
		close(fd);
		return sl_fail(d, "%s: pipe: %s", path, strerror(errno));
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd);
		close(p[0]);
		close(p[1]);
		close(ack[0]);
		close(ack[1]);
		munmap(ring, sizeof(*ring));
		return sl_fail(d, "%s: fork: %s", path, strerror(errno));
	}
	if (pid == 0) {
		close(p[0]);
		close(ack[1]);
		child(fd, hdr, path, p[1], ack[0], ring);
	}
	close(p[1]);
	close(ack[0]);
	close(fd);
	f = fdopen(p[0], "rb");
	if (!f) {
		close(p[0]);
		close(ack[1]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		munmap(ring, sizeof(*ring));
		return sl_fail(d, "%s: fdopen: %s", path, strerror(errno));
	}
	rc = parent(f, ack[1], ring, path, fn, ctx, d, pid, &reaped);
	if (rc == 0 && hdr->warn[0] && sl_event_cut(fn, ctx, hdr->bad_off))
		rc = -2;
	if (rc == 1) /* cut by corrupt data, already said */
		rc = 0;
	if (rc == -2) { /* the callback said stop */
		kill(pid, SIGKILL);
		rc = -1;
	}
	fclose(f);
	close(ack[1]);
	while (!reaped && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	munmap(ring, sizeof(*ring));
	return rc;
}

static int tracedat_read(const char *path, sl_event_fn fn, void *ctx, struct sl_diag *d)
{
	struct sl_tdhdr *hdr = xcalloc(1, sizeof(*hdr));
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		rc = sl_fail(d, "%s: %s", path, strerror(errno));
	else
		rc = read_fd(fd, hdr, path, fn, ctx, d);
	free(hdr);
	return rc;
}

const struct sl_reader sl_reader_tracedat = {
	.name = "tracedat",
	.probe = tracedat_probe,
	.read = tracedat_read,
};
