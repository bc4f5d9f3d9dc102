#!/bin/sh
# Counters counted for real: software events here, hardware events where a
# PMU exists (skipped, visibly, where not), and every backend.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
P="$PROGS/probe"
cd "$T" || exit 1

val() { jget "$1" "r[0][\"events\"][\"$2\"][\"value\"]"; }

try "page-faults grow with the memory touched"
rm -f a.jsonl b.jsonl
INTERLOPER_OUTPUT=a.jsonl INTERLOPER_EVENTS=page-faults LD_PRELOAD=$LIB "$P" touch 1 >/dev/null
INTERLOPER_OUTPUT=b.jsonl INTERLOPER_EVENTS=page-faults LD_PRELOAD=$LIB "$P" touch 64 >/dev/null
a=$(val a.jsonl page-faults) b=$(val b.jsonl page-faults)
# 63 MiB more of 4 KiB pages is 16128 more faults; allow a little noise
assert_true "64 MiB ($b) minus 1 MiB ($a) is about 16128 faults" [ $((b - a)) -ge 15800 ] && [ $((b - a)) -le 16600 ]

try "an event is recorded under one name, however spelled"
# outside13 F6: -e TASK-CLOCK counted task-clock, recorded "TASK-CLOCK",
# and one event of runs of two spellings made two metrics
rm -f case.jsonl
for e in task-clock TASK-CLOCK Task-Clock; do
	INTERLOPER_OUTPUT=case.jsonl INTERLOPER_EVENTS="$e,Page-Faults" LD_PRELOAD=$LIB "$P" hello >/dev/null
done
assert_eq "$(jget case.jsonl 'sorted(set(k for x in r for k in x["events"]))')" '["page-faults", "task-clock"]' \
	"two names in three records"
assert_eq "$(jget case.jsonl 'all(x["events"][k].get("value", 0) > 0 for x in r for k in ["task-clock"])')" true \
	"counted"
INTERLOPER_OUTPUT=dup.jsonl INTERLOPER_EVENTS=task-clock,TASK-CLOCK LD_PRELOAD=$LIB "$P" hello 2>dup.err >/dev/null
assert_match "$(cat dup.err)" "event task-clock named twice; counting it once" "two spellings of one event: named twice"
assert_eq "$(jget dup.jsonl 'list(r[0]["events"])')" '["task-clock"]' "and counted once"
assert_match "$(sh "$IL" events TASK-CLOCK 2>&1 | tail -n 1)" "^  task-clock +perf \(generic\)" \
	"interloper events resolves it as the library does"
assert_match "$(sh "$IL" report -m TASK-CLOCK/Page-Faults case.jsonl 2>&1 | head -n 1)" "^metric task-clock/page-faults: 3 records" \
	"report -m in any case names the metric as recorded (review14c M2: unknown metric)"

try "task-clock is close to the CPU time of a busy loop"
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD=$LIB "$P" busy 300 >cpu.txt
tc=$(val r.jsonl task-clock) cpu=$(cat cpu.txt)
# the program's own CPU-time clock and the counter measure the same loop;
# the bound is loose because this machine is shared (accounting under heavy
# load has been seen 8% apart): it tells CPU time from a wrong unit or scope
assert_eq "$(jget r.jsonl "abs(r[0]['events']['task-clock']['value'] - $cpu) < 0.25 * $cpu")" true \
	"task-clock $tc vs CPU time $cpu, within 25%"
assert_eq "$(jget r.jsonl 'r[0]["times"]["wall_ns"] >= 0.9 * r[0]["events"]["task-clock"]["value"]')" true \
	"wall time covers the counted time"

try "default events: cycles and instructions with a PMU, else software events"
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD=$LIB /bin/true
if have_pmu; then
	assert_eq "$(jget r.jsonl 'sorted(r[0]["events"])')" '["cycles", "instructions"]' "default events"
else
	assert_eq "$(jget r.jsonl 'sorted(r[0]["events"])')" '["context-switches", "page-faults", "task-clock"]' "default events"
fi
assert_eq "$(jget r.jsonl 'all(v["enabled_ns"] >= v["running_ns"] > 0 for v in r[0]["events"].values())')" true \
	"raw value with enabled and running times"

try "the floor is calibrated per event and is small next to a real count"
assert_eq "$(jget r.jsonl 'sorted(r[0]["floor"]) == sorted(r[0]["events"])')" true "a floor per event"
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl INTERLOPER_EVENTS=task-clock LD_PRELOAD=$LIB "$P" busy 50 >/dev/null
assert_eq "$(jget r.jsonl '0 < r[0]["floor"]["task-clock"] < 0.01 * r[0]["events"]["task-clock"]["value"]')" true "floor"

