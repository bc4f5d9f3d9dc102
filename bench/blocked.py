#!/usr/bin/env python3
"""bench/blocked.py: an independent oracle for interloper report's blocked
test of equal per-setup ratios (the mean), on the same data sets.

Not part of pass/fail.  Written from interloper-report(1), "What each test
assumes" (not from stats/perm.c): the two systems of a comparison are
exchanged only within a block (the runs of one setup in one pass, and with
one value of each sweep factor that varies within a setup: env_add when the
setups are layouts); each block's contrast is log(mean of the value's runs /
mean of the baseline's); the common ratio is the contrasts' median; the
contrasts less their median are given signed ranks (the rank of |d| among
all blocks, ties sharing their mean rank, with d's sign); the statistic is
the between-setup sum of squares of the signed ranks over their pooled
within-setup mean square (k - 1 times the one-way F); an exchange within a
block of one run a side flips its contrast's sign (larger blocks: the value's
runs, divided by the common ratio, and the baseline's are shuffled), and p =
(1 + exchanges at or above the observed) / (1 + exchanges).  With --statistic q, the statistic is the setups' spread of
mean contrasts against their pooled within-setup variance (the test before
the signed ranks) instead.

  python3 bench/blocked.py [-P EXCHANGES] [-s q|ranks] [--report BIN]
                           [--args "ARGS"] FILE...

For every FILE it runs `interloper-report --json --quiet-warning all
--compare system=A ARGS FILE` and its own test, and prints both p-values;
then how often each rejects at 5%, how often the two decisions agree, and
the largest difference of p beyond Monte Carlo error.  The data sets come
from bench/coverage.sh -K DIR (for example: sh bench/coverage.sh -n 200 -s
drift-power-2 -K DIR; python3 bench/blocked.py --args "--setup layout"
DIR/drift-power-2-r*.jsonl).  Needs numpy and scipy (Debian: python3-numpy,
python3-scipy); the report's two p-values differ by their own exchanges
(999 in the report), so they agree within Monte Carlo error, not exactly.
"""
import argparse
import json
import math
import os
import subprocess
import sys

import numpy as np
from scipy.stats import rankdata

FACTORS = ("env_add", "layout", "stack_offset", "heap_offset")


def blocks_of(path, compare, base, setup, passes):
    """The blocks: {(setup value, pass, cell): ([baseline runs], [value runs])}."""
    recs = []
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            lab = r["labels"]
            recs.append((lab, r["times"]["wall_ns"]))
    # the sweep factors that vary within a setup make the cell
    seen = {}
    for lab, _ in recs:
        for fct in FACTORS:
            if fct in lab and fct != setup:
                seen.setdefault((fct, lab[setup]), set()).add(lab[fct])
    cellf = sorted({fct for (fct, _), v in seen.items() if len(v) > 1})
    out = {}
    for lab, x in recs:
        key = (lab[setup], lab[passes], tuple(lab[fct] for fct in cellf))
        side = 0 if lab[compare] == base else 1
        out.setdefault(key, ([], []))[side].append(x)
    return {k: v for k, v in out.items() if v[0] and v[1]}


def stat_ranks(c, unit, m):
    """Rows of c: contrasts less the common ratio, exchanged; the signed-rank statistic."""
    s = np.sign(c) * rankdata(np.abs(c), axis=1)
    return between_within(s, unit, m)


def stat_q(c, unit, m):
    return between_within(c, unit, m)


def between_within(s, unit, m):
    k = len(m)
    sums = np.zeros((s.shape[0], k))
    for u in range(k):
        sums[:, u] = s[:, unit == u].sum(axis=1)
    means = sums / m
    grand = s.sum(axis=1, keepdims=True) / m.sum()
    between = (m * (means - grand) ** 2).sum(axis=1)
    within = ((s - means[:, unit]) ** 2).sum(axis=1)
    df = (m - 1).sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        return between / (within / df)


