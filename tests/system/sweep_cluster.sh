#!/bin/sh
# Sweeps on clusters, without a cluster (issue 16): the Slurm script run
# by hand as its tasks would run it (sh with SLURM_ARRAY_TASK_ID), its
# resubmission by rerunning the command, the scheduler's labels, mixed
# machines caught at merge and in report, snapshots during a sweep, the
# nodes' binaries checked, merge's safety (outputs, --check, --missing and
# sweep --runs, empty shards), and record validate/summary on a results
# file.  The same on a real multi-node Slurm: sweep_nodes.sh.
# timeout: 300
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
mkdir -p bin/A bin/B
cp "$PROGS/probe" bin/A/prog
cp "$PROGS/probe" bin/B/prog
PLAN="--seed 11 --reps 2 --env-add 0:192:64 --system A=bin/A/prog --system B=bin/B/prog"
# shellcheck disable=SC2086 # the plan's options
il sweep -n $PLAN -- hello | cut -f2 | sort >plan
# task I of res.sbatch, as Slurm would run it: its log appended
task() {
	SLURM_ARRAY_TASK_ID=$1 SLURM_JOB_ID=$((100 + $1)) SLURMD_NODENAME=node$1 \
		sh res.sbatch >>"res.shard-$1-of-4.log" 2>&1
}

try "a rerun of --slurm takes the base from the shards and resubmits only the incomplete tasks"
# shellcheck disable=SC2086
il sweep $PLAN --slurm 4 --output res.jsonl -- hello 2>sub.err
assert_eq "$?" 0 "written"
base=$(sed -n 's/.* --env-base \([0-9]*\) .*/\1/p' res.sbatch)
assert_match "$base" "^[0-9]+$" "the script's --env-base"
task 1
task 3
assert_eq "$(recs res.shard-1-of-4.jsonl):$(recs res.shard-3-of-4.jsonl)" "4:4" "tasks 1 and 3 ran"
# a shell with one more variable: the base must not move (issue 16 section 1)
# shellcheck disable=SC2086
env IL_TEST_MORE=some-more-bytes-in-this-environment "$IL" sweep $PLAN --slurm 4 \
	--output res.jsonl -- hello 2>sub.err
assert_eq "$?" 0 "rewritten"
assert_eq "$(grep -c '^#SBATCH --array=2,4$' res.sbatch)" 1 "only tasks 2 and 4"
assert_eq "$(sed -n 's/.* --env-base \([0-9]*\) .*/\1/p' res.sbatch)" "$base" "the shards' base"
assert_match "$(cat sub.err)" "a Slurm array of tasks 2,4 of 4 shards of plan [0-9a-f]{12} \(seed 11, 16 runs\): shard 2 has 0 of its 4 runs, shard 4 has 0 of its 4 runs; the previous script kept as res.sbatch.1" "says which, and keeps the old script"
assert_eq "$(grep -c '^#SBATCH --array=1-4$' res.sbatch.1)" 1 "the previous script, kept"
task 2
task 4
il record merge -o res.jsonl res.shard-1-of-4.jsonl res.shard-2-of-4.jsonl \
	res.shard-3-of-4.jsonl res.shard-4-of-4.jsonl 2>merge.err
assert_eq "$?" 0 "merged: exactly the plan"
runs res.jsonl >got
assert_true "each of the plan's runs once" cmp -s plan got
# shellcheck disable=SC2086
il sweep $PLAN --slurm 4 --submit --output res.jsonl -- hello 2>sub.err
assert_eq "$?" 0 "complete: nothing to do"
assert_match "$(cat sub.err)" "the 4 shards of plan [0-9a-f]{12} are complete \(16 runs\): nothing to submit" "says so"
assert_true "no third script" [ ! -e res.sbatch.2 ]

