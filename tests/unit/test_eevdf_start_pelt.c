/* tests/unit/test_eevdf_start_pelt.c - the kernel's load tracking at the
 * trace's start (ledger version 5, docs/eevdf.md "Load tracking at the
 * start") in the eevdf model and in the ledger's reader. */
#include "harness.h"
#include "test_engine_util.h"
#include "../../replay/eevdf.h"
#include "../../collector/ledger.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The decay from a last update to replay time, in PELT periods of 1024 x
 * 1024 ns (1.048576 ms): 32 554 432 ns before the start and 1 ms into the
 * replay are 33 554 432 ns = 32 periods exactly, y^32 = 1/2: 800 >> 1 =
 * 400, times y^0 as the kernel's decay_load() has it (0xffffffff / 2^32):
 * 399;
 * 34 603 008 ns = 33 periods: 800 * y^33 = 400 * 0xfa83b2db / 2^32 = 391
 * (391.4); 33.5 ms (32.5 ms + 1 ms) is 31.9 periods: 31, not 32. */
SL_TEST(eevdf_start_pelt_decay)
{
	uint64_t n = sl_eevdf_pelt_periods(32554432ULL, TMS);
	CHECK_EQ_INT(n, 32);
	CHECK_EQ_INT(sl_pelt_decay(800, n), 399);
	CHECK_EQ_INT(sl_eevdf_pelt_periods(34603008ULL, 0), 33);
	CHECK_EQ_INT(sl_pelt_decay(800, 33), 391);
	CHECK_EQ_INT(sl_eevdf_pelt_periods(32 * TMS + TMS / 2, TMS), 31);
	CHECK_EQ_INT(sl_eevdf_pelt_periods(UINT64_MAX, 5), UINT64_MAX >> 20);
}

/* A parent P alone on CPU 0 at the start forks a child 0.5 ms into its
 * 2 ms burst, then sleeps 100 ms; CPU 1 is idle. Under sched_vcpu_pack's
 * fork bit (vcpu_pack=8: the child stays on its parent's CPU if that CPU
 * has room: util under 70 % of 1024, i.e. at most 716) the child's CPU
 * tells the utilisation the model saw:
 * - estimated (start_pelt=0): P's first 128 ms are 2 ms of run in 102 ms,
 *   1024 * 2 / 102 = 20; CPU 0 at 20 has room: the child stays on CPU 0;
 * - the kernel's (start_pelt=1): the ledger gives CPU 0 a util_avg of 800
 *   and P 20 of it; the other 780 (blocked load of threads the trace does
 *   not show) stays on CPU 0 from time 0, and at 0.5 ms no PELT period has
 *   passed: 780 + P's 20 = 800 > 716, no room; mainline's fork placement
 *   then takes the idle CPU 1 (find_idlest_group: 1 idle CPU against 0). */
static int child_cpu(int start_pelt)
{
	struct sl_behaviour b;
	struct sl_task_spec *p, *c;
	struct sl_replay_opts o;
	struct trec rec;
	struct sl_replay_stats st;
	char popts[64];
	int cpu = -1;
	size_t i;
	memset(&b, 0, sizeof(b));
	p = add_task(&b, "parent", 0, 0);
	add_phase(p, 2 * TMS, SL_END_SLEEP_S, 100 * TMS, SL_WAKER_IRQ, -1, 0);
	p->flags |= SL_TASK_AT_START;
	p->cpumask = 0;
	p->pelt_known = 1;
	p->pelt_cpu = 0;
	p->pelt_load = p->pelt_runnable = p->pelt_util = 20;
	c = add_task(&b, "child", 0, 0);
	add_phase(c, TMS, SL_END_EXIT, 0, SL_WAKER_NONE, -1, 0);
	c->flags |= SL_TASK_FORKED;
	c->parent = 0;
	c->parent_progress_ns = TMS / 2;
	c->initially_runnable = 0;
	b.cpus = 2;
	b.cpu_pelt = xcalloc(2, sizeof(*b.cpu_pelt));
	b.cpu_pelt[0] = (struct sl_cpu_pelt){ 1, 800, 800, 800, 0 };
	sl_replay_opts_init(&o);
	o.cpus = 2;
	o.duration_ns = 50 * TMS;
	o.mode = SL_MODE_CAUSAL;
	snprintf(popts, sizeof(popts), "vcpu_pack=8,start_pelt=%d", start_pelt);
	o.policy_opts = popts;
	if (trun_opts(&b, "eevdf", &o, &rec, &st) == 0)
		for (i = 0; i < rec.ns; i++)
			if (rec.s[i].task == 1) {
				cpu = rec.s[i].cpu;
				break;
			}
	trec_free(&rec);
	sl_behaviour_release(&b);
	return cpu;
}

