#!/bin/sh
# bench/inherit.sh: what the library adds to a parent's counts under
# INTERLOPER_INHERIT=all (the default), next to perf stat on the same
# command.  Not a test: it reports figures.
#
#   sh bench/inherit.sh [REPS]      (default 10 repetitions of each)
#
# Two workloads: a sh -c loop of 100 /bin/true (children that do almost
# nothing: the worst case), and make -j2 of a 12-file C program (the one
# in tests/link).  Each repetition runs the workload under perf stat and
# under the library, alternately, so that the load of a shared machine
# hits both alike; the parent's record (sh, make) gives the library's
# figures.  "per child" divides the difference of the medians by the
# number of exec'd children the records show.
set -eu
cd "$(dirname "$0")/.."
REPS=${1:-10}
LIB=$(pwd)/build/libinterloper.so
[ -f "$LIB" ] || {
	echo "build first: make" >&2
	exit 1
}
command -v perf >/dev/null || {
	echo "bench/inherit.sh needs perf (linux-perf)" >&2
	exit 1
}
W=$(mktemp -d "${TMPDIR:-/tmp}/il-inherit.XXXXXX")
trap 'rm -rf "$W"' EXIT
cp tests/link/*.c tests/link/*.h tests/link/Makefile "$W/"
ev=task-clock,page-faults

# one PERF|LIB line: task-clock ns, page faults, children
perfstat() {
	perf stat -x, -e $ev -o "$W/ps" "$@" >/dev/null 2>&1
	awk -F, '$3 == "task-clock" { t = $1 * 1e6 } $3 == "page-faults" { p = $1 } END { printf "%d %d", t, p }' "$W/ps"
}
library() {
	rm -f "$W/r.jsonl"
	INTERLOPER_EVENTS=$ev INTERLOPER_OUTPUT="$W/r.jsonl" LD_PRELOAD="$LIB" "$@" >/dev/null 2>&1
	python3 - "$W/r.jsonl" "$1" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
root = [x for x in r if x["argv"][0] == sys.argv[2]][0]
e = root["events"]
print(e["task-clock"]["value"], e["page-faults"]["value"], len(r) - 1)
PY
}

run() { # run NAME CMD...: REPS interleaved pairs, then the medians
	name=$1
	shift
	: >"$W/p.txt"
	: >"$W/l.txt"
	i=0
	while [ "$i" -lt "$REPS" ]; do
		rm -f "$W"/*.o "$W/ltp"
		(cd "$W" && perfstat "$@") >>"$W/p.txt"
		echo >>"$W/p.txt"
		rm -f "$W"/*.o "$W/ltp"
		(cd "$W" && library "$@") >>"$W/l.txt"
		i=$((i + 1))
	done
	python3 - "$name" "$W/p.txt" "$W/l.txt" <<'PY'
import statistics as st, sys
name = sys.argv[1]
p = [list(map(int, l.split())) for l in open(sys.argv[2]) if l.strip()]
l = [list(map(int, x.split())) for x in open(sys.argv[3]) if x.strip()]
pt, pp = st.median(x[0] for x in p), st.median(x[1] for x in p)
lt, lp = st.median(x[0] for x in l), st.median(x[1] for x in l)
n = st.median(x[2] for x in l)
print(f"| {name} | {n:.0f} | {pt/1e6:.1f} | {lt/1e6:.1f} | {(lt-pt)/n/1e3:.0f} | {pp:.0f} | {lp:.0f} | {100*(lp-pp)/pp:+.0f}% | {(lp-pp)/n:.1f} |")
PY
}

printf 'medians of %s interleaved runs each; task-clock in ms, excess per child in us\n\n' "$REPS"
echo "| workload | children | perf stat task-clock | library | excess per child (us) | perf stat page-faults | library | excess | per child |"
echo "|---|---|---|---|---|---|---|---|---|"
# shellcheck disable=SC2016 # the loop is for the inner shell
run sh sh -c 'i=0; while [ $i -lt 100 ]; do /bin/true; i=$((i + 1)); done'
run make make -j2 CC=gcc
