#!/bin/sh
# Every way a process image ends writes exactly one record, with the right
# ending, and the program's stdout and exit status are unchanged.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
E="$PROGS/exitpaths"
# no core files from the signal cases (not POSIX, hence the guard)
# shellcheck disable=SC3045
ulimit -c 0 2>/dev/null || true
cd "$T" || exit 1

# case MODE HOW STATUS SIGNAL [ARGS...]
check_end() {
	_mode=$1 _how=$2 _st=$3 _sig=$4
	shift 4
	try "$_mode $* ends as $_how $_st $_sig, one record, same stdout and status"
	rm -f r.jsonl
	same_as_without r.jsonl "$E" "$_mode" "$@"
	assert_eq "$(nrec r.jsonl)" 1 "records"
	assert_true "records are valid" valid r.jsonl
	assert_eq "$(jget r.jsonl 'r[0]["exit"]["how"]')" "$_how" "exit.how"
	assert_eq "$(jget r.jsonl 'r[0]["exit"]["status"]')" "$_st" "exit.status"
	assert_eq "$(jget r.jsonl 'r[0]["exit"]["signal"]')" "$_sig" "exit.signal"
}

check_end return return 3 0 3
check_end exit exit 4 0 4
check_end _exit _exit 5 0 5
check_end _Exit _exit 6 0 6
check_end error exit 7 0 7
check_end raise signal null 15 15
check_end segv signal null 11
check_end abort signal null 6
check_end sigpipe signal null 13
check_end killthread signal null 10 10
check_end sigreset signal null 15 15
check_end pthread-exit exit 0 0

# The library holds the signals programs are ended by (signals.c); one it
# leaves alone ends the process as without it, with no record, and the
# program sees the disposition it would see.
try "a signal the library does not hold (SIGVTALRM, SIGRTMIN+3) ends the process as without it"
for s in 26 37; do
	rm -f r.jsonl
	same_as_without r.jsonl "$E" raise "$s"
	assert_eq "$rc" $((128 + s)) "status of a death by signal $s"
	assert_eq "$(nrec r.jsonl)" 0 "records after signal $s"
done
rm -f r.jsonl
# python3 prints what sigaction() says, the same with the library and without
same_as_without r.jsonl python3 -c 'import signal; print(signal.getsignal(signal.SIGVTALRM), signal.getsignal(signal.SIGTERM))'

try "exit() is recorded after the program's own atexit handlers"
rm -f r.jsonl
same_as_without r.jsonl "$E" atexit-work 16
pf=$(jget r.jsonl 'r[0]["events"]["page-faults"]["value"]')
# the handler touched 4096 fresh pages after main had finished
assert_true "page-faults ($pf) include the atexit handler's 4096" [ "$pf" -ge 4096 ]

try "a child forked by an atexit handler ends through the rest of exit() with no record; the exit path asks the pid once"
# forked by the raw system call (no fork hook sees it), so only the pid
# asked after the program's handlers tells the child from the process
# measured; exit()'s hook asks nothing where one thread ends (session 15)
rm -f r.jsonl
same_as_without r.jsonl "$E" atexit-fork 7
assert_eq "$rc" 7 "status"
assert_eq "$(grep -c 'child exited 7' out)" 1 "the child ended with exit(7)'s status"
assert_eq "$(nrec r.jsonl)" 1 "records"
assert_eq "$(jget r.jsonl 'r[0]["exit"]["how"] + " " + str(r[0]["exit"]["status"])')" "exit 7" "the parent's ending"
if command -v strace >/dev/null; then
	for how in "return 0" "exit 3"; do
		# shellcheck disable=SC2086 # how is two words
		strace -e trace=getpid -o pid.trace env INTERLOPER_OUTPUT=/dev/null LD_PRELOAD="$LIB" "$E" $how >/dev/null 2>&1
		# the constructor's and main's (a fork between them, in the
		# program's constructors), and exit's after the handlers
		assert_eq "$(grep -c '^getpid' pid.trace)" 3 "getpid calls, $how"
	done
fi

