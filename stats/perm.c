/*
 * perm.c: permutation tests that exchange only what the sweep's
 * randomization exchanged (interloper-report(1), "What each test
 * assumes").
 *
 * interloper sweep runs, in each pass (label rep), every setup once, the
 * setups in a random order, and inside a setup's block every system once,
 * in a random order (Mytkowicz et al., ASPLOS'09, section 7.1.2: setup
 * randomization).  Runs of one pass share whatever the machine drifted to
 * during that pass, and neighbouring runs share more.  So, under "no
 * difference", what could have been exchanged is:
 *   - the systems within one (setup, pass) block: the comparison's test of
 *     equal per-setup ratios (here);
 *   - the setups within one pass: a group's test of no setup effect
 *     (setupfx.c, with the blocks of il_pass_blocks below).
 * A permutation test that shuffles further mixes drift into its reference
 * distribution: a free shuffle of one setup's runs over all its passes
 * turned drift into noise, and rejected none of 200 drifting A/A data sets
 * (issue 13).  Restricted permutations within blocks are the randomization
 * test of a randomized block design (Good, "Permutation Tests", 2nd ed.,
 * 2000, section 3.5; Edgington & Onghena, "Randomization Tests", 4th ed.,
 * 2007, chapter 6).
 *
 * The statistics are built from within-block contrasts, so that drift
 * between passes cancels: in each block with runs of both systems, the
 * log ratio of the value's runs to the baseline's (their mean, or their
 * median for a quantile estimator), less the contrasts' median (the
 * common ratio).  For the mean, the test's statistic is the spread of the
 * setups' mean signed ranks of the contrasts (rank_spread: bursts count as
 * one block each); Cochran's Q of the setups' mean contrasts against their
 * pooled within-setup variance is computed in the same exchanges, for the
 * interval of the setup sd (design.c, il_tau2_profile).  For a quantile,
 * the spread of the setups' median contrasts, weighted by their blocks.
 * Exchanging the two systems of a block of one run each negates its
 * contrast: a sign-flip test.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "il_prng.h"
#include "il_stats.h"

/* Streams of --seed (robust.c uses 101 to 103, setupfx.c 104 to 106). */
enum { IL_STREAM_BLOCK = 107 };

/* A run of one side of a unit, by its block key. */
struct bkey {
    uint32_t pass, cell;
    size_t i; /* position in the units' x */
};

