#!/bin/sh
# stats_attrib.sh: interloper report --attribute, which recorded fact the
# setups' differences follow (Mytkowicz et al., section 7: the stack's
# address), on synthetic sweeps with drift (tests/progs/synthrec.c): it
# finds a planted alignment effect and a planted link-position effect, and
# names nothing on A/A, on setups that differ for an unrecorded reason,
# and when ASLR moves the stack every run (which it says).  Each data set
# and the report's exchanges are seeded: the outcomes are fixed.
# bench/attrib.py measures the rates over many data sets.
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

SYNTH="$B/tests/progs/synthrec"

built() {
	[ -x "$B/libexec/interloper-report" ] && [ -x "$SYNTH" ]
}

# attr FILE [OPTIONS]: the report's attribution[] as "name: explained_by"
# lines, and each fact's state after it.
attr() {
	f=$1
	shift
	sh "$IL" report --setup setup --attribute --json "$@" "$f" 2>"$T/err" >"$T/out.json" ||
		return 1
	python3 - "$T/out.json" <<'EOF'
import json, sys
for a in json.load(open(sys.argv[1]))["attribution"]:
    print("%s: %s" % (a["name"], ",".join(a["explained_by"]) or "nothing"))
    for f in a["facts"]:
        print("  %s %s%s" % (f["fact"], f["state"],
                             " named" if f["named"] else ""))
EOF
}

