#!/bin/sh
# analyze --format json prints counts and ns values whole (no 8.87787e+09):
# parsed back by sqlite's JSON functions, they equal the values SQL computes
# from the rows of the same run (span = last slice end - first slice start;
# runtime = SUM(dur) of a task), digit for digit.
. "$TOP/tests/e2e/lib.sh"
"$SCHEDLAB" --db "$T/db" import "$TOP/traces/lisa-juno-report.txt" > /dev/null || fail import
"$SCHEDLAB" --db "$T/db" analyze --run 1 --format json > "$T/j" || fail analyze
grep -q 'e+' "$T/j" && fail "exponent notation in JSON: $(grep -o '"[a-z_]*":[0-9.]*e+[0-9]*' "$T/j" | head -3)"
expect_eq "$(sq "$T/db" "SELECT json_valid(readfile('$T/j'))")" 1 "valid JSON"
expect_eq "$(sq "$T/db" "SELECT json_extract(readfile('$T/j'), '\$[0].span_ns')")" \
	"$(sq "$T/db" "SELECT MAX(ts + dur) - MIN(ts) FROM sched_slice WHERE run_id = 1")" "span_ns"
expect_eq "$(sq "$T/db" "SELECT json_type(readfile('$T/j'), '\$[0].span_ns')")" integer "span_ns type"
# the busiest task: its runtime in ns, an integer above 2^31 needs no exponent
u=$(sq "$T/db" "SELECT json_extract(readfile('$T/j'), '\$[0].tasks[0].utid')")
expect_eq "$(sq "$T/db" "SELECT json_extract(readfile('$T/j'), '\$[0].tasks[0].runtime_ns')")" \
	"$(sq "$T/db" "SELECT SUM(dur) FROM sched_slice WHERE run_id = 1 AND utid = $u")" "runtime_ns of utid $u"
expect_eq "$(sq "$T/db" "SELECT json_extract(readfile('$T/j'), '\$[0].runtime_ns')")" \
	"$(sq "$T/db" "SELECT SUM(dur) FROM sched_slice WHERE run_id = 1")" "runtime_ns of the run"
exit 0
