/* Unit tests: record building (interposer/record.c, util.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "il.h"

static char *argv_fixture[] = {"./prog", "quote\"and\\slash", "bad\xff\xfeutf8", "tab\there",
                               NULL};

static json_t *
build(enum il_how how, int status, int sig, const char *exec_path, size_t *len)
{
    memset(&il, 0, sizeof il);
    il.out_fd = -1;
    il.pid = getpid();
    il.argc = 4;
    il.argv = argv_fixture;
    il.backend = IL_BACKEND_PERF;
    il.env_bytes = 1234;
    il.env_vars = 7;
    il.argv_bytes = 42;
    il.main_sp = 0x7ffffffde000;
    il.stack_offset = 4096;
    il.cfg.stack_offset_req = 4100;
    il.nev = 2;
    strcpy(il.ev[0].name, "task-clock");
    il.ev[0].ok = 1;
    il.ev[0].value = 123456;
    il.ev[0].enabled = 200;
    il.ev[0].running = 100;
    il.ev[0].floor = 77;
    il.ev[0].floor_ok = 1;
    strcpy(il.ev[1].name, "we\"ird");
    il.ev[1].ok = 0;
    strcpy(il.ev[1].error, "not supported here");
    il.cfg.nerrors = 1;
    strcpy(il.cfg.errors[0], "INTERLOPER_BACKEND=fast: unknown backend");
    il.t0.tv_sec = 10;
    il.t1.tv_sec = 11;
    il.t1.tv_nsec = 5;
    assert_int_equal(il_arena_init(1 << 20), 0);
    assert_int_equal(il_record_prefix(), 0);
    *len = il_record_finish(how, status, sig, exec_path);
    assert_true(*len > 2);
    assert_int_equal(il.buf[*len - 1], '\n');
    /* exactly one line */
    assert_ptr_equal(memchr(il.buf, '\n', *len), il.buf + *len - 1);
    json_error_t e;
    json_t *r = json_loadb(il.buf, *len, 0, &e);
    if (!r)
        fail_msg("record is not JSON: %s: %.*s", e.text, (int)*len, il.buf);
    return r;
}

static void
test_record_fields(void **state)
{
    (void)state;
    size_t n;
    json_t *r = build(IL_HOW_EXIT, 3, 0, NULL, &n);
    assert_string_equal(json_string_value(json_object_get(r, "schema")), "interloper/1");
    assert_true(json_is_object(json_object_get(r, "labels")));
    assert_int_equal(json_integer_value(json_object_get(r, "pid")), getpid());
    json_t *argv = json_object_get(r, "argv");
    assert_int_equal(json_array_size(argv), 4);
    assert_string_equal(json_string_value(json_array_get(argv, 1)), "quote\"and\\slash");
    /* invalid UTF-8 becomes U+FFFD, so the line stays valid JSON */
    assert_string_equal(json_string_value(json_array_get(argv, 2)), "bad\xef\xbf\xbd\xef\xbf\xbdutf8");
    json_t *ex = json_object_get(r, "exit");
    assert_string_equal(json_string_value(json_object_get(ex, "how")), "exit");
    assert_int_equal(json_integer_value(json_object_get(ex, "status")), 3);
    json_t *ev = json_object_get(json_object_get(r, "events"), "task-clock");
    assert_int_equal(json_integer_value(json_object_get(ev, "value")), 123456);
    assert_int_equal(json_integer_value(json_object_get(ev, "enabled_ns")), 200);
    assert_int_equal(json_integer_value(json_object_get(ev, "running_ns")), 100);
    json_t *bad = json_object_get(json_object_get(r, "events"), "we\"ird");
    assert_true(json_is_null(json_object_get(bad, "value")));
    assert_string_equal(json_string_value(json_object_get(bad, "error")), "not supported here");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "floor"), "task-clock")),
                     77);
    assert_null(json_object_get(json_object_get(r, "floor"), "we\"ird"));
    json_t *s = json_object_get(r, "setup");
    assert_int_equal(json_integer_value(json_object_get(s, "env_bytes")), 1234);
    assert_int_equal(json_integer_value(json_object_get(s, "stack_offset")), 4096);
    assert_int_equal(json_integer_value(json_object_get(s, "stack_offset_requested")), 4100);
    assert_string_equal(json_string_value(json_object_get(s, "main_sp")), "0x7ffffffde000");
    assert_int_equal(
        json_integer_value(json_object_get(json_object_get(r, "times"), "wall_ns")), 1000000005);
    json_t *errs = json_object_get(r, "errors");
    assert_int_equal(json_array_size(errs), 1);
    assert_string_equal(json_string_value(json_array_get(errs, 0)),
                        "INTERLOPER_BACKEND=fast: unknown backend");
    json_decref(r);
}

