/* cmd/cmd-import.c - schedlab import: sl_import() (analyze/import.h) for
 * each file, and what it did, printed. */
#include "cmd.h"
#include "../analyze/import.h"
#include "../analyze/completeness.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char synopsis[] =
	"schedlab [--db FILE] import [--format NAME] FILE...";

static const char about[] =
	"Import scheduler traces: ftrace text (raw, trace-cmd report, atrace), trace.dat,\n"
	"perf.data, perf script text, systrace HTML, Perfetto protobuf. The format is\n"
	"detected by content. Each file becomes a trace with its tasks,\n"
	"their behaviour model and the recorded run (scheduler 'recorded').\n"
	"A file already imported (same sha256) is not imported again. FILE - is\n"
	"standard input; a pipe or FIFO is read once into a temporary file.\n";

static void print_warning(void *ctx, const char *msg)
{
	(void)ctx;
	sl_warnx("%s", msg);
}

static void progress(void *ctx, uint64_t n)
{
	(void)ctx;
	fprintf(stderr, "\rschedlab: %" PRIu64 " events...", n);
}

/* The ledger of path: lpath if given, else PATH.ledger when it exists
 * (schedlab record writes it there). 1 with *l read, 0 none, -1 error. */
static int find_ledger(const char *path, const char *lpath, char *buf, size_t len, struct sl_ledger *l,
		       struct sl_diag *d)
{
	struct stat sb;
	if (!lpath) {
		if ((size_t)snprintf(buf, len, "%s.ledger", path) >= len || stat(buf, &sb) ||
		    !S_ISREG(sb.st_mode))
			return 0;
		lpath = buf;
	} else {
		snprintf(buf, len, "%s", lpath);
	}
	return sl_ledger_read(lpath, l, d) ? -1 : 1;
}

/* The import summary's ledger line, and the warning below 98 %. */
static void print_ledger(const char *path, const char *lpath, const struct sl_completeness *c, int quiet)
{
	printf("ledger %s: the trace accounts for %.1f %% of the kernel's CPU time and %.1f %% of its "
	       "run_delay over %zu threads with >= 10 ms (%s window; ledger read in %.1f ms; "
	       "interrupts %.1f ms, steal %.1f ms)\n",
	       lpath, 100 * c->cpu_share, 100 * c->wait_share, c->ncounted,
	       c->mapped ? "the snapshots'" : "the whole trace's", c->read_ns / 1e6, c->irq_ns / 1e6,
	       c->steal_ns / 1e6);
	if (c->nwork)
		printf("ledger %s: the trace's work (sched_stat_runtime) is %.1f %% of the kernel's CPU time "
		       "over the %zu of them it holds it for\n",
		       lpath, 100 * c->work_share, c->nwork);
	if (c->nmissing)
		sl_warnx("%s: %zu threads the kernel ran are missing from the trace: %s", path, c->nmissing,
			 c->missing);
	if (!quiet && c->nshort)
		sl_warnx("%s: %zu threads have under 98 %% of their CPU time in the trace: %s", path,
			 c->nshort, c->shortl);
	if (c->coverage < SL_LEDGER_COMPLETE)
		sl_warnx("%s: the trace spans %.1f %% of the ledger's window (%.3f s): the recorder started "
			 "late or stopped early, and the shares above count the whole window",
			 path, 100 * c->coverage, (c->win_hi - c->win_lo) / 1e9);
	else if (!isnan(c->complete_share) && c->complete_share < SL_LEDGER_COMPLETE)
		sl_warnx("%s: incomplete: the trace %s %.1f %% of the CPU time the kernel charged its "
			 "threads (under 98 %%)",
			 path, c->by_work ? "holds the charges (sched_stat_runtime) of" : "accounts for",
			 100 * c->complete_share);
}

