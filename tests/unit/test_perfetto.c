/* tests/unit/test_perfetto.c - the Perfetto reader on a trace built here
 * field by field, so every expected value is known by construction. */
#include "harness.h"
#include "../../collector/event.h"

#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>

extern const struct sl_reader sl_reader_perfetto;

struct pbuf {
	uint8_t b[4096];
	size_t n;
};

static void vint(struct pbuf *p, uint64_t v)
{
	while (v >= 0x80) {
		p->b[p->n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p->b[p->n++] = (uint8_t)v;
}
static void fv(struct pbuf *p, uint32_t f, uint64_t v) { vint(p, (uint64_t)f << 3); vint(p, v); }
static void fb(struct pbuf *p, uint32_t f, const void *s, size_t n)
{
	vint(p, (uint64_t)f << 3 | 2);
	vint(p, n);
	memcpy(p->b + p->n, s, n);
	p->n += n;
}
static void fs(struct pbuf *p, uint32_t f, const char *s) { fb(p, f, s, strlen(s)); }
static void fm(struct pbuf *p, uint32_t f, const struct pbuf *m) { fb(p, f, m->b, m->n); }
/* packed repeated varints */
static void fp(struct pbuf *p, uint32_t f, const uint64_t *v, size_t n)
{
	struct pbuf t = { { 0 }, 0 };
	size_t i;
	for (i = 0; i < n; i++)
		vint(&t, v[i]);
	fm(p, f, &t);
}

struct got {
	struct sl_event ev[16];
	int n;
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

/* The trace (two bundles; times are absolute after the delta decoding):
 *   cpu 0 compact: switches at 100 (-> 10 "a" prio 120) and 200 (prev_state
 *     1, -> 20 "b" prio 110); a waking at 150 of 30 "c" target 1, flags 0x08
 *   cpu 1 compact: switches at 120 (-> 30 "c") and 180 (prev_state 0x100,
 *     -> 0 "swapper/1"); a full sched_process_fork at 130, common_pid 30,
 *     parent 30 "c", child 31 "c"
 * Expected, in time order: 100 cpu0 switch prev unknown (-1) -> 10;
 * 120 cpu1 switch prev -1 -> 30; 130 fork 30 -> 31 (cur 30);
 * 150 waking of 30 with cur 10 (running on cpu 0 since 100), ctx hardirq;
 * 180 cpu1 switch 30 "c" R -> 0; 200 cpu0 switch 10 "a" S -> 20 "b". */
SL_TEST(perfetto_compact_sched)
{
	struct pbuf trace = { { 0 }, 0 }, pkt, bun, cs, ev, fork;
	static const uint64_t sw0_ts[] = { 100, 100 }, sw0_st[] = { 0, 1 }, sw0_pid[] = { 10, 20 },
			      sw0_prio[] = { 120, 110 }, sw0_ci[] = { 0, 1 };
	static const uint64_t wk_ts[] = { 150 }, wk_pid[] = { 30 }, wk_cpu[] = { 1 },
			      wk_prio[] = { 120 }, wk_ci[] = { 2 }, wk_fl[] = { 0x08 };
	static const uint64_t sw1_ts[] = { 120, 60 }, sw1_st[] = { 0, 0x100 }, sw1_pid[] = { 30, 0 },
			      sw1_prio[] = { 120, 120 }, sw1_ci[] = { 0, 1 };
	struct got g = { .n = 0 };
	struct sl_diag d;
	char path[64];
	int fd, rc;

	/* bundle cpu 0 */
	memset(&cs, 0, sizeof(cs));
	fs(&cs, 5, "a");
	fs(&cs, 5, "b");
	fs(&cs, 5, "c");
	fp(&cs, 1, sw0_ts, 2);
	fp(&cs, 2, sw0_st, 2);
	fp(&cs, 3, sw0_pid, 2);
	fp(&cs, 4, sw0_prio, 2);
	fp(&cs, 6, sw0_ci, 2);
	fp(&cs, 7, wk_ts, 1);
	fp(&cs, 8, wk_pid, 1);
	fp(&cs, 9, wk_cpu, 1);
	fp(&cs, 10, wk_prio, 1);
	fp(&cs, 11, wk_ci, 1);
	fp(&cs, 12, wk_fl, 1);
	memset(&bun, 0, sizeof(bun));
	fv(&bun, 1, 0);
	fm(&bun, 4, &cs);
	memset(&pkt, 0, sizeof(pkt));
	fm(&pkt, 1, &bun);
	fm(&trace, 1, &pkt);
	/* bundle cpu 1: the full event first, the cpu field last */
	memset(&fork, 0, sizeof(fork));
	fs(&fork, 1, "c");
	fv(&fork, 2, 30);
	fs(&fork, 3, "c");
	fv(&fork, 4, 31);
	memset(&ev, 0, sizeof(ev));
	fv(&ev, 1, 130);
	fv(&ev, 2, 30);
	fm(&ev, 239, &fork);
	memset(&cs, 0, sizeof(cs));
	fs(&cs, 5, "c");
	fs(&cs, 5, "swapper/1");
	fp(&cs, 1, sw1_ts, 2);
	fp(&cs, 2, sw1_st, 2);
	fp(&cs, 3, sw1_pid, 2);
	fp(&cs, 4, sw1_prio, 2);
	fp(&cs, 6, sw1_ci, 2);
	memset(&bun, 0, sizeof(bun));
	fm(&bun, 2, &ev);
	fm(&bun, 4, &cs);
	fv(&bun, 1, 1);
	memset(&pkt, 0, sizeof(pkt));
	fv(&pkt, 10, 7); /* trusted_packet_sequence_id, ignored */
	fm(&pkt, 1, &bun);
	fm(&trace, 1, &pkt);

	CHECK_EQ_INT(sl_reader_perfetto.probe(trace.b, trace.n), 80);
	CHECK_EQ_INT(sl_reader_perfetto.probe((const unsigned char *)"# tracer: nop\n", 14), 0);
	snprintf(path, sizeof(path), "%s", "/tmp/sl-test-pfto.XXXXXX");
	fd = mkstemp(path);
	CHECK(fd >= 0 && write(fd, trace.b, trace.n) == (ssize_t)trace.n);
	close(fd);
	memset(&d, 0, sizeof(d));
	rc = sl_reader_perfetto.read(path, collect, &g, &d);
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(g.n, 6);
	if (g.n == 6) {
		CHECK_EQ_INT(g.ev[0].ts, 100);
		CHECK_EQ_INT(g.ev[0].cpu, 0);
		CHECK_EQ_INT(g.ev[0].pid, -1);
		CHECK_EQ_INT(g.ev[0].pid2, 10);
		CHECK(!strcmp(g.ev[0].comm2, "a"));
		CHECK_EQ_INT(g.ev[1].ts, 120);
		CHECK_EQ_INT(g.ev[1].cpu, 1);
		CHECK_EQ_INT(g.ev[1].pid2, 30);
		CHECK_EQ_INT(g.ev[2].ts, 130);
		CHECK_EQ_INT(g.ev[2].type, SL_EV_FORK);
		CHECK_EQ_INT(g.ev[2].pid, 30);
		CHECK_EQ_INT(g.ev[2].pid2, 31);
		CHECK_EQ_INT(g.ev[2].cur_pid, 30);
		CHECK(!strcmp(g.ev[2].comm2, "c"));
		CHECK_EQ_INT(g.ev[3].ts, 150);
		CHECK_EQ_INT(g.ev[3].type, SL_EV_WAKING);
		CHECK_EQ_INT(g.ev[3].pid, 30);
		CHECK_EQ_INT(g.ev[3].target_cpu, 1);
		CHECK_EQ_INT(g.ev[3].cur_pid, 10);
		CHECK(!strcmp(g.ev[3].cur_comm, "a"));
		CHECK_EQ_INT(g.ev[3].ctx, SL_CTX_KNOWN | SL_CTX_HARDIRQ);
		CHECK_EQ_INT(g.ev[4].ts, 180);
		CHECK_EQ_INT(g.ev[4].pid, 30);
		CHECK(!strcmp(g.ev[4].comm, "c"));
		CHECK_EQ_INT(g.ev[4].state, 'R');
		CHECK_EQ_INT(g.ev[4].pid2, 0);
		CHECK_EQ_INT(g.ev[5].ts, 200);
		CHECK_EQ_INT(g.ev[5].pid, 10);
		CHECK_EQ_INT(g.ev[5].prio, 120);
		CHECK_EQ_INT(g.ev[5].state, 'S');
		CHECK_EQ_INT(g.ev[5].pid2, 20);
		CHECK_EQ_INT(g.ev[5].prio2, 110);
	}
	/* cut inside the second packet: the first is imported, with a warning */
	fd = open(path, O_WRONLY | O_TRUNC);
	CHECK(fd >= 0 && write(fd, trace.b, trace.n - 3) == (ssize_t)(trace.n - 3));
	close(fd);
	g.n = 0;
	g.cut_at = 0;
	rc = sl_reader_perfetto.read(path, collect, &g, &d);
	CHECK_EQ_INT(rc, 0);
	CHECK_EQ_INT(g.n, 3);
	CHECK(g.cut_at > 0); /* told as SL_EV_CUT, after the events */
	unlink(path);
}
