/*
 * analyze.c: from records to conclusions.  Groups and their diagnostics;
 * comparisons (ratio of means, Fieller; Kalibera & Jones section 9.3); the
 * per-setup view (Mytkowicz et al. section 7.1.2 and Fig. 2b/3b); the suite
 * geometric mean (Heiser); levels and the plan (Kalibera & Jones section 9);
 * one plain-language verdict per comparison.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

void
il_change(char *buf, size_t n, double x, int timey)
{
    if (x < 1)
        snprintf(buf, n, "%.1f%% %s", (1 - x) * 100, timey ? "faster" : "lower");
    else if (x > 1)
        snprintf(buf, n, "%.1f%% %s", (x - 1) * 100, timey ? "slower" : "higher");
    else
        snprintf(buf, n, "no change");
}

/* "95% CI [0.4%, 1.0%]" in the words of the estimate, or the two ends in
 * words when the interval includes no change. */
static void
ci_words(char *buf, size_t n, double est, double lo, double hi, int timey)
{
    char a[64], b[64];
    if (hi < 1 && est < 1)
        snprintf(buf, n, "95%% CI [%.1f%%, %.1f%%]", (1 - hi) * 100, (1 - lo) * 100);
    else if (lo > 1 && est > 1)
        snprintf(buf, n, "95%% CI [%.1f%%, %.1f%%]", (lo - 1) * 100, (hi - 1) * 100);
    else {
        il_change(a, sizeof a, lo, timey);
        il_change(b, sizeof b, hi, timey);
        snprintf(buf, n, "95%% CI from %s to %s (no difference can be claimed)", a, b);
    }
}

static char *
verdict_cmp(const struct il_report *r, const struct il_cmp *c)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    int timey = il_metric_is_time(o->sel.metric, o->sel.kind);
    const char *val = il_str(&d->st, r->gs.g[c->g].key[r->cmp_pos]);
    char head[512], est[64], ci[256], lo[64], hi[64], out[1536];
    if (strcmp(c->unit, "all") == 0)
        snprintf(head, sizeof head, "%s vs %s", val, o->cmp_base);
    else
        snprintf(head, sizeof head, "%s vs %s (%s)", val, o->cmp_base, c->unit);
    if (c->has_setups && c->su.has_ci) {
        const struct il_setups *s = &c->su;
        il_change(est, sizeof est, s->mean, timey);
        ci_words(ci, sizeof ci, s->mean, s->lo, s->hi, timey);
        il_change(hi, sizeof hi, s->max, timey);
        il_change(lo, sizeof lo, s->min, timey);
        snprintf(out, sizeof out,
                 "%s: %s, %s, over %zu setups; single setups ranged from %s to %s%s", head, est, ci,
                 s->n, hi, lo,
                 s->straddles ? ", so one setup alone could have shown either conclusion"
                              : ", all in the same direction");
        return il_xstrdup(out);
    }
    size_t ny = r->gs.g[c->g].n, nx = r->gs.g[c->base].n;
    if (c->few) {
        snprintf(out, sizeof out,
                 "%s: ratio %.4g from %zu and %zu runs; fewer than 2 runs on a side gives no "
                 "interval",
                 head, c->f.ratio, ny, nx);
        return il_xstrdup(out);
    }
    if (c->f.kind != IL_CI_BOUNDED) {
        snprintf(out, sizeof out,
                 "%s: ratio %.4g, but no interval: the baseline mean is not clearly different "
                 "from zero, so the 95%% confidence set is %s",
                 head, c->f.ratio,
                 c->f.kind == IL_CI_EXCLUSIVE ? "two half-lines" : "the whole line");
        return il_xstrdup(out);
    }
    il_change(est, sizeof est, c->f.ratio, timey);
    ci_words(ci, sizeof ci, c->f.ratio, c->f.lo, c->f.hi, timey);
    snprintf(out, sizeof out, "%s: %s, %s, from %zu and %zu runs (Fieller)", head, est, ci, ny, nx);
    return il_xstrdup(out);
}

