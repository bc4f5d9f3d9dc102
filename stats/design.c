/*
 * design.c: intervals that respect how the runs were made.
 *
 * Kalibera & Jones (ISMM 2013, section 9.3) take the variance of a mean at
 * the highest level of repetition: the runs inside one setup share that
 * setup's effect, so the setup means, not the runs, are the independent
 * units.  When two systems are measured in the same setups, each setup
 * gives a pair of means, and Fieller's interval for the ratio of the two
 * grand means uses the variance of a_u - t b_u over the setups u, which
 * holds the covariance of the pair (Fieller 1954; the paired form is exact
 * when the setup means are normal).  With one label this is var/k with
 * k - 1 df.
 *
 * interloper sweep crosses environment sizes with link layouts; setups
 * that share a layout share its effect, so the cells are not independent.
 * Two labels are modelled as crossed random factors, x_ij = m + A_i + B_j
 * + e_ij (one value per cell; e holds the interaction and the runs'
 * noise), fitted by Henderson's method I (Searle, Casella & McCulloch,
 * "Variance Components", 1992, section 5.2), which is the ANOVA estimator
 * when every cell is present.  The variance of the grand mean is then
 *   V = (k1 s2_A + k2 s2_B + s2_e) / N,  k1 = sum n_i^2 / N, k2 = sum n_j^2 / N,
 * a fixed linear combination of the sums of squares SS_A, SS_B, SS_E, so it
 * is a quadratic form and Fieller's inversion applies unchanged.  A
 * component estimated below zero is dropped (its sum of squares pooled into
 * the residual), which only widens V; the degrees of freedom are
 * Satterthwaite's over the terms.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

/* Dense 0-based indices for ids; returns the number of distinct ids. */
static size_t
dense(const uint32_t *id, size_t k, size_t *out)
{
    uint32_t *u = il_xcalloc(k, sizeof *u);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        size_t j = 0;
        while (j < m && u[j] != id[i])
            j++;
        if (j == m)
            u[m++] = id[i];
        out[i] = j;
    }
    free(u);
    return m;
}

int
il_dvar_init(struct il_dvar *v, size_t k, const uint32_t *fa, const uint32_t *fb)
{
    memset(v, 0, sizeof *v);
    v->k = k;
    v->kind = fb ? IL_D_CROSSED : IL_D_ONE;
    v->df = NAN;
    if (k < 2)
        return IL_SE_FEW;
    if (!fb)
        return 0;
    v->fa = il_xcalloc(k, sizeof *v->fa);
    v->fb = il_xcalloc(k, sizeof *v->fb);
    v->I = dense(fa, k, v->fa);
    v->J = dense(fb, k, v->fb);
    v->na = il_xcalloc(v->I, sizeof *v->na);
    v->nb = il_xcalloc(v->J, sizeof *v->nb);
    for (size_t u = 0; u < k; u++) {
        v->na[v->fa[u]]++;
        v->nb[v->fb[u]]++;
    }
    /* The residual needs N - I - J + 1 > 0 degrees of freedom. */
    if (v->I < 2 || v->J < 2 || k + 1 <= v->I + v->J)
        return IL_SE_UNBAL;
    return 0;
}

void
il_dvar_free(struct il_dvar *v)
{
    free(v->fa);
    free(v->fb);
    free(v->na);
    free(v->nb);
    memset(v, 0, sizeof *v);
}

/* SS_A, SS_B, SS_T of the bilinear forms, from centred values. */
static void
sums(const struct il_dvar *v, const double *x, const double *y, double ss[3], double *sst)
{
    size_t k = v->k;
    double mx = il_mean(x, k), my = il_mean(y, k), t = 0;
    double *rx = il_xcalloc(v->I + v->J, sizeof *rx), *ry = il_xcalloc(v->I + v->J, sizeof *ry);
    for (size_t u = 0; u < k; u++) {
        double dx = x[u] - mx, dy = y[u] - my;
        t += dx * dy;
        rx[v->fa[u]] += dx;
        ry[v->fa[u]] += dy;
        rx[v->I + v->fb[u]] += dx;
        ry[v->I + v->fb[u]] += dy;
    }
    ss[0] = ss[1] = 0;
    for (size_t i = 0; i < v->I; i++)
        ss[0] += rx[i] * ry[i] / (double)v->na[i];
    for (size_t j = 0; j < v->J; j++)
        ss[1] += rx[v->I + j] * ry[v->I + j] / (double)v->nb[j];
    ss[2] = t - ss[0] - ss[1];
    *sst = t;
    free(rx);
    free(ry);
}

