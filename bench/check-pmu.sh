#!/bin/sh
# bench/check-pmu.sh: the counter paths only a hardware PMU can run (make
# check-pmu, one command: it installs what it needs and builds first).  For
# a user on bare metal.  Where there is no PMU (a VM without a virtual
# PMU, like the development machine) it says so, says what it would have
# checked, and exits 77 (skipped), never 0.  It has never run on a machine
# with a PMU: the README says so until someone does.
#
#   sh bench/check-pmu.sh
#
# The checks, each on probe loop N (N iterations of a fixed loop: the same
# user-space instructions in every run, whatever the time it takes):
#   1. instructions:u counted by the library (read(2) of each counter: no
#      rdpmc) agrees with perf stat's within 1%, through each path that
#      names it: the generic name, libpfm4's perf::INSTRUCTIONS:u, PAPI's
#      PAPI_TOT_INS (the papi backend, skipped if PAPI cannot load here);
#      cycles:u likewise within 10% (frequency and caches move them);
#   2. multiplexing: more hardware events than the PMU has counters (ten
#      general-purpose events beside instructions:u): the record shows it
#      (running_ns below enabled_ns for some event, none never scheduled),
#      instructions:u scaled by enabled/running agrees with perf stat's
#      unmultiplexed count within 5%, and interloper report says so
#      (multiplexed, scaled with --scale);
#   3. the default events are cycles and instructions, not multiplexed.
set -eu
cd "$(dirname "$0")/.."
B=build
LIB=$(pwd)/$B/libinterloper.so
PROBE=$B/tests/progs/probe
IL=scripts/interloper
N=150000000 # about 300 million instructions
W=$(mktemp -d "${TMPDIR:-/tmp}/il-pmu.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail=0
ins_ref=

say() { printf '%s\n' "$*"; }

if [ ! -x "$PROBE" ] || [ ! -f "$LIB" ]; then
	say "check-pmu: build first: make tests-build" >&2
	exit 1
fi

if ! "$B/libexec/interloper-events" --json cycles 2>/dev/null |
	python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["events"][0]["opens"] else 1)'; then
	say "check-pmu: SKIPPED, nothing was checked: no hardware PMU here (perf_event_open of cycles fails)."
	say "On a machine with one, this checks, on probe loop $N (a fixed instruction count):"
	say "  - instructions:u under the library (perf backend, read(2), no rdpmc) against perf stat: within 1%"
	say "  - perf::INSTRUCTIONS:u (libpfm4) and PAPI_TOT_INS (papi backend) likewise: within 1%"
	say "  - cycles:u, perf::CYCLES:u and PAPI_TOT_CYC likewise: within 10%"
	say "  - multiplexing (ten general-purpose events and instructions:u): running_ns below enabled_ns"
	say "    in the record, instructions:u scaled by enabled/running within 5% of perf stat's,"
	say "    and interloper report --scale says multiplexed and scaled"
	say "  - the default events are cycles and instructions, not multiplexed"
	exit 77
fi

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

perfstat() { # perfstat EVENT: median of 3 under perf stat
	for _ in 1 2 3; do
		perf stat -x, -e "$1" -o "$W/ps" "$PROBE" loop "$N" >/dev/null
		awk -F, '$1 ~ /^[0-9.]+$/ { printf "%.0f\n", $1 }' "$W/ps"
	done | median
}

# one run under the library: record in $W/r.jsonl, stderr in $W/err
under_lib() { # under_lib EVENTS BACKEND
	rm -f "$W/r.jsonl"
	INTERLOPER_EVENTS="$1" INTERLOPER_BACKEND="$2" INTERLOPER_OUTPUT="$W/r.jsonl" \
		LD_PRELOAD="$LIB" "$PROBE" loop "$N" >/dev/null 2>"$W/err" || true
}

# jr EXPR [ARG]: a Python expression over the record r (its events e;
# ARG is sys.argv[3])
jr() {
	python3 -c 'import json,sys
r = json.loads(open(sys.argv[1]).readline()); e = r["events"]
print(eval(sys.argv[2]))' "$W/r.jsonl" "$@" 2>/dev/null || echo -1
}

library() { # library EVENT BACKEND: median of 3 under the library, -1 if not counted
	for _ in 1 2 3; do
		under_lib "$1" "$2"
		jr 'e[sys.argv[3]]["value"] if e[sys.argv[3]]["value"] is not None else -1' "$1"
	done | median
}

