/*
 * setupfx.c: the setup effect of one group, and the ratio of two groups'
 * setup effects (interloper-report(1), "Setup effects").
 *
 * Mytkowicz et al. (ASPLOS'09, Fig. 1 and section 7.2) read a setup
 * effect off one system's runs: the environment size moves the cycles of
 * a micro-kernel, and pinning the stack makes that movement collapse.
 * Here a group's setups (--setup LABEL) are the units of a random-effects
 * model on the log scale, log est_u = m + a_u + e_u, with a_u the setup's
 * effect (variance tau^2, Kalibera & Jones's between-setup variance at
 * the top level, relative) and e_u the error of the setup's estimate from
 * its runs (variance var_u, from run-to-run noise pooled over the setups).
 *   - Whether the setups differ at all: a permutation test.  With no setup
 *     effect every run could have come from any setup, so runs are
 *     shuffled across the group's setups; the statistic is Cochran's Q
 *     against the pooled variance, recomputed for each shuffle (the mean),
 *     or the weighted spread of the log estimates (a quantile).  Bursty,
 *     skewed noise enters its reference distribution as it is.
 *   - How much: tau^2 by Paule-Mandel, with its Q-profile interval
 *     (Viechtbauer, Stat. Med. 2007), its ends at the quantiles of Q over
 *     the shuffles of the test rather than chi-squared's (one_group).
 *   - Which setups: those whose log estimate lies further from the
 *     median setup's than the largest such deviation that shuffled runs
 *     give in 95% of shuffles (maxT, family-wise over the setups): where
 *     to look again with many more runs.  Each setup's modified z-score
 *     among the setups (the MAD rule of Iglewicz & Hoaglin) is given too.
 * The ratio of two groups' tau^2 (a comparison, say pin=on against
 * pin=off) takes its interval from the two groups' chi-squared Q-profile
 * intervals at 97.5% each, which then hold together with at least 95%
 * (Bonferroni; conservative enough to hold with bursty noise too).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_names.h"
#include "il_prng.h"
#include "il_stats.h"

/* Streams of --seed (robust.c uses 101 to 103). */
enum { IL_STREAM_GPERM = 104, IL_STREAM_GBOOT = 105, IL_STREAM_GQBOOT = 106 };

#define IL_GBOOT 200   /* bootstrap replicates of a setup's quantile */
#define IL_GQ_MIN_N 10 /* fewest runs a setup for a quantile's variance */

/* The statistic of the test: Q against the pooled relative variance (the
 * mean; ra recomputed from the runs) or the weighted spread of the log
 * estimates (a quantile).  x holds the runs setup by setup, n[u] each;
 * y receives the log estimates.  NAN when an estimate is not positive. */
static double
stat(const struct il_estimator *e, const double *x, const size_t *n, size_t k, double *y,
     double *scratch)
{
    double ss = 0, f = 0, sw = 0, swy = 0;
    if (e->kind == IL_EST_MEAN)
        il_means(x, n, k, y); /* il_estimate's, all at once */
    for (size_t u = 0, off = 0; u < k; off += n[u++]) {
        double est = e->kind == IL_EST_MEAN ? y[u] : il_estimate(e, x + off, n[u], scratch);
        if (!(est > 0))
            return NAN;
        y[u] = log(est);
        sw += (double)n[u];
        swy += (double)n[u] * y[u];
        if (e->kind != IL_EST_MEAN)
            continue;
        /* each setup's sum of squared relative deviations, each
         * deviation times 1 / est (one division a setup, not a run: the
         * divisions were the exchange's bound), then theirs (stat_grid
         * sums eight setups' side by side: one chain of additions over
         * all runs was its bound before) */
        double su = 0, inv = 1 / est;
        for (size_t i = 0; i < n[u]; i++)
            su += ((x[off + i] - est) * inv) * ((x[off + i] - est) * inv);
        ss += su;
        f += (double)(n[u] - 1);
    }
    double m = swy / sw, s = 0;
    for (size_t u = 0; u < k; u++)
        s += (double)n[u] * (y[u] - m) * (y[u] - m);
    if (e->kind != IL_EST_MEAN || s == 0) /* no spread at all: 0, not 0/0 */
        return s;
    return ss > 0 ? s / (ss / f) : INFINITY;
}

/*
 * The mean's test on a grid (grid_blocks): every setup has one run in
 * each of the nb blocks (passes), and each block holds the same run of
 * every setup (a setup's runs are in record order, so in the sweep's pass
 * order; the blocks are in the pass ids' order): row[i] is the block of
 * every setup's run i.  The runs are then kept block by block,
 * xt[b * k + u] = setup u's run in block b, for the whole test: a block
 * is shuffled as il_block_shuffle's gather, shuffle and scatter would
 * (the same draws, the same values), but copied in one stream instead of
 * gathered from k cache lines, and a setup's sums visit its runs in
 * their order (the blocks row[0], row[1], ...), so that every sum of
 * stat() has the same terms in the same order: the same bits.  At a
 * million records the gather and scatter and stat()'s reads of x were a
 * third of the compare's group tests.
 */
