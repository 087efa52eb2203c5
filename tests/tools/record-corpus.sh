#!/bin/sh
# tests/tools/record-corpus.sh - record the validation corpus (issue 22):
# workloads of different kinds on this machine, each run as the child of
# `schedlab record` (on this VM tasks started outside the recorder's session
# can lose their events while the CPUs are saturated), each recording with
# its ledger (FILE.ledger, docs/ledger.md).
#
#   tests/tools/record-corpus.sh [DIR]      (default corpus/; as root, after make)
#   ONLY="audio-200hz rt-mix" tests/tools/record-corpus.sh DIR   (those workloads alone)
#
# Before each recording it waits (up to QUIET_MAX s, default 60) for the 1-minute load to fall
# under 1.0 and prints the load it started at; after it, the share of the kernel's CPU time the
# trace holds when under 98 % (the import's completeness against the ledger). A workload whose tool is not
# installed (rt-tests, sysbench, Xvfb, mesa-utils: make deps installs them)
# is skipped with a line saying so. Then run tests/tools/validate-corpus.sh DIR.
set -u
TOP=$(pwd)
OUT=${1:-$TOP/corpus}
SCHEDLAB=${SCHEDLAB:-$TOP/build/default/schedlab}
TOOLS=${TOOLS:-$TOP/build/default/tools}
for t in mixload massive_intr desktop yieldloop; do
	[ -x "$TOOLS/$t" ] || { echo "record-corpus: $TOOLS/$t missing: make tools first" >&2; exit 2; }
done
[ -x "$SCHEDLAB" ] || { echo "record-corpus: make first" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "record-corpus: needs root (tracefs)" >&2; exit 2; }
mkdir -p "$OUT"
W=$(mktemp -d /tmp/record-corpus.XXXXXX)
trap 'rm -rf "$W"' EXIT
# a small C project for the builds: 24 files of 40 functions
mkproj() {
	mkdir -p "$W/proj"
	for i in $(seq 1 24); do
		{
			for f in $(seq 1 40); do
				echo "static unsigned long f$f(unsigned long x) { unsigned long a = x * $f + $i;" \
				     "for (int k = 0; k < (int)(x % 7) + $f; k++) { a ^= a << 13; a ^= a >> 7; } return a; }"
			done
			echo "unsigned long mod$i(unsigned long x) { unsigned long s = 0;"
			for f in $(seq 1 40); do echo "  s += f$f(x + $f);"; done
			echo "  return s; }"
		} > "$W/proj/m$i.c"
	done
	printf 'OBJ=%s\nall: $(OBJ)\n%%.o: %%.c\n\tcc -O2 -c $< -o $@\nclean:\n\trm -f *.o\n' \
		"$(for i in $(seq 1 24); do printf 'm%d.o ' $i; done)" > "$W/proj/Makefile"
}
mkproj
have() { command -v "$1" > /dev/null 2>&1; }
quiet() { # wait for the machine to calm down
	i=0
	while [ $i -lt "${QUIET_MAX:-60}" ] && awk '{ exit !($1 >= 1.0) }' /proc/loadavg; do sleep 1; i=$((i + 1)); done
}
n=0
rec() { # rec NAME CMD: record CMD (sh -c) into OUT/NAME.dat
	name=$1; shift
	case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	quiet
	echo "== $name (load $(cut -d' ' -f1-3 /proc/loadavg))"
	make -s -C "$W/proj" clean > /dev/null 2>&1
	if "$SCHEDLAB" -q record -o "$OUT/$name.dat" --buffer-kb 32768 -- sh -c "$*" > "$W/log" 2>&1; then
		n=$((n + 1))
		ls -l "$OUT/$name.dat" | awk '{ print "   " $5 " bytes" }'
		# how much of the kernel's CPU time the trace holds (its ledger,
		# docs/ledger.md): a recording that lost events is a poor control
		rm -f "$W/c.db"
		if "$SCHEDLAB" --db "$W/c.db" import "$OUT/$name.dat" > /dev/null 2> "$W/imp"; then
			grep -o 'accounts for [0-9.]* % of the CPU time.*' "$W/imp" | sed 's/^/   /' | head -1
		else
			echo "   import failed: $(tail -1 "$W/imp")"
		fi
	else
		echo "   failed: $(tail -1 "$W/log")"
	fi
}
SPIN='while :; do :; done'
P="$W/proj"
rec build "make -s -C $P -j3"
if have Xvfb && have glxgears; then
	rec graphics-build "Xvfb :77 -screen 0 640x480x24 > /dev/null 2>&1 & X=\$!; sleep 0.5;
		DISPLAY=:77 LIBGL_ALWAYS_SOFTWARE=1 timeout 4 glxgears > /dev/null 2>&1 & make -s -C $P -j3; wait \$!; kill \$X"
	rec idle-desktop "Xvfb :78 -screen 0 640x480x24 > /dev/null 2>&1 & X=\$!; sleep 0.5;
		$TOOLS/desktop keys 3 | $TOOLS/desktop editor > /dev/null; kill \$X"
else
	echo "== graphics-build, idle-desktop: skipped (no Xvfb or glxgears)"
fi
if have hackbench; then
	rec hackbench "hackbench -s 512 -l 200 -g 4 -f 10 > /dev/null"
else
	echo "== hackbench: skipped (no rt-tests)"
fi
if have sysbench; then
	rec yield-loops "sysbench threads --threads=4 --time=2 run > /dev/null"
else
	rec yield-loops "$TOOLS/yieldloop 4 2"
fi
rec pipe-niced-hogs "timeout 3 nice -n 5 sh -c '$SPIN' & timeout 3 nice -n 5 sh -c '$SPIN' &
	perf bench sched pipe -l 60000 > /dev/null; wait"
if have cyclictest; then
	rec cyclictest-hogs "timeout 3 sh -c '$SPIN' & timeout 3 sh -c '$SPIN' &
		cyclictest -q -t 2 -i 1000 -D 2 > /dev/null; wait"
else
	echo "== cyclictest-hogs: skipped (no rt-tests)"
fi
rec frame60-hogs "timeout 3 sh -c '$SPIN' & timeout 3 sh -c '$SPIN' & timeout 3 sh -c '$SPIN' &
	$TOOLS/mixload -d 2500 -b 100000; wait"
rec massive-intr "$TOOLS/massive_intr 10 3 > /dev/null"
rec two-sessions "setsid sh -c 'timeout 3 sh -c \"$SPIN\" & timeout 3 sh -c \"$SPIN\"; wait' &
	setsid nice -n 10 sh -c 'timeout 3 sh -c \"$SPIN\" & timeout 3 sh -c \"$SPIN\"; wait'; wait"
if [ -w /sys/fs/cgroup/cgroup.subtree_control ] || [ -d /sys/fs/cgroup/cpu ]; then
	rec cgroup-weights "sh $TOP/tests/tools/cgroup-hogs.sh 3"
else
	echo "== cgroup-weights: skipped (no writable cgroup cpu controller)"
fi
rec audio-200hz "timeout 3 sh -c '$SPIN' & $TOOLS/mixload -d 2500 -f 200 -r 500 -b 100000; wait"
rec rt-mix "timeout 3 sh -c '$SPIN' & chrt -f 50 $TOOLS/mixload -d 2500 -f 100 -r 1000 -b 100000 &
	chrt -r 20 timeout 2.5 sh -c 'while :; do sleep 0.01; done' & make -s -C $P -j2; wait"
echo "recorded $n workloads into $OUT"
