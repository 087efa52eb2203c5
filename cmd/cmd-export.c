/* cmd/cmd-export.c - schedlab export: a run as a Chrome/Perfetto JSON trace. */
#include "cmd.h"
#include "../plots/plot.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: schedlab [--db FILE] export --run ID -o FILE.json\n\n"
		   "Write the run's slices as a Chrome/Perfetto JSON trace (one complete \"X\"\n"
		   "event per slice; pid = the task's tgid, tid = its tid; times in us after\n"
		   "the trace's start) to open in ui.perfetto.dev or chrome://tracing.\n");
}

int cmd_export(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_store *st = NULL;
	const char *out = NULL;
	long long run = 0;
	int i, rc = 1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (sl_is_help(a)) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--run") && val) {
			if (sl_opt_id("export", "run", val, &run))
				return 2;
			i++;
		} else if (!strcmp(a, "-o") && val) {
			out = val;
			i++;
		} else {
			sl_err("export: unknown option '%s'", a);
			usage(stderr);
			return 2;
		}
	}
	if (!run || !out) {
		usage(stderr);
		return 2;
	}
	if (sl_store_open(g->db, 0, &st, &d) || sl_export_chrome(st, run, out, &d)) {
		sl_err("%s", d.msg);
	} else {
		if (!g->quiet)
			printf("%s: run %lld\n", out, run);
		rc = 0;
	}
	sl_store_close(st);
	return rc;
}
