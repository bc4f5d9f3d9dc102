#!/bin/sh
# bench/aa.sh: real A/A sweeps on this machine, for the calibration of
# interloper report's tests (interloper-report(1), "What each test
# assumes").  Not part of pass/fail.
#
#   sh bench/aa.sh sweep [-n N] [-d DIR]     run N A/A sweeps into DIR
#   sh bench/aa.sh report [-d DIR] [-- REPORT-OPTIONS]
#
# sweep: the paper's micro-kernel (demo/kernel.c, -O0) copied twice to
# paths of one length (A/kernel, B/kernel: byte-identical binaries), swept
# by interloper sweep over environment pads 0 to 4096 bytes in steps of
# 128, 6 passes (--reps 6), task-clock, seeds 1 to N; one results file a
# sweep, DIR/aa-SEED.jsonl.  Sweeps already in DIR are kept, so that an
# interrupted collection resumes.  Defaults: N = 40, DIR = bench/out/aa.
#
# report: for each sweep, interloper report --compare system=A --setup
# setup --json with REPORT-OPTIONS (e.g. --passes none for the test that
# ignores the passes), and one line per sweep: the seed, the load average
# at the sweep's start, the p-value of "the per-setup ratios differ beyond
# noise", the setups that stand out and the attribution's verdict; then
# the rejection rate at 5% with its standard error and the deciles of p.
set -eu

usage() {
	cat <<EOF2
usage: sh bench/aa.sh sweep [-n N] [-d DIR]
       sh bench/aa.sh report [-d DIR] [-- REPORT-OPTIONS...]
Run N real A/A sweeps of byte-identical binaries (sweep), or summarise the
p-values interloper report gives them (report).
EOF2
}

die() {
	echo "bench/aa.sh: $*" >&2
	exit 1
}

top=$(cd "$(dirname "$0")/.." && pwd)
IL="sh $top/scripts/interloper"
cmd=${1:-}
[ $# -gt 0 ] && shift
n=40
dir=$top/bench/out/aa
while [ $# -gt 0 ]; do
	case $1 in
	-n)
		[ $# -gt 1 ] || die "-n needs a number"
		n=$2
		shift
		;;
	-d)
		[ $# -gt 1 ] || die "-d needs a directory"
		dir=$2
		shift
		;;
	--)
		shift
		break
		;;
	-h | --help)
		usage
		exit 0
		;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
	shift
done
case $n in '' | *[!0-9]*) die "-n: expected a whole number; got '$n'" ;; esac

case $cmd in
sweep)
	mkdir -p "$dir/A" "$dir/B"
	cc -O0 -o "$dir/A/kernel" "$top/demo/kernel.c"
	cp "$dir/A/kernel" "$dir/B/kernel"
	cmp -s "$dir/A/kernel" "$dir/B/kernel" || die "the two binaries differ"
	i=1
	while [ "$i" -le "$n" ]; do
		out=$dir/aa-$i.jsonl
		if [ ! -s "$out" ] || ! grep -q '"kind":"machine","plan":"[^"]*","time":"[^"]*","when":"end"' "$out"; then
			echo "bench/aa.sh: sweep $i of $n ($(cut -d' ' -f1 /proc/loadavg) load)" >&2
			(cd "$dir" && $IL sweep -q --seed "$i" --reps 6 --env-add 0:4096:128 --events task-clock \
				--bench kernel --system A=A/kernel --system B=B/kernel --output "$out")
		fi
		i=$((i + 1))
	done
	;;
report)
	ls "$dir"/aa-*.jsonl >/dev/null 2>&1 || die "no sweeps in $dir; run sh bench/aa.sh sweep first"
	command -v python3 >/dev/null 2>&1 || die "python3 is needed to read the reports' JSON"
	for f in "$dir"/aa-*.jsonl; do
		s=${f##*/aa-}
		s=${s%.jsonl}
		load=$(sed -n 's/.*"when":"start".*"loadavg":\[\([0-9.]*\),.*/\1/p' "$f" | head -n 1)
		# shellcheck disable=SC2086 # IL is a command and its first words
		$IL report --metric task-clock --quiet-warning all --compare system=A --setup setup \
			--json "$@" "$f" | python3 -c '
import json, sys
j = json.load(sys.stdin)
c = j["comparisons"][0]
h = (c.get("setups") or {}).get("heterogeneity") or {}
a = c.get("attribution") or {}
p = h.get("p")
print(sys.argv[1], "%.3g" % float(sys.argv[2] or "nan"), "nan" if p is None else "%.4g" % p,
      h.get("exchange", "-"), len((c.get("setups") or {}).get("stand_out") or []),
      a.get("verdict", "-").replace(" ", "_"))' "$s" "$load"
	done | sort -n | awk '
	{ print; n++; p[n] = $3; if ($3 != "nan" && $3 < 0.05) r++; if ($6 != "-" && $6 !~ /^nothing/) fa++ }
	END {
		if (!n) exit
		m = 0; for (i = 1; i <= n; i++) if (p[i] != "nan") q[++m] = p[i] + 0
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (q[j] < q[i]) { t = q[i]; q[i] = q[j]; q[j] = t }
		printf "%d sweeps: rejected at 5%% in %d (%.1f%%, standard error %.1f%% under uniform p); attributions %d\n", n, r, 100 * r / n, 100 * sqrt(0.05 * 0.95 / n), fa
		printf "deciles of p:"; for (d = 1; d <= 9; d++) { k = int(d * m / 10 + 0.5); if (k < 1) k = 1; printf " %.2f", q[k] } printf "\n"
		printf "min %.3g, median %.3g, max %.3g\n", q[1], q[int((m + 1) / 2)], q[m]
	}'
	;;
*)
	usage >&2
	exit 1
	;;
esac
