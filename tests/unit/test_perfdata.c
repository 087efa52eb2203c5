/* tests/unit/test_perfdata.c - the perf.data reader on a file built here
 * byte by byte (so every expected value is known by construction), the
 * "preempted" bit taken from real kernels' sched_switch print formats, and
 * the perf script reader on hand-written lines. */
#include "harness.h"
#include "../../collector/event.h"
#include "../../collector/perfdata_priv.h"

#include <stdlib.h>
#include <unistd.h>

extern const struct sl_reader sl_reader_perfdata;
extern const struct sl_reader sl_reader_perfscript;

/* ---- print fmt -> TASK_REPORT_MAX ---- */

SL_TEST(perfdata_report_max_from_print_fmt)
{
	/* Linux 4.14 .. 6.18: TASK_REPORT is S|D|T|t|X|Z|P = 0x7f, and the
	 * "+" test is (TASK_REPORT + 1) << 1 = 0x100 (0x80 is I). */
	static const char k618[] =
		"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s\", "
		"REC->prev_comm, REC->prev_pid, REC->prev_prio, (REC->prev_state & ((((0x00000000 | "
		"0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | 0x00000020 | "
		"0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & ((((0x00000000 | "
		"0x00000001) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }) : \"R\", REC->prev_state & "
		"(((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
		"0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm";
	/* Linux 4.4: TASK_STATE_MAX = 4096 written as a decimal */
	static const char k44[] =
		"print fmt: \"...\", REC->prev_state & (4096-1) ? __print_flags(REC->prev_state & "
		"(4096-1), \"|\", { 1, \"S\"} , { 2, \"D\" }) : \"R\", REC->prev_state & 4096 ? \"+\" "
		": \"\", REC->next_comm";
	/* Linux 3.x: TASK_STATE_MAX = 1024 with a 1UL shift */
	static const char k3[] = "REC->prev_state & (1UL << 10) ? \"+\":\"\"";
	static const char none[] = "print fmt: \"prev_state=%ld\", REC->prev_state";
	char deep[3000];
	size_t i;

	CHECK_EQ_INT(pd_report_max_from_fmt(k618, sizeof(k618) - 1), 0x100);
	CHECK_EQ_INT(pd_report_max_from_fmt(k44, sizeof(k44) - 1), 4096);
	CHECK_EQ_INT(pd_report_max_from_fmt(k3, sizeof(k3) - 1), 1024);
	CHECK_EQ_INT(pd_report_max_from_fmt(none, sizeof(none) - 1), 0);
	/* hostile: 1400 open parens must not recurse without bound */
	memcpy(deep, "prev_state & ", 13);
	for (i = 13; i < 1413; i++)
		deep[i] = '(';
	memcpy(deep + 1413, "1 ? \"+\"", 7);
	CHECK_EQ_INT(pd_report_max_from_fmt(deep, 1420), 0);
	CHECK_EQ_INT(pd_report_max_from_fmt("prev_state & 1 << 99 ? \"+\"", 26), 0);
}

/* ---- a perf.data built by hand ---- */

struct bb {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct bb *b, const void *s, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 256;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}
static void p8(struct bb *b, uint8_t v) { put(b, &v, 1); }
static void p16(struct bb *b, uint16_t v) { put(b, &v, 2); }
static void p32(struct bb *b, uint32_t v) { put(b, &v, 4); }
static void p64(struct bb *b, uint64_t v) { put(b, &v, 8); }
static void set64(struct bb *b, size_t at, uint64_t v) { memcpy(b->p + at, &v, 8); }
static void set16(struct bb *b, size_t at, uint16_t v) { memcpy(b->p + at, &v, 2); }
static void pstr(struct bb *b, const char *s) { put(b, s, strlen(s) + 1); }
static void pzero(struct bb *b, size_t n) { while (n--) p8(b, 0); }

#define COMMON "format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char fmt_switch[] = "name: sched_switch\nID: 372\n" COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_state=%s%s\", REC->prev_comm, REC->prev_pid, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
	"0xff, \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }) : \"R\", REC->prev_state & "
	"(((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\"\n";
static const char fmt_waking[] = "name: sched_waking\nID: 375\n" COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, "
	"REC->target_cpu\n";
static const char fmt_exec[] = "name: sched_process_exec\nID: 365\n" COMMON
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"filename=%s pid=%d old_pid=%d\", __get_str(filename), REC->pid, REC->old_pid\n";

