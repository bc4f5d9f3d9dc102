#!/bin/sh
# stats_plot.sh: interloper plot's figures checked for real: valid PNG, SVG
# and PDF files of the size asked for, and what gnuplot plotted, from its
# own data files (--keep) and its own view of the ranges (GPVAL_*), against
# values computed here from the records (python3, not interloper's code).
# timeout: 900
# (a hang guard, not a duration goal: 230 s at load 9, beside four busy
# loops with the test at nice 10; at load 15 it passed 300, and was failed
# as timed out)
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

ready() {
	[ -x "$B/libexec/interloper-plot" ] && command -v gnuplot >/dev/null 2>&1
}
why="the statistics programs are not built (run make) or gnuplot is missing (Debian: gnuplot-nox)"

# 2 benchmarks x 2 systems x 3 env sizes x 4 layouts x 3 runs, as a sweep
# labels them; O3 about 2% faster, layout 02 about 3% slower for O3 only.
awk 'BEGIN {
	srand(7)
	kind[0] = "original"; kind[1] = "alphabetical"; kind[2] = "random"; kind[3] = "random"
	for (b = 0; b < 2; b++) for (e = 0; e < 3; e++) for (l = 0; l < 4; l++) for (y = 0; y < 2; y++) for (r = 1; r <= 3; r++) {
		v = (b + 1) * 2e6 * (y ? 0.98 * (l == 2 ? 1.03 : 1) : 1) * (1 + 0.01 * (e - 1) * (l - 1.5)) * (1 + 0.004 * rand())
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"b%d\",\"system\":\"%s\",\"setup\":\"e%d-l0%d\",\"env_add\":\"%d\",\"layout\":\"0%d\",\"layout_kind\":\"%s\",\"rep\":\"%d\"},", b, y ? "O3" : "O2", 64 * e, l, 64 * e, l, kind[l], r
		printf "\"events\":{\"task-clock\":{\"value\":%d,\"enabled_ns\":1,\"running_ns\":1}},\"times\":{\"wall_ns\":%d,\"user_ns\":1,\"sys_ns\":0},\"setup\":{\"env_bytes\":%d}}\n", v, v, 1000 + 64 * e
	}
}' >"$T/r.jsonl"

# size FILE: "WIDTH HEIGHT" of an image: pixels of a PNG (IHDR), the
# width and height attributes of an SVG, the MediaBox of a PDF (points).
size() {
	python3 - "$1" <<'EOF'
import re, struct, sys
import xml.etree.ElementTree as ET
p = sys.argv[1]
d = open(p, "rb").read()
if p.endswith(".png"):
    assert d[:8] == b"\x89PNG\r\n\x1a\n" and d[12:16] == b"IHDR", "not a PNG"
    print(*struct.unpack(">II", d[16:24]))
elif p.endswith(".svg"):
    root = ET.fromstring(d)
    assert root.tag.endswith("svg"), "not an SVG"
    print(root.get("width"), root.get("height"))
else:
    assert d[:5] == b"%PDF-" and d.rstrip().endswith(b"%%EOF"), "not a PDF"
    m = re.search(rb"MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", d)
    print(round(float(m.group(1))), round(float(m.group(2))))
EOF
}

# gpval DIR: gnuplot's own view of what it plotted from the kept script:
# "ymin ymax datamin datamax" of the y axis.
gpval() {
	(cd "$1" && gnuplot -e "load 'plot.gp'; print GPVAL_Y_MIN, GPVAL_Y_MAX, GPVAL_DATA_Y_MIN, GPVAL_DATA_Y_MAX" 2>&1)
}

args_of() {
	case $1 in
	violin) echo "--by bench --compare system=O2 --setup env_add,layout" ;;
	hist) echo "--by bench --compare system=O2 --setup setup" ;;
	env) echo "--by bench,system --metric task-clock" ;;
	seq) echo "--where bench=b1 --where system=O3" ;;
	esac
}

