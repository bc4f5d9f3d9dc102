#!/bin/sh
# stats_suite_shared.sh: benchmarks measured in the same setups (one
# `interloper build`, one sweep plan for every input: the same link
# layouts) share each setup's effect, so the suite's intervals take the
# setups as the unit (suiteshare.c, outside15 H1), say so, and warn
# [shared-setups] where the intervals over independent benchmarks were
# narrower; benchmarks that share some setups but not the same ones keep
# those intervals with [part-shared-setups]; benchmarks in setups of
# their own are reported as before.
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

built() {
	[ -x "$B/libexec/interloper-report" ]
}

# suite SEED NB NL NE OFF: records of NB benchmarks (bench b0...) in NL
# layouts (and NE environment sizes, crossed, when NE > 1), two runs of A
# and B per setup; B's ratio moves 1% (sd) with the layout, the same for
# every benchmark, and 0.4% per benchmark and layout; no effect on
# average.  OFF > 0: benchmark b's layouts are numbered from b * OFF
# (OFF >= NL: no layout shared).  TSV beside it in $T/s.tsv for
# bench/suite-layouts.R.
suite() {
	awk -v seed="$1" -v nb="$2" -v nl="$3" -v ne="$4" -v off="${5:-0}" -v tsv="$T/s.tsv" '
	function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
	BEGIN {
		srand(seed)
		for (l = 0; l < nl + nb * off; l++) { lay[l] = 0.05 * gauss(); dl[l] = 0.01 * gauss() }
		for (e = 0; e < ne; e++) { env[e] = 0.02 * gauss(); de[e] = ne > 1 ? 0.005 * gauss() : 0 }
		for (b = 0; b < nb; b++) {
			size = 1e6 * exp(gauss())
			for (j = 0; j < nl; j++) for (e = 0; e < ne; e++) {
				l = j + b * off
				x = 0.004 * gauss()
				for (q = 0; q < 2; q++) for (s = 0; s < 2; s++) {
					v = size * exp(lay[l] + env[e] + (s ? dl[l] + de[e] + x : 0) + 0.005 * gauss())
					sy = s ? "B" : "A"
					lab = sprintf("\"bench\":\"b%d\",\"system\":\"%s\",\"layout\":\"%02d\"", b, sy, l)
					if (ne > 1) {
						lab = lab sprintf(",\"env_add\":\"%d\"", 256 * e)
						printf "b%d\t%s\t%d\t%02d\t%.1f\n", b, sy, 256 * e, l, v >tsv
					} else
						printf "b%d\t%s\t%02d\t%.1f\n", b, sy, l, v >tsv
					printf "{\"schema\":\"interloper/1\",\"labels\":{%s},\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0}}\n", lab, v
				}
			}
		}
	}'
}

rep() {
	"$B/libexec/interloper-report" --by bench --compare system=A "$@"
}

# the JSON's suite as "geomean lo hi df blo bhi bdf", 10 digits, or its shared_setups
jsuite() {
	rep --json --quiet-warning all "$@" 2>/dev/null | python3 -c '
import json, sys
s = json.load(sys.stdin)["suite"]
h = s.get("shared_setups")
f = lambda v: "%.10g" % v
if h and h["unit"]:
    print("B", *map(f, (s["geomean"], s["ci"][0], s["ci"][1], h["df"], s["ci_benchmarks"][0],
                        s["ci_benchmarks"][1], h["df_benchmarks"])))
else:
    print("partial" if h else "none", h and h["setups"], f(s["ci"][0]), f(s["ci"][1]))'
}

try "six benchmarks in the same 8 layouts: the layout is the unit, said, and [shared-setups]"
if built; then
	suite 4 6 8 1 >"$T/a.jsonl"
	rep --setup layout "$T/a.jsonl" >"$T/out" 2>"$T/err"
	v=$(grep 'B vs A, geometric mean' "$T/out")
	assert_match "$v" 'for benchmarks like these, 95% CI [^;]*; the benchmarks share their 8 setups \(values of layout\), so both intervals take the setups as the unit$' "the verdict: $v"
	assert_match "$(cat "$T/out")" 'B vs A: the 6 benchmarks share their 8 setups \(values of layout\), so both intervals take the setups as the unit: these benchmarks, t over the setups. mean log ratio \(7 df\); like these, with the benchmarks. spread added \([0-9.]+ df\); taking the benchmarks as independent they would be \[' "the line under the suite table"
	assert_match "$(cat "$T/out")" '  these benchmarks and benchmarks like these: with the setups the benchmarks share as the unit \(below\); the per-benchmark' "the note under the suite table"
	assert_eq "$(grep -c "from each ratio's own uncertainty" "$T/out")" 0 "no word of the intervals over independent benchmarks there"
	assert_match "$(cat "$T/err")" 'B vs A: the 6 benchmarks were measured in the same 8 setups \(values of layout\).*taking the benchmarks as independent would give 95% CI .* for these benchmarks, [0-9.]+x narrower \[shared-setups\]' "the warning: $(cat "$T/err")"
	# wider than the intervals over independent benchmarks, which the JSON keeps
	rep --setup layout --json --quiet-warning all "$T/a.jsonl" 2>/dev/null >"$T/j"
	w=$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["suite"]; h = s["shared_setups"]
