#!/bin/sh
# Waits for children (docs/model.md "Waits for children", docs/replay.md
# "A parent's wait for any child") on traces/corpus/build.dat (make -j3 of
# 24 files, under sh, under schedlab record).
#
# The marks, worked out again from `trace-cmd report` of the same file by the
# rule, with awk: a child is a pid a sched_process_fork named; a task sleeps
# from its switch-out in S or D to its first wakeup (sched_waking or
# sched_wakeup); a sleep ends at a child's exit when the task current at the
# wakeup (the line's pid) is a child of the woken task and has had its
# sched_process_exit; it is "named" when another child of the sleeper made
# its final switch (X or Z) during that sleep. A task is marked (flag 2048)
# with two or more such sleeps and no named one. The import must mark
# exactly those tasks, make among them.
#
# Then the replays: eevdf, causal, seed 0. With --reap any (the default) a
# marked parent wakes at the first of its children's exits, so some waits
# end by another child than the recording's (replay_reap_any > 0); with
# --reap named none does. Every task's CPU time is the recorded one in both;
# rsdl, o1, sd and cfs replay it causally with the same waits, conserve CPU
# time and give the same rows twice.
. "$(dirname "$0")/lib.sh"
command -v trace-cmd > /dev/null 2>&1 || skip "trace-cmd not installed"
tr="$TOP/traces/corpus/build.dat"
"$SCHEDLAB" --db "$T/db" import "$tr" > /dev/null 2>&1 || fail "import $tr"
trace-cmd report "$tr" 2> /dev/null | awk '
function pidof(s,   a) { n = split(s, a, "-"); return a[n] + 0 }
function field(k,   i, a) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
{
	cur = pidof($1); ts = $3 + 0
}
$4 == "sched_process_fork:" { parent[field("child_pid") + 0] = field("pid") + 0; next }
$4 == "sched_process_exit:" { exiting[field("pid") + 0] = 1; next }
$4 == "sched_switch:" {
	# prev is "comm:pid [prio] STATE ==> next"
	for (i = 5; i <= NF; i++) if ($i == "==>") break
	st = $(i - 1); split($(i - 3), a, ":"); prev = a[length(a)] + 0
	if (st ~ /^[SD]/) { asleep[prev] = 1; since[prev] = ts }
	if (st ~ /^[XZ]/ && (prev in parent)) {
		p = parent[prev]
		if (asleep[p] && since[p] < ts) kidexit[p] = ts
	}
	next
}
$4 == "sched_waking:" || $4 == "sched_wakeup:" {
	w = field("pid") + 0
	if (!asleep[w]) next
	asleep[w] = 0
	if ((cur in parent) && parent[cur] == w && exiting[cur]) {
		kw[w]++
		if (kidexit[w] > since[w]) named[w] = 1
	}
}
END { for (w in kw) if (kw[w] >= 2 && !named[w]) print w }' | sort -n > "$T/awk"
[ -s "$T/awk" ] || fail "awk found no parent"
sq "$T/db" "SELECT t.tid FROM task_model m JOIN thread t USING (utid) WHERE m.flags & 2048 ORDER BY t.tid" > "$T/db.txt"
cmp -s "$T/awk" "$T/db.txt" || fail "marked tasks differ: awk $(tr '\n' ' ' < "$T/awk"), import $(tr '\n' ' ' < "$T/db.txt")"
expect_eq "$(sq "$T/db" "SELECT count(*) FROM task_model m JOIN thread t USING (utid) WHERE t.comm = 'make' AND m.flags & 2048")" 1 "make marked"
any=$("$SCHEDLAB" --db "$T/db" -q replay --trace 1 --sched eevdf | sed -n 's/^run \([0-9]*\) .*/\1/p')
named=$("$SCHEDLAB" --db "$T/db" -q replay --trace 1 --sched eevdf --reap named | sed -n 's/^run \([0-9]*\) .*/\1/p')
[ -n "$any" ] && [ -n "$named" ] || fail "replay"
metric() { sq "$T/db" "SELECT CAST(value AS INTEGER) FROM metric WHERE run_id = $1 AND utid IS NULL AND name = 'replay_reap_any'"; }
n=$(metric "$any")
[ "$n" -gt 0 ] || fail "reap any: no wait ended by another child ($n)"
expect_eq "$(metric "$named")" 0 "reap named: waits ended by another child"
sq "$T/db" "SELECT params FROM run WHERE id = $any" | grep -q '"reap":"any"' || fail "params of run $any lack reap any"
sq "$T/db" "SELECT params FROM run WHERE id = $named" | grep -q '"reap":"named"' || fail "params of run $named lack reap named"
for r in "$any" "$named"; do
	u=$(unconserved "$T/db" 1 "$r")
	[ "$u" = 0 ] || fail "run $r: $u tasks with another CPU time than recorded"
done
# the other models through the same causal replay: every task's CPU time
# conserved, and the same rows again from a second run (determinism)
rows() { sq "$T/db" "SELECT ts, dur, cpu, utid, end_state FROM sched_slice WHERE run_id = $1 ORDER BY rowid" | md5sum; }
for m in rsdl o1 sd cfs; do
	r1=$("$SCHEDLAB" --db "$T/db" -q replay --trace 1 --sched $m --mode causal | sed -n 's/^run \([0-9]*\) .*/\1/p')
	r2=$("$SCHEDLAB" --db "$T/db" -q replay --trace 1 --sched $m --mode causal | sed -n 's/^run \([0-9]*\) .*/\1/p')
	[ -n "$r1" ] && [ -n "$r2" ] || fail "$m replay"
	expect_eq "$(unconserved "$T/db" 1 "$r1")" 0 "$m: tasks with another CPU time than recorded"
	expect_eq "$(metric "$r1")" "$(metric "$r2")" "$m: waits ended by another child, twice"
	[ "$(metric "$r1")" -gt 0 ] || fail "$m: no wait ended by another child"
	expect_eq "$(rows "$r1")" "$(rows "$r2")" "$m: the same rows twice"
done
echo "marked: $(wc -l < "$T/awk") tasks (awk and import agree); reap any: $n waits ended by another child"
exit 0