try "--slurm without --seed takes the seed from the shards' files"
PLAN2="--reps 1 --env-add 0,64 --system A=bin/A/prog --system B=bin/B/prog"
# shellcheck disable=SC2086
il sweep $PLAN2 --slurm 2 --output d.jsonl -- hello 2>/dev/null
seed=$(sed -n 's/.* --seed \([0-9]*\) .*/\1/p' d.sbatch)
SLURM_ARRAY_TASK_ID=1 sh d.sbatch >>d.shard-1-of-2.log 2>&1
# shellcheck disable=SC2086
il sweep $PLAN2 --slurm 2 --output d.jsonl -- hello 2>err
assert_match "$(cat err)" "seed $seed, from d.shard-1-of-2.jsonl" "the seed of the shard"
assert_eq "$(grep -c '^#SBATCH --array=2$' d.sbatch)" 1 "task 2 only"

try "the scheduler's identity is in every record's labels, not in the plan"
assert_eq "$(rj res.shard-2-of-4.jsonl 'sorted({(x["labels"]["slurm_job"], x["labels"]["slurm_task"], x["labels"]["slurm_node"]) for x in r})')" \
	'[["102", "2", "node2"]]' "slurm_job, slurm_task, slurm_node"
assert_eq "$(rj res.shard-1-of-4.jsonl 'm[0]["plan"]')" "$(rj res.shard-2-of-4.jsonl 'm[0]["plan"]')" "one plan"
# shellcheck disable=SC2086
il sweep --label slurm_job=1 $PLAN -- hello 2>err
assert_match "$(cat err)" "--label slurm_job=1: the sweep sets slurm_job itself" "the sweep's own"
if ! command -v parallel >/dev/null; then
	skip "GNU parallel is not installed (make check installs it as root: Debian package parallel)"
else
	# shellcheck disable=SC2016,SC2086 # parallel fills {} in
	parallel -j 2 sh "$IL" sweep -q $PLAN --env-base "$base" --shard '{}/2' \
		--output 'par.{}.jsonl' -- hello ::: 1 2 2>/dev/null
	assert_eq "$(rj par.2.jsonl 'sorted({(x["labels"]["parallel_seq"], x["labels"]["parallel_slot"] in ("1", "2")) for x in r})')" \
		'[["2", true]]' "GNU parallel's sequence number and job slot"
fi

try "--slurm --status: each task's runs, Slurm's state where there is one, its log"
# shellcheck disable=SC2086
il sweep $PLAN2 --slurm 2 --status --output d.jsonl -- hello >st.out 2>st.err
assert_eq "$?" 2 "incomplete: status 2"
assert_match "$(sed -n 1p st.out)" "^plan [0-9a-f]{12}: 1 of 2 shards complete, 2 of 4 runs" "the summary"
assert_match "$(grep '^1 ' st.out)" "^1 +2/2 +- +interloper sweep: 2 runs \(shard 1/2 " "task 1: done, its log"
assert_match "$(grep '^2 ' st.out)" "^2 +no file +- +-$" "task 2: nothing yet"
SLURM_ARRAY_TASK_ID=2 sh d.sbatch 2>/dev/null
# shellcheck disable=SC2086
il sweep $PLAN2 --slurm 2 --status --output d.jsonl -- hello >st.out 2>st.err
assert_eq "$?" 0 "complete: status 0"

try "merge says which shards are incomplete and what their logs end with (a refused task)"
rm -f res.shard-2-of-4.jsonl res.shard-2-of-4.log
# a task whose environment is larger than the plan's base is refused
big=$(printf '%09000d' 0)
IL_TEST_BIG=$big task 2
assert_eq "$(recs res.shard-2-of-4.jsonl)" 0 "task 2 refused"
il record merge -o part.jsonl res.shard-1-of-4.jsonl res.shard-3-of-4.jsonl \
	res.shard-4-of-4.jsonl 2>merge.err
assert_eq "$?" 2 "not the plan"
assert_match "$(cat merge.err)" "shard 2/4: 0 of its 4 runs, no file of it was given; res.shard-2-of-4.log ends: interloper sweep: the environment here is [0-9]+ bytes larger than the plan's base" "the refused task and why"

