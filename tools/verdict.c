/*
 * verdict.c: what a sweep of two or more systems found, in the words a
 * person reads in five seconds, as hyperfine ends every run: each
 * system's time with its spread, each ratio to the first system with its
 * 95% interval over the setups and the verdict, how much single setups
 * differed, why the sweep stopped, and what names the result (seed, plan,
 * machine) so that it can be cited and rerun.  interloper sweep and
 * interloper compare both end with it: one formatter.
 *
 * Every number is interloper report's (one statistics engine): the sweep
 * runs it on its results with the experiment's design, as --until does,
 * and reads its JSON.
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
#include "il_plural.h"

/* ------------------------------------------------------------ interloper report */

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

/* The last line of what a failed report said on stderr, in why. */
static void
failed(int efd, int st, char *why, size_t whysz)
{
    char e[1024] = "";
    ssize_t m = efd >= 0 ? pread(efd, e, sizeof e - 1, 0) : -1;
    e[m > 0 ? m : 0] = 0;
    while (m > 0 && e[m - 1] == '\n')
        e[--m] = 0;
    char *last = strrchr(e, '\n');
    snprintf(why, whysz, "interloper report failed (%s %d): %s",
             WIFEXITED(st) ? "status" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
             last   ? last + 1
             : e[0] ? e
                    : "no message");
}

/* The report's options for the sweep's design (words: "system=FIRST",
 * compare's --subtract "system=SHELL" and the setup's labels):
 * what --until and the summary read, and what the summary tells the user
 * to run for the whole report.  Up to IL_REPORT_ARGS words. */
#define IL_REPORT_ARGS 18
#define IL_REPORT_WORD (IL_SYSTEM_NAME_MAX + 16)
#define IL_REPORT_WORDS 4
static int
report_args(const struct il_sweep *s, char **argv, char words[IL_REPORT_WORDS][IL_REPORT_WORD])
{
    int k = 0;
    char *cmp = words[0], *sub = words[1], *setup = words[2];
    /* the setups' design, as the setups measured so far allow it
     * (sweep.c, design_update) */
    snprintf(setup, IL_REPORT_WORD, "%s",
             s->pick && s->pick->use[0] ? s->pick->use : IL_L_SETUP);
    snprintf(cmp, IL_REPORT_WORD, "%s=%s", IL_L_SYSTEM, s->d.sys[0]);
    argv[k++] = "--metric";
    argv[k++] = (char *)s->metric;
    if (s->estimator) {
        argv[k++] = "--estimator";
        argv[k++] = (char *)s->estimator;
    }
    argv[k++] = "--compare";
    argv[k++] = cmp;
    argv[k++] = "--setup";
    argv[k++] = setup;
    if (s->d.pin_factor) {
        argv[k++] = "--by";
        argv[k++] = IL_L_PIN;
    }
    if (s->subtract) {
        /* compare's shell alone, measured in every setup */
        snprintf(sub, IL_REPORT_WORD, "%s=%s", IL_L_SYSTEM, s->subtract);
        argv[k++] = "--subtract";
        argv[k++] = sub;
    }
    if (s->expect_status) {
        /* the runs the sweep calls failed are those the report leaves out */
        snprintf(words[3], IL_REPORT_WORD, "%d", s->expect_status);
        argv[k++] = "--expect-status";
        argv[k++] = words[3];
    }
    if (s->per_launch) {
        /* a shell's record and those of what it exec'd are one run */
        argv[k++] = "--per";
        argv[k++] = IL_L_LAUNCH;
    }
    argv[k++] = (char *)s->output;
    return k;
}

static json_t *report_once(const struct il_sweep *s, char *why, size_t whysz);

/* The report with the sweep's design; where the crossed model finds too
 * few cells in the file (failed runs left out, setups of a batch an
 * interruption cut short: review12e), again with the design it falls
 * back to, which the summary then names. */
json_t *
il_sweep_report(const struct il_sweep *s, char *why, size_t whysz)
{
    json_t *r = report_once(s, why, whysz);
    if (!r && s->pick && strcmp(s->pick->use, s->pick->fallback) && strstr(why, IL_R_TOO_FEW_CELLS)) {
        memcpy(s->pick->use, s->pick->fallback, sizeof s->pick->use);
        r = report_once(s, why, whysz);
    }
    return r;
}

