/*
 * finish.c: every way a process image ends, funnelled into il_finish().
 *
 *   return from main  il_main notes the thread; glibc calls exit()
 *   exit()            our exit() notes the thread and calls the real one;
 *                     after the program's atexit handlers, il_on_exit()
 *                     writes (on_exit(3) hands us the status, also when
 *                     glibc calls exit internally, e.g. from error(3))
 *   quick_exit()      likewise, through at_quick_exit(3)
 *   _exit(), _Exit()  write at once: no atexit handlers will run
 *   exec*()           forkexec.c: write just before the image is replaced
 *   fatal signal      signals.c: write, then die of the same signal
 *
 * il_finish() is guarded by compare-and-swap on il.phase, in the manner of
 * libmonitor's monitor_end_process_fcn: the first thread writes.  A repeat
 * call from the same thread (exit() inside an atexit handler, a signal
 * during our own write) returns at once.  Any other thread waits until the
 * record is written and then stays blocked: the writer is ending the
 * process, and letting the second thread end it its own way would make the
 * record disagree with the wait status.  The one exception is an exec
 * record, since the exec may fail; then the waiting thread goes on.
 * exit() is claimed first-come: when several threads call it at once (which
 * C leaves undefined), the first ends the process and the others wait, or
 * one of them would reach glibc's final _exit while the first is still
 * writing, and the record would be lost.  _exit() never waits for that
 * claim, and a thread whose main returned claims nothing, so a program
 * whose other thread calls exit() or _exit() during its atexit handlers
 * ends as it would without us.
 *
 * Runs in signal handlers and inside _exit: async-signal-safe only.
 * A forked child that is not measured (il.pid is the parent's) writes
 * nothing: the parent's counters already count it.
 */
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "il.h"

static const char *
env_get(const char *name)
{
    return getenv(name);
}

void
il_block_forever(void)
{
    for (;;)
        pause();
}

