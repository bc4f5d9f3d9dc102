/*
 * probe: prints what the measured program sees of its own setup, or does a
 * known amount of work, for the system tests.
 *
 *   probe layout       main's local address, sbrk(0), the first malloc, the
 *                      first descriptor open() returns, personality ASLR bit
 *   probe busy MS      spin for MS milliseconds of CPU time; print it (ns)
 *   probe loop N       N iterations of a fixed loop: the same instructions
 *                      every run, whatever the time (bench/check-pmu.sh)
 *   probe touch MIB    write one byte per page of MIB fresh MiB
 *   probe env          print the environment, one variable per line
 *   probe hello        print a fixed line and the arguments
 *   probe pid          print the process id
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long
cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int
main(int argc, char **argv)
{
    volatile char local = 0;
    if (argc < 2)
        errx(2, "usage: probe layout | busy MS | touch MIB | env");
    if (!strcmp(argv[1], "layout")) {
        void *brk0 = sbrk(0);
        void *m = malloc(1);
        int fd = open("/dev/null", O_RDONLY);
        printf("local %p\nbrk %p\nmalloc %p\nfd %d\nnorandomize %d\n", (void *)&local, brk0, m, fd,
               (personality(0xffffffff) & ADDR_NO_RANDOMIZE) != 0);
        return 0;
    }
    if (!strcmp(argv[1], "busy") && argc > 2) {
        long long want = atoll(argv[2]) * 1000000LL, start = cpu_ns();
        volatile unsigned long x = 0;
        while (cpu_ns() - start < want)
            for (int i = 0; i < 10000; i++)
                x += (unsigned long)i;
        (void)x;
        printf("%lld\n", cpu_ns() - start);
        return 0;
    }
    if (!strcmp(argv[1], "loop") && argc > 2) {
        unsigned long x = 0;
        for (long long i = atoll(argv[2]); i > 0; i--)
            __asm__ volatile("" : "+r"(x) : "r"(i)); /* kept: one add and a branch */
        printf("%lu\n", x);
        return 0;
    }
    if (!strcmp(argv[1], "touch") && argc > 2) {
        size_t n = (size_t)atol(argv[2]) << 20;
        long pg = sysconf(_SC_PAGESIZE);
        char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            err(1, "mmap");
        madvise(p, n, MADV_NOHUGEPAGE); /* one fault per 4 KiB page */
        for (size_t i = 0; i < n; i += (size_t)pg)
            p[i] = 1;
        printf("touched %zu pages\n", n / (size_t)pg);
        return 0;
    }
    if (!strcmp(argv[1], "env")) {
        for (char **e = environ; *e; e++)
            printf("%s\n", *e);
        return 0;
    }
    if (!strcmp(argv[1], "pid")) {
        printf("%ld\n", (long)getpid());
        return 0;
    }
    if (!strcmp(argv[1], "hello")) {
        printf("hello from probe\n");
        for (int i = 2; i < argc; i++)
            printf("arg %s\n", argv[i]);
        return 0;
    }
    errx(2, "unknown mode %s", argv[1]);
}
