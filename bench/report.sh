#!/bin/sh
# bench/report.sh: the CPU time, wall time and peak memory of interloper
# report and plot over records of a sweep's shape, side by side with the
# floor of reading the file (wc -l) and a Python peer (bench/peer.py), at
# each size given (default 1,000,000 and 10,000,000 records).  Not part of
# pass/fail.
#
#   sh bench/report.sh [--plots] [N...]
#
# Each file is generated (bench/records.c: 2 systems x 5,000 setups, about
# 1,200 bytes a record) into a temporary directory, which is removed at
# the end; 10M records take 12 GB there (and 12 GB of page cache to be
# warm).  Each command runs 3 times from a warm cache and the medians are
# printed: CPU = user + system time of all its threads, wall, peak RSS
# (bench/rusage.c).
# The ratios are of medians of the same run: CPU over wc -l's, the peer's
# CPU over the report's, and wall over CPU.  Issue 18's goals:
#   report, report --json      CPU <= 5 x wc -l; peer >= 5 x report
#   report --compare --setup   CPU <= 2 x report; peer >= 3 x it
#   memory                     <= 32 bytes a record beyond the per-setup
#                              results ((RSS at 10M - RSS at 1M) / 9M)
#   wall                       <= CPU / 2 (two threads read a file); with
#                              two sizes also the wall/CPU of the work
#                              that grows with records, which the serial
#                              start and output do not weigh on
#   .gz, .zst                  CPU <= the plain file's + the decompressor's
#   plot (--plots, 1M)         CPU <= 2 x report
set -eu

usage() {
	cat <<EOF2
usage: sh bench/report.sh [--plots] [N...]
Time interloper report (and with --plots interloper plot) on N generated
records (default 1000000 10000000) against wc -l and bench/peer.py.
EOF2
}

die() {
	echo "bench/report.sh: $*" >&2
	exit 1
}

plots=0
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help)
		usage
		exit 0
		;;
	--plots) plots=1 ;;
	--) shift; break ;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
	shift
done
[ $# -gt 0 ] || set -- 1000000 10000000
for n in "$@"; do
	case $n in
	'' | *[!0-9]*) die "N must be a whole number; got '$n'" ;;
	esac
done

