/* Hand-backs (replay/handback.c, docs/replay.md "Hand-backs"): a causal
 * replay keeps a hand-off pair's recorded order; the waker does not pass
 * the point at which it wakes its partner before the partner has slept. */
#include "harness.h"
#include "test_engine_util.h"

#define TUS 1000ULL

/* A pipe ping-pong seen as the kernel ran it with the wakee preempting the
 * writer: A's work is one burst of 4 ms (never asleep) in which it wakes B
 * at 1, 2 and 3 ms of its CPU time; B (asleep at the start) runs 0.5 ms
 * after each wakeup, its sleeps ended by A at 1, 2 and 3 ms. One CPU, no
 * kernel overheads, rsdl (same nice: a woken task does not preempt). */
static void pair(struct sl_behaviour *b)
{
	struct sl_task_spec *a, *w;
	memset(b, 0, sizeof(*b));
	b->cpus = 1;
	a = add_task(b, "A", 0, 0);
	add_phase(a, 4 * TMS, SL_END_TRACE, 0, 0, -1, 0);
	w = add_task(b, "B", 0, 0);
	w->initially_runnable = 0;
	add_phase(w, 0, SL_END_SLEEP_S, 1 * TMS, SL_WAKER_TASK, 0, 1 * TMS);
	add_phase(w, 500 * TUS, SL_END_SLEEP_S, 500 * TUS, SL_WAKER_TASK, 0, 2 * TMS);
	add_phase(w, 500 * TUS, SL_END_SLEEP_S, 500 * TUS, SL_WAKER_TASK, 0, 3 * TMS);
	add_phase(w, 500 * TUS, SL_END_TRACE, 0, 0, -1, 0);
}

static int run_pair(int handback, struct trec *r, struct sl_replay_stats *st)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	int rc;
	pair(&b);
	sl_replay_opts_init(&o);
	o.cpus = 1;
	o.mode = SL_MODE_CAUSAL;
	o.no_handback = !handback;
	rc = trun_opts(&b, "rsdl", &o, r, st);
	sl_behaviour_release(&b);
	return rc;
}

/* the slices of tasks 0 and 1 in order must be want[] (task, start, end,
 * end state), and there must be no others */
struct want_slice { int task; uint64_t ts, end; char state; };

static void check_slices(const struct trec *r, const struct want_slice *want, size_t n)
{
	size_t i, k = 0;
	for (i = 0; i < r->ns; i++) {
		const struct trow_slice *x = &r->s[i];
		if (x->task > 1)
			continue;
		CHECK(k < n);
		if (k >= n)
			return;
		CHECK_EQ_INT(x->task, want[k].task);
		CHECK_EQ_INT(x->ts, want[k].ts);
		CHECK_EQ_INT(x->ts + x->dur, want[k].end);
		if (want[k].state)
			CHECK_EQ_INT(x->end, want[k].state);
		k++;
	}
	CHECK_EQ_INT(k, n);
}

SL_TEST(handback_off_waker_runs_through)
{
	/* Off (the engine before hand-backs): A runs 0-4 ms through the three
	 * points; B, woken at 1 ms, runs 4-4.5, then "sleeps" with its waker
	 * already past 2 ms and is woken in the same instant (delay 0), and so
	 * again at 4.5: B runs 4-5.5 in three slices, the last two wakeups
	 * with no delay, which the kernel never shows. */
	static const struct want_slice want[] = {
		{ 0, 0, 4 * TMS, 0 },
		{ 1, 4 * TMS, 4500 * TUS, 'S' },
		{ 1, 4500 * TUS, 5 * TMS, 'S' },
		{ 1, 5 * TMS, 5500 * TUS, 0 },
	};
	struct trec r;
	struct sl_replay_stats st;
	CHECK_EQ_INT(run_pair(0, &r, &st), 0);
	CHECK_EQ_INT(st.handbacks, 0);
	check_slices(&r, want, SL_ARRAY_SIZE(want));
	CHECK_EQ_INT(r.nw, 3);
	CHECK_EQ_INT(r.w[0].ts, 1 * TMS);
	CHECK_EQ_INT(r.w[0].ts_run, 4 * TMS);
	CHECK_EQ_INT(r.w[1].ts_run - r.w[1].ts, 0);
	CHECK_EQ_INT(r.w[2].ts_run - r.w[2].ts, 0);
	CHECK_EQ_INT(st.end_ns, 5500 * TUS);
	trec_free(&r);
}

