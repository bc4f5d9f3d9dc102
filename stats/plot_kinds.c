/*
 * plot_kinds.c: three figures of interloper-plot, each written as data
 * files and a gnuplot script (plot.c renders them; env is plot_env.c):
 *   violin  per-setup ratios per benchmark (Mytkowicz et al., Fig. 2b/3b):
 *           a kernel density clipped to the data, the median (white dot)
 *           and the quartiles (bar), each setup's ratio with its 95%
 *           interval (sorted across the violin's width), the original (+)
 *           and alphabetical (x) link orders marked, n under each violin,
 *           a dashed line at 1
 *   hist    the suite's geometric-mean ratio per setup (Fig. 6), with a rug
 *   seq     run sequence, lag-1 plot, ACF with +-1.96/sqrt(n), and the lag
 *           plot of the same data randomly reordered (Kalibera & Jones,
 *           section 6.1)
 * Ranges are set from the data, with room for the key and for the line at
 * 1, so that nothing sits on the frame.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "il_prng.h"
#include "plot.h"

#define IL_KDE_POINTS 200

/* The link-order kinds of setups s->setup[0..s->n) in group g, in one
 * pass over the group's records: kind[u] bit k (0 original, 1
 * alphabetical) set when every record of setup u is of that layout kind. */
static unsigned char *
unit_kinds(const struct il_report *r, size_t g, const struct il_setups *s, size_t kslot)
{
    const struct il_data *d = &r->d;
    const struct il_group *gr = &r->gs.g[g];
    unsigned char *kind = il_xcalloc(s->n ? s->n : 1, 1);
    if (kslot == SIZE_MAX)
        return kind;
    uint32_t id[2] = {il_strtab_find(&d->st, IL_KIND_ORIGINAL),
                      il_strtab_find(&d->st, IL_KIND_ALPHABETICAL)};
    /* the place of each unit id in s->setup */
    size_t *at = il_xcalloc((size_t)d->st.n + 1, sizeof *at);
    for (size_t u = 0; u < (size_t)d->st.n + 1; u++)
        at[u] = SIZE_MAX;
    for (size_t u = 0; u < s->n; u++) {
        if (s->setup[u] <= d->st.n)
            at[s->setup[u]] = u;
        kind[u] = 3;
    }
    for (size_t i = 0; i < gr->n; i++) {
        uint32_t u = il_plot_unit_of(r, gr->rec[i]);
        if (u > d->st.n || at[u] == SIZE_MAX)
            continue;
        uint32_t k = il_lab(d, gr->rec[i], kslot);
        /* bit 2: a record of the setup was seen */
        kind[at[u]] &= (unsigned char)((k == id[0]) | (k == id[1]) << 1 | 4);
        kind[at[u]] |= 4;
    }
    for (size_t u = 0; u < s->n; u++)
        kind[u] = kind[u] & 4 ? kind[u] & 3 : 0;
    free(at);
    return kind;
}

/* "O3 / O2" in the report's direction. */
static void
direction(const struct il_report *r, const struct il_cmp *c, char *buf, size_t n)
{
    const struct il_opts *o = r->o;
    const char *val = il_str(&r->d.st, r->gs.g[c->g].key[r->cmp_pos]);
    if (o->speedup)
        snprintf(buf, n, "%s/%s", o->cmp_base, val);
    else
        snprintf(buf, n, "%s/%s", val, o->cmp_base);
}

/* The label of comparison c's violin or series: the values of its other
 * labels, or the compared value when it has none. */
static void
unit_label(const struct il_report *r, const struct il_cmp *c, int several_values, char *buf,
           size_t n)
{
    const char *val = il_str(&r->d.st, r->gs.g[c->g].key[r->cmp_pos]);
    size_t m = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < r->gs.nkey && m < n; i++)
        if (i != r->cmp_pos)
            m += (size_t)snprintf(buf + m, n - m, "%s%s", m ? " " : "",
                                  il_str(&r->d.st, r->gs.g[c->g].key[i]));
    if (!m || several_values)
        snprintf(buf + m, n - m, "%s%s", m ? " " : "", val);
}

/* A violin's tick label: unit_label and how many setups it holds. */
static void
tick_label(const struct il_report *r, const struct il_cmp *c, int several, char *buf, size_t n)
{
    char lab[480];
    unit_label(r, c, several, lab, sizeof lab);
    snprintf(buf, n, "%s (n = %zu)", lab, c->su.n);
}

/* What a ratio's axis says: "speedup of O3 (O2 time / O3 time)" (--speedup),
 * "ratio of O3 (O3 time / O2 time)"; with several compared values "each"
 * stands for them.  "time" for a metric of time, else the metric's name. */
