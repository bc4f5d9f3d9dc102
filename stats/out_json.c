/*
 * out_json.c: the report as one JSON object (built with jansson), schema
 * interloper-report/1.  Field names are a contract, like the record
 * schema: add, never rename; those readers use are declared in
 * include/il_report.h.  Every field is described in interloper-report(1).  Doubles are written so
 * that they read back as the same double (17 significant digits); counts that are integers stay
 * integers, exact up to 2^63. schema, tool, metric, unit, subtract_floor, estimator, direction,
 * design, input groups[].{labels,n,mean,sd,median,min,max,cv,estimate,ci,ci_method,
 *             ci_df,skewness,diag,levels,setup_effect}
 *   comparisons[].{labels,baseline_labels,value,baseline,ratio,ci_kind,ci,
 *                  ci_outside,df,ci_method,p,p_holm,n,n_baseline,setups_paired,
 *                  setups_unpaired,flat,setups,setup_variance,verdict}
 *       ratio = value / baseline (baseline / value with --speedup);
 *       ci is [lo, hi] only when ci_kind is "bounded", else null;
 *       ci_outside is [lo, hi] for "exclusive": the set is <= lo or >= hi;
 *       ci_kind "none" when there is no interval at all
 *   suite.{value,baseline,n,geomean,ci,ci_benchmarks,passes,shared_setups,verdict},
 *   suites[]
 *   levels.{names,reps,S2,T2,share,mean,ci}, highest level first
 *   plan.{levels,costs,cost_measured,reps,target,assurance,estimable,
 *         pilot_needed}; reps follows levels and its top entry is the count
 *       for --target, or null without one; assurance.{design,lower_counts,
 *       probability,asked,expected_reps,expected_probability,s2} or null;
 *       pilot_needed.{reps,sd,probability} when estimable is false
 *   bootstrap.{replicates,seed,mean,sd,ci}
 *   attribution[] with --attribute (out_attrib.c)
 *   warnings[]
 */
#include <err.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_report.h"
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

/* A missing label is null, so that it differs from a value "(none)". */
static json_t *
labels(const struct il_report *r, const uint32_t *key)
{
    json_t *o = json_object();
    for (size_t i = 0; i < r->gs.nkey; i++)
        set(o, r->d.slot_name[r->gs.slot[i]],
            key[i] == IL_MISSING_ID ? json_null() : json_string(il_str(&r->d.st, key[i])));
    return o;
}

