/* tests/unit/test_systrace.c - the systrace HTML reader on small HTML files
 * written here in both forms. The expected fields are read off the ftrace
 * lines embedded in them (quoted beside the checks). */
#include "harness.h"

#include <stdlib.h>
#include <unistd.h>

#include "../../collector/event.h"

extern const struct sl_reader sl_reader_systrace;

struct sg {
	unsigned n[SL_EV_NTYPES];
	struct sl_event ev[16];
	unsigned total;
	int nwarn;
	char warn[512];
};

static int on_ev(void *ctx, const struct sl_event *ev)
{
	struct sg *g = ctx;
	if (g->total < SL_ARRAY_SIZE(g->ev))
		g->ev[g->total] = *ev;
	g->total++;
	if (ev->type < SL_EV_NTYPES)
		g->n[ev->type]++;
	return 0;
}

static void on_warn(void *ctx, const char *msg)
{
	struct sg *g = ctx;
	if (!g->nwarn++)
		snprintf(g->warn, sizeof(g->warn), "%s", msg);
}

/* Write text to a temporary file, read it; the file is removed. */
static int rd_text(const char *text, struct sg *g, struct sl_diag *d, char *path, size_t plen)
{
	char tmpl[] = "/tmp/sl-systrace-XXXXXX";
	int fd = mkstemp(tmpl), rc;
	size_t n = strlen(text);
	memset(g, 0, sizeof(*g));
	memset(d, 0, sizeof(*d));
	d->warn = on_warn;
	d->warn_ctx = g;
	if (fd < 0 || write(fd, text, n) != (ssize_t)n)
		return -2;
	close(fd);
	snprintf(path, plen, "%s", tmpl);
	rc = sl_reader_systrace.read(tmpl, on_ev, g, d);
	unlink(tmpl);
	return rc;
}

static const char legacy[] =
	"<!DOCTYPE html>\n<html>\n<head><script>var x = linuxPerfData;</script></head>\n"
	"<body>\n  <script>\n  var linuxPerfData = \"\\\n"
	"# tracer: nop\\n\\\n"
	"#           TASK-PID    CPU#    TIMESTAMP  FUNCTION\\n\\\n"
	"          atrace-14662 [000] 50260.647576: sched_switch: prev_comm=atrace prev_pid=14662 prev_prio=120 prev_state=S ==> next_comm=kworker/0:0 next_pid=13696 next_prio=120\\n\\\n"
	"  SurfaceFlinger-236   [001] 50260.647500: sched_wakeup: comm=atrace pid=14662 prio=120 success=1 target_cpu=000\\n\\\n"
	"  SurfaceFlinger-236   [001] 50260.647620: 0: B|124|\\\"quoted\\\"\\n\\\n"
	"           dummy-0000  [000] 0.0: 0: trace_event_clock_sync: parent_ts=0.0\\n\";\n"
	"  </script>\n</body>\n</html>\n";

SL_TEST(systrace_probe)
{
	CHECK_EQ_INT(sl_reader_systrace.probe((const unsigned char *)legacy, strlen(legacy)), 95);
	CHECK_EQ_INT(sl_reader_systrace.probe((const unsigned char *)"# tracer: nop\n", 14), 0);
	CHECK_EQ_INT(sl_reader_systrace.probe((const unsigned char *)"\x17\x08\x44tracing", 10), 0);
}

SL_TEST(systrace_legacy_js_string)
{
	/* Two sched lines, out of time order across CPUs: the wakeup at
	 * 50260.647500 (line 10) comes out before the switch at 50260.647576
	 * (line 9). The viewer's own "linuxPerfData;" on line 3 is not data. */
	struct sg g;
	struct sl_diag d;
	char p[64];
	CHECK_EQ_INT(rd_text(legacy, &g, &d, p, sizeof(p)), 0);
	CHECK_EQ_INT(g.total, 2);
	CHECK_EQ_INT(g.ev[0].type, SL_EV_WAKEUP);
	CHECK_EQ_INT(g.ev[0].ts, 50260647500000ULL);
	CHECK_EQ_INT(g.ev[0].pid, 14662);
	CHECK_EQ_INT(g.ev[0].target_cpu, 0);
	CHECK_EQ_INT(g.ev[0].pos, 10);
	CHECK_EQ_INT(g.ev[1].type, SL_EV_SWITCH);
	CHECK_EQ_INT(g.ev[1].ts, 50260647576000ULL);
	CHECK_EQ_INT(g.ev[1].pid, 14662);
	CHECK(!strcmp(g.ev[1].comm, "atrace"));
	CHECK_EQ_INT(g.ev[1].state, 'S');
	CHECK_EQ_INT(g.ev[1].pid2, 13696);
	CHECK(!strcmp(g.ev[1].comm2, "kworker/0:0"));
	CHECK_EQ_INT(g.ev[1].pos, 9);
	CHECK_EQ_INT(g.nwarn, 0);
}

