#!/bin/sh
# fork, exec, threads and process trees: perf stat's inheritance by
# default, one record per process image, per-child records on request.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
E="$PROGS/exitpaths"
cd "$T" || exit 1

try "a forked child that never execs writes no record; its work counts in the parent's"
rm -f r.jsonl
same_as_without r.jsonl "$E" fork-noexec
assert_eq "$(nrec r.jsonl)" 1 "records"
tc=$(jget r.jsonl 'r[0]["events"]["task-clock"]["value"]')
# the child spins for 30 ms of CPU time; the parent only waits
assert_true "parent's task-clock ($tc) includes the child's work" [ "$tc" -gt 5000000 ]

for mode in threads none; do
	try "INTERLOPER_INHERIT=$mode: every forked child writes a record of its own"
	rm -f r.jsonl
	INTERLOPER_INHERIT=$mode same_as_without r.jsonl "$E" fork-noexec
	assert_eq "$(nrec r.jsonl)" 2 "records"
	assert_true "valid" valid r.jsonl
	assert_eq "$(jget r.jsonl 'r[0]["ppid"] == r[1]["pid"]')" true "child's ppid is the parent"
	assert_eq "$(jget r.jsonl 'r[0]["events"]["task-clock"]["value"] > 4 * r[1]["events"]["task-clock"]["value"]')" true \
		"the child's work is in its own record, not the parent's"
	assert_eq "$(jget r.jsonl 'r[1]["inherit"]')" "$mode" "inherit mode recorded"
done

try "a waited child's usage is in the record's times under INHERIT=all only, and asked for only then"
# the child of fork-noexec spins for 30 ms of CPU time; the parent waits
for mode in all threads none; do
	rm -f r.jsonl
	INTERLOPER_INHERIT=$mode same_as_without r.jsonl "$E" fork-noexec
	cpu=$(jget r.jsonl '[x["times"]["user_ns"] + x["times"]["sys_ns"] for x in r][-1]')
	if [ "$mode" = all ]; then
		assert_true "all: the parent's user+sys ($cpu ns) holds the child's 30 ms" [ "$cpu" -gt 25000000 ]
	else
		assert_true "$mode: the parent's user+sys ($cpu ns) does not" [ "$cpu" -lt 25000000 ]
	fi
	if command -v strace >/dev/null; then
		# the parent's image, and under threads or none the child's record too
		strace -f -e trace=getrusage -o trace.out env INTERLOPER_INHERIT=$mode INTERLOPER_OUTPUT=/dev/null \
			LD_PRELOAD="$LIB" "$E" fork-noexec >/dev/null 2>&1
		want=0
		[ "$mode" = all ] && want=2
		assert_eq "$(grep -c 'RUSAGE_CHILDREN' trace.out)|$(grep -c 'RUSAGE_SELF' trace.out)" \
			"$want|$([ "$mode" = all ] && echo 2 || echo 4)" "$mode: getrusage of the children, of the process"
	fi
done

try "INHERIT=all: an exec'd child is counted in its parent's record, not by counters of its own"
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" sh -c "$PROGS/probe busy 200 >/dev/null; ls /proc/self/fd >fds" >out
assert_eq "$(jget r.jsonl '[x["argv"][0] for x in r if x.get("counted_in")]')" "[\"$PROGS/probe\", \"ls\"]" "the children"
assert_eq "$(jget r.jsonl '{x["counted_in"] for x in r if x.get("counted_in")} == {x["pid"] for x in r if x["argv"][0] == "sh"}')" true \
	"counted_in is the shell's pid"
assert_eq "$(jget r.jsonl 'all(v["value"] is None and "counted in the record of process" in v["error"] for x in r if x.get("counted_in") for v in x["events"].values())')" true \
	"the child's events say where they are counted"
assert_eq "$(jget r.jsonl '[x for x in r if x["argv"][0] == "sh"][0]["events"]["task-clock"]["value"] > 190000000')" true \
	"the shell's record holds the child's 200 ms"
ls /proc/self/fd >fds0
assert_eq "$(sort fds | tr '\n' ' ')" "$(sort fds0 | tr '\n' ' ')" "the child sees no descriptor of the library's"

