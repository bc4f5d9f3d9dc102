#!/bin/sh
# bench/stress.sh: the exit races, many times (make stress).  Not a test
# of make check (it takes minutes); tests/system/interposer_races.sh runs
# the same patterns a few hundred times.
#
#   sh bench/stress.sh [RUNS [BATCHES [PART...]]]
#
# RUNS runs of each pattern (default 10000), BATCHES batches of the
# shared record file (default 26); PART, any of threads, eight, join,
# shared, runs only those parts (default all four, in that order).
#
# Patterns: main returns or calls exit, while 1 to 8 threads (RUNS/8 runs
# each) call exit, _exit, abort or return; eight threads released with
# main from one barrier, RUNS runs each: main returns or exits while the
# threads exit, the same while one of them execs (issue 17's "third
# thread" patterns, 3 records lost in 58,000 runs before), and the same
# while the threads end four ways at once (exit, _exit, SIGTERM raised in
# the thread, SIGUSR1 sent to the process: interposer_edge.sh's case,
# without its printing atexit handler); an atexit
# handler joining a worker that calls exit; libmonitor's exit pattern (3
# threads exit(0) as main returns).  Then a shared record file: 500
# processes at once appending to one file, half of them 20 KB records,
# BATCHES times (default 26): blank lines and lines that are not whole
# records are counted (issue 17: 67 blank lines in one batch before).
# Each run with the library is checked by racecheck: one record,
# agreeing with the wait status, no hang (10 s).  Plain runs are
# interleaved with them, for the distribution of endings without the
# library.  The full output goes to bench/out/stress.log; the table shows
# per pattern the failures and how often main's ending won, with and
# without the library.
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-10000}
BATCHES=${2:-26}
if [ $# -gt 2 ]; then
	shift 2
else
	set -- threads eight join shared
fi
PARTS=" $* "
for p in $PARTS; do
	case $p in
	threads | eight | join | shared) ;;
	*)
		echo "bench/stress.sh: unknown part '$p'; expected threads, eight, join or shared" >&2
		exit 2
		;;
	esac
done
part() { case $PARTS in *" $1 "*) return 0 ;; esac; return 1; }
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
	part threads || break
	for act in exit _exit abort return; do
		n=1
		while [ "$n" -le 8 ]; do
			check "main $main, threads $act" "$per" "$main" "$act" "$n"
			n=$((n + 1))
		done
	done
done
for main in return exit; do
	part eight || break
	check "8 threads: main ${main}s, threads exit" "$RUNS" "$main" exit 8
	check "8 threads: main ${main}s, one thread execs, the others exit" "$RUNS" "$main" exec 8
	check "8 threads: main ${main}s, threads exit, _exit, raise SIGTERM, send SIGUSR1" "$RUNS" "$main" mixed 8
done
if part join; then
	check "atexit handler joins a worker that exits (main exits)" "$RUNS" join exit
	check "atexit handler joins a worker that exits (main returns)" "$RUNS" join return
	check "libmonitor exit: 3 threads exit(0) as main returns" "$RUNS" all-exit 3
fi

# The shared record file: 500 writers at once, every other one with a
# record of 20 KB (its argument), BATCHES times into one file each.
big=$(printf '%020000d' 0)
b=1
: >"$W/shared.summary"
part shared || BATCHES=0 # no batches, and no line for them below
while [ "$b" -le "$BATCHES" ]; do
	f="$W/shared.$b.jsonl"
	i=0
	while [ "$i" -lt 500 ]; do
		if [ $((i % 2)) -eq 0 ]; then
			INTERLOPER_OUTPUT=$f LD_PRELOAD=$LIB "$P/probe" hello "$big" >/dev/null 2>>"$LOG.err" &
		else
			INTERLOPER_OUTPUT=$f LD_PRELOAD=$LIB "$P/probe" hello >/dev/null 2>>"$LOG.err" &
		fi
		i=$((i + 1))
	done
	wait
	python3 - "$f" >>"$W/shared.summary" <<'PY'
import json, sys
blank = bad = good = 0
for l in open(sys.argv[1], "rb"):
    if l.strip() == b"":
        blank += 1
        continue
    try:
        json.loads(l)
        good += 1
    except ValueError:
        bad += 1
print(good, blank, bad)
PY
	rm -f "$f"
	b=$((b + 1))
done
[ "$BATCHES" -eq 0 ] || awk -v n="$BATCHES" '{ g += $1; bl += $2; bad += $3; if ($2) hit++ }
	END { printf "== shared record file: %d batches of 500 writers, half of them 20 KB\nrecords %d blank %d malformed %d batches-with-blank-lines %d\n", n, g, bl, bad, hit }' \
	"$W/shared.summary" >>"$LOG"

# The table: sums per pattern; "main won" is the share of runs ending
# with main's status (1 for the racer patterns, the exec ones too: the
# exec'd image's 77 is in the log, 3 (the worker's) for join, 0 for
# all-exit), with the library and without.
python3 - "$LOG" "$BATCHES" <<'PY'
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
for line in open(sys.argv[1]):
    m = re.match(r"records (\d+) blank (\d+) malformed (\d+) batches-with-blank-lines (\d+)", line)
    if m:
        rec, blank, bad, hit = map(int, m.groups())
        print(f"\nshared record file: {rec} records, {blank} blank lines ({hit} batches with any), {bad} malformed lines")
        total += blank + bad + (1 if rec != 500 * int(sys.argv[2]) else 0)
print(f"\nfailures in all: {total}; the distributions in full: {sys.argv[1]}")
sys.exit(1 if total else 0)
PY
