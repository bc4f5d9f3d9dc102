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

/* out = in stably sorted by the pass (by_pass) or the cell, each <= max;
 * cnt holds max + 2 */
static void
count_keys(const struct bkey *in, struct bkey *out, size_t n, int by_pass, uint32_t max,
           size_t *cnt)
{
    memset(cnt, 0, ((size_t)max + 2) * sizeof *cnt);
    for (size_t i = 0; i < n; i++)
        cnt[(by_pass ? in[i].pass : in[i].cell) + 1]++;
    for (size_t v = 1; v <= max; v++)
        cnt[v] += cnt[v - 1];
    for (size_t i = 0; i < n; i++)
        out[cnt[by_pass ? in[i].pass : in[i].cell]++] = in[i];
}

/* k[0 ..< n], in the order of i, into cmp_bkey's order: a total order (i
 * breaks ties), so any sort gives the one array; two stable counting
 * sorts, by cell and then by pass, when their ids are dense enough (a
 * unit's runs are in record order, and the pass ids are those of their
 * strings, which are not that order: qsort was 2% of a comparison's
 * time at a million records), else qsort. */
static void
sort_keys(struct bkey *k, size_t n)
{
    uint32_t maxp = 0, maxc = 0;
    for (size_t i = 0; i < n; i++) {
        maxp = k[i].pass > maxp ? k[i].pass : maxp;
        maxc = k[i].cell > maxc ? k[i].cell : maxc;
    }
    if (!il_dense((size_t)maxp + 1, n) || !il_dense((size_t)maxc + 1, n)) {
        qsort(k, n, sizeof *k, cmp_bkey);
        return;
    }
    struct bkey *t = il_xcalloc(n ? n : 1, sizeof *t);
    size_t *cnt = il_xcalloc((size_t)(maxp > maxc ? maxp : maxc) + 2, sizeof *cnt);
    if (maxc) {
        count_keys(k, t, n, 0, maxc, cnt);
        count_keys(t, k, n, 1, maxp, cnt);
    } else {
        count_keys(k, t, n, 1, maxp, cnt);
        memcpy(k, t, n * sizeof *k);
    }
    free(t);
    free(cnt);
}

static struct bkey *
keys(const struct il_units *u, size_t j, int *missing)
{
    size_t n = u->n[j], off = u->off[j];
    struct bkey *k = il_xcalloc(n ? n : 1, sizeof *k);
    for (size_t i = 0; i < n; i++) {
        k[i].pass = il_has_pass(u) ? il_upass(u, off + i) : IL_MISSING_ID;
        k[i].cell = u->cell ? u->cell[off + i] : 0;
        k[i].i = off + i;
        *missing |= k[i].pass == IL_MISSING_ID;
    }
    sort_keys(k, n);
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
        /* each unit's sum of squares, then theirs (flip_spreads') */
        double wu = 0;
        if (!ct->median)
            for (size_t j = 0; j < m; j++)
                wu += (c[ct->first[u] + j] - loc[u]) * (c[ct->first[u] + j] - loc[u]);
        w += wu;
    }
    double mean = swl / sw;
    for (size_t u = 0; u < k; u++)
        if (ct->m[u])
            t += (double)ct->m[u] * (loc[u] - mean) * (loc[u] - mean);
    if (ct->median)
        return t;
    return w > 0 && ct->df > 0 ? t / (w / ct->df) : NAN;
}

/* The 4-byte values of a buffer of another type (memcpy: no aliasing). */
static inline uint32_t
get32(const unsigned char *p, size_t i)
{
    uint32_t v;
    memcpy(&v, p + 4 * i, sizeof v);
    return v;
}

static inline void
put32(unsigned char *p, size_t i, uint32_t v)
{
    memcpy(p + 4 * i, &v, sizeof v);
}

/* The bits of |x| rounded to a float: their order is the floats' for
 * values >= 0, and the rounding keeps order. */
static inline uint32_t
abs_key(double x)
{
    float f = (float)fabs(x);
    uint32_t k;
    memcpy(&k, &f, sizeof k);
    return k;
}

/* (block) values in the order of |c[block]| (qsort_r's argument is c) */
static int
cmp_abs32(const void *pa, const void *pb, void *arg)
{
    const double *c = arg;
    uint32_t x, y;
    memcpy(&x, pa, sizeof x);
    memcpy(&y, pb, sizeof y);
    double a = fabs(c[x]), b = fabs(c[y]);
    return (a > b) - (a < b);
}

/*
 * The signed ranks of the n contrasts c, twice over: r_j = sign(c_j)
 * times twice the rank of |c_j| among all (ties share their mean rank, so
 * twice it is an integer; a zero scores 0), in the first 4n of the 8n
 * bytes of buf, and a 4n-byte array of keys of its own while it runs
 * (at a million records the sort's buffers were the comparison's peak of
 * memory; the keys did not raise it: review10c).  buf's 8n bytes are two arrays
 * of n blocks' numbers, L and U: a radix sort of the numbers by abs_key,
 * byte by byte, between them (a byte of one value everywhere is skipped:
 * the order stays), the sorted numbers then in L; the blocks of one key
 * by |c| itself; then each block's twice-rank into U at its number, and
 * last the signed ones into L.  A signed rank is r_j / 2 (rank_value);
 * in 4 bytes, the exchanges read half the bytes of a double's.  n is
 * below 2^30 (il_contrasts sees to it), so 2n fits.
 */