SL_TEST(eevdf_start_pelt_fork_room)
{
	CHECK_EQ_INT(child_cpu(0), 0);
	CHECK_EQ_INT(child_cpu(1), 1);
}

/* The ledger's version 5 lines: a thread with its load tracking (CPU 1,
 * load 1020, runnable 918, util 431, estimate 371, last update at
 * 1000000), one without ("-" six times), a CPU's root cfs_rq; a thread
 * line mixing "-" and numbers is refused with its line. */
static const char l5_head[] = "schedlab-ledger\t5\nrelease\t6.18.0\nhz\t250\npreempt\tnone\nclock\tmono\n"
			      "snapshot\tstart\t100\ncpu\t0\t0\t0\t0\npelt\t1\t150\t2000000\t645\t1943\t1011\t371\n";
static const char l5_t1[] = "thread\t7\t7\t0\t0\t0\t3\t10\t0\t1\t-1\t0\t/\t100\t160\tsh\t1\t1020\t918\t431\t371\t1000000\n";
static const char l5_t2[] = "thread\t8\t8\t0\t0\t0\t3\t10\t0\t1\t-1\t0\t/\t100\t160\tsh\t-\t-\t-\t-\t-\t-\n";
static const char l5_bad[] = "thread\t9\t9\t0\t0\t0\t3\t10\t0\t1\t-1\t0\t/\t100\t160\tsh\t1\t-\t918\t431\t371\t1000000\n";
static const char l5_tail[] = "end\tstart\t5\nsnapshot\tend\t200\nend\tend\t5\n";

static int read_l5(const char *mid, struct sl_ledger *l, struct sl_diag *d)
{
	char path[] = "/tmp/schedlab-l5-XXXXXX";
	int fd = mkstemp(path), rc;
	FILE *f;
	if (fd < 0)
		return -2;
	f = fdopen(fd, "w");
	fprintf(f, "%s%s%s", l5_head, mid, l5_tail);
	fclose(f);
	rc = sl_ledger_read(path, l, d);
	unlink(path);
	return rc;
}

SL_TEST(ledger_v5_load_tracking)
{
	struct sl_ledger l;
	struct sl_diag d = { { 0 }, 0, 0 };
	char mid[512];
	const struct sl_ledger_thread *t;
	snprintf(mid, sizeof(mid), "%s%s", l5_t1, l5_t2);
	CHECK_EQ_INT(read_l5(mid, &l, &d), 0);
	CHECK_EQ_INT(l.start.nt, 2);
	CHECK_EQ_INT(l.start.ncpu, 2);
	CHECK_EQ_INT(l.start.cpu[1].pelt_known, 1);
	CHECK_EQ_INT(l.start.cpu[1].clock_task_ns, 2000000);
	CHECK_EQ_INT(l.start.cpu[1].util_avg, 1011);
	CHECK_EQ_INT(l.start.cpu[0].pelt_known, 0);
	t = sl_ledger_find(&l.start, 7);
	CHECK(t && t->pelt_known && t->pelt_cpu == 1 && t->load_avg == 1020 && t->runnable_avg == 918 &&
	      t->util_avg == 431 && t->util_est == 371 && t->last_update_ns == 1000000);
	t = sl_ledger_find(&l.start, 8);
	CHECK(t && !t->pelt_known);
	sl_ledger_release(&l);
	snprintf(mid, sizeof(mid), "%s%s", l5_t1, l5_bad);
	CHECK_EQ_INT(read_l5(mid, &l, &d), -1);
	CHECK(strstr(d.msg, ":10: not a line of a ledger") != NULL);
}
