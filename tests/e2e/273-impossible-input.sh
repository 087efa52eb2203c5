#!/bin/sh
# Impossible or inconsistent input, one rule for every reader (issue 24,
# items 5 and 6): the behaviour model (collector/model.c) checks what every
# reader delivers, and sl_import_model names the file in its messages.
# Each case is the bundled traces/local-2cpu-hogs.ftrace.txt (3676 events,
# span 0.349930 s, from 1264.805877 s) with one line changed:
#  1. a line stamped 0.000001 s before the first (the audit's case: the
#     span became 1265 s without a word): imported, with a warning that the
#     first event is 1264.805 s before the next (a clock step or a damaged
#     timestamp);
#  2. line 30 twice: the second copy is counted once, with a warning
#     (3676 events, as without it);
#  3. pid=-5 on line 30: refused, "FILE:30: negative pid -5";
#  4. a last line stamped 9999999999 s (10^19 ns, past 2^62 ns = 146 years,
#     and past 2^63: it would be stored negative, the audit's perf.data had
#     last_ts < first_ts): refused, "FILE:3689: timestamp ... past any clock";
#  5. a trace.dat cut after its headers, before any event (traces/rec-sleep.dat
#     cut at 46000 bytes: cpu 0's data starts at 45056): refused like an
#     ftrace file without events, "no scheduler events found", exit 1, no
#     database (before: "0 tasks, 0 events, 0 CPUs", exit 0).
. "$(dirname "$0")/lib.sh"
F="$TOP/traces/local-2cpu-hogs.ftrace.txt"
imp() { rm -f "$T/t.db"; "$SCHEDLAB" --db "$T/t.db" import "$1" > "$T/out" 2> "$T/err"; }
# 1
{ head -11 "$F"
  echo '            bash-10533   (  10533) [000] d..2.     0.000001: sched_wakeup: comm=bash pid=10536 prio=120 target_cpu=000'
  tail -n +12 "$F"; } > "$T/early.txt"
imp "$T/early.txt" || fail "early outlier: $(cat "$T/err")"
grep -q "^schedlab: warning: $T/early.txt: the first event is 1264.805 s before the next (clock step or a damaged timestamp)" "$T/err" ||
	fail "early outlier: no warning: $(cat "$T/err")"
# the plain file gets no such warning
imp "$F" || fail "plain import"
grep -q "clock step\|duplicates" "$T/err" && fail "plain file warned: $(cat "$T/err")"
# 2
awk 'NR == 30 { print } { print }' "$F" > "$T/dup.txt"
imp "$T/dup.txt" || fail "duplicate: $(cat "$T/err")"
grep -q "^schedlab: warning: $T/dup.txt: 1 events were the event before them on their CPU again (exact duplicates); counted once" "$T/err" ||
	fail "duplicate: no warning: $(cat "$T/err")"
expect_eq "$(sq "$T/t.db" "SELECT events FROM trace")" 3676 "events with a duplicate line"
# 3
sed '30s/pid=[0-9]*/pid=-5/' "$F" > "$T/neg.txt"
imp "$T/neg.txt"; expect_eq $? 1 "negative pid: exit"
expect_eq "$(cat "$T/err")" "schedlab: error: $T/neg.txt:30: negative pid -5" "negative pid"
[ -e "$T/t.db" ] && fail "negative pid: a database left"
# 4
{ cat "$F"
  echo '            bash-10533   (  10533) [000] d..2.  9999999999.000000: sched_wakeup: comm=bash pid=10536 prio=120 target_cpu=000'; } > "$T/huge.txt"
imp "$T/huge.txt"; expect_eq $? 1 "timestamp past 2^62: exit"
expect_eq "$(cat "$T/err")" "schedlab: error: $T/huge.txt:3689: timestamp 9999999999000000000 ns is past any clock (damaged)" \
	"timestamp past 2^62"
# 5
head -c 46000 "$TOP/traces/rec-sleep.dat" > "$T/cut0.dat"
imp "$T/cut0.dat"; expect_eq $? 1 "trace.dat without events: exit"
grep -q "^schedlab: error: $T/cut0.dat: no scheduler events found" "$T/err" || fail "trace.dat without events: $(cat "$T/err")"
[ -e "$T/t.db" ] && fail "trace.dat without events: a database left"
echo "impossible input: outlier and duplicate warned, negative pid, ts past 2^62 and an eventless cut file refused"
