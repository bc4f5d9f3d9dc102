#!/bin/sh
# build.sh: interloper build makes the systems of a link-order experiment
# in one step: the 12-file test program (tests/link) built at -O1 and -O2
# through interloper cc, each relinked in the same orders from one seed;
# the orders are checked against the manifests, the binaries against each
# other, and bad input against one-line messages.
# timeout: 300
# shellcheck source=/dev/null
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=/dev/null
. "$TOP/tests/link/testlib.sh"

ready() {
	[ -x "$B/libexec/interloper-build" ] && command -v cc >/dev/null 2>&1 && command -v make >/dev/null 2>&1
}

try "two systems built and relinked in the same 6 orders from one seed"
if ready; then
	il build -k 6 -s 7 -d "$T/b" --system O1=CFLAGS=-O1 --system O2=CFLAGS=-O2 \
		"$TOP/tests/link" ltp >"$T/out" 2>"$T/err"
	assert_eq "$?" 0 "exit status ($(cat "$T/err"))"
	assert_eq "$(lines "$T/out")" 12 "the 12 binaries' paths on stdout"
	assert_eq "$(head -n 1 "$T/out")" "$T/b/O1/link/ltp.00" "the first"
	assert_match "$(cat "$T/err")" "^interloper build: 2 systems of ltp, 6 binaries each in the same orders \\(seed 7\\), in $T/b; measure them with interloper sweep --layouts 6 --system 'O1=$T/b/O1/link/ltp\\.\\{layout\\}' --system 'O2=$T/b/O2/link/ltp\\.\\{layout\\}'\$" \
		"the summary names the sweep's options"
	assert_eq "$(manifest "$T/b/O1/link/manifest.json" '[b["order"] for b in m["binaries"]]')" \
		"$(manifest "$T/b/O2/link/manifest.json" '[b["order"] for b in m["binaries"]]')" "the same orders"
	assert_eq "$(manifest "$T/b/O1/link/manifest.json" 'm["seed"]')" 7 "the seed"
	assert_match "$(manifest "$T/b/O1/link/manifest.json" 'm["command"]')" '"-O1"' "O1 built with -O1"
	assert_match "$(manifest "$T/b/O2/link/manifest.json" 'm["command"]')" '"-O2"' "O2 built with -O2"
	assert_true "the two builds differ" sh -c "! cmp -s '$T/b/O1/link/ltp.00' '$T/b/O2/link/ltp.00'"
	a=$("$T/b/O1/link/ltp.03" | md5sum)
	assert_eq "$("$T/b/O2/link/ltp.05" | md5sum)" "$a" "the same output"
	assert_true "make's output kept" test -s "$T/b/O2/build.log"
	# The sweep takes the binaries as the summary says.
	sh "$IL" sweep -q -n --seed 1 --reps 1 --layouts 6 --system "O1=$T/b/O1/link/ltp.{layout}" \
		--system "O2=$T/b/O2/link/ltp.{layout}" >"$T/plan" 2>"$T/err"
	assert_eq "$?" 0 "interloper sweep accepts them ($(head -c 300 "$T/err"))"
	assert_eq "$(lines "$T/plan")" 12 "12 runs planned"
	# two factors vary: the summary (and --until) use the report's crossed
	# model, as the full report it names does (outside review, session 12:
	# setups that share a layout taken as independent, an interval too narrow)
	sh "$IL" sweep --seed 1 --reps 1 --layouts 2 --env-add 0,16 --system "O1=$T/b/O1/link/ltp.{layout}" \
		--system "O2=$T/b/O2/link/ltp.{layout}" -o "$T/x.jsonl" >"$T/sum" 2>"$T/sum.err"
	assert_eq "$?" 0 "the sweep ran ($(tail -n 1 "$T/sum.err"))"
	assert_match "$(tail -n 1 "$T/sum")" "interloper report --metric wall --compare system=O1 --setup env_add,layout " \
		"layouts and environment sizes: the summary's design is crossed"
	sh "$IL" report --json --metric wall --compare system=O1 --setup env_add,layout "$T/x.jsonl" >"$T/x.json" 2>/dev/null
	assert_match "$(cat "$T/sum")" "$(python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["comparisons"][0]; print("ratio %.4g" % c["ratio"] if not isinstance(c.get("ci"), list) else "%.1f%%" % abs(100 * (c["ratio"] - 1)))' "$T/x.json")" \
		"the summary's number is that report's"
	sh "$IL" sweep --seed 1 --reps 1 --layouts 2 --system "O1=$T/b/O1/link/ltp.{layout}" \
		--system "O2=$T/b/O2/link/ltp.{layout}" -o "$T/y.jsonl" >"$T/sum" 2>"$T/sum.err"
	assert_match "$(tail -n 1 "$T/sum")" " --setup setup " "layouts alone: one label"
