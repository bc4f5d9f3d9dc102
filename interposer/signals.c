/*
 * signals.c: a fatal signal still writes the record, and the process still
 * dies of that signal, so its parent sees the same wait status.
 *
 * Before main, for every signal whose default action ends the process and
 * whose disposition is still SIG_DFL, il_on_signal is installed.  It writes
 * the record on a stack of its own (the program's alternate signal stack,
 * if it has one, may be far too small for us), restores SIG_DFL, and ends
 * the process as the signal would have:
 *   - a fault raised by the hardware (SIGSEGV, SIGBUS, SIGILL, SIGFPE with
 *     si_code > 0) is left to happen again: returning re-runs the faulting
 *     instruction, and the default action takes it with its own siginfo,
 *     so a core dump shows the real fault, not us;
 *   - anything else is re-raised to this thread and unblocked.
 * Signals the program inherited as ignored (nohup, background jobs) are
 * left alone.  As pid 1 (a container's init) SIG_DFL means "ignore" for
 * signals from outside, so only the synchronous ones are installed there.
 *
 * The program must not notice: our sigaction(), signal(), bsd_signal() and
 * sysv_signal() keep the program's view.  Asking for the disposition
 * answers with what the program set (SIG_DFL at first); setting SIG_DFL
 * keeps our handler in place; setting a handler or SIG_IGN installs it for
 * real, and our handler is back when the program returns to SIG_DFL.  The
 * pattern is libmonitor's signal.c.  Because glibc's sigset(), ssignal()
 * and sigignore() change dispositions past any hook, every call checks
 * what is really installed before trusting its own notes.  A one-shot
 * handler (SA_RESETHAND, as sysv_signal sets) is run through il_oneshot,
 * so that the "reset to SIG_DFL" lands on our handler, not on a bare
 * SIG_DFL that would lose the record.
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
/* The program's view of a signal we hold.  Until the program sets one it
 * is SIG_DFL with the flags the kernel reported at install and an empty
 * mask, so the table of full sigactions is written only when the program
 * sets SIG_DFL itself: its pages stay untouched in most processes. */
static struct sigaction view[_NSIG];
static unsigned char view_set[_NSIG];
static int dfl_flags[_NSIG];
/* one-shot handlers, run through il_oneshot */
static struct sigaction oneshot[_NSIG];
static int installed;

/* the handler's own stack; taken by the first thread that needs it */
static char handler_stack[64 << 10] __attribute__((aligned(16)));
static volatile int handler_stack_taken;

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

/* raised by the process itself: the ones that end even pid 1 */
static int
synchronous(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
           sig == SIGSYS || sig == SIGTRAP || sig == SIGABRT;
}

static struct sigaction
view_of(int sig)
{
    struct sigaction sa;
    if (view_set[sig])
        return view[sig];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sa.sa_flags = dfl_flags[sig];
    sigemptyset(&sa.sa_mask);
    return sa;
}

static int
signal_work(int sig, char **unused1, char **unused2)
{
    (void)unused1;
    (void)unused2;
    return il_finish(IL_HOW_SIGNAL, 0, sig, NULL);
}

static void
il_on_signal(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    int saved = errno;
    int mine = il.pid == getpid(); /* not a vfork child sharing our memory */
    int wrote;
#if IL_HAVE_TRAMPOLINE
    int free_ = 0;
    if (__atomic_compare_exchange_n(&handler_stack_taken, &free_, 1, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST)) {
        uintptr_t top = ((uintptr_t)handler_stack + sizeof handler_stack) & ~(uintptr_t)15;
        wrote = il_call_on_stack(top, signal_work, sig, NULL, NULL);
        __atomic_store_n(&handler_stack_taken, 0, __ATOMIC_SEQ_CST);
    } else
#endif
        wrote = signal_work(sig, NULL, NULL);

    /* This very thread already wrote the record for another ending, and
     * is on its way to it (a signal slipped in between our write and the
     * real _exit): end as the record says, not by this signal. */
    if (mine && !wrote && il.phase == IL_PHASE_DONE && il.finisher == il_gettid() &&
        il.finished_how != IL_HOW_SIGNAL && il.finished_how != IL_HOW_EXEC) {
        errno = saved;
        return;
    }

    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    real_sigaction(sig, &dfl, NULL);
    if (mine)
        ours[sig] = 0;
    if (info && info->si_code > 0 &&
        (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE)) {
        errno = saved;
        return; /* the instruction faults again, under SIG_DFL */
    }
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

/*
 * A handler the program set with SA_RESETHAND: the kernel would reset the
 * disposition to SIG_DFL on delivery.  For us SIG_DFL means our handler,
 * so put that back first, then run the program's handler as it asked.
 */
static void
il_oneshot(int sig, siginfo_t *info, void *uctx)
{
    struct sigaction h = oneshot[sig], sa;
    our_action(&sa);
    real_sigaction(sig, &sa, NULL);
    if (il.pid == getpid()) {
        ours[sig] = 1;
        view_set[sig] = 0;
    }
    if (h.sa_flags & SA_SIGINFO)
        h.sa_sigaction(sig, info, uctx);
    else if (h.sa_handler != SIG_DFL && h.sa_handler != SIG_IGN)
        h.sa_handler(sig);
}

void
il_signals_install(void)
{
    if (installed)
        return;
    int pid1 = getpid() == 1;
    struct sigaction sa, prev;
    sigset_t all, old;
    our_action(&sa);
    /* Install first and put back anything that was not SIG_DFL; with all
     * signals blocked, nothing can arrive in between. */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    for (int sig = 1; sig < _NSIG; sig++) {
        if (!fatal_by_default(sig) || (pid1 && !synchronous(sig)) ||
            real_sigaction(sig, &sa, &prev) < 0)
            continue;
        if (prev.sa_handler == SIG_DFL && !(prev.sa_flags & SA_SIGINFO)) {
            ours[sig] = 1;
            dfl_flags[sig] = prev.sa_flags;
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
    /* what is really installed, whatever our notes say */
    struct sigaction cur, before;
    int rc = real_sigaction(sig, NULL, &cur);
    int was = rc == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == il_on_signal;
    int one = rc == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == il_oneshot;
    before = was ? view_of(sig) : one ? oneshot[sig] : cur;
    ours[sig] = was;
    if (rc == 0 && act) {
        if (act->sa_handler == SIG_DFL) {
            if (!was) {
                struct sigaction sa;
                our_action(&sa);
                rc = real_sigaction(sig, &sa, NULL);
            }
            if (rc == 0) {
                view[sig] = *act;
                view_set[sig] = 1;
                ours[sig] = 1;
            }
        } else if (act->sa_handler != SIG_IGN && (act->sa_flags & SA_RESETHAND)) {
            struct sigaction w = *act;
            w.sa_sigaction = il_oneshot;
            w.sa_flags = (act->sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
            oneshot[sig] = *act;
            rc = real_sigaction(sig, &w, NULL);
            if (rc == 0)
                ours[sig] = 0;
        } else {
            rc = real_sigaction(sig, act, NULL);
            if (rc == 0)
                ours[sig] = 0;
        }
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
    if (sig <= 0 || sig >= _NSIG || h == SIG_ERR) {
        errno = EINVAL;
        return SIG_ERR;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (!(flags & SA_NODEFER))
        sigaddset(&sa.sa_mask, sig);
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
