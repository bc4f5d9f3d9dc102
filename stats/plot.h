/*
 * plot.h: what interloper-plot's files share (plot.c: the command and
 * gnuplot's run; plot_draw.c: data files, the terminal, scales, ranges;
 * plot_kinds.c: the violin, hist and seq figures; plot_env.c: env).
 */
#ifndef IL_PLOT_H
#define IL_PLOT_H

#include <stdio.h>

#include "il_stats.h"

#define IL_PLOT_DPI 300 /* PNG pixels per inch: print resolution */

struct plot {
    const struct il_opts *o;
    struct il_report *r;
    char dir[4096];
    char *made[16]; /* files to remove unless --keep */
    size_t nmade;
    FILE *gp;        /* the script */
    double w, h;     /* the figure's size in inches */
    const char *fmt; /* "png", "svg" or "pdf" */
};

/* Colours that stay apart for colour-blind readers and in grey (Paul
 * Tol's "bright" scheme). */
extern const char *const il_plot_colour[7];

/* A data file in the plot's directory, removed at the end unless --keep. */
FILE *il_plot_data(struct plot *p, const char *name, char *path, size_t n);
void il_plot_close(FILE *fp, const char *path);
/* s as a gnuplot string in single quotes. */
void il_plot_quote(FILE *fp, const char *s);
/* The terminal, output, fonts, margins and labels; title NULL or "" for
 * none (--title overrides it). */
void il_plot_header(struct plot *p, const char *xlabel, const char *ylabel, const char *title);

/* A metric's values shown in a unit of a readable size: value * f, and the
 * unit's name ("ms", "millions", or "" for none). */
struct il_scale {
    double f;
    char unit[32];
};
void il_plot_scale(const struct il_opts *o, double maxabs, struct il_scale *sc);
/* "task-clock (ms)", "cycles (millions)", "instructions/cycles". */
void il_plot_metric_label(const struct il_opts *o, const struct il_scale *sc, char *buf, size_t n);
/* A tick step of 1, 2 or 5 times a power of ten giving at most about
 * want ticks over [lo, hi]. */
double il_plot_step(double lo, double hi, int want);

/* The unit (setup or cell) id of record rec, as units.c names it. */
uint32_t il_plot_unit_of(const struct il_report *r, size_t rec);
/* The top of a range [lo, hi] that leaves the fraction f of the height
 * above hi free (for a key). */
double il_plot_room_above(double lo, double hi, double f);
/* The fraction of a plot of h inches that rows of a key take. */
double il_plot_key_fraction(int rows, double h);
/* "system=O2 bench=mcf": the --where labels that keep records, or the
 * group's name. */
void il_plot_selection(const struct il_report *r, char *buf, size_t n);

/*
 * Decimation (issue 18): data of more points than a figure has pixels to
 * show them is cut, before gnuplot, to what it can show at IL_PLOT_DPI,
 * and the data file's comment says so.  The rule, one for every figure:
 * past IL_PLOT_PER_COLUMN points to a pixel column, of the points in each
 * column the first, the last, the lowest and the highest are kept (a line,
 * an error bar or a rug tick through them draws the same), and a point
 * drawn as a marker is kept when it is the first in its cell of 2 x 2
 * pixels (less than half a marker).
 */
#define IL_PLOT_PER_COLUMN 4
/* The pixel column (or row) of x on an axis [lo, hi] of n pixels. */
size_t il_plot_pixel(double x, double lo, double hi, size_t n);
/* Of the points [a, b) (a < b) of one pixel column, in order, with low
 * ends lo[] and high ends hi[] (the same array for a point): their
 * indices to keep, the first, the lowest, the highest and the last, each
 * once and in order, in pick[]; how many. */
size_t il_plot_column_picks(const double *lo, const double *hi, size_t a, size_t b, size_t pick[4]);
/* The cells of 2 x 2 pixels of a panel of cols x rows pixels over
 * [xlo, xhi] x [ylo, yhi]. */
struct il_plot_cells {
    size_t cols, rows;
    double xlo, xhi, ylo, yhi;
    uint8_t *seen;
};
void il_plot_cells_init(struct il_plot_cells *c, size_t cols, size_t rows, double xlo, double xhi,
                        double ylo, double yhi);
/* 1 the first time a point falls in its cell, else 0. */
int il_plot_cell_new(struct il_plot_cells *c, double x, double y);
void il_plot_cells_free(struct il_plot_cells *c);

void il_plot_violin(struct plot *p);
void il_plot_env(struct plot *p);
void il_plot_hist(struct plot *p);
void il_plot_seq(struct plot *p);

#endif
