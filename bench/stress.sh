#!/bin/sh
# bench/stress.sh: the exit races, many times (make stress).  Not a test
# of make check (it takes minutes); tests/system/interposer_races.sh runs
# the same patterns a few hundred times.
#
#   sh bench/stress.sh [RUNS]        (default 10000 runs of each pattern)
#
# Patterns: main returns or calls exit, while 1 to 8 threads (RUNS/8 runs
# each) call exit, _exit, abort or return; an atexit handler joining a
# worker that calls exit; libmonitor's exit pattern (3 threads exit(0) as
# main returns).  Each run with the library is checked by racecheck: one
# record, agreeing with the wait status, no hang (10 s).  Plain runs are
# interleaved with them, for the distribution of endings without the
# library.  The full output goes to bench/out/stress.log; the table shows
# per pattern the failures and how often main's ending won, with and
# without the library.
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-10000}
LIB=$(pwd)/build/libinterloper.so
P=build/tests/progs
if [ ! -x "$P/racecheck" ] || [ ! -f "$LIB" ]; then
	echo "build first: make tests-build" >&2
	exit 1
fi
mkdir -p bench/out
LOG=bench/out/stress.log
: >"$LOG"
: >"$LOG.err"
W=$(mktemp -d "${TMPDIR:-/tmp}/il-stress.XXXXXX")
trap 'rm -rf "$W"' EXIT
# a copy of its own: a rebuild during the run must not change the library
cp "$LIB" "$W/libinterloper.so"
LIB=$W/libinterloper.so
per=$((RUNS / 8))
[ "$per" -gt 0 ] || per=1

check() { # check PATTERN RUNS ARGS...: one racecheck, logged
	_p=$1 _n=$2
	shift 2
	echo "== $_p: racer $*" >>"$LOG"
	"$P/racecheck" -b -n "$_n" -t 10 -o "$W" -l "$LIB" -- "$P/racer" "$@" >>"$LOG" 2>>"$LOG.err" || true
}

for main in return exit; do
	for act in exit _exit abort return; do
		n=1
		while [ "$n" -le 8 ]; do
			check "main $main, threads $act" "$per" "$main" "$act" "$n"
			n=$((n + 1))
		done
	done
done
check "atexit handler joins a worker that exits (main exits)" "$RUNS" join exit
check "atexit handler joins a worker that exits (main returns)" "$RUNS" join return
check "libmonitor exit: 3 threads exit(0) as main returns" "$RUNS" all-exit 3

# The table: sums per pattern; "main won" is the share of runs ending
# with main's status (1 for the racer patterns, 3 (the worker's) for
# join, 0 for all-exit), with the library and without.
python3 - "$LOG" <<'PY'
import re, sys
pats = {}
order = []
cur = None
for line in open(sys.argv[1]):
    m = re.match(r"== (.*): racer", line)
    if m:
        cur = m.group(1)
        if cur not in pats:
            pats[cur] = {"runs": 0, "hangs": 0, "lost": 0, "extra": 0, "mism": 0, "lib": {}, "plain": {}}
            order.append(cur)
        continue
    m = re.match(r"runs (\d+) hangs (\d+) lost (\d+) extra (\d+) mismatches (\d+) \|(.*)", line)
    if m:
        p = pats[cur]
        for k, v in zip(("runs", "hangs", "lost", "extra", "mism"), m.groups()[:5]):
            p[k] += int(v)
        for e, n in re.findall(r"(\w+ \d+): (\d+)", m.group(6)):
            p["lib"][e] = p["lib"].get(e, 0) + int(n)
        continue
    m = re.match(r"plain (\d+) runs interleaved \|(.*)", line)
    if m:
        for e, n in re.findall(r"(\w+ \d+): (\d+)", m.group(2)):
            pats[cur]["plain"][e] = pats[cur]["plain"].get(e, 0) + int(n)
print("| pattern | runs | hangs | lost | two records | disagree | main's ending wins, library | without |")
print("|---|---|---|---|---|---|---|---|")
for name in order:
    p = pats[name]
    mainend = "status 3" if "join" in name else "status 0" if "libmonitor" in name else "status 1"
    def share(d):
        t = sum(d.values())
        return f"{100.0 * d.get(mainend, 0) / t:.1f}%" if t else "-"
    print(f"| {name} | {p['runs']} | {p['hangs']} | {p['lost']} | {p['extra']} | {p['mism']} | {share(p['lib'])} | {share(p['plain'])} |")
total = sum(p["hangs"] + p["lost"] + p["extra"] + p["mism"] for p in pats.values())
print(f"\nfailures in all: {total}; the distributions in full: {sys.argv[1]}")
sys.exit(1 if total else 0)
PY
