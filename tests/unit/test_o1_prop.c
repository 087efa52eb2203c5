/* tests/unit/test_o1_prop.c - property test (o1 and sd): random workloads (nice -20..19,
 * NORMAL/BATCH/FIFO/RR, S and D sleeps, task/irq/idle/unknown wakers, pipe
 * wakeups, yields, exits, forks, pinned tasks, 1-4 CPUs, HZ 100/250/1000)
 * pushed through the o1 policy with the engine's invariants checked after
 * every policy call (a task on at most one CPU, no runnable task lost, the
 * policy's own lists and counts consistent, CPU time conserved). On top:
 * slices of one CPU never overlap, no task runs more than its recorded
 * work, a second run gives the same rows, and a run whose sink takes no
 * staircase rows gives the same slices and wakeups. */
#include "harness.h"
#include "test_o1.h"
#include "../../replay/o1_rq.h"
#include "../../replay/sd.h"

#include <stdlib.h>

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(rng >> 33) % (n ? n : 1);
}

static void random_workload(struct sl_behaviour *b, int cpus)
{
	size_t n = 1 + rnd(24), i, k;
	o1t_behaviour(b, n);
	b->cpus = cpus;
	for (i = 0; i < n; i++) {
		struct sl_task_spec *t = &b->tasks[i];
		size_t np = 1 + rnd(40);
		struct sl_phase *ph = calloc(np, sizeof(*ph));
		uint32_t pol = rnd(20);
		t->nice = (int)rnd(40) - 20;
		t->policy = pol == 0 ? SL_SCHED_FIFO : pol == 1 ? SL_SCHED_RR : pol < 4 ? SL_SCHED_BATCH
										: SL_SCHED_NORMAL;
		t->rt_prio = t->policy == SL_SCHED_FIFO || t->policy == SL_SCHED_RR ? 1 + (int)rnd(98) : 0;
		t->start_ns = rnd(4) ? 0 : (uint64_t)rnd(500) * MS;
		t->flags = rnd(6) ? 0 : SL_TASK_KTHREAD;
		t->cpumask = rnd(5) ? 0 : (1ULL << rnd((uint32_t)cpus));
		t->initially_runnable = rnd(5) != 0;
		if (i > 0 && !rnd(4)) { /* forked by an earlier task */
			t->parent = (int32_t)rnd((uint32_t)i);
			t->flags |= SL_TASK_FORKED;
			if (rnd(2))
				t->tgid = b->tasks[t->parent].tgid; /* a thread */
		}
		for (k = 0; k < np; k++) {
			uint32_t e = rnd(20);
			ph[k].run_ns = rnd(10) ? (uint64_t)(1 + rnd(30000)) * 1000 : (uint64_t)rnd(300) * MS;
			ph[k].sleep_ns = (uint64_t)rnd(60000) * 1000;
			ph[k].end = e < 12 ? SL_END_SLEEP_S : e < 16 ? SL_END_SLEEP_D
					    : e < 18 ? SL_END_YIELD : SL_END_SLEEP_S;
			ph[k].waker_kind = (uint8_t)rnd(4);
			ph[k].waker = ph[k].waker_kind == SL_WAKER_TASK ? (int32_t)rnd((uint32_t)n) : -1;
			ph[k].waker_progress_ns = (uint64_t)rnd(100) * MS;
			ph[k].pipe = rnd(6) == 0;
		}
		ph[np - 1].end = rnd(3) ? SL_END_EXIT : SL_END_TRACE;
		if (!rnd(8))
			ph[np - 1].run_ns = SL_INF;
		t->phases = ph;
		t->nphases = np;
	}
}

static int check_rows(const struct o1t_run *r, const struct sl_behaviour *b, int cpus)
{
	size_t i, j;
	for (i = 0; i < r->nsl; i++) {
		const struct o1t_slice *s = &r->sl[i];
		if (s->cpu < 0 || s->cpu >= cpus || s->task < 0 || (size_t)s->task >= b->ntasks)
			return 0;
		/* same CPU: no overlap with the next slice there */
		for (j = i + 1; j < r->nsl; j++)
			if (r->sl[j].cpu == s->cpu)
				break;
		if (j < r->nsl && r->sl[j].ts < s->ts + s->dur)
			return 0;
		if (s->prio < 0 || s->prio > 139)
			return 0;
	}
	for (i = 0; i < r->nst; i++)
		if (r->st[i].level < 0 || r->st[i].level > 39)
			return 0;
	return 1;
}

