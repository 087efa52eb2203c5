/* tests/unit/test_groups.c - task groups (docs/groups.md): the eevdf
 * model's two-level group scheduling against CPU shares and picks worked out by hand
 * from calc_group_shares (kernel/sched/fair.c, v6.18), and the groups a
 * behaviour takes from the ledger's rows (analyze/store_groups.c). */
#include "harness.h"
#include "test_engine_util.h"
#include "../../analyze/store.h"

#include <stdlib.h>
#include <string.h>

/* groups[0..n) of b with the given shares */
static void set_groups(struct sl_behaviour *b, const unsigned long *shares, size_t n)
{
	size_t i;
	b->groups = xcalloc(n, sizeof(*b->groups));
	b->ngroups = n;
	b->groups_from = SL_GROUPS_LEDGER;
	for (i = 0; i < n; i++) {
		snprintf(b->groups[i].name, sizeof(b->groups[i].name), "g%zu", i);
		b->groups[i].shares = shares[i];
	}
}

static struct sl_task_spec *hog(struct sl_behaviour *b, const char *name, int nice, uint32_t group1)
{
	struct sl_task_spec *t = add_task(b, name, nice, 0);
	add_phase(t, 10 * SL_NS_PER_SEC, SL_END_EXIT, 0, SL_WAKER_NONE, -1, 0);
	t->group1 = group1;
	return t;
}

static int run_groups(const struct sl_behaviour *b, int cpus, uint64_t dur, int no_groups, struct trec *r)
{
	struct sl_replay_opts o;
	sl_replay_opts_init(&o);
	o.cpus = cpus;
	o.duration_ns = dur;
	o.no_groups = no_groups;
	return trun_opts(b, "eevdf", &o, r, NULL);
}

/* An autogroup makes nice relative to the group: a nice -10 task (weight
 * 9548) alone in its autogroup (shares 1024) beside a nice-0 task of the
 * root group on one CPU. The group's load on the CPU is max(9548, its load
 * average) = 9548, the group's total the same, so shares = 1024 * 9548 /
 * 9548 = 1024 (also the clamp's top): the two run at 1024 : 1024, 500 ms
 * each of 1 s. Without groups, 9548 : 1024 gives 903 ms : 97 ms. Within a
 * few slices (0.70 ms slice, 1 ms ticks): 5 ms. */
SL_TEST(groups_autogroup_makes_nice_relative)
{
	struct sl_behaviour b;
	struct trec r;
	unsigned long sh[1] = { 1024 };
	memset(&b, 0, sizeof(b));
	b.cpus = 1;
	hog(&b, "niced", -10, 1);
	hog(&b, "root", 0, 0);
	set_groups(&b, sh, 1);
	CHECK_EQ_INT(run_groups(&b, 1, SL_NS_PER_SEC, 0, &r), 0);
	CHECK_NEAR((double)trun_runtime(&r, 0) / 1e6, 500.0, 5.0);
	CHECK_NEAR((double)trun_runtime(&r, 1) / 1e6, 500.0, 5.0);
	trec_free(&r);
	CHECK_EQ_INT(run_groups(&b, 1, SL_NS_PER_SEC, 1, &r), 0);
	/* 1 s * 9548 / (9548 + 1024) = 903.1 ms */
	CHECK_NEAR((double)trun_runtime(&r, 0) / 1e6, 903.1, 5.0);
	trec_free(&r);
	sl_behaviour_release(&b);
}

/* 1 CPU: task a alone in group 1, b1..b3 in group 2, shares sh */
static void one_and_three(struct sl_behaviour *b, unsigned long *sh)
{
	memset(b, 0, sizeof(*b));
	b->cpus = 1;
	hog(b, "a", 0, 1);
	hog(b, "b1", 0, 2);
	hog(b, "b2", 0, 2);
	hog(b, "b3", 0, 2);
	set_groups(b, sh, 2);
}
/* Two sessions of one CPU: one task in group A, three in group B, all
 * nice 0, both groups' shares 1024. B's load is 3 * 1024 = 3072 on the one
 * CPU, so its shares are 1024 * 3072 / 3072 = 1024; A's likewise 1024. The
 * root holds the two entities at 1024 : 1024, 600 ms each of 1.2 s; in B's
 * queue its three tasks, 1024 each, split B's 600 ms: 200.0 ms each. (The
 * flat model queued B's tasks at the root with 1024 * 1024 / 3072 = 341
 * each: A's task 1.2 s * 1024 / (1024 + 3 * 341) = 600.3 ms.) Without
 * groups: 300 ms each. */
