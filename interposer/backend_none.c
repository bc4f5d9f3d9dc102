/*
 * backend_none.c: no counters, times only (wall, user, sys, maxrss,
 * context switches).  What is left when no backend can count, or when
 * INTERLOPER_BACKEND=none asks for it.
 */
#include "il.h"

const struct il_backend il_backend_none = {"none", IL_CAP_FORK, IL_BACKEND_NONE};

int
il_none_do(enum il_be_op op)
{
    (void)op; /* nothing to open, count or close */
    return 0;
}