static void
ratio_label(const struct il_report *r, const struct il_cmp *c, int several, char *buf, size_t n)
{
    const struct il_opts *o = r->o;
    const char *val = several ? "each" : il_str(&r->d.st, r->gs.g[c->g].key[r->cmp_pos]);
    const char *what = il_sel_is_time(&o->sel) ? "time" : o->sel.metric;
    const char *num = o->speedup ? o->cmp_base : val, *den = o->speedup ? val : o->cmp_base;
    if (several)
        snprintf(buf, n, "%s (%s %s / %s %s)", o->speedup ? "speedup" : "ratio", num, what, den,
                 what);
    else
        snprintf(buf, n, "%s of %s (%s %s / %s %s)", o->speedup ? "speedup" : "ratio", val, num,
                 what, den, what);
}

/* y range with 1 inside and off the frame, and keyrows rows of a key
 * above the data. */
static void
yrange_with_one(FILE *gp, double lo, double hi, int keyrows, double h)
{
    lo = fmin(lo, 1);
    hi = fmax(hi, 1);
    double span = hi - lo > 0 ? hi - lo : fabs(hi) * 0.02 + 1e-9, pad = 0.08 * span;
    double f = il_plot_key_fraction(keyrows, h);
    fprintf(gp, "set yrange [%.10g:%.10g]\nset ytics %.10g\n", lo - pad,
            il_plot_room_above(lo - pad, hi + pad, f), il_plot_step(lo - pad, hi + pad, 5));
}

/* The ratios' order for qsort: by ratio, equal ratios in setup order
 * (stable: the order of an insertion sort, in n log n for thousands). */
static const double *order_ratio;
static int
cmp_rank(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    double u = order_ratio[x], v = order_ratio[y];
    return u < v ? -1 : u > v ? 1 : (x > y) - (x < y);
}

static void
sort_by_ratio(size_t *ord, size_t n, const double *ratio)
{
    order_ratio = ratio;
    qsort(ord, n, sizeof *ord, cmp_rank);
    order_ratio = NULL;
}

/* The x of the setup of rank j (lowest ratio 0) of n in violin v: spread
 * over the violin's width. */
static double
rank_x(size_t v, size_t j, size_t n)
{
    return (double)v + (n > 1 ? 0.6 * (double)j / (double)(n - 1) - 0.3 : 0);
}

/*
 * Violin v's block of intervals.dat (of nvt violins, y over [ylo, yhi])
 * when its n setups are more than the figure's pixel columns under it can
 * show (plot.h's rule): of the setups in each pixel column, the first and
 * the last (the lowest and highest ratio), those with the lowest interval
 * end and the highest, and each setup whose ratio is the first in its
 * cell of 2 x 2 pixels.  ord: the setups, lowest ratio first.  0 when n
 * is too few to decimate (nothing written).
 */
static int
intervals_decimated(FILE *ci, const struct plot *p, const struct il_setups *s, const size_t *ord,
                    size_t v, size_t nvt, double ylo, double yhi, size_t *nci)
{
    size_t cols = (size_t)lround(p->w * IL_PLOT_DPI), rows = (size_t)lround(p->h * IL_PLOT_DPI);
    double xlo = 0.4, xhi = (double)nvt + 0.6, n = (double)s->n;
    if (n <= IL_PLOT_PER_COLUMN * 0.6 / (xhi - xlo) * (double)cols)
        return 0;
    double *lo = il_xcalloc(s->n, sizeof *lo), *hi = il_xcalloc(s->n, sizeof *hi);
    unsigned char *keep = il_xcalloc(s->n, 1);
    for (size_t j = 0; j < s->n; j++) {
        size_t u = ord[j];
        lo[j] = isfinite(s->lo[u]) ? s->lo[u] : s->ratio[u];
        hi[j] = isfinite(s->hi[u]) ? s->hi[u] : s->ratio[u];
    }
    struct il_plot_cells cells;
    il_plot_cells_init(&cells, cols, rows, xlo, xhi, ylo, yhi);
    for (size_t a = 0, b; a < s->n; a = b) {
        size_t c = il_plot_pixel(rank_x(v, a, s->n), xlo, xhi, cols), pick[4];
        for (b = a + 1; b < s->n && il_plot_pixel(rank_x(v, b, s->n), xlo, xhi, cols) == c; b++)
            ;
        for (size_t k = 0, np = il_plot_column_picks(lo, hi, a, b, pick); k < np; k++)
            keep[pick[k]] = 1;
        for (size_t j = a; j < b; j++)
            keep[j] |=
                (unsigned char)il_plot_cell_new(&cells, rank_x(v, j, s->n), s->ratio[ord[j]]);
    }
    fprintf(ci,
            "# decimated for a figure of %zu x %zu pixels (%d dots an inch): what cannot be "
            "seen is left out\n"
            "# of the setups in each pixel column, the first, the last, the lowest interval "
            "and the highest; and each ratio first in its cell of 2 x 2 pixels\n"
            "# x ratio lo hi\n",
            cols, rows, IL_PLOT_DPI);
    size_t kept = 0;
    for (size_t j = 0; j < s->n; j++) {
        size_t u = ord[j];
        *nci += isfinite(s->lo[u]) && isfinite(s->hi[u]);
        if (!keep[j])
            continue;
        fprintf(ci, "%.10g %.10g %.10g %.10g\n", rank_x(v, j, s->n), s->ratio[u], s->lo[u],
                s->hi[u]);
        kept++;
    }
    fprintf(ci, "# %zu of %zu setups\n\n\n", kept, s->n);
    il_plot_cells_free(&cells);
    free(lo);
    free(hi);
    free(keep);
    return 1;
}

