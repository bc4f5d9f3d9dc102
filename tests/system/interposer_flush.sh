#!/bin/sh
# The program's output still in stdio's buffer when it ends: glibc's
# flush at exit writes it, and that write is the program's, on a
# descriptor it controls.  With the library, SIGPIPE and SIGTERM during
# that flush end the process as they would without it, and another
# thread's _exit is not kept waiting behind it (review R1, F1 and F2).
# timeout: 120
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
F="$PROGS/flushexit"
cd "$T" || exit 1

exit_of() { # exit_of FILE: how, status and signal of the only record, and if it is certain
	jget "$1" '[len(r)] + [r[0]["exit"].get(k) for k in ("how", "status", "signal", "certain")]'
}

try "SIGPIPE from the flush at exit: the process dies of it, and the record says so"
same_as_without r1.jsonl "$F" sigpipe
assert_eq "$rc0" 141 "without the library (SIGPIPE)"
assert_eq "$(exit_of r1.jsonl)" '[1, "signal", null, 13, true]' "the record"

try "a wide-oriented stdout (wprintf): SIGPIPE from the flush at exit is recorded too"
# issue 17: the library left wide streams to glibc's final flush, after a
# record that said "return" with status 0, in 50 of 50 runs
same_as_without r5.jsonl "$F" wsigpipe
assert_eq "$rc0" 141 "without the library (SIGPIPE)"
assert_eq "$(exit_of r5.jsonl)" '[1, "signal", null, 13, true]' "the record"

try "another thread holds stdout's lock at exit: the record says it cannot be certain"
# The flush before the record cannot take the stream; glibc's final flush
# writes it after the record, ignoring the lock, and dies of SIGPIPE.
same_as_without r6.jsonl "$F" lockedpipe
assert_eq "$rc0" 141 "without the library (SIGPIPE)"
assert_eq "$(exit_of r6.jsonl)" '[1, "return", 0, 0, false]' "the record: the return, and not certain"

# into_unread SECS OUT ARGS...: the program with stdout a pipe that is
# never read (a FIFO whose read end this shell holds on fd 3 and does not
# read), so that its final flush blocks for good, under timeout(1): SIGTERM
# after SECS, SIGKILL 10 s later.  Without the library (rc0), then with it
# (rc, records to OUT; sh execs the program, so that only it is preloaded).
into_unread() {
	_s=$1 _o=$2
	shift 2
	for _lib in "" "$LIB"; do
		rm -f fifo
		mkfifo fifo
		exec 3<>fifo
		# shellcheck disable=SC2016 # expanded by the inner sh
		timeout -k 10 "$_s" sh -c 'o=$1 l=$2; shift 2; INTERLOPER_OUTPUT=$o LD_PRELOAD=$l exec "$0" "$@"' \
			"$F" "$_o" "$_lib" "$@" >fifo
		_rc=$?
		exec 3<&-
		if [ -z "$_lib" ]; then rc0=$_rc; else rc=$_rc; fi
	done
}

try "SIGTERM while the flush at exit blocks: the process dies of it, as without the library"
into_unread 3 "$T/r2.jsonl" big
assert_eq "$rc0" 124 "without the library: timeout's SIGTERM ends it"
assert_eq "$rc" "$rc0" "with the library (137: it ignored SIGTERM and needed SIGKILL)"
assert_eq "$(exit_of r2.jsonl)" '[1, "signal", null, 15, true]' "the record"

try "another thread's _exit while the flush at exit blocks: it ends the process"
into_unread 30 "$T/r3.jsonl" watchdog 3
assert_eq "$rc0" 3 "without the library"
assert_eq "$rc" "$rc0" "with the library (137: it hung until timeout(1) killed it)"
assert_eq "$(exit_of r3.jsonl)" '[1, "_exit", 3, 0, true]' "the record"

try "a buffered program that ends normally: output, status and one record as before"
same_as_without r4.jsonl "$F" big
assert_eq "$(exit_of r4.jsonl)" '[1, "return", 0, 0, true]' "the record"

done_testing
