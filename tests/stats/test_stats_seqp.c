/*
 * test_stats_seqp.c: the sequential permutation p-value (stats/minp.c,
 * il_seqp; Besag and Clifford 1991).  Planted tests: an observed
 * statistic and its exchanges' statistics drawn with fixed seeds, with no
 * effect (all from one distribution) and with effects of three sizes.
 * The rule must give the full test's decision at 5% and at every smaller
 * threshold in every data set, the full test's p exactly when it did not
 * stop, the same p twice for one seed, a p that is valid under no effect
 * above 5% too (where it moves), and fewer exchanges under no effect.
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

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stop_count),
        cmocka_unit_test(decisions_agree),
        cmocka_unit_test(valid_and_shorter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
