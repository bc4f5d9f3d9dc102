/*
 * spawn: median wall time of starting a program, under several
 * configurations, interleaved so that machine noise hits all of them alike.
 *
 *   spawn RUNS -- NAME=ENV... CMD... [--- NAME=ENV... CMD...]...
 *
 * Each configuration is a name, then VAR=VALUE words added to the
 * environment, then the command.  Prints "name median_us p25_us p75_us".
 * Timing is fork to waitpid, with CLOCK_MONOTONIC.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct conf {
    const char *name;
    char **env;
    char **argv;
    double *t;
};

extern char **environ;

static int
cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
    if (argc < 4 || strcmp(argv[2], "--"))
        errx(1, "usage: spawn RUNS -- NAME [VAR=VALUE...] CMD... [--- NAME ...]");
    int runs = atoi(argv[1]);
    struct conf c[16];
    int n = 0;
    for (int i = 3; i < argc && n < 16;) {
        c[n].name = argv[i++];
        int nenv = 0;
        for (char **e = environ; *e; e++)
            nenv++;
        c[n].env = calloc((size_t)nenv + (size_t)argc + 1, sizeof(char *));
        int k = 0;
        for (char **e = environ; *e; e++)
            c[n].env[k++] = *e;
        while (i < argc && strchr(argv[i], '=') && argv[i][0] != '/')
            c[n].env[k++] = argv[i++];
        c[n].argv = &argv[i];
        while (i < argc && strcmp(argv[i], "---"))
            i++;
        if (i < argc)
            argv[i++] = NULL;
        c[n].t = calloc((size_t)runs, sizeof(double));
        n++;
    }
    for (int r = 0; r < runs; r++) {
        for (int j = 0; j < n; j++) {
            struct timespec a, b;
            clock_gettime(CLOCK_MONOTONIC, &a);
            pid_t p = fork();
            if (p == 0) {
                execve(c[j].argv[0], c[j].argv, c[j].env);
                _exit(127);
            }
            int st;
            waitpid(p, &st, 0);
            clock_gettime(CLOCK_MONOTONIC, &b);
            if (!WIFEXITED(st) || WEXITSTATUS(st) == 127)
                errx(1, "%s: %s failed", c[j].name, c[j].argv[0]);
            c[j].t[r] = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
        }
    }
    for (int j = 0; j < n; j++) {
        qsort(c[j].t, (size_t)runs, sizeof(double), cmp);
        printf("%s %.1f %.1f %.1f\n", c[j].name, c[j].t[runs / 2], c[j].t[runs / 4],
               c[j].t[3 * runs / 4]);
    }
    return 0;
}
