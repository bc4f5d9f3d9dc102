#!/bin/sh
# interloper sweep: what the review of issue 9 (R3) found, each case a
# reproduction that failed before its fix: the library's problems stop a
# sweep, runs leave no process behind, failed runs are retried, one launch
# is one run, -n does nothing, the environment's size is the plan's.
# timeout: 600
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
mkdir -p bin/A bin/B
cp "$PROGS/probe" bin/A/prog
cp "$PROGS/probe" bin/B/prog

try "the library's problems stop the sweep at the first run, named (R3 finding 2)"
il sweep -q --seed 4 --reps 1 --events no_such_event --system A=bin/A/prog \
	--system B=bin/B/prog --output ev.jsonl -- layout >out 2>err
assert_eq "$?" 1 "status"
assert_match "$(cat err)" "no_such_event" "the problem is named"
assert_eq "$(recs ev.jsonl)" 0 "no record of a run with a problem"
assert_eq "$(grep -c "ended with status 127" err)" 1 "stopped at the first run"
il sweep -q --seed 4 --reps 1 --stack-offset 0,16m --system A=bin/A/prog \
	--system B=bin/B/prog --output off.jsonl -- layout >out 2>err
assert_eq "$?" 1 "an offset not applied: status"
assert_match "$(cat err)" "STACK_OFFSET" "the offset is named"
il sweep -q --no-strict --seed 4 --reps 1 --events no_such_event --system A=bin/A/prog \
	--system B=bin/B/prog --output ev2.jsonl -- layout >out 2>err
assert_eq "$?" 0 "--no-strict goes on"
assert_eq "$(recs ev2.jsonl)" 2 "--no-strict: every run"

done_testing
