/*
 * interloper compare: is B really faster than A?  The method of Mytkowicz
 * et al. (ASPLOS'09, section 7.1.2: setup randomization) and Kalibera and
 * Jones (ISMM'13: intervals over the highest level of the experiment) as
 * one command, the way hyperfine compares commands:
 *
 *     interloper compare ./O2/prog ./O3/prog -- ARGS
 *     interloper compare 'bzip2 -9 -c f' 'lbzip2 -9 -c f'
 *
 * It plans the setups itself (environment sizes that move the stack's
 * alignment, drawn from a seed; link layouts of interloper build; the
 * stack pin as a factor when asked), and runs them as a sweep: the sweep's
 * plan, runner, output check, warm-up, progress and stopping rule, one
 * copy of each (sweep.c), with interloper report's statistics (verdict.c).
 * It adds what a comparison needs: the commands made systems whose setups
 * differ in nothing but the program (compare_systems.c), a time budget
 * beside the precision target (--max-time; the summary says which ended
 * it), the shell's own cost measured in every setup and subtracted, a
 * command before each run (--prepare), and hyperfine's exports
 * (compare_export.c).
 */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"

enum {
    O_NAME = 1,
    O_SHELL,
    O_MAX_TIME,
    O_PREPARE,
    O_ESTIMATOR,
    O_EXPORT_JSON,
    O_EXPORT_MARKDOWN,
    O_EXPORT_CSV,
};
/* compare's ids, sweep's (which its table includes) and the shared ones
 * are three ranges (il_tools.h) */
_Static_assert((int)O_EXPORT_CSV < (int)IL_O_EVENTS, "compare's option ids meet the shared ones");

static const struct il_opt opts[] = {
    {.head = "the commands (programs, or shell commands as hyperfine runs them)"},
    {"name", 0, IL_OPT_VALUE, "NAME",
     "the next command's system name (repeatable, in order;\n"
     "default: what tells the commands apart)",
     O_NAME},
    {"shell", 0, IL_OPT_VALUE, "SHELL|none",
     "the shell of shell commands (default sh); none: split\n"
     "each command into words and run it directly",
     O_SHELL},
    {"prepare", 0, IL_OPT_VALUE, "CMD",
     "run CMD with sh before each run, unmeasured (once: for\n"
     "every command; once per command: each its own); a\n"
     "program it changes stops the runs",
     O_PREPARE},
    {.incl = il_sweep_opts},
    {.head = "when to stop"},
    {"max-time", 0, IL_OPT_VALUE, "TIME",
     "stop after this long, at the end of a setup's runs\n"
     "(default 10m; s, m, h suffixes; a run under way is\n"
     "ended by --timeout only); a resumed compare has it\n"
     "all again, where --max-runs counts the file's runs",
     O_MAX_TIME},
    {.head = "the result"},
    {"estimator", 0, IL_OPT_VALUE, "E",
     "mean (default), median, pNN or min, as interloper report\n"
     "takes it",
     O_ESTIMATOR},
    {"export-json", 0, IL_OPT_VALUE, "FILE", "the result and the whole report as JSON",
     O_EXPORT_JSON},
    {"export-markdown", 0, IL_OPT_VALUE, "FILE", "the result as a Markdown table",
     O_EXPORT_MARKDOWN},
    {"export-csv", 0, IL_OPT_VALUE, "FILE", "the result as CSV, one row per system", O_EXPORT_CSV},
    {0},
};

static const struct il_cmd cmd = {
    .name = IL_COMPARE_ME,
    .synopsis = "[options] COMMAND COMMAND... [-- ARGS...]",
    .about = "Compare two or more commands, the first the baseline, over setups planned\n"
             "from a seed (environment sizes that move the stack; link layouts), each\n"
             "command in every setup, interleaved, outputs checked, until the ratio's 95%\n"
             "interval is within --until percent or --max-time has passed; then a\n"
             "summary.  A COMMAND is a program (ARGS after -- go to each), or a shell\n"
             "command.",
    .man = "interloper-compare(1)",
    .opts = opts,
    .bit = IL_CMD_COMPARE,
};

