/* collector/tracedat_hdr.c - see tracedat_hdr.h. Layout from
 * trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5). Every size is checked
 * against what is left of the file before anything is skipped. */
#include "tracedat_hdr.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OPT_DONE = 0, OPT_CPUSTAT = 2, OPT_BUFFER = 3, OPT_UNAME = 5 };

/* v6 options that leave the records' timestamps as recorded (libtracecmd
 * 3.1 trace-input.c, handle_options): CPUSTAT, BUFFER, TRACECLOCK, UNAME,
 * HOOK, CPUCOUNT, VERSION, PROCMAPS, TRACEID */
static int plain_opt(uint64_t id)
{
	return id == 2 || id == 3 || id == 4 || id == 5 || id == 6 || (id >= 8 && id <= 11);
}

struct rd {
	int fd;
	uint64_t size, off;
	int be;
	struct sl_tdhdr *h;
	int nstat;
};

static int bad(struct rd *r, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(struct rd *r, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	r->h->bad_off = off;
	va_start(ap, fmt);
	vsnprintf(r->h->msg, sizeof(r->h->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static int get(struct rd *r, uint64_t off, void *buf, size_t n)
{
	ssize_t got;
	if (off > r->size || n > r->size - off)
		return bad(r, r->size, "file ends inside the header (needs %zu bytes at %llu)",
			   n, (unsigned long long)off);
	got = pread(r->fd, buf, n, (off_t)off);
	if (got != (ssize_t)n)
		return bad(r, off, "read error: %s", got < 0 ? strerror(errno) : "short read");
	return 0;
}

static uint64_t fix(struct rd *r, const unsigned char *b, int n)
{
	uint64_t v = 0;
	int i;
	for (i = 0; i < n; i++)
		v |= (uint64_t)b[r->be ? n - 1 - i : i] << (8 * i);
	return v;
}

/* Read an n-byte number at r->off and advance. */
static int num(struct rd *r, int n, uint64_t *v)
{
	unsigned char b[8];
	if (get(r, r->off, b, (size_t)n) < 0)
		return -1;
	*v = fix(r, b, n);
	r->off += (uint64_t)n;
	return 0;
}

static int skip(struct rd *r, uint64_t n, const char *what)
{
	if (n > r->size - r->off)
		return bad(r, r->off, "%s of %llu bytes runs past the end of the file (%llu)",
			   what, (unsigned long long)n, (unsigned long long)r->size);
	r->off += n;
	return 0;
}

/* Expect the string s (with its NUL) at r->off. */
static int expect(struct rd *r, const char *s)
{
	char buf[32];
	size_t n = strlen(s) + 1;
	if (get(r, r->off, buf, n) < 0)
		return -1;
	if (memcmp(buf, s, n))
		return bad(r, r->off, "expected \"%s\" here", s);
	r->off += n;
	return 0;
}

/* A NUL-terminated string of at most max bytes; advance past it. */
static int cstr(struct rd *r, char *out, size_t max)
{
	size_t i;
	for (i = 0; i < max; i++) {
		char c;
		if (get(r, r->off + i, &c, 1) < 0)
			return -1;
		if (out)
			out[i] = c;
		if (!c) {
			r->off += i + 1;
			return 0;
		}
	}
	return bad(r, r->off, "string not terminated within %zu bytes", max);
}

/* The CPUSTAT text of one CPU: "CPU: n" (optional) and "overrun: N". */
static void cpustat(struct rd *r, uint64_t off, uint32_t len)
{
	char buf[1024], *p;
	int cpu = r->nstat++;
	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	if (get(r, off, buf, len) < 0)
		return;
	buf[len] = 0;
	if ((p = strstr(buf, "CPU:")))
		cpu = atoi(p + 4);
	if ((p = strstr(buf, "overrun:")) && cpu >= 0 && cpu < SL_TDHDR_MAXSTAT)
		r->h->overrun[cpu] = strtoull(p + 8, NULL, 10);
}

/* CPU data at [off, off+size) whose size field is at field_off. Data past
 * the end of the file, or a last partial page, is cut off (by rewriting the
 * size in a copy: libtracecmd maps whole pages and trusts the sizes). */
static int cpu_data(struct rd *r, int cpu, uint64_t field_off, uint64_t off, uint64_t size)
{
	struct sl_tdhdr *h = r->h;
	uint64_t have = size;

	if (!size)
		return 0;
	if (off % h->page_size)
		return bad(r, field_off - 8, "cpu %d data at offset %llu, not on a page boundary",
			   cpu, (unsigned long long)off);
	if (off > r->size)
		have = 0;
	else if (size > r->size - off)
		have = r->size - off;
	have = have / h->page_size * h->page_size;
	if (h->version == 6 && cpu >= 0 && cpu < SL_TDHDR_MAXSTAT) {
		h->cpu_off[cpu] = off;
		h->cpu_size[cpu] = have;
	}
	if (have == size)
		return 0;
	if (h->npatch >= SL_TDHDR_MAXSTAT)
		return bad(r, field_off, "too many CPUs with data past the end of the file");
	h->patch[h->npatch].off = field_off;
	h->patch[h->npatch].val = have;
	h->npatch++;
	if (!h->warn[0]) {
		h->bad_off = off + have;
		snprintf(h->warn, sizeof(h->warn),
			 "%s: cpu %d data ends here (%llu of %llu bytes whole); reading what is whole",
			 size % h->page_size ? "partial page" : "file cut short",
			 cpu, (unsigned long long)have, (unsigned long long)size);
	}
	return 0;
}

static int v6_flyrecord(struct rd *r)
{
	int c;
	for (c = 0; c < r->h->ncpus; c++) {
		uint64_t off, size, fo;
		if (num(r, 8, &off) < 0)
			return -1;
		fo = r->off;
		if (num(r, 8, &size) < 0 || cpu_data(r, c, fo, off, size) < 0)
			return -1;
	}
	return 0;
}

/* The UNAME option: "sysname nodename release version machine\0" (trace-cmd
 * record and schedlab record write it); kept printable, cut to fit. */
static void uname_opt(struct rd *r, uint64_t off, uint64_t size)
{
	char buf[sizeof(r->h->uname)];
	size_t n = size < sizeof(buf) - 1 ? (size_t)size : sizeof(buf) - 1, i;
	if (get(r, off, buf, n) < 0)
		return;
	buf[n] = 0;
	for (i = 0; i < n && buf[i]; i++)
		if ((unsigned char)buf[i] < 32 || (unsigned char)buf[i] > 126)
			buf[i] = '?';
	memcpy(r->h->uname, buf, i + 1);
}

/* v6 options: id(2) size(4) data, until id 0. */
static int v6_options(struct rd *r)
{
	int n;
	for (n = 0; n < 100000; n++) {
		uint64_t id, size;
		if (num(r, 2, &id) < 0)
			return -1;
		if (id == OPT_DONE)
			return 0;
		if (num(r, 4, &size) < 0)
			return -1;
		if (!plain_opt(id))
			r->h->plain_ts = 0;
		if (id == OPT_CPUSTAT && size <= r->size - r->off)
			cpustat(r, r->off, (uint32_t)size);
		if (id == OPT_UNAME && size <= r->size - r->off)
			uname_opt(r, r->off, size);
		if (skip(r, size, "option") < 0)
			return -1;
	}
	return bad(r, r->off, "too many options");
}

static int v6_rest(struct rd *r)
{
	struct sl_tdhdr *h = r->h;
	uint64_t n, i, k, size, nsys;
	char what[10];

	if (expect(r, "header_page") < 0 || num(r, 8, &size) < 0 || skip(r, size, "header_page") < 0 ||
	    expect(r, "header_event") < 0 || num(r, 8, &size) < 0 || skip(r, size, "header_event") < 0)
		return -1;
	if (num(r, 4, &n) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (num(r, 8, &size) < 0 || skip(r, size, "ftrace event format") < 0)
			return -1;
	if (num(r, 4, &nsys) < 0)
		return -1;
	for (i = 0; i < nsys; i++) {
		if (cstr(r, NULL, 4096) < 0 || num(r, 4, &n) < 0)
			return -1;
		for (k = 0; k < n; k++)
			if (num(r, 8, &size) < 0 || skip(r, size, "event format") < 0)
				return -1;
	}
	if (num(r, 4, &size) < 0 || skip(r, size, "kallsyms") < 0 ||
	    num(r, 4, &size) < 0 || skip(r, size, "printk formats") < 0 ||
	    num(r, 8, &size) < 0 || skip(r, size, "saved cmdlines") < 0)
		return -1;
	if (num(r, 4, &n) < 0)
		return -1;
	if (n < 1 || n > 65536)
		return bad(r, r->off - 4, "bad CPU count %llu", (unsigned long long)n);
	h->ncpus = (int)n;
	h->plain_ts = 1;
	if (get(r, r->off, what, 10) < 0)
		return -1;
	if (!memcmp(what, "options  ", 10)) {
		r->off += 10;
		if (v6_options(r) < 0 || get(r, r->off, what, 10) < 0)
			return -1;
	}
	if (!memcmp(what, "flyrecord", 10)) {
		r->off += 10;
		return v6_flyrecord(r);
	}
	if (!memcmp(what, "latency  ", 10))
		return bad(r, r->off, "latency-format trace.dat (text only) is not supported");
	return bad(r, r->off, "expected \"options\", \"flyrecord\" or \"latency\"");
}

/* Compressed CPU data: count(4), then per chunk csize(4) usize(4) data.
 * libtracecmd allocates by these counts and sizes, so check them all. */
static int chunks(struct rd *r, int cpu, uint64_t off, uint64_t size)
{
	uint64_t n, i, save = r->off, end;
	if (!size)
		return 0;
	if (off > r->size || size > r->size - off || size < 4)
		return bad(r, off, "cpu %d compressed data (%llu bytes) runs past the end of the file",
			   cpu, (unsigned long long)size);
	/* the recorded size leaves out the 4-byte chunk count (trace-cmd 3.1) */
	end = size + 4 <= r->size - off ? off + size + 4 : r->size;
	r->off = off;
	if (num(r, 4, &n) < 0)
		return -1;
	if (n > (size - 4) / 8)
		return bad(r, off, "cpu %d: %llu compressed chunks cannot fit in %llu bytes", cpu,
			   (unsigned long long)n, (unsigned long long)size);
	for (i = 0; i < n; i++) {
		uint64_t cs, us;
		if (num(r, 4, &cs) < 0 || num(r, 4, &us) < 0)
			return -1;
		if (cs > end - r->off)
			return bad(r, r->off - 8, "cpu %d: compressed chunk runs past its data", cpu);
		if (us > (256u << 20) || us % r->h->page_size)
			return bad(r, r->off - 4, "cpu %d: bad uncompressed chunk size %llu", cpu,
				   (unsigned long long)us);
		r->off += cs;
	}
	r->off = save;
	return 0;
}

/* v7 BUFFER option: offset(8) name\0 clock\0 page_size(4) ncpu(4)
 * then per cpu id(4) offset(8) size(8). Only the top buffer (name "")
 * is read by us, but all are checked. */
static int v7_buffer(struct rd *r, uint64_t end)
{
	uint64_t sec, ps, n, i, top = 0;
	char name[256];
	if (num(r, 8, &sec) < 0 || cstr(r, name, sizeof(name)) < 0 || cstr(r, NULL, 256) < 0 ||
	    num(r, 4, &ps) < 0 || num(r, 4, &n) < 0)
		return -1;
	if (r->off > end)
		return bad(r, r->off, "BUFFER option overruns its size");
	if (n > 65536 || n * 20 > end - r->off)
		return bad(r, r->off, "BUFFER option: bad CPU count %llu", (unsigned long long)n);
	for (i = 0; i < n; i++) {
		uint64_t id, off, size, fo;
		if (num(r, 4, &id) < 0 || num(r, 8, &off) < 0)
			return -1;
		if (id >= 65536)
			return bad(r, r->off - 12, "BUFFER option: CPU id %llu", (unsigned long long)id);
		if (id + 1 > top)
			top = id + 1;
		fo = r->off;
		if (num(r, 8, &size) < 0)
			return -1;
		if (!r->h->compressed ? cpu_data(r, (int)id, fo, off, size) < 0
				      : chunks(r, (int)id, off, size) < 0)
			return -1;
	}
	/* The buffer lists only the CPUs that have data (an instance traced on
	 * CPU 1 alone lists one entry, id 1): the count is the largest id + 1,
	 * the largest of all buffers, instances too. */
	if ((int)top > r->h->ncpus)
		r->h->ncpus = (int)top;
	return 0;
}

/* Walk the chain of v7 options sections. */
static int v7_options(struct rd *r, uint64_t first)
{
	uint64_t next = first;
	int nsec;
	for (nsec = 0; next; nsec++) {
		uint64_t id, flags, sz, strid, end;
		int n;
		if (nsec > 64)
			return bad(r, next, "too many options sections (a loop?)");
		if (next < 16 || next >= r->size)
			return bad(r, next, "options section offset %llu outside the file",
				   (unsigned long long)next);
		r->off = next;
		if (num(r, 2, &id) < 0 || num(r, 2, &flags) < 0 || num(r, 4, &strid) < 0 ||
		    num(r, 8, &sz) < 0)
			return -1;
		if (id != 0)
			return bad(r, next, "expected an options section, found section id %llu",
				   (unsigned long long)id);
		if (sz > r->size - r->off)
			return bad(r, next, "options section of %llu bytes runs past the end of the file",
				   (unsigned long long)sz);
		if (flags & 1) /* compressed: libtracecmd checks its contents */
			return 0;
		end = r->off + sz;
		next = 0;
		for (n = 0; n < 100000 && r->off < end; n++) {
			uint64_t oid, osz, start;
			if (num(r, 2, &oid) < 0 || num(r, 4, &osz) < 0)
				return -1;
			start = r->off;
			if (osz > end - start)
				return bad(r, start - 6, "option %llu overruns its section",
					   (unsigned long long)oid);
			if (oid == OPT_DONE) {
				if (osz >= 8 && num(r, 8, &next) < 0)
					return -1;
				break;
			}
			if (oid == OPT_CPUSTAT)
				cpustat(r, start, (uint32_t)osz);
			else if (oid == OPT_UNAME)
				uname_opt(r, start, osz);
			else if (oid == OPT_BUFFER && v7_buffer(r, start + osz) < 0)
				return -1;
			r->off = start + osz;
		}
	}
	return 0;
}

int sl_tdhdr_check(int fd, struct sl_tdhdr *h)
{
	struct rd r;
	struct stat sb;
	unsigned char b[16];
	char ver[16];
	uint64_t v;

	memset(h, 0, sizeof(*h));
	memset(&r, 0, sizeof(r));
	r.fd = fd;
	r.h = h;
	if (fstat(fd, &sb) < 0)
		return bad(&r, 0, "%s", strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return bad(&r, 0, "not a regular file");
	r.size = h->file_size = (uint64_t)sb.st_size;
	if (get(&r, 0, b, 10) < 0)
		return -1;
	if (memcmp(b, "\x17\x08\x44tracing", 10))
		return bad(&r, 0, "not a trace-cmd file (bad magic)");
	r.off = 10;
	if (cstr(&r, ver, sizeof(ver)) < 0)
		return -1;
	h->version = atoi(ver);
	if (h->version != 6 && h->version != 7)
		return bad(&r, 10, "trace.dat version \"%s\" not supported (6 or 7)", ver);
	if (get(&r, r.off, b, 2) < 0)
		return -1;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8))
		return bad(&r, r.off, "bad endian / long size bytes (%u, %u)", b[0], b[1]);
	r.be = b[0];
	h->big_endian = b[0];
	h->long_size = b[1];
	r.off += 2;
	if (num(&r, 4, &v) < 0)
		return -1;
	if (v < 512 || v > (1u << 24) || (v & (v - 1)))
		return bad(&r, r.off - 4, "bad page size %llu", (unsigned long long)v);
	h->page_size = (uint32_t)v;
	if (h->version == 6)
		return v6_rest(&r);
	{
		char alg[64];
		if (cstr(&r, alg, sizeof(alg)) < 0 || cstr(&r, NULL, 64) < 0)
			return -1;
		h->compressed = strcmp(alg, "none") != 0;
		if (num(&r, 8, &v) < 0)
			return -1;
		if (v7_options(&r, v) < 0)
			return -1;
	}
	return 0;
}
