#!/bin/sh
# `schedlab import` of trace.dat and systrace HTML files: each task's
# runtime in the recorded run (sum of sched_slice.dur, scheduler 'recorded')
# equals the per-CPU switch intervals computed by awk from the peer tool's
# text: `trace-cmd report -N -t` for trace.dat, the ftrace text cut out of
# the HTML with sed/awk for systrace. Idle (pid 0) is left out. Also, as
# root, a recording into a 64 KB buffer under load: trace.lost_events equals
# the overrun `schedlab record` printed (the kernel's per-CPU stats).
. "$(dirname "$0")/lib.sh"
command -v trace-cmd >/dev/null || skip "trace-cmd not installed"
"$SCHEDLAB" -h 2>&1 | grep -q import || skip "schedlab has no import command"

runtime() { FIRST_SIGHT=1 switch_runtime | awk '$1 != 0'; } # ftrace-style text on stdin -> "pid ns" for pid != 0, first sights counted as the recorded run counts them (lib.sh)
db_runtime() { # DB trace-id
	sq "$1" "select t.tid, sum(s.dur) from sched_slice s join thread t on t.utid = s.utid
		join run r on r.id = s.run_id where r.scheduler = 'recorded' and r.trace_id = $2
		and t.tid <> 0 group by t.tid order by t.tid" | tr '|' ' '
}
import() { # FILE -> trace id
	"$SCHEDLAB" --db "$T/db" import "$1" 2>"$T/import.err" | sed -n 's/^trace \([0-9]*\):.*/\1/p'
}

n=0
for f in "$SHARED"/traces/*/trace.dat; do
	[ -f "$f" ] || continue
	id=$(import "$f")
	[ -n "$id" ] || { cat "$T/import.err"; fail "import $f"; }
	# the peer's text (up to 3 tries: once in a CI run trace-cmd printed
	# no switches for a file it reads fine every other time)
	k=0
	while [ $k -lt 3 ]; do
		trace-cmd report -N -t "$f" >"$T/report" 2>"$T/report.err"
		runtime <"$T/report" >"$T/want"
		[ -s "$T/want" ] && break
		echo "trace-cmd report $f: no switches (try $k): $(wc -l <"$T/report") lines, $(head -c 300 "$T/report.err")"
		k=$((k + 1))
	done
	db_runtime "$T/db" "$id" >"$T/got"
	[ -s "$T/want" ] || fail "no switches in $f (trace-cmd report: $(head -c 300 "$T/report.err"))"
	diff "$T/want" "$T/got" >"$T/diff" || { head "$T/diff"; fail "runtimes differ on $f"; }
	echo "ok $f: $(wc -l <"$T/got") tasks agree to the ns"
	n=$((n + 1))
done
[ $n -ge 3 ] || skip "trace.dat files not found under $SHARED"

L="$SHARED/traces/catapult-android-systrace/android_systrace.html"
M="$SHARED/traces/trappy-android-surfaceflinger/trace_surfaceflinger.html"
if [ -f "$L" ] && [ -f "$M" ]; then
	id=$(import "$L") && [ -n "$id" ] || fail "import $L"
	sed -n '/linuxPerfData = "\\$/,/";$/p' "$L" | sed '1d; s/\\n\\$//; s/\\n";$//' | runtime >"$T/want"
	db_runtime "$T/db" "$id" >"$T/got"
	diff "$T/want" "$T/got" >/dev/null || fail "runtimes differ on $L"
	id=$(import "$M") && [ -n "$id" ] || fail "import $M"
	awk '/<script class="trace-data"/ { inb = 1; first = 1; next } /<\/script>/ { inb = 0 }
	     inb && first { first = 0; json = ($0 ~ /^[ \t]*[{[]/) } inb && !json' "$M" | runtime >"$T/want"
	db_runtime "$T/db" "$id" >"$T/got"
	diff "$T/want" "$T/got" >/dev/null || fail "runtimes differ on $M"
	echo "ok systrace legacy and modern"
fi

if [ "$(id -u)" = 0 ] && [ -w /sys/kernel/tracing/instances ]; then
	"$SCHEDLAB" record -o "$T/l.dat" --buffer-kb 64 -- sh -c \
		'i=0; while [ $i -lt 4 ]; do (yes | head -c 20000000 | cat >/dev/null) & i=$((i + 1)); done; wait' \
		>"$T/rec" 2>&1 || { cat "$T/rec"; fail "record"; }
	lost=$(sed -n 's/^recorded [0-9]* events (\([0-9]*\) lost).*/\1/p' "$T/rec")
	id=$(import "$T/l.dat")
	[ -n "$id" ] || { cat "$T/import.err"; fail "import of the recording"; }
	expect_eq "$(sq "$T/db" "select lost_events from trace where id = $id")" "$lost" "trace.lost_events"
	echo "ok lost events: $lost"
fi
