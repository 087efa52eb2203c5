#!/bin/sh
# Warnings that agree with the summary (issue 11): a cut file, lost events
# and missed switches are told apart, on the summary line, in the trace row
# (cut_at, lost_events, missed_switches) and in the warnings. Missed
# switches against an awk count are checked in tests/e2e/260.
. "$TOP/tests/e2e/lib.sh"
F="$TOP/traces/ftrace-runtime-2cpu.ftrace.txt"

# 1. cut: the first 300001 bytes of an ftrace text end inside line 2316 (wc -l
# counts the 2315 whole lines before it): the importer drops that line, says
# where, and the summary says "cut short at line 2316" beside "0 lost events"
head -c 300001 "$F" > "$T/cut.txt"
line=$(($(wc -l < "$T/cut.txt") + 1))
"$SCHEDLAB" --db "$T/db" import "$T/cut.txt" > "$T/out" 2> "$T/err" || fail "import cut: $(cat "$T/err")"
grep -q "warning: $T/cut.txt:$line: last line is cut off" "$T/err" || fail "cut warning: $(cat "$T/err")"
grep -q " 0 lost events, [0-9]* missed switches ([0-9.]* ms uncertain), cut short at line $line;" "$T/out" ||
	fail "summary of a cut file: $(cat "$T/out")"
expect_eq "$(sq "$T/db" "SELECT lost_events, cut_at FROM trace WHERE path LIKE '%cut.txt'")" "0|$line" "trace row of a cut file"
# the whole file: not cut
"$SCHEDLAB" --db "$T/db" import "$F" > "$T/out" 2> "$T/err" || fail "import whole"
grep -q "cut short" "$T/out" "$T/err" && fail "whole file said cut: $(cat "$T/out" "$T/err")"
expect_eq "$(sq "$T/db" "SELECT cut_at IS NULL FROM trace WHERE path = '$F'")" 1 "cut_at of a whole file"

# 2. lost events: perf-sched-lost-2cpu.perf.data (tests/e2e/255: its
# PERF_RECORD_LOST counts per CPU, from perf script --show-lost-events); the
# summary's count, the trace row and the per-CPU warnings agree, and the
# file is not called cut
L="$TOP/traces/perf-sched-lost-2cpu.perf.data"
"$SCHEDLAB" --db "$T/db" import "$L" > "$T/out" 2> "$T/err" || fail "import lost"
lost=$(sed -n 's/.* \([0-9]*\) lost events.*/\1/p' "$T/out")
[ "${lost:-0}" -gt 0 ] || fail "no lost events in the summary: $(cat "$T/out")"
expect_eq "$(sq "$T/db" "SELECT lost_events FROM trace WHERE path = '$L'")" "$lost" "trace.lost_events"
expect_eq "$(sed -n 's/.*: CPU [0-9]* lost \([0-9]*\) events.*/\1/p' "$T/err" | awk '{ s += $1 } END { print s }')" "$lost" "per-CPU lost warnings"
expect_eq "$(sq "$T/db" "SELECT SUM(t.lost_events) FROM trace_cpu t JOIN trace r ON r.id = t.trace_id WHERE r.path = '$L'")" "$lost" "trace_cpu"
grep -q "cut short" "$T/out" && fail "a file with lost events said cut"
ms=$(sed -n 's/.* \([0-9]*\) missed switches.*/\1/p' "$T/out")
expect_eq "$(sq "$T/db" "SELECT missed_switches FROM trace WHERE path = '$L'")" "$ms" "trace.missed_switches beside lost events"
# uncertain time: the summary's total is the sum of task_stat.uncertain_ns
unc=$(sed -n 's/.* missed switches (\([0-9.]*\) ms uncertain).*/\1/p' "$T/out")
expect_eq "$(sq "$T/db" "SELECT printf('%.3f', SUM(s.uncertain_ns) / 1e6) FROM task_stat s JOIN run r ON r.id = s.run_id
	JOIN trace t ON t.id = r.trace_id WHERE t.path = '$L'")" "$unc" "uncertain ms (summary vs task_stat)"
echo "ok: cut at line $line; $lost lost events and $ms missed switches ($unc ms uncertain) in $L"
