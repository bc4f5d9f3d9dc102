#!/bin/sh
# stats_exec.sh: one process's exec chain is one run (outside13 F12). A
# launcher that execs the program (a script ending in exec, env, taskset)
# writes a record for its image, ending in exec, and the program's image
# writes its own (same pid, host and labels): the report folds them into
# one value, the sum of the images, where it averaged them (a launcher
# compared with its own program looked 49% faster).  A record that ends
# in an exec whose next image wrote nothing is named ([exec-chain]).  An
# exec record whose exec failed is covered by its image's own record
# (supersedes_exec): left out, not added (review13d).
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stats/cli.sh
. "$TOP/tests/stats/cli.sh"

built() {
	[ -x "$B/libexec/interloper-report" ] && [ -x "$B/libexec/interloper-run" ]
}

# lab SYSTEM I [HOST]: the labels, pid and host of run I of SYSTEM
lab() {
	printf '"labels":{"system":"%s","rep":"%s","setup":"e%s","run":"%s/r%s"},"pid":%s,"host":"%s"' \
		"$1" "$2" $(($2 % 4)) "$1" "$2" $((100 + $2)) "${3:-h1}"
}
# ex LABELS WALL [MAXRSS]: a record that ended in an exec
ex() {
	printf '{"schema":"interloper/1",%s,"exit":{"how":"exec","exec":"./prog.bin"},"times":{"wall_ns":%s},"maxrss_kib":%s}\n' "$1" "$2" "${3:-100}"
}
# end LABELS WALL [MAXRSS]: a record of a process's last image
end() {
	printf '{"schema":"interloper/1",%s,"exit":{"how":"return","status":0},"times":{"wall_ns":%s},"maxrss_kib":%s}\n' "$1" "$2" "${3:-100}"
}

