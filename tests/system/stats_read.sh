#!/bin/sh
# stats_read.sh: how report, plan, plot and record merge read records
# (issue 18): gzip and zstd files and standard input give what the plain
# file gives, and corrupt or truncated data is one line; a plain file, read in two halves
# by two threads, gives what one sequential reading (the standard input)
# gives: the same output, the same warnings in the same order, the same
# first bad line, the same --strict stop; lines longer than the read
# buffer; lines that look alike but are not (the templates of
# stats/tmpl.c).
# shellcheck disable=SC1091 # sourced from the tree at run time
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

built() {
	[ -x "$B/libexec/interloper-report" ] && [ -x "$B/libexec/interloper-plan" ]
}

# rec I SYSTEM VALUE: one record of a sweep's shape, setup by I.
rec() {
	printf '{"schema":"interloper/1","version":"0.2.0","labels":{"bench":"tr","system":"%s","setup":"e%s","rep":"%s"},' \
		"$2" $(($1 % 5)) $(($1 / 10))
	printf '"pid":%s,"host":"vm","exit":{"how":"return","status":0,"signal":0},' $((7000 + $1))
	printf '"events":{"task-clock":{"value":%s,"enabled_ns":%s,"running_ns":%s}},' "$3" "$3" "$3"
	printf '"times":{"wall_ns":%s,"user_ns":1000,"sys_ns":0},"floor":{"task-clock":45}}\n' $(($3 + 900))
}

# records N: N records of two systems, with bad lines in both halves,
# torn ones only at the start and in the second half.
records() {
	i=0
	while [ "$i" -lt "$1" ]; do
		v=$((100000 + (i * 7919) % 2000))
		t=$((i % 97))
		[ "$i" -lt 100 ] || [ "$i" -gt $(($1 * 2 / 3)) ] || t=0
		case $t in
		13) rec "$i" A "$v" | cut -c1-150 ;;                        # torn
		41) rec "$i" B "$v" | sed 's/"value":[0-9]*/"value":"x"/' ;; # not a number
		77) rec "$i" A "$v" | sed 's/"interloper\/1"/"interloper\/9"/' ;;
		*) rec "$i" "$([ $((i % 2)) -eq 0 ] && echo A || echo B)" "$v" ;;
		esac
		i=$((i + 1))
	done
}

# il_two: two CPUs or more to run on (a file is then read in parts)
il_two() {
	[ "$(nproc)" -ge 2 ]
}

# norm IN PATH OUT: IN with the lines named PATH:N as F:N, into OUT
norm() {
	sed "s|$2:\([0-9]\)|F:\1|g" "$1" >"$3"
}

# same WHAT FILE ARGS...: report on FILE (read in two halves) and on its
# bytes through a pipe (read in one piece) agree (stdout and stderr, where
# lines are named FILE:N and -:N).
same() {
	_what=$1
	_f=$2
	shift 2
	"$B/libexec/interloper-report" "$@" "$_f" >"$T/a.out" 2>"$T/a.err"
	_ra=$?
	# shellcheck disable=SC2002 # a pipe, which is read in one piece
	cat "$_f" | "$B/libexec/interloper-report" "$@" - >"$T/b.out" 2>"$T/b.err"
	_rb=$?
	assert_eq "$_ra" "$_rb" "$_what: exit status"
	for _x in out err; do
		norm "$T/a.$_x" "$_f" "$T/a.$_x.n"
		norm "$T/b.$_x" - "$T/b.$_x.n"
	done
	assert_true "$_what: the same output" cmp -s "$T/a.out.n" "$T/b.out.n"
	assert_true "$_what: the same warnings" cmp -s "$T/a.err.n" "$T/b.err.n"
}

if built; then
	records 3000 >"$T/r.jsonl"
fi

try "two halves read as one reading: output, warnings in order, the first bad line"
if built; then
	same "json, design" "$T/r.jsonl" --json --compare system=A --setup setup
	same "table" "$T/r.jsonl" --by system
	assert_match "$(head -1 "$T/a.err")" "^interloper report: warning: $T/r.jsonl:14: malformed JSON" "the first bad line first"
	assert_match "$(sed -n 10p "$T/a.err")" "^interloper report: warning: $T/r.jsonl:2[0-9]{3}: " "the tenth is in the second half"
	assert_match "$(cat "$T/a.err")" "schema \"interloper/9\"" "the other schema"
	assert_match "$(cat "$T/a.err")" " [0-9]+ more" "bad lines beyond the ten named"
	same "empty selection" "$T/r.jsonl" --by system --where system=B --where bench=tr --metric task-clock --subtract-floor --where rep=40
	# records selected in one half only: the other half adds none
	same "a selection in the second half only" "$T/r.jsonl" --by system --where rep=250
	assert_match "$(head -1 "$T/a.out")" " 10 records " "its records are there"
	same "a selection in the first half only" "$T/r.jsonl" --compare system=A --setup setup --where rep=20
	assert_match "$(head -1 "$T/a.out")" " 10 records " "its records are there"
