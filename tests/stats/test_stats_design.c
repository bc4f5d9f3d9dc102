/*
 * test_stats_design.c: the design-aware pieces against independent values
 * from tests/stats/oracle/stats.R (base R; output in stats.out): the
 * paired Fieller interval over setups, the crossed two-way variance of a
 * mean with Satterthwaite's df, Cochran's Q with tau^2 and its Q-profile
 * interval, and the order-statistic interval of a quantile.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_near.h"
#include "il_stats.h"

#define REL 1e-9

/* stats.R: paired_lo, paired_hi. */
static void
paired_fieller(void **state)
{
    static const double au[] = {101.2, 98.4, 103.9, 99.1, 102.5, 97.8};
    static const double bu[] = {100.1, 99.0, 101.7, 98.2, 100.9, 99.6};
    static const uint32_t id[] = {1, 2, 3, 4, 5, 6};
    struct il_dvar v;
    struct il_rvar rv;
    struct il_fieller f;
    assert_int_equal(il_dvar_init(&v, 6, id, NULL), 0);
    assert_int_equal(il_rvar_paired(&v, au, bu, &rv), 0);
    near(rv.df, 5, REL, "df");
    il_fieller(&rv, il_tq(rv.df), &f);
    assert_int_equal(f.kind, IL_CI_BOUNDED);
    near(f.lo, 0.989951691575519, REL, "paired lo");
    near(f.hi, 1.02116038042649, REL, "paired hi");
    il_dvar_free(&v);
}

/* stats.R: crossed_* (4 x 3 cells, balanced: the ANOVA estimator). */
static void
crossed_variance(void **state)
{
    static const double x[] = {10.3, 11.1, 9.7, 10.9, 12.0, 10.1, 9.5, 10.8, 9.2, 11.4, 12.6, 10.8};
    uint32_t fa[12], fb[12];
    for (uint32_t i = 0; i < 4; i++)
        for (uint32_t j = 0; j < 3; j++) {
            fa[i * 3 + j] = 100 + i;
            fb[i * 3 + j] = 200 + j;
        }
    struct il_dvar v;
    double m, lo, hi, df;
    assert_int_equal(il_dvar_init(&v, 12, fa, fb), 0);
    assert_int_equal(il_dvar_tci(&v, x, &m, &lo, &hi, &df), 0);
    near(m, 10.7, REL, "mean");
    near(il_dvar_cov(&v, x, x), 0.386388888888889, REL, "V");
    near(df, 4.10830175415398, REL, "Satterthwaite df");
    near(v.comp[0], 0.579722222222222, REL, "s2_A");
    near(v.comp[1], 0.718611111111111, REL, "s2_B");
    near(v.comp[2], 0.0230555555555559, 1e-7, "s2_e");
    near(hi - m, il_tq(4.10830175415398) * sqrt(0.386388888888889), REL, "half-width");
    il_dvar_free(&v);
    /* Too few cells for a residual: 2 x 2 with one missing. */
    assert_int_equal(il_dvar_init(&v, 3, fa, fb), IL_SE_UNBAL);
    il_dvar_free(&v);
}

/* A component estimated below zero is dropped, which never narrows V. */
static void
crossed_truncation(void **state)
{
    /* No row effect at all, strong column effect. */
    static const double x[] = {1, 5, 9, 1.1, 5.2, 8.9, 0.9, 4.8, 9.1, 1.05, 5.1, 9.0};
    uint32_t fa[12], fb[12];
    for (uint32_t i = 0; i < 4; i++)
        for (uint32_t j = 0; j < 3; j++) {
            fa[i * 3 + j] = i;
            fb[i * 3 + j] = j;
        }
    struct il_dvar v;
    double m, lo, hi, df;
    assert_int_equal(il_dvar_init(&v, 12, fa, fb), 0);
    assert_int_equal(il_dvar_tci(&v, x, &m, &lo, &hi, &df), 0);
    assert_true(v.comp[0] >= 0 && v.comp[1] > 0);
    assert_true(il_dvar_cov(&v, x, x) > 0);
    assert_true(df >= 1 && df <= 11);
    il_dvar_free(&v);
}

