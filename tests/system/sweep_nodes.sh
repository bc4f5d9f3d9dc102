#!/bin/sh
# interloper sweep --slurm on a real Slurm cluster of two nodes on this
# machine (scripts/slurm-cluster.sh: munged, slurmctld and two slurmd,
# each in a UTS namespace of its own hostname, n1 and n2, all on loopback,
# everything in the test's directory, every daemon stopped by its pid):
# a 4-task array across both nodes, one node killed in the middle of a
# task, the task resubmitted by rerunning the same command, and the merge
# exactly the plan, with records of both hostnames and the host as a
# factor of interloper report (issue 16, section 5).
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1

# wait_gone JOB: until Slurm has no task of JOB queued or running (90 s)
wait_gone() {
	i=0
	while [ -n "$(squeue -h -r -j "$1" 2>/dev/null)" ] && [ $i -lt 900 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

try "two nodes, a node killed mid-run, its task resubmitted by the same command: exactly the plan"
if slurm_cluster 2; then
	assert_eq "$(sinfo -h -o '%D %T' 2>&1)" "2 idle" "two nodes, idle"

	mkdir -p s/A s/B
	cp /bin/sleep s/A/sl
	cp /bin/sleep s/B/sl
	PLAN="--seed 4 --reps 4 --env-add 0:448:64 --system A=s/A/sl --system B=s/B/sl"
	# shellcheck disable=SC2086 # the plan's options
	il sweep $PLAN --slurm 4 --submit --output res.jsonl -- 0.3 -- --time=5 >sub.out 2>sub.err
	assert_eq "$?" 0 "submitted"
	job=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' sub.out)
	assert_match "$job" "^[0-9]+$" "sbatch's job id"

	# a task under way: its records say on which node; that node dies
	# (after 3 of its shard's 8 blocks: the node's host then holds 3
	# setups at least, which report's crossed setup x host design needs)
	killed='' task=''
	i=0
	while [ -z "$killed" ] && [ $i -lt 600 ]; do
		for k in 1 2 3 4; do
			n=$(recs res.shard-$k-of-4.jsonl)
			if [ "$n" -ge 6 ] && [ "$n" -lt 14 ]; then
				task=$k
				killed=$(rj res.shard-$k-of-4.jsonl 'r[0]["labels"]["slurm_node"]')
				break
			fi
		done
		[ -n "$killed" ] || sleep 0.1
		i=$((i + 1))
	done
	assert_match "$killed" "^n[12]$" "a task under way on a node ($task)"
	sh "$TOP/scripts/slurm-cluster.sh" kill "$CL" "$killed"
	wait_gone "$job"
	assert_eq "$(squeue -h -r -j "$job" 2>/dev/null)" "" "the array ended (the dead node's task with it)"

	# shellcheck disable=SC2086
	il sweep $PLAN --slurm 4 --status --output res.jsonl -- 0.3 >st.out 2>st.err
	assert_eq "$?" 2 "--status: incomplete"
	assert_match "$(grep "^$task " st.out)" "^$task +[0-9]+/16 +NODE_FAIL ${job}_$task $killed " "--status: the task, its runs, NODE_FAIL on its node"
	il record merge --check res.shard-1-of-4.jsonl res.shard-2-of-4.jsonl res.shard-3-of-4.jsonl \
		res.shard-4-of-4.jsonl 2>merge.err
	assert_eq "$?" 2 "merge: not the plan yet"
	assert_match "$(cat merge.err)" "shard $task/4: [0-9]+ of its 16 runs; res.shard-$task-of-4.log" "merge: the incomplete shard"

	# the same command, from a shell with one more variable: only that task
	# shellcheck disable=SC2086
	env IL_TEST_MORE=one-more-variable "$IL" sweep $PLAN --slurm 4 --submit --output res.jsonl \
		-- 0.3 -- --time=5 >sub.out 2>sub.err
	assert_eq "$?" 0 "resubmitted"
	assert_match "$(cat sub.err)" "a Slurm array of task $task of 4 shards of plan [0-9a-f]{12} \(seed 4, 64 runs\): shard $task has [0-9]+ of its 16 runs; the previous script kept as res.sbatch.1" "only the killed task, said"
	assert_eq "$(grep -c "^#SBATCH --array=$task\$" res.sbatch)" 1 "--array=$task"
	job2=$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' sub.out)
	wait_gone "$job2"
	# a node this loaded machine made late is said down too: rerun again
	for again in 1 2; do
		# shellcheck disable=SC2086
		il sweep $PLAN --slurm 4 --status --output res.jsonl -- 0.3 >/dev/null 2>&1 && break
		# shellcheck disable=SC2086
		il sweep $PLAN --slurm 4 --submit --output res.jsonl -- 0.3 -- --time=5 >sub.out 2>/dev/null
		wait_gone "$(sed -n 's/^Submitted batch job \([0-9]*\)$/\1/p' sub.out)"
		echo "    (a rerun more: $again)"
	done

	il record merge -o merged.jsonl res.shard-1-of-4.jsonl res.shard-2-of-4.jsonl \
		res.shard-3-of-4.jsonl res.shard-4-of-4.jsonl 2>merge.err
	assert_eq "$?" 0 "merged: exactly the plan ($(cat merge.err))"
	# shellcheck disable=SC2086
	il sweep -n $PLAN -- 0.3 | cut -f2 | sort >plan
	runs merged.jsonl >got
	assert_true "each of the plan's runs once" cmp -s plan got
	assert_eq "$(rj merged.jsonl 'sorted({x["host"] for x in r})')" '["n1", "n2"]' "records from both hostnames"
	assert_eq "$(rj merged.jsonl 'all(x["host"] == x["labels"]["slurm_node"] for x in r)')" true "each labelled with its node"
	assert_eq "$(rj merged.jsonl 'len({x["labels"]["slurm_job"] for x in r if x["labels"]["slurm_task"] == "'"$task"'"})')" 2 "the killed task's runs: of two jobs"
	assert_eq "$(grep -c 'machines whose facts differ' merge.err)" 0 "one machine's facts: no warning"
	il report --compare system=A --setup setup,host merged.jsonl >rep.out 2>rep.err
	assert_eq "$?" 0 "report, the host a factor ($(cat rep.err))"
	assert_match "$(cat rep.out)" "setup x host" "crossed with the setups"
	il report --compare system=A --setup setup --by host merged.jsonl >rep.out 2>rep.err
	assert_eq "$?" 0 "report --by host ($(cat rep.err))"
	assert_match "$(cat rep.out)" "host=n1" "per host"

	sh "$TOP/scripts/slurm-cluster.sh" stop "$CL" >stop.out 2>&1
	assert_eq "$?" 0 "stopped"
	alive=$(while read -r _ _ p ns; do
		! kill -0 "$p" 2>/dev/null || printf ' %s' "$p"
		[ "$ns" = - ] || for q in /proc/[0-9]*; do
			[ "$(readlink "$q/ns/uts" 2>/dev/null)" != "$ns" ] || printf ' %s' "${q#/proc/}"
		done
	done <"$CL/pids.stopped")
	assert_eq "$alive" "" "every daemon stopped, by its pid, and nothing left in the nodes' namespaces"
fi

done_testing
