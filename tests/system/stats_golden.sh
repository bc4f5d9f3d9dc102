#!/bin/sh
# stats_golden.sh: golden-file cases of interloper report and plan, one
# folder per case under tests/golden/ (after jansson's test/suites):
#   cmd           the subcommand and its arguments, split on blanks
#   input.jsonl   the records (cmd names it)
#   expected      the exact standard output
#   expected.err  the exact standard error (when present)
#   status        the exit status (0 when absent)
# Every case compares its exit status and its standard output, so a case
# that stops producing the expected result fails.  After a deliberate
# change, IL_GOLDEN_UPDATE=1 rewrites the expected files from the current
# output: review the diff before committing.
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

for dir in "$TOP"/tests/golden/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	try "golden $name"
	if [ ! -x "$B/libexec/interloper-report" ] || [ ! -x "$B/libexec/interloper-plan" ]; then
		skip "the statistics programs are not built; run make"
		continue
	fi
	want=0
	[ -f "$dir/status" ] && want=$(cat "$dir/status")
	set -f
	# shellcheck disable=SC2046 # cmd is split on blanks on purpose
	(cd "$dir" && set -- $(cat cmd) && exec sh "$IL" "$@") >"$T/out" 2>"$T/err"
	got=$?
	set +f
	if [ "${IL_GOLDEN_UPDATE:-0}" = 1 ]; then
		cp "$T/out" "$dir/expected"
		if [ -s "$T/err" ]; then cp "$T/err" "$dir/expected.err"; else rm -f "$dir/expected.err"; fi
		if [ "$got" -ne 0 ]; then echo "$got" >"$dir/status"; else rm -f "$dir/status"; fi
		want=$got
	fi
	assert_eq "$got" "$want" "exit status"
	assert_eq "$(diff "$dir/expected" "$T/out")" "" "standard output against expected"
	if [ -f "$dir/expected.err" ]; then
		assert_eq "$(diff "$dir/expected.err" "$T/err")" "" "standard error against expected.err"
	fi
	if [ "$want" -ne 0 ]; then
		# An error is one line naming what was wrong, prefixed with the
		# command as the user typed it, and never followed by the usage.
		assert_match "$(tail -n 1 "$T/err")" '^interloper (report|plan): ' "error message"
		assert_eq "$(grep -c -v -E '^interloper (report|plan): warning: ' "$T/err")" 1 \
			"one error line besides warnings"
	fi
done
done_testing
