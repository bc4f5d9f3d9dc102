/*
 * system.c: what the commands ask of the system: a program as exec would
 * find it on PATH, whole reads and writes, clocks (il_util.h).
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "il_util.h"

char *
il_find_program(const char *prog)
{
    struct stat st;
    if (strchr(prog, '/'))
        return il_xstrdup(prog);
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    for (const char *p = path;; p++) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        char *cand = n ? il_xasprintf("%.*s/%s", (int)n, p, prog) : il_xasprintf("./%s", prog);
        if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0)
            return cand;
        free(cand);
        if (!colon)
            return NULL;
        p = colon;
    }
}

char *
il_which(const char *name)
{
    if (!*name || (strchr(name, '/') && access(name, X_OK) < 0))
        return NULL;
    char *p = il_find_program(name);
    if (!p || p[0] == '/')
        return p;
    char *here = getcwd(NULL, 0);
    char *abs = here ? il_xasprintf("%s/%s", here, p) : NULL;
    free(here);
    free(p);
    return abs;
}

int
il_write_full(int fd, const void *s, size_t n)
{
    const char *p = s;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

char *
il_slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    /* the size is a hint: the file may be growing, or in /proc */
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *p = il_xmalloc(cap);
    for (;;) {
        if (n == cap)
            p = il_xrealloc(p, cap *= 2);
        ssize_t r = read(fd, p + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            free(p);
            close(fd);
            errno = e;
            return NULL;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    p[n] = 0; /* n < cap: the last read found room and read nothing */
    if (len)
        *len = n;
    return p;
}

void
il_utc_now(char out[32])
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

double
il_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
il_check_writable(const char *opt, const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
    struct stat st;
    if (!dir)
        err(1, "out of memory");
    if (access(*dir ? dir : "/", W_OK) < 0)
        errx(1, "%s %s: the directory %s is missing or not writable", opt, path, *dir ? dir : "/");
    free(dir);
    if (stat(path, &st) == 0 && (S_ISDIR(st.st_mode) || access(path, W_OK) < 0))
        errx(1, "%s %s: %s", opt, path, S_ISDIR(st.st_mode) ? "a directory" : "not writable");
}