else
	skip "the statistics programs are not built; run make"
fi

# phases N: N records; the label phase is one in the first half, then two
# and three in turn; the label late only on the last fifth, one value.
phases() {
	i=0
	while [ "$i" -lt "$1" ]; do
		p=one
		[ "$i" -lt $(($1 / 2)) ] || p=$([ $((i % 2)) -eq 0 ] && echo two || echo three)
		l=
		[ "$i" -lt $(($1 * 4 / 5)) ] || l=',"late":"yes"'
		rec "$i" A $((1000 + i % 13)) | sed "s/\"labels\":{/\"labels\":{\"phase\":\"$p\"$l,/"
		i=$((i + 1))
	done
}

# halves N: 2N records of one length, so that the cut falls after record
# N + 1: the label half is a up to there and b after it.
halves() {
	i=0
	while [ "$i" -lt $((2 * $1)) ]; do
		h=a
		[ "$i" -le "$1" ] || h=b
		printf '{"schema":"interloper/1","version":"0.2.0","labels":{"bench":"tr","system":"A","setup":"e%d","rep":"%04d","half":"%s"},' \
			$((i % 5)) $((i / 5)) "$h"
		printf '"pid":%d,"host":"vm","exit":{"how":"return","status":0,"signal":0},' $((10000 + i))
		printf '"events":{"task-clock":{"value":%d}},"times":{"wall_ns":%d}}\n' $((10000 + i % 13)) $((20000 + i % 7))
		i=$((i + 1))
	done
}

try "a label of one value in a half, or only in the second half: joined as one reading"
if built; then
	halves 500 >"$T/hv.jsonl"
	assert_eq "$(awk '{ print length($0) }' "$T/hv.jsonl" | sort -u | wc -l)" 1 "the records are of one length"
	same "one value in each half" "$T/hv.jsonl" --by half
	assert_match "$(cat "$T/a.out")" "a +501 " "the first half's value"
	assert_match "$(cat "$T/a.out")" "b +499 " "the second half's value"
	phases 2000 >"$T/ph.jsonl"
	same "one value in the first half, two in the second" "$T/ph.jsonl" --by phase
	assert_match "$(cat "$T/a.out")" "one +1000 " "the first half's value"
	assert_match "$(cat "$T/a.out")" "two +500 " "the second half's values"
	same "a label only the second half has" "$T/ph.jsonl" --by late --where late=yes
	assert_match "$(cat "$T/a.out")" "yes +400 " "its records"
	same "both" "$T/ph.jsonl" --by phase,late --where late=yes
	same "the first half's value only" "$T/ph.jsonl" --by system --where phase=one
	assert_match "$(head -1 "$T/a.out")" " 1000 records " "its records are there"
else
	skip "the statistics programs are not built; run make"
fi

try "an integer beyond 2^53 in one half only: exact after the join"
if built; then
	big=1152921504606846977 # 2^60 + 1, not a double
	for at in 6 2990; do
		records 3000 | awk -v at="$at" -v big="$big" 'NR == at { sub(/"value":[0-9]+/, "\"value\":" big) } { print }' >"$T/big$at.jsonl"
		same "big at line $at" "$T/big$at.jsonl" --json --by system --metric task-clock
		assert_match "$(cat "$T/a.out")" "\"max\": $big," "exact at line $at"
	done
else
	skip "the statistics programs are not built; run make"
fi

try "--strict stops at the first bad line of the second half, as one reading does"
if built; then
	{
		i=0
		while [ "$i" -lt 400 ]; do
			if [ "$i" -eq 350 ]; then rec "$i" A 5 | cut -c1-90; else rec "$i" A $((1000 + i)); fi
			i=$((i + 1))
		done
	} >"$T/late.jsonl"
	same "strict" "$T/late.jsonl" --strict
	assert_match "$(cat "$T/a.err")" "late.jsonl:351: malformed JSON at column 90.*--strict" "line 351"
	assert_eq "$(wc -l <"$T/a.err")" 1 "one line"
else
	skip "the statistics programs are not built; run make"
fi

# late_event N: N records, then N more that also have the event late-ev.
late_event() {
	i=0
	while [ "$i" -lt "$1" ]; do rec "$i" A 5; i=$((i + 1)); done
	while [ "$i" -lt $((2 * $1)) ]; do
		rec "$i" A 5 | sed 's/"events":{/"events":{"late-ev":{"value":1},/'
		i=$((i + 1))
	done
}

