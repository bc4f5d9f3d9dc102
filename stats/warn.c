/*
 * warn.c: the closed set of warnings.  Each is one actionable sentence
 * (after hyperfine's src/output/warnings.rs) ending in its name in
 * brackets; --quiet-warning NAME silences it on stderr (pyperf and
 * hyperfine let the user do the same).  None drops data silently.
 * Warnings about groups are collected and printed as one line per kind,
 * naming the cause once and the groups after it.  All go into the JSON
 * "warnings" array, silenced or not.
 */
#include <err.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

struct wdef {
    const char *name;
    const char *fmt;  /* the sentence, or with head: one item */
    const char *head; /* for items: "HEAD: item; item; ...; TAIL" */
    const char *tail;
};

static const struct wdef defs[IL_W_COUNT] = {
    [IL_W_LINE] = {"malformed", "%s:%zu: %s; line skipped (--strict stops instead)", 0, 0},
    [IL_W_MORE_LINES] = {"malformed",
                         "%zu more unusable line%s %s skipped; --strict stops at the first", 0, 0},
    [IL_W_SCHEMA] = {"schema", "%s is not interloper/1; its records were read as interloper/1", 0,
                     0},
    [IL_W_UNSUPPORTED] = {"unsupported",
                          "%zu selected record%s %s '%s' unsupported (value null) and %s "
                          "skipped; %zu record%s %s used: measure on a machine that counts it "
                          "or choose another --metric",
                          0, 0},
    [IL_W_MISSING] = {"missing",
                      "%zu selected record%s %s the metric '%s' and %s skipped; %zu "
                      "record%s %s used",
                      0, 0},
    [IL_W_NOFLOOR] = {"no-floor",
                      "%zu selected record%s %s no floor.%s and %s skipped "
                      "(--subtract-floor); record them with a calibrated floor",
                      0, 0},
    [IL_W_NOENV] = {"no-env", "%zu selected record%s %s no setup.env_bytes and %s skipped", 0,
                    0},
    [IL_W_FEW] = {"few", "%s (%zu value)",
                  "only one value, so no standard deviation and no interval",
                  "collect at least 2 runs (5 or more for a useful interval)"},
    [IL_W_OUTLIERS] = {"outliers", "%s: %zu of %zu",
                       "values that are outliers by the MAD rule (|modified z| > 3.5)",
                       "they are kept: look for interference (other load, frequency scaling) "
                       "before publishing"},
    [IL_W_FIRST] = {"first-run", "%s (modified z = %.1f)", "the first run differs from the rest",
                    "it is kept: add a warm-up run, or leave such runs out with --where "
                    "LABEL!=VALUE (e.g. --where rep!=1)"},
    /* the same, with only the advice that applies (outside12 F8) */
    [IL_W_FIRST_NOREP] = {"first-run", "%s (modified z = %.1f)",
                          "the first run differs from the rest",
                          "it is kept: add a warm-up run (one labelled warmup=1 is left out), "
                          "or leave such runs out with --where LABEL!=VALUE on a label that "
                          "marks them"},
    [IL_W_FIRST_WARM] = {"first-run", "%s (modified z = %.1f)",
                         "the first run differs from the rest",
                         "it is kept: warm-up runs were already left out before it, so more "
                         "of them may be needed, or it was disturbed (other load, a frequency "
                         "change)"},
    [IL_W_FIRST_INCL] = {"first-run", "%s (modified z = %.1f)",
                         "the first run differs from the rest",
                         "it is kept: it may be a warm-up run, kept by --include-warmup; "
                         "without it they are left out"},
    [IL_W_DEPENDENT] = {"dependent", "%s (Ljung-Box p = %.2g, lag-1 autocorrelation %.2f)",
                        "successive runs are correlated",
                        "the interval assumes independent runs and may be too narrow: "
                        "interleave or randomise the run order, or describe the repetition "
                        "structure with --setup or --levels"},
    [IL_W_NOBASE] = {"no-baseline", "%s (no %s)", "no baseline records beside these groups",
                     "they have no comparison: measure the baseline there too"},
    [IL_W_UNPAIRED] = {"unpaired",
                       "%s: %zu setup%s %s only one side and %s left out of the per-setup "
                       "view and the paired interval (%zu %s paired; with none, the setups "
                       "of the two sides are compared unpaired); measure both in every setup",
                       0, 0},
    [IL_W_NOTBOUNDED] = {"not-bounded", "%s (%s)",
                         "the 95% confidence set of the ratio is not an interval",
                         "the baseline is not clearly different from zero: collect more runs or "
                         "check the metric"},
    [IL_W_SUITE_ONE] = {"suite-one",
                        "%s: only one benchmark, so the geometric mean has no interval; "
                        "compare two or more benchmarks (--by)",
                        0, 0},
    [IL_W_T2] = {"level-no-variance",
                 "level '%s': T^2 <= 0, so it adds no measurable variance; do not repeat at "
                 "this level (r = 1)",
                 0, 0},
    [IL_W_NOOPT] = {"level-no-optimum",
                    "level '%s': every level above it adds no measurable variance, so no "
                    "finite repetition count is optimal; repeat at this level as the budget "
                    "allows",
                    0, 0},
    [IL_W_SETUPS_FEW] = {"few-setups",
                         "%s: only %zu paired value of '%s', so the design gives no interval; "
                         "measure more setups",
                         0, 0},
    [IL_W_FAILED] = {"failed", "%s; --include-failed keeps them", 0,
                     0},
    [IL_W_WARMUP] = {"warmup",
                     "%zu warm-up run%s (label '%s') %s left out; --include-warmup keeps them", 0,
                     0},
    [IL_W_DESIGN] = {"design-ignored", "the records carry %s, which the intervals ignore: %s", 0,
                     0},
    [IL_W_MULTIPLEX] = {"multiplexed",
                        "%zu record%s of '%s' %s multiplexed (counted for as little as %.1f%% "
                        "of the time); values are %s",
                        0, 0},
    [IL_W_HOSTS] = {"hosts",
                    "%s: the two sides ran on the hosts in different proportions (%s); a "
                    "difference between hosts would look like one between the systems: "
                    "compare per host (--by host) or pair by host (--setup host)",
                    0, 0},
    [IL_W_MACHINES] = {"machines",
                       "the records come from machines whose facts differ (%s), pooled: a "
                       "difference between the machines would be taken for the setups'; "
                       "compare per machine (--by host) or make the host a factor crossed "
                       "with the setups (--setup setup,host: shards deal a setup's "
                       "repetitions to several hosts)",
                       0, 0},
    [IL_W_MACHINE_CHANGED] = {"machine-changed",
                              "the machine changed during a sweep (%s); the runs around the "
                              "change may differ for it alone (the sweep's machine lines say "
                              "when)",
                              0, 0},
    [IL_W_BURSTY] = {"bursty", "%s (skewness %.2f)",
                     "the runs look bursty (a floor with a heavy upper tail)",
                     "the mean follows the bursts; a low quantile (--estimator p10) estimates "
                     "the undisturbed time better"},
    [IL_W_NOPER] = {"per",
                    "%zu record%s %s the label '%s' named in --per; each is taken as a run of "
                    "its own",
                    0, 0},
    /* one line for all comparisons, however many (outside14 F10: 583 lines) */
    [IL_W_NOREPS] = {"no-reps", "%s",
                     "the runs within every setup are equal, so the spread of the per-setup "
                     "ratios cannot be told apart from run-to-run noise",
                     "repeat runs within setups"},
    [IL_W_NOREPS_TWO] = {"no-reps", "%s",
                         "no setup has two runs of each side, so the spread of the per-setup "
                         "ratios cannot be told apart from run-to-run noise",
                         "repeat runs within setups"},
    [IL_W_NOTCOUNTED] = {"not-counted",
                         "%zu record%s of '%s' %s never counted (running_ns 0) and %s "
                         "skipped",
                         0, 0},
    [IL_W_SUBTRACT] = {"subtract",
                       "%zu run%s %s in setups without a run of %s=%s, so nothing could be "
                       "subtracted from %s, and %s left out; measure it in every setup",
                       0, 0},
    [IL_W_DISTURBED] = {"disturbed", "%s",
                        "the machine was disturbed while the records were measured",
                        "runs were slowed at random: measure again on a quiet machine "
                        "(interloper check says what else is wrong)"},
    [IL_W_FREE] = {"free-exchange", "%s (%s)",
                   "the test of a setup effect exchanged runs freely across setups, not within "
                   "each pass as the records' passes ask",
                   "drift between passes can pass for a setup effect there: label every run with "
                   "its pass, or give --passes none if the runs do not drift"},
    [IL_W_OTHERS] = {"others-measured", "%s: %zu of %zu",
                     "records measured while another program measured by interloper ran on "
                     "the machine (others_measured)",
                     "it shared the CPUs and caches, so these runs may be slowed and spread "
                     "at random; they are kept: measure one benchmark at a time (a harness "
                     "with -j1, not lit -j2 or make -j)"},
    [IL_W_ARGS] = {"mixed-args", "%s: %zu argument lists",
                   "groups whose runs were made with different arguments (the argv after the "
                   "program)",
                   "they are pooled as one sample (one mean, one spread, one ratio) as if of "
                   "one workload: if they are different inputs, give each its own group by "
                   "adding the pseudo-label args to --by (e.g. --by bench,args), or label each "
                   "input and add that label; arguments that change only from one setup to "
                   "the next are the setup's and not counted"},
    [IL_W_IMAGES] = {"two-images", "%s: %s",
                     "groups whose runs of one program (one argv[0] and layout) ran different "
                     "images (their records' build_id differ)",
                     "one system's runs of two binaries are pooled in one verdict: the program "
                     "was rebuilt, or replaced behind a launcher, while the runs went on; "
                     "measure each binary under a label of its own"},
    [IL_W_EXEC] = {"exec-chain", "%s: %zu of %zu",
                   "records that end in an exec (exit.how \"exec\") with no record of the "
                   "next image of their process (same pid, host and labels) after them",
                   "the run's work after the exec is in no record, so such a record, taken as "
                   "a run, holds only its launcher's part: the image it execs was not measured "
                   "(a static program, or an environment without LD_PRELOAD: env -i), or its "
                   "record is missing; measure the program itself"},
    /* a harness run system after system (suitepass.c) */
    [IL_W_PASS_SHIFT] = {"pass-shift",
                         "%s: the benchmarks ran in passes, system after system, and the "
                         "suite's ratio differs between passes more than the benchmarks' noise "
                         "explains (per pass %s; F = %.3g on %.0f and %.0f df, p = %.2g): a "
                         "pass-wide shift (machine load, drift) moves every benchmark of a pass "
                         "at once, so the intervals over benchmarks are too narrow; read the "
                         "interval over the passes, and for a narrower one run more passes, "
                         "alternating the systems pass by pass, or interleave the systems per "
                         "benchmark",
                         0, 0},
    [IL_W_ONE_PASS] = {"one-pass",
                       "%s: the benchmarks ran in passes, system after system, and %s, so "
                       "drift of the machine between the passes cannot be told from the effect, "
                       "and the intervals over benchmarks do not see it: run the harness several "
                       "times, alternating the systems pass by pass, or interleave the systems "
                       "per benchmark",
                       0, 0},
    [IL_W_TWICE] = {"twice",
                    "%s and %s %s: a run in both is counted twice, as two runs%s; give each "
                    "run's records once",
                    0, 0},
    [IL_W_TWICE_RECORDS] = {"twice",
                            "%zu %s read before (the same host, "
                            "pid, start, argv, times.wall_ns and value; e.g. one in %s of one "
                            "in %s): each is counted as a run of its own, and the intervals "
                            "are too narrow; they are kept: give each record once "
                            "(`interloper record merge` joins a sweep's files without copies)",
                            0, 0},
    /* benchmarks measured in the same setups (suiteshare.c) */
    [IL_W_SHARED_SETUPS] = {"shared-setups",
                            "%s: the %zu benchmarks were measured in the same %zu setups (%s), "
                            "and a setup's effect moves every benchmark at once, so the suite's "
                            "intervals take the setups as the unit; taking the benchmarks as "
                            "independent would give %s for these benchmarks, %.3gx narrower",
                            0, 0},
    [IL_W_PART_SHARED] = {"part-shared-setups",
                          "%s: %zu setups (%s) are shared by two or more of the %zu benchmarks, "
                          "%s, so the suite's intervals take the benchmarks as independent, and "
                          "a setup's effect moves every benchmark measured in it: they may be "
                          "too narrow; measure every benchmark in the same setups (one plan: "
                          "the same layouts and environment sizes) for intervals with the setups "
                          "as the unit",
                          0, 0},
};

