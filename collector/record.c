/* collector/record.c - see record.h.
 *
 * Each CPU's buffer is read from per_cpu/cpuN/trace_pipe_raw of our own
 * instance (whole ring-buffer sub-buffers, in the kernel's binary format,
 * lost-event marks included) into an unlinked temporary file. At the end the
 * trace.dat v6 layout of trace-cmd.dat.v6(5) is written around them: header
 * page / event descriptions, the "sched" event formats, saved cmdlines, the
 * per-CPU stats (overruns) and trace clock as options, then the CPU data. */
#include "record.h"
#include "ledger.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

static const char *const sched_events[] = {
	"sched_switch", "sched_wakeup", "sched_waking", "sched_wakeup_new",
	"sched_process_fork", "sched_process_exec", "sched_process_exit",
	"sched_migrate_task",
	/* the work the kernel charged each slice (docs/model.md "Work and
	 * interference"): update_curr()'s delta of clock_task time */
	"sched_stat_runtime",
};

struct cpubuf {
	int in;   /* trace_pipe_raw */
	int tmp;  /* unlinked temporary file holding its pages */
	uint64_t size;
};

struct rec {
	struct tracefs_instance *inst;
	char *dir;           /* instance directory */
	int ncpus;
	size_t subbuf;       /* sub-buffer (page) size */
	struct cpubuf *cpu;
	char *page;
	struct sl_diag *d;
	const char *out;
	int nenabled;
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SL_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Remove instances left behind by a schedlab record that was killed. */
static void remove_stale_instances(void)
{
	char path[4096];
	const char *top = tracefs_tracing_dir();
	DIR *dir;
	struct dirent *e;

	if (!top)
		return;
	snprintf(path, sizeof(path), "%s/instances", top);
	if (!(dir = opendir(path)))
		return;
	while ((e = readdir(dir))) {
		long pid;
		char *end;
		if (strncmp(e->d_name, "schedlab-", 9))
			continue;
		pid = strtol(e->d_name + 9, &end, 10);
		if (*end || pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		{
			struct tracefs_instance *i = tracefs_instance_alloc(NULL, e->d_name);
			if (i) {
				tracefs_instance_destroy(i);
				tracefs_instance_free(i);
			}
		}
	}
	closedir(dir);
}

static int tmpfile_near(const char *out)
{
	char tmpl[4096];
	const char *slash = strrchr(out, '/');
	int fd;
	if (slash)
		snprintf(tmpl, sizeof(tmpl), "%.*s/.schedlab-rec.XXXXXX", (int)(slash - out), out);
	else
		snprintf(tmpl, sizeof(tmpl), ".schedlab-rec.XXXXXX");
	fd = mkstemp(tmpl);
	if (fd >= 0)
		unlink(tmpl);
	return fd;
}

static int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Read every whole or partial sub-buffer now available on each CPU. */
static int drain(struct rec *r)
{
	int c;
	for (c = 0; c < r->ncpus; c++) {
		struct cpubuf *b = &r->cpu[c];
		if (b->in < 0)
			continue;
		for (;;) {
			ssize_t n = read(b->in, r->page, r->subbuf);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break; /* EAGAIN: nothing more for now */
			if ((size_t)n < r->subbuf)
				memset(r->page + n, 0, r->subbuf - (size_t)n);
			if (write_all(b->tmp, r->page, r->subbuf) < 0)
				return sl_fail(r->d, "%s: write error: %s", r->out, strerror(errno));
			b->size += r->subbuf;
		}
	}
	return 0;
}

/* ---- trace.dat writing ------------------------------------------------- */

struct w {
	FILE *f;
	int err;
};

static void put(struct w *w, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, w->f) != n)
		w->err = 1;
}
static void put_u16(struct w *w, uint16_t v) { put(w, &v, 2); }
static void put_u32(struct w *w, uint32_t v) { put(w, &v, 4); }
static void put_u64(struct w *w, uint64_t v) { put(w, &v, 8); }

/* A tracefs file of the instance (or top level if inst NULL) as a blob. */
static char *read_file(struct tracefs_instance *inst, const char *name, int *size)
{
	char *s = tracefs_instance_file_read(inst, name, size);
	if (!s)
		*size = 0;
	return s;
}

static void put_blob(struct w *w, int bytes, const char *s, int size)
{
	if (bytes == 8)
		put_u64(w, (uint64_t)size);
	else
		put_u32(w, (uint32_t)size);
	put(w, s, (size_t)size);
}

