/*
 * finish.c: every way a process image ends, and the one record it writes.
 *
 * The rule: exactly one record, and its "exit" is the wait status the
 * parent sees.  So one thread becomes the *ender*, by compare-and-swap on
 * il.ender, and the record says how that thread ends the process; any
 * other thread that would end it differently never gets to.  The enders:
 *
 *   exit() and return from main (il_main_return in trampoline.S calls
 *            exit for main) go through glibc's exit(), which runs the
 *            atexit handlers - in whichever threads are exiting; glibc
 *            2.36 lets several threads share the list - and then, in the
 *            first thread to find the list empty, _IO_cleanup() and the
 *            final _exit, which we cannot hook.  Our constructor
 *            registers two entries first, so they run last, after every
 *            handler of the program (il_exit_lock, il_exit_record: the
 *            same work).  The thread that pops one takes stdio's list
 *            lock (_IO_list_lock), claims (it is the ender) and writes
 *            the record.  Every other thread that reaches glibc's final
 *            _IO_cleanup waits for that lock, in the other entry or in
 *            _IO_cleanup, so it cannot end the process first; two
 *            entries, so that the list is not empty (a thread finding it
 *            empty goes straight to _IO_cleanup) while the first popper
 *            takes the lock.  The ender then goes on through _IO_cleanup
 *            (the lock is recursive) to _exit with the status recorded.
 *            The winner is decided where glibc decides it (the first
 *            thread past the handlers), so the distribution of endings
 *            is close to the plain one.
 *   _exit(), _Exit(), a fatal signal (signals.c), quick_exit (through
 *            its at_quick_exit entry): the thread claims, writes, and
 *            ends the process itself.
 *   exec*()  (forkexec.c): claims, writes the exec record, execs; if the
 *            exec fails, it lets go and counting resumes.
 *
 * A thread that loses the claim blocks for good (il_block_forever): the
 * ender is running our own code to the process's end, never the
 * program's, so that wait is bounded.  A thread whose atexit handler
 * waits for another thread that calls exit() is not blocked: glibc lets
 * the second thread run the remaining handlers, and it becomes the ender.
 *
 * Left as documented residues: a thread finding the list empty and taking
 * the lock in _IO_cleanup before both poppers of our entries took it (it
 * needs three threads in exit within a few instructions, and both
 * poppers preempted); two threads in quick_exit at once (undefined in
 * C).
 *
 * Runs in signal handlers and inside _exit: async-signal-safe only.  A
 * forked child that is not measured (il.pid is the parent's) writes
 * nothing: the parent's counters already count it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <elf.h>
#include <fcntl.h>
#include <time.h>

#include "il.h"
#include "sys.h"

/* glibc's stdio list lock (libio/genops.c): held around stdio's list
 * walks, and by _IO_cleanup at the very end of exit().  Exported by
 * glibc since 2.2.5 for fork's use. */
extern void _IO_list_lock(void);

/* AT_SECURE, from /proc/self/auxv (no getauxval import: every import
 * costs each process a symbol lookup at load).  Unreadable counts as
 * secure: standing aside is the safe side. */