for kind in violin env hist seq; do
	try "plot $kind: a PNG, an SVG and a PDF of the size asked for"
	if ! ready; then
		skip "$why"
		continue
	fi
	for fmt in png svg pdf; do
		# 3.4 x 2.3 inches (seq 7 x 4.6): PNG at 300 dots an inch, SVG at 72
		# units (rounded), PDF in points (cairo truncates)
		case $kind.$fmt in
		seq.png) want="2100 1380" ;;
		seq.*) want="504 331" ;;
		*.png) want="1020 690" ;;
		*.svg) want="245 166" ;;
		*) want="244 165" ;;
		esac
		# shellcheck disable=SC2046 # the arguments are split on purpose
		sh "$IL" plot "$kind" $(args_of $kind) --quiet-warning all -o "$T/$kind.$fmt" "$T/r.jsonl" \
			>"$T/out" 2>"$T/err"
		assert_eq "$?" 0 "$fmt: exit status ($(cat "$T/err"))"
		assert_eq "$(cat "$T/out")" "$T/$kind.$fmt" "$fmt: prints the image's path"
		assert_eq "$(size "$T/$kind.$fmt" 2>&1)" "$want" "$fmt: a valid file of the default size"
	done
	# gnuplot 5.4 draws a white disc behind each error bar's point (its
	# pointintervalbox), which hid the neighbouring bars and the other
	# series: drawn too small to show
	assert_eq "$(grep "gpPt6.*color='white'" "$T/$kind.svg" | grep -vc 'scale(0[.]00)')" 0 \
		"svg: no white disc behind the error bars' points"
	# shellcheck disable=SC2046
	sh "$IL" plot "$kind" $(args_of $kind) --quiet-warning all --size 7,2.6 -o "$T/w.png" "$T/r.jsonl" >/dev/null 2>&1
	assert_eq "$(size "$T/w.png" 2>&1)" "2100 780" "--size 7,2.6 at 300 dots an inch"
done

try "violin: the density ends where the data end, 1 is off the frame, and the link orders are marked"
if ready; then
	sh "$IL" plot violin --by bench --compare system=O2 --setup env_add,layout --keep "$T/kv" \
		--quiet-warning all -o "$T/v.png" "$T/r.jsonl" >/dev/null 2>&1
	sh "$IL" report --by bench --compare system=O2 --setup env_add,layout --json "$T/r.jsonl" \
		>"$T/v.json" 2>/dev/null
	v=$(python3 - "$T/kv" "$T/v.json" "$T/r.jsonl" <<'EOF'
import json, sys, collections
d, rep, recs = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
blocks = open(d + "/violins.dat").read().strip().split("\n\n\n")
out = []
for i, (b, c) in enumerate(zip(blocks, rep["comparisons"])):
    ys = [float(l.split()[1]) for l in b.split("\n") if l.strip()]
    s = c["setups"]
    out.append(abs(min(ys) - s["min"]) < 1e-9 * s["min"] and abs(max(ys) - s["max"]) < 1e-9 * s["max"])
# the marks: each original/alphabetical cell's ratio of means, from the records
m = collections.defaultdict(list)
for l in open(recs):
    r = json.loads(l)["labels"]
    m[(r["bench"], r["system"], r["env_add"], r["layout"], r["layout_kind"])].append(json.loads(l)["events"]["task-clock"]["value"])
want = sorted((int(b[1]) + 1, k, sum(m[(b, "O3", e, l, k)]) / 3 / (sum(m[(b, "O2", e, l, k)]) / 3))
              for (b, sy, e, l, k) in m if sy == "O2" and k != "random")
got = sorted((int(x.split()[0]), "alphabetical" if x.split()[2] == "1" else "original", float(x.split()[1]))
             for x in open(d + "/marks.dat") if x.strip())
out.append(len(got) == len(want) == 12 and all(a[:2] == b[:2] and abs(a[2] - b[2]) < 1e-9 for a, b in zip(got, want)))
print(out)
EOF
)
	assert_eq "$v" "[True, True, True]" "violin ends at each violin's smallest and largest ratio; + and x at the right ratios"
	g=$(gpval "$T/kv")
	assert_true "gnuplot's y range holds 1 off the frame and the data inside ($g)" python3 -c '
import sys
ymin, ymax, dmin, dmax = map(float, sys.argv[1].split())
span = ymax - ymin
sys.exit(0 if ymin + 0.02 * span < 1 < ymax - 0.02 * span and ymin <= dmin and dmax <= ymax else 1)' "$g"
	assert_true "a key names the median, the quartiles and the link orders" \
		grep -q "title 'median'.*\|title 'quartiles'" "$T/kv/plot.gp"
	assert_eq "$(grep -c "title 'original link order'\|title 'alphabetical link order'" "$T/kv/plot.gp")" 2 \
		"both marks in the key"
	assert_match "$(grep '^set xtics' "$T/kv/plot.gp")" "'b0 \\(n = 12\\)' 1, 'b1 \\(n = 12\\)' 2" "ticks name the benchmarks, not bench=b0, and n"