static void
signed_ranks(const double *c, size_t n, void *buf)
{
    if (!n)
        return;
    unsigned char *L = buf, *U = L + 4 * n, *src = L, *dst = U;
    /* the keys, read at random by the sort: in 4 bytes a block, not c's
     * 8 (at ten million records 20 MB, which the last-level cache holds) */
    uint32_t *K = il_xmalloc(n * sizeof *K);
    size_t cnt[4][256];
    memset(cnt, 0, sizeof cnt);
    for (size_t j = 0; j < n; j++) {
        uint32_t k = K[j] = abs_key(c[j]);
        put32(L, j, (uint32_t)j);
        for (int p = 0; p < 4; p++)
            cnt[p][k >> 8 * p & 255]++;
    }
    for (int p = 0; p < 4; p++) {
        int sh = 8 * p;
        if (cnt[p][K[0] >> sh & 255] == n)
            continue; /* one value of this byte: the order stays */
        for (size_t v = 0, o = 0; v < 256; v++) {
            size_t t = cnt[p][v];
            cnt[p][v] = o;
            o += t;
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t b = get32(src, i);
            put32(dst, cnt[p][K[b] >> sh & 255]++, b);
        }
        unsigned char *t = src;
        src = dst;
        dst = t;
    }
    if (src != L)
        memcpy(L, U, 4 * n);
    /* the blocks of one key by |c| itself (keys that differ are of values
     * that differ), and then the ranks i + 1 .. e of values that are
     * equal, twice their mean, into U at their numbers */
    for (size_t i = 0; i < n;) {
        size_t e = i + 1;
        uint32_t k = K[get32(L, i)];
        while (e < n && K[get32(L, e)] == k)
            e++;
        if (e - i > 32) {
            qsort_r(L + 4 * i, e - i, 4, cmp_abs32, (void *)c);
        } else {
            for (size_t r = i + 1; r < e; r++) {
                uint32_t b = get32(L, r);
                double x = fabs(c[b]);
                size_t q = r;
                for (; q > i && fabs(c[get32(L, q - 1)]) > x; q--)
                    put32(L, q, get32(L, q - 1));
                put32(L, q, b);
            }
        }
        for (size_t t = i; t < e;) {
            size_t t2 = t + 1;
            double a = e - i > 1 ? fabs(c[get32(L, t)]) : 0;
            while (t2 < e && fabs(c[get32(L, t2)]) == a)
                t2++;
            for (size_t q = t; q < t2; q++)
                put32(U, get32(L, q), (uint32_t)(t + 1 + t2));
            t = t2;
        }
        i = e;
    }
    free(K);
    for (size_t j = 0; j < n; j++) {
        int32_t r = (int32_t)get32(U, j);
        put32(L, j, (uint32_t)(c[j] > 0 ? r : c[j] < 0 ? -r : 0));
    }
}

/* The signed rank of a twice-rank r (signed_ranks'): r / 2, exactly; 0
 * is +0, as the ranks were when they were kept as doubles. */
