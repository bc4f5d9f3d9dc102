/*
 * comparisons.c: comparisons of a value with a baseline.
 *
 * The headline interval (JSON comparisons[].ci, the table and the verdict)
 * respects the design when the command names it (--setup, or --levels):
 *   - setups measured on both sides are paired, and Fieller's interval is
 *     taken over the setup estimates with their covariance (design.c;
 *     Kalibera & Jones section 9.3, the variance at the highest level);
 *   - setups measured on one side only are left out of the pairing, and
 *     when no setup is shared the two sets of setup estimates are compared
 *     as independent samples (Welch's df at the estimated ratio);
 *   - without a design the runs are taken as independent (Fieller with
 *     Welch's df at the estimated ratio, or --pooled), and the report says
 *     that this is what the interval assumes.
 * Quantile estimators use the same forms on per-setup quantiles, and a
 * percentile bootstrap (runs resampled within each side) without a design.
 *
 * The per-setup view (Mytkowicz et al., section 7.1.2, Fig. 2b/3b) gives
 * each setup's ratio its interval, tests whether they differ more than
 * run-to-run noise explains (Cochran's Q against pooled within-setup
 * variances; a within-setup permutation test for quantiles), and says
 * "one setup alone could have shown either conclusion" only when that
 * test rejects and, with intervals adjusted for the number of setups
 * (Bonferroni), some setups lie wholly above 1 and others wholly below.
 * Its summary is the geometric mean of the per-setup ratios with a t
 * interval in log space (Heiser: normalised numbers are averaged
 * geometrically); the arithmetic mean stays as a labelled extra.
 *
 * Over a suite (--by bench), the geometric mean of the per-benchmark
 * ratios gets two intervals: one from the uncertainty of each benchmark's
 * ratio (these benchmarks), one from their spread (benchmarks like these);
 * and the per-benchmark verdicts are adjusted for the number compared
 * (Holm 1979).
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_prng.h"
#include "il_report.h"
#include "il_stats.h"

/* A stream of --seed for the contrasts' intervals (robust.c, setupfx.c and
 * perm.c use 101 to 107). */
enum { IL_STREAM_CONTRAST = 108 };

/* What to do when the runs of --subtract took as long as the measured
 * ones (the refusal of a ratio, and a withheld per-setup view, say it). */
#define SUBTRACT_FIX                                                                               \
    "measure commands that take far longer than them, a metric that does not count waiting "       \
    "(task-clock, recorded with -e task-clock), or leave out --subtract"

#define IL_PERM 999     /* permutations of the per-setup test for quantiles */
#define IL_FEW_BLOCKS 5 /* a setup's blocks below which its intervals widen */

/* The most decimals a percentage gets: a double's 16 digits, less the two
 * before the point. */
#define IL_PCT_DECIMALS 13

/* Decimals of a percentage change pct (> 0): one, or as many as give two
 * significant digits of a change too small to show at one (0.00000035%:
 * counters with a CV of 1e-9 tell such changes apart). */
static int
pct_decimals(double pct)
{
    if (!(pct > 0) || pct >= 0.05)
        return 1;
    int d = (int)ceil(-log10(pct)) + 1;
    return d < IL_PCT_DECIMALS ? d : IL_PCT_DECIMALS;
}

/* x as a change in words with d decimals of a percentage (d + 2 of a
 * speedup), or as many as pct_decimals gives when d is 0. */
static void
change_d(char *buf, size_t n, double x, int timey, int speedup, int d)
{
    int a = pct_decimals(fabs(x - 1) * 100);
    if (d < a)
        d = a;
    if (speedup)
        snprintf(buf, n, "speedup %.*f", d + 2, x);
    else if (x < 1)
        snprintf(buf, n, "%.*f%% %s", d, (1 - x) * 100, timey ? "faster" : "lower");
    else if (x > 1)
        snprintf(buf, n, "%.*f%% %s", d, (x - 1) * 100, timey ? "slower" : "higher");
    else
        snprintf(buf, n, "no change");
}

void
il_change(char *buf, size_t n, double x, int timey, int speedup)
{
    if (speedup && pct_decimals(fabs(x - 1) * 100) == 1)
        snprintf(buf, n, "speedup %.4g", x);
    else
        change_d(buf, n, x, timey, speedup, 0);
}

/* Percentages with as many decimals (1 to IL_PCT_DECIMALS) as keep the
 * two ends apart. */
static int
decimals(double a, double b)
{
    char x[64], y[64];
    for (int d = 1; d < IL_PCT_DECIMALS; d++) {
        snprintf(x, sizeof x, "%.*f", d, a * 100);
        snprintf(y, sizeof y, "%.*f", d, b * 100);
        if (strcmp(x, y) != 0)
            return d;
    }
    return IL_PCT_DECIMALS;
}

/* "95% CI [0.4%, 1.0%]" in the words of the estimate, or the two ends in
 * words when the interval includes no change. */
static int
ci_decimals(double est, double lo, double hi)
{
    int d = decimals(lo, hi), de = pct_decimals(fabs(est - 1) * 100);
    return de > d ? de : d;
}

static void
ci_words(char *buf, size_t n, double est, double lo, double hi, int timey, int speedup)
{
    char a[64], b[64];
    int d = ci_decimals(est, lo, hi);
    if (lo <= 0 && est > 0) {
        /* Fieller's bounded interval reaches below a ratio of 0 when the
         * numerator's mean is not clearly above 0: its lower end is no
         * time ("120.6% faster"), so it is said in words, as an
         * exclusive or unbounded set is (outside12 F12); the JSON keeps
         * the number */
        const char *num = speedup ? "the baseline" : "the value";
        if (speedup)
            snprintf(b, sizeof b, "%.*f", d + 2, hi);
        else
            il_change(b, sizeof b, hi, timey, 0);
        snprintf(buf, n, "95%% CI from a ratio below zero to %s (%s%s is not clearly above zero)",
                 b, hi < 1 ? "" : "no difference can be claimed; ", num);
    } else if (speedup && (hi < 1 || lo > 1))
        snprintf(buf, n, "95%% CI [%.*f, %.*f]", d + 2, lo, d + 2, hi);
    else if (speedup)
        snprintf(buf, n, "95%% CI [%.*f, %.*f] (no difference can be claimed)", d + 2, lo, d + 2,
                 hi);
    else if (hi < 1 && est < 1)
        snprintf(buf, n, "95%% CI [%.*f%%, %.*f%%]", d, (1 - hi) * 100, d, (1 - lo) * 100);
    else if (lo > 1 && est > 1)
        snprintf(buf, n, "95%% CI [%.*f%%, %.*f%%]", d, (lo - 1) * 100, d, (hi - 1) * 100);
    else {
        il_change(a, sizeof a, lo, timey, 0);
        il_change(b, sizeof b, hi, timey, 0);
        snprintf(buf, n, "95%% CI from %s to %s (no difference can be claimed)", a, b);
    }
}

static const char *
design_name(const struct il_opts *o, char *buf, size_t n)
{
    if (o->design == IL_D_CROSSED)
        snprintf(buf, n, "%s x %s", o->d_label[0], o->d_label[1]);
    else
        snprintf(buf, n, "%s", o->d_label[0]);
    return buf;
}

