#!/bin/sh
# trace.dat: `schedlab import` (database included), import plus two replays
# (`replay --sched rsdl,o1` on the imported database), and our reader alone
# (tests/tools/evdump -c: decoding only) against `trace-cmd report
# >/dev/null` on the same file, as ratios of wall time (goals, issue 26:
# import <= 0.3x, import + two replays <= 0.8x). The input is a ~20 MB
# trace recorded here by `schedlab record` (4 pipelines switching hard,
# ~400k sched events; the goals are for >= 250k) when run as root, else the
# largest trace.dat in ../shared/traces. The machine is shared: the tools
# run interleaved, one after the other in each of ROUNDS rounds (default
# 5), and each figure is the median of its rounds. TRACEDAT=FILE benches
# that file instead (to compare two builds on one input).
set -u
: "${SCHEDLAB:=$(pwd)/schedlab}" "${B:=$(pwd)/build/default}" "${SHARED:=$(cd .. && pwd)/shared}"
T=$(mktemp -d /tmp/schedlab-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
command -v trace-cmd >/dev/null || { echo "tracedat: skipped (no trace-cmd)"; exit 0; }
F=${TRACEDAT:-}
if [ -z "$F" ] && [ "$(id -u)" = 0 ] && [ -w /sys/kernel/tracing/instances ]; then
	"$SCHEDLAB" -q record -o "$T/big.dat" --buffer-kb 32768 -- sh -c \
		'i=0; while [ $i -lt 4 ]; do (yes | head -c 300000000 | cat >/dev/null) & i=$((i + 1)); done; wait' \
		>/dev/null 2>&1 && F="$T/big.dat"
fi
if [ -z "$F" ]; then
	F=$(ls -S "$SHARED"/traces/*/trace.dat 2>/dev/null | head -1)
	[ -n "$F" ] || { echo "tracedat: skipped (no input)"; exit 0; }
fi
now() { date +%s%N; }
# tm NAME CMD...: run once, append its wall time (ns) to $T/NAME
tm() {
	name=$1; shift
	t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
	echo $((t1 - t0)) >>"$T/$name"
}
# med NAME: the median of $T/NAME
med() { sort -n "$T/$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for i in $(seq "${ROUNDS:-5}"); do
	rm -f "$T/b.db"
	tm rep trace-cmd report "$F"
	tm imp "$SCHEDLAB" --db "$T/b.db" import "$F"
	tm rpl "$SCHEDLAB" --db "$T/b.db" replay --trace 1 --sched rsdl,o1
	tm rdr "$B/tools/evdump" -r tracedat -c "$F"
done
rep=$(med rep) imp=$(med imp) rpl=$(med rpl) rdr=$(med rdr)
n=$("$B/tools/evdump" -r tracedat -c "$F" | awk '{ s += $2 } END { print s }')
ms() { awk -v n="$1" 'BEGIN { printf "%.0f ms", n / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
echo "input: $F ($(wc -c <"$F") bytes, $n sched events); medians of ${ROUNDS:-5} interleaved rounds"
echo "trace-cmd report >/dev/null: $(ms $rep)"
echo "tracedat import (DB included): $(ms $imp): ratio $(ratio $imp $rep) x trace-cmd report (goal <= 0.3)"
echo "tracedat import + two replays (rsdl,o1): $(ms $((imp + rpl))): ratio $(ratio $((imp + rpl)) $rep) x trace-cmd report (goal <= 0.8)"
echo "tracedat reader alone (decode): $(ms $rdr): ratio $(ratio $rdr $rep) x trace-cmd report"
# peak memory (RSS of the process and its children: schedlab's decoding child
# and sha256 process), beside trace-cmd report's on the same file
if [ -x /usr/bin/time ]; then
	rss() { rm -f "$T/b.db"; /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
	m1=$(rss trace-cmd report "$F")
	m2=$(rss "$SCHEDLAB" -q --db "$T/b.db" import "$F")
	echo "peak RSS: import $((m2 / 1024)) MB, trace-cmd report $((m1 / 1024)) MB, file $(($(wc -c <"$F") / 1048576)) MB"
fi
