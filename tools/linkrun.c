/*
 * linkrun.c: interloper link's children (link.h): the links and nm, each
 * in a process group of its own, so that SIGINT or SIGTERM stops them and
 * whatever they started (collect2, ld) before the work directory is
 * removed.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "link.h"

volatile int il_interrupted;
static volatile pid_t running[IL_MAX_JOBS + 1];

static void
on_signal(int sig)
{
    il_interrupted = sig;
    for (int i = 0; i <= IL_MAX_JOBS; i++)
        if (running[i] > 0)
            kill(-running[i], sig); /* the child and whatever it started */
}

void
il_catch_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    /* restarted: a read, write or open the signal interrupts goes on (its
     * caller then sees il_interrupted at the next wait or run) instead of
     * failing with EINTR and exit 1 where 143 is due (link.sh's SIGTERM
     * case got 1 once, with two CI clones at once) */
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static int
open_out(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        err(1, "cannot create %s", path);
    return fd;
}

pid_t
il_start_to(char *const *argv, const char *dir, const char *out, const char *errpath)
{
    int fd = open_out(out), efd = errpath == out ? fd : errpath ? open_out(errpath) : -1;
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    /* blocked until the child is in running[], so that a signal reaches it */
    sigprocmask(SIG_BLOCK, &block, &old);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        err(1, "cannot fork");
    if (pid == 0) {
        setpgid(0, 0);
        sigprocmask(SIG_SETMASK, &old, NULL);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            if (efd < 0)
                efd = null;
        }
        dup2(fd, 1);
        dup2(efd, 2);
        if (dir && chdir(dir) < 0) {
            dprintf(2, "cannot change to directory %s: %s\n", dir, strerror(errno));
            _exit(127);
        }
        execvp(argv[0], argv);
        dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    for (int i = 0; i <= IL_MAX_JOBS; i++)
        if (running[i] <= 0) {
            running[i] = pid;
            break;
        }
    sigprocmask(SIG_SETMASK, &old, NULL);
    close(fd);
    if (efd >= 0 && efd != fd)
        close(efd);
    return pid;
}

pid_t
il_wait(int *status)
{
    int st;
    pid_t pid;
    while ((pid = waitpid(-1, &st, 0)) < 0)
        if (errno != EINTR) {
            if (il_interrupted) /* no child left: the signal's status */
                exit(128 + il_interrupted);
            err(1, "waitpid");
        }
    for (int i = 0; i <= IL_MAX_JOBS; i++)
        if (running[i] == pid)
            running[i] = 0;
    *status = WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WEXITSTATUS(st);
    return pid;
}

void
il_stop_all(void)
{
    for (int i = 0; i <= IL_MAX_JOBS; i++) {
        pid_t pid = running[i];
        if (pid <= 0)
            continue;
        kill(-pid, SIGTERM);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        running[i] = 0;
    }
}

int
il_run_to(char *const *argv, const char *dir, const char *out, const char *errpath)
{
    if (il_interrupted)
        exit(128 + il_interrupted);
    pid_t pid = il_start_to(argv, dir, out, errpath), got;
    int st;
    do
        got = il_wait(&st);
    while (got != pid);
    if (il_interrupted)
        exit(128 + il_interrupted);
    return st;
}