static char *
verdict_cmp(const struct il_report *r, const struct il_cmp *c)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    int timey = il_sel_is_time(&o->sel), sp = o->speedup;
    const char *val = il_str(&d->st, r->gs.g[c->g].key[r->cmp_pos]);
    char head[512], est[64], ci[256], lo[64], hi[64], dn[128], out[2048], tail[1024] = "";
    size_t t = 0;
    if (strcmp(c->unit, "all") == 0)
        snprintf(head, sizeof head, "%s vs %s", val, o->cmp_base);
    else
        snprintf(head, sizeof head, "%s vs %s (%s)", val, o->cmp_base, c->unit);
    size_t ny = r->gs.g[c->g].n, nx = r->gs.g[c->base].n;
    if (c->has_setups) {
        const struct il_setups *s = &c->su;
        int dm = decimals(s->min, s->max); /* the two ends apart */
        if (s->n == 1) {
            /* one setup: no range, and no decimals to tell ends apart */
            il_change(lo, sizeof lo, s->min, timey, sp);
            t += (size_t)snprintf(tail + t, sizeof tail - t, "; its one setup: %s", lo);
        } else if (dm > 1) {
            change_d(lo, sizeof lo, s->min, timey, sp, dm);
            change_d(hi, sizeof hi, s->max, timey, sp, dm);
        } else {
            il_change(lo, sizeof lo, s->min, timey, sp);
            il_change(hi, sizeof hi, s->max, timey, sp);
        }
        if (s->n > 1)
            t += (size_t)snprintf(tail + t, sizeof tail - t, "; single setups ranged from %s to %s",
                                  lo, hi);
        if (s->has_het && s->het.p < 0.05) {
            t += (size_t)snprintf(tail + t, sizeof tail - t,
                                  ", more than run-to-run noise explains (p = %.2g)", s->het.p);
            if (s->straddles)
                t += (size_t)snprintf(tail + t, sizeof tail - t,
                                      ", and with intervals adjusted for %zu setups some lie "
                                      "wholly above 1 and others wholly below, so one setup "
                                      "alone could have shown either conclusion",
                                      s->n);
            else if (!s->straddle_tested)
                t += (size_t)snprintf(tail + t, sizeof tail - t,
                                      "; whether one setup alone could have shown either "
                                      "conclusion could not be tested: %s",
                                      s->straddle_why);
            else
                t += (size_t)snprintf(tail + t, sizeof tail - t,
                                      ", but with intervals adjusted for %zu setups %s%s%s%s", s->n,
                                      s->above   ? "some lie wholly above 1 and none wholly below"
                                      : s->below ? "some lie wholly below 1 and none wholly above"
                                                 : "none lies wholly above or below 1",
                                      *s->straddle_why ? " (" : "", s->straddle_why,
                                      *s->straddle_why ? ")" : "");
        } else if (s->has_het) {
            t += (size_t)snprintf(tail + t, sizeof tail - t,
                                  ", a spread consistent with run-to-run noise (p = %.2g)",
                                  s->het.p);
            /* with no two setups able to lie wholly on either side of
             * 1, "no" to either conclusion was no answer (straddle_test) */
            if (!s->straddle_tested)
                t += (size_t)snprintf(tail + t, sizeof tail - t,
                                      "; whether one setup alone could have shown either "
                                      "conclusion could not be tested: %s",
                                      s->straddle_why);
        } else if (s->n >= 2) {
            t += (size_t)snprintf(tail + t, sizeof tail - t,
                                  "; whether they differ beyond run-to-run noise could not be "
                                  "tested: %s",
                                  s->het_why ? s->het_why : "no test");
        }
    }
    if (c->holm)
        snprintf(tail + t, sizeof tail - t,
                 "; adjusted for the benchmarks compared (Holm), p = %.2g: %s", c->p_holm,
                 c->holm_sig ? "significant" : "no difference can be claimed");
    if (c->few) {
        snprintf(out, sizeof out, "%s: ratio %.4g; no interval (%s)%s", head, c->f.ratio, c->method,
                 tail);
        return il_xstrdup(out);
    }
    if (c->f.kind != IL_CI_BOUNDED) {
        snprintf(out, sizeof out,
                 "%s: ratio %.4g, but no interval: the baseline is not clearly different "
                 "from zero, so the 95%% confidence set is %s%s",
                 head, c->f.ratio,
                 c->f.kind == IL_CI_EXCLUSIVE ? "two half-lines" : "the whole line", tail);
        return il_xstrdup(out);
    }
    /* the estimate with its interval's decimals, so that it reads inside it */
    if (ci_decimals(c->f.ratio, c->f.lo, c->f.hi) > 1)
        change_d(est, sizeof est, c->f.ratio, timey, sp, ci_decimals(c->f.ratio, c->f.lo, c->f.hi));
    else
        il_change(est, sizeof est, c->f.ratio, timey, sp);
    ci_words(ci, sizeof ci, c->f.ratio, c->f.lo, c->f.hi, timey, sp);
    if (o->design != IL_D_FLAT && c->paired >= 2)
        snprintf(out, sizeof out, "%s: %s, %s, over %zu paired setups (%s; %zu and %zu runs)%s",
                 head, est, ci, c->paired, design_name(o, dn, sizeof dn), ny, nx, tail);
    else
        snprintf(out, sizeof out, "%s: %s, %s, from %zu and %zu runs (%s)%s", head, est, ci, ny, nx,
                 c->method, tail);
    return il_xstrdup(out);
}

/* Pair the units of the value and the baseline by unit id. */
static size_t
pair_units(const struct il_units *a, const struct il_units *b, size_t *ia, size_t *ib,
           size_t *unpaired)
{
    size_t k = 0;
    *unpaired = 0;
    for (size_t i = 0; i < a->k; i++) {
        size_t j = 0;
        while (j < b->k && b->id[j] != a->id[i])
            j++;
        if (j == b->k) {
            (*unpaired)++;
            continue;
        }
        ia[k] = i;
        ib[k++] = j;
    }
    *unpaired += b->k - k;
    return k;
}

/* Pooled relative within-unit variance of one side over the paired units
 * (sum ((x - m_u) / m_u)^2 / sum (n_u - 1)), with its degrees of freedom. */
static double
pooled_rel(const struct il_units *u, const size_t *idx, size_t k, double *f)
{
    double ss = 0;
    *f = 0;
    for (size_t j = 0; j < k; j++) {
        size_t i = idx[j];
        const double *x = u->x + u->off[i];
        for (size_t m = 0; m < u->n[i]; m++)
            ss += (x[m] / u->mean[i] - 1) * (x[m] / u->mean[i] - 1);
        *f += (double)(u->n[i] - 1);
    }
    return *f > 0 ? ss / *f : NAN;
}

static void
setup_summaries(struct il_setups *s, enum il_dkind kind, const uint32_t *fa, const uint32_t *fb)
{
    size_t k = s->n;
    double *lg = il_xcalloc(k, sizeof *lg), *tmp = il_xcalloc(k, sizeof *tmp);
    memcpy(tmp, s->ratio, k * sizeof *tmp);
    qsort(tmp, k, sizeof *tmp, il_dcmp);
    s->min = tmp[0];
    s->max = tmp[k - 1];
    s->median = il_quantile_sorted(tmp, k, 0.5);
    s->raw_straddles = s->min < 1 && s->max > 1;
    for (size_t i = 0; i < k; i++)
        lg[i] = log(s->ratio[i]);
    s->mean = il_mean(s->ratio, k);
    s->gm = exp(il_mean(lg, k));
    s->lo_mean = s->hi_mean = s->gm_lo = s->gm_hi = NAN;
    struct il_dvar v;
    double m, lo, hi, df;
    if (il_dvar_init(&v, k, fa, kind == IL_D_CROSSED ? fb : NULL) == 0) {
        s->has_ci = il_dvar_tci(&v, s->ratio, &m, &s->lo_mean, &s->hi_mean, &df) == 0;
        if (il_dvar_tci(&v, lg, &m, &lo, &hi, &df) == 0) {
            s->has_gm_ci = 1;
            s->gm_lo = exp(lo);
            s->gm_hi = exp(hi);
        }
        if (kind == IL_D_CROSSED && il_dvar_fit(&v, lg) == 0) {
            double sum = v.comp[0] + v.comp[1] + v.comp[2];
            s->has_shares = sum > 0;
            for (int i = 0; i < 3; i++)
                s->share[i] = sum > 0 ? (v.comp[i] > 0 ? v.comp[i] : 0) / sum : 0;
        }
    }
    il_dvar_free(&v);
    free(lg);
    free(tmp);
}

