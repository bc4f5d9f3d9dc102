/*
 * merge.c: interloper record merge -o OUT RESULTS...: join the results
 * files of a plan's shards (or of any runs of one plan) into one, checked
 * against the plan: every line must belong to the same plan (its id), the
 * runs are compared with the runs the plan has (rebuilt from the plan line
 * by sweep_plan.c, as the sweep made them), and missing, duplicate and foreign
 * run ids are said, with the shards they belong to and what the shards'
 * logs end with.  The shards' outputs must agree, as the runs of one sweep
 * must; their machines' facts are compared (machfacts.c).  OUT is written
 * to a temporary file and renamed, so it is never partial; OUT may be one
 * of the inputs, and must be a regular file or a new path.  The files are
 * read once, line by line: the memory is the index of the runs.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "il_machine.h"
#include "sweep.h"
#include "il_plural.h"

#define ME "interloper record merge"

struct merge {
    const char *path; /* the file being read */
    int file;         /* its number, from 1 */
    size_t lines;     /* its lines read */
    int fd;           /* the temporary output; -1 with --check */
    char plan[16];
    const char *plan_path;
    json_t *plan_line;
    size_t setups; /* the largest extent of the plan lines */
    unsigned reps, warmup;
    struct il_launches seen; /* the runs and their launches */
    size_t records, dup_records;
    struct il_idset dups;
    char out_sha[65], out_path[IL_PATH_MAX], out_run[512];
    long long env_base; /* the first plan line's env_base; -1: none yet */
    long long env_vars; /* and its env_vars; 0: none (an older file) */
    const char *env_base_path;
    char env_differs[IL_PATH_MAX * 2 + 128];
    /* per system, setup, pin and argv: the environment size and main's
     * stack pointer, which must be one (ASLR on, each run is a setup) */
    struct il_idset env_of, sp_of;
    char setup_differs[1200];
    /* records in another environment size than their setup's first
     * whose main_sp is the first's (16-byte alignment absorbs up to 15
     * bytes): the stack did not move */
    size_t sp_agreed;
    unsigned shard_n;          /* the shards' N (the first plan line's with one); 0: none */
    unsigned char *shard_read; /* [i]: a plan line of shard i+1 was read */
    struct il_machines mach;
    struct il_strv empty; /* files without a line */
};

/* The records of one setup must have one environment size and one stack:
 * say the first setup that has two. */
static void
one_setup(struct merge *m, json_t *j, long lineno)
{
    json_t *setup = json_object_get(j, IL_F_SETUP), *argv = json_object_get(j, IL_F_ARGV);
    json_t *eb = json_object_get(setup, IL_F_ENV_BYTES), *sp = json_object_get(setup, IL_F_MAIN_SP);
    const char *sys = il_record_label(j, IL_L_SYSTEM), *id = il_record_label(j, IL_L_SETUP),
               *pin = il_record_label(j, IL_L_PIN);
    if (m->setup_differs[0] || !sys || !id || !json_is_integer(eb))
        return;
    struct il_buf k = {0};
    il_buf_printf(&k, "%s\x1f%s\x1f%s", sys, id, pin ? pin : "");
    size_t i;
    json_t *w;
    json_array_foreach(argv, i, w)
    {
        il_buf_str(&k, "\x1f");
        il_buf_str(&k, json_string_value(w) ? json_string_value(w) : "");
    }
    int added;
    long *v = il_idset_add(&m->env_of, k.p, &added);
    long bytes = (long)json_integer_value(eb), env0 = added ? bytes : *v;
    if (added)
        *v = bytes;
    long addr = json_is_string(sp)    ? (long)strtoul(json_string_value(sp), NULL, 16)
                : json_is_integer(sp) ? (long)json_integer_value(sp)
                                      : 0;
    long *w0 = il_idset_add(&m->sp_of, k.p, &added);
    if (added)
        *w0 = addr;
    /* two sizes with one stack is one setup: what a setup fixes is where
     * main's stack is (outside14 F3: sizes 3462 and 3463, main_sp
     * 0x7fffffffdda0 in both, was called a moved stack, exit 2) */
    if (env0 != bytes && addr && *w0 && addr == *w0)
        m->sp_agreed++;
    else if (env0 != bytes)
        snprintf(m->setup_differs, sizeof m->setup_differs,
                 "setup %.200s of system %.200s has 2 environment sizes, %ld and %ld bytes "
                 "(%s:%ld)",
                 id, sys, env0, bytes, m->path, lineno);
    v = w0;
    if (!added && addr && *v != addr && !m->setup_differs[0])
        snprintf(m->setup_differs, sizeof m->setup_differs,
                 "setup %.200s of system %.200s has 2 stacks, main_sp 0x%lx and 0x%lx (%s:%ld)", id,
                 sys, (unsigned long)*v, (unsigned long)addr, m->path, lineno);
    il_buf_free(&k);
}

