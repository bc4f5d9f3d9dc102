#!/bin/sh
# stats_design.sh: the intervals of interloper report through the command,
# against values computed independently (tests/stats/oracle/: mpmath for
# Fieller at tiny CVs, base R for the rest): Fieller at CVs from 1e-12 to
# 0.5, Welch's df at the ratio, the pooled variance, the paired and the
# crossed design, quantile intervals; the per-setup view's claims on data
# without and with a setup effect; --speedup, Holm and the suite.
# shellcheck disable=SC1091,SC2046,SC2086 # sourced; fields split on purpose
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stats/cli.sh
. "$TOP/tests/stats/cli.sh"

ORACLE="$TOP/tests/stats/oracle"

built() {
	[ -x "$B/libexec/interloper-report" ]
}


# oracle NAME: the value of NAME in stats.out.
oracle() {
	sed -n "s/^$1 //p" "$ORACLE/stats.out"
}

# close GOT WANT REL: |GOT - WANT| <= REL |WANT|.
close() {
	python3 -c 'import sys; g, w, r = map(float, sys.argv[1:]); sys.exit(0 if abs(g - w) <= r * abs(w) else 1)' "$1" "$2" "$3"
}

# rec SYSTEM VALUE LABELS: one record.
rec() {
	printf '{"schema":"interloper/1","labels":{"system":"%s"%s},"times":{"wall_ns":%s}}\n' "$1" "${3:-}" "$2"
}

