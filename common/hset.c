/*
 * hset.c: the one hash set (il_hset.h).
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "il_hset.h"
#include "il_xalloc.h"

uint64_t
il_fnv1a(const void *k, size_t n)
{
    const unsigned char *p = k;
    uint64_t h = 14695981039346656037ULL; /* the FNV offset basis */
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The slot of the key K (hash H), or of the free slot where it would go. */
static size_t
probe(const struct il_hset *s, const void *k, size_t n, uint64_t h)
{
    size_t mask = s->nslot - 1, i = (size_t)h & mask;
    for (uint32_t id; (id = s->slot[i]) != IL_HSET_NONE; i = (i + 1) & mask)
        if (s->hash[id] == h && s->len[id] == n && memcmp(s->key[id], k, n) == 0)
            break;
    return i;
}

static void
grow_table(struct il_hset *s)
{
    s->nslot = s->nslot ? 2 * s->nslot : 64;
    free(s->slot);
    s->slot = il_xmalloc(s->nslot * sizeof *s->slot);
    memset(s->slot, 0xFF, s->nslot * sizeof *s->slot);
    size_t mask = s->nslot - 1;
    for (size_t id = 0; id < s->n; id++) {
        size_t i = (size_t)s->hash[id] & mask;
        while (s->slot[i] != IL_HSET_NONE)
            i = (i + 1) & mask;
        s->slot[i] = (uint32_t)id;
    }
}

uint32_t
il_hset_find(const struct il_hset *s, const void *k, size_t n)
{
    if (!s->nslot)
        return IL_HSET_NONE;
    return s->slot[probe(s, k, n, il_fnv1a(k, n))];
}

uint32_t
il_hset_add(struct il_hset *s, const void *k, size_t n, int *added)
{
    if (2 * (s->n + 1) > s->nslot)
        grow_table(s);
    uint64_t h = il_fnv1a(k, n);
    size_t i = probe(s, k, n, h);
    if (added)
        *added = s->slot[i] == IL_HSET_NONE;
    if (s->slot[i] != IL_HSET_NONE)
        return s->slot[i];
    if (s->n >= IL_HSET_NONE - 1)
        errx(1, "more than 4 billion distinct keys in one set");
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->key = il_xrealloc(s->key, s->cap * sizeof *s->key);
        s->len = il_xrealloc(s->len, s->cap * sizeof *s->len);
        s->hash = il_xrealloc(s->hash, s->cap * sizeof *s->hash);
    }
    uint32_t id = (uint32_t)s->n++;
    s->key[id] = il_xmalloc(n + 1);
    memcpy(s->key[id], k, n);
    s->key[id][n] = 0;
    s->len[id] = n;
    s->hash[id] = h;
    s->slot[i] = id;
    return id;
}

void
il_hset_free(struct il_hset *s)
{
    for (size_t id = 0; id < s->n; id++)
        free(s->key[id]);
    free(s->key);
    free(s->len);
    free(s->hash);
    free(s->slot);
    memset(s, 0, sizeof *s);
}
