/*
 * strtab.c: interned label values.  A million records carry a few thousand
 * distinct label values; each record keeps 32-bit ids.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

static uint64_t
fnv1a(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static void
rehash(struct il_strtab *t, size_t nslot)
{
    free(t->slot);
    t->slot = il_xrealloc(NULL, nslot * sizeof *t->slot);
    memset(t->slot, 0xFF, nslot * sizeof *t->slot);
    t->nslot = nslot;
    for (uint32_t id = 0; id < t->n; id++) {
        size_t i = t->hash[id] & (nslot - 1);
        while (t->slot[i] != UINT32_MAX)
            i = (i + 1) & (nslot - 1);
        t->slot[i] = id;
    }
}

void
il_strtab_init(struct il_strtab *t)
{
    memset(t, 0, sizeof *t);
    t->cap = 64;
    t->str = il_xrealloc(NULL, t->cap * sizeof *t->str);
    t->hash = il_xrealloc(NULL, t->cap * sizeof *t->hash);
    t->str[0] = strdup("(none)");
    if (!t->str[0])
        err(1, "out of memory");
    t->hash[0] = 0; /* never matched: lookups compare strings too */
    t->n = 1;
    rehash(t, 128);
}

void
il_strtab_free(struct il_strtab *t)
{
    for (uint32_t i = 0; i < t->n; i++)
        free(t->str[i]);
    free(t->str);
    free(t->hash);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

uint32_t
il_strtab_intern(struct il_strtab *t, const char *s, size_t n)
{
    uint64_t h = fnv1a(s, n);
    size_t i = h & (t->nslot - 1);
    for (uint32_t id; (id = t->slot[i]) != UINT32_MAX; i = (i + 1) & (t->nslot - 1))
        if (id != 0 && t->hash[id] == h && strncmp(t->str[id], s, n) == 0 && t->str[id][n] == '\0')
            return id;
    if (t->n == UINT32_MAX - 1)
        errx(1, "more than 4 billion distinct label values");
    if (t->n == t->cap) {
        t->cap *= 2;
        t->str = il_xrealloc(t->str, t->cap * sizeof *t->str);
        t->hash = il_xrealloc(t->hash, t->cap * sizeof *t->hash);
    }
    uint32_t id = t->n++;
    t->str[id] = il_xrealloc(NULL, n + 1);
    memcpy(t->str[id], s, n);
    t->str[id][n] = '\0';
    t->hash[id] = h;
    if (2 * (size_t)t->n > t->nslot) {
        rehash(t, t->nslot * 2);
    } else {
        t->slot[i] = id;
    }
    return id;
}

uint32_t
il_strtab_find(const struct il_strtab *t, const char *s)
{
    size_t n = strlen(s);
    uint64_t h = fnv1a(s, n);
    size_t i = h & (t->nslot - 1);
    for (uint32_t id; (id = t->slot[i]) != UINT32_MAX; i = (i + 1) & (t->nslot - 1))
        if (id != 0 && t->hash[id] == h && strcmp(t->str[id], s) == 0)
            return id;
    return UINT32_MAX;
}

const char *
il_str(const struct il_strtab *t, uint32_t id)
{
    return id < t->n ? t->str[id] : "(none)";
}

static int
numeric(const char *s, double *v)
{
    char *end;
    if (!*s)
        return 0;
    *v = strtod(s, &end);
    return *end == '\0';
}

int
il_natcmp(const char *a, const char *b)
{
    double x, y;
    if (numeric(a, &x) && numeric(b, &y) && x != y)
        return x < y ? -1 : 1;
    return strcmp(a, b);
}