try "Fieller keeps its digits at coefficients of variation from 1e-12 to 0.5 (mpmath oracle)"
if built; then
	# Each end within 1e-6 of the width, plus the doubles' own rounding.
	while read -r name kind lo hi df; do
		case $name in '#'*) continue ;; esac
		out=$(sh "$IL" report --metric instructions --compare system=old --json "$ORACLE/fieller_cv/$name.jsonl" 2>/dev/null)
		got=$(printf '%s' "$out" | js '"%s %r %r %r" % (r["comparisons"][0]["ci_kind"], *(r["comparisons"][0]["ci"] or [0, 0]), r["comparisons"][0]["df"])')
		set -- $got
		assert_eq "$1" "$kind" "$name: kind"
		err=$(python3 -c '
import sys
from fractions import Fraction as F
lo, hi, glo, ghi, df, gdf = (F(x) for x in sys.argv[1:])
w = hi - lo
e = max(abs(glo - lo), abs(ghi - hi)) / w
ok = abs(glo - lo) <= w / 10**6 + abs(lo) * F(4, 10**16) and abs(ghi - hi) <= w / 10**6 + abs(hi) * F(4, 10**16) and abs(gdf - df) <= df / 10**9
print("%.3g" % float(e), "ok" if ok else "bad")' "$lo" "$hi" "$2" "$3" "$df" "$4")
		assert_eq "${err#* }" ok "$name: [$2, $3] against [$lo, $hi], df $4 against $df (error ${err% *} of the width)"
	done <"$ORACLE/fieller_cv.out"
else
	skip "the statistics programs are not built; run make"
fi

x="10.2 9.8 10.5 10.1 9.9 10.4 10.0 10.3"
y="9.6 9.9 9.4 9.7 9.5 9.8 9.3 9.9 9.6 9.7"

try "Welch's df is taken at the estimated ratio; --pooled is the textbook pooled variance (R oracle)"
if built; then
	{
		for v in $x; do rec old "$v"; done
		for v in $y; do rec new "$v"; done
	} >"$T/xy.jsonl"
	out=$(sh "$IL" report --compare system=old --json "$T/xy.jsonl" 2>/dev/null)
	set -- $(printf '%s' "$out" | js '"%r %r %r" % (r["comparisons"][0]["df"], *r["comparisons"][0]["ci"])')
	assert_true "Welch df $1" close "$1" "$(oracle welch_df)" 1e-9
	assert_true "Welch lo $2" close "$2" "$(oracle welch_lo)" 1e-9
	assert_true "Welch hi $3" close "$3" "$(oracle welch_hi)" 1e-9
	out=$(sh "$IL" report --compare system=old --pooled --json "$T/xy.jsonl" 2>/dev/null)
	set -- $(printf '%s' "$out" | js '"%r %r %r" % (r["comparisons"][0]["df"], *r["comparisons"][0]["ci"])')
	assert_eq "$1" 16.0 "pooled df"
	assert_true "pooled lo $2" close "$2" "$(oracle pooled_lo)" 1e-9
	assert_true "pooled hi $3" close "$3" "$(oracle pooled_hi)" 1e-9
else
	skip "the statistics programs are not built; run make"
fi

try "--setup pairs the systems by setup: Fieller over setup means with their covariance (R oracle)"
if built; then
	au="101.2 98.4 103.9 99.1 102.5 97.8"
	bu="100.1 99.0 101.7 98.2 100.9 99.6"
	{
		i=0
		for v in $au; do i=$((i + 1)); rec new "$v" ",\"setup\":\"s$i\""; done
		i=0
		for v in $bu; do i=$((i + 1)); rec old "$v" ",\"setup\":\"s$i\""; done
	} >"$T/paired.jsonl"
	out=$(sh "$IL" report --compare system=old --setup setup --json "$T/paired.jsonl" 2>/dev/null)
	set -- $(printf '%s' "$out" | js '"%r %r %r %s" % (*r["comparisons"][0]["ci"], r["comparisons"][0]["df"], r["comparisons"][0]["setups_paired"])')
	assert_true "paired lo $1" close "$1" "$(oracle paired_lo)" 1e-9
	assert_true "paired hi $2" close "$2" "$(oracle paired_hi)" 1e-9
	assert_eq "$3 $4" "5.0 6" "setups - 1 df over 6 paired setups"
	assert_match "$(printf '%s' "$out" | js 'r["comparisons"][0]["verdict"]')" 'over 6 paired setups' "the verdict quotes the design"
else
	skip "the statistics programs are not built; run make"
fi

try "--setup A,B models two crossed labels: the group interval over the cells (R oracle)"
if built; then
	cells="10.3 11.1 9.7 10.9 12.0 10.1 9.5 10.8 9.2 11.4 12.6 10.8"
	i=0
	for v in $cells; do
		rec O2 "$v" ",\"env_add\":\"e$((i / 3))\",\"layout\":\"r$((i % 3))\""
		i=$((i + 1))
	done >"$T/crossed.jsonl"
	out=$(sh "$IL" report --setup env_add,layout --json "$T/crossed.jsonl" 2>/dev/null)
	set -- $(printf '%s' "$out" | js '"%r %r %r" % (*r["groups"][0]["ci"], r["groups"][0]["ci_df"])')
	assert_true "df $3" close "$3" "$(oracle crossed_df)" 1e-9
	assert_true "centre" close "$(python3 -c "print(($1 + $2) / 2)")" "$(oracle crossed_mean)" 1e-12
	assert_true "half-width" close "$(python3 -c "print(($2 - $1) / 2)")" "$(oracle crossed_hw)" 1e-9
else
	skip "the statistics programs are not built; run make"
fi

try "records that carry setup labels the command does not name get a warning naming the option"
if built; then
	for s in 1 2 3; do for r in 1 2; do
		rec O2 $((100 + s)) ",\"setup\":\"s$s\",\"env_add\":\"$s\",\"layout\":\"r$r\""
		rec O3 $((99 + s)) ",\"setup\":\"s$s\",\"env_add\":\"$s\",\"layout\":\"r$r\""
	done; done >"$T/sweep.jsonl"
	err=$(sh "$IL" report --compare system=O2 "$T/sweep.jsonl" 2>&1 >/dev/null)
	assert_match "$err" 'the records carry setup \(3 values\), env_add \(3 values\), layout \(2 values\), which the intervals ignore: .*--setup env_add,layout \(crossed\) or --setup setup \[design-ignored\]' "flat"
	err=$(sh "$IL" report --compare system=O2 --setup setup "$T/sweep.jsonl" 2>&1 >/dev/null)
	assert_match "$err" 'setups that share a value of either share its effect; --setup env_add,layout models the two as crossed' "one label over crossed setups"
	err=$(sh "$IL" report --compare system=O2 --setup env_add,layout "$T/sweep.jsonl" 2>&1 >/dev/null)
	assert_eq "$(printf '%s\n' "$err" | grep -c 'design-ignored')" 0 "not once named"
	out=$(sh "$IL" report --compare system=O2 --json "$T/sweep.jsonl" 2>/dev/null)
	assert_match "$(printf '%s' "$out" | js 'r["comparisons"][0]["ci_method"]')" 'runs independent' "the flat interval says what it assumes"
else
	skip "the statistics programs are not built; run make"
fi

try "--levels combines with --compare: the headline uses the top level"
if built; then
	for sys in old new; do for e in 1 2 3 4; do for i in 1 2 3; do
		rec "$sys" "$([ $sys = new ] && echo 9 || echo 10)$e.$i" ",\"exec\":\"$e\",\"iter\":\"$i\""
	done; done; done >"$T/levels.jsonl"
	out=$(sh "$IL" report --compare system=old --levels exec,iter --json "$T/levels.jsonl" 2>/dev/null)
	assert_eq "$?" 0 "exit status"
	assert_eq "$(printf '%s' "$out" | js '(r["comparisons"][0]["df"], r["comparisons"][0]["setups_paired"], len(r["groups"][0]["levels"]["S2"]))')" \
		"(3.0, 4, 2)" "4 executions paired, 3 df; levels per group"
else
	skip "the statistics programs are not built; run make"
fi

# setups FILE EFFECT: 24 setups x 5 runs of O2 and O3; O3's setup effect
# has sd EFFECT (0: none), run noise sd 1%.
setups() {
	awk -v eff="$2" -v seed="$3" 'function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
	BEGIN {
		srand(seed)
		for (s = 0; s < 24; s++) {
			u = 0.03 * gauss(); v = eff * gauss()
			for (r = 0; r < 5; r++) {
				printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"O2\",\"setup\":\"s%d\"},\"times\":{\"wall_ns\":%.3f}}\n", s, 1e6 * (1 + u) * (1 + 0.01 * gauss())
				printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"O3\",\"setup\":\"s%d\"},\"times\":{\"wall_ns\":%.3f}}\n", s, 1e6 * (1 + u) * (1 + v) * (1 + 0.01 * gauss())
			}
		}
	}' >"$1"
}

try "no setup effect: the per-setup ratios straddle 1, but the report does not claim either conclusion"
if built; then
	claims=0
	for seed in 1 2 3 4 5; do
		setups "$T/aa.jsonl" 0 "$seed"
		out=$(sh "$IL" report --compare system=O2 --setup setup --json "$T/aa.jsonl" 2>/dev/null)
		raw=$(printf '%s' "$out" | js 'r["comparisons"][0]["setups"]["raw_straddles_one"]')
		assert_eq "$raw" True "seed $seed: noise alone spreads the ratios across 1"
		c=$(printf '%s' "$out" | js 'r["comparisons"][0]["setups"]["straddles_one"]')
		[ "$c" = True ] && claims=$((claims + 1))
		v=$(printf '%s' "$out" | js 'r["comparisons"][0]["verdict"]')
		case $v in *"either conclusion"*) [ "$c" = True ] || claims=$((claims + 10)) ;; esac
	done
	assert_eq "$claims" 0 "no claim of a setup effect in 5 experiments"
