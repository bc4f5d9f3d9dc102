/*
 * interloper-link: relink a program's object files in K orders, so that a
 * comparison can be repeated over many code and data layouts.
 *
 * Link order is one of the two "innocuous" setup factors of Mytkowicz et
 * al., "Producing Wrong Data Without Doing Anything Obviously Wrong!"
 * (ASPLOS'09, section 4.1): the .o files given to the linker decide where
 * code and data land, and with them the alignment of hot loops, cache and
 * branch-predictor conflicts.  Their method, kept here: the default order
 * (as the build gave it), the alphabetical order, then randomly generated
 * orders (section 4.1.1 used 1 + 1 + 31 = 33 links of perlbench).  Their
 * perlbench, like every SPEC CPU benchmark, is linked from all its
 * objects; a program built against its own static library is made
 * comparable with --archives, which puts the library's members on the
 * link line so that they move with the rest.
 *
 * The orders come from the one generator (il_prng.h, order.h); the link
 * command from the command line or from a links file written by
 * interloper cc, parsed and never evaluated (linkcmd.h).  See
 * interloper-link(1).
 */
#include <err.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "il_names.h"
#include "il_opt.h"
#include "link.h"
#include "linkopts.h"
#include "il_plural.h"

/* ---------------------------------------------------------------- options */
enum {
    O_ORDERS = 1,
    O_SEED,
    O_OUT,
    O_GRAN,
    O_ARCHIVES,
    O_JOBS,
    O_REPLAY,
    O_PROGRAM,
    O_DRY,
    O_QUIET
};

static const struct il_opt opts[] = {
    {"orders", 'k', IL_OPT_VALUE, "K", "number of binaries, 1 to 10000 (default 10)", O_ORDERS},
    {"seed", 's', IL_OPT_VALUE, "S",
     "seed, 0 to 4294967295 (default: drawn from\n"
     "/dev/urandom and reported)",
     O_SEED},
    {"out", 'd', IL_OPT_VALUE, "DIR", "output directory, new or empty (default PROG.link)", O_OUT},
    {"granularity", 'g', IL_OPT_VALUE, "object|function",
     "object: move whole objects (default);\n"
     "function: also shuffle the functions inside each\n"
     "object (needs -ffunction-sections and lld)",
     O_GRAN},
    {"archives", 'a', IL_OPT_VALUE, "keep|used|all",
     "keep: static archives stay as they are (default);\n"
     "used: replace each archive (a .a path, or -lNAME\n"
     "found in a -L directory) by the members the link\n"
     "used, so that they move with the objects;\n"
     "all: by all its members",
     O_ARCHIVES},
    {"jobs", 'j', IL_OPT_VALUE, "N",
     "links at a time, 1 to 256 (default 1); the binaries\n"
     "are the same whatever N",
     O_JOBS},
    {"replay", 0, IL_OPT_VALUE, "FILE", "relink a link recorded by `interloper cc`", O_REPLAY},
    {"program", 0, IL_OPT_VALUE, "NAME",
     "with --replay: the last recorded link of NAME\n"
     "(default: the last recorded link)",
     O_PROGRAM},
    {"dry-run", 'n', IL_OPT_FLAG, NULL, "print the orders, link nothing, run nothing", O_DRY},
    {"quiet", 'q', IL_OPT_FLAG, NULL, "no summary on stderr", O_QUIET},
    {0},
};

static const struct il_cmd cmd = {
    .name = ME,
    .synopsis = "[options] [--] CC ... -o PROG a.o b.o ... [-lm ...]\n"
                "[options] --replay FILE [--program NAME]",
    .about = "Relink the same object files in K orders: the original order, the\n"
             "alphabetical order, then K-2 seeded random orders.  Only the .o arguments\n"
             "move (with --archives, static archives' members too); every other argument\n"
             "keeps its place.  Writes DIR/PROG.<id> (ids of constant width) and\n"
             "DIR/manifest.json (each binary's order, the seed, a layout fingerprint);\n"
             "prints the binaries' paths on stdout.",
    .man = "interloper-link(1)",
    .opts = opts,
};

struct args {
    const char *out, *replay, *program;
    int dry;
};

