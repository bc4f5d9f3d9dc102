#!/bin/sh
# bench/link-scale.sh: what `interloper link` costs as programs grow.
# Generates N small translation units (each calling the next), builds
# them, and times, for each N:
#   dry K      the orders alone (-n) for K orders
#   dry 10000  the orders alone for 10,000 orders (the most link allows)
#   plain      K+1 runs of the bare link command, one after another: what
#              the linker alone costs (K orders and the reproducibility link)
#   link       interloper link -k K, object granularity
#   ratio      link / plain: what interloper adds around the linker
#   func       interloper link -k K -g function (lld), if ld.lld is there
# Not a test.  Seconds, wall clock, on a shared machine: compare ratios
# from one run, not seconds across runs.
#   sh bench/link-scale.sh [K] [N...]     default: K=33, N=50 200 400
#   IL_LINK='sh old/interloper-link' sh bench/link-scale.sh
#                                         another implementation of
#                                         `interloper link`, same options
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
k=${1:-33}
[ $# -eq 0 ] || shift
[ $# -gt 0 ] || set -- 50 200 400
IL_LINK=${IL_LINK:-"sh $top/scripts/interloper link"}
work=$(mktemp -d "${TMPDIR:-/tmp}/il-bench-link.XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

printf '%-7s %-5s %-7s %-9s %-7s %-7s %-6s %-7s\n' objects K "dry K" "dry 10000" plain link ratio func
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
	cd "$d"
	t0=$(now)
	# shellcheck disable=SC2086 # IL_LINK is a command line; objs are names
	$IL_LINK -n -k "$k" -s 1 -- cc -o p $objs >/dev/null 2>&1
	t1=$(now)
	# shellcheck disable=SC2086
	$IL_LINK -n -k 10000 -s 1 -- cc -o p $objs >/dev/null 2>&1
	t2=$(now)
	i=0
	while [ "$i" -le "$k" ]; do
		# shellcheck disable=SC2086
		cc -o p $objs
		i=$((i + 1))
	done
	t3=$(now)
	# shellcheck disable=SC2086
	$IL_LINK -q -k "$k" -s 1 -d "$d/o" -- cc -o p $objs >/dev/null
	t4=$(now)
	f=-
	if command -v ld.lld >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		$IL_LINK -q -g function -k "$k" -s 1 -d "$d/f" -- cc -o p $objs >/dev/null
		f=$(secs "$t4" "$(now)")
	fi
	cd "$work"
	plain=$(secs "$t2" "$t3")
	link=$(secs "$t3" "$t4")
	printf '%-7s %-5s %-7s %-9s %-7s %-7s %-6s %-7s\n' "$n" "$k" "$(secs "$t0" "$t1")" \
		"$(secs "$t1" "$t2")" "$plain" "$link" \
		"$(awk -v a="$link" -v b="$plain" 'BEGIN { printf "%.2f", a / b }')" "$f"
done
