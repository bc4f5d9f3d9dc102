#!/bin/sh
# The one option layer (include/il_opt.h): every command and operation
# answers --help; each man page names exactly the options of its command's
# table, in the SYNOPSIS and in the option list; a short letter means one
# thing in every command; the bash completion, generated from the tables,
# completes them.  Issue 15, section 1.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1

# Every command and operation, one a line: "interloper-run", "interloper-record label".
for p in "$B"/libexec/interloper-*; do
	echo "${p##*/}"
	"$p" --list-options | sed -n "s|^+ |${p##*/} |p"
done >cmds

try "every command and operation: --help is its usage, on stdout, status 0"
assert_true "the commands are built" [ "$(wc -l <cmds)" -gt 12 ]
while read -r prog op; do
	# shellcheck disable=SC2086 # op is one word or none
	"$B/libexec/$prog" $op --help >out 2>err
	assert_eq "$?:$(cat err)" "0:" "$prog $op --help: status and stderr"
	assert_match "$(head -n 1 out)" "^usage: interloper ${prog#interloper-}${op:+ $op} " "$prog $op"
	assert_match "$(tail -n 1 out)" "^See interloper-" "$prog $op names its man page"
done <cmds

try "bad usage of an operation is one line naming it, not a file or a label"
"$B/libexec/interloper-record" summary --bogus >out 2>err
assert_eq "$?:$(cat err)" "1:interloper record summary: unknown option --bogus; see interloper record summary --help" \
	"record summary --bogus"
"$B/libexec/interloper-record" label --output >out 2>err
assert_eq "$?:$(cat err)" "1:interloper record label: --output: expected a value, OUT; see interloper record label --help" \
	"record label --output"

try "an option's value is never the -- that ends the options: refused in one line, nothing run (outside12 F10)"
# run -o -- ./prog wrote a file named -- and ran the program unlabelled
"$B/libexec/interloper-run" -e task-clock -o -- /bin/true >out 2>err
assert_eq "$?:$(cat err)" "1:interloper run: -o: expected a value, FILE, found -- (the end of the options); see interloper run --help" "run -o --"
assert_true "no file named --" [ ! -e ./-- ]
"$B/libexec/interloper-run" --output -- /bin/true >out 2>err
assert_match "$?:$(cat err)" "^1:interloper run: --output: expected a value, FILE, found -- " "run --output --"
"$B/libexec/interloper-sweep" --system A=/bin/true --output -- >out 2>err
assert_match "$?:$(cat err)" "^1:interloper sweep: --output: expected a value, FILE, found -- " "sweep"
"$B/libexec/interloper-report" --metric -- x.jsonl >out 2>err
assert_match "$?:$(cat err)" "^1:interloper report: --metric: expected a value, NAME, found -- " "report"
"$B/libexec/interloper-record" label --output -- >out 2>err
assert_match "$?:$(cat err)" "^1:interloper record label: --output: expected a value, OUT, found -- " "an operation"
"$B/libexec/interloper-run" -q -e task-clock --output=-- /bin/true >out 2>err
assert_eq "$?:$(grep -c '"schema"' ./--)" "0:1" "a value written in its option's word is the user's: --output=-- is a file"

try "each man page's SYNOPSIS and option list name exactly its command's options"
python3 - "$B" "$TOP" <<'PY' >mandiff.txt
import os, re, subprocess, sys
B, TOP = sys.argv[1], sys.argv[2]
MACRO = re.compile(r'^[A-Z][a-z][a-z]?$')

def flags(line):
    """The options an mdoc line names with Fl: "Fl \-where" is --where,
    "Fl nq" is -n and -q; "Fl \-" alone (the end of options) is none."""
    words, out, i = line.lstrip('.').split(), [], 0
    while i < len(words):
        if words[i] != 'Fl':
            i += 1
            continue
        i += 1
        while i < len(words) and not MACRO.match(words[i]):
            t = words[i].replace('\\-', '-').replace('\\&', '').rstrip(',;.')
            i += 1
            if t.startswith('-') and len(t) > 1:
                out.append('--' + t[1:].split('=')[0])
            elif re.match(r'^[A-Za-z0-9]+$', t):
                out += ['-' + c for c in t]
    return out

