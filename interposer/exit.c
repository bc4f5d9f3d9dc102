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
 *            recursive) to _exit with the status recorded.  (Where an
 *            on_exit handler registered before our constructor is still
 *            to run, after our entries, the ender lets go of the lock
 *            after the record, as glibc runs handlers without it: the
 *            record then says it is not certain, and another thread's
 *            ending is let through, as without us.)  The winner is
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
 * Two entries are not enough when three threads run exit() at once:
 * exit_admit lets in two and holds the rest until the ending is decided.
 * Left as a documented residue: two threads in quick_exit at once
 * (undefined in C); a thread that reaches glibc's exit() past our hook
 * (glibc's own calls, error(3)) is not admitted, and counts as a third.
 *
 * In the finish path's signal-safe set (_exit may run in a signal
 * handler): the flush and glibc's exit are reached through glibc.c, which
 * is outside it, and safe.allow says why each may be called from here.
 */
#include <stdlib.h>
#include <time.h>

#include "il.h"
#include "sys.h"

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
        il_finish_blocked(how, status, 0, NULL, NULL, &old);
    for (;;)
        il_sys_exit_group(status);
}

/*
 * How many threads glibc's exit() runs at once, until the ending is
 * decided.  glibc pops its handlers under a lock it lets go of before
 * calling each, so a thread that pops one of our two entries may be
 * preempted before the entry's first instruction, and a thread that finds
 * the list empty goes straight on to _IO_cleanup and _exit.  With three
 * threads in exit() at once, two could pop our entries and stall there
 * while the third ended the process past the record (the "third thread":
 * 3 records lost in 58,000 runs of eight threads, issue 17).  No number of
 * entries closes that: k entries lose to k+1 threads.  Two threads at once
 * do: the list is empty only once both entries are popped, and an entry
 * returns only when its thread is the ender and holds stdio's list lock
 * (or never: another ending was claimed), so whichever of the two then
 * finds the list empty waits for that lock in _IO_cleanup.  A third thread
 * waits in exit_admit, in our code, until the ending is decided for good:
 * exit's ender holds the lock, and the third goes on to wait in glibc as it
 * would; _exit, a fatal signal and quick_exit end the process themselves,
 * and the third waits in exit_admit until they do.
 * Two, because glibc 2.36 lets an atexit handler wait for a thread that
 * calls exit() (that thread runs the remaining handlers); glibc 2.41 and
 * later admit one and stop the others for good, so this is no stricter
 * than the C library.  A program whose handlers wait for two more such
 * threads would hang: there the third is let in after IL_EXIT_WAIT_MS.
 */
#define IL_EXIT_RUNNERS 2
#define IL_EXIT_WAIT_MS 2000

/* The threads admitted (their il_self()), so that one calling exit()
 * again from a handler is not counted twice.  A table, not a thread-local
 * flag: thread-local storage costs every process the loader's work for a
 * TLS segment.  A thread past the table's size is counted again when it
 * re-enters, and waits, at most IL_EXIT_WAIT_MS. */
static volatile uintptr_t admitted[64];

/* 1 when this thread was admitted already, else note it (0). */
static int
admitted_before(void)
{
    uintptr_t me = il_self();
    for (size_t i = 0; i < sizeof admitted / sizeof admitted[0]; i++) {
        uintptr_t a = __atomic_load_n(&admitted[i], __ATOMIC_SEQ_CST);
        if (a == me)
            return 1;
        if (!a && __atomic_compare_exchange_n(&admitted[i], &a, me, 0, __ATOMIC_SEQ_CST,
                                              __ATOMIC_SEQ_CST))
            return 0;
    }
    return 0;
}

static int
ending_decided(void)
{
    int k = __atomic_load_n(&il.end_kind, __ATOMIC_SEQ_CST);
    return k == IL_END_EXITPATH || k == IL_END_SELF || k == IL_END_EARLY;
}

/*
 * Whether this process is measured (il_measured) is asked only where a
 * thread would be held: the one getpid of the exit path is then
 * exit_entry's, after the program's handlers and destructors (which may
 * fork), where it is needed (session 15: one system call fewer in every
 * process that ends by exit or a return from main).  A process not
 * measured that counts itself in here changes nothing of the measured
 * one's: a forked child counts in its own copy of the state, and is never
 * held (asked below).  A vfork child calling exit(), which shares our
 * memory (and glibc's list of exit handlers, which its exit then runs),
 * notes its parent's thread (il_self is the same) and counts it once: that
 * thread is not counted again when it calls exit() itself; if it never
 * does, a third thread in exit() at once may be held until the ending is
 * decided, at most IL_EXIT_WAIT_MS, where two would be let in.
 */
