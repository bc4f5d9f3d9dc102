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
#include <stdlib.h>

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
    static const uint64_t edge[] = {
        0,           1,           2,           3,          1ull << 31,      (1ull << 31) + 1,
        3000000000u, 4294967291u, 4294967295u, 1ull << 32, (1ull << 32) + 5};
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
    static const uint64_t ns[] = {
        2, 3, 7, 1000, 5000, 1ull << 31, (1ull << 31) + 1, 3000000000u, 4294967291u, 4294967295u};
    for (size_t e = 0; e < sizeof ns / sizeof ns[0]; e++) {
        uint64_t n = ns[e], lim = (1ull << 32) - (1ull << 32) % n;
        uint64_t rs[] = {
            0,       n - 1, (1ull << 32) - n - 1, (1ull << 32) - n, (1ull << 32) - n + 1,
            lim - 1, lim,   (1ull << 32) - 1};
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

/* Lemire's draw below n by its definition: r n = v 2^32 + l, r kept when
 * l >= 2^32 mod n, v the value (a 64-bit product and a division, where
 * il_rng_below_mul divides only when l < n). */
static uint32_t
below_mul_ref(struct il_rng *g, uint64_t n)
{
    for (;;) {
        uint64_t m = (uint64_t)il_rng_next(g) * n;
        if ((m & 0xffffffffu) >= (1ull << 32) % n)
            return (uint32_t)(m >> 32);
    }
}

static void
below_mul_as_defined(void **state)
{
    (void)state;
    struct il_rng a, b, s;
    il_rng_init(&a, 11, 5);
    b = a;
    il_rng_init(&s, 13, 2);
    static const uint32_t edge[] = {
        1, 2, 3, 7, 5000, 1u << 31, (1u << 31) + 1, 3000000000u, 4294967291u, 4294967295u};
    for (int k = 0; k < 2000; k++)
        for (size_t e = 0; e < sizeof edge / sizeof edge[0]; e++) {
            uint32_t v = il_rng_below_mul(&a, edge[e]);
            assert_true(v < edge[e]);
            assert_int_equal(v, below_mul_ref(&b, edge[e]));
        }
    for (int k = 0; k < 200000; k++) {
        uint32_t w = il_rng_next(&s);
        uint32_t n = k % 2 ? (uint32_t)k + 1 : (w >> (w & 31)) | 1;
        assert_int_equal(il_rng_below_mul(&a, n), below_mul_ref(&b, n));
    }
    assert_memory_equal(a.s, b.s, sizeof a.s);
    /* draws whose low half is just below and at 2^32 mod n: rejected, kept */
    for (size_t e = 1; e < sizeof edge / sizeof edge[0]; e++) {
        uint64_t n = edge[e], t = (1ull << 32) % n;
        for (uint64_t r = 0; r < 4; r++) {
            /* the r that makes r n's low half t - 1, t (when n is odd) */
            uint64_t inv = n; /* n^-1 mod 2^32 by Newton's iteration */
            for (int i = 0; i < 5; i++)
                inv *= 2 - n * inv;
            if (!(n & 1))
                break;
            uint32_t want = (uint32_t)(t + r - 1 + (t == 0));
            state_drawing(&a, (uint32_t)(want * inv));
            b = a;
            assert_int_equal(il_rng_below_mul(&a, (uint32_t)n), below_mul_ref(&b, n));
            assert_memory_equal(a.s, b.s, sizeof a.s);
        }
    }
}

/* il_rng_shuffle2_double by its definition: positions i - 1 and i - 2 from
 * one Lemire draw below p = i (i - 1), v = j1 (i - 1) + j2, while p fits in
 * 32 bits; one position a draw above that and for the last. */
static void
shuffle2_ref(struct il_rng *g, double *a, size_t n)
{
    size_t i = n;
    for (; i > 2; i -= 2) {
        uint64_t p = (uint64_t)i * (i - 1);
        if (p >= (1ull << 32)) {
            size_t j = below_mul_ref(g, i);
            double t = a[i - 1];
            a[i - 1] = a[j];
            a[j] = t;
            i++; /* one position only */
            continue;
        }
        uint32_t v = below_mul_ref(g, p);
        size_t j1 = v / (i - 1), j2 = v % (i - 1);
        double t = a[i - 1];
        a[i - 1] = a[j1];
        a[j1] = t;
        t = a[i - 2];
        a[i - 2] = a[j2];
        a[j2] = t;
    }
    if (i == 2) {
        size_t j = below_mul_ref(g, 2);
        double t = a[1];
        a[1] = a[j];
        a[j] = t;
    }
}

/* The batched shuffle: the definition's permutations and draws at lengths
 * past a table of 16, at many, and past 65,536 (one position a draw
 * there); a permutation of its input; the same with a block to prefetch. */
static void
shuffle2_as_defined(void **state)
{
    (void)state;
    static const size_t ns[] = {0, 1, 2, 3, 16, 17, 100, 5000, 65537, 70001};
    static double x[70001], y[70001], z[70001];
    struct il_rng a, b, c;
    il_rng_init(&a, 3, 104);
    b = a;
    c = a;
    for (size_t e = 0; e < sizeof ns / sizeof ns[0]; e++)
        for (int rep = 0; rep < 2; rep++) {
            for (size_t i = 0; i < ns[e]; i++)
                x[i] = y[i] = z[i] = (double)i;
            il_rng_shuffle2_double(&a, x, ns[e], NULL);
            shuffle2_ref(&b, y, ns[e]);
            il_rng_shuffle2_double(&c, z, ns[e], y);
            assert_memory_equal(x, y, ns[e] * sizeof *x);
            assert_memory_equal(x, z, ns[e] * sizeof *x);
            assert_memory_equal(a.s, b.s, sizeof a.s);
            assert_memory_equal(a.s, c.s, sizeof a.s);
            unsigned char *seen = calloc(ns[e] + 1, 1);
            for (size_t i = 0; i < ns[e]; i++) {
                size_t v = (size_t)x[i];
                assert_true(v < ns[e] && !seen[v]);
                seen[v] = 1;
            }
            free(seen);
        }
}

/* Every permutation of 5 equally often: 120,000 shuffles, 1,000 expected
 * each; chi-squared with 119 df passes 180 with probability about 3e-4. */
static void
shuffle2_is_uniform(void **state)
{
    (void)state;
    static unsigned cnt[5 * 5 * 5 * 5 * 5];
    struct il_rng g;
    il_rng_init(&g, 9, 104);
    for (int r = 0; r < 120000; r++) {
        double a[5] = {0, 1, 2, 3, 4};
        il_rng_shuffle2_double(&g, a, 5, NULL);
        size_t k = 0;
        for (int i = 0; i < 5; i++)
            k = 5 * k + (size_t)a[i];
        cnt[k]++;
    }
    double chi = 0;
    size_t perms = 0;
    for (size_t k = 0; k < sizeof cnt / sizeof cnt[0]; k++)
        if (cnt[k]) {
            perms++;
            chi += ((double)cnt[k] - 1000) * ((double)cnt[k] - 1000) / 1000;
        }
    assert_int_equal(perms, 120);
    assert_true(chi < 180);
}

/* Coins: a draw's 32 bits from the lowest, then the next draw's. */
static void
coins_are_the_bits(void **state)
{
    (void)state;
    struct il_rng a, b;
    struct il_coins c = {0, 0};
    il_rng_init(&a, 21, 107);
    b = a;
    for (int d = 0; d < 100; d++) {
        uint32_t w = il_rng_next(&b);
        for (int i = 0; i < 32; i++)
            assert_int_equal(il_coin(&a, &c), w >> i & 1);
    }
    assert_memory_equal(a.s, b.s, sizeof a.s);
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
        cmocka_unit_test(below_mul_as_defined),
        cmocka_unit_test(shuffle2_as_defined),
        cmocka_unit_test(shuffle2_is_uniform),
        cmocka_unit_test(coins_are_the_bits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