int
il_finish(enum il_how how, int status, int sig, const char *exec_path)
{
    if (il.pid && il.pid != getpid())
        return 0; /* a forked child: the parent's counters count it */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);

    pid_t me = il_gettid();
    int ph = __atomic_load_n(&il.phase, __ATOMIC_SEQ_CST);
    for (;;) {
        if (ph <= IL_PHASE_RUNNING) {
            if (__atomic_compare_exchange_n(&il.phase, &ph, IL_PHASE_FINISHING, 0,
                                            __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
                break;
            continue; /* ph now holds the current phase */
        }
        if (il.finisher == me) {
            pthread_sigmask(SIG_SETMASK, &old, NULL);
            return 0; /* this thread wrote it already */
        }
        if (ph == IL_PHASE_DONE && il.finished_how != IL_HOW_EXEC)
            il_block_forever(); /* the writer ends the process */
        /* being written, or an exec record (the exec may fail and the
         * image resume): wait for the phase to move */
        sched_yield();
        ph = __atomic_load_n(&il.phase, __ATOMIC_SEQ_CST);
    }
    il.finisher = me;
    il.finished_how = how;
    il.phase_before_finish = ph;
    if (ph == IL_PHASE_LOADED) {
        /* ended before our constructor ran: read the variables now */
        il.pid = getpid();
        il.out_fd = -1;
        il.err_fd = -1;
        il_config_parse(&il.cfg, env_get, environ);
    }

    if (ph == IL_PHASE_RUNNING && il.buf) {
        il_counters_stop();
        il_counters_read_and_floor();
        size_t n = il_record_finish(how, status, sig, exec_path);
        il_output_write(il.buf, n);
        il_run_end(how, status, sig, 1);
    } else {
        /* before main: a constructor ended the process */
        static char pre[8192];
        if (ph == IL_PHASE_RUNNING)
            il_counters_stop();
        if (!il.out_path[0] && il.out_fd < 0 && !il.cfg.output_stderr && il.cfg.output[0])
            il_output_open();
        size_t n = il_record_premain(pre, sizeof pre, how, status, sig, exec_path);
        il_output_write(pre, n);
        il_run_end(how, status, sig, 0);
    }
    __atomic_store_n(&il.phase, IL_PHASE_DONE, __ATOMIC_SEQ_CST);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return 1;
}

/*
 * The exec record was written but exec failed: the image goes on, so the
 * measurement does too.  Counts so far are carried, counters reset and
 * re-enabled (the calibration windows are not counted), and the record
 * this image eventually writes says it supersedes the exec record.
 */
void
il_resume_after_exec(int err)
{
    if (il.pid != getpid() || il.phase != IL_PHASE_DONE || il.finisher != il_gettid())
        return;
    il.exec_failed_errno = err ? err : -1;
    il.finisher = 0;
    if (il.phase_before_finish == IL_PHASE_RUNNING) {
        for (int i = 0; i < il.nev; i++) {
            struct il_event *e = &il.ev[i];
            if (!e->ok)
                continue;
            e->carry = e->value;
            if (il.backend == IL_BACKEND_PERF)
                ioctl(e->fd, PERF_EVENT_IOC_RESET, 0);
        }
        __atomic_store_n(&il.phase, IL_PHASE_RUNNING, __ATOMIC_SEQ_CST);
        if (il.backend == IL_BACKEND_PERF)
            il_perf_enable();
        else if (il.backend == IL_BACKEND_PAPI)
            il_papi_start();
    } else {
        __atomic_store_n(&il.phase, il.phase_before_finish, __ATOMIC_SEQ_CST);
    }
}

/*
 * Registered with on_exit(3) in the constructor: runs after the program's
 * own atexit handlers, with the status exit() was given, in the thread
 * that is ending the process.  "exit" if that thread called exit(),
 * "return" if its main returned (and it did not call exit() since, from an
 * atexit handler, say), "exit" otherwise (glibc's own calls).
 */
void
il_on_exit(int status, void *arg)
{
    (void)arg;
    pid_t me = il_gettid();
    enum il_how how = il.exit_tid == me ? IL_HOW_EXIT
                      : il.return_tid == me ? IL_HOW_RETURN
                                            : IL_HOW_EXIT;
    il_finish(how, status, 0, NULL);
}

/* Registered with at_quick_exit(3): quick_exit() skips on_exit. */
void
il_on_quick_exit(void)
{
    il_finish(IL_HOW_EXIT, il.quick_status, 0, NULL);
}

/* The first thread to call exit() ends the process; 1 if that is us. */
static int
claim_exit(void)
{
    if (il.pid != getpid())
        return 1;
    pid_t me = il_gettid(), prev = 0;
    return __atomic_compare_exchange_n(&il.exit_tid, &prev, me, 0, __ATOMIC_SEQ_CST,
                                       __ATOMIC_SEQ_CST) ||
           prev == me;
}

IL_EXPORT void
exit(int status)
{
    il_resolve_reals();
    if (!claim_exit())
        il_block_forever(); /* another thread is ending the process */
    if (il.phase == IL_PHASE_LOADED)
        il_finish(IL_HOW_EXIT, status, 0, NULL); /* no on_exit handler yet */
    real_exit(status);
    __builtin_unreachable();
}

IL_EXPORT void
quick_exit(int status)
{
    static void (*real_quick_exit)(int);
    il_resolve_reals();
    if (!real_quick_exit)
        *(void **)&real_quick_exit = dlsym(RTLD_NEXT, "quick_exit");
    if (!claim_exit())
        il_block_forever();
    il.quick_status = status;
    if (il.phase == IL_PHASE_LOADED)
        il_finish(IL_HOW_EXIT, status, 0, NULL);
    real_quick_exit(status);
    __builtin_unreachable();
}

static void
finish_now(int status)
{
    il_resolve_reals();
    if (!il.pid || il.pid == getpid())
        il_finish(IL_HOW__EXIT, status, 0, NULL);
}

IL_EXPORT void
_exit(int status)
{
    finish_now(status);
    real__exit(status);
    __builtin_unreachable();
}

IL_EXPORT void
_Exit(int status)
{
    finish_now(status);
    real__exit(status);
    __builtin_unreachable();
}
