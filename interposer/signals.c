/*
 * signals.c: a fatal signal still writes the record, and the process still
 * dies of that signal, so its parent sees the same wait status.
 *
 * Before main, for each signal the library holds (held(): the ones
 * programs end by) whose disposition is still SIG_DFL, il_on_signal is
 * installed.  It writes
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
 * SIG_DFL that would lose the record; afterwards the program sees
 * SIG_DFL with the flags and mask it had set, as the kernel would show.
 *
 * The handler runs il_finish (finish.c): the first ending claims the
 * process; a thread that gets a fatal signal while another thread is
 * already ending the process waits for that ending instead.
 *
 * Not covered, and documented: SIGKILL; a stack overflow with no
 * alternate stack (the kernel cannot run any handler); a program that
 * calls the rt_sigaction system call directly.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "il.h"
#include "sys.h"

/* The program's view of a signal we hold.  Until the program sets one it
 * is SIG_DFL with the flags the kernel reported at install and an empty
 * mask, so the table of full sigactions is written only when the program
 * sets SIG_DFL itself: its pages stay untouched in most processes. */
static struct sigaction view[_NSIG];
static unsigned char view_set[_NSIG];
/* one-shot handlers, run through il_oneshot, as the program set them and
 * as the kernel reported them back */
static struct sigaction oneshot[_NSIG];

/* the handler's own stack; taken by the first thread that needs it */
static char handler_stack[64 << 10] __attribute__((aligned(16)));
static volatile int handler_stack_taken;

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000 /* the kernel's; glibc sets it and reports it back */
#endif

/* glibc's sigaction, under its exported alias (no dlsym needed) */
extern int __sigaction(int, const struct sigaction *, struct sigaction *);

/* glibc's sigset_t holds 1024 bits; sigemptyset and friends would each
 * be an import */
static void
mask_fill(sigset_t *m, int full)
{
    memset(m, full ? 0xff : 0, sizeof *m);
}

static void
mask_add(sigset_t *m, int sig)
{
    unsigned long *w = (unsigned long *)m;
    w[(sig - 1) / (8 * sizeof *w)] |= 1UL << ((sig - 1) % (8 * sizeof *w));
}

/*
 * The signals the library holds: those whose default action ends the
 * process and that programs are ended by: crashes (SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS), terminals, kill(1) and
 * timeout(1) (SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGALRM, SIGUSR1, SIGUSR2),
 * pipes (SIGPIPE) and resource limits (SIGXCPU, SIGXFSZ).  Each costs
 * every measured process a system call before main, so the others that
 * end a process by default (SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT
 * and the real-time signals: 36 in all, one a program that sets them up
 * handles itself) are left alone: a process they end has no record, as
 * one SIGKILL ends (libinterloper(7)), and interloper sweep records such
 * a run as failed.
 */
static const unsigned char held_signals[] = {
    SIGHUP,  SIGINT,  SIGQUIT, SIGILL,  SIGTRAP, SIGABRT, SIGBUS,  SIGFPE, SIGUSR1,
    SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGXCPU, SIGXFSZ, SIGSYS,
};

static int
held(int sig)
{
    for (size_t i = 0; i < sizeof held_signals; i++)
        if (held_signals[i] == sig)
            return 1;
    return 0;
}

/* raised by the process itself: the ones that end even pid 1 */
static int
synchronous(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGSYS ||
           sig == SIGTRAP || sig == SIGABRT;
}

static struct sigaction
view_of(int sig)
{
    struct sigaction sa;
    if (view_set[sig])
        return view[sig];
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sa.sa_flags = il.sig_dfl_flags[sig];
    return sa;
}

static int
signal_work(int sig, char **unused1, char **unused2)
{
    (void)unused1;
    (void)unused2;
    return il_finish(IL_HOW_SIGNAL, 0, sig, NULL, NULL);
}

