/*
 * racer: threads that end the process at the same moment, for the exit-race
 * tests (tests/system/interposer_races.sh) and the stress benchmark
 * (bench/stress.sh).  Nothing is printed: the outcome is the wait status.
 *
 *   racer MAIN ACTION N [atexit]
 *       main and N threads (1..16) meet at a spinning barrier, then main
 *       ends as MAIN says (return 1, exit 1) and every thread i (0..N-1)
 *       as ACTION says: exit (status 10+i), _exit (status 40+i), abort,
 *       return (the thread just ends), exec (thread 0 execs this program
 *       as "racer target", which exits with status 77 at once; the others
 *       call exit), mixed (four ways in turn: exit, _exit, SIGTERM raised
 *       in the thread, SIGUSR1 sent to the process).  With "atexit", main
 *       registers a handler that does a little work first, as real
 *       programs do.
 *   racer join MAIN
 *       main's atexit handler joins a worker, and the worker calls
 *       exit(3) once that handler runs (MAIN: return or exit 0).  glibc
 *       2.36 allows this: the worker runs the remaining handlers and the
 *       process ends with status 3.
 *   racer all-exit N
 *       libmonitor's tests/exit.c pattern: N threads call exit(0) while
 *       main returns 0, all at once.
 */
#include <err.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "endings.h"

static volatile int arrived, go;
static int nthreads;
static const char *action;
static int all_same = -1; /* every thread exits with this status, if >= 0 */

/* All threads leave the barrier within a few hundred nanoseconds of each
 * other: spinning, not sleeping, keeps the race tight. */
static void
meet(void)
{
    __atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
    while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
        sched_yield();
}

static void *
worker(void *arg)
{
    int i = (int)(long)arg;
    meet();
    if (!strcmp(action, "exit"))
        exit(all_same >= 0 ? all_same : 10 + i);
    if (!strcmp(action, "_exit"))
        _exit(40 + i);
    if (!strcmp(action, "abort"))
        abort();
    if (!strcmp(action, "mixed")) {
        end_fourway(i); /* exitpaths race-endings' too, with no stdio in the way */
        return NULL;
    }
    if (!strcmp(action, "exec")) {
        if (i == 0) {
            execl("/proc/self/exe", "racer", "target", (char *)NULL);
            _exit(99);
        }
        exit(10 + i);
    }
    return NULL; /* "return": the thread ends, the process goes on */
}

static volatile unsigned long sink;

static void
some_work(void)
{
    for (unsigned long i = 0; i < 20000; i++)
        sink += i;
}

static pthread_t joined;
static volatile int handler_running;

static void
join_worker(void)
{
    __atomic_store_n(&handler_running, 1, __ATOMIC_SEQ_CST);
    pthread_join(joined, NULL);
}

static void *
late_exiter(void *arg)
{
    (void)arg;
    while (!__atomic_load_n(&handler_running, __ATOMIC_SEQ_CST))
        sched_yield();
    exit(3);
}

/* Start n threads, wait until all are spinning, then let them go. */
static void
start_all(int n)
{
    pthread_t t;
    if (n < 1 || n > 16)
        errx(2, "N must be 1..16");
    nthreads = n;
    for (long i = 0; i < n; i++)
        if (pthread_create(&t, NULL, worker, (void *)i))
            errx(2, "pthread_create");
    while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < n)
        sched_yield();
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
}

int
main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "target"))
        return 77;
    if (argc >= 3 && !strcmp(argv[1], "join")) {
        atexit(join_worker);
        if (pthread_create(&joined, NULL, late_exiter, NULL))
            errx(2, "pthread_create");
        if (!strcmp(argv[2], "exit"))
            exit(0);
        return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "all-exit")) {
        action = "exit";
        all_same = 0;
        start_all(atoi(argv[2]));
        return 0;
    }
    if (argc < 4)
        errx(2,
             "usage: racer return|exit exit|_exit|abort|return|exec|mixed N [atexit] | racer join "
             "return|exit | racer all-exit N");
    action = argv[2];
    if (argc > 4 && !strcmp(argv[4], "atexit"))
        atexit(some_work);
    start_all(atoi(argv[3]));
    if (!strcmp(argv[1], "exit"))
        exit(1);
    return 1;
}
