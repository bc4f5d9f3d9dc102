/*
 * counted.c: a child that its parent's counters already count opens no
 * counters of its own.
 *
 * With INTERLOPER_INHERIT=all (perf stat's semantics) the kernel counts a
 * forked child, and whatever that child execs, into the counters of the
 * measured process it descends from.  The exec'd image still writes a
 * record of its own (one per image), but it need not count: its counters
 * would only add the library's start-up to the parent's counts (about
 * 0.2 ms and a dozen page faults a child) and descriptors the program
 * can see (CPython's test_subprocess lists them).  So the exec hook in
 * such a child hands the new image a marker, and the new image, finding
 * it, records "counted_in" (the pid whose record holds its counts)
 * instead of opening counters.
 *
 * The marker must not change the environment: its size is the very bias
 * interloper controls.  It is a descriptor: a sealed eight-byte memfd
 * holding that pid, at the top of the descriptor range, not close-on-exec.
 * The new image's constructor recognises it by its seals and size, takes
 * it and closes it, before the program's own constructors run.  It is
 * handed over only when it cannot leak: the target is a dynamically
 * linked program (or a script whose interpreter is one), not set-user-ID,
 * exec'd with LD_PRELOAD naming this library, and the descriptor is free
 * (or holds one of our counters, which the exec would close anyway).
 * posix_spawn, system and popen exec inside glibc, past the exec hooks:
 * their hooks (forkexec.c) put the marker at the top for the spawn's
 * length, in a process of one thread only (il_counted_spawn).  Anywhere
 * else (a spawn in a process of several threads, an exec by system call)
 * the child counts itself, as before.
 */
#include <elf.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "il.h"
#include "il_secure.h"
#include "sys.h"

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC 1U
#define MFD_ALLOW_SEALING 2U
#endif
#ifndef F_ADD_SEALS
#define F_ADD_SEALS 1033
#define F_GET_SEALS 1034
#define F_SEAL_SEAL 1
#define F_SEAL_SHRINK 2
#define F_SEAL_GROW 4
#define F_SEAL_WRITE 8
#endif
#define SEALS (F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE)

/* The pid whose record counts an image this process execs, or 0. */
static pid_t
counting(void)
{
    if (il.secure || il.inherit != IL_INHERIT_ALL || !il.pid)
        return 0;
    if (il.counted_in)
        return il.counted_in; /* counted itself, and so is what it execs */
    /* a forked child (or vfork child) of a process counting its children */
    return il.pid != (pid_t)il_sys_getpid() && il.counts_children ? il.pid : 0;
}

/* The pid whose record counts a child this process spawns, or 0: this
 * process's own while it counts its children, else as counting() says
 * (an ancestor's, for a counted image or a forked child). */
static pid_t
spawn_counting(void)
{
    if (il.secure || il.inherit != IL_INHERIT_ALL || !il.pid)
        return 0;
    if (il.counted_in || il.pid != (pid_t)il_sys_getpid())
        return counting();
    return il.counts_children && il.phase == IL_PHASE_RUNNING ? il.pid : 0;
}

/* Does the file carry file capabilities?  Exec'ing it as a user who gains
 * them is AT_SECURE, like set-user-ID: ld.so then ignores a preload given
 * by path, and nobody would take the memfd. */
static int
has_file_caps(int fd)
{
    return il_sc6(SYS_fgetxattr, fd, (long)"security.capability", 0, 0, 0, 0) >= 0;
}

/* What an exec of the file at (dir, path), or fd when path is NULL,
 * runs: 2 a #! script (its interpreter's path in interp, 256 bytes), 1 a
 * 64-bit ELF (*dyn: it names an interpreter, so it is dynamic), 0 another
 * regular file, -1 one that cannot be read or is not regular; *st its
 * status, *caps whether it bears file capabilities where caps is not
 * NULL, and *secure whether they surely make its exec secure where secure
 * is not NULL. */
