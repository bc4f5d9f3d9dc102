/*
 * bench/rusage.c: run a command and print its CPU time (user + system, all
 * its threads and waited-for children), wall time and peak resident memory:
 *
 *   rusage CMD [ARG...]    ->    "CPU_S WALL_S MAXRSS_KB" on stderr
 *
 * Its stdout goes where rusage's goes.  A small C parent, because a child
 * forked from a large one (Python) starts with the parent's pages, which
 * the kernel counts in the child's peak.  Exits with the command's status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
    struct timespec a, b;
    struct rusage ru;
    int status;
    if (argc < 2) {
        fprintf(stderr, "usage: rusage CMD [ARG...]\n");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid_t pid = fork();
    if (pid < 0) {
        perror("rusage: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("rusage: wait4");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                 (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    double wall = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    fprintf(stderr, "%.3f %.3f %ld\n", cpu, wall, ru.ru_maxrss);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
