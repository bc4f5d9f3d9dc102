/*
 * il_plural.h: a count's noun and verb in the number it needs ("1 failed
 * run was", "2 failed runs were"; review15b L4): every message that
 * prints a count of things takes its words from here, not from a copy
 * of the test.
 */
#ifndef IL_PLURAL_H
#define IL_PLURAL_H

#include <stddef.h>

/* one where n is 1, else many */
static inline const char *
il_pl(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

/* a noun's ending: "" where n is 1, else "s" */
static inline const char *
il_s(size_t n)
{
    return il_pl(n, "", "s");
}

#endif