else
	skip "needs the tools built, cc and make"
fi

try "objects in a directory named by the flags (zstd's obj/conf_MD5): the same objects; a renaming that reorders them is one line, stdout empty"
if ready; then
	# outside13 F1: zstd 1.5.4's programs/Makefile, BUILD_DIR=obj/conf_<md5 of the flags>
	mkdir -p "$T/hash"
	printf 'int f(void);\nint g(void);\nint main(void) { return f() + g() - 3; }\n' >"$T/hash/main.c"
	printf 'int f(void) { return 1; }\n' >"$T/hash/f.c"
	printf 'int g(void) { return 2; }\n' >"$T/hash/g.c"
	# hashmake DIR OBJECTS [RULE...]: a Makefile of prog from OBJECTS, its
	# objects in DIR, where $(H) is the MD5 of the flags
	hashmake() {
		# shellcheck disable=SC2016 # make's variables, not the shell's
		printf '%s\n' 'H := $(shell echo "$(CFLAGS)" | md5sum | cut -c1-8)' "D := $1" "prog: $2" \
			'	$(CC) -o $@ $^' '$(D)/%.o: %.c' '	mkdir -p $(D)' '	$(CC) $(CFLAGS) -c -o $@ $<' >"$T/hash/Makefile"
		shift 2
		printf '%s\n' "$@" >>"$T/hash/Makefile"
	}
	# shellcheck disable=SC2016 # make's variables, not the shell's
	hashmake 'obj/conf_$(H)' '$(D)/main.o $(D)/f.o $(D)/g.o'
	il build -k 4 -s 3 -d "$T/hb" --system O1=CFLAGS=-O1 --system O2=CFLAGS=-O2 "$T/hash" prog \
		>"$T/out" 2>"$T/err"
	assert_eq "$?" 0 "built ($(head -c 300 "$T/err"))"
	assert_eq "$(lines "$T/out")" 8 "both systems' binaries on stdout"
	assert_match "$(cat "$T/err")" "^interloper build: O2 built its objects in directories of other names than O1 \\('conf_f74dda3a' for 'conf_9805e4f1'\\): the same objects, in the same orders" \
		"said, naming the directories"
	assert_eq "$(manifest "$T/hb/O2/link/manifest.json" '[[x.split("/")[-1] for x in b["order"]] for b in m["binaries"]]')" \
		"$(manifest "$T/hb/O1/link/manifest.json" '[[x.split("/")[-1] for x in b["order"]] for b in m["binaries"]]')" \
		"the same orders"
	sh "$IL" sweep -n --seed 1 --reps 1 --layouts 4 --system "O1=$T/hb/O1/link/prog.{layout}" \
		--system "O2=$T/hb/O2/link/prog.{layout}" >"$T/plan" 2>"$T/err"
	assert_eq "$?:$(lines "$T/plan")" "0:8" "interloper sweep takes them"
	assert_true "as the same objects, not 'different objects, paired by id alone'" \
		sh -c "! grep -q 'different objects' '$T/err'"
	# the flags' directory beside a fixed one: O1's 9805e4f1 sorts before c,
	# O2's f74dda3a after it, so one seed gives other orders: refused
	# shellcheck disable=SC2016 # make's variables, not the shell's
	hashmake 'obj/$(H)' '$(D)/main.o $(D)/f.o obj/c/g.o' 'obj/c/g.o: g.c' '	mkdir -p obj/c' \
		'	$(CC) $(CFLAGS) -c -o $@ $<'
	# refused WHAT DIR: the build into DIR is refused, nothing on stdout;
	# its own line in $T/msg (link's warnings may come first: these tiny
	# objects give binaries of one layout)
	refused() {
		il build -k 4 -s 3 -d "$2" --system O1=CFLAGS=-O1 --system O2=CFLAGS=-O2 "$T/hash" prog \
			>"$T/out" 2>"$T/err"
		assert_eq "$?:$(lines "$T/out")" "1:0" "$1: refused, nothing on stdout"
		grep -v 'interloper link: warning' "$T/err" >"$T/msg"
	}
	refused "a renaming that reorders" "$T/hc"
	assert_match "$(cat "$T/msg")" \
		"^interloper build: O1 and O2 put their objects in directories of other names \\('9805e4f1' and 'f74dda3a'\\), which sort them otherwise, so one seed gave them different orders \\(binary 1, object 0: 'obj/9805e4f1/f.o' and 'obj/c/g.o'\\); give every system one object directory with a make variable" \
		"in one line, naming the directories"
	assert_true "a short line" test "$(wc -c <"$T/msg")" -lt 500
	# other objects: the first that differs, not every binary's whole order
	# shellcheck disable=SC2016 # make's variables, not the shell's
	printf '%s\n' 'O := main.o f.o g.o' 'ifeq ($(CFLAGS),-O2)' 'O := main.o g.o f.o' 'endif' \
		'prog: $(O)' '	$(CC) -o $@ $^' >"$T/hash/Makefile"
	refused "other objects" "$T/hd"
	assert_eq "$(cat "$T/msg")" \
		"interloper build: O1 and O2 linked different objects: object 1 of the build's order is 'f.o' in O1 and 'g.o' in O2; build both from the same sources and targets" \
		"the first object that differs, not every binary's order"
