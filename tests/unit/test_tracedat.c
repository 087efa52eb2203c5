/* tests/unit/test_tracedat.c - the trace.dat reader on small files: a
 * recording made here (tests/fuzz/corpus/tracedat/rec-v6.dat, its v7 zstd
 * conversion by `trace-cmd convert`, a cut copy, fuzz crashers) and, when
 * ../shared is there, the 32-bit-long trappy file. Expected values are from
 * `trace-cmd report -N -t` / `-l` on the same files (quoted beside them). */
#include "harness.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../collector/event.h"

extern const struct sl_reader sl_reader_tracedat;

#define CORPUS "tests/fuzz/corpus/tracedat/"

struct got {
	unsigned n[SL_EV_NTYPES];
	unsigned total, stop_after;
	int order_ok;
	uint64_t last_ts;
	struct sl_event first[SL_EV_NTYPES]; /* first event of each type */
	char warn[512];
	int nwarn;
	unsigned state[128]; /* switches by prev_state letter */
	uint64_t cut_at;     /* SL_EV_CUT's pos, 0 if none */
};

static int on_ev(void *ctx, const struct sl_event *ev)
{
	struct got *g = ctx;
	if (ev->type == SL_EV_CUT) { /* after the last event: where the file was cut */
		g->cut_at = ev->pos;
		return 0;
	}
	if (ev->ts < g->last_ts)
		g->order_ok = 0;
	g->last_ts = ev->ts;
	if (ev->type == SL_EV_SWITCH)
		g->state[(unsigned char)ev->state & 127]++;
	if (ev->type < SL_EV_NTYPES) {
		if (!g->n[ev->type])
			g->first[ev->type] = *ev;
		g->n[ev->type]++;
	}
	g->total++;
	return g->stop_after && g->total >= g->stop_after ? -1 : 0;
}

static void on_warn(void *ctx, const char *msg)
{
	struct got *g = ctx;
	if (!g->nwarn++)
		snprintf(g->warn, sizeof(g->warn), "%s", msg);
}

static int rd(const char *path, struct got *g, struct sl_diag *d)
{
	memset(g, 0, sizeof(*g));
	memset(d, 0, sizeof(*d));
	g->order_ok = 1;
	d->warn = on_warn;
	d->warn_ctx = g;
	return sl_reader_tracedat.read(path, on_ev, g, d);
}

SL_TEST(tracedat_probe_by_magic)
{
	/* trace-cmd.dat(5): 0x17 0x08 0x44 "tracing" */
	static const unsigned char dat[] = "\x17\x08\x44tracing6";
	CHECK_EQ_INT(sl_reader_tracedat.probe(dat, 12), 100);
	CHECK_EQ_INT(sl_reader_tracedat.probe((const unsigned char *)"# tracer: nop\n", 14), 0);
	CHECK_EQ_INT(sl_reader_tracedat.probe(dat, 5), 0);
}

/* `trace-cmd report` on rec-v6.dat counts 29 sched_switch, 19 sched_wakeup,
 * 19 sched_waking, 1 each of wakeup_new/fork/exec/exit, 3 migrate_task. */
static void check_rec_counts(const struct got *g)
{
	CHECK_EQ_INT(g->n[SL_EV_SWITCH], 29);
	CHECK_EQ_INT(g->n[SL_EV_WAKEUP], 19);
	CHECK_EQ_INT(g->n[SL_EV_WAKING], 19);
	CHECK_EQ_INT(g->n[SL_EV_WAKEUP_NEW], 1);
	CHECK_EQ_INT(g->n[SL_EV_FORK], 1);
	CHECK_EQ_INT(g->n[SL_EV_EXEC], 1);
	CHECK_EQ_INT(g->n[SL_EV_EXIT], 1);
	CHECK_EQ_INT(g->n[SL_EV_MIGRATE], 3);
	CHECK_EQ_INT(g->n[SL_EV_LOST], 0);
	CHECK(g->order_ok);
}

