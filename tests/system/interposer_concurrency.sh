#!/bin/sh
# Many processes appending to one file never interleave; measured programs
# that run at the same time are told so (others_measured).
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1

try "50 concurrent processes append 50 valid lines to one file"
big=$(printf '%05000d' 0) # records of more than 4 KiB, beyond PIPE_BUF
i=0
while [ $i -lt 50 ]; do
	INTERLOPER_OUTPUT="$T/all.jsonl" LD_PRELOAD=$LIB "$PROGS/probe" busy 5 "$big" >/dev/null 2>>all.err &
	i=$((i + 1))
done
wait
assert_eq "$(nrec all.jsonl)" 50 "lines"
assert_true "every line is a valid record" valid all.jsonl
assert_eq "$(jget all.jsonl 'len(set(x["pid"] for x in r))')" 50 "distinct processes"
assert_eq "$(jget all.jsonl 'min(len(x["argv"][3]) for x in r)')" 5000 "no record was cut"
assert_eq "$(grep -vc '^interloper: another program measured by interloper ran' all.err)" 0 \
	"stderr: at most the warning that they ran at the same time"

try "%p in INTERLOPER_OUTPUT gives each process its own file"
i=0
while [ $i -lt 5 ]; do
	INTERLOPER_OUTPUT="$T/per.%p.jsonl" LD_PRELOAD=$LIB /bin/true 2>/dev/null &
	i=$((i + 1))
