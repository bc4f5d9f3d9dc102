#!/bin/sh
# install.sh: make install and make uninstall.
#
#   sh scripts/install.sh install   (variables from the Makefile's environment)
#   sh scripts/install.sh uninstall RECEIPT
#
# install copies the pieces and writes a receipt, LIBEXECDIR/installed,
# that lists every file it wrote and every directory it created; the build
# tree remembers where that receipt is (build/last-install), so that a
# plain `make uninstall` removes what the last `make install` installed,
# whatever PREFIX it was given, and the directories it created.
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
	# mkd DIR: create DIR and its missing parents, noting each one created
	mkd() {
		[ -d "$1" ] && return 0
		mkd "$(dirname "$1")"
		mkdir "$1"
		echo "dir $1" >>"$list"
	}
	put() { # put MODE SRC DIR
		mkd "$3"
		install -m "$1" "$2" "$3/"
		echo "file $3/$(basename "$2")" >>"$list"
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
	echo "file $D$BINDIR/interloper" >>"$list"
	put 644 "$LIB" "$D$LIBDIR/interloper"
	for f in $PROGRAMS; do put 755 "$f" "$D$LIBEXECDIR"; done
	for f in $DATA VERSION; do put 644 "$f" "$D$LIBEXECDIR"; done
	for m in $MANPAGES; do put 644 "$m" "$D$MANDIR/man${m##*.}"; done
	# bash-completion finds a command's completion by the command's name
	mkd "$D$BASHCOMPDIR"
	install -m 644 "${COMPLETION:?}" "$D$BASHCOMPDIR/interloper"
	echo "file $D$BASHCOMPDIR/interloper" >>"$list"
	echo "file $receipt" >>"$list"
	sort -u "$list" >"$receipt"
	chmod 644 "$receipt"
	mkdir -p "$B"
	echo "$receipt" >"$B/last-install"
	;;
uninstall)
	receipt=${2:-}
	[ -n "$receipt" ] || die "no receipt given"
	[ -f "$receipt" ] || die "$receipt: no such receipt; nothing installed there (give the PREFIX and DESTDIR of the install)"
	# files first (the receipt among them), then directories, deepest first
	entries=$(cat "$receipt")
	printf '%s\n' "$entries" | sed -n 's/^file //p' | while IFS= read -r f; do rm -f "$f"; done
	printf '%s\n' "$entries" | sed -n 's/^dir //p' | awk '{ print length($0) "\t" $0 }' |
		sort -rn | cut -f2- | while IFS= read -r d; do rmdir "$d" 2>/dev/null || :; done
	if [ -f "${B:-build}/last-install" ] && [ "$(cat "${B:-build}/last-install")" = "$receipt" ]; then
		rm -f "${B:-build}/last-install"
	fi
	;;
*) die "usage: install.sh install | uninstall RECEIPT" ;;
esac
