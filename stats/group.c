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

/* Records [from, to) of one part of group_by: each record's group in the
 * part's own set of keys (gidx), each group's count; then, from pos (the
 * groups' places in recs, in the part's ids), each record's place. */
struct gb_part {
    const struct il_data *d;
    const size_t *slots;
    size_t nkey, from, to;
    struct il_hset set;
    size_t *count, cap;
    uint32_t *gidx; /* the whole array; the part writes [from, to) */
    uint32_t *recs; /* the same */
    size_t *pos;    /* the part's id -> the next place of its group */
};

/* Key bytes a (of a set) the same as the nkey ids k: a call of memcmp a
 * record cost more than the compares. */
static int
same_key(const char *a, const uint32_t *k, size_t nkey)
{
    for (size_t i = 0; i < nkey; i++) {
        uint32_t v;
        memcpy(&v, a + i * sizeof v, sizeof v);
        if (v != k[i])
            return 0;
    }
    return 1;
}

static void *
gb_scan(void *arg)
{
    struct gb_part *p = arg;
    const struct il_data *d = p->d;
    uint32_t k[IL_MAX_SLOTS];
    size_t ksz = p->nkey * sizeof *k;
    p->cap = 16;
    p->count = il_xcalloc(p->cap, sizeof *p->count);
    /* The groups of the last records, most recent first: consecutive
     * records usually share a group, or take turns among a few (a sweep
     * runs every system of a setup in turn). */
    uint32_t recent[4];
    size_t nrecent = 0;
    for (size_t r = p->from; r < p->to; r++) {
        for (size_t i = 0; i < p->nkey; i++)
            k[i] = il_lab(d, r, p->slots[i]);
        uint32_t g = IL_HSET_NONE;
        size_t j = 0;
        while (j < nrecent && !same_key(p->set.key[recent[j]], k, p->nkey))
            j++;
        if (j < nrecent) {
            g = recent[j];
        } else {
            g = il_hset_add(&p->set, k, ksz, NULL);
            j = nrecent < 4 ? nrecent++ : 3;
        }
        memmove(recent + 1, recent, j * sizeof *recent);
        recent[0] = g;
        if (g == p->cap) {
            p->cap *= 2;
            p->count = il_xrealloc(p->count, p->cap * sizeof *p->count);
            memset(p->count + g, 0, (p->cap - g) * sizeof *p->count);
        }
        p->gidx[r] = g;
        p->count[g]++;
    }
    return NULL;
}

static void *
gb_place(void *arg)
{
    struct gb_part *p = arg;
    for (size_t r = p->from; r < p->to; r++)
        p->recs[p->pos[p->gidx[r]]++] = (uint32_t)r; /* the record's place */
    return NULL;
}

/* Work that two threads share a chunk at a time, each taking the next
 * (next, atomic) until none is left, rather than a half each: a new page
 * costs much more where the kernel, or the host of a virtual machine,
 * must first find or give the memory (on this project's VM a huge page
 * the host had taken back cost 2.1 ms a MiB at its first touch, one
 * reused 0.05 ms), and such pages fall unevenly on two halves (at ten
 * million records one thread's half of the gathering took 99 ms, the
 * other's 8 ms). */
struct gb_shared {
    size_t next, n;
    /* IL_GB_TOUCH: the zeroed blocks a and b, na and n - na bytes */
    char *a, *b;
    size_t na;
    /* IL_GB_GATHER: the values gathered in the groups' order, xs[i] =
     * take[recs[i]], n of them */
    double *xs;
    const double *take;
    const uint32_t *recs;
};

/* Bytes of the blocks touched at a time: a huge page (il_huge). */
#define IL_GB_TOUCH (2 * 1024 * 1024)
/* Values gathered at a time. */
#define IL_GB_GATHER (64 * 1024)

/* Each page of the zeroed blocks written (a zero), so that it is the
 * process's before the passes that write it a half each. */
static void *
gb_touch(void *arg)
{
    struct gb_shared *p = arg;
    size_t c, page = 4096;
    while ((c = __atomic_fetch_add(&p->next, IL_GB_TOUCH, __ATOMIC_RELAXED)) < p->n) {
        size_t e = c + IL_GB_TOUCH < p->n ? c + IL_GB_TOUCH : p->n;
        for (size_t i = c; i < e; i += page) {
            volatile char *b = i < p->na ? p->a + i : p->b + (i - p->na);
            *b = 0;
        }
    }
    return NULL;
}

static void *
gb_gather(void *arg)
{
    struct gb_shared *p = arg;
    size_t c;
    while ((c = __atomic_fetch_add(&p->next, IL_GB_GATHER, __ATOMIC_RELAXED)) < p->n) {
        size_t e = c + IL_GB_GATHER < p->n ? c + IL_GB_GATHER : p->n;
        for (size_t i = c; i < e; i++)
            p->xs[i] = p->take[p->recs[i]];
    }
    return NULL;
}

