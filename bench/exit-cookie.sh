#!/bin/sh
# bench/exit-cookie.sh: output another thread writes into a fopencookie
# stream while exit() ends the process, many times.  Not a test of make
# check (it takes minutes); tests/system/interposer_edge.sh makes the
# race certain with the delay library (record-race after).
#
#   sh bench/exit-cookie.sh [RUNS [LIB...]]
#
# RUNS runs (default 150) of `exitpaths cookie-late US` for each library
# (default build/libinterloper.so), US cycling through 0, 10, ... 290
# microseconds: a thread writes into a buffered fopencookie stream that
# long after main called exit(0), and the stream's write function, when
# exit's final flush calls it, lets a thread B _exit(9) and waits for B.
# Without the library the process ends with 0 or 9 (which of the two is
# the race).  Per library: runs that hung (killed after 10 s: status 137),
# the statuses, and runs whose record disagrees with the wait status
# without saying "certain": false, or that have not exactly one record.
# Review of session 9 (race2u): 2 of 150 runs hung with 2fbfe2c's library.
set -eu
cd "$(dirname "$0")/.."
RUNS=${1:-150}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- "$(pwd)/build/libinterloper.so"
E=$(pwd)/build/tests/progs/exitpaths
if [ ! -x "$E" ]; then
	echo "build first: make tests-build" >&2
	exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/il-exit-cookie.XXXXXX")
trap 'rm -rf "$T"' EXIT
counts() { # counts " 0 9 0": " 0 x2 9 x1"
	echo "$1" | tr -s ' ' '\n' | sed '/^$/d' | sort -n | uniq -c | awk '{printf " %s x%s", $2, $1}'
}
plain=""
i=0
while [ $i -lt "$RUNS" ]; do
	rc=0
	timeout -s KILL 10 "$E" cookie-late $((i % 30 * 10)) >/dev/null 2>&1 || rc=$?
	plain="$plain $rc"
	i=$((i + 1))
done
echo "without the library: statuses$(counts "$plain")"
for lib in "$@"; do
	hung=0 bad=0 st=""
	i=0
	while [ $i -lt "$RUNS" ]; do
		rm -f "$T/r.jsonl"
		rc=0
		INTERLOPER_OUTPUT="$T/r.jsonl" timeout -s KILL 10 env LD_PRELOAD="$lib" \
			"$E" cookie-late $((i % 30 * 10)) >/dev/null 2>&1 || rc=$?
		st="$st $rc"
		if [ "$rc" = 137 ]; then
			hung=$((hung + 1))
		elif ! python3 - "$T/r.jsonl" "$rc" <<'PY'; then
import json, sys
rs = [json.loads(l) for l in open(sys.argv[1])]
e = rs[0]["exit"] if len(rs) == 1 else None
rc = int(sys.argv[2])
want = 128 + e["signal"] if e and e["how"] == "signal" else e and e["status"]
sys.exit(0 if e and (want == rc or e.get("certain") is False) else 1)
PY
			bad=$((bad + 1))
		fi
		i=$((i + 1))
	done
	echo "$lib: hung $hung/$RUNS, records wrong $bad/$RUNS, statuses$(counts "$st")"
done
