/* replay/workload.c - the workload file reader (see workload.h). */
#include "workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FILE (16u << 20)
#define MAX_TASKS 100000

static int parse_cpus(const char *s, uint64_t *mask)
{
	uint64_t m = 0;
	while (*s) {
		char *end;
		long a, b;
		errno = 0;
		a = strtol(s, &end, 10);
		if (end == s || errno || a < 0 || a > 63)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			s++;
			b = strtol(s, &end, 10);
			if (end == s || errno || b < a || b > 63)
				return -1;
			s = end;
		}
		for (; a <= b; a++)
			m |= 1ULL << a;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	if (!m)
		return -1;
	*mask = m;
	return 0;
}

/* One line's fields (already split on blanks). */
static int parse_task(char **f, int nf, const char *name, unsigned line, struct sl_task_spec *t,
		      struct sl_diag *d)
{
	long long nice;
	int i, have_run = 0;

	if (nf < 3)
		return sl_fail(d, "%s:%u: expected NAME NICE run=T [sleep=T] [count=N] [start=T]", name,
			       line);
	if (strlen(f[0]) >= sizeof(t->comm))
		return sl_fail(d, "%s:%u: task name '%.40s' longer than %zu characters", name, line,
			       f[0], sizeof(t->comm) - 1);
	sl_copy_comm(t->comm, sizeof(t->comm), f[0], strlen(f[0]));
	if (sl_parse_int(f[1], -20, 19, &nice))
		return sl_fail(d, "%s:%u: nice '%.40s': expected an integer in -20..19", name, line, f[1]);
	t->nice = (int)nice;
	t->policy = SL_SCHED_NORMAL;
	t->parent = -1;
	t->initially_runnable = 1;
	for (i = 2; i < nf; i++) {
		char *eq = strchr(f[i], '=');
		const char *k = f[i], *v;
		if (!eq)
			return sl_fail(d, "%s:%u: '%.40s': expected KEY=VALUE", name, line, f[i]);
		*eq = 0;
		v = eq + 1;
		if (!strcmp(k, "run")) {
			have_run = 1;
			if (!strcmp(v, "inf"))
				t->run_ns = SL_INF;
			else if (sl_parse_duration(v, SL_NS_PER_MS, &t->run_ns) || !t->run_ns ||
				 t->run_ns == SL_INF)
				return sl_fail(d, "%s:%u: run=%.40s: expected a positive duration or inf",
					       name, line, v);
		} else if (!strcmp(k, "sleep")) {
			if (sl_parse_duration(v, SL_NS_PER_MS, &t->sleep_ns) || t->sleep_ns == SL_INF)
				return sl_fail(d, "%s:%u: sleep=%.40s: expected a duration", name, line, v);
		} else if (!strcmp(k, "start")) {
			if (sl_parse_duration(v, SL_NS_PER_MS, &t->start_ns) || t->start_ns == SL_INF)
				return sl_fail(d, "%s:%u: start=%.40s: expected a duration", name, line, v);
		} else if (!strcmp(k, "count")) {
			long long c;
			if (sl_parse_int(v, 1, 1000000000000LL, &c))
				return sl_fail(d, "%s:%u: count=%.40s: expected a positive integer", name,
					       line, v);
			t->count = (uint64_t)c;
		} else if (!strcmp(k, "policy")) {
			if (!strcmp(v, "normal") || !strcmp(v, "other"))
				t->policy = SL_SCHED_NORMAL;
			else if (!strcmp(v, "batch"))
				t->policy = SL_SCHED_BATCH;
			else if (!strcmp(v, "fifo"))
				t->policy = SL_SCHED_FIFO;
			else if (!strcmp(v, "rr"))
				t->policy = SL_SCHED_RR;
			else
				return sl_fail(d, "%s:%u: policy=%.40s: expected normal, batch, fifo or rr",
					       name, line, v);
		} else if (!strcmp(k, "rtprio")) {
			long long rp;
			if (sl_parse_int(v, 1, 99, &rp))
				return sl_fail(d, "%s:%u: rtprio=%.40s: expected 1..99", name, line, v);
			t->rt_prio = (int)rp;
		} else if (!strcmp(k, "cpus")) {
			if (parse_cpus(v, &t->cpumask))
				return sl_fail(d, "%s:%u: cpus=%.40s: expected a CPU list like 0,2-3", name,
					       line, v);
		} else {
			return sl_fail(d, "%s:%u: unknown key '%.40s' (run, sleep, count, start, cpus, policy, rtprio)",
				       name, line, k);
		}
	}
	if (!have_run)
		return sl_fail(d, "%s:%u: run=T or run=inf is required", name, line);
	if ((t->policy == SL_SCHED_FIFO || t->policy == SL_SCHED_RR) && !t->rt_prio)
		t->rt_prio = 1;
	return 0;
}

