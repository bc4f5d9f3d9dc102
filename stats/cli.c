/*
 * cli.c: the options of interloper-report, -plan and -plot, parsed in one
 * place so that the three commands agree on names and meaning.
 */
#include <err.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "il_opt.h"
#include "il_resolve.h"
#include "il_stats.h"

enum {
    O_METRIC = 1,
    O_WHERE,
    O_BY,
    O_COMPARE,
    O_OUT,
    O_FLOOR,
    O_STRICT,
    O_POOLED,
    O_SETUP,
    O_LEVELS,
    O_COSTS,
    O_TARGET,
    O_ASSURANCE,
    O_BOOT,
    O_SEED,
    O_JSON,
    O_CSV,
    O_MD,
    O_GOBENCH,
    O_TITLE,
    O_KEEP,
    O_PER,
    O_SCALE,
    O_INC_FAILED,
    O_EXPECT_STATUS,
    O_INC_WARMUP,
    O_ESTIMATOR,
    O_SPEEDUP,
    O_QUIET,
    O_BINS,
    O_SIZE,
    O_SUBTRACT,
    O_PASSES,
    O_ATTRIBUTE,
};

/* The three commands' bits: which takes an option. */
#define REPORT (1u << IL_TOOL_REPORT)
#define PLAN (1u << IL_TOOL_PLAN)
#define PLOT (1u << IL_TOOL_PLOT)

