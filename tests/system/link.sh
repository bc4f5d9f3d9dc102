#!/bin/sh
# Object lists ($OBJS and friends) are plain names, split on purpose.
# shellcheck disable=SC2086
# System tests of `interloper link` at object granularity: relink the
# 12-unit test program (tests/link) many ways and check what the link-order
# method of Mytkowicz et al. (ASPLOS'09, 4.1) needs: the same program, one
# distinct layout per order, reproducible from the seed.
# shellcheck source=/dev/null
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

# shellcheck source=/dev/null
. "$TOP/tests/link/testlib.sh"

try "the test program builds from 12 translation units"
if ! command -v cc >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
	skip "needs cc and make"
else
	mk all >"$T/build.log" 2>&1
	assert_eq "$?" 0 "make ($(tail -n 3 "$T/build.log"))"
	OBJS=$(mk print-objs)
	set -- $OBJS
	assert_eq "$#" 12 "translation units"
	"$O/ltp" >"$T/ref.txt"
	assert_eq "$?" 0 "reference run"
	assert_match "$(cat "$T/ref.txt")" '^ltp: n=2000' "reference output"
fi
[ -x "$O/ltp" ] || {
	done_testing
	exit 0
}

# The link command has arguments before, between and after the objects;
# they must all stay where they are.
link12() { # link12 DIR SEED [OPTIONS...]
	_d=$1 _s=$2
	shift 2
	(cd "$O" && il link -k 12 -s "$_s" -d "$_d" "$@" -- \
		cc -O2 -o ltp $OBJS -lm)
}

try "relinks 12 ways, one binary per order, ids of constant width"
link12 "$T/a" 42 >"$T/a.list" 2>"$T/a.err"
assert_eq "$?" 0 "interloper link ($(cat "$T/a.err"))"
assert_eq "$(lines "$T/a.list")" 12 "paths on stdout"
assert_eq "$(sed -n '1p;12p' "$T/a.list" | tr '\n' ' ')" "$T/a/ltp.00 $T/a/ltp.11 " "first and last path"
assert_eq "$(awk '{ print length($0) }' "$T/a.list" | sort -u | wc -l | tr -d ' ')" 1 "all paths have the same length"
n=0
while read -r b; do [ -x "$b" ] && n=$((n + 1)); done <"$T/a.list"
assert_eq "$n" 12 "executables"
assert_eq "$(find "$T/a" -name '.*' ! -path "$T/a" | wc -l | tr -d ' ')" 0 "no temporary files left"

try "every relinked binary prints exactly what the original prints"
same=0
while read -r b; do
	"$b" >"$T/o.txt" && cmp -s "$T/o.txt" "$T/ref.txt" && same=$((same + 1))
done <"$T/a.list"
assert_eq "$same" 12 "binaries with the reference output"

try "the manifest: original, alphabetical, then 10 distinct random orders"
M=$T/a/manifest.json
assert_eq "$(manifest "$M" 'm["schema"]')" "interloper-link/1" "schema"
assert_eq "$(manifest "$M" 'm["seed"]')" 42 "seed"
assert_eq "$(manifest "$M" '[b["kind"] for b in m["binaries"]].count("random")')" 10 "random orders"
assert_eq "$(manifest "$M" 'm["binaries"][0]["order"] == m["objects"] == "'"$OBJS"'".split()')" true "binary 00 has the original order"
assert_eq "$(manifest "$M" 'm["binaries"][1]["order"] == sorted(m["objects"])')" true "binary 01 has the alphabetical order"
assert_eq "$(manifest "$M" 'len({tuple(b["order"]) for b in m["binaries"]})')" 12 "distinct orders"
assert_eq "$(manifest "$M" 'all(sorted(b["order"]) == sorted(m["objects"]) for b in m["binaries"])')" true "every order is a permutation of the objects"
assert_eq "$(manifest "$M" 'm["reproducible"]')" true "the link is reproducible"
assert_eq "$(manifest "$M" 'm["command"][-1]')" "-lm" "the command is recorded"

