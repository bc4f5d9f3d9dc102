/*
 * build.c: interloper build, the systems of a link-order experiment in one
 * step (interloper-build(1)).
 *
 * Mytkowicz et al. (ASPLOS'09, section 4.1) compare two builds of one
 * program (O2 and O3) over the same link orders.  By hand that is: copy
 * the sources once per system, build each through interloper cc with its
 * own flags and links file, relink each with interloper link and one seed
 * into directories whose paths have one length, and check that the two
 * builds linked the same objects, or their "same" orders are not the same.
 * This program does exactly that, with the project's own cc shim and link,
 * and says which options give the binaries to interloper sweep.
 *
 * Nothing is evaluated by a shell: make, cp and interloper link are run
 * with argument vectors.  make's recipes do go through sh, so the CC value
 * given to make quotes its words for sh.
 */
#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "il_tools.h"
#include "linkcmd.h"
#include "linkopts.h"
#include "il_plural.h"

extern char **environ;

enum {
    O_SYSTEM = 1,
    O_ORDERS,
    O_SEED,
    O_ARCHIVES,
    O_GRAN,
    O_JOBS,
    O_PROGRAM,
    O_CC,
    O_MAKE,
    O_OUT,
    O_QUIET
};

static const struct il_opt opts[] = {
    {"system", 0, IL_OPT_VALUE, "NAME=VAR=VALUE",
     "a system and one make variable of its build; repeat\n"
     "for more variables and systems; names of one length",
     O_SYSTEM},
    {"orders", 'k', IL_OPT_VALUE, "K", "binaries per system (default 16)", O_ORDERS},
    {"seed", 's', IL_OPT_VALUE, "SEED", "the orders' seed (default: drawn, and said)", O_SEED},
    {"archives", 'a', IL_OPT_VALUE, "keep|used|all", "static archives: keep, used (default) or all",
     O_ARCHIVES},
    {"granularity", 'g', IL_OPT_VALUE, "object|function", "object (default) or function", O_GRAN},
    {"jobs", 'j', IL_OPT_VALUE, "N", "links at a time (default 1)", O_JOBS},
    {"program", 0, IL_OPT_VALUE, "NAME", "the program to relink, when the build links several",
     O_PROGRAM},
    {"cc", 0, IL_OPT_VALUE, "COMPILER", "the real compiler (default cc)", O_CC},
    {"make", 0, IL_OPT_VALUE, "MAKE", "the make command, split at blanks (default make)", O_MAKE},
    {"out", 'd', IL_OPT_VALUE, "DIR",
     "a new or empty directory (default interloper-build):\n"
     "DIR/NAME/src, build.log, links, link.log, DIR/NAME/link/",
     O_OUT},
    {"quiet", 'q', IL_OPT_FLAG, NULL, "no summary", O_QUIET},
    {0},
};

static const struct il_cmd cmd = {
    .name = "interloper build",
    .synopsis = "--system NAME=VAR=VALUE... [-k K] [-s SEED]\n"
                "[-a keep|used|all] [-g object|function] [-j JOBS]\n"
                "[--program NAME] [--cc COMPILER] [--make MAKE] [-d DIR] [-q]\n"
                "[--] SRCDIR [MAKE-ARGS...]",
    .about = "Build one program's sources once per system, each through interloper cc with\n"
             "its own make variables, and relink every system in the same K orders from one\n"
             "seed (interloper link), so that interloper sweep can compare them layout by\n"
             "layout (Mytkowicz et al., section 4.1).  The binaries' paths go to stdout.\n"
             "MAKE-ARGS go to every system's make (targets, VAR=VALUE).  SRCDIR must be\n"
             "clean (make clean): an object compiled before, with its own flags, is refused.",
    .man = "interloper-build(1)",
    .opts = opts,
};

#define IL_MAX_SYSTEMS 16

struct sys {
    const char *name;
    const char **vars; /* VAR=VALUE words for make */
    size_t nvars;
};

static int
name_ok(const char *s, size_t n)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.", s[i]))
            return 0;
    return s[0] != '.';
}

/* Run argv (PATH searched), its stdout to out_fd and stderr to err_fd
 * (-1: ours), with the environment env; the wait status. */
