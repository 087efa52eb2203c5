/* cmd/opt.c - the table-driven option parser and the help it prints
 * (see opt.h). */
#include "opt.h"
#include "../common/util.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void sl_format_duration(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		const char *sfx;
		uint64_t mul;
	} units[] = { { "s", SL_NS_PER_SEC }, { "ms", SL_NS_PER_MS }, { "us", 1000 }, { "ns", 1 } };
	size_t i;
	for (i = 0; i < SL_ARRAY_SIZE(units) - 1; i++)
		if (ns && ns % units[i].mul == 0)
			break;
	snprintf(buf, len, "%llu%s", (unsigned long long)(ns / units[i].mul), units[i].sfx);
}

/* the command's name for messages: "replay: " or "" */
static const char *pfx(const struct sl_opts_spec *s)
{
	return s->cmd ? s->cmd : "";
}

static const char *sep(const struct sl_opts_spec *s)
{
	return s->cmd ? ": " : "";
}

/* What a value of o must look like, for the error line. */
static void expected(const struct sl_opt *o, char *buf, size_t len)
{
	char lo[32], hi[32];
	switch (o->kind) {
	case SL_OPT_INT:
		if (o->max == LLONG_MAX && o->min == 0)
			snprintf(buf, len, "a non-negative integer");
		else if (o->max == LLONG_MAX)
			snprintf(buf, len, "an integer >= %lld", o->min);
		else
			snprintf(buf, len, "%lld..%lld", o->min, o->max);
		break;
	case SL_OPT_ID:
	case SL_OPT_IDS:
		snprintf(buf, len, "an id (1, 2, ...)%s", o->kind == SL_OPT_IDS ? " or ids 1,2,3" : "");
		break;
	case SL_OPT_DURATION:
		sl_format_duration((uint64_t)o->min, lo, sizeof(lo));
		sl_format_duration((uint64_t)o->max, hi, sizeof(hi));
		if (o->max == LLONG_MAX)
			snprintf(buf, len, "a %sduration like 6ms or 1.5s", o->min > 0 ? "positive " : "");
		else if (o->min <= 1)
			snprintf(buf, len, "a %sduration like 6ms or 1.5s, up to %s", o->min > 0 ? "positive " : "",
				 hi);
		else
			snprintf(buf, len, "a duration from %s to %s", lo, hi);
		break;
	case SL_OPT_CHOICE: {
		/* the table's names: "a, b or c" */
		const struct sl_choice *c;
		size_t off = 0;
		buf[0] = 0;
		for (c = o->choices; c && c->name && off < len; c++) {
			snprintf(buf + off, len - off, "%s%s", off ? (c[1].name ? ", " : " or ") : "", c->name);
			off = strlen(buf);
		}
		break;
	}
	default:
		snprintf(buf, len, "a non-empty value");
	}
}

/* "a|b|c": the names of a choice table */
static void choice_names(const struct sl_choice *c, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = 0;
	for (; c && c->name && off < len; c++) {
		snprintf(buf + off, len - off, "%s%s", off ? "|" : "", c->name);
		off = strlen(buf);
	}
}

/* Append the ids of "1,2,3"; -1 if one is not an id. */
static int add_ids(struct sl_idlist *l, const char *s)
{
	char buf[32];
	if (!*s)
		return -1;
	while (*s) {
		size_t len = strcspn(s, ",");
		long long v;
		if (len == 0 || len >= sizeof(buf))
			return -1;
		memcpy(buf, s, len);
		buf[len] = 0;
		if (sl_parse_int(buf, 1, INT64_MAX, &v))
			return -1;
		SL_GROW(l->v, l->cap, l->n + 1);
		l->v[l->n++] = v;
		s += len;
		if (*s == ',' && !*++s)
			return -1;
	}
	return 0;
}

/* Store value v of option o (spelt `shown` on the command line). */
static int set_value(const struct sl_opts_spec *s, const struct sl_opt *o, const char *shown,
		     const char *v)
{
	char want[160];
	long long n;
	uint64_t t;
	switch (o->kind) {
	case SL_OPT_INT:
		if (sl_parse_int(v, o->min, o->max, &n))
			goto bad;
		*(long long *)o->dest = n;
		return 0;
	case SL_OPT_ID:
		if (sl_parse_int(v, 1, INT64_MAX, &n))
			goto bad;
		*(int64_t *)o->dest = n;
		return 0;
	case SL_OPT_IDS:
		if (add_ids(o->dest, v))
			goto bad;
		return 0;
	case SL_OPT_DURATION:
		if (sl_parse_duration(v, o->unit, &t) || t < (uint64_t)o->min || t > (uint64_t)o->max)
			goto bad;
		*(uint64_t *)o->dest = t;
		return 0;
	case SL_OPT_STRING:
		if (o->min > 0 && !*v)
			goto bad;
		*(const char **)o->dest = v;
		return 0;
	case SL_OPT_CHOICE: {
		const struct sl_choice *c = sl_choice_find(o->choices, v);
		if (!c)
			goto bad;
		*(int *)o->dest = c->value;
		return 0;
	}
	case SL_OPT_LIST: {
		struct sl_strlist *l = o->dest;
		SL_GROW(l->v, l->cap, l->n + 1);
		l->v[l->n++] = v;
		return 0;
	}
	case SL_OPT_FLAG:
		*(int *)o->dest = 1;
		return 0;
	}
bad:
	expected(o, want, sizeof(want));
	sl_err("%s%s%s '%s': expected %s", pfx(s), sep(s), shown, v, want);
	return -1;
}

