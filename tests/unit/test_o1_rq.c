/* tests/unit/test_o1_rq.c - the O(1) runqueue operations (replay/o1_rq.c)
 * driven by hand, without the engine: each expected value is derived in a
 * comment from kernel/sched.c of 2.6.20 (docs/o1.md, "Operations",
 * §2.3-§2.8). HZ 1000, so 1 jiffy = 1 ms. */
#include "harness.h"
#include "../../replay/o1_rq.h"

#define MS 1000000ULL

static void setup(struct sl_o1 *o, int n)
{
	int i;
	sl_o1_init(o, (size_t)n, 1, 1000);
	for (i = 0; i < n; i++)
		sl_o1_task_setup(o, i, 0, SL_O1_NORMAL, 0, 0, 0, 0);
}

static int check_ok(struct sl_o1 *o)
{
	char msg[256];
	if (sl_o1_check(o, -1, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "  invariant: %s\n", msg);
		return 0;
	}
	return 1;
}

SL_TEST(o1_rq_long_sleep_ceiling)
{
	struct sl_o1 o;
	setup(&o, 2);
	o.t[1].kthread = 1;
	/* a user task (sleep_avg 0) sleeping 2 s > ceiling 799 ms is lifted
	 * to exactly the ceiling and marked NONINTERACTIVE: bonus 7, prio
	 * 120 - (7 - 5) = 118, which is interactive for nice 0 (<= 118) */
	sl_o1_wake(&o, 0, 0, 2000 * MS, 0, 0, 1);
	CHECK_EQ_INT(o.t[0].sleep_avg, 799 * MS);
	CHECK_EQ_INT(o.t[0].sleep_type, SL_O1_SLEEP_NONINTERACTIVE);
	CHECK_EQ_INT(o.t[0].prio, 118);
	/* a kernel thread has no ceiling: 2 s of sleep caps at 1 s, bonus 10,
	 * prio 115; woken from irq -> INTERRUPTED */
	sl_o1_wake(&o, 1, 0, 2000 * MS, 0, 0, 1);
	CHECK_EQ_INT(o.t[1].sleep_avg, 1000 * MS);
	CHECK_EQ_INT(o.t[1].prio, 115);
	CHECK_EQ_INT(o.t[1].sleep_type, SL_O1_SLEEP_INTERRUPTED);
	/* schedule: best prio 115 first; task 0 keeps 799 ms */
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 2000 * MS, 0), 1);
	CHECK(check_ok(&o));
	sl_o1_release(&o);
}

SL_TEST(o1_rq_uninterruptible_ceiling)
{
	struct sl_o1 o;
	setup(&o, 1);
	/* sleep_avg 500 ms, a 400 ms D sleep: 500 + 400 >= 799 -> 799 exactly
	 * (not 900); a second D sleep at the ceiling adds nothing */
	o.t[0].sleep_avg = 500 * MS;
	sl_o1_wake(&o, 0, 0, 400 * MS, 1, 0, 1);
	CHECK_EQ_INT(o.t[0].sleep_avg, 799 * MS);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 400 * MS, 0), 0);
	/* ran 0 ns: no debit; block at 400 ms, D-sleep 100 ms */
	sl_o1_block(&o, 0, 400 * MS, 0);
	sl_o1_schedule(&o, 0, 400 * MS, 0);
	sl_o1_wake(&o, 0, 0, 500 * MS, 1, 0, 0);
	CHECK_EQ_INT(o.t[0].sleep_avg, 799 * MS);
	/* the same short sleep as S (not D) adds its 100 ms: 899 ms */
	sl_o1_schedule(&o, 0, 500 * MS, 0);
	sl_o1_block(&o, 0, 500 * MS, 0);
	sl_o1_schedule(&o, 0, 500 * MS, 0);
	sl_o1_wake(&o, 0, 0, 600 * MS, 0, 0, 1);
	CHECK_EQ_INT(o.t[0].sleep_avg, 899 * MS);
	/* a pipe wakeup (TASK_NONINTERACTIVE) is capped like D: at 899 >= 799
	 * a further sleep adds nothing */
	sl_o1_schedule(&o, 0, 600 * MS, 0);
	sl_o1_block(&o, 0, 600 * MS, 0);
	sl_o1_schedule(&o, 0, 600 * MS, 0);
	sl_o1_wake(&o, 0, 0, 650 * MS, 0, 1, 0);
	CHECK_EQ_INT(o.t[0].sleep_avg, 899 * MS);
	CHECK(check_ok(&o));
	sl_o1_release(&o);
}

