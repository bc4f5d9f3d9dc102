#!/bin/sh
# The Debian package (debian/): dpkg-buildpackage -us -uc -b builds it from
# a copy of the tree, lintian finds no error in it, it installs, the
# installed command measures a program, and a purge leaves nothing behind.
# Issue 15, section 6.  Skipped, saying why, where the tools or root are
# missing, or where a package interloper is installed already (it is not
# replaced).
# timeout: 1500
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1

missing=""
for t in dpkg-buildpackage dh lintian dpkg fakeroot flock; do
	command -v "$t" >/dev/null || missing="$missing $t"
done
why=""
if [ -n "$missing" ]; then
	why="not installed:$missing (make test-deps installs them)"
elif [ "$(id -u)" -ne 0 ]; then
	why="installing a package needs root"
elif dpkg-query -W -f '${Status}' interloper 2>/dev/null | grep -q installed; then
	why="a package interloper is installed here already; it is not replaced"
fi

try "the version of the package is the one of VERSION"
assert_eq "$(sed -n '1s/^interloper (\([^)]*\)).*/\1/p' "$TOP/debian/changelog")" "$(cat "$TOP/VERSION")" \
	"debian/changelog against VERSION"

try "dpkg-buildpackage builds it; lintian finds no error"
if [ -n "$why" ]; then
	skip "$why"
else
	mkdir src
	# the tree as git has it (with what is new and not ignored), else all
	# but the build
	if (cd "$TOP" && git ls-files -co --exclude-standard >"$T/files" 2>/dev/null) && [ -s files ]; then
		(cd "$TOP" && tar -cf - -T "$T/files") | (cd src && tar -xf -)
	else
		(cd "$TOP" && tar -cf - --exclude=./build --exclude=./.git .) | (cd src && tar -xf -)
	fi
	(cd src && dpkg-buildpackage -us -uc -b -j2) >build.log 2>&1
	assert_eq "$?" 0 "dpkg-buildpackage ($(tail -n 3 build.log | tr '\n' ' '))"
	deb=
	for f in interloper_*_*.deb; do deb=$T/$f; done
	assert_true "a .deb" [ -f "$deb" ]
	lintian --fail-on error ./*.changes >lintian.log 2>&1
	assert_eq "$?:$(grep '^E:' lintian.log | head -n 3)" "0:" "lintian errors"
	dpkg-deb -c "$deb" | awk '{ print substr($6, 2) }' >contents
	for f in /usr/bin/interloper /usr/lib/interloper/libinterloper.so \
		/usr/libexec/interloper/interloper-run /usr/share/man/man1/interloper-run.1.gz \
		/usr/share/man/man7/libinterloper.7.gz /usr/share/bash-completion/completions/interloper; do
		assert_true "it holds $f" grep -qx "$f" contents
	done
fi

try "installed, it measures a program; purged, nothing of it is left"
if [ -n "$why" ]; then
	skip "$why"
elif [ ! -f "${deb:-}" ]; then
	skip "the package was not built (above)"
else
	# one install at a time on this machine: other trees run this test too
	(
		flock -w 1200 9 || exit 3
		dpkg -i "$deb" >install.log 2>&1 || exit 4
		/usr/bin/interloper run -q -o "$T/r.jsonl" -- /bin/true
		echo "run $?" >steps
		/usr/bin/interloper --lib >>steps
		grep -c "$T\|debian/interloper" /usr/libexec/interloper/installed >>steps
		dpkg --purge interloper >purge.log 2>&1 || exit 5
	) 9>/tmp/interloper-debian-test.lock
	assert_eq "$?" 0 "install, run and purge (3: the lock, 4: dpkg -i, 5: purge)"
	assert_eq "$(tr '\n' ' ' <steps 2>/dev/null)" "run 0 /usr/lib/interloper/libinterloper.so 0 " \
		"status of the run, the library, build paths in the receipt"
	assert_eq "$(nrec "$T/r.jsonl")" 1 "one record"
	assert_true "a valid record" valid "$T/r.jsonl"
	left=$(while read -r f; do
		case $f in
		*/) ;; # directories: /usr/bin and the like are not the package's
		*) [ ! -e "$f" ] || echo "$f" ;;
		esac
	done <contents)
	assert_eq "$left" "" "files left after the purge"
	assert_true "its libexec directory is gone" [ ! -e /usr/libexec/interloper ]
	assert_true "its library directory is gone" [ ! -e /usr/lib/interloper ]
fi

done_testing