try "several threads calling exit at once: one record, the status that ended the process"
rm -f r.jsonl
with_lib r.jsonl "$E" threads-exit 8
assert_eq "$(nrec r.jsonl)" 1 "records"
assert_eq "$(jget r.jsonl 'r[0]["exit"]["how"]')" exit "exit.how"
assert_eq "$(jget r.jsonl 'r[0]["exit"]["status"]')" "$rc" "recorded status is the process's"

try "exec: the old image writes its record just before, the new image its own"
rm -f r.jsonl
same_as_without r.jsonl "$E" exec /bin/echo hello
assert_eq "$(nrec r.jsonl)" 2 "records"
assert_eq "$(jget r.jsonl 'r[0]["exit"]["how"]')" exec "first record's ending"
assert_eq "$(jget r.jsonl 'r[0]["exit"]["exec"]')" /bin/echo "exec target"
assert_eq "$(jget r.jsonl 'r[1]["argv"][0]')" /bin/echo "second record is the new image"
assert_eq "$(jget r.jsonl 'r[0]["pid"] == r[1]["pid"]')" true "same pid across exec"

for how in fexecve execveat; do
	try "$how: the old image's exec record, then the new image's own"
	rm -f r.jsonl
	same_as_without r.jsonl "$E" "$how" /bin/echo hello
	assert_eq "$(nrec r.jsonl)" 2 "records"
	assert_eq "$(jget r.jsonl '[x["exit"]["how"] for x in r]')" '["exec", "return"]' "endings"
	assert_eq "$(jget r.jsonl 'r[1]["argv"][0]')" /bin/echo "the new image"
done

try "execvp searches PATH: one record per image, the path found is recorded"
rm -f r.jsonl
same_as_without r.jsonl "$E" execvp echo hi
assert_eq "$(nrec r.jsonl)" 2 "records"
assert_match "$(jget r.jsonl 'r[0]["exit"]["exec"]')" '^/.*/echo$' "exec target"

try "execvp of a file without #!: run by /bin/sh, as glibc does"
printf 'echo from a script without a shebang\n' >noshebang
chmod +x noshebang
rm -f r.jsonl
PATH="$T:$PATH" same_as_without r.jsonl "$E" execvp noshebang
assert_match "$(cat "$T/out")" "from a script without a shebang" "the script ran"
assert_eq "$(jget r.jsonl '[x["argv"][0] for x in r]')" "[\"$E\", \"/bin/sh\"]" "the images"

try "execl (variadic): one record per image, arguments passed through"
rm -f r.jsonl
same_as_without r.jsonl "$E" execl /bin/echo
assert_eq "$(nrec r.jsonl)" 2 "records"
assert_eq "$(tail -n 1 "$T/out")" "one two" "the new image's arguments"

try "a failed exec keeps counting: no record for it, one for the image"
rm -f r.jsonl
same_as_without r.jsonl "$E" execfail
assert_eq "$(nrec r.jsonl)" 1 "records"
assert_eq "$(jget r.jsonl 'r[0]["exit"]["how"]')" return "exit.how"
tc=$(jget r.jsonl 'r[0]["events"]["task-clock"]["value"]')
# the busy loop after the failed exec is counted (tens of ms of CPU)
assert_true "task-clock ($tc ns) covers the work after the failed exec" [ "$tc" -gt 5000000 ]

try "an exec that fails after its record: the final record supersedes it"
printf 'not a program\n' >noexec.bin
chmod +x noexec.bin
rm -f r.jsonl
same_as_without r.jsonl "$E" execnoexec ./noexec.bin
assert_eq "$(nrec r.jsonl)" 2 "records"
assert_eq "$(jget r.jsonl 'r[1]["exit"]["status"]')" 4 "final record's status"
assert_match "$(jget r.jsonl 'r[1]["errors"][0]')" supersedes "the final record says so"
assert_eq "$(jget r.jsonl '(r[0].get("supersedes_exec"), r[1].get("supersedes_exec"), r[0]["start"] == r[1]["start"], r[0]["argv"] == r[1]["argv"])')" \
	"(None, True, True, True)" "and marks it supersedes_exec, with the exec record's start and argv"
assert_true "records are valid" valid r.jsonl
assert_eq "$(jget r.jsonl 'r[1]["events"]["task-clock"]["value"] > r[0]["events"]["task-clock"]["value"]')" true "counting went on"

done_testing
