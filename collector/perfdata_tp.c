/* collector/perfdata_tp.c - the tracing-data section of a perf.data file
 * (HEADER_TRACING_DATA: the kernel's tracepoint `format` files, in the same
 * layout trace-cmd uses) and decoding of sched tracepoint raw data.
 *
 * Only the "sched" system's formats go to libtraceevent (tep_parse_format),
 * which gives us each field's offset, size and kind. libtraceevent trusts
 * its input (fuzzing found NULL dereferences in its print-fmt parser), so
 * it gets a canonical copy rebuilt here from lines that passed a strict
 * check - name, ID and field lines - with an empty print fmt; the real print
 * fmt is read by our own small evaluator below. Decoding then reads the
 * fields straight from the sample's raw bytes with bounds checks, so the hot
 * path never goes back into libtraceevent. */
#include "perfdata_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

/* ---- cursor over the blob ---- */

struct cur {
	const unsigned char *base, *p, *end;
};

static int take(struct cur *c, size_t n, const unsigned char **out)
{
	if ((size_t)(c->end - c->p) < n)
		return -1;
	*out = c->p;
	c->p += n;
	return 0;
}

/* n bytes into *v (a u32 or u64 in the file's byte order, as written) */
static int rd_num(struct cur *c, void *v, size_t n)
{
	const unsigned char *q;
	if (take(c, n, &q))
		return -1;
	memcpy(v, q, n);
	return 0;
}

static int rd_u32(struct cur *c, uint32_t *v)
{
	return rd_num(c, v, 4);
}

static int rd_u64(struct cur *c, uint64_t *v)
{
	return rd_num(c, v, 8);
}

/* a NUL-terminated string of at most max bytes */
static int rd_str(struct cur *c, size_t max, const char **s)
{
	const unsigned char *z;
	size_t lim = (size_t)(c->end - c->p);
	if (lim > max)
		lim = max;
	z = memchr(c->p, 0, lim);
	if (!z)
		return -1;
	*s = (const char *)c->p;
	c->p = z + 1;
	return 0;
}

/* ---- "preempted" bit from the print fmt ---- */

struct ex {
	const char *p, *e;
	int depth, bad;
};

static int64_t ex_or(struct ex *x);

static void ex_sp(struct ex *x)
{
	while (x->p < x->e && (*x->p == ' ' || *x->p == '\t'))
		x->p++;
}

static int64_t ex_prim(struct ex *x)
{
	int64_t v = 0;
	ex_sp(x);
	if (x->p >= x->e || ++x->depth > 64) {
		x->bad = 1;
		return 0;
	}
	if (*x->p == '(') {
		x->p++;
		v = ex_or(x);
		ex_sp(x);
		if (x->p < x->e && *x->p == ')')
			x->p++;
		else
			x->bad = 1;
	} else if (*x->p == '~' || *x->p == '-') {
		char op = *x->p++;
		v = ex_prim(x);
		v = op == '~' ? ~v : -v;
	} else if (x->e - x->p > 2 && x->p[0] == '0' && (x->p[1] == 'x' || x->p[1] == 'X')) {
		int nd = 0;
		x->p += 2;
		for (; x->p < x->e; x->p++, nd++) {
			char ch = *x->p;
			int dv = ch >= '0' && ch <= '9' ? ch - '0'
				 : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
				 : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
			if (dv < 0)
				break;
			if (nd < 15)
				v = v * 16 + dv;
		}
		if (!nd)
			x->bad = 1;
	} else if (*x->p >= '0' && *x->p <= '9') {
		for (; x->p < x->e && *x->p >= '0' && *x->p <= '9'; x->p++)
			if (v < (1LL << 50))
				v = v * 10 + (*x->p - '0');
	} else {
		x->bad = 1;
	}
	while (x->p < x->e && (*x->p == 'U' || *x->p == 'L' || *x->p == 'u' || *x->p == 'l'))
		x->p++; /* 1UL */
	x->depth--;
	return v;
}

