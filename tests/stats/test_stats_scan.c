/*
 * test_stats_scan.c: the record scanner (stats/scan.c) against jansson,
 * the reference parser: the same lines are accepted and rejected, on a
 * list of edge cases and on thousands of seeded mutations of a record.
 * The one deliberate difference: numbers beyond jansson's range
 * (integers over 64 bits, reals over DBL_MAX) are accepted.
 * Then the reading of records (stats/input.c) as far as it walks the
 * scanner's spans: --where LABEL!=VALUE and every label of a record.
 */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "il_stats.h"
#include "input.h"

static int
jansson_ok(const char *s, size_t n, int *range)
{
    json_error_t e;
    json_t *j = json_loadb(s, n, 0, &e);
    *range = !j && (strstr(e.text, "too big") || strstr(e.text, "overflow"));
    json_decref(j);
    return j != NULL;
}

static int
scan_ok(const char *s, size_t n)
{
    struct il_scan sc;
    memset(&sc, 0, sizeof sc);
    sc.keys_of = 0;
    return il_scan_line(&sc, s, n) == 0;
}

static void
agree(const char *s, size_t n)
{
    int range, j = jansson_ok(s, n, &range), m = scan_ok(s, n);
    if (range)
        return;
    if (j != m)
        fail_msg("jansson %s, scanner %s: '%.*s'", j ? "accepts" : "rejects",
                 m ? "accepts" : "rejects", (int)n, s);
}

