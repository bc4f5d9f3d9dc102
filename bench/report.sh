#!/bin/sh
# bench/report.sh: wall time and peak memory of `interloper report` over
# generated records (default 1,000,000).  Not part of pass/fail.
#
#   sh bench/report.sh [N]
#
# Generates bench/out/records-N.jsonl once (about 700 bytes a record, the
# shape libinterloper writes: 12 benchmarks x 2 systems x 484 setups x
# repetitions), then runs the report three times, from the page cache, and
# prints each run's wall time and peak resident memory.  Goal for
# 1,000,000 records on the 2-core development VM: <= 5 s and <= 500 MB.
set -eu

usage() {
	cat <<EOF2
usage: sh bench/report.sh [N]
Generate N records (default 1000000) and time interloper report over them.
EOF2
}

die() {
	echo "bench/report.sh: $*" >&2
	exit 1
}

case "${1:-}" in
-h | --help)
	usage
	exit 0
	;;
esac
n=${1:-1000000}
case $n in
'' | *[!0-9]*) die "N must be a whole number; got '$n'" ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
report="$top/build/libexec/interloper-report"
[ -x "$report" ] || die "$report is missing; run make first"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to measure peak memory"
mkdir -p "$top/bench/out"
data="$top/bench/out/records-$n.jsonl"

if [ ! -s "$data" ]; then
	echo "generating $n records into $data" >&2
	awk -v N="$n" 'BEGIN {
		srand(1)
		for (i = 0; i < N; i++) {
			b = i % 12; sys = int(i / 12) % 2; s = int(i / 24) % 484; rep = int(i / 11616)
			v = int((1 + b) * 1000000 * (sys ? 0.993 : 1) * (1 + 0.01 * sin(s)) * (1 + 0.002 * rand()))
			printf "{\"schema\":\"interloper/1\",\"version\":\"0.1.0\","
			printf "\"labels\":{\"bench\":\"b%02d\",\"system\":\"%s\",\"setup\":\"s%04d\",\"rep\":\"%d\"},", b, sys ? "O3" : "O2", s, rep
			printf "\"pid\":%d,\"ppid\":1,\"argv\":[\"./prog\",\"arg\"],\"host\":\"vm\",", 1000 + i % 30000
			printf "\"exit\":{\"how\":\"return\",\"status\":0,\"signal\":0},\"backend\":\"perf\","
			printf "\"events\":{\"task-clock\":{\"value\":%d,\"enabled_ns\":%d,\"running_ns\":%d},", v - 20000, v, v
			printf "\"page-faults\":{\"value\":%d,\"enabled_ns\":%d,\"running_ns\":%d},", 100 + i % 7, v, v
			printf "\"cycles\":{\"value\":null,\"error\":\"not supported\"}},"
			printf "\"times\":{\"wall_ns\":%d,\"user_ns\":%d,\"sys_ns\":20000},\"maxrss_kib\":1800,", v, v - 30000
			printf "\"setup\":{\"env_bytes\":%d,\"env_vars\":12,\"argv_bytes\":7,\"aslr\":false,", 2048 + 16 * s
			printf "\"stack_offset\":0,\"stack_pinned\":false,\"main_sp\":\"0x7ffffffde000\","
			printf "\"heap_offset\":0,\"heap_start\":\"0x555555559000\"},\"floor\":{\"task-clock\":1200}}\n"
		}
	}' >"$data.tmp"
	mv "$data.tmp" "$data"
fi

echo "records: $n ($(wc -c <"$data") bytes)"
echo "command: interloper report --by bench --compare system=O2 --setup setup $data"
i=1
while [ "$i" -le 3 ]; do
	python3 - "$report" "$data" <<'PY'
import resource, subprocess, sys, time
t = time.monotonic()
p = subprocess.run([sys.argv[1], "--by", "bench", "--compare", "system=O2", "--setup", "setup",
                    sys.argv[2]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.monotonic() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print("run: exit %d, wall %.2f s, peak RSS %.0f MB" % (p.returncode, wall, rss))
PY
	i=$((i + 1))
done