static int64_t ex_add(struct ex *x)
{
	int64_t v = ex_prim(x);
	for (;;) {
		ex_sp(x);
		if (x->bad || x->p >= x->e || (*x->p != '+' && *x->p != '-'))
			return v;
		if (*x->p++ == '+')
			v += ex_prim(x);
		else
			v -= ex_prim(x);
	}
}

static int64_t ex_shift(struct ex *x)
{
	int64_t v = ex_add(x), r;
	for (;;) {
		int left;
		ex_sp(x);
		if (x->bad || x->e - x->p < 2 || x->p[0] != x->p[1] ||
		    (x->p[0] != '<' && x->p[0] != '>'))
			return v;
		left = x->p[0] == '<';
		x->p += 2;
		r = ex_add(x);
		if (r < 0 || r > 62)
			x->bad = 1;
		else
			v = left ? (int64_t)((uint64_t)v << r) : v >> r;
	}
}

static int64_t ex_and(struct ex *x)
{
	int64_t v = ex_shift(x);
	for (;;) {
		ex_sp(x);
		if (x->bad || x->p >= x->e || *x->p != '&' || (x->e - x->p > 1 && x->p[1] == '&'))
			return v;
		x->p++;
		v &= ex_shift(x);
	}
}

static int64_t ex_or(struct ex *x)
{
	int64_t v = ex_and(x);
	for (;;) {
		ex_sp(x);
		if (x->bad || x->p >= x->e || (*x->p != '|' && *x->p != '^') ||
		    (x->e - x->p > 1 && x->p[1] == '|'))
			return v;
		if (*x->p++ == '|')
			v |= ex_and(x);
		else
			v ^= ex_and(x);
	}
}

int64_t pd_report_max_from_fmt(const char *fmt, size_t n)
{
	const char *plus = NULL, *q, *amp;
	struct ex x;
	int64_t v;
	size_t i;

	/* the last `? "+"` in the format: the preempted marker */
	for (i = 0; i + 4 < n; i++) {
		if (fmt[i] == '?') {
			size_t j = i + 1;
			while (j < n && fmt[j] == ' ')
				j++;
			if (j + 2 < n && fmt[j] == '"' && fmt[j + 1] == '+' && fmt[j + 2] == '"')
				plus = fmt + i;
		}
	}
	if (!plus)
		return 0;
	/* the nearest "prev_state" before it, then its '&' */
	for (i = (size_t)(plus - fmt); i >= 10; i--)
		if (!memcmp(fmt + i - 10, "prev_state", 10))
			break;
	if (i < 10)
		return 0;
	q = fmt + i;
	amp = memchr(q, '&', (size_t)(plus - q));
	if (!amp)
		return 0;
	x.p = amp + 1;
	x.e = plus;
	x.depth = 0;
	x.bad = 0;
	v = ex_or(&x);
	ex_sp(&x);
	if (x.bad || x.p != x.e || v <= 0)
		return 0;
	return v;
}

/* ---- event formats ---- */

