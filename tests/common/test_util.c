/*
 * test_util.c: the helpers every C command shares (common/text.c,
 * common/system.c, il_util.h): sh quoting (the sweep's words and the links file's records),
 * string vectors, whole-file reads, and the PATH search of interloper run,
 * sweep, cc and link.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "il_util.h"

static char *
shell(const char *s, const char *nl)
{
    struct il_buf b = {0};
    il_buf_shell(&b, s, nl);
    return b.p;
}

static void
sh_quoting(void **state)
{
    (void)state;
    char *q = shell("it's", NULL);
    assert_string_equal(q, "'it'\\''s'");
    free(q);
    q = shell("", NULL);
    assert_string_equal(q, "''");
    free(q);
    /* a newline stays inside the quotes, unless it is to be spelled */
    q = shell("a\nb", NULL);
    assert_string_equal(q, "'a\nb'");
    free(q);
    q = shell("a'\nb", "'\"$il_nl\"'");
    assert_string_equal(q, "'a'\\'''\"$il_nl\"'b'");
    free(q);
    struct il_buf b = {0};
    il_buf_word(&b, "plain/word-1.0");
    il_buf_str(&b, " ");
    il_buf_word(&b, "two words");
    il_buf_str(&b, " ");
    il_buf_word(&b, "");
    assert_string_equal(b.p, "plain/word-1.0 'two words' ''");
    il_buf_free(&b);
}

static void
string_vectors(void **state)
{
    (void)state;
    struct il_strv v = {0};
    char word[8];
    for (int i = 0; i < 40; i++) {
        snprintf(word, sizeof word, "w%d", i);
        if (i % 2)
            il_strv_push(&v, word);
        else
            il_strv_push_own(&v, il_xstrdup(word));
    }
    assert_int_equal(v.n, 40);
    assert_string_equal(v.v[0], "w0");
    assert_string_equal(v.v[39], "w39");
    assert_null(v.v[40]); /* usable as an argv */
    il_strv_free(&v);
    assert_null(v.v);
    assert_int_equal(v.n, 0);
}

static char dir[256];

static void
put(const char *name, const void *data, size_t n, int mode)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
    assert_true(fd >= 0);
    assert_int_equal(il_write_full(fd, data, n), 0);
    assert_int_equal(close(fd), 0);
    assert_int_equal(chmod(p, (mode_t)mode), 0);
}

static void
whole_files(void **state)
{
    (void)state;
    char p[512];
    size_t n = 0;
    /* bytes as they are, NULs included, and a terminator after them */
    static const char bin[] = "a\0b\nc";
    put("bin", bin, sizeof bin - 1, 0644);
    snprintf(p, sizeof p, "%s/bin", dir);
    char *s = il_slurp(p, &n);
    assert_non_null(s);
    assert_int_equal(n, sizeof bin - 1);
    assert_memory_equal(s, bin, n);
    assert_int_equal(s[n], 0);
    free(s);
    /* an empty file is an empty string */
    put("empty", "", 0, 0644);
    snprintf(p, sizeof p, "%s/empty", dir);
    s = il_slurp(p, &n);
    assert_non_null(s);
    assert_int_equal(n, 0);
    assert_string_equal(s, "");
    free(s);
    /* larger than a first guess from a size of 0 */
    s = il_slurp("/proc/self/status", &n);
    assert_non_null(s);
    assert_true(n > 0);
    assert_int_equal(strlen(s), n);
    assert_non_null(strstr(s, "Pid:"));
    free(s);
    /* a missing file: NULL, and errno says why */
    snprintf(p, sizeof p, "%s/none", dir);
    errno = 0;
    assert_null(il_slurp(p, &n));
    assert_int_equal(errno, ENOENT);
}

static void
path_search(void **state)
{
    (void)state;
    char p[512], here[512];
    assert_non_null(getcwd(here, sizeof here));
    put("prog", "#!/bin/sh\n", 10, 0755);
    put("data", "x", 1, 0644);
    snprintf(p, sizeof p, "%s/sub", dir);
    assert_int_equal(mkdir(p, 0755), 0);

    /* the first executable regular file of the name in PATH */
    snprintf(p, sizeof p, "/nonexistent:%s", dir);
    assert_int_equal(setenv("PATH", p, 1), 0);
    char *f = il_find_program("prog"), *w = il_which("prog");
    snprintf(p, sizeof p, "%s/prog", dir);
    assert_string_equal(f, p);
    assert_string_equal(w, p);
    free(f);
    free(w);
    assert_null(il_find_program("data")); /* not executable */
    assert_null(il_find_program("sub"));  /* a directory */
    assert_null(il_which("data"));
    assert_null(il_which(""));

    /* an empty entry is the current directory: relative for run and
     * sweep, absolute for cc and link */
    assert_int_equal(chdir(dir), 0);
    assert_int_equal(setenv("PATH", "/nonexistent:", 1), 0);
    f = il_find_program("prog");
    w = il_which("prog");
    assert_string_equal(f, "./prog");
    snprintf(p, sizeof p, "%s/./prog", dir);
    assert_string_equal(w, p);
    free(f);
    free(w);

    /* a name with a '/' is not searched; il_which wants it executable */
    f = il_find_program("./data");
    assert_string_equal(f, "./data");
    free(f);
    assert_null(il_which("./data"));
    w = il_which("./prog");
    assert_string_equal(w, p);
    free(w);
    assert_int_equal(chdir(here), 0);
}

static int
setup(void **state)
{
    (void)state;
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/il-util.XXXXXX", t && *t ? t : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int
teardown(void **state)
{
    (void)state;
    static const char *const names[] = {"bin", "empty", "prog", "data", "sub"};
    char p[512];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (unlink(p) < 0)
            rmdir(p);
    }
    return rmdir(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sh_quoting),
        cmocka_unit_test(string_vectors),
        cmocka_unit_test(whole_files),
        cmocka_unit_test(path_search),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
