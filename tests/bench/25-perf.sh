#!/bin/sh
# perf.data: `schedlab import` (database included) against
# `perf sched timehist` on the same file (goal: ratio <= 1), and decoding
# plus per-task runtime analysis without the database (tests/tools/perfdump
# -t: the perf.data reader, then each task's sum of switch intervals)
# against `perf sched latency` (goal: ratio <= 0.5). The input is recorded
# here when run as root: `perf sched record` of perf bench sched messaging
# (8 groups, 40 processes each, 1000 loops: about 33 MB; issue 26's goal
# is for a perf.data of at least 30 MB), else the largest
# perf.data in traces/. The machine is shared: the tools run interleaved,
# one after the other in each of ROUNDS rounds (default 5), and each figure
# is the median of its rounds (PERFDATA=FILE benches that file instead).
# Peak memory
# (RSS) of the reader and of the import is shown beside the file size.
set -u
: "${SCHEDLAB:=$(pwd)/schedlab}" "${B:=$(pwd)/build/default}" "${TOP:=$(pwd)}"
T=$(mktemp -d /tmp/schedlab-bench25.XXXXXX)
trap 'rm -rf "$T"' EXIT
command -v perf >/dev/null || { echo "perf: skipped (no perf)"; exit 0; }
F=${PERFDATA:-}
if [ -z "$F" ] && [ "$(id -u)" = 0 ]; then
	perf sched record -m 16M -o "$T/big.data" -- perf bench sched messaging -g 8 -l 1000 \
		>/dev/null 2>&1 && F="$T/big.data"
fi
if [ -z "$F" ]; then
	F=$(ls -S "$TOP"/traces/*.perf.data 2>/dev/null | head -1)
	[ -n "$F" ] || { echo "perf: skipped (no input)"; exit 0; }
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
	tm th perf sched timehist -i "$F"
	tm imp "$SCHEDLAB" --db "$T/b.db" import "$F"
	tm lat perf sched latency -i "$F"
	tm rdr "$B/tools/perfdump" -r perfdata -t "$F"
done
th=$(med th) lat=$(med lat) imp=$(med imp) rdr=$(med rdr)
n=$("$B/tools/perfdump" -r perfdata -c "$F" | awk '{ s += $2 } END { print s }')
lost=$("$B/tools/perfdump" -r perfdata -c "$F" | awk '$1 == "lost" { print $2 }')
ms() { awk -v n="$1" 'BEGIN { printf "%.0f ms", n / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
echo "input: $F ($(wc -c <"$F") bytes, $n sched events, $lost lost); medians of ${ROUNDS:-5} interleaved rounds"
echo "perf sched timehist >/dev/null: $(ms $th); perf sched latency >/dev/null: $(ms $lat)"
echo "perfdata import (DB included): $(ms $imp): ratio $(ratio $imp $th) x perf sched timehist (goal <= 1)"
echo "perfdata decode + per-task runtime: $(ms $rdr): ratio $(ratio $rdr $lat) x perf sched latency (goal <= 0.5)"
# streaming: peak memory of the reader and of the import against the file size
if [ -x /usr/bin/time ]; then
	rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
	r1=$(rss "$B/tools/perfdump" -r perfdata -c "$F")
	rm -f "$T/b.db"
	r2=$(rss "$SCHEDLAB" --db "$T/b.db" import "$F")
	echo "perfdata memory: reader $((r1 / 1024)) MB, import $((r2 / 1024)) MB peak RSS for a $(($(wc -c <"$F") / 1048576)) MB file"
fi