else
	skip "$why"
fi

try "violin --speedup plots baseline/value and says so"
if ready; then
	sh "$IL" plot violin --where bench=b0 --compare system=O2 --setup env_add,layout --speedup \
		--keep "$T/ks" --quiet-warning all -o "$T/s.png" "$T/r.jsonl" >/dev/null 2>&1
	m=$(sh "$IL" report --where bench=b0 --compare system=O2 --setup env_add,layout --speedup --json \
		"$T/r.jsonl" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["comparisons"][0]["setups"]["median"])')
	assert_true "the median drawn is the report's speedup median ($m)" python3 -c '
import sys
got = float(open(sys.argv[1]).read().split()[1])
sys.exit(0 if abs(got - float(sys.argv[2])) < 1e-9 and got > 1 else 1)' "$T/ks/medians.dat" "$m"
	assert_match "$(grep '^set ylabel' "$T/ks/plot.gp")" "speedup of O3 \\(O2 time / O3 time\\)" "the y label says which way"
	assert_match "$(grep '^set xtics' "$T/ks/plot.gp")" "^set xtics scale 0 \\('O3 \\(n = 12\\)' 1\\)" "one violin, its tick not turned"
else
	skip "$why"
fi

try "violin of 25 benchmarks at the default size: widened, so that labels and dots keep their own columns"
if ready; then
	# outside12 F19: at 3.4 x 2.3 in, 25 labels overprinted each other and
	# each violin had 0.07 in for its setups' dots; 25 benchmarks with
	# names of 8 to 17 characters, 6 setups of 2 runs a side
	awk 'BEGIN { srand(3); for (b = 0; b < 25; b++) for (s = 0; s < 6; s++) for (y = 0; y < 2; y++) for (r = 1; r <= 2; r++)
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bench%02d_%s\",\"system\":\"%s\",\"setup\":\"s%d\",\"rep\":\"%d\"},\"times\":{\"wall_ns\":%d}}\n", b, substr("abcdefghijkl", 1, b % 10), y ? "O3" : "O2", s, r, 1e6 * (1 + b / 10) * (y ? 1.02 : 1) * (1 + 0.01 * rand()) }' >"$T/v25.jsonl"
	sh "$IL" plot violin --by bench --compare system=O2 --setup setup --keep "$T/k25" --quiet-warning all \
		-o "$T/v25.png" "$T/v25.jsonl" >/dev/null 2>&1
	assert_eq "$(size "$T/v25.png" | cut -d' ' -f1)" 3330 "0.6 in and 0.42 in a violin wide (11.1 in at 300 dots an inch)"
	assert_true "taller than the default, for the slanted labels and the y label ($(size "$T/v25.png"))" \
		test "$(size "$T/v25.png" | cut -d' ' -f2)" -gt 690
	assert_eq "$(cat "$T/k25/gnuplot.err")" "" "gnuplot had room for the tick labels (no warning)"
	# gnuplot's own plot area: pixels a violin has
	px=$(cd "$T" && gnuplot -e "load 'k25/plot.gp'; print int((GPVAL_TERM_XMAX - GPVAL_TERM_XMIN) / (GPVAL_X_MAX - GPVAL_X_MIN))" 2>&1 | tail -n 1)
	assert_true "each violin has 0.3 in or more (got $px pixels)" test "${px:-0}" -ge 90
	assert_true "each setup's dot within its own violin's column" python3 -c '
import sys
blocks = [b for b in open(sys.argv[1]).read().split("\n\n\n") if b.strip()]
ok = len(blocks) == 25
for v, b in enumerate(blocks, 1):
    for line in b.strip().split("\n"):
        if not line.startswith("#"):
            ok = ok and abs(float(line.split()[0]) - v) <= 0.3 + 1e-9
