/* Unit tests: the library's symbol lookup (interposer/gnuhash.h) on GNU
 * hash tables built here, whose string table ends where a page that
 * cannot be read begins: a name compared past the table's end faults. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gnuhash.h"

#define STRSZ 64

/* One object: a Bloom filter that lets every hash through, one bucket,
 * one chain of the given symbols (all with hash h), and a string table
 * whose last byte is the last one readable. */
struct fake {
    char *page;
    size_t psz;
    struct dso d;
};

static void
fake_init(struct fake *f, uint32_t h, const uint32_t *names, int n)
{
    f->psz = (size_t)sysconf(_SC_PAGESIZE);
    f->page = mmap(NULL, 2 * f->psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(f->page != MAP_FAILED);
    assert_int_equal(mprotect(f->page + f->psz, f->psz, PROT_NONE), 0);
    ElfW(Addr) *bloom = (ElfW(Addr) *)f->page;
    bloom[0] = ~(ElfW(Addr))0;
    uint32_t *buckets = (uint32_t *)(bloom + 1), *chain = buckets + 1;
    buckets[0] = 0;
    for (int i = 0; i < n; i++)
        chain[i] = i == n - 1 ? h | 1 : h & ~1u;
    ElfW(Sym) *sym = (ElfW(Sym) *)(f->page + 256);
    for (int i = 0; i < n; i++)
        sym[i] = (ElfW(Sym)){.st_name = names[i],
                             .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
                             .st_shndx = 1,
                             .st_value = 0x100 * (uint32_t)(i + 1)};
    f->d = (struct dso){.base = 0x10000,
                        .sym = sym,
                        .str = f->page + f->psz - STRSZ,
                        .strsz = STRSZ,
                        .nbuckets = 1,
                        .bloom = bloom,
                        .buckets = buckets,
                        .chain = chain};
}

static void
put(struct fake *f, uint32_t at, const char *s)
{
    memcpy(f->page + f->psz - STRSZ + at, s, strlen(s) + 1);
}

static uintptr_t
look(const struct fake *f, const char *name, uint32_t h)
{
    return dso_lookup(&f->d, name, strlen(name) + 1, h, DSO_BLOOM_WORD(h));
}

/* A shorter name with the same hash is the table's last string (a hash
 * collision): it is not read past the table, and the real one is found. */
static void
test_short_last_string(void **state)
{
    (void)state;
    struct fake f;
    const uint32_t at[] = {STRSZ - 3, 1}; /* "ex", then "exit" */
    fake_init(&f, 0x1234, at, 2);
    put(&f, 1, "exit");
    put(&f, STRSZ - 3, "ex");
    assert_int_equal(look(&f, "exit", 0x1234), 0x10000 + 0x200);
    /* a name of eight bytes or more: the word loop's path */
    const uint32_t at2[] = {STRSZ - 6, 8}; /* "_IO_l", then "_IO_list_lock" */
    munmap(f.page, 2 * f.psz);
    fake_init(&f, 0x5678, at2, 2);
    put(&f, 8, "_IO_list_lock");
    put(&f, STRSZ - 6, "_IO_l");
    assert_int_equal(look(&f, "_IO_list_lock", 0x5678), 0x10000 + 0x200);
    assert_int_equal(look(&f, "_IO_list_lockx", 0x5678), 0);
    munmap(f.page, 2 * f.psz);
}

/* The name that ends the table exactly is found. */
static void
test_last_string_found(void **state)
{
    (void)state;
    struct fake f;
    const uint32_t at[] = {STRSZ - 5, STRSZ - 18};
    fake_init(&f, 0x42, at, 2);
    put(&f, STRSZ - 18, "_IO_list_all");
    put(&f, STRSZ - 5, "exit");
    assert_int_equal(look(&f, "exit", 0x42), 0x10000 + 0x100);
    assert_int_equal(look(&f, "_IO_list_all", 0x42), 0x10000 + 0x200);
    assert_int_equal(look(&f, "exi", 0x42), 0);
    /* another hash: the chain's entries are not compared */
    assert_int_equal(look(&f, "exit", 0x44), 0);
    munmap(f.page, 2 * f.psz);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_last_string),
        cmocka_unit_test(test_last_string_found),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
