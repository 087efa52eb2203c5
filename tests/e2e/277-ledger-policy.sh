#!/bin/sh
# A thread's SCHED_BATCH from the recording's ledger (issue 23; docs/ledger.md).
# sched_switch carries prio (120 + nice for a fair task, __task_prio,
# kernel/sched/core.c, v6.18), not the policy, so SCHED_BATCH and
# SCHED_NORMAL look alike in a trace; the ledger has each thread's policy
# (3 = batch). The hand-made trace of e2e 275 (A pid 6, B pid 7, both
# prio 120, so both 'normal' from the trace alone):
#   1. ledger without policies: A and B stay normal;
#   2. ledger with B batch (3) in both snapshots: B becomes batch, A not;
#   3. B batch at the start and normal at the end: the end snapshot is the
#      last word, normal;
#   4. an RT thread (prio 98 in the trace: FIFO) that the ledger calls
#      batch keeps the trace's class (the ledger is of another moment).
# Each import is then replayed by cfs (which reads thread.policy), and the
# run's params say where the policies came from (policy_from): the ledger
# holds 2 threads (A and B), of which 1 (B) is batch in "batch", 0 in the
# others; without a ledger (5.) the trace's prio alone.
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
th() { printf 'thread\t%s\t%s\t0\t%s\t0\t1\t%s\t%s\t10\t-1\t0\t/\t100\t0\t%s\n' "$1" "$1" "$2" "$3" "$4" "$5"; }
ledger() { # ledger FILE BPOLICY_START BPOLICY_END
	{
		printf 'schedlab-ledger\t1\nrelease\t6.18.0\nhz\t250\npreempt\tnone\nclock\t-\n'
		printf 'snapshot\tstart\t1000\ncpu\t0\t0\t0\t0\n'
		th 6 0 100000000 50000000 A
		th 7 "$2" 200000000 20000000 B
		printf 'end\tstart\t5000\nsnapshot\tend\t2000000\ncpu\t0\t0\t0\t0\n'
		th 6 0 115000000 62000000 A
		th 7 "$3" 212000000 22000000 B
		printf 'end\tend\t5000\n'
	} > "$1"
}
run() { # run NAME BPRIO BSTART BEND EXPECTED
	mktrace "$T/$1.txt" "$2"
	ledger "$T/$1.txt.ledger" "$3" "$4"
	"$SCHEDLAB" --db "$T/$1.db" import "$T/$1.txt" > /dev/null 2> "$T/err" || fail "$1: import: $(cat "$T/err")"
	expect_eq "$(sq "$T/$1.db" "SELECT tid, policy FROM thread WHERE tid IN (6, 7) ORDER BY tid" | tr '\n' ' ')" "$5" "$1: policies"
	"$SCHEDLAB" --db "$T/$1.db" replay --trace 1 --sched cfs > /dev/null 2> "$T/err" || fail "$1: replay: $(cat "$T/err")"
	expect_eq "$(sq "$T/$1.db" "SELECT json_extract(params, '$.policy_from') FROM run WHERE id = 2")" \
		"nice, RT priority and class: the trace's prio; SCHED_BATCH: the ledger ($6 of its 2 threads)" "$1: policy_from"
}
run plain 120 0 0 "6|normal 7|normal " 0
run batch 120 3 3 "6|normal 7|batch " 1
run later 120 3 0 "6|normal 7|normal " 0
run rt 98 3 3 "6|normal 7|fifo " 0
mktrace "$T/none.txt" 120
"$SCHEDLAB" -q --db "$T/none.db" import "$T/none.txt" > /dev/null 2>&1 || fail "none: import"
"$SCHEDLAB" -q --db "$T/none.db" replay --trace 1 --sched cfs > /dev/null 2>&1 || fail "none: replay"
expect_eq "$(sq "$T/none.db" "SELECT json_extract(params, '$.policy_from') FROM run WHERE id = 2")" \
	"nice, RT priority and class: the trace's prio (no ledger: SCHED_BATCH not told from normal)" "no ledger: policy_from"
echo "ledger: SCHED_BATCH taken from the ledger for fair threads; the end snapshot wins; RT kept"
