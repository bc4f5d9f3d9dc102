#!/bin/sh
# stats_review.sh: what an independent review of the statistics found
# (review R2): counts of unpaired setups, comparisons whose sides share no
# setup, verdicts of changes too small for one decimal, warnings whose
# reasons were false, exact integer estimates.  Each case failed before
# its fix.
# shellcheck disable=SC1091 # sourced
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stats/cli.sh
. "$TOP/tests/stats/cli.sh"
cd "$T" || exit 1

if [ ! -x "$B/libexec/interloper-report" ]; then
	try "the statistics programs"
	skip "the statistics programs are not built; run make"
	done_testing
	exit 0
fi

# gen SPEC: records from a python expression yielding (labels, value) pairs
gen() {
	python3 -c '
import json, sys, random
random.seed(7)
for labels, v in eval(sys.argv[1]):
    print(json.dumps({"schema": "interloper/1", "labels": labels,
                      "events": {"instructions": {"value": v}}}))' "$1"
}
rep() { sh "$IL" report --metric instructions "$@"; }

try "setups_unpaired counts the setups measured on one side only (it counted every setup)"
# A in setups 0-6, B in 0-5: one unpaired setup
gen '[({"system": s, "setup": str(u)}, int(1000 * (1.1 if s == "B" else 1) * (1 + 0.01 * u) + random.randint(0, 9)))
      for u in range(7) for s in "AB" for r in range(3) if not (s == "B" and u == 6)]' >one.jsonl
rep --compare system=A --setup setup --json one.jsonl >one.json 2>one.err
assert_eq "$(js '[r["comparisons"][0][k] for k in ("setups_paired", "setups_unpaired")] + [r["comparisons"][0]["setups"]["unpaired"]]' <one.json)" \
	"[6, 1, 1]" "paired, unpaired, and the per-setup view's unpaired"
assert_match "$(cat one.err)" "1 setup has only one side and is left out" "the warning agrees"
gen '[({"system": s, "setup": str(u)}, 1000 + u + r) for u in range(4) for s in "AB" for r in range(3)]' >all.jsonl
rep --compare system=A --setup setup --json all.jsonl >all.json 2>/dev/null
assert_eq "$(js 'r["comparisons"][0]["setups_unpaired"]' <all.json)" 0 "every setup paired: none unpaired"

try "sides that share no setup: the note under the table and a warning say so"
gen '[({"system": s, "setup": str(u)}, int(1000 * (1.1 if s == "B" else 1) + random.randint(0, 30)))
      for s in "AB" for u in (range(4) if s == "A" else range(4, 9)) for r in range(3)]' >nosh.jsonl
rep --compare system=A --setup setup nosh.jsonl >nosh.out 2>nosh.err
assert_match "$(cat nosh.out)" "interval of B: no setup was measured on both sides, so the setups of the two sides are compared unpaired" "the note"
assert_match "$(cat nosh.err)" "9 setups have only one side .*0 are paired" "the warning"
# with --by, the note names the group it is about, as its verdict does
# (outside12 F2: "interval of O3" under a table of 25 benchmarks); here
# bench p shares no setup, bench q every one
gen '([({"bench": "p", "system": s, "setup": str(u)}, int(1000 * (1.1 if s == "B" else 1) + random.randint(0, 30)))
       for s in "AB" for u in (range(4) if s == "A" else range(4, 9)) for r in range(3)] +
      [({"bench": "q", "system": s, "setup": str(u)}, int(1000 * (1.1 if s == "B" else 1) + random.randint(0, 30)))
       for s in "AB" for u in range(4) for r in range(3)])' >nosh2.jsonl
rep --by bench --compare system=A --setup setup nosh2.jsonl >nosh2.out 2>/dev/null
assert_match "$(cat nosh2.out)" "interval of B \\(bench=p\\): no setup was measured on both sides" "--by: the note names its group"
assert_eq "$(grep -c 'no setup was measured on both sides' nosh2.out)" 1 "only for it"

try "a verdict keeps the digits of a change too small for one decimal, and its ends apart"
# counters near 2.5e12 with a CV of 1e-9: B is higher by 3.5e-9
gen '[({"system": s, "setup": str(u)}, int(2.5e12 * (1.0000000035 if s == "B" else 1) * (1 + random.gauss(0, 1e-9))))
      for u in range(6) for s in "AB" for r in range(4)]' >tiny.jsonl
rep --compare system=A --setup setup tiny.jsonl >tiny.out 2>/dev/null
v=$(sed -n 's/^  B vs A: \([0-9.]*% \)/\1/p' tiny.out)
assert_match "$v" "^0\\.0000003[0-9]% higher, 95% CI \\[0\\.000000[0-9]+%, 0\\.000000[0-9]+%\\]" "the verdict ($v)"
assert_true "the two ends differ" python3 -c '
import re, sys
lo, hi = re.search(r"CI \[([0-9.]+)%, ([0-9.]+)%\]", sys.argv[1]).groups()
sys.exit(lo == hi)' "$v"
gen '[({"system": s, "setup": str(u)}, int(2.5e12 * (1 / 3 if s == "B" else 1) * (1 + random.gauss(0, 1e-9))))
      for u in range(6) for s in "AB" for r in range(4)]' >third.jsonl
