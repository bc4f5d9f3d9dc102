/*
 * warn.c: the closed set of warnings.  Each is one actionable sentence
 * (after hyperfine's src/output/warnings.rs); none drops data silently.
 * They go to stderr as they happen and into the JSON "warnings" array.
 */
#include <err.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

static const char *const templates[IL_W_COUNT] = {
    [IL_W_LINE] = "%s:%zu: %s; line skipped (--strict stops instead)",
    [IL_W_MORE_LINES] = "%zu more unusable lines were skipped; --strict stops at the first",
    [IL_W_SCHEMA] = "%s is not interloper/1; its records were read as interloper/1",
    [IL_W_UNSUPPORTED] = "%zu selected records have '%s' unsupported (value null) and were "
                         "skipped; %zu records are used: measure on a machine that counts it "
                         "or choose another --metric",
    [IL_W_MISSING] = "%zu selected records lack the metric '%s' and were skipped; %zu records "
                     "are used",
    [IL_W_NOFLOOR] = "%zu selected records have no floor.%s and were skipped "
                     "(--subtract-floor); record them with a calibrated floor",
    [IL_W_NOENV] = "%zu selected records have no setup.env_bytes and were skipped",
    [IL_W_FEW] = "%s: only %zu value, so no standard deviation and no interval; collect at "
                 "least 2 runs (5 or more for a useful interval)",
    [IL_W_OUTLIERS] = "%s: %zu of %zu values are outliers by the MAD rule (|modified z| > "
                      "3.5); they are kept: look for interference (other load, frequency "
                      "scaling) before publishing",
    [IL_W_FIRST] = "%s: the first run differs from the rest (modified z = %.1f); it is kept: "
                   "add a warm-up run, or leave such runs out with --where LABEL!=VALUE "
                   "(e.g. --where rep!=1)",
    [IL_W_DEPENDENT] = "%s: successive runs are correlated (Ljung-Box p = %.2g over %d lags, "
                       "lag-1 autocorrelation %.2f, bound +-%.2f); the interval assumes "
                       "independent runs and may be too narrow: interleave or randomise the "
                       "run order, or describe the repetition structure with --levels",
    [IL_W_NOBASE] = "%s: there are no %s records beside it, so it has no comparison; measure "
                    "the baseline there too",
    [IL_W_UNPAIRED] = "%s: %zu setups have only one side and are left out of the per-setup "
                      "view (%zu are paired); measure both in every setup",
    [IL_W_NOTBOUNDED] = "%s: the 95%% confidence set of the ratio is %s, not an interval, "
                        "because the baseline mean is not clearly different from zero; "
                        "collect more runs or check the metric",
    [IL_W_SUITE_ONE] = "%s: only one benchmark, so the geometric mean has no interval; compare "
                       "two or more benchmarks (--by)",
    [IL_W_T2] = "level '%s': T^2 <= 0, so it adds no measurable variance; do not repeat at "
                "this level (r = 1)",
    [IL_W_NOOPT] = "level '%s': every level above it adds no measurable variance, so no "
                   "finite repetition count is optimal; repeat at this level as the budget "
                   "allows",
    [IL_W_SETUPS_FEW] = "%s: only %zu paired setup, so the per-setup ratios have no interval; "
                        "measure more setups",
};

static char **list;
static size_t nlist, caplist;

void
il_warn(enum il_wkind k, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, k);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    vsnprintf(buf, sizeof buf, templates[k], ap);
#pragma GCC diagnostic pop
    va_end(ap);
    warnx("warning: %s", buf);
    if (nlist == caplist) {
        caplist = caplist ? 2 * caplist : 16;
        list = realloc(list, caplist * sizeof *list);
        if (!list)
            err(1, "out of memory");
    }
    list[nlist] = strdup(buf);
    if (!list[nlist])
        err(1, "out of memory");
    nlist++;
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
    }
    return "unknown error";
}
