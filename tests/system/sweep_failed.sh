#!/bin/sh
# A run the sweep called failed is left out of every report of its
# records, whatever its exit status and wherever the sweep's failed line
# is (review13e HIGH-1, HIGH-2): the report drops the records of every
# launch a {"kind":"failed"} line names, and counts them in [failed].
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
mkdir -p bin/A bin/B
printf '#!/bin/sh\nexit 0\n' >bin/A/p
# B's second run (of all its runs, through a counter of this test's own)
# hangs, but ends with status 0 when the sweep's --timeout sends SIGTERM;
# the sleep's length is this test's own (CI runs two clones at once)
cat >bin/B/p <<EOF
#!/bin/sh
n=\$(cat "$T/cnt" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$T/cnt"
if [ "\$n" = 1 ]; then
	trap 'kill \$! 2>/dev/null; exit 0' TERM
	sleep 7$$ &
	wait
fi
exit 0
EOF
chmod +x bin/A/p bin/B/p

# nrun FILE [OPTION...]: "system=n ..." of report --by system
nrun() {
	_f=$1
	shift
	il report --json --by system "$@" "$_f" 2>"$T/rep.err" | python3 -c 'import json, sys
j = json.load(sys.stdin)
print(" ".join("%s=%d" % (g["labels"]["system"], g["n"]) for g in j["groups"]))'
}

try "a run stopped at --timeout that exits 0 is left out of the report's numbers (review13e HIGH-2)"
rm -f cnt
il sweep --keep-going --seed 1 --reps 3 --timeout 1 --system A=bin/A/p --system B=bin/B/p \
	--output k.jsonl >out 2>err
assert_eq "$?" 1 "status: a run failed"
assert_eq "$(rj k.jsonl '[(x["run"], x["status"], x["timeout"]) for x in m if x.get("kind") == "failed"]')" \
	'[["B/e0/r2", 0, 1.0]]' "the failed line: status 0, past the limit"
assert_eq "$(nrun k.jsonl)" "A=3 B=2" "the report leaves it out"
assert_match "$(cat rep.err)" "1 record of a launch the sweep marked failed was left out \(1 in system=B\); --include-failed keeps them \[failed\]" "and says so"
assert_eq "$(nrun k.jsonl --include-failed)" "A=3 B=3" "--include-failed keeps it"
assert_match "$(cat out)" "B: 1 of 3 runs failed \(--timeout\), left out" "the summary says it is left out"

try "a resumed sweep's retried run counts once (review13e HIGH-1)"
rm -f cnt
il sweep -q --seed 1 --reps 3 --timeout 1 --system A=bin/A/p --system B=bin/B/p --output r.jsonl 2>err
assert_eq "$?" 1 "status: the sweep stops at the failed run"
il sweep -q --seed 1 --reps 3 --timeout 1 --system A=bin/A/p --system B=bin/B/p --output r.jsonl 2>err
assert_eq "$?" 0 "status: the resume retries it"
assert_eq "$(rj r.jsonl 'sorted(set(x["labels"]["launch"] for x in r if x["labels"]["run"] == "B/e0/r2")).__len__()')" 2 "two launches of that run in the file"
assert_eq "$(nrun r.jsonl)" "A=3 B=3" "each run once"
assert_eq "$(il report --json --by run r.jsonl 2>/dev/null | python3 -c 'import json, sys; print(sorted(set(g["n"] for g in json.load(sys.stdin)["groups"])))')" \
	"[1]" "every run one value"
assert_eq "$(nrun r.jsonl --per run)" "A=3 B=3" "--per run: the retry is the run (review14b HIGH-1)"
assert_match "$(cat rep.err)" "^[^[]*1 record of a launch the sweep marked failed was left out \(1 run retried, whose retry is kept; 1 in system=B\)" \
	"--per: the failed attempt left out, the run not said a failed run (review15b M1)"
assert_eq "$(il report --json --by system --per run r.jsonl 2>/dev/null | python3 -c 'import json, sys; i = json.load(sys.stdin)["input"]; print(i["failed"], i["used"])')" \
	"0 6" "--per: no run failed, every run used (review15b M1)"
nrun r.jsonl >/dev/null
assert_match "$(cat rep.err)" "^[^[]*1 record of a launch the sweep marked failed was left out \(1 in system=B\)" \
	"without --per: the failed attempt's record, not a failed run (review15b M1)"
assert_eq "$(nrun k.jsonl --per run)" "A=3 B=2" "--per: the --keep-going sweep's run that failed, never retried"
assert_match "$(cat rep.err)" "^[^[]*1 failed run was left out \(1 the sweep marked failed; 1 in system=B\)" \
	"--per: a run never retried is a failed run left out"

try "the failed line before its records, in another file, on the standard input, compressed"
grep '"kind":"failed"' k.jsonl >f.jsonl
grep -v '"kind":"failed"' k.jsonl >a.jsonl
cat f.jsonl a.jsonl >before.jsonl
assert_eq "$(nrun before.jsonl)" "A=3 B=2" "before its records"
assert_eq "$(nrun a.jsonl)" "A=3 B=3" "without it: kept (its status is 0)"
assert_eq "$(il report --json --by system a.jsonl f.jsonl 2>/dev/null | python3 -c 'import json, sys; print([g["n"] for g in json.load(sys.stdin)["groups"]])')" \
	"[3, 2]" "in a later file"
assert_eq "$(il report --json --by system f.jsonl a.jsonl 2>/dev/null | python3 -c 'import json, sys; print([g["n"] for g in json.load(sys.stdin)["groups"]])')" \
	"[3, 2]" "in an earlier file"
assert_eq "$(nrun - <k.jsonl)" "A=3 B=2" "the standard input"
assert_eq "$(nrun - <before.jsonl)" "A=3 B=2" "the standard input, the line first"
assert_eq "$(il report --json --by system a.jsonl - <f.jsonl 2>/dev/null | python3 -c 'import json, sys; print([g["n"] for g in json.load(sys.stdin)["groups"]])')" \
	"[3, 2]" "the line on the standard input, the records in a file"
assert_eq "$(il report --json --by system - f.jsonl <a.jsonl 2>/dev/null | python3 -c 'import json, sys; print([g["n"] for g in json.load(sys.stdin)["groups"]])')" \
	"[3, 2]" "the records on the standard input, the line in a file"
if command -v gzip >/dev/null 2>&1; then
	gzip -c k.jsonl >k.jsonl.gz
	assert_eq "$(nrun k.jsonl.gz)" "A=3 B=2" "gzip"
fi
# --where and warm-ups left out before: the records are numbered as read
assert_eq "$(nrun k.jsonl --where system=B)" "B=2" "--where"

try "an input that is not a regular file is read once, whatever its name (review14b HIGH-2)"
# nrunp FILE...: nrun's figures of report --by system FILE..., within 60 s
# (an input opened again by name would wait for a writer for ever)
nrunp() {
	timeout 60 sh "$IL" report --json --by system "$@" 2>"$T/rep.err" | python3 -c 'import json, sys
j = json.load(sys.stdin)
print(" ".join("%s=%d" % (g["labels"]["system"], g["n"]) for g in j["groups"]))'
}
mkfifo ff
cat k.jsonl >ff &
w=$!
assert_eq "$(nrunp ff)" "A=3 B=2" "a FIFO"
kill "$w" 2>/dev/null
wait "$w"
# shellcheck disable=SC2002 # a pipe, not the file
assert_eq "$(cat k.jsonl | nrunp /dev/stdin)" "A=3 B=2" "/dev/stdin, a pipe"
# shellcheck disable=SC2002 # a pipe, not the file
assert_eq "$(cat k.jsonl | nrunp /proc/self/fd/0)" "A=3 B=2" "/proc/self/fd/0, a pipe"
assert_eq "$(nrunp /dev/stdin <k.jsonl)" "A=3 B=2" "/dev/stdin, the file itself"
cat a.jsonl >ff &
w=$!
assert_eq "$(nrunp ff f.jsonl)" "A=3 B=2" "the records in a FIFO, the failed line in a file"
kill "$w" 2>/dev/null
wait "$w"
cat f.jsonl >ff &
w=$!
assert_eq "$(nrunp a.jsonl ff)" "A=3 B=2" "the records in a file, the failed line in a FIFO"
kill "$w" 2>/dev/null
wait "$w"
cat a.jsonl >ff &
w=$!
assert_eq "$(nrunp - ff <f.jsonl)" "A=3 B=2" "the line on the standard input, the records in a FIFO"
kill "$w" 2>/dev/null
wait "$w"
if command -v gzip >/dev/null 2>&1; then
	assert_eq "$(gzip -c k.jsonl | nrunp /dev/stdin)" "A=3 B=2" "gzip through a pipe"
fi
# records of one shape in a file, then in a pipe: what the reading learnt
# of the file's lines does not hide the pipe's launches
python3 - <<'PY'
import json
def rec(system, i):
    return json.dumps({"schema": "interloper/1",
                       "labels": {"system": system, "run": "r%d" % i, "launch": "n-%d" % i},
                       "pid": 1000 + i, "exit": {"how": "return", "status": 0, "signal": 0},
                       "times": {"wall_ns": 1000 + i % 7}})
with open("sa.jsonl", "w") as f:
    for i in range(50):
        print(rec("A", i), file=f)
with open("sb.jsonl", "w") as f:
    for i in range(50, 100):
        print(rec("B", i), file=f)
    print(json.dumps({"schema": "interloper-sweep/1", "kind": "failed", "plan": "p", "run": "r60",
                      "launch": "n-60", "why": "x", "status": 0, "records": 1}), file=f)
PY
# shellcheck disable=SC2002 # a pipe, not the file
assert_eq "$(cat sb.jsonl | nrunp sa.jsonl /dev/stdin)" "A=50 B=49" "a file, then a pipe of the same lines"
assert_eq "$(nrunp sa.jsonl - <sb.jsonl)" "A=50 B=49" "a file, then the standard input"

try "records without a launch (no driver) are judged by their exit alone"
python3 - <<'PY' >nl.jsonl
import json
for i in range(4):
    print(json.dumps({"schema": "interloper/1", "labels": {"system": "A"}, "pid": 10 + i,
                      "exit": {"how": "return", "status": 0, "signal": 0},
                      "times": {"wall_ns": 1000 + i}}))
print(json.dumps({"schema": "interloper-sweep/1", "kind": "failed", "plan": "p", "run": "A/e0/r1",
                  "launch": "", "why": "x", "status": 0, "records": 1}))
print(json.dumps({"schema": "interloper-sweep/1", "kind": "failed", "plan": "p", "run": "A/e0/r1",
                  "why": "no launch", "status": 0, "records": 1}))
PY
assert_eq "$(nrun nl.jsonl)" "A=4" "kept"
assert_eq "$(grep -c 'failed' rep.err)" 0 "no [failed] warning"

try "many launches, failed lines at the start, the middle and the end, across the parts of a two-thread read"
python3 - <<'PY' >many.jsonl
import json
n = 6000
def failed(i):
    return json.dumps({"schema": "interloper-sweep/1", "kind": "failed", "plan": "p",
                       "run": "r%d" % i, "launch": "n-%d" % i, "why": "x", "status": 0, "records": 2})
print(failed(n - 1))
for i in range(n):
    for child in (0, 1):
        print(json.dumps({"schema": "interloper/1",
                          "labels": {"system": "AB"[i % 2], "run": "r%d" % i, "launch": "n-%d" % i},
                          "pid": 100000 + 2 * i + child, "ppid": 1 if child == 0 else 100000 + 2 * i,
                          "exit": {"how": "return", "status": 0, "signal": 0},
                          "times": {"wall_ns": 1000 + i % 7}}))
    if i == n // 2:
        print(failed(17))
print(failed(0))
print(failed(n + 5))
PY
assert_eq "$(nrun many.jsonl)" "A=5998 B=5996" "3 launches of 2 records left out"
assert_match "$(cat rep.err)" "6 records of launches the sweep marked failed were left out \(2 in system=A\)" "counted"
assert_eq "$(nrun - <many.jsonl)" "A=5998 B=5996" "the standard input"
if [ -x "$B/tests/interloper-report-parts" ] && [ "$(nproc)" -ge 2 ]; then
	IL_TEST_TAKE=4096 "$B/tests/interloper-report-parts" --json --by system many.jsonl 2>p.err |
		python3 -c 'import json, sys; print([g["n"] for g in json.load(sys.stdin)["groups"]])' >p.out
	assert_eq "$(cat p.out)" "[5998, 5996]" "in parts of 4 KiB"
	assert_true "many parts ($(sed -n 's/^il-test-parts: //p' p.err))" test "$(sed -n 's/^il-test-parts: //p' p.err)" -ge 3
else
	skip "one CPU, or the tests' variant of report is not built"
fi

try "a failed line just after its records is settled where it is read: no input is read again (review14b MEDIUM-2)"
# the sweep writes a failed line just after its launch's records: 6,000
# launches of 2 records, every 50th followed by its failed line; then a
# launch of 300 records (more than the reading looks back at) and one
# whose line says 3 records where 2 are there, both looked for again
python3 - <<'PY' >after.jsonl
import json
def failed(i, records):
    return json.dumps({"schema": "interloper-sweep/1", "kind": "failed", "plan": "p",
                       "run": "r%d" % i, "launch": "a-%d" % i, "why": "x", "status": 1, "records": records})
def rec(i, k):
    return json.dumps({"schema": "interloper/1",
                       "labels": {"system": "AB"[i % 2], "run": "r%d" % i, "launch": "a-%d" % i},
                       "pid": 100000 + 2 * i + k, "ppid": 7, "exit": {"how": "return", "status": 0, "signal": 0},
                       "times": {"wall_ns": 1000 + i % 7}})
for i in range(6000):
    for k in (0, 1):
        print(rec(i, k))
    if i % 50 == 0:
        print(failed(i, 2))
PY
cp after.jsonl again.jsonl
python3 - <<'PY' >>again.jsonl
import json
for k in range(300):
    print(json.dumps({"schema": "interloper/1", "labels": {"system": "A", "run": "big", "launch": "big"},
                      "times": {"wall_ns": 5}}))
print(json.dumps({"schema": "interloper-sweep/1", "kind": "failed", "plan": "p", "run": "big",
                  "launch": "big", "why": "x", "status": 1, "records": 300}))
for k in range(2):
    print(json.dumps({"schema": "interloper/1", "labels": {"system": "B", "run": "odd", "launch": "odd"},
                      "times": {"wall_ns": 5}}))
print(json.dumps({"schema": "interloper-sweep/1", "kind": "failed", "plan": "p", "run": "odd",
                  "launch": "odd", "why": "x", "status": 1, "records": 3}))
PY
assert_eq "$(nrun after.jsonl)" "A=5760 B=6000" "120 launches of A left out"
assert_match "$(cat rep.err)" "240 records of launches the sweep marked failed were left out \(240 in system=A\)" "counted"
assert_eq "$(nrun again.jsonl)" "A=5760 B=6000" "a launch past the look back, and a count that disagrees: found by the second look"
assert_eq "$(nrun - <after.jsonl)" "A=5760 B=6000" "the standard input"
if command -v strace >/dev/null; then
	opens() {
		strace -f -e trace=openat,open -o trace sh "$IL" report --by system "$@" >/dev/null 2>&1
		grep -c "$1" trace
	}
	assert_eq "$(opens after.jsonl)" 1 "after.jsonl opened once (on 93994f3: twice, read again on one thread)"
	assert_eq "$(opens again.jsonl)" 2 "again.jsonl twice: its two lines are looked for again"
else
	skip "strace is not installed: the count of reads is not checked"
fi
if [ -x "$B/tests/interloper-report-parts" ] && [ "$(nproc)" -ge 2 ]; then
	for take in 300 4096; do
		IL_TEST_TAKE=$take "$B/tests/interloper-report-parts" --json --by system after.jsonl 2>p.err |
			python3 -c 'import json, sys; print([g["n"] for g in json.load(sys.stdin)["groups"]])' >p.out
		assert_eq "$(cat p.out)" "[5760, 6000]" "in parts of $take bytes (a failed line and its records in two parts: the join looks back)"
		assert_true "many parts ($(sed -n 's/^il-test-parts: //p' p.err))" test "$(sed -n 's/^il-test-parts: //p' p.err)" -ge 3
	done
else
	skip "one CPU, or the tests' variant of report is not built"
fi

try "a driver's run is judged by its failed lines alone: its children's exits are not judged again (review13e MEDIUM-1)"
# a run whose child (a record of its own) ends with status 3 or a signal
# while the run ends with 0: the sweep did not call it failed
python3 - <<'PY' >kid.jsonl
import json
def rec(sys, i, pid, ppid, status, launch=True, how="return"):
    labels = {"system": sys, "run": "%s/r%d" % (sys, i)}
    if launch:
        labels["launch"] = "k-%s%d" % (sys, i)
    return json.dumps({"schema": "interloper/1", "labels": labels, "pid": pid, "ppid": ppid,
                       "host": "h", "exit": {"how": how, "status": status, "signal": 0},
                       "times": {"wall_ns": 1000 + i}})
for i in range(4):
    print(rec("A", i, 200 + i, 100 + i, 3 if i == 0 else 0, how="signal" if i == 1 else "return"))
    print(rec("A", i, 100 + i, 1, 0))
    print(rec("B", i, 300 + i, 1, 0))
PY
assert_eq "$(nrun kid.jsonl)" "A=8 B=4" "kept"
assert_eq "$(grep -c 'failed' rep.err)" 0 "no [failed] warning"
assert_eq "$(nrun kid.jsonl --expect-status 1)" "A=8 B=4" "--expect-status: the sweep's judgement stands"
sed 's/, "launch": "k-[AB][0-9]"//' kid.jsonl >nolaunch.jsonl
assert_eq "$(nrun nolaunch.jsonl)" "A=6 B=4" "without a launch: judged by their exit, as before"

try "--per and --expect-status judge a run by its root record, not its children's (review13e MEDIUM-1)"
# interloper run without a driver (no launch): a script that exits 1, as
# expected, after a child that exits 0
for i in 1 2 3; do
	il run -q -o per.jsonl --backend none --label sys=A --label r="A$i" -- sh -c '/bin/true; exit 1'
	il run -q -o per.jsonl --backend none --label sys=B --label r="B$i" -- sh -c 'exit 1'
done
il run -q -o per.jsonl --backend none --label sys=C --label r=C1 -- sh -c 'exit 0'
if [ "$(grep -c '"status":0' per.jsonl)" = 4 ]; then
	il report --json --by sys --per r --expect-status 1 per.jsonl >p.json 2>p.err
	assert_eq "$(python3 -c 'import json; print(json.dumps([(g["labels"]["sys"], g["n"]) for g in json.load(open("p.json"))["groups"]]))')" \
		'[["A", 3], ["B", 3]]' "--per: every run kept but C's, whose status is 0"
	assert_match "$(cat p.err)" "1 failed run was left out \(1 exited with a status other than 1; 1 in sys=C\)" "said in the option's words"
	assert_eq "$(il report --json --by sys --expect-status 1 per.jsonl 2>p.err | python3 -c 'import json, sys; print([g["n"] for g in json.load(sys.stdin)["groups"]])')" \
		"[6, 3]" "without --per: the children's records are not failed"
	assert_match "$(cat p.err)" "1 failed run was left out \(1 exited with a status other than 1; 1 in sys=C\)" "only C's"
else
	skip "the children wrote no records of their own here ($(grep -c . per.jsonl) records)"
fi

try "--expect-status is advised only where every system's runs all ended with that status (review13e LOW)"
mkdir -p bin/F
printf '#!/bin/sh\nexit 1\n' >bin/F/p
chmod +x bin/F/p
il sweep --keep-going --seed 1 --reps 2 --system A=bin/A/p --system F=bin/F/p --output one.jsonl 2>err
assert_match "$(cat err)" "every measured run of F failed \(status 1\), so there are no numbers of its runs to give" "said"
assert_eq "$(grep -c 'rerun with --expect-status' err)" 0 "one system of two: no advice (the other ends with 0)"
il sweep --keep-going --seed 1 --reps 2 --system F=bin/F/p --system G=bin/F/p --output two.jsonl 2>err
assert_match "$(cat err)" "if that status is its normal end, rerun with --expect-status 1" "both: advised"

try "a run's root judged among 6,000 runs, read in parts: --per and --expect-status alone"
python3 - <<'PY' >roots.jsonl
import json
for i in range(6000):
    for child in (1, 0):
        print(json.dumps({"schema": "interloper/1", "labels": {"system": "AB"[i % 2], "run": "r%d" % i},
                          "pid": 100000 + 2 * i + child, "ppid": 100000 + 2 * i if child else 7,
                          "host": "h", "exit": {"how": "return", "status": 0 if child else 1, "signal": 0},
                          "times": {"wall_ns": 1000 + i % 7}}))
PY
assert_eq "$(nrun roots.jsonl --per run --expect-status 1)" "A=3000 B=3000" "--per: every run's root exits 1"
assert_eq "$(grep -c 'failed' rep.err)" 0 "none failed"
assert_eq "$(nrun roots.jsonl --expect-status 1)" "A=6000 B=6000" "--expect-status: the children's records are not failed"
assert_eq "$(nrun roots.jsonl --per run)" "A=3000 B=3000" "--per alone: a root's status 1 beside its child's 0 is not failed"
if [ -x "$B/tests/interloper-report-parts" ] && [ "$(nproc)" -ge 2 ]; then
	for a in "--per run --expect-status 1" "--expect-status 1"; do
		# shellcheck disable=SC2086 # the options
		IL_TEST_TAKE=4096 "$B/tests/interloper-report-parts" --json --by system $a roots.jsonl 2>p.err |
			python3 -c 'import json, sys; print([g["n"] for g in json.load(sys.stdin)["groups"]])' >p.out
		# shellcheck disable=SC2086 # the options
		assert_eq "$(cat p.out):$(grep -c failed p.err)" "$(nrun roots.jsonl $a | sed 's/A=\([0-9]*\) B=\([0-9]*\)/[\1, \2]/'):0" "$a, in parts of 4 KiB"
	done
fi

done_testing
