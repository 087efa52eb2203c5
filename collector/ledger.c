/* collector/ledger.c - see ledger.h; the format is docs/ledger.md. */
#include "ledger.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <tracefs.h>
#include <zlib.h>

#include "../common/util.h"

static uint64_t mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SL_NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* The whole of a small /proc file into buf (NUL-terminated); its length or -1. */
static ssize_t slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, off = 0;
	if (fd < 0)
		return -1;
	while ((size_t)off + 1 < len && (n = read(fd, buf + off, len - 1 - (size_t)off)) > 0)
		off += n;
	close(fd);
	buf[off] = 0;
	return off;
}

/* PATH under debugfs (sched/debug, sched/features) into buf; debugfs is
 * mounted first where it is not (tracefs_debug_dir, as trace-cmd does: a
 * machine may mount tracefs alone, and then the ledger would lose the
 * start's load tracking and the features), /sys/kernel/debug where that
 * cannot be done (not root) */
static const char *debugfs(const char *path, char *buf, size_t len)
{
	static const char *dir;
	if (!dir && !(dir = tracefs_debug_dir()))
		dir = "/sys/kernel/debug";
	snprintf(buf, len, "%s/%s", dir, path);
	return buf;
}

/* A field for a tab-separated line: tabs, newlines and other control
 * bytes become '?', an empty one "-". */
static void put_field(FILE *f, const char *s)
{
	if (!*s) {
		fputc('-', f);
		return;
	}
	for (; *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, f);
}

/* ---- the header: release, CONFIG_HZ, preemption model ---- */

static void kernel_config(int *hz, char *preempt, size_t len)
{
	char line[256];
	gzFile z = gzopen("/proc/config.gz", "rb");
	int none = 0, vol = 0, full = 0, dyn = 0, lazy = 0;
	*hz = 0;
	preempt[0] = 0;
	if (!z)
		return;
	while (gzgets(z, line, sizeof(line))) {
		if (!strncmp(line, "CONFIG_HZ=", 10))
			*hz = atoi(line + 10);
		else if (!strcmp(line, "CONFIG_PREEMPT_NONE=y\n"))
			none = 1;
		else if (!strcmp(line, "CONFIG_PREEMPT_VOLUNTARY=y\n"))
			vol = 1;
		else if (!strcmp(line, "CONFIG_PREEMPT=y\n"))
			full = 1;
		else if (!strcmp(line, "CONFIG_PREEMPT_LAZY=y\n"))
			lazy = 1;
		else if (!strcmp(line, "CONFIG_PREEMPT_DYNAMIC=y\n"))
			dyn = 1;
	}
	gzclose(z);
	snprintf(preempt, len, "%s", none ? "none" : vol ? "voluntary" : lazy ? "lazy" : full ? "full" : "");
	if (dyn) { /* the boot's preempt= chooses among them */
		char cmd[4096], *p;
		if (slurp("/proc/cmdline", cmd, sizeof(cmd)) > 0 && (p = strstr(cmd, "preempt="))) {
			size_t n = strcspn(p + 8, " \n");
			snprintf(preempt, len, "%.*s", (int)(n < 20 ? n : 20), p + 8);
		}
	}
}

void sl_ledger_write_header(FILE *f, const char *clock)
{
	struct utsname u;
	char preempt[32];
	int hz;
	kernel_config(&hz, preempt, sizeof(preempt));
	fprintf(f, "schedlab-ledger\t%d\n", SL_LEDGER_VERSION);
	fputs("release\t", f);
	put_field(f, uname(&u) == 0 ? u.release : "");
	fprintf(f, "\nhz\t%d\npreempt\t", hz);
	put_field(f, preempt);
	fputs("\nclock\t", f);
	put_field(f, clock ? clock : "");
	fputc('\n', f);
	/* sched_vcpu_pack, a scheduler patch of some guest kernels (this
	 * machine's 6.18-fc ones boot with 15): its bits change where tasks
	 * wake (docs/eevdf.md "vCPU packing"); no line where the file is not */
	{
		char buf[32];
		if (slurp("/proc/sys/kernel/sched_vcpu_pack", buf, sizeof(buf)) > 0 && buf[0] >= '0' &&
		    buf[0] <= '9')
			fprintf(f, "vcpu_pack\t%ld\n", strtol(buf, NULL, 10));
	}
	/* the scheduler's features as the kernel prints them (NAME or
	 * NO_NAME; sched_feat_show, debugfs sched/features since v5.13,
	 * sched_features before), one field each; no line where debugfs
	 * does not show them (not mounted, lockdown: this machine's EPERM) */
	{
		char buf[4096], path[4096], *tok, *save = NULL;
		int n = 0;
		if (slurp(debugfs("sched/features", path, sizeof(path)), buf, sizeof(buf)) <= 0 &&
		    slurp(debugfs("sched_features", path, sizeof(path)), buf, sizeof(buf)) <= 0)
			return;
		for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
			fputs(n++ ? "\t" : "features\t", f);
			put_field(f, tok);
		}
		if (n)
			fputc('\n', f);
	}
}

