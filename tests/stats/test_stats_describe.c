/*
 * test_stats_describe.c: summaries, diagnostics, geometric means, verdict
 * words, level arrangement, the --target search and the grouping of
 * records, on values small enough to check by hand (each expectation says
 * how).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

static void
near(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("got %.15g, expected %.15g", got, want);
}

static void
summary_and_quantiles(void **state)
{
    static const double x[] = {4, 1, 3, 2, 100};
    double scratch[5];
    struct il_summary s;
    il_summarize(x, 5, scratch, &s);
    near(s.mean, 22, 1e-12);
    near(s.median, 3, 1e-12);
    near(s.min, 1, 1e-12);
    near(s.max, 100, 1e-12);
    near(s.sd, sqrt(((18 * 18) + 21 * 21 + 19 * 19 + 20 * 20 + 78 * 78) / 4.0), 1e-12);
    assert_true(s.has_ci);
    near(s.hi - s.mean, il_tq(4) * s.sd / sqrt(5), 1e-12);
    static const double q[] = {1, 2, 3, 4};
    near(il_quantile_sorted(q, 4, 0.25), 1.75, 1e-12); /* R type 7 */
    il_summarize(x, 1, scratch, &s);
    assert_false(s.has_ci);
    assert_false(s.has_sd);
}

/* Selection-based medians agree with sorting, ties included. */
static void
median_matches_sort(void **state)
{
    double x[257], scratch[257], sorted[257];
    unsigned long r = 7;
    for (size_t n = 1; n <= 257; n += 8) {
        for (size_t i = 0; i < n; i++) {
            r = r * 6364136223846793005UL + 1442695040888963407UL;
            x[i] = (double)((r >> 33) % 7); /* many ties */
        }
        struct il_summary s;
        il_summarize(x, n, scratch, &s);
        memcpy(sorted, x, n * sizeof *x);
        qsort(sorted, n, sizeof *sorted, il_dcmp);
        near(s.median + 1, il_quantile_sorted(sorted, n, 0.5) + 1, 1e-15);
        near(s.min + 1, sorted[0] + 1, 1e-15);
        near(s.max + 1, sorted[n - 1] + 1, 1e-15);
        double mad, med = il_median_mad(x, n, scratch, &mad);
        near(med + 1, il_quantile_sorted(sorted, n, 0.5) + 1, 1e-15);
    }
}

static void
mad_outlier_and_first_run(void **state)
{
    /* median 3, MAD 1, so 100 lies 97 / 1.4826 = 65 robust SDs away. */
    static const double x[] = {1, 2, 3, 4, 100};
    double scratch[16];
    struct il_diag d;
    il_diagnose(x, 5, scratch, &d);
    assert_true(d.mad_checked);
    assert_int_equal(d.outliers, 1);
    assert_false(d.first_special);
    /* A first run far above the rest, which agree closely. */
    static const double y[] = {50, 10, 10.1, 9.9, 10, 10.2, 9.8};
    il_diagnose(y, 7, scratch, &d);
    assert_true(d.first_special);
    assert_true(d.first_z > 3.5);
    /* Fewer than 5 values: not checked, never a warning from noise. */
    il_diagnose(y, 4, scratch, &d);
    assert_false(d.mad_checked);
}

/* il_diagnose_med given il_summarize's median says what il_diagnose says,
 * to the bit, on even and odd counts, ties, and a scratch that
 * il_summarize left holding the values (analyze.c's order). */
static void
diagnose_with_the_median(void **state)
{
    enum { N = 301 };
    double x[N], scratch[N];
    unsigned long r = 12345;
    for (size_t n = 1; n <= N; n += 37) {
        for (size_t i = 0; i < n; i++) {
            r = r * 6364136223846793005UL + 1442695040888963407UL;
            x[i] = (double)(r >> 40 & 63) + (i % 5 ? 0 : 0.25); /* ties */
        }
        x[0] = 1000; /* a first run apart */
        struct il_summary s;
        struct il_diag a, b;
        il_summarize(x, n, scratch, &s);
        il_diagnose_med(x, n, s.median, scratch, &b);
        il_diagnose(x, n, scratch, &a);
        assert_memory_equal(&a, &b, sizeof a);
    }
}

