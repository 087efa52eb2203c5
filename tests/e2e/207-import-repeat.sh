#!/bin/sh
# Repeated trace.dat imports always finish. The trace.dat reader forks a
# decoding child; a fork while another thread of schedlab runs (the sha256
# used to be a thread) can give the child an allocator lock that is held
# forever. Under ASan that hung about 13 imports in 300 (the CI timeout of
# stop 8). Now no other thread runs at the fork: the sha256 is a process and
# the store's writer thread ends with each transaction.
# 40 rounds, each of three imports in one command (two files, then the
# first again, refused as already imported); each round must end within
# 60 s and print exactly two "trace N:" lines and one "already imported".
. "$(dirname "$0")/lib.sh"
A="$TOP/traces/rec-sleep.dat"
C="$TOP/traces/rec-pipes-lost.dat"
i=0
while [ $i -lt 40 ]; do
	rm -f "$T/db"
	timeout -k 5 60 "$SCHEDLAB" -q --db "$T/db" import "$A" "$C" "$A" > "$T/out" 2> "$T/err"
	rc=$?
	[ $rc -eq 124 ] || [ $rc -eq 137 ] && fail "round $i: import still running after 60 s"
	expect_eq "$rc" 0 "round $i: exit status ($(head -1 "$T/err"))"
	expect_eq "$(grep -c '^trace [0-9]*: ' "$T/out")" 2 "round $i: traces imported"
	expect_eq "$(grep -c 'already imported' "$T/out")" 1 "round $i: duplicates refused"
	i=$((i + 1))
done
echo "40 rounds of 3 imports, none hung"