static const struct il_opt opts[] = {
    {"output", 'o', IL_OPT_VALUE, "FILE",
     "the image; its suffix, .png, .svg or .pdf, picks the format", O_OUT, PLOT},
    {"levels", 0, IL_OPT_VALUE, "L_n,...,L_1", "label names, highest level first", O_LEVELS, PLAN},
    {"costs", 0, IL_OPT_VALUE, "C_n,...,C_1",
     "seconds per repetition of each level, excluding lower\n"
     "levels, highest first; give one value fewer to measure the\n"
     "lowest level's cost as the mean wall time of the records",
     O_COSTS, PLAN},
    {"target", 0, IL_OPT_VALUE, "X%",
     "relative half-width of the 95% interval to reach; the\n"
     "output says with what probability the design reaches it",
     O_TARGET, PLAN},
    {"assurance", 0, IL_OPT_VALUE, "P%",
     "enough top-level repetitions to reach the --target with\n"
     "probability P% (e.g. 80% or 90%), not only in the\n"
     "expected case",
     O_ASSURANCE, PLAN},
    {"bootstrap", 0, IL_OPT_VALUE, "B", "B hierarchical bootstrap replicates", O_BOOT, PLAN},
    {"seed", 0, IL_OPT_VALUE, "S", "random seed of the bootstrap (default 1)", O_SEED, PLAN},
    {"metric", 'm', IL_OPT_VALUE, "NAME",
     "an event name, or wall, user, sys, maxrss (default wall);\n"
     "NUM/DEN divides two of them per run (instructions/cycles)",
     O_METRIC},
    {"where", 0, IL_OPT_VALUE, "LABEL[!]=VALUE",
     "keep records with this label value; repeat to combine\n"
     "(same label: any of the values; different labels: all);\n"
     "LABEL!=VALUE leaves them out (e.g. rep!=1)",
     O_WHERE},
    {"subtract-floor", 0, IL_OPT_FLAG, NULL, "subtract the record's calibrated floor.NAME (events)",
     O_FLOOR},
    {"scale", 0, IL_OPT_FLAG, NULL, "scale multiplexed counts by enabled/running (perf stat)",
     O_SCALE},
    {"subtract", 0, IL_OPT_VALUE, "LABEL=VALUE",
     "the runs labelled so are a cost inside every other run,\n"
     "measured apart (a shell alone): their mean in each setup\n"
     "is subtracted from the other runs of that setup, and they\n"
     "are left out (a setup left not positive has no per-setup\n"
     "ratios; the report says why)",
     O_SUBTRACT, REPORT},
    {"per", 0, IL_OPT_VALUE, "LABEL",
     "sum the metric over the records of one run (exec chains,\n"
     "children, SPEC workloads) before any statistics",
     O_PER},
    {"by", 'b', IL_OPT_VALUE, "LABEL,...",
     "one group per combination of these labels; 'host' is the\n"
     "record's host and 'args' its arguments (argv after the\n"
     "program) unless a label of that name exists",
     O_BY, REPORT | PLOT},
    {"compare", 'c', IL_OPT_VALUE, "L=BASE", "ratio of every other value of L to BASE", O_COMPARE,
     REPORT | PLOT},
    {"pooled", 0, IL_OPT_FLAG, NULL, "one pooled variance for both sides (flat interval only)",
     O_POOLED, REPORT},
    {"speedup", 0, IL_OPT_FLAG, NULL, "report BASE/value instead of value/BASE", O_SPEEDUP,
     REPORT | PLOT},
    {"setup", 0, IL_OPT_VALUE, "LABEL[,LABEL]",
     "the runs were made in setups (values of LABEL): intervals\n"
     "over setups, ratios paired by setup, the per-setup view,\n"
     "each group's setup effect and the setups that stand out;\n"
     "two labels: setups crossed from both (e.g. env_add,layout)",
     O_SETUP, REPORT | PLOT},
    {"passes", 0, IL_OPT_VALUE, "LABEL|none",
     "the label that numbers the sweep's passes (default rep):\n"
     "the tests exchange runs only within a pass; none: the\n"
     "records have no passes (runs exchangeable in a setup)",
     O_PASSES, REPORT},
    {"levels", 0, IL_OPT_VALUE, "L_n,...,L_1",
     "Kalibera & Jones levels, highest first; the last\n"
     "numbers the repetitions inside its parent",
     O_LEVELS, REPORT},
    {"attribute", 0, IL_OPT_FLAG, NULL,
     "which recorded fact explains the setups' differences:\n"
     "main_sp, heap_start, env_bytes modulo 64 to 4096, each\n"
     "object's link position; permutation p-values adjusted\n"
     "over all facts (needs --setup)",
     O_ATTRIBUTE, REPORT},
    {"estimator", 0, IL_OPT_VALUE, "E", "mean (default), median, pNN (a quantile, e.g. p10) or min",
     O_ESTIMATOR, REPORT | PLOT},
    {"bootstrap", 0, IL_OPT_VALUE, "B", "replicates of the bootstraps of quantile ratios (2000)",
     O_BOOT, REPORT},
    {"seed", 0, IL_OPT_VALUE, "S", "their random seed (default 1)", O_SEED, REPORT},
    {"include-failed", 0, IL_OPT_FLAG, NULL,
     "keep runs that died of a signal, failed (exit status) or\n"
     "that a sweep's \"failed\" line names",
     O_INC_FAILED},
    {"expect-status", 0, IL_OPT_VALUE, "N",
     "a run whose status is not N failed (default: a status\n"
     "other than 0 where other runs of its group exit 0); a\n"
     "run's status is its root record's, and a sweep's runs\n"
     "are judged by its \"failed\" lines",
     O_EXPECT_STATUS},
    {"include-warmup", 0, IL_OPT_FLAG, NULL, "keep warm-up runs (label warmup)", O_INC_WARMUP},
    {"quiet-warning", 0, IL_OPT_VALUE, "NAME",
     "silence the warnings named NAME (the name in brackets\n"
     "at the end of each; a comma list, or all)",
     O_QUIET},
    {"strict", 0, IL_OPT_FLAG, NULL, "stop at the first malformed line instead of skipping it",
     O_STRICT},
    {"json", 0, IL_OPT_FLAG, NULL, "JSON (default: a table)", O_JSON, REPORT},
    {"json", 0, IL_OPT_FLAG, NULL, "JSON instead of a table", O_JSON, PLAN},
    {"csv", 0, IL_OPT_FLAG, NULL, "CSV", O_CSV, REPORT},
    {"markdown", 0, IL_OPT_FLAG, NULL, "a Markdown table", O_MD, REPORT},
    {"gobench", 0, IL_OPT_FLAG, NULL, "Go benchmark text (benchstat reads it)", O_GOBENCH, REPORT},
    {"bins", 0, IL_OPT_VALUE, "N", "hist: N bins (default: Freedman-Diaconis or Rice, the more)",
     O_BINS, PLOT},
    {"size", 0, IL_OPT_VALUE, "W,H",
     "the figure's size in inches (default 3.4,2.3, wider\n"
     "past 6 violins; seq 7,4.6)",
     O_SIZE, PLOT},
    {"title", 0, IL_OPT_VALUE, "TEXT", "the plot title ('' for none)", O_TITLE, PLOT},
    {"keep", 0, IL_OPT_VALUE, "DIR", "keep the gnuplot script and data in DIR", O_KEEP, PLOT},
    {0},
};