/* Summaries and diagnostics of every group; the warnings come later, so
 * that a fatal error is not preceded by warnings. */
static void
describe_groups(struct il_report *r)
{
    size_t ng = r->gs.ng, maxn = 1;
    r->sum = il_xcalloc(ng, sizeof *r->sum);
    r->diag = il_xcalloc(ng, sizeof *r->diag);
    r->gname = il_xcalloc(ng, sizeof *r->gname);
    for (size_t g = 0; g < ng; g++)
        if (r->gs.g[g].n > maxn)
            maxn = r->gs.g[g].n;
    double *scratch = il_xcalloc(maxn, sizeof *scratch);
    for (size_t g = 0; g < ng; g++) {
        const struct il_group *gr = &r->gs.g[g];
        r->gname[g] = il_group_name(&r->d, &r->gs, gr->key, " ", SIZE_MAX);
        il_summarize(gr->x, gr->n, scratch, &r->sum[g]);
        il_diagnose(gr->x, gr->n, scratch, &r->diag[g]);
    }
    free(scratch);
}

/* With --levels the run sequence follows the level structure, which the
 * levels model; the dependence warning would only repeat that. */
static void
warn_groups(const struct il_report *r)
{
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_group *gr = &r->gs.g[g];
        const struct il_diag *dg = &r->diag[g];
        if (gr->n < 2)
            il_warn(IL_W_FEW, r->gname[g], gr->n);
        if (dg->outliers)
            il_warn(IL_W_OUTLIERS, r->gname[g], dg->outliers, gr->n);
        if (dg->first_special)
            il_warn(IL_W_FIRST, r->gname[g], dg->first_z);
        if (dg->has_lb && dg->lb_p < 0.05 && !r->o->nlevels)
            il_warn(IL_W_DEPENDENT, r->gname[g], dg->lb_p, dg->lb_lags, dg->acf[0], dg->acf_bound);
    }
}

/* Labels that number or place the runs of one series rather than tell
 * series apart: they may vary along a run sequence. */
static int
numbers_runs(const char *name)
{
    static const char *const names[] = {
        "rep",   "repetition", "iter", "iteration", "run",    "exec",    "execution",
        "trial", "invocation", "copy", "setup",     "layout", "env_add",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return 0;
}

static int
cmp_nat(const void *a, const void *b)
{
    return il_natcmp(*(const char *const *)a, *(const char *const *)b);
}

/* plot seq: one group, and no label outside --by that tells series apart
 * (system, bench, ...) may take several values, or the run sequence would
 * interleave several series. */
static void
one_series(const struct il_report *r)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    if (r->gs.ng != 1)
        errx(1, "seq: the selection has %zu groups (%s, ...); select one group with --where",
             r->gs.ng, r->gname[0]);
    char mixed[1024], ex[512] = "", part[512];
    char *parts[IL_MAX_SLOTS + 1];
    size_t nmixed = 0;
    for (size_t i = 0; i < d->nlv; i++) {
        const struct il_labvals *l = &d->lv[i];
        int absent = l->present < d->n, by = 0;
        for (size_t j = 0; j < o->nby; j++)
            by |= strcmp(o->by[j], l->name) == 0;
        if (l->nval + (size_t)absent < 2 || by || numbers_runs(l->name))
            continue;
        if (nmixed == IL_MAX_SLOTS) {
            parts[nmixed++] = il_xstrdup("...");
            break;
        }
        const char **v = il_xcalloc(l->nval, sizeof *v);
        size_t k = 0, m;
        for (size_t id = 1; id < l->seencap && k < l->nval; id++)
            if (l->seen[id])
                v[k++] = il_str(&d->st, (uint32_t)id);
        qsort(v, k, sizeof *v, cmp_nat);
        if (!nmixed)
            snprintf(ex, sizeof ex, "%s=%s", l->name, v[0]);
        m = (size_t)snprintf(part, sizeof part, "%s=", l->name);
        for (size_t j = 0; j < k && j < 6 && m < sizeof part; j++)
            m += (size_t)snprintf(part + m, sizeof part - m, "%s%s", j ? "," : "",
                                  j == 5 && k > 6 ? "..." : v[j]);
        if (absent && m < sizeof part)
            snprintf(part + m, sizeof part - m, ",(absent)");
        parts[nmixed++] = il_xstrdup(part);
        free(v);
    }
    if (!nmixed)
        return;
    /* "a=x,y", "a=x,y and b=z,w", "a=x,y, b=z,w and c=u,v" */
    size_t m = 0;
    mixed[0] = '\0';
    for (size_t i = 0; i < nmixed && m < sizeof mixed; i++)
        m += (size_t)snprintf(mixed + m, sizeof mixed - m, "%s%s",
                              i == 0            ? ""
                              : i + 1 == nmixed ? " and "
                                                : ", ",
                              parts[i]);
    errx(1,
         "seq: the selected records mix %s; one run sequence needs one value of each: pick "
         "it with --where, e.g. --where %s",
         mixed, ex);
}

