/*
 * group.c: split records into groups by label values (--by), each holding
 * its values in input order (the run sequence the diagnostics need).
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

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
    /* Each group's key is its label ids; usually groups are few. */
    struct il_hset set = {0};
    size_t cap = 16;
    size_t *count = il_xcalloc(cap, sizeof *count);
    uint32_t *gidx = il_xcalloc(d->n, sizeof *gidx);
    uint32_t k[IL_MAX_SLOTS];
    size_t ksz = nkey * sizeof *k;
    /* The groups of the last records, most recent first: consecutive
     * records usually share a group, or take turns among a few (a sweep
     * runs every system of a setup in turn). */
    uint32_t recent[4];
    size_t nrecent = 0;
    for (size_t r = 0; r < d->n; r++) {
        for (size_t i = 0; i < nkey; i++)
            k[i] = d->lab[r * d->nslots + slots[i]];
        uint32_t g = IL_HSET_NONE;
        size_t j = 0;
        while (j < nrecent && memcmp(set.key[recent[j]], k, ksz) != 0)
            j++;
        if (j < nrecent) {
            g = recent[j];
        } else {
            g = il_hset_add(&set, k, ksz, NULL);
            j = nrecent < 4 ? nrecent++ : 3;
        }
        memmove(recent + 1, recent, j * sizeof *recent);
        recent[0] = g;
        if (g == cap) {
            cap *= 2;
            count = il_xrealloc(count, cap * sizeof *count);
            memset(count + g, 0, (cap - g) * sizeof *count);
        }
        gidx[r] = g;
        count[g]++;
    }
    size_t ng = set.n;
    gs->ng = ng;
    gs->g = il_xcalloc(ng, sizeof *gs->g);
    for (size_t g = 0; g < ng; g++) {
        gs->g[g].key = il_xcalloc(nkey ? nkey : 1, sizeof *gs->g[g].key);
        memcpy(gs->g[g].key, set.key[g], ksz);
        gs->g[g].x = il_xcalloc(count[g], sizeof *gs->g[g].x);
        gs->g[g].rec = il_xcalloc(count[g], sizeof *gs->g[g].rec);
    }
    for (size_t r = 0; r < d->n; r++) {
        struct il_group *g = &gs->g[gidx[r]];
        g->x[g->n] = d->val[r];
        g->rec[g->n++] = r;
    }
    il_hset_free(&set);
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