else
	skip "needs the tools built, cc and make"
fi

try "a configured tree (autotools): its times kept, so make runs no configure again; CC one word per word (outside13 F10)"
if ready; then
	mkdir -p "$T/conf"
	cp "$T/hash/main.c" "$T/hash/f.c" "$T/hash/g.c" "$T/conf/"
	# shellcheck disable=SC2016 # make's variables, not the shell's
	printf '%s\n' 'prog: main.o f.o g.o' '	$(CC) -o $@ $^' '	$(file >cc.txt,$(CC))' \
		'Makefile: config.status' '	@echo "config.status is newer: configure would run again"; exit 1' \
		'config.status: configure' '	@echo "configure is newer: configure would run again"; exit 1' >"$T/conf/Makefile"
	printf '#!/bin/sh\nexit 0\n' >"$T/conf/configure"
	: >"$T/conf/config.status"
	touch -d '2020-01-01 00:00:00' "$T/conf/configure"
	touch -d '2021-01-01 00:00:00' "$T/conf/config.status"
	touch -d '2022-01-01 00:00:00' "$T/conf/Makefile" "$T/conf/main.c" "$T/conf/f.c" "$T/conf/g.c"
	il build -q -k 2 -s 1 -d "$T/cb" --system O1=CFLAGS=-O1 "$T/conf" prog >"$T/out" 2>"$T/err"
	assert_eq "$?" 0 "built ($(head -c 300 "$T/err"))"
	assert_eq "$(stat -c %Y "$T/cb/O1/src/configure") $(stat -c %Y "$T/cb/O1/src/config.status")" \
		"$(stat -c %Y "$T/conf/configure") $(stat -c %Y "$T/conf/config.status")" "the copy keeps the times"
	# configure splits $CC at blanks, without sh's quote removal
	# shellcheck disable=SC2046 # split as configure splits it
	set -- $(cat "$T/cb/O1/src/cc.txt")
	assert_true "CC's first word, split as configure splits it, is the shim ($1)" test -x "$1"
else
	skip "needs the tools built, cc and make"
fi

try "without -s a seed is drawn once, for every system"
if ready; then
	il build -k 3 -d "$T/c" --system A=CFLAGS=-O1 --system B=CFLAGS=-O2 "$TOP/tests/link" ltp \
		>/dev/null 2>"$T/err"
	s=$(manifest "$T/c/A/link/manifest.json" 'm["seed"]')
	assert_eq "$(manifest "$T/c/B/link/manifest.json" 'm["seed"]')" "$s" "one seed"
	assert_match "$(cat "$T/err")" "\\(seed $s\\)" "said"
else
	skip "needs the tools built, cc and make"
fi

