/* cmd/cmd-ledger.c - `schedlab ledger -o FILE -- COMMAND...`: the kernel's
 * per-thread accounting before and after any recorder (perf sched record,
 * trace-cmd record), the same ledger `schedlab record` writes beside its
 * trace (collector/ledger.h, docs/ledger.md). */
#include "cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../collector/ledger.h"
#include "../common/util.h"

static const char synopsis[] = "schedlab ledger -o FILE [--clock NAME] -- COMMAND [ARG...]";

static const char about[] =
	"Take the recording's ledger (each thread's schedstat, nice, policy,\n"
	"affinity, autogroup and cgroup; per-CPU interrupt and steal time; the\n"
	"kernel's release, HZ and preemption model) before COMMAND starts and after\n"
	"it exits, into FILE: for a trace made by another recorder, e.g.\n"
	"  schedlab ledger -o perf.data.ledger --clock mono -- perf sched record -k mono CMD\n"
	"  schedlab ledger -o trace.dat.ledger --clock mono -- trace-cmd record -C mono ...\n"
	"Import finds TRACE.ledger beside TRACE. With --clock mono (the recorder's\n"
	"clock is CLOCK_MONOTONIC, as above) the ledger's window is mapped onto the\n"
	"trace; otherwise the whole trace is taken as the window. Exits with\n"
	"COMMAND's status.\n";

int cmd_ledger(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_diag d;
	struct sl_ledger_seen seen;
	const char *out = NULL, *clock = NULL;
	char tmp[4200];
	FILE *f;
	pid_t pid;
	int nops, rc, status = 0;
	const struct sl_opt opts[] = {
		SL_OPT_STRING('o', "output", &out, "FILE", "the ledger to write"),
		SL_OPT_STRING(0, "clock", &clock, "NAME", "the recorder's trace clock (mono: the ledger's\n"
			      "times are trace times)"),
		SL_OPT_END
	};
	const struct sl_opts_spec spec = { "ledger", synopsis, about, opts,
					   SL_OPTS_OPERANDS | SL_OPTS_STOP, NULL };
	memset(&d, 0, sizeof(d));
	memset(&seen, 0, sizeof(seen));
	if ((rc = sl_opts_parse(&spec, argc, argv, &nops)) != SL_OPTS_GO)
		return rc;
	if (!out || !nops) {
		sl_err("ledger: -o FILE and a COMMAND are needed (see 'schedlab ledger -h')");
		return 2;
	}
	if (!(f = sl_atomic_fopen(out, tmp, sizeof(tmp), &d))) {
		sl_err("%s", d.msg);
		return 1;
	}
	sl_ledger_write_header(f, clock && !strcmp(clock, "mono") ? "mono" : "");
	if (sl_ledger_write_snapshot(f, "start", &d))
		goto fail;
	sl_ledger_seen_begin(&seen); /* without it: no "seen" threads */
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "schedlab: error: cannot run %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		sl_fail(&d, "fork: %s", strerror(errno));
		goto fail;
	}
	{ /* the command is the one to stop: Ctrl-C reaches it, the ledger
		   * waits, and meanwhile notes the threads born (as record does:
		   * every 200 ms, docs/ledger.md "seen") */
		struct sigaction ign, oi, oq;
		unsigned naps = 0;
		pid_t w;
		memset(&ign, 0, sizeof(ign));
		ign.sa_handler = SIG_IGN;
		sigaction(SIGINT, &ign, &oi);
		sigaction(SIGQUIT, &ign, &oq);
		while ((w = waitpid(pid, &status, WNOHANG)) == 0 || (w < 0 && errno == EINTR)) {
			struct timespec nap = { 0, 50 * 1000 * 1000 };
			nanosleep(&nap, NULL);
			if (++naps % 4 == 0)
				sl_ledger_seen_pass(&seen);
		}
		sigaction(SIGINT, &oi, NULL);
		sigaction(SIGQUIT, &oq, NULL);
	}
	if (sl_ledger_seen_write(&seen, f, &d) || sl_ledger_write_snapshot(f, "end", &d))
		goto fail;
	sl_ledger_seen_release(&seen);
	rc = sl_atomic_fclose_commit(f, tmp, out, &d);
	f = NULL;
	if (rc) {
		sl_err("%s", d.msg);
		return 1;
	}
	if (!g->quiet)
		fprintf(stderr, "schedlab: ledger written to %s\n", out);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
fail:
	sl_ledger_seen_release(&seen);
	if (f)
		fclose(f);
	unlink(tmp);
	sl_err("%s", d.msg);
	return 1;
}
