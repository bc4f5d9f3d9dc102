#!/bin/sh
# plot env and plot seq of a sweep run in shards under a scheduler and
# merged (outside14 F2): the labels the sweep takes from the scheduler
# (GNU parallel's job slot and sequence number, Slurm's job, task and node)
# say where a run ran, not what it measured, so one line or one run
# sequence of the merged file carries several of them; plot took them as
# design labels and refused the file of one plan.  A design label that
# mixes is still refused.
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
if ! command -v gnuplot >/dev/null 2>&1; then
	try "plot env and seq of a merged sweep of shards"
	skip "gnuplot is missing (Debian: gnuplot-nox)"
	done_testing
	exit 0
fi
mkdir -p bin/A bin/B
cp "$PROGS/probe" bin/A/p
cp "$PROGS/probe" bin/B/p
# the labels of two GNU parallel jobs, and of two Slurm array tasks
for i in 1 2; do
	PARALLEL_JOBSLOT=$i PARALLEL_SEQ=$((i + 2)) \
		il sweep -q --seed 6 --reps 2 -e task-clock --env-add 0:192:64 --env-base 4096 \
		--env-vars 60 --system A=bin/A/p --system B=bin/B/p --shard $i/2 \
		--output "p.$i.jsonl" -- hello >/dev/null
	SLURM_JOB_ID=77 SLURM_ARRAY_TASK_ID=$i SLURMD_NODENAME=node$i \
		il sweep -q --seed 6 --reps 2 -e task-clock --env-add 0:192:64 --env-base 4096 \
		--env-vars 60 --system A=bin/A/p --system B=bin/B/p --shard $i/2 \
		--output "s.$i.jsonl" -- hello >/dev/null
done
il record merge -o p.jsonl p.1.jsonl p.2.jsonl 2>/dev/null
il record merge -o s.jsonl s.1.jsonl s.2.jsonl 2>/dev/null

try "plot env and plot seq of a merged GNU parallel sweep (outside14 F2)"
assert_eq "$(rj p.jsonl 'sorted(set((x["labels"]["parallel_slot"], x["labels"]["parallel_seq"]) for x in r))')" \
	'[["1", "3"], ["2", "4"]]' "the records carry two job slots and sequence numbers"
il plot env -m task-clock --by system --setup env_add -o e.svg p.jsonl 2>err >/dev/null
assert_eq "$?" 0 "plot env draws it"
assert_eq "$(grep -c 'parallel_' err)" 0 "no word of the job slots"
assert_true "a figure" test -s e.svg
il plot seq -m task-clock --where system=A -o q.svg p.jsonl 2>err >/dev/null
assert_eq "$?" 0 "plot seq draws it"
assert_true "a figure" test -s q.svg

try "the same of a merged Slurm array"
assert_eq "$(rj s.jsonl 'sorted(set(x["labels"]["slurm_node"] for x in r))')" '["node1", "node2"]' \
	"the records carry two nodes"
il plot env -m task-clock --by system --setup env_add -o e2.svg s.jsonl 2>err >/dev/null
assert_eq "$?" 0 "plot env draws it"
il plot seq -m task-clock --where system=A -o q2.svg s.jsonl 2>err >/dev/null
assert_eq "$?" 0 "plot seq draws it"

try "a design label that mixes is still refused"
il sweep -q --seed 6 --reps 2 -e task-clock --env-add 0:192:64 --system A=bin/A/p \
	--system B=bin/B/p --label input=small --output x.jsonl -- hello >/dev/null 2>&1
il sweep -q --seed 6 --reps 2 -e task-clock --env-add 0:192:64 --system A=bin/A/p \
	--system B=bin/B/p --label input=large --output y.jsonl -- hello >/dev/null 2>&1
il plot env -m task-clock --by system -o e3.svg x.jsonl y.jsonl 2>err >/dev/null
assert_eq "$?" 1 "plot env refuses"
assert_match "$(cat err)" "env: the selected records mix .*input=large,small; one line needs one value of each" "and names the label"
il plot seq -m task-clock --where system=A -o q3.svg x.jsonl y.jsonl 2>err >/dev/null
assert_eq "$?" 1 "plot seq refuses"
assert_match "$(cat err)" "seq: the selected records mix .*input=large,small;" "and names the label"
done_testing
