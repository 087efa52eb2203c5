#!/bin/sh
# Kernel threads as they were (issue 11): a task's policy and priority come
# from the trace's prio fields (docs/model.md: prio < 100 is real-time, FIFO
# with rt_priority 99 - prio; else normal with nice prio - 120). In
# traces/perf-sched-missed-2cpu.perf.data the migration/N threads are switched
# in with next_prio=0 (perf script, counted by awk below) and ksoftirqd/N
# with 120: so migration/N is FIFO 99 and ksoftirqd/N normal, nice 0, and a
# replay runs them so (the models read thread.policy / rt_priority).
. "$TOP/tests/e2e/lib.sh"
command -v perf >/dev/null 2>&1 || skip "perf not installed"
F="$TOP/traces/perf-sched-missed-2cpu.perf.data"
perf script -i "$F" -F event,trace 2>/dev/null | awk '/sched_switch/ {
	for (i = 1; i <= NF; i++) {
		if ($i ~ /^next_comm=/) c = substr($i, 11)
		if ($i ~ /^next_prio=/) p = substr($i, 11)
	}
	if (c ~ /^(migration|ksoftirqd)\//) prio[c] = p }
	END { for (c in prio) print c, prio[c] }' | sort > "$T/prio"
grep -q "^migration/0 0$" "$T/prio" || fail "migration/0 not at prio 0 in the file: $(cat "$T/prio")"
"$SCHEDLAB" -q --db "$T/db" import "$F" > /dev/null 2>&1 || fail import
awk '{ if ($2 < 100) print $1 "|fifo|" 99 - $2 "|0"; else print $1 "|normal|0|" $2 - 120 }' "$T/prio" > "$T/want"
sq "$T/db" "SELECT comm, policy, rt_priority, nice FROM thread WHERE comm LIKE 'migration/%' OR comm LIKE 'ksoftirqd/%'
	ORDER BY comm" > "$T/got"
diff "$T/want" "$T/got" || fail "policy and priority of the kernel threads differ from the trace's prio"
"$SCHEDLAB" -q --db "$T/db" replay --trace 1 --sched o1 > /dev/null || fail replay
# the replay ran every migration/N wakeup the recording had
expect_eq "$(sq "$T/db" "SELECT COUNT(*) FROM task_stat s JOIN thread th ON th.utid = s.utid
	WHERE th.comm LIKE 'migration/%' AND s.run_id = 2 AND s.wakeups >= (SELECT r.wakeups FROM task_stat r
	WHERE r.run_id = 1 AND r.utid = s.utid)")" "$(grep -c '^migration' "$T/want")" "migration threads replayed"
echo "ok: $(tr '\n' ' ' < "$T/got")"
