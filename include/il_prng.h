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

/* Uniform in [0, n), 1 <= n < 2^32, by Lemire's multiplication ("Fast
 * random integer generation in an interval", ACM TOMACS 29(1), 2019): the
 * high half of r n, r kept unless the low half is below 2^32 mod n (a
 * division only when the low half is below n).  Not il_rng_below's
 * values: the permutation tests' shuffles (il_rng_shuffle2_double). */
static inline uint32_t
il_rng_below_mul(struct il_rng *g, uint32_t n)
{
    uint64_t m = (uint64_t)il_rng_next(g) * n;
    if ((uint32_t)m < n) {
        uint32_t t = (0u - n) % n;
        while ((uint32_t)m < t)
            m = (uint64_t)il_rng_next(g) * n;
    }
    return (uint32_t)(m >> 32);
}

/* Fair coins, 32 from one draw (its bits from the lowest): the
 * comparison's sign flips.  Zeroed to start. */
struct il_coins {
    uint32_t w;
    unsigned left;
};

/* The next coin, 0 or 1. */
static inline uint32_t
il_coin(struct il_rng *g, struct il_coins *c)
{
    if (!c->left) {
        c->w = il_rng_next(g);
        c->left = 32;
    }
    uint32_t b = c->w & 1;
    c->w >>= 1;
    c->left--;
    return b;
}

/* Shuffle a[0..n-1] in place: for i = n-1 down to 1, swap a[i] with
 * a[below(i+1)]. */
void il_rng_shuffle(struct il_rng *g, uint32_t *a, size_t n);
/* The same for values (permutation tests, the seq plot's contrast). */
void il_rng_shuffle_double(struct il_rng *g, double *a, size_t n);
/* A uniform shuffle of a[0..n-1] (n < 2^32) that draws half as often:
 * Fisher-Yates in Durstenfeld's form, with the positions i and i - 1's
 * draws (below i + 1 and below i) taken from one 32-bit draw while
 * (i + 1) i fits in 32 bits, by Brackett-Rozinsky and Lemire's batched
 * multiplication with its exact rejection ("Batched ranged random integer
 * generation", Software: Practice and Experience, 2025); below
 * that, il_rng_below_mul.  The permutation tests' exchanges (setupfx.c,
 * perm.c): not il_rng_shuffle_double's permutations.  next, when not
 * NULL, is n values to bring into the cache meanwhile, a line every 8
 * values shuffled (the next block of a shuffle block by block). */
void il_rng_shuffle2_double(struct il_rng *g, double *a, size_t n, const double *next);

#endif
