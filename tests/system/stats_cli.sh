#!/bin/sh
# stats_cli.sh: interloper report, plan and plot as a user runs them,
# through the front command: help, input from stdin and several files,
# valid JSON, and plots rendered by real gnuplot to PNG and SVG.
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
# shellcheck source=tests/stats/cli.sh
. "$TOP/tests/stats/cli.sh"

built() {
	for p in report plan plot; do
		[ -x "$B/libexec/interloper-$p" ] || return 1
	done
}

# A small experiment: 2 benchmarks x 2 systems x 8 setups x 3 runs.
awk 'BEGIN {
	srand(5)
	for (b = 0; b < 2; b++) for (s = 0; s < 8; s++) for (y = 0; y < 2; y++) for (r = 0; r < 3; r++) {
		v = (b + 1) * 1000 * (1 + 0.02 * sin(s)) * (y ? 0.99 : 1) * (1 + 0.002 * rand())
		printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"b%d\",\"system\":\"%s\",", b, y ? "O3" : "O2"
		printf "\"setup\":\"s%d\",\"rep\":\"%d\"},\"times\":{\"wall_ns\":%.1f,\"user_ns\":1,\"sys_ns\":0},", s, r, v
		printf "\"setup\":{\"env_bytes\":%d}}\n", 2048 + 64 * s
	}
}' >"$T/runs.jsonl"
head -n 48 "$T/runs.jsonl" >"$T/first.jsonl"
tail -n +49 "$T/runs.jsonl" >"$T/rest.jsonl"

for sub in report plan plot; do
	try "interloper $sub --help"
	if ! built; then
		skip "the statistics programs are not built; run make"
		continue
	fi
	out=$(sh "$IL" "$sub" --help)
	assert_eq "$?" 0 "exit status"
	assert_match "$out" "^usage: interloper $sub " "usage line"
	assert_match "$out" "interloper-$sub\\(1\\)" "points to the man page"
	assert_eq "$(sh "$IL" "$sub" --help 2>&1 >/dev/null)" "" "nothing on stderr"
done


try "bad usage is one line naming the command as typed, never the usage"
if built; then
	one_line "report --metrc" '^interloper report: unknown option --metrc; see interloper report --help$' \
		report --metrc x "$T/runs.jsonl"
	one_line "report --compare without =BASELINE" \
		'^interloper report: --compare system: expected LABEL=BASELINE' \
		report --compare system "$T/runs.jsonl"
	one_line "report --co" '^interloper report: unknown option --co; did you mean --compare\? see interloper report --help$' \
		report --co system=O2 "$T/runs.jsonl"
	one_line "report --se" '^interloper report: ambiguous option --se \(--setup, --seed\); ' \
		report --se setup "$T/runs.jsonl"
	one_line "report --json=1" '^interloper report: --json takes no value; see interloper report --help$' \
		report --json=1 "$T/runs.jsonl"
	one_line "report -x" '^interloper report: unknown option -x; see interloper report --help$' \
		report -x "$T/runs.jsonl"
	one_line "report --where without a value" '^interloper report: --where: expected a value' \
		report --where
	one_line "report --where without =" '^interloper report: --where rep: expected LABEL=VALUE' \
		report --where rep "$T/runs.jsonl"
	one_line "report without files" '^interloper report: expected one or more \.jsonl files' report
	one_line "plan --bogus" '^interloper plan: unknown option --bogus; see interloper plan --help$' \
		plan --levels setup,rep --bogus "$T/runs.jsonl"
	one_line "plan --by" '^interloper plan: --by is not an option of interloper plan' \
		plan --levels setup,rep --by bench "$T/runs.jsonl"
	one_line "plan --seed x" '^interloper plan: --seed x: expected a number$' \
		plan --levels setup,rep --bootstrap 100 --seed x "$T/runs.jsonl"
	one_line "plot --bogus" '^interloper plot: unknown option --bogus; see interloper plot --help$' \
		plot seq --bogus -o "$T/b.png" "$T/runs.jsonl"
	one_line "plot without a kind" '^interloper plot: expected a plot kind' plot
	one_line "plot without -o" '^interloper plot: -o FILE is required' plot seq "$T/runs.jsonl"
	one_line "plot --levels" '^interloper plot: --levels is not an option of interloper plot' \
		plot seq --levels setup,rep -o "$T/b.png" "$T/runs.jsonl"
	assert_true "no image" test ! -e "$T/b.png"
else
	skip "the statistics programs are not built; run make"
fi

