#!/usr/bin/env python3
"""Reference for interloper link's orders, written from interloper-link(1).

usage: prng_ref.py SEED K NAME...   prints what `interloper link -n` prints
       prng_ref.py --vector         prints xoshiro128**'s first outputs from
                                    the state (1, 2, 3, 4), to compare with
                                    the published reference implementation
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


def main():
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
