#!/bin/sh
# The same runs given twice (outside14 H3): `report results*.jsonl` over a
# sharded sweep's shards and their merge read every run twice, with no
# word.  Each sweep writes one machine line at its start with an id of its
# own; its start in two of the files read, or one file given twice, is
# said in one warning ([twice]).  Never on one file, nor on distinct
# shards.
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
mkdir -p bin/A bin/B
cp "$PROGS/probe" bin/A/p
cp "$PROGS/probe" bin/B/p
for i in 1 2; do
	il sweep -q --seed 4 --reps 3 -e task-clock --env-add 0:128:64 --env-base 4096 --env-vars 60 \
		--system A=bin/A/p \
		--system B=bin/B/p --shard $i/2 --output results.$i.jsonl -- hello >/dev/null
done
il record merge -o results.jsonl results.1.jsonl results.2.jsonl 2>/dev/null
# nsys FILE...: "n_A n_B", the records of each system in the files
nsys() {
	python3 -c 'import json, sys
n = {"A": 0, "B": 0}
for f in sys.argv[1:]:
    for l in open(f):
        x = json.loads(l)
        if x.get("schema") == "interloper/1": n[x["labels"]["system"]] += 1
print(n["A"], n["B"])' "$@"
}

# rep FILE...: "n_A n_B" of report --by system, its stderr in err
rep() {
	il report --json --by system -m task-clock "$@" 2>err | python3 -c 'import json, sys
print(" ".join(str(g["n"]) for g in json.load(sys.stdin)["groups"]))'
}
# twice: the lines of err that are the warning
twice() { grep -c '\[twice\]$' err; }

try "one file, or distinct shards: no warning"
assert_eq "$(recs results.jsonl)" 18 "the merge holds every run"
assert_eq "$(rep results.jsonl)" "9 9" "the merged file: each run once"
assert_eq "$(twice)" 0 "no word"
assert_eq "$(rep results.1.jsonl results.2.jsonl)" "9 9" "the shards"
assert_eq "$(twice)" 0 "no word"
assert_eq "$(rep results.2.jsonl results.1.jsonl)" "9 9" "the shards, the other way"
assert_eq "$(twice)" 0 "no word"
# a merge of a merged file with a shard holds the shard's start twice, but
# its runs once
il record merge -o again.jsonl results.jsonl results.1.jsonl 2>/dev/null
assert_eq "$(grep -c '"when":"start"' again.jsonl)" 3 "the start of shard 1 twice in one file"
assert_eq "$(rep again.jsonl)" "9 9" "each run once"
assert_eq "$(twice)" 0 "no word"
assert_eq "$(rep - <results.jsonl)" "9 9" "the standard input"
assert_eq "$(twice)" 0 "no word"

try "the shards and their merge: said in one line (outside14 H3)"
assert_eq "$(rep results*.jsonl)" "18 18" "every run counted twice"
assert_eq "$(twice)" 1 "one line"
assert_match "$(cat err)" "results\.1\.jsonl and results\.jsonl both hold the start of sweep [0-9a-f]{16} \(plan [^ ]+, shard 1/2\), as a merged file and its shards do: a run in both is counted twice, as two runs \(and 1 more such pair\); give each run's records once \[twice\]" "which files, which sweep, what to do"
assert_eq "$(rep results.jsonl results.2.jsonl)" "$(nsys results.jsonl results.2.jsonl)" "the merge and one shard"
assert_match "$(cat err)" "results\.jsonl and results\.2\.jsonl both hold the start of sweep [0-9a-f]{16} \(plan [^ ]+, shard 2/2\), as a merged file and its shards do: a run in both.*; give each run's records once \[twice\]" "said"
assert_eq "$(rep - results.1.jsonl <results.jsonl)" "$(nsys results.jsonl results.1.jsonl)" "the merge on the standard input"
assert_match "$(cat err)" "- and results\.1\.jsonl both hold the start of sweep" "said"
il report --json --by system -m task-clock results*.jsonl 2>/dev/null >j.json
assert_eq "$(python3 -c 'import json, sys
print(sum(w.endswith("[twice]") for w in json.load(open(sys.argv[1]))["warnings"]))' j.json)" \
	1 "in the JSON's warnings"
