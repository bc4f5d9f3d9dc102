/*
 * kde.c: a Gaussian kernel density for the violin plots (Mytkowicz et al.,
 * Fig. 2b/3b: "the width of a violin at y-value y is proportional to the
 * number of times we observed y").
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_stats.h"

/* Silverman's rule: 0.9 min(sd, IQR/1.34) n^(-1/5); returns the bandwidth. */
double
il_kde(const double *x, size_t n, double lo, double hi, size_t m, double *dens)
{
    double *s = malloc(n * sizeof *s);
    if (!s || n == 0 || m < 2) {
        free(s);
        return 0;
    }
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, il_dcmp);
    double sd = n > 1 ? sqrt(il_var(x, n, il_mean(x, n))) : 0;
    double iqr = il_quantile_sorted(s, n, 0.75) - il_quantile_sorted(s, n, 0.25);
    double spread = iqr > 0 && iqr / 1.34 < sd ? iqr / 1.34 : sd;
    double bw = 0.9 * spread * pow((double)n, -0.2);
    if (!(bw > 0))
        bw = fabs(s[0]) > 0 ? fabs(s[0]) * 1e-3 : 1e-3;
    free(s);
    for (size_t j = 0; j < m; j++) {
        double y = lo + (hi - lo) * (double)j / (double)(m - 1), sum = 0;
        for (size_t i = 0; i < n; i++) {
            double z = (y - x[i]) / bw;
            if (fabs(z) < 8)
                sum += exp(-0.5 * z * z);
        }
        dens[j] = sum / ((double)n * bw * sqrt(2 * M_PI));
    }
    return bw;
}
