/*
 * levels.c: multi-level repetition after Kalibera & Jones, "Rigorous
 * Benchmarking in Reasonable Time", ISMM 2013, section 9:
 *   9.2  S_i^2 (eq. 1) and the unbiased T_i^2.  We use the corrected form
 *        T_i^2 = S_i^2 - S_(i-1)^2 / r_(i-1) (tests/stats/test_stats_oracle.c);
 *        the published form used T_(i-1)^2 there and is biased for i >= 3.
 *   9.3  the interval of the grand mean from S_n^2 alone, and the
 *        non-parametric alternative: a hierarchical bootstrap.
 *   9.1  optimal lower-level counts r_i = ceil(sqrt(c_(i+1) T_i^2 /
 *        (c_i T_(i+1)^2))) from costs c_i exclusive of lower levels.
 * Index 0 is level 1, the lowest (e.g. iterations).
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

int
il_levels_compute(const double *y, const size_t *r, size_t n, struct il_levels *lv)
{
    size_t N = 1;
    memset(lv, 0, sizeof *lv);
    if (n < 1 || n > IL_MAX_LEVELS)
        return IL_SE_RANGE;
    for (size_t i = 0; i < n; i++) {
        if (r[i] < 2)
            return IL_SE_FEW;
        N *= r[i];
    }
    double *cur = malloc(N * sizeof *cur);
    if (!cur)
        return IL_SE_NOMEM;
    memcpy(cur, y, N * sizeof *cur);
    lv->n = n;
    size_t count = N;
    for (size_t i = 0; i < n; i++) {
        size_t blocks = count / r[i];
        double sum = 0;
        for (size_t b = 0; b < blocks; b++) {
            double m = il_mean(cur + b * r[i], r[i]);
            sum += il_var(cur + b * r[i], r[i], m);
            cur[b] = m;
        }
        lv->r[i] = r[i];
        lv->S2[i] = sum / (double)blocks;
        count = blocks;
    }
    lv->mean = cur[0];
    free(cur);
    double pos = 0;
    for (size_t i = 0; i < n; i++) {
        lv->T2[i] = i == 0 ? lv->S2[0] : lv->S2[i] - lv->S2[i - 1] / (double)r[i - 1];
        if (lv->T2[i] > 0)
            pos += lv->T2[i];
    }
    for (size_t i = 0; i < n; i++)
        lv->share[i] = pos > 0 && lv->T2[i] > 0 ? lv->T2[i] / pos : 0;
    size_t rn = r[n - 1];
    double hw = il_tq((double)(rn - 1)) * sqrt(lv->S2[n - 1] / (double)rn);
    lv->lo = lv->mean - hw;
    lv->hi = lv->mean + hw;
    lv->has_ci = 1;
    return 0;
}

/*
 * A level with T_i^2 <= 0 adds no variance: repeat it once.  The paper:
 * that is "semantically equivalent to running the initial experiment again
 * with fewer levels", so such a level merges into its parent, whose unit
 * then holds exactly one of it: the parent's cost includes the merged
 * level's cost, and its variance the merged level's (when positive).
 * This holds in both directions: for r_i, the parent of level i is the
 * next level up that is not merged, with the costs of the merged levels
 * between; and level i's own unit includes the merged levels just below
 * it (costs 100, 1, 10 with T^2 of the lowest level 0: the middle level's
 * unit costs 1 + 10, not 1).  A level whose optimum rounds to 1 is then
 * merged as well and the counts computed again, until none changes.
 */
