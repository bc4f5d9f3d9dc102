#!/bin/sh
# Wrapping other harnesses (README, "Wrapping other harnesses"), each
# recipe run for real: lit as the LLVM test-suite runs it (a run-under
# wrapper), a SPEC CPU-style submit (iterations, concurrent copies,
# redirected output, absolute paths), CTest (CMAKE_CROSSCOMPILING_EMULATOR);
# interloper run --randomize makes the harness's passes setups that
# interloper report can use.
# timeout: 600
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1
LIT=/usr/lib/llvm-14/build/utils/lit/lit.py

try "lit runs a suite with interloper run as its run-under wrapper; passes are setups paired across systems"
if [ ! -f "$LIT" ] || ! command -v python3 >/dev/null; then
	skip "Debian's lit is missing ($LIT, package llvm-14-tools; make test-deps installs it)"
else
	cp -R "$TOP/tests/lit" suite
	ok=1
	for _ in 1 2 3; do
		for sys in O2 O3; do
			python3 "$LIT" -q -j1 --param run_under="sh $IL run -q --randomize 7 --events task-clock --output $T/lit.jsonl --label system=$sys --" suite >lit.out 2>&1 || ok=0
		done
	done
	assert_eq "$ok:$(cat lit.out)" "1:" "every lit run passed its checks"
	out=$(python3 - <<'PY'
import json, collections
r = [json.loads(l) for l in open("lit.jsonl")]
lab = [x["labels"] for x in r]
print(len(r), sorted({l["bench"] for l in lab}), sorted({l["pass"] for l in lab}),
      len({l["plan"] for l in lab}))
# the passes of one bench: one setup per pass, the same for both systems
s = collections.defaultdict(set)
for l in lab:
    s[(l["bench"], l["pass"])].add((l["setup"], l["env_add"]))
print(all(len(v) == 1 for v in s.values()), len({v.pop() for v in s.values()}) > 1)
PY
	)
	assert_eq "$(printf '%s\n' "$out" | head -1)" "18 ['gzip', 'md5sum', 'sort'] ['0', '1', '2'] 1" \
		"3 programs x 2 systems x 3 passes, labelled by bench and pass, one plan"
	assert_eq "$(printf '%s\n' "$out" | tail -1)" "True True" \
		"a pass's setup is the same for both systems, and the passes' setups differ"
	sh "$IL" report --json --metric task-clock --by bench --compare system=O2 --setup setup lit.jsonl >rep.json 2>rep.err
	assert_eq "$?" 0 "report --by bench"
	assert_eq "$(python3 -c 'import json; j = json.load(open("rep.json")); print(sorted(c["labels"]["bench"] for c in j["comparisons"]), {c["setups_paired"] for c in j["comparisons"]})')" \
		"['gzip', 'md5sum', 'sort'] {3}" "one comparison a program, over its 3 paired setups"
fi

try "a SPEC CPU-style submit: iterations, two copies at once, output redirected, absolute paths"
# runcpu puts the config's variables ($command, with command_add_redirect
# its redirections too; $benchmark, $label) into the submit line as text,
# and runs the line with /bin/sh in each copy's run directory, with
# SPECCOPYNUM set and a PATH of its own: hence absolute paths.
mkdir -p exe run.0 run.1
cp "$PROGS/probe" exe/probe_base
for _ in 1 2; do
	for copy in 0 1; do
		(
			cd "run.$copy" || exit 1
			benchmark=999.probe label=base
			command="../exe/probe_base hello > probe.out 2>> probe.err"
			line="/bin/sh $IL run -q --randomize 3 --output $T/spec.jsonl --label bench=$benchmark --label system=$label --label copy=\$SPECCOPYNUM -- $command"
			SPECCOPYNUM=$copy PATH=/nonexistent exec /bin/sh -c "$line"
		) &
	done
	wait
done
assert_eq "$(cat run.0/probe.out)" "$(cat run.1/probe.out)" "each copy's output in its own directory"
assert_match "$(cat run.0/probe.out)" "hello" "the program's own output"
out=$(python3 - <<'PY'
import json
r = [json.loads(l)["labels"] for l in open("spec.jsonl")]
print(len(r), sorted({(l["copy"], l["pass"]) for l in r}), {l["bench"] for l in r}, len({l["plan"] for l in r}))
PY
)
assert_eq "$out" "4 [('0', '0'), ('0', '1'), ('1', '0'), ('1', '1')] {'999.probe'} 1" \
	"2 copies x 2 iterations: each copy counts its own passes"