/* The components from SS under a model: 0 full, 1 without A, 2 without
 * B, 3 residual only.  Linear in ss. */
static void
components(const struct il_dvar *v, int model, const double ss[3], double c[3])
{
    double N = (double)v->k, I = (double)v->I, J = (double)v->J, k1 = 0, k2 = 0;
    for (size_t i = 0; i < v->I; i++)
        k1 += (double)(v->na[i] * v->na[i]) / N;
    for (size_t j = 0; j < v->J; j++)
        k2 += (double)(v->nb[j] * v->nb[j]) / N;
    c[0] = c[1] = c[2] = 0;
    switch (model) {
    case 0: {
        /* E[SS] = M (s2_A, s2_B, s2_e): Cramer's rule on the 3x3 system. */
        double M[3][3] = {
            {N - k1, I - k2, I - 1}, {J - k1, N - k2, J - 1}, {k1 - J, k2 - I, N - I - J + 1}};
        double det = M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
                     M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
                     M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
        if (!(fabs(det) > 1e-12 * N * N * N)) {
            c[2] = (ss[0] + ss[1] + ss[2]) / (N - 1); /* no separate components */
            c[0] = c[1] = -1;
            break;
        }
        for (int col = 0; col < 3; col++) {
            double A[3][3];
            memcpy(A, M, sizeof A);
            for (int row = 0; row < 3; row++)
                A[row][col] = ss[row];
            c[col] = (A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                      A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                      A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0])) /
                     det;
        }
        break;
    }
    case 1: /* SS_A pooled into the residual: E[SS_A + SS_E] = (N - J) s2_e */
        c[2] = (ss[0] + ss[2]) / (N - J);
        c[1] = (ss[1] - (J - 1) * c[2]) / (N - k2);
        break;
    case 2:
        c[2] = (ss[1] + ss[2]) / (N - I);
        c[0] = (ss[0] - (I - 1) * c[2]) / (N - k1);
        break;
    default:
        c[2] = (ss[0] + ss[1] + ss[2]) / (N - 1);
        break;
    }
}

static double
target(const struct il_dvar *v, const double c[3])
{
    double N = (double)v->k, k1 = 0, k2 = 0;
    for (size_t i = 0; i < v->I; i++)
        k1 += (double)(v->na[i] * v->na[i]) / N;
    for (size_t j = 0; j < v->J; j++)
        k2 += (double)(v->nb[j] * v->nb[j]) / N;
    return (k1 * c[0] + k2 * c[1] + c[2]) / N;
}

