#!/bin/sh
# Lost events, end to end: record a switch-heavy load (4 `yes | head | cat`
# pipelines) into a deliberately small ring buffer (64 KB per CPU). The
# kernel's per-CPU stats give the overrun that `schedlab record` prints per
# CPU ("cpu N: E events, L lost"); our trace.dat reader must deliver lost
# events (from the pages' missed-events marks, or from the file's CPUSTAT
# option) whose counts add up, per CPU, to exactly that number.
. "$(dirname "$0")/lib.sh"
tracefs_setup
[ "$(id -u)" = 0 ] || skip "recording needs root"
[ -w /sys/kernel/tracing/instances ] || skip "no writable tracefs"
"$SCHEDLAB" -h 2>&1 | grep -q record || skip "schedlab has no record command linked in"
cat >"$T/load.sh" <<'LOAD'
i=0; while [ $i -lt 4 ]; do (yes | head -c 20000000 | cat >/dev/null) & i=$((i + 1)); done; wait
LOAD
"$SCHEDLAB" record -o "$T/l.dat" --buffer-kb 64 -- sh "$T/load.sh" >"$T/out" 2>&1 || { cat "$T/out"; fail "record"; }
cat "$T/out"
sed -n 's/^cpu \([0-9]*\): [0-9]* events, \([0-9]*\) lost.*/\1 \2/p' "$T/out" | sort -n >"$T/want"
[ -s "$T/want" ] || fail "no per-CPU lines"
awk '$2 > 0' "$T/want" | grep -q . || skip "nothing was lost this time (machine too fast?)"
"$B/tools/evdump" -r tracedat "$T/l.dat" 2>/dev/null |
	awk '$3 == "lost" { c = substr($2, 5); for (i = 1; i <= NF; i++) if ($i ~ /^count=/) n[c] += substr($i, 7) }
	     END { for (c in n) print c, n[c] }' >"$T/got.raw"
# CPUs with nothing lost print 0 on our side too
awk 'NR == FNR { g[$1] = $2; next } { print $1, ($1 in g) ? g[$1] : 0 }' "$T/got.raw" "$T/want" >"$T/got"
diff "$T/want" "$T/got" || fail "lost events per CPU differ from the kernel's overrun counts"
