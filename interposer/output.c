/*
 * output.c: where the record goes (INTERLOPER_OUTPUT), and how it gets
 * there without ever being lost, torn, or in the program's way.
 *
 * Before main only the path is settled: a relative path is made absolute
 * (the program may chdir).  No descriptor is held while the program runs;
 * the file is opened when the image ends, written with one write(2), and
 * closed.  The rules:
 *
 *   - O_APPEND: many processes append to one file; each line lands whole.
 *     The file is never truncated.
 *   - O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of
 *     blocking the program; a FIFO whose reader is slow is waited on for
 *     at most two seconds in all (IL_WRITE_WAIT_MS), and the record goes
 *     there only when it fits whole (pipe_room): a FIFO's cut line could
 *     never be mended.
 *   - O_NOFOLLOW when the file's directory is sticky and world-writable
 *     (/tmp): there a link planted by another user could redirect the
 *     record.  Elsewhere links are followed (/dev/stderr is one).
 *   - A line that was cut short (a full disk) is ended with a newline if
 *     at all possible, and a writer that finds the file not ending in a
 *     newline starts its own line first, all under a lock that every
 *     writer of ours holds (lock_file): readers then skip one malformed
 *     line, the next record is never glued to it, and no line is blank.
 *   - Whatever failed is said once on stderr, naming the output and the
 *     errno, and the record goes to stderr after "interloper: record: ",
 *     so that the program's own stderr lines stay its own.
 *   - A write to a FIFO whose reader left raises SIGPIPE, and one past
 *     the file-size limit SIGXFSZ: the caller has blocked signals, and a
 *     signal our own write raised is consumed here, not delivered.
 *
 * Everything that runs at the end is async-signal-safe.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>

#include "il.h"
#include "sys.h"

/*
 * Many programs close their stderr on the way out (coreutils' close_stdout
 * does, from an atexit handler), before our record or summary is written.
 * When either goes to stderr by request, keep a copy of the descriptor,
 * taken before main and placed at the top of the range, close-on-exec;
 * il_stderr_fd() returns it while it is still ours.  It is checked when
 * used, against the file noted at the constructor, so it is taken here
 * without a look of its own.
 */
void
il_keep_stderr(void)
{
    if (il.err_fd >= 0 || il.err2 < 0)
        return;
    if (!il.err2)
        il_note_stderr(); /* not looked yet (no constructor ran) */
    if (il.err2 < 0)
        return;
    int fd = il_fd_keep_dup(2);
    if (fd >= 0)
        il.err_fd = fd;
}

/*
 * Before main: settle the destination.  A relative path is made absolute
 * now, in place in il.cfg.output (so that a child forked after a chdir
 * still writes here).
 */
int
il_output_prepare(void)
{
    il.out_ready = 1;
    if (il.cfg.output_stderr) {
        il_keep_stderr();
        return 0;
    }
    const char *rel = il.cfg.output;
    if (rel[0] == '/')
        return 0;
    char abs[IL_PATH_MAX];
    long n = il_sys_getcwd(abs, sizeof abs);
    if (rel[0] == '.' && rel[1] == '/')
        rel += 2;
    if (n <= 0 || strlen(abs) + strlen(rel) + 2 > sizeof abs) {
        il_config_error(&il.cfg, IL_V_OUTPUT, il.cfg.output,
                        "cannot make the path absolute; the record goes to stderr");
        il.cfg.output_stderr = 1;
        il.cfg.output_fallback = 1;
        return IL_ESYS;
    }
    char *p = abs + strlen(abs);
    if (p[-1] != '/')
        *p++ = '/';
    il_strlcpy(p, rel, sizeof abs - (size_t)(p - abs));
    il_strlcpy(il.cfg.output, abs, sizeof il.cfg.output);
    return 0;
}

/*
 * Before main, while the program's stderr is surely open: can the output
 * be written at all (its directory exists and is writable, it is not a
 * directory)?  Said once, and in the record, if not; the destination
 * stays what the user chose (the program may yet create the directory).
 * At the end it may be too late to say anything: many programs close
 * their stderr on the way out, and a record that cannot be written then
 * is lost without a word (libinterloper(7)).
 */
