#!/bin/sh
# interloper record csv: the records as a table, one row per record, read
# back with Python's csv module and checked against the JSON.
# shellcheck source=tests/lib.sh
. "$TOP/tests/lib.sh"
cd "$T" || exit 1

# two records of different events and labels, one label with a comma and
# a quote, one named like a record field
sh "$IL" run -q --events task-clock --label system=A --label 'note=a, "b"' --output r.jsonl \
	-- /bin/true
sh "$IL" run -q --events page-faults --label system=B --label host=lab --output r.jsonl \
	-- /bin/echo x >/dev/null
printf '%s\n' '{"schema":"interloper-sweep/1","kind":"plan","plan":"x"}' >>r.jsonl

try "interloper record csv: one row per record, every field a column, values as in the JSON"
sh "$IL" record csv r.jsonl >t.csv 2>err
assert_eq "$?" 0 "status"
assert_match "$(cat err)" "csv: 2 records; 1 line that is not records" "the sweep line said"
out=$(python3 - <<'PY'
import csv, json
rows = list(csv.DictReader(open("t.csv", newline="")))
recs = [json.loads(l) for l in open("r.jsonl") if '"interloper/1"' in l]
print(len(rows))
for row, r in zip(rows, recs):
    assert row["system"] == r["labels"]["system"], row
    assert row["pid"] == str(r["pid"])
    assert row["setup.env_bytes"] == str(r["setup"]["env_bytes"])
    assert row["times.wall_ns"] == str(r["times"]["wall_ns"])
    assert row["exit.how"] == r["exit"]["how"]
    assert row["argv"] == " ".join(r["argv"])
    for e, v in r["events"].items():
        assert row["events." + e] == str(v["value"]), (e, row)
print(rows[0]["note"], "|", rows[0]["events.page-faults"] == "", "|", rows[1]["labels.host"],
      rows[1]["host"] != "lab")
PY
)
assert_eq "$out" "2
a, \"b\" | True | lab True" "rows, a quoted label, an empty cell, a label named like a field"

try "interloper record csv reads standard input, and says what it expected of a bad option"
sh "$IL" record csv <r.jsonl >t2.csv 2>/dev/null
assert_eq "$(cmp t.csv t2.csv && echo same)" same "the same table from stdin"
sh "$IL" record csv --bogus r.jsonl >/dev/null 2>err
assert_eq "$?" 1 "status"
assert_eq "$(cat err)" "interloper record csv: unknown option --bogus; see interloper record csv --help" "message"

done_testing
