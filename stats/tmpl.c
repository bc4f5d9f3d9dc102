/*
 * tmpl.c: lines read by their likeness to a line read before.
 *
 * The records of one writer differ from each other in their values only:
 * the keys, the punctuation and most values (the schema, the host, the
 * constant setup fields) are the same bytes, line after line.  A template
 * is a line that the validating scanner (scan.c) accepted, with the byte
 * offsets of its scalar values (strings, numbers, literals) and of the
 * paths it found.  A new line is compared with it byte for byte, 16 bytes
 * at a time; where they differ, the difference must lie in one of the
 * template's scalars (else the line is scanned in full), and the new line's
 * scalar there is validated as scan.c does (il_scan_scalar) and may have
 * any length; the comparison resumes after it.  A line that matches to its
 * end is valid JSON: its bytes outside the replaced scalars are the
 * template's, which parse the same around any scalar, and each replaced
 * scalar is valid.  Its paths lie where the template's do, moved by the
 * lengths of the scalars replaced before them.  Anything else (another
 * key, white space, a value that turned into an object, an invalid
 * scalar) is scanned in full by il_scan_line, which names what is wrong,
 * and a valid such line becomes a template itself (the last IL_TMPL_N are
 * kept, the most recently matched tried first).
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "il_stats.h"

/* The length of the common prefix of a and b (n bytes each). */
static size_t
common(const char *a, const char *b, size_t n)
{
    size_t i = 0;
#ifdef __SSE2__
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(a + i));
        __m128i y = _mm_loadu_si128((const __m128i *)(const void *)(b + i));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) ^ 0xFFFFu;
        if (m)
            return i + (size_t)__builtin_ctz(m);
    }
#else
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, a + i, 8);
        memcpy(&y, b + i, 8);
        if (x != y)
            break;
    }
#endif
    while (i < n && a[i] == b[i])
        i++;
    return i;
}

/* il_scan_scalar, quicker for the common cases: an integer that does not
 * start with 0, a string of printable ASCII without escapes. */
static const char *
scalar(const char *p, const char *e)
{
    unsigned char c = (unsigned char)*p;
    if ((unsigned)(c - '1') < 9u) {
        const char *q = p + 1;
#ifdef __SSE2__
        /* the first non-digit of the next 16 bytes without a branch a
         * digit: the loop's exit mispredicts at every length change */
        if (e - q >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
            __m128i d = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                                      _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
            unsigned m = (unsigned)_mm_movemask_epi8(d) ^ 0xFFFFu;
            if (m)
                q += __builtin_ctz(m);
            else
                q += 16;
        }
#endif
        while (q < e && (unsigned)((unsigned char)*q - '0') < 10u)
            q++;
        if (q == e || (*q != '.' && *q != 'e' && *q != 'E'))
            return q;
    }
#ifdef __SSE2__
    else if (c == '"') {
        const __m128i quote = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
                      sp = _mm_set1_epi8(0x20);
        for (const char *q = p + 1; e - q >= 16; q += 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
            /* a quote, a backslash, or (signed) below 0x20: a control
             * byte or one of UTF-8's */
            __m128i x = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bs)),
                                     _mm_cmplt_epi8(v, sp));
            unsigned m = (unsigned)_mm_movemask_epi8(x);
            if (m) {
                q += __builtin_ctz(m);
                return *q == '"' ? q + 1 : il_scan_scalar(p, e);
            }
        }
    }
#endif
    return il_scan_scalar(p, e);
}

/* The number of tokens starting before offset off. */
static uint32_t
toks_before(const struct il_tmpl *t, size_t off)
{
    size_t lo = 0, hi = t->ntok;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->ts[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint32_t)lo;
}

static int
cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The index of boundary K among t->k. */
static uint32_t
boundary(const struct il_tmpl *t, uint32_t K)
{
    size_t b = 0;
    while (t->k[b] != K)
        b++;
    return (uint32_t)b;
}