# Under a descriptor limit below 1024 the marker goes just under it, where
# the new image looks only once it knows the limit (counted.c); 198e5c5's
# library handed none there: each child counted itself, and both records
# said others_measured, with a line on stderr per child.
for lim in 1000 100; do
	try "ulimit -n $lim, INHERIT=all: an exec'd child is still counted in its parent's record"
	rm -f r.jsonl
	(
		# shellcheck disable=SC3045
		ulimit -n "$lim"
		ls /proc/self/fd >fds0
		exec env INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" sh -c "$PROGS/probe busy 20 >/dev/null; ls /proc/self/fd >fds"
	) >out 2>err
	assert_eq "$(nrec r.jsonl)" 3 "records"
	assert_eq "$(jget r.jsonl 'sorted(x["argv"][0] for x in r if x.get("counted_in"))')" \
		"[\"$PROGS/probe\", \"ls\"]" "the children counted in"
	assert_eq "$(jget r.jsonl '{x["counted_in"] for x in r if x.get("counted_in")} == {x["pid"] for x in r if x["argv"][0] == "sh"}')" true \
		"counted_in is the shell's pid"
	assert_eq "$(jget r.jsonl 'all(v["value"] is None and "counted in the record of process" in v["error"] for x in r if x["argv"][0] != "sh" for v in x["events"].values())')" true \
		"the children's events say where they are counted"
	assert_eq "$(jget r.jsonl '[x.get("others_measured") for x in r if x["argv"][0] == "sh"]')" "[false]" \
		"the shell's record: no other measured program"
	assert_eq "$(cat err)" "" "stderr"
	assert_eq "$(sort fds | tr '\n' ' ')" "$(sort fds0 | tr '\n' ' ')" "the child sees no descriptor of the library's"
done

# fdlists: fdlist-static and fdlist-dynamic, which print how many
# descriptors they see; 1 (and nothing built) where no static program can
# be linked (libc.a missing)
fdlists() {
	[ -x fdlist-static ] && return 0
	printf 'int main(void){return 0;}\n' | cc -static -x c -o static - 2>/dev/null || return 1
	cat >fdlist.c <<'EOF2'
#include <dirent.h>
#include <stdio.h>
int main(void) { DIR *d = opendir("/proc/self/fd"); struct dirent *e; int n = 0;
	while ((e = readdir(d))) n += e->d_name[0] != '.'; printf("%d\n", n - 1); return 0; }
EOF2
	cc -static -o fdlist-static fdlist.c && cc -o fdlist-dynamic fdlist.c
}

try "the marker never reaches a program that does not load the library"
if ! fdlists; then
	skip "cannot link a static program here (libc.a missing)"
else
	rm -f r.jsonl
	INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" sh -c './fdlist-static; ./fdlist-dynamic; env -u LD_PRELOAD ./fdlist-dynamic' >counts
	./fdlist-dynamic >count0
	n0=$(cat count0)
	assert_eq "$(tr '\n' ' ' <counts)" "$n0 $n0 $n0 " "descriptors seen: static, dynamic (counted), dynamic without the library"
	# outside13 F13: the measured process itself execs a program that
	# does not load the library: its record is the last, and says so
	rm -f r.jsonl
	INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" sh -c 'exec ./fdlist-static' >out 2>err
	assert_eq "$?:$(cat out)" "0:$n0" "the static program runs as without the library"
	assert_match "$(cat err)" "^interloper: exec of \./fdlist-static: the new image is not measured: it does not load the library \(a static program" \
		"an exec of a static program is said"
	assert_match "$(jget r.jsonl 'r[-1]["errors"]')" "exec of ./fdlist-static: the new image is not measured" "and in the last record"
fi

