/* plots/export.c - a run as a Chrome/Perfetto JSON trace: one "X" (complete)
 * event per sched_slice row, pid = the task's tgid and tid = its tid, so a
 * trace viewer shows one process row per thread group with a track per
 * thread; thread_name/process_name metadata name them; each wakeup row is
 * an instant event ("i") on the woken task's track with its delay. Beside
 * them (issue 25): a "CPUs" process with a track per CPU (tid = CPU + 1)
 * holding each slice again ("cat":"cpu"), and a flow arrow per wakeup a
 * task made that ran: "s" on the waker's track at the wakeup, "f" bound to
 * the woken task's slice at its first run (the Trace Event Format's flow
 * events). Times are microseconds after the trace's first_ts, printed
 * exactly from the integer nanoseconds (no rounding). */
#include "plot_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put_us(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static int pid_of(const struct sl_thread_row *t)
{
	return t->tgid > 0 ? t->tgid : t->tid;
}

/* Several runs in one file: each run's thread groups get pids of their own
 * (run index * PID_STRIDE + tgid, above Linux's PID_MAX_LIMIT 4194304) and
 * process names that start with the run, so a replay and its recording sit
 * one above the other in the viewer. One run keeps the tgid itself. */
#define PID_STRIDE 10000000
/* the CPUs' process, within a run's stride and above any tgid */
#define CPU_PID 9000000

static void sep(FILE *f, int *first)
{
	fputs(*first ? "" : ",\n", f);
	*first = 0;
}

static void write_names(FILE *f, const struct sl_run_data *r, const char *used, int base, const char *pfx,
			int *first)
{
	size_t i, k;
	/* names: each thread group once (its leader's comm), each thread */
	for (i = 0; i < r->nthreads; i++) {
		const struct sl_thread_row *t = &r->threads[i];
		int pid = pid_of(t), seen = 0;
		char name[96];
		if (!used[i])
			continue;
		for (k = 0; k < i && !seen; k++)
			seen = used[k] && pid_of(&r->threads[k]) == pid;
		if (!seen) {
			const char *leader = NULL;
			for (k = 0; k < r->nthreads && !leader; k++)
				if (r->threads[k].tid == pid)
					leader = r->threads[k].comm;
			if (leader)
				snprintf(name, sizeof(name), "%s%s", pfx, leader);
			else
				snprintf(name, sizeof(name), "%stgid %d", pfx, pid);
			sep(f, first);
			fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":",
				base + pid);
			sl_json_str(f, name);
			fputs("}}", f);
		}
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
			   "\"args\":{\"name\":",
			base + pid, t->tid);
		sl_json_str(f, t->comm);
		fputs("}}", f);
	}
}

/* A slice's "X" event up to its args: named by its task, on track
 * (pid, tid), in category cat. */
static void put_x(FILE *f, const struct sl_slice_row *sl, const struct sl_thread_row *t, uint64_t t0,
		  const char *cat, int pid, int tid)
{
	fputs("{\"name\":", f);
	sl_json_str(f, t ? t->comm : "?");
	fprintf(f, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":", cat);
	put_us(f, sl->ts >= t0 ? sl->ts - t0 : 0);
	fputs(",\"dur\":", f);
	put_us(f, sl->dur);
	fprintf(f, ",\"pid\":%d,\"tid\":%d,\"args\":{", pid, tid);
}

static void write_rows(FILE *f, const struct sl_run_data *r, uint64_t t0, int base, int *first)
{
	size_t k;
	for (k = 0; k < r->nslices; k++) {
		const struct sl_slice_row *sl = &r->slices[k];
		const struct sl_thread_row *t = sl_run_thread(r, sl->utid);
		char st[2] = { sl->end_state ? sl->end_state : '?', 0 };
		sep(f, first);
		put_x(f, sl, t, t0, "sched", t ? base + pid_of(t) : 0, t ? t->tid : 0);
		fprintf(f, "\"cpu\":%d,\"end_state\":", sl->cpu);
		sl_json_str(f, st);
		fprintf(f, ",\"priority\":%d,\"utid\":%" PRId64 "}}", sl->priority, (int64_t)sl->utid);
	}
	/* the CPUs: each slice again on its CPU's track */
	for (k = 0; k < r->nslices; k++) {
		const struct sl_slice_row *sl = &r->slices[k];
		const struct sl_thread_row *t = sl_run_thread(r, sl->utid);
		sep(f, first);
		put_x(f, sl, t, t0, "cpu", base + CPU_PID, sl->cpu + 1);
		fprintf(f, "\"tid\":%d}}", t ? t->tid : 0);
	}
	/* wakeups: an instant event on the woken task's track, with its delay */
	for (k = 0; k < r->nwakeups; k++) {
		const struct sl_wakeup_row *w = &r->wakeups[k];
		const struct sl_thread_row *t = sl_run_thread(r, w->utid);
		const struct sl_thread_row *wk = sl_run_thread(r, w->waker_utid);
		sep(f, first);
		fputs("{\"name\":\"wakeup\",\"cat\":\"sched\",\"ph\":\"i\",\"s\":\"t\",\"ts\":", f);
		put_us(f, w->ts >= t0 ? w->ts - t0 : 0);
		fprintf(f, ",\"pid\":%d,\"tid\":%d,\"args\":{\"cpu\":%d,\"delay_us\":",
			t ? base + pid_of(t) : 0, t ? t->tid : 0, w->cpu);
		if (w->ts_run != UINT64_MAX && w->ts_run >= w->ts)
			put_us(f, w->ts_run - w->ts);
		else
			fputs("null", f);
		fprintf(f, ",\"waker_tid\":%d}}", wk ? wk->tid : -1);
		/* the flow arrow, waker to woken, when a task woke it and it ran */
		if (wk && t && w->ts_run != UINT64_MAX && w->ts_run >= w->ts) {
			uint64_t id = ((uint64_t)(base / PID_STRIDE) << 32) | (uint64_t)k;
			fprintf(f, ",\n{\"name\":\"wakeup\",\"cat\":\"wakeup\",\"ph\":\"s\",\"id\":%" PRIu64
				   ",\"ts\":", id);
			put_us(f, w->ts >= t0 ? w->ts - t0 : 0);
			fprintf(f, ",\"pid\":%d,\"tid\":%d},\n{\"name\":\"wakeup\",\"cat\":\"wakeup\",\"ph\":\"f\","
				   "\"bp\":\"e\",\"id\":%" PRIu64 ",\"ts\":",
				base + pid_of(wk), wk->tid, id);
			put_us(f, w->ts_run >= t0 ? w->ts_run - t0 : 0);
			fprintf(f, ",\"pid\":%d,\"tid\":%d}", base + pid_of(t), t->tid);
		}
	}
}

