#!/bin/sh
# A library whose constructor runs before interloper's: its calls to our
# hooks work, and its choices survive.  LD_PRELOAD="ours theirs" makes
# theirs initialise first (the tests check that it did).
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
E="$PROGS/exitpaths"
EARLY="$PROGS/libearly.so"
cd "$T" || exit 1

early() {
	_m=$1
	shift
	rm -f r.jsonl
	EARLY_MODE=$_m INTERLOPER_DEBUG=1 INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB $EARLY" "$@" >out 2>err
	rc=$?
	EARLY_MODE=$_m LD_PRELOAD="$EARLY" "$@" >out0 2>/dev/null
	rc0=$?
}

try "the early constructor runs first"
early none "$E" return 0
assert_eq "$(grep -n -e 'early constructor' -e 'debug.*constructor' err | head -n 1 | cut -d: -f2-)" \
	"early constructor" "first line of the two"
assert_eq "$(nrec r.jsonl)" 1 "records"

try "exit() in the early constructor: one record saying it ended before main"
early exit "$E" return 0
assert_eq "$rc" "$rc0" "status"
assert_eq "$rc" 7 "status"
assert_eq "$(nrec r.jsonl)" 1 "records"
assert_true "valid" valid r.jsonl
assert_match "$(jget r.jsonl 'r[0]["errors"][0]')" "before main" "error"
assert_eq "$(jget r.jsonl '[r[0]["exit"][k] for k in ("how", "status", "certain")]')" \
	'["exit", 7, false]' "exit 7, and not certain: glibc's exit and its handlers run after the record"

try "exit() in the early constructor, whose handler closes a pipe that a thread reads to its end: as without the library"
# review10h (high, since 1c9a596): the handler ran after the record in the
# ender, which had taken a descriptor table of its own; the reader never
# saw the close and waited for good (137).
rm -f r.jsonl
EARLY_MODE=exit_pipe INTERLOPER_OUTPUT=r.jsonl timeout -s KILL 60 env LD_PRELOAD="$LIB $EARLY" "$E" return 0 >/dev/null 2>&1
assert_eq "$?" 7 "status (137: hung)"
assert_eq "$(nrec r.jsonl)" 1 "records"

try "exit() in the early constructor, then two more threads in exit(): as without the library"
# review7 finding 1: the early exit() claims the ending but runs glibc's
# exit (and the handlers) itself; its handler waits for a third thread in
# exit(), which the library held for good: a hang.  libearly's exit3 parks
# a second thread in a handler first, so that the third is the third.
EARLY_MODE=exit3 timeout 60 env LD_PRELOAD="$EARLY" "$E" return 0 >/dev/null 2>&1
rc0=$?
if [ "$rc0" -ne 12 ]; then
	skip "without the library the third exit() does not end the process (status $rc0; glibc 2.41 and later stop it)"
else
	rm -f r.jsonl
	EARLY_MODE=exit3 INTERLOPER_OUTPUT=r.jsonl timeout 60 env LD_PRELOAD="$LIB $EARLY" \
		"$E" return 0 >/dev/null 2>&1
	assert_eq "$?" 12 "status: the third thread's (124: hung)"
	assert_eq "$(nrec r.jsonl)" 1 "records"
	assert_match "$(jget r.jsonl 'r[0]["errors"][0]')" "before main" "error"
	assert_eq "$(jget r.jsonl 'r[0]["exit"]["certain"]')" false \
		"certain (the record says exit 7; the third thread's 12 ended it)"
fi