static void
exit_admit(void)
{
    if (il.secure || (il.phase == IL_PHASE_LOADED && !il_measured()) || admitted_before())
        return; /* this thread is in already (exit() from a handler) */
    if (__atomic_fetch_add(&il.exit_runners, 1, __ATOMIC_SEQ_CST) < IL_EXIT_RUNNERS)
        return;
    if (!il_measured())
        return; /* a forked child: not ours to hold */
    uint64_t t0 = now_ms();
    struct timespec ms = {0, 1000000L}; /* the ender ends the process: no hurry */
    while (!ending_decided() && now_ms() - t0 < IL_EXIT_WAIT_MS)
        il_sys_ppoll(NULL, 0, &ms);
    /* _exit, a fatal signal or quick_exit claimed: that thread ends the
     * process once its record is written.  Let in now, this thread would
     * find the handlers done while the two threads handed our entries
     * have not yet taken stdio's list lock, and end the process past the
     * record (the four-way ending held in exit_entry, interposer_races.sh:
     * "no record, ended with status 10", flake8).  Not after an exit()
     * before our constructor (IL_END_EARLY): that thread runs glibc's exit
     * and the program's handlers itself, which may wait for this one, and
     * there are no entries of ours to hold (interposer_early.sh). */
    if (__atomic_load_n(&il.end_kind, __ATOMIC_SEQ_CST) == IL_END_SELF &&
        __atomic_load_n(&il.ender, __ATOMIC_SEQ_CST) != il_self())
        il_block_forever();
}

/*
 * The two on_exit entries, registered first so that they run after every
 * handler of the program.  The thread that pops either one takes stdio's
 * list lock, then claims: the first to hold the lock is the ender, writes
 * the record, and goes on to glibc's final _IO_cleanup (which takes the
 * lock again, recursively) and _exit (where an on_exit handler registered
 * before our constructor is still to run, it lets go after the record:
 * below).  Every other thread in exit() waits
 * for that lock, in the other entry or in _IO_cleanup, and dies with the
 * process.  Two entries, so that the list is not empty (a thread finding
 * it empty goes straight to _IO_cleanup) while the first popper takes the
 * lock; the second popper races for the lock too.
 */
static void
exit_entry(int status)
{
    IL_TEST_DELAY("exit_entry"); /* as if preempted as glibc hands us the entry */
    /* the second entry, in the thread that wrote the record in the first:
     * it holds the lock, its signals are as the first left them, and
     * there is nothing left to do (no system call either) */
    if (__atomic_load_n(&il.ender, __ATOMIC_SEQ_CST) == il_self() &&
        __atomic_load_n(&il.phase, __ATOMIC_SEQ_CST) == IL_PHASE_DONE &&
        __atomic_load_n(&il.end_kind, __ATOMIC_SEQ_CST) == IL_END_EXITPATH)
        return;
    if (!il_measured())
        return;
    _IO_list_lock(); /* held to the end, but where an early on_exit handler is to run (below) */
    /* The program's stdio buffers go out now, before the claim, as
     * glibc's _IO_cleanup would send them a moment later: a write that
     * blocks (a pipe nobody reads) then blocks with every ending still
     * open to the program - SIGTERM or SIGPIPE ends the process and is
     * recorded as that signal, another thread's _exit wins - and the
     * window after the record stays short.  Not when an on_exit handler
     * registered before our constructor is still to run (after our
     * entries): without us its output, and the program's, go out after
     * it, or never if it ends the process otherwise; the record then
     * says it is not certain, and signals work after it (below). */
    if (__atomic_load_n(&il.ender, __ATOMIC_SEQ_CST) != il_self() && !il.exit_early_handlers)
        il_exit_flush();
    il_sigset all = IL_SIGALL, old;
    il_sys_sigprocmask(SIG_BLOCK, &all, &old);
    int r = il_claim(IL_END_EXITPATH, il.returned == il_self() ? IL_HOW_RETURN : IL_HOW_EXIT,
                     status, 0, NULL);
    if (r == IL_OTHER) {
        /* An exit() that another thread began before our constructor ran
         * (so that this one found our entries) runs the program's
         * handlers: this thread goes on as glibc would (il_end_yields). */
        if (il_end_yields()) {
            if (il.exit_early_handlers)
                il_io_list_unlock(); /* as below: glibc's handlers run unlocked */
            il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
            return;
        }
        il_block_forever(); /* an _exit or a fatal signal ends it; the lock stays held */
    }
    /* Output left to write (a stream another thread holds, which it may
     * yet write into, output pending, or a fopencookie stream, into
     * which any thread may yet write: glibc.c il_exit_open) goes out in
     * _IO_cleanup, after the record, and may block, raise SIGPIPE or call
     * the program's fopencookie functions, which may wait for another
     * thread's ending: then the program's signals work again, so that it stays as
     * killable as without us, another thread's ending is let through
     * (il_end_yields), and the record says that the process may end
     * otherwise ("certain": false).  exit_open is stored before the
     * record: a thread ending the process while it is written decides on
     * it once the record is out (review of session 9: stored after it, a
     * thread's _exit during the record waited for good for an ender whose
     * flush waited for that thread).  Nothing left: signals stay blocked
     * to the end, as in _exit, and no signal sent now can end the process
     * otherwise (without us it would have come after the end); output
     * another thread writes after the record still goes out in
     * _IO_cleanup (libinterloper(7): a residue, and why no stream is
     * held, glibc.c il_exit_open). */
    /* an on_exit handler registered before our constructor runs after
     * this record, in this thread: the program's code, as the final
     * flush's fopencookie functions are */
    int open = il.exit_early_handlers || il_exit_open();
    if (r == IL_CLAIMED)
        il.end_uncertain = open;
    if (open)
        __atomic_store_n(&il.exit_open, 1, __ATOMIC_SEQ_CST);
    il_write_record();
    /* An on_exit handler registered before our constructor runs next, in
     * this thread, and glibc runs it without stdio's list lock: it may
     * wait for a thread that opens, closes or flushes a stream, forks or
     * calls exit(), each of which takes that lock (review10f: a hang in
     * every run).  The record is written and says it is not certain; any
     * other thread's ending is let through (il_end_yields). */
    if (il.exit_early_handlers)
        il_io_list_unlock();
    if (open)
        il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
}

