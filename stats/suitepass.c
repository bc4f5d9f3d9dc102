/*
 * suitepass.c: the passes of a harness, for a suite's interval.
 *
 * A harness wrapped in `interloper run` (README, "Wrap a harness") runs
 * the whole suite of one system, then the other: each system's records
 * come in blocks, one per pass of the harness, and every benchmark of a
 * block shares that block's machine state (its load, the machine's
 * drift).  A pass-wide shift then moves every benchmark's ratio at once,
 * which the suite's intervals over benchmarks (comparisons.c) take as
 * independent.  Kalibera & Jones (sections 3 and 9): the interval must
 * come from the variance at the highest level that varies at random, here
 * the pass.
 *
 * The rule.  Records are taken in the order they were read (the files in
 * the order given, each file's lines in order).  A stretch is a maximal
 * run of consecutive records of one value of the compared label.  A
 * stretch is a pass when it holds runs of at least two of that value's
 * groups (benchmarks) and of at least half of them.  The records have
 * passes when, for every value of the compared label, its passes hold at
 * least 90% of its runs (a harness stopped in its last pass still has
 * them).  A file holding a sweep's lines (sweep and compare write a plan
 * line) never has passes: sweep and compare run every system in each
 * setup, in a shuffled order, so their stretches hold one benchmark's
 * runs; a file whose systems alternate per benchmark has none either.
 *
 * With passes, each group's estimate in each pass of its value is kept;
 * suite_passes() (comparisons.c's suite) turns them into the suite's
 * ratio per pass, an interval with the pass as the unit (Welch's t on
 * each system's per-pass mean log estimate over the benchmarks measured
 * in every pass), and a test of the per-pass ratios against the
 * benchmarks' noise (the F test of passes in a benchmarks x passes
 * table of log ratios).
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

/* The share of a value's runs that its passes must hold. */
#define IL_PASS_SHARE 0.9

struct stretch {
    size_t from, to; /* record indices [from, to) */
    uint32_t v;      /* the compared value */
    size_t groups;   /* distinct groups among its runs */
    size_t runs;     /* its runs (records in groups) */
};

