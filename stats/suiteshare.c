/*
 * suiteshare.c: setups shared by a suite's benchmarks, for its interval.
 *
 * One `interloper build` makes one set of link layouts, and a sweep (or a
 * compare per input) runs every benchmark in those same layouts and
 * environment sizes (README, "Sweep setups and link layouts").  A
 * layout's effect on the ratio is then shared by every benchmark, so the
 * benchmarks' ratios are not independent: the suite has as many
 * independent units as setups, not as benchmarks.  Kalibera & Jones
 * (ISMM 2013, sections 3 and 9: in a multi-level design the variance of
 * the mean is taken at the highest level that varies at random) give the
 * rule; here that level is the setup shared across benchmarks.  outside15
 * H1: six inputs of GNU make in the same 8 layouts, known-truth A/A, the
 * intervals over benchmarks covered 7 and 4 of 9, this one 9 of 9.
 *
 * The rule.  With --setup, the suite's benchmarks share their setups when
 * every one of them has a per-setup view over the same setups: the same
 * values of the --setup label, or with two crossed labels the same
 * cells (pairs of values), at least two.  Then, for each setup u, y_u is
 * the mean over the benchmarks of log(ratio in u), and
 *   these benchmarks: V = the variance of the mean of y over the setups,
 *     by the per-benchmark design (design.c: var/k with k - 1 df for one
 *     label; the crossed random model with Satterthwaite's df for two,
 *     so environment sizes and layouts shared by every benchmark both
 *     count), the benchmarks taken as fixed;
 *   benchmarks like these: V + s2_b / n, s2_b the variance of the
 *     benchmarks' log ratios (which the shared effects do not move),
 *     Satterthwaite's df over the two terms.  It counts the residual
 *     (benchmark x setup) variance once more than the crossed model of
 *     benchmarks and setups would: wider by that, never narrower.
 * Both are centred on the suite's geometric mean, as before; y's spread is
 * the first-order (delta-method) spread of each benchmark's log ratio
 * over its setups.  Benchmarks that share some setups but not the same
 * ones (a partial overlap: another plan's layouts for one input, a
 * compare stopped early) keep the intervals over benchmarks, and the
 * report says they may be too narrow: no unit is common to all of them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

static int
by_id(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static int
by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Index of setup id in benchmark c's per-setup view (sorted ids in
 * srt[0..k), with their places in c->su), or k. */
static size_t
place(const uint32_t *srt, const size_t *at, size_t k, uint32_t id)
{
    size_t lo = 0, hi = k;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (srt[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < k && srt[lo] == id ? at[lo] : k;
}

/* The setups found in two or more of the n benchmarks (their sorted ids
 * ids[0..m) with m returned). */
static size_t
in_two(uint32_t *ids, size_t m)
{
    qsort(ids, m, sizeof *ids, by_id);
    size_t out = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j < m && ids[j] == ids[i])
            j++;
        out += j - i >= 2;
        i = j;
    }
    return out;
}

void
il_shared_what(char *buf, size_t n, const struct il_opts *o)
{
    if (o->design == IL_D_CROSSED)
        snprintf(buf, n, "cells of %s x %s", o->d_label[0], o->d_label[1]);
    else
        snprintf(buf, n, "values of %s", o->d_label[0]);
}

void
il_suite_shared(const struct il_report *r, const struct il_cmp *const *cs, size_t n,
                struct il_suite *s)
{
    const struct il_opts *o = r->o;
    if (!o->nsetup || n < 2)
        return;
    size_t all = 0, with = 0;
    for (size_t b = 0; b < n; b++)
        if (cs[b]->has_setups) {
            all += cs[b]->su.n;
            with++;
        }
    if (!all)
        return;
    /* every setup id of every benchmark: is any in two of them? */
    uint32_t *ids = il_xcalloc(all, sizeof *ids);
    size_t m = 0;
    for (size_t b = 0; b < n; b++)
        for (size_t u = 0; cs[b]->has_setups && u < cs[b]->su.n; u++)
            ids[m++] = cs[b]->su.setup[u];
    size_t twice = in_two(ids, m);
    free(ids);
    if (!twice)
        return;
    /* the same setups in every benchmark? */
    const struct il_setups *f = &cs[0]->su;
    size_t k = f->n;
    int same = with == n && k >= 2;
    for (size_t b = 1; same && b < n; b++)
        same = cs[b]->su.n == k;
    uint32_t *srt = il_xcalloc(k + 1, sizeof *srt);
    size_t *at = il_xcalloc(k + 1, sizeof *at);
    double *y = il_xcalloc(k + 1, sizeof *y);
    for (size_t b = 0; same && b < n; b++) {
        const struct il_setups *e = &cs[b]->su;
        /* e's ids sorted, with their places: (id << 32 | place) sorts both */
        uint64_t *pair = il_xcalloc(k, sizeof *pair);
        for (size_t u = 0; u < k; u++)
            pair[u] = (uint64_t)e->setup[u] << 32 | (uint64_t)u;
        qsort(pair, k, sizeof *pair, by_u64);
        for (size_t u = 0; u < k; u++) {
            srt[u] = (uint32_t)(pair[u] >> 32);
            at[u] = (size_t)(pair[u] & 0xffffffffu);
        }
        free(pair);
        for (size_t u = 0; same && u < k; u++) {
            size_t j = place(srt, at, k, f->setup[u]);
            same = j < k && e->ratio[j] > 0;
            if (same)
                y[u] += log(e->ratio[j]) / (double)n;
        }
    }
    free(srt);
    free(at);
    s->shared = 2;
    s->sh_k = twice;
    if (!same) {
        snprintf(s->sh_why, sizeof s->sh_why, "but not the same ones");
        free(y);
        return;
    }
    struct il_dvar dv;
    double mean, lo, hi, df;
    int e = il_dvar_init(&dv, k, f->sa, o->design == IL_D_CROSSED ? f->sb : NULL);
    if (!e)
        e = il_dvar_tci(&dv, y, &mean, &lo, &hi, &df);
    il_dvar_free(&dv);
    free(y);
    if (e || !(hi > lo) || !(s->gm > 0)) {
        snprintf(s->sh_why, sizeof s->sh_why,
                 "and their design over the setups has no interval");
        return;
    }
    /* the setups are the unit: keep the intervals over independent
     * benchmarks beside, for the JSON, CSV and the warning */
    s->shared = 1;
    s->sh_k = k;
    s->ind_has_ci = s->has_ci;
    s->ind_lo = s->lo;
    s->ind_hi = s->hi;
    s->ind_has_bci = s->has_bci;
    s->ind_blo = s->blo;
    s->ind_bhi = s->bhi;
    double g = log(s->gm), h = (hi - lo) / 2, v = h / il_tq(df);
    double V = v * v, sb = 0;
    for (size_t b = 0; b < n; b++) {
        double d = log(cs[b]->f.ratio) - g;
        sb += d * d;
    }
    double Vb = sb / (double)(n - 1) / (double)n, W = V + Vb;
    double den = V * V / df + Vb * Vb / (double)(n - 1);
    s->sh_df = df;
    s->sh_bdf = den > 0 ? W * W / den : df + (double)(n - 1);
    s->lo = exp(g - h);
    s->hi = exp(g + h);
    s->has_ci = 1;
    double hb = il_tq(s->sh_bdf) * sqrt(W);
    s->blo = exp(g - hb);
    s->bhi = exp(g + hb);
    s->has_bci = 1;
}
