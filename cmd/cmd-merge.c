/* cmd/cmd-merge.c - `schedlab merge OUT.db IN.db...`: one database from
 * many (analyze/merge.h). */
#include "cmd.h"
#include "opt.h"
#include "../analyze/merge.h"

#include <stdio.h>

static const char synopsis[] = "schedlab merge OUT.db IN.db...";

static const char about[] =
	"Copy every trace and run of the IN databases into OUT (created if missing),\n"
	"in one transaction: OUT gets all of them or, on any error, nothing. Ids are\n"
	"renumbered; a trace present in several inputs (the same sha256) is kept once\n"
	"and the runs of all inputs join it. Inputs of another schema version are\n"
	"refused (open one once with this schedlab to upgrade it). The global --db is\n"
	"not used. Prints what was added.\n";

int cmd_merge(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_merge_stats st;
	int rc, n;
	const struct sl_opt opts[] = { SL_OPT_END };
	const struct sl_opts_spec spec = { "merge", synopsis, about, opts, SL_OPTS_OPERANDS, NULL };

	(void)g;
	if ((rc = sl_opts_parse(&spec, argc, argv, &n)) != SL_OPTS_GO)
		return rc;
	if (n < 2) {
		sl_err("merge: an output and at least one input database are needed");
		sl_opts_usage(&spec, stderr);
		return 2;
	}
	if (sl_merge(argv[1], (const char *const *)&argv[2], (size_t)n - 1, &st, &d)) {
		sl_err("%s", d.msg);
		return 1;
	}
	printf("%s: %zu database%s merged, %zu new trace%s, %zu run%s added\n", argv[1], st.inputs,
	       st.inputs == 1 ? "" : "s", st.traces, st.traces == 1 ? "" : "s", st.runs,
	       st.runs == 1 ? "" : "s");
	return 0;
}
