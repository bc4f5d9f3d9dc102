#!/bin/sh
# install.sh: make install and make uninstall.
#
#   sh scripts/install.sh install   (variables from the Makefile's environment)
#   sh scripts/install.sh uninstall RECEIPT
#
# install copies the pieces and writes a receipt, LIBEXECDIR/installed,
# that lists every file it wrote and every directory it created, by the
# paths they have once installed: with DESTDIR (a staging root, as a
# package build uses) the receipt lists /usr/bin/interloper, not
# DESTDIR/usr/bin/interloper, and the directories of DESTDIR itself are
# not the install's.  The build tree remembers where that receipt is
# (build/last-install), so that a plain `make uninstall` removes what the
# last `make install` installed, whatever PREFIX and DESTDIR it was given,
# and the directories it created.
set -eu

die() {
	echo "interloper install: $*" >&2
	exit 1
}

case ${1:-} in
install)
	: "${BINDIR:?}" "${LIBDIR:?}" "${LIBEXECDIR:?}" "${MANDIR:?}" "${BASHCOMPDIR:?}" "${B:?}"
	D=${DESTDIR:-}
	receipt="$D$LIBEXECDIR/installed"
	list=$(mktemp "${TMPDIR:-/tmp}/interloper-install.XXXXXX")
	trap 'rm -f "$list"' EXIT
	# note KIND PATH: PATH (under DESTDIR) in the receipt, without DESTDIR.
	# Staged, the directories made are the staging tree's (/usr, ...): only
	# interloper's own are the install's.
	note() {
		case $1:${D:+staged}:$2 in
		dir:staged:*/interloper | file:*) echo "$1 ${2#"$D"}" >>"$list" ;;
		dir::*) echo "$1 $2" >>"$list" ;;
		esac
	}
	# mkd DIR: create DIR and its missing parents, noting each one created
	mkd() {
		[ -d "$1" ] && return 0
		mkd "$(dirname "$1")"
		mkdir "$1"
		note dir "$1"
	}
	put() { # put MODE SRC DIR
		mkd "$3"
		install -m "$1" "$2" "$3/"
		note file "$3/$(basename "$2")"
	}
	# a previous receipt at the same place: keep the directories it made
	if [ -f "$receipt" ]; then
		grep '^dir ' "$receipt" >>"$list" || :
	fi
	mkd "$D$BINDIR"
	sed -e "s|^IL_INSTALLED_LIBEXEC=.*|IL_INSTALLED_LIBEXEC=$LIBEXECDIR|" \
		-e "s|^IL_INSTALLED_LIB=.*|IL_INSTALLED_LIB=$LIBDIR/interloper/libinterloper.so|" \
		scripts/interloper >"$D$BINDIR/interloper"
	chmod 755 "$D$BINDIR/interloper"
	note file "$D$BINDIR/interloper"
	put 644 "$LIB" "$D$LIBDIR/interloper"
	for f in $PROGRAMS; do put 755 "$f" "$D$LIBEXECDIR"; done
	for f in $DATA VERSION; do put 644 "$f" "$D$LIBEXECDIR"; done
	for m in $MANPAGES; do put 644 "$m" "$D$MANDIR/man${m##*.}"; done
	# bash-completion finds a command's completion by the command's name
	mkd "$D$BASHCOMPDIR"
	install -m 644 "${COMPLETION:?}" "$D$BASHCOMPDIR/interloper"
	note file "$D$BASHCOMPDIR/interloper"
	note file "$receipt"
	sort -u "$list" >"$receipt"
	chmod 644 "$receipt"
	mkdir -p "$B"
	echo "$receipt" >"$B/last-install"
	;;
uninstall)
	receipt=${2:-}
	[ -n "$receipt" ] || die "no receipt given"
	[ -f "$receipt" ] || die "$receipt: no such receipt; nothing installed there (give the PREFIX and DESTDIR of the install)"
	entries=$(cat "$receipt")
	# The receipt lists itself by its installed path: what precedes that
	# in the path it was found at is the DESTDIR of the install.
	self=$(printf '%s\n' "$entries" | sed -n 's|^file \(.*/installed\)$|\1|p' | head -n 1)
	case $receipt in
	*"$self") D=${receipt%"$self"} ;;
	*) die "$receipt: not a receipt of make install (it does not list itself)" ;;
	esac
	# files first (the receipt among them), then directories, deepest first
	printf '%s\n' "$entries" | sed -n 's/^file //p' | while IFS= read -r f; do rm -f "$D$f"; done
	printf '%s\n' "$entries" | sed -n 's/^dir //p' | awk '{ print length($0) "\t" $0 }' |
		sort -rn | cut -f2- | while IFS= read -r d; do rmdir "$D$d" 2>/dev/null || :; done
	if [ -f "${B:-build}/last-install" ] && [ "$(cat "${B:-build}/last-install")" = "$receipt" ]; then
		rm -f "${B:-build}/last-install"
	fi
	;;
*) die "usage: install.sh install | uninstall RECEIPT" ;;
esac
