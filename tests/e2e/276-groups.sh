#!/bin/sh
# Task groups from the ledger (issue 22, docs/groups.md).
# 1. A trace made by hand: one CPU, A (pid 6, nice -10: prio 110) and B
#    (pid 7, nice 0) both CPU-bound, alternating 2 ms slices 50 times each
#    (100 ms of CPU each, 1.000-1.200 s), and C (pid 9) 1 ms at the end.
#    Its ledger (version 2): A in autogroup 5 (nice 0), B in none (the root
#    group), C only in the "seen" section (born during the recording), in
#    cgroup /x of cpu.weight 50. Import stores them in thread (schema 11).
# 2. eevdf replays, worked from calc_group_shares (kernel/sched/fair.c):
#    A alone in its autogroup gets the group's shares, 1024, whatever its
#    nice: A and B share the CPU 1:1 and A's 100 ms end near 200 ms (both
#    ends within a few 0.70 ms slices: >= 190 ms). With --groups none A
#    weighs 9548 against B's 1024 and gets 90.3 % of the CPU: its 100 ms
#    end at 100 / 0.903 = 110.7 ms (<= 120 ms). Each run's params say which.
# 2b. (below) a thread's affinity from the ledger.
# 3. As root, where a cpu cgroup can be made: `schedlab record` of
#    tests/tools/cgroup-hogs.sh, whose hogs are born and gone inside the
#    recording (no snapshot holds them): the ledger's "seen" section has
#    them, and import puts them in their cgroups with their weights
#    (cpu.weight 300 and 100, or v1 cpu.shares 3072 and 1024 = 300, 100).
. "$(dirname "$0")/lib.sh"
{
	echo '# tracer: nop'
	awk 'BEGIN { t = 1.0; p = "swapper/0"; pp = 0; pr = 120
		for (i = 0; i < 100; i++) {
			if (i % 2 == 0) { n = "A"; np = 6; npr = 110 } else { n = "B"; np = 7; npr = 120 }
			printf "  %s-%d [000] d..2 %.6f: sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=R ==> next_comm=%s next_pid=%d next_prio=%d\n", p, pp, t, p, pp, pr, n, np, npr
			p = n; pp = np; pr = npr; t += 0.002
		}
		printf "  %s-%d [000] d..2 %.6f: sched_switch: prev_comm=%s prev_pid=%d prev_prio=%d prev_state=S ==> next_comm=C next_pid=9 next_prio=120\n", p, pp, t, p, pp, pr
		printf "  C-9 [000] d..2 %.6f: sched_switch: prev_comm=C prev_pid=9 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n", t + 0.001
	}'
} > "$T/g.txt"
# thread line: tid tgid nice policy rtprio affinity exec delay pcount autogroup agnice cgroup weight at comm
th() { printf 'thread\t%s\t%s\t%s\t0\t0\t1\t0\t0\t1\t%s\t0\t%s\t%s\t0\t%s\n' "$1" "$1" "$2" "$3" "$4" "$5" "$6"; }
{
	printf 'schedlab-ledger\t2\nrelease\t6.18.0\nhz\t250\npreempt\tnone\nclock\t-\n'
	printf 'snapshot\tstart\t1000\ncpu\t0\t0\t0\t0\n'
	th 6 -10 5 / 100 A
	th 7 0 -1 / 100 B
	printf 'end\tstart\t5000\nsnapshot\tseen\t1000\n'
	th 9 0 5 /x 50 C
	printf 'end\tseen\t0\nsnapshot\tend\t2000000\ncpu\t0\t0\t0\t0\n'
	th 6 -10 5 / 100 A
	th 7 0 -1 / 100 B
	printf 'end\tend\t5000\n'
} > "$T/g.txt.ledger"
"$SCHEDLAB" -q --db "$T/g.db" import "$T/g.txt" > /dev/null 2> "$T/err" || fail "import: $(cat "$T/err")"
expect_eq "$(sq "$T/g.db" "SELECT tid, autogroup, cgroup, cgroup_weight FROM thread WHERE tid IN (6, 7, 9) ORDER BY tid" | tr '\n' ' ')" \
	"6|5|/|100 7|-1|/|100 9|5|/x|50 " "threads' groups"
"$SCHEDLAB" -q --db "$T/g.db" replay --trace 1 --sched eevdf > /dev/null || fail "replay"
"$SCHEDLAB" -q --db "$T/g.db" replay --trace 1 --sched eevdf --groups none > /dev/null || fail "replay --groups none"
aend() { sq "$T/g.db" "SELECT (MAX(s.ts + s.dur) - (SELECT first_ts FROM trace)) / 1000000 FROM sched_slice s JOIN thread t USING (utid) WHERE s.run_id = $1 AND t.tid = 6"; }
g=$(aend 2)
n=$(aend 3)
echo "A's 100 ms end at $g ms with groups, $n ms without (derived: ~200 and 110.7)"
[ "$g" -ge 190 ] || fail "with groups A ended at $g ms (expected >= 190)"
[ "$n" -le 120 ] || fail "without groups A ended at $n ms (expected <= 120)"
expect_eq "$(sq "$T/g.db" "SELECT json_extract(params, '\$.groups') FROM run WHERE id = 2")" \
	"ledger: 2 groups below the root; 0 tasks not in the ledger took their parent's or thread group's" "params with groups"
