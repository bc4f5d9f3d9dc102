#!/bin/sh
# stats_nullwhy.sh: a comparison's missing answer says why.  The JSON's
# "setups" (the per-setup view) is null only with "setups_why" beside it,
# and the text says it too; a --subtract that leaves a setup's estimate
# not positive refuses with what to do about it (not a bare "check the
# metric"), since the shell's runs can take as long as short commands
# under load.
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

built() {
	[ -x "$B/libexec/interloper-report" ]
}

# rec SYSTEM SETUP NS: one record
rec() {
	printf '{"schema":"interloper/1","labels":{"system":"%s","setup":"%s"},"times":{"wall_ns":%s,"user_ns":1,"sys_ns":0}}\n' "$1" "$2" "$3"
}

try "no setup on both sides: setups null with setups_why, and the text says why"
if built; then
	for s in 1 2 3; do
		for v in 1000000 1010000 1020000; do
			rec A "a$s" $((v + s * 1000))
			rec B "b$s" $((v + s * 3000))
		done
	done >"$T/disjoint.jsonl"
	j=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all --json "$T/disjoint.jsonl")
	assert_eq "$?" 0 "exit status"
	v=$(printf '%s' "$j" | python3 -c '
import json, sys
c = json.load(sys.stdin)["comparisons"][0]
print(c["setups"] is None, "setup" in (c.get("setups_why") or ""))')
	assert_eq "$v" "True True" "setups null, setups_why names the label"
	t=$(sh "$IL" report --compare system=A --setup setup --quiet-warning all "$T/disjoint.jsonl")
	assert_match "$t" "system=B: no per-setup ratios: no value of 'setup' has runs of both sides" "text"
	j=$(sh "$IL" report --compare system=A --quiet-warning all --json "$T/disjoint.jsonl")
	v=$(printf '%s' "$j" | python3 -c '
import json, sys
c = json.load(sys.stdin)["comparisons"][0]
print(c["setups"] is None, c.get("setups_why"))')
	assert_eq "$v" "True no --setup: the runs are not grouped into setups" "without --setup"
else
	skip "interloper-report is not built"
fi

try "--subtract: a setup whose subtracted runs took as long as the measured ones refuses with what to do"
if built; then
	for s in 1 2 3 4; do
		sh=300000
		[ "$s" = 3 ] && sh=4300000
		rec shell "e$s" "$sh"
		rec shell "e$s" "$sh"
		rec grep "e$s" $((3400000 + s * 1000))
		rec grep "e$s" $((3410000 + s * 1000))
		rec awk "e$s" $((3300000 + s * 2000))
		rec awk "e$s" $((3310000 + s * 2000))
	done >"$T/sub.jsonl"
	sh "$IL" report --compare system=grep --setup setup --subtract system=shell \
		--quiet-warning all "$T/sub.jsonl" >"$T/out" 2>"$T/err"
	assert_eq "$?" 1 "exit status"
	assert_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "one line"
	assert_match "$(cat "$T/err")" "setup e3: an estimate is not positive .* once the mean of the setup's runs of system=shell is subtracted .*; measure commands that take far longer than them, a metric that does not count waiting \\(task-clock, recorded with -e task-clock\\), or leave out --subtract\$" "names the setup and what to do"
	assert_eq "$(cat "$T/out")" "" "no half-written report"
else
	skip "interloper-report is not built"
fi

done_testing
