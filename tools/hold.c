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
 */
#include <err.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void
usage(FILE *f)
{
    fprintf(f, "usage: interloper hold [--] [CMD [ARGS...]]\n"
               "\n"
               "Hold one disabled software counter of each kind open, so that the kernel\n"
               "need not switch software events on and off for every measured process;\n"
               "run CMD meanwhile and exit with its status, or, without CMD, hold until\n"
               "interrupted.  See interloper-hold(1).\n");
}

int
main(int argc, char **argv)
{
    program_invocation_short_name = (char *)"interloper hold"; /* err(3) prefix */
    static const unsigned long kinds[] = {
        PERF_COUNT_SW_PAGE_FAULTS,      PERF_COUNT_SW_PAGE_FAULTS_MIN,
        PERF_COUNT_SW_PAGE_FAULTS_MAJ,  PERF_COUNT_SW_CONTEXT_SWITCHES,
        PERF_COUNT_SW_CPU_MIGRATIONS,   PERF_COUNT_SW_ALIGNMENT_FAULTS,
        PERF_COUNT_SW_EMULATION_FAULTS,
    };
    int first = 1;
    if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "--"))
        first = 2;
    else if (argc > 1 && argv[1][0] == '-')
        errx(1, "unknown option %s; see interloper hold --help", argv[1]);

    int held = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        struct perf_event_attr a;
        memset(&a, 0, sizeof a);
        a.size = sizeof a;
        a.type = PERF_TYPE_SOFTWARE;
        a.config = kinds[i];
        a.disabled = 1;
        a.exclude_kernel = 1;
        if (syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC) >= 0)
            held++;
    }
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

    pid_t p = fork();
    if (p < 0)
        err(1, "fork");
    if (p == 0) {
        execvp(argv[first], &argv[first]);
        err(errno == ENOENT ? 127 : 126, "cannot execute %s", argv[first]);
    }
    /* the command's terminal signals are its own; we only wait */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    int st;
    while (waitpid(p, &st, 0) < 0)
        if (errno != EINTR)
            err(1, "waitpid");
    if (WIFSIGNALED(st)) {
        /* die the same way, so our caller sees the command's ending */
        signal(WTERMSIG(st), SIG_DFL);
        raise(WTERMSIG(st));
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
