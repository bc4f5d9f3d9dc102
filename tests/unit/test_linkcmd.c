/*
 * test_linkcmd.c: the link command model (tools/linkcmd.c), archives
 * (tools/archive.c) and orders (tools/order.c) of interloper link and cc.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "archive.h"
#include "il_names.h"
#include "linkcmd.h"
#include "order.h"

/* ---------------------------------------------------------------- records */
static void
record_round_trip(void **state)
{
    (void)state;
    const char *words[] = {"/tmp/it's here",
                           "/usr/bin/gcc",
                           "-O2",
                           "",
                           "a\nb",
                           "'",
                           "''\n'",
                           "$(rm -rf /) `x` ; \"q\" \\",
                           NULL};
    struct il_buf b = {0};
    il_buf_str(&b, IL_LINK_RECORD);
    for (int i = 0; words[i]; i++) {
        il_buf_str(&b, " ");
        il_record_quote(&b, words[i]);
    }
    assert_null(strchr(b.p, '\n'));
    struct il_strv w = {0};
    assert_int_equal(il_record_parse(b.p, b.n, &w), 0);
    assert_int_equal(w.n, 8);
    for (int i = 0; words[i]; i++)
        assert_string_equal(w.v[i], words[i]);
    il_strv_free(&w);
    il_buf_free(&b);
}

static void
record_format_is_what_sh_reads(void **state)
{
    (void)state;
    struct il_buf b = {0};
    il_record_quote(&b, "it's\nx");
    assert_string_equal(b.p, "'it'\\''s'\"$il_nl\"'x'");
    il_buf_free(&b);
}

static void
record_refuses_what_is_not_one(void **state)
{
    (void)state;
    const char *bad[] = {
        "",
        "il_link",
        "il_link '/tmp'", /* a directory and no command */
        "il_link '/tmp' 'cc' 'a.o'; rm -rf /",
        "il_link '/tmp' 'cc' $(rm -rf /)",
        "il_link '/tmp' 'cc' `rm -rf /`",
        "il_link '/tmp' 'cc' 'a.o'x",
        "il_link '/tmp' 'cc' 'a.o",
        "il_link '/tmp'  'cc'",
        "il_link '/tmp' 'cc' ",
        "il_link '/tmp' 'cc'\r",
        "il_link '/tmp' 'c'\\'",
        "il_link '/tmp' 'c'\"$HOME\"'c'",
        " il_link '/tmp' 'cc'",
        "il_links '/tmp' 'cc'",
        "rm -rf /",
        NULL,
    };
    struct il_strv w = {0};
    for (int i = 0; bad[i]; i++) {
        if (il_record_parse(bad[i], strlen(bad[i]), &w) != -1)
            fail_msg("accepted: %s", bad[i]);
    }
    /* a NUL byte anywhere */
    const char nul[] = "il_link '/tmp' 'cc' 'a\0.o'";
    assert_int_equal(il_record_parse(nul, sizeof nul - 1, &w), -1);
    assert_int_equal(w.n, 0);
}

