#!/bin/sh
# One system's runs of two binaries (outside15 H2): a program a launcher
# execs replaced, or rebuilt in place, between runs.  Each record names its
# image (build_id); the report says in one warning ([two-images]) which
# group's runs of one program (one argv[0] and layout) ran two, with the
# build-ids and their runs.  Never for an exec chain's launcher, for
# programs that differ, for layouts, nor for records without the field.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1

images() { grep -c '\[two-images\]' err; }
printf '#include <stdio.h>\nint main(void){puts("x"); return 0;}\n' >p.c
if cc -Wl,--build-id=0xaaaa1111 -o pa p.c 2>/dev/null && cc -Wl,--build-id=0xbbbb2222 -o pb p.c &&
	cc -Wl,--build-id=0xcccc3333 -o pc p.c; then
	built=1
else
	built=0
fi
mkdir bin
printf '#!/bin/sh\nexec %s/bin/p "$@"\n' "$T" >x.sh
chmod +x x.sh
under() {
	il run -q -e task-clock --output "$T/$1" --label "system=$2" -- ./x.sh >/dev/null
}

try "through a launcher, the program replaced between runs: one warning names the group, the ids, the runs"
if [ "$built" = 1 ]; then
	for i in 1 2 3 4; do
		cp pa bin/p
		under r.jsonl A
		if [ "$i" -le 2 ]; then cp pb bin/p; else cp pc bin/p; fi
		under r.jsonl B
	done
	il report -m task-clock --compare system=A r.jsonl >out 2>err
	assert_eq "$?" 0 "status (a warning)"
	assert_eq "$(images)" 1 "one warning"
	assert_match "$(cat err)" "runs of one program \(one argv\[0\] and layout\) ran different images .*: system=B: build-id bbbb2222 in 2 runs, cccc3333 in 2; one system's runs of two binaries" "the line"
	assert_true "not system=A" sh -c "! grep -q 'system=A: build-id' err"
	il report -m task-clock --json --compare system=A r.jsonl 2>/dev/null >j.json
	assert_match "$(python3 -c 'import json,sys; print([w for w in json.load(open(sys.argv[1]))["warnings"] if "two-images" in w])' j.json)" "system=B: build-id bbbb2222" "in --json's warnings"
	# three images: the first two, and more
	cp pa bin/p
	under r.jsonl B
	il report -m task-clock --by system r.jsonl >/dev/null 2>err
	assert_match "$(cat err)" "system=B: build-id bbbb2222 in 2 runs, cccc3333 in 2, and 1 run of 1 more" "three images"
else
	skip "cc cannot link with -Wl,--build-id here"
fi

try "the same program, unchanged, through the launcher: no word"
if [ "$built" = 1 ]; then
	cp pb bin/p
	for i in 1 2 3; do
		under u.jsonl A
		under u.jsonl B
	done
	il report -m task-clock --compare system=A u.jsonl >/dev/null 2>err
	assert_eq "$(images)" 0 "no warning ($(cat err))"
else
	skip "cc cannot link with -Wl,--build-id here"
fi

try "README's wrapped harness (gzip, sort, and sort exec'd by sh): no word"
cp "$TOP/README.md" .
u="il run -q -e task-clock --output $T/suite.jsonl --label system=base --"
for _ in 1 2 3; do
	$u gzip -9 -c README.md >/dev/null
	$u sort README.md >/dev/null
	$u sh -c 'exec sort README.md' >/dev/null
done
il report --by bench --metric task-clock suite.jsonl >/dev/null 2>err
assert_eq "$(images)" 0 "--by bench"
il report --metric task-clock suite.jsonl >/dev/null 2>err
assert_eq "$(images)" 0 "every run in one group"

# rec SYSTEM ARGV0 BUILD_ID [LAYOUT]: a record by hand
rec() {
	lay=""
	[ -n "${4:-}" ] && lay=",\"layout\":\"$4\""
	printf '{"schema":"interloper/1","version":"0","labels":{"system":"%s"%s},"pid":%d,"ppid":1,"argv":["%s"],"build_id":%s,"exit":{"how":"exit","status":0,"signal":0},"backend":"perf","events":{"task-clock":{"value":%d}}}\n' \
		"$1" "$lay" "$n" "$2" "$3" $((1000 + n % 7))
	n=$((n + 1))
}

try "layouts are other images on purpose; other programs too; a null build_id is an image"
n=1
: >h.jsonl
for _ in 1 2 3; do
	{
		rec A ./p '"aa01"' 00
		rec A ./p '"aa02"' 01
		rec A ./q '"ab03"'
		rec A ./old null
	} >>h.jsonl
done
il report -m task-clock h.jsonl >/dev/null 2>err
assert_eq "$(images)" 0 "layouts, programs: no word ($(cat err))"
rec A ./old '"dd04"' >>h.jsonl
il report -m task-clock h.jsonl >/dev/null 2>err
assert_match "$(cat err)" "all: build-id none in 3 runs, dd04 in 1;" "null and an id"
{
	rec A ./q '"ab03"' 01
	rec A ./q '"ab03"' 01
} >>h.jsonl
il report -m task-clock h.jsonl >/dev/null 2>err
assert_eq "$(images)" 1 "one warning, one group"

try "records without build_id (older libraries), and with it: no word"
n=1
: >o.jsonl
for _ in 1 2 3; do
	{
		rec A ./p '"aa01"' | sed 's/,"build_id":"aa01"//'
		rec A ./p '"aa01"'
	} >>o.jsonl
done
il report -m task-clock o.jsonl >/dev/null 2>err
assert_eq "$(images)" 0 "no word"

try "many records, read in parts: the same warning"
n=1
: >m.jsonl
for _ in $(seq 1 3000); do
	rec A ./p '"aa01"'
	rec B ./p '"bb01"'
done >>m.jsonl
rec B ./p '"bb02"' >>m.jsonl
il report -m task-clock --by system m.jsonl >/dev/null 2>err
assert_match "$(cat err)" "system=B: build-id bb01 in 3000 runs, bb02 in 1;" "read whole"
if [ -x "$B/tests/interloper-report-parts" ]; then
	for take in 300 4096; do
		IL_TEST_TAKE=$take "$B/tests/interloper-report-parts" --by system -m task-clock \
			m.jsonl >/dev/null 2>err
		assert_match "$(cat err)" "il-test-parts: ([2-9]|[1-9][0-9])" "IL_TEST_TAKE=$take: in parts"
		assert_match "$(cat err)" "system=B: build-id bb01 in 3000 runs, bb02 in 1;" "IL_TEST_TAKE=$take: said"
	done
else
	skip "no build/tests/interloper-report-parts (make check builds it)"
fi

done_testing
