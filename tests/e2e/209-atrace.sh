#!/bin/sh
# Android's atrace output (what `adb shell atrace sched > FILE` writes):
# "capturing trace... done", "TRACE:", then the ftrace text, or with
# `atrace -z` one zlib stream of it. The ftrace text used is the real
# ../shared/traces/lisa-juno-trace-txt/trace.txt; the zlib stream is made
# here by perl's Compress::Zlib, not by us.
#  1. preamble + text, the same with CRLF line ends, and preamble + zlib
#     import with the per-task runtimes and slice counts of the bare text;
#  2. a -z file cut in half imports what is whole, with one warning
#     "FILE:SIZE: atrace -z data cut short here" (SIZE = the file's size:
#     the stream ends there), exit 0, fewer events;
#  3. corrupt -z files fail with one line naming the file and a position,
#     exit 1, and the database is unchanged (details below).
. "$(dirname "$0")/lib.sh"
F="$SHARED/traces/lisa-juno-trace-txt/trace.txt"
[ -f "$F" ] || skip "no $F"
perl -MCompress::Zlib -e 1 2> /dev/null || skip "perl Compress::Zlib not available"
zl() { perl -MCompress::Zlib -e 'binmode STDIN; binmode STDOUT; local $/; print compress(<STDIN>)'; }
runtimes() {
	sq "$1" "SELECT th.tid, SUM(s.dur), COUNT(*) FROM sched_slice s JOIN thread th ON th.utid = s.utid
		JOIN run r ON r.id = s.run_id WHERE r.trace_id = $2 AND r.scheduler = 'recorded'
		GROUP BY th.tid ORDER BY th.tid"
}
{ printf 'capturing trace... done\nTRACE:\n'; cat "$F"; } > "$T/plain.txt"
{ printf 'capturing trace... done\r\nTRACE:\r\n'; sed 's/$/\r/' "$F"; } > "$T/crlf.txt"
{ printf 'capturing trace... done\nTRACE:\n'; zl < "$F"; } > "$T/z.txt"
"$SCHEDLAB" -q --db "$T/db" import "$F" "$T/plain.txt" "$T/crlf.txt" "$T/z.txt" > "$T/out" 2> "$T/err" ||
	fail "imports: $(cat "$T/err")"
expect_eq "$(grep -c '(ftrace), 50 tasks' "$T/out")" 4 "four imports of the same 50 tasks"
runtimes "$T/db" 1 > "$T/r1"
[ "$(wc -l < "$T/r1")" -gt 40 ] || fail "too few tasks: $(wc -l < "$T/r1")"
for id in 2 3 4; do
	runtimes "$T/db" $id > "$T/r$id"
	diff -u "$T/r1" "$T/r$id" > /dev/null || fail "trace $id: runtimes differ from the bare text's"
done

# 2. cut in half
size=$(wc -c < "$T/z.txt")
head -c $((size / 2)) "$T/z.txt" > "$T/cut.txt"
"$SCHEDLAB" --db "$T/db" import "$T/cut.txt" > "$T/out" 2> "$T/err" || fail "cut file: $(cat "$T/err")"
expect_eq "$(wc -l < "$T/err")" 1 "warning lines for a cut file"
grep -q "cut.txt:$((size / 2)): atrace -z data cut short here" "$T/err" || fail "warning: $(cat "$T/err")"
ev=$(sq "$T/db" "SELECT events FROM trace ORDER BY id DESC LIMIT 1")
all=$(sq "$T/db" "SELECT events FROM trace WHERE id = 1")
[ "$ev" -gt 0 ] && [ "$ev" -lt "$all" ] || fail "cut file: $ev events of $all"

# 3. corrupt: the last byte (of the stream's adler32 check) flipped: the text
# inflates but the check fails at the end -> one error line naming a byte
# offset in the last 64 KB read, exit 1, database unchanged; garbage in the
# middle of the stream (two bytes at 1000 of the stream, after the 31-byte
# preamble) inflates to text that is not ftrace -> one error line naming
# the line of the inflated text
cp "$T/z.txt" "$T/bad.txt"
last=$(od -An -tu1 -j $((size - 1)) -N1 "$T/bad.txt" | tr -d ' ')
printf "\\$(printf %o $((last ^ 255)))" | dd of="$T/bad.txt" bs=1 seek=$((size - 1)) conv=notrunc 2> /dev/null
cmp -s "$T/z.txt" "$T/bad.txt" && fail "the flip did not change the file"
cp "$T/z.txt" "$T/bad2.txt"
printf '\377\377' | dd of="$T/bad2.txt" bs=1 seek=1031 conv=notrunc 2> /dev/null
cp "$T/db" "$T/c.db"
before=$(sqlite3 "$T/c.db" .dump | md5sum)
"$SCHEDLAB" --db "$T/c.db" import "$T/bad.txt" > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "exit status on a bad check value"
expect_eq "$(wc -l < "$T/err")" 1 "error lines"
grep -q "bad.txt:[0-9]*: atrace -z data: corrupt zlib stream" "$T/err" || fail "error: $(cat "$T/err")"
"$SCHEDLAB" --db "$T/c.db" import "$T/bad2.txt" > /dev/null 2> "$T/err"; rc=$?
expect_eq "$rc" 1 "exit status on garbage in the stream"
expect_eq "$(wc -l < "$T/err")" 1 "error lines"
grep -q "bad2.txt: line [0-9]* of the inflated atrace -z text: " "$T/err" || fail "error: $(cat "$T/err")"
expect_eq "$(sqlite3 "$T/c.db" .dump | md5sum)" "$before" "database after failed imports"
echo "atrace text, CRLF and -z: same runtimes as the bare text; cut and corrupt -z handled"
