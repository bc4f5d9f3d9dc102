/*
 * compare_export.c: interloper compare's --export-json, --export-markdown
 * and --export-csv, the files hyperfine users expect, made from the one
 * report (interloper report's JSON, read once) and the comparison's facts:
 * the systems and their commands, seed, plan, machine, what ended it.
 * Each file is written to a temporary name beside it and renamed: never
 * partial.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "il_csv.h"
#include "il_report.h"
#include "compare.h"
#include "il_plural.h"

/* the entry of the report's array key (groups, comparisons) whose labels
 * say system sys (and no pin: with --stack-pin both, the first) */
static json_t *
of_system(json_t *rep, const char *key, const char *sys)
{
    size_t i;
    json_t *g;
    json_array_foreach(json_object_get(rep, key), i, g)
    {
        const char *v = il_json_str(json_object_get(g, IL_R_LABELS), IL_L_SYSTEM);
        if (v && !strcmp(v, sys))
            return g;
    }
    return NULL;
}

static FILE *
open_tmp(const char *path, char **tmp)
{
    *tmp = il_xasprintf("%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(*tmp, "we");
    if (!f)
        err(1, "cannot write %s", path);
    return f;
}

static void
close_tmp(FILE *f, const char *path, char *tmp)
{
    if (fflush(f) != 0 || ferror(f) || fclose(f) != 0) {
        unlink(tmp);
        err(1, "cannot write %s", path);
    }
    if (rename(tmp, path) < 0) {
        unlink(tmp);
        err(1, "cannot write %s", path);
    }
    free(tmp);
}

/* The shell alone is measured to be subtracted: not a row of the tables */
static int
subtracted(const struct il_sweep *s, size_t k)
{
    return s->subtract && !strcmp(s->sys[k].name, s->subtract);
}

/* ------------------------------------------------------------ JSON */

static void
export_json(const char *path, const struct il_sweep *s, json_t *rep, const struct il_ending *e)
{
    json_t *sys = json_array();
    for (size_t k = 0; k < s->nsys; k++) {
        /* its runs that failed (--keep-going), left out of the report */
        const struct il_failures *fk = e->failures ? &e->failures[k] : NULL;
        json_t *why = json_object();
        for (size_t c = 0; fk && c < fk->ncause; c++)
            if (fk->cause[c].n)
                json_object_set_new(why, fk->cause[c].name,
                                    json_integer((json_int_t)fk->cause[c].n));
        json_array_append_new(sys,
                              json_pack("{s:s,s:s?,s:I,s:I,s:o}", "name", s->sys[k].name, "command",
                                        e->commands ? e->commands[k] : NULL, "failed",
                                        (json_int_t)(fk ? fk->failed : 0), "warmup_failed",
                                        (json_int_t)(fk ? fk->warm_failed : 0), "failed_why", why));
    }
    json_t *o = json_pack(
        "{s:s,s:I,s:s,s:O?,s:s,s:f,s:I,s:I,s:I,s:o,s:s,s:O}", "schema", IL_COMPARE_SCHEMA, "seed",
        (json_int_t)s->d.seed, "plan", e->plan, "machine", e->machine, "stopped", e->stopped,
        "seconds", e->seconds, "runs", (json_int_t)e->runs, "warmup_runs", (json_int_t)e->warmups,
        "setups", (json_int_t)e->setups, "systems", sys, "records", s->output, "report", rep);
    if (e->layouts_all) {
        /* a sample of setups may not hold every layout (outside13 F3) */
        json_object_set_new(o, "layouts", json_integer((json_int_t)e->layouts));
        json_object_set_new(o, "layouts_total", json_integer((json_int_t)e->layouts_all));
    }
    char *tmp;
    FILE *f = open_tmp(path, &tmp);
    if (json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) < 0)
        errx(1, "cannot write %s", path);
    fputc('\n', f);
    close_tmp(f, path, tmp);
    json_decref(o);
}

/* ------------------------------------------------------------ tables */

