/*
 * test_hset.c: the one hash set (common/hset.c, il_hset.h): dense ids in
 * the order first added, keys found again byte for byte (embedded NULs,
 * the empty key, keys that differ only in length), through many table
 * growths, and FNV-1a against the published test values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "il_hset.h"

static void
fnv1a_reference(void **state)
{
    (void)state;
    /* the FNV-1a 64-bit values of "", "a" and "foobar" (Fowler, Noll, Vo) */
    assert_true(il_fnv1a("", 0) == 0xcbf29ce484222325ULL);
    assert_true(il_fnv1a("a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(il_fnv1a("foobar", 6) == 0x85944171f73967e8ULL);
}

static void
ids_in_order_first_added(void **state)
{
    (void)state;
    struct il_hset s = {0};
    int added;
    assert_int_equal(il_hset_find(&s, "x", 1), IL_HSET_NONE);
    assert_int_equal(il_hset_add(&s, "b", 1, &added), 0);
    assert_true(added);
    assert_int_equal(il_hset_add(&s, "a", 1, &added), 1);
    assert_true(added);
    assert_int_equal(il_hset_add(&s, "b", 1, &added), 0);
    assert_false(added);
    assert_int_equal(il_hset_add(&s, "", 0, &added), 2);
    assert_true(added);
    assert_int_equal(il_hset_add(&s, "a\0b", 3, &added), 3);
    assert_true(added);
    assert_int_equal(il_hset_add(&s, "ab", 2, NULL), 4);
    assert_int_equal(il_hset_find(&s, "a\0b", 3), 3);
    assert_int_equal(il_hset_find(&s, "a", 1), 1);
    assert_int_equal(il_hset_find(&s, "", 0), 2);
    assert_int_equal(il_hset_find(&s, "a\0", 2), IL_HSET_NONE);
    assert_int_equal(s.n, 5);
    assert_string_equal(s.key[1], "a"); /* a copy, NUL-terminated */
    assert_int_equal(s.len[3], 3);
    assert_memory_equal(s.key[3], "a\0b", 4);
    il_hset_free(&s);
    assert_int_equal(s.n, 0);
    assert_int_equal(il_hset_find(&s, "a", 1), IL_HSET_NONE);
}

static void
many_keys_through_growth(void **state)
{
    (void)state;
    struct il_hset s = {0};
    char k[32];
    for (uint32_t i = 0; i < 20000; i++) {
        int n = snprintf(k, sizeof k, "run-%u", i);
        int added;
        assert_int_equal(il_hset_add(&s, k, (size_t)n, &added), i);
        assert_true(added);
    }
    assert_true(2 * s.n <= s.nslot);
    for (uint32_t i = 0; i < 20000; i++) {
        int n = snprintf(k, sizeof k, "run-%u", i);
        assert_int_equal(il_hset_find(&s, k, (size_t)n), i);
    }
    /* binary keys: the link orders and group keys are uint32_t arrays */
    uint32_t a[3] = {1, 2, 3}, b[3] = {1, 2, 4};
    uint32_t ia = il_hset_add(&s, a, sizeof a, NULL);
    assert_int_equal(il_hset_add(&s, b, sizeof b, NULL), ia + 1);
    assert_int_equal(il_hset_find(&s, a, sizeof a), ia);
    il_hset_free(&s);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fnv1a_reference),
        cmocka_unit_test(ids_in_order_first_added),
        cmocka_unit_test(many_keys_through_growth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
