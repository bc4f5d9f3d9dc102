#!/bin/sh
# A program rebuilt while a sweep or compare runs is not measured on as
# the same system (outside14 H5: 97 runs of the old binary and 140 of the
# new in one verdict): each launch checks the file is still the one the
# plan hashed, and a changed one stops the runs in one line; the file
# stays resumable.
# timeout: 300
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
mkdir -p a b new
cp "$PROGS/probe" a/p
cp "$PROGS/probe" b/p
cp "$PROGS/probe" orig
# the same program with other bytes (one more at its end): the same output
cp "$PROGS/probe" new/p && printf x >>new/p
# swap N: a --prepare that replaces b/p by new/p before its Nth call, as a
# rebuild in another terminal would (a new file renamed over the old)
swap() {
	# shellcheck disable=SC2016 # the command's own $(...) and $n
	printf 'n=$(cat %s/calls 2>/dev/null || echo 0); n=$((n + 1)); echo $n >%s/calls; [ $n -ne %s ] || { cp %s/new/p %s/b/p.new && mv %s/b/p.new %s/b/p; }' \
		"$T" "$T" "$1" "$T" "$T" "$T" "$T"
}
sha() { sha256sum "$1" | cut -c1-12; }

try "compare: b/p replaced by --prepare before its 3rd run stops the runs in one line naming it"
rm -f calls
il compare -q --seed 4 --setups 4 -r 1 -w 0 --max-runs 8 --until 0.0001 -o c.jsonl \
	--prepare "$(swap 3)" a/p b/p -- hello >out 2>err
rc=$?
assert_eq "$rc" 1 "status"
assert_match "$(tail -n 1 err)" "^interloper compare: b/p changed while the runs went on \(its SHA-256 is now $(sha new/p), the plan's $(sha orig)\), before run .*: its runs before and after would be of two programs, so nothing more is run; the runs so far are in c.jsonl: put the measured program back and run the same command to resume, or measure the new one into another output file$" "the line"
# the runs before the change (a's may follow it), none of b after it: the
# run that found it is not run, so one --prepare more than runs
assert_eq "$(rj c.jsonl 'len(r)')" "$(($(cat calls) - 1))" "the runs before the change, and none after"
assert_eq "$(rj c.jsonl 'm[-1]["sweep"]["stopped"]')" "a program changed" "the end line says why"

try "put back, the same command resumes the file and completes it"
cp orig b/p
il compare -q --seed 4 --setups 4 -r 1 -w 0 --max-runs 8 --until 0.0001 -o c.jsonl \
	--prepare "true" a/p b/p -- hello >out 2>err
assert_eq "$?:$(rj c.jsonl 'len(r)')" "0:8" "status, every run ($(tail -n 2 err))"

