/*
 * tmpl.c: lines read by their likeness to a line read before.
 *
 * The records of one writer differ from each other in their values only:
 * the keys, the punctuation and most values (the schema, the host, the
 * constant setup fields) are the same bytes, line after line.  A template
 * is a line that the validating scanner (scan.c) accepted, with the byte
 * offsets of its scalar values (strings, numbers, literals) and of the
 * paths it found.  A new line is compared with it; where they differ, the
 * difference must lie in one of the template's scalars (else the line is
 * scanned in full), and the new line's scalar there is validated as scan.c
 * does (il_scan_scalar) and may have any length; the comparison resumes
 * after it.  The scalars that have differed once ("hot": the run number,
 * the pid, the measured values) are not compared again: the bytes between
 * them are, a run at a time with 64-byte masks (SSE2), and the line's
 * scalar at a hot one is validated directly, so that the comparison has no
 * branch whose outcome changes from line to line (a compare-until-
 * different loop's exits were most of the reading's mispredicted
 * branches); it is checked first at the length it had in the line
 * before (scalar_is), so that where the next one starts does not wait on
 * this one's bytes.  A line that matches to its
 * end is valid JSON: its bytes outside the replaced scalars are the
 * template's, which parse the same around any scalar, and each replaced
 * scalar is valid.  Its paths lie where the template's do, moved by the
 * lengths of the scalars replaced before them.  Anything else (another
 * key, white space, a value that turned into an object, an invalid
 * scalar) is scanned in full by il_scan_line, which names what is wrong,
 * and a valid such line becomes a template itself (the last IL_TMPL_N are
 * kept, the most recently matched tried first).  A line can also be
 * matched before its end is known (il_tmpls_scan_nl), in the bytes read
 * after its start: it is the line when a newline follows the match
 * (after carriage returns, which are not the line's: il_rd_line).
 */
#include <stdlib.h>
#include <string.h>

/* SSE2 is x86-64's baseline.  IL_TMPL_PORTABLE builds the portable path
 * (byte loops and memcmp) on x86-64 too: a unit test suite is built so
 * (test_stats_scan_portable), so that both paths are tested here. */
#if defined(__SSE2__) && !defined(IL_TMPL_PORTABLE)
#define IL_TMPL_SSE2 1
#include <emmintrin.h>
#endif

#include "il_stats.h"

#define IL_TMPL_PAD 64 /* bytes readable after a template's line (eq) */

#ifdef IL_TMPL_SSE2
/* Bit i set when a[i] == b[i], for i below 32. */
static inline uint32_t
eq32(const char *a, const char *b)
{
    __m128i x0 = _mm_loadu_si128((const __m128i *)(const void *)a);
    __m128i y0 = _mm_loadu_si128((const __m128i *)(const void *)b);
    __m128i x1 = _mm_loadu_si128((const __m128i *)(const void *)(a + 16));
    __m128i y1 = _mm_loadu_si128((const __m128i *)(const void *)(b + 16));
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x0, y0)) |
           (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(x1, y1)) << 16;
}
#endif

#ifdef IL_TMPL_SSE2
/* Whether the 64 bytes at a and b are equal: one mask of four compares. */
static inline int
eq64(const char *a, const char *b)
{
    __m128i x = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)a),
                               _mm_loadu_si128((const __m128i *)(const void *)b));
    for (int i = 16; i < 64; i += 16)
        x = _mm_and_si128(x,
                          _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(a + i)),
                                         _mm_loadu_si128((const __m128i *)(const void *)(b + i))));
    return _mm_movemask_epi8(x) == 0xFFFF;
}
#endif

/* Whether the n bytes at a (a template's line, IL_TMPL_PAD bytes readable
 * past its end) equal the n bytes at b, of which avail are readable.  The
 * common case (n <= 64 and 64 bytes readable at b) is four 16-byte
 * compares and one mask test, without a loop. */
static inline __attribute__((always_inline)) int
eq(const char *a, const char *b, size_t n, size_t avail)
{
    if (n > avail)
        return 0;
#ifdef IL_TMPL_SSE2
    for (; n > 64 && avail >= 128; n -= 64, avail -= 64, a += 64, b += 64)
        if (!eq64(a, b))
            return 0;
    for (; n > 64 && avail >= 96; n -= 32, avail -= 32, a += 32, b += 32)
        if (eq32(a, b) != UINT32_MAX)
            return 0;
    if (n <= 64 && avail >= 64) {
        uint64_t m = eq32(a, b) | (uint64_t)eq32(a + 32, b + 32) << 32;
        /* the bits of the n bytes compared (n is 0 to 64) */
        uint64_t want = n ? UINT64_MAX >> (64 - n) : 0;
        return (m & want) == want;
    }
#endif
    return memcmp(a, b, n) == 0;
}

