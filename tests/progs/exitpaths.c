/*
 * exitpaths: ends in the way its first argument names, so the system tests
 * can check that every way of ending writes exactly one record.
 *
 *   exitpaths return N | exit N | _exit N | _Exit N | error N
 *   exitpaths exec PATH ARGS... | execvp FILE ARGS... | execl PATH
 *   exitpaths execfail | execnoexec FILE | execv-fails FILE ARGS...
 *   exitpaths raise SIG | segv | abort | sigpipe | killthread SIG
 *   exitpaths segv-blocked | segv-ignored   a fault no handler can see: in a
 *             thread with every signal blocked (a thread pool's usual
 *             mask), or with SIGSEGV ignored; the kernel kills at once
 *   exitpaths threads-exit N | pthread-exit | pthread-exit-spawn PROG [ARG...]
 *   exitpaths fork-noexec | fork-exec PATH ARGS... | vfork-exec PATH | vfork-spin
 *   exitpaths system CMD | spawn PATH ARGS... | spawnp FILE ARGS... | popen CMD
 *             glibc's system, posix_spawn(p) or popen (read to its end,
 *             pclose), waited for; the return, errno (set to 1234 before)
 *             and the child's status printed; system-threaded CMD: the
 *             same with a second thread waiting; spawn-chdir DIR PATH
 *             ARGS...: posix_spawn with a file action that changes to DIR
 *             first (posix_spawn_file_actions_addchdir_np); spawnp-chdir
 *             DIR FILE ARGS...: the same with posix_spawnp
 *   exitpaths sigview SIG | sigreset SIG
 *   exitpaths atexit-work MIB | threads-busy N
 *   exitpaths atexit-fork N   exit(N), whose atexit handler forks by the
 *             raw system call (past any fork hook), so that the child goes
 *             on through the rest of exit(N) with its parent's memory; the
 *             parent waits for it and prints "child exited N"
 *   exitpaths altstack SIG | sigset SIG | resethand SIG | vfork-sig SIG
 *   exitpaths quick N | daemon | fsize | thread-_exit N | race-endings
 *   exitpaths exec-during-exit N
 *   exitpaths oneshot-view SIG | sysv-view SIG
 *   exitpaths fexecve PATH ARGS... | execveat PATH ARGS...
 *   exitpaths cookie-end _exit|raise|quick|exec|execsleep   exit(0)
 *             while a thread holds a fopencookie stream with output
 *             locked, so that the output is left to glibc's final flush,
 *             after the record; its write function lets a thread B end the
 *             process (_exit(9), SIGTERM raised in B, quick_exit(9), or an
 *             exec with an empty environment of /bin/sh -c 'exit 13', or
 *             of /bin/sh that makes the file execd in the current
 *             directory and sleeps 2 s) and waits for B for good
 *   exitpaths record-race during|after _exit|raise|quick|exec PATH
 *             another thread's doing while exit(0)'s record is written (the
 *             tests hold the record in its window with the delay library,
 *             IL_TEST_DELAY=record_open:MS, and PATH is the record file,
 *             which appears as the window opens; without the library the
 *             threads wait for it at most 3 s).  during: output left to
 *             the final flush (a stream held by a thread until PATH
 *             appears); B ends the process its way once PATH appears, and
 *             the flush's write function waits for B.  after: nothing
 *             left; a thread writes into a fopencookie stream once PATH
 *             appears, and the stream's write function, called by exit's
 *             final flush in main, lets B end the process and waits for B
 *   exitpaths cookie-seek r|r+   exit(0) after one character read from a
 *             fopencookie stream (opened with that mode), so that input
 *             read ahead is left in its buffer: glibc's final cleanup gives
 *             it back through the stream's seek function, which, in the
 *             main thread, lets B _exit(9) and waits for B for good
 *   exitpaths cookie-seekfail r|r+ ESPIPE|EINVAL   exit(3) after one
 *             character read from a fopencookie stream whose seek writes
 *             "seek" to stdout and fails with that errno: glibc's final
 *             cleanup calls it once, with the library as without
 *   exitpaths cookie-late US   exit(0) while a thread, US microseconds
 *             after main began it, writes into a buffered fopencookie
 *             stream whose write function lets B _exit(9) and waits for B
 *             (bench/exit-cookie.sh: the race that record-race after makes
 *             certain)
 *   exitpaths stdin-reader N   exit(N) while a thread waits in fgets(stdin)
 *             (holding stdin's lock: the test gives it a stdin that stays
 *             silent)
 *
 * It prints to stdout, so the tests can compare stdout with and without
 * the library.
 */
