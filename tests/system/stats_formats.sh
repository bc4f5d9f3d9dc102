#!/bin/sh
# stats_formats.sh: the output formats of interloper report read back
# unambiguously: Go benchmark text by the rules of the format's published
# specification (golang.org/design/14313-benchmark-format, as
# golang.org/x/perf/benchfmt parses names: '/' separates key=value parts,
# a trailing -DIGITS is GOMAXPROCS, no white space), CSV with labels that
# hold ';' and '=', Markdown with '|', and every JSON field documented in
# interloper-report(1).  benchstat itself needs a newer Go than Debian 12
# has and a module proxy, so the specification's rules are checked.
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stats/cli.sh
. "$TOP/tests/stats/cli.sh"

built() {
	[ -x "$B/libexec/interloper-report" ]
}

# Labels with the characters that mean something in each format.
{
	for sys in 'gcc-12' 'clang 17/O3' 'a=b;c|d'; do
		for i in 1 2 3; do
			printf '{"schema":"interloper/1","labels":{"bench":"x%%y","system":"%s"},' "$sys"
			printf '"events":{"task-clock":{"value":%d},"instructions":{"value":%d},"cycles":{"value":%d}},' \
				$((1000 + i)) $((3000 + i)) $((1500 + i))
			printf '"times":{"wall_ns":%d.5}}\n' $((2000 + i))
		done
	done
} >"$T/odd.jsonl"