try "--where LABEL!=VALUE leaves records out"
if built; then
	n=$(sh "$IL" report --where bench=b0 --where system=O2 --json "$T/runs.jsonl" 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["groups"][0]["n"])')
	assert_eq "$n" 24 "all reps"
	n=$(sh "$IL" report --where bench=b0 --where system=O2 --where 'rep!=0' --json "$T/runs.jsonl" \
		2>/dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["groups"][0]["n"])')
	assert_eq "$n" 16 "rep 0 left out"
	n=$(sh "$IL" report --where 'bench!=b1' --where system=O2 --where 'rep!=0' --where 'rep!=2' \
		--json "$T/runs.jsonl" 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["groups"][0]["n"])')
	assert_eq "$n" 8 "several != combine, and with = of another label"
	n=$(sh "$IL" report --where rep=1 --where rep=2 --where 'rep!=2' --where bench=b0 \
		--where system=O2 --json "$T/runs.jsonl" 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["groups"][0]["n"])')
	assert_eq "$n" 8 "= and != of one label: any of the values, none of the others"
	one_line "all left out" "^interloper report: empty selection: no record matches every --where" \
		report --where 'rep!=0' --where 'rep!=1' --where 'rep!=2' "$T/runs.jsonl"
	one_line "a misspelt label" "^interloper report: --where: no record has the label 'rpe' \\(96 records read\\); the labels are: bench, rep, setup, system$" \
		report --where 'rpe!=0' "$T/runs.jsonl"
	one_line "no label" '^interloper report: --where !=0: expected LABEL=VALUE' \
		report --where '!=0' "$T/runs.jsonl"
	out=$(sh "$IL" report --help)
	assert_match "$out" 'LABEL!=VALUE' "--help documents it"
else
	skip "the statistics programs are not built; run make"
fi

try "the first-run warning's advice can be followed"
if built; then
	awk 'BEGIN {
		for (r = 1; r <= 12; r++)
			printf "{\"schema\":\"interloper/1\",\"labels\":{\"rep\":\"%d\"},\"times\":{\"wall_ns\":%d,\"user_ns\":1,\"sys_ns\":0}}\n", r, r == 1 ? 500 : 100 + r % 3
	}' >"$T/first-run.jsonl"
	err=$(sh "$IL" report "$T/first-run.jsonl" 2>&1 >/dev/null)
	assert_match "$err" 'the first run differs from the rest.*--where LABEL!=VALUE \(e\.g\. --where rep!=1\)' \
		"the warning names --where LABEL!=VALUE"
	err=$(sh "$IL" report --where 'rep!=1' "$T/first-run.jsonl" 2>&1 >/dev/null)
	assert_eq "$(printf '%s\n' "$err" | grep -c 'first run')" 0 "following it removes the warning"
	# only the advice that applies (outside12 F8, newuser11): no rep label,
	# no rep!=1; a warm-up already left out (compare's), no "add one"
	sed 's/"rep"/"iter"/' "$T/first-run.jsonl" >"$T/first-norep.jsonl"
	err=$(sh "$IL" report "$T/first-norep.jsonl" 2>&1 >/dev/null)
	assert_match "$err" 'the first run differs from the rest: all \(modified z = [0-9.]*\); it is kept: add a warm-up run \(one labelled warmup=1 is left out\), or leave such runs out with --where LABEL!=VALUE on a label that marks them \[first-run\]' \
		"no rep label: no rep!=1"
	{
		printf '{"schema":"interloper/1","labels":{"rep":"0","warmup":"1"},"times":{"wall_ns":900,"user_ns":1,"sys_ns":0}}\n'
		cat "$T/first-run.jsonl"
	} >"$T/first-warm.jsonl"
	err=$(sh "$IL" report "$T/first-warm.jsonl" 2>&1 >/dev/null)
	assert_match "$err" 'the first run differs from the rest: all \(modified z = [0-9.]*\); it is kept: warm-up runs were already left out before it, so more of them may be needed, or it was disturbed \(other load, a frequency change\) \[first-run\]' \
		"a warm-up left out: neither 'add a warm-up run' nor rep!=1"
	err=$(sh "$IL" report --include-warmup "$T/first-warm.jsonl" 2>&1 >/dev/null)
	assert_match "$err" 'the first run differs from the rest: all \(modified z = [0-9.]*\); it is kept: it may be a warm-up run, kept by --include-warmup; without it they are left out \[first-run\]' \
		"--include-warmup: the warm-up is the first run"
	err=$(sh "$IL" report --quiet-warning first-run "$T/first-warm.jsonl" 2>&1 >/dev/null)
	assert_eq "$(printf '%s\n' "$err" | grep -c 'first run')" 0 "--quiet-warning first-run silences each"
else
	skip "the statistics programs are not built; run make"
fi

try "several files and stdin read the same records"
if built; then
	a=$(sh "$IL" report --by bench,system --json "$T/runs.jsonl" 2>/dev/null)
	b=$(sh "$IL" report --by bench,system --json "$T/first.jsonl" - <"$T/rest.jsonl" 2>/dev/null)
	assert_eq "$(printf '%s\n' "$a" | sed '/"files"/d')" "$(printf '%s\n' "$b" | sed '/"files"/d')" \
		"the same report"
	assert_match "$b" '"files": 2' "two inputs counted"