/*
 * Each paired setup's ratio of means with its 95% interval and the
 * interval at the Bonferroni level adj.  Two forms, and the wider of them:
 * the normal-theory interval on the log scale with the pooled relative
 * variances (ra, rb; df2 degrees of freedom), exact for normal noise, and
 * a bootstrap of the pooled relative residuals (il_resid_boot), which keeps
 * the skewness and tails of bursty noise.  A residual is a run against the
 * mean of the other runs of its setup, so that a burst keeps its size.
 * Both assume one error law in every setup, as the pooled test does.
 */
static void
setup_intervals(const struct il_report *r, struct il_setups *s, const struct il_units *un,
                const struct il_units *ud, const size_t *ia, const size_t *ib, size_t k, double adj,
                double ra, double rb, double df2)
{
    size_t nta = 0, ntb = 0;
    for (size_t u = 0; u < k; u++) {
        nta += un->n[ia[u]];
        ntb += ud->n[ib[u]];
    }
    double *ea = il_xcalloc(nta, sizeof *ea), *eb = il_xcalloc(ntb, sizeof *eb);
    size_t ma = 0, mb = 0;
    for (int side = 0; side < 2; side++) {
        const struct il_units *U = side ? ud : un;
        const size_t *ix = side ? ib : ia;
        double *e = side ? eb : ea;
        size_t *m = side ? &mb : &ma;
        for (size_t u = 0; u < k; u++) {
            size_t i = ix[u], n = U->n[i];
            if (n < 2)
                continue;
            /* Leave-one-out: a run against the mean of the others keeps
             * a burst's size (against its own setup's mean it shrinks);
             * the spread that the others' mean adds is scaled away. */
            double shrink = sqrt((double)(n - 1) / (double)n);
            for (size_t j = 0; j < n; j++) {
                double x = U->x[U->off[i] + j];
                double rest = ((double)n * U->mean[i] - x) / (double)(n - 1);
                e[(*m)++] = 1 + (x / rest - 1) * shrink;
            }
        }
    }
    double alpha[2] = {1 - IL_CONF, 1 - adj}, q[4];
    for (size_t u = 0; u < k; u++) {
        if (isfinite(s->lo[u]))
            continue; /* done with another setup of the same sizes */
        size_t na = s->na[u], nb = s->nb[u];
        /* Enough replicates for the Bonferroni tail, within a budget of
         * 2e6 draws; beyond it the normal-theory interval, never narrower,
         * carries the far tail. */
        double B = fmax(20000, 400 * (double)k);
        B = fmin(B, fmax(2000, 2e6 / (double)(na + nb)));
        if (il_resid_boot(ea, ma, eb, mb, na, nb, (size_t)B, r->o->seed + na * 7919 + nb, alpha, q))
            continue;
        /* Never narrower than the normal-theory interval on the log
         * scale with the pooled variance (exact for normal noise). */
        double se = sqrt(ra / (double)na + rb / (double)nb);
        double t1 = il_tq(df2) * se, t2 = il_tq_p(df2, 1 - (1 - adj) / 2) * se;
        for (size_t v = u; v < k; v++) {
            if (s->na[v] != na || s->nb[v] != nb)
                continue;
            s->lo[v] = s->ratio[v] * exp(-fmax(q[1], t1));
            s->hi[v] = s->ratio[v] * exp(-fmin(q[0], -t1));
            s->alo[v] = s->ratio[v] * exp(-fmax(q[3], t2));
            s->ahi[v] = s->ratio[v] * exp(-fmin(q[2], -t2));
        }
    }
    free(ea);
    free(eb);
}

/*
 * The per-setup view of the mean from the blocks' contrasts (perm.c): the
 * heterogeneity of the setups' locations of their contrasts (Q, I^2, tau
 * against the pooled within-setup variance of the contrasts), its p-value
 * by exchanging the sides within blocks, and each setup's intervals: the
 * error of a setup's log ratio is the mean of its m contrasts' errors,
 * drawn from all setups' residual contrasts (a residual bootstrap, as
 * setup_intervals), never narrower than the t interval.  Drift between
 * passes is in none of them: it cancels in every contrast.
 */
static void
contrast_setups(const struct il_report *r, struct il_setups *s, struct il_contrast *ct, size_t k,
                double adj, size_t P)
{
    const struct il_opts *o = r->o;
    double *y = il_xcalloc(k, sizeof *y), *var = il_xcalloc(k, sizeof *var);
    size_t kk = 0;
    for (size_t u = 0; u < k; u++) {
        if (!ct->m[u])
            continue;
        y[kk] = ct->loc[u] + ct->center;
        var[kk++] = ct->s2 / (double)ct->m[u];
    }
    s->has_het = ct->s2 > 0 && il_heterogeneity(y, var, kk, ct->df, &s->het) == 0;
    if (s->has_het) {
        /* The test's exchanges (its statistic is of signed ranks, perm.c)
         * give Q's distribution under no setup effect, whose quantiles the
         * Q-profile interval of tau^2 takes instead of chi-squared's (as
         * setupfx.c does for a group: bursts fatten Q's tails) */
        double *qp = il_xcalloc(P, sizeof *qp);
        size_t nq = 0;
        s->het.p = o->no_het_p ? NAN : il_perm_contrasts(ct, P, o->seed, qp, &nq);
        s->het_perm = 1;
        /* ... but not from a sign flip of two blocks a setup, whose
         * exchanges take the setups' effects for noise: there F's, the
         * pooled variance's df2 being known (chi-squared's covered 86% at
         * tau = 0 with 24 setups x 2 passes: review13 F1) */
        size_t few = 0;
        for (size_t u = 0; u < k; u++)
            few += ct->m[u] && ct->m[u] < 3;
        if (s->het.has_tau_ci && nq >= 99 && 2 * few < kk) {
            il_tau2_profile(y, var, kk, qp, nq, s->het.tau2, &s->het.tau2_lo, &s->het.tau2_hi);
            s->tau_calibrated = 1;
        } else if (s->het.has_tau_ci && isfinite(ct->df) && ct->df > 0) {
            il_tau2_profile_f(y, var, kk, ct->df, s->het.tau2, &s->het.tau2_lo, &s->het.tau2_hi);
            s->tau_f = 1;
        }
        free(qp);
    }
    if (o->design == IL_D_CROSSED && s->has_het) {
        s->het.has_tau_ci = 0;
        s->tau_ci_why = "crossed labels: the setups share their labels' effects";
    }
    free(y);
    free(var);
    if (ct->njres < 2 || !(ct->s2j > 0))
        return;
    double alpha[2] = {1 - IL_CONF, 1 - adj};
    struct il_rng g;
    il_rng_init(&g, (uint32_t)o->seed, IL_STREAM_CONTRAST);
    for (size_t u = 0; u < k; u++) {
        size_t m = ct->m[u];
        if (!m || isfinite(s->lo[u]))
            continue;
        /* Enough replicates for the Bonferroni tail, within a budget of
         * 2e6 draws, as setup_intervals. */
        double B = fmin(fmax(20000, 400 * (double)k), fmax(2000, 2e6 / (double)m));
        size_t nB = (size_t)B;
        double *z = il_xcalloc(nB, sizeof *z), q[4];
        for (size_t b = 0; b < nB; b++) {
            double sum = 0;
            for (size_t i = 0; i < m; i++)
                sum += ct->jres[il_rng_below(&g, ct->njres)];
            z[b] = sum / (double)m;
        }
        qsort(z, nB, sizeof *z, il_dcmp);
        for (int l = 0; l < 2; l++) {
            q[2 * l] = il_quantile_sorted(z, nB, alpha[l] / 2);
            q[2 * l + 1] = il_quantile_sorted(z, nB, 1 - alpha[l] / 2);
        }
        free(z);
        double se = sqrt(ct->s2j / (double)m);
        double t1 = il_tq(ct->df) * se, t2 = il_tq_p(ct->df, 1 - (1 - adj) / 2) * se;
        for (size_t v = u; v < k; v++) {
            if (ct->m[v] != m)
                continue;
            s->lo[v] = s->ratio[v] * exp(-fmax(q[1], t1));
            s->hi[v] = s->ratio[v] * exp(-fmin(q[0], -t1));
            s->alo[v] = s->ratio[v] * exp(-fmax(q[3], t2));
            s->ahi[v] = s->ratio[v] * exp(-fmin(q[2], -t2));
        }
    }
}

