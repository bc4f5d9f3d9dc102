#!/bin/sh
# The finish path is async-signal-safe by construction: the objects that
# may run in a signal handler or _exit (IL_SAFE in interposer/interposer.mk)
# call nothing outside themselves but what interposer/safe.allow lists,
# each with the reason it is safe there.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
ALLOW="$TOP/interposer/safe.allow"

# unsafe OBJECTS...: the undefined symbols no object of the set defines
# and the allowlist does not name, one a line
unsafe() {
	nm --defined-only "$@" | awk 'NF == 3 { print $3 }' | sort -u >"$T/defined"
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$ALLOW" | awk '{ print $1 }' | sort -u >"$T/allowed"
	nm -u "$@" | awk 'NF == 2 { print $2 }' | sort -u | comm -23 - "$T/defined" | comm -23 - "$T/allowed"
}

try "the finish path calls only itself and the allowlist"
if ! command -v nm >/dev/null; then
	skip "nm (binutils) is not installed; make deps installs it"
else
	# shellcheck disable=SC2046 # one argument per object
	set -- $(cat "$B/interposer/safe.list")
	assert_true "the set is known ($B/interposer/safe.list)" [ "$#" -gt 5 ]
	for o in "$@"; do
		assert_true "$o is built" [ -f "$o" ]
	done
	assert_eq "$(unsafe "$@" | tr '\n' ' ')" "" "symbols outside the set and the allowlist"
fi

try "the check catches a call to malloc or printf on the finish path"
if ! command -v nm >/dev/null || ! command -v cc >/dev/null; then
	skip "nm or cc is missing"
else
	printf '#include <stdio.h>\n#include <stdlib.h>\nvoid f(void) { printf("%%p", malloc(1)); }\n' >"$T/bad.c"
	cc -c -o "$T/bad.o" "$T/bad.c"
	# shellcheck disable=SC2046
	assert_eq "$(unsafe $(cat "$B/interposer/safe.list") "$T/bad.o" | tr '\n' ' ')" "malloc printf " \
		"what the check reports"
fi

# Each import costs every measured process a lookup at load (bench/overhead.sh):
# the library finds what it calls itself, before main (interposer/bind.c).
try "the library imports one symbol, dl_iterate_phdr (weak), needs no library, has no thread-local storage, loads as two segments"
if ! command -v nm >/dev/null || ! command -v readelf >/dev/null; then
	skip "nm or readelf (binutils) is not installed; make deps installs it"
else
	assert_eq "$(nm -D --undefined-only "$LIB" | awk '{ sub(/@.*/, "", $NF); print $NF }' | tr '\n' ' ')" \
		"dl_iterate_phdr " "undefined dynamic symbols"
	assert_eq "$(readelf -lW "$LIB" | grep -c ' TLS ')" 0 "TLS segments"
	assert_eq "$(nm -D --undefined-only "$LIB" | awk '{ print $1 }' | tr '\n' ' ')" "w " \
		"the import is weak (null in a program without libc)"
	# no DT_NEEDED libc, no version requirement: the loader's lookup of
	# libc by name and its version check cost every process ~1,500
	# instructions (interposer/interposer.mk)
	assert_eq "$(readelf -dW "$LIB" | grep -c -e NEEDED -e VERNEED)" 0 "libraries and versions needed"
	# two loaded segments, not four: the loader maps each with an mmap of
	# its own, in every process (interposer/interposer.mk, -z noseparate-code)
	assert_eq "$(readelf -lW "$LIB" | grep -c '^ *LOAD ')" 2 "loaded segments"
fi

# The library needs no libc of its own (its one import is weak): in a
# program without libc it binds nothing and stays silent.
try "a program without libc: its status, no output from the library"
if ! command -v cc >/dev/null || [ "$(uname -m)" != x86_64 ]; then
	skip "cc is missing or this is not x86_64 (the program is a system call in asm)"
else
	cat >"$T/nolibc.c" <<'EOF'
void _start(void) { __asm__ volatile("mov $60, %eax\n\tmov $7, %edi\n\tsyscall"); }
EOF
	cc -nostdlib -fPIE -pie -o "$T/nolibc" "$T/nolibc.c"
	st=0
	(cd "$T" && LD_PRELOAD="$LIB" ./nolibc >"$T/nolibc.out" 2>"$T/nolibc.err") || st=$?
	assert_eq "$st" 7 "exit status"
	assert_eq "$(cat "$T/nolibc.out" "$T/nolibc.err")" "" "output"
fi

try "every allowlist entry says why"
assert_eq "$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$ALLOW" | awk 'NF < 3' | tr '\n' ' ')" "" \
	"entries without a reason"

try "a backend outside the set says that its stop is not async-signal-safe"
for f in "$TOP"/interposer/backend_*.c; do
	if grep -q "/$(basename "$f" .c)\.o\$" "$B/interposer/safe.list"; then
		assert_eq "$(grep -c IL_CAP_UNSAFE_STOP "$f")" 0 "$(basename "$f") is in the set, and claims no exception"
	else
		assert_ne "$(grep -c IL_CAP_UNSAFE_STOP "$f")" 0 "$(basename "$f") is outside the set: IL_CAP_UNSAFE_STOP"
	fi
done

done_testing
