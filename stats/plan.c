/*
 * plan.c: interloper-plan, repetition counts per level after Kalibera &
 * Jones, from an initial experiment's records.  See interloper-plan(1).
 */
#include <err.h>
#include <errno.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>

#include "il_stats.h"

int
main(int argc, char **argv)
{
    struct il_opts o;
    struct il_report r;
    static char name[] = "interloper plan";
    program_invocation_short_name = name; /* what the user typed, for err(3) */
    gsl_set_error_handler_off();
    il_parse_opts(IL_TOOL_PLAN, argc, argv, &o);
    il_analyze(&o, &r);
    if (o.fmt == IL_FMT_JSON)
        il_out_json(stdout, &r);
    else
        il_out_text(stdout, &r, 0);
    if (fflush(stdout) || ferror(stdout))
        err(1, "stdout");
    return 0;
}
