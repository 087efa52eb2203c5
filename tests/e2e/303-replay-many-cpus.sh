#!/bin/sh
# Traces from machines with more than 64 CPUs replay on all of them (up to
# 1024). A generated ftrace text on 100 CPUs: 200 tasks "t<i>" each running
# 2 ms bursts with 1 ms sleeps on CPU i % 100 (4 rounds), and the per-CPU
# kernel thread "kworker/5:1" running 1 ms on CPU 5 four times.
#  - the replay runs "on 100 CPUs" (it used to be cut to 64);
#  - kworker/5:1 (pinned by its name) runs only on CPU 5 in every model;
#  - CPUs above 63 get work (200 tasks, 100 CPUs: the balancer spreads them);
#  - every task's CPU time equals its recorded time (conservation);
#  - --cpus 1025 is refused (exit 2).
. "$(dirname "$0")/lib.sh"
awk 'BEGIN {
	for (r = 0; r < 4; r++)
		for (i = 0; i < 200; i++) {
			cpu = i % 100; pid = 1000 + i; t0 = 100 + r * 0.01 + (i >= 100 ? 0.0025 : 0)
			printf "  <idle>-0 [%03d] d..2 %.6f: sched_wakeup: comm=t%d pid=%d prio=120 target_cpu=%03d\n", cpu, t0, i, pid, cpu
			printf "  <idle>-0 [%03d] d..2 %.6f: sched_switch: prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=t%d next_pid=%d next_prio=120\n", cpu, t0, i, pid
			printf "  t%d-%d [%03d] d..2 %.6f: sched_switch: prev_comm=t%d prev_pid=%d prev_prio=120 prev_state=S ==> next_comm=swapper next_pid=0 next_prio=120\n", i, pid, cpu, t0 + 0.002, i, pid
		}
	for (r = 0; r < 4; r++) {
		t0 = 100.005 + r * 0.01
		printf "  <idle>-0 [005] d..2 %.6f: sched_wakeup: comm=kworker/5:1 pid=50 prio=120 target_cpu=005\n", t0
		printf "  <idle>-0 [005] d..2 %.6f: sched_switch: prev_comm=swapper prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=kworker/5:1 next_pid=50 next_prio=120\n", t0
		printf "  kworker/5:1-50 [005] d..2 %.6f: sched_switch: prev_comm=kworker/5:1 prev_pid=50 prev_prio=120 prev_state=S ==> next_comm=swapper next_pid=0 next_prio=120\n", t0 + 0.001
	}
}' | sort -s -n -k4,4 > "$T/many.txt"
"$SCHEDLAB" --db "$T/db" import "$T/many.txt" > "$T/out" 2> "$T/err" || fail "import: $(cat "$T/err")"
grep -q "201 tasks (201 with work), 2412 events, 100 CPUs" "$T/out" || fail "import: $(cat "$T/out")"
"$SCHEDLAB" --db "$T/db" replay --trace 1 --sched rsdl,o1,sd > "$T/out" 2> "$T/err" || fail "replay: $(cat "$T/err")"
expect_eq "$(grep -c 'tasks on 100 CPUs' "$T/out")" 3 "runs on 100 CPUs"
for run in 2 3 4; do
	expect_eq "$(sq "$T/db" "SELECT COUNT(*) FROM sched_slice s JOIN thread th ON th.utid = s.utid
		WHERE s.run_id = $run AND th.comm = 'kworker/5:1' AND s.cpu != 5")" 0 "run $run: kworker/5:1 off CPU 5"
	hi=$(sq "$T/db" "SELECT COUNT(DISTINCT cpu) FROM sched_slice WHERE run_id = $run AND cpu >= 64")
	[ "$hi" -gt 0 ] || fail "run $run: no work on CPUs 64..99"
	expect_eq "$(sq "$T/db" "SELECT COUNT(*) FROM task_stat r JOIN task_stat t ON t.utid = r.utid
		WHERE r.run_id = 1 AND t.run_id = $run AND t.runtime_ns != r.runtime_ns")" 0 "run $run: conservation"
done
"$SCHEDLAB" --db "$T/db" replay --trace 1 --sched rsdl --cpus 1025 > /dev/null 2>&1; rc=$?
expect_eq "$rc" 2 "exit status of --cpus 1025"
echo "100-CPU trace: replayed on 100 CPUs by rsdl, o1 and sd; pinned kworker stays on CPU 5"
