#!/bin/sh
# stats_untested.sh: a question that could not be tested is answered
# "could not be tested", with what it would need (issue 13, section 2):
# the claim that one setup alone could have shown either conclusion when
# no setup has the runs for an adjusted interval, the test of equal
# per-setup ratios when no setup has two runs of a side, and a group's
# setup test, tau and stand-outs in an unbalanced design (setups of one
# run are left out and counted, never a silent null).
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

built() {
	[ -x "$B/libexec/interloper-report" ]
}

# cells SEED SETUPS RUNS FX: systems A and B, SETUPS setups of RUNS runs
# each a side in RUNS passes (label rep), noise 1%; B is FX slower in the
# even setups and FX faster in the odd ones.
cells() {
	awk -v seed="$1" -v ns="$2" -v nr="$3" -v fx="$4" '
	function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
	BEGIN {
		srand(seed)
		for (p = 1; p <= nr; p++)
			for (s = 0; s < ns; s++)
				for (b = 0; b < 2; b++) {
					f = b ? (s % 2 ? 1 - fx : 1 + fx) : 1
					printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"%s\",\"setup\":\"s%d\",\"rep\":\"%d\"},\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0}}\n", b ? "B" : "A", s, p, 1e6 * f * (1 + 0.01 * gauss())
				}
	}'
}

try "p10 with 8 runs a cell: the setups differ, but whether one alone could show either conclusion could not be tested"
if built; then
	cells 5 16 8 0.05 >"$T/p10.jsonl"
	j=$(sh "$IL" report --compare system=A --setup setup --estimator p10 --quiet-warning all --json "$T/p10.jsonl" 2>/dev/null)
	v=$(printf '%s' "$j" | python3 -c '
import json, sys
s = json.load(sys.stdin)["comparisons"][0]["setups"]
print(s["heterogeneity"]["p"] < 0.05, s["straddles_one"], s["straddles_one_tested"], s["adjusted_setups"])')
	assert_eq "$v" "True False False 0" "the test rejects; the claim is neither yes nor no; no setup has an adjusted interval"
	why=$(printf '%s' "$j" | python3 -c 'import json, sys; print(json.load(sys.stdin)["comparisons"][0]["setups"]["straddles_one_why"])')
	assert_match "$why" "none of 16 setups have an interval adjusted for their number \\(it needs [0-9]+ runs of each side in a setup, 8 here\\)" \
		"it says what it would need"
	out=$(sh "$IL" report --compare system=A --setup setup --estimator p10 --quiet-warning all "$T/p10.jsonl" 2>/dev/null)
	assert_match "$out" "could have shown either conclusion could not be tested: none of 16 setups" "the verdict says so"
	assert_match "$out" "either way could not be tested: " "and the per-setup view"
	assert_match "$out" "yes \\(p [0-9.e-]+\\) +untested" "the table: beyond noise yes, either way untested"
else
	skip "the statistics programs are not built; run make"
fi

try "the mean with enough runs: the same claim is tested, and holds"
if built; then
	cells 5 16 8 0.05 >"$T/mean.jsonl"
	v=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all --json "$T/mean.jsonl" 2>/dev/null | python3 -c '
import json, sys
s = json.load(sys.stdin)["comparisons"][0]["setups"]
print(s["straddles_one"], s["straddles_one_tested"], s["straddles_one_why"], s["heterogeneity"]["why"])')
	assert_eq "$v" "True True None None" "one setup alone could have shown either conclusion"
else
	skip "the statistics programs are not built; run make"
fi

try "one run of each side a setup: the test of equal per-setup ratios could not run, and says what it needs"
if built; then
	cells 9 12 1 0.05 | sed 's/,"rep":"[0-9]*"//' >"$T/one.jsonl"
	j=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all --json "$T/one.jsonl" 2>/dev/null)
	v=$(printf '%s' "$j" | python3 -c '
import json, sys
s = json.load(sys.stdin)["comparisons"][0]["setups"]
print(s["heterogeneity"]["p"], s["heterogeneity"]["why"], "|", s["straddles_one_tested"])')
	assert_eq "$v" "None no setup has two runs of each side (it needs two runs of each side in a setup) | False" \
		"heterogeneity: p null and why"
	out=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all "$T/one.jsonl" 2>/dev/null)
	assert_match "$out" "whether they differ beyond run-to-run noise could not be tested: no setup has two runs of each side" \
		"the verdict"
	assert_match "$out" "beyond noise could not be tested: no setup has two runs" "the per-setup view"
else
	skip "the statistics programs are not built; run make"
fi

try "an unbalanced group (1 to 12 runs a setup): the setups of one run are left out and counted, the rest tested"
if built; then
	awk 'function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
	BEGIN {
		srand(3)
		for (s = 0; s < 24; s++) {
			n = s % 4 == 0 ? 1 : 2 + s % 11
			lv = s == 5 ? 1.2 : 1
			for (r = 0; r < n; r++)
				printf "{\"schema\":\"interloper/1\",\"labels\":{\"setup\":\"s%d\"},\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0}}\n", s, 1e6 * lv * (1 + 0.01 * gauss())
		}
	}' >"$T/unbal.jsonl"
	v=$(sh "$IL" report --setup setup --quiet-warning all --json "$T/unbal.jsonl" 2>/dev/null | python3 -c '
import json, sys
e = json.load(sys.stdin)["groups"][0]["setup_effect"]
print(e["setups_left_out"], e["p"] < 0.05, e["tau"] is not None, e["tau_ci"] is not None or e["why_no_tau_ci"] is not None,
      e["why_no_test"], e["stand_out"])')
	assert_eq "$v" "6 True True True None ['s5']" "6 setups left out; the test, tau and the stand-out from the other 18"
	out=$(sh "$IL" report --setup setup --quiet-warning all "$T/unbal.jsonl" 2>/dev/null)
	assert_match "$out" "6 of 24 setups have one run: the test left them out" "the text says how many were left out"
else
	skip "the statistics programs are not built; run make"
fi

done_testing