#include <err.h>
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "endings.h"

/* a failure of the test program itself, not of what it tests: said with
 * its line and errno, so that a rare one in CI names its cause (SIGABRT
 * with nothing said once, in one of some thousand runs) */
#define DIE() die_at(__LINE__)
static void __attribute__((noreturn)) die_at(int line)
{
    char b[96];
    int e = errno;
    int n = snprintf(b, sizeof b, "exitpaths: internal failure at line %d (errno %d)\n", line, e);
    if (n > 0)
        (void)!write(2, b, (size_t)n);
    abort();
}

extern char **environ;

static void *
fault(void *arg)
{
    (void)arg;
    volatile int *p = NULL;
    *p = 1;
    return NULL;
}

static void
spin_cpu_ms(long ms)
{
    /* work measured in this process's CPU time, not in iterations: the
     * tests compare it with a floor, and iterations take less time on a
     * fast machine and more on a loaded one */
    struct timespec t0, t;
    volatile unsigned long x = 0;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    do {
        for (int i = 0; i < 10000; i++)
            x += (unsigned long)i;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < ms * 1000000L);
    (void)x;
}

static void
bye(void)
{
    printf("atexit handler ran\n");
}

static size_t atexit_mib;

static void
forking_atexit(void)
{
    fflush(stdout);
    long pid = syscall(SYS_fork);
    if (pid == 0)
        return; /* the child: the rest of exit(), with its parent's state */
    int st = 0;
    if (pid > 0 && waitpid((pid_t)pid, &st, 0) == (pid_t)pid && WIFEXITED(st))
        printf("child exited %d\n", WEXITSTATUS(st));
}

static void
heavy_atexit(void)
{
    /* work done by the program's own atexit handler: must be counted */
    size_t n = atexit_mib << 20;
    char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    madvise(p, n, MADV_NOHUGEPAGE);
    for (size_t i = 0; i < n; i += 4096)
        p[i] = 1;
    printf("heavy atexit handler touched %zu pages\n", n / 4096);
}

/* a thread that only waits, for good */
static void *
waiter(void *arg)
{
    for (;;)
        pause();
    return arg;
}

static void *
spinner(void *arg)
{
    (void)arg;
    struct timespec a, b;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    volatile unsigned long x = 0;
    do {
        for (int i = 0; i < 100000; i++)
            x += (unsigned long)i;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 50000000L);
    (void)x;
    return NULL;
}

static volatile int handled;

static void
reraise(int s)
{
    handled++;
    printf("handler ran\n");
    fflush(stdout);
    raise(s); /* with SA_RESETHAND the default action applies now */
}

/* thread-_exit: the handler says it runs, then waits for the other
 * thread's _exit to end the process.  No sleep decides the order: a
 * loaded machine once let the handler's 200 ms pass before the thread's
 * 50 ms did.  The wait is bounded (60 s), so a _exit that never ends the
 * process shows as status 0, not as a hang. */
static volatile int atexit_running;

static void
slow_atexit(void)
{
    __atomic_store_n(&atexit_running, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 60000; i++)
        usleep(1000);
    printf("atexit done\n");
}