/* ns shown in the unit that suits the first system, as in the summary */
static double
divisor(json_t *rep, const char **unit)
{
    const char *u = il_json_str(rep, IL_R_UNIT);
    double x = fabs(il_json_num(json_array_get(json_object_get(rep, IL_R_GROUPS), 0), "estimate"));
    *unit = u && *u ? u : "";
    if (!u || strcmp(u, "ns"))
        return 1;
    *unit = x >= 1e9 ? "s" : x >= 1e6 ? "ms" : x >= 1e3 ? "us" : "ns";
    return x >= 1e9 ? 1e9 : x >= 1e6 ? 1e6 : x >= 1e3 ? 1e3 : 1;
}

static void
md_cell(FILE *f, const char *s)
{
    fputs(" ", f);
    for (; s && *s; s++) {
        if (*s == '|' || *s == '`')
            fputc('\\', f);
        fputc(*s, f);
    }
    fputs(" |", f);
}

static void
export_markdown(const char *path, const struct il_sweep *s, json_t *rep, const struct il_ending *e)
{
    const char *unit;
    double div = divisor(rep, &unit);
    char *tmp;
    FILE *f = open_tmp(path, &tmp);
    char ew[64];
    fprintf(f, "| System | Command | %s [%s] | SD of the runs [%s] | Relative to %s (95%% CI) |\n",
            il_estimate_words(il_json_str(rep, IL_R_ESTIMATOR), ew, sizeof ew), unit, unit,
            s->d.sys[0]);
    fputs("|:---|:---|---:|---:|---:|\n", f);
    for (size_t k = 0; k < s->nsys; k++) {
        if (subtracted(s, k))
            continue;
        json_t *g = of_system(rep, IL_R_GROUPS, s->sys[k].name),
               *c = of_system(rep, IL_R_COMPARISONS, s->sys[k].name);
        char v[64], sd[64], rel[128];
        fputc('|', f);
        md_cell(f, s->sys[k].name);
        md_cell(f, e->commands ? e->commands[k] : "");
        snprintf(v, sizeof v, "%.3f", il_json_num(g, IL_R_ESTIMATE) / div);
        snprintf(sd, sizeof sd, "%.3f", il_json_num(g, IL_R_SD) / div);
        json_t *ci = json_object_get(c, IL_R_CI);
        if (!c)
            snprintf(rel, sizeof rel, "1");
        else if (json_array_size(ci) == 2 && !strcmp(il_json_str(c, IL_R_CI_KIND), IL_R_BOUNDED))
            snprintf(rel, sizeof rel, "%.4f [%.4f, %.4f]", il_json_num(c, IL_R_RATIO),
                     json_number_value(json_array_get(ci, 0)),
                     json_number_value(json_array_get(ci, 1)));
        else
            snprintf(rel, sizeof rel, "%.4f (no interval)", il_json_num(c, IL_R_RATIO));
        md_cell(f, g ? v : "-");
        md_cell(f, g ? sd : "-");
        md_cell(f, rel);
        fputc('\n', f);
    }
    size_t i;
    json_t *c;
    fputc('\n', f);
    json_array_foreach(json_object_get(rep, IL_R_COMPARISONS), i, c) fprintf(
        f, "- %s\n", il_json_str(c, IL_R_VERDICT) ? il_json_str(c, IL_R_VERDICT) : "no verdict");
    for (size_t k = 0; e->failures && k < s->nsys; k++) {
        struct il_buf b = {0};
        il_failures_words(&b, s->sys[k].name, &e->failures[k]);
        if (b.n)
            fprintf(f, "- %s\n", b.p);
        il_buf_free(&b);
    }
    char lay[64] = "", failed[64] = "";
    if (e->layouts < e->layouts_all)
        snprintf(lay, sizeof lay, IL_LAYOUTS_OVER, e->layouts, e->layouts_all);
    size_t nfailed = il_ending_failed(e, s->nsys);
    if (nfailed) /* not in the numbers: counted apart, as in the summary */
        snprintf(failed, sizeof failed, "%zu failed run%s and ", nfailed, il_s(nfailed));
    fprintf(f,
            "\n%s; %s %s, %zu runs in %zu setups%s (and %s%zu warm-up runs, left out), %.1f s; "
            "seed %u, plan %s, machine %s.\n",
            e->stopped, il_json_str(rep, IL_R_METRIC), il_json_str(rep, IL_R_ESTIMATOR),
            e->runs - nfailed, e->setups, lay, failed, e->warmups, e->seconds, s->d.seed, e->plan,
            il_json_str(e->machine, IL_F_HOST) ? il_json_str(e->machine, IL_F_HOST) : "?");
    close_tmp(f, path, tmp);
}

