/*
 * forkexec.c: fork and the exec family.
 *
 * exec ends a process image, so it ends a measurement: the record is
 * written just before the real exec, and the new image (which inherits
 * LD_PRELOAD) measures itself and writes its own.  Our descriptors are
 * close-on-exec.  execve, execv, execvp, execvpe, execl, execlp, execle,
 * fexecve and execveat are hooked; an exec made by a raw system call, or
 * inside glibc (posix_spawn, system), is not, and then the old image
 * writes no record (the new one does; posix_spawn, system and popen are
 * hooked only to tell their child whether it is counted, below).  A
 * failed exec must not lose the measurement, so before writing we check
 * that the exec can succeed (the file exists, is a regular file and
 * executable, searching PATH as execvp does); when it cannot, nothing is
 * written and the counters simply keep counting.  If
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
 * new image measures itself.  A fork before main (in a constructor) is
 * not counted by the parent, whose counters start later: the child
 * measures itself if it reaches main (start.c).
 */
#include <alloca.h>
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "il.h"
#include "sys.h"

/* glibc's fork under its exported alias: bound at load, like every
 * function the measured window may call, so that no symbol is looked up
 * while counting. */
extern pid_t __fork(void);

/* The exec family, as glibc makes them: execve and execveat are the
 * system calls themselves; execvp and execvpe search PATH (below).
 * Nothing to resolve at run time. */
static int
sys_execveat(int dir, const char *path, char *const argv[], char *const envp[], int flags)
{
    long rc = il_sc6(SYS_execveat, dir, (long)path, (long)argv, (long)envp, flags, 0);
    errno = (int)-rc;
    return -1;
}

static int
sys_execve(const char *path, char *const argv[], char *const envp[])
{
    long rc = IL_SC(SYS_execve, path, argv, envp);
    errno = (int)-rc;
    return -1;
}

/* A file the kernel would not run (no #!, not ELF): run it with the
 * shell, as glibc's execvp does. */
static void
script_execute(const char *file, char *const argv[], char *const envp[])
{
    size_t argc = 0;
    while (argv[argc])
        argc++;
    char **nargv = alloca((argc > 1 ? argc + 2 : 3) * sizeof *nargv);
    nargv[0] = (char *)"/bin/sh";
    nargv[1] = (char *)file;
    if (argc > 1)
        memcpy(nargv + 2, argv + 1, argc * sizeof *nargv); /* with the NULL */
    else
        nargv[2] = NULL;
    sys_execve(nargv[0], nargv, envp);
}

