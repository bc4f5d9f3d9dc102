#!/usr/bin/env python3
"""bench/attrib.py: calibration and power of interloper report --attribute.

Not part of pass/fail.  For each scenario it makes N synthetic sweeps with
tests/progs/synthrec (the sweep's order, drift between and within passes,
clustered bursts; 8 environment sizes x 4 layouts, 8 passes, two systems),
runs `interloper report --compare system=A --setup setup --attribute
--json` on each and counts how often a fact is named, and which:

  aa          A/A: any fact named is a false attribution (goal: <= 5%)
  aa-aslr     A/A with ASLR on (main_sp varies within setups: not tested)
  unexplained every setup its own effect on B/A (sd 2%) that no record
              carries: setups differ, and any fact named is false
  align-X     B X slower where main_sp % 64 == 0 (the paper's section 4.2.2
              and 7.2: the stack's address); right: main_sp mod 64
  link-X      B X slower where a.o is linked first (2 sizes x 16 layouts);
              right: its position

  python3 bench/attrib.py [-n N] [-j JOBS] [-s SCENARIO,...] [-S SEED] [-o DIR]

Prints a table (rate with its 95% Wilson interval): any fact named; the
right one named (alone, or with facts the records cannot tell apart from
it); only wrong ones named.  With gnuplot it
writes DIR/attrib-calibration.png: on A/A and unexplained, the fraction of
data sets whose smallest adjusted p is at most alpha, against alpha (at
or below the diagonal: family-wise error controlled); and the power
curve of the planted alignment effect.  Run `make tests-build` first.
bench/attrib-calibration.png is that figure from `python3 bench/attrib.py
-n 400 -j 1` (the table is in interloper-report(1), "Attribution").
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# IL_REPORT, IL_SYNTHREC: other builds of the two (a copy, while one rebuilds)
REPORT = os.environ.get("IL_REPORT", os.path.join(TOP, "build", "libexec", "interloper-report"))
SYNTH = os.environ.get("IL_SYNTHREC", os.path.join(TOP, "build", "tests", "progs", "synthrec"))

SCEN = {
    "aa": ([], None),
    "aa-aslr": (["-a"], None),
    "unexplained": (["-u", "0.02"], None),
    "align-0.5%": (["-e", "0.005", "-m", "64"], "main_sp mod 64"),
    "align-1%": (["-e", "0.01", "-m", "64"], "main_sp mod 64"),
    "align-2%": (["-e", "0.02", "-m", "64"], "main_sp mod 64"),
    "align-3%": (["-e", "0.03", "-m", "64"], "main_sp mod 64"),
    "link-2%": (["-o", "0.02", "-E", "2", "-L", "16"], "link position of a.o"),
}


def one(scen, seed, tmp):
    args, _ = SCEN[scen]
    path = os.path.join(tmp, "%s-%d.jsonl" % (scen, seed))
    with open(path, "w") as f:
        subprocess.run([SYNTH, "-s", str(seed)] + args, stdout=f, check=True)
    out = subprocess.run(
        [REPORT, "--compare", "system=A", "--setup", "setup", "--attribute", "--json",
         "--seed", str(seed), path],
        capture_output=True, text=True, check=True).stdout
    os.unlink(path)
    a = json.loads(out)["attribution"][0]
    ps = [f["p"] for f in a["facts"] if f["state"] == "tested"]
    return a["explained_by"], min(ps) if ps else 1.0


def wilson(k, n):
    if not n:
        return (0.0, 1.0)
    z, p = 1.96, k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, c - h), min(1.0, c + h))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=400)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("-s", default=",".join(SCEN))
    ap.add_argument("-S", type=int, default=1)
    ap.add_argument("-o", default=os.path.join(TOP, "bench", "out"))
    a = ap.parse_args()
    for p in (REPORT, SYNTH):
        if not os.access(p, os.X_OK):
            sys.exit("bench/attrib.py: %s is missing; run make tests-build" % p)
    os.makedirs(a.o, exist_ok=True)
    res = {}
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(a.j) as ex:
        for s in a.s.split(","):
            if s not in SCEN:
                sys.exit("bench/attrib.py: unknown scenario %s; expected one of %s"
                         % (s, ", ".join(SCEN)))
            res[s] = list(ex.map(lambda i: one(s, a.S + i, tmp), range(a.n)))
    print("%-12s %5s %22s %22s %22s" % ("scenario", "n", "any fact named",
                                       "the right fact", "only wrong facts"))
    for s, r in res.items():
        right = SCEN[s][1]
        n = len(r)
        anyk = sum(1 for e, _ in r if e)
        rk = sum(1 for e, _ in r if right and right in e)
        wk = sum(1 for e, _ in r if e and right not in e)

        def cell(k):
            lo, hi = wilson(k, n)
            return "%5.1f%% [%4.1f, %4.1f]" % (100 * k / n, 100 * lo, 100 * hi)
        print("%-12s %5d %22s %22s %22s" % (s, n, cell(anyk), cell(rk) if right else "-",
                                             cell(wk)))
    # the figure: smallest adjusted p under the nulls; power by effect size
    dat = os.path.join(a.o, "attrib-calibration.dat")
    with open(dat, "w") as f:
        for s in ("aa", "unexplained"):
            if s not in res:
                continue
            ps = sorted(p for _, p in res[s])
            f.write("# %s\n" % s)
            for al in [i / 100 for i in range(0, 21)]:
                f.write("%g %g\n" % (al, sum(1 for p in ps if p <= al) / len(ps)))
            f.write("\n\n")
        pw = [(float(s.split("-")[1].rstrip("%")), s) for s in res if s.startswith("align-")]
        f.write("# power\n")
        for eff, s in sorted(pw):
            r = res[s]
            f.write("%g %g\n" % (eff, sum(1 for e, _ in r if SCEN[s][1] in e) / len(r)))
    if not ("aa" in res and "unexplained" in res and pw):
        print("no figure: it needs the scenarios aa, unexplained and align-*")
        return
    png = os.path.join(a.o, "attrib-calibration.png")
    gp = """set terminal pngcairo size 900,380 noenhanced
set output '%s'
set multiplot layout 1,2
set title 'null scenarios: P(smallest adjusted p <= alpha)'
set xlabel 'alpha'; set ylabel 'fraction of data sets'; set key top left
set xrange [0:0.2]; set yrange [0:0.25]
plot x title 'alpha' lc rgb 'gray', '%s' index 0 with linespoints title 'A/A', \\
     '' index 1 with linespoints title 'setups differ, no fact'
set title 'planted alignment (main_sp mod 64): named'
set xlabel 'effect on B/A (%%)'; set ylabel 'fraction of data sets'
set xrange [0:*]; set yrange [0:1.05]; set key bottom right
plot '%s' index 2 with linespoints title 'main_sp mod 64 named'
""" % (png, dat, dat)
    try:
        subprocess.run(["gnuplot"], input=gp, text=True, check=True)
        print("figure:", png)
    except (OSError, subprocess.CalledProcessError) as e:
        print("no figure (gnuplot: %s)" % e)


if __name__ == "__main__":
    main()
