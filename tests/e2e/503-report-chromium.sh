#!/bin/sh
# The report renders in a real browser: headless chromium screenshots the
# page; the screenshot is a PNG of the requested size that is not blank
# (measured: a blank 1300x10000 page 57 kB, the report 660 kB: the test
# wants 5 times the blank page), and the embedded charts do render (the
# same page with its <img> lines cut out: 396 kB; the test wants the full
# page 1.3 times heavier). The window is tall enough for the whole page, so
# cutting the images out does not pull more text into view. Skipped when chromium is
# not installed (make deps installs it: it is in DEB_PKGS).
. "$TOP/tests/e2e/lib.sh"
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$CHROME" ] || skip "chromium not installed"
command -v gnuplot > /dev/null || skip "gnuplot not installed"
DB="$T/db"
"$SCHEDLAB" --db "$DB" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1 || fail "import"
"$SCHEDLAB" --db "$DB" replay --trace 1 --sched rsdl,o1 > /dev/null 2>&1 || fail "replay"
"$SCHEDLAB" --db "$DB" report -o "$T/rep" > /dev/null || fail "report"
mkdir "$T/profile"
# an empty page first: what a blank screenshot weighs
echo '<!DOCTYPE html><html><body></body></html>' > "$T/blank.html"
shot() {
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$T/profile" \
		--window-size=1300,10000 --screenshot="$2" "file://$1" > "$T/chrome.log" 2>&1
}
shot "$T/blank.html" "$T/blank.png" || { tail -3 "$T/chrome.log"; skip "chromium cannot take screenshots here"; }
shot "$T/rep/index.html" "$T/shot.png" || { tail -3 "$T/chrome.log"; fail "screenshot of the report"; }
[ "$(head -c 4 "$T/shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] || fail "screenshot is not a PNG"
# PNG IHDR: width and height, big-endian at bytes 16..23
expect_eq "$(od -An -tu1 -j16 -N8 "$T/shot.png" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }')" \
	"1300 10000" "screenshot size"
blank=$(wc -c < "$T/blank.png")
full=$(wc -c < "$T/shot.png")
[ "$full" -gt $((blank * 5)) ] || fail "report screenshot ($full bytes) looks blank (empty page: $blank bytes)"
grep -v '^<img ' "$T/rep/index.html" > "$T/rep/noimg.html"
shot "$T/rep/noimg.html" "$T/noimg.png" || fail "screenshot of the page without images"
noimg=$(wc -c < "$T/noimg.png")
[ $((full * 10)) -gt $((noimg * 13)) ] || fail "the charts do not render: $full bytes with them, $noimg without"
echo "ok: blank $blank bytes, report $full bytes, without its charts $noimg bytes"
