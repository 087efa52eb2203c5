#!/bin/sh
# Faults through `schedlab import` of trace.dat files:
#  - a file cut in its CPU data imports what is whole, with one warning
#    "FILE:OFFSET: file cut short: cpu N data ends here" (OFFSET = the
#    start of the first CPU data that is incomplete, page aligned), exit 0,
#    and fewer events than the whole file;
#  - a file cut inside its headers fails: "schedlab: error: FILE:OFFSET: ...",
#    exit 1, and the database holds no trace for it;
#  - corrupt files on which libtracecmd itself crashes (fuzz crashers in
#    tests/fuzz/corpus/tracedat) end in exit 0 or 1 with a message, never a
#    signal.
. "$(dirname "$0")/lib.sh"
"$SCHEDLAB" -h 2>&1 | grep -q import || skip "schedlab has no import command"
F="$SHARED/traces/trappy-hmp-8cpu-dat/trace.dat"
[ -f "$F" ] || skip "no $F"
size=$(wc -c <"$F")

head -c $((size * 90 / 100)) "$F" >"$T/cut90.dat"
"$SCHEDLAB" --db "$T/db" import "$T/cut90.dat" >"$T/out" 2>"$T/err" || { cat "$T/err"; fail "cut file refused"; }
grep -q "^schedlab: warning: $T/cut90.dat:[0-9]*: file cut short: cpu [0-9] data ends here" "$T/err" ||
	{ cat "$T/err"; fail "no cut-short warning with an offset"; }
off=$(sed -n "s/^schedlab: warning: .*cut90.dat:\([0-9]*\): file cut short.*/\1/p" "$T/err")
expect_eq "$((off % 4096))" 0 "cut offset is page aligned"
[ "$off" -le $((size * 90 / 100)) ] || fail "offset $off past the cut"
ev=$(sq "$T/db" "select events from trace where path like '%cut90.dat'")
# the whole file's count, from our reader (sched events incl. sched_stat_runtime)
whole=$("$B/tools/evdump" -r tracedat -c "$F" 2>/dev/null | awk '{ s += $2 } END { print s }')
[ -n "$ev" ] && [ "$ev" -gt 0 ] && [ "$ev" -lt "$whole" ] || fail "cut file events $ev (whole file: $whole)"

head -c $((size * 5 / 100)) "$F" >"$T/cut5.dat"
if "$SCHEDLAB" --db "$T/db" import "$T/cut5.dat" >"$T/out" 2>"$T/err"; then fail "header cut accepted"; fi
grep -q "^schedlab: error: $T/cut5.dat:[0-9]*: .*runs past the end of the file" "$T/err" || { cat "$T/err"; fail "error message"; }
expect_eq "$(sq "$T/db" "select count(*) from trace where path like '%cut5.dat'")" 0 "no trace row for a refused file"

for c in "$TOP"/tests/fuzz/corpus/tracedat/v*.dat; do
	"$SCHEDLAB" --db "$T/db" import "$c" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -le 1 ] || fail "$c: exit $rc"
	[ $rc = 0 ] || grep -q "^schedlab: error: $c:[0-9]*: " "$T/err" || { cat "$T/err"; fail "$c: no FILE:POS error"; }
done
