#!/bin/sh
# plot_figures.sh: what the demo's figures must show (issue 13, section 5),
# checked in the gnuplot script and data that interloper plot writes and
# gnuplot renders (--keep), against interloper report's numbers for the
# same records and values computed here:
#   env --setup: each line's noise band around the report's median size,
#     the sizes that stand out ringed and named, and no others;
#   env --by pin: the key names the factor, the title the selection;
#   violin: n under each violin, each setup's ratio with its interval,
#     the marks on their setups, the axis saying which way the speedup goes.
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

ready() {
	[ -x "$B/libexec/interloper-plot" ] && command -v gnuplot >/dev/null 2>&1 &&
		command -v python3 >/dev/null 2>&1
}
why="the statistics programs are not built (run make), or gnuplot or python3 is missing (make deps installs them)"

# One kernel, 20 environment sizes (pads 0 to 304 in 16-byte steps), 10
# passes (rep) drifting 2% each, 0.5% noise; pad 112 30% slower unpinned
# (an alignment effect); pinned, no size differs.  The drift is what the
# report's test takes out (it judges runs relative to their pass): a band
# around the median alone would leave sizes outside it that do not stand
# out, noise looking like spikes.
awk 'BEGIN {
	srand(11)
	for (r = 1; r <= 10; r++) for (pin = 0; pin < 2; pin++) for (i = 0; i < 20; i++) {
		v = 1e6 * (1 + 0.02 * r) * (1 + 0.005 * rand()) * (i == 7 && !pin ? 1.3 : 1)
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"O0\",\"pin\":\"%s\",\"env_add\":\"%d\",\"rep\":\"%d\"},", pin ? "on" : "off", 16 * i, r
		printf "\"events\":{\"task-clock\":{\"value\":%d,\"enabled_ns\":1,\"running_ns\":1}},\"times\":{\"wall_ns\":%d,\"user_ns\":1,\"sys_ns\":0},\"setup\":{\"env_bytes\":%d}}\n", v, v, 400 + 16 * i
	}
}' >"$T/env.jsonl"
E="--metric task-clock --estimator p10 --quiet-warning all"

try "env --setup: a noise band from the report's test; outside it exactly the sizes the report says stand out, ringed and named"
if ! ready; then
	skip "$why"
else
	# shellcheck disable=SC2086 # E holds options
	sh "$IL" plot env $E --where pin=off --setup env_add --keep "$T/k1" -o "$T/e1.png" "$T/env.jsonl" \
		>/dev/null 2>"$T/err"
	assert_eq "$?" 0 "exit status ($(cat "$T/err"))"
	assert_true "a PNG from gnuplot" test -s "$T/e1.png"
	# shellcheck disable=SC2086
	sh "$IL" report $E --where pin=off --setup env_add --json "$T/env.jsonl" >"$T/r1.json" 2>/dev/null
	v=$(python3 - "$T/k1/env.dat" "$T/r1.json" <<'EOF'
import json, math, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
se = json.load(open(sys.argv[2]))["groups"][0]["setup_effect"]
out = []
# 20 sizes, each row: size est lo hi n band_lo band_hi out "env_add=N"
out.append(len(rows) == 20 and all(len(r) == 9 for r in rows))
# the estimates are the report's (ms)
est = {p["setup"]: p["estimate"] / 1e6 for p in se["per_setup"]}
out.append(all(abs(float(r[1]) / est[r[8].strip('"')[8:]] - 1) < 1e-9 for r in rows))
# the band: of one width on the log scale (one threshold, 10 runs a size),
# about the report's median size (moved by the levels of the passes)
w = [math.log(float(r[6]) / float(r[5])) for r in rows]
mids = sorted(math.sqrt(float(r[5]) * float(r[6])) for r in rows)
out.append(max(w) - min(w) < 1e-6 * w[0] and w[0] > 0 and abs(mids[10] / (se["center"] / 1e6) - 1) < 0.03)
# outside its band exactly when the report says it stands out: the
# planted size, ringed and named by its setup, and no other
ringed = sorted(r[8].strip('"') for r in rows if r[7] == "1")
outside = sorted(r[8].strip('"') for r in rows if not float(r[5]) <= float(r[1]) <= float(r[6]))
out.append(ringed == outside == sorted("env_add=" + s for s in se["stand_out"]) == ["env_add=112"])
print(out)
EOF
)
	assert_eq "$v" "[True, True, True, True]" "20 rows; the report's estimates; one band width about its center; outside = ringed = the report's stand-outs = the planted size"
	gp=$T/k1/plot.gp
	assert_match "$(grep -c 'using 1:6:7 with filledcurves' "$gp")" "^1$" "the band drawn from the band's columns"
	assert_true "one key entry for the bands" grep -q "keyentry with filledcurves.*title 'noise band (95%)'" "$gp"
	assert_true "the ring in the key" grep -q "using 1:(\$8 == 1 ? \$2 : NaN) with points .*title 'stands out'" "$gp"
	assert_eq "$(grep -c ':9 with labels' "$gp")" 3 "the ringed sizes named (left, centre and right of the frame)"
	assert_match "$(grep '^set ylabel' "$gp")" "'task-clock \\(ms\\), p10'" "p10 of 10 runs has no interval: the label promises none"
	# gnuplot's own view: the band's and the data's extremes inside the y range
	g=$(cd "$T/k1" && gnuplot -e "load 'plot.gp'; print GPVAL_Y_MIN, GPVAL_Y_MAX" 2>&1)
	hi=$(awk 'NF == 9 && ($7 > m || m == "") { m = $7 } NF == 9 && $2 > m { m = $2 } END { print m }' "$T/k1/env.dat")
	assert_true "the y range ($g) holds the band and the ringed point ($hi)" python3 -c '
