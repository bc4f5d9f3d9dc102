/*
 * plot.c: interloper-plot, the figures of Mytkowicz et al. (ASPLOS'09) and
 * the independence plots of Kalibera & Jones (ISMM'13, section 6.1),
 * written as data plus a gnuplot script and rendered by gnuplot:
 *   violin  per-setup ratios per benchmark (Fig. 2b/3b)
 *   env     the metric against setup.env_bytes, mean and 95% CI (Fig. 1b)
 *   hist    suite geometric-mean ratio per setup, as a histogram (Fig. 6)
 *   seq     run sequence, lag-1 plot, ACF with +-1.96/sqrt(n), and the lag
 *           plot of the same data randomly reordered, for contrast
 * See interloper-plot(1).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "il_stats.h"

extern char **environ;

#define IL_KDE_POINTS 100

struct plot {
    const struct il_opts *o;
    struct il_report *r;
    char dir[4096];
    char *made[16]; /* files to remove unless --keep */
    size_t nmade;
    FILE *gp; /* the script */
};

static struct plot *cleanup_plot;

/* Remove the temporary script and data, also when a later step fails. */
static void
cleanup(void)
{
    struct plot *p = cleanup_plot;
    if (!p)
        return;
    for (size_t i = 0; i < p->nmade; i++) {
        if (!p->o->keep)
            unlink(p->made[i]);
        free(p->made[i]);
    }
    if (!p->o->keep && p->dir[0])
        rmdir(p->dir);
    cleanup_plot = NULL;
}

static void
gp_quote(FILE *fp, const char *s)
{
    fputc('\'', fp);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', fp);
        fputc(*s, fp);
    }
    fputc('\'', fp);
}

static FILE *
open_data(struct plot *p, const char *name, char *path, size_t n)
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

static void
close_data(FILE *fp, const char *path)
{
    if (fflush(fp) || ferror(fp) || fclose(fp))
        err(1, "%s", path);
}

static void
header(struct plot *p, const char *xlabel, const char *ylabel, const char *title)
{
    FILE *gp = p->gp;
    const char *out = p->o->out;
    size_t n = strlen(out);
    int svg = n > 4 && strcmp(out + n - 4, ".svg") == 0;
    fprintf(gp, "set terminal %s size 900,560 noenhanced font 'sans,10'\n",
            svg ? "svg" : "pngcairo");
    fputs("set output ", gp);
    gp_quote(gp, out);
    fputs("\nset grid ytics lc rgb '#dddddd'\nset key top right\n", gp);
    fputs("set title ", gp);
    gp_quote(gp, p->o->title ? p->o->title : title);
    fputs("\nset xlabel ", gp);
    gp_quote(gp, xlabel);
    fputs("\nset ylabel ", gp);
    gp_quote(gp, ylabel);
    fputc('\n', gp);
}

