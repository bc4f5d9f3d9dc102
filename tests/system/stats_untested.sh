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

# cells SEED SETUPS RUNS FX [NOISE]: systems A and B, SETUPS setups of RUNS
# runs each a side in RUNS passes (label rep), noise NOISE (1%); B is FX
# slower in the even setups and FX faster in the odd ones.
cells() {
	awk -v seed="$1" -v ns="$2" -v nr="$3" -v fx="$4" -v sd="${5:-0.01}" '
	function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
	BEGIN {
		srand(seed)
		for (p = 1; p <= nr; p++)
			for (s = 0; s < ns; s++)
				for (b = 0; b < 2; b++) {
					f = b ? (s % 2 ? 1 - fx : 1 + fx) : 1
					printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"%s\",\"setup\":\"s%d\",\"rep\":\"%d\"},\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0}}\n", b ? "B" : "A", s, p, 1e6 * f * (1 + sd * gauss())
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
	assert_match "$out" "6 of 24 setups have one run: the test and the stand-out list left them out \\(s0, s12, s16, s20, \\.\\.\\.\\)" \
		"the text says how many were left out, of the stand-outs too, and which"
	v=$(sh "$IL" report --setup setup --quiet-warning all --json "$T/unbal.jsonl" 2>/dev/null | python3 -c '
import json, sys
for e in json.load(sys.stdin)["groups"][0]["setup_effect"]["per_setup"]:
    if e["setup"] in ("s0", "s1", "s5"):
        print(e["setup"], e["stands_out"], e.get("why_no_stand_out"))')
	assert_eq "$v" "s0 None one run: the group's test left it out
s1 False None
s5 True None" "a setup left out of the test is neither a stand-out nor not one"
else
	skip "the statistics programs are not built; run make"
fi

# json PY FILE ARGS...: the report's JSON of FILE with ARGS, read by the
# python expression PY over r (the report), c (its first comparison's
# setups) and g (its groups' setup effects); print's form.
json() {
	py=$1
	f=$2
	shift 2
	sh "$IL" report --quiet-warning all --json "$@" "$f" 2>/dev/null | python3 -c "
import json, sys
r = json.load(sys.stdin)
c = r['comparisons'][0]['setups'] if r.get('comparisons') else None
g = [x['setup_effect'] for x in r['groups']]
print($py)"
}

try "2 setups in 2 passes: the sign flips cannot give p below 1/8, so whether they differ could not be tested, not 'no'"
if built; then
	cells 3 2 2 0.2 0.005 >"$T/c22.jsonl"
	v=$(json 'c["heterogeneity"]["p"], c["straddles_one_tested"], c["heterogeneity"]["why"]' "$T/c22.jsonl" --compare system=A --setup setup)
	assert_eq "$v" "None False with 2 setups in 2 passes the exchanges cannot give p below 1/8, so the test could never reject at 0.05 (it needs 3 passes, or 3 setups)" \
		"heterogeneity: p null, why with the smallest p and what it would need; either way untested"
	out=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all "$T/c22.jsonl" 2>/dev/null)
	assert_match "$out" "whether they differ beyond run-to-run noise could not be tested: with 2 setups in 2 passes" "the verdict"
	assert_match "$out" "B +2 .* untested +untested" "the table: beyond noise and either way untested"
	# 3 setups in 2 passes: 2^6 sign flips in pairs, p >= 1/32: tested
	cells 3 3 2 0.2 0.005 >"$T/c32.jsonl"
	v=$(json 'c["heterogeneity"]["p"] is not None, c["heterogeneity"]["why"]' "$T/c32.jsonl" --compare system=A --setup setup)
	assert_eq "$v" "True None" "3 setups in 2 passes: tested"
	cells 3 2 3 0.2 0.005 >"$T/c23.jsonl"
	v=$(json 'c["heterogeneity"]["p"] is not None, c["heterogeneity"]["why"]' "$T/c23.jsonl" --compare system=A --setup setup)
	assert_eq "$v" "True None" "2 setups in 3 passes, as it said it needs: tested"
else
	skip "the statistics programs are not built; run make"
fi

try "a group of 2 setups in 5 passes: p >= 1/16, untested with the passes it needs; 6 passes are tested"
if built; then
	cells 4 2 5 0.12 >"$T/g25.jsonl"
	v=$(json 'g[1]["p"], g[1]["why_no_test"], g[1]["stand_out"]' "$T/g25.jsonl" --compare system=A --setup setup)
	assert_eq "$v" "None with 2 setups in 5 passes the exchanges cannot give p below 1/16, so the test could never reject at 0.05 (it needs 6 passes, or more setups) None" \
		"the group's test: p null, why and need; stand-outs null"
	out=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all "$T/g25.jsonl" 2>/dev/null)
	assert_match "$out" "system=B: whether its setups differ could not be tested: with 2 setups in 5 passes" "the text says so"
	cells 4 2 6 0.12 >"$T/g26.jsonl"
	v=$(json 'g[1]["p"] < 0.05, g[1]["why_no_test"]' "$T/g26.jsonl" --compare system=A --setup setup)
	assert_eq "$v" "True None" "6 passes: tested, and it rejects"
else
	skip "the statistics programs are not built; run make"
fi

try "no setup with an adjusted interval: either way is untested even when the test of equal ratios does not reject"
if built; then
	cells 8 16 8 0 >"$T/p10no.jsonl"
	v=$(json 'c["heterogeneity"]["p"] >= 0.05, c["adjusted_setups"], c["straddles_one_tested"], c["straddles_one_why"]' "$T/p10no.jsonl" --compare system=A --setup setup --estimator p10)
	assert_eq "$v" "True 0 False none of 16 setups have an interval adjusted for their number (it needs 55 runs of each side in a setup, 8 here)" \
		"straddles_one untested, with what it would need"
	out=$(sh "$IL" report --compare system=A --setup setup --estimator p10 --quiet-warning all "$T/p10no.jsonl" 2>/dev/null)
	assert_match "$out" "consistent with run-to-run noise \\(p = [0-9.]+\\); whether one setup alone could have shown either conclusion could not be tested: none of 16" \
		"the verdict says so"
	assert_match "$out" "no \\(p [0-9.]+\\) +untested" "the table: beyond noise no, either way untested"
else
	skip "the statistics programs are not built; run make"
fi

try "an untested group: its stand-outs are untested, not none"
if built; then
	cells 9 12 1 0.05 | sed 's/,"rep":"[0-9]*"//' >"$T/one1.jsonl"
	v=$(json 'g[0]["stand_out"], g[0]["why_no_test"], set(e["stands_out"] for e in g[0]["per_setup"]), g[0]["per_setup"][0]["why_no_stand_out"]' "$T/one1.jsonl" --compare system=A --setup setup)
	assert_eq "$v" "None fewer than 2 setups have 2 runs {None} fewer than 2 setups have 2 runs" "JSON: null with the why"
	out=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all "$T/one1.jsonl" 2>/dev/null)
	assert_match "$out" "A +12 +- +- +untested +untested" "text: beyond noise and stand-outs untested"
else
	skip "the statistics programs are not built; run make"
fi

try "runs equal within setups, different between them: why the group's test could not run"
if built; then
	cells 2 6 3 0.01 0 >"$T/equal.jsonl"
	v=$(json 'g[1]["p"], g[1]["why_no_test"]' "$T/equal.jsonl" --compare system=A --setup setup)
	assert_eq "$v" "None the runs within every setup are equal once each is divided by its pass's level: no run-to-run noise to weigh the setups' differences against" \
		"why_no_test says it"
	out=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all "$T/equal.jsonl" 2>/dev/null)
	assert_match "$out" "system=B: whether its setups differ could not be tested: the runs within every setup are equal" "and the text"
	v=$(json 'g[1]["why_no_test"]' "$T/equal.jsonl" --compare system=A --setup setup --passes none)
	assert_eq "$v" "the runs within every setup are equal: no run-to-run noise to weigh the setups' differences against" "with --passes none too"
else
	skip "the statistics programs are not built; run make"
fi

try "every setup in a pass of its own: no test, and no interval for tau, with what it would need"
if built; then
	cells 8 8 3 0.03 | sed -E 's/"setup":"s([0-9]+)","rep":"[0-9]+"/"setup":"s\1","rep":"\1"/' >"$T/pps.jsonl"
	v=$(json 'g[1]["tau"] is not None, g[1]["tau_ci"], g[1]["why_no_tau_ci"] == g[1]["why_no_test"], g[1]["why_no_test"]' "$T/pps.jsonl" --compare system=A --setup setup)
	assert_eq "$v" "True None True no pass holds runs of two setups, so nothing can be exchanged (it needs passes that each hold runs of two setups or more, or --passes none if the runs do not drift)" \
		"tau_ci withheld for the same reason"
	out=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all "$T/pps.jsonl" 2>/dev/null)
	assert_match "$out" "system=B: whether its setups differ could not be tested, nor tau's interval given: no pass holds runs of two setups" "the text"
	assert_match "$out" "B +8 +[0-9.]+% +- +untested +untested" "the table: tau, no interval"
else
	skip "the statistics programs are not built; run make"
fi

done_testing
