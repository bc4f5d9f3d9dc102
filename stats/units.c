/*
 * units.c: a group's runs split into the units of the design: the values
 * of one label (setups), or the cells of two crossed labels.  Units come
 * in natural order of their label values, their runs in input order.
 * Each run keeps its record, its pass (the label --passes names, rep by
 * default: interloper sweep runs every setup once per pass) and its cell:
 * the values of the sweep's factors that vary within a unit (env_add when
 * the units are layouts), so that the permutation tests exchange only
 * what the sweep's randomization exchanged (perm.c).
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

/* The label of the units' design of run i of g: the first label, or the
 * second (crossed only; else 0). */
static uint32_t
run_lab(const struct il_data *d, const struct il_group *g, enum il_dkind kind, const size_t *slot,
        int second, size_t i)
{
    if (second)
        return kind == IL_D_CROSSED ? il_lab(d, g->rec[i], slot[1]) : 0;
    return il_lab(d, g->rec[i], slot[0]);
}

/* Distinct ids of the runs' first label (the second when second), ranked
 * in cmp_ur's order: rank[id] for each, their count in *nd. */
static uint32_t *
rank_ids(const struct il_data *d, const struct il_group *g, enum il_dkind kind, const size_t *slot,
         int second, size_t *nd)
{
    size_t n = g->n;
    uint32_t max = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = run_lab(d, g, kind, slot, second, i);
        max = v > max ? v : max;
    }
    uint32_t *rank = il_xcalloc((size_t)max + 1, sizeof *rank);
    struct ur *ids = il_xcalloc(n < (size_t)max + 1 ? (n ? n : 1) : (size_t)max + 1, sizeof *ids);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t v = run_lab(d, g, kind, slot, second, i);
        if (!rank[v]) {
            rank[v] = 1;
            ids[k].a = v;
            ids[k].b = 0;
            ids[k++].i = 0;
        }
    }
    qsort(ids, k, sizeof *ids, cmp_ur);
    for (size_t j = 0; j < k; j++)
        rank[ids[j].a] = (uint32_t)j;
    free(ids);
    *nd = k;
    return rank;
}