SL_TEST(groups_sessions_share_equally)
{
	struct sl_behaviour b;
	struct trec r;
	unsigned long sh[2] = { 1024, 1024 };
	int i;
	one_and_three(&b, sh);
	CHECK_EQ_INT(run_groups(&b, 1, 1200 * TMS, 0, &r), 0);
	CHECK_NEAR((double)trun_runtime(&r, 0) / 1e6, 600.0, 5.0);
	for (i = 1; i <= 3; i++)
		CHECK_NEAR((double)trun_runtime(&r, i) / 1e6, 200.0, 5.0);
	trec_free(&r);
	CHECK_EQ_INT(run_groups(&b, 1, 1200 * TMS, 1, &r), 0);
	CHECK_NEAR((double)trun_runtime(&r, 0) / 1e6, 300.0, 5.0);
	trec_free(&r);
	sl_behaviour_release(&b);
}

/* A cgroup of cpu.weight 50 (shares 512) with one task beside a root
 * nice-0 task: 512 : 1024, so 300 ms of 900 ms. */
SL_TEST(groups_cgroup_weight)
{
	struct sl_behaviour b;
	struct trec r;
	unsigned long sh[1] = { 512 };
	memset(&b, 0, sizeof(b));
	b.cpus = 1;
	hog(&b, "half", 0, 1);
	hog(&b, "root", 0, 0);
	set_groups(&b, sh, 1);
	CHECK_EQ_INT(run_groups(&b, 1, 900 * TMS, 0, &r), 0);
	CHECK_NEAR((double)trun_runtime(&r, 0) / 1e6, 300.0, 5.0);
	CHECK_NEAR((double)trun_runtime(&r, 1) / 1e6, 600.0, 5.0);
	trec_free(&r);
	sl_behaviour_release(&b);
}

/* A group's blocked load decays (update_blocked_averages and every update
 * of the group's cfs_rq, kernel/sched/fair.c, v6.18). Group g (shares
 * 1024) has A on CPU 1 (pinned) running 200 ms then asleep, and B on CPU 0
 * (pinned) beside a root nice-0 hog C. For the first 200 ms both of g's
 * loads are 1024 (new tasks start at their weight, both runnable), so B's
 * share on CPU 0 is 1024 * 1024 / 2048 = 512: B runs 200 / 3 = 66.7 ms.
 * Then A's load halves every 32.768 ms (32 periods of 1024 us) and B's
 * share is 1024 * 1024 / (1024 + 1024 * 2^-(t / 32.768 ms)), B's part of
 * CPU 0 share / (share + 1024): integrated (1e-5 s steps) over the
 * remaining 1 s, B runs 557.1 ms of 1.2 s. A load that kept A's 1024 while
 * A slept would leave B at 512 throughout: 400 ms. */
SL_TEST(groups_blocked_load_decays)
{
	struct sl_behaviour b;
	struct trec r;
	unsigned long sh[1] = { 1024 };
	struct sl_task_spec *a, *t;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	a = add_task(&b, "a", 0, 0);
	add_phase(a, 200 * TMS, SL_END_SLEEP_S, 10 * SL_NS_PER_SEC, SL_WAKER_IRQ, -1, 0);
	add_phase(a, TMS, SL_END_EXIT, 0, SL_WAKER_NONE, -1, 0);
	a->group1 = 1;
	a->cpumask = 2;
	t = hog(&b, "b", 0, 1);
	t->cpumask = 1;
	t = hog(&b, "c", 0, 0);
	t->cpumask = 1;
	set_groups(&b, sh, 1);
	CHECK_EQ_INT(run_groups(&b, 2, 1200 * TMS, 0, &r), 0);
	CHECK_NEAR((double)trun_runtime(&r, 1) / 1e6, 557.1, 15.0);
	CHECK_NEAR((double)trun_runtime(&r, 2) / 1e6, 642.9, 15.0);
	trec_free(&r);
	sl_behaviour_release(&b);
}