struct sv {
    uint32_t s;
    double v;
};

static int
cmp_sv(const void *pa, const void *pb)
{
    const struct sv *a = pa, *b = pb;
    return (a->s > b->s) - (a->s < b->s);
}

/* Per-setup means of one group, sorted by setup id; returns the count. */
static size_t
setup_means(const struct il_report *r, const struct il_group *g, struct sv *out)
{
    const struct il_data *d = &r->d;
    struct sv *t = il_xcalloc(g->n, sizeof *t);
    for (size_t i = 0; i < g->n; i++) {
        t[i].s = d->lab[g->rec[i] * d->nslots + r->o->setup_slot];
        t[i].v = g->x[i];
    }
    qsort(t, g->n, sizeof *t, cmp_sv);
    size_t m = 0;
    for (size_t i = 0; i < g->n;) {
        size_t j = i;
        double sum = 0;
        while (j < g->n && t[j].s == t[i].s)
            sum += t[j++].v;
        out[m].s = t[i].s;
        out[m++].v = sum / (double)(j - i);
        i = j;
    }
    free(t);
    return m;
}

static void
per_setup(struct il_report *r, struct il_cmp *c, const char *name)
{
    const struct il_group *gy = &r->gs.g[c->g], *gx = &r->gs.g[c->base];
    struct sv *ys = il_xcalloc(gy->n, sizeof *ys), *xs = il_xcalloc(gx->n, sizeof *xs);
    size_t ny = setup_means(r, gy, ys), nx = setup_means(r, gx, xs), i = 0, j = 0;
    struct il_setups *s = &c->su;
    s->ratio = il_xcalloc(ny < nx ? ny : nx, sizeof *s->ratio);
    s->setup = il_xcalloc(ny < nx ? ny : nx, sizeof *s->setup);
    while (i < ny && j < nx) {
        if (ys[i].s != xs[j].s) {
            s->unpaired++;
            if (ys[i].s < xs[j].s)
                i++;
            else
                j++;
            continue;
        }
        if (!(ys[i].v > 0) || !(xs[j].v > 0))
            errx(1,
                 "%s, setup %s=%s: a mean is not positive (%g over %g); a ratio needs "
                 "positive means: check --subtract-floor or the metric",
                 name, r->o->setup, il_str(&r->d.st, ys[i].s), ys[i].v, xs[j].v);
        s->setup[s->n] = ys[i].s;
        s->ratio[s->n++] = ys[i].v / xs[j].v;
        i++;
        j++;
    }
    s->unpaired += (ny - i) + (nx - j);
    free(ys);
    free(xs);
    c->has_setups = s->n > 0;
    if (s->unpaired)
        il_warn(IL_W_UNPAIRED, name, s->unpaired, s->n);
    if (!s->n)
        return;
    double *tmp = il_xcalloc(s->n, sizeof *tmp);
    memcpy(tmp, s->ratio, s->n * sizeof *tmp);
    qsort(tmp, s->n, sizeof *tmp, il_dcmp);
    s->min = tmp[0];
    s->max = tmp[s->n - 1];
    s->median = il_quantile_sorted(tmp, s->n, 0.5);
    s->straddles = s->min < 1 && s->max > 1;
    free(tmp);
    /* Mytkowicz et al. 7.1.2: the t interval of the mean per-setup ratio. */
    s->has_ci = il_tci(s->ratio, s->n, &s->mean, &s->lo, &s->hi) == 0;
    if (!s->has_ci)
        il_warn(IL_W_SETUPS_FEW, name, s->n);
}

