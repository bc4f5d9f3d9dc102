/*
 * group.c: split records into groups by label values (--by), each holding
 * its values in input order (the run sequence the diagnostics need).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

static uint64_t
key_hash(const uint32_t *k, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= k[i];
        h *= 1099511628211ULL;
        h ^= h >> 29;
    }
    return h;
}

static const struct il_data *sort_d;
static size_t sort_nkey;

static int
cmp_group(const void *pa, const void *pb)
{
    const struct il_group *a = pa, *b = pb;
    for (size_t i = 0; i < sort_nkey; i++) {
        if (a->key[i] == b->key[i])
            continue;
        int c = il_natcmp(il_str(&sort_d->st, a->key[i]), il_str(&sort_d->st, b->key[i]));
        if (c)
            return c;
        return a->key[i] < b->key[i] ? -1 : 1;
    }
    return 0;
}

int
il_group_by(const struct il_data *d, const size_t *slots, size_t nkey, struct il_groups *gs)
{
    memset(gs, 0, sizeof *gs);
    gs->nkey = nkey;
    memcpy(gs->slot, slots, nkey * sizeof *slots);
    /* The table grows as groups appear; usually groups are few. */
    size_t nslot = 1024, cap = 16, ng = 0;
    size_t *table = malloc(nslot * sizeof *table);
    uint32_t *keys = il_xcalloc(cap * (nkey ? nkey : 1), sizeof *keys);
    size_t *count = il_xcalloc(cap, sizeof *count);
    uint32_t *gidx = il_xcalloc(d->n, sizeof *gidx);
    uint32_t k[IL_MAX_SLOTS];
    if (!table)
        err(1, "out of memory");
    memset(table, 0xFF, nslot * sizeof *table);
    for (size_t r = 0; r < d->n; r++) {
        for (size_t i = 0; i < nkey; i++)
            k[i] = d->lab[r * d->nslots + slots[i]];
        /* Consecutive records usually share a group. */
        if (r > 0 && nkey && memcmp(keys + gidx[r - 1] * nkey, k, nkey * sizeof *k) == 0) {
            gidx[r] = gidx[r - 1];
            count[gidx[r]]++;
            continue;
        }
        size_t h = key_hash(k, nkey) & (nslot - 1), g;
        while ((g = table[h]) != SIZE_MAX && memcmp(keys + g * nkey, k, nkey * sizeof *k) != 0)
            h = (h + 1) & (nslot - 1);
        if (g == SIZE_MAX) {
            if (ng == cap) {
                cap *= 2;
                keys = realloc(keys, cap * (nkey ? nkey : 1) * sizeof *keys);
                count = realloc(count, cap * sizeof *count);
                if (!keys || !count)
                    err(1, "out of memory");
            }
            g = ng++;
            memcpy(keys + g * nkey, k, nkey * sizeof *k);
            count[g] = 0;
            table[h] = g;
            if (2 * ng > nslot) {
                nslot *= 2;
                table = realloc(table, nslot * sizeof *table);
                if (!table)
                    err(1, "out of memory");
                memset(table, 0xFF, nslot * sizeof *table);
                for (size_t j = 0; j < ng; j++) {
                    size_t hh = key_hash(keys + j * nkey, nkey) & (nslot - 1);
                    while (table[hh] != SIZE_MAX)
                        hh = (hh + 1) & (nslot - 1);
                    table[hh] = j;
                }
            }
        }
        gidx[r] = (uint32_t)g;
        count[g]++;
    }
    gs->ng = ng;
    gs->g = il_xcalloc(ng, sizeof *gs->g);
    for (size_t g = 0; g < ng; g++) {
        gs->g[g].key = il_xcalloc(nkey ? nkey : 1, sizeof *gs->g[g].key);
        memcpy(gs->g[g].key, keys + g * nkey, nkey * sizeof *keys);
        gs->g[g].x = il_xcalloc(count[g], sizeof *gs->g[g].x);
        gs->g[g].rec = il_xcalloc(count[g], sizeof *gs->g[g].rec);
    }
    for (size_t r = 0; r < d->n; r++) {
        struct il_group *g = &gs->g[gidx[r]];
        g->x[g->n] = d->val[r];
        g->rec[g->n++] = r;
    }
    free(table);
    free(keys);
    free(count);
    free(gidx);
    sort_d = d;
    sort_nkey = nkey;
    qsort(gs->g, ng, sizeof *gs->g, cmp_group);
    return 0;
}

void
il_groups_free(struct il_groups *gs)
{
    for (size_t g = 0; g < gs->ng; g++) {
        free(gs->g[g].key);
        free(gs->g[g].x);
        free(gs->g[g].rec);
    }
    free(gs->g);
    memset(gs, 0, sizeof *gs);
}

char *
il_group_name(const struct il_data *d, const struct il_groups *gs, const uint32_t *key,
              const char *sep, size_t skip)
{
    size_t len = 8, o = 0;
    for (size_t i = 0; i < gs->nkey; i++)
        len += strlen(d->slot_name[gs->slot[i]]) + strlen(il_str(&d->st, key[i])) + strlen(sep) + 2;
    char *s = il_xcalloc(len, 1);
    for (size_t i = 0; i < gs->nkey; i++) {
        if (i == skip)
            continue;
        o += (size_t)snprintf(s + o, len - o, "%s%s=%s", o ? sep : "", d->slot_name[gs->slot[i]],
                              il_str(&d->st, key[i]));
    }
    if (o == 0)
        snprintf(s, len, "all");
    return s;
}

long
il_group_find(const struct il_groups *gs, const uint32_t *key, size_t pos, uint32_t id)
{
    for (size_t g = 0; g < gs->ng; g++) {
        const uint32_t *k = gs->g[g].key;
        size_t i;
        for (i = 0; i < gs->nkey; i++)
            if (k[i] != (i == pos ? id : key[i]))
                break;
        if (i == gs->nkey)
            return (long)g;
    }
    return -1;
}
