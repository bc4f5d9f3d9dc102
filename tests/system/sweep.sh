#!/bin/sh
# interloper sweep: setup randomization over environment sizes and link
# orders, seeded, with every record labelled.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1
mkdir -p bin/A bin/B
cp "$PROGS/probe" bin/A/prog
cp "$PROGS/probe" bin/B/prog

try "every system in every setup, reps times, each record labelled"
sh "$IL" sweep -q --seed 3 --reps 2 --env-add 0:128:64 --system A=bin/A/prog \
	--system B=bin/B/prog --label suite=t --output res.jsonl -- hello
assert_eq "$?" 0 "status"
assert_eq "$(nrec res.jsonl)" 12 "records: 3 setups x 2 systems x 2 reps"
assert_true "valid" valid res.jsonl
assert_eq "$(jget res.jsonl 'sorted(set((x["labels"]["system"], x["labels"]["setup"], x["labels"]["env_add"], x["labels"]["rep"]) for x in r)) == sorted((s, "s%d" % (i + 1), str(64 * i), str(k)) for s in "AB" for i in range(3) for k in (1, 2))')" \
	true "each (system, setup, rep) once, env_add as the setup says"
assert_eq "$(jget res.jsonl 'sorted(set(x["labels"]["bench"] + "/" + x["labels"]["suite"] for x in r))')" '["prog/t"]' "bench and extra labels"
assert_eq "$(jget res.jsonl 'all(x["setup"]["env_bytes"] - r[0]["setup"]["env_bytes"] == int(x["labels"]["env_add"]) - int(r[0]["labels"]["env_add"]) for x in r)')" \
	true "env_add really moves the environment size"
assert_eq "$(jget res.jsonl 'all(x["argv"][1:] == ["hello"] for x in r)')" true "the program's arguments"

try "the same seed gives the same plan, another seed another order"
sh "$IL" sweep -n --seed 3 --reps 2 --env-add 0:640:64 --setups 4 --system A=bin/A/prog --system B=bin/B/prog >p1
sh "$IL" sweep -n --seed 3 --reps 2 --env-add 0:640:64 --setups 4 --system A=bin/A/prog --system B=bin/B/prog >p2
sh "$IL" sweep -n --seed 4 --reps 2 --env-add 0:640:64 --setups 4 --system A=bin/A/prog --system B=bin/B/prog >p3
assert_eq "$(cat p1)" "$(cat p2)" "seed 3 twice"
assert_ne "$(cat p1)" "$(cat p3)" "seed 4"
assert_eq "$(wc -l <p1 | tr -d ' ')" 16 "4 setups x 2 systems x 2 reps"
assert_eq "$(cut -f3 p1 | sort -u | wc -l | tr -d ' ')" 4 "4 distinct setups drawn"

try "paths of different lengths are refused: they would shift the stack"
mkdir -p bin/BB
cp "$PROGS/probe" bin/BB/prog
sh "$IL" sweep -q --system A=bin/A/prog --system B=bin/BB/prog --output res2.jsonl -- hello 2>err
assert_eq "$?" 1 "status"
assert_match "$(cat err)" "paths of different lengths shift the stack" "message"
assert_eq "$(nrec res2.jsonl)" 0 "nothing ran"

try "link orders as setups: {layout} takes each binary of interloper link"
if ! command -v cc >/dev/null; then
	skip "no C compiler"
else
	printf 'int f(void);\nint main(void){return f() - 42;}\n' >m.c
	printf 'int f(void){return 42;}\n' >f.c
	printf 'int g(void){return 1;}\n' >g.c
	cc -c m.c f.c g.c
	sh "$IL" link -q -k 3 -s 1 -d lay -- cc -o p m.o f.o g.o >/dev/null
	sh "$IL" sweep -q --seed 1 --reps 1 --layouts 3 --system 'X=lay/p.{layout}' --output res3.jsonl
	assert_eq "$?" 0 "status"
	assert_eq "$(jget res3.jsonl 'sorted(x["labels"]["layout"] for x in r)')" '["00", "01", "02"]' "one record per layout"
	assert_eq "$(jget res3.jsonl 'sorted(x["argv"][0] for x in r)')" '["lay/p.00", "lay/p.01", "lay/p.02"]' "the layouts' binaries"
fi

try "a failing run stops the sweep and says which"
sh "$IL" sweep -q --seed 1 --reps 1 --system A="$PROGS/exitpaths" --output res4.jsonl -- return 3 2>err
assert_eq "$?" 1 "status"
assert_match "$(cat err)" "^interloper sweep: A in setup s1 \(env_add 0, layout -\), rep 1, ended with status 3" "message"

try "bad options: one line"
for args in "--reps x" "--env-add 1:b:2" "--system =x" "--setups 9" "--frob"; do
	# shellcheck disable=SC2086 # options as words
	sh "$IL" sweep $args --system A=bin/A/prog >out 2>err
	assert_eq "$?:$(wc -l <err | tr -d ' ')" "1:1" "$args"
	assert_match "$(cat err)" "^interloper sweep: " "$args"
done

done_testing