static json_t *
jint_or(int exact, int64_t i, double x)
{
    return exact ? json_integer((json_int_t)i) : jnum(x);
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

static json_t *levels(const struct il_report *r, const struct il_levels *lv);

/* groups[].setup_effect (setupfx.c). */
static json_t *
setup_effect(const struct il_report *r, const struct il_gsetups *s)
{
    const struct il_opts *o = r->o;
    json_t *j = json_object(), *a = json_array(), *out = json_array();
    int tau = s->has_tau && s->het.has_tau_ci;
    set(j, "setups", json_integer((json_int_t)s->k));
    set(j, "center", jnum(s->center));
    set(j, "test",
        s->has_test
            ? json_string(o->est.kind == IL_EST_MEAN ? "permutation of Cochran's Q across setups"
                                                     : "permutation of the spread across setups")
            : json_null());
    char ex[512];
    il_exch_group_text(o, s, ex, sizeof ex);
    char sh[256];
    snprintf(sh, sizeof sh, "within %s", o->passes ? o->passes : "pass");
    set(j, "shuffle", s->has_test ? json_string(s->blocked ? sh : "free") : json_null());
    set(j, "exchange", s->has_test ? json_string(il_exch_group(s)) : json_null());
    set(j, "exchangeable", s->has_test ? json_string(ex) : json_null());
    set(j, "passes", s->has_test && s->blocked ? json_integer((json_int_t)s->passes) : json_null());
    set(j, "setups_left_out", json_integer((json_int_t)s->left_out));
    set(j, "why_no_test", !s->has_test && s->why ? json_string(s->why) : json_null());
    set(j, "p", s->has_test ? jnum(s->p) : json_null());
    set(j, "q", s->has_tau ? jnum(s->het.q) : json_null());
    set(j, "i2", s->has_tau ? jnum(s->het.i2) : json_null());
    set(j, "tau", s->has_tau ? jnum(sqrt(s->het.tau2)) : json_null());
    set(j, "tau_ci", jpair(sqrt(s->het.tau2_lo), sqrt(s->het.tau2_hi), tau));
    set(j, "tau2", s->has_tau ? jnum(s->het.tau2) : json_null());
    set(j, "tau2_ci", jpair(s->het.tau2_lo, s->het.tau2_hi, tau));
    set(j, "tau_ci_method",
        tau ? json_string(s->calibrated ? "Q-profile at the shuffles' quantiles of Q"
                                        : "Q-profile at chi-squared quantiles")
            : json_null());
    set(j, "tau_setups_left_out", json_integer((json_int_t)s->tau_left_out));
    set(j, "why_no_tau", !s->has_tau && s->tau_why ? json_string(s->tau_why) : json_null());
    set(j, "why_no_tau_ci",
        s->has_tau && !tau && s->tau_ci_why ? json_string(s->tau_ci_why) : json_null());
    for (size_t u = 0; u < s->k; u++) {
        json_t *e = json_object();
        set(e, "setup", json_string(il_str(&r->d.st, s->setup[u])));
        set(e, "n", json_integer((json_int_t)s->n[u]));
        set(e, "estimate", jnum(s->est[u]));
        set(e, "z", jnum(s->z[u]));
        /* null where the stand-outs were not tested: the group's test
         * did not run, or left this setup of one run out */
        int tested = s->has_test && s->n[u] >= 2;
        set(e, "stands_out", tested ? json_boolean(s->out && s->out[u]) : json_null());
        if (!tested) /* only beside a null, as it says why */
            set(e, "why_no_stand_out",
                s->has_test ? json_string("one run: the group's test left it out")
                : s->why    ? json_string(s->why)
                            : json_string("no test"));
        if (s->out && s->out[u])
            json_array_append_new(out, json_string(il_str(&r->d.st, s->setup[u])));
        json_array_append_new(a, e);
    }
    if (s->has_test) {
        set(j, "stand_out", out);
    } else {
        json_decref(out);
        set(j, "stand_out", json_null());
    }
    set(j, "per_setup", a);
    return j;
}

static json_t *
groups(const struct il_report *r)
{
    json_t *a = json_array();
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_summary *s = &r->sum[g];
        json_t *o = json_object();
        set(o, IL_R_LABELS, labels(r, r->gs.g[g].key));
        set(o, IL_R_N, json_integer((json_int_t)s->n));
        set(o, "mean", jint_or(s->exact && s->mean_exact, s->imean, s->mean));
        set(o, "sd", s->has_sd ? jnum(s->sd) : json_null());
        set(o, IL_R_MEDIAN, jnum(s->median));
        set(o, IL_R_MIN, jint_or(s->exact, s->imin, s->min));
        set(o, IL_R_MAX, jint_or(s->exact, s->imax, s->max));
        set(o, "cv", s->has_sd ? jnum(s->cv) : json_null());
        /* the flat mean is the mean, to the last digit of an integer */
        int same = r->o->est.kind == IL_EST_MEAN && r->o->design == IL_D_FLAT;
        set(o, IL_R_ESTIMATE, jint_or(same && s->exact && s->mean_exact, s->imean, s->est));
        set(o, IL_R_CI, jpair(s->est_lo, s->est_hi, s->has_est_ci));
        set(o, IL_R_CI_METHOD, json_string(s->ci_method ? s->ci_method : "none"));
        set(o, "ci_df", s->has_est_ci ? jnum(s->ci_df) : json_null());
        set(o, "skewness", jnum(s->skew));
        set(o, "diag", diag(&r->diag[g]));
        if (r->glv)
            set(o, "levels", levels(r, &r->glv[g]));
        if (r->gsu)
            set(o, "setup_effect", setup_effect(r, &r->gsu[g]));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *
het(const struct il_opts *op, const struct il_setups *s)
{
    json_t *o = json_object();
    if (!s->has_het) {
        /* the test could not run: why, and what it would need */
        if (!s->het_why) {
            json_decref(o);
            return json_null();
        }
        set(o, IL_R_P, json_null());
        set(o, IL_R_WHY, json_string(s->het_why));
        return o;
    }
    char ex[512];
    il_exch_cmp_text(op, s, ex, sizeof ex);
    set(o, "test",
        json_string(s->exch_blocks ? (s->est_mean ? "permutation of Cochran's Q of the blocks' "
                                                    "contrasts within (setup, pass) blocks"
                                                  : "permutation of the spread of the blocks' "
                                                    "median contrasts within (setup, pass) blocks")
                    : s->est_mean  ? "permutation of Cochran's Q within setups"
                                   : "permutation of the spread within setups"));
    set(o, "exchange", json_string(il_exch_cmp(s)));
    set(o, "exchangeable", json_string(ex));
    set(o, "passes", s->exch_blocks ? json_integer((json_int_t)s->passes) : json_null());
    set(o, "blocks", s->exch_blocks ? json_integer((json_int_t)s->blocks) : json_null());
    set(o, "runs_left_out",
        s->exch_blocks ? json_integer((json_int_t)s->block_left_out) : json_null());
    set(o, "q", jnum(s->het.q));
    set(o, "df1", jnum(s->het.df1));
    set(o, "df2", jnum(s->het.df2));
    set(o, IL_R_P, jnum(s->het.p));
    set(o, IL_R_WHY, json_null());
    set(o, "i2", jnum(s->het.i2));
    set(o, "tau", !s->het.has_tau_ci ? json_null() : jnum(sqrt(s->het.tau2)));
    set(o, "tau_ci", jpair(sqrt(s->het.tau2_lo), sqrt(s->het.tau2_hi), s->het.has_tau_ci));
    set(o, "tau_ci_method",
        !s->het.has_tau_ci  ? json_null()
        : s->tau_calibrated ? json_string("Q-profile at the shuffles' quantiles of Q")
        : s->tau_f          ? json_string("Q-profile at F quantiles (the pooled variance's df2)")
                            : json_string("Q-profile at chi-squared quantiles"));
    set(o, "why_no_tau_ci",
        !s->het.has_tau_ci && s->tau_ci_why ? json_string(s->tau_ci_why) : json_null());
    return o;
}

static json_t *
per_setup(const struct il_report *r, const struct il_setups *s)
{
    const struct il_opts *o = r->o;
    json_t *a = json_array();
    for (size_t u = 0; u < s->n; u++) {
        json_t *e = json_object(), *lab = json_object();
        const char *id = il_str(&r->d.st, s->setup[u]);
        set(lab, o->d_label[0], json_string(il_str(&r->d.st, s->sa[u])));
        if (o->design == IL_D_CROSSED)
            set(lab, o->d_label[1], json_string(il_str(&r->d.st, s->sb[u])));
        set(e, "setup", json_string(id));
        set(e, "labels", lab);
        set(e, "ratio", jnum(s->ratio[u]));
        set(e, "ci", jpair(s->lo[u], s->hi[u], isfinite(s->lo[u])));
        set(e, "ci_adjusted", jpair(s->alo[u], s->ahi[u], isfinite(s->alo[u])));
        char why[320];
        if (!isfinite(s->lo[u])) { /* beside the nulls only */
            il_setup_ci_why(o, s, u, 0, why, sizeof why);
            set(e, "why_no_ci", json_string(why));
        }
        if (!isfinite(s->alo[u])) {
            il_setup_ci_why(o, s, u, 1, why, sizeof why);
            set(e, "why_no_ci_adjusted", json_string(why));
        }
        set(e, "n", json_integer((json_int_t)s->na[u]));
        set(e, "n_baseline", json_integer((json_int_t)s->nb[u]));
        json_array_append_new(a, e);
    }
    return a;
}

static json_t *
setups(const struct il_report *r, const struct il_setups *s)
{
    const struct il_opts *o = r->o;
    json_t *j = json_object();
    set(j, "n", json_integer((json_int_t)s->n));
    set(j, "unpaired", json_integer((json_int_t)s->unpaired));
    set(j, "min", jnum(s->min));
    set(j, "median", jnum(s->median));
    set(j, "max", jnum(s->max));
    set(j, IL_R_STRADDLES_ONE, json_boolean(s->straddles));
    set(j, IL_R_STRADDLES_ONE_TESTED, json_boolean(s->straddle_tested));
    set(j, IL_R_STRADDLES_ONE_WHY, *s->straddle_why ? json_string(s->straddle_why) : json_null());
    set(j, "adjusted_setups", json_integer((json_int_t)s->adj_setups));
    set(j, "raw_straddles_one", json_boolean(s->raw_straddles));
    set(j, "above_one", json_integer((json_int_t)s->above));
    set(j, "below_one", json_integer((json_int_t)s->below));
    set(j, "geomean", jnum(s->gm));
    set(j, "geomean_ci", jpair(s->gm_lo, s->gm_hi, s->has_gm_ci));
    set(j, "mean", jnum(s->mean));
    set(j, "ci", jpair(s->lo_mean, s->hi_mean, s->has_ci));
    if (!s->has_ci || !s->has_gm_ci) /* beside the nulls only */
        set(j, "why_no_ci",
            json_string(s->n < 2 ? "one setup: an interval over setups needs two at least"
                                 : "the setups' ratios give no interval over setups (too few "
                                   "crossed cells, or no spread)"));
    set(j, "heterogeneity", het(o, s));
    if (s->has_shares) {
        json_t *sh = json_object();
        set(sh, o->d_label[0], jnum(s->share[0]));
        set(sh, o->d_label[1], jnum(s->share[1]));
        set(sh, "residual", jnum(s->share[2]));
        set(j, "shares", sh);
    } else {
        set(j, "shares", json_null());
    }
    set(j, "per_setup", per_setup(r, s));
    return j;
}

static const char *const kinds[] = {IL_R_BOUNDED, IL_R_EXCLUSIVE, IL_R_UNBOUNDED};

static json_t *
flat(const struct il_cmp *c)
{
    if (!c->has_flat)
        return json_null();
    const struct il_fieller *f = &c->flat;
    json_t *o = json_object();
    set(o, "ci_kind", json_string(kinds[f->kind]));
    set(o, "ci", jpair(f->lo, f->hi, f->kind == IL_CI_BOUNDED));
    set(o, "ci_outside", jpair(f->lo, f->hi, f->kind == IL_CI_EXCLUSIVE));
    set(o, "df", jnum(f->df));
    return o;
}

static json_t *
comparisons(const struct il_report *r)
{
    json_t *a = json_array();
    for (size_t i = 0; i < r->ncmp; i++) {
        const struct il_cmp *c = &r->cmp[i];
        json_t *o = json_object();
        set(o, IL_R_LABELS, labels(r, r->gs.g[c->g].key));
        set(o, IL_R_BASELINE_LABELS, labels(r, r->gs.g[c->base].key));
        set(o, IL_R_VALUE, jnum(c->value));
        set(o, IL_R_BASELINE, jnum(c->baseline));
        set(o, IL_R_RATIO, jnum(c->f.ratio));
        set(o, IL_R_CI_KIND, json_string(c->few ? IL_R_NONE : kinds[c->f.kind]));
        set(o, IL_R_CI, jpair(c->f.lo, c->f.hi, !c->few && c->f.kind == IL_CI_BOUNDED));
        set(o, IL_R_CI_OUTSIDE, jpair(c->f.lo, c->f.hi, !c->few && c->f.kind == IL_CI_EXCLUSIVE));
        set(o, "df", c->few ? json_null() : jnum(c->f.df));
        set(o, IL_R_CI_METHOD, json_string(c->method));
        set(o, "p", c->has_p ? jnum(c->p) : json_null());
        set(o, "p_holm", c->holm ? jnum(c->p_holm) : json_null());
        set(o, IL_R_N, json_integer((json_int_t)r->gs.g[c->g].n));
        set(o, "n_baseline", json_integer((json_int_t)r->gs.g[c->base].n));
        set(o, "setups_paired",
            r->o->design != IL_D_FLAT ? json_integer((json_int_t)c->paired) : json_null());
        set(o, "setups_unpaired",
            r->o->design != IL_D_FLAT ? json_integer((json_int_t)c->unpaired) : json_null());
        set(o, "flat", flat(c));
        set(o, IL_R_SETUPS, c->has_setups ? setups(r, &c->su) : json_null());
        if (!c->has_setups)
            set(o, IL_R_SETUPS_WHY, json_string(c->setups_why));
        set(o, "setup_variance",
            c->has_svr ? json_pack("{s:o,s:o}", "ratio", jnum(c->svr), "ci",
                                   json_pack("[oo]", jnum(c->svr_lo),
                                             isfinite(c->svr_hi) ? jnum(c->svr_hi) : json_null()))
                       : json_null());
        if (!c->has_svr && c->svr_why)
            set(o, "why_no_setup_variance", json_string(c->svr_why));
        set(o, IL_R_VERDICT, json_string(c->verdict));
        json_array_append_new(a, o);
    }
    return a;
}

static json_t *
suite_obj(const struct il_report *r, const struct il_suite *s)
{
    json_t *o = json_object();
    set(o, "value", json_string(il_str(&r->d.st, s->value)));
    set(o, "baseline", json_string(r->o->cmp_base));
    set(o, "n", json_integer((json_int_t)s->n));
    set(o, "geomean", jnum(s->gm));
    set(o, "ci", jpair(s->lo, s->hi, s->has_ci));
    set(o, "ci_benchmarks", jpair(s->blo, s->bhi, s->has_bci));
    if (s->has_passes) {
        /* the harness's passes (suitepass.c); absent without them */
        json_t *p = json_object(), *per = json_array();
        set(p, "value", json_integer((json_int_t)s->pass_a));
        set(p, "baseline", json_integer((json_int_t)s->pass_b));
        set(p, "benchmarks", json_integer((json_int_t)s->pass_m));
        for (size_t j = 0; j < s->npass_ratio; j++)
            json_array_append_new(per, jnum(s->pass_ratio[j]));
        set(p, "ratio_per_pass", per);
        set(p, "geomean", s->npass_ratio ? jnum(s->pass_gm) : json_null());
        set(p, "ci", jpair(s->pass_lo, s->pass_hi, s->has_pass_ci));
        set(p, "df", s->has_pass_ci ? jnum(s->pass_df) : json_null());
        set(p, "shift_f", s->has_pass_f ? jnum(s->pass_f) : json_null());
        set(p, "shift_df", s->has_pass_f ? json_pack("[oo]", jnum(s->pass_df1), jnum(s->pass_df2))
                                         : json_null());
        set(p, "shift_p", s->has_pass_f ? jnum(s->pass_p) : json_null());
        set(o, "passes", p);
    }
    if (s->shared) {
        /* setups shared by the benchmarks (suiteshare.c); absent without */
        json_t *h = json_object();
        char lab[160];
        il_shared_what(lab, sizeof lab, r->o);
        set(h, "setups", json_integer((json_int_t)s->sh_k));
        set(h, "what", json_string(lab));
        set(h, "unit", json_boolean(s->shared == 1));
        set(h, "why_not", s->shared == 2 ? json_string(s->sh_why) : json_null());
        set(h, "df", s->shared == 1 ? jnum(s->sh_df) : json_null());
        set(h, "df_benchmarks", s->shared == 1 ? jnum(s->sh_bdf) : json_null());
        set(h, "ci_independent",
            jpair(s->ind_lo, s->ind_hi, s->shared == 1 && s->ind_has_ci));
        set(h, "ci_benchmarks_independent",
            jpair(s->ind_blo, s->ind_bhi, s->shared == 1 && s->ind_has_bci));
        set(o, "shared_setups", h);
    }
    set(o, "verdict", json_string(s->verdict));
    return o;
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
levels(const struct il_report *r, const struct il_levels *lv)
{
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

/* plan.assurance: the design --target refers to, highest first, and the
 * probability that it reaches the target; null without --target. */
static json_t *
assurance(const struct il_report *r)
{
    const struct il_assure *a = &r->as;
    size_t n = r->lv.n;
    if (!r->has_top)
        return json_null();
    json_t *o = json_object(), *d = json_array();
    for (size_t j = 0; j < n; j++)
        json_array_append_new(d, json_integer(a->design[n - 1 - j]));
    set(o, "design", d);
    set(o, "lower_counts", json_string(a->initial ? "initial" : "optimal"));
    set(o, "probability", jnum(a->p));
    set(o, "asked", r->o->assurance > 0 ? jnum(r->o->assurance) : json_null());
    set(o, "expected_reps", json_integer(a->expected));
    set(o, "expected_probability", jnum(a->p_expected));
    set(o, "s2", jnum(a->s2));
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
    set(o, "assurance", assurance(r));
    set(o, "estimable", json_boolean(!r->as.no_estimate));
    json_t *need = json_null();
    if (r->as.no_estimate) {
        need = json_object();
        set(need, "reps", r->as.pilot_need ? json_integer(r->as.pilot_need) : json_null());
        set(need, "sd", jnum(r->as.pilot_sd));
        set(need, "probability", jnum(IL_PILOT_CONF));
    }
    set(o, "pilot_needed", need);
    return o;
}

/*
 * jansson writes reals with a fixed number of digits; 17 always read back
 * as the same double but print 9.8 as 9.8000000000000007.  So the dumped
 * text is copied with every real rewritten as the shortest text that
 * reads back as the same double (il_fmt_exact), strings untouched.
 */
static void
shortest(FILE *fp, const char *s)
{
    while (*s) {
        if (*s == '"') {
            fputc(*s++, fp);
            while (*s && *s != '"') {
                if (*s == '\\' && s[1])
                    fputc(*s++, fp);
                fputc(*s++, fp);
            }
            if (*s)
                fputc(*s++, fp);
            continue;
        }
        if (*s == '-' || (*s >= '0' && *s <= '9')) {
            size_t n = strspn(s, "+-0123456789.eE");
            char tok[64], out[64];
            int real = 0;
            if (n < sizeof tok) {
                memcpy(tok, s, n);
                tok[n] = '\0';
                real = strpbrk(tok, ".eE") != NULL;
            }
            if (real) {
                il_fmt_exact(out, sizeof out, strtod(tok, NULL));
                /* still a real: 7 -> 7.0 */
                if (!strpbrk(out, ".eEni"))
                    strcat(out, ".0");
                fputs(out, fp);
            } else {
                fwrite(s, 1, n, fp);
            }
            s += n;
            continue;
        }
        fputc(*s++, fp);
    }
}

static json_t *
design(const struct il_opts *o)
{
    static const char *const dk[] = {"none", "setups", "crossed"};
    json_t *d = json_object(), *l = json_array();
    set(d, "kind", json_string(dk[o->design]));
    if (o->design != IL_D_FLAT)
        for (size_t i = 0; i < (o->design == IL_D_CROSSED ? 2u : 1u); i++)
            json_array_append_new(l, json_string(o->d_label[i]));
    set(d, "labels", l);
    return d;
}

void
il_out_json(FILE *fp, const struct il_report *r)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    json_t *root = json_object(), *in = json_object();
    static const char *const tools[] = {"report", "plan", "plot"};
    set(root, IL_R_SCHEMA, json_string(IL_REPORT_SCHEMA));
    set(root, IL_R_TOOL, json_string(tools[o->tool]));
    set(root, IL_R_METRIC, json_string(o->sel.metric));
    set(root, IL_R_UNIT, json_string(il_sel_unit(&o->sel)));
    set(root, IL_R_SUBTRACT_FLOOR, json_boolean(o->sel.subtract_floor));
    set(root, IL_R_ESTIMATOR, json_string(o->est.name));
    if (o->sub_label)
        set(root, IL_R_SUBTRACTED,
            json_pack("{s:s,s:s,s:f,s:I}", "label", o->sub_label, "value", o->sub_value, "mean",
                      d->sub_mean, "runs", (json_int_t)d->sub_runs));
    set(root, IL_R_DIRECTION, json_string(o->speedup ? "baseline/value" : "value/baseline"));
    set(root, IL_R_DESIGN, design(o));
    set(in, "files", json_integer((json_int_t)d->files));
    set(in, "lines", json_integer((json_int_t)d->lines));
    set(in, "records", json_integer((json_int_t)d->records));
    set(in, "selected", json_integer((json_int_t)d->selected));
    set(in, "used", json_integer((json_int_t)d->n));
    set(in, "malformed", json_integer((json_int_t)d->malformed));
    set(in, "not_records", json_integer((json_int_t)d->notrecord));
    set(in, "sweep_lines", json_integer((json_int_t)d->sweep_lines));
    set(in, "unsupported", json_integer((json_int_t)d->unsupported));
    set(in, "missing", json_integer((json_int_t)d->missing));
    set(in, "no_floor", json_integer((json_int_t)d->nofloor));
    set(in, "warmup", json_integer((json_int_t)d->warmup));
    set(in, "warmup_kept", json_boolean(o->sel.include_warmup));
    set(in, "failed", json_integer((json_int_t)d->failed));
    set(in, "failed_kept", json_boolean(o->include_failed));
    set(in, "per", o->per ? json_string(o->per) : json_null());
    set(in, "per_records", o->per ? json_integer((json_int_t)d->per_records) : json_null());
    if (d->folded) /* absent where no record was (the outputs before it) */
        set(in, "exec_folded", json_integer((json_int_t)d->folded));
    if (d->superseded) /* likewise */
        set(in, "exec_superseded", json_integer((json_int_t)d->superseded));
    set(in, "multiplexed", json_integer((json_int_t)d->multiplexed));
    set(in, "multiplexed_min_fraction", d->multiplexed ? jnum(d->mux_frac) : json_null());
    set(in, "scaled", json_boolean(o->sel.scale && d->multiplexed));
    set(root, IL_R_INPUT, in);
    set(root, IL_R_GROUPS, groups(r));
    if (o->cmp_label) {
        set(root, IL_R_COMPARISONS, comparisons(r));
        json_t *su = json_array();
        for (size_t i = 0; i < r->nsuite; i++)
            json_array_append_new(su, suite_obj(r, &r->suite[i]));
        if (r->nsuite == 1)
            set(root, IL_R_SUITE, suite_obj(r, &r->suite[0]));
        set(root, IL_R_SUITES, su);
    }
    if (r->has_levels && r->gs.ng == 1)
        set(root, IL_R_LEVELS, levels(r, &r->lv));
    if (o->tool == IL_TOOL_PLAN)
        set(root, IL_R_PLAN, plan(r));
    if (o->attribute)
        set(root, IL_R_ATTRIBUTION, il_attr_json(r));
    if (r->has_boot)
        set(root, IL_R_BOOTSTRAP,
            json_pack("{s:I,s:I,s:o,s:o,s:o}", "replicates", (json_int_t)o->boot, "seed",
                      (json_int_t)o->seed, "mean", jnum(r->bmean), "sd", jnum(r->bsd), "ci",
                      jpair(r->blo, r->bhi, 1)));
    const char *const *w;
    size_t nw = il_warnings(&w);
    json_t *wa = json_array();
    for (size_t i = 0; i < nw; i++)
        json_array_append_new(wa, json_string(w[i]));
    set(root, IL_R_WARNINGS, wa);
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    if (!text)
        errx(1, "cannot write the JSON output");
    shortest(fp, text);
    fputc('\n', fp);
    free(text);
    json_decref(root);
}