try "event names that only the second half has are listed for an unknown metric"
if built; then
	late_event 40 >"$T/ev.jsonl"
	same "unknown metric" "$T/ev.jsonl" --metric nosuch
	assert_match "$(cat "$T/a.err")" "known metrics: wall, user, sys, maxrss, task-clock, late-ev$" "both halves' names"
	# names are collected from the first 1000 records only
	late_event 1100 >"$T/ev2.jsonl"
	same "unknown metric, after 1000 records" "$T/ev2.jsonl" --metric nosuch
	assert_match "$(cat "$T/a.err")" "known metrics: wall, user, sys, maxrss, task-clock$" "only the first 1000 records' names"
else
	skip "the statistics programs are not built; run make"
fi

try "a sweep's start in the first half and its end in the second: the steal between them"
if built; then
	{
		printf '{"schema":"interloper-sweep/1","kind":"machine","plan":"p1","when":"start","machine":{"cpus_online":"0-1","loadavg":[0.5,1,1],"steal_ticks":100,"all_ticks":10000}}\n'
		i=0
		while [ "$i" -lt 300 ]; do rec "$i" A $((1000 + i % 7)); i=$((i + 1)); done
		printf '{"schema":"interloper-sweep/1","kind":"machine","plan":"p1","when":"end","machine":{"cpus_online":"0-1","loadavg":[0.5,1,1],"steal_ticks":150,"all_ticks":11000}}\n'
	} >"$T/steal.jsonl"
	same "steal" "$T/steal.jsonl"
	assert_match "$(cat "$T/a.err")" "plan p1: the hypervisor took 5.0% of the CPUs' time \(steal\)" "paired across the halves"
else
	skip "the statistics programs are not built; run make"
fi

try "gzip, concatenated gzip, zstd and compressed standard input read as the plain file"
if built && command -v gzip >/dev/null 2>&1 && command -v zstd >/dev/null 2>&1; then
	gzip -c "$T/r.jsonl" >"$T/r.jsonl.gz"
	head -c 100000 "$T/r.jsonl" | gzip -c >"$T/cat.gz"
	tail -c +100001 "$T/r.jsonl" | gzip -c >>"$T/cat.gz"
	zstd -q -c "$T/r.jsonl" >"$T/r.zst"
	"$B/libexec/interloper-report" --json --compare system=A --setup setup "$T/r.jsonl" >"$T/out" 2>/dev/null
	norm "$T/out" "$T/r.jsonl" "$T/plain"
	for f in r.jsonl.gz cat.gz r.zst; do
		"$B/libexec/interloper-report" --json --compare system=A --setup setup "$T/$f" >"$T/out" 2>"$T/err"
		norm "$T/out" "$T/$f" "$T/out.n"
		assert_true "$f: the same output" cmp -s "$T/plain" "$T/out.n"
		assert_match "$(head -1 "$T/err")" "^interloper report: warning: $T/$f:14: malformed JSON" "$f: lines named in it"
	done
	"$B/libexec/interloper-report" --json --compare system=A --setup setup - <"$T/r.zst" >"$T/out" 2>/dev/null
	norm "$T/out" - "$T/out.n"
	assert_true "zstd on stdin" cmp -s "$T/plain" "$T/out.n"
	"$B/libexec/interloper-plan" --levels setup,rep --json "$T/r.jsonl.gz" >"$T/pgz" 2>&1
	"$B/libexec/interloper-plan" --levels setup,rep --json "$T/r.jsonl" >"$T/ppl" 2>&1
	assert_eq "$(sed "s|$T/r.jsonl.gz|F|g" "$T/pgz")" "$(sed "s|$T/r.jsonl|F|g" "$T/ppl")" "plan reads gzip"
else
	skip "gzip or zstd is missing (make deps installs them)"
fi

try "corrupt or truncated compressed data is one line naming the file"
if built && command -v zstd >/dev/null 2>&1; then
	head -c 20000 "$T/r.jsonl.gz" >"$T/t.gz"
	head -c 20000 "$T/r.zst" >"$T/t.zst"
	{ cat "$T/r.jsonl.gz"; printf 'trailing garbage'; } >"$T/g.gz"
	for f in t.gz t.zst g.gz; do
		"$B/libexec/interloper-report" "$T/$f" >/dev/null 2>"$T/err"
		assert_eq "$?" 1 "$f: exit 1"
		assert_eq "$(wc -l <"$T/err")" 1 "$f: one line"
		assert_match "$(cat "$T/err")" "^interloper report: $T/$f: corrupt (gzip|zstd) data: " "$f: named"
	done
else
	skip "zstd is missing (make deps installs it)"
fi

