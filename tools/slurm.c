/*
 * slurm.c: --slurm N writes a Slurm job-array script whose task
 * $SLURM_ARRAY_TASK_ID runs shard I of N of the same plan (the same
 * command, seed fixed), one node per task and the node to itself
 * (--exclusive: measurements must not share a machine), each shard writing
 * its own results file; with --submit, sbatch submits it.  interloper
 * record merge then checks the shards against the plan.  Slurm schedules;
 * interloper writes no scheduler of its own.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep.h"

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

void
il_slurm(const struct il_sweep *s, const char *plan_id, size_t runs)
{
    char cwd[IL_PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        err(1, "cannot tell the current directory");
    char *base = stem(s->output);
    char *script = il_xasprintf("%s.sbatch", base);
    struct il_buf b = {0};
    il_buf_printf(&b,
                  "#!/bin/sh\n"
                  "# interloper sweep: plan %s, seed %u, %zu runs in %u shards, written by\n"
                  "# interloper sweep --slurm; merge the shards with\n"
                  "#   interloper record merge -o %s %s.shard-*-of-%u.jsonl\n",
                  plan_id, s->d.seed, runs, s->slurm, s->output, base, s->slurm);
    il_buf_printf(&b, "#SBATCH --job-name=interloper-%s\n", plan_id);
    il_buf_printf(&b, "#SBATCH --array=1-%u\n", s->slurm);
    il_buf_str(&b, "#SBATCH --nodes=1\n#SBATCH --ntasks=1\n#SBATCH --exclusive\n");
    il_buf_printf(&b, "#SBATCH --chdir=%s\n", cwd);
    il_buf_printf(&b, "#SBATCH --output=%s.shard-%%a-of-%u.log\n", base, s->slurm);
    il_buf_str(&b, "#SBATCH --open-mode=append\n"); /* a resubmitted array keeps the old logs */
    for (size_t i = 0; i < s->nsbatch; i++)
        il_buf_printf(&b, "#SBATCH %s\n", s->sbatch[i]);
    il_buf_str(&b, "set -eu\nexec ");
    /* the front command if we came through it, else this program */
    const char *front = getenv(IL_V_FRONT);
    char self[IL_PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = 0;
    if (front && front[0] == '/') {
        il_buf_shell(&b, front, NULL);
        il_buf_str(&b, " sweep");
    } else {
        il_buf_shell(&b, self, NULL);
    }
    for (size_t i = 0; i < s->nforward; i++) {
        il_buf_str(&b, " ");
        il_buf_shell(&b, s->forward[i], NULL);
    }
    if (!s->seed_given)
        il_buf_printf(&b, " --seed %u", s->d.seed);
    if (!s->env_base_given) /* every task's setups of one size: SLURM_* absorbed */
        il_buf_printf(&b, " --env-base %llu", s->env_base);
    il_buf_printf(&b, " --shard \"$SLURM_ARRAY_TASK_ID/%u\" --output ", s->slurm);
    il_buf_shell(&b, base, NULL);
    il_buf_printf(&b, "\".shard-$SLURM_ARRAY_TASK_ID-of-%u.jsonl\" --", s->slurm);
    for (size_t i = 0; i < s->nargs; i++) {
        il_buf_str(&b, " ");
        il_buf_shell(&b, s->args[i], NULL);
    }
    il_buf_str(&b, "\n");

    if (s->c.dry) { /* -n: the script it would write; nothing written, nothing submitted */
        fputs(b.p, stdout);
        free(script);
        free(base);
        il_buf_free(&b);
        return;
    }
    char *tmp = il_xasprintf("%s.new", script);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
    if (fd < 0 || il_write_full(fd, b.p, b.n) < 0 || close(fd) < 0 || rename(tmp, script) < 0)
        err(1, "cannot write %s", script);
    if (!s->c.quiet)
        fprintf(stderr,
                "interloper sweep: wrote %s, a Slurm array of %u shards of plan %s (seed %u, "
                "%zu runs)%s\n",
                script, s->slurm, plan_id, s->d.seed, runs,
                s->submit ? "" : "; submit it with sbatch");
    if (s->submit) {
        /* sbatch prints the job's id; its own options override the script's */
        char **argv = il_xcalloc(s->nsbatch + 3, sizeof *argv);
        size_t k = 0;
        argv[k++] = "sbatch";
        for (size_t i = 0; i < s->nsbatch; i++)
            argv[k++] = s->sbatch[i];
        argv[k++] = script;
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
            errx(1, "--submit: sbatch %s failed; the script is there to submit by hand", script);
    }
    free(tmp);
    free(script);
    free(base);
    il_buf_free(&b);
}
