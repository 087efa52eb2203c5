/* cmd/cmd-plot.c - schedlab plot KIND: one chart of one or more runs. */
#include "cmd.h"
#include "../plots/plot.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char synopsis[] =
	"schedlab [--db FILE] plot KIND (--run ID... | --trace ID) -o FILE\n"
	"                 [--task TID] [--top N] [--from T] [--to T] [--keep]\n"
	"                 [--param KEY] [--metric M]   (sweep)";

static const char about[] =
	"Draw one chart of the runs (all of one trace) into FILE; the format is\n"
	"the extension: .png, .svg or .pdf.\n";

static void kinds_help(FILE *f)
{
	const struct sl_plot_kind *k;
	fprintf(f, "\nKIND is one of:\n");
	for (k = sl_plot_kinds; k->name; k++)
		fprintf(f, "  %-10s %s\n", k->name, k->what);
}

int cmd_plot(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_store *st = NULL;
	struct sl_plot_opts o;
	const struct sl_plot_kind *kind = NULL;
	const char *out = NULL;
	struct sl_idlist ids = { 0 };
	int64_t *runs, trace = 0;
	size_t n;
	long long task = 0, top = 0;
	int rc, nops;
	enum sl_plot_fmt fmt;
	const struct sl_opt opts[] = {
		SL_OPT_IDS(0, "run", &ids, "runs: --run 1 2 3, --run 1,2, or repeated"),
		SL_OPT_ID(0, "trace", &trace, "every run of the trace"),
		SL_OPT_STRING('o', NULL, &out, "FILE", "the chart: FILE.png, FILE.svg or FILE.pdf"),
		SL_OPT_INT(0, "task", &task, 0, INT32_MAX, "TID", "the staircase of this task only"),
		SL_OPT_INT(0, "top", &top, 0, INT32_MAX, "N",
			   "how many tasks the staircase (5), share (12) and\ntimeline (12) single out"),
		SL_OPT_DURATION(0, "from", &o.from, 0, LLONG_MAX, 1,
				"the window of the timeline, the staircase and the\nshare, from the trace's start"),
		SL_OPT_DURATION(0, "to", &o.to, 0, LLONG_MAX, 1, "its end"),
		SL_OPT_STRING(0, "param", &o.param, "KEY",
			      "sweep: the run parameter on x (default rr_interval_ns;\nhz, cpus, a model's --opt name)"),
		SL_OPT_STRING(0, "metric", &o.metric, "M",
			      "sweep: p50, p95, p99 (default), max, mean, wait,\njain, share:COMM"),
		SL_OPT_FLAG(0, "keep", &o.keep,
			    "keep the gnuplot script and data files next to FILE\n(FILE.gp, FILE.*.dat)"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "plot", synopsis, about, opts, SL_OPTS_OPERANDS, kinds_help };

	memset(&o, 0, sizeof(o));
	if ((rc = sl_opts_parse(&spec, argc, argv, &nops)) != SL_OPTS_GO)
		return rc;
	runs = ids.v;
	n = ids.n;
	o.task_tid = (int)task;
	o.top = (int)top;
	rc = 2;
	if (nops > 1) {
		sl_err("plot: one chart kind, not '%s' and '%s'", argv[1], argv[2]);
		goto out;
	}
	if (nops == 1) {
		kind = sl_plot_kind_find(argv[1]);
		if (!kind) {
			sl_err("plot: unknown chart kind '%s' (schedlab plot -h lists them)", argv[1]);
			goto out;
		}
	}
	if (!kind || !out || (!n && !trace)) {
		sl_opts_usage(&spec, stderr);
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
		sl_fail(&d, "trace %" PRId64 " has no runs", trace);
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