static const char modern[] =
	"<!DOCTYPE html>\n<html>\n<head></head><body>\n"
	"  <script class=\"trace-data\" type=\"application/text\">\n"
	"# tracer: nop\n"
	"#\n"
	"<7952>-7952  (-----) [000] d..3   538.064918: sched_switch: prev_comm=atrace prev_pid=7952 prev_prio=120 prev_state=R ==> next_comm=kworker/u16:11 next_pid=682 next_prio=120\n"
	"kworker/u16:7-347 ( 347) [004] dnh6   538.802714: sched_wakeup: comm=sugov:4 pid=5860 prio=49 target_cpu=004\n"
	"  </script>\n"
	"  <script class=\"trace-data\" type=\"application/text\">\n"
	"{\"traceEvents\": [{\"name\": \"x: sched_switch: prev_pid=1\"}]}  </script>\n"
	"</body></html>\n";

SL_TEST(systrace_trace_data_block_with_tgid_column)
{
	/* the JSON block after it is skipped, not parsed as ftrace text */
	struct sg g;
	struct sl_diag d;
	char p[64];
	CHECK_EQ_INT(rd_text(modern, &g, &d, p, sizeof(p)), 0);
	CHECK_EQ_INT(g.total, 2);
	CHECK_EQ_INT(g.ev[0].type, SL_EV_SWITCH);
	CHECK_EQ_INT(g.ev[0].ts, 538064918000ULL);
	CHECK_EQ_INT(g.ev[0].pid, 7952);
	CHECK_EQ_INT(g.ev[0].state, 'R');
	CHECK_EQ_INT(g.ev[0].pid2, 682);
	CHECK_EQ_INT(g.ev[0].cur_pid, 7952);
	CHECK_EQ_INT(g.ev[0].pos, 7);
	/* "dnh6": hardirq context */
	CHECK_EQ_INT(g.ev[1].type, SL_EV_WAKEUP);
	CHECK_EQ_INT(g.ev[1].pid, 5860);
	CHECK_EQ_INT(g.ev[1].prio, 49);
	CHECK_EQ_INT(g.ev[1].target_cpu, 4);
	CHECK_EQ_INT(g.ev[1].cpu, 4);
	CHECK(g.ev[1].ctx & SL_CTX_HARDIRQ);
	CHECK_EQ_INT(g.ev[1].cur_tgid, 347);
}

SL_TEST(systrace_errors_and_cut_files)
{
	struct sg g;
	struct sl_diag d;
	char p[64], cut[sizeof(modern)];
	char *end;

	/* HTML without trace data */
	CHECK_EQ_INT(rd_text("<html><body>hello</body></html>\n", &g, &d, p, sizeof(p)), -1);
	CHECK(strstr(d.msg, "no systrace trace data") != NULL);
	CHECK(strncmp(d.msg, p, strlen(p)) == 0);
	/* cut inside the block, after the first sched line: a warning naming
	 * the last line (7), and the whole line is kept */
	memcpy(cut, modern, sizeof(modern));
	end = strstr(cut, "kworker/u16:7");
	*end = 0;
	CHECK_EQ_INT(rd_text(cut, &g, &d, p, sizeof(p)), 0);
	CHECK_EQ_INT(g.total, 1);
	CHECK_EQ_INT(g.nwarn, 1);
	CHECK(strstr(g.warn, ":7: file ends inside the trace data") != NULL);
	/* a broken sched line is an error with its HTML line number */
	CHECK_EQ_INT(rd_text("<html>\n<script class=\"trace-data\">\n"
			     "a-1 [000] 5.000001: sched_switch: prev_comm=a prev_pid=x\n</script>\n",
			     &g, &d, p, sizeof(p)), -1);
	CHECK(strstr(d.msg, ":3: ") != NULL);
}

SL_TEST(systrace_crlf_line_ends)
{
	/* the legacy file with every "\n" made "\r\n" (an editor on Windows):
	 * the same two events */
	static char crlf[2 * sizeof(legacy)];
	struct sg g;
	struct sl_diag d;
	char p[64];
	size_t i, n = 0;
	for (i = 0; legacy[i]; i++) {
		if (legacy[i] == '\n')
			crlf[n++] = '\r';
		crlf[n++] = legacy[i];
	}
	crlf[n] = 0;
	CHECK_EQ_INT(rd_text(crlf, &g, &d, p, sizeof(p)), 0);
	CHECK_EQ_INT(g.total, 2);
	CHECK_EQ_INT(g.ev[1].pid2, 13696);
	CHECK(!strcmp(g.ev[1].comm2, "kworker/0:0"));
}