/* eq() of a template's run (n bytes, want its bits: UINT64_MAX >> (64 -
 * n) for n of 1 to 64): as many 16-byte compares as n needs, at most 32
 * bytes, and eq() beyond (a run's length is the same line after line,
 * so the branches go the same way each time). */
static inline int
eq_run(const char *a, const char *b, size_t n, size_t avail, uint64_t want)
{
#ifdef IL_TMPL_SSE2
    if (n <= 16 && avail >= 16) {
        uint32_t m = (uint32_t)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)a),
                           _mm_loadu_si128((const __m128i *)(const void *)b)));
        return (m & want) == want;
    }
    if (n <= 32 && avail >= 32)
        return (eq32(a, b) & want) == want;
#else
    (void)want;
#endif
    return eq(a, b, n, avail);
}

/* The bits of n bytes (0 to 64) in a 64-bit mask. */
static inline uint64_t
bits(size_t n)
{
    return n ? UINT64_MAX >> (64 - n) : 0;
}

static const char *scalar_rest(const char *p, const char *e);

#ifdef IL_TMPL_SSE2
/* The 16 bytes after p (p + 1 to p + 16): *m the bytes that are not
 * digits, *x those that go on a number ('.', 'e', 'E'), bit i byte
 * p + 1 + i. */
static inline void
number_masks(const char *p, unsigned *m, unsigned *x)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 1));
    __m128i d = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8('0' - 1)),
                              _mm_cmplt_epi8(v, _mm_set1_epi8('9' + 1)));
    __m128i f = _mm_or_si128(
        _mm_cmpeq_epi8(v, _mm_set1_epi8('.')),
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('e')), _mm_cmpeq_epi8(v, _mm_set1_epi8('E'))));
    *m = (unsigned)_mm_movemask_epi8(d) ^ 0xFFFFu;
    *x = (unsigned)_mm_movemask_epi8(f);
}

/* The 16 bytes at q that a string of printable ASCII without escapes
 * stops at: a quote, a backslash, or (signed) below 0x20, a control byte
 * or one of UTF-8's. */
static inline unsigned
string_mask(const char *q)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)q);
    __m128i x = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
        _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
    return (unsigned)_mm_movemask_epi8(x);
}
#endif

/* il_scan_scalar, quicker for the common cases: an integer that does not
 * start with 0, a string of printable ASCII without escapes. */
static inline __attribute__((always_inline)) const char *
scalar(const char *p, const char *e)
{
    if (p >= e)
        return NULL; /* the line, or what is read of it, ends before it */
#ifdef IL_TMPL_SSE2
    unsigned char c = (unsigned char)*p;
    /* an integer of 1 to 16 digits: its end and whether a fraction or an
     * exponent follows from the masks of 16 bytes, without a byte loop
     * (whose exit mispredicts at every change of length) */
    if ((unsigned)(c - '1') < 9u && e - p > 16) {
        unsigned m, x;
        number_masks(p, &m, &x);
        if (m && !(x & (m & -m)))
            return p + 1 + __builtin_ctz(m);
    } else if (c == '"') {
        for (const char *q = p + 1; e - q >= 16; q += 16) {
            unsigned m = string_mask(q);
            if (m) {
                q += __builtin_ctz(m);
                return *q == '"' ? q + 1 : il_scan_scalar(p, e);
            }
        }
    }
#endif
    return scalar_rest(p, e);
}

/* Whether the scalar at p (e the line's end) is valid and len bytes
 * long, for the common cases: an integer of up to 16 digits that does not
 * start with 0, a string of up to 32 bytes of printable ASCII without
 * escapes.  0 does not say it is invalid: scalar() decides then.  It asks
 * whether the scalar ends where the one of the line before ended, rather
 * than where it ends: the branch on the answer is predicted, so the next
 * scalar's place (the previous one's end plus what lies between) does
 * not wait for this one's bytes to be loaded and compared, and the
 * scalars of a line are checked side by side rather than one after the
 * other. */
