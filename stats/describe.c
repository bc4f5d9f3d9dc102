/*
 * describe.c: one sample: summary statistics, the t interval of the mean,
 * and the diagnostics that say whether that interval can be trusted:
 * MAD outliers, a special first run, and independence of the run sequence
 * (Kalibera & Jones, section 6.1: run-sequence, lag and ACF plots with
 * +-1.96/sqrt(n) bounds; Ljung-Box summarises the ACF in one p-value).
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

double
il_mean(const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    double m = s / (double)n;
    /* One correction pass keeps large offsets (ns counters) exact. */
    double c = 0;
    for (size_t i = 0; i < n; i++)
        c += x[i] - m;
    return m + c / (double)n;
}

/* Each sum in il_mean's order, so the same bits; four arrays' sums
 * interleaved, so four chains of additions are in flight instead of one
 * (a serial chain of adds was the permutation tests' bound: setupfx.c). */
void
il_means(const double *x, const size_t *n, size_t k, double *m)
{
    for (size_t u = 0; u < k;) {
        size_t l = n[u];
        if (u + 4 > k || n[u + 1] != l || n[u + 2] != l || n[u + 3] != l) {
            m[u] = il_mean(x, l);
            x += l;
            u++;
            continue;
        }
        double sum[4];
        il_sum4(x, l, sum);
        il_mean4(x, l, l, 1, sum, m + u);
        x += 4 * l;
        u += 4;
    }
}

double
il_var(const double *x, size_t n, double mean)
{
    double s = 0, c = 0;
    if (n < 2)
        return 0;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - mean;
        s += d * d;
        c += d;
    }
    return (s - c * c / (double)n) / (double)(n - 1);
}

int
il_dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Linear interpolation between order statistics (R type 7). */
double
il_quantile_sorted(const double *s, size_t n, double p)
{
    if (n == 0)
        return NAN;
    double h = (double)(n - 1) * p;
    size_t i = (size_t)floor(h);
    if (i + 1 >= n)
        return s[n - 1];
    return s[i] + (h - (double)i) * (s[i + 1] - s[i]);
}

/* The k-th smallest of a[0..n-1] (0-based), reordering a: Hoare's
 * selection, linear on average, where a full sort would be n log n. */
static double
select_k(double *a, size_t n, size_t k)
{
    long lo = 0, hi = (long)n - 1, kk = (long)k;
    while (hi > lo) {
        double x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi];
        double pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        long i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                double t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (kk <= j)
            hi = j;
        else if (kk >= i)
            lo = i;
        else
            break;
    }
    return a[kk];
}

#define IL_SELECT_BRANCHLESS 256 /* fewer values: select_k */

/* The k-th smallest of a[0..n-1], reordering a so that every value after
 * index k is at least a[k] (as select_k): a quickselect whose partition
 * has no data-dependent branch (each value is swapped to the front and the
 * front advances by the compare's result), for large n, where select_k's
 * compares with the pivot mispredict about every other value.  A pivot
 * that is its range's least value (ties) partitions again by <=, so that
 * equal values end the search. */
static double
select_branchless(double *a, size_t n, size_t k)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 16) {
        double x = a[lo], y = a[lo + (hi - lo) / 2], z = a[hi - 1];
        double pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
        size_t j = lo;
        for (size_t i = lo; i < hi; i++) {
            double t = a[i];
            a[i] = a[j];
            a[j] = t;
            j += t < pivot;
        }
        if (k < j) {
            hi = j;
            continue;
        }
        if (j == lo) {
            /* nothing below the pivot: the values equal to it first */
            for (size_t i = lo; i < hi; i++) {
                double t = a[i];
                a[i] = a[j];
                a[j] = t;
                j += !(t > pivot);
            }
            if (k < j)
                return a[k]; /* [lo, j) all equal the pivot */
        }
        lo = j;
    }
    for (size_t i = lo + 1; i < hi; i++) {
        double t = a[i];
        size_t j = i;
        while (j > lo && a[j - 1] > t) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = t;
    }
    return a[k];
}