import sys
lo, top = map(float, sys.argv[1].split()); sys.exit(0 if float(sys.argv[2]) < top else 1)' "$g" "$hi"
fi

try "env without --setup: no band, no ring; --setup must name the size's label"
if ! ready; then
	skip "$why"
else
	# shellcheck disable=SC2086
	sh "$IL" plot env $E --where pin=off --keep "$T/k2" -o "$T/e2.png" "$T/env.jsonl" >/dev/null 2>&1
	assert_eq "$(awk 'NF == 9 { print $6, $7, $8 }' "$T/k2/env.dat" | sort -u)" "nan nan 0" "no band, no stand-out in the data"
	assert_eq "$(grep -c 'filledcurves\|stands out' "$T/k2/plot.gp")" 0 "none drawn"
	# shellcheck disable=SC2086
	err=$(sh "$IL" plot env $E --where pin=off --setup rep -o "$T/e3.png" "$T/env.jsonl" 2>&1 >/dev/null)
	assert_eq "$?" 1 "exit status"
	assert_match "$err" "^interloper plot: env: the runs of environment size 400 are in several setups of --setup rep; expected the label of the size \\(env_add\\)$" "one line naming the label"
	assert_true "no image" test ! -e "$T/e3.png"
fi

try "env --by pin: the key names the factor (stack pinned, not pinned) and the title the selection"
if ! ready; then
	skip "$why"
else
	# shellcheck disable=SC2086
	sh "$IL" plot env $E --where system=O0 --by pin --setup env_add --keep "$T/k4" -o "$T/e4.pdf" \
		"$T/env.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$?" 0 "exit status ($(cat "$T/err"))"
	gp=$T/k4/plot.gp
	assert_true "not pinned in the key" grep -q "title 'not pinned'" "$gp"
	assert_true "stack pinned in the key" grep -q "title 'stack pinned'" "$gp"
	assert_eq "$(grep -c "title 'on'\|title 'off'" "$gp")" 0 "not the bare values"
	assert_match "$(grep '^set title' "$gp")" "^set title 'system=O0: task-clock against environment size'" "a title naming the selection"
	assert_eq "$(grep -c 'using 1:6:7 with filledcurves' "$gp")" 2 "a band for each"
	# the ring: the planted size, not pinned only (the first block)
	assert_eq "$(awk '/^# / { b++ } NF == 9 && $8 == 1 { print b, $9 }' "$T/k4/env.dat")" '1 "env_add=112"' "ringed only where it was planted"
	# --title overrides it, an empty one leaves it out
	# shellcheck disable=SC2086
	sh "$IL" plot env $E --where system=O0 --by pin --title '' --keep "$T/k5" -o "$T/e5.png" "$T/env.jsonl" >/dev/null 2>&1
	assert_eq "$(grep -c '^set title' "$T/k5/plot.gp")" 0 "--title '' leaves it out"
fi

# bzip2 in 8 link orders (00 original, 01 alphabetical) x 2 sizes x 6 runs,
# O3 about 4% slower, order 03 2% faster for O3; page-faults counted too.
awk 'BEGIN {
	srand(5)
	for (l = 0; l < 8; l++) for (e = 0; e < 2; e++) for (y = 0; y < 2; y++) for (r = 1; r <= 6; r++) {
		v = 2e6 * (y ? 1.04 * (l == 3 ? 0.98 : 1) * (1 + 0.004 * l) : 1) * (1 + 0.01 * rand())
		k = l == 0 ? "original" : l == 1 ? "alphabetical" : "random"
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"b0\",\"system\":\"%s\",\"layout\":\"0%d\",\"layout_kind\":\"%s\",\"env_add\":\"%d\",\"rep\":\"%d\"},", y ? "O3" : "O2", l, k, 64 * e, r
		printf "\"events\":{\"task-clock\":{\"value\":%d,\"enabled_ns\":1,\"running_ns\":1},\"page-faults\":{\"value\":%d,\"enabled_ns\":1,\"running_ns\":1}},\"times\":{\"wall_ns\":%d,\"user_ns\":1,\"sys_ns\":0},\"setup\":{\"env_bytes\":%d}}\n", v, 100 + y * 10 + int(3 * rand()), v, 400 + 64 * e
	}
}' >"$T/v.jsonl"
V="--by bench --compare system=O2 --setup layout --quiet-warning all"

