#!/bin/sh
# Shell scripts are clean under shellcheck -s sh; man pages under
# mandoc -Tlint.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$TOP" || exit 1

try "shellcheck -s sh on every shell script"
if ! command -v shellcheck >/dev/null; then
	skip "shellcheck is not installed (make deps installs it)"
else
	files=$(grep -l -e '^#!/bin/sh' -e '^# shellcheck shell=sh' scripts/* tests/run tests/system/*.sh \
		tests/link/*.sh bench/* demo/*.sh .ci/run 2>/dev/null)
	# shellcheck disable=SC2086 # one argument per file
	out=$(shellcheck -s sh -x $files 2>&1)
	assert_eq "$out" "" "shellcheck output"
fi

try "mandoc -Tlint on every man page"
if ! command -v mandoc >/dev/null; then
	skip "mandoc is not installed (make deps installs it)"
else
	out=$(mandoc -Tlint -W warning man/*.[1-9] 2>&1)
	assert_eq "$out" "" "mandoc output"
	set -- man/*.[1-9]
	assert_true "man pages exist" [ -f "$1" ]
fi

done_testing
