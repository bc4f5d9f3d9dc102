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

/* il_rng_below as first written: keep r when below lim = 2^32 - 2^32 mod
 * n, then r mod n.  The inline form skips the division for r < 2^32 - n;
 * its draws must be these, for any n (the sweep's plans and every
 * permutation test's p-value depend on them). */
static uint32_t
below_by_lim(struct il_rng *g, uint64_t n)
{
    if (n == 0 || n > (1ull << 32))
        n = 1ull << 32;
    uint64_t lim = (1ull << 32) - (1ull << 32) % n;
    for (;;) {
        uint64_t r = il_rng_next(g);
        if (r < lim)
            return (uint32_t)(r % n);
    }
}

static void
below_draws_as_first_written(void **state)
{
    (void)state;
    struct il_rng a, b, s;
    il_rng_init(&a, 7, 3);
    b = a;
    il_rng_init(&s, 9, 1);
    /* n near 2^32 reject often: the second test of the fast path */
    static const uint64_t edge[] = {0,           1,           2,           3,
                                    1ull << 31,  (1ull << 31) + 1,       3000000000u,
                                    4294967291u, 4294967295u, 1ull << 32, (1ull << 32) + 5};
    for (int k = 0; k < 2000; k++)
        for (size_t e = 0; e < sizeof edge / sizeof edge[0]; e++)
            assert_int_equal(il_rng_below(&a, edge[e]), below_by_lim(&b, edge[e]));
    for (int k = 0; k < 200000; k++) {
        uint32_t w = il_rng_next(&s);
        uint64_t n = k % 2 ? (uint64_t)k + 1 : (uint64_t)(w >> (w & 31)) + 1;
        assert_int_equal(il_rng_below(&a, n), below_by_lim(&b, n));
    }
    assert_memory_equal(a.s, b.s, sizeof a.s);
}

/* A state whose next draw is r: r = rotl(5 s[1], 7) * 9 inverted (9 and 5
 * are odd, so invertible modulo 2^32); the other words are arbitrary. */
static void
state_drawing(struct il_rng *g, uint32_t r)
{
    uint32_t v = r * 0x38e38e39u; /* the inverse of 9 */
    v = (v >> 7) | (v << 25);
    uint32_t s[4] = {0x12345678u, v * 0xcccccccdu, 0x9abcdef0u, 0x0f1e2d3cu};
    il_rng_set_state(g, s);
}

/* Draws at the edges of the fast path (r = 2^32 - n) and of lim, which
 * random draws almost never hit. */
static void
below_at_the_edges(void **state)
{
    (void)state;
    static const uint64_t ns[] = {2, 3, 7, 1000, 5000, 1ull << 31, (1ull << 31) + 1, 3000000000u,
                                  4294967291u, 4294967295u};
    for (size_t e = 0; e < sizeof ns / sizeof ns[0]; e++) {
        uint64_t n = ns[e], lim = (1ull << 32) - (1ull << 32) % n;
        uint64_t rs[] = {0, n - 1, (1ull << 32) - n - 1, (1ull << 32) - n, (1ull << 32) - n + 1,
                         lim - 1, lim, (1ull << 32) - 1};
        for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
            struct il_rng a, b;
            state_drawing(&a, (uint32_t)rs[i]);
            b = a;
            struct il_rng c = a;
            assert_int_equal(il_rng_next(&c), (uint32_t)rs[i]);
            assert_int_equal(il_rng_below(&a, n), below_by_lim(&b, n));
            assert_memory_equal(a.s, b.s, sizeof a.s);
        }
    }
}

/* il_rng_below_magic: the same draws and values as below_by_lim, for
 * every n below 2^32 tried (random, edges, and the edges of r). */
static void
below_magic_draws_as_below(void **state)
{
    (void)state;
    struct il_rng a, b, s;
    il_rng_init(&a, 11, 5);
    b = a;
    il_rng_init(&s, 13, 2);
    static const uint32_t edge[] = {1, 2, 3, 7, 5000, 1u << 31, (1u << 31) + 1, 3000000000u,
                                    4294967291u, 4294967295u};
    for (int k = 0; k < 2000; k++)
        for (size_t e = 0; e < sizeof edge / sizeof edge[0]; e++)
            assert_int_equal(il_rng_below_magic(&a, edge[e], il_rng_magic(edge[e])),
                             below_by_lim(&b, edge[e]));
    for (int k = 0; k < 200000; k++) {
        uint32_t w = il_rng_next(&s);
        uint32_t n = k % 2 ? (uint32_t)k + 1 : (w >> (w & 31)) | 1;
        assert_int_equal(il_rng_below_magic(&a, n, il_rng_magic(n)), below_by_lim(&b, n));
    }
    assert_memory_equal(a.s, b.s, sizeof a.s);
    for (size_t e = 1; e < sizeof edge / sizeof edge[0]; e++) {
        uint64_t n = edge[e], lim = (1ull << 32) - (1ull << 32) % n;
        uint64_t rs[] = {0, n - 1, (1ull << 32) - n - 1, (1ull << 32) - n, (1ull << 32) - n + 1,
                         lim - 1, lim, (1ull << 32) - 1};
        for (size_t i = 0; i < sizeof rs / sizeof rs[0]; i++) {
            state_drawing(&a, (uint32_t)rs[i]);
            b = a;
            assert_int_equal(il_rng_below_magic(&a, (uint32_t)n, il_rng_magic((uint32_t)n)),
                             below_by_lim(&b, n));
            assert_memory_equal(a.s, b.s, sizeof a.s);
        }
    }
}

/* il_rng_shuffle_double_magic: il_rng_shuffle_double's permutation and
 * the generator's state after it, at lengths past a table of 16 and at
 * many (the grid test shuffles blocks of thousands of setups). */
static void
shuffle_magic_as_shuffle(void **state)
{
    (void)state;
    static const size_t ns[] = {0, 1, 2, 3, 16, 17, 100, 5000};
    static double x[5000], y[5000];
    static uint64_t m[5001];
    il_rng_magics(m, 5000);
    assert_true(m[0] == 0 && m[1] == 0 && m[2] == (1ull << 63));
    struct il_rng a, b;
    il_rng_init(&a, 3, 104);
    b = a;
    for (size_t e = 0; e < sizeof ns / sizeof ns[0]; e++)
        for (int rep = 0; rep < 3; rep++) {
            for (size_t i = 0; i < ns[e]; i++)
                x[i] = y[i] = (double)i;
            il_rng_shuffle_double(&a, x, ns[e]);
            il_rng_shuffle_double_magic(&b, y, ns[e], m);
            assert_memory_equal(x, y, sizeof x);
            assert_memory_equal(a.s, b.s, sizeof a.s);
        }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reference_vector),
        cmocka_unit_test(seeded_streams),
        cmocka_unit_test(link_orders),
        cmocka_unit_test(below_is_uniform_and_bounded),
        cmocka_unit_test(below_draws_as_first_written),
        cmocka_unit_test(below_at_the_edges),
        cmocka_unit_test(below_magic_draws_as_below),
        cmocka_unit_test(shuffle_magic_as_shuffle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