void
il_setup_ci_why(const struct il_opts *o, const struct il_setups *s, size_t u, int adjusted,
                char *buf, size_t n)
{
    double level = adjusted ? s->adj : IL_CONF;
    size_t na = s->na[u], nb = s->nb[u];
    if (o->est.kind == IL_EST_MIN) {
        snprintf(buf, n, "the minimum has no interval (use the mean or a quantile)");
    } else if (o->est.kind == IL_EST_MEAN) {
        /* from the noise of all setups (setup_intervals, contrast_setups) */
        snprintf(buf, n,
                 "no estimate of the run-to-run noise (it needs two runs of each side "
                 "in a setup that differ)");
    } else if (na < 2 || nb < 2 || na < il_boot_min_n(&o->est, level) ||
               nb < il_boot_min_n(&o->est, level)) {
        char why[160];
        if (na < 2 || nb < 2)
            snprintf(why, sizeof why, "fewer than 2 runs on a side");
        else
            il_boot_few_why(&o->est, level, why, sizeof why);
        snprintf(buf, n, "%s; %zu and %zu here", why, na, nb);
    } else {
        snprintf(buf, n, "the bootstrap's ratios were not positive");
    }
}

/*
 * Whether "one setup alone could have shown either conclusion" was tested
 * (Mytkowicz et al., section 4: a violin that straddles 1): it needs the
 * test of equal per-setup ratios and adjusted intervals on both sides of
 * 1.  A claim whose test could not run is "could not be tested", with what
 * it would need, never "no" (issue 13, section 2).
 */
static void
straddle_test(const struct il_opts *o, const struct il_strtab *st, struct il_setups *s)
{
    /* the runs of the setups without an adjusted interval: "N here", or
     * "N to M here, the fewest in setup S" when they differ */
    size_t with = 0, minn = SIZE_MAX, maxn = 0, fewest = 0;
    for (size_t u = 0; u < s->n; u++) {
        with += isfinite(s->alo[u]);
        size_t m = s->na[u] < s->nb[u] ? s->na[u] : s->nb[u];
        if (isfinite(s->alo[u]))
            continue;
        if (m < minn) {
            minn = m;
            fewest = u;
        }
        maxn = m > maxn ? m : maxn;
    }
    s->adj_setups = with;
    s->straddle_tested = 0;
    char need[256] = "", here[160] = "";
    if (minn == maxn)
        snprintf(here, sizeof here, "%zu here", minn);
    else if (minn != SIZE_MAX)
        snprintf(here, sizeof here, "%zu to %zu here, the fewest in setup %s", minn, maxn,
                 il_str(st, s->setup[fewest]));
    int quantile = o->est.kind == IL_EST_MEDIAN || o->est.kind == IL_EST_Q;
    if (quantile) {
        size_t n = il_boot_min_n(&o->est, s->adj);
        if (n == SIZE_MAX)
            snprintf(need, sizeof need, "no number of runs gives %s an adjusted interval",
                     o->est.name);
        else
            snprintf(need, sizeof need, "%zu runs of each side in a setup, %s", n, here);
    } else {
        snprintf(need, sizeof need, "two runs of each side in a setup");
    }
    if (s->n < 2) {
        snprintf(s->straddle_why, sizeof s->straddle_why, "one setup (it needs two at least)");
    } else if (o->est.kind == IL_EST_MIN) {
        snprintf(s->straddle_why, sizeof s->straddle_why,
                 "the minimum has no interval (use the mean or a quantile)");
    } else if (!s->has_het && with < 2 && quantile) {
        /* every blocker at once, not one after the other (review of
         * issue 13, F7): the test's, and the adjusted intervals' */
        snprintf(s->straddle_why, sizeof s->straddle_why,
                 "whether the setups differ could not be tested (%s), and %s of %zu setups %s "
                 "an interval adjusted for their number (it needs %s)",
                 s->het_why, with ? "1" : "none", s->n, il_pl(with, "has", "have"), need);
    } else if (!s->has_het) {
        snprintf(s->straddle_why, sizeof s->straddle_why,
                 "whether the setups differ could not be tested (%s)", s->het_why);
    } else if (s->straddles) {
        s->straddle_tested = 1; /* decided: yes */
    } else if (with < 2) {
        /* "no" needs a "yes" that was possible: two setups with adjusted
         * intervals, whatever the test of equal ratios says */
        snprintf(s->straddle_why, sizeof s->straddle_why,
                 "%s of %zu setups %s an interval adjusted for their number (it needs %s)",
                 with ? "1" : "none", s->n, il_pl(with, "has", "have"), need);
    } else {
        s->straddle_tested = 1; /* the setups do not differ, or they do */
        if (with < s->n)
            snprintf(s->straddle_why, sizeof s->straddle_why,
                     "tested on the %zu of %zu setups with an adjusted interval (the others need "
                     "%s)",
                     with, s->n, need);
    }
}