SL_TEST(o1_rq_on_runqueue_credit)
{
	struct sl_o1 o;
	setup(&o, 3);
	/* task 0 runs from 0 at prio 125; tasks 1 and 2 (sleep_avg 0,
	 * timestamp 0) wake at 100 ms: +100 ms each -> bonus 1, prio 124,
	 * which beats 125: both preempt */
	sl_o1_wake(&o, 0, 0, 0, 0, 0, 1);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 0, 0), 0);
	CHECK_EQ_INT(sl_o1_wake(&o, 1, 0, 100 * MS, 0, 0, 0), 1); /* task waker */
	CHECK_EQ_INT(sl_o1_wake(&o, 2, 0, 100 * MS, 0, 0, 1), 1); /* irq waker */
	CHECK_EQ_INT(o.t[1].prio, 124);
	CHECK_EQ_INT(o.t[1].sleep_type, SL_O1_SLEEP_INTERACTIVE);
	CHECK_EQ_INT(o.t[2].sleep_type, SL_O1_SLEEP_INTERRUPTED);
	/* picked at 228 ms: task 1 (queued first at 124) waited 128 ms,
	 * INTERACTIVE credit 128 * 38 / 128 = 38 ms -> sleep_avg 138 ms */
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 228 * MS, 0), 1);
	CHECK_EQ_INT(o.t[1].sleep_avg, 138 * MS);
	CHECK_EQ_INT(o.t[1].sleep_type, SL_O1_SLEEP_NORMAL);
	/* task 0 ran 0..228 ms with bonus 0: debit 228 ms from 0 -> 0 */
	CHECK_EQ_INT(o.t[0].sleep_avg, 0);
	/* task 1 blocks at 229 ms (ran 1 ms at bonus 1: debit 1 ms -> 137),
	 * task 2 is picked: INTERRUPTED full credit of its 129 ms wait:
	 * 100 + 129 = 229 ms -> bonus 2, prio 123 */
	sl_o1_block(&o, 0, 229 * MS, 0);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 229 * MS, 0), 2);
	CHECK_EQ_INT(o.t[1].sleep_avg, 137 * MS);
	CHECK_EQ_INT(o.t[2].sleep_avg, 229 * MS);
	CHECK_EQ_INT(o.t[2].prio, 123);
	CHECK(check_ok(&o));
	sl_o1_release(&o);
}

SL_TEST(o1_rq_expiry_and_array_switch)
{
	struct sl_o1 o;
	int i;
	setup(&o, 2);
	sl_o1_wake(&o, 0, 0, 0, 0, 0, 1);
	sl_o1_wake(&o, 1, 0, 0, 0, 0, 1);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 0, 0), 0);
	/* ticks at 1..99 ms: slice 100 -> 1, no requeue (bonus 0 is not
	 * interactive); tick 100 expires it onto the expired array,
	 * expired_timestamp = jiffies(100 ms) = 101, best_expired_prio 120 */
	for (i = 1; i < 100; i++)
		CHECK_EQ_INT(sl_o1_tick(&o, 0, (uint64_t)i * MS), 0);
	CHECK_EQ_INT(o.t[0].time_slice, 1);
	CHECK_EQ_INT(sl_o1_tick(&o, 0, 100 * MS), 1);
	CHECK_EQ_INT(o.t[0].time_slice, 100);
	CHECK_EQ_INT(o.t[0].array, !o.rq[0].active);
	CHECK_EQ_INT(o.rq[0].expired_timestamp, 101);
	CHECK_EQ_INT(o.rq[0].best_expired_prio, 120);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 100 * MS, 0), 1);
	/* task 1 was picked at 100 ms after 100 ms on the runqueue since its
	 * irq wake-up: INTERRUPTED credit of the full 100 ms -> sleep_avg
	 * 100 ms, bonus 1, prio 124. It expires at 200 ms with prio 124 (the
	 * sleep_avg of its last schedule(), not yet debited). Active is empty
	 * -> array switch: both on the new active, task 1 (124) before task 0
	 * (125); the starvation clock and best_expired_prio are reset */
	for (i = 101; i <= 200; i++)
		sl_o1_tick(&o, 0, (uint64_t)i * MS);
	CHECK_EQ_INT(o.t[1].prio, 124);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 200 * MS, 0), 1);
	CHECK_EQ_INT(o.rq[0].expired_timestamp, 0);
	CHECK_EQ_INT(o.rq[0].best_expired_prio, 140);
	CHECK_EQ_INT(o.t[0].array, o.rq[0].active);
	CHECK_EQ_INT(o.t[1].array, o.rq[0].active);
	CHECK(check_ok(&o));
	sl_o1_release(&o);
}

