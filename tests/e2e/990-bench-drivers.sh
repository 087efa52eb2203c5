#!/bin/sh
# The C drivers of `make bench` (tests/bench/30-engine.sh, 40-o1.sh) still
# compile and link against this tree's library (they broke once when the
# library gained a dependency that their link line lacked). Build only; the
# timings are make bench's. SL_LDLIBS comes from the Makefile.
. "$(dirname "$0")/lib.sh"
[ -f "$B/libschedlab.a" ] || skip "no $B/libschedlab.a"
case "$B" in *san*) skip "the bench drivers link the plain library" ;; esac
for p in 30-engine 40-o1; do
	BENCH_BUILD_ONLY=1 sh "$TOP/tests/bench/$p.sh" > "$T/out" 2>&1 || fail "$p: $(tail -3 "$T/out")"
	grep -q "driver built" "$T/out" || fail "$p: $(tail -3 "$T/out")"
done
echo "bench drivers build"