/* Inches a character of the figures' 8-point sans text takes, about. */
#define IL_PLOT_CHAR_IN 0.061

/* The default size of a figure of nv violins (no --size): 3.4 x 2.3 in
 * holds 6; from 7 on it is 0.6 in and 0.42 in a violin wide, up to
 * --size's 20 in, so that a violin keeps its room and a setup's dot its
 * own violin's (outside12 F19: 25 benchmarks at 3.4 in overprinted their
 * labels, and their dots were half in the neighbour's column).  A figure
 * whose tick labels slant (30 degrees, as il_plot_violin decides: many
 * violins, or long labels such as a bench and its args) is also
 * heightened by their drop and by the y label's length, which the plot
 * area left after them would cut.  1 when they slant (and il_plot_violin
 * gives the first label a left margin). */
static int
violin_size(struct plot *p, const struct il_report *r, size_t nv, int several, const char *ylab)
{
    if (r->o->size_w)
        return 0;
    double w = 0.6 + 0.42 * (double)nv;
    if (w > p->w)
        p->w = fmin(w, 20);
    size_t chars = 0, maxc = 0;
    char lab[512];
    for (size_t i = 0; i < r->ncmp; i++)
        if (r->cmp[i].has_setups) {
            tick_label(r, &r->cmp[i], several, lab, sizeof lab);
            chars += strlen(lab) + 2;
            maxc = strlen(lab) > maxc ? strlen(lab) : maxc;
        }
    if (!((double)chars > p->w * 11))
        return 0;
    double drop = 0.5 * IL_PLOT_CHAR_IN * (double)maxc;
    p->h = fmin(20, fmax(p->h + drop, 1.1 + drop + 0.9 * IL_PLOT_CHAR_IN * (double)strlen(ylab)));
    return 1;
}

