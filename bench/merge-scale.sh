#!/bin/sh
# bench/merge-scale.sh: interloper record merge's time and memory on a
# large plan, and the plan's generation.  Not a test: it reports figures.
#
#   sh bench/merge-scale.sh [REPS]   (default 100: 2 systems x 2048 setups
#                                     x REPS runs; 100 gives 409,600)
#
# One real shard of one block (2 runs) gives the plan line, the machine
# lines and two real records; every other run's record is that record with
# its labels made the run's (python3), in 4 shard files of the plan's
# blocks.  Figures: `sweep -n` (the whole plan, one line a run), then
# `record merge` of the 4 files and `record merge --check`, each with its
# wall time and maximum resident size (GNU time's %e and %M).
set -eu
cd "$(dirname "$0")/.."
REPS=${1:-100}
OUT=bench/out/merge
IL="$(pwd)/scripts/interloper"
if [ ! -x build/libexec/interloper-record ]; then
	echo "bench/merge-scale.sh: build first: make" >&2
	exit 1
fi
rm -rf "$OUT"
mkdir -p "$OUT/bin/A" "$OUT/bin/B"
cp /bin/true "$OUT/bin/A/t"
cp /bin/true "$OUT/bin/B/t"
cd "$OUT"
PLAN="--seed 1 --reps $REPS --env-add 0:114632:56 --system A=bin/A/t --system B=bin/B/t --env-base 8192"
blocks=$((2048 * REPS))
measure() { # what, then the command
	what=$1
	shift
	/usr/bin/time -f "%e %M" -o time.out "$@" >/dev/null 2>"$what.err" || echo "($what: exit $?)"
	tail -n 1 time.out >time.last
	read -r s kib <time.last
	printf '%-28s %8s s %8s MiB\n' "$what" "$s" "$((kib / 1024))"
}
# shellcheck disable=SC2086 # the plan's options
measure "sweep -n ($((blocks * 2)) runs)" sh "$IL" sweep -n $PLAN
# shellcheck disable=SC2086
sh "$IL" sweep -n $PLAN | cut -f2,3 >plan.tsv
# shellcheck disable=SC2086
sh "$IL" sweep -q $PLAN --shard "1/$blocks" --output one.jsonl
python3 - one.jsonl plan.tsv 4 <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
meta = [x for x in lines if x["schema"] == "interloper-sweep/1"]
recs = {x["labels"]["system"]: x for x in lines if x["schema"] == "interloper/1"}
n = int(sys.argv[3])
outs = [open("shard.%d.jsonl" % (i + 1), "w") for i in range(n)]
for i, f in enumerate(outs):
    for m in meta:
        if m["kind"] == "plan":
            m = dict(m, shard="%d/%d" % (i + 1, n))
        if m["kind"] in ("plan", "machine"):
            f.write(json.dumps(m, separators=(",", ":")) + "\n")
for k, l in enumerate(open(sys.argv[2])):
    run, setup = l.rstrip("\n").split("\t")
    system, sid, rep = run.split("/")
    r = recs[system]
    lab = dict(r["labels"], run=run, setup=sid, rep=rep[1:], env_add=sid[1:].split("-")[0],
               launch="%016x-%d" % (1, k))
    outs[k % n].write(json.dumps(dict(r, labels=lab), separators=(",", ":")) + "\n")
PY
cat shard.*.jsonl | wc -c | awk '{ printf "4 shard files, %d MiB\n", $1 / 1048576 }'
measure "record merge" sh "$IL" record merge -o merged.jsonl shard.1.jsonl shard.2.jsonl shard.3.jsonl shard.4.jsonl
tail -n 1 "record merge.err"
measure "record merge --check" sh "$IL" record merge --check shard.1.jsonl shard.2.jsonl shard.3.jsonl shard.4.jsonl
