/* cmd/cmd-plot.c - schedlab plot KIND: one chart of one or more runs. */
#include "cmd.h"
#include "../plots/plot.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	const struct sl_plot_kind *k;
	fprintf(f, "usage: schedlab [--db FILE] plot KIND (--run ID... | --trace ID) -o FILE\n"
		   "                 [--task TID] [--top N] [--from T] [--to T] [--keep]\n\n"
		   "Draw one chart of the runs (all of one trace) into FILE; the format is\n"
		   "the extension: .png, .svg or .pdf. KIND is one of:\n");
	for (k = sl_plot_kinds; k->name; k++)
		fprintf(f, "  %-10s %s\n", k->name, k->what);
	fprintf(f, "\n--run takes one or more ids (--run 1 2 3, --run 1,2, or repeated);\n"
		   "--trace ID draws every run of the trace. --task TID: the staircase of this\n"
		   "task only; --top N: how many tasks the staircase (3), share (12) and\n"
		   "timeline (12) single out. --from/--to T (6ms, 1.5s; from the trace's start):\n"
		   "the window of the timeline, the staircase and the share. --keep: keep the\n"
		   "gnuplot script and data files next to FILE (FILE.gp, FILE.*.dat).\n");
}

/* Append the ids in "1,2,3" to runs; -1 if one is not a number. */
static int add_ids(const char *s, int64_t **runs, size_t *n, size_t *cap)
{
	char buf[32];
	while (*s) {
		size_t len = strcspn(s, ",");
		long long v;
		if (len == 0 || len >= sizeof(buf))
			return -1;
		memcpy(buf, s, len);
		buf[len] = 0;
		if (sl_parse_int(buf, 1, INT64_MAX, &v))
			return -1;
		SL_GROW(*runs, *cap, *n + 1);
		(*runs)[(*n)++] = v;
		s += len;
		if (*s == ',')
			s++;
	}
	return 0;
}

int cmd_plot(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_store *st = NULL;
	struct sl_plot_opts o;
	const struct sl_plot_kind *kind = NULL;
	const char *out = NULL;
	int64_t *runs = NULL;
	size_t n = 0, cap = 0;
	long long trace = 0, v;
	int i, rc = 2;
	enum sl_plot_fmt fmt;

	memset(&o, 0, sizeof(o));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (sl_is_help(a)) {
			usage(stdout);
			free(runs);
			return 0;
		} else if (!strcmp(a, "--run") && val) {
			/* one or more ids follow */
			do {
				if (add_ids(argv[++i], &runs, &n, &cap)) {
					sl_err("plot: bad run id '%s'", argv[i]);
					goto out;
				}
			} while (i + 1 < argc && argv[i + 1][0] >= '0' && argv[i + 1][0] <= '9');
		} else if ((!strcmp(a, "--trace") || !strcmp(a, "--task") || !strcmp(a, "--top")) && val) {
			if (sl_parse_int(val, 0, INT32_MAX, &v)) {
				sl_err("plot: bad number '%s' for %s", val, a);
				goto out;
			}
			if (!strcmp(a, "--trace"))
				trace = v;
			else if (!strcmp(a, "--task"))
				o.task_tid = (int)v;
			else
				o.top = (int)v;
			i++;
		} else if ((!strcmp(a, "--from") || !strcmp(a, "--to")) && val) {
			uint64_t t;
			if (sl_parse_duration(val, 1, &t)) {
				sl_err("plot: bad duration '%s' for %s", val, a);
				goto out;
			}
			if (!strcmp(a, "--from"))
				o.from = t;
			else
				o.to = t;
			i++;
		} else if (!strcmp(a, "-o") && val) {
			out = val;
			i++;
		} else if (!strcmp(a, "--keep")) {
			o.keep = 1;
		} else if (a[0] != '-' && !kind) {
			kind = sl_plot_kind_find(a);
			if (!kind) {
				sl_err("plot: unknown chart kind '%s' (schedlab plot -h lists them)", a);
				goto out;
			}
		} else {
			sl_err("plot: unknown option '%s'", a);
			usage(stderr);
			goto out;
		}
	}
	if (!kind || !out || (!n && !trace)) {
		usage(stderr);
		goto out;
	}
	if (o.to && o.to <= o.from) {
		sl_err("plot: --to must be after --from");
		goto out;
	}
	rc = 1;
	if (sl_plot_fmt_of(out, &fmt, &d) || sl_store_open(g->db, 0, &st, &d))
		goto fail;
	if (!n && sl_store_list_runs(st, trace, &runs, &n, &d))
		goto fail;
	if (!n) {
		sl_fail(&d, "trace %lld has no runs", trace);
		goto fail;
	}
	o.runs = runs;
	o.nruns = n;
	if (kind->draw(st, &o, out, &d))
		goto fail;
	if (!g->quiet)
		printf("%s: %s of %zu run%s\n", out, kind->name, n, n == 1 ? "" : "s");
	rc = 0;
	goto out;
fail:
	sl_err("%s", d.msg);
out:
	free(runs);
	sl_store_close(st);
	return rc;
}
