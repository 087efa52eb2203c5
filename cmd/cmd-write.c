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
#include <stdlib.h>

struct write_cmd {
	const char *name, *synopsis, *about;
	const char *id_name, *id_help;
	int id_required;     /* also: the message names the ids ("FILE: run 3"), and
			      * several may be given (--run 1 2, 1,2 or repeated) */
	const char *out_arg, *out_help;
	const char *out_file; /* the message names OUT/out_file, or OUT */
	int (*write)(struct sl_store *st, const int64_t *ids, size_t n, const char *out, struct sl_diag *d);
};

static int report_write(struct sl_store *st, const int64_t *ids, size_t n, const char *out,
			struct sl_diag *d)
{
	return sl_report_write(st, n ? ids[0] : 0, out, d);
}

static const char export_about[] =
	"Write the runs' slices as a Chrome/Perfetto JSON trace (one complete \"X\"\n"
	"event per slice; pid = the task's tgid, tid = its tid; times in us after\n"
	"the trace's start) to open in ui.perfetto.dev or chrome://tracing.\n"
	"Several runs of one trace (--run 1 2, --run 1,2 or repeated) go in one\n"
	"file, each with pids of its own (run index * 10000000 + tgid) and process\n"
	"names starting \"run N SCHED: \". A process \"CPUs\" has a track per CPU with\n"
	"each slice again, and each wakeup by a task that ran is a flow arrow from\n"
	"the waker to the woken task's first run.\n";

static const char report_about[] =
	"Write DIR/index.html, one self-contained page (charts embedded) with the\n"
	"trace's summary, the compare table, every chart of the trace's runs and\n"
	"each run's per-task table; the charts are also left in DIR as PNG files.\n";

static const struct write_cmd writers[] = {
	{ "export", "schedlab [--db FILE] export --run ID... -o FILE.json", export_about, "run",
	  "the runs (repeat, or 1,2)", 1, "FILE", "the JSON file to write", NULL, sl_export_chrome },
	{ "report", "schedlab [--db FILE] report [--trace ID] -o DIR", report_about, "trace",
	  "the trace (default: the newest recording,\nelse the newest workload)", 0, "DIR", "the folder to write", "index.html", report_write },
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
	struct sl_idlist ids = { 0 };
	int rc;
	size_t i;
	const struct sl_opt one = SL_OPT_ID(0, w->id_name, &id, w->id_help),
			    many = SL_OPT_IDS(0, w->id_name, &ids, w->id_help);
	const struct sl_opt opts[] = {
		w->id_required ? many : one,
		SL_OPT_STRING('o', NULL, &out, w->out_arg, w->out_help),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { w->name, w->synopsis, w->about, opts, 0, NULL };

	if ((rc = sl_opts_parse(&spec, argc, argv, NULL)) != SL_OPTS_GO) {
		free(ids.v);
		return rc;
	}
	if ((w->id_required && !ids.n) || !out) {
		free(ids.v);
		sl_opts_usage(&spec, stderr);
		return 2;
	}
	rc = 1;
	if (sl_store_open(g->db, 0, &st, &d) ||
	    w->write(st, w->id_required ? ids.v : &id, w->id_required ? ids.n : id != 0, out, &d)) {
		sl_err("%s", d.msg);
	} else {
		if (!g->quiet) {
			printf("%s%s%s", out, w->out_file ? "/" : "", w->out_file ? w->out_file : "");
			for (i = 0; w->id_required && i < ids.n; i++)
				printf("%s %" PRId64, i ? "," : (ids.n > 1 ? ": runs" : ": run"), ids.v[i]);
			printf("\n");
		}
		rc = 0;
	}
	sl_store_close(st);
	free(ids.v);
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
