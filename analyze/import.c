/* analyze/import.c - see import.h. */
#include "import.h"
#include "completeness.h"
#include "hz.h"
#include "abstimer.h"
#include "wall.h"
#include "../collector/ledger.h"
#include "../collector/release.h"
#include "../common/util.h"
#include "../common/sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* Messages about a spooled input (named /proc/self/fd/N by the readers)
 * name what the user gave instead. */
struct renamer {
	const char *from, *to;
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
};

static void rename_msg(const struct renamer *r, char *msg, size_t len)
{
	size_t n = strlen(r->from);
	char buf[sizeof(((struct sl_diag *)0)->msg)];
	if (strncmp(msg, r->from, n))
		return;
	snprintf(buf, sizeof(buf), "%s%s", r->to, msg + n);
	snprintf(msg, len, "%s", buf);
}

static void renamed_warn(void *ctx, const char *msg)
{
	const struct renamer *r = ctx;
	char buf[sizeof(((struct sl_diag *)0)->msg)];
	snprintf(buf, sizeof(buf), "%s", msg);
	rename_msg(r, buf, sizeof(buf));
	r->warn(r->warn_ctx, buf);
}

static int import_path(struct sl_store *st, const char *path, const char *shown, const char *force,
		       const struct sl_ledger *led, sl_progress_fn progress, void *pctx,
		       struct sl_import_info *out, struct sl_diag *d);

int sl_import(struct sl_store *st, const char *path, const char *force, const struct sl_ledger *led,
	      sl_progress_fn progress, void *pctx, struct sl_import_info *out, struct sl_diag *d)
{
	char spath[4200];
	int fd, rc;
	struct renamer r;
	memset(out, 0, sizeof(*out));
	fd = sl_input_open(path, spath, sizeof(spath), d);
	if (fd == -1)
		return -1;
	if (fd == -2)
		return import_path(st, path, path, force, led, progress, pctx, out, d);
	/* read once into a temporary file: import that, under the user's name */
	r.from = spath;
	r.to = sl_input_name(path);
	r.warn = d->warn;
	r.warn_ctx = d->warn_ctx;
	if (r.warn) {
		d->warn = renamed_warn;
		d->warn_ctx = &r;
	}
	rc = import_path(st, spath, r.to, force, led, progress, pctx, out, d);
	d->warn = r.warn;
	d->warn_ctx = r.warn_ctx;
	if (rc)
		rename_msg(&r, d->msg, sizeof(d->msg));
	close(fd);
	return rc;
}

/* The kernel's mean slice of every thread the ledger holds at its start and
 * at its end that was switched in between: its sum_exec_runtime delta over
 * its pcount delta (a tid whose comm changed may be another thread: left
 * out). NULL with *n 0 when there is none. */
static struct sl_slice_hint *ledger_hints(const struct sl_ledger *l, size_t *n)
{
	struct sl_slice_hint *h;
	size_t i, k = 0;
	*n = 0;
	if (!l || !l->have_start || !l->have_end || !l->end.nt)
		return NULL;
	h = xcalloc(l->end.nt, sizeof(*h));
	for (i = 0; i < l->end.nt; i++) {
		const struct sl_ledger_thread *b = &l->end.t[i], *a = sl_ledger_find(&l->start, b->tid);
		if (!a || b->pcount <= a->pcount || b->exec_ns < a->exec_ns || strcmp(a->comm, b->comm))
			continue;
		h[k].tid = b->tid;
		h[k].mean_ns = (b->exec_ns - a->exec_ns) / (b->pcount - a->pcount);
		k++;
	}
	*n = k;
	return h;
}

/* Import path (a file that can be read again), stored as shown. */
static int import_path(struct sl_store *st, const char *path, const char *shown, const char *force,
		       const struct sl_ledger *led, sl_progress_fn progress, void *pctx,
		       struct sl_import_info *out, struct sl_diag *d)
{
	struct sl_ledger_hints lh;
	struct sl_slice_hint *hint;
	struct sl_ledger_window *win = NULL;
	struct shajob sha;
	const struct sl_reader *rd;
	struct sl_trace_info tr;
	struct sl_store_bind bind;
	struct sl_run_sink sink;
	struct sl_imported im;
	struct sl_poll_obs polls;
	struct sl_ticks ticks;
	double tick_phase = -1;
	int tick_hz = 0;
	struct sl_wall_obs wall;
	size_t i;
	int rc;