static void
csv_num(FILE *f, double x)
{
    fputc(',', f);
    if (!isnan(x))
        fprintf(f, "%.17g", x);
}

static void
export_csv(const char *path, const struct il_sweep *s, json_t *rep, const struct il_ending *e)
{
    char *tmp;
    FILE *f = open_tmp(path, &tmp);
    fputs("system,command,metric,unit,estimator,estimate,sd,median,min,max,n,ratio,ci_lo,ci_hi,"
          "verdict,failed,failed_why\n",
          f);
    for (size_t k = 0; k < s->nsys; k++) {
        if (subtracted(s, k))
            continue;
        json_t *g = of_system(rep, IL_R_GROUPS, s->sys[k].name),
               *c = of_system(rep, IL_R_COMPARISONS, s->sys[k].name);
        json_t *ci = json_object_get(c, IL_R_CI);
        int bounded = c && json_array_size(ci) == 2 && il_json_str(c, IL_R_CI_KIND) &&
                      !strcmp(il_json_str(c, IL_R_CI_KIND), IL_R_BOUNDED);
        il_csv_field(f, s->sys[k].name);
        fputc(',', f);
        il_csv_field(f, e->commands && e->commands[k] ? e->commands[k] : "");
        fputc(',', f);
        il_csv_field(f, il_json_str(rep, IL_R_METRIC) ? il_json_str(rep, IL_R_METRIC) : "");
        fputc(',', f);
        il_csv_field(f, il_json_str(rep, IL_R_UNIT) ? il_json_str(rep, IL_R_UNIT) : "");
        fputc(',', f);
        il_csv_field(f, il_json_str(rep, IL_R_ESTIMATOR) ? il_json_str(rep, IL_R_ESTIMATOR) : "");
        csv_num(f, il_json_num(g, IL_R_ESTIMATE));
        csv_num(f, il_json_num(g, IL_R_SD));
        csv_num(f, il_json_num(g, IL_R_MEDIAN));
        csv_num(f, il_json_num(g, IL_R_MIN));
        csv_num(f, il_json_num(g, IL_R_MAX));
        csv_num(f, il_json_num(g, IL_R_N));
        csv_num(f, c ? il_json_num(c, IL_R_RATIO) : 1);
        csv_num(f, bounded ? json_number_value(json_array_get(ci, 0)) : NAN);
        csv_num(f, bounded ? json_number_value(json_array_get(ci, 1)) : NAN);
        fputc(',', f);
        il_csv_field(f, c && il_json_str(c, IL_R_VERDICT) ? il_json_str(c, IL_R_VERDICT) : "");
        /* its measured runs that failed, left out of n (warm-ups apart) */
        const struct il_failures *fk = e->failures ? &e->failures[k] : NULL;
        struct il_buf b = {0};
        if (fk)
            il_failures_words(&b, NULL, fk);
        fprintf(f, ",%zu,", fk ? fk->failed : 0);
        il_csv_field(f, b.n ? b.p : "");
        il_buf_free(&b);
        fputc('\n', f);
    }
    close_tmp(f, path, tmp);
}

void
il_compare_export(const struct il_export *x, const struct il_sweep *s, json_t *rep,
                  const struct il_ending *e)
{
    if (x->json)
        export_json(x->json, s, rep, e);
    if (x->markdown)
        export_markdown(x->markdown, s, rep, e);
    if (x->csv)
        export_csv(x->csv, s, rep, e);
}
