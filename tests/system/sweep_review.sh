#!/bin/sh
# interloper sweep: what the review of issue 9 (R3) found, each case a
# reproduction that failed before its fix: the library's problems stop a
# sweep, runs leave no process behind, failed runs are retried, one launch
# is one run, -n does nothing, the environment's size is the plan's.
# timeout: 600
# isolate: net
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
assert_match "$(cat err)" "give --no-strict" "and the way to go on"
assert_eq "$(recs ev.jsonl)" 0 "no record of a run with a problem"
assert_eq "$(grep -c "ended with status 127" err)" 1 "stopped at the first run"
il sweep -q --seed 4 --reps 1 --stack-offset 0,16m --system A=bin/A/prog \
	--system B=bin/B/prog --output off.jsonl -- layout >out 2>err
assert_eq "$?" 1 "an offset not applied: status"
assert_match "$(cat err)" "interloper: --stack-offset=16777216: leaves too little stack" "the offset is named, as given"
il sweep -q --no-strict --seed 4 --reps 1 --events no_such_event --system A=bin/A/prog \
	--system B=bin/B/prog --output ev2.jsonl -- layout >out 2>err
assert_eq "$?" 0 "--no-strict goes on"
assert_eq "$(recs ev2.jsonl)" 2 "--no-strict: every run"