try "record merge reads gzip and zstd shards as the plain ones, a torn last line too"
if built && command -v zstd >/dev/null 2>&1; then
	mkdir -p "$T/s/A" "$T/s/B"
	cp /bin/true "$T/s/A/tr"
	cp /bin/true "$T/s/B/tr"
	for i in 1 2; do
		(cd "$T" && sh "$IL" sweep -q --seed 3 --reps 2 --env-add 0:64:64 --system A=s/A/tr \
			--system B=s/B/tr --shard $i/2 --output sh.$i.jsonl --)
	done
	printf '{"schema":"interloper/1","lab' >>"$T/sh.2.jsonl"
	gzip -c "$T/sh.1.jsonl" >"$T/sh.1.jsonl.gz"
	zstd -q -c "$T/sh.2.jsonl" >"$T/sh.2.jsonl.zst"
	(cd "$T" && sh "$IL" record merge -o plain.jsonl sh.1.jsonl sh.2.jsonl) 2>"$T/err.plain"
	(cd "$T" && sh "$IL" record merge -o packed.jsonl sh.1.jsonl.gz sh.2.jsonl.zst) 2>"$T/err.packed"
	assert_eq "$?" 0 "status"
	assert_true "the same merged file" cmp -s "$T/plain.jsonl" "$T/packed.jsonl"
	assert_eq "$(sed 's/sh.2.jsonl.zst/sh.2.jsonl/; s/sh.1.jsonl.gz/sh.1.jsonl/; s/packed.jsonl/plain.jsonl/' "$T/err.packed")" \
		"$(cat "$T/err.plain")" "the same messages"
	assert_match "$(cat "$T/err.packed")" "sh.2.jsonl.zst:[0-9]+: the last line is torn \(29 bytes without a newline\); left out" \
		"the torn line named in the compressed file"
	head -c 100 "$T/sh.1.jsonl.gz" >"$T/bad.gz"
	(cd "$T" && sh "$IL" record merge -o bad.jsonl bad.gz sh.2.jsonl) 2>"$T/err"
	assert_eq "$?" 1 "a corrupt shard: exit 1"
	assert_match "$(cat "$T/err")" "^interloper record merge: bad.gz: corrupt gzip data: unexpected end of file$" "one line"
	assert_true "no file written" test ! -e "$T/bad.jsonl"
else
	skip "zstd is missing (make deps installs it)"
fi

try "a line longer than the read buffer, and a last line without a newline"
if built; then
	long=$(head -c 300000 /dev/zero | tr '\0' 'x')
	{
		rec 1 A 10
		printf '{"schema":"interloper/1","labels":{"system":"A","note":"%s"},"times":{"wall_ns":20}}\n' "$long"
		rec 2 A 30 | tr -d '\n'
	} >"$T/long.jsonl"
	out=$("$B/libexec/interloper-report" --json "$T/long.jsonl" 2>/dev/null)
	assert_match "$out" '"n": 3,' "three records"
	assert_match "$out" '"min": 20,' "the long one among them"
else
	skip "the statistics programs are not built; run make"
fi

try "lines read where they lie in the read buffer: the bad ones named by their numbers"
if built; then
	# about 1 MB: lines a template matches are read in the read buffer
	# without a search for their newline (stats/read.c, next_line); blank
	# lines and a carriage return among them still count as lines
	i=1
	while [ "$i" -le 3000 ]; do
		case $i in
		5 | 1000 | 2999) rec "$i" A 100 | sed 's/}$/}x/' ;; # bytes after a record
		300 | 1800) echo ;;
		700) rec "$i" A 100 | sed 's/$/\r/' ;;
		*) rec "$i" A $((100 + i % 1000)) ;;
		esac
		i=$((i + 1))
	done >"$T/where.jsonl"
	"$B/libexec/interloper-report" --by system "$T/where.jsonl" >/dev/null 2>"$T/err"
	assert_eq "$(grep -o 'where.jsonl:[0-9]*: malformed' "$T/err" | tr '\n' ' ')" \
		"where.jsonl:5: malformed where.jsonl:1000: malformed where.jsonl:2999: malformed " \
		"the three bad lines named by their numbers"
	same "read in the buffer, in halves and from a pipe" "$T/where.jsonl" --by system
else
	skip "the statistics programs are not built; run make"
fi