try "an exec the library cannot follow (env -i) is said, in the record and on stderr (outside13 F13)"
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" env -i /bin/true >out 2>err
assert_eq "$?" 0 "status"
assert_eq "$(nrec r.jsonl)" 1 "one record: env's"
assert_eq "$(jget r.jsonl 'r[0]["exit"]["how"]')" "exec" "it ends at the exec"
assert_match "$(jget r.jsonl 'r[0]["errors"][0]')" "^exec of /bin/true: the new image is not measured: its environment has no LD_PRELOAD naming the library .*; this record, ending at the exec, is the last of the process$" "the record says why"
assert_eq "$(grep -c '^interloper: exec of /bin/true: the new image is not measured' err)" 1 "one line on stderr"
rm -f r.jsonl
INTERLOPER_QUIET=1 INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" env -i /bin/true >out 2>err
assert_eq "$(cat err)" "" "INTERLOPER_QUIET: the line is silenced; the record keeps it"
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" env A=1 /bin/true >out 2>err
assert_eq "$(nrec r.jsonl):$(cat err)" "2:" "an exec the library follows: two records, nothing said"
# review13d M3: what cannot be known is not said: a script whose
# interpreter is not there fails to exec (ENOENT), and the image goes on
printf '#!/nonexistent/interp\n' >badint.sh
chmod +x badint.sh
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" sh -c 'exec ./badint.sh' >out 2>err
assert_eq "$(grep -c 'not measured' err)" 0 "no line for an exec that fails ($(cat err))"
assert_eq "$(jget r.jsonl '[e for x in r for e in x.get("errors", []) if "not measured" in e]')" "[]" "no note in a record"
# nor with an environment without LD_PRELOAD (env -i), whose line was said
rm -f r.jsonl
INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" env -i ./badint.sh >out 2>err
assert_eq "$(grep -c 'not measured' err)" 0 "env -i: no line for an exec that fails ($(cat err))"
assert_eq "$(jget r.jsonl '[e for x in r for e in x.get("errors", []) if "not measured" in e]')" "[]" "env -i: no note in a record"
assert_eq "$(jget r.jsonl '[x.get("supersedes_exec") for x in r]')" '[null, true]' "env -i: env's record supersedes its exec record"

try "no symbol is bound for the library while it counts (fork, exec, exit)"
rm -f r.jsonl
LD_DEBUG=bindings INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" "$E" fork-exec /bin/true >dbg 2>&1
pp=$(jget r.jsonl '[x["pid"] for x in r if x["argv"][0].endswith("exitpaths")][0]')
# the parent's bindings made by the library after main began (the line
# "mode fork-exec"); the child's new image binds before its own main
late=$(awk -v pp="$pp:" 'f && $1 == pp && /binding file [^ ]*libinterloper/ { print } /^mode fork-exec/ { f = 1 }' dbg)
assert_eq "$late" "" "bindings for the library after main"
assert_true "the debug output shows the library's bindings before main" grep -q "binding file [^ ]*libinterloper" dbg

try "a child that execs is a new image with its own record"
rm -f r.jsonl
same_as_without r.jsonl "$E" fork-exec /bin/true
assert_eq "$(nrec r.jsonl)" 2 "records"
assert_eq "$(jget r.jsonl 'sorted(x["argv"][0] for x in r)')" "[\"/bin/true\", \"$E\"]" "images"

try "a vfork child that execs: the parent's counters are untouched"
rm -f r.jsonl
same_as_without r.jsonl "$E" vfork-exec /bin/true
assert_eq "$(nrec r.jsonl)" 2 "records"
assert_eq "$(jget r.jsonl '[x["exit"]["how"] for x in r]')" '["return", "return"]' "both end normally"

try "a vfork child that _exits: no record of its own; its work in the parent's under all only"
# libinterloper(7): a vfork child shares the parent's memory, so it never
# measures itself; until its exec or _exit the kernel counts it into the
# parent's counters under INHERIT=all, and nobody's under threads or none.
for mode in all threads none; do
	rm -f r.jsonl
	INTERLOPER_INHERIT=$mode
	export INTERLOPER_INHERIT
	same_as_without r.jsonl "$E" vfork-spin
	assert_match "$(cat "$T/out")" "^child status 5$" "$mode: the child's status"
	assert_eq "$(nrec r.jsonl)" 1 "$mode: records (the parent's)"
	tc=$(jget r.jsonl 'r[0]["events"]["task-clock"]["value"]')
	if [ "$mode" = all ]; then
		assert_true "all: the parent's task-clock ($tc ns) holds the child's 30 ms" [ "$tc" -gt 25000000 ]
	else
		assert_true "$mode: the parent's task-clock ($tc ns) does not" [ "$tc" -lt 25000000 ]
	fi
done
unset INTERLOPER_INHERIT

