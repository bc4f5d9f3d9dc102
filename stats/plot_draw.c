/*
 * plot_draw.c: what every figure of interloper-plot uses (plot.h): its
 * data files, the gnuplot header (terminal, size, fonts, labels), the
 * colours, and readable scales and tick steps.  The command and gnuplot's
 * run are plot.c; the figures plot_kinds.c.
 */
#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

const char *const il_plot_colour[7] = {"#4477aa", "#ee6677", "#228833", "#ccbb44",
                                       "#66ccee", "#aa3377", "#bbbbbb"};

void
il_plot_quote(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', fp);
        fputc(*s, fp);
    }
    fputc('\'', fp);
}

FILE *
il_plot_data(struct plot *p, const char *name, char *path, size_t n)
{
    if (snprintf(path, n, "%s/%s", p->dir, name) >= (int)n)
        errx(1, "--keep %s: the path is too long", p->dir);
    FILE *fp = fopen(path, "w");
    if (!fp)
        err(1, "%s", path);
    if (p->nmade == sizeof p->made / sizeof p->made[0])
        errx(1, "too many plot files");
    p->made[p->nmade] = strdup(path);
    if (!p->made[p->nmade++])
        err(1, "out of memory");
    return fp;
}

void
il_plot_close(FILE *fp, const char *path)
{
    if (fflush(fp) || ferror(fp) || fclose(fp))
        err(1, "%s", path);
}

/*
 * Sized for print: a column of a two-column paper is about 3.4 inches wide,
 * and text in it should read at 8 points.  PDF and SVG are vectors of that
 * size (SVG at 72 units an inch); PNG is rendered at IL_PLOT_DPI, with
 * fonts and lines scaled to match.  Margins are tight, labels plain text.
 */
void
il_plot_header(struct plot *p, const char *xlabel, const char *ylabel, const char *title)
{
    FILE *gp = p->gp;
    if (!strcmp(p->fmt, "png")) {
        /* cairo sets text at 96 dots an inch, lines in points */
        fprintf(gp,
                "set terminal pngcairo size %d,%d noenhanced font 'sans,8' fontscale %.4f "
                "linewidth %.4f pointscale %.4f\n",
                (int)lround(p->w * IL_PLOT_DPI), (int)lround(p->h * IL_PLOT_DPI),
                IL_PLOT_DPI / 96.0, IL_PLOT_DPI / 72.0 / 2, IL_PLOT_DPI / 72.0 / 2);
    } else if (!strcmp(p->fmt, "svg")) {
        fprintf(gp, "set terminal svg size %d,%d fixed noenhanced font 'sans,8' linewidth 1\n",
                (int)lround(p->w * 72), (int)lround(p->h * 72));
    } else {
        fprintf(gp,
                "set terminal pdfcairo size %.3fin,%.3fin noenhanced font 'sans,8' "
                "linewidth 1\n",
                p->w, p->h);
    }
    fputs("set output ", gp);
    il_plot_quote(gp, p->o->out);
    fputs("\nset encoding utf8\nset border 3 lw 0.8\nset tics nomirror out scale 0.5\n"
          "set grid ytics lc rgb '#e4e4e4' lw 0.6\nset key noautotitle\n",
          gp);
    /* gnuplot 5.4 puts a disc of the background's colour behind each
     * point of an error bar (of a point's default size, whatever its ps),
     * "to avoid obscuring the central point" (its author, gnuplot-info,
     * 2024-11-22): where the bars are many (env and violin at a million
     * records) the discs covered the neighbouring bars and the other
     * series' line, white holes in the figure, and drawing them took a
     * third of gnuplot's time.  Their radius is this times a point's; 5.4.4
     * takes 0 (and unset) as the default 1, so a radius too small to
     * show. */
    fputs("set pointintervalbox 0.001\n", gp);
    const char *t = p->o->title ? p->o->title : title;
    if (t && *t) {
        fputs("set title ", gp);
        il_plot_quote(gp, t);
        fputs(" offset 0,-0.6\n", gp);
    }
    fputs("set xlabel ", gp);
    il_plot_quote(gp, xlabel);
    fputs(" offset 0,0.4\nset ylabel ", gp);
    il_plot_quote(gp, ylabel);
    fputs(" offset 1.2,0\n", gp);
}

void
il_plot_scale(const struct il_opts *o, double maxabs, struct il_scale *sc)
{
    const char *u = il_sel_unit(&o->sel);
    sc->f = 1;
    sc->unit[0] = '\0';
    if (!strcmp(u, "ns")) {
        static const char *const t[] = {"ns", "\u00b5s", "ms", "s"};
        int i = maxabs >= 1e9 ? 3 : maxabs >= 1e6 ? 2 : maxabs >= 1e3 ? 1 : 0;
        sc->f = pow(1e-3, i);
        snprintf(sc->unit, sizeof sc->unit, "%s", t[i]);
    } else if (!strcmp(u, "KiB")) {
        static const char *const t[] = {"KiB", "MiB", "GiB"};
        int i = maxabs >= 1048576 ? 2 : maxabs >= 1024 ? 1 : 0;
        sc->f = pow(1 / 1024.0, i);
        snprintf(sc->unit, sizeof sc->unit, "%s", t[i]);
    } else if (!o->sel.derived && maxabs >= 1e3) {
        static const char *const t[] = {"thousands", "millions", "billions", "trillions"};
        int i = maxabs >= 1e12 ? 3 : maxabs >= 1e9 ? 2 : maxabs >= 1e6 ? 1 : 0;
        sc->f = pow(1e-3, i + 1);
        snprintf(sc->unit, sizeof sc->unit, "%s", t[i]);
    }
}