static int by_name(const void *a, const void *b, void *arg)
{
	const struct sl_behaviour *bh = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(bh->tasks[x].comm, bh->tasks[y].comm);
	return c ? c : (x > y) - (x < y);
}

/* Every name once: sort the indexes by name; a repeated name is reported
 * at the line of its first repetition in the file. O(n log n). */
static int check_names(const struct sl_behaviour *b, const unsigned *lines, const char *name,
		       struct sl_diag *d)
{
	size_t *ix = xcalloc(b->ntasks, sizeof(*ix)), i, worst = SIZE_MAX;
	for (i = 0; i < b->ntasks; i++)
		ix[i] = i;
	qsort_r(ix, b->ntasks, sizeof(*ix), by_name, (void *)b);
	for (i = 1; i < b->ntasks; i++)
		if (!strcmp(b->tasks[ix[i]].comm, b->tasks[ix[i - 1]].comm) && ix[i] < worst)
			worst = ix[i];
	free(ix);
	if (worst == SIZE_MAX)
		return 0;
	return sl_fail(d, "%s:%u: task name '%s' used twice", name, lines[worst], b->tasks[worst].comm);
}

int sl_workload_parse_text(const char *text, size_t len, const char *name, struct sl_behaviour *b,
			   struct sl_diag *d)
{
	size_t pos = 0, cap = 0, lcap = 0;
	unsigned line = 0, *lines = NULL;
	char buf[1024];

	memset(b, 0, sizeof(*b));
	b->cpus = 1;
	while (pos < len) {
		size_t e = pos, n;
		char *f[32], *s, *save = NULL;
		int nf = 0;
		struct sl_task_spec *t;

		while (e < len && text[e] != '\n')
			e++;
		line++;
		n = e - pos;
		if (n >= sizeof(buf)) {
			sl_behaviour_release(b);
			free(lines);
			return sl_fail(d, "%s:%u: line longer than %zu bytes", name, line, sizeof(buf) - 1);
		}
		memcpy(buf, text + pos, n);
		buf[n] = 0;
		pos = e + 1;
		if (memchr(buf, 0, n)) {
			sl_behaviour_release(b);
			free(lines);
			return sl_fail(d, "%s:%u: NUL byte in a text file", name, line);
		}
		if ((s = strchr(buf, '#')))
			*s = 0;
		for (s = strtok_r(buf, " \t\r\v\f", &save); s; s = strtok_r(NULL, " \t\r\v\f", &save)) {
			if (nf == (int)SL_ARRAY_SIZE(f)) {
				sl_behaviour_release(b);
			free(lines);
				return sl_fail(d, "%s:%u: too many fields", name, line);
			}
			f[nf++] = s;
		}
		if (!nf)
			continue;
		if (b->ntasks >= MAX_TASKS) {
			sl_behaviour_release(b);
			free(lines);
			return sl_fail(d, "%s:%u: more than %d tasks", name, line, MAX_TASKS);
		}
		SL_GROW(b->tasks, cap, b->ntasks + 1);
		t = &b->tasks[b->ntasks];
		memset(t, 0, sizeof(*t));
		if (parse_task(f, nf, name, line, t, d)) {
			sl_behaviour_release(b);
			free(lines);
			return -1;
		}
		SL_GROW(lines, lcap, b->ntasks + 1);
		lines[b->ntasks] = line;
		t->idx = (int32_t)b->ntasks;
		t->tid = t->tgid = (int32_t)b->ntasks + 1;
		b->ntasks++;
	}
	if (!b->ntasks) {
		free(lines);
		return sl_fail(d, "%s: no tasks", name);
	}
	if (check_names(b, lines, name, d)) {
		free(lines);
		sl_behaviour_release(b);
		return -1;
	}
	free(lines);
	return 0;
}

int sl_workload_load(const char *path, struct sl_behaviour *b, struct sl_diag *d)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	size_t n;
	int rc;

	memset(b, 0, sizeof(*b));
	if (!fp)
		return sl_fail(d, "%s: %s", path, strerror(errno));
	buf = xmalloc(MAX_FILE + 1);
	n = fread(buf, 1, MAX_FILE + 1, fp);
	if (ferror(fp)) {
		fclose(fp);
		free(buf);
		return sl_fail(d, "%s: read error", path);
	}
	fclose(fp);
	if (n > MAX_FILE) {
		free(buf);
		return sl_fail(d, "%s: larger than 16 MiB", path);
	}
	rc = sl_workload_parse_text(buf, n, path, b, d);
	free(buf);
	return rc;
}