try "a launcher's image and the program's make one run: their sum, said in the header; the program alone unchanged"
if built; then
	# A runs its program directly (1000 ns); B through a launcher (200 ns,
	# exit exec) and then the program (1100 ns); 20 runs each, past the
	# first room of 16 open chains; the launcher's records and the
	# program's interleaved with other runs' (jobs in parallel)
	for i in $(seq 1 20); do
		ex "$(lab B "$i")" 200 5000
		end "$(lab A "$i")" $((1000 + i % 3))
	done >"$T/c1"
	for i in $(seq 1 20); do
		end "$(lab B "$i")" $((1100 + i % 3)) 3000
	done >"$T/c2"
	cat "$T/c1" "$T/c2" >"$T/chain.jsonl"
	out=$(sh "$IL" report --by system --json "$T/chain.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["system"], g["n"], g["mean"]) for g in r["groups"]]')" \
		"[('A', 20, 1001.05), ('B', 20, 1301.05)]" "one value per run: B's the sum of its two images"
	assert_eq "$(printf '%s' "$out" | js 'r["input"]["exec_folded"]')" 20 "the JSON input says how many were folded"
	assert_eq "$(grep -c exec-chain "$T/err")" 0 "no warning: folded"
	sh "$IL" report --by system "$T/chain.jsonl" >"$T/out" 2>/dev/null
	assert_match "$(head -1 "$T/out")" "^metric wall \(ns\): 40 records from 1 file; 20 records of exec chains folded into the next image's$" "the text header says so"
	out=$(sh "$IL" report --compare system=A --setup setup --json "$T/chain.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js 'round(r["comparisons"][0]["ratio"], 3)')" 1.3 "the ratio of B to A: 1.3, not the average of the images (0.65)"
	out=$(sh "$IL" report --by system --per run --json "$T/chain.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["system"], g["n"], g["mean"]) for g in r["groups"]]')" \
		"[('A', 20, 1001.05), ('B', 20, 1301.05)]" "--per run: the same"
	out=$(sh "$IL" report --by system --metric maxrss --json "$T/chain.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["system"], g["mean"]) for g in r["groups"]]')" \
		"[('A', 100), ('B', 5000)]" "maxrss: the largest of the images, not their sum"
	out=$(sh "$IL" report --by system --json "$T/c2" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '("exec_folded" in r["input"], r["groups"][0]["mean"])')" "(False, 1101.05)" "nothing folded: no field, the values as they are"
else
	skip "the statistics programs are not built; run make"
fi

try "a chain of three images is one run; another pid, host or labels is another process"
if built; then
	{
		for i in $(seq 1 17); do ex "$(lab B "$i")" 10; done
		for i in $(seq 1 17); do ex "$(lab B "$i")" 200; done
		for i in $(seq 1 17); do end "$(lab B "$i")" 1000; done
	} >"$T/three.jsonl"
	out=$(sh "$IL" report --json "$T/three.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], r["groups"][0]["mean"], r["input"]["exec_folded"])')" "(17, 1210, 34)" "three images, one run"
	{
		ex "$(lab B 1)" 200
		end "$(lab B 1 h2)" 1000
		ex "$(lab B 2)" 200
		end "$(lab B 3)" 1000
		ex "$(lab B 4)" 200
		end "$(lab B 4 | sed 's/"rep":"4"/"rep":"5"/')" 1000
	} >"$T/other.jsonl"
	out=$(sh "$IL" report --json "$T/other.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], "exec_folded" in r["input"])')" "(6, False)" "another host, pid or labels: not folded"
	assert_match "$(cat "$T/err")" "records that end in an exec \(exit.how \"exec\"\) with no record of the next image of their process .*: all: 3 of 6; .*measure the program itself \[exec-chain\]$" "the records left ending in an exec are named"
else
	skip "the statistics programs are not built; run make"
fi

try "many records waiting for their next image (env -i runs): the first and the last still found, in one reading and in parts"
if built; then
	# 1100 runs whose next image wrote nothing, then the next images of
	# the first and of the last (a table of 16 that grows, 17+ and many)
	{
		for i in $(seq 1 1100); do ex "$(lab B "$i")" 200; done
		end "$(lab B 1)" 1000
		end "$(lab B 1100)" 1000
	} >"$T/open.jsonl"
	out=$(sh "$IL" report --json "$T/open.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], r["input"]["exec_folded"], r["groups"][0]["max"])')" "(1100, 2, 1200)" "both folded"
	assert_match "$(cat "$T/err")" "all: 1098 of 1100.*\[exec-chain\]" "the records left ending in an exec are named"
	if [ -x "$B/tests/interloper-report-parts" ]; then
		sh "$IL" report --json "$T/open.jsonl" >"$T/o.json" 2>/dev/null
		IL_TEST_TAKE=2000 "$B/tests/interloper-report-parts" --json "$T/open.jsonl" >"$T/p.json" 2>"$T/err"
		assert_match "$(cat "$T/err")" "il-test-parts: [0-9]" "read in parts"
		assert_eq "$(cmp -s "$T/o.json" "$T/p.json" && echo same)" same "in parts: the same"
	fi
else
	skip "the statistics programs are not built; run make"
fi

try "read in many parts on two threads, the chains are those of one reading in order"
if built && [ -x "$B/tests/interloper-report-parts" ]; then
	for i in $(seq 1 40); do
		ex "$(lab B "$i")" 200
		end "$(lab A "$i")" 1000
		ex "$(lab C "$i")" 100
		ex "$(lab C "$i")" 100
	done >"$T/p1"
	for i in $(seq 1 40); do
		end "$(lab B "$i")" 1100
		end "$(lab C "$i")" 1000
	done >"$T/p2"
	cat "$T/p1" "$T/p2" >"$T/parts.jsonl"
	sh "$IL" report --by system --json "$T/parts.jsonl" >"$T/one.json" 2>/dev/null
	for take in 1 300 5000; do
		IL_TEST_TAKE=$take "$B/tests/interloper-report-parts" --by system --json "$T/parts.jsonl" >"$T/many.json" 2>"$T/err"
		assert_match "$(cat "$T/err")" "il-test-parts: [0-9]" "take $take: read in parts"
		assert_eq "$(js '[(g["labels"]["system"], g["n"], g["mean"]) for g in r["groups"]]' <"$T/many.json")" \
			"[('A', 40, 1000), ('B', 40, 1300), ('C', 40, 1200)]" "take $take: every chain folded"
		assert_eq "$(cmp -s "$T/one.json" "$T/many.json" && echo same)" same "take $take: the same output as one reading"
	done
else
	skip "the statistics programs, or the tests' build of report (make check builds it), are not built"
fi

# img START ARGV: an image's start and argv (the record's JSON)
img() {
	printf '"start":"2026-11-28T00:00:%02dZ","argv":["%s"]' "$1" "$2"
}
# SUP: the mark of a record whose image's exec failed after its exec record
SUP='"supersedes_exec":true'

try "an exec that failed after its record: the record that supersedes it covers it, so it is left out, not added (review13d)"
if built; then
	# A: the exec record (300) and the image's own record (1000, the whole
	# image, supersedes_exec); B: a launcher (100) execs the program,
	# whose exec fails (300) and which ends (1000): 1100; C: two failed
	# execs (300, then 600 superseding it) and the end (1000); D: the
	# launcher's next image's exec record is not in the file, so the
	# superseding record is of another image (start, argv) and is the
	# launcher's next: folded, 1100; 20 runs each, interleaved
	for i in $(seq 1 20); do
		ex "$(lab A "$i"),$(img 1 prog)" 300
		ex "$(lab B "$i"),$(img 1 launch)" 100
		ex "$(lab C "$i"),$(img 2 prog)" 300
		ex "$(lab D "$i"),$(img 1 launch)" 100
	done >"$T/s1"
	for i in $(seq 1 20); do
		ex "$(lab B "$i"),$(img 1 prog)" 300
		ex "$(lab C "$i"),$(img 2 prog),$SUP" 600
	done >"$T/s2"
	for i in $(seq 1 20); do
		end "$(lab A "$i"),$(img 1 prog),$SUP" 1000
		end "$(lab B "$i"),$(img 1 prog),$SUP" 1000
		end "$(lab C "$i"),$(img 2 prog),$SUP" 1000
		end "$(lab D "$i"),$(img 2 prog),$SUP" 1000
	done >"$T/s3"
	cat "$T/s1" "$T/s2" "$T/s3" >"$T/sup.jsonl"
	out=$(sh "$IL" report --by system --json "$T/sup.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["system"], g["n"], g["mean"]) for g in r["groups"]]')" \
		"[('A', 20, 1000), ('B', 20, 1100), ('C', 20, 1000), ('D', 20, 1100)]" "one value per run, each exec record that failed left out"
	assert_eq "$(printf '%s' "$out" | js '(r["input"]["exec_superseded"], r["input"]["exec_folded"])')" "(80, 40)" "the JSON input says how many were left out and folded"
	assert_eq "$(grep -c exec-chain "$T/err")" 0 "no warning"
	sh "$IL" report --by system "$T/sup.jsonl" >"$T/out" 2>/dev/null
	assert_match "$(head -1 "$T/out")" "^metric wall \(ns\): 80 records from 1 file; 40 records of exec chains folded into the next image's; 80 exec records left out, superseded by their image's own \(the exec failed\)$" "the text header says so"
	out=$(sh "$IL" report --by system --per run --json "$T/sup.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["system"], g["n"], g["mean"]) for g in r["groups"]]')" \
		"[('A', 20, 1000), ('B', 20, 1100), ('C', 20, 1000), ('D', 20, 1100)]" "--per run: the same, nothing added twice"
	if [ -x "$B/tests/interloper-report-parts" ]; then
		sh "$IL" report --by system --json "$T/sup.jsonl" >"$T/o.json" 2>/dev/null
		for take in 1 300 5000; do
			IL_TEST_TAKE=$take "$B/tests/interloper-report-parts" --by system --json "$T/sup.jsonl" >"$T/p.json" 2>"$T/err"
			assert_match "$(cat "$T/err")" "il-test-parts: [0-9]" "take $take: read in parts"
			assert_eq "$(cmp -s "$T/o.json" "$T/p.json" && echo same)" same "take $take: the same output as one reading"
		done
	fi
else
	skip "the statistics programs are not built; run make"
fi

try "a program whose exec of a script with a missing #! interpreter fails, run by interloper run: one run each, its own record's value"
if built && [ -x "$PROGS/exitpaths" ]; then
	printf '#!/nonexistent/python\necho hi\n' >"$T/bad.sh"
	chmod +x "$T/bad.sh"
	for i in 1 2 3; do
		sh "$IL" run -q --backend none -o "$T/f.jsonl" -- "$PROGS/exitpaths" execv-fails "$T/bad.sh" >"$T/fout" ||
			echo "run $i failed" >>"$T/ffail"
		assert_match "$(cat "$T/fout")" "^exec failed: No such file or directory$" "run $i: the program's own output"
	done
	assert_eq "$(cat "$T/ffail" 2>/dev/null)" "" "the runs end as the program does"
	assert_eq "$(grep -c '"how":"exec"' "$T/f.jsonl")" 3 "each run's exec record is written"
	assert_eq "$(grep -c '"supersedes_exec":true' "$T/f.jsonl")" 3 "and superseded"
	want=$(grep supersedes_exec "$T/f.jsonl" | awk '{ match($0, /"wall_ns":[0-9]+/); s += substr($0, RSTART + 10, RLENGTH - 10) } END { printf "%.0f", s / 3 }')
	out=$(sh "$IL" report --json "$T/f.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], round(r["groups"][0]["mean"]), r["input"]["exec_superseded"])')" "(3, $want, 3)" "3 runs, each its superseding record's wall time, not that plus the exec record's"
	assert_eq "$(grep -c exec-chain "$T/err")" 0 "no [exec-chain]"
else
	skip "the statistics programs or the test programs are not built; run make check"
fi

try "a program that runs another through system(), run by interloper run: one run each, the parent's record (chain13)"
if built && [ -x "$PROGS/exitpaths" ]; then
	for i in 1 2 3; do
		sh "$IL" run -q -e task-clock --label run=$i -o "$T/y.jsonl" -- "$PROGS/exitpaths" system "$PROGS/probe busy 20 >/dev/null" >/dev/null ||
			echo "run $i failed" >>"$T/yfail"
	done
	assert_eq "$(cat "$T/yfail" 2>/dev/null)" "" "the runs succeed"
	assert_eq "$(wc -l <"$T/y.jsonl" | tr -d ' ')" 9 "three records a run: the program, the shell, the shell's child"
	out=$(sh "$IL" report -m task-clock --json "$T/y.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], r["groups"][0]["min"] > 19e6)')" "(3, True)" \
		"3 runs, each the program's record, which holds its children's 20 ms (the shell's own record is not a run)"
	out=$(sh "$IL" report -m task-clock --per run --json "$T/y.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], r["groups"][0]["max"] < 39e6)')" "(3, True)" "--per run adds nothing twice"
else
	skip "the statistics programs or the test programs are not built; run make check"
fi

try "a launcher script that execs the program, run by interloper run: one run each, the sum of its two images"
if built; then
	cp /bin/true "$T/prog"
	printf '#!/bin/sh\nexec "%s/prog" "$@"\n' "$T" >"$T/launch"
	chmod +x "$T/launch"
	for i in 1 2 3; do
		sh "$IL" run -q --backend none -o "$T/l.jsonl" -- "$T/launch" x || echo "run failed" >>"$T/fail"
	done
	assert_eq "$(cat "$T/fail" 2>/dev/null)" "" "the runs succeed"
	assert_eq "$(grep -c '"how":"exec"' "$T/l.jsonl")" 3 "the launcher's image ends in an exec, one record a run"
	assert_eq "$(wc -l <"$T/l.jsonl" | tr -d ' ')" 6 "and the program's image writes its own"
	want=$(awk '{ match($0, /"wall_ns":[0-9]+/); s += substr($0, RSTART + 10, RLENGTH - 10) } END { printf "%.0f", s / 3 }' "$T/l.jsonl")
	out=$(sh "$IL" report --json "$T/l.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], round(r["groups"][0]["mean"]))')" "(3, $want)" "3 runs, each the sum of its images' wall times"
	assert_eq "$(grep -cE 'exec-chain|mixed-args' "$T/err")" 0 "no word of exec chains or of mixed arguments"
else
	skip "the statistics programs are not built; run make"
fi
done_testing
