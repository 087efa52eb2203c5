/* collector/import.c - see import.h */
#include "import.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct counter {
	struct sl_model *m;
	uint64_t n;
	sl_progress_fn progress;
	void *pctx;
};

static int count_event(void *ctx, const struct sl_event *ev)
{
	struct counter *c = ctx;
	if (ev->type == SL_EV_CUT || ev->type == SL_EV_TASKINFO) /* not events */
		return sl_model_event(c->m, ev);
	c->n++;
	if (c->progress && (c->n & 0xfffff) == 0)
		c->progress(c->pctx, c->n);
	return sl_model_event(c->m, ev);
}

/* One rule for every reader: an event far from all the others at either
 * end (more than 10 s, and 90 % of the span, before the next or after the
 * one before) is a clock step or a damaged timestamp that stretches the
 * trace; and the same event twice in a row on a CPU is kept once. */
static void stamp_warnings(const char *path, const struct sl_model_stats *ms, struct sl_diag *d)
{
	uint64_t span = ms->last_ts - ms->first_ts;
	if (ms->lead_gap_ns > 10 * SL_NS_PER_SEC && ms->lead_gap_ns / 9 >= span / 10)
		sl_warn(d, "%s: the first event is %.3f s before the next (clock step or a damaged "
			   "timestamp): the trace's span of %.3f s counts from it",
			path, (double)ms->lead_gap_ns / 1e9, (double)span / 1e9);
	if (ms->tail_gap_ns > 10 * SL_NS_PER_SEC && ms->tail_gap_ns / 9 >= span / 10)
		sl_warn(d, "%s: the last event is %.3f s after the one before (clock step or a damaged "
			   "timestamp): the trace's span of %.3f s runs to it",
			path, (double)ms->tail_gap_ns / 1e9, (double)span / 1e9);
	if (ms->duplicates)
		sl_warn(d, "%s: %llu events were the event before them on their CPU again (exact "
			   "duplicates); counted once",
			path, (unsigned long long)ms->duplicates);
}

int sl_import_model(const struct sl_reader *r, const char *path, const struct sl_run_sink *rec,
		    sl_progress_fn progress, void *pctx, struct sl_imported *out, struct sl_diag *d)
{
	return sl_import_model_hinted(r, path, rec, NULL, progress, pctx, out, d);
}

int sl_import_model_hinted(const struct sl_reader *r, const char *path, const struct sl_run_sink *rec,
			   const struct sl_ledger_hints *h, sl_progress_fn progress, void *pctx,
			   struct sl_imported *out, struct sl_diag *d)
{
	struct counter c = { NULL, 0, progress, pctx };
	int rc = -1;
	memset(out, 0, sizeof(*out));
	c.m = sl_model_new(rec, d);
	if (h) {
		sl_model_set_slice_hints(c.m, h->hint, h->nhint);
		sl_model_set_windows(c.m, h->win, h->nwin);
	}
	if (r->read(path, count_event, &c, d)) {
		/* the model's messages start at the position: name the file */
		if (d && strncmp(d->msg, path, strlen(path))) {
			char msg[sizeof(d->msg)];
			snprintf(msg, sizeof(msg), "%.200s:%.300s", path, d->msg);
			snprintf(d->msg, sizeof(d->msg), "%s", msg);
		}
		goto out;
	}
	out->events = c.n;
	if (!c.n) {
		sl_fail(d, "%s: no scheduler events found", path);
		goto out;
	}
	if (sl_model_finish(c.m, &out->b, &out->first, &out->last, &out->ms))
		goto out;
	stamp_warnings(path, &out->ms, d);
	rc = 0;
out:
	sl_model_free(c.m);
	if (rc)
		sl_imported_release(out);
	return rc;
}

