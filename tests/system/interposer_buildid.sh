#!/bin/sh
# The record's build_id: the main program's GNU build-id, read from its
# notes in memory (outside15 H2: the records said nothing of which image
# ran).  Programs linked with a known id, with gcc's own and with none;
# an exec chain, each image naming its own; record validate on the field.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1

# bid FILE N: build_id of the Nth record of FILE ("null" where null)
bid() {
	jget "$1" "r[$2].get('build_id', 'absent')"
}

printf 'int main(int c, char **v){(void)v; return c - 1;}\n' >p.c
if cc -Wl,--build-id=0x0123456789abcdef -o known p.c 2>/dev/null &&
	cc -Wl,--build-id=none -o none p.c && cc -Wl,--build-id -o own p.c &&
	cc -no-pie -Wl,--build-id=0xfeedface -o nopie p.c; then
	built=1
else
	built=0
fi

try "a program linked with a known build-id records it"
if [ "$built" = 1 ]; then
	same_as_without r1.jsonl ./known
	assert_eq "$(bid r1.jsonl 0)" 0123456789abcdef "build_id"
	assert_true "records valid" valid r1.jsonl
else
	skip "cc cannot link with -Wl,--build-id here"
fi

try "a non-PIE program's build-id, at its fixed address"
if [ "$built" = 1 ]; then
	same_as_without r2.jsonl ./nopie x y
	assert_eq "$rc" 2 "its status"
	assert_eq "$(bid r2.jsonl 0)" feedface "build_id"
else
	skip "cc cannot link with -Wl,--build-id here"
fi

try "a program without a build-id records null"
if [ "$built" = 1 ]; then
	same_as_without r3.jsonl ./none
	assert_eq "$(bid r3.jsonl 0)" null "build_id (null)"
	assert_true "records valid" valid r3.jsonl
else
	skip "cc cannot link with -Wl,--build-id here"
fi

try "the linker's own build-id is the one readelf prints"
if [ "$built" = 1 ] && command -v readelf >/dev/null 2>&1; then
	same_as_without r4.jsonl ./own
	assert_eq "$(bid r4.jsonl 0)" "$(readelf -n own | sed -n 's/.*Build ID: //p')" "build_id"
	assert_match "$(bid r4.jsonl 0)" '^[0-9a-f]{40}$' "a SHA-1's 40 digits"
else
	skip "cc or readelf missing"
fi

try "an exec chain: each record names its own image"
if [ "$built" = 1 ] && command -v readelf >/dev/null 2>&1; then
	printf '#!/bin/sh\nexec %s/known "$@"\n' "$T" >launch.sh
	chmod +x launch.sh
	same_as_without r5.jsonl ./launch.sh a
	assert_eq "$rc" 1 "the exec'd program's status"
	assert_eq "$(nrec r5.jsonl)" 2 "two records"
	assert_eq "$(jget r5.jsonl 'r[0]["exit"]["how"]')" exec "the first is the shell's exec"
	sh=$(readelf -n "$(readlink -f /bin/sh)" | sed -n 's/.*Build ID: //p')
	assert_eq "$(bid r5.jsonl 0)" "${sh:-null}" "the shell's build_id"
	assert_eq "$(bid r5.jsonl 1)" 0123456789abcdef "the program's build_id"
else
	skip "cc or readelf missing"
fi

try "a program run through the loader names the program, not the loader"
ld=$(ls /lib64/ld-linux-x86-64.so.2 2>/dev/null)
if [ "$built" = 1 ] && [ -n "$ld" ]; then
	same_as_without r6.jsonl "$ld" ./known
	assert_eq "$(bid r6.jsonl 0)" 0123456789abcdef "build_id"
else
	skip "no x86-64 loader to run a program through"
fi

try "a note header outside every loaded segment is not read (the program is not broken)"
# The last PT_NOTE moved past every PT_LOAD: its bytes are not mapped.  A
# check that subtracted its address from a segment's end wrapped around,
# read it, and killed the program with SIGSEGV.
if [ "$built" = 1 ] && command -v python3 >/dev/null 2>&1; then
	python3 - known far <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
phoff = struct.unpack_from('<Q', b, 0x20)[0]
phentsize, phnum = struct.unpack_from('<HH', b, 0x36)
top, notes = 0, []
for i in range(phnum):
    o = phoff + i * phentsize
    t, _, _, va, _, _, msz, _ = struct.unpack_from('<IIQQQQQQ', b, o)
    if t == 1:
        top = max(top, va + msz)
    if t == 4:
        notes.append(o)
struct.pack_into('<Q', b, notes[-1] + 16, top + 0x10000000)
open(sys.argv[2], 'wb').write(b)
PY
	chmod +x far
	same_as_without r7.jsonl ./far
	assert_eq "$rc" 0 "its status"
	assert_eq "$(bid r7.jsonl 0)" null "build_id (null: the note is not mapped)"
else
	skip "cc or python3 missing"
fi

try "record validate: a build_id of hex digits or null, nothing else"
for v in '"0123abcd"' null; do
	printf '{"schema":"interloper/1","version":"0","labels":{},"pid":1,"ppid":1,"argv":[],"build_id":%s,"exit":{"how":"exit"},"backend":"none","events":{}}\n' "$v" >v.jsonl
	assert_true "build_id $v accepted" valid v.jsonl
done
for v in '"0123ABCD"' '"abc"' '""' '"xyz0"' 12; do
	printf '{"schema":"interloper/1","version":"0","labels":{},"pid":1,"ppid":1,"argv":[],"build_id":%s,"exit":{"how":"exit"},"backend":"none","events":{}}\n' "$v" >v.jsonl
	out=$(valid v.jsonl 2>&1)
	assert_eq "$?" 1 "build_id $v refused"
	assert_match "$out" 'build_id' "the message names build_id"
done

done_testing
