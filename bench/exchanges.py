#!/usr/bin/env python3
"""bench/exchanges.py: two builds' permutation tests side by side on planted
data (bench/planted.c), to validate a change of the exchanges' draws or
sums (issue 18).  Not part of pass/fail.

    python3 bench/exchanges.py [--sets N] [--large N] OLD_BUILD NEW_BUILD

OLD_BUILD and NEW_BUILD are build/ directories (OLD: the exact exchanges
being replaced).  Each scenario's data sets (N small: 20 setups x 10 passes,
999 exchanges; and --large ones: 400 setups x 100 passes, 40,000 runs a
group, so 100 exchanges as at a million records) are read by both builds'
`interloper report --compare system=A --setup setup --json` (OLD at --seed
1 and 2, NEW at 1), and for each scenario the script prints:
  - the setup-effect test's and the comparison's per-setup test's rejection
    rates at 5%, and how often the decisions agree with OLD's at seed 1;
  - how often tau's 95% interval holds the planted tau, and the median
    relative difference of the interval's upper end from OLD's at seed 1;
  - how often the planted setup s0 stands out, and the stand-out sets'
    mean Jaccard similarity to OLD's at seed 1.
OLD at seed 2 against seed 1 is the Monte Carlo error of the exact
exchanges: NEW should differ from OLD by as much, no more.  The three
columns read the same data sets, so their rates are one sample of data,
not three: under no effect they move together, and a rate's own error is
that of n tests, about sqrt(0.05 * 0.95 / n).  Under each row, NEW's two
rejection rates with their 95% Wilson score intervals: a type-I rate is
in order when its interval holds 5% (for a claim, use 1,000 or more small
data sets and 300 or more large ones; an independent check of session 9
with scipy's exact intervals is in its closing note).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

# name, TAU, DRIFT, BURST, STANDOUT, INTERACT
SCENARIOS = [
    ("null", 0, 0, 0, 0, 0),
    ("null+drift+bursts", 0, 0.02, 0.01, 0, 0),
    ("tau 0.4%, drift+bursts", 0.004, 0.02, 0.01, 0, 0),
    ("tau 1%, drift+bursts", 0.01, 0.02, 0.01, 0, 0),
    ("one setup +5%, drift+bursts", 0, 0.02, 0.01, 0.05, 0),
    ("B's ratios differ 0.4%, drift+bursts", 0, 0.02, 0.01, 0, 0.004),
]


def run(build, path, seed):
    r = os.path.join(build, "libexec", "interloper-report")
    p = subprocess.run([r, "--compare", "system=A", "--setup", "setup", "--json", "--seed",
                        str(seed), path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       check=True)
    return json.loads(p.stdout)


def facts(doc):
    """per group: (p, tau_ci, stand_out set); the comparison's: p"""
    out = {}
    for g in doc["groups"]:
        se = g.get("setup_effect") or {}
        out[g["labels"]["system"]] = (se.get("p"), se.get("tau_ci"),
                                      frozenset(se.get("stand_out") or []))
    out["cmp"] = doc["comparisons"][0]["setups"]["heterogeneity"].get("p")
    return out


def pct(xs):
    return "%5.1f" % (100.0 * sum(xs) / len(xs)) if xs else "    -"


def wilson(xs):
    """k of n as a percentage with its 95% Wilson score interval."""
    n = len(xs)
    if not n:
        return "-"
    z, p = 1.959964, sum(xs) / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return "%.1f%% [%.1f, %.1f] of %d" % (100 * p, 100 * max(0.0, c - h), 100 * min(1.0, c + h), n)


