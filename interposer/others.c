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
 *           the end or the exec;
 *   STARTS  how many have started (modulo its limit): a measurement that
 *           began and ended inside this one's window shows here.
 * Another one ran during this window if ACTIVE counted another at the
 * start or at the end, or STARTS moved in between.  Three system calls
 * before main (the set's id, the count, a read), two at the end, after
 * the counters stopped: none inside the measured window.
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
#define STARTS_WRAP 16384 /* SEMVMX is 32767: STARTS goes back to 0 here */

union il_semun {
    int val;
    unsigned short *array;
};

static long
sem_read(unsigned short v[NSEMS])
{
    union il_semun u = {.array = v};
    return il_sc6(SYS_semctl, il.others_sem, 0, GETALL, (long)u.array, 0, 0);
}

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

/* Before main (or at a fork that measures itself, or after a failed exec):
 * count this image in, and note what the set said.  Another measurement
 * seen before a failed exec stays seen. */
void
il_others_enter(void)
{
    unsigned short v[NSEMS];
    int seen = il.others_state == 2;
    il.others_state = 0;
    if (il.counted_in)
        return;
    long id = il_sc6(SYS_semget, IL_SEM_KEY, NSEMS, IPC_CREAT | 0666, 0, 0, 0);
    if (id < 0)
        return;
    il.others_sem = (int)id;
    long rc = sem_add(1, 1);
    if (rc == -ERANGE) { /* STARTS at its limit: back to 0 (anyone watching sees a move) */
        union il_semun u = {.val = 0};
        il_sc6(SYS_semctl, il.others_sem, STARTS, SETVAL, u.val, 0, 0);
        rc = sem_add(1, 1);
    }
    if (rc < 0 || sem_read(v) < 0)
        return;
    il.others_starts = v[STARTS];
    il.others_state = v[ACTIVE] > 1 || seen ? 2 : 1; /* 1: counted in, nobody else yet */
    if (v[STARTS] >= STARTS_WRAP) {
        union il_semun u = {.val = 0};
        il_sc6(SYS_semctl, il.others_sem, STARTS, SETVAL, u.val, 0, 0);
        il.others_starts = 0;
    }
}

/* At the end of the image (its record, or its exec record), after the
 * counters stopped: look again, count this image out, and say it on
 * stderr.  Leaves il.others_state 2 when another measurement ran at any
 * time in between, 1 when none did, 0 when unknown. */
void
il_others_leave(void)
{
    unsigned short v[NSEMS];
    if (!il.others_state)
        return;
    if (sem_read(v) < 0)
        il.others_state = 0;
    else if (v[ACTIVE] > 1 || v[STARTS] != il.others_starts)
        il.others_state = 2;
    sem_add(-1, 0);
    if (il.others_state == 2)
        il_msg("another program measured by interloper ran on this machine during this "
               "measurement: it shared the CPUs and caches, and the record says so "
               "(others_measured); measure one program at a time",
               NULL, NULL);
}