static const struct il_cmd cmds[] = {
    [IL_TOOL_REPORT] =
        {
            .name = "interloper report",
            .synopsis = "[--metric NAME|NUM/DEN] [--where LABEL[!]=VALUE]...\n"
                        "[--subtract-floor] [--subtract LABEL=VALUE] [--scale]\n"
                        "[--per LABEL] [--by LABEL,...]\n"
                        "[--compare LABEL=BASELINE [--pooled] [--speedup]]\n"
                        "[--setup LABEL[,LABEL] [--attribute]] [--passes LABEL|none]\n"
                        "[--levels L_n,...,L_1]\n"
                        "[--estimator mean|median|pNN|min] [--bootstrap B] [--seed S]\n"
                        "[--include-failed] [--include-warmup] [--quiet-warning NAME]\n"
                        "[--strict] [--json | --csv | --markdown | --gobench] FILE...",
            .about =
                "Summarise interloper records: per group n, mean, sd, median, min, max, CV and "
                "the\n"
                "95% interval of the estimate; ratios value/baseline with Fieller intervals that\n"
                "respect the design (runs paired by setup); the per-setup view of Mytkowicz et\n"
                "al. with a test of whether setups differ beyond run-to-run noise; the geometric\n"
                "mean over benchmarks (per pass too, where a harness ran the systems in passes;\n"
                "with the setups as the unit, where the benchmarks share them);\n"
                "the variance per level of Kalibera & Jones; warnings.",
            .more = "FILE... are records, one a line: plain, gzip or zstd; - is stdin.",
            .man = "interloper-report(1)",
            .opts = opts,
            .bit = REPORT,
            .permute = 1,
        },
    [IL_TOOL_PLAN] =
        {
            .name = "interloper plan",
            .synopsis = "--levels L_n,...,L_1 [--costs C_n,...,C_1]\n"
                        "[--target X% [--assurance P%]]\n"
                        "[--bootstrap B [--seed S]] [--metric NAME]\n"
                        "[--where LABEL[!]=VALUE]... [--subtract-floor] [--scale]\n"
                        "[--per LABEL] [--include-failed] [--include-warmup]\n"
                        "[--quiet-warning NAME] [--strict] [--json] FILE...",
            .about =
                "Dimension an experiment after Kalibera & Jones: the variance each level adds\n"
                "(S_i^2, T_i^2), the optimal repetition counts of the lower levels from their\n"
                "costs, the top-level count for a target interval half-width with the\n"
                "probability that the real experiment reaches it (assurance), and a seeded\n"
                "hierarchical bootstrap of the mean.",
            .more = "FILE... are records, one a line: plain, gzip or zstd; - is stdin.",
            .man = "interloper-plan(1)",
            .opts = opts,
            .bit = PLAN,
            .permute = 1,
        },
    [IL_TOOL_PLOT] =
        {
            .name = "interloper plot",
            .synopsis = "violin|env|hist|seq -o FILE.png|FILE.svg|FILE.pdf [--metric NAME]\n"
                        "[--where LABEL[!]=VALUE]... [--subtract-floor] [--by LABEL,...]\n"
                        "[--compare LABEL=BASELINE [--speedup]] [--setup LABEL[,LABEL]]\n"
                        "[--estimator mean|median|pNN|min] [--bins N] [--size W,H]\n"
                        "[--title TEXT] [--keep DIR] [--strict] FILE...",
            .about =
                "Render with gnuplot, for print (a column of a two-column paper by default):\n"
                "  violin  per-setup ratios for each benchmark (Mytkowicz et al., Fig. 2b/3b), "
                "the\n"
                "          density clipped to the data; median, quartiles, each setup's ratio "
                "and\n"
                "          95% interval, n (the setups) under each violin, the original (+) and\n"
                "          alphabetical (x) link orders marked; needs --compare and --setup\n"
                "  env     the metric against setup.env_bytes, the estimate and its 95% interval\n"
                "          per size, one line per --by group (Fig. 1b); with --setup env_add, "
                "each\n"
                "          group's noise band and the sizes that stand out (interloper report's)\n"
                "  hist    histogram over setups of the suite's geometric-mean ratio (Fig. 6), "
                "with\n"
                "          a rug of the values; needs --compare and --setup\n"
                "  seq     run-sequence, lag and autocorrelation plots of one group\n"
                "  env and seq refuse records that mix values of a label such as system or bench\n"
                "  outside --by (pick one with --where, or split them with --by)",
            .more = "FILE... are records, one a line: plain, gzip or zstd; - is stdin.",
            .man = "interloper-plot(1)",
            .opts = opts,
            .bit = PLOT,
            .permute = 1,
        },
};

