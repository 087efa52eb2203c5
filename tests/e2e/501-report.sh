#!/bin/sh
# schedlab report: one page naming every run, its charts embedded as PNG
# data: URIs that decode to the PNG files beside it; hostile comms
# (<script>, quotes, &) only ever appear escaped, in the page, in charts
# and in the JSON export.
. "$TOP/tests/e2e/lib.sh"
command -v gnuplot > /dev/null || skip "gnuplot not installed"
command -v python3 > /dev/null || skip "python3 not installed"
DB="$T/db"
TAB=$(printf '\t')
"$SCHEDLAB" --db "$DB" import "$TOP/traces/local-2cpu-hogs.ftrace.txt" > /dev/null 2>&1 || fail "import"
"$SCHEDLAB" --db "$DB" replay --trace 1 --sched rsdl,o1 > /dev/null 2>&1 || fail "replay"
"$SCHEDLAB" --db "$DB" report -o "$T/rep" > "$T/out" || fail "report"
expect_eq "$(cat "$T/out")" "$T/rep/index.html" "report output"
P="$T/rep/index.html"
for run in 1 2 3; do
	grep -q "<h3 id=\"run$run\">run $run: " "$P" || fail "no section for run $run"
done
grep -q '<h3 id="run4">' "$P" && fail "a run that does not exist"
grep -q 'run 2: rsdl (causal)' "$P" || fail "run title"
# the compare table shows analyze's numbers: p95 of run 2 in us
p95=$("$SCHEDLAB" --db "$DB" analyze --run 2 --format csv > /dev/null && \
	sq "$DB" "SELECT printf('%.1f', value / 1e3) FROM metric WHERE run_id = 2 AND utid IS NULL AND name = 'delay_p95_ns'")
grep "<td class=l>delay p95 (us)</td>" "$P" | grep -q "<td>$p95</td>" || fail "p95 $p95 not in the compare table"
# every chart is embedded, and each embedded image is the PNG file beside it
python3 - "$T/rep" << 'PY' || fail "embedded images"
import base64, os, re, sys
d = sys.argv[1]
page = open(os.path.join(d, "index.html")).read()
imgs = re.findall(r'<img alt="([^"]*)" src="data:image/png;base64,([A-Za-z0-9+/=]*)">', page)
pngs = sorted(f for f in os.listdir(d) if f.endswith(".png"))
# compare latency histogram share staircase timeline timeline-zoom (span 350 ms > 200 ms)
assert len(imgs) == 7 == len(pngs), (len(imgs), pngs)
files = {open(os.path.join(d, f), "rb").read() for f in pngs}
for alt, b in imgs:
    raw = base64.b64decode(b, validate=True)
    assert raw[:8] == b"\x89PNG\r\n\x1a\n", alt
    assert raw in files, alt
assert "src=\"http" not in page and "<script" not in page
# each chart is followed by its caption: what it shows and how to read it
caps = re.findall(r'<img alt="[^"]*" src="data:image/png;base64,[A-Za-z0-9+/=]*">\n<p class=caption>([^<]{80,})</p>', page)
assert len(caps) == len(imgs), (len(caps), len(imgs))
PY
# --trace of a trace that does not exist: one error line
"$SCHEDLAB" --db "$DB" report --trace 7 -o "$T/rep7" 2> "$T/err"; expect_eq $? 1 "missing trace exit"
[ "$(wc -l < "$T/err")" -eq 1 ] || fail "missing trace: not one line"

# hostile comms: two tasks taking turns on CPU 0, woken by each other
H1='<script>x'
H2="a\"b&c'd"
pingpong_trace "$H1" "$H2" 6 > "$T/hostile.txt"
HD="$T/h.db"
"$SCHEDLAB" --db "$HD" import "$T/hostile.txt" > /dev/null 2>&1 || fail "hostile import"
expect_eq "$(sq "$HD" "SELECT comm FROM thread ORDER BY tid" | tr '\n' '|')" "$H1|$H2|" "hostile comms stored as written"
"$SCHEDLAB" --db "$HD" replay --trace 1 --sched rsdl > /dev/null 2>&1 || fail "hostile replay"
"$SCHEDLAB" --db "$HD" report -o "$T/hrep" > /dev/null || fail "hostile report"
HP="$T/hrep/index.html"
grep -q '<script' "$HP" && fail "raw <script in the page"
grep -q 'a"b&c' "$HP" && fail "raw quote/ampersand comm in the page"
grep -q '<td class=l>&lt;script&gt;x</td>' "$HP" || fail "escaped <script>x missing"
grep -q "<td class=l>a&quot;b&amp;c&#39;d</td>" "$HP" || fail "escaped a\"b&c'd missing"
python3 -c "import html.parser,sys; html.parser.HTMLParser().feed(open(sys.argv[1]).read())" "$HP" || fail "page does not parse"
# the gnuplot scripts and data stay well-formed with such names
for kind in share latency histogram compare staircase timeline; do
	"$SCHEDLAB" --db "$HD" plot $kind --trace 1 -o "$T/h-$kind.svg" --keep > /dev/null || fail "hostile plot $kind"
done
grep -q '<script' "$T/h-share.svg" && fail "raw <script in the share SVG"
# labels keep < > & and the apostrophe (gnuplot escapes them in SVG) but
# lose the double quote (a data-file quote)
grep -q "^<script>x 6${TAB}" "$T/h-share.svg.task.dat" || fail "share label of <script>x"
grep -q "^a?b&c'd 7${TAB}" "$T/h-share.svg.task.dat" || fail "share label of a\"b&c'd not cleaned"
python3 -c "import sys, xml.dom.minidom as m; [m.parse(f) for f in sys.argv[1:]]" "$T"/h-*.svg || fail "an SVG is not well-formed"
# the export keeps the comm exactly, JSON-escaped
"$SCHEDLAB" --db "$HD" export --run 1 -o "$T/h.json" > /dev/null || fail "hostile export"
python3 - "$T/h.json" "$H1" "$H2" << 'PY' || fail "hostile export JSON"
import json, sys
d = json.load(open(sys.argv[1]))
names = {e["args"]["name"] for e in d["traceEvents"] if e.get("name") == "thread_name" and e["pid"] != 9000000}
cpus = {e["args"]["name"] for e in d["traceEvents"] if e.get("name") == "thread_name" and e["pid"] == 9000000}
assert cpus == {"CPU 0"}, cpus  # the per-CPU tracks (1 CPU)
assert names == {sys.argv[2], sys.argv[3]}, names
PY
# the claims page is linked when `schedlab claims -o` wrote one beside the
# report (../claims/index.html), and named either way
grep -q 'href="../claims/index.html"' "$P" && fail "a claims link without a claims page"
grep -q "schedlab claims --trace 1" "$P" || fail "the report does not name claims --trace"
mkdir "$T/claims" && echo '<html></html>' > "$T/claims/index.html"
"$SCHEDLAB" --db "$DB" report -o "$T/rep2" > /dev/null || fail "report 2"
grep -q 'href="../claims/index.html"' "$T/rep2/index.html" || fail "no link to the claims page beside the report"
echo ok