void
il_plot_violin(struct plot *p)
{
    struct il_report *r = p->r;
    const struct il_opts *o = r->o;
    char vpath[4200], mpath[4200], kpath[4200], cpath[4200], title[512], ylab[512];
    FILE *v = il_plot_data(p, "violins.dat", vpath, sizeof vpath);
    FILE *m = il_plot_data(p, "medians.dat", mpath, sizeof mpath);
    FILE *k = il_plot_data(p, "marks.dat", kpath, sizeof kpath);
    FILE *ci = il_plot_data(p, "intervals.dat", cpath, sizeof cpath);
    double dens[IL_KDE_POINTS], peak = 0, ylo = INFINITY, yhi = -INFINITY;
    int slanted = 0;
    size_t nv = 0, nvt = 0, kslot = il_data_slot(&r->d, IL_L_LAYOUT_KIND), nmark[2] = {0, 0},
           nci = 0;
    const struct il_cmp *c0 = NULL;
    int several = 0;
    for (size_t i = 0; i < r->ncmp; i++) {
        if (!r->cmp[i].has_setups)
            continue;
        if (c0 && r->gs.g[r->cmp[i].g].key[r->cmp_pos] != r->gs.g[c0->g].key[r->cmp_pos])
            several = 1;
        c0 = c0 ? c0 : &r->cmp[i];
    }
    if (c0)
        ratio_label(r, c0, several, ylab, sizeof ylab);
    /* First pass: the densities' common scale, so that widths compare. */
    for (int pass = 0; pass < 2; pass++) {
        nvt = nv; /* the violins, known after the first pass */
        nv = 0;
        if (pass == 1 && c0) /* before the intervals' decimation */
            slanted = violin_size(p, r, nvt, several, ylab);
        for (size_t i = 0; i < r->ncmp; i++) {
            const struct il_cmp *c = &r->cmp[i];
            const struct il_setups *s = &c->su;
            if (!c->has_setups)
                continue;
            nv++;
            /* The density over the data's range only (clipped): beyond the
             * extremes it would show ratios no setup gave. */
            double lo = s->min, hi = s->max, w = 0;
            int flat = !(hi - lo > 1e-12 * fabs(hi));
            if (!flat)
                il_kde(s->ratio, s->n, lo, hi, IL_KDE_POINTS, dens);
            for (size_t j = 0; j < IL_KDE_POINTS && !flat; j++)
                peak = pass == 0 && dens[j] > peak ? dens[j] : peak;
            /* the intervals are drawn too: the range holds them */
            for (size_t u = 0; u < s->n; u++) {
                ylo = fmin(ylo, isfinite(s->lo[u]) ? s->lo[u] : s->ratio[u]);
                yhi = fmax(yhi, isfinite(s->hi[u]) ? s->hi[u] : s->ratio[u]);
            }
            if (pass == 0)
                continue;
            w = peak > 0 ? 0.42 / peak : 0;
            if (!flat) {
                for (size_t j = 0; j < IL_KDE_POINTS; j++)
                    fprintf(v, "%.10g %.10g\n", (double)nv - w * dens[j],
                            lo + (hi - lo) * (double)j / (IL_KDE_POINTS - 1));
                for (size_t j = IL_KDE_POINTS; j-- > 0;)
                    fprintf(v, "%.10g %.10g\n", (double)nv + w * dens[j],
                            lo + (hi - lo) * (double)j / (IL_KDE_POINTS - 1));
                fprintf(v, "%.10g %.10g\n", (double)nv - w * dens[0], lo);
            } else {
                fprintf(v, "%.10g %.10g\n%.10g %.10g\n", (double)nv - 0.3, lo, (double)nv + 0.3,
                        lo);
            }
            fputs("\n\n", v);
            double *t = il_xcalloc(s->n, sizeof *t);
            memcpy(t, s->ratio, s->n * sizeof *t);
            qsort(t, s->n, sizeof *t, il_dcmp);
            fprintf(m, "%zu %.10g %.10g %.10g\n", nv, s->median, il_quantile_sorted(t, s->n, 0.25),
                    il_quantile_sorted(t, s->n, 0.75));
            free(t);
            /* Each setup's ratio and its interval, lowest ratio left,
             * spread over the violin's width: how far apart the setups
             * are against how sure each one is.  rank[u]: its place. */
            size_t *ord = il_xcalloc(s->n, sizeof *ord), *rank = il_xcalloc(s->n, sizeof *rank);
            for (size_t u = 0; u < s->n; u++)
                ord[u] = u;
            sort_by_ratio(ord, s->n, s->ratio);
            for (size_t j = 0; j < s->n; j++)
                rank[ord[j]] = j;
            if (!intervals_decimated(ci, p, s, ord, nv, nvt, ylo, yhi, &nci)) {
                for (size_t j = 0; j < s->n; j++) {
                    size_t u = ord[j];
                    fprintf(ci, "%.10g %.10g %.10g %.10g\n", rank_x(nv, j, s->n), s->ratio[u],
                            s->lo[u], s->hi[u]);
                    nci += isfinite(s->lo[u]) && isfinite(s->hi[u]);
                }
                fputs("\n\n", ci);
            }
            unsigned char *kinds = unit_kinds(r, c->g, s, kslot);
            for (size_t u = 0; u < s->n; u++)
                for (int kind = 0; kind < 2; kind++)
                    if (kinds[u] >> kind & 1) {
                        fprintf(k, "%zu %.10g %d %.10g\n", nv, s->ratio[u], kind,
                                rank_x(nv, rank[u], s->n));
                        nmark[kind]++;
                    }
            free(kinds);
            free(ord);
            free(rank);
        }
    }
    il_plot_close(v, vpath);
    il_plot_close(m, mpath);
    il_plot_close(k, kpath);
    il_plot_close(ci, cpath);
    if (!nv)
        errx(1, "violin: no comparison has paired setups; check --compare and --setup");
    char setup[256];
    snprintf(setup, sizeof setup, "%s%s%s", o->setup[0], o->nsetup == 2 ? " x " : "",
             o->nsetup == 2 ? o->setup[1] : "");
    const char *what = o->speedup ? "speedup" : "ratio";
    if (several)
        snprintf(title, sizeof title, "per-%s %s vs %s", setup, o->cmp_label, o->cmp_base);
    else
        snprintf(title, sizeof title, "%s, one value per %s", what, setup);
    il_plot_header(p, "", ylab, title);
    FILE *gp = p->gp;
    size_t nkey = 4 + (nmark[0] > 0) + (nmark[1] > 0);
    yrange_with_one(gp, ylo, yhi, nv <= 2 ? (int)nkey : 0, p->h);
    /* Tick labels: the values that tell the violins apart and n, turned
     * only when they would not fit side by side. */
    size_t chars = 0;
    char lab[512];
    for (size_t i = 0; i < r->ncmp; i++)
        if (r->cmp[i].has_setups) {
            tick_label(r, &r->cmp[i], several, lab, sizeof lab);
            chars += strlen(lab) + 2;
        }
    fprintf(gp, "set xrange [0.4:%zu.6]\nunset grid\nset grid ytics lc rgb '#e4e4e4' lw 0.6\n", nv);
    int slant = (double)chars > p->w * 11;
    if (slanted && slant) {
        /* the first label, slanted to the left of its tick, 0.6 of a
         * violin's room from the axis: a left margin (in characters) that
         * holds it, where gnuplot's own would cut it */
        for (size_t i = 0; i < r->ncmp; i++)
            if (r->cmp[i].has_setups) {
                tick_label(r, &r->cmp[i], several, lab, sizeof lab);
                break;
            }
        double room = 0.6 * (p->w - 0.6) / ((double)nv + 0.2) / IL_PLOT_CHAR_IN;
        fprintf(gp, "set lmargin %d\n", (int)fmax(10, ceil(0.87 * (double)strlen(lab) - room) + 1));
    }
    fprintf(gp, "set xtics scale 0 %s(", slant ? "rotate by 30 right " : "");
    for (size_t i = 0, n = 0; i < r->ncmp; i++) {
        if (!r->cmp[i].has_setups)
            continue;
        tick_label(r, &r->cmp[i], several, lab, sizeof lab);
        fputs(n ? ", " : "", gp);
        il_plot_quote(gp, lab);
        fprintf(gp, " %zu", ++n);
    }
    fputs(")\n", gp);
    if (nv <= 2)
        fputs("set key inside top left Left reverse samplen 1 spacing 0.9\n", gp);
    else
        fputs("set key outside bottom center horizontal Left reverse samplen 1 spacing 0.85\n", gp);
    fprintf(gp,
            "set style fill solid 0.3 border lc rgb '%s'\n"
            "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 0.8 lc rgb "
            "'#555555' back\n",
            il_plot_colour[0]);
    fputs("plot for [i=0:*] ", gp);
    il_plot_quote(gp, vpath);
    fprintf(gp,
            " index i with filledcurves closed lc rgb '%s' title (i == 0 ? 'density, clipped "
            "to the data' : ''), \\\n  ",
            il_plot_colour[0]);
    /* each setup: its interval (where it has one) and its ratio */
    char each[512];
    snprintf(each, sizeof each, "each %s's %s%s", setup, what, nci ? " and 95% CI" : "");
    if (nci) {
        il_plot_quote(gp, cpath);
        fputs(" using 1:2:3:4 with yerrorbars pt 7 ps 0.01 lw 0.4 lc rgb '#666666' notitle, "
              "\\\n  ",
              gp);
    }
    il_plot_quote(gp, cpath);
    fputs(" using 1:2 with points pt 7 ps 0.22 lc rgb '#333333' title ", gp);
    il_plot_quote(gp, each);
    fputs(", \\\n  ", gp);
    il_plot_quote(gp, mpath);
    fputs(" using 1:3:(0):($4-$3) with vectors nohead lw 2.5 lc rgb 'black' title 'quartiles', "
          "\\\n  ",
          gp);
    il_plot_quote(gp, mpath);
    fputs(" using 1:2 with points pt 7 ps 0.9 lc rgb 'white' notitle, \\\n  ", gp);
    il_plot_quote(gp, mpath);
    fputs(" using 1:2 with points pt 6 ps 0.9 lw 1.2 lc rgb 'black' title 'median'", gp);
    for (int kind = 0; kind < 2; kind++) {
        if (!nmark[kind])
            continue;
        fputs(", \\\n  ", gp);
        il_plot_quote(gp, kpath);
        fprintf(gp,
                " using 4:($3 == %d ? $2 : NaN) with points pt %d ps 1.4 lw 1.6 lc rgb '%s' "
                "title '%s link order'",
                kind, kind ? 2 : 1, il_plot_colour[kind ? 5 : 1],
                kind ? IL_KIND_ALPHABETICAL : IL_KIND_ORIGINAL);
    }
    fputc('\n', gp);
}