	memset(out, 0, sizeof(*out));
	memset(&tr, 0, sizeof(tr));
	memset(&im, 0, sizeof(im));
	memset(&bind, 0, sizeof(bind));
	memset(&polls, 0, sizeof(polls));
	memset(&wall, 0, sizeof(wall));
	rd = sl_reader_detect(path, force, d);
	if (!rd)
		return -1;
	out->format = rd->name;
	sha_start(&sha, path);
	/* a placeholder until the hash is known (the column is UNIQUE; one
	 * import is in its transaction at a time) */
	snprintf(tr.sha256, sizeof(tr.sha256), "pending");
	snprintf(tr.path, sizeof(tr.path), "%s", shown);
	snprintf(tr.format, sizeof(tr.format), "%s", rd->name);
	/* the recording kernel, from the file's header */
	sl_trace_release(path, rd->name, tr.kernel_release, sizeof(tr.kernel_release));
	if (sl_store_begin(st, d))
		goto fail;
	if (sl_store_add_trace(st, &tr, &tr.id, d) ||
	    sl_store_add_run(st, tr.id, "recorded", "{}", 0, "recorded", 0, &out->run_id, d))
		goto fail;
	bind.s = st;
	bind.run_id = out->run_id;
	bind.utid_base = sl_store_next_utid(st);
	bind.d = d;
	sl_store_run_sink(&bind, &sink);
	bind.track_cpus = 1; /* table cpu_first */
	bind.polls = &polls; /* the tasks that read their CPU clock */
	bind.wall = &wall;   /* the tasks that spin to a wall-clock deadline */
	if (led) /* the ledger's completeness reads them next */
		bind.keep = &out->rec;
	memset(&lh, 0, sizeof(lh));
	lh.hint = hint = ledger_hints(led, &lh.nhint);
	if (led)
		lh.win = win = sl_ledger_windows(led, &lh.nwin);
	rc = sl_import_model_hinted(rd, path, &sink, &lh, progress, pctx, &im, d);
	free(hint);
	free(win);
	out->events = im.events;
	if (rc)
		goto fail;
	if (sha_wait(&sha, 0)) {
		snprintf(d->msg, sizeof(d->msg), "%s", sha.d.msg);
		goto fail;
	}
	snprintf(tr.sha256, sizeof(tr.sha256), "%s", sha.sha);
	rc = sl_store_trace_by_sha(st, tr.sha256, &out->existing, d);
	if (rc < 0)
		goto fail;
	if (rc == 1) {
		sl_store_rollback(st);
		sl_poll_obs_release(&polls);
		sl_wall_obs_release(&wall);
		sl_imported_release(&im);
		sl_run_data_release(&out->rec);
		free(bind.cpu_first);
		out->run_id = 0;
		return 0;
	}
	out->existing = 0;
	if (sl_poll_ticks(&polls, &ticks) == 0) {
		out->polls = sl_mark_polls(&im.b, &polls, &ticks);
		tick_phase = sl_ticks_phase(&ticks);
		tick_hz = ticks.hz;
	} else if (im.ms.tick_hz && im.ms.tick_phase_ns >= 0) {
		/* too few tick preemptions to tell (a benchmark of short
		 * sleeps): the tick sched_stat_runtime shows */
		sl_ticks_release(&ticks);
		ticks.hz = im.ms.tick_hz;
		ticks.ncpu = 1;
		ticks.phase_ns = xcalloc(1, sizeof(*ticks.phase_ns));
		ticks.phase_ns[0] = tick_phase = im.ms.tick_phase_ns;
		tick_hz = ticks.hz;
	}
	if (tick_phase >= 0)
		out->tick_timers = sl_mark_tick_timers(&im.b, &ticks);
	out->abs_timers = sl_mark_abs_timers(&im.b);
	sl_ticks_release(&ticks);
	sl_poll_obs_release(&polls);
	out->wall = sl_mark_wall(&im.b, &wall);
	sl_wall_obs_release(&wall);
	if (sl_store_add_behaviour(st, tr.id, &im.b, im.first, im.last, d))
		goto fail;
	if (im.b.ntasks && im.b.tasks[0].utid != bind.utid_base) {
		sl_fail(d, "%s: internal error: utids moved during import", path);
		goto fail;
	}
	tr.cpus = im.ms.cpus;
	tr.first_ts = im.ms.first_ts;
	tr.last_ts = im.ms.last_ts;
	tr.events = im.ms.events;
	tr.lost_events = im.ms.lost_events;
	tr.missed_switches = im.ms.missed_switches;
	tr.cut = im.ms.cut;
	tr.cut_at = im.ms.cut_at;
	for (i = 0; i < im.b.ntasks; i++) /* task_stat.uncertain_ns, written at commit */
		if (im.ms.uncertain_ns[i])
			sl_store_bind_uncertain(&bind, (int)i, im.ms.uncertain_ns[i]);
	if (sl_store_update_trace(st, &tr, d) || sl_store_set_run_cpus(st, out->run_id, im.ms.cpus, d))
		goto fail;
	/* the recorded run's params: the tick sched_stat_runtime shows
	 * (collector/tickrt.h), the ledger's sched_vcpu_pack (docs/ledger.md) */
	if (im.ms.tick_hz || (led && (led->vcpu_pack >= 0 || led->features[0])) || tick_phase >= 0) {
		char params[1600];
		int o = snprintf(params, sizeof(params), "{");
		if (im.ms.tick_hz)
			o += snprintf(params + o, sizeof(params) - (size_t)o,
				      "\"tick_hz\":%d,\"tick_samples\":%zu,\"tick_concentration\":%.3f",
				      im.ms.tick_hz, im.ms.tick_samples, im.ms.tick_conc);
		if (led && led->vcpu_pack >= 0)
			o += snprintf(params + o, sizeof(params) - (size_t)o, "%s\"vcpu_pack\":%d",
				      o > 1 ? "," : "", led->vcpu_pack);
		/* the kernel's scheduler features (NAME=1,NAME=0,...: [A-Z0-9_=,]
		 * only, the ledger's reader checked) */
		if (led && led->features[0])
			o += snprintf(params + o, sizeof(params) - (size_t)o, "%s\"sched_features\":\"%s\"",
				      o > 1 ? "," : "", led->features);
		/* the tick's phase (from the slice ends, else from
		 * sched_stat_runtime: above): the replay's ticks fall where the
		 * recording's did (docs/model.md "Timers that fire at the
		 * tick") */
		if (tick_phase >= 0)
			o += snprintf(params + o, sizeof(params) - (size_t)o,
				      "%s\"tick_phase_hz\":%d,\"tick_phase_ns\":%.0f", o > 1 ? "," : "",
				      tick_hz, tick_phase);
		snprintf(params + o, sizeof(params) - (size_t)o, "}");
		if (sl_store_set_run_params(st, out->run_id, params, d))
			goto fail;
	}
	if (sl_store_add_work(st, tr.id, bind.utid_base, im.ms.work, im.ms.nwork, d))
		goto fail;
	if (sl_store_add_cpu_first(st, tr.id, bind.cpu_first, bind.ncpu_first, d))
		goto fail;
	for (i = 0; i < (size_t)im.ms.cpus; i++)
		if (im.ms.lost_per_cpu[i] &&
		    sl_store_add_lost(st, tr.id, (int)i, im.ms.lost_per_cpu[i], d))
			goto fail;
	if (sl_store_commit(st, d))
		goto fail;
	out->trace_id = tr.id;
	out->utid_base = bind.utid_base;
	out->ntasks = im.b.ntasks;
	for (i = 0; i < im.b.ntasks; i++) {
		if (im.b.tasks[i].nphases)
			out->nwork++;
		out->uncertain_ns += im.ms.uncertain_ns[i];
	}
	out->ms = im.ms; /* the arrays move to out */
	im.ms.lost_per_cpu = NULL;
	im.ms.uncertain_ns = NULL;
	im.ms.work = NULL;
	im.ms.kwork_ns = im.ms.kwait_ns = im.ms.kedge_ns = NULL;
	im.ms.klo_ns = im.ms.khi_ns = NULL;
	sl_imported_release(&im);
	free(bind.cpu_first);
	return 0;
fail:
	sha_wait(&sha, 1);
	sl_store_rollback(st);
	sl_poll_obs_release(&polls);
	sl_wall_obs_release(&wall);
	sl_imported_release(&im);
	free(bind.cpu_first);
	sl_run_data_release(&out->rec);
	out->run_id = 0;
	return -1;
}

void sl_import_info_release(struct sl_import_info *in)
{
	sl_run_data_release(&in->rec);
	free(in->ms.lost_per_cpu);
	free(in->ms.uncertain_ns);
	free(in->ms.work);
	free(in->ms.kwork_ns);
	free(in->ms.kwait_ns);
	free(in->ms.kedge_ns);
	free(in->ms.klo_ns);
	free(in->ms.khi_ns);
	memset(in, 0, sizeof(*in));
}