static void
plot_violin(struct plot *p)
{
    struct il_report *r = p->r;
    char vpath[4200], mpath[4200], title[512], ylab[512];
    FILE *v = open_data(p, "violins.dat", vpath, sizeof vpath);
    FILE *m = open_data(p, "medians.dat", mpath, sizeof mpath);
    double dens[IL_KDE_POINTS], ys[IL_KDE_POINTS], peak = 0;
    size_t nv = 0;
    /* First pass: the densities' common scale. */
    for (int pass = 0; pass < 2; pass++) {
        nv = 0;
        for (size_t i = 0; i < r->ncmp; i++) {
            const struct il_setups *s = &r->cmp[i].su;
            if (!r->cmp[i].has_setups)
                continue;
            nv++;
            /* Let the tails taper: two bandwidths beyond the extremes. */
            double bw = il_kde(s->ratio, s->n, s->min, s->max, 2, dens);
            double pad = 2 * bw + 1e-9 * fabs(s->max);
            double lo = s->min - pad, hi = s->max + pad;
            il_kde(s->ratio, s->n, lo, hi, IL_KDE_POINTS, dens);
            for (size_t j = 0; j < IL_KDE_POINTS; j++) {
                ys[j] = lo + (hi - lo) * (double)j / (IL_KDE_POINTS - 1);
                if (pass == 0 && dens[j] > peak)
                    peak = dens[j];
            }
            if (pass == 0)
                continue;
            double w = 0.4 / peak;
            for (size_t j = 0; j < IL_KDE_POINTS; j++)
                fprintf(v, "%.10g %.10g\n", (double)nv - w * dens[j], ys[j]);
            for (size_t j = IL_KDE_POINTS; j-- > 0;)
                fprintf(v, "%.10g %.10g\n", (double)nv + w * dens[j], ys[j]);
            fprintf(v, "%.10g %.10g\n\n\n", (double)nv - w * dens[0], ys[0]);
            double *t = malloc(s->n * sizeof *t);
            if (!t)
                err(1, "out of memory");
            memcpy(t, s->ratio, s->n * sizeof *t);
            qsort(t, s->n, sizeof *t, il_dcmp);
            fprintf(m, "%zu %.10g %.10g %.10g\n", nv, s->median, il_quantile_sorted(t, s->n, 0.25),
                    il_quantile_sorted(t, s->n, 0.75));
            free(t);
        }
    }
    close_data(v, vpath);
    close_data(m, mpath);
    if (!nv)
        errx(1, "violin: no comparison has paired setups; check --compare and --setup");
    int one = 1;
    for (size_t i = 1; i < r->ncmp; i++)
        one &= r->gs.g[r->cmp[i].g].key[r->cmp_pos] == r->gs.g[r->cmp[0].g].key[r->cmp_pos];
    snprintf(title, sizeof title, "per-setup ratio of %s: %s=%s / %s=%s, one value per %s",
             p->o->sel.metric, p->o->cmp_label,
             one ? il_str(&r->d.st, r->gs.g[r->cmp[0].g].key[r->cmp_pos]) : "*", p->o->cmp_label,
             p->o->cmp_base, p->o->setup[0]);
    if (p->o->speedup)
        snprintf(ylab, sizeof ylab, "speedup in %s (%s / value)", p->o->sel.metric, p->o->cmp_base);
    else
        snprintf(ylab, sizeof ylab, "ratio of %s (value / %s)", p->o->sel.metric, p->o->cmp_base);
    header(p, "", ylab, title);
    FILE *gp = p->gp;
    fprintf(gp, "set xrange [0.4:%zu.6]\nset xtics rotate by -30 (", nv);
    for (size_t i = 0, k = 0; i < r->ncmp; i++) {
        const struct il_cmp *c = &r->cmp[i];
        if (!c->has_setups)
            continue;
        char lab[512];
        const char *val = il_str(&r->d.st, r->gs.g[c->g].key[r->cmp_pos]);
        if (strcmp(c->unit, "all") == 0)
            snprintf(lab, sizeof lab, "%s", val);
        else if (r->nsuite > 1)
            snprintf(lab, sizeof lab, "%s %s", c->unit, val);
        else
            snprintf(lab, sizeof lab, "%s", c->unit);
        fputs(k ? ", " : "", gp);
        gp_quote(gp, lab);
        fprintf(gp, " %zu", ++k);
    }
    fputs(")\nset key off\nset style fill solid 0.35 border\n", gp);
    fputs("plot for [i=0:*] ", gp);
    gp_quote(gp, vpath);
    fputs(" index i with filledcurves closed lc rgb '#4477aa', \\\n  ", gp);
    gp_quote(gp, mpath);
    fputs(" using 1:2:3:4 with yerrorbars pt 7 ps 0.9 lw 3 lc rgb 'black', \\\n"
          "  1 with lines dt 2 lc rgb '#aa3377'\n",
          gp);
}

