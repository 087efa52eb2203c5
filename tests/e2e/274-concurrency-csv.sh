#!/bin/sh
# Issue 24, item 6:
# 1. Concurrent writers wait for each other. An import or a replay is one
#    write transaction (BEGIN IMMEDIATE); another command waits for it (busy
#    timeout 10 minutes, analyze/store.c SL_BUSY_MS) instead of failing with
#    "database is locked" after 5 s as before. Here the sqlite3 shell holds
#    the write lock for 7 s while three imports start: all three succeed,
#    after the lock is let go.
# 2. CSV that a spreadsheet would run: a comm "=cmd|' /C calc'!A0" (the
#    audit's) and "-bash" come out of `analyze --format csv` quoted with a
#    leading apostrophe; the JSON keeps them exactly.
. "$(dirname "$0")/lib.sh"
DB="$T/c.db"
"$SCHEDLAB" -q --db "$DB" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1 || fail "first import"
sqlite3 "$DB" "BEGIN IMMEDIATE" "UPDATE trace SET events = events" ".shell sleep 7" "COMMIT" &
lock=$!
sleep 1
t0=$(date +%s)
"$SCHEDLAB" -q --db "$DB" import "$TOP/traces/ed-desktop-2cpu.dat" > /dev/null 2> "$T/e1" & p1=$!
"$SCHEDLAB" -q --db "$DB" import "$TOP/traces/perf-sched-load-2cpu.perf.data" > /dev/null 2> "$T/e2" & p2=$!
"$SCHEDLAB" -q --db "$DB" import "$TOP/traces/rec-sleep.dat" > /dev/null 2> "$T/e3" & p3=$!
wait $p1 || fail "import 1 beside a writer: $(cat "$T/e1")"
wait $p2 || fail "import 2 beside a writer: $(cat "$T/e2")"
wait $p3 || fail "import 3 beside a writer: $(cat "$T/e3")"
wait $lock
t1=$(date +%s)
[ $((t1 - t0)) -ge 5 ] || fail "the imports did not wait for the writer ($((t1 - t0)) s)"
expect_eq "$(sq "$DB" "SELECT COUNT(*) FROM trace")" 4 "traces after the concurrent imports"
expect_eq "$(sq "$DB" "SELECT COUNT(*) FROM run WHERE scheduler = 'recorded'")" 4 "recorded runs"

H1="=cmd|' /C calc'!A0"
H2="-bash"
pingpong_trace "$H1" "$H2" 4 > "$T/csv.txt"
"$SCHEDLAB" -q --db "$T/x.db" import "$T/csv.txt" > /dev/null 2>&1 || fail "csv trace import"
"$SCHEDLAB" --db "$T/x.db" analyze --run 1 --format csv > "$T/out.csv" || fail "analyze csv"
grep -q "^1,recorded,1,6,\"'=cmd|' /C calc'!A0\",0," "$T/out.csv" || fail "formula comm not neutralised: $(cat "$T/out.csv")"
grep -q "^1,recorded,2,7,\"'-bash\",0," "$T/out.csv" || fail "-bash not neutralised"
# no field of the file starts a formula
python3 - "$T/out.csv" << 'PY' || fail "a CSV field starts a formula"
import csv, sys
for row in csv.reader(open(sys.argv[1])):
    for f in row:
        if f[:1] in "=+-@\t\r":
            float(f)  # only numbers may start so
PY
"$SCHEDLAB" --db "$T/x.db" analyze --run 1 --format json > "$T/out.json" || fail "analyze json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); s=str(d); assert sys.argv[2] in s and sys.argv[3] in s" \
	"$T/out.json" "$H1" "$H2" || fail "JSON lost the comms"
echo "concurrency: 3 imports waited for a 7 s writer; CSV: formula comms neutralised"
