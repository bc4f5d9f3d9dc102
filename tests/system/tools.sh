#!/bin/sh
# The front command and the small tools: interloper, events, record.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1

try "interloper --help lists the subcommands"
out=$(sh "$IL" --help)
for sub in run link build events report plan plot; do
	assert_match "$out" "^  $sub " "$sub listed"
done

try "interloper --lib prints the library for LD_PRELOAD"
assert_eq "$(sh "$IL" --lib)" "$LIB" "path"

try "an unknown subcommand is one clear line and status 1"
sh "$IL" frobnicate >out 2>err
assert_eq "$?" 1 "status"
assert_eq "$(cat err)" "interloper: unknown subcommand 'frobnicate'; see interloper --help" "message"

try "a subcommand that is there but cannot be executed (noexec mount, lost mode) is said so (outside13 F4)"
mkdir -p nx/scripts nx/build/libexec
cp "$IL" nx/scripts/interloper
cp "$B/libexec/interloper-run" nx/build/libexec/interloper-run
chmod 644 nx/build/libexec/interloper-run
sh nx/scripts/interloper run -- /bin/true >out 2>err
assert_eq "$?" 1 "status"
assert_eq "$(cat err)" "interloper: cannot execute $T/nx/scripts/../build/libexec/interloper-run: it is not executable here (its mode, or a file system mounted noexec); build or install interloper where programs may run" "message"

try "interloper events names each backend and whether it works"
sh "$IL" events >out 2>err
assert_eq "$?" 0 "status"
assert_match "$(cat out)" "^  perf   " "perf"
assert_match "$(cat out)" "^  papi   " "papi"
assert_match "$(cat out)" "^  none   works" "none"
assert_match "$(cat out)" "perf_event_paranoid=[-0-9]+" "paranoid level"
if ! have_pmu; then
	assert_match "$(cat out)" "hardware events: no \(not supported here \(no hardware PMU" "why no hardware events"
fi

try "interloper events resolves names to a backend and an encoding"
sh "$IL" events --json task-clock perf::PAGE-FAULTS cycles:u >ev.json
assert_eq "$(python3 -c 'import json; e=json.load(open("ev.json"))["events"]; print(e[0]["backend"], e[0]["via"], e[0]["type"], e[0]["config"], e[0]["opens"])')" \
	"perf generic 1 0x1 True" "task-clock"
assert_eq "$(python3 -c 'import json; e=json.load(open("ev.json"))["events"]; print(e[1]["via"], e[1]["config"])')" \
	"libpfm4 0x2" "perf::PAGE-FAULTS through libpfm4"
assert_eq "$(python3 -c 'import json; e=json.load(open("ev.json"))["events"]; print(e[2]["exclude_kernel"])')" True "cycles:u"

try "interloper events: an unknown name is an error with the reason"
sh "$IL" events no-such-event >out 2>err
assert_eq "$?" 1 "status"
assert_match "$(cat out)" "no-such-event +unresolved: unknown event" "reason"

try "interloper events: an unknown option is one line"
sh "$IL" events --frob >out 2>err
assert_eq "$?" 1 "status"
assert_eq "$(cat err)" "interloper events: unknown option --frob; see interloper events --help" "message"

try "interloper record validate names the bad line"
printf '{"schema":"interloper/1"}\nnot json\n' >bad.jsonl
sh "$IL" record validate bad.jsonl 2>err
assert_eq "$?" 1 "status"
assert_match "$(head -n 1 err)" "bad.jsonl:1: not an interloper/1 record: version" "first bad line"
assert_match "$(tail -n 1 err)" "bad.jsonl:2: not an interloper/1 record" "second bad line"

try "interloper record label adds labels and keeps everything else"
INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" /bin/true
sh "$IL" record label bench=true system=O2 <r.jsonl >l.jsonl
assert_true "valid" valid l.jsonl
assert_eq "$(jget l.jsonl 'r[0]["labels"]')" '{"bench": "true", "system": "O2"}' "labels"
assert_eq "$(jget l.jsonl 'r[0]["events"]')" "$(jget r.jsonl 'r[0]["events"]')" "events unchanged"
sh "$IL" record label 'bad key=1' <r.jsonl >/dev/null 2>err
assert_eq "$?" 1 "status for a bad key"
assert_match "$(cat err)" "key 'bad key' must be" "message"

try "the library's summary and interloper record summary say the same, in the same words"
rm -f s.jsonl
sh "$IL" run --output "$T/s.jsonl" -- /bin/echo hi >/dev/null 2>lib.txt
sh "$IL" record summary s.jsonl 2>tool.txt
assert_match "$(cat lib.txt)" "Performance counter stats for '/bin/echo hi'" "the library printed one"
assert_eq "$(cat tool.txt)" "$(cat lib.txt)" "the two summaries"

try "interloper record summary prints a perf-stat-like summary"
sh "$IL" record summary r.jsonl 2>err
assert_match "$(cat err)" "Performance counter stats for '/bin/true'" "header"
assert_match "$(cat err)" "seconds time elapsed" "time"

try "the dependency step, not as root, names the exact apt-get line and stops"
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
	skip "needs root (to become another user) and setpriv"
else
	# the script on stdin: the tree may not be readable by that user
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups sh -s gzip zz-no-such-package \
		<"$TOP/scripts/deps.sh" 2>&1)
	assert_eq "$?" 1 "status"
	assert_match "$out" "run as root: apt-get install -y zz-no-such-package$" "the line"
	assert_eq "$(printf '%s\n' "$out" | grep -c gzip)" 0 "installed packages are not named"
fi

try "interloper hold runs the command and ends as it ended"
sh "$IL" hold -- sh -c 'exit 3'
assert_eq "$?" 3 "status"
sh "$IL" hold sh -c 'kill -TERM $$' 2>/dev/null
assert_eq "$?" 143 "death by the command's signal"
sh "$IL" hold -- /nonexistent/cmd 2>err
assert_eq "$?" 127 "a missing command"
assert_match "$(cat err)" "^interloper hold: cannot execute /nonexistent/cmd" "message"

try "measurements under interloper hold count the same events"
rm -f h.jsonl
sh "$IL" hold env INTERLOPER_OUTPUT="$T/h.jsonl" INTERLOPER_EVENTS=page-faults LD_PRELOAD="$LIB" \
	"$PROGS/probe" touch 8 >/dev/null
assert_eq "$(jget h.jsonl 'r[0]["events"]["page-faults"]["value"] >= 2048')" true "8 MiB of faults counted"

done_testing