top=$(cd "$(dirname "$0")/.." && pwd)
lx="$top/build/libexec"
[ -x "$lx/interloper-report" ] || die "$lx/interloper-report is missing; run make first"
command -v python3 >/dev/null 2>&1 || die "python3 is needed (the peer, and to measure)"
dir=$(mktemp -d "${TMPDIR:-/tmp}/il-bench-report.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
${CC:-cc} -O2 -std=c11 -o "$dir/records" "$top/bench/records.c" -lm ||
	die "cannot build bench/records.c"
${CC:-cc} -O2 -std=c11 -D_GNU_SOURCE -o "$dir/rusage" "$top/bench/rusage.c" ||
	die "cannot build bench/rusage.c"

# run NAME CMD...: 3 runs (bench/rusage.c measures each), the medians as
# "NAME cpu wall rss_mb"
run() {
	python3 - "$dir/rusage" "$@" <<'PY'
import statistics, subprocess, sys
rusage, name, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
cpu, wall, rss = [], [], []
for _ in range(3):
    p = subprocess.run([rusage] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("bench/report.sh: %s failed: %s" % (name, " ".join(cmd)))
    c, w, m = p.stderr.split()[-3:]
    cpu.append(float(c))
    wall.append(float(w))
    rss.append(int(m) / 1024)
print(name, "%.3f" % statistics.median(cpu), "%.3f" % statistics.median(wall),
      "%.1f" % statistics.median(rss))
PY
}

for n in "$@"; do
	f="$dir/records-$n.jsonl"
	echo "generating $n records" >&2
	"$dir/records" "$n" 5000 >"$f"
	bytes=$(wc -c <"$f")
	gzip -1 -c "$f" >"$f.gz"
	zstd -q -c "$f" >"$f.zst"
	cat "$f" "$f.gz" "$f.zst" >/dev/null
	out="$dir/times-$n"
	{
		run "wc -l" wc -l "$f"
		run "report" "$lx/interloper-report" --by system "$f"
		run "report --json" "$lx/interloper-report" --by system --json "$f"
		run "report --compare --setup" "$lx/interloper-report" --compare system=A --setup setup "$f"
		run "gzip -dc" gzip -dc "$f.gz"
		run "report .gz" "$lx/interloper-report" --by system "$f.gz"
		run "zstd -dc" zstd -q -dc "$f.zst"
		run "report .zst" "$lx/interloper-report" --by system "$f.zst"
		if [ "$plots" = 1 ]; then
			for k in violin hist env seq; do
				case $k in
				violin) a="--compare system=A --setup setup" ;;
				hist) a="--compare system=A --setup setup" ;;
				env) a="--by system" ;;
				seq) a="--where system=A" ;;
				esac
				# shellcheck disable=SC2086 # a holds options
				run "plot $k" "$lx/interloper-plot" "$k" -o "$dir/$k.png" $a "$f"
			done
		fi
		run "peer.py" python3 "$top/bench/peer.py" --by system "$f"
		run "peer.py --setup" python3 "$top/bench/peer.py" --by system --setup setup --compare system=A "$f"
	} >"$out"
	rm -f "$f" "$f.gz" "$f.zst"
	echo
	echo "$n records, $bytes bytes; medians of 3, warm cache"
	awk -v n="$n" '
	{ name = $0; sub(/ [0-9.]+ [0-9.]+ [0-9.]+$/, "", name)
	  cpu[name] = $(NF - 2); wall[name] = $(NF - 1); rss[name] = $NF; order[++k] = name }
	END {
		printf "%-26s %8s %8s %9s %9s %9s %10s\n", "command", "CPU s", "wall s", "RSS MB", "CPU/wc", "wall/CPU", "peer/this"
		for (i = 1; i <= k; i++) {
			c = order[i]
			peer = c ~ /compare|setup/ ? cpu["peer.py --setup"] : cpu["peer.py"]
			printf "%-26s %8.2f %8.2f %9.1f %9.1f %9.2f %10s\n", c, cpu[c], wall[c], rss[c],
			    cpu[c] / cpu["wc -l"], wall[c] / (cpu[c] > 0 ? cpu[c] : 1),
			    c ~ /^(report|plot)/ ? sprintf("%.1f", peer / cpu[c]) : ""
		}
		printf "compare/report CPU %.2f; .gz CPU - (report + gzip -dc) %+.2f s; .zst %+.2f s\n",
		    cpu["report --compare --setup"] / cpu["report"],
		    cpu["report .gz"] - cpu["report"] - cpu["gzip -dc"],
		    cpu["report .zst"] - cpu["report"] - cpu["zstd -dc"]
		for (c in cpu) if (c ~ /^plot/) printf "%s/report CPU %.2f\n", c, cpu[c] / cpu["report"]
	}' "$out"
done

# Wall time over CPU time of what the larger file adds (the split part):
# (wall at N2 - wall at N1) / (CPU at N2 - CPU at N1), of the medians.
# The steps whose time does not grow with records (the program's start,
# its options, the output) cancel; those that grow but run on one thread
# (what stays serial of the join, the exit's freeing) stay in it.
if [ $# -ge 2 ]; then
	for c in "report" "report --json"; do
		awk -v c="$c" -v n1="$1" -v n2="$2" '
		{ name = $0; sub(/ [0-9.]+ [0-9.]+ [0-9.]+$/, "", name) }
		NR == FNR && name == c { c1 = $(NF - 2); w1 = $(NF - 1) }
		NR != FNR && name == c { c2 = $(NF - 2); w2 = $(NF - 1) }
		END {
			if (c2 > c1)
				printf "%s: wall/CPU of the work that grows with records, %d to %d: %.3f ((%.3f s - %.3f s) / (%.3f s - %.3f s))\n",
				    c, n1, n2, (w2 - w1) / (c2 - c1), w2, w1, c2, c1
		}' "$dir/times-$1" "$dir/times-$2"
	done
fi

# Memory per record beyond what does not grow with records: the report's
# peak RSS between the first two sizes, over their difference.
if [ $# -ge 2 ]; then
	a=$(awk '$1 == "report" && $2 == "--compare" { print $(NF) }' "$dir/times-$1")
	b=$(awk '$1 == "report" && $2 == "--compare" { print $(NF) }' "$dir/times-$2")
	pa=$(awk '$1 == "peer.py" && $2 == "--setup" { print $(NF) }' "$dir/times-$2")
	awk -v a="$a" -v b="$b" -v n1="$1" -v n2="$2" -v p="$pa" 'BEGIN {
		printf "report --compare --setup: %.1f bytes a record beyond the rest ((%.0f MB - %.0f MB) / %d records); peer %.0f MB at %d\n",
		    (b - a) * 1048576 / (n2 - n1), b, a, n2 - n1, p, n2 }'
fi