static inline int
scalar_is(const char *p, const char *e, size_t len)
{
#ifdef IL_TMPL_SSE2
    if (p >= e)
        return 0;
    unsigned char c = (unsigned char)*p;
    if ((unsigned)(c - '1') < 9u) {
        if (len > 16 || e - p <= 16)
            return 0;
        /* digits up to p[len - 1], then a byte (p[len]) that is not one
         * and does not go on a number */
        unsigned m, x, end = 1u << (len - 1);
        number_masks(p, &m, &x);
        return (m & (2 * end - 1)) == end && !(x & end);
    }
    if (c == '"') {
        if (len < 2 || len > 33 || e - p <= 32)
            return 0;
        /* none before p[len - 1], the closing quote */
        uint32_t m = string_mask(p + 1) | (uint32_t)string_mask(p + 17) << 16;
        uint32_t end = (uint32_t)1 << (len - 2);
        return (m & (2 * end - 1)) == end && p[len - 1] == '"';
    }
#else
    (void)p;
    (void)e;
    (void)len;
#endif
    return 0;
}

/* scalar() where its masks do not decide: byte by byte. */
static const char *
scalar_rest(const char *p, const char *e)
{
    unsigned char c = (unsigned char)*p;
    if ((unsigned)(c - '1') < 9u) {
        const char *q = p + 1;
        while (q < e && (unsigned)((unsigned char)*q - '0') < 10u)
            q++;
        if (q == e || (*q != '.' && *q != 'e' && *q != 'E'))
            return q;
    }
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
    t->line = il_xrealloc(t->line, n + IL_TMPL_PAD);
    memcpy(t->line, s, n);
    memset(t->line + n, 0, IL_TMPL_PAD);
    t->n = n;
    t->ntok = toks->n;
    t->ts = il_xrealloc(t->ts, (toks->n + 1) * sizeof *t->ts);
    t->te = il_xrealloc(t->te, (toks->n ? toks->n : 1) * sizeof *t->te);
    memcpy(t->ts, toks->s, toks->n * sizeof *t->ts);
    t->ts[toks->n] = (uint32_t)n; /* the next scalar's start after the last */
    t->hot = il_xrealloc(t->hot, toks->n ? toks->n : 1);
    memset(t->hot, 0, toks->n);
    t->run = il_xrealloc(t->run, (toks->n + 1) * sizeof *t->run);
    t->dirty = 1;
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
    /* the paths absent, those that are a scalar, those that are not */
    t->nabs = t->nsc = t->nco = 0;
    for (int i = 0; i < sc->npaths; i++) {
        if (t->ps[i] == UINT32_MAX)
            t->pabs[t->nabs++] = (uint8_t)i;
        else if (t->ptok[i] >= 0)
            t->psc[t->nsc++] = (uint8_t)i;
        else
            t->pco[t->nco++] = (uint8_t)i;
    }
}

/* The replacements of a match (tmpl_match's locals: ts's arrays). */
struct repl {
    uint32_t *dk;
    size_t *dns, *dne, nd;
    long *ds;
};

/* Scalar k (the template's ts[k] to te, te its end) replaced by the
 * line's j to ne: the template's bytes after it are the line's from ne on,
 * shifted by ne - te. */
static inline void
replace(struct repl *d, size_t k, size_t te, size_t j, size_t ne)
{
    d->dk[d->nd] = (uint32_t)k;
    d->dns[d->nd] = j;
    d->dne[d->nd] = ne;
    d->ds[++d->nd] = (long)ne - (long)te;
}

/* The runs: the scalars that differed from the template's in a line
 * matched before ("hot", once and for good), each after the run of bytes
 * from the previous one's end that no line has changed yet. */
static void
runs_set(struct il_tmpl *t)
{
    uint32_t ti = 0;
    t->nrun = 0;
    for (size_t k = 0; k <= t->ntok; k++) {
        if (k < t->ntok && !t->hot[k])
            continue;
        struct il_trun *u = &t->run[t->nrun++];
        u->ti = ti;
        u->len = t->ts[k] - ti;
        u->kb = (uint32_t)k;
        u->te = k < t->ntok ? t->te[k] : t->ts[k];
        u->want = bits(u->len > 64 ? 64 : u->len);
        u->plen = u->te - t->ts[k];
        ti = u->te;
    }
    for (size_t b = 0, r = 0; b < t->nk; b++) {
        while (t->run[r].kb < t->k[b])
            r++;
        t->hb[b] = (uint32_t)r;
    }
    t->dirty = 0;
}