try "all fingerprints are distinct"
assert_eq "$(manifest "$M" 'len({b["fingerprint"] for b in m["binaries"]})')" 12 "layout fingerprints"
assert_eq "$(manifest "$M" 'len({b["text_fingerprint"] for b in m["binaries"]})')" 12 "text fingerprints"
assert_eq "$(manifest "$M" 'len({b["sha256"] for b in m["binaries"]})')" 12 "file hashes"
# The fingerprint is what it says: the text symbols' addresses from nm.
if command -v nm >/dev/null 2>&1 && command -v sha256sum >/dev/null 2>&1; then
	fp=$(nm -P --defined-only "$T/a/ltp.05" | awk '$2 ~ /^[TtWw]$/ { print $1, $2, $3 }' |
		LC_ALL=C sort | sha256sum | cut -c1-16)
	assert_eq "$(manifest "$M" 'm["binaries"][5]["text_fingerprint"]')" "$fp" "text fingerprint recomputed"
fi

try "only the .o arguments move; every other argument keeps its place"
cat >"$T/logcc" <<EOF
#!/bin/sh
printf '%s ' "\$@" >>"$T/argv.log"
echo >>"$T/argv.log"
exec cc "\$@"
EOF
chmod +x "$T/logcc"
(cd "$O" && il link -q -k 4 -s 1 -d "$T/p" -- "$T/logcc" -O2 -L. main.o -o ltp vec.o util.o \
	-Wl,--as-needed rng.o sortx.o hash.o strx.o matrix.o tree.o queue.o stats.o life.o -lm) >/dev/null 2>&1
assert_eq "$?" 0 "link through a logging compiler"
# Replace each object by "O": every line must then read the same.
pattern=$(sed 's/[a-z]*\.o /O /g; s/-o [^ ]* /-o OUT /' "$T/argv.log" | sort -u)
assert_eq "$pattern" "-O2 -L. O -o OUT O O -Wl,--as-needed O O O O O O O O O -lm " "argument skeleton of every link"
assert_eq "$(lines "$T/argv.log")" 5 "links run (4 orders and the reproducibility check)"

try "the same seed gives the same orders and byte-identical binaries, with -j 3 too"
link12 "$T/b" 42 -j 3 >/dev/null 2>&1
assert_eq "$?" 0 "second run"
assert_eq "$(manifest "$T/b/manifest.json" '[b["order"] for b in m["binaries"]]')" \
	"$(manifest "$M" '[b["order"] for b in m["binaries"]]')" "orders"
ident=0
for i in 00 01 02 03 04 05 06 07 08 09 10 11; do
	cmp -s "$T/a/ltp.$i" "$T/b/ltp.$i" && ident=$((ident + 1))
done
assert_eq "$ident" 12 "byte-identical binaries"

try "a different seed gives different random orders"
link12 "$T/c" 43 >/dev/null 2>&1
assert_eq "$?" 0 "run with seed 43"
assert_eq "$(manifest "$T/c/manifest.json" '[b["order"] for b in m["binaries"]][:2]')" \
	"$(manifest "$M" '[b["order"] for b in m["binaries"]][:2]')" "original and alphabetical do not depend on the seed"
assert_eq "$(manifest "$T/c/manifest.json" 'sum(a["order"] == b["order"] for a, b in zip(m["binaries"][2:], '"$(manifest "$M" 'm["binaries"][2:]')"'))')" \
	0 "random orders shared with seed 42"

try "the orders are the documented ones: an independent reference agrees"
vec=$(python3 "$SRC/prng_ref.py" --vector)
assert_eq "$vec" "11520 0 5927040 70819200 2031721883 1637235492" "reference xoshiro128** from state (1,2,3,4)"
names="z9.o b.o dir/a.o c.o b.o x.o m.o k.o q.o e.o f.o g.o"
for s in 0 7 123456789 4294967295; do
	python3 "$SRC/prng_ref.py" "$s" 40 $names >"$T/ref.$s"
	il link -n -k 40 -s "$s" -- cc -o p $names >"$T/got.$s" 2>/dev/null
	assert_true "seed $s matches the reference" cmp -s "$T/got.$s" "$T/ref.$s"
done
# Many orders of many objects: every redraw of a repeated order agrees too.
many=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "u%d.o ", (i * 7919) % 1000 }')
python3 "$SRC/prng_ref.py" 9 2000 $many >"$T/ref.many"
il link -n -k 2000 -s 9 -- cc -o p $many >"$T/got.many" 2>/dev/null
assert_true "2000 orders of 300 objects match the reference" cmp -s "$T/got.many" "$T/ref.many"
# Few objects: random orders are drawn without repeats until none is left.
python3 "$SRC/prng_ref.py" 5 6 b.o a.o c.o >"$T/ref.small"
il link -n -k 6 -s 5 -- cc -o p b.o a.o c.o >"$T/got.small" 2>/dev/null
assert_true "all 6 orders of 3 objects" cmp -s "$T/got.small" "$T/ref.small"
assert_eq "$(cut -f3 "$T/got.small" | sort -u | wc -l | tr -d ' ')" 6 "distinct"