double
il_quantile_select(double *a, size_t n, double p)
{
    double h = (double)(n - 1) * p;
    size_t i = (size_t)floor(h);
    double lo = n >= IL_SELECT_BRANCHLESS ? select_branchless(a, n, i) : select_k(a, n, i);
    if (i + 1 >= n || h == (double)i)
        return lo;
    double next = a[i + 1];
    for (size_t j = i + 2; j < n; j++)
        if (a[j] < next)
            next = a[j];
    return lo + (h - (double)i) * (next - lo);
}

double
il_tq(double df)
{
    return gsl_cdf_tdist_Pinv(0.5 + IL_CONF / 2, df);
}

void
il_summarize(const double *x, size_t n, double *scratch, struct il_summary *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n == 0)
        return;
    s->mean = il_mean(x, n);
    s->min = s->max = x[0];
    for (size_t i = 1; i < n; i++) {
        if (x[i] < s->min)
            s->min = x[i];
        if (x[i] > s->max)
            s->max = x[i];
    }
    memcpy(scratch, x, n * sizeof *x);
    s->median = il_quantile_select(scratch, n, 0.5);
    if (n >= 2) {
        s->sd = sqrt(il_var(x, n, s->mean));
        s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : NAN;
        double hw = il_tq((double)(n - 1)) * s->sd / sqrt((double)n);
        s->lo = s->mean - hw;
        s->hi = s->mean + hw;
        s->has_sd = s->has_ci = 1;
    }
}

/* The median absolute deviation of x from its median med. */
static double
mad_of(const double *x, size_t n, double med, double *scratch)
{
    for (size_t i = 0; i < n; i++)
        scratch[i] = fabs(x[i] - med);
    return il_quantile_select(scratch, n, 0.5);
}

double
il_median_mad(const double *x, size_t n, double *scratch, double *mad)
{
    memcpy(scratch, x, n * sizeof *x);
    double med = il_quantile_select(scratch, n, 0.5);
    *mad = mad_of(x, n, med, scratch);
    return med;
}

/* Robust scale: MAD/0.6745, or, when more than half the values tie,
 * 1.2533 times the mean absolute deviation from the median. */
static double
robust_scale(const double *x, size_t n, double med, double mad)
{
    if (mad > 0)
        return mad / 0.6745;
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += fabs(x[i] - med);
    return 1.2533 * s / (double)n;
}

/* Lags il_acf sums side by side. */
#define IL_ACF_SIDE 10

size_t
il_acf(const double *x, size_t n, size_t maxlag, double *acf)
{
    double m = il_mean(x, n), c0 = 0;
    for (size_t t = 0; t < n; t++)
        c0 += (x[t] - m) * (x[t] - m);
    if (maxlag > n - 1)
        maxlag = n - 1;
    if (c0 == 0)
        return 0;
    /* Each lag's sum is added in t's order, as a loop a lag adds it (the
     * same bits), but IL_ACF_SIDE lags side by side in one pass: their
     * chains of additions are independent, so they overlap instead of
     * waiting for each other, and x is read once a group of lags. */
    for (size_t k0 = 1; k0 <= maxlag; k0 += IL_ACF_SIDE) {
        size_t kn = maxlag - k0 + 1 < IL_ACF_SIDE ? maxlag - k0 + 1 : IL_ACF_SIDE;
        double c[IL_ACF_SIDE] = {0};
        size_t t = 0;
        if (kn == IL_ACF_SIDE)
            for (; t + k0 + IL_ACF_SIDE - 1 < n; t++) {
                double a = x[t] - m;
                for (size_t j = 0; j < IL_ACF_SIDE; j++)
                    c[j] += a * (x[t + k0 + j] - m);
            }
        for (; t + k0 < n; t++) {
            double a = x[t] - m;
            for (size_t j = 0; j < kn && t + k0 + j < n; j++)
                c[j] += a * (x[t + k0 + j] - m);
        }
        for (size_t j = 0; j < kn; j++)
            acf[k0 + j - 1] = c[j] / c0;
    }
    return maxlag;
}

/* Q = n (n + 2) sum_k acf_k^2 / (n - k), chi-squared with h degrees of
 * freedom under independence (Ljung & Box, 1978). */
double
il_ljung_box(const double *acf, size_t n, int h, double *q)
{
    double s = 0;
    for (int k = 1; k <= h; k++)
        s += acf[k - 1] * acf[k - 1] / (double)(n - (size_t)k);
    *q = (double)n * (double)(n + 2) * s;
    return gsl_cdf_chisq_Q(*q, h);
}