static void
list_values(const struct il_report *r, size_t pos, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t g = 0; g < r->gs.ng && o < n; g++) {
        uint32_t id = r->gs.g[g].key[pos];
        size_t k = 0;
        while (k < g && r->gs.g[k].key[pos] != id)
            k++;
        if (k < g)
            continue; /* named already */
        o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? ", " : "", il_str(&r->d.st, id));
    }
}

static void
suite(struct il_report *r)
{
    const struct il_data *d = &r->d;
    int timey = il_metric_is_time(r->o->sel.metric, r->o->sel.kind);
    double *rat = il_xcalloc(r->ncmp, sizeof *rat);
    r->suite = il_xcalloc(r->ncmp, sizeof *r->suite);
    for (size_t i = 0; i < r->ncmp; i++) {
        uint32_t v = r->gs.g[r->cmp[i].g].key[r->cmp_pos];
        size_t k;
        for (k = 0; k < r->nsuite; k++)
            if (r->suite[k].value == v)
                break;
        if (k < r->nsuite)
            continue;
        struct il_suite *s = &r->suite[r->nsuite++];
        s->value = v;
        for (size_t j = i; j < r->ncmp; j++)
            if (r->gs.g[r->cmp[j].g].key[r->cmp_pos] == v)
                rat[s->n++] = r->cmp[j].f.ratio;
        size_t bad;
        int e = il_geomean_ci(rat, s->n, &s->gm, &s->lo, &s->hi, &bad);
        if (e == IL_SE_NONPOS)
            errx(1,
                 "suite %s vs %s: ratio %g is not positive; a geometric mean needs "
                 "positive ratios",
                 il_str(&d->st, v), r->o->cmp_base, rat[bad]);
        s->has_ci = e == 0;
        char what[256], est[64], ci[256], out[1024];
        snprintf(what, sizeof what, "%s vs %s", il_str(&d->st, v), r->o->cmp_base);
        if (!s->has_ci)
            il_warn(IL_W_SUITE_ONE, what);
        il_change(est, sizeof est, s->gm, timey);
        if (s->has_ci)
            ci_words(ci, sizeof ci, s->gm, s->lo, s->hi, timey);
        else
            snprintf(ci, sizeof ci, "no interval from one benchmark");
        snprintf(out, sizeof out, "%s, geometric mean over %zu benchmarks: %s, %s", what, s->n, est,
                 ci);
        s->verdict = il_xstrdup(out);
    }
    free(rat);
}

