#!/bin/sh
# Threads ending the process at the same moment: exactly one record, its
# ending equal to the wait status, and no hang.  A few hundred runs per
# pattern here; `make stress` runs 10,000 of each (bench/stress.sh).
# timeout: 900
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
RC="$PROGS/racecheck"
RACER="$PROGS/racer"
# shellcheck disable=SC3045 # no core files from abort(); not POSIX, hence the guard
ulimit -c 0 2>/dev/null || true
N=${IL_RACE_RUNS:-150}

race() { # race WHAT RUNS ARGS...
	_w=$1 _n=$2
	shift 2
	try "$_w: one record that agrees with the wait status, no hang ($_n runs)"
	out=$("$RC" -n "$_n" -t 10 -o "$T" -l "$LIB" -- "$RACER" "$@" 2>"$T/rc.err")
	assert_eq "$?" 0 "racecheck status ($out; $(head -n 3 "$T/rc.err"))"
	assert_match "$out" "^runs $_n hangs 0 lost 0 extra 0 mismatches 0 " "summary"
}

race "an atexit handler joins a worker that calls exit (main returns)" 20 join return
race "an atexit handler joins a worker that calls exit (main calls exit)" 20 join exit
race "libmonitor's exit pattern: 3 threads call exit(0) as main returns" "$N" all-exit 3
for main in return exit; do
	for act in exit _exit abort; do
		race "main ${main}s, 4 threads $act at once" "$N" "$main" "$act" 4
	done
	race "main ${main}s with an atexit handler, 2 threads exit at once" "$N" "$main" exit 2 atexit
	race "main ${main}s, 8 threads exit at once" "$N" "$main" exit 8
done
race "main returns, threads return" 30 return return 4

try "the join pattern ends with the worker's status, as without the library"
"$RC" -n 5 -t 10 -o "$T" -- "$RACER" join exit >"$T/plain" 2>&1
"$RC" -n 5 -t 10 -o "$T" -l "$LIB" -- "$RACER" join exit >"$T/lib" 2>&1
assert_match "$(cat "$T/plain")" "\| status 3: 5$" "without"
assert_match "$(cat "$T/lib")" "\| status 3: 5$" "with"

done_testing
