/*
 * loop: the plain loop a sweep is compared with: start CMD N times, one
 * after the other, with vfork and execve (as the sweep starts its runs),
 * and print the total wall time in seconds.  The environment is ours.
 *
 *   loop N CMD [ARGS...]
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int
main(int argc, char **argv)
{
    if (argc < 3)
        errx(1, "usage: loop N CMD [ARGS...]");
    long n = atol(argv[1]);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long i = 0; i < n; i++) {
        int st;
        pid_t p = vfork();
        if (p == 0) {
            execve(argv[2], &argv[2], environ);
            _exit(127);
        }
        if (p < 0)
            err(1, "vfork");
        if (waitpid(p, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
            errx(1, "%s failed", argv[2]);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%.6f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
    return 0;
}