compare() { # compare WHAT VALUE REFERENCE PERCENT
	if [ -z "$3" ]; then
		say "FAIL  $1: perf stat counted nothing ($(head -n 1 "$W/ps"))"
		fail=1
	elif [ "$2" -lt 0 ]; then
		say "FAIL  $1: not counted ($(head -n 1 "$W/err"))"
		fail=1
	elif python3 -c "import sys; sys.exit(0 if abs($2 - $3) <= $4 / 100 * $3 else 1)"; then
		say "ok    $1: $2 against perf stat's $3 (within $4%)"
	else
		say "FAIL  $1: $2 against perf stat's $3 (more than $4% apart)"
		fail=1
	fi
}

# 1. each path against perf stat
set -- "instructions:u" "perf::INSTRUCTIONS:u" "PAPI_TOT_INS" 1 \
	"cycles:u" "perf::CYCLES:u" "PAPI_TOT_CYC" 10
while [ $# -ge 4 ]; do
	ref=$(perfstat "$1")
	if [ "$1" = instructions:u ]; then ins_ref=$ref; fi
	compare "$1 (perf backend)" "$(library "$1" perf)" "$ref" "$4"
	compare "$2 (perf backend, libpfm4)" "$(library "$2" perf)" "$ref" "$4"
	papi=$(library "$3" papi)
	if [ "$papi" -lt 0 ] && grep -q "cannot be loaded\|disabled" "$W/err"; then
		say "skip  $3 (papi backend): $(head -n 1 "$W/err")"
	else
		compare "$3 (papi backend)" "$papi" "$ref" "$4"
	fi
	shift 4
done

# 2. multiplexing: ten general-purpose events (more than any PMU's
# general-purpose counters with the fixed ones busy) and instructions:u
mux=instructions:u,branches,branch-misses,cache-references,cache-misses,bus-cycles
mux=$mux,branches:u,branch-misses:u,cache-references:u,cache-misses:u,branches:k
: >"$W/mux.jsonl"
for _ in 1 2 3; do
	under_lib "$mux" perf
	cat "$W/r.jsonl" >>"$W/mux.jsonl"
done
if [ "$(jr 'sum(1 for v in e.values() if v["value"] is None)')" != 0 ]; then
	say "FAIL  multiplexing: events not counted: $(head -n 1 "$W/err")"
	fail=1
elif [ "$(jr 'sum(1 for v in e.values() if v["running_ns"] == 0)')" != 0 ]; then
	say "FAIL  multiplexing: events never scheduled (running_ns 0): $(jr '[k for k, v in e.items() if v["running_ns"] == 0]')"
	fail=1
elif [ "$(jr 'sum(1 for v in e.values() if v["running_ns"] < v["enabled_ns"])')" = 0 ]; then
	say "FAIL  multiplexing: $(jr 'len(e)') events, none multiplexed (running_ns == enabled_ns): does this PMU have that many counters?"
	fail=1
else
	say "ok    multiplexing: $(jr 'sum(1 for v in e.values() if v["running_ns"] < v["enabled_ns"])') of $(jr 'len(e)') events ran part of the time (running_ns < enabled_ns)"
	scaled=$(jr 'round(e["instructions:u"]["value"] * e["instructions:u"]["enabled_ns"] / e["instructions:u"]["running_ns"])')
	compare "instructions:u multiplexed, scaled by enabled/running" "$scaled" "$ins_ref" 5
	if sh "$IL" report --json --scale --metric instructions:u "$W/mux.jsonl" >"$W/rep.json" 2>"$W/rep.err" &&
		python3 -c 'import json,sys; i=json.load(open(sys.argv[1]))["input"]; sys.exit(0 if i["multiplexed"] > 0 and i["scaled"] else 1)' "$W/rep.json"; then
		say "ok    interloper report --scale: multiplexed counts found and scaled"
	else
		say "FAIL  interloper report --scale: $(head -c 300 "$W/rep.json") $(head -n 2 "$W/rep.err")"
		fail=1
	fi
fi

# 3. the default events
rm -f "$W/r.jsonl"
INTERLOPER_OUTPUT="$W/r.jsonl" LD_PRELOAD="$LIB" "$PROBE" loop 1000000 >/dev/null
if [ "$(jr 'sorted(e) == ["cycles", "instructions"] and all(v["enabled_ns"] == v["running_ns"] for v in e.values())')" = True ]; then
	say "ok    default events: cycles and instructions, not multiplexed"
else
	say "FAIL  default events: $(head -c 300 "$W/r.jsonl")"
	fail=1
fi
exit "$fail"
