/*
 * until.c: --until PCT, stop at a precision.  After each batch of setups,
 * interloper report summarises the results so far with the experiment's
 * design (--compare system=FIRST --setup setup) and the sweep stops when
 * the headline 95% interval of every compared ratio (comparisons[].ci, the
 * design-aware one) has a half-width below PCT percent of the ratio.  More
 * setups, not more repetitions, are what it adds: the setup is the highest
 * level of the experiment, where Kalibera and Jones's planning puts the
 * repetitions that buy the most precision when setups cost little (ISMM
 * 2013, section 5).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "il_report.h"
#include "sweep.h"

/* interloper report, beside us or where the front command says */
static char *
report_path(void)
{
    const char *d = getenv(IL_V_LIBEXEC);
    char *p = d && *d ? il_xasprintf("%s/interloper-report", d) : NULL;
    if (p && access(p, X_OK) == 0)
        return p;
    free(p);
    return il_xasprintf("%s/interloper-report", il_libexec_dir());
}

/* Its stdout; NULL if it failed, with its last line of stderr in why. */
static char *
run_report(const struct il_sweep *s, char *why, size_t whysz)
{
    char *prog = report_path(), *cmp = il_xasprintf("system=%s", s->d.sys[0]);
    char *argv[16];
    int k = 0;
    argv[k++] = prog;
    argv[k++] = "--json";
    argv[k++] = "--metric";
    argv[k++] = (char *)s->metric;
    argv[k++] = "--compare";
    argv[k++] = cmp;
    argv[k++] = "--setup";
    argv[k++] = IL_L_SETUP;
    if (s->d.pin_factor) {
        argv[k++] = "--by";
        argv[k++] = IL_L_PIN;
    }
    argv[k++] = (char *)s->output;
    argv[k] = NULL;
    int pfd[2], dn = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (pipe2(pfd, O_CLOEXEC) < 0 || dn < 0)
        err(1, "--until: pipe");
    extern char **environ;
    int efd = memfd_create("report-err", MFD_CLOEXEC);
    pid_t p = il_spawn(prog, argv, environ, dn, pfd[1], efd >= 0 ? efd : dn, NULL);
    if (p < 0)
        err(1, "--until: cannot run %s", prog);
    close(pfd[1]);
    close(dn);
    struct il_buf b = {0};
    char chunk[65536];
    ssize_t n;
    while ((n = read(pfd[0], chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        il_buf_add(&b, chunk, (size_t)n);
    }
    close(pfd[0]);
    int st;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR)
        ;
    free(prog);
    free(cmp);
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        char e[1024] = "";
        ssize_t m = efd >= 0 ? pread(efd, e, sizeof e - 1, 0) : -1;
        e[m > 0 ? m : 0] = 0;
        while (m > 0 && e[m - 1] == '\n')
            e[--m] = 0;
        char *last = strrchr(e, '\n');
        snprintf(why, whysz, "interloper report failed (%s %d): %s",
                 WIFEXITED(st) ? "status" : "signal",
                 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
                 last   ? last + 1
                 : e[0] ? e
                        : "no message");
        if (efd >= 0)
            close(efd);
        il_buf_free(&b);
        return NULL;
    }
    if (efd >= 0)
        close(efd);
    return b.p;
}

int
il_until_check(const struct il_sweep *s, char *why, size_t whysz, double *widest)
{
    char *text = run_report(s, why, whysz);
    *widest = INFINITY;
    if (!text)
        return -1;
    json_error_t je;
    json_t *r = json_loads(text, 0, &je);
    free(text);
    json_t *cmps = json_object_get(r, IL_R_COMPARISONS);
    if (!json_array_size(cmps)) {
        snprintf(why, whysz, "interloper report gave no comparison of the systems yet");
        json_decref(r);
        return 0;
    }
    double worst = 0;
    char worst_what[256] = "";
    size_t i;
    json_t *c;
    json_array_foreach(cmps, i, c)
    {
        double ratio = json_number_value(json_object_get(c, IL_R_RATIO));
        const char *kind = json_string_value(json_object_get(c, IL_R_CI_KIND));
        json_t *ci = json_object_get(c, IL_R_CI);
        double hw = INFINITY;
        if (kind && !strcmp(kind, IL_R_BOUNDED) && json_array_size(ci) == 2 && ratio > 0)
            hw = (json_number_value(json_array_get(ci, 1)) -
                  json_number_value(json_array_get(ci, 0))) /
                 2 / ratio * 100;
        if (i == 0 || hw > worst) {
            worst = hw;
            const char *sys =
                json_string_value(json_object_get(json_object_get(c, IL_R_LABELS), IL_L_SYSTEM));
            if (isinf(hw))
                snprintf(worst_what, sizeof worst_what, "%s/%s has no bounded interval",
                         sys ? sys : "?", s->d.sys[0]);
            else
                snprintf(worst_what, sizeof worst_what, "%s/%s %.4g +-%.2f%%", sys ? sys : "?",
                         s->d.sys[0], ratio, hw);
        }
    }
    json_decref(r);
    *widest = worst;
    int done = worst < s->until;
    snprintf(why, whysz, "%s (widest: %s; target +-%g%%)",
             done ? "every ratio's 95% interval is narrow enough"
                  : "not every ratio's 95% interval is narrow enough",
             worst_what, s->until);
    return done;
}
