/*
 * out_csv.c: the report as CSV (RFC 4180; one long table with a "kind"
 * column) and as Go benchmark text (one line per run, for benchstat).
 *
 * CSV labels are "label=value" pairs joined by ';'.  A value that holds
 * ';', '=', '"' or '\' is written in double quotes with '"' and '\'
 * escaped by a backslash, so that the pairs split back unambiguously; the
 * CSV quoting of the whole field comes on top of that.  Numbers read back
 * as the same double; integer counts are written as integers.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_csv.h"
#include "il_report.h"
#include "il_stats.h"

static const char *const kinds[] = {IL_R_BOUNDED, IL_R_EXCLUSIVE, IL_R_UNBOUNDED};

char *
il_labels_text(const struct il_report *r, const uint32_t *key, const char *sep, size_t skip)
{
    size_t cap = 16, o = 0;
    for (size_t i = 0; i < r->gs.nkey; i++)
        cap += 2 * strlen(il_str(&r->d.st, key[i])) + strlen(r->d.slot_name[r->gs.slot[i]]) + 8;
    char *s = il_xcalloc(cap, 1);
    for (size_t i = 0; i < r->gs.nkey; i++) {
        if (i == skip)
            continue;
        const char *v = key[i] == IL_MISSING_ID ? "" : il_str(&r->d.st, key[i]);
        o += (size_t)snprintf(s + o, cap - o, "%s%s=", o ? sep : "", r->d.slot_name[r->gs.slot[i]]);
        /* A missing label is nothing after '='; an empty value is "". */
        if (key[i] == IL_MISSING_ID)
            continue;
        if (*v && !strpbrk(v, ";=\"\\")) {
            o += (size_t)snprintf(s + o, cap - o, "%s", v);
            continue;
        }
        s[o++] = '"';
        for (; *v; v++) {
            if (*v == '"' || *v == '\\')
                s[o++] = '\\';
            s[o++] = *v;
        }
        s[o++] = '"';
        s[o] = '\0';
    }
    return s;
}

static void
csv_str(FILE *fp, const char *s)
{
    fputc(',', fp);
    il_csv_field(fp, s);
}

static void
csv_num(FILE *fp, double x, int ok)
{
    char b[40];
    fputc(',', fp);
    if (ok && isfinite(x)) {
        il_fmt_exact(b, sizeof b, x);
        fputs(b, fp);
    }
}

static void
csv_int(FILE *fp, int exact, int64_t i, double x)
{
    if (exact)
        fprintf(fp, ",%lld", (long long)i);
    else
        csv_num(fp, x, 1);
}

/* kind,labels,baseline,metric,unit,estimator,direction,n,n_baseline */
static void
head(FILE *fp, const struct il_report *r, const char *kind, const char *labels,
     const char *baseline, size_t n, size_t nb, int has_nb)
{
    const struct il_opts *o = r->o;
    fputs(kind, fp);
    csv_str(fp, labels);
    csv_str(fp, baseline);
    csv_str(fp, o->sel.metric);
    csv_str(fp, il_sel_unit(&o->sel));
    csv_str(fp, o->est.name);
    csv_str(fp, o->speedup ? "baseline/value" : "value/baseline");
    fprintf(fp, ",%zu,", n);
    if (has_nb)
        fprintf(fp, "%zu", nb);
}

/* estimate,ci_kind,ci_lo,ci_hi,df,ci_method,p,p_holm */
static void
interval(FILE *fp, double est, const char *kind, double lo, double hi, int ok, double df,
         const char *method, double p, double ph)
{
    csv_num(fp, est, 1);
    csv_str(fp, kind);
    csv_num(fp, lo, ok);
    csv_num(fp, hi, ok);
    csv_num(fp, df, ok);
    csv_str(fp, method);
    csv_num(fp, p, 1);
    csv_num(fp, ph, 1);
}