#define IL_W_SHOWN 6 /* items named in one aggregated line */

static char **list;
static size_t nlist, caplist;
static int quiet[IL_W_COUNT];
static char **items[IL_W_COUNT];
static size_t nitems[IL_W_COUNT];

/* Warnings are kept until il_warn_flush(), so that a fatal error later on
 * is not preceded by warnings about data it never summarised. */
static size_t nprinted;
static int *lkind;

static void
emit(enum il_wkind k, const char *text)
{
    if (nlist == caplist) {
        caplist = caplist ? 2 * caplist : 16;
        list = il_xrealloc(list, caplist * sizeof *list);
        lkind = il_xrealloc(lkind, caplist * sizeof *lkind);
    }
    lkind[nlist] = k;
    size_t n = strlen(text) + strlen(defs[k].name) + 4;
    list[nlist] = il_xmalloc(n);
    snprintf(list[nlist++], n, "%s [%s]", text, defs[k].name);
}

static void
format(char *buf, size_t n, enum il_wkind k, va_list ap)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    vsnprintf(buf, n, defs[k].fmt, ap);
#pragma GCC diagnostic pop
}

void
il_warn(enum il_wkind k, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, k);
    format(buf, sizeof buf, k, ap);
    va_end(ap);
    emit(k, buf);
}

