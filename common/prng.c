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

void
il_rng_shuffle_double_magic(struct il_rng *g, double *a, size_t n, const uint64_t *m)
{
    struct il_rng l = *g; /* as shuffle()'s */
    for (size_t i = n; i > 1; i--) {
        size_t j = il_rng_below_magic(&l, (uint32_t)i, m[i]);
        double t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
    *g = l;
}

void
il_rng_magics(uint64_t *m, size_t n)
{
    m[0] = 0;
    for (size_t i = 1; i <= n; i++)
        m[i] = il_rng_magic((uint32_t)i);
}
