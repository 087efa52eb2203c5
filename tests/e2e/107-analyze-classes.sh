#!/bin/sh
# analyze's classes of task and Jain's index over comparable tasks, against
# SQL over the same rows. 1 CPU, rsdl, 3 s: hogs a, b (nice 0) and c (nice 5)
# are always on the runqueue (on-rq share 1 >= 0.9, present the whole span:
# CPU-bound); s runs 1 ms every 10 ms of sleep, so it is on a runqueue for
# (1 ms + its delay) of every (11 ms + its delay): a sleeper while its delays
# stay under 9 ms (RSDL's bound for a nice-0 task beside three hogs is well
# under that: schedlab bound 0 0 0 5). The comparable group is the largest
# group of CPU-bound tasks of one nice: {a, b} (nice 0), and Jain's index is
# over their CPU rates, runtime / (last slice end - first slice start).
. "$(dirname "$0")/lib.sh"
printf 'a 0 run=inf\nb 0 run=inf\nc 5 run=inf\ns 0 run=1ms sleep=10ms\n' > "$T/w.txt"
"$SCHEDLAB" --db "$T/db" replay --workload "$T/w.txt" --sched rsdl --duration 3s > /dev/null || fail "replay"
"$SCHEDLAB" --db "$T/db" analyze --run 1 --format json > "$T/j" || fail "analyze json"
J() { sq "$T/db" "SELECT json_extract(readfile('$T/j'), '\$[0].$1')"; }
expect_eq "$(J cpu_bound_tasks)" 3 "CPU-bound tasks (a, b, c)"
expect_eq "$(J sleeper_tasks)" 1 "sleepers (s)"
expect_eq "$(J jain_cpu_bound_tasks)" 2 "comparable tasks (a, b: nice 0)"
want=$(sq "$T/db" "WITH r AS (SELECT CAST(SUM(s.dur) AS REAL) / (MAX(s.ts + s.dur) - MIN(s.ts)) AS x FROM sched_slice s
	JOIN thread t USING (utid) WHERE s.run_id = 1 AND t.comm IN ('a', 'b') GROUP BY s.utid)
	SELECT printf('%.6f', SUM(x) * SUM(x) / (COUNT(*) * SUM(x * x))) FROM r")
expect_eq "$(sq "$T/db" "SELECT printf('%.6f', json_extract(readfile('$T/j'), '\$[0].jain_cpu_bound'))")" "$want" "Jain over a and b"
want=$(sq "$T/db" "SELECT MAX(w.ts_run - w.ts) FROM wakeup w JOIN thread t USING (utid) WHERE w.run_id = 1 AND t.comm = 's'")
expect_eq "$(J sleeper_delay_max_ns)" "$want" "the sleepers' longest delay (s's)"
# the table says the same
"$SCHEDLAB" --db "$T/db" analyze --run 1 > "$T/t" || fail "analyze"
grep -q "by class: 1 sleepers, .*; 3 CPU-bound, .*; Jain of 2 CPU-bound nice 0 " "$T/t" || fail "table: $(grep 'by class' "$T/t")"
echo "classes: 3 CPU-bound, 1 sleeper; Jain over a, b $(J jain_cpu_bound)"