static int
u32cmp(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

/* The pass label's values as 2-byte ranks (il_units' pass16): by the
 * slot's own value index (a column of at most IL_LAB_NARROW values), the
 * rank of the value's string id among the slot's values, IL_MISSING_ID
 * (0) staying 0; NULL when the slot has a column of string ids. */
static uint16_t *
pass_ranks(const struct il_data *d, size_t s)
{
    if (!d->labn[s] && d->labc[s])
        return NULL;
    if (!d->labn[s]) { /* one value for every record */
        uint16_t *rk = il_xcalloc(1, sizeof *rk);
        rk[0] = d->labk[s] != IL_MISSING_ID;
        return rk;
    }
    const struct il_labdict *l = &d->labd[s];
    uint32_t *ids = il_xcalloc(l->n ? l->n : 1, sizeof *ids);
    memcpy(ids, l->v, l->n * sizeof *ids);
    qsort(ids, l->n, sizeof *ids, u32cmp);
    uint16_t *rk = il_xcalloc(l->n ? l->n : 1, sizeof *rk);
    for (size_t j = 0; j < l->n; j++) {
        uint32_t *at = bsearch(&l->v[j], ids, l->n, sizeof *ids, u32cmp);
        /* 1 + the nonzero ids below it; 0 stays 0 */
        rk[j] = (uint16_t)(l->v[j] == IL_MISSING_ID ? 0 : (size_t)(at - ids) + (ids[0] != 0));
    }
    free(ids);
    return rk;
}

/* Run i of g into place p of the units' runs (rk: pass_ranks). */
static void
place(const struct il_data *d, const struct il_group *g, size_t pass_slot, const uint16_t *rk,
      struct il_units *u, size_t i, size_t p)
{
    u->x[p] = g->x[i];
    u->pos[p] = (uint32_t)i;
    if (u->pass16)
        u->pass16[p] = d->labn[pass_slot] ? rk[d->labn[pass_slot][g->rec[i]]] : rk[0];
    else if (u->pass)
        u->pass[p] = il_lab(d, g->rec[i], pass_slot);
}

/* g's runs into the units' order, as qsort with cmp_ur sorts them (a
 * total order), in linear time and without a copy of the runs' keys: the
 * few distinct values ranked once, the runs counted by (rank of a, rank
 * of b), and each put straight into its place, a key's runs in index
 * order.  Crossed labels of many values: the keys sorted.  Returns the
 * number of distinct keys (the units). */
static size_t
place_runs(const struct il_data *d, const struct il_group *g, enum il_dkind kind,
           const size_t *slot, size_t pass_slot, const uint16_t *rk, struct il_units *u)
{
    size_t n = g->n, na, nb;
    uint32_t *ra = rank_ids(d, g, kind, slot, 0, &na), *rb = rank_ids(d, g, kind, slot, 1, &nb);
    size_t nk = na * nb;
    if ((nb && nk / nb != na) || !il_dense(nk, n)) {
        free(ra);
        free(rb);
        struct ur *t = il_xcalloc(n ? n : 1, sizeof *t);
        for (size_t i = 0; i < n; i++) {
            t[i].a = run_lab(d, g, kind, slot, 0, i);
            t[i].b = run_lab(d, g, kind, slot, 1, i);
            t[i].i = i;
        }
        qsort(t, n, sizeof *t, cmp_ur);
        size_t k = 0;
        for (size_t p = 0; p < n; p++) {
            k += p == 0 || t[p].a != t[p - 1].a || t[p].b != t[p - 1].b;
            place(d, g, pass_slot, rk, u, t[p].i, p);
        }
        free(t);
        return k;
    }
    size_t *at = il_xcalloc(nk + 1, sizeof *at), k = 0;
    for (size_t i = 0; i < n; i++)
        at[(size_t)ra[run_lab(d, g, kind, slot, 0, i)] * nb + rb[run_lab(d, g, kind, slot, 1, i)] +
           1]++;
    for (size_t j = 0; j < nk; j++) {
        k += at[j + 1] > 0;
        at[j + 1] += at[j];
    }
    for (size_t i = 0; i < n; i++)
        place(d, g, pass_slot, rk, u, i,
              at[(size_t)ra[run_lab(d, g, kind, slot, 0, i)] * nb +
                 rb[run_lab(d, g, kind, slot, 1, i)]]++);
    free(at);
    free(ra);
    free(rb);
    return k;
}

void
il_units_build(struct il_data *d, const struct il_group *g, enum il_dkind kind, const size_t *slot,
               size_t pass_slot, const struct il_estimator *e, int in_place, struct il_units *u)
{
    memset(u, 0, sizeof *u);
    size_t n = g->n;
    sort_d = d;
    u->x = il_xcalloc(n ? n : 1, sizeof *u->x);
    u->pos = il_xcalloc(n ? n : 1, sizeof *u->pos);
    uint16_t *rk = NULL;
    if (pass_slot != SIZE_MAX && d->present[pass_slot]) {
        rk = pass_ranks(d, pass_slot);
        if (rk)
            u->pass16 = il_xcalloc(n ? n : 1, sizeof *u->pass16);
        else
            u->pass = il_xcalloc(n ? n : 1, sizeof *u->pass);
    }
    /* the units: runs of one key, consecutive now */
    size_t k = place_runs(d, g, kind, slot, pass_slot, rk, u), maxn = 1;
    free(rk);
    if (in_place) {
        /* the group's values in the units' order, in the group's own
         * storage: one copy of the runs held, not two */
        memcpy(g->x, u->x, n * sizeof *u->x);
        free(u->x);
        u->x = g->x;
        u->x_shared = 1;
    }
    u->k = k;
    u->id = il_xcalloc(k, sizeof *u->id);
    u->fa = il_xcalloc(k, sizeof *u->fa);
    u->fb = il_xcalloc(k, sizeof *u->fb);
    u->off = il_xcalloc(k, sizeof *u->off);
    u->n = il_xcalloc(k, sizeof *u->n);
    u->mean = il_xcalloc(k, sizeof *u->mean);
    u->est = il_xcalloc(k, sizeof *u->est);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t a = il_lab(d, g->rec[u->pos[i]], slot[0]);
        uint32_t b = kind == IL_D_CROSSED ? il_lab(d, g->rec[u->pos[i]], slot[1]) : 0;
        if (i && a == u->fa[j - 1] && b == u->fb[j - 1]) {
            u->n[j - 1]++;
        } else {
            u->fa[j] = a;
            u->fb[j] = b;
            u->off[j] = i;
            u->n[j++] = 1;
        }
        maxn = u->n[j - 1] > maxn ? u->n[j - 1] : maxn;
    }
    double *scratch = il_xcalloc(maxn, sizeof *scratch); /* a unit's runs */
    for (j = 0; j < k; j++) {
        const double *x = u->x + u->off[j];
        u->est[j] = il_estimate_mean(e, x, u->n[j], scratch, &u->mean[j]);
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
}

void
il_units_free(struct il_units *u)
{
    free(u->id);
    free(u->fa);
    free(u->fb);
    free(u->pass);
    free(u->pass16);
    free(u->cell);
    free(u->pos);
    free(u->off);
    free(u->n);
    if (!u->x_shared)
        free(u->x);
    free(u->mean);
    free(u->est);
    memset(u, 0, sizeof *u);
}

/* The factors of interloper sweep's setups, as labels. */
static const char *const factor_labels[] = {IL_L_ENV_ADD, IL_L_LAYOUT, IL_L_STACK_OFFSET,
                                            IL_L_HEAP_OFFSET};
#define IL_NFACTORS (sizeof factor_labels / sizeof factor_labels[0])

void
il_units_slots(const struct il_data *d, enum il_dkind kind, const size_t *slot, size_t pass_slot,
               uint8_t *keep)
{
    keep[slot[0]] = 1;
    if (kind == IL_D_CROSSED)
        keep[slot[1]] = 1;
    if (pass_slot != SIZE_MAX)
        keep[pass_slot] = 1;
    for (size_t f = 0; f < IL_NFACTORS; f++) {
        size_t s = il_data_slot(d, factor_labels[f]);
        if (s != SIZE_MAX)
            keep[s] = 1;
    }
}

struct cellkey {
    uint32_t v[IL_NFACTORS];
    size_t g, run; /* the group and the run's position in its units */
};

static int
cmp_cell(const void *pa, const void *pb)
{
    const struct cellkey *a = pa, *b = pb;
    int c = memcmp(a->v, b->v, sizeof a->v);
    if (c)
        return c;
    return a->g != b->g ? (a->g > b->g) - (a->g < b->g) : (a->run > b->run) - (a->run < b->run);
}

static void
make_cells(const struct il_data *d, const struct il_groups *gs, struct il_units *units, size_t ng)
{
    size_t slot[IL_NFACTORS], nf = 0, total = 0;
    for (size_t f = 0; f < IL_NFACTORS; f++) {
        size_t s = il_data_slot(d, factor_labels[f]);
        if (s == SIZE_MAX || !d->present[s])
            continue;
        /* a factor constant within every unit names the unit (or is
         * one value throughout): it makes no cell */
        int varies = 0;
        for (size_t g = 0; g < ng && !varies; g++) {
            const struct il_units *u = &units[g];
            const uint32_t *rec = gs->g[g].rec;
            for (size_t j = 0; j < u->k && !varies; j++) {
                uint32_t first = il_lab(d, rec[u->pos[u->off[j]]], s);
                for (size_t i = 1; i < u->n[j] && !varies; i++)
                    varies = il_lab(d, rec[u->pos[u->off[j] + i]], s) != first;
            }
        }
        if (varies)
            slot[nf++] = s;
    }
    for (size_t g = 0; g < ng; g++) {
        size_t n = 0;
        for (size_t j = 0; j < units[g].k; j++)
            n += units[g].n[j];
        units[g].cell = il_xcalloc(n ? n : 1, sizeof *units[g].cell);
        total += n;
    }
    if (!nf)
        return; /* one cell */
    struct cellkey *t = il_xcalloc(total, sizeof *t);
    size_t m = 0;
    for (size_t g = 0; g < ng; g++) {
        const struct il_units *u = &units[g];
        size_t n = u->k ? u->off[u->k - 1] + u->n[u->k - 1] : 0;
        for (size_t i = 0; i < n; i++, m++) {
            for (size_t f = 0; f < nf; f++)
                t[m].v[f] = il_lab(d, gs->g[g].rec[u->pos[i]], slot[f]);
            t[m].g = g;
            t[m].run = i;
        }
    }
    qsort(t, total, sizeof *t, cmp_cell);
    uint32_t id = 0;
    for (size_t i = 0; i < total; i++) {
        if (i && memcmp(t[i].v, t[i - 1].v, sizeof t[i].v))
            id++;
        units[t[i].g].cell[t[i].run] = id;
    }
    free(t);
}

void
il_units_cells(const struct il_data *d, const struct il_groups *gs, struct il_units *units,
               size_t ng, int keep_pos)
{
    make_cells(d, gs, units, ng);
    /* the runs' places gave their passes and cells: needed after only
     * for il_units_in_order */
    for (size_t g = 0; g < ng && !keep_pos; g++) {
        free(units[g].pos);
        units[g].pos = NULL;
    }
}

double *
il_units_in_order(const struct il_units *u)
{
    size_t n = u->k ? u->off[u->k - 1] + u->n[u->k - 1] : 0;
    double *x = il_xmalloc((n ? n : 1) * sizeof *x);
    for (size_t p = 0; p < n; p++)
        x[u->pos[p]] = u->x[p];
    return x;
}