try "ids keep one width however many orders"
il link -n -k 101 -s 1 -- cc -o p a.o b.o c.o d.o e.o f.o >"$T/ids" 2>/dev/null
assert_eq "$(sed -n '1p;101p' "$T/ids" | cut -f1 | tr '\n' ' ')" "000 100 " "first and last id"
assert_eq "$(cut -f1 "$T/ids" | awk '{ print length($0) }' | sort -u)" 3 "width"

try "bad options: one clear line, exit 1, nothing written"
fails "unknown option" "unknown option --bogus; see interloper link --help" il link --bogus -- cc -o p a.o
fails "orders 0" "--orders must be at least 1" il link -k 0 -- cc -o p a.o
fails "orders not a number" "--orders must be a decimal integer, not 'ten'" il link --orders ten -- cc -o p a.o
fails "orders too large" "--orders must be at most 10000" il link --orders=10001 -- cc -o p a.o
fails "negative seed" "--seed must be a decimal integer, not '-1'" il link -s -1 -- cc -o p a.o
fails "seed too large" "--seed must be at most 4294967295" il link -s 4294967296 -- cc -o p a.o
fails "jobs 0" "--jobs must be at least 1" il link -j 0 -- cc -o p a.o
fails "jobs too many" "--jobs must be at most 256, not '257'" il link --jobs=257 -- cc -o p a.o
fails "granularity" "--granularity must be 'object' or 'function', not 'bytes'" il link -g bytes -- cc -o p a.o
fails "option without value" "--out: expected a value, DIR" il link --out
fails "no command" "no link command" il link -k 3
fails "no objects" "no .o arguments" il link -- cc -o p main.c
fails "too many orders" "only 6 distinct orders of 3 objects exist; ask for --orders 6 or fewer" \
	il link -n -k 7 -- cc -o p b.o a.o c.o
fails "missing object" "object 'nosuch.o' not found" sh -c "cd '$O' && sh '$IL' link -d '$T/x' -- cc -o ltp nosuch.o main.o"
fails "program option without replay" "--program .* needs --replay" il link --program ltp -- cc -o p a.o
assert_true "no output directory created" test ! -e "$T/x"
mkdir "$T/full" && : >"$T/full/keep"
fails "output directory not empty" "is not empty" sh -c "cd '$O' && sh '$IL' link -d '$T/full' -- cc -o ltp $OBJS"
assert_eq "$(ls -A "$T/full")" "keep" "the non-empty directory is untouched"
help=$(il link --help)
assert_eq "$?" 0 "--help exits 0"
assert_match "$help" '^usage: interloper link' "--help prints the usage"

try "a failing link names the order, quotes the linker, leaves nothing"
objs_nostats=$(echo "$OBJS" | sed 's/ stats\.o//')
fails "undefined symbol" "relinking order 00 \\(original: main\\.o .*\\) failed with status 1: .*undefined reference to .ltp_stats_of" \
	sh -c "cd '$O' && sh '$IL' link -k 5 -s 1 -d '$T/f1' -- cc -o ltp $objs_nostats"
assert_true "no output directory left" test ! -e "$T/f1"
# A compiler that refuses one order: the alphabetical one (hash.o first).
# Binary 00 is already linked when 01 fails; none may be left behind.
cat >"$T/pickycc" <<'EOF'
#!/bin/sh
for a; do
	case $a in
	*.o) [ "$a" != hash.o ] || { echo "pickycc: hash.o may not come first" >&2; exit 3; }; break ;;
	esac
done
exec cc "$@"
EOF
chmod +x "$T/pickycc"
mkdir "$T/f2"
fails "second order fails" "relinking order 01 \\(alphabetical: hash\\.o life\\.o .*\\) failed with status 3: pickycc: hash\\.o may not come first" \
	sh -c "cd '$O' && sh '$IL' link -k 5 -s 1 -d '$T/f2' -- '$T/pickycc' -o ltp $OBJS"