static int
grid_blocks(const struct il_units *un, const uint32_t *pos, const size_t *bs, size_t nb,
            size_t *row)
{
    size_t k = un->k;
    for (size_t u = 0; u < k; u++)
        if (un->n[u] != nb || un->off[u] != u * nb)
            return 0;
    for (size_t i = 0; i < nb; i++)
        row[i] = nb; /* none yet */
    for (size_t b = 0; b < nb; b++) {
        if (bs[b] != b * k || bs[b + 1] != (b + 1) * k)
            return 0;
        size_t r = pos[b * k] % nb;
        if (row[r] != nb)
            return 0;
        row[r] = b;
        for (size_t u = 0; u < k; u++)
            if (pos[b * k + u] != u * nb + r)
                return 0;
    }
    return 1;
}

/* The means of setups u0 .. u0 + 7 (il_mean's bits: each setup's sum of
 * its runs in their order, then the sum of their differences from the
 * first mean), four pairs of setups side by side in registers: named
 * ones, since GCC kept an array of four in memory, and each addition
 * then waited on the last one's store (a third of the grid test). */
static void
grid_means8(const double *xt, size_t k, size_t nb, const size_t *row, size_t u0, double *y)
{
    il_v2d s0 = {0, 0}, s1 = s0, s2 = s0, s3 = s0, c0 = s0, c1 = s0, c2 = s0, c3 = s0;
    il_v2d n = {(double)nb, (double)nb};
    for (size_t i = 0; i < nb; i++) {
        const double *x = xt + row[i] * k + u0;
        __builtin_prefetch(x + 16); /* the line two chunks on */
        s0 += il_ld2(x);
        s1 += il_ld2(x + 2);
        s2 += il_ld2(x + 4);
        s3 += il_ld2(x + 6);
    }
    s0 = s0 / n;
    s1 = s1 / n;
    s2 = s2 / n;
    s3 = s3 / n;
    for (size_t i = 0; i < nb; i++) {
        const double *x = xt + row[i] * k + u0;
        c0 += il_ld2(x) - s0;
        c1 += il_ld2(x + 2) - s1;
        c2 += il_ld2(x + 4) - s2;
        c3 += il_ld2(x + 6) - s3;
    }
    il_st2(y + u0, s0 + c0 / n);
    il_st2(y + u0 + 2, s1 + c1 / n);
    il_st2(y + u0 + 4, s2 + c2 / n);
    il_st2(y + u0 + 6, s3 + c3 / n);
}

/* Four doubles in one value (one AVX2 register in stat_grid's clone for
 * AVX2, the only one that runs grid16); each lane's arithmetic is the
 * scalar one, the same bits.  Loaded and stored
 * through a type of 8-byte alignment that may alias doubles (macros: a
 * function returning one would change the ABI without AVX). */
typedef double il_v4d __attribute__((vector_size(4 * sizeof(double))));
typedef double il_v4du __attribute__((vector_size(4 * sizeof(double)), aligned(8), may_alias));
#define ld4(p) (*(const il_v4du *)(p))
#define st4(p, v) (*(il_v4du *)(p) = (v))

/* The means of setups u0 .. u0 + 15 (il_mean's bits: each setup's sum of
 * its runs in their order, then the sum of their differences from the
 * first mean) into y, and then (when every one is positive, else 0
 * returned) their sums of squares of relative deviations into su[0 ..
 * 16) (stat()'s terms and sums, the same bits): four quads of setups
 * side by side in named values (GCC had kept an array of them in
 * memory, and each addition then waited on the last one's store), so
 * that each pass over the runs has four chains of additions in flight
 * (eight setups a pass, as before, waited on their additions' latency).
 * Sixteen setups' runs are two cache lines of a block's row: read from
 * memory in the first pass, then from the cache. */
