/*
 * order.c: interloper link's object and function orders (order.h).  The
 * algorithm is documented in interloper-link(1), "The generator", and
 * recomputed independently by tests/link/prng_ref.py.
 */
#include <stdlib.h>
#include <string.h>

#include "il_hset.h"
#include "il_names.h"
#include "il_prng.h"
#include "linkcmd.h"
#include "order.h"

static char *const *sort_names;

static int
by_name(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(sort_names[x], sort_names[y]); /* bytes, as LC_ALL=C */
    return c ? c : (x > y) - (x < y);
}

/* Is order J equal to an earlier one?  If not, remember it. */
static int
seen_add(struct il_hset *seen, const struct il_orders *o, size_t j)
{
    int added;
    il_hset_add(seen, il_order(o, j), o->n * sizeof *o->p, &added);
    return !added;
}

int
il_orders_make(char *const *names, size_t n, size_t k, uint32_t seed, struct il_orders *o,
               uint64_t *factp, uint64_t *maxk)
{
    memset(o, 0, sizeof *o);
    o->n = n;
    o->k = k;
    o->p = il_xmalloc(k * n * sizeof *o->p);
    o->kind = il_xmalloc(k * sizeof *o->kind);
    uint32_t *alpha = il_xmalloc(n * sizeof *alpha);
    for (size_t i = 0; i < n; i++)
        alpha[i] = (uint32_t)i;
    sort_names = names;
    qsort(alpha, n, sizeof *alpha, by_name);

    /* How many distinct orders exist, capped (n! stops growing at 1e8). */
    uint64_t fact = 1;
    for (uint64_t i = 1; i < n && fact < 100000000; i++)
        fact *= i + 1;

    struct il_hset seen = {0};

    for (size_t i = 0; i < n; i++)
        o->p[i] = (uint32_t)i;
    o->kind[0] = IL_KIND_ORIGINAL;
    seen_add(&seen, o, 0);
    uint64_t ndist = 1;
    if (k >= 2) {
        memcpy(o->p + n, alpha, n * sizeof *alpha);
        o->kind[1] = IL_KIND_ALPHABETICAL;
        o->same01 = seen_add(&seen, o, 1);
        ndist += !o->same01;
    }
    if (k > 2 && k - 2 > fact - ndist) {
        *factp = fact;
        *maxk = fact - ndist + 2;
        free(alpha);
        il_hset_free(&seen);
        il_orders_free(o);
        return -1;
    }
    struct il_rng g;
    il_rng_init(&g, seed, 0);
    for (size_t j = 2; j < k; j++) {
        uint32_t *p = o->p + j * n;
        do {
            memcpy(p, alpha, n * sizeof *alpha);
            il_rng_shuffle(&g, p, n);
        } while (seen_add(&seen, o, j));
        o->kind[j] = IL_KIND_RANDOM;
    }
    free(alpha);
    il_hset_free(&seen);
    return 0;
}

void
il_orders_free(struct il_orders *o)
{
    free(o->p);
    free(o->kind);
    memset(o, 0, sizeof *o);
}

void
il_functions_shuffle(uint32_t seed, uint32_t k, const uint32_t *alpha, size_t n, const size_t *nfn,
                     uint32_t **perm)
{
    struct il_rng g;
    il_rng_init(&g, seed, k);
    for (size_t a = 0; a < n; a++) {
        uint32_t i = alpha[a];
        for (size_t f = 0; f < nfn[i]; f++)
            perm[i][f] = (uint32_t)f;
        il_rng_shuffle(&g, perm[i], nfn[i]);
    }
}
