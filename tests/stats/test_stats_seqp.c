/*
 * test_stats_seqp.c: the sequential permutation p-value (stats/minp.c,
 * il_seqp; Besag and Clifford 1991).  Planted tests: an observed
 * statistic and its exchanges' statistics drawn with fixed seeds, with no
 * effect (all from one distribution) and with effects of three sizes.
 * The rule must give the full test's decision at 5% and at every smaller
 * threshold in every data set, the full test's p exactly when it did not
 * stop, the same p twice for one seed, a p that is valid under no effect
 * above 5% too (where it moves), and fewer exchanges under no effect.
 * And il_minp_group's smallest p-value of a group's design.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_prng.h"
#include "il_stats.h"

enum { SETS = 3000 };

/* a uniform draw in (0, 1) */
static double
unif(struct il_rng *g)
{
    return ((double)il_rng_next(g) + 0.5) / 4294967296.0;
}

struct outcome {
    double full, seq; /* the full test's p, the rule's */
    size_t done;      /* exchanges the rule ran */
    int stopped;
};

/* One planted test of P exchanges: the observed statistic is the largest
 * of 1 + shift draws (shift 0: no effect, exchangeable with the rest). */
static struct outcome
planted(uint32_t seed, size_t P, unsigned shift)
{
    struct il_rng g;
    il_rng_init(&g, seed, 1);
    double t0 = unif(&g);
    for (unsigned i = 0; i < shift; i++)
        t0 = fmax(t0, unif(&g));
    struct il_seqp s;
    il_seqp_init(&s, P, 1);
    size_t ge = 0;
    struct outcome o = {0};
    for (size_t it = 0; it < P; it++) {
        int reached = unif(&g) >= t0;
        ge += reached;
        if (!s.stopped)
            il_seqp_add(&s, reached);
    }
    o.full = (double)(ge + 1) / (double)(P + 1);
    o.seq = il_seqp_p(&s);
    o.done = s.done;
    o.stopped = s.stopped;
    return o;
}

static void
stop_count(void **state)
{
    (void)state;
    struct il_seqp s;
    il_seqp_init(&s, 999, 1);
    assert_int_equal(s.h, 50);
    il_seqp_init(&s, 99, 1);
    assert_int_equal(s.h, 5);
    il_seqp_init(&s, 100, 1);
    assert_int_equal(s.h, 6); /* 5 / 100 is not above 5% */
    il_seqp_init(&s, 999, 0);
    assert_int_equal(s.h, 0);
    assert_true(isnan(il_seqp_p(&s)));
    /* never stopping: the full test's count */
    for (int i = 0; i < 999; i++)
        assert_int_equal(il_seqp_add(&s, 1), 0);
    assert_true(il_seqp_p(&s) == 1.0);
}

static void
decisions_agree(void **state)
{
    (void)state;
    static const size_t Ps[] = {99, 999};
    static const unsigned shifts[] = {0, 5, 20, 200};
    static const double alphas[] = {0.05, 0.025, 0.01, 0.05 / 24, 0.001};
    for (size_t a = 0; a < 2; a++)
        for (size_t b = 0; b < 4; b++) {
            size_t stopped = 0, below = 0;
            for (uint32_t seed = 1; seed <= SETS; seed++) {
                struct outcome o = planted(seed, Ps[a], shifts[b]);
                for (size_t c = 0; c < 5; c++)
                    if ((o.seq <= alphas[c]) != (o.full <= alphas[c]))
                        fail_msg("P %zu shift %u seed %u: p %g, the full test's %g: they decide "
                                 "differently at %g",
                                 Ps[a], shifts[b], seed, o.seq, o.full, alphas[c]);
                if (!o.stopped && o.seq != o.full)
                    fail_msg("seed %u: not stopped, p %g, the full test's %g", seed, o.seq, o.full);
                if (o.stopped && !(o.seq > 0.05 && o.full > 0.05 && o.done <= Ps[a]))
                    fail_msg("seed %u: stopped at %zu with p %g (full %g)", seed, o.done, o.seq,
                             o.full);
                struct outcome again = planted(seed, Ps[a], shifts[b]);
                assert_memory_equal(&o, &again, sizeof o);
                stopped += o.stopped;
                below += o.full <= 0.05;
            }
            /* the planted effects are found, and a test stops in both
             * kinds of data (else this test would check nothing) */
            if (shifts[b] >= 20 && below < SETS / 2)
                fail_msg("shift %u: only %zu of %d rejected", shifts[b], below, SETS);
            if (shifts[b] <= 5 && stopped < SETS / 4)
                fail_msg("shift %u: only %zu of %d stopped", shifts[b], stopped, SETS);
        }
}