static int
run(char *const argv[], int out_fd, int err_fd, char *const env[])
{
    pid_t pid = fork();
    if (pid < 0)
        err(1, "fork");
    if (pid == 0) {
        if (out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0)
            _exit(127);
        if (err_fd >= 0 && dup2(err_fd, STDERR_FILENO) < 0)
            _exit(127);
        execvpe(argv[0], argv, env);
        dprintf(STDERR_FILENO, "interloper build: %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            err(1, "waitpid");
    return st;
}

static const char *
how(int st, char *buf, size_t n)
{
    if (WIFSIGNALED(st))
        snprintf(buf, n, "killed by signal %d", WTERMSIG(st));
    else
        snprintf(buf, n, "exit status %d", WEXITSTATUS(st));
    return buf;
}

/* Does a build log's line say an error: the word "error" before a ':'
 * (a compiler's "error:", "fatal error:", configure's "configure: error:
 * ...") or a number (make's "Error 2"), or make's ": *** "?  A word, not
 * the letters: "checking for strerror_r... yes", -Werror, error.o and
 * error_at_line are no error (outside14 F14); nor is make's "(ignored)". */
static int
error_line(const char *line)
{
    if (strstr(line, "(ignored)"))
        return 0;
    if (strstr(line, ": *** "))
        return 1;
    for (const char *p = line; (p = strcasestr(p, "error")); p += 5) {
        int before = p > line ? (unsigned char)p[-1] : ' ';
        if (isalnum(before) || before == '_' || before == '-')
            continue;
        if (p[5] == ':' || (p[5] == ' ' && isdigit((unsigned char)p[6])))
            return 1;
    }
    return 0;
}

/* The last line of a file with text, for an error message; with error,
 * its first that says an error if one does (error_line): a failed make's
 * last line is its "Leaving directory", which says nothing (outside13
 * F10). */
static void
last_line(const char *path, char *out, size_t n, int error)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    out[0] = '\0';
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        if (line[strspn(line, " \t\r\n")]) {
            snprintf(out, n, "%.*s", (int)strcspn(line, "\r\n"), line);
            found = error && error_line(line);
        }
    if (f)
        fclose(f);
}
/* The environment for make: the caller's, without what a make that called
 * us hands to its children (its variables and jobserver), so that each
 * system builds the same whoever starts interloper build. */
static char **
make_env(void)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **e = il_xcalloc(n + 1, sizeof *e);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        static const char *const drop[] = {"MAKEFLAGS=", "MFLAGS=", "MAKELEVEL=", "MAKEOVERRIDES="};
        int keep = 1;
        for (size_t j = 0; j < sizeof drop / sizeof drop[0]; j++)
            keep &= strncmp(environ[i], drop[j], strlen(drop[j])) != 0;
        if (keep)
            e[k++] = environ[i];
    }
    return e;
}

/* DIR must be new or empty; it is made, and its absolute path returned. */
static char *
out_dir(const char *dir)
{
    if (mkdir(dir, 0777) < 0) {
        if (errno != EEXIST)
            err(1, "-d %s", dir);
        struct stat sb;
        if (stat(dir, &sb) < 0 || !S_ISDIR(sb.st_mode))
            errx(1, "-d %s: not a directory; expected a new or empty directory", dir);
        DIR *d = opendir(dir);
        if (!d)
            err(1, "-d %s", dir);
        for (struct dirent *e; (e = readdir(d));)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                errx(1, "-d %s: the directory is not empty; expected a new or empty directory",
                     dir);
        closedir(d);
    }
    char *abs = realpath(dir, NULL);
    if (!abs)
        err(1, "-d %s", dir);
    return abs;
}

/* The orders of a manifest (interloper-link(1), "The manifest"), an array
 * of each binary's array of object names; and the program. */
