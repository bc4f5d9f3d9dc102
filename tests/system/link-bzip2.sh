#!/bin/sh
# bzip2 1.0.8 (demo/bzip2), a program no one here wrote, relinked as the
# seed paper relinks a benchmark: built by its own Makefile through
# interloper cc, then relinked from all eight objects (bzip2.o and the
# seven members of libbz2.a) in 16 orders with one seed.  The oracle is
# upstream's: every binary must compress sample3.ref into exactly
# upstream's sample3.bz2 and decompress it back.
# shellcheck source=/dev/null
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=/dev/null
. "$TOP/tests/link/testlib.sh"

BZ=$T/bzip2-1.0.8
L=$T/links

try "bzip2 builds with its own Makefile through interloper cc, and passes its own test"
if ! command -v cc >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1 || ! command -v ar >/dev/null 2>&1; then
	skip "needs cc, make and ar"
else
	cp -R "$TOP/demo/bzip2/bzip2-1.0.8" "$T/"
	MAKEFLAGS='' MFLAGS='' MAKELEVEL='' make -C "$BZ" CC="sh $IL cc --cc cc --links $L --" >"$T/build.log" 2>&1
	assert_eq "$?" 0 "make, upstream's test included ($(tail -n 3 "$T/build.log"))"
	assert_match "$(cat "$T/build.log")" "cmp sample3.tst sample3.ref" "upstream's test ran"
	assert_eq "$(lines "$L")" 2 "records: the links of bzip2 and bzip2recover"
	assert_match "$(grep "'bzip2'" "$L")" "'-o' 'bzip2' 'bzip2\\.o' '-L\\.' '-lbz2'\$" "bzip2's link: one object and the archive"
fi
if [ ! -x "$BZ/bzip2" ]; then
	done_testing
	exit 0
fi

try "--archives used relinks all 8 objects in 16 orders with one seed"
il link --replay "$L" --program bzip2 --archives used -k 16 -s 1 -d "$T/o" >"$T/o.list" 2>"$T/o.err"
assert_eq "$?" 0 "interloper link ($(cat "$T/o.err"))"
assert_eq "$(lines "$T/o.list")" 16 "binaries"
M=$T/o/manifest.json
assert_eq "$(manifest "$M" '" ".join(sorted(m["objects"]))')" \
	"blocksort.o bzip2.o bzlib.o compress.o crctable.o decompress.o huffman.o randtable.o" "the 8 objects"
assert_eq "$(manifest "$M" '[(a["argument"], len(a["members"]), a["left_out"]) for a in m["archives"]]')" \
	'[["-lbz2", 7, []]]' "libbz2.a's 7 members, none left out"
assert_eq "$(manifest "$M" 'len({tuple(b["order"]) for b in m["binaries"]})')" 16 "distinct orders"
assert_eq "$(manifest "$M" 'len({b["fingerprint"] for b in m["binaries"]})')" 16 "distinct layouts"
assert_eq "$(manifest "$M" 'len({b["text_fingerprint"] for b in m["binaries"]})')" 16 "distinct code layouts"
assert_eq "$(manifest "$M" 'm["reproducible"]')" true "reproducible"
# The layout differs for real: where BZ2_blockSort (blocksort.o) and
# BZ2_bzCompress (bzlib.o) land, read back with nm.
addrs=$(while read -r b; do nm "$b" | awk '$3 == "BZ2_blockSort" || $3 == "BZ2_bzCompress" { printf "%s ", $1 }'; echo; done <"$T/o.list" | sort -u | wc -l | tr -d ' ')
assert_eq "$addrs" 16 "distinct addresses of two functions from nm"

try "every relinked bzip2 compresses and decompresses to identical bytes"
good=0
while read -r b; do
	"$b" -3 <"$BZ/sample3.ref" >"$T/c" && cmp -s "$T/c" "$BZ/sample3.bz2" &&
		"$b" -d <"$T/c" >"$T/d" && cmp -s "$T/d" "$BZ/sample3.ref" &&
		"$b" -d <"$BZ/sample1.bz2" >"$T/d" && cmp -s "$T/d" "$BZ/sample1.ref" && good=$((good + 1))
done <"$T/o.list"
assert_eq "$good" 16 "binaries that reproduce upstream's samples"

try "the same seed gives the same 16 binaries"
il link -q --replay "$L" --program bzip2 --archives used -k 16 -s 1 -d "$T/p" >/dev/null 2>&1
assert_eq "$?" 0 "second relink"
assert_eq "$(manifest "$T/p/manifest.json" '[b["sha256"] for b in m["binaries"]]')" \
	"$(manifest "$M" '[b["sha256"] for b in m["binaries"]]')" "byte-identical binaries"

done_testing