SL_TEST(tracedat_v6_recording_fields)
{
	struct got g;
	struct sl_diag d;
	const struct sl_event *e;

	CHECK_EQ_INT(rd(CORPUS "rec-v6.dat", &g, &d), 0);
	check_rec_counts(&g);
	CHECK_EQ_INT(g.nwarn, 0);
	/* <idle>-0 [000] 1286.897963533: sched_switch: prev_comm=swapper/0
	 * prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=schedlab
	 * next_pid=10833 next_prio=120 (the first switch) */
	e = &g.first[SL_EV_SWITCH];
	CHECK_EQ_INT(e->ts, 1286897963533ULL);
	CHECK_EQ_INT(e->cpu, 0);
	CHECK_EQ_INT(e->pid, 0);
	CHECK(!strcmp(e->comm, "swapper/0"));
	CHECK_EQ_INT(e->prio, 120);
	CHECK_EQ_INT(e->state, 'R');
	CHECK_EQ_INT(e->pid2, 10833);
	CHECK(!strcmp(e->comm2, "schedlab"));
	CHECK_EQ_INT(e->prio2, 120);
	CHECK_EQ_INT(e->cur_pid, 0);
	CHECK_EQ_INT(e->ctx, SL_CTX_KNOWN); /* flags column "d..2." : no irq */
	/* schedlab-10832 [001] 1286.897920840: sched_process_fork: comm=schedlab
	 * pid=10832 child_comm=schedlab child_pid=10833; it is the file's first
	 * event, at byte 28688 (CPU 1's data starts at 28672, + 16 page header) */
	e = &g.first[SL_EV_FORK];
	CHECK_EQ_INT(e->ts, 1286897920840ULL);
	CHECK_EQ_INT(e->pid, 10832);
	CHECK_EQ_INT(e->pid2, 10833);
	CHECK_EQ_INT(e->pos, 28688);
	/* true-10833 [001] 1286.899548170: sched_process_exec:
	 * filename=/usr/bin/true pid=10833 -> comm is the basename */
	e = &g.first[SL_EV_EXEC];
	CHECK_EQ_INT(e->pid, 10833);
	CHECK(!strcmp(e->comm, "true"));
	/* schedlab-10832 [001] 1286.897927945: sched_wakeup_new: comm=schedlab
	 * pid=10833 prio=120 target_cpu=000 */
	e = &g.first[SL_EV_WAKEUP_NEW];
	CHECK_EQ_INT(e->pid, 10833);
	CHECK_EQ_INT(e->target_cpu, 0);
	CHECK_EQ_INT(e->cur_pid, 10832);
	CHECK(!strcmp(e->cur_comm, "schedlab"));
}

SL_TEST(tracedat_v7_zstd_same_events)
{
	/* `trace-cmd convert --file-version 7 --compression any` of rec-v6.dat */
	struct got g;
	struct sl_diag d;
	CHECK_EQ_INT(rd(CORPUS "rec-v7-zstd.dat", &g, &d), 0);
	check_rec_counts(&g);
	CHECK_EQ_INT(g.first[SL_EV_SWITCH].ts, 1286897963533ULL);
}

SL_TEST(tracedat_cut_file_reads_whole_part)
{
	/* rec-v6.dat cut at 30000 bytes: CPU 1's data starts at 28672 and is
	 * 8192 bytes, so no whole page of it is left; CPU 0 is whole. trace-cmd
	 * report on the whole file has 18 switches on CPU 0. */
	struct got g;
	struct sl_diag d;
	CHECK_EQ_INT(rd(CORPUS "rec-v6-cut.dat", &g, &d), 0);
	CHECK_EQ_INT(g.nwarn, 1);
	CHECK(strstr(g.warn, "rec-v6-cut.dat:28672: file cut short") != NULL);
	CHECK_EQ_INT(g.cut_at, 28672); /* the cut, for trace.cut_at: where the warning says */
	CHECK_EQ_INT(g.n[SL_EV_SWITCH], 18);
	CHECK(g.order_ok);
}

SL_TEST(tracedat_header_cut_is_an_error_with_offset)
{
	char path[] = "/tmp/sl-td-XXXXXX";
	struct got g;
	struct sl_diag d;
	char buf[200];
	int fd = mkstemp(path), in = open(CORPUS "rec-v6.dat", O_RDONLY);
	CHECK(fd >= 0 && in >= 0);
	CHECK_EQ_INT(read(in, buf, sizeof(buf)), (long)sizeof(buf));
	CHECK_EQ_INT(write(fd, buf, sizeof(buf)), (long)sizeof(buf));
	close(in);
	close(fd);
	/* 200 bytes hold the magic and part of header_page, whose size field
	 * (at 26) says more than is there */
	CHECK_EQ_INT(rd(path, &g, &d), -1);
	CHECK(strncmp(d.msg, path, strlen(path)) == 0);
	CHECK(strstr(d.msg, "runs past the end of the file") != NULL);
	CHECK_EQ_INT(g.total, 0);
	unlink(path);
	CHECK_EQ_INT(rd("/nonexistent/trace.dat", &g, &d), -1);
	CHECK(strstr(d.msg, "/nonexistent/trace.dat: No such file") != NULL);
}

