/*
 * cli.c: the options of interloper-report, -plan and -plot, parsed in one
 * place so that the three commands agree on names and meaning.
 */
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

enum {
    O_METRIC = 'm',
    O_WHERE = 'w',
    O_BY = 'b',
    O_COMPARE = 'c',
    O_OUT = 'o',
    O_HELP = 'h',
    O_FLOOR = 256,
    O_STRICT,
    O_POOLED,
    O_SETUP,
    O_LEVELS,
    O_COSTS,
    O_TARGET,
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
    O_INC_WARMUP,
    O_ESTIMATOR,
    O_SPEEDUP,
    O_QUIET,
    O_BINS,
    O_SIZE,
};

static const char *const usage_report =
    "usage: interloper report [--metric NAME|NUM/DEN] [--where LABEL[!]=VALUE]...\n"
    "                         [--subtract-floor] [--scale] [--per LABEL] [--by LABEL,...]\n"
    "                         [--compare LABEL=BASELINE [--pooled] [--speedup]]\n"
    "                         [--setup LABEL[,LABEL]] [--levels L_n,...,L_1]\n"
    "                         [--estimator mean|median|pNN|min] [--bootstrap B] [--seed S]\n"
    "                         [--include-failed] [--include-warmup] [--quiet-warning NAME]\n"
    "                         [--strict] [--json | --csv | --markdown | --gobench] FILE...\n"
    "\n"
    "Summarise interloper records: per group n, mean, sd, median, min, max, CV and the\n"
    "95% interval of the estimate; ratios value/baseline with Fieller intervals that\n"
    "respect the design (runs paired by setup); the per-setup view of Mytkowicz et\n"
    "al. with a test of whether setups differ beyond run-to-run noise; the geometric\n"
    "mean over benchmarks; the variance per level of Kalibera & Jones; warnings.\n"
    "\n"
    "  -m, --metric NAME        an event name, or wall, user, sys, maxrss (default wall);\n"
    "                           NUM/DEN divides two of them per run (instructions/cycles)\n"
    "  -w, --where LABEL=VALUE  keep records with this label value; repeat to combine\n"
    "                           (same label: any of the values; different labels: all)\n"
    "  -w, --where LABEL!=VALUE leave out records with this label value (e.g. rep!=1)\n"
    "      --subtract-floor     subtract the record's calibrated floor.NAME (events)\n"
    "      --scale              scale multiplexed counts by enabled/running (perf stat)\n"
    "      --per LABEL          sum the metric over the records of one run (exec chains,\n"
    "                           children, SPEC workloads) before any statistics\n"
    "  -b, --by LABEL,...       one group per combination of these labels; 'host' is the\n"
    "                           record's host unless a label of that name exists\n"
    "  -c, --compare L=BASE     ratio of every other value of L to BASE\n"
    "      --pooled             one pooled variance for both sides (flat interval only)\n"
    "      --speedup            report BASE/value instead of value/BASE\n"
    "      --setup LABEL        the runs were made in setups (values of LABEL): intervals\n"
    "                           over setups, ratios paired by setup, the per-setup view,\n"
    "                           each group's setup effect and the setups that stand out\n"
    "      --setup A,B          setups crossed from two labels (e.g. env_add,layout)\n"
    "      --levels L_n,...,L_1 Kalibera & Jones levels, highest first; the last\n"
    "                           numbers the repetitions inside its parent\n"
    "      --estimator E        mean (default), median, pNN (a quantile, e.g. p10) or min\n"
    "      --bootstrap B        replicates of the bootstraps of quantile ratios (2000)\n"
    "      --seed S             their random seed (default 1)\n"
    "      --include-failed     keep runs that died of a signal or failed (exit status)\n"
    "      --include-warmup     keep warm-up runs (label warmup)\n"
    "      --quiet-warning NAME silence the warnings named NAME (the name in brackets\n"
    "                           at the end of each; a comma list, or all)\n"
    "      --strict             stop at the first malformed line instead of skipping it\n"
    "      --json, --csv, --markdown, --gobench   output format (default: a table)\n"
    "  FILE...                  records, one a line: plain, gzip or zstd; - is stdin\n"
    "\n"
    "See interloper-report(1).\n";

