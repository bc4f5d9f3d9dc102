/*
 * out_text.c: the report as an aligned table (default) or Markdown: the
 * groups, the comparisons with a line saying what their interval assumes,
 * the per-setup view, suites, levels, diagnostics and the verdicts.
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
            if (md) {
                /* A '|' in a label value would end the cell. */
                fputs("| ", fp);
                for (const char *q = s; *q; q++) {
                    if (*q == '|')
                        fputc('\\', fp);
                    fputc(*q, fp);
                }
                fputc(' ', fp);
            } else if (c + 1 == t->ncol && !t->right[c])
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

void
il_fmt_exact(char *buf, size_t n, double x)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return;
    }
}

/* Six significant digits, or as many more as keep lo, est and hi apart
 * (a ratio interval of width 1e-9 must not print as [1, 1]). */
void
il_fmt_interval(char *buf, size_t n, double lo, double est, double hi)
{
    char a[40], b[40], e[40];
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(a, sizeof a, "%.*g", prec, lo);
        snprintf(b, sizeof b, "%.*g", prec, hi);
        snprintf(e, sizeof e, "%.*g", prec, est);
        if (prec == 6) {
            il_fmt_num(a, sizeof a, lo);
            il_fmt_num(b, sizeof b, hi);
            il_fmt_num(e, sizeof e, est);
        }
        if ((strcmp(a, e) != 0 || lo == est) && (strcmp(b, e) != 0 || hi == est) &&
            (strcmp(a, b) != 0 || lo == hi))
            break;
    }
    if (snprintf(buf, n, "[%s, %s]", a, b) >= (int)n)
        buf[n - 1] = '\0';
}

static const char *
num(char *buf, double x)
{
    il_fmt_num(buf, 32, x);
    return buf;
}

/* A ratio next to its interval: as many digits as the interval needs. */
static const char *
num_like(char *buf, double x, double lo, double hi)
{
    char a[40], b[40], e[40];
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(a, sizeof a, "%.*g", prec, lo);
        snprintf(b, sizeof b, "%.*g", prec, hi);
        snprintf(e, sizeof e, "%.*g", prec, x);
        if (prec == 6)
            il_fmt_num(e, sizeof e, x);
        if (!isfinite(lo) || ((strcmp(a, e) != 0 || lo == x) && (strcmp(b, e) != 0 || hi == x)))
            break;
    }
    snprintf(buf, 40, "%s", e);
    return buf;
}

static const char *
interval(char *buf, size_t n, double lo, double hi)
{
    il_fmt_interval(buf, n, lo, (lo + hi) / 2, hi);
    return buf;
}

static const char *
fieller_cell(char *buf, size_t n, const struct il_cmp *c)
{
    char a[40], b[40];
    if (c->few)
        snprintf(buf, n, "none");
    else if (c->f.kind == IL_CI_BOUNDED)
        il_fmt_interval(buf, n, c->f.lo, c->f.ratio, c->f.hi);
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
    const struct il_opts *o = r->o;
    struct tab t;
    char a[64], c[128], h9[128];
    int est = o->est.kind != IL_EST_MEAN;
    size_t k = nkeycols(r, SIZE_MAX), base = k ? k : 1, nc = 8 + (size_t)est;
    tab_init(&t, base + nc);
    for (size_t i = base; i < base + nc - 1; i++)
        t.right[i] = 1;
    if (!k)
        tab_add(&t, "group");
    key_heads(&t, r, SIZE_MAX);
    const char *h[] = {"n", "mean", "sd", "median", "min", "max", "cv"};
    for (size_t i = 0; i < 7; i++)
        tab_add(&t, "%s", h[i]);
    if (est)
        tab_add(&t, "%s", o->est.name);
    if (o->design == IL_D_FLAT)
        snprintf(h9, sizeof h9, "95%% CI of %s", o->est.name);
    else
        snprintf(h9, sizeof h9, "95%% CI of %s (over %s%s%s)", o->est.name, o->d_label[0],
                 o->design == IL_D_CROSSED ? " x " : "",
                 o->design == IL_D_CROSSED ? o->d_label[1] : "");
    tab_add(&t, "%s", h9);
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
        if (est)
            tab_add(&t, "%s", num(a, s->est));
        if (s->has_est_ci)
            tab_add(&t, "%s", (il_fmt_interval(c, sizeof c, s->est_lo, s->est, s->est_hi), c));
        else
            tab_add(&t, "%s", o->est.kind == IL_EST_MIN ? "none (minimum)" : "none");
    }
    tab_print(fp, &t, md, "groups");
}

