/*
 * plot_env.c: interloper plot env (plot.h), Mytkowicz et al.'s Fig. 1b:
 * the metric against setup.env_bytes, the estimate and its 95% interval
 * at each size, a line per group; with --setup, each group's noise band
 * and the sizes that stand out, as interloper report's setup effects
 * (setupfx.c) judge them.  The key names the stack pin's factor.
 */
#include <err.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "il_names.h"
#include "plot.h"

/* One environment size of sort_by_size: its value, its runs, where they
 * go. */
struct size_slot {
    double v;
    size_t n, at;
};

static int
cmp_size(const void *a, const void *b)
{
    const struct size_slot *x = a, *y = b;
    return (x->v > y->v) - (x->v < y->v);
}

/* The hash table's place of size v (its bits, 0 and -0 alike: they are one
 * size, as == says) among cap (a power of 2). */
static size_t
size_hash(double v, size_t cap)
{
    uint64_t b;
    v = v == 0 ? 0 : v;
    memcpy(&b, &v, sizeof b);
    /* a whole number's low bits are 0: fold the high ones down, before
     * and after the multiplication (splitmix64's mixing) */
    b ^= b >> 30;
    b *= 0xBF58476D1CE4E5B9ULL;
    b ^= b >> 27;
    b *= 0x94D049BB133111EBULL;
    b ^= b >> 31;
    return (size_t)b & (cap - 1);
}

/* The runs of group gr into ev (3 doubles each: size, value times f,
 * record) in the order of their sizes, the runs of one size in their
 * order: what a stable comparison sort by size gives (glibc's qsort, a
 * merge sort, did it before), in time linear in the runs and the sizes'
 * sort: a run counts its size in a hash table of the sizes (which[i]: its
 * size's slot; which has room for gr->n), the distinct sizes are sorted,
 * and each run is written after the runs of the sizes before its own (a
 * counting sort), straight into ev.  Sizes are numbers (never NaN:
 * il_span_number reads JSON's). */
static void
sort_by_size(const struct il_report *r, const struct il_group *gr, double f, double *ev,
             size_t *which)
{
    size_t n = gr->n, cap = 64, nd = 0, *tab = il_xmalloc(cap * sizeof *tab);
    struct size_slot *d = il_xmalloc(cap / 2 * sizeof *d);
    memset(tab, 0xff, cap * sizeof *tab);
    for (size_t i = 0; i < n; i++) {
        double v = r->d.env[gr->rec[i]];
        size_t h = size_hash(v, cap);
        while (tab[h] != SIZE_MAX && d[tab[h]].v != v)
            h = (h + 1) & (cap - 1);
        if (tab[h] == SIZE_MAX) {
            if (2 * (nd + 1) > cap) {
                /* twice the room: the table at most half full */
                cap *= 2;
                tab = il_xrealloc(tab, cap * sizeof *tab);
                d = il_xrealloc(d, cap / 2 * sizeof *d);
                memset(tab, 0xff, cap * sizeof *tab);
                for (size_t k = 0; k < nd; k++) {
                    size_t g = size_hash(d[k].v, cap);
                    while (tab[g] != SIZE_MAX)
                        g = (g + 1) & (cap - 1);
                    tab[g] = k;
                }
                h = size_hash(v, cap);
                while (tab[h] != SIZE_MAX)
                    h = (h + 1) & (cap - 1);
            }
            tab[h] = nd;
            d[nd++] = (struct size_slot){v, 0, 0};
        }
        which[i] = tab[h];
        d[tab[h]].n++;
    }
    /* the sizes in order, each at its index in the table's order */
    struct size_slot *o = il_xmalloc((nd ? nd : 1) * sizeof *o);
    memcpy(o, d, nd * sizeof *o);
    for (size_t k = 0; k < nd; k++)
        o[k].at = k;
    qsort(o, nd, sizeof *o, cmp_size);
    for (size_t k = 0, at = 0; k < nd; k++) {
        d[o[k].at].at = at;
        at += o[k].n;
    }
    for (size_t i = 0; i < n; i++) {
        double *e = ev + 3 * d[which[i]].at++;
        e[0] = r->d.env[gr->rec[i]];
        e[1] = gr->x[i] * f;
        e[2] = (double)gr->rec[i];
    }
    free(o);
    free(d);
    free(tab);
}