static void
acf_and_ljung_box(void **state)
{
    /* 1..10: lag-1 ACF 57.75 / 82.5 = 0.7, lag-2 34 / 82.5. */
    double x[10], acf[4], q;
    for (int i = 0; i < 10; i++)
        x[i] = i + 1;
    assert_int_equal(il_acf(x, 10, 4, acf), 4);
    near(acf[0], 0.7, 1e-12);
    near(acf[1], 34 / 82.5, 1e-12);
    /* With 2 lags, chi-squared(2) has survival exp(-Q/2). */
    double p = il_ljung_box(acf, 10, 2, &q);
    near(q, 10.0 * 12 * (0.49 / 9 + (34 / 82.5) * (34 / 82.5) / 8), 1e-12);
    near(p, exp(-q / 2), 1e-9);
    struct il_diag d;
    double scratch[10];
    il_diagnose(x, 10, scratch, &d);
    assert_true(d.has_lb);
    assert_true(d.lb_p < 0.05);
    near(d.acf_bound, 1.959963984540054 / sqrt(10), 1e-12);
    static const double flat[12] = {0};
    assert_int_equal(il_acf(flat, 12, 3, acf), 0); /* no variance, no ACF */
}

static void
geometric_mean(void **state)
{
    double r[] = {2, 0.5, 1}, gm, lo, hi;
    size_t bad = 99;
    assert_int_equal(il_geomean_ci(r, 2, &gm, &lo, &hi, &bad), 0);
    near(gm, 1, 1e-12);
    near(lo * hi, 1, 1e-9); /* symmetric in log space */
    near(log(hi), il_tq(1) * sqrt(2 * log(2) * log(2) / 1) / sqrt(2), 1e-9);
    assert_int_equal(il_geomean_ci(r, 1, &gm, &lo, &hi, &bad), IL_SE_FEW);
    near(gm, 2, 1e-12);
    r[1] = 0;
    assert_int_equal(il_geomean_ci(r, 3, &gm, &lo, &hi, &bad), IL_SE_NONPOS);
    assert_int_equal(bad, 1);
}

static void
change_words(void **state)
{
    char b[64];
    il_change(b, sizeof b, 0.993, 1, 0);
    assert_string_equal(b, "0.7% faster");
    il_change(b, sizeof b, 1.08, 1, 0);
    assert_string_equal(b, "8.0% slower");
    il_change(b, sizeof b, 1.02, 0, 0);
    assert_string_equal(b, "2.0% higher");
    il_change(b, sizeof b, 1, 0, 0);
    assert_string_equal(b, "no change");
    il_change(b, sizeof b, 1.05, 1, 1); /* --speedup: baseline/value */
    assert_string_equal(b, "speedup 1.05");
}

static void
arrange_levels(void **state)
{
    /* top A: reps 1, 2; top B: reps 1, 2 (given out of order). */
    static const uint32_t k[][2] = {{2, 11}, {1, 11}, {1, 10}, {2, 10}};
    static const double x[] = {4, 2, 1, 3};
    const uint32_t *lab[4] = {k[0], k[1], k[2], k[3]};
    double *y;
    size_t r[2], w, d, got, want, other;
    assert_int_equal(il_levels_arrange(x, lab, 4, 2, &y, r, &w, &d, &got, &want, &other), 0);
    assert_int_equal(r[0], 2);
    assert_int_equal(r[1], 2);
    assert_true(y[0] == 1 && y[1] == 2 && y[2] == 3 && y[3] == 4);
    free(y);
    /* B loses a repetition: unbalanced at depth 1. */
    assert_int_equal(il_levels_arrange(x, lab, 3, 2, &y, r, &w, &d, &got, &want, &other),
                     IL_SE_UNBAL);
    assert_int_equal(d, 1);
    assert_int_equal(got, 1);
    assert_int_equal(want, 2);
    /* A repetition number used twice. */
    static const uint32_t kd[][2] = {{1, 10}, {1, 10}, {2, 10}, {2, 11}};
    const uint32_t *labd[4] = {kd[0], kd[1], kd[2], kd[3]};
    assert_int_equal(il_levels_arrange(x, labd, 4, 2, &y, r, &w, &d, &got, &want, &other),
                     IL_SE_DUP);
    assert_int_equal(got, 2);
}

static void
target_search(void **state)
{
    static const double y[] = {9, 5, 8, 3, 10, 6, 7, 11, 1, 12, 2, 4};
    static const size_t r[] = {4, 3};
    struct il_levels lv;
    long reps[2] = {19, 0}, top;
    assert_int_equal(il_levels_compute(y, r, 2, &lv), 0);
    double p2 = il_levels_predict(&lv, reps);
    /* The predicted variance of an exec's mean with 19 iterations. */
    double s2 = lv.T2[1] + lv.T2[0] / 19;
    near(p2, s2, 1e-12);
    assert_int_equal(il_levels_expected(p2, 0.65, 1000000, &top), 0);
    /* The smallest count whose predicted half-width is within 10%. */
    assert_true(il_tq((double)(top - 1)) * sqrt(s2 / (double)top) <= 0.65);
    assert_true(il_tq((double)(top - 2)) * sqrt(s2 / (double)(top - 1)) > 0.65);
    assert_int_equal(il_levels_expected(p2, 6.5e-9, 1000, &top), IL_SE_NOTFOUND);
}