/* What the headline interval assumes, in one line under the table. */
static void
assumption(FILE *fp, const struct il_report *r, int md)
{
    const struct il_opts *o = r->o;
    const char *pre = md ? "\n" : "  ";
    if (o->est.kind == IL_EST_MIN) {
        fprintf(fp, "%sno interval: the minimum has none that holds its level\n", pre);
    } else if (o->design == IL_D_FLAT && o->est.kind != IL_EST_MEAN) {
        fprintf(fp,
                "%sinterval: percentile bootstrap, runs resampled within each side; it "
                "assumes every run is independent of the others\n",
                pre);
    } else if (o->design == IL_D_FLAT) {
        fprintf(fp,
                "%sinterval: %s; it assumes every run is independent of the others "
                "(name the setups with --setup to pair the runs by setup)\n",
                pre,
                o->pooled ? "Fieller with one pooled variance (n1 + n2 - 2 df)"
                          : "Fieller with Welch's df at the estimated ratio");
    } else if (o->design == IL_D_CROSSED) {
        fprintf(fp,
                "%sinterval: Fieller over the %s of each setup, paired by setup, with %s and "
                "%s as crossed random factors (Satterthwaite df); it assumes the values of "
                "each stand for a larger set drawn at random\n",
                pre, o->est.name, o->d_label[0], o->d_label[1]);
    } else {
        fprintf(fp,
                "%sinterval: Fieller over the %s of each setup (%s), paired by setup "
                "(setups - 1 df); it assumes the setups are independent draws from the "
                "setups they stand for\n",
                pre, o->est.name, o->d_label[0]);
        /* a comparison whose sides share no setup is not paired; with
         * --by, named with its group as its verdict is (outside12 F2) */
        for (size_t i = 0; i < r->ncmp; i++) {
            const struct il_cmp *c = &r->cmp[i];
            int all = strcmp(c->unit, "all") == 0;
            if (c->paired == 0 && !c->few)
                fprintf(fp,
                        "%sinterval of %s%s%s%s: no setup was measured on both sides, so the "
                        "setups of the two sides are compared unpaired, by their %s (Fieller, "
                        "Welch df)\n",
                        pre, il_str(&r->d.st, r->gs.g[c->g].key[r->cmp_pos]), all ? "" : " (",
                        all ? "" : c->unit, all ? "" : ")", o->est.name);
        }
    }
}

static void
comparisons_table(FILE *fp, const struct il_report *r, int md)
{
    const struct il_opts *o = r->o;
    struct tab t;
    char a[64], c[160], title[256];
    size_t k = nkeycols(r, r->cmp_pos), des = o->design != IL_D_FLAT;
    tab_init(&t, k + 5 + des);
    t.right[k + 2] = t.right[k + 4] = 1;
    if (des)
        t.right[k + 5] = 1;
    key_heads(&t, r, r->cmp_pos);
    tab_add(&t, "%s", o->cmp_label);
    tab_add(&t, "baseline");
    tab_add(&t, "%s", o->speedup ? "speedup" : "ratio");
    tab_add(&t, "%s", "95% CI");
    tab_add(&t, "runs");
    if (des)
        tab_add(&t, "setups");
    for (size_t i = 0; i < r->ncmp; i++) {
        const struct il_cmp *cm = &r->cmp[i];
        key_cells(&t, r, r->gs.g[cm->g].key, r->cmp_pos);
        tab_add(&t, "%s", il_str(&r->d.st, r->gs.g[cm->g].key[r->cmp_pos]));
        tab_add(&t, "%s", o->cmp_base);
        tab_add(&t, "%s",
                !cm->few && cm->f.kind == IL_CI_BOUNDED
                    ? num_like(a, cm->f.ratio, cm->f.lo, cm->f.hi)
                    : num(a, cm->f.ratio));
        tab_add(&t, "%s", fieller_cell(c, sizeof c, cm));
        tab_add(&t, "%zu/%zu", r->gs.g[cm->g].n, r->gs.g[cm->base].n);
        if (des)
            tab_add(&t, "%zu", cm->paired);
    }
    snprintf(title, sizeof title, "comparisons: %s of %s%s, %s", o->speedup ? "speedup" : "ratio",
             o->est.kind == IL_EST_MEAN     ? "means"
             : o->est.kind == IL_EST_MEDIAN ? "medians"
             : o->est.kind == IL_EST_MIN    ? "minima"
                                            : o->est.name,
             o->est.kind == IL_EST_Q ? "s" : "", o->speedup ? "baseline/value" : "value/baseline");
    tab_print(fp, &t, md, title);
    assumption(fp, r, md);
}

