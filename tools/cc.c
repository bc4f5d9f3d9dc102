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

#include "linkcmd.h"

static void
usage(void)
{
    fputs("usage: interloper cc [--cc COMPILER] [--links FILE] [--] COMPILER-ARGS...\n"
          "\n"
          "Run COMPILER with COMPILER-ARGS.  When they make a final link of .o\n"
          "files (no -c, -S, -E, -M, -MM, -r) and it succeeds, append the command to\n"
          "FILE as one line, for `interloper link --replay FILE`.  The compiler's\n"
          "output and exit status are passed through unchanged.\n"
          "\n"
          "options (before the compiler's arguments; -- ends them):\n"
          "  --cc COMPILER   the real compiler or linker, split at blanks\n"
          "                  (default $INTERLOPER_CC, else cc)\n"
          "  --links FILE    where links are recorded\n"
          "                  (default $INTERLOPER_CC_LINKS, else ./interloper-links)\n"
          "  --help          this text\n"
          "\n"
          "Use it as CC in a Makefile:\n"
          "  make CC='interloper cc --cc gcc --links /abs/links --'\n"
          "See interloper-cc(1) and interloper-link(1).\n",
          stdout);
}

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
    program_invocation_short_name = (char *)"interloper cc"; /* err(3) prefix */
    const char *cc = getenv("INTERLOPER_CC"), *links = getenv("INTERLOPER_CC_LINKS");
    if (!cc)
        cc = "cc";
    if (!links)
        links = "interloper-links";
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--cc") || !strcmp(a, "--links")) {
            if (i + 1 >= argc)
                errx(1, "option %s needs a value, %s", a,
                     a[2] == 'c' ? "the real compiler" : "the record file");
            *(a[2] == 'c' ? &cc : &links) = argv[++i];
        } else if (!strncmp(a, "--cc=", 5)) {
            cc = a + 5;
        } else if (!strncmp(a, "--links=", 8)) {
            links = a + 8;
        } else if (!strcmp(a, "--help")) {
            usage();
            return 0;
        } else if (!strcmp(a, "--")) {
            i++;
            break;
        } else {
            break; /* the compiler's own arguments start here */
        }
    }
    if (!*links)
        errx(1, "the record file is empty; set --links or INTERLOPER_CC_LINKS");
    /* A shim that calls itself would loop forever. */
    const char *active = getenv("INTERLOPER_CC_ACTIVE");
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
    if (setenv("INTERLOPER_CC_ACTIVE", "1", 1) < 0)
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