/* n bytes in a memfd; returns its fd (path in path) or -1 */
static int mem_file(const void *buf, size_t n, char *path, size_t len, struct sl_diag *d)
{
	const char *p = buf;
	size_t off = 0;
	int fd = memfd_create("schedlab-import", MFD_CLOEXEC);
	if (fd < 0)
		return sl_fail(d, "memfd_create: %s", strerror(errno));
	while (off < n) {
		ssize_t k = write(fd, p + off, n - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			close(fd);
			return sl_fail(d, "memfd write: %s", k < 0 ? strerror(errno) : "short");
		}
		off += (size_t)k;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

int sl_read_mem(const struct sl_reader *r, const void *buf, size_t n, sl_event_fn fn, void *ctx,
		struct sl_diag *d)
{
	char path[64];
	int fd = mem_file(buf, n, path, sizeof(path), d), rc;
	if (fd < 0)
		return -1;
	rc = r->read(path, fn, ctx, d);
	close(fd);
	return rc;
}

int sl_import_model_mem(const struct sl_reader *r, const void *buf, size_t n,
			const struct sl_run_sink *rec, struct sl_imported *out, struct sl_diag *d)
{
	char path[64];
	int fd = mem_file(buf, n, path, sizeof(path), d), rc;
	if (fd < 0) {
		memset(out, 0, sizeof(*out));
		return -1;
	}
	rc = sl_import_model(r, path, rec, NULL, NULL, out, d);
	close(fd);
	return rc;
}

const char *sl_input_name(const char *path)
{
	return strcmp(path, "-") ? path : "standard input";
}

/* copy everything from in to out; 0, or -1 with d set */
static int spool_copy(int in, int out, const char *name, struct sl_diag *d)
{
	static char buf[1 << 16];
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf)), off = 0;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sl_fail(d, "%s: %s", name, strerror(errno));
		if (n == 0)
			return 0;
		while (off < n) {
			ssize_t k = write(out, buf + off, (size_t)(n - off));
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				return sl_fail(d, "%s: copying it to a temporary file: %s", name,
					       k < 0 ? strerror(errno) : "short write");
			off += k;
		}
	}
}

int sl_input_open(const char *path, char *spath, size_t len, struct sl_diag *d)
{
	const char *tmp = getenv("TMPDIR"), *name = sl_input_name(path);
	char tpl[300];
	struct stat sb;
	int in, out;
	if (strcmp(path, "-")) {
		if (stat(path, &sb))
			return sl_fail(d, "%s: %s", path, strerror(errno));
		if (S_ISREG(sb.st_mode)) {
			snprintf(spath, len, "%s", path);
			return -2;
		}
		if (S_ISDIR(sb.st_mode) || S_ISBLK(sb.st_mode)) {
			/* a directory is a perf record --threads recording */
			snprintf(spath, len, "%s", path);
			return -2;
		}
		in = open(path, O_RDONLY | O_CLOEXEC);
		if (in < 0)
			return sl_fail(d, "%s: %s", path, strerror(errno));
	} else {
		in = 0;
	}
	snprintf(tpl, sizeof(tpl), "%s/schedlab-input.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp");
	out = mkostemp(tpl, O_CLOEXEC);
	if (out < 0) {
		sl_fail(d, "%s: a temporary file in %s: %s", name, tmp && *tmp ? tmp : "/tmp",
			strerror(errno));
		goto fail;
	}
	unlink(tpl);
	if (spool_copy(in, out, name, d) || lseek(out, 0, SEEK_SET) < 0) {
		close(out);
		goto fail;
	}
	if (in)
		close(in);
	snprintf(spath, len, "/proc/self/fd/%d", out);
	return out;
fail:
	if (in)
		close(in);
	return -1;
}

void sl_imported_release(struct sl_imported *im)
{
	free(im->ms.lost_per_cpu);
	free(im->ms.uncertain_ns);
	free(im->ms.work);
	free(im->ms.kwork_ns);
	free(im->ms.kwait_ns);
	free(im->ms.kedge_ns);
	free(im->ms.klo_ns);
	free(im->ms.khi_ns);
	free(im->first);
	free(im->last);
	sl_behaviour_release(&im->b);
	memset(im, 0, sizeof(*im));
}