try "--gobench names survive the Go benchmark format; units say what was counted"
if built; then
	for m in task-clock:ns/op wall:ns/op cycles:cycles/op instructions/cycles:instructions/cycles; do
		metric=${m%%:*} unit=${m#*:}
		sh "$IL" report --by bench,system --metric "$metric" --gobench "$T/odd.jsonl" >"$T/go.txt" 2>/dev/null
		v=$(python3 - "$T/go.txt" "$T/odd.jsonl" "$metric" <<'EOF'
import json, re, sys
from urllib.parse import unquote
lines = [l.split() for l in open(sys.argv[1]) if l.startswith("Benchmark")]
recs = [json.loads(l) for l in open(sys.argv[2])]
metric = sys.argv[3]
def val(r):
    if metric == "wall":
        return r["times"]["wall_ns"]
    if "/" in metric:
        a, b = metric.split("/")
        return r["events"][a]["value"] / r["events"][b]["value"]
    return r["events"][metric]["value"]
want = sorted((r["labels"]["bench"], r["labels"]["system"], val(r)) for r in recs)
got, units, procs = [], set(), 0
for f in lines:
    name, iters, value, unit = f[0], f[1], float(f[2]), f[3]
    assert len(f) == 4 and iters == "1"
    # benchfmt: a trailing -DIGITS is GOMAXPROCS
    if re.search(r"-[0-9]+$", name):
        procs += 1
    parts = name[len("Benchmark"):].split("/")
    assert parts[0] == "Interloper"
    kv = dict(p.split("=", 1) for p in parts[1:])
    got.append((unquote(kv["bench"]), unquote(kv["system"]), value))
    units.add(unit)
print(sorted(got) == want, procs, " ".join(sorted(units)))
EOF
)
		assert_eq "$v" "True 0 $unit" "$metric: names and values read back, no GOMAXPROCS, unit $unit"
	done
else
	skip "the statistics programs are not built; run make"
fi

try "--csv: one row per comparison with df, interval kind, both ends, verdict, metric and unit; labels read back"
if built; then
	sh "$IL" report --by bench --compare 'system=a=b;c|d' --csv "$T/odd.jsonl" >"$T/out.csv" 2>/dev/null
	assert_eq "$?" 0 "exit status"
	v=$(python3 - "$T/out.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
def pairs(s):
    # label=value;...; a value holding ; = " \ is in quotes, \ escapes
    out, i = {}, 0
    while i < len(s):
        k = s.index("=", i)
        key, i = s[i:k], k + 1
        if i < len(s) and s[i] == '"':
            i += 1; v = ""
            while s[i] != '"':
                if s[i] == "\\":
                    i += 1
                v += s[i]; i += 1
            i += 1
        else:
            j = s.find(";", i)
            j = len(s) if j < 0 else j
            v, i = s[i:j], j
        out[key] = v
        i += 1 if i < len(s) and s[i] == ";" else 0
    return out
cmp = [r for r in rows if r["kind"] == "comparison"]
print(len(cmp), sorted(pairs(r["labels"])["system"] for r in cmp),
      {pairs(r["baseline"])["system"] for r in cmp}, {pairs(r["labels"])["bench"] for r in cmp},
      all(r["df"] and r["ci_kind"] == "bounded" and r["ci_lo"] and r["ci_hi"] and r["verdict"]
          and r["metric"] == "wall" and r["unit"] == "ns" for r in cmp))
EOF
)
	assert_eq "$v" "2 ['clang 17/O3', 'gcc-12'] {'a=b;c|d'} {'x%y'} True" "columns and labels"
	# An exclusive set: both ends, and the kind says how to read them.
	for i in 1 2 3 4 5; do
		printf '{"schema":"interloper/1","labels":{"system":"old"},"times":{"wall_ns":%s}}\n' "$(echo "0.5 -0.3 1.2 -0.8 0.4" | cut -d' ' -f$i)"
		printf '{"schema":"interloper/1","labels":{"system":"new"},"times":{"wall_ns":%s}}\n' "$(echo "2.0 2.2 1.9 2.1 2.3" | cut -d' ' -f$i)"
	done >"$T/excl.jsonl"
	row=$(sh "$IL" report --compare system=old --csv "$T/excl.jsonl" 2>/dev/null | grep '^comparison')
	assert_match "$row" '^comparison,system=new,system=old,wall,ns,mean,value/baseline,5,5,10\.5,exclusive,-[0-9.]+,[0-9.]+,[0-9.]+,' "exclusive: both ends and df"
else
	skip "the statistics programs are not built; run make"
fi

try "--markdown escapes '|' in cells"
if built; then
	md=$(sh "$IL" report --by system --markdown "$T/odd.jsonl" 2>/dev/null)
	assert_match "$md" '^\| a=b;c\\\|d \| 3 \|' "the value's bar is escaped"
	assert_eq "$(printf '%s\n' "$md" | grep -c '^| a=b;c\\|d |')" 2 "in groups and diagnostics"
else
	skip "the statistics programs are not built; run make"
fi

try "every field of the JSON output is documented in interloper-report(1)"
if built; then
	# A report that has every part: groups, comparisons with setups and a
	# suite, levels per group, warnings.
	awk 'BEGIN { srand(3)
		for (b = 0; b < 2; b++) for (s = 0; s < 4; s++) for (y = 0; y < 2; y++) for (r = 0; r < 3; r++)
			printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"b%d\",\"system\":\"%s\",\"setup\":\"s%d\",\"rep\":\"%d\"},\"times\":{\"wall_ns\":%.2f}}\n", b, y ? "O3" : "O2", s, r, 1000 * (1 + 0.01 * rand()) * (1 + 0.02 * s * y)
	}' >"$T/all.jsonl"
	sh "$IL" report --by bench --compare system=O2 --levels setup,rep --json "$T/all.jsonl" >"$T/all.json" 2>/dev/null
	sh "$IL" report --where bench=b0 --where system=O2 --levels setup,rep --json "$T/all.jsonl" >"$T/one.json" 2>/dev/null
	man=$(mandoc -Tutf8 "$TOP/man/interloper-report.1" 2>/dev/null | col -b)
	missing=$(python3 - "$T/all.json" "$T/one.json" "$man" <<'EOF'
import json, re, sys
keys = set()
def walk(x, label=False):
    if isinstance(x, dict):
        for k, v in x.items():
            if not label:
                keys.add(k)
            # the keys of labels, shares and per_setup labels are label names
            walk(v, k in ("labels", "baseline_labels", "shares"))
    elif isinstance(x, list):
        for v in x:
            walk(v)
for f in sys.argv[1:3]:
    walk(json.load(open(f)))
text = sys.argv[3]
print(" ".join(sorted(k for k in keys if not re.search(r"\b" + re.escape(k) + r"\b", text))))
EOF
)
	assert_eq "$missing" "" "undocumented JSON fields"
