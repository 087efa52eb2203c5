/* tests/unit/test_hotplug.c - a CPU of the recording that came up late
 * (behaviour cpu_up_ns, docs/replay.md "CPUs that were offline") is
 * offline in the replay until then, in every model and both modes, unless
 * --late-cpus online. */
#include "harness.h"
#include "test_engine_util.h"

/* Two CPUs, CPU 1 up at 50 ms. a and b: CPU hogs of 100 ms each, present
 * at 0; w: runs 1 ms, sleeps until a has run 30 ms (causal; 20 ms timed),
 * runs 5 ms; p: pinned to CPU 1 (cpumask 0b10), present at 0, 10 ms. */
static void build(struct sl_behaviour *b)
{
	struct sl_task_spec *t;
	memset(b, 0, sizeof(*b));
	b->cpus = 2;
	b->cpu_up_ns = xcalloc(2, sizeof(*b->cpu_up_ns));
	b->cpu_up_ns[1] = 50 * TMS;
	t = add_task(b, "a", 0, 0);
	add_phase(t, 100 * TMS, SL_END_EXIT, 0, 0, -1, 0);
	t = add_task(b, "b", 0, 0);
	add_phase(t, 100 * TMS, SL_END_EXIT, 0, 0, -1, 0);
	t = add_task(b, "w", 0, 0);
	add_phase(t, 1 * TMS, SL_END_SLEEP_S, 20 * TMS, SL_WAKER_TASK, 0, 30 * TMS);
	add_phase(t, 5 * TMS, SL_END_EXIT, 0, 0, -1, 0);
	t = add_task(b, "p", 0, 0);
	t->cpumask = 2;
	add_phase(t, 10 * TMS, SL_END_EXIT, 0, 0, -1, 0);
}

SL_TEST(hotplug_late_cpu_offline_until_its_time_every_model)
{
	struct sl_behaviour b;
	size_t m, i;
	int mode;
	build(&b);
	for (m = 0; m < sl_npolicies; m++)
		for (mode = SL_MODE_TIMED; mode <= SL_MODE_CAUSAL; mode++) {
			struct sl_replay_opts o;
			struct sl_replay_stats st;
			struct trec r;
			uint64_t busy1 = 0, early0 = 0, end = 0;
			sl_replay_opts_init(&o);
			o.mode = mode;
			if (trun_opts(&b, sl_policies[m]->name, &o, &r, &st)) {
				sl_test_failed = 1;
				continue;
			}
			for (i = 0; i < r.ns; i++) {
				const struct trow_slice *s = &r.s[i];
				if (s->ts + s->dur > end)
					end = s->ts + s->dur;
				if (s->cpu == 1) {
					/* nothing runs on CPU 1 before it is up */
					if (s->ts < 50 * TMS)
						fprintf(stderr, "  %s %d: task %d on CPU 1 at %llu\n",
							sl_policies[m]->name, mode, s->task,
							(unsigned long long)s->ts);
					CHECK(s->ts >= 50 * TMS);
					busy1 += s->dur;
				} else if (s->ts < 50 * TMS) {
					early0 += (s->ts + s->dur < 50 * TMS ? s->ts + s->dur : 50 * TMS) - s->ts;
				}
			}
			for (i = 0; i < r.nw; i++)
				CHECK(r.w[i].cpu != 1 || r.w[i].ts_run == UINT64_MAX || r.w[i].ts_run >= 50 * TMS);
			/* CPU 0 is never idle before 50 ms (a, b and p are
			 * runnable there: p falls back to it, as the kernel's
			 * select_fallback_rq), so it does 50 ms of the 216 ms of
			 * work (100 + 100 + 1 + 5 + 10); the other 166 ms take
			 * at least 83 ms more on two CPUs: the end is at 133 ms
			 * or later, and before 216 ms since CPU 1 takes some */
			CHECK_EQ_INT(early0, 50 * TMS);
			CHECK(busy1 > 0);
			CHECK(end >= 133 * TMS && end < 216 * TMS);
			CHECK_EQ_INT(trun_runtime(&r, 3), 10 * TMS); /* p did its work */
			trec_free(&r);
		}
	sl_behaviour_release(&b);
}

/* --late-cpus online: the same behaviour uses CPU 1 from 0 (every model
 * places b or p there at once: a CPU idle at the start) */
SL_TEST(hotplug_late_cpus_online_uses_the_cpu_from_zero)
{
	struct sl_behaviour b;
	size_t m, i;
	build(&b);
	for (m = 0; m < sl_npolicies; m++) {
		struct sl_replay_opts o;
		struct sl_replay_stats st;
		struct trec r;
		int early1 = 0;
		sl_replay_opts_init(&o);
		o.late_cpus_mode = SL_LATE_CPUS_ONLINE;
		if (trun_opts(&b, sl_policies[m]->name, &o, &r, &st)) {
			sl_test_failed = 1;
			continue;
		}
		for (i = 0; i < r.ns; i++)
			early1 |= r.s[i].cpu == 1 && r.s[i].ts < 50 * TMS;
		CHECK(early1);
		trec_free(&r);
	}
	sl_behaviour_release(&b);
}