/* The per-setup view of comparison c over k paired units. */
static void
per_setup(struct il_report *r, struct il_cmp *c, const struct il_units *un,
          const struct il_units *ud, const size_t *ia, const size_t *ib, size_t k, const char *name)
{
    const struct il_opts *o = r->o;
    struct il_setups *s = &c->su;
    s->n = k;
    s->ratio = il_xcalloc(k, sizeof *s->ratio);
    s->setup = il_xcalloc(k, sizeof *s->setup);
    s->sa = il_xcalloc(k, sizeof *s->sa);
    s->sb = il_xcalloc(k, sizeof *s->sb);
    s->lo = il_xcalloc(k, sizeof *s->lo);
    s->hi = il_xcalloc(k, sizeof *s->hi);
    s->alo = il_xcalloc(k, sizeof *s->alo);
    s->ahi = il_xcalloc(k, sizeof *s->ahi);
    s->na = il_xcalloc(k, sizeof *s->na);
    s->nb = il_xcalloc(k, sizeof *s->nb);
    uint32_t *fa = il_xcalloc(k, sizeof *fa), *fb = il_xcalloc(k, sizeof *fb);
    for (size_t u = 0; u < k; u++) {
        double a = un->est[ia[u]], b = ud->est[ib[u]];
        if (!(a > 0) || !(b > 0))
            errx(1,
                 "%s, setup %s: an estimate is not positive (%g over %g); a ratio needs "
                 "positive values: check --subtract-floor or the metric",
                 name, il_str(&r->d.st, un->id[ia[u]]), a, b);
        s->setup[u] = un->id[ia[u]];
        s->ratio[u] = a / b;
        s->na[u] = un->n[ia[u]];
        s->nb[u] = ud->n[ib[u]];
        s->lo[u] = s->hi[u] = s->alo[u] = s->ahi[u] = NAN;
        fa[u] = s->sa[u] = un->fa[ia[u]];
        fb[u] = s->sb[u] = un->fb[ia[u]];
    }
    c->has_setups = 1;
    s->est_mean = o->est.kind == IL_EST_MEAN;
    setup_summaries(s, o->design, fa, fb);
    double adj = 1 - (1 - IL_CONF) / (double)k; /* Bonferroni */
    s->adj = adj;
    /* The mean's intervals from the runs' residuals first: they need
     * nothing of the blocks, whose arrays (perm.c) were alive beside
     * their residuals at the comparison's peak of memory. */
    double fA = 0, fB = 0, ra = 0, rb = 0, df2 = NAN;
    int rel = 0;
    if (o->est.kind == IL_EST_MEAN) {
        ra = pooled_rel(un, ia, k, &fA);
        rb = pooled_rel(ud, ib, k, &fB);
        rel = fA > 0 && fB > 0 && ra + rb > 0;
    }
    if (rel) {
        double ca = 0, cb = 0;
        for (size_t u = 0; u < k; u++) {
            ca += ra / (double)s->na[u] / (double)k;
            cb += rb / (double)s->nb[u] / (double)k;
        }
        /* Satterthwaite's df of the pooled variance of a log ratio. */
        df2 = (ca + cb) * (ca + cb) / (ca * ca / fA + cb * cb / fB);
        setup_intervals(r, s, un, ud, ia, ib, k, adj, ra, rb, df2);
    }
    /* The sweep's blocks: with them the test exchanges the two sides only
     * within a (setup, pass) block, and its statistic is built from the
     * blocks' contrasts, in which drift between passes cancels (perm.c). */
    struct il_contrast ct = {0};
    int blk = o->est.kind != IL_EST_MIN && il_contrasts(&o->est, un, ud, ia, ib, k, &ct) == 0;
    if (o->est.kind != IL_EST_MIN) {
        s->exch_blocks = blk;
        s->passes = ct.passes;
        s->blocks = ct.blocks;
        s->block_left_out = ct.left_out;
        s->exch_why = blk ? NULL : ct.why;
    }
    /* 999 permutations, fewer for large data (one costs a pass over the
     * blocks or the value side's runs), but not below 99. */
    size_t Nperm = blk ? ct.blocks : 0;
    if (!blk)
        for (size_t u = 0; u < k; u++)
            Nperm += s->na[u];
    size_t P = Nperm * 999 <= 4000000 ? 999 : (size_t)fmax(99, 4e6 / (double)Nperm);
    if (o->est.kind == IL_EST_MEAN && blk) {
        /* With few blocks a setup's error is poorly known from the
         * jackknife (3 passes: all adjusted intervals held in 86%): there
         * the intervals from the runs' residuals, which hold drift and so
         * are wider, are kept when wider (bench/coverage.sh,
         * drift-specific-3). */
        double *keep = il_xcalloc(4 * k, sizeof *keep);
        for (size_t u = 0; u < k; u++) {
            keep[4 * u] = s->lo[u];
            keep[4 * u + 1] = s->hi[u];
            keep[4 * u + 2] = s->alo[u];
            keep[4 * u + 3] = s->ahi[u];
            s->lo[u] = s->hi[u] = s->alo[u] = s->ahi[u] = NAN;
        }
        contrast_setups(r, s, &ct, k, adj, P);
        for (size_t u = 0; u < k; u++) {
            if (ct.m[u] >= IL_FEW_BLOCKS || !isfinite(keep[4 * u]))
                continue;
            s->lo[u] = isfinite(s->lo[u]) ? fmin(s->lo[u], keep[4 * u]) : keep[4 * u];
            s->hi[u] = isfinite(s->hi[u]) ? fmax(s->hi[u], keep[4 * u + 1]) : keep[4 * u + 1];
            s->alo[u] = isfinite(s->alo[u]) ? fmin(s->alo[u], keep[4 * u + 2]) : keep[4 * u + 2];
            s->ahi[u] = isfinite(s->ahi[u]) ? fmax(s->ahi[u], keep[4 * u + 3]) : keep[4 * u + 3];
        }
        free(keep);
    } else if (o->est.kind == IL_EST_MEAN) {
        if (rel) {
            double *y = il_xcalloc(k, sizeof *y), *var = il_xcalloc(k, sizeof *var);
            for (size_t u = 0; u < k; u++) {
                y[u] = log(s->ratio[u]);
                var[u] = ra / (double)s->na[u] + rb / (double)s->nb[u];
            }
            s->has_het = il_heterogeneity(y, var, k, df2, &s->het) == 0;
            /* Crossed setups share their labels' effects: the Q-profile
             * interval of tau^2 assumes independent setups (the test of no
             * effect at all does not: without effects they are). */
            if (o->design == IL_D_CROSSED && s->has_het) {
                s->het.has_tau_ci = 0;
                s->tau_ci_why = "crossed labels: the setups share their labels' effects";
            }
            if (s->has_het) {
                /* Q's reference from the shuffles, as with blocks */
                double *qp = il_xcalloc(P, sizeof *qp);
                size_t nq = 0;
                s->het.p = o->no_het_p ? NAN
                                       : il_perm_het(&o->est, un, ud, ia, ib, k, c->f.ratio, P,
                                                     o->seed, qp, &nq);
                s->het_perm = 1;
                if (s->het.has_tau_ci && nq >= 99) {
                    il_tau2_profile(y, var, k, qp, nq, s->het.tau2, &s->het.tau2_lo,
                                    &s->het.tau2_hi);
                    s->tau_calibrated = 1;
                }
                free(qp);
            }
            free(y);
            free(var);
        }
    } else if (o->est.kind != IL_EST_MIN) {
        size_t B = o->boot ? o->boot : 2000;
        int any = 0;
        for (size_t u = 0; u < k; u++) {
            const double *x = un->x + un->off[ia[u]], *z = ud->x + ud->off[ib[u]];
            double vl, p;
            /* Each interval only with the runs for it (il_boot_min_n):
             * the adjusted one needs more; without it a setup counts
             * neither above nor below 1.  The permutation test needs 2. */
            int e = il_boot_ratio(&o->est, x, s->na[u], z, s->nb[u], B, o->seed + u, IL_CONF,
                                  &s->lo[u], &s->hi[u], &vl, &p);
            if (e == 0)
                il_boot_ratio(&o->est, x, s->na[u], z, s->nb[u], B, o->seed + u, adj, &s->alo[u],
                              &s->ahi[u], &vl, &p);
            any |= e == 0 || e == IL_SE_QFEW;
        }
        if (any && k >= 2) {
            s->het_perm = s->has_het = 1;
            s->het.df1 = (double)(k - 1);
            if (o->no_het_p)
                s->het.p = NAN;
            else if (blk)
                s->het.p = il_perm_contrasts(&ct, IL_PERM, o->seed, NULL, NULL);
            else
                s->het.p = il_perm_het(&o->est, un, ud, ia, ib, k, c->f.ratio, IL_PERM, o->seed,
                                       NULL, NULL);
            s->het.q = s->het.tau2 = s->het.tau2_lo = s->het.tau2_hi = s->het.i2 = NAN;
            s->het.has_tau_ci = 0;
            s->tau_ci_why = "a quantile's setup sd is not estimated (the test is of the spread "
                            "of the setups' ratios)";
            s->het.df2 = NAN;
        }
    }
    /* A test whose exchanges cannot give p below 0.05 (two setups in two
     * passes: p >= 1/8) could not have said yes: its "no" is no answer
     * (minp.c). */
    if (s->has_het && s->het_perm) {
        struct il_minp mp;
        if ((blk ? il_minp_contrast(&ct, &mp) : il_minp_pairs(s->na, s->nb, k, &mp)) >
            IL_PERM_ALPHA) {
            s->has_het = 0;
            il_minp_why(&mp, blk ? ct.units : k, blk ? ct.passes : 0, s->het_why_buf,
                        sizeof s->het_why_buf);
            s->het_why = s->het_why_buf;
        }
    }
    for (size_t u = 0; u < k; u++) {
        s->above += s->alo[u] > 1;
        s->below += s->ahi[u] < 1;
    }
    s->straddles = s->has_het && s->het.p < 0.05 && s->above && s->below;
    if (!s->has_het && !s->het_why && o->est.kind != IL_EST_MIN && k >= 2) {
        /* why the spread of the setups' ratios cannot be tested (one
         * setup: few-setups says so) */
        int two_a = 0, two_b = 0, both = 0;
        for (size_t u = 0; u < k; u++) {
            two_a |= s->na[u] >= 2;
            two_b |= s->nb[u] >= 2;
            both |= s->na[u] >= 2 && s->nb[u] >= 2;
        }
        /* the mean's test pools each side's runs over setups; the
         * quantiles' permutes runs within a setup */
        int runs = o->est.kind == IL_EST_MEAN ? two_a && two_b : both;
        size_t two_blocks = 0;
        for (size_t u = 0; blk && u < k; u++)
            two_blocks += ct.m[u] >= 2;
        s->het_why = blk && !two_blocks
                         ? "no setup has two (setup, pass) blocks with runs of both sides (it "
                           "needs two passes at least)"
                     : runs ? "the runs within every setup are equal"
                            : "no setup has two runs of each side (it needs two runs of each side "
                              "in a setup)";
        il_warn_item(runs ? IL_W_NOREPS : IL_W_NOREPS_TWO, name);
    } else if (!s->has_het && !s->het_why) {
        s->het_why = k < 2 ? "one setup (it needs two at least)" : "the minimum has no test";
    }
    straddle_test(o, &r->d.st, s);
    il_contrast_free(&ct);
    free(fa);
    free(fb);
}

