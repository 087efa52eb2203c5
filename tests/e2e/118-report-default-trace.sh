#!/bin/sh
# Issue 25 item 5: report without --trace reports the newest recording,
# not a workload replayed after it (the README's tour replays a synthetic
# workload after the demo's real trace: the report kept showing the
# workload). Trace 1 is imported, trace 2 is a workload (its format row
# says so, checked); a database of workloads only reports the newest one.
. "$TOP/tests/e2e/lib.sh"
command -v gnuplot > /dev/null || skip "gnuplot not installed"
DB="$T/db"
"$SCHEDLAB" --db "$DB" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1 || fail "import"
printf 'a 0 run=inf\nb 5 run=inf\n' > "$T/w.txt"
"$SCHEDLAB" --db "$DB" replay --workload "$T/w.txt" --sched cfs --duration 200ms > /dev/null || fail "workload"
expect_eq "$(sq "$DB" "SELECT group_concat(id || ':' || format, ' ') FROM trace")" "1:ftrace 2:workload" "traces"
"$SCHEDLAB" -q --db "$DB" report -o "$T/rep" > /dev/null || fail "report"
grep -q "<h1>schedlab report: trace 1</h1>" "$T/rep/index.html" || fail "report: $(grep -o '<h1>[^<]*' "$T/rep/index.html")"
"$SCHEDLAB" --db "$T/w.db" replay --workload "$T/w.txt" --sched cfs --duration 200ms > /dev/null || fail "workload only"
printf 'c 0 run=inf\n' > "$T/w2.txt"
"$SCHEDLAB" --db "$T/w.db" replay --workload "$T/w2.txt" --sched o1 --duration 200ms > /dev/null || fail "workload 2"
expect_eq "$(sq "$T/w.db" "SELECT count(*) FROM trace WHERE format = 'workload'")" 2 "workload traces"
"$SCHEDLAB" -q --db "$T/w.db" report -o "$T/rep2" > /dev/null || fail "report of workloads"
grep -q "<h1>schedlab report: trace 2</h1>" "$T/rep2/index.html" || fail "workloads only: $(grep -o '<h1>[^<]*' "$T/rep2/index.html")"
echo "ok: report defaults to trace 1 (the recording), to the newest workload without one"
