/*
 * prng.c: the generator of il_prng.h.  Pure: no I/O, no global state.
 */
#include <string.h>

#include "il_prng.h"

static uint32_t
fmix32(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

void
il_rng_init(struct il_rng *g, uint32_t seed, uint32_t stream)
{
    uint32_t k = seed ^ fmix32(stream);
    for (int i = 0; i < 4; i++) {
        k += 0x9e3779b9u;
        g->s[i] = fmix32(k);
    }
    if (!(g->s[0] | g->s[1] | g->s[2] | g->s[3]))
        g->s[0] = 1; /* the one state xoshiro cannot leave */
}

void
il_rng_set_state(struct il_rng *g, const uint32_t s[4])
{
    for (int i = 0; i < 4; i++)
        g->s[i] = s[i];
}

/* Fisher-Yates over elements of size bytes (at most 8); the callers pass
 * a constant size, so that each gets a copy specialised to its type. */
static inline void
shuffle(struct il_rng *g, void *a, size_t n, size_t size)
{
    unsigned char *p = a, t[8];
    /* the state in a local: a[] might alias *g, and then every draw
     * would store it and load it again */
    struct il_rng l = *g;
    for (size_t i = n; i > 1; i--) {
        size_t j = il_rng_below(&l, i);
        memcpy(t, p + (i - 1) * size, size);
        memcpy(p + (i - 1) * size, p + j * size, size);
        memcpy(p + j * size, t, size);
    }
    *g = l;
}

void
il_rng_shuffle(struct il_rng *g, uint32_t *a, size_t n)
{
    shuffle(g, a, n, sizeof *a);
}

/* The same shuffle of values: the same draws, the same order. */
void
il_rng_shuffle_double(struct il_rng *g, double *a, size_t n)
{
    shuffle(g, a, n, sizeof *a);
}

/* a[i] and a[j] swapped */
static inline void
swap_d(double *a, size_t i, size_t j)
{
    double t = a[i];
    a[i] = a[j];
    a[j] = t;
}

void
il_rng_shuffle2_double(struct il_rng *g, double *a, size_t n, const double *next)
{
    struct il_rng l = *g; /* as shuffle()'s */
    size_t i = n, q = 0;
    for (; i > 65536; i--) /* (i + 1) i past 2^32: one position a draw */
        swap_d(a, i - 1, il_rng_below_mul(&l, (uint32_t)i));
    /* Positions i - 1 and i - 2 (bounds i and i - 1): r i = j1 2^32 + l1,
     * l1 (i - 1) = j2 2^32 + l2, so that r p = (j1 (i - 1) + j2) 2^32 + l2
     * with p = i (i - 1): Lemire's draw below p, whose exact rejection
     * (l2 below 2^32 mod p) makes j1 (i - 1) + j2 uniform below p, so j1
     * and j2 uniform and independent. */
    for (; i > 2; i -= 2) {
        if (next && (i & 7) == 0 && q < n) { /* a line of next each 8 values */
            __builtin_prefetch(next + q, 1);
            q += 8;
        }
        uint32_t n1 = (uint32_t)i, n2 = (uint32_t)(i - 1), p = n1 * n2;
        uint64_t m1, m2;
        for (;;) {
            m1 = (uint64_t)il_rng_next(&l) * n1;
            m2 = (uint64_t)(uint32_t)m1 * n2;
            if ((uint32_t)m2 >= p || (uint32_t)m2 >= (0u - p) % p)
                break;
        }
        swap_d(a, i - 1, (size_t)(m1 >> 32));
        swap_d(a, i - 2, (size_t)(m2 >> 32));
    }
    if (i == 2)
        swap_d(a, 1, il_rng_below_mul(&l, 2));
    *g = l;
}
