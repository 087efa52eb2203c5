/* collector/systrace.c - the systrace / atrace HTML reader.
 *
 * Two forms carry ftrace text inside HTML:
 *  - legacy (catapult, ~2013): `var linuxPerfData = "\` then one JS string
 *    line per ftrace line, each ending in a literal `\n\`, the last in `\n";`
 *  - modern: `<script class="trace-data" type="application/text">` blocks
 *    holding the raw text up to `</script>` (other trace-data blocks hold
 *    JSON and are skipped).
 * Each ftrace line goes to the shared ftrace text parser (collector/ftrace.h);
 * the events are sorted stably by time (CPUs interleave out of order in
 * ftrace text) and then delivered. Positions are HTML line numbers. */
#include "event.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evsort.h"
#include "ftrace.h"

static int has(const unsigned char *h, size_t n, const char *s)
{
	return memmem(h, n, s, strlen(s)) != NULL;
}

static int systrace_probe(const unsigned char *head, size_t n)
{
	size_t i = 0, k, m;
	char lower[16];

	if (n >= 3 && head[0] == 0xef && head[1] == 0xbb && head[2] == 0xbf)
		i = 3; /* UTF-8 byte order mark */
	while (i < n && isspace(head[i]))
		i++;
	m = n - i < sizeof(lower) - 1 ? n - i : sizeof(lower) - 1;
	for (k = 0; k < m; k++)
		lower[k] = (char)tolower(head[i + k]);
	lower[m] = 0;
	if (strncmp(lower, "<!doctype html", 14) && strncmp(lower, "<html", 5))
		return 0;
	if (has(head, n, "class=\"trace-data\"") || has(head, n, "linuxPerfData") ||
	    has(head, n, "# tracer:"))
		return 95;
	if (has(head, n, "systrace") || has(head, n, "trace-viewer") || has(head, n, "tracing"))
		return 60;
	return 20; /* some HTML: only we might make sense of it */
}

enum { OUT, LEGACY, BLOCK_START, BLOCK, SKIP };

struct st {
	struct sl_ftrace_parser *p;
	struct sl_evbuf buf;
	const char *path;
	struct sl_diag *d;
	uint64_t lineno;
	char *lb;          /* one logical ftrace line being assembled */
	size_t ln, lcap;
	int nblocks;
	int cut_line;      /* the current line is the file's last, without newline */
};

static int feed(struct st *s, const char *line, size_t n)
{
	struct sl_diag ld = { { 0 }, NULL, NULL };
	struct sl_event ev;
	int r;

	while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
		n--;
	if (!n)
		return 0;
	r = sl_ftrace_parse_line(s->p, line, n, &ev, &ld);
	if (r < 0 && s->cut_line) { /* the file ends in the middle of this line */
		sl_warn(s->d, "%s:%llu: last line is cut off; ignored", s->path,
			(unsigned long long)s->lineno);
		return 0;
	}
	if (r < 0)
		return sl_fail(s->d, "%s:%llu: %s", s->path, (unsigned long long)s->lineno, ld.msg);
	if (r > 0) {
		ev.pos = s->lineno;
		sl_evbuf_push(&s->buf, &ev);
	}
	return 0;
}

static void lput(struct st *s, char c)
{
	SL_GROW(s->lb, s->lcap, s->ln + 1);
	s->lb[s->ln++] = c;
}

/* One physical line of the legacy JS string. Returns 1 when the string
 * ended on it, 0 to go on, -1 on error. */
static int legacy_line(struct st *s, const char *l, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		char c = l[i];
		if (c == '"') { /* end of the JS string */
			int r = feed(s, s->lb, s->ln);
			s->ln = 0;
			return r < 0 ? -1 : 1;
		}
		if (c != '\\') {
			lput(s, c);
			continue;
		}
		if (i + 1 >= n)
			break; /* `\` at the end: the string goes on */
		c = l[++i];
		switch (c) {
		case 'n':
			if (feed(s, s->lb, s->ln) < 0)
				return -1;
			s->ln = 0;
			break;
		case 't':
			lput(s, '\t');
			break;
		case 'r':
			break;
		default: /* \" \\ \' and anything else: the character itself */
			lput(s, c);
		}
	}
	return 0;
}

/* Find `s` in [l, l+n) (case-sensitive); offset or -1. */
static long find(const char *l, size_t n, const char *s)
{
	const char *p = memmem(l, n, s, strlen(s));
	return p ? p - l : -1;
}