try "machines whose facts differ are said at merge and in report; the host as a factor works"
SLURM_ARRAY_TASK_ID=2 sh res.sbatch 2>/dev/null
python3 - res.shard-2-of-4.jsonl <<'PY'
import json, sys
out = []
for l in open(sys.argv[1]):
    x = json.loads(l)
    if x.get("kind") == "machine":
        x["machine"].update(host="other", cpu="Another CPU 9000", kernel="Linux 5.10.0 x86_64",
                            governor=["powersave"], boost="on", smt="on", mem_total_kib=1024)
    if x.get("schema") == "interloper/1":
        x["host"] = "other"
    out.append(json.dumps(x, separators=(",", ":")))
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
il record merge -o mixed.jsonl res.shard-1-of-4.jsonl res.shard-2-of-4.jsonl \
	res.shard-3-of-4.jsonl res.shard-4-of-4.jsonl 2>merge.err
assert_eq "$?" 0 "the plan, whole ($(cat merge.err))"
assert_match "$(cat merge.err)" "warning: the runs come from machines whose facts differ \(host [^ ]+ \(res.shard-1-of-4.jsonl:[0-9]+\) and host other \(res.shard-2-of-4.jsonl:[0-9]+\): cpu '[^']*' and 'Another CPU 9000'; kernel '[^']*' and 'Linux 5.10.0 x86_64'; .*smt '[^']*' and 'on'; mem_total_kib '[0-9]+' and '1024'\)" "which facts differ"
il report --compare system=A --setup setup mixed.jsonl >/dev/null 2>rep.err
assert_match "$(cat rep.err)" "records come from machines whose facts differ \(hosts [^ ]+ and other: cpu .*\[machines\]" "report warns"
il report --compare system=A --setup setup,host mixed.jsonl >rep.out 2>rep.err
assert_eq "$?" 0 "--setup setup,host works"
assert_eq "$(grep -c '\[machines\]' rep.err)" 0 "and draws no warning"
assert_match "$(cat rep.out)" "setup x host" "the host a factor"
il report --compare system=A --setup setup --by host mixed.jsonl >rep.out 2>rep.err
assert_eq "$?:$(grep -c '\[machines\]' rep.err)" "0:0" "--by host: no warning"

try "snapshots during a sweep; a change of governor or load said at merge and in report"
il sweep -q --seed 2 --reps 6 --system A=bin/A/prog --snapshot-every 0.01 --no-check-output \
	--output snap.jsonl -- busy 20
assert_eq "$(rj snap.jsonl '[x["when"] for x in m if x["kind"] == "machine"][0]')" start "the first is the start's"
assert_eq "$(rj snap.jsonl 'len([x for x in m if x.get("when") == "during"]) >= 2')" true "snapshots during the sweep"
assert_eq "$(rj snap.jsonl 'len({x["sweep_id"] for x in m if x["kind"] == "machine"})')" 1 "of one sweep"
python3 - snap.jsonl <<'PY'
import json, sys
out, k = [], 0
for l in open(sys.argv[1]):
    x = json.loads(l)
    if x.get("kind") == "machine":
        # the real load of a shared machine is not asserted: every
        # snapshot is made steady, but the second during the sweep
        x["machine"].update(governor=["performance"], loadavg=[0.5, 1, 1])
        if x["when"] == "during":
            k += 1
            if k == 2:
                x["machine"].update(governor=["powersave"], loadavg=[9.5, 1, 1])
    out.append(json.dumps(x, separators=(",", ":")))
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY
il record merge --check snap.jsonl 2>merge.err
assert_eq "$?" 0 "complete"
assert_match "$(cat merge.err)" "warning: the machine changed during 1 sweep \(host [^,]+, from snap.jsonl:2 to snap.jsonl:[0-9]+: governor '\[\"performance\"\]' and '\[\"powersave\"\]'; load \(1-minute average\) between 0.50 and 9.50\)" "merge says"
il report --metric wall snap.jsonl >/dev/null 2>rep.err
assert_match "$(cat rep.err)" "the machine changed during a sweep \(host .*governor.*\[machine-changed\]" "report says"
il sweep -q --seed 2 --reps 1 --system A=bin/A/prog --snapshot-every 0 --output snap0.jsonl -- hello
assert_eq "$(grep -c '"when":"during"' snap0.jsonl)" 0 "--snapshot-every 0: none"
il sweep --snapshot-every 10x --system A=bin/A/prog -- hello 2>err
assert_match "$?:$(cat err)" "^1:interloper sweep: --snapshot-every 10x: expected seconds" "a bad value"