try "sweep: a program replaced in the background between runs stops it"
cp orig b/p
il sweep -q --seed 5 --reps 40 --system A=a/p --system B=b/p --no-check-output -o s.jsonl -- busy 30 >out 2>err &
p=$!
i=0
while [ "$(recs s.jsonl)" -lt 6 ] && [ "$i" -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
cp new/p b/p.new && mv b/p.new b/p
wait $p
rc=$?
assert_eq "$rc" 1 "status"
assert_match "$(tail -n 1 err)" "^interloper sweep: b/p changed while the runs went on \(its SHA-256 is now $(sha new/p)" "the line"
# every record of B is of the program the plan hashed: none after the swap
n=$(recs s.jsonl)
assert_true "fewer runs than the plan's 80 ($n)" [ "$n" -lt 80 ]

try "a touch, a chmod or a copy of the same bytes is the same program: nothing stops"
cp orig b/p
rm -f calls
il compare -q --seed 4 --setups 4 -r 1 -w 0 --max-runs 8 --until 0.0001 -o t.jsonl \
	--prepare "touch $T/b/p; chmod 755 $T/b/p; cp $T/orig $T/b/p.new && mv $T/b/p.new $T/b/p" \
	a/p b/p -- hello >out 2>err
assert_eq "$?:$(rj t.jsonl 'len(r)')" "0:8" "status, every run ($(tail -n 1 err))"

try "a program removed while the runs go on: said, not an exec failure"
cp orig b/p
il compare -q --seed 4 --setups 4 -r 1 -w 0 --max-runs 8 --until 0.0001 -o r.jsonl \
	--prepare "[ -f $T/rm.done ] || { touch $T/rm.done; rm $T/b/p; }" a/p b/p -- hello >out 2>err
assert_match "$?:$(tail -n 1 err)" "^1:interloper compare: b/p changed while the runs went on \(it cannot be read now \(No such file or directory\)\)" "the line"

# A launcher that execs the measured program (README "Wrap a harness"):
# the plan hashes the launcher, not what it execs; each record names its
# image (build_id), and a system whose process ran other images than its
# first run's stops the runs (outside15 H2: 35 runs of two binaries, one
# verdict, no word).
mkdir -p la lb lnew
printf '#include <stdio.h>\nint main(void){puts("hello"); return 0;}\n' >hello.c
if cc -Wl,--build-id=0xaaaa0001 -o la/p hello.c 2>/dev/null &&
	cc -Wl,--build-id=0xbbbb0002 -o lb/p hello.c && cc -Wl,--build-id=0xcccc0003 -o lnew/p hello.c; then
	built=1
else
	built=0
fi
cp lb/p lb.orig 2>/dev/null
printf '#!/bin/sh\nexec %s/la/p "$@"\n' "$T" >xa.sh
printf '#!/bin/sh\nexec %s/lb/p "$@"\n' "$T" >xb.sh
chmod +x xa.sh xb.sh
# lswap N: a --prepare that replaces lb/p, the program xb.sh execs, before
# its Nth call
lswap() {
	# shellcheck disable=SC2016 # the command's own $(...) and $n
	printf 'n=$(cat %s/lcalls 2>/dev/null || echo 0); n=$((n + 1)); echo $n >%s/lcalls; [ $n -ne %s ] || { cp %s/lnew/p %s/lb/p.new && mv %s/lb/p.new %s/lb/p; }' \
		"$T" "$T" "$1" "$T" "$T" "$T" "$T"
}
shid=$(readelf -n "$(readlink -f /bin/sh)" 2>/dev/null | sed -n 's/.*Build ID: //p' | cut -c1-12)

try "compare through launchers: the program a launcher execs replaced mid-compare stops the runs"
if [ "$built" = 1 ] && [ -n "$shid" ]; then
	rm -f lcalls
	il compare -q --seed 4 --setups 4 -r 1 -w 0 --max-runs 8 --until 0.0001 -o l.jsonl \
		--prepare "$(lswap 3)" ./xa.sh ./xb.sh >out 2>err
	rc=$?
	assert_eq "$rc" 1 "status"
	assert_match "$(tail -n 1 err)" "^interloper compare: $T/lb/p changed while the runs went on \(run [^ ]+ ran the images with build-id $shid>bbbb0002, run [^ ]+ $shid>cccc0003\), in run [^ ]+: its runs before and after would be of two programs, so nothing more is run; the runs so far are in l.jsonl: put the measured program back and run the same command to resume, or measure the new one into another output file$" "the line"
	# every record kept is of the first images: the run that found it is left out
	assert_eq "$(rj l.jsonl '[x for x in r if x.get("build_id") == "cccc0003"]')" "[]" "no record of the new image"
	assert_true "xb.sh's runs before it are kept" [ "$(rj l.jsonl 'len([x for x in r if x.get("build_id") == "bbbb0002"])')" -ge 1 ]
	assert_eq "$(rj l.jsonl 'm[-1]["sweep"]["stopped"]')" "a program changed" "the end line says why"
else
	skip "cc cannot link with -Wl,--build-id, or /bin/sh has no build-id"
fi

try "through launchers, put back: the same command resumes and completes"
if [ "$built" = 1 ] && [ -n "$shid" ]; then
	cp lb.orig lb/p
	il compare -q --seed 4 --setups 4 -r 1 -w 0 --max-runs 8 --until 0.0001 -o l.jsonl \
		./xa.sh ./xb.sh >out 2>err
	assert_eq "$?:$(rj l.jsonl 'len([x for x in r if x["exit"]["how"] != "exec"])')" "0:8" "status, every run ($(tail -n 2 err))"
else
	skip "cc cannot link with -Wl,--build-id, or /bin/sh has no build-id"
fi

try "through launchers, replaced between two invocations: the resumed compare stops at its first run of it"
if [ "$built" = 1 ] && [ -n "$shid" ]; then
	cp lb.orig lb/p
	rm -f lr.jsonl
	il compare -q --seed 4 --setups 4 -r 1 -w 0 --max-runs 8 --until 0.0001 -o lr.jsonl \
		./xa.sh ./xb.sh >out 2>err
	assert_eq "$?" 0 "the first invocation ($(tail -n 1 err))"
	cp lnew/p lb/p
	il compare -q --seed 4 --setups 4 -r 1 -w 0 --max-runs 16 --until 0.0001 -o lr.jsonl \
		./xa.sh ./xb.sh >out 2>err
	assert_eq "$?" 1 "the resumed one's status"
	assert_match "$(tail -n 1 err)" "^interloper compare: $T/lb/p changed while the runs went on \(run [^ ]+ ran the images with build-id $shid>bbbb0002, run [^ ]+ $shid>cccc0003\)" "the line"
	assert_eq "$(rj lr.jsonl '[x for x in r if x.get("build_id") == "cccc0003"]')" "[]" "no record of the new image"
	cp lb.orig lb/p
	il compare -q --seed 4 --setups 4 -r 1 -w 0 --max-runs 16 --until 0.0001 -o lr.jsonl \
		./xa.sh ./xb.sh >out 2>err
	assert_eq "$?:$(rj lr.jsonl 'len([x for x in r if x["exit"]["how"] != "exec"])')" "0:16" "put back: resumed and completed ($(tail -n 1 err))"
else
	skip "cc cannot link with -Wl,--build-id, or /bin/sh has no build-id"
fi

try "through launchers, a copy of the same bytes and a touch: the same images, nothing stops"
if [ "$built" = 1 ] && [ -n "$shid" ]; then
	il compare -q --seed 4 --setups 4 -r 1 -w 0 --max-runs 8 --until 0.0001 -o lt.jsonl \
		--prepare "touch $T/lb/p; cp $T/lb.orig $T/lb/p.new && mv $T/lb/p.new $T/lb/p" \
		./xa.sh ./xb.sh >out 2>err
	assert_eq "$?:$(rj lt.jsonl 'len([x for x in r if x["exit"]["how"] != "exec"])')" "0:8" "status, every run ($(tail -n 1 err))"
else
	skip "cc cannot link with -Wl,--build-id, or /bin/sh has no build-id"
fi

done_testing
