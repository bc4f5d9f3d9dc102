/* Unit tests: record building (interposer/record_json.c, sigsafe.c). */
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
#include "il_summary.h"

static char *argv_fixture[] = {"./prog", "quote\"and\\slash", "bad\xff\xfeutf8", "tab\there", NULL};

static json_t *
build(enum il_how how, int status, int sig, const char *exec_path, size_t *len)
{
    memset(&il, 0, sizeof il);
    il.err_fd = -1;
    il.pid = getpid();
    il.argc = 4;
    il.argv = argv_fixture;
    il.be = &il_backend_perf;
    il.inherit = IL_INHERIT_ALL;
    il.env_bytes = 1234;
    il.env_vars = 7;
    il.argv_bytes = 42;
    il.main_sp = 0x7ffffffde000;
    il.main_tail = 1;
    il.stack_offset = 4096;
    il.cfg.stack_offset_req = 4100;
    strcpy(il.cpus, "0-1,3");
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
    il.ru0.ru_nvcsw = 3;
    il.ru1.ru_nvcsw = 10;
    il.ru1.ru_nivcsw = 2;
    il.ru0c.ru_nvcsw = 1;
    il.ru1c.ru_nvcsw = 5;
    il.end_how = how;
    il.end_status = status;
    il.end_sig = sig;
    il.end_exec = exec_path;
    assert_int_equal(il_record_prefix(), 0);
    *len = il_record_finish();
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
    assert_string_equal(json_string_value(json_array_get(argv, 2)),
                        "bad\xef\xbf\xbd\xef\xbf\xbdutf8");
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
    assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "times"), "wall_ns")),
                     1000000005);
    /* context switches: own plus waited-for children's, under INHERIT=all */
    json_t *cs = json_object_get(r, IL_F_CTX);
    assert_int_equal(json_integer_value(json_object_get(cs, IL_F_VOLUNTARY)), 7 + 4);
    assert_int_equal(json_integer_value(json_object_get(cs, IL_F_INVOLUNTARY)), 2);
    assert_string_equal(json_string_value(json_object_get(s, IL_F_CPUS)), "0-1,3");
    assert_string_equal(json_string_value(json_object_get(s, IL_F_MAIN_ENTRY)), "tail");
    assert_int_equal(json_integer_value(json_object_get(s, IL_F_MAIN_RESIDUE)), 0);
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
    il.end_how = IL_HOW__EXIT;
    il.end_status = 7;
    size_t n = il_record_premain(buf, sizeof buf, 0);
    json_error_t e;
    json_t *r = json_loadb(buf, n, 0, &e);
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "exit"), "how")),
                        "_exit");
    assert_non_null(
        strstr(json_string_value(json_array_get(json_object_get(r, "errors"), 0)), "before main"));
    json_decref(r);
    /* main reached without the record's buffer: no such note */
    n = il_record_premain(buf, sizeof buf, 1);
    r = json_loadb(buf, n, 0, &e);
    assert_non_null(r);
    assert_int_equal(json_array_size(json_object_get(r, "errors")), 0);
    json_decref(r);
}

/* Every byte value in argv: the record stays one valid JSON line, the
 * string comes back as the bytes made valid UTF-8 (compared with Python's
 * errors="replace" decoding, up to its grouping of bad sequences). */
static void
test_every_byte(void **state)
{
    (void)state;
    static char all[256];
    for (int i = 1; i < 256; i++)
        all[i - 1] = (char)i;
    static char *argv_all[] = {all, NULL};
    size_t n;
    json_decref(build(IL_HOW_EXIT, 0, 0, NULL, &n));
    il.argv = argv_all;
    il.argc = 1;
    assert_int_equal(il_record_prefix(), 0);
    n = il_record_finish();
    json_error_t e;
    json_t *r = json_loadb(il.buf, n, 0, &e);
    if (!r)
        fail_msg("not JSON: %s", e.text);
    const char *got = json_string_value(json_array_get(json_object_get(r, "argv"), 0));
    /* ASCII round-trips exactly; each byte >= 0x80 (none forms a valid
     * sequence in this order but c2..f4 followed by 80..bf, which do not
     * occur here) becomes U+FFFD */
    for (int i = 1; i < 128; i++)
        assert_int_equal((unsigned char)got[i - 1], i);
    for (int i = 128; i < 256; i++)
        assert_memory_equal(got + 127 + 3 * (i - 128), "\xef\xbf\xbd", 3);
    json_decref(r);
}

/* The shared formatter, as interloper record summary and the library use
 * it: every number and reason appears, multiplexing is shown. */
