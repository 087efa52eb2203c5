#!/bin/sh
# eevdf's wakeup placement (select_task_rq_fair, v6.6: wake_affine, then
# select_idle_sibling) against the shared 2.6.20 rule (--opt select_idle=0).
# 2 CPUs: h1 (nice 19) pinned to CPU 1 and never sleeping, h0 pinned to
# CPU 0 running 50 ms then sleeping 50 ms, and s (free) running 1 ms every
# 10 ms from 10 ms, which starts on CPU 1 (the lighter runqueue: h1's
# weight 15 against h0's 1024). A wakeup of s is a timer wakeup (no waker).
# By select_idle_sibling, when s wakes while its previous CPU is busy and
# the other CPU idle, s goes to the idle CPU (target = prev is busy, prev ==
# target, select_idle_cpu finds the other); by 2.6.20's try_to_wake_up a
# timer wakeup stays on the CPU it last ran on. The cases are found from the
# rows: the CPU of s's previous slice has another task's slice over the
# wakeup, the other CPU has none. Both runs balance by the shared 2.6.20
# layer (--opt balance=0), which moves s onto h1's CPU (its weight sum 15
# against h0's 1024) while h0 runs, so the case arises; 6.x balancing
# (balance=1, the default) compares PELT loads and moves s only when it
# waits cache-cold, so s mostly stays beside h0 and the case is rare
# (its figures: docs/eevdf.md, SMP).
. "$(dirname "$0")/lib.sh"
printf 'h1 19 run=inf cpus=1\nh0 0 run=50ms sleep=50ms cpus=0\ns 0 run=1ms sleep=9ms start=10ms\n' > "$T/w.txt"
cases() {
	sq "$1" "WITH s AS (SELECT utid FROM thread WHERE comm = 's'),
	w AS (SELECT w.ts AS t, w.cpu AS wcpu, (SELECT x.cpu FROM sched_slice x WHERE x.utid = w.utid
		AND x.ts + x.dur <= w.ts ORDER BY x.ts DESC LIMIT 1) AS prev FROM wakeup w WHERE w.utid IN s),
	c AS (SELECT wcpu, 1 - prev AS other FROM w WHERE prev IS NOT NULL
		AND EXISTS (SELECT 1 FROM sched_slice b WHERE b.utid NOT IN s AND b.cpu = w.prev AND b.ts < w.t AND w.t <= b.ts + b.dur)
		AND NOT EXISTS (SELECT 1 FROM sched_slice b WHERE b.utid NOT IN s AND b.cpu = 1 - w.prev AND b.ts <= w.t AND w.t <= b.ts + b.dur))
	SELECT COUNT(*) || ' ' || COALESCE(SUM(wcpu = other), 0) FROM c"
}
for si in 1 0; do
	"$SCHEDLAB" --db "$T/$si.db" replay --workload "$T/w.txt" --sched eevdf --cpus 2 --duration 1s --debug \
		--opt select_idle=$si --opt balance=0 > /dev/null || fail "replay select_idle=$si"
	set -- $(cases "$T/$si.db")
	[ "$1" -ge 1 ] || fail "select_idle=$si: no wakeup found its CPU busy and the other idle"
	if [ $si = 1 ]; then
		expect_eq "$2" "$1" "select_idle=1: wakeups moved to the idle CPU, of $1"
	else
		expect_eq "$2" 0 "select_idle=0: wakeups moved to the idle CPU, of $1"
	fi
	echo "select_idle=$si: $1 wakeups with their CPU busy and the other idle, $2 moved"
done