try "CTest runs each test under interloper run as its CMAKE_CROSSCOMPILING_EMULATOR"
if ! command -v cmake >/dev/null || ! command -v ctest >/dev/null || ! command -v cc >/dev/null; then
	skip "cmake and a C compiler are needed (make test-deps installs cmake)"
else
	mkdir -p ct
	cat >ct/CMakeLists.txt <<'EOF'
cmake_minimum_required(VERSION 3.13)
project(ct C)
enable_testing()
add_executable(hello hello.c)
add_test(NAME hello COMMAND hello world)
EOF
	printf '#include <stdio.h>\nint main(int c, char **v) { printf("hi %%s\\n", v[1]); return 0; }\n' >ct/hello.c
	cmake -S ct -B ctb -DCMAKE_CROSSCOMPILING_EMULATOR="sh;$IL;run;-q;--randomize;5;--output;$T/ct.jsonl;--label;system=A;--" >cm.log 2>&1
	cmake --build ctb >>cm.log 2>&1
	(cd ctb && ctest --repeat until-fail:3 >../ctest.log 2>&1)
	assert_eq "$?" 0 "ctest passed ($(tail -3 ctest.log | tr '\n' ' '))"
	assert_eq "$(python3 -c 'import json; r = [json.loads(l)["labels"] for l in open("ct.jsonl")]; print(len(r), {l["bench"] for l in r}, sorted(l["pass"] for l in r))')" \
		"3 {'hello'} ['0', '1', '2']" "the test's three runs, labelled, each a pass"
fi

try "run --randomize: the passes counted per command, -n counts nothing, bad usage in one line"
il() { sh "$IL" "$@"; }
il run -q --randomize 9 -o p.jsonl -- /bin/true
il run -n --randomize 9 -o p.jsonl -- /bin/true >dry.out
il run -q --randomize 9 -o p.jsonl -- /bin/true
il run -q --randomize 9 -r 2 --pass 5 -o p.jsonl -- /bin/true
assert_match "$(grep '^labels' dry.out)" '"pass":"1"' "-n shows the next pass"
assert_eq "$(python3 -c 'import json; print([(x["labels"]["pass"], x["labels"]["rep"]) for x in map(json.loads, open("p.jsonl"))])')" \
	"[('0', '1'), ('1', '1'), ('5', '2')]" "passes 0 and 1 counted, not the dry run's; --pass 5 with -r 2 is rep 2"
# the counts belong to the results file: removed (to start over after a
# failed first run), its next pass would be 2 where another system's is 0,
# and no pass would pair (outside review, session 12): refused until the
# counter is removed too
rm p.jsonl
il run -q --randomize 9 -o p.jsonl -- /bin/echo ran >out 2>err
assert_eq "$?:$(cat out)" "1:" "a results file removed since the count: refused, the program not run"
assert_match "$(cat err)" "^interloper run: --randomize: $T/p.jsonl is gone since $T/p.jsonl.passes counted its 2 passes \\(removed, replaced or cut\\); remove $T/p.jsonl.passes to count passes from 0 .*--pass N$" "says what and how"
assert_eq "$(wc -l <err)" 1 "in one line"
rm p.jsonl.passes
il run -q --randomize 9 -o p.jsonl -- /bin/true
il run -q --randomize 9 -o p.jsonl -- /bin/true
assert_eq "$(python3 -c 'import json; print([x["labels"]["pass"] for x in map(json.loads, open("p.jsonl"))])')" \
	"['0', '1']" "counted from 0 again once the counter is removed"
