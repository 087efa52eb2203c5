#!/bin/sh
# Big traces (issue 16): `schedlab report` and `compare` on a ~15M-event
# trace.dat against `trace-cmd report >/dev/null` on the same file, in the
# same run, as ratios of wall time, with each one's peak RSS (goal for
# report: <= 0.3x trace-cmd report's time and <= 400 MB). import and
# `replay --sched all` are timed too (they make the database the two read).
# report and compare read the runs a run at a time (plots/pass.c,
# docs/schema.md). Measured here (2 CPUs, 17.2M events, 1.3 GB, 6 runs):
# trace-cmd report 27.8 s / 1333 MB; report 7.1 s / 318 MB = 0.25x (was
# 25.1 s / 3.4 GB); compare 3.9 s / 267 MB = 0.14x; import 0.26x.
#
# The input is recorded here (as root, tracefs held through
# /tmp/schedlab-tracefs.lock): `schedlab record` of `perf bench sched pipe`
# (a pair of tasks switching ~50 000 times a second) beside
# `perf bench sched messaging` (5 groups of 40 tasks over sockets): about
# 14.9M sched events, 1.1 GB, in ~45 s on this 2-CPU machine. BIGTRACE_LOOPS
# scales the pipe loops (default 3400000), BIGTRACE_FILE uses a trace.dat
# of yours instead. Without root, tracefs or perf: skipped. Each figure is
# one run (the whole part takes some 5 minutes).
set -u
: "${SCHEDLAB:=$(pwd)/schedlab}" "${B:=$(pwd)/build/default}"
command -v trace-cmd > /dev/null || { echo "bigtrace: skipped (no trace-cmd)"; exit 0; }
[ -x /usr/bin/time ] || { echo "bigtrace: skipped (no /usr/bin/time)"; exit 0; }
T=$(mktemp -d /tmp/schedlab-bigtrace.XXXXXX)
trap 'rm -rf "$T"' EXIT
F=${BIGTRACE_FILE:-}
if [ -z "$F" ]; then
	if [ "$(id -u)" != 0 ] || [ ! -w /sys/kernel/tracing/instances ] || ! command -v perf > /dev/null; then
		echo "bigtrace: skipped (recording needs root, tracefs and perf; or set BIGTRACE_FILE)"
		exit 0
	fi
	loops=${BIGTRACE_LOOPS:-3400000}
	flock /tmp/schedlab-tracefs.lock "$SCHEDLAB" -q record -o "$T/big.dat" --buffer-kb 65536 -- sh -c \
		"perf bench sched pipe -l $loops >/dev/null & perf bench sched messaging -g 5 -l $((loops / 1500)) >/dev/null & wait" \
		> /dev/null 2>&1 || { echo "bigtrace: recording failed"; exit 1; }
	F=$T/big.dat
fi
# tm NAME CMD...: NAME_s (wall seconds) and NAME_mb (peak RSS, MB) of one run
tm() {
	name=$1; shift
	/usr/bin/time -f "%e %M" -o "$T/tm" "$@" > /dev/null 2> "$T/err" || {
		echo "bigtrace: $name failed: $(tail -1 "$T/err")"; exit 1; }
	read -r s kb < "$T/tm"
	eval "${name}_s=$s ${name}_mb=$((kb / 1024))"
}
n=$("$B/tools/evdump" -r tracedat -c "$F" | awk '{ s += $2 } END { print s }')
echo "input: $F ($(($(wc -c < "$F") / 1048576)) MB, $n sched events)"
tm tcr trace-cmd report "$F"
tm imp "$SCHEDLAB" -q --db "$T/b.db" import "$F"
tm rep "$SCHEDLAB" -q --db "$T/b.db" replay --trace 1 --sched all
tm rpt "$SCHEDLAB" -q --db "$T/b.db" report -o "$T/report"
tm cmp "$SCHEDLAB" -q --db "$T/b.db" compare --trace 1
runs=$(sqlite3 "$T/b.db" "SELECT COUNT(*) FROM run" 2> /dev/null || echo "?")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "trace-cmd report >/dev/null: $tcr_s s, $tcr_mb MB"
echo "import: $imp_s s, $imp_mb MB: ratio $(ratio "$imp_s" "$tcr_s") x trace-cmd report"
echo "replay --sched all: $rep_s s, $rep_mb MB ($runs runs with the recorded one)"
echo "report ($runs runs): $rpt_s s, $rpt_mb MB: ratio $(ratio "$rpt_s" "$tcr_s") x trace-cmd report (goal <= 0.3, <= 400 MB)"
echo "compare ($runs runs): $cmp_s s, $cmp_mb MB: ratio $(ratio "$cmp_s" "$tcr_s") x trace-cmd report"