assert_eq "$(ls -A "$T/f2")" "" "the given directory is left empty"

try "interrupted (SIGTERM): exit 143, nothing left behind"
(cd "$O" && exec sh "$IL" link -q -k 1000 -s 1 -d "$T/sig" -- cc -O2 -o ltp $OBJS) >/dev/null 2>&1 &
pid=$!
i=0
while [ "$i" -lt 120 ] && ! ls "$T/sig"/.interloper-link.*/ltp.001 >/dev/null 2>&1; do
	sleep 1
	i=$((i + 1))
done
begun=no
! ls "$T/sig"/.interloper-link.*/ltp.001 >/dev/null 2>&1 || begun=yes
assert_eq "$begun" yes "linking had begun"
kill -TERM "$pid"
wait "$pid"
assert_eq "$?" 143 "exit status"
assert_true "no output directory left" test ! -e "$T/sig"

try "a relink that is not reproducible is reported"
cat >"$T/stampcc" <<'EOF'
#!/bin/sh
# Links in a build-id that changes on every link, as --build-id=uuid does.
exec cc -Wl,--build-id=uuid "$@"
EOF
chmod +x "$T/stampcc"
(cd "$O" && il link -k 3 -s 1 -d "$T/u" -- "$T/stampcc" -o ltp $OBJS) >/dev/null 2>"$T/u.err"
assert_eq "$?" 0 "the link itself succeeds"
assert_match "$(cat "$T/u.err")" "not reproducible" "warning"
assert_eq "$(manifest "$T/u/manifest.json" 'm["reproducible"]')" false "manifest says so"

try "object names are JSON-escaped in the manifest"
mkdir -p "$O/we\"ird"
cp "$O/main.o" "$O/we\"ird/ma\\in	x.o"
objs_weird=$(echo "$OBJS" | sed 's/main\.o //')
(cd "$O" && il link -q -k 3 -s 1 -d "$T/w" -- cc -o ltp "we\"ird/ma\\in	x.o" $objs_weird) >/dev/null 2>&1
assert_eq "$?" 0 "link"
assert_eq "$(manifest "$T/w/manifest.json" 'm["objects"][0] == "we\"ird/ma\\in\tx.o"')" true "name round-trips"

try "a command that runs the linker itself: start files keep their places"
crt1=$(cc -print-file-name=crt1.o) crti=$(cc -print-file-name=crti.o)
crtn=$(cc -print-file-name=crtn.o) libc=$(cc -print-file-name=libc.so)
interp=$(readelf -l "$O/ltp" 2>/dev/null | sed -n 's/.*interpreter: \(.*\)\]$/\1/p')
if ! command -v ld.lld >/dev/null 2>&1; then
	skip "needs ld.lld"
elif [ ! -f "$crt1" ] || [ ! -f "$crti" ] || [ -z "$interp" ]; then
	skip "cannot find the C runtime start files through cc -print-file-name"
else
	: >"$T/argv.log"
	cat >"$T/logld" <<EOF
#!/bin/sh
printf '%s ' "\$@" >>"$T/argv.log"
echo >>"$T/argv.log"
exec ld.lld "\$@"
EOF
	chmod +x "$T/logld"
	(cd "$O" && il link -q -k 6 -s 3 -d "$T/ld" -- "$T/logld" -o ltp -dynamic-linker "$interp" \
		-pie "$(cc -print-file-name=Scrt1.o)" "$crti" $OBJS -L"$(dirname "$libc")" -lc "$crtn") \
		>"$T/ld.list" 2>"$T/ld.err"
	assert_eq "$?" 0 "link with ld.lld ($(cat "$T/ld.err"))"
	assert_eq "$(manifest "$T/ld/manifest.json" 'm["objects"] == "'"$OBJS"'".split()')" true \
		"only the program's objects move"
	assert_eq "$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /crt[1in]\.o$/) printf "%s ", i; print "" }' \
		"$T/argv.log" | sort -u | wc -l | tr -d ' ')" 1 "start files at the same positions in every link"
	same=0
	while read -r b; do
		"$b" >"$T/o.txt" && cmp -s "$T/o.txt" "$T/ref.txt" && same=$((same + 1))
	done <"$T/ld.list"
	assert_eq "$same" 6 "binaries with the reference output"
fi

done_testing