static const struct sl_opt *find_long(const struct sl_opt *o, const char *name, size_t len)
{
	for (; o->name || o->short_name; o++)
		if (o->name && strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static const struct sl_opt *find_short(const struct sl_opt *o, char c)
{
	for (; o->name || o->short_name; o++)
		if (o->short_name == c)
			return o;
	return NULL;
}

static int is_number(const char *a)
{
	return a[0] == '-' && a[1] >= '0' && a[1] <= '9';
}

int sl_opts_parse(const struct sl_opts_spec *s, int argc, char **argv, int *noperands)
{
	int i, nops = 0, stopped = 0;
	for (i = 1; i < argc; i++) {
		char *a = argv[i], shown[64];
		const char *val = NULL, *eq = NULL;
		const struct sl_opt *o;
		if (stopped || a[0] != '-' || !a[1] || ((s->flags & SL_OPTS_NUMBERS) && is_number(a))) {
			if (!(s->flags & SL_OPTS_OPERANDS)) {
				sl_err("%s%sunexpected argument '%s' (see 'schedlab%s%s -h')", pfx(s), sep(s), a,
				       s->cmd ? " " : "", pfx(s));
				goto fail;
			}
			argv[1 + nops++] = a;
			if (s->flags & SL_OPTS_STOP)
				stopped = 1;
			continue;
		}
		if (!strcmp(a, "--")) {
			stopped = 1;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			sl_opts_usage(s, stdout);
			sl_opts_release(s->opts);
			return 0;
		}
		if (a[1] == '-') {
			eq = strchr(a + 2, '=');
			o = find_long(s->opts, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
			snprintf(shown, sizeof(shown), "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
		} else {
			o = a[2] ? NULL : find_short(s->opts, a[1]);
			snprintf(shown, sizeof(shown), "%s", a);
		}
		if (!o) {
			sl_err("%s%sunknown option '%s' (see 'schedlab%s%s -h')", pfx(s), sep(s), a,
			       s->cmd ? " " : "", pfx(s));
			goto fail;
		}
		if (o->kind == SL_OPT_FLAG) {
			if (eq) {
				sl_err("%s%s%s takes no value", pfx(s), sep(s), shown);
				goto fail;
			}
			*(int *)o->dest = 1;
			continue;
		}
		if (eq)
			val = eq + 1;
		else if (i + 1 < argc)
			val = argv[++i];
		if (!val) {
			char names[160];
			choice_names(o->choices, names, sizeof(names));
			sl_err("%s%s%s needs a value (%s)", pfx(s), sep(s), shown, o->arg ? o->arg : names);
			goto fail;
		}
		if (set_value(s, o, shown, val))
			goto fail;
		/* --run 1 2 3: the ids that follow belong to it */
		if (o->kind == SL_OPT_IDS && !eq)
			while (i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9')
				if (set_value(s, o, shown, argv[++i]))
					goto fail;
	}
	if (1 + nops < argc)
		argv[1 + nops] = NULL;
	if (noperands)
		*noperands = nops;
	return SL_OPTS_GO;
fail:
	sl_opts_release(s->opts);
	return 2;
}

void sl_opts_release(const struct sl_opt *o)
{
	for (; o->name || o->short_name; o++) {
		if (o->kind == SL_OPT_IDS) {
			struct sl_idlist *l = o->dest;
			free(l->v);
			memset(l, 0, sizeof(*l));
		} else if (o->kind == SL_OPT_LIST) {
			struct sl_strlist *l = o->dest;
			free(l->v);
			memset(l, 0, sizeof(*l));
		}
	}
}

/* "  -o, --output DIR", "  --top N", "  -q" */
static int left_column(const struct sl_opt *o, char *buf, size_t len)
{
	char names[160];
	const char *arg = o->kind == SL_OPT_FLAG ? NULL : o->kind == SL_OPT_CHOICE ? names : o->arg;
	int n = snprintf(buf, len, "  ");
	choice_names(o->choices, names, sizeof(names));
	if (o->short_name)
		n += snprintf(buf + n, len - (size_t)n, "-%c%s", o->short_name, o->name ? ", " : "");
	if (o->name)
		n += snprintf(buf + n, len - (size_t)n, "--%s", o->name);
	if (arg)
		n += snprintf(buf + n, len - (size_t)n, " %s", arg);
	if (o->kind == SL_OPT_IDS || o->kind == SL_OPT_LIST)
		n += snprintf(buf + n, len - (size_t)n, "...");
	return n;
}

/* " (default 20)" when the destination holds a value before parsing */
static void default_of(const struct sl_opt *o, char *buf, size_t len)
{
	char t[32];
	buf[0] = 0;
	switch (o->kind) {
	case SL_OPT_INT:
		if (*(long long *)o->dest)
			snprintf(buf, len, " (default %lld)", *(long long *)o->dest);
		break;
	case SL_OPT_DURATION: {
		/* 1 ns -> "ns", 1 ms -> "ms": the unit of a bare number */
		char u[32];
		sl_format_duration(o->unit, u, sizeof(u));
		if (*(uint64_t *)o->dest) {
			sl_format_duration(*(uint64_t *)o->dest, t, sizeof(t));
			snprintf(buf, len, " (default %s; a bare number is in %s)", t, u + 1);
		} else {
			snprintf(buf, len, " (a bare number is in %s)", u + 1);
		}
		break;
	}
	case SL_OPT_STRING:
		if (*(const char **)o->dest)
			snprintf(buf, len, " (default %s)", *(const char **)o->dest);
		break;
	case SL_OPT_CHOICE: {
		/* the entry the destination holds (none: no default) */
		const char *name = sl_choice_name(o->choices, *(int *)o->dest, NULL);
		if (name)
			snprintf(buf, len, " (default %s)", name);
		break;
	}
	default:
		break;
	}
}

/* Whether help already states the default def gives: "(default V" with
 * the same V (up to ';' or ')'). */
static int help_states(const char *help, const char *def)
{
	char want[128];
	const char *v = strstr(def, "(default ");
	size_t n;
	if (!v)
		return 0;
	n = strcspn(v, ";)");
	if (n >= sizeof(want))
		return 0;
	memcpy(want, v, n);
	want[n] = 0;
	return strstr(help, want) != NULL;
}

enum { HELP_COL = 22 };

/* A choice table's help, an entry a paragraph under the option's, its
 * words wrapped at 79 columns: "    timed: sleeps last as recorded". */
static void choice_help(const struct sl_choice *c, FILE *f)
{
	for (; c && c->name; c++) {
		const char *h;
		int col;
		if (!c->help)
			continue;
		col = fprintf(f, "%*s%s:", HELP_COL + 2, "", c->name);
		for (h = c->help; *h;) {
			size_t w;
			h += strspn(h, " \n");
			w = strcspn(h, " \n");
			if (!w)
				break;
			if (col + 1 + (int)w > 79)
				col = fprintf(f, "\n%*s", HELP_COL + 4, "") - 1;
			else
				col += fprintf(f, " ");
			col += fprintf(f, "%.*s", (int)w, h);
			h += w;
		}
		fputc('\n', f);
	}
}

void sl_opts_usage(const struct sl_opts_spec *s, FILE *f)
{
	const struct sl_opt *o;
	fprintf(f, "usage: %s\n", s->synopsis);
	if (s->about)
		fprintf(f, "\n%s", s->about);
	if (s->opts[0].name || s->opts[0].short_name)
		fprintf(f, "\n%s:\n", s->cmd ? "Options" : "Global options");
	for (o = s->opts; o->name || o->short_name; o++) {
		char left[96], def[128];
		const char *h;
		size_t hlen;
		int colon;
		int n = left_column(o, left, sizeof(left));
		fputs(left, f);
		if (n >= HELP_COL - 1)
			fprintf(f, "\n%*s", HELP_COL, "");
		else
			fprintf(f, "%*s", HELP_COL - n, "");
		/* a choice's help ending in ':' introduces its values: the
		 * default goes before the colon */
		hlen = strlen(o->help);
		colon = o->kind == SL_OPT_CHOICE && hlen && o->help[hlen - 1] == ':';
		for (h = o->help; *h && h < o->help + hlen - colon; h++) {
			fputc(*h, f);
			if (*h == '\n')
				fprintf(f, "%*s", HELP_COL, "");
		}
		default_of(o, def, sizeof(def));
		if (help_states(o->help, def))
			def[0] = 0; /* said once, not twice */
		fprintf(f, "%s%s\n", def, colon ? ":" : "");
		if (o->kind == SL_OPT_CHOICE)
			choice_help(o->choices, f);
	}
	if (s->more)
		s->more(f);
}
