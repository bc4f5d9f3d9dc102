#!/bin/sh
# stats_input.sh: interloper report never silently uses a wrong input
# (issue 8, section 3): failed and warm-up runs, --per, multiplexed
# counters, derived metrics, label keys that no record carries, "(none)"
# against a missing label, --compare without another value, a byte-order
# mark, the sweep's metadata lines, exact integer counts, --quiet-warning,
# the host pseudo-label, and plan on values that overflow.
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stats/cli.sh
. "$TOP/tests/stats/cli.sh"

built() {
	[ -x "$B/libexec/interloper-report" ] && [ -x "$B/libexec/interloper-plan" ]
}


# rec SYSTEM REP VALUE [EXTRA_LABELS] [EXIT]: one record.
rec() {
	printf '{"schema":"interloper/1","labels":{"system":"%s","rep":"%s"%s},"host":"h1",' "$1" "$2" "${4:-}"
	printf '"exit":%s,"times":{"wall_ns":%s,"user_ns":1,"sys_ns":0}}\n' "${5:-{\"how\":\"return\",\"status\":0,\"signal\":0\}}" "$3"
}

try "a run killed by a signal is left out with one warning, and kept with --include-failed"
if built; then
	{
		for i in 1 2 3 4 5 6; do rec O2 "$i" $((300000000 + i * 1000)); done
		rec O2 7 22000000 '' '{"how":"signal","status":0,"signal":2}'
	} >"$T/sig.jsonl"
	out=$(sh "$IL" report --json "$T/sig.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js 'r["groups"][0]["n"]')" 6 "the Ctrl-C'd run is out"
	assert_eq "$(printf '%s' "$out" | js 'r["groups"][0]["min"]')" 300001000 "it is not the minimum"
	assert_eq "$(printf '%s' "$out" | js 'r["input"]["failed"]')" 1 "counted"
	assert_match "$(cat "$T/err")" '1 failed run was left out \(1 died of a signal.*--include-failed keeps them \[failed\]' "one warning, in the singular (review15b L4)"
	assert_eq "$(grep -c warning "$T/err")" 1 "only one"
	n=$(sh "$IL" report --include-failed --json "$T/sig.jsonl" 2>/dev/null | js 'r["groups"][0]["n"]')
	assert_eq "$n" 7 "--include-failed keeps it"
else
	skip "the statistics programs are not built; run make"
fi

try "a non-zero exit status is a failure only beside runs that exit 0"
if built; then
	{
		for i in 1 2 3 4; do rec O2 "$i" 100 '' '{"how":"exit","status":0,"signal":0}'; done
		rec O2 5 3 '' '{"how":"exit","status":1,"signal":0}'
		for i in 1 2 3 4; do rec false "$i" 50 '' '{"how":"exit","status":1,"signal":0}'; done
	} >"$T/status.jsonl"
	out=$(sh "$IL" report --by system --json "$T/status.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '[g["n"] for g in r["groups"]]')" "[4, 4]" \
		"O2 loses its failed run; a program that always exits 1 keeps all"
else
	skip "the statistics programs are not built; run make"
fi

try "warm-up runs are left out by default, with one warning; --include-warmup keeps them"
if built; then
	{
		rec O2 0 900 ',"warmup":"1"'
		for i in 1 2 3 4; do rec O2 "$i" 100; done
	} >"$T/warm.jsonl"
	out=$(sh "$IL" report --json "$T/warm.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js 'r["groups"][0]["max"]')" 100 "the warm-up run is out"
	assert_eq "$(printf '%s' "$out" | js 'r["input"]["warmup"]')" 1 "counted"
	assert_match "$(cat "$T/err")" "1 warm-up run \\(label 'warmup'\\) was left out; --include-warmup keeps them" "warning, in the singular (review15b L4)"
	n=$(sh "$IL" report --include-warmup --json "$T/warm.jsonl" 2>/dev/null | js 'r["groups"][0]["n"]')
	assert_eq "$n" 5 "--include-warmup keeps it"
else
	skip "the statistics programs are not built; run make"
fi

try "--per sums the records of one run before any statistics"
if built; then
	{
		# two images per run (an exec chain): 10 + 90, 20 + 80, 30 + 70
		for i in 1 2 3; do
			rec O2 "$i" $((i * 10)) ",\"run\":\"r$i\"" '{"how":"exec","status":0,"signal":0}'
			rec O2 "$i" $((100 - i * 10)) ",\"run\":\"r$i\""
		done
	} >"$T/per.jsonl"
	out=$(sh "$IL" report --per run --json "$T/per.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], r["groups"][0]["mean"], r["groups"][0]["sd"])')" \
		"(3, 100, 0.0)" "three runs of 100"
	assert_eq "$(printf '%s' "$out" | js 'r["input"]["per_records"]')" 6 "six records combined"
	txt=$(sh "$IL" report --per run "$T/per.jsonl" 2>/dev/null | head -n 1)
	assert_match "$txt" '3 runs from 1 file \(6 records combined per run\)' "the report says so"
	one=$(sh "$IL" report --per rnu "$T/per.jsonl" 2>&1 >/dev/null)
	assert_match "$one" "^interloper report: --per: no record has the label 'rnu' \\(6 records read\\); the labels are: rep, run, system$" \
		"an unknown --per label lists the labels"
else
	skip "the statistics programs are not built; run make"
fi

try "integer counts stay exact above 2^53, through means of identical values, min, max and sums"
if built; then
	big=1152921504606846977 # 2^60 + 1, not a double
	{
		for i in 1 2 3; do
			printf '{"schema":"interloper/1","labels":{"rep":"%s","run":"r%s"},"events":{"instructions":{"value":%s}}}\n' "$i" "$i" "$big"
		done
	} >"$T/big.jsonl"
	out=$(sh "$IL" report --metric instructions --json "$T/big.jsonl" 2>/dev/null)
	for f in mean min max; do
		assert_match "$out" "\"$f\": $big," "$f exact"
	done
	{
		for i in 1 2; do
			printf '{"schema":"interloper/1","labels":{"run":"r1"},"events":{"instructions":{"value":%s}}}\n' "$big"
		done
	} >"$T/bigsum.jsonl"
	out=$(sh "$IL" report --metric instructions --per run --json "$T/bigsum.jsonl" 2>/dev/null)
	assert_match "$out" '"min": 2305843009213693954,' "a sum exact"
else
	skip "the statistics programs are not built; run make"
fi

try "doubles in the JSON read back as the same double"
if built; then
	{
		for i in 1 2 3 4 5; do rec O2 "$i" "1000000000000.$i"; done
		for i in 1 2 3 4 5; do rec O3 "$i" "1000000000001.$i"; done
	} >"$T/precise.jsonl"
	out=$(sh "$IL" report --compare system=O2 --json "$T/precise.jsonl" 2>/dev/null)
	got=$(printf '%s' "$out" | js '"%r %r" % tuple(r["comparisons"][0]["ci"])')
	want=$(printf '%s' "$out" | js '"%r %r" % (r["comparisons"][0]["ratio"], r["comparisons"][0]["ratio"])')
	assert_ne "$got" "$want" "a narrow interval is not printed as [r, r]"
	assert_eq "$(printf '%s' "$out" | js 'r["groups"][1]["mean"]')" 1000000000001.3 "13 digits kept"
else
	skip "the statistics programs are not built; run make"
fi

try "multiplexed counters are flagged; --scale scales them as perf stat does"
if built; then
	for i in 1 2 3 4; do
		printf '{"schema":"interloper/1","labels":{"rep":"%s"},"events":{"cycles":{"value":%s,"enabled_ns":1000,"running_ns":500}}}\n' "$i" $((1000 + i))
	done >"$T/mux.jsonl"
	out=$(sh "$IL" report --metric cycles --json "$T/mux.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '(r["input"]["multiplexed"], r["input"]["multiplexed_min_fraction"], r["input"]["scaled"], r["groups"][0]["min"])')" \
		"(4, 0.5, False, 1001)" "flagged, not scaled"
	assert_match "$(cat "$T/err")" 'multiplexed \(counted for as little as 50.0% of the time\); values are not scaled; --scale' "the default says what it did"
	out=$(sh "$IL" report --metric cycles --scale --json "$T/mux.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '(r["input"]["scaled"], r["groups"][0]["min"])')" "(True, 2002.0)" "scaled by enabled/running"
else
	skip "the statistics programs are not built; run make"
fi

try "--metric NUM/DEN divides two events of the same run (IPC), summed first with --per"
if built; then
	for i in 1 2 3 4; do
		printf '{"schema":"interloper/1","labels":{"rep":"%s","run":"r%s"},"events":{"instructions":{"value":%s},"cycles":{"value":%s}}}\n' \
			"$i" $(((i + 1) / 2)) $((2000 + i)) 1000
	done >"$T/ipc.jsonl"
	out=$(sh "$IL" report --metric instructions/cycles --json "$T/ipc.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '(r["metric"], r["groups"][0]["n"], r["groups"][0]["min"], r["groups"][0]["max"])')" \
		"('instructions/cycles', 4, 2.001, 2.004)" "per-run ratios"
	assert_eq "$(printf '%s' "$out" | js 'r["groups"][0]["ci"] is not None')" True "with an interval"
	out=$(sh "$IL" report --metric instructions/cycles --per run --json "$T/ipc.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], r["groups"][0]["min"])')" "(2, 2.0015)" "a ratio of sums"
else
	skip "the statistics programs are not built; run make"
fi


try "a label named on the command line that no record carries is an error listing the labels"
if built; then
	for i in 1 2 3; do rec O2 "$i" 100; rec O3 "$i" 90; done >"$T/two.jsonl"
	for opt in "--setup nosuch --compare system=O2" "--by nosuch" "--compare nosuch=x" "--levels nosuch,rep"; do
		name=${opt%% *}
		# shellcheck disable=SC2086 # the option and its value, split on purpose
		one_line "$opt" "^interloper report: $name: " report $opt "$T/two.jsonl"
		assert_match "$(cat "$T/ol.err")" "no record has the label 'nosuch' \\(6 records read\\); the labels are: rep, system$" "$opt: names the labels"
	done
else
	skip "the statistics programs are not built; run make"
fi

try "a missing label and a real value \"(none)\" are different groups"
if built; then
	{
		rec O2 1 100 ',"bench":"(none)"'
		rec O2 2 101 ',"bench":"(none)"'
		rec O2 3 300
		rec O2 4 301
	} >"$T/none.jsonl"
	out=$(sh "$IL" report --by bench --json "$T/none.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js 'sorted([(str(g["labels"]["bench"]), g["n"]) for g in r["groups"]])')" \
		"[('(none)', 2), ('None', 2)]" "two groups, the missing label as null"
else
	skip "the statistics programs are not built; run make"
fi

try "--compare K=V where no other value of K exists is an error"
if built; then
	for i in 1 2 3; do rec O2 "$i" 100; done >"$T/only.jsonl"
	one_line "only the baseline" '^interloper report: --compare system=O2: every selected record has system=O2, so there is nothing to compare it with' \
		report --compare system=O2 "$T/only.jsonl"
else
	skip "the statistics programs are not built; run make"
fi

try "a UTF-8 byte-order mark at the start of a file is skipped"
if built; then
	{
		printf '\357\273\277'
		for i in 1 2 3; do rec O2 "$i" 100; done
	} >"$T/bom.jsonl"
	out=$(sh "$IL" report --json "$T/bom.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], r["input"]["malformed"])')" "(3, 0)" "all three records"
	assert_eq "$(cat "$T/err")" "" "no warning"
else
	skip "the statistics programs are not built; run make"
fi

try "the sweep's metadata lines are skipped silently and counted"
if built; then
	{
		printf '{"schema":"interloper-sweep/1","kind":"plan","seed":1,"runs":3}\n'
		for i in 1 2 3; do rec O2 "$i" 100; done
		printf '{"schema":"interloper-sweep/1","kind":"machine","host":"h1"}\n'
	} >"$T/sweep.jsonl"
	out=$(sh "$IL" report --json "$T/sweep.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], r["input"]["sweep_lines"], r["input"]["not_records"])')" "(3, 2, 0)" "counted, not records"
	assert_eq "$(cat "$T/err")" "" "no warning"
else
	skip "the statistics programs are not built; run make"
fi

try "warnings carry their name and --quiet-warning silences them on stderr only"
if built; then
	awk 'BEGIN { for (r = 1; r <= 12; r++) printf "{\"schema\":\"interloper/1\",\"labels\":{\"rep\":\"%d\"},\"times\":{\"wall_ns\":%d}}\n", r, r == 1 ? 500 : 100 + r % 3 }' >"$T/first.jsonl"
	err=$(sh "$IL" report "$T/first.jsonl" 2>&1 >/dev/null)
	assert_match "$err" '\[first-run\]$' "named"
	err=$(sh "$IL" report --quiet-warning first-run "$T/first.jsonl" 2>&1 >/dev/null)
	assert_eq "$(printf '%s\n' "$err" | grep -c 'first run')" 0 "silenced"
	assert_match "$err" '\[outliers\]$' "the others stay"
	err=$(sh "$IL" report --quiet-warning first-run,outliers "$T/first.jsonl" 2>&1 >/dev/null)
	assert_eq "$err" "" "a comma list"
	out=$(sh "$IL" report --quiet-warning all --json "$T/first.jsonl" 2>/dev/null)
	assert_match "$(printf '%s' "$out" | js '" ".join(r["warnings"])')" 'first run differs' "still in the JSON"
	one_line "an unknown name" '^interloper report: --quiet-warning nosuch: unknown warning name; expected all or one of: malformed, ' \
		report --quiet-warning nosuch "$T/first.jsonl"
else
	skip "the statistics programs are not built; run make"
fi

try "per-group warnings name their cause once"
if built; then
	awk 'BEGIN { for (g = 0; g < 5; g++) for (r = 1; r <= 12; r++) printf "{\"schema\":\"interloper/1\",\"labels\":{\"g\":\"g%d\",\"rep\":\"%d\"},\"times\":{\"wall_ns\":%d}}\n", g, r, r == 1 ? 500 : 100 + r % 3 }' >"$T/five.jsonl"
	err=$(sh "$IL" report --by g "$T/five.jsonl" 2>&1 >/dev/null)
	assert_eq "$(printf '%s\n' "$err" | grep -c 'first run')" 1 "one line for five groups"
	assert_match "$err" 'g=g0 .*g=g4' "naming each group"
else
	skip "the statistics programs are not built; run make"
fi

try "an event spelled in upper case by an older build is the same metric as the library's lower-case name"
if built; then
	# records of a build before 19718d3 kept -e TASK-CLOCK as given; the
	# library now records task-clock (review14c M2: the old records were
	# dropped as lacking the metric)
	awk 'BEGIN { for (r = 1; r <= 20; r++) {
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"old\",\"rep\":\"%d\"},\"events\":{\"TASK-CLOCK\":{\"value\":%d},\"Page-Faults:U\":{\"value\":7},\"PAPI_TOT_CYC\":{\"value\":1}},\"floor\":{\"TASK-CLOCK\":100}}\n", r, 1000 + r
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"new\",\"rep\":\"%d\"},\"events\":{\"task-clock\":{\"value\":%d},\"page-faults:u\":{\"value\":9},\"papi_tot_cyc\":{\"value\":2}},\"floor\":{\"task-clock\":100}}\n", r, 2000 + r }
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"esc\",\"rep\":\"1\"},\"events\":{\"TASK\\u002dCLOCK\":{\"value\":5000}}}\n" }' >"$T/case.jsonl"
	out=$(sh "$IL" report -m task-clock --by system --json "$T/case.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["system"], g["n"]) for g in r["groups"]]')" \
		"[('esc', 1), ('new', 20), ('old', 20)]" "old, new and an escaped key, one metric"
	assert_eq "$(grep -c "missing" "$T/err")" 0 "no record lacks it"
	out=$(sh "$IL" report -m task-clock --subtract-floor --by system --json "$T/case.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '[g["min"] for g in r["groups"] if g["labels"]["system"] != "esc"]')" \
		"[1901, 901]" "the floor's upper-case key too"
	out=$(sh "$IL" report -m PAGE-FAULTS:u --by system --json "$T/case.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["system"], g["n"], g["min"]) for g in r["groups"]]')" \
		"[('new', 20, 9), ('old', 20, 7)]" "with a modifier"
	out=$(sh "$IL" report -m papi_tot_cyc --by system --json "$T/case.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["system"], g["n"]) for g in r["groups"]]')" \
		"[('new', 20)]" "a name that is not generic keeps its case (no fold but the library's)"
	# a record of an older build given -e task-clock,TASK-CLOCK holds both
	# keys: the one as written is read, before or after the other
	# (review15b L2: the later won, 5 where task-clock said 3001)
	awk 'BEGIN { for (r = 1; r <= 20; r++) {
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"both1\",\"rep\":\"%d\"},\"events\":{\"task-clock\":{\"value\":%d},\"TASK-CLOCK\":{\"value\":5}}}\n", r, 3000 + r
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"both2\",\"rep\":\"%d\"},\"events\":{\"TASK-CLOCK\":{\"value\":5},\"task-clock\":{\"value\":%d}}}\n", r, 4000 + r } }' >"$T/both.jsonl"
	out=$(sh "$IL" report -m task-clock --by system --json "$T/both.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["system"], g["n"], g["min"], g["max"]) for g in r["groups"]]')" \
		"[('both1', 20, 3001, 3020), ('both2', 20, 4001, 4020)]" "both spellings in one record: the one as written, wherever it is (review15b L2)"
	out=$(sh "$IL" report -m TASK-CLOCK --by system --json "$T/both.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["system"], g["min"]) for g in r["groups"]]')" \
		"[('both1', 3001), ('both2', 4001)]" "-m TASK-CLOCK is task-clock, as the library records it"
	one_line "the known metrics list each once" \
		"^interloper report: unknown metric 'nosuch': no selected record has it; known metrics: wall, user, sys, maxrss, task-clock, page-faults:u, PAPI_TOT_CYC, papi_tot_cyc\$" \
		report -m nosuch "$T/case.jsonl"
else
	skip "the statistics programs are not built; run make"
fi

try "[failed] under --per counts runs, not records, each by its first cause"
if built; then
	# 20 runs of each system, a root and 3 children each; one child of
	# B's run 2 dies of SIGSEGV, every child of B's run 4 of SIGKILL, and
	# B's run 7 was a launch the sweep called failed (fix14a: "8 failed
	# runs ... (4 died of a signal; 4 in system=B)" for 2 runs)
	python3 - >"$T/per.jsonl" <<'PY'
import json
pid = 100
def rec(sys, run, ppid, sig=0, launch=None):
    global pid
    pid += 1
    lab = {"system": sys, "run": run}
    if launch:
        lab["launch"] = launch
    print(json.dumps({"schema": "interloper/1", "labels": lab, "pid": pid, "ppid": ppid, "host": "h",
                      "exit": {"how": "signal" if sig else "return", "status": 0, "signal": sig},
                      "times": {"wall_ns": 1000 + pid % 7}}))
    return pid
for sys in "AB":
    for r in range(20):
        run = "%s%d" % (sys, r)
        launch = "l-%s" % run if sys == "B" and r == 7 else None
        root = rec(sys, run, 1, launch=launch)
        for c in range(3):
            rec(sys, run, root, 11 if (sys, r, c) == ("B", 2, 1) else 9 if (sys, r) == ("B", 4) else 0, launch)
print(json.dumps({"schema": "interloper-sweep/1", "kind": "failed", "plan": "p", "run": "B/e0/r7",
                  "launch": "l-B7", "why": "ended with status 1", "status": 1, "records": 4}))
PY
	out=$(sh "$IL" report --by system --per run --json "$T/per.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '(r["input"]["failed"], [(g["labels"]["system"], g["n"]) for g in r["groups"]])')" \
		"(3, [('A', 20), ('B', 17)])" "three runs of B left out, counted as three"
	assert_match "$(cat "$T/err")" \
		'warning: 3 failed runs were left out \(1 the sweep marked failed, 2 had a process that died of a signal; 3 in system=B\); --include-failed keeps them \[failed\]' \
		"each run once, by its first cause"
	out=$(sh "$IL" report --by system --json "$T/per.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js 'r["input"]["failed"]')" 8 "without --per, records are the runs"
	assert_match "$(cat "$T/err")" '4 failed runs and 4 records of launches the sweep marked failed were left out \(4 died of a signal; 8 in system=B\)' \
		"and counted so"
	sed '/"system": "A"/d' "$T/per.jsonl" | sed 's/"how": "return", "status": 0, "signal": 0/"how": "signal", "status": 0, "signal": 6/' >"$T/allf.jsonl"
	one_line "every run failed" '^interloper report: every selected run failed: [0-9]' report --per run "$T/allf.jsonl"
else
	skip "the statistics programs are not built; run make"
fi

try "host is a label: the record's host field unless a label of that name exists; unequal hosts warn"
if built; then
	{
		for i in 1 2 3 4; do rec O2 "$i" 100; done
		for i in 1 2 3 4; do rec O3 "$i" 90; done
	} | awk '/"O3"/ && /"rep":"[34]"/ { sub(/"host":"h1"/, "\"host\":\"h2\"") } { print }' >"$T/hosts.jsonl"
	out=$(sh "$IL" report --by host --json "$T/hosts.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["host"], g["n"]) for g in r["groups"]]')" \
		"[('h1', 6), ('h2', 2)]" "grouped by host"
	err=$(sh "$IL" report --compare system=O2 "$T/hosts.jsonl" 2>&1 >/dev/null)
	assert_match "$err" 'the two sides ran on the hosts in different proportions \(h1: 2 and 4 runs; h2: 2 and 0 runs\).*\[hosts\]' "warned"
	err=$(sh "$IL" report --compare system=O2 --by host "$T/hosts.jsonl" 2>&1 >/dev/null)
	assert_eq "$(printf '%s\n' "$err" | grep -c 'hosts\]')" 0 "not when compared per host"
else
	skip "the statistics programs are not built; run make"
fi

try "plan and report refuse values whose variances would overflow, in one line that names the first"
if built; then
	for e in 1 2; do for i in 1 2; do
		printf '{"schema":"interloper/1","labels":{"exec":"%s","iter":"%s"},"times":{"wall_ns":%s}}\n' "$e" "$i" "$([ "$i" = 1 ] && echo 1e308 || echo -1.7e308)"
	done; done >"$T/huge.jsonl"
	sh "$IL" plan --levels exec,iter --target 1% "$T/huge.jsonl" >"$T/out" 2>"$T/err"
	assert_eq "$?" 1 "exit status"
	assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "one line"
	assert_match "$(cat "$T/err")" "^interloper plan: empty selection: .*; the first bad one: $T/huge.jsonl:1: the value of metric 'wall' is 1e308, beyond 1e\\+100: too large for a variance" "message"
	assert_eq "$(cat "$T/out")" "" "no plan printed"
	# near 1e160 the values agree to 0.3%, but their squares overflowed:
	# the report said sd inf and "the baseline is not clearly different
	# from zero" (review R2, finding 5); one such value among good ones is
	# named and skipped
	{
		printf '{"schema":"interloper/1","labels":{"system":"A"},"times":{"wall_ns":1.001e160}}\n'
		for i in 1 2 3; do
			printf '{"schema":"interloper/1","labels":{"system":"A"},"times":{"wall_ns":%s}}\n' "10$i"
			printf '{"schema":"interloper/1","labels":{"system":"B"},"times":{"wall_ns":%s}}\n' "11$i"
		done
	} >"$T/huge2.jsonl"
	sh "$IL" report --compare system=B "$T/huge2.jsonl" >"$T/out" 2>"$T/err"
	assert_eq "$?" 0 "report: the good values are compared"
	assert_match "$(cat "$T/err")" "huge2.jsonl:1: the value of metric 'wall' is 1.001e160, beyond 1e\\+100.*line skipped" \
		"report: the bad one is named and skipped"
	assert_match "$(cat "$T/out")" "from 3 and 3 runs" "report: three runs a side"
else
	skip "the statistics programs are not built; run make"
fi
try "records measured beside another measured program are named per group ([others-measured]); none, no word"
if built; then
	# lit -j2 under the harness prefix (outside12 F17): the library's line
	# on stderr is silenced by -q, so the report is where it is said; 17
	# and 2 of 20, past the warnings' first room of 16
	for s in A B; do for i in $(seq 1 20); do
		o=false
		{ [ "$s" = A ] && [ "$i" -le 17 ]; } || { [ "$s" = B ] && [ "$i" -le 2 ]; } && o=true
		printf '{"schema":"interloper/1","labels":{"system":"%s","rep":"%s","setup":"e%s","run":"%s/p%s"},"others_measured":%s,"times":{"wall_ns":%s}}\n' \
			"$s" "$i" $((i % 4)) "$s" $((i % 4)) "$o" $((1000 + (i * 7) % 11))
	done; done >"$T/others.jsonl"
	sh "$IL" report --by system "$T/others.jsonl" >/dev/null 2>"$T/err"
	assert_match "$(cat "$T/err")" "records measured while another program measured by interloper ran on the machine \(others_measured\): system=A: 17 of 20; system=B: 2 of 20; .*measure one benchmark at a time.* \[others-measured\]" "text: each group's count"
	assert_eq "$(grep -c others-measured "$T/err")" 1 "one line"
	w=$(sh "$IL" report --by system --json "$T/others.jsonl" 2>/dev/null | js '[x for x in r["warnings"] if "[others-measured]" in x]')
	assert_match "$w" "system=A: 17 of 20; system=B: 2 of 20" "the JSON warnings array"
	sh "$IL" report --compare system=A --setup setup "$T/others.jsonl" >/dev/null 2>"$T/err"
	assert_match "$(cat "$T/err")" "system=A: 17 of 20; system=B: 2 of 20.*\[others-measured\]" "with a design (the runs' flags freed early)"
	sh "$IL" report --by system --per run "$T/others.jsonl" >/dev/null 2>"$T/err"
	assert_match "$(cat "$T/err")" "system=A: 4 of 4; system=B: 2 of 4.*\[others-measured\]" "--per: a run of several records is one, flagged when any of them is"
	sh "$IL" report --by system --quiet-warning others-measured "$T/others.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$(grep -c others-measured "$T/err")" 0 "--quiet-warning others-measured"
	sed 's/"others_measured":true/"others_measured":false/' "$T/others.jsonl" >"$T/none.jsonl"
	sed 's/"others_measured":[a-z]*,//' "$T/others.jsonl" >"$T/absent.jsonl"
	for f in none absent; do
		sh "$IL" report --by system "$T/$f.jsonl" >/dev/null 2>"$T/err"
		assert_eq "$(grep -c others-measured "$T/err")" 0 "$f: no warning"
	done
else
	skip "the statistics programs are not built; run make"
fi
try "one program run with several inputs: [mixed-args] names each group and its count; --by args splits them"
if built; then
	# outside12 F18: an interpreter run with two scripts under one bench
	# label (a harness's prefix), both systems, a setup per pass; the
	# 37 ms input then reads as a first run that differs, in a group
	# with a cv of 50%
	# argrec SYSTEM PASS VALUE ARGV_JSON [LABELS]
	argrec() {
		printf '{"schema":"interloper/1","labels":{"bench":"lua","system":"%s","setup":"p%s","rep":"%s"%s},"argv":%s,"exit":{"how":"return","status":0,"signal":0},"times":{"wall_ns":%s}}\n' \
			"$1" "$2" "$2" "${5:-}" "$4" "$3"
	}
	for p in 1 2 3; do for s in O2 O3; do
		argrec "$s" "$p" $((13000000 + p * 1000)) "[\"$s/lua\",\"fibo.lua\",\"27\"]"
		argrec "$s" "$p" $((37000000 + p * 1000)) "[\"$s/lua\",\"nbody.lua\",\"20000\"]"
	done; done >"$T/args.jsonl"
	sh "$IL" report --by bench --compare system=O2 --setup setup "$T/args.jsonl" >/dev/null 2>"$T/err"
	assert_match "$(cat "$T/err")" "groups whose runs were made with different arguments \(the argv after the program\): bench=lua system=O2: 2 argument lists; bench=lua system=O3: 2 argument lists; they are pooled as one sample.*--by bench,args.* \[mixed-args\]$" "named, with the count and the fix"
	assert_eq "$(grep -c mixed-args "$T/err")" 1 "one line"
	w=$(sh "$IL" report --by bench,system --json "$T/args.jsonl" 2>/dev/null | js '[x for x in r["warnings"] if "[mixed-args]" in x]')
	assert_match "$w" "bench=lua system=O2: 2 argument lists" "the JSON warnings array, without a design"
	out=$(sh "$IL" report --by bench,args --compare system=O2 --setup setup --json "$T/args.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["args"], g["labels"]["system"], g["n"], g["mean"]) for g in r["groups"]]')" \
		"[('fibo.lua 27', 'O2', 3, 13002000), ('fibo.lua 27', 'O3', 3, 13002000), ('nbody.lua 20000', 'O2', 3, 37002000), ('nbody.lua 20000', 'O3', 3, 37002000)]" \
		"--by bench,args: one group per input, paired across systems (their programs differ)"
	assert_eq "$(grep -cE 'mixed-args|first-run' "$T/err")" 0 "split: no word of mixed arguments, nor a first run"
	out=$(sh "$IL" report --where 'args=nbody.lua 20000' --json "$T/args.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '(r["groups"][0]["n"], r["groups"][0]["mean"])')" "(6, 37002000)" "--where args=..."
	assert_eq "$(grep -c mixed-args "$T/err")" 0 "--where args=...: one list"
	# a label args, where the records carry one, is the label
	awk '{ sub(/"rep":/, "\"args\":\"all\",\"rep\":") } { print }' "$T/args.jsonl" >"$T/argl.jsonl"
	out=$(sh "$IL" report --by args --json "$T/argl.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["args"], g["n"]) for g in r["groups"]]')" "[('all', 12)]" "a label args is read first"
	assert_eq "$(grep -c mixed-args "$T/err")" 0 "grouped by it: no warning"
	# --per sums a run's processes, whose arguments differ by design
	sh "$IL" report --by bench --per rep "$T/args.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$(grep -c mixed-args "$T/err")" 0 "--per: not looked at"
	# arguments that change with the setup only (a sweep's {layout} in
	# the command) are the setup's; without the design they are pooled
	for p in 1 2; do for l in 0 1 2 3; do for s in O2 O3; do
		printf '{"schema":"interloper/1","labels":{"system":"%s","layout":"%s","rep":"%s"},"argv":["run","bin.%s"],"times":{"wall_ns":%s}}\n' \
			"$s" "$l" "$p" "$l" $((1000 + l * 10 + p))
	done; done; done >"$T/lay.jsonl"
	sh "$IL" report --compare system=O2 --setup layout "$T/lay.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$(grep -c mixed-args "$T/err")" 0 "arguments that follow the setup: not counted"
	sh "$IL" report --compare system=O2 "$T/lay.jsonl" >/dev/null 2>"$T/err"
	assert_match "$(cat "$T/err")" "system=O2: 4 argument lists; system=O3: 4 argument lists; .*\[mixed-args\]" "without the design: pooled, said"
	# the same, crossed with a second factor: one list per layout in each
	# (env_add, layout) cell
	awk '{ sub(/"rep":/, "\"env_add\":\"" (NR % 2) "\",\"rep\":") } { print }' "$T/lay.jsonl" >"$T/lay2.jsonl"
	sh "$IL" report --compare system=O2 --setup env_add,layout "$T/lay2.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$(grep -c mixed-args "$T/err")" 0 "crossed design: a list per cell, not counted"
	# no argv (another writer's records), or one list for all: no word
	sed 's/"argv":\[[^]]*\],//' "$T/args.jsonl" >"$T/noargv.jsonl"
	sh "$IL" report --by bench "$T/noargv.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$(grep -c mixed-args "$T/err")" 0 "no argv: no word"
	# quoting: "a b" is not "a" "b"; a quote and an escape; a program
	# alone is the list ""; 40 lists in one group (past a table of 16), one
	# longer than the cache of 256 bytes, taking turns
	long=$(printf 'x%.0s' $(seq 1 300))
	{
		for i in $(seq 1 40); do
			printf '{"schema":"interloper/1","labels":{"g":"1"},"argv":["p","in%s"],"times":{"wall_ns":5}}\n' "$i"
			printf '{"schema":"interloper/1","labels":{"g":"1"},"argv":["p","%s"],"times":{"wall_ns":5}}\n' "$long"
		done
		printf '{"schema":"interloper/1","labels":{"g":"2"},"argv":["p","a b"],"times":{"wall_ns":5}}\n'
		printf '{"schema":"interloper/1","labels":{"g":"2"},"argv":["p","a","b"],"times":{"wall_ns":5}}\n'
		printf '{"schema":"interloper/1","labels":{"g":"3"},"argv":["p","it'"'"'s","t\\u0041\\"q"],"times":{"wall_ns":5}}\n'
		printf '{"schema":"interloper/1","labels":{"g":"3"},"argv":["q"],"times":{"wall_ns":5}}\n'
		printf '{"schema":"interloper/1","labels":{"g":"3"},"argv":[ "q" , "" ],"times":{"wall_ns":5}}\n'
	} >"$T/quote.jsonl"
	sh "$IL" report --by g "$T/quote.jsonl" >/dev/null 2>"$T/err"
	assert_match "$(cat "$T/err")" "g=1: 41 argument lists; g=2: 2 argument lists; g=3: 3 argument lists;" "counted: 41, 2 and 3"
	out=$(sh "$IL" report --by g,args --json "$T/quote.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$out" | js '"|".join(sorted(g["labels"]["args"] for g in r["groups"] if g["labels"]["g"] != "1"))')" \
		"|''|'a b'|'it'\\''s' 'tA\"q'|a b" "shell-quoted where they must be, so that lists differ"
	assert_eq "$(printf '%s' "$out" | js 'len([g for g in r["groups"] if g["labels"]["g"] == "1" and g["n"] == 40])')" 1 "the long list: one group of 40"
	# read in parts by two threads: the same as one reading
	if [ -x "$B/tests/interloper-report-parts" ]; then
		for i in $(seq 1 20); do cat "$T/quote.jsonl" "$T/args.jsonl"; done >"$T/many.jsonl"
		IL_TEST_TAKE=1 "$B/tests/interloper-report-parts" --by g,bench,args "$T/many.jsonl" >"$T/a.out" 2>"$T/a.err0"
		"$B/libexec/interloper-report" --by g,bench,args - <"$T/many.jsonl" >"$T/b.out" 2>"$T/b.err"
		assert_true "in parts: the same groups" cmp -s "$T/a.out" "$T/b.out"
		IL_TEST_TAKE=1 "$B/tests/interloper-report-parts" --by g,bench "$T/many.jsonl" >/dev/null 2>"$T/a.err0"
		"$B/libexec/interloper-report" --by g,bench - <"$T/many.jsonl" >/dev/null 2>"$T/b.err"
		assert_eq "$(grep mixed-args "$T/a.err0")" "$(grep mixed-args "$T/b.err")" "in parts: the same warning"
		assert_match "$(cat "$T/b.err")" "g=\(none\) bench=lua: 2 argument lists; g=1 bench=\(none\): 41 argument lists" "of the interleaved files"
	fi
else
	skip "the statistics programs are not built; run make"
fi

done_testing