void
il_diagnose(const double *x, size_t n, double *scratch, struct il_diag *d)
{
    double med = NAN;
    if (n >= IL_DIAG_MIN_N) {
        memcpy(scratch, x, n * sizeof *x);
        med = il_quantile_select(scratch, n, 0.5);
    }
    il_diagnose_med(x, n, med, scratch, d);
}

void
il_diagnose_med(const double *x, size_t n, double med, double *scratch, struct il_diag *d)
{
    memset(d, 0, sizeof *d);
    if (n >= IL_DIAG_MIN_N) {
        double mad = mad_of(x, n, med, scratch);
        double sc = robust_scale(x, n, med, mad);
        if (sc > 0) {
            d->mad_checked = 1;
            for (size_t i = 0; i < n; i++)
                if (fabs(x[i] - med) / sc > IL_OUTLIER_Z)
                    d->outliers++;
            /* The first run against the others only. */
            double mad1, med1 = il_median_mad(x + 1, n - 1, scratch, &mad1);
            double sc1 = robust_scale(x + 1, n - 1, med1, mad1);
            if (sc1 > 0) {
                d->first_z = (x[0] - med1) / sc1;
                d->first_special = fabs(d->first_z) > IL_OUTLIER_Z;
            }
        }
    }
    if (n >= IL_ACF_MIN_N) {
        size_t maxlag = n / 4 < IL_MAX_ACF ? n / 4 : IL_MAX_ACF;
        d->nacf = il_acf(x, n, maxlag, d->acf);
        d->acf_bound = 1.959963984540054 / sqrt((double)n);
        /* h = min(10, n/5) lags, a common rule for Ljung-Box. */
        int h = (int)(n / 5 < 10 ? n / 5 : 10);
        if (d->nacf >= (size_t)h && h >= 1) {
            d->has_lb = 1;
            d->lb_lags = h;
            d->lb_p = il_ljung_box(d->acf, n, h, &d->lb_q);
        }
    }
}

double
il_tq_p(double df, double p)
{
    return isfinite(df) ? gsl_cdf_tdist_Pinv(p, df) : gsl_cdf_ugaussian_Pinv(p);
}

double
il_t_sf(double t, double df)
{
    return isfinite(df) ? gsl_cdf_tdist_Q(t, df) : gsl_cdf_ugaussian_Q(t);
}

void
il_summarize_int(const struct il_data *d, const uint32_t *rec, const double *x, size_t n,
                 struct il_summary *s)
{
    __int128 sum = 0;
    s->exact = n > 0;
    if (!n)
        return;
    s->imin = s->imax = il_ival_of(d, rec[0], x[0]);
    for (size_t i = 0; i < n; i++) {
        int64_t v = il_ival_of(d, rec[i], x[i]);
        sum += v;
        if (v < s->imin)
            s->imin = v;
        if (v > s->imax)
            s->imax = v;
    }
    s->mean_exact = sum % (__int128)n == 0;
    if (s->mean_exact)
        s->imean = (int64_t)(sum / (__int128)n);
}

int
il_estimator_parse(const char *s, struct il_estimator *e)
{
    char *end;
    if (strcmp(s, "mean") == 0 || strcmp(s, "median") == 0 || strcmp(s, "min") == 0) {
        e->kind = s[1] == 'e' ? (s[2] == 'a' ? IL_EST_MEAN : IL_EST_MEDIAN) : IL_EST_MIN;
        e->p = e->kind == IL_EST_MEDIAN ? 0.5 : e->kind == IL_EST_MIN ? 0 : NAN;
        e->name = e->kind == IL_EST_MEAN ? "mean" : e->kind == IL_EST_MEDIAN ? "median" : "min";
        return 0;
    }
    if (s[0] != 'p' || s[1] < '0' || s[1] > '9')
        return -1;
    double v = strtod(s + 1, &end);
    if (*end || !(v > 0 && v < 100))
        return -1;
    e->kind = IL_EST_Q;
    e->p = v / 100;
    e->name = s;
    if (v == 50) {
        e->kind = IL_EST_MEDIAN;
        e->name = "median";
    }
    return 0;
}