static void
compare(struct il_report *r)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    char buf[1024];
    r->base_id = il_strtab_find(&d->st, o->cmp_base);
    size_t nbase = 0;
    for (size_t g = 0; g < r->gs.ng; g++)
        nbase += r->gs.g[g].key[r->cmp_pos] == r->base_id;
    if (nbase == 0) {
        list_values(r, r->cmp_pos, buf, sizeof buf);
        errx(1, "--compare %s=%s: no selected record has %s=%s; %s takes the values: %s",
             o->cmp_label, o->cmp_base, o->cmp_label, o->cmp_base, o->cmp_label, buf);
    }
    r->cmp = il_xcalloc(r->gs.ng, sizeof *r->cmp);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const uint32_t *key = r->gs.g[g].key;
        if (key[r->cmp_pos] == r->base_id)
            continue;
        long b = il_group_find(&r->gs, key, r->cmp_pos, r->base_id);
        if (b < 0) {
            snprintf(buf, sizeof buf, "%s=%s", o->cmp_label, o->cmp_base);
            il_warn(IL_W_NOBASE, r->gname[g], buf);
            continue;
        }
        struct il_cmp *c = &r->cmp[r->ncmp++];
        c->g = g;
        c->base = (size_t)b;
        c->unit = il_group_name(d, &r->gs, key, " ", r->cmp_pos);
        snprintf(buf, sizeof buf, "%s / %s", r->gname[g], r->gname[b]);
        if (!(r->sum[g].mean > 0) || !(r->sum[b].mean > 0))
            errx(1,
                 "ratio %s: a mean is not positive (%g over %g); a ratio of means needs "
                 "positive means: check --subtract-floor or the metric",
                 buf, r->sum[g].mean, r->sum[b].mean);
        const struct il_group *gy = &r->gs.g[g], *gx = &r->gs.g[b];
        c->few = il_fieller_samples(gy->x, gy->n, gx->x, gx->n, o->pooled, &c->f) != 0;
        if (!c->few && c->f.kind != IL_CI_BOUNDED)
            il_warn(IL_W_NOTBOUNDED, buf,
                    c->f.kind == IL_CI_EXCLUSIVE ? "two half-lines" : "the whole line");
        if (o->setup)
            per_setup(r, c, buf);
        c->verdict = verdict_cmp(r, c);
    }
    if (r->gs.nkey > 1 && r->ncmp)
        suite(r);
}

/* "layout=r07 exec=2" for record rec, levels [0, depth). */
static void
level_path(const struct il_report *r, size_t rec, size_t depth, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < depth && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s=%s", i ? " " : "", r->o->levels[i],
                              il_str(&r->d.st, r->d.lab[rec * r->d.nslots + r->o->level_slot[i]]));
}

static void
levels(struct il_report *r)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    size_t n = o->nlevels;
    if (r->gs.ng != 1)
        errx(1,
             "--levels analyses one group at a time, but the selection has %zu groups "
             "(%s, ...); narrow it with --where",
             r->gs.ng, r->gname[0]);
    const struct il_group *g = &r->gs.g[0];
    uint32_t *ids = il_xcalloc(g->n * n, sizeof *ids);
    const uint32_t **lab = il_xcalloc(g->n, sizeof *lab);
    for (size_t k = 0; k < g->n; k++) {
        for (size_t i = 0; i < n; i++) {
            ids[k * n + i] = d->lab[g->rec[k] * d->nslots + o->level_slot[i]];
            if (ids[k * n + i] == IL_MISSING_ID)
                errx(1,
                     "--levels: a selected record lacks the label '%s'; every record needs "
                     "all of %s labels",
                     o->levels[i], n > 1 ? "the" : "its");
        }
        lab[k] = ids + k * n;
    }
    size_t where = 0, depth = 0, got = 0, want = 0, other = 0, r_[IL_MAX_LEVELS];
    char a[512], b[512];
    int e = il_levels_arrange(g->x, lab, g->n, n, &r->ly, r_, &where, &depth, &got, &want, &other);
    if (e == IL_SE_UNBAL) {
        level_path(r, g->rec[where], depth, a, sizeof a);
        level_path(r, g->rec[other], depth, b, sizeof b);
        errx(1,
             "unbalanced design: %s has %zu value%s of '%s', but %s has %zu; every %s needs "
             "the same number",
             a, got, got == 1 ? "" : "s", o->levels[depth], b, want,
             depth ? o->levels[depth - 1] : "group");
    }
    if (e == IL_SE_DUP) {
        level_path(r, g->rec[where], n, a, sizeof a);
        errx(1,
             "--levels: %s appears %zu times; the lowest label '%s' must number the "
             "repetitions inside its parent, once each",
             a, got, o->levels[n - 1]);
    }
    if (e)
        errx(1, "--levels: %s", il_se_strerror(e));
    for (size_t i = 0; i < n; i++)
        if (r_[i] < 2)
            errx(1,
                 "--levels: level '%s' has 1 repetition per parent; its variance needs at "
                 "least 2",
                 o->levels[n - 1 - i]);
    if (il_levels_compute(r->ly, r_, n, &r->lv))
        errx(1, "--levels: out of memory");
    r->has_levels = 1;
    free(ids);
    free(lab);
}

