/*
 * robust.c: resampling for the estimators that have no closed-form
 * interval (--estimator median or pNN): a percentile bootstrap of a ratio
 * with runs resampled within each sample (Efron & Tibshirani, "An
 * Introduction to the Bootstrap", 1993, chapter 13), and a permutation
 * test of equal per-setup ratios.  GSL's MT19937, seeded, so that a
 * report is reproducible.
 */
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

static void
resample(gsl_rng *g, const double *x, size_t n, double *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = x[gsl_rng_uniform_int(g, n)];
}

int
il_boot_ratio(const struct il_estimator *e, const double *y, size_t ny, const double *x, size_t nx,
              size_t B, unsigned long seed, double level, double *lo, double *hi, double *vlog,
              double *p)
{
    *lo = *hi = *vlog = *p = NAN;
    if (ny < 2 || nx < 2 || B < 2)
        return IL_SE_FEW;
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!g)
        return IL_SE_NOMEM;
    gsl_rng_set(g, seed);
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
    gsl_rng_free(g);
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

/* Sum of squared deviations of the per-unit log ratios; y[] scratch. */
static double
spread(const double *y, size_t k)
{
    double m = il_mean(y, k), s = 0;
    for (size_t u = 0; u < k; u++)
        s += (y[u] - m) * (y[u] - m);
    return s;
}

/*
 * Under no setup effect the value runs of a setup, divided by the common
 * ratio theta, and its baseline runs come from one distribution, so their
 * labels may be exchanged within the setup (a shared setup effect stays:
 * nothing moves between setups).  The statistic is the spread of the
 * per-setup log ratios; theta is estimated, so the test is approximate.
 */
double
il_perm_het(const struct il_estimator *e, const struct il_units *a, const struct il_units *b,
            const size_t *ua, const size_t *ub, size_t k, double theta, size_t P,
            unsigned long seed)
{
    size_t maxn = 0;
    for (size_t u = 0; u < k; u++)
        if (a->n[ua[u]] + b->n[ub[u]] > maxn)
            maxn = a->n[ua[u]] + b->n[ub[u]];
    double *pool = il_xcalloc(maxn, sizeof *pool), *scratch = il_xcalloc(maxn, sizeof *scratch);
    double *y = il_xcalloc(k, sizeof *y);
    for (size_t u = 0; u < k; u++)
        y[u] = log(a->est[ua[u]] / b->est[ub[u]]);
    double t0 = spread(y, k);
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!g)
        return NAN;
    gsl_rng_set(g, seed);
    size_t ge = 0;
    for (size_t it = 0; it < P; it++) {
        for (size_t u = 0; u < k; u++) {
            size_t na = a->n[ua[u]], nb = b->n[ub[u]];
            for (size_t i = 0; i < na; i++)
                pool[i] = a->x[a->off[ua[u]] + i] / theta;
            memcpy(pool + na, b->x + b->off[ub[u]], nb * sizeof *pool);
            for (size_t i = na + nb - 1; i > 0; i--) {
                size_t j = gsl_rng_uniform_int(g, i + 1);
                double t = pool[i];
                pool[i] = pool[j];
                pool[j] = t;
            }
            double ea = il_estimate(e, pool, na, scratch),
                   eb = il_estimate(e, pool + na, nb, scratch);
            y[u] = log(ea / eb);
        }
        ge += spread(y, k) >= t0 * (1 - 1e-12);
    }
    gsl_rng_free(g);
    free(pool);
    free(scratch);
    free(y);
    return (double)(ge + 1) / (double)(P + 1);
}
