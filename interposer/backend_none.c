/*
 * backend_none.c: no counters, times only (wall, user, sys, maxrss,
 * context switches).  What is left when no backend can count, or when
 * INTERLOPER_BACKEND=none asks for it.
 */
#include "il.h"

static int
none_open(void)
{
    return 0;
}

static void
none_nothing(void)
{
}

const struct il_backend il_backend_none = {
    .name = "none",
    .caps = IL_CAP_FORK,
    .open = none_open,
    .enable = none_nothing,
    .stop_read = none_nothing,
    .floor = none_nothing,
    .restart = none_nothing,
    .after_fork = none_nothing,
    .close = none_nothing,
};