try "hardware events count where a PMU exists"
if have_pmu; then
	rm -f a.jsonl b.jsonl
	INTERLOPER_OUTPUT=a.jsonl INTERLOPER_EVENTS=instructions,cycles LD_PRELOAD=$LIB "$P" busy 20 >/dev/null
	INTERLOPER_OUTPUT=b.jsonl INTERLOPER_EVENTS=instructions,cycles LD_PRELOAD=$LIB "$P" busy 200 >/dev/null
	assert_eq "$(python3 -c "print($(val b.jsonl instructions) > 5 * $(val a.jsonl instructions))")" true "instructions grow with work"
	assert_true "cycles counted" [ "$(val a.jsonl cycles)" -gt 0 ]
else
	skip "no hardware PMU here (perf_event_open of cycles fails); bare metal runs this"
fi

try "hardware events without a PMU degrade: null value, an error, the program runs"
if have_pmu; then
	skip "this machine has a PMU"
else
	rm -f r.jsonl
	INTERLOPER_OUTPUT=r.jsonl INTERLOPER_EVENTS=cycles,task-clock LD_PRELOAD=$LIB "$P" busy 10 >/dev/null 2>err
	assert_eq "$(jget r.jsonl 'r[0]["events"]["cycles"]["value"]')" null "cycles value"
	assert_match "$(jget r.jsonl 'r[0]["events"]["cycles"]["error"]')" "no hardware PMU" "cycles error"
	assert_true "task-clock still counted" [ "$(val r.jsonl task-clock)" -gt 0 ]
	assert_eq "$(grep -c '^interloper: INTERLOPER_EVENTS=cycles,task-clock: cycles: ' err)" 1 "one line on stderr"
fi

try "libpfm4 names count like the generic ones"
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl INTERLOPER_EVENTS=page-faults,perf::PAGE-FAULTS LD_PRELOAD=$LIB "$P" touch 8 >/dev/null
assert_eq "$(jget r.jsonl 'abs(r[0]["events"]["page-faults"]["value"] - r[0]["events"]["perf::PAGE-FAULTS"]["value"]) <= 2')" true \
	"page-faults vs perf::PAGE-FAULTS"

try "the papi backend counts for real"
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl INTERLOPER_BACKEND=papi INTERLOPER_EVENTS=perf::TASK-CLOCK,perf::PAGE-FAULTS \
	LD_PRELOAD=$LIB "$P" busy 100 >cpu.txt 2>err
if [ "$(jget r.jsonl 'r[0]["backend"]')" != papi ] ||
	[ "$(jget r.jsonl 'r[0]["events"]["perf::TASK-CLOCK"]["value"]')" = null ]; then
	skip "libpapi cannot count here: $(head -n 1 err)"
else
	cpu=$(cat cpu.txt)
	assert_eq "$(jget r.jsonl "abs(r[0]['events']['perf::TASK-CLOCK']['value'] - $cpu) < 0.25 * $cpu")" true "papi task-clock vs CPU time"
	assert_eq "$(jget r.jsonl '"perf::TASK-CLOCK" in r[0]["floor"]')" true "papi floor"
fi

try "auto picks papi for PAPI-only names, and none when PAPI cannot count them"
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl INTERLOPER_EVENTS=PAPI_TOT_INS LD_PRELOAD=$LIB /bin/true 2>err
if have_pmu; then
	assert_eq "$(jget r.jsonl 'r[0]["backend"]')" papi "backend"
else
	assert_eq "$(jget r.jsonl 'r[0]["backend"]')" none "backend"
	assert_eq "$(jget r.jsonl 'r[0]["events"]["PAPI_TOT_INS"]["value"]')" null "value"
	assert_match "$(cat err)" "INTERLOPER_EVENTS=PAPI_TOT_INS: PAPI_TOT_INS: " "reason on stderr"
fi

try "backend none: times only"
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl INTERLOPER_BACKEND=none LD_PRELOAD=$LIB "$P" busy 20 >/dev/null
assert_eq "$(jget r.jsonl 'r[0]["backend"]')" none "backend"
assert_eq "$(jget r.jsonl 'r[0]["events"]')" '{}' "events"
assert_eq "$(jget r.jsonl 'r[0]["times"]["user_ns"] + r[0]["times"]["sys_ns"] > 15000000')" true "CPU time recorded"

done_testing