/* The host shares of the two sides differ by more than 10 points. */
static void
check_hosts(const struct il_report *r, const struct il_cmp *c, const char *name)
{
    const struct il_data *d = &r->d;
    const struct il_opts *o = r->o;
    size_t hs = SIZE_MAX;
    for (size_t i = 0; i < d->nslots; i++)
        if (strcmp(d->slot_name[i], IL_PSEUDO_HOST) == 0)
            hs = i;
    if (hs == SIZE_MAX || (o->nsetup && o->setup_slot[0] == hs) || (!d->labn[hs] && !d->labc[hs]))
        return; /* (no column: one value, or none, for every record) */
    for (size_t i = 0; i < o->nby; i++)
        if (o->by_slot[i] == hs)
            return;
    const struct il_group *g[2] = {&r->gs.g[c->g], &r->gs.g[c->base]};
    uint32_t ids[8];
    size_t cnt[8][2] = {{0}}, nh = 0;
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < g[s]->n; i++) {
            uint32_t id = il_lab(d, g[s]->rec[i], hs);
            size_t j = 0;
            while (j < nh && ids[j] != id)
                j++;
            if (j == nh) {
                if (nh == 8)
                    continue;
                ids[nh++] = id;
            }
            cnt[j][s]++;
        }
    if (nh < 2)
        return;
    int differ = 0;
    char detail[512];
    size_t o2 = 0;
    for (size_t j = 0; j < nh; j++) {
        double pa = (double)cnt[j][0] / (double)g[0]->n, pb = (double)cnt[j][1] / (double)g[1]->n;
        differ |= fabs(pa - pb) > 0.1;
        o2 += (size_t)snprintf(detail + o2, sizeof detail - o2, "%s%s: %zu and %zu runs",
                               j ? "; " : "", il_str(&d->st, ids[j]), cnt[j][0], cnt[j][1]);
        if (o2 >= sizeof detail)
            break;
    }
    if (differ)
        il_warn(IL_W_HOSTS, name, detail);
}

/* The flat interval: every run independent. */
static void
flat_interval(const struct il_report *r, const struct il_group *gn, const struct il_group *gd,
              struct il_cmp *c, struct il_fieller *f, double *p, double *vlog, const char **method)
{
    const struct il_opts *o = r->o;
    f->ratio = f->lo = f->hi = f->df = f->h = NAN;
    f->kind = IL_CI_UNBOUNDED;
    *p = *vlog = NAN;
    if (o->est.kind == IL_EST_MEAN) {
        struct il_rvar v;
        *method = o->pooled ? "Fieller, pooled variance, runs independent"
                            : "Fieller, Welch df, runs independent";
        if (il_rvar_samples(gn->x, gn->n, gd->x, gd->n, o->pooled, &v) == 0) {
            il_fieller(&v, il_tq(v.df), f);
            *p = il_fieller_p(&v);
            *vlog = v.v0 / (v.a * v.a);
            c->few = 0;
        } else {
            f->ratio = v.a / v.b;
            c->few = 1;
            *method = "fewer than 2 runs on a side";
        }
        return;
    }
    double *s = il_xcalloc(gn->n > gd->n ? gn->n : gd->n, sizeof *s);
    f->ratio = il_estimate(&o->est, gn->x, gn->n, s) / il_estimate(&o->est, gd->x, gd->n, s);
    free(s);
    c->few = 1;
    if (o->est.kind == IL_EST_MIN) {
        *method = "the minimum has no honest interval";
        return;
    }
    *method = "bootstrap, runs resampled within each side";
    int e = il_boot_ratio(&o->est, gn->x, gn->n, gd->x, gd->n, o->boot ? o->boot : 2000, o->seed,
                          IL_CONF, &f->lo, &f->hi, vlog, p);
    if (e == 0) {
        f->kind = IL_CI_BOUNDED;
        f->df = INFINITY;
        c->few = 0;
    } else if (e == IL_SE_QFEW) {
        char why[160];
        il_boot_few_why(&o->est, IL_CONF, why, sizeof why);
        *method = il_xstrdup(why);
    } else {
        *method = "fewer than 2 runs on a side";
    }
}

/* The headline interval from the design's means and variance. */
static void
headline(struct il_cmp *c, const struct il_rvar *v, int ok)
{
    c->value = v->a;
    c->baseline = v->b;
    if (ok) {
        il_fieller(v, il_tq(v->df), &c->f);
        c->few = 0;
        c->has_p = 1;
        c->p = il_fieller_p(v);
        c->vlog = v->v0 / (v->a * v->a);
        c->vlog_df = v->df;
    }
    c->f.ratio = v->a / v->b;
}

