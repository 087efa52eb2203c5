/* collector/perfscript.c - the `perf script` text reader (its default
 * output for tracepoints):
 *
 *   COMM  TID [CPU] SECS.FRAC: SYS:EVENT: FIELDS
 *   COMM  PID/TID [CPU] SECS.FRAC: SYS:EVENT: FIELDS       (-F +pid)
 *
 * COMM is right-aligned and may hold spaces; extra columns between [CPU] and
 * the time (-F +flags, +misc) are skipped; the time has 6 digits (default)
 * or 9 (--ns). FIELDS is the event's print format as libtraceevent renders
 * it, the same text ftrace shows, so the field parser of the ftrace text
 * reader (collector/ftrace.h) decodes it: both the "prev_comm=x prev_pid=..."
 * form and the plugin form "comm:pid [prio] S ==> comm:pid [prio]".
 *
 * With --show-lost-events, "PERF_RECORD_LOST lost N" lines (same columns)
 * become SL_EV_LOST on that CPU.
 *
 * perf script already prints events in time order (perf sorts them), so the
 * reader streams: one line in, at most one event out. */
#include "event.h"
#include "ftrace.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parts of one perf script line. */
struct psline {
	const char *comm, *comm_e; /* COMM */
	int32_t pid, tid, cpu;
	uint64_t ts;
	const char *sys, *sys_e;   /* "sched" */
	const char *name, *name_e; /* "sched_switch" */
	const char *body, *body_e;
};

