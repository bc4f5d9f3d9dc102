/*
 * interloper-cc: a compiler/linker shim for CC, LD (or SPEC CPU's CC and
 * CLD).  It runs the real compiler unchanged; when the invocation is a
 * successful final link of .o files it appends the command (working
 * directory and argv) to a links file, one record per line (linkcmd.h),
 * so that `interloper link --replay FILE` can relink the same objects in
 * other orders (Mytkowicz et al., ASPLOS'09, section 4.1).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "il_names.h"
#include "il_opt.h"
#include "linkcmd.h"

enum { O_CC = 1, O_LINKS };

static const struct il_opt opts[] = {
    {"cc", 0, IL_OPT_VALUE, "COMPILER",
     "the real compiler or linker, split at blanks\n"
     "(default $INTERLOPER_CC, else cc)",
     O_CC},
    {"links", 0, IL_OPT_VALUE, "FILE",
     "where links are recorded\n"
     "(default $INTERLOPER_CC_LINKS, else ./interloper-links)",
     O_LINKS},
    {0},
};

/* The options come before the compiler's arguments, which may be anything
 * (-h is ld's soname): the first word that is not one of ours, or "--",
 * ends them. */
static const struct il_cmd cc_cmd = {
    .name = "interloper cc",
    .synopsis = "[--cc COMPILER] [--links FILE] [--] COMPILER-ARGS...",
    .about = "Run COMPILER with COMPILER-ARGS.  When they make a final link of .o\n"
             "files (no -c, -S, -E, -M, -MM, -r) and it succeeds, append the command to\n"
             "FILE as one line, for `interloper link --replay FILE`.  The compiler's\n"
             "output and exit status are passed through unchanged.  The options come\n"
             "before the compiler's arguments; -- ends them, and so does any word\n"
             "that is not one of them (-h is the compiler's).",
    .more = "Use it as CC in a Makefile:\n"
            "  make CC='interloper cc --cc gcc --links /abs/links --'",
    .man = "interloper-cc(1) and interloper-link(1)",
    .opts = opts,
    .passthrough = 1,
};

/* The working directory as sh's pwd prints it: $PWD when it names this
 * directory (keeping the user's symbolic links), else the physical path. */
static char *
cwd(void)
{
    const char *pwd = getenv("PWD");
    struct stat a, b;
    if (pwd && pwd[0] == '/' && stat(pwd, &a) == 0 && stat(".", &b) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino)
        return il_xstrdup(pwd);
    char *p = getcwd(NULL, 0);
    if (!p)
        err(1, "cannot get the current directory");
    return p;
}

int
main(int argc, char **argv)
{
    const char *cc = getenv(IL_V_CC), *links = getenv(IL_V_CC_LINKS);
    if (!cc)
        cc = "cc";
    if (!links)
        links = "interloper-links";
    struct il_optp p;
    const struct il_opt *o;
    il_opt_init(&p, &cc_cmd, argc, argv);
    while ((o = il_opt_next(&p)))
        *(o->id == O_CC ? &cc : &links) = p.val;
    int i = p.i;
    if (!*links)
        errx(1, "the record file is empty; set --links or INTERLOPER_CC_LINKS");
    /* A shim that calls itself would loop forever. */
    const char *active = getenv(IL_V_CC_ACTIVE);
    if (active && *active)
        errx(1,
             "the real compiler '%s' runs interloper cc again; set --cc or INTERLOPER_CC to "
             "a compiler",
             cc);

    /* The real command: the compiler words (split at blanks on purpose, as
     * make splits $(CC)), then the arguments. */
    struct il_strv cmd = {0};
    char *words = il_xstrdup(cc), *save = NULL;
    for (char *w = strtok_r(words, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save))
        il_strv_push(&cmd, w);
    free(words);
    if (!cmd.n)
        errx(1, "the real compiler is empty; set --cc or INTERLOPER_CC (e.g. gcc)");
    for (int j = i; j < argc; j++)
        il_strv_push(&cmd, argv[j]);
    /* Record the compiler by absolute path, so that a replay runs the very
     * same one whatever PATH is then. */
    char *real = il_which(cmd.v[0]);
    if (!real)
        errx(1,
             "the real compiler '%s' is not found; set --cc or INTERLOPER_CC to a compiler "
             "in PATH",
             cmd.v[0]);
    if (setenv(IL_V_CC_ACTIVE, "1", 1) < 0)
        err(1, "setenv");

    /* Is this a final link of object files? */
    struct il_scan s;
    il_scan(cmd.v, cmd.n, &s);
    int link = !s.compile_only && s.nobj > 0;
    il_scan_free(&s);
    if (!link) {
        execvp(cmd.v[0], cmd.v);
        err(127, "cannot run %s", cmd.v[0]);
    }

    pid_t pid = fork();
    if (pid < 0)
        err(1, "cannot fork");
    if (pid == 0) {
        execvp(cmd.v[0], cmd.v);
        warn("cannot run %s", cmd.v[0]);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            err(1, "waitpid");
    if (WIFSIGNALED(st)) {
        /* the compiler's death, passed on as it happened */
        signal(WTERMSIG(st), SIG_DFL);
        raise(WTERMSIG(st));
        return 128 + WTERMSIG(st);
    }
    if (WEXITSTATUS(st) != 0)
        return WEXITSTATUS(st);

    struct il_buf line = {0};
    il_buf_str(&line, IL_LINK_RECORD " ");
    char *dir = cwd();
    il_record_quote(&line, dir);
    il_buf_str(&line, " ");
    il_record_quote(&line, real);
    for (size_t j = 1; j < cmd.n; j++) {
        il_buf_str(&line, " ");
        il_record_quote(&line, cmd.v[j]);
    }
    il_buf_str(&line, "\n");
    /* One write(2) with O_APPEND: records of parallel links (make -j)
     * never interleave. */
    int fd = open(links, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
    ssize_t w = fd < 0 ? -1 : write(fd, line.p, line.n);
    if (fd < 0 || w != (ssize_t)line.n || close(fd) < 0)
        errx(1, "the link succeeded but cannot be recorded in '%s': %s", links,
             fd < 0 || w < 0 ? strerror(errno) : "short write");
    return 0;
}
