/* cmd/cmd-import.c - schedlab import: detect, decode, build the behaviour
 * model and the recorded run, all in one transaction per file. */
#include "cmd.h"
#include "../collector/release.h"
#include "../analyze/store.h"
#include "../common/sha256.h"
#include "../collector/event.h"
#include "../collector/model.h"

#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char synopsis[] =
	"schedlab [--db FILE] import [--format NAME] FILE...";

static const char about[] =
	"Import scheduler traces: ftrace text (raw, trace-cmd report, atrace), trace.dat,\n"
	"perf.data, perf script text, systrace HTML, Perfetto protobuf. The format is\n"
	"detected by content. Each file becomes a trace with its tasks,\n"
	"their behaviour model and the recorded run (scheduler 'recorded').\n"
	"A file already imported (same sha256) is not imported again.\n";

static void print_warning(void *ctx, const char *msg)
{
	(void)ctx;
	sl_warnx("%s", msg);
}

struct counter {
	sl_event_fn fn;
	void *ctx;
	uint64_t n;
	int tty;
};

static int count_event(void *ctx, const struct sl_event *ev)
{
	struct counter *c = ctx;
	c->n++;
	if (c->tty && (c->n & 0xfffff) == 0)
		fprintf(stderr, "\rschedlab: %" PRIu64 " events...", c->n);
	return c->fn(c->ctx, ev);
}

/* The file's sha256, computed by a child process while the file is decoded
 * (it is a pass over the whole file); the duplicate check comes at the end.
 * A process, not a thread: the trace.dat reader forks its decoder, and a
 * fork while another thread runs can hand the child a lock that is held
 * forever (seen with ASan's allocator). The child writes '0' and the hex
 * digest, or '1' and the error message, on a pipe. */
struct shajob {
	const char *path;
	char sha[65];
	struct sl_diag d;
	int rc, fd;
	pid_t pid;
};

static void sha_start(struct shajob *j, const char *path)
{
	int p[2];
	memset(j, 0, sizeof(*j));
	j->path = path;
	j->fd = -1;
	j->pid = -1;
	fflush(NULL);
	if (pipe2(p, O_CLOEXEC) == 0) {
		j->pid = fork();
		if (j->pid == 0) {
			char out[1 + sizeof(j->d.msg)];
			size_t n, off = 0;
			close(p[0]);
			out[0] = sl_sha256_file(path, out + 1, &j->d) ? '1' : '0';
			if (out[0] == '1')
				memcpy(out + 1, j->d.msg, sizeof(j->d.msg));
			n = 1 + strnlen(out + 1, sizeof(out) - 1);
			while (off < n) {
				ssize_t k = write(p[1], out + off, n - off);
				if (k < 0 && errno == EINTR)
					continue;
				if (k <= 0)
					break;
				off += (size_t)k;
			}
			_exit(0);
		}
		close(p[1]);
		if (j->pid > 0) {
			j->fd = p[0];
			return;
		}
		close(p[0]);
	}
	/* no process: hash here */
	j->rc = sl_sha256_file(path, j->sha, &j->d);
}

/* The digest (0) or -1 with j->d set. abandon: the import failed, the
 * digest is not needed. */