void
il_levels_reps(const struct il_levels *lv, const double *cost, long *reps)
{
    size_t n = lv->n;
    int merged[IL_MAX_LEVELS] = {0};
    for (size_t i = 0; i + 1 < n; i++)
        merged[i] = lv->T2[i] <= 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i + 1 < n; i++) {
            if (merged[i]) {
                reps[i] = 1;
                continue;
            }
            /* Own unit: level i and the merged levels just below it. */
            double c = cost[i], v = lv->T2[i];
            for (size_t j = i; j-- > 0 && merged[j];) {
                c += cost[j];
                v += lv->T2[j] > 0 ? lv->T2[j] : 0;
            }
            /* Parent: the next level up that is not merged (the top
             * level counts as merged when it shows no variance). */
            size_t k = i + 1;
            double ck = 0, vk = 0;
            while (k < n && (k + 1 < n ? merged[k] : lv->T2[k] <= 0)) {
                ck += cost[k];
                vk += lv->T2[k] > 0 ? lv->T2[k] : 0;
                k++;
            }
            if (k == n) {
                reps[i] = 0;
                continue;
            }
            ck += cost[k];
            vk += lv->T2[k];
            reps[i] = (long)ceil(sqrt(ck / c * v / vk));
            if (reps[i] <= 1) {
                reps[i] = 1;
                merged[i] = 1;
                changed = 1;
            }
        }
    }
}

/* Expected S_n^2 of a real experiment with lower counts reps (section
 * 9.1's point prediction): T_n^2 + T_(n-1)^2 / r_(n-1) + T_(n-2)^2 /
 * (r_(n-1) r_(n-2)) + ..., negative T^2 taken as 0. */
double
il_levels_predict(const struct il_levels *lv, const long *reps)
{
    size_t n = lv->n;
    double s = lv->T2[n - 1] > 0 ? lv->T2[n - 1] : 0, div = 1;
    for (size_t i = n - 1; i-- > 0;) {
        div *= (double)reps[i];
        if (lv->T2[i] > 0)
            s += lv->T2[i] / div;
    }
    return s;
}

/* The smallest top count R >= 2 whose predicted half-width t(R - 1)
 * sqrt(s2 / R) is at most goal: the count that meets the target "in the
 * expected case", as section 9.1 plans. */
int
il_levels_expected(double s2, double goal, long limit, long *top)
{
    if (!(s2 > 0) || !(goal > 0))
        return IL_SE_RANGE;
    for (long rn = 2; rn <= limit; rn++) {
        if (il_tq((double)(rn - 1)) * sqrt(s2 / (double)rn) <= goal) {
            *top = rn;
            return 0;
        }
    }
    return IL_SE_NOTFOUND;
}

/*
 * Assurance: the probability that the real experiment meets the target.
 * Kalibera & Jones (section 9, "Multi-level Repetition") plan from point
 * estimates: "as long as the variances in the real experiments are similar
 * to those in the initial experiments, the repetition counts remain
 * optimal", and the real interval uses the real experiment's S_n^2 alone
 * (section 9.3).  So whether the real half-width meets a target is random
 * twice over: the initial experiment's variances are estimates, and the
 * real S_n^2 is a sample variance.  A count that meets the target "in the
 * expected case" does so about half the time.
 *
 * The real S_n^2 over R top repetitions is sigma^2 chi^2_(R-1) / (R-1),
 * sigma^2 = sum_i tau_i^2 / D_i the variance of one top-level mean (D_i =
 * r_i ... r_(n-1), D_n = 1, with the real counts r_i), and the half-width
 * t(R-1) sqrt(S_n^2 / R) is within goal when S_n^2 <= R goal^2 / t^2.
 * What the initial experiment says of sigma^2: its S_i^2 are independent
 * (balanced design), theta_i chi^2_(nu_i) / nu_i with nu_i = (m_i - 1)
 * m_(i+1) ... m_n (m_i its counts) and theta_i = E S_i^2 = tau_i^2 +
 * theta_(i-1) / m_(i-1), which eq. (2) inverts.  A draw of each theta_i as
 * nu_i S_i^2 / chi^2_(nu_i) (the generalised pivotal quantity; also the
 * posterior under the scale-invariant prior), turned into tau_i^2 by eq.
 * (2), gives a draw of sigma^2 (a negative tau_i^2 taken as 0, as no
 * variance is below 0, except at the initial counts, where the sum is
 * theta_n itself and needs no such help); the
 * assurance is the mean over draws of P(chi^2_(R-1) <= (R-1) R goal^2 /
 * (t^2 sigma^2)).  At the initial counts this is exactly the predictive
 * probability P(F(R-1, m_n-1) <= R goal^2 / (t^2 S_n^2)), whose expectation
 * over initial experiments is the probability that the real experiment
 * meets the target.  The draws are made once per design with a fixed seed
 * (the same input gives the same figure) and shared by every R.
 * bench/plan-assurance.sh checks by simulation that the stated
 * probability is met, the counts chosen from the initial experiment
 * included.
 */
