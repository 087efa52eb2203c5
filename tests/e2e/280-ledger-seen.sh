#!/bin/sh
# e2e 280: `schedlab ledger -o FILE -- CMD` writes ledger version 5 (2: the seen section; 3: the vcpu_pack line; 4: the features line; 5: the load tracking), with
# the "seen" section of the threads born while CMD ran (docs/ledger.md), as
# `schedlab record` does. CMD starts a sleep of 1 s and writes its pid: a
# thread born after the start snapshot and gone before the end one, which
# the ledger looks for every 200 ms and writes the second time it sees it
# (at 400 ms at the latest), so the seen section must hold that pid with
# comm "sleep", and neither snapshot does. A command that cannot run is a
# one-line error (exit 127, as a shell's), and the ledger is still written.
set -u
. "$(dirname "$0")/lib.sh"
"$SCHEDLAB" -q ledger -o "$T/l" -- sh -c "sleep 1 & echo \$! > '$T/pid'; wait" > /dev/null 2> "$T/err" ||
	fail "ledger: $(cat "$T/err")"
pid=$(cat "$T/pid")
expect_eq "$(head -1 "$T/l")" "$(printf 'schedlab-ledger\t5')" "the ledger's version"
# the thread lines of each section: section, tid, comm (field 16)
awk -F'\t' '$1 == "snapshot" { sec = $2 } $1 == "thread" { print sec, $2, $16 }' "$T/l" > "$T/threads"
expect_eq "$(awk -v p="$pid" '$2 == p' "$T/threads")" "seen $pid sleep" "the sleep in the seen section only"
expect_eq "$(awk '$1 == "snapshot" { printf "%s ", $2 }' "$T/l")" "start seen end " "the sections in order"
# the file reads back: import of a one-line ftrace text beside it
printf '# tracer: nop\n  sh-%s [000] ....  1.000000: sched_switch: prev_comm=sh prev_pid=%s prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n' "$pid" "$pid" > "$T/t.txt"
cp "$T/l" "$T/t.txt.ledger"
"$SCHEDLAB" -q --db "$T/db" import "$T/t.txt" > /dev/null 2> "$T/err" || fail "import beside the ledger: $(cat "$T/err")"
"$SCHEDLAB" -q ledger -o "$T/l2" -- /nonexistent/cmd > /dev/null 2> "$T/err"
expect_eq $? 127 "exit status of a command that cannot run"
expect_eq "$(wc -l < "$T/err")" 1 "one line of error"
grep -q "^schedlab: error: cannot run /nonexistent/cmd" "$T/err" || fail "error: $(cat "$T/err")"
echo "ledger -- CMD: version 5, sleep $pid in the seen section: ok"
