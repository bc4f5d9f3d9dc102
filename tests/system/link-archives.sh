#!/bin/sh
# Object lists ($LIBOBJS and friends) are plain names, split on purpose.
# shellcheck disable=SC2086
# System tests of `interloper link --archives`: a program linked against
# its own static library (main.o -L. -lltp) is relinked with the library's
# members on the link line, shuffled with main.o, as SPEC links all of a
# benchmark's objects.
# shellcheck source=/dev/null
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=/dev/null
. "$TOP/tests/link/testlib.sh"

try "the test program builds against its own static library"
if ! command -v cc >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1 || ! command -v ar >/dev/null 2>&1; then
	skip "needs cc, make and ar"
else
	mk objs >"$T/build.log" 2>&1
	assert_eq "$?" 0 "make ($(tail -n 3 "$T/build.log"))"
	LIBOBJS=$(mk print-objs | sed 's/main\.o //')
	# a member no one uses, which cannot link: it calls a function that
	# exists nowhere
	printf 'void il_nowhere(void);\nvoid il_unused(void) { il_nowhere(); }\n' >"$O/unused.c"
	(cd "$O" && cc -O2 -c unused.c && ar rc libltp.a $LIBOBJS unused.o && ranlib libltp.a &&
		cc -O2 -o ltp main.o -L. -lltp -lm)
	assert_eq "$?" 0 "archive and link"
	"$O/ltp" >"$T/ref.txt"
	assert_eq "$?" 0 "reference run"
fi
if [ ! -x "$O/ltp" ]; then
	done_testing
	exit 0
fi
link_ar() { # link_ar DIR MODE [OPTIONS...] [-- COMMAND...]
	_d=$1 _m=$2
	shift 2
	(cd "$O" && il link -q -k 12 -s 5 -d "$_d" --archives "$_m" "$@")
}

try "without --archives, the archive stays: one object, nothing to shuffle"
(cd "$O" && il link -n -k 2 -s 5 -- cc -O2 -o ltp main.o -L. -lltp -lm) >"$T/keep.out" 2>"$T/keep.err"
assert_eq "$?" 0 "dry run"
assert_eq "$(cut -f3 "$T/keep.out" | sort -u)" "main.o" "the only object"

try "--archives used: the members the link used join main.o, shuffled with it"
link_ar "$T/u" used -- cc -O2 -o ltp main.o -L. -lltp -lm >"$T/u.list" 2>"$T/u.err"
assert_eq "$?" 0 "interloper link ($(cat "$T/u.err"))"
M=$T/u/manifest.json
assert_eq "$(manifest "$M" '" ".join(m["objects"])')" "main.o $LIBOBJS" "objects: main.o, then the members in archive order"
assert_eq "$(manifest "$M" 'm["archive_mode"]')" used "archive_mode"
assert_eq "$(manifest "$M" '[(a["argument"], a["path"]) for a in m["archives"]]')" '[["-lltp", "./libltp.a"]]' "the archive found through -L"
assert_eq "$(manifest "$M" 'm["archives"][0]["left_out"]')" '["unused.o"]' "the member the link did not use is left out"
assert_eq "$(manifest "$M" 'len({b["fingerprint"] for b in m["binaries"]})')" 12 "distinct layouts"
assert_eq "$(manifest "$M" 'm["binaries"][1]["order"][:3]')" '["hash.o", "life.o", "main.o"]' "main.o sorts among the members"
assert_eq "$(manifest "$M" 'm["command"][-2:]')" '["-lltp", "-lm"]' "the command is recorded as given"
same=0
while read -r b; do
	"$b" >"$T/o.txt" && cmp -s "$T/o.txt" "$T/ref.txt" && same=$((same + 1))
done <"$T/u.list"
assert_eq "$same" 12 "binaries with the reference output"
# The extracted members are the archive's bytes (ar p is the oracle), and
# each binary links every one of them: their symbols are all there.
ok=0
for f in $(manifest "$M" '" ".join(m["archives"][0]["files"])'); do
	ar p "$O/libltp.a" "${f##*/}" | cmp -s - "$T/u/$f" && ok=$((ok + 1))
