#!/bin/sh
# Under AT_SECURE (a set-user-ID program) the library ignores the
# variables and stands aside: another user's variables must not steer
# where a privileged program writes.  ld.so preloads a library into such a
# program only from a system directory and only if it is set-user-ID, as
# /etc/ld.so.preload would; in a private mount namespace, a set-user-ID
# copy of the library is bind-mounted over a rarely used system library.
# On a glibc whose internals it has not been checked against, it stands
# aside the same way, and says so.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

try "AT_SECURE: the library is loaded, counts nothing and writes nothing"
SYS=/lib/x86_64-linux-gnu/libBrokenLocale.so.1
# a second one stands in for a library whose constructor runs before ours
SYS2=/lib/x86_64-linux-gnu/libanl.so.1
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null || ! command -v setpriv >/dev/null ||
	[ ! -f "$SYS" ] || [ ! -f "$SYS2" ] || [ ! -d /mnt ]; then
	skip "needs root, unshare, setpriv, /mnt, and $SYS and $SYS2 to stand in for system libraries"
else
	cp "$LIB" "$T/lib.so"
	cp "$PROGS/probe" "$T/probe-suid"
	cp "$PROGS/libearly.so" "$T/early.so"
	# nobody cannot reach $T (mode 0700): a tmpfs of the namespace's own,
	# on /mnt, holds what it must reach, and goes with the namespace
	unshare -m sh -s "$T" "$SYS" "$SYS2" <<'END' >"$T/out" 2>"$T/err"
set -u
T=$1 SYS=$2 SYS2=$3 M=/mnt
mount -t tmpfs -o mode=755 tmpfs "$M" || exit 3
cp "$T/lib.so" "$T/probe-suid" "$T/early.so" "$M/" &&
	chmod 4755 "$M/lib.so" "$M/probe-suid" "$M/early.so"
mkdir "$M/w" && chmod 1777 "$M/w"
mount --bind "$M/lib.so" "$SYS" || exit 3
mount --bind "$M/early.so" "$SYS2" || exit 3
cd "$M/w" || exit 3
# as nobody, ending in an earlier library's constructor, before ours ran:
# still nothing written (review R1, F4)
for mode in exit _exit; do
	setpriv --reuid=65534 --regid=65534 --clear-groups env EARLY_MODE=$mode \
		INTERLOPER_OUTPUT="$M/w/early-$mode.jsonl" \
		LD_PRELOAD="libBrokenLocale.so.1 libanl.so.1" "$M/probe-suid" hello >/dev/null 2>&1
	echo "early $mode $?" >>"$T/early"
done
# as root the program is not secure: the library records it (the check works)
INTERLOPER_OUTPUT="$M/w/root.jsonl" LD_PRELOAD=libBrokenLocale.so.1 "$M/probe-suid" hello >/dev/null
# as nobody it is: nothing may be written, wherever the variables say
setpriv --reuid=65534 --regid=65534 --clear-groups env INTERLOPER_OUTPUT="$M/w/nobody.jsonl" \
	LD_PRELOAD=libBrokenLocale.so.1 "$M/probe-suid" busy 400 >/dev/null &
pid=$!
# its maps once ld.so has loaded the preload, or once it has ended (a
# zombie's maps are empty): a sleep of 0.2 s was the wait, and on a loaded
# machine setpriv and env had not yet exec'd the program by then
state() { sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null; }
i=0
until grep -q libBrokenLocale "/proc/$pid/maps" 2>/dev/null || [ "$(state $pid)" = Z ] ||
	[ -z "$(state $pid)" ] || [ $i -ge 6000 ]; do
	sleep 0.01
	i=$((i + 1))
done
grep -c libBrokenLocale "/proc/$pid/maps" >"$T/mapped"
wait $pid
echo "status $?"
find "$M/w" -type f >"$T/written"
umount "$SYS2"
umount "$SYS"
umount "$M"
END
	assert_eq "$(tail -n 1 "$T/out")" "status 0" "the set-user-ID program ran as nobody ($(head -n 2 "$T/err"))"
	assert_ne "$(cat "$T/mapped" 2>/dev/null || echo 0)" 0 "the library was loaded into it"
	assert_eq "$(tr '\n' ' ' <"$T/early" 2>/dev/null)" "early exit 7 early _exit 8 " \
		"the set-user-ID program ended in an earlier constructor"
	assert_eq "$(tr '\n' ' ' <"$T/written")" "/mnt/w/root.jsonl " \
		"written: a record when not secure, nothing under AT_SECURE, even before our constructor"
fi

try "a program with file capabilities exec'd by a counted process gets no descriptor of ours"
# exec'd by nobody it is AT_SECURE without a set-user-ID bit; ld.so skips
# a preload given by path there, so the counted-child memfd handed to it
# would stay open in the program (review R1, F7)
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null || ! command -v setpriv >/dev/null ||
	! command -v setcap >/dev/null || [ ! -d /mnt ]; then
	skip "needs root, unshare, setpriv, setcap and /mnt"
else
	unshare -m sh -s "$T" "$LIB" <<'END' >"$T/cap.out" 2>"$T/cap.err"
