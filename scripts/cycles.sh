#!/bin/sh
# cycles.sh: fail on any file-level cycle among object files.  A file uses
# another when it calls or reads a symbol the other defines (nm); the uses
# must form no loop, so that each file can be read, tested and replaced
# after the files it uses.  Prints each loop found and exits 1; exits 0
# when there is none.
#
#   sh scripts/cycles.sh [-x OBJ,OBJ...] OBJ...
#
# -x names objects whose uses of each other are not counted (a known cycle
# being removed; say why where it is given).
set -eu

usage() {
	echo "usage: sh scripts/cycles.sh [-x OBJ,OBJ...] OBJ..." >&2
	exit 1
}

except=
while [ $# -gt 0 ]; do
	case $1 in
	-x)
		[ $# -ge 2 ] || usage
		except=$2
		shift 2
		;;
	--)
		shift
		break
		;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || usage

tmp=$(mktemp -d "${TMPDIR:-/tmp}/il-cycles.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# "D FILE SYM" for each global definition, "U FILE SYM" for each use.
for o in "$@"; do
	nm "$o" | awk -v f="$o" '$1 == "U" { print "U", f, $2 }
		NF == 3 && $2 ~ /^[TDBRCVWGSi]$/ { print "D", f, $3 }'
done >"$tmp/syms"

# One line "USER USED" per edge between two different files, edges among
# the excepted files left out.
awk -v except="$except" '
	BEGIN { n = split(except, x, ","); for (i = 1; i <= n; i++) ex[x[i]] = 1 }
	$1 == "D" { def[$3] = def[$3] " " $2; next }
	{ use[++nu] = $2 " " $3 }
	END {
		for (i = 1; i <= nu; i++) {
			split(use[i], a, " ")
			n = split(def[a[2]], d, " ")
			for (j = 1; j <= n; j++)
				if (d[j] != a[1] && !(ex[a[1]] && ex[d[j]]))
					print a[1], d[j]
		}
	}' "$tmp/syms" | sort -u >"$tmp/edges"

if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/loops"; then
	sed -n 's/^tsort: [^:]*: input contains a loop:$/cycle:/p; s/^tsort: \(.*\.o\)$/  \1/p' \
		"$tmp/loops"
	exit 1
fi
