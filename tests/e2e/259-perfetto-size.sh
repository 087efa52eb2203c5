#!/bin/sh
# A long Perfetto trace streams. tests/tools/pf_repeat writes the shared
# systing trace 300 times, copy k shifted by k x 1.1 s (a rewriter of its
# own: it knows nothing of the reader): 82 MB, 300 x (5053 switches + 3678
# wakings) = 1 515 900 switches and 1 103 400 wakings, 22 CPUs, a span of
# 299 x 1.1 s + 1.001953 s = 329.901953 s.
#  1. the reader delivers exactly those counts, in time order (perfdump
#     exits 1 on an event earlier than the one before);
#  2. its peak RSS stays under 60 MB, below the file's size (measured 27 MB;
#     the reader used to sort all events in memory: 491 MB); not checked
#     under the sanitizers, whose shadow memory counts in RSS;
#  3. the import gives 2 619 600 events on 22 CPUs over 329.901953 s.
. "$(dirname "$0")/lib.sh"
F="$SHARED/traces/systing-perfetto-22cpu/trace.pb"
[ -f "$F" ] || skip "no $F"
[ -x "$B/tools/pf_repeat" ] || skip "no $B/tools/pf_repeat"
"$B/tools/pf_repeat" "$F" 300 1100000000 "$T/big.pb" || fail "pf_repeat"
"$B/tools/perfdump" -r perfetto -c "$T/big.pb" > "$T/c" 2> "$T/err" || fail "reader: $(cat "$T/err")"
expect_eq "$(awk '$1 == "switch" { print $2 }' "$T/c")" 1515900 "switches"
expect_eq "$(awk '$1 == "waking" { print $2 }' "$T/c")" 1103400 "wakings"
case "$B" in
*san*) ;;
*)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$T/rss" "$B/tools/perfdump" -r perfetto -c "$T/big.pb" > /dev/null 2>&1 ||
			fail "reader (timed)"
		rss=$(tail -1 "$T/rss")
		[ "$rss" -lt 61440 ] || fail "reader peak RSS $rss KB on a $(wc -c < "$T/big.pb")-byte file (limit 60 MB)"
	fi
	;;
esac
"$SCHEDLAB" -q --db "$T/db" import "$T/big.pb" > "$T/out" 2> "$T/err" || fail "import: $(cat "$T/err")"
grep -q "2619600 events, 22 CPUs, span 329.901953 s" "$T/out" || fail "import: $(cat "$T/out")"
echo "300 x systing: $(awk '$1 == "switch" { print $2 }' "$T/c") switches in order${rss:+, reader peak RSS $((rss / 1024)) MB}"
