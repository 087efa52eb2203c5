/* collector/ftrace_text.c - ftrace text: the line parser (ftrace.h) and the
 * "ftrace" reader.
 *
 * A line is  TASK-PID [(TGID)] [CPU] [FLAGS] SECS.FRAC: EVENT: FIELDS
 * The task's comm may hold spaces, so the line is read from the event name
 * backwards: the timestamp, then the optional irq-flags column, then [CPU],
 * an optional (TGID), and what is left is COMM-PID (the last '-').
 */
#include "ftrace.h"
#include "evsort.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct sl_ftrace_parser {
	unsigned long other;
	uint64_t last_ts;
	unsigned cpus;
};

struct sl_ftrace_parser *sl_ftrace_parser_new(void)
{
	return xcalloc(1, sizeof(struct sl_ftrace_parser));
}

void sl_ftrace_parser_free(struct sl_ftrace_parser *p)
{
	free(p);
}

unsigned sl_ftrace_cpus(const struct sl_ftrace_parser *p)
{
	return p->cpus;
}

unsigned long sl_ftrace_other_events(const struct sl_ftrace_parser *p)
{
	return p->other;
}

/* ---- small string helpers over [s, e) ---- */

static const char *skip_sp(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

static const char *rskip_sp(const char *s, const char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return e;
}

static int parse_u64(const char *s, const char *e, uint64_t *out)
{
	uint64_t v = 0;
	if (s >= e)
		return -1;
	for (; s < e; s++) {
		if (!isdigit((unsigned char)*s) || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

static int parse_i32(const char *s, const char *e, int32_t *out)
{
	uint64_t v;
	int neg = 0;
	if (s < e && *s == '-') {
		neg = 1;
		s++;
	}
	if (parse_u64(s, e, &v) || v > 0x7fffffff)
		return -1;
	*out = neg ? -(int32_t)v : (int32_t)v;
	return 0;
}

/* "SECS.FRAC" with 1..9 fraction digits -> ns */
static int parse_ts(const char *s, const char *e, uint64_t *out)
{
	const char *dot = memchr(s, '.', (size_t)(e - s));
	uint64_t secs, frac;
	size_t nd;
	if (!dot || parse_u64(s, dot, &secs) || parse_u64(dot + 1, e, &frac))
		return -1;
	nd = (size_t)(e - dot - 1);
	if (nd < 1 || nd > 9 || secs > 18000000000ULL)
		return -1;
	while (nd++ < 9)
		frac *= 10;
	*out = secs * 1000000000ULL + frac;
	return 0;
}

/* Find "key=" as a field start (at s or after a space) within [s, e). */
static const char *find_key(const char *s, const char *e, const char *key)
{
	size_t kl = strlen(key);
	const char *p = s;
	while (p + kl < e + 1) {
		const char *q = memmem(p, (size_t)(e - p), key, kl);
		if (!q)
			return NULL;
		if ((q == s || q[-1] == ' ') && q + kl < e + 1 && q[kl] == '=')
			return q + kl + 1;
		p = q + 1;
	}
	return NULL;
}

/* Value of key: from "key=" to the next " word=" (any key) or end. Comms
 * may hold spaces, so a value ends only where the next key begins. */
static int field(const char *s, const char *e, const char *key, const char **vs,
		 const char **ve)
{
	const char *v = find_key(s, e, key), *p;
	if (!v)
		return -1;
	for (p = v; p < e; p++) {
		if (*p == ' ') {
			const char *q = p + 1;
			while (q < e && (isalnum((unsigned char)*q) || *q == '_'))
				q++;
			if (q < e && q > p + 1 && *q == '=')
				break;
			if (e - p >= 4 && !memcmp(p, " ==>", 4))
				break;
		}
	}
	*vs = v;
	*ve = rskip_sp(v, p);
	return 0;
}

static int field_i32(const char *s, const char *e, const char *key, int32_t *out)
{
	const char *vs, *ve;
	if (field(s, e, key, &vs, &ve))
		return -1;
	return parse_i32(vs, ve, out);
}

static void field_comm(const char *s, const char *e, const char *key, char *dst)
{
	const char *vs, *ve;
	if (field(s, e, key, &vs, &ve) == 0)
		sl_copy_comm(dst, SL_COMM_LEN, vs, (size_t)(ve - vs));
}

/* trace-cmd report's "comm:pid [prio] S" half of a switch; if want_state,
 * the state follows the prio. */
static int tc_task(const char *s, const char *e, char *comm, int32_t *pid, int32_t *prio,
		   char *state)
{
	const char *lb, *rb, *colon;
	s = skip_sp(s, e);
	e = rskip_sp(s, e);
	lb = NULL;
	for (rb = e; rb > s; rb--)
		if (rb[-1] == '[') {
			lb = rb - 1;
			break;
		}
	if (!lb)
		return -1;
	rb = memchr(lb, ']', (size_t)(e - lb));
	if (!rb || parse_i32(lb + 1, rb, prio))
		return -1;
	if (state) {
		const char *st = skip_sp(rb + 1, e);
		*state = sl_state_from_text(st, (size_t)(e - st));
	}
	e = rskip_sp(s, lb);
	for (colon = e; colon > s && colon[-1] != ':'; colon--)
		;
	if (colon <= s || parse_i32(colon, e, pid))
		return -1;
	sl_copy_comm(comm, SL_COMM_LEN, s, (size_t)(colon - 1 - s));
	return 0;
}

static int parse_switch(const char *s, const char *e, struct sl_event *ev, struct sl_diag *d)
{
	const char *vs, *ve, *arrow;
	if (find_key(s, e, "prev_pid")) {
		if (field_i32(s, e, "prev_pid", &ev->pid) || field_i32(s, e, "next_pid", &ev->pid2))
			return sl_fail(d, "sched_switch without prev_pid/next_pid");
		field_i32(s, e, "prev_prio", &ev->prio);
		field_i32(s, e, "next_prio", &ev->prio2);
		field_comm(s, e, "prev_comm", ev->comm);
		field_comm(s, e, "next_comm", ev->comm2);
		if (field(s, e, "prev_state", &vs, &ve) == 0)
			ev->state = sl_state_from_text(vs, (size_t)(ve - vs));
		return 0;
	}
	arrow = memmem(s, (size_t)(e - s), " ==> ", 5);
	if (!arrow || tc_task(s, arrow, ev->comm, &ev->pid, &ev->prio, &ev->state) ||
	    tc_task(arrow + 5, e, ev->comm2, &ev->pid2, &ev->prio2, NULL))
		return sl_fail(d, "malformed sched_switch");
	return 0;
}

static int parse_task_fields(const char *s, const char *e, struct sl_event *ev,
			     struct sl_diag *d, const char *what)
{
	if (field_i32(s, e, "pid", &ev->pid)) {
		/* trace-cmd report: "comm:pid [prio] CPU:nnn" */
		const char *cpu = memmem(s, (size_t)(e - s), " CPU:", 5);
		if (tc_task(s, cpu ? cpu : e, ev->comm, &ev->pid, &ev->prio, NULL))
			return sl_fail(d, "malformed %s", what);
		if (cpu)
			parse_i32(cpu + 5, rskip_sp(cpu, e), &ev->target_cpu);
		return 0;
	}
	field_comm(s, e, "comm", ev->comm);
	field_i32(s, e, "prio", &ev->prio);
	if (field_i32(s, e, "target_cpu", &ev->target_cpu))
		field_i32(s, e, "cpu", &ev->target_cpu);
	return 0;
}

static const struct {
	const char *name;
	int type;
} sched_events[] = {
	{ "sched_switch", SL_EV_SWITCH },
	{ "sched_wakeup", SL_EV_WAKEUP },
	{ "sched_waking", SL_EV_WAKING },
	{ "sched_wakeup_new", SL_EV_WAKEUP_NEW },
	{ "sched_process_fork", SL_EV_FORK },
	{ "sched_process_exec", SL_EV_EXEC },
	{ "sched_process_exit", SL_EV_EXIT },
	{ "sched_migrate_task", SL_EV_MIGRATE },
	{ "sched_stat_runtime", SL_EV_RUNTIME },
};

static int is_header(const char *s, const char *e)
{
	static const char *const prefixes[] = { "#", "version = ", "cpus=", "CPU ",
						"trace-cmd version", "##### CPU ",
						/* Android's atrace, before the ftrace text */
						"capturing trace", "TRACE:" };
	size_t i;
	if (s == e)
		return 1;
	for (i = 0; i < SL_ARRAY_SIZE(prefixes); i++)
		if ((size_t)(e - s) >= strlen(prefixes[i]) &&
		    !memcmp(s, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

/* "CPU:N [LOST M EVENTS]" */
static int parse_lost(const char *s, const char *e, struct sl_event *ev)
{
	const char *lb, *sp;
	uint64_t n;
	if (e - s < 6 || memcmp(s, "CPU:", 4))
		return 0;
	lb = memmem(s, (size_t)(e - s), " [LOST ", 7);
	if (!lb || parse_i32(s + 4, lb, &ev->cpu) || ev->cpu < 0)
		return 0;
	lb += 7;
	sp = memchr(lb, ' ', (size_t)(e - lb));
	if (!sp || parse_u64(lb, sp, &n))
		return 0;
	ev->type = SL_EV_LOST;
	ev->count = n;
	return 1;
}

/* A header line's CPU count ("#P:N" or "cpus=N") into p->cpus. */
static void header_cpus(struct sl_ftrace_parser *p, const char *s, const char *e)
{
	const char *pc = memmem(s, (size_t)(e - s), "#P:", 3);
	uint64_t n = 0;
	const char *q;
	if (pc)
		pc += 3;
	else if (e - s > 5 && !memcmp(s, "cpus=", 5))
		pc = s + 5;
	for (q = pc; pc && q < e && isdigit((unsigned char)*q); q++)
		;
	if (pc && parse_u64(pc, q, &n) == 0 && n > 0 && n <= 4096)
		p->cpus = (unsigned)n;
}

/* The event name follows the first ": " preceded by a timestamp: that
 * ": " (NULL if none) and the timestamp's start (*ts_s; ev->ts). */
static const char *find_timestamp(const char *s, const char *e, const char **ts_s,
				  struct sl_event *ev)
{
	const char *c, *ts_e;
	for (c = s; (c = memmem(c, (size_t)(e - c), ": ", 2)) != NULL; c++) {
		ts_e = c;
		*ts_s = ts_e;
		while (*ts_s > s && (isdigit((unsigned char)(*ts_s)[-1]) || (*ts_s)[-1] == '.'))
			(*ts_s)--;
		if (*ts_s < ts_e && memchr(*ts_s, '.', (size_t)(ts_e - *ts_s)) &&
		    (*ts_s == s || (*ts_s)[-1] == ' ') && parse_ts(*ts_s, ts_e, &ev->ts) == 0)
			return c;
	}
	return NULL;
}

/* The irq-flags column like "d.h3" or "dN.2." ending at h, if any: the
 * context into ev->ctx; returns where the column before it ends. */
static const char *irq_flags(const char *s, const char *h, struct sl_event *ev)
{
	const char *f = h;
	while (f > s && f[-1] != ' ')
		f--;
	if (h - f >= 3 && h - f <= 6) {
		char hs = f[2];
		ev->ctx = SL_CTX_KNOWN;
		if (hs == 'h' || hs == 'H')
			ev->ctx |= SL_CTX_HARDIRQ;
		else if (hs == 's')
			ev->ctx |= SL_CTX_SOFTIRQ;
		else if (hs == 'z' || hs == 'Z')
			ev->ctx |= SL_CTX_NMI;
	}
	return rskip_sp(s, f);
}

/* The columns before the timestamp (s to h): COMM-PID, [(TGID)], [CPU],
 * [FLAGS], read from the right. */
static int parse_prefix(const char *s, const char *h, struct sl_event *ev, struct sl_diag *d)
{
	const char *cpu_lb, *cpu_rb = NULL, *dash;

	h = rskip_sp(s, h);
	if (h > s && h[-1] != ']')
		h = irq_flags(s, h, ev);
	if (h > s && h[-1] == ']')
		cpu_rb = h - 1;
	if (!cpu_rb)
		return sl_fail(d, "no [CPU] column");
	for (cpu_lb = cpu_rb; cpu_lb > s && *cpu_lb != '['; cpu_lb--)
		;
	if (*cpu_lb != '[' || parse_i32(cpu_lb + 1, cpu_rb, &ev->cpu) || ev->cpu < 0 ||
	    ev->cpu >= 4096)
		return sl_fail(d, "bad CPU number");
	h = rskip_sp(s, cpu_lb);
	if (h > s && h[-1] == ')') { /* tgid column "(1234)" or "(-----)" */
		const char *lp = h - 1;
		while (lp > s && *lp != '(')
			lp--;
		if (*lp == '(') {
			if (parse_i32(skip_sp(lp + 1, h - 1), h - 1, &ev->cur_tgid))
				ev->cur_tgid = -1;
			h = rskip_sp(s, lp);
		}
	}
	for (dash = h; dash > s && dash[-1] != '-'; dash--)
		;
	if (dash <= s || parse_i32(dash, h, &ev->cur_pid))
		return sl_fail(d, "no TASK-PID column");
	sl_copy_comm(ev->cur_comm, SL_COMM_LEN, s, (size_t)(dash - 1 - s));
	return 0;
}

/* sched_process_exec: the filename's last component as comm. */
static int parse_exec(const char *body, const char *e, struct sl_event *ev, struct sl_diag *d)
{
	const char *vs, *ve, *slash;
	if (field_i32(body, e, "pid", &ev->pid))
		return sl_fail(d, "malformed sched_process_exec");
	if (field(body, e, "filename", &vs, &ve) == 0) {
		for (slash = ve; slash > vs && slash[-1] != '/'; slash--)
			;
		sl_copy_comm(ev->comm, SL_COMM_LEN, slash, (size_t)(ve - slash));
		if (strlen(ev->comm) > 15)
			ev->comm[15] = 0; /* the kernel keeps 15 chars */
	}
	return 0;
}

/* sched_stat_runtime: "comm=C pid=N runtime=N [ns]" (+ " vruntime=N [ns]"
 * before 6.8) */
static int parse_runtime(const char *body, const char *e, struct sl_event *ev, struct sl_diag *d)
{
	const char *vs, *ve;
	uint64_t r = 0;
	if (field_i32(body, e, "pid", &ev->pid) || field(body, e, "runtime", &vs, &ve) || vs == ve ||
	    !isdigit((unsigned char)*vs))
		return sl_fail(d, "malformed sched_stat_runtime");
	for (; vs < ve && isdigit((unsigned char)*vs); vs++) {
		if (r > (UINT64_MAX - 9) / 10)
			return sl_fail(d, "malformed sched_stat_runtime");
		r = r * 10 + (uint64_t)(*vs - '0');
	}
	ev->count = r;
	field_comm(body, e, "comm", ev->comm);
	return 0;
}

/* The fields of an event of type (body to e) into ev: 0, or -1. */
static int parse_body(int type, const char *body, const char *e, struct sl_event *ev,
		      struct sl_diag *d)
{
	switch (type) {
	case SL_EV_SWITCH:
		return parse_switch(body, e, ev, d);
	case SL_EV_WAKEUP:
	case SL_EV_WAKING:
	case SL_EV_WAKEUP_NEW:
		return parse_task_fields(body, e, ev, d, "sched_wakeup");
	case SL_EV_FORK:
		if ((field_i32(body, e, "parent_pid", &ev->pid) &&
		     field_i32(body, e, "pid", &ev->pid)) ||
		    field_i32(body, e, "child_pid", &ev->pid2))
			return sl_fail(d, "malformed sched_process_fork");
		field_comm(body, e, "comm", ev->comm);
		field_comm(body, e, "child_comm", ev->comm2);
		return 0;
	case SL_EV_EXEC:
		return parse_exec(body, e, ev, d);
	case SL_EV_EXIT:
		return parse_task_fields(body, e, ev, d, "sched_process_exit");
	case SL_EV_MIGRATE:
		if (field_i32(body, e, "pid", &ev->pid) ||
		    field_i32(body, e, "dest_cpu", &ev->target_cpu))
			return sl_fail(d, "malformed sched_migrate_task");
		field_comm(body, e, "comm", ev->comm);
		field_i32(body, e, "prio", &ev->prio);
		field_i32(body, e, "orig_cpu", &ev->orig_cpu);
		return 0;
	case SL_EV_RUNTIME:
		return parse_runtime(body, e, ev, d);
	}
	return 0;
}

int sl_ftrace_parse_line(struct sl_ftrace_parser *p, const char *line, size_t len,
			 struct sl_event *ev, struct sl_diag *d)
{
	const char *s = line, *e = line + len, *c, *ts_s = NULL, *name, *name_e, *body;
	size_t i;
	int type = 0;

	if (e > s && e[-1] == '\r')
		e--;
	sl_event_clear(ev);
	s = skip_sp(s, e);
	e = rskip_sp(s, e);
	if (parse_lost(s, e, ev)) {
		ev->ts = p->last_ts;
		return 1;
	}
	c = find_timestamp(s, e, &ts_s, ev);
	if (!c) {
		if (is_header(s, e)) {
			header_cpus(p, s, e);
			return 0;
		}
		return sl_fail(d, "not an ftrace event line");
	}
	name = skip_sp(c + 2, e);
	for (name_e = name; name_e < e && *name_e != ':' && *name_e != ' '; name_e++)
		;
	if (name_e >= e || *name_e != ':')
		return sl_fail(d, "no event name after the timestamp");
	body = skip_sp(name_e + 1, e);
	if (parse_prefix(s, ts_s, ev, d))
		return -1;
	p->last_ts = ev->ts;
	for (i = 0; i < SL_ARRAY_SIZE(sched_events); i++)
		if ((size_t)(name_e - name) == strlen(sched_events[i].name) &&
		    !memcmp(name, sched_events[i].name, (size_t)(name_e - name)))
			type = sched_events[i].type;
	if (!type) {
		p->other++;
		return 0;
	}
	ev->type = (uint16_t)type;
	return parse_body(type, body, e, ev, d) ? -1 : 1;
}

/* ---- the reader ---- */

static int probe_ftrace(const unsigned char *head, size_t n)
{
	struct sl_ftrace_parser p = { 0, 0, 0 };
	struct sl_event ev;
	const char *s = (const char *)head, *e = s + n, *nl;
	int good = 0, bad = 0;

	if (n >= 9 && !memcmp(head, "# tracer:", 9))
		return 90;
	if (n >= 10 && !memcmp(head, "version = ", 10))
		return 80;
	if ((n >= 15 && !memcmp(head, "capturing trace", 15)) || (n >= 7 && !memcmp(head, "TRACE:", 6) &&
					  (head[6] == '\n' || head[6] == '\r')))
		return 85; /* atrace's own output (plain or -z) */
	while (s < e && good + bad < 40) {
		nl = memchr(s, '\n', (size_t)(e - s));
		if (!nl)
			break; /* ignore a partial last line */
		if (!memchr(s, 0, (size_t)(nl - s))) {
			int r = sl_ftrace_parse_line(&p, s, (size_t)(nl - s), &ev, NULL);
			if (r > 0 || (r == 0 && p.other))
				good++;
			else if (r < 0)
				bad++;
		} else {
			bad++;
		}
		p.other = 0;
		s = nl + 1;
	}
	if (good && good >= bad * 4)
		return 70;
	return 0;
}

/* ---- atrace -z: the text after "TRACE:\n" is one zlib stream ---------------
 * A stdio stream (fopencookie) that inflates it, so that the line loop
 * below reads it like any text. A corrupt stream is a read error naming the
 * compressed offset. */
struct zin {
	FILE *raw;
	z_stream z;
	unsigned char in[65536];
	uint64_t off;      /* file offset of in[0] */
	size_t fill;       /* bytes in in[] */
	int end, err;      /* err: 1 cut short, 2 corrupt */
};

static ssize_t zin_read(void *cookie, char *buf, size_t size)
{
	struct zin *zi = cookie;
	size_t got;
	zi->z.next_out = (unsigned char *)buf;
	zi->z.avail_out = (uInt)(size < (1u << 30) ? size : (1u << 30));
	while (zi->z.avail_out && !zi->end && !zi->err) {
		int r;
		if (!zi->z.avail_in) {
			size_t n = fread(zi->in, 1, sizeof(zi->in), zi->raw);
			if (!n) {
				zi->err = 1; /* no end marker */
				break;
			}
			zi->off += zi->fill;
			zi->fill = n;
			zi->z.next_in = zi->in;
			zi->z.avail_in = (uInt)n;
		}
		r = inflate(&zi->z, Z_NO_FLUSH);
		if (r == Z_STREAM_END)
			zi->end = 1;
		else if (r != Z_OK && r != Z_BUF_ERROR)
			zi->err = 2;
	}
	got = (size_t)(zi->z.next_out - (unsigned char *)buf);
	if (!got && zi->err) {
		errno = EIO;
		return -1;
	}
	return (ssize_t)got;
}

static int zin_close(void *cookie)
{
	struct zin *zi = cookie;
	inflateEnd(&zi->z);
	fclose(zi->raw);
	free(zi);
	return 0;
}

/* f positioned after "TRACE:\n": if a zlib stream follows, a stream of its
 * inflated text (f then belongs to it); else f itself. */
static FILE *maybe_inflate(FILE *f, struct zin **zout)
{
	unsigned char h[2];
	long at = ftell(f);
	struct zin *zi;
	FILE *z;
	cookie_io_functions_t io = { zin_read, NULL, NULL, zin_close };
	*zout = NULL;
	if (at < 0 || fread(h, 1, 2, f) != 2 || (h[0] & 0x0f) != 8 || (h[0] * 256 + h[1]) % 31) {
		fseek(f, at, SEEK_SET);
		return f;
	}
	fseek(f, at, SEEK_SET);
	zi = xcalloc(1, sizeof(*zi));
	zi->raw = f;
	zi->off = (uint64_t)at;
	if (inflateInit(&zi->z) != Z_OK) {
		free(zi);
		return f;
	}
	z = fopencookie(zi, "r", io);
	if (!z) {
		inflateEnd(&zi->z);
		free(zi);
		return f;
	}
	*zout = zi;
	return z;
}

int sl_text_line(FILE *f, char **line, size_t *cap, size_t *len, int *last, uint64_t *lineno,
		 const char *path, struct sl_diag *d)
{
	ssize_t n = getline(line, cap, f);
	if (n <= 0)
		return 0;
	++*lineno;
	*last = (*line)[n - 1] != '\n'; /* a last line without newline */
	if (!*last)
		n--;
	if (memchr(*line, 0, (size_t)n))
		return sl_fail(d, "%s:%llu: binary data in a text trace", path, (unsigned long long)*lineno);
	*len = (size_t)n;
	return 1;
}

static int read_ftrace(const char *path, sl_event_fn fn, void *ctx, struct sl_diag *d)
{
	FILE *f = fopen(path, "rb");
	struct zin *zi = NULL;
	struct sl_ftrace_parser *p;
	struct sl_evstream buf;
	struct sl_diag ld = { { 0 }, NULL, NULL };
	char *line = NULL;
	size_t cap = 0, n;
	uint64_t lineno = 0, nev = 0, cut_at = 0;
	int rc = 0, got = 0, last;

	if (!f)
		return sl_fail(d, "%s: %s", path, strerror(errno));
	p = sl_ftrace_parser_new();
	sl_evstream_init(&buf, fn, ctx);
	{
		/* atrace output: its preamble up to "TRACE:", then text or zlib */
		char head[64] = "";
		int k;
		for (k = 0; k < 3 && fgets(head, sizeof(head), f); k++) {
			lineno++;
			if (!strcmp(head, "TRACE:\n") || !strcmp(head, "TRACE:\r\n")) {
				f = maybe_inflate(f, &zi);
				break;
			}
			if (strncmp(head, "capturing trace", 15))
				break;
		}
		if (!zi && (k == 3 || strncmp(head, "TRACE:", 6))) {
			rewind(f);
			lineno = 0;
		}
	}
	while ((got = sl_text_line(f, &line, &cap, &n, &last, &lineno, path, d)) > 0) {
		struct sl_event ev;
		int r = sl_ftrace_parse_line(p, line, n, &ev, &ld);
		if (r < 0) {
			if (last && zi && zi->err)
				break; /* the stream's fault: said below */
			if (last && lineno > 1) {
				sl_warn(d, "%s:%llu: last line is cut off; ignored", path,
					(unsigned long long)lineno);
				cut_at = lineno;
				break;
			}
			if (zi)
				rc = sl_fail(d, "%s: line %llu of the inflated atrace -z text: %s", path,
					     (unsigned long long)lineno, ld.msg);
			else
				rc = sl_fail(d, "%s:%llu: %s", path, (unsigned long long)lineno, ld.msg);
			break;
		}
		if (r > 0) {
			ev.pos = lineno;
			nev++;
			buf.expect_cpus = sl_ftrace_cpus(p);
			if (sl_evstream_push(&buf, &ev)) {
				rc = -1;
				break;
			}
		}
	}
	if (got < 0)
		rc = -1;
	if (!rc && zi && zi->err == 2)
		rc = sl_fail(d, "%s:%llu: atrace -z data: corrupt zlib stream", path,
			     (unsigned long long)(zi->off + (uint64_t)(zi->z.next_in - zi->in)));
	else if (!rc && zi && zi->err == 1 && nev) {
		sl_warn(d, "%s:%llu: atrace -z data cut short here; the events before it are imported",
			path, (unsigned long long)(zi->off + zi->fill));
		cut_at = zi->off + zi->fill;
	}
	else if (!rc && zi && zi->err == 1)
		rc = sl_fail(d, "%s:%llu: atrace -z data cut short before the first event", path,
			     (unsigned long long)(zi->off + zi->fill));
	else if (!rc && ferror(f))
		rc = sl_fail(d, "%s: read error: %s", path, strerror(errno));
	if (!rc && nev == 0)
		rc = sl_fail(d, "%s:%llu: no scheduler events (sched_switch, sched_wakeup...) found",
			     path, (unsigned long long)lineno);
	if (!rc && sl_evstream_finish(&buf))
		rc = -1;
	if (!rc && cut_at && sl_event_cut(fn, ctx, cut_at))
		rc = -1;
	if (!rc && buf.late)
		sl_warn(d, "%s: %llu events were more than a second out of order across CPUs; "
			   "they were placed at the time already reached",
			path, (unsigned long long)buf.late);
	free(line);
	fclose(f);
	sl_evstream_release(&buf);
	sl_ftrace_parser_free(p);
	return rc;
}

const struct sl_reader sl_reader_ftrace = { "ftrace", probe_ftrace, read_ftrace };