done
wait
set -- per.*.jsonl
assert_eq "$#" 5 "files"
for f in per.*.jsonl; do
	pid=${f#per.}
	pid=${pid%.jsonl}
	assert_eq "$(jget "$f" 'r[0]["pid"]')" "$pid" "$f holds its own process"
done

# own_ipc: whether an IPC namespace of the test's own can be made (the
# machine's note of measured programs is a System V semaphore set, one per
# namespace); says the test is skipped, and why, where it cannot
own_ipc() {
	unshare --ipc true 2>/dev/null && return 0
	skip "needs unshare(1) --ipc (root) for a semaphore set of the test's own"
	return 1
}

try "measured programs that overlap are told so, in the record and on stderr; one alone is not"
# Issue 14: lit -j2 ran two measured programs at once on two CPUs, and
# nothing said so.  In an IPC namespace of the test's own (the machine's
# note is a System V semaphore set, per namespace): A runs until told to
# stop; B starts and ends while A runs (it sees A); A ends after B ended
# (it sees that B started); C runs alone.  A's children (sleep) are
# counted in A's record, not other measurements.
# until_go.sh, sourced in the namespace's shell with name set: a measured
# sh ($name.jsonl, $name.err) in the background that runs until the file
# go exists; returns once it has started.
cat >until_go.sh <<'SH'
rm -f started go
INTERLOPER_OUTPUT=$name.jsonl LD_PRELOAD=$LIB sh -c ': >started; i=0
	while [ ! -e go ] && [ $i -lt 3000 ]; do sleep 0.02; i=$((i + 1)); done' 2>"$name.err" &
i=0
while [ ! -e started ] && [ $i -lt 3000 ]; do sleep 0.02; i=$((i + 1)); done
SH
if own_ipc; then
	unshare --ipc sh -s "$T" "$LIB" "$IL" <<'SH' >ov.out 2>&1
T=$1 LIB=$2 IL=$3
cd "$T" || exit 1
name=a
. ./until_go.sh
INTERLOPER_OUTPUT=b.jsonl LD_PRELOAD=$LIB /bin/true 2>b.err
INTERLOPER_QUIET=1 INTERLOPER_OUTPUT=bq.jsonl LD_PRELOAD=$LIB /bin/true 2>bq.err
"$IL" run -q -o "$T/br.jsonl" -- /bin/true 2>br.err
: >go
wait
INTERLOPER_OUTPUT=c.jsonl LD_PRELOAD=$LIB /bin/true 2>c.err
INTERLOPER_OUTPUT=d.jsonl LD_PRELOAD=$LIB sh -c 'exec /bin/true' 2>d.err
SH
	assert_eq "$(jget a.jsonl '[x.get("others_measured") for x in r if x["argv"][0] == "sh"]')" "[true]" "A: B ran meanwhile"
	assert_eq "$(jget a.jsonl '[x.get("others_measured") for x in r if x["argv"][0] != "sh"]')" \
		"$(jget a.jsonl '[None for x in r if x["argv"][0] != "sh"]')" "A's counted children: part of A, no field"
	assert_eq "$(jget b.jsonl 'r[0]["others_measured"]')" true "B: A was running"
	assert_eq "$(jget c.jsonl 'r[0]["others_measured"]')" false "C: alone (A's process ended: the kernel took it out)"
	# the process goes on through an exec: the first image takes itself
	# out there, and the second is alone too
	assert_eq "$(jget d.jsonl '[(x["exit"]["how"], x["others_measured"]) for x in r]')" \
		'[["exec", false], ["return", false]]' "D: an image and the one it execs, alone"
	assert_match "$(cat b.err)" "^interloper: another program measured by interloper ran on this machine during this measurement" "B's stderr"
	assert_eq "$(grep -c . a.err)" 1 "A's stderr: the one line"
	assert_eq "$(jget bq.jsonl 'r[0]["others_measured"]'):$(wc -c <bq.err | tr -d ' ')" "true:0" \
		"INTERLOPER_QUIET=1: the record says A was running, stderr says nothing"
	assert_eq "$(jget br.jsonl 'r[0]["others_measured"]'):$(wc -c <br.err | tr -d ' ')" "true:0" \
		"interloper run -q: the record says A was running, stderr says nothing"
	assert_eq "$(wc -c <c.err | tr -d ' ')" 0 "C's stderr: nothing"
	assert_eq "$(wc -c <ov.out | tr -d ' ')" 0 "nothing else said"
fi

try "a process that execs past its record is no other measurement once the exec is done"
# review10d (300d79d, high): the image's note was left to the kernel's undo
# at the process's end unless the record was an exec's; an exit handler
# registered before our constructor (libearly onexit_exec, run past exit's
# record) that execs carried the note into the new image, which is not
# measured, and every measurement started while it ran said
# others_measured true.  H exits and its handler execs sh, which sleeps;
# I, measured while it sleeps, is alone.
if own_ipc; then
	unshare --ipc sh -s "$T" "$LIB" "$PROGS/libearly.so" <<'SH' >ex.out 2>&1
T=$1 LIB=$2 EARLY=$3
cd "$T" || exit 1
rm -f execd
EARLY_MODE=onexit_exec INTERLOPER_OUTPUT=h.jsonl LD_PRELOAD="$LIB $EARLY" /bin/true 2>h.err &
i=0
while [ ! -e execd ] && [ $i -lt 3000 ]; do sleep 0.02; i=$((i + 1)); done
INTERLOPER_OUTPUT=i.jsonl LD_PRELOAD=$LIB /bin/true 2>i.err
wait
SH
	assert_eq "$(nrec h.jsonl)" 1 "H: one record, its exit's"
	assert_eq "$(jget i.jsonl 'r[0]["others_measured"]')" false "I: alone (H's image went, the program it execs is not measured)"
	assert_eq "$(wc -c <i.err | tr -d ' ')" 0 "I's stderr: nothing"
fi

try "an image whose output a fopencookie function flushes past its record, which execs, is out at its record"
# The final flush calls the program's code after exit's record (a stream
# left with output: exit_open), and that code may exec: the image takes
# itself out at its record, as for an exec, not at the process's end
# (others.c end_is_final).  J's write function execs sh, which sleeps
# with an empty environment (not measured); K, measured meanwhile, is
# alone.
if own_ipc; then
	unshare --ipc sh -s "$T" "$LIB" "$PROGS/exitpaths" <<'SH' >fl.out 2>&1
T=$1 LIB=$2 E=$3
cd "$T" || exit 1
rm -f execd
INTERLOPER_OUTPUT=j.jsonl LD_PRELOAD=$LIB "$E" cookie-end execsleep >/dev/null 2>j.err &
i=0
while [ ! -e execd ] && [ $i -lt 3000 ]; do sleep 0.02; i=$((i + 1)); done
INTERLOPER_OUTPUT=k.jsonl LD_PRELOAD=$LIB /bin/true 2>k.err
wait
SH
	assert_eq "$(jget j.jsonl '[(x["exit"]["how"], x["exit"].get("certain")) for x in r]')" '[["exit", false]]' \
		"J: one record, its exit's, not certain (output left to the flush)"
	assert_eq "$(jget k.jsonl 'r[0]["others_measured"]')" false "K: alone (J's image went at its record)"
	assert_eq "$(wc -c <k.err | tr -d ' ')" 0 "K's stderr: nothing"
fi

try "an image whose ending is final leaves the count to the kernel's undo, and the count is 0 after it"
# Where nothing of the program runs after the record (exit with nothing
# left to flush, return, _exit, quick_exit) the image does not take
# itself out (one system call fewer, issue 17): the kernel's SEM_UNDO
# does, at the process's end, and a program measured after it is alone.
if own_ipc; then
	if ! command -v ipcs >/dev/null; then
		skip "no ipcs(1) (util-linux) to read the semaphore set"
	else
		unshare --ipc sh -s "$T" "$LIB" "$PROGS/exitpaths" <<'SH' >fin.out 2>&1
T=$1 LIB=$2 E=$3
cd "$T" || exit 1
for how in return exit _exit quick; do
	INTERLOPER_OUTPUT=f-$how.jsonl LD_PRELOAD=$LIB "$E" "$how" 5 >/dev/null 2>f-$how.err
	echo "$how $? $(ipcs -s -i 0 | awk '$1 == "0" && NF >= 5 { print $2 }')" >>fin.txt
done
INTERLOPER_OUTPUT=f-after.jsonl LD_PRELOAD=$LIB /bin/true 2>f-after.err
SH
		assert_eq "$(cat fin.txt)" "return 5 0
exit 5 0
_exit 5 0
quick 5 0" "status and the count of measured images after each ending"
		cat f-*.jsonl >f-all.jsonl
		assert_eq "$(jget f-all.jsonl '[x["others_measured"] for x in r]')" \
			"[false, false, false, false, false]" "every one alone"
		assert_eq "$(cat f-*.err fin.out | wc -c | tr -d ' ')" 0 "nothing said"
	fi
	if command -v strace >/dev/null; then
		strace -f -e trace=semop -o sem.trace unshare --ipc \
			env INTERLOPER_OUTPUT=/dev/null LD_PRELOAD="$LIB" /bin/true 2>/dev/null
		assert_eq "$(grep -c 'semop(' sem.trace)" 1 "/bin/true: one semop, the start's"
	fi
fi

try "a process stopped before main (INTERLOPER_STRICT, INTERLOPER_STACK_PIN) is no other measurement"
# It never runs main and writes no record: a measured program that runs
# meanwhile must not say others_measured for it (dad0c9b had counted it
# in before those stops).  E runs until told to stop; F and G stop with
# status 127 meanwhile.
if own_ipc; then
	unshare --ipc sh -s "$T" "$LIB" <<'SH' >st.out 2>&1
T=$1 LIB=$2
cd "$T" || exit 1
name=e
. ./until_go.sh
INTERLOPER_STRICT=1 INTERLOPER_STACK_OFFSET=lots INTERLOPER_OUTPUT=f.jsonl LD_PRELOAD=$LIB /bin/true 2>f.err
echo $? >f.rc
INTERLOPER_STACK_PIN=1 INTERLOPER_STACK_OFFSET=0x7fffffff INTERLOPER_OUTPUT=g.jsonl LD_PRELOAD=$LIB /bin/true 2>g.err
echo $? >g.rc
: >go
wait
SH
	assert_eq "$(cat f.rc)" 127 "F: stopped by INTERLOPER_STRICT"
	assert_match "$(tail -n 1 f.err)" "^interloper: INTERLOPER_STRICT: stopping before main" "F's last line"
	assert_eq "$(cat g.rc)" 127 "G: stopped by INTERLOPER_STACK_PIN"
	assert_match "$(tail -n 1 g.err)" "^interloper: INTERLOPER_STACK_PIN: stopping before main" "G's last line"
	assert_eq "$(jget e.jsonl '[x.get("others_measured") for x in r if x["argv"][0] == "sh"]')" "[false]" \
		"E: nothing else measured meanwhile"
	assert_eq "$(wc -c <e.err | tr -d ' ')" 0 "E's stderr: nothing"
	assert_eq "$(wc -c <st.out | tr -d ' ')" 0 "nothing else said"
fi

done_testing