try "each node checks its binaries against the plan's SHA-256 before running"
sha=$(sha256sum bin/A/prog | cut -c1-64)
# shellcheck disable=SC2086
il sweep $PLAN --expect-sha256 "$sha,$(printf '%064d' 0)" --output x.jsonl -- hello 2>err
assert_eq "$?" 1 "refused"
assert_match "$(cat err)" "^interloper sweep: --system B=bin/B/prog: bin/B/prog here has SHA-256 [0-9a-f]{16}\.\.\., the plan's binary 0{16}\.\.\.: not the binary the plan was made with" "one line naming the binary"
assert_true "no results file" [ ! -e x.jsonl ]
mkdir n
# shellcheck disable=SC2086 # the plan's options
(
	cd n && mkdir -p bin/A bin/B && cp "$PROGS/probe" bin/A/prog && cp "$PROGS/probe" bin/B/prog &&
		sh "$IL" sweep $PLAN --slurm 2 --output r.jsonl -- hello 2>/dev/null &&
		cp /bin/true bin/B/prog &&
		SLURM_ARRAY_TASK_ID=1 sh r.sbatch >log 2>&1
)
assert_eq "$?" 1 "a node whose binary differs: the task fails"
assert_match "$(cat n/log)" "bin/B/prog here has SHA-256" "its log says which binary"

try "the script checks that interloper's path exists on its node"
mkdir -p front p
cp "$TOP/scripts/interloper" front/interloper
(cd p && mkdir -p bin/A && cp "$PROGS/probe" bin/A/prog &&
	INTERLOPER_LIBEXEC=$B/libexec sh "$T/front/interloper" sweep --seed 1 --reps 1 \
		--system A=bin/A/prog --slurm 1 --output q.jsonl -- hello 2>/dev/null)
rm -r front
(cd p && SLURM_ARRAY_TASK_ID=1 sh q.sbatch >log 2>&1)
assert_eq "$?" 127 "status 127"
assert_match "$(cat p/log)" "^interloper sweep: $T/front/interloper is not on node [^ ]+: install interloper at the same path on every node$" "one line"

try "--shard without --env-base warns at the start"
il sweep -q --seed 3 --reps 2 --system A=bin/A/prog --shard 1/2 --output w.jsonl -- hello 2>err
assert_match "$(sed -n 1p err)" "^interloper sweep: warning: --shard 1/2 without --env-base: this shard's setups take this environment's size, [0-9]+ bytes in [0-9]+ variables; a shard on a host whose environment differs will not merge with it" "warned"
il sweep -q --seed 3 --reps 2 --system A=bin/A/prog --shard 2/2 --env-base 8192 --output w2.jsonl -- hello 2>err
assert_eq "$(cat err)" "" "with --env-base: nothing"

try "merge refuses outputs that are not regular files or new paths; --check writes nothing"
if [ "$(id -u)" -eq 0 ]; then
	il record merge -o /dev/null res.jsonl 2>err
	assert_eq "$?" 1 "/dev/null as root: refused"
	assert_match "$(cat err)" "^interloper record merge: -o /dev/null: a character device, not a regular file; merge replaces the file it writes: give a regular file or a new path \(--check checks without writing\)$" "one line"
	assert_true "/dev/null is still a device" [ -c /dev/null ]