static int
cmp_env(const void *a, const void *b)
{
    const double *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

static void
plot_env(struct plot *p)
{
    struct il_report *r = p->r;
    char path[4200], ylab[512];
    FILE *f = open_data(p, "env.dat", path, sizeof path);
    for (size_t g = 0; g < r->gs.ng; g++) {
        const struct il_group *gr = &r->gs.g[g];
        double *ev = malloc(2 * gr->n * sizeof *ev);
        if (!ev)
            err(1, "out of memory");
        for (size_t i = 0; i < gr->n; i++) {
            ev[2 * i] = r->d.env[gr->rec[i]];
            ev[2 * i + 1] = gr->x[i];
        }
        qsort(ev, gr->n, 2 * sizeof *ev, cmp_env);
        double *x = malloc(gr->n * sizeof *x);
        if (!x)
            err(1, "out of memory");
        for (size_t i = 0; i < gr->n;) {
            size_t j = i, k = 0;
            while (j < gr->n && ev[2 * j] == ev[2 * i])
                x[k++] = ev[2 * j++ + 1];
            double mean, lo, hi;
            if (il_tci(x, k, &mean, &lo, &hi))
                lo = hi = mean;
            fprintf(f, "%.10g %.10g %.10g %.10g\n", ev[2 * i], mean, lo, hi);
            i = j;
        }
        fputs("\n\n", f);
        free(x);
        free(ev);
    }
    close_data(f, path);
    snprintf(ylab, sizeof ylab, "%s%s%s%s (mean, 95%% CI)", p->o->sel.metric,
             *il_metric_unit(p->o->sel.metric, p->o->sel.kind) ? " (" : "",
             il_metric_unit(p->o->sel.metric, p->o->sel.kind),
             *il_metric_unit(p->o->sel.metric, p->o->sel.kind) ? ")" : "");
    header(p, "environment size (setup.env_bytes)", ylab, "metric against environment size");
    FILE *gp = p->gp;
    fputs("set key outside right top\n", gp);
    fputs("plot ", gp);
    for (size_t g = 0; g < r->gs.ng; g++) {
        fputs(g ? ", \\\n  " : "", gp);
        gp_quote(gp, path);
        fprintf(gp, " index %zu using 1:2:3:4 with yerrorlines pt 7 ps 0.5 title ", g);
        gp_quote(gp, r->gname[g]);
    }
    fputc('\n', gp);
}

static void
plot_hist(struct plot *p)
{
    struct il_report *r = p->r;
    char path[4200], title[512], xlab[512];
    FILE *f = open_data(p, "hist.dat", path, sizeof path);
    size_t nser = 0;
    uint32_t ser[64];
    for (size_t si = 0; si < r->nsuite + (r->nsuite == 0); si++) {
        /* Without a benchmark dimension each setup's "suite" is its ratio. */
        uint32_t v = r->nsuite ? r->suite[si].value : r->gs.g[r->cmp[0].g].key[r->cmp_pos];
        size_t nb = 0, maxs = 0;
        const struct il_cmp *cs[4096];
        for (size_t i = 0; i < r->ncmp && nb < 4096; i++)
            if (r->gs.g[r->cmp[i].g].key[r->cmp_pos] == v && r->cmp[i].has_setups) {
                cs[nb++] = &r->cmp[i];
                if (r->cmp[i].su.n > maxs)
                    maxs = r->cmp[i].su.n;
            }
        if (!nb)
            continue;
        /* Setups measured for every benchmark: geometric mean of their ratios. */
        double *gm = malloc(maxs * sizeof *gm);
        size_t ng = 0;
        if (!gm)
            err(1, "out of memory");
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
        if (ng == 0) {
            free(gm);
            continue;
        }
        qsort(gm, ng, sizeof *gm, il_dcmp);
        /* Freedman-Diaconis bin width, or sqrt(n) bins when the IQR is 0. */
        double iqr = il_quantile_sorted(gm, ng, 0.75) - il_quantile_sorted(gm, ng, 0.25);
        double span = gm[ng - 1] - gm[0];
        double bw = iqr > 0 ? 2 * iqr / cbrt((double)ng) : span / ceil(sqrt((double)ng));
        if (!(bw > 0))
            bw = fabs(gm[0]) * 1e-3 + 1e-9;
        size_t nbins = (size_t)floor(span / bw) + 1;
        for (size_t b = 0, i = 0; b < nbins; b++) {
            size_t c = 0;
            double edge = gm[0] + (double)(b + 1) * bw;
            while (i < ng && (gm[i] < edge || b + 1 == nbins)) {
                i++;
                c++;
            }
            fprintf(f, "%.10g %zu %.10g\n", gm[0] + ((double)b + 0.5) * bw, c, bw);
        }
        fprintf(f, "# %s\n\n\n", il_str(&r->d.st, v));
        if (nser < 64)
            ser[nser++] = v;
        free(gm);
    }
    close_data(f, path);
    if (!nser)
        errx(1, "hist: no setup was measured for every benchmark on both sides; check "
                "--compare and --setup");
    snprintf(title, sizeof title, "suite geometric-mean ratio per %s (%zu series)", p->o->setup[0],
             nser);
    snprintf(xlab, sizeof xlab, "geometric mean over benchmarks of the per-setup ratio of %s",
             p->o->sel.metric);
    header(p, xlab, "setups", title);
    FILE *gp = p->gp;
    fputs("set style fill transparent solid 0.5 border\nset yrange [0:*]\n"
          "set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb '#aa3377'\nplot ",
          gp);
    for (size_t k = 0; k < nser; k++) {
        fputs(k ? ", \\\n  " : "", gp);
        gp_quote(gp, path);
        fprintf(gp, " index %zu using 1:2:3 with boxes title ", k);
        gp_quote(gp, il_str(&r->d.st, ser[k]));
    }
    fputc('\n', gp);
}

static void
plot_seq(struct plot *p)
{
    struct il_report *r = p->r;
    if (r->gs.ng != 1)
        errx(1, "seq: the selection has %zu groups (%s, ...); select one group with --where",
             r->gs.ng, r->gname[0]);
    const struct il_group *g = &r->gs.g[0];
    if (g->n < 3)
        errx(1, "seq: %s has %zu values; run-sequence and lag plots need at least 3", r->gname[0],
             g->n);
    char spath[4200], apath[4200], title[512];
    FILE *s = open_data(p, "seq.dat", spath, sizeof spath);
    double *sh = malloc(g->n * sizeof *sh), acf[40];
    if (!sh)
        err(1, "out of memory");
    memcpy(sh, g->x, g->n * sizeof *sh);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        err(1, "out of memory");
    gsl_rng_set(rng, 1);
    for (size_t i = g->n - 1; i > 0; i--) {
        size_t j = gsl_rng_uniform_int(rng, i + 1);
        double t = sh[i];
        sh[i] = sh[j];
        sh[j] = t;
    }
    gsl_rng_free(rng);
    /* columns: run, value, previous value, shuffled, previous shuffled */
    for (size_t i = 0; i < g->n; i++)
        fprintf(s, "%zu %.10g %.10g %.10g %.10g\n", i + 1, g->x[i], i ? g->x[i - 1] : NAN, sh[i],
                i ? sh[i - 1] : NAN);
    close_data(s, spath);
    free(sh);
    FILE *a = open_data(p, "acf.dat", apath, sizeof apath);
    size_t nl = il_acf(g->x, g->n, g->n - 1 < 40 ? g->n - 1 : 40, acf);
    for (size_t k = 0; k < nl; k++)
        fprintf(a, "%zu %.10g\n", k + 1, acf[k]);
    if (!nl)
        fputs("1 0\n", a);
    close_data(a, apath);
    double bound = 1.959963984540054 / sqrt((double)g->n);
    snprintf(title, sizeof title, "%s: %s", r->gname[0], p->o->sel.metric);
    header(p, "", "", title);
    FILE *gp = p->gp;
    fputs("set key off\nset multiplot layout 2,2 title ", gp);
    gp_quote(gp, p->o->title ? p->o->title : title);
    fputs("\nunset title\nset title 'run sequence'\nset xlabel 'run'\nset ylabel 'value'\nplot ",
          gp);
    gp_quote(gp, spath);
    fputs(" using 1:2 with linespoints pt 7 ps 0.4\n", gp);
    fputs("set title 'lag 1'\nset xlabel 'previous value'\nset ylabel 'value'\nplot ", gp);
    gp_quote(gp, spath);
    fputs(" using 3:2 with points pt 7 ps 0.5\n", gp);
    fprintf(gp, "set title 'autocorrelation (dashed: +-1.96/sqrt(n))'\nset xlabel 'lag'\n"
                "set ylabel 'ACF'\nset yrange [-1:1]\nset style fill solid 0.6\nplot ");
    gp_quote(gp, apath);
    fprintf(gp, " using 1:2 with impulses lw 3, %.10g with lines dt 2, %.10g with lines dt 2\n",
            bound, -bound);
    fputs("set autoscale y\nset title 'lag 1, randomly reordered (for contrast)'\n"
          "set xlabel 'previous value'\nset ylabel 'value'\nplot ",
          gp);
    gp_quote(gp, spath);
    fputs(" using 5:4 with points pt 7 ps 0.5\nunset multiplot\n", gp);
}

/* The line of gnuplot's stderr that says what failed: the first error
 * ('"plot.gp" line N: ...', not a warning), else the first warning, else
 * the first line with text; the script's path shortened to its name. */
static void
first_error(char *text, const char *script, char *out, size_t n)
{
    const char *best = NULL, *warning = NULL, *any = NULL;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        const char *l = line + strspn(line, " \t");
        if (!*l || *l == '^')
            continue;
        if (!any)
            any = l;
        const char *at = strstr(l, "line ");
        if (!at || at[5 + strspn(at + 5, "0123456789")] != ':')
            continue;
        if (strstr(at, ": warning:")) {
            if (!warning)
                warning = l;
        } else if (!best) {
            best = l;
        }
    }
    const char *l = best ? best : warning ? warning : any ? any : "no message";
    size_t sl = strlen(script);
    const char *name = strrchr(script, '/');
    if (l[0] == '"' && strncmp(l + 1, script, sl) == 0 && l[sl + 1] == '"')
        snprintf(out, n, "%.64s%.700s", name ? name + 1 : script, l + sl + 2);
    else
        snprintf(out, n, "%.760s", l);
}