static void
one_comparison(struct il_report *r, struct il_cmp *c, const char *name)
{
    const struct il_opts *o = r->o;
    size_t gnum = o->speedup ? c->base : c->g, gden = o->speedup ? c->g : c->base;
    /* the runs in input order: the groups' x, or the units' given back in
     * that order (r->lean), held only until the flat interval is taken */
    struct il_group gnx = r->gs.g[gnum], gdx = r->gs.g[gden];
    const struct il_group *gn = &gnx, *gd = &gdx;
    double *xn = NULL, *xd = NULL;
    if (!gnx.x)
        gnx.x = xn = il_units_in_order(&r->units[gnum]);
    if (!gdx.x)
        gdx.x = xd = il_units_in_order(&r->units[gden]);
    double *s = il_xcalloc(gn->n > gd->n ? gn->n : gd->n, sizeof *s);
    c->value = il_estimate(&o->est, gn->x, gn->n, s);
    c->baseline = il_estimate(&o->est, gd->x, gd->n, s);
    free(s);
    if ((!(c->value > 0) || !(c->baseline > 0)) && r->d.sub_runs)
        errx(1,
             "ratio %s: an estimate is not positive (%g over %g) once the runs of %s=%s are "
             "subtracted (their mean %g): they took as long as the measured runs; " SUBTRACT_FIX,
             name, c->value, c->baseline, o->sub_label, o->sub_value, r->d.sub_mean);
    if (!(c->value > 0) || !(c->baseline > 0))
        errx(1,
             "ratio %s: an estimate is not positive (%g over %g); a ratio needs positive "
             "values: check --subtract-floor or the metric",
             name, c->value, c->baseline);
    double p, vlog;
    const char *method;
    flat_interval(r, gn, gd, c, &c->flat, &p, &vlog, &method);
    free(xn);
    free(xd);
    gnx.x = gdx.x = NULL;
    c->has_flat = !c->few;
    if (o->design == IL_D_FLAT) {
        snprintf(c->setups_why, sizeof c->setups_why,
                 "no --setup: the runs are not grouped into setups");
        c->f = c->flat;
        c->method = method;
        c->has_p = isfinite(p);
        c->p = p;
        c->vlog = vlog;
        c->vlog_df = c->f.df;
        return;
    }
    /* The design's interval over units. */
    const struct il_units *un = &r->units[gnum], *ud = &r->units[gden];
    size_t *ia = il_xcalloc(un->k + 1, sizeof *ia), *ib = il_xcalloc(un->k + 1, sizeof *ib);
    size_t unpaired, k = pair_units(un, ud, ia, ib, &unpaired);
    c->unpaired = unpaired;
    c->paired = k;
    if (unpaired)
        il_warn(IL_W_UNPAIRED, name, unpaired, il_s(unpaired), il_pl(unpaired, "has", "have"),
                il_pl(unpaired, "is", "are"), k, il_pl(k, "is", "are"));
    c->few = 1;
    c->f.kind = IL_CI_UNBOUNDED;
    c->f.lo = c->f.hi = c->f.df = NAN;
    c->has_p = 0;
    c->vlog = NAN;
    double *a = il_xcalloc(k + 1, sizeof *a), *b = il_xcalloc(k + 1, sizeof *b);
    uint32_t *fa = il_xcalloc(k + 1, sizeof *fa), *fb = il_xcalloc(k + 1, sizeof *fb);
    for (size_t u = 0; u < k; u++) {
        a[u] = un->est[ia[u]];
        b[u] = ud->est[ib[u]];
        fa[u] = un->fa[ia[u]];
        fb[u] = un->fb[ia[u]];
    }
    struct il_rvar v;
    if (k >= 2) {
        struct il_dvar dv;
        int e = il_dvar_init(&dv, k, fa, o->design == IL_D_CROSSED ? fb : NULL);
        if (e == IL_SE_UNBAL)
            errx(1,
                 "%s: --setup %s,%s: " IL_R_TOO_FEW_CELLS " (%zu for %zu x %zu "
                 "values); cross more values, or use one label",
                 name, o->setup[0], o->setup[1], k, dv.I, dv.J);
        if (!e)
            e = il_rvar_paired(&dv, a, b, &v);
        headline(c, &v, !e && o->est.kind != IL_EST_MIN);
        c->method = o->design == IL_D_CROSSED
                        ? "Fieller over setups, paired, two crossed labels (Satterthwaite df)"
                        : "Fieller over setups, paired (setups - 1 df)";
        il_dvar_free(&dv);
    } else if (k == 0 && un->k >= 2 && ud->k >= 2 && o->design == IL_D_ONE) {
        int e = il_rvar_samples(un->est, un->k, ud->est, ud->k, 0, &v);
        headline(c, &v, !e && o->est.kind != IL_EST_MIN);
        c->method = "Fieller over setups, unpaired (no setup on both sides; Welch df)";
    } else {
        c->method = "fewer than 2 setups on both sides";
        c->f.ratio = k ? il_mean(a, k) / il_mean(b, k) : c->value / c->baseline;
        il_warn(IL_W_SETUPS_FEW, name, k, o->d_label[0]);
    }
    if (o->est.kind == IL_EST_MIN)
        c->method = "the minimum has no honest interval";
    size_t bad = 0, first = k;
    for (size_t u = 0; u < k; u++)
        if ((!(a[u] > 0) || !(b[u] > 0)) && !bad++)
            first = u;
    if (k >= 1 && bad) {
        /* A setup whose estimate is not positive (the runs of --subtract
         * took as long as the measured ones there) has no ratio, so there
         * is no per-setup view; the headline, over the setups' means, is
         * still whole.  The setup is not left out: the setups left out
         * would be those whose difference came out lowest, chosen by their
         * result, biasing the ratio (interloper-report(1), --subtract). */
        const char *id = il_str(&r->d.st, un->id[ia[first]]);
        if (r->d.sub_runs)
            snprintf(c->setups_why, sizeof c->setups_why,
                     "setup %s's estimate is not positive (%g over %g; %zu of %zu setups) once "
                     "the mean of its runs of %s=%s is subtracted: there they took as long as "
                     "the measured runs (wall time on a busy machine?), and a ratio needs "
                     "positive values; " SUBTRACT_FIX,
                     id, a[first], b[first], bad, k, o->sub_label, o->sub_value);
        else
            snprintf(c->setups_why, sizeof c->setups_why,
                     "setup %s's estimate is not positive (%g over %g; %zu of %zu setups), and "
                     "a ratio needs positive values: check --subtract-floor or the metric",
                     id, a[first], b[first], bad, k);
    } else if (k >= 1) {
        per_setup(r, c, un, ud, ia, ib, k, name);
        c->su.unpaired = unpaired;
    } else {
        char what[160];
        if (o->design == IL_D_CROSSED)
            snprintf(what, sizeof what, "cell of '%s' and '%s'", o->d_label[0], o->d_label[1]);
        else
            snprintf(what, sizeof what, "value of '%s'", o->d_label[0]);
        snprintf(c->setups_why, sizeof c->setups_why,
                 "no %s has runs of both sides (%zu on one side, %zu on the other, none "
                 "shared); run both in the same setups",
                 what, un->k, ud->k);
    }
    free(a);
    free(b);
    free(fa);
    free(fb);
    free(ia);
    free(ib);
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

static int
cmp_p(const void *pa, const void *pb)
{
    const struct il_cmp *const *a = pa, *const *b = pb;
    return ((*a)->p > (*b)->p) - ((*a)->p < (*b)->p);
}

/* Holm's step-down adjustment over the comparisons of one compared value. */
static void
holm(struct il_cmp **cs, size_t m)
{
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        if (cs[i]->has_p)
            cs[k++] = cs[i];
    qsort(cs, k, sizeof *cs, cmp_p);
    double run = 0;
    for (size_t i = 0; i < k; i++) {
        double adj = fmin(1, (double)(k - i) * cs[i]->p);
        run = fmax(run, adj);
        cs[i]->p_holm = run;
        cs[i]->holm = 1;
        cs[i]->holm_sig = run < 1 - IL_CONF;
    }
}

/* Suite s's per-pass ratios, "1.176, 1.007, 0.999" (the first 6). */
static void
pass_list(char *buf, size_t n, const struct il_suite *s)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < s->npass_ratio && j < 6 && at < n; j++)
        at += (size_t)snprintf(buf + at, n - at, "%s%.4g", j ? ", " : "", s->pass_ratio[j]);
    if (s->npass_ratio > 6 && at < n)
        snprintf(buf + at, n - at, ", ... (%zu passes)", s->npass_ratio);
}

/* The harness's passes in suite s's verdict (out, appended) and their
 * warnings: with passes, a pass's benchmarks share its machine state,
 * so the interval over the passes is the one that sees a pass-wide
 * shift (suitepass.c). */
static void
suite_passes_words(const struct il_report *r, const struct il_suite *s, const char *what,
                   char *out, size_t n)
{
    const struct il_opts *o = r->o;
    int timey = il_sel_is_time(&o->sel);
    char list[256], est[64], ci[256], one[256];
    const char *va = il_str(&r->d.st, s->value);
    size_t at = strlen(out);
    pass_list(list, sizeof list, s);
    at += (size_t)snprintf(out + at, at < n ? n - at : 0,
                           "; but the benchmarks ran in passes, system after system (%zu of %s, "
                           "%zu of %s; %zu benchmarks in every one), and a pass's benchmarks "
                           "share its machine state",
                           s->pass_a, va, s->pass_b, o->cmp_base, s->pass_m);
    if (s->has_pass_ci) {
        il_change(est, sizeof est, s->pass_gm, timey, o->speedup);
        ci_words(ci, sizeof ci, s->pass_gm, s->pass_lo, s->pass_hi, timey, o->speedup);
        snprintf(out + at, at < n ? n - at : 0,
                 ": with the pass as the unit (Welch's t over the passes, %.3g df), %s, %s; "
                 "the suite's ratio per pass: %s",
                 s->pass_df, est, ci, list);
    } else if (s->npass_ratio)
        snprintf(out + at, at < n ? n - at : 0,
                 ", and with one pass a side no interval sees drift between them; the suite's "
                 "ratio per pass: %s",
                 list);
    else
        snprintf(out + at, at < n ? n - at : 0,
                 ", and no benchmark ran in every pass, so there is no ratio per pass");
    if (s->pass_a < 2 && s->pass_b < 2)
        snprintf(one, sizeof one, "each ran in one pass");
    else if (s->pass_a < 2 || s->pass_b < 2)
        snprintf(one, sizeof one, "%s ran in one pass (%s in %zu)",
                 s->pass_a < 2 ? va : o->cmp_base, s->pass_a < 2 ? o->cmp_base : va,
                 s->pass_a < 2 ? s->pass_b : s->pass_a);
    else
        one[0] = '\0';
    if (one[0])
        il_warn(IL_W_ONE_PASS, what, one);
    else if (s->has_pass_f && s->pass_p < 1 - IL_CONF)
        il_warn(IL_W_PASS_SHIFT, what, list, s->pass_f, s->pass_df1, s->pass_df2, s->pass_p);
}