static const char *const usage_plan =
    "usage: interloper plan --levels L_n,...,L_1 [--costs C_n,...,C_1] [--target X%]\n"
    "                       [--bootstrap B [--seed S]] [--metric NAME]\n"
    "                       [--where LABEL[!]=VALUE]... [--subtract-floor] [--scale]\n"
    "                       [--per LABEL] [--include-failed] [--include-warmup]\n"
    "                       [--quiet-warning NAME] [--strict] [--json] FILE...\n"
    "\n"
    "Dimension an experiment after Kalibera & Jones: the variance each level adds\n"
    "(S_i^2, T_i^2), the optimal repetition counts of the lower levels from their\n"
    "costs, the top-level count for a target interval half-width, and a seeded\n"
    "hierarchical bootstrap of the mean.\n"
    "\n"
    "  --levels L_n,...,L_1   label names, highest level first\n"
    "  --costs C_n,...,C_1    seconds per repetition of each level, excluding lower\n"
    "                         levels, highest first; give one value fewer to measure the\n"
    "                         lowest level's cost as the mean wall time of the records\n"
    "  --target X%            relative half-width of the 95% interval to reach\n"
    "  --bootstrap B          B hierarchical bootstrap replicates\n"
    "  --seed S               random seed of the bootstrap (default 1)\n"
    "  --metric, --where, --subtract-floor, --scale, --per, --include-failed,\n"
    "  --include-warmup, --quiet-warning, --strict   as in interloper-report(1);\n"
    "                         --where LABEL!=VALUE leaves records out (e.g. rep!=1)\n"
    "  --json                 JSON instead of a table\n"
    "  FILE...                records, one a line: plain, gzip or zstd; - is stdin\n"
    "\n"
    "See interloper-plan(1).\n";

static const char *const usage_plot =
    "usage: interloper plot violin|env|hist|seq -o FILE.png|FILE.svg|FILE.pdf [--metric NAME]\n"
    "                       [--where LABEL[!]=VALUE]... [--subtract-floor] [--by LABEL,...]\n"
    "                       [--compare LABEL=BASELINE [--speedup]] [--setup LABEL[,LABEL]]\n"
    "                       [--estimator mean|median|pNN|min] [--bins N] [--size W,H]\n"
    "                       [--title TEXT] [--keep DIR] [--strict] FILE...\n"
    "\n"
    "Render with gnuplot, for print (a column of a two-column paper by default):\n"
    "  violin  per-setup ratios for each benchmark (Mytkowicz et al., Fig. 2b/3b), the\n"
    "          density clipped to the data; median, quartiles, and the original (+) and\n"
    "          alphabetical (x) link orders marked; needs --compare and --setup\n"
    "  env     the metric against setup.env_bytes, the estimate and its 95% interval\n"
    "          per size, one line per --by group (Fig. 1b)\n"
    "  hist    histogram over setups of the suite's geometric-mean ratio (Fig. 6), with\n"
    "          a rug of the values; needs --compare and --setup\n"
    "  seq     run-sequence, lag and autocorrelation plots of one group\n"
    "  env and seq refuse records that mix values of a label such as system or bench\n"
    "  outside --by (pick one with --where, or split them with --by)\n"
    "\n"
    "  -o, --output FILE   the image; its suffix, .png, .svg or .pdf, picks the format\n"
    "      --estimator E   mean (default), median, pNN or min, as in interloper-report(1)\n"
    "      --bins N        hist: N bins (default: Freedman-Diaconis or Rice, the more)\n"
    "      --size W,H      the figure's size in inches (default 3.4,2.3; seq 7,4.6)\n"
    "      --title TEXT    the plot title ('' for none)\n"
    "      --keep DIR      keep the gnuplot script and data in DIR\n"
    "  --metric, --where, --subtract-floor, --by, --compare, --speedup, --setup,\n"
    "  --scale, --per, --include-failed, --include-warmup, --quiet-warning, --strict\n"
    "                      as in interloper-report(1); --where LABEL!=VALUE leaves\n"
    "                      records out (e.g. rep!=1)\n"
    "  FILE...             records, one a line: plain, gzip or zstd; - is stdin\n"
    "\n"
    "See interloper-plot(1).\n";

static const char *
usage_text(enum il_tool t)
{
    return t == IL_TOOL_REPORT ? usage_report : t == IL_TOOL_PLAN ? usage_plan : usage_plot;
}

