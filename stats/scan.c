/*
 * scan.c: a validating JSON scanner that records where wanted fields lie.
 *
 * Why not jansson alone: decoding a whole 700-byte record into jansson
 * objects costs ~10 us, so a million records take over 10 s.  This scanner
 * checks the full grammar (strings, escapes, UTF-8, numbers, nesting) at a
 * few hundred MB/s without allocating, and keeps the byte spans of the few
 * paths a command needs.  jansson still explains malformed lines (input.c).
 * Differences from jansson are deliberate and tested (test_stats_scan):
 * numbers of any magnitude are accepted, as the record contract allows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "il_resolve.h"
#include "il_stats.h"

#define IL_SCAN_DEPTH 2048 /* jansson's JSON_PARSER_MAX_DEPTH */

struct st {
    struct il_scan *sc;
    const char *base, *end;
};

static const char *
fail(struct st *st, const char *p, const char *why)
{
    if (!st->sc->err) {
        st->sc->err = why;
        st->sc->errpos = (size_t)(p - st->base);
    }
    return NULL;
}

/* Byte classes: 1 = plain string byte (printable ASCII other than '"' and
 * '\\'; a space is one too, and ws() tests it by value), 2 = white space.
 * Constant, so that threads may scan at once. */
static const unsigned char cls[256] = {
    [0x20 ... 0x21] = 1, [0x23 ... 0x5B] = 1, [0x5D ... 0x7F] = 1, /* not '"' 0x22, '\\' 0x5C */
    ['\t'] = 2,          ['\n'] = 2,          ['\r'] = 2,
};

static const char *
ws(const char *p, const char *e)
{
    while (p < e && (*p == ' ' || cls[(unsigned char)*p] == 2))
        p++;
    return p;
}

static int
hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Four hex digits at p, or -1. */
static long
hex4(const char *p, const char *e)
{
    long u = 0;
    if (e - p < 4)
        return -1;
    for (int i = 0; i < 4; i++) {
        int h = hexval((unsigned char)p[i]);
        if (h < 0)
            return -1;
        u = u * 16 + h;
    }
    return u;
}

/* One UTF-8 sequence starting with a byte >= 0x80; returns its length or 0. */
static size_t
utf8_len(const unsigned char *p, const unsigned char *e)
{
    unsigned c = p[0];
    size_t n;
    unsigned long u;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        u = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        u = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        u = c & 0x07;
    } else {
        return 0;
    }
    if ((size_t)(e - p) < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        u = (u << 6) | (p[i] & 0x3F);
    }
    if ((n == 3 && u < 0x800) || (n == 4 && (u < 0x10000 || u > 0x10FFFF)) ||
        (u >= 0xD800 && u <= 0xDFFF))
        return 0;
    return n;
}

/* A string starting at the opening quote; returns the byte after the
 * closing quote.  *esc is set when it holds a backslash escape. */
static const char *
string(struct st *st, const char *p, int *esc)
{
    const char *e = st->end;
    *esc = 0;
    p++;
    for (;;) {
        while (p < e && cls[(unsigned char)*p] == 1)
            p++;
        if (p >= e)
            return fail(st, p, "premature end of input in a string");
        unsigned char c = (unsigned char)*p;
        if (c == '"')
            return p + 1;
        if (c < 0x20)
            return fail(st, p, "control character in a string");
        if (c >= 0x80) {
            size_t n = utf8_len((const unsigned char *)p, (const unsigned char *)e);
            if (!n)
                return fail(st, p, "invalid UTF-8 in a string");
            p += n;
            continue;
        }
        /* a backslash */
        *esc = 1;
        if (++p >= e)
            return fail(st, p, "premature end of input in an escape");
        switch (*p) {
        case '"':
        case '\\':
        case '/':
        case 'b':
        case 'f':
        case 'n':
        case 'r':
        case 't':
            p++;
            break;
        case 'u': {
            long u = hex4(p + 1, e);
            if (u < 0)
                return fail(st, p, "invalid \\u escape");
            p += 5;
            if (u == 0)
                return fail(st, p, "\\u0000 is not allowed");
            if (u >= 0xDC00 && u <= 0xDFFF)
                return fail(st, p, "lone low surrogate in a \\u escape");
            if (u >= 0xD800 && u <= 0xDBFF) {
                long l = (e - p >= 6 && p[0] == '\\' && p[1] == 'u') ? hex4(p + 2, e) : -1;
                if (l < 0xDC00 || l > 0xDFFF)
                    return fail(st, p, "high surrogate without a low surrogate");
                p += 6;
            }
            break;
        }
        default:
            return fail(st, p, "invalid escape in a string");
        }
    }
}

