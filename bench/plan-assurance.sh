#!/bin/sh
# bench/plan-assurance.sh: does interloper plan reach its target half-width
# as often as it says?  Simulated pilots and real experiments from a known
# truth (bench/plan-assurance.c says how), planned with the functions that
# interloper plan uses.  Not part of pass/fail: 1,000 simulated
# experiments of each of 9 scenarios take about 15 minutes on a loaded
# 2-core VM (the default is 2,000).
#
#   sh bench/plan-assurance.sh [-n SIMS] [-s SCENARIO] [-S SEED] [-v]
#
# Columns: the mean stated probability, the fraction of real experiments
# that met the target, their difference and its binomial standard error
# (points), how many pilots could not estimate the top level (and among
# them met/stated), the mean runs of the planned real experiment, and the
# runs of a naive design (30 runs per setup) that meets the target as
# often, from the true variances.  -v adds a calibration table by stated
# probability.  Exit status 1 when a scenario is off by more than 3 points.
set -eu

case "${1:-}" in
-h | --help)
	sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
	exit 0
	;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
lib="$top/build/stats/libilstats.a"
[ -f "$lib" ] || {
	echo "bench/plan-assurance.sh: $lib is missing; run make first" >&2
	exit 1
}
mkdir -p "$top/build/bench"
prog="$top/build/bench/plan-assurance"
${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE -Wall -Wextra -I"$top/include" -I"$top/stats" \
	-o "$prog" "$top/bench/plan-assurance.c" "$lib" \
	-ljansson -lz -lzstd -lpthread -lgsl -lgslcblas -lm
exec "$prog" "$@"