void
il_warn_item(enum il_wkind k, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, k);
    format(buf, sizeof buf, k, ap);
    va_end(ap);
    items[k] = il_xrealloc(items[k], (nitems[k] + 1) * sizeof *items[k]);
    items[k][nitems[k]++] = il_xstrdup(buf);
}

void
il_warn_flush(void)
{
    for (int k = 0; k < IL_W_COUNT; k++) {
        if (!nitems[k])
            continue;
        size_t cap = 256 + strlen(defs[k].head) + strlen(defs[k].tail), o;
        for (size_t i = 0; i < nitems[k] && i < IL_W_SHOWN; i++)
            cap += strlen(items[k][i]) + 2;
        char *buf = il_xmalloc(cap);
        o = (size_t)snprintf(buf, cap, "%s: ", defs[k].head);
        for (size_t i = 0; i < nitems[k] && i < IL_W_SHOWN; i++)
            o += (size_t)snprintf(buf + o, cap - o, "%s%s", i ? "; " : "", items[k][i]);
        if (nitems[k] > IL_W_SHOWN)
            o += (size_t)snprintf(buf + o, cap - o, "; and %zu more", nitems[k] - IL_W_SHOWN);
        snprintf(buf + o, cap - o, "; %s", defs[k].tail);
        emit((enum il_wkind)k, buf);
        free(buf);
        for (size_t i = 0; i < nitems[k]; i++)
            free(items[k][i]);
        free(items[k]);
        items[k] = NULL;
        nitems[k] = 0;
    }
    for (; nprinted < nlist; nprinted++)
        if (!quiet[lkind[nprinted]])
            warnx("warning: %s", list[nprinted]);
}