try "lines ending in carriage returns: read as without them, the bad ones named by their numbers"
if built; then
	# stats/tmpl.c takes a line that a template matches in the read buffer
	# when carriage returns and then a newline follow it (il_rd_line strips
	# them): every line of where.jsonl ending in CRLF, and the last one in
	# a CR without a newline, reads as where.jsonl; and with some lines
	# ending in two CRs, a CR between spaces (white space: valid), or a
	# lone CR inside them (white space: valid; before bytes after the
	# record: bad), the same records and line numbers
	sed 's/$/\r/' "$T/where.jsonl" >"$T/crlf.jsonl"
	printf '\r' >>"$T/crlf.jsonl"
	"$B/libexec/interloper-report" --json --by system "$T/where.jsonl" >"$T/lf.out" 2>"$T/lf.err"
	"$B/libexec/interloper-report" --json --by system "$T/crlf.jsonl" >"$T/crlf.out" 2>"$T/err"
	norm "$T/lf.out" "$T/where.jsonl" "$T/lf.out.n"
	norm "$T/crlf.out" "$T/crlf.jsonl" "$T/crlf.out.n"
	assert_true "every line CRLF: the output of the LF file" cmp -s "$T/lf.out.n" "$T/crlf.out.n"
	assert_eq "$(grep -o 'crlf.jsonl:[0-9]*: malformed' "$T/err" | tr '\n' ' ')" \
		"crlf.jsonl:5: malformed crlf.jsonl:1000: malformed crlf.jsonl:2999: malformed " \
		"every line CRLF: the three bad lines named by their numbers"
	awk '{ if (NR == 6 || NR == 1001 || NR == 2000) printf "%s\r\r\n", $0
		else if (NR == 10 || NR == 11) printf "%s\r \r\n", $0
		else if (NR == 2500) { sub(/}$/, "}\rx"); printf "%s\r\n", $0 }
		else if (NR == 2600) { sub(/,"host"/, ",\r\"host\""); printf "%s\r\n", $0 }
		else if (NR % 3 == 0) printf "%s\r\n", $0
		else print }' "$T/where.jsonl" >"$T/mixed.jsonl"
	out=$("$B/libexec/interloper-report" --json "$T/mixed.jsonl" 2>"$T/err")
	ref=$("$B/libexec/interloper-report" --json "$T/where.jsonl" 2>/dev/null)
	assert_match "$ref" '"records": 2995,' "3000 lines, 2 blank, 3 bad"
	assert_match "$out" '"records": 2994,' "and the lone CR's line bad"
	assert_eq "$(grep -o 'mixed.jsonl:[0-9]*: malformed' "$T/err" | tr '\n' ' ')" \
		"mixed.jsonl:5: malformed mixed.jsonl:1000: malformed mixed.jsonl:2500: malformed mixed.jsonl:2999: malformed " \
		"some lines CRLF or CRCRLF: the four bad lines named by their numbers"
	same "CRLF: read in the buffer, in halves and from a pipe" "$T/crlf.jsonl" --by system
	same "CRLF on some lines: read in the buffer, in halves and from a pipe" "$T/mixed.jsonl" --by system
else
	skip "the statistics programs are not built; run make"
fi

try "lines like a template but not quite: each read as the full scanner reads it"
if built; then
	{
		rec 1 A 10
		rec 2 A 11 | sed 's/"value":11/"value": 11/'     # white space: full scan
		rec 3 A 12 | sed 's/"tr"/"t\\u0072"/'            # an escape in a value
		rec 4 A 13 | sed 's/"value":13/"value":1.3e1/'  # a number of another form
		rec 5 A 14 | sed 's/"value":14/"value":14x/'    # invalid after the number
		rec 6 A 15 | sed 's/"bench":"tr"/"bench":{"a":1}/' # a value turned object
		rec 7 A 16 | sed 's/"vm"/"v\x01m"/'             # a control byte
		rec 8 A 17 | sed 's/"events"/"event"/'          # another key
	} >"$T/alike.jsonl"
	out=$("$B/libexec/interloper-report" --metric task-clock --json "$T/alike.jsonl" 2>"$T/err")
	assert_match "$out" '"records": 6,' "six records"
	assert_match "$out" '"malformed": 2,' "two malformed"
	assert_match "$out" '"mean": 12.2,' "10, 11, 12, 13 (1.3e1) and 15 are used"
	assert_match "$(cat "$T/err")" "alike.jsonl:5: malformed JSON at column 207: '}' expected near 'x'" "14x named"
	assert_match "$(cat "$T/err")" "alike.jsonl:7: malformed JSON at column 123: control character" "the control byte named"
	assert_match "$out" '"missing": 1,' "the record without events is counted as missing the metric"
else
	skip "the statistics programs are not built; run make"
fi