/* "labels;LABEL=VALUE" with the value quoted as il_labels_text does. */
static char *
with_label(const char *labels, const char *name, const char *v)
{
    size_t len = strlen(labels) + strlen(name) + 2 * strlen(v) + 8, m;
    char *s = il_xcalloc(len, 1);
    m = (size_t)snprintf(s, len, "%s%s%s=", labels, *labels ? ";" : "", name);
    if (*v && !strpbrk(v, ";=\"\\")) {
        snprintf(s + m, len - m, "%s", v);
        return s;
    }
    s[m++] = '"';
    for (; *v; v++) {
        if (*v == '"' || *v == '\\')
            s[m++] = '\\';
        s[m++] = *v;
    }
    s[m] = '"';
    return s;
}

/* A group's setup effect (setup_effect: tau and its interval, p, the
 * setups that stand out in the verdict column), then each setup
 * (group_setup: its estimate, runs, the median setup's estimate and its
 * modified z; stands out in the verdict column). */
static void
group_setup_rows(FILE *fp, const struct il_report *r, size_t g)
{
    const struct il_opts *o = r->o;
    const struct il_gsetups *s = &r->gsu[g];
    char *name = il_labels_text(r, r->gs.g[g].key, ";", SIZE_MAX);
    int tau = s->has_tau && s->het.has_tau_ci;
    char method[1024], ex[512];
    il_exch_group_text(o, s, ex, sizeof ex);
    snprintf(method, sizeof method,
             "tau: sd of the setups' log estimate beyond noise (Paule-Mandel, Q-profile%s); p: "
             "%s%s",
             s->calibrated ? " at the shuffles' quantiles of Q" : "",
             s->has_test ? ""
             : s->why    ? "could not be tested: "
                         : "no test",
             s->has_test ? ex
             : s->why    ? s->why
                         : "");
    head(fp, r, "setup_effect", name, "", s->k, 0, 0);
    interval(fp, s->has_tau ? sqrt(s->het.tau2) : NAN, tau ? "bounded" : "none",
             sqrt(s->het.tau2_lo), sqrt(s->het.tau2_hi), tau, NAN, method, s->has_test ? s->p : NAN,
             NAN);
    fputc(',', fp);
    csv_num(fp, s->center, 1);
    fputs(",,,,,,", fp);
    char list[1024];
    size_t m = 0;
    list[0] = '\0';
    for (size_t u = 0; u < s->k && m < sizeof list; u++)
        if (s->out && s->out[u])
            m += (size_t)snprintf(list + m, sizeof list - m, "%s%s", m ? " " : "",
                                  il_str(&r->d.st, s->setup[u]));
    csv_str(fp, m ? list : "");
    fputs(",\n", fp);
    for (size_t u = 0; u < s->k; u++) {
        char *lab = with_label(name, o->d_label[0], il_str(&r->d.st, s->setup[u]));
        head(fp, r, "group_setup", lab, "", s->n[u], 0, 0);
        interval(fp, s->est[u], "none", NAN, NAN, 0, NAN, "per setup", NAN, NAN);
        fputc(',', fp);
        csv_num(fp, s->center, 1);
        fputs(",,,,,,", fp);
        csv_str(fp, s->out && s->out[u] ? "stands out" : "");
        csv_num(fp, s->z[u], 1);
        fputc('\n', fp);
        free(lab);
    }
    free(name);
}