void
il_output_check(void)
{
    char path[IL_PATH_MAX], e[64];
    if (il.cfg.output_stderr || il.cfg.output_fallback)
        return;
    if (!strchr(il.cfg.output, '%'))
        il_strlcpy(path, il.cfg.output, sizeof path);
    else if (il_expand_output(il.cfg.output, (long)il_sys_getpid(), path, sizeof path) < 0)
        return;
    struct stat st;
    long rc;
    if (il_sys_stat(path, &st, 0) == 0) {
        il.out_not_file = !S_ISREG(st.st_mode);
        rc = S_ISDIR(st.st_mode)
                 ? -EISDIR
                 : il_sc6(SYS_faccessat2, AT_FDCWD, (long)path, W_OK, AT_EACCESS, 0, 0);
    } else {
        char *slash = strrchr(path, '/');
        if (!slash)
            return;
        slash[slash == path ? 1 : 0] = 0;
        rc = il_sc6(SYS_faccessat2, AT_FDCWD, (long)path, W_OK | X_OK, AT_EACCESS, 0, 0);
    }
    if (rc >= 0 || rc == -ENOSYS)
        return;
    char what[IL_ERROR_MAX], *p = what;
    if (rc == -EISDIR) {
        p = il_cat(p, "is a directory");
    } else {
        p = il_cat(p, "cannot be written now: ");
        p = il_cat(p, il_errname((int)-rc, e));
    }
    il_cat(p, "; if it still cannot at the end, the record goes to stderr, or is lost if the "
              "program closed its stderr");
    il_config_error(&il.cfg, IL_V_OUTPUT, il.cfg.output, what);
    il.out_warned = 1;
}

/* Is path's directory sticky and writable by anyone (like /tmp)? */
static int
in_sticky_dir(const char *path)
{
    char dir[IL_PATH_MAX];
    il_strlcpy(dir, path, sizeof dir);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return 0;
    slash[slash == dir ? 1 : 0] = 0;
    struct stat st;
    return il_sys_stat(dir, &st, 0) == 0 && (st.st_mode & S_ISVTX) && (st.st_mode & S_IWOTH);
}

/*
 * A pipe (FIFO) has no last byte to look at, so a cut line there could
 * never be mended by the next writer: wait, within the budget, until the
 * whole record fits in the pipe's free space, and write nothing if it
 * never does.  A record larger than the pipe first grows it (F_SETPIPE_SZ,
 * up to /proc/sys/fs/pipe-max-size).  0 when it fits now, or when the
 * pipe's size is unknown or cannot grow enough: then the record goes as
 * the reader reads, and a reader that stops may leave a cut line.
 */
static int
pipe_room(int fd, size_t n, int *budget_ms)
{
    long cap = il_sys_fcntl(fd, F_GETPIPE_SZ, 0);
    if (cap > 0 && n > (size_t)cap)
        cap = il_sys_fcntl(fd, F_SETPIPE_SZ, (long)n);
    if (cap <= 0 || n > (size_t)cap)
        return 0;
    for (;;) {
        int used = 0;
        if (il_sys_ioctl(fd, FIONREAD, (long)&used) < 0 || (size_t)cap - (size_t)used >= n)
            return 0;
        if (*budget_ms <= 0)
            return EAGAIN;
        struct timespec t = {0, 20 * 1000000L};
        il_sys_ppoll(NULL, 0, &t);
        *budget_ms -= 20;
    }
}

static void
reason(char *why, size_t whysz, const char *path, int err, size_t done, size_t n, int ended)
{
    char e[64], *p = why, num[24];
    (void)whysz; /* why holds IL_ERROR_MAX bytes; the path is cut to fit */
    p = il_cat(p, "cannot write the record to ");
    p = il_catn(p, path, 200);
    p = il_cat(p, ": ");
    p = il_cat(p, il_errname(err, e));
    if (done) {
        p = il_cat(p, " after ");
        il_fmt_u64(num, done);
        p = il_cat(p, num);
        p = il_cat(p, " of ");
        il_fmt_u64(num, n);
        p = il_cat(p, num);
        p = il_cat(p, ended ? " bytes; the cut line was ended"
                            : " bytes; the cut line could not be ended");
    }
    il_cat(p, "; the record goes to stderr");
}

