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

done_testing
