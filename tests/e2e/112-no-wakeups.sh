#!/bin/sh
# Issue 25 item 3: a trace with no wakeup events has no scheduling delay to
# measure: its delay figures are n/a (absent from the metric table, null in
# JSON, "-" in compare), not 0.0. lisa-juno-rtapp-dat/trace.dat has
# sched_switch but no sched_wakeup/sched_waking events (traces README,
# counted with trace-cmd report): its recorded run has no wakeup row (the
# premise, checked on the table).
. "$TOP/tests/e2e/lib.sh"
TR="$SHARED/traces/lisa-juno-rtapp-dat/trace.dat"
[ -f "$TR" ] || skip "no $TR"
DB="$T/db"
"$SCHEDLAB" --db "$DB" import "$TR" > /dev/null 2>&1 || fail import
expect_eq "$(sq "$DB" "SELECT count(*) FROM wakeup WHERE run_id = 1")" 0 "wakeup rows (the premise)"
"$SCHEDLAB" --db "$DB" analyze > "$T/an" || fail analyze
expect_eq "$(sq "$DB" "SELECT count(*) FROM metric WHERE run_id = 1 AND utid IS NULL AND name LIKE '%delay%'")" 0 \
	"delay metrics stored for a run without delays"
grep -q "delay us: n/a" "$T/an" || fail "analyze prints delays for a run without wakeups: $(sed -n 2p "$T/an")"
"$SCHEDLAB" --db "$DB" analyze --format json > "$T/json" || fail "analyze json"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))[0]; sys.exit(0 if r["delay_p99_ns"] is None and r["sleeper_delay_p99_ns"] is None else 1)' "$T/json" ||
	fail "json delay figures are not null"
# the longest wait is still measured (preemptions): 0 < it, from the slices
w=$(sq "$DB" "SELECT CAST(value AS INTEGER) FROM metric WHERE run_id = 1 AND utid IS NULL AND name = 'max_wait_ns'")
[ "$w" -gt 0 ] || fail "longest wait $w"
exit 0
