#!/usr/bin/env python3
"""Records for tests/golden/setups_exchanges_json, setups_cells_json and
setups_grid_json (python3 setups_exchanges.py setups|cells|grid >
DIR/input.jsonl; their expected
from the build before the exchanges were rewritten, 70ca7ba): the comparison's and the
group test's exchanges over units of unequal sizes (not a multiple of
four), passes whose string ids are not in record order, tied contrasts
(integer values), cells (env_add within a layout), and a grid of 27
setups.  Deterministic."""
import json, random, sys

def rec(labels, wall):
    return json.dumps({"schema": "interloper/1", "labels": labels, "times": {"wall_ns": wall}},
                      separators=(",", ":"))

def setups(out):
    r = random.Random(18)
    n_setups, reps = 61, 12
    eff = {s: r.choice([0, 0, 0, 0, 0, 0, 0, 1]) for s in range(n_setups)}
    drop = {(5, 3, "B"), (5, 4, "B"), (17, 2, "A"), (17, 2, "B")}
    lines = []
    # system C's runs of s00 first, passes last to first: the passes'
    # string ids then run against the record order
    for rep in reversed(range(reps)):
        lines.append(rec({"system": "C", "setup": "s00", "rep": str(rep)}, 1000 + r.randint(0, 4)))
    for rep in range(reps):
        order = list(range(n_setups))
        r.shuffle(order)
        for s in order:
            if s == 40 and rep >= 6:
                continue
            drift = rep % 3
            for sys_ in r.sample(["A", "B"], 2):
                if (s, rep, sys_) in drop:
                    continue
                v = 1000 + drift + eff[s] * (sys_ == "B") + r.randint(0, 4)
                lines.append(rec({"system": sys_, "setup": "s%02d" % s, "rep": str(rep)}, v))
    out.write("\n".join(lines) + "\n")

def cells(out):
    r = random.Random(7)
    lines = []
    for rep in range(8):
        cells = [(l, e) for l in range(9) for e in (0, 64, 128)]
        r.shuffle(cells)
        for l, e in cells:
            for sys_ in r.sample(["A", "B"], 2):
                v = 2000 + 10 * rep + e // 8 + (l % 3 == 0) * (sys_ == "B") + r.randint(0, 9)
                lines.append(rec({"system": sys_, "layout": "L%d" % l, "env_add": str(e),
                                  "rep": str(rep)}, v))
    out.write("\n".join(lines) + "\n")

def grid(out):
    # every setup once in every pass: the group test's grid (stat_grid),
    # 27 setups = 16 + 8 + 3 of its paths
    r = random.Random(27)
    lines = []
    for rep in range(10):
        order = list(range(27))
        r.shuffle(order)
        for s in order:
            for sys_ in r.sample(["A", "B"], 2):
                v = 500 + 3 * (rep % 4) + (s % 5 == 0) * (sys_ == "A") + r.randint(0, 6)
                lines.append(rec({"system": sys_, "setup": "g%02d" % s, "rep": str(rep)}, v))
    out.write("\n".join(lines) + "\n")

{"setups": setups, "cells": cells, "grid": grid}[sys.argv[1]](sys.stdout)
