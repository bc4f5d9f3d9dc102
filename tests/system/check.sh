#!/bin/sh
# isolate: net
# interloper check: the machine judged, one line a fact; the same findings
# at a sweep's start, in its machine line; interloper report's warning
# when a sweep's machine lines say the runs shared the machine.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1

try "interloper check: one line for each fact, what is wrong and how to fix it; status 2 with a problem"
sh "$IL" check >out 2>err
rc=$?
assert_eq "$(cat err)" "" "nothing on stderr"
assert_match "$(head -1 out)" "^machine .*: .*, [0-9]+ CPUs online, " "the machine named"
for c in load governor boost smt steal thp paranoid aslr hold; do
	assert_eq "$(grep -cE "^  (ok|note|PROBLEM) +$c " out)" 1 "one line for $c"
done
np=$(grep -c '^  PROBLEM ' out)
if [ "$np" -gt 0 ]; then
	assert_eq "$rc" 2 "status with $np problems"
	assert_match "$(tail -1 out)" "^$np problems?: measurements here may be disturbed$" "the count"
else
	assert_eq "$rc" 0 "status with none"
	assert_eq "$(tail -1 out)" "nothing wrong found" "the last line"
fi

try "interloper check --json gives the same findings, with the machine's state"
sh "$IL" check --json >j.json
out=$(python3 - <<'PY'
import json
j = json.load(open("j.json"))
text = [l.split(None, 2) for l in open("out") if l.startswith("  ")]
# the checks in the same order (their levels may differ: the machine's
# load moves between the two runs)
same = [f["check"] for f in j["findings"]] == [t[1] for t in text]
levels = {f["level"] for f in j["findings"]} <= {"ok", "note", "problem"}
print(j["tool"], same and levels, "loadavg" in j["machine"])
PY
)
assert_eq "$out" "check True True" "tool, findings, machine"

try "a bad argument to interloper check is one line"
sh "$IL" check --frob >/dev/null 2>err
assert_eq "$?:$(cat err)" "1:interloper check: unknown option --frob; see interloper check --help" "status and message"

try "a sweep judges the machine at its start and keeps the findings in its machine line"
mkdir -p bin/A && cp /bin/true bin/A/true
sh "$IL" sweep --seed 1 --reps 1 --system A=bin/A/true --output s.jsonl >/dev/null 2>err
out=$(python3 - <<'PY'
import json
for l in open("s.jsonl"):
    j = json.loads(l)
    if j.get("kind") == "machine" and j.get("when") == "start":
        print(sorted({f["check"] for f in j["findings"]}))
        print("\n".join(f["text"] for f in j["findings"] if f["level"] == "problem"))
PY
)
assert_eq "$(printf '%s\n' "$out" | head -1)" "['boost', 'governor', 'load', 'paranoid', 'smt', 'steal', 'thp']" \
	"the checks of a sweep (it turns ASLR off and holds the switches itself)"
problems=$(printf '%s\n' "$out" | sed 1d)
if [ -n "$problems" ]; then
	assert_eq "$(grep -c '^interloper sweep: machine: ' err)" "$(printf '%s\n' "$problems" | wc -l)" \
		"each problem said once on stderr"
else
	assert_eq "$(grep -c 'machine:' err)" 0 "no problem, nothing said"
fi

try "interloper report warns when a sweep's machine lines say the machine was disturbed"
m() { # plan when load cpus steal all
	printf '{"schema":"interloper-sweep/1","kind":"machine","plan":"%s","when":"%s","machine":{"cpus_online":"%s","loadavg":[%s,1,1],"steal_ticks":%s,"all_ticks":%s}}\n' \
		"$1" "$2" "$4" "$3" "$5" "$6"
}
r() {
	printf '{"schema":"interloper/1","labels":{"system":"%s"},"events":{},"times":{"wall_ns":%s}}\n' "$1" "$2"
}
{
	m p1 start 11.5 0-1 100 10000
	r A 100
	r A 101
	r A 102
	m p1 end 0.5 0-1 150 11000
} >busy.jsonl
sh "$IL" report busy.jsonl >/dev/null 2>err
assert_match "$(cat err)" "warning: the machine was disturbed while the records were measured: plan p1 at the start: load average 11.50 on 2 CPUs; plan p1: the hypervisor took 5.0% of the CPUs' time \(steal\) during the sweep; runs were slowed at random: measure again on a quiet machine \(interloper check says what else is wrong\) \[disturbed\]" \
	"load above the CPUs, steal"
{
	m p2 start 1.5 0-1 100 10000
	r A 100
	r A 101
	r A 102
	m p2 end 0.5 0-1 105 11000
} >quiet.jsonl
sh "$IL" report quiet.jsonl >/dev/null 2>err
assert_eq "$(grep -c disturbed err)" 0 "load below the CPUs, 0.5% steal: no warning"

try "a merged file's [disturbed] warning names the host of each shard's lines"
# outside13: two shards of one plan on two hosts said "plan P at the
# start: load ...; plan P at the start: load ..." without saying where,
# and a shard's start was paired with the other's end for the steal
mh() { # host plan when load steal all
	printf '{"schema":"interloper-sweep/1","kind":"machine","plan":"%s","when":"%s","machine":{"host":"%s","cpus_online":"0-1","loadavg":[%s,1,1],"steal_ticks":%s,"all_ticks":%s}}\n' \
		"$2" "$3" "$1" "$4" "$5" "$6"
}
{
	mh node2 p3 start 4.44 5000 20000
	mh vm p3 start 4.61 100 10000
	r A 100
	r A 101
	mh node2 p3 end 0.5 5005 21000
	r A 102
	mh vm p3 end 0.5 105 11000
} >merged.jsonl
sh "$IL" report merged.jsonl >/dev/null 2>err
assert_match "$(cat err)" "records were measured: plan p3 at the start on node2: load average 4.44 on 2 CPUs; plan p3 at the start on vm: load average 4.61 on 2 CPUs; runs were slowed" \
	"each shard's load, with its host"
assert_eq "$(grep -c 'hypervisor' err)" 0 "each end paired with its own host's start: 0.5% steal each, no warning"

done_testing