set -u
T=$1 LIB=$2 M=/mnt
mount -t tmpfs -o mode=755 tmpfs "$M" || exit 3
cp "$LIB" "$M/libinterloper.so" && cp /bin/ls "$M/ls-cap" && setcap cap_net_raw+ep "$M/ls-cap" || exit 3
mkdir "$M/w" && chmod 1777 "$M/w"
cd "$M/w" || exit 3
# shellcheck disable=SC2016 # expanded by the inner sh
setpriv --reuid=65534 --regid=65534 --clear-groups env LD_PRELOAD="$M/libinterloper.so" \
	INTERLOPER_OUTPUT="$M/w/r.jsonl" sh -c '"$1" -l /proc/self/fd; echo "status $?"' sh "$M/ls-cap" \
	</dev/null
cd / && umount "$M"
END
	assert_eq "$(tail -n 1 "$T/cap.out")" "status 0" "the program ran ($(head -n 2 "$T/cap.err"))"
	# the library's descriptors by name, past the program's own output files
	# in $T, whose path may hold "interloper" too (a TMPDIR in a clone of
	# that name: 2 such lines, and the case failed)
	assert_eq "$(grep -vF -- "-> $T/" "$T/cap.out" | grep -c interloper)" 0 "descriptors of the library in it"
fi

try "a program that gains file capabilities: refused by the driver, said by the library at an exec, measured where it gains none"
# outside14 H1: run by a user other than root it is AT_SECURE, and ld.so
# ignores LD_PRELOAD: no record, no word; an exec of it ended the
# measurement in silence
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null || ! command -v setpriv >/dev/null ||
	! command -v setcap >/dev/null || [ ! -d /mnt ]; then
	skip "needs root, unshare, setpriv, setcap and /mnt"
else
	unshare -m sh -s "$T" "$LIB" "$IL" "$TOP" <<'END' >"$T/fc.out" 2>"$T/fc.err"