/* The two on_exit entries themselves (registered by start.c's
 * constructor, il_exit_record first): the same work, twice, for the
 * reason above exit_entry. */
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

/*
 * on_exit(3).  Why hooked: our constructor registers its two entries
 * through it, and so may another library's constructor that ran before
 * ours.  A handler registered there is tied to no library, so glibc's
 * exit() runs it after our entries, in exit's ender, past the record,
 * where it may wait for another thread's ending (review of session 9);
 * such a process is noted (il.exit_early_handlers), and exit_entry treats
 * the handler as the program's code past its record.  It must register
 * exactly what it is given, in the same order, may run before our
 * constructor (glibc's on_exit is bound on first use), and never runs in
 * a signal handler or _exit.
 */
IL_EXPORT int
on_exit(void (*fn)(int, void *), void *arg)
{
    if (il.phase == IL_PHASE_LOADED && fn != il_exit_record && fn != il_exit_lock) {
        il.exit_early_handlers = 1;
        il_bind_list_unlock();
    }
    return il_real_on_exit(fn, arg);
}

/* at_quick_exit entry (registered with __cxa_at_quick_exit, which glibc
 * calls with the status): quick_exit runs no on_exit entries.  The writer
 * ends the process itself, with the status recorded; handlers the program
 * registered before our constructor are skipped (documented), and it must
 * never return into quick_exit once the record is written, or another
 * handler could still change the ending. */
void
il_quick_record(void *arg, int status)
{
    (void)arg;
    if (!il_measured())
        return;
    il_sigset old;
    if (il_finish_blocked(IL_HOW_EXIT, status, 0, NULL, NULL, &old))
        for (;;)
            il_sys_exit_group(status); /* signals still blocked, as in _exit */
    il_sys_sigprocmask(SIG_SETMASK, &old, NULL);
}

/*
 * _exit(2) and _Exit(3).  Why hooked: a process that ends this way runs no
 * handler of ours otherwise, and its record would be lost.  They may be
 * called anywhere, a signal handler or a vfork child included: they must
 * stay async-signal-safe, write nothing in a vfork child (il_measured),
 * and never return, whatever happens to the record.  The status is the
 * one given, and signals stay blocked from the claim to the end.
 */
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

/* main returned into il_main_return (trampoline.S): what glibc would do
 * (exit with main's value), noting that this thread's main returned, so
 * that the record says "return". */
IL_HIDDEN void il_main_returned(int ret) __attribute__((noreturn));

void
il_main_returned(int ret)
{
    il.returned = il_self();
    exit_admit();
    il.real_exit(ret);
    __builtin_unreachable();
}

/*
 * exit(3).  Why hooked: to note that this thread did not return from
 * main ("exit", not "return"), to write a record for an exit before our
 * constructor ran (another library's constructor calling it: no entries
 * of ours are registered yet), and to admit at most two threads into
 * glibc's exit at once (exit_admit).  Everything else happens in glibc's
 * exit and our on_exit entries.  It must never run the program's
 * handlers itself or change their order, and must hand glibc's exit the
 * status given; glibc's own internal calls to exit (error(3)) do not come
 * here, and need not.
 */
IL_EXPORT void
exit(int status)
{
    il_resolve_reals();
    if (il.returned == il_self())
        il.returned = 0;
    if (il.phase == IL_PHASE_LOADED)
        il_finish(IL_HOW_EXIT, status, 0, NULL, NULL); /* before our constructor: no entries yet */
    exit_admit();
    il.real_exit(status);
    __builtin_unreachable();
}