/* Sleepers in groups on two CPUs: every task's work done exactly (the
 * replay conserves CPU time), invariants hold after every call (debug),
 * and two runs give the same rows. */
SL_TEST(groups_conserve_and_repeat)
{
	struct sl_behaviour b;
	struct trec r1, r2;
	unsigned long sh[2] = { 1024, 2048 };
	size_t i;
	int k;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	for (k = 0; k < 6; k++) {
		char name[8];
		struct sl_task_spec *t;
		int j;
		snprintf(name, sizeof(name), "t%d", k);
		t = add_task(&b, name, k % 3 - 1, (uint64_t)k * 100 * 1000ULL);
		for (j = 0; j < 40; j++)
			add_phase(t, (uint64_t)(300 + 170 * k) * 1000ULL, j == 39 ? SL_END_EXIT : SL_END_SLEEP_S,
				  (uint64_t)(200 + 90 * k) * 1000ULL, SL_WAKER_IRQ, -1, 0);
		t->group1 = (uint32_t)(k % 3);
	}
	set_groups(&b, sh, 2);
	CHECK_EQ_INT(run_groups(&b, 2, 0, 0, &r1), 0);
	CHECK_EQ_INT(run_groups(&b, 2, 0, 0, &r2), 0);
	for (k = 0; k < 6; k++)
		CHECK_EQ_INT(trun_runtime(&r1, k), 40 * (uint64_t)(300 + 170 * k) * 1000ULL);
	CHECK_EQ_INT(r1.ns, r2.ns);
	for (i = 0; i < r1.ns && i < r2.ns; i++)
		CHECK(r1.s[i].ts == r2.s[i].ts && r1.s[i].dur == r2.s[i].dur && r1.s[i].cpu == r2.s[i].cpu &&
		      r1.s[i].task == r2.s[i].task && r1.s[i].end == r2.s[i].end);
	trec_free(&r1);
	trec_free(&r2);
	sl_behaviour_release(&b);
}

/* The groups of a behaviour from the ledger's rows: the cgroup wins over
 * the autogroup (task_wants_autogroup); an autogroup's shares are its
 * nice's weight (nice 5: 335); cpu.weight 200 is shares 2048; a thread
 * the ledger lacks takes its parent's group, else its thread group's;
 * a kernel thread stays in the root group. */
SL_TEST(groups_from_ledger_rows)
{
	struct sl_behaviour b;
	struct sl_group_raw raw[7];
	memset(&b, 0, sizeof(b));
	memset(raw, 0, sizeof(raw));
	add_task(&b, "sess", 0, 0);   /* 0: autogroup 7 nice 5 */
	add_task(&b, "cg", 0, 0);     /* 1: cgroup /work weight 200, autogroup 7 */
	add_task(&b, "child", 0, 0);  /* 2: not in the ledger, parent 0 */
	add_task(&b, "thread", 0, 0); /* 3: not in the ledger, tgid of 1 */
	add_task(&b, "kthr", 0, 0);   /* 4: not in the ledger, kernel thread */
	add_task(&b, "root", 0, 0);   /* 5: autogroup -1 (none) */
	add_task(&b, "lost", 0, 0);   /* 6: not in the ledger, no relation */
	raw[0] = (struct sl_group_raw){ 1, 7, 5, "/", 100 };
	raw[1] = (struct sl_group_raw){ 1, 7, 0, "/work", 200 };
	raw[5] = (struct sl_group_raw){ 1, -1, 0, "/", 100 };
	b.tasks[2].parent = 0;
	b.tasks[3].tgid = b.tasks[1].tgid;
	b.tasks[4].flags = SL_TASK_KTHREAD;
	b.tasks[4].parent = 0;
	sl_behaviour_set_groups(&b, raw);
	CHECK_EQ_INT(b.groups_from, SL_GROUPS_LEDGER);
	CHECK_EQ_INT(b.ngroups, 2);
	CHECK_EQ_INT(b.groups_assumed, 4);
	CHECK_STR(b.groups[b.tasks[0].group1 - 1].name, "autogroup-7");
	CHECK_EQ_INT(b.groups[b.tasks[0].group1 - 1].shares, 335);
	CHECK_STR(b.groups[b.tasks[1].group1 - 1].name, "/work");
	CHECK_EQ_INT(b.groups[b.tasks[1].group1 - 1].shares, 2048);
	CHECK_EQ_INT(b.tasks[2].group1, b.tasks[0].group1);
	CHECK_EQ_INT(b.tasks[3].group1, b.tasks[1].group1);
	CHECK_EQ_INT(b.tasks[4].group1, 0);
	CHECK_EQ_INT(b.tasks[5].group1, 0);
	CHECK_EQ_INT(b.tasks[6].group1, 0);
	sl_behaviour_release(&b);
}

