/*
 * order.h: interloper link's orders, from the one generator (il_prng.h).
 * Mytkowicz et al. (ASPLOS'09, section 4.1.1): the build's order, the
 * alphabetical order, then random orders.
 */
#ifndef IL_ORDER_H
#define IL_ORDER_H

#include <stddef.h>
#include <stdint.h>

struct il_orders {
    size_t n, k;       /* objects, orders */
    uint32_t *p;       /* order j: p[j*n .. j*n+n-1], object indices from 0 */
    const char **kind; /* per order: IL_KIND_ORIGINAL, _ALPHABETICAL, _RANDOM */
    int same01;        /* the alphabetical order is the original order */
};

/* K orders of the N objects NAMES: order 0 the original, 1 the
 * alphabetical (byte order of the names, equal names keeping their
 * places), then Fisher-Yates shuffles of the alphabetical order on stream 0
 * of SEED, each redrawn while it equals an earlier order.  Returns 0, or
 * -1 when fewer than K distinct orders exist: *FACT is then N! (or the
 * first factorial past 10^8) and *MAXK the largest K that may be asked. */
int il_orders_make(char *const *names, size_t n, size_t k, uint32_t seed, struct il_orders *o,
                   uint64_t *fact, uint64_t *maxk);
void il_orders_free(struct il_orders *o);

static inline const uint32_t *
il_order(const struct il_orders *o, size_t j)
{
    return o->p + j * o->n;
}

/* Function orders of binary K (>= 2): the functions of each object (NFN[i]
 * of them, sorted by name), shuffled on stream K of SEED, objects taken in
 * the alphabetical order ALPHA so that the draws do not depend on the
 * binary's object order.  PERM[i] (NFN[i] entries) receives object i's
 * order. */
void il_functions_shuffle(uint32_t seed, uint32_t k, const uint32_t *alpha, size_t n,
                          const size_t *nfn, uint32_t **perm);

#endif
