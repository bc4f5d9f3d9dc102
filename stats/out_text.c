/*
 * out_text.c: the report as an aligned table (default), Markdown, CSV (one
 * long table with a "kind" column) and the Go benchmark text format, one
 * line per record, so that benchstat can read it.
 */
#include <err.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

struct tab {
    size_t ncol, n, cap;
    char **cell;
    int right[32];
};

static void
tab_init(struct tab *t, size_t ncol)
{
    memset(t, 0, sizeof *t);
    t->ncol = ncol;
}

static void tab_add(struct tab *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
tab_add(struct tab *t, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->cell = realloc(t->cell, t->cap * sizeof *t->cell);
        if (!t->cell)
            err(1, "out of memory");
    }
    t->cell[t->n] = strdup(buf);
    if (!t->cell[t->n])
        err(1, "out of memory");
    t->n++;
}

/* Display width: UTF-8 continuation bytes take no column. */
static size_t
width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void
tab_print(FILE *fp, struct tab *t, int md, const char *title)
{
    size_t w[32] = {0}, nrow = t->n / t->ncol;
    for (size_t i = 0; i < t->n; i++) {
        size_t l = width(t->cell[i]);
        if (l > w[i % t->ncol])
            w[i % t->ncol] = l;
    }
    fprintf(fp, md ? "\n**%s**\n\n" : "\n%s\n", title);
    for (size_t r = 0; r < nrow; r++) {
        for (size_t c = 0; c < t->ncol; c++) {
            const char *s = t->cell[r * t->ncol + c];
            int pad = (int)(w[c] + strlen(s) - width(s));
            if (md)
                fprintf(fp, "| %s ", s);
            else if (c + 1 == t->ncol && !t->right[c])
                fprintf(fp, "  %s", s);
            else
                fprintf(fp, t->right[c] ? "  %*s" : "  %-*s", pad, s);
        }
        fputs(md ? "|\n" : "\n", fp);
        if (md && r == 0) {
            for (size_t c = 0; c < t->ncol; c++)
                fputs(t->right[c] ? "|---:" : "|---", fp);
            fputs("|\n", fp);
        }
    }
    for (size_t i = 0; i < t->n; i++)
        free(t->cell[i]);
    free(t->cell);
}

/* Six significant digits, without an exponent in the usual range. */
void
il_fmt_num(char *buf, size_t n, double x)
{
    double ax = fabs(x);
    if (isnan(x)) {
        snprintf(buf, n, "nan");
        return;
    }
    if (ax == 0 || ax < 1e-3 || ax >= 1e9 || isinf(x)) {
        snprintf(buf, n, "%.6g", x);
        return;
    }
    int dec = 5 - (int)floor(log10(ax));
    snprintf(buf, n, "%.*f", dec < 0 ? 0 : dec, x);
    if (strchr(buf, '.')) {
        char *e = buf + strlen(buf) - 1;
        while (*e == '0')
            *e-- = '\0';
        if (*e == '.')
            *e = '\0';
    }
}

static const char *
num(char *buf, double x)
{
    il_fmt_num(buf, 32, x);
    return buf;
}

static const char *
interval(char *buf, size_t n, double lo, double hi)
{
    char a[32], b[32];
    if (snprintf(buf, n, "[%s, %s]", num(a, lo), num(b, hi)) >= (int)n)
        buf[n - 1] = '\0';
    return buf;
}

static const char *
fieller_cell(char *buf, size_t n, const struct il_cmp *c)
{
    char a[32], b[32];
    if (c->few)
        snprintf(buf, n, "none (n < 2)");
    else if (c->f.kind == IL_CI_BOUNDED)
        interval(buf, n, c->f.lo, c->f.hi);
    else if (c->f.kind == IL_CI_EXCLUSIVE)
        snprintf(buf, n, "exclusive: <= %s or >= %s", num(a, c->f.lo), num(b, c->f.hi));
    else
        snprintf(buf, n, "unbounded: the whole line");
    return buf;
}

/* Label columns of a group key, skipping position skip. */
static void
key_cells(struct tab *t, const struct il_report *r, const uint32_t *key, size_t skip)
{
    for (size_t i = 0; i < r->gs.nkey; i++)
        if (i != skip)
            tab_add(t, "%s", il_str(&r->d.st, key[i]));
}

static void
key_heads(struct tab *t, const struct il_report *r, size_t skip)
{
    for (size_t i = 0; i < r->gs.nkey; i++)
        if (i != skip)
            tab_add(t, "%s", r->d.slot_name[r->gs.slot[i]]);
}

