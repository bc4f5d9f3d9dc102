#!/bin/sh
# A sweep that runs for days: interrupted, killed, crashed mid-write, it
# resumes where it was; nothing it started outlives it; its progress is
# one line, not one per run.
# timeout: 600
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
# the sweeps' spec directories go here: the tests look at them
TMPDIR=$T/tmp
mkdir "$TMPDIR"
export TMPDIR
mkdir -p s/A s/B bin/A
cp /bin/sleep s/A/sl
cp /bin/sleep s/B/sl
cp "$PROGS/probe" bin/A/prog
alive() { pgrep -f "$1" >/dev/null; }
# wait_recs FILE N: until FILE has N records (at most 60 s)
wait_recs() {
	_i=0
	while [ "$(recs "$1")" -lt "$2" ] && [ "$_i" -lt 600 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
}
SWEEP="--seed 5 --reps 4 --env-add 0:192:64 --system A=s/A/sl --system B=s/B/sl"

try "SIGINT: the run under way is discarded, no partial line, the resume sentence, status 130"
# in the background: sh itself, which execs the sweep, so that $! is its pid
# shellcheck disable=SC2086 # the plan's options
sh "$IL" sweep $SWEEP --output int.jsonl -- 0.05 2>err &
p=$!
wait_recs int.jsonl 5
kill -INT $p
wait $p
assert_eq "$?" 130 "status"
assert_match "$(tail -n 1 err)" "^interloper sweep: interrupted after [0-9]+ of 32 runs; rerun the same command to resume$" "message"
assert_eq "$(tail -c 1 int.jsonl | od -An -c | tr -d ' ')" '\n' "the file ends with a whole line"
n=$(recs int.jsonl)
assert_eq "$(python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]; print("ok")' int.jsonl)" ok "every line is JSON"
assert_eq "$(sed -n 's/.*interrupted after \([0-9]*\) of.*/\1/p' err)" "$n" "the sentence counts the runs kept"
assert_eq "$(tail -n 1 int.jsonl | python3 -c 'import json, sys; print(json.load(sys.stdin)["sweep"]["stopped"])')" \
	"interrupted by SIGINT" "the end line says so"

try "rerunning the same command runs only the missing runs and says how many it skips"
# shellcheck disable=SC2086
il sweep $SWEEP --output int.jsonl -- 0.05 2>err
assert_eq "$?" 0 "status"
assert_match "$(quiet_machine err | head -n 1)" "^interloper sweep: resuming plan [0-9a-f]{12} in int.jsonl: $n of 32 runs are there already; running the other $((32 - n))$" "message"
# shellcheck disable=SC2086
il sweep -n $SWEEP | cut -f2 | sort >plan
runs int.jsonl >got
assert_true "the file holds the plan's runs, each once" cmp -s plan got

try "SIGTERM: status 143, and the sweep resumes"
# shellcheck disable=SC2086
sh "$IL" sweep -q $SWEEP --output term.jsonl -- 0.05 2>err &
p=$!
wait_recs term.jsonl 3
kill -TERM $p
wait $p
assert_eq "$?" 143 "status"
assert_match "$(cat err)" "interrupted after [0-9]+ of 32 runs; rerun the same command to resume" "message"
# shellcheck disable=SC2086
il sweep -q $SWEEP --output term.jsonl -- 0.05
runs term.jsonl >got
assert_true "complete after the rerun" cmp -s plan got

try "a torn last line is set aside with a message; the sweep goes on"
# shellcheck disable=SC2086
il sweep -q $SWEEP --reps 1 --output torn.jsonl -- 0.01
head -c 150 torn.jsonl | tail -c 60 >frag
printf '{"schema":"interloper/1","labels":{"run":"A/e0/r2"' >>torn.jsonl
# shellcheck disable=SC2086
il sweep $SWEEP --reps 2 --output torn.jsonl -- 0.01 2>err
assert_eq "$?" 0 "status"
assert_match "$(head -n 1 err)" "^interloper sweep: torn.jsonl:[0-9]+: the last line is torn \(50 bytes without a newline: a crash mid-write\?\); set aside in torn.jsonl.torn$" "message"
assert_eq "$(cat torn.jsonl.torn)" '{"schema":"interloper/1","labels":{"run":"A/e0/r2"' "the torn bytes kept aside"
assert_eq "$(recs torn.jsonl)" 16 "all runs, the torn one run again"

try "a results file of another plan is refused with one line, and left as it was"
cp int.jsonl before
il sweep -q --seed 6 --reps 4 --env-add 0:192:64 --system A=s/A/sl --system B=s/B/sl \
	--output int.jsonl -- 0.05 2>err
assert_eq "$?" 1 "status"
assert_eq "$(wc -l <err | tr -d ' ')" 1 "one line"
assert_match "$(cat err)" "^interloper sweep: int.jsonl holds runs of another plan \([0-9a-f]{12}, line 1; this sweep's plan is [0-9a-f]{12}\)" "message"
assert_true "untouched" cmp -s before int.jsonl
il run -q --output hand.jsonl -- bin/A/prog hello >/dev/null
il sweep -q --seed 6 --system A=bin/A/prog --output hand.jsonl -- hello 2>err
assert_match "$(cat err)" "hand.jsonl holds runs of another plan \(none, line 1" "records of no plan"

try "SIGKILL leaves no process behind: not the measured program, no holder"
rm -f kill.jsonl
K="$T/s/A/sl"
sh "$IL" sweep -q --seed 1 --reps 3 --system A="$K" --output kill.jsonl -- 30 &
p=$!
i=0
while ! alive "^$K 30" && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
assert_true "the measured program runs" alive "^$K 30"
assert_eq "$(ps -o comm= --ppid $p | sort | tr '\n' ' ')" "il-sweep-watch sl " "the sweep's children: the measured program and the watcher, no hold process"
kill -KILL $p
wait $p 2>/dev/null
i=0
while alive "^$K 30" && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
assert_eq "$(pgrep -f "^$K 30" | wc -l | tr -d ' ')" 0 "the measured program died with it"
assert_eq "$(find "$TMPDIR" -maxdepth 1 -name 'interloper-run.*' | wc -l | tr -d ' ')" 1 "its spec directory stays"
il run -q --output hand2.jsonl -- bin/A/prog hello >/dev/null
assert_eq "$(find "$TMPDIR" -maxdepth 1 -name 'interloper-run.*' | wc -l | tr -d ' ')" 0 "the next run removes it: its owner is gone"

try "interloper hold does not outlive what started it, even killed by SIGKILL"
# The parent is killed only once hold says it holds: hold learns who its
# parent is when it starts (getppid, then PR_SET_PDEATHSIG), and a parent
# killed before then (a sleep of 0.3 s was the wait, too short on a loaded
# machine) leaves hold reparented, holding for good.  It says so on stderr
# after that point.
rm -f hold.pid hold.err
sh -c 'sh "$1" hold 2>hold.err & echo $! >hold.pid; exec sleep 30' sh "$IL" &
p=$!
i=0
while [ ! -s hold.pid ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
h=$(cat hold.pid)
# until hold holds, or has ended (then the assertion below says so)
i=0
while ! grep -q '^interloper hold: holding ' hold.err && kill -0 "$h" 2>/dev/null && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
assert_match "$(cat hold.err)" "^interloper hold: holding [0-9]+ software events" "holding"
kill -KILL $p
wait $p 2>/dev/null
i=0
while kill -0 "$h" 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
assert_eq "$(kill -0 "$h" 2>/dev/null && echo alive || echo gone)" gone "hold ended with its parent"
kill "$h" 2>/dev/null # if it did not: not left holding after the test

try "progress: not on a terminal, no line per run"
il sweep --seed 1 --reps 10 --env-add 0:128:64 --system A=bin/A/prog --output prog.jsonl -- hello 2>err
assert_eq "$?" 0 "status"
assert_eq "$(recs prog.jsonl)" 30 "runs"
assert_eq "$(quiet_machine err | wc -l | tr -d ' ')" 1 "one line: the summary"
assert_match "$(quiet_machine err)" "^interloper sweep: 30 runs \(3 setups x 1 systems x 10 reps, seed 1, plan [0-9a-f]{12}\) in prog.jsonl; 0 failed$" "summary"

try "progress: on a terminal, one line redrawn in place"
if ! command -v script >/dev/null; then
	skip "script(1) is not installed (util-linux): no terminal to test with"
else
	script -qec "sh '$IL' sweep --seed 1 --reps 10 --env-add 0:128:64 --system A=bin/A/prog --output tty.jsonl -- hello" /dev/null >tty.out
	assert_eq "$(recs tty.jsonl)" 30 "runs"
	assert_match "$(tr '\r' '\n' <tty.out | grep -c 'runs, 0 failed')" "^[1-9]" "progress lines"
	assert_eq "$(grep -c "$(printf '\033\\[K')" tty.out)" 1 "redrawn on one line"
	assert_match "$(tr '\r' '\n' <tty.out | grep 'runs, 0 failed' | tail -n 1)" "30/30 runs, 0 failed, [0-9:]+ elapsed, ETA 0:00" "the last state"
fi

done_testing
