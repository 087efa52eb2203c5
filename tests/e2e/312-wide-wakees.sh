#!/bin/sh
# Wide wakees (docs/model.md "Wide wakees") on traces/corpus/cgroup-weights.dat:
# rcu_preempt wakes no task there, so the kernel never decays its
# wakee_flips, and its interrupt wakeups from the other CPU with both CPUs
# busy stayed where it slept: the import marks it (task_model.flags 256,
# and no other task). Its CPU changes in the recorded run: 4. eevdf starts
# it with wakee_flips = 2 (the CPU count), so wake_wide() keeps it on its
# CPU as the kernel did: the seed-0 replay moves it 0-8 times (4 when
# written); with --opt wide_start=0 (every task at 0: wake_affine_weight
# takes the interrupt's CPU between two equally loaded CPUs) 25-32 times
# over seeds 0-4 when written: more than 12. Since the root's load holds
# the groups' entities (docs/groups.md "The root's load", 2026-12-06) the
# two CPUs' loads are the two cgroups' shares, closer to each other than
# the flat sums were: 10, 7, 5, 8, 5 moves over seeds 0-4 with the mark,
# 20, 36, 23, 25, 15 without; the seed-0 bound is now 10.
. "$(dirname "$0")/lib.sh"
tr="$TOP/traces/corpus/cgroup-weights.dat"
"$SCHEDLAB" --db "$T/db" import "$tr" > /dev/null 2>&1 || fail "import $tr"
expect_eq "$(sq "$T/db" "SELECT group_concat(t.comm) FROM task_model m JOIN thread t USING (utid)
	WHERE m.flags & 256")" "rcu_preempt" "the wide wakees"
moves() { sq "$T/db" "WITH s AS (SELECT cpu, lag(cpu) OVER (ORDER BY ts) pc FROM sched_slice
	WHERE run_id = $1 AND utid = (SELECT utid FROM thread WHERE comm = 'rcu_preempt'))
	SELECT SUM(pc IS NOT NULL AND pc <> cpu) FROM s"; }
expect_eq "$(moves 1)" 4 "rcu_preempt's CPU changes, recorded"
run=$("$SCHEDLAB" --db "$T/db" -q replay --trace 1 --sched eevdf | sed -n 's/^run \([0-9]*\) .*/\1/p')
m=$(moves "$run")
[ "$m" -le 10 ] || fail "rcu_preempt moves $m times in the replay (recorded 4)"
run0=$("$SCHEDLAB" --db "$T/db" -q replay --trace 1 --sched eevdf --opt wide_start=0 | sed -n 's/^run \([0-9]*\) .*/\1/p')
m0=$(moves "$run0")
[ "$m0" -gt 12 ] || fail "without the mark rcu_preempt moves only $m0 times"
echo "rcu_preempt: 4 moves recorded, $m replayed ($m0 without the mark)"
exit 0
