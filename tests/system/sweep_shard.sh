#!/bin/sh
# Scale-out: --shard I/N parts of one plan, interloper record merge, and
# GNU parallel running the shards (locally here, to check correctness).
# timeout: 600
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
mkdir -p bin/A bin/B s/A s/B
cp "$PROGS/probe" bin/A/prog
cp "$PROGS/probe" bin/B/prog
cp /bin/sleep s/A/sl
cp /bin/sleep s/B/sl
PLAN="--seed 8 --reps 3 --warmup 1 --env-add 0:256:64 --system A=bin/A/prog --system B=bin/B/prog"
# shellcheck disable=SC2086 # the plan's options
il sweep -n $PLAN -- hello | cut -f2 | sort >plan

try "shards are disjoint, balanced, each in random order, and their union is the plan"
for i in 1 2 3 4; do
	# shellcheck disable=SC2086
	il sweep -q $PLAN --shard $i/4 --output sh.$i.jsonl -- hello
	assert_eq "$?" 0 "shard $i"
done
runs sh.1.jsonl sh.2.jsonl sh.3.jsonl sh.4.jsonl >union
assert_true "the union is the plan, each run once" cmp -s plan union
# 5 setups x 3 reps = 15 blocks of 2 runs, the 5 of the first repetition
# with 2 warm-up runs more: at most one block (4 runs) apart
counts=$(for i in 1 2 3 4; do recs sh.$i.jsonl; done | sort -n | tr '\n' ' ')
assert_eq "$(echo "$counts" | awk '{ print ($4 - $1 <= 4) ? "yes" : "no: " $0 }')" yes "balanced"
# shellcheck disable=SC2086
il sweep -n $PLAN --shard 2/4 -- hello | cut -f2 >order2
python3 -c 'import json, sys
for l in open(sys.argv[1]):
    x = json.loads(l)
    if x.get("schema") == "interloper/1": print(x["labels"]["run"])' sh.2.jsonl >ran2
assert_true "shard 2 ran its runs in the plan's order" cmp -s order2 ran2
assert_eq "$(python3 -c 'import json, sys
print(sorted(set(json.loads(l)["shard"] for l in open(sys.argv[1]) if "\"kind\":\"plan\"" in l)))' sh.3.jsonl)" \
	"['3/4']" "each shard's plan line says which it is"

try "merge: the shards into one file, exactly the plan"
il record merge -o merged.jsonl sh.1.jsonl sh.2.jsonl sh.3.jsonl sh.4.jsonl 2>err
assert_eq "$?" 0 "status"
assert_match "$(cat err)" "^interloper record merge: merged.jsonl: plan [0-9a-f]{12}, 40 of its 40 runs \(40 records\) from 4 files$" "message"
runs merged.jsonl >got
assert_true "the plan's runs, each once" cmp -s plan got
assert_eq "$(grep -c '"schema":"interloper-sweep/1"' merged.jsonl)" \
	"$(cat sh.*.jsonl | grep -c '"schema":"interloper-sweep/1"')" "every shard's plan, machine and output lines"
# shellcheck disable=SC2086
il sweep -q $PLAN --output merged.jsonl -- hello 2>err
assert_eq "$?:$(recs merged.jsonl)" "0:40" "the sweep takes the merged file as done"

try "merge says which runs are missing and which are there twice; the first is kept"
il record merge -o part.jsonl sh.1.jsonl sh.3.jsonl 2>err
assert_eq "$?" 2 "status: written, not the plan"
assert_match "$(sed -n 2p err)" "^interloper record merge: [0-9]+ runs missing: [AB]/e" "missing"
assert_eq "$(recs part.jsonl)" "$(($(recs sh.1.jsonl) + $(recs sh.3.jsonl)))" "what there was, written"
il record merge -o dup.jsonl sh.1.jsonl sh.2.jsonl sh.3.jsonl sh.4.jsonl sh.2.jsonl 2>err
assert_eq "$?" 2 "status"
assert_match "$(cat err)" "$(recs sh.2.jsonl) runs found more than once \(the first kept\)" "duplicates"
runs dup.jsonl >got
assert_true "each run once" cmp -s plan got

try "merge refuses files of another plan, naming the line, and writes nothing"
il sweep -q --seed 9 --reps 1 --system A=bin/A/prog --output other.jsonl -- hello
il record merge -o bad.jsonl sh.1.jsonl other.jsonl 2>err
assert_eq "$?" 1 "status"
assert_match "$(cat err)" "^interloper record merge: other.jsonl:1: plan [0-9a-f]{12}, but sh.1.jsonl is plan [0-9a-f]{12}; merge joins the shards of one plan$" "message"
assert_eq "$(find . -name 'bad.jsonl*' | wc -l | tr -d ' ')" 0 "no file, not even a temporary one"
printf 'not json\n' >junk.jsonl
il record merge -o bad.jsonl sh.1.jsonl junk.jsonl 2>err
assert_eq "$?:$(find . -name 'bad.jsonl*' | wc -l | tr -d ' ')" "1:0" "a line that is not a record"

try "merge leaves out a shard's torn last line"
cp sh.4.jsonl torn4.jsonl
printf '{"schema":"interloper/1","lab' >>torn4.jsonl
il record merge -o t.jsonl sh.1.jsonl sh.2.jsonl sh.3.jsonl torn4.jsonl 2>err
assert_eq "$?" 0 "status"
assert_match "$(cat err)" "torn4.jsonl:[0-9]+: the last line is torn" "said"

try "GNU parallel runs the shards; the merged file is the plan; shards on one host are warned about"
if ! command -v parallel >/dev/null; then
	skip "GNU parallel is not installed (make check installs it as root: Debian package parallel)"
else
	SLOW="--seed 3 --reps 2 --env-add 0:192:64 --system A=s/A/sl --system B=s/B/sl"
	# shellcheck disable=SC2086
	parallel -j 4 sh "$IL" sweep -q $SLOW --shard '{}/4' --output 'par.{}.jsonl' -- 0.2 '2>par.{}.err' ::: 1 2 3 4
	assert_eq "$?" 0 "parallel's status"
	il record merge -o par.jsonl par.1.jsonl par.2.jsonl par.3.jsonl par.4.jsonl 2>err
	assert_eq "$?" 0 "merged: exactly the plan"
	# shellcheck disable=SC2086
	il sweep -n $SLOW -- 0.2 | cut -f2 | sort >splan
	runs par.jsonl >got
	assert_true "the plan's runs" cmp -s splan got
	assert_match "$(cat par.*.err)" "warning: another sweep of plan [0-9a-f]{12} is running on this machine" "warned"
fi

done_testing