SL_TEST(handback_on_keeps_the_recorded_order)
{
	/* On: B's wakeup at 1 ms begins its phase ending at A's 2 ms, so A
	 * may not pass 2 ms - 1 ns before B sleeps. A runs on to that point
	 * (t = 2 ms - 1 ns) and parks (S); B runs 2 ms - 1 ns to 2.5 ms - 1 ns
	 * and sleeps, waking A (a wakeup by B, delay 0 on the idle CPU); A
	 * runs 1 ns to its 2 ms and wakes B (t = 2.5 ms), then on to 3 ms - 1
	 * (t = 3.5 ms - 1 ns) and parks; B runs to 4 ms - 1 ns and wakes A; A
	 * wakes B at 4 ms (B's last phase: no hold) and runs to its end at
	 * 5 ms; B runs 5-5.5 ms. Two hand-backs; CPU time unchanged (A 4 ms,
	 * B 1.5 ms); the same end, 5.5 ms. */
	static const struct want_slice want[] = {
		{ 0, 0, 2 * TMS - 1, 'S' },
		{ 1, 2 * TMS - 1, 2500 * TUS - 1, 'S' },
		{ 0, 2500 * TUS - 1, 3500 * TUS - 1, 'S' },
		{ 1, 3500 * TUS - 1, 4 * TMS - 1, 'S' },
		{ 0, 4 * TMS - 1, 5 * TMS, 0 },
		{ 1, 5 * TMS, 5500 * TUS, 0 },
	};
	struct trec r;
	struct sl_replay_stats st;
	size_t i;
	CHECK_EQ_INT(run_pair(1, &r, &st), 0);
	CHECK_EQ_INT(st.handbacks, 2);
	check_slices(&r, want, SL_ARRAY_SIZE(want));
	/* five wakeups: B at 1, 2.5 and 4 ms, A (by B) at 2.5 and 4 ms - 1 ns */
	CHECK_EQ_INT(r.nw, 5);
	for (i = 0; i < r.nw; i++) {
		if (r.w[i].task == 1) {
			CHECK_EQ_INT(r.w[i].waker, 0);
			CHECK(r.w[i].ts == 1 * TMS || r.w[i].ts == 2500 * TUS || r.w[i].ts == 4 * TMS);
		} else {
			CHECK_EQ_INT(r.w[i].waker, 1);
			CHECK(r.w[i].ts == 2500 * TUS - 1 || r.w[i].ts == 4 * TMS - 1);
			CHECK_EQ_INT(r.w[i].ts_run, r.w[i].ts);
		}
	}
	CHECK_EQ_INT(st.end_ns, 5500 * TUS);
	trec_free(&r);
}

SL_TEST(handback_only_for_pairs)
{
	/* A third task C woken by A as often as B is (A's wakeups: 3 of B, 3
	 * of C: B gets half of them, under 4 in 5): no pair, no hand-back. */
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_replay_stats st;
	struct sl_task_spec *c;
	struct trec r;
	pair(&b);
	c = add_task(&b, "C", 0, 0);
	c->initially_runnable = 0;
	add_phase(c, 0, SL_END_SLEEP_S, 1 * TMS, SL_WAKER_TASK, 0, 1 * TMS);
	add_phase(c, 100 * TUS, SL_END_SLEEP_S, 500 * TUS, SL_WAKER_TASK, 0, 2 * TMS);
	add_phase(c, 100 * TUS, SL_END_SLEEP_S, 500 * TUS, SL_WAKER_TASK, 0, 3 * TMS);
	add_phase(c, 100 * TUS, SL_END_TRACE, 0, 0, -1, 0);
	sl_replay_opts_init(&o);
	o.cpus = 1;
	o.mode = SL_MODE_CAUSAL;
	CHECK_EQ_INT(trun_opts(&b, "rsdl", &o, &r, &st), 0);
	CHECK_EQ_INT(st.handbacks, 0);
	trec_free(&r);
	sl_behaviour_release(&b);
}
