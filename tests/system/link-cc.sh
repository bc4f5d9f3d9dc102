#!/bin/sh
# System tests of `interloper cc`, the compiler shim: a make build through
# it records its final link, and `interloper link --replay` relinks that.
# shellcheck source=/dev/null
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=/dev/null
. "$TOP/tests/link/testlib.sh"

L=$T/links

try "a make build through interloper cc records exactly its final link"
if ! command -v cc >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
	skip "needs cc and make"
else
	mk all CC="sh $IL cc --cc cc --links $L --" >"$T/build.log" 2>&1
	assert_eq "$?" 0 "make ($(tail -n 3 "$T/build.log"))"
	"$O/ltp" >"$T/ref.txt"
	assert_eq "$?" 0 "the program runs"
	assert_eq "$(lines "$L")" 1 "records (12 compiles, 1 link)"
	assert_match "$(cat "$L")" "^il_link '$O' '/[^']*cc' '-O2' '-o' 'ltp' 'main\\.o' 'vec\\.o' " "the record"
fi
if [ ! -x "$O/ltp" ]; then
	done_testing
	exit 0
fi

try "--replay relinks the recorded link 10 ways; every binary prints the same"
il link -q --replay "$L" -k 10 -s 11 -d "$T/r" >"$T/r.list" 2>"$T/r.err"
assert_eq "$?" 0 "interloper link --replay ($(cat "$T/r.err"))"
assert_eq "$(lines "$T/r.list")" 10 "binaries"
same=0
while read -r b; do
	"$b" >"$T/o.txt" && cmp -s "$T/o.txt" "$T/ref.txt" && same=$((same + 1))
done <"$T/r.list"
assert_eq "$same" 10 "binaries with the reference output"
assert_eq "$(manifest "$T/r/manifest.json" 'len({b["fingerprint"] for b in m["binaries"]})')" 10 "distinct fingerprints"
assert_eq "$(manifest "$T/r/manifest.json" 'm["cwd"]')" "$O" "the recorded directory"
assert_true "binary 00 is the build's own link, byte for byte" cmp -s "$T/r/ltp.00" "$O/ltp"

try "the environment variables work as the options do"
rm -f "$O/ltp" "$T/links2"
(cd "$O" && INTERLOPER_CC=cc INTERLOPER_CC_LINKS=$T/links2 sh "$IL" cc -O2 -o ltp main.o vec.o util.o \
	rng.o sortx.o hash.o strx.o matrix.o tree.o queue.o stats.o life.o)
assert_eq "$?" 0 "link through INTERLOPER_CC"
assert_eq "$(lines "$T/links2")" 1 "recorded in INTERLOPER_CC_LINKS"

try "compiles, failed links and partial links are passed through, not recorded"
rm -f "$T/links3"
(cd "$O" && sh "$IL" cc --links "$T/links3" -- -O2 -c "$SRC/util.c" -o util.o)
assert_eq "$?" 0 "compile"
(cd "$O" && sh "$IL" cc --links "$T/links3" -- -r -o part.o util.o rng.o)
assert_eq "$?" 0 "partial link (-r)"
(cd "$O" && sh "$IL" cc --links "$T/links3" -- -o bad main.o) 2>/dev/null
assert_eq "$?" 1 "a failing link keeps the compiler's status"
(cd "$O" && sh "$IL" cc --links "$T/links3" -- --version) >/dev/null
assert_eq "$?" 0 "--version reaches the compiler"
assert_true "nothing recorded" test ! -e "$T/links3"
(cd "$O" && sh "$IL" cc --links "$T/links3" --cc false -- -c x.c)
assert_eq "$?" 1 "the real compiler's exit status"

try "arguments with quotes, newlines and shell syntax survive record and replay"
rm -f "$T/links4"
odd="-Wl,-rpath,/tmp/it's \$HOME \`x\` \"q\" \\b
second line"
(cd "$O" && sh "$IL" cc --links "$T/links4" -- -O2 -o ltp main.o vec.o util.o rng.o sortx.o hash.o \
	strx.o matrix.o tree.o queue.o stats.o life.o "$odd")
assert_eq "$?" 0 "link with an odd argument"
assert_eq "$(lines "$T/links4")" 1 "still one line per record"
il link -q --replay "$T/links4" -k 3 -s 1 -d "$T/q" >/dev/null 2>"$T/q.err"
assert_eq "$?" 0 "replay ($(cat "$T/q.err"))"
printf '%s' "$odd" >"$T/odd.txt"
assert_eq "$(manifest "$T/q/manifest.json" 'm["command"][-1] == open("'"$T/odd.txt"'").read()')" true "the argument round-trips"

try "parallel links (make -j) never interleave their records"
big=$(awk 'BEGIN { for (i = 0; i < 3000; i++) printf "-Wl,--defsym=x%d=0 ", i }')
rm -f "$T/par"
for w in 1 2 3 4 5 6 7 8; do
	(
		i=0
		while [ "$i" -lt 20 ]; do
			# shellcheck disable=SC2086 # many words on purpose
			sh "$IL" cc --cc true --links "$T/par" -- -o "p$w" main.o $big || exit 1
			i=$((i + 1))
		done
	) &
