/*
 * interloper-hold: keep the kernel's software-event switches on while an
 * experiment runs.
 *
 * The first perf_event_open(2) of a software event of a kind (page-faults,
 * context-switches, ...) anywhere on the system turns on a static key,
 * which patches kernel text, and the last close turns it off again.  A
 * short measured process pays both, for each kind, which on the
 * development VM is about 300 us per process.  Holding one disabled
 * counter of each kind for the length of an experiment keeps the keys on,
 * so each measured process pays nothing for them.  The held counters count
 * nothing (they are never enabled) and are not inherited.
 *
 *   interloper hold [--] CMD [ARGS...]   run CMD while holding, return its status
 *   interloper hold                      hold until interrupted
 *
 * It never outlives what started it: when its parent ends, even by
 * SIGKILL, the kernel sends it SIGTERM (PR_SET_PDEATHSIG), which it passes
 * on to CMD.  interloper sweep holds by itself (holdev.c) and starts no
 * hold.
 */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "il_tools.h"

static const struct il_cmd cmd = {
    .name = "interloper hold",
    .synopsis = "[--] [CMD [ARGS...]]",
    .about = "Hold one disabled software counter of each kind open, so that the kernel\n"
             "need not switch software events on and off for every measured process;\n"
             "run CMD meanwhile and exit with its status, or, without CMD, hold until\n"
             "interrupted.",
    .man = "interloper-hold(1)",
};

static volatile pid_t child;

static void
pass_on(int sig)
{
    if (child > 0)
        kill(child, sig);
}

int
main(int argc, char **argv)
{
    struct il_optp op;
    il_opt_init(&op, &cmd, argc, argv);
    while (il_opt_next(&op))
        ; /* none but --help */
    int first = op.i;

    /* end with the parent: SIGTERM, then the same as an interrupt */
    pid_t parent = getppid();
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
        err(1, "prctl(PR_SET_PDEATHSIG)");
    if (getppid() != parent)
        return 0; /* the parent is gone already */
    int held = il_hold_events();
    if (!held)
        errx(1, "perf_event_open refused every software event (%s); nothing to hold",
             strerror(errno));

    if (first >= argc) {
        sigset_t s;
        int sig;
        sigemptyset(&s);
        sigaddset(&s, SIGINT);
        sigaddset(&s, SIGTERM);
        sigaddset(&s, SIGHUP);
        sigprocmask(SIG_BLOCK, &s, NULL);
        fprintf(stderr, "interloper hold: holding %d software events; interrupt to stop\n", held);
        sigwait(&s, &sig);
        return 0;
    }

    /* the command's terminal signals are its own; TERM and HUP sent to us
     * are passed on, so that it does not outlive us either */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = pass_on;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigset_t pass, old;
    sigemptyset(&pass);
    sigaddset(&pass, SIGTERM);
    sigaddset(&pass, SIGHUP);
    sigprocmask(SIG_BLOCK, &pass, &old);
    pid_t p = fork();
    if (p < 0)
        err(1, "fork");
    if (p == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        execvp(argv[first], &argv[first]);
        err(errno == ENOENT ? 127 : 126, "cannot execute %s", argv[first]);
    }
    child = p;
    sigprocmask(SIG_SETMASK, &old, NULL);
    int st;
    while (waitpid(p, &st, 0) < 0)
        if (errno != EINTR)
            err(1, "waitpid");
    if (WIFSIGNALED(st)) {
        /* die the same way, so our caller sees the command's ending */
        signal(WTERMSIG(st), SIG_DFL);
        prctl(PR_SET_PDEATHSIG, 0);
        raise(WTERMSIG(st));
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