# review of session 9: after an early exit(), another thread's _exit or
# exec waited for good for the early thread to end the process, while the
# early thread's handler waited for it (pthread_join): a hang.  Without the
# library the other thread's ending ends the process; with it too, past the
# early record, which says it is not certain.
for m in exit_exit_:9 exit_exec:13; do
	st=${m#*:} m=${m%:*}
	try "exit() in the early constructor, whose handler waits for a thread that ends the process ($m): as without the library"
	EARLY_MODE=$m timeout 60 env LD_PRELOAD="$EARLY" "$E" return 0 >out0 2>/dev/null
	assert_eq "$?" "$st" "status without the library"
	rm -f r.jsonl
	EARLY_MODE=$m INTERLOPER_OUTPUT=r.jsonl timeout 60 env LD_PRELOAD="$LIB $EARLY" \
		"$E" return 0 >out 2>/dev/null
	assert_eq "$?" "$st" "status with the library (124: hung)"
	assert_eq "$(cat out)" "$(cat out0)" "stdout"
	assert_eq "$(nrec r.jsonl)" 1 "records (the early one; the new image of exit_exec has no LD_PRELOAD)"
	assert_eq "$(jget r.jsonl '[r[0]["exit"][k] for k in ("how", "status", "certain")]')" \
		'["exit", 7, false]' "the early record, not certain"
done

try "_exit() in the early constructor: one record"
early _exit "$E" return 0
assert_eq "$rc" 8 "status"
assert_eq "$(jget r.jsonl 'r[0]["exit"]["how"]')" _exit "how"

try "fork in the early constructor: no record for the child, one for the program"
early fork "$E" return 5
assert_eq "$rc" 5 "status"
assert_eq "$(nrec r.jsonl)" 1 "records"
assert_eq "$(jget r.jsonl 'r[0]["exit"]["how"]')" return "how"

try "a fork in the program's constructor: both processes reach main and each is measured"
rm -f r.jsonl
same_as_without r.jsonl "$PROGS/ctorfork"
assert_eq "$rc" 5 "the parent's status"
assert_eq "$(nrec r.jsonl)" 2 "records"
assert_eq "$(jget r.jsonl 'sorted(x["exit"]["status"] for x in r)')" "[4, 5]" "one per process"
assert_eq "$(jget r.jsonl 'all(x["events"]["task-clock"]["value"] > 0 for x in r)')" true "both counted"

try "a SIGTERM handler set in the early constructor stays the program's"
early signal "$E" raise 15
assert_eq "$rc" "$rc0" "status"
assert_eq "$(cat out)" "$(cat out0)" "stdout"
assert_match "$(cat out)" "early handler ran" "the early handler ran"
assert_eq "$(jget r.jsonl 'r[0]["exit"]["how"]')" return "the program went on to return"

try "SIGINT ignored by the early constructor stays ignored"
early ignore "$E" raise 2
assert_eq "$rc" "$rc0" "status"
assert_eq "$rc" 99 "the program survived its SIGINT"

# onexit MODE STATUS: EARLY_MODE=MODE's on_exit handler (registered before
# our constructor, run after the library's own entries, past the record)
# with and without the library: the status (137: hung), stdout, one record
# that says main returned and that it is not certain of the ending
onexit() {
	EARLY_MODE=$1 timeout 60 env LD_PRELOAD="$EARLY" "$E" return 0 >out0 2>/dev/null
	assert_eq "$?" "$2" "status without the library"
	rm -f r.jsonl
	EARLY_MODE=$1 INTERLOPER_OUTPUT=r.jsonl timeout -s KILL 60 \
		env LD_PRELOAD="$LIB $EARLY" "$E" return 0 >out 2>/dev/null
	assert_eq "$?" "$2" "status with the library (137: hung)"
	assert_eq "$(cat out)" "$(cat out0)" "stdout"
	assert_eq "$(nrec r.jsonl)" 1 "records"
	assert_eq "$(jget r.jsonl '[r[0]["exit"][k] for k in ("how", "status", "certain")]')" \
		'["return", 0, false]' "main's return, not certain: the handler runs past the record"
}

try "an exit handler registered before our constructor joins a thread that writes: as without the library"
# review9c: session 9's d5948b4 held every writable stream from exit's
# record to the end; this handler (on_exit, run after the library's own
# entries) stops a worker that then writes to stdout, and the worker
# waited for good for the held lock: a hang in every run (137 under
# timeout's SIGKILL; its SIGTERM went unheard).
onexit onexit_worker 0
assert_match "$(cat out)" "worker: goodbye" "the worker's line"

try "an exit handler registered before our constructor waits for a thread's _exit: as without the library"
# The handler waited for good for the worker, whose _exit waited for good
# for exit's ender, signals blocked: a hang deaf to SIGTERM (137), past a
# record saying return 0 and certain.  Now the worker's _exit ends the
# process, and the stdout of the run without the library (the program's
# output never flushed) is the same: no early flush before the handler.
onexit onexit_exit_ 5

try "an exit handler registered before our constructor waits for a thread that takes stdio's list lock: as without the library"
# review10f (1c9a596, high): the handler ran after the record with the
# list lock still held by exit's ender (held to the end since session 7),
# which glibc does not hold while it runs handlers: a worker's fopen, or
# its exit()'s final flush, waited for good (137).  The list lock is let
# go after the record where such a handler is to run.
onexit onexit_fopen 0
onexit onexit_exit 9

try "an exit handler registered before our constructor closes a pipe that a thread reads to its end: as without the library"
# review10g (high, since 1c9a596): the handler ran after the record in the
# ender, which had taken a descriptor table of its own to write the
# record; the close did not reach the reader's table, and the reader
# waited for good (137).  Where such a handler is to run, the record's
# descriptor is moved up instead, as for an exec.
onexit onexit_pipe 0

done_testing
