/*
 * finish.c: who ends the process image, and the one record it writes.
 *
 * The rule: exactly one record, and its "exit" is the wait status the
 * parent sees.  So one thread becomes the *ender*, by compare-and-swap on
 * il.ender (il_claim), and the record says how that thread ends the
 * process; any other thread that would end it differently never gets to.
 * The hooks through which an image ends call in here: the exit family
 * (exit.c: exit, main's return, _exit, _Exit, quick_exit), a fatal signal
 * (signals.c) and exec (forkexec.c); exit.c's header tells how exit()'s
 * ender is decided where glibc decides it.
 *
 * A thread that loses the claim blocks for good (il_block_forever): the
 * ender is running our own code to the process's end, never the
 * program's, so that wait is bounded.  An exec in progress is waited for:
 * it either replaces the image or fails and lets go (il_resume_after_exec).
 * Two enders run the program's code after their record, and another
 * thread's ending is then let through once the record is written
 * (il_end_yields): without us that ending would end the process, and the
 * ender may be waiting for it.
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

/* Become the ender, or learn who is.  An exec in progress is waited for:
 * it either replaces the image or fails and lets go. */
int
il_claim(int kind, int how, int status, int sig, const char *exec)
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
            return IL_CLAIMED;
        }
        if (prev == me)
            return IL_MINE;
        int k = __atomic_load_n(&il.end_kind, __ATOMIC_SEQ_CST);
        if (k != IL_END_NONE && k != IL_END_EXEC)
            return IL_OTHER;
        il_sys_sched_yield(); /* being claimed, or an exec in progress */
    }
}

/*
 * Whether the ender, past its record, runs the program's code or waits on
 * it: an exit() before our constructor (IL_END_EARLY), whose thread runs
 * glibc's exit and the program's handlers after the record, or exit's
 * ender with output left (exit_open), in glibc's final flush, which may
 * block on a pipe or call a fopencookie stream's functions.  Either may
 * wait for this thread (a handler that joins it), so this thread's ending
 * must not wait for the ender's: 1 once the record is written (waited
 * for: our own code, bounded), and this thread ends the process as it
 * would without us, past a record that says it is not certain (both
 * enders set end_uncertain).  0 for every other ender, which runs our
 * code only, to the process's end (exit's ender without output left:
 * but for output written after its record, libinterloper(7)).  Exit's ender decides exit_open before its record and
 * this waits for the record before reading it.  (Reviews of session 9:
 * another thread's _exit, exec or fatal signal after an early exit()
 * waited for good while the early thread's handler waited for it; one
 * during exit's record read exit_open before it was stored: hangs.)
 */
int
il_end_yields(void)
{
    int k = __atomic_load_n(&il.end_kind, __ATOMIC_SEQ_CST);
    if (k != IL_END_EARLY && k != IL_END_EXITPATH)
        return 0;
    struct timespec ms = {0, 1000000L}; /* the record may wait for the file's lock */
    while (__atomic_load_n(&il.phase, __ATOMIC_SEQ_CST) != IL_PHASE_DONE)
        il_sys_ppoll(NULL, 0, &ms); /* the ender is writing the record */
    return k == IL_END_EARLY || __atomic_load_n(&il.exit_open, __ATOMIC_SEQ_CST);
}

/*
 * Stop the counters and write the record, once: the thread that moves
 * the phase to FINISHING writes.  Signals are blocked by the caller.
 */