try "threads inherit the counters"
rm -f r.jsonl
same_as_without r.jsonl "$E" threads-busy 2
tc=$(jget r.jsonl 'r[0]["events"]["task-clock"]["value"]')
# two threads, 50 ms of CPU each: the record holds both
assert_true "task-clock ($tc) holds both threads' 100 ms" [ "$tc" -gt 90000000 ]

# chain13: glibc's system and posix_spawn exec their child past the exec
# hooks, and under INHERIT=all the child, counted by the parent's
# counters, counted itself too: its record was a run of its own.  Their
# hooks hand it the marker of a counted child (counted.c, il_counted_spawn).
try "INHERIT=all: a child of system(), posix_spawn, posix_spawnp or popen is counted in its parent's record, as an exec'd child is"
work="$PROGS/probe busy 50 >/dev/null"
for mode in system spawn spawnp popen; do
	rm -f r.jsonl
	case $mode in
	system | popen) same_as_without r.jsonl "$E" $mode "$work" ;;
	spawn) same_as_without r.jsonl "$E" spawn /bin/sh -c "$work" ;;
	spawnp) PATH="/bin:$PATH" same_as_without r.jsonl "$E" spawnp sh -c "$work" ;;
	esac
	assert_match "$(cat "$T/out")" "^mode $mode
$mode (0|ok) errno 1234( status 0)?$" "$mode: what it returned, errno and the child's status, as without the library"
	assert_true "$mode: valid" valid r.jsonl
	assert_eq "$(jget r.jsonl 'sorted((x["argv"][0].rsplit("/", 1)[-1], x.get("counted_in") == [y["pid"] for y in r if y["argv"][0].endswith("exitpaths")][0]) for x in r)')" \
		'[["exitpaths", false], ["probe", true], ["sh", true]]' "$mode: the shell and its child are counted in the parent's record"
	assert_eq "$(jget r.jsonl 'all(v["value"] is None and "counted in the record of process" in v["error"] for x in r if x.get("counted_in") for v in x["events"].values())')" true \
		"$mode: the children's events say where they are counted"
	tc=$(jget r.jsonl '[x for x in r if x["argv"][0].endswith("exitpaths")][0]["events"]["task-clock"]["value"]')
	assert_true "$mode: the parent's task-clock ($tc ns) holds the child's 50 ms" [ "$tc" -gt 45000000 ]
done
rm -f r.jsonl
INTERLOPER_INHERIT=threads same_as_without r.jsonl "$E" system "$work"
assert_eq "$(jget r.jsonl '[x.get("counted_in") for x in r]')" '[null, null, null]' "INHERIT=threads: every image counts itself"

try "a spawn in a signal handler during system(): the parent's counters survive (review14d M1)"
rm -f r.jsonl
INTERLOPER_INHERIT=all same_as_without r.jsonl "$E" system-nested "sleep 1"
assert_eq "$(jget r.jsonl '[x["events"]["task-clock"]["value"] is not None for x in r if x["argv"][0].endswith("exitpaths")]')" '[true]' \
	"the parent's task-clock has a value (it lost every value: the handler's spawn put the counter over the marker)"

try "system() in a process of two threads: the child counts itself, as before (the marker only where no other thread can make a child meanwhile)"
rm -f r.jsonl
same_as_without r.jsonl "$E" system-threaded "$PROGS/probe busy 20 >/dev/null"
assert_eq "$(jget r.jsonl '[(x["argv"][0].rsplit("/", 1)[-1], x.get("counted_in") is not None, x["events"]["task-clock"]["value"] is not None) for x in r if not x["argv"][0].endswith("exitpaths")]')" \
	'[["probe", true, false], ["sh", false, true]]' "the shell counts itself; its own child is counted in its record"

try "a spawn's marker reaches neither a program that does not load the library nor the parent after it"
if ! fdlists; then
	skip "cannot link a static program here (libc.a missing)"
else
	for prog in fdlist-static fdlist-dynamic; do
		rm -f r.jsonl
		same_as_without r.jsonl "$E" spawn "./$prog"
		assert_match "$(cat "$T/out")" "^mode spawn
