#!/bin/sh
# The record is never lost or half-written, and its destination can never
# block, steer or eat into the program: full devices and file systems,
# FIFOs with no reader or a reader that left, links in sticky
# directories, a spec file that is not a regular file of the user's.
# timeout: 300
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
P="$PROGS/probe"
cd "$T" || exit 1

# the record that fell back to stderr, without its prefix
fallback() { sed -n 's/^interloper: record: //p' "$1"; }

try "/dev/full: the program is unharmed, one line names it, the record goes to stderr"
same_as_without /dev/full "$P" hello
assert_eq "$(grep -c '^interloper: ' "$T/err" | tr -d ' ')" 2 "lines on stderr: the reason and the record"
assert_match "$(grep -v '^interloper: record: ' "$T/err")" \
	"^interloper: cannot write the record to /dev/full: .*ENOSPC" "the reason names the output and the errno"
fallback "$T/err" >fb.jsonl
assert_eq "$(nrec fb.jsonl)" 1 "one record, prefixed 'interloper: record: '"
assert_true "the fallen-back record is valid" valid fb.jsonl

try "a FIFO with no reader: the program does not block, and is told once"
mkfifo fifo
timeout 20 env INTERLOPER_OUTPUT="$T/fifo" LD_PRELOAD="$LIB" "$P" hello >out 2>err
rc=$?
"$P" hello >out0
assert_eq "$rc" 0 "status (124 would be a hang: it waited for a reader)"
assert_eq "$(cat out)" "$(cat out0)" "stdout"
assert_match "$(grep -v '^interloper: record: ' err)" "^interloper: cannot write the record to $T/fifo: .*ENXIO" "the reason"
fallback err >fb.jsonl
assert_true "the record on stderr" valid fb.jsonl

try "a FIFO whose reader left before the end: one line, the record on stderr"
rm -f fifo && mkfifo fifo
# a reader and a writer meet on the FIFO and both leave, all before the
# program ends (in that order, whatever the scheduler does: the writer
# waits in open(2) for the reader, and the reader reads to the end)
timeout 20 cat fifo >/dev/null &
reader=$!
# shellcheck disable=SC2016 # expanded by the inner sh
timeout 20 sh -c 'exec 4>"$1"' sh "$T/fifo"
wait "$reader"
timeout 20 env INTERLOPER_OUTPUT="$T/fifo" LD_PRELOAD="$LIB" "$P" busy 100 >out 2>err
rc=$?
assert_eq "$rc" 0 "status"
assert_match "$(grep -v '^interloper: record: ' err)" "^interloper: cannot write the record to $T/fifo: " "the reason"
fallback err >fb.jsonl
assert_true "the record on stderr" valid fb.jsonl

try "records to a stderr pipe whose reader left: no SIGPIPE, the program's status stands"
(
	env INTERLOPER_OUTPUT=- LD_PRELOAD="$LIB" "$P" busy 300 >out
	echo $? >rc
) 2>&1 | true
assert_eq "$(cat rc)" 0 "status (141 would be death by SIGPIPE)"