enum { ST = 1 << 16 | 1 | 2 | 4 | 1 << 7 | 1 << 8 | 1 << 10 }; /* IDENTIFIER|IP|TID|TIME|CPU|PERIOD|RAW */

/* sample header + fields up to RAW; returns offset of the record */
static size_t sample_start(struct bb *b, uint64_t id, int32_t tid, uint64_t ts, uint32_t cpu,
			   uint32_t rawsz)
{
	size_t at = b->n;
	p32(b, 9);
	p16(b, 0);
	p16(b, (uint16_t)(8 + 8 * 6 + 4 + rawsz));
	p64(b, id);
	p64(b, 0xffffffff81000000ULL); /* ip */
	p32(b, (uint32_t)tid);
	p32(b, (uint32_t)tid);
	p64(b, ts);
	p32(b, cpu);
	p32(b, 0);
	p64(b, 1); /* period */
	p32(b, rawsz);
	return at;
}

static void common(struct bb *b, uint16_t type, uint8_t flags, int32_t pid)
{
	p16(b, type);
	p8(b, flags);
	p8(b, 0);
	p32(b, (uint32_t)pid);
}

static void comm16(struct bb *b, const char *s)
{
	char c[16] = { 0 };
	memcpy(c, s, strlen(s));
	put(b, c, 16);
}

static size_t rec_switch(struct bb *b, uint64_t id, uint64_t ts, uint32_t cpu, int32_t prev,
			 const char *pc, int64_t state, int32_t next, const char *nc)
{
	size_t at = sample_start(b, id, prev, ts, cpu, 68);
	common(b, 372, 0x01, prev);
	comm16(b, pc);
	p32(b, (uint32_t)prev);
	p32(b, 120);
	p64(b, (uint64_t)state);
	comm16(b, nc);
	p32(b, (uint32_t)next);
	p32(b, next ? 120 : 120);
	p32(b, 0); /* pad to 8 */
	return at;
}

static size_t rec_waking(struct bb *b, uint64_t id, uint64_t ts, uint32_t cpu, int32_t cur,
			 uint8_t flags, int32_t pid, const char *c, int32_t target)
{
	size_t at = sample_start(b, id, cur, ts, cpu, 36);
	common(b, 375, flags, cur);
	comm16(b, c);
	p32(b, (uint32_t)pid);
	p32(b, 120);
	p32(b, (uint32_t)target);
	return at;
}

static void finished_round(struct bb *b)
{
	p32(b, 68);
	p16(b, 0);
	p16(b, 8);
}

/* COMM records for n_extra parents (tids 1000+i, comm "p<i>"), then their
 * FORK records (children 5000+i at time 500), at the start of round 1 */
static int n_extra;

static void extra_records(struct bb *b)
{
	int i;
	for (i = 0; i < n_extra; i++) {
		char c[16];
		memset(c, 0, sizeof(c));
		snprintf(c, sizeof(c), "p%d", i);
		p32(b, 3); /* COMM: pid, tid, comm[8], trailer */
		p16(b, 0);
		p16(b, 8 + 8 + 8 + 32);
		p32(b, (uint32_t)(1000 + i));
		p32(b, (uint32_t)(1000 + i));
		put(b, c, 8);
		pzero(b, 32); /* trailer: synthesized, time 0 */
	}
	for (i = 0; i < n_extra; i++) {
		p32(b, 7); /* FORK: pid, ppid, tid, ptid, time, trailer */
		p16(b, 0);
		p16(b, 8 + 24 + 32);
		p32(b, (uint32_t)(5000 + i));
		p32(b, (uint32_t)(1000 + i));
		p32(b, (uint32_t)(5000 + i));
		p32(b, (uint32_t)(1000 + i));
		p64(b, 500);
		p32(b, (uint32_t)(1000 + i));
		p32(b, (uint32_t)(1000 + i));
		p64(b, 500);
		p32(b, 0);
		p32(b, 0);
		p64(b, 101);
	}
}

/* Builds the file described in perfdata_built_file below; *last_rec is
 * the offset of its last record (a switch), *data_off the data section's. */
