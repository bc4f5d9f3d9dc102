#!/bin/sh
# demo.sh: `make demo QUICK=1`, the seed paper's experiments in their quick
# form, run as a user runs it; every file it promises is there and valid,
# and the summary's numbers are the records' own: recomputed here with
# interloper report --json from the results files it kept.
# timeout: 1200
# (a hang guard, not a duration goal: about 5 minutes quiet, and 864 s was
# seen at load 15 to 18 with 900 here)
# isolate: net
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

ready() {
	[ -x "$B/libexec/interloper-build" ] && [ -x "$B/libexec/interloper-plot" ] &&
		command -v cc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 &&
		command -v gnuplot >/dev/null 2>&1
}

O=$T/out
try "make demo QUICK=1 runs and writes every file"
if ! ready; then
	skip "needs the tools built, cc, make and gnuplot"
	done_testing
	exit 0
fi
make -s -C "$TOP" demo QUICK=1 DEMO_OUT="$O" >"$T/out.txt" 2>"$T/err.txt"
assert_eq "$?" 0 "exit status ($(tail -n 3 "$T/err.txt"))"
assert_match "$(tail -n 1 "$T/err.txt")" "^demo: done in [0-9]+ s: $O/README.md\$" "its last line"
for f in README.md demo.log demo.facts paper-table.md env-coarse.jsonl env-focus.jsonl bzip2-compress.jsonl \
	bzip2-decompress.jsonl report-env-coarse.txt report-env-levels.txt report-causal.txt \
	report-bzip2.txt; do
	assert_true "$f" test -s "$O/$f"
done
for f in fig1-env-coarse fig1-pin-O0 fig1-pin-O2 fig1-pin-O3 fig2-violin-layout fig3-violin-env fig6-hist; do
	assert_eq "$(od -An -tx1 -N8 "$O/$f.png" | tr -d ' \n')" 89504e470d0a1a0a "$f.png is a PNG"
	assert_eq "$(head -c 5 "$O/$f.pdf")" "%PDF-" "$f.pdf is a PDF"
	assert_match "$(cat "$O/README.md")" "\\($f\\.png\\)" "the summary shows $f"
done
assert_eq "$(sed -n '/"schema":"interloper-sweep\/1"/d; p' "$O/env-coarse.jsonl" | "$B/libexec/interloper-record" validate && echo ok)" \
	ok "the records are valid interloper/1"

try "the summary's numbers are the records' (interloper report --json, recomputed)"
# the metric the demo chose (cycles with a PMU, task-clock without), as it says
metric=$(sed -n 's/^- Metric: \*\*\([a-z-]*\)\*\*.*/\1/p' "$O/README.md")
R="--metric ${metric:-none} --quiet-warning all"
# shellcheck disable=SC2086 # R holds options
sh "$IL" report $R --by system --setup env_add --estimator p10 --json "$O/env-coarse.jsonl" >"$T/coarse.json"
# shellcheck disable=SC2086
sh "$IL" report $R --by system --levels env_add,rep --json "$O/env-coarse.jsonl" >"$T/levels.json"
# shellcheck disable=SC2086
sh "$IL" report $R --by system --compare pin=off --setup env_add --estimator p10 --json \
	"$O/env-focus.jsonl" >"$T/focus.json"
# shellcheck disable=SC2086
sh "$IL" report $R --by bench --compare system=O2 --speedup --estimator p10 --setup env_add,layout --json \
	"$O/bzip2-compress.jsonl" "$O/bzip2-decompress.jsonl" >"$T/bz.json"
