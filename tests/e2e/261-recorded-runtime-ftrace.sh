#!/bin/sh
# Raw ftrace text with sched_stat_runtime (issue 11): the recorded runtime
# of each of the 15 busiest tasks is within 2 % of the kernel's own
# accounting, summed here by awk from the file's sched_stat_runtime events.
# traces/ftrace-runtime-2cpu.ftrace.txt (traces/README.md) has 2 switches
# missing from the kernel's output (no overrun).
#
# The awk: a sched_stat_runtime event charges `runtime` ns to `pid`
# (update_curr(), kernel/sched/fair.c); charges are summed per task between
# a sched_switch that puts it on a CPU and the next one that takes it off,
# the same span a slice covers: what a task ran before its first seen
# switch-in (before the trace) or after its last switch-out (the end of the
# trace) is not counted by either side. The two still differ by time the
# kernel does not charge (host steal time on this VM, tests/e2e/250) and by
# the few microseconds per switch between the runqueue clock update in
# __schedule() and the sched_switch tracepoint.
. "$TOP/tests/e2e/lib.sh"
F="$TOP/traces/ftrace-runtime-2cpu.ftrace.txt"
[ -f "$F" ] || fail "missing $F"
awk '
function val(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
/ sched_stat_runtime: / { pend[val("pid")] += val("runtime") }
/ sched_switch: / { p = val("prev_pid"); n = val("next_pid")
	if (p in on) rt[p] += pend[p]
	delete on[p]; pend[p] = 0; on[n] = 1; pend[n] = 0 }
END { for (p in rt) if (p != 0) print p, rt[p] }' "$F" | sort -k2,2nr | head -15 > "$T/awk"
[ "$(wc -l < "$T/awk")" -eq 15 ] || fail "awk found $(wc -l < "$T/awk") tasks"
"$SCHEDLAB" --db "$T/db" import "$F" > "$T/out" 2> "$T/err" || fail "import: $(cat "$T/err")"
grep -q "(ftrace).* 2 missed switches" "$T/out" || fail "summary: $(cat "$T/out")"
sq "$T/db" "SELECT th.tid, SUM(s.dur), th.comm FROM sched_slice s JOIN thread th ON th.utid = s.utid
	GROUP BY th.tid" | tr '|' ' ' > "$T/ours"
awk 'NR == FNR { ours[$1] = $2; comm[$1] = $3; next }
	{ d = (ours[$1] - $2) / $2 * 100
	  printf "%-7s %-16s ours %9.3f  sched_stat_runtime %9.3f ms  %+6.2f %%\n", $1, comm[$1], ours[$1] / 1e6, $2 / 1e6, d
	  if (d > 2 || d < -2) bad = 1 }
	END { exit bad }' "$T/ours" "$T/awk" || fail "runtimes beyond 2 % of the sched_stat_runtime sums"