/*
 * A regular file many processes append to.  Each writer of this library
 * holds an open file description lock on the whole file (F_OFD_SETLK)
 * from its look at the file's last byte to the close: its record, and the
 * mending of a line it cut itself, happen under it.  So the last byte a
 * writer reads is final: no other writer of ours is half-way through an
 * append (which the file system shows page by page), and a last byte that
 * is not a newline was left by a writer that cut its line and could not
 * end it (a full disk, a process killed mid-write) or by a writer that
 * takes no lock (an older version, another program).  Only then does the
 * writer start its record with a newline: it never makes a blank line, and
 * a cut record is never glued to the next one.  (It replaces a guess from
 * timing, a size that held still for 2 ms, which a writer paused in the
 * middle of its append defeated: issue 17.)
 *
 * The lock is waited for within the record's time budget; 0 once held,
 * 1 where the file system has no such locks (the record is then appended
 * without a look, as any O_APPEND writer's), -1 when another writer held
 * it for the whole budget (the record then goes to stderr, whole).  How
 * long to wait is the only thing timing decides.
 */
static int
lock_file(int fd, int *budget_ms)
{
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET; /* from 0, length 0: the whole file */
    for (int ms = 1;; ms = ms < 16 ? 2 * ms : 16) {
        long rc = il_sys_fcntl(fd, F_OFD_SETLK, (long)&fl);
        if (rc == 0)
            return 0;
        if (rc != -EAGAIN && rc != -EACCES && rc != -EINTR)
            return 1;
        if (*budget_ms <= 0)
            return -1;
        struct timespec t = {0, ms * 1000000L};
        il_sys_ppoll(NULL, 0, &t);
        *budget_ms -= ms;
    }
}

/* Under the lock: does the file, of st (taken under the lock, or NULL:
 * taken now), end in a line left unfinished? */
static int
ends_unfinished(int fd, const struct stat *locked)
{
    struct stat st;
    char last = '\n';
    if (!locked && il_sys_fstat(fd, &st) < 0)
        return 0;
    if (!locked)
        locked = &st;
    return locked->st_size > 0 && il_sys_pread(fd, &last, 1, locked->st_size - 1) == 1 &&
           last != '\n';
}

static int
held_too_long(int fd, const char *path, char *why)
{
    il_sys_close(fd);
    char *p = il_cat(why, "cannot write the record to ");
    p = il_catn(p, path, 200);
    il_cat(p, ": another writer held it locked for 2 s; the record goes to stderr");
    return -1;
}

/*
 * Around everything the record's writing does, the record file and the
 * stderr fallback alike (signals blocked by the caller): a SIGPIPE or
 * SIGXFSZ that our own writes raised is ours to take, not the program's.
 * The signals pending before are looked at (may_signal) only before a
 * write that can raise one: to a pipe, a socket or stderr (SIGPIPE), or
 * to a file under a file-size limit (SIGXFSZ); a record appended to a
 * file or written to /dev/null costs no such system call.
 */
static il_sigset before_ours;
static int looked;

static void
may_signal(void)
{
    if (!looked)
        il_sys_sigpending(&before_ours);
    looked = 1;
}

