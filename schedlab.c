/* schedlab.c - main(): global options and the command table. */
#include "cmd/cmd.h"
#include "common/util.h"

#include <stdio.h>
#include <string.h>

struct cmd_entry {
	const char *name;
	sl_cmd_fn fn;
	const char *help;
};

static const struct cmd_entry *commands(size_t *n)
{
	/* weak symbols: commands not linked in are NULL and not listed */
	static struct cmd_entry tab[16];
	static size_t cnt;
	const struct cmd_entry all[] = {
		{ "import", cmd_import, "import trace files (ftrace text, trace.dat, perf.data, perf script, systrace)" },
		{ "record", cmd_record, "record a live trace of this machine or of a command" },
		{ "replay", cmd_replay, "re-schedule a trace or a workload through scheduler models" },
		{ "analyze", cmd_analyze, "compute metrics; per-run and per-task tables" },
		{ "compare", cmd_compare, "side-by-side metrics of runs of the same trace" },
		{ "plot", cmd_plot, "draw a chart of runs (staircase, latency, timeline, ...)" },
		{ "report", cmd_report, "one HTML page with every chart and table of a trace" },
		{ "bound", cmd_bound, "RSDL's predicted worst-case wait of CPU-bound tasks" },
		{ "claims", cmd_claims, "re-run the claims of the 2007 RSDL announcement" },
		{ "export", cmd_export, "Chrome/Perfetto JSON trace of a run" },
	};
	size_t i;
	if (!cnt)
		for (i = 0; i < SL_ARRAY_SIZE(all); i++)
			if (all[i].fn)
				tab[cnt++] = all[i];
	*n = cnt;
	return tab;
}

static void usage(FILE *f)
{
	size_t i, n;
	const struct cmd_entry *tab = commands(&n);
	fprintf(f, "usage: schedlab [--db FILE] [-q] COMMAND [ARGS]\n\n"
		   "How would this workload have been scheduled by RSDL, and by Linux 2.6.20?\n\n"
		   "Commands:\n");
	for (i = 0; i < n; i++)
		fprintf(f, "  %-9s %s\n", tab[i].name, tab[i].help);
	fprintf(f, "\nGlobal options:\n"
		   "  --db FILE  database (default: schedlab.db in the current folder)\n"
		   "  -q         fewer messages\n"
		   "Run 'schedlab COMMAND -h' for a command's options.\n");
}

int main(int argc, char **argv)
{
	struct sl_globals g = { "schedlab.db", 0 };
	const struct cmd_entry *tab;
	size_t i, n;
	int a = 1;

	while (a < argc && argv[a][0] == '-') {
		if (!strcmp(argv[a], "--db") && a + 1 < argc) {
			g.db = argv[a + 1];
			a += 2;
		} else if (!strncmp(argv[a], "--db=", 5)) {
			g.db = argv[a] + 5;
			a++;
		} else if (!strcmp(argv[a], "-q")) {
			g.quiet = 1;
			a++;
		} else if (sl_is_help(argv[a])) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[a], "--version")) {
			printf("schedlab 0.1\n");
			return 0;
		} else {
			sl_err("unknown option '%s' (see 'schedlab -h')", argv[a]);
			return 2;
		}
	}
	if (a >= argc) {
		usage(stderr);
		return 2;
	}
	tab = commands(&n);
	for (i = 0; i < n; i++)
		if (!strcmp(tab[i].name, argv[a]))
			return tab[i].fn(argc - a, argv + a, &g);
	sl_err("unknown command '%s' (see 'schedlab -h')", argv[a]);
	return 2;
}