static void
put(struct merge *m, const char *raw, size_t n)
{
    if (m->fd >= 0 && il_write_full(m->fd, raw, n) < 0)
        err(1, "cannot write the merged file");
}

/* A plan line's "shard": I/N */
static void
shard_of_plan_line(struct merge *m, json_t *j)
{
    unsigned i, n;
    char c;
    const char *sh = json_string_value(json_object_get(j, IL_M_SHARD));
    if (!sh || sscanf(sh, "%u/%u%c", &i, &n, &c) != 2 || !i || i > n)
        return;
    if (!m->shard_n) {
        m->shard_n = n;
        m->shard_read = il_xcalloc(n, 1);
    }
    if (n == m->shard_n)
        m->shard_read[i - 1] = 1;
}

static void
sweep_line(struct merge *m, json_t *j, long lineno)
{
    const char *k = json_string_value(json_object_get(j, IL_M_KIND));
    char where[IL_PATH_MAX + 32];
    snprintf(where, sizeof where, "%s:%ld", m->path, lineno);
    il_machines_add(&m->mach, j, where);
    if (k && (!strcmp(k, IL_M_KIND_PLAN) || !strcmp(k, IL_M_KIND_EXTENT))) {
        il_meta_extent_max(j, &m->setups, &m->reps, &m->warmup);
        if (!strcmp(k, IL_M_KIND_PLAN) && !m->plan_line)
            m->plan_line = json_incref(j);
        json_t *eb = json_object_get(j, IL_M_ENV_BASE), *ev = json_object_get(j, IL_M_ENV_VARS);
        long long base = json_is_integer(eb) ? (long long)json_integer_value(eb) : -1;
        long long vars = json_is_integer(ev) ? (long long)json_integer_value(ev) : 0;
        if (!strcmp(k, IL_M_KIND_PLAN)) {
            shard_of_plan_line(m, j);
            if (m->env_base < 0) {
                m->env_base = base;
                m->env_vars = vars;
                m->env_base_path = m->path;
            } else if (base != m->env_base && !m->env_differs[0]) {
                snprintf(m->env_differs, sizeof m->env_differs,
                         "%s:%ld has environment base %lld, %s %lld bytes", m->path, lineno, base,
                         m->env_base_path, m->env_base);
            } else if (vars && m->env_vars && vars != m->env_vars && !m->env_differs[0]) {
                snprintf(m->env_differs, sizeof m->env_differs,
                         "%s:%ld has %lld environment variables, %s %lld", m->path, lineno, vars,
                         m->env_base_path, m->env_vars);
            }
        }
    }
    const char *sha = json_string_value(json_object_get(j, IL_M_STDOUT_SHA256));
    const char *run = json_string_value(json_object_get(j, IL_M_RUN));
    if (k && !strcmp(k, IL_M_KIND_OUTPUT) && sha) {
        if (!m->out_sha[0]) {
            snprintf(m->out_sha, sizeof m->out_sha, "%s", sha);
            snprintf(m->out_path, sizeof m->out_path, "%s", m->path);
            snprintf(m->out_run, sizeof m->out_run, "%s", run ? run : "?");
        } else if (strcmp(sha, m->out_sha)) {
            errx(1,
                 "%s:%ld: run %s wrote other output than run %s of %s (SHA-256 %.12s "
                 "against %.12s); the shards did not compute the same thing",
                 m->path, lineno, run ? run : "?", m->out_run, m->out_path, sha, m->out_sha);
        }
    }
    if (k && !strcmp(k, IL_M_KIND_FAILED))
        il_launch_failed(&m->seen, run, json_string_value(json_object_get(j, IL_M_LAUNCH)));
}

