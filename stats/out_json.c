/*
 * out_json.c: the report as one JSON object (built with jansson).  Field
 * names are a contract, like the record schema: add, never rename.
 *   groups[].{labels,n,mean,sd,median,min,max,cv,ci,diag}
 *   comparisons[].{labels,baseline_labels,value,baseline,ratio,ci_kind,ci,
 *                  ci_outside,df,n,n_baseline,setups,verdict}
 *       value and baseline are the two means; ratio = value / baseline;
 *       ci is [lo, hi] only when ci_kind is "bounded", else null;
 *       ci_outside is [lo, hi] for "exclusive": the set is <= lo or >= hi
 *   suite.{value,baseline,n,geomean,ci,verdict} (one compared value), suites[]
 *   levels.{names,reps,S2,T2,share,mean,ci}, highest level first
 *   plan.{levels,costs,cost_measured,reps,target}; reps follows levels and
 *       its top entry is the count for --target, or null without one
 *   bootstrap.{replicates,seed,mean,sd,ci}
 *   warnings[]
 */
#include <err.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "il_stats.h"

static json_t *
jnum(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *
jpair(double lo, double hi, int ok)
{
    return ok ? json_pack("[oo]", jnum(lo), jnum(hi)) : json_null();
}

static void
set(json_t *o, const char *k, json_t *v)
{
    if (!v || json_object_set_new(o, k, v) < 0)
        errx(1, "out of memory building JSON");
}

static json_t *
labels(const struct il_report *r, const uint32_t *key)
{
    json_t *o = json_object();
    for (size_t i = 0; i < r->gs.nkey; i++)
        set(o, r->d.slot_name[r->gs.slot[i]], json_string(il_str(&r->d.st, key[i])));
    return o;
}

static json_t *
diag(const struct il_diag *d)
{
    json_t *o = json_object(), *acf = json_array();
    set(o, "outliers", d->mad_checked ? json_integer((json_int_t)d->outliers) : json_null());
    set(o, "first_run_z", d->mad_checked ? jnum(d->first_z) : json_null());
    for (size_t i = 0; i < d->nacf; i++)
        json_array_append_new(acf, jnum(d->acf[i]));
    set(o, "acf", acf);
    set(o, "acf_bound", d->nacf ? jnum(d->acf_bound) : json_null());
    set(o, "ljung_box",
        d->has_lb
            ? json_pack("{s:o,s:i,s:o}", "q", jnum(d->lb_q), "lags", d->lb_lags, "p", jnum(d->lb_p))
            : json_null());
    return o;
}

static json_t *
groups(const struct il_report *r)
{
    json_t *a = json_array();
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_summary *s = &r->sum[g];
        json_t *o = json_object();
        set(o, "labels", labels(r, r->gs.g[g].key));
        set(o, "n", json_integer((json_int_t)s->n));
        set(o, "mean", jnum(s->mean));
        set(o, "sd", s->has_sd ? jnum(s->sd) : json_null());
        set(o, "median", jnum(s->median));
        set(o, "min", jnum(s->min));
        set(o, "max", jnum(s->max));
        set(o, "cv", s->has_sd ? jnum(s->cv) : json_null());
        set(o, "ci", jpair(s->lo, s->hi, s->has_ci));
        set(o, "diag", diag(&r->diag[g]));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *
setups(const struct il_setups *s)
{
    return json_pack("{s:I,s:I,s:o,s:o,s:o,s:b,s:o,s:o}", "n", (json_int_t)s->n, "unpaired",
                     (json_int_t)s->unpaired, "min", jnum(s->min), "median", jnum(s->median), "max",
                     jnum(s->max), "straddles_one", s->straddles, "mean", jnum(s->mean), "ci",
                     jpair(s->lo, s->hi, s->has_ci));
}

static json_t *
comparisons(const struct il_report *r)
{
    static const char *const kinds[] = {"bounded", "exclusive", "unbounded"};
    json_t *a = json_array();
    for (size_t i = 0; i < r->ncmp; i++) {
        const struct il_cmp *c = &r->cmp[i];
        json_t *o = json_object();
        set(o, "labels", labels(r, r->gs.g[c->g].key));
        set(o, "baseline_labels", labels(r, r->gs.g[c->base].key));
        set(o, "value", jnum(r->sum[c->g].mean));
        set(o, "baseline", jnum(r->sum[c->base].mean));
        set(o, "ratio", jnum(c->f.ratio));
        set(o, "ci_kind", json_string(c->few ? "none" : kinds[c->f.kind]));
        set(o, "ci", jpair(c->f.lo, c->f.hi, !c->few && c->f.kind == IL_CI_BOUNDED));
        set(o, "ci_outside", jpair(c->f.lo, c->f.hi, !c->few && c->f.kind == IL_CI_EXCLUSIVE));
        set(o, "df", c->few ? json_null() : jnum(c->f.df));
        set(o, "n", json_integer((json_int_t)r->gs.g[c->g].n));
        set(o, "n_baseline", json_integer((json_int_t)r->gs.g[c->base].n));
        set(o, "setups", c->has_setups ? setups(&c->su) : json_null());
        set(o, "verdict", json_string(c->verdict));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *
suite_obj(const struct il_report *r, const struct il_suite *s)
{
    return json_pack("{s:s,s:s,s:I,s:o,s:o,s:s}", "value", il_str(&r->d.st, s->value), "baseline",
                     r->o->cmp_base, "n", (json_int_t)s->n, "geomean", jnum(s->gm), "ci",
                     jpair(s->lo, s->hi, s->has_ci), "verdict", s->verdict);
}

static json_t *
names(const struct il_opts *o)
{
    json_t *a = json_array();
    for (size_t j = 0; j < o->nlevels; j++)
        json_array_append_new(a, json_string(o->levels[j]));
    return a;
}

static json_t *
levels(const struct il_report *r)
{
    const struct il_levels *lv = &r->lv;
    json_t *o = json_object(), *reps = json_array(), *s2 = json_array(), *t2 = json_array(),
           *share = json_array();
    for (size_t j = 0; j < lv->n; j++) {
        size_t i = lv->n - 1 - j;
        json_array_append_new(reps, json_integer((json_int_t)lv->r[i]));
        json_array_append_new(s2, jnum(lv->S2[i]));
        json_array_append_new(t2, jnum(lv->T2[i]));
        json_array_append_new(share, jnum(lv->share[i]));
    }
    set(o, "names", names(r->o));
    set(o, "reps", reps);
    set(o, "S2", s2);
    set(o, "T2", t2);
    set(o, "share", share);
    set(o, "mean", jnum(lv->mean));
    set(o, "ci", jpair(lv->lo, lv->hi, lv->has_ci));
    return o;
}

static json_t *
plan(const struct il_report *r)
{
    size_t n = r->lv.n;
    json_t *o = json_object(), *reps = json_array(), *costs = json_array();
    for (size_t j = 0; j < n; j++) {
        size_t i = n - 1 - j;
        json_t *v;
        if (j == 0)
            v = r->has_top ? json_integer(r->reps[i]) : json_null();
        else
            v = r->has_plan && r->reps[i] > 0 ? json_integer(r->reps[i]) : json_null();
        json_array_append_new(reps, v);
        json_array_append_new(costs, r->has_plan ? jnum(r->cost[i]) : json_null());
    }
    set(o, "levels", names(r->o));
    set(o, "costs", costs);
    set(o, "cost_measured", json_boolean(r->c1_measured));
    set(o, "reps", reps);
    set(o, "target", r->o->target > 0 ? jnum(r->o->target) : json_null());
    return o;
}

void
il_out_json(FILE *fp, const struct il_report *r)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    json_t *root = json_object();
    static const char *const tools[] = {"report", "plan", "plot"};
    set(root, "tool", json_string(tools[o->tool]));
    set(root, "metric", json_string(o->sel.metric));
    set(root, "unit", json_string(il_metric_unit(o->sel.metric, o->sel.kind)));
    set(root, "subtract_floor", json_boolean(o->sel.subtract_floor));
    set(root, "input",
        json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "files", (json_int_t)d->files,
                  "lines", (json_int_t)d->lines, "records", (json_int_t)d->records, "selected",
                  (json_int_t)d->selected, "used", (json_int_t)d->n, "malformed",
                  (json_int_t)d->malformed, "not_records", (json_int_t)d->notrecord, "unsupported",
                  (json_int_t)d->unsupported, "missing", (json_int_t)d->missing, "no_floor",
                  (json_int_t)d->nofloor));
    set(root, "groups", groups(r));
    if (o->cmp_label) {
        set(root, "comparisons", comparisons(r));
        json_t *su = json_array();
        for (size_t i = 0; i < r->nsuite; i++)
            json_array_append_new(su, suite_obj(r, &r->suite[i]));
        if (r->nsuite == 1)
            set(root, "suite", suite_obj(r, &r->suite[0]));
        set(root, "suites", su);
    }
    if (r->has_levels)
        set(root, "levels", levels(r));
    if (o->tool == IL_TOOL_PLAN)
        set(root, "plan", plan(r));
    if (r->has_boot)
        set(root, "bootstrap",
            json_pack("{s:I,s:I,s:o,s:o,s:o}", "replicates", (json_int_t)o->boot, "seed",
                      (json_int_t)o->seed, "mean", jnum(r->bmean), "sd", jnum(r->bsd), "ci",
                      jpair(r->blo, r->bhi, 1)));
    const char *const *w;
    size_t nw = il_warnings(&w);
    json_t *wa = json_array();
    for (size_t i = 0; i < nw; i++)
        json_array_append_new(wa, json_string(w[i]));
    set(root, "warnings", wa);
    if (json_dumpf(root, fp, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12)) < 0)
        errx(1, "cannot write the JSON output");
    fputc('\n', fp);
    json_decref(root);
}
