#!/bin/sh
# trace.dat reader against `trace-cmd report` on the same real files
# (../shared/traces, 64-bit and 32-bit long, 6 and 8 CPUs):
#  1. each task's runtime (sum of per-CPU sched_switch intervals, charged to
#     prev_pid) computed from the events our reader delivers equals the same
#     sum computed by awk over `trace-cmd report -t` text, to the ns;
#  2. the number of switches and the prev_state letter of each agree
#     (trace-cmd prints "x" for the old TASK_DEAD and "D|W" for D plus
#     waking: our normalised letters are X and D);
#  3. events come out in time order (evdump fails otherwise).
. "$(dirname "$0")/lib.sh"
command -v trace-cmd >/dev/null || skip "trace-cmd not installed"
EV="$B/tools/evdump"
[ -x "$EV" ] || skip "no $EV"
n=0
for f in "$SHARED"/traces/*/trace.dat "$TOP"/traces/*.dat; do
	[ -f "$f" ] || continue
	trace-cmd report -t "$f" 2>/dev/null >"$T/report.txt" || fail "trace-cmd report $f"
	awk '
	{
		i = index($0, " sched_switch: ")
		if (!i) next
		n = split(substr($0, 1, i), f, " ")
		cpu = ""
		for (k = n; k >= 1; k--) if (f[k] ~ /^\[[0-9]+\]$/) { cpu = f[k]; break }
		if (cpu == "" || f[n] !~ /^[0-9]+\.[0-9]+:$/) next
		split(substr(f[n], 1, length(f[n]) - 1), t, ".")
		ts = t[1] * 1000000000 + t[2] * 10 ^ (9 - length(t[2]))
		rest = substr($0, i + 15)
		j = index(rest, " ==> ")
		if (!j) next
		m = split(substr(rest, 1, j - 1), g, " ")
		if (g[m - 1] !~ /^\[-?[0-9]+\]$/) next
		pid = g[m - 2]; sub(/.*:/, "", pid)
		if (cpu in last) rt[pid + 0] += ts - last[cpu]
		last[cpu] = ts
	}
	END { for (p in rt) if (rt[p]) printf "%d %.0f\n", p, rt[p] }' "$T/report.txt" | sort -n >"$T/want.rt"
	"$EV" -r tracedat -t "$f" 2>"$T/err" | sort -n >"$T/got.rt" || { cat "$T/err"; fail "evdump -t $f"; }
	[ -s "$T/want.rt" ] || fail "no switches in trace-cmd report of $f"
	diff "$T/want.rt" "$T/got.rt" >"$T/diff" || { head "$T/diff"; fail "runtimes differ on $f"; }
	# prev_state letters, in report order (ts, then CPU; the same order as ours)
	awk '/ sched_switch: /{ i = index($0, " ==> "); n = split(substr($0, 1, i - 1), g, " ")
		s = g[n]; sub(/\+$/, "", s); sub(/\|.*/, "", s); if (s == "x") s = "X"; print s }' \
		"$T/report.txt" >"$T/want.st"
	"$EV" -r tracedat "$f" 2>/dev/null | awk '$3 == "switch" { for (i = 1; i <= NF; i++) if ($i ~ /^state=/) print substr($i, 7) }' >"$T/got.st"
	cmp -s "$T/want.st" "$T/got.st" || { diff "$T/want.st" "$T/got.st" | head; fail "prev_state letters differ on $f"; }
	echo "ok $f: $(wc -l <"$T/got.rt") tasks, $(wc -l <"$T/got.st") switches"
	n=$((n + 1))
done
[ $n -ge 3 ] || skip "fewer than 3 trace.dat files found (SHARED=$SHARED)"
