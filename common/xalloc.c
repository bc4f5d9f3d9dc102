/*
 * xalloc.c: allocation that cannot fail (il_xalloc.h).
 */
#include <err.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "il_xalloc.h"

void *
il_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        err(1, "out of memory");
    return p;
}

void *
il_xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p)
        err(1, "out of memory");
    return p;
}

void *
il_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        err(1, "out of memory");
    return q;
}

char *
il_xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p)
        err(1, "out of memory");
    return p;
}

char *
il_xasprintf(const char *fmt, ...)
{
    va_list ap;
    char *s;
    va_start(ap, fmt);
    int n = vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0)
        err(1, "out of memory");
    return s;
}
