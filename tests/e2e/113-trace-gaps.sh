#!/bin/sh
# Issue 25 item 3: what a trace lacks is stated. The report's header gives
# the kernel release, the replays' HZ (a trace does not record its HZ), the
# switches the importer had to place and the recorded run's uncertain time,
# each the stored figure (trace table, task_stat); compare says when the
# recorded longest wait belongs to a task with uncertain time, and so does
# the report under its compare table.
. "$TOP/tests/e2e/lib.sh"
TR="$SHARED/traces/systing-perfetto-22cpu/trace.pb"
[ -f "$TR" ] || skip "no $TR"
DB="$T/db"
"$SCHEDLAB" --db "$DB" import "$TR" > /dev/null 2>&1 || fail import
"$SCHEDLAB" --db "$DB" replay --trace 1 --sched cfs --hz 250 > /dev/null || fail replay
"$SCHEDLAB" --db "$DB" report --trace 1 -o "$T/rep" > /dev/null 2>&1 || fail report
H="$T/rep/index.html"
missed=$(sq "$DB" "SELECT missed_switches FROM trace WHERE id = 1")
[ "$missed" -gt 0 ] || fail "premise: no missed switch in the trace"
grep -q "<tr><th class=l>missed switches</th><td class=l>$missed</td></tr>" "$H" || fail "missed switches row ($missed)"
unc=$(sq "$DB" "SELECT printf('%.3f', sum(uncertain_ns) / 1e6) FROM task_stat WHERE run_id = 1")
grep -q "<tr><th class=l>uncertain time</th><td class=l>$unc ms in run 1" "$H" || fail "uncertain time row ($unc ms)"
grep -q "<tr><th class=l>HZ</th><td class=l>not in the file; replays: run 2 250</td></tr>" "$H" || fail "HZ row"
rel=$(sq "$DB" "SELECT COALESCE(NULLIF(kernel_release, ''), 'not in the file') FROM trace WHERE id = 1")
grep -q "<tr><th class=l>kernel release</th><td class=l>$rel</td></tr>" "$H" || fail "release row ($rel)"
# compare's note: perf-sched-missed's recorded longest wait belongs to a
# task with uncertain time (task_stat.uncertain_ns > 0), named by tid
DB2="$T/db2"
"$SCHEDLAB" --db "$DB2" import "$TOP/traces/perf-sched-missed-2cpu.perf.data" > /dev/null 2>&1 || fail import2
"$SCHEDLAB" --db "$DB2" replay --trace 1 --sched cfs > /dev/null || fail replay2
"$SCHEDLAB" --db "$DB2" analyze > /dev/null || fail analyze2
who=$(sq "$DB2" "SELECT th.tid FROM metric m JOIN thread th USING (utid) JOIN task_stat s ON s.run_id = 1 AND s.utid = m.utid
	WHERE m.run_id = 1 AND m.name = 'max_wait_ns' AND s.uncertain_ns > 0 AND m.value =
	(SELECT value FROM metric WHERE run_id = 1 AND utid IS NULL AND name = 'max_wait_ns')")
[ -n "$who" ] || fail "premise: the longest waiter has no uncertain time"
"$SCHEDLAB" --db "$DB2" compare --trace 1 > "$T/cmp" || fail compare
grep -q "^note: run 1's longest wait is $who " "$T/cmp" || fail "no note on uncertain longest wait of $who: $(grep note "$T/cmp")"
# no such note for the replay, whose tasks have no uncertain time
grep -q "^note: run 2" "$T/cmp" && fail "note on a replay"
# and the report, whose compare table shows that longest wait, says so too
"$SCHEDLAB" --db "$DB2" report --trace 1 -o "$T/rep2" > /dev/null 2>&1 || fail report2
ms=$(sq "$DB2" "SELECT printf('%.1f', value / 1e6) FROM metric WHERE run_id = 1 AND utid IS NULL AND name = 'max_wait_ns'")
grep -q "<p class=note>Run 1's longest runnable wait ($ms ms) is that of $who " "$T/rep2/index.html" ||
	fail "no report note on the uncertain longest wait of $who ($ms ms)"
grep -q "<p class=note>Run 2's longest runnable wait" "$T/rep2/index.html" && fail "report note on a replay"
exit 0
