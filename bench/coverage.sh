#!/bin/sh
# bench/coverage.sh: the coverage of every 95% interval that interloper
# report prints, by simulation (bench/coverage.c says how the data are
# made and what each interval is checked against).  Not part of pass/fail:
# 10,000 replications of 26 scenarios take about an hour on 2 cores.
#
#   sh bench/coverage.sh [-n REPS] [-j JOBS] [-s SCENARIO] [-S SEED] [-K DIR]
#
# -K DIR writes the data sets into DIR (SCENARIO-rN.jsonl) and runs no
# report: bench/blocked.py tests them independently.
#
# Defaults: 10000 replications, one job per processor, every scenario.
set -eu

usage() {
	cat <<EOF2
usage: sh bench/coverage.sh [-n REPS] [-j JOBS] [-s SCENARIO] [-S SEED] [-K DIR]
Simulate data with a known truth, run interloper report on each data set and
print how often each reported 95% interval covers the truth; with -K, write
the data sets into DIR instead.
EOF2
}

die() {
	echo "bench/coverage.sh: $*" >&2
	exit 1
}

case "${1:-}" in
-h | --help)
	usage
	exit 0
	;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
report="$top/build/libexec/interloper-report"
[ -x "$report" ] || die "$report is missing; run make first"
mkdir -p "$top/build/bench"
prog="$top/build/bench/coverage"
# Built every time: a second, and never stale.
if true; then
	${CC:-cc} -O2 -std=c11 -Wall -Wextra -o "$prog" "$top/bench/coverage.c" -ljansson -lm ||
		die "cannot build $prog (needs libjansson-dev)"
fi
jobs=$(nproc 2>/dev/null || echo 2)
have_j=0
for a in "$@"; do [ "$a" = -j ] && have_j=1; done
if [ "$have_j" = 1 ]; then
	exec "$prog" "$@" "$report"
fi
exec "$prog" -j "$jobs" "$@" "$report"
