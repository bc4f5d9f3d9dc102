/*
 * test_sha256.c: common/sha256.c against the examples of FIPS 180-4 (and
 * its appendix's one million 'a's), and fed in pieces of every size.
 * tests/system/sweep.sh compares it with sha256sum(1) on real files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "il_sha256.h"

static void
standard_examples(void **state)
{
    (void)state;
    static const struct {
        const char *in, *want;
    } v[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopq"
         "rlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char hex[65];
        il_sha256_hex(v[i].in, strlen(v[i].in), hex);
        assert_string_equal(hex, v[i].want);
    }
}

static void
a_million_as(void **state)
{
    (void)state;
    struct il_sha256 c;
    unsigned char d[32], a[1000];
    memset(a, 'a', sizeof a);
    il_sha256_init(&c);
    for (int i = 0; i < 1000; i++)
        il_sha256_update(&c, a, sizeof a);
    il_sha256_final(&c, d);
    static const unsigned char want[32] = {0xcd, 0xc7, 0x6e, 0x5c, 0x99, 0x14, 0xfb, 0x92,
                                           0x81, 0xa1, 0xc7, 0xe2, 0x84, 0xd7, 0x3e, 0x67,
                                           0xf1, 0x80, 0x9a, 0x48, 0xa4, 0x97, 0x20, 0x0e,
                                           0x04, 0x6d, 0x39, 0xcc, 0xc7, 0x11, 0x2c, 0xd0};
    assert_memory_equal(d, want, 32);
}

/* every split of 0..200 bytes into two pieces gives the digest of the
 * whole: the partial blocks are carried right */
static void
pieces(void **state)
{
    (void)state;
    unsigned char m[200];
    for (size_t i = 0; i < sizeof m; i++)
        m[i] = (unsigned char)(i * 7 + 3);
    for (size_t n = 0; n <= sizeof m; n++) {
        for (size_t cut = 0; cut <= n; cut += 13) {
            struct il_sha256 c;
            unsigned char d[32], d2[32];
            il_sha256_init(&c);
            il_sha256_update(&c, m, cut);
            il_sha256_update(&c, m + cut, n - cut);
            il_sha256_final(&c, d);
            il_sha256_init(&c);
            il_sha256_update(&c, m, n);
            il_sha256_final(&c, d2);
            assert_memory_equal(d, d2, 32);
        }
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(standard_examples),
        cmocka_unit_test(a_million_as),
        cmocka_unit_test(pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