static void
run_gnuplot(struct plot *p, const char *script)
{
    pid_t pid;
    char *argv[] = {"gnuplot", (char *)script, NULL}, epath[4200];
    /* gnuplot's stderr goes to a file: on failure one line of it is named. */
    FILE *ef = open_data(p, "gnuplot.err", epath, sizeof epath);
    if (!(ef = freopen(epath, "w+", ef)))
        err(1, "%s", epath);
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) ||
        posix_spawn_file_actions_adddup2(&fa, fileno(ef), STDERR_FILENO))
        err(1, "cannot run gnuplot");
    int e = posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ), st;
    posix_spawn_file_actions_destroy(&fa);
    if (e == ENOENT)
        errx(1, "gnuplot not found; install it (Debian: gnuplot-nox); --keep DIR keeps the "
                "script and data to render elsewhere");
    if (e) {
        errno = e;
        err(1, "cannot run gnuplot");
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            err(1, "waitpid");
    char text[8192];
    size_t len = 0;
    if (fseek(ef, 0, SEEK_SET) == 0)
        len = fread(text, 1, sizeof text - 1, ef);
    text[len] = '\0';
    fclose(ef);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char line[1024];
        if (WIFSIGNALED(st))
            snprintf(line, sizeof line, "killed by signal %d", WTERMSIG(st));
        else
            first_error(text, script, line, sizeof line);
        errx(1, "gnuplot failed: %s%s", line,
             p->o->keep ? "" : " (--keep DIR keeps the script to inspect)");
    }
    /* Success: pass on what gnuplot said (its warnings). */
    fputs(text, stderr);
    struct stat sb;
    if (stat(p->o->out, &sb) < 0 || sb.st_size == 0)
        errx(1, "gnuplot wrote no image to %s", p->o->out);
}