int
il_dvar_fit(struct il_dvar *v, const double *x)
{
    size_t k = v->k;
    if (k < 2)
        return IL_SE_FEW;
    if (v->kind == IL_D_ONE) {
        v->w[0] = v->w[1] = 0;
        v->w[2] = 1 / ((double)k * (double)(k - 1));
        v->df = (double)(k - 1);
        v->comp[0] = v->comp[1] = 0;
        v->comp[2] = il_var(x, k, il_mean(x, k));
        return 0;
    }
    double ss[3], sst, c[3];
    sums(v, x, x, ss, &sst);
    int model = 0;
    components(v, 0, ss, c);
    if (c[0] < 0 && c[1] < 0)
        model = 3;
    else if (c[0] < 0)
        model = 1;
    else if (c[1] < 0)
        model = 2;
    if (model == 1 || model == 2) {
        components(v, model, ss, c);
        if (c[model == 1 ? 1 : 0] < 0)
            model = 3;
    }
    components(v, model, ss, c);
    memcpy(v->comp, c, sizeof c);
    for (int t = 0; t < 3; t++) {
        double e[3] = {0, 0, 0}, ce[3];
        e[t] = 1;
        components(v, model, e, ce);
        v->w[t] = target(v, ce);
    }
    /* Satterthwaite over the terms; pooled sums of squares are one term. */
    double N = (double)k, I = (double)v->I, J = (double)v->J;
    double f[3] = {I - 1, J - 1, N - I - J + 1}, term[3], tf[3];
    int nt = 0;
    if (model == 0) {
        for (int t = 0; t < 3; t++) {
            term[nt] = v->w[t] * ss[t];
            tf[nt++] = f[t];
        }
    } else if (model == 1) {
        term[nt] = v->w[1] * ss[1];
        tf[nt++] = f[1];
        term[nt] = v->w[2] * (ss[0] + ss[2]);
        tf[nt++] = f[0] + f[2];
    } else if (model == 2) {
        term[nt] = v->w[0] * ss[0];
        tf[nt++] = f[0];
        term[nt] = v->w[2] * (ss[1] + ss[2]);
        tf[nt++] = f[1] + f[2];
    } else {
        term[nt] = v->w[2] * sst;
        tf[nt++] = N - 1;
    }
    double num = 0, den = 0;
    for (int t = 0; t < nt; t++) {
        num += term[t];
        den += term[t] * term[t] / tf[t];
    }
    v->df = den > 0 ? num * num / den : N - 1;
    if (v->df > N - 1)
        v->df = N - 1;
    if (v->df < 1)
        v->df = 1;
    return 0;
}

double
il_dvar_cov(const struct il_dvar *v, const double *x, const double *y)
{
    if (v->kind == IL_D_ONE) {
        double mx = il_mean(x, v->k), my = il_mean(y, v->k), s = 0, cx = 0, cy = 0;
        for (size_t u = 0; u < v->k; u++) {
            s += (x[u] - mx) * (y[u] - my);
            cx += x[u] - mx;
            cy += y[u] - my;
        }
        return v->w[2] * (s - cx * cy / (double)v->k);
    }
    double ss[3], sst;
    sums(v, x, y, ss, &sst);
    return v->w[0] * ss[0] + v->w[1] * ss[1] + v->w[2] * ss[2];
}

int
il_dvar_tci(struct il_dvar *v, const double *x, double *mean, double *lo, double *hi, double *df)
{
    *mean = il_mean(x, v->k);
    *lo = *hi = *df = NAN;
    int e = il_dvar_fit(v, x);
    if (e)
        return e;
    double V = il_dvar_cov(v, x, x);
    if (!(V >= 0))
        return IL_SE_ZEROVAR;
    double hw = il_tq(v->df) * sqrt(V);
    *lo = *mean - hw;
    *hi = *mean + hw;
    *df = v->df;
    return 0;
}

int
il_rvar_paired(struct il_dvar *v, const double *a, const double *b, struct il_rvar *out)
{
    size_t k = v->k;
    out->a = il_mean(a, k);
    out->b = il_mean(b, k);
    out->v0 = out->v1 = out->v2 = out->df = NAN;
    if (k < 2)
        return IL_SE_FEW;
    double r = out->a / out->b, *d = il_xcalloc(k, sizeof *d);
    for (size_t u = 0; u < k; u++)
        d[u] = a[u] - r * b[u];
    int e = il_dvar_fit(v, d);
    if (!e) {
        out->v0 = il_dvar_cov(v, d, d);
        out->v1 = -il_dvar_cov(v, d, b);
        out->v2 = il_dvar_cov(v, b, b);
        out->df = v->df;
    }
    free(d);
    return e;
}

/* Generalised Q at between-unit variance t2, with the weighted mean. */
static double
q_at(const double *y, const double *var, size_t k, double t2)
{
    double sw = 0, swy = 0, q = 0;
    for (size_t u = 0; u < k; u++) {
        double w = 1 / (var[u] + t2);
        sw += w;
        swy += w * y[u];
    }
    double m = swy / sw;
    for (size_t u = 0; u < k; u++)
        q += (y[u] - m) * (y[u] - m) / (var[u] + t2);
    return q;
}

/* The t2 >= 0 where Q(t2) = target (Q decreases in t2); 0 when Q(0) is
 * already at or below it. */