static int
on_line(void *ctx, long lineno, json_t *j, const char *raw, size_t n)
{
    struct merge *m = ctx;
    enum il_line kind = il_line_kind(j);
    const char *plan;
    m->lines++;
    if (!j || kind == IL_LINE_OTHER)
        errx(1, "%s:%ld: neither a record nor a line of interloper sweep", m->path, lineno);
    plan = kind == IL_LINE_SWEEP ? json_string_value(json_object_get(j, IL_M_PLAN))
                                 : il_record_label(j, IL_L_PLAN);
    if (!plan)
        errx(1, "%s:%ld: a record without a plan label; expected records of interloper sweep",
             m->path, lineno);
    if (!m->plan[0]) {
        snprintf(m->plan, sizeof m->plan, "%s", plan);
        m->plan_path = m->path;
    } else if (strcmp(plan, m->plan)) {
        errx(1, "%s:%ld: plan %s, but %s is plan %s; merge joins the shards of one plan", m->path,
             lineno, plan, m->plan_path, m->plan);
    }
    if (kind == IL_LINE_SWEEP) {
        sweep_line(m, j, lineno);
        put(m, raw, n);
        return 0;
    }
    const char *run = il_record_label(j, IL_L_RUN);
    if (!run)
        errx(1, "%s:%ld: a record without a run label; expected records of interloper sweep",
             m->path, lineno);
    long here = ((long)m->file << 32) | lineno;
    if (il_launch_record(&m->seen, run, il_record_label(j, IL_L_LAUNCH), here, il_fnv1a(raw, n)) ==
        IL_LAUNCH_DUP) {
        /* the same run again: a copy of a line, or another launch of it */
        int added;
        m->dup_records++;
        il_idset_add(&m->dups, run, &added);
        return 0;
    }
    m->records++;
    one_setup(m, j, lineno);
    put(m, raw, n);
    return 0;
}

/* ------------------------------------------------------------ writing */

/* The temporary files, removed on any way out but their rename. */
static char *tmps[2];

static void
remove_tmps(void)
{
    for (int i = 0; i < 2; i++)
        if (tmps[i])
            unlink(tmps[i]);
}

/* A file merge writes must be a regular file or a new path: it is
 * replaced by a rename, which would put a regular file in place of a
 * device (/dev/null), or of a symbolic link rather than write where it
 * points. */
static void
writable_target(const char *opt, const char *path)
{
    struct stat st;
    if (lstat(path, &st) < 0) {
        if (errno == ENOENT)
            return;
        err(1, "%s %s", opt, path);
    }
    if (S_ISREG(st.st_mode))
        return;
    errx(1,
         "%s %s: %s, not a regular file; merge replaces the file it writes: give a regular "
         "file or a new path%s",
         opt, path,
         S_ISLNK(st.st_mode)    ? "a symbolic link"
         : S_ISCHR(st.st_mode)  ? "a character device"
         : S_ISBLK(st.st_mode)  ? "a block device"
         : S_ISDIR(st.st_mode)  ? "a directory"
         : S_ISFIFO(st.st_mode) ? "a FIFO"
                                : "a special file",
         strcmp(opt, "-o") ? "" : " (--check checks without writing)");
}

