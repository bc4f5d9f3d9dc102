#!/usr/bin/env python3
"""Reference for interloper link's orders, written from interloper-link(1).

usage: prng_ref.py SEED K NAME...   prints what `interloper link -n` prints
       prng_ref.py --vector         prints xoshiro128**'s first outputs from
                                    the state (1, 2, 3, 4), to compare with
                                    the published reference implementation
       prng_ref.py --symorder SEED K FUNCS NAME...
                                    prints the ordering file of each random
                                    binary of `interloper link -g function`,
                                    after a line "== ID"; FUNCS holds lines
                                    "I FUNCTION": object I's (from 0) text
                                    symbols, types T t W as nm -P prints them
"""
import sys

M = 0xFFFFFFFF


def fmix32(h):
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & M
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & M
    h ^= h >> 16
    return h


def rotl(x, k):
    return ((x << k) | (x >> (32 - k))) & M


class Xoshiro128ss:
    def __init__(self, seed=None, stream=0, state=None):
        if state is None:
            k = seed ^ fmix32(stream)
            state = []
            for _ in range(4):
                k = (k + 0x9E3779B9) & M
                state.append(fmix32(k))
            if not any(state):
                state[0] = 1
        self.s = list(state)

    def next(self):
        s = self.s
        r = (rotl((s[1] * 5) & M, 7) * 9) & M
        t = (s[1] << 9) & M
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 11)
        return r

    def below(self, n):
        lim = 2**32 - 2**32 % n
        while True:
            r = self.next()
            if r < lim:
                return r % n


def orders(seed, k, names):
    n = len(names)
    orig = list(range(n))
    alpha = sorted(orig, key=lambda i: (names[i].encode(), i))
    out = [("original", orig)]
    if k >= 2:
        out.append(("alphabetical", alpha))
    seen = {tuple(orig), tuple(alpha)}
    rng = Xoshiro128ss(seed, 0)
    while len(out) < k:
        while True:
            p = alpha[:]
            for i in range(n - 1, 0, -1):
                j = rng.below(i + 1)
                p[i], p[j] = p[j], p[i]
            if tuple(p) not in seen:
                break
        seen.add(tuple(p))
        out.append(("random", p))
    return out


def symorder(seed, k, funcs, names):
    """Function orders: each object's functions sorted by name (once each),
    shuffled on stream K, objects visited in alphabetical order; written
    in binary K's object order."""
    n = len(names)
    fn = [sorted(set(funcs.get(i, []))) for i in range(n)]
    out = []
    ords = orders(seed, k, names)
    alpha = ords[1][1]
    w = max(2, len(str(k - 1)))
    for b in range(2, k):
        rng = Xoshiro128ss(seed, b)
        shuffled = {}
        for i in alpha:
            f = fn[i][:]
            for j in range(len(f) - 1, 0, -1):
                r = rng.below(j + 1)
                f[j], f[r] = f[r], f[j]
            shuffled[i] = f
        out.append("== %0*d" % (w, b))
        for i in ords[b][1]:
            out.extend(shuffled[i])
    return out


def main():
    if sys.argv[1] == "--symorder":
        seed, k, path, names = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5:]
        funcs = {}
        for line in open(path):
            i, f = line.split()
            funcs.setdefault(int(i), []).append(f)
        print("\n".join(symorder(seed, k, funcs, names)))
        return
    if sys.argv[1:] == ["--vector"]:
        g = Xoshiro128ss(state=[1, 2, 3, 4])
        print(" ".join(str(g.next()) for _ in range(6)))
        return
    seed, k, names = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    w = max(2, len(str(k - 1)))
    for i, (kind, p) in enumerate(orders(seed, k, names)):
        print("%0*d\t%s\t%s" % (w, i, kind, " ".join(names[j] for j in p)))


if __name__ == "__main__":
    main()