/* Quantiles by selection (the branch-free quickselect from 256 values)
 * are bit for bit the sorted array's, and the selection keeps the values
 * (it only reorders them): sizes around that threshold; ties, one value,
 * negative and positive values of every magnitude, large integers (ns
 * counters). */
static void
quantiles_match_sort(void **state)
{
    static const size_t sizes[] = {1, 2, 33, 255, 256, 257, 1000, 4099, 100000};
    static const double ps[] = {0, 0.1, 0.25, 1.0 / 3, 0.5, 0.9, 0.999, 1};
    size_t cap = 100000;
    double *x = malloc(cap * sizeof *x), *a = malloc(cap * sizeof *a),
           *sorted = malloc(cap * sizeof *sorted);
    assert_non_null(x);
    assert_non_null(a);
    assert_non_null(sorted);
    unsigned long r = 11;
    for (int kind = 0; kind < 5; kind++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            for (size_t i = 0; i < n; i++) {
                r = r * 6364136223846793005UL + 1442695040888963407UL;
                unsigned long u = r >> 11;
                x[i] = kind == 0   ? (double)(u % 7) /* ties */
                       : kind == 1 ? 42.5            /* one value */
                       : kind == 2 ? ldexp((double)(u % 1000) - 500, (int)(u >> 40) % 80 - 40)
                       : kind == 3 ? 1e9 + (double)(u % 100000) /* ns */
                                   : (double)(u % 3) - 1 + ((u >> 20) % 2 ? 0.5 : 0);
            }
            memcpy(sorted, x, n * sizeof *x);
            qsort(sorted, n, sizeof *sorted, il_dcmp);
            for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++) {
                memcpy(a, x, n * sizeof *x);
                double got = il_quantile_select(a, n, ps[pi]),
                       want = il_quantile_sorted(sorted, n, ps[pi]);
                if (memcmp(&got, &want, sizeof got) != 0)
                    fail_msg("kind %d n %zu p %g: got %.17g, expected %.17g", kind, n, ps[pi], got,
                             want);
                qsort(a, n, sizeof *a, il_dcmp);
                assert_memory_equal(a, sorted, n * sizeof *a);
            }
        }
    }
    free(x);
    free(a);
    free(sorted);
}

/* Records of groups named name[of[r]] (nn names, ids id[]): the groups
 * come in natural order (want: the names' indices in that order), each
 * with its records and values in input order, whether the values are moved
 * (il_group_by_take) or left out (il_group_by). */
static void
check_groups(const char *const *name, size_t nn, const int *want, const int *of, size_t n)
{
    struct il_data d;
    memset(&d, 0, sizeof d);
    il_strtab_init(&d.st);
    uint32_t id[32];
    assert_true(nn <= 32);
    for (size_t i = 0; i < nn; i++)
        id[i] = il_strtab_intern(&d.st, name[i], strlen(name[i]));
    d.n = d.cap = n;
    d.nslots = 1;
    d.val = calloc(n, sizeof *d.val);
    d.flag = calloc(n, 1);
    d.labc[0] = calloc(n, sizeof *d.labc[0]);
    assert_non_null(d.labc[0]);
    for (size_t r = 0; r < n; r++) {
        d.labc[0][r] = id[of[r]];
        d.val[r] = 100 + (double)r;
    }
    size_t slot = 0;
    struct il_groups only, gs;
    il_group_by(&d, &slot, 1, &only);
    il_group_by_take(&d, &slot, 1, &gs);
    assert_null(d.val);
    assert_int_equal(gs.ng, nn);
    assert_int_equal(only.ng, nn);
    size_t seen = 0;
    for (size_t g = 0; g < nn; g++) {
        assert_int_equal(gs.g[g].key[0], id[want[g]]);
        assert_int_equal(only.g[g].key[0], id[want[g]]);
        assert_null(only.g[g].x);
        size_t i = 0;
        for (size_t r = 0; r < n; r++) {
            if (of[r] != want[g])
                continue;
            assert_true(i < gs.g[g].n);
            if (gs.g[g].rec[i] != r || only.g[g].rec[i] != r || gs.g[g].x[i] != 100 + (double)r)
                fail_msg("group %zu run %zu: record %u/%u value %g, expected record %zu", g, i,
                         gs.g[g].rec[i], only.g[g].rec[i], gs.g[g].x[i], r);
            i++;
        }
        assert_int_equal(gs.g[g].n, i);
        assert_int_equal(only.g[g].n, i);
        seen += i;
    }
    assert_int_equal(seen, n);
    il_groups_free(&only);
    il_groups_free(&gs);
    il_data_free(&d);
}