static int
secure_now(void)
{
    unsigned long a[128];
    long fd = il_sys_open("/proc/self/auxv", O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return 1;
    long n = il_sys_read((int)fd, a, sizeof a);
    il_sys_close((int)fd);
    for (long i = 0; i + 1 < n / (long)sizeof a[0] && a[i] != AT_NULL; i += 2)
        if (a[i] == AT_SECURE)
            return a[i + 1] != 0;
    return 1;
}

int
il_measured(void)
{
    /* Before our constructor (a process ending in another library's
     * constructor) AT_SECURE is not known yet: read it here, or the
     * variables would steer where a privileged process writes. */
    if (!il.secure && il.phase == IL_PHASE_LOADED && secure_now())
        il.secure = 1;
    return !il.secure && (!il.pid || il.pid == (pid_t)il_sys_getpid());
}

enum { CLAIMED, MINE, OTHER };

static uint64_t
now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* Become the ender, or learn who is.  An exec in progress is waited for:
 * it either replaces the image or fails and lets go. */
static int
claim(int kind, int how, int status, int sig, const char *exec)
{
    uintptr_t me = il_self();
    for (;;) {
        uintptr_t prev = 0;
        if (__atomic_compare_exchange_n(&il.ender, &prev, me, 0, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST)) {
            il.end_how = how;
            il.end_status = status;
            il.end_sig = sig;
            il.end_exec = exec;
            __atomic_store_n(&il.end_kind, kind, __ATOMIC_SEQ_CST);
            return CLAIMED;
        }
        if (prev == me)
            return MINE;
        int k = __atomic_load_n(&il.end_kind, __ATOMIC_SEQ_CST);
        if (k != IL_END_NONE && k != IL_END_EXEC)
            return OTHER;
        il_sys_sched_yield(); /* being claimed, or an exec in progress */
    }
}

/*
 * Stop the counters and write the record, once: the thread that moves
 * the phase to FINISHING writes.  Signals are blocked by the caller.
 */
static void
write_record(void)
{
    static char pre[16384];
    int ph = __atomic_load_n(&il.phase, __ATOMIC_SEQ_CST);
    do {
        if (ph > IL_PHASE_RUNNING)
            return; /* written, or being written */
    } while (!__atomic_compare_exchange_n(&il.phase, &ph, IL_PHASE_FINISHING, 0, __ATOMIC_SEQ_CST,
                                          __ATOMIC_SEQ_CST));
    il.writer = il_self();
    if (ph == IL_PHASE_LOADED) {
        /* ended before our constructor ran: read the variables now */
        il.pid = (pid_t)il_sys_getpid();
        il.err_fd = -1;
        il.cfg.nerrors = 0;
        il_config_parse(&il.cfg, NULL, il_environ());
    }
    if (!il.out_ready)
        il_output_prepare();

    char *line = pre, why[IL_ERROR_MAX];
    size_t n;
    int measured = ph == IL_PHASE_RUNNING && il.buf;
    if (measured) {
        il.be->stop_read();
        clock_gettime(CLOCK_MONOTONIC, &il.t1);
        il_sys_getrusage(RUSAGE_SELF, &il.ru1);
        il_sys_getrusage(RUSAGE_CHILDREN, &il.ru1c);
        il.be->floor();
        line = il.buf;
        n = il_record_finish();
    } else {
        if (ph == IL_PHASE_RUNNING)
            il.be->stop_read();
        n = il_record_premain(pre, sizeof pre);
    }
    il_sigset pending = il_output_pending();
    if (il_output_write(line, n, why, sizeof why) < 0) {
        /* the record says where it went, and why */
        il_late_error(why, "");
        n = measured ? il_record_finish() : il_record_premain(pre, sizeof pre);
        il_output_fallback(line, n);
    }
    il_output_settle(pending);
    if (il.end_how != IL_HOW_EXEC)
        il_run_end(measured);
    __atomic_store_n(&il.phase, IL_PHASE_DONE, __ATOMIC_SEQ_CST);
}

/*
 * The ending of a thread that ends the process itself (_exit, a fatal
 * signal, quick_exit) or replaces it (exec).  Returns 1 when this call
 * wrote the record, 0 otherwise (not measured, or written already by this
 * thread).  A thread that is not the ender never returns.
 */
static int
finish_blocked(enum il_how how, int status, int sig, const char *exec_path, il_sigset *old)
{
    /* claim first, then block signals: the claim is what decides which
     * ending wins, and it should take no longer than it does without us
     * (a signal in between finds this thread the ender, MINE) */
    int r = claim(how == IL_HOW_EXEC ? IL_END_EXEC : IL_END_SELF, how, status, sig, exec_path);
    if (r == OTHER)
        il_block_forever(); /* the ender ends the process */
    il_sigset all = IL_SIGALL;
    il_sys_sigprocmask(SIG_BLOCK, &all, old);
    int wrote = 0;
    if (r == CLAIMED || il.phase <= IL_PHASE_RUNNING) {
        if (r == MINE) { /* a second ending in this thread before the record */
            il.end_how = how;
            il.end_status = status;
            il.end_sig = sig;
            il.end_exec = exec_path;
        }
        wrote = il.phase <= IL_PHASE_RUNNING;
        write_record();
    }
    return wrote;
}

int
il_finish(enum il_how how, int status, int sig, const char *exec_path)
{
    if (!il_measured())
        return 0;
    il_sigset old;
    int wrote = finish_blocked(how, status, sig, exec_path, &old);
    il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
    return wrote;
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
        finish_blocked(how, status, 0, NULL, &old);
    for (;;)
        il_sys_exit_group(status);
}

/*
 * Another thread may be ending the process (phase FINISHING or DONE): an
 * exec in this thread must not overtake it, or the process would go on as
 * the new image, against the record.  Never returns if another thread
 * ends the process; returns when nobody is ending it, when this thread is
 * the ender, when the ender's exec failed and let go, or when exit's
 * ender is in a final flush that may block for good (the program first).
 */
void
il_end_wait(void)
{
    uintptr_t me = il_self();
    for (;;) {
        uintptr_t e = __atomic_load_n(&il.ender, __ATOMIC_SEQ_CST);
        if (e == 0 || e == me)
            return;
        int k = __atomic_load_n(&il.end_kind, __ATOMIC_SEQ_CST);
        if (k == IL_END_EXITPATH && __atomic_load_n(&il.exit_open, __ATOMIC_SEQ_CST))
            return;
        if (k != IL_END_NONE && k != IL_END_EXEC)
            il_block_forever(); /* the ender ends the process */
        il_sys_sched_yield();   /* being claimed, or an exec in progress */
    }
}

/*
 * The exec record was written but exec failed: the image goes on, so the
 * measurement does too.  Counts so far are carried, the counters restart
 * (the calibration windows are not counted), the ender lets go, and the
 * record this image eventually writes says it supersedes the exec record.
 */
void
il_resume_after_exec(int err)
{
    if (!il_measured() || il.ender != il_self() || il.end_kind != IL_END_EXEC)
        return;
    il.exec_failed_errno = err ? err : -1;
    if (il.buf) {
        il.be->restart();
        __atomic_store_n(&il.phase, IL_PHASE_RUNNING, __ATOMIC_SEQ_CST);
    } else {
        __atomic_store_n(&il.phase, il.main_tid ? IL_PHASE_RUNNING : IL_PHASE_INIT,
                         __ATOMIC_SEQ_CST);
    }
    il_end_reset();
}

void
il_end_reset(void)
{
    __atomic_store_n(&il.end_kind, IL_END_NONE, __ATOMIC_SEQ_CST);
    __atomic_store_n(&il.ender, 0, __ATOMIC_SEQ_CST);
    il.exit_tail = 0;
    il.exit_open = 0;
    il.writer = 0;
}

/*
 * A thread entering exit() while another thread is between popping
 * il_exit_lock and claiming waits until the claim is made (at most a
 * second), so that it cannot overtake the ender to glibc's final lock.
 */
void
il_exit_gate(void)
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
    int r = claim(IL_END_EXITPATH, il.returned == il_self() ? IL_HOW_RETURN : IL_HOW_EXIT, status, 0, NULL);
    if (r == OTHER)
        il_block_forever(); /* an _exit or a fatal signal ends it; the lock stays held */
    write_record();
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
    if (finish_blocked(IL_HOW_EXIT, status, 0, NULL, &old))
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