/* 1 with sc->found set when s has t's shape and is valid, else 0; with
 * nl, s is n bytes read from the line's start on, and the line is the
 * bytes matched when a newline follows them, right after or after
 * carriage returns (*nl their number, the carriage returns not counted).
 * Each run of the template's bytes up to a hot scalar is compared at once
 * (eq); the line's scalar there is validated (scalar()) and taken whatever
 * its length.  When a run differs, it is walked scalar by scalar: the
 * template's scalar k with the bytes up to the next (ts[k] to ts[k + 1])
 * are the line's, or the line's scalar there is a valid one of any length
 * followed by the template's bytes up to the next scalar (and k is hot
 * from then on).  This accepts what comparing the whole line until the
 * first difference, then replacing the template's scalar holding it,
 * accepts, with the same replacements, and a hot scalar's bytes the same
 * as the template's in addition (zero shift, the same span). */
static int
tmpl_match(struct il_tmpls *ts, struct il_tmpl *t, struct il_scan *sc, const char *s, size_t n,
           size_t *nl)
{
    size_t j = 0, ti = 0, k = 0;
    int cold = 0; /* a scalar not hot was replaced */
    if (t->dirty)
        runs_set(t);
    if (ts->dcap < t->ntok + 1) {
        ts->dcap = t->ntok + 1;
        ts->dk = il_xrealloc(ts->dk, ts->dcap * sizeof *ts->dk);
        ts->dns = il_xrealloc(ts->dns, ts->dcap * sizeof *ts->dns);
        ts->dne = il_xrealloc(ts->dne, ts->dcap * sizeof *ts->dne);
        ts->ds = il_xrealloc(ts->ds, (ts->dcap + 1) * sizeof *ts->ds);
    }
    struct repl rp = {ts->dk, ts->dns, ts->dne, 0, ts->ds};
    rp.ds[0] = 0; /* ds[i + 1]: the shift after the replacement i */
    for (size_t r = 0; r < t->nrun; r++) {
        const struct il_trun *u = &t->run[r];
        size_t kb = u->kb, len = u->len;
        ti = u->ti;
        if (eq_run(t->line + ti, s + j, len, n - j, u->want)) {
            j += len;
        } else {
            len = t->ts[k] - ti;
            if (!eq(t->line + ti, s + j, len, n - j))
                return 0;
            for (j += len; k < kb; k++) {
                len = t->ts[k + 1] - t->ts[k];
                if (eq(t->line + t->ts[k], s + j, len, n - j)) {
                    j += len;
                    continue;
                }
                const char *q = scalar(s + j, s + n);
                if (!q)
                    return 0;
                size_t ne = (size_t)(q - s), gap = t->ts[k + 1] - t->te[k];
                if (!eq(t->line + t->te[k], q, gap, n - ne))
                    return 0;
                replace(&rp, k, t->te[k], j, ne);
                t->hot[k] = 1;
                t->dirty = cold = 1;
                j = ne + gap;
            }
        }
        if (kb == t->ntok)
            break;
        size_t ne = j + u->plen;
        if (!scalar_is(s + j, s + n, u->plen)) {
            const char *q = scalar(s + j, s + n);
            if (!q)
                return 0;
            ne = (size_t)(q - s);
            t->run[r].plen = ne - j;
        }
        replace(&rp, kb, u->te, j, ne);
        j = ne;
        k = kb + 1;
    }
    /* the line is s[0, n), or, with nl, s[0, j) with a newline at j or
     * carriage returns from j on and then a newline: il_rd_line strips
     * a line's trailing ones, so that a template matches the line without
     * them (review9b: a CRLF line was rejected here, then found by a
     * search for its newline and matched a second time) */
    if (nl) {
        size_t m = j;
        while (m < n && s[m] == '\r')
            m++;
        if (m >= n || s[m] != '\n')
            return 0;
        *nl = j;
    } else if (j != n) {
        return 0;
    }
    ts->dk[rp.nd] = UINT32_MAX; /* a sentinel for the merges below */
    ts->dns[rp.nd] = ts->dne[rp.nd] = 0;
    /* Each boundary's first replacement at or after it, kat[b]; it moved
     * by the shift before that, ds[kat[b]].  When only the hot scalars
     * were replaced, the template's hb; else the boundaries and the
     * replacements (both in order) merged, one step advancing either list
     * without a data-dependent branch. */
    uint32_t katv[2 * IL_SCAN_MAXPATHS];
    const uint32_t *kat = t->hb;
    if (cold) {
        for (size_t b = 0, di = 0; b < t->nk;) {
            size_t adv = ts->dk[di] < t->k[b];
            katv[b] = (uint32_t)di;
            di += adv;
            b += 1 - adv;
        }
        kat = katv;
    }
    for (int i = 0; i < t->nabs; i++)
        sc->found[t->pabs[i]].p = NULL;
    uint64_t same = 0;
    for (int i = 0; i < t->nsc; i++) {
        int p = t->psc[i];
        struct il_span *f = &sc->found[p];
        size_t at = kat[t->pkb[p]];
        /* replaced, or the template's bytes moved by the shift before */
        size_t rep = ts->dk[at] == (uint32_t)t->ptok[p];
        size_t rs = ts->dns[at], rn = ts->dne[at] - ts->dns[at];
        size_t ks = (size_t)((long)t->ps[p] + ts->ds[at]), kn = t->pe[p] - t->ps[p];
        f->p = s + (rep ? rs : ks);
        f->n = rep ? rn : kn;
        /* a hot scalar is replaced even when its bytes are the template's */
        if (!rep ||
            (rn == kn && eq_run(t->line + t->ps[p], s + rs, kn, n - rs, bits(kn > 64 ? 64 : kn))))
            same |= (uint64_t)1 << p;
    }
    for (int i = 0; i < t->nco; i++) {
        int p = t->pco[i];
        struct il_span *f = &sc->found[p];
        long d = ts->ds[kat[t->pkb[p]]], de = ts->ds[kat[t->pke[p]]];
        f->p = s + (long)t->ps[p] + d;
        f->n = (size_t)((long)t->pe[p] + de - ((long)t->ps[p] + d));
    }
    ts->same = same;
    sc->err = NULL;
    sc->errpos = 0;
    return 1;
}

