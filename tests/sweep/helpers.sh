# tests/sweep/helpers.sh: sourced by the sweep's system tests, after
# tests/lib.sh.
# shellcheck shell=sh

il() { sh "$IL" "$@"; }

# recs FILE: how many records (not the sweep's own lines) FILE holds
recs() {
	if [ -f "$1" ]; then grep -c '"schema":"interloper/1"' "$1"; else echo 0; fi
}

# runs FILE...: the run ids of the files' records, one a line, sorted
runs() {
	python3 -c 'import json, sys
for f in sys.argv[1:]:
    for l in open(f):
        x = json.loads(l)
        if x.get("schema") == "interloper/1": print(x["labels"]["run"])' "$@" | sort
}

# rj FILE EXPR: a Python expression over FILE's records (r) and the
# sweep's own lines (m)
rj() {
	python3 - "$1" "$2" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
r = [x for x in lines if x.get("schema") == "interloper/1"]
m = [x for x in lines if x.get("schema") == "interloper-sweep/1"]
v = eval(sys.argv[2])
print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)
PY
}
