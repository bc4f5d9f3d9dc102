#!/bin/sh
# bench/passes-coverage.sh: how often the suite's intervals cover the true
# ratio (1: an A/A suite) when a harness runs each system's whole suite in
# passes and every pass has a level of its own (machine load, drift):
# the interval over benchmarks for these benchmarks, for benchmarks like
# these, and the interval with the pass as the unit (suitepass.c), and
# how often [pass-shift] fires.
#
#   sh bench/passes-coverage.sh [-n DATASETS] [-b BENCHMARKS] [-o ORDER]
#                               [-p PASS_SD] [-e NOISE_SD] [-s SEED]
# ORDER: the passes, a word of A and B (default ABABAB); PASS_SD: the sd
# of a pass's level in log space (default 0.03; 0: no pass effect);
# NOISE_SD: each run's (default 0.01).  Benchmarks' sizes spread by a
# factor e; one run per benchmark a pass.  Prints the coverages.
set -eu
n=200 nb=20 order=ABABAB psd=0.03 esd=0.01 seed=1
while getopts n:b:o:p:e:s: c; do
	case $c in
	n) n=$OPTARG ;;
	b) nb=$OPTARG ;;
	o) order=$OPTARG ;;
	p) psd=$OPTARG ;;
	e) esd=$OPTARG ;;
	s) seed=$OPTARG ;;
	*) exit 2 ;;
	esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
rep=$top/build/libexec/interloper-report
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
i=0
while [ "$i" -lt "$n" ]; do
	awk -v seed=$((seed * 100003 + i)) -v nb="$nb" -v order="$order" -v psd="$psd" -v esd="$esd" '
	function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand()) }
	BEGIN {
		srand(seed)
		for (b = 0; b < nb; b++) size[b] = 1e6 * exp(gauss())
		for (k = 1; k <= length(order); k++) {
			s = substr(order, k, 1)
			lv = psd * gauss()
			for (b = 0; b < nb; b++)
				printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"b%d\",\"system\":\"%s\"},\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0}}\n", b, s, size[b] * exp(lv + esd * gauss())
		}
	}' >"$t/d.jsonl"
	"$rep" --by bench --compare system=A --json --quiet-warning all "$t/d.jsonl" 2>/dev/null |
		python3 -c '
import json, sys
j = json.load(sys.stdin)
s = j["suite"]
p = s.get("passes") or {}
cov = lambda ci: "1" if ci and ci[0] <= 1 <= ci[1] else "0"
shift = any("[pass-shift]" in w for w in j.get("warnings", []))
print(cov(s["ci"]), cov(s["ci_benchmarks"]), cov(p.get("ci")), int(shift))'
	i=$((i + 1))
done | awk -v n="$n" '{ a += $1; b += $2; c += $3; w += $4 }
END {
	printf "%d data sets: covered 1: these benchmarks %.1f%%, benchmarks like these %.1f%%, pass as the unit %.1f%%; [pass-shift] in %.1f%%\n",
		n, 100 * a / n, 100 * b / n, 100 * c / n, 100 * w / n
}'
