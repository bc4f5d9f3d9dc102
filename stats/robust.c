/*
 * robust.c: resampling: a percentile bootstrap of a ratio of quantiles
 * with runs resampled within each sample (Efron & Tibshirani, "An
 * Introduction to the Bootstrap", 1993, chapter 13), a bootstrap of pooled
 * residuals for per-setup intervals, and permutation tests of equal
 * per-setup ratios.  Every draw comes from the project's one generator
 * (include/il_prng.h), seeded by --seed, so that a report is reproducible.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_prng.h"
#include "il_stats.h"

/* Streams of --seed for the draws of each kind (il_rng_init). */
enum { IL_STREAM_BOOT = 101, IL_STREAM_RESID = 102, IL_STREAM_PERM = 103 };

static void
resample(struct il_rng *g, const double *x, size_t n, double *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = x[il_rng_below(g, n)];
}

/*
 * The percentile bootstrap of a quantile is anti-conservative with few
 * runs: its distribution has few distinct values (with 2 runs a side, the
 * range of 4), and a ratio of medians of 3 runs a side covers 89% where
 * 95% is claimed (review R2, finding 1).  The rule: an interval at level
 * needs, on each side, as many runs as the distribution-free
 * order-statistic interval of that quantile at that level (6 for the
 * median at 95%, 29 for p10); bench/coverage.sh checks that the bootstrap
 * covers from there.
 */
size_t
il_boot_min_n(const struct il_estimator *e, double level)
{
    if (e->kind != IL_EST_MEDIAN && e->kind != IL_EST_Q)
        return 2;
    return il_quantile_min_n(e->p, level);
}

void
il_boot_few_why(const struct il_estimator *e, double level, char *buf, size_t n)
{
    char q[64], lv[32] = "";
    size_t need = il_boot_min_n(e, level);
    if (e->kind == IL_EST_MEDIAN)
        snprintf(q, sizeof q, "the median");
    else {
        /* 1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st; 2.5th */
        double v = round(1e9 * e->p) / 1e7; /* 21, not 21.000000000000004 */
        long iv = (long)v, t = iv % 100;
        const char *suf = v != (double)iv || (t >= 11 && t <= 13) ? "th"
                          : iv % 10 == 1                          ? "st"
                          : iv % 10 == 2                          ? "nd"
                          : iv % 10 == 3                          ? "rd"
                                                                  : "th";
        snprintf(q, sizeof q, "the %g%s percentile", v, suf);
    }
    if (level != IL_CONF)
        snprintf(lv, sizeof lv, "%.4g%% ", 100 * level);
    if (need == SIZE_MAX)
        snprintf(buf, n, "no %sinterval of %s from any number of runs", lv, q);
    else
        snprintf(buf, n, "too few runs for %s%sinterval of %s: %zu a side needed",
                 *lv ? "a " : "an ", lv, q, need);
}

int
il_boot_ratio(const struct il_estimator *e, const double *y, size_t ny, const double *x, size_t nx,
              size_t B, unsigned long seed, double level, double *lo, double *hi, double *vlog,
              double *p)
{
    *lo = *hi = *vlog = *p = NAN;
    if (ny < 2 || nx < 2 || B < 2)
        return IL_SE_FEW;
    size_t need = il_boot_min_n(e, level);
    if (ny < need || nx < need)
        return IL_SE_QFEW;
    struct il_rng g0, *g = &g0;
    il_rng_init(g, (uint32_t)seed, IL_STREAM_BOOT);
    size_t m = ny > nx ? ny : nx;
    double *by = il_xcalloc(m, sizeof *by), *scratch = il_xcalloc(m, sizeof *scratch);
    double *rep = il_xcalloc(B, sizeof *rep);
    size_t below = 0, above = 0, ok = 0;
    for (size_t b = 0; b < B; b++) {
        resample(g, y, ny, by);
        double ey = il_estimate(e, by, ny, scratch);
        resample(g, x, nx, by);
        double ex = il_estimate(e, by, nx, scratch);
        double r = ey / ex;
        if (!(r > 0) || !isfinite(r))
            continue;
        rep[ok++] = r;
        below += r <= 1;
        above += r >= 1;
    }
    free(by);
    free(scratch);
    if (ok < 2) {
        free(rep);
        return IL_SE_NONPOS;
    }
    double s = 0, ss = 0;
    for (size_t b = 0; b < ok; b++)
        s += log(rep[b]);
    double ml = s / (double)ok;
    for (size_t b = 0; b < ok; b++)
        ss += (log(rep[b]) - ml) * (log(rep[b]) - ml);
    *vlog = ss / (double)(ok - 1);
    qsort(rep, ok, sizeof *rep, il_dcmp);
    *lo = il_quantile_sorted(rep, ok, (1 - level) / 2);
    *hi = il_quantile_sorted(rep, ok, (1 + level) / 2);
    /* Two-sided: 1 lies outside the (1 - p) percentile interval. */
    *p = 2 * (double)(below < above ? below : above) / (double)ok;
    if (*p > 1)
        *p = 1;
    free(rep);
    return 0;
}