static int
exec_kind(int dir, const char *path, int fd, struct stat *st, char *interp, int *dyn, int *caps,
          int *secure)
{
    long f = path ? il_sys_openat(dir, path, O_RDONLY | O_CLOEXEC, 0) : fd;
    if (f < 0)
        return -1;
    unsigned char h[256];
    int kind = -1;
    *dyn = 0;
    long n = il_sys_fstat((int)f, st) == 0 && S_ISREG(st->st_mode)
                 ? il_sys_pread((int)f, h, sizeof h - 1, 0)
                 : -1;
    if (caps && n >= 0)
        *caps = has_file_caps((int)f);
    if (secure)
        *secure = n >= 0 && il_exec_secure_fd((int)f, st);
    if (n >= 4 && h[0] == '#' && h[1] == '!') {
        h[n] = 0;
        char *p = (char *)h + 2, *e;
        while (*p == ' ' || *p == '\t')
            p++;
        for (e = p; *e && *e != ' ' && *e != '\t' && *e != '\n'; e++)
            ;
        *e = 0;
        memcpy(interp, p, (size_t)(e - p) + 1);
        kind = 2;
    } else if (n >= (long)sizeof(Elf64_Ehdr) && !memcmp(h, ELFMAG, SELFMAG) &&
               h[EI_CLASS] == ELFCLASS64) {
        Elf64_Ehdr eh;
        memcpy(&eh, h, sizeof eh);
        Elf64_Phdr ph[32];
        size_t want = (size_t)eh.e_phnum * sizeof ph[0];
        kind = -1; /* its program headers unread: nothing known */
        if (eh.e_phentsize == sizeof ph[0] && want <= sizeof ph &&
            il_sys_pread((int)f, ph, want, (long)eh.e_phoff) == (long)want) {
            kind = 1;
            for (int i = 0; i < eh.e_phnum; i++)
                *dyn |= ph[i].p_type == PT_INTERP;
        }
    } else if (n >= 0) {
        kind = 0;
    }
    if (path)
        il_sys_close((int)f);
    return kind;
}

/* Does the file at (dir, path), or fd when path is NULL, load the library
 * when exec'd: a dynamic ELF, or a script whose interpreter is one, and
 * neither set-user-ID, set-group-ID nor capability-bearing?  depth bounds
 * the #! chain. */
static int
loads_library(int dir, const char *path, int fd, int depth)
{
    struct stat st;
    char interp[256];
    int dyn, caps = 0, k = exec_kind(dir, path, fd, &st, interp, &dyn, &caps, NULL);
    if (k <= 0 || (st.st_mode & (S_ISUID | S_ISGID)) || caps)
        return 0;
    if (k == 2)
        return depth > 0 && interp[0] == '/' && loads_library(AT_FDCWD, interp, -1, depth - 1);
    return dyn;
}

static int
preloads_us(char *const envp[])
{
    for (char *const *e = envp; e && *e; e++)
        if (!strncmp(*e, "LD_PRELOAD=", 11))
            return strstr(*e + 11, "libinterloper") != NULL;
    return 0;
}

/*
 * Will an exec of the file at (dir, path), or fd, surely not load the
 * library, its environment preloading it?  1 only on proof (review13d
 * M3: a file it cannot read, or an interpreter that is not there, is no
 * proof): a 64-bit ELF without an interpreter (static), or one whose
 * set-user-ID, set-group-ID or file capabilities make the exec secure
 * (il_secure.h: owner or group not ours, no nosuid mount; outside14 H1),
 * or a script whose interpreter is such a program.  depth bounds the #!
 * chain.
 */
static int
surely_unloaded(int dir, const char *path, int fd, int depth)
{
    struct stat st;
    char interp[256];
    int dyn, secure = 0, k = exec_kind(dir, path, fd, &st, interp, &dyn, NULL, &secure);
    if (k == 2)
        return depth > 0 && interp[0] == '/' && surely_unloaded(AT_FDCWD, interp, -1, depth - 1);
    if (k != 1)
        return 0;
    return !dyn || secure;
}

/*
 * An exec the library cannot follow (outside13 F13): `env -i PROG`, an
 * environment without LD_PRELOAD naming the library, or a program that
 * surely does not load it (static; set-user-ID of another user).  The
 * new image then writes no record: this image's record, written at the
 * exec, is the last, and it says so (finish.c, under the claim).  Why in
 * words, or NULL where the new image measures itself or nothing is sure.
 * Reads only: safe in a vfork child and before the claim.
 */
const char *
il_exec_unfollowed(int dir, const char *path, int fd, char *const envp[])
{
    if (preloads_us(envp))
        return surely_unloaded(dir, path, fd, 2)
                   ? "it does not load the library (a static program, set-user-ID or "
                     "set-group-ID of another user, or one that gains file capabilities)"
                   : NULL;
    /* a file that is neither ELF nor #! fails to exec (ENOEXEC), and one
     * that cannot be read tells nothing: said only for a program, or a
     * script whose interpreter can run (review13d M3: a missing one, the
     * common bad #!, fails with ENOENT, and the line was said all the same) */
    long f = path ? il_sys_openat(dir, path, O_RDONLY | O_CLOEXEC, 0) : fd;
    unsigned char h[4] = {0};
    long n = f >= 0 ? il_sys_pread((int)f, h, sizeof h, 0) : -1;
    if (path && f >= 0)
        il_sys_close((int)f);
    if (n >= 2 && h[0] == '#' && h[1] == '!') {
        struct stat st;
        char interp[256];
        int dyn;
        if (exec_kind(dir, path, fd, &st, interp, &dyn, NULL, NULL) != 2 ||
            il_sc6(SYS_faccessat, AT_FDCWD, (long)interp, X_OK, 0, 0, 0) != 0 ||
            il_sc6(SYS_newfstatat, AT_FDCWD, (long)interp, (long)&st, 0, 0, 0) != 0 ||
            !S_ISREG(st.st_mode))
            return NULL;
    } else if (!(n == 4 && !memcmp(h, ELFMAG, SELFMAG))) {
        return NULL;
    }
    return "its environment has no LD_PRELOAD naming the library (env -i, env -u, a harness "
           "that cleans the environment)";
}