SL_TEST(o1_rq_interactive_requeue_and_reinsert)
{
	struct sl_o1 o;
	int i, requeues = 0;
	setup(&o, 2);
	/* task 0 with sleep_avg 1 s (bonus 10, prio 115, interactive):
	 * granularity 10 ms -> requeue (need_resched) at 10, 20, ... 90 ms of
	 * use (9 times: at 100 the slice expires instead, time_slice >= 10
	 * fails at 100). At expiry it is interactive and nothing starves:
	 * back onto the active array. */
	o.t[0].sleep_avg = 1000 * MS;
	sl_o1_wake(&o, 0, 0, 0, 0, 0, 1);
	CHECK_EQ_INT(o.t[0].prio, 115);
	sl_o1_schedule(&o, 0, 0, 0);
	for (i = 1; i < 100; i++)
		if (sl_o1_tick(&o, 0, (uint64_t)i * MS)) {
			requeues++;
			sl_o1_schedule(&o, 0, (uint64_t)i * MS, 0);
		}
	CHECK_EQ_INT(requeues, 9);
	/* its sleep_avg was debited at each of those 9 schedule()s:
	 * 10 ms / bonus 10 = 1 ms each (bonus stays 9..10) -> sleep_avg
	 * 1000 - 1 - 10/9*8 = 1000 - 1 - 8 = 991 ms (first at bonus 10: 1 ms,
	 * then bonus 9: 10/9 = 1.111 ms each) */
	CHECK_EQ_INT(o.t[0].sleep_avg, 1000 * MS - 1 * MS - 8 * (10 * MS / 9));
	sl_o1_tick(&o, 0, 100 * MS);
	CHECK_EQ_INT(o.t[0].array, o.rq[0].active);
	CHECK_EQ_INT(o.t[0].time_slice, 100);
	CHECK(check_ok(&o));
	sl_o1_release(&o);
}

SL_TEST(o1_rq_expired_starving)
{
	struct sl_o1 o;
	int i;
	setup(&o, 2);
	/* task 0 interactive (sleep_avg 1 s), task 1 a plain hog. Task 1
	 * expires first at 100 ms (expired_timestamp = 101). Task 0 then runs
	 * (prio 115); its expiries re-insert it into active until
	 * jiffies - 101 > STARVATION_LIMIT(1000) * nr_running(2) = 2000, i.e.
	 * from jiffies 2102 (now 2101 ms) on. Its sleep_avg drops by at most
	 * 1000/9 ms/s, so it stays interactive (bonus >= 7) for the whole 2 s. */
	o.t[0].sleep_avg = 1000 * MS;
	sl_o1_wake(&o, 1, 0, 0, 0, 0, 1);
	sl_o1_schedule(&o, 0, 0, 0);
	for (i = 1; i <= 100; i++)
		sl_o1_tick(&o, 0, (uint64_t)i * MS);
	sl_o1_wake(&o, 0, 0, 100 * MS, 0, 0, 1);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 100 * MS, 0), 0);
	CHECK_EQ_INT(o.rq[0].expired_timestamp, 101);
	for (i = 101; i < 3000; i++) {
		int rs = sl_o1_tick(&o, 0, (uint64_t)i * MS);
		if (o.t[0].array == !o.rq[0].active)
			break;
		if (rs)
			sl_o1_schedule(&o, 0, (uint64_t)i * MS, 0);
	}
	CHECK_EQ_INT(i, 2200);
	CHECK(check_ok(&o));
	sl_o1_release(&o);
}

SL_TEST(o1_rq_fork_and_exit)
{
	struct sl_o1 o;
	setup(&o, 3);
	sl_o1_wake(&o, 0, 0, 0, 0, 0, 1);
	sl_o1_schedule(&o, 0, 0, 0);
	o.t[0].sleep_avg = 750 * MS; /* bonus 7 */
	/* slice 100: child (100+1)/2 = 50, parent 50; child sleep_avg
	 * 7*95/100 = 6 -> 600 ms; parent quantised to bonus 7 -> 700 ms;
	 * child runs first (inserted before the parent, resched) */
	CHECK_EQ_INT(sl_o1_fork(&o, 0, 1, 0, 0, 0), 1);
	CHECK_EQ_INT(o.t[1].time_slice, 50);
	CHECK_EQ_INT(o.t[0].time_slice, 50);
	CHECK_EQ_INT(o.t[1].sleep_avg, 600 * MS);
	CHECK_EQ_INT(o.t[0].sleep_avg, 700 * MS);
	CHECK_EQ_INT(o.t[1].first_time_slice, 1);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 0, 0), 1);
	/* the child exits at once (ran 0): its 50 go back to the parent,
	 * 50 + 50 = 100, capped at the child's task_timeslice 100; sleep_avg
	 * 600 < 700 (the parent ran 0 ns: no debit): parent
	 * 700/4*3 + 600/4 = 525 + 150 = 675 ms */
	sl_o1_block(&o, 0, 0, 1);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 0, 0), 0);
	sl_o1_exit(&o, 1);
	CHECK_EQ_INT(o.t[0].time_slice, 100);
	CHECK_EQ_INT(o.t[0].sleep_avg, 675 * MS);
	/* parent with 1 jiffy left: child gets 1, parent 0 -> 1 and an
	 * immediate tick expires it (bonus 6 at 675 ms: prio 119 > 118, not
	 * interactive) -> expired array, new slice 100 */
	o.t[0].time_slice = 1;
	sl_o1_fork(&o, 0, 2, 0, 6 * MS, 0);
	CHECK_EQ_INT(o.t[2].time_slice, 1);
	CHECK_EQ_INT(o.t[0].time_slice, 100);
	CHECK_EQ_INT(o.t[0].array, !o.rq[0].active);
	/* the child went before the parent, in the parent's (expired) list */
	CHECK_EQ_INT(o.t[2].array, !o.rq[0].active);
	CHECK(check_ok(&o));
	sl_o1_release(&o);
}