static json_t *
orders(const char *path, size_t *n, char **program, char **layouts)
{
    json_error_t je;
    json_t *m = json_load_file(path, 0, &je);
    if (!m)
        errx(1, "%s: %s", path, je.text);
    json_t *bins = json_object_get(m, "binaries");
    const char *prog = json_string_value(json_object_get(m, "program"));
    if (!json_is_array(bins) || !prog)
        errx(1, "%s: not a manifest of interloper link (no binaries or program)", path);
    *program = il_xstrdup(prog);
    *n = json_array_size(bins);
    json_t *out = json_array();
    for (size_t i = 0; i < *n; i++) {
        json_t *o = json_object_get(json_array_get(bins, i), "order");
        json_array_append_new(out, json_is_array(o) ? json_incref(o) : json_array());
    }
    /* the layouts to measure: all, or, where two binaries are one (01 is
     * 00 again where the alphabetical order is the build's; link warned),
     * the ids of each binary's first copy (outside review, session 12) */
    struct il_buf lay = {0};
    int dup = 0;
    for (size_t i = 0; i < *n; i++) {
        json_t *bi = json_array_get(bins, i);
        const char *sha = json_string_value(json_object_get(bi, "sha256"));
        const char *id = json_string_value(json_object_get(bi, "id"));
        int again = 0;
        for (size_t j = 0; j < i && sha && !again; j++)
        {
            const char *o = json_string_value(json_object_get(json_array_get(bins, j), "sha256"));
            again = o && !strcmp(sha, o);
        }
        dup |= again;
        if (!again && id)
            il_buf_printf(&lay, "%s%s", lay.n ? "," : "", id);
    }
    if (!dup || !lay.n) {
        il_buf_free(&lay);
        il_buf_printf(&lay, "%zu", *n);
    }
    *layouts = lay.p;
    json_decref(m);
    return out;
}

/* What the options say. */
struct build {
    struct sys sys[IL_MAX_SYSTEMS];
    size_t nsys;
    const char *k, *seed, *arch, *gran, *jobs, *program, *cc, *make, *dir;
    int quiet;
    const char *src;  /* the program's source directory */
    char **make_args; /* for every system's make, NULL-ended */
    size_t nmake_args;
};

/* --system NAME=VAR=VALUE: a system, or one more variable of one */
static void
add_system(struct build *b, const struct il_optp *p)
{
    const char *v = p->val, *eq = strchr(v, '='), *eq2 = eq ? strchr(eq + 1, '=') : 0;
    if (!eq || !eq2 || eq2 == eq + 1 || !name_ok(v, (size_t)(eq - v)))
        il_opt_bad(p, v,
                   "expected NAME=VAR=VALUE, a system name (letters, digits, '_', '-', "
                   "'.') and one make variable, e.g. O3=CFLAGS=-O3");
    size_t i = 0;
    while (i < b->nsys && (strlen(b->sys[i].name) != (size_t)(eq - v) ||
                           strncmp(b->sys[i].name, v, (size_t)(eq - v))))
        i++;
    if (i == b->nsys) {
        if (b->nsys == IL_MAX_SYSTEMS)
            il_opt_bad(p, v, "at most %d systems", IL_MAX_SYSTEMS);
        b->sys[b->nsys].name = il_xasprintf("%.*s", (int)(eq - v), v);
        b->sys[b->nsys].vars = NULL;
        b->sys[b->nsys++].nvars = 0;
    }
    struct sys *y = &b->sys[i];
    y->vars = il_xrealloc(y->vars, (y->nvars + 1) * sizeof *y->vars);
    y->vars[y->nvars++] = eq + 1;
}

static void
parse(struct build *b, int argc, char **argv)
{
    struct il_optp p;
    const struct il_opt *o;
    memset(b, 0, sizeof *b);
    b->k = "16", b->arch = "used", b->gran = "object", b->jobs = "1";
    b->cc = "cc", b->make = "make", b->dir = "interloper-build";
    il_opt_init(&p, &cmd, argc, argv);
    while ((o = il_opt_next(&p))) {
        const char **to[] = {[O_ORDERS] = &b->k,  [O_SEED] = &b->seed, [O_ARCHIVES] = &b->arch,
                             [O_GRAN] = &b->gran, [O_JOBS] = &b->jobs, [O_PROGRAM] = &b->program,
                             [O_CC] = &b->cc,     [O_MAKE] = &b->make, [O_OUT] = &b->dir};
        if (o->id == O_SYSTEM)
            add_system(b, &p);
        else if (o->id == O_QUIET)
            b->quiet = 1;
        else
            *to[o->id] = p.val;
    }
    if (!b->nsys)
        errx(1, "expected at least one --system NAME=VAR=VALUE; see interloper build --help");
    for (size_t i = 1; i < b->nsys; i++)
        if (strlen(b->sys[i].name) != strlen(b->sys[0].name))
            errx(1,
                 "--system %s and %s: names of different lengths; the binaries' paths hold "
                 "the name and must have one length (the path is on the stack), e.g. O2 and O3",
                 b->sys[0].name, b->sys[i].name);
    if (p.i >= argc)
        errx(1, "expected the program's source directory; see interloper build --help");
    b->src = argv[p.i++];
    struct stat sb;
    if (stat(b->src, &sb) < 0 || !S_ISDIR(sb.st_mode))
        errx(1, "%s: not a directory; expected the program's source directory", b->src);
    b->make_args = &argv[p.i];
    b->nmake_args = (size_t)(argc - p.i);
}