# parts N SLOW BAD: N records of about 370 bytes (14 MB at 40,000), for
# the reading in parts (stats/read.c): the lines of the SLOW half (first
# or second) with white space after their commas, which the full scanner
# reads (slower than a template), so that one thread ends its range first
# and takes the second half of what the other has left, in parts of its
# own, again and again near the end; a sweep's start before the records and
# its end after them; the label phase one value up to three fifths, then
# two in turn; the label late on the last tenth only; a line of 700 KB
# (longer than a take, at least IL_TAKE_MIN) at three quarters; lines
# ending in CRLF; the last line without its newline.  BAD many: torn
# lines, a value not a number and another schema every thousand lines or
# so; BAD late: one torn line, at 95%.  A fourth argument nolong leaves
# the long line out (a remainder whose middle falls in it cannot be split,
# so that the steals the tests' variant is to show may not happen).
parts() {
	awk -v n="$1" -v slow="$2" -v bad="$3" -v nolong="${4:-}" -v args="${5:-}" '
	function rec(i, sys, v,   s, ph) {
		ph = i < n * 3 / 5 ? "one" : i % 2 ? "two" : "three"
		s = sprintf("{\"schema\":\"interloper/1\",\"version\":\"0.2.0\",\"labels\":{\"bench\":\"tr\",\"system\":\"%s\",\"setup\":\"e%d\",\"rep\":\"%d\",\"phase\":\"%s\"%s},", sys, i % 5, int(i / 10), ph, i >= n * 9 / 10 ? ",\"late\":\"yes\"" : "")
		s = s sprintf("\"pid\":%d,\"host\":\"vm\",\"exit\":{\"how\":\"return\",\"status\":0,\"signal\":0},", 7000 + i)
		# args: the argv after the program, from the first record, the
		# middle or the last tenth on
		if (args == "first") s = s sprintf("\"argv\":[\"tr\",\"%s\"],", i ? "in" : "in0")
		else if (args == "middle") s = s sprintf("\"argv\":[\"tr\",\"%s\"],", i < n / 2 ? "in" : "in2")
		else if (args == "late") s = s sprintf("\"argv\":[\"tr\",\"%s\"],", i < n * 9 / 10 ? "in" : "in2")
		else if (args == "one") s = s "\"argv\":[\"tr\",\"in\"],"
		s = s sprintf("\"events\":{\"task-clock\":{\"value\":%d,\"enabled_ns\":%d,\"running_ns\":%d}},", v, v, v)
		return s sprintf("\"times\":{\"wall_ns\":%d,\"user_ns\":1000,\"sys_ns\":0},\"floor\":{\"task-clock\":45}}", v + 900)
	}
	BEGIN {
		long = "x"
		while (length(long) < 700000)
			long = long long
		print "{\"schema\":\"interloper-sweep/1\",\"kind\":\"machine\",\"plan\":\"p1\",\"when\":\"start\",\"machine\":{\"cpus_online\":\"0-1\",\"loadavg\":[0.5,1,1],\"steal_ticks\":100,\"all_ticks\":10000}}"
		for (i = 0; i < n; i++) {
			s = rec(i, i % 2 ? "B" : "A", 100000 + (i * 7919) % 2000)
			if ((i < n / 2) == (slow == "first"))
				gsub(/,/, ", ", s)
			if (bad == "many" && i % 1009 == 13) s = substr(s, 1, 150)
			else if (bad == "many" && i % 1013 == 41) sub(/"value":[0-9]+/, "\"value\":\"x\"", s)
			else if (bad == "many" && i % 997 == 77) sub(/"interloper\/1"/, "\"interloper/9\"", s)
			else if (bad == "late" && i == int(n * 19 / 20)) s = substr(s, 1, 150)
			else if (i % 101 == 7) s = s "\r"
			else if (i == int(n * 3 / 4) && nolong == "") s = "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"A\",\"note\":\"" long "\"},\"times\":{\"wall_ns\":20}}"
			print s
		}
		printf "{\"schema\":\"interloper-sweep/1\",\"kind\":\"machine\",\"plan\":\"p1\",\"when\":\"end\",\"machine\":{\"cpus_online\":\"0-1\",\"loadavg\":[0.5,1,1],\"steal_ticks\":150,\"all_ticks\":11000}}"
	}'
}