def median(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else float("nan")


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def jaccard(a, b):
    return len(a & b) / len(a | b) if a | b else 1.0


# The runs compared: the old build at two seeds (the Monte Carlo error of
# the exact exchanges themselves) and the new build at the first.
RUNS = (("old", 0, 1), ("old2", 0, 2), ("new", 1, 1))


def scenario(a, gen, tmp, name, tau, drift, burst, so, inter, size, k, reps, sets):
    rej = {w: [] for w, _, _ in RUNS}
    crej = {w: [] for w, _, _ in RUNS}
    cover = {w: [] for w, _, _ in RUNS}
    s0 = {w: [] for w, _, _ in RUNS}
    agree = {"old2": [], "new": []}
    cagree = {"old2": [], "new": []}
    hird = {"old2": [], "new": []}
    jac = {"old2": [], "new": []}
    for seed in range(sets):
        path = os.path.join(tmp, "d.jsonl")
        with open(path, "w") as f:
            subprocess.run([gen, str(k), str(reps), str(seed + 100000 * (size == "large")),
                            str(tau), str(drift), str(burst), str(so), str(inter)],
                           stdout=f, check=True)
        fx = {w: facts(run((a.old, a.new)[b], path, sd)) for w, b, sd in RUNS}
        for sysn in ("A", "B"):
            # the planted tau: the sd of the setups' log effects (none
            # defined with one setup apart)
            true = math.sqrt(tau ** 2 + (inter ** 2 if sysn == "B" else 0))
            for w, _, _ in RUNS:
                p, ci, st = fx[w][sysn]
                if p is not None:
                    rej[w].append(p < 0.05)
                if ci and not so:
                    cover[w].append(ci[0] <= true <= ci[1])
                s0[w].append("s0" in st)
            po, co, so_set = fx["old"][sysn]
            for w in ("old2", "new"):
                pw, cw, sw = fx[w][sysn]
                if po is not None and pw is not None:
                    agree[w].append((po < 0.05) == (pw < 0.05))
                if co and cw and co[1] > 0:
                    hird[w].append(abs(cw[1] - co[1]) / co[1])
                jac[w].append(jaccard(so_set, sw))
        for w, _, _ in RUNS:
            if fx[w]["cmp"] is not None:
                crej[w].append(fx[w]["cmp"] < 0.05)
        for w in ("old2", "new"):
            if fx["old"]["cmp"] is not None and fx[w]["cmp"] is not None:
                cagree[w].append((fx["old"]["cmp"] < 0.05) == (fx[w]["cmp"] < 0.05))
    print("%-30s %5s %5d | %s %s %s  %s %s | %s %s %s  %s %s | %s %s %s | %5.1f %5.1f | %s %s %s"
          " | %.3f %.3f"
          % (name, size, len(rej["old"]), pct(rej["old"]), pct(rej["old2"]), pct(rej["new"]),
             pct(agree["old2"]), pct(agree["new"]), pct(crej["old"]), pct(crej["old2"]),
             pct(crej["new"]), pct(cagree["old2"]), pct(cagree["new"]), pct(cover["old"]),
             pct(cover["old2"]), pct(cover["new"]), 100 * median(hird["old2"]),
             100 * median(hird["new"]), pct(s0["old"]), pct(s0["old2"]), pct(s0["new"]),
             mean(jac["old2"]), mean(jac["new"])))
    print("%-30s new: setup effect p<.05 %s; per-setup ratios p<.05 %s"
          % ("", wilson(rej["new"]), wilson(crej["new"])))
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", type=int, default=200, help="small data sets a scenario")
    ap.add_argument("--large", type=int, default=20, help="large data sets a scenario")
    ap.add_argument("old")
    ap.add_argument("new")
    a = ap.parse_args()
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    tmp = tempfile.mkdtemp(prefix="il-exchanges.")
    gen = os.path.join(tmp, "planted")
    subprocess.run(["cc", "-O2", "-std=c11", "-o", gen, os.path.join(top, "bench", "planted.c"),
                    "-lm"], check=True)
    print("columns: old = OLD at --seed 1, old2 = OLD at --seed 2, new = NEW at --seed 1,")
    print("all three on the same data sets (one sample of data, not three);")
    print("agreement (agr) and differences are each against old; rates in %")
    print("%-30s %5s %5s | %-29s | %-29s | %-17s | %-11s | %-17s | %s"
          % ("scenario", "size", "tests", "setup effect p<.05: rate, agr",
             "per-setup ratios p<.05, agr", "tau CI holds tau", "tau hi rd %",
             "s0 stands out", "stand-out Jaccard"))
    print("%-30s %5s %5s | %-29s | %-29s | %-17s | %-11s | %-17s | %s"
          % ("", "", "", "  old  old2   new  old2   new", "  old  old2   new  old2   new",
             "  old  old2   new", " old2   new", "  old  old2   new", " old2   new"))
    for name, tau, drift, burst, so, inter in SCENARIOS:
        for size, k, reps, sets in (("small", 20, 10, a.sets), ("large", 400, 100, a.large)):
            scenario(a, gen, tmp, name, tau, drift, burst, so, inter, size, k, reps, sets)
    subprocess.run(["rm", "-rf", tmp], check=True)


if __name__ == "__main__":
    main()