/* Bad usage: one line on stderr naming what was wrong and what was
 * expected, exit 1.  The full usage is for --help alone. */
static void bad(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void
bad(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verrx(1, fmt, ap);
}

/* Split a comma list in place into out[], at most max entries. */
static size_t
split(char *s, const char **out, size_t max, const char *opt)
{
    size_t n = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        if (n == max)
            bad("%s: too many names; at most %d levels or %d labels", opt, IL_MAX_LEVELS,
                IL_MAX_SLOTS);
        out[n++] = tok;
    }
    if (n == 0)
        bad("%s: expected a comma-separated list of label names", opt);
    return n;
}

static double
number(const char *s, const char *opt)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v))
        bad("%s %s: expected a number", opt, s);
    return v;
}

static void
check_distinct(struct il_opts *o)
{
    for (size_t i = 0; i < o->nby; i++) {
        for (size_t j = 0; j < o->nsetup; j++)
            if (strcmp(o->by[i], o->setup[j]) == 0)
                errx(1, "--setup %s: the setup label must not also be in --by", o->setup[j]);
        for (size_t j = 0; j < o->nlevels; j++)
            if (strcmp(o->by[i], o->levels[j]) == 0)
                errx(1, "--levels: '%s' is also in --by; a level label must not group", o->by[i]);
    }
    for (size_t j = 0; j < o->nsetup; j++)
        if (o->cmp_label && strcmp(o->cmp_label, o->setup[j]) == 0)
            errx(1, "--setup %s: the setup label must differ from the --compare label",
                 o->setup[j]);
    if (o->nsetup == 2 && strcmp(o->setup[0], o->setup[1]) == 0)
        errx(1, "--setup %s,%s: name two different labels to cross", o->setup[0], o->setup[1]);
    if (o->nsetup && o->nlevels && (o->nsetup != 1 || strcmp(o->setup[0], o->levels[0]) != 0))
        errx(1,
             "--setup %s and --levels %s,...: with --levels the setups are its top level; "
             "give one of them",
             o->setup[0], o->levels[0]);
    for (size_t i = 0; i < o->nlevels; i++) {
        for (size_t j = i + 1; j < o->nlevels; j++)
            if (strcmp(o->levels[i], o->levels[j]) == 0)
                errx(1, "--levels: '%s' appears twice; name each level once", o->levels[i]);
        if (o->cmp_label && strcmp(o->levels[i], o->cmp_label) == 0)
            errx(1, "--levels: '%s' is the --compare label; a level must differ from it",
                 o->levels[i]);
    }
    if (o->per)
        for (size_t i = 0; i < o->nby; i++)
            if (strcmp(o->by[i], o->per) == 0)
                errx(1, "--per %s: the run label must not also be in --by", o->per);
    if (o->passes) {
        int clash = o->cmp_label && strcmp(o->passes, o->cmp_label) == 0;
        for (size_t i = 0; i < o->nby; i++)
            clash |= strcmp(o->by[i], o->passes) == 0;
        for (size_t j = 0; j < o->nsetup; j++)
            clash |= strcmp(o->setup[j], o->passes) == 0;
        if (clash && o->passes_given)
            errx(1,
                 "--passes %s: the pass label must differ from the --by, --compare and --setup "
                 "labels",
                 o->passes);
        if (clash)
            o->passes = NULL; /* rep groups or compares: it numbers no pass here */
    }
}

