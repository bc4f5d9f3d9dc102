/*
 * il_prng.h: interloper's one random-number generator, for every order it
 * draws (link orders, function orders, sweep plans and run orders).
 *
 * xoshiro128** (Blackman and Vigna, 2018) on four 32-bit words, seeded by
 * running a counter (step 0x9e3779b9) from SEED ^ fmix32(STREAM) through
 * murmur3's fmix32; uniform integers below N by rejection (no modulo
 * bias); Fisher-Yates in Durstenfeld's form.  The same seed and stream give
 * the same numbers on any machine: interloper-link(1) documents the
 * algorithm so that orders can be recomputed without interloper
 * (tests/link/prng_ref.py does, in Python).
 */
#ifndef IL_PRNG_H
#define IL_PRNG_H

#include <stddef.h>
#include <stdint.h>

struct il_rng {
    uint32_t s[4];
};

/* Streams of one seed: 0 the object orders of interloper link, K >= 2 the
 * function orders of binary K; the sweep's streams are named in sweep.c. */
void il_rng_init(struct il_rng *g, uint32_t seed, uint32_t stream);
void il_rng_set_state(struct il_rng *g, const uint32_t s[4]);

/* The next 32 bits: xoshiro128**'s step.  Inline, as il_rng_below, since
 * the permutation tests draw once a run a shuffle and a call cost more
 * than the draw. */
static inline uint32_t
il_rng_next(struct il_rng *g)
{
    uint32_t *s = g->s;
    uint32_t r = s[1] * 5;
    r = ((r << 7) | (r >> 25)) * 9;
    uint32_t t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 11) | (s[3] >> 21);
    return r;
}

/* Uniform in [0, n), 1 <= n <= 2^32 (n = 0 means 2^32): a draw r is kept
 * when below lim, the largest multiple of n up to 2^32 (lim = 2^32 - 2^32
 * mod n), and gives r mod n.  lim is above 2^32 - n, so every r below
 * 2^32 - n is kept without the division that lim costs.  In 32 bits
 * 2^32 - n is -n, and 2^32 mod n is (2^32 - n) mod n. */
static inline uint32_t
il_rng_below(struct il_rng *g, uint64_t n)
{
    if (n == 0 || n >= (1ull << 32))
        return il_rng_next(g); /* 2^32 values: every draw is one */
    uint32_t m = (uint32_t)n, far = 0u - m;
    for (;;) {
        uint32_t r = il_rng_next(g);
        if (r < far || (uint64_t)r < (1ull << 32) - far % m)
            return r % m;
    }
}

/* il_rng_below(g, n) by a multiplication instead of its division, for a
 * bound used many times (a shuffle of the same length, block after block,
 * exchange after exchange): m = il_rng_magic(n), once.  The same draws
 * and the same values: for 32-bit r and n, r mod n is the high 64 bits of
 * (m r mod 2^64) n with m = ceil(2^64 / n) (Lemire, Kaser and Kurz,
 * "Faster remainder by direct computation", Software: Practice and
 * Experience 49(6), 2019, section 3); the rare draw at or past 2^32 - n
 * still takes the division of the rejection test.  1 <= n < 2^32. */
static inline uint64_t
il_rng_magic(uint32_t n)
{
    return UINT64_MAX / n + 1; /* n = 1: 0, and every r mod 1 is 0 */
}

static inline uint32_t
il_rng_below_magic(struct il_rng *g, uint32_t n, uint64_t m)
{
    uint32_t far = 0u - n;
    for (;;) {
        uint32_t r = il_rng_next(g);
        if (r < far || (uint64_t)r < (1ull << 32) - far % n)
            return (uint32_t)(((unsigned __int128)(m * r) * n) >> 64);
    }
}

/* Shuffle a[0..n-1] in place: for i = n-1 down to 1, swap a[i] with
 * a[below(i+1)]. */
void il_rng_shuffle(struct il_rng *g, uint32_t *a, size_t n);
/* The same for values (permutation tests, the seq plot's contrast). */
void il_rng_shuffle_double(struct il_rng *g, double *a, size_t n);
/* il_rng_shuffle_double with il_rng_below_magic: m[i] = il_rng_magic(i)
 * for 2 <= i <= n (il_rng_magics), so the same draws and the same order. */
void il_rng_shuffle_double_magic(struct il_rng *g, double *a, size_t n, const uint64_t *m);
/* m[i] = il_rng_magic(i) for 1 <= i <= n (m holds n + 1; m[0] = 0). */
void il_rng_magics(uint64_t *m, size_t n);

#endif