static size_t
nkeycols(const struct il_report *r, size_t skip)
{
    return r->gs.nkey - (skip < r->gs.nkey);
}

static void
groups_table(FILE *fp, const struct il_report *r, int md)
{
    struct tab t;
    char a[64], c[128];
    size_t k = nkeycols(r, SIZE_MAX), base = k ? k : 1;
    tab_init(&t, base + 8);
    for (size_t i = base; i < base + 7; i++)
        t.right[i] = 1;
    if (!k)
        tab_add(&t, "group");
    key_heads(&t, r, SIZE_MAX);
    const char *h[] = {"n", "mean", "sd", "median", "min", "max", "cv", "95% CI of mean"};
    for (size_t i = 0; i < 8; i++)
        tab_add(&t, "%s", h[i]);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_summary *s = &r->sum[g];
        if (!k)
            tab_add(&t, "all");
        key_cells(&t, r, r->gs.g[g].key, SIZE_MAX);
        tab_add(&t, "%zu", s->n);
        tab_add(&t, "%s", num(a, s->mean));
        tab_add(&t, "%s", s->has_sd ? num(a, s->sd) : "-");
        tab_add(&t, "%s", num(a, s->median));
        tab_add(&t, "%s", num(a, s->min));
        tab_add(&t, "%s", num(a, s->max));
        if (s->has_sd && isfinite(s->cv))
            tab_add(&t, "%.2f%%", 100 * s->cv);
        else
            tab_add(&t, "-");
        tab_add(&t, "%s", s->has_ci ? interval(c, sizeof c, s->lo, s->hi) : "none (n < 2)");
    }
    tab_print(fp, &t, md, "groups");
}

static void
comparisons_table(FILE *fp, const struct il_report *r, int md)
{
    const struct il_opts *o = r->o;
    struct tab t;
    char a[64], c[160], title[256];
    size_t k = nkeycols(r, r->cmp_pos);
    tab_init(&t, k + 5);
    t.right[k + 2] = t.right[k + 4] = 1;
    key_heads(&t, r, r->cmp_pos);
    tab_add(&t, "%s", o->cmp_label);
    tab_add(&t, "baseline");
    tab_add(&t, "ratio");
    tab_add(&t, "%s", "95% CI");
    tab_add(&t, "runs");
    for (size_t i = 0; i < r->ncmp; i++) {
        const struct il_cmp *cm = &r->cmp[i];
        key_cells(&t, r, r->gs.g[cm->g].key, r->cmp_pos);
        tab_add(&t, "%s", il_str(&r->d.st, r->gs.g[cm->g].key[r->cmp_pos]));
        tab_add(&t, "%s", o->cmp_base);
        tab_add(&t, "%s", num(a, cm->f.ratio));
        tab_add(&t, "%s", fieller_cell(c, sizeof c, cm));
        tab_add(&t, "%zu/%zu", r->gs.g[cm->g].n, r->gs.g[cm->base].n);
    }
    snprintf(title, sizeof title,
             "comparisons: ratio of means value/baseline, Fieller interval (%s df)",
             o->pooled ? "pooled" : "Welch");
    tab_print(fp, &t, md, title);
}

static void
setups_table(FILE *fp, const struct il_report *r, int md)
{
    struct tab t;
    char a[64], c[160], title[256];
    size_t k = nkeycols(r, r->cmp_pos);
    tab_init(&t, k + 8);
    for (size_t i = k + 1; i < k + 8; i++)
        t.right[i] = i != k + 5 && i != k + 7;
    key_heads(&t, r, r->cmp_pos);
    const char *h[] = {r->o->cmp_label, "setups",      "min",  "median",
                       "max",           "straddles 1", "mean", "95% CI (t)"};
    for (size_t i = 0; i < 8; i++)
        tab_add(&t, "%s", h[i]);
    for (size_t i = 0; i < r->ncmp; i++) {
        const struct il_cmp *cm = &r->cmp[i];
        const struct il_setups *s = &cm->su;
        if (!cm->has_setups)
            continue;
        key_cells(&t, r, r->gs.g[cm->g].key, r->cmp_pos);
        tab_add(&t, "%s", il_str(&r->d.st, r->gs.g[cm->g].key[r->cmp_pos]));
        tab_add(&t, "%zu", s->n);
        tab_add(&t, "%s", num(a, s->min));
        tab_add(&t, "%s", num(a, s->median));
        tab_add(&t, "%s", num(a, s->max));
        tab_add(&t, "%s", s->straddles ? "yes" : "no");
        tab_add(&t, "%s", num(a, s->mean));
        tab_add(&t, "%s", s->has_ci ? interval(c, sizeof c, s->lo, s->hi) : "none (1 setup)");
    }
    snprintf(title, sizeof title, "per-setup ratios over %s (mean value / mean baseline in each)",
             r->o->setup);
    tab_print(fp, &t, md, title);
}