/* ---- a snapshot ---- */

/* "cpuN user nice system idle iowait irq softirq steal" in USER_HZ ticks */
static void write_cpus(FILE *f)
{
	char buf[65536], *line, *save = NULL;
	long tck = sysconf(_SC_CLK_TCK);
	unsigned long long per = SL_NS_PER_SEC / (unsigned long long)(tck > 0 ? tck : 100);
	if (slurp("/proc/stat", buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long v[8] = { 0 };
		int cpu;
		if (strncmp(line, "cpu", 3) || !isdigit((unsigned char)line[3]))
			continue;
		if (sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5], &v[6], &v[7]) < 9)
			continue;
		fprintf(f, "cpu\t%d\t%llu\t%llu\t%llu\n", cpu, v[5] * per, v[6] * per, v[7] * per);
	}
}

/* The value of a "NAME   :   VALUE" line of a sched debug file (a
 * fraction in ms, "12.345678", with ms set: in ns); -1 if absent */
static int sched_value(const char *buf, const char *name, int ms, uint64_t *v)
{
	size_t n = strlen(name);
	const char *p = buf;
	while ((p = strstr(p, name))) {
		const char *q = p + n;
		if ((p == buf || p[-1] == '\n' || p[-1] == ' ') && (*q == ' ' || *q == ':')) {
			unsigned long long a = 0, b = 0;
			int k = 0;
			q += strspn(q, " :");
			if (!ms)
				return sscanf(q, "%llu", &a) == 1 ? (*v = a, 0) : -1;
			if (sscanf(q, "%llu.%6llu%n", &a, &b, &k) != 2 || k <= 0)
				return -1;
			for (n = (size_t)(strchr(q, '.') ? strspn(strchr(q, '.') + 1, "0123456789") : 0); n < 6; n++)
				b *= 10;
			*v = a * 1000000ULL + b;
			return 0;
		}
		p += n;
	}
	return -1;
}

/* Each CPU's root cfs_rq averages and clock_task from debugfs sched/debug
 * (print_cfs_rq, print_cpu: kernel/sched/debug.c); nothing where it cannot
 * be read */
static void write_pelt(FILE *f)
{
	static char buf[1 << 20];
	char name[32], path[4096];
	uint64_t t0, t1;
	int cpu;
	debugfs("sched/debug", path, sizeof(path));
	t0 = mono_now();
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return;
	t1 = mono_now();
	for (cpu = 0; cpu < 4096; cpu++) {
		char *c, *r, *e;
		uint64_t ct, la, ra, ua, ue;
		snprintf(name, sizeof(name), "\ncpu#%d,", cpu);
		if (!(c = strstr(buf, name)))
			break;
		snprintf(name, sizeof(name), "\ncfs_rq[%d]:/\n", cpu);
		if (!(r = strstr(buf, name)))
			continue;
		r += strlen(name);
		e = strstr(r, "\n\n"); /* the section's end */
		if (e)
			*e = 0;
		if (!sched_value(c, ".clock_task", 1, &ct) && !sched_value(r, ".load_avg", 0, &la) &&
		    !sched_value(r, ".runnable_avg", 0, &ra) && !sched_value(r, ".util_avg", 0, &ua) &&
		    !sched_value(r, ".util_est", 0, &ue))
			fprintf(f, "pelt\t%d\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
				   "\t%" PRIu64 "\n",
				cpu, t0 + (t1 - t0) / 2, ct, la, ra, ua, ue & (uint64_t)0x7fffffff);
		if (e)
			*e = '\n';
	}
}

