/*
 * report.c: interloper-report, summaries, comparisons and verdicts from
 * interloper records.  See interloper-report(1).
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
    static char name[] = "interloper report";
    program_invocation_short_name = name; /* what the user typed, for err(3) */
    gsl_set_error_handler_off();
    il_parse_opts(IL_TOOL_REPORT, argc, argv, &o);
    il_analyze(&o, &r);
    switch (o.fmt) {
    case IL_FMT_JSON:
        il_out_json(stdout, &r);
        break;
    case IL_FMT_CSV:
        il_out_csv(stdout, &r);
        break;
    case IL_FMT_MARKDOWN:
        il_out_text(stdout, &r, 1);
        break;
    case IL_FMT_GOBENCH:
        il_out_gobench(stdout, &r);
        break;
    case IL_FMT_TABLE:
        il_out_text(stdout, &r, 0);
        break;
    }
    if (fflush(stdout) || ferror(stdout))
        err(1, "stdout");
    /* the records' columns and the groups' values given back on two
     * threads, not by the exit on one (read.c, il_release) */
    il_report_release(&r);
    return 0;
}