else
	skip "the statistics programs are not built; run make"
fi
try "a ratio interval whose lower end is below 0 says so in words, in text, markdown and csv; JSON keeps the numbers"
if built; then
	# outside12 F12: O3's setup means 30606, 30695 and 64095 ns (lit, 3
	# passes): Fieller's bounded interval reached below 0, printed as
	# "120.6% faster", no time at all
	negrec() { # FILE BASE1 BASE2 BASE3
		for s in 1 2 3; do for r in 1 2; do
			case $s in 1) a=$2 b=30606 ;; 2) a=$3 b=30695 ;; 3) a=$4 b=64095 ;; esac
			printf '{"schema":"interloper/1","labels":{"system":"O2","setup":"s%s","rep":"%s"},"times":{"wall_ns":%s}}\n' "$s" "$r" $((a + r * 10))
			printf '{"schema":"interloper/1","labels":{"system":"O3","setup":"s%s","rep":"%s"},"times":{"wall_ns":%s}}\n' "$s" "$r" $((b + r * 10))
		done; done >"$1"
	}
	negrec "$T/neg.jsonl" 30000 30100 29900
	want='O3 vs O2: 39.3% slower, 95% CI from a ratio below zero to 201.3% slower (no difference can be claimed; the value is not clearly above zero), over 3 paired'
	for f in text markdown csv; do
		opt=--$f
		[ "$f" = text ] && opt=
		# shellcheck disable=SC2086 # no option for text
		sh "$IL" report $opt --compare system=O2 --setup setup "$T/neg.jsonl" >"$T/neg.$f" 2>/dev/null
		assert_eq "$(grep -cF "$want" "$T/neg.$f")" 1 "$f: the verdict"
		assert_eq "$(grep -c 'faster' "$T/neg.$f")" 0 "$f: no end said as a time faster"
	done
	j=$(sh "$IL" report --json --compare system=O2 --setup setup "$T/neg.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s' "$j" | js 'r["comparisons"][0]["ci_kind"]')" bounded "JSON: still bounded"
	assert_eq "$(printf '%s' "$j" | js '"%.6g %.6g" % tuple(r["comparisons"][0]["ci"])')" "-0.203546 3.0128" "JSON: its numbers"
	v=$(printf '%s' "$j" | js 'r["comparisons"][0]["verdict"]')
	assert_eq "${v%%" setups (setup;"*}" "$want" "JSON: the verdict's words"
	negrec "$T/neg2.jsonl" 1000000 1000100 999900
	sh "$IL" report --compare system=O2 --setup setup "$T/neg2.jsonl" >"$T/neg2.out" 2>/dev/null
	assert_match "$(cat "$T/neg2.out")" "O3 vs O2: 95\\.8% faster, 95% CI from a ratio below zero to 91\\.0% faster \\(the value is not clearly above zero\\), over 3 paired" \
		"an interval wholly below 1: the difference stands, its lower end in words"
	sh "$IL" report --speedup --compare system=O3 --setup setup "$T/neg.jsonl" >"$T/neg3.out" 2>/dev/null
	assert_match "$(cat "$T/neg3.out")" "O2 vs O3: speedup 1\\.393, 95% CI from a ratio below zero to 3\\.013 \\(no difference can be claimed; the baseline is not clearly above zero\\)" \
		"--speedup: the baseline is the numerator"
else
	skip "the statistics programs are not built; run make"
fi
done_testing
