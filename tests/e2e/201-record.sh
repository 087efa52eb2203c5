#!/bin/sh
# schedlab record as root: record `sleep 0.2` and a small busy loop, then
#  - the file is a trace.dat that `trace-cmd report` reads, with as many
#    sched events as `schedlab record` said it recorded (stats "read events");
#  - our trace.dat reader delivers the same number of events, and the
#    per-task runtimes and prev_state letters agree with trace-cmd report
#    (200-tracedat-peer.sh run on the new file);
#  - the CMD's own fork/exec/exit are in it (sched_process_exec of "sleep");
#  - the tracing state is as it was (top-level tracing_on, set_event,
#    buffer_size_kb, instances list) and no instance is left behind.
. "$(dirname "$0")/lib.sh"
tracefs_setup
[ "$(id -u)" = 0 ] || skip "recording needs root"
TR=/sys/kernel/tracing
[ -w $TR/instances ] || skip "no writable tracefs at $TR"
command -v trace-cmd >/dev/null || skip "trace-cmd not installed"
"$SCHEDLAB" -h 2>&1 | grep -q record || skip "schedlab has no record command linked in"
state() { cat $TR/tracing_on $TR/set_event $TR/buffer_size_kb; ls $TR/instances; }
state >"$T/before"

"$SCHEDLAB" record -o "$T/a.dat" -- sleep 0.2 >"$T/out" 2>"$T/err" || { cat "$T/err"; fail "record sleep"; }
cat "$T/out"
said=$(sed -n 's/^recorded \([0-9]*\) events.*/\1/p' "$T/out")
[ -n "$said" ] && [ "$said" -gt 0 ] || fail "no 'recorded N events' line"
got=$(trace-cmd report "$T/a.dat" 2>/dev/null | grep -c ' sched_')
expect_eq "$got" "$said" "trace-cmd report event count vs schedlab record's"
ours=$("$B/tools/evdump" -r tracedat -c "$T/a.dat" | awk '{ s += $2 } END { print s }')
expect_eq "$ours" "$said" "our reader's event count"
trace-cmd report "$T/a.dat" 2>/dev/null | grep -q 'sched_process_exec: .*filename=[^ ]*sleep' ||
	fail "no exec of sleep recorded"

"$SCHEDLAB" record -o "$T/b.dat" --duration 5s -- sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done' \
	>"$T/out2" 2>&1 || { cat "$T/out2"; fail "record busy loop"; }
grep -q '^recorded' "$T/out2" || fail "no summary for the busy loop"

TRACEDAT_FILES="$T/a.dat $T/b.dat" sh "$TOP/tests/e2e/200-tracedat-peer.sh" || fail "peer agreement on recorded files"

state >"$T/after"
diff "$T/before" "$T/after" || fail "tracing state changed"

# Ctrl-C (SIGINT) ends a recording cleanly: exit 0, a readable file, the
# instance removed
"$SCHEDLAB" record -o "$T/i.dat" --duration 60s >"$T/outi" 2>&1 &
pid=$!
sleep 1
kill -INT $pid
wait $pid || { cat "$T/outi"; fail "record after SIGINT: exit $?"; }
grep -q '^recorded [0-9]* events' "$T/outi" || fail "no summary after SIGINT"
trace-cmd report "$T/i.dat" >/dev/null 2>&1 || fail "trace-cmd cannot read the interrupted recording"
state >"$T/after1"
diff "$T/before" "$T/after1" || fail "tracing state changed after SIGINT"

# a missing command is a clear error, and still leaves nothing behind
if "$SCHEDLAB" record -o "$T/c.dat" -- /nonexistent/cmd >"$T/out3" 2>&1; then fail "missing command accepted"; fi
grep -q "schedlab: error: cannot run /nonexistent/cmd" "$T/out3" || { cat "$T/out3"; fail "error message"; }
state >"$T/after2"
diff "$T/before" "$T/after2" || fail "tracing state changed after an error"