/* The options into L and A; the index of the link command's first word. */
static int
parse(struct il_link *l, struct args *a, int argc, char **argv)
{
    const char *korders = "10", *kseed = NULL, *kjobs = "1", *gran = "object";
    struct il_optp p;
    const struct il_opt *o;
    l->mode = "keep";
    il_opt_init(&p, &cmd, argc, argv);
    while ((o = il_opt_next(&p))) {
        switch (o->id) {
        case O_ORDERS:
            korders = p.val;
            break;
        case O_SEED:
            kseed = p.val;
            break;
        case O_OUT:
            a->out = p.val;
            break;
        case O_GRAN:
            gran = p.val;
            break;
        case O_ARCHIVES:
            l->mode = p.val;
            break;
        case O_JOBS:
            kjobs = p.val;
            break;
        case O_REPLAY:
            a->replay = p.val;
            break;
        case O_PROGRAM:
            a->program = p.val;
            break;
        case O_DRY:
            a->dry = 1;
            break;
        case O_QUIET:
            l->quiet = 1;
            break;
        }
    }
    struct il_link_opts lo;
    il_link_opts(&lo, korders, kjobs, gran, l->mode, kseed);
    l->k = lo.k;
    l->jobs = lo.jobs;
    l->function = lo.function;
    l->seed = lo.seed;
    l->seed_given = lo.seed_given;
    if (a->program && !a->replay)
        errx(1, "--program selects a recorded link; it needs --replay FILE");
    if (a->dry && !strcmp(l->mode, "used"))
        errx(1, "-n runs nothing, but --archives used must link once to learn which members "
                "the link uses; drop -n, or see the orders with --archives all");
    return p.i;
}

/* ---------------------------------------------------------------- linking */
/* The command that links order J to OUTPUT (absolute). */
static struct il_strv
link_argv(const struct il_link *l, const struct il_tpls *t, size_t j, const char *output)
{
    const uint32_t *ord = il_order(&l->ord, j);
    struct il_strv argv = {0};
    int has_out = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct il_tpl *p = &t->v[i];
        if (p->obj >= 0) {
            il_strv_push(&argv, l->obj[ord[p->obj]].path);
        } else if (p->out) {
            has_out = 1;
            if (!strncmp(p->arg, "-o", 2) && p->arg[2]) {
                il_strv_push_own(&argv, il_xasprintf("-o%s", output));
            } else {
                il_strv_push(&argv, output);
            }
        } else {
            il_strv_push(&argv, p->arg);
        }
    }
    if (!has_out) {
        il_strv_push(&argv, "-o");
        il_strv_push(&argv, output);
    }
    if (l->function) {
        char id[32];
        il_id(l, j, id, sizeof id);
        char *f = il_xasprintf("%s/symorder/%s", l->tmp, id);
        if (!l->raw_ld)
            il_strv_push(&argv, "-fuse-ld=lld");
        if (access(f, F_OK) == 0) {
            il_strv_push_own(
                &argv, il_xasprintf("%s--symbol-ordering-file=%s", l->raw_ld ? "" : "-Wl,", f));
            il_strv_push(&argv,
                         l->raw_ld ? "--no-warn-symbol-ordering" : "-Wl,--no-warn-symbol-ordering");
        }
        free(f);
    }
    return argv;
}

/* Link order J to OUTPUT, the linker's messages to LOG; its status. */
static int
link_one(const struct il_link *l, const struct il_tpls *t, size_t j, const char *output,
         const char *log)
{
    struct il_strv argv = link_argv(l, t, j, output);
    int st = il_run_to(argv.v, l->cwd, log, log);
    il_strv_free(&argv);
    return st;
}

/* The objects of order J, space-separated, for people. */
static char *
names_of(const struct il_link *l, size_t j)
{
    struct il_buf b = {0};
    const uint32_t *o = il_order(&l->ord, j);
    il_buf_add(&b, "", 0);
    for (size_t i = 0; i < l->nobj; i++) {
        if (i)
            il_buf_str(&b, " ");
        il_buf_str(&b, l->obj[o[i]].name);
    }
    return b.p;
}

/* One line naming order J and quoting the linker's log LOG (or MSG when
 * not NULL); exits 1. */
static void
fail(const struct il_link *l, size_t j, int status, const char *log, const char *msg)
{
    char id[32];
    il_id(l, j, id, sizeof id);
    char *names = names_of(l, j);
    if (strlen(names) > 160)
        strcpy(names + 160, "...");
    struct il_buf m = {0};
    il_buf_add(&m, "", 0);
    char *text = msg ? il_xstrdup(msg) : il_slurp(log, NULL);
    int lines = 0;
    for (char *p = text ? text : m.p, *e; *p && lines < 20; p = e + (*e != 0), lines++) {
        e = strchr(p, '\n');
        if (!e)
            e = p + strlen(p);
        char *q = e;
        while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
            q--;
        if (q == p)
            continue;
        if (m.n)
            il_buf_str(&m, " | ");
        il_buf_add(&m, p, (size_t)(q - p));
    }
    errx(1, "relinking order %s (%s: %s) failed with status %d: %s", id, l->ord.kind[j], names,
         status, m.n ? m.p : "(no message)");
}