/* Does the new image's environment say INTERLOPER_BACKEND=none? */
static int
backend_none(char *const envp[])
{
    for (char *const *e = envp; e && *e; e++)
        if (!strncmp(*e, "INTERLOPER_BACKEND=", 19))
            return !strcmp(*e + 19, "none");
    return 0;
}

/* Is descriptor fd free, or one of our counters (which a forked child
 * still holds, close-on-exec, until the exec): an anonymous inode that
 * takes perf's ioctls (backend_perf.c, fd_is_ours), at an event's number? */
static int
ours_or_free(int fd)
{
    struct stat st;
    uint64_t id;
    if (il_sys_fstat(fd, &st) < 0)
        return 1;
    for (int i = 0; i < il.nev; i++)
        if (il.ev[i].fd == fd)
            return (st.st_mode & S_IFMT) == 0 &&
                   il_sys_ioctl(fd, PERF_EVENT_IOC_ID, (long)&id) == 0;
    return 0;
}

/*
 * Called by the exec hooks just before the real exec: hand the new image
 * the marker if it is counted.  Returns the descriptor to close if the
 * exec fails, or -1.  Safe in a vfork child: it writes no memory but its
 * own stack.
 */
static int
give(pid_t who, int dir, const char *path, int fd, char *const envp[])
{
    int top = il_fd_top();
    /* under a lower limit the new image looks only once it knows it, which
     * one with INTERLOPER_BACKEND=none never asks (il_counted_late) */
    if (!who || !preloads_us(envp) || (top < IL_FD_MAX && backend_none(envp)) ||
        !ours_or_free(top) || !loads_library(dir, path, fd, 2))
        return -1;
    long m = IL_SC(SYS_memfd_create, "interloper-counted", MFD_CLOEXEC | MFD_ALLOW_SEALING, 0);
    if (m < 0)
        return -1;
    int64_t v = who;
    int fd2 = -1;
    if (il_sys_write((int)m, &v, sizeof v) == (long)sizeof v &&
        il_sys_fcntl((int)m, F_ADD_SEALS, SEALS) == 0 && IL_SC(SYS_dup3, m, top, 0) == top)
        fd2 = top;
    il_sys_close((int)m);
    return fd2;
}

int
il_counted_give(int dir, const char *path, int fd, char *const envp[])
{
    return give(counting(), dir, path, fd, envp);
}

/* Is this process one thread: the num_threads of /proc/self/stat, the
 * 18th field after the command's closing parenthesis, 1?  No when it
 * cannot be read. */