try "violin: n under the violin, each setup's ratio and interval (the report's), the marks on their setups"
if ! ready; then
	skip "$why"
else
	# shellcheck disable=SC2086 # V holds options
	sh "$IL" plot violin $V --metric task-clock --speedup --keep "$T/k6" -o "$T/v.png" "$T/v.jsonl" \
		>/dev/null 2>"$T/err"
	assert_eq "$?" 0 "exit status ($(cat "$T/err"))"
	# shellcheck disable=SC2086
	sh "$IL" report $V --metric task-clock --speedup --json "$T/v.jsonl" >"$T/v.json" 2>/dev/null
	v=$(python3 - "$T/k6" "$T/v.json" <<'EOF'
import json, sys
d = sys.argv[1]
ps = json.load(open(sys.argv[2]))["comparisons"][0]["setups"]["per_setup"]
rows = [list(map(float, l.split())) for l in open(d + "/intervals.dat") if l.strip()]
out = [len(rows) == len(ps) == 8]
# the report's ratios and intervals, lowest ratio left, across the violin
want = sorted((p["ratio"], p["ci"][0], p["ci"][1]) for p in ps)
out.append(all(abs(r[1] - w[0]) < 1e-9 * w[0] and abs(r[2] - w[1]) < 1e-9 * w[1] and abs(r[3] - w[2]) < 1e-9 * w[2] and r[2] < r[1] < r[3]
               for r, w in zip(rows, want)))
out.append(rows[0][0] == 0.7 and rows[-1][0] == 1.3 and all(a[0] < b[0] for a, b in zip(rows, rows[1:])))
# each mark at its setup's dot: same ratio, same x
marks = [list(map(float, l.split())) for l in open(d + "/marks.dat") if l.strip()]
out.append(len(marks) == 2 and all(any(abs(m[3] - r[0]) < 1e-9 and m[1] == r[1] for r in rows) for m in marks))
print(out)
EOF
)
	assert_eq "$v" "[True, True, True, True]" "8 setups; the report's ratios and intervals, sorted; spread over the width; the marks on them"
	gp=$T/k6/plot.gp
	assert_match "$(grep '^set xtics' "$gp")" "\\('b0 \\(n = 8\\)' 1\\)" "n under the violin"
	assert_match "$(grep '^set ylabel' "$gp")" "^set ylabel 'speedup of O3 \\(O2 time / O3 time\\)'" "which way the speedup goes"
	assert_true "the intervals drawn" grep -q "intervals.dat' using 1:2:3:4 with yerrorbars" "$gp"
	assert_true "and named in the key" grep -q "title 'each layout''s speedup and 95% CI'" "$gp"
	assert_true "the marks drawn at their setups' x" grep -q "marks.dat' using 4:(\$3 == 0 ? \$2 : NaN)" "$gp"
fi

try "violin: the axis names the metric when it is not time, and the ratio's direction without --speedup"
if ! ready; then
	skip "$why"
else
	# shellcheck disable=SC2086
	sh "$IL" plot violin $V --metric page-faults --speedup --keep "$T/k7" -o "$T/v7.svg" "$T/v.jsonl" >/dev/null 2>&1
	assert_match "$(grep '^set ylabel' "$T/k7/plot.gp")" "^set ylabel 'speedup of O3 \\(O2 page-faults / O3 page-faults\\)'" "a count's name"
	# shellcheck disable=SC2086
	sh "$IL" plot violin $V --metric task-clock --keep "$T/k8" -o "$T/v8.svg" "$T/v.jsonl" >/dev/null 2>&1
	assert_match "$(grep '^set ylabel' "$T/k8/plot.gp")" "^set ylabel 'ratio of O3 \\(O3 time / O2 time\\)'" "value over baseline"
	# p10 of 12 runs a side gives a setup no interval: its dot alone, and the key says so
	# shellcheck disable=SC2086
	sh "$IL" plot violin $V --metric task-clock --estimator p10 --speedup --keep "$T/k9" -o "$T/v9.png" "$T/v.jsonl" >/dev/null 2>&1
	assert_eq "$(awk 'NF == 4 { print $3, $4 }' "$T/k9/intervals.dat" | sort -u)" "nan nan" "no interval"
	assert_eq "$(grep -c 'yerrorbars' "$T/k9/plot.gp")" 0 "no whiskers drawn"
	assert_true "the key promises the spread only" grep -q "title 'each layout''s speedup'," "$T/k9/plot.gp"
fi

done_testing