static int
same_file(const char *a, const char *b)
{
    size_t na, nb;
    char *x = il_slurp(a, &na), *y = il_slurp(b, &nb);
    int same = x && y && na == nb && !memcmp(x, y, na);
    free(x);
    free(y);
    return same;
}

/* Link orders FIRST to K-1 into L->tmp, L->jobs at a time: the binaries
 * are the same whatever the number, each link being on its own. */
static void
link_rest(const struct il_link *l, const struct il_tpls *t, size_t first)
{
    struct {
        pid_t pid;
        size_t j;
    } *job = il_xcalloc((size_t)l->jobs, sizeof *job);
    size_t next = first, active = 0;
    char id[32];
    while (next < l->k || active) {
        while (active < (size_t)l->jobs && next < l->k && !il_interrupted) {
            il_id(l, next, id, sizeof id);
            char *bin = il_xasprintf("%s/%s.%s", l->tmp, l->prog, id);
            char *log = il_xasprintf("%s/log.%s", l->tmp, id);
            struct il_strv argv = link_argv(l, t, next, bin);
            job[active].pid = il_start_to(argv.v, l->cwd, log, log);
            job[active++].j = next++;
            il_strv_free(&argv);
            free(bin);
            free(log);
        }
        /* a signal after the last check, with no link left running (one
         * job, or the last), would leave il_wait nothing to wait for:
         * "waitpid: No child processes", exit 1 where 143 is due (link.sh's
         * SIGTERM case, twice with two CI clones at once) */
        if (il_interrupted)
            exit(128 + il_interrupted);
        int st;
        pid_t pid = il_wait(&st);
        if (il_interrupted)
            exit(128 + il_interrupted); /* cleanup() stops the others */
        size_t a = 0;
        while (a < active && job[a].pid != pid)
            a++;
        if (a == active)
            continue; /* not a link of ours */
        size_t j = job[a].j;
        job[a] = job[--active];
        il_id(l, j, id, sizeof id);
        char *bin = il_xasprintf("%s/%s.%s", l->tmp, l->prog, id);
        char *log = il_xasprintf("%s/log.%s", l->tmp, id);
        if (st != 0)
            fail(l, j, st, log, NULL);
        if (access(bin, F_OK) < 0)
            fail(l, j, 0, log, il_xasprintf("the link wrote no %s\n", bin));
        unlink(log);
        free(bin);
        free(log);
    }
    free(job);
}

/* ---------------------------------------------------------------- cleanup */
/* Nothing is left behind by a failure: the work directory, the extracted
 * members, and the output directory if this run made it. */
static struct il_link *cleanup_link;
static int made_out, made_archives;

static int
rm_entry(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb;
    (void)f;
    if (flag == FTW_DP)
        rmdir(p);
    else
        unlink(p);
    return 0;
}

