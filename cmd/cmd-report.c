/* cmd/cmd-report.c - schedlab report: one HTML page for a trace and its runs. */
#include "cmd.h"
#include "../plots/plot.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: schedlab [--db FILE] report [--trace ID] -o DIR\n\n"
		   "Write DIR/index.html, one self-contained page (charts embedded) with the\n"
		   "trace's summary, the compare table, every chart of the trace's runs and\n"
		   "each run's per-task table; the charts are also left in DIR as PNG files.\n"
		   "Without --trace: the newest trace.\n");
}

static void warn(void *ctx, const char *msg)
{
	(void)ctx;
	sl_warnx("%s", msg);
}

int cmd_report(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_diag d = { { 0 }, warn, NULL };
	struct sl_store *st = NULL;
	const char *out = NULL;
	long long trace = 0;
	int i, rc = 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (sl_is_help(a)) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--trace") && val) {
			if (sl_opt_id("report", "trace", val, &trace))
				return 2;
			i++;
		} else if (!strcmp(a, "-o") && val) {
			out = val;
			i++;
		} else {
			sl_err("report: unknown option '%s'", a);
			usage(stderr);
			return 2;
		}
	}
	if (!out) {
		usage(stderr);
		return 2;
	}
	if (sl_store_open(g->db, 0, &st, &d) || sl_report_write(st, trace, out, &d)) {
		sl_err("%s", d.msg);
	} else {
		if (!g->quiet)
			printf("%s/index.html\n", out);
		rc = 0;
	}
	sl_store_close(st);
	return rc;
}