/* The "sched" system: every event format the kernel has in it. */
static void put_sched_formats(struct w *w)
{
	char **names = tracefs_system_events(NULL, "sched");
	int i, n = 0;

	for (i = 0; names && names[i]; i++)
		n++;
	put_u32(w, 1); /* one system */
	put(w, "sched", 6);
	put_u32(w, (uint32_t)n);
	for (i = 0; i < n; i++) {
		char path[256];
		int size;
		char *s;
		snprintf(path, sizeof(path), "events/sched/%s/format", names[i]);
		s = read_file(NULL, path, &size);
		put_blob(w, 8, s, size);
		free(s);
	}
	tracefs_list_free(names);
}

static void put_option(struct w *w, uint16_t id, const char *s, size_t n)
{
	put_u16(w, id);
	put_u32(w, (uint32_t)n);
	put(w, s, n);
}

static int write_tracedat(struct rec *r, const char *stats[])
{
	char tmp[4096], *s;
	struct w w = { NULL, 0 };
	struct utsname u;
	long pos;
	uint64_t off;
	int c, size, fd;

	snprintf(tmp, sizeof(tmp), "%s.tmp", r->out);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || !(w.f = fdopen(fd, "wb"))) {
		if (fd >= 0)
			close(fd);
		return sl_fail(r->d, "%s: %s", tmp, strerror(errno));
	}
	put(&w, "\x17\x08\x44tracing6", 12); /* magic, version "6\0" */
	{
		uint16_t one = 1;
		unsigned char hdr[2] = { *(unsigned char *)&one ? 0 : 1, (unsigned char)sizeof(long) };
		put(&w, hdr, 2);
	}
	put_u32(&w, (uint32_t)r->subbuf);
	put(&w, "header_page", 12);
	s = read_file(NULL, "events/header_page", &size);
	put_blob(&w, 8, s, size);
	free(s);
	put(&w, "header_event", 13);
	s = read_file(NULL, "events/header_event", &size);
	put_blob(&w, 8, s, size);
	free(s);
	put_u32(&w, 0); /* ftrace event formats: none needed */
	put_sched_formats(&w);
	put_u32(&w, 0); /* kallsyms */
	put_u32(&w, 0); /* printk formats */
	s = read_file(NULL, "saved_cmdlines", &size);
	put_blob(&w, 8, s, size);
	free(s);
	put_u32(&w, (uint32_t)r->ncpus);
	put(&w, "options  ", 10);
	for (c = 0; c < r->ncpus; c++) {
		char buf[2048];
		int n = snprintf(buf, sizeof(buf), "CPU: %d\n%s", c, stats[c] ? stats[c] : "");
		if (n >= (int)sizeof(buf))
			n = sizeof(buf) - 1;
		put_option(&w, 2 /* CPUSTAT */, buf, (size_t)n + 1);
	}
	s = read_file(r->inst, "trace_clock", &size);
	if (s)
		put_option(&w, 4 /* TRACECLOCK */, s, (size_t)size);
	free(s);
	if (uname(&u) == 0) {
		char buf[1024];
		int n = snprintf(buf, sizeof(buf), "%s %s %s %s", u.sysname, u.nodename, u.release, u.version);
		if (n >= (int)sizeof(buf))
			n = sizeof(buf) - 1;
		put_option(&w, 5 /* UNAME */, buf, (size_t)n + 1);
	}
	put_u16(&w, 0); /* end of options */
	put(&w, "flyrecord", 10);
	pos = ftell(w.f);
	if (pos < 0)
		w.err = 1;
	off = ((uint64_t)pos + 16u * (uint64_t)r->ncpus + r->subbuf - 1) / r->subbuf * r->subbuf;
	for (c = 0; c < r->ncpus; c++) {
		put_u64(&w, off);
		put_u64(&w, r->cpu[c].size);
		off += (r->cpu[c].size + r->subbuf - 1) / r->subbuf * r->subbuf;
	}
	pos = ftell(w.f);
	while (pos >= 0 && (uint64_t)pos % r->subbuf) {
		fputc(0, w.f);
		pos++;
	}
	for (c = 0; c < r->ncpus && !w.err; c++) {
		uint64_t done = 0;
		if (lseek(r->cpu[c].tmp, 0, SEEK_SET) < 0)
			w.err = 1;
		while (!w.err && done < r->cpu[c].size) {
			ssize_t n = read(r->cpu[c].tmp, r->page, r->subbuf);
			if (n <= 0) {
				w.err = 1;
				break;
			}
			put(&w, r->page, (size_t)n);
			done += (uint64_t)n;
		}
	}
	if (fclose(w.f) != 0)
		w.err = 1;
	if (w.err) {
		unlink(tmp);
		return sl_fail(r->d, "%s: write error: %s", r->out, strerror(errno ? errno : EIO));
	}
	if (rename(tmp, r->out) < 0) {
		int e = errno;
		unlink(tmp);
		return sl_fail(r->d, "%s: %s", r->out, strerror(e));
	}
	return 0;
}

