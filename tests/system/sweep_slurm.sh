#!/bin/sh
# interloper sweep --slurm on a real Slurm: a single-node cluster started
# here from Debian's slurm-wlm and munge by scripts/slurm-cluster.sh (a
# private munge key and socket, a slurm.conf of its own, free ports on
# loopback, all state in the test's directory, the node n1 a UTS namespace
# of its own), a 4-task job array of a small sweep submitted with
# --submit, waited for, merged, and checked to be exactly the plan.  Every
# daemon the test started is stopped by its pid.  Two nodes, and one of
# them killed: sweep_nodes.sh.
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1

try "a 4-task Slurm array of shards, merged, is exactly the plan"
if slurm_cluster 1; then
	assert_eq "$(sinfo -h -o %T 2>&1)" idle "a node, idle"

	mkdir -p bin/A bin/B
	cp "$PROGS/probe" bin/A/prog
	cp "$PROGS/probe" bin/B/prog
	PLAN="--seed 11 --reps 2 --env-add 0:192:64 --system A=bin/A/prog --system B=bin/B/prog"
	# shellcheck disable=SC2086 # the plan's options
	sh "$IL" sweep $PLAN --slurm 4 --submit --output res.jsonl -- hello -- --time=10 >sub.out 2>sub.err
	assert_eq "$?" 0 "submitted"
	jobid=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' sub.out)
	assert_match "$jobid" "^[0-9]+$" "sbatch's job id"
	assert_match "$(cat sub.err)" "^interloper sweep: wrote res.sbatch, a Slurm array of 4 shards of plan [0-9a-f]{12} \(seed 11, 16 runs\)$" "what it wrote"
	assert_eq "$(grep -c -e '^#SBATCH --array=1-4$' -e '^#SBATCH --exclusive$' -e '^#SBATCH --nodes=1$' -e '^#SBATCH --time=10$' res.sbatch)" 4 "array, exclusive, one node, sbatch's options"
	i=0
	while [ -n "$(squeue -h -j "$jobid" 2>/dev/null)" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
	assert_eq "$(squeue -h -j "$jobid" 2>/dev/null)" "" "the array finished"
	jobid=''
	for k in 1 2 3 4; do
		assert_match "$(cat res.shard-$k-of-4.log)" "^interloper sweep: 4 runs \(shard $k/4 of 4 setups x 2 systems x 2 reps, seed 11, plan [0-9a-f]{12}\) in res.shard-$k-of-4.jsonl; 0 failed$" "task $k's log: its summary alone"
	done
	sh "$IL" record merge -o merged.jsonl res.shard-1-of-4.jsonl res.shard-2-of-4.jsonl \
		res.shard-3-of-4.jsonl res.shard-4-of-4.jsonl 2>merge.err
	assert_eq "$?" 0 "merged: exactly the plan"
	assert_match "$(cat merge.err)" "plan [0-9a-f]{12}, 16 of its 16 runs \(16 records\) from 4 files$" "merge says"
	# shellcheck disable=SC2086
	sh "$IL" sweep -n $PLAN -- hello | cut -f2 | sort >plan
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    x = json.loads(l)
    if x.get("schema") == "interloper/1": print(x["labels"]["run"])' merged.jsonl | sort >got
	assert_true "each of the plan's runs once" cmp -s plan got
	assert_eq "$(python3 -c 'import json, sys
print(sorted(json.loads(l)["shard"] for l in open(sys.argv[1]) if "\"kind\":\"plan\"" in l))' merged.jsonl)" \
		"['1/4', '2/4', '3/4', '4/4']" "one plan line per shard"
	assert_eq "$(python3 -c 'import json, sys
print(sorted({json.loads(l)["host"] for l in open(sys.argv[1]) if "\"kind\":\"plan\"" in l}))' merged.jsonl)" \
		"['n1']" "the host each shard ran on"
	assert_eq "$(python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
r = [x for x in r if x.get("schema") == "interloper/1"]
print(all(x["setup"]["env_bytes"] == r[0]["setup"]["env_bytes"] - int(r[0]["labels"]["env_add"]) + int(x["labels"]["env_add"]) for x in r))' merged.jsonl)" \
		True "every task: each setup of one environment size (R3 finding 1)"
fi

done_testing