static int digits(const char *s, const char *e)
{
	if (s >= e)
		return 0;
	for (; s < e; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* a decimal int32; a '-' sign is allowed (perf prints tid -1 for samples
 * of a thread it does not know) */
static int to_i32(const char *s, const char *e, int32_t *out)
{
	uint64_t v = 0;
	int neg = 0;
	if (s < e && *s == '-') {
		neg = 1;
		s++;
	}
	if (!digits(s, e) || e - s > 10)
		return -1;
	for (; s < e; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	if (v > INT32_MAX)
		return -1;
	*out = neg ? -(int32_t)v : (int32_t)v;
	return 0;
}

static int to_ts(const char *s, const char *e, uint64_t *out)
{
	const char *dot = memchr(s, '.', (size_t)(e - s));
	uint64_t secs = 0, frac = 0;
	size_t nd;
	const char *p;
	if (!dot || !digits(s, dot) || !digits(dot + 1, e) || dot - s > 11)
		return -1;
	nd = (size_t)(e - dot - 1);
	if (nd > 9)
		return -1;
	for (p = s; p < dot; p++)
		secs = secs * 10 + (uint64_t)(*p - '0');
	for (p = dot + 1; p < e; p++)
		frac = frac * 10 + (uint64_t)(*p - '0');
	while (nd++ < 9)
		frac *= 10;
	*out = secs * 1000000000ULL + frac;
	return 0;
}

/* Split a line; 0 = it is a perf script event line, -1 = it is not. */
static int split(const char *s, const char *e, struct psline *l)
{
	const char *c, *ts_s = s, *h, *rb, *lb = NULL, *tid_s;

	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	/* "TS: SYS:NAME:" - the first ": " after a timestamp, then an event
	 * name with exactly one ':' inside and one at its end */
	for (c = s; (c = memmem(c, (size_t)(e - c), ": ", 2)) != NULL; c++) {
		const char *n, *ne, *colon;
		ts_s = c;
		while (ts_s > s && (isdigit((unsigned char)ts_s[-1]) || ts_s[-1] == '.'))
			ts_s--;
		if (ts_s == c || ts_s == s || (ts_s[-1] != ' ' && ts_s[-1] != '\t') ||
		    to_ts(ts_s, c, &l->ts))
			continue;
		n = c + 2;
		while (n < e && *n == ' ')
			n++;
		for (ne = n; ne < e && *ne != ' '; ne++)
			;
		if (ne - n == 16 && !memcmp(n, "PERF_RECORD_LOST", 16)) {
			/* --show-lost-events: "PERF_RECORD_LOST lost N" */
			l->sys = n;
			l->sys_e = ne;
			l->name = l->name_e = ne;
			for (l->body = ne; l->body < e && *l->body == ' '; l->body++)
				;
			l->body_e = e;
			break;
		}
		if (ne - n < 4 || ne[-1] != ':')
			continue;
		colon = memchr(n, ':', (size_t)(ne - 1 - n));
		if (!colon || colon == n || colon + 1 >= ne - 1)
			continue;
		l->sys = n;
		l->sys_e = colon;
		l->name = colon + 1;
		l->name_e = ne - 1;
		l->body = ne;
		while (l->body < e && *l->body == ' ')
			l->body++;
		l->body_e = e;
		break;
	}
	if (!c)
		return -1;
	/* before the time: COMM TID|PID/TID [CPU] [other columns] */
	h = ts_s;
	for (rb = h; rb > s; rb--) {
		if (rb[-1] != ']')
			continue;
		for (lb = rb - 1; lb > s && lb[-1] != '['; lb--)
			;
		if (lb > s && to_i32(lb, rb - 1, &l->cpu) == 0 && l->cpu >= 0 && lb - 1 > s &&
		    lb[-2] == ' ')
			break;
	}
	if (rb <= s)
		return -1;
	h = lb - 1;
	while (h > s && h[-1] == ' ')
		h--;
	for (tid_s = h; tid_s > s && tid_s[-1] != ' '; tid_s--)
		;
	{
		const char *slash = memchr(tid_s, '/', (size_t)(h - tid_s));
		l->pid = -1;
		if (slash) {
			if (to_i32(tid_s, slash, &l->pid) || to_i32(slash + 1, h, &l->tid))
				return -1;
		} else if (to_i32(tid_s, h, &l->tid)) {
			return -1;
		}
	}
	l->comm_e = tid_s;
	while (l->comm_e > s && l->comm_e[-1] == ' ')
		l->comm_e--;
	l->comm = s;
	while (l->comm < l->comm_e && (*l->comm == ' ' || *l->comm == '\t'))
		l->comm++;
	return 0;
}

/* A perf script line (no newline) into ev. Returns 1 = a sched event, 0 =
 * another event or a line that is no event (header, callchain), -1 = a
 * malformed sched event (ld->msg says why). */
static int parse_line(struct sl_ftrace_parser *fp, const char *s, size_t n, struct sl_event *ev,
		      char **tmp, size_t *tmpcap, struct sl_diag *ld)
{
	struct psline l;
	size_t nl, bl;
	int r;

	if (split(s, s + n, &l)) {
		if (memmem(s, n, " sched:sched_", 13))
			return sl_fail(ld, "a sched event line without the [CPU] column (print it: "
					   "perf script -F +cpu)");
		return 0;
	}
	if (l.sys_e - l.sys == 16) { /* PERF_RECORD_LOST lost N */
		uint64_t cnt = 0;
		const char *p = l.body;
		if (l.body_e - p < 6 || memcmp(p, "lost ", 5) || !digits(p + 5, l.body_e) ||
		    l.body_e - p > 5 + 19)
			return sl_fail(ld, "malformed PERF_RECORD_LOST line");
		for (p += 5; p < l.body_e; p++)
			cnt = cnt * 10 + (uint64_t)(*p - '0');
		sl_event_clear(ev);
		ev->type = SL_EV_LOST;
		ev->count = cnt;
		ev->ts = l.ts;
		ev->cpu = l.cpu;
		return cnt ? 1 : 0;
	}
	if (l.sys_e - l.sys != 5 || memcmp(l.sys, "sched", 5))
		return 0;
	/* hand "x-1 [000] 0.000000: NAME: BODY" to the ftrace field parser */
	nl = (size_t)(l.name_e - l.name);
	bl = (size_t)(l.body_e - l.body);
	if (*tmpcap < nl + bl + 32) {
		*tmpcap = nl + bl + 64;
		*tmp = xrealloc(*tmp, *tmpcap);
	}
	memcpy(*tmp, "x-1 [000] 0.000000: ", 20);
	memcpy(*tmp + 20, l.name, nl);
	memcpy(*tmp + 20 + nl, ": ", 2);
	memcpy(*tmp + 22 + nl, l.body, bl);
	r = sl_ftrace_parse_line(fp, *tmp, 22 + nl + bl, ev, ld);
	if (r <= 0)
		return r;
	ev->ts = l.ts;
	ev->cpu = l.cpu;
	ev->cur_pid = l.tid;
	ev->cur_tgid = l.pid;
	ev->ctx = 0;
	sl_copy_comm(ev->cur_comm, SL_COMM_LEN, l.comm, (size_t)(l.comm_e - l.comm));
	return 1;
}

static int probe_perfscript(const unsigned char *head, size_t n)
{
	const char *s = (const char *)head, *e = s + n, *nl;
	struct psline l;
	int good = 0, bad = 0, lines = 0;

	while (s < e && lines < 60) {
		nl = memchr(s, '\n', (size_t)(e - s));
		if (!nl)
			break;
		lines++;
		if (memchr(s, 0, (size_t)(nl - s)))
			return 0;
		if (nl > s && *s != '#' && *s != '\t') {
			if (split(s, nl, &l) == 0)
				good++;
			else if (!isspace((unsigned char)*s))
				bad++;
		}
		s = nl + 1;
	}
	if (good && good >= bad * 4)
		return 75;
	return 0;
}

static int read_perfscript(const char *path, sl_event_fn fn, void *ctx, struct sl_diag *d)
{
	FILE *f = fopen(path, "rb");
	struct sl_ftrace_parser *fp;
	struct sl_diag ld = { { 0 }, NULL, NULL };
	char *line = NULL, *tmp = NULL;
	size_t cap = 0, tmpcap = 0, n;
	uint64_t lineno = 0, nev = 0, last_ts = 0, nclamped = 0;
	int rc = 0, got, last;

	if (!f)
		return sl_fail(d, "%s: %s", path, strerror(errno));
	fp = sl_ftrace_parser_new();
	while ((got = sl_text_line(f, &line, &cap, &n, &last, &lineno, path, d)) > 0) {
		struct sl_event ev;
		int r = parse_line(fp, line, n, &ev, &tmp, &tmpcap, &ld);
		if (r < 0) {
			if (last && lineno > 1) {
				sl_warn(d, "%s:%llu: last line is cut off; ignored", path,
					(unsigned long long)lineno);
				break;
			}
			rc = sl_fail(d, "%s:%llu: %s", path, (unsigned long long)lineno, ld.msg);
			break;
		}
		if (r == 0)
			continue;
		if (last && lineno > 1) { /* perf script ends every line */
			sl_warn(d, "%s:%llu: last line is cut off; ignored", path,
				(unsigned long long)lineno);
			break;
		}
		ev.pos = lineno;
		if (ev.ts < last_ts) {
			ev.ts = last_ts;
			nclamped++;
		}
		last_ts = ev.ts;
		nev++;
		if (fn(ctx, &ev)) {
			rc = -1;
			break;
		}
	}
	if (got < 0)
		rc = -1;
	if (!rc && ferror(f))
		rc = sl_fail(d, "%s: read error: %s", path, strerror(errno));
	if (!rc && nev == 0)
		rc = sl_fail(d, "%s:%llu: no scheduler events (sched:sched_switch, ...) found", path,
			     (unsigned long long)lineno);
	if (nclamped)
		sl_warn(d, "%s: %llu events were out of time order; their time was raised to keep "
			   "the order", path, (unsigned long long)nclamped);
	free(line);
	free(tmp);
	fclose(f);
	sl_ftrace_parser_free(fp);
	return rc;
}

const struct sl_reader sl_reader_perfscript = { "perfscript", probe_perfscript,
						read_perfscript };
