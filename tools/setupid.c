/*
 * setupid.c: a setup's id from its factor values, the one function that
 * names setups, so that a sweep and a hand-written loop of interloper run
 * give the same id to the same setup (interloper-sweep(1), "Setup ids").
 *
 *   e<pad>              the environment pad in bytes (--env-add)
 *   E<size>             or the environment's exact size (--env-size)
 *   -l<layout>          the link order's id, when layouts are a factor
 *   -s<bytes>           the stack offset, when not 0
 *   -h<bytes>           the heap offset, when not 0
 *   -a<token>           with ASLR on, a token of the run: each run is then
 *                       a setup of its own
 *
 * The stack pin is not part of the id: it is a label of its own, so that
 * pinned and unpinned runs of one setup can be compared (Mytkowicz et al.,
 * ASPLOS'09, section 7.2).
 */
#include <stdio.h>

#include "il_tools.h"

void
il_setup_id(const struct il_factors *f, char *out, size_t outsz)
{
    int n = snprintf(out, outsz, "%c%llu", f->env_exact ? 'E' : 'e', f->env);
    if (f->layout && n >= 0 && (size_t)n < outsz)
        n += snprintf(out + n, outsz - (size_t)n, "-l%s", f->layout);
    if (f->stack_offset && n >= 0 && (size_t)n < outsz)
        n += snprintf(out + n, outsz - (size_t)n, "-s%llu", f->stack_offset);
    if (f->heap_offset && n >= 0 && (size_t)n < outsz)
        n += snprintf(out + n, outsz - (size_t)n, "-h%llu", f->heap_offset);
    if (f->aslr_token && n >= 0 && (size_t)n < outsz)
        snprintf(out + n, outsz - (size_t)n, "-a%s", f->aslr_token);
}