try "a planted alignment effect (B 3% slower where main_sp % 64 == 0) is found"
if built; then
	"$SYNTH" -s 1 -e 0.03 -m 64 >"$T/align.jsonl"
	out=$(attr "$T/align.jsonl" --compare system=A)
	assert_eq "$?" 0 "exit status ($(cat "$T/err"))"
	assert_match "$out" '^system=B vs system=A: main_sp mod 64$' "main_sp mod 64 explains it, alone"
	assert_match "$out" '  env_bytes mod 64 equivalent' \
		"env_bytes mod 64 has the same classes (ASLR off): one fact to the data"
	v=$(python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["attribution"][0]
f = {x["fact"]: x for x in a["facts"]}["main_sp mod 64"]
slow = [c for c in f["by_class"] if c["ratio"] > 1.02]
print(f["p"] <= 0.05, f["p_noise"] <= 0.05, f["p_setups"] <= 0.05, f["classes"],
      [c["value"] for c in slow], a["passes"], a["setups"])' "$T/out.json")
	assert_eq "$v" "True True True 4 ['0'] 8 32" \
		"both tests reject; the slow class is residue 0; 8 passes, 32 setups"
	txt=$(sh "$IL" report --compare system=A --setup setup --attribute "$T/align.jsonl" 2>/dev/null)
	assert_match "$txt" 'explained by main_sp mod 64: p 0\.0' "the text names it"
	assert_match "$txt" 'the same classes \(the records cannot tell them apart\): env_bytes mod 64' \
		"and says what it cannot tell apart"
else
	skip "the statistics programs are not built; run make tests-build"
fi

try "A/A sweeps with drift: nothing recorded explains anything"
if built; then
	for s in 1 2 3; do
		"$SYNTH" -s "$s" >"$T/aa$s.jsonl"
		out=$(attr "$T/aa$s.jsonl" --compare system=A --seed "$s")
		assert_match "$out" '^system=B vs system=A: nothing$' "A/A seed $s: no fact named"
	done
	txt=$(sh "$IL" report --compare system=A --setup setup --attribute "$T/aa1.jsonl" 2>/dev/null)
	assert_match "$txt" "nothing recorded explains the setups' differences" "the text says so"
else
	skip "the statistics programs are not built; run make tests-build"
fi

try "setups that differ for a reason no record carries: no fact is named for it"
if built; then
	"$SYNTH" -s 1 -u 0.03 >"$T/unexpl.jsonl"
	out=$(attr "$T/unexpl.jsonl" --compare system=A)
	assert_match "$out" '^system=B vs system=A: nothing$' "no fact named"
else
	skip "the statistics programs are not built; run make tests-build"
fi

try "ASLR on: main_sp and heap_start vary within a setup, and the report says so"
if built; then
	"$SYNTH" -s 1 -a -e 0.03 >"$T/aslr.jsonl"
	out=$(attr "$T/aslr.jsonl" --compare system=A)
	assert_match "$out" '  main_sp mod 64 varies' "main_sp is not tested"
	assert_match "$out" '  heap_start mod 4096 varies' "nor heap_start"
	assert_match "$out" '  env_bytes mod 64 tested' "env_bytes still is"
	txt=$(sh "$IL" report --compare system=A --setup setup --attribute "$T/aslr.jsonl" 2>/dev/null)
	assert_match "$txt" 'attribution to them needs ASLR off' "the text says what it would need"
else
	skip "the statistics programs are not built; run make tests-build"
fi

try "a planted link-order effect (B 3% slower where a.o is linked first) is found"
if built; then
	"$SYNTH" -s 1 -o 0.03 -E 2 -L 16 >"$T/link.jsonl"
	out=$(attr "$T/link.jsonl" --compare system=A)
	assert_match "$out" '^system=B vs system=A: (.*,)?link position of a\.o(,.*)?$' \
		"a.o's position explains it (the sweep's plan line carries the orders)"
	assert_eq "$(printf '%s\n' "$out" | grep -c 'main_sp mod 64 tested named')" 0 \
		"the stack is not named"
	# the plan line last: read by the second of the report's two threads
	{
		grep -v interloper-sweep/1 "$T/link.jsonl"
		grep interloper-sweep/1 "$T/link.jsonl"
	} | gzip >"$T/last.jsonl.gz"
	gzip -dc "$T/last.jsonl.gz" >"$T/last.jsonl"
	assert_eq "$(attr "$T/last.jsonl" --compare system=A | head -1)" "$(printf '%s\n' "$out" | head -1)" \
		"the same with the plan line last"
	assert_eq "$(attr "$T/last.jsonl.gz" --compare system=A | head -1)" "$(printf '%s\n' "$out" | head -1)" \
		"and compressed"
else
	skip "the statistics programs are not built; run make tests-build"
fi

try "one system's setups (no --compare): the group whose setups differ, and why"
if built; then
	out=$(attr "$T/align.jsonl" --by system)
	assert_match "$out" '^system=A: nothing$' "A's setups differ by nothing recorded"
	assert_match "$out" '^system=B: main_sp mod 64$' "B's by main_sp mod 64"
else
	skip "the statistics programs are not built; run make tests-build"
fi

try "records without the sweep's plan line: no link positions, and it says so"
if built; then
	grep -v interloper-sweep/1 "$T/align.jsonl" >"$T/noplan.jsonl"
	out=$(attr "$T/noplan.jsonl" --compare system=A)
	assert_match "$out" '^system=B vs system=A: main_sp mod 64$' "still found"
	assert_eq "$(printf '%s\n' "$out" | grep -c 'link position')" 0 "no link positions tried"
	txt=$(sh "$IL" report --compare system=A --setup setup --attribute "$T/noplan.jsonl" 2>/dev/null)
	assert_match "$txt" 'link positions: no plan line names the layouts' "said"
else
	skip "the statistics programs are not built; run make tests-build"
fi

try "--attribute needs --setup: one line, exit 1"
if built; then
	sh "$IL" report --attribute "$T/align.jsonl" >"$T/o" 2>"$T/e"
	assert_eq "$?" 1 "exit status"
	assert_eq "$(wc -l <"$T/e" | tr -d ' ')" 1 "one line"
	assert_match "$(cat "$T/e")" '--attribute needs --setup LABEL' "naming what it needs"
	assert_eq "$(wc -c <"$T/o" | tr -d ' ')" 0 "nothing on stdout"
else
	skip "the statistics programs are not built; run make tests-build"
fi

done_testing