v=$(python3 - "$O" "$T" "$metric" <<'EOF'
import json, re, sys
o, t, metric = sys.argv[1:4]
text = open(o + "/README.md").read()
missing = []
def want(s):
    if s not in text:
        missing.append(s)
def runs(*files):
    return sum(1 for f in files for l in open(o + "/" + f) if '"schema":"interloper/1"' in l)
want("%d runs in a seeded" % runs("env-coarse.jsonl"))
want("%d runs interleaved" % runs("env-focus.jsonl"))
want("every output checked: %d runs" % runs("bzip2-compress.jsonl", "bzip2-decompress.jsonl"))
# Kalibera & Jones shares per system
for g in json.load(open(t + "/levels.json"))["groups"]:
    sh = g["levels"]["share"]
    want("| %s | %.1f%% | %.1f%% |" % (g["labels"]["system"], 100 * sh[0], 100 * sh[1]))
# sizes that stood out in the coarse pass, with their difference
for g in json.load(open(t + "/coarse.json"))["groups"]:
    e = g["setup_effect"]
    for s in e["per_setup"]:
        if s["stands_out"]:
            want("%s (%+.1f%%)" % (s["setup"], 100 * (s["estimate"] / e["center"] - 1)))
# the causal analysis: tau unpinned and pinned, the ratio and its interval
f = json.load(open(t + "/focus.json"))
tau = {(g["labels"]["system"], g["labels"]["pin"]): g["setup_effect"] for g in f["groups"]}
for (sy, pin), e in tau.items():
    if pin == "off":
        want("- %s: setup standard deviation tau %.2f%% (95%% CI %.2f%% to %.2f%%)" % (
            sy, 100 * e["tau"], 100 * e["tau_ci"][0], 100 * e["tau_ci"][1]))
for c in f["comparisons"]:
    sv = c["setup_variance"]
    if sv and sv["ratio"] is not None:
        hi = "unbounded" if sv["ci"][1] is None else "%.4f" % sv["ci"][1]
        want("| %s | %.2f%%" % (c["labels"]["system"], 100 * tau[(c["labels"]["system"], "off")]["tau"]))
        want("%.4f (%.4f to %s)" % (sv["ratio"], sv["ci"][0], hi))
# bzip2: the speedup and its interval per benchmark, and the cells' range
for c in json.load(open(t + "/bz.json"))["comparisons"]:
    b = c["labels"]["bench"]
    if c["ci"] is None:  # exclusive or unbounded (two sizes: ~1 df): said, not a TypeError
        want("- **%s**: speedup %.4f (no 95%% interval: the confidence set is %s)" % (b, c["ratio"], c["ci_kind"]))
    else:
        want("- **%s**: speedup %.4f (95%% CI %.4f to %.4f)" % (b, c["ratio"], c["ci"][0], c["ci"][1]))
    s = c["setups"]
    if s is None:  # said, never a TypeError: the report gives why
        missing.append("%s: no per-setup view: %s" % (b, c.get("setups_why")))
        continue
    want("- %s: single cells ranged from %.4f to %.4f" % (b, s["min"], s["max"]))
    claim = "p = %.2g); **Claim 4, one setup alone could mislead: " % s["heterogeneity"]["p"]
    want(claim + ("appeared here**" if s["straddles_one"] else ""))
    if not s["straddles_one"] and claim + "appeared here**" in text:
        missing.append("claim 4 appeared for " + b)
print("ok" if not missing and metric in ("task-clock", "cycles") else missing)
EOF
)
assert_eq "$v" ok "numbers found in README.md"
assert_match "$(cat "$O/README.md")" "Mode: \\*\\*quick\\*\\*" "says it is the quick mode"
assert_match "$(cat "$O/README.md")" "Took [0-9]+ s in all" "says how long it took"
for c in 1 2 4; do
	assert_match "$(cat "$O/README.md")" "\\*\\*Claim $c, [^*]*: (appeared here|did not appear here|could not be tested here)\\*\\*" "claim $c ends with its verdict"
done
assert_match "$(cat "$O/README.md")" "\\*\\*Claim 3, the link order changes the time \\(compress\\): (appeared here|did not appear here|could not be tested here)\\*\\*" "claim 3 ends with its verdict"

try "demo.sh --from analyses the kept run again: the same summary, reports and table"
# --no-figures: the figures were checked above, and drawing them again
# took a quarter of the re-analysis (98 s against 71 s on demo/results/)
sh "$TOP/demo/demo.sh" --from "$O" --out "$T/again" --no-figures >/dev/null 2>"$T/err2.txt"
assert_eq "$?" 0 "exit status ($(tail -n 2 "$T/err2.txt"))"
for f in README.md paper-table.md report-env-coarse.txt report-env-levels.txt report-causal.txt report-bzip2.txt; do
	assert_true "$f is the same" cmp -s "$O/$f" "$T/again/$f"
done

try "the demo's options: a bad one is one line"
err=$(sh "$TOP/demo/demo.sh" --bogus 2>&1 >/dev/null)
assert_eq "$?" 1 "exit status"
assert_eq "$err" "demo: unknown argument --bogus; expected --quick, --out DIR, --from DIR or --no-figures (see --help)" "one line"

done_testing
