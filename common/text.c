/*
 * text.c: growing strings and string vectors, UTF-8, JSON and sh quoting,
 * for every interloper C command (il_util.h; allocation: xalloc.c; the
 * system's side: system.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_util.h"

void
il_buf_add(struct il_buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->n + n + 1 > cap)
            cap *= 2;
        b->p = il_xrealloc(b->p, cap);
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

void
il_buf_str(struct il_buf *b, const char *s)
{
    il_buf_add(b, s, strlen(s));
}

void
il_buf_printf(struct il_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof small) {
        il_buf_add(b, small, (size_t)n);
        return;
    }
    char *big = il_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    il_buf_add(b, big, (size_t)n);
    free(big);
}

/* The length of the UTF-8 sequence at p, or 0 if it is not one (overlong
 * forms, surrogates and values above U+10FFFF are not). */
size_t
il_utf8_len(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    size_t n = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (!n || p[0] > 0xf4)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
        (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
        return 0;
    return n;
}

int
il_utf8_ok(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = il_utf8_len(p);
        if (!n)
            return 0;
        p += n;
    }
    return 1;
}

char *
il_utf8_fix(const char *s)
{
    struct il_buf b = {0};
    il_buf_str(&b, "");
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = il_utf8_len(p);
        if (n) {
            il_buf_add(&b, (const char *)p, n);
            p += n;
        } else {
            /* a byte that is not UTF-8: as the Latin-1 character it would be */
            char two[2] = {(char)(0xc0 | (*p >> 6)), (char)(0x80 | (*p & 0x3f))};
            il_buf_add(&b, two, 2);
            p++;
        }
    }
    return b.p;
}

void
il_buf_json(struct il_buf *b, const char *s)
{
    char *fixed = il_utf8_ok(s) ? NULL : il_utf8_fix(s);
    if (fixed)
        s = fixed;
    il_buf_add(b, "\"", 1);
    const char *run = s;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x20 && *p != '"' && *p != '\\')
            continue;
        il_buf_add(b, run, (size_t)((const char *)p - run));
        if (*p == '"' || *p == '\\') {
            char esc[2] = {'\\', (char)*p};
            il_buf_add(b, esc, 2);
        } else {
            il_buf_printf(b, "\\u%04x", *p);
        }
        run = (const char *)p + 1;
    }
    il_buf_str(b, run);
    il_buf_add(b, "\"", 1);
    free(fixed);
}

void
il_buf_shell(struct il_buf *b, const char *s, const char *nl)
{
    il_buf_add(b, "'", 1);
    for (const char *p = s; *p; p++) {
        if (*p == '\'')
            il_buf_str(b, "'\\''");
        else if (*p == '\n' && nl)
            il_buf_str(b, nl);
        else
            il_buf_add(b, p, 1);
    }
    il_buf_add(b, "'", 1);
}

void
il_buf_word(struct il_buf *b, const char *s)
{
    int plain = *s != 0;
    for (const char *p = s; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-",
                       *p) != NULL;
    if (plain)
        il_buf_str(b, s);
    else
        il_buf_shell(b, s, NULL);
}

void
il_buf_free(struct il_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

void
il_strv_push_own(struct il_strv *s, char *str)
{
    if (s->n + 2 > s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->v = il_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    s->v[s->n++] = str;
    s->v[s->n] = NULL;
}

void
il_strv_push(struct il_strv *s, const char *str)
{
    il_strv_push_own(s, il_xstrdup(str));
}

void
il_strv_free(struct il_strv *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}
