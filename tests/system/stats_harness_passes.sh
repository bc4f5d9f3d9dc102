#!/bin/sh
# stats_harness_passes.sh: a harness wrapped in interloper run runs the
# whole suite of one system, then the other (outside14 H2): the records of
# each system come in passes, blocks in time whose benchmarks share the
# pass's machine state.  The report finds them, gives the suite's ratio
# per pass and an interval with the pass as the unit, warns of a
# pass-wide shift ([pass-shift]) or of one pass a side ([one-pass]), and
# says nothing new where the systems alternate (a sweep, a compare, a
# harness that interleaves them per benchmark).
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

built() {
	[ -x "$B/libexec/interloper-report" ]
}

# harness SEED NB ORDER SHIFT: records of NB benchmarks (bench b0...),
# wall time in ns, one run each a pass, the passes in ORDER (a word of A
# and B, e.g. ABABAB: system A's pass, then B's, ...; two passes of one system
# in a row read as one), B's first pass
# SHIFT slower in every benchmark (a pass run under load), no other
# difference; TSV beside it in $T/h.tsv for bench/passes.R.  With ORDER
# "i", the same runs interleaved per benchmark (A b0, B b0, A b1, ...),
# three rounds.
harness() {
	awk -v seed="$1" -v nb="$2" -v order="$3" -v sh="$4" -v tsv="$T/h.tsv" '
	function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
	function rec(s, b, v) {
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"b%d\",\"system\":\"%s\"},\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0}}\n", b, s, v
		printf "%s\tb%d\t%.1f\n", s, b, v >tsv
	}
	BEGIN {
		srand(seed)
		for (b = 0; b < nb; b++) size[b] = 1e6 * exp(gauss())
		if (order == "i") {
			for (p = 0; p < 3; p++) for (b = 0; b < nb; b++) for (q = 0; q < 2; q++)
				rec(q ? "B" : "A", b, size[b] * exp((q && p == 0 ? sh : 0) + 0.01 * gauss()))
			exit
		}
		nB = 0
		for (i = 1; i <= length(order); i++) {
			s = substr(order, i, 1)
			lv = s == "B" && nB++ == 0 ? sh : 0
			for (b = 0; b < nb; b++)
				rec(s, b, size[b] * exp(lv + 0.01 * gauss()))
		}
	}'
}

rep() {
	"$B/libexec/interloper-report" --by bench --compare system=A "$@"
}

try "a harness run system after system, one pass shifted: the interval over passes, and [pass-shift]"
if built; then
	harness 3 20 ABABAB 0.15 >"$T/h.jsonl"
	rep "$T/h.jsonl" >"$T/out" 2>"$T/err"
	v=$(grep 'B vs A, geometric mean' "$T/out")
	# the intervals over benchmarks exclude 1 (5% slower, as if real)
	assert_match "$v" 'for benchmarks like these, 95% CI \[[0-9.]+%, [0-9.]+%\]' "the old intervals: $v"
	assert_match "$v" 'ran in passes, system after system \(3 of B, 3 of A; 20 benchmarks in every one\)' "passes found: $v"
	assert_match "$v" 'with the pass as the unit \(Welch.s t over the passes, [0-9.]+ df\), [0-9.]+% slower, 95% CI from [0-9.]+% faster to [0-9.]+% slower \(no difference can be claimed\)' "the interval over passes includes 1: $v"
	assert_match "$v" 'ratio per pass: 1\.1[56][0-9]*, (1\.00|0\.99)[0-9]*, (1\.00|0\.99)[0-9]*$' "per pass: $v"
	w=$(grep -c '\[pass-shift\]$' "$T/err")
	assert_eq "$w" 1 "one [pass-shift] warning ($(cat "$T/err"))"
	assert_match "$(cat "$T/err")" 'per pass 1\.1[56][0-9]*, .*alternating the systems pass by pass, or interleave the systems per benchmark \[pass-shift\]' "the warning names the ratios and what to do"
	rep --json --quiet-warning all "$T/h.jsonl" >"$T/j" 2>/dev/null
	n=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["suite"]["passes"]; print(p["value"], p["baseline"], p["benchmarks"], len(p["ratio_per_pass"]), p["shift_p"] < 0.001, p["ci"][0] < 1 < p["ci"][1])' "$T/j")
	assert_eq "$n" "3 3 20 3 True True" "the JSON's suite.passes"
else
	skip "the statistics programs are not built; run make"
fi

try "the same without the shift: passes and their interval, no warning"
if built; then
	harness 3 20 ABABAB 0 >"$T/h0.jsonl"
	rep "$T/h0.jsonl" >"$T/out" 2>"$T/err"
	assert_match "$(grep 'B vs A, geometric mean' "$T/out")" 'with the pass as the unit' "the interval over passes"
	assert_eq "$(grep -c 'pass-shift\]\|one-pass\]' "$T/err")" 0 "no pass warning ($(cat "$T/err"))"