static inline __attribute__((always_inline)) int
grid16(const double *xt, size_t k, size_t nb, const size_t *row, size_t u0, double *y, double *su)
{
    il_v4d z = {0, 0, 0, 0}, n = {(double)nb, (double)nb, (double)nb, (double)nb};
    il_v4d s0 = z, s1 = z, s2 = z, s3 = z, c0 = z, c1 = z, c2 = z, c3 = z;
    for (size_t i = 0; i < nb; i++) {
        const double *x = xt + row[i] * k + u0;
        __builtin_prefetch(x + 32); /* the lines two chunks on */
        __builtin_prefetch(x + 40);
        s0 += ld4(x);
        s1 += ld4(x + 4);
        s2 += ld4(x + 8);
        s3 += ld4(x + 12);
    }
    s0 = s0 / n;
    s1 = s1 / n;
    s2 = s2 / n;
    s3 = s3 / n;
    for (size_t i = 0; i < nb; i++) {
        const double *x = xt + row[i] * k + u0;
        c0 += ld4(x) - s0;
        c1 += ld4(x + 4) - s1;
        c2 += ld4(x + 8) - s2;
        c3 += ld4(x + 12) - s3;
    }
    il_v4d e0 = s0 + c0 / n, e1 = s1 + c1 / n, e2 = s2 + c2 / n, e3 = s3 + c3 / n;
    st4(y + u0, e0);
    st4(y + u0 + 4, e1);
    st4(y + u0 + 8, e2);
    st4(y + u0 + 12, e3);
    for (size_t u = u0; u < u0 + 16; u++)
        if (!(y[u] > 0))
            return 0;
    il_v4d one = {1, 1, 1, 1}, i0 = one / e0, i1 = one / e1, i2 = one / e2, i3 = one / e3;
    il_v4d a0 = z, a1 = z, a2 = z, a3 = z;
    for (size_t i = 0; i < nb; i++) {
        const double *x = xt + row[i] * k + u0;
        il_v4d t0 = (ld4(x) - e0) * i0, t1 = (ld4(x + 4) - e1) * i1;
        il_v4d t2 = (ld4(x + 8) - e2) * i2, t3 = (ld4(x + 12) - e3) * i3;
        a0 += t0 * t0;
        a1 += t1 * t1;
        a2 += t2 * t2;
        a3 += t3 * t3;
    }
    st4(su, a0);
    st4(su + 4, a1);
    st4(su + 8, a2);
    st4(su + 12, a3);
    return 1;
}

/* stat() of the mean on the grid xt (k setups, nb runs each, row as
 * grid_blocks): with AVX2 sixteen setups at a time (grid16, in the clone
 * for AVX2), else eight (grid_means8 and four pairs of sums of squares:
 * in two SSE2 registers a quad, sixteen setups spill and run slower),
 * and with AVX2 a remainder of eight to fifteen eight at a time too; the
 * rest one by one; stat()'s terms and sums, the same bits either
 * way, their runs (cache lines) read from memory once and then from the
 * cache. */
IL_TARGET_CLONES
static double
stat_grid(const double *xt, size_t k, size_t nb, const size_t *row, double *y)
{
    double ss = 0, f = 0, sw = 0, swy = 0, n = (double)nb, su[16];
    int wide = il_avx2();
    for (size_t u0 = 0, w; u0 < k; u0 += w) {
        w = wide && k - u0 >= 16 ? 16 : k - u0 >= 8 ? 8 : 1;
        if (w == 16 && !grid16(xt, k, nb, row, u0, y, su))
            return NAN;
        if (w == 8) {
            grid_means8(xt, k, nb, row, u0, y);
            for (size_t u = u0; u < u0 + 8; u++)
                if (!(y[u] > 0))
                    return NAN;
            il_v2d e0 = il_ld2(y + u0), e1 = il_ld2(y + u0 + 2), e2 = il_ld2(y + u0 + 4),
                   e3 = il_ld2(y + u0 + 6), a0 = {0, 0}, a1 = a0, a2 = a0, a3 = a0, one = {1, 1};
            il_v2d i0 = one / e0, i1 = one / e1, i2 = one / e2, i3 = one / e3;
            for (size_t i = 0; i < nb; i++) {
                const double *x = xt + row[i] * k + u0;
                il_v2d t0 = (il_ld2(x) - e0) * i0, t1 = (il_ld2(x + 2) - e1) * i1;
                il_v2d t2 = (il_ld2(x + 4) - e2) * i2, t3 = (il_ld2(x + 6) - e3) * i3;
                a0 += t0 * t0;
                a1 += t1 * t1;
                a2 += t2 * t2;
                a3 += t3 * t3;
            }
            il_st2(su, a0);
            il_st2(su + 2, a1);
            il_st2(su + 4, a2);
            il_st2(su + 6, a3);
        }
        if (w == 1) {
            double m = 0, c = 0;
            for (size_t i = 0; i < nb; i++)
                m += xt[row[i] * k + u0];
            m = m / n;
            for (size_t i = 0; i < nb; i++)
                c += xt[row[i] * k + u0] - m;
            y[u0] = m + c / n;
            if (!(y[u0] > 0))
                return NAN;
            double a = 0, inv = 1 / y[u0];
            for (size_t i = 0; i < nb; i++) {
                double t = (xt[row[i] * k + u0] - y[u0]) * inv;
                a += t * t;
            }
            su[0] = a;
        }
        for (size_t u = u0; u < u0 + w; u++) {
            y[u] = log(y[u]);
            sw += n;
            swy += n * y[u];
            ss += su[u - u0];
            f += (double)(nb - 1);
        }
    }
    double mm = swy / sw, s = 0;
    for (size_t u = 0; u < k; u++)
        s += n * (y[u] - mm) * (y[u] - mm);
    if (s == 0)
        return s;
    return ss > 0 ? s / (ss / f) : INFINITY;
}

/* The largest deviation of a setup's log estimate from the setups'
 * median, each scaled by the square root of its runs (its noise shrinks
 * so): the statistic of "which setups stand out". */
