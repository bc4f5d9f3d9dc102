# tests/lib.sh: sourced by every tests/system/*.sh.  POSIX sh.
#
#   try "what this checks"     start a test case
#   assert_eq ACTUAL EXPECTED "what"
#   assert_ne ACTUAL UNEXPECTED "what"
#   assert_match TEXT ERE "what"
#   assert_true "what" CMD [ARGS...]     passes when CMD exits 0
#   skip "reason"              the current case cannot run here; says why
#
# A case passes when it made at least one assertion and none failed.
# Results go to $IL_RESULTS, one line each: pass|fail|skip, name, detail.
# The runner (tests/run) prints the summary.

set -u
TOP=${TOP:?TOP must be set by tests/run}
B="$TOP/build"
LIB=${IL_TEST_LIB:-"$B/libinterloper.so"} # IL_TEST_LIB: test another build
PROGS="$B/tests/progs"
IL="$TOP/scripts/interloper"
IL_RESULTS=${IL_RESULTS:-/dev/null}
_file=$(basename "$0" .sh)
_case=""
_failed=0
_asserts=0
_skipped=""
# awk's rand() gives other numbers for one seed in gawk than in mawk, and
# the tests' data (srand(seed) in ten scripts) and limits were drawn with
# mawk, Debian's awk: installing gawk, which becomes /usr/bin/awk, failed
# stats_passes and stats_design every time (flake11)
if command -v mawk >/dev/null 2>&1; then
	awk() { mawk "$@"; }
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/il-$_file.XXXXXX")
trap 'rm -rf "$T"' EXIT
# its canonical path: the tests compare it with what the kernel says
# (readlink of /proc/PID/fd), which resolves a TMPDIR that is a symlink
# (review11b: interposer_output failed twice so, every time)
T=$(cd "$T" && pwd -P)

_finish_case() {
	[ -n "$_case" ] || return 0
	if [ -n "$_skipped" ]; then
		printf 'skip\t%s: %s\t%s\n' "$_file" "$_case" "$_skipped" >>"$IL_RESULTS"
		printf '  skip  %s (%s)\n' "$_case" "$_skipped"
	elif [ "$_failed" -eq 0 ] && [ "$_asserts" -gt 0 ]; then
		printf 'pass\t%s: %s\t\n' "$_file" "$_case" >>"$IL_RESULTS"
		printf '  ok    %s\n' "$_case"
	else
		[ "$_asserts" -gt 0 ] || echo "    no assertion was made" >&2
		printf 'fail\t%s: %s\t\n' "$_file" "$_case" >>"$IL_RESULTS"
		printf '  FAIL  %s\n' "$_case"
	fi
	_case=""
}

try() {
	_finish_case
	_case=$1
	_failed=0
	_asserts=0
	_skipped=""
}

_fail() {
	_failed=$((_failed + 1))
	printf '    %s\n' "$*" >&2
}

assert_eq() {
	_asserts=$((_asserts + 1))
	[ "$1" = "$2" ] || _fail "${3:-}: got '$1', expected '$2'"
}

assert_ne() {
	_asserts=$((_asserts + 1))
	[ "$1" != "$2" ] || _fail "${3:-}: got '$1', expected anything else"
}

assert_match() {
	_asserts=$((_asserts + 1))
	printf '%s\n' "$1" | grep -Eq -- "$2" || _fail "${3:-}: '$1' does not match /$2/"
}

assert_true() {
	_asserts=$((_asserts + 1))
	_what=$1
	shift
	"$@" || _fail "$_what: '$*' failed"
}

skip() {
	_skipped=$1
}

# quiet_machine FILE: FILE without the lines in which interloper sweep
# says what is wrong with the machine when it starts (interloper check's
# findings), which a loaded test machine adds
quiet_machine() {
	grep -v '^interloper [a-z]*: machine: ' "$1"
}

done_testing() {
	_finish_case
}

# jget FILE EXPR: evaluate a Python expression over the records in FILE
# (a list named r) and print the result; a real JSON parser, not grep.
jget() {
	python3 - "$1" "$2" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
v = eval(sys.argv[2])
print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)
PY
}

# with_lib OUT CMD...: run CMD under the library, records to OUT; sets rc,
# stdout in $T/out, stderr in $T/err.  without_lib CMD...: the same run
# without it; sets rc0, $T/out0, $T/err0.
with_lib() {
	_o=$1
	shift
	INTERLOPER_OUTPUT=$_o LD_PRELOAD=$LIB "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

without_lib() {
	"$@" >"$T/out0" 2>"$T/err0"
	rc0=$?
}

# same_as_without OUT CMD...: run both ways; assert identical stdout and
# exit status (or signal).
same_as_without() {
	_o=$1
	shift
	with_lib "$_o" "$@"
	without_lib "$@"
	assert_eq "$rc" "$rc0" "exit status with and without the library"
	_asserts=$((_asserts + 1))
	cmp -s "$T/out" "$T/out0" || _fail "stdout differs with the library: $(diff "$T/out0" "$T/out" | head -5)"
}

# nrec FILE: number of records (lines) in FILE, 0 if it does not exist.
nrec() {
	if [ -f "$1" ]; then wc -l <"$1" | tr -d ' '; else echo 0; fi
}

# valid FILE: every line of FILE is an interloper/1 record.
valid() {
	"$B/libexec/interloper-record" validate "$1"
}

have_pmu() {
	"$B/libexec/interloper-events" --json cycles 2>/dev/null |
		python3 -c 'import json,sys; sys.exit(0 if json.load(sys.stdin)["events"][0]["opens"] else 1)'
}
