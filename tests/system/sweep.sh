#!/bin/sh
# interloper sweep: one reproducible plan of setups, runs labelled with
# their place in it, outputs verified, the plan's own lines in the results.
# Resume, shards, clusters and --until have tests of their own (sweep_*.sh).
# timeout: 900
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/sweep/helpers.sh
. "$TOP/tests/sweep/helpers.sh"
cd "$T" || exit 1
mkdir -p bin/A bin/B bin/C bin/E
cp "$PROGS/probe" bin/A/prog
cp "$PROGS/probe" bin/B/prog
cp "$PROGS/probe" bin/C/prog
cp /bin/echo bin/E/prog


try "every system in every setup, reps times, each record labelled with its run"
il sweep -q --seed 3 --reps 2 --env-add 0:128:64 --system A=bin/A/prog \
	--system B=bin/B/prog --label suite=t --output res.jsonl -- hello
assert_eq "$?" 0 "status"
assert_eq "$(rj res.jsonl 'len(r)')" 12 "records: 3 setups x 2 systems x 2 reps"
assert_eq "$(grep -c '"schema":"interloper/1"' res.jsonl)" 12 "one record per line"
assert_eq "$(rj res.jsonl 'sorted((x["labels"]["system"], x["labels"]["setup"], x["labels"]["env_add"], x["labels"]["rep"]) for x in r) == sorted((s, "e%d" % (64 * i), str(64 * i), str(k)) for s in "AB" for i in range(3) for k in (1, 2))')" \
	true "each (system, setup, rep) once; the setup id from the pad"
assert_eq "$(rj res.jsonl 'sorted(set(x["labels"]["run"] for x in r)) == sorted("%s/e%d/r%d" % (s, 64 * i, k) for s in "AB" for i in range(3) for k in (1, 2))')" \
	true "run ids: system/setup/rep"
assert_eq "$(rj res.jsonl 'sorted(set((x["labels"]["bench"], x["labels"]["suite"], x["labels"]["seed"], x["labels"]["plan"]) for x in r)) == [("prog", "t", "3", m[0]["plan"])]')" \
	true "bench, extra labels, seed and plan on every record"
assert_eq "$(rj res.jsonl 'all(x["setup"]["env_bytes"] - r[0]["setup"]["env_bytes"] == int(x["labels"]["env_add"]) - int(r[0]["labels"]["env_add"]) for x in r)')" \
	true "env_add really moves the environment size"
assert_eq "$(rj res.jsonl 'all(x["argv"][1:] == ["hello"] for x in r)')" true "the program's arguments"
grep '"schema":"interloper/1"' res.jsonl >records.jsonl
assert_true "valid records" valid records.jsonl
if [ "$(rj res.jsonl 'r[0]["backend"]')" = perf ]; then
	assert_eq "$(rj res.jsonl 'sorted(set((x["floor_source"], json.dumps(x["floor"])) for x in r)) == [("driver", json.dumps(r[0]["floor"]))]')" \
		true "every child records the floor the sweep calibrated once"
fi

try "the orders are those of the sh sweep it replaces, for the same seed"
# tests/sweep/old-orders.txt: what scripts/interloper-sweep -n printed
# (rep, env_add, layout, system) before this rewrite
awk '/^#/ { n++ } !/^#/ { print > ("old." n) }' "$TOP/tests/sweep/old-orders.txt"
k=0
for c in "1 3 0:640:64 4" "7 2 0,16,32 -" "123456789 3 0:1000:100 7" "42 1 5 -"; do
	# shellcheck disable=SC2086 # the case's words
	set -- $c
	k=$((k + 1))
	s=''
	[ "$4" = - ] || s="--setups $4"
	# shellcheck disable=SC2086 # --setups K, or nothing
	il sweep -n --seed "$1" --reps "$2" --env-add "$3" $s --system A=bin/A/prog \
		--system B=bin/B/prog --system C=bin/C/prog |
		awk -F'\t' '{ split($2, a, "/"); sub("r", "", a[3]); sub("env_add ", "", $4); print a[3], $4, "-", a[1] }' >"new.$k"
	assert_true "seed $1: the same runs in the same order" cmp -s "new.$k" "old.$k"
done