static int
one_thread(void)
{
    char b[1024];
    long fd = il_sys_open("/proc/self/stat", O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    long n = il_sys_read((int)fd, b, sizeof b - 1);
    il_sys_close((int)fd);
    if (n <= 0)
        return 0;
    b[n] = 0;
    char *p = strrchr(b, ')'); /* the command may hold one */
    for (int i = 0; p && i < 18; i++)
        p = strchr(p + 1, ' ');
    return p && p[1] == '1' && p[2] == ' ';
}

/* The counter moved off the top for a spawn's marker: its event plus one
 * (0: none, as forkexec.c's spawn_marker), its place meanwhile, and the
 * top (il_counted_spawn). */
static struct {
    int ev1, fd, top;
} moved;

/* A spawn is between il_counted_spawn and il_counted_spawn_end: one made
 * meanwhile (a signal handler's) gets no marker, and moves nothing
 * (review14d M1: its failure put the counter over the outer marker, which
 * the outer end then closed: the record lost every value). */
static volatile sig_atomic_t spawning;

/* Put the counter at top back there (il_counted_spawn): its copy at the
 * top first, then the event told so, then the copy below closed, so that a
 * signal handler that reads the counters always finds one of the two. */
static void
move_back(void)
{
    if (!moved.ev1)
        return;
    if (IL_SC(SYS_dup3, moved.fd, moved.top, O_CLOEXEC) == moved.top) {
        __atomic_store_n(&il.ev[moved.ev1 - 1].fd, moved.top, __ATOMIC_SEQ_CST);
        il_sys_close(moved.fd);
    }
    moved.ev1 = 0;
}

/*
 * Called by the hooks of posix_spawn, posix_spawnp, system and popen before
 * glibc's (forkexec.c): glibc clones and execs the child itself, past the
 * exec hooks, but its child is counted by this process's counters all the
 * same (inherited at the clone), so it should have the marker too.  It
 * can only be given by the descriptor table the clone copies: the marker
 * sits at the top, not close-on-exec, until il_counted_spawn_end after the
 * spawn (glibc's clone waits for the child's exec).  Any child made
 * meanwhile gets it, so only where no other thread can make one: a
 * process of one thread (a fork in a signal handler is handled by the
 * fork hook).  The target (path, whose environment is envp) must load the
 * library, as in il_counted_give.  Where one of this process's own
 * counters is at the top (the measured process's first, usually), it
 * makes room: the counter is copied below (close-on-exec), the event told
 * its new descriptor, and the top closed; il_counted_spawn_end puts it
 * back.  Returns the marker, or -1.  About 25 system calls in all, in a
 * process that counts its children only (the child then opens no
 * counters: system("/bin/true") made 498 in all, where it made 500).
 */
int
il_counted_spawn(const char *path, char *const envp[])
{
    if (spawning)
        return -1;
    pid_t who = spawn_counting();
    if (!who || !path || !one_thread())
        return -1;
    spawning = 1;
    int top = il_fd_top();
    for (int i = 0; i < il.nev; i++) {
        if (il.ev[i].fd != top || !ours_or_free(top))
            continue;
        long fd = il_sys_fcntl(top, F_DUPFD_CLOEXEC, top > 64 ? top - 64 : 3);
        if (fd < 0 || fd >= top) {
            if (fd >= 0)
                il_sys_close((int)fd);
            spawning = 0;
            return -1;
        }
        moved.ev1 = i + 1;
        moved.fd = (int)fd;
        moved.top = top;
        __atomic_store_n(&il.ev[i].fd, (int)fd, __ATOMIC_SEQ_CST);
        il_sys_close(top);
        break;
    }
    int m = give(who, AT_FDCWD, path, -1, envp);
    if (m < 0) {
        move_back();
        spawning = 0;
    }
    return m;
}

/* After the spawn: the marker closed, and a counter moved for it back. */
void
il_counted_spawn_end(int m)
{
    if (m < 0)
        return;
    il_sys_close(m);
    move_back();
    spawning = 0;
}

/* Is a child this process makes counted by its counters, or an
 * ancestor's (so that a spawn hook looks further)? */
int
il_counted_children(void)
{
    return spawn_counting() != 0;
}

/* Is there a marker at top?  Take it (close it) in any case, so that the
 * program never sees it; 1 if one was taken. */
static int
take_at(int top)
{
    struct stat st;
    int64_t v = 0;
    if (il_sys_fstat(top, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size != sizeof v ||
        il_sys_fcntl(top, F_GET_SEALS, 0) != SEALS)
        return 0;
    if (il_sys_pread(top, &v, sizeof v, 0) == (long)sizeof v && v > 0)
        il.counted_in = (pid_t)v;
    il_sys_close(top);
    return 1;
}

/*
 * In the constructor: a marker at IL_FD_MAX, where il_counted_give puts it
 * under a descriptor limit above IL_FD_MAX (the usual 1024 and more).
 * The limit is not asked here (one system call fewer in every process):
 * under a lower one the marker is just under it, and il_counted_late
 * looks there once the limit is known.
 */
void
il_counted_take(void)
{
    take_at(IL_FD_MAX);
}

/*
 * Before main (il.counted_late, set by start.c while the events are set
 * up): under a descriptor limit below IL_FD_MAX + 1, take the marker just
 * under the limit.  ask 0 (dup_high, when a placement at IL_FD_MAX finds
 * the limit lower): only if the limit is known; ask 1 (il_events_setup, at
 * its end): asked here if not, unless perf's counters were placed, which
 * tried IL_FD_MAX first and so found the limit above it.  Once per process
 * image; 1 if a marker with a pid was taken (il.counted_in).
 */
int
il_counted_late(int ask)
{
    static int looked;
    if (looked || il.counted_in || il.cfg.backend == IL_BACKEND_NONE)
        return 0;
    if (!il.fd_top) {
        if (!ask || il.be == &il_backend_perf)
            return 0;
        il.fd_top = il_fd_top();
    }
    looked = 1;
    return il.fd_top < IL_FD_MAX && take_at(il.fd_top) && il.counted_in;
}
