/*
 * strtab.c: interned label values.  A million records carry a few thousand
 * distinct label values; each record keeps 32-bit ids: 0 for a missing
 * label, then one more than the value's id in the set (il_hset.h).
 */
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

void
il_strtab_init(struct il_strtab *t)
{
    memset(t, 0, sizeof *t);
    t->n = 1;
}

void
il_strtab_free(struct il_strtab *t)
{
    il_hset_free(&t->set);
    memset(t, 0, sizeof *t);
}

uint32_t
il_strtab_intern(struct il_strtab *t, const char *s, size_t n)
{
    uint32_t id = il_hset_add(&t->set, s, n, NULL) + 1;
    t->n = (uint32_t)t->set.n + 1;
    return id;
}

uint32_t
il_strtab_find(const struct il_strtab *t, const char *s)
{
    uint32_t id = il_hset_find(&t->set, s, strlen(s));
    return id == IL_HSET_NONE ? UINT32_MAX : id + 1;
}

const char *
il_str(const struct il_strtab *t, uint32_t id)
{
    return id && id < t->n ? t->set.key[id - 1] : "(none)";
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
