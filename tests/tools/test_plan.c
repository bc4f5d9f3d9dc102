/*
 * test_plan.c: the properties of tools/sweep_plan.c that the sweep and merge rely
 * on.  The orders themselves are checked against the sh sweep this replaced
 * (tests/sweep/old-orders.txt) and an independent Python reference
 * (tests/sweep/order_ref.py) by tests/system/sweep.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "il_tools.h"

static unsigned long long env[] = {0, 64, 128, 192, 256, 320, 384};
static unsigned long long zero[] = {0};
static unsigned long long stacks[] = {0, 16, 32};
static const char *sys3[] = {"A", "B", "C"};

static struct il_design
design(void)
{
    struct il_design d;
    memset(&d, 0, sizeof d);
    d.seed = 12345;
    d.nsys = 3;
    d.sys = sys3;
    d.nenv = 7;
    d.env = env;
    d.nstack = 3;
    d.stack = stacks;
    d.nheap = 1;
    d.heap = zero;
    d.reps = 3;
    return d;
}

static struct il_run *
batch(struct il_design *d, size_t *n, struct il_plan *p)
{
    const char *why;
    assert_int_equal(il_plan_init(p, d, &why), 0);
    return il_plan_batch(p, 0, 0, n);
}

/* K drawn setups are the first K of a larger draw: --until and --setups
 * extend one plan */
static void
draws_are_prefixes(void **state)
{
    (void)state;
    struct il_design d = design();
    struct il_plan small, all;
    size_t n;
    d.setups = 5;
    free(batch(&d, &n, &small));
    struct il_design d2 = design();
    free(batch(&d2, &n, &all));
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(small.draw[i], all.draw[i]);
    /* and batch 1 of the small plan draws the next ones */
    size_t n1;
    free(il_plan_batch(&small, 1, 0, &n1));
    assert_int_equal(il_plan_batch_end(&small, 1), 10);
    for (size_t i = 0; i < 10; i++)
        assert_int_equal(small.draw[i], all.draw[i]);
    il_plan_free(&small);
    il_plan_free(&all);
}

/* shards by block: disjoint, their union the plan, balanced to a block */
static void
shards_partition_the_plan(void **state)
{
    (void)state;
    struct il_design d = design();
    struct il_plan p;
    size_t n;
    struct il_run *r = batch(&d, &n, &p);
    assert_int_equal(n, 21 * 3 * 3);
    for (unsigned shards = 1; shards <= 7; shards++) {
        size_t count[8] = {0};
        for (size_t i = 0; i < n; i++)
            count[r[i].block % shards]++;
        size_t lo = n, hi = 0, sum = 0;
        for (unsigned s = 0; s < shards; s++) {
            lo = count[s] < lo ? count[s] : lo;
            hi = count[s] > hi ? count[s] : hi;
            sum += count[s];
        }
        assert_int_equal(sum, n);
        assert_true(hi - lo <= p.ncell); /* at most one block apart */
    }
    free(r);
    il_plan_free(&p);
}

/* every run once: run ids are unique, and each (system, setup, rep) is there */
static void
run_ids_unique(void **state)
{
    (void)state;
    struct il_design d = design();
    d.pin_factor = 1;
    d.warmup = 2;
    struct il_plan p;
    size_t n;
    struct il_run *r = batch(&d, &n, &p);
    assert_int_equal(n, 21 * 6 * (3 + 2));
    char **ids = calloc(n, sizeof *ids);
    for (size_t i = 0; i < n; i++) {
        char id[256];
        il_plan_run_id(&p, &r[i], id, sizeof id);
        ids[i] = strdup(id);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(ids[i], ids[j]);
    }
    for (size_t i = 0; i < n; i++)
        free(ids[i]);
    free(ids);
    free(r);
    il_plan_free(&p);
}

/* warm-up runs come before their setup's first measured run, and do not
 * change the measured runs' order */
static void
warmups_first_order_kept(void **state)
{
    (void)state;
    struct il_design d = design(), dw = design();
    dw.warmup = 2;
    struct il_plan p, pw;
    size_t n, nw;
    struct il_run *r = batch(&d, &n, &p), *rw = batch(&dw, &nw, &pw);
    assert_int_equal(nw, n + 21 * 3 * 2);
    size_t k = 0;
    int measured[21] = {0};
    for (size_t i = 0; i < nw; i++) {
        if (rw[i].warm) {
            assert_int_equal(measured[rw[i].setup], 0);
            continue;
        }
        measured[rw[i].setup] = 1;
        assert_int_equal(rw[i].setup, r[k].setup);
        assert_int_equal(rw[i].cell, r[k].cell);
        assert_int_equal(rw[i].rep, r[k].rep);
        k++;
    }
    assert_int_equal(k, n);
    free(r);
    free(rw);
    il_plan_free(&p);
    il_plan_free(&pw);
}

