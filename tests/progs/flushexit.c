/*
 * flushexit: a program whose output is still in stdio's buffer when it
 * ends, so that glibc's final flush at exit does the writing.
 *
 *   flushexit big                 1 MiB in a full buffer, then return 0
 *   flushexit watchdog N          the same, and a thread that calls _exit(N)
 *                                 a second after main returned
 *   flushexit sigpipe             stdout becomes a pipe without a reader;
 *                                 one line, then return 0 (the flush at exit
 *                                 gets SIGPIPE)
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[1 << 20];
static int wd_status;

static void *
watchdog(void *arg)
{
    (void)arg;
    sleep(1);
    _exit(wd_status);
}

int
main(int argc, char **argv)
{
    const char *m = argc > 1 ? argv[1] : "";
    if (!strcmp(m, "sigpipe")) {
        int p[2];
        if (pipe(p) < 0 || dup2(p[1], 1) < 0)
            return 2;
        close(p[0]);
        close(p[1]);
        puts("hello");
        return 0;
    }
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    for (int i = 0; i < 200000; i++)
        fputs("xxxx\n", stdout);
    if (!strcmp(m, "watchdog") && argc > 2) {
        pthread_t t;
        wd_status = atoi(argv[2]);
        pthread_create(&t, NULL, watchdog, NULL);
    }
    return 0;
}
