#!/bin/sh
# stats_nullwhy.sh: a comparison's missing answer says why.  The JSON's
# "setups" (the per-setup view) is null only with "setups_why" beside it,
# and the text says it too; a --subtract that leaves a setup's estimate
# not positive (the shell's runs can take as long as short commands under
# load) withholds the per-setup view with what to do about it, and keeps
# the headline over the setups' means (it refused the whole report).
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

built() {
	[ -x "$B/libexec/interloper-report" ]
}

# runs SPEC [PASSES]: systems A and B, setup sI with the I-th count of the
# comma list SPEC runs a side, run j in pass j (label rep); PASSES partial:
# every third record has no rep.  Noise about 1%, B 3% slower in even setups.
runs() {
	awk -v spec="$1" -v mode="${2:-all}" '
	BEGIN {
		srand(7)
		k = split(spec, n, ",")
		for (s = 1; s <= k; s++)
			for (j = 1; j <= n[s]; j++)
				for (b = 0; b < 2; b++) {
					rep = (mode == "partial" && ++c % 3 == 0) ? "" : sprintf(",\"rep\":\"%d\"", j)
					v = 1e6 * (1 + 0.01 * (rand() - 0.5)) * (b && s % 2 ? 1.03 : 1)
					printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"%s\",\"setup\":\"s%d\"%s},\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0}}\n", b ? "B" : "A", s - 1, rep, v
				}
	}'
}

# rec SYSTEM SETUP NS: one record
rec() {
	printf '{"schema":"interloper/1","labels":{"system":"%s","setup":"%s"},"times":{"wall_ns":%s,"user_ns":1,"sys_ns":0}}\n' "$1" "$2" "$3"
}

try "no setup on both sides: setups null with setups_why, and the text says why"
if built; then
	for s in 1 2 3; do
		for v in 1000000 1010000 1020000; do
			rec A "a$s" $((v + s * 1000))
			rec B "b$s" $((v + s * 3000))
		done
	done >"$T/disjoint.jsonl"
	j=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all --json "$T/disjoint.jsonl")
	assert_eq "$?" 0 "exit status"
	v=$(printf '%s' "$j" | python3 -c '
import json, sys
c = json.load(sys.stdin)["comparisons"][0]
print(c["setups"] is None, "setup" in (c.get("setups_why") or ""))')
	assert_eq "$v" "True True" "setups null, setups_why names the label"
	t=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all "$T/disjoint.jsonl")
	assert_match "$t" "system=B: no per-setup ratios: no value of 'setup' has runs of both sides" "text"
	j=$(sh "$IL" report --compare system=A --quiet-warning all --json "$T/disjoint.jsonl")
	v=$(printf '%s' "$j" | python3 -c '
import json, sys
c = json.load(sys.stdin)["comparisons"][0]
print(c["setups"] is None, c.get("setups_why"))')
	assert_eq "$v" "True no --setup: the runs are not grouped into setups" "without --setup"
else
	skip "interloper-report is not built"
fi

try "--subtract: a setup whose subtracted runs took as long as the measured ones: no per-setup view, with what to do; the headline stays"
if built; then
	for s in 1 2 3 4 5 6 7 8 9 10 11 12; do
		sh=300000
		[ "$s" = 3 ] && sh=4300000
		rec shell "e$s" "$sh"
		rec shell "e$s" "$sh"
		rec grep "e$s" $((3400000 + s * 1000))
		rec grep "e$s" $((3410000 + s * 1000))
		rec awk "e$s" $((3300000 + s * 2000))
		rec awk "e$s" $((3310000 + s * 2000))
	done >"$T/sub.jsonl"
	sh "$IL" report --compare system=grep --setup setup --subtract system=shell \
		--quiet-warning all --json "$T/sub.jsonl" >"$T/sub.json"
	assert_eq "$?" 0 "exit status"
	v=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["comparisons"][0]
print(c["setups"] is None, c["ci"] is not None and 0 < c["ci"][0] < c["ratio"] < c["ci"][1])
print(c["setups_why"])' "$T/sub.json")
	assert_match "$v" "^True True
setup e3's estimate is not positive \\([-0-9.e+]+ over [-0-9.e+]+; 1 of 12 setups\\) once the mean of its runs of system=shell is subtracted: .*; measure commands that take far longer than them, a metric that does not count waiting \\(task-clock, recorded with -e task-clock\\), or leave out --subtract\$" "setups null with why; the headline's interval over the setups"
	t=$(sh "$IL" report --compare system=grep --setup setup --subtract system=shell --quiet-warning all "$T/sub.jsonl")
	assert_match "$t" "system=awk: no per-setup ratios: setup e3's estimate is not positive" "text"
	assert_match "$t" "awk vs grep: [0-9.]+% faster, 95% CI" "the verdict"
else
	skip "interloper-report is not built"
fi

try "what an untested claim would need: every blocker at once, and the runs as a range with the fewest setup"
if built; then
	runs 1,1,1,1,1,1,1,1 >"$T/one.jsonl"
	v=$(sh "$IL" report --compare system=A --setup setup --estimator median --quiet-warning all --json "$T/one.jsonl" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["comparisons"][0]["setups"]["straddles_one_why"])')
	assert_match "$v" "^whether the setups differ could not be tested \\(.*\\), and none of 8 setups have an interval adjusted for their number \\(it needs [0-9]+ runs of each side in a setup, 1 here\\)\$" "both blockers"
	runs 1,2,3,4,5,6,7,8 >"$T/mixed.jsonl"
	v=$(sh "$IL" report --compare system=A --setup setup --estimator p10 --quiet-warning all --json "$T/mixed.jsonl" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["comparisons"][0]["setups"]["straddles_one_why"])')
	assert_match "$v" "it needs [0-9]+ runs of each side in a setup, 1 to 8 here, the fewest in setup s0\\)" "a range, and the fewest setup"
else
	skip "interloper-report is not built"
fi

try "some runs without a pass label: the group's free exchange says so (not 'the records carry no passes')"
if built; then
	runs 4,4,4 partial >"$T/partial.jsonl"
	v=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all --json "$T/partial.jsonl" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["groups"][0]["setup_effect"]["exchangeable"])')
	assert_match "$v" "\\(some runs have no pass label\\)\$" "the group's exchangeable"