double
il_estimate(const struct il_estimator *e, const double *x, size_t n, double *scratch)
{
    if (e->kind == IL_EST_MEAN)
        return il_mean(x, n);
    if (e->kind == IL_EST_MIN) {
        double m = x[0];
        for (size_t i = 1; i < n; i++)
            if (x[i] < m)
                m = x[i];
        return m;
    }
    memcpy(scratch, x, n * sizeof *x);
    return il_quantile_select(scratch, n, e->p);
}

double
il_estimate_mean(const struct il_estimator *e, const double *x, size_t n, double *scratch,
                 double *mean)
{
    *mean = il_mean(x, n);
    return e->kind == IL_EST_MEAN ? *mean : il_estimate(e, x, n, scratch);
}

/*
 * The order-statistic interval of a quantile (e.g. Conover, "Practical
 * Nonparametric Statistics", section 3.2): the number of values below the
 * p-quantile is Binomial(n, p), so [x_(l), x_(u)] covers it with
 * probability P(l <= B <= u - 1), whatever the (continuous) distribution.
 * l and u are the equal-tailed binomial quantiles (R: l = qbinom(0.025, n,
 * p), u = qbinom(0.975, n, p) + 1).  When a tail cannot be cut that
 * finely (the 10th percentile of 30 runs: P(B = 0) = 0.042), that end is
 * the sample's extreme and the other end moves out until the coverage is
 * the level (IL_CONF unless given).  Being discrete, the coverage is at
 * least the level, rarely exactly that.
 */
static double
binom_cover(long l, long u, double p, size_t n)
{
    double hi = gsl_cdf_binomial_P((unsigned)(u - 1), p, (unsigned)n);
    double lo = l >= 1 ? gsl_cdf_binomial_P((unsigned)(l - 1), p, (unsigned)n) : 0;
    return hi - (l >= 1 ? lo : 0);
}

/* The ranks [l, u] of the interval at level, or IL_SE_FEW. */
static int
quantile_ranks(size_t n, double p, double level, long *lp, long *up)
{
    double a = (1 - level) / 2;
    if (n < 2)
        return IL_SE_FEW;
    /* qbinom(a): the smallest x with P(B <= x) >= a; l = x, u = x' + 1. */
    long l = 0, u = 0;
    while (l < (long)n && gsl_cdf_binomial_P((unsigned)l, p, (unsigned)n) < a)
        l++;
    while (u < (long)n && gsl_cdf_binomial_P((unsigned)u, p, (unsigned)n) < 1 - a)
        u++;
    u++;
    if (l < 1) {
        l = 1;
        while (u <= (long)n && binom_cover(l, u, p, n) < level)
            u++;
    }
    if (u > (long)n) {
        u = (long)n;
        while (l >= 1 && binom_cover(l, u, p, n) < level)
            l--;
    }
    if (l < 1 || u > (long)n || l >= u || binom_cover(l, u, p, n) < level)
        return IL_SE_FEW;
    *lp = l;
    *up = u;
    return 0;
}

int
il_quantile_ci_at(const double *sorted, size_t n, double p, double level, double *lo, double *hi,
                  double *coverage)
{
    long l, u;
    *lo = *hi = NAN;
    if (quantile_ranks(n, p, level, &l, &u))
        return IL_SE_FEW;
    *lo = sorted[l - 1];
    *hi = sorted[u - 1];
    if (coverage)
        *coverage = binom_cover(l, u, p, n);
    return 0;
}

int
il_quantile_ci(const double *sorted, size_t n, double p, double *lo, double *hi, double *coverage)
{
    return il_quantile_ci_at(sorted, n, p, IL_CONF, lo, hi, coverage);
}

size_t
il_quantile_min_n(double p, double level)
{
    long l, u;
    /* An interval exists once the widest one, [x_(1), x_(n)], covers
     * (probability 1 - p^n - (1-p)^n, growing with n): skip to there
     * cheaply, then ask quantile_ranks itself.  Past 10^6 runs the level
     * is out of reach. */
    for (size_t n = 2; n <= 1000000; n++)
        if (1 - pow(p, (double)n) - pow(1 - p, (double)n) >= level &&
            quantile_ranks(n, p, level, &l, &u) == 0)
            return n;
    return SIZE_MAX;
}