/* Register the label names as data slots, where-labels first. */
static void
assign_slots(struct il_opts *o)
{
    struct il_sel *sel = &o->sel;
    for (size_t i = 0; i < o->nby; i++)
        o->by_slot[i] = il_sel_slot(sel, o->by[i]);
    if (o->cmp_label)
        o->cmp_slot = il_sel_slot(sel, o->cmp_label);
    for (size_t i = 0; i < o->nsetup; i++)
        o->setup_slot[i] = il_sel_slot(sel, o->setup[i]);
    for (size_t i = 0; i < o->nlevels; i++)
        o->level_slot[i] = il_sel_slot(sel, o->levels[i]);
    if (o->per)
        o->per_slot = il_sel_slot(sel, o->per);
    /* a run's status is its root's (review13e MEDIUM-1; prep.c) */
    sel->want_pids = o->per || sel->expect_given;
    sel->pid_slot = o->per ? o->per_slot : SIZE_MAX;
    if (o->sub_label)
        o->sub_slot = il_sel_slot(sel, o->sub_label);
    o->pass_slot = o->passes ? il_sel_slot(sel, o->passes) : SIZE_MAX;
    /* Labels the report looks at on its own: warm-up runs, the host, and
     * the design labels that interloper sweep writes.  Not args: the
     * [mixed-args] warning compares a hash of each record's (input.c),
     * and the strings are interned only where a command names args. */
    il_sel_slot(sel, IL_L_WARMUP);
    il_sel_slot(sel, IL_PSEUDO_HOST);
    il_sel_slot(sel, IL_L_SETUP);
    il_sel_slot(sel, IL_L_REP);
    il_sel_slot(sel, IL_L_ENV_ADD);
    il_sel_slot(sel, IL_L_LAYOUT);
    il_sel_slot(sel, IL_L_STACK_OFFSET);
    il_sel_slot(sel, IL_L_HEAP_OFFSET);
    if (o->nsetup) {
        o->design = o->nsetup == 2 ? IL_D_CROSSED : IL_D_ONE;
        o->design_slot[0] = o->setup_slot[0];
        o->design_slot[1] = o->nsetup == 2 ? o->setup_slot[1] : 0;
        o->d_label[0] = o->setup[0];
        o->d_label[1] = o->nsetup == 2 ? o->setup[1] : NULL;
    } else if (o->nlevels) {
        o->design = IL_D_ONE;
        o->design_slot[0] = o->level_slot[0];
        o->d_label[0] = o->levels[0];
    } else {
        o->design = IL_D_FLAT;
    }
}

