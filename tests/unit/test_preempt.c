/* tests/unit/test_preempt.c - the preemption model (replay --preempt,
 * docs/replay.md "Preemption model"): how long a wakeup onto a busy CPU
 * takes to switch, from the switch latencies of --overhead. One CPU, HZ
 * 1000 (ticks at every whole ms), rsdl (a higher-priority wakee preempts
 * at once when it reaches the runqueue: docs/rsdl.md), switch latencies
 * two equally likely values, 30 us and 700 us, no wake latency. */
#include "harness.h"
#include "test_engine_util.h"

static int run_pre(const char *text, int preempt, struct trec *rec)
{
	struct sl_behaviour b;
	struct sl_diag d = { { 0 }, 0, 0 };
	struct sl_replay_opts o;
	struct sl_run_sink k = trec_sink(rec);
	int rc;
	memset(rec, 0, sizeof(*rec));
	if (sl_workload_parse_text(text, strlen(text), "test", &b, &d))
		return -1;
	sl_replay_opts_init(&o);
	o.cpus = 1;
	o.duration_ns = 200 * TMS;
	o.debug = 1;
	o.nq = 2;
	o.switch_lat_ns[0] = 30000;
	o.switch_lat_ns[1] = 700000;
	o.preempt = preempt;
	rc = sl_replay_run(&b, sl_policy_find("rsdl"), &o, &k, NULL, &d);
	if (rc)
		fprintf(stderr, "  replay: %s\n", d.msg);
	sl_behaviour_release(&b);
	return rc;
}

/* Each wakeup of task 1 that ran: its delay, the time to the next tick
 * from the wakeup (ticks at whole ms), and counts by kind. */
struct pcount {
	size_t n, d30, d700, capped, other;
};

static struct pcount count_delays(const struct trec *r)
{
	struct pcount c = { 0, 0, 0, 0, 0 };
	size_t i;
	for (i = 0; i < r->nw; i++) {
		uint64_t d, to_tick;
		if (r->w[i].task != 1 || r->w[i].ts_run == UINT64_MAX)
			continue;
		d = r->w[i].ts_run - r->w[i].ts;
		to_tick = (r->w[i].ts / TMS + 1) * TMS - r->w[i].ts;
		c.n++;
		if (d == 30000)
			c.d30++;
		else if (d == 700000)
			c.d700++;
		else if (d == to_tick && to_tick < 700000)
			c.capped++;
		else
			c.other++;
	}
	return c;
}

SL_TEST(preempt_models_switch_latency)
{
	/* a nice-19 hog and a nice -10 sleeper (1 ms run, 9.3 ms sleep: its
	 * wakeups fall at varied distances from the next tick) */
	static const char fair[] = "h 19 run=inf\ns -10 run=1ms sleep=9300us start=1500us\n";
	static const char fifo[] = "h 19 run=inf\nrt 0 run=1ms sleep=9300us policy=fifo rtprio=50 start=1500us\n";
	struct trec r;
	struct pcount c;
	/* none (and voluntary): each delay one of the two latencies, both seen
	 * (the draws alternate pseudo-randomly) */
	CHECK(run_pre(fair, SL_PREEMPT_NONE, &r) == 0);
	c = count_delays(&r);
	CHECK(c.n >= 15);
	CHECK_EQ_INT(c.d30 + c.d700, c.n);
	CHECK(c.d30 > 0 && c.d700 > 0);
	trec_free(&r);
	/* full: the least, 30 us, every time */
	CHECK(run_pre(fair, SL_PREEMPT_FULL, &r) == 0);
	c = count_delays(&r);
	CHECK(c.n >= 15);
	CHECK_EQ_INT(c.d30, c.n);
	trec_free(&r);
	/* lazy, a fair wakee: min(draw, time to the next tick): 30 us, 700 us
	 * when the next tick is at least that far, else the time to the tick
	 * (the wakeups fall 0.5, 0.83, 0.16, ... ms before a tick: some of the
	 * 700 us draws are cut); nothing else */
	CHECK(run_pre(fair, SL_PREEMPT_LAZY, &r) == 0);
	c = count_delays(&r);
	CHECK(c.n >= 15);
	CHECK_EQ_INT(c.other, 0);
	CHECK(c.capped > 0);
	trec_free(&r);
	/* lazy, a real-time wakee: as full */
	CHECK(run_pre(fifo, SL_PREEMPT_LAZY, &r) == 0);
	c = count_delays(&r);
	CHECK(c.n >= 15);
	CHECK_EQ_INT(c.d30, c.n);
	trec_free(&r);
}
