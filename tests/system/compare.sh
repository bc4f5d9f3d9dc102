#!/bin/sh
# interloper compare (issue 14, section 1): two programs or two shell
# commands, the setups planned and run as a sweep, the summary on stdout
# with every number interloper report's, the exports, the stopping rules,
# paths of one length arranged, and bad usage in one line.
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
mkdir -p bin/A bin/BB
cp "$PROGS/probe" bin/A/probe
cp "$PROGS/probe" bin/BB/probe
export TMPDIR="$T"

try "two programs with paths of different lengths: links of one length, the summary, --max-runs"
# --until 0.0001: two runs of one program can agree within the default 1% after the
# first batch (seen at load 13), and this case is about --max-runs ending it
il compare --seed 7 --no-check-output --setups 2 -r 2 -w 0 --max-runs 8 --until 0.0001 -o c.jsonl \
	--export-json c.json --export-markdown c.md --export-csv c.csv \
	bin/A/probe bin/BB/probe -- busy 1 >out 2>err
assert_eq "$?" 0 "status ($(tail -1 err))"
assert_match "$(cat err)" "paths differ in length" "says that the paths are evened out by links"
assert_eq "$(rj c.jsonl 'sorted({x["labels"]["system"] for x in r})')" '["A", "BB"]' \
	"the systems are named by the component where the paths differ"
assert_eq "$(rj c.jsonl 'len({len(x["argv"][0]) for x in r})'):$(rj c.jsonl 'sorted({x["argv"][0].rsplit("/", 1)[1] for x in r})')" \
	'1:["probe"]' "every run's argv[0] has one length and keeps the file name"
assert_eq "$(find . -name 'interloper-compare.*' | wc -l)" 0 "the links' directory is removed"
assert_eq "$(rj c.jsonl 'len(r)')" 8 "--max-runs 8: the first batch, 2 setups x 2 systems x 2 reps"
assert_eq "$(python3 -c 'import json, sys; print([x["command"][:3] for x in map(json.loads, open("c.jsonl")) if "command" in x])')" \
	"[['interloper', 'compare', '--seed']]" "the plan line's command is compare's, as typed (it replays)"