static void
il_on_signal(int sig, siginfo_t *info, void *uctx)
{
    (void)uctx;
    int saved = errno;
    int mine = il_measured(); /* not a vfork child sharing our memory */
    int fault = info && info->si_code > 0 &&
                (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE);
    int free_ = 0;
    if (__atomic_compare_exchange_n(&handler_stack_taken, &free_, 1, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST)) {
        uintptr_t top = ((uintptr_t)handler_stack + sizeof handler_stack) & ~(uintptr_t)15;
        il_call_on_stack(top, signal_work, sig, NULL, NULL);
        __atomic_store_n(&handler_stack_taken, 0, __ATOMIC_SEQ_CST);
    } else {
        signal_work(sig, NULL, NULL);
    }

    /* This very thread may already have written the record for another
     * ending: exit's, and be in glibc's final stdio flush (_exit and
     * quick_exit keep signals blocked from their record to the end).
     * The signal still ends the process, as it would without us, though
     * the record names the exit it was written for: swallowing it would
     * leave a program blocked in that flush deaf to SIGTERM. */

    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    __sigaction(sig, &dfl, NULL);
    if (mine)
        il.sig_ours[sig] = 0;
    if (fault) {
        errno = saved;
        return; /* the instruction faults again, under SIG_DFL */
    }
    il_sys_tgkill(il_sys_getpid(), il_sys_gettid(), sig);
    il_sigset s = IL_SIGBIT(sig);
    il_sys_sigprocmask(SIG_UNBLOCK, &s, NULL);
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
    mask_fill(&sa->sa_mask, 1);
}

/*
 * A handler the program set with SA_RESETHAND: the kernel would reset the
 * disposition to SIG_DFL on delivery.  For us SIG_DFL means our handler,
 * so put that back first, then run the program's handler as it asked.
 * From then on the program sees SIG_DFL with the flags and mask it set,
 * which is what the kernel shows after resetting a one-shot handler.
 */
static void
il_oneshot(int sig, siginfo_t *info, void *uctx)
{
    struct sigaction h = oneshot[sig], sa;
    our_action(&sa);
    __sigaction(sig, &sa, NULL);
    if (il_measured()) {
        view[sig] = h;
        view[sig].sa_handler = SIG_DFL;
        view_set[sig] = 1;
        il.sig_ours[sig] = 1;
    }
    if (h.sa_flags & SA_SIGINFO)
        h.sa_sigaction(sig, info, uctx);
    else if (h.sa_handler != SIG_DFL && h.sa_handler != SIG_IGN)
        h.sa_handler(sig);
}

/* The kernel's struct sigaction: installing our handler with the raw
 * system call costs a tenth of glibc's wrapper, in every process. */
struct ksigaction {
    void *handler;
    unsigned long flags;
    void *restorer;
    il_sigset mask;
};

static int
install(int sig, struct ksigaction *prev)
{
#if defined(__x86_64__)
    extern char il_restore_rt[];
    struct ksigaction k = {(void *)il_on_signal, SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_RESTORER,
                           il_restore_rt, IL_SIGALL};
    return il_sc6(SYS_rt_sigaction, sig, (long)&k, (long)prev, 8, 0, 0) < 0 ? -1 : 0;
#else
    struct sigaction sa, p;
    our_action(&sa);
    if (__sigaction(sig, &sa, &p) < 0)
        return -1;
    prev->handler = (void *)p.sa_handler;
    prev->flags = (unsigned long)p.sa_flags;
    return 0;
#endif
}

static void
put_back(int sig, struct ksigaction *prev)
{
#if defined(__x86_64__)
    il_sc6(SYS_rt_sigaction, sig, (long)prev, 0, 8, 0, 0);
#else
    (void)prev;
    struct sigaction p;
    memset(&p, 0, sizeof p);
    p.sa_handler = SIG_DFL;
    __sigaction(sig, &p, NULL); /* not reached: only SIG_DFL is replaced there */
#endif
}