def oracle_p(blocks, P, statistic, rng):
    keys = sorted(blocks, key=lambda k: (k[0], k[1], k[2]))
    units = sorted({k[0] for k in keys})
    unit = np.array([units.index(k[0]) for k in keys])
    m = np.array([(unit == u).sum() for u in range(len(units))], dtype=float)
    raw = np.array([math.log(np.mean(blocks[k][1]) / np.mean(blocks[k][0])) for k in keys])
    centre = np.median(raw)
    theta = math.exp(centre)
    simple = all(len(blocks[k][0]) == 1 and len(blocks[k][1]) == 1 for k in keys)
    f = stat_ranks if statistic == "ranks" else stat_q
    obs = f((raw - centre)[None, :], unit, m)[0]
    if simple:
        c0 = raw - centre
        signs = rng.choice(np.array([-1.0, 1.0]), size=(P, len(keys)))
        ref = f(signs * c0[None, :], unit, m)
    else:
        ex = np.empty((P, len(keys)))
        for j, k in enumerate(keys):
            a, b = np.array(blocks[k][0]), np.array(blocks[k][1]) / theta
            pool = np.concatenate([b, a])
            for i in range(P):
                q = rng.permutation(pool)
                ex[i, j] = math.log(q[: len(b)].mean() / q[len(b):].mean())
        ref = f(ex, unit, m)
    ref = ref[np.isfinite(ref)]
    return (1 + (ref >= obs * (1 - 1e-12)).sum()) / (1 + len(ref))


def report_p(binary, args, path):
    cmd = [binary, "--json", "--quiet-warning", "all", "--compare", "system=A"] + args + [path]
    j = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    het = j["comparisons"][0]["setups"]["heterogeneity"]
    return het.get("p"), het.get("exchange")


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-P", type=int, default=9999, help="exchanges (default 9999)")
    ap.add_argument("-s", "--statistic", choices=("ranks", "q"), default="ranks")
    ap.add_argument("--report", default=os.path.join(top, "build/libexec/interloper-report"))
    ap.add_argument("--args", default="--setup setup", help="the report's design options")
    ap.add_argument("--setup", help="the setup label (default: --args' --setup)")
    ap.add_argument("--passes", default="rep")
    ap.add_argument("-S", "--seed", type=int, default=1)
    ap.add_argument("files", nargs="+")
    o = ap.parse_args()
    args = o.args.split()
    setup = o.setup or (args[args.index("--setup") + 1] if "--setup" in args else "setup")
    rng = np.random.default_rng(o.seed)
    rows = []
    for path in o.files:
        po = oracle_p(blocks_of(path, "system", "A", setup, o.passes), o.P, o.statistic, rng)
        pr, exch = report_p(o.report, args, path)
        rows.append((po, pr))
        print(f"{os.path.basename(path)}\toracle {po:.4f}\treport {pr}\t{exch}")
    po = np.array([r[0] for r in rows])
    pr = np.array([r[1] if r[1] is not None else np.nan for r in rows])
    ok = np.isfinite(pr)
    n = int(ok.sum())
    po, pr = po[ok], pr[ok]
    agree = int(((po < 0.05) == (pr < 0.05)).sum())
    # Monte Carlo error of the difference of two p-values from 999 and P
    # exchanges: sqrt(p (1 - p) (1 / 1000 + 1 / (P + 1))); beyond 4 of it
    se = np.sqrt(np.maximum(po * (1 - po), 1e-4) * (1 / 1000 + 1 / (o.P + 1)))
    far = int((np.abs(po - pr) > 4 * se).sum())
    print(f"data sets: {n} (report without a p: {len(rows) - n})")
    print(f"rejected at 5%: oracle {100 * (po < 0.05).mean():.1f}%, "
          f"report {100 * (pr < 0.05).mean():.1f}%")
    print(f"decisions agree: {agree} of {n}; |p difference| beyond 4 Monte Carlo "
          f"standard errors: {far}; largest |difference| {np.abs(po - pr).max():.4f}; "
          f"correlation {np.corrcoef(po, pr)[0, 1]:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