static void
group_records(void **state)
{
    static const char *const name[] = {"10", "2", "1"};
    static const int of[] = {0, 1, 0, 2, 2, 1, 0, 2, 1, 1, 0};
    static const int want[] = {2, 1, 0}; /* 1, 2, 10 */
    check_groups(name, 3, want, of, sizeof of / sizeof of[0]);
}

/* From 100,000 records group_by splits its passes between two threads
 * (on two CPUs): groups only in the first half, only in the second, and in
 * both, the second half's first seen in another order: the same groups,
 * order and runs as one thread's. */
static void
group_records_halves(void **state)
{
    static const char *const name[] = {"10", "2", "1", "7", "30"};
    static const int want[] = {2, 1, 3, 0, 4}; /* 1, 2, 7, 10, 30 */
    size_t n = 150001;
    int *of = calloc(n, sizeof *of);
    assert_non_null(of);
    for (size_t r = 0; r < n; r++)
        of[r] = r < n / 2 ? (int)(r * 7 % 3) : (int)(4 - r * 5 % 4); /* 0-2, then 4-1 */
    check_groups(name, 5, want, of, n);
    free(of);
}

/* The second half brings groups the first never saw, more than the first
 * half's count table holds (16): their counts and places must come from
 * the second half alone (review9: the merged set's size was taken for the
 * first half's, reading and then writing past its arrays). */
static void
group_records_halves_new_groups(void **state)
{
    char buf[23][4];
    const char *name[23];
    int want[23];
    for (int j = 0; j < 23; j++) {
        snprintf(buf[j], sizeof buf[j], "%d", j + 1);
        name[j] = buf[j];
        want[j] = j; /* 1, 2, ..., 23 */
    }
    size_t n = 150001;
    int *of = calloc(n, sizeof *of);
    assert_non_null(of);
    for (size_t r = 0; r < n; r++)
        of[r] = r < n / 2 ? 20 + (int)(r % 3) : (int)(r * 7 % 23); /* 21-23, then all */
    check_groups(name, 23, want, of, n);
    free(of);
}

/* A group's runs into setups, 20 setups (past a table of 16) x 3 passes
 * written pass after pass, so that a setup's runs are not consecutive:
 * built in place (the group's own x moved into the setups' order) the
 * units are those of a copy, bit for bit, with the group's x as theirs;
 * il_units_in_order gives the input order back, from either. */