static json_t *
report_once(const struct il_sweep *s, char *why, size_t whysz)
{
    char *prog = report_path(), words[IL_REPORT_WORDS][IL_REPORT_WORD];
    char *argv[IL_REPORT_ARGS + 3];
    argv[0] = prog;
    argv[1] = "--json";
    argv[2 + report_args(s, argv + 2, words)] = NULL;
    int pfd[2], dn = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (pipe2(pfd, O_CLOEXEC) < 0 || dn < 0)
        err(1, "cannot run interloper report: pipe");
    extern char **environ;
    int efd = memfd_create("report-err", MFD_CLOEXEC);
    pid_t p = il_spawn(prog, argv, environ, dn, pfd[1], efd >= 0 ? efd : dn, NULL);
    if (p < 0)
        err(1, "cannot run %s", prog);
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
    json_t *r = NULL;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        failed(efd, st, why, whysz);
    } else {
        json_error_t je;
        r = json_loadb(b.p ? b.p : "", b.n, 0, &je);
        if (!json_is_object(r)) {
            snprintf(why, whysz, "interloper report wrote no JSON object (%s)", je.text);
            json_decref(r);
            r = NULL;
        }
    }
    if (efd >= 0)
        close(efd);
    il_buf_free(&b);
    return r;
}

/* ------------------------------------------------------------ the words */

const char *
il_json_str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

double
il_json_num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* the scale of a metric's values: a time in ns shown as hyperfine shows it */
struct scale {
    double div;
    const char *unit;
};

static struct scale
scale_of(const char *unit, double typical)
{
    struct scale sc = {1, unit && *unit ? unit : ""};
    if (unit && !strcmp(unit, "ns")) {
        double a = fabs(typical);
        sc = a >= 1e9   ? (struct scale){1e9, "s"}
             : a >= 1e6 ? (struct scale){1e6, "ms"}
             : a >= 1e3 ? (struct scale){1e3, "\u00b5s"}
                        : (struct scale){1, "ns"};
    }
    return sc;
}

static void
value(struct il_buf *b, double x, struct scale sc)
{
    if (isnan(x))
        il_buf_str(b, "-");
    else if (sc.div == 1 && !*sc.unit)
        il_buf_printf(b, "%.6g", x);
    else
        il_buf_printf(b, "%.3f %s", x / sc.div, sc.unit);
}

/* What a system's number is: the report's estimate under --setup, the
 * mean of the setups' estimates (interloper-report(1)), which is not the
 * mean of the runs when the setups hold different numbers of runs
 * (outside14 F7: 76.414 ms against the runs' 75.851 ms). */
const char *
il_estimate_words(const char *e, char *buf, size_t n)
{
    if (!e || !strcmp(e, "mean"))
        return "mean of the setups' means";
    if (!strcmp(e, "median"))
        return "mean of the setups' medians";
    if (!strcmp(e, "min"))
        return "mean of the setups' minima";
    snprintf(buf, n, "mean of the setups' %s", e);
    return buf;
}

/* Why the report could not test the setups: its no-reps warning's
 * reason ("WHY, so the spread ...: NAME; NAME; ..."), or NULL. */
static char *
no_reps_why(json_t *rep)
{
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(rep, IL_R_WARNINGS), i, w)
    {
        const char *t = json_string_value(w), *z;
        if (t && strstr(t, "[no-reps]") && (z = strstr(t, ", so the ")))
            return il_xasprintf("%.*s", (int)(z - t), t);
    }
    return NULL;
}

/* "beyond noise: yes (p = 0.001)", or why it could not be tested */
static void
beyond_noise(struct il_buf *b, json_t *rep, json_t *setups)
{
    json_t *het = json_object_get(setups, IL_R_HETEROGENEITY);
    double p = il_json_num(het, IL_R_P);
    il_buf_str(b, "beyond noise: ");
    if (!isnan(p)) {
        il_buf_printf(b, "%s (p = %.2g)", p < 0.05 ? "yes" : "no", p);
        if (json_is_true(json_object_get(setups, IL_R_STRADDLES_ONE)))
            il_buf_str(b, "; one setup alone could have shown either conclusion");
        else if (json_is_false(json_object_get(setups, IL_R_STRADDLES_ONE_TESTED)) &&
                 il_json_str(setups, IL_R_STRADDLES_ONE_WHY))
            il_buf_printf(b,
                          "; whether one setup alone could have shown either conclusion could "
                          "not be tested (%s)",
                          il_json_str(setups, IL_R_STRADDLES_ONE_WHY));
        return;
    }
    char *why = no_reps_why(rep);
    il_buf_str(b, "could not be tested");
    if (il_json_str(het, IL_R_WHY))
        il_buf_printf(b, " (%s)", il_json_str(het, IL_R_WHY));
    else if (why)
        il_buf_printf(b, " (%s; repeat runs within setups)", why);
    else if (il_json_num(setups, IL_R_N) < 2)
        il_buf_str(b, " (fewer than two setups)");
    else
        il_buf_str(b, " (interloper report says why)");
    free(why);
}

/* The verdict's first part, the effect and its interval: the report's
 * sentence up to its clause on single setups, which is said apart. */