static void
test_record_signal_and_exec(void **state)
{
    (void)state;
    size_t n;
    json_t *r = build(IL_HOW_SIGNAL, 0, 11, NULL, &n);
    json_t *ex = json_object_get(r, "exit");
    assert_string_equal(json_string_value(json_object_get(ex, "how")), "signal");
    assert_true(json_is_null(json_object_get(ex, "status")));
    assert_int_equal(json_integer_value(json_object_get(ex, "signal")), 11);
    json_decref(r);

    r = build(IL_HOW_EXEC, 0, 0, "/bin/\"echo\"", &n);
    ex = json_object_get(r, "exit");
    assert_string_equal(json_string_value(json_object_get(ex, "how")), "exec");
    assert_string_equal(json_string_value(json_object_get(ex, "exec")), "/bin/\"echo\"");
    json_decref(r);
}

static void
test_record_premain(void **state)
{
    (void)state;
    char buf[4096];
    memset(&il, 0, sizeof il);
    size_t n = il_record_premain(buf, sizeof buf, IL_HOW__EXIT, 7, 0, NULL);
    json_error_t e;
    json_t *r = json_loadb(buf, n, 0, &e);
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "exit"), "how")),
                        "_exit");
    assert_non_null(strstr(json_string_value(json_array_get(json_object_get(r, "errors"), 0)),
                           "before main"));
    json_decref(r);
}

static void
test_utf8_sanitize(void **state)
{
    (void)state;
    char out[64];
    assert_int_equal(il_utf8_sanitize("h\xc3\xa9llo", 6, out, sizeof out), 6);
    assert_string_equal(out, "h\xc3\xa9llo");
    /* overlong, surrogate and truncated sequences are replaced */
    il_utf8_sanitize("\xc0\xaf", 2, out, sizeof out);
    assert_string_equal(out, "\xef\xbf\xbd\xef\xbf\xbd");
    il_utf8_sanitize("\xed\xa0\x80", 3, out, sizeof out);
    assert_string_equal(out, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    il_utf8_sanitize("ab\xe2\x82", 4, out, sizeof out);
    assert_string_equal(out, "ab\xef\xbf\xbd\xef\xbf\xbd");
}

static void
test_formatting(void **state)
{
    (void)state;
    char b[40];
    struct timespec ts = {0, 0};
    il_iso8601(&ts, b);
    assert_string_equal(b, "1970-01-01T00:00:00Z");
    ts.tv_sec = 951782400; /* a leap day */
    il_iso8601(&ts, b);
    assert_string_equal(b, "2000-02-29T00:00:00Z");
    ts.tv_sec = 1795351245;
    il_iso8601(&ts, b);
    assert_string_equal(b, "2026-11-22T12:40:45Z");
    il_fmt_u64(b, 18446744073709551615ULL);
    assert_string_equal(b, "18446744073709551615");
    il_fmt_i64(b, -42);
    assert_string_equal(b, "-42");
    il_fmt_hex(b, 0x7ffffffde000ULL);
    assert_string_equal(b, "0x7ffffffde000");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_fields), cmocka_unit_test(test_record_signal_and_exec),
        cmocka_unit_test(test_record_premain), cmocka_unit_test(test_utf8_sanitize),
        cmocka_unit_test(test_formatting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
