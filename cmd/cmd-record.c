/* cmd/cmd-record.c - `schedlab record [-o FILE] [--duration T] [-- CMD...]`:
 * record this machine's scheduler events into a trace.dat (see
 * collector/record.h), then print what was recorded and lost per CPU. */
#include "cmd.h"

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

static void usage(FILE *f)
{
	fprintf(f,
		"usage: schedlab record [-o FILE] [--duration T] [--buffer-kb N] [-- CMD [ARG...]]\n"
		"  Record sched_switch, sched_wakeup, sched_waking, sched_wakeup_new,\n"
		"  sched_process_fork/exec/exit and sched_migrate_task on every CPU into a\n"
		"  trace-cmd trace.dat (default schedlab.dat), until T has passed (\"10s\",\n"
		"  \"500ms\"; a bare number is seconds), CMD exits, or Ctrl-C. Needs root.\n");
}

int cmd_record(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_record_opts o;
	struct sl_record_result res;
	struct sl_diag d;
	struct sigaction sa, old_int, old_term;
	uint64_t total = 0, lost = 0;
	long long kb;
	int i, c, rc;

	memset(&o, 0, sizeof(o));
	memset(&d, 0, sizeof(d));
	o.out = "schedlab.dat";
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (sl_is_help(a)) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "-o") && i + 1 < argc) {
			o.out = argv[++i];
		} else if (!strncmp(a, "--output=", 9)) {
			o.out = a + 9;
		} else if ((!strcmp(a, "--duration") || !strcmp(a, "-d")) && i + 1 < argc) {
			if (sl_parse_duration(argv[++i], SL_NS_PER_SEC, &o.duration) < 0 || !o.duration) {
				sl_err("record: bad duration '%s' (e.g. 10s, 500ms)", argv[i]);
				return 2;
			}
		} else if (!strncmp(a, "--duration=", 11)) {
			if (sl_parse_duration(a + 11, SL_NS_PER_SEC, &o.duration) < 0 || !o.duration) {
				sl_err("record: bad duration '%s' (e.g. 10s, 500ms)", a + 11);
				return 2;
			}
		} else if (!strcmp(a, "--buffer-kb") && i + 1 < argc) {
			if (sl_parse_int(argv[++i], 64, 4 * 1024 * 1024, &kb) < 0) {
				sl_err("record: bad --buffer-kb '%s' (64..4194304)", argv[i]);
				return 2;
			}
			o.buffer_kb = (size_t)kb;
		} else if (a[0] == '-') {
			sl_err("record: unknown option '%s' (see 'schedlab record -h')", a);
			return 2;
		} else {
			break; /* CMD without "--" */
		}
	}
	if (i < argc)
		o.argv = argv + i;
	if (!*o.out) {
		sl_err("record: empty output file name");
		return 2;
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
