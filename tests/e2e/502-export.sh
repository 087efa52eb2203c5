#!/bin/sh
# schedlab export: the JSON parses (python3 -m json.tool), has exactly one
# "X" event per sched_slice row with the row's ts (us after the trace's
# first_ts, exact to the ns), dur, cpu, end_state, pid = tgid and tid, and
# names every thread that ran; one "i" event per wakeup row.
. "$TOP/tests/e2e/lib.sh"
command -v python3 > /dev/null || skip "python3 not installed"
DB="$T/db"
TAB=$(printf '\t')
"$SCHEDLAB" --db "$DB" import "$TOP/traces/perf-sched-load-2cpu.perf.data" > /dev/null 2>&1 || fail "import"
"$SCHEDLAB" --db "$DB" replay --trace 1 --sched rsdl,o1 > /dev/null 2>&1 || fail "replay"
for run in 1 2 3; do
	J="$T/run$run.json"
	"$SCHEDLAB" --db "$DB" export --run $run -o "$J" > /dev/null || fail "export run $run"
	python3 -m json.tool "$J" > /dev/null || fail "run $run: not JSON"
	# the rows as SQL has them, and as the JSON has them (ts/dur back to ns
	# exactly: decimals, never floats)
	sqlite3 -batch -noheader -separator "$TAB" "$DB" "SELECT s.ts - tr.first_ts, s.dur, s.cpu, s.end_state,
		CASE WHEN th.tgid > 0 THEN th.tgid ELSE th.tid END, th.tid, th.comm FROM sched_slice s
		JOIN thread th USING (utid) JOIN run r ON r.id = s.run_id JOIN trace tr ON tr.id = r.trace_id
		WHERE s.run_id = $run ORDER BY 1, 3, 6" > "$T/want"
	python3 - "$J" > "$T/got" << 'PY' || fail "run $run: reading the JSON"
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
ev = d["traceEvents"]
named = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("name") == "thread_name"}
rows = []
for e in ev:
    if e["ph"] != "X" or e["cat"] != "sched":
        continue
    assert named[(e["pid"], e["tid"])] == e["name"], e
    ns = lambda v: int(Decimal(v) * 1000)
    rows.append((ns(e["ts"]), ns(e["dur"]), e["args"]["cpu"], e["args"]["end_state"], e["pid"], e["tid"], e["name"]))
for r in sorted(rows, key=lambda r: (r[0], r[2], r[5])):
    print("\t".join(str(x) for x in r))
PY
	n=$(sq "$DB" "SELECT COUNT(*) FROM sched_slice WHERE run_id = $run")
	expect_eq "$(wc -l < "$T/got" | tr -d ' ')" "$n" "run $run: X events"
	cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got" | head; fail "run $run: events differ from sched_slice"; }
done
# wakeups: one instant event per wakeup row, on the woken task's track,
# delay_us = ts_run - ts (null when it never ran)
for run in 1 2; do
	sqlite3 -batch -noheader -separator "$TAB" "$DB" "SELECT w.ts - tr.first_ts, th.tid,
		COALESCE(w.ts_run - w.ts, 'null') FROM wakeup w JOIN thread th USING (utid)
		JOIN run r ON r.id = w.run_id JOIN trace tr ON tr.id = r.trace_id
		WHERE w.run_id = $run ORDER BY 1, 2, 3" > "$T/want"
	python3 - "$T/run$run.json" > "$T/got" << 'PY' || fail "run $run: wakeups in the JSON"
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
ns = lambda v: "null" if v is None else str(int(Decimal(v) * 1000))
rows = [(int(ns(e["ts"])), e["tid"], ns(e["args"]["delay_us"])) for e in d["traceEvents"]
        if e["ph"] == "i" and e["name"] == "wakeup"]
for r in sorted(rows, key=lambda r: (r[0], r[1], r[2])):
    print("\t".join(str(x) for x in r))
PY
	[ -s "$T/want" ] || fail "run $run: no wakeups in SQL"
	cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got" | head; fail "run $run: wakeup events differ from the wakeup table"; }