/*
 * Per-setup intervals of a ratio of means from the setups' pooled
 * relative residuals (a residual bootstrap; Davison & Hinkley, "Bootstrap
 * Methods and their Application", 1997, section 6.3).  When the run noise
 * is multiplicative with one law in every setup, the error of a setup's
 * log ratio, log(mean of na errors of A / mean of nb errors of B), has the
 * same distribution in every setup; drawing the errors from all setups'
 * residuals x / m_u, stretched by sqrt(n_u / (n_u - 1)), gives its
 * quantiles with the skewness and the tails of the real noise (bursts),
 * where a t quantile assumes normal setup means.  q receives the
 * quantiles at a / 2, 1 - a / 2 for each of the two levels a.
 */
int
il_resid_boot(const double *ea, size_t nea, const double *eb, size_t neb, size_t na, size_t nb,
              size_t B, unsigned long seed, const double *alpha, double *q)
{
    if (nea < 2 || neb < 2 || na < 1 || nb < 1 || B < 100)
        return IL_SE_FEW;
    struct il_rng g;
    il_rng_init(&g, (uint32_t)seed, IL_STREAM_RESID);
    double *z = il_xcalloc(B, sizeof *z);
    for (size_t b = 0; b < B; b++) {
        double sa = 0, sb = 0;
        for (size_t i = 0; i < na; i++)
            sa += ea[il_rng_below(&g, nea)];
        for (size_t i = 0; i < nb; i++)
            sb += eb[il_rng_below(&g, neb)];
        z[b] = log(sa / (double)na) - log(sb / (double)nb);
    }
    qsort(z, B, sizeof *z, il_dcmp);
    for (int l = 0; l < 2; l++) {
        q[2 * l] = il_quantile_sorted(z, B, alpha[l] / 2);
        q[2 * l + 1] = il_quantile_sorted(z, B, 1 - alpha[l] / 2);
    }
    free(z);
    return 0;
}

/* Cochran's Q of the log ratios y against the pooled relative variances
 * ra, rb of the two sides. */
static double
cochran_q(const double *y, const size_t *na, const size_t *nb, size_t k, double ra, double rb)
{
    double sw = 0, swy = 0, q = 0;
    for (size_t u = 0; u < k; u++) {
        double w = 1 / (ra / (double)na[u] + rb / (double)nb[u]);
        sw += w;
        swy += w * y[u];
    }
    double m = swy / sw;
    for (size_t u = 0; u < k; u++)
        q += (y[u] - m) * (y[u] - m) / (ra / (double)na[u] + rb / (double)nb[u]);
    return q;
}

/* Cochran's Q of the per-unit log ratios of the two parts of each unit's
 * pooled runs, p[0 .. na) against p[na .. na + nb), against pooled
 * relative variances; or, without studentize, their spread. */
static double
het_stat(const struct il_estimator *e, double *const *pool, const size_t *na, const size_t *nb,
         size_t k, int studentize, double *y, double *scratch)
{
    double ra = 0, rb = 0, fa = 0, fb = 0;
    double *ma = scratch, *mb = scratch + k;
    for (size_t u = 0; u < k; u++) {
        const double *x = pool[u];
        ma[u] = il_estimate(e, x, na[u], scratch + 2 * k);
        mb[u] = il_estimate(e, x + na[u], nb[u], scratch + 2 * k);
        y[u] = log(ma[u] / mb[u]);
        if (!studentize)
            continue;
        for (size_t i = 0; i < na[u]; i++)
            ra += (x[i] / ma[u] - 1) * (x[i] / ma[u] - 1);
        for (size_t i = 0; i < nb[u]; i++)
            rb += (x[na[u] + i] / mb[u] - 1) * (x[na[u] + i] / mb[u] - 1);
        fa += (double)(na[u] - 1);
        fb += (double)(nb[u] - 1);
    }
    if (!studentize) {
        double m = il_mean(y, k), s = 0;
        for (size_t u = 0; u < k; u++)
            s += (y[u] - m) * (y[u] - m);
        return s;
    }
    return cochran_q(y, na, nb, k, fa > 0 ? ra / fa : 0, fb > 0 ? rb / fb : 0);
}

/*
 * Cochran's Q of a permutation from sums alone: the value part of a unit
 * is drawn by a partial Fisher-Yates shuffle of na of its runs, and the
 * baseline part's sums are the unit's totals less the value part's, so a
 * permutation costs the size of the value parts, not of everything.  The
 * sums are of d = x / c - 1 around the unit's overall mean c, so that
 * counters with a coefficient of variation of 1e-9 keep their digits:
 * for a part of n runs with sums s1, s2 of d, its mean is c (1 + s1 / n)
 * and its relative sum of squares (s2 - s1^2 / n) / (1 + s1 / n)^2.
 */