sys.exit(0 if ok else 1)' "$T/k25/intervals.dat"
	# 6 violins keep the default width, taller for their slanted labels;
	# short labels that need not slant keep the default size; --size is
	# kept as given
	grep -E '"bench0[0-5]_' "$T/v25.jsonl" >"$T/v6.jsonl"
	sh "$IL" plot violin --by bench --compare system=O2 --setup setup --quiet-warning all \
		-o "$T/v6.png" "$T/v6.jsonl" >/dev/null 2>&1
	assert_eq "$(size "$T/v6.png" | cut -d' ' -f1)" 1020 "6 violins: the default 3.4 in wide"
	assert_true "6 violins of slanted labels: taller ($(size "$T/v6.png"))" test "$(size "$T/v6.png" | cut -d' ' -f2)" -gt 690
	sh "$IL" plot violin --by bench --compare system=O2 --setup env_add,layout --quiet-warning all \
		-o "$T/v2.png" "$T/r.jsonl" >/dev/null 2>&1
	assert_eq "$(size "$T/v2.png")" "1020 690" "2 violins of short labels: the default 3.4 x 2.3 in"
	sh "$IL" plot violin --by bench --compare system=O2 --setup setup --quiet-warning all --size 6,3 \
		-o "$T/v25s.png" "$T/v25.jsonl" >/dev/null 2>&1
	assert_eq "$(size "$T/v25s.png")" "1800 900" "--size as given"
else
	skip "$why"
fi

try "env: one line per system, estimates from the records, whiskers above 0, units in ms"
if ready; then
	sh "$IL" plot env --metric task-clock --where bench=b1 --by system --keep "$T/ke" \
		--quiet-warning all -o "$T/e.pdf" "$T/r.jsonl" >/dev/null 2>&1
	v=$(python3 - "$T/ke/env.dat" "$T/r.jsonl" <<'EOF'
import json, sys, collections
m = collections.defaultdict(list)
for l in open(sys.argv[2]):
    r = json.loads(l)
    if r["labels"]["bench"] == "b1":
        m[(r["labels"]["system"], r["setup"]["env_bytes"])].append(r["events"]["task-clock"]["value"] / 1e6)
blocks = [b for b in open(sys.argv[1]).read().split("\n\n\n") if b.strip()]
ok = len(blocks) == 2
for sysname, b in zip(["O2", "O3"], blocks):
    for l in b.split("\n"):
        if not l.strip() or l.startswith("#"):
            continue
        x, est, lo, hi, n = l.split()[:5]
        xs = m[(sysname, int(x))]
        ok &= abs(float(est) - sum(xs) / len(xs)) < 1e-6 and float(lo) >= 0 and int(n) == len(xs) == 12
print(ok)
EOF
)
	assert_eq "$v" True "the means per size and system"
	assert_match "$(grep '^set ylabel' "$T/ke/plot.gp")" "task-clock \\(ms\\), mean and 95% CI" "SI units"
	assert_match "$(grep '^set key' "$T/ke/plot.gp")" "inside" "the key inside"
	assert_match "$(grep '^set title' "$T/ke/plot.gp")" "task-clock against environment size" "a real title"
	g=$(gpval "$T/ke")
	assert_true "gnuplot's y range holds the data ($g)" python3 -c '
