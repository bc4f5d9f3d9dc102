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
# three rounds.  With DT, each record has a start, DT seconds after the
# one before (whole seconds, as the library writes it).
harness() {
	awk -v seed="$1" -v nb="$2" -v order="$3" -v sh="$4" -v dt="${5:-}" -v tsv="$T/h.tsv" '
	function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
	function rec(s, b, v,   at) {
		at = ""
		if (dt != "") {
			at = sprintf(",\"start\":\"2026-11-28T%02d:%02d:%02dZ\"", int(t / 3600), int(t / 60) % 60, int(t) % 60)
			t += dt
		}
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"b%d\",\"system\":\"%s\"}%s,\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0}}\n", b, s, at, v
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

try "passes are found in time order, from the records' start: one file per system, a merged file (review14c M1)"
if built; then
	# suite.passes of the JSON, or "none"
	passes() {
		rep --json --quiet-warning all "$@" 2>/dev/null | python3 -c 'import json, sys
p = json.load(sys.stdin)["suite"].get("passes")
print(json.dumps(p, sort_keys=True) if p else "none")'
	}
	harness 3 20 ABABAB 0.15 0.4 >"$T/t.jsonl"
	want=$(passes "$T/t.jsonl")
	assert_match "$want" '"value": 3' "the harness's own file: 3 passes a side"
	grep '"system":"A"' "$T/t.jsonl" >"$T/A3.jsonl"
	grep '"system":"B"' "$T/t.jsonl" >"$T/B3.jsonl"
	assert_eq "$(passes "$T/A3.jsonl" "$T/B3.jsonl")" "$want" "one file per system: the same passes (on 93994f3: one a side, [one-pass])"
	assert_eq "$(passes "$T/B3.jsonl" "$T/A3.jsonl")" "$want" "the files in the other order"
	cat "$T/B3.jsonl" "$T/A3.jsonl" >"$T/m.jsonl"
	assert_eq "$(passes "$T/m.jsonl")" "$want" "one file, merged"
	if [ -x "$B/tests/interloper-report-parts" ] && [ "$(nproc)" -ge 2 ]; then
		for take in 300 4096; do
			got=$(IL_TEST_TAKE=$take "$B/tests/interloper-report-parts" --by bench --compare system=A --json \
				--quiet-warning all "$T/m.jsonl" 2>/dev/null | python3 -c 'import json, sys
print(json.dumps(json.load(sys.stdin)["suite"]["passes"], sort_keys=True))')
			assert_eq "$got" "$want" "the merged file read in parts of $take bytes"
		done
	fi
	rep "$T/A3.jsonl" "$T/B3.jsonl" >"$T/out" 2>"$T/err"
	assert_eq "$(grep -c '\[pass-shift\]$' "$T/err")" 1 "[pass-shift], once"
	assert_eq "$(grep -c '\[one-pass\]' "$T/err")" 0 "no [one-pass]"
	# two passes of A, then two of B (AABB) in one file per system: the
	# files overlap in time but their passes do not
	harness 3 20 AABB 0 0.4 >"$T/t2.jsonl"
	grep '"system":"A"' "$T/t2.jsonl" >"$T/A2.jsonl"
	grep '"system":"B"' "$T/t2.jsonl" >"$T/B2.jsonl"
	assert_match "$(passes "$T/A2.jsonl" "$T/B2.jsonl")" '"baseline": 1.*"value": 1' "files that follow in time: one pass a side, as in one file"
	# interleaved per benchmark, one file per system: no passes
	harness 3 20 i 0.15 0.4 >"$T/ti.jsonl"
	grep '"system":"A"' "$T/ti.jsonl" >"$T/Ai.jsonl"
	grep '"system":"B"' "$T/ti.jsonl" >"$T/Bi.jsonl"
	rep "$T/Ai.jsonl" "$T/Bi.jsonl" >"$T/out" 2>"$T/err"
	assert_eq "$(grep -c 'ran in passes\|pass-shift\|one-pass' "$T/out" "$T/err" | awk -F: '{s += $2} END {print s}')" 0 \
		"systems interleaved per benchmark, a file each: no word of passes (on 93994f3: [one-pass])"
	# every record in one second: the order cannot be told
	harness 3 20 ABABAB 0.15 0 >"$T/t0.jsonl"
	grep '"system":"A"' "$T/t0.jsonl" >"$T/A0.jsonl"
	grep '"system":"B"' "$T/t0.jsonl" >"$T/B0.jsonl"
	assert_eq "$(passes "$T/A0.jsonl" "$T/B0.jsonl")" "none" "starts in one second: no passes"
	assert_eq "$(passes "$T/t0.jsonl")" "$(passes "$T/t.jsonl")" "one file keeps its order"
	# a process's record after its child's (INHERIT=none), whose start is
	# later: one file still keeps its order
	python3 - "$T/t.jsonl" >"$T/kids.jsonl" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    m = re.search(r'T(\d\d):(\d\d):(\d\d)Z', line)
    t = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3)) + 1
    print(line[:m.start()] + "T%02d:%02d:%02dZ" % (t // 3600, t // 60 % 60, t % 60) + line[m.end():], end="")
    print(line, end="")
PY
	assert_match "$(passes "$T/kids.jsonl")" '"baseline": 3, .*"value": 3' "a parent's record after its child's: the passes of one file"
	# records without a start: the order read, as before
	harness 3 20 ABABAB 0.15 >"$T/u.jsonl"
	grep '"system":"A"' "$T/u.jsonl" >"$T/Au.jsonl"
	grep '"system":"B"' "$T/u.jsonl" >"$T/Bu.jsonl"
	assert_match "$(passes "$T/Au.jsonl" "$T/Bu.jsonl")" '"baseline": 1.*"value": 1' "no start: the files in the order given"
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