[0-9]+
spawn 0 errno 1234 status 0$" "$prog: the descriptors it sees, as without the library"
		rm -f r.jsonl
		same_as_without r.jsonl "$E" system "./$prog"
		rm -f r.jsonl
		same_as_without r.jsonl "$E" popen "./$prog"
	done
	if command -v strace >/dev/null; then
		rm -f r.jsonl
		INTERLOPER_OUTPUT=r.jsonl strace -o st -E LD_PRELOAD="$LIB" "$E" system ./fdlist-dynamic >out 2>&1
		# the parent's own calls: the marker at the top for the spawn, the
		# counter that was there put back (close-on-exec), its copy closed
		pp=$(jget r.jsonl '[x["pid"] for x in r if x["argv"][0].endswith("exitpaths")][0]')
		top=$(sed -n 's/^dup3(\([0-9]*\), \([0-9]*\), 0) *= \2$/\2/p' st | head -1)
		assert_match "$top" "^[0-9]+$" "the marker went to the top ($top)"
		assert_eq "$(sed -n "s/^dup3(\([0-9]*\), $top, O_CLOEXEC) *= $top\$/back/p" st)" back "the counter was put back at the top"
		assert_eq "$(jget r.jsonl '[x for x in r if x["pid"] == '"$pp"'][0]["events"]["task-clock"]["value"] > 0')" true "and counted on"
	fi
fi

try "a relative path spawned after a change of directory (a file action): no marker reaches it"
# review14d L1: the parent judged ./fdlist in its own directory (one that
# loads the library), and the marker reached the static ./fdlist of the
# directory the file action changed to
if ! fdlists; then
	skip "cannot link a static program here (libc.a missing)"
else
	mkdir -p cd && cp fdlist-static cd/fdlist && cp fdlist-dynamic fdlist
	rm -f r.jsonl
	same_as_without r.jsonl "$E" spawn-chdir cd ./fdlist
	assert_match "$(cat "$T/out")" "^[0-9]+
spawn-chdir 0 status 0$" "the descriptors the static program sees, as without the library"
	# review15a LOW: posix_spawnp, PATH=.:ABS, the file absent from the
	# parent's directory: the parent found ABS/fdlist (dynamic, absolute),
	# the child, after the change of directory, the static ./fdlist there
	mkdir -p abs && cp fdlist-dynamic abs/fdlist && rm -f fdlist
	for path in ".:$T/abs" ":$T/abs"; do
		rm -f r.jsonl
		PATH="$path:$PATH" same_as_without r.jsonl "$E" spawnp-chdir "$T/cd" fdlist
		assert_match "$(cat "$T/out")" "^[0-9]+
spawnp-chdir 0 status 0$" "posix_spawnp through PATH=$path: the descriptors the static program sees, as without the library"
	done
	rm -f r.jsonl
	PATH="$T/abs:.:$PATH" same_as_without r.jsonl "$E" spawnp-chdir "$T/cd" fdlist
	assert_eq "$(nrec r.jsonl)" 1 \
		"posix_spawnp through PATH=ABS:.: the dynamic ABS/fdlist has the marker still (counted in its parent's record, none of its own)"
fi

try "no symbol is bound for the library while it counts (system, posix_spawn, popen)"
for mode in system spawn popen; do
	rm -f r.jsonl
	LD_DEBUG=bindings INTERLOPER_OUTPUT=r.jsonl LD_PRELOAD="$LIB" "$E" $mode /bin/true >dbg 2>&1
	pp=$(jget r.jsonl '[x["pid"] for x in r if x["argv"][0].endswith("exitpaths")][0]')
	late=$(awk -v pp="$pp:" -v m="^mode $mode" 'f && $1 == pp && /binding file [^ ]*libinterloper/ { print } $0 ~ m { f = 1 }' dbg)
	assert_eq "$late" "" "$mode: bindings for the library after main"
done

try "a shell pipeline: one record per exec'd image, none for forked shells"
rm -f r.jsonl
same_as_without r.jsonl sh -c 'echo a | cat; ls / >/dev/null; exit 3'
assert_true "valid" valid r.jsonl
assert_eq "$(jget r.jsonl 'sorted(x["argv"][0] for x in r)')" '["cat", "ls", "sh"]' "images"
assert_eq "$(jget r.jsonl '[x["exit"]["status"] for x in r if x["argv"][0] == "sh"]')" '[3]' "sh's status"

done_testing