/* A group's entity holds its RUN_TO_PARITY protection at the root until
 * its share changes: in v6.17+ the protection (vprot) shares its storage
 * with vlag (struct sched_entity), and reweight_entity() ->
 * update_entity_lag() overwrites it; update_cfs_group() reweights only
 * when the share differs (kernel/sched/fair.c, v6.18). Two CPUs: 1.4 ms
 * slice; 1 ms ticks; group G of shares 512. H (of G) spins on CPU 0,
 * picked at 0: in G's queue at 0 with half a request (deadline 0.7 ms);
 * G's entity, weighed first, at the root at 0 with a whole one: 1.4 ms *
 * 1024 / 512 = 2.8 ms of virtual time, its vruntime growing 2 ns a ns;
 * protected until that deadline. W (root, 1024) starts on CPU 0 at 0.2 ms
 * for 0.1 ms: placed at V (G's entity alone: its vruntime, 0.4 ms) with
 * half a request, deadline 1.1 ms, before the entity's 2.8 ms, and
 * eligible.
 * - G's tasks on CPU 0 only: its share is 512 * load / load = 512 at
 *   every update, never reweighted, and the entity keeps its protection.
 *   At the tick of 1 ms its vruntime is 2 ms, short of 2.8 (no pick; H
 *   alone in G's queue); at 2 ms it is 4 ms: a new request, a pick, V =
 *   (4 * 512 + 0.4 * 1024) / 1536 = 1.6 ms, W eligible, the entity not: W
 *   runs from 2 ms. With W in G instead the two tasks meet in G's queue
 *   (W at H's 0.2 ms, deadline 0.9 ms), and H keeps its own protection
 *   until its deadline of 0.7 ms, which the tick finds at 1 ms: H at 1 ms,
 *   V = 0.6 ms, W eligible: W runs from 1 ms.
 * - K (of G) spins on CPU 1 from 0, and S (of G) wakes on CPU 0 at 0.1 ms
 *   for 0.05 ms: G's share on CPU 0 goes from 512 * 1024 / 1024 = 512 (H
 *   alone, K not yet attached when H was queued) to 512 * 2048 / (2048 +
 *   1024) = 341 (H and S queued there, K's 1024 on CPU 1; the new tasks'
 *   loads are their weights, decayed by under 1 % in 0.1 ms): the entity
 *   is reweighted and loses its protection (S itself waits in G's queue
 *   behind H). Its vruntime is 0.2 ms, the rest of its request 2.6 ms
 *   scaled by 512 / 341 to 3.9 ms; at 0.2 ms it is at 0.2 + 0.1 * 1024 /
 *   341 = 0.5 ms, W placed there with deadline 0.5 + 0.7 ms, earlier, and
 *   eligible: W preempts at 0.2 ms. */
