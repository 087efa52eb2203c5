#!/bin/sh
# tests/tools/noise-floor.sh DIR DIR... - how far the kernel is from itself
# (issue 22, docs/validate.md "The noise floor"): each workload recorded in
# two or more of the folders (the same file name, e.g. build.dat from two
# runs of tests/tools/record-corpus.sh) is imported with its ledger, and
# every ordered pair of its recordings is compared by `schedlab validate
# --trace A --against B`: B's recorded run in the replay's place, the same
# gating checks and thresholds, no replay. One line per workload gives,
# for each check, the pairs within its threshold, and the pairs within all
# of them; then the total. A replay is held to these thresholds against
# one recording; this table says how often a second recording of the same
# workload on the same machine meets them. `make bench` runs it over
# traces/corpus and traces/corpus-quiet.
set -u
TOP=$(pwd)
SCHEDLAB=${SCHEDLAB:-$TOP/schedlab}
[ $# -ge 2 ] || { echo "usage: noise-floor.sh DIR DIR..." >&2; exit 2; }
W=$(mktemp -d /tmp/noise-floor.XXXXXX)
trap 'rm -rf "$W"' EXIT
for dir in "$@"; do
	for f in "$dir"/*; do
		case $f in *.ledger | *.md | *.txt) continue ;; esac
		[ -f "$f" ] && basename "$f"
	done
done | sort | uniq -c | awk '$1 >= 2 { print $2 }' >"$W/names"
printf '%-22s %5s %9s %9s %9s %9s %9s %9s %9s %9s\n' workload pairs switches migrat. span KS p50 p95 p99 all
: >"$W/all"
while read -r name; do
	db="$W/db"
	rm -f "$db"
	n=0
	for dir in "$@"; do
		[ -f "$dir/$name" ] || continue
		if ! "$SCHEDLAB" --db "$db" import "$dir/$name" >/dev/null 2>"$W/err"; then
			echo "noise-floor: $dir/$name: $(tail -1 "$W/err")" >&2
			continue
		fi
		n=$((n + 1))
	done
	[ "$n" -ge 2 ] || continue
	: >"$W/rows"
	i=1
	while [ "$i" -le "$n" ]; do
		j=1
		while [ "$j" -le "$n" ]; do
			if [ "$i" -ne "$j" ]; then
				"$SCHEDLAB" --db "$db" validate --trace "$i" --against "$j" --format csv \
					>>"$W/rows" 2>/dev/null
				[ $? -le 1 ] || echo "noise-floor: $name: validate --trace $i --against $j failed" >&2
			fi
			j=$((j + 1))
		done
		i=$((i + 1))
	done
	# csv: trace,run,against,run,metric,recorded,other,error,limit,gating,pass
	awk -F, -v name="${name%.dat}" '
		$5 == "metric" { next }
		$5 == "verdict" { pairs++; all += $11; next }
		$10 == 1 { ok[$5] += $11 }
		END {
			printf "%-22s %5d", name, pairs
			split("switches migrations span delay_ks_all delay_p50_all delay_p95_all delay_p99_all", k, " ")
			for (i = 1; i <= 7; i++) printf " %9s", (ok[k[i]] + 0) "/" pairs
			printf " %9s\n", all "/" pairs
		}' "$W/rows" | tee -a "$W/all"
done <"$W/names"
awk '{ for (i = 3; i <= NF; i++) { split($i, a, "/"); ok[i] += a[1]; n[i] += a[2] } }
	END {
		if (!n[NF]) { print "noise floor: no workload recorded twice"; exit }
		split("switches migrations span KS p50 p95 p99", k, " ")
		printf "noise floor by check (pairs within the threshold):"
		for (i = 3; i < NF; i++) printf " %s %d/%d", k[i - 2], ok[i], n[i]
		printf "\nnoise floor: %d of %d ordered pairs of recordings pass every check (the kernel against itself)\n", ok[NF], n[NF]
	}' "$W/all"
