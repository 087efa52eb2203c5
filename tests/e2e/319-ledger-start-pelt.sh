#!/bin/sh
# The kernel's load tracking at the start (ledger version 5, docs/ledger.md;
# docs/eevdf.md "Load tracking at the start"). `schedlab record` of a short
# busy loop, as root:
#  - the ledger's thread lines have 22 fields; where debugfs sched/debug is
#    readable (the recorder mounts debugfs if need be), a pelt line per CPU in the start snapshot, and the recorder's
#    own thread (its comm "schedlab") has its averages;
#  - the import's start_pelt rows: one per CPU with its root cfs_rq (utid
#    NULL), and the recorder's row equal to its ledger line, its age worked
#    out here in awk from the lines: its CPU's clock_task plus the monotonic
#    time between the debug file's read and the thread's, less the thread's
#    last_update_time (clamped at 0);
#  - validate replays it either way (--opt start_pelt=0: the estimate).
. "$(dirname "$0")/lib.sh"
tracefs_setup
[ "$(id -u)" = 0 ] || skip "recording needs root"
[ -w /sys/kernel/tracing/instances ] || skip "no writable tracefs"
"$SCHEDLAB" -h 2>&1 | grep -q record || skip "schedlab has no record command linked in"
# the recorder's tid: the shell's, which execs it
sh -c 'echo $$ > "$1"; shift; exec "$@"' sh "$T/rpid" "$SCHEDLAB" -q record -o "$T/a.dat" -- \
	sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done' > /dev/null 2> "$T/err" || fail "record: $(cat "$T/err")"
L="$T/a.dat.ledger"
expect_eq "$(head -1 "$L")" "$(printf 'schedlab-ledger\t5')" "the ledger's version"
expect_eq "$(awk -F'\t' '$1 == "thread" && NF != 22' "$L" | wc -l)" 0 "thread lines of 22 fields"
"$SCHEDLAB" -q --db "$T/db" import "$T/a.dat" > /dev/null 2> "$T/err" || fail "import: $(cat "$T/err")"
# the recorder mounts debugfs where only tracefs is (tracefs_debug_dir), so
# where the file is readable now the ledger must have read it
if [ -r /sys/kernel/debug/sched/debug ]; then
	[ -n "$(awk -F'\t' '$1 == "pelt"' "$L")" ] || fail "debugfs sched/debug is readable, the ledger has no pelt line"
	ncpu=$(awk -F'\t' '$1 == "snapshot" { s = $2 } $1 == "cpu" && s == "start"' "$L" | wc -l)
	expect_eq "$(awk -F'\t' '$1 == "snapshot" { s = $2 } $1 == "pelt" && s == "start"' "$L" | wc -l)" "$ncpu" "a pelt line per CPU"
	expect_eq "$(sq "$T/db" "SELECT count(*) FROM start_pelt WHERE utid IS NULL")" "$ncpu" "a start_pelt row per CPU"
	# the recorder (other schedlab processes, of tests run beside this
	# one, are in the trace and the ledger too)
	rtid=$(cat "$T/rpid")
	want=$(awk -F'\t' -v tid="$rtid" '$1 == "snapshot" { s = $2 }
		s == "start" && $1 == "pelt" { ct[$2] = $4; pm[$2] = $3 }
		s == "start" && $1 == "thread" && $2 == tid && $17 != "-" {
			age = ct[$17] + ($15 - pm[$17]) - $22; if (age < 0) age = 0
			printf "%s|%s|%s|%s|%s|%.0f\n", $17, $18, $19, $20, $21, age }' "$L")
	[ -n "$want" ] || fail "the recorder's thread has no load tracking in the ledger"
	got=$(sq "$T/db" "SELECT s.cpu, s.load_avg, s.runnable_avg, s.util_avg, s.util_est, s.age_ns
		FROM start_pelt s JOIN thread t USING (utid) WHERE t.tid = $rtid")
	expect_eq "$got" "$want" "the recorder's start_pelt row"
else
	expect_eq "$(sq "$T/db" "SELECT count(*) FROM start_pelt WHERE utid IS NULL")" 0 "no CPU rows without debugfs"
fi
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 1 > "$T/v1" 2> "$T/err"
[ $? -le 1 ] || fail "validate: $(cat "$T/err")"
"$SCHEDLAB" -q --db "$T/db" validate --trace 1 --seeds 1 --opt start_pelt=0 > "$T/v0" 2> "$T/err"
[ $? -le 1 ] || fail "validate --opt start_pelt=0: $(cat "$T/err")"
grep -q "^model options: .*start_pelt=0" "$T/v0" || fail "start_pelt=0 not in the model options: $(grep '^model' "$T/v0")"
n=$(sq "$T/db" "SELECT count(*) FROM start_pelt WHERE utid IS NOT NULL")
c=$(sq "$T/db" "SELECT count(*) FROM start_pelt WHERE utid IS NULL")
if [ "$c" -gt 0 ]; then
	expect_eq "$(grep '^load tracking at the start' "$T/v1")" \
		"load tracking at the start: the kernel's, from the ledger ($n tasks, $c CPUs; docs/eevdf.md)" "validate's line"
	expect_eq "$(grep '^load tracking at the start' "$T/v0")" \
		"load tracking at the start: estimated (start_pelt=0) ($n tasks, $c CPUs; docs/eevdf.md)" "validate's line, start_pelt=0"
fi
echo "ledger version 5: the start's load tracking in the ledger, start_pelt and validate: ok"
