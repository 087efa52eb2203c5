#!/bin/sh
# replay --exclude COMM-GLOB (repeatable): the tasks whose comm matches are
# left out (no row of theirs in the run), every other task keeps its
# recorded CPU time to the ns (timed and causal: the wakeups the excluded
# tasks made become timed wakeups, so causal mode cannot wait on them), the
# run's params state the patterns, and the count printed is SQL's count of
# matching threads. A pattern with a comma or quote is a usage error.
. "$(dirname "$0")/lib.sh"
DB="$T/db"
"$SCHEDLAB" --db "$DB" import "$TOP/traces/perf-sched-load-2cpu.perf.data" > /dev/null 2>&1 || fail "import"
want=$(sq "$DB" "SELECT COUNT(*) FROM thread WHERE trace_id = 1 AND (comm GLOB 'perf*' OR comm GLOB 'kworker*')
	AND utid IN (SELECT utid FROM task_model)")
[ "$want" -ge 2 ] || skip "the trace has fewer than 2 perf/kworker tasks"
for mode in timed causal; do
	"$SCHEDLAB" --db "$DB" replay --trace 1 --sched rsdl --mode $mode --exclude 'perf*' --exclude 'kworker*' --debug \
		> "$T/out" 2> "$T/err" || { cat "$T/err"; fail "replay $mode"; }
	run=$(sq "$DB" "SELECT MAX(id) FROM run")
	grep -q "^left out $want tasks matching perf\*,kworker\* (--exclude)" "$T/out" || fail "$mode: $(head -1 "$T/out")"
	expect_eq "$(sq "$DB" "SELECT json_extract(params, '\$.exclude') FROM run WHERE id = $run")" 'perf*,kworker*' "$mode: params"
	expect_eq "$(sq "$DB" "SELECT COUNT(*) FROM sched_slice s JOIN thread t USING (utid) WHERE s.run_id = $run
		AND (t.comm GLOB 'perf*' OR t.comm GLOB 'kworker*')")" 0 "$mode: slices of excluded tasks"
	expect_eq "$(sq "$DB" "SELECT COUNT(*) FROM (SELECT t.utid, SUM(CASE WHEN s.run_id = 1 THEN s.dur ELSE 0 END) AS a,
		SUM(CASE WHEN s.run_id = $run THEN s.dur ELSE 0 END) AS b FROM sched_slice s JOIN thread t USING (utid)
		WHERE NOT (t.comm GLOB 'perf*' OR t.comm GLOB 'kworker*') GROUP BY t.utid) WHERE a != b")" 0 \
		"$mode: tasks whose CPU time differs from the recording"
done
# a run without --exclude states none
"$SCHEDLAB" --db "$DB" replay --trace 1 --sched rsdl > /dev/null 2>&1 || fail "replay"
expect_eq "$(sq "$DB" "SELECT json_extract(params, '\$.exclude') IS NULL FROM run WHERE id = (SELECT MAX(id) FROM run)")" 1 "params without --exclude"
"$SCHEDLAB" --db "$DB" replay --trace 1 --sched rsdl --exclude 'a,b' 2> "$T/err"; expect_eq $? 2 "a pattern with a comma"
grep -q "expected a comm pattern" "$T/err" || fail "message: $(cat "$T/err")"
echo "exclude: $want tasks left out, the others' CPU time exact, timed and causal"
