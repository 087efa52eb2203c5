#!/bin/sh
# tests/fuzz/mkcorpus-perf.sh - regenerate the seed corpora of the perf.data
# and perf script fuzz targets from the bundled traces (run from the top
# folder after `make build/default/tools/perf_cut build/default/tools/perf_topipe`). Seeds stay small: cut
# files keep 12 to 60 records and only the tracing-data feature section.
set -eu
C=build/default/tools/perf_cut
D=tests/fuzz/corpus/perfdata
S=tests/fuzz/corpus/perfscript
mkdir -p "$D" "$S"
rm -f "$D"/seed-* "$S"/seed-*

# patch FILE OFFSET OCTAL-ESCAPES: overwrite bytes in place
patch() { printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
u64() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }

$C traces/perf-sched-load-2cpu.perf.data "$D/seed-ok-load" 20 600 t
$C traces/perf-sched-load-2cpu.perf.data "$D/seed-ok-load60" 60 640 t
$C traces/perf-record-sched-all-2cpu.perf.data "$D/seed-ok-all" 20 414 t
$C traces/massive-intr-10x-1cpu.perf.data "$D/seed-ok-intr" 20 100 t
$C traces/perf-sched-load-2cpu.perf.data "$D/seed-ok-comm" 12 0 t    # synthesized COMM/MMAP only
B="$D/seed-ok-load"
doff=$(u64 "$B" 40); dsize=$(u64 "$B" 48); tab=$((doff + dsize)); toff=$(u64 "$B" "$tab")
# truncations: in the header, in the attrs, mid-record, before the feature
# table, inside the tracing data
for cut in 60 300 $((doff + 500)) $((tab - 3)) $((toff + 2000)); do
	head -c "$cut" "$B" > "$D/seed-trunc-$cut"
done
# corruptions
# (these fail on the header: the first 1 KB is enough)
head -c 1024 "$B" > "$D/seed-bad-bigendian"; patch "$D/seed-bad-bigendian" 0 '2ELIFREP'
head -c 1024 "$B" > "$D/seed-bad-pipe"; patch "$D/seed-bad-pipe" 8 '\020\000\000\000\000\000\000\000'
head -c 1024 "$B" > "$D/seed-bad-attrsize"; patch "$D/seed-bad-attrsize" 16 '\377\377\377\377\000\000\000\000'
cp "$B" "$D/seed-bad-datasize"; patch "$D/seed-bad-datasize" 48 '\377\377\377\377\377\000\000\000'
cp "$B" "$D/seed-bad-recsize0"; patch "$D/seed-bad-recsize0" $((doff + 6)) '\000\000'
cp "$B" "$D/seed-bad-tdmagic"; patch "$D/seed-bad-tdmagic" "$toff" 'X'
# pipe mode (perf record -o -), made from the same cut file
build/default/tools/perf_topipe "$B" "$D/seed-ok-pipe"
cp "$B" "$D/seed-bad-nofeat"; patch "$D/seed-bad-nofeat" 72 '\000'

# perf script text
T=traces/perf-sched-load-2cpu.perfscript.txt
sed -n '1,40p' "$T" > "$S/seed-ns"
sed -n '300,340p' "$T" | sed 's/^\( *[^ ].*[^ ]\)  *\([0-9][0-9]*\) \[/\1  \2\/\2 [/' > "$S/seed-pid"
sed -n '100,140p' "$T" | sed 's/\(\.[0-9]\{6\}\)[0-9]\{3\}:/\1:/' > "$S/seed-us"
sed -n '200,230p' "$T" | sed 's/\] /] K    /' > "$S/seed-flags"
cat > "$S/seed-plugin" <<'X'
            perf  9961 [000]  1242.426014535:       sched:sched_waking: migration/0:18 [0] CPU:000
            perf  9961 [000]  1242.426023684:       sched:sched_switch: perf:9961 [120] D ==> migration/0:18 [0]
     migration/0    18 [000]  1242.426054394:       sched:sched_switch: migration/0:18 [0] S ==> swapper/0:0 [120]
X
sed -n '1,20p' "$T" > "$S/seed-cut"; printf '          tick 0  9968 [000]  1242.436354196:       sched:sched_switch: prev_comm=tick 0 prev_pid=99' >> "$S/seed-cut"
cat > "$S/seed-odd" <<'X'
# ========
# captured on    : Thu Dec  3 08:26:00 2026
# ========
#
 a [1] b  12 [001]     1.000001: sched:sched_switch: prev_comm=a [1] b prev_pid=12 prev_prio=120 prev_state=R+ ==> next_comm=x y next_pid=0 next_prio=120
          cc1  9957 [001]     1.000002: cycles: 
	ffffffff81000000 do_syscall_64+0x5 ([kernel.kallsyms])
	    7f0000001234 main+0x10 (/usr/bin/cc1)

          cc1  9957 [001]     1.000001: sched:sched_wakeup: comm=a pid=1 prio=-5 target_cpu=001
          cc1  9957 [001]     1.000003: sched:sched_process_exec: filename=/usr/bin/some-very-long-program-name pid=9957 old_pid=9957
          cc1  9957 [001]     1.000004: sched:sched_process_fork: comm=cc1 pid=9957 child_comm=cc1 child_pid=9999
          cc1  9957 [001]     1.000005: sched:sched_migrate_task: comm=cc1 pid=9957 prio=120 orig_cpu=1 dest_cpu=0
          cc1  9957 [001]     1.000006: sched:sched_process_exit: comm=cc1 pid=9957 prio=120
          cc1  9957 [001]     1.000007: sched:sched_switch: prev_comm=cc1 prev_pid=9957 prev_prio=120 prev_state=X ==> next_comm=swapper/1 next_pid=0 next_prio=120
X
du -sh "$D" "$S"

# Perfetto protobuf (the shared systing trace): cut at packet boundaries
# (15060, 26421), inside a packet (20000), and a patched compact bundle
P=../shared/traces/systing-perfetto-22cpu/trace.pb
F=tests/fuzz/corpus/perfetto
if [ -f "$P" ]; then
	mkdir -p "$F"
	rm -f "$F"/seed-*
	head -c 15060 "$P" > "$F/seed-one-bundle"
	head -c 26421 "$P" > "$F/seed-five-bundles"
	head -c 20000 "$P" > "$F/seed-cut"
	head -c 15060 "$P" > "$F/seed-bad-index"
	patch "$F/seed-bad-index" 13500 '\377\377\377'
	printf '\012\000\012\002\010\001' > "$F/seed-tiny"
	du -sh "$F"
fi