static const char *
number(struct st *st, const char *p)
{
    const char *e = st->end;
    if (p < e && *p == '-')
        p++;
    if (p < e && *p == '0') {
        p++;
    } else if (p < e && *p >= '1' && *p <= '9') {
        while (p < e && *p >= '0' && *p <= '9')
            p++;
    } else {
        return fail(st, p, "invalid token");
    }
    if (p < e && *p == '.') {
        p++;
        if (p >= e || *p < '0' || *p > '9')
            return fail(st, p, "invalid number: no digit after the point");
        while (p < e && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < e && (*p == '+' || *p == '-'))
            p++;
        if (p >= e || *p < '0' || *p > '9')
            return fail(st, p, "invalid number: no digit in the exponent");
        while (p < e && *p >= '0' && *p <= '9')
            p++;
    }
    return p;
}

static int
key_is(const char *k, size_t n, int esc, const char *want, size_t wn)
{
    if (!esc)
        return n == wn && (n == 0 || (k[0] == want[0] && memcmp(k, want, n) == 0));
    char buf[256];
    if (n >= sizeof buf)
        return 0;
    size_t m = il_json_unescape(k, n, buf);
    return m == wn && memcmp(buf, want, m) == 0;
}

/* key_is() of an event name as the library records it (il_event_fold): a
 * key that differs from want only in the case of a generic name.  Called
 * where key_is() failed, so only on lines scanned in full. */
static int
key_folds(const char *k, size_t n, int esc, const char *want, size_t wn)
{
    char buf[256];
    if (n >= sizeof buf || (!esc && n != wn))
        return 0;
    size_t m = esc ? il_json_unescape(k, n, buf) : n;
    if (!esc)
        memcpy(buf, k, n);
    return m == wn && il_event_fold(buf, m) && memcmp(buf, want, m) == 0;
}

static const char *value(struct st *st, const char *p, uint64_t mask, int d, int collect);

static const char *
object(struct st *st, const char *p, uint64_t mask, int d, int collect)
{
    const char *e = st->end;
    const struct il_scan *sc = st->sc;
    p = ws(p + 1, e);
    if (p < e && *p == '}')
        return p + 1;
    /* the paths whose key this object has as written: a key that only
     * folds to it (an older build's TASK-CLOCK beside task-clock, both
     * counted under `-e task-clock,TASK-CLOCK`) is not read after it, and
     * the exact key read after a folded one takes its place (review15b
     * L2: the later of the two won, whichever it was) */
    uint64_t exact = 0;
    for (;;) {
        if (p >= e || *p != '"')
            return fail(st, p, "string or '}' expected");
        int esc;
        const char *k = p + 1, *q = string(st, p, &esc);
        if (!q)
            return NULL;
        size_t kn = (size_t)(q - 1 - k);
        if (collect)
            sc->key_cb(sc->key_ctx, collect - 1, k, kn, esc);
        uint64_t sub = 0;
        for (uint64_t m = mask; m; m &= m - 1) {
            int i = __builtin_ctzll(m);
            const struct il_path *pa = &sc->paths[i];
            if (pa->depth <= d)
                continue;
            if (key_is(k, kn, esc, pa->key[d], pa->klen[d])) {
                sub |= (uint64_t)1 << i;
                exact |= (uint64_t)1 << i;
            } else if ((pa->fold >> d & 1) && !(exact >> i & 1) &&
                       key_folds(k, kn, esc, pa->key[d], pa->klen[d])) {
                sub |= (uint64_t)1 << i;
            }
        }
        p = ws(q, e);
        if (p >= e || *p != ':')
            return fail(st, p, "':' expected");
        p = ws(p + 1, e);
        /* collect: 1 + the path whose object's keys are wanted, or 0 */
        int sub_collect = 0;
        for (uint64_t m = sub & sc->keys_of; m && !sub_collect; m &= m - 1) {
            int i = __builtin_ctzll(m);
            if (sc->paths[i].depth == d + 1)
                sub_collect = 1 + i;
        }
        p = value(st, p, sub, d + 1, sub_collect);
        if (!p)
            return NULL;
        p = ws(p, e);
        if (p < e && *p == ',') {
            p = ws(p + 1, e);
            continue;
        }
        if (p < e && *p == '}')
            return p + 1;
        return fail(st, p, "',' or '}' expected");
    }
}

static const char *
array(struct st *st, const char *p, int d)
{
    const char *e = st->end;
    p = ws(p + 1, e);
    if (p < e && *p == ']')
        return p + 1;
    for (;;) {
        p = value(st, p, 0, d + 1, 0);
        if (!p)
            return NULL;
        p = ws(p, e);
        if (p < e && *p == ',') {
            p = ws(p + 1, e);
            continue;
        }
        if (p < e && *p == ']')
            return p + 1;
        return fail(st, p, "',' or ']' expected");
    }
}