static void
effect(struct il_buf *b, const char *verdict)
{
    const char *cut = strstr(verdict, "; single setups ranged");
    il_buf_add(b, verdict, cut ? (size_t)(cut - verdict) : strlen(verdict));
}

/* "single setups ranged from A to B", the report's words */
static void
setup_range(struct il_buf *b, const char *verdict)
{
    const char *from = strstr(verdict, "single setups ranged from ");
    if (!from)
        return;
    const char *end = strpbrk(from + 26, ",;");
    il_buf_add(b, from, end ? (size_t)(end - from) : strlen(from));
    il_buf_str(b, "; ");
}

size_t
il_ending_failed(const struct il_ending *e, size_t nsys)
{
    size_t n = 0;
    for (size_t k = 0; e->failures && k < nsys; k++)
        n += e->failures[k].failed;
    return n <= e->runs ? n : e->runs;
}

/* Several ratios to the first system: each interval is 95% alone, and
 * with k of them the chance that one shows a difference that is not
 * there grows to about 1 - 0.95^k (outside14 F13: 8 ratios, about one
 * compare in three).  Holm's step-down adjustment of their p-values (Holm
 * 1979, as interloper report adjusts a suite's benchmarks), each p that
 * of ratio = 1 from the same interval, keeps the family-wise error at 5%
 * whatever their dependence. */
static void
holm_line(struct il_buf *b, json_t *cmps, const char *base)
{
    size_t m = json_array_size(cmps), k = 0, i;
    if (m < 2)
        return;
    double *p = il_xcalloc(m, sizeof *p), *adj = il_xcalloc(m, sizeof *adj);
    size_t *ord = il_xcalloc(m, sizeof *ord);
    json_t *c;
    json_array_foreach(cmps, i, c)
    {
        p[i] = il_json_num(c, IL_R_P);
        adj[i] = NAN;
        if (!isnan(p[i]))
            ord[k++] = i;
    }
    if (!k) { /* no ratio has a p-value (--estimator min): nothing to adjust (review15b L3) */
        free(p);
        free(adj);
        free(ord);
        return;
    }
    for (size_t a = 1; a < k; a++) /* by p, ascending (insertion: k is small) */
        for (size_t z = a; z > 0 && p[ord[z - 1]] > p[ord[z]]; z--) {
            size_t t = ord[z];
            ord[z] = ord[z - 1];
            ord[z - 1] = t;
        }
    double run = 0;
    for (size_t j = 0; j < k; j++) {
        run = fmax(run, fmin(1, (double)(k - j) * p[ord[j]]));
        adj[ord[j]] = run;
    }
    il_buf_printf(b,
                  "  %zu ratios to %s, each interval 95%% on its own; adjusted for their number "
                  "(Holm, family-wise 5%%):",
                  m, base);
    json_array_foreach(cmps, i, c)
    {
        const char *sys = il_json_str(json_object_get(c, IL_R_LABELS), IL_L_SYSTEM);
        il_buf_printf(b, "%s %s ", i ? ";" : "", sys ? sys : "?");
        if (isnan(adj[i]))
            il_buf_str(b, "no p-value");
        else
            il_buf_printf(b, "adjusted p = %.2g, %s", adj[i],
                          adj[i] < 0.05 ? "a difference" : "no difference can be claimed");
    }
    il_buf_str(b, "\n");
    free(p);
    free(adj);
    free(ord);
}

