#!/bin/sh
# --until PCT: add setups until every compared ratio's 95% interval (from
# interloper report, design-aware) is narrow enough, or --max-runs, or the
# plan's setups are all used; and say why it stopped.
# timeout: 600
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
mkdir -p s/A s/B
cp /bin/sleep s/A/sl
cp /bin/sleep s/B/sl
setups() {
	python3 -c 'import json, sys
print(len({json.loads(l)["labels"]["setup"] for l in open(sys.argv[1]) if "\"interloper/1\"" in l}))' "$1"
}
SYS="--system A=s/A/sl --system B=s/B/sl"

try "a target already met after the first setups: it stops there and says why"
# shellcheck disable=SC2086 # the systems
# (on page-faults, equal for two copies of one binary: met on any machine,
# however loaded; a wall-clock target of +-90% was missed at load 38)
il sweep --seed 1 --reps 2 --setups 4 --env-add 0:1024:64 --until 90 --metric page-faults $SYS --output u1.jsonl -- 0.01 >out 2>err
assert_eq "$?" 0 "status"
assert_eq "$(recs u1.jsonl)" 16 "4 setups x 2 systems x 2 reps"
assert_match "$(grep "^interloper sweep: stopped" err)" "^interloper sweep: stopped \(precise enough\): every ratio's 95% interval is narrow enough \(widest: B/A [0-9.]+ \+-[0-9.]+%; target \+-90%\)$" "why"
assert_match "$(cat out)" "  ended by --until 90%: every ratio's 95% interval is narrow enough" "the summary says which limit ended it"

try "a target out of reach: more setups, batch by batch, up to --max-runs, and it says so"
# shellcheck disable=SC2086
il sweep --seed 1 --reps 2 --setups 2 --env-add 0:1024:64 --until 0.0001 --max-runs 40 $SYS \
	--output u2.jsonl -- 0.01 >out 2>err
assert_eq "$?" 0 "status"
assert_eq "$(recs u2.jsonl):$(setups u2.jsonl)" "32:8" "2, 4, then 8 setups: 16 more would pass 40 runs"
assert_match "$(grep -c 'adding [0-9]* setups' err)" "^2$" "two batches added, each said"
assert_match "$(grep "^interloper sweep: stopped" err)" "^interloper sweep: stopped \(--max-runs\): not every ratio's 95% interval is narrow enough \(widest: B/A [0-9.]+ \+-[0-9.]+%; target \+-0.0001%\)$" "why"
assert_match "$(cat out)" "  ended by --max-runs 40 before --until 0.0001%: not every ratio" "the summary says which limit ended it"
assert_eq "$(python3 -c 'import json, sys
print([json.loads(l)["extent"]["setups"] for l in open(sys.argv[1]) if "\"kind\":\"extent\"" in l or "\"kind\":\"plan\"" in l])' u2.jsonl)" \
	"[2, 4, 8]" "the plan's extent, as it grew"
il record merge -o m2.jsonl u2.jsonl 2>err
assert_eq "$?" 0 "merge checks the grown plan: complete"

try "a target out of reach with few setups: it stops when all setups ran"
# shellcheck disable=SC2086
il sweep --seed 1 --reps 2 --setups 1 --env-add 0,64,128 --until 0.0001 $SYS \
	--output u3.jsonl -- 0.01 >out 2>err
assert_eq "$?:$(setups u3.jsonl)" "0:3" "every setup"
assert_match "$(cat err)" "stopped \(all setups ran\)" "why"

try "rerunning an --until sweep resumes it: the same setups, nothing run twice"
# shellcheck disable=SC2086
il sweep -q --seed 1 --reps 2 --setups 2 --env-add 0:1024:64 --until 0.0001 --max-runs 40 $SYS \
	--output u2.jsonl -- 0.01 2>err
assert_eq "$?:$(recs u2.jsonl)" "0:32" "no new runs"

try "--until needs two systems, and does not go with shards"
il sweep --until 1 --system A=s/A/sl --output x.jsonl -- 0.01 2>err
assert_match "$(cat err)" "^interloper sweep: --until compares systems; expected at least two --system$" "one system"
# shellcheck disable=SC2086
il sweep --until 1 --shard 1/2 $SYS --output x.jsonl -- 0.01 2>err
assert_match "$(cat err)" "does not go with --shard or --slurm" "shards"

done_testing