static double
max_dev(const double *y, const size_t *n, size_t k, double *scratch)
{
    /* by selection (every shuffle: a sort of k setups cost more than the
     * shuffle itself); the same median as il_quantile_sorted's */
    memcpy(scratch, y, k * sizeof *scratch);
    double med = il_quantile_select(scratch, k, 0.5), m = 0;
    for (size_t u = 0; u < k; u++)
        m = fmax(m, sqrt((double)n[u]) * fabs(y[u] - med));
    return m;
}

/* The n-weighted mean over the k setups of the bootstrap variance of the
 * log quantile (IL_GBOOT replicates), times the runs: a quantile's pooled
 * variance.  x holds the runs setup by setup, n[u] each; b, scratch and
 * rep hold maxn, maxn and IL_GBOOT values. */
static double
boot_var(const struct il_estimator *e, const double *x, const size_t *n, size_t k, struct il_rng *g,
         double *b, double *scratch, double *rep)
{
    double s = 0;
    for (size_t u = 0, off = 0; u < k; off += n[u++]) {
        for (size_t r = 0; r < IL_GBOOT; r++) {
            for (size_t i = 0; i < n[u]; i++)
                b[i] = x[off + il_rng_below(g, n[u])];
            double est = il_estimate(e, b, n[u], scratch);
            rep[r] = est > 0 ? log(est) : NAN;
        }
        s += il_var(rep, IL_GBOOT, il_mean(rep, IL_GBOOT)) * (double)n[u];
    }
    return k > 0 && isfinite(s) ? s / (double)k : NAN;
}

/* Runs shuffled across the setups, P times (within each pass when the
 * runs say their pass, il_pass_blocks(); *blocked says so): the p-value of no
 * setup effect (the spread statistic), and the 95% point of the largest
 * deviation (max_dev) that no setup effect gives, in *crit: a setup whose
 * own deviation passes it stands out with a family-wise error of 5% over
 * all setups (the single-step maxT method of Westfall and Young, 1993),
 * which finds one setup in hundreds that the spread of all of them hides.
 * A restricted permutation keeps both valid under drift between passes
 * (Good, Permutation Tests, 2nd ed., 2000, section 3.5 on blocks). */
static double
perm_p(const struct il_estimator *e, const struct il_units *un, const uint32_t *pos,
       const size_t *bs, size_t nb, size_t P, unsigned long seed, double *crit, double *qp,
       size_t *nq)
{
    size_t N = 0, maxn = 1, k = un->k;
    for (size_t u = 0; u < k; u++) {
        N += un->n[u];
        maxn = un->n[u] > maxn ? un->n[u] : maxn;
    }
    double *x = il_xcalloc(N, sizeof *x), *y = il_xcalloc(k, sizeof *y);
    double *scratch = il_xcalloc(maxn > k ? maxn : k, sizeof *scratch);
    double *mx = il_xcalloc(P + 1, sizeof *mx);
    memcpy(x, un->x, N * sizeof *x);
    double t0 = stat(e, x, un->n, k, y, scratch);
    /* the mean on a grid: x block by block (stat_grid) */
    size_t *row = il_xcalloc(nb ? nb : 1, sizeof *row);
    int grid = e->kind == IL_EST_MEAN && pos && grid_blocks(un, pos, bs, nb, row);
    if (grid) {
        for (size_t b = 0; b < nb; b++)
            for (size_t u = 0; u < k; u++)
                x[b * k + u] = un->x[pos[b * k + u]];
    }
    size_t ge = 0, done = 0;
    struct il_rng g, gq;
    il_rng_init(&g, (uint32_t)seed, IL_STREAM_GPERM);
    il_rng_init(&gq, (uint32_t)seed, IL_STREAM_GQBOOT);
    double *bb = NULL, *bs2 = NULL, *rep = NULL;
    if (qp && e->kind != IL_EST_MEAN) {
        bb = il_xcalloc(maxn, sizeof *bb);
        bs2 = il_xcalloc(maxn, sizeof *bs2);
        rep = il_xcalloc(IL_GBOOT, sizeof *rep);
    }
    if (nq)
        *nq = 0;
    /* A quantile's Q needs a bootstrap per shuffle: at most about 4e7
     * resampled runs, but 199 shuffles at least. */
    size_t qmax = (size_t)fmax(199, 4e7 / ((double)N * IL_GBOOT));
    for (size_t it = 0; it < P && isfinite(t0); it++) {
        double t;
        if (grid) {
            /* a block is shuffled in place, its lines fetched in order
             * while the block before it is shuffled (not missed in the
             * order of the draws, nor copied out and back as before:
             * 1.11 -> 0.84 ns a value with 1,000 blocks of 5,000) */
            for (size_t b = 0; b < nb; b++)
                il_rng_shuffle2_double(&g, x + b * k, k, b + 1 < nb ? x + (b + 1) * k : NULL);
            t = stat_grid(x, k, nb, row, y);
        } else {
            il_block_shuffle(x, N, pos, bs, nb, &g);
            t = stat(e, x, un->n, k, y, scratch);
        }
        if (isnan(t))
            continue;
        ge += t >= t0 * (1 - 1e-12);
        mx[done++] = max_dev(y, un->n, k, scratch);
        /* Q at tau^2 = 0 as the Q-profile computes it: for the mean t
         * itself; for a quantile the spread over the shuffle's own
         * bootstrap variance. */
        if (qp && (e->kind == IL_EST_MEAN || done <= qmax)) {
            double v = e->kind == IL_EST_MEAN ? 1 : boot_var(e, x, un->n, k, &gq, bb, bs2, rep);
            if (v > 0)
                qp[(*nq)++] = t / v;
        }
    }
    *crit = NAN;
    if (done) {
        qsort(mx, done, sizeof *mx, il_dcmp);
        *crit = il_quantile_sorted(mx, done, IL_CONF);
    }
    free(x);
    free(y);
    free(scratch);
    free(mx);
    free(row);
    free(bb);
    free(bs2);
    free(rep);
    return done ? (double)(ge + 1) / (double)(done + 1) : NAN;
}