/* ------------------------------------------------------------ stale objects
 * A tree built before (./configure && make, then an edit) is copied with
 * its objects, and make rebuilds only what it finds out of date: every
 * other object of every system was compiled with the tree's own flags, so
 * "O2" and "O3" were one build but a file (outside14 H4: 26 of gzip's 27
 * objects).  The copy keeps the tree's times (cp -p), so an object this
 * build did not compile is older than its log, made just before make. */

static int
older(const struct stat *st, const struct timespec *mark)
{
    return st->st_mtim.tv_sec < mark->tv_sec ||
           (st->st_mtim.tv_sec == mark->tv_sec && st->st_mtim.tv_nsec < mark->tv_nsec);
}

/* Up to three names, then how many more, into *b */
struct stale {
    struct il_buf names;
    size_t n;
    size_t skip; /* the copy's path and its '/', left off the names */
};

static void
stale_add(struct stale *s, const char *path)
{
    if (s->n++ < 3)
        il_buf_printf(&s->names, "%s%s", s->n > 1 ? ", " : "", path + s->skip);
}

static void
stale_words(struct stale *s)
{
    if (s->n > 3)
        il_buf_printf(&s->names, " and %zu more", s->n - 3);
}

/* The objects and archives of the recorded link that lie in the copy
 * (realpath COPY) and are older than MARK. */
static void
stale_linked(const char *links, const char *program, const char *copy,
             const struct timespec *mark, struct stale *s)
{
    struct il_strv w = {0};
    long bad = 0;
    if (il_record_read(links, program, &w, &bad) != 1)
        return; /* interloper link says what is wrong with it */
    struct il_scan sc;
    il_scan(w.v + 1, w.n - 1, &sc);
    size_t lc = strlen(copy);
    for (size_t i = 1; i < w.n - 1; i++) {
        if (sc.kind[i] != IL_ARG_OBJECT && sc.kind[i] != IL_ARG_ARCHIVE)
            continue;
        const char *a = w.v[i + 1];
        char *abs = a[0] == '/' ? il_xstrdup(a) : il_xasprintf("%s/%s", w.v[0], a);
        char *real = realpath(abs, NULL);
        struct stat st;
        if (real && !strncmp(real, copy, lc) && real[lc] == '/' && stat(real, &st) == 0 &&
            older(&st, mark))
            stale_add(s, real);
        free(real);
        free(abs);
    }
    il_scan_free(&sc);
    il_strv_free(&w);
}

/* nftw has no argument for its callback */
static struct stale *walk_stale;
static const struct timespec *walk_mark;

static int
walk_one(const char *path, const struct stat *st, int type, struct FTW *f)
{
    size_t n = strlen(path);
    if (type == FTW_F && S_ISREG(st->st_mode) && n > 2 && !strcmp(path + n - 2, ".o") &&
        older(st, walk_mark))
        stale_add(walk_stale, path);
    return 0;
}

/* Every object file of the copy older than MARK (a make that found
 * nothing to do linked nothing: the tree was built). */
static void
stale_tree(const char *copy, const struct timespec *mark, struct stale *s)
{
    walk_stale = s;
    walk_mark = mark;
    nftw(copy, walk_one, 16, FTW_PHYS);
}

/* System Y's sources copied into SD/src and built there by make, through
 * interloper cc, which records its links in SD/links. */
