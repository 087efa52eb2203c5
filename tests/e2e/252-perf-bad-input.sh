#!/bin/sh
# Faults (issue 3): cut and corrupted perf.data / perf script files never
# crash the importer nor half-write the database. perf.data keeps its
# tracepoint formats in a feature section after the data, so a file cut
# anywhere loses them: the import must fail with one line
# "schedlab: error: FILE:OFFSET: what" (OFFSET = the file's length, where it
# was cut), and the database keeps exactly the traces it had. A record whose
# size field is 0 fails at that record's byte offset (the first record sits
# at the data offset, the u64 at byte 40 of the header). A perf script text
# cut inside an event line imports the whole lines before it with a warning
# naming the cut line. A cut after the tracing-data section only loses
# features schedlab does not read (hostname, cpu topology...): that file
# imports the same as the whole one.
. "$TOP/tests/e2e/lib.sh"
DATA="$TOP/traces/perf-sched-load-2cpu.perf.data"
TEXT="$TOP/traces/perf-sched-load-2cpu.perfscript.txt"
"$SCHEDLAB" --db "$T/db" import "$DATA" > /dev/null 2>&1 || fail "import of the whole file"
before=$(sq "$T/db" "SELECT COUNT(*) FROM trace")
size=$(wc -c < "$DATA")

u64() { od -An -tu8 -j "$2" -N 8 "$1" | tr -d ' '; }
doff=$(u64 "$DATA" 40); dsize=$(u64 "$DATA" 48)
tend=$(( $(u64 "$DATA" $((doff + dsize))) + $(u64 "$DATA" $((doff + dsize + 8))) ))
for cut in 50 103 500 1300 $((size / 2)) $((doff + dsize + 10)) $((tend - 1)); do
	head -c "$cut" "$DATA" > "$T/cut.data"
	"$SCHEDLAB" --db "$T/db" import "$T/cut.data" > "$T/out" 2> "$T/err"; rc=$?
	[ $rc -eq 1 ] || fail "cut at $cut: exit $rc (expected 1)"
	grep -q "^schedlab: error: $T/cut.data:$cut: " "$T/err" ||
		grep -q "^schedlab: error: $T/cut.data:[0-9][0-9]*: " "$T/err" ||
		fail "cut at $cut: no FILE:OFFSET error: $(cat "$T/err")"
	[ "$(grep -c 'error' "$T/err")" = 1 ] || fail "cut at $cut: more than one error line"
	expect_eq "$(sq "$T/db" "SELECT COUNT(*) FROM trace")" "$before" "traces after a failed import"
done

head -c $((tend + 1)) "$DATA" > "$T/tail.data"
"$SCHEDLAB" --db "$T/db2" import "$T/tail.data" > "$T/out" 2>/dev/null || fail "cut after the tracing data"
"$SCHEDLAB" --db "$T/db2" import "$DATA" > "$T/out" 2>/dev/null || fail "whole file"
expect_eq "$(sq "$T/db2" "SELECT COUNT(DISTINCT r) FROM (SELECT run_id, group_concat(dur) r
	FROM (SELECT * FROM sched_slice ORDER BY ts, cpu) GROUP BY run_id)")" 1 "slices of the two imports"

# a record of size 0 at the first record of the data section
cp "$DATA" "$T/zero.data"
printf '\000\000' | dd of="$T/zero.data" bs=1 seek=$((doff + 6)) conv=notrunc status=none
"$SCHEDLAB" --db "$T/db" import "$T/zero.data" > /dev/null 2> "$T/err" && fail "size-0 record imported"
grep -q "^schedlab: error: $T/zero.data:$doff: record of size 0" "$T/err" ||
	fail "size-0 record: $(cat "$T/err")"

# foreign or unsupported perf.data variants are named
cp "$DATA" "$T/be.data"; printf '2ELIFREP' | dd of="$T/be.data" bs=1 conv=notrunc status=none
"$SCHEDLAB" --db "$T/db" import "$T/be.data" > /dev/null 2> "$T/err" && fail "big-endian imported"
grep -q "big-endian" "$T/err" || fail "big-endian: $(cat "$T/err")"
# a file whose header claims pipe mode (size 16) is then read as records
# from byte 16, where the attribute section holds no valid record header
cp "$DATA" "$T/pipe.data"; printf '\020\000\000\000\000\000\000\000' |
	dd of="$T/pipe.data" bs=1 seek=8 conv=notrunc status=none
"$SCHEDLAB" --db "$T/db" import "$T/pipe.data" > /dev/null 2> "$T/err" && fail "fake pipe mode imported"
grep -q "^schedlab: error: $T/pipe.data:[0-9]*: " "$T/err" || fail "fake pipe mode: $(cat "$T/err")"
expect_eq "$(sq "$T/db" "SELECT COUNT(*) FROM trace")" "$before" "traces after failed imports"

# perf script cut in the middle of a switch line (line 206 of the file)
head -n 205 "$TEXT" > "$T/cut.txt"
sed -n 206p "$TEXT" | grep -q sched_switch || fail "line 206 is not a switch"
sed -n 206p "$TEXT" | head -c 120 >> "$T/cut.txt"
"$SCHEDLAB" --db "$T/db" import "$T/cut.txt" > "$T/out" 2> "$T/err" || fail "cut text: $(cat "$T/err")"
grep -q "cut.txt:206: last line is cut off" "$T/err" || fail "no warning for the cut line: $(cat "$T/err")"
# its events are those of the first 205 lines: count switches both ways
n=$(head -n 205 "$TEXT" | grep -c 'sched:sched_switch:')
"$B/tools/perfdump" -c "$T/cut.txt" 2>/dev/null | grep -q "^switch $n\$" || fail "switch count of the cut text"
echo "ok: cut/corrupt perf.data refused with offsets, cut perf script imported up to line 205"