il plot seq -m task-clock --where system=A -o s.svg results*.jsonl 2>err >/dev/null
assert_eq "$(twice)" 1 "plot says it too"

try "one file given twice"
assert_eq "$(rep results.jsonl ./results.jsonl)" "18 18" "counted twice"
assert_match "$(cat err)" "results\.jsonl and \./results\.jsonl are one file, given twice: a run in both is counted twice.*\[twice\]" "said"
assert_eq "$(twice)" 1 "once, not again for its sweeps' starts"
# records without a sweep's lines (interloper run's)
grep '"schema":"interloper/1"' results.1.jsonl >bare.jsonl
ln -s bare.jsonl link.jsonl
assert_eq "$(rep bare.jsonl link.jsonl)" "$(nsys bare.jsonl bare.jsonl)" "records alone, through a link"
assert_match "$(cat err)" "bare\.jsonl and link\.jsonl are one file, given twice" "said"
cp bare.jsonl copy.jsonl
assert_eq "$(rep bare.jsonl copy.jsonl)" "$(nsys bare.jsonl bare.jsonl)" "a copy of records alone"
assert_eq "$(twice)" 1 "said, record by record (outside15 H3)"
assert_match "$(cat err)" "$(recs bare.jsonl) records are copies of records read before \\(the same host, pid, start, argv, times\\.wall_ns and value; e\\.g\\. one in copy\\.jsonl of one in bare\\.jsonl\\):.*they are kept: give each record once \\(\`interloper record merge\` joins a sweep's files without copies\\) \\[twice\\]" "how many, where, what to do"

try "copies inside one file (outside15 H3)"
cat bare.jsonl bare.jsonl >twice.jsonl
assert_eq "$(rep twice.jsonl)" "$(nsys twice.jsonl)" "counted twice, as the warning says"
assert_eq "$(twice)" 1 "said"
assert_match "$(cat err)" "$(recs bare.jsonl) records are copies .*one in twice\\.jsonl of one in twice\\.jsonl" "how many"
sed 's/"pid":[0-9]*,//' twice.jsonl >nopid.jsonl
rep nopid.jsonl >/dev/null
assert_eq "$(twice)" 0 "records without a pid have no identity: no word"
# a shard appended again to its merge
cat results.jsonl results.2.jsonl >dup.jsonl
rep dup.jsonl >/dev/null
assert_eq "$(twice)" 1 "a shard appended to the merge: said"
assert_match "$(cat err)" "^.*warning: $(recs results.2.jsonl) records are copies" "its records counted"
head -n 1 bare.jsonl >one.jsonl
cat bare.jsonl one.jsonl >plus1.jsonl
rep plus1.jsonl >/dev/null
assert_match "$(cat err)" "warning: 1 record is a copy of a record read before" "one copy"
# every record distinct, many of them: the pre-test's collisions are no copies
python3 -c 'import json, sys
l = [x for x in open(sys.argv[1]) if x.startswith("{\"schema\":\"interloper/1\"")][0]
x = json.loads(l)
for i in range(5000):
    x["pid"] = 100000 + i
    print(json.dumps(x))' bare.jsonl >many.jsonl
rep many.jsonl >/dev/null
assert_eq "$(twice)" 0 "5000 distinct records: no word"
cat many.jsonl one.jsonl many.jsonl >many2.jsonl
rep many2.jsonl >/dev/null
assert_match "$(cat err)" "warning: 5000 records are copies" "5000 copies among 10001"
il plot seq -m task-clock --where system=A -o s.svg twice.jsonl 2>err >/dev/null
assert_eq "$(twice)" 1 "plot says it too"