static const struct {
	const char *name;
	uint16_t type;
	const char *field[PD_NF]; /* by role; "a|b" = a, else b */
	uint8_t need;             /* roles that must exist (bit mask) */
} known[] = {
	{ "sched_switch", SL_EV_SWITCH,
	  { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio" },
	  (1 << PD_F1) | (1 << PD_F5) },
	{ "sched_wakeup", SL_EV_WAKEUP, { "comm", "pid", "prio", "target_cpu|cpu" }, 1 << PD_F1 },
	{ "sched_waking", SL_EV_WAKING, { "comm", "pid", "prio", "target_cpu|cpu" }, 1 << PD_F1 },
	{ "sched_wakeup_new", SL_EV_WAKEUP_NEW, { "comm", "pid", "prio", "target_cpu|cpu" },
	  1 << PD_F1 },
	{ "sched_process_fork", SL_EV_FORK,
	  { "parent_comm", "parent_pid", NULL, NULL, "child_comm", "child_pid" },
	  (1 << PD_F1) | (1 << PD_F5) },
	{ "sched_process_exec", SL_EV_EXEC, { "filename", "pid" }, 1 << PD_F1 },
	{ "sched_process_exit", SL_EV_EXIT, { "comm", "pid", "prio" }, 1 << PD_F1 },
	{ "sched_migrate_task", SL_EV_MIGRATE, { "comm", "pid", "prio", "orig_cpu", "dest_cpu" },
	  (1 << PD_F1) | (1 << PD_F4) },
	{ "sched_stat_runtime", SL_EV_RUNTIME, { "comm", "pid", NULL, "runtime" },
	  (1 << PD_F1) | (1 << PD_F3) },
};

static void set_field(struct pd_field *f, const struct tep_format_field *tf)
{
	f->off = -1;
	if (!tf || tf->offset < 0 || tf->offset > 65535 || tf->size < 0 || tf->size > 65535)
		return;
	f->off = tf->offset;
	f->size = tf->size;
	f->sign = (tf->flags & TEP_FIELD_IS_SIGNED) != 0;
	if (tf->flags & TEP_FIELD_IS_DYNAMIC) {
		f->kind = (tf->flags & TEP_FIELD_IS_RELATIVE) ? 3 : 2;
		f->size = 4;
	} else if (tf->flags & TEP_FIELD_IS_ARRAY) {
		f->kind = 1;
	} else if (tf->size == 1 || tf->size == 2 || tf->size == 4 || tf->size == 8) {
		f->kind = 0;
	} else {
		f->off = -1;
	}
}

static struct tep_format_field *find_field(struct tep_event *ev, const char *names)
{
	char buf[32];
	const char *bar = strchr(names, '|');
	struct tep_format_field *f;
	if (!bar)
		return tep_find_field(ev, names);
	snprintf(buf, sizeof(buf), "%.*s", (int)(bar - names), names);
	f = tep_find_field(ev, buf);
	return f ? f : tep_find_field(ev, bar + 1);
}

/* Is [s, e) made of chars from set (and 1..max long)? */
static int only(const char *s, const char *e, const char *set, size_t max)
{
	if (s >= e || (size_t)(e - s) > max)
		return 0;
	for (; s < e; s++)
		if (!*s || !strchr(set, *s))
			return 0;
	return 1;
}

/* "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" with plain
 * characters and small numbers only */
static int field_line_ok(const char *s, const char *e)
{
	static const char *const keys[] = { "offset:", "size:", "signed:" };
	const char *semi;
	size_t k;
	while (s < e && (*s == '\t' || *s == ' '))
		s++;
	if (e - s < 6 || memcmp(s, "field:", 6))
		return 0;
	s += 6;
	semi = memchr(s, ';', (size_t)(e - s));
	if (!semi || !only(s, semi, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_ []*", 128))
		return 0;
	s = semi + 1;
	for (k = 0; k < 3; k++) {
		size_t kl = strlen(keys[k]);
		while (s < e && (*s == '\t' || *s == ' '))
			s++;
		if ((size_t)(e - s) < kl || memcmp(s, keys[k], kl))
			return 0;
		s += kl;
		semi = memchr(s, ';', (size_t)(e - s));
		if (!semi || !only(s, semi, "0123456789", 5))
			return 0;
		s = semi + 1;
	}
	while (s < e && (*s == '\t' || *s == ' '))
		s++;
	return s == e;
}

/* Canonical copy of a format text for libtraceevent (caller frees), NULL
 * when the name, ID or format lines are missing or malformed. */
static char *canonical_format(const char *txt, size_t len, size_t *outlen)
{
	const char *s = txt, *e = txt + len, *nl;
	char *out = xmalloc(len + 64);
	size_t n = 0;
	int have_name = 0, have_id = 0, in_fields = 0;

	for (; s < e; s = nl + 1) {
		size_t ll;
		nl = memchr(s, '\n', (size_t)(e - s));
		if (!nl)
			nl = e;
		ll = (size_t)(nl - s);
		if (!in_fields && ll > 6 && !memcmp(s, "name: ", 6) && !have_name &&
		    only(s + 6, nl, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
			 64)) {
			have_name = 1;
		} else if (!in_fields && ll > 4 && !memcmp(s, "ID: ", 4) && !have_id &&
			   only(s + 4, nl, "0123456789", 9)) {
			have_id = 1;
		} else if (!in_fields && ll == 7 && !memcmp(s, "format:", 7) && have_name && have_id) {
			in_fields = 1;
		} else if (in_fields && field_line_ok(s, nl)) {
			;
		} else if (in_fields && ll == 0) {
			;
		} else if (ll >= 10 && !memcmp(s, "print fmt:", 10)) {
			break;
		} else {
			free(out);
			return NULL;
		}
		memcpy(out + n, s, ll);
		n += ll;
		out[n++] = '\n';
		if (nl == e)
			break;
	}
	if (!in_fields) {
		free(out);
		return NULL;
	}
	memcpy(out + n, "\nprint fmt: \"\"\n", 15);
	n += 15;
	*outlen = n;
	return out;
}

/* One sched format file: keep it if it is an event we read. */
static void add_format(struct pd_trace *t, struct tep_handle *tep, const char *txt, size_t len)
{
	struct tep_event *ev = NULL;
	struct pd_tp tp;
	size_t k, clen = 0;
	int i, prc;
	char *canon;

	canon = canonical_format(txt, len, &clen);
	if (!canon)
		return;
	prc = tep_parse_format(tep, &ev, canon, clen, "sched");
	free(canon);
	if (prc != 0 || !ev || !ev->name)
		return;
	for (k = 0; k < SL_ARRAY_SIZE(known); k++)
		if (!strcmp(known[k].name, ev->name))
			break;
	if (k == SL_ARRAY_SIZE(known))
		return;
	memset(&tp, 0, sizeof(tp));
	tp.id = ev->id;
	tp.type = known[k].type;
	for (i = 0; i < PD_NF; i++) {
		struct pd_field *f = &tp.f[i];
		f->off = -1;
		if (known[k].field[i])
			set_field(f, find_field(ev, known[k].field[i]));
		if (f->off < 0 && (known[k].need & (1 << i)))
			return; /* a format without the fields we need */
		if (f->off >= 0 && (uint32_t)(f->off + f->size) > tp.min_size)
			tp.min_size = (uint32_t)(f->off + f->size);
	}
	if (t->common_pid.off < 0) {
		set_field(&t->common_pid, tep_find_any_field(ev, "common_pid"));
		set_field(&t->common_flags, tep_find_any_field(ev, "common_flags"));
		if (t->common_flags.kind != 0)
			t->common_flags.off = -1;
		if (t->common_pid.kind != 0)
			t->common_pid.off = -1;
	}
	if (tp.type == SL_EV_SWITCH) {
		const char *pf = memmem(txt, len, "print fmt:", 10);
		if (pf)
			t->report_max = pd_report_max_from_fmt(pf, len - (size_t)(pf - txt));
	}
	for (k = 0; k < t->ntp; k++)
		if (t->tp[k].id == tp.id)
			return;
	t->tp = xrealloc(t->tp, (t->ntp + 1) * sizeof(*t->tp));
	t->tp[t->ntp++] = tp;
}

#define FAIL(what)                                                               \
	do {                                                                     \
		snprintf(t->err, sizeof(t->err), "%s", what);                    \
		*bad_at = (size_t)(c.p - c.base);                                \
		goto out;                                                        \
	} while (0)

int pd_trace_parse(struct pd_trace *t, const unsigned char *buf, size_t n, size_t *bad_at)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cur c = { buf, buf, buf + n };
	struct tep_handle *tep = tep_alloc();
	const unsigned char *q;
	const char *s;
	uint32_t cnt, nsys, k, j;
	uint64_t sz;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	t->common_pid.off = t->common_flags.off = -1;
	*bad_at = 0;
	if (!tep)
		FAIL("out of memory");
	tep_set_loglevel(TEP_LOG_NONE);
	if (take(&c, 10, &q) || memcmp(q, magic, 10))
		FAIL("tracing data: bad magic");
	if (rd_str(&c, 16, &s))
		FAIL("tracing data: bad version string");
	if (take(&c, 2, &q))
		FAIL("tracing data: cut short");
	if (q[0])
		FAIL("tracing data is big-endian; only little-endian files are read");
	t->long_size = q[1];
	if (t->long_size != 4 && t->long_size != 8)
		FAIL("tracing data: long size is not 4 or 8");
	tep_set_long_size(tep, t->long_size);
	if (take(&c, 4, &q))
		FAIL("tracing data: cut short");
	/* header_page, header_event: name, u64 size, text (skipped) */
	for (k = 0; k < 2; k++) {
		if (rd_str(&c, 16, &s) || strcmp(s, k ? "header_event" : "header_page"))
			FAIL("tracing data: header_page/header_event missing");
		if (rd_u64(&c, &sz) || sz > (uint64_t)(c.end - c.p))
			FAIL("tracing data: header section cut short");
		c.p += sz;
	}
	/* ftrace's own formats (not needed) */
	if (rd_u32(&c, &cnt))
		FAIL("tracing data: cut short");
	for (k = 0; k < cnt; k++) {
		if (rd_u64(&c, &sz) || sz > (uint64_t)(c.end - c.p))
			FAIL("tracing data: ftrace format cut short");
		c.p += sz;
	}
	/* event formats by system */
	if (rd_u32(&c, &nsys))
		FAIL("tracing data: cut short");
	for (k = 0; k < nsys; k++) {
		int sched;
		if (rd_str(&c, 4096, &s))
			FAIL("tracing data: bad system name");
		sched = !strcmp(s, "sched");
		if (rd_u32(&c, &cnt))
			FAIL("tracing data: cut short");
		for (j = 0; j < cnt; j++) {
			if (rd_u64(&c, &sz) || sz > (uint64_t)(c.end - c.p))
				FAIL("tracing data: event format cut short");
			if (sched)
				add_format(t, tep, (const char *)c.p, (size_t)sz);
			c.p += sz;
		}
	}
	/* kallsyms, printk formats and saved cmdlines follow; not needed */
	rc = 0;
out:
	tep_free(tep);
	return rc;
}

void pd_trace_release(struct pd_trace *t)
{
	free(t->tp);
	t->tp = NULL;
	t->ntp = 0;
}

const struct pd_tp *pd_trace_find(const struct pd_trace *t, int id)
{
	size_t i;
	for (i = 0; i < t->ntp; i++)
		if (t->tp[i].id == id)
			return &t->tp[i];
	return NULL;
}

/* ---- decoding ---- */

static int64_t num(const struct pd_field *f, const unsigned char *raw)
{
	switch (f->size) {
	case 1: {
		uint8_t v = raw[f->off];
		return f->sign ? (int8_t)v : v;
	}
	case 2: {
		uint16_t v;
		memcpy(&v, raw + f->off, 2);
		return f->sign ? (int16_t)v : v;
	}
	case 4: {
		uint32_t v;
		memcpy(&v, raw + f->off, 4);
		return f->sign ? (int32_t)v : (int64_t)v;
	}
	default: {
		uint64_t v;
		memcpy(&v, raw + f->off, 8);
		return (int64_t)v;
	}
	}
}

static int32_t i32(const struct pd_field *f, const unsigned char *raw, int32_t dflt)
{
	int64_t v;
	if (f->off < 0 || f->kind != 0)
		return dflt;
	v = num(f, raw);
	if (v < INT32_MIN || v > INT32_MAX)
		return dflt;
	return (int32_t)v;
}

static void str(const struct pd_field *f, const unsigned char *raw, size_t n, char *dst,
		int base)
{
	const unsigned char *s;
	size_t len;
	dst[0] = 0;
	if (f->off < 0)
		return;
	if (f->kind == 1) {
		s = raw + f->off;
		len = (size_t)f->size;
	} else if (f->kind >= 2) {
		uint32_t loc, o;
		memcpy(&loc, raw + f->off, 4);
		o = (loc & 0xffff) + (f->kind == 3 ? (uint32_t)f->off + 4 : 0);
		len = loc >> 16;
		if (o > n || len > n - o)
			return;
		s = raw + o;
	} else {
		return;
	}
	{
		const unsigned char *z = memchr(s, 0, len);
		if (z)
			len = (size_t)(z - s);
	}
	if (base) { /* exec filename: keep the basename, 15 chars as the kernel */
		const unsigned char *b = s + len;
		while (b > s && b[-1] != '/')
			b--;
		len -= (size_t)(b - s);
		s = b;
		if (len > 15)
			len = 15;
	}
	{ /* plain printable ASCII, the usual case, needs no cleaning */
		size_t i;
		for (i = 0; i < len && i < SL_COMM_LEN - 1 && s[i] >= 0x20 && s[i] < 0x7f; i++)
			;
		if (i == len) {
			memcpy(dst, s, len);
			dst[len] = 0;
			return;
		}
	}
	sl_copy_comm(dst, SL_COMM_LEN, (const char *)s, len);
}

int pd_tp_decode(const struct pd_trace *t, const struct pd_tp *tp, const unsigned char *raw,
		 size_t n, struct sl_event *ev)
{
	const struct pd_field *f = tp->f;
	if (n < tp->min_size)
		return -1;
	if (t->common_pid.off >= 0 && (size_t)(t->common_pid.off + t->common_pid.size) <= n &&
	    ev->cur_pid < 0)
		ev->cur_pid = i32(&t->common_pid, raw, -1);
	if (t->common_flags.off >= 0 && (size_t)(t->common_flags.off + t->common_flags.size) <= n) {
		int64_t fl = num(&t->common_flags, raw);
		ev->ctx = SL_CTX_KNOWN;
		if (fl & 0x08) /* TRACE_FLAG_HARDIRQ */
			ev->ctx |= SL_CTX_HARDIRQ;
		if (fl & 0x10) /* TRACE_FLAG_SOFTIRQ */
			ev->ctx |= SL_CTX_SOFTIRQ;
		if (fl & 0x40) /* TRACE_FLAG_NMI */
			ev->ctx |= SL_CTX_NMI;
	}
	ev->type = tp->type;
	ev->pid = i32(&f[PD_F1], raw, -1);
	switch (tp->type) {
	case SL_EV_SWITCH:
		str(&f[PD_F0], raw, n, ev->comm, 0);
		ev->prio = i32(&f[PD_F2], raw, -1);
		if (f[PD_F3].off >= 0 && f[PD_F3].kind == 0)
			ev->state = sl_state_from_bits(num(&f[PD_F3], raw), t->report_max);
		else
			ev->state = '?';
		str(&f[PD_F4], raw, n, ev->comm2, 0);
		ev->pid2 = i32(&f[PD_F5], raw, -1);
		ev->prio2 = i32(&f[PD_F6], raw, -1);
		break;
	case SL_EV_WAKEUP:
	case SL_EV_WAKING:
	case SL_EV_WAKEUP_NEW:
		str(&f[PD_F0], raw, n, ev->comm, 0);
		ev->prio = i32(&f[PD_F2], raw, -1);
		ev->target_cpu = i32(&f[PD_F3], raw, -1);
		break;
	case SL_EV_FORK:
		str(&f[PD_F0], raw, n, ev->comm, 0);
		str(&f[PD_F4], raw, n, ev->comm2, 0);
		ev->pid2 = i32(&f[PD_F5], raw, -1);
		break;
	case SL_EV_EXEC:
		str(&f[PD_F0], raw, n, ev->comm, 1);
		break;
	case SL_EV_EXIT:
		str(&f[PD_F0], raw, n, ev->comm, 0);
		ev->prio = i32(&f[PD_F2], raw, -1);
		break;
	case SL_EV_MIGRATE:
		str(&f[PD_F0], raw, n, ev->comm, 0);
		ev->prio = i32(&f[PD_F2], raw, -1);
		ev->orig_cpu = i32(&f[PD_F3], raw, -1);
		ev->target_cpu = i32(&f[PD_F4], raw, -1);
		break;
	case SL_EV_RUNTIME: {
		int64_t r = f[PD_F3].kind == 0 ? num(&f[PD_F3], raw) : 0;
		str(&f[PD_F0], raw, n, ev->comm, 0);
		ev->count = r > 0 ? (uint64_t)r : 0;
		break;
	}
	}
	return 0;
}