/* glibc 2.36's __execvpe_common, step for step (posix/execvpe.c). */
static int
exec_search(const char *file, char *const argv[], char *const envp[])
{
    if (!*file) {
        errno = ENOENT;
        return -1;
    }
    if (strchr(file, '/')) {
        sys_execve(file, argv, envp);
        if (errno == ENOEXEC)
            script_execute(file, argv, envp);
        return -1;
    }
    const char *path = il_getenv(il_environ(), "PATH");
    if (!path)
        path = "/bin:/usr/bin";
    size_t flen = strlen(file) + 1, plen = strlen(path) + 1;
    if (flen - 1 > 255 || plen > IL_PATH_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    char *buf = alloca(plen + flen + 1);
    int eacces = 0;
    for (const char *p = path, *sub;; p = sub) {
        sub = strchr(p, ':');
        if (!sub)
            sub = p + strlen(p);
        memcpy(buf, p, (size_t)(sub - p));
        char *end = buf + (sub - p);
        *end = '/';
        memcpy(end + (p < sub), file, flen);
        sys_execve(buf, argv, envp);
        if (errno == ENOEXEC)
            script_execute(buf, argv, envp);
        switch (errno) {
        case EACCES:
            eacces = 1;
            /* fall through */
        case ENOENT:
        case ESTALE:
        case ENOTDIR:
        case ENODEV:
        case ETIMEDOUT:
            break;
        default:
            return -1;
        }
        if (*sub++ == '\0')
            break;
    }
    if (eacces)
        errno = EACCES;
    return -1;
}

static int
running_here(void)
{
    return il_measured() && il.phase == IL_PHASE_RUNNING;
}

/*
 * fork(2) through glibc's fork.  Why hooked: under INTERLOPER_INHERIT
 * threads or none a forked child is a process of its own and must start
 * counters and a record of its own at once (il_child_restart), before it
 * runs any of the program; under all it must write nothing (il.pid stays
 * the parent's, so every hook in the child stands aside).  It must never
 * change what fork does or returns, nor run anything in the parent but
 * glibc's fork (its atfork handlers included), nor let a child whose
 * backend cannot follow a fork (papi) touch the parent's counters.
 */
/* The marker a spawn hook put at the top for its spawn's length (spawn
 * hooks, below), plus one, or 0: a child forked meanwhile (by a signal
 * handler) closes it, since it may exec a program that does not load the
 * library.  (Zero when none: no initialised data, which the loader would
 * map from the file.) */
static volatile int spawn_marker;

IL_EXPORT pid_t
fork(void)
{
    if (!il.pid && !il.secure)
        il.pid = (pid_t)il_sys_getpid(); /* before our constructor: this is the process */
    int measured = running_here();
    pid_t p = __fork();
    if (p == 0 && spawn_marker)
        il_sys_close(spawn_marker - 1);
    if (p == 0 && measured && il.inherit != IL_INHERIT_ALL)
        il_child_restart();
    return p;
}

static int
fail(long rc)
{
    errno = (int)-rc;
    return -1;
}

/*
 * daemon(3): glibc's forks and exits internally, past our hooks.  Done
 * here with our fork() and _exit(): the parent ends with its record, and
 * the child, which carries on with the program's work, is measured from
 * the fork on, whatever INTERLOPER_INHERIT says (under "all" the parent's
 * counters would die with the parent).  It must do exactly what glibc's
 * does, in the same order, with the same errors: setsid, chdir("/")
 * unless nochdir, /dev/null on 0-2 unless noclose.
 */
IL_EXPORT int daemon(int nochdir, int noclose);

IL_EXPORT int
daemon(int nochdir, int noclose)
{
    int measured = running_here();
    pid_t p = fork();
    if (p < 0)
        return -1;
    if (p > 0)
        _exit(0);
    if (measured && il.inherit == IL_INHERIT_ALL)
        il_child_restart();
    long rc = IL_SC(SYS_setsid, 0, 0, 0);
    if (rc < 0)
        return fail(rc);
    if (!nochdir && (rc = IL_SC(SYS_chdir, "/", 0, 0)) < 0)
        return fail(rc);
    if (!noclose) {
        long fd = il_sys_open("/dev/null", O_RDWR, 0);
        if (fd < 0)
            return fail(fd);
        for (int i = 0; i < 3; i++)
            if (fd != i)
                IL_SC(SYS_dup3, fd, i, 0);
        if (fd > 2)
            il_sys_close((int)fd);
    }
    return 0;
}

/* ---------------------------------------------------------- exec */

static int
runnable_at(int dirfd, const char *path, int flags)
{
    struct stat st;
    if (!path)
        return 0;
    long rc = il_sc6(SYS_faccessat2, dirfd, (long)path, X_OK, AT_EACCESS | flags, 0, 0);
    if (rc == -ENOSYS) /* before Linux 5.8: the real ids, which is close enough */
        rc = il_sc6(SYS_faccessat, dirfd, (long)path, X_OK, 0, 0, 0);
    return rc == 0 && il_sc6(SYS_newfstatat, dirfd, (long)path, (long)&st, flags, 0, 0) == 0 &&
           S_ISREG(st.st_mode);
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
    const char *path = il_getenv(il_environ(), "PATH");
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
exec_begin(const char *shown, const char *lost)
{
    if (!il_measured())
        return 0;
    int ph = __atomic_load_n(&il.phase, __ATOMIC_SEQ_CST);
    if (ph == IL_PHASE_FINISHING || ph == IL_PHASE_DONE) {
        il_end_wait(); /* another thread is ending the process: not past it */
        ph = __atomic_load_n(&il.phase, __ATOMIC_SEQ_CST);
    }
    if ((ph != IL_PHASE_RUNNING && ph != IL_PHASE_INIT) || !shown)
        return 0;
    return il_finish(IL_HOW_EXEC, 0, 0, shown, lost);
}

static int
fd_runnable(int fd)
{
    struct stat st;
    return il_sys_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111);
}

/* One exec, as a hook received it. */
struct exec_call {
    int dir;            /* execveat's directory; AT_FDCWD for the others */
    const char *path;   /* the file; for execvp and execvpe, to search PATH for */
    int flags;          /* execveat's; AT_EMPTY_PATH: exec the descriptor dir */
    int search;         /* search PATH as glibc's execvp does */
    int at;             /* by the execveat system call, not execve */
    const char *fdname; /* what the record names for an exec of a descriptor */
};

/*
 * The sequence every exec hook follows: find what would run (searching
 * PATH for execvp and execvpe); if the exec can succeed, write the exec
 * record (exec_begin); hand a child that its parent's counters count the
 * marker (counted.c); exec; and if the exec failed after all, close the
 * marker and let the measurement go on (il_resume_after_exec), with errno
 * as the exec left it.
 */
static int
exec_hooked(const struct exec_call *c, char *const argv[], char *const envp[])
{
    char buf[IL_PATH_MAX];
    int byfd = !c->search && c->path && !*c->path && (c->flags & AT_EMPTY_PATH);
    const char *runs; /* what the record names; NULL: the exec cannot succeed */
    if (c->search)
        runs = search_path(c->path, buf, sizeof buf);
    else if (byfd)
        runs = fd_runnable(c->dir) ? c->fdname : NULL;
    else
        runs = runnable_at(c->dir, c->path, c->flags & AT_SYMLINK_NOFOLLOW) ? c->path : NULL;
    /* the new image measures nothing (env -i, a static program): the
     * record written now is the last, and it and stderr say why (outside13
     * F13: silently, the wrapper's start-up was the whole measurement) */
    const char *lost = runs && il_measured()
                           ? il_exec_unfollowed(byfd        ? AT_FDCWD
                                                : c->search ? AT_FDCWD
                                                            : c->dir,
                                                byfd ? NULL : runs, byfd ? c->dir : -1, envp)
                           : NULL;
    int nlate = il.nlate;
    int wrote = exec_begin(runs, lost);
    IL_TEST_DELAY("exec");
    /* an exec during a spawn hook's call (a signal handler's): not the
     * spawn's child, so not its marker (closed here only: a vfork child
     * writes no memory) */
    if (spawn_marker)
        il_sys_close(spawn_marker - 1);
    int marker = byfd        ? il_counted_give(AT_FDCWD, NULL, c->dir, envp)
                 : c->search ? (runs ? il_counted_give(AT_FDCWD, runs, -1, envp) : -1)
                             : il_counted_give(c->dir, c->path, -1, envp);
    if (c->search)
        exec_search(c->path, argv, envp);
    else if (c->at)
        sys_execveat(c->dir, c->path, argv, envp, c->flags);
    else
        sys_execve(c->path, argv, envp);
    int err = errno;
    if (marker >= 0)
        il_sys_close(marker);
    if (lost && wrote)
        il.nlate = nlate; /* it did not happen: the image goes on, measured */
    if (wrote)
        il_resume_after_exec(err);
    errno = err;
    return -1;
}

/*
 * The exec family.  Why hooked: an exec ends this process image, so it
 * ends its measurement; the hook writes the image's record just before
 * the real exec (the new image, which inherits LD_PRELOAD, writes its
 * own).  They must never change what the exec does or what it returns:
 * the same system call with the same arguments, PATH searched exactly as
 * glibc searches it, errno as the exec left it.  They must never write a
 * record for an exec that cannot succeed, nor let an exec overtake
 * another thread that is ending the process (exec_begin).  They run in a
 * vfork child too, where they may write no memory but their own stack:
 * there il_measured() is false and nothing is written.
 */
IL_EXPORT int
execve(const char *path, char *const argv[], char *const envp[])
{
    const struct exec_call c = {AT_FDCWD, path, 0, 0, 0, NULL};
    return exec_hooked(&c, argv, envp);
}

IL_EXPORT int
execv(const char *path, char *const argv[])
{
    return execve(path, argv, il_environ());
}

IL_EXPORT int
execvpe(const char *file, char *const argv[], char *const envp[])
{
    const struct exec_call c = {AT_FDCWD, file, 0, 1, 0, NULL};
    return exec_hooked(&c, argv, envp);
}

IL_EXPORT int
execvp(const char *file, char *const argv[])
{
    return execvpe(file, argv, il_environ());
}

/* glibc's fexecve refuses a negative descriptor with EINVAL, without a
 * system call; so does this one. */
IL_EXPORT int
fexecve(int fd, char *const argv[], char *const envp[])
{
    if (fd < 0) {
        errno = EINVAL;
        return -1;
    }
    const struct exec_call c = {fd, "", AT_EMPTY_PATH, 0, 1, "(fexecve)"};
    return exec_hooked(&c, argv, envp);
}

IL_EXPORT int
execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
    const struct exec_call c = {dirfd, path, flags, 0, 1, "(execveat)"};
    return exec_hooked(&c, argv, envp);
}