/* a temporary file beside path, with the mode a new file would get */
static int
beside(const char *path, int k)
{
    tmps[k] = il_xasprintf("%s.XXXXXX", path);
    int fd = mkstemp(tmps[k]);
    mode_t mask = umask(0);
    umask(mask);
    if (fd < 0 || fchmod(fd, 0666 & ~mask) < 0)
        err(1, "cannot write beside %s", path);
    return fd;
}

static void
commit(int fd, const char *path, int k)
{
    if (fsync(fd) < 0 || close(fd) < 0 || rename(tmps[k], path) < 0)
        err(1, "cannot write %s", path);
    free(tmps[k]);
    tmps[k] = NULL;
}

/* ------------------------------------------------------------ saying */

/* run ids to say: how many, and the first few (the whole list goes to
 * --missing FILE, never into memory) */
struct some {
    size_t n;
    char *first[5];
};

static void
some_add(struct some *s, const char *id)
{
    if (s->n < 5)
        s->first[s->n] = il_xstrdup(id);
    s->n++;
}

static void
say_some(const char *what, const struct some *ids, const char *missing_file)
{
    if (!ids->n)
        return;
    fprintf(stderr, "%s: %zu %s:", ME, ids->n, what);
    for (size_t i = 0; i < ids->n && i < 5; i++)
        fprintf(stderr, " %s", ids->first[i]);
    if (ids->n > 5)
        fprintf(stderr, " ...%s", missing_file ? "" : " (all of them: --missing FILE)");
    fputc('\n', stderr);
}

/* "results.shard-2-of-4.jsonl": its stem, "results", when it is named
 * as interloper sweep --slurm names its shards; NULL if not */
static char *
shard_stem(const char *path, unsigned n)
{
    const char *p = strstr(path, ".shard-"), *q;
    while (p && (q = strstr(p + 1, ".shard-")))
        p = q;
    unsigned i, of;
    int end = 0;
    if (!p || sscanf(p, ".shard-%u-of-%u.jsonl%n", &i, &of, &end) != 2 || p[end] || of != n)
        return NULL;
    return il_xasprintf("%.*s", (int)(p - path), path);
}

/* Each incomplete shard: how much of it is there, and the end of its log
 * (a task refused, or killed with its node, says so there). */
static void
say_shards(const struct merge *m, const size_t *planned, const size_t *there, int nfiles,
           char **files)
{
    char *stem = NULL;
    for (int k = 0; k < nfiles && !stem; k++)
        stem = shard_stem(files[k], m->shard_n);
    unsigned said = 0, more = 0;
    for (unsigned i = 0; i < m->shard_n; i++) {
        if (there[i] == planned[i])
            continue;
        if (said == 20) {
            more++;
            continue;
        }
        said++;
        char end[600] = "", *log = NULL;
        if (stem) {
            log = il_xasprintf("%s.shard-%u-of-%u.log", stem, i + 1, m->shard_n);
            if (il_log_end(log, end, sizeof end) < 0) {
                free(log);
                log = NULL;
            }
        }
        fprintf(stderr, "%s: shard %u/%u: %zu of its %zu runs%s%s%s%s%s\n", ME, i + 1, m->shard_n,
                there[i], planned[i], m->shard_read[i] ? "" : ", no file of it was given",
                log ? "; " : "", log ? log : "", log ? (end[0] ? " ends: " : " is empty") : "",
                end);
        free(log);
    }
    if (more)
        fprintf(stderr, "%s: and %u more shards without all their runs\n", ME, more);
    free(stem);
}

enum { O_OUT = 1, O_CHECK, O_MISSING };

static const struct il_opt merge_opts[] = {
    {"output", 'o', IL_OPT_VALUE, "OUT", "the merged file (a regular file or a new path)", O_OUT},
    {"check", 0, IL_OPT_FLAG, NULL, "write nothing: is the experiment complete?", O_CHECK},
    {"missing", 0, IL_OPT_VALUE, "FILE",
     "the ids of the runs missing or failed, one a line, for\n"
     "interloper sweep --runs FILE",
     O_MISSING},
    {0},
};