def table(argv):
    text = subprocess.run(argv + ['--list-options'], capture_output=True, text=True,
                          check=True).stdout
    opts = [l.split() for l in text.splitlines()]
    return [(o[0], o[1]) for o in opts if o[0] != '+'], [o[1] for o in opts if o[0] == '+']

for prog in sorted(os.listdir(B + '/libexec')):
    cmd = prog[len('interloper-'):]
    opts, subs = table([B + '/libexec/' + prog])
    for s in subs:  # the operations share their command's page
        opts += table([B + '/libexec/' + prog, s])[0]
    longs = {l for _, l in opts}
    short = {s: l for s, l in opts if s != '-'}
    syn, items, item_flags, sec = set(), set(), set(), None
    for line in open(f'{TOP}/man/interloper-{cmd}.1').read().splitlines():
        if line.startswith('.Sh '):
            sec = line[4:].strip()
        f = flags(line)
        if sec == 'SYNOPSIS':
            syn |= {short.get(t, t) for t in f}
        if line.startswith('.It ') and f:
            items |= {short.get(t, t) for t in f}
            item_flags |= set(f)
    for what, got in (('SYNOPSIS', syn), ('option list', items)):
        if got != longs:
            print(f'{cmd}: {what} lacks {sorted(longs - got)}, has {sorted(got - longs)}')
    for s, l in sorted(short.items()):
        if s not in item_flags:
            print(f'{cmd}: the option list does not give {l} its short form {s}')
PY
assert_eq "$?" 0 "the check ran"
assert_eq "$(cat mandiff.txt)" "" "man pages against the tables"

try "a short option means one thing in every command; -n is --dry-run"
while read -r prog op; do
	# shellcheck disable=SC2086 # op is one word or none
	"$B/libexec/$prog" $op --list-options | awk '$1 != "-" && $1 != "+" { print $1, $2 }'
done <cmds | sort -u >shorts
assert_eq "$(cut -d' ' -f1 shorts | uniq -d | tr '\n' ' ')" "" "letters with two long names"
assert_eq "$(grep -c '^-n ' shorts):$(grep '^-n ' shorts)" "1:-n --dry-run" "-n"
for pair in "-e --events" "-o --output" "-r --reps" "-w --warmup" "-q --quiet" "-h --help"; do
	assert_true "$pair" grep -qx -- "$pair" shorts
done

try "the bash completion, from the tables, completes commands, options and values"
if ! command -v bash >/dev/null; then
	skip "bash is not installed"
else
	# complete WORDS...: the completions of the last word, one a line
	complete_words() {
		bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
			_interloper; printf "%s\n" "${COMPREPLY[@]}"' sh "$B/interloper.bash" "$@"
	}
	assert_eq "$(complete_words interloper sw)" "sweep" "a command"
	assert_eq "$(complete_words interloper run --ev)" "--events" "an option"
	assert_eq "$(complete_words interloper sweep --aslr '' | tr '\n' ' ')" "off on " "a value of a fixed set"
	assert_eq "$(complete_words interloper link -g f)" "function" "by the short option"
	assert_eq "$(complete_words interloper record la)" "label" "an operation"
	assert_eq "$(complete_words interloper record label - | tr '\n' ' ')" "-o --output -h --help " \
		"an operation's options"
	assert_eq "$(complete_words interloper report --js)" "--json" "report"
	sed -n 's/^interloper-\([a-z]*\)$/\1/p' cmds | while read -r c; do
		want=$("$B/libexec/interloper-$c" --list-options | awk '$1 != "+" { if ($1 != "-") print $1; print $2 }' |
			sort | tr '\n' ' ')
		got=$(complete_words interloper "$c" - | sort | tr '\n' ' ')
		assert_eq "$got" "$want" "every option of $c"
	done
fi

done_testing