/* ---- the run --------------------------------------------------------------- */

static uint64_t stat_field(const char *s, const char *name)
{
	const char *p = s ? strstr(s, name) : NULL;
	return p ? strtoull(p + strlen(name), NULL, 10) : 0;
}

static int setup(struct rec *r, const struct sl_record_opts *o)
{
	char name[64];
	long pagesz = sysconf(_SC_PAGESIZE);
	long long kb;
	size_t i;
	int c;

	if (geteuid() != 0)
		return sl_fail(r->d, "recording needs root (tracefs at /sys/kernel/tracing)");
	if (!tracefs_tracing_dir())
		return sl_fail(r->d, "tracefs is not mounted (/sys/kernel/tracing)");
	remove_stale_instances();
	snprintf(name, sizeof(name), "schedlab-%ld", (long)getpid());
	r->inst = tracefs_instance_create(name);
	if (!r->inst)
		return sl_fail(r->d, "cannot create tracing instance %s: %s", name, strerror(errno));
	r->dir = tracefs_instance_get_dir(r->inst);
	tracefs_trace_off(r->inst);
	/* CLOCK_MONOTONIC timestamps: the ledger's snapshot times (taken with
	 * clock_gettime) are then trace times */
	if (tracefs_instance_file_write(r->inst, "trace_clock", "mono") < 0)
		return sl_fail(r->d, "cannot set the trace clock to mono: %s", strerror(errno));
	if (tracefs_instance_set_buffer_size(r->inst, o->buffer_kb ? o->buffer_kb : 8192, -1) < 0)
		return sl_fail(r->d, "cannot set the trace buffer size: %s", strerror(errno));
	r->subbuf = (size_t)(pagesz > 0 ? pagesz : 4096);
	if (tracefs_instance_file_read_number(r->inst, "buffer_subbuf_size_kb", &kb) == 0 &&
	    kb > 0 && kb <= 1024)
		r->subbuf = (size_t)kb * 1024;
	for (i = 0; i < SL_ARRAY_SIZE(sched_events); i++)
		if (tracefs_event_enable(r->inst, "sched", sched_events[i]) == 0)
			r->nenabled++;
		else if (i == 0)
			return sl_fail(r->d, "cannot enable sched/sched_switch: %s", strerror(errno));
	r->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (r->ncpus < 1)
		r->ncpus = 1;
	r->cpu = xcalloc((size_t)r->ncpus, sizeof(*r->cpu));
	r->page = xmalloc(r->subbuf);
	for (c = 0; c < r->ncpus; c++)
		r->cpu[c].in = r->cpu[c].tmp = -1;
	for (c = 0; c < r->ncpus; c++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", r->dir, c);
		r->cpu[c].in = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (r->cpu[c].in < 0 && errno != ENOENT)
			return sl_fail(r->d, "%s: %s", path, strerror(errno));
		if ((r->cpu[c].tmp = tmpfile_near(r->out)) < 0)
			return sl_fail(r->d, "%s: cannot make a temporary file: %s", r->out, strerror(errno));
	}
	return 0;
}

static void teardown(struct rec *r)
{
	int c;
	for (c = 0; r->cpu && c < r->ncpus; c++) {
		if (r->cpu[c].in >= 0)
			close(r->cpu[c].in);
		if (r->cpu[c].tmp >= 0)
			close(r->cpu[c].tmp);
	}
	free(r->cpu);
	free(r->page);
	tracefs_put_tracing_file(r->dir);
	if (r->inst) {
		tracefs_trace_off(r->inst);
		tracefs_instance_destroy(r->inst);
		tracefs_instance_free(r->inst);
	}
}

