#!/bin/sh
# Bench part (issue 6): import a 2-CPU trace.dat of about 120 000 switches
# and replay it through rsdl and o1, against `trace-cmd report > /dev/null`
# on the same file, in the same run. The trace is recorded here (needs root
# and tracefs; skipped otherwise) with `schedlab record` while
# `perf bench sched messaging` runs. Also printed: the replay engine alone
# (--dry-run: no database), to show where the time goes.
set -u
: "${SCHEDLAB:=$(pwd)/schedlab}"
W=$(mktemp -d /tmp/schedlab-bench30r.XXXXXX)
trap 'rm -rf "$W"' EXIT
ms() { date +%s%N | awk '{printf "%d\n", $1 / 1000000}'; }
command -v trace-cmd > /dev/null || { echo "replay-trace bench: skipped (no trace-cmd)"; exit 0; }
command -v perf > /dev/null || { echo "replay-trace bench: skipped (no perf)"; exit 0; }
if ! "$SCHEDLAB" record -o "$W/t.dat" --duration 20s -- \
	sh -c 'perf bench sched messaging -g 10 -l 1200 > /dev/null 2>&1' > "$W/rec" 2>&1; then
	echo "replay-trace bench: skipped (cannot record: $(tail -1 "$W/rec"))"
	exit 0
fi
sw=$(trace-cmd report "$W/t.dat" 2>/dev/null | grep -c sched_switch)
scheds=rsdl
"$SCHEDLAB" replay -h | grep -q 'o1' && scheds=rsdl,o1
best_ours=999999 best_tc=999999 best_eng=999999
for round in 1 2 3; do
	rm -f "$W/db"*
	t0=$(ms)
	"$SCHEDLAB" --db "$W/db" import "$W/t.dat" > /dev/null 2>&1 || { echo "replay-trace bench: import failed"; exit 1; }
	"$SCHEDLAB" --db "$W/db" replay --trace 1 --sched $scheds > /dev/null || { echo "replay-trace bench: replay failed"; exit 1; }
	t1=$(ms)
	trace-cmd report "$W/t.dat" > /dev/null 2>&1
	t2=$(ms)
	"$SCHEDLAB" --db "$W/db" replay --trace 1 --sched $scheds --dry-run > /dev/null
	t3=$(ms)
	[ $((t1 - t0)) -lt $best_ours ] && best_ours=$((t1 - t0))
	[ $((t2 - t1)) -lt $best_tc ] && best_tc=$((t2 - t1))
	[ $((t3 - t2)) -lt $best_eng ] && best_eng=$((t3 - t2))
done
echo "replay-trace: $sw switches, 2 CPUs; import + replay ($scheds): $best_ours ms;" \
	"trace-cmd report: $best_tc ms; ratio $(awk -v a=$best_ours -v b=$best_tc 'BEGIN{printf "%.2f", a / b}') (goal < 1)"
echo "replay-trace: replay engine alone ($scheds, no database, incl. loading the behaviour): $best_eng ms"
