#!/bin/sh
# tests/tools/record-claims.sh - record the real traces behind the thread's
# desktop claims (docs/claims.md, traces/README.md) with `schedlab record`:
#
#   gene-desktop-1cpu.dat   Gene Heskett's desktop, pinned to CPU 0: Xvfb with
#                           glxgears drawing into it, a typist feeding an
#                           editor that echoes keystrokes, a mail check
#                           (fetchmail, procmail, spamc) every 3 s
#   ed-desktop-2cpu.dat     Ed Tomlinson's: a threaded CPU-hungry program
#                           ("freenet", 4 threads), a parallel compile (gcc
#                           -O2 of replay/*.c and common/*.c, 3 at a time, over
#                           and over), and a mail reader waking every 10 ms
#   massive-intr-200x-1cpu.dat  massive_intr with 200 processes on CPU 0
#
# Usage (root, from the top of the tree, after `make`):
#   sh tests/tools/record-claims.sh [OUTDIR]     (default traces/)
# Needs Xvfb, glxgears and trace-cmd (Debian xvfb, mesa-utils: in the Makefile's DEB_PKGS).
# Every recording holds /tmp/schedlab-tracefs.lock (the tracing state is one
# for the machine).
set -eu
OUT=${1:-traces}
B=${B:-build/default}
SL=${SCHEDLAB:-$B/schedlab}
[ -x "$SL" ] && [ -x "$B/tools/desktop" ] && [ -x "$B/tools/massive_intr" ] ||
	{ echo "record-claims: build first (make schedlab $B/tools/desktop $B/tools/massive_intr)" >&2; exit 1; }
rec() { # rec FILE CMD...: record while CMD runs, then store it as trace.dat
	# v7 with zstd (trace-cmd convert: the same events, ~1/12 of the size)
	f=$1; shift
	flock /tmp/schedlab-tracefs.lock "$SL" record -o "$f.v6" --buffer-kb 16384 -- "$@"
	trace-cmd convert --file-version 7 --compression zstd -i "$f.v6" -o "$f" >/dev/null 2>&1
	rm -f "$f.v6"
}
mkdir -p "$OUT"

# --- Gene Heskett: one CPU, like his 2007 desktop -------------------------
cat > /tmp/record-gene.$$ <<EOF
#!/bin/sh
Xvfb :57 -screen 0 320x240x24 -nolisten tcp >/dev/null 2>&1 &
X=\$!
sleep 1
DISPLAY=:57 LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=softpipe glxgears -geometry 120x120 >/dev/null 2>&1 &
G=\$!
$B/tools/desktop mail 9 3 &
M=\$!
$B/tools/desktop keys 9 | $B/tools/desktop editor >/dev/null
wait \$M
kill \$G \$X 2>/dev/null || true
wait 2>/dev/null || true
EOF
rec "$OUT/gene-desktop-1cpu.dat" taskset -c 0 sh /tmp/record-gene.$$
rm -f /tmp/record-gene.$$

# --- Ed Tomlinson: two CPUs, freenet + emerge compiles + mail reader ------
cat > /tmp/record-ed.$$ <<EOF
#!/bin/sh
$B/tools/desktop threads 4 6 &
T=\$!
$B/tools/desktop reader 6 &
R=\$!
end=\$(( \$(date +%s) + 6 ))
while [ \$(date +%s) -lt \$end ]; do
	ls replay/*.c common/*.c | xargs -P 3 -n 1 gcc -O2 -w -c -o /dev/null
done
wait \$T \$R
EOF
rec "$OUT/ed-desktop-2cpu.dat" sh /tmp/record-ed.$$
rm -f /tmp/record-ed.$$

# --- massive_intr: 200 processes on one CPU (Takeuchi's 2007 report) -------
rec "$OUT/massive-intr-200x-1cpu.dat" taskset -c 0 "$B/tools/massive_intr" 200 4 >/dev/null
ls -l "$OUT"/gene-desktop-1cpu.dat "$OUT"/ed-desktop-2cpu.dat "$OUT"/massive-intr-200x-1cpu.dat
