#!/bin/sh
# demo/results/ says what the current code says of its own records: the
# records of the committed full run (zstd-compressed, with demo.facts for
# what records cannot say) analysed again by `demo.sh --from` with this
# version's interloper report give demo/results/README.md, its reports and
# paper-table.md exactly; and the table of the README's "Reproduce the
# paper" is paper-table.md.  A change to report that changes a number
# fails here until demo/results/ is regenerated (issue 13, section 5).
# The figures are not drawn again (--no-figures): the numbers are the
# point, and the reports alone take about 25 s of CPU.
# timeout: 900
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

D=$TOP/demo/results
ready() {
	[ -x "$B/libexec/interloper-report" ] && command -v zstd >/dev/null 2>&1
}

try "demo/results/ keeps the records of its run"
for f in env-coarse env-focus bzip2-compress bzip2-decompress; do
	assert_true "$f.jsonl.zst" test -s "$D/$f.jsonl.zst"
done
assert_true "demo.facts" test -s "$D/demo.facts"
# the figures its summary and the README show
for f in $(sed -n 's/^!\[[^]]*\](\([^)]*\))$/\1/p' "$D/README.md") \
	$(sed -n 's|^!\[[^]]*\](demo/results/\([^)]*\))$|\1|p' "$TOP/README.md"); do
	assert_true "$f" test -s "$D/$f"
done
assert_match "$(sed -n 's/^MODE=//p' "$D/demo.facts")" "^'full'\$" "a full run"

try "every number of demo/results/ is this version's report of those records"
if ! ready; then
	skip "needs the tools built (make) and zstd (make deps installs it)"
else
	sh "$TOP/demo/demo.sh" --from "$D" --out "$T/o" --no-figures >/dev/null 2>"$T/err"
	assert_eq "$?" 0 "demo.sh --from ($(tail -n 2 "$T/err"))"
	for f in README.md paper-table.md report-env-coarse.txt report-env-levels.txt \
		report-causal.txt report-bzip2.txt; do
		diff "$D/$f" "$T/o/$f" >"$T/diff" 2>&1
		assert_eq "$?" 0 "demo/results/$f against its records (regenerate with sh demo/demo.sh --from demo/results --out DIR and copy; first differences: $(head -n 6 "$T/diff" | tr '\n' '|'))"
	done
fi

try "the README's table of the paper is demo/results/paper-table.md"
# the table follows the line that names it, up to the first blank line
awk '/^<!-- demo\/results\/paper-table.md/ { on = 1; next } on && /^$/ { exit } on' \
	"$TOP/README.md" >"$T/table"
assert_true "the README has the table" test -s "$T/table"
diff "$D/paper-table.md" "$T/table" >"$T/diff" 2>&1
assert_eq "$?" 0 "README.md's table against demo/results/paper-table.md ($(head -n 4 "$T/diff" | tr '\n' '|'))"

try "a bzip2 comparison without a bounded interval: the summary says so, not the set's ends as an interval"
# Two environment sizes (the quick demo's) whose O3 runs differ by 60% in
# one: the crossed design's interval has 1 df and its 95% set is
# exclusive (two half-lines), which the quick demo met under load.
if ! ready; then
	skip "needs the tools built (make) and zstd (make deps installs it)"
else
	mkdir "$T/q"
	cp "$D/demo.facts" "$D/env-coarse.jsonl.zst" "$D/env-focus.jsonl.zst" "$T/q/"
	for b in compress decompress; do
		awk -v bench="$b" 'BEGIN {
			srand(3)
			for (e = 0; e < 2; e++) for (l = 0; l < 16; l++) for (r = 1; r <= 2; r++) for (s = 2; s <= 3; s++) {
				v = 1e8 * (1 + 0.04 * (rand() - 0.5)) * (s == 3 ? 0.92 * (e ? 1.6 : 1) : 1)
				printf "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"%s\",\"system\":\"O%d\",\"env_add\":\"%d\",\"layout\":\"%02d\",\"rep\":\"%d\"},\"events\":{\"task-clock\":{\"value\":%d,\"enabled_ns\":%d,\"running_ns\":%d}},\"times\":{\"wall_ns\":%d,\"user_ns\":1,\"sys_ns\":0}}\n", bench, s, e * 2047, l, r, v, v, v, v
			}
		}' >"$T/q/bzip2-$b.jsonl"
	done
	sh "$TOP/demo/demo.sh" --from "$T/q" --out "$T/qo" --no-figures >/dev/null 2>"$T/err"
	assert_eq "$?" 0 "demo.sh --from ($(tail -n 2 "$T/err"))"
	v=$(grep -c '^- \*\*[a-z]*compress\*\*: speedup [0-9.]* (no 95% interval: the confidence set is exclusive); the report' "$T/qo/README.md")
	assert_eq "$v" 2 "both benchmarks say there is no interval ($(grep -m 2 'speedup [0-9.]* (' "$T/qo/README.md" | cut -c1-90 | tr '\n' '|'))"
	assert_eq "$(grep -c '95% CI -' "$T/qo/README.md")" 0 "no negative end shown as an interval"
fi

done_testing