static void
edge_cases(void **state)
{
    static const char *const cases[] = {
        "{}",
        "[]",
        " {\"a\" : [1, 2.5e-3, -0, 0.0E+1, true, false, null, \"x\"]} ",
        "{\"s\":\"\\u00e9\\ud83d\\ude00\"}",
        "{\"s\":\"\xc3\xa9\xf0\x9f\x98\x80\"}",
        "{\"a\":{\"b\":{\"c\":[[]]}}}",
        "{\"a\":\"\\\\\\\"\\/\\b\\f\\n\\r\\t\"}",
        "{\"a\":1}\r\n",
        "",
        " ",
        "{",
        "}",
        "{\"a\"}",
        "{\"a\":}",
        "{\"a\":1,}",
        "[1,]",
        "{\"a\":01}",
        "{\"a\":1.}",
        "{\"a\":.5}",
        "{\"a\":1e}",
        "{\"a\":-}",
        "{\"a\":tru}",
        "{\"a\":truex}",
        "{\"a\":nul}",
        "{\"a\":\"\\x\"}",
        "{\"a\":\"\\u12\"}",
        "{\"a\":\"\\u0000\"}",
        "{\"a\":\"\\udc00\"}",
        "{\"a\":\"\\ud800\"}",
        "{\"a\":\"\\ud800\\u0041\"}",
        "{\"a\":\"\x01\"}",
        "{\"a\":\"\xff\"}",
        "{\"a\":\"\xc0\xaf\"}",
        "{\"a\":\"\xed\xa0\x80\"}",
        "{\"a\":\"\xf4\x90\x80\x80\"}",
        "{\"a\":1} x",
        "{\"a\":1}{}",
        "\"str\"",
        "1",
        "{'a':1}",
        "{\"a\":NaN}",
        "{\"a\":Infinity}",
        "{\"a\":+1}",
        "{a:1}",
        "[1 2]",
        "{\"a\":1 \"b\":2}",
        "[\"a\"\"b\"]",
        "{\"a\":[1,2]]",
        "[1}",
        "{\"a\" 1}",
        "{,}",
        "{\"a\":1,,\"b\":2}",
        "[-01]",
        "[1e+]",
        "[0x10]",
        "[\"\\U0041\"]",
        "[\"a\tb\"]",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        agree(cases[i], strlen(cases[i]));
}

static void
deep_nesting(void **state)
{
    for (size_t depth = 2040; depth <= 2060; depth += 10) {
        char *s = malloc(2 * depth + 1);
        assert_non_null(s);
        memset(s, '[', depth);
        memset(s + depth, ']', depth);
        agree(s, 2 * depth);
        free(s);
    }
}

static void
big_numbers_accepted(void **state)
{
    const char *big = "{\"v\":123456789012345678901234567890,\"w\":1e400}";
    assert_true(scan_ok(big, strlen(big)));
}

/* The record the mutation tests edit, and the bytes they insert. */
static const char rec[] =
    "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bz\\u00e9\",\"rep\":2},"
    "\"events\":{\"task-clock\":{\"value\":123456,\"enabled_ns\":1.5e3},"
    "\"cycles\":{\"value\":null,\"error\":\"not \\\"supported\\\"\"}},"
    "\"argv\":[\"./prog\",\"-x\",[],{}],\"aslr\":false,\"ok\":true,\"f\":-0.25E-2}";
static const char alphabet[] = "{}[]:,\"\\/ 0123456789-+.eEtrufalsn\x01\x80\xc3\xa9\xff";

/* One edit of the n bytes at buf, at a place and of a kind drawn from x:
 * replace with c, delete, or insert c.  Returns the new length. */
static size_t
edit(char *buf, size_t n, unsigned long x, char c)
{
    size_t pos = (x >> 33) % n;
    switch ((x >> 9) % 3) {
    case 0: /* replace */
        buf[pos] = c;
        return n;
    case 1: /* delete */
        memmove(buf + pos, buf + pos + 1, n - pos - 1);
        return n - 1;
    default: /* insert */
        memmove(buf + pos + 1, buf + pos, n - pos);
        buf[pos] = c;
        return n + 1;
    }
}

static void
seeded_mutations(void **state)
{
    char buf[sizeof rec + 8];
    unsigned long x = 12345;
    for (int iter = 0; iter < 50000; iter++) {
        size_t n = sizeof rec - 1;
        memcpy(buf, rec, n);
        int edits = 1 + iter % 3;
        for (int e = 0; e < edits; e++) {
            x = x * 6364136223846793005UL + 1442695040888963407UL;
            n = edit(buf, n, x, alphabet[(x >> 17) % (sizeof alphabet - 1)]);
        }
        agree(buf, n);
    }
}

static void
finds_paths_and_decodes(void **state)
{
    static const char line[] =
        "{\"labels\":{\"b\\u0065nch\":\"a\\u00e9\\ud83d\\ude00\",\"rep\":2.50},"
        "\"events\":{\"cycles\":{\"value\":null},\"task-clock\":{\"value\":-1.5e3}}}";
    struct il_path p[3];
    struct il_scan sc;
    memset(&sc, 0, sizeof sc);
    il_path_set(&p[0], "labels", "bench", NULL);
    il_path_set(&p[1], "labels", "rep", NULL);
    il_path_set(&p[2], "events", "task-clock", "value");
    sc.paths = p;
    sc.npaths = 3;
    sc.keys_of = 0;
    assert_int_equal(il_scan_line(&sc, line, strlen(line)), 0);
    assert_non_null(sc.found[0].p);
    char out[64];
    size_t n = il_json_unescape(sc.found[0].p + 1, sc.found[0].n - 2, out);
    assert_int_equal(n, 1 + 2 + 4);
    assert_string_equal(out, "a\xc3\xa9\xf0\x9f\x98\x80");
    assert_int_equal(sc.found[1].n, 4); /* the number's text, "2.50" */
    assert_memory_equal(sc.found[1].p, "2.50", 4);
    double v;
    assert_int_equal(il_span_number(sc.found[2], &v), 0);
    assert_true(v == -1500.0);
    struct il_span s = {"\"x\"", 3};
    assert_int_equal(il_span_number(s, &v), -1);
}

/* Paths of a record, scalars and objects, some absent. */
static void
record_paths(struct il_path *p, int *np)
{
    il_path_set(&p[0], "schema", NULL, NULL);
    il_path_set(&p[1], "labels", NULL, NULL);
    il_path_set(&p[2], "labels", "bench", NULL);
    il_path_set(&p[3], "labels", "rep", NULL);
    il_path_set(&p[4], "events", "task-clock", "value");
    il_path_set(&p[5], "events", "task-clock", NULL);
    il_path_set(&p[6], "events", "cycles", "value");
    il_path_set(&p[7], "argv", NULL, NULL);
    il_path_set(&p[8], "f", NULL, NULL);
    il_path_set(&p[9], "absent", NULL, NULL);
    il_path_set(&p[10], "events", NULL, NULL);
    *np = 11;
}

/* The line s read by the full scan (a) and through the templates (b):
 * accepted or rejected alike, with the same reason, the same spans found;
 * a path's "same" bit set exactly when it is a scalar whose bytes are the
 * matched template's there.  1 when a template matched. */
static int
both_ways(struct il_tmpls *tm, struct il_scan *a, struct il_scan *b, const char *s, size_t n)
{
    size_t hits = tm->hits;
    int ea = il_scan_line(a, s, n), eb = il_tmpls_scan(tm, b, s, n);
    if (ea != eb)
        fail_msg("full scan %d, templates %d: '%.*s'", ea, eb, (int)n, s);
    if (ea != 0) {
        if (strcmp(a->err, b->err) != 0 || a->errpos != b->errpos)
            fail_msg("full scan: %s at %zu, templates: %s at %zu: '%.*s'", a->err, a->errpos,
                     b->err, b->errpos, (int)n, s);
        return 0;
    }
    int hit = tm->hits > hits;
    const struct il_tmpl *t = hit ? &tm->t[tm->cur] : NULL;
    for (int i = 0; i < a->npaths; i++) {
        const struct il_span *fa = &a->found[i], *fb = &b->found[i];
        if (fa->p != fb->p || (fa->p && fa->n != fb->n))
            fail_msg("path %d: full scan '%.*s', templates '%.*s' in '%.*s'", i,
                     fa->p ? (int)fa->n : 6, fa->p ? fa->p : "absent", fb->p ? (int)fb->n : 6,
                     fb->p ? fb->p : "absent", (int)n, s);
        int same = t && t->ps[i] != UINT32_MAX && t->ptok[i] >= 0 && fa->n == t->pe[i] - t->ps[i] &&
                   memcmp(fa->p, t->line + t->ps[i], fa->n) == 0;
        if ((int)(tm->same >> i & 1) != same)
            fail_msg("path %d: same %d, expected %d in '%.*s'", i, (int)(tm->same >> i & 1), same,
                     (int)n, s);
    }
    return hit;
}

/* A line through the templates (tmpl.c) reads as the full scan reads it:
 * accepted or rejected alike, the same spans found.  The templates are the
 * record and, as mutated lines become templates themselves, those. */
static void
templates_agree(void **state)
{
    char buf[sizeof rec + 8];
    struct il_path p[16];
    struct il_scan a, b;
    struct il_tmpls tm;
    int np, matched = 0;
    record_paths(p, &np);
    memset(&a, 0, sizeof a);
    memset(&tm, 0, sizeof tm);
    a.paths = p;
    a.npaths = np;
    b = a;
    unsigned long x = 777;
    for (int iter = 0; iter < 60000; iter++) {
        size_t n = sizeof rec - 1;
        memcpy(buf, rec, n);
        /* every fourth line unchanged; the rest with 1 to 3 edits, mostly
         * in the values */
        int edits = iter % 4 ? 1 + iter % 3 : 0;
        for (int e = 0; e < edits; e++) {
            x = x * 6364136223846793005UL + 1442695040888963407UL;
            n = edit(buf, n, x,
                     (x >> 5) % 4 ? "0123456789.-eE\"ab\\"[(x >> 17) % 17]
                                  : alphabet[(x >> 17) % (sizeof alphabet - 1)]);
        }
        matched += both_ways(&tm, &a, &b, buf, n) && edits;
    }
    /* thousands of changed lines matched a template (4001 of 45,000) */
    assert_true(matched > 3000);
    il_tmpls_free(&tm);
}

/* Lines against one template in the order that makes its scalars hot
 * (tmpl.c: compared as runs up to the scalars that differed before): a hot
 * scalar back to the template's bytes, a scalar not hot changing inside a
 * run longer than 64 bytes, changes within the last 64 bytes of a line,
 * and lines that are not the template's shape there. */
static void
hot_scalars(void **state)
{
    static const char *const lines[] = {
        "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bz\",\"rep\":2},\"pad\":"
        "\"0123456789012345678901234567890123456789012345678901234567890123456789\","
        "\"events\":{\"task-clock\":{\"value\":123456}},\"argv\":[\"a\"],\"f\":7}",
        /* rep and value differ: hot from now on */
        "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bz\",\"rep\":31},\"pad\":"
        "\"0123456789012345678901234567890123456789012345678901234567890123456789\","
        "\"events\":{\"task-clock\":{\"value\":9}},\"argv\":[\"a\"],\"f\":7}",
        /* rep back to the template's bytes; bench (not hot) longer */
        "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bzip2\",\"rep\":2},\"pad\":"
        "\"0123456789012345678901234567890123456789012345678901234567890123456789\","
        "\"events\":{\"task-clock\":{\"value\":123456}},\"argv\":[\"a\"],\"f\":7}",
        /* a change at the end of the long run, and in the last scalar */
        "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bz\",\"rep\":4},\"pad\":"
        "\"012345678901234567890123456789012345678901234567890123456789012345678\","
        "\"events\":{\"task-clock\":{\"value\":5}},\"argv\":[\"a\"],\"f\":-7.5e1}",
        /* a hot scalar that is not valid, one that is longer than 16 digits,
         * a key changed near the end, a byte more or less at the end */
        "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bz\",\"rep\":01},\"pad\":"
        "\"0123456789012345678901234567890123456789012345678901234567890123456789\","
        "\"events\":{\"task-clock\":{\"value\":123456}},\"argv\":[\"a\"],\"f\":7}",
        "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bz\",\"rep\":2},\"pad\":"
        "\"0123456789012345678901234567890123456789012345678901234567890123456789\","
        "\"events\":{\"task-clock\":{\"value\":123456789012345678901}},\"argv\":[\"a\"],\"f\":7}",
        "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bz\",\"rep\":2},\"pad\":"
        "\"0123456789012345678901234567890123456789012345678901234567890123456789\","
        "\"events\":{\"task-clock\":{\"value\":123456}},\"argv\":[\"a\"],\"g\":7}",
        "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bz\",\"rep\":2},\"pad\":"
        "\"0123456789012345678901234567890123456789012345678901234567890123456789\","
        "\"events\":{\"task-clock\":{\"value\":123456}},\"argv\":[\"a\"],\"f\":7}}",
        "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bz\",\"rep\":2},\"pad\":"
        "\"0123456789012345678901234567890123456789012345678901234567890123456789\","
        "\"events\":{\"task-clock\":{\"value\":123456}},\"argv\":[\"a\"],\"f\":7",
        /* the template's own bytes again, after all that */
        "{\"schema\":\"interloper/1\",\"labels\":{\"bench\":\"bz\",\"rep\":2},\"pad\":"
        "\"0123456789012345678901234567890123456789012345678901234567890123456789\","
        "\"events\":{\"task-clock\":{\"value\":123456}},\"argv\":[\"a\"],\"f\":7}",
    };
    /* 1: a template matched; 0: scanned in full (rejected, or a new template) */
    static const int hit[] = {0, 1, 1, 1, 0, 1, 0, 0, 0, 1};
    struct il_path p[16];
    struct il_scan a, b;
    struct il_tmpls tm;
    int np;
    record_paths(p, &np);
    il_path_set(&p[np++], "pad", NULL, NULL);
    memset(&a, 0, sizeof a);
    memset(&tm, 0, sizeof tm);
    a.paths = p;
    a.npaths = np;
    b = a;
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        size_t n = strlen(lines[i]);
        /* exactly n bytes, so that a read past the line's end is caught
         * by valgrind or ASan */
        char *buf = malloc(n);
        assert_non_null(buf);
        memcpy(buf, lines[i], n);
        if (both_ways(&tm, &a, &b, buf, n) != hit[i])
            fail_msg("line %zu: template matched %d, expected %d", i, !hit[i], hit[i]);
        free(buf);
    }
    /* the line with the key "g" became the second template, the rejected
     * ones none */
    assert_int_equal(tm.nt, 2);
    il_tmpls_free(&tm);
}