static void build(struct bb *b, size_t *last_rec, size_t *data_off)
{
	static const uint64_t ids[3][2] = { { 101, 102 }, { 201, 202 }, { 301, 0 } };
	static const uint64_t cfg[3] = { 372, 375, 365 };
	size_t ids_at, d, t, i;
	struct bb td = { 0 };

	memset(b, 0, sizeof(*b));
	put(b, "PERFILE2", 8);
	p64(b, 104);
	p64(b, 128 + 16);
	p64(b, 104);         /* attrs */
	p64(b, 3 * 144);
	p64(b, 0);           /* data, set below */
	p64(b, 0);
	p64(b, 0);           /* event types */
	p64(b, 0);
	p64(b, 2);           /* features: bit 1 = HEADER_TRACING_DATA */
	pzero(b, 24);
	ids_at = 104 + 3 * 144;
	for (i = 0; i < 3; i++) {
		size_t a = b->n;
		p32(b, 2);   /* PERF_TYPE_TRACEPOINT */
		p32(b, 128);
		p64(b, cfg[i]);
		p64(b, 1);
		p64(b, ST);
		p64(b, 4 | 16); /* read_format ID|LOST */
		p64(b, 1ULL << 18); /* sample_id_all */
		pzero(b, 128 - (b->n - a));
		p64(b, ids_at);
		p64(b, ids[i][1] ? 16 : 8);
		ids_at += ids[i][1] ? 16 : 8;
	}
	for (i = 0; i < 3; i++) {
		p64(b, ids[i][0]);
		if (ids[i][1])
			p64(b, ids[i][1]);
	}
	d = b->n;
	*data_off = d;
	/* round 1 */
	extra_records(b);
	rec_switch(b, 101, 1000, 0, 100, "a b", 0x100, 200, "w");
	rec_switch(b, 101, 3000, 0, 200, "w", 1, 0, "swapper/0");
	rec_waking(b, 202, 2000, 1, 300, 0x48, 200, "w", 0);
	finished_round(b);
	/* round 2 */
	rec_waking(b, 201, 2500, 1, 0, 0x10, 201, "v", 1); /* from idle */
	{
		const char *fn = "/usr/bin/some-long-program-name";
		uint32_t len = (uint32_t)strlen(fn) + 1, raw = 20 + len;
		raw += (8 - (4 + raw) % 8) % 8;
		sample_start(b, 301, 300, 3000, 1, raw);
		common(b, 365, 0, 300);
		p32(b, (len << 16) | 20);
		p32(b, 300);
		p32(b, 300);
		put(b, fn, len);
		pzero(b, raw - 20 - len);
	}
	/* PERF_RECORD_LOST: id, lost, then the sample_id_all trailer
	 * TID, TIME, ID?, CPU, IDENTIFIER (no ID bit in ST) */
	p32(b, 2);
	p16(b, 0);
	p16(b, 8 + 16 + 32);
	p64(b, 202);
	p64(b, 7);
	p32(b, 300);
	p32(b, 300);
	p64(b, 3500);
	p32(b, 1);
	p32(b, 0);
	p64(b, 202);
	finished_round(b);
	/* round 3: a sample of an unknown id, a COMM record, a switch */
	rec_waking(b, 999, 3600, 0, 5, 0, 5, "ghost", 0);
	p32(b, 3);
	p16(b, 0);
	p16(b, 8 + 8 + 8 + 32);
	p32(b, 300);
	p32(b, 300);
	put(b, "worker\0\0", 8);
	p32(b, 300);
	p32(b, 300);
	p64(b, 3600);
	p32(b, 1);
	p32(b, 0);
	p64(b, 202);
	*last_rec = rec_switch(b, 102, 4000, 1, 300, "worker", 2, 0, "swapper/1");
	set64(b, 40, d);
	set64(b, 48, b->n - d);
	/* feature table: one section, then the tracing data */
	t = b->n + 16;
	put(&td, "\027\010\104tracing", 10);
	pstr(&td, "0.6");
	p8(&td, 0);
	p8(&td, 8);
	p32(&td, 4096);
	pstr(&td, "header_page");
	p64(&td, 0);
	pstr(&td, "header_event");
	p64(&td, 0);
	p32(&td, 0); /* ftrace formats */
	p32(&td, 2); /* systems */
	pstr(&td, "irq");
	p32(&td, 1);
	p64(&td, 5);
	put(&td, "junk!", 5);
	pstr(&td, "sched");
	p32(&td, 3);
	p64(&td, sizeof(fmt_switch) - 1);
	put(&td, fmt_switch, sizeof(fmt_switch) - 1);
	p64(&td, sizeof(fmt_waking) - 1);
	put(&td, fmt_waking, sizeof(fmt_waking) - 1);
	p64(&td, sizeof(fmt_exec) - 1);
	put(&td, fmt_exec, sizeof(fmt_exec) - 1);
	p32(&td, 0); /* kallsyms */
	p32(&td, 0); /* printk */
	p64(&td, 0); /* saved cmdlines */
	p64(b, t);
	p64(b, td.n);
	put(b, td.p, td.n);
	free(td.p);
}

