#!/bin/sh
# The version a record carries is the file VERSION's: every object that
# embeds it is rebuilt when VERSION changes (issue 17: `echo 9.9.9 >
# VERSION; make` rebuilt nothing, and new records still said 0.2.0).
# Built in a copy of the tree, so that the real VERSION is never touched.
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

S="$T/src"
mkdir -p "$S"
(cd "$TOP" && tar --exclude=./build --exclude=./.git --exclude=./bench/out --exclude=./demo/out \
	-cf - .) | (cd "$S" && tar -xf -)
# the objects that embed the version: those whose source includes il_version.h
EMB=$(cd "$S" && grep -l '#include "il_version.h"' ./*/*.c | sed 's|^\./\(.*\)\.c$|build/\1.o|')
OBJS="build/libinterloper.so $EMB"

record_version() { # the version of the record /bin/true writes under the copy's library
	rm -f "$T/rec.jsonl"
	LD_PRELOAD="$S/build/libinterloper.so" INTERLOPER_OUTPUT="$T/rec.jsonl" \
		INTERLOPER_BACKEND=none /bin/true
	jget "$T/rec.jsonl" "r[0]['version']"
}

try "a record carries the version of the file VERSION"
# shellcheck disable=SC2086 # one target each
make -C "$S" -j2 $OBJS >"$T/make1.log" 2>&1
assert_eq "$?" 0 "first build ($(tail -n 3 "$T/make1.log"))"
assert_eq "$(record_version)" "$(cat "$S/VERSION")" "the record's version"

try "changing VERSION rebuilds every object that embeds it, and nothing is left stale"
echo 9.9.9 >"$S/VERSION"
# shellcheck disable=SC2086
make -C "$S" -j2 $OBJS >"$T/make2.log" 2>&1
assert_eq "$?" 0 "second build ($(tail -n 3 "$T/make2.log"))"
assert_eq "$(record_version)" "9.9.9" "the record's version after the change"
for o in $EMB; do
	assert_match "$(grep -c -- "-o $o\$" "$T/make2.log")" "^1$" "$o rebuilt"
done
# shellcheck disable=SC2086
assert_true "make then has nothing left to do" make --no-print-directory -C "$S" -q $OBJS
assert_eq "$(grep -c ' -c ' "$T/make2.log")" "$(echo "$EMB" | wc -l | tr -d ' ')" "only the objects that embed the version were compiled"
assert_true "they are at least the library's record writer and the sweep's metadata" \
	[ "$(echo "$EMB" | wc -l)" -ge 2 ]

done_testing