static void
rm_tree(const char *p)
{
    nftw(p, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void
cleanup(void)
{
    struct il_link *l = cleanup_link;
    if (!l)
        return;
    il_stop_all();
    if (l->tmp)
        rm_tree(l->tmp);
    if (made_archives) {
        char *p = il_xasprintf("%s/archives", l->out);
        rm_tree(p);
        free(p);
    }
    if (made_out)
        rmdir(l->out);
}

/* ---------------------------------------------------------------- the link command */
/* The link recorded in the links file REPLAY (the last of PROGRAM's, or
 * the last of all), into L->cwd and L->cmd. */
static void
from_record(struct il_link *l, const char *replay, const char *program)
{
    struct stat st;
    if (stat(replay, &st) < 0 || !S_ISREG(st.st_mode) || access(replay, R_OK) < 0)
        errx(1, "cannot read link record file '%s'", replay);
    struct il_strv w = {0};
    long bad = 0;
    int rc = il_record_read(replay, program, &w, &bad);
    struct il_strv progs = {0};
    if (rc == 1 && !program && !l->quiet && il_record_programs(replay, &progs) == 0 &&
        progs.n > 1) {
        /* the last link, as documented, but never silently */
        struct il_buf names = {0};
        struct il_scan sc;
        for (size_t j = 0; j < progs.n; j++)
            il_buf_printf(&names, "%s%s", j ? ", " : "", progs.v[j]);
        il_scan(w.v + 1, w.n - 1, &sc);
        const char *last = il_scan_output(w.v + 1, &sc), *sl = strrchr(last, '/');
        warnx("%s holds the links of %zu programs (%s); relinking the last, %s (choose "
              "with --program NAME)",
              replay, progs.n, names.p, sl ? sl + 1 : last);
        il_scan_free(&sc);
        il_buf_free(&names);
    }
    il_strv_free(&progs);
    if (rc == -2)
        err(1, "cannot read link record file '%s'", replay);
    if (rc == -1)
        errx(1, "%s line %ld is not a link record written by interloper cc", replay, bad);
    if (rc == 0 && !program)
        errx(1, "%s holds no recorded link; build with CC='interloper cc' first", replay);
    if (rc == 0)
        errx(1, "%s holds no recorded link of '%s'", replay, program);
    l->cwd = w.v[0];
    for (size_t j = 1; j < w.n; j++)
        il_strv_push_own(&l->cmd, w.v[j]);
    free(w.v);
    struct stat d;
    if (stat(l->cwd, &d) < 0 || !S_ISDIR(d.st_mode))
        errx(1, "the recorded link ran in '%s', which no longer exists", l->cwd);
}

/* The link command, from the arguments from I on or a links file; the
 * program it writes. */
static struct il_scan
link_command(struct il_link *l, const struct args *a, int argc, char **argv, int i)
{
    if (a->replay) {
        if (i < argc)
            errx(1, "give either a link command after -- or --replay FILE, not both");
        from_record(l, a->replay, a->program);
    } else {
        if (i >= argc)
            errx(1, "no link command; expected: interloper link [options] -- CC ... -o PROG "
                    "a.o b.o ...");
        l->cwd = getcwd(NULL, 0);
        if (!l->cwd)
            err(1, "cannot get the current directory");
        for (; i < argc; i++)
            il_strv_push(&l->cmd, argv[i]);
    }
    struct il_scan s;
    il_scan(l->cmd.v, l->cmd.n, &s);
    l->raw_ld = s.raw_ld;
    if (s.dangling && !strcmp(l->cmd.v[l->cmd.n - 1], "-o"))
        errx(1, "-o at the end of the link command has no value");
    const char *outarg = il_scan_output(l->cmd.v, &s);
    const char *slash = strrchr(outarg, '/');
    l->prog = slash ? slash + 1 : outarg;
    if (!*l->prog)
        errx(1, "the link output '%s' names a directory, not a program", outarg);
    if (!a->dry)
        for (size_t j = 0; j < l->cmd.n; j++) {
            if (s.kind[j] != IL_ARG_OBJECT)
                continue;
            const char *o = l->cmd.v[j];
            char *f = il_xmalloc(strlen(l->cwd) + strlen(o) + 2);
            sprintf(f, "%s/%s", l->cwd, o);
            struct stat st;
            if (stat(o[0] == '/' ? o : f, &st) < 0 || !S_ISREG(st.st_mode))
                errx(1, "object '%s' not found (the link runs in %s)", o, l->cwd);
            free(f);
        }
    return s;
}

/* ---------------------------------------------------------------- the output directory */
/* OUT (default PROG.link) made absolute, new or empty, and a work
 * directory in it that cleanup() removes on failure. */
static void
out_dir(struct il_link *l, const char *out)
{
    if (!out) {
        char *d = il_xmalloc(strlen(l->prog) + 6);
        sprintf(d, "%s.link", l->prog);
        out = d;
    }
    if (out[0] == '/') {
        l->out = il_xstrdup(out);
    } else {
        char *here = getcwd(NULL, 0);
        if (!here)
            err(1, "cannot get the current directory");
        l->out = il_xmalloc(strlen(here) + strlen(out) + 2);
        sprintf(l->out, "%s/%s", here, out);
        free(here);
    }
    struct stat st;
    if (lstat(l->out, &st) == 0) {
        if (!S_ISDIR(st.st_mode))
            errx(1, "--out '%s' exists and is not a directory", l->out);
        DIR *dh = opendir(l->out);
        if (!dh)
            err(1, "cannot read --out '%s'", l->out);
        struct dirent *de;
        while ((de = readdir(dh)))
            if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
                errx(1, "--out '%s' is not empty; give a new or empty directory", l->out);
        closedir(dh);
    } else {
        char *p = il_xstrdup(l->out);
        for (char *q = p + 1; *q; q++)
            if (*q == '/') {
                *q = 0;
                mkdir(p, 0777);
                *q = '/';
            }
        free(p);
        if (mkdir(l->out, 0777) < 0)
            err(1, "cannot create --out '%s'", l->out);
        made_out = 1;
    }
    cleanup_link = l;
    atexit(cleanup);
    il_catch_signals();
    l->tmp = il_xmalloc(strlen(l->out) + 32);
    sprintf(l->tmp, "%s/.interloper-link.XXXXXX", l->out);
    if (!mkdtemp(l->tmp))
        err(1, "cannot create a temporary directory in '%s'", l->out);
    made_archives = strcmp(l->mode, "keep") != 0;
}

/* ---------------------------------------------------------------- objects and orders */
/* The objects that move, their K orders, the ids' width. */
static void
objects_and_orders(struct il_link *l, const struct il_scan *s, int dry, struct il_tpls *t)
{
    il_collect(l, s, dry, t);
    if (l->nobj == 0)
        errx(1, "no .o arguments in the link command; expected: CC ... -o PROG a.o b.o ...");
    char **names = il_xmalloc(l->nobj * sizeof *names);
    for (size_t j = 0; j < l->nobj; j++)
        names[j] = l->obj[j].name;
    uint64_t fact, maxk;
    if (il_orders_make(names, l->nobj, l->k, l->seed, &l->ord, &fact, &maxk) < 0)
        errx(1, "only %llu distinct orders of %zu objects exist; ask for --orders %llu or fewer",
             (unsigned long long)fact, l->nobj, (unsigned long long)maxk);
    free(names);
    if (l->k >= 2 && l->ord.same01)
        il_link_warn("the alphabetical order is the original order; binaries 0 and 1 will be the "
                     "same");
    /* Ids: decimal, zero-padded to one width, so that every binary's path
     * has the same length (path and argv[0] length shift the stack like the
     * environment does). */
    l->width = snprintf(NULL, 0, "%zu", l->k - 1);
    if (l->width < 2)
        l->width = 2;
}

/* -n: the orders, one a line. */
static int
print_orders(const struct il_link *l)
{
    char id[32];
    for (size_t j = 0; j < l->k; j++) {
        il_id(l, j, id, sizeof id);
        char *n = names_of(l, j);
        printf("%s\t%s\t%s\n", id, l->ord.kind[j], n);
        free(n);
    }
    return fflush(stdout) == 0 ? 0 : 1;
}

/* ---------------------------------------------------------------- linking */
/* Binary 0 first, twice: the same order must give a byte-identical
 * binary.  A difference means something else varies between links (a
 * timestamp, a random build-id, the output path), and would be
 * confounded with the layout. */
static void
link_first(struct il_link *l, const struct il_tpls *t)
{
    char id[32];
    il_id(l, 0, id, sizeof id);
    char *log = il_xasprintf("%s/log", l->tmp),
         *bin = il_xasprintf("%s/%s.%s", l->tmp, l->prog, id);
    int st = link_one(l, t, 0, bin, log);
    if (st != 0)
        fail(l, 0, st, log, NULL);
    if (access(bin, F_OK) < 0)
        fail(l, 0, 0, log, il_xasprintf("the link wrote no %s\n", bin));
    char *w = il_slurp(log, NULL); /* the build's own warnings, once */
    for (char *p = w, *e; p && *p; p = e + (*e != 0)) {
        e = strchrnul(p, '\n');
        fprintf(stderr, "  %.*s\n", (int)(e - p), p);
    }
    free(w);
    char *dir = il_xasprintf("%s/again", l->tmp);
    if (mkdir(dir, 0777) < 0)
        err(1, "cannot create %s", dir);
    char *again = il_xasprintf("%s/%s.%s", dir, l->prog, id);
    st = link_one(l, t, 0, again, log);
    if (st != 0)
        fail(l, 0, st, log, NULL);
    l->reproducible = same_file(bin, again);
    if (!l->reproducible)
        il_link_warn("linking the same order twice gave different binaries: the link is not "
                     "reproducible (a timestamp, a random build-id, or the output path in the "
                     "binary); differences between the binaries are not only layout");
    unlink(again);
    unlink(log);
    rmdir(dir);
    free(again);
    free(dir);
    free(bin);
    free(log);
}

/* Fingerprints into FPS (L->k of them), a batch of binaries at a time,
 * then the manifest. */
static void
fingerprints(struct il_link *l, char (*fps)[17])
{
    char(*tfps)[17] = il_xmalloc(l->k * sizeof *tfps);
    char(*shas)[65] = il_xmalloc(l->k * sizeof *shas);
    for (size_t j = 0; j < l->k; j += 64) {
        size_t n = l->k - j < 64 ? l->k - j : 64;
        il_fingerprints(l, j, n, fps + j, tfps + j, shas + j);
    }
    for (size_t j = 0; j < l->k; j++)
        il_manifest_binary(l, j, fps[j], tfps[j], shas[j]);
    il_manifest_end(l);
    free(tfps);
    free(shas);
}

/* Different orders that give the same layout (an object with no symbols
 * moved) are worth knowing about; alphabetical = original was said
 * before. */
static void
same_layouts(const struct il_link *l, char (*fps)[17])
{
    char id[32];
    int told = 0;
    char *done = il_xcalloc(l->k, 1);
    for (size_t j = 0; j < l->k && told < 3; j++) {
        if (done[j])
            continue;
        struct il_buf ids = {0};
        size_t same = 0;
        for (size_t m = j; m < l->k; m++)
            if (!strcmp(fps[m], fps[j])) {
                done[m] = 1;
                il_id(l, m, id, sizeof id);
                il_buf_str(&ids, same++ ? ", " : "");
                il_buf_str(&ids, id);
            }
        if (same > 1 && !(same == 2 && j == 0 && l->ord.same01 && !strcmp(fps[1], fps[0]))) {
            il_link_warn("binaries %s have the same layout (fingerprint %s)", ids.p, fps[j]);
            told++;
        }
        il_buf_free(&ids);
    }
    free(done);
}

/* ---------------------------------------------------------------- into place */
/* The binaries, symorder and the manifest from the work directory into
 * L->out; nothing is removed on exit from now on. */
static void
into_place(struct il_link *l)
{
    char id[32];
    for (size_t j = 0; j <= l->k + 1; j++) {
        char *name;
        if (j < l->k) {
            il_id(l, j, id, sizeof id);
            name = il_xasprintf("%s.%s", l->prog, id);
        } else {
            name = il_xstrdup(j == l->k ? "symorder" : "manifest.json");
        }
        char *from = il_xasprintf("%s/%s", l->tmp, name), *to = il_xasprintf("%s/%s", l->out, name);
        if (access(from, F_OK) == 0 && rename(from, to) < 0)
            err(1, "cannot move %s into %s", from, l->out);
        free(from);
        free(to);
        free(name);
    }
    rmdir(l->tmp);
    free(l->tmp);
    l->tmp = NULL;
    made_out = made_archives = 0;
}

/* The binaries' paths on stdout, a summary on stderr. */
static int
report(const struct il_link *l)
{
    char id[32];
    for (size_t j = 0; j < l->k; j++) {
        il_id(l, j, id, sizeof id);
        printf("%s/%s.%s\n", l->out, l->prog, id);
    }
    if (fflush(stdout) != 0)
        err(1, "cannot write to standard output");
    if (!l->quiet) {
        size_t members = 0;
        for (size_t j = 0; j < l->nar; j++)
            members += l->ar[j].members.n;
        fprintf(stderr, ME ": %zu binaries of %s (%zu objects", l->k, l->prog, l->nobj);
        if (l->nar)
            fprintf(stderr, ", %zu of them from %zu archive%s", members, l->nar,
                    il_s(l->nar));
        fprintf(stderr, ", %s granularity, seed %u) in %s\n", l->function ? "function" : "object",
                l->seed, l->out);
    }
    return 0;
}

/* ---------------------------------------------------------------- main */
int
main(int argc, char **argv)
{
    struct il_link L = {0}, *l = &L;
    struct args a = {0};
    int i = parse(l, &a, argc, argv);
    struct il_scan s = link_command(l, &a, argc, argv, i);
    if (!a.dry)
        out_dir(l, a.out);
    struct il_tpls t = {0};
    objects_and_orders(l, &s, a.dry, &t);
    if (a.dry)
        return print_orders(l);
    if (!il_which("nm"))
        errx(1, "'nm' not found in PATH; install binutils");
    if (l->function)
        il_symorder_write(l);
    il_manifest_begin(l);
    link_first(l, &t);
    link_rest(l, &t, 1);
    char(*fps)[17] = il_xmalloc(l->k * sizeof *fps);
    fingerprints(l, fps);
    same_layouts(l, fps);
    free(fps);
    into_place(l);
    return report(l);
}
