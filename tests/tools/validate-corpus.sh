#!/bin/sh
# tests/tools/validate-corpus.sh [DIR...] - one table for a corpus of
# recordings (issue 22): each trace file of each DIR (default traces/corpus)
# is imported into a database of its own (its ledger, FILE.ledger, with it)
# and validated with `schedlab validate` (the recording kernel's model, its
# defaults: causal, overheads auto, HZ estimated, the median of 15 replays);
# one line per trace gives
# the 9 gating checks (CPU time exact, switches, migrations, span (its
# utilisation the same), delay KS, p50, p95, p99: the error, and '*' where it is past its threshold,
# docs/validate.md) and the verdict, then the pass rate, the summary lines
# and, for each failing trace, its rows of causes (migrations at a wakeup
# and of runnable tasks, wakeups onto a busy and an idle CPU with their
# median delays, recorded/replayed).
# `make validate` runs it; `make bench` too. VALIDATE_OPTS adds options to
# every validate (e.g. VALIDATE_OPTS="--vcpu-pack off", or "--first-seed 15" for
# other draws: docs/validate.md "The pass count's own spread").
set -u
TOP=$(pwd)
SCHEDLAB=${SCHEDLAB:-$TOP/schedlab}
[ $# -gt 0 ] || set -- "$TOP/traces/corpus"
W=$(mktemp -d /tmp/validate-corpus.XXXXXX)
trap 'rm -rf "$W"' EXIT
# with several folders each trace is named folder/file, and each folder
# gets its own pass rate before the total
ndirs=$#
printf '%-34s %7s %9s %9s %8s %6s %8s %8s %8s  %s\n' trace cpu switches migrat. span KS p50 p95 p99 verdict
n=0 pass=0
for dir in "$@"; do
	n0=$n pass0=$pass
	for f in "$dir"/*; do
		case $f in *.ledger|*.md|*.txt.ledger) continue ;; esac
		[ -f "$f" ] || continue
		name=$(basename "$f")
		[ "$ndirs" -gt 1 ] && name="$(basename "$dir")/$name"
		db="$W/$n.db"
		if ! "$SCHEDLAB" -q --db "$db" import "$f" > /dev/null 2> "$W/err"; then
			printf '%-34s import failed: %s\n' "$name" "$(tail -1 "$W/err")"
			n=$((n + 1))
			continue
		fi
		# shellcheck disable=SC2086 # VALIDATE_OPTS: more options, split on purpose
		"$SCHEDLAB" --db "$db" validate --trace 1 --format csv ${VALIDATE_OPTS:-} > "$W/v.csv" 2> "$W/err"
		if ! grep -q ',verdict,' "$W/v.csv"; then
			printf '%-34s validate failed: %s\n' "$name" "$(tail -1 "$W/err")"
			n=$((n + 1))
			continue
		fi
		# the recorded figures' own sampling noise (docs/validate.md
		# "Sampling noise"): the checks whose replay figure is inside it
		inside=$(sqlite3 "$db" "SELECT group_concat(substr(name, 10, length(name) - 15), ' ') FROM metric
			WHERE run_id = (SELECT MAX(id) FROM run) AND name LIKE 'fidelity_%_noise' AND value = 1" 2> /dev/null)
		awk -F, -v name="$name" -v inside=" $inside " '
			function cell(k,   e) {
				if (!(k in err)) return "n/a"
				e = (k == "runtime_exact") ? sprintf("%d/%d", rep[k], rec[k]) :
				    (k == "delay_ks_all") ? sprintf("%.3f", err[k]) : sprintf("%+.1f%%", 100 * err[k])
				return e (ok[k] == "0" ? "*" : "")
			}
			$5 != "metric" { rec[$5] = $6; rep[$5] = $7; err[$5] = $8; ok[$5] = $11; lim[$5] = $9 }
			END {
				printf "%-34s %7s %9s %9s %8s %6s %8s %8s %8s  %s\n", name, cell("runtime_exact"),
				       cell("switches"), cell("migrations"), cell("span"), cell("delay_ks_all"), cell("delay_p50_all"),
				       cell("delay_p95_all"), cell("delay_p99_all"), ok["verdict"] == "1" ? "PASS" : "FAIL"
				# for the summary: the error of each check over its threshold
				split("switches migrations span delay_ks_all delay_p50_all delay_p95_all delay_p99_all", c, " ")
				for (i = 1; i <= 7; i++)
					if (c[i] in err && lim[c[i]] > 0) {
						e = err[c[i]] < 0 ? -err[c[i]] : err[c[i]]
						printf "%d %f %d %d\n", i, e / lim[c[i]], ok[c[i]] == "0",
						       (ok[c[i]] == "0" && index(inside, " " c[i] " ")) ? 1 : 0 >> sumfile
					}
			}' sumfile="$W/sum" "$W/v.csv"
		# the rows of causes (docs/validate.md "Four more held-out corpora,
		# and the rows of causes"), for the failures' table below
		grep -q ',verdict,,,,,1,1$' "$W/v.csv" || awk -F, -v name="$name" '
			{ rec[$5] = $6; rep[$5] = $7 }
			function pair(k, us) { return us ? sprintf("%.1f/%.1f", rec[k] / 1000, rep[k] / 1000) : rec[k] "/" rep[k] }
			END { printf "%-34s %11s %11s %13s %13s %13s %13s\n", name, pair("migrations_wakeup", 0),
				     pair("migrations_runnable", 0), pair("wakeups_busy", 0), pair("delay_p50_busy", 1),
				     pair("wakeups_idle", 0), pair("delay_p50_idle", 1) }' "$W/v.csv" >> "$W/causes"
		grep -q ',verdict,,,,,1,1$' "$W/v.csv" && pass=$((pass + 1))
		n=$((n + 1))
	done
	[ "$ndirs" -gt 1 ] && echo "validate: $((pass - pass0)) of $((n - n0)) traces pass in $(basename "$dir")"
done
echo "validate: $pass of $n traces pass"
# A verdict flips on a small change where an error sits near its threshold
# (docs/validate.md, "The noise of a change"); the errors themselves move
# less: per check, how many are past the threshold and the mean of
# |error| / threshold (each capped at 3, so that one runaway count does not
# hide the rest)
[ -s "$W/sum" ] && awk '
	{ r = $2 > 3 ? 3 : $2; s[$1] += r; n[$1]++; f[$1] += $3; q[$1] += $4 }
	END {
		split("switches migrations span KS p50 p95 p99", name, " ")
		printf "past the threshold:"
		for (i = 1; i <= 7; i++) printf " %s %d", name[i], f[i]
		printf "\nof them inside the recorded figure'"'"'s 95 %% sampling interval:"
		for (i = 1; i <= 7; i++) if (i != 3) printf " %s %d", name[i], q[i]
		printf "\nmean |error| / threshold:"
		for (i = 1; i <= 7; i++) { printf " %s %.2f", name[i], n[i] ? s[i] / n[i] : 0; t += n[i] ? s[i] / n[i] : 0 }
		printf " (sum %.2f)\n", t
	}' "$W/sum"
# where the failures come from: each failing trace's rows of causes,
# recorded/replayed (delays in us)
if [ -s "$W/causes" ]; then
	echo "where the failures come from (recorded/replayed; docs/validate.md, the rows of causes):"
	printf '%-34s %11s %11s %13s %13s %13s %13s\n' trace mig.wake mig.runn. onto.busy p50.busy onto.idle p50.idle
	cat "$W/causes"
fi