/* Values read whole once the options are all in. */
struct later {
    char *costs, *setup;
    int nfmt;
};

static void
where(struct il_opts *o, char *v)
{
    /* LABEL=VALUE keeps, LABEL!=VALUE leaves out. */
    char *eq = strchr(v, '=');
    int neg = eq && eq > v && eq[-1] == '!';
    char *end = neg ? eq - 1 : eq;
    if (!eq || end == v)
        bad("--where %s: expected LABEL=VALUE, or LABEL!=VALUE to leave records out", v);
    *end = '\0';
    o->sel.where = il_xrealloc(o->sel.where, (o->sel.nwhere + 1) * sizeof *o->sel.where);
    o->sel.where[o->sel.nwhere].slot = il_sel_slot(&o->sel, v);
    o->sel.where[o->sel.nwhere].neg = neg;
    o->sel.where[o->sel.nwhere++].value = eq + 1;
}

/* --subtract LABEL=VALUE (prep.c does it) */
static void
subtract(struct il_opts *o, char *v)
{
    char *eq = strchr(v, '=');
    if (!eq || eq == v || !eq[1])
        bad("--subtract %s: expected LABEL=VALUE, the label value of the runs to subtract", v);
    *eq = '\0';
    o->sub_label = v;
    o->sub_value = eq + 1;
}

static void
compare(struct il_opts *o, char *v)
{
    char *eq = strchr(v, '=');
    if (!eq || eq == v || !eq[1])
        bad("--compare %s: expected LABEL=BASELINE, e.g. system=O2", v);
    *eq = '\0';
    o->cmp_label = v;
    o->cmp_base = eq + 1;
}

/* --target X%, --assurance P%: a percentage above 0 and below 100. */
static double
percent(char *v, const char *opt, const char *eg)
{
    char *pct = strchr(v, '%');
    if (pct && pct[1])
        bad("%s %s: expected a percentage such as %s", opt, v, eg);
    if (pct)
        *pct = '\0';
    double x = number(v, opt) / 100;
    if (!(x > 0 && x < 1))
        bad("%s: expected a percentage above 0 and below 100, such as %s", opt, eg);
    return x;
}

static void
size(struct il_opts *o, const char *v)
{
    char *end, *comma = strchr(v, ',');
    errno = 0;
    o->size_w = strtod(v, &end);
    if (comma && end == comma)
        o->size_h = strtod(comma + 1, &end);
    if (!comma || end == comma || *end || errno || !(o->size_w >= 1 && o->size_w <= 20) ||
        !(o->size_h >= 1 && o->size_h <= 20))
        bad("--size %s: expected WIDTH,HEIGHT in inches, each from 1 to 20, e.g. 3.4,2.3", v);
}