static void
setups_table(FILE *fp, const struct il_report *r, int md)
{
    const struct il_opts *o = r->o;
    struct tab t;
    char a[64], c[160], title[256];
    size_t k = nkeycols(r, r->cmp_pos);
    tab_init(&t, k + 10);
    for (size_t i = k + 1; i < k + 10; i++)
        t.right[i] = i != k + 6 && i != k + 8;
    key_heads(&t, r, r->cmp_pos);
    const char *h[] = {o->cmp_label,   "setups",     "min",     "median",         "max",
                       "beyond noise", "either way", "geomean", "95% CI (log t)", "arith. mean"};
    for (size_t i = 0; i < 10; i++)
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
        if (s->has_het)
            tab_add(&t, "%s (p %.2g)", s->het.p < 0.05 ? "yes" : "no", s->het.p);
        else
            tab_add(&t, "%s", s->het_why ? "untested" : "-");
        tab_add(&t, "%s", s->straddles ? "yes" : s->straddle_tested ? "no" : "untested");
        tab_add(&t, "%s", num(a, s->gm));
        tab_add(&t, "%s",
                s->has_gm_ci ? (il_fmt_interval(c, sizeof c, s->gm_lo, s->gm, s->gm_hi), c)
                             : "none");
        tab_add(&t, "%s", num(a, s->mean));
    }
    snprintf(title, sizeof title, "per-setup ratios over %s%s%s (%s in each setup)", o->d_label[0],
             o->design == IL_D_CROSSED ? " x " : "", o->design == IL_D_CROSSED ? o->d_label[1] : "",
             o->est.name);
    tab_print(fp, &t, md, title);
    const char *pre = md ? "\n" : "  ";
    /* how the test exchanged runs: one sentence when every comparison's
     * did alike, else one per comparison below */
    size_t nblk = 0, nhet = 0;
    for (size_t i = 0; i < r->ncmp; i++) {
        nhet += r->cmp[i].has_setups && r->cmp[i].su.has_het;
        nblk += r->cmp[i].has_setups && r->cmp[i].su.has_het && r->cmp[i].su.exch_blocks;
    }
    char ex[512] = "";
    for (size_t i = 0; i < r->ncmp && (nblk == 0 || nblk == nhet); i++)
        if (r->cmp[i].has_setups && r->cmp[i].su.has_het) {
            il_exch_cmp_text(o, &r->cmp[i].su, ex, sizeof ex);
            break;
        }
    fprintf(fp,
            "%sbeyond noise: do the per-setup ratios differ more than run-to-run noise "
            "explains (%s; its p-value with %s); either way: that test says yes and, with "
            "intervals adjusted for the number of setups (Bonferroni), some setups lie wholly "
            "above 1 and others wholly below\n",
            pre,
            nblk && o->est.kind == IL_EST_MEAN
                ? "the analysis of variance of the setups' signed ranks of their within-block "
                  "contrasts (log ratios of the two sides' runs in one block, less their median)"
            : nblk ? "the spread of the setups' median within-block contrasts (log ratios of the "
                     "two sides' runs in one block)"
            : o->est.kind == IL_EST_MEAN ? "Cochran's Q against pooled within-setup variances"
                                         : "the spread of the per-setup ratios",
            *ex ? ex : "the exchanges named below");
    for (size_t i = 0; i < r->ncmp; i++) {
        const struct il_setups *s = &r->cmp[i].su;
        if (!r->cmp[i].has_setups)
            continue;
        if (!*ex && s->has_het) {
            char e2[512];
            il_exch_cmp_text(o, s, e2, sizeof e2);
            fprintf(fp, "%s%s: beyond noise with %s\n", pre, r->gname[r->cmp[i].g], e2);
        }
        if (!s->has_het && s->het_why)
            fprintf(fp, "%s%s: beyond noise could not be tested: %s\n", pre, r->gname[r->cmp[i].g],
                    s->het_why);
        if (s->has_het && s->exch_blocks && s->block_left_out)
            fprintf(fp,
                    "%s%s: %zu runs had no run of the other side in their (setup, pass) block: "
                    "the test left them out\n",
                    pre, r->gname[r->cmp[i].g], s->block_left_out);
        if (s->has_het && s->het.has_tau_ci && s->het.p < 0.05)
            fprintf(fp,
                    "%s%s: setup standard deviation of the log ratio %.3g, 95%% CI [%.3g, %.3g]\n",
                    pre, r->gname[r->cmp[i].g], sqrt(s->het.tau2), sqrt(s->het.tau2_lo),
                    sqrt(s->het.tau2_hi));
        else if (s->has_het && s->het.p < 0.05 && s->tau_ci_why)
            fprintf(fp, "%s%s: no interval of the setup standard deviation: %s\n", pre,
                    r->gname[r->cmp[i].g], s->tau_ci_why);
        if (s->has_shares)
            fprintf(fp,
                    "%s%s: variance of the per-setup log ratio: %s %.0f%%, %s %.0f%%, residual "
                    "(their interaction and run noise) %.0f%%\n",
                    pre, r->gname[r->cmp[i].g], o->d_label[0], 100 * s->share[0], o->d_label[1],
                    100 * s->share[1], 100 * s->share[2]);
        if (s->above || s->below) {
            char buf[1024];
            size_t m = 0;
            for (int side = 0; side < 2; side++) {
                size_t shown = 0, cnt = side ? s->below : s->above;
                if (!cnt)
                    continue;
                m += (size_t)snprintf(buf + m, sizeof buf - m, "%s%s: ", m ? "; " : "",
                                      side ? "wholly below 1" : "wholly above 1");
                for (size_t u = 0; u < s->n && m < sizeof buf; u++) {
                    int hit = side ? s->ahi[u] < 1 : s->alo[u] > 1;
                    if (!hit)
                        continue;
                    if (shown++ == 8) {
                        m += (size_t)snprintf(buf + m, sizeof buf - m, ", ...");
                        break;
                    }
                    m += (size_t)snprintf(buf + m, sizeof buf - m, "%s%s", shown > 1 ? ", " : "",
                                          il_str(&r->d.st, s->setup[u]));
                }
            }
            fprintf(fp, "%s%s: setups with adjusted intervals %s\n", pre, r->gname[r->cmp[i].g],
                    buf);
        }
        if (*s->straddle_why)
            fprintf(fp, "%s%s: either way %s%s\n", pre, r->gname[r->cmp[i].g],
                    s->straddle_tested ? "was " : "could not be tested: ", s->straddle_why);
        size_t none = 0;
        for (size_t u = 0; u < s->n; u++)
            none += !isfinite(s->alo[u]);
        if (none && (o->est.kind == IL_EST_MEDIAN || o->est.kind == IL_EST_Q)) {
            char why[160];
            il_boot_few_why(&o->est, s->adj, why, sizeof why);
            fprintf(fp,
                    "%s%s: %zu of %zu setups have no adjusted interval (%s); they count "
                    "neither above nor below 1\n",
                    pre, r->gname[r->cmp[i].g], none, s->n, why);
        }
    }
}

