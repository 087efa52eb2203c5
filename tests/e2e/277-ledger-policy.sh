#!/bin/sh
# A thread's policy, nice and RT priority from the recording's ledger
# (issue 23; docs/ledger.md "What the replay takes from it").
# sched_switch carries the effective prio (120 + nice for a fair task,
# 99 - RT priority for a real-time one: __task_prio, kernel/sched/core.c,
# v6.18), not the policy, so SCHED_BATCH looks like SCHED_NORMAL and RR like
# FIFO in a trace, and a priority-inheritance boost shows the donor's prio;
# the ledger has each thread's own policy (0 normal, 1 FIFO, 2 RR, 3 batch),
# nice and RT priority. The class (fair or RT) stays the trace's. The
# hand-made trace of e2e 275 (A pid 6 prio 120; B pid 7 with the prio given):
#   1. ledger with B normal, nice 0: both normal, nice 0;
#   2. ledger with B batch (3) in both snapshots: B becomes batch, A not;
#   3. B batch at the start and normal at the end: the end snapshot is the
#      last word, normal;
#   4. an RT thread (prio 98 in the trace: FIFO, RT priority 99 - 98 = 1)
#      that the ledger calls batch keeps the trace's class and priority
#      (the ledger is of another moment);
#   5. B at prio 120 in the trace (nice 0), nice 2 at the start and 5 at the
#      end in the ledger: nice 5 (the end snapshot's; the kernel weighs a
#      fair task by its static_prio, set_load_weight, kernel/sched/core.c);
#   6. B at prio 89 in the trace (FIFO, RT priority 10), RR with RT
#      priority 12 in the ledger: rr, 12.
# Each import is then replayed by cfs (which reads thread.policy), and the
# run's params say where the policies came from (policy_from): the ledger
# holds 2 threads (A and B), with 1 batch in "batch" and 1 rr in "rr";
# without a ledger (7.) the trace's prio alone.
. "$(dirname "$0")/lib.sh"
mktrace() { # mktrace FILE BPRIO
	{
		echo '# tracer: nop'
		echo '  <idle>-0 [000] d..2 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=A next_pid=6 next_prio=120'
		echo "  A-6 [000] d..2 1.010000: sched_wakeup: comm=B pid=7 prio=$2 target_cpu=000"
		echo "  A-6 [000] d..2 1.012000: sched_switch: prev_comm=A prev_pid=6 prev_prio=120 prev_state=R ==> next_comm=B next_pid=7 next_prio=$2"
		echo "  B-7 [000] d..2 1.024000: sched_switch: prev_comm=B prev_pid=7 prev_prio=$2 prev_state=S ==> next_comm=A next_pid=6 next_prio=120"
		echo '  A-6 [000] d..2 1.027000: sched_switch: prev_comm=A prev_pid=6 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120'
	} > "$1"
}
# thread line: tid tgid nice policy rtprio affinity exec delay pcount autogroup agnice cgroup weight at comm
# th TID POLICY EXEC DELAY COMM [NICE [RTPRIO]]
th() { printf 'thread\t%s\t%s\t%s\t%s\t%s\t1\t%s\t%s\t10\t-1\t0\t/\t100\t0\t%s\n' "$1" "$1" "${6:-0}" "$2" "${7:-0}" "$3" "$4" "$5"; }
ledger() { # ledger FILE BPOLICY_START BPOLICY_END [BNICE_START BNICE_END [BRTPRIO]]
	{
		printf 'schedlab-ledger\t1\nrelease\t6.18.0\nhz\t250\npreempt\tnone\nclock\t-\n'
		printf 'snapshot\tstart\t1000\ncpu\t0\t0\t0\t0\n'
		th 6 0 100000000 50000000 A
		th 7 "$2" 200000000 20000000 B "${4:-0}" "${6:-0}"
		printf 'end\tstart\t5000\nsnapshot\tend\t2000000\ncpu\t0\t0\t0\t0\n'
		th 6 0 115000000 62000000 A
		th 7 "$3" 212000000 22000000 B "${5:-0}" "${6:-0}"
		printf 'end\tend\t5000\n'
	} > "$1"
}
run() { # run NAME BPRIO BSTART BEND EXPECTED BATCH RR [BNICE_START BNICE_END [BRTPRIO]]
	mktrace "$T/$1.txt" "$2"
	ledger "$T/$1.txt.ledger" "$3" "$4" "${8:-0}" "${9:-0}" "${10:-0}"
	"$SCHEDLAB" --db "$T/$1.db" import "$T/$1.txt" > /dev/null 2> "$T/err" || fail "$1: import: $(cat "$T/err")"
	expect_eq "$(sq "$T/$1.db" "SELECT tid, policy, nice, rt_priority FROM thread WHERE tid IN (6, 7) ORDER BY tid" | tr '\n' ' ')" "$5" "$1: policies"
	"$SCHEDLAB" --db "$T/$1.db" replay --trace 1 --sched cfs > /dev/null 2> "$T/err" || fail "$1: replay: $(cat "$T/err")"
	expect_eq "$(sq "$T/$1.db" "SELECT json_extract(params, '$.policy_from') FROM run WHERE id = 2")" \
		"class: the trace's prio; policy, nice and RT priority: the ledger for its 2 threads ($6 batch, $7 rr), the trace's prio for the others" "$1: policy_from"
}
run plain 120 0 0 "6|normal|0|0 7|normal|0|0 " 0 0
run batch 120 3 3 "6|normal|0|0 7|batch|0|0 " 1 0
run later 120 3 0 "6|normal|0|0 7|normal|0|0 " 0 0
run rt 98 3 3 "6|normal|0|0 7|fifo|0|1 " 0 0
run nice 120 0 0 "6|normal|0|0 7|normal|5|0 " 0 0 2 5
run rr 89 2 2 "6|normal|0|0 7|rr|0|12 " 0 1 0 0 12
mktrace "$T/none.txt" 120
"$SCHEDLAB" -q --db "$T/none.db" import "$T/none.txt" > /dev/null 2>&1 || fail "none: import"
"$SCHEDLAB" -q --db "$T/none.db" replay --trace 1 --sched cfs > /dev/null 2>&1 || fail "none: replay"
expect_eq "$(sq "$T/none.db" "SELECT json_extract(params, '$.policy_from') FROM run WHERE id = 2")" \
	"nice, RT priority and class: the trace's prio (no ledger: SCHED_BATCH not told from normal, RR from FIFO)" "no ledger: policy_from"
echo "ledger: policy, nice and RT priority taken from the ledger within the trace's class; the end snapshot wins"