/* A series' rug (its values gm[0..n), sorted) in rug.dat: every value, or
 * past plot.h's IL_PLOT_PER_COLUMN to a pixel column of the figure (over
 * the series' own range: finer than the axis's), the lowest and the
 * highest in each column, between which the other ticks would be drawn. */
static void
rug_write(FILE *rug, const struct plot *p, const double *gm, size_t n)
{
    size_t cols = (size_t)lround(p->w * IL_PLOT_DPI), kept = 0;
    if (n <= IL_PLOT_PER_COLUMN * cols) {
        for (size_t i = 0; i < n; i++)
            fprintf(rug, "%.10g\n", gm[i]);
        fputs("\n\n", rug);
        return;
    }
    fprintf(rug,
            "# decimated for a figure %zu pixels wide (%d dots an inch): what cannot be seen "
            "is left out\n# of the setups in each pixel column, the lowest and the highest\n",
            cols, IL_PLOT_DPI);
    for (size_t a = 0, b; a < n; a = b) {
        size_t c = il_plot_pixel(gm[a], gm[0], gm[n - 1], cols), pick[4];
        for (b = a + 1; b < n && il_plot_pixel(gm[b], gm[0], gm[n - 1], cols) == c; b++)
            ;
        size_t np = il_plot_column_picks(gm, gm, a, b, pick);
        for (size_t k = 0; k < np; k++)
            fprintf(rug, "%.10g\n", gm[pick[k]]);
        kept += np;
    }
    fprintf(rug, "# %zu of %zu setups\n\n\n", kept, n);
}

