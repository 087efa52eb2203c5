#!/bin/sh
# Import real ftrace text traces; each task's runtime in the recorded run must
# equal an independent computation over the same file: awk sums, per CPU, the
# interval between a switch that puts a task on the CPU and the next switch on
# that CPU that takes the same task off (the idle task, pid 0, is not counted;
# a switch whose prev is not the task that CPU's previous switch put on starts
# over, as after lost events); before a CPU's first switch, from its first
# sched event that is not a switch, the task that event names (it was running
# there). Timestamps are turned into integer
# microseconds/nanoseconds from their digits, so no rounding enters.
. "$TOP/tests/e2e/lib.sh"

check() {
	file=$1
	"$SCHEDLAB" --db "$T/db" import "$file" > "$T/out" || fail "import $file"
	id=$(sed -n 's/^trace \([0-9]*\):.*/\1/p' "$T/out")
	[ -n "$id" ] || fail "no trace id printed"
	sq "$T/db" "SELECT th.tid, SUM(s.dur) FROM sched_slice s JOIN run r ON r.id = s.run_id
		JOIN thread th ON th.utid = s.utid WHERE r.trace_id = $id AND r.scheduler = 'recorded'
		GROUP BY th.tid ORDER BY th.tid" | tr '|' ' ' > "$T/ours"
	awk '
	function val(key,   i, n, parts) {   # value of key=... in the line
		for (i = 1; i <= NF; i++) if (index($i, key "=") == 1) return substr($i, length(key) + 2)
		return ""
	}
	# a CPU first seen at another sched event (not a switch): the task it
	# names runs there from that event (docs/model.md, the section on the start of a trace)
	!/sched_switch:/ {
		cpu = ""; ts = ""; ev = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^\[[0-9]+\]$/ && cpu == "") { cpu = substr($i, 2, length($i) - 2) + 0; ci = i }
			if (cpu != "" && $i ~ /^[0-9]+\.[0-9]+:$/ && ts == "") { ts = $i; ev = $(i + 1) }
		}
		if (cpu == "" || ts == "" || (cpu in seen)) next
		if (ev !~ /^sched_(wakeup|waking|wakeup_new|process_fork|process_exec|process_exit|migrate_task|stat_runtime):$/) next
		seen[cpu] = 1
		pid = $(ci - 1); if (pid !~ /-[0-9]+$/) next
		sub(/.*-/, "", pid)
		if (pid + 0 == 0) next
		sub(/:$/, "", ts); split(ts, tp, ".")
		frac = tp[2]; while (length(frac) < 9) frac = frac "0"
		on[cpu] = pid + 0; since[cpu] = tp[1] * 1000000000 + frac
		next
	}
	/sched_switch:/ {
		cpu = ""; ts = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^\[[0-9]+\]$/ && cpu == "") cpu = substr($i, 2, length($i) - 2) + 0
			if ($i ~ /^[0-9]+\.[0-9]+:$/ && ts == "") ts = $i
		}
		sub(/:$/, "", ts); split(ts, tp, ".")
		frac = tp[2]; while (length(frac) < 9) frac = frac "0"
		t = tp[1] * 1000000000 + frac
		prev = val("prev_pid"); next_ = val("next_pid")
		if (prev == "") {                       # trace-cmd report form: c:pid [prio] S ==> c:pid [prio]
			line = $0; sub(/.*sched_switch: */, "", line)
			split(line, h, " ==> ")
			a = h[1]; sub(/ *\[.*/, "", a); sub(/.*:/, "", a); prev = a
			b = h[2]; sub(/ *\[.*/, "", b); sub(/.*:/, "", b); next_ = b
		}
		if ((cpu in on) && on[cpu] == prev && prev != 0) run[prev] += t - since[cpu]
		on[cpu] = next_; since[cpu] = t; seen[cpu] = 1
	}
	END { for (p in run) printf "%d %.0f\n", p, run[p] }' "$file" | sort -n > "$T/awk"
	diff "$T/awk" "$T/ours" > "$T/diff" || { head -20 "$T/diff"; fail "runtimes differ for $file"; }
	n=$(wc -l < "$T/ours")
	[ "$n" -gt 5 ] || fail "only $n tasks with runtime in $file"
	echo "ok $file: $n tasks agree"
}

check "$TOP/traces/lisa-juno-report.txt"
check "$TOP/traces/panopticon-desktop.ftrace.txt"
