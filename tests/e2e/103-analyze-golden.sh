#!/bin/sh
# analyze's table and CSV for a real trace, against golden files. The
# golden numbers were checked against sqlite3 on the same database: the
# runtime, switch and wakeup columns equal task_summary's, checked below.
. "$TOP/tests/e2e/lib.sh"
"$SCHEDLAB" --db "$T/db" import "$TOP/traces/lisa-juno-report.txt" > /dev/null || fail import
"$SCHEDLAB" --db "$T/db" analyze --top 10 > "$T/table" || fail analyze
golden analyze-lisa.txt "$T/table"
"$SCHEDLAB" --db "$T/db" analyze --format csv > "$T/csv" || fail csv
# every task's runtime/switches/wakeups in the CSV equal the SQL view's
sort -t, -k3,3n "$T/csv" | awk -F, 'NR > 1 { print $3 "|" $7 "|" $8 "|" $9 }' | sort > "$T/a"
sq "$T/db" "SELECT utid, runtime_ns, switches, wakeups FROM task_summary WHERE run_id = 1" | sort > "$T/b"
diff "$T/a" "$T/b" || fail "csv and task_summary differ"
# the stored metrics match the printed run line: 49 tasks
expect_eq "$(sq "$T/db" "SELECT value FROM metric WHERE run_id = 1 AND utid IS NULL AND name = 'tasks'")" "49.0" "tasks metric"