/* The setups suite s's benchmarks share (suiteshare.c) in its verdict
 * (out, appended) and their warnings. */
static void
suite_shared_words(const struct il_report *r, const struct il_suite *s, const char *what,
                   char *out, size_t n)
{
    const struct il_opts *o = r->o;
    int timey = il_sel_is_time(&o->sel);
    char lab[160], ci[256];
    size_t at = strlen(out);
    il_shared_what(lab, sizeof lab, o);
    if (s->shared == 2) {
        snprintf(out + at, at < n ? n - at : 0,
                 "; %zu setups (%s) are shared by some of the benchmarks, %s: these intervals "
                 "take the benchmarks as independent and may be too narrow",
                 s->sh_k, lab, s->sh_why);
        il_warn(IL_W_PART_SHARED, what, s->sh_k, lab, s->n, s->sh_why);
        return;
    }
    snprintf(out + at, at < n ? n - at : 0,
             "; the benchmarks share their %zu setups (%s), so both intervals take the setups "
             "as the unit",
             s->sh_k, lab);
    /* the interval over independent benchmarks, had it been narrower */
    double wide = log(s->hi / s->lo);
    if (s->ind_has_ci && log(s->ind_hi / s->ind_lo) < wide) {
        ci_words(ci, sizeof ci, s->gm, s->ind_lo, s->ind_hi, timey, o->speedup);
        il_warn(IL_W_SHARED_SETUPS, what, s->n, s->sh_k, lab, ci,
                wide / log(s->ind_hi / s->ind_lo));
    }
}

static void
suite(struct il_report *r)
{
    const struct il_data *d = &r->d;
    const struct il_opts *o = r->o;
    int timey = il_sel_is_time(&o->sel);
    double *rat = il_xcalloc(r->ncmp, sizeof *rat);
    struct il_cmp **cs = il_xcalloc(r->ncmp, sizeof *cs);
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
        double sv = 0, sv2 = 0, sl = 0;
        int within = 1;
        for (size_t j = i; j < r->ncmp; j++) {
            struct il_cmp *c = &r->cmp[j];
            if (r->gs.g[c->g].key[r->cmp_pos] != v)
                continue;
            cs[s->n] = c;
            rat[s->n++] = c->f.ratio;
            within &= isfinite(c->vlog) && c->vlog >= 0;
            if (within) {
                sv += c->vlog;
                sv2 += isfinite(c->vlog_df) ? c->vlog * c->vlog / c->vlog_df : 0;
            }
        }
        size_t bad;
        int e = il_geomean_ci(rat, s->n, &s->gm, &s->blo, &s->bhi, &bad);
        if (e == IL_SE_NONPOS)
            errx(1,
                 "suite %s vs %s: ratio %g is not positive; a geometric mean needs "
                 "positive ratios",
                 il_str(&d->st, v), o->cmp_base, rat[bad]);
        s->has_bci = e == 0;
        /* These benchmarks: the mean log ratio has variance sum v_b / n^2. */
        if (within && s->n) {
            for (size_t j = 0; j < s->n; j++)
                sl += log(rat[j]);
            double m = sl / (double)s->n, V = sv / ((double)s->n * (double)s->n);
            double df = sv2 > 0 ? sv * sv / sv2 : INFINITY, hw = il_tq(df) * sqrt(V);
            s->lo = exp(m - hw);
            s->hi = exp(m + hw);
            s->has_ci = 1;
        }
        il_suite_shared(r, (const struct il_cmp *const *)cs, s->n, s);
        il_suite_passes(r, (const struct il_cmp *const *)cs, s->n, s);
        if (s->n > 1)
            holm(cs, s->n);
        char what[256], est[64], ci[256], ci2[256], out[2048];
        snprintf(what, sizeof what, "%s vs %s", il_str(&d->st, v), o->cmp_base);
        if (!s->has_bci)
            il_warn(IL_W_SUITE_ONE, what);
        il_change(est, sizeof est, s->gm, timey, o->speedup);
        if (s->has_ci)
            ci_words(ci, sizeof ci, s->gm, s->lo, s->hi, timey, o->speedup);
        else
            snprintf(ci, sizeof ci, "no interval (a benchmark has none)");
        if (s->has_bci) {
            ci_words(ci2, sizeof ci2, s->gm, s->blo, s->bhi, timey, o->speedup);
            snprintf(out, sizeof out,
                     "%s, geometric mean over %zu benchmarks: %s, %s for these benchmarks; "
                     "for benchmarks like these, %s",
                     what, s->n, est, ci, ci2);
        } else {
            snprintf(out, sizeof out, "%s, geometric mean over %zu benchmarks: %s, %s", what, s->n,
                     est, ci);
        }
        if (s->shared)
            suite_shared_words(r, s, what, out, sizeof out);
        if (s->has_passes)
            suite_passes_words(r, s, what, out, sizeof out);
        s->verdict = il_xstrdup(out);
    }
    free(rat);
    free(cs);
}

void
il_compare(struct il_report *r)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    char buf[1024];
    r->base_id = il_strtab_find(&d->st, o->cmp_base);
    size_t nbase = 0, nother = 0;
    for (size_t g = 0; g < r->gs.ng; g++) {
        nbase += r->gs.g[g].key[r->cmp_pos] == r->base_id;
        nother += r->gs.g[g].key[r->cmp_pos] != r->base_id;
    }
    if (nbase == 0) {
        list_values(r, r->cmp_pos, buf, sizeof buf);
        errx(1, "--compare %s=%s: no selected record has %s=%s; %s takes the values: %s",
             o->cmp_label, o->cmp_base, o->cmp_label, o->cmp_base, o->cmp_label, buf);
    }
    if (nother == 0)
        errx(1,
             "--compare %s=%s: every selected record has %s=%s, so there is nothing to "
             "compare it with; select records with other values of %s",
             o->cmp_label, o->cmp_base, o->cmp_label, o->cmp_base, o->cmp_label);
    r->cmp = il_xcalloc(r->gs.ng, sizeof *r->cmp);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const uint32_t *key = r->gs.g[g].key;
        if (key[r->cmp_pos] == r->base_id)
            continue;
        long b = il_group_find(&r->gs, key, r->cmp_pos, r->base_id);
        if (b < 0) {
            snprintf(buf, sizeof buf, "%s=%s", o->cmp_label, o->cmp_base);
            il_warn_item(IL_W_NOBASE, r->gname[g], buf);
            continue;
        }
        struct il_cmp *c = &r->cmp[r->ncmp++];
        c->g = g;
        c->base = (size_t)b;
        c->unit = il_group_name(d, &r->gs, key, " ", r->cmp_pos);
        if (o->speedup)
            snprintf(buf, sizeof buf, "%s / %s", r->gname[b], r->gname[g]);
        else
            snprintf(buf, sizeof buf, "%s / %s", r->gname[g], r->gname[b]);
        one_comparison(r, c, buf);
        il_setup_var_ratio(r, c);
        if (!c->few && c->f.kind != IL_CI_BOUNDED)
            il_warn_item(IL_W_NOTBOUNDED, buf,
                         c->f.kind == IL_CI_EXCLUSIVE ? "two half-lines" : "the whole line");
        check_hosts(r, c, buf);
    }
    if (r->gs.nkey > 1 && r->ncmp)
        suite(r);
    for (size_t i = 0; i < r->ncmp; i++)
        r->cmp[i].verdict = verdict_cmp(r, &r->cmp[i]);
}