/* The pooled variance of a setup's log estimate times its runs: the mean's
 * relative variance (its degrees of freedom in *df), or for a quantile
 * boot_var (df infinite).  NAN when it cannot be had. */
static double
pooled_var(const struct il_estimator *e, const struct il_units *un, unsigned long seed, double *df)
{
    double s = 0, f = 0;
    if (e->kind == IL_EST_MEAN) {
        for (size_t u = 0; u < un->k; u++) {
            const double *x = un->x + un->off[u];
            for (size_t i = 0; i < un->n[u]; i++)
                s += (x[i] / un->mean[u] - 1) * (x[i] / un->mean[u] - 1);
            f += (double)(un->n[u] - 1);
        }
        *df = f;
        return f > 0 ? s / f : NAN;
    }
    size_t maxn = 1;
    for (size_t u = 0; u < un->k; u++)
        maxn = un->n[u] > maxn ? un->n[u] : maxn;
    double *b = il_xcalloc(maxn, sizeof *b), *scratch = il_xcalloc(maxn, sizeof *scratch);
    double *rep = il_xcalloc(IL_GBOOT, sizeof *rep);
    struct il_rng g;
    il_rng_init(&g, (uint32_t)seed, IL_STREAM_GBOOT);
    double v = boot_var(e, un->x, un->n, un->k, &g, b, scratch, rep);
    free(b);
    free(scratch);
    free(rep);
    *df = INFINITY;
    return v;
}

/* Modified z-scores of y among themselves (the MAD rule; the mean
 * absolute deviation when more than half are equal). */
static void
modified_z(const double *y, size_t k, double *z)
{
    double *s = il_xcalloc(k, sizeof *s), mad;
    double med = il_median_mad(y, k, s, &mad);
    double scale = mad > 0 ? mad / 0.6745 : 0;
    if (!(scale > 0)) {
        double a = 0;
        for (size_t u = 0; u < k; u++)
            a += fabs(y[u] - med);
        scale = 1.253314 * a / (double)k;
    }
    for (size_t u = 0; u < k; u++)
        z[u] = scale > 0 ? (y[u] - med) / scale : 0;
    free(s);
}

/* The units of un whose keep[u] is set, with their runs (x replaced by
 * a copy), their means and estimates recomputed from x.  When every unit
 * is kept, out's pass and cell are un's own (read only; subset_free). */
static void
subset(const struct il_estimator *e, const struct il_units *un, const unsigned char *keep,
       const double *x, struct il_units *out)
{
    memset(out, 0, sizeof *out);
    size_t k = 0, N = 0, maxn = 1;
    for (size_t u = 0; u < un->k; u++)
        if (keep[u]) {
            k++;
            N += un->n[u];
            maxn = un->n[u] > maxn ? un->n[u] : maxn;
        }
    out->k = k;
    out->id = il_xcalloc(k ? k : 1, sizeof *out->id);
    out->off = il_xcalloc(k ? k : 1, sizeof *out->off);
    out->n = il_xcalloc(k ? k : 1, sizeof *out->n);
    out->mean = il_xcalloc(k ? k : 1, sizeof *out->mean);
    out->est = il_xcalloc(k ? k : 1, sizeof *out->est);
    out->x = il_xcalloc(N ? N : 1, sizeof *out->x);
    int all = k == un->k;
    out->pass = all ? un->pass : un->pass ? il_xcalloc(N ? N : 1, sizeof *out->pass) : NULL;
    out->pass16 = all ? un->pass16 : un->pass16 ? il_xcalloc(N ? N : 1, sizeof *out->pass16) : NULL;
    out->cell = all ? un->cell : un->cell ? il_xcalloc(N ? N : 1, sizeof *out->cell) : NULL;
    double *scratch = il_xcalloc(maxn, sizeof *scratch);
    size_t j = 0, o = 0;
    for (size_t u = 0; u < un->k; u++) {
        if (!keep[u])
            continue;
        out->id[j] = un->id[u];
        out->off[j] = o;
        out->n[j] = un->n[u];
        memcpy(out->x + o, x + un->off[u], un->n[u] * sizeof *out->x);
        if (out->pass && !all)
            memcpy(out->pass + o, un->pass + un->off[u], un->n[u] * sizeof *out->pass);
        if (out->pass16 && !all)
            memcpy(out->pass16 + o, un->pass16 + un->off[u], un->n[u] * sizeof *out->pass16);
        if (out->cell && !all)
            memcpy(out->cell + o, un->cell + un->off[u], un->n[u] * sizeof *out->cell);
        out->est[j] = il_estimate_mean(e, out->x + o, un->n[u], scratch, &out->mean[j]);
        o += un->n[u];
        j++;
    }
    free(scratch);
}

