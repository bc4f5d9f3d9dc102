/*
 * minp.c: the smallest p-value a permutation test can give, counted
 * exactly from the design (interloper-report(1), "What each test
 * assumes").
 *
 * A permutation test compares its statistic with the statistic of every
 * arrangement the exchanges allow; among those, the observed one and the
 * arrangements the statistic cannot tell from it (an orbit of g) always
 * count as "at least as large".  So the exact p-value is at least g / M,
 * M the number of distinct arrangements, whatever the data (Good,
 * "Permutation Tests", 2nd ed., 2000, section 3.1; Edgington & Onghena,
 * "Randomization Tests", 4th ed., 2007, section 3.6).  Two setups in two
 * passes give the comparison's sign-flip test 2^4 arrangements, in pairs
 * of equal Q: p >= 1/8.  Such a test can never reject at 5%, and its "no"
 * would be no evidence: the question could not be tested (issue 13,
 * section 2), and the report says what it would need.
 *
 * M is a product over the exchange blocks of the arrangements of each
 * (a binomial coefficient for two sides, a multinomial for setups), kept
 * as a logarithm.  g is a lower bound of the statistic's symmetries:
 *   - the comparison: exchanging the two sides of every block at once
 *     negates every contrast, which leaves the spread of the setups'
 *     locations unchanged (when every block has as many runs of each side,
 *     so that the exchange is one of the arrangements): g = 2;
 *   - a group: setups whose runs fall alike into every block can trade
 *     their labels and the statistic only reorders its terms: g = the
 *     product of the factorials of the sizes of such classes.
 * With g a lower bound the smallest p may be larger still in some
 * unusual design; the test is then called testable when it may not be,
 * never the reverse.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

/* log C(n, k) */
static double
lchoose(size_t n, size_t k)
{
    return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

/* The passes (or setups) of the same kind that make log g - L * n <= log
 * 0.05, L the log arrangements that one more brings. */
static size_t
needed(double logg, double L)
{
    return L > 0 ? (size_t)ceil((logg - log(IL_PERM_ALPHA)) / L - 1e-9) : 0;
}

double
il_minp_contrast(const struct il_contrast *ct, struct il_minp *mp)
{
    memset(mp, 0, sizeof *mp);
    double logm = 0;
    int balanced = 1;
    for (size_t j = 0; j < ct->blocks; j++) {
        size_t na = ct->pairs ? 1 : ct->bna[j], nb = ct->pairs ? 1 : ct->bnb[j];
        logm += lchoose(na + nb, na);
        balanced &= na == nb;
    }
    double logg = balanced ? log(2) : 0;
    mp->minp = exp(logg - logm);
    if (ct->passes)
        mp->passes = needed(logg, logm / (double)ct->passes);
    if (ct->units)
        mp->setups = needed(logg, logm / (double)ct->units);
    return mp->minp;
}

double
il_minp_pairs(const size_t *na, const size_t *nb, size_t k, struct il_minp *mp)
{
    /* the runs of the two sides exchanged freely within each setup; g = 1
     * (the pooled variances need not be symmetric in the two sides) */
    memset(mp, 0, sizeof *mp);
    double logm = 0;
    for (size_t u = 0; u < k; u++)
        logm += lchoose(na[u] + nb[u], na[u]);
    mp->minp = exp(-logm);
    if (k)
        mp->setups = needed(0, logm / (double)k);
    return mp->minp;
}

enum { LF_N = 64 }; /* counts whose log n! il_minp_group keeps */

/* Runs of unit a and b fall alike into every block: cnt rows equal. */
static int
rowcmp(const void *pa, const void *pb, void *arg)
{
    size_t nb = *(size_t *)arg;
    return memcmp(*(size_t *const *)pa, *(size_t *const *)pb, nb * sizeof(size_t));
}

double
il_minp_group(const struct il_units *un, const uint32_t *pos, const size_t *bs, size_t nb,
              struct il_minp *mp)
{
    memset(mp, 0, sizeof *mp);
    size_t N = 0, k = un->k;
    for (size_t u = 0; u < k; u++)
        N += un->n[u];
    if (!pos)
        nb = 1;
    uint32_t *unit = il_xcalloc(N ? N : 1, sizeof *unit);
    for (size_t u = 0; u < k; u++)
        for (size_t i = 0; i < un->n[u]; i++)
            unit[un->off[u] + i] = (uint32_t)u;
    /* cnt[b * k + u]: runs of unit u in block b, block by block (the
     * count and the sums below read it in order: unit by unit, each sum
     * was a cache miss a unit at ten million records) */
    size_t *cnt = il_xcalloc(k && nb ? k * nb : 1, sizeof *cnt);
    for (size_t b = 0; b < nb; b++) {
        size_t lo = pos ? bs[b] : 0, hi = pos ? bs[b + 1] : N;
        for (size_t i = lo; i < hi; i++)
            cnt[b * k + unit[pos ? pos[i] : i]]++;
    }
    /* log n! of the small counts, once (lgamma's values) */
    double lf[LF_N];
    for (size_t c = 0; c < LF_N; c++)
        lf[c] = lgamma((double)c + 1);
    double logm = 0;
    for (size_t b = 0; b < nb; b++) {
        size_t n = 0;
        for (size_t u = 0; u < k; u++) {
            size_t c = cnt[b * k + u];
            n += c;
            logm -= c < LF_N ? lf[c] : lgamma((double)c + 1);
        }
        logm += lgamma((double)n + 1);
    }
    /* the classes of units with equal rows (a unit's counts over the
     * blocks): one class of all when every block holds as many runs of
     * each unit (a sweep's grid), else the rows sorted as memcmp orders
     * them and the classes' log c! added in that order */
    int one = 1;
    for (size_t b = 0; b < nb && one; b++)
        for (size_t u = 1; u < k && one; u++)
            one = cnt[b * k + u] == cnt[b * k];
    double logg = 0;
    free(cnt);
    if (one) {
        logg += lgamma((double)k + 1);
    } else {
        /* counted again unit by unit (two tables at once would double
         * the peak) */
        size_t *rows = il_xcalloc(k && nb ? k * nb : 1, sizeof *rows);
        for (size_t b = 0; b < nb; b++) {
            size_t lo = pos ? bs[b] : 0, hi = pos ? bs[b + 1] : N;
            for (size_t i = lo; i < hi; i++)
                rows[unit[pos ? pos[i] : i] * nb + b]++;
        }
        size_t **row = il_xcalloc(k ? k : 1, sizeof *row);
        for (size_t u = 0; u < k; u++)
            row[u] = rows + u * nb;
        qsort_r(row, k, sizeof *row, rowcmp, &nb);
        for (size_t u = 0, c = 1; u < k; u++) {
            if (u + 1 < k && memcmp(row[u], row[u + 1], nb * sizeof(size_t)) == 0) {
                c++;
                continue;
            }
            logg += lgamma((double)c + 1);
            c = 1;
        }
        free(row);
        free(rows);
    }
    mp->minp = exp(logg - logm);
    size_t passes = 0;
    for (size_t b = 0; pos && b < nb; b++)
        passes += b == 0 || il_upass(un, pos[bs[b]]) != il_upass(un, pos[bs[b - 1]]);
    if (passes)
        mp->passes = needed(logg, logm / (double)passes);
    free(unit);
    return mp->minp;
}

void
il_minp_why(const struct il_minp *mp, size_t setups, size_t passes, char *buf, size_t n)
{
    char need[128];
    if (mp->passes && mp->setups)
        snprintf(need, sizeof need, "it needs %zu passes, or %zu setups", mp->passes, mp->setups);
    else if (mp->passes)
        snprintf(need, sizeof need, "it needs %zu passes, or more setups", mp->passes);
    else
        snprintf(need, sizeof need, "it needs more runs or setups");
    /* 1/8 when the smallest p is one over a whole number, as it is when
     * every arrangement gives its own value of the statistic */
    char p[32];
    double inv = 1 / mp->minp;
    if (inv < 1e6 && fabs(inv - round(inv)) < 1e-6 * inv)
        snprintf(p, sizeof p, "1/%.0f", round(inv));
    else
        snprintf(p, sizeof p, "%.2g", mp->minp);
    if (passes)
        snprintf(buf, n,
                 "with %zu setups in %zu passes the exchanges cannot give p below %s, so the test "
                 "could never reject at %g (%s)",
                 setups, passes, p, IL_PERM_ALPHA, need);
    else
        snprintf(buf, n,
                 "with these %zu setups and runs the exchanges cannot give p below %s, so the "
                 "test could never reject at %g (%s)",
                 setups, p, IL_PERM_ALPHA, need);
}