/* One option's effect. */
static void
one(int id, char *v, struct il_opts *o, struct later *l)
{
    const char *badname;
    double x;
    switch (id) {
    case O_METRIC:
        o->sel.metric = v;
        break;
    case O_WHERE:
        where(o, v);
        break;
    case O_BY:
        o->nby = split(v, o->by, IL_MAX_SLOTS, "--by");
        break;
    case O_COMPARE:
        compare(o, v);
        break;
    case O_SUBTRACT:
        subtract(o, v);
        break;
    case O_OUT:
        o->out = v;
        break;
    case O_FLOOR:
        o->sel.subtract_floor = 1;
        break;
    case O_STRICT:
        o->sel.strict = 1;
        break;
    case O_POOLED:
        o->pooled = 1;
        break;
    case O_SETUP:
        l->setup = v;
        break;
    case O_PASSES:
        if (!*v)
            bad("--passes: expected a label name, e.g. --passes rep, or none");
        o->passes = strcmp(v, "none") == 0 ? NULL : v;
        o->passes_given = 1;
        break;
    case O_PER:
        if (!*v)
            bad("--per: expected a label name, e.g. --per run");
        o->per = v;
        break;
    case O_SCALE:
        o->sel.scale = 1;
        break;
    case O_INC_FAILED:
        o->include_failed = 1;
        break;
    case O_EXPECT_STATUS:
        x = number(v, "--expect-status");
        if (x < 0 || x > 255 || x != floor(x))
            bad("--expect-status %s: expected a whole number from 0 to 255", v);
        o->sel.expect_status = (int)x;
        o->sel.expect_given = 1;
        break;
    case O_INC_WARMUP:
        o->sel.include_warmup = 1;
        break;
    case O_SPEEDUP:
        o->speedup = 1;
        break;
    case O_ATTRIBUTE:
        o->attribute = 1;
        o->sel.want_addr = 1;
        break;
    case O_ESTIMATOR:
        if (il_estimator_parse(v, &o->est) < 0)
            bad("--estimator %s: expected mean, median, min, or pNN for a quantile "
                "(p10, p5, p90, ...)",
                v);
        break;
    case O_QUIET:
        if (il_warn_quiet(v, &badname) < 0)
            bad("--quiet-warning %s: unknown warning name; expected all or one of: %s", badname,
                il_warn_names());
        break;
    case O_LEVELS:
        o->nlevels = split(v, o->levels, IL_MAX_LEVELS, "--levels");
        break;
    case O_COSTS:
        l->costs = v;
        break;
    case O_TARGET:
        o->target = percent(v, "--target", "1%");
        break;
    case O_ASSURANCE:
        o->assurance = percent(v, "--assurance", "90%");
        break;
    case O_BOOT:
        x = number(v, "--bootstrap");
        /* report: the replicates of the quantile bootstraps */
        if (x < 100 || x > 1e8 || x != floor(x))
            bad("--bootstrap %s: expected a whole number of replicates from 100 to "
                "100000000 (the default is 2000)",
                v);
        o->boot = (size_t)x;
        break;
    case O_SEED:
        x = number(v, "--seed");
        if (x < 0 || x != floor(x) || x > 4294967295.0)
            bad("--seed: expected a whole number from 0 to 4294967295");
        o->seed = (unsigned long)x;
        break;
    case O_JSON:
    case O_CSV:
    case O_MD:
    case O_GOBENCH:
        l->nfmt++;
        o->fmt = id == O_JSON  ? IL_FMT_JSON
                 : id == O_CSV ? IL_FMT_CSV
                 : id == O_MD  ? IL_FMT_MARKDOWN
                               : IL_FMT_GOBENCH;
        break;
    case O_TITLE:
        o->title = v;
        break;
    case O_KEEP:
        o->keep = v;
        break;
    case O_BINS:
        x = number(v, "--bins");
        if (x < 1 || x > 1000 || x != floor(x))
            bad("--bins %s: expected a whole number of bins from 1 to 1000", v);
        o->bins = (size_t)x;
        break;
    case O_SIZE:
        size(o, v);
        break;
    }
}

/* What the options say together, and the operands: the plot kind, the
 * files. */
static void
operands(enum il_tool tool, int argc, char **argv, int i, struct il_opts *o, const struct later *l)
{
    if (l->nfmt > 1)
        bad("give at most one of --json, --csv, --markdown, --gobench");
    if (tool == IL_TOOL_PLOT) {
        if (i >= argc)
            bad("expected a plot kind: violin, env, hist or seq; see interloper plot --help");
        o->plot_kind = argv[i++];
        if (strcmp(o->plot_kind, "violin") && strcmp(o->plot_kind, "env") &&
            strcmp(o->plot_kind, "hist") && strcmp(o->plot_kind, "seq"))
            bad("unknown plot kind '%s'; expected violin, env, hist or seq", o->plot_kind);
        if (!o->out)
            bad("-o FILE is required (FILE.png, FILE.svg or FILE.pdf)");
        if (o->bins && strcmp(o->plot_kind, "hist"))
            bad("--bins is for hist; %s has no bins", o->plot_kind);
        o->no_het_p = 1;
    }
    o->files = argv + i;
    o->nfiles = argc - i;
    if (o->nfiles == 0)
        bad("expected one or more .jsonl files of records (- for stdin)");
}