print(h["setups"], h["what"], h["unit"], h["why_not"], h["df"],
      s["ci"][0] < h["ci_independent"][0] and h["ci_independent"][1] < s["ci"][1],
      s["ci_benchmarks"][0] < h["ci_benchmarks_independent"][0], s["ci"][0] <= 1 <= s["ci"][1])' "$T/j")
	assert_eq "$w" "8 values of layout True None 7.0 True True True" "the JSON's suite.shared_setups"
	c=$(rep --setup layout --csv --quiet-warning all "$T/a.jsonl" 2>/dev/null | cut -d, -f1,14,15 | grep '^suite')
	assert_match "$c" '^suite,7,these benchmarks: t over the 8 setups every benchmark shares \(values of layout\)' "CSV: $c"
	assert_match "$c" 'suite_independent,,these benchmarks taken as independent' "CSV: the old interval kept: $c"
	assert_match "$c" 'suite_benchmarks_independent,5,benchmarks like these taken as independent' "CSV: $c"
else
	skip "the statistics programs are not built; run make"
fi

try "setups of their own per benchmark: the report as before, no word of sharing"
if built; then
	suite 4 6 8 1 8 >"$T/o.jsonl"
	rep --setup layout "$T/o.jsonl" >"$T/out" 2>"$T/err"
	assert_eq "$(grep -c 'shar' "$T/out" "$T/err" | awk -F: '{s += $2} END {print s}')" 0 "no word of shared setups"
	assert_match "$(grep 'B vs A, geometric mean' "$T/out")" 'for benchmarks like these, 95% CI [^;]*$' "the verdict ends as before"
	assert_match "$(jsuite --setup layout "$T/o.jsonl")" '^none ' "no suite.shared_setups"
	# and without --setup, nothing to share
	rep "$T/a.jsonl" >"$T/out" 2>"$T/err"
	assert_eq "$(grep -c 'shar' "$T/out" "$T/err" | awk -F: '{s += $2} END {print s}')" 0 "no --setup: no word"
else
	skip "the statistics programs are not built; run make"
fi

try "a partial overlap (layouts 00-07, 04-11, 08-15): intervals as before, [part-shared-setups]"
if built; then
	suite 4 3 8 1 4 >"$T/p.jsonl"
	rep --setup layout "$T/p.jsonl" >"$T/out" 2>"$T/err"
	assert_match "$(grep 'B vs A, geometric mean' "$T/out")" '; 8 setups \(values of layout\) are shared by some of the benchmarks, but not the same ones: these intervals take the benchmarks as independent and may be too narrow$' "the verdict"
	assert_match "$(cat "$T/err")" 'B vs A: 8 setups \(values of layout\) are shared by two or more of the 3 benchmarks, but not the same ones, .*as the unit \[part-shared-setups\]' "the warning: $(cat "$T/err")"
	assert_match "$(jsuite --setup layout "$T/p.jsonl")" '^partial 8 ' "suite.shared_setups, unit false"
	# the intervals over independent benchmarks: the same as with each
	# benchmark's layouts renamed apart (nothing shared)
	sed 's/"bench":"\(b[0-9]*\)","system":"\([AB]\)","layout":"/&\1-/' "$T/p.jsonl" >"$T/q.jsonl"
	assert_match "$(jsuite --setup layout "$T/q.jsonl")" '^none ' "renamed apart: nothing shared"
	assert_eq "$(jsuite --setup layout "$T/p.jsonl" | cut -d' ' -f3-)" \
		"$(jsuite --setup layout "$T/q.jsonl" | cut -d' ' -f3-)" "the intervals as with the layouts renamed apart"
else
	skip "the statistics programs are not built; run make"
fi

try "the intervals agree with an independent computation in R (bench/suite-layouts.R)"
if ! built; then
	skip "the statistics programs are not built; run make"
elif ! command -v Rscript >/dev/null 2>&1; then
	skip "no Rscript (apt-get install r-base-core)"
else
	# one label, past 16 setups and 16 benchmarks; crossed env x layout
	for c in "4 6 8 1" "7 20 20 1" "9 3 5 1" "5 6 8 4" "6 4 5 3" "8 17 3 17"; do
		# shellcheck disable=SC2086
		suite $c >"$T/r.jsonl"
		# shellcheck disable=SC2086
		set -- $c
		su=layout
		[ "$4" -gt 1 ] && su=env_add,layout
		want=$(Rscript "$TOP/bench/suite-layouts.R" "$T/s.tsv" A 2>&1 | sed 's/ *$//')
		assert_eq "$(jsuite --setup $su "$T/r.jsonl")" "$want" "seed $1, $2 benchmarks, $3 layouts, $4 env sizes"
	done
fi

done_testing
