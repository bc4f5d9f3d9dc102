/*
 * until.c: --until PCT, stop at a precision.  After each batch of setups,
 * interloper report summarises the results so far with the experiment's
 * design (--compare system=FIRST --setup setup) and the sweep stops when
 * the headline 95% interval of every compared ratio (comparisons[].ci, the
 * design-aware one) has a half-width below PCT percent of the ratio.  More
 * setups, not more repetitions, are what it adds: the setup is the highest
 * level of the experiment, where Kalibera and Jones's planning puts the
 * repetitions that buy the most precision when setups cost little (ISMM
 * 2013, section 5).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "il_report.h"
#include "sweep.h"

int
il_until_check(const struct il_sweep *s, char *why, size_t whysz, double *widest)
{
    json_t *r = il_sweep_report(s, why, whysz);
    *widest = INFINITY;
    if (!r)
        return -1;
    json_t *cmps = json_object_get(r, IL_R_COMPARISONS);
    if (!json_array_size(cmps)) {
        snprintf(why, whysz, "interloper report gave no comparison of the systems yet");
        json_decref(r);
        return 0;
    }
    double worst = 0;
    char worst_what[256] = "";
    size_t i;
    json_t *c;
    json_array_foreach(cmps, i, c)
    {
        double ratio = json_number_value(json_object_get(c, IL_R_RATIO));
        const char *kind = json_string_value(json_object_get(c, IL_R_CI_KIND));
        json_t *ci = json_object_get(c, IL_R_CI);
        double hw = INFINITY;
        if (kind && !strcmp(kind, IL_R_BOUNDED) && json_array_size(ci) == 2 && ratio > 0)
            hw = (json_number_value(json_array_get(ci, 1)) -
                  json_number_value(json_array_get(ci, 0))) /
                 2 / ratio * 100;
        if (i == 0 || hw > worst) {
            worst = hw;
            const char *sys =
                json_string_value(json_object_get(json_object_get(c, IL_R_LABELS), IL_L_SYSTEM));
            if (isinf(hw))
                snprintf(worst_what, sizeof worst_what, "%s/%s has no bounded interval",
                         sys ? sys : "?", s->d.sys[0]);
            else
                snprintf(worst_what, sizeof worst_what, "%s/%s %.4g +-%.2f%%", sys ? sys : "?",
                         s->d.sys[0], ratio, hw);
        }
    }
    json_decref(r);
    *widest = worst;
    int done = worst < s->until;
    snprintf(why, whysz, "%s (widest: %s; target +-%g%%)",
             done ? "every ratio's 95% interval is narrow enough"
                  : "not every ratio's 95% interval is narrow enough",
             worst_what, s->until);
    return done;
}