static void *
late_exit(void *arg)
{
    while (!__atomic_load_n(&atexit_running, __ATOMIC_SEQ_CST))
        usleep(1000);
    _exit((int)(long)arg);
}

static pthread_barrier_t barrier;

static void *
mixed_ender(void *arg)
{
    pthread_barrier_wait(&barrier);
    end_fourway((long)arg);
    return NULL;
}

static void *
late_exec(void *arg)
{
    (void)arg;
    char *v[] = {"/bin/sh", "-c", "exit 7", NULL};
    pthread_barrier_wait(&barrier);
    usleep(300000); /* main is well into exit() by now */
    execve(v[0], v, environ);
    return NULL;
}

static void *
exiter(void *arg)
{
    pthread_barrier_wait(&barrier);
    exit((int)(long)arg);
}

static void *
lingerer(void *arg)
{
    (void)arg;
    usleep(50000);
    printf("last thread done\n");
    fflush(stdout);
    return NULL;
}

/* pthread-exit-spawn's thread: once the main thread has ended (the
 * leader's state Z in /proc/self/stat, though the process lives), the
 * run's spec goes (a cleaner of TMPDIR), then a child execs argv[2..] */
static char **spawn_argv;
static void *
late_spawner(void *arg)
{
    (void)arg;
    for (int i = 0; i < 2000; i++) { /* 20 s at most */
        char b[512] = {0};
        FILE *f = fopen("/proc/self/stat", "r");
        size_t n = f ? fread(b, 1, sizeof b - 1, f) : 0;
        if (f)
            fclose(f);
        char *c = n ? strrchr(b, ')') : NULL;
        if (c && c[1] == ' ' && c[2] == 'Z')
            break;
        usleep(10000);
    }
    const char *s = getenv("INTERLOPER_RUN");
    if (s)
        unlink(s);
    pid_t p = fork();
    if (p == 0) {
        execv(spawn_argv[0], spawn_argv);
        _exit(127);
    }
    int st;
    waitpid(p, &st, 0);
    return NULL;
}

static void *
killer(void *arg)
{
    raise((int)(long)arg);
    return NULL;
}

static void
on_sig(int s)
{
    (void)s;
}

/* cookie-end: B waits for its byte, then ends the process its way */
static int cookie_go[2], cookie_locked[2];
static pthread_t cookie_ender;

static void *
cookie_end(void *arg)
{
    const char *how = arg;
    char c;
    if (read(cookie_go[0], &c, 1) != 1)
        DIE();
    if (!strcmp(how, "raise"))
        raise(SIGTERM);
    else if (!strcmp(how, "quick"))
        quick_exit(9);
    else if (!strcmp(how, "exec")) {
        char *none[] = {NULL};
        execle("/bin/sh", "sh", "-c", "exit 13", (char *)NULL, none);
    } else if (!strcmp(how, "execsleep")) {
        char *none[] = {NULL};
        execle("/bin/sh", "sh", "-c", ": >execd; exec /bin/sleep 2", (char *)NULL, none);
    }
    _exit(9);
}

static ssize_t
cookie_write(void *cookie, const char *b, size_t n)
{
    (void)cookie;
    (void)b;
    (void)!write(cookie_go[1], "g", 1);
    pthread_join(cookie_ender, NULL); /* never returns: B ends the process */
    return (ssize_t)n;
}

/* cookie-seek: the stream's read gives 'a's; its seek, in main, lets B
 * end the process (cookie_end "_exit": 9) and waits for it */
static pthread_t seek_main;

static ssize_t
cookie_read(void *cookie, char *b, size_t n)
{
    (void)cookie;
    memset(b, 'a', n);
    return (ssize_t)n;
}

static int
cookie_seek(void *cookie, off64_t *off, int whence)
{
    (void)cookie;
    (void)whence;
    if (pthread_equal(pthread_self(), seek_main)) {
        (void)!write(cookie_go[1], "g", 1);
        pthread_join(cookie_ender, NULL); /* never returns: B ends the process */
    }
    *off = 0;
    return 0;
}

