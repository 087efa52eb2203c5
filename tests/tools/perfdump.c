/* tests/tools/perfdump.c - run the perf.data or perf script reader over a
 * file (or the Perfetto reader: -r perfetto) and print what it delivers, for the agreement tests and benches.
 *
 *   perfdump [-r perfdata|perfscript] FILE      one line per event
 *   perfdump [-r READER] -t FILE                per-tid runtime: "tid ns comm"
 *       lines, the sum over each CPU's switch intervals: the time from one
 *       sched_switch on a CPU to the next is charged to the latter's prev_pid
 *       (the first switch seen on a CPU opens the first interval)
 *   perfdump [-r READER] -c FILE                counts per event type
 * Exit 0, or 1 with the reader's error on stderr; warnings go to stderr;
 * exit 1 too if events came out of time order. */
#include "../../collector/event.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the readers this tool names directly (collector/readers.c has them all) */
extern const struct sl_reader sl_reader_perfdata;
extern const struct sl_reader sl_reader_perfscript;
extern const struct sl_reader sl_reader_perfetto;

static const char *const tname[SL_EV_NTYPES] = {
	"none", "switch", "wakeup", "waking", "wakeup_new", "fork", "exec", "exit", "migrate", "lost",
	"cut", "runtime",
};

struct st {
	int mode;
	uint64_t count[SL_EV_NTYPES];
	uint64_t last_ts;
	int order_bad;
	uint64_t *cpu_last; /* per cpu: ts of the last switch + 1 (0 = none) */
	size_t ncpu;
	uint64_t *rt;       /* per tid */
	char (*comm)[SL_COMM_LEN];
	size_t npid;
};

static void *grow(void *p, size_t *n, size_t need, size_t sz)
{
	size_t old = *n, nn = need + need / 2 + 16;
	p = realloc(p, nn * sz);
	if (!p)
		abort();
	memset((char *)p + old * sz, 0, (nn - old) * sz);
	*n = nn;
	return p;
}

static int on_event(void *ctx, const struct sl_event *e)
{
	struct st *s = ctx;
	if (e->type == SL_EV_CUT) { /* after the last event; its ts is not a time */
		s->count[SL_EV_CUT]++;
		return 0;
	}
	if (e->ts < s->last_ts)
		s->order_bad = 1;
	s->last_ts = e->ts;
	if (e->type < SL_EV_NTYPES)
		s->count[e->type]++;
	if (s->mode == 'e') {
		printf("%llu.%09llu cpu=%d %s cur=%d/%d/%s ctx=%02x pid=%d comm=%s prio=%d state=%c "
		       "pid2=%d comm2=%s prio2=%d target=%d orig=%d count=%llu\n",
		       (unsigned long long)(e->ts / 1000000000ULL),
		       (unsigned long long)(e->ts % 1000000000ULL), e->cpu,
		       e->type < SL_EV_NTYPES ? tname[e->type] : "?", e->cur_pid, e->cur_tgid,
		       e->cur_comm, e->ctx, e->pid, e->comm, e->prio, e->state ? e->state : '-',
		       e->pid2, e->comm2, e->prio2, e->target_cpu, e->orig_cpu,
		       (unsigned long long)e->count);
	} else if (s->mode == 't' && e->type == SL_EV_SWITCH && e->cpu >= 0 && e->cpu < 65536) {
		size_t c = (size_t)e->cpu;
		if (c >= s->ncpu)
			s->cpu_last = grow(s->cpu_last, &s->ncpu, c + 1, sizeof(uint64_t));
		if (s->cpu_last[c] && e->pid >= 0 && e->pid < (1 << 22)) {
			size_t p = (size_t)e->pid, n0 = s->npid;
			if (p >= s->npid) {
				s->rt = grow(s->rt, &s->npid, p + 1, sizeof(uint64_t));
				s->comm = grow(s->comm, &n0, p + 1, SL_COMM_LEN);
			}
			s->rt[p] += e->ts - (s->cpu_last[c] - 1);
			memcpy(s->comm[p], e->comm, SL_COMM_LEN);
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
	int opt, rc;
	size_t i;

	memset(&s, 0, sizeof(s));
	memset(&d, 0, sizeof(d));
	s.mode = 'e';
	d.warn = on_warn;
	while ((opt = getopt(argc, argv, "r:tc")) != -1) {
		switch (opt) {
		case 'r':
			if (!strcmp(optarg, "perfdata"))
				r = &sl_reader_perfdata;
			else if (!strcmp(optarg, "perfscript"))
				r = &sl_reader_perfscript;
			else if (!strcmp(optarg, "perfetto"))
				r = &sl_reader_perfetto;
			else
				r = sl_reader_find(optarg);
			if (!r) {
				fprintf(stderr, "perfdump: no reader '%s'\n", optarg);
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
		fprintf(stderr, "usage: perfdump [-r READER] [-t|-c] FILE\n");
		return 2;
	}
	if (!r) {
		FILE *f = fopen(argv[optind], "rb");
		unsigned char head[4096];
		size_t n = f ? fread(head, 1, sizeof(head), f) : 0;
		if (f)
			fclose(f);
		r = sl_reader_perfdata.probe(head, n) >= sl_reader_perfscript.probe(head, n)
			    ? &sl_reader_perfdata : &sl_reader_perfscript;
	}
	rc = r->read(argv[optind], on_event, &s, &d);
	if (rc < 0)
		fprintf(stderr, "perfdump: error: %s\n", d.msg);
	if (s.mode == 't')
		for (i = 0; i < s.npid; i++)
			if (s.rt[i])
				printf("%zu %llu %s\n", i, (unsigned long long)s.rt[i], s.comm[i]);
	if (s.mode == 'c')
		for (i = 1; i < SL_EV_NTYPES; i++)
			printf("%s %llu\n", tname[i], (unsigned long long)s.count[i]);
	if (s.order_bad) {
		fprintf(stderr, "perfdump: events out of time order\n");
		rc = -1;
	}
	free(s.cpu_last);
	free(s.rt);
	free(s.comm);
	return rc < 0;
}