/* Records from which group_by splits its passes over the records between
 * two threads. */
#define IL_GROUP_SPLIT 100000

/* take: d->val, moved into gs (gathered in the groups' order, its room then gs->spare); NULL:
 * no values.  With many records and two CPUs, each pass over the records
 * runs on two threads: the scan and the placing one a half (the second
 * half's groups are found in a set of its own and mapped to the first's
 * after, and its records placed after the first half's in each group, so
 * the groups, their order and their runs' order are one thread's), the
 * first touch of the new arrays and the gathering of the values a chunk at
 * a time by whichever thread is free. */
static void
group_by(const struct il_data *d, const size_t *slots, size_t nkey, double *take,
         struct il_groups *gs)
{
    memset(gs, 0, sizeof *gs);
    gs->nkey = nkey;
    memcpy(gs->slot, slots, nkey * sizeof *slots);
    size_t ksz = nkey * sizeof(uint32_t);
    size_t n = d->n;
    int two = n >= IL_GROUP_SPLIT && il_two_cpus();
    /* With values, gidx is the start of the block that the gathering
     * fills after the placing (xs): all of its pages are touched with
     * recs's here, and none is new after */
    size_t xsz = take ? sizeof *gs->xs : sizeof(uint32_t);
    char *block = il_xcalloc_huge(n, xsz);
    uint32_t *gidx = (uint32_t *)block;
    gs->recs = il_xcalloc_huge(n, sizeof *gs->recs);
    struct gb_shared touch = {0, n * (xsz + sizeof *gs->recs), block, (char *)gs->recs, n * xsz};
    if (two)
        il_both(gb_touch, &touch, &touch, 1);
    struct gb_part part[2];
    memset(part, 0, sizeof part);
    for (int h = 0; h < 2; h++) {
        part[h].d = d;
        part[h].slots = slots;
        part[h].nkey = nkey;
        part[h].gidx = gidx;
    }
    part[0].to = part[1].from = two ? n / 2 : n;
    part[1].to = n;
    il_both(gb_scan, &part[0], &part[1], two);
    /* The second half's groups as the first's ids (new ones after its). */
    struct il_hset *set = &part[0].set;
    size_t n0 = set->n; /* the first half's groups (the set grows below) */
    uint32_t *map = il_xcalloc(part[1].set.n ? part[1].set.n : 1, sizeof *map);
    for (size_t g = 0; g < part[1].set.n; g++)
        map[g] = il_hset_add(set, part[1].set.key[g], ksz, NULL);
    size_t ng = set->n;
    gs->ng = ng;
    size_t *count = il_xcalloc(ng ? ng : 1, sizeof *count);
    memcpy(count, part[0].count, n0 * sizeof *count);
    for (size_t g = 0; g < part[1].set.n; g++)
        count[map[g]] += part[1].count[g];
    /* the groups in natural order of their keys, each one's runs at
     * off[g] of the blocks xs and recs, in input order */
    struct il_group *tmp = il_xcalloc(ng ? ng : 1, sizeof *tmp);
    uint32_t *ord = il_xcalloc(ng ? ng : 1, sizeof *ord);
    for (size_t g = 0; g < ng; g++) {
        tmp[g].key = il_xcalloc(nkey ? nkey : 1, sizeof *tmp[g].key);
        memcpy(tmp[g].key, set->key[g], ksz);
        tmp[g].n = count[g];
        ord[g] = (uint32_t)g;
    }
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
    /* the first half's records at each group's start, the second's after
     * them (in the second half's ids) */
    size_t *pos1 = il_xcalloc(part[1].set.n ? part[1].set.n : 1, sizeof *pos1);
    for (size_t g = 0; g < part[1].set.n; g++)
        pos1[g] = count[map[g]] + (map[g] < n0 ? part[0].count[map[g]] : 0);
    part[0].pos = count;
    part[1].pos = pos1;
    part[0].recs = part[1].recs = gs->recs;
    il_both(gb_place, &part[0], &part[1], two);
    free(pos1);
    free(map);
    free(count);
    for (int h = 0; h < 2; h++) {
        il_hset_free(&part[h].set);
        free(part[h].count);
    }
    if (take) {
        /* the values gathered in the groups' order: read and written a
         * group at a time (following the permutation's cycles in place
         * missed the cache at every step) */
        gs->xs = (double *)block; /* gidx is read no more */
        struct gb_shared ga = {0, n};
        ga.xs = gs->xs;
        ga.take = take;
        ga.recs = gs->recs;
        il_both(gb_gather, &ga, &ga, two);
        gs->spare = take; /* the caller's scratch, or freed with gs */
        gs->nspare = n;
    } else {
        free(block);
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
    free(gs->spare);
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