/* A hot scalar is first checked at the length it had in the line before
 * (tmpl.c, scalar_is): lines whose number and string take the length of
 * the line before, a longer or a shorter one, or that length with bytes
 * that make them something else (a fraction, an exponent, an escape, a
 * control byte, a quote or a digit too early, a letter), at the edges of
 * the 16 bytes of digits and the 32 of a string that the check looks at.
 * Each is read by the full scan and through the template alike. */
static void
predicted_lengths(void **state)
{
    static const char *const vals[][2] = {
        {"123456", "abcdef"}, /* the template */
        {"654321", "fedcba"}, /* both hot, the same lengths */
        {"654322", "fedcbb"}, /* the lengths predicted */
        {"7", "x"},           /* shorter */
        {"8", "y"},           /* predicted */
        {"9.5", "y\\n"},      /* a fraction, an escape */
        {"8", "y"},           /* back */
        {"8e", "y\""},        /* an exponent cut short; a quote early */
        {"9", "z"},           /* back */
        {"1234567890123456", "0123456789012345678901234567890"},      /* 16 digits, 31 bytes */
        {"6543210987654321", "1123456789012345678901234567890"},      /* predicted */
        {"65432109876543210", "11234567890123456789012345678901"},    /* 17 digits, 32 */
        {"75432109876543210", "21234567890123456789012345678901"},    /* predicted */
        {"7543210987654321.", "212345678901234567890123456789\t1"},   /* a dot; a tab */
        {"7543210987654321e", "2123456789012345678901234567890\x01"}, /* control byte */
        {"12", "abcd"},                                               /* lengths to predict */
        {"1x", "ab\"c"},     /* those lengths: a letter; a quote inside */
        {"1a", "ab\\c"},     /* those lengths: not a number; an escape */
        {"0", "\xc3\xa9"},   /* a zero; UTF-8 */
        {"3", "\xc3\xa9"},   /* predicted after a zero */
        {"-3", "\xc3\xa9x"}, /* a sign */
        {"34", "abc"},
    };
    struct il_path p[4];
    struct il_scan a, b;
    struct il_tmpls tm;
    il_path_set(&p[0], "schema", NULL, NULL);
    il_path_set(&p[1], "v", NULL, NULL);
    il_path_set(&p[2], "s", NULL, NULL);
    il_path_set(&p[3], "t", NULL, NULL);
    memset(&a, 0, sizeof a);
    memset(&tm, 0, sizeof tm);
    a.paths = p;
    a.npaths = 4;
    b = a;
    int rejected = 0;
    for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
        char line[256];
        /* 40 bytes after the string: the masks read past a short one */
        int n = snprintf(line, sizeof line,
                         "{\"schema\":\"interloper/1\",\"v\":%s,\"s\":\"%s\",\"t\":"
                         "\"0123456789012345678901234567890123456789\"}",
                         vals[i][0], vals[i][1]);
        char *buf = malloc((size_t)n);
        assert_non_null(buf);
        memcpy(buf, line, (size_t)n);
        /* every valid line after the first matched the template */
        int hit = both_ways(&tm, &a, &b, buf, (size_t)n), want = i > 0 && a.err == NULL;
        if (hit != want)
            fail_msg("line %zu: template matched %d, expected %d", i, hit, want);
        rejected += a.err != NULL;
        free(buf);
    }
    assert_int_equal(rejected, 5);
    /* lines that end where a hot scalar begins, or inside one: rejected
     * without a read past their end (exactly n bytes: valgrind, ASan) */
    static const char *const cut[] = {
        "{\"schema\":\"interloper/1\",\"v\":",
        "{\"schema\":\"interloper/1\",\"v\":34,\"s\":",
        "{\"schema\":\"interloper/1\",\"v\":34,\"s\":\"ab",
    };
    for (size_t i = 0; i < sizeof cut / sizeof *cut; i++) {
        size_t n = strlen(cut[i]);
        char *buf = malloc(n);
        assert_non_null(buf);
        memcpy(buf, cut[i], n);
        assert_int_equal(both_ways(&tm, &a, &b, buf, n), 0);
        assert_non_null(a.err);
        free(buf);
    }
    assert_int_equal(tm.nt, 1);
    il_tmpls_free(&tm);
}

