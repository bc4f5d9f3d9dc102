/*
 * merge.c: interloper record merge -o OUT RESULTS...: join the results
 * files of a plan's shards (or of any runs of one plan) into one, checked
 * against the plan: every line must belong to the same plan (its id), the
 * runs are compared with the runs the plan has (rebuilt from the plan line
 * by sweep_plan.c, as the sweep made them), and missing, duplicate and foreign
 * run ids are said.  The shards' outputs must agree, as the runs of one
 * sweep must.  OUT is written to a temporary file and renamed, so it is
 * never partial; OUT may be one of the inputs.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep.h"

#define ME "interloper record merge"

struct merge {
    const char *path; /* the file being read */
    int file;         /* its number, from 1 */
    int fd;           /* the temporary output */
    char plan[16];
    const char *plan_path;
    json_t *plan_line;
    size_t setups; /* the largest extent of the plan lines */
    unsigned reps, warmup;
    struct il_launches seen; /* the runs and their launches */
    struct il_idset lines;   /* the records' lines (a hash of each): verbatim copies */
    size_t records, dup_records;
    struct il_idset dups;
    char out_sha[65], out_path[IL_PATH_MAX], out_run[512];
    long long env_base; /* the first plan line's env_base; -1: none yet */
    const char *env_base_path;
    char env_differs[IL_PATH_MAX * 2 + 128];
    /* per system, setup, pin and argv: the environment size and main's
     * stack pointer, which must be one (ASLR on, each run is a setup) */
    struct il_idset env_of, sp_of;
    char setup_differs[1200];
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
    long bytes = (long)json_integer_value(eb);
    if (added)
        *v = bytes;
    else if (*v != bytes)
        snprintf(m->setup_differs, sizeof m->setup_differs,
                 "setup %.200s of system %.200s has 2 environment sizes, %ld and %ld bytes "
                 "(%s:%ld)",
                 id, sys, *v, bytes, m->path, lineno);
    long addr = json_is_string(sp)    ? (long)strtoul(json_string_value(sp), NULL, 16)
                : json_is_integer(sp) ? (long)json_integer_value(sp)
                                      : 0;
    v = il_idset_add(&m->sp_of, k.p, &added);
    if (added)
        *v = addr;
    else if (addr && *v != addr && !m->setup_differs[0])
        snprintf(m->setup_differs, sizeof m->setup_differs,
                 "setup %.200s of system %.200s has 2 stacks, main_sp 0x%lx and 0x%lx (%s:%ld)", id,
                 sys, (unsigned long)*v, (unsigned long)addr, m->path, lineno);
    il_buf_free(&k);
}

static void
put(struct merge *m, const char *raw, size_t n)
{
    if (il_write_full(m->fd, raw, n) < 0)
        err(1, "cannot write the merged file");
}

