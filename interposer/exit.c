/*
 * exit.c: the exit family's hooks, together: exit(), the return from
 * main, _exit(), _Exit(), quick_exit (through its at_quick_exit entry), and
 * the two on_exit entries through which glibc's exit() reaches us.  Who
 * ends the process, and the record, are finish.c's.
 *
 *   exit() and return from main (il_main_return in trampoline.S calls
 *            il_main_returned) go through glibc's exit(), which runs the
 *            atexit handlers - in whichever threads are exiting; glibc
 *            2.36 lets several threads share the list - and then, in the
 *            first thread to find the list empty, _IO_cleanup() and the
 *            final _exit, which we cannot hook.  Our constructor
 *            registers two entries first, so they run last, after every
 *            handler of the program (il_exit_lock, il_exit_record: the
 *            same work).  The thread that pops one takes stdio's list
 *            lock (_IO_list_lock), flushes the program's stdio output
 *            (glibc.c), claims (it is the ender) and writes the record.
 *            Every other thread that reaches glibc's final _IO_cleanup
 *            waits for that lock, in the other entry or in _IO_cleanup, so
 *            it cannot end the process first; two entries, so that the
 *            list is not empty (a thread finding it empty goes straight to
 *            _IO_cleanup) while the first popper takes the lock.  The
 *            ender then goes on through _IO_cleanup (the lock is
 *            recursive) to _exit with the status recorded.  The winner is
 *            decided where glibc decides it (the first thread past the
 *            handlers), so the distribution of endings is close to the
 *            plain one.
 *   _exit(), _Exit(), quick_exit: the thread claims, writes, and ends the
 *            process itself, with signals blocked from the claim on.
 *
 * A thread whose atexit handler waits for another thread that calls
 * exit() is not blocked: glibc lets the second thread run the remaining
 * handlers, and it becomes the ender.
 *
 * Left as documented residues: a thread finding the list empty and taking
 * the lock in _IO_cleanup before both poppers of our entries took it (it
 * needs three threads in exit within a few instructions, and both
 * poppers preempted); two threads in quick_exit at once (undefined in
 * C).
 *
 * In the finish path's signal-safe set (_exit may run in a signal
 * handler): the flush and glibc's exit are reached through glibc.c, which
 * is outside it, and safe.allow says why each may be called from here.
 */
#include <stdlib.h>
#include <time.h>

#include "il.h"
#include "sys.h"

/* set by il_main_return: this thread's main returned (the ending is
 * "return" unless it calls exit() since) */
__thread int il_tls_returned __attribute__((tls_model("initial-exec")));

/* glibc's stdio list lock (libio/genops.c): held around stdio's list
 * walks, and by _IO_cleanup at the very end of exit().  Exported by
 * glibc since 2.2.5 for fork's use. */
extern void _IO_list_lock(void);

static uint64_t
now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/*
 * _exit, _Exit and quick_exit: the record, then the end, with signals
 * still blocked, so that a signal arriving after the record cannot end
 * the process differently (without us it would have arrived after the
 * exit_group, as good as never).  Nothing of the program runs in between.
 */
static void __attribute__((noreturn)) finish_and_end(enum il_how how, int status)
{
    il_sigset old;
    if (il_measured())
        il_finish_blocked(how, status, 0, NULL, &old);
    for (;;)
        il_sys_exit_group(status);
}

/*
 * A thread entering exit() while another thread is between popping
 * il_exit_lock and claiming waits until the claim is made (at most a
 * second), so that it cannot overtake the ender to glibc's final lock.
 */
static void
exit_gate(void)
{
    if (!__atomic_load_n(&il.exit_tail, __ATOMIC_SEQ_CST) || il.ender)
        return;
    uint64_t t0 = now_ms();
    while (!__atomic_load_n(&il.ender, __ATOMIC_SEQ_CST) && now_ms() - t0 < 1000)
        il_sys_sched_yield();
}

