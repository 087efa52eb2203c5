#!/bin/sh
# Import streams: memory follows the behaviour model and SQLite's page cache
# (64 MiB at most), not the file's size. A generated 103 MB ftrace text
# (tests/tools/gen-ftrace.awk, n = 400000: 799 998 events) must import with a
# peak RSS (schedlab and its sha256 process, /usr/bin/time %M) under 90 MB,
# below the file's size: a reader or hasher that held the file would exceed
# it. Measured here: 67 MB (a 1.16 GB file of the same kind: 253 MB; the
# sha256 process alone used to reach the file's size, 1.14 GB).
# Skipped under the sanitizers (their shadow memory and quarantine are
# counted in RSS) and without /usr/bin/time.
. "$(dirname "$0")/lib.sh"
case "$B" in *san*) skip "peak RSS is not meaningful under the sanitizers" ;; esac
[ -x /usr/bin/time ] || skip "no /usr/bin/time"
awk -v n=400000 -f "$TOP/tests/tools/gen-ftrace.awk" > "$T/big.txt"
size=$(wc -c < "$T/big.txt")
[ "$size" -gt 100000000 ] || fail "generated file is only $size bytes"
/usr/bin/time -f "%M" -o "$T/rss" "$SCHEDLAB" -q --db "$T/db" import "$T/big.txt" > "$T/out" 2> "$T/err" ||
	fail "import: $(cat "$T/err")"
grep -q "799998 events, 2 CPUs" "$T/out" || fail "import: $(cat "$T/out")"
rss=$(tail -1 "$T/rss")
[ "$rss" -lt 92160 ] || fail "peak RSS $rss KB for a $size-byte file (limit 90 MB)"
echo "peak RSS $((rss / 1024)) MB importing a $((size / 1048576)) MB trace"
