/*
 * slurm.c: --slurm N writes a Slurm job-array script whose task
 * $SLURM_ARRAY_TASK_ID runs shard I of N of the same plan (the same
 * command, seed fixed), one node per task and the node to itself
 * (--exclusive: measurements must not share a machine), each shard writing
 * its own results file; with --submit, sbatch submits it.  interloper
 * record merge then checks the shards against the plan.  Slurm schedules;
 * interloper writes no scheduler of its own.
 *
 * The same command, rerun, resumes the array: what the plan fixes (the
 * seed, the environment's base) comes from the shards' files of the same
 * plan, and only the tasks whose shards are not complete, nor queued or
 * running (squeue), are submitted again.  The previous script is kept.
 * With --status, each task's state: its shard's runs, its log's last
 * line, and Slurm's (sacct where accounting is on, and squeue).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep.h"
#include "il_plural.h"

/* results.jsonl -> results (the stem of the shards' files) */
static char *
stem(const char *output)
{
    char *s = il_xstrdup(output);
    size_t n = strlen(s);
    if (n > 6 && !strcmp(s + n - 6, ".jsonl"))
        s[n - 6] = 0;
    return s;
}

char *
il_slurm_shard_file(const struct il_sweep *s, unsigned i, const char *ext)
{
    char *base = stem(s->output), *p = il_xasprintf("%s.shard-%u-of-%u.%s", base, i, s->slurm, ext);
    free(base);
    return p;
}

/* ------------------------------------------------------------ the shards so far */

struct shards {
    const struct il_sweep *s;
    const char *id;
    unsigned n;
    char **path;
    unsigned char *exists;
    size_t *planned, *done, *failed;
    struct il_launches seen;
    long long base; /* the first plan line's env_base; -1: none */
    long long vars; /* its env_vars; 0: none (an older file) */
    const char *base_path;
    const char *reading;
    int file;
};

static int
on_shard_line(void *ctx, long lineno, json_t *j, const char *raw, size_t n)
{
    struct shards *h = ctx;
    enum il_line kind = il_line_kind(j);
    if (!j || kind == IL_LINE_OTHER)
        errx(1,
             "%s:%ld: neither a record nor a line of interloper sweep; expected the shard's "
             "results file",
             h->reading, lineno);
    const char *plan = kind == IL_LINE_SWEEP ? json_string_value(json_object_get(j, IL_M_PLAN))
                                             : il_record_label(j, IL_L_PLAN);
    if (!plan || strcmp(plan, h->id))
        errx(1,
             "%s holds runs of plan %s (line %ld), not this command's plan %s: give the "
             "options, binaries and seed that made it, or another --output",
             h->reading, plan ? plan : "none", lineno, h->id);
    if (kind == IL_LINE_RECORD) {
        const char *run = il_record_label(j, IL_L_RUN);
        if (run)
            il_launch_record(&h->seen, run, il_record_label(j, IL_L_LAUNCH),
                             ((long)h->file << 32) | lineno, il_fnv1a(raw, n));
        return 0;
    }
    const char *k = json_string_value(json_object_get(j, IL_M_KIND));
    if (k && !strcmp(k, IL_M_KIND_FAILED))
        il_launch_failed(&h->seen, json_string_value(json_object_get(j, IL_M_RUN)),
                         json_string_value(json_object_get(j, IL_M_LAUNCH)));
    json_t *eb = json_object_get(j, IL_M_ENV_BASE);
    if (k && !strcmp(k, IL_M_KIND_PLAN) && json_is_integer(eb)) {
        long long b = (long long)json_integer_value(eb);
        if (h->base < 0) {
            h->base = b;
            h->vars = (long long)json_integer_value(json_object_get(j, IL_M_ENV_VARS));
            h->base_path = h->reading;
        } else if (b != h->base) {
            errx(1,
                 "%s has the environment base %lld bytes, %s %lld: the shards of one plan "
                 "need one (record merge would refuse them); start another --output",
                 h->reading, b, h->base_path, h->base);
        }
    }
    return 0;
}