struct proc_info {
	long long autogroup;
	int autogroup_nice;
	char cgroup[128];
	uint64_t weight;
};

/* The process's autogroup and its cpu controller's cgroup and weight. */
static void proc_info(const char *pid, struct proc_info *pi)
{
	char path[128], buf[4096], *line, *save = NULL;
	pi->autogroup = -1;
	pi->autogroup_nice = 0;
	snprintf(pi->cgroup, sizeof(pi->cgroup), "/");
	pi->weight = 0;
	snprintf(path, sizeof(path), "/proc/%s/autogroup", pid);
	if (slurp(path, buf, sizeof(buf)) > 0)
		sscanf(buf, "/autogroup-%lld nice %d", &pi->autogroup, &pi->autogroup_nice);
	snprintf(path, sizeof(path), "/proc/%s/cgroup", pid);
	if (slurp(path, buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* v1 "N:cpu,cpuacct:/path" (or "N:cpu:/path"); v2 "0::/path" */
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		int v2;
		char wpath[512], w[64];
		if (!c2)
			continue;
		v2 = c2 == c1 + 1;
		if (!v2 && strncmp(c1 + 1, "cpu,", 4) && strncmp(c1 + 1, "cpu:", 4))
			continue;
		snprintf(pi->cgroup, sizeof(pi->cgroup), "%s", c2 + 1);
		if (v2)
			snprintf(wpath, sizeof(wpath), "/sys/fs/cgroup%s/cpu.weight", c2 + 1);
		else
			snprintf(wpath, sizeof(wpath), "/sys/fs/cgroup/cpu%s/cpu.shares", c2 + 1);
		if (slurp(wpath, w, sizeof(w)) > 0) {
			unsigned long long x = strtoull(w, NULL, 10);
			pi->weight = v2 ? x : x * 100 / 1024;
		}
		if (!v2)
			break; /* v1's cpu controller wins over a v2 line */
	}
}

/* How close the time written beside a thread's counters is to their read. */
#define READ_SPAN_NS 200000ULL

static void write_thread(FILE *f, const char *pid, const char *tid, const struct proc_info *pi)
{
	char path[600], buf[4096], comm[64] = "";
	unsigned long long exec = 0, delay = 0, pcount = 0, aff = 0;
	char *p, *tok, *save = NULL;
	int i, nice = 0, policy = 0, rtprio = 0, cpu = -1, pelt;
	uint64_t at = 0, span = UINT64_MAX, pv[5];
	snprintf(path, sizeof(path), "/proc/%s/task/%s/schedstat", pid, tid);
	/* the moment of the read, to within READ_SPAN_NS: a reader preempted
	 * between the clock and the read (tens of ms on a loaded machine)
	 * would date the counters too early; the narrowest of a few tries */
	for (i = 0; i < 4 && span > READ_SPAN_NS; i++) {
		unsigned long long x, y, z;
		uint64_t t0 = mono_now(), t1;
		if (slurp(path, buf, sizeof(buf)) <= 0 || sscanf(buf, "%llu %llu %llu", &x, &y, &z) != 3)
			return; /* gone, or no schedstat */
		t1 = mono_now();
		if (t1 - t0 < span) {
			span = t1 - t0;
			at = t0;
			exec = x;
			delay = y;
			pcount = z;
		}
	}
	snprintf(path, sizeof(path), "/proc/%s/task/%s/stat", pid, tid);
	if (slurp(path, buf, sizeof(buf)) > 0 && (p = strrchr(buf, ')'))) {
		/* fields 3.. after the comm: nice is 19, rt_priority 40, policy 41 */
		for (i = 3, tok = strtok_r(p + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save), i++) {
			if (i == 19)
				nice = atoi(tok);
			else if (i == 39)
				cpu = atoi(tok);
			else if (i == 40)
				rtprio = atoi(tok);
			else if (i == 41)
				policy = atoi(tok);
		}
	}
	snprintf(path, sizeof(path), "/proc/%s/task/%s/status", pid, tid);
	if (slurp(path, buf, sizeof(buf)) > 0 && (p = strstr(buf, "\nCpus_allowed:"))) {
		/* comma-separated 32-bit words, highest first: keep the low 64 bits */
		char hex[64];
		size_t k = 0;
		for (p += 14; *p && *p != '\n'; p++)
			if (isxdigit((unsigned char)*p) && k + 1 < sizeof(hex))
				hex[k++] = *p;
		hex[k] = 0;
		aff = strtoull(k > 16 ? hex + k - 16 : hex, NULL, 16);
	}
	/* its load tracking (proc_sched_show_task, kernel/sched/debug.c) */
	snprintf(path, sizeof(path), "/proc/%s/task/%s/sched", pid, tid);
	pelt = cpu >= 0 && slurp(path, buf, sizeof(buf)) > 0 && !sched_value(buf, "se.avg.load_avg", 0, &pv[0]) &&
	       !sched_value(buf, "se.avg.runnable_avg", 0, &pv[1]) && !sched_value(buf, "se.avg.util_avg", 0, &pv[2]) &&
	       !sched_value(buf, "se.avg.util_est", 0, &pv[3]) &&
	       !sched_value(buf, "se.avg.last_update_time", 0, &pv[4]);
	snprintf(path, sizeof(path), "/proc/%s/task/%s/comm", pid, tid);
	if (slurp(path, comm, sizeof(comm)) > 0)
		comm[strcspn(comm, "\n")] = 0;
	fprintf(f, "thread\t%s\t%s\t%d\t%d\t%d\t%llx\t%llu\t%llu\t%llu\t%lld\t%d\t", tid, pid, nice, policy,
		rtprio, aff, exec, delay, pcount, pi->autogroup, pi->autogroup_nice);
	put_field(f, pi->cgroup);
	fprintf(f, "\t%" PRIu64 "\t%" PRIu64 "\t", pi->weight, at);
	put_field(f, comm);
	if (pelt)
		fprintf(f, "\t%d\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64, cpu, pv[0], pv[1],
			pv[2], pv[3] & (uint64_t)0x7fffffff, pv[4]);
	else
		fputs("\t-\t-\t-\t-\t-\t-", f);
	fputc('\n', f);
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

int sl_ledger_write_snapshot(FILE *f, const char *label, struct sl_diag *d)
{
	DIR *proc = opendir("/proc"), *task;
	struct dirent *e, *te;
	uint64_t t0 = mono_now();
	if (!proc)
		return sl_fail(d, "/proc: %s", strerror(errno));
	fprintf(f, "snapshot\t%s\t%" PRIu64 "\n", label, t0);
	write_cpus(f);
	write_pelt(f);
	while ((e = readdir(proc))) {
		char path[300];
		struct proc_info pi;
		if (!all_digits(e->d_name))
			continue;
		proc_info(e->d_name, &pi);
		snprintf(path, sizeof(path), "/proc/%s/task", e->d_name);
		task = opendir(path);
		if (!task)
			continue; /* the process ended meanwhile */
		while ((te = readdir(task)))
			if (all_digits(te->d_name))
				write_thread(f, e->d_name, te->d_name, &pi);
		closedir(task);
	}
	closedir(proc);
	fprintf(f, "end\t%s\t%" PRIu64 "\n", label, mono_now() - t0);
	return ferror(f) ? sl_fail(d, "writing the ledger: %s", strerror(errno)) : 0;
}

/* ---- threads born while recording ---- */

static int tid_bit(const unsigned char *m, size_t n, long tid)
{
	return tid >= 0 && (size_t)tid / 8 < n && (m[tid / 8] >> (tid % 8)) & 1;
}

static void tid_set(unsigned char *m, size_t n, long tid)
{
	if (tid >= 0 && (size_t)tid / 8 < n)
		m[tid / 8] |= (unsigned char)(1u << (tid % 8));
}

/* every thread now, through fn(s, pid, tid, pi) */
static void each_thread(struct sl_ledger_seen *s,
			void (*fn)(struct sl_ledger_seen *, const char *, const char *, const struct proc_info *),
			int want_info)
{
	DIR *proc = opendir("/proc"), *task;
	struct dirent *e, *te;
	if (!proc)
		return;
	while ((e = readdir(proc))) {
		char path[300];
		struct proc_info pi;
		if (!all_digits(e->d_name))
			continue;
		memset(&pi, 0, sizeof(pi));
		if (want_info)
			proc_info(e->d_name, &pi);
		snprintf(path, sizeof(path), "/proc/%s/task", e->d_name);
		task = opendir(path);
		if (!task)
			continue;
		while ((te = readdir(task)))
			if (all_digits(te->d_name))
				fn(s, e->d_name, te->d_name, &pi);
		closedir(task);
	}
	closedir(proc);
}

static void mark_written(struct sl_ledger_seen *s, const char *pid, const char *tid, const struct proc_info *pi)
{
	(void)pid;
	(void)pi;
	tid_set(s->written, s->n, atol(tid));
}

/* a thread seen twice (a pass apart: it had time to move itself into its
 * cgroup, as a shell does before exec) is written once */
static void note_thread(struct sl_ledger_seen *s, const char *pid, const char *tid, const struct proc_info *pi)
{
	long t = atol(tid);
	if (tid_bit(s->written, s->n, t))
		return;
	if (!tid_bit(s->pending, s->n, t)) {
		tid_set(s->pending, s->n, t);
		return;
	}
	write_thread(s->f, pid, tid, pi);
	tid_set(s->written, s->n, t);
}

int sl_ledger_seen_begin(struct sl_ledger_seen *s)
{
	char buf[32];
	long max = 4194304;
	memset(s, 0, sizeof(*s));
	if (slurp("/proc/sys/kernel/pid_max", buf, sizeof(buf)) > 0 && atol(buf) > 0)
		max = atol(buf);
	s->n = (size_t)max / 8 + 1;
	s->written = xcalloc(s->n, 1);
	s->pending = xcalloc(s->n, 1);
	s->f = open_memstream(&s->mem, &s->len);
	if (!s->f) {
		sl_ledger_seen_release(s);
		return -1;
	}
	s->t0 = mono_now();
	each_thread(s, mark_written, 0); /* the start snapshot has them */
	return 0;
}

void sl_ledger_seen_pass(struct sl_ledger_seen *s)
{
	if (s->f)
		each_thread(s, note_thread, 1);
}

int sl_ledger_seen_write(struct sl_ledger_seen *s, FILE *f, struct sl_diag *d)
{
	if (!s->f)
		return 0;
	if (fflush(s->f))
		return sl_fail(d, "the ledger's threads: %s", strerror(errno));
	fprintf(f, "snapshot\tseen\t%" PRIu64 "\n", s->t0);
	if (s->len)
		fwrite(s->mem, 1, s->len, f);
	fprintf(f, "end\tseen\t0\n");
	return ferror(f) ? sl_fail(d, "writing the ledger: %s", strerror(errno)) : 0;
}

void sl_ledger_seen_release(struct sl_ledger_seen *s)
{
	if (s->f)
		fclose(s->f);
	free(s->mem);
	free(s->written);
	free(s->pending);
	memset(s, 0, sizeof(*s));
}

/* ---- reading ---- */

static int cmp_tid(const void *a, const void *b)
{
	const struct sl_ledger_thread *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

const struct sl_ledger_thread *sl_ledger_find(const struct sl_ledger_snap *s, int tid)
{
	struct sl_ledger_thread key;
	key.tid = tid;
	return s->nt ? bsearch(&key, s->t, s->nt, sizeof(*s->t), cmp_tid) : NULL;
}

/* Split line (modified) at tabs into at most max fields; their count. */
static int split(char *line, char **f, int max)
{
	int n = 0;
	char *p = line;
	while (n < max) {
		f[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = 0;
	}
	return p ? -1 : n; /* -1: more fields than max */
}

static int num(const char *s, long long lo, long long hi, long long *v)
{
	char *end;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return errno || end == s || *end || *v < lo || *v > hi ? -1 : 0;
}

static int unum(const char *s, int base, uint64_t *v)
{
	char *end;
	if (!isxdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, base);
	return errno || end == s || *end ? -1 : 0;
}

static int parse_thread(char **f, struct sl_ledger_thread *t)
{
	long long v[7];
	if (num(f[1], 1, INT32_MAX, &v[0]) || num(f[2], 1, INT32_MAX, &v[1]) || num(f[3], -20, 19, &v[2]) ||
	    num(f[4], 0, 7, &v[3]) || num(f[5], 0, 99, &v[4]) || unum(f[6], 16, &t->affinity) ||
	    unum(f[7], 10, &t->exec_ns) || unum(f[8], 10, &t->delay_ns) || unum(f[9], 10, &t->pcount) ||
	    num(f[10], -1, INT64_MAX, &v[5]) || num(f[11], -20, 19, &v[6]) || unum(f[13], 10, &t->cgroup_weight) ||
	    unum(f[14], 10, &t->at_ns))
		return -1;
	t->tid = (int)v[0];
	t->tgid = (int)v[1];
	t->nice = (int)v[2];
	t->policy = (int)v[3];
	t->rt_prio = (int)v[4];
	t->autogroup = v[5];
	t->autogroup_nice = (int)v[6];
	snprintf(t->cgroup, sizeof(t->cgroup), "%s", f[12]);
	snprintf(t->comm, sizeof(t->comm), "%s", f[15]);
	return 0;
}

/* version 5's six fields after the comm: all "-", or a CPU and five numbers */
static int parse_thread_pelt(char **f, struct sl_ledger_thread *t)
{
	long long c;
	int i, dash = 0;
	for (i = 0; i < 6; i++)
		dash += !strcmp(f[i], "-");
	if (dash == 6)
		return 0;
	if (dash || num(f[0], 0, 4095, &c) || unum(f[1], 10, &t->load_avg) || unum(f[2], 10, &t->runnable_avg) ||
	    unum(f[3], 10, &t->util_avg) || unum(f[4], 10, &t->util_est) || unum(f[5], 10, &t->last_update_ns))
		return -1;
	t->pelt_cpu = (int)c;
	t->pelt_known = 1;
	return 0;
}

/* A features line's fields (NAME or NO_NAME, [A-Z0-9_]) as
 * "NAME=1,NAME=0,..." in out; -1 on a field that is not one or no room */
static int features(char **f, int n, char *out, size_t len)
{
	size_t o = 0;
	int i;
	for (i = 0; i < n; i++) {
		const char *name = f[i];
		int on = strncmp(name, "NO_", 3) != 0, k;
		if (!on)
			name += 3;
		if (!*name || strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(name))
			return -1;
		k = snprintf(out + o, len - o, "%s%s=%d", o ? "," : "", name, on);
		if (k < 0 || (size_t)k >= len - o)
			return -1;
		o += (size_t)k;
	}
	return 0;
}

/* The CPU a cpu or pelt line names (0-4095) in snapshot cur, grown to
 * hold it; NULL when the field is not a CPU */
static struct sl_ledger_cpu *snap_cpu(struct sl_ledger_snap *cur, size_t *ccap, const char *field)
{
	long long c;
	if (num(field, 0, 4095, &c))
		return NULL;
	if ((size_t)c >= cur->ncpu) {
		SL_GROW(cur->cpu, *ccap, (size_t)c + 1);
		memset(cur->cpu + cur->ncpu, 0, ((size_t)c + 1 - cur->ncpu) * sizeof(*cur->cpu));
		cur->ncpu = (size_t)c + 1;
	}
	return &cur->cpu[c];
}

int sl_ledger_read(const char *path, struct sl_ledger *l, struct sl_diag *d)
{
	FILE *in = fopen(path, "r");
	char line[2048], *f[72];
	size_t ln = 0, tcap = 0, ccap = 0;
	struct sl_ledger_snap *cur = NULL;
	int n;
	memset(l, 0, sizeof(*l));
	l->vcpu_pack = -1;
	if (!in)
		return sl_fail(d, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), in)) {
		size_t len = strlen(line);
		ln++;
		if (!len || line[len - 1] != '\n')
			goto bad_line; /* too long, or cut */
		line[len - 1] = 0;
		n = split(line, f, 72);
		if (n < 1)
			goto bad_line;
		if (ln == 1) {
			long long v;
			if (strcmp(f[0], "schedlab-ledger") || n != 2 || num(f[1], 1, 1000, &v)) {
				fclose(in);
				return sl_fail(d, "%s:1: not a schedlab ledger", path);
			}
			if (v > SL_LEDGER_VERSION) {
				fclose(in);
				return sl_fail(d, "%s:1: ledger version %lld is newer than this schedlab's (%d)",
					       path, v, SL_LEDGER_VERSION);
			}
			l->version = (int)v;
		} else if (!strcmp(f[0], "release") && n == 2) {
			snprintf(l->release, sizeof(l->release), "%s", f[1]);
		} else if (!strcmp(f[0], "hz") && n == 2) {
			long long v;
			if (num(f[1], 0, 100000, &v))
				goto bad_line;
			l->hz = (int)v;
		} else if (!strcmp(f[0], "preempt") && n == 2) {
			snprintf(l->preempt, sizeof(l->preempt), "%s", strcmp(f[1], "-") ? f[1] : "");
		} else if (!strcmp(f[0], "vcpu_pack") && n == 2) {
			long long v;
			if (num(f[1], 0, 1 << 30, &v))
				goto bad_line;
			l->vcpu_pack = (int)v;
		} else if (!strcmp(f[0], "features") && n >= 2 && !l->features[0]) {
			if (features(f + 1, n - 1, l->features, sizeof(l->features)))
				goto bad_line;
		} else if (!strcmp(f[0], "clock") && n == 2) {
			snprintf(l->clock, sizeof(l->clock), "%s", strcmp(f[1], "-") ? f[1] : "");
		} else if (!strcmp(f[0], "snapshot") && n == 3) {
			uint64_t t;
			int k = !strcmp(f[1], "start") ? 0 : !strcmp(f[1], "end") ? 1 : !strcmp(f[1], "seen") ? 2 : -1;
			struct sl_ledger_snap *snap[3] = { &l->start, &l->end, &l->seen };
			int *have[3] = { &l->have_start, &l->have_end, &l->have_seen };
			if (k < 0 || unum(f[2], 10, &t) || *have[k] || cur)
				goto bad_line;
			cur = snap[k];
			*have[k] = 1;
			cur->mono_ns = t;
			tcap = ccap = 0;
		} else if (!strcmp(f[0], "end") && n == 3 && cur) {
			if (unum(f[2], 10, &cur->read_ns))
				goto bad_line;
			if (cur->nt > 1)
				qsort(cur->t, cur->nt, sizeof(*cur->t), cmp_tid);
			cur = NULL;
		} else if (!strcmp(f[0], "cpu") && n == 5 && cur) {
			struct sl_ledger_cpu *x = snap_cpu(cur, &ccap, f[1]);
			if (!x)
				goto bad_line;
			if (unum(f[2], 10, &x->irq_ns) || unum(f[3], 10, &x->softirq_ns) ||
			    unum(f[4], 10, &x->steal_ns))
				goto bad_line;
		} else if (!strcmp(f[0], "thread") && (n == 16 || (n == 22 && l->version >= 5)) && cur) {
			SL_GROW(cur->t, tcap, cur->nt + 1);
			memset(&cur->t[cur->nt], 0, sizeof(cur->t[cur->nt]));
			if (parse_thread(f, &cur->t[cur->nt]) || (n == 22 && parse_thread_pelt(f + 16, &cur->t[cur->nt])))
				goto bad_line;
			cur->nt++;
		} else if (!strcmp(f[0], "pelt") && n == 8 && cur && l->version >= 5) {
			struct sl_ledger_cpu *x = snap_cpu(cur, &ccap, f[1]);
			if (!x)
				goto bad_line;
			if (unum(f[2], 10, &x->pelt_mono_ns) || unum(f[3], 10, &x->clock_task_ns) ||
			    unum(f[4], 10, &x->load_avg) || unum(f[5], 10, &x->runnable_avg) ||
			    unum(f[6], 10, &x->util_avg) || unum(f[7], 10, &x->util_est))
				goto bad_line;
			x->pelt_known = 1;
		} else {
			goto bad_line;
		}
	}
	if (ferror(in)) {
		fclose(in);
		sl_ledger_release(l);
		return sl_fail(d, "%s: %s", path, strerror(errno));
	}
	fclose(in);
	if (!l->version) {
		sl_ledger_release(l);
		return sl_fail(d, "%s:1: empty ledger", path);
	}
	if (cur || !l->have_start || !l->have_end) {
		sl_ledger_release(l);
		return sl_fail(d, "%s:%zu: ledger cut short (no %s snapshot)", path, ln,
			       cur || !l->have_start ? "whole" : "end");
	}
	return 0;
bad_line:
	fclose(in);
	sl_ledger_release(l);
	return sl_fail(d, "%s:%zu: not a line of a ledger", path, ln);
}

void sl_ledger_release(struct sl_ledger *l)
{
	free(l->start.t);
	free(l->start.cpu);
	free(l->end.t);
	free(l->end.cpu);
	free(l->seen.t);
	free(l->seen.cpu);
	memset(l, 0, sizeof(*l));
}