try "the calling make's variables do not reach the systems' builds"
if ready; then
	# A make of the caller's would hand this to ours, and the link would fail.
	MAKEFLAGS='LDLIBS=-lnonexistentlib' MAKELEVEL=1 il build -k 2 -s 1 -d "$T/m" \
		--system O2=CFLAGS=-O2 "$TOP/tests/link" ltp >/dev/null 2>"$T/err"
	assert_eq "$?" 0 "exit status ($(cat "$T/err"))"
	assert_true "no LDLIBS of the caller's" sh -c "! grep -q nonexistentlib '$T/m/O2/build.log'"
else
	skip "needs the tools built, cc and make"
fi

try "bad input is one line, and nothing is left half-built in a directory that was not empty"
if ready; then
	fails "names of different lengths" "--system O2 and O3s: names of different lengths" \
		il build --system O2=CFLAGS=-O2 --system O3s=CFLAGS=-O3 -d "$T/x" "$TOP/tests/link"
	fails "no variable" "--system O2: expected NAME=VAR=VALUE" il build --system O2 -d "$T/x" "$TOP/tests/link"
	fails "no system" "expected at least one --system" il build -d "$T/x" "$TOP/tests/link"
	fails "no source directory" "expected the program's source directory" il build --system O2=CFLAGS=-O2
	fails "a file for sources" "not a directory; expected the program's source directory" \
		il build --system O2=CFLAGS=-O2 -d "$T/x" "$TOP/tests/link/main.c"
	mkdir -p "$T/full" && : >"$T/full/f"
	fails "a directory not empty" "-d $T/full: the directory is not empty" \
		il build --system O2=CFLAGS=-O2 -d "$T/full" "$TOP/tests/link"
	fails "a build that fails" "the build of O2 failed \\(exit status 2; its output is in $T/y/O2/build.log\\): [^ ]*: error: unrecognized command-line option" \
		il build --system O2=CFLAGS=-fno-such-option-here -d "$T/y" "$TOP/tests/link" ltp
	fails "a bad -k, in interloper link's words, before anything is built" "--orders must be at least 1" \
		il build -k 0 --system O2=CFLAGS=-O2 -d "$T/z" "$TOP/tests/link" ltp
	assert_true "nothing built" test ! -e "$T/z"
	fails "a bad -a" "--archives must be 'keep', 'used' or 'all', not 'some'" \
		il build -a some --system O2=CFLAGS=-O2 -d "$T/z" "$TOP/tests/link" ltp
	# a build that links two programs: which to relink is asked, not guessed
	mkdir -p "$T/two"
	printf 'int main(void) { return 0; }\n' >"$T/two/a.c"
	cp "$T/two/a.c" "$T/two/b.c"
	# shellcheck disable=SC2016 # make's $(CC), not the shell's
	printf 'all: a b\na: a.o\n\t$(CC) -o a a.o\nb: b.o\n\t$(CC) -o b b.o\n' >"$T/two/Makefile"
	fails "two programs linked, no --program" \
		"the build of O2 linked 2 programs \\(a, b\\); choose one with --program NAME" \
		il build -k 1 --system O2=CFLAGS=-O2 -d "$T/w" "$T/two"
	assert_eq "$(il build -q -k 1 -s 1 --program a --system O2=CFLAGS=-O2 -d "$T/w2" "$T/two" 2>&1)" \
		"$T/w2/O2/link/a.00" "with --program, that one"
	out=$(il build --help)
	assert_match "$out" "^usage: interloper build " "--help"
	assert_match "$out" "interloper-build\\(1\\)" "points to the man page"
else
	skip "needs the tools built, cc and make"
fi

try "a build that links in name order: binary 01 is 00 again, and neither build nor sweep counts it twice"
if ready; then
	mkdir "$T/ab"
	printf 'int f(void);\nint main(void) { return f(); }\n' >"$T/ab/a.c"
	printf 'int f(void) { return 0; }\n' >"$T/ab/b.c"
	# shellcheck disable=SC2016 # make's variables, for make
	printf 'ab: a.o b.o\n\t$(CC) $(CFLAGS) -o $@ a.o b.o\n' >"$T/ab/Makefile"
	il build -k 2 -s 3 -d "$T/abb" --system O1=CFLAGS=-O1 --system O2=CFLAGS=-O2 "$T/ab" ab \
		>/dev/null 2>"$T/err"
	assert_eq "$?" 0 "exit status ($(tail -n 1 "$T/err"))"
	assert_match "$(tail -n 1 "$T/err")" "measure them with interloper sweep --layouts 00 --system" \
		"the summary leaves binary 01 out"
	sh "$IL" sweep -q -n --seed 1 --reps 1 --layouts 2 --system "O1=$T/abb/O1/link/ab.{layout}" \
		--system "O2=$T/abb/O2/link/ab.{layout}" >"$T/plan" 2>"$T/err"
	assert_eq "$?:$(lines "$T/plan")" "0:4" "sweep runs them as asked"
	assert_eq "$(cat "$T/err")" "interloper sweep: warning: system O1: layouts 00 and 01 are one binary (one SHA-256), which the report counts as two layouts; leave 01 out of --layouts
