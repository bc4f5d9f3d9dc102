#!/bin/sh
# Object lists ($OBJS) are plain names, split on purpose.
# shellcheck disable=SC2086
# What `interloper link` needs in PATH: the link command's own programs
# and nm, nothing else (it hashes the binaries itself, common/sha256.c),
# and its hashes are what sha256sum(1) and nm(1) say.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

# shellcheck source=/dev/null
. "$TOP/tests/link/testlib.sh"

try "links with only cc, ld and nm in PATH; the hashes are sha256sum's"
need=""
for p in cc ld nm make sha256sum; do
	command -v "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -n "$need" ]; then
	skip "needs$need"
else
	mk objs >"$T/build.log" 2>&1
	assert_eq "$?" 0 "make ($(tail -n 3 "$T/build.log"))"
	OBJS=$(mk print-objs)
	mkdir "$T/bin"
	for p in cc ld nm; do
		ln -s "$(command -v "$p")" "$T/bin/$p"
	done
	(cd "$O" && PATH=$T/bin "$B/libexec/interloper-link" -q -k 3 -s 7 -d "$T/l" -- cc -o ltp $OBJS) \
		>"$T/out" 2>"$T/err"
	assert_eq "$?" 0 "interloper link with PATH=$T/bin ($(cat "$T/err"))"
	assert_eq "$(lines "$T/out")" 3 "binaries"
	M=$T/l/manifest.json
	for j in 0 1 2; do
		b=$T/l/ltp.0$j
		assert_eq "$(manifest "$M" "m['binaries'][$j]['sha256']")" \
			"$(sha256sum <"$b" | cut -c1-64)" "binary $j: sha256"
		fp=$(nm -P --defined-only "$b" | awk '{ print $1, $2, $3 }' | LC_ALL=C sort |
			sha256sum | cut -c1-16)
		assert_eq "$(manifest "$M" "m['binaries'][$j]['fingerprint']")" "$fp" \
			"binary $j: fingerprint"
	done
fi

done_testing