else
	skip "the statistics programs are not built; run make"
fi

try "one pass a side: [one-pass], and no interval over passes"
if built; then
	harness 3 20 AB 0.15 >"$T/h1.jsonl"
	rep "$T/h1.jsonl" >"$T/out" 2>"$T/err"
	assert_match "$(grep 'B vs A, geometric mean' "$T/out")" 'with one pass a side no interval sees drift between them; the suite.s ratio per pass: 1\.1' "the verdict"
	assert_match "$(cat "$T/err")" 'and each ran in one pass, so drift of the machine between the passes cannot be told from the effect.*\[one-pass\]' "the warning"
	harness 3 20 BAB 0 >"$T/h2.jsonl"
	rep "$T/h2.jsonl" >"$T/out" 2>"$T/err"
	assert_match "$(cat "$T/err")" 'and A ran in one pass \(B in 2\).*\[one-pass\]' "one side in one pass"
else
	skip "the statistics programs are not built; run make"
fi

try "systems interleaved per benchmark, or a sweep's file: no passes, the report as before"
if built; then
	harness 3 20 i 0.15 >"$T/hi.jsonl"
	rep "$T/hi.jsonl" >"$T/out" 2>"$T/err"
	assert_eq "$(grep -c 'ran in passes\|pass-shift\|one-pass' "$T/out" "$T/err" | awk -F: '{s += $2} END {print s}')" 0 "no word of passes"
	assert_match "$(grep 'B vs A, geometric mean' "$T/out")" 'for benchmarks like these, 95% CI [^;]*$' "the verdict ends as before"
	# a sweep's plan line: sweep and compare shuffle the systems in each setup
	{
		echo '{"schema":"interloper-sweep/1","kind":"plan","plan":"0","time":"2026-11-28T00:00:00Z","version":"0.2.0"}'
		cat "$T/h.jsonl"
	} >"$T/hs.jsonl"
	rep "$T/hs.jsonl" >"$T/out" 2>"$T/err"
	assert_eq "$(grep -c 'ran in passes\|pass-shift\|one-pass' "$T/out" "$T/err" | awk -F: '{s += $2} END {print s}')" 0 "a file with a sweep's line has no passes"
	# a stretch of one benchmark's runs is no pass: a sweep of several benchmarks
	awk -v seed=5 'BEGIN { srand(seed)
		for (s = 0; s < 30; s++) for (b = 0; b < 3; b++) { n = 0
			for (i = 0; i < 4; i++) o[i] = i
			for (i = 3; i > 0; i--) { j = int(rand() * (i + 1)); t = o[i]; o[i] = o[j]; o[j] = t }
			for (i = 0; i < 4; i++) printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"b%d\",\"system\":\"%s\",\"setup\":\"s%d\"},\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0}}\n", b, o[i] % 2 ? "B" : "A", s, 1e6 * (1 + b) * (1 + 0.01 * rand())
		} }' >"$T/sw.jsonl"
	rep --setup setup "$T/sw.jsonl" >"$T/out" 2>"$T/err"
	assert_eq "$(grep -c 'ran in passes\|pass-shift\|one-pass' "$T/out" "$T/err" | awk -F: '{s += $2} END {print s}')" 0 "a sweep's order has no passes"
else
	skip "the statistics programs are not built; run make"
fi

try "the passes agree with an independent computation in R (bench/passes.R)"
if ! built; then
	skip "the statistics programs are not built; run make"
elif ! command -v Rscript >/dev/null 2>&1; then
	skip "no Rscript (apt-get install r-base-core)"
else
	# past the 16 passes the list of passes starts with
	for o in ABABAB ABABBA ABABABAB ABABABABABABABABABABABABABABABABABABABAB; do
		harness 9 30 "$o" 0.08 >"$T/r.jsonl"
		want=$(Rscript "$TOP/bench/passes.R" "$T/h.tsv" A 2>&1 | sed 's/ *$//')
		rep --json --quiet-warning all "$T/r.jsonl" 2>/dev/null >"$T/j"
		got=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["suite"]["passes"]
f = lambda v: "%.10g" % v
print("B", p["value"], p["baseline"], p["benchmarks"], *map(f, p["ratio_per_pass"]), f(p["geomean"]),
      f(p["ci"][0]), f(p["ci"][1]), f(p["df"]), f(p["shift_f"]), *("%d" % v for v in p["shift_df"]), f(p["shift_p"]))' "$T/j")
		assert_eq "$got" "$want" "order $o"
	done
fi

done_testing
