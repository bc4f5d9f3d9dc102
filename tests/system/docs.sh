#!/bin/sh
# The documents as users read them (doc tests).
#
# Every shell block of README.md runs as written.  A shell block is a
# fenced block opened by ```sh (indented or not).  The blocks run in the
# README's order, in one sh -e session, as a reader types them one after
# the other: it starts at the top of a fresh copy of the tree (the files
# git knows, with this build's build/ beside them, so that the README's
# `make` finds nothing to do), with HOME and TMPDIR in this test's own
# directory and PATH as the caller's (the README puts interloper on it
# itself).  A block that cannot run on a test machine (a Slurm cluster,
# SPEC, a hardware PMU) says so in its first line, visibly:
#     # not run by the doc tests: REASON
# and is listed here as a skip with REASON, never as a pass.  A block
# fails when a command of it fails; the blocks after it are not reached
# and fail too (they may need what it made).
#
# No command may hide outside a shell block: a line starting with "$ "
# (a prompt) in another block, or an indented one outside any block,
# would be a command nobody runs.
#
# And no document shows a path of a development machine (/work/...,
# /root/..., /home/..., /tmp/NAME...): README.md, DESIGN.md, doc/, man/
# and demo/results/.
# timeout: 900
# isolate: net
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"

README=${IL_DOCS_README:-$TOP/README.md}

# ---------------------------------------------------------------- the blocks
# blocks.py README DIR: one file DIR/N.sh per shell block (the body, its
# fence's indentation taken off), DIR/N.line (its line in the README),
# DIR/N.skip (the reason, when its first line says it is not run); the
# lines of prompts outside shell blocks on stdout.
cat >"$T/blocks.py" <<'PY'
import os, re, sys
lines = open(sys.argv[1]).read().split("\n")
out = sys.argv[2]
n, i, fence = 0, 0, None
skip_re = re.compile(r"#\s*not run by the doc tests:\s*(.*\S)")
while i < len(lines):
    line = lines[i]
    m = re.match(r"^( *)(```+|~~~+)\s*(\S*)", line)
    if not m:
        if re.match(r"^\s+\$ \S", line):
            print("line %d: %s" % (i + 1, line.strip()))
        i += 1
        continue
    indent, mark, lang = len(m.group(1)), m.group(2), m.group(3)
    body = []
    start = i + 1
    i += 1
    while i < len(lines) and not re.match(r"^ *" + re.escape(mark) + r"\s*$", lines[i]):
        body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
        i += 1
    i += 1
    if lang in ("sh", "shell", "console"):
        n += 1
        with open(os.path.join(out, "%d.sh" % n), "w") as f:
            f.write("\n".join(body) + "\n")
        with open(os.path.join(out, "%d.line" % n), "w") as f:
            f.write("%d\n" % start)
        s = skip_re.match(body[0].strip()) if body else None
        if s:
            with open(os.path.join(out, "%d.skip" % n), "w") as f:
                f.write(s.group(1) + "\n")
    else:
        for k, b in enumerate(body):
            if b.startswith("$ "):
                print("line %d: %s" % (start + k + 1, b.strip()))
PY
mkdir "$T/blocks"
hidden=$(python3 "$T/blocks.py" "$README" "$T/blocks")

try "README.md shows no command outside a shell block"
assert_eq "$hidden" "" "commands with a prompt outside a \`\`\`sh block (write them in one, their output in another block)"

nblocks=$(find "$T/blocks" -name '*.sh' | wc -l)
try "README.md has shell blocks"
assert_true "README.md has at least one \`\`\`sh block" [ "$nblocks" -gt 0 ]

# The fresh copy of the tree: what git knows (tracked and new files, not
# the ignored ones), with this build beside it.
tree=$T/interloper
mkdir -p "$tree" "$T/home" "$T/tmp" "$T/out"
if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$TOP" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) |
		tar -xf - -C "$tree"
else
	(cd "$TOP" && tar --exclude=./build -cf - .) | tar -xf - -C "$tree"
fi
cp -Rp "$B" "$tree/build"
rm -f "$tree/interloper.jsonl"

# The session: each block's output in out/N, each block that ended well
# in out/done.  A skipped block is left out.
session=$T/session.sh
{
	echo 'set -e'
	i=1
	while [ "$i" -le "$nblocks" ]; do
		if [ ! -f "$T/blocks/$i.skip" ]; then
			printf '{\n'
			cat "$T/blocks/$i.sh"
			# shellcheck disable=SC2016 # expanded by the session, not here
			printf '} >"$IL_DOCS_OUT/%d" 2>&1 </dev/null\necho %d >>"$IL_DOCS_OUT/done"\n' "$i" "$i"
		fi
		i=$((i + 1))
	done
} >"$session"

try "the README's shell blocks parse as sh"
assert_true "sh -n accepts every block" sh -n "$session"

(cd "$tree" && HOME=$T/home TMPDIR=$T/tmp IL_DOCS_OUT=$T/out \
	timeout -k 10 780 sh "$session") >"$T/session.out" 2>&1
src=$?
touch "$T/out/done"

failed=""
i=1
while [ "$i" -le "$nblocks" ]; do
	line=$(cat "$T/blocks/$i.line")
	first=$(sed -n '/^[[:space:]]*#/d; /./{s/^[[:space:]]*//;p;q;}' "$T/blocks/$i.sh" | cut -c1-60)
	try "README.md line $line runs as written: $first"
	if [ -f "$T/blocks/$i.skip" ]; then
		skip "$(cat "$T/blocks/$i.skip")"
	elif grep -qx "$i" "$T/out/done"; then
		assert_true "ran" true
	elif [ -z "$failed" ]; then
		failed=$line
		assert_eq "exit $src" "exit 0" "the block's status (its last lines: $(tail -n 8 "$T/out/$i" 2>/dev/null | tr '\n' '|'))"
	else
		assert_eq "not reached" "reached" "after the block at line $failed failed"
	fi
	i=$((i + 1))
done

# ---------------------------------------------------------------- paths
try "no document shows a path of a development machine"
# /tmp/NAME and the home directories name a machine's own files; a
# reader's paths are written relative, or as $HOME/..., or /path/to/...
docs=$(cd "$TOP" && for f in README.md DESIGN.md; do [ -f "$f" ] && echo "$f"; done
	for d in doc man demo/results; do [ -d "$TOP/$d" ] && find "$d" -type f; done)
hits=$(cd "$TOP" && printf '%s\n' "$docs" | while read -r f; do
	grep -InHE '(/work/|/root/|/home/|/tmp/[A-Za-z0-9_.%-])' "$f"
done)
assert_eq "$hits" "" "absolute paths of a development machine (write them relative, or as \$HOME/..., /path/to/...)"

done_testing