void
il_plot_metric_label(const struct il_opts *o, const struct il_scale *sc, char *buf, size_t n)
{
    if (sc->unit[0])
        snprintf(buf, n, "%s (%s)", o->sel.metric, sc->unit);
    else
        snprintf(buf, n, "%s", o->sel.metric);
}

double
il_plot_step(double lo, double hi, int want)
{
    double span = hi - lo;
    if (!(span > 0) || want < 1)
        return 1;
    double raw = span / want, m = pow(10, floor(log10(raw)));
    double f = raw / m;
    return m * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10);
}

/* The unit (setup or cell) id of record rec, as units.c names it. */
uint32_t
il_plot_unit_of(const struct il_report *r, size_t rec)
{
    const struct il_opts *o = r->o;
    const struct il_data *d = &r->d;
    uint32_t a = il_lab(d, rec, o->design_slot[0]);
    if (o->design != IL_D_CROSSED)
        return a;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s/%s", il_str(&d->st, a),
             il_str(&d->st, il_lab(d, rec, o->design_slot[1])));
    uint32_t id = il_strtab_find(&d->st, buf);
    return id == UINT32_MAX ? IL_MISSING_ID : id;
}

/* The top of a range [lo, hi] that leaves the fraction f of the height
 * above hi free (for a key). */
double
il_plot_room_above(double lo, double hi, double f)
{
    return lo + (hi - lo) / (1 - f);
}

/* The fraction of the plot's height that rows of a key take: a row of
 * 8-point text is about 11 points of a plot area of the figure's height
 * less 40 points of margins. */
double
il_plot_key_fraction(int rows, double h)
{
    return fmin(0.6, rows * 11 / (h * 72 - 40));
}

/* "system=O2 bench=mcf": the --where labels that keep records, or the
 * group's name. */
void
il_plot_selection(const struct il_report *r, char *buf, size_t n)
{
    const struct il_opts *o = r->o;
    size_t m = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < o->sel.nwhere && m < n; i++)
        if (!o->sel.where[i].neg)
            m += (size_t)snprintf(buf + m, n - m, "%s%s=%s", m ? " " : "",
                                  o->sel.slot_name[o->sel.where[i].slot], o->sel.where[i].value);
    if (!m)
        snprintf(buf, n, "%s", strcmp(r->gname[0], "all") ? r->gname[0] : "all records");
}

size_t
il_plot_pixel(double x, double lo, double hi, size_t n)
{
    double span = hi > lo ? hi - lo : 1;
    return (size_t)fmin((double)(n - 1), fmax(0, (x - lo) / span * (double)n));
}

size_t
il_plot_column_picks(const double *lo, const double *hi, size_t a, size_t b, size_t pick[4])
{
    size_t lo_i = a, hi_i = a, n = 0;
    for (size_t i = a; i < b; i++) {
        lo_i = lo[i] < lo[lo_i] ? i : lo_i;
        hi_i = hi[i] > hi[hi_i] ? i : hi_i;
    }
    size_t all[4] = {a, lo_i < hi_i ? lo_i : hi_i, lo_i < hi_i ? hi_i : lo_i, b - 1};
    for (int k = 0; k < 4; k++)
        if (k == 0 || all[k] != all[k - 1])
            pick[n++] = all[k];
    return n;
}

void
il_plot_cells_init(struct il_plot_cells *c, size_t cols, size_t rows, double xlo, double xhi,
                   double ylo, double yhi)
{
    c->cols = cols / 2 ? cols / 2 : 1;
    c->rows = rows / 2 ? rows / 2 : 1;
    c->xlo = xlo;
    c->xhi = xhi;
    c->ylo = ylo;
    c->yhi = yhi;
    c->seen = il_xcalloc((c->cols * c->rows + 7) / 8, 1);
}

int
il_plot_cell_new(struct il_plot_cells *c, double x, double y)
{
    size_t bit = il_plot_pixel(y, c->ylo, c->yhi, c->rows) * c->cols +
                 il_plot_pixel(x, c->xlo, c->xhi, c->cols);
    if (c->seen[bit / 8] >> (bit % 8) & 1)
        return 0;
    c->seen[bit / 8] |= (uint8_t)(1u << (bit % 8));
    return 1;
}

void
il_plot_cells_free(struct il_plot_cells *c)
{
    free(c->seen);
    c->seen = NULL;
}