void
il_passes_find(struct il_report *r)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    const struct il_groups *gs = &r->gs;
    size_t ng = gs->ng, n = d->n, cp = r->cmp_pos;
    if (!o->cmp_label || gs->nkey < 2 || o->tool != IL_TOOL_REPORT || d->sweep_lines || ng < 2)
        return;
    for (size_t g = 0; g < ng; g++)
        if (!gs->g[g].rec || !gs->g[g].x)
            return;
    uint32_t *grp = il_xmalloc(n * sizeof *grp);
    for (size_t i = 0; i < n; i++)
        grp[i] = UINT32_MAX;
    for (size_t g = 0; g < ng; g++)
        for (size_t i = 0; i < gs->g[g].n; i++)
            if (gs->g[g].rec[i] < n)
                grp[gs->g[g].rec[i]] = (uint32_t)g;
    /* the values of the compared label and their groups' count */
    uint32_t *vals = il_xcalloc(ng, sizeof *vals);
    size_t *vgroups = il_xcalloc(ng, sizeof *vgroups), *vruns = il_xcalloc(ng, sizeof *vruns),
           *vin = il_xcalloc(ng, sizeof *vin), nv = 0;
    size_t *vof = il_xcalloc(ng, sizeof *vof); /* group -> value index */
    for (size_t g = 0; g < ng; g++) {
        uint32_t v = gs->g[g].key[cp];
        size_t k = 0;
        while (k < nv && vals[k] != v)
            k++;
        if (k == nv)
            vals[nv++] = v;
        vof[g] = k;
        vgroups[k]++;
        vruns[k] += gs->g[g].n;
    }
    /* The stretches, in one pass over the records in input order: only
     * the passes are kept, and the scan stops as soon as some value's
     * runs outside passes pass the share that rules passes out (a
     * sweep's file, after a few records). */
    size_t *stamp = il_xcalloc(ng, sizeof *stamp), *vout = il_xcalloc(nv, sizeof *vout);
    struct stretch *st = NULL, cur = {0};
    size_t nst = 0, cap = 0, nstretch = 0;
    int found = nv >= 2;
    for (size_t i = 0; i <= n && found; i++) {
        uint32_t g = i < n ? grp[i] : UINT32_MAX;
        if (i < n && g == UINT32_MAX)
            continue;
        if (i == n || !nstretch || cur.v != gs->g[g].key[cp]) {
            if (nstretch) {
                /* the stretch that ended: a pass, or runs outside passes */
                size_t vi = vof[grp[cur.from]], runs = cur.runs;
                if (cur.groups >= 2 && 2 * cur.groups >= vgroups[vi]) {
                    if (nst == cap) {
                        cap = cap ? 2 * cap : 16;
                        st = il_xrealloc(st, cap * sizeof *st);
                    }
                    st[nst++] = cur;
                    vin[vi] += runs;
                } else if ((double)(vout[vi] += runs) > (1 - IL_PASS_SHARE) * (double)vruns[vi])
                    found = 0;
            }
            if (i == n)
                break;
            nstretch++;
            cur = (struct stretch){.from = i, .v = gs->g[g].key[cp]};
        }
        cur.to = i + 1;
        cur.runs++;
        if (stamp[g] != nstretch) {
            stamp[g] = nstretch;
            cur.groups++;
        }
    }
    free(grp);
    free(stamp);
    free(vout);
    for (size_t k = 0; k < nv && found; k++)
        found = (double)vin[k] >= IL_PASS_SHARE * (double)vruns[k];
    if (found) {
        struct il_passes *p = il_xcalloc(1, sizeof *p);
        p->nval = nv;
        p->val = vals;
        vals = NULL;
        p->k = il_xcalloc(nv, sizeof *p->k);
        p->from = il_xcalloc(nv, sizeof *p->from);
        p->to = il_xcalloc(nv, sizeof *p->to);
        for (size_t k = 0; k < nst; k++) {
            size_t vi = 0;
            while (p->val[vi] != st[k].v)
                vi++;
            size_t j = p->k[vi]++;
            p->from[vi] = il_xrealloc(p->from[vi], p->k[vi] * sizeof **p->from);
            p->to[vi] = il_xrealloc(p->to[vi], p->k[vi] * sizeof **p->to);
            p->from[vi][j] = st[k].from;
            p->to[vi][j] = st[k].to;
        }
        /* each group's estimate in each pass of its value (NAN: no run) */
        p->vof = vof;
        vof = NULL;
        p->est = il_xcalloc(ng, sizeof *p->est);
        size_t maxn = 1;
        for (size_t g = 0; g < ng; g++)
            if (gs->g[g].n > maxn)
                maxn = gs->g[g].n;
        double *scratch = il_xcalloc(maxn, sizeof *scratch);
        for (size_t g = 0; g < ng; g++) {
            const struct il_group *gr = &gs->g[g];
            size_t vi = p->vof[g], kk = p->k[vi], i = 0;
            p->est[g] = il_xcalloc(kk ? kk : 1, sizeof **p->est);
            for (size_t j = 0; j < kk; j++) {
                while (i < gr->n && gr->rec[i] < p->from[vi][j])
                    i++;
                size_t a = i;
                while (i < gr->n && gr->rec[i] < p->to[vi][j])
                    i++;
                p->est[g][j] = i > a ? il_estimate(&o->est, gr->x + a, i - a, scratch) : NAN;
            }
        }
        free(scratch);
        r->passes = p;
    }
    free(st);
    free(vals);
    free(vgroups);
    free(vruns);
    free(vin);
    free(vof);
}

void
il_passes_free(struct il_passes *p)
{
    if (!p)
        return;
    for (size_t v = 0; v < p->nval; v++) {
        free(p->from[v]);
        free(p->to[v]);
    }
    free(p->from);
    free(p->to);
    free(p->k);
    free(p->val);
    free(p->vof);
    free(p->est);
    free(p);
}

/* Value v's index among the passes' values (p->nval when absent). */
static size_t
val_index(const struct il_passes *p, uint32_t v)
{
    size_t i = 0;
    while (i < p->nval && p->val[i] != v)
        i++;
    return i;
}

