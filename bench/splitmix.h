/*
 * bench/splitmix.h: the generators' uniform and normal draws
 * (bench/records.c, bench/planted.c): splitmix64 from the state rng, which
 * a generator may seed, and Box-Muller.
 */
#ifndef IL_BENCH_SPLITMIX_H
#define IL_BENCH_SPLITMIX_H

#include <math.h>
#include <stdint.h>

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static double
unif(void)
{
    /* splitmix64 */
    uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double
gauss(void)
{
    return sqrt(-2 * log(unif())) * cos(6.283185307179586 * unif());
}

#endif