try "the plan matches an independent reference: offsets, pin both, warm-ups, shards"
for c in "4000000000 2 2 9 both 2/3 0:256:64 0,16 0,4096" "5 3 0 all one all 0,100 0 0" \
	"77 2 1 all both all 0 0,32,64 0" "9 4 0 6 one 3/4 0:640:64 0 0,8192"; do
	# shellcheck disable=SC2086 # the case's words
	set -- $c
	pin='' shard='' setups=''
	[ "$5" = one ] || pin="--stack-pin both"
	[ "$6" = all ] || shard="--shard $6"
	[ "$4" = all ] || setups="--setups $4"
	# shellcheck disable=SC2086 # optional options
	il sweep -n --seed "$1" --reps "$2" --warmup "$3" $setups $pin $shard --env-add "$7" \
		--stack-offset "$8" --heap-offset "$9" --system A=bin/A/prog --system B=bin/B/prog |
		cut -f2 >got
	envs=$(python3 -c 'import sys; a = sys.argv[1]
if ":" in a:
    x, y, s = map(int, a.split(":")); a = ",".join(map(str, range(x, y + 1, s)))
print(a)' "$7")
	python3 "$TOP/tests/sweep/order_ref.py" "$1" "$2" "$3" "$4" "$5" "$6" A,B "$envs" - "$8" "$9" >want
	assert_true "seed $1 ($c)" cmp -s got want
	assert_ne "$(wc -l <got | tr -d ' ')" 0 "runs listed"
done

try "-n prints each run's full command, arguments and input included"
printf 'in\n' >in.txt
il sweep -n --seed 1 --reps 1 --input in.txt --system A=bin/A/prog -- hello 'two words' >plan.txt
assert_eq "$(cut -f2 plan.txt)" "A/e0/r1" "one run"
assert_match "$(cut -f8 plan.txt)" "^interloper run -q --env-size [0-9]+ .* -- bin/A/prog hello 'two words' < in.txt\$" "the command"
assert_eq "$(nrec res.n.jsonl)" 0 "nothing ran"

try "a seed above 999999999 is taken; a drawn seed is in every record and replays the plan"
il sweep -q -n --seed 4294967295 --reps 1 --system A=bin/A/prog >/dev/null 2>err
assert_eq "$?:$(cat err)" "0:" "seed 2^32-1"
il sweep -q --reps 2 --env-add 0:256:64 --system A=bin/A/prog --system B=bin/B/prog \
	--output drawn.jsonl -- hello 2>err
assert_eq "$(wc -c <err | tr -d ' ')" 0 "-q: nothing on stderr"
seed=$(rj drawn.jsonl 'list(set(x["labels"]["seed"] for x in r))[0]')
assert_eq "$(rj drawn.jsonl 'len(set(x["labels"]["seed"] for x in r))')" 1 "one seed"
assert_eq "$(rj drawn.jsonl 'm[0]["identity"]["seed"]')" "$seed" "the plan line has it"
il sweep -n --seed "$seed" --reps 2 --env-add 0:256:64 --system A=bin/A/prog \
	--system B=bin/B/prog | cut -f2 >replay
rj drawn.jsonl '"\n".join(x["labels"]["run"] for x in r)' >ran
assert_true "the same runs in the same order" cmp -s replay ran

try "the plan line names the plan: its id is the SHA-256 of its identity"
assert_eq "$(rj res.jsonl '[x["kind"] for x in m]')" '["plan", "machine", "output", "machine"]' "the sweep's lines"
assert_eq "$(rj res.jsonl '__import__("hashlib").sha256(json.dumps(m[0]["identity"], separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()[:12] == m[0]["plan"]')" \
	true "id = sha256(identity)"
assert_eq "$(rj res.jsonl 'm[0]["identity"]["systems"][0]["sha256"][0]')" \
	"$(sha256sum bin/A/prog | cut -d' ' -f1)" "the binary's SHA-256 is sha256sum's"
assert_eq "$(rj res.jsonl 'm[2]["stdout_sha256"]')" "$(bin/A/prog hello | sha256sum | cut -d' ' -f1)" \
	"the output's SHA-256 is sha256sum's"
assert_eq "$(rj res.jsonl '[m[0]["extent"], m[0]["identity"]["factors"]["env_add"]]')" \
	'[{"setups": 3, "setups_total": 3, "reps": 2, "warmup": 0, "runs": 12}, [0, 64, 128]]' "extent and factors"
il sweep -q --seed 3 --reps 5 --setups 2 --env-add 0:128:64 --system A=bin/A/prog \
	--system B=bin/B/prog --label suite=t --output other.jsonl -- hello
assert_eq "$(rj other.jsonl 'm[0]["plan"]')" "$(rj res.jsonl 'm[0]["plan"]')" "more reps, fewer setups: the same plan"

try "the machine's state at the start and the end of the sweep"
assert_eq "$(rj res.jsonl 'sorted(set(m[1]["machine"]) & {"governor", "boost", "smt", "thp", "loadavg", "steal_ticks", "host", "kernel"})')" \
	'["boost", "governor", "host", "kernel", "loadavg", "smt", "steal_ticks", "thp"]' "snapshot fields"
assert_eq "$(rj res.jsonl '[m[1]["when"], m[-1]["when"], m[-1]["sweep"]["runs"], m[-1]["sweep"]["stopped"]]')" \
	'["start", "end", 12, "done"]' "start, end, and how it ended"
assert_eq "$(rj res.jsonl 'm[1]["machine"]["thp"]')" \
	"$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo None)" "THP as the kernel says"
# the software events' switches: held by the sweep (as many kinds as
# interloper hold holds where perf events work), none with --no-hold
held=$(rj res.jsonl 'm[1]["held"]')
if "$B/libexec/interloper-hold" true 2>/dev/null; then
	assert_true "the start line says the switches were held ($held kinds)" [ "$held" -gt 0 ]
else
	assert_eq "$held" 0 "held, where perf events cannot be opened"
fi
il sweep -q --no-hold --seed 3 --reps 1 --setups 1 --system A=bin/A/prog --output nohold.jsonl -- hello
assert_eq "$(rj nohold.jsonl 'm[1]["held"]')" 0 "held with --no-hold"

try "paths of different lengths are refused: they would shift the stack"
mkdir -p bin/BB
cp "$PROGS/probe" bin/BB/prog
il sweep -q --system A=bin/A/prog --system B=bin/BB/prog --output res2.jsonl -- hello 2>err
assert_eq "$?" 1 "status"
assert_match "$(cat err)" "paths of different lengths shift the stack" "message"
assert_eq "$(nrec res2.jsonl)" 0 "nothing ran"

try "layouts come from interloper link's manifest: a count, all, or a list of ids; kinds labelled"
if ! command -v cc >/dev/null; then
	skip "no C compiler"
else
	printf 'int f(void);\nint main(void){return f() - 42;}\n' >m.c
	printf 'int f(void){return 42;}\n' >f.c
	printf 'int g(void){return 1;}\n' >g.c
	cc -c m.c f.c g.c
	il link -q -k 4 -s 1 -d lay -- cc -o p m.o f.o g.o >/dev/null
	il sweep -q --seed 1 --reps 1 --layouts 00,02,03 --system 'X=lay/p.{layout}' --output res3.jsonl
	assert_eq "$?" 0 "status"
	assert_eq "$(rj res3.jsonl 'sorted((x["labels"]["layout"], x["labels"]["layout_kind"], x["argv"][0], x["labels"]["setup"]) for x in r)')" \
		'[["00", "original", "lay/p.00", "e0-l00"], ["02", "random", "lay/p.02", "e0-l02"], ["03", "random", "lay/p.03", "e0-l03"]]' "one record per layout"
	assert_eq "$(rj res3.jsonl 'sorted(b["order"] == {x["id"]: x["order"] for x in json.load(open("lay/manifest.json"))["binaries"]}[b["layout"]] for b in m[0]["systems"][0]["binaries"])')" \
		'[true, true, true]' "the plan line carries each layout's link order, as the manifest has it (report --attribute)"
	# outside12 F20: a layout id is one level of the factor the report
	# crosses with the systems: one order in each, or refused
	il link -q -k 4 -s 1 -d la1 -- cc -o p m.o f.o g.o >/dev/null
	il link -q -k 4 -s 2 -d la2 -- cc -o p m.o f.o g.o >/dev/null
	printf 'int h(void){return 2;}\n' >h.c
	cc -c h.c
	il link -q -k 4 -s 1 -d la3 -- cc -o p m.o f.o g.o h.o >/dev/null
	il sweep -n --seed 1 --reps 1 --layouts all --system 'X=lay/p.{layout}' --system 'Y=la1/p.{layout}' >out 2>err
	assert_eq "$?:$(wc -l <out | tr -d ' '):$(grep -c . err)" "0:8:0" "two systems linked with one seed: taken, nothing said"
	il sweep -n --seed 1 --reps 1 --layouts all --system 'X=lay/p.{layout}' --system 'Y=la2/p.{layout}' >out 2>err
	assert_eq "$?:$(wc -l <out | tr -d ' ')" "1:0" "the same objects in other orders (another seed): refused"
	assert_match "$(cat err)" "^interloper sweep: --layouts: layout 0[1-3] is one link order in system X \(lay/p.\{layout\}, seed 1\) and another in Y \(la2/p.\{layout\}, seed 2\); one id must be one order in every system: relink them with one seed" \
		"in one line, naming the layout, the systems and their seeds"
	il compare -n --seed 1 --layouts all 'lay/p.{layout}' 'la2/p.{layout}' >out 2>err
	assert_match "$?:$(grep -c . err):$(cat err)" "^1:1:interloper compare: --layouts: layout 0[1-3] is one link order in system" "compare refuses them too"
	il sweep -n --seed 1 --reps 1 --layouts all --system 'X=lay/p.{layout}' --system 'Z=la3/p.{layout}' >out 2>err
	assert_eq "$?:$(wc -l <out | tr -d ' '):$(cat err)" \
		"0:8:interloper sweep: warning: systems X and Z link different objects, so a layout id is not one link order in both: their layouts are paired by id alone" \
		"different objects: one warning, the sweep goes on"
	# review12b L5: three layouts that are one binary are named together
	# (the warning named the first pair only), and compare names its
	# commands, not --system, an option it does not have
	mkdir -p dup && cp lay/manifest.json lay/p.0* dup/ && cp dup/p.00 dup/p.01 && cp dup/p.00 dup/p.02
	python3 -c 'import json; f = "dup/manifest.json"; m = json.load(open(f)); b = m["binaries"]
for x in b[1:3]: x["sha256"] = b[0]["sha256"]
json.dump(m, open(f, "w"))'
	il sweep -n --seed 1 --reps 1 --layouts all --system 'X=dup/p.{layout}' >/dev/null 2>err
	assert_eq "$?:$(cat err)" \
		"0:interloper sweep: warning: system X: layouts 00, 01 and 02 are one binary (one SHA-256), which the report counts as 3 layouts; leave 01,02 out of --layouts" \
		"three layouts of one binary: one line naming all three"
	il compare -n --seed 1 --layouts all 'lay/p.{layout}' 'xyz/p.{layout}' >/dev/null 2>err
	assert_match "$?:$(cat err)" "^1:interloper compare: xyz/p.\{layout\}: cannot read xyz/manifest.json" "compare names the command as given"
	mkdir -p lay22 && cp lay/manifest.json lay/p.0* lay22/
	il compare -n --seed 1 --layouts all 'lay/p.{layout}' 'lay22/p.{layout}' >out 2>err
	assert_match "$?:$(cat err)" "^1:interloper compare: the layouts' paths differ in length" "compare's refusal of layout paths: its name once"
	assert_eq "$(il sweep -n --seed 1 --reps 1 --layouts 2 --system 'X=lay/p.{layout}' | cut -f5 | tr '\n' ' ')" \
		"layout 00 layout 01 " "--layouts 2: the manifest's first two"
	assert_eq "$(il sweep -n --seed 1 --reps 1 --layouts all --system 'X=lay/p.{layout}' | wc -l | tr -d ' ')" 4 "all"
	# outside13 F3: a sample of setups takes every layout once before any
	# twice (sweep order 2); the whole product keeps its order
	for c in "5 2 0 9 one all" "8 1 1 all one all" "9 2 0 7 both 2/3" "3 1 0 39 one all"; do
		# shellcheck disable=SC2086 # the case's words
		set -- $c
		pin='' shard='' setups=''
		[ "$5" = one ] || pin="--stack-pin both"
		[ "$6" = all ] || shard="--shard $6"
		[ "$4" = all ] || setups="--setups $4"
		# shellcheck disable=SC2086 # optional options
		il sweep -n --seed "$1" --reps "$2" --warmup "$3" $setups $pin $shard --layouts all \
			--env-add 0:256:64 --stack-offset 0,16 --system 'X=lay/p.{layout}' \
			--system 'Y=lay/p.{layout}' 2>/dev/null | cut -f2 >got
		python3 "$TOP/tests/sweep/order_ref.py" "$1" "$2" "$3" "$4" "$5" "$6" X,Y \
			0,64,128,192,256 00,01,02,03 0,16 0 >want
		assert_true "layouts, seed $1 ($c): the reference's plan" cmp -s got want
	done
	il sweep -n --seed 5 --reps 1 --setups 9 --layouts all --env-add 0:256:64 \
		--system 'X=lay/p.{layout}' 2>/dev/null | cut -f5 | sort | uniq -c | awk '{ print $1 }' | sort | tr '\n' ' ' >got
	assert_eq "$(cat got)" "2 2 2 3 " "9 setups of 4 layouts: each layout 2 or 3 times"
	il sweep --seed 5 --reps 1 --setups 3 --layouts all --env-add 0:256:64 \
		--system 'X=lay/p.{layout}' --system 'Y=lay/p.{layout}' --output part.jsonl >out 2>&1
	assert_match "$(cat out)" "6 runs in 3 setups over 3 of the 4 layouts$" "the summary says the layouts measured"
	(cd lay && il link -q -k 4 -s 1 -d ../lbx -- cc -o p ../m.o ../f.o ../g.o >/dev/null)
	il compare --seed 5 --reps 1 --warmup 0 --setups 2 --until 50 --max-runs 4 --layouts all \
		--export-json part.json --export-markdown part.md 'lay/p.{layout}' 'lbx/p.{layout}' >out 2>&1
	assert_eq "$(python3 -c 'import json; x = json.load(open("part.json")); print(x["layouts"], x["layouts_total"], x["setups"])' 2>&1)" \
		"2 4 2" "compare's JSON export: 2 of 4 layouts"
	assert_match "$(cat part.md)" "4 runs in 2 setups over 2 of the 4 layouts " "and its Markdown"
	il sweep -q --seed 5 --reps 1 --setups 2 --layouts all --env-add 0:256:64 \
		--system 'X=lay/p.{layout}' --output cyc.jsonl 2>err
	assert_eq "$(rj cyc.jsonl 'm[0]["identity"]["generator"]')" \
		"xoshiro128** seeded through fmix32; sweep order 2 (sweep_plan.c)" "the plan names its draw"
	# the plan line an older interloper wrote for this command (sweep order 1):
	# refused, not resumed with another sample of setups
	rj cyc.jsonl 'json.dumps(dict(m[0], identity=dict(m[0]["identity"], generator="xoshiro128** seeded through fmix32; sweep order 1 (plan.c)")), separators=(",", ":"))' >old.jsonl
	python3 -c 'import hashlib, json, sys
l = json.loads(open(sys.argv[1]).read())
l["plan"] = hashlib.sha256(json.dumps(l["identity"], separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()[:12]
open(sys.argv[1], "w").write(json.dumps(l, separators=(",", ":")) + "\n")' old.jsonl
	cp old.jsonl old.was
	il sweep -q --seed 5 --reps 1 --setups 2 --layouts all --env-add 0:256:64 \
		--system 'X=lay/p.{layout}' --output old.jsonl 2>err
	assert_eq "$?" 1 "an older draw's file is refused"
	assert_true "and left as it was" cmp -s old.jsonl old.was
	assert_match "$(cat err)" "^interloper sweep: old.jsonl holds this plan as an older interloper drew it" "message"
	assert_eq "$(wc -l <err | tr -d ' ')" 1 "in one line"
	il sweep -n --seed 1 --reps 1 --layouts 5, --system 'X=lay/p.{layout}' >/dev/null 2>err
	assert_match "$(cat err)" "^interloper sweep: --layouts 5,: 5 is not in lay/manifest.json" "an id not in the manifest (R3 finding 10)"
	cp lay/p.01 lay/p.03
	il sweep -q --seed 1 --reps 1 --layouts all --system 'X=lay/p.{layout}' --output res4.jsonl 2>err
	assert_eq "$?:$(nrec res4.jsonl)" "1:0" "a binary changed after the link is refused"
	assert_match "$(cat err)" "lay/p.03 is not the binary interloper link made" "message"
	rm lay/manifest.json
	il sweep -q --seed 1 --reps 1 --layouts 2 --system 'X=lay/p.{layout}' --output res4.jsonl 2>err
	assert_match "$(cat err)" "^interloper sweep: --system X=lay/p.\{layout\}: cannot read lay/manifest.json" "no manifest: no probing"
fi

try "stack and heap offsets are factors: applied, labelled, in the setup's id"
# (probe layout prints addresses, which differ by design)
il sweep -q --seed 2 --reps 1 --stack-offset 0,4096 --heap-offset 0,8192 --system A=bin/A/prog \
	--no-check-output --output off.jsonl -- layout
assert_eq "$?" 0 "status"
assert_eq "$(rj off.jsonl 'sorted(x["labels"]["setup"] for x in r)')" \
	'["e0", "e0-h8192", "e0-s4096", "e0-s4096-h8192"]' "setup ids"
assert_eq "$(rj off.jsonl 'sorted(set((int(x["labels"]["stack_offset"]) - x["setup"]["stack_offset"], int(x["labels"]["heap_offset"]) - x["setup"]["heap_offset"]) for x in r))')" \
	'[[0, 0]]' "the library applied the labelled offsets"
assert_eq "$(rj off.jsonl 'len(set(int(x["setup"]["main_sp"], 16) + x["setup"]["stack_offset"] for x in r))')" 1 "main_sp moves by the offset exactly"

try "--stack-pin both: pinned and unpinned runs interleaved in one sweep, labelled pin"
il sweep -q --seed 4 --reps 2 --stack-pin both --env-add 0:2048:1024 --system A=bin/A/prog \
	--system B=bin/B/prog --no-check-output --output pin.jsonl -- layout
assert_eq "$(rj pin.jsonl 'sorted(set((x["labels"]["pin"], x["setup"]["stack_pinned"]) for x in r))')" \
	'[["off", false], ["on", true]]' "labels and what the library did"
assert_eq "$(rj pin.jsonl 'len(r)')" 24 "3 setups x 2 systems x 2 pins x 2 reps"
assert_eq "$(rj pin.jsonl 'len(set(x["setup"]["main_sp"] for x in r if x["labels"]["pin"] == "on"))')" 1 "pinned: one main_sp"
assert_eq "$(rj pin.jsonl 'len(set(x["setup"]["main_sp"] for x in r if x["labels"]["pin"] == "off"))')" 3 "unpinned: one per size"
assert_eq "$(rj pin.jsonl 'len(set(x["labels"]["pin"] for x in r[:8])) == 2 and len(set(x["labels"]["pin"] for x in r[-8:])) == 2')" \
	true "interleaved, not one after the other"

try "--aslr on: every run is a setup of its own"
if [ "$(cat /proc/sys/kernel/randomize_va_space)" = 0 ]; then
	skip "ASLR is disabled system-wide here"
else
	il sweep -q --seed 4 --reps 3 --aslr on --system A=bin/A/prog --system B=bin/B/prog \
		--output aslr.jsonl -- hello
	assert_eq "$(rj aslr.jsonl 'len(set(x["labels"]["setup"] for x in r))')" 6 "six setups"
	assert_eq "$(rj aslr.jsonl 'all(x["setup"]["aslr"] for x in r)')" true "ASLR was on"
	assert_eq "$(rj aslr.jsonl 'all(x["labels"]["setup"].startswith("e0-a") for x in r)')" true "ids"
fi

try "--input gives every run the file on stdin; without it, stdin is empty"
mkdir -p cat/A cat/B
cp /bin/cat cat/A/cat
cp /bin/cat cat/B/cat
seq 1000 >input.txt
il sweep -q --seed 1 --reps 2 --env-add 0,64 --input input.txt --system A=cat/A/cat \
	--system B=cat/B/cat --output in.jsonl
assert_eq "$?" 0 "status"
assert_eq "$(rj in.jsonl '[x["stdout_sha256"] for x in m if x["kind"] == "output"][0]')" \
	"$(sha256sum <input.txt | cut -d' ' -f1)" "each run read the whole file"
assert_eq "$(rj in.jsonl 'm[0]["identity"]["input_sha256"]')" "$(sha256sum <input.txt | cut -d' ' -f1)" "in the plan"
il sweep -q --seed 1 --reps 1 --system A=cat/A/cat --output noin.jsonl </dev/zero
assert_eq "$(rj noin.jsonl '[x["stdout_bytes"] for x in m if x["kind"] == "output"][0]')" 0 "no input: nothing read"

try "--show-output copies each run's output through; by default it is kept back"
il sweep -q --seed 1 --reps 2 --system A=bin/A/prog --output show.jsonl -- hello >out
assert_eq "$(wc -c <out | tr -d ' ')" 0 "kept back"
il sweep -q --seed 1 --reps 2 --system A=bin/A/prog --show-output --output show2.jsonl -- hello >out
assert_eq "$(grep -c 'hello from probe' out)" 2 "shown, once per run"

try "a run whose output differs stops the sweep, naming both runs; its record is not kept"
il sweep -q --seed 1 --reps 2 --system A=bin/A/prog --system E=bin/E/prog --output diff.jsonl -- hello 2>err
assert_eq "$?" 1 "status"
assert_eq "$(wc -l <err | tr -d ' ')" 1 "one line"
assert_match "$(cat err)" "^interloper sweep: run ([AE])/e0/r1 wrote other output than run ([AE])/e0/r1 \(" "message"
assert_eq "$(rj diff.jsonl 'len(r)')" 1 "the first run's record only"

try "--expect-output checks every run against a file"
bin/A/prog hello >good.out
printf 'not it\n' >bad.out
il sweep -q --seed 1 --reps 2 --system A=bin/A/prog --expect-output bad.out --output exp.jsonl -- hello 2>err
assert_eq "$?:$(rj exp.jsonl 'len(r)')" "1:0" "the wrong reference: stopped, nothing kept"
assert_match "$(cat err)" "wrote other output than the file of --expect-output bad.out" "message"
il sweep -q --seed 1 --reps 2 --system A=bin/A/prog --expect-output good.out --output exp2.jsonl -- hello
assert_eq "$?:$(rj exp2.jsonl 'len(r)')" "0:2" "the right one"

try "--no-check-output lets different outputs through and says so in every record"
il sweep -q --seed 1 --reps 2 --system A=bin/A/prog --system E=bin/E/prog --no-check-output \
	--output nocheck.jsonl -- hello
assert_eq "$?:$(rj nocheck.jsonl 'len(r)')" "0:4" "status and records"
assert_eq "$(rj nocheck.jsonl 'sorted(set(x["labels"]["output_check"] for x in r))')" '["off"]' "labelled"

try "a failing run stops the sweep and says which; with --keep-going it is kept and marked"
il sweep -q --seed 1 --reps 1 --system A="$PROGS/exitpaths" --output fail.jsonl -- return 3 2>err
assert_eq "$?" 1 "status"
assert_match "$(head -n 1 err)" "^interloper sweep: run A/e0/r1 ended with status 3; stopping" "message"
il sweep -q --seed 1 --reps 3 --system A="$PROGS/exitpaths" --keep-going --output fail2.jsonl -- return 3 2>err
assert_eq "$?" 1 "status"
assert_eq "$(rj fail2.jsonl '[x["exit"]["status"] for x in r]')" '[3, 3, 3]' "every run kept, its status in the record"
assert_eq "$(rj fail2.jsonl 'm[-1]["sweep"]["failed"]')" 3 "counted"

try "a run the library stops: its lines name the driver's options, not the variables (review12b L1)"
# sweep and compare are strict by default and refuse --strict; -e and
# --backend are what the user typed, INTERLOPER_EVENTS/_BACKEND are not
il sweep -q --seed 1 --reps 1 -e no_such_event_x --system A=bin/A/prog --output strict.jsonl 2>err
assert_eq "$?" 1 "sweep: status"
assert_eq "$(grep -c 'interloper: --events=no_such_event_x: no_such_event_x: ' err)" 1 "sweep: the event's line names --events"
assert_eq "$(tail -n 1 err)" \
	"interloper sweep: | interloper: strict, the default (--no-strict turns it off): stopping before main with exit status 127" \
	"sweep: the stop names its default and --no-strict, not --strict"
il compare -q --seed 1 -e no_such_event_x --output strictc.jsonl bin/A/prog bin/B/prog 2>err
assert_eq "$?" 1 "compare: status"
assert_eq "$(grep -c 'interloper: --events=no_such_event_x: ' err):$(grep -c 'strict, the default (--no-strict turns it off): stopping before main' err)" \
	1:1 "compare: --events, and strictness as its default"
il run --strict -e no_such_event_x -o strictr.jsonl -- bin/A/prog 2>err
assert_eq "$?:$(tail -n 1 err)" "127:interloper: --strict: stopping before main with exit status 127" "run: --strict, as typed"
assert_eq "$(grep -c 'INTERLOPER_' err)" 0 "run: no variable named"
il run --backend papi -e no_such_event_x -o strictp.jsonl -- bin/A/prog >/dev/null 2>err
if ! grep -q '^interloper run: ' err; then # not refused by run: the library ran
	assert_eq "$(grep -c '^interloper: --backend=papi, --events=no_such_event_x: no_such_event_x: ' err):$(grep -c 'INTERLOPER_' err)" \
		1:0 "run: --backend and --events, as typed"
else
	skip "--backend papi: not in this build ($(head -n 1 err))"
fi

try "--timeout: a run that hangs is killed with its group, written failed naming the limit (outside12 F14)"
# B hangs (a sleep of its own, in its process group); A ends at once.  The
# limit is 3 s so that A's runs end within it on a loaded machine; nothing
# here asserts a duration.
# The sleep's length is this test's own (its shell's pid), so that the
# check for what is left running sees no other copy of this test (CI runs
# two clones at once: a fixed "sleep 6543" matched the other's, 2 of 2)
hang=9$$
mkdir -p bin/H bin/G
printf '#!/bin/sh\nexit 0\n' >bin/H/p
printf '#!/bin/sh\nsleep %s\n' "$hang" >bin/G/p
chmod +x bin/H/p bin/G/p
il sweep -q --seed 1 --reps 1 --timeout 3 --system A=bin/H/p --system B=bin/G/p --output hang.jsonl 2>err
assert_eq "$?" 1 "status: the sweep stops"
assert_eq "$(grep -c '' err):$(head -n 1 err)" \
	"1:interloper sweep: run B/e0/r1 ran past --timeout 3 s and was killed (SIGTERM); stopping (--keep-going goes on)" \
	"one line naming the run and the limit"
assert_eq "$(rj hang.jsonl '[(x["run"], x["timeout"], x["signal"]) for x in m if x.get("kind") == "failed"]')" \
	'[["B/e0/r1", 3.0, 15]]' "the failed line: the run, the limit, the signal"
assert_eq "$(rj hang.jsonl 'm[-1]["sweep"]["stopped"]')" "a run failed" "the end line"
assert_eq "$(pgrep -f "^sleep $hang\$" | wc -l)" 0 "the run's group is gone with it"
# a program that ignores SIGTERM (so does its sleep): SIGKILL after the grace
printf '#!/bin/sh\ntrap "" TERM\nsleep %s\n' "$hang" >bin/G/p
il sweep --keep-going --seed 1 --reps 1 --timeout 3 --system A=bin/H/p --system B=bin/G/p \
	--output hang2.jsonl 2>err
assert_eq "$?" 1 "--keep-going: status"
assert_eq "$(rj hang2.jsonl '[(x["run"], x["signal"], x["why"]) for x in m if x.get("kind") == "failed"]')" \
	'[["B/e0/r1", 9, "ran past --timeout 3 s and was killed (SIGTERM, then SIGKILL)"]]' "SIGTERM ignored: SIGKILL"
assert_eq "$(rj hang2.jsonl 'len([x for x in r if x["labels"]["system"] == "A"])')" 1 "--keep-going: A's run ran"
assert_eq "$(grep 'B: ' err)" "interloper sweep: B: its one run failed (--timeout)" "said without a summary (B has no run left)"
assert_eq "$(pgrep -f "^sleep $hang\$" | wc -l)" 0 "nothing left running"
il compare -q --seed 1 --setups 1 -r 1 -w 0 --max-runs 2 --until 0.0001 --timeout 3 -o hang3.jsonl \
	bin/H/p bin/G/p >out 2>err
assert_eq "$?:$(rj hang3.jsonl '[x["timeout"] for x in m if x.get("kind") == "failed"]')" "1:[3.0]" "compare takes it too"
il sweep -q --seed 1 --timeout 0 --system A=bin/H/p --output x.jsonl 2>err
assert_eq "$?:$(cat err)" "1:interloper sweep: --timeout 0: expected a time such as 90s, 10m or 2h" "0 refused"
il sweep -q --seed 1 --timeout 5x --system A=bin/H/p --output x.jsonl 2>err
assert_match "$(cat err)" "^interloper sweep: --timeout 5x: expected a time" "a bad unit refused"

try "--warmup N: first N runs of each system in each setup, labelled warmup"
il sweep -q --seed 6 --reps 2 --warmup 2 --env-add 0,64 --system A=bin/A/prog --system B=bin/B/prog \
	--output warm.jsonl -- hello
assert_eq "$(rj warm.jsonl 'len([x for x in r if x["labels"].get("warmup") == "1"])')" 8 "2 x 2 systems x 2 setups"
assert_eq "$(rj warm.jsonl 'len([x for x in r if "warmup" not in x["labels"]])')" 8 "measured runs"
assert_eq "$(rj warm.jsonl 'all(max(i for i, x in enumerate(r) if x["labels"]["setup"] == s and "warmup" in x["labels"]) < min(i for i, x in enumerate(r) if x["labels"]["setup"] == s and "warmup" not in x["labels"]) for s in ("e0", "e64"))')" \
	true "each setup's warm-up runs come before its measured runs"

try "a hand-written loop of interloper run and the sweep give the same setup ids and sizes"
for s in 0 1 2; do
	for sys in A B; do
		il run -q --env-add $((s * 64)) --label system=$sys --output loop.jsonl -- bin/$sys/prog hello >/dev/null
	done
done
il sweep -q --seed 9 --reps 1 --env-add 0:128:64 --system A=bin/A/prog --system B=bin/B/prog \
	--output sw.jsonl -- hello
assert_eq "$(rj loop.jsonl 'sorted((x["labels"]["system"], x["labels"]["setup"], x["setup"]["env_bytes"]) for x in r)')" \
	"$(rj sw.jsonl 'sorted((x["labels"]["system"], x["labels"]["setup"], x["setup"]["env_bytes"]) for x in r)')" \
	"(system, setup, env_bytes)"

try "an environment and --env-add above exec's limit: refused before any run, naming the sizes (outside13 F7)"
# under ulimit -s 1024 exec takes 256 KiB of arguments and environment: an
# environment 6000 bytes below that runs with --env-add 1000, not 8192
(
	# shellcheck disable=SC3045 # dash, bash and busybox sh have it; else SKIP
	ulimit -s 1024 || exit 3
	want=$((262144 - 6000 - $(env | wc -c)))
	i=0
	while [ "$want" -gt 0 ]; do
		n=$((want > 60000 ? 60000 : want))
		export "BIG$i=$(head -c "$n" /dev/zero | tr '\0' x)"
		want=$((want - n - 10))
		i=$((i + 1))
	done
	il sweep -q --seed 1 --reps 1 --env-add 0,1000 --system A=bin/A/prog --output fits.jsonl -- hello 2>err.fits
	echo "fits $? $(recs fits.jsonl)"
	il sweep -q --seed 1 --reps 1 --env-add 0,8192 --system A=bin/A/prog --output big.jsonl -- hello 2>err.big
	echo "big $? $(recs big.jsonl)"
) >e2big.out
if [ $? -eq 3 ]; then
	skip "ulimit -s 1024 refused"
else
	assert_eq "$(tr '\n' ' ' <e2big.out)" "fits 0 2 big 1 0 " "under the limit every run, above it none ($(head -c 200 err.fits))"
	assert_eq "$(wc -l <err.big | tr -d ' ')" 1 "one line"
	assert_match "$(cat err.big)" "^interloper sweep: the environment \\([0-9]+ bytes in [0-9]+ variables with --env-add 8192, the largest\\) and the arguments of A \\([0-9]+ bytes\\) need [0-9]+ bytes, above exec's limit of 262144 \\(a quarter of ulimit -s\\)" \
		"the sizes and the limit"
fi

try "--help and the man page name the same options, for sweep and for run"
for c in sweep run; do
	il "$c" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u >"help.$c"
	grep -E '^\.It Fl' "$TOP/man/interloper-$c.1" | grep -oE 'Fl -[a-z][a-z-]*' | sed 's/Fl -/--/' |
		sort -u >"man.$c"
	assert_eq "$(comm -3 "help.$c" "man.$c" | tr -d '\t' | tr '\n' ' ')" "" "interloper $c: options in one and not the other"
	assert_ne "$(wc -l <"help.$c" | tr -d ' ')" 0 "options found"
done

try "bad options: one line, nothing run"
for args in "--reps x" "--env-add 1:b:2" "--system =x" "--setups 9" "--frob" "--seed 4294967296" \
	"--shard 3/2" "--until 0" "--stack-offset 7" "--stack-offset 0x10k" "--env-add 1,1" \
	"--label run=x" "--max-runs 5" "--layouts 2" "--submit"; do
	# shellcheck disable=SC2086 # options as words
	il sweep $args --system A=bin/A/prog --output bad.jsonl >out 2>err
	assert_eq "$?:$(wc -l <err | tr -d ' '):$(nrec bad.jsonl)" "1:1:0" "$args"
	assert_match "$(cat err)" "^interloper sweep: " "$args"
done
il sweep --system A=bin/A/prog --output - 2>err
assert_match "$?:$(cat err)" "^1:interloper sweep: --output -: a sweep needs a results file" "--output -"
il sweep --stack-offset 0x10k --system A=bin/A/prog 2>err
assert_eq "$(cat err)" "interloper sweep: --stack-offset 0x10k: not a byte count; expected a number of bytes such as 4096, 0x1000 or 4k (applied in 16-byte steps)" "the library's words"

done_testing