/* Frees a subset of un. */
static void
subset_free(const struct il_units *un, struct il_units *sub)
{
    if (sub->pass == un->pass)
        sub->pass = NULL;
    if (sub->pass16 == un->pass16)
        sub->pass16 = NULL;
    if (sub->cell == un->cell)
        sub->cell = NULL;
    il_units_free(sub);
}

/* Why a group's test could not run (the text and JSON say it, with what
 * it would need; issue 13, section 2). */
const char il_why_confounded[] =
    "no pass holds runs of two setups, so nothing can be exchanged (it needs passes that "
    "each hold runs of two setups or more, or --passes none if the runs do not drift)";

/* Whether the runs within every unit of sub are equal. */
static int
equal_within(const struct il_units *sub)
{
    for (size_t u = 0; u < sub->k; u++)
        for (size_t i = 1; i < sub->n[u]; i++)
            if (sub->x[sub->off[u] + i] != sub->x[sub->off[u]])
                return 0;
    return 1;
}

/* A test that ran but could never have said yes (minp.c), or that could
 * not run (the runs do not vary within setups; an estimate not positive),
 * is untested, with why: every untested group says why. */
static void
untestable(const struct il_opts *o, const struct il_units *sub, struct il_gsetups *s,
           const uint32_t *pos, const size_t *bs, size_t nb)
{
    struct il_minp mp;
    int blocked = pos != NULL;
    if (s->has_test && il_minp_group(sub, pos, bs, nb, &mp) > IL_PERM_ALPHA) {
        s->has_test = 0;
        il_minp_why(&mp, sub->k, blocked ? s->passes : 0, s->why_buf, sizeof s->why_buf);
        s->why = s->why_buf;
    } else if (!s->has_test && o->est.kind == IL_EST_MEAN && equal_within(sub)) {
        /* Q's pooled variance is 0 while the setups differ: no noise to
         * weigh them against (perm_p's statistic is infinite) */
        s->why = blocked ? "the runs within every setup are equal once each is divided by its "
                           "pass's level: no run-to-run noise to weigh the setups' differences "
                           "against"
                         : "the runs within every setup are equal: no run-to-run noise to weigh "
                           "the setups' differences against";
    } else if (!s->has_test) {
        /* perm_p's statistic is NAN: an estimate was not positive, in the
         * runs as the test takes them or in every exchange of them */
        s->why = "a setup's estimate was not positive in every exchange of the runs (runs at or "
                 "below zero, as --subtract can leave): the spread of the setups' log estimates "
                 "is not defined";
    }
}

/* The test of no setup effect over the units of sub, with passes: the
 * runs divided by their block's level (normalize) and exchanged within
 * blocks; without: shuffled freely.  Sets the test's fields of s; qp and
 * nq as perm_p.  sub->x is replaced by the normalized runs. */
static void
test_units(const struct il_report *r, struct il_units *sub, struct il_gsetups *s, double *qp,
           size_t *nq, size_t P)
{
    const struct il_opts *o = r->o;
    size_t N = 0, *bs = NULL, nb = 0, maxn = 1;
    int none;
    for (size_t u = 0; u < sub->k; u++) {
        N += sub->n[u];
        maxn = sub->n[u] > maxn ? sub->n[u] : maxn;
    }
    uint32_t *pos = il_pass_blocks(sub, &bs, &nb, &none);
    if (none) {
        s->why = il_why_confounded;
        return;
    }
    if (pos) {
        if (il_block_normalize(&o->est, sub->x, pos, bs, nb) == 0) {
            double *scratch = il_xcalloc(maxn, sizeof *scratch); /* a unit's runs */
            for (size_t u = 0; u < sub->k; u++) {
                sub->est[u] = il_estimate_mean(&o->est, sub->x + sub->off[u], sub->n[u], scratch,
                                               &sub->mean[u]);
            }
            free(scratch);
            s->blocked = 1;
            s->passes = 0;
            for (size_t b = 0; b < nb; b++)
                s->passes += b == 0 || il_upass(sub, pos[bs[b]]) != il_upass(sub, pos[bs[b - 1]]);
            s->nblocks = nb;
        } else {
            free(pos);
            free(bs);
            pos = NULL;
            bs = NULL;
            s->free_why = "a block's level, the mean of its runs or their median for a "
                          "quantile, is not positive: its runs could not be divided by it";
        }
    }
    for (size_t i = 0; !pos && !s->free_why && il_has_pass(sub) && i < N; i++)
        if (il_upass(sub, i) == IL_MISSING_ID) {
            s->free_why = "some runs have no pass label";
            break;
        }
    s->p = perm_p(&o->est, sub, pos, bs, pos ? nb : 0, P, o->seed, &s->crit, qp, nq);
    s->has_test = isfinite(s->p);
    /* the test's blocks, il_minp_group's too (it had made its own, after
     * these were freed: two sets at once were the group phase's peak) */
    untestable(o, sub, s, pos, bs, nb);
    free(pos);
    free(bs);
}

