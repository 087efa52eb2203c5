#!/bin/sh
# Pipe-mode perf.data (`perf record -o -`): the attributes and the tracepoint
# formats arrive as HEADER_ATTR / HEADER_TRACING_DATA records before the
# samples. Two checks:
# 1. tests/tools/perf_topipe rewrites the file-mode recording in pipe layout
#    (the same attrs, formats and data records; `perf script` prints the two
#    byte for byte the same). The reader must deliver the same events from
#    both, and `schedlab import` the same per-task runtimes.
# 2. traces/perf-sched-pipe-2cpu.perf.data was written by perf itself in pipe
#    mode. perf sched latency cannot read pipe files (perf 6.1: "No trace
#    sample to read"), so its runtimes are compared with those of
#    `perf script --ns` of the same file read by the perf script reader:
#    identical to the nanosecond (needs perf; skipped without it).
# Cut inside the tracing data, a pipe file fails with FILE:OFFSET.
. "$TOP/tests/e2e/lib.sh"
PD="$B/tools/perfdump"
DATA="$TOP/traces/perf-sched-load-2cpu.perf.data"
PIPE="$TOP/traces/perf-sched-pipe-2cpu.perf.data"
"$B/tools/perf_topipe" "$DATA" "$T/pipe.data" || fail "perf_topipe"
"$PD" -r perfdata "$DATA" > "$T/a" || fail "file mode"
"$PD" -r perfdata "$T/pipe.data" > "$T/b" || fail "pipe mode"
diff "$T/a" "$T/b" > /dev/null || fail "pipe layout gives other events"
rt() {
	rm -f "$T/db"
	"$SCHEDLAB" --db "$T/db" import "$1" > "$T/out" 2>/dev/null || fail "import $1"
	grep -q "(perfdata)" "$T/out" || fail "$1 not detected as perf.data"
	sq "$T/db" "SELECT th.tid, SUM(s.dur) FROM sched_slice s JOIN run r ON r.id = s.run_id
		JOIN thread th ON th.utid = s.utid WHERE r.scheduler = 'recorded' GROUP BY th.tid"
}
rt "$DATA" > "$T/ra"
rt "$T/pipe.data" > "$T/rb"
diff "$T/ra" "$T/rb" > /dev/null || fail "pipe layout gives other runtimes"
echo "pipe layout: $(wc -l < "$T/a") events and $(wc -l < "$T/ra") task runtimes identical"

size=$(wc -c < "$PIPE")
head -c 20000 "$PIPE" > "$T/cut.data"
"$SCHEDLAB" --db "$T/db" import "$T/cut.data" > /dev/null 2> "$T/err" && fail "cut pipe file imported"
grep -q "^schedlab: error: $T/cut.data:20000: file cut short inside the tracing data" "$T/err" ||
	fail "cut pipe file: $(cat "$T/err")"

command -v perf >/dev/null 2>&1 || skip "perf not installed: real pipe file not compared"
perf script --ns -i "$PIPE" > "$T/pipe.txt" 2>/dev/null || fail "perf script"
"$PD" -r perfdata -t "$PIPE" > "$T/pa" || fail "reader on $PIPE"
"$PD" -r perfscript -t "$T/pipe.txt" > "$T/pb" || fail "reader on its perf script text"
[ -s "$T/pa" ] || fail "no runtimes"
diff "$T/pa" "$T/pb" || fail "pipe perf.data and its perf script text disagree"
echo "perf's own pipe file ($size bytes): $(wc -l < "$T/pa") task runtimes identical to perf script --ns"