/* Read every shard's file there is; count each shard's runs done. */
static void
read_shards(struct shards *h, const struct il_plan *p, const struct il_run *runs, size_t nruns)
{
    h->n = h->s->slurm;
    h->base = -1;
    h->path = il_xcalloc(h->n, sizeof *h->path);
    h->exists = il_xcalloc(h->n, 1);
    h->planned = il_xcalloc(h->n, sizeof *h->planned);
    h->done = il_xcalloc(h->n, sizeof *h->done);
    h->failed = il_xcalloc(h->n, sizeof *h->failed);
    for (unsigned i = 0; i < h->n; i++) {
        h->path[i] = il_slurm_shard_file(h->s, i + 1, "jsonl");
        h->reading = h->path[i];
        h->file = (int)i + 1;
        if (il_results_scan(IL_SWEEP_ME, h->path[i], 0, on_shard_line, h) == 0)
            h->exists[i] = 1;
        else if (errno != ENOENT)
            err(1, "cannot read %s", h->path[i]);
    }
    for (size_t r = 0; r < nruns; r++) {
        char id[512];
        il_plan_run_id(p, &runs[r], id, sizeof id);
        unsigned k = il_plan_shard(&runs[r], h->n) - 1;
        int there = il_launch_state(&h->seen, id);
        h->planned[k]++;
        h->done[k] += there > 0;
        h->failed[k] += there == 0;
    }
}

/* ------------------------------------------------------------ Slurm's view */