static const char *
value(struct st *st, const char *p, uint64_t mask, int d, int collect)
{
    const char *e = st->end, *start = p, *q;
    struct il_scan *sc = st->sc;
    if (d > IL_SCAN_DEPTH)
        return fail(st, p, "maximum parsing depth reached");
    if (p >= e)
        return fail(st, p, "premature end of input");
    int esc;
    switch (*p) {
    case '{':
        q = object(st, p, mask, d, collect);
        break;
    case '[':
        q = array(st, p, d);
        break;
    case '"':
        q = string(st, p, &esc);
        break;
    case 't':
        q = (e - p >= 4 && memcmp(p, "true", 4) == 0) ? p + 4 : fail(st, p, "invalid token");
        break;
    case 'f':
        q = (e - p >= 5 && memcmp(p, "false", 5) == 0) ? p + 5 : fail(st, p, "invalid token");
        break;
    case 'n':
        q = (e - p >= 4 && memcmp(p, "null", 4) == 0) ? p + 4 : fail(st, p, "invalid token");
        break;
    default:
        q = number(st, p);
        break;
    }
    if (!q)
        return NULL;
    if (sc->toks && *start != '{' && *start != '[')
        il_toks_add(sc->toks, (size_t)(start - st->base), (size_t)(q - st->base));
    /* A literal or number must end at a delimiter ("truex", "1x"). */
    if (q < e && *start != '{' && *start != '[' && *start != '"' &&
        !(*q == ',' || *q == '}' || *q == ']' || *q == ' ' || *q == '\t' || *q == '\n' ||
          *q == '\r'))
        return fail(st, q, "invalid token");
    for (uint64_t m = mask; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        if (sc->paths[i].depth == d) {
            sc->found[i].p = start;
            sc->found[i].n = (size_t)(q - start);
        }
    }
    return q;
}

void
il_toks_add(struct il_toks *t, size_t s, size_t e)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->s = il_xrealloc(t->s, t->cap * sizeof *t->s);
        t->e = il_xrealloc(t->e, t->cap * sizeof *t->e);
    }
    t->s[t->n] = (uint32_t)s;
    t->e[t->n++] = (uint32_t)e;
}

/* A scalar (string, number or literal) at p, validated as value() does;
 * the byte after it, or NULL.  Whether a delimiter follows is the
 * caller's to check. */
const char *
il_scan_scalar(const char *p, const char *e)
{
    struct il_scan sc;
    struct st st = {&sc, p, e};
    int esc;
    sc.err = NULL;
    if (p >= e)
        return NULL;
    switch (*p) {
    case '"':
        return string(&st, p, &esc);
    case 't':
        return e - p >= 4 && memcmp(p, "true", 4) == 0 ? p + 4 : NULL;
    case 'f':
        return e - p >= 5 && memcmp(p, "false", 5) == 0 ? p + 5 : NULL;
    case 'n':
        return e - p >= 4 && memcmp(p, "null", 4) == 0 ? p + 4 : NULL;
    case '{':
    case '[':
        return NULL;
    default:
        return number(&st, p);
    }
}

void
il_path_set(struct il_path *p, const char *k0, const char *k1, const char *k2)
{
    const char *k[IL_SCAN_KEYS] = {k0, k1, k2};
    p->depth = 0;
    p->fold = 0;
    for (int i = 0; i < IL_SCAN_KEYS; i++) {
        p->key[i] = k[i];
        p->klen[i] = k[i] ? strlen(k[i]) : 0;
        if (k[i])
            p->depth = i + 1;
    }
}

int
il_scan_line(struct il_scan *sc, const char *s, size_t n)
{
    struct st st = {sc, s, s + n};
    sc->err = NULL;
    sc->errpos = 0;
    for (int i = 0; i < sc->npaths; i++)
        sc->found[i].p = NULL;
    const char *p = ws(s, s + n);
    if (p >= st.end || (*p != '{' && *p != '['))
        return fail(&st, p, "'[' or '{' expected"), -1;
    uint64_t all = sc->npaths >= 64 ? UINT64_MAX : ((uint64_t)1 << sc->npaths) - 1;
    p = value(&st, p, all, 0, 0);
    if (!p)
        return -1;
    p = ws(p, st.end);
    if (p != st.end)
        return fail(&st, p, "end of file expected"), -1;
    return 0;
}