/*
 * The record file is opened at the lowest free descriptor.  A program
 * that closed its stdout, with another thread still writing to fd 1,
 * would put that thread's bytes in the record file while it is open
 * there.  So the thread that writes the record first takes a descriptor
 * table of its own (unshare(CLONE_FILES)): what it opens is in no other
 * thread's table, by construction, and another thread's write to a closed
 * descriptor fails as it would without us.  The kernel copies the table
 * only when another thread shares it: in a single-threaded process this
 * is one system call that changes nothing.  The writer is ending the
 * process (exit, _exit, quick_exit): its private table ends with it.  Not
 * before an exec, which may fail and leave the thread running, nor for a
 * fatal signal, which may not end the process (pid 1 of a namespace),
 * nor where exit's ender runs the program's code after the record (an
 * on_exit handler registered before our constructor, or an exit() called
 * before it, which runs the program's handlers after the record): that
 * code must see the descriptors the other threads see (review10g,
 * review10h: a handler that closed a pipe's write end for a reader thread
 * left it open in the reader's table, and the reader waited for good).
 * The price there: a thread writing to a closed descriptor while the
 * record file is open at it (two system calls) puts its bytes in the
 * record file (review10h's hammer: most runs of a thread that writes
 * nothing else), which a hang would be worse than.  Output left at the record
 * (exit_open) keeps the private table: its final flush writes to the
 * descriptors as they stood at the record, where without us another
 * thread's later close or reopen would count, a program's own race;
 * without the table a thread writing to a closed descriptor 1 while the
 * record file is opened there would put its bytes in the record, which
 * is worse.  In the cases above, and where unshare is refused (a
 * seccomp filter), the descriptor is moved up to ours at once, which
 * leaves only the moment in between.
 * Returns 1 when the table is our own now.
 */
static int
own_table(void)
{
    int k = __atomic_load_n(&il.end_kind, __ATOMIC_SEQ_CST);
    if (il.end_how == IL_HOW_EXEC || il.end_how == IL_HOW_SIGNAL || k == IL_END_EARLY ||
        (k == IL_END_EXITPATH && il.exit_early_handlers))
        return 0;
    return il_sc6(SYS_unshare, CLONE_FILES, 0, 0, 0, 0, 0) == 0;
}

static long
open_record(const char *path, int flags, int own)
{
    long fd = il_sys_open(path, flags, 0666);
    IL_TEST_DELAY("record_open"); /* as if preempted right after the open */
    return fd < 0 || own ? fd : il_fd_keep((int)fd);
}

/* Is the output something else than a regular file, as far as is known
 * without a system call: what the look before main saw, or where it was
 * skipped (a driver's output), a device's name. */
static int
not_file(const char *path)
{
    if (il.out_not_file)
        return 1;
    return !strncmp(path, "/dev/", 5) && strncmp(path + 5, "shm/", 4);
}

