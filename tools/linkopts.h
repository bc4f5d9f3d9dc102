/*
 * linkopts.h: the options that interloper link and interloper build share
 * (--orders, --jobs, --granularity, --archives, --seed), checked by one set
 * of rules in tools/linkopts.c, so that build refuses a bad value before it
 * builds anything, in link's words.
 */
#ifndef IL_LINKOPTS_H
#define IL_LINKOPTS_H

#include <stddef.h>
#include <stdint.h>

#define IL_MAX_ORDERS 10000
#define IL_MAX_JOBS 256

struct il_link_opts {
    size_t k;         /* binaries */
    int jobs;         /* links at a time */
    int function;     /* granularity function */
    const char *mode; /* archives: keep, used, all */
    uint32_t seed;
    int seed_given;
};

/* Check the options' values (NULL seed: draw one); exits with one line
 * naming the option and what it must be. */
void il_link_opts(struct il_link_opts *o, const char *k, const char *jobs, const char *gran,
                  const char *mode, const char *seed);

#endif