void
il_signals_install(void)
{
    if (il.sig_installed)
        return;
    int pid1 = il.pid == 1;
    struct ksigaction prev;
    il_sigset all = IL_SIGALL, old;
    /* Install first and put back anything that was not SIG_DFL; with all
     * signals blocked, nothing can arrive in between. */
    il_sys_sigprocmask(SIG_BLOCK, &all, &old);
    for (size_t i = 0; i < sizeof held_signals; i++) {
        int sig = held_signals[i];
        if ((pid1 && !synchronous(sig)) || install(sig, &prev) < 0)
            continue;
        if (sig == SIGHUP) /* between the install and the decision (tests only) */
            IL_TEST_DELAY("install_hup");
        if (sig == SIGTERM)
            IL_TEST_DELAY("install_term");
        if (prev.handler == (void *)SIG_DFL && !(prev.flags & SA_SIGINFO)) {
            il.sig_ours[sig] = 1;
            il.sig_dfl_flags[sig] = (int)prev.flags;
        } else {
            put_back(sig, &prev);
        }
    }
    il.sig_installed = 1;
    il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * sigaction(2).  Why hooked: for a signal our handler holds, the program
 * must see and set its own view (SIG_DFL at first), and SIG_DFL set by
 * the program must keep our handler, so that the signal still writes the
 * record.  It must never change what the kernel does for a disposition
 * the program set (a handler or SIG_IGN is installed for real, with the
 * program's flags and mask), never report our handler, and never let a
 * one-shot handler's reset land on a bare SIG_DFL (il_oneshot).  Signals
 * we do not hold go straight to glibc.
 */
IL_EXPORT int
sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
    if (!il.sig_installed || sig <= 0 || sig >= _NSIG || !held(sig))
        return __sigaction(sig, act, oact);

    il_sigset all = IL_SIGALL, old;
    il_sys_sigprocmask(SIG_BLOCK, &all, &old);
    /* what is really installed, whatever our notes say */
    struct sigaction cur, before;
    int rc = __sigaction(sig, NULL, &cur);
    int was = rc == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == il_on_signal;
    int one = rc == 0 && (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == il_oneshot;
    before = was ? view_of(sig) : one ? oneshot[sig] : cur;
    il.sig_ours[sig] = was;
    if (rc == 0 && act) {
        if (act->sa_handler == SIG_DFL) {
            if (!was) {
                struct sigaction sa;
                our_action(&sa);
                rc = __sigaction(sig, &sa, NULL);
            }
            if (rc == 0) {
                /* as the kernel would report it back */
                view[sig] = *act;
                view[sig].sa_flags |= cur.sa_flags & SA_RESTORER;
                view_set[sig] = 1;
                il.sig_ours[sig] = 1;
            }
        } else if (act->sa_handler != SIG_IGN && (act->sa_flags & SA_RESETHAND)) {
            /* install it as asked for a moment, to learn how the kernel
             * reports it (glibc adds SA_RESTORER), then the wrapper */
            rc = __sigaction(sig, act, NULL);
            if (rc == 0)
                rc = __sigaction(sig, NULL, &oneshot[sig]);
            struct sigaction w = *act;
            w.sa_sigaction = il_oneshot;
            w.sa_flags = (act->sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
            if (rc == 0)
                rc = __sigaction(sig, &w, NULL);
            if (rc == 0)
                il.sig_ours[sig] = 0;
        } else {
            rc = __sigaction(sig, act, NULL);
            if (rc == 0)
                il.sig_ours[sig] = 0;
        }
    }
    int err = errno;
    il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
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
    if (!(flags & SA_NODEFER))
        mask_add(&sa.sa_mask, sig);
    if (sigaction(sig, &sa, &old) < 0)
        return SIG_ERR;
    return old.sa_handler;
}

IL_EXPORT sighandler_t bsd_signal(int sig, sighandler_t h);
IL_EXPORT sighandler_t sysv_signal(int sig, sighandler_t h);

/*
 * signal(), bsd_signal(), sysv_signal().  Why hooked: glibc's own go to
 * the kernel past our sigaction, and would replace our handler behind
 * the program's back.  Each must set exactly the flags glibc's sets and
 * return the previous handler as the program knows it.  glibc's signal()
 * has BSD semantics: handlers stay, calls restart.
 */
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

/* as glibc's: one-shot, not deferred, not restarting (SA_INTERRUPT is
 * a historical no-op glibc still sets, and the kernel reports back) */
IL_EXPORT sighandler_t
sysv_signal(int sig, sighandler_t h)
{
    return set_handler(sig, h, SA_RESETHAND | SA_NODEFER | SA_INTERRUPT);
}