try "a FIFO with a reader gets the whole record"
rm -f fifo && mkfifo fifo
# The reader must hold the FIFO open before the program ends: the library
# opens it non-blocking then, and a reader that comes later finds no
# writer and waits for good (this test hung CI so, on a loaded machine).
# This shell holds the FIFO open on fd 3, so that cat's open(2) returns
# at once, and closes it only when cat holds its own descriptor.
exec 3<>fifo
timeout 20 cat fifo >fromfifo.jsonl &
reader=$!
holds() { for _fd in "/proc/$1/fd"/*; do [ "$(readlink "$_fd")" = "$2" ] && return 0; done; return 1; }
i=0
until holds "$reader" "$T/fifo" || [ $i -ge 2000 ]; do
	sleep 0.01
	i=$((i + 1))
done
timeout 20 env INTERLOPER_OUTPUT="$T/fifo" LD_PRELOAD="$LIB" "$P" hello >/dev/null 2>err
exec 3<&-
wait "$reader"
assert_eq "$(nrec fromfifo.jsonl)" 1 "records through the FIFO"
assert_true "valid" valid fromfifo.jsonl
assert_eq "$(wc -c <err | tr -d ' ')" 0 "nothing on stderr"

try "a full file system: the torn line is ended, said once, and the next record stands alone"
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
	skip "needs root and unshare(1) to mount a small tmpfs in a private mount namespace"
else
	big=$(printf '%06000d' 0) # a record of about 6.5 KiB
	# In a private mount namespace, so that nothing outlives the test:
	# an 8 KiB tmpfs holds the record file (one page, part used) and a
	# filler that takes the last page, so the next record is cut short.
	unshare -m sh -s "$T" "$LIB" "$P" "$big" <<'EOF' >full.out 2>full.err
set -u
T=$1 LIB=$2 P=$3 big=$4
mkdir -p "$T/mnt" && mount -t tmpfs -o size=8k tmpfs "$T/mnt" || exit 3
INTERLOPER_OUTPUT="$T/mnt/r.jsonl" LD_PRELOAD="$LIB" "$P" hello one >/dev/null
dd if=/dev/zero of="$T/mnt/filler" bs=4096 count=1 2>/dev/null
INTERLOPER_OUTPUT="$T/mnt/r.jsonl" LD_PRELOAD="$LIB" "$P" hello "$big" >/dev/null 2>"$T/cut.err"
echo "status $?"
rm "$T/mnt/filler"
INTERLOPER_OUTPUT="$T/mnt/r.jsonl" LD_PRELOAD="$LIB" "$P" hello three >/dev/null
cp "$T/mnt/r.jsonl" "$T/full.jsonl"
umount "$T/mnt"
EOF
	assert_eq "$(cat full.out)" "status 0" "the program whose record was cut"
	assert_match "$(grep -v '^interloper: record: ' cut.err)" \
		"^interloper: cannot write the record to $T/mnt/r.jsonl: .*ENOSPC" "the reason, once"
	assert_match "$(grep -v '^interloper: record: ' cut.err)" \
		"ENOSPC [(][^)]*[)] after [1-9][0-9]* of [1-9][0-9]* bytes; the cut line (was|could not be) ended" "how much went"
	assert_eq "$(grep -c . cut.err | tr -d ' ')" 2 "two lines: the reason and the record itself"
	fallback cut.err >fb.jsonl
	assert_true "the cut record, whole, on stderr" valid fb.jsonl
	assert_eq "$(nrec full.jsonl)" 3 "lines in the file: first, torn, third"
	"$B/libexec/interloper-record" validate full.jsonl 2>val.err
	assert_eq "$(cut -d: -f3 val.err | tr '\n' ' ')" "2 " "only the torn line is malformed"
	assert_eq "$(sed -n 3p full.jsonl | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["argv"][2])')" \
		three "the next record stands alone"
fi

try "a writer paused half-way through its line: no blank line, no line broken, nothing glued"
# Issue 17: 67 blank lines in a shared file, when another writer's append
# paused longer than the 2 ms the library then waited before it "mended"
# what it took for a torn line.  slowappend takes the lock every writer of
# the library takes, appends half a line and pauses; the measured program
# ends meanwhile.  Its record must come after slowappend's whole line.  The
# writer is let go once the program waits for the lock (it sleeps with the
# record file open: nothing else puts it to sleep there), or has ended.
# The library waits up to 2 s for the lock, counting its own sleeps only;
# a wait of 50 of this shell's sleeps of 20 ms (1 s) outlasted it at load
# 10, where each sleep(1) took 100-180 ms: the record went to stderr.
"$PROGS/slowappend" "$T/shared.jsonl" "$T/go" >"$T/slow.out" 2>&1 &
slow=$!
i=0
while [ "$i" -lt 3000 ] && ! grep -q ready "$T/slow.out" 2>/dev/null; do
	sleep 0.02
	i=$((i + 1))
done
INTERLOPER_OUTPUT="$T/shared.jsonl" LD_PRELOAD="$LIB" "$P" hello >/dev/null 2>"$T/shared.err" &
prog=$!
# waits PID FILE: PID sleeps with FILE open, or has ended (a zombie, or gone)
waits() {
	_st=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null)
	case $_st in
	'' | Z) return 0 ;;
	S) readlink "/proc/$1/fd"/* 2>/dev/null | grep -qxF "$2" ;;
	*) return 1 ;;
	esac
}
i=0
until waits "$prog" "$T/shared.jsonl" || [ "$i" -ge 3000 ]; do
	sleep 0.02
	i=$((i + 1))
done
: >"$T/go"
wait "$prog"
assert_eq "$?" 0 "the program's status"
wait "$slow"
assert_eq "$(cat "$T/slow.out")" ready "the paused writer"
assert_eq "$(grep -c '^$' "$T/shared.jsonl")" 0 "blank lines"
assert_eq "$(nrec "$T/shared.jsonl")" 2 "lines: the paused writer's and the record"
assert_eq "$(python3 -c 'import json,sys
n=0
for l in open(sys.argv[1]):
    try:
        json.loads(l); n+=1
    except ValueError:
        pass
print(n)' "$T/shared.jsonl")" 2 "lines that are whole JSON"
assert_eq "$(grep -c '^{"schema":"interloper/1"' "$T/shared.jsonl")" 1 "the record, on a line of its own"
assert_eq "$(wc -c <"$T/shared.err" | tr -d ' ')" 0 "nothing on stderr"

try "a FIFO whose reader does not read yet: whole records, no cut line, nothing glued"
# this shell holds the FIFO open for reading on fd 3 and reads only after
# both programs ended; the first record is larger than the pipe (review
# R1, F6: 64 KiB of it went, unended, and the second record was glued on)
rm -f fifo && mkfifo fifo
exec 3<>fifo
big=$(printf '%080000d' 0)
INTERLOPER_OUTPUT="$T/fifo" LD_PRELOAD="$LIB" "$P" hello "$big" >/dev/null 2>err
INTERLOPER_OUTPUT="$T/fifo" LD_PRELOAD="$LIB" "$P" hello two >/dev/null 2>>err
dd if=fifo of=fromfifo.jsonl iflag=nonblock bs=65536 2>/dev/null
exec 3<&-
assert_eq "$(nrec fromfifo.jsonl)" 2 "records through the FIFO"
assert_true "every line a record" valid fromfifo.jsonl
assert_eq "$(jget fromfifo.jsonl '[len(x["argv"][2]) for x in r]')" "[80000, 3]" "both whole, in order"

try "an output that cannot be written is said before main, while stderr is open"
# coreutils close their stderr on the way out: a message at the end would
# be lost, and was, without a word (review R1, F5)
for o in "$T/nodir/x.jsonl" "$T"; do
	same_as_without "$o" seq 1
	assert_match "$(cat "$T/err")" "^interloper: INTERLOPER_OUTPUT=$o: (cannot be written now|is a directory)" \
		"the message for $o"
done

try "in a sticky world-writable directory a planted link is not followed"
mkdir sticky && chmod 1777 sticky
ln -s "$T/target.jsonl" sticky/r.jsonl
INTERLOPER_OUTPUT="$T/sticky/r.jsonl" LD_PRELOAD="$LIB" "$P" hello >/dev/null 2>err
assert_eq "$(nrec target.jsonl)" 0 "nothing written through the link"
assert_match "$(grep -v '^interloper: record: ' err)" "^interloper: cannot write the record to $T/sticky/r.jsonl: .*ELOOP" "the reason"
fallback err >fb.jsonl
assert_true "the record on stderr" valid fb.jsonl

try "elsewhere links are followed: a link; /dev/stderr is stderr as - is"
mkdir plain && ln -s "$T/target.jsonl" plain/r.jsonl
INTERLOPER_OUTPUT="$T/plain/r.jsonl" LD_PRELOAD="$LIB" "$P" hello >/dev/null 2>err
assert_eq "$(nrec target.jsonl)" 1 "through the link"
INTERLOPER_OUTPUT=/dev/stderr LD_PRELOAD="$LIB" "$P" hello >/dev/null 2>err
assert_true "through /dev/stderr, unprefixed" valid err

try "INTERLOPER_RUN=/dev/stdin is refused with one line; the program's stdin is its own"
echo "the program's input" >in.txt
INTERLOPER_OUTPUT="$T/r.jsonl" INTERLOPER_RUN=/dev/stdin LD_PRELOAD="$LIB" cat <in.txt >out 2>err
assert_eq "$?" 0 "status"
assert_eq "$(cat out)" "the program's input" "cat read all of its stdin"
assert_eq "$(wc -l <err | tr -d ' ')" 1 "one line"
assert_match "$(cat err)" "^interloper: INTERLOPER_RUN=/dev/stdin: not a regular file of yours" "the line"

try "a FIFO as INTERLOPER_RUN is refused at once, not waited on"
mkfifo specfifo
timeout 20 env INTERLOPER_OUTPUT="$T/r.jsonl" INTERLOPER_RUN="$T/specfifo" LD_PRELOAD="$LIB" "$P" hello >out 2>err
assert_eq "$?" 0 "status (124 would be a hang)"
assert_match "$(cat err)" "^interloper: INTERLOPER_RUN=$T/specfifo: not a regular file of yours" "the line"

try "a relative INTERLOPER_RUN is refused with the same ending as every refusal"
INTERLOPER_OUTPUT="$T/r.jsonl" INTERLOPER_RUN=spec LD_PRELOAD="$LIB" "$P" hello >out 2>err
assert_eq "$(wc -l <err | tr -d ' ')" 1 "one line"
assert_match "$(cat err)" "^interloper: INTERLOPER_RUN=spec: not an absolute path.*; the record goes to INTERLOPER_OUTPUT, without labels$" "the line"

try "a spec's set lines are the library's settings, read by its table, over the environment"
printf 'interloper-run/1\npid 0\noutput %s/set.jsonl\nsummary 0\nlabels {"a":"b"}\nset INTERLOPER_STACK_OFFSET=4096\nset INTERLOPER_HEAP_OFFSET=2k\nset INTERLOPER_EVENTS=page-faults\n' "$T" >setspec
INTERLOPER_STACK_OFFSET=32 INTERLOPER_EVENTS=task-clock INTERLOPER_RUN="$T/setspec" LD_PRELOAD="$LIB" "$P" hello >out 2>err
assert_eq "$?" 0 "status"
assert_eq "$(cat err)" "" "nothing said"
assert_eq "$(jget set.jsonl 'r[-1]["setup"]["stack_offset_requested"], r[-1]["setup"]["heap_offset_requested"], list(r[-1]["events"])')" \
	"(4096, 2048, ['page-faults'])" "the spec's offsets and events, not the environment's"

try "a bad value in a spec's set line: one line in the variable's words; strict stops before main"
printf 'interloper-run/1\npid 0\noutput %s/bad.jsonl\nsummary 0\nlabels {}\nset INTERLOPER_STRICT=1\nset INTERLOPER_STACK_OFFSET=lots\n' "$T" >badspec
INTERLOPER_RUN="$T/badspec" LD_PRELOAD="$LIB" "$P" hello >out 2>err
assert_eq "$?" 127 "status: strict, from the spec"
assert_eq "$(cat out)" "" "main never ran"
assert_eq "$(grep -c '^interloper: INTERLOPER_STACK_OFFSET=lots: not a byte count' err)" 1 "the line"
assert_eq "$(wc -l <err | tr -d ' ')" 2 "and the stop, nothing else"
printf 'interloper-run/1\npid 0\noutput %s/bad.jsonl\nsummary 0\nlabels {}\nset INTERLOPER_NOPE=1\nset INTERLOPER_RUN=/x\n' "$T" >badspec
INTERLOPER_RUN="$T/badspec" LD_PRELOAD="$LIB" "$P" hello >out 2>err
assert_eq "$?" 0 "status: not strict"
assert_eq "$(grep -c '^interloper: INTERLOPER_NOPE=1: in the run spec, a setting this library does not know: it is older than the interloper command that wrote the spec; expected the library of that build (INTERLOPER_LIBRARY)$' err) $(grep -c '^interloper: INTERLOPER_RUN=/x: unknown variable' err)" "1 1" \
	"an unknown name (a library older than the command: review11c LOW-5), and one a spec cannot set, are one line each"

try "a spec file owned by someone else is refused"
if [ "$(id -u)" -ne 0 ]; then
	skip "needs root to give the spec file to another user"
else
	printf 'interloper-run/1\npid 0\noutput %s/stolen.jsonl\nsummary 0\nlabels {}\n' "$T" >spec
	chown 65534 spec
	INTERLOPER_OUTPUT="$T/r.jsonl" INTERLOPER_RUN="$T/spec" LD_PRELOAD="$LIB" "$P" hello >out 2>err
	assert_eq "$(nrec stolen.jsonl)" 0 "its output is not used"
	assert_match "$(cat err)" "INTERLOPER_RUN=$T/spec: not a regular file of yours" "the line"
fi

# Standard error is the file descriptor 2 was when the program started,
# and nothing else (outside13 F2): a program that closes 1 and 2 and opens
# files of its own gets them as 1 and 2, and a program started with 2
# closed gets its first file as 2; the library's lines (a warning, the
# record that has nowhere else to go, interloper run's summary) must never
# land in them.
try "a program's own file at descriptor 2: none of the library's lines in it"
rm -f d1.txt d2.txt
INTERLOPER_OUTPUT=/dev/full LD_PRELOAD="$LIB" "$PROGS/reopen12" close
assert_eq "$?" 0 "status"
assert_eq "$(cat d1.txt)" "data1 fd 1" "the file at 1"
assert_eq "$(cat d2.txt)" "data2 fd 2" "the file at 2: the program's line alone"
for out in /dev/stderr /dev/fd/2; do
	rm -f d1.txt d2.txt
	INTERLOPER_OUTPUT=$out LD_PRELOAD="$LIB" "$PROGS/reopen12" close
	assert_eq "$(cat d2.txt)" "data2 fd 2" "INTERLOPER_OUTPUT=$out: the record is not in the file at 2 (review13c M2)"
done

try "started with stderr closed: the program's file at 2 gets no summary, warning or record"
rm -f out.txt fo.jsonl
"$IL" run -e task-clock -o "$T/fo.jsonl" -- "$PROGS/reopen12" fopen 2>&-
assert_eq "$?" 0 "status"
assert_eq "$(cat out.txt)" "result 42 fd 2" "the program's file: its line alone"
assert_eq "$(nrec fo.jsonl)" 1 "the record, in the results file"
rm -f out.txt
INTERLOPER_OUTPUT=/dev/full LD_PRELOAD="$LIB" "$PROGS/reopen12" fopen 2>&-
assert_eq "$(cat out.txt)" "result 42 fd 2" "the file, the record with nowhere to go"

try "stderr left as it was: the warning and the record are still said there"
INTERLOPER_OUTPUT=/dev/full LD_PRELOAD="$LIB" "$PROGS/reopen12" fopen 2>err
assert_match "$(cat err)" "cannot write the record to /dev/full" "the warning"
assert_eq "$(grep -c '^interloper: record: {' err)" 1 "the record"

# The record file is opened at the end at the lowest free descriptor: in a
# program that closed its stdout while another thread goes on writing to
# fd 1, that thread's bytes must never land in the record file.  The test
# variant of the library holds the writer 300 ms right after the open
# (IL_TEST_DELAY=record_open), where the other thread writes thousands of
# times: the writer's descriptor table is its own (unshare), so every one
# of those writes fails as without the library.
for how in return exit _exit; do
	try "stdout closed, another thread writing to fd 1 as main ${how}s: nothing of it in the record file"
	rm -f stray.jsonl
	IL_TEST_DELAY=record_open:300 INTERLOPER_OUTPUT="$T/stray.jsonl" \
		LD_PRELOAD="$B/tests/libinterloper-delay.so" "$PROGS/strayout" "$how" 2>err
	assert_eq "$?" 0 "status"
	assert_eq "$(grep -c "^stray" stray.jsonl)" 0 "the thread's bytes in the record file"
	assert_eq "$(nrec stray.jsonl)" 1 "one record"
	assert_true "the record file is valid" valid stray.jsonl
done

done_testing