static const char *
tool_name(enum il_tool t)
{
    return t == IL_TOOL_REPORT ? "interloper report"
           : t == IL_TOOL_PLAN ? "interloper plan"
                               : "interloper plot";
}

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
check_distinct(const struct il_opts *o)
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
    /* Labels the report looks at on its own: warm-up runs, the host, and
     * the design labels that interloper sweep writes. */
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

/* Which options each tool takes. */
static int
takes(enum il_tool t, int c)
{
    switch (c) {
    case O_METRIC:
    case O_WHERE:
    case O_HELP:
    case O_FLOOR:
    case O_STRICT:
    case O_PER:
    case O_SCALE:
    case O_INC_FAILED:
    case O_INC_WARMUP:
    case O_QUIET:
        return 1;
    case O_BY:
    case O_COMPARE:
    case O_SETUP:
    case O_SPEEDUP:
        return t != IL_TOOL_PLAN;
    case O_POOLED:
    case O_CSV:
    case O_MD:
    case O_GOBENCH:
        return t == IL_TOOL_REPORT;
    case O_ESTIMATOR:
        return t != IL_TOOL_PLAN;
    case O_LEVELS:
    case O_JSON:
    case O_BOOT:
    case O_SEED:
        return t != IL_TOOL_PLOT;
    case O_COSTS:
    case O_TARGET:
        return t == IL_TOOL_PLAN;
    case O_OUT:
    case O_TITLE:
    case O_KEEP:
    case O_BINS:
    case O_SIZE:
        return t == IL_TOOL_PLOT;
    }
    return 0;
}