static uint64_t w_start(uint32_t w_group, int with_s)
{
	struct sl_behaviour b;
	struct trec r;
	unsigned long sh[1] = { 512 };
	struct sl_task_spec *w, *t;
	uint64_t ts = UINT64_MAX;
	size_t i;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	hog(&b, "H", 0, 1)->cpumask = 1;
	w = add_task(&b, "W", 0, 200000ULL);
	add_phase(w, 100000ULL, SL_END_EXIT, 0, SL_WAKER_NONE, -1, 0);
	w->group1 = w_group;
	w->cpumask = 1;
	if (with_s) {
		hog(&b, "K", 0, 1)->cpumask = 2;
		t = add_task(&b, "S", 0, 100000ULL);
		add_phase(t, 50000ULL, SL_END_EXIT, 0, SL_WAKER_NONE, -1, 0);
		t->group1 = 1;
		t->cpumask = 1;
	}
	set_groups(&b, sh, 1);
	if (run_groups(&b, 2, 5 * TMS, 0, &r) == 0)
		for (i = 0; i < r.ns; i++)
			if (r.s[i].task == 1 && r.s[i].ts < ts)
				ts = r.s[i].ts;
	trec_free(&r);
	sl_behaviour_release(&b);
	return ts;
}

SL_TEST(groups_protection_lost_when_the_share_changes)
{
	CHECK_EQ_INT(w_start(0, 0), 2 * TMS);
	CHECK_EQ_INT(w_start(1, 0), 1 * TMS);
	CHECK_EQ_INT(w_start(0, 1), 200000ULL);
}

/* The root's load holds a group's entity, not the group's tasks
 * (docs/groups.md, "The root's load"). Two CPUs, group G of shares 1024:
 * H (of G) spins on CPU 0 and R (root) on CPU 1, both pinned; S (of G)
 * runs 1 ms every 10 ms on CPU 0, each sleep ended by an interrupt on
 * CPU 1 (timer, recorded CPU). Neither CPU is idle at a wakeup, so
 * wake_affine_weight (kernel/sched/fair.c, v6.18; WA_BIAS, imbalance_pct
 * 117) decides: S moves to CPU 1 when this_eff = (L1 + tl) * 100 is below
 * prev_eff = (L0 - tl) * 108, with L the CPUs' root loads and tl S's
 * task_h_load:
 * - L1 = R's load: always runnable, load_sum at its maximum: 1024;
 * - L0 = G's entity on CPU 0: always queued (H), its weight G's share
 *   there, 1024 (all of G's load is on CPU 0): 1024;
 * - tl = S's own load (1024 f, f its runnable share: 0.1 to 0.2 with its
 *   waits behind H) times its group cfs_rq's h_load (the entity's 1024)
 *   over that cfs_rq's load (H's 1024 + S's 1024 f): 1024 f / (1 + f),
 *   93 to 171.
 * this_eff 111 700 to 119 500 against prev_eff 100 548 to 92 124: S stays
 * on CPU 0 at every wakeup. (The flat sum of the tasks' loads put S's
 * blocked load on top of H's, which held all of G's share while S slept:
 * L0 = 1024 + 512 f, tl = 512 f (S's share with H queued is 512), this_eff
 * = (1024 + 512 f) * 100 against prev_eff = 1024 * 108: S moved for
 * f < 0.16.) The groups' entities are kept per CPU; the run repeats. */
