/*
 * il_xalloc.h: allocation that cannot fail, for the command-line programs
 * (never the library): out of memory ends the program with err(3).
 */
#ifndef IL_XALLOC_H
#define IL_XALLOC_H

#include <stddef.h>

void *il_xmalloc(size_t n);
void *il_xcalloc(size_t n, size_t sz);
void *il_xrealloc(void *p, size_t n);
char *il_xstrdup(const char *s);
/* printf into a new string */
char *il_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
