/*
 * forkexec.c: fork and the exec family.
 *
 * exec ends a process image, so it ends a measurement: the record is
 * written just before the real exec, and the new image (which inherits
 * LD_PRELOAD) measures itself and writes its own.  Our descriptors are
 * close-on-exec.  A failed exec must not lose the measurement, so before
 * writing we check that the exec can succeed (the file exists, is a
 * regular file and executable, searching PATH as execvp does); when it
 * cannot, nothing is written and the counters simply keep counting.  If
 * exec fails anyway after the record was written (ENOEXEC, E2BIG, ...),
 * the counters resume and the image's final record says it supersedes the
 * exec record (finish.c).
 *
 * fork: with INTERLOPER_INHERIT=all (the default, perf stat's semantics)
 * the kernel counts forked children into our counters, and a child that
 * never execs writes no record (il.pid stays the parent's, so every hook
 * in the child stands aside).  With threads or none, every forked child
 * starts counters and a record of its own.  vfork children share our
 * memory and so are never measured; they normally exec at once, and the
 * new image measures itself.
 */
#include <alloca.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "il.h"

static pid_t (*real_fork)(void);
static int (*real_execve)(const char *, char *const[], char *const[]);
static int (*real_execvp)(const char *, char *const[]);
static int (*real_execvpe)(const char *, char *const[], char *const[]);
static int (*real_fexecve)(int, char *const[], char *const[]);
static int (*real_execveat)(int, const char *, char *const[], char *const[], int);

/* Resolved on first use, not in the constructor: most programs never
 * fork or exec, and each dlsym costs about a thousand instructions. */
void
il_forkexec_resolve(void)
{
    if (__atomic_load_n((void **)&real_execve, __ATOMIC_ACQUIRE))
        return;
    *(void **)&real_fork = dlsym(RTLD_NEXT, "fork");
    *(void **)&real_execvp = dlsym(RTLD_NEXT, "execvp");
    *(void **)&real_execvpe = dlsym(RTLD_NEXT, "execvpe");
    *(void **)&real_fexecve = dlsym(RTLD_NEXT, "fexecve");
    *(void **)&real_execveat = dlsym(RTLD_NEXT, "execveat");
    /* last, and released: its being set means all the others are */
    void *ev = dlsym(RTLD_NEXT, "execve");
    __atomic_store_n((void **)&real_execve, ev, __ATOMIC_RELEASE);
}

IL_EXPORT pid_t
fork(void)
{
    il_resolve_reals();
    il_forkexec_resolve();
    if (!il.pid)
        il.pid = getpid(); /* before our constructor: this is the process */
    int measured = il.phase == IL_PHASE_RUNNING && il.pid == getpid();
    pid_t p = real_fork();
    if (p == 0 && measured && il.cfg.inherit != IL_INHERIT_ALL)
        il_child_restart();
    return p;
}

/*
 * daemon(3): glibc's forks and exits internally, past our hooks.  Done
 * here with our fork() and _exit(): the parent ends with its record, and
 * the child, which carries on with the program's work, is measured from
 * the fork on, whatever INTERLOPER_INHERIT says (under "all" the parent's
 * counters would die with the parent).
 */
IL_EXPORT int daemon(int nochdir, int noclose);

