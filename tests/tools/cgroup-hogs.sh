#!/bin/sh
# tests/tools/cgroup-hogs.sh [SECONDS] - two cpu cgroups of different weight
# (schedlab-hi: weight 300, schedlab-lo: weight 100; cgroup v2 cpu.weight, or
# v1 cpu.shares 3072 and 1024), two CPU hogs in each for SECONDS (default 3),
# then the groups are removed. For tests/tools/record-corpus.sh (as root).
set -u
S=${1:-3}
if [ -f /sys/fs/cgroup/cgroup.subtree_control ]; then
	R=/sys/fs/cgroup; W=cpu.weight; HI=300; LO=100
	echo +cpu > "$R/cgroup.subtree_control" 2> /dev/null
else
	R=/sys/fs/cgroup/cpu; W=cpu.shares; HI=3072; LO=1024
fi
mkdir -p "$R/schedlab-hi" "$R/schedlab-lo" || exit 1
echo $HI > "$R/schedlab-hi/$W"
echo $LO > "$R/schedlab-lo/$W"
for g in hi hi lo lo; do
	sh -c "echo \$\$ > $R/schedlab-$g/cgroup.procs; exec timeout $S sh -c 'while :; do :; done'" &
done
wait
rmdir "$R/schedlab-hi" "$R/schedlab-lo" 2> /dev/null
exit 0
