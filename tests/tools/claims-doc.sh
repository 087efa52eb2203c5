#!/bin/sh
# tests/tools/claims-doc.sh [--check]: the results of docs/claims.md are
# `schedlab claims --format markdown`, pasted between the markers
#   <!-- begin: schedlab claims --format markdown -->
#   <!-- end: schedlab claims --format markdown -->
# Without --check, rewrite that block from the binary ($SCHEDLAB, default
# ./schedlab; run from the source tree: the bundled traces are in traces/).
# With --check, exit 1 (and show the difference) when the page and the
# binary disagree (e2e 600; `make claims-doc` rewrites it).
set -u
S=${SCHEDLAB:-./schedlab}
DOC=${DOC:-docs/claims.md}
begin='<!-- begin: schedlab claims --format markdown -->'
end='<!-- end: schedlab claims --format markdown -->'
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$S" claims --format markdown > "$tmp/gen" || { echo "claims-doc: schedlab claims failed" >&2; exit 1; }
grep -qxF "$begin" "$DOC" && grep -qxF "$end" "$DOC" || { echo "claims-doc: $DOC has no markers" >&2; exit 1; }
awk -v b="$begin" -v e="$end" '$0 == b { on = 1; next } $0 == e { on = 0 } on' "$DOC" > "$tmp/doc"
if [ "${1:-}" = --check ]; then
	diff -u "$tmp/doc" "$tmp/gen" > "$tmp/diff" && exit 0
	echo "claims-doc: $DOC does not match the binary (make claims-doc rewrites it):" >&2
	head -20 "$tmp/diff" >&2
	exit 1
fi
awk -v b="$begin" -v e="$end" -v gen="$tmp/gen" '
	$0 == b { print; while ((getline l < gen) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip' "$DOC" > "$tmp/new" && cat "$tmp/new" > "$DOC"