static void
suite_table(FILE *fp, const struct il_report *r, int md)
{
    struct tab t;
    char a[64], c[160];
    tab_init(&t, 5);
    t.right[2] = t.right[3] = 1;
    tab_add(&t, "%s", r->o->cmp_label);
    tab_add(&t, "baseline");
    tab_add(&t, "benchmarks");
    tab_add(&t, "geomean");
    tab_add(&t, "%s", "95% CI (log space)");
    for (size_t i = 0; i < r->nsuite; i++) {
        const struct il_suite *s = &r->suite[i];
        tab_add(&t, "%s", il_str(&r->d.st, s->value));
        tab_add(&t, "%s", r->o->cmp_base);
        tab_add(&t, "%zu", s->n);
        tab_add(&t, "%s", num(a, s->gm));
        tab_add(&t, "%s", s->has_ci ? interval(c, sizeof c, s->lo, s->hi) : "none (1 benchmark)");
    }
    tab_print(fp, &t, md, "suite: geometric mean of the per-benchmark ratios");
}

static void
levels_table(FILE *fp, const struct il_report *r, int md)
{
    const struct il_levels *lv = &r->lv;
    const struct il_opts *o = r->o;
    struct tab t;
    char a[64], b[64], c[160];
    size_t n = lv->n, nc = r->has_plan ? 7 : 5;
    tab_init(&t, nc);
    for (size_t i = 1; i < nc; i++)
        t.right[i] = 1;
    const char *h[] = {"level", "reps", "S^2", "T^2", "share", "cost (s)", "optimal reps"};
    for (size_t i = 0; i < nc; i++)
        tab_add(&t, "%s", h[i]);
    for (size_t j = 0; j < n; j++) {
        size_t i = n - 1 - j; /* highest first */
        tab_add(&t, "%s", o->levels[j]);
        tab_add(&t, "%zu", lv->r[i]);
        tab_add(&t, "%s", num(a, lv->S2[i]));
        tab_add(&t, "%s", num(a, lv->T2[i]));
        tab_add(&t, "%.1f%%", 100 * lv->share[i]);
        if (!r->has_plan)
            continue;
        tab_add(&t, "%s%s", num(a, r->cost[i]), i == 0 && r->c1_measured ? " (wall)" : "");
        if (i + 1 == n)
            tab_add(&t, "%s", r->has_top ? (snprintf(b, 64, "%ld", r->reps[i]), b) : "-");
        else
            tab_add(&t, "%s", r->reps[i] ? (snprintf(b, 64, "%ld", r->reps[i]), b) : "none");
    }
    tab_print(fp, &t, md, "levels (Kalibera & Jones; highest first; T^2 corrected)");
    fprintf(fp, "%sgrand mean %s, 95%% CI %s (t, %zu - 1 df, from S^2 of '%s')\n", md ? "\n" : "  ",
            num(a, lv->mean), interval(c, sizeof c, lv->lo, lv->hi), lv->r[n - 1], o->levels[0]);
    if (o->tool == IL_TOOL_PLAN && !r->has_plan && n > 1)
        fprintf(fp, "%sgive --costs to optimise the repetitions of the lower levels\n",
                md ? "\n" : "  ");
    if (r->has_top)
        fprintf(fp, "%s%ld repetitions of '%s' reach a 95%% half-width of %g%% of the mean\n",
                md ? "\n" : "  ", r->reps[n - 1], o->levels[0], o->target * 100);
    if (r->has_boot)
        fprintf(fp,
                "%shierarchical bootstrap (%zu replicates, seed %lu): mean %s, sd %s, 95%% "
                "percentile interval %s\n",
                md ? "\n" : "  ", o->boot, o->seed, num(a, r->bmean), num(b, r->bsd),
                interval(c, sizeof c, r->blo, r->bhi));
}

