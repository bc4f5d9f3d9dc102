#!/bin/sh
# bench/suite-layouts-coverage.sh: how often the suite's intervals cover
# the true ratio (1: an A/A suite) when every benchmark runs in the same
# link layouts (one `interloper build`, one sweep plan for every input)
# and each layout moves the two systems' ratio for every benchmark at
# once: the report's intervals with the shared setups as the unit
# (suiteshare.c) against the intervals that take the benchmarks as
# independent (the JSON's suite.shared_setups).  outside15 H1.
#
#   sh bench/suite-layouts-coverage.sh [-n DATASETS] [-b BENCHMARKS]
#       [-l LAYOUTS] [-v ENV_SIZES] [-r REPS] [-d LAYOUT_SD] [-i INTER_SD]
#       [-e NOISE_SD] [-s SEED]
# LAYOUT_SD: the sd in log space of a layout's effect on the ratio, shared
# by every benchmark (default 0.01); INTER_SD: a benchmark's own part of it
# (default 0.004); NOISE_SD: each run's (default 0.005).  With ENV_SIZES >
# 1 the setups are env_add x layout, crossed, and the environment size
# has a shared effect of LAYOUT_SD / 2.  Truth: every effect has mean 0
# over its population, so the ratio is 1.  Prints the coverages.
# -k FILE: write one data set (the first) to FILE and stop.
set -eu
n=200 nb=6 nl=8 ne=1 reps=2 lsd=0.01 isd=0.004 esd=0.005 seed=1 keep=
while getopts n:b:l:v:r:d:i:e:s:k: c; do
	case $c in
	n) n=$OPTARG ;;
	b) nb=$OPTARG ;;
	l) nl=$OPTARG ;;
	v) ne=$OPTARG ;;
	r) reps=$OPTARG ;;
	d) lsd=$OPTARG ;;
	i) isd=$OPTARG ;;
	e) esd=$OPTARG ;;
	s) seed=$OPTARG ;;
	k) keep=$OPTARG ;;
	*) exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
rep=$top/build/libexec/interloper-report
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
setup=layout
[ "$ne" -gt 1 ] && setup=env_add,layout
i=0
while [ "$i" -lt "$n" ]; do
	awk -v seed=$((seed * 100003 + i)) -v nb="$nb" -v nl="$nl" -v ne="$ne" -v reps="$reps" \
		-v lsd="$lsd" -v isd="$isd" -v esd="$esd" '
	function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
	BEGIN {
		srand(seed)
		for (b = 0; b < nb; b++) size[b] = 1e6 * exp(gauss())
		for (l = 0; l < nl; l++) { lay[l] = 0.05 * gauss(); dl[l] = lsd * gauss() }
		for (e = 0; e < ne; e++) { env[e] = 0.02 * gauss(); de[e] = ne > 1 ? lsd / 2 * gauss() : 0 }
		for (b = 0; b < nb; b++) for (l = 0; l < nl; l++) for (e = 0; e < ne; e++) {
			x = isd * gauss()
			for (q = 0; q < reps; q++) for (s = 0; s < 2; s++) {
				v = size[b] * exp(lay[l] + env[e] + (s ? dl[l] + de[e] + x : 0) + esd * gauss())
				lab = sprintf("\"bench\":\"b%d\",\"system\":\"%s\",\"layout\":\"%02d\"", b, s ? "B" : "A", l)
				if (ne > 1) lab = lab sprintf(",\"env_add\":\"%d\"", 256 * e)
				printf "{\"schema\":\"interloper/1\",\"labels\":{%s},\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0}}\n", lab, v
			}
		}
	}' >"$t/d.jsonl"
	if [ -n "$keep" ]; then
		cp "$t/d.jsonl" "$keep"
		break
	fi
	"$rep" --by bench --compare system=A --setup "$setup" --json --quiet-warning all "$t/d.jsonl" 2>/dev/null |
		python3 -c '
import json, sys
s = json.load(sys.stdin)["suite"]
h = s.get("shared_setups") or {}
cov = lambda ci: "1" if ci and ci[0] <= 1 <= ci[1] else "0"
print(cov(s["ci"]), cov(s["ci_benchmarks"]), cov(h.get("ci_independent")), cov(h.get("ci_benchmarks_independent")))'
	i=$((i + 1))
done | awk -v n="$n" -v keep="$keep" '{ a += $1; b += $2; c += $3; d += $4 }
END {
	if (keep != "") exit
	printf "%d data sets: covered 1: setups as the unit: these benchmarks %.1f%%, benchmarks like these %.1f%%; benchmarks as independent: these %.1f%%, like these %.1f%%\n",
		n, 100 * a / n, 100 * b / n, 100 * c / n, 100 * d / n
}'