/*
 * The two on_exit entries, registered first so that they run after every
 * handler of the program.  The thread that pops either one takes stdio's
 * list lock, then claims: the first to hold the lock is the ender, writes
 * the record, and goes on to glibc's final _IO_cleanup (which takes the
 * lock again, recursively) and _exit.  Every other thread in exit() waits
 * for that lock, in the other entry or in _IO_cleanup, and dies with the
 * process.  Two entries, so that the list is not empty (a thread finding
 * it empty goes straight to _IO_cleanup) while the first popper takes the
 * lock; the second popper races for the lock too.
 */
static void
exit_entry(int status)
{
    if (!il_measured())
        return;
    __atomic_store_n(&il.exit_tail, 1, __ATOMIC_SEQ_CST);
    _IO_list_lock(); /* held to the end */
    /* The program's stdio buffers go out now, before the claim, as
     * glibc's _IO_cleanup would send them a moment later: a write that
     * blocks (a pipe nobody reads) then blocks with every ending still
     * open to the program - SIGTERM or SIGPIPE ends the process and is
     * recorded as that signal, another thread's _exit wins - and the
     * window after the record stays short. */
    if (__atomic_load_n(&il.ender, __ATOMIC_SEQ_CST) != il_self())
        il_exit_flush();
    il_sigset all = IL_SIGALL, old;
    il_sys_sigprocmask(SIG_BLOCK, &all, &old);
    int r = il_claim(IL_END_EXITPATH, il_tls_returned ? IL_HOW_RETURN : IL_HOW_EXIT, status, 0, NULL);
    if (r == IL_OTHER)
        il_block_forever(); /* an _exit or a fatal signal ends it; the lock stays held */
    il_write_record();
    /* Nothing left for _IO_cleanup to write: signals stay blocked to the
     * end, as in _exit, so that one sent now cannot end the process
     * differently from the record (without us it would have come after
     * the end).  Output left to write may block: then the program's
     * signals work again, and one that ends the process disagrees with
     * the record, which names the exit. */
    if (il_exit_unflushed()) {
        __atomic_store_n(&il.exit_open, 1, __ATOMIC_SEQ_CST);
        il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
    }
}

void
il_exit_lock(int status, void *arg)
{
    (void)arg;
    exit_entry(status);
}

void
il_exit_record(int status, void *arg)
{
    (void)arg;
    exit_entry(status);
}

/* at_quick_exit entry (registered with __cxa_at_quick_exit, which glibc
 * calls with the status): quick_exit runs no on_exit entries.  The writer
 * ends the process itself, with the status recorded. */
void
il_quick_record(void *arg, int status)
{
    (void)arg;
    if (!il_measured())
        return;
    il_sigset old;
    if (il_finish_blocked(IL_HOW_EXIT, status, 0, NULL, &old))
        for (;;)
            il_sys_exit_group(status); /* signals still blocked, as in _exit */
    il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
}

IL_EXPORT void
_exit(int status)
{
    finish_and_end(IL_HOW__EXIT, status);
}

IL_EXPORT void
_Exit(int status)
{
    finish_and_end(IL_HOW__EXIT, status);
}

/* Every exit() and every return from main come here first. */
static void
exit_begin(int status)
{
    (void)status;
    exit_gate();
}

/* main returned into il_main_return (trampoline.S): what glibc would do,
 * noting that this thread's main returned. */
IL_HIDDEN void il_main_returned(int ret) __attribute__((noreturn));

void
il_main_returned(int ret)
{
    il_tls_returned = 1;
    exit_begin(ret);
    il.real_exit(ret);
    __builtin_unreachable();
}

IL_EXPORT void
exit(int status)
{
    il_resolve_reals();
    il_tls_returned = 0;
    if (il.phase == IL_PHASE_LOADED)
        il_finish(IL_HOW_EXIT, status, 0, NULL); /* before our constructor: no entries yet */
    exit_begin(status);
    il.real_exit(status);
    __builtin_unreachable();
}

