/*
 * racecheck: run one program many times, with or without the library, and
 * check what each run left: the wait status, and the records.
 *
 *   racecheck [-n RUNS] [-t SECONDS] [-l LIBRARY [-b]] [-o DIR] -- PROG ARGS...
 *
 * With -l, each run has LD_PRELOAD=LIBRARY and INTERLOPER_OUTPUT pointing
 * at a file of its own (in DIR, default $TMPDIR), and racecheck checks
 * that the run wrote exactly one record whose "exit" agrees with the wait
 * status the parent saw; a record of an exec ("how":"exec") may come
 * before it, since the exec'd image writes its own.  Without -l the program runs plainly (the
 * reference distribution); with -b as well, runs with and without the
 * library alternate (so that the load of a shared machine hits both
 * alike) and a second line gives the plain distribution.  A run still
 * alive after SECONDS (default 10) is killed and counted as a hang.
 *
 * Prints one line: runs, hangs, lost (no record), extra (more than one),
 * mismatches, then the distribution of endings ("status 1: 9712 ...").
 * Exits 1 if any run hung, lost its record, wrote two, or disagreed.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* endings: index 0..255 exit statuses, 256 + signal; [0] with the
 * library (or plain without -l), [1] plain beside it (-b) */
static long dist[2][256 + 65];

static void
print_dist(const long *d)
{
    for (int i = 0; i < 256 + 65; i++)
        if (d[i])
            printf(" %s %d: %ld", i >= 256 ? "signal" : "status", i & 255, d[i]);
    printf("\n");
}

static long
num_after(const char *s, const char *key)
{
    const char *p = strstr(s, key);
    if (!p)
        return -1000;
    p += strlen(key);
    if (!strncmp(p, "null", 4))
        return -1;
    return strtol(p, NULL, 10);
}

/* The record's ending as a wait-status index, or -1 if unreadable.  The
 * library writes "exit":{"how":"...","status":S,"signal":G} in that order;
 * anything else is a mismatch to look at. */
static int
record_ending(const char *line)
{
    const char *ex = strstr(line, "\"exit\":{\"how\":\"");
    if (!ex)
        return -1;
    const char *how = ex + strlen("\"exit\":{\"how\":\"");
    long st = num_after(ex, "\"status\":"), sig = num_after(ex, "\"signal\":");
    if (!strncmp(how, "signal\"", 7))
        return sig > 0 && sig < 65 ? (int)(256 + sig) : -1;
    return st >= 0 && st < 256 ? (int)st : -1;
}

int
main(int argc, char **argv)
{
    long runs = 100;
    int secs = 10, c, both = 0;
    const char *lib = NULL, *dir = getenv("TMPDIR");
    while ((c = getopt(argc, argv, "n:t:l:o:b")) != -1) {
        switch (c) {
        case 'b':
            both = 1;
            break;
        case 'n':
            runs = atol(optarg);
            break;
        case 't':
            secs = atoi(optarg);
            break;
        case 'l':
            lib = optarg;
            break;
        case 'o':
            dir = optarg;
            break;
        default:
            errx(2,
                 "usage: racecheck [-n RUNS] [-t SECONDS] [-l LIB [-b]] [-o DIR] -- PROG ARGS...");
        }
    }
    if (optind >= argc)
        errx(2, "no program given");
    if (!dir)
        dir = "/tmp";
    char out[4096], envout[4200], envlib[4200];
    snprintf(out, sizeof out, "%s/racecheck.%ld.jsonl", dir, (long)getpid());
    snprintf(envout, sizeof envout, "INTERLOPER_OUTPUT=%s", out);
    snprintf(envlib, sizeof envlib, "LD_PRELOAD=%s", lib ? lib : "");

    size_t nenv = 0;
    for (char **e = environ; *e; e++)
        nenv++;
    char **env = calloc(nenv + 3, sizeof *env), **plain = calloc(nenv + 1, sizeof *env);
    size_t k = 0;
    for (char **e = environ; *e; e++)
        if (strncmp(*e, "LD_PRELOAD=", 11) && strncmp(*e, "INTERLOPER_OUTPUT=", 18))
            env[k++] = *e;
    memcpy(plain, env, k * sizeof *env);
    plain[k] = NULL;
    if (lib) {
        env[k++] = envlib;
        env[k++] = envout;
    }
    env[k] = NULL;

    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);

    long hangs = 0, lost = 0, extra = 0, mismatch = 0;
    static char buf[1 << 20];
    for (long step = 0; step < (both ? 2 : 1) * runs; step++) {
        long r = both ? step / 2 : step;
        int with = !both || step % 2 == 0;
        unlink(out);
        pid_t p = fork();
        if (p < 0)
            err(2, "fork");
        if (p == 0) {
            sigprocmask(SIG_UNBLOCK, &chld, NULL);
            execve(argv[optind], argv + optind, with ? env : plain);
            _exit(127);
        }
        struct timespec to = {secs, 0};
        int st, done = 0;
        while (!done) {
            pid_t w = waitpid(p, &st, WNOHANG);
            if (w == p)
                break;
            if (sigtimedwait(&chld, NULL, &to) < 0 && errno == EAGAIN) {
                kill(p, SIGKILL);
                waitpid(p, &st, 0);
                hangs += with;
                done = 1;
            }
        }
        if (done)
            continue;
        int end = WIFSIGNALED(st) ? 256 + WTERMSIG(st) : WEXITSTATUS(st);
        dist[!with][end]++;
        if (!lib || !with)
            continue;
        int fd = open(out, O_RDONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : 0;
        if (fd >= 0)
            close(fd);
        buf[n > 0 ? n : 0] = 0;
        int lines = 0, execs = 0;
        char *last = buf;
        for (char *q = buf; *q; q++)
            if (*q == '\n') {
                lines++;
                execs += strstr(last, "\"exit\":{\"how\":\"exec\"") != NULL &&
                         strstr(last, "\"exit\":{\"how\":\"exec\"") < q;
                if (q[1])
                    last = q + 1;
            }
        lines -= execs; /* the records of the image that exec'd */
        if (execs && lines == 0) {
            lost++;
            fprintf(stderr,
                    "racecheck: run %ld: an exec record, none of the exec'd image (ended %s %d)\n",
                    r, end >= 256 ? "by signal" : "with status", end & 255);
        } else if (lines == 0) {
            lost++;
            fprintf(stderr, "racecheck: run %ld: no record (ended %s %d)\n", r,
                    end >= 256 ? "by signal" : "with status", end & 255);
        } else if (lines > 1) {
            extra++;
            fprintf(stderr, "racecheck: run %ld: %d records\n", r, lines);
        } else if (record_ending(last) != end) {
            mismatch++;
            fprintf(stderr, "racecheck: run %ld: ended %s %d, record says: %.300s\n", r,
                    end >= 256 ? "by signal" : "with status", end & 255,
                    strstr(last, "\"exit\"") ? strstr(last, "\"exit\"") : last);
        }
    }
    unlink(out);
    printf("runs %ld hangs %ld lost %ld extra %ld mismatches %ld |", runs, hangs, lost, extra,
           mismatch);
    print_dist(dist[0]);
    if (both) {
        printf("plain %ld runs interleaved |", runs);
        print_dist(dist[1]);
    }
    return hangs || lost || extra || mismatch ? 1 : 0;
}