/* Under no effect Pr(p <= a) <= a at thresholds above 5% too (where the
 * rule's p is not the full test's), within 3 standard errors. */
static void
valid_and_shorter(void **state)
{
    (void)state;
    static const double alphas[] = {0.05, 0.1, 0.2, 0.3, 0.5, 0.8};
    size_t n[6] = {0}, done = 0;
    for (uint32_t seed = 1; seed <= SETS; seed++) {
        struct outcome o = planted(seed + 100000, 999, 0);
        for (size_t c = 0; c < 6; c++)
            n[c] += o.seq <= alphas[c];
        done += o.done;
    }
    for (size_t c = 0; c < 6; c++) {
        double f = (double)n[c] / SETS, se = sqrt(alphas[c] * (1 - alphas[c]) / SETS);
        if (f > alphas[c] + 3 * se)
            fail_msg("Pr(p <= %g) = %g under no effect", alphas[c], f);
    }
    /* about h / p exchanges under no effect: 50 ln 20 + 50 = 200 on
     * average of 999 */
    double mean = (double)done / SETS;
    if (mean > 300)
        fail_msg("%.0f exchanges on average under no effect, of 999", mean);
}

/* A group's units from their runs a pass, runs[u * nb + b] (passes 1 to
 * nb, one cell); its minp blocked by pass (il_pass_blocks) and not. */
static void
minp_of(size_t k, size_t nb, const size_t *runs, double *blocked, double *free_)
{
    struct il_units un = {0};
    size_t N = 0;
    for (size_t i = 0; i < k * nb; i++)
        N += runs[i];
    un.k = k;
    un.n = calloc(k, sizeof *un.n);
    un.off = calloc(k, sizeof *un.off);
    un.pass = calloc(N, sizeof *un.pass);
    un.cell = calloc(N, sizeof *un.cell);
    for (size_t u = 0, r = 0; u < k; u++) {
        un.off[u] = r;
        for (size_t b = 0; b < nb; b++)
            for (size_t j = 0; j < runs[u * nb + b]; j++)
                un.pass[r++] = (uint32_t)b + 1;
        un.n[u] = r - un.off[u];
    }
    size_t *bs = NULL, nbk = 0;
    int none = 0;
    uint32_t *pos = il_pass_blocks(&un, &bs, &nbk, &none);
    assert_non_null(pos);
    assert_int_equal(nbk, nb);
    struct il_minp mp;
    *blocked = il_minp_group(&un, pos, bs, nbk, &mp);
    *free_ = il_minp_group(&un, NULL, NULL, 0, &mp);
    free(pos);
    free(bs);
    free(un.n);
    free(un.off);
    free(un.pass);
    free(un.cell);
}

static void
near(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * want))
        fail_msg("minp %.17g, expected %.17g", got, want);
}

/* The smallest p-value of a group's exchanges: one arrangement of the
 * runs in its blocks over the arrangements that differ (units with the
 * same runs in every block are alike): a grid, units of unequal runs,
 * counts past the table of small log n!, and many units. */
static void
minp_group_designs(void **state)
{
    (void)state;
    double b, f;
    size_t grid[3 * 2] = {1, 1, 1, 1, 1, 1};
    minp_of(3, 2, grid, &b, &f);
    near(b, 1.0 / 6);  /* 3!^2 / 3!: one class of three */
    near(f, 1.0 / 15); /* 6! / 2!^3 / 3! */
    size_t uneq[3 * 2] = {2, 1, 1, 1, 1, 1};
    minp_of(3, 2, uneq, &b, &f);
    near(b, 2.0 / 72);  /* 4! / 2! x 3!, classes {u0} {u1, u2} */
    near(f, 2.0 / 210); /* 7! / (3! 2! 2!) */
    size_t big[2] = {70, 70};
    minp_of(2, 1, big, &b, &f);
    double want = exp(log(2.0) - (lgamma(141) - 2 * lgamma(71))); /* 2 / C(140, 70) */
    near(b, want);
    near(f, want);
    size_t many[20 * 3];
    for (size_t i = 0; i < 20 * 3; i++)
        many[i] = 1;
    minp_of(20, 3, many, &b, &f);
    near(b, exp(-2 * lgamma(21))); /* 20!^3 / 20! */
    near(f, exp(lgamma(21) - (lgamma(61) - 20 * lgamma(4))));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stop_count),
        cmocka_unit_test(decisions_agree),
        cmocka_unit_test(valid_and_shorter),
        cmocka_unit_test(minp_group_designs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
