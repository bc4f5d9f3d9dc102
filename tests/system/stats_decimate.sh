#!/bin/sh
# stats_decimate.sh: interloper plot seq of more runs than a panel has
# pixel columns to show (issue 18): the data gnuplot gets is decimated to
# what the figure can show, and its comment says so; the run sequence
# keeps each column's first, last, lowest and highest run; the lag plots
# keep one point a cell; the title and the autocorrelation count every run.
# plot violin and hist of more setups than that: the same rule on each
# setup's ratio and interval, and on the rug (stats/plot.h).
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

# K setups x 2 systems x 2 reps, each setup with an effect of its own
setups() {
	python3 - "$1" <<'PY'
import random, sys
r = random.Random(7)
k = int(sys.argv[1])
for rep in range(2):
    for s in range(k):
        eff = 1 + r.gauss(0, 0.02)
        for sysn, f in (("A", 1.0), ("B", 0.97)):
            v = int(1000000 * f * eff * (1 + r.gauss(0, 0.01)))
            print('{"schema":"interloper/1","labels":{"system":"%s","setup":"s%d","rep":"%d"},"times":{"wall_ns":%d}}' % (sysn, s, rep + 1, v))
PY
}

# the data rows (no comment, no blank line) of FILE, sorted
rows() {
	grep -v '^#' "$1" | grep . | LC_ALL=C sort
}

try "violin and hist of 4,200 setups: decimated, said, the extremes kept, a subset of every setup's"
if built; then
	setups 4200 >"$T/s.jsonl"
	for k in violin hist; do
		sh "$IL" plot "$k" --keep "$T/$k" -o "$T/$k.png" --compare system=A --setup setup "$T/s.jsonl" >/dev/null 2>"$T/err"
		assert_eq "$?" 0 "$k: status"
		# wide enough for every setup: the data undecimated
		sh "$IL" plot "$k" --size 20,2.3 --keep "$T/${k}all" -o "$T/${k}all.png" --compare system=A --setup setup "$T/s.jsonl" >/dev/null 2>"$T/err"
		assert_eq "$?" 0 "$k --size 20,2.3: status"
	done
	assert_match "$(head -1 "$T/violin/intervals.dat")" "^# decimated for a figure of 1020 x 690 pixels \(300 dots an inch\)" "violin: the comment"
	assert_match "$(head -1 "$T/hist/rug.dat")" "^# decimated for a figure 1020 pixels wide \(300 dots an inch\)" "hist: the comment"
	kv=$(sed -n 's/^# \([0-9]*\) of 4200 setups$/\1/p' "$T/violin/intervals.dat")
	kh=$(sed -n 's/^# \([0-9]*\) of 4200 setups$/\1/p' "$T/hist/rug.dat")
	assert_true "violin: fewer setups drawn ($kv)" test "$kv" -gt 0 -a "$kv" -lt 4200
	assert_true "hist: fewer rug ticks ($kh)" test "$kh" -gt 0 -a "$kh" -lt 4200
	assert_eq "$(grep -v '^#' "$T/violinall/intervals.dat" | grep -c .)" 4200 "wide: every setup"
	assert_eq "$(grep -c '^#' "$T/violinall/intervals.dat")" 0 "wide: no comment"
	# the same setups at the same places: the decimated rows are rows of the whole
	rows "$T/violin/intervals.dat" >"$T/v.rows"
	rows "$T/hist/rug.dat" >"$T/h.rows"
	assert_eq "$(wc -l <"$T/v.rows" | tr -d ' ')" "$kv" "violin: the count is of the rows"
	assert_eq "$(rows "$T/violinall/intervals.dat" | LC_ALL=C comm -13 - "$T/v.rows" | wc -l | tr -d ' ')" 0 "violin: the kept are setups'"
	assert_eq "$(rows "$T/histall/rug.dat" | LC_ALL=C comm -13 - "$T/h.rows" | wc -l | tr -d ' ')" 0 "hist: the kept are setups'"
	# the lowest and highest of columns A to B (ratio, interval ends; rug values) are drawn
	ext() {
		# shellcheck disable=SC2016 # awk's own $i
		awk -v a="$2" -v b="$3" '!/^#/ && NF >= b { n++; for (i = a; i <= b; i++) { if (n == 1 || $i + 0 < lo[i]) lo[i] = $i + 0; if (n == 1 || $i + 0 > hi[i]) hi[i] = $i + 0 } }
		END { for (i = a; i <= b; i++) printf "%.10g %.10g ", lo[i], hi[i]; print "" }' "$1"
	}
	assert_eq "$(ext "$T/violin/intervals.dat" 2 4)" "$(ext "$T/violinall/intervals.dat" 2 4)" "violin: the extremes"
	assert_eq "$(ext "$T/hist/rug.dat" 1 1)" "$(ext "$T/histall/rug.dat" 1 1)" "hist: the extremes"
	assert_eq "$(cat "$T/hist/hist.dat")" "$(cat "$T/histall/hist.dat")" "hist: the bins count every setup"
	assert_eq "$(cat "$T/violin/violins.dat")" "$(cat "$T/violinall/violins.dat")" "violin: the density of every setup"
else
	skip "interloper plot or gnuplot is missing"
fi

try "violin and hist of 300 setups: every setup, as before"
if built; then
	setups 300 >"$T/s3.jsonl"
	sh "$IL" plot violin --keep "$T/v3" -o "$T/v3.png" --compare system=A --setup setup "$T/s3.jsonl" >/dev/null 2>&1
	sh "$IL" plot hist --keep "$T/h3" -o "$T/h3.png" --compare system=A --setup setup "$T/s3.jsonl" >/dev/null 2>&1
	assert_eq "$(grep -c . "$T/v3/intervals.dat")" 300 "a row a setup"
	assert_eq "$(grep -c . "$T/h3/rug.dat")" 300 "a tick a setup"
	assert_eq "$(grep -c '^#' "$T/v3/intervals.dat" "$T/h3/rug.dat" | grep -vc ':0$')" 0 "no comment"
else
	skip "interloper plot or gnuplot is missing"
fi

_finish_case