/* -o: its directory must exist and be writable, and the file, if it
 * exists, a writable file, before any work is done. */
static void
check_output(const char *out)
{
    char dir[4096];
    const char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == out)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - out), out);
    struct stat sb;
    if (stat(dir, &sb) < 0) {
        if (errno == ENOENT)
            errx(1, "-o %s: the directory %s does not exist", out, dir);
        if (errno == ENOTDIR)
            errx(1, "-o %s: %s is not a directory", out, dir);
        err(1, "-o %s: %s", out, dir);
    }
    if (!S_ISDIR(sb.st_mode))
        errx(1, "-o %s: %s is not a directory", out, dir);
    if (stat(out, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            errx(1, "-o %s: this is a directory; expected an image file name", out);
        if (access(out, W_OK) < 0)
            errx(1, "-o %s: the file exists and is not writable", out);
    } else if (access(dir, W_OK | X_OK) < 0) {
        errx(1, "-o %s: the directory %s is not writable", out, dir);
    }
}

int
main(int argc, char **argv)
{
    struct il_opts o;
    struct il_report r;
    struct plot p;
    static char name[] = "interloper plot";
    program_invocation_short_name = name; /* what the user typed, for err(3) */
    gsl_set_error_handler_off();
    il_parse_opts(IL_TOOL_PLOT, argc, argv, &o);
    size_t ol = strlen(o.out);
    if (!(ol > 4 && (strcmp(o.out + ol - 4, ".png") == 0 || strcmp(o.out + ol - 4, ".svg") == 0)))
        errx(1, "-o %s: expected a file name ending in .png or .svg", o.out);
    check_output(o.out);
    int needs_cmp = !strcmp(o.plot_kind, "violin") || !strcmp(o.plot_kind, "hist");
    if (needs_cmp && (!o.cmp_label || !o.nsetup))
        errx(1, "%s: needs --compare LABEL=BASELINE and --setup LABEL", o.plot_kind);
    if (!strcmp(o.plot_kind, "env"))
        o.sel.want_env = 1;
    if (!strcmp(o.plot_kind, "seq"))
        o.sel.want_labels = 1; /* one series: see one_series() in analyze.c */
    il_analyze(&o, &r);
    memset(&p, 0, sizeof p);
    p.o = &o;
    p.r = &r;
    if (o.keep) {
        if (mkdir(o.keep, 0777) < 0 && errno != EEXIST)
            err(1, "--keep %s", o.keep);
        snprintf(p.dir, sizeof p.dir, "%s", o.keep);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(p.dir, sizeof p.dir, "%s/interloper-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(p.dir))
            err(1, "mkdtemp %s", p.dir);
    }
    cleanup_plot = &p;
    atexit(cleanup);
    char script[4200];
    p.gp = open_data(&p, "plot.gp", script, sizeof script);
    if (!strcmp(o.plot_kind, "violin"))
        plot_violin(&p);
    else if (!strcmp(o.plot_kind, "env"))
        plot_env(&p);
    else if (!strcmp(o.plot_kind, "hist"))
        plot_hist(&p);
    else
        plot_seq(&p);
    close_data(p.gp, script);
    run_gnuplot(&p, script);
    cleanup();
    printf("%s\n", o.out);
    return 0;
}
