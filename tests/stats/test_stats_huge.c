/*
 * test_stats_huge.c: il_huge (stats/input.c), the huge-page advice on the
 * large columns.  It relies on how glibc lays out a block of
 * M_MMAP_THRESHOLD or more (a mapping of its own, the memory 16 bytes
 * past its start): these tests fail where that no longer holds, where the
 * advice would silently miss.  /proc/self/smaps says what the kernel made
 * of it: the mapping's VmFlags hold "hg" once advised.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "il_stats.h"

/* The mapping of /proc/self/smaps that holds address a: its bounds, and
 * whether its VmFlags hold "hg" (MADV_HUGEPAGE); 0 when none holds a. */
static int
mapping_of(const void *a, uintptr_t *lo, uintptr_t *hi, int *hg)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    int in = 0, found = 0;
    uintptr_t x = (uintptr_t)a;
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        unsigned long s, e;
        if (sscanf(line, "%lx-%lx ", &s, &e) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = x >= s && x < e;
            if (in) {
                *lo = s;
                *hi = e;
                found = 1;
            }
        } else if (in && strncmp(line, "VmFlags:", 8) == 0) {
            *hg = strstr(line, " hg") != NULL;
        }
    }
    fclose(f);
    return found;
}

static int
thp_kernel(void)
{
    return access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0;
}

/* A large block's whole mapping is advised, as one mapping still: the
 * block's first and last bytes lie in it, and realloc grows it (mremap)
 * with its contents. */
static void
large_block_advised_whole(void **state)
{
    (void)state;
    if (!thp_kernel())
        skip(); /* a kernel without transparent huge pages: madvise refuses */
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    size_t n = 8u << 20;
    char *p = malloc(n);
    assert_non_null(p);
    memset(p, 7, n);
    assert_ptr_equal(il_huge(p, n), p);
    uintptr_t lo = 0, hi = 0;
    int hg = 0;
    assert_true(mapping_of(p, &lo, &hi, &hg));
    assert_true(hg);
    assert_true(lo <= (uintptr_t)p - 16);
    assert_true(hi >= (uintptr_t)p + n);
    p = realloc(p, 2 * n);
    assert_non_null(p);
    for (size_t i = 0; i < n; i += 4096)
        assert_int_equal(p[i], 7);
    assert_int_equal(p[n - 1], 7);
    memset(p + n, 9, n);
    assert_ptr_equal(il_huge(p, 2 * n), p);
    assert_true(mapping_of(p + 2 * n - 1, &lo, &hi, &hg));
    assert_true(hg);
    assert_true(lo <= (uintptr_t)p - 16);
    free(p);
}

/* Below IL_HUGE_MIN (2 MiB) nothing is advised, nor is NULL. */
static void
small_block_not_advised(void **state)
{
    (void)state;
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    size_t n = 1u << 20;
    char *p = malloc(n);
    assert_non_null(p);
    assert_ptr_equal(il_huge(p, n), p);
    uintptr_t lo = 0, hi = 0;
    int hg = 1;
    assert_true(mapping_of(p, &lo, &hi, &hg));
    assert_false(hg);
    free(p);
    assert_null(il_huge(NULL, 8u << 20));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(large_block_advised_whole),
        cmocka_unit_test(small_block_not_advised),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
