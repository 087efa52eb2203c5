#!/bin/sh
# schedlab replay --trace on bundled real traces, every model linked in, both
# modes. Checked independently with SQL over the stored behaviour:
# - conservation: each task's CPU time in every replayed run equals the sum of
#   its recorded bursts (burst.run_ns), exactly;
# - the pipe-heavy trace (perf bench sched messaging) completes in causal mode
#   with every task's work done, its task-woken sleeps ended causally;
# - a 2-CPU trace replays on both CPUs;
# - determinism: the same trace and options give identical rows.
. "$TOP/tests/e2e/lib.sh"

"$SCHEDLAB" -h 2>&1 | grep -q '^  import' || skip "import not linked"
scheds=rsdl
"$SCHEDLAB" replay -h | grep -q 'o1' && scheds=rsdl,o1

imp() {
	"$SCHEDLAB" --db "$T/db" import "$TOP/traces/$1" > "$T/imp" 2>/dev/null || fail "import $1"
	sed -n 's/^trace \([0-9]*\):.*/\1/p' "$T/imp"
}
mi=$(imp massive-intr-10x-1cpu.ftrace.txt)
msg=$(imp messaging-pipe-2cpu.perf.data)
hogs=$(imp local-2cpu-hogs.ftrace.txt)
[ -n "$mi" ] && [ -n "$msg" ] && [ -n "$hogs" ] || fail "trace ids"

for id in $mi $msg $hogs; do
	for mode in timed causal; do
		"$SCHEDLAB" --db "$T/db" replay --trace "$id" --sched $scheds --mode $mode > "$T/out" 2> "$T/err" ||
			fail "replay trace $id $mode: $(cat "$T/err")"
		grep -q unfinished "$T/out" && fail "trace $id $mode: unfinished tasks: $(cat "$T/out")"
	done
done

bad=$(sq "$T/db" "WITH w AS (SELECT utid, SUM(run_ns) AS w FROM burst GROUP BY utid),
	r AS (SELECT run_id, utid, SUM(dur) AS d FROM sched_slice GROUP BY run_id, utid)
	SELECT COUNT(*) FROM run JOIN thread t ON t.trace_id = run.trace_id JOIN w ON w.utid = t.utid
	LEFT JOIN r ON r.run_id = run.id AND r.utid = t.utid
	WHERE run.scheduler <> 'recorded' AND COALESCE(r.d, 0) <> w.w")
expect_eq "$bad" 0 "tasks whose replayed CPU time differs from the recorded bursts"
nruns=$(sq "$T/db" "SELECT COUNT(*) FROM run WHERE scheduler <> 'recorded'")
nsched=$(echo $scheds | tr ',' '\n' | wc -l)
expect_eq "$nruns" $((3 * 2 * nsched)) "replayed runs"

# causal messaging: its task-woken sleeps all ended causally (no fallback)
"$SCHEDLAB" --db "$T/db" replay --trace "$msg" --sched rsdl --mode causal > "$T/out" || fail "messaging"
grep -q '(0 fell back to timed)' "$T/out" || fail "messaging fallbacks: $(cat "$T/out")"

# the 2-CPU trace uses both CPUs in every replay
expect_eq "$(sq "$T/db" "SELECT MIN(n) FROM (SELECT COUNT(DISTINCT cpu) AS n FROM sched_slice s JOIN run r ON r.id = s.run_id WHERE r.trace_id = $hogs AND r.scheduler <> 'recorded' GROUP BY r.id)")" 2 "CPUs used"

# determinism: run the first replay again, compare every row
"$SCHEDLAB" --db "$T/db" replay --trace "$mi" --sched rsdl --mode timed > /dev/null || fail "again"
a=$(sq "$T/db" "SELECT MIN(id) FROM run WHERE trace_id = $mi AND scheduler = 'rsdl' AND mode = 'timed'")
b=$(sq "$T/db" "SELECT MAX(id) FROM run WHERE trace_id = $mi AND scheduler = 'rsdl' AND mode = 'timed'")
[ "$a" != "$b" ] || fail "no second run"
for tab in "sched_slice:ts, dur, cpu, utid, end_state, priority" "wakeup:utid, ts, ts_run, waker_utid, cpu" "staircase:utid, ts, level, array"; do
	t=${tab%%:*} cols=${tab#*:}
	expect_eq "$(sq "$T/db" "SELECT COUNT(*) FROM (SELECT $cols FROM $t WHERE run_id = $a EXCEPT SELECT $cols FROM $t WHERE run_id = $b)")" 0 "$t rows differ"
	expect_eq "$(sq "$T/db" "SELECT (SELECT COUNT(*) FROM $t WHERE run_id = $a) - (SELECT COUNT(*) FROM $t WHERE run_id = $b)")" 0 "$t row counts"
done

# replay of a trace id that does not exist: one error line, exit 1
"$SCHEDLAB" --db "$T/db" replay --trace 999 --sched rsdl 2> "$T/err" && fail "trace 999 accepted"
expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "error lines"
# no database yet: an error, and no file is created
"$SCHEDLAB" --db "$T/none.db" replay --trace 1 --sched rsdl 2> "$T/err" && fail "replay without a database"
[ ! -e "$T/none.db" ] || fail "replay created a database"
exit 0