struct got {
	struct sl_event ev[16];
	int n;
	char warn[512];
	uint64_t cut_at; /* SL_EV_CUT's pos, 0 if none */
};

static int collect(void *ctx, const struct sl_event *ev)
{
	struct got *g = ctx;
	if (ev->type == SL_EV_CUT) { /* the file was cut short here (checked where it is) */
		g->cut_at = ev->pos;
		return 0;
	}
	if (g->n < 16)
		g->ev[g->n] = *ev;
	g->n++;
	return 0;
}

static void on_warn(void *ctx, const char *msg)
{
	struct got *g = ctx;
	snprintf(g->warn, sizeof(g->warn), "%s", msg);
}

static int run(const struct sl_reader *r, const void *data, size_t n, struct got *g,
	       struct sl_diag *d, char *path)
{
	int fd;
	snprintf(path, 64, "%s", "/tmp/sl-test-perf.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, data, n) != (ssize_t)n)
		return -2;
	close(fd);
	memset(g, 0, sizeof(*g));
	memset(d, 0, sizeof(*d));
	d->warn = on_warn;
	d->warn_ctx = g;
	fd = r->read(path, collect, g, d);
	unlink(path);
	return fd;
}

/* The file: three tracepoint attrs (switch ids 101/102, waking 201/202,
 * exec 301) recorded with perf sched record's sample_type, samples from two
 * CPUs interleaved out of order across three rounds. By construction the
 * reader must deliver, in time order (ties in file order):
 *   1000 switch cpu0 100 "a b" -> 200 "w", prev_state 0x100 = preempted 'R'
 *   2000 waking cpu1 of 200 "w" target 0, cur 300, flags 0x48 = hardirq+NMI
 *   2500 waking cpu1 of 201 "v" target 1, flags 0x10 = softirq, from the
 *        idle task (tid 0: cur_comm "swapper", as perf script shows it)
 *   3000 switch cpu0 200 -> 0, prev_state 1 = 'S'   (first in file of the 3000s)
 *   3000 exec cpu1 pid 300, basename cut to 15 chars: "some-long-progr"
 *   3500 lost 7 on cpu1 (PERF_RECORD_LOST, time and cpu from the trailer)
 *   4000 switch cpu1 300 -> 0, prev_state 2 = 'D', cur_comm "worker" (COMM)
 * and skip the sample whose id 999 no attr owns. */
SL_TEST(perfdata_built_file)
{
	struct bb b;
	struct got g;
	struct sl_diag d;
	char path[64];
	size_t last, doff;

	build(&b, &last, &doff);
	CHECK_EQ_INT(sl_reader_perfdata.probe(b.p, b.n), 100);
	CHECK_EQ_INT(run(&sl_reader_perfdata, b.p, b.n, &g, &d, path), 0);
	CHECK_EQ_INT(g.n, 7);
	if (g.n == 7) {
		CHECK_EQ_INT(g.ev[0].ts, 1000);
		CHECK_EQ_INT(g.ev[0].type, SL_EV_SWITCH);
		CHECK_EQ_INT(g.ev[0].pos, doff);
		CHECK_EQ_INT(g.ev[0].cpu, 0);
		CHECK_EQ_INT(g.ev[0].pid, 100);
		CHECK(!strcmp(g.ev[0].comm, "a b"));
		CHECK_EQ_INT(g.ev[0].state, 'R');
		CHECK_EQ_INT(g.ev[0].pid2, 200);
		CHECK(!strcmp(g.ev[0].comm2, "w"));
		CHECK_EQ_INT(g.ev[0].prio, 120);
		CHECK_EQ_INT(g.ev[0].ctx, SL_CTX_KNOWN);
		CHECK_EQ_INT(g.ev[1].ts, 2000);
		CHECK_EQ_INT(g.ev[1].type, SL_EV_WAKING);
		CHECK_EQ_INT(g.ev[1].pid, 200);
		CHECK_EQ_INT(g.ev[1].target_cpu, 0);
		CHECK_EQ_INT(g.ev[1].cur_pid, 300);
		CHECK_EQ_INT(g.ev[1].ctx, SL_CTX_KNOWN | SL_CTX_HARDIRQ | SL_CTX_NMI);
		CHECK_EQ_INT(g.ev[2].ts, 2500);
		CHECK_EQ_INT(g.ev[2].pid, 201);
		CHECK_EQ_INT(g.ev[2].ctx, SL_CTX_KNOWN | SL_CTX_SOFTIRQ);
		CHECK_EQ_INT(g.ev[2].cur_pid, 0);
		CHECK(!strcmp(g.ev[2].cur_comm, "swapper"));
		CHECK_EQ_INT(g.ev[3].ts, 3000);
		CHECK_EQ_INT(g.ev[3].type, SL_EV_SWITCH);
		CHECK_EQ_INT(g.ev[3].state, 'S');
		CHECK_EQ_INT(g.ev[4].ts, 3000);
		CHECK_EQ_INT(g.ev[4].type, SL_EV_EXEC);
		CHECK_EQ_INT(g.ev[4].pid, 300);
		CHECK(!strcmp(g.ev[4].comm, "some-long-progr"));
		CHECK_EQ_INT(g.ev[5].ts, 3500);
		CHECK_EQ_INT(g.ev[5].type, SL_EV_LOST);
		CHECK_EQ_INT(g.ev[5].count, 7);
		CHECK_EQ_INT(g.ev[5].cpu, 1);
		CHECK_EQ_INT(g.ev[6].ts, 4000);
		CHECK_EQ_INT(g.ev[6].state, 'D');
		CHECK_EQ_INT(g.ev[6].pos, last);
		CHECK(!strcmp(g.ev[6].cur_comm, "worker"));
	}
	CHECK_EQ_INT(g.warn[0], 0);

	/* the last record claims 64 bytes more than the data section holds:
	 * the six events before it arrive, with a warning naming its offset */
	set16(&b, last + 6, (uint16_t)(8 + 8 * 6 + 4 + 68 + 64));
	CHECK_EQ_INT(run(&sl_reader_perfdata, b.p, b.n, &g, &d, path), 0);
	CHECK_EQ_INT(g.n, 6);
	{
		char at[32];
		snprintf(at, sizeof(at), ":%zu: last record cut off", last);
		CHECK(strstr(g.warn, at) != NULL);
		CHECK_EQ_INT(g.cut_at, last); /* SL_EV_CUT at the same offset */
	}

	/* a record of size 0 is corrupt: FILE:OFFSET error */
	set16(&b, last + 6, 0);
	CHECK_EQ_INT(run(&sl_reader_perfdata, b.p, b.n, &g, &d, path), -1);
	{
		char at[128];
		snprintf(at, sizeof(at), "%s:%zu: record of size 0", path, last);
		CHECK(!strcmp(d.msg, at) || strstr(d.msg, at) != NULL);
	}
	/* big-endian magic: refused by name */
	memcpy(b.p, "2ELIFREP", 8);
	CHECK_EQ_INT(run(&sl_reader_perfdata, b.p, b.n, &g, &d, path), -1);
	CHECK(strstr(d.msg, "big-endian") != NULL);
	/* cut inside the header */
	memcpy(b.p, "PERFILE2", 8);
	CHECK_EQ_INT(run(&sl_reader_perfdata, b.p, 50, &g, &d, path), -1);
	CHECK(strstr(d.msg, ":50: file cut short") != NULL);
	free(b.p);
}

/* perf script lines in the forms perf prints; values read off the lines. */
SL_TEST(perfscript_line_forms)
{
	static const char txt[] =
		"# ========\n"
		"# captured on    : Thu Dec  3 08:26:00 2026\n"
		"          tick 0  9968 [000]  1242.436354196:       sched:sched_switch: "
		"prev_comm=tick 0 prev_pid=9968 prev_prio=120 prev_state=S ==> next_comm=hog-0 "
		"next_pid=9965 next_prio=120\n"
		"           hog-0  9960/9965  [001]  1242.440417:       sched:sched_waking: "
		"comm=tick 0 pid=9968 prio=120 target_cpu=001\n"
		"            perf  9961 [000] K      1242.500000: sched:sched_stat_runtime:        "
		"comm=perf pid=9961 runtime=33104 [ns]\n"
		"      a [1] b    12 [001]  1242.600000: sched:sched_switch: a [1] b:12 [120] R+ ==> "
		"swapper/1:0 [120]\n"
		"\tffffffff81000000 do_syscall_64+0x5 ([kernel.kallsyms])\n"
		"\n";
	struct got g;
	struct sl_diag d;
	char path[64];

	CHECK_EQ_INT(sl_reader_perfscript.probe((const unsigned char *)txt, sizeof(txt) - 1), 75);
	CHECK_EQ_INT(sl_reader_perfdata.probe((const unsigned char *)txt, sizeof(txt) - 1), 0);
	CHECK_EQ_INT(run(&sl_reader_perfscript, txt, sizeof(txt) - 1, &g, &d, path), 0);
	CHECK_EQ_INT(g.n, 4);
	if (g.n != 4)
		return;
	/* line 5: sched_stat_runtime of perf (9961), 33104 ns */
	CHECK_EQ_INT(g.ev[2].type, SL_EV_RUNTIME);
	CHECK_EQ_INT(g.ev[2].pid, 9961);
	CHECK_EQ_INT(g.ev[2].count, 33104);
	memmove(&g.ev[2], &g.ev[3], sizeof(g.ev[2]));
	CHECK_EQ_INT(g.ev[0].ts, 1242436354196ULL);
	CHECK_EQ_INT(g.ev[0].pos, 3);
	CHECK_EQ_INT(g.ev[0].cpu, 0);
	CHECK_EQ_INT(g.ev[0].cur_pid, 9968);
	CHECK(!strcmp(g.ev[0].cur_comm, "tick 0"));
	CHECK(!strcmp(g.ev[0].comm, "tick 0"));
	CHECK_EQ_INT(g.ev[0].pid, 9968);
	CHECK_EQ_INT(g.ev[0].state, 'S');
	CHECK_EQ_INT(g.ev[0].pid2, 9965);
	CHECK_EQ_INT(g.ev[1].ts, 1242440417000ULL);
	CHECK_EQ_INT(g.ev[1].type, SL_EV_WAKING);
	CHECK_EQ_INT(g.ev[1].cur_pid, 9965);
	CHECK_EQ_INT(g.ev[1].cur_tgid, 9960);
	CHECK_EQ_INT(g.ev[1].target_cpu, 1);
	CHECK_EQ_INT(g.ev[2].pos, 6);
	CHECK_EQ_INT(g.ev[2].cur_pid, 12);
	CHECK(!strcmp(g.ev[2].cur_comm, "a [1] b"));
	CHECK(!strcmp(g.ev[2].comm, "a [1] b"));
	CHECK_EQ_INT(g.ev[2].state, 'R');
	CHECK_EQ_INT(g.ev[2].pid2, 0);
	{ /* perf script -F comm,tid,time,event,trace: no CPU, refused by name */
		static const char nocpu[] = "            perf  9961  1242.426014:       "
					    "sched:sched_waking: comm=migration/0 pid=18 prio=0 "
					    "target_cpu=000\n";
		CHECK_EQ_INT(run(&sl_reader_perfscript, nocpu, sizeof(nocpu) - 1, &g, &d, path), -1);
		CHECK(strstr(d.msg, ":1: a sched event line without the [CPU] column") != NULL);
	}
}

/* 300 parents' COMM records then their FORK records (no fork tracepoint was
 * recorded, so PERF_RECORD_FORK becomes SL_EV_FORK): the tid -> comm table
 * (256 slots, doubled at half full) grows at the 513th tid, a child's, in
 * the middle of copying its parent's comm; every fork must come
 * out at time 500 (before the first sample at 1000) with the child named
 * after its parent. */
SL_TEST(perfdata_fork_records_grow_comm_table)
{
	struct bb b;
	struct got g;
	struct sl_diag d;
	char path[64];
	size_t last, doff;
	int i, nfork = 0, bad = 0;

	n_extra = 300;
	build(&b, &last, &doff);
	n_extra = 0;
	CHECK_EQ_INT(run(&sl_reader_perfdata, b.p, b.n, &g, &d, path), 0);
	CHECK_EQ_INT(g.n, 307);
	/* g keeps only the first 16: they are forks 0..15 in file order */
	for (i = 0; i < 16 && i < g.n; i++) {
		char want[16];
		snprintf(want, sizeof(want), "p%d", i);
		if (g.ev[i].type == SL_EV_FORK && g.ev[i].ts == 500 && g.ev[i].pid == 1000 + i &&
		    g.ev[i].pid2 == 5000 + i && !strcmp(g.ev[i].comm2, want))
			nfork++;
		else
			bad++;
	}
	CHECK_EQ_INT(nfork, 16);
	CHECK_EQ_INT(bad, 0);
	free(b.p);
}