/* A command's standard output (NULL if it could not run or failed). */
static char *
capture(char *const argv[])
{
    int fd[2];
    if (pipe(fd) < 0)
        return NULL;
    fflush(NULL);
    pid_t p = fork();
    if (p < 0)
        return NULL;
    if (p == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(fd[1], 1);
        if (null >= 0)
            dup2(null, 2);
        close(fd[0]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    struct il_buf b = {0};
    il_buf_str(&b, "");
    char chunk[4096];
    ssize_t n;
    while ((n = read(fd[0], chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0)
            il_buf_add(&b, chunk, (size_t)n);
    close(fd[0]);
    int st;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st)) {
        il_buf_free(&b);
        return NULL;
    }
    return b.p;
}

/* each task's latest job in Slurm's view: "12_3", its state, its node */
struct task_state {
    unsigned long job; /* 0: none seen */
    char state[32], node[64], jobid[48];
};

/* "12_3", "12_[2-4,7]" or "12_[1-4%2]": the tasks of array job 12 */
static void
note_tasks(struct task_state *t, unsigned n, const char *jobid, const char *state, const char *node)
{
    char *end;
    unsigned long job = strtoul(jobid, &end, 10);
    if (end == jobid || *end != '_')
        return;
    const char *p = end + 1;
    int br = *p == '[';
    p += br;
    while (*p && *p != ']' && *p != '%') {
        unsigned long a = strtoul(p, &end, 10), b = a;
        if (end == p)
            return;
        p = end;
        if (*p == '-') {
            b = strtoul(p + 1, &end, 10);
            p = end;
        }
        for (unsigned long k = a ? a : 1; k <= b && k <= n; k++) {
            struct task_state *x = &t[k - 1];
            if (job < x->job)
                continue;
            x->job = job;
            snprintf(x->state, sizeof x->state, "%s", state);
            snprintf(x->node, sizeof x->node, "%s", node);
            snprintf(x->jobid, sizeof x->jobid, "%lu_%lu", job, k);
        }
        if (*p == ',')
            p++;
        else if (!br)
            break;
    }
}

/* lines "JOBID|STATE|NODE|WORKDIR": the tasks of arrays that ran here
 * (another directory's array of the same plan has the same name) */
static void
note_lines(struct task_state *t, unsigned n, char *text, const char *cwd)
{
    char *save, *line;
    for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *s1 = strchr(line, '|'), *s2 = s1 ? strchr(s1 + 1, '|') : NULL;
        char *s3 = s2 ? strchr(s2 + 1, '|') : NULL;
        if (!s3 || strcmp(s3 + 1, cwd))
            continue;
        *s1 = *s2 = *s3 = 0;
        char *sp = strchr(s1 + 1, ' '); /* "CANCELLED by 0" */
        if (sp)
            *sp = 0;
        note_tasks(t, n, line, s1 + 1, s2 + 1);
    }
}

/* Slurm's view of the plan's array tasks (its job name, and this
 * directory, where the script has them run): sacct, where accounting is
 * on, then squeue, which is the more current */
static struct task_state *
slurm_view(const char *id, unsigned n, int with_sacct, int *any)
{
    struct task_state *t = il_xcalloc(n, sizeof *t);
    char name[64], cwd[IL_PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        err(1, "cannot tell the current directory");
    snprintf(name, sizeof name, "--name=interloper-%s", id);
    *any = 0;
    if (with_sacct) {
        char *argv[] = {"sacct",      "-n", "-P",
                        "-X",         name, "-S",
                        "now-60days", "-o", "JobID,State,NodeList,WorkDir",
                        NULL};
        char *out = capture(argv);
        if (out) {
            *any = 1;
            note_lines(t, n, out, cwd);
        }
        free(out);
    }
    char *argv[] = {"squeue", "-h", "-r", "-t", "all", name, "-o", "%i|%T|%N|%Z", NULL};
    char *out = capture(argv);
    if (out) {
        *any |= 2;
        note_lines(t, n, out, cwd);
    }
    free(out);
    return t;
}

static int
active(const char *state)
{
    static const char *const live[] = {"PENDING",   "RUNNING",      "CONFIGURING", "COMPLETING",
                                       "SUSPENDED", "REQUEUED",     "RESIZING",    "SIGNALING",
                                       "STAGE_OUT", "REQUEUE_HOLD", NULL};
    for (const char *const *l = live; *l; l++)
        if (!strcmp(state, *l))
            return 1;
    return 0;
}

/* ------------------------------------------------------------ --status */

static int
status(struct shards *h)
{
    int any;
    struct task_state *t = slurm_view(h->id, h->n, 1, &any);
    size_t planned = 0, done = 0;
    unsigned complete = 0;
    for (unsigned i = 0; i < h->n; i++) {
        planned += h->planned[i];
        done += h->done[i];
        complete += h->done[i] == h->planned[i];
    }
    printf("plan %s: %u of %u shards complete, %zu of %zu runs%s\n", h->id, complete, h->n, done,
           planned,
           any & 1   ? ""
           : any & 2 ? " (sacct: no accounting here; Slurm's states from squeue, which "
                       "forgets ended jobs)"
                     : " (no sacct or squeue answered: the shards' files and logs only)");
    printf("%-5s %-13s %-34s %s\n", "task", "runs", "slurm", "log ends");
    for (unsigned i = 0; i < h->n; i++) {
        char runs[64], sl[160], end[420], *log = il_slurm_shard_file(h->s, i + 1, "log");
        if (h->exists[i])
            snprintf(runs, sizeof runs, "%zu/%zu", h->done[i], h->planned[i]);
        else
            snprintf(runs, sizeof runs, "no file");
        if (h->failed[i])
            snprintf(runs + strlen(runs), sizeof runs - strlen(runs), ", %zu failed", h->failed[i]);
        if (t[i].job)
            snprintf(sl, sizeof sl, "%s %s%s%s", t[i].state, t[i].jobid, t[i].node[0] ? " " : "",
                     t[i].node);
        else
            snprintf(sl, sizeof sl, "-");
        il_log_end(log, end, sizeof end);
        printf("%-5u %-13s %-34s %s\n", i + 1, runs, sl, end[0] ? end : "-");
        free(log);
    }
    free(t);
    return complete == h->n ? 0 : 2;
}

/* ------------------------------------------------------------ the script */

/* "2-4,7" */
static void
array_spec(struct il_buf *b, const unsigned char *want, unsigned n)
{
    int first = 1;
    for (unsigned i = 0; i < n; i++) {
        if (!want[i])
            continue;
        unsigned j = i;
        while (j + 1 < n && want[j + 1])
            j++;
        il_buf_printf(b, "%s%u", first ? "" : ",", i + 1);
        if (j > i)
            il_buf_printf(b, "-%u", j + 1);
        first = 0;
        i = j;
    }
}

static void
script(const struct il_sweep *s, const char *plan_id, size_t runs, const unsigned char *want,
       struct il_buf *b)
{
    char cwd[IL_PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        err(1, "cannot tell the current directory");
    char *base = stem(s->output);
    il_buf_printf(b,
                  "#!/bin/sh\n"
                  "# interloper sweep: plan %s, seed %u, %zu runs in %u shards, written by\n"
                  "# interloper sweep --slurm; merge the shards with\n"
                  "#   interloper record merge -o %s %s.shard-*-of-%u.jsonl\n",
                  plan_id, s->d.seed, runs, s->slurm, s->output, base, s->slurm);
    il_buf_printf(b, "#SBATCH --job-name=interloper-%s\n", plan_id);
    il_buf_str(b, "#SBATCH --array=");
    array_spec(b, want, s->slurm);
    il_buf_str(b, "\n#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --exclusive\n");
    il_buf_printf(b, "#SBATCH --chdir=%s\n", cwd);
    il_buf_printf(b, "#SBATCH --output=%s.shard-%%a-of-%u.log\n", base, s->slurm);
    il_buf_str(b, "#SBATCH --open-mode=append\n"); /* a resubmitted array keeps the old logs */
    for (size_t i = 0; i < s->nsbatch; i++)
        il_buf_printf(b, "#SBATCH %s\n", s->sbatch[i]);
    il_buf_str(b, "set -eu\n");
    /* the front command if we came through it, else this program: the
     * submitting machine's path, which every node must have */
    const char *front = getenv(IL_V_FRONT);
    char self[IL_PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = 0;
    const char *prog = front && front[0] == '/' ? front : self;
    struct il_buf q = {0};
    il_buf_shell(&q, prog, NULL);
    il_buf_printf(b,
                  "[ -x %s ] || { echo \"interloper sweep: %s is not on node $(hostname): "
                  "install interloper at the same path on every node\" >&2; exit 127; }\n",
                  q.p, prog);
    il_buf_str(b, "exec ");
    il_buf_str(b, q.p);
    if (prog == front)
        il_buf_str(b, " sweep");
    il_buf_free(&q);
    for (size_t i = 0; i < s->nforward; i++) {
        il_buf_str(b, " ");
        il_buf_shell(b, s->forward[i], NULL);
    }
    if (!s->seed_given)
        il_buf_printf(b, " --seed %u", s->d.seed);
    if (!s->env_base_given) /* every task's setups of one size: SLURM_* absorbed */
        il_buf_printf(b, " --env-base %llu", s->env_base);
    if (!s->env_vars_given && s->env_vars) /* and of one number of variables */
        il_buf_printf(b, " --env-vars %llu", s->env_vars);
    /* each node checks that its binaries are the plan's (a build local to
     * a node would be another plan, found only at merge) */
    il_buf_str(b, " --expect-sha256 ");
    for (size_t y = 0; y < s->nsys; y++)
        for (size_t i = 0; i < (s->d.nlay ? s->d.nlay : 1); i++)
            il_buf_printf(b, "%s%s", y || i ? "," : "", s->sys[y].sha256[i]);
    il_buf_printf(b, " --shard \"$SLURM_ARRAY_TASK_ID/%u\" --output ", s->slurm);
    il_buf_shell(b, base, NULL);
    il_buf_printf(b, "\".shard-$SLURM_ARRAY_TASK_ID-of-%u.jsonl\" --", s->slurm);
    for (size_t i = 0; i < s->nargs; i++) {
        il_buf_str(b, " ");
        il_buf_shell(b, s->args[i], NULL);
    }
    il_buf_str(b, "\n");
    free(base);
}

/* Write the script; a previous one that differs is kept as SCRIPT.K (the
 * first K free), and its name returned. */
static char *
write_script(const char *path, const struct il_buf *b)
{
    size_t oldn;
    char *old = il_slurp(path, &oldn), *kept = NULL;
    if (old && (oldn != b->n || memcmp(old, b->p, oldn))) {
        for (unsigned k = 1; !kept; k++) {
            char *c = il_xasprintf("%s.%u", path, k);
            if (link(path, c) == 0)
                kept = c;
            else if (errno == EEXIST)
                free(c);
            else
                err(1, "cannot keep the previous %s as %s", path, c);
        }
    }
    free(old);
    char *tmp = il_xasprintf("%s.new", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
    if (fd < 0 || il_write_full(fd, b->p, b->n) < 0 || close(fd) < 0 || rename(tmp, path) < 0)
        err(1, "cannot write %s", path);
    free(tmp);
    return kept;
}

static void
submit(const struct il_sweep *s, const char *path)
{
    /* sbatch prints the job's id; its own options override the script's */
    char **argv = il_xcalloc(s->nsbatch + 3, sizeof *argv);
    size_t k = 0;
    argv[k++] = "sbatch";
    for (size_t i = 0; i < s->nsbatch; i++)
        argv[k++] = s->sbatch[i];
    argv[k++] = (char *)path;
    fflush(NULL);
    pid_t p = fork();
    if (p < 0)
        err(1, "fork");
    if (p == 0) {
        execvp("sbatch", argv);
        err(errno == ENOENT ? 127 : 126, "--submit: cannot run sbatch");
    }
    int st;
    while (waitpid(p, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st))
        errx(1, "--submit: sbatch %s failed; the script is there to submit by hand", path);
    free(argv);
}

int
il_slurm(struct il_sweep *s, const char *plan_id, const struct il_plan *p,
         const struct il_run *runs, size_t nruns, unsigned long long here_base,
         unsigned long long here_vars)
{
    struct shards h = {.s = s, .id = plan_id};
    read_shards(&h, p, runs, nruns);
    if (h.base >= 0)
        il_meta_env_fixed(s, h.base_path, (unsigned long long)h.base, (unsigned long long)h.vars);
    if (!s->env_base_given && h.base < 0)
        s->env_base = here_base;
    if (!s->env_vars_given && h.base < 0)
        s->env_vars = here_vars;
    if (s->status)
        return status(&h);

    /* which tasks to submit: every one the first time; then the ones whose
     * shards are not complete, unless Slurm still has them queued or running */
    unsigned char *want = il_xcalloc(s->slurm, 1);
    unsigned nwant = 0, nfiles = 0, nactive = 0;
    for (unsigned i = 0; i < s->slurm; i++)
        nfiles += h.exists[i];
    int any = 0;
    struct task_state *t = nfiles ? slurm_view(plan_id, s->slurm, 0, &any) : NULL;
    struct il_buf why = {0}, busy = {0};
    il_buf_str(&why, "");
    il_buf_str(&busy, "");
    for (unsigned i = 0; i < s->slurm; i++) {
        if (nfiles && h.done[i] == h.planned[i])
            continue;
        if (t && t[i].job && active(t[i].state)) {
            il_buf_printf(&busy, "%s%u (%s, job %s%s%s)", nactive ? ", " : "", i + 1, t[i].state,
                          t[i].jobid, t[i].node[0] ? " on " : "", t[i].node);
            nactive++;
            continue;
        }
        want[i] = 1;
        if (nfiles)
            il_buf_printf(&why, "%sshard %u has %zu of its %zu runs", nwant ? ", " : "", i + 1,
                          h.done[i], h.planned[i]);
        nwant++;
    }
    char *base = stem(s->output);
    if (nactive && !s->c.quiet)
        fprintf(stderr,
                "interloper sweep: task%s %s still in Slurm's queue: not submitted again (if "
                "a node died, Slurm says so within its SlurmdTimeout; or scancel them)\n",
                il_s(nactive), busy.p);
    if (!nwant) {
        if (!nactive)
            fprintf(stderr,
                    "interloper sweep: the %u shards of plan %s are complete (%zu runs): nothing "
                    "to submit; merge them: interloper record merge -o %s %s.shard-*-of-%u.jsonl\n",
                    s->slurm, plan_id, nruns, s->output, base, s->slurm);
        else
            fprintf(stderr, "interloper sweep: nothing to submit\n");
        free(base);
        return 0;
    }

    struct il_buf b = {0};
    script(s, plan_id, nruns, want, &b);
    if (s->c.dry) { /* -n: the script it would write; nothing written, nothing submitted */
        fputs(b.p, stdout);
        if (nfiles)
            fprintf(stderr, "interloper sweep: would submit again: %s\n", why.p);
        il_buf_free(&b);
        free(base);
        return 0;
    }
    char *path = il_xasprintf("%s.sbatch", base);
    char *kept = write_script(path, &b);
    if (!s->c.quiet || nfiles) {
        struct il_buf tasks = {0};
        il_buf_str(&tasks, "");
        if (nfiles) {
            il_buf_str(&tasks, il_pl(nwant, "task ", "tasks "));
            array_spec(&tasks, want, s->slurm);
            il_buf_str(&tasks, " of ");
        }
        fprintf(stderr,
                "interloper sweep: wrote %s, a Slurm array of %s%u shards of plan %s (seed %u, "
                "%zu runs)%s%s%s%s%s%s\n",
                path, tasks.p, s->slurm, plan_id, s->d.seed, nruns, nfiles ? ": " : "", why.p,
                kept ? "; the previous script kept as " : "", kept ? kept : "",
                s->submit ? "" : "; submit it with sbatch", "");
        il_buf_free(&tasks);
    }
    if (s->submit)
        submit(s, path);
    free(kept);
    free(path);
    free(base);
    free(t);
    free(want);
    il_buf_free(&b);
    il_buf_free(&why);
    il_buf_free(&busy);
    return 0;
}
