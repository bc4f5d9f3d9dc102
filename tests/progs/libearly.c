/*
 * libearly.so: a library whose constructor runs before interloper's.
 * What it does there is chosen by EARLY_MODE:
 *   exit      exit(7) before main
 *   _exit     _exit(8) before main
 *   fork      fork a child that exits at once, and wait for it
 *   signal    install a SIGTERM handler (the program must keep it)
 *   ignore    ignore SIGINT (the program must keep that too)
 *   exit3     three threads in exit(), in this order: this one exit(7),
 *             whose newest handler lets a thread A in (exit(11)), which
 *             parks in the older handler, then a thread B (exit(12)), and
 *             waits for B for good: B's exit ends the process, with 12
 *   exit_exit_ exit(7), whose handler lets a thread B in, which calls
 *             _exit(9), and waits for B for good: B ends the process
 *   exit_exec exit(7), whose handler lets a thread B in, which execs
 *             /bin/sh -c 'exit 13' with an empty environment, and waits
 *             for B for good: the new image ends with 13
 *   onexit_worker
 *             start a worker thread and register, with on_exit (not tied
 *             to this library, so run after interloper's own entries),
 *             a handler that stops the worker and joins it; the worker
 *             says "worker: goodbye" on stdout, through stdio, as it stops
 *   onexit_exit_
 *             the same, but the worker, stopped, calls _exit(5): the
 *             handler waits for good, and the worker ends the process
 *   onexit_fopen
 *             the same, but the worker, stopped, opens and closes
 *             /dev/null (stdio's list lock) and returns
 *   onexit_exit
 *             the same, but the worker, stopped, calls exit(9) (which
 *             takes stdio's list lock in its final flush): the handler
 *             waits for good, and the worker ends the process
 *   onexit_pipe
 *             start a thread that reads a pipe to its end, and register,
 *             with on_exit, a handler that closes the pipe's write end
 *             and joins the reader
 *   exit_pipe
 *             the same with atexit, then exit(7) before main
 *   onexit_exec
 *             register, with on_exit, a handler that execs /bin/sh with an
 *             empty environment (not measured), which creates the file
 *             execd in the current directory and sleeps 2 s
 * It says "early constructor" on stderr, so the tests can see the order.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void
on_term(int s)
{
    (void)s;
    static const char m[] = "early handler ran\n";
    (void)!write(1, m, sizeof m - 1);
}

/* exit3: each thread waits for its byte on its pipe, then exits; A says
 * on a third pipe that it is parked in the older handler. */
static int go_a[2], go_b[2], parked[2];
static pthread_t b;

static void *
in_exit(void *arg)
{
    int *go = arg;
    char c;
    if (read(go[0], &c, 1) != 1)
        abort();
    exit(go == go_a ? 11 : 12);
}

static void
park(void) /* run by A, second */
{
    (void)!write(parked[1], "p", 1);
    for (;;)
        pause();
}

static void
release(void) /* run by this thread, first */
{
    char c;
    (void)!write(go_a[1], "a", 1);
    if (read(parked[0], &c, 1) != 1)
        abort();
    (void)!write(go_b[1], "b", 1);
    pthread_join(b, NULL); /* never returns: B's exit ends the process */
}

/* exit_exit_ and exit_exec: B ends the process, its way, once the
 * handler of the early exit() lets it go, and the handler waits for it */
static int go_end[2];
static pthread_t ender;

static void *
end_other(void *arg)
{
    char c;
    if (read(go_end[0], &c, 1) != 1)
        abort();
    if (arg) { /* without LD_PRELOAD and EARLY_MODE: sh only */
        char *none[] = {NULL};
        execle("/bin/sh", "sh", "-c", "exit 13", (char *)NULL, none);
    }
    _exit(9);
}

static void
release_ender(void)
{
    (void)!write(go_end[1], "e", 1);
    pthread_join(ender, NULL); /* never returns: B ends the process */
}

static void
exit_other(int exec)
{
    if (pipe(go_end) || atexit(release_ender) ||
        pthread_create(&ender, NULL, end_other, exec ? go_end : NULL))
        abort();
    exit(7);
}