static int
on_line(void *ctx, long lineno, json_t *j, const char *raw, size_t n)
{
    struct merge *m = ctx;
    enum il_line kind = il_line_kind(j);
    const char *plan;
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
        const char *k = json_string_value(json_object_get(j, IL_M_KIND));
        if (k && (!strcmp(k, IL_M_KIND_PLAN) || !strcmp(k, IL_M_KIND_EXTENT))) {
            il_meta_extent_max(j, &m->setups, &m->reps, &m->warmup);
            if (!strcmp(k, IL_M_KIND_PLAN) && !m->plan_line)
                m->plan_line = json_incref(j);
            json_t *eb = json_object_get(j, IL_M_ENV_BASE);
            long long base = json_is_integer(eb) ? (long long)json_integer_value(eb) : -1;
            if (!strcmp(k, IL_M_KIND_PLAN) && m->env_base < 0) {
                m->env_base = base;
                m->env_base_path = m->path;
            } else if (!strcmp(k, IL_M_KIND_PLAN) && base != m->env_base && !m->env_differs[0]) {
                snprintf(m->env_differs, sizeof m->env_differs,
                         "%s:%ld has environment base %lld, %s %lld bytes", m->path, lineno, base,
                         m->env_base_path, m->env_base);
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
        put(m, raw, n);
        return 0;
    }
    const char *run = il_record_label(j, IL_L_RUN);
    if (!run)
        errx(1, "%s:%ld: a record without a run label; expected records of interloper sweep",
             m->path, lineno);
    int added;
    char hash[65];
    il_sha256_hex(raw, n, hash);
    hash[32] = 0;
    il_idset_add(&m->lines, hash, &added);
    long here = ((long)m->file << 32) | lineno;
    if (!added ||
        il_launch_record(&m->seen, run, il_record_label(j, IL_L_LAUNCH), here) == IL_LAUNCH_DUP) {
        /* the same run again: a copy of a line, or another launch of it */
        m->dup_records++;
        il_idset_add(&m->dups, run, &added);
        return 0;
    }
    m->records++;
    one_setup(m, j, lineno);
    put(m, raw, n);
    return 0;
}

/* the temporary file, removed on any way out but the rename */
static char *tmp;

static void
remove_tmp(void)
{
    if (tmp)
        unlink(tmp);
}

static void
say_some(const char *what, const struct il_strv *ids)
{
    if (!ids->n)
        return;
    fprintf(stderr, "%s: %zu %s:", ME, ids->n, what);
    for (size_t i = 0; i < ids->n && i < 5; i++)
        fprintf(stderr, " %s", ids->v[i]);
    fprintf(stderr, "%s\n", ids->n > 5 ? " ..." : "");
}

int
il_record_merge(int argc, char **argv)
{
    const char *out = NULL;
    int i = 1;
    if (i < argc && (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))) {
        printf("usage: interloper record merge -o OUT RESULTS...\n"
               "\n"
               "Join the results files of one plan's shards into OUT, checked against the\n"
               "plan: missing, failed, duplicate and foreign runs are said, duplicates left\n"
               "out.\n"
               "Exit status 0 when OUT holds exactly the plan's runs, 2 when it was written\n"
               "but does not, 1 when nothing was written.  See interloper-record(1).\n");
        return 0;
    }
    if (i + 1 < argc && !strcmp(argv[i], "-o")) {
        out = argv[i + 1];
        i += 2;
    }
    program_invocation_short_name = (char *)ME; /* err(3) prefix */
    if (i < argc && !strcmp(argv[i], "--"))
        i++;
    if (!out || i >= argc)
        errx(1, "expected -o OUT and at least one results file; see interloper record "
                "merge --help");
    static struct merge m;
    m.env_base = -1;
    tmp = il_xasprintf("%s.XXXXXX", out);
    m.fd = mkstemp(tmp);
    if (m.fd >= 0)
        atexit(remove_tmp);
    mode_t mask = umask(0);
    umask(mask);
    if (m.fd < 0 || fchmod(m.fd, 0666 & ~mask) < 0)
        err(1, "cannot write beside %s", out);
    for (int k = i; k < argc; k++) {
        m.path = argv[k];
        m.file = k - i + 1;
        if (il_results_scan(ME, argv[k], 0, on_line, &m) < 0)
            err(1, "cannot read %s", argv[k]);
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
    struct il_strv missing = {0}, extra = {0}, dup = {0}, failed = {0};
    size_t planned = 0;
    struct il_idset want = {0};
    uint32_t block = 0;
    for (unsigned b = 0; !b || il_plan_batch_end(&p, b - 1) < m.setups; b++) {
        size_t n;
        struct il_run *runs = il_plan_batch(&p, b, block, &n);
        for (size_t r = 0; r < n; r++) {
            char id[512];
            int added;
            il_plan_run_id(&p, &runs[r], id, sizeof id);
            il_idset_add(&want, id, &added);
            planned++;
            int there = il_launch_state(&m.seen, id);
            if (there < 0)
                il_strv_push(&missing, id);
            else if (!there)
                il_strv_push(&failed, id);
        }
        if (n)
            block = runs[n - 1].block + 1;
        free(runs);
        if (il_plan_batch_end(&p, b) >= p.n)
            break;
    }
    for (size_t k = 0; k < m.seen.runs.set.n; k++)
        if (!il_idset_get(&want, m.seen.runs.set.key[k]))
            il_strv_push(&extra, m.seen.runs.set.key[k]);
    for (size_t k = 0; k < m.dups.set.n; k++)
        il_strv_push(&dup, m.dups.set.key[k]);

    if (fsync(m.fd) < 0 || close(m.fd) < 0 || rename(tmp, out) < 0)
        err(1, "cannot write %s", out);
    free(tmp);
    tmp = NULL;
    fprintf(stderr, "%s: %s: plan %s, %zu of its %zu runs (%zu records) from %d file%s\n", ME, out,
            m.plan, planned - missing.n - failed.n, planned, m.records, argc - i,
            argc - i == 1 ? "" : "s");
    say_some("runs missing", &missing);
    say_some("runs failed (their records kept; rerun the sweep to retry them)", &failed);
    say_some("runs found more than once (the first kept)", &dup);
    say_some("runs not in the plan", &extra);
    if (m.env_differs[0])
        fprintf(stderr,
                "%s: warning: the shards' setups differ in environment size (%s): the same "
                "setup moved the stack between them; rerun them with one --env-base\n",
                ME, m.env_differs);
    if (m.setup_differs[0])
        fprintf(stderr, "%s: warning: %s: the setup is not one setup; rerun with one --env-base\n",
                ME, m.setup_differs);
    return missing.n || failed.n || dup.n || extra.n || m.env_differs[0] || m.setup_differs[0] ? 2
                                                                                               : 0;
}