interloper sweep: warning: system O2: layouts 00 and 01 are one binary (one SHA-256), which the report counts as two layouts; leave 01 out of --layouts" \
		"and says, per system, that two layouts are one binary"
else
	skip "needs the tools built, cc and make"
fi

try "a tree built before: objects its own make compiled are refused by name, not linked as the system's (outside14 H4)"
if ready; then
	mkdir -p "$T/built"
	printf 'int f(void);\nint g(void);\nint main(void) { return f() + g() - 3; }\n' >"$T/built/main.c"
	printf 'int f(void) { return 1; }\n' >"$T/built/f.c"
	printf 'int g(void) { return 2; }\n' >"$T/built/g.c"
	# shellcheck disable=SC2016 # make's variables, not the shell's
	printf '%s\n' 'prog: main.o f.o g.o' '	$(CC) -o $@ $^' '%.o: %.c' '	$(CC) $(CFLAGS) -c -o $@ $<' \
		'clean:' '	rm -f prog *.o' >"$T/built/Makefile"
	make -s -C "$T/built" CFLAGS=-O0 >/dev/null 2>&1
	# one edit since: make would rebuild main.o alone, f.o and g.o staying -O0
	sleep 0.02
	touch "$T/built/main.c"
	fails "an edit since the last make" \
		"the build of O1 linked 2 objects compiled before it, with the flags $T/built was built with, not O1's \\(f\\.o, g\\.o\\): run make clean in $T/built, or give a clean tree$" \
		il build -k 2 -s 1 -d "$T/bt1" --system O1=CFLAGS=-O1 --system O2=CFLAGS=-O2 "$T/built" prog
	# no edit: make found nothing to do, and said nothing was linked
	make -s -C "$T/built" CFLAGS=-O0 >/dev/null 2>&1
	fails "no edit since the last make" \
		"the build of O1 linked nothing: $T/built is built already \\((main|f|g)\\.o, (main|f|g)\\.o, (main|f|g)\\.o predate this build\\), so make found nothing to compile with O1's variables; run make clean there, or give a clean tree$" \
		il build -k 2 -s 1 -d "$T/bt2" --system O1=CFLAGS=-O1 --system O2=CFLAGS=-O2 "$T/built" prog
	make -s -C "$T/built" clean
	il build -q -k 2 -s 1 -d "$T/bt3" --system O1=CFLAGS=-O1 --system O2=CFLAGS=-O2 "$T/built" prog >/dev/null 2>"$T/err"
	assert_eq "$?" 0 "after make clean, built ($(head -c 300 "$T/err"))"
	assert_true "f.o of O1 and O2 differ: each its own flags" sh -c "! cmp -s '$T/bt3/O1/src/f.o' '$T/bt3/O2/src/f.o'"
else
	skip "needs the tools built, cc and make"
fi

try "a failed build is quoted by its error, not by a word with error in it (outside14 F14)"
if ready; then
	mkdir -p "$T/ferr"
	printf '%s\n' 'prog:' '	@echo "checking for strerror_r... yes"' '	@echo "cc -Werror -c error.c -o error.o"' \
		'	@echo "checking for error_at_line... no"' '	@echo "make: [Makefile:9: x] Error 1 (ignored)"' \
		'	@echo "makeinfo: command not found"; exit 127' >"$T/ferr/Makefile"
	fails "the make's own line" \
		"the build of O1 failed \\(exit status 2; its output is in $T/fe/O1/build.log\\): make(\\[[0-9]+\\])?: \\*\\*\\* \\[Makefile:[0-9]+: prog\\] Error 127$" \
		il build -k 2 -s 1 -d "$T/fe" --system O1=CFLAGS=-O1 "$T/ferr" prog
else
	skip "needs the tools built, cc and make"
fi

done_testing
