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

# crasher OK BAD COUNT: two programs (shell scripts): OK exits 0; BAD
# counts its runs in the file COUNT and kills itself with SIGSEGV in its
# 1st, 4th, 7th, ... run
crasher() {
	printf '#!/bin/sh\nexit 0\n' >"$1"
	# shellcheck disable=SC2016 # the script's own $(...) and $$
	printf '#!/bin/sh\nn=$(cat %s 2>/dev/null || echo 0)\necho $((n + 1)) >%s\n[ $((n %% 3)) -ne 0 ] || kill -SEGV $$\n' "$3" "$3" >"$2"
	chmod +x "$1" "$2"
}

# slurm_cluster N: a private Slurm cluster of N nodes in $T/cl
# (scripts/slurm-cluster.sh), its daemons stopped by pid when the test
# ends, SLURM_CONF set; or the case skipped, saying why, and status 1.
slurm_cluster() {
	_missing=''
	for _c in munged slurmctld slurmd sbatch squeue sinfo unshare python3; do
		command -v "$_c" >/dev/null 2>&1 || _missing="$_missing $_c"
	done
	if [ "$(id -u)" -ne 0 ]; then
		skip "not root: the test starts munged, slurmctld and slurmd of its own (make check runs it as root)"
		return 1
	elif [ -n "$_missing" ]; then
		skip "missing:$_missing (Debian packages slurm-wlm, munge, util-linux; make check installs them as root)"
		return 1
	elif ! unshare -u true 2>/dev/null; then
		skip "no UTS namespace can be made here (unshare -u): each node needs a hostname of its own"
		return 1
	fi
	CL="$T/cl"
	trap 'sh "$TOP/scripts/slurm-cluster.sh" stop "$CL" >/dev/null 2>&1; rm -rf "$T"' EXIT
	sh "$TOP/scripts/slurm-cluster.sh" start "$CL" "$1" >"$T/start.out" 2>&1
	assert_eq "$?" 0 "the cluster started ($(cat "$T/start.out"))"
	# shellcheck disable=SC1091 # written by slurm-cluster.sh
	. "$CL/env"
}