import sys
ymin, ymax, dmin, dmax = map(float, sys.argv[1].split())
sys.exit(0 if ymin <= dmin and dmax < ymax and dmin >= 0 else 1)' "$g"
	one_line() {
		err=$(sh "$IL" plot env --metric task-clock -o "$T/x.png" "$T/r.jsonl" 2>&1 >/dev/null)
		assert_eq "$?" 1 "exit status"
		assert_match "$err" '^interloper plot: env: the selected records mix bench=b0,b1 and system=O2,O3; .*--by bench' "$1"
		assert_true "no image" test ! -e "$T/x.png"
	}
	one_line "systems are never pooled into one line"
	# 300 sizes in no order (past the size table's first 64 places, whole
	# numbers, whose low bits are 0), -0 and 0 one size: ascending, each
	# size's runs counted and averaged, the first run's text for the size
	awk 'BEGIN {
		printf "{\"schema\":\"interloper/1\",\"labels\":{},\"times\":{\"wall_ns\":5,\"user_ns\":1,\"sys_ns\":0},\"setup\":{\"env_bytes\":-0}}\n"
		for (i = 0; i < 900; i++) {
			s = (i * 7919) % 300
			printf "{\"schema\":\"interloper/1\",\"labels\":{},\"times\":{\"wall_ns\":%d,\"user_ns\":1,\"sys_ns\":0},\"setup\":{\"env_bytes\":%d}}\n", 1000 + 10 * s + i % 3, 16 * s
		}
	}' >"$T/many.jsonl"
	sh "$IL" plot env --metric wall --keep "$T/km" --quiet-warning all -o "$T/m.png" "$T/many.jsonl" >/dev/null 2>&1
	v=$(python3 - "$T/km/env.dat" "$T/many.jsonl" <<'EOF'
import json, sys, collections
m = collections.defaultdict(list)
for l in open(sys.argv[2]):
    r = json.loads(l)
    m[r["setup"]["env_bytes"] + 0].append(r["times"]["wall_ns"] / 1e3)
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
ok = [float(r[0]) for r in rows] == sorted(m) and rows[0][0] == "-0" and rows[0][4] == "4"
for r in rows:
    xs = m[float(r[0]) + 0]
    ok &= abs(float(r[1]) - sum(xs) / len(xs)) < 1e-6 and int(r[4]) == len(xs)
print(ok, len(rows))
EOF
)
	assert_eq "$v" "True 300" "300 sizes in order, their means and counts"
	# 141 and 282 runs of a size (past the sort's runs of 16, merged in
	# turn), values repeated: each size's median and p10 (R type 7) as
	# Python sorts them
	awk 'BEGIN {
		srand(11)
		for (i = 0; i < 705; i++) {
			s = i % 5 < 2 ? 0 : 1 + i % 5
			printf "{\"schema\":\"interloper/1\",\"labels\":{},\"times\":{\"wall_ns\":%d,\"user_ns\":1,\"sys_ns\":0},\"setup\":{\"env_bytes\":%d}}\n", 1000 + int(60 * rand()), 64 * s
		}
	}' >"$T/runs.jsonl"
	for e in median p10; do
		sh "$IL" plot env --metric wall --estimator $e --keep "$T/kr-$e" --quiet-warning all -o "$T/r.png" "$T/runs.jsonl" >/dev/null 2>&1
	done
	v=$(python3 - "$T/kr-median/env.dat" "$T/kr-p10/env.dat" "$T/runs.jsonl" <<'EOF'
import json, math, sys, collections
m = collections.defaultdict(list)
for l in open(sys.argv[3]):
    r = json.loads(l)
    m[r["setup"]["env_bytes"]].append(r["times"]["wall_ns"] / 1e3)
def q(xs, p):
    xs = sorted(xs)
    h = (len(xs) - 1) * p
    i = math.floor(h)
    return xs[i] if i + 1 >= len(xs) else xs[i] + (h - i) * (xs[i + 1] - xs[i])
ok = True
for f, p in ((sys.argv[1], 0.5), (sys.argv[2], 0.1)):
    rows = [l.split() for l in open(f) if l.strip() and not l.startswith("#")]
    ok &= [int(r[4]) for r in rows] == [len(m[k]) for k in sorted(m)]
    ok &= all(abs(float(r[1]) - q(m[int(r[0])], p)) < 1e-9 for r in rows)
print(ok, sorted(len(x) for x in m.values()))
EOF
)
	assert_eq "$v" "True [141, 141, 141, 282]" "each size's median and p10, of 141 and 282 runs"
	# label values with escapes (a quote, a backslash before the closing
	# quote): the labels after them are read, and the mix is named
	printf '{"schema":"interloper/1","labels":{"note":"q\\"x\\\\","system":"%s"},"times":{"wall_ns":%s,"user_ns":1,"sys_ns":0},"setup":{"env_bytes":%s}}\n' \
		X 5 10 Y 6 10 X 7 20 Y 8 20 >"$T/esc.jsonl"
	err=$(sh "$IL" plot env -o "$T/x.png" "$T/esc.jsonl" 2>&1 >/dev/null)
	assert_match "$err" '^interloper plot: env: the selected records mix system=X,Y; ' "a label after an escaped value"
	# labels in another order from one record to the next, a key past the
	# 32 bytes kept of each (the label walk keeps the last record's keys),
	# 34 labels (past the 32 places kept): each value under its own name
	python3 - "$T/order.jsonl" <<'EOF'
