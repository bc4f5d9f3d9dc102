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
 *   flushexit wsigpipe            the same with wprintf: a wide-oriented
 *                                 stdout
 *   flushexit lockedpipe          the same, but another thread holds
 *                                 stdout's lock (flockfile) from before the
 *                                 return to the end
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

static char buf[1 << 20];
static pthread_mutex_t held_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t held_cv = PTHREAD_COND_INITIALIZER;
static int held;

static void *
hold_stdout(void *arg)
{
    (void)arg;
    flockfile(stdout);
    pthread_mutex_lock(&held_mu);
    held = 1;
    pthread_cond_signal(&held_cv);
    pthread_mutex_unlock(&held_mu);
    for (;;)
        pause();
    return NULL;
}
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
    if (!strcmp(m, "sigpipe") || !strcmp(m, "wsigpipe") || !strcmp(m, "lockedpipe")) {
        int p[2];
        if (pipe(p) < 0 || dup2(p[1], 1) < 0)
            return 2;
        close(p[0]);
        close(p[1]);
        if (!strcmp(m, "wsigpipe")) {
            wprintf(L"hello\n");
            return 0;
        }
        puts("hello");
        if (!strcmp(m, "lockedpipe")) {
            pthread_t t;
            pthread_create(&t, NULL, hold_stdout, NULL);
            pthread_mutex_lock(&held_mu);
            while (!held)
                pthread_cond_wait(&held_cv, &held_mu);
            pthread_mutex_unlock(&held_mu);
        }
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