IL_EXPORT int
daemon(int nochdir, int noclose)
{
    il_resolve_reals();
    il_forkexec_resolve();
    int measured = il.phase == IL_PHASE_RUNNING && il.pid == getpid();
    pid_t p = fork();
    if (p < 0)
        return -1;
    if (p > 0)
        _exit(0);
    if (measured && il.cfg.inherit == IL_INHERIT_ALL)
        il_child_restart();
    if (setsid() < 0)
        return -1;
    if (!nochdir && chdir("/") < 0)
        return -1;
    if (!noclose) {
        int fd = open("/dev/null", O_RDWR);
        if (fd < 0)
            return -1;
        dup2(fd, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        if (fd > 2)
            close(fd);
    }
    return 0;
}

/* ---------------------------------------------------------- exec */

static int
runnable_at(int dirfd, const char *path, int flags)
{
    struct stat st;
    return path && faccessat(dirfd, path, X_OK, AT_EACCESS | flags) == 0 &&
           fstatat(dirfd, path, &st, flags) == 0 && S_ISREG(st.st_mode);
}

/* execvp's search: the first PATH entry holding an executable file.  The
 * path found goes into the record (buf). */
static const char *
search_path(const char *file, char *buf, size_t n)
{
    if (!file || !*file)
        return NULL;
    if (strchr(file, '/'))
        return runnable_at(AT_FDCWD, file, 0) ? file : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/bin:/usr/bin";
    size_t flen = strlen(file);
    for (const char *p = path;; p++) {
        const char *end = strchr(p, ':');
        size_t dlen = end ? (size_t)(end - p) : strlen(p);
        if (dlen + flen + 2 <= n) {
            if (dlen) {
                memcpy(buf, p, dlen);
                buf[dlen] = '/';
                memcpy(buf + dlen + 1, file, flen + 1);
            } else {
                memcpy(buf, file, flen + 1); /* empty entry: the current directory */
            }
            if (runnable_at(AT_FDCWD, buf, 0))
                return buf;
        }
        if (!end)
            return NULL;
        p = end;
    }
}

/* Write the exec record if this exec will replace a measured image.
 * Returns 1 when a record was written. */
static int
exec_begin(const char *shown)
{
    int ph = il.phase;
    if (il.pid != getpid() || (ph != IL_PHASE_RUNNING && ph != IL_PHASE_INIT) || !shown)
        return 0;
    il_finish(IL_HOW_EXEC, 0, 0, shown);
    return 1;
}

static void
exec_end(int wrote, int err)
{
    if (wrote)
        il_resume_after_exec(err);
    errno = err;
}

IL_EXPORT int
execve(const char *path, char *const argv[], char *const envp[])
{
    il_resolve_reals();
    il_forkexec_resolve();
    int w = exec_begin(runnable_at(AT_FDCWD, path, 0) ? path : NULL);
    int rc = real_execve(path, argv, envp);
    exec_end(w, errno);
    return rc;
}

IL_EXPORT int
execv(const char *path, char *const argv[])
{
    return execve(path, argv, environ);
}

IL_EXPORT int
execvpe(const char *file, char *const argv[], char *const envp[])
{
    char buf[IL_PATH_MAX];
    il_resolve_reals();
    il_forkexec_resolve();
    int w = exec_begin(search_path(file, buf, sizeof buf));
    int rc = real_execvpe(file, argv, envp);
    exec_end(w, errno);
    return rc;
}

IL_EXPORT int
execvp(const char *file, char *const argv[])
{
    char buf[IL_PATH_MAX];
    il_resolve_reals();
    il_forkexec_resolve();
    int w = exec_begin(search_path(file, buf, sizeof buf));
    int rc = real_execvp(file, argv);
    exec_end(w, errno);
    return rc;
}

IL_EXPORT int
fexecve(int fd, char *const argv[], char *const envp[])
{
    struct stat st;
    il_resolve_reals();
    il_forkexec_resolve();
    int ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111);
    int w = exec_begin(ok ? "(fexecve)" : NULL);
    int rc = real_fexecve(fd, argv, envp);
    exec_end(w, errno);
    return rc;
}

IL_EXPORT int
execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
    il_resolve_reals();
    il_forkexec_resolve();
    int ok;
    if (!*path && (flags & AT_EMPTY_PATH)) {
        struct stat st;
        ok = fstat(dirfd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111);
    } else {
        ok = runnable_at(dirfd, path, flags & AT_SYMLINK_NOFOLLOW);
    }
    int w = exec_begin(ok ? path : NULL);
    int rc = real_execveat ? real_execveat(dirfd, path, argv, envp, flags) : (errno = ENOSYS, -1);
    exec_end(w, errno);
    return rc;
}

/* The variadic forms collect their arguments on the stack and go through
 * the hooks above: glibc's own execl* call execve internally, past us. */
#define COLLECT_ARGS(first, ap, argv)                                                          \
    do {                                                                                       \
        va_list c;                                                                             \
        size_t n = 1;                                                                          \
        va_copy(c, ap);                                                                        \
        while (va_arg(c, char *))                                                              \
            n++;                                                                               \
        va_end(c);                                                                             \
        argv = alloca((n + 1) * sizeof(char *));                                               \
        argv[0] = (char *)(first);                                                             \
        for (size_t i = 1; i <= n; i++)                                                        \
            argv[i] = va_arg(ap, char *);                                                      \
        argv[n] = NULL;                                                                        \
    } while (0)

IL_EXPORT int
execl(const char *path, const char *arg, ...)
{
    char **argv;
    va_list ap;
    va_start(ap, arg);
    COLLECT_ARGS(arg, ap, argv);
    va_end(ap);
    return execve(path, argv, environ);
}

IL_EXPORT int
execlp(const char *file, const char *arg, ...)
{
    char **argv;
    va_list ap;
    va_start(ap, arg);
    COLLECT_ARGS(arg, ap, argv);
    va_end(ap);
    return execvp(file, argv);
}

IL_EXPORT int
execle(const char *path, const char *arg, ...)
{
    char **argv;
    va_list ap;
    va_start(ap, arg);
    COLLECT_ARGS(arg, ap, argv);
    char *const *envp = va_arg(ap, char *const *);
    va_end(ap);
    return execve(path, argv, envp);
}