static void
record_file_line_numbers(void **state)
{
    (void)state;
    char path[] = "/tmp/il-test-links.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char text[] = "il_link '/a' 'cc' '-o' 'one' 'x.o'\n"
                        "il_link '/b' 'cc' '-o' 'dir/two' 'y.o'\n"
                        "il_link '/c' 'cc' '-o' 'one' 'z.o'\n";
    assert_int_equal(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    struct il_strv w = {0};
    long bad = 0;
    assert_int_equal(il_record_read(path, NULL, &w, &bad), 1);
    assert_string_equal(w.v[0], "/c");
    assert_int_equal(il_record_read(path, "two", &w, &bad), 1);
    assert_string_equal(w.v[0], "/b");
    assert_int_equal(il_record_read(path, "dir/two", &w, &bad), 1);
    assert_int_equal(il_record_read(path, "three", &w, &bad), 0);
    assert_int_equal(write(fd, "il_link '/d' 'cc' 'a.o'\0\n", 25), 25);
    assert_int_equal(il_record_read(path, NULL, &w, &bad), -1);
    assert_int_equal(bad, 4);
    il_strv_free(&w);
    close(fd);
    unlink(path);
}

/* ---------------------------------------------------------------- scanning */
static void
scan_classifies(void **state)
{
    (void)state;
    char *argv[] = {"gcc",          "-O2",   "-o",       "prog",
                    "main.o",       "-L",    "lib",      "-Lother",
                    "-T",           "x.o",   "util.o",   "-lbz2",
                    "-l",           "m",     "x.a",      "/usr/lib/crt1.o",
                    "-Wl,-Bstatic", "-lfoo", "-Xlinker", "-Bdynamic",
                    "-lbar",        "-MF",   "dep.o"};
    size_t n = sizeof argv / sizeof argv[0];
    struct il_scan s;
    il_scan(argv, n, &s);
    enum il_arg want[] = {
        IL_ARG_DRIVER, IL_ARG_OPTION,  IL_ARG_OPTION,  IL_ARG_OUTPUT, IL_ARG_OBJECT, IL_ARG_OPTION,
        IL_ARG_VALUE,  IL_ARG_OPTION,  IL_ARG_OPTION,  IL_ARG_VALUE,  IL_ARG_OBJECT, IL_ARG_LIBRARY,
        IL_ARG_OPTION, IL_ARG_LIBRARY, IL_ARG_ARCHIVE, IL_ARG_START,  IL_ARG_OPTION, IL_ARG_LIBRARY,
        IL_ARG_OPTION, IL_ARG_VALUE,   IL_ARG_LIBRARY, IL_ARG_OPTION, IL_ARG_VALUE};
    for (size_t i = 0; i < n; i++)
        if (s.kind[i] != want[i])
            fail_msg("argument %zu (%s): kind %d, expected %d", i, argv[i], s.kind[i], want[i]);
    assert_int_equal(s.nobj, 2);
    assert_int_equal(s.out, 3);
    assert_false(s.out_joined);
    assert_false(s.compile_only);
    assert_false(s.raw_ld);
    assert_string_equal(il_scan_output(argv, &s), "prog");
    assert_int_equal(s.libdirs.n, 2);
    assert_string_equal(s.libdirs.v[0], "lib");
    assert_string_equal(s.libdirs.v[1], "other");
    assert_int_equal(s.static_at[11], 0); /* -lbz2 */
    assert_int_equal(s.static_at[17], 1); /* -lfoo after -Wl,-Bstatic */
    assert_int_equal(s.static_at[20], 0); /* -lbar after -Xlinker -Bdynamic */
    il_scan_free(&s);

    char *cc[] = {"cc", "-static", "-c", "-oout.o", "-lz", "a.o"};
    il_scan(cc, 6, &s);
    assert_true(s.compile_only);
    assert_true(s.out_joined);
    assert_string_equal(il_scan_output(cc, &s), "out.o");
    assert_int_equal(s.static_at[4], 1); /* a driver's -static covers every -l */
    il_scan_free(&s);

    char *dangling[] = {"cc", "a.o", "-o"};
    il_scan(dangling, 3, &s);
    assert_true(s.dangling);
    assert_string_equal(il_scan_output(dangling, &s), "a.out");
    il_scan_free(&s);
}

static void
linker_names(void **state)
{
    (void)state;
    const char *yes[] = {"ld",     "/usr/bin/ld",         "ld.lld",
                         "ld.bfd", "x86_64-linux-gnu-ld", "aarch64-linux-gnu-ld.gold",
                         NULL};
    const char *no[] = {"gcc", "cc", "clang", "ldd", "old", "gold", "x-ldx", "/usr/ld/gcc", NULL};
    for (int i = 0; yes[i]; i++)
        if (!il_is_linker(yes[i]))
            fail_msg("%s is a linker", yes[i]);
    for (int i = 0; no[i]; i++)
        if (il_is_linker(no[i]))
            fail_msg("%s is not a linker", no[i]);
}

/* ---------------------------------------------------------------- archives */
static void
header(FILE *f, const char *name, size_t size)
{
    fprintf(f, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0", "644", size);
}

static void
member(FILE *f, const char *name, const char *data, size_t size)
{
    header(f, name, size);
    fwrite(data, 1, size, f);
    if (size & 1)
        fputc('\n', f);
}

static char *
write_archive(int thin)
{
    char *path = strdup("/tmp/il-test-ar.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(thin ? "!<thin>\n" : "!<arch>\n", f);
    member(f, "/", "\0\0\0\0", 4); /* an empty symbol table */
    const char longnames[] = "a_rather_long_member_name.o/\n";
    member(f, "//", longnames, sizeof longnames - 1);
    member(f, "short.o/", "\177ELF-short", 10);
    member(f, "/0", "\177ELF-long!", 10);
    member(f, "short.o/", "\177ELF-dup2", 9);
    member(f, "notes.txt/", "hello", 5);
    member(f, "#1/8", "bsd_n.o\0\177ELF", 12);
    fclose(f);
    return path;
}

static void
archive_members(void **state)
{
    (void)state;
    char *path = write_archive(0);
    struct il_archive a;
    char msg[256];
    assert_int_equal(il_ar_open(&a, path, "/", msg, sizeof msg), 0);
    assert_int_equal(a.n, 5);
    const char *names[] = {"short.o", "a_rather_long_member_name.o", "short.o", "notes.txt",
                           "bsd_n.o"};
    const int object[] = {1, 1, 1, 0, 1}, dup[] = {1, 1, 2, 1, 1};
    for (size_t i = 0; i < 5; i++) {
        assert_string_equal(a.m[i].name, names[i]);
        assert_int_equal(a.m[i].object, object[i]);
        assert_int_equal(a.m[i].dup, dup[i]);
    }
    char out[] = "/tmp/il-test-member.XXXXXX";
    int fd = mkstemp(out);
    close(fd);
    unlink(out);
    assert_int_equal(il_ar_extract(&a, &a.m[2], out), 0);
    size_t n;
    FILE *f = fopen(out, "r");
    char buf[32];
    n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_int_equal(n, 9);
    assert_memory_equal(buf, "\177ELF-dup2", 9);
    assert_int_equal(il_ar_extract(&a, &a.m[4], out), -1); /* never overwrites */
    unlink(out);

    /* which members a link used, from either trace format */
    char used[5];
    const char *dupname = NULL;
    char *trace = NULL;
    assert_true(
        asprintf(&trace,
                 "/usr/bin/ld: mode elf_x86_64\nmain.o\n%s\n(%s)a_rather_long_member_name.o\n"
                 "%s(bsd_n.o)\n(other.a)short.o\n",
                 path, path, path) > 0);
    assert_int_equal(il_ar_used(&a, trace, "/", used, &dupname), 2);
    const char want[] = {0, 1, 0, 0, 1};
    assert_memory_equal(used, want, 5);
    free(trace);
    /* short.o twice in the archive, loaded once: which one is unknown */
    assert_true(asprintf(&trace, "(%s)short.o\n", path) > 0);
    assert_int_equal(il_ar_used(&a, trace, "/", used, &dupname), -1);
    assert_string_equal(dupname, "short.o");
    free(trace);
    assert_true(asprintf(&trace, "%s(short.o)\n%s(short.o)\n", path, path) > 0);
    assert_int_equal(il_ar_used(&a, trace, "/", used, &dupname), 2);
    free(trace);
    il_ar_close(&a);
    unlink(path);
    free(path);
}

static void
archive_refuses_garbage(void **state)
{
    (void)state;
    char path[] = "/tmp/il-test-ar.XXXXXX";
    int fd = mkstemp(path);
    assert_int_equal(write(fd, "!<arch>\nshort.o/        0   ", 28), 28);
    close(fd);
    struct il_archive a;
    char msg[256];
    assert_int_equal(il_ar_open(&a, path, "/", msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "bad member header"));
    il_ar_close(&a);
    fd = open(path, O_WRONLY | O_TRUNC);
    assert_int_equal(write(fd, "GARBAGE!", 8), 8);
    close(fd);
    assert_int_equal(il_ar_open(&a, path, "/", msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "not an ar archive"));
    il_ar_close(&a);
    unlink(path);
}

/* ---------------------------------------------------------------- orders */
static void
orders_original_alphabetical_random(void **state)
{
    (void)state;
    char *names[] = {"c.o", "a.o", "b.o", "d.o", "e.o"};
    struct il_orders o;
    uint64_t fact, maxk;
    assert_int_equal(il_orders_make(names, 5, 5, 42, &o, &fact, &maxk), 0);
    const uint32_t want[5][5] = {
        {0, 1, 2, 3, 4}, {1, 2, 0, 3, 4}, {3, 1, 0, 2, 4}, {3, 4, 2, 0, 1}, {2, 3, 1, 0, 4}};
    for (size_t j = 0; j < 5; j++)
        assert_memory_equal(il_order(&o, j), want[j], sizeof want[j]);
    assert_string_equal(o.kind[0], IL_KIND_ORIGINAL);
    assert_string_equal(o.kind[1], IL_KIND_ALPHABETICAL);
    assert_string_equal(o.kind[4], IL_KIND_RANDOM);
    assert_false(o.same01);
    il_orders_free(&o);
}

static void
orders_all_distinct_and_bounded(void **state)
{
    (void)state;
    char *names[] = {"a.o", "b.o", "c.o"};
    struct il_orders o;
    uint64_t fact, maxk;
    /* a.o b.o c.o: the alphabetical order is the original one */
    assert_int_equal(il_orders_make(names, 3, 8, 1, &o, &fact, &maxk), -1);
    assert_int_equal(fact, 6);
    assert_int_equal(maxk, 7); /* binary 1 repeats binary 0: 6 distinct + 1 */
    assert_int_equal(il_orders_make(names, 3, 7, 1, &o, &fact, &maxk), 0);
    assert_true(o.same01);
    for (size_t i = 1; i < 7; i++)
        for (size_t j = i + 1; j < 7; j++)
            assert_memory_not_equal(il_order(&o, i), il_order(&o, j), 3 * sizeof(uint32_t));
    il_orders_free(&o);
    char *one[] = {"x.o"};
    assert_int_equal(il_orders_make(one, 1, 3, 1, &o, &fact, &maxk), -1);
    assert_int_equal(maxk, 2);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_round_trip),
        cmocka_unit_test(record_format_is_what_sh_reads),
        cmocka_unit_test(record_refuses_what_is_not_one),
        cmocka_unit_test(record_file_line_numbers),
        cmocka_unit_test(scan_classifies),
        cmocka_unit_test(linker_names),
        cmocka_unit_test(archive_members),
        cmocka_unit_test(archive_refuses_garbage),
        cmocka_unit_test(orders_original_alphabetical_random),
        cmocka_unit_test(orders_all_distinct_and_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
