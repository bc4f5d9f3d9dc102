#!/bin/sh
# Object lists are plain names, split on purpose.
# shellcheck disable=SC2086
# System tests of `interloper link --granularity function`: objects built
# with -ffunction-sections, functions shuffled inside each object through a
# symbol-ordering file given to lld.
# shellcheck source=/dev/null
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=/dev/null
. "$TOP/tests/link/testlib.sh"

try "the test program builds with -ffunction-sections"
if ! command -v cc >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
	skip "needs cc and make"
elif ! command -v ld.lld >/dev/null 2>&1; then
	skip "needs lld (ld.lld); install the lld package"
else
	mk all CFLAGS='-O2 -ffunction-sections' >"$T/build.log" 2>&1
	assert_eq "$?" 0 "make ($(tail -n 3 "$T/build.log"))"
	OBJS=$(mk print-objs)
	"$O/ltp" >"$T/ref.txt"
	assert_eq "$?" 0 "reference run"
fi
if [ ! -x "$O/ltp" ] || ! command -v ld.lld >/dev/null 2>&1; then
	done_testing
	exit 0
fi

flink() { # flink DIR SEED
	(cd "$O" && il link -q -g function -k 10 -s "$2" -d "$1" -- cc -O2 -o ltp $OBJS)
}

try "relinks 10 ways with functions shuffled; every binary prints the same"
flink "$T/a" 7 >"$T/a.list" 2>"$T/a.err"
assert_eq "$?" 0 "interloper link ($(cat "$T/a.err"))"
assert_eq "$(lines "$T/a.list")" 10 "binaries"
same=0
while read -r b; do
	"$b" >"$T/o.txt" && cmp -s "$T/o.txt" "$T/ref.txt" && same=$((same + 1))
done <"$T/a.list"
assert_eq "$same" 10 "binaries with the reference output"
M=$T/a/manifest.json
assert_eq "$(manifest "$M" 'm["granularity"]')" function "granularity in the manifest"
assert_eq "$(manifest "$M" 'len({b["fingerprint"] for b in m["binaries"]})')" 10 "distinct layout fingerprints"
assert_eq "$(manifest "$M" 'len({b["text_fingerprint"] for b in m["binaries"]})')" 10 "distinct text fingerprints"
assert_eq "$(manifest "$M" '[b.get("symbol_order") for b in m["binaries"]][:3]')" '[null, null, "symorder/02"]' \
	"ordering files for the random orders only"
assert_eq "$(readelf -p .comment "$T/a/ltp.00" 2>/dev/null | grep -c 'Linker: .*LLD')" 1 "linked by lld, the original order too"

try "lld follows the ordering file: functions move inside their object"
# Addresses of the listed functions, in the file's order, must increase.
nm -P --defined-only "$T/a/ltp.04" | awk '{ print $1, $3 }' >"$T/addr"
inc=$(python3 - "$T/addr" "$T/a/symorder/04" <<'PY'
import sys
a = dict(l.split() for l in open(sys.argv[1]))
v = [int(a[n], 16) for n in open(sys.argv[2]).read().split() if n in a]
print("increasing" if len(v) > 20 and all(x < y for x, y in zip(v, v[1:])) else "not increasing")
PY
)
assert_eq "$inc" increasing "function addresses follow the ordering file"
# Within tree.o, the five functions come in a different order in at least
# one random binary than in the original one.
tree_order() {
	nm -n "$1" | awk '$3 ~ /^(ltp_tree_insert|ltp_tree_height|ltp_tree_sum|ltp_tree_count|node_new|height|sum)$/ { printf "%s ", $3 }'
}
orig=$(tree_order "$T/a/ltp.00")
moved=0
for i in 02 03 04 05 06 07 08 09; do
	[ "$(tree_order "$T/a/ltp.$i")" = "$orig" ] || moved=$((moved + 1))
done
assert_ne "$moved" 0 "binaries where tree.o's functions changed order"
# And each object's functions stay together, in the object order.
assert_eq "$(python3 - "$M" "$T/a/symorder/03" "$O" <<'PY'
import json, subprocess, sys
m = json.load(open(sys.argv[1]))
order = m["binaries"][3]["order"]
names = open(sys.argv[2]).read().split()
owner = {}
for o in order:
    out = subprocess.run(["nm", "-P", "--defined-only", sys.argv[3] + "/" + o],
                         capture_output=True, text=True).stdout
    for l in out.splitlines():
        f = l.split()
        if f[1] in "TtW":
            owner.setdefault(f[0], o)
seq = [owner[n] for n in names]
runs = [o for i, o in enumerate(seq) if i == 0 or seq[i - 1] != o]
print(runs == [o for o in order if o in set(seq)])
PY
)" True "functions grouped by object, objects in the binary's order"

try "the same seed gives byte-identical binaries; another seed differs"
flink "$T/b" 7 >/dev/null 2>&1
assert_eq "$?" 0 "second run"
ident=0
for i in 00 01 02 03 04 05 06 07 08 09; do
	cmp -s "$T/a/ltp.$i" "$T/b/ltp.$i" && ident=$((ident + 1))
done
assert_eq "$ident" 10 "byte-identical binaries"
assert_true "identical ordering files" cmp -s "$T/a/symorder/05" "$T/b/symorder/05"
flink "$T/c" 8 >/dev/null 2>&1
assert_eq "$?" 0 "run with seed 8"
assert_true "different ordering files" sh -c "! cmp -s '$T/a/symorder/05' '$T/c/symorder/05'"

try "the function orders are the documented ones: an independent reference agrees"
i=0
for o in $OBJS; do
	nm -P --defined-only "$O/$o" | awk -v i="$i" '$2 ~ /^[TtW]$/ { print i, $1 }'
	i=$((i + 1))
done >"$T/funcs"
python3 "$SRC/prng_ref.py" --symorder 7 10 "$T/funcs" $OBJS >"$T/ref.symorder"
for i in 02 03 04 05 06 07 08 09; do
	echo "== $i"
	cat "$T/a/symorder/$i"
done >"$T/got.symorder"
assert_true "ordering files of binaries 02 to 09" cmp -s "$T/got.symorder" "$T/ref.symorder"
assert_eq "$(wc -l <"$T/funcs" | tr -d ' ')" "$(($(wc -l <"$T/a/symorder/02")))" "every function listed"

try "objects without -ffunction-sections are refused, clearly"
mkdir -p "$T/plain"
cp "$O"/*.o "$T/plain/"
cc -O2 -c "$SRC/util.c" -o "$T/plain/util.o"
fails "plain .text" "needs objects compiled with -ffunction-sections; 'util.o' has its code in one .text section" \
	sh -c "cd '$T/plain' && sh '$IL' link -g function -d '$T/pf' -- cc -o ltp $OBJS"
assert_true "no output directory" test ! -e "$T/pf"

done_testing