/* ---------------------------------------------------------- spawn */

/*
 * posix_spawn, posix_spawnp, system and popen.  Why hooked: glibc clones and
 * execs their child itself, past the exec hooks, and under
 * INTERLOPER_INHERIT=all the child is counted by this process's counters
 * (inherited at the clone) while it also counted itself: its record was
 * taken for a run of its own, and report --per added it again (chain13).
 * Each hook only hands the child the marker of a counted child (counted.c,
 * il_counted_spawn) for the length of glibc's own call, then closes it:
 * the child's record then says counted_in, as an exec'd child's does.
 * They must never change what the call does or returns, nor errno: glibc's
 * function is called with the same arguments; the marker is one
 * descriptor at the top of the range (where a program's own descriptor
 * would make il_counted_give refuse), in a process of one thread, and
 * only for a child that loads the library.
 */
static int
spawn_begin(const char *path, char *const envp[])
{
    int e = errno, m = il_counted_spawn(path, envp);
    if (m >= 0) /* a nested spawn's -1 leaves the outer marker's */
        spawn_marker = m + 1;
    errno = e;
    return m;
}

static void
spawn_end(int m)
{
    if (m < 0)
        return;
    spawn_marker = 0;
    il_counted_spawn_end(m);
}

typedef int spawn_fn(pid_t *, const char *, const posix_spawn_file_actions_t *,
                     const posix_spawnattr_t *, char *const[], char *const[]);