/* cookie-seekfail: a seek that says so on stdout and fails */
static int seekfail_errno;

static int
cookie_seekfail(void *cookie, off64_t *off, int whence)
{
    (void)cookie;
    (void)off;
    (void)whence;
    (void)!write(1, "seek\n", 5);
    errno = seekfail_errno;
    return -1;
}

/* record-race: the record file's appearance is the signal */
static const char *race_path;
static FILE *race_fp;

static void
wait_record(void)
{
    struct timespec ms = {0, 1000000L};
    for (int i = 0; i < 3000 && access(race_path, F_OK) != 0; i++)
        nanosleep(&ms, NULL);
}

static void *
race_ender(void *arg)
{
    wait_record();
    (void)!write(cookie_go[1], "g", 1);
    return cookie_end(arg);
}

static void *
race_holder(void *arg)
{
    (void)arg;
    flockfile(race_fp);
    (void)!write(cookie_locked[1], "l", 1);
    wait_record();
    funlockfile(race_fp); /* for a glibc whose final flush takes the lock */
    for (;;)
        pause();
    return NULL;
}

/* cookie-late: writes into race_fp once main has begun exit() and the
 * given microseconds have passed */
static volatile int late_exiting;

static void *
late_writer(void *arg)
{
    long us = (long)arg;
    struct timespec t0, t;
    while (!__atomic_load_n(&late_exiting, __ATOMIC_SEQ_CST))
        ;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
    fputc('x', race_fp); /* into the buffer, for exit's final flush */
    for (;;)
        pause();
    return NULL;
}

static void *
stdin_reader(void *arg)
{
    char b[64];
    (void)arg;
    if (fgets(b, sizeof b, stdin))
        printf("read %s", b);
    return NULL;
}

static void *
race_writer(void *arg)
{
    (void)arg;
    wait_record();
    fputc('x', race_fp); /* into the buffer: the final flush writes it */
    for (;;)
        pause();
    return NULL;
}

static void *
cookie_holder(void *arg)
{
    flockfile((FILE *)arg);
    (void)!write(cookie_locked[1], "l", 1);
    for (;;)
        pause();
    return NULL;
}

/* posix_spawn of /bin/true, waited for (system-nested) */
static void
spawn_true(int sig)
{
    (void)sig;
    pid_t p;
    int st;
    char *a[] = {(char *)"/bin/true", NULL};
    if (!posix_spawn(&p, "/bin/true", NULL, NULL, a, environ))
        waitpid(p, &st, 0);
}