void
il_out_csv(FILE *fp, const struct il_report *r)
{
    const struct il_opts *o = r->o;
    fputs("kind,labels,baseline,metric,unit,estimator,direction,n,n_baseline,estimate,ci_kind,"
          "ci_lo,ci_hi,df,ci_method,p,p_holm,sd,median,min,max,cv,s2,t2,share,verdict,z\n",
          fp);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_summary *s = &r->sum[g];
        char *name = il_labels_text(r, r->gs.g[g].key, ";", SIZE_MAX);
        head(fp, r, "group", name, "", s->n, 0, 0);
        interval(fp, s->est, s->has_est_ci ? "bounded" : "none", s->est_lo, s->est_hi,
                 s->has_est_ci, s->ci_df, s->ci_method ? s->ci_method : "none", NAN, NAN);
        csv_num(fp, s->sd, s->has_sd);
        csv_num(fp, s->median, 1);
        csv_int(fp, s->exact, s->imin, s->min);
        csv_int(fp, s->exact, s->imax, s->max);
        csv_num(fp, s->cv, s->has_sd);
        fputs(",,,,,\n", fp);
        free(name);
    }
    for (size_t i = 0; i < r->ncmp; i++) {
        const struct il_cmp *c = &r->cmp[i];
        char *a = il_labels_text(r, r->gs.g[c->g].key, ";", SIZE_MAX);
        char *b = il_labels_text(r, r->gs.g[c->base].key, ";", SIZE_MAX);
        size_t na = r->gs.g[c->g].n, nb = r->gs.g[c->base].n;
        head(fp, r, "comparison", a, b, na, nb, 1);
        /* Both ends of an exclusive set: the set is <= ci_lo or >= ci_hi. */
        int ok = !c->few && c->f.kind != IL_CI_UNBOUNDED;
        interval(fp, c->f.ratio, c->few ? "none" : kinds[c->f.kind], c->f.lo, c->f.hi, ok, c->f.df,
                 c->method, c->has_p ? c->p : NAN, c->holm ? c->p_holm : NAN);
        fputs(",,,,,,,,", fp);
        csv_str(fp, c->verdict);
        fputs(",\n", fp);
        if (c->has_svr) {
            head(fp, r, "setup_variance", a, b, 0, 0, 0);
            interval(fp, c->svr, isfinite(c->svr_hi) ? "bounded" : "unbounded", c->svr_lo,
                     c->svr_hi, 1, NAN, "tau^2 over tau^2, Q-profile intervals at 97.5% each", NAN,
                     NAN);
            fputs(",,,,,,,,,,\n", fp);
        }
        if (c->has_setups) {
            const struct il_setups *s = &c->su;
            head(fp, r, "setups", a, b, s->n, 0, 0);
            interval(fp, s->gm, s->has_gm_ci ? "bounded" : "none", s->gm_lo, s->gm_hi, s->has_gm_ci,
                     NAN, "geometric mean of per-setup ratios, t in log space",
                     s->has_het ? s->het.p : NAN, NAN);
            fputc(',', fp);
            csv_num(fp, s->median, 1);
            csv_num(fp, s->min, 1);
            csv_num(fp, s->max, 1);
            /* the verdict column: why the test of equal ratios could not run */
            char why[400] = "";
            if (!s->has_het && s->het_why)
                snprintf(why, sizeof why, "could not be tested: %s", s->het_why);
            fputs(",,,,", fp);
            csv_str(fp, why);
            fputs(",\n", fp);
            for (size_t u = 0; u < s->n; u++) {
                char *lab = with_label(a, "setup", il_str(&r->d.st, s->setup[u]));
                head(fp, r, "setup", lab, b, s->na[u], s->nb[u], 1);
                char m[352] = "per setup";
                if (!isfinite(s->lo[u])) { /* why not */
                    snprintf(m, sizeof m, "per setup; no interval: ");
                    il_setup_ci_why(o, s, u, 0, m + strlen(m), sizeof m - strlen(m));
                }
                interval(fp, s->ratio[u], isfinite(s->lo[u]) ? "bounded" : "none", s->lo[u],
                         s->hi[u], isfinite(s->lo[u]), NAN, m, NAN, NAN);
                fputs(",,,,,,,,,,\n", fp);
                free(lab);
            }
        }
        free(a);
        free(b);
    }
    for (size_t i = 0; i < r->nsuite; i++) {
        const struct il_suite *s = &r->suite[i];
        char a[512], b[512];
        snprintf(a, sizeof a, "%s=%s", o->cmp_label, il_str(&r->d.st, s->value));
        snprintf(b, sizeof b, "%s=%s", o->cmp_label, o->cmp_base);
        /* with setups shared by the benchmarks (suiteshare.c), the
         * setups are the unit, and the old intervals follow as *_independent */
        int sh = s->shared == 1;
        char mt[256], mb[256], lab[160];
        il_shared_what(lab, sizeof lab, o);
        snprintf(mt, sizeof mt, "these benchmarks: t over the %zu setups every benchmark shares (%s)",
                 s->sh_k, lab);
        snprintf(mb, sizeof mb,
                 "benchmarks like these: the shared setups' variance and the benchmarks' spread");
        head(fp, r, "suite", a, b, s->n, 0, 0);
        interval(fp, s->gm, s->has_ci ? "bounded" : "none", s->lo, s->hi, s->has_ci,
                 sh ? s->sh_df : NAN, sh ? mt : "these benchmarks: each ratio's own uncertainty",
                 NAN, NAN);
        fputs(",,,,,,,,", fp);
        csv_str(fp, s->verdict);
        fputs(",\n", fp);
        head(fp, r, "suite_benchmarks", a, b, s->n, 0, 0);
        interval(fp, s->gm, s->has_bci ? "bounded" : "none", s->blo, s->bhi, s->has_bci,
                 sh ? s->sh_bdf : (double)s->n - 1,
                 sh ? mb : "benchmarks like these: t in log space", NAN, NAN);
        fputs(",,,,,,,,,,\n", fp);
        if (sh) {
            head(fp, r, "suite_independent", a, b, s->n, 0, 0);
            interval(fp, s->gm, s->ind_has_ci ? "bounded" : "none", s->ind_lo, s->ind_hi,
                     s->ind_has_ci, NAN,
                     "these benchmarks taken as independent: each ratio's own uncertainty", NAN,
                     NAN);
            fputs(",,,,,,,,,,\n", fp);
            head(fp, r, "suite_benchmarks_independent", a, b, s->n, 0, 0);
            interval(fp, s->gm, s->ind_has_bci ? "bounded" : "none", s->ind_blo, s->ind_bhi,
                     s->ind_has_bci, (double)s->n - 1,
                     "benchmarks like these taken as independent: t in log space", NAN, NAN);
            fputs(",,,,,,,,,,\n", fp);
        }
        if (s->has_passes && s->npass_ratio) {
            /* the harness's passes (suitepass.c): n the benchmarks in every pass */
            char m[160];
            snprintf(m, sizeof m, "passes: Welch t over %zu and %zu passes; p: F test of a shift",
                     s->pass_a, s->pass_b);
            head(fp, r, "suite_passes", a, b, s->pass_m, 0, 0);
            interval(fp, s->pass_gm, s->has_pass_ci ? "bounded" : "none", s->pass_lo,
                     s->pass_hi, s->has_pass_ci, s->pass_df, m, s->has_pass_f ? s->pass_p : NAN,
                     NAN);
            fputs(",,,,,,,,,,\n", fp);
        }
    }
    for (size_t g = 0; r->gsu && g < r->gs.ng; g++)
        group_setup_rows(fp, r, g);
    if (r->has_levels) {
        for (size_t g = 0; g < r->gs.ng; g++) {
            const struct il_levels *lv = r->gs.ng == 1 ? &r->lv : &r->glv[g];
            char *gname = il_labels_text(r, r->gs.g[g].key, ";", SIZE_MAX);
            for (size_t j = 0; j < lv->n; j++) {
                size_t i = lv->n - 1 - j;
                size_t len = strlen(gname) + strlen(o->levels[j]) + 16;
                char *lab = il_xcalloc(len, 1);
                snprintf(lab, len, "%s%slevel=%s", gname, *gname ? ";" : "", o->levels[j]);
                head(fp, r, "level", lab, "", lv->r[i], 0, 0);
                fputs(",,,,,,,,,,,,,", fp);
                csv_num(fp, lv->S2[i], 1);
                csv_num(fp, lv->T2[i], 1);
                csv_num(fp, lv->share[i], 1);
                fputs(",,\n", fp);
                free(lab);
            }
            free(gname);
        }
    }
}