try "the identities in two halves, on two threads: the earliest copy said, as on one"
# 7001 records: the two halves of the hashes (by their top bit) are looked
# at on two threads; a copy of record k (of the first 8, in one half or the
# other) read before 2000 copies of others is the example either way
sed -n '2001,4000p' many.jsonl >z.jsonl
for k in 1 2 3 4 5 6 7 8; do
	sed -n "${k}p" many.jsonl >y.jsonl
	rep many.jsonl y.jsonl z.jsonl >/dev/null
	assert_match "$(cat err)" "warning: 2001 records are copies .*e\\.g\\. one in y\\.jsonl of one in many\\.jsonl" "record $k's copy read first: the example"
done
rep many.jsonl z.jsonl y.jsonl >/dev/null
assert_match "$(cat err)" "warning: 2001 records are copies .*e\\.g\\. one in z\\.jsonl of one in many\\.jsonl" "read last: not the example"
if taskset -c 0 true 2>/dev/null; then
	il report --by system -m task-clock many.jsonl z.jsonl y.jsonl >two.out 2>two.err
	taskset -c 0 sh "$IL" report --by system -m task-clock many.jsonl z.jsonl y.jsonl >one.out 2>one.err
	assert_eq "$(grep -c '\[twice\]$' one.err)" 1 "one CPU: said"
	assert_true "one CPU: the same words" cmp one.err two.err
	assert_true "one CPU: the same report" cmp one.out two.out
else
	skip "taskset -c 0 cannot run here"
fi

try "in parts, the start read by the second thread"
if [ -x "$B/tests/interloper-report-parts" ]; then
	for take in 300 2000; do
		IL_TEST_TAKE=$take "$B/tests/interloper-report-parts" --by system -m task-clock \
			results.1.jsonl results.jsonl >/dev/null 2>err
		assert_eq "$(twice)" 1 "IL_TEST_TAKE=$take: said"
		assert_match "$(cat err)" "il-test-parts: [2-9]" "IL_TEST_TAKE=$take: in parts"
		IL_TEST_TAKE=$take "$B/tests/interloper-report-parts" --by system -m task-clock \
			results.jsonl >/dev/null 2>err
		assert_eq "$(twice)" 0 "IL_TEST_TAKE=$take: not on the merge alone"
		IL_TEST_TAKE=$take "$B/tests/interloper-report-parts" --by system -m task-clock \
			dup.jsonl >/dev/null 2>err
		assert_eq "$(twice)" 1 "IL_TEST_TAKE=$take: copies in one file, in parts: said"
		IL_TEST_TAKE=$take "$B/tests/interloper-report-parts" --by system -m task-clock \
			many2.jsonl >/dev/null 2>err
		assert_match "$(cat err)" "warning: 5000 records are copies" "IL_TEST_TAKE=$take: each copy counted once"
	done
else
	skip "no build/tests/interloper-report-parts (make check builds it)"
fi

try "many shards: each pair found"
for i in $(seq 1 17); do
	il sweep -q --seed 5 --reps 1 -e task-clock --env-add 0:1088:64 --system A=bin/A/p \
		--env-base 4096 --env-vars 60 --shard "$i/17" --output "m.$i.jsonl" -- hello >/dev/null
done
il record merge -o m.jsonl m.[0-9]*.jsonl 2>/dev/null
# shellcheck disable=SC2046 # the shards' names
rep $(for i in $(seq 1 17); do echo "m.$i.jsonl"; done) >/dev/null
assert_eq "$(twice)" 0 "17 shards: no word"
# shellcheck disable=SC2046
rep m.jsonl $(for i in $(seq 1 17); do echo "m.$i.jsonl"; done) >/dev/null
assert_match "$(cat err)" "m\.jsonl and m\.1\.jsonl both hold .*\(and 16 more such pairs\);.*\[twice\]" "17 shards and their merge: one line, 17 pairs"
done_testing
