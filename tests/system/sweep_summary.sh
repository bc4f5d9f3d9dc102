#!/bin/sh
# A sweep of two or more systems ends with the five-second summary:
# each system's time, each ratio's verdict, single setups, why it ended,
# and the seed, plan and machine; every number interloper report's.
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
mkdir -p bin/A bin/B
cp "$PROGS/probe" bin/A/probe
cp "$PROGS/probe" bin/B/probe

try "a sweep of two systems ends with the summary on standard output, as compare's, every number the report's (outside14 F4)"
il sweep --seed 2 --reps 2 --env-add 0:192:64 --system A=bin/A/probe --system B=bin/B/probe \
	--no-check-output --output s.jsonl -- busy 2 >sum 2>err
assert_eq "$?" 0 "status"
assert_eq "$(grep -c 'sd of the runs' err)" 0 "nothing of it on standard error"
plan=$(rj s.jsonl 'r[0]["labels"]["plan"]')
il report --json --compare system=A --setup setup s.jsonl >rep.json 2>/dev/null
exp=$(python3 - <<'PY'
import json
j = json.load(open("rep.json"))
c = j["comparisons"][0]
v = c["verdict"]
print(v[:v.index("; single setups")])
print(v[v.index("single setups"):].split(",")[0])
PY
)
assert_match "$(sed -n 2p sum)" "^interloper sweep: wall, mean of the setups' means ± sd of the runs, 16 runs in 4 setups$" "the header"
assert_match "$(sed -n 3p sum)" "^  A       [0-9.]+ ms ± [0-9.]+ ms$" "system A"
assert_match "$(sed -n 4p sum)" "^  B       [0-9.]+ ms ± [0-9.]+ ms$" "system B"
assert_eq "$(sed -n 5p sum)" "  $(printf '%s\n' "$exp" | head -1)" "the verdict, the report's words"
assert_match "$(sed -n 6p sum)" "^    $(printf '%s\n' "$exp" | tail -1); beyond noise: (yes|no) \(p = [0-9.e-]+\)" "single setups, beyond noise"
assert_match "$(sed -n 7p sum)" "^  the plan's 16 runs ran, after [0-9.]+ s$" "why it ended"
assert_match "$(sed -n 8p sum)" "^  seed 2, plan $plan, machine [^ ]+ \(.*, CPUs [0-9,-]+\)$" "seed, plan, machine"
assert_match "$(sed -n 9p sum)" "^  records in s.jsonl; the full report.*: interloper report --metric wall --compare system=A --setup setup s.jsonl$" "the full report"

try "two setup factors: crossed where the setups let the report fit it, else the repeating factor's values as units"
# review12d: with 256 environment sizes each drawn once, the crossed model
# had too few cells, the report failed, and with it --until and the summary
il sweep --seed 3 --reps 1 --setups 8 --env-add 0:4080:16 --stack-offset 0,64 --system A=bin/A/probe \
	--system B=bin/B/probe --no-check-output --output sparse.jsonl -- busy 1 >out 2>err
assert_eq "$?:$(grep -c 'no summary' err)" "0:0" "status, and a summary"
assert_match "$(tail -n 1 out)" " --compare system=A --setup stack_offset sparse.jsonl$" \
	"8 sizes drawn once, 2 offsets: each offset a unit"
il report --compare system=A --setup stack_offset sparse.jsonl >/dev/null 2>&1
assert_eq "$?" 0 "that report runs"
il sweep --seed 3 --reps 1 --env-add 0,16,32 --stack-offset 0,64 --system A=bin/A/probe \
	--system B=bin/B/probe --no-check-output --output full.jsonl -- busy 1 >out 2>err
assert_match "$(tail -n 1 out)" " --compare system=A --setup env_add,stack_offset full.jsonl$" \
	"every pair of 3 sizes and 2 offsets: crossed"
# review12e: one failed run (left out by the report) leaves the crossed
# model too few cells: the report again with the unit design, not a failure
mkdir -p bin/F
printf '#!/bin/sh\nif [ ! -e "%s/flag" ]; then : >"%s/flag"; exit 1; fi\nexit 0\n' "$T" "$T" >bin/F/prog
printf '#!/bin/sh\nexit 0\n' >bin/F/okay && chmod +x bin/F/prog bin/F/okay
il sweep --seed 1 --reps 1 --env-add 0,16 --stack-offset 0,64 --system A=bin/F/okay --system B=bin/F/prog \
	--no-check-output --keep-going --output fail.jsonl >out 2>err