/* il_span_number_int says what il_span_number and il_span_int say of the
 * same span, to the bit: integers of 1 to 20 digits around 16 (where it
 * stops reading the digits itself) and int64's end, signs and -0,
 * fractions, exponents, and what is no number. */
static void
number_and_int_at_once(void **state)
{
    static const char *const spans[] = {
        "0",
        "-0",
        "7",
        "-7",
        "123456",
        "-123456",
        "007",
        "1234567890123456",
        "-234567890123456",
        "12345678901234567",
        "-1234567890123456",
        "9007199254740993",
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "99999999999999999999",
        "1.5",
        "-0.0",
        "1e3",
        "1E-3",
        "2.50",
        "-",
        "",
        "abc",
        "1x",
        "--1",
        "+1",
        " 1",
        "1 ",
        "0x10",
        "null",
        "\"1\"",
    };
    for (size_t i = 0; i < sizeof spans / sizeof *spans; i++) {
        struct il_span sp = {spans[i], strlen(spans[i])};
        double v1 = 42, v2 = 42;
        int64_t i1 = 42, i2 = 42;
        int isint = -1;
        int e1 = il_span_number(sp, &v1), e2 = il_span_number_int(sp, &v2, &i2, &isint);
        if (e1 != e2 || (e1 == 0 && memcmp(&v1, &v2, sizeof v1) != 0))
            fail_msg("'%s': il_span_number %d %.17g, il_span_number_int %d %.17g", spans[i], e1, v1,
                     e2, v2);
        if (e1 != 0)
            continue;
        /* and what strtod reads, the reference for a number's double */
        double ref = strtod(spans[i], NULL);
        if (memcmp(&ref, &v2, sizeof ref) != 0)
            fail_msg("'%s': strtod %.17g, il_span_number_int %.17g", spans[i], ref, v2);
        int want = il_span_int(sp, &i1) == 0;
        if (isint != want || (want && i1 != i2))
            fail_msg("'%s': il_span_int %d %lld, il_span_number_int %d %lld", spans[i], want,
                     (long long)i1, isint, (long long)i2);
    }
    /* no span at all */
    double v;
    int64_t iv;
    int isint;
    assert_int_equal(il_span_number_int((struct il_span){NULL, 0}, &v, &iv, &isint), -1);
}

