#!/bin/sh
# perf record --threads writes a directory: data (header, attrs, features,
# an empty data section) and data.0, data.1 (each writer thread's records,
# interleaved in time with no round marks between files).
# traces/perf-record-threads-2cpu.perf.data/ was recorded here with perf 6.1:
# perf record --threads -e 'sched:sched_switch,...' -a -- perf bench sched
# messaging -g 1 -l 40.
#
# Reference: perf itself. tests/golden/perf-threads-runtimes.txt is each
# tid's recorded runtime (switch intervals and each CPU's first sight, missed switches placed as
# docs/model.md says) and slice count from `perf script --ns -F
# +pid --show-lost-events` of that directory, imported through our perf script reader; with
# perf installed the text is made again here and compared too.
. "$TOP/tests/e2e/lib.sh"
D="$TOP/traces/perf-record-threads-2cpu.perf.data"
runtimes() {
	sq "$1" "SELECT th.tid, SUM(s.dur), COUNT(*) FROM sched_slice s JOIN thread th ON th.utid = s.utid
		WHERE s.run_id = 1 GROUP BY th.tid ORDER BY th.tid" | tr '|' ' '
}
"$SCHEDLAB" -q --db "$T/a.db" import "$D" > "$T/out" 2> "$T/err" || fail "import: $(cat "$T/err")"
grep -q "(perfdata), 53 tasks" "$T/out" || fail "import: $(cat "$T/out")"
runtimes "$T/a.db" > "$T/a"
diff -u "$TOP/tests/golden/perf-threads-runtimes.txt" "$T/a" || fail "runtimes differ from perf script's"
if command -v perf > /dev/null; then
	perf script --ns -F +pid --show-lost-events -i "$D" > "$T/s.txt" 2> /dev/null || fail "perf script"
	"$SCHEDLAB" -q --db "$T/b.db" import "$T/s.txt" > /dev/null || fail "import perf script text"
	runtimes "$T/b.db" > "$T/b"
	diff -u "$T/b" "$T/a" || fail "runtimes differ from perf script made here"
fi
# the same directory again is a duplicate (sha256 over its files)
"$SCHEDLAB" --db "$T/a.db" import "$D" > "$T/out2" || fail "second import"
grep -q "already imported as trace 1" "$T/out2" || fail "duplicate: $(cat "$T/out2")"
# data.0 cut inside a record: what is whole imports, with a warning naming
# data.0 and the offset of the cut record
mkdir "$T/cut"
cp "$D"/* "$T/cut/"
truncate -s 100001 "$T/cut/data.0"
"$SCHEDLAB" -q --db "$T/c.db" import "$T/cut" > /dev/null 2> "$T/err" || fail "cut import: $(cat "$T/err")"
grep -q "cut/data.0:[0-9]*: last record cut off; imported what came before" "$T/err" || fail "cut: $(cat "$T/err")"
# a directory that is not one
mkdir "$T/empty"
"$SCHEDLAB" --db "$T/c.db" import "$T/empty" > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "exit status for a plain directory"
grep -q "empty: not a regular file (nor a perf.data directory)" "$T/err" || fail "$(cat "$T/err")"
echo "perf record --threads: $(wc -l < "$T/a") tasks with the runtimes perf script gives"