done
assert_eq "$ok" 11 "extracted members identical to ar p"
assert_eq "$(nm "$T/u/ltp.07" | grep -c ' T ltp_\(life_run\|sort\|q_push\|mat_fill\)$')" 4 "members' code in a random binary"
assert_eq "$(find "$T/u" -name '.*' | wc -l | tr -d ' ')" 0 "no temporary files left"

try "--archives all: every member, so the unused one that cannot link breaks the link"
fails "all members" "relinking order 00 \\(original: main\\.o vec\\.o .* unused\\.o\\) failed with status 1: .*undefined reference to .il_nowhere" \
	sh -c "cd '$O' && sh '$IL' link -k 3 -s 5 -d '$T/a' --archives all -- cc -O2 -o ltp main.o -L. -lltp -lm"
assert_true "nothing left behind" test ! -e "$T/a"
(cd "$O" && il link -n -k 3 -s 5 --archives all -- cc -o ltp main.o libltp.a) >"$T/all.out"
assert_eq "$(head -n 1 "$T/all.out" | cut -f3)" "main.o $LIBOBJS unused.o" "-n lists every member, of an archive given by path"

try "only static archives: a shared library found first stays, unless -static"
mkdir -p "$O/both"
cp "$O/libltp.a" "$O/both/"
: >"$O/both/libltp.so" # found first is all that matters; -n links nothing
(cd "$O" && il link -n -k 2 -s 5 --archives all -- cc -o ltp main.o -Lboth -lltp) >"$T/so.out" 2>/dev/null
assert_eq "$(cut -f3 "$T/so.out" | sort -u)" "main.o" "libltp.so comes first: -lltp is left alone"
(cd "$O" && il link -n -k 2 -s 5 --archives all -- cc -static -o ltp main.o -L both -l ltp) >"$T/st.out"
assert_eq "$(head -n 1 "$T/st.out" | cut -f3)" "main.o $LIBOBJS unused.o" "-static: the archive, given as -L DIR -l NAME"
(cd "$O" && il link -n -k 2 -s 5 --archives all -- cc -o ltp main.o -lm) >"$T/sys.out" 2>/dev/null
assert_eq "$(cut -f3 "$T/sys.out" | sort -u)" "main.o" "a library outside the -L directories is left alone"

try "--archives used with lld, and with a thin archive"
(cd "$O" && rm -f libthin.a && ar rcT libthin.a $LIBOBJS unused.o)
for ld in bfd lld; do
	if [ "$ld" = lld ] && ! command -v ld.lld >/dev/null 2>&1; then
		skip "needs lld for its trace format"
		continue
	fi
	for lib in ltp thin; do
		link_ar "$T/$ld.$lib" used -- cc -fuse-ld=$ld -O2 -o ltp main.o -L. -l$lib -lm >"$T/l.list" 2>"$T/l.err"
		assert_eq "$?" 0 "$ld, lib$lib.a ($(cat "$T/l.err"))"
		assert_eq "$(manifest "$T/$ld.$lib/manifest.json" '" ".join(m["objects"])')" "main.o $LIBOBJS" "$ld, lib$lib.a: objects"
		"$(tail -n 1 "$T/l.list")" >"$T/o.txt"
		assert_true "$ld, lib$lib.a: output" cmp -s "$T/o.txt" "$T/ref.txt"
	done
done

try "bad use of --archives: one clear line"
fails "unknown mode" "--archives must be 'keep', 'used' or 'all', not 'some'" il link --archives some -- cc -o p a.o
fails "-n with used" "-n runs nothing, but --archives used must link once" \
	sh -c "cd '$O' && sh '$IL' link -n --archives used -- cc -o ltp main.o -L. -lltp"
printf 'not an archive\n' >"$O/libbad.a"
fails "not an archive" "'libbad.a' is not an ar archive" \
	sh -c "cd '$O' && sh '$IL' link -n --archives all -- cc -o ltp main.o libbad.a"
fails "missing archive" "cannot read archive 'nosuch.a'" \
	sh -c "cd '$O' && sh '$IL' link -n --archives all -- cc -o ltp main.o nosuch.a"

done_testing
