#!/usr/bin/python3
"""Oracle for Fieller's interval at tiny and large coefficients of variation.

Writes fieller_cv/CASE.jsonl (records of two systems, old and new) and
fieller_cv.out (one line per case: name kind lo hi df), computed with
mpmath at 60 significant digits from the doubles the report will read
(each value is parsed by Python's float, then taken exactly), so that the
oracle is the exact interval of the data as the tool sees it.

Interval: Fieller's set {t : (a - t b)^2 <= h^2 (va + t^2 vb)}, a, b the
means of new and old, va, vb the variances of the means, h the 0.975
quantile of t with Welch-Satterthwaite degrees of freedom evaluated at the
estimated ratio r = a/b:  df = (va + r^2 vb)^2 / (va^2/(na-1) + r^4 vb^2/(nb-1)).
The t quantile is scipy's (relative error ~1e-15, far below what is tested).

Run: /usr/bin/python3 tests/stats/oracle/fieller_cv.py  (rewrites the files)
"""
import os
import random

import mpmath as mp
from scipy import stats

mp.mp.dps = 60
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fieller_cv")


def exact_interval(ys, xs):
    y = [mp.mpf(v) for v in ys]
    x = [mp.mpf(v) for v in xs]
    na, nb = len(y), len(x)
    a, b = sum(y) / na, sum(x) / nb
    va = sum((v - a) ** 2 for v in y) / (na - 1) / na
    vb = sum((v - b) ** 2 for v in x) / (nb - 1) / nb
    r = a / b
    df = (va + r * r * vb) ** 2 / (va ** 2 / (na - 1) + r ** 4 * vb ** 2 / (nb - 1))
    h = mp.mpf(stats.t.ppf(0.975, float(df)))
    # (a - t b)^2 - h^2 (va + t^2 vb) <= 0  <=>  A t^2 - 2 a b t + C <= 0
    A = b * b - h * h * vb
    C = a * a - h * h * va
    D = (a * b) ** 2 - A * C
    if A > 0:
        s = mp.sqrt(D)
        return "bounded", (a * b - s) / A, (a * b + s) / A, df
    if D > 0:
        s = mp.sqrt(D)
        r1, r2 = (a * b + s) / A, (a * b - s) / A
        return "exclusive", min(r1, r2), max(r1, r2), df
    return "unbounded", None, None, df


def record(system, rep, value):
    return ('{"schema":"interloper/1","labels":{"system":"%s","rep":"%d"},'
            '"events":{"instructions":{"value":%s}}}' % (system, rep, value))


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(20261122)
    lines = []
    cases = []
    for mean in ("1e3", "2.5e12", "1e15"):
        for cv in ("1e-12", "1e-9", "1e-6", "1e-3", "0.1", "0.5"):
            cases.append((mean, cv, 10, 12))
    cases.append(("2.5e12", "1e-9", 120, 120))
    for mean, cv, na, nb in cases:
        m, c = float(mean), float(cv)
        shift = 1 + 1.5 * c  # the new system is 1.5 CVs slower
        ys = [repr(m * shift * (1 + c * rng.gauss(0, 1))) for _ in range(na)]
        xs = [repr(m * (1 + c * rng.gauss(0, 1))) for _ in range(nb)]
        ys = [repr(float(v)) for v in ys]
        xs = [repr(float(v)) for v in xs]
        name = "m%s_cv%s_n%d" % (mean, cv, na)
        with open(os.path.join(OUT, name + ".jsonl"), "w") as f:
            for i, v in enumerate(xs):
                f.write(record("old", i, v) + "\n")
            for i, v in enumerate(ys):
                f.write(record("new", i, v) + "\n")
        kind, lo, hi, df = exact_interval([float(v) for v in ys], [float(v) for v in xs])
        fmt = lambda v: "-" if v is None else mp.nstr(v, 25, min_fixed=-1, max_fixed=-1)
        lines.append("%s %s %s %s %s" % (name, kind, fmt(lo), fmt(hi), mp.nstr(df, 20)))
    with open(os.path.join(HERE, "fieller_cv.out"), "w") as f:
        f.write("# name kind lo hi df (mpmath, 60 digits; see fieller_cv.py)\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
