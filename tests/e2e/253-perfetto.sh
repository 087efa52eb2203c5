#!/bin/sh
# Perfetto protobuf with compact_sched (the shared systing trace, 22 CPUs).
# Expected values were worked out independently of the reader: the event
# counts are those of ../shared/traces/README.md (5,053 sched_switch, 3,678
# sched_waking, 22 CPUs, 1.0 s); the prev_state letters come from a separate
# decode of the compact_sched switch_prev_state arrays (field 2 of
# FtraceEventBundle.compact_sched), whose raw values are
#   0 x2389, 1 x1670, 0x2001 x580, 0x402 x323, 0x200 x55, 2 x33, 0x102 x2, 0x80 x1.
# systing stores the task's raw __state, not the tracepoint's TASK_REPORT
# value (0x2001, 0x402... have several bits), so: 0 and 0x200 (TASK_WAKING)
# are R (2389 + 55 = 2444); 1 and 0x2001 (FREEZABLE|INTERRUPTIBLE) are S
# (1670 + 580 = 2250); 0x402 (TASK_IDLE) is I, and the single-bit 0x80 is
# read as TASK_REPORT's I (323 + 1 = 324); 2 and 0x102 (TASK_KILLABLE) are D
# (33 + 2 = 35). A compact switch has no prev task: it is the task the
# previous switch on that CPU put on, unknown (pid -1) for each CPU's first
# switch, so exactly one switch per CPU has pid -1 (22).
. "$TOP/tests/e2e/lib.sh"
F="$SHARED/traces/systing-perfetto-22cpu/trace.pb"
[ -f "$F" ] || skip "no $F"
PD="$B/tools/perfdump"
"$PD" -r perfetto -c "$F" > "$T/c" || fail "reader failed"
expect_eq "$(awk '$1 == "switch" { print $2 }' "$T/c")" 5053 "switches"
expect_eq "$(awk '$1 == "waking" { print $2 }' "$T/c")" 3678 "wakings"
"$PD" -r perfetto "$F" > "$T/e" || fail "reader failed (events)"
awk '$3 == "switch" { match($0, / state=./); s = substr($0, RSTART + 7, 1); n[s]++ }
	END { printf "D=%d I=%d R=%d S=%d other=%d\n", n["D"], n["I"], n["R"], n["S"],
		5053 - n["D"] - n["I"] - n["R"] - n["S"] }' "$T/e" > "$T/states"
expect_eq "$(cat "$T/states")" "D=35 I=324 R=2444 S=2250 other=0" "prev_state letters"
expect_eq "$(grep -c ' switch cur=[0-9/-]*/[^ ]* ctx=[0-9a-f]* pid=-1 ' "$T/e")" 22 "switches with unknown prev"
"$SCHEDLAB" --db "$T/db" import "$F" > "$T/out" || fail "import"
grep -q "(perfetto)" "$T/out" || fail "not detected as perfetto: $(cat "$T/out")"
grep -q " 22 CPUs, span 1\.0" "$T/out" || fail "summary: $(cat "$T/out")"
# every recorded slice lies inside the trace and no CPU runs two slices at once
sq "$T/db" "SELECT COUNT(*) FROM sched_slice a JOIN sched_slice b ON a.run_id = b.run_id
	AND a.cpu = b.cpu AND a.rowid < b.rowid AND a.ts < b.ts + b.dur AND b.ts < a.ts + a.dur" > "$T/ov"
expect_eq "$(cat "$T/ov")" 0 "overlapping slices on a CPU"
echo "ok: $(cat "$T/states"), $(head -1 "$T/out")"
