/* tests/tools/evdump.c - run one format reader over a file and print what
 * it delivers, for tests that check readers against peer tools.
 *
 *   evdump [-r READER] FILE            one line per event
 *   evdump [-r READER] -t FILE         per-pid runtime: "pid ns" lines, the
 *                                      sum of per-CPU switch intervals (the
 *                                      time from one sched_switch on a CPU to
 *                                      the next is charged to the latter's
 *                                      prev_pid)
 *   evdump [-r READER] -c FILE         counts per event type
 * Exit 0, or 1 with the reader's error on stderr. Warnings go to stderr. */
#include "../../collector/event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static const char *const tname[SL_EV_NTYPES] = {
	"none", "switch", "wakeup", "waking", "wakeup_new", "fork", "exec", "exit", "migrate", "lost",
	"cut", "runtime", "taskinfo",
};

struct st {
	int mode;
	uint64_t count[SL_EV_NTYPES];
	uint64_t last_ts;
	int order_bad;
	/* runtime */
	uint64_t *cpu_last; /* per cpu: ts of the last switch + 1 (0 = none) */
	size_t ncpu;
	uint64_t *rt;       /* per pid */
	size_t npid;
};

static int on_event(void *ctx, const struct sl_event *e)
{
	struct st *s = ctx;
	if (e->type == SL_EV_CUT || e->type == SL_EV_TASKINFO) { /* not events: ts is not a time */
		s->count[e->type]++;
		return 0;
	}
	if (e->ts < s->last_ts)
		s->order_bad = 1;
	s->last_ts = e->ts;
	if (e->type < SL_EV_NTYPES)
		s->count[e->type]++;
	if (s->mode == 'e') {
		printf("%llu.%09llu cpu=%d %s pos=%llu cur=%d/%s ctx=%02x pid=%d comm=%s prio=%d state=%c pid2=%d comm2=%s prio2=%d target=%d orig=%d count=%llu\n",
		       (unsigned long long)(e->ts / 1000000000ULL),
		       (unsigned long long)(e->ts % 1000000000ULL), e->cpu,
		       e->type < SL_EV_NTYPES ? tname[e->type] : "?",
		       (unsigned long long)e->pos, e->cur_pid, e->cur_comm, e->ctx, e->pid,
		       e->comm, e->prio, e->state ? e->state : '-', e->pid2, e->comm2, e->prio2,
		       e->target_cpu, e->orig_cpu, (unsigned long long)e->count);
	} else if (s->mode == 't' && e->type == SL_EV_SWITCH && e->cpu >= 0 && e->cpu < 65536) {
		size_t c = (size_t)e->cpu, old;
		if (c >= s->ncpu) {
			old = s->ncpu;
			s->ncpu = c + 1;
			s->cpu_last = realloc(s->cpu_last, s->ncpu * sizeof(uint64_t));
			memset(s->cpu_last + old, 0, (s->ncpu - old) * sizeof(uint64_t));
		}
		if (s->cpu_last[c] && e->pid >= 0 && e->pid < (1 << 22)) {
			size_t p = (size_t)e->pid;
			if (p >= s->npid) {
				old = s->npid;
				s->npid = p + 1;
				s->rt = realloc(s->rt, s->npid * sizeof(uint64_t));
				memset(s->rt + old, 0, (s->npid - old) * sizeof(uint64_t));
			}
			s->rt[p] += e->ts - (s->cpu_last[c] - 1);
		}
		s->cpu_last[c] = e->ts + 1;
	}
	return 0;
}

static void on_warn(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "warning: %s\n", msg);
}

int main(int argc, char **argv)
{
	const struct sl_reader *r = NULL;
	struct sl_diag d;
	struct st s;
	int opt, i, rc;

	memset(&s, 0, sizeof(s));
	memset(&d, 0, sizeof(d));
	s.mode = 'e';
	d.warn = on_warn;
	while ((opt = getopt(argc, argv, "r:tc")) != -1) {
		switch (opt) {
		case 'r':
			r = sl_reader_find(optarg);
			if (!r) {
				fprintf(stderr, "evdump: no reader '%s'\n", optarg);
				return 2;
			}
			break;
		case 't':
		case 'c':
			s.mode = opt;
			break;
		default:
			return 2;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "usage: evdump [-r READER] [-t|-c] FILE\n");
		return 2;
	}
	if (!r && !(r = sl_reader_detect(argv[optind], NULL, &d))) {
		fprintf(stderr, "evdump: %s\n", d.msg);
		return 1;
	}
	rc = r->read(argv[optind], on_event, &s, &d);
	if (rc < 0)
		fprintf(stderr, "evdump: error: %s\n", d.msg);
	if (s.mode == 't')
		for (i = 0; (size_t)i < s.npid; i++)
			if (s.rt[i])
				printf("%d %llu\n", i, (unsigned long long)s.rt[i]);
	if (s.mode == 'c')
		for (i = 1; i < SL_EV_NTYPES; i++)
			printf("%s %llu\n", tname[i], (unsigned long long)s.count[i]);
	if (s.order_bad) {
		fprintf(stderr, "evdump: events out of time order\n");
		rc = -1;
	}
	free(s.cpu_last);
	free(s.rt);
	return rc < 0;
}