SL_TEST(tracedat_corrupt_files_never_crash)
{
	/* fuzz crashers: libtracecmd dies on them (NULL in its clean-up, a read
	 * past a page); the reader must come back with 0 or -1 and a message */
	static const char *const f[] = { "v6-libtracecmd-close-null.dat", "v6-kbuffer-crash.dat",
					  "v7-open-crash.dat", "v7-chunkcount.dat", "v6-huge-size.dat" };
	size_t i;
	for (i = 0; i < SL_ARRAY_SIZE(f); i++) {
		char p[256];
		struct got g;
		struct sl_diag d;
		int rc;
		snprintf(p, sizeof(p), CORPUS "%s", f[i]);
		rc = rd(p, &g, &d);
		CHECK(rc == 0 || rc == -1);
		if (rc < 0)
			CHECK(strncmp(d.msg, p, strlen(p)) == 0);
		CHECK(g.order_ok);
	}
}

SL_TEST(tracedat_callback_stops_reading)
{
	struct got g;
	struct sl_diag d;
	memset(&g, 0, sizeof(g));
	memset(&d, 0, sizeof(d));
	g.order_ok = 1;
	g.stop_after = 5;
	CHECK_EQ_INT(sl_reader_tracedat.read(CORPUS "rec-v6.dat", on_ev, &g, &d), -1);
	CHECK_EQ_INT(g.total, 5);
}

SL_TEST(tracedat_32bit_long_old_kernel_states)
{
	/* trappy-hmp-8cpu-dat: 32-bit long, prev_state an int-size "long" at
	 * offset 32 and TASK_STATE_MAX 1024 as the preempt bit.
	 * `trace-cmd report -l`: "trace-cm-4806 0dNs8. 164.684752: sched_wakeup:
	 * FastMixer:2688 [96] success=1 CPU:000" (s = softirq) and
	 * "164.684806: sched_switch: trace-cmd:4806 [120] R ==> FastMixer:2688
	 * [96]"; -N shows that state as "R+" (preempted). 826 switches, 415
	 * wakeups; the prev_state letters over the file: 413 R, 394 S, 18 D, 1 x. */
	const char *sh = getenv("SHARED");
	char p[512];
	struct got g;
	struct sl_diag d;
	snprintf(p, sizeof(p), "%s/traces/trappy-hmp-8cpu-dat/trace.dat", sh ? sh : "../shared");
	if (access(p, R_OK))
		SKIP("trappy trace.dat not found");
	CHECK_EQ_INT(rd(p, &g, &d), 0);
	CHECK_EQ_INT(g.n[SL_EV_SWITCH], 826);
	CHECK_EQ_INT(g.n[SL_EV_WAKEUP], 415);
	CHECK_EQ_INT(g.first[SL_EV_WAKEUP].ts, 164684751643ULL);
	CHECK_EQ_INT(g.first[SL_EV_WAKEUP].pid, 2688);
	CHECK_EQ_INT(g.first[SL_EV_WAKEUP].prio, 96);
	CHECK_EQ_INT(g.first[SL_EV_WAKEUP].ctx, SL_CTX_KNOWN | SL_CTX_SOFTIRQ);
	CHECK_EQ_INT(g.first[SL_EV_SWITCH].pid, 4806);
	CHECK_EQ_INT(g.first[SL_EV_SWITCH].state, 'R');
	CHECK_EQ_INT(g.first[SL_EV_SWITCH].pid2, 2688);
	CHECK_EQ_INT(g.state['R'], 413);
	CHECK_EQ_INT(g.state['S'], 394);
	CHECK_EQ_INT(g.state['D'], 18);
	CHECK_EQ_INT(g.state['X'], 1);
	CHECK(g.order_ok);
}