/* A label's value as a key says it: the stack pin's "on" and "off" name
 * their factor ("stack pinned", "not pinned"); other values as they are. */
static const char *
key_value(const char *label, const char *v)
{
    if (!strcmp(label, IL_L_PIN))
        return !strcmp(v, "on") ? "stack pinned" : !strcmp(v, "off") ? "not pinned" : v;
    return v;
}

/* The group's name for a key: its labels that differ between groups,
 * the values alone when one label does (key_value). */
static void
series_name(const struct il_report *r, size_t g, char *buf, size_t n)
{
    size_t m = 0, nvary = 0, vary[IL_MAX_SLOTS];
    for (size_t i = 0; i < r->gs.nkey; i++) {
        int differs = 0;
        for (size_t h = 0; h < r->gs.ng && !differs; h++)
            differs = r->gs.g[h].key[i] != r->gs.g[0].key[i];
        if (differs)
            vary[nvary++] = i;
    }
    buf[0] = '\0';
    for (size_t j = 0; j < nvary && m < n; j++) {
        size_t i = vary[j];
        const char *l = r->d.slot_name[r->gs.slot[i]];
        const char *v = il_str(&r->d.st, r->gs.g[g].key[i]), *kv = key_value(l, v);
        if (nvary == 1 || kv != v)
            m += (size_t)snprintf(buf + m, n - m, "%s%s", m ? " " : "", kv);
        else
            m += (size_t)snprintf(buf + m, n - m, "%s%s=%s", m ? " " : "", l, v);
    }
    if (!m)
        snprintf(buf, n, "%s", r->gname[g]);
}

/* x[0..n) in ascending order (tmp: room for n) by the steps of glibc's
 * merge sort (msort_with_tmp), which qsort(x, n, sizeof *x, il_dcmp)
 * took before: the first n / 2 and the rest sorted, then merged, the left
 * one first unless it is greater, so that even a NaN (which il_dcmp
 * calls equal to all, and which makes the order depend on the steps)
 * lands where it did. */
static void
msort_values(double *x, size_t n, double *tmp)
{
    if (n <= 1)
        return;
    size_t n1 = n / 2, n2 = n - n1;
    msort_values(x, n1, tmp);
    msort_values(x + n1, n2, tmp);
    const double *a = x, *b = x + n1;
    double *t = tmp;
    while (n1 > 0 && n2 > 0) {
        if (!(*a > *b)) {
            *t++ = *a++;
            n1--;
        } else {
            *t++ = *b++;
            n2--;
        }
    }
    if (n1 > 0)
        memcpy(t, a, n1 * sizeof *t);
    memcpy(x, tmp, (n - n2) * sizeof *x);
}

/* Runs a[0..na) and b[0..nb), each in order, merged into t, a's first
 * where they are equal (stable). */
static void
merge_values(const double *a, size_t na, const double *b, size_t nb, double *t)
{
    const double *ae = a + na, *be = b + nb;
    while (a < ae && b < be) {
        /* no branch on the comparison, whose outcome is a coin's toss */
        int lt = *b < *a;
        double va = *a, vb = *b;
        *t++ = lt ? vb : va;
        b += lt;
        a += !lt;
    }
    while (a < ae)
        *t++ = *a++;
    while (b < be)
        *t++ = *b++;
}

/* x[0..n) in ascending order, in place (tmp: room for n): the order the
 * qsort of x with il_dcmp gave before.  Without a NaN the values are in a
 * total order but for 0 and -0, which are equal and kept in their order,
 * as a stable sort keeps them: every stable sort gives that order, so
 * the values are sorted by insertion in runs of 16, and the runs merged
 * in turn (the comparison inline rather than called through a pointer:
 * at a million records, 10,000 sizes of 100 runs each, the calls were 6%
 * of plot env's CPU time); with one, msort_values. */
