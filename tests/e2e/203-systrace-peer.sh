#!/bin/sh
# systrace HTML reader on the two real files in ../shared/traces (legacy
# linuxPerfData JS string, 2 CPUs; modern <script class="trace-data"> block
# with a tgid column that may read "(-----)", 8 CPUs). The ftrace text is cut
# out of the HTML here with sed, independently of the reader, and
#  1. the number of sched_switch / sched_wakeup lines in it equals the
#     number of switch / wakeup events the reader delivers;
#  2. each task's runtime (per-CPU switch intervals charged to prev_pid,
#     from the "[CPU]" and "SECONDS.USEC:" columns) computed by awk equals
#     what evdump -t computes from the delivered events, to the ns.
. "$(dirname "$0")/lib.sh"
EV="$B/tools/evdump"
[ -x "$EV" ] || skip "no $EV"
L="$SHARED/traces/catapult-android-systrace/android_systrace.html"
M="$SHARED/traces/trappy-android-surfaceflinger/trace_surfaceflinger.html"
[ -f "$L" ] && [ -f "$M" ] || skip "real systrace files not found under $SHARED"

# legacy: lines after `var linuxPerfData = "\` up to `";`, minus `\n\`
sed -n '/linuxPerfData = "\\$/,/";$/p' "$L" | sed '1d; s/\\n\\$//; s/\\n";$//' >"$T/legacy.txt"
# modern: the trace-data block that is not JSON
awk '/<script class="trace-data"/ { inb = 1; first = 1; next }
     /<\/script>/ { inb = 0 }
     inb && first { first = 0; json = ($0 ~ /^[ \t]*[{[]/) }
     inb && !json' "$M" >"$T/modern.txt"

runtime() { switch_runtime "$1"; } # lib.sh

for pair in "legacy:$L" "modern:$M"; do
	name=${pair%%:*} f=${pair#*:}
	txt="$T/$name.txt"
	sw=$(grep -c ' sched_switch: ' "$txt")
	wk=$(grep -c ' sched_wakeup: ' "$txt")
	[ "$sw" -gt 0 ] || fail "$name: extraction found no switches"
	"$EV" -r systrace -c "$f" >"$T/$name.cnt" 2>"$T/err" || { cat "$T/err"; fail "$name: reader failed"; }
	expect_eq "$(awk '$1 == "switch" { print $2 }' "$T/$name.cnt")" "$sw" "$name switches"
	expect_eq "$(awk '$1 == "wakeup" { print $2 }' "$T/$name.cnt")" "$wk" "$name wakeups"
	runtime "$txt" >"$T/$name.want"
	"$EV" -r systrace -t "$f" | sort -n >"$T/$name.got"
	diff "$T/$name.want" "$T/$name.got" >"$T/diff" || { head "$T/diff"; fail "$name: runtimes differ"; }
	echo "ok $name: $sw switches, $wk wakeups, $(wc -l <"$T/$name.got") tasks"
done
grep -q '(-----)' "$T/modern.txt" || fail "modern file has no (-----) tgid column (test premise)"
