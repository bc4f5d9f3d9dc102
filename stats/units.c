/*
 * units.c: a group's runs split into the units of the design: the values
 * of one label (setups), or the cells of two crossed labels.  Units come
 * in natural order of their label values, their runs in input order.
 */
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

static const struct il_data *sort_d;

struct ur {
    uint32_t a, b;
    size_t i; /* position in the group */
};

static int
cmp_ur(const void *pa, const void *pb)
{
    const struct ur *x = pa, *y = pb;
    if (x->a != y->a) {
        int c = il_natcmp(il_str(&sort_d->st, x->a), il_str(&sort_d->st, y->a));
        return c ? c : (x->a < y->a ? -1 : 1);
    }
    if (x->b != y->b) {
        int c = il_natcmp(il_str(&sort_d->st, x->b), il_str(&sort_d->st, y->b));
        return c ? c : (x->b < y->b ? -1 : 1);
    }
    return (x->i > y->i) - (x->i < y->i);
}

void
il_units_build(struct il_data *d, const struct il_group *g, enum il_dkind kind, const size_t *slot,
               const struct il_estimator *e, struct il_units *u)
{
    memset(u, 0, sizeof *u);
    size_t n = g->n;
    struct ur *t = il_xcalloc(n, sizeof *t);
    for (size_t i = 0; i < n; i++) {
        t[i].a = d->lab[g->rec[i] * d->nslots + slot[0]];
        t[i].b = kind == IL_D_CROSSED ? d->lab[g->rec[i] * d->nslots + slot[1]] : 0;
        t[i].i = i;
    }
    sort_d = d;
    qsort(t, n, sizeof *t, cmp_ur);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += i == 0 || t[i].a != t[i - 1].a || t[i].b != t[i - 1].b;
    u->k = k;
    u->id = il_xcalloc(k, sizeof *u->id);
    u->fa = il_xcalloc(k, sizeof *u->fa);
    u->fb = il_xcalloc(k, sizeof *u->fb);
    u->off = il_xcalloc(k, sizeof *u->off);
    u->n = il_xcalloc(k, sizeof *u->n);
    u->x = il_xcalloc(n, sizeof *u->x);
    u->mean = il_xcalloc(k, sizeof *u->mean);
    u->est = il_xcalloc(k, sizeof *u->est);
    double *scratch = il_xcalloc(n, sizeof *scratch);
    size_t rs = il_data_slot(d, IL_L_REP);
    if (rs != SIZE_MAX && d->present[rs])
        u->blk = il_xcalloc(n, sizeof *u->blk);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && t[i].a == t[i - 1].a && t[i].b == t[i - 1].b) {
            u->n[j - 1]++;
        } else {
            u->fa[j] = t[i].a;
            u->fb[j] = t[i].b;
            u->off[j] = i;
            u->n[j++] = 1;
        }
        u->x[i] = g->x[t[i].i];
        if (u->blk)
            u->blk[i] = d->lab[g->rec[t[i].i] * d->nslots + rs];
    }
    for (j = 0; j < k; j++) {
        const double *x = u->x + u->off[j];
        u->mean[j] = il_mean(x, u->n[j]);
        u->est[j] = il_estimate(e, x, u->n[j], scratch);
        if (kind == IL_D_CROSSED) {
            /* A cell's name: both values, "64/r07". */
            const char *a = il_str(&d->st, u->fa[j]), *b = il_str(&d->st, u->fb[j]);
            size_t la = strlen(a), lb = strlen(b);
            char *s = il_xcalloc(la + lb + 2, 1);
            memcpy(s, a, la);
            s[la] = '/';
            memcpy(s + la + 1, b, lb);
            u->id[j] = il_strtab_intern(&d->st, s, la + lb + 1);
            free(s);
        } else {
            u->id[j] = u->fa[j];
        }
    }
    free(scratch);
    free(t);
}

void
il_units_free(struct il_units *u)
{
    free(u->id);
    free(u->fa);
    free(u->fb);
    free(u->blk);
    free(u->off);
    free(u->n);
    free(u->x);
    free(u->mean);
    free(u->est);
    memset(u, 0, sizeof *u);
}
