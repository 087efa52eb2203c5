/* tests/unit/test_import.c - the import's one path (collector/import.h)
 * from bytes in memory and from a file. */
#include "harness.h"
#include "../../collector/import.h"
#include "../../collector/release.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rows {
	int n, n3ms;
	char st3ms;
};

static int on_slice(void *c, uint64_t ts, uint64_t dur, int cpu, int task, char st, int prio)
{
	struct rows *r = c;
	(void)ts, (void)cpu, (void)task, (void)prio;
	r->n++;
	if (dur == 3000000) {
		r->n3ms++;
		r->st3ms = st;
	}
	return 0;
}

static int on_wake(void *c, int task, uint64_t ts, uint64_t ts_run, int waker, int cpu)
{
	(void)c, (void)task, (void)ts, (void)ts_run, (void)waker, (void)cpu;
	return 0;
}

/* Two switches on CPU 0 given as bytes: b runs from 100.000000 s to
 * 100.003000 s and sleeps (S); so 2 events, 1 CPU, a span of 3 ms, and the
 * recorded run has b's 3 ms slice ending in S. */
SL_TEST(import_model_from_memory)
{
	static const char txt[] =
		"# tracer: nop\n"
		"            a-10    [000] d..2.   100.000000: sched_switch: prev_comm=a prev_pid=10 "
		"prev_prio=120 prev_state=R ==> next_comm=b next_pid=11 next_prio=120\n"
		"            b-11    [000] d..2.   100.003000: sched_switch: prev_comm=b prev_pid=11 "
		"prev_prio=120 prev_state=S ==> next_comm=a next_pid=10 next_prio=120\n";
	struct rows r = { 0, 0, 0 };
	struct sl_run_sink sink = { &r, on_slice, on_wake, NULL, NULL, NULL };
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_imported im;
	CHECK_EQ_INT(sl_import_model_mem(sl_reader_find("ftrace"), txt, sizeof(txt) - 1, &sink, &im, &d), 0);
	CHECK_EQ_INT(im.events, 2);
	CHECK_EQ_INT(im.ms.cpus, 1);
	CHECK_EQ_INT(im.ms.first_ts, 100000000000ULL);
	CHECK_EQ_INT(im.ms.last_ts, 100003000000ULL);
	CHECK_EQ_INT(r.n3ms, 1);
	CHECK_EQ_INT(r.st3ms, 'S');
	sl_imported_release(&im);
	/* no bytes: no events, an error naming the memory file (FILE:POS) */
	CHECK_EQ_INT(sl_import_model_mem(sl_reader_find("ftrace"), "", 0, &sink, &im, &d), -1);
	CHECK(strncmp(d.msg, "/proc/self/fd/", 14) == 0);
	CHECK(strstr(d.msg, ": no scheduler events") != NULL);
}

/* A bundled trace read from its file and from its bytes in memory gives
 * the same model: same events, tasks, slices, wakeups, span. */
