#!/bin/sh
# stats_exec.sh: the records of an exec chain (a launcher that execs the
# program: one record per image, the first ending in exec) are named by
# the report's [exec-chain] warning, which outside13 F12 found missing: a
# launcher compared with its own program looked 49% faster, in silence.
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stats/cli.sh
. "$TOP/tests/stats/cli.sh"

built() {
	[ -x "$B/libexec/interloper-report" ] && [ -x "$B/libexec/interloper-run" ]
}

try "records that end in an exec are named per group ([exec-chain]), with the remedy; none, no word"
if built; then
	# A runs its program directly (1000 ns); B through a launcher that
	# execs it: per run a record of the launcher's image (exit exec, 200
	# ns) and one of the program's (1100 ns), same pid and labels; 20
	# runs each, past the warnings' first room of 16
	for s in A B; do for i in $(seq 1 20); do
		lab=$(printf '"labels":{"system":"%s","rep":"%s","setup":"e%s","run":"%s/r%s"},"pid":%s' \
			"$s" "$i" $((i % 4)) "$s" "$i" $((100 + i)))
		w=$((1000 + i % 3))
		if [ "$s" = B ]; then
			printf '{"schema":"interloper/1",%s,"exit":{"how":"exec","exec":"./prog.bin"},"times":{"wall_ns":200}}\n' "$lab"
			w=$((1100 + i % 3))
		fi
		printf '{"schema":"interloper/1",%s,"exit":{"how":"return","status":0},"times":{"wall_ns":%s}}\n' "$lab" "$w"
	done; done >"$T/chain.jsonl"
	sh "$IL" report --by system "$T/chain.jsonl" >/dev/null 2>"$T/err"
	assert_match "$(cat "$T/err")" "records that end in an exec \(exit.how \"exec\"\): .* taken as a run: system=B: 20 of 40; so the mean and the ratios mix .*--per LABEL.*system\(\) and posix_spawn children .* \[exec-chain\]$" "text: the group, its count of such records, the remedy and its limit"
	assert_eq "$(grep -c exec-chain "$T/err")" 1 "one line"
	assert_eq "$(grep exec-chain "$T/err" | grep -c 'system=A')" 0 "the direct runs are not named"
	w=$(sh "$IL" report --by system --json "$T/chain.jsonl" 2>/dev/null | js '[x for x in r["warnings"] if "[exec-chain]" in x]')
	assert_match "$w" "system=B: 20 of 40" "the JSON warnings array"
	sh "$IL" report --compare system=A --setup setup "$T/chain.jsonl" >/dev/null 2>"$T/err"
	assert_match "$(cat "$T/err")" "system=B: 20 of 40.*\[exec-chain\]" "with a design (the runs' flags freed early)"
	# --per run sums the images: B is 1300 a run, 1.3 times A
	out=$(sh "$IL" report --by system --per run --json "$T/chain.jsonl" 2>"$T/err")
	assert_eq "$(printf '%s' "$out" | js '[(g["labels"]["system"], g["n"], round(g["mean"])) for g in r["groups"]]')" \
		"[('A', 20, 1001), ('B', 20, 1301)]" "--per run: one value per run, the sum of its images"
	assert_eq "$(grep -c exec-chain "$T/err")" 0 "--per: not said"
	sh "$IL" report --by system --quiet-warning exec-chain "$T/chain.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$(grep -c exec-chain "$T/err")" 0 "--quiet-warning exec-chain"
	grep -v '"how":"exec"' "$T/chain.jsonl" >"$T/none.jsonl"
	sh "$IL" report --by system "$T/none.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$(grep -c exec-chain "$T/err")" 0 "no record ends in an exec: no word"
	# a counted_in record (a child counted in its parent) is not a run
	sed 's/"exit":{"how":"exec"/"counted_in":7,&/' "$T/chain.jsonl" >"$T/cin.jsonl"
	sh "$IL" report --by system "$T/cin.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$(grep -c exec-chain "$T/err")" 0 "records left out as counted_in: not counted"
else
	skip "the statistics programs are not built; run make"
fi

try "a launcher script that execs the program, run by interloper run: its records are named, the program's alone are not"
if built; then
	cp /bin/true "$T/prog"
	printf '#!/bin/sh\nexec "%s/prog" "$@"\n' "$T" >"$T/launch"
	chmod +x "$T/launch"
	for i in 1 2 3; do
		sh "$IL" run -q --backend none -o "$T/l.jsonl" -- "$T/launch" x || echo "run failed" >>"$T/fail"
		sh "$IL" run -q --backend none -o "$T/d.jsonl" -- "$T/prog" x || echo "run failed" >>"$T/fail"
	done
	assert_eq "$(cat "$T/fail" 2>/dev/null)" "" "the runs succeed"
	assert_eq "$(grep -c '"how":"exec"' "$T/l.jsonl")" 3 "the launcher's image ends in an exec, one record a run"
	assert_eq "$(wc -l <"$T/l.jsonl" | tr -d ' ')" 6 "and the program's image writes its own"
	sh "$IL" report "$T/l.jsonl" >/dev/null 2>"$T/err"
	assert_match "$(cat "$T/err")" "all: 3 of 6.*\[exec-chain\]" "the launcher's records: said"
	sh "$IL" report "$T/d.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$(grep -c exec-chain "$T/err")" 0 "the program run directly: no word"
else
	skip "the statistics programs are not built; run make"
fi
done_testing