static void
units_in_place(void **state)
{
    enum { K = 20, P = 3, N = K * P };
    struct il_data d;
    memset(&d, 0, sizeof d);
    il_strtab_init(&d.st);
    d.n = d.cap = N;
    d.nslots = 2;
    d.slot_name[0] = "setup";
    d.slot_name[1] = "rep";
    d.labc[0] = calloc(N, sizeof *d.labc[0]);
    d.labc[1] = calloc(N, sizeof *d.labc[1]);
    d.present[0] = d.present[1] = N;
    double x0[N], xa[N], xb[N];
    uint32_t rec[N], key = 0;
    for (size_t r = 0; r < N; r++) {
        char b[8];
        snprintf(b, sizeof b, "%zu", r % K);
        d.labc[0][r] = il_strtab_intern(&d.st, b, strlen(b));
        snprintf(b, sizeof b, "%zu", r / K + 1);
        d.labc[1][r] = il_strtab_intern(&d.st, b, strlen(b));
        x0[r] = xa[r] = xb[r] = 1e6 + (double)((r * 7919) % 101) / 3;
        rec[r] = (uint32_t)r;
    }
    struct il_group ga = {&key, N, xa, rec}, gb = {&key, N, xb, rec};
    struct il_groups gsa = {.ng = 1, .nkey = 1, .g = &ga}, gsb = {.ng = 1, .nkey = 1, .g = &gb};
    struct il_estimator e = {IL_EST_MEAN, 0, "mean"};
    size_t slot[2] = {0, 1};
    struct il_units ua, ub;
    il_units_build(&d, &ga, IL_D_ONE, slot, 1, &e, 0, &ua);
    il_units_build(&d, &gb, IL_D_ONE, slot, 1, &e, 1, &ub);
    assert_memory_equal(xa, x0, sizeof x0); /* a copy: the group's x as it was */
    assert_true(ub.x == xb && ub.x_shared && !ua.x_shared);
    assert_int_equal(ua.k, K);
    assert_int_equal(ub.k, K);
    assert_memory_equal(ua.x, ub.x, sizeof x0);
    assert_memory_equal(ua.mean, ub.mean, K * sizeof *ua.mean);
    assert_memory_equal(ua.est, ub.est, K * sizeof *ua.est);
    assert_memory_equal(ua.pos, ub.pos, N * sizeof *ua.pos);
    assert_memory_equal(ua.pass, ub.pass, N * sizeof *ua.pass);
    for (size_t u = 0; u < K; u++) {
        /* natural order: 0, 1, ..., 9, 10, ...; a setup's runs in input
         * order, one a pass */
        char b[8];
        snprintf(b, sizeof b, "%zu", u);
        assert_string_equal(il_str(&d.st, ub.id[u]), b);
        assert_int_equal(ub.off[u], u * P);
        assert_int_equal(ub.n[u], P);
        for (size_t i = 0; i < P; i++) {
            assert_int_equal(ub.pos[u * P + i], i * K + u);
            if (memcmp(&ub.x[u * P + i], &x0[i * K + u], sizeof *x0) != 0)
                fail_msg("setup %zu run %zu: %.17g, expected %.17g", u, i, ub.x[u * P + i],
                         x0[i * K + u]);
        }
    }
    il_units_cells(&d, &gsa, &ua, 1, 1);
    il_units_cells(&d, &gsb, &ub, 1, 1);
    double *ia = il_units_in_order(&ua), *ib = il_units_in_order(&ub);
    assert_memory_equal(ia, x0, sizeof x0);
    assert_memory_equal(ib, x0, sizeof x0);
    free(ia);
    free(ib);
    il_units_free(&ua);
    il_units_free(&ub); /* leaves xb, the group's (on the stack here) */
    il_lab_free(&d, 0);
    il_lab_free(&d, 1);
    il_data_free(&d);
}

/* il_acf sums its lags side by side: bit for bit the sums of one loop a
 * lag in t's order, for every size and lag count around its groups of
 * lags (and the plots' 40). */
static void
acf_matches_lag_by_lag(void **state)
{
    double x[120], got[64], want[64];
    unsigned long r = 3;
    for (size_t n = 1; n < 120; n++)
        for (size_t ml = 0; ml <= 45; ml++) {
            for (size_t i = 0; i < n; i++) {
                r = r * 6364136223846793005UL + 1442695040888963407UL;
                x[i] = (double)(r >> 40) * 1e-3 + (n % 2 ? 1e9 : 0);
            }
            memset(got, 0, sizeof got);
            memset(want, 0, sizeof want);
            double m = il_mean(x, n), c0 = 0;
            for (size_t t = 0; t < n; t++)
                c0 += (x[t] - m) * (x[t] - m);
            size_t kw = ml > n - 1 ? n - 1 : ml;
            for (size_t k = 1; k <= kw; k++) {
                double c = 0;
                for (size_t t = 0; t + k < n; t++)
                    c += (x[t] - m) * (x[t + k] - m);
                want[k - 1] = c / c0;
            }
            assert_int_equal(il_acf(x, n, ml, got), c0 == 0 ? 0 : kw);
            if (c0 != 0 && memcmp(got, want, sizeof got) != 0)
                fail_msg("n %zu lags %zu: not the lag-by-lag sums", n, ml);
        }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(summary_and_quantiles),
        cmocka_unit_test(mad_outlier_and_first_run),
        cmocka_unit_test(diagnose_with_the_median),
        cmocka_unit_test(acf_and_ljung_box),
        cmocka_unit_test(geometric_mean),
        cmocka_unit_test(change_words),
        cmocka_unit_test(arrange_levels),
        cmocka_unit_test(target_search),
        cmocka_unit_test(median_matches_sort),
        cmocka_unit_test(group_records),
        cmocka_unit_test(quantiles_match_sort),
        cmocka_unit_test(group_records_halves),
        cmocka_unit_test(group_records_halves_new_groups),
        cmocka_unit_test(acf_matches_lag_by_lag),
        cmocka_unit_test(units_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