static inline double
rank_value(int32_t r)
{
    return (double)r * 0.5;
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
rank_spread(const struct il_contrast *ct, const int32_t *s, double *mu)
{
    double tot = 0, t = 0, w = 0;
    /* Each unit's sums, then theirs, in the units' order (flip_spreads
     * runs the units' chains side by side).  mu holds the units' means
     * (k values). */
    for (size_t u = 0; u < ct->k; u++) {
        size_t m = ct->m[u], f = ct->first[u];
        if (!m)
            continue;
        double su = 0, wu = 0;
        for (size_t j = f; j < f + m; j++)
            su += rank_value(s[j]);
        tot += su;
        mu[u] = su / (double)m;
        for (size_t j = f; j < f + m; j++)
            wu += (rank_value(s[j]) - mu[u]) * (rank_value(s[j]) - mu[u]);
        w += wu;
    }
    double g = tot / (double)ct->blocks;
    for (size_t u = 0; u < ct->k; u++)
        if (ct->m[u])
            t += (double)ct->m[u] * (mu[u] - g) * (mu[u] - g);
    if (!(ct->df > 0))
        return NAN;
    return w > 0 ? t / (w / ct->df) : t > 0 ? INFINITY : NAN;
}

/* Block j's runs of the value and the baseline: with one run a side in
 * every block (ct->pairs) the arrays are freed.  A block's first run in v
 * is a running offset: every reader walks the blocks in order. */
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
 * ct->s2j with ct->df degrees of freedom.  The residuals go to jres (at
 * least ct->blocks values), which may be v itself when every block has
 * one run a side: a unit's are written after its runs are read, at or
 * below its first block's number, where its runs begin at twice that.
 */
static void
jackknife(struct il_contrast *ct, const double *v, double *jres)
{
    /* a unit's blocks' sums and pseudo-values: one unit at a time */
    double *sa = il_xcalloc(ct->maxm, sizeof *sa), *sb = il_xcalloc(ct->maxm, sizeof *sb);
    double *ps = il_xcalloc(ct->maxm, sizeof *ps), w = 0;
    ct->lr = il_xcalloc(ct->k ? ct->k : 1, sizeof *ct->lr);
    size_t o = 0; /* the next block's first run */
    for (size_t u = 0; u < ct->k; u++) {
        size_t m = ct->m[u], f = ct->first[u];
        double SA = 0, SB = 0, mp = 0;
        size_t NA = 0, NB = 0;
        for (size_t j = 0; j < m; j++) {
            const uint32_t b = (uint32_t)(f + j);
            sa[j] = sb[j] = 0;
            size_t na = blk_na(ct, b), nbb = blk_nb(ct, b);
            for (size_t i = 0; i < na; i++)
                sa[j] += v[o + i];
            for (size_t i = 0; i < nbb; i++)
                sb[j] += v[o + na + i];
            o += na + nbb;
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
            jres[ct->njres++] = (ps[j] - mp) * fct;
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
    if (!il_has_pass(a) || !il_has_pass(b)) {
        ct->why = "no record has the pass label";
        return -1;
    }
    /* The blocks: runs of both sides with one (pass, cell) in a unit.  At
     * most min(na, nb) blocks and na + nb runs a unit: the arrays are
     * allocated at those bounds once (no doubling's slack: at a million
     * records they are the comparison's largest), and trimmed after.  A
     * block's first run in v is not kept (the readers walk the blocks in
     * order), and its pass is marked in a table of the passes' ids when
     * they are dense enough, else kept a block and counted after. */
    size_t cap = 1, nb = 0, nv = 0, vcap = 1, maxn = 1;
    uint32_t maxp = 0;
    for (size_t u = 0; u < k; u++) {
        size_t na = a->n[ua[u]], nbb = b->n[ub[u]];
        cap += na < nbb ? na : nbb;
        vcap += na + nbb;
        for (int side = 0; side < 2; side++) {
            const struct il_units *U = side ? b : a;
            size_t i = side ? ub[u] : ua[u];
            for (size_t r = U->off[i]; r < U->off[i] + U->n[i]; r++)
                maxp = il_upass(U, r) > maxp ? il_upass(U, r) : maxp;
        }
    }
    int dense = il_dense((size_t)maxp + 1, vcap);
    unsigned char *seen = dense ? il_xcalloc((size_t)maxp / 8 + 1, 1) : NULL;
    uint32_t *bpass = dense ? NULL : il_xcalloc(cap, sizeof *bpass);
    uint32_t *bna = il_xcalloc(cap, sizeof *bna), *bnb = il_xcalloc(cap, sizeof *bnb);
    double *v = il_xcalloc(vcap, sizeof *v);
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
            bna[nb] = (uint32_t)(i2 - i);
            bnb[nb] = (uint32_t)(j2 - j);
            uint32_t p = ka[i].pass;
            if (seen && p != IL_MISSING_ID && !(seen[p / 8] >> p % 8 & 1)) {
                seen[p / 8] |= (unsigned char)(1u << p % 8);
                ct->passes++;
            } else if (bpass) {
                bpass[nb] = p;
            }
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
    free(seen);
    if (nb + 1 < cap) {
        bna = il_xrealloc(bna, (nb + 1) * sizeof *bna);
        bnb = il_xrealloc(bnb, (nb + 1) * sizeof *bnb);
    }
    if (nv + 1 < vcap)
        v = il_xrealloc(v, (nv + 1) * sizeof *v);
    ct->blocks = nb;
    ct->bna = bna;
    ct->bnb = bnb;
    ct->v = v;
    ct->maxn = maxn;
    if (missing) {
        free(bpass);
        ct->passes = 0; /* not counted */
        ct->why = "some runs have no pass label";
        return -1;
    }
    /* passes among the blocks */
    if (bpass)
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
    /* With one run a side in every block the blocks' arrays say nothing:
     * they go before the contrasts' arrays are made (at a million
     * records these were the comparison's peak of memory). */
    if (ct->pairs) {
        free(ct->bna);
        free(ct->bnb);
        ct->bna = ct->bnb = NULL;
    }
    bna = bnb = NULL; /* blk_na, blk_nb from here */
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
    double *c = il_xcalloc(nb ? nb : 1, sizeof *c);
    double *scratch = il_xcalloc(maxn + ct->maxm, sizeof *scratch); /* contrast's, spread's */
    for (size_t j = 0, o = 0; j < nb; o += blk_na(ct, j) + blk_nb(ct, j), j++) {
        c[j] = contrast(ct->median, v + o, blk_na(ct, j), blk_nb(ct, j), scratch);
        if (!isfinite(c[j])) {
            free(c);
            free(scratch);
            ct->why = "an estimate is not positive";
            return -1;
        }
    }
    /* the median, which bursts do not move (for the mean too: the
     * exchanges' null is one common ratio, wherever it is estimated);
     * selected in c itself, whose order it spoils: a block of one run a
     * side takes its raw contrast again below, the same bits (contrast's:
     * the estimate of one run is the run) */
    ct->center = il_quantile_select(c, nb, 0.5); /* location()'s, by selection */
    double theta = exp(ct->center);
    for (size_t j = 0, o = 0; j < nb; j++) {
        size_t na = blk_na(ct, j), nbb = blk_nb(ct, j);
        double raw = na == 1 && nbb == 1 ? log(v[o] / v[o + 1]) : 0;
        for (size_t i = 0; i < na; i++)
            v[o + i] /= theta;
        c[j] =
            na == 1 && nbb == 1 ? raw - ct->center : contrast(ct->median, v + o, na, nbb, scratch);
        o += na + nbb;
    }
    ct->c = c;
    /* The runs are needed again only to exchange those of a block with
     * more than one run a side; a block of one a side flips its contrast's
     * sign (il_perm_contrasts).  So with only such blocks the jackknife's
     * residuals are written over them, and the rest given back, before
     * the ranks are taken. */
    if (!ct->median) {
        ct->jres = ct->pairs ? v : il_xcalloc(nb ? nb : 1, sizeof *ct->jres);
        jackknife(ct, v, ct->jres);
    }
    if (ct->pairs) {
        if (ct->median)
            free(v);
        else
            ct->jres = il_xrealloc(v, (ct->njres ? ct->njres : 1) * sizeof *v);
        ct->v = v = NULL;
    }
    ct->q = spread(ct, c, ct->loc, scratch);
    free(scratch);
    if (!isfinite(ct->q)) {
        ct->why = "the contrasts within every setup are equal";
        return -1;
    }
    ct->stat = ct->q;
    if (!ct->median && nb > INT32_MAX / 2) {
        ct->why = "more than 2^30 blocks: their ranks, twice over, are 32-bit numbers";
        return -1;
    }
    if (!ct->median) {
        /* kept for the exchanges: a block of one run a side keeps its rank;
         * the sort's second half given back */
        void *buf = il_xcalloc(nb ? nb : 1, 2 * sizeof *ct->sr);
        signed_ranks(c, nb, buf);
        ct->sr = il_xrealloc(buf, (nb ? nb : 1) * sizeof *ct->sr);
        double *mu = il_xcalloc(k ? k : 1, sizeof *mu);
        ct->stat = rank_spread(ct, ct->sr, mu);
        free(mu);
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
flips(struct il_rng *g, struct il_coins *cs, const double *c0, const int32_t *s0, double *c,
      int32_t *s, size_t nb)
{
    struct il_rng l = *g;
    struct il_coins lc = *cs;
    for (size_t j = 0; j < nb; j++) {
        uint32_t f = il_coin(&l, &lc);
        c[j] = flip(c0[j], (uint64_t)f << 63);
        s[j] = f ? -s0[j] : s0[j];
    }
    *g = l;
    *cs = lc;
}

/* The coins of the next n blocks, block j's in bit j % 32 of w[j / 32]
 * (w NULL: none kept, the state after them wanted): il_coin's, one by
 * one, from the same draws (a draw is taken when the coins left run out
 * within a word, as il_coin takes it when they run out); *cs is left as
 * il_coin would leave it. */
static void
coin_words(struct il_rng *g, struct il_coins *cs, size_t n, uint32_t *w)
{
    uint64_t acc = cs->w; /* the coins not yet given, from bit 0 */
    unsigned have = cs->left;
    for (size_t k = 0; 32 * k < n; k++) {
        unsigned take = n - 32 * k < 32 ? (unsigned)(n - 32 * k) : 32;
        if (have < take) {
            acc |= (uint64_t)il_rng_next(g) << have;
            have += 32;
        }
        if (w)
            w[k] = (uint32_t)acc;
        acc >>= take;
        have -= take;
    }
    cs->w = (uint32_t)acc;
    cs->left = have;
}

/* Two sign bits to xor, and flip's two at a time */
typedef uint64_t il_v2u __attribute__((vector_size(2 * sizeof(uint64_t))));

static inline il_v2d
flip2(il_v2d x, il_v2u f)
{
    return (il_v2d)((il_v2u)x ^ f);
}

/* Coins p .. p + 63 of w, coin p in bit 0 (w holds two words past the
 * last coin's) */
static inline uint64_t
coin_bits64(const uint32_t *w, size_t p)
{
    size_t k = p / 32;
    unsigned s = p % 32;
    uint64_t lo = w[k] | (uint64_t)w[k + 1] << 32;
    return s ? lo >> s | (uint64_t)w[k + 2] << (64 - s) : lo;
}

/* Block j's coin as a sign bit to xor (flip) */
static inline uint64_t
coin_bit(const uint32_t *w, size_t j)
{
    return (uint64_t)(w[j / 32] >> j % 32 & 1) << 63;
}

/* s[u] = the sum of unit u's m[u] values (the units' values one after
 * another in x), in their order from 0; four units of as many values side
 * by side, so that four chains of additions are in flight (as il_means). */
static void
unit_sums(const double *x, const size_t *m, size_t k, double *s)
{
    for (size_t u = 0; u < k;) {
        size_t l = m[u];
        if (u + 4 > k || m[u + 1] != l || m[u + 2] != l || m[u + 3] != l) {
            double a = 0;
            for (size_t i = 0; i < l; i++)
                a += x[i];
            s[u++] = a;
            x += l;
            continue;
        }
        il_sum4(x, l, s + u);
        x += 4 * l;
        u += 4;
    }
}

enum { FLIP_CHUNK = 512 }; /* blocks: two chunks' values in the first-level cache */

/* The blocks of flip_spreads' chunk: a whole number of fours of the
 * largest units up to FLIP_CHUNK, or four of them when they have more
 * (then four units' sums run side by side, which one unit a chunk had
 * made serial chains: 1,000 blocks a unit at ten million records; and
 * units of one size fill a chunk by fours, not one left to run alone:
 * 100 blocks a unit at a million). */
static size_t
flip_chunk(const struct il_contrast *ct)
{
    size_t four = 4 * ct->maxm;
    return four > FLIP_CHUNK ? four : FLIP_CHUNK / four * four;
}

/* w[u] = the sum of (x_j - c[u])^2 over unit u's m[u] values (the units'
 * values one after another in x), in their order; four units of as many
 * values side by side, so that four chains of additions are in flight. */
static void
unit_ss(const double *x, const size_t *m, size_t k, const double *c, double *w)
{
    for (size_t u = 0; u < k;) {
        size_t l = m[u];
        if (u + 4 > k || m[u + 1] != l || m[u + 2] != l || m[u + 3] != l) {
            double a = 0;
            for (size_t i = 0; i < l; i++)
                a += (x[i] - c[u]) * (x[i] - c[u]);
            w[u++] = a;
            x += l;
            continue;
        }
        const double *xa = x, *xb = xa + l, *xc = xb + l, *xd = xc + l;
        double a = 0, b = 0, cc = 0, d = 0;
        for (size_t i = 0; i < l; i++) {
            a += (xa[i] - c[u]) * (xa[i] - c[u]);
            b += (xb[i] - c[u + 1]) * (xb[i] - c[u + 1]);
            cc += (xc[i] - c[u + 2]) * (xc[i] - c[u + 2]);
            d += (xd[i] - c[u + 3]) * (xd[i] - c[u + 3]);
        }
        w[u] = a;
        w[u + 1] = b;
        w[u + 2] = cc;
        w[u + 3] = d;
        x += 4 * l;
        u += 4;
    }
}

/* Four units of l > 0 blocks each, the first at block o of the chunk
 * (their contrasts c and twice-ranks r, one unit after another; their
 * coins in w): the flipped contrasts' means (il_means' sums, the same
 * bits) in loc, the flipped ranks' sums added to *tot in the units' order
 * and their means in mu, and the sums of squares about them in wq and
 * wr (unit_ss's).  The flipped values go to cb and sb four units side by
 * side (cb[4 i + q]: unit q's block i), so that each pass after the first
 * reads two units' values in one register, two chains of additions a
 * register, each lane the scalar chain of its unit (il_v2d); the first
 * pass flips as it sums. */
static inline __attribute__((always_inline)) void
flip_stats4(const double *c, const int32_t *r, const uint32_t *w, size_t o, size_t l, double *cb,
            double *sb, double *loc, double *mu, double *wq, double *wr, double *tot)
{
    il_v2d a01 = {0, 0}, a23 = a01, b01 = a01, b23 = a01, n = {(double)l, (double)l};
    const double *c0 = c, *c1 = c0 + l, *c2 = c1 + l, *c3 = c2 + l;
    const int32_t *r0 = r, *r1 = r0 + l, *r2 = r1 + l, *r3 = r2 + l;
    for (size_t i0 = 0; i0 < l; i0 += 64) {
        /* each unit's next 64 coins, the next one in bit 0 */
        il_v2u w01 = {coin_bits64(w, o + i0), coin_bits64(w, o + l + i0)};
        il_v2u w23 = {coin_bits64(w, o + 2 * l + i0), coin_bits64(w, o + 3 * l + i0)};
        for (size_t i = i0; i < l && i < i0 + 64; i++) {
            il_v2u f01 = w01 << 63, f23 = w23 << 63;
            w01 >>= 1;
            w23 >>= 1;
            il_v2d x01 = flip2((il_v2d){c0[i], c1[i]}, f01);
            il_v2d x23 = flip2((il_v2d){c2[i], c3[i]}, f23);
            il_v2d y01 = flip2((il_v2d){rank_value(r0[i]), rank_value(r1[i])}, f01);
            il_v2d y23 = flip2((il_v2d){rank_value(r2[i]), rank_value(r3[i])}, f23);
            il_st2(cb + 4 * i, x01);
            il_st2(cb + 4 * i + 2, x23);
            il_st2(sb + 4 * i, y01);
            il_st2(sb + 4 * i + 2, y23);
            a01 += x01;
            a23 += x23;
            b01 += y01;
            b23 += y23;
        }
    }
    double sums[4], lm[4], b[4];
    il_st2(sums, a01);
    il_st2(sums + 2, a23);
    il_mean4(cb, l, 1, 4, sums, lm);
    il_v2d l01 = il_ld2(lm), l23 = il_ld2(lm + 2), u01 = b01 / n, u23 = b23 / n;
    il_st2(b, b01);
    il_st2(b + 2, b23);
    *tot += b[0];
    *tot += b[1];
    *tot += b[2];
    *tot += b[3];
    il_v2d q01 = {0, 0}, q23 = q01, r01 = q01, r23 = q01;
    for (size_t i = 0; i < l; i++) {
        il_v2d x01 = il_ld2(cb + 4 * i) - l01, x23 = il_ld2(cb + 4 * i + 2) - l23;
        il_v2d y01 = il_ld2(sb + 4 * i) - u01, y23 = il_ld2(sb + 4 * i + 2) - u23;
        q01 += x01 * x01;
        q23 += x23 * x23;
        r01 += y01 * y01;
        r23 += y23 * y23;
    }
    il_st2(loc, l01);
    il_st2(loc + 2, l23);
    il_st2(mu, u01);
    il_st2(mu + 2, u23);
    il_st2(wq, q01);
    il_st2(wq + 2, q23);
    il_st2(wr, r01);
    il_st2(wr + 2, r23);
}

/* One exchange of flip_spreads: its draws and the sums it adds unit by
 * unit, in the units' order */
struct flip_x {
    struct il_rng g;
    struct il_coins cs;
    double sw, swl, w, tot, wrr;
};

enum { FLIP_BATCH = 8 }; /* exchanges a pass over the blocks */

/* K <= FLIP_BATCH exchanges when every block is of one run a side and the
 * estimator is the mean (flips, then spread's Q in q[e] and rank_spread's
 * statistic in t[e]), unit by unit: the same draws in the same order,
 * every sum in the same order (a unit's sums in its blocks' order, then
 * the units' in theirs), so the same bits.  Each exchange starts where
 * the one before ends, at a state found by drawing its coins once ahead
 * (coin_words without its words: a 32nd of a draw a block), so that the K exchanges run
 * side by side over the blocks: a chunk of units is read from memory
 * once for all K (at ten million records the exchange read 60 MB of
 * contrasts and ranks, its bound).  Over a chunk, an exchange's coins
 * (w: flip_chunk's / 32 + 3 words) are drawn first, then the units' sums
 * and sums of squares four units side by side (one chain of additions
 * over all blocks was the exchange's bound), their flipped values in cb
 * and sb (flip_chunk's); the contrasts and ranks are not written out.
 * Needs the units' blocks consecutive and in order (flip_ok).  loc and
 * mu hold K k, wq and wr k. */
IL_TARGET_CLONES
static void
flip_spreads(const struct il_contrast *ct, size_t K, struct il_rng *g, struct il_coins *cs,
             const int32_t *sr0, uint32_t *cw, double *cb, double *sb, double *loc, double *mu,
             double *wq, double *wr, double *q, double *t)
{
    size_t k = ct->k, off = 0, lim = flip_chunk(ct);
    struct flip_x x[FLIP_BATCH];
    for (size_t e = 0; e < K; e++) {
        memset(&x[e], 0, sizeof x[e]);
        x[e].g = *g;
        x[e].cs = *cs;
        if (e + 1 < K)
            coin_words(g, cs, ct->blocks, NULL);
    }
    for (size_t u0 = 0; u0 < k;) {
        size_t u1 = u0, n = 0;
        while (u1 < k && n + ct->m[u1] <= lim)
            n += ct->m[u1++];
        for (size_t e = 0; e < K; e++) {
            struct flip_x *X = &x[e];
            double *le = loc + e * k, *me = mu + e * k;
            coin_words(&X->g, &X->cs, n, cw);
            for (size_t u = u0, o = 0; u < u1;) {
                size_t mm = ct->m[u];
                if (u + 4 <= u1 && mm && ct->m[u + 1] == mm && ct->m[u + 2] == mm &&
                    ct->m[u + 3] == mm) {
                    flip_stats4(ct->c + off + o, sr0 + off + o, cw, o, mm, cb, sb, le + u, me + u,
                                wq + u, wr + u, &X->tot);
                    o += 4 * mm;
                    u += 4;
                    continue;
                }
                for (size_t j = o; j < o + mm; j++) {
                    uint64_t f = coin_bit(cw, j);
                    cb[j] = flip(ct->c[off + j], f);
                    sb[j] = flip(rank_value(sr0[off + j]), f);
                }
                unit_sums(sb + o, ct->m + u, 1, me + u);
                il_means(cb + o, ct->m + u, 1, le + u);
                if (mm) {
                    X->tot += me[u];
                    me[u] /= (double)mm;
                }
                unit_ss(cb + o, ct->m + u, 1, le + u, wq + u);
                unit_ss(sb + o, ct->m + u, 1, me + u, wr + u);
                o += mm;
                u++;
            }
            for (size_t u = u0; u < u1; u++) {
                size_t m = ct->m[u];
                if (!m) {
                    le[u] = NAN;
                    continue;
                }
                X->sw += (double)m;
                X->swl += (double)m * le[u];
                X->w += wq[u];
                X->wrr += wr[u];
            }
        }
        off += n;
        u0 = u1;
    }
    *g = x[K - 1].g;
    *cs = x[K - 1].cs;
    for (size_t e = 0; e < K; e++) {
        const struct flip_x *X = &x[e];
        const double *le = loc + e * k, *me = mu + e * k;
        double mean = X->swl / X->sw, gm = X->tot / (double)ct->blocks, tq = 0, tr = 0;
        for (size_t u = 0; u < k; u++)
            if (ct->m[u]) {
                tq += (double)ct->m[u] * (le[u] - mean) * (le[u] - mean);
                tr += (double)ct->m[u] * (me[u] - gm) * (me[u] - gm);
            }
        q[e] = X->w > 0 && ct->df > 0 ? tq / (X->w / ct->df) : NAN;
        t[e] = !(ct->df > 0) ? NAN : X->wrr > 0 ? tr / (X->wrr / ct->df) : tr > 0 ? INFINITY : NAN;
    }
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
     * rank: with only such blocks the ranks are il_contrasts' (ct->sr),
     * and an exchange costs what Q's does.  A quantile has no ranks. */
    int32_t *zero = ct->sr ? NULL : il_xcalloc(nb ? nb : 1, sizeof *zero);
    const int32_t *sr0 = ct->sr ? ct->sr : zero;
    /* flip_spreads needs a chunk's values, not all blocks' */
    int fs = flip_ok(ct);
    size_t nc = fs ? flip_chunk(ct) : nb ? nb : 1;
    size_t K = fs ? FLIP_BATCH : 1, kk = ct->k ? ct->k : 1;
    double *c = il_xcalloc(nc, sizeof *c), *loc = il_xcalloc(K * kk, sizeof *loc);
    double *mu = fs ? il_xcalloc(K * kk, sizeof *mu) : NULL;
    double *wq = fs ? il_xcalloc(ct->k ? ct->k : 1, sizeof *wq) : NULL;
    double *wr = fs ? il_xcalloc(ct->k ? ct->k : 1, sizeof *wr) : NULL;
    /* a block's runs (contrast) or a unit's contrasts (spread's location) */
    double *scratch = il_xcalloc(ct->maxn + ct->maxm, sizeof *scratch);
    double *pool = il_xcalloc(ct->maxn, sizeof *pool);
    /* the exchange's ranks (twice over): signed_ranks' 8 bytes a block */
    int32_t *sr = il_xcalloc(nc, 2 * sizeof *sr);
    double *sbuf = fs ? il_xcalloc(nc, sizeof *sbuf) : NULL;        /* flip_spreads' ranks */
    uint32_t *cw = fs ? il_xcalloc(nc / 32 + 3, sizeof *cw) : NULL; /* coin_bits64's */
    struct il_rng g;
    struct il_coins cs = {0, 0}; /* a block of one run a side: a coin */
    il_rng_init(&g, (uint32_t)seed, IL_STREAM_BLOCK);
    /* Without qp nothing but p takes the exchanges: they stop once its
     * side of 5% is decided (seqp.c).  With qp every exchange
     * is run: tau's interval takes their quantiles.  (Today the mean's
     * caller, the only one flip_spreads serves, always passes qp, so a
     * stop inside a batch of K is reached only from a program of its
     * own: review10e checked it there, bits unchanged.) */
    struct il_seqp sq;
    il_seqp_init(&sq, P, qp == NULL);
    size_t pool_n = 0;
    double bq[FLIP_BATCH], bt[FLIP_BATCH];
    for (size_t it = 0, nbt = 0; it < P && !sq.stopped; it++) {
        double q = NAN, t = NAN;
        if (fs) {
            /* the next K exchanges at once, then taken one by one */
            if (it % K == 0) {
                nbt = P - it < K ? P - it : K;
                flip_spreads(ct, nbt, &g, &cs, sr0, cw, c, sbuf, loc, mu, wq, wr, bq, bt);
            }
            q = bq[it % K];
            t = bt[it % K];
        } else if (ct->pairs)
            flips(&g, &cs, ct->c, sr0, c, sr, nb);
        for (size_t j = 0, o = 0; j < nb && !ct->pairs; j++, o += pool_n) {
            size_t na = ct->bna[j], n = na + ct->bnb[j];
            pool_n = n;
            if (n == 2) {
                uint32_t f = il_coin(&g, &cs);
                c[j] = flip(ct->c[j], (uint64_t)f << 63);
                sr[j] = f ? -sr0[j] : sr0[j];
                continue;
            }
            memcpy(pool, ct->v + o, n * sizeof *pool);
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
                signed_ranks(c, nb, sr);
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
    free(sbuf);
    free(cw);
    free(loc);
    free(mu);
    free(wq);
    free(wr);
    free(scratch);
    free(pool);
    free(zero);
    ct->p = il_seqp_p(&sq);
    return ct->p;
}

void
il_contrast_free(struct il_contrast *ct)
{
    free(ct->m);
    free(ct->first);
    free(ct->loc);
    free(ct->bna);
    free(ct->bnb);
    free(ct->v);
    free(ct->c);
    free(ct->sr);
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
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    uint32_t x = il_upass(un, i), y = il_upass(un, j);
    if (x != y)
        return (x > y) - (x < y);
    x = un->cell[i];
    y = un->cell[j];
    return x != y ? (x > y) - (x < y) : (i > j) - (i < j);
}

/* The key of run i: its pass (by_pass), else its cell. */
static inline uint32_t
run_key(const struct il_units *un, int by_pass, size_t i)
{
    return by_pass ? il_upass(un, i) : un->cell[i];
}

/* out = in stably sorted by the runs' keys (run_key) <= max; cnt holds
 * max + 2. */
static void
count_sort(const struct il_units *un, int by_pass, uint32_t max, const uint32_t *in, uint32_t *out,
           size_t N, size_t *cnt)
{
    memset(cnt, 0, ((size_t)max + 2) * sizeof *cnt);
    for (size_t i = 0; i < N; i++)
        cnt[run_key(un, by_pass, in[i]) + 1]++;
    for (size_t v = 1; v <= max; v++)
        cnt[v] += cnt[v - 1];
    for (size_t i = 0; i < N; i++)
        out[cnt[run_key(un, by_pass, in[i])]++] = in[i];
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

/* The blocks of pos, sorted by pass and then by cell: the first position
 * of each into bs (when bs), their count returned.  A block's positions
 * ascend, and a unit's runs are consecutive: *mixed is set when a block's
 * last run is past the end of its first run's unit (the block holds runs
 * of two units).  With pend (the counting sort's end of each pass's
 * runs, passes 0 to maxp) the passes are not read again, a run at a time
 * in pos's order (at ten million records a cache miss a run); a cell is
 * read only when there are two (cells). */
static size_t
sort_blocks(const struct il_units *un, const uint32_t *pos, size_t N, const size_t *pend,
            uint32_t maxp, int cells, size_t *bs, int *mixed)
{
    size_t nb = 0, f = 0;
    for (size_t v = 0; f < N; v++) {
        size_t e = f + 1; /* [f, e): the runs of one pass */
        if (pend) {
            if (v > maxp)
                break;
            e = pend[v];
        } else {
            while (e < N && il_upass(un, pos[e]) == il_upass(un, pos[f]))
                e++;
        }
        for (size_t i = f; i < e;) {
            size_t j = cells ? i + 1 : e;
            while (j < e && un->cell[pos[j]] == un->cell[pos[i]])
                j++;
            if (bs)
                bs[nb] = i;
            nb++;
            *mixed |= pos[j - 1] >= unit_end(un, pos[i]);
            i = j;
        }
        f = e;
    }
    return nb;
}

uint32_t *
il_pass_blocks(const struct il_units *un, size_t **bs, size_t *nb, int *none)
{
    *none = 0;
    *bs = NULL;
    *nb = 0;
    if (!il_has_pass(un) || !un->cell)
        return NULL;
    size_t N = 0;
    for (size_t u = 0; u < un->k; u++)
        N += un->n[u];
    /* 4 bytes a run (a group's records are numbered in 32 bits): at a
     * million records a group's positions were its phase's largest array */
    uint32_t *pos = il_xcalloc(N ? N : 1, sizeof *pos);
    int ok = 1, mixed_any = 0;
    uint32_t maxp = 0, maxc = 0;
    for (size_t i = 0; i < N; i++) {
        pos[i] = (uint32_t)i;
        ok &= il_upass(un, i) != IL_MISSING_ID;
        maxp = il_upass(un, i) > maxp ? il_upass(un, i) : maxp;
        maxc = un->cell[i] > maxc ? un->cell[i] : maxc;
    }
    /* pass_cell_cmp is a total order (the run breaks ties), so two stable
     * counting sorts, by cell and then by pass, give qsort_r's array in
     * linear time: at a million records the sort was 6% of a comparison's
     * instructions.  qsort_r when the ids are too sparse for their counts;
     * none when a run has no pass (pos is not used then). */
    size_t *pend = NULL; /* the end of each pass's runs in pos, from the sort */
    if (ok && il_dense((size_t)maxp + 1, N) && il_dense((size_t)maxc + 1, N)) {
        uint32_t *tmp = il_xcalloc(N ? N : 1, sizeof *tmp);
        pend = il_xcalloc((size_t)(maxp > maxc ? maxp : maxc) + 2, sizeof *pend);
        if (maxc) {
            count_sort(un, 0, maxc, pos, tmp, N, pend);
            count_sort(un, 1, maxp, tmp, pos, N, pend);
            free(tmp);
        } else { /* one cell: a sort by it would keep the order */
            count_sort(un, 1, maxp, pos, tmp, N, pend);
            free(pos);
            pos = tmp;
        }
    } else if (ok) {
        qsort_r(pos, N, sizeof *pos, pass_cell_cmp, (void *)un);
    }
    /* The blocks, counted first so that bs holds only them (a group's
     * positions are its largest array). */
    if (ok)
        *nb = sort_blocks(un, pos, N, pend, maxp, maxc > 0, NULL, &mixed_any);
    *bs = il_xcalloc(*nb + 1, sizeof **bs);
    if (ok)
        sort_blocks(un, pos, N, pend, maxp, maxc > 0, *bs, &mixed_any);
    free(pend);
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
il_block_normalize(const struct il_estimator *e, double *x, const uint32_t *pos, const size_t *bs,
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
 * same draws in the same order as il_rng_shuffle2_double on x[pos[..]] in
 * place (a Fisher-Yates from the top, two positions a 32-bit draw while
 * (i + 1) i fits in 32 bits, one a draw above), so the same exchange, at
 * a third of the cost. */
void
il_block_shuffle(double *x, size_t N, const uint32_t *pos, const size_t *bs, size_t nb,
                 struct il_rng *g)
{
    if (!pos) {
        il_rng_shuffle2_double(g, x, N, NULL);
        return;
    }
    size_t maxb = 1;
    for (size_t b = 0; b < nb; b++)
        maxb = bs[b + 1] - bs[b] > maxb ? bs[b + 1] - bs[b] : maxb;
    double *xb = il_xcalloc(maxb, sizeof *xb);
    for (size_t b = 0; b < nb; b++) {
        const uint32_t *p = pos + bs[b];
        size_t n = bs[b + 1] - bs[b];
        for (size_t i = 0; i < n; i++)
            xb[i] = x[p[i]];
        il_rng_shuffle2_double(g, xb, n, NULL);
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