/*
 * The Go benchmark format (golang.org/design/14313-benchmark-format, as
 * golang.org/x/perf/benchfmt reads it): "Benchmark" NAME ITERS VALUE UNIT.
 * NAME holds no white space; '/' separates its parts, each "key=value";
 * a trailing "-DIGITS" is read as GOMAXPROCS.  So in keys and values
 * '%', '/', '=' and white space are percent-encoded, and so is a '-' that
 * ends a name in digits.  The unit says what was counted: ns/op for wall
 * time and task-clock, user-ns/op, sys-ns/op, maxrss-KiB/op, EVENT/op for
 * other events, and NUM/DEN for a derived metric (benchstat reads '/' in a
 * unit as a ratio of units).
 */
static void
go_escape(char *out, size_t cap, const char *s)
{
    size_t o = 0;
    for (; *s && o + 4 < cap; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '%' || c == '/' || c == '=' || c <= ' ' || c == 0x7f)
            o += (size_t)snprintf(out + o, cap - o, "%%%02X", c);
        else
            out[o++] = (char)c;
    }
    out[o] = '\0';
}

static void
unit_part(char *out, size_t cap, const char *metric, enum il_metric_kind kind)
{
    switch (kind) {
    case IL_M_WALL:
        snprintf(out, cap, "ns");
        return;
    case IL_M_USER:
        snprintf(out, cap, "user-ns");
        return;
    case IL_M_SYS:
        snprintf(out, cap, "sys-ns");
        return;
    case IL_M_MAXRSS:
        snprintf(out, cap, "maxrss-KiB");
        return;
    default:
        break;
    }
    if (strcmp(metric, "task-clock") == 0 || strcmp(metric, "cpu-clock") == 0) {
        snprintf(out, cap, "ns");
        return;
    }
    size_t o = 0;
    for (const char *p = metric; *p && o + 1 < cap; p++)
        out[o++] = (*p == '/' || *p == ' ' || *p == '\t' || *p == '*') ? '_' : *p;
    out[o] = '\0';
}