static void
build_one(const struct build *b, const struct sys *y, const char *sd, const char *libexec,
          char **env)
{
    char *srcd = il_xasprintf("%s/src", sd), *links = il_xasprintf("%s/links", sd);
    char *log = il_xasprintf("%s/build.log", sd);
    char *from = il_xasprintf("%s/.", b->src), why[64], line[1100];
    /* -p: the copy keeps the sources' times, so that a configured tree's
     * make does not find configure newer than config.status and run it
     * again (outside13 F10: xz-utils' make re-ran autoconf, automake and
     * configure, which then failed) */
    char *cp[] = {"cp", "-R", "-p", from, srcd, NULL};
    int st = run(cp, -1, -1, environ);
    if (!WIFEXITED(st) || WEXITSTATUS(st))
        errx(1, "cp -R -p %s %s failed (%s)", from, srcd, how(st, why, sizeof why));
    /* make [its words] -C src CC='...interloper-cc' --cc CC --links L -- VARS... ARGS... */
    struct il_buf ccv = {0};
    char *shim = il_xasprintf("%s/interloper-cc", libexec);
    /* each word quoted only where sh needs it: a configure script splits
     * $CC at blanks without sh's quote removal, so '/x/interloper-cc' was
     * a path with quotes in it (outside13 F10) */
    il_buf_word(&ccv, shim);
    il_buf_str(&ccv, " --cc ");
    il_buf_word(&ccv, b->cc);
    il_buf_str(&ccv, " --links ");
    il_buf_word(&ccv, links);
    il_buf_str(&ccv, " --");
    char *ccarg = il_xasprintf("CC=%s", ccv.p), *mk = il_xstrdup(b->make);
    size_t n = 0;
    char **mv = il_xcalloc(b->nmake_args + y->nvars + strlen(b->make) + 16, sizeof *mv);
    for (char *w = strtok(mk, " \t"); w; w = strtok(NULL, " \t"))
        mv[n++] = w;
    if (!n)
        errx(1, "--make: expected a command, e.g. make or 'make -j2'");
    mv[n++] = "-C";
    mv[n++] = srcd;
    mv[n++] = ccarg;
    for (size_t j = 0; j < y->nvars; j++)
        mv[n++] = (char *)y->vars[j];
    for (size_t j = 0; j < b->nmake_args; j++)
        mv[n++] = b->make_args[j];
    int lfd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    struct stat ls;
    if (lfd < 0 || fstat(lfd, &ls) < 0)
        err(1, "%s", log);
    st = run(mv, lfd, lfd, env);
    close(lfd);
    if (!WIFEXITED(st) || WEXITSTATUS(st)) {
        last_line(log, line, sizeof line, 1);
        errx(1, "the build of %s failed (%s; its output is in %s): %s", y->name,
             how(st, why, sizeof why), log, line);
    }
    char *copy = realpath(srcd, NULL);
    if (!copy)
        err(1, "%s", srcd);
    struct stale old = {.skip = strlen(copy) + 1};
    if (access(links, F_OK) < 0)
        stale_tree(copy, &ls.st_mtim, &old);
    else
        stale_linked(links, b->program, copy, &ls.st_mtim, &old);
    stale_words(&old);
    if (old.n && access(links, F_OK) < 0)
        errx(1,
             "the build of %s linked nothing: %s is built already (%s predate%s this build), "
             "so make found nothing to compile with %s's variables; run make clean there, or "
             "give a clean tree",
             y->name, b->src, old.names.p, old.n > 1 ? "" : "s", y->name);
    if (old.n)
        errx(1,
             "the build of %s linked %zu object%s compiled before it, with the flags %s was "
             "built with, not %s's (%s): run make clean in %s, or give a clean tree",
             y->name, old.n, old.n > 1 ? "s" : "", b->src, y->name, old.names.p, b->src);
    il_buf_free(&old.names);
    free(copy);
    if (access(links, F_OK) < 0)
        errx(1,
             "the build of %s linked nothing through interloper cc (%s is missing); does "
             "the Makefile take CC from make's command line? (its output is in %s)",
             y->name, links, log);
    /* A build that links several programs (bzip2 and bzip2recover): which
     * one to relink is the user's choice, never the last by chance. */
    struct il_strv progs = {0};
    if (!b->program && il_record_programs(links, &progs) == 0 && progs.n > 1) {
        struct il_buf names = {0};
        for (size_t j = 0; j < progs.n; j++)
            il_buf_printf(&names, "%s%s", j ? ", " : "", progs.v[j]);
        errx(1, "the build of %s linked %zu programs (%s); choose one with --program NAME", y->name,
             progs.n, names.p);
    }
    il_strv_free(&progs);
    free(mv);
    free(mk);
    free(ccarg);
    free(shim);
    il_buf_free(&ccv);
    free(srcd);
    free(links);
    free(log);
    free(from);
}