#define IL_SORT_RUN 16
static void
sort_values(double *x, size_t n, double *tmp)
{
    int nan = 0;
    for (size_t i = 0; i < n; i++)
        nan |= x[i] != x[i];
    if (nan) {
        msort_values(x, n, tmp);
        return;
    }
    for (size_t s = 0; s < n; s += IL_SORT_RUN) {
        size_t e = s + IL_SORT_RUN < n ? s + IL_SORT_RUN : n;
        for (size_t i = s + 1; i < e; i++) {
            double v = x[i];
            size_t j = i;
            for (; j > s && x[j - 1] > v; j--)
                x[j] = x[j - 1];
            x[j] = v;
        }
    }
    double *from = x, *to = tmp;
    for (size_t w = IL_SORT_RUN; w < n; w *= 2) {
        for (size_t s = 0; s < n; s += 2 * w) {
            size_t m = s + w < n ? s + w : n, e = s + 2 * w < n ? s + 2 * w : n;
            merge_values(from + s, m - s, from + m, e - m, to + s);
        }
        double *t = from;
        from = to;
        to = t;
    }
    if (from != x)
        memcpy(x, from, n * sizeof *x);
}

/* The estimate and its 95% interval of x[0..n) (sorted in place, tmp
 * room for n): the report's own intervals, lo = hi = NAN without one. */
static void
estimate_ci(const struct il_estimator *e, double *x, size_t n, double *tmp, double *est,
            double *lo, double *hi)
{
    double m;
    *lo = *hi = NAN;
    sort_values(x, n, tmp);
    switch (e->kind) {
    case IL_EST_MEAN:
        if (il_tci(x, n, &m, lo, hi))
            *lo = *hi = NAN;
        *est = il_mean(x, n);
        return;
    case IL_EST_MIN:
        *est = x[0];
        return;
    default:
        *est = il_quantile_sorted(x, n, e->kind == IL_EST_MEDIAN ? 0.5 : e->p);
        if (il_quantile_ci(x, n, e->kind == IL_EST_MEDIAN ? 0.5 : e->p, lo, hi, NULL))
            *lo = *hi = NAN;
    }
}

/* The index in s of the setup of the runs ev[3 i + 2] for i in [a, b) (one
 * environment size), SIZE_MAX when it has none; an error when they are in
 * several setups (--setup names something else than the size). */
static size_t
size_setup(const struct il_report *r, const struct il_gsetups *s, const double *ev, size_t a,
           size_t b)
{
    uint32_t u = il_plot_unit_of(r, (size_t)ev[3 * a + 2]);
    for (size_t i = a + 1; i < b; i++)
        if (il_plot_unit_of(r, (size_t)ev[3 * i + 2]) != u)
            errx(1,
                 "env: the runs of environment size %.0f are in several setups of --setup %s; "
                 "expected the label of the size (env_add)",
                 ev[3 * a], r->o->setup[0]);
    for (size_t k = 0; k < s->k; k++)
        if (s->setup[k] == u)
            return k;
    return SIZE_MAX;
}