/* Read the text as a .jsonl file with sel. */
static void read_text(const char *text, const struct il_sel *sel, struct il_data *d);

/* Label values that differ in one byte, at every place of values of 1 to
 * 38 bytes, read in turn with the value they differ from (the last two
 * values of a label are remembered and compared, input.c's bytes_eq):
 * each record keeps its own value. */
static void
label_values_told_apart(void **state)
{
    size_t cap = 4 * 1024 * 1024, o = 0, nrec = 0;
    char *text = malloc(cap);
    char **want = malloc(4000 * sizeof *want);
    assert_non_null(text);
    assert_non_null(want);
    for (int len = 1; len <= 38; len++)
        for (int at = 0; at < len; at++)
            for (int r = 0; r < 4; r++) {
                char v[40];
                memset(v, 'a', (size_t)len);
                v[len] = '\0';
                if (r % 2)
                    v[at] = 'b';
                want[nrec] = strdup(v);
                assert_non_null(want[nrec]);
                o += (size_t)snprintf(text + o, cap - o,
                                      "{\"schema\":\"interloper/1\",\"labels\":{\"u\":\"%s\"},"
                                      "\"times\":{\"wall_ns\":%zu}}\n",
                                      v, ++nrec);
            }
    assert_true(o < cap);
    struct il_sel sel;
    memset(&sel, 0, sizeof sel);
    sel.metric = "wall";
    sel.kind = IL_M_WALL;
    size_t u = il_sel_slot(&sel, "u");
    struct il_data d;
    read_text(text, &sel, &d);
    assert_int_equal(d.n, nrec);
    for (size_t i = 0; i < d.n; i++) {
        size_t r = (size_t)d.val[i] - 1; /* the record's number: its wall_ns */
        if (strcmp(il_str(&d.st, il_lab(&d, i, u)), want[r]) != 0)
            fail_msg("record %zu: u=%s, expected %s", r, il_str(&d.st, il_lab(&d, i, u)), want[r]);
    }
    il_data_free(&d);
    for (size_t i = 0; i < nrec; i++)
        free(want[i]);
    free(want);
    free(text);
}

