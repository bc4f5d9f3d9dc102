/*
 * signals.c: a fatal signal still writes the record, and the process still
 * dies of that signal, so its parent sees the same wait status.
 *
 * Before main, for every signal whose default action ends the process and
 * whose disposition is still SIG_DFL, il_on_signal is installed.  It writes
 * the record, restores SIG_DFL, re-raises the signal to this thread and
 * unblocks it: the default action then happens exactly as it would have
 * (core dump included).  Signals the program inherited as ignored (nohup,
 * background jobs) are left alone.  As pid 1 (a container's init) SIG_DFL
 * means "ignore", so nothing is installed there.
 *
 * The program must not notice: our sigaction(), signal(), bsd_signal()
 * and sysv_signal() keep the program's view.  Asking for the disposition
 * answers with what the program set (SIG_DFL at first); setting SIG_DFL
 * keeps our handler in place; setting a handler or SIG_IGN installs it
 * for real, and our handler is back when the program returns to SIG_DFL.
 * The pattern is libmonitor's signal.c.
 *
 * Not covered, and documented: SIGKILL; a stack overflow with no
 * alternate stack (the kernel cannot run any handler); a program that
 * calls the rt_sigaction system call directly.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "il.h"

static volatile sig_atomic_t ours[_NSIG];
/* The program's view of a signal we hold: until the program sets one,
 * SIG_DFL with no flags and an empty mask (what exec leaves), so the
 * table is written only when the program asks for SIG_DFL itself; that
 * keeps its pages untouched in most processes. */
static struct sigaction view[_NSIG];
static unsigned char view_set[_NSIG];
static int installed;

static struct sigaction
view_of(int sig)
{
    struct sigaction sa;
    if (view_set[sig])
        return view[sig];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    return sa;
}

static int
fatal_by_default(int sig)
{
    switch (sig) {
    case SIGHUP:
    case SIGINT:
    case SIGQUIT:
    case SIGILL:
    case SIGTRAP:
    case SIGABRT:
    case SIGBUS:
    case SIGFPE:
    case SIGUSR1:
    case SIGSEGV:
    case SIGUSR2:
    case SIGPIPE:
    case SIGALRM:
    case SIGTERM:
    case SIGSTKFLT:
    case SIGXCPU:
    case SIGXFSZ:
    case SIGVTALRM:
    case SIGPROF:
    case SIGIO:
    case SIGPWR:
    case SIGSYS:
        return 1;
    }
    return sig >= SIGRTMIN && sig <= SIGRTMAX;
}

static void
il_on_signal(int sig, siginfo_t *info, void *uctx)
{
    (void)info;
    (void)uctx;
    int saved = errno;
    il_finish(IL_HOW_SIGNAL, 0, sig, NULL);

    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    real_sigaction(sig, &dfl, NULL);
    ours[sig] = 0;
    syscall(SYS_tgkill, getpid(), il_gettid(), sig);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    pthread_sigmask(SIG_UNBLOCK, &s, NULL);
    /* Still alive: the default action did not end us (pid 1 in a PID
     * namespace).  Carry on as the program would have. */
    errno = saved;
}

static void
our_action(struct sigaction *sa)
{
    memset(sa, 0, sizeof *sa);
    sa->sa_sigaction = il_on_signal;
    sa->sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigfillset(&sa->sa_mask);
}

void
il_signals_install(void)
{
    if (installed || getpid() == 1)
        return;
    struct sigaction sa, prev;
    sigset_t all, old;
    our_action(&sa);
    /* Install first and put back anything that was not SIG_DFL; with all
     * signals blocked, nothing can arrive in between. */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    for (int sig = 1; sig < _NSIG; sig++) {
        if (!fatal_by_default(sig) || real_sigaction(sig, &sa, &prev) < 0)
            continue;
        if (prev.sa_handler == SIG_DFL && !(prev.sa_flags & SA_SIGINFO)) {
            ours[sig] = 1;
        } else {
            real_sigaction(sig, &prev, NULL);
        }
    }
    installed = 1;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

IL_EXPORT int
sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
    il_resolve_reals();
    if (!installed || sig <= 0 || sig >= _NSIG || !fatal_by_default(sig))
        return real_sigaction(sig, act, oact);

    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = 0, was = ours[sig];
    struct sigaction before;
    memset(&before, 0, sizeof before);
    if (was)
        before = view_of(sig);
    if (act && act->sa_handler == SIG_DFL) {
        if (!was) {
            struct sigaction sa;
            our_action(&sa);
            rc = real_sigaction(sig, &sa, &before);
        }
        if (rc == 0) {
            view[sig] = *act;
            view_set[sig] = 1;
            ours[sig] = 1;
        }
    } else if (act) {
        struct sigaction tmp;
        rc = real_sigaction(sig, act, &tmp);
        if (rc == 0) {
            if (!was)
                before = tmp;
            ours[sig] = 0;
        }
    } else if (!was) {
        rc = real_sigaction(sig, NULL, &before);
    }
    int err = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc == 0 && oact)
        *oact = before;
    errno = err;
    return rc;
}

static sighandler_t
set_handler(int sig, sighandler_t h, int flags)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (!(flags & SA_NODEFER) && sig > 0 && sig < _NSIG)
        sigaddset(&sa.sa_mask, sig);
    if (sig <= 0 || sig >= _NSIG || h == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    if (sigaction(sig, &sa, &old) < 0)
        return SIG_ERR;
    return old.sa_handler;
}

IL_EXPORT sighandler_t bsd_signal(int sig, sighandler_t h);
IL_EXPORT sighandler_t sysv_signal(int sig, sighandler_t h);

/* glibc's signal() has BSD semantics: handlers stay, calls restart. */
IL_EXPORT sighandler_t
signal(int sig, sighandler_t h)
{
    return set_handler(sig, h, SA_RESTART);
}

IL_EXPORT sighandler_t
bsd_signal(int sig, sighandler_t h)
{
    return set_handler(sig, h, SA_RESTART);
}

IL_EXPORT sighandler_t
sysv_signal(int sig, sighandler_t h)
{
    return set_handler(sig, h, SA_RESETHAND | SA_NODEFER);
}