else
	skip "the statistics programs are not built; run make"
fi

try "report --json is valid JSON with the documented fields"
if built; then
	sh "$IL" report --by bench --compare system=O2 --setup setup --json "$T/runs.jsonl" \
		>"$T/r.json" 2>/dev/null
	assert_eq "$?" 0 "exit status"
	v=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
c = r["comparisons"][0]
print(len(r["groups"]), sorted(c["setups"]), c["ci_kind"], len(c["ci"]), sorted(r["suite"]))
' "$T/r.json")
	assert_eq "$v" "4 ['above_one', 'adjusted_setups', 'below_one', 'ci', 'geomean', 'geomean_ci', 'heterogeneity', 'max', 'mean', 'median', 'min', 'n', 'per_setup', 'raw_straddles_one', 'shares', 'straddles_one', 'straddles_one_tested', 'straddles_one_why', 'unpaired'] bounded 2 ['baseline', 'ci', 'ci_benchmarks', 'geomean', 'n', 'shared_setups', 'value', 'verdict']" \
		"fields"
else
	skip "the statistics programs are not built; run make"
fi

# is_png FILE: the eight-byte PNG signature.
is_png() {
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ]
}

# is_svg FILE: an XML document whose root element is <svg>.
is_svg() {
	python3 -c '
import sys, xml.etree.ElementTree as ET
sys.exit(0 if ET.parse(sys.argv[1]).getroot().tag.endswith("svg") else 1)' "$1"
}

for kind in violin env hist seq; do
	for fmt in png svg; do
		try "plot $kind renders a $fmt"
		if ! built; then
			skip "the statistics programs are not built; run make"
			continue
		fi
		if ! command -v gnuplot >/dev/null 2>&1; then
			skip "gnuplot is not installed (Debian: gnuplot-nox)"
			continue
		fi
		case $kind in
		violin | hist) set -- --by bench --compare system=O2 --setup setup ;;
		env) set -- --by bench,system ;;
		seq) set -- --where bench=b1 --where system=O3 ;;
		esac
		out="$T/$kind.$fmt"
		sh "$IL" plot "$kind" "$@" -o "$out" "$T/runs.jsonl" >"$T/plot.out" 2>"$T/plot.err"
		assert_eq "$?" 0 "exit status ($(cat "$T/plot.err"))"
		assert_eq "$(cat "$T/plot.out")" "$out" "prints the image's path"
		assert_true "non-empty image" test -s "$out"
		if [ "$fmt" = png ]; then
			assert_true "PNG signature" is_png "$out"
		else
			assert_true "SVG root element" is_svg "$out"
		fi
	done
done

try "plot --keep leaves the gnuplot script and data"
if built && command -v gnuplot >/dev/null 2>&1; then
	sh "$IL" plot violin --by bench --compare system=O2 --setup setup --keep "$T/keep" \
		-o "$T/k.png" "$T/runs.jsonl" >/dev/null 2>&1
	assert_true "script kept" test -s "$T/keep/plot.gp"
	assert_true "data kept" test -s "$T/keep/violins.dat"
else
	skip "the statistics programs or gnuplot are missing"
fi

try "plot violin without --setup is an error naming what is missing"
if built; then
	err=$(sh "$IL" plot violin --compare system=O2 -o "$T/x.png" "$T/runs.jsonl" 2>&1 >/dev/null)
	assert_eq "$?" 1 "exit status"
	assert_match "$err" "needs --compare LABEL=BASELINE and --setup LABEL" "message"
	assert_true "no image" test ! -e "$T/x.png"
else
	skip "the statistics programs are not built; run make"
fi

try "plot seq refuses more than one group"
if built; then
	err=$(sh "$IL" plot seq --by system -o "$T/y.png" "$T/runs.jsonl" 2>&1 >/dev/null)
	assert_eq "$?" 1 "exit status"
	assert_match "$err" "select one group with --where" "message"
else
	skip "the statistics programs are not built; run make"
fi

