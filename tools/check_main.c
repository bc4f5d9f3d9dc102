/*
 * interloper check: is this machine fit to measure on?  One line for each
 * fact that bears on measurements (check.c judges what machine.c reads):
 * what is wrong and how to fix it.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "il_opt.h"
#include "sweep.h"
#include "il_plural.h"

static const struct il_opt opts[] = {
    {"json", 0, IL_OPT_FLAG, NULL, "the findings as JSON, with the machine's state", 1},
    {0},
};

static const struct il_cmd cmd = {
    .name = "interloper check",
    .synopsis = "[--json]",
    .about = "Check the machine before measuring: other load, the CPU frequency governor\n"
             "and boost, busy SMT siblings, steal time, transparent huge pages,\n"
             "perf_event_paranoid, ASLR and whether the software events' switches are\n"
             "held; one line each, saying what is wrong and how to fix it.  Exit status\n"
             "0 when nothing is wrong, 2 when something is.",
    .man = "interloper-check(1)",
    .opts = opts,
};

int
main(int argc, char **argv)
{
    int json = 0;
    struct il_optp p;
    il_opt_init(&p, &cmd, argc, argv);
    while (il_opt_next(&p))
        json = 1;
    if (p.i < argc)
        il_opt_usage(&cmd, "unexpected '%s'; interloper check takes no operands", argv[p.i]);
    json_t *m = il_machine();
    struct il_findings fs;
    il_check(&fs, m, 0);
    if (json) {
        json_t *o = json_pack("{s:s,s:o,s:O}", "tool", "check", "findings", il_findings_json(&fs),
                              "machine", m);
        if (json_dumpf(o, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0)
            err(1, "cannot write");
        putchar('\n');
        json_decref(o);
    } else {
        static const char *const lv[] = {"ok", "note", "PROBLEM"};
        const char *host = json_string_value(json_object_get(m, IL_F_HOST));
        const char *cpu = json_string_value(json_object_get(m, IL_F_CPU));
        const char *kern = json_string_value(json_object_get(m, IL_F_KERNEL));
        printf("machine %s: %s, %ld CPUs online, %s\n", host ? host : "?", cpu ? cpu : "?",
               sysconf(_SC_NPROCESSORS_ONLN), kern ? kern : "?");
        for (size_t i = 0; i < fs.n; i++)
            printf("  %-8s %-9s %s\n", lv[fs.v[i].level], fs.v[i].name, fs.v[i].text);
        if (fs.problems)
            printf("%zu problem%s: measurements here may be disturbed\n", fs.problems,
                   il_s(fs.problems));
        else
            printf("nothing wrong found\n");
    }
    json_decref(m);
    if (fflush(stdout) != 0)
        err(1, "cannot write");
    return fs.problems ? 2 : 0;
}