/* The file a spawn runs, as the parent can judge it: a relative path
 * under file actions, which may change the directory first
 * (posix_spawn_file_actions_addchdir_np, opaque to us), is none (review14d
 * L1: the marker reached a static ./prog in the other directory). */
static const char *
spawn_path(const char *path, const posix_spawn_file_actions_t *fa)
{
    return path && fa && path[0] != '/' ? NULL : path;
}

IL_EXPORT int
posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
            const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
    spawn_fn *real = (spawn_fn *)il_real_posix_spawn(0);
    int m = spawn_begin(spawn_path(path, fa), envp);
    int r = real ? real(pid, path, fa, attr, argv, envp) : ENOSYS;
    spawn_end(m);
    return r;
}

/* Under file actions (a change of directory, opaque to us), may the
 * child's search of PATH find another file than found, absolute?  Where
 * an entry before found's own is relative or empty: the child searches
 * it from the directory it changed to, and a static ./prog there got the
 * marker (review15a LOW, the residue of review14d L1 through PATH).
 * Entries after found's are never reached: its absolute path names the
 * same file from any directory. */
static int
relative_before(const char *found, const char *file)
{
    const char *path = il_getenv(il_environ(), "PATH");
    if (!path)
        path = "/bin:/usr/bin";
    size_t dlen = strlen(found) - strlen(file) - 1; /* found is DIR/file */
    for (const char *p = path;; p++) {
        const char *end = strchr(p, ':');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == dlen && !memcmp(p, found, l))
            return 0;
        if (!l || p[0] != '/')
            return 1;
        if (!end)
            return 0;
        p = end;
    }
}

/* glibc's posix_spawnp searches the caller's PATH (not envp's), as
 * execvp does: search_path finds the same file. */
IL_EXPORT int
posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
             const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
    char buf[IL_PATH_MAX];
    spawn_fn *real = (spawn_fn *)il_real_posix_spawn(1);
    const char *found = il_counted_children() ? spawn_path(search_path(file, buf, sizeof buf), fa)
                                              : NULL;
    if (found && fa && !strchr(file, '/') && relative_before(found, file))
        found = NULL;
    int m = found ? spawn_begin(found, envp) : -1;
    int r = real ? real(pid, file, fa, attr, argv, envp) : ENOSYS;
    spawn_end(m);
    return r;
}

/* glibc's system runs "/bin/sh -c COMMAND" with the process's environment
 * (system(NULL) too, to see that a shell is there). */
IL_EXPORT int
system(const char *command)
{
    int (*real)(const char *) = (int (*)(const char *))il_real_system();
    int m = spawn_begin("/bin/sh", il_environ());
    int r = real ? real(command) : -1;
    spawn_end(m);
    return r;
}

/* glibc's popen runs "/bin/sh -c COMMAND" with the process's environment,
 * as system does (pclose waits for it). */
IL_EXPORT FILE *
popen(const char *command, const char *type)
{
    typedef FILE *popen_fn(const char *, const char *);
    popen_fn *real = (popen_fn *)il_real_popen();
    int m = spawn_begin("/bin/sh", il_environ());
    FILE *r = real ? real(command, type) : NULL;
    spawn_end(m);
    return r;
}

/* The variadic forms collect their arguments on the stack and go through
 * the hooks above: glibc's own execl* call execve internally, past us. */
#define COLLECT_ARGS(first, ap, argv)                                                              \
    do {                                                                                           \
        va_list c;                                                                                 \
        size_t n = 1;                                                                              \
        va_copy(c, ap);                                                                            \
        while (va_arg(c, char *))                                                                  \
            n++;                                                                                   \
        va_end(c);                                                                                 \
        argv = alloca((n + 1) * sizeof(char *));                                                   \
        argv[0] = (char *)(first);                                                                 \
        for (size_t i = 1; i <= n; i++)                                                            \
            argv[i] = va_arg(ap, char *);                                                          \
        argv[n] = NULL;                                                                            \
    } while (0)

IL_EXPORT int
execl(const char *path, const char *arg, ...)
{
    char **argv;
    va_list ap;
    va_start(ap, arg);
    COLLECT_ARGS(arg, ap, argv);
    va_end(ap);
    return execve(path, argv, il_environ());
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
