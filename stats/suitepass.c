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
 * The rule.  Records are taken in the order they ran (time_order: by
 * their start, where they carry it; review14c M1: with one file per
 * system, the order read made each system one pass, and lost the real
 * passes), else in the order read (the files in the order given, each
 * file's lines in order).  A stretch is a maximal run of consecutive
 * records of one value of the compared label (of one block of
 * time_order).  A
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
/* The records before one whose starts it must all go back before, to
 * begin a segment of its own (time_order). */
#define IL_PASS_RECENT 16

struct stretch {
    size_t from, to; /* positions [from, to) in the records' order */
    uint32_t v;      /* the compared value */
    size_t groups;   /* distinct groups among its runs */
    size_t runs;     /* its runs (records in groups) */
};

/* Records whose order in time is known: positions [from, to) of an
 * order, their starts from lo to hi (whole seconds). */
struct seg {
    size_t from, to;
    uint32_t lo, hi;
};

static int
seg_cmp(const void *pa, const void *pb)
{
    const struct seg *a = pa, *b = pb;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    return (a->from > b->from) - (a->from < b->from);
}

/* Whether the blocks s[0..n), sorted, follow one another in time: each
 * ends no later than the next begins, and where one ends in the second
 * the next begins, neither lies in that second alone (whole seconds say
 * nothing of the order of two blocks within one). */
static int
in_sequence(const struct seg *s, size_t n)
{
    for (size_t k = 1; k < n; k++) {
        const struct seg *p = &s[k - 1], *q = &s[k];
        if (p->hi > q->lo || (p->hi == q->lo && (p->lo == p->hi || q->lo == q->hi)))
            return 0;
    }
    return 1;
}

/* The blocks' positions of idx, in the blocks' order, into ord; with brk,
 * brk[j] = 1 where block j's first record lies. */
static void
lay_out(const struct seg *s, size_t n, const size_t *idx, size_t *ord, uint8_t *brk)
{
    size_t j = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t i = s[k].from; i < s[k].to; i++) {
            if (brk)
                brk[j] = i == s[k].from;
            ord[j++] = idx[i];
        }
}

/*
 * The records' order in time (Kalibera & Jones's levels are levels in
 * time): *ord NULL where it is the order read (a file is written in the
 * order its processes end), else the records of groups in time order,
 * and *brk where a pass must begin within one value; 0, or -1 where the
 * records cannot be put in order (then they have no passes).  Each input
 * keeps its order while the records' starts do not go back before the
 * last IL_PASS_RECENT records' (a file, or a part of a merged file); such
 * segments are put in the order of their
 * starts when they follow one another in time (files given in another
 * order; a merged file).  Segments that overlap in time (one file per
 * system, written in turn) are cut where the compared value changes or a
 * benchmark recurs after others (a harness's next pass), and those
 * blocks must follow one another in time: a harness that alternates the
 * systems per benchmark, writing one file per system, has blocks that
 * overlap, and no passes.  Records without a start keep the order read.
 */