void
il_plot_hist(struct plot *p)
{
    struct il_report *r = p->r;
    const struct il_opts *o = r->o;
    char path[4200], rpath[4200], title[512], xlab[512], dir[256];
    FILE *f = il_plot_data(p, "hist.dat", path, sizeof path);
    FILE *rug = il_plot_data(p, "rug.dat", rpath, sizeof rpath);
    size_t nser = 0, maxc = 0, nbench = 0, nset = 0;
    uint32_t ser[64];
    double xlo = INFINITY, xhi = -INFINITY;
    const struct il_cmp *first = NULL;
    for (size_t si = 0; si < r->nsuite + (r->nsuite == 0); si++) {
        /* Without a benchmark dimension each setup's "suite" is its ratio. */
        uint32_t v = r->nsuite ? r->suite[si].value : r->gs.g[r->cmp[0].g].key[r->cmp_pos];
        size_t nb = 0, maxs = 0;
        const struct il_cmp **cs = il_xcalloc(r->ncmp + 1, sizeof *cs);
        for (size_t i = 0; i < r->ncmp; i++)
            if (r->gs.g[r->cmp[i].g].key[r->cmp_pos] == v && r->cmp[i].has_setups) {
                cs[nb++] = &r->cmp[i];
                maxs = r->cmp[i].su.n > maxs ? r->cmp[i].su.n : maxs;
            }
        if (!nb) {
            free(cs);
            continue;
        }
        first = first ? first : cs[0];
        /* Setups measured for every benchmark: geometric mean of their ratios. */
        double *gm = il_xcalloc(maxs, sizeof *gm);
        size_t ng = 0;
        for (size_t k = 0; k < cs[0]->su.n; k++) {
            uint32_t s = cs[0]->su.setup[k];
            double lsum = log(cs[0]->su.ratio[k]);
            size_t found = 1;
            for (size_t b = 1; b < nb; b++)
                for (size_t j = 0; j < cs[b]->su.n; j++)
                    if (cs[b]->su.setup[j] == s) {
                        lsum += log(cs[b]->su.ratio[j]);
                        found++;
                        break;
                    }
            if (found == nb)
                gm[ng++] = exp(lsum / (double)nb);
        }
        free(cs);
        if (ng == 0) {
            free(gm);
            continue;
        }
        qsort(gm, ng, sizeof *gm, il_dcmp);
        /* Bins: --bins, else the more of Freedman-Diaconis and Rice
         * (2 n^(1/3)), which for a few dozen setups gives enough bins to
         * see a shape where Freedman-Diaconis alone gives four. */
        double span = gm[ng - 1] - gm[0];
        size_t nbins = o->bins;
        if (!nbins) {
            double iqr = il_quantile_sorted(gm, ng, 0.75) - il_quantile_sorted(gm, ng, 0.25);
            size_t fd = iqr > 0 ? (size_t)ceil(span / (2 * iqr / cbrt((double)ng))) : 1;
            size_t rice = (size_t)ceil(2 * cbrt((double)ng));
            nbins = fd > rice ? fd : rice;
            nbins = nbins > 100 ? 100 : nbins;
        }
        double bw = span > 0 ? span / (double)nbins : fabs(gm[0]) * 1e-3 + 1e-9;
        if (!(span > 0))
            nbins = 1;
        for (size_t b = 0, i = 0; b < nbins; b++) {
            size_t c = 0;
            double edge = gm[0] + (double)(b + 1) * bw;
            while (i < ng && (gm[i] < edge || b + 1 == nbins)) {
                i++;
                c++;
            }
            fprintf(f, "%.10g %zu %.10g\n", gm[0] + ((double)b + 0.5) * bw, c, bw);
            maxc = c > maxc ? c : maxc;
        }
        fprintf(f, "# %s\n\n\n", il_str(&r->d.st, v));
        rug_write(rug, p, gm, ng);
        xlo = fmin(xlo, gm[0] - bw / 2);
        xhi = fmax(xhi, gm[ng - 1] + bw / 2);
        if (nser < 64)
            ser[nser++] = v;
        nbench = nb > nbench ? nb : nbench;
        nset = ng > nset ? ng : nset;
        free(gm);
    }
    il_plot_close(f, path);
    il_plot_close(rug, rpath);
    if (!nser)
        errx(1, "hist: no setup was measured for every benchmark on both sides; check "
                "--compare and --setup");
    direction(r, first, dir, sizeof dir);
    const char *what = o->speedup ? "speedup" : "ratio";
    if (nbench > 1)
        snprintf(xlab, sizeof xlab, "%s (%s), geo. mean of %zu benchmarks", what,
                 nser > 1 ? o->speedup ? "baseline/value" : "value/baseline" : dir, nbench);
    else
        snprintf(xlab, sizeof xlab, "%s of %s, %s", what,
                 nser > 1 ? o->speedup ? "baseline/value" : "value/baseline" : dir, o->sel.metric);
    snprintf(title, sizeof title, "%s per %s%s%s, %zu setups",
             nbench > 1 ? "suite geometric mean" : what, o->setup[0], o->nsetup == 2 ? " x " : "",
             o->nsetup == 2 ? o->setup[1] : "", nset);
    il_plot_header(p, xlab, "setups", title);
    FILE *gp = p->gp;
    double span = xhi - xlo > 0 ? xhi - xlo : 1, pad = 0.05 * span;
    int one = 1 >= xlo - span && 1 <= xhi + span; /* the line at 1, when near */
    double lo = one ? fmin(xlo, 1) : xlo, hi = one ? fmax(xhi, 1) : xhi;
    fprintf(gp, "set xrange [%.10g:%.10g]\nset xtics %.10g\n", lo - pad, hi + pad,
            il_plot_step(lo, hi, 5));
    double top = (double)maxc * (nser > 1 ? 1.35 : 1.12) + 0.5;
    fprintf(gp, "set yrange [0:%.10g]\nset ytics %.10g\nset mytics 1\n", top,
            fmax(1, il_plot_step(0, (double)maxc, 5)));
    if (one)
        fputs("set arrow from first 1, graph 0 to first 1, graph 1 nohead dt 2 lw 0.8 lc rgb "
              "'#555555' back\n",
              gp);
    if (nser > 1)
        fputs("set key inside top left Left reverse horizontal samplen 1 spacing 0.85\n", gp);
    fputs("set style fill transparent solid 0.45 border\nplot ", gp);
    double rugh = top * 0.035;
    for (size_t s = 0; s < nser; s++) {
        const char *col = il_plot_colour[s % 6];
        fputs(s ? ", \\\n  " : "", gp);
        il_plot_quote(gp, path);
        fprintf(gp, " index %zu using 1:2:3 with boxes lc rgb '%s' title ", s, col);
        il_plot_quote(gp, nser > 1 ? il_str(&r->d.st, ser[s]) : "");
        fputs(", \\\n  ", gp);
        il_plot_quote(gp, rpath);
        fprintf(gp,
                " index %zu using 1:(0):(0):(%.10g) with vectors nohead lw 0.8 lc rgb '%s' "
                "notitle",
                s, rugh, col);
    }
    fputc('\n', gp);
}