static void
plan(struct il_report *r)
{
    const struct il_opts *o = r->o;
    size_t n = o->nlevels;
    const struct il_group *g = &r->gs.g[0];
    for (size_t i = 0; i < n; i++)
        r->reps[i] = (long)r->lv.r[i];
    if (o->ncosts) {
        for (size_t i = 0; i < o->ncosts; i++)
            r->cost[n - 1 - i] = o->costs[i];
        if (o->ncosts + 1 == n) {
            double s = 0;
            size_t k = 0;
            for (size_t j = 0; j < g->n; j++)
                if (!isnan(r->d.wall[g->rec[j]])) {
                    s += r->d.wall[g->rec[j]];
                    k++;
                }
            if (!k)
                errx(1,
                     "--costs: cannot measure the cost of '%s': no record has "
                     "times.wall_ns; give all %zu costs",
                     o->levels[n - 1], n);
            r->cost[0] = s / (double)k / 1e9;
            r->c1_measured = 1;
            if (!(r->cost[0] > 0))
                errx(1,
                     "--costs: the measured cost of '%s' is not positive; give all %zu "
                     "costs",
                     o->levels[n - 1], n);
        }
        il_levels_reps(&r->lv, r->cost, r->reps);
        r->has_plan = 1;
        for (size_t i = 0; i + 1 < n; i++) {
            if (r->reps[i] == 1 && r->lv.T2[i] <= 0)
                il_warn(IL_W_T2, o->levels[n - 1 - i]);
            if (r->reps[i] == 0)
                il_warn(IL_W_NOOPT, o->levels[n - 1 - i]);
        }
    }
    if (o->target > 0) {
        long top;
        int e = il_levels_target(&r->lv, r->reps, o->target, 10000000, &top);
        if (e)
            errx(1,
                 "--target %g%%: more than 10000000 repetitions of '%s' would be needed; "
                 "aim for a wider interval",
                 o->target * 100, o->levels[0]);
        r->reps[n - 1] = top;
        r->has_top = 1;
    }
    if (o->boot) {
        double *rep = il_xcalloc(o->boot, sizeof *rep);
        if (il_boot_hier(r->ly, r->lv.r, n, o->boot, o->seed, rep))
            errx(1, "--bootstrap: out of memory");
        r->bmean = il_mean(rep, o->boot);
        r->bsd = sqrt(il_var(rep, o->boot, r->bmean));
        qsort(rep, o->boot, sizeof *rep, il_dcmp);
        r->blo = il_quantile_sorted(rep, o->boot, (1 - IL_CONF) / 2);
        r->bhi = il_quantile_sorted(rep, o->boot, (1 + IL_CONF) / 2);
        r->has_boot = 1;
        free(rep);
    }
}

void
il_analyze(const struct il_opts *o, struct il_report *r)
{
    size_t key[IL_MAX_SLOTS], nkey = 0;
    memset(r, 0, sizeof *r);
    r->o = o;
    il_read(&o->sel, o->files, o->nfiles, &r->d);
    r->cmp_pos = SIZE_MAX;
    for (size_t i = 0; i < o->nby; i++) {
        if (o->cmp_label && strcmp(o->by[i], o->cmp_label) == 0)
            r->cmp_pos = nkey;
        key[nkey++] = o->by_slot[i];
    }
    if (o->cmp_label && r->cmp_pos == SIZE_MAX) {
        r->cmp_pos = nkey;
        key[nkey++] = o->cmp_slot;
    }
    il_group_by(&r->d, key, nkey, &r->gs);
    describe_groups(r);
    if (o->tool == IL_TOOL_PLOT && strcmp(o->plot_kind, "seq") == 0)
        one_series(r);
    if (o->nlevels)
        levels(r);
    if (o->cmp_label)
        compare(r);
    if (o->tool == IL_TOOL_PLAN)
        plan(r);
    warn_groups(r);
}
