#!/bin/sh
# The recorded run across missed switches (issue 11), on a perf.data whose
# kernel dropped 1108 of its 7966 switches without reporting a loss
# (traces/perf-sched-missed-2cpu.perf.data, traces/README.md says how).
#
# 1. The missed switches counted by import are those an independent awk
#    finds in `perf script`: a sched_switch whose prev_pid is not the
#    next_pid of the previous sched_switch on the same CPU.
# 2. The recorded runtime of each of the 15 busiest tasks (by perf sched
#    latency -p) is within 2 % of perf sched latency's. perf's "Runtime" is
#    the sum of the task's sched_stat_runtime events (the kernel's own
#    accounting; tests/e2e/250 explains), which does not depend on the
#    switches, so it is the reference across the gaps. The importer placing
#    the missed switches from the events' current task and from
#    sched_stat_runtime (docs/model.md) is what brings them there: dropping
#    the intervals around each missed switch, as before, left sqlite3 7 %,
#    unit_tests 14 % and pf_repeat 28 % low.
#    One exception, shown and checked: on this VM the host steals the vCPU
#    (CONFIG_PARAVIRT_TIME_ACCOUNTING: stolen time is not charged to the
#    task), so a task may have been on its CPU for longer, by the trace's own
#    timestamps, than the kernel charged. That is the case when perf sched
#    timehist's run time (the same file's switch intervals, read by perf)
#    exceeds perf sched latency's by more than 2 %; then ours must be within
#    1 % of timehist's instead (cc1 14770: latency 67.8 ms, timehist 74.4 ms).
. "$TOP/tests/e2e/lib.sh"
command -v perf >/dev/null 2>&1 || skip "perf not installed"
F="$TOP/traces/perf-sched-missed-2cpu.perf.data"
[ -f "$F" ] || fail "missing $F"

# 1. missed switches, by awk over perf script
perf script -i "$F" -F cpu,event,trace 2>/dev/null | awk '$2 == "sched:sched_switch:" {
	p = $0; sub(/.* prev_pid=/, "", p); sub(/ .*/, "", p)
	n = $0; sub(/.* next_pid=/, "", n); sub(/ .*/, "", n)
	if (($1 in last) && last[$1] != p) bad++
	last[$1] = n } END { print bad + 0 }' > "$T/awk.missed"
"$SCHEDLAB" --db "$T/db" import "$F" > "$T/out" 2> "$T/err" || fail "import: $(cat "$T/err")"
missed=$(sed -n 's/.* \([0-9]*\) missed switches.*/\1/p' "$T/out")
expect_eq "$missed" "$(cat "$T/awk.missed")" "missed switches (import vs awk over perf script)"
grep -q "warning: .*: $missed switches missing from the file" "$T/err" || fail "no missed-switch warning: $(cat "$T/err")"

# 2. runtimes: perf sched latency -p and timehist, per tid, in ns
perf sched latency -p -i "$F" 2>/dev/null | awk -F'|' '/ ms \|/ {
	n = split($1, a, ":"); tid = a[n]; gsub(/ /, "", tid); c = a[1]; gsub(/ /, "", c)
	r = $2; gsub(/[ ms]/, "", r); split(r, p, ".")
	print tid, p[1] * 1000000 + p[2] * 1000, c }' | sort -k2,2nr | head -15 > "$T/lat"
perf sched timehist -s -i "$F" 2>/dev/null | sed -n '/Runtime summary/,/Idle stats/p' | awk '{ s = $0
	if (!match(s, /\[[0-9]+\] +-?[0-9]+ +[0-9]+ +[0-9]+\.[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+$/)) next
	t = substr(s, RSTART + 1); sub(/\].*/, "", t); split($(NF-5), v, ".")
	print t, v[1] * 1000000 + v[2] * 1000 }' > "$T/th"
sq "$T/db" "SELECT th.tid, SUM(s.dur) FROM sched_slice s JOIN thread th ON th.utid = s.utid
	GROUP BY th.tid" | tr '|' ' ' > "$T/ours"
[ "$(wc -l < "$T/lat")" -eq 15 ] || fail "perf sched latency listed $(wc -l < "$T/lat") tasks"
awk 'FILENAME == ARGV[1] { ours[$1] = $2; next } FILENAME == ARGV[2] { th[$1] = $2; next }
	{ o = ours[$1]; t = th[$1]; d = (o - $2) / $2 * 100; dt = (t - $2) / $2 * 100
	  printf "%-7s %-12s ours %9.3f  latency %9.3f  timehist %9.3f ms  ours-latency %+6.2f %%", $1, $3, o / 1e6, $2 / 1e6, t / 1e6, d
	  if (d <= 2 && d >= -2) { print ""; next }
	  e = (o - t) / t * 100
	  if (dt > 2 && e <= 1 && e >= -1) { printf "  (host steal: the trace shows %.3f ms more than the kernel charged; ours-timehist %+.2f %%)\n", (t - $2) / 1e6, e; next }
	  print "  FAIL"; bad = 1 }
	END { exit bad }' "$T/ours" "$T/th" "$T/lat" || fail "runtimes beyond 2 % of perf sched latency"