/* A percentage with two significant digits at least ("0.052%", "5.2%",
 * "18.0%", "99.8%": never 100% unless it is). */
static const char *
pct(char *buf, size_t n, double x)
{
    double a = fabs(100 * x);
    snprintf(buf, n, "%.*f%%", a == 0 || a == 100 ? 0 : a >= 1 ? 1 : a >= 0.1 ? 2 : 3, 100 * x);
    return buf;
}

/* Each group's setup effect (setupfx.c), and the ratios of the compared
 * groups' setup variances. */
static void
group_setups_table(FILE *fp, const struct il_report *r, int md)
{
    const struct il_opts *o = r->o;
    struct tab t;
    char a[64], b[64], c[160], title[256];
    size_t k = nkeycols(r, SIZE_MAX), base = k ? k : 1;
    tab_init(&t, base + 5);
    for (size_t i = base; i < base + 4; i++)
        t.right[i] = 1;
    if (!k)
        tab_add(&t, "group");
    key_heads(&t, r, SIZE_MAX);
    const char *h[] = {"setups", "tau", "95% CI", "beyond noise", "setups that stand out"};
    for (size_t i = 0; i < 5; i++)
        tab_add(&t, "%s", h[i]);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_gsetups *s = &r->gsu[g];
        if (!k)
            tab_add(&t, "all");
        key_cells(&t, r, r->gs.g[g].key, SIZE_MAX);
        tab_add(&t, "%zu", s->k);
        tab_add(&t, "%s", s->has_tau ? pct(a, sizeof a, sqrt(s->het.tau2)) : "-");
        if (s->has_tau && s->het.has_tau_ci)
            snprintf(c, sizeof c, "[%s, %s]", pct(a, sizeof a, sqrt(s->het.tau2_lo)),
                     pct(b, sizeof b, sqrt(s->het.tau2_hi)));
        else
            snprintf(c, sizeof c, "-");
        tab_add(&t, "%s", c);
        if (s->has_test)
            tab_add(&t, "%s (p %.2g)", s->p < 0.05 ? "yes" : "no", s->p);
        else
            tab_add(&t, "%s", s->why && s->k >= 2 ? "untested" : "-");
        char list[512];
        size_t m = 0, shown = 0;
        list[0] = '\0';
        for (size_t u = 0; u < s->k && m < sizeof list; u++) {
            if (!s->out || !s->out[u])
                continue;
            if (shown++ == 4) {
                m += (size_t)snprintf(list + m, sizeof list - m, ", ... (%zu)", s->nout);
                break;
            }
            m += (size_t)snprintf(list + m, sizeof list - m, "%s%s %+.1f%%", shown > 1 ? ", " : "",
                                  il_str(&r->d.st, s->setup[u]), 100 * (s->est[u] / s->center - 1));
        }
        tab_add(&t, "%s", shown ? list : !s->has_test ? (s->k >= 2 ? "untested" : "-") : "none");
    }
    snprintf(title, sizeof title,
             "setup effects: how much each group's %s differs between setups (%s%s%s)", o->est.name,
             o->d_label[0], o->design == IL_D_CROSSED ? " x " : "",
             o->design == IL_D_CROSSED ? o->d_label[1] : "");
    tab_print(fp, &t, md, title);
    const char *pre = md ? "\n" : "  ";
    size_t nblk = 0, ntest = 0, ncal = 0, gfirst = SIZE_MAX;
    for (size_t g = 0; g < r->gs.ng; g++) {
        ntest += r->gsu[g].has_test;
        nblk += r->gsu[g].has_test && r->gsu[g].blocked;
        ncal += r->gsu[g].calibrated;
        if (r->gsu[g].has_test && gfirst == SIZE_MAX)
            gfirst = g;
    }
    char ex[512] = "";
    if (gfirst != SIZE_MAX && (nblk == 0 || nblk == ntest))
        il_exch_group_text(o, &r->gsu[gfirst], ex, sizeof ex);
    fprintf(fp,
            "%stau: the standard deviation of the setups' log %s beyond run-to-run noise (about "
            "a relative one; Paule-Mandel, Q-profile interval%s%s%s); beyond noise: %s; stand "
            "out: %s further from the median setup's (the difference shown) than the largest "
            "deviation that exchanged runs give in 95%% of exchanges\n",
            pre, o->est.name, ncal ? " at the shuffles' points of Q" : "",
            o->design == IL_D_CROSSED ? "; none for crossed labels, whose setups share effects"
                                      : "",
            o->est.kind == IL_EST_MEAN ? "" : "; a quantile's needs 10 runs in a setup",
            *ex ? ex
                : "runs exchanged across setups within each pass where the records have "
                  "passes, else freely",
            o->est.name);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_gsetups *s = &r->gsu[g];
        if (s->has_test && s->left_out) {
            char names[256];
            size_t m = 0, shown = 0;
            names[0] = '\0';
            for (size_t u = 0; u < s->k && m < sizeof names; u++) {
                if (s->n[u] >= 2)
                    continue;
                if (shown++ == 4) {
                    m += (size_t)snprintf(names + m, sizeof names - m, ", ...");
                    break;
                }
                m += (size_t)snprintf(names + m, sizeof names - m, "%s%s", shown > 1 ? ", " : "",
                                      il_str(&r->d.st, s->setup[u]));
            }
            fprintf(fp,
                    "%s%s: %zu of %zu setups have one run: the test and the stand-out list left "
                    "them out (%s)\n",
                    pre, r->gname[g], s->left_out, s->k, names);
        } else if (!s->has_test && s->why && s->k >= 2)
            fprintf(fp, "%s%s: whether its setups differ could not be tested%s: %s\n", pre,
                    r->gname[g], s->tau_ci_why == s->why ? ", nor tau's interval given" : "",
                    s->why);
        if (s->has_tau && s->tau_left_out && s->tau_left_out != s->left_out)
            fprintf(fp, "%s%s: tau from %zu of %zu setups (%s needs %s runs in a setup)\n", pre,
                    r->gname[g], s->k - s->tau_left_out, s->k, o->est.name,
                    o->est.kind == IL_EST_MEAN ? "2" : "10");
        else if (!s->has_tau && s->tau_why && s->has_test)
            fprintf(fp, "%s%s: no tau: %s\n", pre, r->gname[g], s->tau_why);
    }
    for (size_t i = 0; i < r->ncmp; i++) {
        const struct il_cmp *cm = &r->cmp[i];
        if (!cm->has_svr)
            continue;
        const char *val = il_str(&r->d.st, r->gs.g[cm->g].key[r->cmp_pos]);
        char what[512];
        if (strcmp(cm->unit, "all") == 0)
            snprintf(what, sizeof what, "%s vs %s", val, o->cmp_base);
        else
            snprintf(what, sizeof what, "%s vs %s (%s)", val, o->cmp_base, cm->unit);
        if (isfinite(cm->svr_hi))
            snprintf(c, sizeof c, "[%.3g, %.3g]", cm->svr_lo, cm->svr_hi);
        else
            snprintf(c, sizeof c, "[%.3g, unbounded)", cm->svr_lo);
        char change[256] = "", e[32], f[32];
        /* Said from the interval's bound: a value tau^2 of 0 is the
         * estimate cut off at 0, not a measured fall of 100%. */
        if (cm->svr_hi < 1 && cm->svr > 0)
            snprintf(change, sizeof change, ": it fell by at least %s (estimate %s)",
                     pct(f, sizeof f, 1 - cm->svr_hi), pct(e, sizeof e, 1 - cm->svr));
        else if (cm->svr_hi < 1 && cm->svr == 0)
            snprintf(change, sizeof change,
                     ": it fell by at least %s (the %s's tau^2 of 0 is the estimate cut off at 0, "
                     "not a fall of 100%%)",
                     pct(f, sizeof f, 1 - cm->svr_hi), o->speedup ? "baseline" : "value");
        else if (cm->svr_lo > 1)
            snprintf(change, sizeof change, ": it rose, %s-fold at least", num(e, cm->svr_lo));
        else
            snprintf(change, sizeof change, ": no change can be claimed");
        fprintf(fp, "%s%s: setup variance (tau^2) %s/%s %s, 95%% CI %s%s\n", pre, what,
                o->speedup ? "baseline" : "value", o->speedup ? "value" : "baseline",
                isfinite(cm->svr) ? num(b, cm->svr) : "undefined (none in the denominator)", c,
                change);
    }
}

