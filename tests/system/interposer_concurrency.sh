#!/bin/sh
# Many processes appending to one file never interleave.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1

try "50 concurrent processes append 50 valid lines to one file"
big=$(printf '%05000d' 0) # records of more than 4 KiB, beyond PIPE_BUF
i=0
while [ $i -lt 50 ]; do
	INTERLOPER_OUTPUT="$T/all.jsonl" LD_PRELOAD=$LIB "$PROGS/probe" busy 5 "$big" >/dev/null &
	i=$((i + 1))
done
wait
assert_eq "$(nrec all.jsonl)" 50 "lines"
assert_true "every line is a valid record" valid all.jsonl
assert_eq "$(jget all.jsonl 'len(set(x["pid"] for x in r))')" 50 "distinct processes"
assert_eq "$(jget all.jsonl 'min(len(x["argv"][3]) for x in r)')" 5000 "no record was cut"

try "%p in INTERLOPER_OUTPUT gives each process its own file"
i=0
while [ $i -lt 5 ]; do
	INTERLOPER_OUTPUT="$T/per.%p.jsonl" LD_PRELOAD=$LIB /bin/true &
	i=$((i + 1))
done
wait
set -- per.*.jsonl
assert_eq "$#" 5 "files"
for f in per.*.jsonl; do
	pid=${f#per.}
	pid=${pid%.jsonl}
	assert_eq "$(jget "$f" 'r[0]["pid"]')" "$pid" "$f holds its own process"
done

done_testing
