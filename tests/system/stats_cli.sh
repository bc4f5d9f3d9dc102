#!/bin/sh
# stats_cli.sh: interloper report, plan and plot as a user runs them,
# through the front command: help, input from stdin and several files,
# valid JSON, and plots rendered by real gnuplot to PNG and SVG.
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

built() {
	for p in report plan plot; do
		[ -x "$B/libexec/interloper-$p" ] || return 1
	done
}

# A small experiment: 2 benchmarks x 2 systems x 8 setups x 3 runs.
awk 'BEGIN {
	srand(5)
	for (b = 0; b < 2; b++) for (s = 0; s < 8; s++) for (y = 0; y < 2; y++) for (r = 0; r < 3; r++) {
		v = (b + 1) * 1000 * (1 + 0.02 * sin(s)) * (y ? 0.99 : 1) * (1 + 0.002 * rand())
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"b%d\",\"system\":\"%s\",", b, y ? "O3" : "O2"
		printf "\"setup\":\"s%d\",\"rep\":\"%d\"},\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0},", s, r, v
		printf "\"setup\":{\"env_bytes\":%d}}\n", 2048 + 64 * s
	}
}' >"$T/runs.jsonl"
head -n 48 "$T/runs.jsonl" >"$T/first.jsonl"
tail -n +49 "$T/runs.jsonl" >"$T/rest.jsonl"

for sub in report plan plot; do
	try "interloper $sub --help"
	if ! built; then
		skip "the statistics programs are not built; run make"
		continue
	fi
	out=$(sh "$IL" "$sub" --help)
	assert_eq "$?" 0 "exit status"
	assert_match "$out" "^usage: interloper $sub " "usage line"
	assert_match "$out" "interloper-$sub\\(1\\)" "points to the man page"
done

try "several files and stdin read the same records"
if built; then
	a=$(sh "$IL" report --by bench,system --json "$T/runs.jsonl" 2>/dev/null)
	b=$(sh "$IL" report --by bench,system --json "$T/first.jsonl" - <"$T/rest.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s\n' "$a" | sed '/"files"/d')" "$(printf '%s\n' "$b" | sed '/"files"/d')" \
		"the same report"
	assert_match "$b" '"files": 2' "two inputs counted"
else
	skip "the statistics programs are not built; run make"
fi

try "report --json is valid JSON with the documented fields"
if built; then
	sh "$IL" report --by bench --compare system=O2 --setup setup --json "$T/runs.jsonl" \
		>"$T/r.json" 2>/dev/null
	assert_eq "$?" 0 "exit status"
	v=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
c = r["comparisons"][0]
print(len(r["groups"]), sorted(c["setups"]), c["ci_kind"], len(c["ci"]), sorted(r["suite"]))
' "$T/r.json")
	assert_eq "$v" "4 ['ci', 'max', 'mean', 'median', 'min', 'n', 'straddles_one', 'unpaired'] bounded 2 ['baseline', 'ci', 'geomean', 'n', 'value', 'verdict']" \
		"fields"
else
	skip "the statistics programs are not built; run make"
fi

# is_png FILE: the eight-byte PNG signature.
is_png() {
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ]
}

# is_svg FILE: an XML document whose root element is <svg>.
is_svg() {
	python3 -c '
import sys, xml.etree.ElementTree as ET
sys.exit(0 if ET.parse(sys.argv[1]).getroot().tag.endswith("svg") else 1)' "$1"
}

for kind in violin env hist seq; do
	for fmt in png svg; do
		try "plot $kind renders a $fmt"
		if ! built; then
			skip "the statistics programs are not built; run make"
			continue
		fi
		if ! command -v gnuplot >/dev/null 2>&1; then
			skip "gnuplot is not installed (Debian: gnuplot-nox)"
			continue
		fi
		case $kind in
		violin | hist) set -- --by bench --compare system=O2 --setup setup ;;
		env) set -- --by bench,system ;;
		seq) set -- --where bench=b1 --where system=O3 ;;
		esac
		out="$T/$kind.$fmt"
		sh "$IL" plot "$kind" "$@" -o "$out" "$T/runs.jsonl" >"$T/plot.out" 2>"$T/plot.err"
		assert_eq "$?" 0 "exit status ($(cat "$T/plot.err"))"
		assert_eq "$(cat "$T/plot.out")" "$out" "prints the image's path"
		assert_true "non-empty image" test -s "$out"
		if [ "$fmt" = png ]; then
			assert_true "PNG signature" is_png "$out"
		else
			assert_true "SVG root element" is_svg "$out"
		fi
	done
done

try "plot --keep leaves the gnuplot script and data"
if built && command -v gnuplot >/dev/null 2>&1; then
	sh "$IL" plot violin --by bench --compare system=O2 --setup setup --keep "$T/keep" \
		-o "$T/k.png" "$T/runs.jsonl" >/dev/null 2>&1
	assert_true "script kept" test -s "$T/keep/plot.gp"
	assert_true "data kept" test -s "$T/keep/violins.dat"
else
	skip "the statistics programs or gnuplot are missing"
fi

try "plot violin without --setup is an error naming what is missing"
if built; then
	err=$(sh "$IL" plot violin --compare system=O2 -o "$T/x.png" "$T/runs.jsonl" 2>&1 >/dev/null)
	assert_eq "$?" 1 "exit status"
	assert_match "$err" "needs --compare LABEL=BASELINE and --setup LABEL" "message"
	assert_true "no image" test ! -e "$T/x.png"
else
	skip "the statistics programs are not built; run make"
fi

try "plot seq refuses more than one group"
if built; then
	err=$(sh "$IL" plot seq --by system -o "$T/y.png" "$T/runs.jsonl" 2>&1 >/dev/null)
	assert_eq "$?" 1 "exit status"
	assert_match "$err" "select one group with --where" "message"
else
	skip "the statistics programs are not built; run make"
fi

done_testing