static void
suite_table(FILE *fp, const struct il_report *r, int md)
{
    struct tab t;
    char a[64], c[160];
    tab_init(&t, 6);
    t.right[2] = t.right[3] = 1;
    tab_add(&t, "%s", r->o->cmp_label);
    tab_add(&t, "baseline");
    tab_add(&t, "benchmarks");
    tab_add(&t, "geomean");
    tab_add(&t, "%s", "95% CI (these benchmarks)");
    tab_add(&t, "%s", "95% CI (benchmarks like these)");
    for (size_t i = 0; i < r->nsuite; i++) {
        const struct il_suite *s = &r->suite[i];
        tab_add(&t, "%s", il_str(&r->d.st, s->value));
        tab_add(&t, "%s", r->o->cmp_base);
        tab_add(&t, "%zu", s->n);
        tab_add(&t, "%s", num(a, s->gm));
        tab_add(&t, "%s",
                s->has_ci ? (il_fmt_interval(c, sizeof c, s->lo, s->gm, s->hi), c) : "none");
        tab_add(&t, "%s",
                s->has_bci ? (il_fmt_interval(c, sizeof c, s->blo, s->gm, s->bhi), c)
                           : "none (1 benchmark)");
    }
    tab_print(fp, &t, md, "suite: geometric mean of the per-benchmark ratios");
    /* every suite's benchmarks share their setups (suiteshare.c): the
     * intervals over independent benchmarks are not the ones shown */
    int all_shared = r->nsuite > 0;
    for (size_t i = 0; i < r->nsuite; i++)
        all_shared &= r->suite[i].shared == 1;
    fprintf(fp, "%s%s%s\n", md ? "\n" : "  ",
            all_shared ? "these benchmarks and benchmarks like these: with the setups the "
                         "benchmarks share as the unit (below)"
                       : "these benchmarks: from each ratio's own uncertainty; benchmarks like "
                         "these: from their spread (t in log space, benchmarks - 1 df)",
            r->nsuite && r->suite[0].n > 1
                ? "; the per-benchmark verdicts are adjusted for their number (Holm)"
                : "");
    for (size_t i = 0; i < r->nsuite; i++) {
        const struct il_suite *s = &r->suite[i];
        char lab[160], c2[160];
        if (!s->shared)
            continue;
        /* setups shared by the benchmarks (suiteshare.c) */
        il_shared_what(lab, sizeof lab, r->o);
        fprintf(fp, "%s%s vs %s: ", md ? "- " : "  ", il_str(&r->d.st, s->value), r->o->cmp_base);
        if (s->shared == 2) {
            fprintf(fp,
                    "%zu setups (%s) are shared by some of the benchmarks, %s: the intervals "
                    "take the benchmarks as independent and may be too narrow\n",
                    s->sh_k, lab, s->sh_why);
            continue;
        }
        fprintf(fp,
                "the %zu benchmarks share their %zu setups (%s), so both intervals take the "
                "setups as the unit: these benchmarks, t over the setups' mean log ratio (%.3g "
                "df); like these, with the benchmarks' spread added (%.3g df); taking the "
                "benchmarks as independent they would be %s and %s\n",
                s->n, s->sh_k, lab, s->sh_df, s->sh_bdf,
                s->ind_has_ci ? (il_fmt_interval(c, sizeof c, s->ind_lo, s->gm, s->ind_hi), c)
                              : "none",
                s->ind_has_bci
                    ? (il_fmt_interval(c2, sizeof c2, s->ind_blo, s->gm, s->ind_bhi), c2)
                    : "none");
    }
    for (size_t i = 0; i < r->nsuite; i++) {
        const struct il_suite *s = &r->suite[i];
        if (!s->has_passes || !s->npass_ratio)
            continue;
        /* the harness's passes (suitepass.c): the interval to read */
        fprintf(fp, "%s%s vs %s ran in passes (%zu and %zu; %zu benchmarks in every one): ",
                md ? "- " : "  ", il_str(&r->d.st, s->value), r->o->cmp_base, s->pass_a,
                s->pass_b, s->pass_m);
        fputs("ratio per pass", fp);
        for (size_t j = 0; j < s->npass_ratio; j++)
            fprintf(fp, "%s%s", j ? ", " : " ", num(a, s->pass_ratio[j]));
        if (s->has_pass_ci)
            fprintf(fp, "; over the passes %s %s (Welch's t, %.3g df)", num(a, s->pass_gm),
                    (il_fmt_interval(c, sizeof c, s->pass_lo, s->pass_gm, s->pass_hi), c),
                    s->pass_df);
        if (s->has_pass_f)
            fprintf(fp, "; shift between passes: F = %.3g, p = %.2g", s->pass_f, s->pass_p);
        fputs("; the intervals over benchmarks take a pass's benchmarks as independent\n", fp);
    }
}

