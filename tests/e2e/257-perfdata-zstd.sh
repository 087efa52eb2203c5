#!/bin/sh
# perf.data written with `perf record -z` (PERF_RECORD_COMPRESSED: one zstd
# stream cut into records; a record's output may end inside a perf record
# that the next one finishes). traces/perf-record-zstd-2cpu.perf.data was
# recorded here with perf 6.1: perf record -z -e 'sched:sched_switch,...' -a
# -- perf bench sched messaging -g 4 -l 200 (44 compressed records, ratio
# 13.8, and 1955 events lost on CPU 1).
#
# The file holds one switch twice, exactly (ksoftirqd/0 -> rcu_preempt on
# CPU 0 at 9801.345744189, perf script shows both): it is counted once
# (docs/formats.md), so rcu_preempt (tid 15) has 96 slices, not 97 with a
# zero-length one; its runtime is the same.
#
# Reference: perf itself. tests/golden/perf-zstd-runtimes.txt is each tid's
# recorded runtime (switch intervals and each CPU's first sight, the 151 missed switches placed as
# docs/model.md says) and slice count from `perf script --ns -F +pid`
# of that file (perf decompresses; with --show-lost-events, so that the
# losses are in the text too), imported through our perf script
# reader, which shares no code with the perf.data one. With perf installed
# the text is made again here and compared too.
. "$TOP/tests/e2e/lib.sh"
F="$TOP/traces/perf-record-zstd-2cpu.perf.data"
runtimes() {
	sq "$1" "SELECT th.tid, SUM(s.dur), COUNT(*) FROM sched_slice s JOIN thread th ON th.utid = s.utid
		WHERE s.run_id = 1 GROUP BY th.tid ORDER BY th.tid" | tr '|' ' '
}
"$SCHEDLAB" --db "$T/a.db" import "$F" > "$T/out" 2> "$T/err" || fail "import: $(cat "$T/err")"
grep -q "(perfdata), 174 tasks" "$T/out" || fail "import: $(cat "$T/out")"
runtimes "$T/a.db" > "$T/a"
diff -u "$TOP/tests/golden/perf-zstd-runtimes.txt" "$T/a" || fail "runtimes differ from perf script's"
expect_eq "$(sq "$T/a.db" "SELECT lost_events FROM trace_cpu WHERE cpu = 1")" 1955 "lost events on CPU 1"
if command -v perf > /dev/null; then
	perf report --header-only -i "$F" 2>/dev/null | grep -q 'compressed : Zstd' || fail "not a -z file"
	perf script --ns -F +pid --show-lost-events -i "$F" > "$T/s.txt" 2> /dev/null || fail "perf script"
	"$SCHEDLAB" -q --db "$T/b.db" import "$T/s.txt" > /dev/null || fail "import perf script text"
	runtimes "$T/b.db" > "$T/b"
	diff -u "$T/b" "$T/a" || fail "runtimes differ from perf script made here"
fi
# corrupt: the zstd frame magic of the first compressed record (the record
# is at byte 23496, its data at 23504) zeroed -> one line naming the
# record's offset, exit 1, no database change
cp "$F" "$T/bad.data"
printf '\0\0\0\0' | dd of="$T/bad.data" bs=1 seek=23504 conv=notrunc 2> /dev/null
cp "$T/a.db" "$T/c.db"
before=$(sqlite3 "$T/c.db" .dump | md5sum)
"$SCHEDLAB" --db "$T/c.db" import "$T/bad.data" > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "exit status on corrupt compressed data"
expect_eq "$(wc -l < "$T/err")" 1 "error lines"
grep -q "bad.data:23496: compressed data: " "$T/err" || fail "error: $(cat "$T/err")"
expect_eq "$(sqlite3 "$T/c.db" .dump | md5sum)" "$before" "database after a failed import"
echo "perf record -z: $(wc -l < "$T/a") tasks with the runtimes perf script gives"
