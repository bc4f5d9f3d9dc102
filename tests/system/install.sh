#!/bin/sh
# make install honours PREFIX and DESTDIR; the installed command works;
# make uninstall removes what install put there.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

try "make install PREFIX=... gives a working interloper"
make -s -C "$TOP" install PREFIX="$T/p" >/dev/null
assert_true "front command" [ -x "$T/p/bin/interloper" ]
assert_eq "$("$T/p/bin/interloper" --lib)" "$T/p/lib/interloper/libinterloper.so" "library path"
assert_true "events runs from the install" "$T/p/bin/interloper" events task-clock
assert_true "library man page" [ -f "$T/p/share/man/man7/libinterloper.7" ]
rm -f "$T/r.jsonl"
INTERLOPER_OUTPUT="$T/r.jsonl" LD_PRELOAD="$("$T/p/bin/interloper" --lib)" /bin/true
assert_eq "$(nrec "$T/r.jsonl")" 1 "the installed library measures"

try "a plain make uninstall removes what the last install put there, directories too"
make -s -C "$TOP" uninstall >/dev/null
assert_true "nothing left, not even the directories it made" [ ! -e "$T/p" ]

try "make uninstall PREFIX=... removes the install at that prefix"
make -s -C "$TOP" install PREFIX="$T/q" >/dev/null
mkdir -p "$T/q/share/man/man1/keep" # not the install's: stays
make -s -C "$TOP" uninstall PREFIX="$T/q" >/dev/null
assert_eq "$(find "$T/q" -type f | wc -l | tr -d ' ')" 0 "files left"
assert_true "a directory the install did not make stays" [ -d "$T/q/share/man/man1/keep" ]
assert_true "the directories it made are gone" [ ! -e "$T/q/libexec" ]

try "make uninstall where nothing is installed: one line, status non-zero"
out=$(make -s -C "$TOP" uninstall PREFIX="$T/none" 2>&1)
assert_ne "$?" 0 "status"
assert_match "$out" "^interloper install: .*/installed: no such receipt" "message"

try "DESTDIR stages an install without touching PREFIX; its receipt names the installed paths"
make -s -C "$TOP" install PREFIX=/usr/local DESTDIR="$T/stage" >/dev/null
assert_true "staged library" [ -f "$T/stage/usr/local/lib/interloper/libinterloper.so" ]
assert_eq "$(sed -n 's/^IL_INSTALLED_LIBEXEC=//p' "$T/stage/usr/local/bin/interloper")" /usr/local/libexec/interloper "paths point at PREFIX"
receipt=$T/stage/usr/local/libexec/interloper/installed
assert_eq "$(grep -c "$T" "$receipt")" 0 "no staging path in the receipt"
assert_true "the receipt lists the front command where it will be" grep -qx 'file /usr/local/bin/interloper' "$receipt"
assert_true "and itself" grep -qx 'file /usr/local/libexec/interloper/installed' "$receipt"
assert_true "and the completion" grep -qx 'file /usr/local/share/bash-completion/completions/interloper' "$receipt"
assert_eq "$(sed -n 's/^dir //p' "$receipt" | tr '\n' ' ')" "/usr/local/lib/interloper /usr/local/libexec/interloper " \
	"of the directories it made, only interloper's own"
make -s -C "$TOP" uninstall PREFIX=/usr/local DESTDIR="$T/stage" >/dev/null
assert_eq "$(find "$T/stage" -type f | wc -l | tr -d ' ')" 0 "uninstall with the same DESTDIR: files left"

done_testing
