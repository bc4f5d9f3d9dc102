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
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot.h"

extern char **environ;

const char *const il_plot_colour[7] = {"#4477aa", "#ee6677", "#228833", "#ccbb44",
                                       "#66ccee", "#aa3377", "#bbbbbb"};

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
    FILE *ef = il_plot_data(p, "gnuplot.err", epath, sizeof epath);
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
    memset(&p, 0, sizeof p);
    size_t ol = strlen(o.out);
    static const char *const fmts[] = {"png", "svg", "pdf"};
    for (size_t i = 0; i < 3; i++)
        if (ol > 4 && o.out[ol - 4] == '.' && strcmp(o.out + ol - 3, fmts[i]) == 0)
            p.fmt = fmts[i];
    if (!p.fmt)
        errx(1, "-o %s: expected a file name ending in .png, .svg or .pdf", o.out);
    check_output(o.out);
    int needs_cmp = !strcmp(o.plot_kind, "violin") || !strcmp(o.plot_kind, "hist");
    if (needs_cmp && (!o.cmp_label || !o.nsetup))
        errx(1, "%s: needs --compare LABEL=BASELINE and --setup LABEL", o.plot_kind);
    if (!strcmp(o.plot_kind, "env"))
        o.sel.want_env = 1;
    if (!strcmp(o.plot_kind, "violin"))
        il_sel_slot(&o.sel, IL_L_LAYOUT_KIND); /* marks the original and alphabetical orders */
    if (!strcmp(o.plot_kind, "seq") || !strcmp(o.plot_kind, "env"))
        o.sel.want_labels = 1; /* one series: see one_series() in analyze.c */
    il_analyze(&o, &r);
    p.o = &o;
    p.r = &r;
    int seq = !strcmp(o.plot_kind, "seq");
    p.w = o.size_w ? o.size_w : seq ? 7 : 3.4;
    p.h = o.size_h ? o.size_h : seq ? 4.6 : 2.3;
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
    p.gp = il_plot_data(&p, "plot.gp", script, sizeof script);
    if (!strcmp(o.plot_kind, "violin"))
        il_plot_violin(&p);
    else if (!strcmp(o.plot_kind, "env"))
        il_plot_env(&p);
    else if (!strcmp(o.plot_kind, "hist"))
        il_plot_hist(&p);
    else
        il_plot_seq(&p);
    il_plot_close(p.gp, script);
    run_gnuplot(&p, script);
    cleanup();
    printf("%s\n", o.out);
    return 0;
}