/* The top level's T^2 <= 0 left no lower count optimal: say so and what
 * initial experiment would estimate it. */
static void
no_estimate(FILE *fp, const struct il_report *r, const char *lead)
{
    const struct il_opts *o = r->o;
    size_t n = o->nlevels;
    char a[64], b[64];
    fprintf(fp,
            "%sthe initial experiment cannot estimate the variance that '%s' adds (T^2 = %s "
            "<= 0), so no count of '%s' is optimal;\n",
            lead, o->levels[0], num(a, r->lv.T2[n - 1]), o->levels[1]);
    const char *what = o->target > 0 ? "the target half-width" : "the sd of one's mean here";
    if (r->as.pilot_need)
        fprintf(fp,
                "%s  one with %ld repetitions of '%s' (of %zu '%s' each) would show a '%s' sd "
                "of %s (%s) with probability %g%%%s\n",
                lead, r->as.pilot_need, o->levels[0], r->lv.r[n - 2], o->levels[1], o->levels[0],
                num(b, r->as.pilot_sd), what, IL_PILOT_CONF * 100,
                o->target > 0 ? "; until then --target has no count" : "");
    else
        fprintf(fp,
                "%s  not even 1000000 repetitions of '%s' (of %zu '%s' each) would show a '%s' "
                "sd of %s (%s): repeat '%s' more%s\n",
                lead, o->levels[0], r->lv.r[n - 2], o->levels[1], o->levels[0],
                num(b, r->as.pilot_sd), what, o->levels[1],
                o->target > 0 ? "; until then --target has no count" : "");
}