/* The points of a lag plot (x[i - 1], x[i]) in f, scaled by sf, that fall
 * in a cell no earlier point fell in: a grid of cols x rows over [lo, hi]
 * on both axes, cells of 2 x 2 pixels, less than half a point's width
 * (drawn in order, a later point in the same cell would not be seen). */
static void
lag_decimated(FILE *f, const double *x, size_t n, double sf, double lo, double hi, size_t cols,
              size_t rows)
{
    struct il_plot_cells cells;
    il_plot_cells_init(&cells, cols, rows, lo, hi, lo, hi);
    size_t kept = 0;
    for (size_t i = 1; i < n; i++) {
        double a = x[i - 1] * sf, b = x[i] * sf;
        if (!il_plot_cell_new(&cells, a, b))
            continue;
        fprintf(f, "%.10g %.10g\n", a, b);
        kept++;
    }
    fprintf(f, "# %zu of %zu points\n\n\n", kept, n - 1);
    il_plot_cells_free(&cells);
}

/*
 * seq.dat of more runs than the panels have pixel columns to show: three
 * blocks (gnuplot's index 0, 1, 2).  The run sequence keeps, of the runs
 * in each pixel column, the first, the last, the lowest and the highest
 * (in run order), which draw the same line at that resolution; the lag
 * plots keep the first point in each cell of 2 x 2 pixels.  The ACF and
 * the title count every run.
 */
static void
seq_decimated(FILE *f, const double *x, const double *sh, size_t n, double sf, double lo, double hi,
              size_t cols, size_t rows)
{
    fprintf(f,
            "# decimated for a figure of %zu x %zu pixels a panel (%d dots an inch): what "
            "cannot be seen is left out\n"
            "# run sequence: of the runs in each pixel column, the first, the last, the "
            "lowest and the highest\n"
            "# run value\n",
            cols, rows, IL_PLOT_DPI);
    size_t kept = 0;
    for (size_t c = 0; c < cols; c++) {
        size_t a = c * n / cols, b = (c + 1) * n / cols;
        if (a >= b)
            continue;
        size_t pick[4], np = il_plot_column_picks(x, x, a, b, pick);
        for (size_t k = 0; k < np; k++)
            fprintf(f, "%zu %.10g\n", pick[k] + 1, x[pick[k]] * sf);
        kept += np;
    }
    fprintf(f, "# %zu of %zu runs\n\n\n", kept, n);
    fputs("# lag 1: the first point in each cell of 2 x 2 pixels\n# previous value\n", f);
    lag_decimated(f, x, n, sf, lo, hi, cols, rows);
    fputs("# lag 1 of the same runs shuffled: the first point in each cell of 2 x 2 pixels\n"
          "# previous value\n",
          f);
    lag_decimated(f, sh, n, sf, lo, hi, cols, rows);
}