static int sha_wait(struct shajob *j, int abandon)
{
	char buf[1 + sizeof(j->d.msg)];
	size_t n = 0;
	int status;
	if (j->pid <= 0)
		return j->rc;
	if (abandon)
		kill(j->pid, SIGKILL);
	while (n < sizeof(buf) - 1) {
		ssize_t k = read(j->fd, buf + n, sizeof(buf) - 1 - n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		n += (size_t)k;
	}
	buf[n] = 0;
	close(j->fd);
	while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
		;
	j->pid = -1;
	if (n == 65 && buf[0] == '0') {
		memcpy(j->sha, buf + 1, 65);
		j->rc = 0;
	} else if (n > 1 && buf[0] == '1') {
		snprintf(j->d.msg, sizeof(j->d.msg), "%s", buf + 1);
		j->rc = -1;
	} else {
		snprintf(j->d.msg, sizeof(j->d.msg), "%s: the sha256 process failed", j->path);
		j->rc = -1;
	}
	return j->rc;
}

static int import_one(struct sl_store *st, const char *path, const char *force, int quiet)
{
	struct shajob sha;
	struct sl_diag d = { { 0 }, print_warning, NULL };
	const struct sl_reader *rd;
	struct sl_trace_info tr;
	struct sl_store_bind bind;
	struct sl_run_sink sink;
	struct sl_model *m = NULL;
	struct sl_behaviour b = { 0 };
	struct sl_model_stats ms;
	uint64_t *first = NULL, *last = NULL;
	int64_t existing, run_id;
	size_t i, ntasks = 0;
	uint64_t unc = 0;
	struct counter cnt;
	int rc;

	memset(&tr, 0, sizeof(tr));
	memset(&ms, 0, sizeof(ms));
	rd = sl_reader_detect(path, force, &d);
	if (!rd) {
		sl_err("%s", d.msg);
		return 1;
	}
	sha_start(&sha, path);
	/* a placeholder until the hash is known (the column is UNIQUE; one
	 * import is in its transaction at a time) */
	snprintf(tr.sha256, sizeof(tr.sha256), "pending");
	snprintf(tr.path, sizeof(tr.path), "%s", path);
	snprintf(tr.format, sizeof(tr.format), "%s", rd->name);
	/* the recording kernel, from the file's header (validate's model) */
	sl_trace_release(path, rd->name, tr.kernel_release, sizeof(tr.kernel_release));
	if (sl_store_begin(st, &d))
		goto fail;
	if (sl_store_add_trace(st, &tr, &tr.id, &d) ||
	    sl_store_add_run(st, tr.id, "recorded", "{}", 0, "recorded", 0, &run_id, &d))
		goto fail;
	memset(&bind, 0, sizeof(bind));
	bind.s = st;
	bind.run_id = run_id;
	bind.utid_base = sl_store_next_utid(st);
	bind.d = &d;
	sl_store_run_sink(&bind, &sink);
	m = sl_model_new(&sink, &d);
	cnt.fn = sl_model_event;
	cnt.ctx = m;
	cnt.n = 0;
	cnt.tty = !quiet && isatty(2);
	if (rd->read(path, count_event, &cnt, &d))
		goto fail;
	if (cnt.tty && cnt.n > 0xfffff)
		fprintf(stderr, "\r\033[K");
	if (cnt.n == 0) {
		sl_fail(&d, "%s: no scheduler events found", path);
		goto fail;
	}
	if (sha_wait(&sha, 0)) {
		snprintf(d.msg, sizeof(d.msg), "%s", sha.d.msg);
		goto fail;
	}
	snprintf(tr.sha256, sizeof(tr.sha256), "%s", sha.sha);
	rc = sl_store_trace_by_sha(st, tr.sha256, &existing, &d);
	if (rc < 0)
		goto fail;
	if (rc == 1) {
		sl_store_rollback(st);
		printf("%s: already imported as trace %" PRId64 " (same sha256); nothing added\n",
		       path, existing);
		sl_model_free(m);
		return 0;
	}
	if (sl_model_finish(m, &b, &first, &last, &ms))
		goto fail;
	if (sl_store_add_behaviour(st, tr.id, &b, first, last, &d))
		goto fail;
	if (b.ntasks && b.tasks[0].utid != bind.utid_base) {
		sl_fail(&d, "%s: internal error: utids moved during import", path);
		goto fail;
	}
	tr.cpus = ms.cpus;
	tr.first_ts = ms.first_ts;
	tr.last_ts = ms.last_ts;
	tr.events = ms.events;
	tr.lost_events = ms.lost_events;
	if (sl_store_update_trace(st, &tr, &d) || sl_store_set_run_cpus(st, run_id, ms.cpus, &d))
		goto fail;
	for (i = 0; i < (size_t)ms.cpus; i++)
		if (ms.lost_per_cpu[i] &&
		    sl_store_add_lost(st, tr.id, (int)i, ms.lost_per_cpu[i], &d))
			goto fail;
	if (sl_store_commit(st, &d))
		goto fail;
	for (i = 0; i < b.ntasks; i++)
		if (b.tasks[i].nphases)
			ntasks++;
	for (i = 0; i < b.ntasks; i++)
		unc += ms.uncertain_ns[i];
	printf("trace %" PRId64 ": %s (%s), %zu tasks (%zu with work), %" PRIu64
	       " events, %d CPU%s, span %.6f s, %" PRIu64 " lost events, %" PRIu64
	       " missed switches (%.3f ms uncertain); recorded run %" PRId64 "\n",
	       tr.id, path, rd->name, b.ntasks, ntasks, ms.events, ms.cpus, ms.cpus == 1 ? "" : "s",
	       (double)(ms.last_ts - ms.first_ts) / 1e9, ms.lost_events, ms.missed_switches,
	       (double)unc / 1e6, run_id);
	if (ms.lost_events)
		for (i = 0; i < (size_t)ms.cpus; i++)
			if (ms.lost_per_cpu[i])
				sl_warnx("%s: CPU %zu lost %" PRIu64 " events; each task's time is "
					 "counted up to its last and from its first event around them, "
					 "the rest as uncertain",
					 path, i, ms.lost_per_cpu[i]);
	if (ms.missed_switches && !quiet)
		sl_warnx("%s: %" PRIu64 " switches missing from the file (no loss reported); "
			 "placed between the tasks' last and first events, %.3f ms uncertain",
			 path, ms.missed_switches, (double)unc / 1e6);
	if (ms.inconsistencies && !quiet)
		sl_warnx("%s: %" PRIu64 " threads forked again under a tid whose exit was not seen",
			 path, ms.inconsistencies);
	rc = 0;
	goto out;
fail:
	sha_wait(&sha, 1);
	sl_store_rollback(st);
	sl_err("%s", d.msg);
	rc = 1;
out:
	free(ms.lost_per_cpu);
	free(ms.uncertain_ns);
	free(first);
	free(last);
	sl_behaviour_release(&b);
	sl_model_free(m);
	return rc;
}

int cmd_import(int argc, char **argv, const struct sl_globals *g)
{
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_store *st;
	const char *force = NULL;
	int i, rc = 0, nfiles, existed, imported = 0;
	const struct sl_opt opts[] = {
		SL_OPT_STRING(0, "format", &force, "NAME", "force a format: ftrace, tracedat, perfdata,\nperfscript, systrace, perfetto"),
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
		if (import_one(st, argv[i], force, g->quiet))
			rc = 1;
		else
			imported++;
	}
	sl_store_close(st);
	if (!existed && !imported)
		sl_db_discard(g->db);
	return rc;
}