double
il_q_solve(const double *y, const double *var, size_t k, double want)
{
    if (q_at(y, var, k, 0) <= want)
        return 0;
    double lo = 0, hi = 0, m = il_mean(y, k);
    for (size_t u = 0; u < k; u++)
        hi += (y[u] - m) * (y[u] - m);
    hi = hi > 0 ? hi : 1;
    while (q_at(y, var, k, hi) > want && hi < 1e300)
        hi *= 2;
    for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
        double mid = (lo + hi) / 2;
        if (q_at(y, var, k, mid) > want)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/*
 * Cochran's Q = sum w_u (y_u - ybar_w)^2, w_u = 1 / var_u.  The variances
 * come from run-to-run variances pooled over all setups (df2 degrees of
 * freedom), so under no setup effect and normal noise Q / (k - 1) is F(k -
 * 1, df2) rather than chi-squared, which would treat them as known.  (The
 * report takes its p-value from a permutation test instead, robust.c:
 * with bursty noise the F reference rejected 6.7% of A/A experiments.)  The
 * between-setup variance tau^2 is the Paule-Mandel estimate (Q(tau^2) =
 * k - 1) and its interval the Q-profile (Viechtbauer, Stat. Med. 2007):
 * Q(tau^2) at the chi-squared quantiles of k - 1 df, truncated at 0, with
 * unequal tails (il_tau2_profile).
 */
int
il_heterogeneity(const double *y, const double *var, size_t k, double df2, struct il_het *h)
{
    memset(h, 0, sizeof *h);
    if (k < 2)
        return IL_SE_FEW;
    for (size_t u = 0; u < k; u++)
        if (!(var[u] > 0))
            return IL_SE_ZEROVAR;
    h->df1 = (double)(k - 1);
    h->df2 = df2;
    h->q = q_at(y, var, k, 0);
    h->p =
        isfinite(df2) ? gsl_cdf_fdist_Q(h->q / h->df1, h->df1, df2) : gsl_cdf_chisq_Q(h->q, h->df1);
    h->i2 = h->q > h->df1 ? (h->q - h->df1) / h->q : 0;
    h->tau2 = il_q_solve(y, var, k, h->df1);
    il_tau2_profile(y, var, k, NULL, 0, h->tau2, &h->tau2_lo, &h->tau2_hi);
    h->has_tau_ci = 1;
    return 0;
}

/*
 * The reference of Q(tau^2) at tail a: chi-squared's quantile of k - 1 df
 * where tau^2 dominates the setups' error variances; where it does not, the
 * runs' noise enters Q as it is (bursts fatten Q's tails, and a variance
 * estimated from two runs a setup spreads it as F does), so the reference
 * moves to the exchanges' quantile q0 (Q at tau^2 = 0 over the test's
 * shuffles, which give Q's distribution there exactly) in proportion to the
 * noise's mean share f(tau^2) = mean var_u / (var_u + tau^2) of each
 * setup's variance: q(tau^2) = f q0 + (1 - f) chi2.  (Taking q0 for every
 * tau^2 made the interval too wide where the setup effect dominates: 200
 * setups of 2 runs covered 99.3%.)
 */
static double
q_ref(const double *var, size_t k, double t2, double q0, double chi, int sq)
{
    double f = 0;
    for (size_t u = 0; u < k; u++)
        f += var[u] / (var[u] + t2) / (double)k;
    f = sq ? f * f : f;
    return f * q0 + (1 - f) * chi;
}

/* The t2 >= 0 where Q(t2) meets q_ref (the first crossing from 0); 0 when
 * Q(0) is already at or below it. */
static double
q_solve_ref(const double *y, const double *var, size_t k, double q0, double chi, int sq)
{
    if (q_at(y, var, k, 0) <= q_ref(var, k, 0, q0, chi, sq))
        return 0;
    double lo = 0, hi = 0, m = il_mean(y, k);
    for (size_t u = 0; u < k; u++)
        hi += (y[u] - m) * (y[u] - m);
    hi = hi > 0 ? hi : 1;
    while (q_at(y, var, k, hi) > q_ref(var, k, hi, q0, chi, sq) && hi < 1e300)
        hi *= 2;
    for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
        double mid = (lo + hi) / 2;
        if (q_at(y, var, k, mid) > q_ref(var, k, mid, q0, chi, sq))
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* The interval between the two crossings, the estimate kept inside when
 * the references disagree with it. */
static void
profile_at(const double *y, const double *var, size_t k, double q_hi, double q_lo, int sq,
           double tau2, double *lo, double *hi)
{
    double df = (double)(k - 1);
    *lo = fmin(q_solve_ref(y, var, k, q_hi, gsl_cdf_chisq_Qinv(IL_TAU_TAIL_LO, df), sq), tau2);
    *hi = fmax(q_solve_ref(y, var, k, q_lo, gsl_cdf_chisq_Pinv(IL_TAU_TAIL_HI, df), sq), tau2);
}

void
il_tau2_profile(const double *y, const double *var, size_t k, double *qs, size_t nq, double tau2,
                double *lo, double *hi)
{
    double df = (double)(k - 1);
    double q_hi = gsl_cdf_chisq_Qinv(IL_TAU_TAIL_LO, df);
    double q_lo = gsl_cdf_chisq_Pinv(IL_TAU_TAIL_HI, df);
    if (qs && nq >= 99) {
        qsort(qs, nq, sizeof *qs, il_dcmp);
        q_hi = il_quantile_sorted(qs, nq, 1 - IL_TAU_TAIL_LO);
        q_lo = il_quantile_sorted(qs, nq, IL_TAU_TAIL_HI);
    }
    profile_at(y, var, k, q_hi, q_lo, 0, tau2, lo, hi);
}

/*
 * The same with F's quantiles for the noise's share of Q: where the
 * setups' variances share one pooled estimate of df2 degrees of freedom
 * (the blocks' contrasts), Q(0) / (k - 1) is F(k - 1, df2) exactly under
 * normal noise and no setup effect, unbalanced or not, since Q(0) is a
 * chi-squared over the same estimate's scaled chi-squared: the reference
 * of the one-way random-effects analysis of variance whose variance
 * estimators Kalibera & Jones take (section 9.2, from Searle, Casella &
 * McCulloch, Variance Components, 1992, section 3.5).  Where tau^2 dominates, the error of the
 * estimate matters less and Q(tau^2) tends to chi-squared.  Balanced, with
 * r = (sigma^2/m) / (sigma^2/m + tau^2) the noise's true share, Q(tau^2) is
 * chi2(k - 1) / (1 + r (W - 1)), W = chi2(df2) / df2: it leaves
 * chi-squared through the variance of r (W - 1), r^2 2 / df2, so q_ref
 * moves by the share's square (23 and 24 df, the 96% point at r = 0.25,
 * 0.5, 0.75: exactly 36.8, 38.7, 42.3; by r^2 36.9, 39.1, 42.8; by r, as
 * with the shuffles, 39.1, 42.1, 45.0, which covered 96.7% in
 * bench/coverage.sh drift-specific-2).  For sign flips of two blocks a
 * setup, whose exchanges take the setups' effects for noise.
 */
void
il_tau2_profile_f(const double *y, const double *var, size_t k, double df2, double tau2, double *lo,
                  double *hi)
{
    double df = (double)(k - 1);
    profile_at(y, var, k, df * gsl_cdf_fdist_Qinv(IL_TAU_TAIL_LO, df, df2),
               df * gsl_cdf_fdist_Pinv(IL_TAU_TAIL_HI, df, df2), 1, tau2, lo, hi);
}

/* The Q-profile interval of tau^2 at level conf (il_heterogeneity's is at
 * IL_CONF): for two intervals that must hold together (a ratio of two
 * groups' tau^2, setupfx.c). */
int
il_tau2_ci(const double *y, const double *var, size_t k, double conf, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (k < 2)
        return IL_SE_FEW;
    for (size_t u = 0; u < k; u++)
        if (!(var[u] > 0))
            return IL_SE_ZEROVAR;
    double df = (double)(k - 1);
    *lo = il_q_solve(y, var, k, gsl_cdf_chisq_Qinv((1 - conf) / 2, df));
    *hi = il_q_solve(y, var, k, gsl_cdf_chisq_Pinv((1 - conf) / 2, df));
    return 0;
}