void
il_write_record(void)
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
        il_be_do(il.be, IL_BE_STOP_READ);
        clock_gettime(CLOCK_MONOTONIC, &il.t1);
        il_sys_getrusage(RUSAGE_SELF, &il.ru1);
        if (il.inherit == IL_INHERIT_ALL) /* as at the start (counters_start) */
            il_sys_getrusage(RUSAGE_CHILDREN, &il.ru1c);
        /* the driver's calibration where it stands for ours, else our own */
        il.floor_driver = il_run_floor();
        if (!il.floor_driver)
            il_be_do(il.be, IL_BE_FLOOR);
        il_others_leave();
        line = il.buf;
        n = il_record_finish();
    } else {
        if (ph == IL_PHASE_RUNNING)
            il_be_do(il.be, IL_BE_STOP_READ);
        n = il_record_premain(pre, sizeof pre, ph == IL_PHASE_RUNNING);
    }
    il_sigset pending = il_output_pending();
    if (il_output_write(line, n, why, sizeof why) < 0) {
        /* the record says where it went, and why */
        il_late_error(why, "");
        n = measured ? il_record_finish() : il_record_premain(pre, sizeof pre, ph == IL_PHASE_RUNNING);
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
 * wrote the record, 0 otherwise (not measured, written already by this
 * thread, or by an ender that yields: il_end_yields).  A thread that is
 * not the ender returns only then, and goes on to end the process itself;
 * otherwise it never returns.
 */
int
il_finish_blocked(enum il_how how, int status, int sig, const char *exec_path, const char *lost,
                  il_sigset *old)
{
    /* claim first, then block signals: the claim is what decides which
     * ending wins, and it should take no longer than it does without us
     * (a signal in between finds this thread the ender, MINE) */
    /* exit() before our constructor (exit.c: no entries of ours yet) goes
     * on into glibc's exit itself, to the program's handlers */
    int kind = how == IL_HOW_EXEC                                  ? IL_END_EXEC
               : how == IL_HOW_EXIT && il.phase == IL_PHASE_LOADED ? IL_END_EARLY
                                                                   : IL_END_SELF;
    int r = il_claim(kind, how, status, sig, exec_path);
    if (r == IL_OTHER && !il_end_yields())
        il_block_forever(); /* the ender ends the process */
    il_sigset all = IL_SIGALL;
    il_sys_sigprocmask(SIG_BLOCK, &all, old);
    if (r == IL_OTHER)
        return 0; /* written; this thread's ending ends the process */
    int wrote = 0;
    if (r == IL_CLAIMED || il.phase <= IL_PHASE_RUNNING) {
        if (r == IL_MINE) { /* a second ending in this thread before the record */
            il.end_how = how;
            il.end_status = status;
            il.end_sig = sig;
            il.end_exec = exec_path;
        }
        /* An exit() before our constructor: glibc's exit runs after this
         * record, with the handlers other constructors registered, the
         * final flush (SIGPIPE) and other threads' exit() let through
         * (exit.c): any of them may end the process otherwise, so the
         * record cannot know (review: exit(7) recorded, 12 the status). */
        if (kind == IL_END_EARLY && r == IL_CLAIMED)
            il.end_uncertain = 1;
        wrote = il.phase <= IL_PHASE_RUNNING;
        /* an exec the new image of which measures nothing, said once this
         * thread writes its record (review13d M2: said before the claim,
         * it went into another thread's exit record) */
        if (lost && wrote && how == IL_HOW_EXEC) {
            char what[IL_ERROR_MAX];
            char *p = il_cat(what, "exec of ");
            p = il_catn(p, exec_path ? exec_path : "?", 200);
            p = il_cat(p, ": the new image is not measured: ");
            il_strlcpy(p, lost, sizeof what - (size_t)(p - what));
            il_late_error(what, "; this record, ending at the exec, is the last of the process");
            il_msg(what, "; this record, ending at the exec, is the last of the process", NULL);
        }
        il_write_record();
    }
    return wrote;
}

int
il_finish(enum il_how how, int status, int sig, const char *exec_path, const char *lost)
{
    if (!il_measured())
        return 0;
    il_sigset old;
    int wrote = il_finish_blocked(how, status, sig, exec_path, lost, &old);
    il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
    return wrote;
}

/*
 * Another thread may be ending the process (phase FINISHING or DONE): an
 * exec in this thread must not overtake it, or the process would go on as
 * the new image, against the record.  Never returns if another thread
 * ends the process; returns when nobody is ending it, when this thread is
 * the ender, when the ender's exec failed and let go, or when the ender
 * runs the program's code past its record (il_end_yields: the program
 * first).
 */
void
il_end_wait(void)
{
    uintptr_t me = il_self();
    for (;;) {
        uintptr_t e = __atomic_load_n(&il.ender, __ATOMIC_SEQ_CST);
        if (e == 0 || e == me)
            return;
        if (il_end_yields())
            return;
        int k = __atomic_load_n(&il.end_kind, __ATOMIC_SEQ_CST);
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
        il_others_enter();
        il_be_do(il.be, IL_BE_RESTART);
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
    il.exit_open = 0;
    il.end_uncertain = 0;
    il.writer = 0;
}
