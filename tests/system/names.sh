#!/bin/sh
# Every name of include/il_names.h that users meet is documented, and
# nothing documented is missing from it: the record's fields in
# libinterloper(7)'s "The record" list, the labels in doc/records.md's
# table, the INTERLOPER_* variables in doc/records.md's table (and every
# variable any page, the README or doc/ names is one of them).  Issue 15, section 3.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1

# names PREFIX: the values of the macros IL_PREFIX* of il_names.h, sorted
names() {
	sed -n "s/^#define IL_$1[A-Z0-9_]* \"\([^\"]*\)\".*/\1/p" "$TOP/include/il_names.h" | sort -u
}

# table HEADING: the first column of doc/records.md's table under HEADING
# shellcheck disable=SC2016 # backquotes of Markdown, not expansions
table() {
	awk -F'|' -v h="$1" '$0 == h { on = 1; next } on && /^#/ { exit }
		on && /^\| `/ { print $2 }' "$TOP/doc/records.md" | grep -oE '`[^`]+`' | tr -d '`' | sort -u
}

try "every record field is in libinterloper(7)'s list, and every field listed is one"
names F_ >declared
# the Li names of the subsection "The record, schema interloper/1"
awk '/^\.Ss The record, schema interloper\/1/ { on = 1; next } on && /^\.S[hs] / { exit }
	on && /^\./ {
		n = split(substr($0, 2), w, " ")
		for (i = 1; i < n; i++) if (w[i] == "Li")
			for (j = i + 1; j <= n && w[j] !~ /^[A-Z][a-z][a-z]?$/; j++) {
				t = w[j]; sub(/[,;.]$/, "", t)
				if (t ~ /^[a-z_]+$/) print t
			}
	}' "$TOP/man/libinterloper.7" | sort -u >documented
assert_true "names found" [ "$(wc -l <declared)" -gt 40 ]
assert_eq "$(comm -23 declared documented | tr '\n' ' ')" "" "fields not documented"
assert_eq "$(comm -13 declared documented | tr '\n' ' ')" "" "documented, not fields of il_names.h"

try "every label is in doc/records.md's table of labels, and every label there is one"
names L_ >declared
table "## Labels" >documented
assert_true "names found" [ "$(wc -l <declared)" -gt 10 ]
assert_eq "$(comm -23 declared documented | tr '\n' ' ')" "" "labels not documented"
assert_eq "$(comm -13 declared documented | tr '\n' ' ')" "" "documented, not labels of il_names.h"

try "every INTERLOPER_* variable is in doc/records.md's table, and every one documented anywhere is declared"
names V_ | grep -v '_$' >declared
table "## Variables" >documented
grep -ohE 'INTERLOPER_[A-Z_]*[A-Z]' "$TOP/README.md" "$TOP"/doc/*.md "$TOP"/man/*.[1-9] | sort -u >named
assert_true "names found" [ "$(wc -l <declared)" -gt 10 ]
assert_eq "$(comm -23 declared documented | tr '\n' ' ')" "" "variables not in doc/records.md's table"
assert_eq "$(comm -13 declared documented | tr '\n' ' ')" "" "in the table, not variables of il_names.h"
assert_eq "$(comm -13 declared named | tr '\n' ' ')" "" "named in the docs, not variables of il_names.h"

done_testing