/* the setup id comes from the factor values only */
static void
setup_ids(void **state)
{
    (void)state;
    char id[128];
    struct il_factors f;
    memset(&f, 0, sizeof f);
    f.env = 64;
    il_setup_id(&f, id, sizeof id);
    assert_string_equal(id, "e64");
    f.layout = "03";
    f.stack_offset = 32;
    f.heap_offset = 4096;
    il_setup_id(&f, id, sizeof id);
    assert_string_equal(id, "e64-l03-s32-h4096");
    f.env_exact = 1;
    f.layout = NULL;
    f.aslr_token = "0badf00d";
    il_setup_id(&f, id, sizeof id);
    assert_string_equal(id, "E64-s32-h4096-a0badf00d");
}

static const char *lay4[] = {"00", "01", "02", "03"};

static struct il_design
design_layouts(size_t setups)
{
    struct il_design d = design();
    d.nlay = 4;
    d.lay = lay4;
    d.setups = setups;
    return d;
}

/* sweep order 2 (outside13 F3): a sample takes every layout once before
 * any twice, each layout meets no other combination twice, and K setups
 * are still a prefix of a larger sample and of its --until batches */
static void
layouts_in_cycles(void **state)
{
    (void)state;
    struct il_design d = design_layouts(23), d2 = design_layouts(83);
    struct il_plan p, big;
    size_t n, count[4] = {0};
    free(batch(&d, &n, &p));
    assert_int_equal(p.n, 84);
    assert_true(p.cycles);
    for (size_t i = 0; i < 23; i++) {
        unsigned long long e, stack, heap;
        long lay;
        il_plan_setup(&p, i, &e, &lay, &stack, &heap);
        count[lay]++;
        size_t lo = count[0], hi = count[0];
        for (int l = 1; l < 4; l++) {
            lo = count[l] < lo ? count[l] : lo;
            hi = count[l] > hi ? count[l] : hi;
        }
        assert_true(hi - lo <= 1);
        for (size_t j = 0; j < i; j++)
            assert_int_not_equal(p.draw[i], p.draw[j]);
    }
    free(batch(&d2, &n, &big));
    for (size_t i = 0; i < 23; i++)
        assert_int_equal(p.draw[i], big.draw[i]);
    /* --until's batches: 23, 46, 84, the last one the rest */
    size_t n1, n2;
    free(il_plan_batch(&p, 1, 0, &n1));
    for (size_t i = 0; i < 46; i++)
        assert_int_equal(p.draw[i], big.draw[i]);
    free(il_plan_batch(&p, 2, 0, &n2));
    assert_int_equal(p.drawn, 84);
    unsigned char seen[84] = {0};
    for (size_t i = 0; i < 84; i++) {
        assert_true(p.draw[i] < 84);
        assert_int_equal(seen[p.draw[i]]++, 0);
    }
    il_plan_free(&p);
    il_plan_free(&big);
}

/* the whole product, and an older plan's sample (fy_draw), keep the one
 * Fisher-Yates over the product: their orders are unchanged */
static void
whole_product_and_older_plans_unchanged(void **state)
{
    (void)state;
    struct il_design all = design_layouts(0), old = design_layouts(23);
    old.fy_draw = 1;
    struct il_plan a, o;
    size_t n;
    free(batch(&all, &n, &a));
    free(batch(&old, &n, &o));
    assert_false(a.cycles);
    assert_false(o.cycles);
    for (size_t i = 0; i < 23; i++)
        assert_int_equal(o.draw[i], a.draw[i]);
    /* and an unchanged Fisher-Yates draw: swap(a[i], a[i + below(n - i)]) */
    struct il_rng g;
    uint32_t ref[84];
    il_rng_init(&g, all.seed, 1);
    for (uint32_t i = 0; i < 84; i++)
        ref[i] = i;
    for (size_t i = 0; i < 84; i++) {
        size_t j = i + il_rng_below(&g, 84 - i);
        uint32_t t = ref[i];
        ref[i] = ref[j];
        ref[j] = t;
        assert_int_equal(a.draw[i], ref[i]);
    }
    il_plan_free(&a);
    il_plan_free(&o);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(draws_are_prefixes), cmocka_unit_test(shards_partition_the_plan),
        cmocka_unit_test(run_ids_unique),     cmocka_unit_test(warmups_first_order_kept),
        cmocka_unit_test(setup_ids),          cmocka_unit_test(layouts_in_cycles),
        cmocka_unit_test(whole_product_and_older_plans_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