/* A line that a template matches where it lies in the read buffer is read
 * there without a search for its newline (read.c, next_line): a file of
 * records whose lengths vary, so that lines straddle the 128 KiB reads,
 * with a byte-order mark first, lines ending in one or two carriage
 * returns, one in a carriage return, a space and another, one with a
 * carriage return before bytes after the record (bad), blank and
 * white-space lines, a record with bytes after it, a torn one, a record
 * followed by spaces, a longer line, and a carriage return but no
 * newline at the end,
 * reads as each line found by memchr and given to il_rd_line (the oracle):
 * the same counts, values, flags and labels, record by record. */
static void
lines_found_in_the_buffer(void **state)
{
    enum { N = 6000 };
    size_t cap = (size_t)N * 400, o = 0, bad = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    o += (size_t)snprintf(text, cap, "\xEF\xBB\xBF");
    for (int i = 0; i < N; i++) {
        char r[512];
        int n = snprintf(r, sizeof r,
                         "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"%s\",\"setup\":"
                         "\"e%d\",\"rep\":\"%d\"},\"pid\":%d,\"exit\":{\"how\":\"return\","
                         "\"status\":%d},\"times\":{\"wall_ns\":%d,\"user_ns\":%d}}",
                         i % 2 ? "B" : "A", i % 7, i / 14, 7 * i % 100003, i % 31 == 5,
                         1 + (i * 7919) % (i % 3 ? 999 : 9999999), i);
        switch (i % 101) {
        case 17: /* a carriage return before the newline */
            o += (size_t)snprintf(text + o, cap - o, "%s\r\n", r);
            break;
        case 23: /* two of them */
            o += (size_t)snprintf(text + o, cap - o, "%s\r\r\n", r);
            break;
        case 31: /* one and spaces between them: white space, valid */
            o += (size_t)snprintf(text + o, cap - o, "%s\r \r\n", r);
            break;
        case 47: /* one before bytes after the record: bad */
            bad++;
            o += (size_t)snprintf(text + o, cap - o, "%s\rx\r\n", r);
            break;
        case 29: /* a blank line and one of white space before it */
            o += (size_t)snprintf(text + o, cap - o, "\n  \t\n%s\n", r);
            break;
        case 41: /* bytes after the record: bad */
            bad++;
            o += (size_t)snprintf(text + o, cap - o, "%sx\n", r);
            break;
        case 53: /* torn: bad */
            bad++;
            o += (size_t)snprintf(text + o, cap - o, "%.*s\n", n / 2, r);
            break;
        case 67: /* spaces after the record: valid */
            o += (size_t)snprintf(text + o, cap - o, "%s   \n", r);
            break;
        case 79: /* a longer line of another shape */
            o += (size_t)snprintf(text + o, cap - o,
                                  "{\"schema\":\"interloper/1\",\"labels\":{\"system\":\"A\","
                                  "\"note\":\"%0300d\"},\"times\":{\"wall_ns\":%d}}\n",
                                  i, i);
            break;
        default:
            o += (size_t)snprintf(text + o, cap - o, "%s%s", r, i + 1 < N ? "\n" : "\r");
        }
    }
    assert_true(o < cap && o > 4 * 128 * 1024);
    struct il_sel sel;
    memset(&sel, 0, sizeof sel);
    sel.metric = "wall";
    sel.kind = IL_M_WALL;
    size_t sys = il_sel_slot(&sel, "system"), rep = il_sel_slot(&sel, "rep");
    struct il_data d, want;
    read_text(text, &sel, &d);
    /* the oracle: each line found by memchr, as before */
    struct rd rd;
    il_rd_init(&rd, &sel, &want);
    const char *p = text + 3, *e = text + o;
    for (size_t line = 1; p < e; line++) {
        const char *nl = memchr(p, '\n', (size_t)(e - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(e - p);
        il_rd_line(&rd, "f", line, p, n);
        p += n + 1;
    }
    il_rd_free(&rd);
    assert_int_equal(d.n, want.n);
    assert_int_equal(d.lines, want.lines);
    assert_int_equal(d.records, want.records);
    assert_int_equal(d.malformed, want.malformed);
    assert_int_equal(d.malformed, bad);
    for (size_t i = 0; i < d.n; i++) {
        if (memcmp(&d.val[i], &want.val[i], sizeof d.val[i]) != 0 || d.flag[i] != want.flag[i])
            fail_msg("record %zu: %g flag %d, expected %g flag %d", i, d.val[i], d.flag[i],
                     want.val[i], want.flag[i]);
        for (size_t k = 0; k < 2; k++) {
            size_t sl = k ? rep : sys;
            assert_string_equal(il_str(&d.st, il_lab(&d, i, sl)),
                                il_str(&want.st, il_lab(&want, i, sl)));
        }
    }
    il_data_free(&d);
    il_data_free(&want);
    free(text);
}

/* Read the text as a .jsonl file with sel. */
static void
read_text(const char *text, const struct il_sel *sel, struct il_data *d)
{
    char path[] = "/tmp/test_stats_scan.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    assert_non_null(fp);
    fputs(text, fp);
    assert_int_equal(fclose(fp), 0);
    char *files[] = {path};
    il_read(sel, files, 1, d);
    unlink(path);
}

static const struct il_labvals *
labvals(const struct il_data *d, const char *name)
{
    for (size_t i = 0; i < d->nlv; i++)
        if (strcmp(d->lv[i].name, name) == 0)
            return &d->lv[i];
    fail_msg("no label '%s'", name);
    return NULL;
}

static int
has_value(const struct il_data *d, const struct il_labvals *l, const char *v)
{
    for (size_t id = 1; id < l->seencap; id++)
        if (l->seen[id] && strcmp(il_str(&d->st, (uint32_t)id), v) == 0)
            return 1;
    return 0;
}

static void
where_not_equal(void **state)
{
    static const char text[] =
        "{\"schema\":\"interloper/1\",\"labels\":{\"rep\":1},\"times\":{\"wall_ns\":1}}\n"
        "{\"schema\":\"interloper/1\",\"labels\":{\"rep\":2},\"times\":{\"wall_ns\":2}}\n"
        "{\"schema\":\"interloper/1\",\"labels\":{\"rep\":3},\"times\":{\"wall_ns\":4}}\n"
        "{\"schema\":\"interloper/1\",\"labels\":{},\"times\":{\"wall_ns\":8}}\n";
    struct il_where w[3] = {{0, "1", 1}, {0, "2", 0}, {0, "3", 0}};
    struct il_sel sel;
    struct il_data d;
    memset(&sel, 0, sizeof sel);
    sel.metric = "wall";
    sel.kind = IL_M_WALL;
    assert_int_equal(il_sel_slot(&sel, "rep"), 0);
    /* rep != 1: 2 and 3; the record without rep is left out */
    sel.where = w;
    sel.nwhere = 1;
    read_text(text, &sel, &d);
    assert_int_equal(d.n, 2);
    assert_true(d.val[0] == 2 && d.val[1] == 4);
    il_data_free(&d);
    /* rep != 1 and rep = 2 or 3 */
    sel.nwhere = 3;
    read_text(text, &sel, &d);
    assert_int_equal(d.n, 2);
    il_data_free(&d);
    /* rep = 2 or 3 but != 3 */
    w[0] = (struct il_where){0, "3", 1};
    read_text(text, &sel, &d);
    assert_int_equal(d.n, 1);
    assert_true(d.val[0] == 2);
    il_data_free(&d);
}

static void
collects_every_label(void **state)
{
    static const char text[] =
        "{\"schema\":\"interloper/1\",\"labels\":{ \"a\\u0062\" : \"x\\\"y\" , \"n\": 1.50,"
        " \"o\": {\"k\":[1,\"}],\"]}, \"z\": null },\"times\":{\"wall_ns\":1}}\n"
        "{\"schema\":\"interloper/1\",\"labels\":{\"ab\":\"q\",\"n\":2,\"o\":{\"k\":[1,\"}],\"]}},"
        "\"times\":{\"wall_ns\":2}}\n"
        "{\"schema\":\"interloper/1\",\"labels\":{\"ab\":\"q\",\"n\":2},"
        "\"times\":{\"wall_ns\":3}}\n"
        "{\"schema\":\"interloper/1\",\"labels\":{\"ab\":\"skipped\"},\"times\":{}}\n";
    struct il_sel sel;
    struct il_data d;
    memset(&sel, 0, sizeof sel);
    sel.metric = "wall";
    sel.kind = IL_M_WALL;
    sel.want_labels = 1;
    read_text(text, &sel, &d);
    assert_int_equal(d.n, 3);
    assert_int_equal(d.nlv, 4);
    const struct il_labvals *l = labvals(&d, "ab");
    assert_int_equal(l->present, 3); /* the record without wall_ns is not kept */
    assert_int_equal(l->nval, 2);
    assert_true(has_value(&d, l, "x\"y") && has_value(&d, l, "q"));
    assert_false(has_value(&d, l, "skipped"));
    l = labvals(&d, "n");
    assert_int_equal(l->present, 3);
    assert_int_equal(l->nval, 2);
    assert_true(has_value(&d, l, "1.50") && has_value(&d, l, "2"));
    l = labvals(&d, "o");
    assert_int_equal(l->present, 2);
    assert_int_equal(l->nval, 1);
    assert_true(has_value(&d, l, "{\"k\":[1,\"}],\"]}"));
    l = labvals(&d, "z");
    assert_int_equal(l->present, 0);
    assert_int_equal(l->nval, 0);
    il_data_free(&d);
}

/* Label "u" of record i (of n) is "v" value(i); "k" is one value. */
struct labcase {
    size_t n, distinct; /* records; value i for i < distinct, else i % 7 */
    size_t from;        /* ... and i % 7 below from */
    int wide;           /* "u" is then 4-byte ids */
};

static size_t
lab_value(const struct labcase *c, size_t i)
{
    return i < c->from || i >= c->distinct ? i % 7 : i;
}

static void
lab_check(const struct labcase *c, const char *text, size_t u, size_t k, const struct il_sel *sel)
{
    struct il_data d;
    read_text(text, sel, &d);
    assert_int_equal(d.n, c->n);
    if (c->wide)
        assert_true(d.labc[u] && !d.labn[u]);
    else
        assert_true(d.labn[u] && !d.labc[u]);
    assert_true(!d.labn[k] && !d.labc[k]);
    char want[32];
    for (size_t i = 0; i < c->n; i++) {
        snprintf(want, sizeof want, "v%zu", lab_value(c, i));
        if (strcmp(il_str(&d.st, il_lab(&d, i, u)), want) != 0)
            fail_msg("record %zu: u=%s, expected %s", i, il_str(&d.st, il_lab(&d, i, u)), want);
        assert_string_equal(il_str(&d.st, il_lab(&d, i, k)), "c");
    }
    il_data_free(&d);
}

/* Label columns of 2 bytes a record up to 65,535 values of a label and of
 * string ids beyond, each half of the two-thread read widening on its own
 * or at the join; the same values as the one-thread read. */
static void
label_columns(void **state)
{
    static const struct labcase cases[] = {
        {66535, 65535, 0, 0},      /* exactly 65,535 values: narrow */
        {66536, 65536, 0, 1},      /* one more: wide, at the join */
        {140000, 100000, 0, 1},    /* the first half wide, the second narrow */
        {140000, 140000, 40000, 1} /* the first narrow, the second wide */
    };
    struct il_sel sel;
    memset(&sel, 0, sizeof sel);
    sel.metric = "wall";
    sel.kind = IL_M_WALL;
    size_t u = il_sel_slot(&sel, "u"), k = il_sel_slot(&sel, "k");
    cpu_set_t all;
    assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
    for (size_t ci = 0; ci < sizeof cases / sizeof cases[0]; ci++) {
        const struct labcase *c = &cases[ci];
        size_t cap = c->n * 96, o = 0;
        char *text = malloc(cap);
        assert_non_null(text);
        for (size_t i = 0; i < c->n; i++)
            o += (size_t)snprintf(text + o, cap - o,
                                  "{\"schema\":\"interloper/1\",\"labels\":{\"u\":\"v%zu\","
                                  "\"k\":\"c\"},\"times\":{\"wall_ns\":%zu}}\n",
                                  lab_value(c, i), i + 1);
        lab_check(c, text, u, k, &sel); /* two halves where there are two CPUs */
        cpu_set_t one;
        CPU_ZERO(&one);
        for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
            if (CPU_ISSET(cpu, &all)) {
                CPU_SET(cpu, &one);
                break;
            }
        assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
        lab_check(c, text, u, k, &sel); /* one thread */
        assert_int_equal(sched_setaffinity(0, sizeof all, &all), 0);
        free(text);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edge_cases),
        cmocka_unit_test(deep_nesting),
        cmocka_unit_test(big_numbers_accepted),
        cmocka_unit_test(seeded_mutations),
        cmocka_unit_test(templates_agree),
        cmocka_unit_test(hot_scalars),
        cmocka_unit_test(predicted_lengths),
        cmocka_unit_test(number_and_int_at_once),
        cmocka_unit_test(lines_found_in_the_buffer),
        cmocka_unit_test(label_values_told_apart),
        cmocka_unit_test(finds_paths_and_decodes),
        cmocka_unit_test(where_not_equal),
        cmocka_unit_test(collects_every_label),
        cmocka_unit_test(label_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