SL_TEST(import_model_file_equals_memory)
{
	const char *path = "traces/local-2cpu-hogs.ftrace.txt";
	struct sl_run_sink sink = { NULL, on_slice, on_wake, NULL, NULL, NULL };
	struct rows r1 = { 0, 0, 0 }, r2 = { 0, 0, 0 };
	struct sl_diag d = { { 0 }, NULL, NULL };
	struct sl_imported a, b;
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	if (!f)
		SKIP("no traces/ here");
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	CHECK(buf && fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	sink.ctx = &r1;
	CHECK_EQ_INT(sl_import_model(sl_reader_find("ftrace"), path, &sink, NULL, NULL, &a, &d), 0);
	sink.ctx = &r2;
	CHECK_EQ_INT(sl_import_model_mem(sl_reader_find("ftrace"), buf, (size_t)n, &sink, &b, &d), 0);
	CHECK(a.events > 0);
	CHECK_EQ_INT(a.events, b.events);
	CHECK_EQ_INT(a.b.ntasks, b.b.ntasks);
	CHECK_EQ_INT(a.ms.slices, b.ms.slices);
	CHECK_EQ_INT(a.ms.wakeups, b.ms.wakeups);
	CHECK_EQ_INT(a.ms.first_ts, b.ms.first_ts);
	CHECK_EQ_INT(a.ms.last_ts, b.ms.last_ts);
	CHECK_EQ_INT(r1.n, r2.n);
	CHECK_EQ_INT(a.ms.cpus, 2); /* "#P:2" in the file's header */
	sl_imported_release(&a);
	sl_imported_release(&b);
	free(buf);
}

/* The model and the eevdf options of a kernel release (collector/release.c):
 * EEVDF from v6.6, CFS from v2.6.23, O(1) before; DELAY_DEQUEUE and
 * PLACE_REL_DEADLINE from v6.12, the 0.70 ms normalized slice from v6.15
 * (docs/eevdf.md "Releases"). */
SL_TEST(import_release_model_and_eevdf_options)
{
	CHECK_STR(sl_release_model("6.18.44-fc-v1252"), "eevdf");
	CHECK_STR(sl_release_model("6.6.0"), "eevdf");
	CHECK_STR(sl_release_model("6.5.13-generic"), "cfs");
	CHECK_STR(sl_release_model("2.6.23"), "cfs");
	CHECK_STR(sl_release_model("2.6.22.19"), "o1");
	CHECK_STR(sl_release_model("2.6.20"), "o1");
	CHECK_STR(sl_release_model("7.1.0"), "eevdf");
	CHECK(sl_release_model("unknown") == NULL);
	CHECK(sl_release_model("6") == NULL);
	/* yield_forfeit=0 before v6.18 ("sched/fair: Forfeit vruntime on
	 * yield"), resched_lapsed=0 too (update_curr's !protect_slice), and
	 * ni_random=0 before v6.18.5 / v6.12.65 (proportional newidle),
	 * lag_clamp=0 and fork_preempt=1 before v6.18 */
	CHECK_STR(sl_release_eevdf_opts("6.8.0-45-generic"),
		  "slice_norm_us=750,delay_dequeue=0,rel_deadline=0,yield_forfeit=0,resched_lapsed=0,ni_random=0,"
		  "lag_clamp=0,fork_preempt=1");
	CHECK_STR(sl_release_eevdf_opts("6.11.9"),
		  "slice_norm_us=750,delay_dequeue=0,rel_deadline=0,yield_forfeit=0,resched_lapsed=0,ni_random=0,"
		  "lag_clamp=0,fork_preempt=1");
	CHECK_STR(sl_release_eevdf_opts("6.12.0"),
		  "slice_norm_us=750,yield_forfeit=0,resched_lapsed=0,ni_random=0,lag_clamp=0,fork_preempt=1");
	CHECK_STR(sl_release_eevdf_opts("6.12.65"),
		  "slice_norm_us=750,yield_forfeit=0,resched_lapsed=0,lag_clamp=0,fork_preempt=1");
	CHECK_STR(sl_release_eevdf_opts("6.14.11"),
		  "slice_norm_us=750,yield_forfeit=0,resched_lapsed=0,ni_random=0,lag_clamp=0,fork_preempt=1");
	CHECK_STR(sl_release_eevdf_opts("6.15.0"), "yield_forfeit=0,resched_lapsed=0,ni_random=0,lag_clamp=0,fork_preempt=1");
	CHECK_STR(sl_release_eevdf_opts("6.17.9"), "yield_forfeit=0,resched_lapsed=0,ni_random=0,lag_clamp=0,fork_preempt=1");
	CHECK_STR(sl_release_eevdf_opts("6.18.0"), "ni_random=0");
	CHECK_STR(sl_release_eevdf_opts("6.18.4"), "ni_random=0");
	CHECK(sl_release_eevdf_opts("6.18.5") == NULL);
	CHECK(sl_release_eevdf_opts("6.18.44-fc-v1252") == NULL);
	CHECK(sl_release_eevdf_opts("7.0") == NULL);
	CHECK(sl_release_eevdf_opts("6.5.0") == NULL);
	CHECK(sl_release_eevdf_opts("2.6.20") == NULL);
	CHECK(sl_release_eevdf_opts("") == NULL);
}

/* The eevdf options a ledger's features set (collector/release.c,
 * docs/ledger.md): each feature the model has an option for, in the
 * table's order (docs/eevdf.md "Options"), with the ledger's 0 or 1; a
 * name is matched whole (between commas and "="), so NO_X never reaches
 * here and XPLACE_LAG or PLACE_LAG_X are other features; NEXT_BUDDY has no
 * option. This machine's kernel (docs/eevdf.md "Features of the recording
 * kernel") sets every option to its default. */
SL_TEST(import_features_eevdf_options)
{
	char out[512];
	CHECK_EQ_INT(sl_features_eevdf_opts("RUN_TO_PARITY=0,PLACE_LAG=1,NEXT_BUDDY=0", out, sizeof(out)), 0);
	CHECK_STR(out, "place_lag=1,run_to_parity=0");
	CHECK_EQ_INT(sl_features_eevdf_opts("XPLACE_LAG=0,PLACE_LAG_X=0,DELAY_DEQUEUE=0", out, sizeof(out)), 0);
	CHECK_STR(out, "delay_dequeue=0");
	CHECK_EQ_INT(sl_features_eevdf_opts("PLACE_LAG=2,SIS_UTIL=1", out, sizeof(out)), 0);
	CHECK_STR(out, "sis_util=1");
	CHECK_EQ_INT(sl_features_eevdf_opts("", out, sizeof(out)), 0);
	CHECK_STR(out, "");
	CHECK_EQ_INT(sl_features_eevdf_opts("PLACE_LAG=1,PLACE_DEADLINE_INITIAL=1,PLACE_REL_DEADLINE=1,RUN_TO_PARITY=1,"
					    "PREEMPT_SHORT=1,NEXT_BUDDY=0,PICK_BUDDY=1,CACHE_HOT_BUDDY=1,DELAY_DEQUEUE=1,"
					    "DELAY_ZERO=1,WAKEUP_PREEMPTION=1,HRTICK=0,HRTICK_DL=0,NONTASK_CAPACITY=1,"
					    "TTWU_QUEUE=1,SIS_UTIL=1,WARN_DOUBLE_CLOCK=0,RT_PUSH_IPI=0,RT_RUNTIME_SHARE=0,"
					    "LB_MIN=0,ATTACH_AGE_LOAD=1,WA_IDLE=1,WA_WEIGHT=1,WA_BIAS=1,UTIL_EST=1,"
					    "LATENCY_WARN=0,NI_RANDOM=1,SYNC_WAKEE_STAYS=0", out, sizeof(out)), 0);
	CHECK_STR(out, "place_lag=1,deadline_initial=1,rel_deadline=1,run_to_parity=1,wakeup_preemption=1,"
		       "delay_dequeue=1,sis_util=1,util_est=1,ni_random=1");
	CHECK_EQ_INT(sl_features_eevdf_opts("PLACE_LAG=1,RUN_TO_PARITY=0", out, 12), -1);
}