/* Replay b again (with the staircase rows unless o1t_no_staircase) and
 * compare with r1's rows (its staircase rows left out when none are
 * taken): 1 if they differ or the replay fails. */
static int rerun_differs(const struct sl_behaviour *b, const struct sl_policy_ops *ops, int cpus,
			 int hz, const struct o1t_run *r1)
{
	struct o1t_run r2, x = *r1;
	int differs;
	if (o1t_replay(b, ops, cpus, 2 * SEC, hz, NULL, &r2) < 0)
		return 1;
	if (o1t_no_staircase)
		x.nst = 0; /* and r2 must have none */
	differs = !o1t_same(&x, &r2);
	o1t_free(&r2);
	return differs;
}

static int property(const struct sl_policy_ops *ops, const char *opt)
{
	int iter, fails = 0;
	static const int hzs[] = { 1000, 250, 100 };
	rng = 20070304; /* fixed seed: the test is reproducible */
	for (iter = 0; iter < 40 && !fails; iter++) {
		struct sl_behaviour b;
		struct o1t_run r1, r2;
		int cpus = 1 + (int)rnd(4), hz = hzs[rnd(3)];
		static const uint64_t rrs[] = { 6 * MS, 1 * MS, 20 * MS };
		o1t_rr_ns = rrs[rnd(3)]; /* sd's quotas; o1 ignores it */
		random_workload(&b, cpus);
		if (o1t_replay(&b, ops, cpus, 2 * SEC, hz, NULL, &r1) < 0) {
			fprintf(stderr, "  iteration %d (%d cpus, hz %d): %s\n", iter, cpus, hz, r1.err);
			fails++;
		} else {
			if (!check_rows(&r1, &b, cpus)) {
				fprintf(stderr, "  iteration %d: bad rows\n", iter);
				fails++;
			}
			if (o1t_replay(&b, ops, cpus, 2 * SEC, hz, opt, &r2) == 0)
				o1t_free(&r2);
			else
				fails++;
			if (rerun_differs(&b, ops, cpus, hz, &r1)) {
				fprintf(stderr, "  iteration %d: second run differs\n", iter);
				fails++;
			}
			/* the staircase records the model's levels, it is no
			 * input: without staircase rows (the model may skip
			 * their bookkeeping, sl_engine_wants_staircase) the
			 * slices (with their prio) and wakeups are the same */
			o1t_no_staircase = 1;
			if (rerun_differs(&b, ops, cpus, hz, &r1)) {
				fprintf(stderr, "  iteration %d: rows differ without staircase\n", iter);
				fails++;
			}
			o1t_no_staircase = 0;
		}
		o1t_free(&r1);
		sl_behaviour_release(&b);
	}
	o1t_rr_ns = 0;
	return fails;
}

SL_TEST(o1_property_random_workloads)
{
	CHECK_EQ_INT(property(&sl_policy_o1, "unknown_waker_irq=1"), 0);
}

SL_TEST(sd_property_random_workloads)
{
	/* the same random workloads through SD, and with its exact accounting
	 * and without interactive mode */
	CHECK_EQ_INT(property(&sl_policy_sd, "accounting=1,interactive=0"), 0);
}

SL_TEST(o1_smp_two_cpus_two_hogs_each)
{
	struct sl_behaviour b;
	struct o1t_run r;
	int i;
	/* 4 nice-0 hogs on 2 CPUs: the fork/start placement puts two on each
	 * CPU (fewest tasks first), each pair alternates 100 ms slices: 2 s of
	 * CPU each in 4 s, nobody migrates after that (balanced). */
	o1t_behaviour(&b, 4);
	b.cpus = 2;
	for (i = 0; i < 4; i++)
		o1t_task(&b, (size_t)i, 0, SL_INF, 0, 0);
	if (o1t_replay(&b, &sl_policy_o1, 2, 4 * SEC, 1000, NULL, &r) == 0) {
		for (i = 0; i < 4; i++)
			CHECK_EQ_INT(o1t_runtime(&r, i, 0, 4 * SEC), 2 * SEC);
	} else {
		CHECK(0);
	}
	o1t_free(&r);
	sl_behaviour_release(&b);
}