static void
test_summary_format(void **state)
{
    (void)state;
    static const char *const argv[] = {"./prog", "x"};
    struct il_summary_event ev[2] = {
        {"cycles", 1, 1234567, 1, 80, 1, 1000, 250, NULL},
        {"instructions", 0, 0, 0, 0, 0, 0, 0, "not supported here"},
    };
    struct il_summary s;
    memset(&s, 0, sizeof s);
    s.argv = argv;
    s.argc = 2;
    s.pid = 42;
    s.how = "exit";
    s.has_status = 1;
    s.status = 3;
    s.backend = "perf";
    s.nev = 2;
    s.ev = ev;
    s.has_times = 1;
    s.wall_ns = 1500000000;
    s.user_ns = 1000;
    s.maxrss_kib = 2048;
    s.has_ctx = 1;
    s.ctx_voluntary = 5;
    s.has_setup = 1;
    s.cpus = "0-1";
    s.main_sp = "0x7ff0";
    s.main_entry = "tail";
    char out[4096];
    size_t n = il_summary_format(&s, out, sizeof out);
    assert_int_equal(strlen(out), n);
    assert_non_null(
        strstr(out, "Performance counter stats for './prog x' (pid 42, exit 3, backend perf)"));
    assert_non_null(strstr(out, "1,234,567      cycles"));
    assert_non_null(strstr(out, "# floor 80  (25.00% running, multiplexed)"));
    assert_non_null(
        strstr(out, "<not counted>      instructions             # not supported here"));
    assert_non_null(strstr(out, "1.500000000 seconds time elapsed"));
    assert_non_null(strstr(out, "2048 KiB maximum resident set"));
    assert_non_null(strstr(out, "5 voluntary and 0 involuntary context switches"));
    assert_non_null(strstr(out, "CPUs 0-1"));
    assert_non_null(strstr(out, "entry tail"));
    /* clock events in msec, as perf stat prints them, with perf's CPUs
     * utilized; their floor in usec; rounding carries into the integer */
    struct il_summary_event clk[2] = {
        {"task-clock", 1, 949084999, 1, 2904, 0, 0, 0, NULL},
        {"cpu-clock", 1, 1999995, 0, 0, 0, 0, 0, NULL},
    };
    s.ev = clk;
    n = il_summary_format(&s, out, sizeof out);
    assert_non_null(strstr(out, "            949.08 msec task-clock               # 0.633 CPUs "
                                "utilized, floor 2.90 usec\n"));
    assert_non_null(strstr(out, "              2.00 msec cpu-clock                # 0.001 CPUs "
                                "utilized\n"));
    s.ev = ev;
    /* cut to fit, and terminated */
    n = il_summary_format(&s, out, 40);
    assert_int_equal(n, 39);
    assert_int_equal(out[39], 0);
}

/* Cut to fit at every size: the text in a buffer of k bytes is the first
 * k - 1 bytes of the whole, whichever of the formatter's copies (with room
 * checks per piece, or without where the buffer has room for a whole
 * event's line or tail) wrote each part, and wherever a piece is cut:
 * each event kind, widest numbers, long strings, an error. */
static void
test_summary_every_cut(void **state)
{
    (void)state;
    static const char *const argv[] = {"./prog", "an argument long enough to be cut somewhere"};
    static const char *const errors[] = {"INTERLOPER_X=y: a problem"};
    struct il_summary_event ev[4] = {
        {"task-clock", 1, 949084999, 1, 2904, 1, 1000, 250, NULL, 10},
        {"cycles", 1, UINT64_MAX, 1, UINT64_MAX, 1, 1000, 999, NULL, 0},
        {"instructions", 0, 0, 0, 0, 0, 0, 0, "not supported here", 0},
        {"an-event-name-longer-than-its-24-columns", 1, 123456789012345, 0, 0, 0, 0, 0, NULL, 0},
    };
    struct il_summary s;
    memset(&s, 0, sizeof s);
    s.argv = argv;
    s.argc = 2;
    s.pid = 4194304;
    s.how = "signal";
    s.signal = 15;
    s.backend = "perf";
    s.nev = 4;
    s.ev = ev;
    s.has_times = 1;
    s.wall_ns = 123456789012345678;
    s.user_ns = UINT64_MAX;
    s.maxrss_kib = 1234567890123456789;
    s.has_ctx = 1;
    s.ctx_voluntary = UINT64_MAX;
    s.ctx_involuntary = 7;
    s.has_setup = 1;
    s.env_bytes = UINT64_MAX;
    s.cpus = "0-1,4,6-7";
    s.main_sp = "0x7fffffffe520";
    s.main_entry = "tail";
    s.heap_start = "0x55555555e000";
    s.stack_pinned = 1;
    s.nerrors = 1;
    s.errors = errors;
    static char whole[8192], cut[8192];
    size_t n = il_summary_format(&s, whole, sizeof whole);
    assert_true(n > 900 && n < sizeof whole - 1);
    /* 19 bytes in the numbers' column, one past its 18: not right-aligned
     * over the column's start, but after its two spaces */
    assert_non_null(strstr(whole, "\n  123,456,789,012,345      an-event-name-longer"));
    assert_non_null(strstr(whole, "\n  123456789.012345678 seconds time elapsed\n"));
    assert_non_null(strstr(whole, "\n  1234567890123456789 KiB maximum resident set\n"));
    assert_int_equal(il_summary_format(&s, cut, 0), 0);
    for (size_t k = 1; k <= n + 1; k++) {
        memset(cut, 'x', sizeof cut);
        size_t m = il_summary_format(&s, cut, k);
        assert_int_equal(m, k - 1);
        assert_memory_equal(cut, whole, m);
        assert_int_equal(cut[m], 0);
        for (size_t j = k; j < k + 64; j++)
            assert_int_equal(cut[j], 'x'); /* nothing past the buffer */
    }
}

