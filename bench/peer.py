#!/usr/bin/env python3
"""bench/peer.py: the few lines of Python a user would write instead of
interloper report, the peer that bench/report.sh measures the report
against (issue 18).

    python3 bench/peer.py [--setup LABEL --compare LABEL=BASE] --by LABEL FILE

Reads FILE (plain or .gz) with json, keeps interloper/1 records with
times.wall_ns, and prints per group of --by: n, mean, sd, median, min,
max and a 95% interval of the mean (statistics).  With --setup and
--compare it also prints, per other value of the compared label, the
ratio of its mean of setup means to the baseline's, with a t interval
over the setups' log ratios: a rough copy of what
`interloper report --compare LABEL=BASE --setup LABEL` computes.
"""
import argparse
import gzip
import json
import math
import statistics
import sys
from collections import defaultdict


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--by", required=True)
    ap.add_argument("--setup")
    ap.add_argument("--compare")
    ap.add_argument("file")
    a = ap.parse_args()
    opener = gzip.open if a.file.endswith(".gz") else open
    # the values of each (group, setup), in input order
    cells = defaultdict(list)
    with opener(a.file, "rt") as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                continue
            if not isinstance(r, dict) or r.get("schema") != "interloper/1":
                continue
            labels = r.get("labels") or {}
            v = (r.get("times") or {}).get("wall_ns")
            if not isinstance(v, (int, float)):
                continue
            cells[(labels.get(a.by), labels.get(a.setup) if a.setup else None)].append(v)
    groups = defaultdict(list)
    for (g, _), xs in cells.items():
        groups[g].extend(xs)
    print("group n mean sd median min max ci_lo ci_hi")
    for g in sorted(groups, key=str):
        xs = groups[g]
        m = statistics.fmean(xs)
        sd = statistics.stdev(xs) if len(xs) > 1 else float("nan")
        hw = 1.96 * sd / math.sqrt(len(xs))
        print(g, len(xs), m, sd, statistics.median(xs), min(xs), max(xs), m - hw, m + hw)
    if not (a.setup and a.compare):
        return
    label, base = a.compare.split("=", 1)
    if label != a.by:
        sys.exit("peer.py: --compare must name the --by label")
    means = {k: statistics.fmean(xs) for k, xs in cells.items()}
    print("value baseline setups ratio ci_lo ci_hi")
    for g in sorted(groups, key=str):
        if g == base:
            continue
        logs = [math.log(means[(g, s)] / means[(base, s)])
                for (gg, s) in means if gg == g and (base, s) in means]
        if len(logs) < 2:
            continue
        lm = statistics.fmean(logs)
        hw = 1.96 * statistics.stdev(logs) / math.sqrt(len(logs))
        print(g, base, len(logs), math.exp(lm), math.exp(lm - hw), math.exp(lm + hw))


main()