static void
exit3(void)
{
    pthread_t a;
    if (pipe(go_a) || pipe(go_b) || pipe(parked) || atexit(park) || atexit(release) ||
        pthread_create(&a, NULL, in_exit, go_a) || pthread_create(&b, NULL, in_exit, go_b))
        abort();
    exit(7);
}

/* onexit_worker: the handler runs in exit()'s thread after the record */
static pthread_mutex_t w_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t w_cond = PTHREAD_COND_INITIALIZER;
static int w_stop, w_exit, w_fopen, w_exit9;
static pthread_t w_thread;

static void *
worker(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&w_lock);
    while (!w_stop)
        pthread_cond_wait(&w_cond, &w_lock);
    pthread_mutex_unlock(&w_lock);
    if (w_exit)
        _exit(5);
    if (w_exit9)
        exit(9);
    if (w_fopen) {
        FILE *f = fopen("/dev/null", "r");
        if (f)
            fclose(f);
        return NULL;
    }
    printf("worker: goodbye\n");
    fflush(stdout);
    return NULL;
}

static void
stop_worker(int status, void *arg)
{
    (void)status;
    (void)arg;
    pthread_mutex_lock(&w_lock);
    w_stop = 1;
    pthread_cond_signal(&w_cond);
    pthread_mutex_unlock(&w_lock);
    pthread_join(w_thread, NULL);
}

/* onexit_pipe: the handler's close must reach the reader's table */
static int p_fd[2];
static pthread_t p_reader;

static void *
read_to_end(void *arg)
{
    (void)arg;
    char buf[64];
    while (read(p_fd[0], buf, sizeof buf) > 0)
        ;
    return NULL;
}

static void
close_and_join(int status, void *arg)
{
    (void)status;
    (void)arg;
    close(p_fd[1]);
    pthread_join(p_reader, NULL);
}

static void
close_and_join_at(void)
{
    close_and_join(0, NULL);
}

/* onexit_exec: the process goes on, past the record, as another program */
static void
exec_unmeasured(int status, void *arg)
{
    (void)status;
    (void)arg;
    char *const env[] = {NULL};
    execle("/bin/sh", "sh", "-c", ": >execd; sleep 2", (char *)NULL, env);
}

__attribute__((constructor)) static void
early(void)
{
    const char *m = getenv("EARLY_MODE");
    static const char msg[] = "early constructor\n";
    (void)!write(2, msg, sizeof msg - 1);
    if (!m)
        return;
    if (!strcmp(m, "exit"))
        exit(7);
    if (!strcmp(m, "exit3"))
        exit3();
    if (!strcmp(m, "exit_exit_"))
        exit_other(0);
    if (!strcmp(m, "exit_exec"))
        exit_other(1);
    if (!strcmp(m, "_exit"))
        _exit(8);
    if (!strcmp(m, "fork")) {
        pid_t p = fork();
        if (p == 0)
            _exit(0);
        waitpid(p, NULL, 0);
    }
    w_exit = !strcmp(m, "onexit_exit_");
    w_fopen = !strcmp(m, "onexit_fopen");
    w_exit9 = !strcmp(m, "onexit_exit");
    if ((w_exit || w_fopen || w_exit9 || !strcmp(m, "onexit_worker")) &&
        (on_exit(stop_worker, NULL) || pthread_create(&w_thread, NULL, worker, NULL)))
        abort();
    if (!strcmp(m, "onexit_exec") && on_exit(exec_unmeasured, NULL))
        abort();
    if (!strcmp(m, "exit_pipe")) {
        if (pipe(p_fd) || atexit(close_and_join_at) ||
            pthread_create(&p_reader, NULL, read_to_end, NULL))
            abort();
        exit(7);
    }
    if (!strcmp(m, "onexit_pipe") &&
        (pipe(p_fd) || on_exit(close_and_join, NULL) ||
         pthread_create(&p_reader, NULL, read_to_end, NULL)))
        abort();
    if (!strcmp(m, "signal"))
        signal(SIGTERM, on_term);
    if (!strcmp(m, "ignore"))
        signal(SIGINT, SIG_IGN);
}
