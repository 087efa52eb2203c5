#!/bin/sh
# Issue 25 item 1: a task that wanted to run and never did appears in every
# view with its wait. The workload (c nice 10, a -20, b 0, d 19, all
# run=inf, in that order) replayed by cfs on 1 CPU for 12 s starves c: it
# has no slice at all (checked below on the slice table, the premise). Its
# wait is then, by definition (docs/schema.md, metric max_wait_ns), from its
# start (0: no start= in the file) to the run's end (12 s = --duration, the
# CPU busy throughout): 12 000 000 000 ns, the run's longest wait, and the
# run has 4 tasks. Before the fix c had no row anywhere: analyze said
# 3 tasks and the longest wait (5 989 ms) was d's.
. "$TOP/tests/e2e/lib.sh"
DB="$T/db"
printf 'c 10 run=inf\na -20 run=inf\nb 0 run=inf\nd 19 run=inf\n' > "$T/wl"
"$SCHEDLAB" --db "$DB" replay --workload "$T/wl" --sched cfs,eevdf --duration 12s > /dev/null || fail replay
"$SCHEDLAB" --db "$DB" analyze > "$T/an" || fail analyze
cat "$T/an"
c=$(sq "$DB" "SELECT utid FROM thread WHERE comm = 'c'")
expect_eq "$(sq "$DB" "SELECT count(*) FROM sched_slice WHERE run_id = 1 AND utid = $c")" 0 "c's slices under cfs (the premise)"
expect_eq "$(sq "$DB" "SELECT value FROM metric WHERE run_id = 1 AND utid IS NULL AND name = 'tasks'")" 4.0 "tasks of run 1"
expect_eq "$(sq "$DB" "SELECT CAST(value AS INTEGER) FROM metric WHERE run_id = 1 AND utid = $c AND name = 'max_wait_ns'")" \
	12000000000 "c's longest wait"
expect_eq "$(sq "$DB" "SELECT CAST(value AS INTEGER) FROM metric WHERE run_id = 1 AND utid IS NULL AND name = 'max_wait_ns'")" \
	12000000000 "run 1's longest wait"
# c's row in the stored view, with no runtime
expect_eq "$(sq "$DB" "SELECT runtime_ns, switches FROM task_summary WHERE run_id = 1 AND comm = 'c'")" "0|0" "task_summary row of c"
# analyze's table: c with 0 ms and its 12 s wait
awk '$2 == "c" { f = 1; if ($4 != "0.000" || $NF != "12000000.0") exit 1 } END { exit !f }' "$T/an" ||
	fail "analyze has no row of c with its wait"
# compare, with --top 2: c is not among the two busiest but has run 1's
# longest wait, so it is shown, with 12 s in run 1
"$SCHEDLAB" --db "$DB" compare --trace 1 --top 2 > "$T/cmp" || fail compare
cat "$T/cmp"
awk '$2 == "c" { f = 1; if ($5 != "12000000.0") exit 1 } END { exit !f }' "$T/cmp" ||
	fail "compare has no row of c with its wait"
awk '$1 == "longest_wait_us" { if ($2 != "12000000.000") exit 1 }' "$T/cmp" || fail "compare's longest wait"
# the report's per-task table of run 1
"$SCHEDLAB" --db "$DB" report --trace 1 -o "$T/rep" > /dev/null || fail report
grep -q '<tr><td>1</td><td class=l>c</td><td>10</td><td>0.000</td>' "$T/rep/index.html" || fail "report has no row of c"
# a task preempted at the end waits until the end too: under cfs b's last
# slice ends runnable, so its wait runs to 12 s (its longest is at least
# 12 s minus its last slice's end)
bend=$(sq "$DB" "SELECT max(ts + dur) FROM sched_slice WHERE run_id = 1 AND utid = (SELECT utid FROM thread WHERE comm = 'b')")
bw=$(sq "$DB" "SELECT CAST(value AS INTEGER) FROM metric WHERE run_id = 1 AND name = 'max_wait_ns' AND utid = (SELECT utid FROM thread WHERE comm = 'b')")
[ "$bw" -ge $((12000000000 - bend)) ] || fail "b's wait after its last slice ($bw < 12 s - $bend)"
exit 0
