#!/bin/sh
# bench/overhead.sh: what libinterloper.so adds to one process, next to
# perf stat on the same program.  Not a test: it reports figures.
#
#   sh bench/overhead.sh [RUNS] [PROG]     (default 2000 runs of /bin/true)
#
# Instructions: valgrind --tool=callgrind, deterministic; "added" is the
# total minus the program's own.  Wall time: bench/spawn.c forks and execs
# every configuration in turn, RUNS times, interleaved so that noise on
# this shared machine hits all alike; "added" is a median minus the plain
# program's median from the same run.
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-2000}
PROG=${2:-/bin/true}
OUT=bench/out
mkdir -p "$OUT"
LIB=$(pwd)/build/libinterloper.so
[ -f "$LIB" ] || { echo "build first: make" >&2; exit 1; }
cc -O2 -o "$OUT/spawn" bench/spawn.c
PERF=$(command -v perf || true)
sw=task-clock,page-faults,context-switches

callgrind() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo "instructions (callgrind), $PROG:" >&2
i_plain=$(callgrind "$PROG")
i_none=$(INTERLOPER_BACKEND=none INTERLOPER_OUTPUT=/dev/null LD_PRELOAD=$LIB callgrind "$PROG")
i_perf=$(INTERLOPER_OUTPUT=/dev/null LD_PRELOAD=$LIB callgrind "$PROG")
i_papi=$(INTERLOPER_BACKEND=papi INTERLOPER_OUTPUT=/dev/null LD_PRELOAD=$LIB callgrind "$PROG" 2>/dev/null)
i_stat=
if [ -n "$PERF" ]; then
	# perf's own instructions: callgrind follows only the first process
	i_stat=$(callgrind "$PERF" stat -e $sw -o /dev/null "$PROG")
	i_stat=$((i_stat))
fi

echo "wall time ($RUNS interleaved runs each):" >&2
"$OUT/spawn" "$RUNS" -- \
	plain "$PROG" --- \
	none INTERLOPER_BACKEND=none INTERLOPER_OUTPUT=/dev/null LD_PRELOAD="$LIB" "$PROG" --- \
	perf INTERLOPER_OUTPUT=/dev/null LD_PRELOAD="$LIB" "$PROG" --- \
	papi INTERLOPER_BACKEND=papi INTERLOPER_OUTPUT=/dev/null LD_PRELOAD="$LIB" "$PROG" \
	${PERF:+---} ${PERF:+perfstat} ${PERF:+"$PERF"} ${PERF:+stat} ${PERF:+-e} ${PERF:+$sw} \
	${PERF:+-o} ${PERF:+/dev/null} ${PERF:+"$PROG"} >"$OUT/wall.txt" 2>/dev/null
# the same under interloper hold, which keeps the software events' static
# keys on (see interloper-hold(1))
build/libexec/interloper-hold "$OUT/spawn" "$RUNS" -- \
	plain "$PROG" --- \
	perf INTERLOPER_OUTPUT=/dev/null LD_PRELOAD="$LIB" "$PROG" >"$OUT/wall-kept.txt"

med() { awk -v n="$1" '$1 == n { print $2 }' "$2"; }
p=$(med plain "$OUT/wall.txt")
pk=$(med plain "$OUT/wall-kept.txt")
added() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", a - b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.0fx", a / b; else print "-" }'; }

s_i=$((${i_stat:-0}))
s_w=$(added "$(med perfstat "$OUT/wall.txt")" "$p")
printf '\n%s, median of %s runs; events: library default (%s here), perf stat -e %s\n\n' \
	"$PROG" "$RUNS" "$("$(pwd)/build/libexec/interloper-events" --json 2>/dev/null |
		sed -n 's/.*"default_events": "\([^"]*\)".*/\1/p')" "$sw"
echo "| configuration | instructions added | wall added (us) | perf stat / this, instructions | perf stat / this, wall |"
echo "|---|---|---|---|---|"
for c in none perf papi; do
	case $c in none) ic=$i_none ;; perf) ic=$i_perf ;; papi) ic=$i_papi ;; esac
	iw=$((ic - i_plain))
	ww=$(added "$(med $c "$OUT/wall.txt")" "$p")
	echo "| libinterloper, $c | $iw | $ww | $(ratio "$s_i" "$iw") | $(ratio "$s_w" "$ww") |"
done
kw=$(added "$(med perf "$OUT/wall-kept.txt")" "$pk")
echo "| libinterloper, perf, under interloper hold | $((i_perf - i_plain)) | $kw | $(ratio "$s_i" $((i_perf - i_plain))) | $(ratio "$s_w" "$kw") |"
[ -n "$PERF" ] && echo "| perf stat | $s_i (its own) | $s_w | 1x | 1x |"
printf '\nplain %s: %s instructions, %s us median wall\n' "$PROG" "$i_plain" "$p"
