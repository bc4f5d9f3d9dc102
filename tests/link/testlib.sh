# tests/link/testlib.sh: helpers for tests/system/link*.sh, sourced after
# tests/lib.sh (which sets TOP, T, IL).  POSIX sh.
#
#   mk TARGET [VAR=VALUE...]   make in $O with tests/link/Makefile
#   il ARGS...                 the front command, run through sh
#   lines FILE                 its number of lines
#   manifest FILE EXPR         a Python expression over the JSON in FILE (m)
#   fails WHAT ERE CMD...      CMD exits 1, prints nothing on stdout and one
#                              line on stderr, "interloper ...: " matching ERE

SRC=$TOP/tests/link
O=$T/obj
mkdir -p "$O"

# Out of tree, with the calling make's settings (make check) kept out.
mk() {
	MAKEFLAGS='' MFLAGS='' MAKELEVEL='' make -s -C "$O" -f "$SRC/Makefile" SRC="$SRC" "$@"
}

il() { sh "$IL" "$@"; }

lines() { wc -l <"$1" | tr -d ' '; }

manifest() {
	python3 - "$1" "$2" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)
PY
}

fails() {
	_what=$1 _ere=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	assert_eq "$?" 1 "$_what: exit status"
	assert_eq "$(lines "$T/err")" 1 "$_what: lines on stderr ($(head -c 300 "$T/err"))"
	assert_match "$(cat "$T/err")" "^interloper [a-z]+: .*$_ere" "$_what: message"
	assert_eq "$(lines "$T/out")" 0 "$_what: nothing on stdout"
}