static int
write_file(const char *path, const char *line, size_t n, char *why, size_t whysz)
{
    int own = own_table();
    int flags = O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
    /* A regular file (or none yet) read-write, to look at its last byte,
     * without following a final link first: a link is followed only when
     * its directory is not sticky and world-writable (/tmp), where another
     * user could have planted it.  Anything but a regular file is opened
     * again write-only: opened read-write, a FIFO would have a reader in
     * us.  The common case, a file, costs one open and no look before. */
    int nofollow = O_NOFOLLOW;
    long fd = open_record(path, flags | O_RDWR | nofollow, own);
    if (fd == -ELOOP && !in_sticky_dir(path)) {
        nofollow = 0;
        fd = open_record(path, flags | O_RDWR, own);
    }
    flags |= nofollow;
    if (fd == -EACCES)
        fd = open_record(path, flags | O_WRONLY, own);
    if (fd < 0) {
        reason(why, whysz, path, (int)-fd, 0, n, 0);
        return -1;
    }
    struct stat st;
    struct rlimit rl;
    int err = 0, ended = 0;
    size_t done = 0;
    int budget = IL_WRITE_WAIT_MS;
    /* A file, unless the look before main saw something else (/dev/null,
     * a FIFO): locked first, so that one fstat, under the lock, tells
     * both what it is and where it ends.  Anything else found there
     * after all is closed (the lock with it) and opened again below. */
    int lk = 2; /* not tried */
    if (!not_file(path) && (lk = lock_file((int)fd, &budget)) < 0)
        return held_too_long((int)fd, path, why);
    if (il_sys_fstat((int)fd, &st) < 0)
        st.st_mode = 0;
    if (!S_ISREG(st.st_mode) && (!S_ISCHR(st.st_mode) || lk != 2)) {
        lk = 2;
        il_sys_close((int)fd);
        fd = open_record(path, flags | O_WRONLY, own);
        if (fd < 0) {
            reason(why, whysz, path, (int)-fd, 0, n, 0);
            return -1;
        }
        may_signal(); /* a pipe or a socket: SIGPIPE */
    }
    if (S_ISREG(st.st_mode)) {
        /* Under a file-size limit (ulimit -f) a write past it would be
         * cut short and raise SIGXFSZ: a record that does not fit is not
         * written there at all. */
        int limited = il_sys_getrlimit(RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY;
        if (limited)
            may_signal(); /* another writer may still take us past it */
        if (limited && (uint64_t)st.st_size + n + 1 > (uint64_t)rl.rlim_cur) {
            il_sys_close((int)fd);
            char *p =
                il_cat(why, "the record does not fit under the file-size limit (ulimit -f) of ");
            p = il_catn(p, path, 200);
            il_cat(p, "; the record goes to stderr");
            return -1;
        }
    }
    if (S_ISREG(st.st_mode)) {
        int before = lk != 2; /* st was taken under the lock */
        if (!before && (lk = lock_file((int)fd, &budget)) < 0)
            return held_too_long((int)fd, path, why);
        if (lk == 0 && ends_unfinished((int)fd, before ? &st : NULL))
            il_write_all((int)fd, "\n", 1); /* ends the line someone left cut */
    }
    if (S_ISFIFO(st.st_mode))
        err = pipe_room((int)fd, n, &budget);
    if (!err)
        err = il_write_upto((int)fd, line, n, &done, &budget);
    if (err && done) {
        /* end the cut line, if there is room: within what is left of the
         * budget, and never less than a moment */
        size_t nl;
        if (budget < 200)
            budget = 200;
        ended = il_write_upto((int)fd, "\n", 1, &nl, &budget) == 0;
    }
    il_sys_close((int)fd);
    if (err) {
        reason(why, whysz, path, err, done, n, ended);
        return -1;
    }
    return 0;
}

/*
 * Write one line (ending in '\n') to the output.  0 when it is there; -1
 * with the reason in why (at least IL_ERROR_MAX bytes), said once on
 * stderr, when the caller must fall back to il_output_fallback().
 */
int
il_output_write(const char *line, size_t n, char *why, size_t whysz)
{
    int rc = 0;
    if (il.cfg.output_fallback) {
        il_output_fallback(line, n); /* said before main why */
    } else if (il.cfg.output_stderr) {
        may_signal();
        il_write_all(il_stderr_fd(), line, n); /* stderr asked for: nowhere else to go */
    } else {
        char path[IL_PATH_MAX];
        const char *to = il.cfg.output; /* a %p in it needs the pid: a system call */
        if (strchr(to, '%') &&
            il_expand_output(il.cfg.output, (long)il_sys_getpid(), path, sizeof path) == 0)
            to = path;
        rc = write_file(to, line, n, why, whysz);
        if (rc < 0 && !il.out_warned) { /* once: the record lists both */
            may_signal();
            il_msg(why, NULL, NULL);
        }
    }
    return rc;
}

il_sigset
il_output_pending(void)
{
    looked = 0;
    return 0;
}

void
il_output_settle(il_sigset unused)
{
    (void)unused;
    if (looked)
        il_sig_take(before_ours, IL_SIGBIT(SIGPIPE) | IL_SIGBIT(SIGXFSZ));
}

/* The record on stderr, after "interloper: record: ", in one writev(2). */
void
il_output_fallback(const char *line, size_t n)
{
    static const char pre[] = "interloper: record: ";
    struct iovec v[2] = {{(void *)pre, sizeof pre - 1}, {(void *)line, n}};
    int fd = il_stderr_fd();
    may_signal();
    long w = il_sys_writev(fd, v, 2);
    if (w < 0 || (size_t)w == v[0].iov_len + n)
        return;
    /* cut short (a pipe): the rest, in order */
    size_t done = (size_t)w;
    for (int i = 0; i < 2; i++) {
        size_t skip = done < v[i].iov_len ? done : v[i].iov_len;
        il_write_all(fd, (const char *)v[i].iov_base + skip, v[i].iov_len - skip);
        done -= skip;
    }
}