int
il_levels_draws(const struct il_levels *lv, const long *reps, size_t M, double *out)
{
    size_t n = lv->n;
    double nu[IL_MAX_LEVELS], D[IL_MAX_LEVELS];
    if (n == 0 || M == 0)
        return IL_SE_RANGE;
    D[n - 1] = 1;
    for (size_t i = n - 1; i-- > 0;) {
        if (reps[i] < 1)
            return IL_SE_RANGE;
        D[i] = D[i + 1] * (double)reps[i];
    }
    for (size_t i = 0; i < n; i++) {
        nu[i] = (double)lv->r[i] - 1;
        for (size_t j = i + 1; j < n; j++)
            nu[i] *= (double)lv->r[j];
        if (!(lv->S2[i] >= 0) || !isfinite(lv->S2[i]))
            return IL_SE_RANGE;
    }
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    if (!g)
        return IL_SE_NOMEM;
    gsl_rng_set(g, IL_ASSURE_SEED);
    int same = 1;
    for (size_t i = 0; i + 1 < n; i++)
        same &= reps[i] == (long)lv->r[i];
    for (size_t k = 0; k < M; k++) {
        double prev = 0, s = 0;
        for (size_t i = 0; i < n; i++) {
            double th = nu[i] * lv->S2[i] / gsl_ran_chisq(g, nu[i]);
            double tau2 = i == 0 ? th : th - prev / (double)lv->r[i - 1];
            s += (same || tau2 > 0 ? tau2 : 0) / D[i];
            prev = th;
        }
        out[k] = s;
    }
    gsl_rng_free(g);
    return 0;
}

double
il_levels_assurance(const double *draws, size_t M, long top, double goal)
{
    if (top < 2 || !(goal > 0) || M == 0)
        return 0;
    double nu = (double)(top - 1), t = il_tq(nu), c = nu * (double)top * goal * goal / (t * t);
    double sum = 0;
    for (size_t k = 0; k < M; k++)
        sum += draws[k] > 0 ? gsl_cdf_chisq_P(c / draws[k], nu) : 1;
    return sum / (double)M;
}

/* The smallest top count with an assurance of at least want, searched
 * from start (the expected-case count): down one by one, or up by
 * doubling and then halving (the probability rises with the count). */
int
il_levels_assured(const double *draws, size_t M, double goal, double want, long start, long limit,
                  long *top, double *p)
{
    if (!(want > 0 && want < 1) || !(goal > 0) || start < 2)
        return IL_SE_RANGE;
    double q = il_levels_assurance(draws, M, start, goal);
    if (q >= want) {
        long rn = start;
        for (double q2; rn > 2 && (q2 = il_levels_assurance(draws, M, rn - 1, goal)) >= want; rn--)
            q = q2;
        *top = rn;
        *p = q;
        return 0;
    }
    long lo = start, hi = start;
    do {
        if (hi >= limit)
            return IL_SE_NOTFOUND;
        lo = hi;
        hi = hi > limit / 2 ? limit : 2 * hi;
    } while (il_levels_assurance(draws, M, hi, goal) < want);
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (il_levels_assurance(draws, M, mid, goal) >= want)
            hi = mid;
        else
            lo = mid;
    }
    *top = hi;
    *p = il_levels_assurance(draws, M, hi, goal);
    return 0;
}

/*
 * The design for a target: the lower counts optimal from the costs when
 * there are some (section 9.1), else the initial experiment's.  When the
 * top level's T_n^2 <= 0 left no lower count optimal, there is no design
 * (IL_SE_NONPOS): keeping the initial counts then would rest on an S_n^2
 * selected for being small, and promise too much.  The top count meets
 * the target in the expected case, or with the asked probability.
 */