assert_match "$(cat out)" "ended by --max-runs 8 before --until 0.0001%" "the summary says which limit ended it"
assert_match "$(cat out)" "seed 7, plan [0-9a-f]{12}, machine " "the summary names the seed, plan and machine"
il report --json --compare system=A --setup setup c.jsonl >rep.json 2>/dev/null
v=$(python3 -c 'import json; v = json.load(open("rep.json"))["comparisons"][0]["verdict"]; print(v[:v.index("; single setups")])')
assert_match "$(cat out)" "$(printf '%s' "$v" | sed 's/[][().*+?^$|\\]/\\&/g')" "the verdict is interloper report's"
assert_eq "$(python3 -c 'import json; j = json.load(open("c.json")); print(j["schema"], j["seed"], j["records"], [s["name"] for s in j["systems"]], j["report"]["comparisons"][0]["verdict"][:20])')" \
	"interloper-compare/1 7 c.jsonl ['A', 'BB'] ${v%"${v#????????????????????}"}" "--export-json: the facts and the report"
assert_eq "$(head -1 c.csv)" "system,command,metric,unit,estimator,estimate,sd,median,min,max,n,ratio,ci_lo,ci_hi,verdict,failed,failed_why" "--export-csv's columns"
assert_eq "$(python3 -c 'import csv; r = list(csv.DictReader(open("c.csv"))); print(len(r), r[0]["system"], r[0]["ratio"], r[1]["system"], r[1]["n"])')" \
	"2 A 1 BB 4" "--export-csv: one row per program, the baseline's ratio 1"
assert_match "$(sed -n 3p c.md)" '^\| A \| bin/A/probe \| ' "--export-markdown: a table, a row per program"
assert_match "$(sed -n 1p c.md)" "^\\| System \\| Command \\| mean of the setups' means \\[[a-z]+\\] \\| SD of the runs \\[[a-z]+\\] \\| " \
	"--export-markdown: the columns say what the numbers are (outside14 F7)"

try "two shell commands: the shell alone measured in every setup and subtracted"
printf 'b\na\nc\n' >in.txt
il compare -q --seed 3 --setups 2 -r 2 -w 0 --max-runs 12 -o s.jsonl --export-csv s.csv \
	'sort in.txt' 'sort -r in.txt | sort' >out 2>err
assert_eq "$?:$(cat err)" "0:" "status, and nothing on stderr with -q"
assert_eq "$(rj s.jsonl 'sorted({x["labels"]["system"] for x in r if not x.get("counted_in")})')" \
	'["cmd1", "cmd2", "shell"]' "the two commands and the shell alone"
assert_eq "$(rj s.jsonl 'len({len(x["argv"][2]) for x in r if x["argv"][0].endswith("sh")})')" 1 \
	"the shell's argument vectors have one length (commands padded)"
assert_match "$(cat out)" "measured: sh -c COMMAND, the shell and all it runs" "says what is measured"
assert_match "$(cat out)" "subtracted from each run: the mean of its setup's runs of system=shell" "says what is subtracted"
assert_match "$(cat out)" "--subtract system=shell s.jsonl" "the full report's command subtracts it too"
assert_eq "$(cut -d, -f1 s.csv | tr '\n' ' ')" "system cmd1 cmd2 " "the shell alone is not a row of the export"

try "--keep-going: the summary and the exports say how many runs of each command failed (outside12 F16)"
# B kills itself with SIGSEGV in its 1st, 4th, 7th... run (a counter
# file): the runs left are compared, and that they are survivors is said
mkdir -p bin/K
crasher bin/K/a bin/K/b "$T/count"
il compare --keep-going --seed 3 --setups 2 -r 3 -w 1 --max-runs 16 --until 0.0001 -o k.jsonl \
	--export-json k.json --export-markdown k.md --export-csv k.csv bin/K/a bin/K/b >out 2>err
assert_eq "$?" 1 "status: runs failed"
# B's 8 runs: 2 warm-ups, 6 measured; counts 0, 3, 6 crashed, wherever they fell
fm=$(rj k.jsonl 'len([x for x in m if x.get("kind") == "failed" and "/r" in x["run"]])')
fw=$(rj k.jsonl 'len([x for x in m if x.get("kind") == "failed" and "/w" in x["run"]])')
assert_eq "$((fm + fw))" 3 "three failed lines, each SIGSEGV of B ($(rj k.jsonl '[x["run"] for x in m if x.get("kind") == "failed"]'))"
words="$fm of 6 runs failed (SIGSEGV), left out"
[ "$fw" -gt 0 ] && words="$words; and $fw warm-up run$([ "$fw" -gt 1 ] && echo s)"
[ "$fm" -eq 0 ] && words="$fw warm-up run$([ "$fw" -gt 1 ] && echo s) failed (SIGSEGV)"
assert_eq "$(grep 'failed' out | grep -v 'sd of the runs')" "  b: $words" "the summary's line"
# the failed runs are not in the numbers: counted apart (fix14a: "12 runs")
left="$((12 - fm)) runs in 2 setups (and 4 warm-up runs, left out)"
[ "$fm" -gt 0 ] && left="$((12 - fm)) runs in 2 setups (and $fm failed run$([ "$fm" -gt 1 ] && echo s) and 4 warm-up runs, left out)"
assert_eq "$(grep 'sd of the runs' out)" \
	"interloper compare: wall, mean of the setups' means ± sd of the runs, $left" \
	"the header counts the measured runs, the failed ones and the warm-ups apart (outside12 F7)"
assert_eq "$(python3 -c 'import json; j = json.load(open("k.json")); print(j["runs"], j["warmup_runs"], j["setups"])')" \
	"12 4 2" "--export-json: runs, warmup_runs, setups"
assert_eq "$(tail -n 1 k.md | grep -cF ", $left, ")" 1 "--export-markdown: the same counts"
assert_eq "$(grep -c '^  a: ' out)" 0 "no line for the command whose runs all ran"
assert_eq "$(grep '^- b:' k.md)" "- b: $words" "--export-markdown"
assert_eq "$(python3 -c 'import csv; r = list(csv.DictReader(open("k.csv"))); print([(x["system"], x["failed"], x["failed_why"]) for x in r])')" \
	"[('a', '0', ''), ('b', '$fm', '$words')]" "--export-csv: failed, failed_why"
assert_eq "$(python3 -c 'import json; j = json.load(open("k.json")); print([(s["name"], s["failed"], s["warmup_failed"], s["failed_why"]) for s in j["systems"]])')" \
	"[('a', 0, 0, {}), ('b', $fm, $fw, {'SIGSEGV': 3})]" "--export-json: each system's failed runs"
# resumed: the three failed runs retried (counts 8, 9, 10): the second
# fails again, the others are no longer failed (a run's last launch decides)
il compare --keep-going --seed 3 --setups 2 -r 3 -w 1 --max-runs 16 --until 0.0001 -o k.jsonl \
	bin/K/a bin/K/b >out 2>err
assert_match "$(grep '^  b: ' out)" '^  b: (1 of 6 runs failed \(SIGSEGV\), left out|1 warm-up run failed \(SIGSEGV\))$' \
	"resumed: the retries that ran are not counted ($(grep 'retrying' err))"

try "a program whose normal end is status 1: no numbers of failed runs; --expect-status 1 (outside13 F9)"
# grep without a match exits 1: every run fails by the driver's rule, and
# the report's own rule (a non-zero status where others exit 0) keeps them
mkdir -p bin/G/a bin/G/b
cp /bin/false bin/G/a/f
cp /bin/false bin/G/b/f
il compare --seed 3 --setups 2 -r 2 -w 0 --max-runs 8 -o g.jsonl bin/G/a/f bin/G/b/f >out 2>err
assert_eq "$?" 1 "status: a run failed"
assert_match "$(cat err)" "ended with status 1; stopping \\(--keep-going goes on\\); if 1 is its normal status, give --expect-status 1" \
	"the first failure names the option"
il compare --keep-going --seed 3 --setups 2 -r 2 -w 0 --max-runs 8 -o g.jsonl \
	--export-json g.json bin/G/a/f bin/G/b/f >out 2>err
assert_eq "$(grep -c 'sd of the runs' out)" 0 "no numbers in the summary"
assert_match "$(cat err)" "no summary: every measured run of a failed \\(status 1\\), so there are no numbers of its runs to give; if that status is its normal end, rerun with --expect-status 1 and another --output" \
	"said instead"
assert_true "no export of numbers" test ! -e g.json
il compare --expect-status 1 --seed 3 --setups 2 -r 2 -w 0 --max-runs 8 -o g.jsonl bin/G/a/f bin/G/b/f >out 2>err
assert_eq "$?:$(grep -c 'another plan' err)" "1:1" "--expect-status 1 is a plan of its own: not resumed into the failed runs' file (review13e H1)"
rm -f g.jsonl
il compare --expect-status 1 --seed 3 --setups 2 -r 2 -w 0 --max-runs 8 -o g.jsonl bin/G/a/f bin/G/b/f >out 2>err
assert_eq "$?" 0 "--expect-status 1: the runs succeed ($(tail -n 1 err))"
assert_match "$(cat out)" "b vs a: " "the summary compares them"
assert_eq "$(grep -c 'failed' out)" 0 "nothing failed"
assert_eq "$(rj g.jsonl 'len({x["labels"]["run"] for x in r})')" 8 "the plan's 8 runs"
# review13c H1: runs of the status expected are the numbers, the others
# (here status 0) left out, as the report's --expect-status leaves them
mkdir -p bin/M/a bin/M/b
# shellcheck disable=SC2016 # the $(...) is the script's, run later
printf '#!/bin/sh\n[ "$(cat "%s/mcount")" = 1 ] && { echo 0 >"%s/mcount"; exit 0; }\nexit 1\n' "$T" "$T" >bin/M/a/m
cp bin/M/a/m bin/M/b/m
chmod +x bin/M/a/m bin/M/b/m
echo 1 >mcount
il compare --expect-status 1 --keep-going --seed 3 --setups 2 -r 2 -w 0 --max-runs 8 --no-check-output \
	-o mix.jsonl bin/M/a/m bin/M/b/m >out 2>err
il report --json --compare system=a --expect-status 1 mix.jsonl >rep.json 2>/dev/null
assert_eq "$(python3 -c 'import json; print(sorted(g["n"] for g in json.load(open("rep.json"))["groups"]))')" \
	"[3, 4]" "the numbers are of the runs of status 1: one run of status 0 left out"
assert_match "$(cat out)" ": 1 of 4 runs failed \\(ended with status 0\\), left out" "and said so"
assert_match "$(tail -n 1 out)" " --expect-status 1 mix.jsonl$" "the full report's line says the rule"
il report --compare system=a --expect-status 1 mix.jsonl >rep 2>rerr
assert_match "$(cat rerr)" "1 record of a launch the sweep marked failed was left out" "the report alone leaves the same run out"
rm -f mix.jsonl
il compare --expect-status 1 'exit 1' 'false' >out 2>err
assert_eq "$?:$(cat err)" "1:interloper compare: --expect-status 1 with shell commands: the shell alone, whose time is subtracted, ends with 0; end each command so that it does too (COMMAND; true), or give programs" \
	"with shell commands: refused in one line (review13e M2)"
il compare --expect-status 256 bin/G/a/f bin/G/b/f >out 2>err
assert_eq "$?" 1 "--expect-status 256: refused"
assert_eq "$(cat err)" "interloper compare: --expect-status 256: expected a whole number from 0 to 255" "in one line"
rm -f g.jsonl g.json

try "commands whose outputs differ are refused, in one line"
il compare -q --seed 3 --setups 1 -r 1 -w 0 --max-runs 4 -o d.jsonl 'echo a' 'echo b' >out 2>err
assert_eq "$?" 1 "status"
assert_match "$(cat err)" "^interloper compare: run .* wrote other output than run .*--no-check-output" "the message"
il compare -q --seed 3 --setups 1 -r 1 -w 0 --max-runs 4 -o d2.jsonl bin/A/probe bin/BB/probe -- busy 1 >out 2>err
assert_eq "$?:$(find . -name 'interloper-compare.*' | wc -l)" "1:0" "programs refused so: their links are removed too"

try "-n with paths of different lengths leaves no links, even when killed while it prints"
# newuser11 F10: | head ended the dry run by SIGPIPE, before its atexit
il compare -q -n --seed 3 -r 30 bin/A/probe bin/BB/probe -- busy 1 2>err | head -n 1 >out
assert_eq "$(wc -l <out | tr -d ' '):$(find . -name 'interloper-compare.*' | wc -l)" "1:0" "a line printed, no links left"
il compare -q -n --seed 3 bin/A/probe bin/BB/probe -- busy 1 >out 2>err
assert_eq "$?:$(find . -name 'interloper-compare.*' | wc -l)" "0:0" "ended: no links left"
assert_match "$(tail -n 1 out)" "/interloper-compare\.[^/]+/[0-9]_*/probe busy 1" "the plan names the links"
# review12b L4: so no line ran as printed; -n says how to make them again
make=$(sed -n 's/^interloper compare: -n: .*, make them first: \(.*\) (and rm -r .*/\1/p' err)
assert_match "$make" "^mkdir -p .* && ln -s .* && ln -s " "-n gives the line that makes the links (under -q too)"
sh -c "$make"
line=$(tail -n 1 out | cut -f 8)
link=$(printf '%s\n' "$line" | sed 's/.* -- \([^ ]*\) busy 1 .*/\1/')
res=$(printf '%s\n' "$line" | sed 's/.* --output \([^ ]*\) .*/\1/')
mkdir replay # its results file apart from those the cases below count
(cd replay && eval "sh \"\$IL\" ${line#interloper }" >/dev/null)
assert_eq "$?:$(rj "replay/$res" 'r[-1]["argv"][0]')" "0:$link" "a line of the plan runs as printed, through the link it names"
rm -r "$(sed -n 's/.*(and rm -r \(.*\) after)$/\1/p' err)"
# review13a M1: the rm line is quoted as the mkdir line is: pasted with a
# blank in TMPDIR it removes that directory and nothing else
mkdir -p "my dir" my
il compare -q -n --seed 3 bin/A/probe bin/BB/probe -- busy 1 >out 2>err </dev/null &&
	TMPDIR="$T/my dir" il compare -q -n --seed 3 bin/A/probe bin/BB/probe -- busy 1 >out 2>err
make=$(sed -n 's/^interloper compare: -n: .*, make them first: \(.*\) (and rm -r .*/\1/p' err)
rmline=$(sed -n 's/.*(and rm -r \(.*\) after)$/\1/p' err)
sh -c "$make"
assert_eq "$(find "my dir" -name 'interloper-compare.*' | wc -l | tr -d ' ')" 1 "the links made under a TMPDIR with a blank"
eval "rm -r $rmline"
assert_eq "$(find "my dir" -name 'interloper-compare.*' | wc -l | tr -d ' '):$(test -d my && echo kept)" "0:kept" \
	"the printed rm line removes them and nothing else ($rmline)"
rm -r "my dir" my

try "--show-output into a reader that goes away: interrupted, no links left (outside12 F11)"
# each run copies /etc/services through; head takes one line and goes, and
# the next copy meets a pipe with no reader
mkdir -p bin/S bin/SS
printf '#!/bin/sh\ncat /etc/services\n' >bin/S/p
cp bin/S/p bin/SS/p
chmod +x bin/S/p bin/SS/p
{
	il compare --show-output --seed 1 --setups 2 -r 2 -w 0 --max-runs 8 --until 0.0001 -o sp.jsonl \
		bin/S/p bin/SS/p 2>err
	echo $? >rc
} | head -n 1 >out
assert_eq "$(cat rc):$(wc -l <out | tr -d ' '):$(find . -name 'interloper-compare.*' | wc -l)" "141:1:0" \
	"status 128 + SIGPIPE, a line read, no links left"
assert_match "$(tail -n 1 err)" "^interloper compare: interrupted after [0-9]+ of 8 runs; rerun the same command to resume$" "said as an interruption"
assert_eq "$(rj sp.jsonl 'm[-1]["sweep"]["stopped"]')" "interrupted by SIGPIPE" "the end line"
# the summary alone into a reader already gone: the status says so
{
	il compare -q --seed 1 --setups 2 -r 1 -w 0 --max-runs 4 --until 0.0001 -o sq.jsonl bin/S/p bin/SS/p
	echo $? >rc
} | true
assert_eq "$(cat rc):$(find . -name 'interloper-compare.*' | wc -l)" "141:0" "a summary nobody reads: 141, no links left"

try "--prepare runs before each run, unmeasured; one that fails stops it in one line"
il compare -q --seed 4 --setups 1 -r 1 -w 0 --max-runs 2 -o p.jsonl --prepare "echo x >>$T/prep.log" \
	bin/A/probe bin/BB/probe -- hello >out 2>err
assert_eq "$?:$(wc -l <prep.log):$(rj p.jsonl 'len(r)')" "0:2:2" "status, one --prepare for each of the 2 runs"
il compare -q --seed 4 --setups 1 -r 1 -w 0 --max-runs 2 -o q.jsonl --prepare false \
	bin/A/probe bin/BB/probe -- hello >out 2>err
assert_match "$?:$(cat err)" "^1:interloper compare: --prepare 'false' before run .* ended with status 1" "a failing --prepare"

try "--max-time ends it at a block's start, and the summary says so"
il compare -q --seed 5 --no-check-output --setups 16 -r 2 -w 0 --max-time 1 --until 0.0001 -o t.jsonl bin/A/probe bin/BB/probe -- busy 20 >out 2>err
assert_eq "$?" 0 "status"
assert_match "$(cat out)" "ended by --max-time 1 s" "the limit that ended it"
assert_eq "$(rj t.jsonl 'len(r) % 2')" 0 "whole blocks: each setup's runs hold both programs"

try "--max-time within a batch: the stop line judges every run, as the verdicts do (outside14 F9)"
# the first batch (4 setups x 2 systems) is quick and checked; each later
# run takes 1 s more (asleep: no task-clock), so --max-time 2 cuts the
# second batch after a block
mkdir -p bin/F/x bin/G/x
for d in F G; do
	cat >bin/$d/x/p <<EOS
#!/bin/sh
n=\$(cat "$T/count" 2>/dev/null || echo 0)
echo \$((n + 1)) >"$T/count"
[ "\$n" -ge 8 ] && sleep 1
exec "$PROGS/probe" busy \$((n % 3 + 1))
EOS
	chmod +x bin/$d/x/p
done
rm -f "$T/count"
il compare --seed 5 --no-check-output --setups 4 -r 1 -w 0 --max-time 2 --until 0.0001 -e task-clock \
	-m task-clock -o mt.jsonl bin/F/x/p bin/G/x/p >out 2>err
assert_eq "$?" 0 "status ($(tail -1 err))"
want=$(il report --json --metric task-clock --compare system=F --setup setup mt.jsonl 2>/dev/null | python3 -c '
import json, sys
c = json.load(sys.stdin)["comparisons"][0]
if c["ci_kind"] != "bounded":
    print("widest: G/F has no bounded interval")
else:
    lo, hi = c["ci"]
    print("widest: G/F %.4g +-%.2f%%" % (c["ratio"], (hi - lo) / 2 / c["ratio"] * 100))')
assert_eq "$(grep 'after 4 setups' err | grep -cF "($want; target")" 0 \
	"the last check, before the runs of the cut batch, judged other numbers ($(grep 'after 4 setups' err))"
assert_eq "$(grep 'ended by --max-time 2 s before --until 0.0001%' out | grep -cF "($want; target")" 1 \
	"the widest ratio is the report's of the whole file ($want; $(grep 'ended by' out))"
assert_eq "$(grep 'stopped (--max-time)' err | grep -cF "($want; target")" 1 "and so is the stderr line's"

try "three commands: the two ratios' p-values adjusted for their number (Holm), in one line (outside14 F13)"
mkdir -p bin/C
cp "$PROGS/probe" bin/C/probe
il compare -q --seed 3 --no-check-output --setups 4 -r 2 -w 0 --max-runs 24 --until 0.0001 -o h3.jsonl \
	--export-json h3.json bin/A/probe bin/BB/probe bin/C/probe -- busy 1 >out 2>err
assert_eq "$?" 0 "status ($(tail -1 err))"
want=$(python3 -c '
import json
c = json.load(open("h3.json"))["report"]["comparisons"]
p = sorted((x["p"], x["labels"]["system"]) for x in c)
adj, run = {}, 0
for i, (v, s) in enumerate(p):
    run = max(run, min(1, (len(p) - i) * v))
    adj[s] = run
print("; ".join("%s adjusted p = %.2g, %s" % (s, adj[s], "a difference" if adj[s] < 0.05 else "no difference can be claimed")
                for s in (x["labels"]["system"] for x in c)))')
assert_eq "$(grep 'ratios to A' out)" \
	"  2 ratios to A, each interval 95% on its own; adjusted for their number (Holm, family-wise 5%): $want" \
	"the adjusted p-values are Holm's over the report's"
il compare -q --seed 3 --no-check-output --setups 4 -r 2 -w 0 --max-runs 16 --until 0.0001 -o h2.jsonl \
	bin/A/probe bin/BB/probe -- busy 1 >out 2>err
assert_eq "$(grep -c 'ratios to' out)" 0 "two commands: one ratio, nothing to adjust"
il compare -q --seed 3 --no-check-output --setups 4 -r 2 -w 0 --max-runs 24 --until 0.0001 --estimator min \
	-o h3m.jsonl bin/A/probe bin/BB/probe bin/C/probe -- busy 1 >out 2>err
assert_eq "$?:$(grep -c 'ratios to' out)" 0:0 "--estimator min: no p-value to adjust, no line (review15b L3)"
rm -f h3m.jsonl

try "bad usage: one line each"
il compare bin/A/probe >out 2>err
assert_eq "$?:$(cat err)" "1:interloper compare: expected two commands or more to compare, the first the baseline; see interloper compare --help" "one command"
il compare --max-time 10x bin/A/probe bin/BB/probe >out 2>err
assert_eq "$?:$(cat err)" "1:interloper compare: --max-time 10x: expected a time such as 90s, 10m or 2h" "--max-time"
il compare --name a bin/A/probe bin/BB/probe >out 2>err
assert_eq "$?:$(cat err)" "1:interloper compare: 1 --name for 2 commands: give one for each, or none; see interloper compare --help" "--name"
il compare --name a --name a bin/A/probe bin/BB/probe >out 2>err
assert_eq "$?:$(cat err)" "1:interloper compare: --name a is given twice: one name for each command; see interloper compare --help" \
	"--name twice, refused before any run (outside14 F11: a batch was measured, then nothing to compare)"
il compare --slurm 2 bin/A/probe bin/BB/probe >out 2>err
assert_match "$?:$(cat err)" "^1:interloper compare: --slurm is not an option of interloper compare" "a sweep's option of the scale-out is not compare's"
il compare 'echo a' 'echo a' -- x >out 2>err
assert_match "$?:$(cat err)" "^1:.*ARGS after -- go to programs" "ARGS with shell commands"
il compare --export-json nodir/x.json bin/A/probe bin/BB/probe >out 2>err
assert_eq "$?:$(cat err)" "1:interloper compare: --export-json nodir/x.json: the directory nodir is missing or not writable" "an export that could not be written is refused before any run"
mkdir adir
il compare --export-csv adir bin/A/probe bin/BB/probe >out 2>err
assert_eq "$?:$(cat err)" "1:interloper compare: --export-csv adir: a directory" "an export path that is a directory"
assert_eq "$(find . -maxdepth 1 -name '*.jsonl' | wc -l)" 13 "no results file left by a refused comparison"

try "--help states compare's own defaults, in the option lines, and no option of the sweep's alone"
# newuser11 F8: sweep's defaults in the lines, compare's in a footer, and
# --shard and --slurm, which compare refuses
il compare --help >help
opt() { grep -A2 -- "^ *\(-., \)\?--$1 " help | tr -s ' \n' ' '; }
assert_match "$(opt env-add)" "\(default 0:4080:16, the stack's 256 places in a page\)" "--env-add"
assert_match "$(opt setups)" "\(default 8, doubled until --until is met\)" "--setups"
assert_match "$(opt warmup)" "default 1\)" "--warmup"
assert_match "$(opt until)" "default 1\)" "--until"
assert_match "$(opt output)" "\(default compare-PLAN.jsonl" "--output"
assert_match "$(grep -A3 -- '^ *--max-time ' help | tr -s ' \n' ' ')" "a resumed compare has it all again, where --max-runs counts the file's runs" \
	"--max-time says what a resume counts (outside15 L4)"
assert_eq "$(grep -c -e 'interloper.jsonl' -e 'default: all' -e '--shard' -e '--slurm' -e 'sweep' help)" 0 \
	"nothing of the sweep's: its defaults, --shard, --slurm"
il sweep --help >help
assert_match "$(opt output)" "\(default ./interloper.jsonl\)" "sweep --help: its own --output"
assert_match "$(opt setups)" "\(default: all\)" "sweep --help: its own --setups"
il compare -n --seed 5 bin/A/probe bin/BB/probe >plan 2>/dev/null
assert_eq "$(grep -c 'warmup' plan):$(cut -f3 plan | sort -u | wc -l)" "16:8" "the plan: a warm-up run of each command in each of 8 setups"
mkdir -p 'sp a/A' 'sp a/B' && cp bin/A/probe 'sp a/A/' && cp bin/A/probe 'sp a/B/'
il compare -n --seed 5 -o n.jsonl 'sp a/A/probe' 'sp a/B/probe' >plan 2>/dev/null
assert_match "$(grep -m 1 'system=B ' plan)" " -- 'sp a/B/probe' < /dev/null\$" \
	"a program's path with a blank is the program, not a shell command"
il compare -n --seed 5 -o n.jsonl "$T/sp a/A/probe" "$T//sp a/B/probe" >plan 2>/dev/null
assert_eq "$(grep -c ' system=A ' plan):$(grep -c ' system=B ' plan):$(grep -c ' system=cmd' plan)" "32:32:0" \
	"absolute paths are named by the component where they differ, as relative ones are (outside14 F1)"
il compare -n --seed 5 -o n.jsonl "bin/A/probe busy 1" "bin/BB/probe busy 1" >plan 2>/dev/null
assert_eq "$(grep -c ' system=A ' plan):$(grep -c ' system=BB ' plan):$(grep -c ' system=cmd' plan)" "32:32:0" \
	"shell commands whose first words differ only in a path component are named by it, as programs are (outside15 L2)"
il compare -n --seed 5 -o n.jsonl 'sort in.txt' 'sort -r in.txt' >plan 2>/dev/null
assert_match "$(grep -m 1 'system=cmd2 ' plan)" " -- [^ ]*sh -c 'sort -r in\.txt' < /dev/null\$" \
	"-n: a shell command's line runs sh -c COMMAND, as the runs do (it ran sh alone)"
assert_match "$(grep -m 1 'system=cmd1 ' plan)" " -- [^ ]*sh -c 'sort in\.txt *' < /dev/null\$" \
	"the shorter command padded, as measured"

try "resuming from another shell or under nice: the shell's _ is in no run's environment"
# newuser11 F7: bash sets _ to the path of the command it runs (nice, then
# interloper), so the environment's size changed between the two starts
# and the resume was refused; a _ that reached the program would have
# moved its stack.  --until 0.0001: two runs of one program agreed within
# the default 1% on a quiet machine, and the resume then ran nothing
env _=/x sh "$IL" compare -q --seed 9 --setups 1 -r 1 -w 0 --max-runs 4 --until 0.0001 --no-check-output \
	-o u.jsonl bin/A/probe bin/BB/probe -- busy 1 >out 2>err
assert_eq "$?:$(cat err)" "0:" "first start"
env _=/a/path/much/longer/than/the/first/start/had/for/its/command sh "$IL" compare -q --seed 9 \
	--setups 2 -r 1 -w 0 --max-runs 8 --until 0.0001 --no-check-output -o u.jsonl bin/A/probe bin/BB/probe -- busy 1 >out 2>err
assert_eq "$?:$(cat err)" "0:" "resumed with a longer _"
assert_eq "$(rj u.jsonl 'len(r)'):$(rj u.jsonl 'len({x["setup"]["env_bytes"] - int(x["labels"]["env_add"]) for x in r})')" \
	"8:1" "every run, one base size"

try "a rerun that stops before the file's last batch: the summary and the exports count the file's runs (outside12 F21)"
# the first start runs 4 batches (2, 4, 8 setups; --max-runs 40 stops the
# fourth); the rerun, --max-runs 8, stops after the first, whose runs are
# all there; the report reads the whole file, 8 setups, and so must the
# counts (on 82a31f7: "4 runs in 2 setups")
il compare -q --seed 3 --setups 2 -r 1 -w 1 --max-runs 40 --until 0.0001 --no-check-output \
	-o rr.jsonl bin/A/probe bin/BB/probe -- busy 1 >out 2>err
assert_eq "$?:$(rj rr.jsonl 'len(r)'):$(rj rr.jsonl 'len({x["labels"]["setup"] for x in r})')" "0:32:8" \
	"the first start: 8 setups x 2 systems x (1 + 1 warm-up)"
il compare -q --seed 3 --setups 2 -r 1 -w 1 --max-runs 8 --until 0.0001 --no-check-output \
	-o rr.jsonl --export-markdown rr.md --export-json rr.json bin/A/probe bin/BB/probe -- busy 1 >out 2>err
assert_eq "$?:$(rj rr.jsonl 'len(r)')" "0:32" "the rerun: nothing to run"
assert_match "$(cat out)" ", 16 runs in 8 setups \(and 16 warm-up runs, left out\)" "the summary: the file's runs"
assert_match "$(tail -n 1 rr.md)" "^ended by --max-runs 8 .*, 16 runs in 8 setups \(and 16 warm-up runs, left out\), " \
	"--export-markdown's last line: the same"
assert_eq "$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps([j["runs"], j["setups"], j["warmup_runs"]]))' rr.json)" \
	"[16, 8, 16]" "--export-json: the same"

try "-m naming an event that no run records: refused before any run, naming -m and the events"
# newuser11 F4, F16: found by the report after the first batch had run
for c in "--events page-faults -m task-clock:task-clock:--events page-faults:add it to --events" \
	"--events page-faults -m task_clock:task_clock:--events page-faults:not an event name" \
	"--events task-clock -m cycles/task-clock:cycles:--events task-clock:add it to --events"; do
	args=$(echo "$c" | cut -d: -f1) ev=$(echo "$c" | cut -d: -f2) list=$(echo "$c" | cut -d: -f3)
	# shellcheck disable=SC2086 # options as words
	il compare -q --max-runs 4 -o m.jsonl $args bin/A/probe bin/BB/probe -- busy 1 >out 2>err
	assert_eq "$?:$(wc -l <err | tr -d ' ')" "1:1" "$args: status, one line"
	assert_match "$(cat err)" "^interloper compare: -m [^ ]+: $ev is not among the events every run records \\($list\\); " "$args: the line"
	assert_match "$(cat err)" "$(echo "$c" | cut -d: -f4)" "$args: what to do"
	assert_true "$args: nothing run" [ ! -e m.jsonl ]
done
il sweep -q -n --events page-faults -m task-clock --system a=bin/A/probe --system b=bin/BB/probe >out 2>err
assert_eq "$?:$(cut -d' ' -f1-5 err)" "1:interloper sweep: -m task-clock: task-clock" "sweep -n too"
il compare -q -n --events page-faults,task-clock -m task-clock/page-faults bin/A/probe bin/BB/probe >out 2>err
assert_eq "$?" 0 "-m among the events: taken"
# blanks around an event are not part of it, as the library reads the list
# (review11d)
il compare -q -n --events 'task-clock, page-faults' -m page-faults bin/A/probe bin/BB/probe >out 2>err
assert_eq "$?" 0 "-m among events given with blanks: taken"
# outside13 F6: an event in capitals is the library's lower-case name in
# the records, in --events and in -m alike
il compare -q -n --events TASK-CLOCK -m task-clock bin/A/probe bin/BB/probe >out 2>err
assert_eq "$?:$(grep -c 'not among' err)" "0:0" "--events TASK-CLOCK, -m task-clock: taken"
il sweep -q --seed 1 --reps 1 --events Task-Clock -m TASK-CLOCK --system a=bin/A/probe -o case.jsonl -- hello >out 2>err
assert_eq "$?:$(cat err)" "0:" "sweep --events Task-Clock -m TASK-CLOCK: taken"
assert_eq "$(rj case.jsonl '[list(x["events"]) for x in r if "events" in x]')" '[["task-clock"]]' "and recorded as task-clock"
assert_match "$(il sweep -q -n --seed 1 --reps 1 --events Task-Clock --system a=bin/A/probe -o case2.jsonl -- hello)" \
	" --events task-clock " "the runs' settings name it so"
# review11d: with --slurm the runs are on the nodes, whose defaults this
# machine cannot tell (it was refused or taken by this machine's PMU):
# not probed, not checked, and said (not under -q)
il sweep --slurm 2 --seed 1 -m cycles -o sl.jsonl --system a=bin/A/probe --system b=bin/A/probe >out 2>err
assert_eq "$?:$(grep -c '^interloper sweep: -m cycles: cycles not checked: without --events the runs record the library.s defaults on the nodes, which depend on their PMU' err)" \
	"0:1" "--slurm without --events: -m's event not checked, and said"
assert_true "the script written" [ -s sl.sbatch ]
il sweep --slurm 2 --seed 1 --events page-faults -m cycles -o sl2.jsonl --system a=bin/A/probe \
	--system b=bin/A/probe >out 2>err
assert_eq "$?:$(cut -d' ' -f1-5 err)" "1:interloper sweep: -m cycles: cycles" "--slurm with --events: checked against them"
# review11d: the none backend ignores the events (the library says so in
# every run, a stop under --strict): refused in one line, by each driver
for cmd in "sweep -n -m task-clock --system a=bin/A/probe" "compare -q -n -m task-clock bin/A/probe bin/BB/probe" \
	"run -n -- bin/A/probe"; do
	# shellcheck disable=SC2046 # the command's words
	il $(echo "$cmd" | cut -d' ' -f1) --backend none --events task-clock $(echo "$cmd" | cut -d' ' -f2-) >out 2>err
	assert_eq "$?:$(cat err)" "1:interloper ${cmd%% *}: --events task-clock: the none backend counts no event, so it would ignore them; drop --events or --backend none" \
		"${cmd%% *} --backend none --events: refused"
done

try "a path that is no program: refused before anything runs, in one line"
# newuser11 F5: it ran as a shell command, failed with 127 in every run,
# and the sweep's line suggested --no-strict
mkdir -p adir
printf 'text\n' >notexec
rm -f p.jsonl
for c in "./no/such/prog:no such file; a COMMAND with a / is a program's path" \
	"./adir:not a program file (a directory)" \
	"./notexec:not executable$(stat -c ': no permission to execute it (mode %04a, owner uid %u)' notexec)"; do
	il compare -q --max-runs 200 -o p.jsonl "${c%%:*}" bin/A/probe >out 2>err
	assert_eq "$?:$(cat err)" "1:interloper compare: ${c%%:*}: ${c#*:}" "${c%%:*}"
	assert_true "${c%%:*}: nothing run" [ ! -e p.jsonl ]
done
# but a program that --prepare makes before each run is not there yet
# (review12d): it runs, as a shell command, as it did before that check
mkdir -p tt && cp /bin/true tt/t && rm -rf mk
il compare -q --seed 4 --setups 1 -r 1 -w 0 --max-runs 4 --until 0.0001 -o mk.jsonl \
	--prepare "mkdir -p mk && cp /bin/true mk/t" ./mk/t ./tt/t >out 2>err
assert_eq "$?" 0 "a program --prepare makes: taken ($(tail -n 1 err))"

try "sweep's options in compare mean what they mean in sweep (their ids once met compare's own)"
# review11c: --stack-offset was taken as --export-json (an export named 64,
# no offset), --env-base as --prepare (its value run by sh), --env-add as
# --max-time
il compare -q -n --seed 3 --stack-offset 64 --heap-offset 32 --env-add 0,16 --setups 2 \
	bin/A/probe bin/BB/probe >out 2>err
assert_eq "$?" 0 "taken"
assert_eq "$(cut -f5 out | sort -u)" "stack_offset 64" "every run's stack offset"
assert_eq "$(cut -f6 out | sort -u)" "heap_offset 32" "every run's heap offset"
assert_eq "$(cut -f4 out | sort -u | tr '\n' ' ')" "env_add 0 env_add 16 " "the environment sizes"
assert_eq "$(find . -maxdepth 1 \( -name 64 -o -name 32 \) | wc -l | tr -d ' ')" 0 "no file named for a value"

done_testing