done
grep -q '"scheduler":"rsdl"' "$T/run2.json" || fail "run 2 scheduler in otherData"
# per-CPU tracks (issue 25): a "CPUs" process (pid 9000000) with a track
# "CPU n" per CPU (tid n + 1) holding every slice of that CPU again (ts,
# dur and the task's tid as in sched_slice); flow arrows: for each wakeup
# whose waker is a thread of the run and that ran, an "s" on the waker's
# track at ts and an "f" (bound to the enclosing slice) on the woken task's
# track at ts_run, with one id
for run in 1 2; do
	sqlite3 -batch -noheader -separator "$TAB" "$DB" "SELECT s.cpu, s.ts - tr.first_ts, s.dur, th.tid FROM sched_slice s
		JOIN thread th USING (utid) JOIN run r ON r.id = s.run_id JOIN trace tr ON tr.id = r.trace_id
		WHERE s.run_id = $run ORDER BY 1, 2, 3, 4" > "$T/want"
	sqlite3 -batch -noheader -separator "$TAB" "$DB" "SELECT w.ts - tr.first_ts, wk.tid, w.ts_run - tr.first_ts, th.tid
		FROM wakeup w JOIN thread th ON th.utid = w.utid JOIN thread wk ON wk.utid = w.waker_utid
		JOIN run r ON r.id = w.run_id JOIN trace tr ON tr.id = r.trace_id
		WHERE w.run_id = $run AND w.ts_run IS NOT NULL AND w.ts_run >= w.ts ORDER BY 1, 2, 3, 4" > "$T/wantf"
	python3 - "$T/run$run.json" "$T/got" "$T/gotf" << 'PY' || fail "run $run: CPU tracks and flows in the JSON"
import json, sys
from decimal import Decimal
d = json.load(open(sys.argv[1]), parse_float=Decimal)
ev = d["traceEvents"]
ns = lambda v: int(Decimal(v) * 1000)
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("name") == "thread_name" and e["pid"] == 9000000}
rows = []
for e in ev:
    if e["ph"] == "X" and e["cat"] == "cpu":
        assert e["pid"] == 9000000 and names[e["tid"]] == "CPU %d" % (e["tid"] - 1), e
        rows.append((e["tid"] - 1, ns(e["ts"]), ns(e["dur"]), e["args"]["tid"]))
with open(sys.argv[2], "w") as f:
    for r in sorted(rows):
        print("\t".join(str(x) for x in r), file=f)
s = {e["id"]: e for e in ev if e["ph"] == "s"}
fl = {e["id"]: e for e in ev if e["ph"] == "f"}
assert set(s) == set(fl) and len(s) == len([e for e in ev if e["ph"] == "s"]), "unpaired or repeated flow ids"
assert all(e["bp"] == "e" for e in fl.values())
with open(sys.argv[3], "w") as f:
    for r in sorted((ns(s[i]["ts"]), s[i]["tid"], ns(fl[i]["ts"]), fl[i]["tid"]) for i in s):
        print("\t".join(str(x) for x in r), file=f)
PY
	cmp -s "$T/got" "$T/want" || { diff "$T/want" "$T/got" | head; fail "run $run: CPU tracks differ from sched_slice"; }
	[ -s "$T/wantf" ] || fail "run $run: no wakeup by a task in SQL"
	cmp -s "$T/gotf" "$T/wantf" || { diff "$T/wantf" "$T/gotf" | head; fail "run $run: flows differ from the wakeup table"; }
	echo "run $run: $(wc -l < "$T/got") CPU-track slices, $(wc -l < "$T/gotf") flow arrows"
done
# several runs in one file (issue 25: --run 1 --run 2 wrote only run 2):
# repeated and comma forms give the same file; run k's events have pids
# (k - 1) * 10000000 + tgid, and each run has as many X and i events as its
# sched_slice and wakeup rows
"$SCHEDLAB" --db "$DB" export --run 1 --run 3 -o "$T/m1.json" > /dev/null || fail "export two runs"
"$SCHEDLAB" --db "$DB" export --run 1,3 -o "$T/m2.json" > /dev/null || fail "export 1,3"
cmp -s "$T/m1.json" "$T/m2.json" || fail "--run 1 --run 3 and --run 1,3 differ"
python3 - "$T/m1.json" > "$T/mgot" << 'PY' || fail "reading the two-run JSON"
import json, sys, collections
d = json.load(open(sys.argv[1]))
c = collections.Counter((e["pid"] // 10000000, e["ph"]) for e in d["traceEvents"]
                        if e["ph"] in "Xi" and e.get("cat") == "sched" and e["name"] != "CPUs")
for k, run in enumerate((1, 3)):
    print(run, c[(k, "X")], c[(k, "i")])
PY
want=$(for r in 1 3; do echo "$r $(sq "$DB" "SELECT count(*) FROM sched_slice WHERE run_id = $r") $(sq "$DB" "SELECT count(*) FROM wakeup WHERE run_id = $r")"; done)
expect_eq "$(cat "$T/mgot")" "$want" "events per run of the two-run file"
"$SCHEDLAB" --db "$DB" export --run 9 -o "$T/x.json" 2> "$T/err"; expect_eq $? 1 "missing run exit"
[ ! -e "$T/x.json" ] || fail "file written for a missing run"
"$SCHEDLAB" --db "$DB" export --run 1 -o "$T/nodir/x.json" 2> "$T/err"; expect_eq $? 1 "bad path exit"
grep -q "^schedlab: error: $T/nodir/x.json: No such file or directory" "$T/err" || fail "bad path message: $(cat "$T/err")"
echo ok