import json, sys
long = "l" * 40
with open(sys.argv[1], "w") as f:
    for i, (b, z) in enumerate([("x", "p"), ("x", "p"), ("y", "q"), ("y", "q")]):
        lab = {"a": "1", "b": b}
        lab.update({"k%d" % j: "c" for j in range(30)})
        lab[long] = "u" if i < 2 else "v"
        lab["z"] = z
        if i >= 2:
            lab = dict(reversed(list(lab.items())))
        f.write(json.dumps({"schema": "interloper/1", "labels": lab,
                            "times": {"wall_ns": 5 + i, "user_ns": 1, "sys_ns": 0},
                            "setup": {"env_bytes": 10}}, separators=(",", ":")) + "\n")
EOF
	err=$(sh "$IL" plot env -o "$T/x.png" "$T/order.jsonl" 2>&1 >/dev/null)
	assert_match "$err" "mix b=x,y, l{40}=u,v and z=p,q; " "each label's values, in any order of the labels"
	# records of one shape (a template of the reading, tmpl.c): the labels
	# of the first are walked, those after read from its layout, where a
	# value the template does not hold (a late value, null, a number), a
	# label of some shapes only (five shapes, past the four templates
	# kept) and an array value (walked each time) must still be seen; a
	# label that numbers runs (rep, not visited) before the others
	rec() {
		printf '{"schema":"interloper/1","labels":{%s},"times":{"wall_ns":%s,"user_ns":1,"sys_ns":0},"setup":{"env_bytes":%s}}\n' "$1" "$2" "$3"
	}
	i=0
	while [ $i -lt 60 ]; do
		i=$((i + 1))
		rec "\"rep\":\"$i\",\"bench\":\"x\",\"system\":\"A\"" $((100 + i % 7)) $((10 * (i % 3))) >>"$T/same.jsonl"
		rec "\"bench\":\"x\",\"k$((i % 5))\":\"v\",\"rep\":\"$i\"" $((100 + i % 7)) $((10 * (i % 3))) >>"$T/shapes.jsonl"
		rec "\"bench\":\"x\",\"list\":[1,$((1 + i / 60))],\"rep\":\"$i\"" $((100 + i % 7)) $((10 * (i % 3))) >>"$T/arr.jsonl"
	done
	for v in y null 7; do
		j=$v
		[ "$v" = y ] && j='"y"'
		{ cat "$T/same.jsonl"; rec "\"rep\":\"61\",\"bench\":$j,\"system\":\"A\"" 105 10; } >"$T/late-$v.jsonl"
	done
	rec '"bench":"x","list":[1,3],"rep":"61"' 105 10 >>"$T/arr.jsonl"
	out=$(sh "$IL" plot env -o "$T/x.png" --quiet-warning all "$T/same.jsonl" 2>&1)
	assert_eq "$out" "$T/x.png" "one shape, one value each: drawn"
	err=$(sh "$IL" plot env -o "$T/x.png" "$T/late-y.jsonl" 2>&1 >/dev/null)
	assert_match "$err" "mix bench=x,y; " "a value of the 61st record of one shape"
	err=$(sh "$IL" plot env -o "$T/x.png" "$T/late-null.jsonl" 2>&1 >/dev/null)
	assert_match "$err" "mix bench=x,\\(absent\\); " "a null in the 61st record of one shape"
	err=$(sh "$IL" plot env -o "$T/x.png" "$T/late-7.jsonl" 2>&1 >/dev/null)
	assert_match "$err" "mix bench=7,x; " "a number in the 61st record of one shape"
	err=$(sh "$IL" plot env -o "$T/x.png" "$T/shapes.jsonl" 2>&1 >/dev/null)
	assert_match "$err" "mix k1=v,\\(absent\\), k2=v,\\(absent\\), k3=v,\\(absent\\), k4=v,\\(absent\\) and k0=v,\\(absent\\); " "five shapes, each label in one"
	err=$(sh "$IL" plot env -o "$T/x.png" "$T/arr.jsonl" 2>&1 >/dev/null)
	assert_match "$err" "mix list=\\[1,1\\],\\[1,2\\],\\[1,3\\]; " "an array's values"
	# a mean interval reaching below 0 is cut at 0
	for v in 1 2 100; do
		# each its own launch, as interloper sweep labels them: not a series of its own
		printf '{"schema":"interloper/1","labels":{"launch":"n-%s"},"times":{"wall_ns":%s,"user_ns":1,"sys_ns":0},"setup":{"env_bytes":50}}\n' "$v" "$v"
	done >"$T/neg.jsonl"
	sh "$IL" plot env --keep "$T/kn" --quiet-warning all -o "$T/n.png" "$T/neg.jsonl" >/dev/null 2>&1
	assert_eq "$(awk 'NF == 9 { print $3 }' "$T/kn/env.dat")" 0 "the whisker stops at 0"
	# three runs give a p10 no interval: no whisker, and the label promises none
	sh "$IL" plot env --estimator p10 --keep "$T/kq" --quiet-warning all -o "$T/q.png" "$T/neg.jsonl" >/dev/null 2>&1
	assert_eq "$(awk 'NF == 9 { print $3, $4 }' "$T/kq/env.dat")" "nan nan" "no whisker without an interval"
	assert_eq "$(grep -c yerrorbars "$T/kq/plot.gp")" 0 "no error bars drawn"
	assert_match "$(grep '^set ylabel' "$T/kq/plot.gp")" ", p10' " "the label says p10 alone"
