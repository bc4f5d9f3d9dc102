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
static const struct il_group *sort_g;

/* Groups i and j (of sort_g) by key, naturally. */
static int
cmp_group(const void *pa, const void *pb)
{
    const uint32_t *a = sort_g[*(const uint32_t *)pa].key, *b = sort_g[*(const uint32_t *)pb].key;
    for (size_t i = 0; i < sort_nkey; i++) {
        if (a[i] == b[i])
            continue;
        int c = il_natcmp(il_str(&sort_d->st, a[i]), il_str(&sort_d->st, b[i]));
        if (c)
            return c;
        return a[i] < b[i] ? -1 : 1;
    }
    return 0;
}

/* take: d->val, moved into gs (gathered in the groups' order, then freed); NULL:
 * no values */
static void
group_by(const struct il_data *d, const size_t *slots, size_t nkey, double *take,
         struct il_groups *gs)
{
    memset(gs, 0, sizeof *gs);
    gs->nkey = nkey;
    memcpy(gs->slot, slots, nkey * sizeof *slots);
    /* Each group's key is its label ids; usually groups are few. */
    struct il_hset set = {0};
    size_t cap = 16;
    size_t *count = il_xcalloc(cap, sizeof *count);
    uint32_t *gidx = il_xcalloc(d->n ? d->n : 1, sizeof *gidx);
    uint32_t k[IL_MAX_SLOTS];
    size_t ksz = nkey * sizeof *k;
    /* The groups of the last records, most recent first: consecutive
     * records usually share a group, or take turns among a few (a sweep
     * runs every system of a setup in turn). */
    uint32_t recent[4];
    size_t nrecent = 0;
    for (size_t r = 0; r < d->n; r++) {
        for (size_t i = 0; i < nkey; i++)
            k[i] = il_lab(d, r, slots[i]);
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
    /* the groups in natural order of their keys, each one's runs at
     * off[g] of the blocks xs and recs, in input order */
    struct il_group *tmp = il_xcalloc(ng ? ng : 1, sizeof *tmp);
    uint32_t *ord = il_xcalloc(ng ? ng : 1, sizeof *ord);
    for (size_t g = 0; g < ng; g++) {
        tmp[g].key = il_xcalloc(nkey ? nkey : 1, sizeof *tmp[g].key);
        memcpy(tmp[g].key, set.key[g], ksz);
        tmp[g].n = count[g];
        ord[g] = (uint32_t)g;
    }
    il_hset_free(&set);
    sort_d = d;
    sort_nkey = nkey;
    sort_g = tmp;
    qsort(ord, ng, sizeof *ord, cmp_group);
    gs->g = il_xcalloc(ng ? ng : 1, sizeof *gs->g);
    size_t off = 0;
    for (size_t i = 0; i < ng; i++) {
        gs->g[i] = tmp[ord[i]];
        count[ord[i]] = off; /* now where the group's runs start */
        off += gs->g[i].n;
    }
    free(tmp);
    free(ord);
    gs->recs = il_xcalloc(d->n ? d->n : 1, sizeof *gs->recs);
    for (size_t r = 0; r < d->n; r++)
        gs->recs[count[gidx[r]]++] = (uint32_t)r; /* the record's place */
    free(count);
    free(gidx);
    if (take) {
        /* the values gathered in the groups' order: read and written a
         * group at a time (following the permutation's cycles in place
         * missed the cache at every step) */
        gs->xs = il_xmalloc((d->n ? d->n : 1) * sizeof *gs->xs);
        for (size_t i = 0; i < d->n; i++)
            gs->xs[i] = take[gs->recs[i]];
        free(take);
    }
    off = 0;
    for (size_t i = 0; i < ng; i++) {
        gs->g[i].x = gs->xs ? gs->xs + off : NULL;
        gs->g[i].rec = gs->recs + off;
        off += gs->g[i].n;
    }
}

int
il_group_by(const struct il_data *d, const size_t *slots, size_t nkey, struct il_groups *gs)
{
    group_by(d, slots, nkey, NULL, gs);
    return 0;
}

void
il_group_by_take(struct il_data *d, const size_t *slots, size_t nkey, struct il_groups *gs)
{
    group_by(d, slots, nkey, d->val, gs);
    d->val = NULL;
}

void
il_groups_free(struct il_groups *gs)
{
    for (size_t g = 0; g < gs->ng; g++)
        free(gs->g[g].key);
    free(gs->g);
    free(gs->xs);
    free(gs->recs);
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
