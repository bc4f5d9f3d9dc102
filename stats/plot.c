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