/* stats.R: het_*. */
static void
heterogeneity(void **state)
{
    static const double y[] = {0.012, -0.030, 0.041, 0.005, -0.022, 0.060, -0.011, 0.019};
    static const double v[] = {4e-4, 3e-4, 5e-4, 4e-4, 2e-4, 6e-4, 3e-4, 4e-4};
    struct il_het h;
    assert_int_equal(il_heterogeneity(y, v, 8, 57.5, &h), 0);
    near(h.q, 16.4822262773723, REL, "Q");
    near(h.p, 0.0347226718916023, 1e-7, "p (F)");
    near(h.i2, 0.575300091007123, REL, "I^2");
    near(h.tau2, 0.000526630024240422, 1e-8, "tau^2 (Paule-Mandel)");
    near(h.tau2_lo, 4.51907072110491e-05, 1e-6, "tau^2 lower (Q-profile, Q's 96% point)");
    near(h.tau2_hi, 0.00492043799396556, 1e-8, "tau^2 upper (Q-profile, Q's 1% point)");
    /* The same at 97.5% (stats.R: het_tau2_lo975, het_tau2_hi975). */
    double lo, hi;
    assert_int_equal(il_tau2_ci(y, v, 8, 0.975, &lo, &hi), 0);
    assert_true(lo == 0);
    near(hi, 0.00453863234995948, 1e-8, "tau^2 upper at 97.5%");
    /* The report's interval leaves 1% above its upper end, less than this
     * equal-tailed 97.5% interval's 1.25%: its upper end is the higher. */
    assert_true(hi < h.tau2_hi);
    assert_int_equal(il_tau2_ci(y, v, 1, 0.975, &lo, &hi), IL_SE_FEW);
}

/* stats.R: q10*, q50* (R's type 7 and qbinom). */
static void
quantile_interval(void **state)
{
    static const double xs[] = {58.9, 62.1, 59.4, 61.7, 58.5, 63.0, 59.9, 60.2,  58.7, 64.4,
                                59.1, 60.8, 61.2, 58.6, 59.6, 62.7, 60.0, 58.8,  65.1, 59.3,
                                60.5, 59.0, 61.0, 58.4, 62.3, 59.8, 60.1, 58.95, 63.6, 59.45};
    double s[30], scratch[30], lo, hi, cover;
    memcpy(s, xs, sizeof s);
    qsort(s, 30, sizeof *s, il_dcmp);
    struct il_estimator e;
    assert_int_equal(il_estimator_parse("p10", &e), 0);
    near(il_estimate(&e, xs, 30, scratch), 58.69, REL, "p10 (type 7)");
    assert_int_equal(il_quantile_ci(s, 30, 0.1, &lo, &hi, &cover), 0);
    near(lo, 58.4, REL, "p10 lo");
    near(hi, 59.1, REL, "p10 hi");
    near(cover, 0.955589012719525, REL, "p10 coverage");
    assert_int_equal(il_estimator_parse("median", &e), 0);
    near(il_estimate(&e, xs, 30, scratch), 59.95, REL, "median");
    assert_int_equal(il_quantile_ci(s, 30, 0.5, &lo, &hi, &cover), 0);
    near(lo, 59.3, REL, "median lo");
    near(hi, 61, REL, "median hi");
    near(cover, 0.957226054742932, REL, "median coverage");
    /* Too few values for any 95% pair. */
    assert_int_equal(il_quantile_ci(s, 4, 0.5, &lo, &hi, &cover), IL_SE_FEW);
    assert_int_equal(il_estimator_parse("p0", &e), -1);
    assert_int_equal(il_estimator_parse("p100", &e), -1);
    assert_int_equal(il_estimator_parse("max", &e), -1);
}

/* Fieller around r keeps its digits at a tiny coefficient of variation:
 * the interval of two samples that differ by 2 ppb at CV 1e-9 excludes 1
 * (fieller_cv.py checks the ends against mpmath through the CLI). */
static void
fieller_tiny_cv(void **state)
{
    double y[10], x[10];
    for (int i = 0; i < 10; i++) {
        double z = (i % 2 ? 1 : -1) * (1 + 0.1 * i);
        x[i] = 2.5e12 * (1 + 1e-9 * z);
        y[i] = 2.5e12 * (1 + 3e-9) * (1 - 1e-9 * z);
    }
    struct il_fieller f;
    assert_int_equal(il_fieller_samples(y, 10, x, 10, 0, &f), 0);
    assert_int_equal(f.kind, IL_CI_BOUNDED);
    assert_true(f.lo > 1 && f.lo < f.ratio && f.ratio < f.hi);
    assert_true(f.hi - f.lo < 1e-8);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paired_fieller),     cmocka_unit_test(crossed_variance),
        cmocka_unit_test(crossed_truncation), cmocka_unit_test(heterogeneity),
        cmocka_unit_test(quantile_interval),  cmocka_unit_test(fieller_tiny_cv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