static void
costs(struct il_opts *o, char *v)
{
    const char *tok[IL_MAX_LEVELS];
    o->ncosts = split(v, tok, IL_MAX_LEVELS, "--costs");
    for (size_t i = 0; i < o->ncosts; i++) {
        o->costs[i] = number(tok[i], "--costs");
        if (!(o->costs[i] > 0))
            errx(1, "--costs: every cost must be positive seconds; got %s", tok[i]);
    }
    if (o->ncosts != o->nlevels && o->ncosts + 1 != o->nlevels)
        errx(1,
             "--costs: %zu values for %zu levels; give one per level, highest first, "
             "or one fewer to measure the lowest level's cost from wall times",
             o->ncosts, o->nlevels);
}

void
il_parse_opts(enum il_tool tool, int argc, char **argv, struct il_opts *o)
{
    memset(o, 0, sizeof *o);
    o->tool = tool;
    o->seed = 1;
    o->sel.metric = "wall";
    o->est.kind = IL_EST_MEAN;
    o->est.name = "mean";
    o->passes = IL_L_REP;
    struct later l = {0};
    static char metric_buf[512];
    struct il_optp p;
    il_opt_init(&p, &cmds[tool], argc, argv);
    while (il_opt_next(&p))
        one(p.opt->id, (char *)p.val, o, &l);
    operands(tool, argc, argv, p.i, o, &l);
    /* an event as the library records it, however spelled (review14c M2:
     * -m TASK-CLOCK found no records of -e TASK-CLOCK once the library
     * recorded task-clock) */
    static char metric_fold[512];
    if (strlen(o->sel.metric) < sizeof metric_fold) {
        memcpy(metric_fold, o->sel.metric, strlen(o->sel.metric) + 1);
        il_events_fold(metric_fold, '/');
        o->sel.metric = metric_fold;
    }
    if (il_metric_split(&o->sel, metric_buf, sizeof metric_buf) < 0)
        bad("--metric: expected an event name, or wall, user, sys, maxrss, or NUM/DEN");
    if (o->sel.subtract_floor &&
        (o->sel.kind != IL_M_EVENT || (o->sel.derived && o->sel.kind2 != IL_M_EVENT)))
        errx(1, "--subtract-floor applies to events only; '%s' has no calibrated floor",
             o->sel.metric);
    if (l.setup) {
        o->nsetup = split(l.setup, o->setup, 3, "--setup");
        if (o->nsetup > 2)
            bad("--setup: expected one label, or two crossed labels such as env_add,layout");
    }
    if (o->speedup && !o->cmp_label)
        bad("--speedup needs --compare LABEL=BASELINE: it turns the ratio around");
    if (o->attribute && !o->nsetup)
        bad("--attribute needs --setup LABEL: the setups whose differences it explains");
    if (o->pooled && !o->cmp_label)
        bad("--pooled needs --compare LABEL=BASELINE");
    if (tool == IL_TOOL_PLAN && o->nlevels == 0)
        bad("--levels is required: name the levels, highest first, e.g. "
            "--levels layout,exec,iter");
    if (o->assurance > 0 && !(o->target > 0))
        bad("--assurance needs --target X%%: the probability is of reaching that half-width");
    if (l.costs)
        costs(o, l.costs);
    if (tool == IL_TOOL_PLAN && o->ncosts + 1 == o->nlevels)
        o->sel.want_wall = 1;
    if (tool == IL_TOOL_REPORT && o->cmp_label) /* the passes in time order (suitepass.c) */
        o->sel.want_when = 1;
    check_distinct(o);
    assign_slots(o);
}
