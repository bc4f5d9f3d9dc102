/*
 * test_prng.c: the generator against values computed by an independent
 * implementation, tests/link/prng_ref.py (written from interloper-link(1)):
 *   python3 tests/link/prng_ref.py --vector
 *   Xoshiro128ss(seed=42, stream=0).next() x 4
 *   Xoshiro128ss(seed=4294967295, stream=7).below(10) x 8
 *   orders(42, 5, [c.o a.o b.o d.o e.o]): the random orders 2..4
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "il_prng.h"

static void
reference_vector(void **state)
{
    (void)state;
    static const uint32_t s[4] = {1, 2, 3, 4};
    static const uint32_t want[] = {11520, 0, 5927040, 70819200, 2031721883, 1637235492};
    struct il_rng g;
    il_rng_set_state(&g, s);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_int_equal(il_rng_next(&g), want[i]);
}

static void
seeded_streams(void **state)
{
    (void)state;
    static const uint32_t want[] = {2837322924u, 544945897u, 479756282u, 3500138142u};
    static const uint32_t below[] = {4, 1, 1, 7, 5, 5, 8, 8};
    struct il_rng g;
    il_rng_init(&g, 42, 0);
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(il_rng_next(&g), want[i]);
    il_rng_init(&g, 4294967295u, 7);
    for (size_t i = 0; i < 8; i++)
        assert_int_equal(il_rng_below(&g, 10), below[i]);
}

/* interloper link's random orders: shuffles of the alphabetical order,
 * drawn one after another from stream 0 (no repeats arise here). */
static void
link_orders(void **state)
{
    (void)state;
    /* names c.o a.o b.o d.o e.o: alphabetical is 1 2 0 3 4 (0-based) */
    static const uint32_t want[3][5] = {{3, 1, 0, 2, 4}, {3, 4, 2, 0, 1}, {2, 3, 1, 0, 4}};
    struct il_rng g;
    il_rng_init(&g, 42, 0);
    for (int k = 0; k < 3; k++) {
        uint32_t p[5] = {1, 2, 0, 3, 4};
        il_rng_shuffle(&g, p, 5);
        for (int i = 0; i < 5; i++)
            assert_int_equal(p[i], want[k][i]);
    }
}

static void
below_is_uniform_and_bounded(void **state)
{
    (void)state;
    struct il_rng g;
    unsigned count[3] = {0, 0, 0};
    il_rng_init(&g, 1, 1);
    for (int i = 0; i < 30000; i++) {
        uint32_t r = il_rng_below(&g, 3);
        assert_true(r < 3);
        count[r]++;
    }
    /* 10000 expected each; 6 standard deviations is about 490 */
    for (int i = 0; i < 3; i++)
        assert_true(count[i] > 9500 && count[i] < 10500);
    assert_int_equal(il_rng_below(&g, 1), 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_vector),
        cmocka_unit_test(seeded_streams),
        cmocka_unit_test(link_orders),
        cmocka_unit_test(below_is_uniform_and_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
