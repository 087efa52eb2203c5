/* cmd/cmd-record.c - `schedlab record [-o FILE] [--duration T] [-- CMD...]`:
 * record this machine's scheduler events into a trace.dat (see
 * collector/record.h), then print what was recorded and lost per CPU. */
#include "cmd.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "../collector/record.h"
#include "../common/util.h"

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static const char synopsis[] =
	"schedlab record [-o FILE] [--duration T] [--buffer-kb N] [-- CMD [ARG...]]";

static const char about[] =
	"Record sched_switch, sched_wakeup, sched_waking, sched_wakeup_new,\n"
	"sched_process_fork/exec/exit, sched_migrate_task and sched_stat_runtime\n"
	"(the work the kernel charged: docs/model.md) on every CPU into a\n"
	"trace-cmd trace.dat, until T has passed (\"10s\", \"500ms\"), CMD exits, or\n"
	"Ctrl-C. Needs root.\n";

int cmd_record(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_record_opts o;
	struct sl_record_result res;
	struct sl_diag d;
	struct sigaction sa, old_int, old_term;
	uint64_t total = 0, lost = 0;
	long long kb = 0;
	int c, rc, nops, no_ledger = 0;
	char ledger[4200];
	const struct sl_opt opts[] = {
		SL_OPT_STRING('o', "output", &o.out, "FILE", "the trace.dat to write"),
		SL_OPT_DURATION('d', "duration", &o.duration, 1, LLONG_MAX, SL_NS_PER_SEC, "how long"),
		SL_OPT_INT(0, "buffer-kb", &kb, 64, 4 * 1024 * 1024, "N", "ring buffer per CPU, KiB"),
		SL_OPT_FLAG(0, "no-ledger", &no_ledger, "do not write FILE.ledger (the kernel's per-thread\n"
			    "accounting at the start and the end, docs/ledger.md)"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "record", synopsis, about, opts,
					   SL_OPTS_OPERANDS | SL_OPTS_STOP, NULL };

	memset(&o, 0, sizeof(o));
	memset(&d, 0, sizeof(d));
	o.out = "schedlab.dat";
	if ((rc = sl_opts_parse(&spec, argc, argv, &nops)) != SL_OPTS_GO)
		return rc;
	if (nops)
		o.argv = argv + 1;
	o.buffer_kb = (size_t)kb;
	if (!no_ledger) {
		if ((size_t)snprintf(ledger, sizeof(ledger), "%s.ledger", o.out) >= sizeof(ledger)) {
			sl_err("%s: name too long", o.out);
			return 2;
		}
		o.ledger = ledger;
	}
	stop_flag = 0;
	o.stop = &stop_flag;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (!g->quiet)
		fprintf(stderr, "schedlab: recording into %s%s\n", o.out,
			o.argv || o.duration ? "" : " (Ctrl-C to stop)");
	rc = sl_record_run(&o, &res, &d);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (rc < 0) {
		sl_err("%s", d.msg);
		sl_record_result_release(&res);
		return 1;
	}
	for (c = 0; c < res.ncpus; c++) {
		total += res.cpu[c].events;
		lost += res.cpu[c].overrun + res.cpu[c].dropped;
	}
	if (!g->quiet) {
		for (c = 0; c < res.ncpus; c++)
			printf("cpu %d: %llu events, %llu lost, %llu bytes\n", c,
			       (unsigned long long)res.cpu[c].events,
			       (unsigned long long)(res.cpu[c].overrun + res.cpu[c].dropped),
			       (unsigned long long)res.cpu[c].bytes);
		printf("recorded %llu events (%llu lost) on %d CPU%s in %llu.%03llu s into %s\n",
		       (unsigned long long)total, (unsigned long long)lost, res.ncpus,
		       res.ncpus == 1 ? "" : "s",
		       (unsigned long long)(res.elapsed / SL_NS_PER_SEC),
		       (unsigned long long)(res.elapsed % SL_NS_PER_SEC / SL_NS_PER_MS), o.out);
	}
	if (lost)
		sl_warnx("%llu events lost (ring buffer overrun); try a larger --buffer-kb",
			 (unsigned long long)lost);
	if (res.cmd_status > 0 && !g->quiet) {
		if (WIFEXITED(res.cmd_status))
			fprintf(stderr, "schedlab: %s exited with status %d\n", o.argv[0],
				WEXITSTATUS(res.cmd_status));
		else if (WIFSIGNALED(res.cmd_status))
			fprintf(stderr, "schedlab: %s killed by signal %d\n", o.argv[0],
				WTERMSIG(res.cmd_status));
	}
	sl_record_result_release(&res);
	return 0;
}