/* The top count for --target and the probability that it reaches it. */
static void
assurance(FILE *fp, const struct il_report *r, const char *lead)
{
    const struct il_opts *o = r->o;
    const struct il_assure *a = &r->as;
    size_t n = o->nlevels;
    char lower[256] = "";
    if (a->initial && n > 1) {
        size_t k = (size_t)snprintf(lower, sizeof lower, "with ");
        for (size_t j = 1; j < n && k < sizeof lower; j++)
            k += (size_t)snprintf(lower + k, sizeof lower - k, "%s%ld '%s' per '%s'",
                                  j > 1 ? ", " : "", a->design[n - 1 - j], o->levels[j],
                                  o->levels[j - 1]);
        if (k < sizeof lower)
            snprintf(lower + k, sizeof lower - k, " as in the initial experiment, ");
    }
    if (o->assurance > 0)
        fprintf(fp,
                "%s%s%ld repetitions of '%s' reach a 95%% half-width of %g%% of the mean with "
                "probability %.0f%% (asked: %g%%);\n"
                "%s  %ld reach it in the expected case, with probability %.0f%%\n",
                lead, lower, a->design[n - 1], o->levels[0], o->target * 100, 100 * a->p,
                o->assurance * 100, lead, a->expected, 100 * a->p_expected);
    else
        fprintf(fp,
                "%s%s%ld repetitions of '%s' reach a 95%% half-width of %g%% of the mean in the "
                "expected case;\n"
                "%s  the probability that they do is %.0f%% (--assurance P%% asks for more)\n",
                lead, lower, a->design[n - 1], o->levels[0], o->target * 100, lead, 100 * a->p);
}