static int
cmp_bkey(const void *pa, const void *pb)
{
    const struct bkey *a = pa, *b = pb;
    if (a->pass != b->pass)
        return a->pass < b->pass ? -1 : 1;
    if (a->cell != b->cell)
        return a->cell < b->cell ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static int
u32cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The distinct values among a[0 ..< n] (reordering a): marked in a table
 * when they are dense enough, else counted after a sort. */
static size_t
distinct(uint32_t *a, size_t n)
{
    uint32_t max = 0;
    size_t d = 0;
    for (size_t j = 0; j < n; j++)
        max = a[j] > max ? a[j] : max;
    if (il_dense((size_t)max + 1, n)) {
        unsigned char *seen = il_xcalloc((size_t)max + 1, 1);
        for (size_t j = 0; j < n; j++) {
            d += !seen[a[j]];
            seen[a[j]] = 1;
        }
        free(seen);
        return d;
    }
    qsort(a, n, sizeof *a, u32cmp);
    for (size_t j = 0; j < n; j++)
        d += j == 0 || a[j] != a[j - 1];
    return d;
}

static struct bkey *
keys(const struct il_units *u, size_t j, int *missing)
{
    size_t n = u->n[j], off = u->off[j];
    struct bkey *k = il_xcalloc(n ? n : 1, sizeof *k);
    for (size_t i = 0; i < n; i++) {
        k[i].pass = u->pass ? u->pass[off + i] : IL_MISSING_ID;
        k[i].cell = u->cell ? u->cell[off + i] : 0;
        k[i].i = off + i;
        *missing |= k[i].pass == IL_MISSING_ID;
    }
    qsort(k, n, sizeof *k, cmp_bkey);
    return k;
}

/* The contrast of a block: log est(a) - log est(b), a already divided by
 * the common ratio; NAN when an estimate is not positive. */
static double
contrast(int median, const double *v, size_t na, size_t nb, double *scratch)
{
    struct il_estimator e = {median ? IL_EST_MEDIAN : IL_EST_MEAN, 0.5, NULL};
    double a = il_estimate(&e, v, na, scratch), b = il_estimate(&e, v + na, nb, scratch);
    return a > 0 && b > 0 ? log(a / b) : NAN;
}

/* The location of x[0..n): mean or median; scratch holds n. */
static double
location(int median, const double *x, size_t n, double *scratch)
{
    if (!median)
        return il_mean(x, n);
    memcpy(scratch, x, n * sizeof *scratch);
    qsort(scratch, n, sizeof *scratch, il_dcmp);
    return il_quantile_sorted(scratch, n, 0.5);
}

/* Cochran's Q of the units' locations of their contrasts c against the
 * pooled within-unit variance (the mean), or the spread of their medians
 * weighted by their blocks (a quantile); loc receives each unit's
 * location.  NAN when it cannot be had. */
static double
spread(const struct il_contrast *ct, const double *c, double *loc, double *scratch)
{
    size_t k = ct->k;
    double sw = 0, swl = 0, t = 0, w = 0;
    /* the means all at once (the units' blocks are consecutive): location()'s */
    if (!ct->median)
        il_means(c, ct->m, k, loc);
    for (size_t u = 0; u < k; u++) {
        size_t m = ct->m[u];
        if (!m) {
            loc[u] = NAN;
            continue;
        }
        if (ct->median)
            loc[u] = location(1, c + ct->first[u], m, scratch);
        sw += (double)m;
        swl += (double)m * loc[u];
        if (!ct->median)
            for (size_t j = 0; j < m; j++)
                w += (c[ct->first[u] + j] - loc[u]) * (c[ct->first[u] + j] - loc[u]);
    }
    double mean = swl / sw;
    for (size_t u = 0; u < k; u++)
        if (ct->m[u])
            t += (double)ct->m[u] * (loc[u] - mean) * (loc[u] - mean);
    if (ct->median)
        return t;
    return w > 0 && ct->df > 0 ? t / (w / ct->df) : NAN;
}

/* The 8-byte values of a buffer of another type (memcpy: no aliasing). */
static inline uint64_t
get64(const void *p, size_t i)
{
    uint64_t v;
    memcpy(&v, (const unsigned char *)p + 8 * i, sizeof v);
    return v;
}

static inline void
put64(void *p, size_t i, uint64_t v)
{
    memcpy((unsigned char *)p + 8 * i, &v, sizeof v);
}

/* (key, block) values in the order of |c[block]| (qsort_r's argument is c) */
static int
cmp_abs64(const void *pa, const void *pb, void *arg)
{
    const double *c = arg;
    uint64_t x, y;
    memcpy(&x, pa, sizeof x);
    memcpy(&y, pb, sizeof y);
    double a = fabs(c[(uint32_t)x]), b = fabs(c[(uint32_t)y]);
    return (a > b) - (a < b);
}

/* idx[0..n) = the blocks 0..n-1 in the order of |c| (a tie's order does
 * not matter: its ranks are averaged).  A radix sort, without a call a
 * comparison (qsort_r's callback was most of the sort's time): each block
 * as (the bits of |c| rounded to a float, the block), 8 bytes, sorted by
 * the float's bits (their order is the floats' for values >= 0, and the
 * rounding keeps order), byte by byte; then the blocks of one float by
 * |c| itself.  a and b hold n 8-byte values each (any type: accessed by
 * memcpy); idx may be a. */
static void
sort_abs(const double *c, size_t n, uint32_t *idx, void *a, void *b)
{
    if (!n)
        return;
    size_t cnt[4][256];
    memset(cnt, 0, sizeof cnt);
    for (size_t j = 0; j < n; j++) {
        float f = (float)fabs(c[j]);
        uint32_t k;
        memcpy(&k, &f, sizeof k);
        put64(a, j, (uint64_t)k << 32 | j);
        for (int p = 0; p < 4; p++)
            cnt[p][k >> 8 * p & 255]++;
    }
    for (int p = 0; p < 4; p++) {
        int sh = 32 + 8 * p;
        if (cnt[p][get64(a, 0) >> sh & 255] == n)
            continue; /* one value of this byte: the order stays */
        for (size_t v = 0, o = 0; v < 256; v++) {
            size_t t = cnt[p][v];
            cnt[p][v] = o;
            o += t;
        }
        for (size_t i = 0; i < n; i++) {
            uint64_t v = get64(a, i);
            put64(b, cnt[p][v >> sh & 255]++, v);
        }
        void *t = a;
        a = b;
        b = t;
    }
    for (size_t i = 0; i < n;) {
        size_t e = i + 1;
        while (e < n && get64(a, e) >> 32 == get64(a, i) >> 32)
            e++;
        if (e - i > 32) {
            qsort_r((unsigned char *)a + 8 * i, e - i, 8, cmp_abs64, (void *)c);
        } else {
            for (size_t r = i + 1; r < e; r++) {
                uint64_t v = get64(a, r);
                double x = fabs(c[(uint32_t)v]);
                size_t q = r;
                for (; q > i && fabs(c[(uint32_t)get64(a, q - 1)]) > x; q--)
                    put64(a, q, get64(a, q - 1));
                put64(a, q, v);
            }
        }
        i = e;
    }
    /* ascending: the 4 bytes written at 4i were read with value i / 2 */
    for (size_t i = 0; i < n; i++)
        idx[i] = (uint32_t)get64(a, i);
}

/* The signed ranks of the n contrasts c: s_j = sign(c_j) times the rank of
 * |c_j| among all (ties share their mean rank; a zero scores 0).  The sort
 * orders the blocks' numbers in tmp, 2n values: its 8-byte values there
 * and in s, which is written after. */
static void
signed_ranks(const double *c, size_t n, double *s, uint32_t *tmp)
{
    sort_abs(c, n, tmp, tmp, s);
    for (size_t i = 0; i < n;) {
        size_t e = i + 1;
        double ai = fabs(c[tmp[i]]);
        while (e < n && fabs(c[tmp[e]]) == ai)
            e++;
        double r = (double)(i + 1 + e) / 2; /* ranks i + 1 .. e */
        for (size_t t = i; t < e; t++) {
            double x = c[tmp[t]];
            s[tmp[t]] = x > 0 ? r : x < 0 ? -r : 0;
        }
        i = e;
    }
}

/*
 * The mean's test statistic from the blocks' signed ranks s (signed_ranks
 * of the contrasts less their median, the common ratio): the one-way
 * analysis of variance of the ranks between the units, their between-unit
 * sum of squares over their pooled within-unit mean square.  A burst of
 * slow runs moves a block's contrast by tens of percent where quiet blocks'
 * contrasts differ by a fraction of one: in the mean it swamps a setup's
 * effect, in a rank it counts as one block.  Kalibera & Jones (ISMM'13)
 * section 4, "Normality": the central limit theorem does not make such
 * noise normal at these sizes.  The null is the mean's (the sides
 * exchangeable within each block once the value's runs are divided by the
 * common ratio); only the statistic is robust.  +inf when the ranks differ
 * between units and not within them.
 */
static double
rank_spread(const struct il_contrast *ct, const double *s, double *mu)
{
    double tot = 0, t = 0, w = 0;
    /* One pass: the units' blocks are consecutive and in the units' order
     * (first[u] counts the blocks before), so tot adds s[0 ..< blocks] in
     * order, as a loop of its own would, while the units' sums run
     * beside it.  mu holds the units' means (k values). */
    for (size_t u = 0; u < ct->k; u++) {
        size_t m = ct->m[u], f = ct->first[u];
        if (!m)
            continue;
        double su = 0;
        for (size_t j = f; j < f + m; j++) {
            su += s[j];
            tot += s[j];
        }
        mu[u] = su / (double)m;
        for (size_t j = f; j < f + m; j++)
            w += (s[j] - mu[u]) * (s[j] - mu[u]);
    }
    double g = tot / (double)ct->blocks;
    for (size_t u = 0; u < ct->k; u++)
        if (ct->m[u])
            t += (double)ct->m[u] * (mu[u] - g) * (mu[u] - g);
    if (!(ct->df > 0))
        return NAN;
    return w > 0 ? t / (w / ct->df) : t > 0 ? INFINITY : NAN;
}

/* Block j's first run in v and its runs of the value and the baseline:
 * with one run a side in every block (ct->pairs) the arrays are freed
 * and the places known, 2j then 2j + 1. */
static inline size_t
blk_o(const struct il_contrast *ct, size_t j)
{
    return ct->bo ? ct->bo[j] : 2 * j;
}

static inline size_t
blk_na(const struct il_contrast *ct, size_t j)
{
    return ct->bna ? ct->bna[j] : 1;
}

static inline size_t
blk_nb(const struct il_contrast *ct, size_t j)
{
    return ct->bnb ? ct->bnb[j] : 1;
}

/*
 * The error of a setup's log ratio of means from its blocks, for its
 * interval: the ratio of the sums of the value's and the baseline's runs
 * over the unit's blocks weighs each block by its level (a slow pass, a
 * burst weigh more), which the contrasts' mean does not; its jackknife
 * over blocks (Efron & Tibshirani 1993, chapter 11) does.  Each unit's
 * log ratio over its blocks, lr, and the pseudo-values m lr - (m - 1)
 * lr(-j) of leaving block j out; their deviations from their unit's mean,
 * scaled by sqrt(m / (m - 1)), pooled over the units, are the error
 * distribution of one block (ct->jres), and their pooled variance is
 * ct->s2j with ct->df degrees of freedom.
 */
static void
jackknife(struct il_contrast *ct, const double *v)
{
    size_t nb = ct->blocks;
    /* a unit's blocks' sums and pseudo-values: one unit at a time */
    double *sa = il_xcalloc(ct->maxm, sizeof *sa), *sb = il_xcalloc(ct->maxm, sizeof *sb);
    double *ps = il_xcalloc(ct->maxm, sizeof *ps), w = 0;
    ct->jres = il_xcalloc(nb ? nb : 1, sizeof *ct->jres);
    ct->lr = il_xcalloc(ct->k ? ct->k : 1, sizeof *ct->lr);
    for (size_t u = 0; u < ct->k; u++) {
        size_t m = ct->m[u], f = ct->first[u];
        double SA = 0, SB = 0, mp = 0;
        size_t NA = 0, NB = 0;
        for (size_t j = 0; j < m; j++) {
            const uint32_t b = (uint32_t)(f + j);
            sa[j] = sb[j] = 0;
            size_t o = blk_o(ct, b), na = blk_na(ct, b), nbb = blk_nb(ct, b);
            for (size_t i = 0; i < na; i++)
                sa[j] += v[o + i];
            for (size_t i = 0; i < nbb; i++)
                sb[j] += v[o + na + i];
            SA += sa[j];
            SB += sb[j];
            NA += na;
            NB += nbb;
        }
        ct->lr[u] = m ? log(SA / (double)NA) - log(SB / (double)NB) + ct->center : NAN;
        if (m < 2)
            continue;
        for (size_t j = 0; j < m; j++) {
            double l = log((SA - sa[j]) / (double)(NA - blk_na(ct, f + j))) -
                       log((SB - sb[j]) / (double)(NB - blk_nb(ct, f + j))) + ct->center;
            ps[j] = (double)m * ct->lr[u] - (double)(m - 1) * l;
            mp += ps[j] / (double)m;
        }
        double fct = sqrt((double)m / (double)(m - 1));
        for (size_t j = 0; j < m; j++) {
            w += (ps[j] - mp) * (ps[j] - mp);
            ct->jres[ct->njres++] = (ps[j] - mp) * fct;
        }
    }
    ct->s2j = ct->df > 0 ? w / ct->df : NAN;
    free(sa);
    free(sb);
    free(ps);
}

int
il_contrasts(const struct il_estimator *e, const struct il_units *a, const struct il_units *b,
             const size_t *ua, const size_t *ub, size_t k, struct il_contrast *ct)
{
    memset(ct, 0, sizeof *ct);
    ct->k = k;
    ct->median = e->kind != IL_EST_MEAN;
    ct->m = il_xcalloc(k ? k : 1, sizeof *ct->m);
    ct->first = il_xcalloc(k ? k : 1, sizeof *ct->first);
    ct->loc = il_xcalloc(k ? k : 1, sizeof *ct->loc);
    ct->p = NAN;
    if (!a->pass || !b->pass) {
        ct->why = "no record has the pass label";
        return -1;
    }
    /* The blocks: runs of both sides with one (pass, cell) in a unit.  At
     * most min(na, nb) blocks and na + nb runs a unit: the arrays are
     * allocated at those bounds once (no doubling's slack: at a million
     * records they are the comparison's largest), and trimmed after. */
    size_t cap = 1, nb = 0, nv = 0, vcap = 1, maxn = 1;
    for (size_t u = 0; u < k; u++) {
        size_t na = a->n[ua[u]], nbb = b->n[ub[u]];
        cap += na < nbb ? na : nbb;
        vcap += na + nbb;
    }
    uint32_t *bo = il_xcalloc(cap, sizeof *bo), *bna = il_xcalloc(cap, sizeof *bna);
    uint32_t *bnb = il_xcalloc(cap, sizeof *bnb);
    double *v = il_xcalloc(vcap, sizeof *v);
    uint32_t *bpass = il_xcalloc(cap, sizeof *bpass);
    int missing = 0;
    for (size_t u = 0; u < k; u++) {
        struct bkey *ka = keys(a, ua[u], &missing), *kb = keys(b, ub[u], &missing);
        size_t na = a->n[ua[u]], nbb = b->n[ub[u]], i = 0, j = 0;
        ct->first[u] = nb;
        while (i < na && j < nbb) {
            int c = cmp_bkey(&(struct bkey){ka[i].pass, ka[i].cell, 0},
                             &(struct bkey){kb[j].pass, kb[j].cell, 0});
            if (c) {
                /* a run whose block has no run of the other side */
                ct->left_out++;
                c < 0 ? i++ : j++;
                continue;
            }
            size_t i2 = i, j2 = j;
            while (i2 < na && ka[i2].pass == ka[i].pass && ka[i2].cell == ka[i].cell)
                i2++;
            while (j2 < nbb && kb[j2].pass == kb[j].pass && kb[j2].cell == kb[j].cell)
                j2++;
            bo[nb] = (uint32_t)nv;
            bna[nb] = (uint32_t)(i2 - i);
            bnb[nb] = (uint32_t)(j2 - j);
            bpass[nb] = ka[i].pass;
            for (; i < i2; i++)
                v[nv++] = a->x[ka[i].i];
            for (; j < j2; j++)
                v[nv++] = b->x[kb[j].i];
            maxn = bna[nb] + bnb[nb] > maxn ? bna[nb] + bnb[nb] : maxn;
            nb++;
            ct->m[u]++;
        }
        ct->left_out += (na - i) + (nbb - j);
        free(ka);
        free(kb);
    }
    if (nb + 1 < cap) {
        bo = il_xrealloc(bo, (nb + 1) * sizeof *bo);
        bna = il_xrealloc(bna, (nb + 1) * sizeof *bna);
        bnb = il_xrealloc(bnb, (nb + 1) * sizeof *bnb);
    }
    if (nv + 1 < vcap)
        v = il_xrealloc(v, (nv + 1) * sizeof *v);
    ct->blocks = nb;
    ct->bo = bo;
    ct->bna = bna;
    ct->bnb = bnb;
    ct->v = v;
    ct->maxn = maxn;
    if (missing) {
        free(bpass);
        ct->why = "some runs have no pass label";
        return -1;
    }
    /* passes among the blocks */
    ct->passes = distinct(bpass, nb);
    free(bpass);
    ct->maxm = 1;
    for (size_t u = 0; u < k; u++) {
        ct->units += ct->m[u] > 0;
        ct->df += ct->m[u] ? (double)(ct->m[u] - 1) : 0;
        ct->maxm = ct->m[u] > ct->maxm ? ct->m[u] : ct->maxm;
    }
    ct->pairs = 1;
    for (size_t j = 0; j < nb; j++)
        ct->pairs &= bna[j] + bnb[j] == 2;
    /* With one run a side in every block the blocks' arrays say nothing
     * (blk_o): they go before the contrasts' arrays are made (at a
     * million records these were the comparison's peak of memory). */
    if (ct->pairs) {
        free(ct->bo);
        free(ct->bna);
        free(ct->bnb);
        ct->bo = ct->bna = ct->bnb = NULL;
    }
    bo = bna = bnb = NULL; /* blk_o, blk_na, blk_nb from here */
    if (ct->units < 2) {
        ct->why = "fewer than 2 setups have a pass with runs of both sides";
        return -1;
    }
    if (!ct->median && !(ct->df > 0)) {
        ct->why = "no setup has two passes with runs of both sides";
        return -1;
    }
    /* the raw contrasts, their common location, and the value side's runs
     * divided by it, so that exchanging runs of a block keeps the null */
    double *c = il_xcalloc(nb ? nb : 1, sizeof *c), *scratch = il_xcalloc(maxn + nb, sizeof *c);
    for (size_t j = 0; j < nb; j++) {
        c[j] = contrast(ct->median, v + blk_o(ct, j), blk_na(ct, j), blk_nb(ct, j), scratch);
        if (!isfinite(c[j])) {
            free(c);
            free(scratch);
            ct->why = "an estimate is not positive";
            return -1;
        }
    }
    /* the median, which bursts do not move (for the mean too: the
     * exchanges' null is one common ratio, wherever it is estimated) */
    memcpy(scratch, c, nb * sizeof *scratch);
    ct->center = il_quantile_select(scratch, nb, 0.5); /* location()'s, by selection */
    free(scratch);
    scratch = il_xcalloc(maxn + ct->maxm, sizeof *scratch); /* contrast's, spread's */
    double theta = exp(ct->center);
    for (size_t j = 0; j < nb; j++) {
        size_t o = blk_o(ct, j), na = blk_na(ct, j), nbb = blk_nb(ct, j);
        for (size_t i = 0; i < na; i++)
            v[o + i] /= theta;
        c[j] = na == 1 && nbb == 1 ? c[j] - ct->center
                                   : contrast(ct->median, v + o, na, nbb, scratch);
    }
    ct->c = c;
    /* The runs are needed again only to exchange those of a block with
     * more than one run a side; a block of one a side flips its contrast's
     * sign (il_perm_contrasts).  So with only such blocks they are freed
     * once the jackknife has read them, before the ranks' arrays are made. */
    if (!ct->median)
        jackknife(ct, v);
    if (ct->pairs) {
        free(ct->v);
        ct->v = NULL;
    }
    ct->q = spread(ct, c, ct->loc, scratch);
    free(scratch);
    if (!isfinite(ct->q)) {
        ct->why = "the contrasts within every setup are equal";
        return -1;
    }
    ct->stat = ct->q;
    if (!ct->median) {
        double *sr = il_xcalloc(nb ? nb : 1, sizeof *sr);
        uint32_t *tmp = il_xcalloc(2 * nb + 1, sizeof *tmp);
        signed_ranks(c, nb, sr, tmp);
        double *mu = il_xcalloc(k ? k : 1, sizeof *mu);
        ct->stat = rank_spread(ct, sr, mu);
        free(mu);
        free(sr);
        free(tmp);
        if (isnan(ct->stat)) {
            ct->why = "every contrast is the common one";
            return -1;
        }
    }
    /* the pooled within-setup variance */
    double w = 0;
    for (size_t u = 0; u < k; u++) {
        size_t m = ct->m[u];
        for (size_t j = 0; j < m && m > 1; j++) {
            double d = c[ct->first[u] + j] - ct->loc[u];
            w += d * d;
        }
    }
    ct->s2 = ct->df > 0 ? w / ct->df : NAN;
    ct->ok = 1;
    return 0;
}

/* x with its sign bit xor f (f: 0, or the sign bit): -x when f is set,
 * negation being exactly that flip, bit for bit; without a branch,
 * which a coin's draw mispredicts half the time (that branch was most of
 * il_perm_contrasts' time at a million records). */
static inline double
flip(double x, uint64_t f)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    b ^= f;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* Every block of one run a side: c and s are c0 and s0 with the signs of
 * a coin each, drawn in the blocks' order as the general loop draws them.
 * The state in a local, which stays in registers (in the general loop
 * it went through memory on every draw). */
static void
flips(struct il_rng *g, const double *c0, const double *s0, double *c, double *s, size_t nb)
{
    struct il_rng l = *g;
    for (size_t j = 0; j < nb; j++) {
        uint64_t f = (uint64_t)il_rng_below(&l, 2) << 63;
        c[j] = flip(c0[j], f);
        s[j] = flip(s0[j], f);
    }
    *g = l;
}

enum { FLIP_CHUNK = 512 }; /* blocks: two chunks' values in the first-level cache */

/* One exchange when every block is of one run a side and the estimator
 * is the mean (flips, then spread's Q in *q and rank_spread's statistic
 * in *t), unit by unit: the same draws in the same order, every sum in
 * the same order, so the same bits.  The three sums over all blocks
 * (spread's w, rank_spread's total and w) are each one serial chain of
 * additions, which was the exchange's bound: here they run side by side
 * in one loop, over a chunk of units whose flipped values (cb, sb: at
 * least FLIP_CHUNK and ct->maxm values) and locations are taken first,
 * and the contrasts and ranks are not written out.  Needs the units'
 * blocks consecutive and in order (flip_ok).  loc and mu hold k. */
static void
flip_spreads(const struct il_contrast *ct, struct il_rng *g, const double *sr0, double *cb,
             double *sb, double *loc, double *mu, double *q, double *t)
{
    struct il_rng l = *g;
    size_t k = ct->k, off = 0;
    double sw = 0, swl = 0, w = 0, tot = 0, wr = 0;
    for (size_t u0 = 0; u0 < k;) {
        size_t u1 = u0, n = 0;
        while (u1 < k && (u1 == u0 || n + ct->m[u1] <= FLIP_CHUNK))
            n += ct->m[u1++];
        /* the coins in the blocks' order; a unit's ranks' sum beside
         * them (its chain of additions runs beside the generator's) */
        for (size_t u = u0, j = 0; u < u1; u++) {
            double su = 0;
            for (size_t e = j + ct->m[u]; j < e; j++) {
                uint64_t f = (uint64_t)il_rng_below(&l, 2) << 63;
                cb[j] = flip(ct->c[off + j], f);
                sb[j] = flip(sr0[off + j], f);
                su += sb[j];
            }
            mu[u] = su;
        }
        il_means(cb, ct->m + u0, u1 - u0, loc + u0);
        for (size_t u = u0, o = 0; u < u1; o += ct->m[u++]) {
            size_t m = ct->m[u];
            if (!m) {
                loc[u] = NAN;
                continue;
            }
            sw += (double)m;
            swl += (double)m * loc[u];
            mu[u] /= (double)m;
            for (size_t j = o; j < o + m; j++) {
                w += (cb[j] - loc[u]) * (cb[j] - loc[u]);
                tot += sb[j];
                wr += (sb[j] - mu[u]) * (sb[j] - mu[u]);
            }
        }
        off += n;
        u0 = u1;
    }
    *g = l;
    double mean = swl / sw, gm = tot / (double)ct->blocks, tq = 0, tr = 0;
    for (size_t u = 0; u < k; u++)
        if (ct->m[u]) {
            tq += (double)ct->m[u] * (loc[u] - mean) * (loc[u] - mean);
            tr += (double)ct->m[u] * (mu[u] - gm) * (mu[u] - gm);
        }
    *q = w > 0 && ct->df > 0 ? tq / (w / ct->df) : NAN;
    *t = !(ct->df > 0) ? NAN : wr > 0 ? tr / (wr / ct->df) : tr > 0 ? INFINITY : NAN;
}

/* flip_spreads' case: pairs, the mean, the units' blocks consecutive and
 * in order (first[u] counts the blocks before u). */
static int
flip_ok(const struct il_contrast *ct)
{
    size_t f = 0;
    for (size_t u = 0; u < ct->k; f += ct->m[u++])
        if (ct->m[u] && ct->first[u] != f)
            return 0;
    return ct->pairs && !ct->median && f == ct->blocks;
}

double
il_perm_contrasts(struct il_contrast *ct, size_t P, unsigned long seed, double *qp, size_t *nq)
{
    if (nq)
        *nq = 0;
    if (!ct->ok)
        return NAN;
    size_t nb = ct->blocks;
    /* A block of one run a side flips its contrast's sign, and keeps its
     * rank: with only such blocks the ranks are taken once, and an exchange
     * costs what Q's does.  They are taken first, and the sort's memory
     * (8 bytes a block) is freed before the exchanges' arrays are made. */
    double *sr0 = il_xcalloc(nb ? nb : 1, sizeof *sr0);
    uint32_t *tmp = il_xcalloc(2 * nb + 1, sizeof *tmp); /* signed_ranks' */
    if (!ct->median)
        signed_ranks(ct->c, nb, sr0, tmp);
    if (ct->pairs || ct->median) {
        free(tmp);
        tmp = NULL;
    }
    /* flip_spreads needs a chunk's values, not all blocks' */
    int fs = flip_ok(ct);
    size_t nc = fs ? (ct->maxm > FLIP_CHUNK ? ct->maxm : FLIP_CHUNK) : nb ? nb : 1;
    double *c = il_xcalloc(nc, sizeof *c), *loc = il_xcalloc(ct->k ? ct->k : 1, sizeof *loc);
    double *mu = fs ? il_xcalloc(ct->k ? ct->k : 1, sizeof *mu) : NULL;
    /* a block's runs (contrast) or a unit's contrasts (spread's location) */
    double *scratch = il_xcalloc(ct->maxn + ct->maxm, sizeof *scratch);
    double *pool = il_xcalloc(ct->maxn, sizeof *pool);
    double *sr = il_xcalloc(nc, sizeof *sr);
    struct il_rng g;
    il_rng_init(&g, (uint32_t)seed, IL_STREAM_BLOCK);
    /* Without qp nothing but p takes the exchanges: they stop once its
     * side of 5% is decided (seqp.c).  With qp every exchange
     * is run: tau's interval takes their quantiles. */
    struct il_seqp sq;
    il_seqp_init(&sq, P, qp == NULL);
    for (size_t it = 0; it < P && !sq.stopped; it++) {
        double q = NAN, t = NAN;
        if (fs)
            flip_spreads(ct, &g, sr0, c, sr, loc, mu, &q, &t);
        else if (ct->pairs)
            flips(&g, ct->c, sr0, c, sr, nb);
        for (size_t j = 0; j < nb && !ct->pairs; j++) {
            size_t na = ct->bna[j], n = na + ct->bnb[j];
            if (n == 2) {
                uint64_t f = (uint64_t)il_rng_below(&g, 2) << 63;
                c[j] = flip(ct->c[j], f);
                sr[j] = flip(sr0[j], f);
                continue;
            }
            memcpy(pool, ct->v + ct->bo[j], n * sizeof *pool);
            for (size_t i = 0; i < na; i++) {
                size_t r = i + il_rng_below(&g, n - i);
                double y = pool[i];
                pool[i] = pool[r];
                pool[r] = y;
            }
            c[j] = contrast(ct->median, pool, na, n - na, scratch);
        }
        if (!fs)
            q = t = spread(ct, c, loc, scratch);
        if (!fs && !ct->median) {
            if (!ct->pairs)
                signed_ranks(c, nb, sr, tmp);
            t = rank_spread(ct, sr, loc); /* spread is done with loc */
        }
        if (isnan(t))
            continue;
        il_seqp_add(&sq, t >= ct->stat * (1 - 1e-12));
        if (qp && !isnan(q))
            qp[(*nq)++] = q;
    }
    free(c);
    free(sr);
    free(loc);
    free(mu);
    free(scratch);
    free(pool);
    free(sr0);
    free(tmp);
    ct->p = il_seqp_p(&sq);
    return ct->p;
}

void
il_contrast_free(struct il_contrast *ct)
{
    free(ct->m);
    free(ct->first);
    free(ct->loc);
    free(ct->bo);
    free(ct->bna);
    free(ct->bnb);
    free(ct->v);
    free(ct->c);
    free(ct->jres);
    free(ct->lr);
    memset(ct, 0, sizeof *ct);
}

/*
 * The runs of a group's units as blocks of a restricted permutation
 * (il_pass_blocks, il_block_shuffle): interloper sweep runs every setup
 * once per pass (label rep, or --passes), in a random order, and passes
 * drift, so runs are exchangeable across setups only within a pass; and,
 * when the units are one factor of the sweep's setups (layouts over
 * environment sizes), only within one value of the others (the run's
 * cell, units.c).
 */
static int
pass_cell_cmp(const void *a, const void *b, void *arg)
{
    const struct il_units *un = arg;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    uint32_t x = un->pass[i], y = un->pass[j];
    if (x != y)
        return (x > y) - (x < y);
    x = un->cell[i];
    y = un->cell[j];
    return x != y ? (x > y) - (x < y) : (i > j) - (i < j);
}

/* out = in stably sorted by key[in[i]] <= max; cnt holds max + 2. */
static void
count_sort(const uint32_t *key, uint32_t max, const size_t *in, size_t *out, size_t N, size_t *cnt)
{
    memset(cnt, 0, ((size_t)max + 2) * sizeof *cnt);
    for (size_t i = 0; i < N; i++)
        cnt[key[in[i]] + 1]++;
    for (size_t v = 1; v <= max; v++)
        cnt[v] += cnt[v - 1];
    for (size_t i = 0; i < N; i++)
        out[cnt[key[in[i]]]++] = in[i];
}

/* The end of the runs of the unit that holds run i: off[u] + n[u]. */
static size_t
unit_end(const struct il_units *un, size_t i)
{
    size_t lo = 0, hi = un->k; /* the first unit whose runs start past i */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (un->off[mid] <= i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return un->off[lo - 1] + un->n[lo - 1];
}

size_t *
il_pass_blocks(const struct il_units *un, size_t **bs, size_t *nb, int *none)
{
    *none = 0;
    *bs = NULL;
    *nb = 0;
    if (!un->pass || !un->cell)
        return NULL;
    size_t N = 0;
    for (size_t u = 0; u < un->k; u++)
        N += un->n[u];
    size_t *pos = il_xcalloc(N ? N : 1, sizeof *pos);
    int ok = 1, mixed_any = 0;
    uint32_t maxp = 0, maxc = 0;
    for (size_t i = 0; i < N; i++) {
        pos[i] = i;
        ok &= un->pass[i] != IL_MISSING_ID;
        maxp = un->pass[i] > maxp ? un->pass[i] : maxp;
        maxc = un->cell[i] > maxc ? un->cell[i] : maxc;
    }
    /* pass_cell_cmp is a total order (the run breaks ties), so two stable
     * counting sorts, by cell and then by pass, give qsort_r's array in
     * linear time: at a million records the sort was 6% of a comparison's
     * instructions.  qsort_r when the ids are too sparse for their counts;
     * none when a run has no pass (pos is not used then). */
    if (ok && il_dense((size_t)maxp + 1, N) && il_dense((size_t)maxc + 1, N)) {
        size_t *tmp = il_xcalloc(N ? N : 1, sizeof *tmp);
        size_t *cnt = il_xcalloc((size_t)(maxp > maxc ? maxp : maxc) + 2, sizeof *cnt);
        count_sort(un->cell, maxc, pos, tmp, N, cnt);
        count_sort(un->pass, maxp, tmp, pos, N, cnt);
        free(tmp);
        free(cnt);
    } else if (ok) {
        qsort_r(pos, N, sizeof *pos, pass_cell_cmp, (void *)un);
    }
    /* The blocks, counted first so that bs holds only them (a group's
     * positions are its largest array).  A block's positions ascend, and
     * a unit's runs are consecutive: the block holds runs of two units
     * when its last run is past the end of its first run's unit. */
    for (size_t i = 0, f = 0; i <= N && ok; i++) {
        if (i < N && i > 0 && un->pass[pos[i]] == un->pass[pos[i - 1]] &&
            un->cell[pos[i]] == un->cell[pos[i - 1]])
            continue;
        if (i > 0)
            mixed_any |= pos[i - 1] >= unit_end(un, pos[f]);
        f = i;
        *nb += i < N;
    }
    *bs = il_xcalloc(*nb + 1, sizeof **bs);
    for (size_t i = 0, b = 0; i < N && ok; i++)
        if (i == 0 || un->pass[pos[i]] != un->pass[pos[i - 1]] ||
            un->cell[pos[i]] != un->cell[pos[i - 1]])
            (*bs)[b++] = i;
    (*bs)[*nb] = N;
    if (!ok || *nb < 1 || !mixed_any) {
        *none = ok && *nb >= 1;
        free(pos);
        free(*bs);
        *bs = NULL;
        *nb = 0;
        return NULL;
    }
    return pos;
}

int
il_block_normalize(const struct il_estimator *e, double *x, const size_t *pos, const size_t *bs,
                   size_t nb)
{
    size_t maxb = 1;
    for (size_t b = 0; b < nb; b++)
        maxb = bs[b + 1] - bs[b] > maxb ? bs[b + 1] - bs[b] : maxb;
    struct il_estimator lv = {e->kind == IL_EST_MEAN ? IL_EST_MEAN : IL_EST_MEDIAN, 0.5, NULL};
    double *v = il_xcalloc(maxb, sizeof *v), *scratch = il_xcalloc(maxb, sizeof *scratch);
    double *lev = il_xcalloc(nb ? nb : 1, sizeof *lev);
    int ok = 0;
    /* every level first: x is divided only when all are positive (the
     * caller's free exchange then takes the runs as they were) */
    for (size_t b = 0; b < nb && ok == 0; b++) {
        size_t n = bs[b + 1] - bs[b];
        for (size_t i = 0; i < n; i++)
            v[i] = x[pos[bs[b] + i]];
        lev[b] = il_estimate(&lv, v, n, scratch);
        ok = lev[b] > 0 ? 0 : -1;
    }
    for (size_t b = 0; b < nb && ok == 0; b++)
        for (size_t i = bs[b]; i < bs[b + 1]; i++)
            x[pos[i]] /= lev[b];
    free(lev);
    free(v);
    free(scratch);
    return ok;
}

/* Block by block: a block's runs lie scattered over x (one a setup), so
 * they are gathered into xb, shuffled there in cache, and put back: the
 * same draws in the same order as a Fisher-Yates of x[pos[..]] in place
 * (for i = n-1 down to 1, swap i with below(i + 1)), so the same
 * exchange, at a third of the cost. */
void
il_block_shuffle(double *x, size_t N, const size_t *pos, const size_t *bs, size_t nb,
                 struct il_rng *g)
{
    if (!pos) {
        il_rng_shuffle_double(g, x, N);
        return;
    }
    size_t maxb = 1;
    for (size_t b = 0; b < nb; b++)
        maxb = bs[b + 1] - bs[b] > maxb ? bs[b + 1] - bs[b] : maxb;
    double *xb = il_xcalloc(maxb, sizeof *xb);
    for (size_t b = 0; b < nb; b++) {
        const size_t *p = pos + bs[b];
        size_t n = bs[b + 1] - bs[b];
        for (size_t i = 0; i < n; i++)
            xb[i] = x[p[i]];
        il_rng_shuffle_double(g, xb, n);
        for (size_t i = 0; i < n; i++)
            x[p[i]] = xb[i];
    }
    free(xb);
}

const char *
il_exch_cmp(const struct il_setups *s)
{
    return s->exch_blocks ? "within (setup, pass)" : "within setup";
}

const char *
il_exch_group(const struct il_gsetups *s)
{
    return s->blocked ? "within pass" : "free";
}

void
il_exch_cmp_text(const struct il_opts *o, const struct il_setups *s, char *buf, size_t n)
{
    if (s->exch_blocks)
        snprintf(buf, n,
                 "the two sides exchanged only within each (%s, pass) block, as the sweep's "
                 "randomization could have exchanged them (%zu passes, label %s): drift between "
                 "passes cancels in the blocks' contrasts",
                 o->d_label[0], s->passes, o->passes);
    else
        snprintf(buf, n,
                 "the runs of the two sides exchanged freely within each %s, which assumes that "
                 "a setup's runs are exchangeable: no drift between them (%s)",
                 o->d_label[0],
                 !o->passes    ? "--passes none"
                 : s->exch_why ? s->exch_why
                               : "the records carry no passes");
}

void
il_exch_group_text(const struct il_opts *o, const struct il_gsetups *s, char *buf, size_t n)
{
    if (s->blocked)
        snprintf(buf, n,
                 "runs exchanged across setups only within each pass (label %s, %zu passes%s), "
                 "each divided by its block's level, so that drift between passes cancels",
                 o->passes, s->passes,
                 s->nblocks > s->passes ? "; and within one value of the sweep's other factors"
                                        : "");
    else
        snprintf(buf, n,
                 "runs exchanged freely across setups, which assumes that runs are exchangeable: "
                 "no drift between them (%s)",
                 !o->passes    ? "--passes none"
                 : s->free_why ? s->free_why
                               : "the records carry no passes");
}
