#!/bin/sh
# fork, exec, threads and process trees: perf stat's inheritance by
# default, one record per process image, per-child records on request.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
E="$PROGS/exitpaths"
cd "$T" || exit 1

try "a forked child that never execs writes no record; its work counts in the parent's"
rm -f r.jsonl
same_as_without r.jsonl "$E" fork-noexec
assert_eq "$(nrec r.jsonl)" 1 "records"
tc=$(jget r.jsonl 'r[0]["events"]["task-clock"]["value"]')
# the child spins 20M iterations (tens of ms); the parent only waits
assert_true "parent's task-clock ($tc) includes the child's work" [ "$tc" -gt 5000000 ]

for mode in threads none; do
	try "INTERLOPER_INHERIT=$mode: every forked child writes a record of its own"
	rm -f r.jsonl
	INTERLOPER_INHERIT=$mode same_as_without r.jsonl "$E" fork-noexec
	assert_eq "$(nrec r.jsonl)" 2 "records"
	assert_true "valid" valid r.jsonl
	assert_eq "$(jget r.jsonl 'r[0]["ppid"] == r[1]["pid"]')" true "child's ppid is the parent"
	assert_eq "$(jget r.jsonl 'r[0]["events"]["task-clock"]["value"] > 4 * r[1]["events"]["task-clock"]["value"]')" true \
		"the child's work is in its own record, not the parent's"
	assert_eq "$(jget r.jsonl 'r[1]["inherit"]')" "$mode" "inherit mode recorded"
done

try "a child that execs is a new image with its own record"
rm -f r.jsonl
same_as_without r.jsonl "$E" fork-exec /bin/true
assert_eq "$(nrec r.jsonl)" 2 "records"
assert_eq "$(jget r.jsonl 'sorted(x["argv"][0] for x in r)')" "[\"/bin/true\", \"$E\"]" "images"

try "a vfork child that execs: the parent's counters are untouched"
rm -f r.jsonl
same_as_without r.jsonl "$E" vfork-exec /bin/true
assert_eq "$(nrec r.jsonl)" 2 "records"
assert_eq "$(jget r.jsonl '[x["exit"]["how"] for x in r]')" '["return", "return"]' "both end normally"

try "threads inherit the counters"
rm -f r.jsonl
same_as_without r.jsonl "$E" threads-busy 2
tc=$(jget r.jsonl 'r[0]["events"]["task-clock"]["value"]')
# two threads, 50 ms of CPU each: the record holds both
assert_true "task-clock ($tc) holds both threads' 100 ms" [ "$tc" -gt 90000000 ]

try "a shell pipeline: one record per exec'd image, none for forked shells"
rm -f r.jsonl
same_as_without r.jsonl sh -c 'echo a | cat; ls / >/dev/null; exit 3'
assert_true "valid" valid r.jsonl
assert_eq "$(jget r.jsonl 'sorted(x["argv"][0] for x in r)')" '["cat", "ls", "sh"]' "images"
assert_eq "$(jget r.jsonl '[x["exit"]["status"] for x in r if x["argv"][0] == "sh"]')" '[3]' "sh's status"

done_testing
