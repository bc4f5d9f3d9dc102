#!/bin/sh
# bench/check-pmu.sh: the counter paths only a hardware PMU can run
# (make check-pmu).  For a user on bare metal: it compares what the
# library counts with what perf stat counts on the same program, for
# generic hardware events, libpfm4 names and PAPI presets.  Where there
# is no PMU (a VM without a virtual PMU) it says so, says what it would
# have compared, and exits 77 (skipped), never 0.
#
#   sh bench/check-pmu.sh
#
# Each comparison runs probe busy 200 (200 ms of user-space work) five
# times under each tool and compares the medians: user-space instructions
# must agree within 1% (the same instructions are retired either way,
# give or take the tools' own few thousand), cycles within 10% (frequency
# and caches move them).
set -eu
cd "$(dirname "$0")/.."
B=build
LIB=$(pwd)/$B/libinterloper.so
PROBE=$B/tests/progs/probe
W=$(mktemp -d "${TMPDIR:-/tmp}/il-pmu.XXXXXX")
trap 'rm -rf "$W"' EXIT
fail=0

say() { printf '%s\n' "$*"; }

if [ ! -x "$PROBE" ] || [ ! -f "$LIB" ]; then
	say "check-pmu: build first: make tests-build" >&2
	exit 1
fi

# the generic name, the same event through libpfm4, its PAPI preset,
# and how far apart they may be (percent)
set -- "instructions:u" "perf::INSTRUCTIONS:u" "PAPI_TOT_INS" 1 \
	"cycles:u" "perf::CYCLES:u" "PAPI_TOT_CYC" 10

if ! "$B/libexec/interloper-events" --json cycles 2>/dev/null |
	python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["events"][0]["opens"] else 1)'; then
	say "check-pmu: skipped: no hardware PMU here (perf_event_open of cycles fails)."
	say "On a machine with one, this compares, for probe busy 200, the medians of 5 runs of"
	say "  - instructions:u under libinterloper (perf backend) and under perf stat: within 1%"
	say "  - perf::INSTRUCTIONS:u (through libpfm4) and PAPI_TOT_INS (papi backend) with the same: within 1%"
	say "  - cycles:u, perf::CYCLES:u and PAPI_TOT_CYC likewise: within 10%"
	say "  - that the default events are cycles and instructions, with enabled_ns == running_ns"
	exit 77
fi

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

perfstat() { # perfstat EVENT: median of 5 under perf stat
	for _ in 1 2 3 4 5; do
		perf stat -x, -e "$1" -o "$W/ps" "$PROBE" busy 200 >/dev/null
		# value,unit,event,...: counts are integers, times in msec
		awk -F, '$1 ~ /^[0-9.]+$/ { printf "%.0f\n", $2 == "msec" ? $1 * 1e6 : $1 }' "$W/ps"
	done | median
}

library() { # library EVENT [BACKEND]: median of 5 under the library
	for _ in 1 2 3 4 5; do
		rm -f "$W/r.jsonl"
		INTERLOPER_EVENTS="$1" INTERLOPER_BACKEND="${2:-auto}" INTERLOPER_OUTPUT="$W/r.jsonl" \
			LD_PRELOAD="$LIB" "$PROBE" busy 200 >/dev/null 2>"$W/err" || true
		python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).readline()); v=r["events"][sys.argv[2]]["value"]; print(v if v is not None else -1)' \
			"$W/r.jsonl" "$1" 2>/dev/null || echo -1
	done | median
}

compare() { # compare WHAT VALUE REFERENCE PERCENT
	if [ -z "$3" ]; then
		say "FAIL  $1: perf stat counted nothing ($(head -n 1 "$W/ps"))"
		fail=1
		return
	fi
	if [ "$2" -lt 0 ]; then
		say "FAIL  $1: not counted ($(head -n 1 "$W/err"))"
		fail=1
		return
	fi
	if python3 -c "import sys; sys.exit(0 if abs($2 - $3) <= $4 / 100 * $3 else 1)"; then
		say "ok    $1: $2 against perf stat's $3 (within $4%)"
	else
		say "FAIL  $1: $2 against perf stat's $3 (more than $4% apart)"
		fail=1
	fi
}

while [ $# -ge 4 ]; do
	ref=$(perfstat "$1")
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

rm -f "$W/r.jsonl"
INTERLOPER_OUTPUT="$W/r.jsonl" LD_PRELOAD="$LIB" "$PROBE" busy 50 >/dev/null
if python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).readline()); e=r["events"]; sys.exit(0 if sorted(e) == ["cycles", "instructions"] and all(v["enabled_ns"] == v["running_ns"] for v in e.values()) else 1)' "$W/r.jsonl"; then
	say "ok    default events: cycles and instructions, not multiplexed"
else
	say "FAIL  default events: $(head -c 300 "$W/r.jsonl")"
	fail=1
fi
exit "$fail"
