#!/bin/sh
# make bench: speed as ratios against peer tools on the same input, in one
# run. Each tests/bench/NN-*.sh part prints its own lines "name: ratio ...".
export LC_ALL=C TZ=UTC
export SCHEDLAB="$(pwd)/schedlab" TOP="$(pwd)" B="$(pwd)/${B:-build/default}"
export SHARED="${SHARED:-$(cd .. && pwd)/shared}"
rc=0
for p in tests/bench/[0-9]*.sh; do
	[ -f "$p" ] || continue
	echo "== $p"
	sh "$p" || { echo "bench part $p failed"; rc=1; }
done
exit $rc
