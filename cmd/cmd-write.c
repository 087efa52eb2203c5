/* cmd/cmd-write.c - the commands that write one output from the database:
 * `schedlab export` (a run as a Chrome/Perfetto JSON trace) and `schedlab
 * report` (one HTML page for a trace and its runs). One table entry each;
 * the options are --ID_NAME ID and -o OUT. */
#include "cmd.h"
#include "../analyze/store.h"
#include "../common/util.h"
#include "../plots/plot.h"

#include <inttypes.h>
#include <stdio.h>

struct write_cmd {
	const char *name, *synopsis, *about;
	const char *id_name, *id_help;
	int id_required;     /* also: the message names the id ("FILE: run 3") */
	const char *out_arg, *out_help;
	const char *out_file; /* the message names OUT/out_file, or OUT */
	int (*write)(struct sl_store *st, int64_t id, const char *out, struct sl_diag *d);
};

static const char export_about[] =
	"Write the run's slices as a Chrome/Perfetto JSON trace (one complete \"X\"\n"
	"event per slice; pid = the task's tgid, tid = its tid; times in us after\n"
	"the trace's start) to open in ui.perfetto.dev or chrome://tracing.\n";

static const char report_about[] =
	"Write DIR/index.html, one self-contained page (charts embedded) with the\n"
	"trace's summary, the compare table, every chart of the trace's runs and\n"
	"each run's per-task table; the charts are also left in DIR as PNG files.\n";

static const struct write_cmd writers[] = {
	{ "export", "schedlab [--db FILE] export --run ID -o FILE.json", export_about, "run", "the run", 1,
	  "FILE", "the JSON file to write", NULL, sl_export_chrome },
	{ "report", "schedlab [--db FILE] report [--trace ID] -o DIR", report_about, "trace",
	  "the trace (default: the newest)", 0, "DIR", "the folder to write", "index.html", sl_report_write },
};

static void print_warning(void *ctx, const char *msg)
{
	(void)ctx;
	sl_warnx("%s", msg);
}

static int write_out(const struct write_cmd *w, int argc, char **argv, const struct sl_globals *g)
{
	struct sl_diag d = { { 0 }, print_warning, NULL };
	struct sl_store *st = NULL;
	const char *out = NULL;
	int64_t id = 0;
	int rc;
	const struct sl_opt opts[] = {
		SL_OPT_ID(0, w->id_name, &id, w->id_help),
		SL_OPT_STRING('o', NULL, &out, w->out_arg, w->out_help),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { w->name, w->synopsis, w->about, opts, 0, NULL };

	if ((rc = sl_opts_parse(&spec, argc, argv, NULL)) != SL_OPTS_GO)
		return rc;
	if ((w->id_required && !id) || !out) {
		sl_opts_usage(&spec, stderr);
		return 2;
	}
	rc = 1;
	if (sl_store_open(g->db, 0, &st, &d) || w->write(st, id, out, &d)) {
		sl_err("%s", d.msg);
	} else {
		if (!g->quiet) {
			printf("%s%s%s", out, w->out_file ? "/" : "", w->out_file ? w->out_file : "");
			if (w->id_required)
				printf(": %s %" PRId64, w->id_name, id);
			printf("\n");
		}
		rc = 0;
	}
	sl_store_close(st);
	return rc;
}

int cmd_export(int argc, char **argv, const struct sl_globals *g)
{
	return write_out(&writers[0], argc, argv, g);
}

int cmd_report(int argc, char **argv, const struct sl_globals *g)
{
	return write_out(&writers[1], argc, argv, g);
}