static void
diag_table(FILE *fp, const struct il_report *r, int md)
{
    struct tab t;
    char a[64];
    size_t k = nkeycols(r, SIZE_MAX), base = k ? k : 1;
    tab_init(&t, base + 6);
    for (size_t i = base; i < base + 6; i++)
        t.right[i] = 1;
    if (!k)
        tab_add(&t, "group");
    key_heads(&t, r, SIZE_MAX);
    const char *h[] = {"outliers", "first-run z", "lag-1 ACF", "bound", "Ljung-Box p", "lags"};
    for (size_t i = 0; i < 6; i++)
        tab_add(&t, "%s", h[i]);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_diag *d = &r->diag[g];
        if (!k)
            tab_add(&t, "all");
        key_cells(&t, r, r->gs.g[g].key, SIZE_MAX);
        tab_add(&t, "%s", d->mad_checked ? (snprintf(a, 64, "%zu", d->outliers), a) : "-");
        tab_add(&t, "%s", d->mad_checked ? (snprintf(a, 64, "%.1f", d->first_z), a) : "-");
        tab_add(&t, "%s", d->nacf ? (snprintf(a, 64, "%.3f", d->acf[0]), a) : "-");
        tab_add(&t, "%s", d->nacf ? (snprintf(a, 64, "+-%.3f", d->acf_bound), a) : "-");
        tab_add(&t, "%s", d->has_lb ? (snprintf(a, 64, "%.3g", d->lb_p), a) : "-");
        tab_add(&t, "%s", d->has_lb ? (snprintf(a, 64, "%d", d->lb_lags), a) : "-");
    }
    tab_print(fp, &t, md,
              "diagnostics (MAD rule |z| > 3.5 from n >= 5; ACF and Ljung-Box from n >= 10)");
}

void
il_out_text(FILE *fp, const struct il_report *r, int md)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    const char *unit = il_metric_unit(o->sel.metric, o->sel.kind);
    fprintf(fp, "metric %s%s%s%s%s: %zu records from %zu file%s\n", o->sel.metric,
            o->sel.subtract_floor ? " minus floor" : "", *unit ? " (" : "", unit, *unit ? ")" : "",
            d->n, d->files, d->files == 1 ? "" : "s");
    groups_table(fp, r, md);
    if (r->ncmp)
        comparisons_table(fp, r, md);
    int any = 0;
    for (size_t i = 0; i < r->ncmp; i++)
        any |= r->cmp[i].has_setups;
    if (any)
        setups_table(fp, r, md);
    if (r->nsuite)
        suite_table(fp, r, md);
    if (r->has_levels)
        levels_table(fp, r, md);
    diag_table(fp, r, md);
    if (r->ncmp) {
        fprintf(fp, md ? "\n**verdicts**\n\n" : "\nverdicts\n");
        for (size_t i = 0; i < r->ncmp; i++)
            fprintf(fp, "%s%s\n", md ? "- " : "  ", r->cmp[i].verdict);
        for (size_t i = 0; i < r->nsuite; i++)
            fprintf(fp, "%s%s\n", md ? "- " : "  ", r->suite[i].verdict);
    }
}