fi
echo keep >target
ln -s target link
il record merge -o link res.jsonl 2>err
assert_match "$?:$(cat err)" "^1:interloper record merge: -o link: a symbolic link, not a regular file" "a symbolic link: refused"
assert_eq "$(cat target):$(readlink link)" "keep:target" "the link and its target untouched"
mkdir dir
il record merge -o dir res.jsonl 2>err
assert_match "$?:$(cat err)" "^1:.*-o dir: a directory" "a directory: refused"
il record merge --check res.jsonl 2>err
assert_eq "$?" 0 "--check: the plan"
assert_match "$(cat err)" "^interloper record merge: plan [0-9a-f]{12}, 16 of its 16 runs \(16 records\) from 1 file$" "--check says"
before=$(find . | wc -l)
il record merge --check res.shard-1-of-4.jsonl 2>err
assert_eq "$?:$(find . | wc -l)" "2:$before" "--check: not the plan, status 2, nothing written"
il record merge --check -o x.jsonl res.jsonl 2>err
assert_eq "$?" 1 "--check with -o: bad use"

try "--missing lists every run missing; sweep --runs runs exactly those"
il record merge -o part.jsonl --missing todo res.shard-1-of-4.jsonl res.shard-3-of-4.jsonl 2>err
assert_eq "$?" 2 "not the plan"
assert_eq "$(wc -l <todo | tr -d ' ')" 8 "8 ids"
runs res.shard-2-of-4.jsonl res.shard-4-of-4.jsonl >want
sort todo >got
assert_true "the runs of the missing shards, all" cmp -s want got
# into the merged file, whose plan line fixes the environment (from a
# shell with other variables than the tasks had: the stack stays)
cp part.jsonl part0.jsonl
# shellcheck disable=SC2086
il sweep $PLAN --runs todo --output part.jsonl -- hello >out 2>err
assert_eq "$?" 0 "ran"
runs part.jsonl >got
runs part0.jsonl res.shard-2-of-4.jsonl res.shard-4-of-4.jsonl >all
assert_true "exactly the listed runs, added" cmp -s all got
assert_match "$(cat err)" "8 runs \(the 8 of --runs todo, of 4 setups x 2 systems x 2 reps" "says so"
# outside12 F21: the summary reads the whole file, and counts it so
assert_match "$(cat out)" ", 16 runs in 4 setups" "the summary counts the file's runs, not only those of --runs"
il record merge --check part.jsonl 2>err
assert_eq "$?" 0 "the plan, one setup one stack ($(cat err))"
printf 'A/e64/r1\nZ/nope/r9\n' >bad
# shellcheck disable=SC2086
il sweep $PLAN --runs bad --output bad.jsonl -- hello 2>err
assert_match "$?:$(cat err)" "^1:interloper sweep: --runs bad: Z/nope/r9 is not a run of plan [0-9a-f]{12} \(1 of the 2 ids listed are not\)" "an id not in the plan: refused"
assert_true "nothing run" [ ! -e bad.jsonl ]
il record merge --check --missing none res.jsonl 2>/dev/null
assert_eq "$?:$(wc -c <none | tr -d ' ')" "0:0" "nothing missing: an empty list"

try "an empty shard file is said"
: >empty.jsonl
il record merge -o e.jsonl res.jsonl empty.jsonl 2>err
assert_eq "$?" 0 "status"
assert_match "$(cat err)" "empty.jsonl is empty \(no line\)" "said"

try "record validate and record summary accept a sweep's results file"
il record validate res.jsonl 2>err
assert_eq "$?:$(cat err)" "0:" "validate"
il record summary res.jsonl 2>err
assert_eq "$?" 0 "summary"
assert_eq "$(grep -c 'Performance counter stats' err)" 16 "one summary a record"
echo '{"schema":"interloper-sweep/1","plan":"x"}' >badsweep
il record validate badsweep 2>err
assert_match "$?:$(cat err)" "^1:interloper record validate: badsweep:1: not an interloper-sweep/1 line: kind is missing" "a bad sweep line is named"

done_testing