static int
estimator_ok(const char *e)
{
    if (!strcmp(e, "mean") || !strcmp(e, "median") || !strcmp(e, "min"))
        return 1;
    char *end;
    long q = e[0] == 'p' ? strtol(e + 1, &end, 10) : -1;
    return e[0] == 'p' && e[1] && !*end && q > 0 && q < 100;
}

struct opts {
    struct il_compare c;
    struct il_export x;
    const char **prepare;
    size_t nprepare;
    const char *estimator;
};

static void
parse(struct il_sweep *s, struct opts *o, int argc, char **argv)
{
    struct il_optp p;
    il_sweep_defaults(s, argc, argv);
    s->me = IL_COMPARE_ME;
    /* the comparison's defaults (interloper-compare(1)) */
    s->until = 1;
    s->max_time = 600;
    s->d.warmup = 1;
    s->d.setups = 8;
    /* main's stack at each of its aligned places in a page (Mytkowicz et
     * al., section 4.2); --env-add replaces them */
    s->d.env = il_env_pads();
    s->d.nenv = IL_ENV_PADS;
    s->compare = 1;
    il_opt_init(&p, &cmd, argc, argv);
    while (il_opt_next(&p)) {
        switch (p.opt->id) {
        case O_NAME:
            if (!il_label_key_ok(p.val) || strlen(p.val) > IL_SYSTEM_NAME_MAX)
                il_opt_bad(&p, p.val, "expected letters, digits, '_', '-' or '.'");
            o->c.names = il_xrealloc(o->c.names, (o->c.nnames + 1) * sizeof *o->c.names);
            o->c.names[o->c.nnames++] = p.val;
            break;
        case O_SHELL:
            o->c.shell = p.val;
            break;
        case O_PREPARE:
            o->prepare = il_xrealloc(o->prepare, (o->nprepare + 1) * sizeof *o->prepare);
            o->prepare[o->nprepare++] = p.val;
            break;
        case O_MAX_TIME:
            s->max_time =
                il_arg_seconds(&p, p.val, 0, 1e9, "expected a time such as 90s, 10m or 2h");
            break;
        case O_ESTIMATOR:
            if (!estimator_ok(p.val))
                il_opt_bad(&p, p.val, "expected mean, median, min or pNN such as p10");
            s->estimator = p.val;
            break;
        case O_EXPORT_JSON:
            o->x.json = p.val;
            break;
        case O_EXPORT_MARKDOWN:
            o->x.markdown = p.val;
            break;
        case O_EXPORT_CSV:
            o->x.csv = p.val;
            break;
        default:
            if (!il_common_option(&p, &s->c))
                il_sweep_option(s, &p);
        }
    }
    /* the exports can be written: said now, not after the runs */
    const char *ex[] = {o->x.json, o->x.markdown, o->x.csv};
    const char *exo[] = {"--export-json", "--export-markdown", "--export-csv"};
    for (int k = 0; k < 3; k++)
        if (ex[k])
            il_check_writable(exo[k], ex[k]);
    /* the commands, then ARGS after -- */
    int i = p.i, dd = argc;
    for (int k = i; k < argc; k++)
        if (!strcmp(argv[k], "--")) {
            dd = k;
            break;
        }
    o->c.cmd = &argv[i];
    o->c.ncmd = (size_t)(dd - i);
    s->args = dd < argc ? &argv[dd + 1] : NULL;
    s->nargs = dd < argc ? (size_t)(argc - dd - 1) : 0;
    if (o->c.ncmd < 2)
        il_opt_usage(&cmd, "expected two commands or more to compare, the first the baseline");
    if (o->c.ncmd > 64)
        il_opt_usage(&cmd, "%zu commands: at most 64", o->c.ncmd);
    if (o->c.nnames && o->c.nnames != o->c.ncmd)
        il_opt_usage(&cmd, "%zu --name for %zu commands: give one for each, or none", o->c.nnames,
                     o->c.ncmd);
    /* outside14 F11: two systems of one name were measured, then found
     * nothing to compare */
    for (size_t k = 0; k < o->c.nnames; k++)
        for (size_t j = 0; j < k; j++)
            if (!strcmp(o->c.names[j], o->c.names[k]))
                il_opt_usage(&cmd, "--name %s is given twice: one name for each command",
                             o->c.names[k]);
    if (o->nprepare > 1 && o->nprepare != o->c.ncmd)
        il_opt_usage(&cmd, "%zu --prepare for %zu commands: give one for all, or one for each",
                     o->nprepare, o->c.ncmd);
}

