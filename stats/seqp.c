/*
 * seqp.c: a permutation p-value counted exchange by exchange, which stops
 * early once its side of IL_PERM_ALPHA is decided (interloper-report(1),
 * "Setup effect"; issue 18).
 *
 * Besag and Clifford's sequential Monte Carlo p-value ("Sequential Monte
 * Carlo p-values", Biometrika 78(2), 1991, 301-304).  Of at most P
 * exchanges, stop at the l-th once h of them have reached the statistic
 * and give p = h / l; if fewer than h ever do, all P are run and
 * p = (g + 1) / (P + 1), the full test's.  Either way p is a valid
 * p-value (Pr(p <= a) <= a under the null, their section 2), whatever h.
 * h is the least count with h / P > IL_PERM_ALPHA and
 * (h + 1) / (P + 1) > IL_PERM_ALPHA: a test that stops has then both its
 * p and the full test's p (at least h + 1 of P + 1, since the stopped
 * exchanges are the first of the full test's, the same draws) above every
 * threshold at or below IL_PERM_ALPHA, and a test that does not stop
 * gives the full test's p exactly.  So with the same --seed the decision
 * at 5% (and at any smaller threshold) is the full test's, with no error
 * at all; only p-values above 5% move, by the Monte Carlo error of h
 * exceedances (about p / sqrt(h)).  Under no effect (p uniform) the test
 * runs about h / p exchanges: with P = 999, h = 50, about 200 on average
 * (half of them at p = 0.1, a tenth at p = 0.5).  Kalibera and Jones
 * (ISMM 2013, section 9) take their tests' error from the design, not
 * from the Monte Carlo: the rule keeps the Monte Carlo out of every
 * decision.
 */
#include <math.h>
#include <string.h>

#include "il_stats.h"

void
il_seqp_init(struct il_seqp *s, size_t P, int sequential)
{
    memset(s, 0, sizeof *s);
    s->P = P;
    if (!sequential || P == 0)
        return;
    size_t h = (size_t)floor(IL_PERM_ALPHA * (double)P) + 1;
    while ((double)h / (double)P <= IL_PERM_ALPHA ||
           (double)(h + 1) / (double)(P + 1) <= IL_PERM_ALPHA)
        h++;
    s->h = h <= P ? h : 0;
}

int
il_seqp_add(struct il_seqp *s, int reached)
{
    s->done++;
    s->ge += reached != 0;
    s->stopped = s->h && s->ge >= s->h;
    return s->stopped;
}

double
il_seqp_p(const struct il_seqp *s)
{
    if (!s->done)
        return NAN;
    if (s->stopped)
        return (double)s->ge / (double)s->done;
    return (double)(s->ge + 1) / (double)(s->done + 1);
}