/* `linuxPerfData = "`: offset just past the quote, or -1 (the name also
 * appears in the viewer's own JS code). */
static long legacy_start(const char *l, size_t n)
{
	size_t from = 0;
	long at;
	while (from < n && (at = find(l + from, n - from, "linuxPerfData")) >= 0) {
		size_t i = from + (size_t)at + 13;
		while (i < n && (l[i] == ' ' || l[i] == '\t'))
			i++;
		if (i < n && l[i] == '=') {
			i++;
			while (i < n && (l[i] == ' ' || l[i] == '\t'))
				i++;
			if (i < n && l[i] == '"')
				return (long)i + 1;
		}
		from += (size_t)at + 13;
	}
	return -1;
}

static int block_line(struct st *s, int *state, const char *l, size_t n)
{
	long end = find(l, n, "</script>");
	size_t m = end >= 0 ? (size_t)end : n;
	size_t i = 0;

	if (*state == BLOCK_START) {
		while (i < m && isspace((unsigned char)l[i]))
			i++;
		if (i < m)
			*state = (l[i] == '{' || l[i] == '[') ? SKIP : BLOCK;
	}
	if (*state == BLOCK && feed(s, l, m) < 0)
		return -1;
	if (end >= 0)
		*state = OUT;
	return 0;
}

static int systrace_read(const char *path, sl_event_fn fn, void *ctx, struct sl_diag *d)
{
	FILE *f = fopen(path, "rb");
	struct st s;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int state = OUT, rc = 0;

	if (!f)
		return sl_fail(d, "%s: %s", path, strerror(errno));
	memset(&s, 0, sizeof(s));
	s.p = sl_ftrace_parser_new();
	s.path = path;
	s.d = d;
	sl_evbuf_init(&s.buf);
	while (rc == 0 && (n = getline(&line, &cap, f)) > 0) {
		size_t len = (size_t)n;
		long at;
		s.lineno++;
		if (line[len - 1] == '\n')
			len--;
		else
			s.cut_line = 1;
		if (len && line[len - 1] == '\r') /* CRLF line ends */
			len--;
		if (memchr(line, 0, len)) {
			rc = sl_fail(d, "%s:%llu: binary data in an HTML trace", path,
				     (unsigned long long)s.lineno);
			break;
		}
		switch (state) {
		case OUT:
			if ((at = legacy_start(line, len)) >= 0) {
				int r;
				s.nblocks++;
				s.ln = 0;
				r = legacy_line(&s, line + at, len - (size_t)at);
				if (r < 0)
					rc = -1;
				else if (r == 0)
					state = LEGACY;
			} else if ((at = find(line, len, "class=\"trace-data\"")) >= 0) {
				long gt = find(line + at, len - (size_t)at, ">");
				s.nblocks++;
				state = BLOCK_START;
				if (gt >= 0) {
					size_t off = (size_t)at + (size_t)gt + 1;
					if (block_line(&s, &state, line + off, len - off) < 0)
						rc = -1;
				}
			}
			break;
		case LEGACY: {
			int r = legacy_line(&s, line, len);
			if (r < 0)
				rc = -1;
			else if (r == 1)
				state = OUT;
			break;
		}
		default:
			if (block_line(&s, &state, line, len) < 0)
				rc = -1;
		}
	}
	if (!rc && ferror(f))
		rc = sl_fail(d, "%s: read error: %s", path, strerror(errno));
	if (!rc && state != OUT)
		sl_warn(d, "%s:%llu: file ends inside the trace data; reading what is whole", path,
			(unsigned long long)s.lineno);
	if (!rc && !s.nblocks)
		rc = sl_fail(d, "%s:%llu: no systrace trace data (linuxPerfData or <script class=\"trace-data\">) found",
			     path, (unsigned long long)s.lineno);
	else if (!rc && s.buf.n == 0)
		rc = sl_fail(d, "%s:%llu: no scheduler events in the trace data", path,
			     (unsigned long long)s.lineno);
	if (!rc) {
		sl_evbuf_sort(&s.buf);
		if (sl_evbuf_flush(&s.buf, UINT64_MAX, fn, ctx))
			rc = -1;
	}
	free(line);
	free(s.lb);
	fclose(f);
	sl_evbuf_release(&s.buf);
	sl_ftrace_parser_free(s.p);
	return rc;
}

const struct sl_reader sl_reader_systrace = {
	.name = "systrace",
	.probe = systrace_probe,
	.read = systrace_read,
};