/* A command of one word with a '/' names a program: one that is not an
 * executable file is refused now, in run's words, not run as a shell
 * command that fails in every run (newuser11 F5: status 127 after the
 * first batch, and a hint at --no-strict). */
static void
paths_exist(const struct il_compare *c)
{
    for (size_t i = 0; i < c->ncmd; i++) {
        const char *w = c->cmd[i];
        struct stat st;
        if (!strchr(w, '/') || strpbrk(w, IL_SHELL_CHARS))
            continue; /* a shell command, or a layout's template */
        if (stat(w, &st) < 0)
            errx(1, "%s: %s; a COMMAND with a / is a program's path", w,
                 errno == ENOENT || errno == ENOTDIR ? "no such file" : strerror(errno));
        if (!S_ISREG(st.st_mode))
            errx(1, "%s: not a program file (%s)", w,
                 S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
        const char *nx = il_not_executable(w);
        if (nx)
            errx(1, "%s: not executable: %s", w, nx);
    }
}

/* The commands as the sweep's systems. */
static void
systems(struct il_sweep *s, struct opts *o)
{
    struct il_compare *c = &o->c;
    size_t n = c->ncmd;
    /* not with --prepare, which may make the program before the first run
     * (it then runs as a shell command, as before e122dd8: review12d) */
    if (!o->nprepare)
        paths_exist(c);
    c->name = il_xcalloc(n, sizeof *c->name);
    c->path = il_xcalloc(n, sizeof *c->path);
    c->padded = il_xcalloc(n, sizeof *c->padded);
    int programs = il_compare_programs(c);
    int none = c->shell && !strcmp(c->shell, "none");
    c->shell_mode = !programs && !none;
    if (programs && c->shell && !none)
        errx(1,
             "--shell %s: the commands are programs, run directly; put a shell command in "
             "quotes to run it through the shell",
             c->shell);
    /* the shell alone, subtracted, ends with 0 (review13e M2) */
    if (c->shell_mode && s->expect_status)
        errx(1,
             "--expect-status %d with shell commands: the shell alone, whose time is "
             "subtracted, ends with 0; end each command so that it does too (COMMAND; true), or "
             "give programs",
             s->expect_status);
    if (c->shell_mode && s->nargs)
        errx(1, "ARGS after -- go to programs; with shell commands, put the arguments in each "
                "command");
    il_compare_names(c);
    s->nsys = n + (c->shell_mode ? 1 : 0);
    s->sys = il_xcalloc(s->nsys, sizeof *s->sys);
    if (c->shell_mode) {
        /* SHELL -c COMMAND, each command padded to one length; and the
         * shell alone (an empty command of that length), whose time is
         * subtracted from the others' as hyperfine subtracts it */
        const char *sh = c->shell ? c->shell : "sh";
        il_compare_pad(c);
        for (size_t k = 0; k <= n; k++) {
            struct il_system *y = &s->sys[k];
            y->name = k < n ? c->name[k] : IL_COMPARE_SHELL;
            y->tmpl = sh;
            y->args = il_xcalloc(2, sizeof *y->args);
            y->args[0] = "-c";
            y->args[1] = k < n ? c->padded[k] : il_xasprintf("%-*s", (int)strlen(c->padded[0]), "");
            y->nargs = 2;
            y->no_check_output = k == n;
            if (k < n && !strcmp(c->name[k], IL_COMPARE_SHELL))
                errx(1, "--name %s: the name of the shell's own system; choose another",
                     IL_COMPARE_SHELL);
        }
        s->subtract = IL_COMPARE_SHELL;
        if (!s->bench) /* the sweep's default would be the shell's name */
            s->bench = c->name[0];
    } else if (none) {
        /* each command's words, no shell: the first word the program */
        for (size_t k = 0; k < n; k++) {
            struct il_system *y = &s->sys[k];
            char *w = il_xstrdup(c->cmd[k]), *save, *t;
            y->name = c->name[k];
            for (t = strtok_r(w, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
                if (!y->tmpl) {
                    y->tmpl = t;
                    continue;
                }
                y->args = il_xrealloc(y->args, (y->nargs + 1) * sizeof *y->args);
                y->args[y->nargs++] = t;
            }
            if (!y->tmpl)
                errx(1, "command %zu is empty", k + 1);
        }
    } else {
        il_compare_paths(c);
        if (c->links && !s->c.quiet)
            fprintf(stderr,
                    "%s: the programs' paths differ in length, which would move the stack; "
                    "each runs through a link of one length, with its own file name, in %s\n",
                    IL_COMPARE_ME, c->links);
        for (size_t k = 0; k < n; k++) {
            s->sys[k].name = c->name[k];
            s->sys[k].tmpl = c->path[k];
        }
    }
    for (size_t k = 0; k < n; k++)
        s->sys[k].prepare = o->nprepare == 1 ? o->prepare[0] : o->nprepare ? o->prepare[k] : NULL;
}

/* The commands as the summary shows them. */
static const char **
commands(const struct il_sweep *s, const struct opts *o)
{
    const char **v = il_xcalloc(s->nsys, sizeof *v);
    for (size_t k = 0; k < o->c.ncmd; k++)
        v[k] = o->c.cmd[k];
    if (o->c.shell_mode)
        v[o->c.ncmd] = "(the shell alone, subtracted)";
    return v;
}

static struct opts o;

/* the links go however compare ends: done, refused, interrupted */
static void
links_remove(void)
{
    il_compare_links_remove(&o.c);
}

int
main(int argc, char **argv)
{
    static struct il_sweep s;
    parse(&s, &o, argc, argv);
    atexit(links_remove);
    systems(&s, &o);
    s.output = s.c.output;
    il_sweep_check(&s);
    /* -n: the links were for the checks just made; the plan printed next
     * names them, but a dry run killed while it prints (| head: SIGPIPE)
     * would never remove them.  So they go now, and the line that makes
     * them again is said, even under -q: without it no line of the plan
     * runs as printed (review12b L4) */
    if (s.c.dry && o.c.links) {
        char *how = il_compare_links_line(&o.c);
        struct il_buf rm = {0}; /* quoted as the line above is (review13a M1) */
        il_buf_word(&rm, o.c.links);
        fprintf(stderr,
                "%s: -n: the lines below run the programs through links that -n removes "
                "before it ends; to run a line as printed, make them first: %s (and rm -r "
                "%s after)\n",
                IL_COMPARE_ME, how, rm.p);
        il_buf_free(&rm);
        free(how);
        il_compare_links_remove(&o.c);
    }
    /* a results file of the plan's own (compare-PLAN.jsonl) is new: the
     * seed just drawn is its; one given with -o is resumed as a sweep's */
    if (!s.c.output)
        s.seed_given = 1;
    struct il_ending e;
    memset(&e, 0, sizeof e);
    e.commands = commands(&s, &o);
    if (o.c.shell_mode)
        e.note = il_xasprintf("measured: %s -c COMMAND, the shell and all it runs "
                              "(INTERLOPER_INHERIT=all)",
                              o.c.shell ? o.c.shell : "sh");
    int rc = il_sweep_execute(&s, &e);
    if (!s.c.dry) {
        json_t *rep = il_sweep_summary(&s, &e, stdout);
        if (rep && (o.x.json || o.x.markdown || o.x.csv))
            il_compare_export(&o.x, &s, rep, &e);
        json_decref(rep);
        /* a summary whose reader went away (| head, SIGPIPE taken as an
         * interruption): ended as the signal would have, the links gone */
        if ((fflush(stdout) != 0 || ferror(stdout)) && errno == EPIPE)
            rc = 128 + SIGPIPE;
    }
    json_decref(e.machine);
    return rc;
}
