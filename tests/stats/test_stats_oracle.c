/*
 * test_stats_oracle.c: reference values computed independently of this
 * code (numpy/scipy; the values are written below, with the data they
 * come from), and those of tests/stats/oracle/stats.R (base R; its output
 * is stats.out beside it), reproduced to 1e-9 relative.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_near.h"
#include "il_stats.h"

#define REL 1e-9

/* (a) 3 builds x 2 executions x 2 iterations, lowest level fastest. */
static const double lev_a[] = {9, 5, 8, 3, 10, 6, 7, 11, 1, 12, 2, 4};
static const size_t r_a[] = {2, 2, 3};

static void
levels_three(void **state)
{
    struct il_levels lv;
    assert_int_equal(il_levels_compute(lev_a, r_a, 3, &lv), 0);
    near(lv.mean, 6.5, REL, "grand mean");
    near(lv.S2[0], 16.5, REL, "S_1^2");
    near(lv.S2[1], 2.58333333333, REL, "S_2^2");
    near(lv.S2[2], 3.5625, REL, "S_3^2");
    near(lv.T2[0], 16.5, REL, "T_1^2");
    near(lv.T2[1], -5.66666666667, REL, "T_2^2");
    near(lv.T2[2], 2.27083333333, REL, "T_3^2");
    near(lv.hi - lv.mean, 4.68870710953, REL, "95% CI half-width");
    near(lv.mean - lv.lo, 4.68870710953, REL, "95% CI half-width (low side)");
    /* T_2^2 <= 0: that level is repeated once. */
    double cost[] = {1, 10, 100};
    long reps[3];
    il_levels_reps(&lv, cost, reps);
    assert_int_equal(reps[1], 1);
    /* r_1 against the next level with T^2 > 0, costs merged: 10 + 100. */
    assert_int_equal(reps[0], (long)ceil(sqrt(110.0 / 1 * 16.5 / 2.27083333333)));
}

static void
levels_two_reps(void **state)
{
    static const double y[] = {9, 5, 8, 3, 10, 6, 7, 11, 1, 12, 2, 4};
    static const size_t r[] = {4, 3};
    struct il_levels lv;
    assert_int_equal(il_levels_compute(y, r, 2, &lv), 0);
    near(lv.S2[0], 12.7222222222, REL, "S_1^2");
    near(lv.S2[1], 3.5625, REL, "S_2^2");
    near(lv.T2[1], 0.381944444444, REL, "T_2^2");
    double cost[] = {1, 10};
    long reps[2];
    il_levels_reps(&lv, cost, reps);
    /* The oracle writes ceil(18.2510...); the root is 18.25078. */
    double root = sqrt(10 * lv.T2[0] / lv.T2[1]);
    assert_true(root > 18.25 && root < 18.26);
    assert_int_equal(reps[0], 19);
}

static void
bootstrap_exact_moments(void **state)
{
    static const double d[] = {2.5, 3.1, 2.7, 5.1, 1.1, 2.3, 4.7, 5.5, 7.1};
    static const size_t r[] = {3, 3};
    const size_t B = 200000;
    const double E = 3.78888888889, V = 0.795390946502;
    double *out = malloc(B * sizeof *out);
    assert_non_null(out);
    assert_int_equal(il_boot_hier(d, r, 2, B, 42, out), 0);
    double m = il_mean(out, B), v = il_var(out, B, m), m4 = 0;
    for (size_t i = 0; i < B; i++)
        m4 += pow(out[i] - m, 4);
    m4 /= (double)B;
    double se_m = sqrt(V / (double)B), se_v = sqrt((m4 - v * v) / (double)B);
    if (fabs(m - E) > 4 * se_m)
        fail_msg("bootstrap mean %.6f, exact %.6f, 4 SE = %.6f", m, E, 4 * se_m);
    if (fabs(v - V) > 4 * se_v)
        fail_msg("bootstrap variance %.6f, exact %.6f, 4 SE = %.6f", v, V, 4 * se_v);
    /* Same seed, same replicates. */
    double again[16], first[16];
    il_boot_hier(d, r, 2, 16, 7, first);
    il_boot_hier(d, r, 2, 16, 7, again);
    assert_memory_equal(first, again, sizeof first);
    free(out);
}

static const double fx[] = {10.2, 9.8, 10.5, 10.1, 9.9, 10.4, 10.0, 10.3};
static const double fy[] = {9.6, 9.9, 9.4, 9.7, 9.5, 9.8, 9.3, 9.9, 9.6, 9.7};