void
il_verdict(FILE *f, const struct il_sweep *s, json_t *rep, const struct il_ending *e)
{
    struct il_buf b = {0};
    char ew[64];
    json_t *groups = json_object_get(rep, IL_R_GROUPS),
           *cmps = json_object_get(rep, IL_R_COMPARISONS);
    struct scale sc = scale_of(il_json_str(rep, IL_R_UNIT),
                               il_json_num(json_array_get(groups, 0), IL_R_ESTIMATE));
    size_t w = 6, i, nfailed = il_ending_failed(e, s->nsys);
    json_t *g, *c;
    json_array_foreach(groups, i, g)
    {
        const char *sys = il_json_str(json_object_get(g, IL_R_LABELS), IL_L_SYSTEM);
        if (sys && strlen(sys) > w)
            w = strlen(sys);
    }
    /* with --events and no -m the summary is still in wall time: said,
     * as a reader expects the events (newuser11 F2) */
    char *dflt = !s->metric_given && s->c.events
                     ? il_xasprintf(" (-m's default; the runs also recorded --events %s: give -m "
                                    "for one)",
                                    s->c.events)
                     : il_xstrdup("");
    il_buf_printf(&b, "\n%s: %s%s, %s \u00b1 sd of the runs, %zu runs in %zu setups", e->me,
                  il_json_str(rep, IL_R_METRIC), dflt,
                  il_estimate_words(il_json_str(rep, IL_R_ESTIMATOR), ew, sizeof ew),
                  e->runs - nfailed, e->setups);
    free(dflt);
    if (e->layouts < e->layouts_all)
        il_buf_printf(&b, IL_LAYOUTS_OVER, e->layouts, e->layouts_all);
    /* the failed and the warm-up runs are not in the numbers: counted apart */
    if (nfailed)
        il_buf_printf(&b, " (and %zu failed run%s%s", nfailed, il_s(nfailed),
                      e->warmups ? "" : ", left out)");
    if (e->warmups)
        il_buf_printf(&b, "%s%zu warm-up run%s, left out)", nfailed ? " and " : " (and ",
                      e->warmups, il_s(e->warmups));
    il_buf_str(&b, "\n");
    json_array_foreach(groups, i, g)
    {
        json_t *lab = json_object_get(g, IL_R_LABELS);
        const char *sys = il_json_str(lab, IL_L_SYSTEM), *pin = il_json_str(lab, IL_L_PIN);
        il_buf_printf(&b, "  %-*s  ", (int)w, sys ? sys : "?");
        value(&b, il_json_num(g, IL_R_ESTIMATE), sc);
        il_buf_str(&b, " \u00b1 ");
        value(&b, il_json_num(g, IL_R_SD), sc);
        if (pin)
            il_buf_printf(&b, "  pin %s", pin);
        for (size_t k = 0; e->commands && sys && k < s->nsys; k++)
            if (!strcmp(s->sys[k].name, sys) && e->commands[k])
                il_buf_printf(&b, "  %s", e->commands[k]);
        il_buf_str(&b, "\n");
    }
    json_array_foreach(cmps, i, c)
    {
        const char *verdict = il_json_str(c, IL_R_VERDICT);
        il_buf_str(&b, "  ");
        if (verdict)
            effect(&b, verdict);
        else
            il_buf_printf(&b, "ratio %.4g", il_json_num(c, IL_R_RATIO));
        il_buf_str(&b, "\n");
        json_t *setups = json_object_get(c, IL_R_SETUPS);
        if (json_is_object(setups)) {
            il_buf_str(&b, "    ");
            if (verdict)
                setup_range(&b, verdict);
            beyond_noise(&b, rep, setups);
            il_buf_str(&b, "\n");
        } else if (il_json_str(c, IL_R_SETUPS_WHY)) {
            il_buf_printf(&b, "    no per-setup ratios: %s\n", il_json_str(c, IL_R_SETUPS_WHY));
        }
    }
    holm_line(&b, cmps, s->d.sys[0]);
    if (!json_array_size(cmps))
        il_buf_str(&b, "  no comparison: the report found one system only\n");
    /* runs that failed (--keep-going) are not in the numbers above */
    for (size_t k = 0; e->failures && k < s->nsys; k++)
        if (e->failures[k].failed || e->failures[k].warm_failed) {
            il_buf_str(&b, "  ");
            il_failures_words(&b, s->sys[k].name, &e->failures[k]);
            il_buf_str(&b, "\n");
        }
    if (e->note)
        il_buf_printf(&b, "  %s\n", e->note);
    json_t *sub = json_object_get(rep, IL_R_SUBTRACTED);
    if (sub) {
        il_buf_printf(&b, "  subtracted from each run: the mean of its setup's runs of %s=%s (",
                      il_json_str(sub, "label"), il_json_str(sub, "value"));
        value(&b, il_json_num(sub, "mean"), sc);
        il_buf_printf(&b, " over all %.0f of them)\n", il_json_num(sub, "runs"));
    }
    il_buf_printf(&b, "  %s, after %.1f s\n", e->stopped, e->seconds);
    json_t *m = e->machine;
    const char *host = il_json_str(m, IL_F_HOST), *cpu = il_json_str(m, IL_F_CPU);
    const char *cpus = il_json_str(m, IL_MF_CPUS_ONLINE);
    il_buf_printf(&b, "  seed %u, plan %s, machine %s (%s, CPUs %s)\n", s->d.seed, e->plan,
                  host ? host : "?", cpu ? cpu : "?", cpus ? cpus : "?");
    /* where the records are, and the whole report of them */
    char *argv[IL_REPORT_ARGS + 1], words[IL_REPORT_WORDS][IL_REPORT_WORD];
    int k = report_args(s, argv, words);
    size_t nw = json_array_size(json_object_get(rep, IL_R_WARNINGS));
    il_buf_printf(&b, "  records in %s; the full report%s%s%s: interloper report", s->output,
                  nw ? " (" : "", nw ? (nw == 1 ? "1 warning" : "warnings") : "", nw ? ")" : "");
    for (int j = 0; j < k; j++) {
        il_buf_str(&b, " ");
        il_buf_word(&b, argv[j]);
    }
    il_buf_str(&b, "\n");
    fputs(b.p, f);
    fflush(f);
    il_buf_free(&b);
}
