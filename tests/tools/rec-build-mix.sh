#!/bin/sh
# tests/tools/rec-build-mix.sh - record traces/rec-build-mix.dat: a parallel
# build (make -j4 of a generated 16-file C project, -O2) beside a 60 Hz
# periodic task (2 ms of CPU a frame) and bursts (3 threads spinning 5 ms
# every 250 ms) from tests/tools/mixload, recorded with `schedlab record`
# (root; the machine's tracing state is shared, so under the tracefs lock).
#
#   tests/tools/rec-build-mix.sh [OUT]      (default traces/rec-build-mix.dat)
#
# Run from the top of the repository after `make` (it needs ./schedlab and
# build/default/tools/mixload). The build starts 200 ms after mixload, which
# is stopped (SIGTERM) 300 ms after the build ends.
set -eu
TOP=$(pwd)
OUT=${1:-$TOP/traces/rec-build-mix.dat}
SCHEDLAB=${SCHEDLAB:-$TOP/build/default/schedlab}
MIX=${MIX:-$TOP/build/default/tools/mixload}
NFILES=${NFILES:-16}	# files in the project (16: rec-build-mix*.dat; 48: rec-build-quiet.dat)
[ -x "$SCHEDLAB" ] && [ -x "$MIX" ] || { echo "rec-build-mix: build schedlab and $MIX first (make)" >&2; exit 2; }
W=$(mktemp -d /tmp/rec-build-mix.XXXXXX)
trap 'rm -rf "$W"' EXIT
# the project: 16 files of 40 small functions each (0.15 s of cc1 a file)
for i in $(seq 1 "$NFILES"); do
	{
		echo "unsigned long mod$i(unsigned long x);"
		for f in $(seq 1 40); do
			echo "static unsigned long f$f(unsigned long x) { unsigned long a = x * $f + $i;" \
			     "for (int k = 0; k < (int)(x % 7) + $f; k++) { a ^= a << 13; a ^= a >> 7;" \
			     "a += k * $((f * 3 + 1)); if (a % 5 == 0) a /= 3; } return a; }"
		done
		echo "unsigned long mod$i(unsigned long x) { unsigned long s = 0;"
		for f in $(seq 1 40); do echo "  s += f$f(x + $f);"; done
		echo "  return s; }"
	} > "$W/m$i.c"
done
{
	for i in $(seq 1 "$NFILES"); do echo "unsigned long mod$i(unsigned long x);"; done
	echo "int main(void) { unsigned long s = 0;"
	for i in $(seq 1 "$NFILES"); do echo "  s += mod$i($i);"; done
	echo '  return (int)(s & 1); }'
} > "$W/main.c"
OBJS=$(for i in $(seq 0 "$NFILES"); do [ "$i" = 0 ] && echo main.o || echo "m$i.o"; done | tr '\n' ' ')
printf 'prog: %s\n\tcc -o $@ %s\n%%.o: %%.c\n\tcc -O2 -c -o $@ $<\n' "$OBJS" "$OBJS" > "$W/Makefile"
flock /tmp/schedlab-tracefs.lock "$SCHEDLAB" record -o "$OUT" -- \
	sh -c "'$MIX' -d 60000 & m=\$!; sleep 0.2; make -s -j4 -C '$W' >/dev/null; sleep 0.3; kill \$m; wait"