# outside12's own case: one pass counted (before its record was there),
# the results removed, then every system's passes: refused, not A 1,2,3
# against B 0,1,2; and a file truncated (seen from the count after one
# that saw a record: a count is taken before its run's record), or another
# file put in its place
rm p.jsonl p.jsonl.passes
il run -q --randomize 9 -o p.jsonl --label system=A -- /bin/true
rm p.jsonl
il run -q --randomize 9 -o p.jsonl --label system=A -- /bin/true >out 2>err
assert_match "$?:$(cat err)" "^1:interloper run: --randomize: $T/p.jsonl is gone since .* counted its 1 passes" "one count, then removed: refused"
rm p.jsonl.passes
il run -q --randomize 9 -o p.jsonl --label system=A -- /bin/true
il run -q --randomize 9 -o p.jsonl --label system=B -- /bin/true
: >p.jsonl
il run -q --randomize 9 -o p.jsonl --label system=A -- /bin/true >out 2>err
assert_match "$?:$(cat err)" "^1:interloper run: --randomize: $T/p.jsonl is smaller since " "truncated: refused"
rm p.jsonl.passes
il run -q --randomize 9 -o p.jsonl --label system=A -- /bin/true
cp p.jsonl q.jsonl && mv q.jsonl p.jsonl
il run -q --randomize 9 -o p.jsonl --label system=A -- /bin/true >out 2>err
assert_match "$?:$(cat err)" "^1:interloper run: --randomize: $T/p.jsonl is another file since " "replaced: refused"
rm p.jsonl p.jsonl.passes
il run --randomize 9 --env-add 16 -- /bin/true >out 2>err
assert_eq "$?:$(cat err)" "1:interloper run: --randomize draws the environment pad, so it does not go with --env-add" "--env-add"
il run --pass 1 -- /bin/true >out 2>err
assert_eq "$?:$(cat err)" "1:interloper run: --pass numbers the passes of --randomize; add --randomize SEED" "--pass alone"
il run --randomize 9 -o - -- /bin/true >out 2>err
assert_match "$?:$(cat err)" "^1:interloper run: --randomize with --output -: .*--pass N" "stdout records need --pass"

try "run --randomize near exec's limit: every pass refused in one line, not E2BIG on the passes that draw large pads (outside14 F12)"
# a stack limit of 512 KiB: exec's limit is 128 KiB, which one variable can fill; the
# first run is over it with the largest pad and says by how much, so that
# BIG is sized to be 500 bytes over the limit with the largest pad, then
# 500 bytes under it
big() { python3 -c 'import sys; print("x" * int(sys.argv[1]))' "$1"; }
lim() {
	BIG=$(big "$1") python3 -c 'import os, resource, sys
resource.setrlimit(resource.RLIMIT_STACK, (512 << 10, resource.getrlimit(resource.RLIMIT_STACK)[1]))
os.execvp(sys.argv[1], sys.argv[1:])' sh "$IL" run -q --randomize 3 --pass "$2" -o "$T/lim.jsonl" -- /bin/true >out 2>err
}
# 2000 bytes under the limit with this environment: the wrapper's execs fit
first=$(python3 -c 'import os; print(131072 - 2000 - 8 - sum(len(k) + len(v) + 2 + 8 for k, v in os.environ.items()))')
lim "$first" 0
l=$(sed -n 's/.* need \([0-9]*\) bytes, above exec.s limit of \([0-9]*\) .*/\1 \2/p' err)
assert_match "$l" "^[0-9]+ 131072$" "over: refused, with the need and the limit ($(cat err))"
over=$((first - ${l% *} + 131072 + 500))
ok=1 why=
for p in 0 1 2 3 4 5 6 7; do
	lim $over $p
	rc=$?
	if [ "$rc:$(wc -l <err)" != 1:1 ] ||
		! grep -q "would fail with E2BIG; clear the environment (--env-clean \[--keep NAME\]) or raise ulimit -s$" err; then
		ok=0 why="$rc $(cat err)"
	fi
done
assert_eq "$ok" 1 "500 bytes over with the largest pad: every pass refused in one line ($why)"
assert_eq "$(test -e lim.jsonl && echo there)" "" "and nothing run"
ok=1 why=
for p in 0 1 2 3 4 5 6 7; do
	lim $((over - 1000)) $p || { ok=0; why="$why $(cat err)"; }
done
assert_eq "$ok" 1 "500 bytes under: every pass runs ($why)"
assert_eq "$(wc -l <lim.jsonl)" 8 "and writes its record"

done_testing
