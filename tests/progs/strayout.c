/*
 * strayout: a program that closed its stdout while another thread still
 * writes to descriptor 1, as it ends (tests/system/interposer_output.sh:
 * the record file, opened as the process ends, must never receive that
 * thread's bytes).
 *
 *   strayout [exit|_exit]
 *       closes fd 1, starts a thread that writes "stray\n" to fd 1 in a
 *       loop (each write failing with EBADF without the library), waits
 *       until it has written once, then returns 0 from main (or calls
 *       exit(0) or _exit(0)).
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int started;

static void *
writer(void *arg)
{
    (void)arg;
    for (;;) {
        if (write(1, "stray\n", 6) < 0)
            started = 1;
        else
            started = 1;
    }
    return NULL;
}

int
main(int argc, char **argv)
{
    pthread_t t;
    close(1);
    if (pthread_create(&t, NULL, writer, NULL))
        return 2;
    while (!started)
        sched_yield();
    if (argc > 1 && !strcmp(argv[1], "exit"))
        exit(0);
    if (argc > 1 && !strcmp(argv[1], "_exit"))
        _exit(0);
    return 0;
}
