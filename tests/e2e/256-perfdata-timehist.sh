#!/bin/sh
# perf.data agreement with `perf sched timehist -s`, exact to the microsecond.
# timehist (tools/perf/builtin-sched.c, timehist_sched_change_event and
# timehist_update_runtime_stats) charges each sched_switch's prev task with
# dt_run = t - tprev, tprev being the time of the previous sched_switch on
# the same CPU (0 = none yet: nothing charged), and sums dt_run per thread;
# its "Runtime summary" (live and "Terminated tasks" sections) prints that
# sum with print_sched_time(), which truncates to whole microseconds
# (msecs = ns / 1e6, usecs = remainder / 1e3, "%lu.%03lu"). Our reader's
# runtime (tests/tools/perfdump -t) is the same per-CPU interval sum, so
# truncated the same way it must print the same figure for every task that
# timehist lists with a non-zero run time - unlike perf sched latency, which
# uses the kernel's sched_stat_runtime and so differs by steal time.
# (Not run on perf-sched-lost-2cpu.perf.data: there the COMM/FORK records of
# one task were lost and perf splits its samples between two thread objects,
# listing only one, ":10895" with parent -1, with part of the run time.)
. "$TOP/tests/e2e/lib.sh"
command -v perf >/dev/null 2>&1 || skip "perf not installed"
PD="$B/tools/perfdump"
rc=0
for f in perf-sched-load-2cpu.perf.data perf-record-sched-all-2cpu.perf.data \
	 messaging-pipe-2cpu.perf.data massive-intr-10x-1cpu.perf.data; do
	file="$TOP/traces/$f"
	[ -f "$file" ] || fail "missing $file"
	perf sched timehist -s -i "$file" 2>/dev/null | sed -n '/Runtime summary/,/Idle stats/p' |
		awk '{ s = $0
		if (!match(s, /\[[0-9]+\] +-?[0-9]+ +[0-9]+ +[0-9]+\.[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+$/)) next
		t = substr(s, RSTART + 1); sub(/\].*/, "", t); if ($(NF-5) != "0.000") print t, $(NF-5) }' |
		sort > "$T/th"
	"$PD" -r perfdata -t "$file" 2>/dev/null |
		awk '{ u = int($2 / 1000); printf "%s %d.%03d\n", $1, int(u / 1000), u % 1000 }' | sort > "$T/ours"
	n=$(wc -l < "$T/th")
	[ "$n" -gt 0 ] || fail "$f: no tasks in perf sched timehist -s"
	bad=$(join -a 1 -e missing -o 0,1.2,2.2 "$T/th" "$T/ours" | awk '$2 != $3' | head -5)
	if [ -n "$bad" ]; then
		echo "FAIL $f: tid timehist ours"; echo "$bad"; rc=1
	else
		echo "$f: $n tasks, identical run time to the microsecond"
	fi
done
exit $rc