/* The templates tried in turn, the most recently matched first: 1 when
 * one matched (the first in the order when it moves), else 0. */
static int
match_any(struct il_tmpls *ts, struct il_scan *sc, const char *s, size_t n, size_t *nl)
{
    for (size_t r = 0; r < ts->nt; r++) {
        size_t i = ts->order[r];
        if (tmpl_match(ts, &ts->t[i], sc, s, n, nl)) {
            memmove(ts->order + 1, ts->order, r * sizeof *ts->order);
            ts->order[0] = i;
            ts->hits++;
            ts->cur = (int)i;
            return 1;
        }
    }
    return 0;
}

int
il_tmpls_scan_nl(struct il_tmpls *ts, struct il_scan *sc, const char *s, size_t avail, size_t *n)
{
    /* A line a template matches has no newline before its end: the
     * template's bytes have none, and no valid scalar holds one (a
     * string's raw control byte is invalid), so s[0, *n) is the line
     * that searching for the first newline would have found. */
    return match_any(ts, sc, s, avail, n);
}

int
il_tmpls_scan(struct il_tmpls *ts, struct il_scan *sc, const char *s, size_t n)
{
    if (match_any(ts, sc, s, n, NULL))
        return 0;
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

int
il_tmpls_path_toks(const struct il_tmpls *ts, int p, uint32_t *k0, uint32_t *nk)
{
    if (ts->cur < 0)
        return 0;
    const struct il_tmpl *t = &ts->t[ts->cur];
    if (p >= t->npaths || t->ps[p] == UINT32_MAX || t->ptok[p] >= 0)
        return 0;
    *k0 = t->k[t->pkb[p]];
    *nk = t->k[t->pke[p]] - *k0;
    return 1;
}

void
il_tmpls_toks(const struct il_tmpls *ts, const char *s, uint32_t k0, uint32_t nk,
              struct il_span *out, uint8_t *rep)
{
    const struct il_tmpl *t = &ts->t[ts->cur];
    size_t d = 0;
    /* the replacements are in the order of their scalars, UINT32_MAX
     * after the last (tmpl_match) */
    while (ts->dk[d] < k0)
        d++;
    for (uint32_t i = 0; i < nk; i++) {
        uint32_t k = k0 + i;
        rep[i] = ts->dk[d] == k;
        if (rep[i]) {
            out[i].p = s + ts->dns[d];
            out[i].n = ts->dne[d] - ts->dns[d];
            d++;
        } else {
            /* the template's bytes, moved by the shift before them */
            out[i].p = s + (long)t->ts[k] + ts->ds[d];
            out[i].n = t->te[k] - t->ts[k];
        }
    }
}

void
il_tmpls_free(struct il_tmpls *ts)
{
    for (size_t i = 0; i < IL_TMPL_N; i++) {
        free(ts->t[i].line);
        free(ts->t[i].ts);
        free(ts->t[i].te);
        free(ts->t[i].at);
        free(ts->t[i].hot);
        free(ts->t[i].run);
    }
    free(ts->toks.s);
    free(ts->toks.e);
    free(ts->dk);
    free(ts->dns);
    free(ts->dne);
    free(ts->ds);
    memset(ts, 0, sizeof *ts);
}
