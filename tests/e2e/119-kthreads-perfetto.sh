#!/bin/sh
# Issue 25 item 4: kernel workers found interactive on the 22-CPU Perfetto
# trace (i915_flip, events_unbound: workqueue workers, named after their
# queue, whose comm no pattern knows). A kernel thread has no mm, so its
# /proc/PID/cmdline is empty (get_mm_cmdline, fs/proc/base.c), and the
# trace's process tree (TracePacket field 2: Process { pid = 1, ppid = 2,
# cmdline = 3 }) has no command line for it; a child of kthreadd (ppid 2)
# is one too. The importer takes that word first, the comm patterns only
# for tasks the tree does not list (docs/model.md "Kernel threads").
# Here the tree is decoded independently (a protobuf wire walker in
# python) and the set of listed tids without a command line must be the
# set the import flags as kernel threads (task_model.flags & 16), among
# the listed tids that ran; and claims --trace finds none of them
# interactive.
. "$TOP/tests/e2e/lib.sh"
F="$SHARED/traces/systing-perfetto-22cpu/trace.pb"
[ -f "$F" ] || skip "no $F"
command -v python3 > /dev/null || skip "python3 not installed"
python3 - "$F" > "$T/tree" << 'PY' || fail "decoding the process tree"
import sys
data = open(sys.argv[1], 'rb').read()
def varint(b, i):
    r = s = 0
    while True:
        c = b[i]; i += 1; r |= (c & 0x7f) << s; s += 7
        if c < 0x80: return r, i
def fields(b):
    i = 0
    while i < len(b):
        k, i = varint(b, i); f, w = k >> 3, k & 7
        if w == 0: v, i = varint(b, i)
        elif w == 1: v = b[i:i + 8]; i += 8
        elif w == 5: v = b[i:i + 4]; i += 4
        elif w == 2:
            n, i = varint(b, i); v = b[i:i + n]; i += n
        else: raise SystemExit("wire type %d" % w)
        yield f, w, v
for f, w, pkt in fields(data):
    if f != 1: continue
    for g, w2, tree in fields(pkt):
        if g != 2: continue
        for h, w3, proc in fields(tree):
            if h != 1: continue
            d = {}
            for k, w4, v in fields(proc): d.setdefault(k, []).append(v)
            pid, ppid = d[1][0], d.get(2, [None])[0]
            cmd = any(len(c) and c[0] for c in d.get(3, []))
            kt = pid == 2 or ppid == 2 or (ppid is None and not cmd)
            print(pid, 1 if kt else 0)
PY
[ "$(wc -l < "$T/tree")" -gt 50 ] || fail "process tree too small: $(wc -l < "$T/tree")"
"$SCHEDLAB" -q --db "$T/db" import "$F" > /dev/null 2>&1 || fail import
sq "$T/db" "CREATE TABLE tree (pid INTEGER, kt INTEGER)"
sort -u "$T/tree" | tr ' ' '|' > "$T/tree.psv"
sqlite3 "$T/db" ".import $T/tree.psv tree" || fail "loading the tree"
# every tid the tree lists: kernel thread in the import iff in the tree
expect_eq "$(sq "$T/db" "SELECT count(*) FROM thread t JOIN task_model m USING (utid) JOIN tree ON tree.pid = t.tid
	WHERE (m.flags & 16 != 0) <> tree.kt")" 0 "tasks whose kernel-thread flag differs from the tree"
n=$(sq "$T/db" "SELECT count(*) FROM thread t JOIN tree ON tree.pid = t.tid WHERE tree.kt = 1")
[ "$n" -ge 50 ] || fail "only $n kernel threads of the tree ran"
# the workers named after their queue, which no comm pattern knows
for c in i915_flip events_unbound events mm_percpu_wq i915_cleanup; do
	expect_eq "$(sq "$T/db" "SELECT min(m.flags & 16) FROM thread t JOIN task_model m USING (utid) WHERE t.comm = '$c'")" 16 \
		"$c a kernel thread"
done
# systing's own threads (events_1, with a command line) are user tasks
expect_eq "$(sq "$T/db" "SELECT m.flags & 16 FROM thread t JOIN task_model m USING (utid) WHERE t.comm = 'events_1'")" 0 \
	"events_1 (systing's) a user task"
# claims --trace finds interactive tasks by behaviour: no kernel thread
"$SCHEDLAB" --db "$T/db" claims --trace 1 --format csv > "$T/c.csv" 2> "$T/err" || fail "claims --trace 1: $(cat "$T/err")"
sqlite3 "$T/c.db" ".import --csv $T/c.csv c" || fail "claims CSV"
found=$(sq "$T/c.db" "SELECT reason FROM c WHERE id = '10' AND model = 'rsdl'")
for c in i915_flip events_unbound kworker; do
	case "$found" in *"$c"*) fail "kernel thread $c found interactive: $found" ;; esac
done
echo "ok: $n kernel threads from the process tree; claim 10: $(echo "$found" | cut -c1-120)"
# The Android systrace has no process tree, tgid or fork: the names
# decide. Its kernel threads by name (the trace's sched_switch comms; the
# drivers' kthread_create() names, collector/kthread.c): the cpufreq
# governor's kinteractiveup and kinteractive_lo, sync_supers, the Wi-Fi
# driver's dhd_dpc and dhd_watchdog; claims --trace finds none of them
# interactive (kinteractive_lo was).
A="$SHARED/traces/catapult-android-systrace/android_systrace.html"
[ -f "$A" ] || exit 0
"$SCHEDLAB" -q --db "$T/a.db" import "$A" > /dev/null 2>&1 || fail "import $A"
expect_eq "$(sq "$T/a.db" "SELECT group_concat(t.comm || '=' || (m.flags & 16), ' ') FROM (SELECT * FROM thread ORDER BY tid) t
	JOIN task_model m USING (utid) WHERE t.comm IN ('kinteractiveup', 'kinteractive_lo', 'sync_supers', 'dhd_dpc', 'dhd_watchdog')")" \
	"sync_supers=16 kinteractiveup=16 kinteractive_lo=16 dhd_watchdog=16 dhd_dpc=16" "Android kernel threads by name"
"$SCHEDLAB" --db "$T/a.db" claims --trace 1 --format csv > "$T/a.csv" 2> "$T/err" || fail "claims --trace (Android): $(cat "$T/err")"
sqlite3 "$T/a.db" ".import --csv $T/a.csv ac" || fail "claims CSV (Android)"
found=$(sq "$T/a.db" "SELECT reason FROM ac WHERE id = '10' AND model = 'rsdl'")
case "$found" in *kinteractive*|*kworker*|*dhd_*) fail "Android kernel thread found interactive: $found" ;; esac
echo "ok: Android: $(echo "$found" | sed 's/.*: //' | cut -c1-100)"
