#!/bin/sh
# trace.dat: `schedlab import` (database included) and our reader alone
# (tests/tools/evdump -c: decoding only) against `trace-cmd report >/dev/null`
# on the same file, as ratios (goal for import: <= 0.2x). The input is a
# ~20 MB trace recorded here by `schedlab record` (4 pipelines switching
# hard, ~400k sched events) when run as root, else the largest trace.dat in
# ../shared/traces. Each timing is the best of 3 runs.
set -u
: "${SCHEDLAB:=$(pwd)/schedlab}" "${B:=$(pwd)/build/default}" "${SHARED:=$(cd .. && pwd)/shared}"
T=$(mktemp -d /tmp/schedlab-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
command -v trace-cmd >/dev/null || { echo "tracedat: skipped (no trace-cmd)"; exit 0; }
F=
if [ "$(id -u)" = 0 ] && [ -w /sys/kernel/tracing/instances ]; then
	"$SCHEDLAB" -q record -o "$T/big.dat" --buffer-kb 32768 -- sh -c \
		'i=0; while [ $i -lt 4 ]; do (yes | head -c 300000000 | cat >/dev/null) & i=$((i + 1)); done; wait' \
		>/dev/null 2>&1 && F="$T/big.dat"
fi
if [ -z "$F" ]; then
	F=$(ls -S "$SHARED"/traces/*/trace.dat 2>/dev/null | head -1)
	[ -n "$F" ] || { echo "tracedat: skipped (no input)"; exit 0; }
fi
now() { date +%s%N; }
# best NAME CMD...: run 3 times, set NAME to the fastest in ns
best() {
	name=$1; shift
	b=0
	for i in 1 2 3; do
		rm -f "$T/b.db"
		t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
		d=$((t1 - t0))
		if [ $b = 0 ] || [ $d -lt $b ]; then b=$d; fi
	done
	eval "$name=$b"
}
best rep trace-cmd report "$F"
best imp "$SCHEDLAB" --db "$T/b.db" import "$F"
best rdr "$B/tools/evdump" -r tracedat -c "$F"
n=$("$B/tools/evdump" -r tracedat -c "$F" | awk '{ s += $2 } END { print s }')
ms() { awk -v n="$1" 'BEGIN { printf "%.0f ms", n / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
echo "input: $F ($(wc -c <"$F") bytes, $n sched events)"
echo "trace-cmd report >/dev/null: $(ms $rep)"
echo "tracedat import (DB included): $(ms $imp): ratio $(ratio $imp $rep) x trace-cmd report (goal <= 0.2)"
echo "tracedat reader alone (decode): $(ms $rdr): ratio $(ratio $rdr $rep) x trace-cmd report"
# peak memory (RSS of the process and its children: schedlab's decoding child
# and sha256 process), beside trace-cmd report's on the same file
if [ -x /usr/bin/time ]; then
	rss() { rm -f "$T/b.db"; /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
	m1=$(rss trace-cmd report "$F")
	m2=$(rss "$SCHEDLAB" -q --db "$T/b.db" import "$F")
	echo "peak RSS: import $((m2 / 1024)) MB, trace-cmd report $((m1 / 1024)) MB, file $(($(wc -c <"$F") / 1048576)) MB"
fi