int
il_levels_design(const struct il_levels *lv, const long *reps, double rel, double want, long limit,
                 struct il_assure *a)
{
    size_t n = lv->n;
    double goal = rel * fabs(lv->mean);
    memset(a, 0, sizeof *a);
    if (n == 0 || !(goal > 0) || !isfinite(goal))
        return IL_SE_RANGE;
    a->initial = reps == NULL;
    for (size_t i = 0; i + 1 < n; i++) {
        a->design[i] = a->initial ? (long)lv->r[i] : reps[i];
        if (a->design[i] < 1)
            a->no_estimate = 1;
    }
    if (a->no_estimate)
        return IL_SE_NONPOS;
    a->s2 = il_levels_predict(lv, a->design);
    if (!(a->s2 > 0))
        return IL_SE_ZEROVAR;
    if (il_levels_expected(a->s2, goal, limit, &a->expected)) {
        a->expected = 0;
        return IL_SE_NOTFOUND;
    }
    double *draws = malloc(IL_ASSURE_DRAWS * sizeof *draws);
    if (!draws)
        return IL_SE_NOMEM;
    int e = il_levels_draws(lv, a->design, IL_ASSURE_DRAWS, draws);
    if (!e) {
        a->p = a->p_expected = il_levels_assurance(draws, IL_ASSURE_DRAWS, a->expected, goal);
        a->design[n - 1] = a->expected;
        if (want > 0)
            e = il_levels_assured(draws, IL_ASSURE_DRAWS, goal, want, a->expected, limit,
                                  &a->design[n - 1], &a->p);
    }
    free(draws);
    return e;
}

/*
 * When the top level's T_n^2 <= 0, no lower count is optimal (eq. (2)
 * cannot tell its variance from zero).  What would: in an initial
 * experiment of K top units, each holding m children, T_n^2 > 0 when S_n^2
 * > S_(n-1)^2 / m, and S_n^2 / S_(n-1)^2 * m is (1 + m rho) F(K - 1,
 * K (m - 1)), rho = tau_n^2 / E S_(n-1)^2.  The smallest K that shows a
 * top-level sd of sd (so rho = sd^2 / S_(n-1)^2, at this experiment's
 * S_(n-1)^2) with probability conf; 0 beyond limit.
 */
long
il_levels_pilot_top(const struct il_levels *lv, double sd, double conf, long limit)
{
    size_t n = lv->n;
    if (n < 2 || !(lv->S2[n - 2] > 0) || !(sd > 0))
        return 0;
    double m = (double)lv->r[n - 2], rho = sd * sd / lv->S2[n - 2];
    double cut = 1 / (1 + m * rho);
#define SHOWS(k) (gsl_cdf_fdist_Q(cut, (double)(k)-1, (double)(k) * (m - 1)) >= conf)
    long k = 2;
    for (; k <= limit && k < 1024; k++)
        if (SHOWS(k))
            return k;
    /* past 1024: doubling, then halving (it rises with K) */
    long lo = k - 1, hi = k;
    for (; !SHOWS(hi); lo = hi, hi *= 2)
        if (hi >= limit)
            return 0;
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (SHOWS(mid))
            hi = mid;
        else
            lo = mid;
    }
#undef SHOWS
    return hi <= limit ? hi : 0;
}

struct boot {
    const double *y;
    const size_t *r;
    size_t size[IL_MAX_LEVELS + 1];
    gsl_rng *rng;
};

/* Mean of a resampled level-i unit (i >= 1; level 1 is one value). */
static double
unit_mean(struct boot *b, size_t i, size_t off)
{
    if (i == 1)
        return b->y[off];
    size_t rr = b->r[i - 2], sz = b->size[i - 1];
    double s = 0;
    for (size_t k = 0; k < rr; k++)
        s += unit_mean(b, i - 1, off + gsl_rng_uniform_int(b->rng, rr) * sz);
    return s / (double)rr;
}

