#!/bin/sh
# The setup knobs and facts: stack offset and pin, heap offset, and the
# library staying out of the program's heap and descriptors.  ASLR is off
# (setarch -R) so that addresses are comparable between runs.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
P="$PROGS/probe"
cd "$T" || exit 1

if ! setarch "$(uname -m)" -R true 2>/dev/null; then
	try "setup tests"
	skip "setarch -R cannot disable ASLR here (personality refused)"
	done_testing
	exit 0
fi

# layout [VAR=VALUE...]: run probe layout with ASLR off under the library,
# the record in $T/l.jsonl, the probe's output in $T/l.out.
layout() {
	rm -f l.jsonl
	env "$@" INTERLOPER_OUTPUT="$T/l.jsonl" setarch "$(uname -m)" -R \
		env LD_PRELOAD="$LIB" "$P" layout >l.out 2>l.err
}
field() { sed -n "s/^$1 //p" l.out; }
sp() { jget l.jsonl 'int(r[0]["setup"]["main_sp"], 16)'; }

try "ASLR is recorded as off under setarch -R"
layout
assert_eq "$(jget l.jsonl 'r[0]["setup"]["aslr"]')" false "setup.aslr"
assert_eq "$(field norandomize)" 1 "the program sees it too"

try "the library allocates nothing in the program's heap before main"
layout
with_brk=$(field brk) with_malloc=$(field malloc) with_fd=$(field fd)
setarch "$(uname -m)" -R "$P" layout >plain.out
assert_eq "$with_brk" "$(sed -n 's/^brk //p' plain.out)" "sbrk(0) in main"
assert_eq "$with_malloc" "$(sed -n 's/^malloc //p' plain.out)" "first malloc"
assert_eq "$(jget l.jsonl 'r[0]["setup"]["heap_start"]')" "$with_brk" "heap_start is what main sees"
assert_eq "$with_fd" "$(sed -n 's/^fd //p' plain.out)" "first descriptor the program opens"

try "nothing in the program's heap with the none backend or a libpfm4 event either"
layout INTERLOPER_BACKEND=none
assert_eq "$(field malloc)" "$(sed -n 's/^malloc //p' plain.out)" "first malloc (none)"
layout INTERLOPER_EVENTS=perf::PAGE-FAULTS
assert_eq "$(field malloc)" "$(sed -n 's/^malloc //p' plain.out)" "first malloc (libpfm4 name)"
assert_eq "$(jget l.jsonl 'r[0]["events"]["perf::PAGE-FAULTS"]["value"] > 0')" true "counted"

# Values are written with constant width, as interloper run does, so that
# the variable itself does not change the environment size.
try "a stack offset of N moves main_sp, and main's frame, by N"
layout INTERLOPER_STACK_OFFSET=00000000
sp0=$(sp) loc0=$(field local)
for n in 16 4096 65536; do
	layout INTERLOPER_STACK_OFFSET="$(printf %08d $n)"
	assert_eq "$((sp0 - $(sp)))" "$n" "main_sp shift for $n"
	assert_eq "$((loc0 - $(field local)))" "$n" "shift of a local in main for $n"
	assert_eq "$(jget l.jsonl 'r[0]["setup"]["stack_offset"]')" "$n" "applied offset"
done

try "offsets go in 16-byte steps, and both requested and applied are recorded"
layout INTERLOPER_STACK_OFFSET=00000100 # sp0: same width
assert_eq "$((sp0 - $(sp)))" 96 "applied shift"
assert_eq "$(jget l.jsonl 'r[0]["setup"]["stack_offset_requested"]')" 100 "requested"
assert_eq "$(jget l.jsonl 'r[0]["setup"]["stack_offset"]')" 96 "applied"

try "the same setup gives the same main_sp on every run"
layout INTERLOPER_STACK_OFFSET=4096
a=$(sp)
layout INTERLOPER_STACK_OFFSET=4096
assert_eq "$(sp)" "$a" "main_sp, twice"

try "without a pin, main_sp moves with the environment size"
layout PAD=
a=$(sp)
layout PAD="$(printf '%01024d' 0)"
assert_eq "$((a - $(sp)))" 1024 "shift for 1024 more bytes of environment"

