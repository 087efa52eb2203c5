#!/bin/sh
# schedlab compare: the side-by-side table agrees with the metric table that
# analyze stores for the same runs, differences are run minus the first run,
# and runs of different traces are refused.
. "$TOP/tests/e2e/lib.sh"
DB="$T/db"
"$SCHEDLAB" --db "$DB" import "$TOP/traces/massive-intr-10x-1cpu.ftrace.txt" > /dev/null || fail import
"$SCHEDLAB" --db "$DB" replay --trace 1 --sched rsdl,o1 > /dev/null || fail replay
"$SCHEDLAB" --db "$DB" analyze > /dev/null || fail analyze
"$SCHEDLAB" --db "$DB" compare --trace 1 > "$T/cmp" || fail compare
cat "$T/cmp"
head -1 "$T/cmp" | grep -q "run 1 = recorded (recorded), run 2 = rsdl (causal), run 3 = o1 (causal)" || fail header
# p95 delay (us) of each run as stored by analyze, to 3 decimals
for r in 1 2 3; do
	want=$(sq "$DB" "SELECT printf('%.3f', value / 1000.0) FROM metric WHERE run_id = $r AND utid IS NULL AND name = 'delay_p95_ns'")
	col=$((r == 1 ? 2 : 2 * r - 1))
	got=$(awk -v c=$col '$1 == "delay_p95_us" { print $c }' "$T/cmp")
	expect_eq "$got" "$want" "delay_p95_us of run $r"
done
# the diff column is run minus run 1
# columns: name, run 1, run 2, diff 2, run 3, diff 3
awk 'function off(a, b) { return a - b > 0.002 || b - a > 0.002 }
     $1 == "delay_max_us" { if (off($4, $3 - $2) || off($6, $5 - $2)) exit 1 }' "$T/cmp" ||
	fail "diff column is not run minus run 1"
# conservation shows as 0 runtime error for both replays
awk '$1 == "runtime_err_max_us" { if ($3 != "0.000" || $5 != "0.000") exit 1 }' "$T/cmp" || fail "runtime error not 0"
# counts are whole numbers: the wakeups row of each run is the count of its
# wakeup rows, printed without a fraction
for r in 1 2 3; do
	want=$(sq "$DB" "SELECT count(*) FROM wakeup WHERE run_id = $r")
	col=$((r == 1 ? 2 : 2 * r - 1))
	expect_eq "$(awk -v c=$col '$1 == "wakeups" { print $c }' "$T/cmp")" "$want" "wakeups of run $r"
done
# replays conserve every task's CPU time, so the task table shows each
# runtime once (one runtime_ms column, then one delay column per run) and
# says why; the busiest task's runtime is its sum of slices in the recording
grep -q "runtime_ms: the same in every run" "$T/cmp" || fail "runtime shown once not said"
busiest=$(sq "$DB" "SELECT printf('%d %.3f', t.tid, sum(s.dur) / 1e6) FROM sched_slice s JOIN thread t USING (utid)
	WHERE s.run_id = 1 GROUP BY s.utid ORDER BY sum(s.dur) DESC, s.utid LIMIT 1")
expect_eq "$(awk '/^ *TID COMM/ { getline; print $1, $4; exit }' "$T/cmp")" "$busiest" "busiest task's runtime"
"$SCHEDLAB" --db "$DB" import "$TOP/traces/panopticon-desktop.ftrace.txt" > /dev/null
"$SCHEDLAB" --db "$DB" compare --run 1 --run 4 2> "$T/err"; [ $? -eq 1 ] || fail "runs of two traces compared"
grep -q "compare runs of one trace" "$T/err" || fail "message: $(cat "$T/err")"
