#!/bin/sh
# Real programs already on the system: stdout byte-identical and the same
# exit status or signal with and without the library, and one valid record
# per process image.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1
seq 1 20000 >input.txt
# the interpreter itself, not a wrapper script in front of it (pyenv)
PY=$(python3 -c 'import sys; print(sys.executable)')

prog() {
	_what=$1
	shift
	try "$_what: same stdout and status, valid records"
	rm -f r.jsonl
	same_as_without r.jsonl "$@"
	assert_true "records valid" valid r.jsonl
	assert_ne "$(nrec r.jsonl)" 0 "at least one record"
}

# shellcheck disable=SC2016 # $0 is for the inner shell
prog "sh with a status" sh -c 'echo hello; printf "%s\n" "$0" x; exit 3'
prog "sh killed by a signal" sh -c 'echo before; kill -TERM $$; echo after'
prog "gzip round trip" sh -c 'gzip -c <input.txt | gzip -dc | tail -n 3'
prog "gzip of a missing file" gzip -c /nonexistent/file
prog "python3 output" "$PY" -c 'import sys; print(sum(range(100000))); print(sys.argv)'
prog "python3 exit status" "$PY" -c 'import sys; sys.exit(5)'
prog "python3 sees the same signal dispositions" "$PY" -c '
import signal
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE, signal.SIGSEGV, signal.SIGUSR1):
    print(s, signal.getsignal(s))'
prog "python3 dies of SIGTERM" "$PY" -c 'import os, signal; os.kill(os.getpid(), signal.SIGTERM)'
prog "python3 subprocess tree" "$PY" -c '
import subprocess
print(subprocess.run(["sort", "-rn", "input.txt"], capture_output=True).stdout[:20])
print(subprocess.run(["sh", "-c", "exit 4"]).returncode)'
prog "sort | uniq | wc" sh -c 'sort -r input.txt | uniq | wc -l'
prog "yes | head (SIGPIPE in a pipeline)" sh -c 'yes | head -n 5'

try "python3: one record per image in its subprocess tree"
rm -f r.jsonl
with_lib r.jsonl "$PY" -c 'import subprocess; subprocess.run(["true"]); subprocess.run(["sh", "-c", "true"])'
assert_eq "$(jget r.jsonl 'sorted(x["argv"][0] for x in r)')" "[\"$PY\", \"sh\", \"true\"]" "images"

done_testing
