#!/bin/sh
# perf.data agreement with `perf sched latency -p` (issue 3): each task's
# runtime in the recorded run equals perf's within 1 % for every task above
# 20 ms, on real files recorded here (traces/README.md says how).
#
# How perf sched latency counts "Runtime" (tools/perf/builtin-sched.c, the
# lat_ops handlers): it keeps one work_atoms record per thread (per tid with
# -p; without -p threads of one comm are merged). Only the sched_stat_runtime
# handler adds to it: total_runtime += the event's `runtime` field, charged
# to the event's `pid` field. sched_switch and sched_wakeup/waking only
# create atoms and measure delays, never runtime; threads whose comm is
# "swapper" and threads with no scheduling-in seen (nb_atoms == 0) are not
# printed. The column is total_runtime / 1e6 printed with 3 decimals (ms).
# So perf's runtime is the kernel's own accounting (update_curr deltas, on
# rq_clock_task), while ours is the sum of the per-CPU intervals between a
# sched_switch that puts the task on a CPU and the next one that takes it off.
# The two differ by time the kernel does not charge to the task: IRQ time
# with CONFIG_IRQ_TIME_ACCOUNTING (off here) and hypervisor steal time with
# CONFIG_PARAVIRT_TIME_ACCOUNTING (on here: this machine is a VM), and by a
# task's first slice when it was already running as the trace began. On a
# VM whose host steals the vCPU during a slice the gap grows beyond 1 % (seen
# on messaging-pipe-2cpu.perf.data: one 10 ms slice with 6 ms accounted), so
# the test runs on recordings where the host did not interfere.
#
# The check is made twice: with the reader alone (tests/tools/perfdump -t,
# the same interval sum) and through `schedlab import` + SQL on sched_slice.
. "$TOP/tests/e2e/lib.sh"
command -v perf >/dev/null 2>&1 || skip "perf not installed"
PD="$B/tools/perfdump"
[ -x "$PD" ] || fail "$PD not built"

# perf's per-tid runtime in ns: "tid ns" (ms with 3 decimals -> ns exactly)
perf_lat() {
	perf sched latency -p -i "$1" 2>/dev/null | awk -F'|' '/ ms \|/ {
		n = split($1, a, ":"); tid = a[n]; gsub(/ /, "", tid)
		r = $2; gsub(/[ ms]/, "", r); split(r, p, ".")
		print tid, p[1] * 1000000 + p[2] * 1000 }' | sort -n
}

# compare FILE OURS(tid ns) -> prints the max relative difference, fails >1 %
compare() {
	awk -v what="$2" 'NR == FNR { ours[$1] = $2; next }
	$2 > 20000000 {
		n++
		if (!($1 in ours)) { printf "FAIL %s: tid %s (perf %d ns) missing\n", what, $1, $2; bad = 1; next }
		d = (ours[$1] - $2) / $2; if (d < 0) d = -d
		if (d > max) max = d
		if (d > 0.01) { printf "FAIL %s: tid %s ours %d perf %d (%.3f %%)\n", what, $1, ours[$1], $2, d * 100; bad = 1 }
	}
	END { printf "%s: %d tasks above 20 ms, max difference %.3f %%\n", what, n, max * 100
	      if (!n) { print "FAIL no task above 20 ms"; bad = 1 }
	      exit bad }' "$3" "$4"
}

rc=0
for f in perf-sched-load-2cpu.perf.data perf-record-sched-all-2cpu.perf.data \
	 massive-intr-10x-1cpu.perf.data; do
	file="$TOP/traces/$f"
	[ -f "$file" ] || fail "missing $file"
	perf_lat "$file" > "$T/perf"
	"$PD" -r perfdata -t "$file" | awk '{ print $1, $2 }' > "$T/reader" || fail "perfdump $f"
	compare "$file" "$f (reader)" "$T/reader" "$T/perf" || rc=1
	rm -f "$T/db"
	"$SCHEDLAB" --db "$T/db" import "$file" > "$T/out" || fail "import $f"
	id=$(sed -n 's/^trace \([0-9]*\):.*/\1/p' "$T/out")
	[ -n "$id" ] || fail "no trace id printed for $f"
	grep -q "(perfdata)" "$T/out" || fail "$f not detected as perf.data: $(cat "$T/out")"
	sq "$T/db" "SELECT th.tid, SUM(s.dur) FROM sched_slice s JOIN run r ON r.id = s.run_id
		JOIN thread th ON th.utid = s.utid WHERE r.trace_id = $id AND r.scheduler = 'recorded'
		GROUP BY th.tid" | tr '|' ' ' > "$T/db.rt"
	compare "$file" "$f (import)" "$T/db.rt" "$T/perf" || rc=1
done
exit $rc