/* System Y's recorded link relinked by interloper link into SD/link, in
 * the orders of SEED; their objects, and the program's name. */
static json_t *
relink_one(const struct build *b, const struct sys *y, const char *sd, const char *libexec,
           const char *seed, size_t *no, char **prog, char **layouts)
{
    char why[64], line[1100];
    char *links = il_xasprintf("%s/links", sd), *linkd = il_xasprintf("%s/link", sd);
    /* interloper link --replay LINKS -k K -s SEED -a A -g G -j J -d DIR -q [--program P] */
    char *link = il_xasprintf("%s/interloper-link", libexec);
    char *lv[] = {link,
                  "--replay",
                  links,
                  "-k",
                  (char *)b->k,
                  "-s",
                  (char *)seed,
                  "-a",
                  (char *)b->arch,
                  "-g",
                  (char *)b->gran,
                  "-j",
                  (char *)b->jobs,
                  "-d",
                  linkd,
                  "-q",
                  b->program ? "--program" : NULL,
                  (char *)b->program,
                  NULL};
    /* link's messages: one line of ours on failure, its warnings through */
    char *lerr = il_xasprintf("%s/link.log", sd);
    int efd = open(lerr, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (efd < 0)
        err(1, "%s", lerr);
    /* the binaries' paths, said once every system is built and checked
     * (outside13 F1: a failed build listed the first system's) */
    char *lout = il_xasprintf("%s/link.out", sd);
    int ofd = open(lout, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (ofd < 0)
        err(1, "%s", lout);
    free(lout);
    int st = run(lv, ofd, efd, environ);
    close(ofd);
    if (!WIFEXITED(st) || WEXITSTATUS(st)) {
        last_line(lerr, line, sizeof line, 0);
        errx(1, "relinking %s failed (%s): %s", y->name, how(st, why, sizeof why), line);
    }
    char chunk[4096];
    ssize_t got;
    lseek(efd, 0, SEEK_SET);
    while ((got = read(efd, chunk, sizeof chunk)) > 0)
        if (il_write_full(STDERR_FILENO, chunk, (size_t)got) < 0)
            break;
    close(efd);
    free(lerr);
    char *man = il_xasprintf("%s/manifest.json", linkd);
    json_t *ord = orders(man, no, prog, layouts);
    free(man);
    free(link);
    free(links);
    free(linkd);
    return ord;
}

/* What to measure next, on stderr. */
static void
summary(const struct build *b, const char *prog, size_t norders, const char *layouts,
        const char *seed)
{
    struct il_buf m = {0};
    for (size_t i = 0; i < b->nsys; i++) {
        il_buf_printf(&m, " --system ");
        char *v =
            il_xasprintf("%s=%s/%s/link/%s.{layout}", b->sys[i].name, b->dir, b->sys[i].name, prog);
        il_buf_word(&m, v);
        free(v);
    }
    fprintf(stderr,
            "interloper build: %zu system%s of %s, %zu binaries each in the same orders "
            "(seed %s), in %s; measure them with interloper sweep --layouts %s%s\n",
            b->nsys, il_s(b->nsys), prog, norders, seed, b->dir, layouts, m.p);
    il_buf_free(&m);
}

/* Do system Y's orders name system 0's objects (il_order_renamed)?  0
 * where every binary's order is system 0's up to a renaming of their
 * directories; else -1, with the binary and object where they part. */
static int
same_orders(json_t *o0, json_t *o1, struct il_dirmap *m, size_t *bin, size_t *obj)
{
    for (size_t j = 0; j < json_array_size(o0); j++)
        if (il_order_renamed(json_array_get(o0, j), json_array_get(o1, j), m, obj) < 0) {
            *bin = j;
            return -1;
        }
    return 0;
}

static const char *
name_at(json_t *o, size_t j, size_t i)
{
    const char *s = json_string_value(json_array_get(json_array_get(o, j), i));
    return s ? s : "(none)";
}

/* Each system's binaries, as link listed them, once all are checked. */
static void
list_binaries(const struct build *b, const char *top)
{
    for (size_t i = 0; i < b->nsys; i++) {
        char *path = il_xasprintf("%s/%s/link.out", top, b->sys[i].name), chunk[4096];
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            err(1, "%s", path);
        ssize_t got;
        while ((got = read(fd, chunk, sizeof chunk)) > 0)
            if (il_write_full(STDOUT_FILENO, chunk, (size_t)got) < 0)
                err(1, "stdout");
        close(fd);
        unlink(path);
        free(path);
    }
}

int
main(int argc, char **argv)
{
    struct build b;
    parse(&b, argc, argv);
    /* -k, -j, -g, -a and -s by interloper link's rules, before anything is
     * built; a drawn seed is drawn here, once, so that every system gets it. */
    struct il_link_opts lo;
    il_link_opts(&lo, b.k, b.jobs, b.gran, b.arch, b.seed);
    char drawn[16];
    const char *seed = b.seed;
    if (!seed) {
        snprintf(drawn, sizeof drawn, "%u", lo.seed);
        seed = drawn;
    }
    char *top = out_dir(b.dir);
    const char *libexec = il_libexec_dir();
    char **env = make_env();
    json_t *first = NULL;
    char *prog0 = NULL, *lay0 = NULL;
    size_t norders = 0;
    for (size_t i = 0; i < b.nsys; i++) {
        const struct sys *y = &b.sys[i];
        char *sd = il_xasprintf("%s/%s", top, y->name), *prog;
        if (mkdir(sd, 0777) < 0)
            err(1, "%s", sd);
        build_one(&b, y, sd, libexec, env);
        size_t no;
        char *lay;
        json_t *ord = relink_one(&b, y, sd, libexec, seed, &no, &prog, &lay);
        if (!first) {
            first = ord;
            norders = no;
            prog0 = prog;
            lay0 = lay;
            free(sd);
            continue;
        }
        free(lay);
        if (no != norders || strcmp(prog, prog0))
            errx(1, "%s and %s: different programs or numbers of binaries (%s, %s)",
                 b.sys[0].name, y->name, prog0, prog);
        struct il_dirmap dm = {0};
        size_t bj, oi;
        const char *s0 = b.sys[0].name;
        if (same_orders(first, ord, &dm, &bj, &oi) < 0) {
            const char *x = name_at(first, bj, oi), *z = name_at(ord, bj, oi);
            if (!bj)
                errx(1,
                     "%s and %s linked different objects: object %zu of the build's order is "
                     "'%s' in %s and '%s' in %s; build both from the same sources and targets",
                     s0, y->name, oi, x, s0, z, y->name);
            if (dm.n)
                errx(1,
                     "%s and %s put their objects in directories of other names ('%.*s' and "
                     "'%.*s'), which sort them otherwise, so one seed gave them different "
                     "orders (binary %zu, object %zu: '%s' and '%s'); give every system one "
                     "object directory with a make variable (for zstd: --system %s=BUILD_DIR=obj/b "
                     "and the same for each system)",
                     s0, y->name, (int)dm.p[0].la, dm.p[0].a, (int)dm.p[0].lb, dm.p[0].b, bj, oi,
                     x, z, s0);
            errx(1,
                 "%s and %s linked the same objects in other orders from one seed: binary "
                 "%zu's object %zu is '%s' in %s and '%s' in %s",
                 s0, y->name, bj, oi, x, s0, z, y->name);
        }
        if (dm.n && !b.quiet)
            fprintf(stderr,
                    "interloper build: %s built its objects in directories of other names than "
                    "%s ('%.*s' for '%.*s'%s): the same objects, in the same orders\n",
                    y->name, s0, (int)dm.p[0].lb, dm.p[0].b, (int)dm.p[0].la, dm.p[0].a,
                    dm.n > 1 ? ", and others" : "");
        free(dm.p);
        json_decref(ord);
        free(prog);
        free(sd);
    }
    list_binaries(&b, top);
    if (!b.quiet)
        summary(&b, prog0, norders, lay0, seed);
    free(top);
    free(env);
    return 0;
}