SL_TEST(o1_rq_exit_cap_is_childs_slice)
{
	struct sl_o1 o;
	setup(&o, 2);
	sl_o1_wake(&o, 0, 0, 0, 0, 0, 1);
	sl_o1_schedule(&o, 0, 0, 0);
	sl_o1_fork(&o, 0, 1, 0, 0, 0);
	/* renice the child to 10 (task_timeslice 50): the parent's 50 + the
	 * child's 50 = 100 is capped at the child's 50. (The parent sleeps so
	 * that the child, now at prio 135, runs and exits.) */
	sl_o1_set_nice(&o, 1, 10, 0);
	CHECK_EQ_INT(o.t[1].prio, 135);
	sl_o1_block(&o, 0, 0, 0);
	sl_o1_schedule(&o, 0, 0, 0);
	CHECK_EQ_INT(o.rq[0].curr, 1);
	sl_o1_block(&o, 0, 0, 1);
	sl_o1_schedule(&o, 0, 0, 0);
	sl_o1_exit(&o, 1);
	CHECK_EQ_INT(o.t[0].time_slice, 50);
	sl_o1_release(&o);
}

SL_TEST(o1_rq_yield_to_expired)
{
	struct sl_o1 o;
	setup(&o, 2);
	sl_o1_wake(&o, 0, 0, 0, 0, 0, 1);
	sl_o1_wake(&o, 1, 0, 0, 0, 0, 1);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 0, 0), 0);
	/* yield moves task 0 to expired with its slice; starvation clock and
	 * best_expired_prio untouched; task 1 runs next */
	sl_o1_yield(&o, 0, 3 * MS);
	CHECK_EQ_INT(o.t[0].array, !o.rq[0].active);
	CHECK_EQ_INT(o.t[0].time_slice, 100);
	CHECK_EQ_INT(o.rq[0].expired_timestamp, 0);
	CHECK_EQ_INT(o.rq[0].best_expired_prio, 140);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 3 * MS, 0), 1);
	/* task 1 yields too: active empty -> array switch, task 0 first */
	sl_o1_yield(&o, 1, 4 * MS);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 4 * MS, 0), 0);
	CHECK(check_ok(&o));
	sl_o1_release(&o);
}

SL_TEST(o1_rq_batch_and_rt)
{
	struct sl_o1 o;
	sl_o1_init(&o, 3, 1, 1000);
	sl_o1_task_setup(&o, 0, 0, SL_O1_BATCH, 0, 0, 0, 0);
	sl_o1_task_setup(&o, 1, 0, SL_O1_FIFO, 10, 0, 0, 0);
	sl_o1_task_setup(&o, 2, 0, SL_O1_NORMAL, 0, 0, 0, 0);
	/* batch: no sleep credit (1 s asleep -> still 0), woken onto expired */
	sl_o1_wake(&o, 0, 0, 1000 * MS, 0, 0, 1);
	CHECK_EQ_INT(o.t[0].sleep_avg, 0);
	CHECK_EQ_INT(o.t[0].array, !o.rq[0].active);
	sl_o1_wake(&o, 2, 0, 1000 * MS, 0, 0, 1);
	/* FIFO rt_prio 10: prio 99 - 10 = 89, beats everything */
	CHECK_EQ_INT(o.t[1].prio, 89);
	CHECK_EQ_INT(sl_o1_wake(&o, 1, 0, 1000 * MS, 0, 0, 1), 1); /* beats idle (140) */
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 1000 * MS, 0), 1);
	/* FIFO has no slice: 500 ticks change nothing */
	{
		int i;
		for (i = 1; i <= 500; i++)
			CHECK_EQ_INT(sl_o1_tick(&o, 0, (1000 + (uint64_t)i) * MS), 0);
	}
	/* when it blocks the normal task runs before the batch one */
	sl_o1_block(&o, 0, 1500 * MS, 0);
	CHECK_EQ_INT(sl_o1_schedule(&o, 0, 1500 * MS, 0), 2);
	CHECK(check_ok(&o));
	sl_o1_release(&o);
}