void
il_parse_opts(enum il_tool tool, int argc, char **argv, struct il_opts *o)
{
    static const struct option lo[] = {
        {"metric", required_argument, NULL, O_METRIC},
        {"where", required_argument, NULL, O_WHERE},
        {"by", required_argument, NULL, O_BY},
        {"compare", required_argument, NULL, O_COMPARE},
        {"output", required_argument, NULL, O_OUT},
        {"help", no_argument, NULL, O_HELP},
        {"subtract-floor", no_argument, NULL, O_FLOOR},
        {"strict", no_argument, NULL, O_STRICT},
        {"pooled", no_argument, NULL, O_POOLED},
        {"setup", required_argument, NULL, O_SETUP},
        {"levels", required_argument, NULL, O_LEVELS},
        {"costs", required_argument, NULL, O_COSTS},
        {"target", required_argument, NULL, O_TARGET},
        {"bootstrap", required_argument, NULL, O_BOOT},
        {"seed", required_argument, NULL, O_SEED},
        {"json", no_argument, NULL, O_JSON},
        {"csv", no_argument, NULL, O_CSV},
        {"markdown", no_argument, NULL, O_MD},
        {"gobench", no_argument, NULL, O_GOBENCH},
        {"title", required_argument, NULL, O_TITLE},
        {"keep", required_argument, NULL, O_KEEP},
        {"per", required_argument, NULL, O_PER},
        {"scale", no_argument, NULL, O_SCALE},
        {"include-failed", no_argument, NULL, O_INC_FAILED},
        {"include-warmup", no_argument, NULL, O_INC_WARMUP},
        {"estimator", required_argument, NULL, O_ESTIMATOR},
        {"speedup", no_argument, NULL, O_SPEEDUP},
        {"quiet-warning", required_argument, NULL, O_QUIET},
        {"bins", required_argument, NULL, O_BINS},
        {"size", required_argument, NULL, O_SIZE},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof *o);
    o->tool = tool;
    o->seed = 1;
    o->sel.metric = "wall";
    o->est.kind = IL_EST_MEAN;
    o->est.name = "mean";
    char *costs = NULL, *setup = NULL;
    static char metric_buf[512];
    int c, nfmt = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":m:w:b:c:o:h", lo, NULL)) != -1) {
        const char *arg = argv[optind - 1];
        if (c == ':')
            bad("%s: expected a value after this option; see %s --help", arg, tool_name(tool));
        if (c == '?') {
            int n = (int)strcspn(arg, "="), islong = strncmp(arg, "--", 2) == 0 && arg[2];
            if (!islong || (optopt && optopt < 256 && !strchr("mwbcoh", optopt)))
                bad("unknown option -%c; see %s --help", optopt, tool_name(tool));
            /* A long option known but given a value it does not take */
            if (optopt)
                bad("%.*s takes no value; see %s --help", n, arg, tool_name(tool));
            /* --name=value: name the option alone; a prefix of several
             * option names is ambiguous */
            char amb[256] = "";
            size_t k = 0, na = 0;
            for (size_t i = 0; lo[i].name; i++)
                if (takes(tool, lo[i].val) && strncmp(lo[i].name, arg + 2, (size_t)n - 2) == 0 &&
                    k < sizeof amb)
                    k += (size_t)snprintf(amb + k, sizeof amb - k, "%s--%s", na++ ? ", " : "",
                                          lo[i].name);
            if (na > 1)
                bad("ambiguous option %.*s (%s); see %s --help", n, arg, amb, tool_name(tool));
            if (na == 1)
                bad("unknown option %.*s; did you mean %s? see %s --help", n, arg, amb,
                    tool_name(tool));
            bad("unknown option %.*s; see %s --help", n, arg, tool_name(tool));
        }
        if (!takes(tool, c)) {
            const char *name = "?";
            for (size_t i = 0; lo[i].name; i++)
                if (lo[i].val == c)
                    name = lo[i].name;
            bad("--%s is not an option of %s; see %s --help", name, tool_name(tool),
                tool_name(tool));
        }
        switch (c) {
        case O_HELP:
            fputs(usage_text(tool), stdout);
            exit(0);
        case O_METRIC:
            o->sel.metric = optarg;
            break;
        case O_WHERE: {
            /* LABEL=VALUE keeps, LABEL!=VALUE leaves out. */
            char *eq = strchr(optarg, '=');
            int neg = eq && eq > optarg && eq[-1] == '!';
            char *end = neg ? eq - 1 : eq;
            if (!eq || end == optarg)
                bad("--where %s: expected LABEL=VALUE, or LABEL!=VALUE to leave records out",
                    optarg);
            *end = '\0';
            o->sel.where = realloc(o->sel.where, (o->sel.nwhere + 1) * sizeof *o->sel.where);
            if (!o->sel.where)
                err(1, "out of memory");
            o->sel.where[o->sel.nwhere].slot = il_sel_slot(&o->sel, optarg);
            o->sel.where[o->sel.nwhere].neg = neg;
            o->sel.where[o->sel.nwhere++].value = eq + 1;
            break;
        }
        case O_BY:
            o->nby = split(optarg, o->by, IL_MAX_SLOTS, "--by");
            break;
        case O_COMPARE: {
            char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg || !eq[1])
                bad("--compare %s: expected LABEL=BASELINE, e.g. system=O2", optarg);
            *eq = '\0';
            o->cmp_label = optarg;
            o->cmp_base = eq + 1;
            break;
        }
        case O_OUT:
            o->out = optarg;
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
            setup = optarg;
            break;
        case O_PER:
            if (!*optarg)
                bad("--per: expected a label name, e.g. --per run");
            o->per = optarg;
            break;
        case O_SCALE:
            o->sel.scale = 1;
            break;
        case O_INC_FAILED:
            o->include_failed = 1;
            break;
        case O_INC_WARMUP:
            o->sel.include_warmup = 1;
            break;
        case O_SPEEDUP:
            o->speedup = 1;
            break;
        case O_ESTIMATOR:
            if (il_estimator_parse(optarg, &o->est) < 0)
                bad("--estimator %s: expected mean, median, min, or pNN for a quantile "
                    "(p10, p5, p90, ...)",
                    optarg);
            break;
        case O_QUIET: {
            const char *badname;
            if (il_warn_quiet(optarg, &badname) < 0)
                bad("--quiet-warning %s: unknown warning name; expected all or one of: %s", badname,
                    il_warn_names());
            break;
        }
        case O_LEVELS:
            o->nlevels = split(optarg, o->levels, IL_MAX_LEVELS, "--levels");
            break;
        case O_COSTS:
            costs = optarg;
            break;
        case O_TARGET: {
            char *pct = strchr(optarg, '%');
            if (pct && pct[1])
                bad("--target %s: expected a percentage such as 1%%", optarg);
            if (pct)
                *pct = '\0';
            o->target = number(optarg, "--target") / 100;
            if (!(o->target > 0 && o->target < 1))
                bad("--target: expected a percentage above 0 and below 100, such as 1%%");
            break;
        }
        case O_BOOT: {
            double b = number(optarg, "--bootstrap");
            /* report: the replicates of the quantile bootstraps */
            if (b < 100 || b > 1e8 || b != floor(b))
                bad("--bootstrap %s: expected a whole number of replicates from 100 to "
                    "100000000 (the default is 2000)",
                    optarg);
            o->boot = (size_t)b;
            break;
        }
        case O_SEED: {
            double s = number(optarg, "--seed");
            if (s < 0 || s != floor(s) || s > 4294967295.0)
                bad("--seed: expected a whole number from 0 to 4294967295");
            o->seed = (unsigned long)s;
            break;
        }
        case O_JSON:
        case O_CSV:
        case O_MD:
        case O_GOBENCH:
            nfmt++;
            o->fmt = c == O_JSON  ? IL_FMT_JSON
                     : c == O_CSV ? IL_FMT_CSV
                     : c == O_MD  ? IL_FMT_MARKDOWN
                                  : IL_FMT_GOBENCH;
            break;
        case O_TITLE:
            o->title = optarg;
            break;
        case O_KEEP:
            o->keep = optarg;
            break;
        case O_BINS: {
            double b = number(optarg, "--bins");
            if (b < 1 || b > 1000 || b != floor(b))
                bad("--bins %s: expected a whole number of bins from 1 to 1000", optarg);
            o->bins = (size_t)b;
            break;
        }
        case O_SIZE: {
            char *end, *comma = strchr(optarg, ',');
            errno = 0;
            o->size_w = strtod(optarg, &end);
            if (comma && end == comma)
                o->size_h = strtod(comma + 1, &end);
            if (!comma || end == comma || *end || errno || !(o->size_w >= 1 && o->size_w <= 20) ||
                !(o->size_h >= 1 && o->size_h <= 20))
                bad("--size %s: expected WIDTH,HEIGHT in inches, each from 1 to 20, e.g. 3.4,2.3",
                    optarg);
            break;
        }
        }
    }
    if (nfmt > 1)
        bad("give at most one of --json, --csv, --markdown, --gobench");
    if (tool == IL_TOOL_PLOT) {
        if (optind >= argc)
            bad("expected a plot kind: violin, env, hist or seq; see interloper plot --help");
        o->plot_kind = argv[optind++];
        if (strcmp(o->plot_kind, "violin") && strcmp(o->plot_kind, "env") &&
            strcmp(o->plot_kind, "hist") && strcmp(o->plot_kind, "seq"))
            bad("unknown plot kind '%s'; expected violin, env, hist or seq", o->plot_kind);
        if (!o->out)
            bad("-o FILE is required (FILE.png, FILE.svg or FILE.pdf)");
        if (o->bins && strcmp(o->plot_kind, "hist"))
            bad("--bins is for hist; %s has no bins", o->plot_kind);
    }
    o->files = argv + optind;
    o->nfiles = argc - optind;
    if (o->nfiles == 0)
        bad("expected one or more .jsonl files of records (- for stdin)");
    if (il_metric_split(&o->sel, metric_buf, sizeof metric_buf) < 0)
        bad("--metric: expected an event name, or wall, user, sys, maxrss, or NUM/DEN");
    if (o->sel.subtract_floor &&
        (o->sel.kind != IL_M_EVENT || (o->sel.derived && o->sel.kind2 != IL_M_EVENT)))
        errx(1, "--subtract-floor applies to events only; '%s' has no calibrated floor",
             o->sel.metric);
    if (setup) {
        o->nsetup = split(setup, o->setup, 3, "--setup");
        if (o->nsetup > 2)
            bad("--setup: expected one label, or two crossed labels such as env_add,layout");
    }
    if (o->speedup && !o->cmp_label)
        bad("--speedup needs --compare LABEL=BASELINE: it turns the ratio around");
    if (o->pooled && !o->cmp_label)
        bad("--pooled needs --compare LABEL=BASELINE");
    if (tool == IL_TOOL_PLAN && o->nlevels == 0)
        bad("--levels is required: name the levels, highest first, e.g. "
            "--levels layout,exec,iter");
    if (costs) {
        const char *tok[IL_MAX_LEVELS];
        o->ncosts = split(costs, tok, IL_MAX_LEVELS, "--costs");
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
    if (tool == IL_TOOL_PLAN && o->ncosts + 1 == o->nlevels)
        o->sel.want_wall = 1;
    check_distinct(o);
    assign_slots(o);
}