SL_TEST(groups_root_load_is_the_group_entity)
{
	struct sl_behaviour b;
	struct sl_replay_opts o;
	struct sl_task_spec *t;
	struct trec r;
	unsigned long sh[1] = { 1024 };
	size_t i;
	int k, moves = 0, slices = 0;
	memset(&b, 0, sizeof(b));
	b.cpus = 2;
	t = add_task(&b, "s", 0, 0);
	t->group1 = 1;
	for (k = 0; k < 20; k++) {
		add_phase(t, 1 * TMS, SL_END_SLEEP_S, 9 * TMS, SL_WAKER_IRQ, -1, 0);
		t->phases[k].wake_cpu1 = 2;
		t->phases[k].sleep_cpu1 = 1;
	}
	add_phase(t, 1 * TMS, SL_END_EXIT, 0, 0, -1, 0);
	hog(&b, "h", 0, 1)->cpumask = 1;
	hog(&b, "r", 0, 0)->cpumask = 2;
	set_groups(&b, sh, 1);
	sl_replay_opts_init(&o);
	o.cpus = 2;
	o.duration_ns = 300 * TMS;
	o.irq_cpu_mode = SL_IRQ_CPU_RECORDED;
	CHECK_EQ_INT(trun_opts(&b, "eevdf", &o, &r, NULL), 0);
	for (i = 0; i < r.ns; i++) {
		if (r.s[i].task != 0)
			continue;
		slices++;
		moves += r.s[i].cpu != 0;
	}
	CHECK(slices >= 21);
	CHECK_EQ_INT(moves, 0);
	trec_free(&r);
	sl_behaviour_release(&b);
}

/* Two levels (kernel/sched/fair.c, v6.18: pick_next_task_fair walks down
 * from the root, update_curr and entity_tick at each level). One CPU, HZ
 * 1000, 0.70 ms slice: group A (1024) with one task a, group B (1024) with
 * b1, b2, b3, all nice-0 hogs started at 0 in that order. On one CPU each
 * group's share is 1024 * load / load = 1024, so the root holds two
 * entities of 1024.
 * - 0: a is placed in A's queue at 0, deadline 0.35 ms (a new task: half
 *   a slice); A's entity at the root at V = 0, deadline 0.70 ms (a parent:
 *   ENQUEUE_WAKEUP, not initial); b1..b3 in B's queue at 0, deadlines
 *   0.35 ms; B's entity at V = 0, deadline 0.70 ms. A and B tie: A, queued
 *   first. a runs.
 * - 1 ms (tick): a and A both at v = 1 ms, past their deadlines: new ones
 *   at 1.70 ms; A has B beside it: resched. Root V = (1 + 0) / 2 ms: A is
 *   not eligible, B is. In B's queue b1..b3 tie (0, 0.35 ms): b1.
 * - 2 ms: b1 at 1 ms (deadline 1.70), B at 1 ms (deadline 1.70): resched.
 *   Root: A and B at 1 ms, deadlines 1.70 both; curr B wins only with a
 *   strictly earlier one: A. a runs.
 * - 3 ms: A at 2 ms (deadline 2.70), V = 1.5 ms: B. B's queue: b1 (1 ms,
 *   1.70), b2 and b3 (0, 0.35), V = 1/3 ms: b2 and b3 eligible, b2 queued
 *   first.
 * - 4 ms: A again (tie at 2 ms / 2.70); 5 ms: B, where only b3 (0) is
 *   eligible (V = 2/3 ms); 6 ms: A; 7 ms: B, b1..b3 all at 1 ms, deadline
 *   1.70: b1, the first put back.
 * So a, b1, a, b2, a, b3, a, b1, a slice of 1 ms each: a waits 1 ms (B's
 * entity's slice to the tick), never three of B's tasks' turns. (The one
 * queue of the flat model, each b at 341 of B's 1024, ran a, b1, b2, b3,
 * then a for 3 ms: a's first wait was 3 ms; measured on that model.) */
SL_TEST(groups_two_levels_alternate_entities)
{
	struct sl_behaviour b;
	struct trec r;
	unsigned long sh[2] = { 1024, 1024 };
	static const int order[8] = { 0, 1, 0, 2, 0, 3, 0, 1 };
	size_t i;
	one_and_three(&b, sh);
	CHECK_EQ_INT(run_groups(&b, 1, 10 * TMS, 0, &r), 0);
	CHECK(r.ns >= 8);
	for (i = 0; i < 8 && i < r.ns; i++) {
		CHECK_EQ_INT(r.s[i].task, order[i]);
		CHECK_EQ_INT(r.s[i].ts, (uint64_t)i * TMS);
		CHECK_EQ_INT(r.s[i].dur, TMS);
	}
	trec_free(&r);
	sl_behaviour_release(&b);
}