set -u
T=$1 LIB=$2 IL=$3 TOP=$4 M=/mnt
mount -t tmpfs -o mode=755 tmpfs "$M" || exit 3
# the tree, where nobody can reach it whatever the modes of the
# directories above it (a clone in a mktemp -d directory is 0700)
mkdir "$M/top" && mount --bind "$TOP" "$M/top" || exit 3
IL=$M/top/${IL#"$TOP"/}
cp "$LIB" "$M/libinterloper.so" && cp /bin/true "$M/t-ep" && cp /bin/true "$M/t-p" &&
	setcap cap_net_raw+ep "$M/t-ep" && setcap cap_net_raw+p "$M/t-p" || exit 3
mkdir "$M/w" && chmod 1777 "$M/w"
cd "$M/w" || exit 3
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
for f in t-ep t-p; do
	nobody env LD_PRELOAD="$M/libinterloper.so" INTERLOPER_OUTPUT="$M/w/$f.jsonl" sh -c "exec $M/$f" 2>>"$M/w/$f.err"
	echo "$f $? $(wc -l <"$M/w/$f.jsonl") $(grep -c 'gains file capabilities' "$M/w/$f.jsonl") $(grep -c 'gains file capabilities' "$M/w/$f.err")"
done
# no_new_privs: it gains nothing, is not secure, and is measured
nobody --no-new-privs env LD_PRELOAD="$M/libinterloper.so" INTERLOPER_OUTPUT="$M/w/nnp.jsonl" sh -c "exec $M/t-p" 2>"$M/w/nnp.err"
echo "nnp $? $(wc -l <"$M/w/nnp.jsonl") $(grep -c 'not measured' "$M/w/nnp.jsonl") $(wc -c <"$M/w/nnp.err")"
# root gains none either
env LD_PRELOAD="$M/libinterloper.so" INTERLOPER_OUTPUT="$M/w/root.jsonl" sh -c "exec $M/t-ep" 2>"$M/w/root.err"
echo "root $? $(wc -l <"$M/w/root.jsonl") $(grep -c 'not measured' "$M/w/root.jsonl") $(wc -c <"$M/w/root.err")"
nobody env TMPDIR="$M/w" "$IL" run -q -e task-clock -o "$M/w/d.jsonl" -- "$M/t-ep" 2>"$M/w/d.err"
echo "driver $? $(cat "$M/w/d.err")"
# set-user-ID root, run by nobody: secure; on a nosuid mount neither it nor
# the capabilities count: measured, and nothing false is said
cp /bin/true "$M/t-su" && chmod 4755 "$M/t-su" && mkdir "$M/ns" &&
	mount -t tmpfs -o mode=755,nosuid tmpfs "$M/ns" && cp -p "$M/t-su" "$M/ns/" &&
	cp "$M/t-ep" "$M/ns/" && setcap cap_net_raw+ep "$M/ns/t-ep" || exit 3
for f in t-su ns/t-su ns/t-ep; do
	o=$M/w/$(echo "$f" | tr / _)
	nobody env LD_PRELOAD="$M/libinterloper.so" INTERLOPER_OUTPUT="$o.jsonl" sh -c "exec $M/$f" 2>"$o.err"
	echo "$f $? $(wc -l <"$o.jsonl") $(grep -c "not measured" "$o.jsonl") $(grep -c "not measured" "$o.err")"
done
umount "$M/ns"
# a script's own capabilities are ignored (its interpreter's count), and a
# capability the bounding set lacks fails the exec: no refusal, no note
# (review14a M1, M2)
printf '#!/bin/sh\necho script\n' >"$M/s-ep" && chmod 755 "$M/s-ep" && setcap cap_net_raw+ep "$M/s-ep" &&
	cp /bin/true "$M/t-adm" && setcap cap_sys_admin+ep "$M/t-adm" || exit 3
nobody env TMPDIR="$M/w" "$IL" run -q -e task-clock -o "$M/w/s.jsonl" -- "$M/s-ep" >"$M/w/s.out" 2>"$M/w/s.err"
echo "script $? $(wc -l <"$M/w/s.jsonl") $(wc -c <"$M/w/s.err")"
nobody --bounding-set -sys_admin env LD_PRELOAD="$M/libinterloper.so" INTERLOPER_OUTPUT="$M/w/adm.jsonl" \
	sh -c "exec $M/t-adm" 2>"$M/w/adm.err"
echo "eperm $? $(grep -c 'not measured' "$M/w/adm.jsonl") $(grep -c 'not measured' "$M/w/adm.err")"
cd / && umount "$M/top" && umount "$M"
END
	assert_eq "$(sed -n 1,4p "$T/fc.out" | tr '\n' ' ')" "t-ep 0 1 1 1 t-p 0 1 1 1 nnp 0 2 0 0 root 0 2 0 0 " \
		"the exec's record says it is the last, and a line says it, for nobody only ($(head -n 2 "$T/fc.err"))"
	assert_eq "$(sed -n 5p "$T/fc.out")" "driver 1 interloper: LD_PRELOAD cannot apply to /mnt/t-ep (it gains file capabilities, and ld.so then ignores LD_PRELOAD)" \
		"interloper run refuses it before it runs, in one line"
	assert_eq "$(sed -n 6,8p "$T/fc.out" | tr '\n' ' ')" "t-su 0 1 1 1 ns/t-su 0 2 0 0 ns/t-ep 0 2 0 0 " \
		"set-user-ID root run by nobody: said; on a nosuid mount: measured, nothing said"
	assert_eq "$(sed -n 9,10p "$T/fc.out" | tr '\n' ' ')" "script 0 1 0 eperm 126 0 0 " \
		"a script with capabilities is measured; an exec that fails for a capability the bounding set lacks is not said to be secure"
fi

try "a glibc the library does not support: one line, then it stands aside; the program is unharmed"
# the tests' variant of the library takes IL_TEST_GLIBC as the C library's
# version (interposer/testdelay.c); this glibc is a supported one
rm -f "$T/g.jsonl" "$T/g0.jsonl"
IL_TEST_GLIBC=2.99 INTERLOPER_OUTPUT="$T/g.jsonl" LD_PRELOAD="$B/tests/libinterloper-delay.so" \
	sh -c 'echo out; exit 3' >"$T/g.out" 2>"$T/g.err"
assert_eq "$?" 3 "the program's status"
assert_eq "$(cat "$T/g.out")" out "its output"
assert_eq "$(cat "$T/g.err")" "interloper: glibc 2.99 is not one the library supports (2.34 to 2.42: it leans on their exit and stdio internals); it stands aside: nothing is measured, no record is written" "the one line"
assert_true "no record" [ ! -e "$T/g.jsonl" ]
IL_TEST_GLIBC=2.99 INTERLOPER_QUIET=1 INTERLOPER_OUTPUT="$T/g.jsonl" LD_PRELOAD="$B/tests/libinterloper-delay.so" \
	sh -c 'echo out; exit 3' >"$T/g.out" 2>"$T/g.err"
assert_eq "$?:$(cat "$T/g.out"):$(grep -c 'is not one the library supports' "$T/g.err")" "3:out:1" \
	"INTERLOPER_QUIET=1: the same, and said all the same: no record says why (fix12)"
IL_TEST_GLIBC=2.99 INTERLOPER_QUIET=1 INTERLOPER_STRICT=1 INTERLOPER_OUTPUT="$T/g.jsonl" \
	LD_PRELOAD="$B/tests/libinterloper-delay.so" sh -c 'echo out; exit 3' >"$T/g.out" 2>"$T/g.err"
assert_eq "$?:$(cat "$T/g.out"):$(grep -c 'is not one the library supports' "$T/g.err")" "3:out:1" \
	"and INTERLOPER_STRICT=1 (a strict measurement left undone): said all the same (review11c)"
INTERLOPER_OUTPUT="$T/g0.jsonl" LD_PRELOAD="$B/tests/libinterloper-delay.so" /bin/true 2>"$T/g0.err"
assert_eq "$(nrec "$T/g0.jsonl"):$(wc -c <"$T/g0.err" | tr -d ' ')" "1:0" "this glibc ($(ldd --version | head -n 1 | sed 's/.* //')): a record, nothing said"

done_testing
