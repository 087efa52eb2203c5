#!/bin/sh
# tests/tools/sched-features.sh - the running kernel's scheduler features
# (sched_feat(), kernel/sched/features.h), one "NAME on|off" line each.
#
# /sys/kernel/debug/sched/features prints them where debugfs allows; this
# machine's kernel refuses the read (EPERM), has no kprobes and no
# /proc/kcore. So the list is read from kernel memory with bpftrace: the
# code of sched_feat_show() (its address from /proc/kallsyms) is read and
# disassembled (objdump), which gives the address of sysctl_sched_features
# (the word it tests bit by bit), of sched_feat_names[] and their count;
# then those are read. x86-64 only, root only; it assumes the compiler's
# layout of sched_feat_show as in this machine's 6.18 kernels (a RIP-
# relative load of the word, a table of name pointers indexed by the bit,
# a compare against the count). docs/eevdf.md, "Features of the recording
# kernel".
set -eu
f=$(cat /sys/kernel/debug/sched/features 2> /dev/null || true)
if [ -n "$f" ]; then
	echo "$f" | tr ' ' '\n' | sed '/^$/d; s/^NO_\(.*\)/\1 off/; / off$/!s/$/ on/'
	exit 0
fi
command -v bpftrace > /dev/null || { echo "sched-features.sh: needs bpftrace" >&2; exit 2; }
command -v objdump > /dev/null || { echo "sched-features.sh: needs objdump" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# read N bytes at hex ADDR into a file of hex bytes, one per line
readmem() {
	i=0 prog="BEGIN {"
	while [ "$i" -lt "$2" ]; do
		prog="$prog printf(\"%02x\\n\", *(uint8 *)(0x$1 + $i));"
		i=$((i + 1))
	done
	bpftrace -e "$prog exit(); }" 2> /dev/null | grep -E '^[0-9a-f]{2}$'
}
# a portable awk hex parser (mawk has no strtonum)
HEX='function h(x,  i, n) { n = 0; for (i = 1; i <= length(x); i++) n = n * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1; return n }'
# little-endian 8-byte words of a hex byte list, as hex
words() {
	awk '{ b[NR % 8] = $1 } NR % 8 == 0 { printf "%s%s%s%s%s%s%s%s\n", b[0], b[7], b[6], b[5], b[4], b[3], b[2], b[1] }'
}

show=$(awk '$3 == "sched_feat_show" { print $1 }' /proc/kallsyms)
[ -n "$show" ] || { echo "sched-features.sh: no sched_feat_show in /proc/kallsyms" >&2; exit 2; }
readmem "$show" 96 > "$tmp/code.hex"
# hex to binary: printf with octal escapes (no xxd needed)
awk "$HEX"' { printf "\\%03o", h($1) }' "$tmp/code.hex" > "$tmp/code.oct"
# shellcheck disable=SC2059 # the octal escapes are the format
printf "$(cat "$tmp/code.oct")" > "$tmp/code.bin"
objdump -D -b binary -m i386:x86-64 --adjust-vma=0x"$show" "$tmp/code.bin" > "$tmp/code.s"
word=$(sed -n 's/.*mov .*(%rip),%eax *# 0x\([0-9a-f]*\).*/\1/p' "$tmp/code.s" | head -1)
disp=$(sed -n 's/.*mov *\(-*0x[0-9a-f]*\)(,%rbx,8),%rdx.*/\1/p' "$tmp/code.s" | head -1)
# shellcheck disable=SC2016 # $0x is the immediate's sign in objdump's output
count=$(sed -n 's/.*cmp *$0x\([0-9a-f]*\),%rbx.*/\1/p' "$tmp/code.s" | head -1)
if [ -z "$word" ] || [ -z "$disp" ] || [ -z "$count" ]; then
	echo "sched-features.sh: sched_feat_show is not laid out as expected (x86-64, 6.18)" >&2
	exit 2
fi
# the table's address: the 32-bit displacement sign-extended (kernel
# addresses are in the top 2 GiB, -mcmodel=kernel)
names="ffffffff$(printf '%08x' $((disp & 0xffffffff)))"
n=$((0x$count))
feat=$(readmem "$word" 4 | awk '{ b[NR] = $1 } END { print b[4] b[3] b[2] b[1] }')
readmem "$names" $((8 * n)) | words > "$tmp/ptrs"
i=0
while read -r p; do
	name=$(readmem "$p" 32 | awk "$HEX"' $1 == "00" { exit } { printf "%c", h($1) }')
	if [ $(( (0x$feat >> i) & 1 )) -eq 1 ]; then echo "$name on"; else echo "$name off"; fi
	i=$((i + 1))
done < "$tmp/ptrs"