int
main(int argc, char **argv)
{
    if (argc < 2)
        errx(2, "usage: exitpaths MODE [ARGS]");
    const char *m = argv[1];
    int n = argc > 2 ? atoi(argv[2]) : 0;
    atexit(bye);
    printf("mode %s\n", m);

    if (!strcmp(m, "return"))
        return n;
    if (!strcmp(m, "exit"))
        exit(n);
    if (!strcmp(m, "_exit")) {
        fflush(stdout);
        _exit(n);
    }
    if (!strcmp(m, "_Exit")) {
        fflush(stdout);
        _Exit(n);
    }
    if (!strcmp(m, "error"))
        error(n, 0, "failing through error(3)");
    if (!strcmp(m, "exec")) {
        fflush(stdout);
        execv(argv[2], argv + 2);
        err(126, "execv");
    }
    if (!strcmp(m, "execvp")) {
        fflush(stdout);
        execvp(argv[2], argv + 2);
        err(126, "execvp");
    }
    if (!strcmp(m, "execl")) {
        fflush(stdout);
        execl(argv[2], argv[2], "one", "two", (char *)NULL);
        err(126, "execl");
    }
    if (!strcmp(m, "fexecve") || !strcmp(m, "execveat")) {
        int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            err(126, "open");
        fflush(stdout);
        if (!strcmp(m, "fexecve"))
            fexecve(fd, argv + 2, environ);
        else
            execveat(fd, "", argv + 2, environ, AT_EMPTY_PATH);
        err(126, "%s", m);
    }
    if (!strcmp(m, "execfail")) {
        execl("/nonexistent/program", "program", (char *)NULL);
        printf("exec failed: %s\n", strerror(errno));
        spin_cpu_ms(30);
        return 3;
    }
    if (!strcmp(m, "execnoexec")) {
        /* passes every check but the kernel's: ENOEXEC */
        char *args[] = {argv[2], NULL};
        execve(argv[2], args, NULL);
        printf("exec failed: %s\n", strerror(errno));
        spin_cpu_ms(30);
        return 4;
    }
    if (!strcmp(m, "execv-fails")) {
        /* the exec fails in the kernel, the environment kept: a script
         * whose #! interpreter is not there (ENOENT) */
        execv(argv[2], argv + 2);
        printf("exec failed: %s\n", strerror(errno));
        spin_cpu_ms(30);
        return 0;
    }
    if (!strcmp(m, "raise")) {
        fflush(stdout);
        raise(n);
        return 99;
    }
    if (!strcmp(m, "segv")) {
        fflush(stdout);
        volatile int *p = NULL;
        *p = 1;
        return 99;
    }
    if (!strcmp(m, "segv-ignored")) {
        fflush(stdout);
        signal(SIGSEGV, SIG_IGN);
        volatile int *p = NULL;
        *p = 1;
        return 99;
    }
    if (!strcmp(m, "segv-blocked")) {
        fflush(stdout);
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, NULL); /* inherited by the thread */
        pthread_t t;
        pthread_create(&t, NULL, fault, NULL);
        pthread_join(t, NULL);
        return 99;
    }
    if (!strcmp(m, "abort")) {
        fflush(stdout);
        abort();
    }
    if (!strcmp(m, "sigpipe")) {
        int p[2];
        fflush(stdout);
        if (pipe(p) < 0)
            err(1, "pipe");
        close(p[0]);
        (void)!write(p[1], "x", 1);
        return 99;
    }
    if (!strcmp(m, "killthread")) {
        pthread_t t;
        fflush(stdout);
        pthread_create(&t, NULL, killer, (void *)(long)n);
        pthread_join(t, NULL);
        return 99;
    }
    if (!strcmp(m, "threads-exit")) {
        pthread_t t[16];
        if (n < 2 || n > 16)
            n = 4;
        fflush(stdout);
        pthread_barrier_init(&barrier, NULL, (unsigned)n);
        for (long i = 0; i < n; i++)
            pthread_create(&t[i], NULL, exiter, (void *)(i + 10));
        for (;;)
            pause();
    }
    if (!strcmp(m, "pthread-exit-spawn") && argc > 2) {
        pthread_t t;
        spawn_argv = argv + 2;
        fflush(stdout);
        pthread_create(&t, NULL, late_spawner, NULL);
        pthread_exit(NULL);
    }
    if (!strcmp(m, "pthread-exit")) {
        pthread_t t;
        fflush(stdout);
        pthread_create(&t, NULL, lingerer, NULL);
        pthread_exit(NULL);
    }
    if (!strcmp(m, "fork-noexec") || !strcmp(m, "fork-exec") || !strcmp(m, "vfork-exec")) {
        fflush(stdout);
        int st;
        pid_t p = !strcmp(m, "vfork-exec") ? vfork() : fork();
        if (p == 0) {
            if (strcmp(m, "fork-noexec")) {
                execv(argv[2], argv + 2);
                _exit(127);
            }
            spin_cpu_ms(30);
            printf("child done\n");
            exit(0);
        }
        waitpid(p, &st, 0);
        printf("child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st));
        return 0;
    }
    if (!strcmp(m, "vfork-spin")) {
        /* a vfork child that works 30 ms of CPU, then _exit(5) */
        int st;
        pid_t p = vfork();
        if (p == 0) {
            spin_cpu_ms(30);
            _exit(5);
        }
        waitpid(p, &st, 0);
        printf("child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st));
        return 0;
    }
    if (!strcmp(m, "sigview")) {
        /* what the program sees must be what it would see alone */
        struct sigaction sa;
        sigaction(n, NULL, &sa);
        printf("sig %d: %s\n", n,
               sa.sa_handler == SIG_DFL   ? "default"
               : sa.sa_handler == SIG_IGN ? "ignored"
                                          : "handler");
        void (*old)(int) = signal(n, on_sig);
        printf("signal() returned %s\n", old == SIG_DFL ? "default" : "other");
        old = signal(n, SIG_DFL);
        printf("signal() returned %s\n", old == on_sig ? "our handler" : "other");
        sigaction(n, NULL, &sa);
        printf("now %s\n", sa.sa_handler == SIG_DFL ? "default" : "other");
        return 0;
    }
    if (!strcmp(m, "sigreset")) {
        /* install a handler, put back the default, then die of it */
        signal(n, on_sig);
        signal(n, SIG_DFL);
        fflush(stdout);
        raise(n);
        return 99;
    }
    if (!strcmp(m, "atexit-fork")) {
        atexit(forking_atexit);
        exit(n);
    }
    if (!strcmp(m, "atexit-work")) {
        atexit_mib = (size_t)n;
        atexit(heavy_atexit);
        exit(0);
    }
    if (!strcmp(m, "system-nested")) {
        /* a spawn in a signal handler during system() (review14d M1) */
        struct itimerval it = {{0, 0}, {0, 200000}};
        signal(SIGALRM, spawn_true);
        setitimer(ITIMER_REAL, &it, NULL);
        int r = system(argv[2]);
        printf("system-nested %d\n", r);
        return 0;
    }
    if ((!strcmp(m, "spawn-chdir") || !strcmp(m, "spawnp-chdir")) && argc > 3) {
        posix_spawn_file_actions_t fa;
        pid_t p;
        int st = -1;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addchdir_np(&fa, argv[2]);
        fflush(stdout);
        int r = (m[5] == 'p' ? posix_spawnp : posix_spawn)(&p, argv[3], &fa, NULL, argv + 3,
                                                             environ);
        if (!r)
            waitpid(p, &st, 0);
        printf("%s %d status %d\n", m, r, st);
        return 0;
    }
    if (!strcmp(m, "system") || !strcmp(m, "system-threaded") || !strcmp(m, "spawn") ||
        !strcmp(m, "spawnp") || !strcmp(m, "popen")) {
        pthread_t t;
        if (!strcmp(m, "system-threaded"))
            pthread_create(&t, NULL, waiter, NULL);
        fflush(stdout);
        errno = 1234;
        if (!strncmp(m, "system", 6)) {
            int r = system(argv[2]);
            printf("system %d errno %d\n", r, errno);
            return 0;
        }
        if (!strcmp(m, "popen")) {
            FILE *f = popen(argv[2], "r");
            int e = errno, c;
            while (f && (c = getc(f)) != EOF)
                putchar(c);
            printf("popen %s errno %d status %d\n", f ? "ok" : "failed", e, f ? pclose(f) : -1);
            return 0;
        }
        pid_t p;
        int st = -1,
            r = (m[5] ? posix_spawnp : posix_spawn)(&p, argv[2], NULL, NULL, argv + 2, environ);
        int e = errno;
        if (!r)
            waitpid(p, &st, 0);
        printf("%s %d errno %d status %d\n", m, r, e, st);
        return 0;
    }
    if (!strcmp(m, "threads-busy")) {
        /* n threads, 50 ms of CPU each */
        pthread_t t[16];
        if (n < 1 || n > 16)
            n = 2;
        for (int i = 0; i < n; i++)
            pthread_create(&t[i], NULL, spinner, NULL);
        for (int i = 0; i < n; i++)
            pthread_join(t[i], NULL);
        printf("threads done\n");
        return 0;
    }
    if (!strcmp(m, "altstack")) {
        /* a small alternate signal stack, as programs that catch overflows use */
        static char alt[4096]; /* small, but above MINSIGSTKSZ on x86-64 */
        stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
        sigaltstack(&ss, NULL);
        fflush(stdout);
        raise(n);
        return 99;
    }
    if (!strcmp(m, "sigset")) {
        /* glibc's sigset() bypasses sigaction(); then back to default */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
        sigset(n, on_sig);
#pragma GCC diagnostic pop
        signal(n, SIG_DFL);
        fflush(stdout);
        raise(n);
        return 99;
    }
    if (!strcmp(m, "resethand")) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = reraise;
        sa.sa_flags = SA_RESETHAND;
        sigaction(n, &sa, NULL);
        raise(n);
        return 99;
    }
    if (!strcmp(m, "vfork-sig")) {
        /* a vfork child shares our memory; what we see must not change */
        pid_t p = vfork();
        if (p == 0)
            raise(n);
        waitpid(p, NULL, 0);
        struct sigaction sa;
        sigaction(n, NULL, &sa);
        printf("sig %d: %s\n", n, sa.sa_handler == SIG_DFL ? "default" : "other");
        return 0;
    }
    if (!strcmp(m, "quick")) {
        fflush(stdout);
        quick_exit(n);
    }
    if (!strcmp(m, "daemon")) {
        fflush(stdout);
        if (daemon(1, 1) < 0)
            err(1, "daemon");
        spin_cpu_ms(30);
        return 0;
    }
    if (!strcmp(m, "fsize")) {
        /* a file-size limit below the record's size must not kill us */
        struct rlimit rl = {100, 100};
        setrlimit(RLIMIT_FSIZE, &rl);
        printf("ok\n");
        return 0;
    }
    if (!strcmp(m, "thread-_exit")) {
        /* another thread's _exit during the atexit handlers ends the process */
        pthread_t t;
        atexit(slow_atexit);
        pthread_create(&t, NULL, late_exit, (void *)(long)n);
        return 0;
    }
    if (!strcmp(m, "exec-during-exit")) {
        /* a thread execs while main's exit() is under way */
        pthread_t t;
        fflush(stdout);
        pthread_barrier_init(&barrier, NULL, 2);
        pthread_create(&t, NULL, late_exec, NULL);
        pthread_barrier_wait(&barrier);
        exit(n);
    }
    if (!strcmp(m, "cookie-end") && argc > 2) {
        cookie_io_functions_t io = {NULL, cookie_write, NULL, NULL};
        FILE *fp = fopencookie(NULL, "w", io);
        pthread_t h;
        char c;
        if (!fp || pipe(cookie_go) || pipe(cookie_locked) ||
            pthread_create(&cookie_ender, NULL, cookie_end, argv[2]))
            DIE();
        fputs("left for the final flush\n", fp);
        fflush(stdout);
        if (pthread_create(&h, NULL, cookie_holder, fp) || read(cookie_locked[0], &c, 1) != 1)
            DIE();
        exit(0);
    }
    if (!strcmp(m, "cookie-seek") && argc > 2) {
        cookie_io_functions_t io = {cookie_read, NULL, cookie_seek, NULL};
        FILE *fp = fopencookie(NULL, argv[2], io);
        seek_main = pthread_self();
        if (!fp || pipe(cookie_go) || fgetc(fp) != 'a' ||
            pthread_create(&cookie_ender, NULL, cookie_end, "_exit"))
            DIE();
        fflush(stdout);
        exit(0);
    }
    if (!strcmp(m, "cookie-seekfail") && argc > 3) {
        cookie_io_functions_t io = {cookie_read, NULL, cookie_seekfail, NULL};
        FILE *fp = fopencookie(NULL, argv[2], io);
        seekfail_errno = strcmp(argv[3], "ESPIPE") ? EINVAL : ESPIPE;
        if (!fp || fgetc(fp) != 'a')
            DIE();
        exit(3);
    }
    if (!strcmp(m, "record-race") && argc > 4) {
        int during = !strcmp(argv[2], "during");
        cookie_io_functions_t io = {NULL, cookie_write, NULL, NULL};
        pthread_t t;
        char c;
        race_path = argv[4];
        fflush(stdout);
        race_fp = fopencookie(NULL, "w", io);
        if (!race_fp || pipe(cookie_go) || pipe(cookie_locked) ||
            setvbuf(race_fp, NULL, _IOFBF, 4096) ||
            pthread_create(&cookie_ender, NULL, during ? race_ender : cookie_end, argv[3]))
            DIE();
        if (during) {
            fputs("left for the final flush\n", race_fp);
            if (pthread_create(&t, NULL, race_holder, NULL) || read(cookie_locked[0], &c, 1) != 1)
                DIE();
        } else if (pthread_create(&t, NULL, race_writer, NULL)) {
            DIE();
        }
        exit(0);
    }
    if (!strcmp(m, "cookie-late")) {
        cookie_io_functions_t io = {NULL, cookie_write, NULL, NULL};
        pthread_t t;
        fflush(stdout);
        race_fp = fopencookie(NULL, "w", io);
        if (!race_fp || pipe(cookie_go) || setvbuf(race_fp, NULL, _IOFBF, 4096) ||
            pthread_create(&cookie_ender, NULL, cookie_end, "_exit") ||
            pthread_create(&t, NULL, late_writer, (void *)(long)n))
            DIE();
        __atomic_store_n(&late_exiting, 1, __ATOMIC_SEQ_CST);
        exit(0);
    }
    if (!strcmp(m, "stdin-reader")) {
        pthread_t t;
        struct timespec ms = {0, 1000000L};
        fflush(stdout);
        if (pthread_create(&t, NULL, stdin_reader, NULL))
            DIE();
        while (ftrylockfile(stdin) == 0) { /* until the reader holds it */
            funlockfile(stdin);
            nanosleep(&ms, NULL);
        }
        exit(n);
    }
    if (!strcmp(m, "race-endings")) {
        /* exit, _exit, a thread signal and a process signal, all at once */
        pthread_t t[8];
        fflush(stdout);
        pthread_barrier_init(&barrier, NULL, 9);
        for (long i = 0; i < 8; i++)
            pthread_create(&t[i], NULL, mixed_ender, (void *)i);
        pthread_barrier_wait(&barrier);
        exit(99);
    }
    if (!strcmp(m, "oneshot-view") || !strcmp(m, "sysv-view")) {
        /* what sigaction() reports after a one-shot handler fired */
        struct sigaction sa, before, after;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sig;
        sa.sa_flags = SA_RESETHAND | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        sigaddset(&sa.sa_mask, SIGUSR2);
        if (!strcmp(m, "oneshot-view"))
            sigaction(n, &sa, NULL);
        else
            sysv_signal(n, on_sig);
        sigaction(n, NULL, &before);
        raise(n);
        sigaction(n, NULL, &after);
        for (int k = 0; k < 2; k++) {
            struct sigaction *v = k ? &after : &before;
            printf("%s: handler %s flags %#x mask", k ? "after" : "before",
                   v->sa_handler == SIG_DFL  ? "default"
                   : v->sa_handler == on_sig ? "on_sig"
                                             : "other",
                   (unsigned)v->sa_flags);
            for (int s2 = 1; s2 < 32; s2++)
                if (sigismember(&v->sa_mask, s2))
                    printf(" %d", s2);
            printf("\n");
        }
        return 0;
    }
    errx(2, "unknown mode %s", m);
}