done
wait
assert_eq "$(lines "$T/par")" 160 "records"
assert_true "every line is a record of ~$(printf '%s' "$big" | wc -c | tr -d ' ') bytes" \
	sh -c "sh '$IL' link -q -n -k 1 -s 1 --replay '$T/par' >/dev/null"

try "a compiler killed by a signal: interloper cc dies of the same signal"
printf '#!/bin/sh\nkill -SEGV $$\n' >"$T/segvcc"
chmod +x "$T/segvcc"
rc=$(cd "$O" && python3 -c 'import subprocess, sys; print(subprocess.run(sys.argv[1:], stderr=subprocess.DEVNULL).returncode)' \
	sh "$IL" cc --cc "$T/segvcc" --links "$T/segv.links" -- -o p main.o)
assert_eq "$rc" -11 "killed by SIGSEGV (subprocess's -11)"
assert_true "nothing recorded" test ! -e "$T/segv.links"

try "--program picks one of several recorded links"
cat "$L" "$T/links2" >"$T/links5"
(cd "$O" && sh "$IL" cc --links "$T/links5" -- -O2 -o other main.o vec.o util.o rng.o sortx.o hash.o \
	strx.o matrix.o tree.o queue.o stats.o life.o)
il link -q --replay "$T/links5" -n -k 2 -s 1 >"$T/last" 2>&1
assert_eq "$?" 0 "the last link by default"
il link --replay "$T/links5" -n -k 2 -s 1 >/dev/null 2>"$T/note"
assert_match "$(cat "$T/note")" "holds the links of 2 programs \\(ltp, other\\); relinking the last, other \\(choose with --program NAME\\)" \
	"said, never silent"
il link -q --replay "$T/links5" --program ltp -k 2 -s 1 -d "$T/p" >"$T/p.list" 2>&1
assert_eq "$(head -n 1 "$T/p.list")" "$T/p/ltp.00" "--program ltp"
fails "unknown program" "holds no recorded link of 'nosuch'" sh "$IL" link --replay "$T/links5" --program nosuch

try "a crafted links file runs nothing, with and without -n"
# Each file holds a good record, then a line that is shell code dressed as
# a record.  interloper link must refuse the line by its number and run
# nothing: no file appears, no link is made.  (A NUL byte once made grep
# call the file binary, the check saw nothing, and the line was eval'ed.)
good="il_link '$O' 'cc' '-o' 'p' 'main.o' 'vec.o'"
i=0
for bad in "il_link '$O' 'cc' 'a.o'; touch '$T/pwned'" \
	"il_link '$O' 'cc' 'a.o' \$(touch '$T/pwned')" \
	"il_link '$O' 'cc' \`touch '$T/pwned'\` 'a.o'" \
	"il_link '$O' 'cc' 'a.o''\$(touch $T/pwned)'" \
	"il_link '$O' 'cc' '-o' 'p' 'a.o'; touch '$T/pwned' #NUL" \
	"touch '$T/pwned'" \
	""; do
	i=$((i + 1))
	case $bad in
	*'#NUL') printf '%s\n%s\000\n' "$good" "$bad" >"$T/crafted$i" ;;
	*) printf '%s\n%s\n' "$good" "$bad" >"$T/crafted$i" ;;
	esac
	for n in -n ""; do
		fails "crafted file $i ${n:-linking}" "$T/crafted$i line 2 is not a link record written by interloper cc" \
			sh "$IL" link $n -q -k 2 -s 1 --replay "$T/crafted$i" -d "$T/crafted.out"
		assert_true "file $i ${n:-linking}: nothing ran" test ! -e "$T/pwned"
		assert_true "file $i ${n:-linking}: no output directory" test ! -e "$T/crafted.out"
	done
done
# A record's words are data: shell syntax inside quotes is kept as written.
printf "il_link '%s' 'cc' '-o' 'p\$(touch %s/pwned)' 'main.o' 'vec.o'\n" "$O" "$T" >"$T/quoted"
sh "$IL" link -n -k 2 -s 1 --replay "$T/quoted" >"$T/quoted.out" 2>&1
assert_eq "$?" 0 "a record with shell syntax inside its quotes is read"
assert_true "and nothing ran" test ! -e "$T/pwned"

try "bad records and bad use: one clear line"
printf "il_link '/tmp' 'cc' 'a.o'; rm -rf /\n" >"$T/evil"
fails "a record that is not ours" "line 1 is not a link record written by interloper cc" sh "$IL" link --replay "$T/evil"
: >"$T/empty"
fails "no records" "holds no recorded link" sh "$IL" link --replay "$T/empty"
fails "replay and a command" "either a link command after -- or --replay FILE" \
	sh "$IL" link --replay "$L" -- cc -o p a.o
fails "unreadable record file" "cannot read link record file" sh "$IL" link --replay "$T/nosuch"
fails "the shim calling itself" "runs interloper cc again" \
	env INTERLOPER_CC="sh $IL cc" sh "$IL" cc -o p "$O/main.o"
fails "--cc without a value" "--cc: expected a value, COMPILER" sh "$IL" cc --cc
help=$(il cc --help)
assert_eq "$?" 0 "--help exits 0"
assert_match "$help" '^usage: interloper cc' "--help prints the usage"

done_testing