assert_eq "$?:$(grep -c 'no summary' err)" "1:0" "a summary (status 1: a run failed)"
assert_match "$(tail -n 1 out)" " --setup (env_add|stack_offset) fail.jsonl$" "the unit design, named"

try "with one run a setup, whether setups differ beyond noise could not be tested, and the summary says so"
il sweep --seed 2 --reps 1 --env-add 0:192:64 --system A=bin/A/probe --system B=bin/B/probe \
	--no-check-output --output one.jsonl -- busy 1 >out 2>err
assert_match "$(cat out)" "single setups ranged from .*; beyond noise: could not be tested \(" "could not be tested, and why"

try "with --events and no -m the summary is in wall time, and its header says so"
# newuser11 F2: the summary's numbers were wall time beside a README that
# reported the events; -m follows the user, and the default is said
il sweep --seed 2 --reps 1 --env-add 0:64:64 --events task-clock --system A=bin/A/probe \
	--system B=bin/B/probe --no-check-output --output ev.jsonl -- busy 1 >out 2>err
assert_eq "$(grep -c "^interloper sweep: wall (-m's default; the runs also recorded --events task-clock: give -m for one), mean of the setups' means ± sd of the runs" out)" \
	1 "--events without -m: wall, said"
il sweep --seed 2 --reps 1 --env-add 0:64:64 --events task-clock -m task-clock --system A=bin/A/probe \
	--system B=bin/B/probe --no-check-output --output ev2.jsonl -- busy 1 >out 2>err
assert_eq "$(grep -c "^interloper sweep: task-clock, mean of the setups' means ± sd of the runs" out)" 1 "-m task-clock: as asked, nothing added"

try "a sweep of shells: the commands they fork are counted in the shell's record, one run each"
mkdir -p s1 s2
cp /bin/dash s1/sh
cp /bin/dash s2/sh
il sweep --seed 1 --reps 2 --env-add 0:64:64 --system A=s1/sh --system B=s2/sh --output sh.jsonl \
	-- -c 'gzip -c /etc/services | cat' >out 2>err
assert_eq "$(rj sh.jsonl 'len([x for x in r if "counted_in" in x])')" 16 "a record for each child (2 a run), counted in the shell's"
il report --json sh.jsonl >rep.json 2>/dev/null
assert_eq "$(python3 -c 'import json; print([g["n"] for g in json.load(open("rep.json"))["groups"]])')" "[8]" \
	"the report counts the runs, not the children"
assert_match "$(cat out)" "A       [0-9.]+ ms" "and so does the summary"

try "--keep-going: the summary says how many runs of each system failed, and why (outside12 F16)"
# B's every third run (a counter file) kills itself with SIGSEGV
mkdir -p bin/K
crasher bin/K/a bin/K/b "$T/count"
il sweep --keep-going --seed 2 --reps 3 --env-add 0,64 --system A=bin/K/a --system B=bin/K/b \
	--output k.jsonl >out 2>err
assert_eq "$?" 1 "status: runs failed"
assert_eq "$(rj k.jsonl '[x["signal"] for x in m if x.get("kind") == "failed"]')" "[11, 11]" "two failed lines (counts 0 and 3 of 6)"
assert_eq "$(grep '^  [AB]: ' out)" "  B: 2 of 6 runs failed (SIGSEGV), left out" "the summary's line, for B alone"
at=$(grep -n 'B: 2 of 6' out | cut -d: -f1)
assert_eq "$(sed -n "$((at + 1))p" out | cut -c1-19)" "  the plan's 12 run" "beside the verdict, before why it ended"

try "no summary with one system, with -q, or for a shard"
il sweep --seed 2 --reps 1 --system A=bin/A/probe --output a.jsonl -- hello >out 2>err
assert_eq "$(grep -c 'sd of the runs' out err)" "out:0
err:0" "one system"
il sweep -q --seed 2 --reps 1 --system A=bin/A/probe --system B=bin/B/probe --output q.jsonl -- hello >out 2>err
assert_eq "$(wc -c <err | tr -d ' '):$(wc -c <out | tr -d ' ')" 0:0 "-q: nothing"
il sweep --seed 2 --reps 1 --shard 1/2 --system A=bin/A/probe --system B=bin/B/probe --output sh.jsonl -- hello >out 2>err
assert_eq "$(grep -c 'sd of the runs' out err)" "out:0
err:0" "a shard"

done_testing