/* Make t the template of line s (n bytes), which sc has just scanned with
 * its scalars in toks. */
static void
tmpl_set(struct il_tmpl *t, const struct il_scan *sc, const struct il_toks *toks, const char *s,
         size_t n)
{
    t->line = il_xrealloc(t->line, n ? n : 1);
    memcpy(t->line, s, n);
    t->n = n;
    t->ntok = toks->n;
    t->ts = il_xrealloc(t->ts, (toks->n ? toks->n : 1) * sizeof *t->ts);
    t->te = il_xrealloc(t->te, (toks->n ? toks->n : 1) * sizeof *t->te);
    memcpy(t->ts, toks->s, toks->n * sizeof *t->ts);
    memcpy(t->te, toks->e, toks->n * sizeof *t->te);
    t->at = il_xrealloc(t->at, (n + 1) * sizeof *t->at);
    memset(t->at, 0, (n + 1) * sizeof *t->at);
    for (size_t k = 0; k < t->ntok; k++)
        for (size_t i = t->ts[k]; i <= t->te[k]; i++)
            t->at[i] = (uint16_t)(k + 1);
    t->npaths = sc->npaths;
    for (int i = 0; i < sc->npaths; i++) {
        const struct il_span *f = &sc->found[i];
        t->ptok[i] = -1;
        if (!f->p) {
            t->ps[i] = UINT32_MAX;
            continue;
        }
        t->ps[i] = (uint32_t)(f->p - s);
        t->pe[i] = (uint32_t)(f->p - s + f->n);
        if (f->p[0] != '{' && f->p[0] != '[')
            t->ptok[i] = (int32_t)t->at[t->ps[i]] - 1;
        t->pkb[i] = toks_before(t, t->ps[i]);
        t->pke[i] = toks_before(t, t->pe[i]);
    }
    /* the boundaries, sorted and distinct; paths refer to them by index */
    t->nk = 0;
    for (int i = 0; i < sc->npaths; i++) {
        if (t->ps[i] == UINT32_MAX)
            continue;
        t->k[t->nk++] = t->pkb[i];
        if (t->ptok[i] < 0)
            t->k[t->nk++] = t->pke[i];
    }
    qsort(t->k, t->nk, sizeof *t->k, cmp_u32);
    size_t m = 0;
    for (size_t b = 0; b < t->nk; b++)
        if (m == 0 || t->k[m - 1] != t->k[b])
            t->k[m++] = t->k[b];
    t->nk = m;
    for (int i = 0; i < sc->npaths; i++) {
        if (t->ps[i] == UINT32_MAX)
            continue;
        t->pkb[i] = boundary(t, t->pkb[i]);
        if (t->ptok[i] < 0)
            t->pke[i] = boundary(t, t->pke[i]);
    }
}

