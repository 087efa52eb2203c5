#!/bin/sh
# Issue 6 speed goal: importing a 2-CPU desktop-like trace.dat of about
# 120 000 switches and replaying it through rsdl and o1 takes less time than
# `trace-cmd report > /dev/null` on the same file. Both are timed in this
# run, best of three, and printed as a ratio (goal < 1).
set -u
W=$(mktemp -d /tmp/schedlab-bench.XXXXXX)
trap 'rm -rf "$W"' EXIT
[ "$(id -u)" = 0 ] || { echo "replay bench: skipped (recording needs root)"; exit 0; }
command -v trace-cmd > /dev/null || { echo "replay bench: skipped (no trace-cmd)"; exit 0; }
# a pipe-heavy load on both CPUs: ~120k switches
"$SCHEDLAB" record -o "$W/t.dat" -- perf bench sched messaging -p -g 4 -l 1000 > "$W/rec.log" 2>&1 ||
	{ echo "replay bench: skipped (recording failed: $(tail -1 "$W/rec.log"))"; exit 0; }
sw=$(trace-cmd report "$W/t.dat" 2>/dev/null | grep -c sched_switch)
now() { date +%s%N; }
best() { # best of three wall times (ns) of the command
	b=0
	for i in 1 2 3; do
		t0=$(now); "$@" > /dev/null 2>&1; t1=$(now)
		d=$((t1 - t0)); if [ $b -eq 0 ] || [ $d -lt $b ]; then b=$d; fi
	done
	echo $b
}
peer=$(best sh -c "trace-cmd report '$W/t.dat' > /dev/null")
ours=$(best sh -c "rm -f '$W/db'*; '$SCHEDLAB' -q --db '$W/db' import '$W/t.dat' && '$SCHEDLAB' --db '$W/db' replay --trace 1 --sched rsdl,o1")
imp=$(best sh -c "rm -f '$W/db'*; '$SCHEDLAB' -q --db '$W/db' import '$W/t.dat'")
awk -v sw="$sw" -v p="$peer" -v o="$ours" -v i="$imp" 'BEGIN {
	printf "replay bench: %d switches; trace-cmd report %.3f s; schedlab import %.3f s; import + replay rsdl,o1 %.3f s\n", sw, p / 1e9, i / 1e9, o / 1e9
	printf "replay bench: ratio (import + replay) / trace-cmd report = %.2f (goal < 1)\n", o / p }'
