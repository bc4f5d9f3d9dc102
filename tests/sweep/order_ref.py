#!/usr/bin/env python3
"""Reference for interloper sweep's plan, written from interloper-sweep(1)
("The plan"), to check `interloper sweep -n` against.

usage: order_ref.py SEED REPS WARMUP SETUPS PIN SHARD SYSTEMS ENVS [LAYOUTS [STACKS [HEAPS]]]
  SETUPS   how many setups to draw, or 'all'
  PIN      'both' (pinned and unpinned runs) or 'one'
  SHARD    I/N, or 'all'
  SYSTEMS, ENVS, LAYOUTS, STACKS, HEAPS   comma lists ('-': not a factor)
prints one run id per line, in the plan's order.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "link"))
from prng_ref import Xoshiro128ss  # noqa: E402  (the generator's own reference)


def shuffle(rng, a):
    for i in range(len(a) - 1, 0, -1):
        j = rng.below(i + 1)
        a[i], a[j] = a[j], a[i]


def setup_id(env, layout, stack, heap):
    s = "e%d" % env
    if layout is not None:
        s += "-l%s" % layout
    if stack:
        s += "-s%d" % stack
    if heap:
        s += "-h%d" % heap
    return s


def plan(seed, reps, warmup, k, pin, systems, envs, layouts, stacks, heaps):
    # the product, env outermost, then layout, stack offset, heap offset
    product = [(e, l, s, h) for e in envs for l in (layouts or [None])
               for s in stacks for h in heaps]
    n = len(product)
    k = n if k is None else k
    g = Xoshiro128ss(seed, 1)
    if layouts and len(layouts) >= 2 and k < n:
        # sweep order 2: a sample takes the layouts in cycles, a fresh
        # shuffle of them per cycle, each layout's other factors drawn
        # without replacement from its own list (interloper-sweep(1))
        others = [(e, s, h) for e in envs for s in stacks for h in heaps]
        pools = [list(range(len(others))) for _ in layouts]
        drawn = []
        for i in range(k):
            c, place = divmod(i, len(layouts))
            if place == 0:
                perm = list(range(len(layouts)))
                shuffle(g, perm)
            q = pools[perm[place]]
            j = c + g.below(len(others) - c)
            q[c], q[j] = q[j], q[c]
            e, s, h = others[q[c]]
            drawn.append(product.index((e, layouts[perm[place]], s, h)))
    else:
        # stream 1: a partial Fisher-Yates draws k setups
        a = list(range(n))
        for i in range(k):
            j = i + g.below(n - i)
            a[i], a[j] = a[j], a[i]
        drawn = a[:k]
    cells = [(x, p) for p in ((False, True) if pin else (None,)) for x in systems]
    order, warm = Xoshiro128ss(seed, 2), Xoshiro128ss(seed, 3)
    runs = []  # (block, run id)
    block = 0
    for rep in range(1, reps + 1):
        o = list(range(k))
        shuffle(order, o)
        for pos in o:
            sid = setup_id(*product[drawn[pos]])
            if rep == 1:
                for w in range(1, warmup + 1):
                    c = list(range(len(cells)))
                    shuffle(warm, c)
                    runs += [(block, cells[i], sid, "w%d" % w) for i in c]
            c = list(range(len(cells)))
            shuffle(order, c)
            runs += [(block, cells[i], sid, "r%d" % rep) for i in c]
            block += 1
    out = []
    for b, (x, p), sid, r in runs:
        pinpart = "" if p is None else ("/pin-on" if p else "/pin-off")
        out.append((b, "%s/%s%s/%s" % (x, sid, pinpart, r)))
    return out


def main():
    args = sys.argv[1:]
    seed, reps, warmup = int(args[0]), int(args[1]), int(args[2])
    k = None if args[3] == "all" else int(args[3])
    pin = args[4] == "both"
    shard = None if args[5] == "all" else tuple(int(x) for x in args[5].split("/"))

    def lst(i, conv, default):
        if len(args) <= i or args[i] == "-":
            return default
        return [conv(x) for x in args[i].split(",")]

    systems = lst(6, str, [])
    envs = lst(7, int, [0])
    layouts = lst(8, str, None)
    stacks = lst(9, int, [0])
    heaps = lst(10, int, [0])
    for b, rid in plan(seed, reps, warmup, k, pin, systems, envs, layouts, stacks, heaps):
        if shard is None or b % shard[1] == shard[0] - 1:
            print(rid)


if __name__ == "__main__":
    main()