/* The CPUs' process and a named track per CPU, in CPU order. */
static void write_cpu_names(FILE *f, int cpus, int base, const char *pfx, int *first)
{
	char name[96];
	int c;
	snprintf(name, sizeof(name), "%sCPUs", pfx);
	sep(f, first);
	fprintf(f, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":", base + CPU_PID);
	sl_json_str(f, name);
	fputs("}}", f);
	for (c = 0; c < cpus; c++)
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
			   "\"args\":{\"name\":\"CPU %d\"}},\n{\"name\":\"thread_sort_index\",\"ph\":\"M\","
			   "\"pid\":%d,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
			base + CPU_PID, c + 1, c, base + CPU_PID, c + 1, c);
}

static char *used_threads(const struct sl_run_data *r)
{
	char *used = xcalloc(r->nthreads ? r->nthreads : 1, 1);
	size_t k;
	for (k = 0; k < r->nslices; k++) {
		const struct sl_thread_row *t = sl_run_thread(r, r->slices[k].utid);
		if (t)
			used[t - r->threads] = 1;
	}
	for (k = 0; k < r->nwakeups; k++) {
		const struct sl_thread_row *t = sl_run_thread(r, r->wakeups[k].utid);
		if (t)
			used[t - r->threads] = 1;
	}
	return used;
}

int sl_export_chrome(struct sl_store *s, const int64_t *runs, size_t nruns, const char *path,
		     struct sl_diag *d)
{
	struct sl_pruns p;
	struct sl_plot_opts o;
	const struct sl_run_data *r;
	size_t i;
	FILE *f;
	int first = 1, err;
	memset(&o, 0, sizeof(o));
	o.runs = runs;
	o.nruns = nruns;
	if (sl_pruns_load(s, &o, SL_LOAD_ALL, &p, d))
		return -1;
	r = &p.v[0].r;
	f = fopen(path, "w");
	if (!f) {
		sl_pruns_release(&p);
		return sl_fail(d, "%s: %s", path, strerror(errno));
	}
	fputs("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"schedlab export\",\"trace\":",
	      f);
	sl_json_str(f, p.trace.path);
	fprintf(f, ",\"trace_id\":%" PRId64 ",\"run_id\":%" PRId64 ",\"scheduler\":", p.trace.id,
		r->run.id);
	sl_json_str(f, r->run.scheduler);
	fputs(",\"mode\":", f);
	sl_json_str(f, r->run.mode);
	fprintf(f, ",\"cpus\":%d,\"first_ts_ns\":%" PRIu64, r->run.cpus, p.trace.first_ts);
	if (p.n > 1) {
		fputs(",\"runs\":[", f);
		for (i = 0; i < p.n; i++) {
			fprintf(f, "%s{\"run_id\":%" PRId64 ",\"pid_base\":%d,\"scheduler\":", i ? "," : "",
				p.v[i].r.run.id, (int)i * PID_STRIDE);
			sl_json_str(f, p.v[i].r.run.scheduler);
			fputs("}", f);
		}
		fputs("]", f);
	}
	fputs("},\n\"traceEvents\":[\n", f);
	for (i = 0; i < p.n; i++) {
		char *used = used_threads(&p.v[i].r);
		char pfx[64] = "";
		if (p.n > 1)
			snprintf(pfx, sizeof(pfx), "run %" PRId64 " %s: ", p.v[i].r.run.id, p.v[i].r.run.scheduler);
		write_names(f, &p.v[i].r, used, p.n > 1 ? (int)i * PID_STRIDE : 0, pfx, &first);
		write_cpu_names(f, p.v[i].r.run.cpus, p.n > 1 ? (int)i * PID_STRIDE : 0, pfx, &first);
		free(used);
	}
	for (i = 0; i < p.n; i++)
		write_rows(f, &p.v[i].r, p.trace.first_ts, p.n > 1 ? (int)i * PID_STRIDE : 0, &first);
	fputs("\n]}\n", f);
	err = ferror(f);
	if (fclose(f) || err) {
		unlink(path);
		sl_pruns_release(&p);
		return sl_fail(d, "%s: write error", path);
	}
	sl_pruns_release(&p);
	return 0;
}