static const struct il_cmd merge_cmd = {
    .name = ME,
    .synopsis = "-o OUT [--missing FILE] RESULTS...\n"
                "--check [--missing FILE] RESULTS...",
    .about = "Join the results files of one plan's shards into OUT, checked against the\n"
             "plan: missing, failed, duplicate and foreign runs are said, duplicates left\n"
             "out; incomplete shards with the end of their logs; machines whose facts\n"
             "differ, or that changed during a shard.  RESULTS may be gzip or zstd\n"
             "files; OUT is plain.",
    .more = "Exit status 0 when OUT holds exactly the plan's runs, 2 when it was written\n"
            "(complete, without the runs missing) but does not, 1 when nothing was\n"
            "written.",
    .man = "interloper-record(1)",
    .opts = merge_opts,
};

int
il_record_merge(int argc, char **argv)
{
    const char *out = NULL, *missing_file = NULL;
    int check = 0;
    struct il_optp op;
    il_opt_init(&op, &merge_cmd, argc, argv);
    while (il_opt_next(&op)) {
        if (op.opt->id == O_OUT)
            out = op.val;
        else if (op.opt->id == O_CHECK)
            check = 1;
        else
            missing_file = op.val;
    }
    int i = op.i;
    if (out && check)
        errx(1, "-o OUT and --check: --check writes nothing; give one or the other");
    if ((!out && !check) || i >= argc)
        errx(1, "expected -o OUT (or --check) and at least one results file; see interloper "
                "record merge --help");
    if (out)
        writable_target("-o", out);
    if (missing_file)
        writable_target("--missing", missing_file);
    static struct merge m;
    m.env_base = -1;
    m.fd = out ? beside(out, 0) : -1;
    atexit(remove_tmps);
    for (int k = i; k < argc; k++) {
        m.path = argv[k];
        m.file = k - i + 1;
        m.lines = 0;
        if (il_results_read(ME, argv[k], on_line, &m) < 0)
            err(1, "cannot read %s", argv[k]);
        if (!m.lines)
            il_strv_push(&m.empty, argv[k]);
    }
    if (!m.plan_line) {
        errx(1, "no plan line in %s%s; expected results files of interloper sweep", argv[i],
             argc - i > 1 ? " or the others" : "");
    }

    /* the plan's runs, as the sweep made them */
    struct il_design d;
    struct il_plan p;
    const char *why;
    if (il_meta_design(m.plan_line, &d, &why) < 0 || il_plan_init(&p, &d, &why) < 0)
        errx(1, "the plan line of %s cannot be read: %s", m.plan_path, why);
    d.setups = m.setups ? m.setups : d.setups;
    d.reps = m.reps > d.reps ? m.reps : d.reps;
    d.warmup = m.warmup > d.warmup ? m.warmup : d.warmup;
    struct some missing = {0}, extra = {0}, dup = {0}, failed = {0};
    size_t planned = 0;
    size_t *sh_planned = m.shard_n ? il_xcalloc(m.shard_n, sizeof *sh_planned) : NULL;
    size_t *sh_there = m.shard_n ? il_xcalloc(m.shard_n, sizeof *sh_there) : NULL;
    int mfd = missing_file ? beside(missing_file, 1) : -1;
    uint32_t block = 0;
    for (unsigned b = 0; !b || il_plan_batch_end(&p, b - 1) < m.setups; b++) {
        size_t n;
        struct il_run *runs = il_plan_batch(&p, b, block, &n);
        for (size_t r = 0; r < n; r++) {
            char id[512];
            il_plan_run_id(&p, &runs[r], id, sizeof id);
            planned++;
            int there = il_launch_plan(&m.seen, id);
            if (there < 0)
                some_add(&missing, id);
            else if (!there)
                some_add(&failed, id);
            if (there <= 0 && mfd >= 0) {
                size_t l = strlen(id);
                id[l] = '\n';
                if (il_write_full(mfd, id, l + 1) < 0)
                    err(1, "cannot write %s", missing_file);
            }
            if (m.shard_n) {
                unsigned s = il_plan_shard(&runs[r], m.shard_n);
                sh_planned[s - 1]++;
                sh_there[s - 1] += there > 0;
            }
        }
        if (n)
            block = runs[n - 1].block + 1;
        free(runs);
        if (il_plan_batch_end(&p, b) >= p.n)
            break;
    }
    for (size_t k = 0; k < m.seen.runs.set.n; k++)
        if (!m.seen.v[m.seen.runs.val[k]].planned)
            some_add(&extra, m.seen.runs.set.key[k]);
    for (size_t k = 0; k < m.dups.set.n; k++)
        some_add(&dup, m.dups.set.key[k]);

    if (out)
        commit(m.fd, out, 0);
    if (missing_file)
        commit(mfd, missing_file, 1);
    char head[IL_PATH_MAX + 8] = "";
    if (out)
        snprintf(head, sizeof head, "%s: ", out);
    fprintf(stderr, "%s: %splan %s, %zu of its %zu runs (%zu records) from %d file%s\n", ME, head,
            m.plan, planned - missing.n - failed.n, planned, m.records, argc - i,
            il_s(argc - i));
    for (size_t k = 0; k < m.empty.n; k++)
        fprintf(stderr,
                "%s: %s is empty (no line): its sweep never started, or was refused; see its "
                "log\n",
                ME, m.empty.v[k]);
    say_some("runs missing", &missing, missing_file);
    say_some("runs failed (their records kept; rerun the sweep to retry them)", &failed,
             missing_file);
    say_some("runs found more than once (the first kept)", &dup, NULL);
    say_some("runs not in the plan", &extra, NULL);
    if (m.shard_n && (missing.n || failed.n))
        say_shards(&m, sh_planned, sh_there, argc - i, argv + i);
    /* the plans' bases differ, but every setup that ran in both kept its
     * stack: a note, not a failure */
    int env_moved = m.env_differs[0] && (m.setup_differs[0] || !m.sp_agreed);
    if (m.env_differs[0] && !env_moved)
        fprintf(stderr,
                "%s: the shards' setups differ in environment (%s), but the stack did not "
                "move: %zu records in another size than their setup's first have its main_sp "
                "(16-byte alignment absorbed the difference), and none has another; give one "
                "--env-base and --env-vars to be sure of it\n",
                ME, m.env_differs, m.sp_agreed);
    if (env_moved)
        fprintf(stderr,
                "%s: warning: the shards' setups differ in environment (%s): the same setup "
                "moved the stack between them; rerun them with one --env-base and --env-vars\n",
                ME, m.env_differs);
    if (m.setup_differs[0])
        fprintf(stderr,
                "%s: warning: %s: the setup is not one setup; rerun with one --env-base and "
                "--env-vars\n",
                ME, m.setup_differs);
    if (m.mach.differ_hosts)
        fprintf(stderr,
                "%s: warning: the runs come from machines whose facts differ (%s%s); pooled, "
                "the machines' difference is taken for the setups': compare them with "
                "interloper report --by host, or make the host a level (--setup setup,host)\n",
                ME, m.mach.differ,
                m.mach.differ_hosts > 1 ? "; and more hosts differ from the first" : "");
    if (m.mach.changed)
        fprintf(stderr,
                "%s: warning: the machine changed during %zu sweep%s (%s); the runs around the "
                "change may differ for it\n",
                ME, m.mach.changed, il_s(m.mach.changed), m.mach.change);
    return missing.n || failed.n || dup.n || extra.n || env_moved || m.setup_differs[0] ? 2 : 0;
}