static int import_one(struct sl_store *st, const char *path, const char *force, const char *lpath,
		      int quiet)
{
	struct sl_diag d = { { 0 }, print_warning, NULL };
	struct sl_import_info in;
	struct sl_ledger led;
	struct sl_completeness comp;
	int tty = !quiet && isatty(2), have_ledger;
	size_t i;
	char cut[64] = "", lbuf[4200];

	have_ledger = find_ledger(path, lpath, lbuf, sizeof(lbuf), &led, &d);
	if (have_ledger < 0) {
		sl_err("%s", d.msg);
		return 1;
	}
	if (sl_import(st, path, force, have_ledger ? &led : NULL, tty ? progress : NULL, NULL, &in, &d)) {
		if (have_ledger)
			sl_ledger_release(&led);
		if (tty && in.events > 0xfffff)
			fprintf(stderr, "\r\033[K");
		sl_err("%s", d.msg);
		return 1;
	}
	if (tty && in.events > 0xfffff)
		fprintf(stderr, "\r\033[K");
	if (in.existing > 0) {
		printf("%s: already imported as trace %" PRId64 " (same sha256); nothing added\n",
		       path, in.existing);
		if (have_ledger)
			sl_ledger_release(&led);
		return 0;
	}
	if (in.ms.cut) /* the text formats count lines, the binary ones bytes */
		snprintf(cut, sizeof(cut), ", cut short at %s %" PRIu64,
			 !strcmp(in.format, "ftrace") || !strcmp(in.format, "perfscript") ||
					 !strcmp(in.format, "systrace")
				 ? "line"
				 : "byte",
			 in.ms.cut_at);
	printf("trace %" PRId64 ": %s (%s), %zu tasks (%zu with work), %" PRIu64
	       " events, %d CPU%s, span %.6f s, %" PRIu64 " lost events, %" PRIu64
	       " missed switches (%.3f ms uncertain)%s; recorded run %" PRId64 "\n",
	       in.trace_id, sl_input_name(path), in.format, in.ntasks, in.nwork, in.ms.events, in.ms.cpus,
	       in.ms.cpus == 1 ? "" : "s", (double)(in.ms.last_ts - in.ms.first_ts) / 1e9,
	       in.ms.lost_events, in.ms.missed_switches, (double)in.uncertain_ns / 1e6, cut,
	       in.run_id);
	if (in.polls && !quiet)
		printf("%zu task%s read%s %s own CPU clock while running (%s slices end off the tick):"
		       " eevdf cuts %s when the pick would change (docs/model.md \"Clock reads\")\n",
		       in.polls, in.polls == 1 ? "" : "s", in.polls == 1 ? "s" : "", in.polls == 1 ? "its" : "their",
		       in.polls == 1 ? "its" : "their", in.polls == 1 ? "it" : "them");
	if (in.wall && !quiet)
		printf("%zu task%s spin%s until a wall-clock deadline after each wakeup: a replay ends %s"
		       " bursts on it (docs/model.md \"Wall-clock bursts\")\n",
		       in.wall, in.wall == 1 ? "" : "s", in.wall == 1 ? "s" : "", in.wall == 1 ? "its" : "their");
	if (in.abs_timers && !quiet)
		printf("%zu task%s sleep%s on an absolute periodic timer: a replay sets each deadline from"
		       " the last (docs/model.md \"Absolute timers\")\n",
		       in.abs_timers, in.abs_timers == 1 ? "" : "s", in.abs_timers == 1 ? "s" : "");
	if (in.ms.lost_events)
		for (i = 0; i < (size_t)in.ms.cpus; i++)
			if (in.ms.lost_per_cpu[i])
				sl_warnx("%s: CPU %zu lost %" PRIu64 " events; each task's time is "
					 "counted up to its last and from its first event around them, "
					 "the rest as uncertain",
					 path, i, in.ms.lost_per_cpu[i]);
	if (in.ms.missed_switches && !quiet)
		sl_warnx("%s: %" PRIu64 " switches missing from the file (no loss reported); "
			 "placed between the tasks' last and first events, %.3f ms uncertain",
			 path, in.ms.missed_switches, (double)in.uncertain_ns / 1e6);
	if (in.ms.inconsistencies && !quiet)
		sl_warnx("%s: %" PRIu64 " threads forked again under a tid whose exit was not seen",
			 path, in.ms.inconsistencies);
	if (have_ledger) {
		struct sl_kernel_sums ks = { in.utid_base, in.ntasks,
					     in.ms.have_runtime ? in.ms.kwork_ns : NULL, in.ms.kwait_ns,
					     in.ms.kedge_ns, in.ms.klo_ns, in.ms.khi_ns };
		int rc = sl_completeness_store(st, in.trace_id, in.run_id, &led, lbuf, &in.rec,
					       in.ms.kwait_ns ? &ks : NULL, &comp, &d);
		sl_ledger_release(&led);
		if (rc) {
			sl_err("%s", d.msg);
			sl_import_info_release(&in);
			return 1;
		}
		print_ledger(path, lbuf, &comp, quiet);
		free(comp.rows);
	}
	sl_import_info_release(&in);
	return 0;
}

int cmd_import(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_store *st;
	const char *force = NULL, *lpath = NULL;
	int i, rc = 0, nfiles, existed, imported = 0;
	const struct sl_opt opts[] = {
		SL_OPT_STRING(0, "format", &force, "NAME", "force a format: ftrace, tracedat, perfdata,\nperfscript, systrace, perfetto"),
		SL_OPT_STRING(0, "ledger", &lpath, "FILE", "hold the trace to this ledger (default FILE.ledger\n"
			      "when it exists; docs/ledger.md)"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "import", synopsis, about, opts, SL_OPTS_OPERANDS, NULL };

	if ((rc = sl_opts_parse(&spec, argc, argv, &nfiles)) != SL_OPTS_GO)
		return rc;
	rc = 0;
	if (!nfiles) {
		sl_opts_usage(&spec, stderr);
		return 2;
	}
	if (force && !sl_reader_find(force)) {
		sl_err("import: unknown format '%s'", force);
		return 2;
	}
	existed = sl_db_exists(g->db);
	if (sl_store_open(g->db, 1, &st, &d)) {
		sl_err("%s", d.msg);
		if (!existed)
			sl_db_discard(g->db);
		return 1;
	}
	for (i = 1; i <= nfiles; i++) {
		if (import_one(st, argv[i], force, lpath, g->quiet))
			rc = 1;
		else
			imported++;
	}
	sl_store_close(st);
	if (!existed && !imported)
		sl_db_discard(g->db);
	return rc;
}
