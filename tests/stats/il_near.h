/*
 * il_near.h: the relative-tolerance check of the statistics unit tests.
 */
#ifndef IL_NEAR_H
#define IL_NEAR_H

#include <math.h>

static void
near(double got, double want, double rel, const char *what)
{
    double tol = rel * fabs(want);
    if (!(fabs(got - want) <= tol))
        fail_msg("%s: got %.15g, expected %.15g (tolerance %.3g)", what, got, want, tol);
}

#endif
