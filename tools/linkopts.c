/*
 * linkopts.c: the checks of the options interloper link and interloper
 * build share (linkopts.h).
 */
#include <err.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "linkopts.h"

/* A decimal integer of at most MAX, or exit naming the option. */
static uint64_t
num(const char *name, const char *v, uint64_t max)
{
    if (!*v || strspn(v, "0123456789") != strlen(v))
        errx(1, "%s must be a decimal integer, not '%s'", name, v);
    const char *p = v;
    while (p[0] == '0' && p[1])
        p++;
    uint64_t x = 0;
    if (strlen(p) > 10)
        errx(1, "%s must be at most %llu, not '%s'", name, (unsigned long long)max, v);
    for (; *p; p++)
        x = x * 10 + (uint64_t)(*p - '0');
    if (x > max)
        errx(1, "%s must be at most %llu, not '%s'", name, (unsigned long long)max, v);
    return x;
}

void
il_link_opts(struct il_link_opts *o, const char *k, const char *jobs, const char *gran,
             const char *mode, const char *seed)
{
    o->k = (size_t)num("--orders", k, IL_MAX_ORDERS);
    if (o->k < 1)
        errx(1, "--orders must be at least 1");
    o->jobs = (int)num("--jobs", jobs, IL_MAX_JOBS);
    if (o->jobs < 1)
        errx(1, "--jobs must be at least 1");
    if (strcmp(gran, "object") && strcmp(gran, "function"))
        errx(1, "--granularity must be 'object' or 'function', not '%s'", gran);
    o->function = !strcmp(gran, "function");
    if (strcmp(mode, "keep") && strcmp(mode, "used") && strcmp(mode, "all"))
        errx(1, "--archives must be 'keep', 'used' or 'all', not '%s'", mode);
    o->mode = mode;
    o->seed_given = seed != NULL;
    if (seed)
        o->seed = (uint32_t)num("--seed", seed, 4294967295u);
    else if (getrandom(&o->seed, sizeof o->seed, 0) != sizeof o->seed)
        o->seed = (uint32_t)time(NULL) ^ (uint32_t)getpid();
}
