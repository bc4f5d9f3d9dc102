/*
 * libc.c: the few string functions the library uses, defined hidden in
 * libinterloper.so only (the tools and tests use libc's).
 *
 * Each function imported from libc costs the dynamic loader a symbol
 * lookup in every measured process (about 800 instructions); these are
 * a few lines each, and the compiler's own calls to memcpy and memset
 * bind here too.  All are on the signal-safety(7) list anyway.
 */
#include <stddef.h>
#include <string.h>

/* The loops below must not become calls to memcpy or memset, which are
 * these very functions: gcc's loop distribution and clang's loop idiom
 * recognition are turned off for them. */
#ifdef __clang__
#define IL_LIBC __attribute__((visibility("hidden"), no_builtin))
#else
#define IL_LIBC __attribute__((visibility("hidden"), optimize("no-tree-loop-distribute-patterns")))
#endif

typedef unsigned long word __attribute__((may_alias));
#define ALIGNED(p) (((unsigned long)(p) & (sizeof(word) - 1)) == 0)

IL_LIBC void *
memcpy(void *restrict d, const void *restrict s, size_t n)
{
    unsigned char *a = d;
    const unsigned char *b = s;
    /* a word at a time, aligned or not (the compiler makes each a load
     * and a store, byte by byte where the machine needs alignment) */
    for (; n >= sizeof(word); n -= sizeof(word), a += sizeof(word), b += sizeof(word)) {
        word w;
        __builtin_memcpy(&w, b, sizeof w);
        __builtin_memcpy(a, &w, sizeof w);
    }
    while (n--)
        *a++ = *b++;
    return d;
}

IL_LIBC void *
memmove(void *d, const void *s, size_t n)
{
    unsigned char *a = d;
    const unsigned char *b = s;
    if (a < b)
        while (n--)
            *a++ = *b++;
    else
        while (n--)
            a[n] = b[n];
    return d;
}

IL_LIBC void *
memset(void *d, int c, size_t n)
{
    unsigned char *a = d;
    for (; n && !ALIGNED(a); n--)
        *a++ = (unsigned char)c;
    word w = (unsigned char)c * (~(word)0 / 255);
    for (; n >= sizeof(word); n -= sizeof(word), a += sizeof(word))
        *(word *)a = w;
    while (n--)
        *a++ = (unsigned char)c;
    return d;
}

IL_LIBC int
memcmp(const void *x, const void *y, size_t n)
{
    const unsigned char *a = x, *b = y;
    for (; n; n--, a++, b++)
        if (*a != *b)
            return *a - *b;
    return 0;
}

#if defined(__SSE2__)
#include <emmintrin.h>
/* Sixteen bytes at a time once aligned (the environment alone is
 * kilobytes, scanned in every process): an aligned load never crosses a
 * page, so reading past the terminator within it is safe. */
IL_LIBC size_t
strlen(const char *s)
{
    const char *p = s;
    const __m128i zero = _mm_setzero_si128();
    if (((unsigned long)p & 4095) <= 4096 - 16) {
        /* the first sixteen, unaligned, when they lie in one page */
        int m = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)p), zero));
        if (m)
            return (size_t)__builtin_ctz((unsigned)m);
        p = (const char *)(((unsigned long)p + 16) & ~15UL);
    } else {
        for (; ((unsigned long)p & 15); p++)
            if (!*p)
                return (size_t)(p - s);
    }
    for (;; p += 16) {
        int m = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_load_si128((const __m128i *)p), zero));
        if (m)
            return (size_t)(p - s) + (size_t)__builtin_ctz((unsigned)m);
    }
}
#else
/* A word at a time once aligned: an aligned word never crosses a page,
 * so reading past the terminator within it is safe. */
IL_LIBC size_t
strlen(const char *s)
{
    const char *p = s;
    for (; !ALIGNED(p); p++)
        if (!*p)
            return (size_t)(p - s);
    const word ones = ~(word)0 / 255, highs = ones << 7;
    const word *w = (const word *)p;
    while (!((*w - ones) & ~*w & highs))
        w++;
    for (p = (const char *)w; *p; p++)
        ;
    return (size_t)(p - s);
}
#endif

IL_LIBC int
strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

IL_LIBC int
strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++)
        if (*a != *b || !*a)
            return (unsigned char)*a - (unsigned char)*b;
    return 0;
}

#if defined(__SSE2__)
/* Sixteen bytes at a time, as strlen: the first of c or the terminator. */
IL_LIBC char *
strchr(const char *s, int c)
{
    const char *p = s;
    const __m128i zero = _mm_setzero_si128(), cc = _mm_set1_epi8((char)c);
    if (((unsigned long)p & 4095) <= 4096 - 16) {
        /* the first sixteen, unaligned, when they lie in one page */
        __m128i x = _mm_loadu_si128((const __m128i *)p);
        int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, zero), _mm_cmpeq_epi8(x, cc)));
        if (m) {
            p += __builtin_ctz((unsigned)m);
            return *p == (char)c ? (char *)p : NULL;
        }
        p = (const char *)(((unsigned long)p + 16) & ~15UL);
    } else {
        for (; ((unsigned long)p & 15); p++) {
            if (*p == (char)c)
                return (char *)p;
            if (!*p)
                return NULL;
        }
    }
    for (;; p += 16) {
        __m128i x = _mm_load_si128((const __m128i *)p);
        int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, zero), _mm_cmpeq_epi8(x, cc)));
        if (m) {
            p += __builtin_ctz((unsigned)m);
            return *p == (char)c ? (char *)p : NULL;
        }
    }
}
#else
IL_LIBC char *
strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (!*s)
            return NULL;
    }
}
#endif

IL_LIBC char *
strrchr(const char *s, int c)
{
    const char *r = NULL;
    for (;; s++) {
        if (*s == (char)c)
            r = s;
        if (!*s)
            return (char *)r;
    }
}

IL_LIBC char *
strstr(const char *h, const char *n)
{
    for (; *h; h++) {
        size_t i = 0;
        while (n[i] && h[i] == n[i])
            i++;
        if (!n[i])
            return (char *)h;
    }
    return *n ? NULL : (char *)h;
}

/* clang's calls: memcmp(...) == 0 becomes bcmp, and a strcpy is kept as a
 * call (the library links without libc, so these would be imports) */
IL_LIBC int
bcmp(const void *x, const void *y, size_t n)
{
    return memcmp(x, y, n);
}

IL_LIBC char *
strcpy(char *restrict d, const char *restrict s)
{
    char *p = d;
    while ((*p++ = *s++))
        ;
    return d;
}