expect_eq "$(sq "$T/g.db" "SELECT json_extract(params, '\$.groups') FROM run WHERE id = 3")" \
	"none (--groups none: every task in the root group)" "params without"
# a ledger of a version newer than this schedlab's is refused in one line
sed '1s/\t2$/\t6/' "$T/g.txt.ledger" > "$T/h.ledger"
"$SCHEDLAB" -q --db "$T/h.db" import --ledger "$T/h.ledger" "$T/g.txt" > /dev/null 2> "$T/err" && fail "version 6 ledger accepted"
expect_eq "$(cat "$T/err")" "schedlab: error: $T/h.ledger:1: ledger version 6 is newer than this schedlab's (5)" "newer ledger"
# 2b. affinity: a 2-CPU trace, P (pid 6) and Q (pid 7) each running 1 ms
#    slices on both CPUs in turn; the ledger pins P to CPU 1 (affinity 2)
#    and lets Q run anywhere (3). Import puts P's mask in its task model
#    (2), leaves Q's as any (0), and the eevdf replay runs P only on CPU 1.
{
	echo '# tracer: nop'
	awk 'BEGIN { t = 1.0
		for (i = 0; i < 20; i++) {
			c = i % 2
			printf "  <idle>-0 [%03d] d..2 %.6f: sched_switch: prev_comm=swapper/%d prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=P next_pid=6 next_prio=120\n", c, t, c
			printf "  P-6 [%03d] d..2 %.6f: sched_switch: prev_comm=P prev_pid=6 prev_prio=120 prev_state=R ==> next_comm=Q next_pid=7 next_prio=120\n", c, t + 0.001
			printf "  Q-7 [%03d] d..2 %.6f: sched_switch: prev_comm=Q prev_pid=7 prev_prio=120 prev_state=R ==> next_comm=swapper/%d next_pid=0 next_prio=120\n", c, t + 0.002, c
			t += 0.003
		}
	}'
} > "$T/p.txt"
{
	printf 'schedlab-ledger\t2\nrelease\t6.18.0\nhz\t250\npreempt\tnone\nclock\t-\n'
	printf 'snapshot\tstart\t1000\ncpu\t0\t0\t0\t0\n'
	printf 'thread\t6\t6\t0\t0\t0\t2\t0\t0\t1\t-1\t0\t/\t100\t0\tP\n'
	printf 'thread\t7\t7\t0\t0\t0\t3\t0\t0\t1\t-1\t0\t/\t100\t0\tQ\n'
	printf 'end\tstart\t5000\nsnapshot\tend\t2000000\ncpu\t0\t0\t0\t0\nend\tend\t5000\n'
} > "$T/p.txt.ledger"
"$SCHEDLAB" -q --db "$T/p.db" import "$T/p.txt" > /dev/null 2> "$T/err" || fail "import p: $(cat "$T/err")"
expect_eq "$(sq "$T/p.db" "SELECT t.tid, m.cpumask FROM task_model m JOIN thread t USING (utid) WHERE t.tid IN (6, 7) ORDER BY t.tid" | tr '\n' ' ')" \
	"6|2 7|0 " "affinity from the ledger"
"$SCHEDLAB" -q --db "$T/p.db" replay --trace 1 --sched eevdf > /dev/null || fail "replay p"
expect_eq "$(sq "$T/p.db" "SELECT group_concat(DISTINCT s.cpu) FROM sched_slice s JOIN thread t USING (utid) WHERE s.run_id = 2 AND t.tid = 6")" 1 \
	"P's CPUs in the replay"
# 3
[ "$(id -u)" = 0 ] || { echo "groups: hand-made cases ok; live recording skipped (not root)"; exit 0; }
tracefs_setup
if ! { mkdir -p /sys/fs/cgroup/cpu/schedlab-probe 2> /dev/null && rmdir /sys/fs/cgroup/cpu/schedlab-probe; } &&
	! [ -f /sys/fs/cgroup/cgroup.subtree_control ]; then
	echo "groups: hand-made cases ok; no cpu cgroup to make here"
	exit 0
fi
"$SCHEDLAB" -q record -o "$T/cg.dat" -- sh "$TOP/tests/tools/cgroup-hogs.sh" 1 > /dev/null 2> "$T/err" || fail "record: $(cat "$T/err")"
"$SCHEDLAB" -q --db "$T/cg.db" import "$T/cg.dat" > /dev/null 2> "$T/err" || fail "import: $(cat "$T/err")"
hi=$(sq "$T/cg.db" "SELECT COUNT(*) FROM thread WHERE cgroup = '/schedlab-hi' AND cgroup_weight = 300")
lo=$(sq "$T/cg.db" "SELECT COUNT(*) FROM thread WHERE cgroup = '/schedlab-lo' AND cgroup_weight = 100")
echo "threads seen in /schedlab-hi: $hi, in /schedlab-lo: $lo"
[ "$hi" -ge 2 ] && [ "$lo" -ge 2 ] || fail "the hogs' cgroups: hi $hi, lo $lo (expected >= 2 each)"
echo "groups: ledger rows, shares by hand, and a recording's short-lived cgroup hogs: ok"