static void
one_group(const struct il_report *r, const struct il_units *un, struct il_gsetups *s)
{
    const struct il_opts *o = r->o;
    size_t k = un->k, N = 0, pos = 1;
    s->k = k;
    s->setup = il_xcalloc(k, sizeof *s->setup);
    s->est = il_xcalloc(k, sizeof *s->est);
    s->n = il_xcalloc(k, sizeof *s->n);
    s->z = il_xcalloc(k, sizeof *s->z);
    s->y = il_xcalloc(k, sizeof *s->y);
    s->out = il_xcalloc(k ? k : 1, 1);
    s->test_est = il_xcalloc(k ? k : 1, sizeof *s->test_est);
    for (size_t u = 0; u < k; u++)
        s->test_est[u] = NAN;
    s->test_center = NAN;
    unsigned char *keep = il_xcalloc(k ? k : 1, 1), *keep_tau = il_xcalloc(k ? k : 1, 1);
    /* A quantile's variance from a bootstrap of few runs is no estimate. */
    size_t need_tau = o->est.kind == IL_EST_MEAN ? 2 : IL_GQ_MIN_N;
    size_t nkeep = 0, ntau = 0;
    for (size_t u = 0; u < k; u++) {
        s->setup[u] = un->id[u];
        s->est[u] = un->est[u];
        s->n[u] = un->n[u];
        pos &= un->est[u] > 0;
        s->y[u] = un->est[u] > 0 ? log(un->est[u]) : NAN;
        /* Setups with one run tell nothing of the runs' noise: the test
         * and tau use the others, and say how many were left out. */
        keep[u] = un->n[u] >= 2;
        keep_tau[u] = un->n[u] >= need_tau;
        nkeep += keep[u];
        ntau += keep_tau[u];
        N += keep[u] ? un->n[u] : 0;
    }
    s->left_out = k - nkeep;
    s->tau_left_out = k - ntau;
    double *t = il_xcalloc(k ? k : 1, sizeof *t);
    memcpy(t, s->est, k * sizeof *t);
    qsort(t, k, sizeof *t, il_dcmp);
    s->center = il_quantile_sorted(t, k, 0.5);
    free(t);
    if (!pos || k < 2) {
        s->why = !pos ? "an estimate is not positive" : "one setup";
        free(keep);
        free(keep_tau);
        return;
    }
    modified_z(s->y, k, s->z);
    if (o->est.kind == IL_EST_MIN)
        s->why = "the minimum has no test";
    else if (nkeep < 2)
        s->why = "fewer than 2 setups have 2 runs";
    if (ntau < 2 && o->est.kind != IL_EST_MIN)
        s->tau_why = o->est.kind == IL_EST_MEAN ? "fewer than 2 setups have 2 runs"
                                                : "fewer than 2 setups have 10 runs";
    int same = ntau == nkeep; /* tau over the setups of the test */
    struct il_units sub = {0}, st = {0};
    double *qp = NULL, *qt = NULL;
    size_t nq = 0, nqt = 0;
    /* 999 permutations, fewer for large data, but not below 99. */
    size_t P = N * 999 <= 4000000 ? 999 : (size_t)fmax(99, 4e6 / (double)N);
    if (!s->why) {
        subset(&o->est, un, keep, un->x, &sub);
        qp = ntau >= 2 && same ? il_xcalloc(P, sizeof *qp) : NULL;
        test_units(r, &sub, s, qp, &nq, P);
    }
    /* tau: over the setups with the runs for it, the test's when they are
     * the same; else a test of their own for the shuffles' Q */
    const struct il_units *tu = &st;
    if (!s->tau_why && !s->why && same) {
        tu = &sub;
        qt = qp;
        nqt = nq;
        qp = NULL;
    } else if (!s->tau_why && o->est.kind != IL_EST_MIN) {
        struct il_gsetups tmp = {0};
        subset(&o->est, un, keep_tau, un->x, &st);
        qt = il_xcalloc(P, sizeof *qt);
        test_units(r, &st, &tmp, qt, &nqt, P);
    }
    if (tu->k >= 2) {
        double df2 = NAN, v = pooled_var(&o->est, tu, o->seed, &df2);
        s->tk = tu->k;
        s->ty = il_xcalloc(tu->k, sizeof *s->ty);
        s->tvar = il_xcalloc(tu->k, sizeof *s->tvar);
        for (size_t u = 0; u < tu->k; u++) {
            s->ty[u] = tu->est[u] > 0 ? log(tu->est[u]) : NAN;
            s->tvar[u] = v / (double)tu->n[u];
        }
        if (v > 0)
            s->has_tau = il_heterogeneity(s->ty, s->tvar, tu->k, df2, &s->het) == 0;
        else if (v == 0)
            s->tau_why = s->blocked ? "the runs do not vary within setups once each is divided "
                                      "by its pass's level"
                                    : "the runs do not vary within setups";
        /* The Q-profile at the shuffles' quantiles of Q instead of the
         * chi-squared's, which assume normal errors of known variance:
         * bursty noise fattens Q's tails (the interval excluded 0 in 15%
         * of A/A groups) and a quantile's bootstrap variance of 10 runs
         * overstates (it said [0, 0] in 35%).  Under no setup effect the
         * shuffles give Q's distribution exactly, so the interval
         * excludes 0 when the test rejects at 2.5%; with an effect that
         * dominates the noise both tend to chi-squared.  In between, the
         * coverage is measured (interloper-report(1), Coverage of setup
         * effects), not proven.  The estimate stays inside. */
        if (s->has_tau && nqt >= 99) {
            il_tau2_profile(s->ty, s->tvar, tu->k, qt, nqt, s->het.tau2, &s->het.tau2_lo,
                            &s->het.tau2_hi);
            s->calibrated = 1;
        }
        /* With every setup in passes of its own, drift between passes
         * is in the setups' differences: the interval would take it for
         * a setup effect (chi-squared's Q-profile over free runs). */
        if (s->why == il_why_confounded && s->has_tau) {
            s->het.has_tau_ci = 0;
            s->tau_ci_why = il_why_confounded;
        }
        /* The units of crossed labels share their labels' effects: the
         * Q-profile interval assumes independent setups. */
        if (o->design == IL_D_CROSSED && s->has_tau) {
            s->het.has_tau_ci = 0;
            s->tau_ci_why = "crossed labels: the setups share their labels' effects";
        }
    }
    free(qp);
    free(qt);
    /* The setups that stand out: their deviation from the median setup
     * passes what the shuffled runs give the largest of all (perm_p),
     * from the test's runs (divided by their block's level). */
    if (s->has_test) {
        double *y = il_xcalloc(sub.k, sizeof *y), *ys = il_xcalloc(sub.k, sizeof *ys);
        for (size_t u = 0; u < sub.k; u++)
            ys[u] = y[u] = log(sub.est[u]);
        qsort(ys, sub.k, sizeof *ys, il_dcmp);
        double med = il_quantile_sorted(ys, sub.k, 0.5); /* as max_dev takes it */
        s->test_center = exp(med);
        for (size_t u = 0, j = 0; u < k; u++) {
            if (!keep[u])
                continue;
            s->test_est[u] = sub.est[j];
            s->out[u] = sqrt((double)s->n[u]) * fabs(y[j++] - med) > s->crit;
            s->nout += s->out[u];
        }
        free(y);
        free(ys);
    }
    subset_free(un, &sub);
    subset_free(un, &st);
    free(keep);
    free(keep_tau);
}