else
	skip "$why"
fi

try "hist: --bins, a rug of every value, headroom, no series count in the title"
if ready; then
	sh "$IL" plot hist --where bench=b0 --compare system=O2 --setup setup --bins 5 --keep "$T/kh" \
		--quiet-warning all -o "$T/h.svg" "$T/r.jsonl" >/dev/null 2>&1
	assert_eq "$(grep -c . "$T/kh/hist.dat" | tr -d ' ')" 6 "5 bins and the series' name"
	assert_eq "$(awk 'NF == 3 { s += $2 } END { print s }' "$T/kh/hist.dat")" 12 "counts add up to the 12 setups"
	assert_eq "$(grep -c . "$T/kh/rug.dat" | tr -d ' ')" 12 "a rug tick per setup"
	top=$(sed -n 's/^set yrange \[0:\([0-9.e+]*\)\]/\1/p' "$T/kh/plot.gp")
	maxc=$(awk 'NF == 3 && $2 > m { m = $2 } END { print m }' "$T/kh/hist.dat")
	assert_true "the tallest bar ($maxc) below the top ($top)" python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 1.1 * float(sys.argv[2]) else 1)' "$top" "$maxc"
	# the title line's words only: the script names its data files by path
	assert_eq "$(grep -c '^set title ' "$T/kh/plot.gp"):$(grep '^set title ' "$T/kh/plot.gp" | grep -c series)" 1:0 \
		"one title, without '(1 series)'"
	sh "$IL" plot hist --where bench=b0 --compare system=O2 --setup setup --keep "$T/kd" \
		--quiet-warning all -o "$T/d.png" "$T/r.jsonl" >/dev/null 2>&1
	assert_eq "$(awk 'NF == 3' "$T/kd/hist.dat" | wc -l | tr -d ' ')" 5 "12 setups: Rice's 2 n^(1/3) = 5 bins, not Freedman-Diaconis's fewer"
	err=$(sh "$IL" plot env --bins 4 -o "$T/y.png" "$T/r.jsonl" 2>&1 >/dev/null)
	assert_match "$err" '^interloper plot: --bins is for hist' "--bins elsewhere is an error"
else
	skip "$why"
fi

try "seq: the title names the selection, and the lag plots' ticks are few and short"
if ready; then
	sh "$IL" plot seq --metric task-clock --where bench=b1 --where system=O3 --keep "$T/kq" \
		--quiet-warning all -o "$T/q.png" "$T/r.jsonl" >/dev/null 2>&1
	assert_match "$(grep 'multiplot' "$T/kq/plot.gp")" "'bench=b1 system=O3: task-clock \\(ms\\), 36 runs'" "title"
	# shellcheck disable=SC2016 # awk's own fields
	assert_true "values in ms" awk 'NR == 1 && $2 > 3 && $2 < 5 { ok = 1 } END { exit !ok }' "$T/kq/seq.dat"
else
	skip "$why"
fi

try "-o with another suffix is one line naming the three formats"
if ready; then
	err=$(sh "$IL" plot seq --where bench=b1 --where system=O3 -o "$T/q.jpg" "$T/r.jsonl" 2>&1 >/dev/null)
	assert_eq "$err" "interloper plot: -o $T/q.jpg: expected a file name ending in .png, .svg or .pdf" "message"
	err=$(sh "$IL" plot seq --size 3 -o "$T/q.png" "$T/r.jsonl" 2>&1 >/dev/null)
	assert_match "$err" '^interloper plot: --size 3: expected WIDTH,HEIGHT in inches' "--size without a height"
else
	skip "$why"
fi

done_testing