try "pinning gives the same main_sp for environment sizes 0 to 4096"
: >pins
for n in 0 1 100 1000 2048 4096; do
	pad=$(printf "%0${n}d" 0)
	[ "$n" -eq 0 ] && pad=
	layout PAD="$pad" INTERLOPER_STACK_PIN=auto
	assert_eq "$(jget l.jsonl 'r[0]["setup"]["stack_pinned"]')" true "pinned at $n"
	echo "$(sp):$(field local)" >>pins
done
assert_eq "$(sort -u pins | wc -l | tr -d ' ')" 1 "one main_sp and one local address for all sizes"

try "an explicit pin address is used as given"
layout INTERLOPER_STACK_PIN=auto
want=$(jget l.jsonl 'hex(int(r[0]["setup"]["main_sp"], 16) - 0x10000)')
layout INTERLOPER_STACK_PIN="$want"
assert_eq "$(jget l.jsonl 'r[0]["setup"]["main_sp"]')" "$want" "main_sp"

try "an unreachable pin fails clearly: one line, status 127 before main"
layout INTERLOPER_STACK_PIN=0x7ffffffff000
assert_eq "$(grep -c '^interloper: INTERLOPER_STACK_PIN=0x7ffffffff000: cannot be reached' l.err)" 1 "the line"
assert_match "$(tail -n 1 l.err)" "^interloper: INTERLOPER_STACK_PIN: stopping before main with exit status 127" "then"
assert_eq "$(wc -c <l.out | tr -d ' ')" 0 "main never ran"
assert_eq "$(nrec l.jsonl)" 0 "no record"

try "a heap offset shifts heap_start and the program's heap by N"
layout INTERLOPER_HEAP_OFFSET=00000000
h0=$(jget l.jsonl 'int(r[0]["setup"]["heap_start"], 16)')
m0=$(printf '%d' "$(field malloc)")
for n in 4096 48 1048576; do
	layout INTERLOPER_HEAP_OFFSET="$(printf %08d $n)"
	assert_eq "$(($(jget l.jsonl 'int(r[0]["setup"]["heap_start"], 16)') - h0))" "$n" "heap_start shift"
	assert_eq "$(($(printf '%d' "$(field malloc)") - m0))" "$n" "first malloc shift"
done

# The plain run gets an environment of the same size: LD_PRELOAD is
# replaced by IL_PRELOAD, a name of the same length, with the same value.
plain_layout() {
	env "$@" INTERLOPER_OUTPUT="$T/l.jsonl" setarch "$(uname -m)" -R \
		env IL_PRELOAD="$LIB" "$P" layout >p.out 2>p.err
}
pfield() { sed -n "s/^$1 //p" p.out; }

try "main runs where it would without the library: the same frame address"
layout INTERLOPER_STACK_OFFSET=00000000
plain_layout INTERLOPER_STACK_OFFSET=00000000
assert_eq "$(field local)" "$(pfield local)" "a local of main, with and without"
assert_eq "$(jget l.jsonl 'r[0]["setup"]["main_entry"]')" tail "setup.main_entry"
assert_eq "$(jget l.jsonl 'r[0]["setup"]["main_sp_residue"]')" 0 "setup.main_sp_residue"
# main_sp is the stack pointer of the call to main: a 16-byte aligned
# address just above main's frame, the same in both runs
assert_eq "$(jget l.jsonl 'int(r[0]["setup"]["main_sp"], 16) % 16')" 0 "main_sp is aligned"

try "a stack offset is exact relative to the plain run"
for n in 16 4096; do
	layout INTERLOPER_STACK_OFFSET="$(printf %08d $n)"
	assert_eq "$(($(printf '%d' "$(pfield local)") - $(printf '%d' "$(field local)")))" "$n" "offset $n"
done

try "env_bytes and env_vars are what the program received"
rm -f l.jsonl
env -i A=1 BB=22 INTERLOPER_OUTPUT="$T/l.jsonl" LD_PRELOAD="$LIB" "$P" env >env.out
bytes=$(awk '{ n += length($0) + 1 } END { print n }' env.out)
assert_eq "$(jget l.jsonl 'r[0]["setup"]["env_bytes"]')" "$bytes" "env_bytes"
assert_eq "$(jget l.jsonl 'r[0]["setup"]["env_vars"]')" "$(wc -l <env.out | tr -d ' ')" "env_vars"
assert_eq "$(jget l.jsonl 'r[0]["setup"]["argv_bytes"]')" "$((${#P} + 1 + 4))" "argv_bytes"

done_testing