static double
perm_q_fast(double *const *pool, const size_t *na, const size_t *nb, size_t k, double t0, size_t P,
            unsigned long seed, double *y, double *qp, size_t *nq)
{
    double *tot = il_xcalloc(2 * k, sizeof *tot), *tot2 = tot + k;
    for (size_t u = 0; u < k; u++) {
        size_t n = na[u] + nb[u];
        double c = il_mean(pool[u], n);
        for (size_t i = 0; i < n; i++) {
            pool[u][i] = pool[u][i] / c - 1;
            tot[u] += pool[u][i];
            tot2[u] += pool[u][i] * pool[u][i];
        }
    }
    struct il_rng g;
    il_rng_init(&g, (uint32_t)seed, IL_STREAM_PERM);
    size_t ge = 0;
    for (size_t it = 0; it < P; it++) {
        double ra = 0, rb = 0, fa = 0, fb = 0;
        for (size_t u = 0; u < k; u++) {
            size_t n = na[u] + nb[u];
            double *d = pool[u], s1 = 0, s2 = 0;
            for (size_t i = 0; i < na[u]; i++) {
                size_t j = i + il_rng_below(&g, n - i);
                double t = d[i];
                d[i] = d[j];
                d[j] = t;
                s1 += d[i];
                s2 += d[i] * d[i];
            }
            double S1 = tot[u] - s1, S2 = tot2[u] - s2;
            double ga = s1 / (double)na[u], gb = S1 / (double)nb[u];
            y[u] = log1p(ga) - log1p(gb);
            ra += (s2 - s1 * ga) / ((1 + ga) * (1 + ga));
            rb += (S2 - S1 * gb) / ((1 + gb) * (1 + gb));
            fa += (double)(na[u] - 1);
            fb += (double)(nb[u] - 1);
        }
        double q = cochran_q(y, na, nb, k, fa > 0 ? ra / fa : 0, fb > 0 ? rb / fb : 0);
        ge += q >= t0 * (1 - 1e-9);
        if (qp && isfinite(q))
            qp[(*nq)++] = q;
    }
    free(tot);
    return (double)(ge + 1) / (double)(P + 1);
}

/*
 * Under no setup effect the value runs of a setup, divided by the common
 * ratio theta, and its baseline runs come from one distribution, so their
 * labels may be exchanged within the setup (a shared setup effect stays:
 * nothing moves between setups).  The statistic is Cochran's Q against
 * pooled within-setup variances for the mean (studentized: the noise's
 * tails and bursts enter its reference distribution, which an F or
 * chi-squared reference would take as normal), or the spread of the
 * per-setup log ratios for a quantile.  theta is estimated, so the test
 * is approximate; exactly so for an A/A comparison.  P permutations.
 */
double
il_perm_het(const struct il_estimator *e, const struct il_units *a, const struct il_units *b,
            const size_t *ua, const size_t *ub, size_t k, double theta, size_t P,
            unsigned long seed, double *qp, size_t *nq)
{
    if (nq)
        *nq = 0;
    size_t maxn = 0;
    double **pool = il_xcalloc(k, sizeof *pool);
    size_t *na = il_xcalloc(k, sizeof *na), *nb = il_xcalloc(k, sizeof *nb);
    int studentize = e->kind == IL_EST_MEAN;
    for (size_t u = 0; u < k; u++) {
        na[u] = a->n[ua[u]];
        nb[u] = b->n[ub[u]];
        if (na[u] + nb[u] > maxn)
            maxn = na[u] + nb[u];
        pool[u] = il_xcalloc(na[u] + nb[u], sizeof **pool);
        for (size_t i = 0; i < na[u]; i++)
            pool[u][i] = a->x[a->off[ua[u]] + i] / theta;
        memcpy(pool[u] + na[u], b->x + b->off[ub[u]], nb[u] * sizeof **pool);
    }
    double *scratch = il_xcalloc(2 * k + maxn, sizeof *scratch), *y = il_xcalloc(k, sizeof *y);
    double t0 = het_stat(e, pool, na, nb, k, studentize, y, scratch), p;
    if (studentize) {
        p = perm_q_fast(pool, na, nb, k, t0, P, seed, y, qp, nq);
    } else {
        /* only p takes these exchanges: they stop once its side of 5%
         * is decided (seqp.c) */
        struct il_rng g;
        il_rng_init(&g, (uint32_t)seed, IL_STREAM_PERM);
        struct il_seqp sq;
        il_seqp_init(&sq, P, 1);
        for (size_t it = 0; it < P && !sq.stopped; it++) {
            for (size_t u = 0; u < k; u++)
                il_rng_shuffle_double(&g, pool[u], na[u] + nb[u]);
            il_seqp_add(&sq,
                        het_stat(e, pool, na, nb, k, studentize, y, scratch) >= t0 * (1 - 1e-12));
        }
        p = il_seqp_p(&sq);
    }
    for (size_t u = 0; u < k; u++)
        free(pool[u]);
    free(pool);
    free(na);
    free(nb);
    free(scratch);
    free(y);
    return p;
}
