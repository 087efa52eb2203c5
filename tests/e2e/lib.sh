# tests/e2e/lib.sh - helpers for end-to-end tests (sourced).
# SCHEDLAB, TOP, SHARED, B are exported by tests/run-all.sh.
set -u
: "${SCHEDLAB:=$(pwd)/schedlab}" "${TOP:=$(pwd)}" "${SHARED:=$(cd .. && pwd)/shared}"
: "${B:=$TOP/build/default}"
export LC_ALL=C TZ=UTC
T=$(mktemp -d /tmp/schedlab-e2e.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }
# expect_eq ACTUAL EXPECTED WHAT
expect_eq() { [ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"; }
# golden NAME FILE: compare FILE with tests/golden/NAME (UPDATE_GOLDEN=1 rewrites)
golden() {
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then cp "$2" "$TOP/tests/golden/$1"; return 0; fi
	diff -u "$TOP/tests/golden/$1" "$2" || fail "output differs from tests/golden/$1"
}
sq() { sqlite3 -batch -noheader "$1" "$2"; }
# switch_runtime [FILE...]: ftrace-style text (trace-cmd report, systrace)
# on the files or stdin -> "pid ns" sorted by pid: each task's runtime, the
# per-CPU intervals between sched_switch lines charged to prev_pid (the
# peer's own arithmetic, for checking our readers); with FIRST_SIGHT=1 also,
# before a CPU's first switch, the task its first sched event names when
# that is not idle and not a switch (it runs there from that event: the
# recorded run's rows, docs/model.md "The trace's start"). With
# STATES=1 each switch's prev_state letter also goes to stderr, read as the
# kernel's print fmt under trace-cmd -N: "R+" is R, "x" (old TASK_DEAD) X,
# "D|W" its first flag, K/W/N alone D.
switch_runtime() {
	awk -v states="${STATES:-0}" -v first="${FIRST_SIGHT:-0}" '
	{
		i = index($0, " sched_switch: ")
		if (!i) {
			if (!first) next
			# a CPU first seen at another sched event: its task runs
			n = split($0, f, " ")
			for (k = 1; k <= n; k++) if (f[k] ~ /^\[[0-9]+\]$/) break
			if (k > n || (f[k] in seen)) next
			for (m = k + 1; m < n; m++) if (f[m] ~ /^[0-9]+\.[0-9]+:$/) break
			if (m >= n) next
			e = f[m + 1]; sub(/:$/, "", e)
			if (e !~ /^sched_(wakeup|waking|wakeup_new|process_fork|process_exec|process_exit|migrate_task|stat_runtime)$/) next
			seen[f[k]] = 1
			pid = ""
			for (q = k - 1; q >= 1; q--) if (f[q] ~ /-[0-9]+$/) { pid = f[q]; sub(/.*-/, "", pid); break }
			if (pid == "" || pid + 0 == 0) next
			split(substr(f[m], 1, length(f[m]) - 1), t, ".")
			last[f[k]] = t[1] * 1000000000 + t[2] * 10 ^ (9 - length(t[2]))
			next
		}
		n = split(substr($0, 1, i), f, " ")
		cpu = ""
		for (k = n; k >= 1; k--) if (f[k] ~ /^\[[0-9]+\]$/) { cpu = f[k]; break }
		if (cpu == "" || f[n] !~ /^[0-9]+\.[0-9]+:$/) next
		split(substr(f[n], 1, length(f[n]) - 1), t, ".")
		ts = t[1] * 1000000000 + t[2] * 10 ^ (9 - length(t[2]))
		rest = substr($0, i)
		j = index(rest, " prev_pid=")
		if (!j) next
		split(substr(rest, j + 10), g, " ")
		if (cpu in last) rt[g[1] + 0] += ts - last[cpu]
		last[cpu] = ts
		seen[cpu] = 1
		if (states) {
			j = index(rest, " prev_state=")
			split(substr(rest, j + 12), g, " ")
			s = g[1]; sub(/\+$/, "", s)
			if (s ~ /^R/) s = "R"; else { sub(/\|.*/, "", s); if (s == "x") s = "X"; if (s ~ /^[KWN]$/) s = "D" }
			print s >"/dev/stderr"
		}
	}
	END { for (p in rt) if (rt[p]) printf "%d %.0f\n", p, rt[p] }' "$@" | sort -n
}
# unconserved DB TRACE RUN: how many tasks of TRACE's recorded run got a
# replayed CPU time in RUN more than one tick (1 ms) away from the recorded one
unconserved() {
	sq "$1" "WITH rec AS (SELECT s.utid, SUM(s.dur) AS rt FROM sched_slice s JOIN run r ON r.id = s.run_id
			      WHERE r.trace_id = $2 AND r.scheduler = 'recorded' GROUP BY s.utid),
		      rep AS (SELECT utid, SUM(dur) AS rt FROM sched_slice WHERE run_id = $3 GROUP BY utid)
		 SELECT COUNT(*) FROM rec LEFT JOIN rep USING (utid)
		 WHERE ABS(rec.rt - COALESCE(rep.rt, 0)) > 1000000"
}
# tracefs_setup: as root, mount tracefs at /sys/kernel/tracing when it is not
# (a fresh machine boots without it; trace-cmd and libtracefs do the same),
# then hold /tmp/schedlab-tracefs.lock for the rest of the test: the kernel's
# tracing state is one for the machine, so two test runs that record at once
# (two checkouts, CI beside a developer) would see each other's events.
tracefs_setup() {
	[ "$(id -u)" = 0 ] || return 0
	[ -d /sys/kernel/tracing/instances ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
	exec 9>/tmp/schedlab-tracefs.lock
	flock 9
}
# pingpong_trace COMM1 COMM2 N: an ftrace text trace on stdout of two tasks
# (pids 6 and 7, named as given, hostile strings welcome) taking turns on
# CPU 0, each woken by the other: N rounds of 5 ms from 1.001 s, each task
# running 2 ms of each round
pingpong_trace() {
	echo '# tracer: nop'
	_t=1000
	_i=0
	while [ $_i -lt "$3" ]; do
		printf '  %s-6 [000] d..2 1.%06d: sched_wakeup: comm=%s pid=7 prio=120 target_cpu=000\n' "$1" $_t "$2"
		printf '  %s-6 [000] d..2 1.%06d: sched_switch: prev_comm=%s prev_pid=6 prev_prio=120 prev_state=S ==> next_comm=%s next_pid=7 next_prio=120\n' "$1" $((_t + 100)) "$1" "$2"
		printf '  %s-7 [000] d..2 1.%06d: sched_wakeup: comm=%s pid=6 prio=120 target_cpu=000\n' "$2" $((_t + 2000)) "$1"
		printf '  %s-7 [000] d..2 1.%06d: sched_switch: prev_comm=%s prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=%s next_pid=6 next_prio=120\n' "$2" $((_t + 2100)) "$2" "$1"
		_t=$((_t + 5000))
		_i=$((_i + 1))
	done
}