void
il_plot_env(struct plot *p)
{
    struct il_report *r = p->r;
    const struct il_opts *o = r->o;
    char path[4200], ylab[512], title[1024], metric[300], name[512], sel[512];
    FILE *f = il_plot_data(p, "env.dat", path, sizeof path);
    double maxabs = 0, xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    size_t maxn = 1, sizes = 0, withci = 0, nband = 0, nout = 0;
    for (size_t g = 0; g < r->gs.ng; g++) {
        maxn = r->gs.g[g].n > maxn ? r->gs.g[g].n : maxn;
        for (size_t i = 0; i < r->gs.g[g].n; i++)
            maxabs = fmax(maxabs, fabs(r->gs.g[g].x[i]));
    }
    struct il_scale sc;
    il_plot_scale(o, maxabs, &sc);
    /* each run: its size, its value, its record */
    double *ev = il_xcalloc(3 * maxn, sizeof *ev), *x = il_xcalloc(maxn, sizeof *x),
           *tmp = il_xmalloc(maxn * sizeof *tmp);
    size_t *which = il_xmalloc(maxn * sizeof *which);
    unsigned char *banded = il_xcalloc(r->gs.ng ? r->gs.ng : 1, 1);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_group *gr = &r->gs.g[g];
        /* --setup: the report's setup effect of the group (setupfx.c) */
        const struct il_gsetups *s = r->gsu ? &r->gsu[g] : NULL;
        sort_by_size(r, gr, sc.f, ev, which);
        fprintf(f, "# %s\n", r->gname[g]);
        for (size_t i = 0; i < gr->n;) {
            size_t j = i, k = 0;
            while (j < gr->n && ev[3 * j] == ev[3 * i])
                x[k++] = ev[3 * j++ + 1];
            double est, lo, hi, blo = NAN, bhi = NAN;
            estimate_ci(&o->est, x, k, tmp, &est, &lo, &hi);
            /* The metric is never negative: a whisker below 0 says nothing. */
            if (isfinite(lo) && lo < 0)
                lo = 0;
            /* The noise band: where this size's estimate would stand out
             * (setupfx.c): further from the median size than the furthest
             * size lies in 95% of the test's exchanges of runs (crit, for
             * this size's runs).  The test judges the runs divided by
             * their pass's level: the band is moved by the level of the
             * passes this size's runs came from (its estimate over the
             * test's), so that a point is outside its band exactly when
             * the report says it stands out. */
            size_t u = s ? size_setup(r, s, ev, i, j) : SIZE_MAX;
            int out = 0;
            char unit[256] = "-";
            if (u != SIZE_MAX) {
                if (s->has_test && isfinite(s->crit) && s->test_est[u] > 0) {
                    double d = s->crit / sqrt((double)s->n[u]);
                    double mid = s->est[u] / s->test_est[u] * s->test_center * sc.f;
                    blo = mid * exp(-d);
                    bhi = mid * exp(d);
                    banded[g] = 1;
                    ylo = fmin(ylo, blo);
                    yhi = fmax(yhi, bhi);
                }
                out = s->out[u];
                nout += (size_t)out;
                snprintf(unit, sizeof unit, "%s=%s", o->setup[0], il_str(&r->d.st, s->setup[u]));
                for (char *c = unit; *c; c++)
                    *c = *c == '"' || *c == ' ' ? '_' : *c;
            }
            /* Without an interval (too few runs for a quantile's, or the
             * minimum) no whisker: NaN, which gnuplot leaves out of the
             * error bars but not out of the line. */
            fprintf(f, "%.10g %.10g %.10g %.10g %zu %.10g %.10g %d \"%s\"\n", ev[3 * i], est,
                    isfinite(lo) ? lo : NAN, isfinite(hi) ? hi : NAN, k, blo, bhi, out, unit);
            if (isfinite(lo) && isfinite(hi))
                withci++;
            xlo = fmin(xlo, ev[3 * i]);
            xhi = fmax(xhi, ev[3 * i]);
            ylo = fmin(ylo, isfinite(lo) ? lo : est);
            yhi = fmax(yhi, isfinite(hi) ? hi : est);
            sizes++;
            i = j;
        }
        fputs("\n\n", f);
        nband += banded[g];
    }
    free(ev);
    free(x);
    free(tmp);
    free(which);
    il_plot_close(f, path);
    il_plot_metric_label(o, &sc, metric, sizeof metric);
    /* The label promises only the whiskers that are drawn. */
    snprintf(ylab, sizeof ylab, "%s, %s%s", metric, o->est.name,
             withci == 0       ? ""
             : withci == sizes ? " and 95% CI"
                               : " and 95% CI where the runs allow");
    /* The title names a selection (--where system=O0), so that figures of
     * one file for several systems tell which they show. */
    sel[0] = '\0';
    if (o->sel.nwhere)
        il_plot_selection(r, sel, sizeof sel);
    snprintf(title, sizeof title, "%s%s%s against environment size", sel, *sel ? ": " : "",
             o->sel.metric);
    il_plot_header(p, "environment size (bytes)", ylab, title);
    FILE *gp = p->gp;
    double span = yhi - ylo > 0 ? yhi - ylo : fabs(yhi) * 0.02 + 1e-9;
    double xspan = xhi - xlo > 0 ? xhi - xlo : 1;
    fprintf(gp, "set xrange [%.10g:%.10g]\nset xtics %.10g\n", xlo - 0.02 * xspan,
            xhi + 0.02 * xspan, il_plot_step(xlo, xhi, 5));
    /* The key: as many columns as its widest entry allows across the
     * plot (8-point text, about 4.6 points a character, and 6 more for the
     * sample and the gap), as many rows as that needs; room above the data
     * for them, and for a row of the names of the sizes that stand out. */
    static const char band_key[] = "noise band (95%)", out_key[] = "stands out";
    size_t nkey = r->gs.ng + (nband > 0) + (nout > 0), widest = 0;
    for (size_t g = 0; g < r->gs.ng; g++) {
        series_name(r, g, name, sizeof name);
        widest = strlen(name) > widest ? strlen(name) : widest;
    }
    widest = nband && sizeof band_key - 1 > widest ? sizeof band_key - 1 : widest;
    widest = nout && sizeof out_key - 1 > widest ? sizeof out_key - 1 : widest;
    size_t cols = (size_t)fmax(1, floor((p->w * 72 - 50) / (4.6 * (double)(widest + 6))));
    int rows = nkey < 2 ? 0 : (int)((nkey + cols - 1) / cols);
    double keyf = il_plot_key_fraction(rows + (nout > 0), p->h);
    fprintf(gp, "set yrange [%.10g:%.10g]\nset ytics %.10g\n", ylo - 0.05 * span,
            il_plot_room_above(ylo - 0.05 * span, yhi + 0.05 * span, keyf),
            il_plot_step(ylo, yhi, 5));
    if (rows > 1)
        fprintf(gp,
                "set key inside top right vertical maxrows %d Left reverse samplen 1.5 "
                "spacing 0.85\n",
                rows);
    else
        fputs("set key inside top right horizontal Left reverse samplen 1.5 spacing 0.85\n", gp);
    /* The bands behind everything, then points with thin whiskers and a
     * line through the estimates, then the sizes that stand out. */
    int small = sizes / (r->gs.ng ? r->gs.ng : 1) > 60, first = 1;
    fputs("plot ", gp);
    for (size_t g = 0; g < r->gs.ng; g++) {
        if (!banded[g])
            continue;
        fputs(first ? "" : ", \\\n  ", gp);
        il_plot_quote(gp, path);
        fprintf(gp,
                " index %zu using 1:6:7 with filledcurves fs transparent solid 0.18 noborder "
                "lc rgb '%s' notitle",
                g, il_plot_colour[g % 6]);
        first = 0;
    }
    free(banded);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const char *col = il_plot_colour[g % 6];
        series_name(r, g, name, sizeof name);
        fputs(first ? "" : ", \\\n  ", gp);
        first = 0;
        il_plot_quote(gp, path);
        static const int pt[] = {7, 5, 9, 13, 11, 15};
        if (withci) {
            /* the whiskers first, alone: rows without an interval (NaN)
             * drop out of them, not out of the line drawn over them */
            fprintf(gp,
                    " index %zu using 1:2:3:4 with yerrorbars pt 7 ps 0.01 lw 0.5 lc rgb '%s' "
                    "notitle, \\\n  ",
                    g, col);
            il_plot_quote(gp, path);
        }
        fprintf(gp, " index %zu using 1:2 with linespoints pt %d ps %s lw 0.6 lc rgb '%s' title ",
                g, pt[g % 6], small ? "0.25" : "0.5", col);
        il_plot_quote(gp, name);
    }
    if (nband) /* one key for the bands, grey as their overlap */
        fprintf(gp,
                ", \\\n  keyentry with filledcurves fs transparent solid 0.35 noborder lc rgb "
                "'%s' title '%s'",
                il_plot_colour[6], band_key);
    if (nout) {
        /* a ring on each, and its setup's name above it */
        fputs(", \\\n  ", gp);
        il_plot_quote(gp, path);
        fprintf(gp,
                " using 1:($8 == 1 ? $2 : NaN) with points pt 6 ps 1.3 lw 1.2 lc rgb 'black' "
                "title '%s'",
                out_key);
        /* centred, but kept inside the frame near its ends */
        double a = xlo + 0.15 * xspan, b = xhi - 0.15 * xspan;
        static const char *const align[] = {"left offset -0.4,0.9", "center offset 0,0.9",
                                            "right offset 0.4,0.9"};
        for (int side = 0; side < 3; side++) {
            fputs(", \\\n  ", gp);
            il_plot_quote(gp, path);
            if (side == 0)
                fprintf(gp, " using 1:($8 == 1 && $1 < %.10g ? $2 : NaN)", a);
            else if (side == 1)
                fprintf(gp, " using 1:($8 == 1 && $1 >= %.10g && $1 <= %.10g ? $2 : NaN)", a, b);
            else
                fprintf(gp, " using 1:($8 == 1 && $1 > %.10g ? $2 : NaN)", b);
            fprintf(gp, ":9 with labels %s font ',6' tc rgb 'black' notitle", align[side]);
        }
    }
    fputc('\n', gp);
}