void
il_out_gobench(FILE *fp, const struct il_report *r)
{
    const struct il_opts *o = r->o;
    char unit[300], a[128], b[128];
    unit_part(a, sizeof a, o->sel.part[0], o->sel.kind);
    if (o->sel.derived) {
        unit_part(b, sizeof b, o->sel.part[1], o->sel.kind2);
        snprintf(unit, sizeof unit, "%s/%s", a, b);
    } else {
        snprintf(unit, sizeof unit, "%s/op", a);
    }
    fputs("pkg: interloper\n", fp);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const uint32_t *key = r->gs.g[g].key;
        size_t cap = 32;
        for (size_t i = 0; i < r->gs.nkey; i++)
            cap +=
                3 * (strlen(r->d.slot_name[r->gs.slot[i]]) + strlen(il_str(&r->d.st, key[i]))) + 4;
        char *name = il_xcalloc(cap, 1), *kb = il_xcalloc(cap, 1), *vb = il_xcalloc(cap, 1);
        size_t m = 0;
        for (size_t i = 0; i < r->gs.nkey; i++) {
            go_escape(kb, cap, r->d.slot_name[r->gs.slot[i]]);
            go_escape(vb, cap, key[i] == IL_MISSING_ID ? "" : il_str(&r->d.st, key[i]));
            m += (size_t)snprintf(name + m, cap - m, "/%s=%s", kb, vb);
        }
        /* "-12" at the very end would be read as GOMAXPROCS: encode the '-'. */
        char *dash = strrchr(name, '-');
        if (dash && dash[1] && strspn(dash + 1, "0123456789") == strlen(dash + 1)) {
            memmove(dash + 3, dash + 1, strlen(dash + 1) + 1);
            memcpy(dash, "%2D", 3);
        }
        for (size_t i = 0; i < r->gs.g[g].n; i++) {
            char v[40];
            size_t rec = r->gs.g[g].rec[i];
            if (r->d.flag[rec] & IL_R_INT)
                snprintf(v, sizeof v, "%lld", (long long)il_ival_of(&r->d, rec, r->gs.g[g].x[i]));
            else
                il_fmt_exact(v, sizeof v, r->gs.g[g].x[i]);
            fprintf(fp, "BenchmarkInterloper%s 1 %s %s\n", name, v, unit);
        }
        free(name);
        free(kb);
        free(vb);
    }
}