int
il_boot_hier(const double *y, const size_t *r, size_t n, size_t B, unsigned long seed, double *out)
{
    struct boot b = {y, r, {0}, NULL};
    if (n < 1 || n > IL_MAX_LEVELS)
        return IL_SE_RANGE;
    b.size[1] = 1;
    for (size_t i = 2; i <= n; i++)
        b.size[i] = b.size[i - 1] * r[i - 2];
    b.rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!b.rng)
        return IL_SE_NOMEM;
    gsl_rng_set(b.rng, seed);
    size_t rn = r[n - 1];
    for (size_t k = 0; k < B; k++) {
        double s = 0;
        for (size_t j = 0; j < rn; j++)
            s += unit_mean(&b, n, gsl_rng_uniform_int(b.rng, rn) * b.size[n]);
        out[k] = s / (double)rn;
    }
    gsl_rng_free(b.rng);
    return 0;
}

struct arr {
    const double *x;
    const uint32_t *const *lab;
    size_t n, *idx, ny;
    double *y;
    size_t want[IL_MAX_LEVELS], first[IL_MAX_LEVELS];
    int set[IL_MAX_LEVELS];
    size_t *where, *depth, *got, *wantp, *other;
};

static const struct arr *sort_ctx;

static int
cmp_rec(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    for (size_t d = 0; d < sort_ctx->n; d++) {
        uint32_t x = sort_ctx->lab[a][d], y = sort_ctx->lab[b][d];
        if (x != y)
            return x < y ? -1 : 1;
    }
    return (a > b) - (a < b);
}

static int
walk(struct arr *a, size_t lo, size_t hi, size_t d)
{
    if (d == a->n) {
        if (hi - lo != 1) {
            *a->where = a->idx[lo];
            *a->other = a->idx[lo + 1];
            *a->depth = d;
            *a->got = hi - lo;
            return IL_SE_DUP;
        }
        a->y[a->ny++] = a->x[a->idx[lo]];
        return 0;
    }
    size_t c = 0;
    for (size_t i = lo; i < hi; c++) {
        size_t j = i;
        while (j < hi && a->lab[a->idx[j]][d] == a->lab[a->idx[i]][d])
            j++;
        i = j;
    }
    if (!a->set[d]) {
        a->set[d] = 1;
        a->want[d] = c;
        a->first[d] = a->idx[lo];
    } else if (a->want[d] != c) {
        *a->where = a->idx[lo];
        *a->other = a->first[d];
        *a->depth = d;
        *a->got = c;
        *a->wantp = a->want[d];
        return IL_SE_UNBAL;
    }
    for (size_t i = lo; i < hi;) {
        size_t j = i;
        while (j < hi && a->lab[a->idx[j]][d] == a->lab[a->idx[i]][d])
            j++;
        int e = walk(a, i, j, d + 1);
        if (e)
            return e;
        i = j;
    }
    return 0;
}

int
il_levels_arrange(const double *x, const uint32_t *const *lab, size_t nrec, size_t n, double **y,
                  size_t *r, size_t *where, size_t *depth, size_t *got, size_t *want, size_t *other)
{
    struct arr a;
    memset(&a, 0, sizeof a);
    a.x = x;
    a.lab = lab;
    a.n = n;
    a.where = where;
    a.depth = depth;
    a.got = got;
    a.wantp = want;
    a.other = other;
    a.idx = malloc(nrec * sizeof *a.idx);
    a.y = malloc(nrec * sizeof *a.y);
    if (!a.idx || !a.y) {
        free(a.idx);
        free(a.y);
        return IL_SE_NOMEM;
    }
    for (size_t i = 0; i < nrec; i++)
        a.idx[i] = i;
    sort_ctx = &a;
    qsort(a.idx, nrec, sizeof *a.idx, cmp_rec);
    int e = walk(&a, 0, nrec, 0);
    free(a.idx);
    if (e) {
        free(a.y);
        return e;
    }
    for (size_t i = 0; i < n; i++)
        r[i] = a.want[n - 1 - i];
    *y = a.y;
    return 0;
}