# wait_for CMD...: up to 60 s for CMD to succeed (a bound against a hang,
# not a timing assertion)
wait_for() {
	i=0
	while ! "$@" && [ "$i" -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	"$@"
}
alive() { pgrep -f "$1" >/dev/null; }
gone() { ! pgrep -f "$1" >/dev/null; }

mkdir -p bin/S1 bin/S2
cp /bin/dash bin/S1/sh
cp /bin/dash bin/S2/sh
for how in TERM KILL; do
	try "a run's own children do not outlive the sweep (SIG$how) (R3 finding 6)"
	cp /bin/sleep "$T/slp$how"
	"$IL" sweep -q --seed 3 --reps 2 --system A=bin/S1/sh --system B=bin/S2/sh \
		--output "k$how.jsonl" -- -c "$T/slp$how 300; true" >/dev/null 2>&1 &
	# the sweep itself ("$IL" execs it), not its watcher (a fork with the
	# same command line, which ignores SIGTERM; pgrep -o told them apart by
	# start time, in clock ticks, a tie when both start in one tick), and
	# not another test run's sweep on this machine
	sw=$!
	assert_true "the run's child started" wait_for alive "$T/slp$how 300"
	kill "-$how" "$sw"
	wait "$sw"
	assert_true "its child ended with it" wait_for gone "$T/slp$how 300"
	pkill -KILL -f "$T/slp$how 300" # only this test's own leftover
done

try "a killed watcher is said and started again: a SIGKILL of the sweep still ends its run (outside15 L3)"
cp /bin/sleep "$T/slpW"
"$IL" sweep -q --seed 3 --reps 2 --system A=bin/S1/sh --output w.jsonl \
	-- -c "$T/slpW 300; true" >/dev/null 2>w.err &
sw=$!
assert_true "the first run started" wait_for alive "^$T/slpW 300"
# the watcher by its pid, as the sweep's child named il-sweep-watch
watcher() { ps -o pid=,comm= --ppid "$sw" | awk '$2 == "il-sweep-watch" { print $1 }'; }
w1=$(watcher)
assert_match "$w1" "^[0-9]+$" "the sweep has a watcher"
kill -KILL "$w1"
# anchored: the sweep's command line, and its watcher's, hold the words too
pkill -KILL -f "^$T/slpW 300" # the first run ends; the next one starts
said() { grep -q "il-sweep-watch (pid $w1, .*) was killed by SIGKILL; another started" w.err; }
assert_true "the sweep says so, in one line, at the next run" wait_for said
assert_eq "$(wc -l <w.err | tr -d ' ')" 1 "one line ($(cat w.err))"
assert_true "the next run started" wait_for alive "^$T/slpW 300"
w2=$(watcher)
assert_match "$w2" "^[0-9]+$" "another watcher"
assert_true "another pid" test "$w2" != "$w1"
assert_eq "$(for f in /proc/"$w2"/fd/*; do case ${f##*/} in [012]) ;; *) readlink "$f" | cut -d: -f1 ;; esac; done | tr '\n' ' ')" \
	"socket " "it holds nothing of the sweep's (the results file's lock): its socket and stdio only"
kill -KILL "$sw"
wait "$sw"
assert_true "the run ended with the sweep" wait_for gone "^$T/slpW 300"
pkill -KILL -f "^$T/slpW 300" # only this test's own leftover

try "a run's background children end with the run (R3 finding 6)"
cp /bin/sleep "$T/slpbg"
il sweep -q --seed 3 --reps 1 --system A=bin/S1/sh --output bg.jsonl \
	-- -c "$T/slpbg 300 >/dev/null 2>&1 & true" >/dev/null 2>&1
assert_eq "$?" 0 "status"
assert_true "the background child is gone" wait_for gone "$T/slpbg 300"
pkill -KILL -f "$T/slpbg 300"

try "records of one launch are one run; two launches of a run are a duplicate, adjacent or not (R3 finding 5)"
cp /bin/true "$T/tru"
il sweep -q --seed 5 --reps 2 --env-add 0,64 --system A=bin/S1/sh --system B=bin/S2/sh \
	--output chain.jsonl -- -c "$T/tru; $T/tru" >/dev/null
assert_eq "$?" 0 "status"
assert_eq "$(recs chain.jsonl)" 24 "three records a launch (the shell and its two children)"
il record merge -o m1.jsonl chain.jsonl 2>err
assert_eq "$?" 0 "merge: the plan exactly"
assert_match "$(cat err)" "8 of its 8 runs \(24 records\)" "merge: each launch one run"
awk '{ print } /"schema":"interloper\/1"/ { print }' chain.jsonl >adj.jsonl
il record merge -o m2.jsonl adj.jsonl 2>err
assert_eq "$?" 2 "merge: duplicates on adjacent lines"
assert_match "$(cat err)" "8 runs found more than once" "merge: says so"
assert_eq "$(recs m2.jsonl)" 24 "merge: the first launch kept"

try "a failed run is retried by a rerun, and merge says runs failed (R3 finding 7)"
fail="case \$0 in *S2*) test ! -e $T/flag ;; esac"
touch flag
il sweep -q --keep-going --seed 3 --reps 2 --env-add 0,64 --system A=bin/S1/sh \
	--system B=bin/S2/sh --output f.jsonl -- -c "$fail" >/dev/null 2>err
assert_eq "$?" 1 "the first sweep: runs failed"
il record merge -o mf.jsonl f.jsonl 2>err
assert_eq "$?" 2 "merge: not exactly the plan"
assert_match "$(cat err)" "4 runs failed" "merge: the failed runs said"
rm flag
il sweep --seed 3 --reps 2 --env-add 0,64 --system A=bin/S1/sh --system B=bin/S2/sh \
	--output f.jsonl -- -c "$fail" >/dev/null 2>err
assert_eq "$?" 0 "the rerun: status"
assert_match "$(cat err)" "retrying 4 failed" "the rerun says it retries them"
assert_eq "$(recs f.jsonl)" 12 "the failed runs' records stay"
il record merge -o mf.jsonl f.jsonl 2>err
assert_eq "$?" 0 "merge after the retry: exactly the plan"
assert_match "$(cat err)" "8 of its 8 runs" "merge: every run"
il sweep --seed 3 --reps 2 --env-add 0,64 --system A=bin/S1/sh --system B=bin/S2/sh \
	--output f.jsonl -- -c "$fail" >/dev/null 2>err
assert_match "$(cat err)" "8 of 8 runs are there already" "a third run: nothing to do"

try "a run that dies where the library cannot see it: a failed line names the signal (issue 17)"
# A fault in a thread that blocks every signal (a thread pool's mask), and
# a signal before main: no handler runs, no record is written, and the
# results file must not just lack the run.
mkdir -p bin/K bin/T
cp "$PROGS/exitpaths" bin/K/prog
cp "$PROGS/ctorkill" bin/T/prog
il sweep -q --keep-going --seed 5 --reps 1 --system K=bin/K/prog --output k.jsonl -- segv-blocked >/dev/null 2>err
assert_eq "$?" 1 "a fault no handler sees: the sweep's status"
assert_eq "$(recs k.jsonl)" 0 "its records"
assert_eq "$(rj k.jsonl '[(x["signal"], x["records"]) for x in m if x.get("kind") == "failed"]')" \
	"[[11, 0]]" "the failed line: the signal, no record"
assert_match "$(rj k.jsonl '[x["why"] for x in m if x.get("kind") == "failed"][0]')" \
	"^was killed by SIGSEGV \(signal 11, Segmentation fault\) and left no record" "why"
assert_match "$(cat err)" "run K/[^ ]* was killed by SIGSEGV" "said on stderr"
il sweep -q --keep-going --seed 5 --reps 1 --system T=bin/T/prog --output t.jsonl >/dev/null 2>err
assert_eq "$?" 1 "a signal before main: the sweep's status"
assert_eq "$(rj t.jsonl '[(x["signal"], x["records"]) for x in m if x.get("kind") == "failed"]')" \
	"[[15, 0]]" "the failed line: SIGTERM, no record"

try "AddressSanitizer builds: the runtime first in every run's LD_PRELOAD; a mixed sweep refused (issue 17)"
printf '#include <stdio.h>\nint main(void) { puts("same"); return 0; }\n' >asan.c
mkdir -p bin/Z1 bin/Z2
if ! cc -fsanitize=address -o bin/Z1/prog asan.c 2>/dev/null || ! bin/Z1/prog >/dev/null 2>&1; then
	skip "cc -fsanitize=address does not build a program that runs here"
else
	cp bin/Z1/prog bin/Z2/prog
	il sweep -q --seed 5 --reps 1 --system A=bin/Z1/prog --system B=bin/Z2/prog --output z.jsonl >/dev/null 2>err
	assert_eq "$?" 0 "two ASan builds: status ($(tail -n 2 err))"
	assert_eq "$(recs z.jsonl)" 2 "their records"
	il sweep -q --seed 5 --reps 1 --system A=bin/Z1/prog --system B=bin/A/prog --output zm.jsonl >/dev/null 2>err
	assert_eq "$?" 1 "an ASan build against a plain one: refused"
	assert_match "$(cat err)" "needs (nothing|libasan[^ ]*) first in LD_PRELOAD and .* needs (nothing|libasan[^ ]*); every run of a sweep has the same" "the line"
	assert_true "nothing written" [ ! -s zm.jsonl ]
fi

try "a setup has one environment size on resume, in every shard, or the sweep refuses (R3 finding 1)"
fail="case \$0 in *S2*) test ! -e $T/flag1 ;; esac"
touch flag1
env IL_TEST_EXTRA=12345678 "$IL" sweep -q --keep-going --seed 6 --reps 2 --env-add 0,64 \
	--system A=bin/S1/sh --system B=bin/S2/sh --output es.jsonl -- -c "$fail" >/dev/null 2>&1
assert_eq "$?" 1 "the first sweep: B failed"
env IL_TEST_EXTRA=1234567890123456789012345678901234567890 "$IL" sweep -q --seed 6 --reps 2 \
	--env-add 0,64 --system A=bin/S1/sh --system B=bin/S2/sh --output es.jsonl -- -c "$fail" \
	>/dev/null 2>err
assert_eq "$?" 1 "a resume in a larger environment is refused"
assert_match "$(cat err)" "32 bytes larger" "it names the extra bytes"
assert_eq "$(recs es.jsonl)" 8 "nothing ran"
# newuser11 F7: and the variables, from the plan line's names and sizes
# (names only: no value is in the results file)
assert_match "$(cat err)" "; against its first start's environment, here: IL_TEST_EXTRA is 32 bytes longer\)" \
	"it names the variable that grew"
assert_eq "$(grep -m 1 '"env_names"' es.jsonl | python3 -c 'import json, sys; print(json.load(sys.stdin)["env_names"]["IL_TEST_EXTRA"])'):$(grep -c 12345678 es.jsonl)" \
	"23:0" "the plan line: each variable's bytes, never its value"
env IL_TEST_EXTRA=12345678 IL_TEST_NEW_ONE=abcdefghijklmnopqrstuvwxyz0123456789 "$IL" sweep -q --seed 6 \
	--reps 2 --env-add 0,64 --system A=bin/S1/sh --system B=bin/S2/sh --output es.jsonl -- -c "$fail" \
	>/dev/null 2>err
assert_match "$(cat err)" "here: IL_TEST_NEW_ONE is new \(53 bytes\)" "a new variable: named"
rm flag1
il sweep -q --seed 6 --reps 2 --env-add 0,64 --system A=bin/S1/sh --system B=bin/S2/sh \
	--output es.jsonl -- -c "$fail" >/dev/null 2>err
assert_eq "$?" 0 "a resume in a smaller environment: status"
assert_eq "$(rj es.jsonl 'sorted(set((x["labels"]["setup"], x["setup"]["env_bytes"]) for x in r if x["exit"]["status"] == 0))' | python3 -c 'import json, sys; v = json.load(sys.stdin); print(len(v), len(set(s for s, _ in v)))')" \
	"2 2" "one size per setup across the two sweeps"
il sweep -q --seed 7 --shard 1/2 --env-add 0,64 --system A=bin/S1/sh --output sh1.jsonl -- -c true
il sweep -q --seed 7 --shard 2/2 --env-add 0,64 --env-base 4000 --system A=bin/S1/sh \
	--output sh2.jsonl -- -c true
assert_eq "$(rj sh2.jsonl 'len(r) > 0 and all(x["setup"]["env_bytes"] == 4000 + int(x["labels"]["env_add"]) for x in r)')" \
	true "--env-base: the size of every setup is base + env_add"
il record merge -o shm.jsonl sh1.jsonl sh2.jsonl 2>err
assert_eq "$?" 2 "merge: shards of different environment sizes"
assert_match "$(cat err)" "environment" "merge says so"
il sweep -q --seed 7 --env-add 0,64 --system A=bin/S1/sh --slurm 2 --output sl.jsonl -- -c true
assert_match "$(cat sl.sbatch)" "--env-base [0-9]+ " "the Slurm script fixes the base for every task"
assert_match "$(cat sl.sbatch)" "#SBATCH --open-mode=append" "a resubmitted array appends to its logs"
# chain.jsonl with its first record's environment ADD bytes larger, and
# its main_sp SP (none: as it was)
skew() {
	python3 -c 'import json, sys
done = False
for l in open(sys.argv[1]):
    x = json.loads(l)
    if not done and x.get("schema") == "interloper/1":
        x["setup"]["env_bytes"] += int(sys.argv[2])
        if sys.argv[3:]:
            x["setup"]["main_sp"] = sys.argv[3]
        done = True
    print(json.dumps(x, separators=(",", ":")))' chain.jsonl "$@"
}
skew 16 0x7fffffffd000 >skew.jsonl
il record merge -o skm.jsonl skew.jsonl 2>err
assert_eq "$?" 2 "merge: one setup with two environment sizes"
assert_match "$(cat err)" "setup e[0-9]+ .*(2 environment sizes|2 stacks)" "merge names the setup"
# outside14 F3: sizes that differ by bytes main's stack does not feel (its
# pointer 16-byte aligned: main_sp the same) are one setup, not a moved stack
skew 1 >skew1.jsonl
il record merge -o skm1.jsonl skew1.jsonl 2>err
assert_eq "$?:$(grep -c 'not one setup' err)" "0:0" "merge: a byte more, main_sp the same: one setup ($(cat err))"
for i in 1 2; do
	il sweep -q --seed 7 --shard $i/2 --reps 3 --env-add 0,64 --system A=bin/S1/sh --output sb$i.jsonl -- -c true 2>/dev/null
done
# shard 1's file cut in two, the second part's plan line a byte larger and
# its records too, as a shard resumed in an environment a byte longer
python3 -c 'import json, sys
a, b, n = open("sba.jsonl", "w"), open("sbb.jsonl", "w"), 0
for l in open(sys.argv[1]):
    x = json.loads(l)
    if x.get("kind") == "plan":
        a.write(l)
        x["env_base"] += 1
        b.write(json.dumps(x, separators=(",", ":")) + "\n")
    elif x.get("schema") == "interloper/1":
        n += 1
        if n > 1:
            x["setup"]["env_bytes"] += 1
        (b if n > 1 else a).write(json.dumps(x, separators=(",", ":")) + "\n")
    else:
        a.write(l)' sb1.jsonl
il record merge -o sbm.jsonl sba.jsonl sbb.jsonl sb2.jsonl 2>err
assert_eq "$?" 0 "merge: parts whose bases differ by a byte, the setup's main_sp the same: status 0 ($(cat err))"
assert_match "$(cat err)" "differ in environment \(.*\), but the stack did not move: 2 records in another size than their setup's first have its main_sp" "and it says why"
python3 -c 'import json, sys
for l in open(sys.argv[1]):
    x = json.loads(l)
    if x.get("schema") == "interloper/1":
        x["setup"]["main_sp"] = hex(int(x["setup"]["main_sp"], 16) - 16)
    print(json.dumps(x, separators=(",", ":")))' sbb.jsonl >sbc.jsonl
il record merge -o sbm2.jsonl sba.jsonl sbc.jsonl sb2.jsonl 2>err
assert_eq "$?" 2 "the same with main_sp moved: status 2"
assert_match "$(cat err)" "2 environment sizes.*the setup is not one setup" "the stack moved: said"

try "-n with --slurm --submit writes and submits nothing; it prints the script (R3 finding 3)"
mkdir -p fakebin
printf '#!/bin/sh\ntouch "%s/submitted"\necho Submitted batch job 1\n' "$T" >fakebin/sbatch
chmod +x fakebin/sbatch
PATH="$T/fakebin:$PATH" "$IL" sweep -n --seed 13 --reps 1 --env-add 0,64 --system A=bin/S1/sh \
	--slurm 2 --submit --output d.jsonl -- -c true >out 2>err
assert_eq "$?" 0 "status"
assert_true "nothing submitted" test ! -e submitted
assert_true "no script written" test ! -e d.sbatch
assert_match "$(cat out)" "#SBATCH --array=1-2" "the script on stdout"

try "a drawn seed: rerunning the same command resumes; --shard needs --seed (R3 finding 4)"
touch flag2
il sweep --keep-going --reps 1 --env-add 0,64 --system A=bin/S1/sh --output ds.jsonl \
	-- -c "test ! -e $T/flag2" >/dev/null 2>err
assert_eq "$?" 1 "the first sweep: its runs failed"
seed=$(sed -n 's/^interloper sweep: seed \([0-9]*\)$/\1/p' err)
assert_match "$seed" "^[0-9]+$" "the drawn seed is said"
rm flag2
il sweep --reps 1 --env-add 0,64 --system A=bin/S1/sh --output ds.jsonl \
	-- -c "test ! -e $T/flag2" >/dev/null 2>err
assert_eq "$?" 0 "the same command resumes"
assert_match "$(cat err)" "seed $seed, from ds.jsonl" "it takes the seed from the results file"
assert_eq "$(rj ds.jsonl 'sorted(set(x["labels"]["seed"] for x in r))')" "[\"$seed\"]" "one seed"
il sweep -q --shard 1/2 --env-add 0,64 --system A=bin/S1/sh --output dsh.jsonl -- -c true 2>err
assert_eq "$?" 1 "--shard without --seed: refused"
assert_match "$(cat err)" "--seed" "it says to give --seed"
assert_true "nothing written" test ! -e dsh.jsonl

try "--until stops on interloper report's errors and says them (R3 finding 8)"
# a metric that report cannot find once the runs are in: the sweep refuses
# such a -m before any run (236b7b1), and --events under --backend none
# (fix12), which provoked it until then; so the report the sweep runs is
# given one: a libexec of links to this build's, where interloper-report
# is the real one with its --metric's value replaced
mkdir fakelibexec
for f in "$B"/libexec/*; do ln -s "$f" fakelibexec/; done
rm fakelibexec/interloper-report
cat >fakelibexec/interloper-report <<EOF
#!/bin/sh
n=\$# prev=
for a; do
	[ "\$prev" = --metric ] && a=no_such_metric
	prev=\$a
	set -- "\$@" "\$a"
done
shift "\$n"
exec "$B/libexec/interloper-report" "\$@"
EOF
chmod +x fakelibexec/interloper-report
INTERLOPER_LIBEXEC=$T/fakelibexec sh "$IL" sweep -q --seed 3 --reps 2 --env-add 0:1024:64 --setups 2 \
	--until 5 --max-runs 200 --system A=bin/S1/sh --system B=bin/S2/sh --output un.jsonl -- -c true 2>err
assert_eq "$?" 1 "status"
assert_match "$(cat err)" "interloper report failed.*unknown metric 'no_such_metric'" "report's own message"
assert_eq "$(recs un.jsonl)" 8 "the first batch only"

try "-n prints for each run an interloper run command that reproduces it (R3 finding 9)"
printf '#!/bin/sh\nexec sh "%s" "$@"\n' "$IL" >fakebin/interloper
chmod +x fakebin/interloper
il sweep -q --seed 8 --reps 1 --env-add 0,64 --stack-offset 0,32 --system A=bin/S1/sh \
	--output dry.jsonl -- -c true
il sweep -n --seed 8 --reps 1 --env-add 0,64 --stack-offset 0,32 --system A=bin/S1/sh \
	--output dry.jsonl -- -c true >plan.txt
assert_eq "$(wc -l <plan.txt | tr -d ' ')" 4 "four runs"
assert_match "$(cut -f8 plan.txt | head -n 1)" "^interloper run " "an interloper run command"
grep "$(rj dry.jsonl 'r[-1]["labels"]["run"]')" plan.txt | cut -f8 >one.sh
PATH="$T/fakebin:$PATH" sh one.sh
assert_eq "$?" 0 "it runs"
assert_eq "$(rj dry.jsonl 'len(r) == 5 and r[-1]["setup"]["env_bytes"] == r[-2]["setup"]["env_bytes"] and r[-1]["setup"]["main_sp"] == r[-2]["setup"]["main_sp"] and r[-1]["argv"] == r[-2]["argv"] and {k: v for k, v in r[-2]["labels"].items() if k != "launch"} == r[-1]["labels"]')" \
	true "the same environment size, stack, argv and labels as the sweep's run"

try "small things the review found: one clear line each (R3 finding 10)"
il sweep -n --seed 1 --env-add 1,,2 --system A=bin/S1/sh 2>err >/dev/null
assert_eq "$?:$(cat err)" "1:interloper sweep: --env-add 1,,2: an empty value between commas; expected a comma-separated list" "--env-add 1,,2"
il sweep -n --seed 1 --stack-pin bogus --system A=bin/S1/sh 2>err >/dev/null
assert_match "$(cat err)" "after --stack-pin" "--stack-pin bogus"
mkfifo fifo
il sweep -n --seed 1 --input fifo --system A=bin/S1/sh 2>err >/dev/null
assert_match "$(cat err)" "--input fifo: not a regular file" "--input from a pipe"
il sweep -n --seed 1 --setups 2 --system A=bin/S1/sh 2>err >/dev/null
assert_match "$(cat err)" "only 1 setup exists" "one setup, singular"
printf 'my notes' >notes.txt
il sweep -q --seed 1 --system A=bin/S1/sh --output notes.txt -- -c true 2>err
assert_eq "$?" 1 "a file that is not a results file: refused"
assert_eq "$(cat notes.txt)" "my notes" "and left as it was"
assert_true "nothing set aside" test ! -e notes.txt.torn
il record merge -o x.jsonl . 2>err
assert_match "$(cat err)" "cannot read \\.: Is a directory" "merge of a directory"
il record merge -o x.jsonl -- chain.jsonl 2>err
assert_eq "$?" 0 "merge -o OUT -- FILE"
il record merge -o x.jsonl chain.jsonl 2>err
assert_match "$(cat err)" "from 1 file\$" "one file, singular"
long=$(python3 -c 'print("S" * 600)')
il sweep -n --seed 1 --system "$long=bin/S1/sh" 2>err >/dev/null
assert_eq "$?" 1 "a 600-character system name: refused"
assert_match "$(cat err)" "too long" "says why"

try "two sweeps at once on one results file: the second is refused (R3 finding 5)"
cp /bin/sleep "$T/slptwo"
mkdir -p bin/P1 bin/P2
cp "$T/slptwo" bin/P1/sl
cp "$T/slptwo" bin/P2/sl
# absolute paths: the patterns below must match this run's processes only
"$IL" sweep -q --seed 5 --reps 2 --system "A=$T/bin/P1/sl" --system "B=$T/bin/P2/sl" \
	--output twice.jsonl -- 300 >/dev/null 2>&1 &
first=$!
assert_true "the first sweep runs" wait_for alive "$T/bin/P[12]/sl 300"
il sweep -q --seed 5 --reps 2 --system "A=$T/bin/P1/sl" --system "B=$T/bin/P2/sl" \
	--output twice.jsonl -- 300 2>err
assert_eq "$?" 1 "the second: refused"
assert_match "$(cat err)" "another sweep is writing twice.jsonl" "it says why"
kill -TERM "$first"
wait "$first"
assert_eq "$(recs twice.jsonl)" 0 "no run of either in the file"

done_testing