/* The numbers' edges, as the summary writes them backward into their
 * column: seconds around the fraction's eight-digit word and past 18
 * columns, grouping at each thousand, the widest count. */
static void
test_summary_numbers(void **state)
{
    (void)state;
    static const struct {
        uint64_t ns;
        const char *text; /* the line, with its two spaces and column */
    } secs[] = {
        {0, "         0.000000000 seconds user\n"},
        {7, "         0.000000007 seconds user\n"},
        {99999999, "         0.099999999 seconds user\n"},
        {100000000, "         0.100000000 seconds user\n"},
        {999999999, "         0.999999999 seconds user\n"},
        {1000000000, "         1.000000000 seconds user\n"},
        {123456789012345678ULL, "  123456789.012345678 seconds user\n"},
        {UINT64_MAX, "  18446744073.709551615 seconds user\n"},
    };
    static const struct {
        uint64_t v;
        const char *text;
    } counts[] = {
        {0, "                   0      page-faults"},
        {999, "                 999      page-faults"},
        {1000, "               1,000      page-faults"},
        {999999, "             999,999      page-faults"},
        {1000000, "           1,000,000      page-faults"},
        {99999999999999ULL, "  99,999,999,999,999      page-faults"},
        {UINT64_MAX, "  18,446,744,073,709,551,615      page-faults"},
    };
    struct il_summary_event ev = {"page-faults", 1, 0, 0, 0, 0, 0, 0, NULL};
    struct il_summary s;
    memset(&s, 0, sizeof s);
    s.how = "exit";
    s.backend = "perf";
    s.has_times = 1;
    s.maxrss_kib = -1;
    char out[4096];
    for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++) {
        s.user_ns = secs[i].ns;
        il_summary_format(&s, out, sizeof out);
        assert_non_null(strstr(out, secs[i].text));
    }
    /* and against printf: every power of ten and its neighbours, then
     * pseudo-random values of every length */
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 20000; i++) {
        uint64_t v;
        if (i < 60) {
            v = 1;
            for (int k = 0; k < i / 3; k++)
                v *= 10;
            v = v + (uint64_t)(i % 3) - 1;
        } else {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v = x >> (x % 64);
        }
        char want[64], num[40];
        snprintf(num, sizeof num, "%llu.%09llu", (unsigned long long)(v / 1000000000u),
                 (unsigned long long)(v % 1000000000u));
        snprintf(want, sizeof want, "  %18s seconds user\n", num);
        s.user_ns = v;
        il_summary_format(&s, out, sizeof out);
        assert_non_null(strstr(out, want));
    }
    s.has_times = 0;
    s.nev = 1;
    s.ev = &ev;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        ev.value = counts[i].v;
        il_summary_format(&s, out, sizeof out);
        assert_non_null(strstr(out, counts[i].text));
    }
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
        cmocka_unit_test(test_record_fields),     cmocka_unit_test(test_record_signal_and_exec),
        cmocka_unit_test(test_record_premain),    cmocka_unit_test(test_utf8_sanitize),
        cmocka_unit_test(test_every_byte),        cmocka_unit_test(test_summary_format),
        cmocka_unit_test(test_summary_every_cut), cmocka_unit_test(test_summary_numbers),
        cmocka_unit_test(test_formatting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