# parts_as_one WHAT TAKE JOIN ARGS...: the tests' variant reads $T/v.jsonl
# in takes of TAKE bytes (joining JOIN bytes at a time on two threads, 0:
# not), and its output, warnings and status are those of one reading of
# it from a pipe; $T/a.err is the variant's warnings
parts_as_one() {
	_w=$1 _take=$2 _join=$3
	shift 3
	IL_TEST_TAKE=$_take IL_TEST_JOIN=$_join "$B/tests/interloper-report-parts" "$@" "$T/v.jsonl" >"$T/a.out" 2>"$T/a.err0"
	_ra=$?
	grep -v '^il-test-' "$T/a.err0" >"$T/a.err"
	# shellcheck disable=SC2002 # a pipe: read by one thread
	cat "$T/v.jsonl" | "$B/libexec/interloper-report" "$@" - >"$T/b.out" 2>"$T/b.err"
	assert_eq "$_ra" "$?" "$_w: exit status"
	_n=$(sed -n 's/^il-test-parts: //p' "$T/a.err0")
	# two parts at least; how many more the threads take from each other
	# depends on how the machine runs them (under load both halves can
	# end together: 2 parts, seen in the full suite twice)
	assert_true "$_w: read in parts ($_n)" test "${_n:-0}" -ge 2
	if [ "$_join" != 0 ]; then
		# a join a part after the first: with two parts, one
		_want=$((${_n:-0} > 2 ? 2 : 1))
		_n=$(sed -n 's/^il-test-joins: //p' "$T/a.err0")
		assert_true "$_w: parts joined on two threads ($_n)" test "${_n:-0}" -ge "$_want"
	fi
	for _x in out err; do
		norm "$T/a.$_x" "$T/v.jsonl" "$T/a.$_x.n"
		norm "$T/b.$_x" - "$T/b.$_x.n"
	done
	assert_true "$_w: the same output" cmp -s "$T/a.out.n" "$T/b.out.n"
	assert_true "$_w: the same warnings" cmp -s "$T/a.err.n" "$T/b.err.n"
}

try "a file read in parts that the two threads take from each other: as one reading"
if built; then
	# Which thread takes which part depends on timing; whatever they took,
	# every output is one sequential reading's (the standard input's).
	# Three readings of each file, so that parts fall differently.
	for slow in first second; do
		parts 40000 "$slow" many >"$T/p.jsonl"
		for k in 1 2 3; do
			same "$slow half slow, $k: table" "$T/p.jsonl" --by system
			same "$slow half slow, $k: json, design" "$T/p.jsonl" --json --compare system=A --setup setup
			same "$slow half slow, $k: labels of one value, then more" "$T/p.jsonl" --by phase,late
		done
		assert_match "$(sed -n 11p "$T/a.err")" " more unusable lines " "$slow: the bad lines beyond the ten named"
		assert_match "$(cat "$T/a.err")" "plan p1: the hypervisor took 5.0% of the CPUs' time \(steal\)" "$slow: the sweep's start and end paired"
		same "$slow: only the last tenth" "$T/p.jsonl" --by phase --where late=yes
		assert_match "$(cat "$T/a.out")" "three +1998 " "$slow: its records"
		same "$slow: an empty selection names the first bad line" "$T/p.jsonl" --where system=A --metric task-clock --where rep=41
		parts 40000 "$slow" late >"$T/l.jsonl"
		same "$slow half slow: --strict" "$T/l.jsonl" --strict --by system
		assert_match "$(cat "$T/a.err")" "l.jsonl:38002: malformed JSON at column 150.*--strict" "$slow: the bad line at 95%"
		same "$slow half slow: one bad line near the end" "$T/l.jsonl" --json --by system
	done
	assert_match "$(tail -c 40 "$T/p.jsonl")" 'all_ticks":11000}}$' "the last line without its newline"
	# failed runs only in the part after the cut, or only in the first
	# (il_prepare looks for them only where records so flagged were read:
	# each part's count joined)
	for at in 39999 2; do
		awk -v at="$at" 'NR == at + 1 { sub(/"how": ?"return"/, "\"how\":\"signal\"") } { print }' "$T/p.jsonl" >"$T/f.jsonl"
		same "a run killed by a signal, record $at" "$T/f.jsonl" --by system
		assert_match "$(cat "$T/a.err")" "1 failed run was left out \(1 died of a signal" "record $at: left out"
		if [ -x "$B/tests/interloper-report-parts" ]; then
			IL_TEST_TAKE=4096 "$B/tests/interloper-report-parts" --by system "$T/f.jsonl" >/dev/null 2>"$T/c.err"
			assert_match "$(cat "$T/c.err")" "1 failed run was left out \(1 died of a signal" "record $at, takes of 4 KiB: left out"
		fi
	done
	# parts of more than IL_JOIN_SPLIT (100,000) records: their join's
	# columns and labels on two threads
	parts 250000 second many >"$T/p.jsonl"
	same "250,000 records: table" "$T/p.jsonl" --by system
	same "250,000 records: labels of one value, then more" "$T/p.jsonl" --json --by phase,late
	same "250,000 records: json, design" "$T/p.jsonl" --json --compare system=A --setup setup
	# a file smaller than one take (256 KiB), and an empty one
	head -n 300 "$T/p.jsonl" >"$T/small.jsonl"
	same "smaller than a take" "$T/small.jsonl" --by system
	# the standard input, a regular file read from where it is (not in
	# parts from its start: review10a)
	(read -r _x && "$B/libexec/interloper-report" --by system -) <"$T/small.jsonl" >"$T/a.out" 2>"$T/a.err"
	tail -n +2 "$T/small.jsonl" | "$B/libexec/interloper-report" --by system - >"$T/b.out" 2>"$T/b.err"
	assert_true "stdin at an offset: from there on" cmp -s "$T/a.out" "$T/b.out"
	assert_true "stdin at an offset: the same warnings" cmp -s "$T/a.err" "$T/b.err"
	: >"$T/empty.jsonl"
	same "an empty file" "$T/empty.jsonl"
	assert_match "$(cat "$T/a.err")" "empty selection: no records in the input \(0 non-blank lines" "said"