void
il_plot_seq(struct plot *p)
{
    struct il_report *r = p->r;
    const struct il_opts *o = r->o;
    const struct il_group *g = &r->gs.g[0];
    if (g->n < 3)
        errx(1, "seq: %s has %zu values; run-sequence and lag plots need at least 3", r->gname[0],
             g->n);
    char spath[4200], apath[4200], title[1024], sel[512], metric[300];
    double maxabs = 0, lo = INFINITY, hi = -INFINITY, acf[40];
    for (size_t i = 0; i < g->n; i++) {
        maxabs = fmax(maxabs, fabs(g->x[i]));
        lo = fmin(lo, g->x[i]);
        hi = fmax(hi, g->x[i]);
    }
    struct il_scale sc;
    il_plot_scale(o, maxabs, &sc);
    lo *= sc.f;
    hi *= sc.f;
    FILE *s = il_plot_data(p, "seq.dat", spath, sizeof spath);
    double *sh = il_xcalloc(g->n, sizeof *sh);
    memcpy(sh, g->x, g->n * sizeof *sh);
    /* The contrast: the same values in a random order (seeded: the same
     * figure every time). */
    struct il_rng rng;
    il_rng_init(&rng, 1, 0);
    il_rng_shuffle_double(&rng, sh, g->n);
    /* A panel of the 2 x 2 figure at print resolution. */
    size_t cols = (size_t)(p->w / 2 * IL_PLOT_DPI), rows = (size_t)(p->h / 2 * IL_PLOT_DPI);
    int decimated = g->n > IL_PLOT_PER_COLUMN * cols;
    if (decimated) {
        seq_decimated(s, g->x, sh, g->n, sc.f, lo, hi, cols, rows);
    } else {
        /* columns: run, value, previous value, shuffled, previous shuffled */
        for (size_t i = 0; i < g->n; i++)
            fprintf(s, "%zu %.10g %.10g %.10g %.10g\n", i + 1, g->x[i] * sc.f,
                    i ? g->x[i - 1] * sc.f : NAN, sh[i] * sc.f, i ? sh[i - 1] * sc.f : NAN);
    }
    il_plot_close(s, spath);
    free(sh);
    FILE *a = il_plot_data(p, "acf.dat", apath, sizeof apath);
    size_t nl = il_acf(g->x, g->n, g->n - 1 < 40 ? g->n - 1 : 40, acf);
    for (size_t k = 0; k < nl; k++)
        fprintf(a, "%zu %.10g\n", k + 1, acf[k]);
    if (!nl)
        fputs("1 0\n", a);
    il_plot_close(a, apath);
    double bound = 1.959963984540054 / sqrt((double)g->n);
    il_plot_selection(r, sel, sizeof sel);
    il_plot_metric_label(o, &sc, metric, sizeof metric);
    snprintf(title, sizeof title, "%s: %s, %zu runs", sel, metric, g->n);
    il_plot_header(p, "", "", NULL);
    FILE *gp = p->gp;
    double span = hi - lo > 0 ? hi - lo : fabs(hi) * 0.02 + 1e-9, step = il_plot_step(lo, hi, 4);
    char range[128];
    snprintf(range, sizeof range, "[%.10g:%.10g]", lo - 0.05 * span, hi + 0.05 * span);
    fputs("set key off\nset multiplot layout 2,2 title ", gp);
    il_plot_quote(gp, o->title ? o->title : title);
    fprintf(gp,
            "\nset title 'run sequence'\nset xlabel 'run'\nset ylabel ''\nset yrange %s\n"
            "set ytics %.10g\nset xrange [0:%zu]\nset xtics %.10g\nplot ",
            range, step, g->n + 1, il_plot_step(1, (double)g->n, 5));
    il_plot_quote(gp, spath);
    fprintf(gp, "%s using 1:2 with linespoints pt 7 ps 0.25 lw 0.5 lc rgb '%s'\n",
            decimated ? " index 0" : "", il_plot_colour[0]);
    fprintf(gp,
            "set title 'lag 1'\nset xlabel 'previous run'\nset xrange %s\nset xtics %.10g\n"
            "set size ratio -1\nplot ",
            range, step);
    il_plot_quote(gp, spath);
    fprintf(gp, "%s with points pt 7 ps 0.3 lc rgb '%s'\n",
            decimated ? " index 1 using 1:2" : " using 3:2", il_plot_colour[0]);
    fprintf(gp,
            "set size noratio\nset xrange [0:*]\nset title 'autocorrelation (dashed: "
            "+-1.96/sqrt(n))'\nset xlabel 'lag'\nset yrange [-1:1]\nset ytics 0.5\n"
            "set xtics %.10g\nplot ",
            il_plot_step(1, (double)(nl ? nl : 1), 5));
    il_plot_quote(gp, apath);
    fprintf(gp,
            " using 1:2 with impulses lw 2 lc rgb '%s', %.10g with lines dt 2 lc rgb '#555555', "
            "%.10g with lines dt 2 lc rgb '#555555'\n",
            il_plot_colour[0], bound, -bound);
    fprintf(gp,
            "set title 'lag 1, the same runs shuffled (for contrast)'\nset xlabel 'previous "
            "run'\nset xrange %s\nset yrange %s\nset xtics %.10g\nset ytics %.10g\n"
            "set size ratio -1\nplot ",
            range, range, step, step);
    il_plot_quote(gp, spath);
    fprintf(gp, "%s with points pt 7 ps 0.3 lc rgb '%s'\nunset multiplot\n",
            decimated ? " index 2 using 1:2" : " using 5:4", il_plot_colour[6]);
}