void
il_group_setups(struct il_report *r)
{
    if (r->o->design == IL_D_FLAT || !r->units)
        return;
    r->gsu = il_xcalloc(r->gs.ng, sizeof *r->gsu);
    for (size_t g = 0; g < r->gs.ng; g++)
        one_group(r, &r->units[g], &r->gsu[g]);
}

/* tau^2 of the value over tau^2 of the baseline (the report's direction),
 * with the Bonferroni pair of 97.5% Q-profile intervals. */
void
il_setup_var_ratio(const struct il_report *r, struct il_cmp *c)
{
    const struct il_opts *o = r->o;
    if (!r->gsu)
        return;
    const struct il_gsetups *a = &r->gsu[o->speedup ? c->base : c->g];
    const struct il_gsetups *b = &r->gsu[o->speedup ? c->g : c->base];
    if (!a->has_tau || !b->has_tau || !a->het.has_tau_ci || !b->het.has_tau_ci) {
        c->svr_why = "a side has no tau or no interval of tau (its setup_effect says why)";
        return;
    }
    double conf = 1 - (1 - IL_CONF) / 2, alo, ahi, blo, bhi;
    if (il_tau2_ci(a->ty, a->tvar, a->tk, conf, &alo, &ahi) ||
        il_tau2_ci(b->ty, b->tvar, b->tk, conf, &blo, &bhi) || !(bhi > 0)) {
        c->svr_why = "the baseline's setups show no setup variance to compare with";
        return;
    }
    c->has_svr = 1;
    c->svr = b->het.tau2 > 0 ? a->het.tau2 / b->het.tau2 : NAN;
    c->svr_lo = bhi > 0 ? alo / bhi : NAN;
    c->svr_hi = blo > 0 ? ahi / blo : INFINITY;
}

void
il_gsetups_free(struct il_gsetups *s)
{
    free(s->setup);
    free(s->est);
    free(s->n);
    free(s->z);
    free(s->y);
    free(s->ty);
    free(s->tvar);
    free(s->out);
    free(s->test_est);
    memset(s, 0, sizeof *s);
}