static void
csv_str(FILE *fp, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

static void
csv_num(FILE *fp, double x, int ok)
{
    if (ok && isfinite(x))
        fprintf(fp, ",%.12g", x);
    else
        fputc(',', fp);
}

static char *
semi_name(const struct il_report *r, size_t g)
{
    return il_group_name(&r->d, &r->gs, r->gs.g[g].key, ";", SIZE_MAX);
}

void
il_out_csv(FILE *fp, const struct il_report *r)
{
    fputs("kind,labels,baseline,n,n_baseline,estimate,ci_kind,ci_lo,ci_hi,sd,median,min,max,"
          "cv,s2,t2,share\n",
          fp);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_summary *s = &r->sum[g];
        char *name = semi_name(r, g);
        fputs("group,", fp);
        csv_str(fp, name);
        fprintf(fp, ",,%zu,", s->n);
        csv_num(fp, s->mean, 1);
        fprintf(fp, ",%s", s->has_ci ? "t" : "none");
        csv_num(fp, s->lo, s->has_ci);
        csv_num(fp, s->hi, s->has_ci);
        csv_num(fp, s->sd, s->has_sd);
        csv_num(fp, s->median, 1);
        csv_num(fp, s->min, 1);
        csv_num(fp, s->max, 1);
        csv_num(fp, s->cv, s->has_sd);
        fputs(",,,\n", fp);
        free(name);
    }
    static const char *const kinds[] = {"bounded", "exclusive", "unbounded"};
    for (size_t i = 0; i < r->ncmp; i++) {
        const struct il_cmp *c = &r->cmp[i];
        char *a = semi_name(r, c->g), *b = semi_name(r, c->base);
        fputs("comparison,", fp);
        csv_str(fp, a);
        fputc(',', fp);
        csv_str(fp, b);
        fprintf(fp, ",%zu,%zu", r->gs.g[c->g].n, r->gs.g[c->base].n);
        csv_num(fp, c->f.ratio, 1);
        fprintf(fp, ",%s", c->few ? "none" : kinds[c->f.kind]);
        /* Never an [lo, hi] pair unless it is an interval. */
        int ok = !c->few && c->f.kind == IL_CI_BOUNDED;
        csv_num(fp, c->f.lo, ok);
        csv_num(fp, c->f.hi, ok);
        fputs(",,,,,,,,\n", fp);
        if (c->has_setups) {
            const struct il_setups *s = &c->su;
            fputs("setups,", fp);
            csv_str(fp, a);
            fputc(',', fp);
            csv_str(fp, b);
            fprintf(fp, ",%zu,", s->n);
            csv_num(fp, s->mean, 1);
            fprintf(fp, ",%s", s->has_ci ? "t" : "none");
            csv_num(fp, s->lo, s->has_ci);
            csv_num(fp, s->hi, s->has_ci);
            fputc(',', fp);
            csv_num(fp, s->median, 1);
            csv_num(fp, s->min, 1);
            csv_num(fp, s->max, 1);
            fputs(",,,,\n", fp);
        }
        free(a);
        free(b);
    }
    for (size_t i = 0; i < r->nsuite; i++) {
        const struct il_suite *s = &r->suite[i];
        fprintf(fp, "suite,");
        fprintf(fp, "%s=", r->o->cmp_label);
        csv_str(fp, il_str(&r->d.st, s->value));
        fprintf(fp, ",%s=", r->o->cmp_label);
        csv_str(fp, r->o->cmp_base);
        fprintf(fp, ",%zu,", s->n);
        csv_num(fp, s->gm, 1);
        fprintf(fp, ",%s", s->has_ci ? "log-t" : "none");
        csv_num(fp, s->lo, s->has_ci);
        csv_num(fp, s->hi, s->has_ci);
        fputs(",,,,,,,,\n", fp);
    }
    if (r->has_levels) {
        const struct il_levels *lv = &r->lv;
        for (size_t j = 0; j < lv->n; j++) {
            size_t i = lv->n - 1 - j;
            fputs("level,", fp);
            csv_str(fp, r->o->levels[j]);
            fprintf(fp, ",,%zu,,,,,,,,,,", lv->r[i]);
            csv_num(fp, lv->S2[i], 1);
            csv_num(fp, lv->T2[i], 1);
            csv_num(fp, lv->share[i], 1);
            fputc('\n', fp);
        }
    }
}

void
il_out_gobench(FILE *fp, const struct il_report *r)
{
    const struct il_opts *o = r->o;
    const char *unit;
    char ubuf[256];
    switch (o->sel.kind) {
    case IL_M_WALL:
        unit = "ns/op";
        break;
    case IL_M_USER:
        unit = "user-ns/op";
        break;
    case IL_M_SYS:
        unit = "sys-ns/op";
        break;
    case IL_M_MAXRSS:
        unit = "maxrss-KiB/op";
        break;
    default:
        snprintf(ubuf, sizeof ubuf, "%s/op", o->sel.metric);
        for (char *p = ubuf; *p; p++)
            if (*p == ' ' || *p == '\t')
                *p = '_';
        unit = ubuf;
        break;
    }
    fputs("pkg: interloper\n", fp);
    for (size_t g = 0; g < r->gs.ng; g++) {
        char *name = il_group_name(&r->d, &r->gs, r->gs.g[g].key, "/", SIZE_MAX);
        for (char *p = name; *p; p++)
            if (*p == ' ' || *p == '\t' || *p == '\n')
                *p = '_';
        for (size_t i = 0; i < r->gs.g[g].n; i++) {
            /* The shortest text that reads back as the same double. */
            char v[32];
            double x = r->gs.g[g].x[i];
            snprintf(v, sizeof v, "%.15g", x);
            if (strtod(v, NULL) != x)
                snprintf(v, sizeof v, "%.17g", x);
            fprintf(fp, "BenchmarkInterloper/%s 1 %s %s\n", name, v, unit);
        }
        free(name);
    }
}