else
	skip "the statistics programs are not built; run make"
fi

try "the setup-effect test keeps its digits on counters with a coefficient of variation of 1e-9"
if built; then
	for seed in 1 2 3 4; do
		awk -v seed="$seed" 'function g() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
		BEGIN { srand(seed)
			for (s = 0; s < 12; s++) for (r = 0; r < 5; r++) for (y = 0; y < 2; y++)
				printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"%s\",\"setup\":\"s%d\"},\"events\":{\"instructions\":{\"value\":%.0f}}}\n", y ? "B" : "A", s, 2.5e12 * (1 + 1e-9 * g())
		}' >"$T/cnt.jsonl"
		p=$(sh "$IL" report --metric instructions --compare system=A --setup setup --json "$T/cnt.jsonl" 2>/dev/null |
			js 'r["comparisons"][0]["setups"]["heterogeneity"]["p"]')
		assert_eq "$(python3 -c "print($p > 0.05)")" True "A/A counters, data $seed: no setup effect (p = $p)"
	done
else
	skip "the statistics programs are not built; run make"
fi

try "report --compare --setup holds each run once (in its setup's order), and its comparisons are those of a report that keeps every record"
if built; then
	# 20 setups x 3 passes, the passes outermost as a sweep writes them, so
	# that a setup's runs are not consecutive: the flat interval's sums and
	# the median's bootstrap draws follow the input order, which the report
	# gives back from the setups' order (analyze.c, drop_runs); --attribute
	# keeps every record's runs as read.  Half of B's runs on a second host:
	# the hosts' warning needs the records' host labels after the setups.
	awk 'BEGIN { srand(7)
		for (r = 1; r <= 3; r++) for (s = 0; s < 20; s++) for (y = 0; y < 2; y++)
			printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"%s\",\"setup\":\"s%d\",\"rep\":\"%d\"},\"host\":\"%s\",\"times\":{\"wall_ns\":%.3f}}\n", y ? "B" : "A", s, r, y && s < 10 ? "h2" : "h1", 1e6 * (1 + 0.01 * s) * (1 + 0.02 * rand())
	}' >"$T/order.jsonl"
	for est in mean median; do
		sh "$IL" report --compare system=A --setup setup --estimator $est --json "$T/order.jsonl" >"$T/lean.json" 2>"$T/lean.err"
		assert_eq "$?" 0 "$est: exit status"
		sh "$IL" report --compare system=A --setup setup --estimator $est --attribute --json "$T/order.jsonl" >"$T/all.json" 2>/dev/null
		same=$(python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
b.pop("attribution", None)
print([k for k in set(a) | set(b) if a.get(k) != b.get(k)] or "same")' "$T/lean.json" "$T/all.json")
		assert_eq "$same" same "$est: the fields that differ from --attribute's"
		assert_match "$(cat "$T/lean.err")" "h2: 30 and 0 runs.*\[hosts\]" "$est: the hosts' warning"
		assert_eq "$(js 'r["comparisons"][0]["flat"]["ci_kind"]' <"$T/lean.json")" bounded "$est: a flat interval"
	done
else
	skip "the statistics programs are not built; run make"
fi

try "a system-specific setup effect of 3% is detected and claimed"
if built; then
	setups "$T/eff.jsonl" 0.03 7
	out=$(sh "$IL" report --compare system=O2 --setup setup --json "$T/eff.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js 'r["comparisons"][0]["setups"]["heterogeneity"]["p"] < 0.01')" True "the test rejects"
	assert_eq "$(printf '%s' "$out" | js 'r["comparisons"][0]["setups"]["straddles_one"]')" True "either conclusion"
	tau=$(printf '%s' "$out" | js 'r["comparisons"][0]["setups"]["heterogeneity"]["tau_ci"]')
	assert_eq "$(python3 -c "lo, hi = $tau; print(lo < 0.03 < hi)")" True "the setup sd's interval holds 3%: $tau"
	assert_match "$(printf '%s' "$out" | js 'r["comparisons"][0]["verdict"]')" 'one setup alone could have shown either conclusion' "said"
	# The flat interval of the same data is far narrower than the design's.
	w=$(printf '%s' "$out" | js '(lambda c: (c["ci"][1] - c["ci"][0]) / (c["flat"]["ci"][1] - c["flat"]["ci"][0]))(r["comparisons"][0])')
	assert_eq "$(python3 -c "print($w > 1.3)")" True "the design widens the interval ($w times)"
else
	skip "the statistics programs are not built; run make"
fi

try "the per-setup summary is the geometric mean with its interval in log space"
if built; then
	out=$(sh "$IL" report --compare system=O2 --setup setup --json "$T/eff.jsonl" 2>/dev/null)
	v=$(printf '%s' "$out" | python3 -c '
import json, math, sys
s = json.load(sys.stdin)["comparisons"][0]["setups"]
r = [e["ratio"] for e in s["per_setup"]]
gm = math.exp(sum(map(math.log, r)) / len(r))
print(abs(gm - s["geomean"]) < 1e-12 * gm, s["geomean_ci"][0] < gm < s["geomean_ci"][1], len(r))')
	assert_eq "$v" "True True 24" "geomean of the 24 ratios"
else
	skip "the statistics programs are not built; run make"
fi

try "--speedup reports baseline/value in the JSON, the table and the verdict"
if built; then
	out=$(sh "$IL" report --compare system=old --speedup --json "$T/xy.jsonl" 2>/dev/null)
	set -- $(printf '%s' "$out" | js '"%r %r %r %s" % (r["comparisons"][0]["ratio"], *r["comparisons"][0]["ci"], r["direction"])')
	assert_true "1 / ratio" close "$1" "$(python3 -c 'print(10.15 / 9.64)')" 1e-12
	assert_eq "$4" "baseline/value" "direction"
	assert_eq "$(python3 -c "print($2 < $1 < $3)")" True "the interval holds it"
	txt=$(sh "$IL" report --compare system=old --speedup "$T/xy.jsonl" 2>/dev/null)
	assert_match "$txt" 'comparisons: speedup of means, baseline/value' "table"
	assert_match "$txt" 'new vs old: speedup 1\.05' "verdict"
else
	skip "the statistics programs are not built; run make"
fi

try "over a suite the per-benchmark verdicts are adjusted by Holm, and the suite interval holds each benchmark's uncertainty"
if built; then
	# Two benchmarks with wide intervals and nearly equal ratios (issue 8:
	# [1.1%, 8.5%] and [2.6%, 6.9%] once gave a suite interval [4.6%, 4.8%]).
	awk 'function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
	BEGIN { srand(11)
		for (b = 0; b < 2; b++) for (i = 0; i < 8; i++) {
			printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"b%d\",\"system\":\"old\"},\"times\":{\"wall_ns\":%.2f}}\n", b, 1000 * (1 + 0.03 * gauss())
			printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"b%d\",\"system\":\"new\"},\"times\":{\"wall_ns\":%.2f}}\n", b, 1047 * (1 + 0.03 * gauss())
		}
	}' >"$T/suite.jsonl"
	out=$(sh "$IL" report --by bench --compare system=old --json "$T/suite.jsonl" 2>/dev/null)
	v=$(printf '%s' "$out" | python3 -c '
import json, math, sys
r = json.load(sys.stdin)
c = r["comparisons"]
lw = lambda ci: math.log(ci[1]) - math.log(ci[0])
s = r["suite"]
# with two benchmarks the mean of logs has half the variance of one: its
# interval is at least a third of the narrower benchmark interval
print(lw(s["ci"]) > min(lw(x["ci"]) for x in c) / 3)
p = sorted(x["p"] for x in c)
holm = [min(1, max((len(p) - j) * p[j] for j in range(i + 1))) for i in range(len(p))]
print(sorted(x["p_holm"] for x in c) == sorted(holm))')
	assert_eq "$(printf '%s' "$v" | head -n 1)" True "the suite interval is not narrower than its parts allow"
	assert_eq "$(printf '%s' "$v" | tail -n 1)" True "p_holm is Holm's adjustment of p"
	assert_match "$(printf '%s' "$out" | js 'r["comparisons"][0]["verdict"]')" 'adjusted for the benchmarks compared \(Holm\)' "the verdict says so"
else
	skip "the statistics programs are not built; run make"
fi

try "--estimator median and pNN: order-statistic intervals for groups (R oracle), bootstrap for ratios; min has none"
if built; then
	xs="58.9 62.1 59.4 61.7 58.5 63.0 59.9 60.2 58.7 64.4 59.1 60.8 61.2 58.6 59.6 62.7 60.0 58.8 65.1 59.3 60.5 59.0 61.0 58.4 62.3 59.8 60.1 58.95 63.6 59.45"
	{
		for v in $xs; do rec O2 "$v"; done
		for v in $xs; do rec O3 "$(python3 -c "print($v * 1.02)")"; done
	} >"$T/q.jsonl"
	for q in p10 median; do
		o=q10
		[ $q = median ] && o=q50
		out=$(sh "$IL" report --where system=O2 --estimator $q --json "$T/q.jsonl" 2>/dev/null)
		set -- $(printf '%s' "$out" | js '"%r %r %r" % (r["groups"][0]["estimate"], *r["groups"][0]["ci"])')
		assert_true "$q $1" close "$1" "$(oracle $o)" 1e-12
		assert_true "$q lo $2" close "$2" "$(oracle ${o}_lo)" 1e-12
		assert_true "$q hi $3" close "$3" "$(oracle ${o}_hi)" 1e-12
	done
	out=$(sh "$IL" report --compare system=O2 --estimator p10 --json "$T/q.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '(round(r["comparisons"][0]["ratio"], 9), r["comparisons"][0]["ci_kind"], r["comparisons"][0]["ci"][0] <= 1.02 <= r["comparisons"][0]["ci"][1])')" \
		"(1.02, 'bounded', True)" "ratio of p10s with a bootstrap interval"
	out=$(sh "$IL" report --compare system=O2 --estimator min --json "$T/q.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '(r["comparisons"][0]["ci_kind"], r["comparisons"][0]["ci"], r["groups"][0]["ci"])')" \
		"('none', None, None)" "the minimum has no interval"
else
	skip "the statistics programs are not built; run make"
fi

try "a ratio of quantiles has a bootstrap interval only from the runs of an order-statistic interval (median 6 a side, p10 29)"
if built; then
	# With fewer, the percentile bootstrap covers far below 95% (3 a side:
	# 89%, review R2 finding 1; bench/coverage.sh -s flat-median-3).
	qcase() { # N ESTIMATOR: ci bounded?, ci_method
		python3 -c '
import sys
xs = sys.argv[2].split()[:int(sys.argv[1])]
for s, f in (("O2", 1), ("O3", 1.5)):
    for v in xs:
        print("{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"%s\"},\"times\":{\"wall_ns\":%r}}" % (s, float(v) * f))' "$1" "$xs" >"$T/qn.jsonl"
		sh "$IL" report --compare system=O2 --estimator "$2" --json "$T/qn.jsonl" 2>/dev/null |
			js '"%s: %s" % (r["comparisons"][0]["ci"] is not None, r["comparisons"][0]["ci_method"])'
	}
	assert_eq "$(qcase 3 median)" "False: too few runs for an interval of the median: 6 a side needed" "median, 3 a side: none, and why"
	assert_eq "$(qcase 5 median)" "False: too few runs for an interval of the median: 6 a side needed" "median, 5 a side: none"
	assert_eq "$(qcase 6 median)" "True: bootstrap, runs resampled within each side" "median, 6 a side: a bootstrap interval"
	assert_eq "$(qcase 28 p10)" "False: too few runs for an interval of the 10th percentile: 29 a side needed" "p10, 28 a side: none"
	assert_eq "$(qcase 29 p10)" "True: bootstrap, runs resampled within each side" "p10, 29 a side: a bootstrap interval"
	assert_eq "$(qcase 2 p90)" "False: too few runs for an interval of the 90th percentile: 29 a side needed" "p90 names its percentile"
	qcase 3 median >/dev/null
	assert_match "$(sh "$IL" report --compare system=O2 --estimator median "$T/qn.jsonl" 2>/dev/null | tail -n 1)" \
		'ratio 1\.5; no interval \(too few runs for an interval of the median: 6 a side needed\)' "the verdict says why"
	# Per setup: 3 setups x 6 runs have a 95% interval of the median each,
	# but not the Bonferroni one at 1 - 0.05/3 (7 runs needed): no setup
	# then counts above or below 1, even where the ratio is 1.5.
	python3 -c '
xs = [100, 103, 99, 101, 98, 102]
for u in range(3):
    for s, f in (("O2", 1), ("O3", 1.5)):
        for v in xs:
            print("{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"%s\",\"setup\":\"s%d\"},\"times\":{\"wall_ns\":%r}}" % (s, u, v * f * (1 + u / 100)))' >"$T/qs.jsonl"
	v=$(sh "$IL" report --compare system=O2 --setup setup --estimator median --json "$T/qs.jsonl" 2>/dev/null |
		js '"%s %s %d %d %s" % (all(p["ci"] for p in r["comparisons"][0]["setups"]["per_setup"]), [p["ci_adjusted"] for p in r["comparisons"][0]["setups"]["per_setup"]], r["comparisons"][0]["setups"]["above_one"], r["comparisons"][0]["setups"]["below_one"], r["comparisons"][0]["setups"]["straddles_one"])')
	assert_eq "$v" "True [None, None, None] 0 0 False" "6 runs a setup: a 95% interval per setup, no adjusted one, nothing counted"
	assert_match "$(sh "$IL" report --compare system=O2 --setup setup --estimator median "$T/qs.jsonl" 2>/dev/null)" \
		'3 of 3 setups have no adjusted interval \(too few runs for a 98\.33% interval of the median: 7 a side needed\)' \
		"the text says why"
else
	skip "the statistics programs are not built; run make"
fi
done_testing
