#!/bin/sh
# bench/link-scale.sh: what `interloper link` costs as programs grow.
# Generates N small translation units (each calling the next), builds
# them, and times a dry run (the generator alone) and a real relink of
# K orders, at object and at function granularity.  Not a test.
#   sh bench/link-scale.sh [K] [N...]     default: K=33, N=50 200 400
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
k=${1:-33}
[ $# -eq 0 ] || shift
[ $# -gt 0 ] || set -- 50 200 400
work=$(mktemp -d "${TMPDIR:-/tmp}/il-bench-link.XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

printf '%-6s %-4s %-10s %-12s %-14s\n' objects K "dry run" "link (obj)" "link (func)"
for n in "$@"; do
	d=$work/n$n
	mkdir -p "$d"
	i=0
	while [ "$i" -lt "$n" ]; do
		j=$(((i + 1) % n))
		cat >"$d/u$i.c" <<C
int f$j(int);
static int g$i(int x) { return x * 3 + $i; }
int f$i(int x) { return x > 0 ? f$j(g$i(x) % 1000 - 1) : $i; }
C
		i=$((i + 1))
	done
	printf 'int f0(int);\nint main(void) { return f0(5) > 1000; }\n' >"$d/main.c"
	(cd "$d" && for c in *.c; do cc -O2 -ffunction-sections -c "$c"; done)
	objs="main.o"
	i=0
	while [ "$i" -lt "$n" ]; do
		objs="$objs u$i.o"
		i=$((i + 1))
	done
	t0=$(now)
	# shellcheck disable=SC2086
	(cd "$d" && sh "$top/scripts/interloper-link" -n -k "$k" -s 1 -- cc -o p $objs >/dev/null 2>&1)
	t1=$(now)
	# shellcheck disable=SC2086
	(cd "$d" && sh "$top/scripts/interloper-link" -q -k "$k" -s 1 -d "$d/o" -- cc -o p $objs >/dev/null)
	t2=$(now)
	f=-
	if command -v ld.lld >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		(cd "$d" && sh "$top/scripts/interloper-link" -q -g function -k "$k" -s 1 -d "$d/f" -- cc -o p $objs >/dev/null)
		f=$(secs "$t2" "$(now)")
	fi
	printf '%-6s %-4s %-10s %-12s %-14s\n' "$n" "$k" "$(secs "$t0" "$t1")" "$(secs "$t1" "$t2")" "$f"
done
