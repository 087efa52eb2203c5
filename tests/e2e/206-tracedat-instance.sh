#!/bin/sh
# A trace.dat whose data is only in an instance buffer (what
# `trace-cmd extract -B NAME` writes: file version 7, empty top-level
# buffer): the reader falls back to the instance, says so in a warning, and
# agrees with `trace-cmd report` (200-tracedat-peer.sh on the file).
. "$(dirname "$0")/lib.sh"
tracefs_setup
[ "$(id -u)" = 0 ] || skip "needs root"
command -v trace-cmd >/dev/null || skip "trace-cmd not installed"
TR=/sys/kernel/tracing
[ -w $TR/instances ] || skip "no writable tracefs"
I=$TR/instances/schedlab-e2e-$$
mkdir $I || skip "cannot create an instance"
echo 1 >$I/events/sched/sched_switch/enable
echo 1 >$I/events/sched/sched_wakeup/enable
sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done'
sleep 0.2
echo 0 >$I/tracing_on
trace-cmd extract -B schedlab-e2e-$$ -o "$T/inst.dat" >/dev/null 2>&1
rc=$?
[ -d $I ] && rmdir $I
[ $rc = 0 ] || fail "trace-cmd extract -B"
"$B/tools/evdump" -r tracedat -c "$T/inst.dat" >"$T/cnt" 2>"$T/err" || { cat "$T/err"; fail "reader"; }
grep -q 'the top-level buffer is empty; read instance buffer "schedlab-e2e-' "$T/err" || { cat "$T/err"; fail "no instance warning"; }
[ "$(awk '$1 == "switch" { print $2 }' "$T/cnt")" -gt 0 ] || fail "no switches read"
TRACEDAT_FILES="$T/inst.dat" sh "$TOP/tests/e2e/200-tracedat-peer.sh" || fail "peer agreement"