static pid_t start_cmd(char *const *argv, int *err)
{
	int p[2];
	pid_t pid;
	/* a pipe closed on exec tells us whether execvp worked */
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int e;
		close(p[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[0], argv);
		e = errno;
		if (write(p[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(p[1]);
	if (pid > 0 && read(p[0], err, sizeof(*err)) == (ssize_t)sizeof(*err)) {
		waitpid(pid, NULL, 0);
		pid = -1;
	}
	close(p[0]);
	return pid;
}

/* The ledger, written under a temporary name and renamed when whole. */
struct ledger_out {
	FILE *f;
	char tmp[4200];
};

static int ledger_begin(struct ledger_out *lg, const char *path, struct sl_diag *d)
{
	lg->f = sl_atomic_fopen(path, lg->tmp, sizeof(lg->tmp), d);
	if (!lg->f)
		return -1;
	sl_ledger_write_header(lg->f, "mono");
	return sl_ledger_write_snapshot(lg->f, "start", d);
}

static int ledger_end(struct ledger_out *lg, const char *path, struct sl_diag *d)
{
	FILE *f = lg->f;
	lg->f = NULL;
	return sl_atomic_fclose_commit(f, lg->tmp, path, d);
}

int sl_record_run(const struct sl_record_opts *o, struct sl_record_result *res,
		  struct sl_diag *d)
{
	struct rec r;
	struct ledger_out lg = { NULL, "" };
	struct sl_ledger_seen seen;
	unsigned naps = 0;
	pid_t child = -1;
	uint64_t t0, deadline;
	char **stats = NULL;
	int c, rc = -1, status = -1;

	memset(res, 0, sizeof(*res));
	res->cmd_status = -1;
	memset(&r, 0, sizeof(r));
	memset(&seen, 0, sizeof(seen));
	r.d = d;
	r.out = o->out;
	if (setup(&r, o) < 0)
		goto out;
	if (tracefs_trace_on(r.inst) < 0) {
		sl_fail(d, "cannot turn tracing on: %s", strerror(errno));
		goto out;
	}
	if (o->ledger && ledger_begin(&lg, o->ledger, d))
		goto out;
	if (lg.f)
		sl_ledger_seen_begin(&seen); /* without it: no "seen" threads */
	t0 = now_ns();
	deadline = o->duration ? t0 + o->duration : UINT64_MAX;
	if (o->argv && o->argv[0]) {
		int err = 0;
		child = start_cmd(o->argv, &err);
		if (child < 0) {
			sl_fail(d, "cannot run %s: %s", o->argv[0], strerror(err ? err : errno));
			goto out;
		}
	}
	for (;;) {
		struct timespec nap = { 0, 50 * 1000 * 1000 };
		if (drain(&r) < 0)
			goto out;
		if (o->stop && *o->stop)
			break;
		if (now_ns() >= deadline)
			break;
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			child = -1;
			res->cmd_status = status;
			break;
		}
		nanosleep(&nap, NULL);
		if (lg.f && ++naps % 4 == 0)
			sl_ledger_seen_pass(&seen); /* every 200 ms */
	}
	if (lg.f && (sl_ledger_seen_write(&seen, lg.f, d) || sl_ledger_write_snapshot(lg.f, "end", d)))
		goto out;
	tracefs_trace_off(r.inst);
	res->elapsed = now_ns() - t0;
	if (drain(&r) < 0)
		goto out;
	stats = xcalloc((size_t)r.ncpus, sizeof(char *));
	res->ncpus = r.ncpus;
	res->cpu = xcalloc((size_t)r.ncpus, sizeof(*res->cpu));
	res->nevents_enabled = r.nenabled;
	for (c = 0; c < r.ncpus; c++) {
		char path[64];
		int size;
		snprintf(path, sizeof(path), "per_cpu/cpu%d/stats", c);
		stats[c] = tracefs_instance_file_read(r.inst, path, &size);
		res->cpu[c].events = stat_field(stats[c], "read events:");
		res->cpu[c].overrun = stat_field(stats[c], "overrun:");
		res->cpu[c].dropped = stat_field(stats[c], "dropped events:");
		res->cpu[c].bytes = r.cpu[c].size;
	}
	rc = write_tracedat(&r, (const char **)stats);
	if (rc == 0 && lg.f)
		rc = ledger_end(&lg, o->ledger, d);
out:
	sl_ledger_seen_release(&seen);
	if (lg.f) { /* not finished: nothing of it is left */
		fclose(lg.f);
		unlink(lg.tmp);
	}
	if (child > 0) { /* stopped by the user or an error: end the command too */
		kill(child, SIGTERM);
		if (waitpid(child, &status, 0) == child)
			res->cmd_status = status;
	}
	for (c = 0; stats && c < r.ncpus; c++)
		free(stats[c]);
	free(stats);
	teardown(&r);
	return rc;
}

void sl_record_result_release(struct sl_record_result *res)
{
	if (!res)
		return;
	free(res->cpu);
	res->cpu = NULL;
}
