#!/bin/sh
# A real recording with a busy thread cut out is held to its ledger, and the
# completeness warning names that thread (issue 23; docs/ledger.md).
# traces/corpus/cyclictest-hogs.dat was made by `schedlab record` with its
# ledger. Its text form (trace-cmd report -R -t: raw fields, ns timestamps,
# the same trace clock) imports to the same figures as the file itself. Every
# event of kdamond.0 (tid 107) is then removed: the lines it emitted, the
# wakeups of it and the switches into and out of it, as if the recorder had
# lost that thread.
# The ledger counts 5 threads with >= 10 ms of kernel CPU time in the window
# (from the full import's ledger_thread, kernel / recorded ms):
#   perfscript 1002 229.52 / 232.04, schedlab 1536 29.44 / 27.77,
#   kdamond.0 107 23.01 / 23.00, tokio-rt-worker 105 15.98 / 13.93,
#   bash 1252 13.38 / 13.86
#   sum: kernel 311.33 ms, recorded 310.61 ms -> 99.8 %
# perfscript (a hog) and schedlab (the recorder) ran across the trace's
# edges: their runs before their CPU's first switch and after its last have
# no slice row, and are counted from the trace's first event and to its
# last (collector/kacct.h sl_kacct_edge; the slices alone: 216.92 and 20.91
# ms, 92.7 %). The text has no sched_stat_runtime, so the windows are the
# reads' (perfscript's last tick before the end read is not known: 101.1 %).
# Without kdamond.0 the recorded sum is 310.61 - 23.00 = 287.61 ms of the
# same 311.33: 92.4 %, and kdamond.0 is named missing with 0.0 of 23.0 ms.
# (tokio-rt-worker's switch-outs never reach the file on this machine: its
# slices end its kernel mean slice after they began, from the ledger's
# sum_exec_runtime and pcount; docs/model.md "Missed switches".)
. "$(dirname "$0")/lib.sh"
SRC="$TOP/traces/corpus/cyclictest-hogs.dat"
[ -s "$SRC.ledger" ] || fail "no ledger beside $SRC"
trace-cmd report -R -t -i "$SRC" > "$T/full.txt" 2> /dev/null || fail "trace-cmd report"
cp "$SRC.ledger" "$T/full.txt.ledger"
"$SCHEDLAB" --db "$T/full.db" import "$T/full.txt" > "$T/out" 2> "$T/err" || fail "import of the full text: $(cat "$T/err")"
grep -q "the trace accounts for 99.8 % of the kernel's CPU time .* over 5 threads with >= 10 ms" "$T/out" ||
	fail "full text: $(cat "$T/out")"
grep -q "missing from the trace" "$T/err" && fail "full text: a thread named missing: $(cat "$T/err")"
expect_eq "$(sq "$T/full.db" "SELECT comm, kernel_exec_ns / 10000, trace_exec_ns / 10000 FROM ledger_thread WHERE tid = 107")" \
	"kdamond.0|2301|2299" "kdamond.0 in the full trace"
# cut tid 107 out: its own lines ("kdamond.0-107 [cpu]") and every line that
# names it (wakeups' pid=107, switches' prev_pid=107 / next_pid=107)
grep -Ev -- '-107 +\[|[ _]pid=107 ' "$T/full.txt" > "$T/cut.txt"
grep -Eq -- '-107 +\[|[ _]pid=107 ' "$T/cut.txt" && fail "tid 107 still in the cut trace"
expect_eq "$(($(wc -l < "$T/full.txt") - $(wc -l < "$T/cut.txt")))" 34 "lines cut"
cp "$SRC.ledger" "$T/cut.txt.ledger"
"$SCHEDLAB" --db "$T/cut.db" import "$T/cut.txt" > "$T/out" 2> "$T/err" || fail "import of the cut text: $(cat "$T/err")"
grep -q "^schedlab: warning: $T/cut.txt: 1 threads the kernel ran are missing from the trace: kdamond.0 107 (0.0 of 23.0 ms)" "$T/err" ||
	fail "the cut thread is not named: $(cat "$T/err")"
grep -q "^schedlab: warning: $T/cut.txt: incomplete: the trace accounts for 92.4 %" "$T/err" ||
	fail "no incomplete warning at 92.4 %: $(cat "$T/err")"
expect_eq "$(sq "$T/cut.db" "SELECT round(completeness_cpu * 1000) FROM trace")" "924.0" "trace.completeness_cpu"
expect_eq "$(sq "$T/cut.db" "SELECT kernel_exec_ns / 10000, trace_exec_ns FROM ledger_thread WHERE tid = 107")" \
	"2301|0" "kdamond.0's ledger_thread row"
"$SCHEDLAB" --db "$T/cut.db" validate --trace 1 --sched cfs > /dev/null 2> "$T/err"
grep -q "trace 1 is incomplete: it accounts for 92.4 %" "$T/err" || fail "validate did not repeat it: $(cat "$T/err")"
echo "ledger: a real recording with kdamond.0 cut out is 92.4 % complete and names kdamond.0 107 missing"