/* Append code point u as UTF-8. */
static size_t
put_utf8(char *o, unsigned long u)
{
    if (u < 0x80) {
        o[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        o[0] = (char)(0xC0 | (u >> 6));
        o[1] = (char)(0x80 | (u & 0x3F));
        return 2;
    }
    if (u < 0x10000) {
        o[0] = (char)(0xE0 | (u >> 12));
        o[1] = (char)(0x80 | ((u >> 6) & 0x3F));
        o[2] = (char)(0x80 | (u & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (u >> 18));
    o[1] = (char)(0x80 | ((u >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((u >> 6) & 0x3F));
    o[3] = (char)(0x80 | (u & 0x3F));
    return 4;
}

/* The input was validated by il_scan_line, so escapes are well formed;
 * a \uXXXX escape takes 6 bytes and yields at most 4 (or 12 -> 4). */
size_t
il_json_unescape(const char *s, size_t n, char *out)
{
    const char *e = s + n;
    size_t o = 0;
    while (s < e) {
        if (*s != '\\') {
            out[o++] = *s++;
            continue;
        }
        s++;
        if (s >= e)
            break;
        char c = *s++;
        switch (c) {
        case 'b':
            out[o++] = '\b';
            break;
        case 'f':
            out[o++] = '\f';
            break;
        case 'n':
            out[o++] = '\n';
            break;
        case 'r':
            out[o++] = '\r';
            break;
        case 't':
            out[o++] = '\t';
            break;
        case 'u': {
            long u = hex4(s, e);
            if (u < 0)
                break;
            s += 4;
            if (u >= 0xD800 && u <= 0xDBFF && e - s >= 6 && s[0] == '\\' && s[1] == 'u') {
                long l = hex4(s + 2, e);
                if (l >= 0xDC00 && l <= 0xDFFF) {
                    u = 0x10000 + ((u - 0xD800) << 10) + (l - 0xDC00);
                    s += 6;
                }
            }
            o += put_utf8(out + o, (unsigned long)u);
            break;
        }
        default:
            out[o++] = c;
            break;
        }
    }
    out[o] = '\0';
    return o;
}

/* A plain integer of at most 18 digits, as strtoll reads it. */
static int
small_int(struct il_span sp, int64_t *v)
{
    const char *p = sp.p, *e = sp.p + sp.n;
    int neg = p < e && *p == '-';
    p += neg;
    if (p == e || e - p > 18)
        return 0;
    int64_t x = 0;
    for (; p < e; p++) {
        unsigned d = (unsigned)(unsigned char)*p - '0';
        if (d > 9)
            return 0;
        x = 10 * x + (int64_t)d;
    }
    *v = neg ? -x : x;
    return 1;
}

/* A span of at most 16 bytes holding an integer that small_int reads:
 * 1 with it as a double and as an integer, or 0. */
static int
short_int(struct il_span sp, double *v, int64_t *x)
{
    char c = sp.n ? sp.p[0] : 0;
    if (sp.n > 16 || (c != '-' && (c < '0' || c > '9')) || !small_int(sp, x))
        return 0;
    /* an integer converts to the nearest double, as strtod rounds its
     * text (and "-0" is -0.0) */
    *v = *x == 0 && c == '-' ? -0.0 : (double)*x;
    return 1;
}

int
il_span_number(struct il_span sp, double *v)
{
    char buf[64], *end;
    if (!sp.p || sp.n == 0)
        return -1;
    char c = sp.p[0];
    if (c != '-' && (c < '0' || c > '9'))
        return -1;
    int64_t x;
    if (short_int(sp, v, &x))
        return 0;
    if (sp.n < sizeof buf) {
        memcpy(buf, sp.p, sp.n);
        buf[sp.n] = '\0';
        *v = strtod(buf, &end);
        return end == buf + sp.n ? 0 : -1;
    }
    char *big = malloc(sp.n + 1);
    if (!big)
        return -1;
    memcpy(big, sp.p, sp.n);
    big[sp.n] = '\0';
    *v = strtod(big, &end);
    int ok = end == big + sp.n;
    free(big);
    return ok ? 0 : -1;
}

int
il_span_int(struct il_span sp, int64_t *v)
{
    char buf[32], *end;
    if (!sp.p || sp.n == 0 || sp.n >= sizeof buf)
        return -1;
    if (small_int(sp, v))
        return 0;
    for (size_t i = 0; i < sp.n; i++)
        if (!(sp.p[i] >= '0' && sp.p[i] <= '9') && !(i == 0 && sp.p[i] == '-'))
            return -1;
    memcpy(buf, sp.p, sp.n);
    buf[sp.n] = '\0';
    errno = 0;
    long long x = strtoll(buf, &end, 10);
    if (errno || end != buf + sp.n)
        return -1;
    *v = x;
    return 0;
}

int
il_span_number_int(struct il_span sp, double *v, int64_t *iv, int *isint)
{
    /* a short integer: il_span_int reads it as small_int does too */
    if (sp.p && short_int(sp, v, iv)) {
        *isint = 1;
        return 0;
    }
    if (il_span_number(sp, v) < 0)
        return -1;
    *isint = il_span_int(sp, iv) == 0;
    return 0;
}