static void
levels_table(FILE *fp, const struct il_report *r, int md, const struct il_levels *lv,
             const char *gname)
{
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
    char title[512];
    snprintf(title, sizeof title, "levels%s%s (Kalibera & Jones; highest first; T^2 corrected)",
             gname ? " of " : "", gname ? gname : "");
    tab_print(fp, &t, md, title);
    fprintf(fp, "%sgrand mean %s, 95%% CI %s (t, %zu - 1 df, from S^2 of '%s')\n", md ? "\n" : "  ",
            num(a, lv->mean), interval(c, sizeof c, lv->lo, lv->hi), lv->r[n - 1], o->levels[0]);
    if (gname)
        return;
    if (o->tool == IL_TOOL_PLAN && !r->has_plan && n > 1)
        fprintf(fp, "%sgive --costs to optimise the repetitions of the lower levels\n",
                md ? "\n" : "  ");
    if (r->as.no_estimate)
        no_estimate(fp, r, md ? "\n" : "  ");
    if (r->has_top)
        assurance(fp, r, md ? "\n" : "  ");
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
    const char *unit = il_sel_unit(&o->sel);
    fprintf(fp, "metric %s%s%s%s%s: %zu %s from %zu file%s", o->sel.metric,
            o->sel.subtract_floor ? " minus floor" : "", *unit ? " (" : "", unit, *unit ? ")" : "",
            d->n, o->per ? "runs" : "records", d->files, il_s(d->files));
    if (o->per)
        fprintf(fp, " (%zu records combined per %s)", d->per_records, o->per);
    if (d->folded)
        fprintf(fp, "; %zu record%s of exec chains folded into the next image's", d->folded,
                il_s(d->folded));
    if (d->superseded)
        fprintf(fp, "; %zu exec record%s left out, superseded by %s image's own (the exec failed)",
                d->superseded, il_s(d->superseded), il_pl(d->superseded, "its", "their"));
    fputc('\n', fp);
    groups_table(fp, r, md);
    if (r->ncmp)
        comparisons_table(fp, r, md);
    int any = 0;
    for (size_t i = 0; i < r->ncmp; i++)
        any |= r->cmp[i].has_setups;
    if (any)
        setups_table(fp, r, md);
    for (size_t i = 0; i < r->ncmp && r->o->design != IL_D_FLAT; i++)
        if (!r->cmp[i].has_setups)
            fprintf(fp, "%s: no per-setup ratios: %s\n", r->gname[r->cmp[i].g],
                    r->cmp[i].setups_why);
    if (r->gsu)
        group_setups_table(fp, r, md);
    if (r->nsuite)
        suite_table(fp, r, md);
    if (r->has_levels) {
        if (r->gs.ng == 1)
            levels_table(fp, r, md, &r->lv, NULL);
        else
            for (size_t g = 0; g < r->gs.ng; g++)
                levels_table(fp, r, md, &r->glv[g], r->gname[g]);
    }
    diag_table(fp, r, md);
    il_attr_text(fp, r, md);
    if (r->ncmp) {
        fprintf(fp, md ? "\n**verdicts**\n\n" : "\nverdicts\n");
        for (size_t i = 0; i < r->ncmp; i++)
            fprintf(fp, "%s%s\n", md ? "- " : "  ", r->cmp[i].verdict);
        for (size_t i = 0; i < r->nsuite; i++)
            fprintf(fp, "%s%s\n", md ? "- " : "  ", r->suite[i].verdict);
    }
}