/* 1 with sc->found set when s has t's shape and is valid, else 0. */
static int
tmpl_match(struct il_tmpls *ts, const struct il_tmpl *t, struct il_scan *sc, const char *s,
           size_t n)
{
    size_t i = 0, j = 0, nd = 0, last = SIZE_MAX;
    long shift = 0;
    for (;;) {
        size_t m = t->n - i < n - j ? t->n - i : n - j;
        size_t c = common(t->line + i, s + j, m);
        i += c;
        j += c;
        if (c == m && i == t->n && j == n)
            break;
        size_t k1 = t->at[i];
        if (!k1 || k1 - 1 == last)
            return 0;
        size_t k = k1 - 1, ns = j - (i - t->ts[k]);
        const char *q = scalar(s + ns, s + n);
        if (!q)
            return 0;
        size_t ne = (size_t)(q - s);
        if (nd == ts->dcap) {
            ts->dcap = ts->dcap ? 2 * ts->dcap : 64;
            ts->dk = il_xrealloc(ts->dk, ts->dcap * sizeof *ts->dk);
            ts->dns = il_xrealloc(ts->dns, ts->dcap * sizeof *ts->dns);
            ts->dne = il_xrealloc(ts->dne, ts->dcap * sizeof *ts->dne);
            ts->ds = il_xrealloc(ts->ds, ts->dcap * sizeof *ts->ds);
        }
        shift += (long)(ne - ns) - (long)(t->te[k] - t->ts[k]);
        ts->dk[nd] = (uint32_t)k;
        ts->dns[nd] = ns;
        ts->dne[nd] = ne;
        ts->ds[nd++] = shift;
        last = k;
        i = t->te[k];
        j = ne;
    }
    /* How far each boundary moved: the shift of the last replaced
     * scalar before it (the boundaries and the replacements both in
     * order), and the first replacement at or after it. */
    long ksh[2 * IL_SCAN_MAXPATHS];
    size_t kat[2 * IL_SCAN_MAXPATHS];
    for (size_t b = 0, di = 0; b < t->nk; b++) {
        while (di < nd && ts->dk[di] < t->k[b])
            di++;
        ksh[b] = di ? ts->ds[di - 1] : 0;
        kat[b] = di;
    }
    uint64_t same = 0;
    for (int p = 0; p < t->npaths; p++) {
        struct il_span *f = &sc->found[p];
        if (t->ps[p] == UINT32_MAX) {
            f->p = NULL;
            continue;
        }
        long d = ksh[t->pkb[p]];
        size_t at = kat[t->pkb[p]];
        if (t->ptok[p] >= 0) {
            if (at < nd && ts->dk[at] == (uint32_t)t->ptok[p]) {
                f->p = s + ts->dns[at];
                f->n = ts->dne[at] - ts->dns[at];
            } else {
                f->p = s + (long)t->ps[p] + d;
                f->n = t->pe[p] - t->ps[p];
                same |= (uint64_t)1 << p;
            }
            continue;
        }
        long de = ksh[t->pke[p]];
        f->p = s + (long)t->ps[p] + d;
        f->n = (size_t)((long)t->pe[p] + de - ((long)t->ps[p] + d));
    }
    ts->same = same;
    sc->err = NULL;
    sc->errpos = 0;
    return 1;
}

int
il_tmpls_scan(struct il_tmpls *ts, struct il_scan *sc, const char *s, size_t n)
{
    for (size_t r = 0; r < ts->nt; r++) {
        size_t i = ts->order[r];
        if (tmpl_match(ts, &ts->t[i], sc, s, n)) {
            memmove(ts->order + 1, ts->order, r * sizeof *ts->order);
            ts->order[0] = i;
            ts->hits++;
            ts->cur = (int)i;
            return 0;
        }
    }
    ts->misses++;
    ts->cur = -1;
    ts->same = 0;
    if (n > IL_TMPL_MAXLINE)
        return il_scan_line(sc, s, n);
    ts->toks.n = 0;
    sc->toks = &ts->toks;
    int e = il_scan_line(sc, s, n);
    sc->toks = NULL;
    if (e < 0)
        return e;
    /* A new template, in the place of the least recently matched. */
    size_t i = ts->nt < IL_TMPL_N ? ts->nt++ : ts->order[IL_TMPL_N - 1];
    size_t r = 0;
    while (r + 1 < ts->nt && ts->order[r] != i)
        r++;
    memmove(ts->order + 1, ts->order, r * sizeof *ts->order);
    ts->order[0] = i;
    tmpl_set(&ts->t[i], sc, &ts->toks, s, n);
    ts->gen[i] = ++ts->ngen;
    return 0;
}

void
il_tmpls_free(struct il_tmpls *ts)
{
    for (size_t i = 0; i < IL_TMPL_N; i++) {
        free(ts->t[i].line);
        free(ts->t[i].ts);
        free(ts->t[i].te);
        free(ts->t[i].at);
    }
    free(ts->toks.s);
    free(ts->toks.e);
    free(ts->dk);
    free(ts->dns);
    free(ts->dne);
    free(ts->ds);
    memset(ts, 0, sizeof *ts);
}