try "plot seq refuses a mixture of systems or benchmarks, naming them"
if built; then
	one_line "no --where" \
		'^interloper plot: seq: the selected records mix bench=b0,b1 and system=O2,O3; .*pick it with --where, e\.g\. --where bench=b0$' \
		plot seq -o "$T/m.png" "$T/runs.jsonl"
	one_line "one benchmark, both systems" \
		'^interloper plot: seq: the selected records mix system=O2,O3; .*--where system=O2$' \
		plot seq --where bench=b1 -o "$T/m.png" "$T/runs.jsonl"
	one_line "--by bench, both systems" '^interloper plot: seq: the selected records mix system=O2,O3; ' \
		plot seq --by bench --where bench=b1 -o "$T/m.png" "$T/runs.jsonl"
	one_line "two values of one --where label" '^interloper plot: seq: the selected records mix system=O2,O3; ' \
		plot seq --where bench=b1 --where system=O2 --where system=O3 -o "$T/m.png" "$T/runs.jsonl"
	# A label some records lack also mixes two kinds of records.
	{
		cat "$T/runs.jsonl"
		printf '{"schema":"interloper/1","labels":{"bench":"b1","rep":"9"},"times":{"wall_ns":5,"user_ns":1,"sys_ns":0}}\n'
	} >"$T/absent.jsonl"
	one_line "a label some records lack" \
		'^interloper plot: seq: the selected records mix system=O2,O3,\(absent\); ' \
		plot seq --where bench=b1 -o "$T/m.png" "$T/absent.jsonl"
	assert_true "no image" test ! -e "$T/m.png"
else
	skip "the statistics programs are not built; run make"
fi

try "plot -o into a missing or unwritable place is one line, before gnuplot runs"
if built; then
	one_line "missing directory" \
		"^interloper plot: -o $T/nonexistent/dir/v\\.png: the directory $T/nonexistent/dir does not exist\$" \
		plot violin --by bench --compare system=O2 --setup setup -o "$T/nonexistent/dir/v.png" "$T/runs.jsonl"
	one_line "a file as the directory" "^interloper plot: -o $T/runs\\.jsonl/v\\.png: $T/runs\\.jsonl is not a directory\$" \
		plot violin --by bench --compare system=O2 --setup setup -o "$T/runs.jsonl/v.png" "$T/runs.jsonl"
	mkdir -p "$T/dir.png"
	one_line "a directory as the image" "^interloper plot: -o $T/dir\\.png: this is a directory" \
		plot violin --by bench --compare system=O2 --setup setup -o "$T/dir.png" "$T/runs.jsonl"
	mkdir -p "$T/ro"
	chmod 555 "$T/ro"
	if [ -w "$T/ro" ]; then
		: # root writes anywhere; nothing to check
	else
		one_line "an unwritable directory" "^interloper plot: -o $T/ro/v\\.png: the directory $T/ro is not writable\$" \
			plot violin --by bench --compare system=O2 --setup setup -o "$T/ro/v.png" "$T/runs.jsonl"
	fi
	chmod 755 "$T/ro"
else
	skip "the statistics programs are not built; run make"
fi

try "gnuplot failing is one line with its first error"
if built; then
	mkdir -p "$T/fakebin"
	cat >"$T/fakebin/gnuplot" <<-'EOF'
		#!/bin/sh
		echo '         plot foo' >&2
		echo '              ^' >&2
		echo "\"$1\" line 3: warning: something odd" >&2
		echo "\"$1\" line 9: undefined variable: foo" >&2
		echo 'more noise' >&2
		exit 1
	EOF
	chmod +x "$T/fakebin/gnuplot"
	# Five steady runs: no warning precedes the error.
	for v in 100 101 102 103 104; do
		printf '{"schema":"interloper/1","labels":{"rep":"%s"},"times":{"wall_ns":%s,"user_ns":1,"sys_ns":0}}\n' "$v" "$v"
	done >"$T/steady.jsonl"
	_path=$PATH
	PATH="$T/fakebin:$PATH"
	one_line "fake gnuplot" \
		'^interloper plot: gnuplot failed: plot\.gp line 9: undefined variable: foo \(--keep DIR keeps the script to inspect\)$' \
		plot seq -o "$T/f.png" "$T/steady.jsonl"
	PATH=$_path
else
	skip "the statistics programs are not built; run make"
fi

try "--subtract LABEL=VALUE takes the mean of those runs off the others, and leaves them out"
if built; then
	for v in 110 120 130; do
		printf '{"schema":"interloper/1","labels":{"system":"A"},"times":{"wall_ns":%s,"user_ns":1,"sys_ns":0}}\n' "$v"
	done >"$T/sub.jsonl"
	for v in 8 10 12; do
		printf '{"schema":"interloper/1","labels":{"system":"sh"},"times":{"wall_ns":%s,"user_ns":1,"sys_ns":0}}\n' "$v"
	done >>"$T/sub.jsonl"
	out=$(sh "$IL" report --json --by system --subtract system=sh "$T/sub.jsonl" 2>/dev/null |
		python3 -c 'import json, sys; r = json.load(sys.stdin); print([(g["labels"]["system"], g["mean"]) for g in r["groups"]])')
	assert_eq "$out" "[('A', 110.0)]" "A's mean, less sh's 10, and no sh"
	one_line "--subtract without =VALUE" '^interloper report: --subtract system: expected LABEL=VALUE' \
		report --subtract system "$T/sub.jsonl"
else
	skip "the statistics programs are not built; run make"
fi

done_testing