void
il_suite_passes(const struct il_report *r, const struct il_cmp *const *cs, size_t ncs,
                struct il_suite *s)
{
    const struct il_passes *p = r->passes;
    if (!p)
        return;
    size_t va = val_index(p, s->value), vb = val_index(p, r->base_id);
    if (va == p->nval || vb == p->nval)
        return;
    size_t ka = p->k[va], kb = p->k[vb], kk = ka < kb ? ka : kb;
    s->has_passes = 1;
    s->pass_a = ka;
    s->pass_b = kb;
    /* the benchmarks measured in every pass of both sides, with positive estimates */
    size_t m = 0;
    size_t *use = il_xcalloc(ncs ? ncs : 1, sizeof *use);
    for (size_t i = 0; i < ncs; i++) {
        const double *ea = p->est[cs[i]->g], *eb = p->est[cs[i]->base];
        int ok = 1;
        for (size_t j = 0; j < ka && ok; j++)
            ok = ea[j] > 0 && isfinite(ea[j]);
        for (size_t j = 0; j < kb && ok; j++)
            ok = eb[j] > 0 && isfinite(eb[j]);
        if (ok)
            use[m++] = i;
    }
    s->pass_m = m;
    double sign = r->o->speedup ? -1 : 1;
    if (m == 0 || kk == 0) {
        free(use);
        return;
    }
    /* each side's mean log estimate per pass, over those benchmarks */
    double *la = il_xcalloc(ka, sizeof *la), *lb = il_xcalloc(kb, sizeof *lb);
    for (size_t u = 0; u < m; u++) {
        const struct il_cmp *c = cs[use[u]];
        for (size_t j = 0; j < ka; j++)
            la[j] += log(p->est[c->g][j]) / (double)m;
        for (size_t j = 0; j < kb; j++)
            lb[j] += log(p->est[c->base][j]) / (double)m;
    }
    s->pass_ratio = il_xcalloc(kk, sizeof *s->pass_ratio);
    s->npass_ratio = kk;
    for (size_t j = 0; j < kk; j++)
        s->pass_ratio[j] = exp(sign * (la[j] - lb[j]));
    double ma = il_mean(la, ka), mb = il_mean(lb, kb);
    s->pass_gm = exp(sign * (ma - mb));
    /* Welch's t over the passes: each side's passes vary at random */
    if (ka >= 2 && kb >= 2) {
        double wa = il_var(la, ka, ma) / (double)ka, wb = il_var(lb, kb, mb) / (double)kb;
        double se2 = wa + wb;
        if (se2 > 0 && isfinite(se2)) {
            double df = se2 * se2 /
                        (wa * wa / (double)(ka - 1) + wb * wb / (double)(kb - 1));
            double hw = il_tq(df) * sqrt(se2), mid = sign * (ma - mb);
            s->pass_lo = exp(mid - hw);
            s->pass_hi = exp(mid + hw);
            s->pass_df = df;
            s->has_pass_ci = 1;
        }
    }
    /* The F test of passes: the benchmarks x paired passes table of log
     * ratios, two-way without replication (passes paired in order). */
    if (kk >= 2 && m >= 2) {
        double *y = il_xcalloc(m * kk, sizeof *y), *pm = il_xcalloc(kk, sizeof *pm);
        double gm = 0;
        for (size_t u = 0; u < m; u++) {
            const struct il_cmp *c = cs[use[u]];
            for (size_t j = 0; j < kk; j++) {
                double v = log(p->est[c->g][j]) - log(p->est[c->base][j]);
                y[u * kk + j] = v;
                pm[j] += v / (double)m;
                gm += v / (double)(m * kk);
            }
        }
        double ssp = 0, ssr = 0;
        for (size_t j = 0; j < kk; j++)
            ssp += (double)m * (pm[j] - gm) * (pm[j] - gm);
        for (size_t u = 0; u < m; u++) {
            double bm = 0;
            for (size_t j = 0; j < kk; j++)
                bm += y[u * kk + j] / (double)kk;
            for (size_t j = 0; j < kk; j++) {
                double e = y[u * kk + j] - pm[j] - bm + gm;
                ssr += e * e;
            }
        }
        double df1 = (double)(kk - 1), df2 = (double)((m - 1) * (kk - 1));
        if (ssr > 0 && isfinite(ssr) && isfinite(ssp)) {
            s->pass_f = (ssp / df1) / (ssr / df2);
            s->pass_df1 = df1;
            s->pass_df2 = df2;
            s->pass_p = gsl_cdf_fdist_Q(s->pass_f, df1, df2);
            s->has_pass_f = 1;
        }
        free(y);
        free(pm);
    }
    free(la);
    free(lb);
    free(use);
}