rep --compare system=A --setup setup third.jsonl >third.out 2>/dev/null
v=$(sed -n 's/^  B vs A: \([0-9.]*% \)/\1/p' third.out)
assert_true "a third: the ends differ, and the estimate has their decimals ($v)" python3 -c '
import re, sys
m = re.match(r"([0-9.]+)% lower, 95% CI \[([0-9.]+)%, ([0-9.]+)%\]", sys.argv[1])
est, lo, hi = m.groups()
sys.exit(not (lo != hi and len(est.split(".")[1]) == len(lo.split(".")[1]) and float(lo) <= float(est) <= float(hi)))' "$v"

try "no-reps says why: equal runs within every setup are not missing runs"
gen '[({"system": s, "setup": str(u)}, 100 if s == "A" else 120) for u in range(3) for s in "AB" for r in range(2)]' >flat.jsonl
rep --compare system=A --setup setup flat.jsonl >/dev/null 2>flat.err
assert_match "$(cat flat.err)" "the runs within every setup are equal, so the spread" "equal runs"
gen '[({"system": s, "setup": str(u)}, 100 + u if s == "A" else 120 + u) for u in range(3) for s in "AB"]' >single.jsonl
rep --compare system=A --setup setup single.jsonl >/dev/null 2>single.err
assert_match "$(cat single.err)" "no setup has two runs of each side" "one run a setup"

try "no-reps is one line however many comparisons lack repetitions, with the count of the rest (outside14 F10)"
gen '[({"system": s, "setup": str(u), "bench": "b%02d" % b}, 100 + u + b if s == "A" else 120 + u + b)
      for b in range(20) for u in range(3) for s in "AB"]' >many.jsonl
rep --compare system=A --setup setup --by bench many.jsonl >/dev/null 2>many.err
assert_eq "$(grep -c 'no-reps\]' many.err)" 1 "one no-reps line for 20 benchmarks"
assert_match "$(grep 'no-reps\]' many.err)" "^[^:]*: warning: no setup has two runs of each side, so the spread .*: bench=b00 system=B / bench=b00 system=A; .*; and 14 more; repeat runs within setups \[no-reps\]$" "the reason once, the first comparisons, then the count"

try "design-ignored suggests only labels the records carry, and speaks when one of two crossed factors is named"
gen '[({"system": s, "env_add": str(e), "layout": str(l)}, int(1000 * (1 + 0.01 * e + 0.02 * l) + random.randint(0, 9)))
      for e in range(3) for l in range(3) for s in "AB" for r in range(2)]' >cr.jsonl
rep --compare system=A cr.jsonl >/dev/null 2>cr.err
assert_match "$(grep design-ignored cr.err)" "--setup env_add,layout \\(crossed\\) \\[design-ignored\\]" "the suggestion"
assert_eq "$(grep -c -- '--setup setup' cr.err)" 0 "no --setup setup: the records have no such label"
rep --compare system=A --setup env_add cr.jsonl >/dev/null 2>cr1.err
assert_match "$(grep design-ignored cr1.err)" "the records carry layout \\(3 values\\).*--setup env_add,layout models the two as crossed" \
	"--setup env_add with layout varying"
rep --compare system=A --setup env_add,layout cr.jsonl >/dev/null 2>cr2.err
assert_eq "$(grep -c design-ignored cr2.err)" 0 "both named: no warning"

try "the estimate of a flat mean of integers above 2^53 is the exact mean"
gen '[({}, 9007199254740993) for r in range(3)]' >big.jsonl
rep --json big.jsonl >big.json 2>/dev/null
assert_eq "$(grep -o '"estimate": [0-9.]*' big.json)" '"estimate": 9007199254740993' "the estimate"

try "--levels: no bursty or outlier warning from the levels' own effects"
gen '[({"build": str(b), "exec": str(e), "iter": str(i)}, 1000 + 200 * (b == 0) + 5 * e + random.randint(0, 3))
      for b in range(4) for e in range(3) for i in range(3)]' >lv.jsonl
rep --levels build,exec,iter lv.jsonl >/dev/null 2>lv.err
assert_eq "$(grep -c '\[bursty\]\|\[outliers\]' lv.err)" 0 "warnings ($(tr '\n' ' ' <lv.err | head -c 300))"
rep lv.jsonl >/dev/null 2>lv0.err
assert_match "$(cat lv0.err)" "\\[bursty\\]|\\[outliers\\]" "without --levels the same runs do warn"

done_testing