int
il_warn_quiet(char *names, const char **bad)
{
    for (char *tok = strtok(names, ","); tok; tok = strtok(NULL, ",")) {
        int found = 0;
        for (int k = 0; k < IL_W_COUNT; k++)
            if (strcmp(tok, "all") == 0 || strcmp(tok, defs[k].name) == 0) {
                quiet[k] = 1;
                found = 1;
            }
        if (!found) {
            *bad = tok;
            return -1;
        }
    }
    return 0;
}

const char *
il_warn_names(void)
{
    static char buf[1024];
    size_t o = 0;
    for (int k = 0; k < IL_W_COUNT && o < sizeof buf; k++) {
        int dup = 0;
        for (int j = 0; j < k; j++)
            dup |= strcmp(defs[j].name, defs[k].name) == 0;
        if (!dup)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", o ? ", " : "", defs[k].name);
    }
    return buf;
}

size_t
il_warnings(const char *const **out)
{
    *out = (const char *const *)list;
    return nlist;
}

const char *
il_se_strerror(int e)
{
    switch (e) {
    case IL_SE_OK:
        return "success";
    case IL_SE_FEW:
        return "fewer than 2 values";
    case IL_SE_NONPOS:
        return "a value that must be positive is not";
    case IL_SE_UNBAL:
        return "unbalanced design";
    case IL_SE_DUP:
        return "a lowest-level repetition appears twice";
    case IL_SE_NOMEM:
        return "out of memory";
    case IL_SE_RANGE:
        return "argument out of range";
    case IL_SE_ZEROVAR:
        return "zero variance";
    case IL_SE_NOTFOUND:
        return "not reachable";
    case IL_SE_QFEW:
        return "too few values for an interval of the quantile";
    }
    return "unknown error";
}
