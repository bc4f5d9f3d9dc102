/*
 * ratio.c: ratios of means with Fieller's interval (Kalibera & Jones,
 * section 9.3, "effect size confidence intervals"; Fieller 1954), the t
 * interval of a mean (used for Mytkowicz et al.'s per-setup ratios,
 * section 7.1.2, "1.007 +- 0.003"), and the geometric mean of normalised
 * results with its interval in log space (Heiser, "The Dos and Don'ts of
 * Benchmarking": arithmetic means of ratios are meaningless).
 */
#include <math.h>

#include "il_stats.h"

/* Welch-Satterthwaite degrees of freedom for two variances of means. */
double
il_welch_df(double va, size_t na, double vb, size_t nb)
{
    double num = (va + vb) * (va + vb);
    double den = va * va / (double)(na - 1) + vb * vb / (double)(nb - 1);
    return den > 0 ? num / den : (double)(na + nb - 2);
}

/*
 * The set {t : (a - t b)^2 <= h^2 (va + t^2 vb)} is where the quadratic
 * A t^2 - 2 a b t + C is <= 0, with A = b^2 - h^2 vb and C = a^2 - h^2 va.
 * A > 0: the baseline mean is clearly non-zero and the set is [lo, hi].
 * A < 0: the set is two half-lines (exclusive) or, with no real roots, the
 * whole line.  Neither is an interval and must never be printed as one.
 */
void
il_fieller(double a, double va, double b, double vb, double h, struct il_fieller *f)
{
    double A = b * b - h * h * vb, C = a * a - h * h * va, ab = a * b;
    double D = ab * ab - A * C;
    f->ratio = b != 0 ? a / b : NAN;
    f->h = h;
    f->lo = f->hi = NAN;
    if (A > 0) {
        double s = sqrt(D > 0 ? D : 0);
        /* Stable roots: q / A and C / q. */
        double q = ab + (ab >= 0 ? s : -s);
        double r1 = q / A, r2 = q != 0 ? C / q : r1;
        f->kind = IL_CI_BOUNDED;
        f->lo = fmin(r1, r2);
        f->hi = fmax(r1, r2);
    } else if (A < 0 && D > 0) {
        double s = sqrt(D);
        double r1 = (ab + s) / A, r2 = (ab - s) / A;
        f->kind = IL_CI_EXCLUSIVE;
        f->lo = fmin(r1, r2);
        f->hi = fmax(r1, r2);
    } else {
        f->kind = IL_CI_UNBOUNDED;
    }
}

int
il_fieller_samples(const double *y, size_t ny, const double *x, size_t nx, int pooled,
                   struct il_fieller *f)
{
    double a = il_mean(y, ny), b = il_mean(x, nx);
    f->ratio = b != 0 ? a / b : NAN;
    f->kind = IL_CI_UNBOUNDED;
    f->lo = f->hi = f->df = f->h = NAN;
    if (ny < 2 || nx < 2)
        return IL_SE_FEW;
    double va = il_var(y, ny, a) / (double)ny, vb = il_var(x, nx, b) / (double)nx;
    f->df = pooled ? (double)(nx + ny - 2) : il_welch_df(va, ny, vb, nx);
    il_fieller(a, va, b, vb, il_tq(f->df), f);
    return 0;
}

int
il_tci(const double *x, size_t n, double *mean, double *lo, double *hi)
{
    *mean = il_mean(x, n);
    *lo = *hi = NAN;
    if (n < 2)
        return IL_SE_FEW;
    double hw = il_tq((double)(n - 1)) * sqrt(il_var(x, n, *mean) / (double)n);
    *lo = *mean - hw;
    *hi = *mean + hw;
    return 0;
}

int
il_geomean_ci(const double *r, size_t n, double *gm, double *lo, double *hi, size_t *bad)
{
    double s = 0, ss = 0;
    *gm = *lo = *hi = NAN;
    for (size_t i = 0; i < n; i++)
        if (!(r[i] > 0)) {
            *bad = i;
            return IL_SE_NONPOS;
        }
    for (size_t i = 0; i < n; i++)
        s += log(r[i]);
    double m = s / (double)n;
    *gm = exp(m);
    if (n < 2)
        return IL_SE_FEW;
    for (size_t i = 0; i < n; i++)
        ss += (log(r[i]) - m) * (log(r[i]) - m);
    double hw = il_tq((double)(n - 1)) * sqrt(ss / (double)(n - 1) / (double)n);
    *lo = exp(m - hw);
    *hi = exp(m + hw);
    return 0;
}
