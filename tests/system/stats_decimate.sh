#!/bin/sh
# stats_decimate.sh: interloper plot seq of more runs than a panel has
# pixel columns to show (issue 18): the data gnuplot gets is decimated to
# what the figure can show, and its comment says so; the run sequence
# keeps each column's first, last, lowest and highest run; the lag plots
# keep one point a cell; the title and the autocorrelation count every run.
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

built() {
	[ -x "$B/libexec/interloper-plot" ] && command -v gnuplot >/dev/null 2>&1
}

# N records of one series, wall_ns a seeded walk with spikes
python3 - 20000 >"$T/r.jsonl" <<'PY'
import random, sys
r = random.Random(7)
for i in range(int(sys.argv[1])):
    v = 1000000 + r.randrange(20000) + (300000 if r.random() < 0.01 else 0)
    print('{"schema":"interloper/1","labels":{"system":"A","rep":"%d"},"times":{"wall_ns":%d}}' % (i, v))
PY

try "seq of 20,000 runs: decimated data, said in its comment, every run counted"
if built; then
	sh "$IL" plot seq --keep "$T/k" -o "$T/s.png" "$T/r.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$?" 0 "status"
	assert_true "the figure" test -s "$T/s.png"
	assert_match "$(head -1 "$T/k/seq.dat")" "^# decimated for a figure of 1050 x 690 pixels a panel \(300 dots an inch\)" "the comment"
	kept=$(sed -n 's/^# \([0-9]*\) of 20000 runs$/\1/p' "$T/k/seq.dat")
	assert_true "at most 4 runs a column kept ($kept)" test "$kept" -gt 0 -a "$kept" -le 4200
	assert_eq "$(grep -c '^# [0-9]* of 19999 points$' "$T/k/seq.dat")" 2 "two lag plots"
	assert_match "$(cat "$T/k/plot.gp")" "index 0 using 1:2 with linespoints" "the run sequence is block 0"
	# the kept runs include every run's extremes: the lowest and highest of all
	lo=$(python3 -c 'import json,sys
v=[json.loads(l)["times"]["wall_ns"] for l in open(sys.argv[1])]
print("%.10g %.10g" % (min(v) / 1e6, max(v) / 1e6))' "$T/r.jsonl")
	got=$(awk '/^$/ { exit } !/^#/ { if (n++ == 0 || $2 < a) a = $2; if (n == 1 || $2 > b) b = $2 } END { print a, b }' "$T/k/seq.dat")
	assert_eq "$got" "$lo" "the lowest and the highest run are drawn"
	assert_match "$(cat "$T/k/plot.gp")" "20000 runs" "the title counts every run"
	# a column's runs: 20000 / 1050 = 19 or 20; its four picks are in run order
	# shellcheck disable=SC2016 # awk's own $1
	assert_true "runs in order" awk '/^$/ { exit } !/^#/ { if ($1 <= last) exit 1; last = $1 }' "$T/k/seq.dat"
else
	skip "interloper plot or gnuplot is missing"
fi

try "seq of fewer runs than that: every run, as before"
if built; then
	head -3000 "$T/r.jsonl" >"$T/small.jsonl"
	sh "$IL" plot seq --keep "$T/ks" -o "$T/small.png" "$T/small.jsonl" >/dev/null 2>&1
	assert_eq "$(grep -c . "$T/ks/seq.dat")" 3000 "a row a run"
	assert_eq "$(grep -c '^#' "$T/ks/seq.dat")" 0 "no comment"
else
	skip "interloper plot or gnuplot is missing"
fi

_finish_case