/* --pooled is the textbook pooled-variance Fieller (stats.R: pooled_*),
 * and Welch's df is taken at the estimated ratio (welch_*), not at 1 as
 * the oracle of stats.md did (13.5259568381). */
static void
fieller_pooled_and_welch(void **state)
{
    struct il_fieller f;
    assert_int_equal(il_fieller_samples(fy, 10, fx, 8, 1, &f), 0);
    near(f.ratio, 0.949753694581, REL, "ratio");
    near(f.df, 16, REL, "pooled df");
    assert_int_equal(f.kind, IL_CI_BOUNDED);
    near(f.lo, 0.928678243286092, REL, "pooled lo");
    near(f.hi, 0.971336795382493, REL, "pooled hi");
    assert_int_equal(il_fieller_samples(fy, 10, fx, 8, 0, &f), 0);
    near(f.df, 13.9841167691714, REL, "Welch df at the ratio");
    assert_int_equal(f.kind, IL_CI_BOUNDED);
    near(f.lo, 0.928093879251361, REL, "Welch lo");
    near(f.hi, 0.972049977701526, REL, "Welch hi");
}

/* h = t(0.975, 8), v = var / 5, as in the oracle. */
static void
fieller5(const double *x, const double *y, struct il_fieller *f)
{
    double a = il_mean(y, 5), b = il_mean(x, 5), r = a / b;
    double va = il_var(y, 5, a) / 5, vb = il_var(x, 5, b) / 5;
    struct il_rvar v = {a, b, va + r * r * vb, r * vb, vb, 8};
    il_fieller(&v, il_tq(8), f);
}

static void
fieller_unbounded_outcomes(void **state)
{
    static const double x1[] = {0.5, -0.3, 1.2, -0.8, 0.4}, y1[] = {2.0, 2.2, 1.9, 2.1, 2.3};
    static const double y2[] = {0.3, -0.5, 0.9, -0.2, 0.1};
    static const double x3[] = {1.0, 0.2, 1.6, 0.1, 1.3};
    struct il_fieller f;
    near(il_tq(8), 2.30600413520, REL, "t(0.975, 8)");
    fieller5(x1, y1, &f);
    assert_int_equal(f.kind, IL_CI_EXCLUSIVE);
    near(f.lo, -3.51855085723, REL, "exclusive: theta <=");
    near(f.hi, 2.10154908789, REL, "exclusive: theta >=");
    fieller5(x1, y2, &f);
    assert_int_equal(f.kind, IL_CI_UNBOUNDED);
    fieller5(x3, y1, &f);
    assert_int_equal(f.kind, IL_CI_BOUNDED);
    near(f.lo, 1.36657071974, REL, "bounded lo");
    near(f.hi, 13.6810441910, REL, "bounded hi");
}

static void
quantiles(void **state)
{
    static const struct {
        double df, t;
    } q[] = {{1, 12.7062047362},
             {2, 4.30265272975},
             {4, 2.77644510520},
             {9, 2.26215716280},
             {29, 2.04522964213},
             {120, 1.97993040508},
             {13.5259568381, 2.15186018322}};
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        near(il_tq(q[i].df), q[i].t, REL, "t quantile");
    near(gsl_cdf_ugaussian_Pinv(0.975), 1.959963984540054, REL, "z(0.975)");
}

/* Plan (stats.R: plan_*): builds, executions, iterations with costs 100,
 * 1, 10 and T^2 = 1, 2.5, 0.  Iterations are cut to one, so an execution
 * costs 1 + 10; by brute force the best is 5 executions per build (the
 * old rule, costing an execution 1, said 16). */
static void
plan_merges_downward(void **state)
{
    struct il_levels lv;
    memset(&lv, 0, sizeof lv);
    lv.n = 3;
    lv.T2[0] = 0;
    lv.T2[1] = 2.5;
    lv.T2[2] = 1;
    double cost[] = {10, 1, 100};
    long reps[3];
    il_levels_reps(&lv, cost, reps);
    assert_int_equal(reps[0], 1);
    assert_int_equal(reps[1], 5);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(levels_three),
        cmocka_unit_test(levels_two_reps),
        cmocka_unit_test(bootstrap_exact_moments),
        cmocka_unit_test(fieller_pooled_and_welch),
        cmocka_unit_test(fieller_unbounded_outcomes),
        cmocka_unit_test(quantiles),
        cmocka_unit_test(plan_merges_downward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