else
	skip "the statistics programs are not built; run make"
fi

try "takes of one line or of 4 KiB in the tests' variant: many parts, as one reading"
if built && [ -x "$B/tests/interloper-report-parts" ]; then
	# build/tests/interloper-report-parts (stats.mk, IL_TEST_PARTS) takes
	# IL_TEST_TAKE bytes at a time and steals from 2 * IL_TEST_TAKE left,
	# so that parts are many whatever the timing, and says how many; with
	# IL_TEST_JOIN (here with takes of 4 KiB) it joins every part on two
	# threads, that many bytes of the values' columns at a time (13: chunks
	# that end within a value), and says how many joins ran on two
	if il_two; then
		for slow in first second; do
			parts 6000 "$slow" many nolong >"$T/v.jsonl"
			for take in 1 4096; do
				join=0
				[ "$take" = 4096 ] && join=13
				for args in "--by system" "--json --compare system=A --setup setup" "--by phase,late"; do
					# shellcheck disable=SC2086 # the options, split
					parts_as_one "$slow, takes of $take, $args" "$take" "$join" $args
				done
			done
		done
	else
		skip "one CPU: a file is read by one thread"
	fi
else
	skip "the tests' variant is not built; run make tests-build"
fi

try "argv lists in parts: one list for all keeps no column; a second list, in any part, is counted as in one reading"
if built && [ -x "$B/tests/interloper-report-parts" ]; then
	# the argv hashes ([mixed-args]) are a column only once a record's
	# differs from the first's (stats/input.c, il_argh_column): a part's
	# hash, joined with another's, makes both parts' columns
	if il_two; then
		for args in one first middle late; do
			parts 6000 first many nolong "$args" >"$T/v.jsonl"
			parts_as_one "$args" 4096 13 --by system
			if [ "$args" = one ]; then
				assert_eq "$(grep -c mixed-args "$T/a.err")" 0 "$args: no word"
			elif [ "$args" = first ]; then
				assert_match "$(cat "$T/a.err")" "system=A: 2 argument lists; they .*\[mixed-args\]" "$args: the first record's list counted in its system alone"
			else
				assert_match "$(cat "$T/a.err")" "system=A: 2 argument lists; system=B: 2 argument lists; .*\[mixed-args\]" "$args: both lists counted in each system"
			fi
		done
	else
		skip "one CPU: a file is read by one thread"
	fi
else
	skip "the tests' variant is not built; run make tests-build"
fi

try "the memory given back before the exit on two threads: the same output and status"
if built && [ -x "$B/tests/interloper-report-parts" ]; then
	# report gives the pages of its columns back on two threads before it
	# exits (read.c, il_release), from 16 MiB; the tests' variant does so
	# a page at a time at any size with IL_TEST_RELEASE, and says how many
	# pages (or 2 MiB chunks) it gave back
	if il_two; then
		parts 6000 first many nolong >"$T/r.jsonl"
		for args in "--by system" "--json --compare system=A --setup setup" "--by phase,late --csv"; do
			# shellcheck disable=SC2086 # the options, split
			IL_TEST_RELEASE=1 "$B/tests/interloper-report-parts" $args "$T/r.jsonl" >"$T/a.out" 2>"$T/a.err0"
			_ra=$?
			grep -v '^il-test-' "$T/a.err0" >"$T/a.err"
			# shellcheck disable=SC2086 # the options, split
			"$B/libexec/interloper-report" $args "$T/r.jsonl" >"$T/b.out" 2>"$T/b.err"
			assert_eq "$_ra" "$?" "$args: exit status"
			n=$(sed -n 's/^il-test-released: //p' "$T/a.err0")
			assert_true "$args: given back on two threads ($n)" test "${n:-0}" -ge 2
			assert_true "$args: the same output" cmp -s "$T/a.out" "$T/b.out"
			assert_true "$args: the same warnings" cmp -s "$T/a.err" "$T/b.err"
		done
	else
		skip "one CPU: the exit frees the memory"
	fi
else
	skip "the tests' variant is not built; run make tests-build"
fi

_finish_case
