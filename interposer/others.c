/*
 * others.c: did another program measured by interloper run on this
 * machine while this one was measured?  Two measurements at once disturb
 * each other (lit -j2 ran two on two CPUs and said nothing: issue 14), and
 * the record says so ("others_measured"), as does one line on stderr.
 *
 * The library holds no descriptor of its own while main runs, and
 * interloper run is replaced by the program, so the machine-wide note is
 * a System V semaphore set (no descriptor, no mapping), of two counters:
 *   ACTIVE  how many measured images run now: each adds 1 as it starts,
 *           with SEM_UNDO, so that the kernel takes it back however the
 *           image ends (SIGKILL included), and takes it back itself at
 *           its record wherever the process may go on past it (an exec,
 *           a signal that may not end it, an exit handler or a final
 *           flush of the program's that runs after the record and may
 *           exec): the undo would go with it into the next image
 *           (review10d).  Where nothing of the program runs after the
 *           record (end_is_final) the kernel's undo at the process's end
 *           takes it back: one system call fewer (but a child made with
 *           clone(CLONE_SYSVSEM), not a thread, shares the undo, which
 *           the kernel applies when the last sharer ends: the note stays
 *           for the child's life; not hooked, documented: review14a L2);
 *   STARTS  how many have started (modulo its limit), which earlier
 *           versions of the library compare; still counted, in the same
 *           system call, so that they see this one.
 * An image starts with one semop that adds itself only if ACTIVE is 0
 * (alone), else adds itself and knows it is not alone.  The kernel keeps,
 * per semaphore, the pid of the last process that operated on it
 * (semctl GETPID): at the end, if that is still this image, nobody started
 * or ended since it started, and nobody was running then; anyone who did
 * left its own pid there (the kernel's undo at a process's end does too:
 * ipc/sem.c exit_sem).  Two system calls before main (the set's id, the
 * count), one or two at the end, after the counters stopped: none inside
 * the measured window.
 *
 * Images counted by an ancestor's counters (counted_in) are part of that
 * measurement, not another one: they neither count nor look.  The set
 * belongs to the IPC namespace: measurements in other containers are not
 * seen.  Anyone may create or use it (mode 0666); when it cannot be used
 * the record leaves the field out.
 *
 * Async-signal-safe: raw system calls only.
 */
#include <errno.h>
#include <sys/ipc.h>
#include <sys/sem.h>

#include "il.h"
#include "sys.h"

#define IL_SEM_KEY 0x494c4d31 /* "ILM1" */
enum { ACTIVE, STARTS, NSEMS };

union il_semun {
    int val;
};

static long
sem_add(int active, int starts)
{
    struct sembuf op[2];
    int n = 0;
    if (active)
        op[n++] = (struct sembuf){ACTIVE, (short)active, SEM_UNDO | IPC_NOWAIT};
    if (starts)
        op[n++] = (struct sembuf){STARTS, (short)starts, IPC_NOWAIT};
    return il_sc6(SYS_semop, il.others_sem, (long)op, n, 0, 0, 0);
}

/* Count this image in only if nobody else is: ACTIVE waited for 0, then
 * added to, in one atomic semop (the operations apply in order, all or
 * none).  0 when alone; -EAGAIN when another measured image runs. */
static long
sem_enter_alone(void)
{
    struct sembuf op[3] = {
        {ACTIVE, 0, IPC_NOWAIT},
        {ACTIVE, 1, SEM_UNDO | IPC_NOWAIT},
        {STARTS, 1, IPC_NOWAIT},
    };
    return il_sc6(SYS_semop, il.others_sem, (long)op, 3, 0, 0, 0);
}

/* Before main (or at a fork that measures itself, or after a failed exec):
 * count this image in, and note whether another was running.  Another
 * measurement seen before a failed exec stays seen. */
void
il_others_enter(void)
{
    int seen = il.others_state == 2;
    il.others_state = 0;
    if (il.counted_in)
        return;
    long id = il_sc6(SYS_semget, IL_SEM_KEY, NSEMS, IPC_CREAT | 0666, 0, 0, 0);
    if (id < 0)
        return;
    il.others_sem = (int)id;
    for (int tries = 0; tries < 2; tries++) {
        long rc = sem_enter_alone();
        if (rc == -EAGAIN) {
            seen = 1;
            rc = sem_add(1, 1);
        }
        if (rc == -ERANGE) { /* STARTS at its limit: back to 0 (older watchers see a move) */
            union il_semun u = {.val = 0};
            il_sc6(SYS_semctl, il.others_sem, STARTS, SETVAL, u.val, 0, 0);
            continue;
        }
        if (rc < 0)
            return;
        il.others_state = seen ? 2 : 1; /* 1: counted in, nobody else yet */
        return;
    }
}

/*
 * Whether this record's ending is the end of the process, with nothing of
 * the program run after it: _exit, _Exit and quick_exit (the writer ends
 * the process right after the record, signals blocked: exit.c
 * finish_and_end, il_quick_record), and exit()'s ender with no output
 * left to the final flush and no on_exit handler registered before our
 * constructor (exit.c exit_entry: glibc's _IO_cleanup with nothing to
 * write, then _exit; signals blocked to the end; another thread's exec
 * waits for good, il_end_wait).  Not an exec, which may fail or go on as
 * another image; not a fatal signal, which does not end pid 1 of a
 * namespace; not an exit() before our constructor, nor exit's ender with
 * output left (exit_open, stored before the record), whose handlers or
 * fopencookie functions may exec (review10d).
 */
static int
end_is_final(void)
{
    int k = __atomic_load_n(&il.end_kind, __ATOMIC_SEQ_CST);
    if (il.end_how == IL_HOW_EXEC || il.end_how == IL_HOW_SIGNAL)
        return 0;
    if (k == IL_END_SELF)
        return 1;
    return k == IL_END_EXITPATH && !il.exit_early_handlers &&
           !__atomic_load_n(&il.exit_open, __ATOMIC_SEQ_CST);
}

/* At the end of the image (its record, or its exec record), after the
 * counters stopped: look again, count this image out where the process
 * may go on, and say it on stderr.  Leaves il.others_state 2 when another
 * measurement ran at any time in between, 1 when none did, 0 when
 * unknown. */
void
il_others_leave(void)
{
    if (!il.others_state)
        return;
    long last = il_sc6(SYS_semctl, il.others_sem, ACTIVE, GETPID, 0, 0, 0);
    if (last < 0)
        il.others_state = 0;
    else if (last != il.pid)
        il.others_state = 2;
    /* out now where the process may go on past the record (an exec, or
     * an exit handler run after it that execs: review10d): the kernel's
     * undo would carry the note into the next image.  Where it cannot,
     * the undo at its end takes it out, after the record is written: a
     * measurement that starts in between (the record's writing, the
     * process's teardown) is told this one ran, which it still does. */
    if (!end_is_final())
        sem_add(-1, 0);
    if (il.others_state == 2)
        il_msg("another program measured by interloper ran on this machine during this "
               "measurement: it shared the CPUs and caches, and the record says so "
               "(others_measured); measure one program at a time",
               NULL, NULL);
}
