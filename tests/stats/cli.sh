# tests/stats/cli.sh: helpers of the statistics system tests
# (tests/system/stats_*.sh), sourced after tests/lib.sh.  POSIX sh.
#
#   one_line NAME ERE ARGS...  interloper ARGS fails with status 1, exactly
#                              one line on stderr matching ERE, nothing on
#                              stdout
#   js EXPR                    a python expression over the JSON on stdin
#                              (the object is r), printed

one_line() {
	_what=$1 _ere=$2
	shift 2
	sh "$IL" "$@" >"$T/ol.out" 2>"$T/ol.err"
	assert_eq "$?" 1 "$_what: exit status"
	assert_eq "$(wc -l <"$T/ol.err" | tr -d ' ')" 1 "$_what: one line on stderr ($(head -c 300 "$T/ol.err"))"
	assert_match "$(cat "$T/ol.err")" "$_ere" "$_what: message"
	assert_eq "$(cat "$T/ol.out")" "" "$_what: nothing on stdout"
}

js() {
	python3 -c 'import json, sys; r = json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"
}
