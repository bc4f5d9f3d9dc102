/*
 * ratio.c: ratios of means with Fieller's interval (Kalibera & Jones,
 * section 9.3, "effect size confidence intervals"; Fieller 1954), the t
 * interval of a mean, and the geometric mean of normalised results with
 * its interval in log space (Heiser, "The Dos and Don'ts of Benchmarking":
 * arithmetic means of ratios are meaningless).
 *
 * Fieller's set is {t : (a - t b)^2 <= h^2 V(t)}, where V(t) is the
 * variance of mean(a) - t mean(b).  Written as a quadratic in t it needs
 * a^2 - h^2 va, which loses every digit when the coefficient of variation
 * is tiny (counters of 2.5e12 with CV 1e-9: a^2 = 6e24, h^2 va = 25).  So
 * it is solved for d = t - r around the estimate r = a/b instead:
 *   d^2 b^2 <= h^2 (V(r) + 2 d V1 + d^2 V2),
 * where V(r), V1 = -cov(mean(a) - r mean(b), mean(b)) and V2 = var(mean b)
 * come from centred data, which keeps them exact to rounding.
 */
#include <math.h>

#include "il_stats.h"

/* Welch-Satterthwaite degrees of freedom of va + vb (variances of means). */
double
il_welch_df(double va, size_t na, double vb, size_t nb)
{
    double num = (va + vb) * (va + vb);
    double den = va * va / (double)(na - 1) + vb * vb / (double)(nb - 1);
    return den > 0 ? num / den : (double)(na + nb - 2);
}

void
il_fieller(const struct il_rvar *v, double h, struct il_fieller *f)
{
    double r = v->b != 0 ? v->a / v->b : NAN, hh = h * h;
    double A = v->b * v->b - hh * v->v2, B = hh * v->v1, C = -hh * v->v0;
    double D = B * B - A * C;
    f->ratio = r;
    f->h = h;
    f->df = v->df;
    f->lo = f->hi = NAN;
    if (!isfinite(r) || !isfinite(A) || !isfinite(D)) {
        f->kind = IL_CI_UNBOUNDED;
    } else if (A > 0) {
        /* Stable roots: q / A and C / q with q = B + sign(B) sqrt(D). */
        double s = sqrt(D > 0 ? D : 0), q = B + (B >= 0 ? s : -s);
        double d1 = q / A, d2 = q != 0 ? C / q : d1;
        f->kind = IL_CI_BOUNDED;
        f->lo = r + fmin(d1, d2);
        f->hi = r + fmax(d1, d2);
    } else if (A < 0 && D > 0) {
        /* The quadratic opens downwards: the set lies outside its roots. */
        double s = sqrt(D);
        double d1 = (B + s) / A, d2 = (B - s) / A;
        f->kind = IL_CI_EXCLUSIVE;
        f->lo = r + fmin(d1, d2);
        f->hi = r + fmax(d1, d2);
    } else {
        f->kind = IL_CI_UNBOUNDED;
    }
}

/* p-value of ratio = 1 with the same variance and df as the interval, so
 * that p < 0.05 exactly when 1 lies outside it. */
double
il_fieller_p(const struct il_rvar *v)
{
    double r = v->a / v->b, d = 1 - r;
    double V1 = v->v0 + 2 * d * v->v1 + d * d * v->v2;
    double num = v->a - v->b;
    if (!(V1 > 0))
        return num == 0 ? 1 : 0;
    double t = fabs(num) / sqrt(V1);
    return 2 * il_t_sf(t, v->df);
}

/* Two independent samples: variances of the means from centred data. */
int
il_rvar_samples(const double *y, size_t ny, const double *x, size_t nx, int pooled,
                struct il_rvar *v)
{
    v->a = il_mean(y, ny);
    v->b = il_mean(x, nx);
    v->v0 = v->v1 = v->v2 = v->df = NAN;
    if (ny < 2 || nx < 2)
        return IL_SE_FEW;
    double sa = il_var(y, ny, v->a), sb = il_var(x, nx, v->b), r = v->a / v->b;
    if (pooled) {
        /* Textbook pooled variance: one variance for both samples. */
        double sp = ((double)(ny - 1) * sa + (double)(nx - 1) * sb) / (double)(ny + nx - 2);
        sa = sb = sp;
    }
    double va = sa / (double)ny, vb = sb / (double)nx;
    v->v0 = va + r * r * vb;
    v->v1 = r * vb;
    v->v2 = vb;
    /* Welch at the estimated ratio: the variance is va + r^2 vb. */
    v->df = pooled ? (double)(ny + nx - 2) : il_welch_df(va, ny, r * r * vb, nx);
    return 0;
}

int
il_fieller_samples(const double *y, size_t ny, const double *x, size_t nx, int pooled,
                   struct il_fieller *f)
{
    struct il_rvar v;
    int e = il_rvar_samples(y, ny, x, nx, pooled, &v);
    f->ratio = v.b != 0 ? v.a / v.b : NAN;
    f->kind = IL_CI_UNBOUNDED;
    f->lo = f->hi = f->df = f->h = NAN;
    if (e)
        return e;
    il_fieller(&v, il_tq(v.df), f);
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