else
	skip "interloper-report is not built"
fi

try "one setup: every null of the per-setup view has its why, and the verdict gives no range of one"
if built; then
	runs 3 >"$T/single.jsonl"
	v=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all --json "$T/single.jsonl" | python3 -c '
import json, sys
c = json.load(sys.stdin)["comparisons"][0]
s = c["setups"]
print(s["heterogeneity"], s["ci"], s.get("why_no_ci"), c["setup_variance"], c.get("why_no_setup_variance") is not None)')
	assert_eq "$v" "{'p': None, 'why': 'one setup (it needs two at least)'} None one setup: an interval over setups needs two at least None True" "heterogeneity, ci, setup_variance"
	v=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all "$T/single.jsonl" | grep "B vs A")
	assert_match "$v" "; its one setup: [0-9.]+% (faster|slower)" "the verdict"
	assert_eq "$(printf '%s\n' "$v" | grep -c 'ranged from')" 0 "no range of one setup"
else
	skip "interloper-report is not built"
fi

try "a setup without an interval says why: JSON why_no_ci / why_no_ci_adjusted beside the nulls, the CSV's setup row"
if built; then
	runs 1,2,7,40 >"$T/q.jsonl"
	v=$(sh "$IL" report --compare system=A --setup setup --estimator median --quiet-warning all --json "$T/q.jsonl" | python3 -c '
import json, sys
for e in json.load(sys.stdin)["comparisons"][0]["setups"]["per_setup"]:
    for k in ("ci", "ci_adjusted"):
        # a why exactly beside each null
        print(e["n"], k, e[k] is None, e.get("why_no_" + k))')
	assert_eq "$v" "1 ci True fewer than 2 runs on a side; 1 and 1 here
1 ci_adjusted True fewer than 2 runs on a side; 1 and 1 here
2 ci True too few runs for an interval of the median: 6 a side needed; 2 and 2 here
2 ci_adjusted True too few runs for a 98.75% interval of the median: 8 a side needed; 2 and 2 here
7 ci False None
7 ci_adjusted True too few runs for a 98.75% interval of the median: 8 a side needed; 7 and 7 here
40 ci False None
40 ci_adjusted False None" "per-setup intervals and their whys"
	v=$(sh "$IL" report --compare system=A --setup setup --estimator median --quiet-warning all --csv "$T/q.jsonl" | grep -c '^setup,.*,none,,,,per setup; no interval: ')
	assert_eq "$v" 2 "CSV: the two setups without an interval say why"
else
	skip "interloper-report is not built"
fi

try "a group's untested setup effect says why (runs at or below zero): not a bare 'no test'"
if built; then
	# 3 of every setup's 7 runs are 0: its median is positive, but a
	# shuffle's hardly ever is in all 10 setups
	for s in 0 1 2 3 4 5 6 7 8 9; do
		for j in 1 2 3 4 5 6 7; do
			v=$((1000000 + s * 1000 + j * 10))
			[ "$j" -le 3 ] && v=0
			rec A "s$s" "$v"
		done
	done >"$T/zero.jsonl"
	v=$(sh "$IL" report --setup setup --estimator median --quiet-warning all --csv "$T/zero.jsonl" | grep '^setup_effect,')
	assert_match "$v" "p: could not be tested: a setup's estimate was not positive in every exchange of the runs" "CSV"
	assert_eq "$(printf '%s' "$v" | grep -c 'p: no test')" 0 "no bare 'no test'"
	v=$(sh "$IL" report --setup setup --estimator median --quiet-warning all --json "$T/zero.jsonl" |
		python3 -c 'import json, sys; g = json.load(sys.stdin)["groups"][0]["setup_effect"]; print(g["p"], g["why_no_test"] is not None)')
	assert_eq "$v" "None True" "JSON why_no_test beside a null p"
else
	skip "interloper-report is not built"
fi

try "a setup-effect test dropped to a free shuffle warns (stderr and JSON): some runs without a pass label"
if built; then
	runs 4,4,4 partial >"$T/partial.jsonl"
	sh "$IL" report --compare system=A --setup setup --json "$T/partial.jsonl" >"$T/p.json" 2>"$T/p.err"
	assert_match "$(cat "$T/p.err")" "warning: the test of a setup effect exchanged runs freely across setups, not within each pass as the records' passes ask: system=A \\(some runs have no pass label\\); system=B \\(some runs have no pass label\\); .* \\[free-exchange\\]" "stderr"
	v=$(python3 -c 'import json, sys; print(sum("[free-exchange]" in w for w in json.load(open(sys.argv[1]))["warnings"]))' "$T/p.json")
	assert_eq "$v" 1 "JSON warnings"
	runs 4,4,4 >"$T/all.jsonl"
	sh "$IL" report --compare system=A --setup setup "$T/all.jsonl" >/dev/null 2>"$T/a.err"
	assert_eq "$(grep -c free-exchange "$T/a.err")" 0 "every run with its pass: no warning"
	# a pass whose runs are all 0: its level cannot divide them
	for s in 0 1 2; do
		for j in 1 2 3 4 5; do
			v=$((1000000 + s * 1000 + j * 10))
			[ "$j" = 1 ] && v=0
			printf '{"schema":"interloper/1","labels":{"system":"A","setup":"s%s","rep":"%s"},"times":{"wall_ns":%s,"user_ns":1,"sys_ns":0}}\n' "$s" "$j" "$v"
		done
	done >"$T/level.jsonl"
	sh "$IL" report --setup setup --estimator median "$T/level.jsonl" >/dev/null 2>"$T/l.err"
	assert_match "$(cat "$T/l.err")" "all \\(a block's level, the mean of its runs or their median for a quantile, is not positive: its runs could not be divided by it\\)" "a pass's level not positive"
else
	skip "interloper-report is not built"
fi

done_testing
