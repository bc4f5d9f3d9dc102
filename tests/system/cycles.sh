#!/bin/sh
# No file-level cycles: among the objects of every folder (and across
# folders), no file uses a file that uses it back (scripts/cycles.sh, from
# nm).  Issue 15, section 2.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1

try "the check finds a planted cycle, and passes once it is broken"
if ! command -v nm >/dev/null || ! command -v tsort >/dev/null; then
	skip "nm or tsort is not installed (make deps installs binutils; tsort is coreutils')"
else
	printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >a.c
	printf 'int a(int);\nint b(int x) { return x ? a(x - 1) : 1; }\n' >b.c
	printf 'int a(int);\nint c(int x) { return a(x); }\n' >c.c
	cc -c a.c b.c c.c
	out=$(sh "$TOP/scripts/cycles.sh" a.o b.o c.o)
	assert_eq "$?" 1 "status with a cycle"
	assert_match "$(printf '%s\n' "$out" | tr '\n' ' ')" "^cycle: +(a\.o +b\.o|b\.o +a\.o) $" "the loop named"
	out=$(sh "$TOP/scripts/cycles.sh" a.o c.o)
	assert_eq "$?:$out" "0:" "a use one way only"
	out=$(sh "$TOP/scripts/cycles.sh" -x a.o,b.o a.o b.o c.o)
	assert_eq "$?:$out" "0:" "the cycle excepted"
fi

try "no file of common/, interposer/, tools/ or stats/ is in a cycle"
if ! command -v nm >/dev/null || ! command -v tsort >/dev/null; then
	skip "nm or tsort is not installed"
else
	set -- "$B"/common/*.o "$B"/interposer/*.o "$B"/tools/*.o "$B"/stats/*.o
	assert_true "the objects are built" [ -f "$1" ]
	assert_true "all of them" [ "$#" -gt 50 ]
	out=$(sh "$TOP/scripts/cycles.sh" "$@")
	assert_eq "$?" 0 "status"
	assert_eq "$out" "" "cycles"
fi

done_testing