static int
time_order(const struct il_data *d, const struct il_groups *gs, const uint32_t *grp, size_t cp,
           size_t **ord, uint8_t **brk, size_t *nord)
{
    size_t n = d->n, m = 0;
    const uint32_t file = (uint32_t)1 << IL_WHEN_FILE;
    *ord = NULL;
    *brk = NULL;
    if (!d->when)
        return 0;
    size_t *idx = il_xmalloc((n ? n : 1) * sizeof *idx);
    for (size_t i = 0; i < n; i++) {
        if (grp[i] == UINT32_MAX)
            continue;
        if (!(d->when[i] % file)) {
            free(idx);
            return 0;
        }
        idx[m++] = i;
    }
    struct seg *sg = NULL;
    size_t ns = 0, cap = 0, nrecent = 0;
    uint32_t recent[IL_PASS_RECENT];
    for (size_t i = 0; i < m; i++) {
        uint32_t w = d->when[idx[i]], t = w % file;
        /* a new segment at another input, or where the start goes back
         * before every one of the last few records' (another file's
         * records follow, in a merged file; not a process's record after
         * its children's, which began after it) */
        int back = nrecent >= IL_PASS_RECENT;
        for (size_t k = 0; k < IL_PASS_RECENT && back; k++)
            back = t < recent[k];
        if (!ns || w / file != d->when[idx[i - 1]] / file || back) {
            if (ns == cap) {
                cap = cap ? 2 * cap : 16;
                sg = il_xrealloc(sg, cap * sizeof *sg);
            }
            sg[ns++] = (struct seg){i, i, t, t};
            nrecent = 0;
        }
        recent[nrecent++ % IL_PASS_RECENT] = t;
        sg[ns - 1].to = i + 1;
        if (t < sg[ns - 1].lo)
            sg[ns - 1].lo = t;
        if (t > sg[ns - 1].hi)
            sg[ns - 1].hi = t;
    }
    int ret = 0;
    if (ns > 1) {
        qsort(sg, ns, sizeof *sg, seg_cmp);
        *ord = il_xmalloc(m * sizeof **ord);
        *nord = m;
        if (in_sequence(sg, ns)) {
            lay_out(sg, ns, idx, *ord, NULL);
        } else {
            /* blocks: a segment cut where the value changes or a group
             * recurs after another */
            struct seg *bl = NULL;
            size_t nb = 0, bcap = 0, *stamp = il_xcalloc(gs->ng ? gs->ng : 1, sizeof *stamp);
            for (size_t k = 0; k < ns; k++)
                for (size_t i = sg[k].from; i < sg[k].to; i++) {
                    uint32_t g = grp[idx[i]];
                    uint32_t t = d->when[idx[i]] % file;
                    int cut = i == sg[k].from;
                    if (!cut) {
                        uint32_t pg = grp[idx[i - 1]];
                        cut = gs->g[g].key[cp] != gs->g[pg].key[cp] ||
                              (stamp[g] == nb && pg != g);
                    }
                    if (cut) {
                        if (nb == bcap) {
                            bcap = bcap ? 2 * bcap : 16;
                            bl = il_xrealloc(bl, bcap * sizeof *bl);
                        }
                        bl[nb++] = (struct seg){i, i, t, t};
                    }
                    stamp[g] = nb;
                    bl[nb - 1].to = i + 1;
                    if (t < bl[nb - 1].lo)
                        bl[nb - 1].lo = t;
                    if (t > bl[nb - 1].hi)
                        bl[nb - 1].hi = t;
                }
            free(stamp);
            qsort(bl, nb, sizeof *bl, seg_cmp);
            if (in_sequence(bl, nb)) {
                *brk = il_xmalloc(m);
                lay_out(bl, nb, idx, *ord, *brk);
            } else {
                free(*ord);
                *ord = NULL;
                ret = -1;
            }
            free(bl);
        }
    }
    free(sg);
    free(idx);
    return ret;
}

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
    size_t *ord, nord = 0;
    uint8_t *brk;
    if (time_order(d, gs, grp, cp, &ord, &brk, &nord) < 0) {
        free(grp);
        return;
    }
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
    /* The stretches, in one pass over the records in time order: only
     * the passes are kept, and the scan stops as soon as some value's
     * runs outside passes pass the share that rules passes out (a
     * sweep's file, after a few records). */
    size_t *stamp = il_xcalloc(ng, sizeof *stamp), *vout = il_xcalloc(nv, sizeof *vout);
    struct stretch *st = NULL, cur = {0};
    size_t nst = 0, cap = 0, nstretch = 0, m = ord ? nord : n;
    int found = nv >= 2;
    for (size_t i = 0; i <= m && found; i++) {
        size_t ri = i < m ? (ord ? ord[i] : i) : 0;
        uint32_t g = i < m ? grp[ri] : UINT32_MAX;
        if (i < m && g == UINT32_MAX)
            continue;
        if (i == m || !nstretch || cur.v != gs->g[g].key[cp] || (brk && brk[i])) {
            if (nstretch) {
                /* the stretch that ended: a pass, or runs outside passes */
                size_t vi = vof[grp[ord ? ord[cur.from] : cur.from]], runs = cur.runs;
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
            if (i == m)
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
    free(stamp);
    free(vout);
    free(brk);
    for (size_t k = 0; k < nv && found; k++)
        found = (double)vin[k] >= IL_PASS_SHARE * (double)vruns[k];
    if (found) {
        struct il_passes *p = il_xcalloc(1, sizeof *p);
        p->nval = nv;
        p->val = vals;
        vals = NULL;
        p->k = il_xcalloc(nv, sizeof *p->k);
        /* each record's pass among its value's (UINT32_MAX: none) */
        uint32_t *pass = il_xmalloc(n * sizeof *pass);
        for (size_t i = 0; i < n; i++)
            pass[i] = UINT32_MAX;
        for (size_t k = 0; k < nst; k++) {
            size_t vi = 0;
            while (p->val[vi] != st[k].v)
                vi++;
            uint32_t j = (uint32_t)p->k[vi]++;
            for (size_t i = st[k].from; i < st[k].to; i++)
                pass[ord ? ord[i] : i] = j;
        }
        /* each group's estimate in each pass of its value (NAN: no run),
         * over its runs there in the order read */
        p->vof = vof;
        vof = NULL;
        p->est = il_xcalloc(ng, sizeof *p->est);
        size_t maxn = 1, maxk = 1;
        for (size_t g = 0; g < ng; g++)
            if (gs->g[g].n > maxn)
                maxn = gs->g[g].n;
        for (size_t v = 0; v < nv; v++)
            if (p->k[v] + 1 > maxk)
                maxk = p->k[v] + 1;
        double *scratch = il_xcalloc(maxn, sizeof *scratch), *xs = il_xcalloc(maxn, sizeof *xs);
        size_t *at = il_xcalloc(maxk, sizeof *at);
        for (size_t g = 0; g < ng; g++) {
            const struct il_group *gr = &gs->g[g];
            size_t vi = p->vof[g], kk = p->k[vi];
            p->est[g] = il_xcalloc(kk ? kk : 1, sizeof **p->est);
            /* the runs of each pass together, each pass's in their order */
            memset(at, 0, (kk + 1) * sizeof *at);
            for (size_t i = 0; i < gr->n; i++) {
                uint32_t j = gr->rec[i] < n ? pass[gr->rec[i]] : UINT32_MAX;
                if (j != UINT32_MAX)
                    at[j + 1]++;
            }
            for (size_t j = 0; j < kk; j++)
                at[j + 1] += at[j];
            for (size_t i = 0; i < gr->n; i++) {
                uint32_t j = gr->rec[i] < n ? pass[gr->rec[i]] : UINT32_MAX;
                if (j != UINT32_MAX)
                    xs[at[j]++] = gr->x[i];
            }
            for (size_t j = 0, a = 0; j < kk; j++) {
                size_t e = at[j];
                p->est[g][j] = e > a ? il_estimate(&o->est, xs + a, e - a, scratch) : NAN;
                a = e;
            }
        }
        free(at);
        free(xs);
        free(scratch);
        free(pass);
        r->passes = p;
    }
    free(grp);
    free(ord);
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
